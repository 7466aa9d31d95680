"""The expert: search with the real engine over the policy's candidates, within a budget."""

from __future__ import annotations

import math

import pytest
from scenario import give, new_game, put, roll, sq

from byapar_agents import ExpertBudgetError, ExpertPlayer, make_agent
from byapar_agents.expert import DEFAULT_SIMS, pick
from byapar_agents.hard import DEFAULT_CHECKPOINT, LearnedPlayer
from byapar_agents.policy_rollout import UNDOES, PolicyRolloutPlayer
from byapar_agents.search import Rollouts, chance_game, search_root
from byapar_env.driver import SeatDriver
from byapar_env.engine import Game, Phase, Rules, actions
from byapar_harness.arena import ArenaConfig, play_game


def _legal_choices(monkeypatch) -> list:
    """Record every expert choice, checked legal in the game it was made in."""
    seen = []
    original = ExpertPlayer.choose

    def checked(self, game, seat, legal):
        action = original(self, game, seat, legal)
        if action.kind == actions.ActionKind.OFFER_TRADE:
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
    # The arena seats the expert on environment tables; an engine table (the expert asked at
    # the engine level, as byapar serve does) is still one it must play legally on.
    monkeypatch.setattr(ExpertPlayer, "engine_tables", "medium" in lineup)
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
    assert game.legal_actions() == [actions.ROLL] and not game.can_offer_trade()
    expert = ExpertPlayer(seed=0, sims=64)
    assert expert.choose(game, 0, [actions.ROLL]) == actions.ROLL
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
    offer = actions.offer_trade(0, (), (sq("Kathmandu"),), 100)
    game.apply(offer)
    assert game.phase == Phase.TRADE_ANSWER and game.current_player == 0
    return game


def test_search_values_refusing_a_group_completing_trade_above_accepting_it() -> None:
    game = _bad_trade_offered()
    rollouts = Rollouts(search_root(game), 0)
    seeds = range(12)
    accept = [rollouts.run(actions.ACCEPT_TRADE, s) for s in seeds]
    reject = [rollouts.run(actions.REJECT_TRADE, s) for s in seeds]
    assert sum(reject) > sum(accept)
    expert = ExpertPlayer(seed=0, sims=16)
    assert expert.choose(game, 0, game.legal_actions()) == actions.REJECT_TRADE


def test_search_buys_the_place_that_completes_its_group() -> None:
    game = new_game(2, seed=2)
    give(game, 0, "Lalitpur")
    put(game, 0, sq("Kathmandu") - 5)
    roll(game, 2, 3)
    assert game.phase == Phase.BUY and game.pending_square == sq("Kathmandu")
    rollouts = Rollouts(search_root(game), 0)
    buy, decline = actions.buy(sq("Kathmandu")), actions.decline(sq("Kathmandu"))
    seeds = range(12)
    assert sum(rollouts.run(buy, s) for s in seeds) > sum(rollouts.run(decline, s) for s in seeds)
    expert = ExpertPlayer(seed=0, sims=16)
    assert expert.choose(game, 0, game.legal_actions()) == buy


def test_a_focused_expert_searches_money_decisions_and_leaves_building_to_the_policy() -> None:
    game = new_game(2, seed=3)
    for name in ("Kathmandu", "Lalitpur", "Bhaktapur"):
        give(game, 0, name)
    game.offers_made = 3  # no trade offer left: before rolling it may only build, mortgage, roll
    assert game.phase == Phase.PRE_ROLL and game.is_legal(actions.build(sq("Kathmandu")))
    full = make_agent("expert-all@24", seed=0).evaluate(game)
    focused = ExpertPlayer(seed=0, sims=24).evaluate(game)  # focused: the default
    assert len(full.candidates) > 1 and full.sims > 0
    assert [c.source for c in focused.candidates] == ["policy"] and focused.sims == 0
    assert focused.action == full.candidates[0].action  # the policy's own choice
    # A buying decision is a money decision: the same candidates and simulations as in full.
    game = Game(Rules(num_players=4), seed=4)
    SeatDriver.for_game(game).engine_choices()  # the first turn's roll: a place to buy or not
    assert game.phase == Phase.BUY
    full = ExpertPlayer(seed=0, sims=16, focus=False).evaluate(game)
    focused = make_agent("expert@16", seed=0).evaluate(game)
    assert [c.action for c in focused.candidates] == [c.action for c in full.candidates]
    assert len(focused.candidates) > 1 and focused.sims == full.sims > 0


def test_the_policy_rollout_player_plays_legally_without_undoing_its_own_moves() -> None:
    policy = LearnedPlayer(DEFAULT_CHECKPOINT).policy_for(4)
    players = [PolicyRolloutPlayer(policy) for _ in range(4)]
    game = Game(Rules(num_players=4), seed=6)
    driver = SeatDriver.for_game(game, max_decisions=10**9)
    taken: dict[tuple[int, int], list] = {}
    while game.round < 12 and (legal := driver.engine_choices()):
        seat = game.current_player
        action = players[seat].choose(game, seat, legal)
        assert action in legal or game.is_legal(action)
        assert action.kind != actions.ActionKind.OFFER_TRADE
        if game.phase == Phase.PRE_ROLL:
            turn = taken.setdefault((game.turn_count, seat), [])
            reverse = {v: k for k, v in UNDOES.items()}.get(action.kind)
            assert reverse is None or action._replace(kind=reverse) not in turn
            turn.append(action)
        driver.take_engine(action)
    assert game.round >= 12 or game.is_over


def test_mixed_rollouts_seat_the_policy_for_the_searcher_and_draw_the_others_per_seed() -> None:
    game = new_game(4, seed=1)
    policy = LearnedPlayer(DEFAULT_CHECKPOINT).policy_for(4)
    rollouts = Rollouts(search_root(game), 2, mode="mixed", policy=policy)
    lineups = [[type(p).__name__ for p in rollouts.seat_players(seed)] for seed in range(40)]
    assert all(line[2] == "PolicyRolloutPlayer" for line in lineups)
    assert lineups == [[type(p).__name__ for p in rollouts.seat_players(seed)]
                       for seed in range(40)]
    others = {name for line in lineups for s, name in enumerate(line) if s != 2}
    assert others == {"PolicyRolloutPlayer", "MediumPlayer"}
    assert {type(p).__name__ for p in Rollouts(search_root(game), 2).seat_players(0)} == {
        "MediumPlayer"}
    with pytest.raises(ValueError, match="rollout mode must be one of medium, policy, mixed"):
        Rollouts(search_root(game), 2, mode="smart", policy=policy)
    with pytest.raises(ValueError, match="needs the policy"):
        Rollouts(search_root(game), 2, mode="policy")
    assert make_agent("expert@12").rollout == "mixed" and make_agent("expert").focus
    medium = make_agent("expert-all-medium@24")
    assert (medium.rollout, medium.focus, medium.sims) == ("medium", False, 24)
    assert make_agent("expert-policy").rollout == "policy" and make_agent("expert-policy").focus


def test_population_rollouts_draw_training_players_for_the_other_seats() -> None:
    from byapar_agents.population import TRAINING_SEEDS, PopulationPlayer

    game = new_game(4, seed=1)
    policy = LearnedPlayer(DEFAULT_CHECKPOINT).policy_for(4)
    rollouts = Rollouts(search_root(game), 1, mode="population", policy=policy)
    lineups = [rollouts.seat_players(seed) for seed in range(60)]
    assert all(type(line[1]).__name__ == "PolicyRolloutPlayer" for line in lineups)
    kinds = {type(p).__name__ for line in lineups for s, p in enumerate(line) if s != 1}
    assert kinds == {"PolicyRolloutPlayer", "MediumPlayer", "PopulationPlayer"}
    drawn = {p.seed for line in lineups for p in line if isinstance(p, PopulationPlayer)}
    assert len(drawn) > 1 and all(seed in TRAINING_SEEDS for seed in drawn)
    assert [[id(p) for p in rollouts.seat_players(seed)] for seed in range(60)] == [
        [id(p) for p in line] for line in lineups]
    expert = ExpertPlayer(seed=0, sims=12, rollout="population")
    played = SeatDriver.for_game(Game(Rules(num_players=3), seed=2), max_decisions=10**9)
    while played.game.round < 3 and (legal := played.engine_choices()):
        seat = played.game.current_player
        played.take_engine(expert.choose(played.game, seat, legal))


def test_every_candidate_is_scored_at_the_same_point_of_the_game() -> None:
    # The last seat of the round to buy or not: buying ends its turn (and the round), declining
    # opens an auction first. Both rollouts stop where the seat's next turn starts.
    import byapar_agents.search as search

    game = new_game(3, seed=2)
    game.turn = game.current_player = 2
    roll(game, 2, 4)
    assert game.phase == Phase.BUY and game.current_player == 2
    seen: list = []

    class Recording:
        def win_chances(self, g):
            seen.append((g.round, g.turn, g.is_over))
            return [0.0] * g.num_players

    start = (game.round, game.turn)
    rollouts = Rollouts(search_root(game), 2, horizon_rounds=1, value=Recording())
    choices = [a for a in game.legal_actions()
               if a.kind in (actions.ActionKind.BUY, actions.ActionKind.DECLINE)]
    assert len(choices) == 2
    for action in choices:
        for seed in range(3):
            rollouts.run(action, seed)
    assert len(seen) == 6
    assert all(over or (r, t) == (start[0] + 1, start[1]) for r, t, over in seen)
    assert search.horizon(game, 1) == (start[0] + 1, 2)


def test_pick_shares_its_bar_out_over_the_candidates_tested() -> None:
    from byapar_agents.expert import EDGE_Z, edge_z, t_quantile

    assert edge_z(1) == EDGE_Z and edge_z(3) > edge_z(2) > EDGE_Z
    assert t_quantile(0.975, 10) == pytest.approx(2.228, abs=0.01)
    assert edge_z(1, pairs=6) > edge_z(1, pairs=24) > edge_z(1, pairs=1000) > EDGE_Z
    policy = [0.4, 0.5, 0.3, 0.45, 0.35, 0.5] * 4
    # An edge of 0.045 with a standard error of 0.020 over 24 pairs (2.25 errors): it clears
    # the bar of one candidate tested (2.1), not that of five (2.8).
    better = [x + 0.045 + d for x, d in zip(policy, [0.09, -0.09, 0.13, -0.13, 0.05, -0.05] * 4,
                                           strict=True)]
    assert pick([policy, better], 0) == 1
    assert pick([policy, better, *[list(policy)] * 4], 0) == 0
    # A like edge over 6 pairs (2.3 errors) is below the bar of Student's t with 5 degrees
    # of freedom (2.6): a standard error from few pairs is rough.
    few, ahead = policy[:6], [x + 0.045 + d for x, d in zip(
        policy[:6], [0.04, -0.04, 0.06, -0.06, 0.02, -0.02], strict=True)]
    assert pick([few, ahead], 0) == 0
    # Of those that clear it, the best mean.
    steady, best = [x + 0.02 for x in policy], [x + 0.05 for x in policy]
    assert pick([policy, steady, best], 0) == 2 and pick([policy, best, steady], 0) == 1


def test_a_deadline_drops_a_round_cut_short_and_keeps_the_candidates_paired(monkeypatch
                                                                          ) -> None:
    import byapar_agents.expert as expert_module

    game = _bad_trade_offered()
    expert = ExpertPlayer(seed=0, sims=48)
    monkeypatch.setattr(expert_module, "_SIM_SECONDS", [0.0])
    ticks = iter(range(10_000))
    monkeypatch.setattr(expert_module.time, "perf_counter", lambda: next(ticks) * 0.001)
    expert.deadline = 0.010  # ten clock reads from the start
    evaluation = expert.evaluate(game, 0, seed=1)
    lengths = {len(c.scores) for c in evaluation.candidates}
    assert len(lengths) == 1 and evaluation.sims == len(evaluation.candidates) * lengths.pop()
    assert evaluation.sims < 48
    # No time at all: the policy's choice, with no simulation.
    expert.deadline = -1.0
    assert expert.evaluate(game, 0, seed=1).sims == 0


def test_a_rollout_stops_at_its_deadline() -> None:
    game = new_game(3, seed=1)
    rollouts = Rollouts(search_root(game), 0, horizon_rounds=3)
    assert rollouts.run(actions.ROLL, 3, deadline=-1.0) is None
    assert 0.0 <= rollouts.run(actions.ROLL, 3) <= 1.0


def test_rollouts_draw_their_own_chance_and_leave_the_game_alone() -> None:
    game = new_game(3, seed=1)
    before = game.to_json()
    a, b = chance_game(game, 9), chance_game(game, 9)
    assert a.decks == b.decks and a.rng.random() == b.rng.random()
    assert chance_game(game, 10).decks != a.decks  # reshuffled: the real order stays hidden
    Rollouts(search_root(game), 0).run(actions.ROLL, 3)
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
    for name in ("sims=16", "sims=96", "budget_ms=300"):
        assert f"{name} " in out and "median" in out, out
    # p99 by nearest rank: the slowest of fewer than 100 decisions, never a faster one
    assert expert_speed._pct([5.0, 1.0], 0.99) == 5.0
    assert expert_speed._pct([float(i) for i in range(200)], 0.99) == 197.0


def test_an_action_undoing_one_of_this_turn_is_no_candidate() -> None:
    game = new_game(2, seed=4)
    give(game, 0, "Jumla", mortgaged=True)
    pay_off = actions.unmortgage(sq("Jumla"))
    assert pay_off in game.legal_actions()
    expert = ExpertPlayer(seed=0, sims=4)
    listed, _ = expert.candidates(game, 0, avoid={pay_off})
    assert pay_off not in [c.action for c in listed] and listed
    # Through play: after mortgaging a place, the expert does not pay it off in the same turn.
    game = new_game(2, seed=4)
    give(game, 0, "Jumla")
    expert.reset(0)
    expert._count(game, actions.mortgage(sq("Jumla")))
    game.apply(actions.mortgage(sq("Jumla")))
    for _ in range(5):
        action = expert.choose(game, 0, game.legal_actions())
        assert action != pay_off
        if action == actions.ROLL:
            break
        game.apply(action)


_UNDO_IDS = ("mortgage", "unmortgage", "build", "sell")  # the id kinds UNDOES can filter


def _expert_beside_hard(seed: int, rounds: int) -> dict:
    """Play a seeded 4-seat game through the environment with a policy-only expert in seat 0
    (one simulation a candidate: fewer than MIN_PAIRS pairs, so the search never overrules the
    policy) and medium players elsewhere. At each of seat 0's decisions, ask the hard player
    (LearnedPlayer, its policy's own offers unscreened: the expert's search judges those) too,
    on the same observation and mask, and record both ids; the expert's choice is the one
    taken."""
    from byapar_agents.hard import DEFAULT_CHECKPOINT, LearnedPlayer
    from byapar_env.action_table import ACTIONS, SUBMIT_ID, engine_action
    from byapar_env.byapar_v0 import raw_env

    hard = LearnedPlayer(DEFAULT_CHECKPOINT, name="hard", screen_offers=False)
    expert = make_agent("expert", seed=seed, sims=1)
    others = [make_agent("medium") for _ in range(4)]
    env = raw_env(num_players=4, rounds=rounds, max_decisions=10**9)
    env.reset(seed=seed)
    out = {"same": 0, "undo": [], "other": [], "offers": [], "follows": 0}
    composing = None
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
            continue
        seat = env.agent_name_mapping[agent]
        if seat != 0:
            env.step(others[seat].act(env, seat))
            continue
        game = env.game
        wanted = hard.act(env, 0)
        same_turn = expert._turn_key == game.turn_count and game.phase == Phase.PRE_ROLL
        avoided = set(expert._no_undo) if same_turn else set()
        taken = expert.act(env, 0)
        if taken == wanted:
            out["same"] += 1
        elif (env.draft is None and ACTIONS[wanted].kind in _UNDO_IDS
              and engine_action(game, wanted) in avoided):
            out["undo"].append((game.turn_count, ACTIONS[wanted].name, ACTIONS[taken].name))
        else:
            out["other"].append((game.turn_count, env.pre_roll_actions, env.draft is not None,
                                 ACTIONS[wanted].name, ACTIONS[taken].name))
        if env.draft is None:
            # a draft the policy composes (followed), or none: the deal module's offers are
            # composed from the finished offer, as the hard player composes them
            composing = expert.last.candidates[expert.last.choice] if expert._following else None
            out["follows"] += expert._following
        if taken == SUBMIT_ID and composing is not None and composing.start_id is not None:
            out["offers"].append((env.draft.offer(), composing.action))
        env.step(taken)
    return out


@pytest.mark.parametrize("seed", [11, 12])
def test_policy_only_expert_plays_the_hard_players_choices(seed: int) -> None:
    """With the search silent the expert is the hard player (``hard-unscreened``: the hard
    player's screen of its policy's own offers by the value network is not the expert's, whose
    search weighs the policy's drafts itself): the same id at every decision,
    trade drafts composed step by step by the policy (submitted or cancelled) included. The one
    deliberate difference is ``UNDOES``: the expert does not undo, in the same turn before
    rolling, an action it took (pay off a place it mortgaged, sell a house it built, and the
    reverse), where the hard player can loop, paying 10% interest a round trip."""
    seen = _expert_beside_hard(seed, rounds=15)
    assert seen["same"] > 100, seen["same"]  # enough decisions compared to mean something
    assert seen["other"] == [], seen["other"][:5]
    assert seen["follows"] > 0, "the policy composed no trade draft: the test misses drafts"
    # The offer the search simulated for the policy's draft is the one the policy submitted.
    for made, simulated in seen["offers"]:
        assert made == simulated
    assert len(seen["undo"]) <= seen["same"] // 20, seen["undo"]


def test_the_arena_seats_the_expert_on_environment_tables_where_it_plays_like_hard() -> None:
    """An engine table takes a finished trade offer as one action, composed in another order
    than the policy's steps (other counts toward the pre-roll cap) and never a draft the policy
    cancels: the arena seats the expert through the environment, where the policy-only expert
    plays the game of the hard player with its policy's offers unscreened. (Games 0, 2 and 3
    of this seed are left out: there the expert declines to undo, in the same turn, a mortgage
    or a build it has just made, as ``UNDOES`` intends;
    ``test_policy_only_expert_plays_the_hard_players_choices`` checks that such decisions are
    the only ones where the two differ.)"""
    assert not ExpertPlayer.engine_tables
    for index in (1, 4, 5, 7):
        expert, hard = (play_game(ArenaConfig(players=(first, "medium", "medium", "medium"),
                                              rounds=12, seed=2), index)
                        for first in ("expert@1", "hard-unscreened"))
        assert (expert.net_worth, expert.shares, expert.decisions, expert.turns) == (
            hard.net_worth, hard.shares, hard.decisions, hard.turns)
