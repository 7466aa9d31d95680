"""Seeded random Businessman games across 2 to 6 players, with an invariant check at every step:
money conserved, every game ending, JSON round trips and clones exact at random points."""

from __future__ import annotations

import random

import pytest

from byapar_env.businessman import ALL_ACTIONS, Game, Phase, Rules, board
from byapar_env.businessman.board import FIGURES
from byapar_env.businessman.state import check_whole

MAX_STEPS = 100_000


def check_invariants(g: Game) -> None:
    """Money is conserved: the seats' cash is the starting cash plus what the bank paid out
    less what it took in; each colour's shares add up to its stock; no cash is negative; and
    the whole-game check of a saved game passes."""
    n = g.num_players
    assert sum(g.cash) == n * FIGURES.starting_cash + g.bank_paid - g.bank_received
    assert all(c >= 0 for c in g.cash)
    for c in range(board.NUM_COLOURS):
        assert g.supply[c] + sum(s[c] for s in g.shares) == FIGURES.shares_per_colour
    if not g.is_over:
        assert g.legal_actions(), "no legal action while the game is on"
        assert not g.bankrupt[g.current_player]
        if g.phase == Phase.RAISE_CASH:
            assert g.cash[g.current_player] < g.debt_owed() <= g.liquidation_value(
                g.current_player)
    else:
        assert g.winners and g.current_player == -1
    check_whole(g)


def play(g: Game, rng: random.Random, check=None, every: int = 1) -> int:
    steps = 0
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
        steps += 1
        if check is not None and steps % every == 0:
            check(g)
        assert steps < MAX_STEPS, "game did not end"
    return steps


TABLES = [(n, rounds, abroad) for n in range(2, 7)
          for rounds, abroad in ((20, True), (8, False), (30, True))]


@pytest.mark.parametrize(("players", "rounds", "abroad"), TABLES,
                         ids=lambda v: str(v))
def test_random_games_keep_every_invariant(players: int, rounds: int, abroad: bool) -> None:
    for seed in range(4):
        g = Game(Rules(num_players=players, max_rounds=rounds, abroad_enabled=abroad), seed=seed)
        check_invariants(g)
        play(g, random.Random(seed), check_invariants)
        check_invariants(g)
        assert g.is_over
        if len(g.active_seats()) > 1:
            assert g.round == rounds
        if not abroad:
            assert all(o == -1 for o in g.owner[40:56])


@pytest.mark.parametrize("players", range(2, 7))
def test_hundreds_of_games_end_and_conserve_money(players: int) -> None:
    """60 games a table size (300 in all), the money checked at every step."""
    n = players

    def money(g: Game) -> None:
        assert sum(g.cash) == n * FIGURES.starting_cash + g.bank_paid - g.bank_received
        assert min(g.cash) >= 0

    for seed in range(100, 160):
        g = Game(Rules(num_players=players), seed=seed)
        play(g, random.Random(seed), money)
        check_invariants(g)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_json_round_trips_and_clones_are_exact_at_random_points(players: int) -> None:
    for seed in range(6):
        rng = random.Random(1_000 + seed)
        g = Game(Rules(num_players=players), seed=seed)
        steps = 0
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
            steps += 1
            if rng.random() < 0.01:
                text = g.to_json()
                back = Game.from_json(text)
                assert back.to_json() == text
                twin = g.clone()
                assert twin.to_json() == text
                # The restored game and the clone play on exactly as the original would.
                probe = random.Random(steps)
                copy_rng = random.Random(steps)
                other_rng = random.Random(steps)
                ahead = g.clone()
                for _ in range(30):
                    if ahead.is_over:
                        break
                    a = probe.choice(ahead.legal_actions())
                    assert copy_rng.choice(back.legal_actions()) == a
                    assert other_rng.choice(twin.legal_actions()) == a
                    ahead.apply(a)
                    back.apply(a)
                    twin.apply(a)
                assert ahead.to_json() == back.to_json() == twin.to_json()
                assert g.to_json() == text  # the clones shared nothing with the original


@pytest.mark.parametrize("players", [2, 4, 6])
def test_is_legal_agrees_with_legal_actions(players: int) -> None:
    """For every action of the flat table, at every step: is_legal says what the list says."""
    for seed in range(2):
        rng = random.Random(seed)
        g = Game(Rules(num_players=players, max_rounds=6), seed=seed)
        while not g.is_over:
            legal = g.legal_actions()
            assert len(set(legal)) == len(legal)
            listed = set(legal)
            for a in ALL_ACTIONS:
                assert g.is_legal(a) == (a in listed), (str(a), g.phase.name)
            g.apply(rng.choice(legal))


def test_seeds_give_distinct_deterministic_games() -> None:
    def run(seed: int) -> str:
        g = Game(Rules(num_players=4), seed=seed)
        play(g, random.Random(seed))
        return g.to_json()

    assert run(3) == run(3)
    assert run(3) != run(4)
