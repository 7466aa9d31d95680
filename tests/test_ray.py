"""The Ray backend: arena games as Ray tasks give the local backend's results, the Ray vector env
steps exactly as SB3's in-process one, a tiny Ray training run completes and resumes, and
without Ray installed --backend ray is refused in one line.

One local Ray instance (2 CPUs) serves the whole module: starting one costs several seconds.
"""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest
from byapar_agents.arena import ArenaConfig, ArenaError, run_games, summarise, validate
from byapar_training.cli import main

from byapar_env.players import RandomPlayer
from byapar_env.single_seat import SingleSeatEnv


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
    assert "pip install 'byapar-env[ray]'" in err
    # The library says the same, as a typed error, to a program that calls it.
    with pytest.raises(ArenaError, match=r"pip install 'byapar-env\[ray\]'"):
        run_games(ArenaConfig(players=("easy", "easy"), games=2, backend="ray"))
    if "sb3_contrib" in sys.modules or _importable("sb3_contrib"):
        code, _, err = run(["train", "--run-dir", str(tmp_path / "r"), "--backend", "ray"],
                           capsys)
        assert code == 2 and err.strip().count("\n") == 0
        assert "byapar train --backend ray needs ray" in err and "byapar-env[ray]" in err
        assert not (tmp_path / "r").exists()


def _importable(name: str) -> bool:
    try:
        __import__(name)
    except ImportError:
        return False
    return True


# ---------------------------------------------------------------------------- the vector env
def make(i: int):
    def thunk() -> SingleSeatEnv:
        return SingleSeatEnv(num_players=(2, 3), opponents=RandomPlayer(i),
                             tables=[{"rounds": 2}])
    return thunk


def test_ray_env_matches_the_in_process_env_step_for_step(ray_instance) -> None:
    pytest.importorskip("stable_baselines3")
    from byapar_training.vec_env_ray import RayGroupedVecEnv
    from stable_baselines3.common.vec_env import DummyVecEnv

    fns = [make(i) for i in range(5)]
    ref, grouped = DummyVecEnv(fns), RayGroupedVecEnv(fns, workers=2)
    try:
        assert grouped.num_envs == 5 and grouped.groups == [[0, 2, 4], [1, 3]]
        for venv in (ref, grouped):
            venv.seed(11)
        obs_a, obs_b = ref.reset(), grouped.reset()
        rng = np.random.default_rng(0)
        dones_seen = 0
        for _ in range(300):
            np.testing.assert_array_equal(obs_a, obs_b)
            masks_a = np.stack(ref.env_method("action_masks"))
            masks_b = np.stack(grouped.env_method("action_masks"))
            np.testing.assert_array_equal(masks_a, masks_b)
            actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks_a])
            obs_a, rew_a, done_a, info_a = ref.step(actions)
            obs_b, rew_b, done_b, info_b = grouped.step(actions)
            np.testing.assert_array_equal(rew_a, rew_b)
            np.testing.assert_array_equal(done_a, done_b)
            for a, b in zip(info_a, info_b, strict=True):
                if "terminal_observation" in a:
                    np.testing.assert_array_equal(a["terminal_observation"],
                                                  b["terminal_observation"])
            dones_seen += int(done_a.sum())
        assert dones_seen > 5  # games of two rounds: several ended and were reset
        # Attributes and methods by index, and a missing attribute raises in the caller.
        assert grouped.get_attr("sizes", indices=[3]) == [[2, 3]]
        grouped.set_attr("sizes", [3], indices=[1, 2])
        assert grouped.get_attr("sizes") == [[2, 3], [3], [3], [2, 3], [2, 3]]
        masks = grouped.env_method("action_masks", indices=[1, 4])
        np.testing.assert_array_equal(np.stack(masks),
                                      np.stack(ref.env_method("action_masks", indices=[1, 4])))
        with pytest.raises(AttributeError):
            grouped.get_attr("no_such_attribute")
        assert grouped.has_attr("sizes") and not grouped.has_attr("no_such_attribute")
    finally:
        ref.close()
        grouped.close()
    assert grouped.closed
    grouped.close()  # a second close does nothing


def test_ray_env_refuses_more_workers_than_envs(ray_instance) -> None:
    pytest.importorskip("stable_baselines3")
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
