"""``byapar_env.stats``: the Wilson interval, the paired difference and the sign test, on
figures worked out by hand."""

from __future__ import annotations

import math

import pytest

from byapar_env.stats import paired_difference, sign_test, wilson


def test_wilson_of_half_of_a_hundred() -> None:
    low, high = wilson(50, 100)
    # centre 0.5; half width 1.96 * sqrt(0.0025 + 0.000096) / 1.038416
    assert low == pytest.approx(0.40383, abs=1e-5) and high == pytest.approx(0.59617, abs=1e-5)
    assert wilson(0, 0) == (0.0, 0.0)


def test_paired_difference_of_four_games() -> None:
    # differences 1, 0, 0, -0.5: mean 0.125, squared deviations summing to 1.1875
    mean, low, high = paired_difference([1.0, 0.0, 0.5, 0.0], [0.0, 0.0, 0.5, 0.5])
    half = 1.96 * math.sqrt(1.1875 / 3 / 4)
    assert mean == pytest.approx(0.125)
    assert (low, high) == (pytest.approx(0.125 - half), pytest.approx(0.125 + half))
    assert paired_difference([], []) == (0.0, 0.0, 0.0)
    assert paired_difference([1.0, 1.0], [0.0, 0.0]) == (1.0, 1.0, 1.0)  # no spread


def test_paired_difference_refuses_lists_of_two_lengths() -> None:
    with pytest.raises(ValueError, match="one length, got 2 and 1"):
        paired_difference([1.0, 0.0], [1.0])


def test_sign_test_is_the_exact_binomial_tail_both_ways() -> None:
    # 9 of 10 one way: 2 * (C(10,0) + C(10,1)) / 2^10 = 22 / 1024
    assert sign_test(9, 1) == pytest.approx(22 / 1024)
    assert sign_test(1, 9) == sign_test(9, 1)
    assert sign_test(5, 5) == 1.0 and sign_test(0, 0) == 1.0
    assert sign_test(3, 0) == pytest.approx(0.25)  # 2 * 1/8
