"""``byapar train --wandb-project`` (byapar_training/tracking.py): Weights & Biases gets the scalars
TensorBoard gets, at the same steps, from both trainers; without the wandb package the command
is refused in one line. A stand-in ``wandb`` module records what it is sent."""

from __future__ import annotations

import json
import sys
import types

import numpy as np
import pytest

pytest.importorskip("torch")
pytest.importorskip("sb3_contrib")
event_accumulator = pytest.importorskip(
    "tensorboard.backend.event_processing.event_accumulator")

from byapar_cli import command as cli  # noqa: E402
from byapar_training.selfplay import main as train_main  # noqa: E402


class FakeRun:
    def __init__(self, calls: dict) -> None:
        self.calls = calls

    def log(self, data: dict, step: int) -> None:
        for tag, value in data.items():
            self.calls["scalars"].setdefault(tag, []).append((step, float(value)))

    def finish(self) -> None:
        self.calls["finished"] += 1


@pytest.fixture()
def fake_wandb(monkeypatch):
    calls: dict = {"init": [], "scalars": {}, "finished": 0}
    module = types.ModuleType("wandb")

    def init(**kwargs):
        calls["init"].append(kwargs)
        return FakeRun(calls)

    module.init = init
    monkeypatch.setitem(sys.modules, "wandb", module)
    return calls


def tensorboard_scalars(run) -> dict[str, list[tuple[int, float]]]:
    events = event_accumulator.EventAccumulator(str(run), size_guidance={"scalars": 0})
    events.Reload()
    return {tag: [(e.step, e.value) for e in events.Scalars(tag)]
            for tag in events.Tags()["scalars"]}


def as_float32(scalars: dict) -> dict:
    """TensorBoard keeps a scalar as a 32-bit float."""
    return {tag: [(step, float(np.float32(v))) for step, v in rows]
            for tag, rows in scalars.items()}


COMPACT = ["--trainer", "compact", "--total-steps", "512", "--n-envs", "4", "--n-steps", "64",
           "--batch-size", "128", "--n-workers", "1", "--init-from", "byapar_checkpoints/hard",
           "--league", "medium,strategist", "--save-every", "256", "--eval-every", "256",
           "--eval-games", "2", "--eval-tables", "medium:1", "--table-sizes", "2,3"]
SB3 = ["--total-steps", "256", "--n-envs", "1", "--n-steps", "128", "--batch-size", "64",
       "--imitation-games", "2", "--imitation-epochs", "1", "--save-every", "128",
       "--eval-every", "256", "--eval-games", "2", "--table-sizes", "2,3"]


@pytest.mark.parametrize("flags, tags", [
    (COMPACT, {"losses/value_loss", "charts/steps_per_second", "eval/vs1medium_win_rate"}),
    (SB3, {"imitation/agreement", "train/value_loss", "charts/episodes",
           "eval/vs3medium_win_rate"}),
], ids=["compact", "sb3"])
def test_wandb_gets_the_scalars_tensorboard_gets(tmp_path, fake_wandb, flags, tags) -> None:
    run = tmp_path / "mine"
    assert train_main(["--run-dir", str(run), "--wandb-project", "byapar-tests", *flags]) == 0
    board = tensorboard_scalars(run)
    assert tags <= set(board)
    assert as_float32(fake_wandb["scalars"]) == board
    (init,) = fake_wandb["init"]
    state = json.loads((run / "state.json").read_text())
    assert init["project"] == "byapar-tests" and init["name"] == "mine"
    assert init["id"] == state["wandb_id"] and init["resume"] == "allow"
    assert init["dir"] == str(run) and init["config"]["wandb_project"] == "byapar-tests"
    assert fake_wandb["finished"] == 1


def test_a_resumed_run_goes_on_in_the_same_wandb_run(tmp_path, fake_wandb) -> None:
    run = tmp_path / "mine"
    flags = list(COMPACT)
    assert train_main(["--run-dir", str(run), "--wandb-project", "p", *flags]) == 0
    flags[flags.index("--total-steps") + 1] = "768"
    assert train_main(["--run-dir", str(run), "--wandb-project", "p", *flags]) == 0
    first, second = fake_wandb["init"]
    assert first["id"] == second["id"]
    assert min(step for rows in fake_wandb["scalars"].values() for step, _ in rows) == 256
    assert as_float32(fake_wandb["scalars"]) == tensorboard_scalars(run)


def test_without_wandb_the_option_is_refused_in_one_line(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "wandb", None)  # import wandb fails, as when not installed
    run = tmp_path / "r"
    code = cli.main(["train", "--run-dir", str(run), "--wandb-project", "p", *COMPACT])
    err = capsys.readouterr().err
    assert code == 2
    assert err == ("byapar train: byapar train --wandb-project needs wandb, which is not "
                   "installed: pip install -e '.[wandb]' (or pip install wandb)\n")
    assert not run.exists()
