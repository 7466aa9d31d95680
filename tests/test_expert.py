"""The expert: search with the real engine over the policy's candidates, within a budget."""

from __future__ import annotations

import math

import pytest
from byapar_agents import ExpertBudgetError, ExpertPlayer, make_agent
from byapar_agents.arena import ArenaConfig, play_game
from byapar_agents.expert import DEFAULT_SIMS, pick
from byapar_agents.search import Rollouts, chance_game, search_root
from scenario import give, new_game, put, roll, sq

from byapar_env.engine import Phase
from byapar_env.engine import actions as A


def _legal_choices(monkeypatch) -> list:
    """Record every expert choice, checked legal in the game it was made in."""
    seen = []
    original = ExpertPlayer.choose

    def checked(self, game, seat, legal):
        action = original(self, game, seat, legal)
        if action.kind == A.ActionKind.OFFER_TRADE:
            assert game.trade_error(action) is None, action
        else:
            assert game.is_legal(action), action
        seen.append(self.last)
        return action

    monkeypatch.setattr(ExpertPlayer, "choose", checked)
    return seen


@pytest.mark.parametrize("lineup", [("expert@4", "medium", "medium"),
                                    ("expert@4", "hard")], ids=["engine", "environment"])
def test_every_choice_is_legal_on_both_kinds_of_table(monkeypatch, lineup) -> None:
    seen = _legal_choices(monkeypatch)
    result = play_game(ArenaConfig(players=lineup, rounds=6), 0)
    assert abs(sum(result.shares) - 1.0) < 1e-9
    searched = [e for e in seen if e is not None and e.sims]
    assert searched, "no decision was searched"
    # A sims budget of 4 plays whole rounds: one simulation per candidate, at least one round.
    for e in searched:
        assert e.sims == max(1, 4 // len(e.candidates)) * len(e.candidates)
        assert all(len(c.scores) == e.sims // len(e.candidates) for c in e.candidates)


def test_same_seed_same_game_with_a_sims_budget() -> None:
    config = ArenaConfig(players=("expert@6", "medium", "medium"), rounds=5, seed=3)
    first, second = play_game(config, 1), play_game(config, 1)
    assert first == second
    other = play_game(ArenaConfig(players=config.players, rounds=5, seed=4), 1)
    assert (other.net_worth, other.decisions) != (first.net_worth, first.decisions)


def test_the_arena_expert_plays_the_default_simulation_budget() -> None:
    player = make_agent("expert", seed=0)
    assert player.sims == DEFAULT_SIMS and player.budget_ms is None
    assert make_agent("expert@7").sims == 7
    timed = make_agent("expert", budget_ms=50)
    assert timed.sims is None and timed.budget_ms == 50


def test_a_forced_decision_is_answered_without_search() -> None:
    game = new_game(2)
    game.offers_made = 3  # no trade offer left this turn: rolling is the only choice
    assert game.legal_actions() == [A.ROLL] and not game.can_offer_trade()
    expert = ExpertPlayer(seed=0, sims=64)
    assert expert.choose(game, 0, [A.ROLL]) == A.ROLL
    assert expert.last is None


def test_ties_keep_the_policys_choice() -> None:
    assert pick([[0.5, 0.5], [0.5, 0.5], [0.5, 0.5]], 0) == 0
    # Better by less than a standard error of the paired difference: noise, the policy stays.
    assert pick([[0.5, 0.5, 0.5, 0.5], [0.9, 0.2, 0.9, 0.2]], 0) == 0
    # Better by the same amount in every paired simulation: the search overrules the policy.
    low, high = [0.4, 0.5, 0.3] * 2, [0.5, 0.6, 0.4] * 2
    assert pick([low, high], 0) == 1 and pick([low, high], 1) == 1
    # ...but not for an edge below MIN_EDGE, however steady,
    assert pick([low, [x + 0.001 for x in low]], 0) == 0
    # ...nor on fewer than MIN_PAIRS pairs, whose standard error is too rough to trust.
    assert pick([low[:5], high[:5]], 0) == 0


def _bad_trade_offered():
    """Heads-up: seat 1 holds Lalitpur and offers Rs 100 for seat 0's Kathmandu, the piece that
    completes the Capital group; seat 0 must answer."""
    game = new_game(2, seed=5)
    give(game, 0, "Kathmandu")
    give(game, 1, "Lalitpur")
    game.turn = game.current_player = 1
    offer = A.offer_trade(0, (), (sq("Kathmandu"),), 100)
    game.apply(offer)
    assert game.phase == Phase.TRADE_ANSWER and game.current_player == 0
    return game


def test_search_values_refusing_a_group_completing_trade_above_accepting_it() -> None:
    game = _bad_trade_offered()
    rollouts = Rollouts(search_root(game), 0)
    seeds = range(12)
    accept = [rollouts.run(A.ACCEPT_TRADE, s) for s in seeds]
    reject = [rollouts.run(A.REJECT_TRADE, s) for s in seeds]
    assert sum(reject) > sum(accept)
    expert = ExpertPlayer(seed=0, sims=16)
    assert expert.choose(game, 0, game.legal_actions()) == A.REJECT_TRADE


def test_search_buys_the_place_that_completes_its_group() -> None:
    game = new_game(2, seed=2)
    give(game, 0, "Lalitpur")
    put(game, 0, sq("Kathmandu") - 5)
    roll(game, 2, 3)
    assert game.phase == Phase.BUY and game.pending_square == sq("Kathmandu")
    rollouts = Rollouts(search_root(game), 0)
    buy, decline = A.buy(sq("Kathmandu")), A.decline(sq("Kathmandu"))
    seeds = range(12)
    assert sum(rollouts.run(buy, s) for s in seeds) > sum(rollouts.run(decline, s) for s in seeds)
    expert = ExpertPlayer(seed=0, sims=16)
    assert expert.choose(game, 0, game.legal_actions()) == buy


def test_rollouts_draw_their_own_chance_and_leave_the_game_alone() -> None:
    game = new_game(3, seed=1)
    before = game.to_json()
    a, b = chance_game(game, 9), chance_game(game, 9)
    assert a.decks == b.decks and a.rng.random() == b.rng.random()
    assert chance_game(game, 10).decks != a.decks  # reshuffled: the real order stays hidden
    Rollouts(search_root(game), 0).run(A.ROLL, 3)
    assert game.to_json() == before


def test_a_time_budget_searches_at_least_one_round() -> None:
    game = _bad_trade_offered()
    expert = ExpertPlayer(seed=0, budget_ms=30)
    evaluation = expert.evaluate(game, 0, seed=1)
    if len(evaluation.candidates) > 1:
        assert evaluation.sims >= len(evaluation.candidates)
    assert evaluation.action in game.legal_actions()


@pytest.mark.parametrize("budget", [dict(sims=0), dict(sims=1.5), dict(sims=True),
                                    dict(sims=10**9), dict(budget_ms=0), dict(budget_ms=-5),
                                    dict(budget_ms=math.nan), dict(budget_ms=math.inf),
                                    dict(budget_ms="300"), dict(sims=8, budget_ms=100),
                                    dict(horizon_rounds=0)])
def test_bad_budgets_are_refused_with_a_typed_error(budget: dict) -> None:
    with pytest.raises(ExpertBudgetError) as info:
        ExpertPlayer(**budget)
    assert isinstance(info.value, ValueError)
    word = next(iter(budget))
    assert word in str(info.value) or "not both" in str(info.value)


def test_budgets_belong_to_the_expert_alone() -> None:
    with pytest.raises(ExpertBudgetError, match="does not search"):
        make_agent("medium", sims=8)
    with pytest.raises(ExpertBudgetError, match="sims must be"):
        make_agent("expert@0")
    with pytest.raises(ExpertBudgetError, match="names its budget already"):
        make_agent("expert@8", sims=4)


def test_the_speed_benchmark_prints_its_figures(capsys) -> None:
    from bench import expert_speed

    expert_speed.main(["--positions", "2"])
    out = capsys.readouterr().out
    assert "2 positions (4 seats)" in out
    for name in ("sims=8", "sims=64", "budget_ms=300"):
        assert f"{name} " in out and "median" in out, out


def test_an_action_undoing_one_of_this_turn_is_no_candidate() -> None:
    game = new_game(2, seed=4)
    give(game, 0, "Jumla", mortgaged=True)
    pay_off = A.unmortgage(sq("Jumla"))
    assert pay_off in game.legal_actions()
    expert = ExpertPlayer(seed=0, sims=4)
    listed, _ = expert.candidates(game, 0, avoid={pay_off})
    assert pay_off not in [c.action for c in listed] and listed
    # Through play: after mortgaging a place, the expert does not pay it off in the same turn.
    game = new_game(2, seed=4)
    give(game, 0, "Jumla")
    expert.reset(0)
    expert._count(game, A.mortgage(sq("Jumla")))
    game.apply(A.mortgage(sq("Jumla")))
    for _ in range(5):
        action = expert.choose(game, 0, game.legal_actions())
        assert action != pay_off
        if action == A.ROLL:
            break
        game.apply(action)
