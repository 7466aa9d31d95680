"""Ratings on one Elo-style scale from who won each game of a table.

The model: at a table, each seat wins with a chance proportional to ``10 ** (rating / 400)``
(the first place of a Plackett-Luce model, a softmax of the ratings). At two seats that is
Elo's formula; 400 points are a factor of ten in a seat's odds. A *cell* is one player against
copies of one opponent at ``size`` seats (the gauntlet's and ``byapar evaluate``'s tables):
the player wins each game with the chance ``win_chance(player, opponent, size)``, so a cell's
wins are binomial and the copies' ratings need no telling apart. A shared win counts its share.

- ``fit_ratings``: every player's rating from cells among them, one player's fixed (the
  anchor), by maximum likelihood (Newton's method on a concave log-likelihood);
- ``place``: one more player's rating from its cells against players whose ratings are known,
  with a 95% likelihood-ratio interval (the ratings it is placed against taken as exact).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from byapar_env.engine.errors import ByaparError

POINTS = 400.0  # rating points per factor of ten in the odds of a seat's win
_K = math.log(10) / POINTS
# Half the 95% point of the chi-square distribution with one degree of freedom: the interval
# holds the ratings whose log-likelihood is within this of the best.
_HALF_CHI2_95 = 3.841458820694124 / 2
_WIDEST = 10_000.0  # no rating is searched beyond this many points from its opponents


class RatingError(ByaparError, ValueError):
    """Results that fix no finite rating (someone never won, or never lost, against the rest),
    or a cell that is not a result."""


@dataclass(frozen=True)
class Cell:
    """``wins`` of ``games`` for ``player``, seated with ``size - 1`` copies of ``opponent``."""

    player: str
    opponent: str
    size: int
    wins: float
    games: int


@dataclass(frozen=True)
class Placement:
    """A player's rating and its 95% interval. ``rating`` is None when no finite rating fits
    best (it won every game, or none); then ``low`` (won every game) or ``high`` (won none) is
    the only finite bound and the other is None."""

    rating: float | None
    low: float | None
    high: float | None
    wins: float
    games: int


def win_chance(rating: float, opponent: float, size: int) -> float:
    """The chance that a player of ``rating`` wins at ``size`` seats against ``size - 1``
    players of rating ``opponent``."""
    return 1.0 / (1.0 + (size - 1) * 10 ** ((opponent - rating) / POINTS))


def _check(cell: Cell) -> None:
    if isinstance(cell.size, bool) or not isinstance(cell.size, int) or cell.size < 2:
        raise RatingError(f"a cell's table seats at least 2, got size {cell.size!r} "
                          f"({cell.player} against {cell.opponent})")
    if isinstance(cell.games, bool) or not isinstance(cell.games, int) or cell.games < 1:
        raise RatingError(f"a cell has at least one game, got {cell.games!r} "
                          f"({cell.player} against {cell.opponent})")
    if not 0 <= cell.wins <= cell.games:
        raise RatingError(f"a cell's wins are from 0 to its games ({cell.games}), got "
                          f"{cell.wins!r} ({cell.player} against {cell.opponent})")
    if cell.player == cell.opponent:
        raise RatingError(f"a cell's player and opponent differ, got {cell.player} twice")


def _reached(start: str, edges: dict[str, set[str]]) -> set[str]:
    seen, todo = {start}, [start]
    while todo:
        for nxt in edges[todo.pop()]:
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def _check_connected(names: list[str], cells: Sequence[Cell]) -> None:
    """A finite best fit exists exactly when every player both beat and lost to the others in
    a chain that leads everywhere (the win graph is strongly connected; Ford, 1957)."""
    beat: dict[str, set[str]] = {n: set() for n in names}
    lost: dict[str, set[str]] = {n: set() for n in names}
    for c in cells:
        if c.wins > 0:
            beat[c.player].add(c.opponent)
            lost[c.opponent].add(c.player)
        if c.wins < c.games:
            beat[c.opponent].add(c.player)
            lost[c.player].add(c.opponent)
    # Those not reached by wins from the first player never lost to those reached (and the
    # other way round), directly or through a chain of players.
    for edges, never in ((beat, "lost to"), (lost, "won against")):
        reached = _reached(names[0], edges)
        missing = set(names) - reached
        if missing:
            raise RatingError(
                f"these results fix no finite ratings: {', '.join(sorted(missing))} never "
                f"{never} {', '.join(sorted(reached))} (directly or through a chain of "
                f"players)")


def fit_ratings(cells: Sequence[Cell], anchor: str, anchor_rating: float = 0.0,
                prior_games: int = 0) -> dict[str, float]:
    """Every player's rating, by maximum likelihood over ``cells``, with ``anchor``'s fixed
    at ``anchor_rating``. With ``prior_games``, every other player also has that many games at
    two seats against the anchor, half of them won: a prior that keeps the rating of a player
    who never won (or never lost) finite. ``RatingError`` when the results fix no finite
    ratings."""
    for c in cells:
        _check(c)
    names = list(dict.fromkeys(n for c in cells for n in (c.player, c.opponent)))
    if anchor not in names:
        raise RatingError(f"the anchor {anchor!r} plays in no cell: the players are "
                          f"{', '.join(names) or 'none'}")
    if prior_games:
        cells = [*cells, *(Cell(n, anchor, 2, prior_games / 2, prior_games)
                           for n in names if n != anchor)]
    _check_connected(names, cells)
    free = [n for n in names if n != anchor]
    index = {n: i for i, n in enumerate(free)}
    r = np.zeros(len(free))

    def rating(name: str) -> float:
        return anchor_rating if name == anchor else anchor_rating + r[index[name]]

    def loglik() -> float:
        total = 0.0
        for c in cells:
            p = win_chance(rating(c.player), rating(c.opponent), c.size)
            total += c.wins * math.log(p) + (c.games - c.wins) * math.log1p(-p)
        return total

    for _ in range(200):
        grad = np.zeros(len(free))
        hess = np.zeros((len(free), len(free)))
        for c in cells:
            p = win_chance(rating(c.player), rating(c.opponent), c.size)
            g, h = _K * (c.wins - c.games * p), _K * _K * c.games * p * (1 - p)
            for name, sign in ((c.player, 1.0), (c.opponent, -1.0)):
                if name in index:
                    grad[index[name]] += sign * g
            for a, sa in ((c.player, 1.0), (c.opponent, -1.0)):
                for b, sb in ((c.player, 1.0), (c.opponent, -1.0)):
                    if a in index and b in index:
                        hess[index[a], index[b]] += sa * sb * h
        step = np.linalg.solve(hess, grad)
        # Newton's step, halved until the likelihood does not fall (it is concave: it stops)
        before, size = loglik(), 1.0
        old = r.copy()
        while True:
            r = old + size * step
            if loglik() >= before - 1e-12 or size < 1e-6:
                break
            size /= 2
        if np.max(np.abs(size * step)) < 1e-9:
            break
    return {n: float(rating(n)) for n in names}


def _loglik(a: float, cells: Sequence[tuple[float, int, float, int]]) -> float:
    total = 0.0
    for opponent, size, wins, games in cells:
        p = win_chance(a, opponent, size)
        # the limits 0 * log(0) = 0 where a bound of the search makes p round to 0 or 1
        if wins:
            total += wins * math.log(p) if p > 0 else -math.inf
        if games - wins:
            total += (games - wins) * math.log1p(-p) if p < 1 else -math.inf
    return total


def _score(a: float, cells: Sequence[tuple[float, int, float, int]]) -> float:
    return sum(wins - games * win_chance(a, opponent, size)
               for opponent, size, wins, games in cells)


def _solve(f, low: float, high: float) -> float:
    """The root of ``f``, which is positive at ``low`` and negative at ``high``."""
    for _ in range(200):
        mid = (low + high) / 2
        if f(mid) > 0:
            low = mid
        else:
            high = mid
        if high - low < 1e-9:
            break
    return (low + high) / 2


def place(cells: Sequence[tuple[float, int, float, int]]) -> Placement:
    """A player's rating from its results against players of known ratings: ``cells`` are
    ``(opponent's rating, size, wins, games)``. The best fit (its wins equal the wins the
    model expects) and the 95% likelihood-ratio interval."""
    if not cells:
        raise RatingError("a player is placed from at least one cell against a rated player")
    for _, size, won, played in cells:
        _check(Cell("the player", "an opponent", size, won, played))
    wins = float(sum(c[2] for c in cells))
    games = int(sum(c[3] for c in cells))
    lowest = min(c[0] for c in cells) - _WIDEST
    highest = max(c[0] for c in cells) + _WIDEST
    if 0 < wins < games:
        best = _solve(lambda a: _score(a, cells), lowest, highest)
        top = _loglik(best, cells)
    else:  # the likelihood rises for ever towards a bound: its limit is 0
        best, top = None, 0.0

    def above_cut(a: float) -> float:
        return _loglik(a, cells) - (top - _HALF_CHI2_95)

    low = high = None
    if wins > 0:  # a finite lower bound
        inside = best if best is not None else highest
        low = _solve(lambda a: -above_cut(a), lowest, inside)
    if wins < games:
        inside = best if best is not None else lowest
        high = _solve(above_cut, inside, highest)
    return Placement(best, low, high, wins, games)
