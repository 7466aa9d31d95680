"""League self-play's opponent choice, its scores, and the gauntlet and exploit commands."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from byapar_agents.hard import DEFAULT_CHECKPOINT  # noqa: E402
from byapar_agents.network import load_checkpoint  # noqa: E402
from byapar_harness.gauntlet import GauntletConfig, format_gauntlet, run_gauntlet  # noqa: E402
from byapar_training.league import (  # noqa: E402
    PFSP_FLOOR,
    POPULATION,
    LeaguePool,
    LeagueSeatEnv,
    league_scores,
    pfsp_weight,
)

CLI = [sys.executable, "-m", "byapar_cli"]


def test_pfsp_weights_favour_the_opponents_the_learner_does_worst_against() -> None:
    assert pfsp_weight(0.0) == pytest.approx(1 + PFSP_FLOOR)
    assert pfsp_weight(1.0) == pytest.approx(PFSP_FLOOR)
    assert pfsp_weight(0.25) > pfsp_weight(0.5) > pfsp_weight(0.75)


def snapshot_pool(tmp_path: Path) -> Path:
    """A run folder whose pool holds one snapshot (the shipped policy)."""
    run = tmp_path / "run"
    shutil.copytree(DEFAULT_CHECKPOINT, run / "pool" / "step_000001000",
                    ignore=shutil.ignore_patterns("table_*"))
    meta = json.loads((run / "pool" / "step_000001000" / "meta.json").read_text())
    meta.pop("table_specialists", None)
    (run / "pool" / "step_000001000" / "meta.json").write_text(json.dumps(meta))
    return run


def test_league_pool_draws_by_pfsp_and_keeps_the_latest_share(tmp_path) -> None:
    run = snapshot_pool(tmp_path)
    pool = LeaguePool(str(run), ("easy", "guardian"), (), latest_share=0.25, pool_window=5)
    snap = str(run / "pool" / "step_000001000")
    assert pool.members() == ["easy", "guardian", snap]
    pool.scores = {"easy": 1.0, "guardian": 0.0, snap: 0.5}
    rng = random.Random(0)
    counts = {"easy": 0, "guardian": 0, snap: 0}
    for _ in range(400):
        for player in pool(rng, 3):
            counts[player.league_key] += 1
    total = sum(counts.values())
    # Expected shares: the latest snapshot 0.25 plus its PFSP share; guardian about 0.75 * 1.02
    # / 1.31 = 0.58; easy about 0.75 * 0.02 / 1.31 = 0.01.
    assert 0.50 < counts["guardian"] / total < 0.66
    assert counts["easy"] / total < 0.03
    assert 0.34 < counts[snap] / total < 0.46
    # The snapshot is loaded once and shared; hand-written players are fresh each time.
    a, b = pool(random.Random(1), 2), pool(random.Random(1), 2)
    assert [p.league_key for p in a] == [p.league_key for p in b]


def test_the_population_member_seats_fresh_training_players_with_one_score(tmp_path) -> None:
    from byapar_agents.population import TRAINING_SEEDS, PopulationPlayer

    pool = LeaguePool(str(tmp_path), (POPULATION,), (), 0.0, 0)
    seats = pool(random.Random(3), 5, single=True)
    assert all(isinstance(p, PopulationPlayer) and p.league_key == POPULATION for p in seats)
    seeds = [p.seed for p in seats]
    assert len(set(seeds)) == 5 and all(s in TRAINING_SEEDS for s in seeds)
    assert [p.seed for p in pool(random.Random(3), 5, single=True)] == seeds  # seeded
    pool.report([POPULATION] * 2, 2.0, [1.0, 3.0])
    assert pool.games == {POPULATION: 2} and pool.members() == [POPULATION]


@pytest.mark.parametrize("flag, name", [
    ("league", "outside-monopyly-huw"), ("league", "pop-1000000"),
    ("eval_tables", "outside-chrisaacson-aggressive:3"), ("eval_tables", "pop-1000003:3")])
def test_training_refuses_the_unseen_opponents(tmp_path, flag, name) -> None:
    from byapar_training.checks import check_config
    from byapar_training.config import Config, ConfigError

    with pytest.raises(ConfigError, match="is kept unseen"):
        check_config(Config(run_dir=str(tmp_path / "run"), **{flag: name}))
    check_config(Config(run_dir=str(tmp_path / "run"),
                        league="population,outside-monopyly-sophie,pop-99999"))


def test_a_name_listed_twice_is_drawn_twice_as_often_with_one_score(tmp_path) -> None:
    pool = LeaguePool(str(tmp_path), ("easy", "medium", "medium"), (), 0.0, 0)
    counts = {"easy": 0, "medium": 0}
    rng = random.Random(2)
    for _ in range(600):
        for player in pool(rng, 1):
            counts[player.league_key] += 1
    assert 0.60 < counts["medium"] / 600 < 0.73  # 2/3 at equal scores
    pool.report(["medium"], 2.0, [1.0])
    assert set(pool.scores) == {"medium"} and pool.games == {"medium": 1}
    # A single-opponent table seats one member, drawn the same way, in every seat.
    for _ in range(20):
        keys = {p.league_key for p in pool(rng, 5, single=True)}
        assert len(keys) == 1


def test_no_snapshots_with_a_zero_window(tmp_path) -> None:
    run = snapshot_pool(tmp_path)
    pool = LeaguePool(str(run), ("easy",), (), latest_share=0.5, pool_window=0)
    assert pool.members() == ["easy"]
    assert {p.league_key for p in pool(random.Random(0), 5)} == {"easy"}


def test_scores_follow_results_and_are_written_for_inspection(tmp_path) -> None:
    pool = LeaguePool(str(tmp_path), ("easy", "medium"), (), 0.0, 5, worker=3)
    pool.report(["easy", "medium"], 20_000.0, [10_000.0, 30_000.0])
    assert pool.scores["easy"] == pytest.approx(0.5 * 0.98 + 0.02)
    assert pool.scores["medium"] == pytest.approx(0.5 * 0.98)
    pool.report(["easy"], 5.0, [5.0])  # a tie scores a half
    assert pool.games == {"easy": 2, "medium": 1}
    pool.write_report()
    merged = league_scores(tmp_path)
    assert merged["easy"]["games"] == 2 and merged["medium"]["games"] == 1
    assert (tmp_path / "league" / "worker_3.json").exists()


def test_the_seat_view_reports_each_game_to_its_pool(tmp_path) -> None:
    pool = LeaguePool(str(tmp_path), ("easy", "random"), (), 0.0, 5)
    env = LeagueSeatEnv(num_players=3, opponents=pool, tables=[{"rounds": 3}])
    env.reset(seed=4)
    rng = np.random.default_rng(0)
    episodes = 0
    while episodes < 3:
        mask = env.action_masks()
        _, _, terminated, truncated, _ = env.step(int(rng.choice(np.flatnonzero(mask))))
        if terminated or truncated:
            episodes += 1
            env.reset()
    assert sum(pool.games.values()) == 3 * 2  # two opponents a game
    env.close()
    assert (tmp_path / "league" / "worker_0.json").exists()


def test_league_training_runs_and_the_critic_warms_up_alone(tmp_path) -> None:
    """The real script on a tiny budget: a league run from the shipped checkpoint whose
    critic warm-up lasts the whole run leaves the actor exactly as the checkpoint's."""
    run = tmp_path / "league"
    cmd = [*CLI, "train", "--run-dir", str(run), "--total-steps", "1536", "--n-envs", "1",
           "--n-steps", "512", "--batch-size", "256", "--init-from", str(DEFAULT_CHECKPOINT),
           "--league", "easy,guardian,strategist", "--critic-warmup-steps", "100000",
           "--eval-games", "2", "--table-sizes", "3,4"]
    subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=300)
    snaps = sorted((run / "pool").glob("step_*"))
    assert len(snaps) >= 2
    start, _ = load_checkpoint(DEFAULT_CHECKPOINT)
    end, _ = load_checkpoint(snaps[-1])
    for (w0, b0), (w1, b1) in zip(start.layers, end.layers, strict=True):
        assert np.array_equal(w0, w1) and np.array_equal(b0, b1)
    header = (run / "eval.csv").read_text().splitlines()[0]
    assert "vs3strategist_win_rate" in header and "vs5guardian_win_rate" in header
    assert (run / "league" / "worker_0.json").exists()


def test_gauntlet_plays_every_cell_reports_the_worst_case_and_resumes(tmp_path,
                                                                      monkeypatch) -> None:
    config = GauntletConfig(player="strategist", opponents=("medium", "trader", "strategist"),
                            sizes=(2, 3), games=6, seed=1)
    path = tmp_path / "g.json"
    result = run_gauntlet(config, str(path))
    assert set(result["cells"]) == {"medium@2", "trader@2", "medium@3", "trader@3"}
    for cell in result["cells"].values():
        assert cell["games"] == 6
        assert cell["multiple"] == pytest.approx(cell["win_rate"] * cell["size"])
    for size in ("2", "3"):
        worst = result["worst"][size]
        row = [c for c in result["cells"].values() if str(c["size"]) == size]
        assert worst["multiple"] == min(c["multiple"] for c in row)
    assert json.loads(path.read_text())["cells"] == result["cells"]
    text = format_gauntlet(config, result)
    assert "worst case at 3 seats" in text and "trader" in text
    # Started again with the same settings and file, it plays nothing more.
    from byapar_harness import gauntlet

    monkeypatch.setattr(gauntlet, "run_arena", lambda *a, **k: pytest.fail("replayed a cell"))
    assert run_gauntlet(config, str(path))["cells"] == result["cells"]


def test_exploit_trains_against_frozen_copies_and_reports_multiples(tmp_path) -> None:
    run = tmp_path / "exploit"
    done = subprocess.run([*CLI, "exploit", "hard", "--steps", "128", "--run-dir", str(run),
                           "--games", "4", "--imitation-games", "2", "--table-sizes", "2,3"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    record = json.loads((run / "exploit.json").read_text())
    report = record["methods"]["ppo"]
    assert set(report["tables"]) == {"2", "3"}
    for size, row in report["tables"].items():
        assert row["multiple"] == pytest.approx(row["win_rate"] * int(size))
    worst = max(row["multiple"] for row in report["tables"].values())
    assert record["worst"] == {"method": "ppo", "multiple": worst}
    assert "x chance" in done.stdout and "worst of the methods recorded (ppo)" in done.stdout
