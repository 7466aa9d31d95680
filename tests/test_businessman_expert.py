"""Businessman's expert (``byapar_agents/businessman/expert.py``) and the engine's determinisation
(``Game.unseen_cards``, ``Game.determinise``): the sampled deal keeps everything the deciding
seat may see and redraws the rest, the expert's choice never depends on another seat's hand or
a deck's order, a forced decision is answered without search, the same seed gives the same
choices, and in an exact position the search overrules the policy's wrong card play."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from test_businessman_helpers import deuce_at_the_exchange, land, new, set_hand

from byapar_agents.businessman import (
    AGENT_NAMES,
    ExpertBusinessmanPlayer,
    ExpertOptionError,
    LearnedBusinessmanPlayer,
    MediumPlayer,
    make_agent,
    play_game,
)
from byapar_agents.businessman.expert import MIN_PAIRS, compose, rent_score, score
from byapar_env.businessman import ActionKind, ByaparError, Game, Phase, Rules, actions, board
from byapar_env.businessman.board import FIGURES
from byapar_harness.arena import ArenaConfig, run_arena, validate

YELLOW = 3
_LARGE = {k.index for k in board.EXCHANGE_KINDS if k.deck == board.LARGE}


def _fast(seed: int = 0, **options) -> ExpertBusinessmanPlayer:
    return ExpertBusinessmanPlayer(sims=options.pop("sims", 6), seed=seed,
                                   horizon_rounds=options.pop("horizon_rounds", 1), **options)


def _mid_game(seed: int = 11, decisions: int = 120) -> Game:
    """A 4-seat game played by medium players for ``decisions`` decisions, then on to the next
    decision of seat 0 for which the expert has more than one candidate."""
    game = Game(Rules(num_players=4), seed=seed)
    players = [MediumPlayer() for _ in range(4)]
    done = 0
    probe = _fast()
    while True:
        legal = game.legal_actions()
        seat = game.current_player
        if (done >= decisions and seat == 0 and len(legal) > 1
                and game.phase != Phase.TRADE_COMPOSE and len(probe.candidates(game)[0]) > 1):
            return game
        game.apply(legal[0] if len(legal) == 1 else players[seat].choose(game, seat, legal))
        done += 1


def _unseen_by_hand(game: Game, seat: int) -> Counter:
    pool = Counter(board.EXCHANGE_DECK[board.LARGE] + board.EXCHANGE_DECK[board.SMALL])
    pool.subtract(game.hands[seat])
    pool.subtract(game.played)
    return +pool


# ----------------------------------------------------------------------------- the engine's part
def test_unseen_cards_are_the_printed_cards_less_own_hand_and_played() -> None:
    game = new(3)
    set_hand(game, 0, "L-DOUBLE", "L-DOUBLE", "S-FALL-5")
    set_hand(game, 1, "L-BOOM-3")
    game.played = [board.exchange_kind("L-DOUBLE"), board.exchange_kind("S-RISE-1")]
    unseen = game.unseen_cards(0)
    assert len(unseen) == 42 - 3 - 2 and unseen == sorted(unseen)
    counts = Counter(unseen)
    assert counts[board.exchange_kind("L-DOUBLE")] == 6 - 3  # six printed: two held, one played
    assert counts[board.exchange_kind("S-FALL-5")] == 3 - 1
    assert counts[board.exchange_kind("S-RISE-1")] == 4 - 1
    assert counts[board.exchange_kind("L-BOOM-3")] == 4  # seat 1's card is unseen by seat 0
    assert Counter(game.unseen_cards(1))[board.exchange_kind("L-BOOM-3")] == 3
    with pytest.raises(ValueError):
        game.unseen_cards(3)


def test_determinise_keeps_what_the_seat_sees_and_redraws_the_rest() -> None:
    game = _mid_game()
    seat = 0
    before = game.to_json()
    unseen = _unseen_by_hand(game, seat)
    others_changed = decks_changed = 0
    for k in range(12):
        g = game.determinise(seat, random.Random(k))
        assert g.view(seat) == game.view(seat)  # every public field, own hand, hand sizes
        assert g.hands[seat] == game.hands[seat]
        assert [len(h) for h in g.hands] == [len(h) for h in game.hands]
        dealt = Counter(c for s in range(4) if s != seat for c in g.hands[s])
        assert not dealt - unseen  # the others' hands come from the unseen cards
        for s in range(4):
            held = g.hands[s]
            assert held == sorted(held)
            assert sum(c in _LARGE for c in held) <= FIGURES.hand_large
            assert sum(c not in _LARGE for c in held) <= FIGURES.hand_small
        assert {d: sorted(c) for d, c in g.decks.items()} == {
            d: sorted(c) for d, c in game.decks.items()}
        assert g.forced_dice == [] and g.seed is None
        assert sum(g.cash) == sum(game.cash)
        Game.from_json(g.to_json())  # the whole-game check: money conserved, card counts
        others_changed += any(g.hands[s] != game.hands[s] for s in range(1, 4))
        decks_changed += g.decks != game.decks
    assert others_changed >= 10 and decks_changed >= 10
    assert game.to_json() == before  # the game itself unchanged
    one = game.determinise(seat, random.Random(5)).to_json()
    assert game.determinise(seat, random.Random(5)).to_json() == one


def test_determinise_of_hands_the_deal_cannot_explain_draws_freely() -> None:
    game = new(3)
    set_hand(game, 1, "L-BOOM-3", "L-BOOM-4", "L-BOOM-5", "L-DOUBLE", "L-DOUBLE")  # 5 large
    set_hand(game, 2, "L-DOUBLE", "L-DOUBLE", "L-DOUBLE", "L-DOUBLE", "S-RISE-1")
    set_hand(game, 0, "L-BOOM-3", "L-BOOM-4", "L-BOOM-5", "L-BOOM-3", "L-BOOM-4", "L-BOOM-5")
    g = game.determinise(0, random.Random(1))
    assert [len(h) for h in g.hands] == [6, 5, 5] and g.hands[0] == game.hands[0]
    assert not Counter(g.hands[1] + g.hands[2]) - _unseen_by_hand(game, 0)
    Game.from_json(g.to_json())


def test_determinised_deals_depend_only_on_what_the_seat_sees() -> None:
    game = _mid_game()
    twin = game.clone()
    redealt = game.determinise(0, random.Random(99))
    for s in range(1, 4):
        twin.hands[s] = list(redealt.hands[s])
    for d in twin.decks:
        twin.decks[d].reverse()
    twin.rng = random.Random(12345)
    assert any(twin.hands[s] != game.hands[s] for s in range(1, 4))
    assert twin.view(0) == game.view(0)
    assert (game.determinise(0, random.Random(3)).to_json()
            == twin.determinise(0, random.Random(3)).to_json())


# ----------------------------------------------------------------------------- the expert
def test_another_seats_hand_and_the_deck_order_never_change_the_choice() -> None:
    for seed in (11, 23):
        game = _mid_game(seed)
        twin = game.clone()
        redealt = game.determinise(0, random.Random(7))
        for s in range(1, 4):
            twin.hands[s] = list(redealt.hands[s])
        for d in twin.decks:
            twin.decks[d].reverse()
        twin.rng = random.Random(1)
        assert any(twin.hands[s] != game.hands[s] for s in range(1, 4))
        one = _fast(3).evaluate(game, seed=42)
        two = _fast(3).evaluate(twin, seed=42)
        assert len(one.candidates) > 1 and one.sims > 0
        assert [(c.actions, c.scores) for c in one.candidates] == [
            (c.actions, c.scores) for c in two.candidates]
        assert one.action == two.action
        assert (_fast(9).choose(game, 0, game.legal_actions())
                == _fast(9).choose(twin, 0, twin.legal_actions()))


def test_a_single_legal_action_is_answered_at_once() -> None:
    game = new(2)
    game.cash[0] = 1_000  # too little to buy the lot landed on
    land(game, 0, 1)
    assert game.phase == Phase.BUY and len(game.legal_actions()) == 1
    expert = _fast()

    def no_search(*args, **kwargs):
        raise AssertionError("searched a forced decision")

    expert.evaluate = no_search  # type: ignore[method-assign]
    assert expert.choose(game, 0, game.legal_actions()) == actions.decline(1)
    assert expert.last is None


def test_the_same_seed_gives_the_same_choices() -> None:
    game = _mid_game(23)
    one, two = _fast(5).evaluate(game, seed=8), _fast(5).evaluate(game, seed=8)
    assert [(c.actions, c.scores) for c in one.candidates] == [
        (c.actions, c.scores) for c in two.candidates]
    logs = []
    for _ in range(2):
        g = Game(Rules(num_players=2, max_rounds=6), seed=4)
        play_game(g, [_fast(2, sims=3), MediumPlayer()])
        assert g.is_over
        logs.append(g.to_json())
    assert logs[0] == logs[1]


def test_the_search_overrules_the_policys_wrong_card_play() -> None:
    """Seat 0 holds a Deuce at an Exchange; the three others hold five extra YELLOW shares
    each (six), seat 0 one of each colour. Halving YELLOW takes the most from the others; the
    hard network halves RED, the medium player's candidate halves YELLOW, and the simulations
    (the same deal and dice for both) score YELLOW clearly higher. (The expert is asked to start
    from the bare network here, ``calculated=False``; by default it starts from the hard
    player's sums, which halve YELLOW at once: the next test.)"""
    game = deuce_at_the_exchange()
    halve_yellow = actions.play_card(0, YELLOW, True)
    hard = LearnedBusinessmanPlayer(ExpertBusinessmanPlayer().learned.folder)
    assert hard.choose(game, 0, game.legal_actions()) == actions.play_card(0, 0, True)  # RED
    expert = _fast(0, sims=8, calculated=False)
    assert expert.prior(game, 0, game.legal_actions()) == actions.play_card(0, 0, True)
    evaluation = expert.evaluate(game, seed=1)
    policy, chosen = evaluation.candidates[0], evaluation.candidates[evaluation.choice]
    assert policy.source == "policy" and policy.action == actions.play_card(0, 0, True)
    assert chosen.action == halve_yellow and chosen.source == "medium"
    assert chosen.mean - policy.mean > 0.01  # a point of net-worth share and more
    assert all(a - b > 0 for a, b in zip(chosen.scores, policy.scores, strict=True))
    assert expert.choose(game, 0, game.legal_actions()) == halve_yellow


def test_by_default_the_expert_starts_from_the_hard_players_card_sums() -> None:
    """The same position: the default candidate is the hard player's sum (halve YELLOW), the
    medium player's advice is the same action (so not listed twice), and the network's own
    likely plays are the others."""
    game = deuce_at_the_exchange()
    expert = _fast(0, sims=8)
    halve_yellow = actions.play_card(0, YELLOW, True)
    assert expert.prior(game, 0, game.legal_actions()) == halve_yellow
    candidates, index = expert.candidates(game)
    assert index == 0 and candidates[0].action == halve_yellow
    assert candidates[0].source == "policy"
    assert [c.action for c in candidates].count(halve_yellow) == 1
    assert not any(c.source == "medium" for c in candidates)
    assert actions.play_card(0, 0, True) in [c.action for c in candidates]  # the network's RED
    assert expert.choose(game, 0, game.legal_actions()) == halve_yellow


def test_a_chosen_trade_proposal_is_composed_as_planned() -> None:
    """Seat 0 holds two of the three lots of a group and seat 1 the third: medium's proposal
    (cash for the lot) is a candidate from start to submission, and if chosen, the expert
    submits exactly its steps."""
    game = new(2)
    for c in (6, 8):
        game.owner[c] = 0
    game.owner[9] = 1
    expert = _fast(0, sims=6)
    candidates, _ = expert.candidates(game)
    # (the policy's own choice may be a proposal it cancels: started and cancelled at once)
    trades = [c for c in candidates[1:] if c.action.kind == ActionKind.START_TRADE]
    assert trades and all(c.actions[-1] == actions.SUBMIT_TRADE for c in trades)
    medium = next(c for c in trades if c.source == "medium")
    assert medium.actions[:2] == (actions.start_trade(1), actions.take_lot(9))
    # Played as chosen: the plan's steps, in order, to the submission.
    expert._plan, expert._plan_turn = list(medium.actions[1:]), game.turn_count
    game.apply(medium.actions[0])
    while game.phase == Phase.TRADE_COMPOSE:
        game.apply(expert.choose(game, 0, game.legal_actions()))
    assert game.phase == Phase.TRADE_ANSWER and game.trade.take == [9]


def test_a_proposal_the_policy_would_cancel_is_started_and_cancelled() -> None:
    """Four hard players, seed 0, to the first decision where the hard player starts a proposal
    that its own composition cancels. Starting it spends the turn's one proposal, so hard's
    next choice is made without proposals. The expert's policy candidate is to start it and
    cancel at once, which leads to the same position; after it, its policy candidate is hard's
    choice there (before, it played the network's next most likely action at once, and met the
    same position again: a pledge, then a redemption, and so on)."""
    game = Game(Rules(num_players=4, max_rounds=20), seed=0)
    hard = make_agent("hard")
    while True:
        legal = game.legal_actions()
        seat = game.current_player
        choice = legal[0] if len(legal) == 1 else hard.choose(game, seat, legal)
        if choice.kind == ActionKind.START_TRADE:
            steps = compose(game, seat, choice, hard.choose)
            if steps[-1] == actions.CANCEL_TRADE:
                break
        game.apply(choice)
    expert = _fast(0)
    candidates, policy = expert.candidates(game)
    assert candidates[policy].actions == (choice, actions.CANCEL_TRADE)
    assert candidates[policy].source == "policy"
    assert all(c.actions[-1] != actions.CANCEL_TRADE
               for c in candidates if c is not candidates[policy])
    # Step by step to the roll, the expert's policy candidates follow the hard player's play.
    twin = game.clone()
    cancelled = 0
    for _ in range(30):
        legal = twin.legal_actions()
        choice = hard.choose(twin, seat, legal)
        steps = compose(twin, seat, choice, hard.choose) if choice.kind == ActionKind.START_TRADE \
            else (choice,)
        candidates, policy = expert.candidates(game)
        if steps[-1] == actions.CANCEL_TRADE:
            cancelled += 1
            assert candidates[policy].actions == (choice, actions.CANCEL_TRADE)
        else:
            assert candidates[policy].actions == steps
        for step in steps:
            twin.apply(step)
        for step in candidates[policy].actions:
            game.apply(step)
        assert game.to_json() == twin.to_json()
        if choice == actions.ROLL or steps[-1] == actions.SUBMIT_TRADE:
            break
    assert cancelled >= 1 and (choice == actions.ROLL or steps[-1] == actions.SUBMIT_TRADE)


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (4, 5)])
def test_with_the_search_silent_the_expert_plays_the_hard_players_game(players: int,
                                                                        seed: int) -> None:
    """Below ``MIN_PAIRS`` simulations no candidate can overrule the policy's: the expert in
    seat 0 then plays the very game the hard player plays there, to the last decision (at four
    seats it did not while it skipped the proposals the policy cancels)."""
    assert MIN_PAIRS > 5
    rules = Rules(num_players=players, max_rounds=20)
    expert_game, hard_game = Game(rules, seed=seed), Game(rules, seed=seed)
    others = [make_agent("hard") for _ in range(players - 1)]
    play_game(expert_game, [make_agent("expert-h1@5", seed=0), *others])
    play_game(hard_game, [make_agent("hard"), *others])
    assert expert_game.is_over and expert_game.to_json() == hard_game.to_json()


def test_names_and_options() -> None:
    assert "expert" in AGENT_NAMES
    plain = make_agent("expert", seed=1)
    assert isinstance(plain, ExpertBusinessmanPlayer) and plain.sims == 24
    assert plain.horizon_rounds == 3 and plain.rollout == "medium"
    assert make_agent("expert@48").sims == 48
    variant = make_agent("expert-mixed-h5@12")
    assert (variant.rollout, variant.horizon_rounds, variant.sims) == ("mixed", 5, 12)
    assert make_agent("expert-end@4").horizon_rounds is None
    rent = make_agent("expert-h5-rent@12")
    assert (rent.horizon_rounds, rent.value, rent.sims) == (5, "rent", 12)
    assert make_agent("expert").value == "share"
    for bad in ("expert@0", "expert@99999", "expert-h0"):
        with pytest.raises(ExpertOptionError) as info:
            make_agent(bad)
        assert isinstance(info.value, ByaparError) and isinstance(info.value, ValueError)
    for kwargs in ({"sims": 0}, {"budget_ms": -1}, {"horizon_rounds": 0}, {"rollout": "x"},
                   {"value": "money"}):
        with pytest.raises(ExpertOptionError):
            ExpertBusinessmanPlayer(**kwargs)
    with pytest.raises(ValueError):
        make_agent("expert@many")


def test_a_time_budget_plays_fewer_rounds() -> None:
    game = _mid_game(23)
    expert = ExpertBusinessmanPlayer(sims=1000, budget_ms=1.0, seed=0, horizon_rounds=1)
    evaluation = expert.evaluate(game, seed=2)
    n = len(evaluation.candidates)
    assert n > 1 and evaluation.sims % n == 0 and n <= evaluation.sims < 1000 * n


def test_the_arena_seats_the_expert() -> None:
    config = ArenaConfig(players=("expert-h1@2", "hard"), games=2, seed=0, game="businessman",
                         rounds=4)
    validate(config)
    report = run_arena(config)
    assert report["run"]["games"] == 2
    assert set(report["players"]) == {"expert-h1@2", "hard"}


@pytest.mark.parametrize("name", ["expert-mixed-h1@2", "expert-hard-end@2"])
def test_rollout_variants_play_whole_games(name: str) -> None:
    game = Game(Rules(num_players=3, max_rounds=4), seed=6)
    asked = []

    def check(g: Game, seat: int, action: actions.Action) -> None:
        assert action in g.legal_actions()
        asked.append(seat)

    play_game(game, [make_agent(name, seed=1), MediumPlayer(), make_agent("hard")],
              on_decision=check)
    assert game.is_over and 0 in asked
    Game.from_json(game.to_json())


def test_the_rent_score_counts_the_rent_lots_should_still_bring() -> None:
    game = new(2)
    game.owner[6] = 0  # seat 0 holds Bakery: the same net worth as seat 1, holding its price
    game.cash[0] -= board.CELLS[6].price
    assert game.net_worth(0) == game.net_worth(1)
    assert score(game, 0) == pytest.approx(0.5)
    assert rent_score(game, 0) > 0.5  # the rent Bakery should bring over the turns left
    game.mortgaged[6], game.pledge_lap[6] = True, 0
    assert rent_score(game, 0) == pytest.approx(score(game, 0))  # a pledged lot brings none


def test_the_paired_bench_plays_the_same_games_with_the_control() -> None:
    """``bench.businessman_expert --control``: the control plays the first player's seats of the
    same games. The silent expert (below ``MIN_PAIRS``) plays hard's games, so against hard as
    the control every pair is equal."""
    from bench.businessman_expert import main

    result = main(["--players", "expert-h1@5,hard", "--control", "hard", "--games", "4",
                   "--rounds", "6", "--workers", "1"])
    assert result["games"] == 4 and result["control"] == "hard"
    assert result["control_win_rate"] == result["win_rate"]
    assert result["difference"] == 0.0 and result["difference_ci95"] == [0.0, 0.0]
    assert result["only_hero_won"] == result["only_control_won"] == 0
    assert result["sign_test_p"] == 1.0
    result = main(["--players", "expert-h1@2,hard", "--control", "random", "--games", "4",
                   "--rounds", "6"])
    assert result["only_hero_won"] >= 1 and result["control_win_rate"] < result["win_rate"]
