"""Small statistics shared by the reports of both games' players."""

from __future__ import annotations

import math
from collections.abc import Sequence


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a win rate of ``wins`` in ``n`` games (95% at z = 1.96);
    (0, 0) for no games."""
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def paired_mean_se(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """The mean of ``a[i] - b[i]`` over pairs and its standard error: (0, 0) for no pairs, a
    standard error of 0 for one. ``ValueError`` if the sequences differ in length."""
    if len(a) != len(b):
        raise ValueError(f"paired results need lists of one length, got {len(a)} and {len(b)}")
    n = len(a)
    if n == 0:
        return 0.0, 0.0
    d = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(d) / n
    if n == 1:
        return mean, 0.0
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    return mean, math.sqrt(var / n)


def paired_difference(a: Sequence[float], b: Sequence[float], z: float = 1.96
                      ) -> tuple[float, float, float]:
    """The mean of ``a[i] - b[i]`` over pairs (two players' results on the same games) and its
    normal interval (95% at z = 1.96): ``(mean, low, high)``; (0, 0, 0) for no pairs. Pairing
    removes the luck the two share, so it resolves a smaller difference than two separate win
    rates do. ``ValueError`` if the lists differ in length."""
    mean, se = paired_mean_se(a, b)
    return mean, mean - z * se, mean + z * se


def sign_test(better: int, worse: int) -> float:
    """The exact two-sided p-value of ``better`` pairs won by one side against ``worse`` won by
    the other (ties left out) if each pair were a fair coin; 1.0 with no such pairs."""
    n = better + worse
    if n == 0:
        return 1.0
    k = min(better, worse)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2 ** n
    return min(1.0, 2 * tail)
