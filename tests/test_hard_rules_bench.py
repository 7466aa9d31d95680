"""``bench.hard_rules``: each rule narrows the hard player's moves before rolling, or replaces
its choice in a purchase or an auction, exactly as its docstring says, in positions set by hand,
and the script runs and names a bad rule."""

from __future__ import annotations

import numpy as np
import pytest

from bench.hard_rules import RuledHard, has_group_to_build, main, ruled_choice, ruled_mask
from byapar_env.action_table import (
    ACTIONS,
    BID_MIN_ID,
    BUY_ID,
    DECLINE_ID,
    DROP_OUT_ID,
    ROLL_ID,
    action_id,
)
from byapar_env.byapar_v0 import raw_env
from byapar_env.engine import Phase, board

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


def _buying_env():
    """A fresh two-seat game (seed 3) whose first player may buy the place it landed on."""
    env = raw_env(num_players=2)
    env.reset(seed=3)
    assert env.game.phase == Phase.BUY
    return env


def test_buy_always_buys_wherever_buying_is_legal() -> None:
    env = _buying_env()
    game, seat = env.game, env.game.current_player
    mask = env.observe(env.possible_agents[seat])["action_mask"]
    assert mask[BUY_ID] and mask[DECLINE_ID]
    rules = frozenset({"buy-always"})
    assert ruled_choice(game, seat, mask, DECLINE_ID, rules) == BUY_ID
    assert ruled_choice(game, seat, mask, DECLINE_ID, frozenset({"bid-to-price"})) == DECLINE_ID
    assert ruled_choice(game, seat, _mask(DECLINE_ID), DECLINE_ID, rules) == DECLINE_ID
    assert RuledHard(rules).act(env, seat) == BUY_ID


def test_bid_to_price_raises_by_the_least_step_up_to_the_price_and_the_cash() -> None:
    env = _buying_env()
    env.step(DECLINE_ID)  # the place goes to auction
    game = env.game
    assert game.phase == Phase.AUCTION
    bidder, auction = game.current_player, game.auction
    price = board.SQUARES[auction.square].price
    mask = _mask(DROP_OUT_ID, BID_MIN_ID)
    rules = frozenset({"bid-to-price"})
    auction.high = price - board.BID_STEP  # the least raise bids the price itself
    assert ruled_choice(game, bidder, mask, DROP_OUT_ID, rules) == BID_MIN_ID
    assert ruled_choice(game, bidder, mask, action_id("bid_raise", 500), rules) == action_id(
        "bid_raise", 500)  # a bid the policy chose stands
    game.cash[bidder] = price - 1  # the raise is beyond the cash
    assert ruled_choice(game, bidder, mask, DROP_OUT_ID, rules) == DROP_OUT_ID
    game.cash[bidder] = 15_000
    auction.high = price  # the least raise goes over the price
    assert ruled_choice(game, bidder, mask, DROP_OUT_ID, rules) == DROP_OUT_ID


def test_the_script_runs_and_names_a_bad_rule(capsys) -> None:
    assert main(["--opponents", "easy", "--games", "2", "--rules", "none,build-first"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "hard + easy: 2 games a variant, seed 41, seats rotated"
    assert out[1].startswith("none ") and out[2].startswith("build-first ")
    rates = [float(line.split()[1].rstrip("%")) for line in out[1:3]]
    assert out[3].strip().startswith(f"{rates[1] - rates[0]:+.1f} points on none (se ")
    with pytest.raises(SystemExit):
        main(["--rules", "sell-everything"])
    assert "unknown rule 'sell-everything'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--opponents", "easy,easy,easy,easy,easy,easy"])
    assert "--opponents must name 1 to 5 players, got 6" in capsys.readouterr().err
