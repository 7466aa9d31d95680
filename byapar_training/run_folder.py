"""The run folder both trainers write, and resume from:

    RUN/config.json      the config of the last sitting (a resumed run keeps its PPO settings)
    RUN/state.json       steps, episodes, wall time, every sitting's command, the evaluations
    RUN/latest.zip       SB3's resumable save (latest.pt: the compact trainer's)
    RUN/pool/step_N/     a numpy snapshot of the policy at each save (the opponent pool)
    RUN/eval.csv         one row per evaluation (byapar_training/evaluation.py)
    RUN/league/          league runs: each worker's scores of the members
    RUN/events.*         TensorBoard scalars (and SB3's progress.csv)

Saves are written beside and renamed into place, so a run stopped at any moment resumes from
its last save.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

from .config import PPO_FIELDS, Config, config_command, jsonable


def read_state(run_dir: str | Path) -> dict:
    """The run's state.json, or nothing for a new run."""
    path = Path(run_dir) / "state.json"
    return json.loads(path.read_text()) if path.exists() else {}


def write_state(run: Path, state: dict) -> None:
    """Write state.json beside and rename it into place."""
    (run / "state.tmp.json").write_text(json.dumps(state, indent=2))
    (run / "state.tmp.json").replace(run / "state.json")


def open_run(config: Config, last_save: str) -> tuple[Path, dict]:
    """The run folder and its state, for either trainer (``last_save``: its resumable save).
    A resumed run must keep its PPO settings; every sitting's command is kept, in order."""
    run = Path(config.run_dir)
    (run / "pool").mkdir(parents=True, exist_ok=True)
    state_path = run / "state.json"
    state = json.loads(state_path.read_text()) if state_path.exists() else {
        "wall_seconds": 0.0, "episodes": 0, "command": config_command(config)}
    # Every sitting's command, in order: a run resumed with other flags says so.
    state.setdefault("commands", [state["command"]])
    if state["commands"][-1] != config_command(config):
        state["commands"].append(config_command(config))
    saved = json.loads((run / "config.json").read_text()) if (run / "config.json").exists() \
        else None
    if saved is not None and (run / last_save).exists():
        changed = [k for k in PPO_FIELDS if saved.get(k) != jsonable(getattr(config, k))]
        if changed:
            raise SystemExit(f"byapar train: {run} was trained with other {', '.join(changed)}; "
                             "a resumed run keeps its PPO settings (start a new --run-dir)")
    (run / "config.json").write_text(json.dumps(dataclasses.asdict(config), indent=2))
    return run, state
