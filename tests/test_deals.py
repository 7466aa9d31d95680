"""The deal module (``byapar_agents.deals``): the judgement of a deal in its table, the offers
listed
and the one proposed, the memory that never repeats an offer, and the hard player and the
expert trading through it. Exact positions, judged by a stub value network (``group_value``:
groups held whole and cash) so that every figure is known."""

from __future__ import annotations

import numpy as np
import pytest
from scenario import give, new_game, sq
from stubs import JudgedValue, group_value

from byapar_agents import make_agent
from byapar_agents.deals import (
    BUY_AMOUNTS,
    SELL_AMOUNTS,
    SWAP_AMOUNTS,
    Appraisal,
    DealMemory,
    appraise,
    appraise_pending,
    best_offer,
    completing_places,
    denial_credit,
    listed_deals,
    offer_key,
    ranked_offers,
    refusal,
    rival_swaps,
)
from byapar_agents.hard import DEFAULT_CHECKPOINT, LearnedPlayer
from byapar_agents.network import NumpyPolicy
from byapar_env.action_table import (
    ACTIONS,
    CANCEL_ID,
    SUBMIT_ID,
    TRADE_START_IDS,
    fixed_action_id,
)
from byapar_env.byapar_v0 import raw_env
from byapar_env.driver import offer_steps
from byapar_env.engine import Phase, actions
from byapar_env.observation import OBSERVATION_SIZE

JUMLA, SURKHET = sq("Jumla"), sq("Surkhet")
DADELDHURA, MAHENDRANAGAR, DHANGADHI = sq("Dadeldhura"), sq("Mahendranagar"), sq("Dhangadhi")
JUDGE = JudgedValue(group_value)
SWAP = actions.offer_trade(1, (DADELDHURA,), (SURKHET,))  # seat 0's: completes a group each side


def _swap_position(game, a: int = 0, b: int = 1) -> None:
    """Seat ``a`` holds Jumla and Dadeldhura, seat ``b`` Surkhet, Mahendranagar and Dhangadhi:
    each holds the piece that completes a group of the other's (Karnali and Sudurpashchim)."""
    give(game, a, "Jumla", "Dadeldhura")
    give(game, b, "Surkhet", "Mahendranagar", "Dhangadhi")


def _appraisal(declined, accepted, completes_offerer=False, completes_target=False,
               offerer=0, target=1) -> Appraisal:
    return Appraisal(actions.offer_trade(target, (), (SURKHET,)), offerer, tuple(declined),
                     tuple(accepted), completes_offerer, completes_target)


def test_the_answer_rules() -> None:
    even = (0.25, 0.25, 0.25, 0.25)
    # the answering seat (1) must not lose
    assert refusal(_appraisal(even, (0.27, 0.24, 0.245, 0.245))) == "it costs the answering seat"
    # a sale that completes only the offering seat's group needs three points for the target
    sale = (0.26, 0.27, 0.235, 0.235)
    assert refusal(_appraisal(even, sale, completes_offerer=True)) == (
        "it hands the offering seat a group for too little")
    assert refusal(_appraisal(even, (0.25, 0.28, 0.235, 0.235), completes_offerer=True)) is None
    # otherwise the target gains a point more than the offering seat ...
    assert refusal(_appraisal(even, (0.26, 0.26, 0.24, 0.24))) == (
        "the offering seat gains too much more")
    assert refusal(_appraisal(even, (0.255, 0.265, 0.24, 0.24))) is None
    # ... but a swap completing a group on each side lets the offerer gain two points more
    third = (0.22, 0.22, 0.34, 0.22)  # seat 2 leads
    assert refusal(_appraisal(third, (0.27, 0.255, 0.28, 0.195), True, True)) is None
    assert refusal(_appraisal(third, (0.28, 0.25, 0.285, 0.185), True, True)) == (
        "the offering seat gains too much more")
    # a deal that makes the offering seat the leader is refused, however fair to the target
    assert refusal(_appraisal(even, (0.29, 0.28, 0.215, 0.215), True, True)) == (
        "it makes the offering seat the leader")
    # the leader before the deal must give three points more than it gains
    lead = (0.31, 0.23, 0.23, 0.23)
    assert refusal(_appraisal(lead, (0.32, 0.25, 0.215, 0.215), True, True)) == (
        "the offering seat gains too much more")
    assert refusal(_appraisal(lead, (0.31, 0.26, 0.215, 0.215), True, True)) is None


def test_the_offers_listed() -> None:
    game = new_game(4, seed=3)
    _swap_position(game)
    give(game, 2, "Butwal")
    assert completing_places(game, 0, 1) == [SURKHET]
    assert completing_places(game, 1, 0) == [JUMLA, DADELDHURA]
    listed = listed_deals(game, 0)
    assert listed == (
        [(actions.offer_trade(1, (), (SURKHET,), m), "buy") for m in BUY_AMOUNTS]
        + [(actions.offer_trade(1, (DADELDHURA,), (SURKHET,), m), "swap") for m in SWAP_AMOUNTS]
        + [(actions.offer_trade(1, (JUMLA,), (), m), "sell") for m in SELL_AMOUNTS]
        + [(actions.offer_trade(1, (DADELDHURA,), (), m), "sell") for m in SELL_AMOUNTS])
    game.cash[0] = 900  # no more money than the payer holds
    assert {o.amount for o, k in listed_deals(game, 0) if k != "sell"} == {-2000, -1000, 0,
                                                                           500}


def test_a_fair_swap_is_accepted_and_one_that_makes_the_offerer_lead_is_not() -> None:
    game = new_game(4, seed=3)
    _swap_position(game)
    fair, rich = appraise(game, [SWAP, SWAP._replace(amount=-2000)], JUDGE)
    # 1 + 2 a whole group + cash / 20,000 each, over 11: both complete a group
    assert fair.accepted == pytest.approx((3.75 / 11, 3.75 / 11, 1.75 / 11, 1.75 / 11))
    assert fair.completes_offerer and fair.completes_target
    assert fair.target_gain == pytest.approx(3.75 / 11 - 0.25) and refusal(fair) is None
    # seat 1 paying Rs 2,000 as well: seat 0 would lead (3.85 against 3.65)
    assert rich.accepted[0] > rich.accepted[1]
    assert refusal(rich) == "it makes the offering seat the leader"
    # a purchase of Surkhet alone completes seat 0's group and costs seat 1
    buy = appraise(game, [actions.offer_trade(1, (), (SURKHET,), 5000)], JUDGE)[0]
    assert buy.completes_offerer and not buy.completes_target
    assert refusal(buy) == "it costs the answering seat"


def test_the_offer_proposed_is_the_best_the_target_would_take_and_never_repeated() -> None:
    game = new_game(4, seed=3)
    _swap_position(game)
    # The swaps seat 1 would take (seat 0 paying 0 to 2,000), the best for seat 0 first: at 0.
    assert [a.offer for a in ranked_offers(game, JUDGE)][:3] == [
        SWAP, SWAP._replace(amount=1000), SWAP._replace(amount=2000)]
    assert best_offer(game, JUDGE).offer == SWAP
    memory = DealMemory()
    assert memory.propose(game, JUDGE) == SWAP
    assert memory.propose(game, JUDGE) is None  # one a turn
    assert memory.is_repeat(game, SWAP)
    game.turn_count += 1  # a later turn, nothing changed: the next best, Rs 1,000 paid
    assert memory.propose(game, JUDGE) == SWAP._replace(amount=1000)
    # once a place of Karnali or Sudurpashchim changes hands, the swap is no repeat
    give(game, 2, "Dhangadhi")
    assert not memory.is_repeat(game, SWAP)
    give(game, 1, "Dhangadhi")
    assert memory.is_repeat(game, SWAP)
    memory.reset()
    assert not memory.is_repeat(game, SWAP)


def test_the_memory_keeps_only_offers_that_are_still_repeats() -> None:
    game = new_game(4, seed=3)
    _swap_position(game)
    memory = DealMemory()
    memory.remember(game, SWAP)
    give(game, 2, "Jumla")  # Karnali changes: the swap may be made again
    other = actions.offer_trade(1, (), (MAHENDRANAGAR,), 500)
    memory.remember(game, other)
    assert memory.made == {offer_key(game, other)}


def test_a_swap_between_two_rivals_is_denied_by_buying_a_piece_of_it() -> None:
    game = new_game(4, seed=3)
    _swap_position(game, 1, 2)  # seats 1 and 2 could complete a group each by a swap
    assert rival_swaps(game, 0) == [(1, DADELDHURA, 2, SURKHET)]
    # the swap would leave seat 0 with 1.75 of 11: half of that loss is the credit
    credit = denial_credit(game, 0, JUDGE)
    assert credit == pytest.approx({DADELDHURA: (0.25 - 1.75 / 11) / 2,
                                    SURKHET: (0.25 - 1.75 / 11) / 2})
    kinds = {o: k for o, k in listed_deals(game, 0)}
    assert kinds[actions.offer_trade(1, (), (DADELDHURA,), 1000)] == "deny"
    assert kinds[actions.offer_trade(2, (), (SURKHET,), 1000)] == "deny"
    # the cheapest purchase that seat 1 would take by the same judgement (a point more for it)
    assert best_offer(game, JUDGE).offer == actions.offer_trade(1, (), (DADELDHURA,), 1000)


def _env_with_swap_position(seed: int = 3):
    """An environment showing the swap position at seat 0's first decision, before rolling."""
    game = new_game(4, seed=seed)
    _swap_position(game)
    env = raw_env(num_players=4)
    env.reset(seed=seed)
    env.show_game(game)
    return env


def test_the_hard_player_proposes_the_swap_step_by_step_and_takes_it_as_the_target() -> None:
    env = _env_with_swap_position()
    hard = LearnedPlayer(DEFAULT_CHECKPOINT, value=JUDGE, deal_rollouts=0)
    taken = []
    for _ in offer_steps(0, 4, SWAP):
        taken.append(hard.act(env, 0))
        env.step(taken[-1])
    assert taken == offer_steps(0, 4, SWAP)
    game = env.game
    assert game.phase == Phase.TRADE_ANSWER and game.offer == (0, SWAP)
    assert refusal(appraise_pending(game, JUDGE)) is None
    assert hard.act(env, 1) == fixed_action_id(actions.ACCEPT_TRADE)
    env.step(fixed_action_id(actions.ACCEPT_TRADE))
    assert game.owner[SURKHET] == 0 and game.owner[DADELDHURA] == 1
    assert game.cash[:2] == [15_000, 15_000]


def _policy_preferring(*ids: int) -> NumpyPolicy:
    """A policy whose most likely legal action is the first legal one of ``ids``."""
    bias = np.zeros(len(ACTIONS), np.float32)
    for rank, i in enumerate(ids):
        bias[i] = 10.0 - rank
    return NumpyPolicy([(np.zeros((OBSERVATION_SIZE, len(ACTIONS)), np.float32), bias)])


def test_the_hard_player_cancels_a_repeated_offer_and_offers_nothing_more_that_turn() -> None:
    env = _env_with_swap_position()
    game = env.game
    hard = LearnedPlayer(DEFAULT_CHECKPOINT, value=JUDGE, deal_rollouts=0)
    hard.policy = _policy_preferring(SUBMIT_ID, TRADE_START_IDS[0])
    hard.specialists = {}
    state = hard.seat_state(game, 0)
    state.memory.last_turn = game.turn_count  # the deal module has had its turn
    state.memory.remember(game, SWAP)  # and made the swap before, in this position
    for step in offer_steps(0, 4, SWAP)[:-1]:  # the policy composes the same swap
        env.step(step)
    assert hard.act(env, 0) == CANCEL_ID
    env.step(CANCEL_ID)
    # no new draft this turn: the policy's next choice without the trade starts
    assert hard.act(env, 0) not in TRADE_START_IDS
    # another seat's memory, or the same seat in another game, is its own
    assert not hard.seat_state(game, 1).memory.made
    hard.reset()
    assert not hard.seat_state(game, 0).memory.made


def test_one_player_seated_twice_keeps_a_memory_per_seat() -> None:
    import pickle

    game = new_game(4, seed=3)
    hard = make_agent("hard")
    assert hard.seat_state(game, 0) is hard.seat_state(game, 0)
    assert hard.seat_state(game, 0) is not hard.seat_state(game, 2)
    assert hard.seat_state(new_game(4, seed=3), 0) is not hard.seat_state(game, 0)
    # a copy for another process (training's workers) starts with no trading state
    hard.seat_state(game, 0).memory.remember(game, SWAP)
    copy = pickle.loads(pickle.dumps(hard))
    assert not copy.seat_state(game, 0).memory.made and copy.check is not None


def test_the_expert_answers_by_the_same_judgement() -> None:
    from byapar_agents import ExpertPlayer

    game = new_game(4, seed=3)
    _swap_position(game)
    expert = ExpertPlayer(seed=0, sims=1)
    expert.learned = LearnedPlayer(DEFAULT_CHECKPOINT, value=JUDGE, deal_rollouts=0)
    game.apply(SWAP._replace(amount=-2000))  # makes seat 0 the leader: refused
    assert expert.choose(game, 1, game.legal_actions()) == actions.REJECT_TRADE
    game.apply(actions.REJECT_TRADE)
    game.apply(SWAP)  # fair: taken (one simulation never overrules the judgement)
    assert expert.choose(game, 1, game.legal_actions()) == actions.ACCEPT_TRADE


def test_rollouts_price_a_gift_of_a_completing_piece_for_both_sides() -> None:
    from byapar_agents.deal_rollouts import simulated_gain

    game = new_game(4, seed=3)
    _swap_position(game)
    policy = LearnedPlayer(DEFAULT_CHECKPOINT).policy
    game.apply(actions.offer_trade(1, (DADELDHURA,), ()))  # seat 0 gives seat 1 its last piece
    taker = simulated_gain(game, 1, JUDGE, policy, rollouts=3, rounds=1)
    giver = simulated_gain(game, 0, JUDGE, policy, rollouts=3, rounds=1)
    assert taker > 0.05 and giver < 0
    # seeded by the position and the offer: the same figures again
    assert simulated_gain(game, 1, JUDGE, policy, rollouts=3, rounds=1) == taker


def test_hard_sim_refuses_a_completing_deal_its_rollouts_find_bad(monkeypatch) -> None:
    import byapar_agents.deal_rollouts as rollouts

    game = new_game(4, seed=3)
    _swap_position(game)
    game.apply(SWAP)
    assert LearnedPlayer(DEFAULT_CHECKPOINT, value=JUDGE, deal_rollouts=0).accepts_pending(game)
    checked = LearnedPlayer(DEFAULT_CHECKPOINT, value=JUDGE, deal_rollouts=2)
    asked = []
    monkeypatch.setattr(rollouts, "simulated_gain",
                        lambda pending, seat, *a, **k: asked.append(seat) or -0.01)
    assert not checked.accepts_pending(game) and asked == [1]
    monkeypatch.setattr(rollouts, "simulated_gain", lambda *a, **k: 0.0)
    assert checked.accepts_pending(game)
    # a deal that completes no group is not played forward
    monkeypatch.setattr(rollouts, "simulated_gain", lambda *a, **k: pytest.fail("simulated"))
    game.apply(actions.REJECT_TRADE)
    give(game, 1, "Butwal")
    give(game, 0, "Ilam")  # a stray each: swapped, they complete nothing
    game.apply(actions.offer_trade(1, (sq("Ilam"),), (sq("Butwal"),)))
    checked.accepts_pending(game)


def test_hard_sim_proposes_the_best_completing_offer_its_rollouts_confirm(monkeypatch) -> None:
    import byapar_agents.deal_rollouts as rollouts

    game = new_game(4, seed=3)
    _swap_position(game)
    check = rollouts.RolloutCheck(JUDGE, LearnedPlayer(DEFAULT_CHECKPOINT).policy, 2)
    verdicts = iter([-0.01, 0.02])  # the best offer is found worse by rollouts, the next not
    monkeypatch.setattr(rollouts, "simulated_gain", lambda *a, **k: next(verdicts))
    assert best_offer(game, JUDGE, check=check).offer == SWAP._replace(amount=1000)
    monkeypatch.setattr(rollouts, "simulated_gain", lambda *a, **k: -0.01)
    assert best_offer(game, JUDGE, check=check) is None  # two checked, none confirmed


def test_the_dealing_rollout_player_offers_the_swap_once_a_turn_and_answers_by_the_judgement(
        ) -> None:
    from byapar_agents.dealing_rollout import DealingRolloutPlayer

    game = new_game(4, seed=3)
    _swap_position(game)
    dealers = [DealingRolloutPlayer(LearnedPlayer(DEFAULT_CHECKPOINT).policy, JUDGE)
               for _ in range(2)]
    for d in dealers:
        d.reset(0)
    legal = game.legal_actions()
    assert dealers[0].choose(game, 0, legal) == SWAP
    # the same turn again: no second offer, the policy's own choice (never an offer)
    assert dealers[0].choose(game, 0, legal).kind != SWAP.kind
    game.apply(SWAP)
    assert game.phase == Phase.TRADE_ANSWER
    assert dealers[1].choose(game, 1, game.legal_actions()) == actions.ACCEPT_TRADE
    game.apply(actions.ACCEPT_TRADE)
    assert game.owner[SURKHET] == 0 and game.owner[DADELDHURA] == 1
    assert game.cash[:2] == [15_000, 15_000]
    # an offer the judgement refuses (seat 0 would lead) is declined
    rich = actions.offer_trade(1, (DADELDHURA,), (SURKHET,), -2000)
    game2 = new_game(4, seed=3)
    _swap_position(game2)
    game2.apply(rich)
    assert dealers[1].choose(game2, 1, game2.legal_actions()) == actions.REJECT_TRADE
