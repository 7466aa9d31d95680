"""Ratings on one scale (``byapar_harness.rating``, ``rating_scale``): hand-made results with
known ratings, the committed reference table, and the rating ``byapar evaluate`` reports."""

from __future__ import annotations

import math

import pytest

from byapar_harness.gauntlet import GauntletConfig, run_gauntlet
from byapar_harness.rating import Cell, RatingError, fit_ratings, place, win_chance
from byapar_harness.rating_scale import (
    ANCHOR,
    ANCHOR_RATING,
    PRIOR_GAMES,
    format_rating,
    rate_cells,
    reference_ratings,
)
from byapar_harness.reference_results import REFERENCE_RESULTS

HALF_CHI2 = 3.841458820694124 / 2  # the 95% likelihood-ratio cut


def elo(odds: float) -> float:
    return 400 * math.log10(odds)


def test_two_seats_is_elos_formula_and_more_seats_share_the_odds() -> None:
    assert win_chance(1400, 1000, 2) == pytest.approx(10 / 11)
    assert win_chance(1000, 1000, 4) == pytest.approx(1 / 4)
    # three opponents at 0 and a rating of 400 log10(3): even odds of winning
    assert win_chance(elo(3), 0, 4) == pytest.approx(0.5)


@pytest.mark.parametrize("size, wins, rating", [
    (2, 90, elo(9)),     # 90 of 100 heads-up: odds of 9
    (4, 50, elo(3)),     # half the games against three: as strong as the three together
    (6, 50, elo(5)),     # half the games against five: as strong as the five together
])
def test_a_player_is_placed_where_its_wins_are_the_expected_ones(size, wins, rating) -> None:
    placed = place([(0.0, size, wins, 100)])
    assert placed.rating == pytest.approx(rating, abs=1e-6)
    assert placed.low < placed.rating < placed.high
    assert (placed.wins, placed.games) == (wins, 100)


def test_the_interval_is_the_likelihood_ratio_one() -> None:
    # 50 of 100 heads-up against 0: the log-likelihood 50 log(p (1 - p)) falls by the cut
    # where p (1 - p) = exp(-cut / 50) / 4
    q = math.exp(-HALF_CHI2 / 50) / 4
    p = (1 + math.sqrt(1 - 4 * q)) / 2
    placed = place([(0.0, 2, 50, 100)])
    assert placed.rating == pytest.approx(0.0, abs=1e-6)
    assert placed.high == pytest.approx(elo(p / (1 - p)), abs=1e-6)
    assert placed.low == pytest.approx(-placed.high, abs=1e-6)


def test_a_player_who_won_every_game_or_none_has_one_bound() -> None:
    # 10 of 10 heads-up against 0: 10 log p falls by the cut at p = exp(-cut / 10)
    p = math.exp(-HALF_CHI2 / 10)
    best = place([(0.0, 2, 10, 10)])
    assert (best.rating, best.high) == (None, None)
    assert best.low == pytest.approx(elo(p / (1 - p)), abs=1e-6)
    worst = place([(0.0, 2, 0, 10)])
    assert (worst.rating, worst.low) == (None, None)
    assert worst.high == pytest.approx(-best.low, abs=1e-6)


def test_the_fit_recovers_the_ratings_the_results_were_made_from() -> None:
    true = {"a": 1000.0, "b": 1200.0, "c": 1450.0}
    cells = [Cell(p, o, n, 1000 * win_chance(true[p], true[o], n), 1000)
             for p in true for o in true if p != o for n in (2, 4, 6)]
    fitted = fit_ratings(cells, "a", 1000.0)
    assert fitted == pytest.approx(true, abs=1e-6)


def test_a_chain_of_results_gives_each_step_its_own_odds() -> None:
    cells = [Cell("a", "b", 2, 70, 100), Cell("b", "c", 2, 70, 100)]
    fitted = fit_ratings(cells, "c", 1000.0)
    assert fitted["c"] == 1000.0
    assert fitted["b"] == pytest.approx(1000 + elo(7 / 3), abs=1e-6)
    assert fitted["a"] == pytest.approx(1000 + 2 * elo(7 / 3), abs=1e-6)


def test_results_that_fix_no_rating_are_refused_and_the_prior_keeps_one_finite() -> None:
    cells = [Cell("b", "a", 2, 0, 10)]
    with pytest.raises(RatingError, match="a never lost to b "):
        fit_ratings(cells, "a", 1000.0)
    # the prior's drawn game: half a win in 11 games heads-up against the anchor
    assert fit_ratings(cells, "a", 1000.0, prior_games=1)["b"] == pytest.approx(
        1000 + elo(0.5 / 10.5), abs=1e-6)


@pytest.mark.parametrize("cell, says", [
    (Cell("a", "b", 2, 11, 10), "wins are from 0 to its games"),
    (Cell("a", "b", 1, 0, 10), "seats at least 2"),
    (Cell("a", "b", 2, 0, 0), "at least one game"),
    (Cell("a", "a", 2, 5, 10), "player and opponent differ"),
])
def test_a_cell_that_is_not_a_result_is_refused(cell, says) -> None:
    with pytest.raises(RatingError, match=says):
        fit_ratings([cell], "a")


def test_an_unknown_anchor_and_no_cells_are_refused() -> None:
    with pytest.raises(RatingError, match="the anchor 'z' plays in no cell"):
        fit_ratings([Cell("a", "b", 2, 5, 10)], "z")
    with pytest.raises(RatingError, match="at least one cell"):
        place([])


@pytest.mark.parametrize("game", ["byapar", "businessman"])
def test_the_levels_ratings_are_the_fit_of_the_committed_table(game) -> None:
    table = REFERENCE_RESULTS[game]
    levels = reference_ratings(game)
    assert set(levels) == {"random", "easy", "medium", "hard"}
    assert levels[ANCHOR] == ANCHOR_RATING == 1000.0
    assert levels == fit_ratings([Cell(*c) for c in table["cells"]], ANCHOR, ANCHOR_RATING,
                                 PRIOR_GAMES)
    assert list(levels.values()) == sorted(levels.values())  # weakest first
    # every level against every other at 2, 4 and 6 seats
    assert len(table["cells"]) == 4 * 3 * 3
    assert {c[4] for c in table["cells"]} == {table["games"]}


@pytest.mark.parametrize("game", ["byapar", "businessman"])
def test_a_cell_of_the_committed_table_is_measured_again(game) -> None:
    table = REFERENCE_RESULTS[game]
    result = run_gauntlet(GauntletConfig(player="medium", opponents=("easy",), sizes=(2,),
                                         games=table["games"], seed=table["seed"],
                                         rounds=table["rounds"], game=game))
    cell = result["cells"]["easy@2"]
    assert ("medium", "easy", 2, round(cell["win_rate"] * cell["games"], 6),
            table["games"]) in table["cells"]


def _cells(rating: float, levels: dict[str, float], games: int = 100) -> dict:
    """An evaluation's cells whose wins are what a player of ``rating`` is expected to win."""
    cells = {}
    for name, level in levels.items():
        for n in (2, 4, 6):
            rate = win_chance(rating, level, n)
            cells[f"{name}@{n}"] = {"opponent": name, "size": n, "games": games,
                                    "win_rate": rate}
    cells["guardian@4"] = {"opponent": "guardian", "size": 4, "games": games, "win_rate": 1.0}
    return cells


def test_an_evaluation_is_placed_among_the_levels_from_its_cells_against_them() -> None:
    levels = reference_ratings("byapar")
    rating = rate_cells("byapar", _cells(1234.0, levels))
    assert rating["rating"] == pytest.approx(1234.0, abs=1e-4)
    assert rating["ci95"][0] < 1234.0 < rating["ci95"][1]
    assert rating["games"] == 12 * 100  # the panel's guardian has no rating: left out
    assert rating["opponents"] == list(levels)
    assert rating["levels"] == levels
    assert rating["anchor"] == {"player": "easy", "rating": 1000.0}
    assert rate_cells("byapar", {"guardian@2": {"opponent": "guardian", "size": 2,
                                                "games": 3, "win_rate": 0.0}}) is None


def _rating(value, low, high) -> dict:
    return {"rating": value, "ci95": [low, high], "games": 300,
            "opponents": ["random", "easy", "medium"],
            "levels": {"random": 210.4, "easy": 1000.0, "medium": 1300.0}}


@pytest.mark.parametrize("rating, says", [
    (_rating(1150.2, 1100.0, 1201.6), "rating: 1,150 (95% interval 1,100 - 1,202), from 300 "
     "games against random, easy, medium; the levels: random 210, easy 1,000, medium 1,300 "
     "(easy the anchor; 400 points are ten times the odds of winning)"),
    (_rating(None, 1600.4, None), "rating: above 1,600 (95%; it won every game against the "
     "levels), from 300 games"),
    (_rating(None, None, 190.0), "rating: below 190 (95%; it won no game against the levels), "
     "from 300 games"),
    (None, "rating: none (no cell against the levels)"),
])
def test_the_rating_line(rating, says) -> None:
    assert format_rating(rating).startswith(says)


def test_the_committed_table_is_as_the_bench_writes_it() -> None:
    from pathlib import Path

    import byapar_harness.reference_results as committed
    from bench.reference_ratings import module_text

    assert Path(committed.__file__).read_text() == module_text(REFERENCE_RESULTS)
