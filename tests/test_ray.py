"""The Ray backend: arena games as Ray tasks give the local backend's results, the Ray vector env
steps exactly as SB3's in-process one, a tiny Ray training run completes and resumes, and
without Ray installed --backend ray is refused in one line.

One local Ray instance (2 CPUs) serves the whole module: starting one costs several seconds.
"""

from __future__ import annotations

import json
import sys

import pytest

from byapar_cli import main
from byapar_harness.arena import ArenaConfig, ArenaError, run_games, summarise, validate


@pytest.fixture(scope="module")
def ray_instance():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, logging_level="WARNING")
    yield ray
    ray.shutdown()


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


# ---------------------------------------------------------------------------- the arena
def test_ray_arena_plays_the_local_backends_games(ray_instance) -> None:
    players = ("medium", "easy", "random")
    local = ArenaConfig(players=players, games=12, workers=2)
    on_ray = ArenaConfig(players=players, games=12, workers=2, backend="ray")
    seen: list[int] = []
    a = run_games(local)
    b = run_games(on_ray, lambda done, total: seen.append(done))
    assert [r.__dict__ for r in a] == [r.__dict__ for r in b]
    assert seen[-1] == 12 and seen == sorted(seen)
    # The summaries agree on every figure but the timings and the backend itself.
    sa, sb = summarise(local, a, 1.0), summarise(on_ray, b, 2.0)
    assert sa["players"] == sb["players"]
    timings = ("games_per_s", "turns_per_s", "seconds")
    assert ({k: v for k, v in sa["run"].items() if k not in timings}
            == {k: v for k, v in sb["run"].items() if k not in timings})
    assert sb["config"]["backend"] == "ray" and sb["config"]["address"] is None
    json.dumps(sb)


def test_ray_arena_from_the_command_line(ray_instance, tmp_path, capsys) -> None:
    out = tmp_path / "r.json"
    args = ["arena", "--players", "medium,easy", "--games", "4", "--workers", "1", "--quiet",
            "--json"]
    assert run([*args, str(tmp_path / "local.json")], capsys)[0] == 0
    code, text, _ = run([*args, str(out), "--backend", "ray"], capsys)
    assert code == 0 and "win rate" in text
    local, ray_run = (json.loads(p.read_text()) for p in (tmp_path / "local.json", out))
    assert local["players"] == ray_run["players"]


@pytest.mark.parametrize(("changes", "message"), [
    ({"backend": "spark"}, "--backend must be local or ray, got 'spark'"),
    ({"address": "auto"}, "--address is where Ray runs the games: it needs --backend ray"),
    ({"backend": "ray", "address": " "}, "--address must be a Ray cluster's address"),
])
def test_bad_backend_settings_are_refused(changes, message) -> None:
    with pytest.raises(ArenaError, match=message):
        validate(ArenaConfig(players=("easy", "easy"), **changes))


def test_without_ray_the_backend_is_refused_in_one_line(capsys, monkeypatch, tmp_path) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails
    code, out, err = run(["arena", "--players", "easy,easy", "--games", "2", "--backend", "ray"],
                         capsys)
    assert code == 2 and out == ""
    assert err.strip().count("\n") == 0
    assert "byapar arena --backend ray needs ray" in err
    assert "pip install -e '.[ray]'" in err
    # The library says the same, as a typed error, to a program that calls it.
    with pytest.raises(ArenaError, match=r"pip install -e '\.\[ray\]'"):
        run_games(ArenaConfig(players=("easy", "easy"), games=2, backend="ray"))
    if "sb3_contrib" in sys.modules or _importable("sb3_contrib"):
        code, _, err = run(["train", "--run-dir", str(tmp_path / "r"), "--backend", "ray"],
                           capsys)
        assert code == 2 and err.strip().count("\n") == 0
        assert "byapar train --backend ray needs ray" in err and "-e '.[ray]'" in err
        assert not (tmp_path / "r").exists()


def _importable(name: str) -> bool:
    try:
        __import__(name)
    except ImportError:
        return False
    return True


# ---------------------------------------------------------------------------- the vector env
def test_ray_env_matches_the_in_process_env_step_for_step(ray_instance) -> None:
    pytest.importorskip("stable_baselines3")
    from test_vec_env import make, steps_like_the_in_process_env

    from byapar_training.vec_env_ray import RayGroupedVecEnv

    fns = [make(i) for i in range(5)]
    grouped = RayGroupedVecEnv(fns, workers=2)
    try:
        steps_like_the_in_process_env(grouped, fns)
        assert grouped.has_attr("sizes") and not grouped.has_attr("no_such_attribute")
    finally:
        grouped.close()
    assert grouped.closed
    grouped.close()  # a second close does nothing


def test_ray_env_refuses_more_workers_than_envs(ray_instance) -> None:
    pytest.importorskip("stable_baselines3")
    from test_vec_env import make

    from byapar_training.vec_env_ray import RayGroupedVecEnv

    with pytest.raises(ValueError, match="workers must be from 1 to the number of environments"):
        RayGroupedVecEnv([make(0)], workers=2)


# ---------------------------------------------------------------------------- training
@pytest.mark.parametrize(("flags", "message"), [
    (["--backend", "spark"], "--backend must be local or ray, got 'spark'"),
    (["--address", "auto"], "--address is where Ray runs the environments: it needs --backend"),
])
def test_bad_training_backend_settings_are_refused(flags, message, tmp_path, capsys) -> None:
    pytest.importorskip("sb3_contrib")
    code, out, err = run(["train", "--run-dir", str(tmp_path / "r"), *flags], capsys)
    assert code == 2 and message in err and err.strip().count("\n") == 0
    assert not (tmp_path / "r").exists()


def test_tiny_ray_training_run_completes_and_resumes(ray_instance, tmp_path, capsys) -> None:
    pytest.importorskip("sb3_contrib")
    run_dir = tmp_path / "run"
    common = ["train", "--run-dir", str(run_dir), "--backend", "ray", "--num-workers", "2",
              "--n-envs", "2", "--n-steps", "64", "--batch-size", "64", "--imitation-games", "0",
              "--save-every", "128", "--eval-every", "100000", "--eval-games", "1",
              "--eval-tables", "random:1", "--table-sizes", "2"]
    code, out, err = run([*common, "--total-steps", "256"], capsys)
    assert code == 0, err
    state = json.loads((run_dir / "state.json").read_text())
    assert state["steps"] == 256 and "--backend ray" in state["command"]
    config = json.loads((run_dir / "config.json").read_text())
    assert config["backend"] == "ray" and config["n_workers"] == 2
    code, out, err = run([*common, "--total-steps", "384"], capsys)
    assert code == 0, err
    assert f"resuming from {run_dir / 'latest.zip'} at step 256" in out
    assert json.loads((run_dir / "state.json").read_text())["steps"] == 384


def test_tiny_compact_training_on_ray_completes_and_resumes(ray_instance, tmp_path,
                                                            capsys) -> None:
    pytest.importorskip("torch")
    run_dir = tmp_path / "run"
    common = ["train", "--trainer", "compact", "--run-dir", str(run_dir), "--backend", "ray",
              "--num-workers", "2", "--n-envs", "4", "--n-steps", "32", "--batch-size", "64",
              "--imitation-games", "0", "--save-every", "128", "--eval-every", "100000",
              "--eval-games", "1", "--eval-tables", "random:1", "--table-sizes", "2,3",
              "--league", "medium", "--latest-share", "0.5"]
    code, out, err = run([*common, "--total-steps", "256"], capsys)
    assert code == 0, err
    assert json.loads((run_dir / "state.json").read_text())["steps"] == 256
    config = json.loads((run_dir / "config.json").read_text())
    assert (config["trainer"], config["backend"], config["n_workers"]) == ("compact", "ray", 2)
    code, out, err = run([*common, "--total-steps", "384"], capsys)
    assert code == 0, err
    assert f"resuming from {run_dir / 'latest.pt'} at step 256" in out
    assert json.loads((run_dir / "state.json").read_text())["steps"] == 384


def test_gauntlet_on_ray_matches_the_local_gauntlet(ray_instance) -> None:
    from byapar_harness.gauntlet import GauntletConfig, run_gauntlet

    local = GauntletConfig(player="medium", opponents=("easy",), sizes=(2, 3), games=6, seed=2)
    remote = GauntletConfig(player="medium", opponents=("easy",), sizes=(2, 3), games=6, seed=2,
                            backend="ray", workers=2)
    a, b = run_gauntlet(local), run_gauntlet(remote)
    for key, cell in a["cells"].items():
        other = b["cells"][key]
        assert {k: v for k, v in cell.items() if k != "seconds"} == {
            k: v for k, v in other.items() if k != "seconds"}
    assert a["worst"] == b["worst"] and a["settings"] == b["settings"]
