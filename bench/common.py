"""Shared helpers of the benches: medians of repeated runs beside a fixed pure-Python baseline,
the phase-swap variants, and a win-rate line with its interval."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable, Iterable

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


def print_win_rate(label: str, shares: Iterable[float], games: int, width: int = 24) -> float:
    """Sum ``shares`` (a player's win share in each of ``games`` games, best lazy, so that the
    seconds count the games), print the win rate with its 95% Wilson interval and the seconds
    taken, and return the rate."""
    began = time.perf_counter()
    won = sum(shares)
    lo, hi = wilson(won, games)
    print(f"{label:{width}s} {won / games:6.1%} ({lo:.1%} - {hi:.1%})  "
          f"{time.perf_counter() - began:.0f} s", flush=True)
    return won / games
