"""Guarded trade answers (byapar_agents.trade_guard): the value network's check on an accepted
offer,
the canonical answer, and the hard player and the expert answering through them."""

from __future__ import annotations

import pytest
from scenario import give, new_game, sq
from stubs import answering, cash_value

from byapar_agents import ExpertPlayer, make_agent
from byapar_agents.deals import completes_target_group
from byapar_agents.expert import Candidate
from byapar_agents.hard import DEFAULT_CHECKPOINT, LearnedPlayer
from byapar_agents.network import NumpyPolicy
from byapar_agents.trade_guard import (
    ACCEPT_ID,
    COMPLETION_GAIN,
    REJECT_ID,
    completes_group,
    passes_check,
    pending_gains,
    safe_answers,
    trade_gains,
)
from byapar_agents.value import ValueNet
from byapar_env.byapar_v0 import raw_env
from byapar_env.engine import Phase, actions

JUMLA, SURKHET, BUTWAL = sq("Jumla"), sq("Surkhet"), sq("Butwal")


def _position():
    """Three seats, seat 0 to play: it holds Jumla, seat 1 the rest of Karnali (Surkhet), seat 2
    a stray place (Butwal). 15,000 each."""
    game = new_game(3, seed=4)
    give(game, 0, "Jumla")
    give(game, 1, "Surkhet")
    give(game, 2, "Butwal")
    return game


def _guarded(policy: NumpyPolicy, value: ValueNet) -> LearnedPlayer:
    player = LearnedPlayer(DEFAULT_CHECKPOINT, value=value)
    player.policy, player.specialists = policy, {}
    return player


def test_completes_group_means_the_offerer_ends_holding_the_whole_group() -> None:
    game = _position()
    assert completes_group(game, 0, actions.offer_trade(1, (), (SURKHET,), 500))
    # giving Jumla away for Surkhet leaves Karnali split
    assert not completes_group(game, 0, actions.offer_trade(1, (JUMLA,), (SURKHET,)))
    # a stray place completes nothing; nor does Surkhet for seat 2, which holds no Karnali
    assert not completes_group(game, 0, actions.offer_trade(2, (), (BUTWAL,), 500))
    game.turn = game.current_player = 2
    assert not completes_group(game, 2, actions.offer_trade(1, (), (SURKHET,), 500))


def test_completes_target_group_is_the_same_test_from_the_target() -> None:
    game = _position()
    # Seat 0 selling Jumla to seat 1 completes Karnali for seat 1 (the target), not for seat 0
    sale = actions.offer_trade(1, (JUMLA,), (), -500)
    assert completes_target_group(game, 0, sale) and not completes_group(game, 0, sale)
    # Surkhet bought from seat 1 completes the offerer's group, not the target's
    purchase = actions.offer_trade(1, (), (SURKHET,), 500)
    assert not completes_target_group(game, 0, purchase)
    # a stray place sold to seat 2 completes nothing for it
    assert not completes_target_group(game, 0, actions.offer_trade(2, (JUMLA,), (), -500))


def test_the_check_rules() -> None:
    assert passes_check(0.0, -0.02, False)  # a fair deal that costs nothing is taken
    assert not passes_check(-0.001, -0.05, False)  # its own chance falls
    assert not passes_check(0.02, 0.05, False)  # the offering seat gains more than it does
    assert not passes_check(0.02, 0.02, False)  # it must gain a point more than the offerer
    assert passes_check(0.04, 0.02, False)
    assert not passes_check(0.2, 0.05, False)  # the offering seat gains too much, whatever
    assert not passes_check(COMPLETION_GAIN / 2, -0.05, True)  # a completed group must pay
    assert passes_check(COMPLETION_GAIN, -0.05, True)


def test_an_offer_the_policy_accepts_is_refused_when_it_costs_the_answering_seat() -> None:
    game, value = _position(), cash_value()
    player = _guarded(answering(), value)
    pays_me = actions.offer_trade(2, (JUMLA,), (), 2000)  # seat 0 gives Jumla and pays seat 2
    asks_me = actions.offer_trade(2, (JUMLA,), (), -2000)  # seat 2 pays 2,000 for a stray place
    completes_cheap = actions.offer_trade(1, (), (SURKHET,), 100)  # Karnali for seat 0, for 100
    completes_dear = actions.offer_trade(1, (), (SURKHET,), 8000)
    offers = [pays_me, asks_me, completes_cheap, completes_dear]
    target_gains, offerer_gains = trade_gains(game, offers, value)
    assert target_gains[0] > 0 > target_gains[1]
    assert 0 < target_gains[2] < COMPLETION_GAIN < target_gains[3]
    assert offerer_gains[1] > 0 > max(offerer_gains[[0, 2, 3]])  # the cash goes the other way
    unguarded = LearnedPlayer(DEFAULT_CHECKPOINT, safe_trades=False)
    unguarded.policy, unguarded.specialists = answering(), {}
    assert unguarded.accepts(game, offers) == [True, True, True, True]
    assert player.accepts(game, offers) == [True, False, False, True]
    # the same answers one offer at a time, through the environment
    env = raw_env(num_players=3)
    env.reset(seed=0)
    for offer, want in zip(offers, [True, False, False, True], strict=True):
        pending = game.clone()
        pending.apply(offer)
        env.show_game(pending)
        assert player.act(env, offer.target) == (ACCEPT_ID if want else REJECT_ID)
    assert (list(game.cash), list(game.owner), game.phase) == (
        [15_000] * 3, _position().owner, Phase.PRE_ROLL)  # the position is left as it was


def test_pending_gains_equal_the_batched_gains() -> None:
    game, value = _position(), cash_value()
    offer = actions.offer_trade(2, (JUMLA,), (), 2000)
    pending = game.clone()
    pending.apply(offer)
    target, mine = trade_gains(game, [offer], value)
    assert pending_gains(pending, value) == pytest.approx((target[0], mine[0]))


def test_the_guarded_players_refuse_what_the_policy_would_accept_at_a_loss() -> None:
    # Seeded positions from real games: the unguarded policy accepts offers that cost it more
    # than a point of win chance by the value network; the guarded player (this module) and
    # the shipped hard player (the deal judgement, byapar_agents.deals) accept none of them.
    from byapar_harness.offer_exploit import Answerer, probe_target, sample_positions

    positions = sample_positions(4, seed=0)
    raw = probe_target(Answerer("hard-unguarded"), positions, rollouts=2, checked=1)
    guarded = probe_target(Answerer("hard-guarded"), positions, rollouts=2, checked=1)
    dealing = probe_target(Answerer("hard"), positions, rollouts=2, checked=1)
    assert raw.tried == guarded.tried == dealing.tried > 0
    assert raw.bad > 0 and raw.worst_cost > 0.03
    assert guarded.bad == 0 and guarded.worst is None
    assert dealing.bad == 0 and dealing.worst is None
    assert 0 < guarded.accepted < raw.accepted
    assert dealing.accepted > 0


def test_safe_answers_without_a_value_are_the_policys_answers() -> None:
    game = _position()
    offers = [actions.offer_trade(2, (JUMLA,), (), -2000)]
    assert safe_answers(answering(), None, game, offers) == [True]


def test_the_expert_accepts_only_what_passes_the_check(monkeypatch) -> None:
    from byapar_agents import expert as expert_module

    accept, reject = (Candidate(actions.ACCEPT_TRADE, 0.6, "policy"),
                      Candidate(actions.REJECT_TRADE, 0.4, "prior"))
    # the search's choice is to accept, whatever the simulations say
    monkeypatch.setattr(ExpertPlayer, "candidates",
                        lambda self, game, *a, **k: ([Candidate(accept.action, 0.6, "policy"),
                                                      Candidate(reject.action, 0.4, "prior")],
                                                     0))
    monkeypatch.setattr(expert_module, "pick", lambda scores, policy_index, *a, **k: 0)
    monkeypatch.setattr(expert_module, "value_at", lambda folder: cash_value())
    expert = ExpertPlayer(seed=0, sims=4, value="share")
    game = _position()
    game.apply(actions.offer_trade(2, (JUMLA,), (), -8000))  # seat 2 pays 8,000 for Jumla
    assert expert.choose(game, 2, game.legal_actions()) == actions.REJECT_TRADE
    assert expert.last.guarded and expert.last.action == actions.REJECT_TRADE
    fair = _position()
    fair.apply(actions.offer_trade(2, (JUMLA,), (), 2000))  # seat 0 pays seat 2 to take Jumla
    assert expert.choose(fair, 2, fair.legal_actions()) == actions.ACCEPT_TRADE
    assert not expert.last.guarded


def test_hard_unguarded_is_a_name() -> None:
    assert make_agent("hard-unguarded").safe_trades is False
    assert make_agent("hard").safe_trades is True
