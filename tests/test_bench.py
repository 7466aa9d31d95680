"""The benchmark scripts run (on a tiny budget) and print their figures; speed itself is
measured by running them, never asserted by a test."""

from __future__ import annotations

import re

import pytest

from bench import arena_speed, engine_speed, env_speed, panel_speed


def test_training_benchmarks_run_the_real_trainer(capsys, tmp_path) -> None:
    pytest.importorskip("sb3_contrib")
    from bench import train_profile, train_speed

    shares = train_profile.main(["--steps", "256"])
    assert 0 < shares["collect rollouts (all below)"] <= 1
    out = tmp_path / "speed.json"
    result = train_speed.main(["--steps", "256", "--envs", "4", "--n-steps", "64",
                               "--repeats", "1", "--json", str(out)])
    assert result["ratio"] > 0 and '"ratio"' in out.read_text()
    assert result["compact_steps_per_s"] > 0 and result["grouped_ratio"] > 0
    assert "learner steps/s" in capsys.readouterr().out


def test_trainer_parity_trains_both_trainers(capsys) -> None:
    pytest.importorskip("sb3_contrib")
    from bench import trainer_parity

    results = trainer_parity.main(["--steps", "256", "--games", "2", "--seeds", "0"])
    assert [r["trainer"] for r in results] == ["sb3", "compact"]
    assert all(0 <= r["end"]["win_rate"] <= 1 for r in results)
    assert "untrained ->" in capsys.readouterr().out


@pytest.mark.parametrize(("bench", "args", "lines"), [
    (engine_speed, ["--games", "2", "--repeats", "1"], ["decisions/s", "baseline ops/s"]),
    (env_speed, ["--games", "1", "--repeats", "1"],
     ["raw_env     decisions/s", "env         decisions/s", "single_seat steps/s",
      "baseline ops/s"]),
    (arena_speed, ["--games", "2", "--repeats", "1"], ["games_per_s", "baseline ops/s"]),
    (panel_speed, ["--games", "1", "--repeats", "1"],
     ["strategist", "guardian", "us per decision", "baseline ops/s"]),
])
def test_benchmarks_print_their_figures(bench, args, lines, capsys) -> None:
    bench.main(args)
    out = capsys.readouterr().out
    for line in lines:
        assert re.search(re.escape(line) + r".*\d", out), (line, out)
