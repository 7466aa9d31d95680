"""The expert's simulations on worker processes (``byapar_agents.search_pool``): the same
candidates,
scores and choice as in one process, for any worker count; under a time budget, paired rounds."""

from __future__ import annotations

import pytest

from byapar_agents.expert import ExpertBudgetError, ExpertPlayer
from byapar_agents.medium import MediumPlayer
from byapar_env.driver import SeatDriver
from byapar_env.engine import Game, Rules


def _positions(count: int) -> list[tuple[Game, int]]:
    """Decisions of a seeded four-seat game of medium players, from round 6 on, that the
    expert searches (more than one candidate)."""
    game = Game(Rules(num_players=4), seed=21)
    driver = SeatDriver.for_game(game)
    players = [MediumPlayer() for _ in range(4)]
    probe = ExpertPlayer(sims=2)
    out = []
    while len(out) < count and (legal := driver.engine_choices()):
        if game.round >= 6 and len(probe.candidates(game, driver.pre_roll_actions)[0]) > 1:
            out.append((game.clone(), driver.pre_roll_actions))
        seat = game.current_player
        driver.take_engine(players[seat].choose(game, seat, legal))
    assert len(out) == count
    return out


def test_workers_give_the_scores_one_process_gives() -> None:
    positions = _positions(3)
    results = {}
    for workers in (1, 2, 3):
        expert = ExpertPlayer(sims=12, workers=workers)
        results[workers] = [
            [(str(c.action), c.scores) for c in ev.candidates] + [ev.choice, ev.sims]
            for ev in (expert.evaluate(g, pre, seed=k) for k, (g, pre) in enumerate(positions))]
    assert results[1] == results[2] == results[3]
    assert all(row[-1] >= 12 - 3 for row in results[1])  # the simulations were played


def test_workers_under_a_time_budget_keep_paired_rounds() -> None:
    (game, pre), = _positions(1)
    ExpertPlayer(sims=4, workers=2).evaluate(game, pre, seed=1)  # the workers are up
    ev = ExpertPlayer(budget_ms=400, workers=2).evaluate(game, pre, seed=2)
    counts = {len(c.scores) for c in ev.candidates}
    assert len(counts) == 1 and counts.pop() > 0
    assert ev.sims == len(ev.candidates) * len(ev.candidates[0].scores)


@pytest.mark.parametrize("workers", [0, 17, 1.5, True, "2"])
def test_a_bad_worker_count_is_refused(workers) -> None:
    with pytest.raises(ExpertBudgetError, match="workers must be a whole number"):
        ExpertPlayer(workers=workers)
