"""``bench.hard_offers``: the deals of a game's log counted by who offered and who answered, and
the script runs each variant and names a bad one."""

from __future__ import annotations

import pytest

from bench.hard_offers import DEAL_KINDS, deal_counts, main

LOG = [
    "Round 3",
    "seat 1 offers seat 2: give nothing for Jumla; pay Rs 1,000",
    "seat 2 accepts the trade",
    "seat 0 offers seat 1: give Surkhet for nothing; ask Rs 2,000",
    "seat 1 declines the trade",
    "seat 0 offers seat 3: give nothing for Lalitpur; pay Rs 4,000",
    "seat 3 accepts the trade",
    "seat 2 offers seat 0: give Chitwan for Bus park; pay Rs 500",
    "seat 0 declines the trade",
    "seat 3 offers seat 0: give nothing for Jumla; pay Rs 700",
    "seat 0 accepts the trade",
    "seat 3 offers seat 1: give Butwal for nothing; ask Rs 1,200",
    "seat 1 declines the trade",
]


def gain(out: list[str]) -> float:
    """The second variant's rate less the first's, in points, read from the bench's lines."""
    rates = [float(line.split()[1].rstrip("%")) for line in (out[1], out[3])]
    return rates[1] - rates[0]


def test_deals_are_counted_by_who_offered_and_who_answered() -> None:
    assert tuple(deal_counts(LOG, 0)) == DEAL_KINDS
    assert deal_counts(LOG, 0) == {"hero's taken": 1, "to hero, taken": 1,
                                   "to hero, refused": 1, "among rivals": 1}
    # Seen from seat 1: its one offer was refused; one of two offers to it was taken
    assert deal_counts(LOG, 1) == {"hero's taken": 1, "to hero, taken": 0,
                                   "to hero, refused": 2, "among rivals": 2}


def test_the_script_runs_its_variants_and_names_bad_input(capsys) -> None:
    assert main(["--opponents", "easy", "--games", "2", "--variants", "both,none"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "hard + easy: 2 games a variant, seed 61, seats rotated"
    assert out[1].startswith("both ") and out[2].startswith("         deals a game: ")
    assert out[3].startswith("none ")
    assert out[4].strip().startswith(f"{gain(out):+.1f} points on both (se ")
    assert "hero's taken 0.00" in out[5]
    with pytest.raises(SystemExit):
        main(["--variants", "both,everything"])
    assert "unknown variant 'everything'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--opponents", "easy,easy,easy,easy,easy,easy"])
    assert "--opponents must name 1 to 5 players, got 6" in capsys.readouterr().err
