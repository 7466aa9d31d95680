"""Shared timing helpers: medians of repeated runs beside a fixed pure-Python baseline."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


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
