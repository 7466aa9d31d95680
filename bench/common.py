"""Shared helpers of the benches: medians of repeated runs beside a fixed pure-Python baseline,
the phase-swap variants, a win-rate line with its interval, and the paired comparison of two
players on the same games."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from byapar_env.stats import wilson


def baseline_ops_per_second() -> float:
    """A fixed pure-Python workload (dict, list and int work), as a yardstick for this machine."""
    start = time.perf_counter()
    d: dict[int, int] = {}
    acc = 0
    for i in range(300_000):
        d[i & 1023] = i
        acc += d.get(i & 511, 0) % 7
        if i % 3:
            acc ^= i
    return 300_000 / (time.perf_counter() - start)


def median_runs(run: Callable[[], dict], repeats: int) -> tuple[dict, float]:
    """Run ``run`` ``repeats`` times; the median of each figure, and the median baseline."""
    results, bases = [], []
    for _ in range(repeats):
        bases.append(baseline_ops_per_second())
        results.append(run())
    keys = results[0].keys()
    return {k: statistics.median(r[k] for r in results) for k in keys}, statistics.median(bases)


def phase_variants(text: str | None, phases: type,
                   swappable: tuple[str, ...]) -> list[tuple[str, frozenset]]:
    """The phase-swap benches' ``--swap``: comma-separated variants, each ``none`` or a
    ``+``-joined set of ``swappable`` names of the enum ``phases`` (default: ``none``, then
    each alone), as ``(text, frozenset of members)``. ValueError names an unknown phase."""
    out = []
    for v in text.split(",") if text else ["none", *swappable]:
        names = [] if v == "none" else v.split("+")
        bad = [n for n in names if n not in swappable]
        if bad:
            raise ValueError(f"unknown phase {bad[0]!r}: expected none or some of "
                             f"{', '.join(swappable)}")
        out.append((v, frozenset(phases[n] for n in names)))
    return out


def print_win_rate(label: str, shares: Iterable[float], games: int,
                   width: int = 24) -> list[float]:
    """Take ``shares`` (a player's win share in each of ``games`` games, best lazy, so that the
    seconds count the games), print the win rate with its 95% Wilson interval and the seconds
    taken, and return the shares."""
    began = time.perf_counter()
    kept = list(shares)
    won = sum(kept)
    lo, hi = wilson(won, games)
    print(f"{label:{width}s} {won / games:6.1%} ({lo:.1%} - {hi:.1%})  "
          f"{time.perf_counter() - began:.0f} s", flush=True)
    return kept


@dataclass(frozen=True)
class Paired:
    """A candidate against a baseline on the same games, in points."""

    gain: float
    standard_error: float  # of the gain, over the games' paired differences
    changed: int  # games whose share for the watched seat differs


def paired(baseline: list[float], candidate: list[float]) -> Paired:
    """The paired comparison of two players' shares of the same games (at least two).

    The games are the same, but one changed decision sends a game down another road, so a
    candidate no stronger than the baseline still changes some games' winners: the standard
    error says how far chance alone moves the gain."""
    if len(baseline) != len(candidate) or len(baseline) < 2:
        raise ValueError(f"a paired comparison needs the same games, at least two; got "
                         f"{len(baseline)} and {len(candidate)}")
    diffs = [c - b for b, c in zip(baseline, candidate, strict=True)]
    se = statistics.stdev(diffs) / len(diffs) ** 0.5
    return Paired(100 * statistics.fmean(diffs), 100 * se, sum(1 for d in diffs if d))


def print_paired(baseline_label: str, baseline: list[float], shares: list[float],
                 width: int = 24) -> Paired:
    """Print the line under a variant's win rate that compares it with ``baseline`` (the
    shares of the same games), and return the comparison."""
    p = paired(baseline, shares)
    print(f"{'':{width}s} {p.gain:+5.1f} points on {baseline_label} (se {p.standard_error:.1f}, "
          f"{p.changed} games changed)", flush=True)
    return p


def print_variants(rows: Iterable[tuple[str, Iterable[float]]], games: int,
                   width: int = 24) -> Iterator[str]:
    """For each ``(label, shares)`` of variants played on the same ``games`` games, print its
    win rate (``print_win_rate``) and, after the first, its paired comparison with the first
    (``print_paired``); yields each label once its lines are printed, for a caller's own
    lines under it."""
    first: tuple[str, list[float]] | None = None
    for label, shares in rows:
        kept = print_win_rate(label, shares, games, width)
        if first is None:
            first = (label, kept)
        elif games > 1:
            print_paired(first[0], first[1], kept, width)
        yield label
