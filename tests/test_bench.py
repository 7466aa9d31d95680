"""The benchmark scripts run (on a tiny budget) and print their figures; speed itself is
measured by running them, never asserted by a test."""

from __future__ import annotations

import re

import pytest

from bench import (
    answer_reading,
    arena_speed,
    deal_speed,
    dealing_rollout_speed,
    engine_speed,
    env_speed,
    own_offers,
    panel_speed,
)


def test_training_benchmarks_run_the_real_trainer(capsys, tmp_path) -> None:
    pytest.importorskip("sb3_contrib")
    from bench import train_profile, train_speed

    shares = train_profile.main(["--steps", "256"])
    # Both stages of PPO ran, one after the other: their shares of the run add up to at most 1.
    collect, update = shares["collect rollouts (all below)"], shares["PPO update"]
    assert collect > 0 and update > 0 and collect + update <= 1
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
    for r in results:
        # Each trainer trains exactly the budget named (no more: one default rollout is 4,096
        # decisions), and both policies, the untrained and the trained one, are measured over
        # the games named, each a share of the win of 0, 1/2 or 1 (a tie shares it).
        assert (r["start"]["policy_steps"], r["end"]["policy_steps"]) == (0, 256), r
        for side in ("start", "end"):
            assert r[side]["games"] == 2
            assert r[side]["win_rate"] in (0, 0.25, 0.5, 0.75, 1)
            low, high = r[side]["ci95"]
            assert low <= r[side]["win_rate"] <= high and high - low > 0.5  # two games say little
    out = capsys.readouterr().out
    assert "untrained ->" in out and "after 256 steps" in out


@pytest.mark.parametrize(("bench", "args", "lines"), [
    (engine_speed, ["--games", "2", "--repeats", "1"], ["decisions/s", "baseline ops/s"]),
    (env_speed, ["--games", "1", "--repeats", "1"],
     ["raw_env     decisions/s", "env         decisions/s", "single_seat steps/s",
      "baseline ops/s"]),
    (arena_speed, ["--games", "2", "--repeats", "1"], ["games_per_s", "baseline ops/s"]),
    (panel_speed, ["--games", "1", "--repeats", "1"],
     ["strategist", "guardian", "us per decision", "baseline ops/s"]),
    (deal_speed, ["--games", "1", "--repeats", "1", "--rivals", "medium"],
     ["hard against three medium: median", "x hard-guarded", "hard-guarded against"]),
    (dealing_rollout_speed, ["--seats", "3", "--rollouts", "12", "--repeats", "1"],
     ["mixed ", "dealing ", "dealing / mixed: "]),
    (own_offers, ["--games", "2"], ["offers that gain it: ", "offers that cost it: "]),
    (answer_reading, ["--games", "2"], ["medium: ", "log loss read ", "Brier read "]),
])
def test_benchmarks_print_their_figures(bench, args, lines, capsys) -> None:
    bench.main(args)
    out = capsys.readouterr().out
    for line in lines:
        assert re.search(re.escape(line) + r".*\d", out), (line, out)
