"""Training, export and the learned player: the real script on a tiny budget, checkpoint
refusals, and the numpy forward pass against the torch policy."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

from byapar_agents import CheckpointError, LearnedPlayer, load_checkpoint, make_agent  # noqa: E402
from byapar_env import byapar_v0  # noqa: E402
from byapar_harness.arena import ArenaConfig, play_game  # noqa: E402
from byapar_training.export import ExportError  # noqa: E402

CLI = [sys.executable, "-m", "byapar_cli"]


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    """Run the real training script on a tiny budget, then export it."""
    root = tmp_path_factory.mktemp("train")
    run = root / "run"
    cmd = [*CLI, "train", "--run-dir", str(run),
           "--total-steps", "256", "--n-envs", "1", "--n-steps", "128", "--batch-size", "64",
           "--imitation-games", "2", "--imitation-epochs", "1", "--save-every", "128",
           "--eval-every", "256", "--eval-games", "2", "--table-sizes", "2,3"]
    subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=300)
    done = subprocess.run([*CLI, "export", str(run), "--name",
                           "tiny", "--out", str(root / "ckpt")], check=True,
                          capture_output=True, text=True, timeout=120)
    assert "wrote" in done.stdout
    return run, root / "ckpt" / "tiny"


def test_training_writes_snapshots_logs_and_evaluations(trained) -> None:
    run, _ = trained
    assert (run / "latest.zip").is_file()
    assert sorted(p.name for p in (run / "pool").iterdir())[0] == "step_000000000"
    assert (run / "progress.csv").is_file() and list(run.glob("events.out.tfevents*"))
    rows = (run / "eval.csv").read_text().splitlines()
    assert rows[0].startswith("steps,wall_seconds,episodes,vs3medium_win_rate")
    state = json.loads((run / "state.json").read_text())
    assert state["steps"] >= 256 and state["command"].startswith("byapar train")


def test_training_resumes_from_its_last_save(trained) -> None:
    run, _ = trained
    before = json.loads((run / "state.json").read_text())["steps"]
    cmd = [*CLI, "train", "--run-dir", str(run),
           "--total-steps", "384", "--n-envs", "1", "--n-steps", "128", "--batch-size", "64",
           "--imitation-games", "2", "--eval-every", "100000", "--eval-games", "2",
           "--table-sizes", "2,3"]
    done = subprocess.run(cmd, check=True, capture_output=True, text=True, timeout=300)
    assert f"resuming from {run / 'latest.zip'} at step {before:,}" in done.stdout
    assert json.loads((run / "state.json").read_text())["steps"] >= 384


def test_resuming_with_other_ppo_settings_is_refused(trained) -> None:
    run, _ = trained
    done = subprocess.run([*CLI, "train", "--run-dir", str(run),
                           "--total-steps", "384", "--n-envs", "1", "--learning-rate", "0.1"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0 and "learning_rate; a resumed run keeps" in done.stderr


def test_exported_player_loads_and_plays_a_full_game(trained) -> None:
    _, folder = trained
    meta = json.loads((folder / "meta.json").read_text())
    assert meta["training"]["steps"] >= 256 and meta["evaluation"]
    player = make_agent(str(folder))
    assert isinstance(player, LearnedPlayer)
    result = play_game(ArenaConfig(players=(str(folder), "medium", "easy")), 0)
    assert abs(sum(result.shares) - 1) < 1e-9


def test_numpy_forward_matches_the_torch_policy(trained, tmp_path) -> None:
    import torch
    from sb3_contrib import MaskablePPO

    from byapar_training.export import export

    run, _ = trained
    model = MaskablePPO.load(run / "latest.zip", device="cpu")
    policy, _ = load_checkpoint(export(run, "again", tmp_path))
    env = byapar_v0.raw_env(num_players=3)
    env.reset(seed=1)
    obs_list, masks = [], []
    rng = np.random.default_rng(0)
    for _ in range(60):
        o = env.observe(env.agent_selection)
        obs_list.append(o["observation"])
        masks.append(o["action_mask"].astype(bool))
        env.step(int(rng.choice(np.flatnonzero(o["action_mask"]))))
    obs, mask = np.array(obs_list), np.array(masks)
    with torch.no_grad():
        dist = model.policy.get_distribution(torch.as_tensor(obs), action_masks=mask)
        torch_probs = dist.distribution.probs.numpy()
    numpy_probs = np.array([policy.probabilities(o, m) for o, m in zip(obs, mask, strict=True)])
    assert np.allclose(torch_probs, numpy_probs, atol=1e-5)


def copy_checkpoint(src, dst):
    dst.mkdir()
    for name in ("weights.npz", "meta.json"):
        (dst / name).write_bytes((src / name).read_bytes())
    return dst


@pytest.mark.parametrize(("field", "value", "message"), [
    ("board_hash", "0000000000000000", "board_hash"),
    ("observation_version", 99, "observation_version"),
    ("action_table_hash", "ffff", "action_table_hash"),
    ("format", "something-else", "format"),
])
def test_mismatched_checkpoints_are_refused(trained, tmp_path, field, value, message) -> None:
    folder = copy_checkpoint(trained[1], tmp_path / "ck")
    meta = json.loads((folder / "meta.json").read_text())
    meta[field] = value
    (folder / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(CheckpointError, match=f"made for {message}"):
        make_agent(str(folder))


def test_corrupt_and_incomplete_checkpoints_are_refused(trained, tmp_path) -> None:
    folder = copy_checkpoint(trained[1], tmp_path / "ck")
    (folder / "weights.npz").write_bytes(b"not a zip file")
    with pytest.raises(CheckpointError, match="weights.npz is corrupt"):
        load_checkpoint(folder)
    (folder / "meta.json").write_text("{")
    with pytest.raises(CheckpointError, match="meta.json is not valid JSON"):
        load_checkpoint(folder)
    (folder / "meta.json").unlink()
    with pytest.raises(CheckpointError, match="has no meta.json"):
        load_checkpoint(folder)
    other = copy_checkpoint(trained[1], tmp_path / "ck2")
    meta = json.loads((other / "meta.json").read_text())
    meta["layers"][0] = [641, 128]
    (other / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(CheckpointError, match="the weights have layers"):
        load_checkpoint(other)


def test_training_can_start_from_a_shipped_checkpoint(trained, tmp_path) -> None:
    _, folder = trained
    run = tmp_path / "from_ckpt"
    subprocess.run([*CLI, "train", "--run-dir", str(run),
                    "--total-steps", "0", "--n-envs", "1", "--init-from", str(folder),
                    "--eval-games", "2", "--table-sizes", "2"], check=True, capture_output=True,
                   text=True, timeout=300)
    start, _ = load_checkpoint(run / "pool" / "step_000000000")
    shipped, _ = load_checkpoint(folder)
    for (w1, b1), (w2, b2) in zip(start.layers, shipped.layers, strict=True):
        assert np.array_equal(w1, w2) and np.array_equal(b1, b2)


def test_export_of_a_pool_snapshot(trained, tmp_path) -> None:
    from byapar_training.export import export

    run, _ = trained
    folder = export(run, "first", tmp_path, snapshot=0)
    start, _ = load_checkpoint(run / "pool" / "step_000000000")
    policy, meta = load_checkpoint(folder)
    assert meta["training"]["steps"] == 0
    assert all(np.array_equal(a[0], b[0]) for a, b in zip(start.layers, policy.layers,
                                                           strict=True))


def test_export_of_a_folder_without_a_run_fails_clearly(tmp_path) -> None:
    done = subprocess.run([*CLI, "export", str(tmp_path)],
                          capture_output=True, text=True)
    assert done.returncode == 2 and "latest.zip" in done.stderr and "latest.pt" in done.stderr


def test_a_table_specialist_plays_its_table_size_only(trained, tmp_path) -> None:
    from byapar_training.export import export

    run, shipped = trained
    folder = copy_checkpoint(shipped, tmp_path / "hard")
    done = subprocess.run([*CLI, "export", str(run), "--name",
                           "hard", "--out", str(tmp_path), "--snapshot", "0", "--table-size",
                           "2"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    meta = json.loads((folder / "meta.json").read_text())
    assert meta["table_specialists"] == {"2": "table_2"}
    player = LearnedPlayer(folder)
    start, _ = load_checkpoint(run / "pool" / "step_000000000")
    main, _ = load_checkpoint(shipped)
    assert all(np.array_equal(a[0], b[0])
               for a, b in zip(player.policy_for(2).layers, start.layers, strict=True))
    for size in (3, 4, 6):
        assert all(np.array_equal(a[0], b[0])
                   for a, b in zip(player.policy_for(size).layers, main.layers, strict=True))

    class Recorder:
        def __init__(self) -> None:
            self.calls = 0

        def act(self, observation, mask) -> int:
            self.calls += 1
            return int(np.flatnonzero(mask)[0])

    player.specialists[2] = heads_up = Recorder()
    player.policy = general = Recorder()
    for size, used in ((2, heads_up), (3, general)):
        env = byapar_v0.raw_env(num_players=size)
        env.reset(seed=0)
        player.act(env, env.agent_name_mapping[env.agent_selection])
        assert used.calls == 1
    # Exporting the main policy again refuses without force, and with it keeps the specialist.
    with pytest.raises(ExportError, match="already holds a checkpoint; .* --force"):
        export(run, "hard", tmp_path)
    export(run, "hard", tmp_path, force=True)
    assert json.loads((folder / "meta.json").read_text())["table_specialists"] == {"2": "table_2"}
    result = play_game(ArenaConfig(players=(str(folder), "medium")), 0)
    assert abs(sum(result.shares) - 1) < 1e-9


@pytest.mark.parametrize(("specialists", "message"), [
    ({"7": "table_2"}, "is not a table size"),
    ({"two": "table_2"}, "is not a table size"),
    ({"02": "table_2"}, "is not a table size"),
    ({"\u00b2": "table_2"}, "is not a table size"),
    ({"2": "C:x"}, "must name a sub-folder"),
    ({"2": "../elsewhere"}, "must name a sub-folder"),
    ({"2": "missing"}, "has no meta.json"),
    (["table_2"], "must map a table size"),
])
def test_bad_table_specialists_are_refused(trained, tmp_path, specialists, message) -> None:
    folder = copy_checkpoint(trained[1], tmp_path / "ck")
    copy_checkpoint(trained[1], folder / "table_2")
    meta = json.loads((folder / "meta.json").read_text())
    meta["table_specialists"] = specialists
    (folder / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(CheckpointError, match=message):
        LearnedPlayer(folder)


def test_a_mismatched_specialist_is_refused(trained, tmp_path) -> None:
    folder = copy_checkpoint(trained[1], tmp_path / "ck")
    sub = copy_checkpoint(trained[1], folder / "table_2")
    meta = json.loads((sub / "meta.json").read_text())
    meta["board_hash"] = "0000000000000000"
    (sub / "meta.json").write_text(json.dumps(meta))
    meta = json.loads((folder / "meta.json").read_text())
    meta["table_specialists"] = {"2": "table_2"}
    (folder / "meta.json").write_text(json.dumps(meta))
    with pytest.raises(CheckpointError, match="table_2 was made for board_hash"):
        make_agent(str(folder))


def test_specialist_export_needs_a_checkpoint_and_a_table_size(trained, tmp_path) -> None:
    run, _ = trained
    for args, message in ((["--table-size", "9"], "--table-size must be from 2 to 6"),
                          (["--table-size", "2"], "has no meta.json")):
        done = subprocess.run([*CLI, "export", str(run),
                               "--name", "nothing", "--out", str(tmp_path), *args],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 2 and message in done.stderr


def test_the_training_plot_draws_a_run_and_its_branch(tmp_path) -> None:
    from byapar_training.plot import main as plot_main

    header = ("steps,wall_seconds,episodes,vs3medium_win_rate,vs3medium_ci_low,"
              "vs3medium_ci_high,vs1medium_win_rate,vs1medium_ci_low,vs1medium_ci_high\n")
    main, branch = tmp_path / "main", tmp_path / "branch"
    main.mkdir()
    branch.mkdir()
    first = "250000,10,5,0.3,0.2,0.4,0.5,0.4,0.6\n"
    (main / "eval.csv").write_text(header + first)
    (branch / "eval.csv").write_text(header + first + "500000,20,9,0.4,0.3,0.5,0.7,0.6,0.8\n")
    out = tmp_path / "training.png"
    assert plot_main([str(main), str(out), "--branch", str(branch)]) == 0
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_exporting_the_main_policy_again_drops_a_specialist_that_no_longer_loads(
        trained, tmp_path) -> None:
    run, shipped = trained
    folder = copy_checkpoint(shipped, tmp_path / "hard")
    sub = copy_checkpoint(shipped, folder / "table_2")
    meta = json.loads((folder / "meta.json").read_text())
    meta["table_specialists"] = {"2": "table_2"}
    (folder / "meta.json").write_text(json.dumps(meta))
    LearnedPlayer(folder)  # loads while the specialist is sound
    (sub / "weights.npz").write_bytes(b"damaged")
    done = subprocess.run([*CLI, "export", str(run), "--name",
                           "hard", "--out", str(tmp_path), "--force"], capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "dropping the specialist for 2 players" in done.stderr
    assert "table_specialists" not in json.loads((folder / "meta.json").read_text())
    assert LearnedPlayer(folder).specialists == {}


def test_export_of_averaged_snapshots(trained, tmp_path) -> None:
    from byapar_training.export import export

    run, _ = trained
    steps = sorted(int(p.name[5:]) for p in (run / "pool").iterdir())[:2]
    assert len(steps) == 2
    folder = export(run, "mean", tmp_path, average=steps)
    policy, meta = load_checkpoint(folder)
    assert meta["training"]["averaged_snapshots"] == steps
    assert meta["training"]["steps"] == steps[1]
    a, b = (load_checkpoint(run / "pool" / f"step_{s:09d}")[0] for s in steps)
    for (w, bias), (wa, ba), (wb, bb) in zip(policy.layers, a.layers, b.layers, strict=True):
        assert np.allclose(w, (wa + wb) / 2) and np.allclose(bias, (ba + bb) / 2)
    for args, message in ((["--average", "0,x"], "snapshot steps separated by commas"),
                          (["--average", "0", "--snapshot", "0"], "not both"),
                          (["--average", "0,7"], "no snapshot")):
        done = subprocess.run([*CLI, "export", str(run),
                               "--name", "bad", "--out", str(tmp_path), *args],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 2 and message in done.stderr, done.stderr


def test_export_blended_with_the_starting_checkpoint(trained, tmp_path) -> None:
    from byapar_training.export import export

    run, _ = trained
    steps = sorted(int(p.name[5:]) for p in (run / "pool").iterdir())
    first, last = steps[0], steps[-1]
    start = run / "pool" / f"step_{first:09d}"
    folder = export(run, "blend", tmp_path, snapshot=last, blend_with=(str(start), 0.25))
    policy, meta = load_checkpoint(folder)
    assert meta["training"]["blended_with"] == {"checkpoint": str(start), "weight": 0.25}
    a = load_checkpoint(start)[0]
    b = load_checkpoint(run / "pool" / f"step_{last:09d}")[0]
    for (w, bias), (wa, ba), (wb, bb) in zip(policy.layers, a.layers, b.layers, strict=True):
        assert np.allclose(w, 0.25 * wa + 0.75 * wb) and np.allclose(bias, 0.25 * ba + 0.75 * bb)
    assert not np.allclose(a.layers[0][0], b.layers[0][0])  # the blend is not a no-op here
    for args, message in ((["--blend-with", "nocolon"], "expected CHECKPOINT:WEIGHT"),
                          (["--blend-with", f"{start}:1.5"], "between 0 and 1"),
                          (["--blend-with", f"{start}:x"], "expected CHECKPOINT:WEIGHT"),
                          (["--blend-with", f"{tmp_path / 'none'}:0.5"], "none")):
        done = subprocess.run([*CLI, "export", str(run),
                               "--name", "bad", "--out", str(tmp_path), *args],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 2 and message in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1 and not (tmp_path / "bad").exists()


def test_weighted_averaging_refuses_bad_weights() -> None:
    from byapar_agents.network import NumpyPolicy, average_policies

    one = NumpyPolicy([(np.ones((641, 8)), np.zeros(8)), (np.ones((8, 181)), np.zeros(181))])
    two = NumpyPolicy([(np.zeros((641, 8)), np.ones(8)), (np.zeros((8, 181)), np.ones(181))])
    mixed = average_policies([one, two], [3.0, 1.0])
    assert np.allclose(mixed.layers[0][0], 0.75) and np.allclose(mixed.layers[0][1], 0.25)
    for weights in ([1.0], [-1.0, 2.0], [0.0, 0.0]):
        with pytest.raises(CheckpointError, match="averaging weights"):
            average_policies([one, two], weights)


def test_averaging_refuses_policies_of_other_shapes() -> None:
    from byapar_agents.network import NumpyPolicy, average_policies

    small = NumpyPolicy([(np.zeros((641, 8)), np.zeros(8)), (np.zeros((8, 181)), np.zeros(181))])
    big = NumpyPolicy([(np.zeros((641, 16)), np.zeros(16)), (np.zeros((16, 181)), np.zeros(181))])
    with pytest.raises(CheckpointError, match="one shape and activation"):
        average_policies([small, big])
    with pytest.raises(CheckpointError, match="at least one policy"):
        average_policies([])
