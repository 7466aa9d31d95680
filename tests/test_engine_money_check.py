"""The engine's saved-game loader refuses money that does not add up (issue 26)."""

from __future__ import annotations

import random

import pytest

from byapar_env.engine import Game, GameStateError, Rules
from byapar_env.engine.errors import UnbalancedMoneyError
from byapar_env.engine.serialize import game_from_dict, game_from_json, game_to_dict


def played(seed: int, players: int = 4, moves: int = 300) -> Game:
    game = Game(Rules(num_players=players), seed=seed)
    rng = random.Random(seed)
    for _ in range(moves):
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
    return game


@pytest.mark.parametrize("seed", range(6))
def test_games_played_load_and_their_money_adds_up(seed: int) -> None:
    game = played(seed, players=2 + seed % 5, moves=100 + 150 * seed)
    assert game_from_json(game.to_json()).to_json() == game.to_json()
    assert game_from_dict(game_to_dict(game)).to_json() == game.to_json()


def test_cash_from_nowhere_is_refused_with_a_typed_error() -> None:
    data = game_to_dict(played(3))
    start = sum(data["cash"])
    data["cash"][1] += 10**12
    with pytest.raises(UnbalancedMoneyError) as caught:
        game_from_dict(data)
    assert isinstance(caught.value, GameStateError)
    expected = start
    assert str(caught.value) == (
        f"saved game's money does not add up: the seats hold Rs {start + 10**12:,}, but 4 x "
        f"Rs {data['rules']['starting_cash']:,} to start, plus Rs {data['bank_paid']:,} the "
        f"bank paid out, less Rs {data['bank_received']:,} it received, is Rs {expected:,}")


@pytest.mark.parametrize("field, change", [("bank_paid", 500), ("bank_received", 10),
                                           ("cash", -100)])
def test_any_field_of_the_sum_out_of_line_is_refused(field: str, change: int) -> None:
    import json

    data = game_to_dict(played(5))
    if field == "cash":
        data["cash"][0] += change
    else:
        data[field] += change
    with pytest.raises(UnbalancedMoneyError):
        game_from_json(json.dumps(data))


def test_every_loader_refuses_it_the_game_and_the_environment_too() -> None:
    import json

    from byapar_env import byapar_v0

    data = game_to_dict(played(2, players=3))
    data["cash"][0] += 10**12
    text = json.dumps(data)
    with pytest.raises(UnbalancedMoneyError):
        Game.from_json(text)
    env = byapar_v0.raw_env(num_players=3)
    env.reset(seed=1)
    before = env.save_state()
    state = json.loads(before)
    state["engine"] = text
    with pytest.raises(ValueError, match="UnbalancedMoneyError"):
        env.load_state(json.dumps(state))
    assert env.save_state() == before  # nothing changed
