"""Run tracking beside TensorBoard: ``byapar train --wandb-project NAME`` also sends every
scalar the run writes to TensorBoard to Weights & Biases, at the same step.

    pip install -e '.[wandb]'      # or: pip install wandb
    byapar train --trainer compact --run-dir runs/mine --wandb-project byapar

Without the wandb package the command is refused before anything starts, in one line that
names it (``check_tracking``). The W&B run takes the run folder's name, keeps its files in the
run folder, carries the config, and has an id kept in ``state.json``: a resumed sitting goes on
in the same W&B run. Where W&B sends its data (online, offline, a server of one's own) is set
the W&B way, by ``wandb login`` or its environment variables (``WANDB_MODE=offline``...).
"""

from __future__ import annotations

import dataclasses
import secrets
from pathlib import Path

import numpy as np

from .common import require
from .config import Config

WANDB_INSTALL = "pip install -e '.[wandb]' (or pip install wandb)"


def check_tracking(config: Config) -> None:
    """``MissingPackageError`` naming wandb when ``--wandb-project`` is given without it."""
    if config.wandb_project:
        require(["wandb"], "train --wandb-project", WANDB_INSTALL)


def start_wandb(config: Config, run: Path, state: dict):
    """The W&B run of this run folder (the one its earlier sittings logged to, by the id in
    ``state``), or None without ``--wandb-project``."""
    if not config.wandb_project:
        return None
    import wandb

    run_id = state.setdefault("wandb_id", secrets.token_hex(8))
    return wandb.init(project=config.wandb_project, name=run.name, id=run_id,
                      resume="allow", dir=str(run), config=dataclasses.asdict(config))


class TrackedWriter:
    """A TensorBoard ``SummaryWriter`` whose every ``add_scalar`` also goes to a W&B run (the
    compact trainer's writer)."""

    def __init__(self, writer, wandb_run=None) -> None:
        self.writer = writer
        self.wandb_run = wandb_run

    def add_scalar(self, tag: str, value: float, step: int) -> None:
        self.writer.add_scalar(tag, value, step)
        if self.wandb_run is not None:
            self.wandb_run.log({tag: value}, step=step)

    def close(self) -> None:
        self.writer.close()
        if self.wandb_run is not None:
            self.wandb_run.finish()


def wandb_output_format(wandb_run):
    """An output format for Stable-Baselines3's logger that sends W&B what its TensorBoard
    format writes as scalars: every number not excluded from ``tensorboard`` (the SB3
    trainer's)."""
    from stable_baselines3.common.logger import KVWriter

    class WandbOutputFormat(KVWriter):
        def write(self, key_values: dict, key_excluded: dict, step: int = 0) -> None:
            scalars = {}
            for key, value in key_values.items():
                excluded = key_excluded.get(key)
                if excluded is not None and "tensorboard" in excluded:
                    continue
                # SB3's TensorBoard format: a numpy scalar type that is not text is a scalar
                if isinstance(value, np.ScalarType) and not isinstance(value, str):
                    scalars[key] = value
            if scalars:
                wandb_run.log(scalars, step=step)

        def close(self) -> None:
            pass  # the trainer finishes the W&B run itself, at the end of the sitting

    return WandbOutputFormat()
