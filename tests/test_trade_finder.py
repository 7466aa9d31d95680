"""The trade finder: offers the policy would accept as their target, ranked by the value
network's gain for the offering seat; and how the expert takes them as candidates."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scenario import give, new_game, roll, sq
from stubs import answering, cash_value

from byapar_agents import ExpertBudgetError, ExpertPlayer, expert_options, make_agent
from byapar_agents import expert as expert_module
from byapar_agents.hard import DEFAULT_CHECKPOINT, LearnedPlayer
from byapar_agents.trade_finder import (
    AMOUNTS,
    MIN_GAIN,
    FoundOffer,
    find_offers,
    listed_offers,
)
from byapar_agents.trade_guard import policy_accept_chances
from byapar_env.action_table import ACTIONS, fixed_action_id, legal_ids
from byapar_env.byapar_v0 import raw_env
from byapar_env.driver import PRE_ROLL_CAP, TRADE_STEP_CAP, offer_steps
from byapar_env.engine import Phase, actions
from byapar_env.observation import OBSERVATION_SIZE, encode, write_offer_received

JUMLA, SURKHET, BUTWAL = sq("Jumla"), sq("Surkhet"), sq("Butwal")


def _position():
    """Three seats, seat 0 to play: it holds Jumla, seat 1 the rest of Karnali (Surkhet), seat 2
    a stray place (Butwal)."""
    game = new_game(3, seed=4)
    give(game, 0, "Jumla")
    give(game, 1, "Surkhet")
    give(game, 2, "Butwal")
    return game


def test_the_list_holds_only_offers_that_join_a_place_to_its_set() -> None:
    game = _position()
    to_1 = listed_offers(game, 0, 1)
    assert {(o.give, o.take) for o in to_1} == {((JUMLA,), ()), ((), (SURKHET,)),
                                                ((JUMLA,), (SURKHET,))}
    assert sorted({o.amount for o in to_1}) == sorted(AMOUNTS)
    assert all(game.trade_error(o) is None for o in to_1)
    assert listed_offers(game, 0, 2) == []  # Butwal joins nothing of seat 0's, nor Jumla seat 2's
    game.cash[1] = 600  # seat 1 cannot pay more than it holds
    assert max(-o.amount for o in listed_offers(game, 0, 1)) == 500


def test_one_encoding_with_each_offer_written_in_equals_encoding_each_offer_pending() -> None:
    game = _position()
    first = actions.offer_trade(1, (JUMLA,), (), -3000)
    pending = game.clone()
    pending.apply(first)
    base = encode(pending, 1, np.empty(OBSERVATION_SIZE, np.float32))
    for offer in (actions.offer_trade(1, (), (SURKHET,), 500),
                  actions.offer_trade(1, (JUMLA,), (SURKHET,)), first):
        real = game.clone()
        real.apply(offer)
        want = encode(real, 1, np.empty(OBSERVATION_SIZE, np.float32))
        assert np.array_equal(write_offer_received(base.copy(), 1, 0, offer, 3), want)


def test_the_policys_canonical_answers_are_its_answers_at_the_start_of_a_turn() -> None:
    # Canonical: the offer shown as the turn's first, the pre-roll count its own steps; at the
    # start of a turn that is exactly how the environment shows the offer to its target.
    game = _position()
    policy = LearnedPlayer(DEFAULT_CHECKPOINT).policy_for(3)
    offers = listed_offers(game, 0, 1)
    chances = policy_accept_chances(policy, game, 0, offers)
    accept = fixed_action_id(actions.ACCEPT_TRADE)
    for offer, p in zip(offers, chances, strict=True):
        real = game.clone()
        real.apply(offer)
        mask = np.zeros(len(ACTIONS), np.int8)
        mask[legal_ids(real, None, TRADE_STEP_CAP, False)] = 1
        steps = len(offer_steps(0, 3, offer))  # the target sees them in the pre-roll count
        obs = encode(real, 1, np.empty(OBSERVATION_SIZE, np.float32), None, steps,
                     PRE_ROLL_CAP, TRADE_STEP_CAP)
        assert p == pytest.approx(policy.probabilities(obs, mask)[accept], abs=1e-5)


def test_the_hard_player_answers_an_offer_the_same_whatever_came_before_it() -> None:
    # Through the environment, after other actions this turn and after other offers, the hard
    # player answers an offer exactly as its batched answers (and the finder) say it does.
    env = raw_env(num_players=3)
    env.reset(seed=4)
    game = env.game
    hard = LearnedPlayer(DEFAULT_CHECKPOINT)

    def ready() -> bool:  # before rolling, something done already, offers on the list
        return (game.round >= 6 and game.phase == Phase.PRE_ROLL and env.draft is None
                and 0 < env.pre_roll_actions < 4 and game.offers_made == 0
                and len(listed_offers(game, game.turn, (game.turn + 1) % 3)) >= 3)

    while not ready():
        assert env.agents, "the game ended before a position to test"
        env.step(hard.act(env, env.agent_name_mapping[env.agent_selection]))
    seat, target = game.turn, (game.turn + 1) % 3
    offers = listed_offers(game, seat, target)[:3]
    want = hard.accepts(game, offers)
    got = []
    for offer in offers:  # three offers in one turn: the counts the target sees grow
        assert game.trade_error(offer) is None
        for step in offer_steps(seat, 3, offer):
            env.step(step)
        assert game.phase == Phase.TRADE_ANSWER
        answer = hard.act(env, target)
        got.append(answer == fixed_action_id(actions.ACCEPT_TRADE))
        env.step(fixed_action_id(actions.REJECT_TRADE))  # declined, so the next offer starts alike
    assert got == want


def test_the_best_accepted_offer_comes_first_and_nothing_when_the_target_refuses() -> None:
    game = _position()
    value = cash_value(5.0)
    found = find_offers(game, answering(actions.ACCEPT_TRADE), value, limit=3, guarded=False)
    assert found and all(f.gain >= MIN_GAIN and f.accept > 0.5 for f in found)
    best = found[0].offer
    # a target that accepts anything and a value that reads cash alone: the offers paying the
    # offering seat the most, 3,000, whatever the places (seat 2 holds nothing to list)
    assert best.target == 1 and all(f.offer.amount == -3000 for f in found)
    assert [f.gain for f in found] == sorted((f.gain for f in found), reverse=True)
    assert find_offers(game, answering(actions.REJECT_TRADE), value, limit=3) == []
    # a guarded target checks its own cash (all this value reads): each offer that pays the
    # offering seat costs it, so it would refuse, and none is found
    assert find_offers(game, answering(actions.ACCEPT_TRADE), value, limit=3) == []
    # offers named in skip (whole, or by target and places) are not found
    skip = {(1, f.offer.give, f.offer.take) for f in found}
    assert all((f.offer.give, f.offer.take) not in {(g, t) for _, g, t in skip}
               for f in find_offers(game, answering(actions.ACCEPT_TRADE), value, 3, skip,
                                    guarded=False))
    before = (list(game.cash), list(game.owner), game.phase, game.offers_made)
    assert (list(game.cash), list(game.owner), game.phase, game.offers_made) == before


def test_no_offers_outside_the_pre_roll_or_after_the_turns_offers() -> None:
    game = _position()
    value, accepting = cash_value(5.0), answering(actions.ACCEPT_TRADE)
    game.offers_made = 3
    assert find_offers(game, accepting, value, guarded=False) == []
    game.offers_made = 0
    assert find_offers(game, accepting, value, guarded=False) != []
    roll(game, 2, 3)  # onto the Bus park, for sale
    assert game.phase == Phase.BUY
    assert find_offers(game, accepting, value, guarded=False) == []


def test_the_finder_stops_at_its_deadline(monkeypatch) -> None:
    game = _position()
    value, accepting = cash_value(5.0), answering(actions.ACCEPT_TRADE)
    every = find_offers(game, accepting, value, limit=100, guarded=False)
    assert len(every) > 1
    # A deadline already passed: no target's answers are read, nothing is found.
    assert find_offers(game, accepting, value, limit=100, guarded=False, deadline=0.0) == []
    # A deadline that passes after the first chunk: the offers are appraised in chunks of
    # GAIN_CHUNK between checks (the clock is read before each target and each chunk), so
    # only the first chunk of the first target is ranked.
    import byapar_agents.trade_finder as finder

    monkeypatch.setattr(finder, "GAIN_CHUNK", 1)
    calls = []
    real = finder.appraise

    def counting(*args):
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(finder, "appraise", counting)
    ticks = iter(range(100))
    monkeypatch.setattr(finder.time, "perf_counter", lambda: next(ticks))
    cut = find_offers(game, accepting, value, limit=100, guarded=False, deadline=1.5)
    assert len(calls) == 1 and len(cut) <= 1 and set(cut) <= set(every)


def test_seat_chances_are_win_chances_in_one_pass() -> None:
    value = cash_value(5.0)
    games = [_position(), new_game(4, seed=1), _position()]
    games[2].cash[0] += 2_000
    games[1].bankrupt[2] = True
    got = value.seat_chances(games, 0)
    assert got == pytest.approx([value.win_chances(g)[0] for g in games])
    assert value.seat_chances([games[1]], 2)[0] == 0.0


def test_the_expert_simulates_a_found_offer_and_does_not_repeat_it(monkeypatch) -> None:
    game = _position()
    offer = actions.offer_trade(1, (JUMLA,), (), -3000)
    asked = []

    def fake_find(g, policy, value, limit, skip, pre_roll_actions, deadline=math.inf):
        asked.append(set(skip))
        return [FoundOffer(offer, 0.9, 0.2)] if (1, offer.give, offer.take) not in skip else []

    monkeypatch.setattr(expert_module, "find_offers", fake_find)
    expert = ExpertPlayer(seed=0, sims=12, find_trades=True)
    candidates, _ = expert.candidates(game)
    assert [c.source for c in candidates if c.action == offer] == ["trade finder"]
    expert.candidates(game)
    assert len(asked) == 1  # the same position: the finder's answer is kept
    expert._count(game, offer)  # the expert makes it
    game.apply(offer)
    game.apply(actions.REJECT_TRADE)
    candidates, _ = expert.candidates(game, pre_roll_actions=5)
    assert offer not in [c.action for c in candidates] and (1, (JUMLA,), ()) in asked[-1]
    # a found offer whose steps would not fit under the pre-roll cap is no candidate
    fresh = ExpertPlayer(seed=0, sims=12, find_trades=True)
    candidates, _ = fresh.candidates(_position(), pre_roll_actions=PRE_ROLL_CAP - 4)
    assert offer not in [c.action for c in candidates]
    # switched off, the expert does not ask the finder
    calls = len(asked)
    off = ExpertPlayer(seed=0, sims=12, find_trades=False)
    assert offer not in [c.action for c in off.candidates(_position())[0]]
    assert len(asked) == calls


def test_expert_names_switch_the_finder() -> None:
    assert expert_options("expert-find")["find_trades"] is True
    assert expert_options("expert-nofind@24") == {**expert_options("expert@24"),
                                                  "find_trades": False}
    assert make_agent("expert-find@12").find_trades is True
    with pytest.raises(ExpertBudgetError, match="find_trades"):
        ExpertPlayer(find_trades="yes")


def test_hard_players_accept_every_offer_the_finder_makes_them() -> None:
    # The finder asks the policy as the environment will ask the hard player, so through a
    # real arena game every found offer the expert makes to a hard player is accepted.
    from bench.trade_finder_stats import run

    stats = run("hard", games=1, seed=0)
    made = stats["offers made (trade finder)"]
    assert made > 0 and stats["accepted (trade finder)"] == made
    # A share of the offers made, each counted once.
    share = stats["found offers: share where the target loses"]
    assert share in {round(k / made, 3) for k in range(made + 1)}
