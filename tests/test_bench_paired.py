"""``bench.common.paired``: two players' shares of the same games compared game by game, and the
line the variant benches print with it."""

from __future__ import annotations

import pytest

from bench.common import paired, print_paired, print_variants


def test_a_paired_comparison_counts_the_changed_games_and_their_spread() -> None:
    # Eight games: the candidate wins games 0 and 1 that the baseline lost, loses game 2 that
    # it won, and a shared game (3) goes from a whole win to a half.
    base = [0.0, 0.0, 1.0, 1.0, 0.0, 1.0, 0.0, 0.0]
    cand = [1.0, 1.0, 0.0, 0.5, 0.0, 1.0, 0.0, 0.0]
    p = paired(base, cand)
    assert p.changed == 4
    assert p.gain == pytest.approx(100 * 0.5 / 8)
    # differences 1, 1, -1, -0.5, 0 x4: mean 1/16, sample variance (sum of squares - 8 mean^2) / 7
    var = (1 + 1 + 1 + 0.25 - 8 * (1 / 16) ** 2) / 7
    assert p.standard_error == pytest.approx(100 * (var / 8) ** 0.5)


def test_the_same_shares_are_no_gain_and_no_spread() -> None:
    p = paired([1.0, 0.0, 0.5], [1.0, 0.0, 0.5])
    assert (p.gain, p.standard_error, p.changed) == (0.0, 0.0, 0)


def test_a_comparison_needs_the_same_games(capsys) -> None:
    with pytest.raises(ValueError, match="same games, at least two; got 3 and 2"):
        paired([1.0, 0.0, 0.0], [1.0, 0.0])
    with pytest.raises(ValueError, match="got 1 and 1"):
        paired([1.0], [0.0])
    print_paired("hard", [0.0, 0.0, 1.0, 1.0], [1.0, 0.0, 1.0, 1.0], width=4)
    assert capsys.readouterr().out == "     +25.0 points on hard (se 25.0, 1 games changed)\n"


def test_variants_print_their_rates_and_each_later_one_against_the_first(capsys) -> None:
    rows = [("a", iter([1.0, 0.0])), ("b", iter([1.0, 1.0])), ("c", iter([0.0, 0.0]))]
    seen = []
    for label in print_variants(rows, 2, width=2):
        seen.append((label, capsys.readouterr().out.splitlines()))
    assert [label for label, _ in seen] == ["a", "b", "c"]
    assert len(seen[0][1]) == 1 and seen[0][1][0].startswith("a   50.0% ")
    assert seen[1][1][0].startswith("b  100.0% ")
    assert seen[1][1][1] == "   +50.0 points on a (se 50.0, 1 games changed)"
    assert seen[2][1][1] == "   -50.0 points on a (se 50.0, 1 games changed)"
