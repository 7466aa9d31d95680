"""``byapar train``: self-play training of the hard player on the single-seat view.

    byapar train --run-dir runs/hard --total-steps 3000000
    byapar train --trainer compact --run-dir runs/league --n-envs 64 --n-steps 128 ...

The job, one file each, read in this order:
1. the config, every field a command-line flag with its help and default
   (``byapar_training/config.py``), checked and fitted to the budget before anything starts
   (``byapar_training/checks.py``);
2. the opponents, at random seats, table sizes 2 to 6 and mixed table options: league
   self-play by PFSP (``--league``, ``--exploiters``; ``byapar_training/league.py``) or the original
   pool of snapshots and anchors (``byapar_training/opponents.py``);
3. a warm start: the network first learns to copy the medium player's decisions
   (``byapar_training/imitation.py``), or starts from a checkpoint's actor (``--init-from``; then
   ``--critic-warmup-steps`` lets the fresh critic learn before the actor moves;
   ``byapar_training/weights.py`` converts the weights);
4. PPO by one of two trainers: SB3's MaskablePPO (``--trainer sb3``,
``byapar_training/sb3_trainer.py``)
   or the compact one (``--trainer compact``, ``byapar_training/ppo.py``), with a snapshot into the
   pool, a save and an evaluation against medium (through the arena's code,
   ``byapar_training/evaluation.py``) every few hundred thousand steps. TensorBoard scalars
   (``charts/``, ``losses/``, ``eval/``) and ``eval.csv`` go to the run folder
   (``byapar_training/run_folder.py``);
5. running the same command again resumes from the run folder's last save. The opponents, table
   sizes and reward may change between sittings; the PPO settings may not.
"""

from __future__ import annotations

import dataclasses
import time
from pathlib import Path

from .checks import check_config, fit_to_budget
from .common import quiet_worker_processes
from .config import Config, parse_command
from .games import GAME_NAMES, trained_game
from .ppo import train as train_compact
from .run_folder import read_state
from .sb3_trainer import train_sb3


def train(config: Config) -> Path:
    """Train by the config's trainer; the run folder (a new one, or one to resume)."""
    if config.trainer == "compact":
        return train_compact(config)
    if (Path(config.run_dir) / "latest.pt").exists():
        raise SystemExit(f"byapar train: {config.run_dir} was trained by the compact trainer; "
                         "resume it with --trainer compact, or start a new --run-dir")
    return train_sb3(config)


def main(argv: list[str] | None = None) -> int:
    """``byapar train``: check every setting before anything starts, fit a small run to its
    budget, train, and say in one line what was done."""
    config, given = parse_command(argv)
    if "trainer" not in given and config.game in GAME_NAMES:
        # no --trainer: the game's own if the default does not play it (Businessman: compact)
        trainers = trained_game(config.game).trainers
        if config.trainer not in trainers:
            config = dataclasses.replace(config, trainer=trainers[0])
    check_config(config)
    config, notes = fit_to_budget(config, given)
    for note in notes:
        print(f"byapar train: {note}", flush=True)
    quiet_worker_processes()
    start, before = time.time(), read_state(config.run_dir)
    run = train(config)
    after = read_state(config.run_dir)
    steps = after.get("steps", 0) - before.get("steps", 0)
    episodes = after.get("episodes", 0) - before.get("episodes", 0)
    save = "latest.pt" if config.trainer == "compact" else "latest.zip"
    print(f"byapar train: {steps:,} steps ({after.get('steps', 0):,} in the run), {episodes:,} "
          f"episodes, {time.time() - start:,.1f} s; saved {run / save}, policy "
          f"snapshots in {run / 'pool'}, evaluations in {run / 'eval.csv'}", flush=True)
    return 0
