"""The computer players: complete legal games at every table, and each level's habits."""

from __future__ import annotations

import pytest
from scenario import give, new_game, owing_rent_on_pokhara, sq

from byapar_agents import AGENT_NAMES, EasyPlayer, MediumPlayer, UnknownAgentError, make_agent
from byapar_env.engine import Phase, actions
from byapar_harness.arena import ArenaConfig, play_game

OPTIONS = [dict(rounds=40, auctions=True), dict(rounds=None, auctions=False),
           dict(rounds=20, starting_cash=10_000, auctions=True)]


@pytest.mark.parametrize("players", range(2, 7))
@pytest.mark.parametrize("options", OPTIONS, ids=["default", "until-one-left-bank", "short"])
def test_every_level_finishes_legal_games_at_every_table(players: int, options: dict) -> None:
    """Mixed tables run through the environment (random is there), so every action is checked
    against the mask; tables of hand-written players run on the engine."""
    lineup = tuple((["medium", "easy", "random"] * 2)[:players])
    for index in range(2):
        result = play_game(ArenaConfig(players=lineup, **options), index)
        assert abs(sum(result.shares) - 1.0) < 1e-9
        assert result.rounds <= (options["rounds"] or 100)
    engine_only = tuple((["medium", "easy"] * 3)[:players])
    result = play_game(ArenaConfig(players=engine_only, **options), 0)
    assert abs(sum(result.shares) - 1.0) < 1e-9


def test_make_agent_by_name_and_errors() -> None:
    assert set(AGENT_NAMES) == {"random", "easy", "medium", "hard", "guardian", "completer",
                                "shark", "builder", "hoarder", "trader", "strategist", "expert",
                                "hard-unguarded", "hard-guarded", "hard-unscreened", "hard-aimed",
                                "hard-sim", "hard-judged", "hard-valuebids",
                                "hard-consolidating"}
    assert isinstance(make_agent("easy"), EasyPlayer)
    assert isinstance(make_agent("medium"), MediumPlayer)
    with pytest.raises(UnknownAgentError, match="unknown player 'grandmaster'"):
        make_agent("grandmaster")


def decide(player, game):
    return player.choose(game, game.current_player, game.legal_actions())


def landed_on(name: str, cash: int, players: int = 2):
    """Seat 0 stands on an unowned place ``name`` with ``cash``, deciding whether to buy."""
    game = new_game(players)
    game.cash[0] = cash
    game.position[0] = (sq(name) - 7) % 36
    game.force_dice((3, 4))
    game.apply(actions.ROLL)
    assert game.phase == Phase.BUY
    return game


def test_easy_buys_keeping_a_small_reserve() -> None:
    assert decide(EasyPlayer(), landed_on("Pokhara", 3_300)) == actions.buy(sq("Pokhara"))
    assert decide(EasyPlayer(), landed_on("Pokhara", 3_200)) == actions.decline(sq("Pokhara"))


def test_easy_bids_at_most_the_price() -> None:
    game = landed_on("Jumla", 15_000)
    game.apply(actions.decline(sq("Jumla")))
    assert game.phase == Phase.AUCTION and game.current_player == 1
    game.auction.high = 400
    assert decide(EasyPlayer(), game) == actions.bid(sq("Jumla"), 500)
    game.auction.high = 600
    assert decide(EasyPlayer(), game) == actions.DROP_OUT


def test_easy_answers_trades_by_list_value_and_never_offers() -> None:
    game = new_game(2)
    give(game, 1, "Surkhet")
    offer = actions.offer_trade(1, [], [sq("Surkhet")], 700)
    game.apply(offer)
    assert decide(EasyPlayer(), game) == actions.ACCEPT_TRADE  # 700 for a place listed at 600
    game.apply(actions.REJECT_TRADE)
    game.apply(actions.offer_trade(1, [], [sq("Surkhet")], 500))
    assert decide(EasyPlayer(), game) == actions.REJECT_TRADE
    game.apply(actions.REJECT_TRADE)
    give(game, 0, "Jumla")
    assert decide(EasyPlayer(), game) == actions.ROLL  # no offers of its own


def test_easy_pays_to_leave_jail_at_once() -> None:
    game = new_game(2)
    game.in_jail[0] = True
    game.position[0] = 9
    assert decide(EasyPlayer(), game) == actions.PAY_FINE


def test_medium_offers_for_the_last_place_of_its_group() -> None:
    game = new_game(2)
    give(game, 0, "Mahendranagar", "Dhangadhi")
    give(game, 1, "Dadeldhura")
    action = decide(MediumPlayer(), game)
    assert action.kind == actions.ActionKind.OFFER_TRADE
    assert action.target == 1 and action.take == (sq("Dadeldhura"),)
    assert action.amount >= 1_200  # at least the list price: an easy player accepts


def test_medium_refuses_to_finish_a_rivals_group_cheaply() -> None:
    game = new_game(2)
    give(game, 0, "Mahendranagar", "Dhangadhi")
    give(game, 1, "Dadeldhura")
    game.apply(actions.offer_trade(1, [], [sq("Dadeldhura")], 2_000))
    medium = MediumPlayer()
    assert decide(medium, game) == actions.REJECT_TRADE
    game.apply(actions.REJECT_TRADE)
    game.apply(actions.offer_trade(1, [], [sq("Dadeldhura")], 8_000))
    assert decide(medium, game) == actions.ACCEPT_TRADE


def test_medium_raises_cash_by_the_cheapest_mortgage_first() -> None:
    game = owing_rent_on_pokhara()
    assert game.phase == Phase.RAISE_CASH
    assert decide(MediumPlayer(), game) == actions.mortgage(sq("Jumla"))


def test_the_shipped_hard_player_loads_with_numpy_and_plays() -> None:
    """byapar_checkpoints/hard loads without the training code and plays a full legal game."""
    from byapar_agents import LearnedPlayer
    from byapar_agents.hard import DEFAULT_CHECKPOINT

    player = make_agent("hard")
    assert isinstance(player, LearnedPlayer) and player.folder == DEFAULT_CHECKPOINT
    assert player.meta["training"]["steps"] > 0
    result = play_game(ArenaConfig(players=("hard", "medium", "easy", "random")), 0)
    assert abs(sum(result.shares) - 1.0) < 1e-9
    # Heads-up tables are played by the shipped specialist, larger ones by the main policy.
    assert set(player.specialists) == {2}
    assert player.policy_for(2) is player.specialists[2] and player.policy_for(4) is player.policy
    result = play_game(ArenaConfig(players=("hard", "medium")), 0)
    assert abs(sum(result.shares) - 1.0) < 1e-9


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_a_checkpoint_with_nan_or_infinite_weights_is_refused(tmp_path, bad) -> None:
    """D2: one NaN weight used to load, and the player then always chose the lowest legal id."""
    import shutil
    import subprocess
    import sys

    import numpy as np

    from byapar_agents.hard import DEFAULT_CHECKPOINT
    from byapar_agents.network import CheckpointError

    folder = tmp_path / "damaged"
    shutil.copytree(DEFAULT_CHECKPOINT, folder, ignore=shutil.ignore_patterns("table_*"))
    meta = (folder / "meta.json").read_text().replace('"table_specialists"', '"unused"')
    (folder / "meta.json").write_text(meta)
    with np.load(folder / "weights.npz") as data:
        layers = {k: data[k].copy() for k in data.files}
    layers["layer1_w"][3, 7] = bad
    np.savez(folder / "weights.npz", **layers)
    with pytest.raises(CheckpointError, match="layer 1 holds NaN or infinite weights"):
        make_agent(str(folder))
    done = subprocess.run([sys.executable, "-m", "byapar_cli", "arena", "--players",
                           f"{folder},medium", "--games", "2"], capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2 and "NaN or infinite" in done.stderr
    assert done.stderr.strip().count("\n") == 0
