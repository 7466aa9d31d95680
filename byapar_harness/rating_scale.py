"""``byapar evaluate``'s rating: the agent on one scale with the shipped levels.

The scale is ``byapar_harness.rating``'s (a seat wins with a chance proportional to
``10 ** (rating / 400)``; at two seats, Elo's formula) with the easy player at 1,000. The
levels' ratings (random, easy, medium, hard; the ladder's ``beginner`` is easy and its
``master`` hard) are fitted to their results against each other, the committed table
``reference_results.py`` measured by ``python -m bench.reference_ratings``, with one drawn
game each against the anchor as a prior (the random player wins next to nothing, and a rating
without a prior would have no floor). The agent is placed from its evaluation's cells against
the levels (the other opponents have no rating here), the levels' ratings taken as exact: the
best fit and its 95% likelihood-ratio interval.
"""

from __future__ import annotations

import functools

from .rating import Cell, Placement, fit_ratings, place
from .reference_results import REFERENCE_RESULTS

ANCHOR = "easy"
ANCHOR_RATING = 1000.0
PRIOR_GAMES = 1


@functools.cache
def reference_ratings(game: str) -> dict[str, float]:
    """The levels of ``game`` on the scale, weakest first, fitted to the committed table (empty
    for a game without one)."""
    table = REFERENCE_RESULTS.get(game)
    if table is None:
        return {}
    ratings = fit_ratings([Cell(*c) for c in table["cells"]], ANCHOR, ANCHOR_RATING,
                          PRIOR_GAMES)
    return dict(sorted(ratings.items(), key=lambda kv: kv[1]))


def rate_cells(game: str, cells: dict) -> dict | None:
    """The rating of the player of an evaluation's ``cells`` (the gauntlet's, keyed
    ``OPPONENT@SIZE``) from those against the levels of ``game``; None when none is."""
    levels = reference_ratings(game)
    used = [c for c in cells.values() if c["opponent"] in levels]
    if not used:
        return None
    placed: Placement = place([(levels[c["opponent"]], c["size"],
                                min(c["games"], round(c["win_rate"] * c["games"], 9)),
                                c["games"]) for c in used])
    table = REFERENCE_RESULTS[game]
    return {
        "rating": placed.rating, "ci95": [placed.low, placed.high],
        "wins": placed.wins, "games": placed.games,
        "opponents": list(dict.fromkeys(c["opponent"] for c in used)),
        "levels": levels, "anchor": {"player": ANCHOR, "rating": ANCHOR_RATING},
        "reference": {"games_a_cell": table["games"], "seed": table["seed"]},
    }


def _number(x: float) -> str:
    return f"{x:,.0f}"


def format_rating(rating: dict | None) -> str:
    """The report's rating line."""
    if rating is None:
        return "rating: none (no cell against the levels)"
    low, high = rating["ci95"]
    if rating["rating"] is not None:
        value = f"{_number(rating['rating'])} (95% interval {_number(low)} - {_number(high)})"
    elif low is not None:
        value = f"above {_number(low)} (95%; it won every game against the levels)"
    else:
        value = f"below {_number(high)} (95%; it won no game against the levels)"
    levels = ", ".join(f"{k} {_number(v)}" for k, v in rating["levels"].items())
    return (f"rating: {value}, from {rating['games']:,} games against "
            f"{', '.join(rating['opponents'])}; the levels: {levels} ({ANCHOR} the anchor; "
            f"400 points are ten times the odds of winning)")
