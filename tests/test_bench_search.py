"""The expert's strength-against-budget bench and the ladder's rating bench: tiny runs that
resume from their files and summarise the same games at every point."""

from __future__ import annotations

import json

from bench import expert_curve, ladder


def test_the_expert_curve_plays_the_same_games_at_every_budget_and_resumes(tmp_path) -> None:
    out = tmp_path / "curve"
    expert_curve.main(["--out", str(out), "--sims", "4", "--games", "2"])
    rows = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines()]
    assert sorted((r["sims"], r["game"]) for r in rows) == [(0, 0), (0, 1), (4, 0), (4, 1)]
    # The same games: the expert's seat is the same at every budget.
    seats = {(r["game"], r["seat"]) for r in rows}
    assert len(seats) == 2
    expert_curve.main(["--out", str(out), "--sims", "4", "--games", "2"])  # nothing left
    assert len((out / "games.jsonl").read_text().splitlines()) == 4
    summary = expert_curve.summary(out)
    assert [p["sims"] for p in summary["points"]] == [0, 4]
    assert all(p["games"] == 2 and 0 <= p["win_rate"] <= 1 for p in summary["points"])


def test_the_ladder_bench_rates_every_level_it_seats(tmp_path) -> None:
    out = tmp_path / "ladder"
    levels = "beginner,novice,club,master"
    ladder.main(["--out", str(out), "--games", "3", "--levels", levels])
    result = ladder.run(out, 3, 0, tuple(levels.split(",")), 12, play_more=False)
    assert result["games"] == 3 and set(result["players"]) == set(levels.split(","))
    assert all(p["games"] == 3 for p in result["players"].values())  # four of four seated
    assert ladder.table(tuple(levels.split(",")), 0, 5) == ladder.table(
        tuple(levels.split(",")), 0, 5)


def test_the_rollout_bench_runs_its_real_worker_and_prints_its_figures(capsys) -> None:
    """One run of a few rollouts in its own process (no baseline: a fresh clone may lack the
    commit), and the figures it prints."""
    from bench import rollout_speed

    rollout_speed.main(["--rollouts", "24", "--repeats", "1", "--baseline", "none",
                        "--no-expert"])
    out = capsys.readouterr().out
    assert "24 a run" in out
    rate = float(next(line for line in out.splitlines()
                      if "rollouts/s" in line).split()[1].replace(",", ""))
    assert rate > 0
    assert "clone (us)" in out and "expert" not in out
