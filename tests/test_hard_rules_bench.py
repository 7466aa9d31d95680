"""``bench.hard_rules``: each rule narrows the hard player's moves before rolling exactly as its
docstring says, in positions set by hand, and the script runs and names a bad rule."""

from __future__ import annotations

import numpy as np
import pytest

from bench.hard_rules import RuledHard, has_group_to_build, main, ruled_mask
from byapar_env.action_table import ACTIONS, ROLL_ID, action_id
from byapar_env.byapar_v0 import raw_env
from byapar_env.engine import Phase

JUMLA, SURKHET, MAHENDRANAGAR = 1, 3, 6  # Jumla and Surkhet: the Karnali group (house Rs 500)


def _game_with_karnali(cash: int):
    """Seat 0 of a fresh two-seat game owns Karnali whole and Mahendranagar, with ``cash``."""
    env = raw_env(num_players=2)
    env.reset(seed=0)
    game = env.game
    for sq in (JUMLA, SURKHET, MAHENDRANAGAR):
        game.owner[sq] = 0
    game.cash[0] = cash
    return game


def _mask(*ids: int) -> np.ndarray:
    mask = np.zeros(len(ACTIONS), np.int8)
    mask[list(ids)] = 1
    return mask


def test_mortgage_reserve_drops_mortgages_above_the_reserve_or_without_a_group() -> None:
    mortgage = action_id("mortgage", MAHENDRANAGAR)
    mask = _mask(ROLL_ID, mortgage)
    rules = frozenset({"mortgage-reserve"})

    rich = _game_with_karnali(3_000)
    narrowed = ruled_mask(rich, 0, mask, rules)
    assert narrowed[mortgage] == 0 and narrowed[ROLL_ID] == 1 and mask[mortgage] == 1

    short = _game_with_karnali(2_900)  # short of the reserve, with a group to build on
    assert has_group_to_build(short, 0)
    assert ruled_mask(short, 0, mask, rules) is mask

    short.mortgaged[SURKHET] = True  # the group half mortgaged: nothing to build on
    assert not has_group_to_build(short, 0)
    assert ruled_mask(short, 0, mask, rules)[mortgage] == 0

    only_mortgage = _mask(mortgage)  # a rule never leaves nothing legal
    assert ruled_mask(rich, 0, only_mortgage, rules) is only_mortgage


def test_build_first_keeps_only_houses_below_three_that_the_cash_covers() -> None:
    on_jumla, on_surkhet = action_id("build", JUMLA), action_id("build", SURKHET)
    mortgage = action_id("mortgage", MAHENDRANAGAR)
    mask = _mask(ROLL_ID, on_jumla, on_surkhet, mortgage)
    rules = frozenset({"build-first"})

    game = _game_with_karnali(3_500)  # Rs 500 a house + the Rs 3,000 reserve
    narrowed = ruled_mask(game, 0, mask, rules)
    assert np.flatnonzero(narrowed).tolist() == sorted([on_jumla, on_surkhet])

    assert ruled_mask(_game_with_karnali(3_499), 0, mask, rules) is mask
    game.buildings[JUMLA] = game.buildings[SURKHET] = 3  # the group at three houses
    assert ruled_mask(game, 0, mask, rules) is mask


def test_the_ruled_player_applies_its_rules_before_rolling_only() -> None:
    env = raw_env(num_players=2)
    env.reset(seed=3)
    assert env.game.phase == Phase.BUY
    seat = env.game.current_player
    plain = RuledHard(frozenset()).act(env, seat)
    assert RuledHard(frozenset({"mortgage-reserve", "build-first"})).act(env, seat) == plain


def test_the_script_runs_and_names_a_bad_rule(capsys) -> None:
    assert main(["--opponents", "easy", "--games", "2", "--rules", "none,build-first"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "hard + easy: 2 games a variant, seed 41, seats rotated"
    assert out[1].startswith("none ") and out[2].startswith("build-first ")
    with pytest.raises(SystemExit):
        main(["--rules", "sell-everything"])
    assert "unknown rule 'sell-everything'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--opponents", "easy,easy,easy,easy,easy,easy"])
    assert "--opponents must name 1 to 5 players, got 6" in capsys.readouterr().err
