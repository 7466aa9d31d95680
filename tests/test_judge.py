"""The judge (``byapar_agents.judge``): the hard player's choices away from trades checked one ply
deep
by a value network, in exact positions."""

from __future__ import annotations

import numpy as np
import pytest
from scenario import give, new_game, put, roll, sq

from byapar_agents import make_agent
from byapar_agents.hard import DEFAULT_CHECKPOINT, LearnedPlayer
from byapar_agents.judge import Judge, child, undoing
from byapar_agents.network import CheckpointError
from byapar_agents.value import DEFAULT_VALUE, shipped_value, value_at
from byapar_env.action_table import (
    ACTIONS,
    BID_MIN_ID,
    BUY_ID,
    DECLINE_ID,
    DROP_OUT_ID,
    ROLL_ID,
    action_id,
    legal_ids,
)
from byapar_env.driver import TRADE_STEP_CAP
from byapar_env.engine import Phase, actions
from byapar_harness.arena import ArenaConfig, play_game


def _mask(game) -> np.ndarray:
    mask = np.zeros(len(ACTIONS), np.int8)
    mask[legal_ids(game, None, TRADE_STEP_CAP, False)] = 1
    return mask


def _probs(mask: np.ndarray, favour: dict[int, float]) -> np.ndarray:
    """A policy's distribution over the legal ids: ``favour``'s weights, the rest shared."""
    probs = np.where(mask > 0, 1e-3, 0.0)
    for i, p in favour.items():
        probs[i] = p
    return probs / probs.sum()


def _completing_purchase():
    """Heads-up: seat 0 holds Lalitpur and lands on Kathmandu, the piece that completes the
    Capital group, with Rs 15,000."""
    game = new_game(2, seed=2)
    give(game, 0, "Lalitpur")
    put(game, 0, sq("Kathmandu") - 5)
    roll(game, 2, 3)
    assert game.phase == Phase.BUY and game.pending_square == sq("Kathmandu")
    return game


def test_a_purchase_is_judged_between_buying_and_declining() -> None:
    game = _completing_purchase()
    mask = _mask(game)
    judge = Judge(shipped_value(), margin=0.0)
    # The policy favours declining; the judge lists its choice first, then buying.
    probs = _probs(mask, {DECLINE_ID: 0.9, BUY_ID: 0.1})
    assert judge.candidate_ids(game, probs, mask) == [DECLINE_ID, BUY_ID]
    chances = shipped_value().seat_chances([child(game, BUY_ID), child(game, DECLINE_ID)], 0)
    assert chances[0] > chances[1]  # the network rates the completed group higher
    assert judge.choose(game, 0, probs, mask) == BUY_ID
    # A margin larger than any gain keeps the policy's choice.
    assert Judge(shipped_value(), margin=0.99).choose(game, 0, probs, mask) == DECLINE_ID


def test_the_position_after_a_candidate_is_a_clone_and_rolling_reads_the_dice_unrolled() -> None:
    game = _completing_purchase()
    cash = game.cash[0]
    bought = child(game, BUY_ID)
    assert bought.owner[sq("Kathmandu")] == 0 and bought.cash[0] == cash - 4_000  # its price
    assert game.owner[sq("Kathmandu")] == -1 and game.cash[0] == cash
    before_roll = new_game(2, seed=3)
    assert child(before_roll, ROLL_ID) is before_roll  # not rolled: the game's dice unread
    assert before_roll.phase == Phase.PRE_ROLL and before_roll.position == [0, 0]


def test_an_auction_lists_every_bid_and_a_trade_choice_is_not_judged() -> None:
    game = _completing_purchase()
    game.apply(actions.decline(sq("Kathmandu")))
    assert game.phase == Phase.AUCTION
    mask = _mask(game)
    judge = Judge(shipped_value())
    probs = _probs(mask, {DROP_OUT_ID: 0.9})
    listed = judge.candidate_ids(game, probs, mask)
    assert listed[0] == DROP_OUT_ID and BID_MIN_ID in listed
    assert sorted(listed) == sorted(np.flatnonzero(mask).tolist())
    # Before rolling, a policy that starts a trade offer is left to it.
    start = new_game(2, seed=3)
    give(start, 0, "Lalitpur")
    give(start, 1, "Kathmandu")
    mask = _mask(start)
    trade = next(i for i in np.flatnonzero(mask) if ACTIONS[i].kind == "trade_start")
    assert judge.candidate_ids(start, _probs(mask, {trade: 0.9}), mask) == [trade]


def test_a_move_the_judge_would_undo_this_turn_is_no_candidate() -> None:
    game = new_game(2, seed=4)
    give(game, 0, "Lalitpur", "Kathmandu", buildings=1)
    mask = _mask(game)
    sell = action_id("sell", sq("Kathmandu"))
    assert mask[sell]
    probs = _probs(mask, {ROLL_ID: 0.5, sell: 0.4})
    judge = Judge(shipped_value())
    assert sell in judge.candidate_ids(game, probs, mask)
    built = actions.build(sq("Kathmandu"))
    assert undoing(built) == actions.sell_building(sq("Kathmandu"))
    assert sell not in judge.candidate_ids(game, probs, mask, {undoing(built)})
    assert judge.candidate_ids(game, probs, mask, {undoing(built)})[0] == ROLL_ID


def test_same_seed_same_game_and_the_named_variants() -> None:
    config = ArenaConfig(players=("hard-judged", "medium", "medium"), rounds=8, seed=3)
    first, second = play_game(config, 1), play_game(config, 1)
    assert first == second
    player = make_agent("hard-judged")
    assert isinstance(player, LearnedPlayer) and player.judge is not None
    named = make_agent(f"hard-judged+value={DEFAULT_VALUE}")
    assert named.judge is not None and named.name == f"hard-judged+value={DEFAULT_VALUE}"
    with pytest.raises(CheckpointError):
        make_agent(f"hard-judged+value={DEFAULT_CHECKPOINT}")  # a policy, not a value network


def test_bad_judge_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="margin must be from 0"):
        Judge(shipped_value(), margin=-0.1)
    with pytest.raises(ValueError, match="top_k at least 1"):
        Judge(shipped_value(), top_k=0)


def test_hard_with_another_value_network_judges_its_deals_by_it() -> None:
    fitted = "byapar_checkpoints/value_search_r1"
    player = make_agent(f"hard+value={fitted}")
    assert isinstance(player, LearnedPlayer) and player.name == f"hard+value={fitted}"
    assert player.judge is None and player.trades == "deals"
    game = new_game(4, seed=4)
    give(game, 0, "Lalitpur", "Kathmandu")
    chances = player.value.win_chances(game)
    assert chances == value_at(fitted).win_chances(game)
    assert chances != shipped_value().win_chances(game)
    assert player.check is not None and player.check.value is player.value
    with pytest.raises(CheckpointError):
        make_agent(f"hard+value={DEFAULT_CHECKPOINT}")  # a policy, not a value network
