"""``bench.screen``: the rule's verdict on hand-set win rates (each clause failing alone), the
refusal of an unseen player, and a resumed screen reading its kept shares (a checkpoint
folder's under a flat file name)."""

from __future__ import annotations

import json

import pytest

from bench.screen import EQUAL_JUDGES, TABLES, main, table_rate, verdict

BASE = {"medium-3": 56.0, "trading-3": 49.5, "trading-5": 50.0, "completer-5": 37.0,
        "population-5": 29.0, "hard-3": 23.0, "hard-5": 17.0}


def test_a_candidate_a_point_up_everywhere_passes() -> None:
    v = verdict(BASE, {t: r + 1.0 for t, r in BASE.items()})
    assert v.passed and v.mean_gain == pytest.approx(1.0)


def test_each_clause_fails_alone() -> None:
    # Seven points up on one weak-judge table, the rest level: a mean of +1.0 passes...
    up = dict(BASE, **{"medium-3": 63.0})
    assert verdict(BASE, up).passed
    # ...but not with a table 3.5 points down, though the mean stays above a point
    down = dict(up, **{"trading-5": 46.5, "medium-3": 70.0})
    v = verdict(BASE, down)
    assert v.mean_gain >= 1.0 and v.worst == ("trading-5", -3.5) and not v.passed
    # nor with the equal judges' mean below the baseline's, every table within three points
    worse_equal = dict(BASE, **{"medium-3": 64.0, "hard-3": 22.0, "hard-5": 17.5})
    v = verdict(BASE, worse_equal)
    assert v.mean_gain >= 1.0 and v.worst[1] >= -3
    assert v.equal_judges_gain == pytest.approx(-0.25) and not v.passed
    # nor a mean under a point
    assert not verdict(BASE, {t: r + 0.9 for t, r in BASE.items()}).passed
    assert set(EQUAL_JUDGES) <= set(TABLES)


def test_a_verdict_needs_every_table() -> None:
    with pytest.raises(ValueError, match="missing: hard-5"):
        verdict(BASE, {t: r for t, r in BASE.items() if t != "hard-5"})


def test_the_screen_refuses_unseen_players_and_resumes_from_its_run_dir(tmp_path, capsys):
    with pytest.raises(SystemExit):
        main(["--candidate", "outside-monopyly-huw"])
    assert "unseen player" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--candidate", "easy", "--games", "1"])
    assert "--games must be at least 2 (the games are compared in pairs)" in (
        capsys.readouterr().err)
    # Kept shares for every table: the screen plays nothing and reads them
    for player, rates in (("hard", BASE), ("easy", {t: r + 1.0 for t, r in BASE.items()})):
        for table, rate in rates.items():
            (tmp_path / f"{player}--{table}--3--61.json").write_text(
                json.dumps({"shares": [rate / 100] * 3}))
    assert main(["--candidate", "easy", "--games", "3", "--run-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == ("medium-3       hard  56.0  easy  57.0   +1.0 (se 0.0, 3 games "
                      "changed)")
    assert out[-1].endswith("PASSES")


def test_a_checkpoint_folders_shares_are_kept_under_a_flat_name(tmp_path) -> None:
    (tmp_path / "runs_hard--hard-5--4--61.json").write_text(json.dumps({"shares": [1, 0, 0, 0]}))
    assert table_rate("runs/hard", "hard-5", 4, 61, 1, tmp_path) == 25.0
