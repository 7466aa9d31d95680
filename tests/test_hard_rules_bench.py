"""``bench.hard_rules``: each rule narrows the hard player's moves before rolling, or replaces
its choice in a purchase, an auction, an answer or while raising cash, exactly as its docstring
says, in positions set by hand, and the script runs and names a bad rule."""

from __future__ import annotations

import numpy as np
import pytest
from scenario import give, new_game, owing_rent_on_pokhara, sq

from bench.hard_rules import RuledHard, has_group_to_build, main, ruled_choice, ruled_mask
from byapar_env.action_table import (
    ACCEPT_ID,
    ACTIONS,
    BID_MIN_ID,
    BUY_ID,
    DECLINE_ID,
    DROP_OUT_ID,
    REJECT_ID,
    ROLL_ID,
    action_id,
)
from byapar_env.byapar_v0 import raw_env
from byapar_env.engine import Phase, actions, board

JUMLA, SURKHET, MAHENDRANAGAR = 1, 3, 6  # Jumla and Surkhet: the Karnali group (house Rs 500)


def _game_with_karnali(cash: int):
    """Seat 0 of a fresh two-seat game owns Karnali whole and Mahendranagar, with ``cash``."""
    env = raw_env(num_players=2)
    env.reset(seed=0)
    game = env.game
    for square in (JUMLA, SURKHET, MAHENDRANAGAR):
        game.owner[square] = 0
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


def _offered(offer) -> tuple:
    """Seat 0 of a fresh three-seat game holds Surkhet, Mahendranagar and Dhangadhi, seat 1
    Jumla and Dadeldhura (each lacks one piece of Karnali and of Sudurpashchim that the other
    holds); seat 0 has made ``offer``, which seat 1 is to answer."""
    game = new_game(3)
    give(game, 0, "Surkhet", "Mahendranagar", "Dhangadhi")
    give(game, 1, "Jumla", "Dadeldhura")
    game.apply(offer)
    assert (game.phase, game.current_player) == (Phase.TRADE_ANSWER, 1)
    return game, _mask(ACCEPT_ID, REJECT_ID)


def test_take_completions_accepts_any_offer_that_completes_a_group_of_its_own() -> None:
    sale = actions.offer_trade(1, [sq("Surkhet")], [], -9_000)  # Karnali for seat 1, dear
    game, mask = _offered(sale)
    assert ruled_choice(game, 1, mask, REJECT_ID, frozenset({"take-completions"})) == ACCEPT_ID
    # Only the offering seat's group completed: no, a two-way swap is asked for
    assert ruled_choice(game, 1, mask, REJECT_ID, frozenset({"take-swaps"})) == REJECT_ID
    assert ruled_choice(game, 1, mask, REJECT_ID, frozenset({"buy-always"})) == REJECT_ID


def test_take_swaps_accepts_only_offers_that_complete_both_sides() -> None:
    swap = actions.offer_trade(1, [sq("Surkhet")], [sq("Dadeldhura")], 0)
    game, mask = _offered(swap)
    for rule in ("take-swaps", "take-completions"):
        assert ruled_choice(game, 1, mask, REJECT_ID, frozenset({rule})) == ACCEPT_ID
    # Completing the offering seat's group alone: neither rule takes it
    game, mask = _offered(actions.offer_trade(1, [], [sq("Dadeldhura")], 3_000))
    for rule in ("take-swaps", "take-completions"):
        assert ruled_choice(game, 1, mask, REJECT_ID, frozenset({rule})) == REJECT_ID


def test_the_ruled_player_answers_by_the_rule_where_the_hard_player_refuses() -> None:
    game, _ = _offered(actions.offer_trade(1, [sq("Surkhet")], [], -9_000))
    env = raw_env(num_players=3)
    env.reset(seed=0)
    env.show_game(game)
    assert RuledHard(frozenset()).act(env, 1) == REJECT_ID  # Rs 9,000 for Surkhet: too dear
    assert RuledHard(frozenset({"take-completions"})).act(env, 1) == ACCEPT_ID


def test_medium_cash_raises_cash_as_the_medium_player_does() -> None:
    """Seat 0 holds Kathmandu, Jumla and Bus park with Rs 100 and lands on Pokhara (seat 1's):
    the medium player mortgages Jumla, the cheapest place."""
    game = owing_rent_on_pokhara()
    assert game.phase == Phase.RAISE_CASH
    jumla, kathmandu = action_id("mortgage", sq("Jumla")), action_id("mortgage", sq("Kathmandu"))
    mask = _mask(jumla, kathmandu, action_id("mortgage", sq("Bus park")))
    rules = frozenset({"medium-cash"})
    assert ruled_choice(game, 0, mask, kathmandu, rules) == jumla
    assert ruled_choice(game, 0, mask, kathmandu, frozenset()) == kathmandu


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
