"""Export a training run as a shipped player: ``byapar export RUN --name hard``.

Writes ``checkpoints/<name>/``: ``weights.npz`` (the policy as numpy layers) and ``meta.json``
(observation and action versions, board hash, the training command, steps, games, wall time and
the run's evaluations).
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def export(run_dir: str | Path, name: str, out_dir: str | Path = ROOT / "checkpoints",
           snapshot: int | None = None) -> Path:
    """Export the run's last save, or with ``snapshot`` the pool snapshot of that step."""
    run = Path(run_dir)
    latest = run / "latest.zip"
    if not latest.is_file():
        raise FileNotFoundError(f"no {latest}: a run folder of byapar train holds latest.zip")
    if snapshot is None:
        from sb3_contrib import MaskablePPO

        from .selfplay import numpy_policy

        model = MaskablePPO.load(latest, device="cpu")
        policy, steps = numpy_policy(model), int(model.num_timesteps)
    else:
        from agents.network import load_checkpoint

        folder = run / "pool" / f"step_{snapshot:09d}"
        if not folder.is_dir():
            raise FileNotFoundError(f"no snapshot {folder}")
        policy, steps = load_checkpoint(folder)[0], snapshot
    state = json.loads((run / "state.json").read_text()) if (run / "state.json").exists() else {}
    config = json.loads((run / "config.json").read_text()) if (run / "config.json").exists() \
        else {}
    evals = []
    if (run / "eval.csv").exists():
        with (run / "eval.csv").open() as f:
            evals = [{k: float(v) for k, v in row.items()} for row in csv.DictReader(f)]
    at = next((r for r in evals if int(r["steps"]) == steps), {})
    folder = Path(out_dir) / name
    policy.save(folder, {
        "name": name,
        "training": {"command": state.get("command", ""),
                     "commands": state.get("commands", [state.get("command", "")]),
                     "config": config,
                     "steps": steps, "games_in_run": state.get("episodes"),
                     "wall_seconds": at.get("wall_seconds", state.get("wall_seconds")),
                     "games": at.get("episodes", state.get("episodes")),
                     "imitation_agreement": state.get("imitation_agreement"),
                     "imitation_seconds": state.get("imitation_seconds")},
        "evaluation": evals,
    })
    return folder


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="byapar export", description=__doc__.splitlines()[0])
    ap.add_argument("run", help="the run folder of byapar train")
    ap.add_argument("--name", default="hard")
    ap.add_argument("--out", default=str(ROOT / "checkpoints"))
    ap.add_argument("--snapshot", type=int, help="export the pool snapshot of this step")
    args = ap.parse_args(argv)
    try:
        folder = export(args.run, args.name, args.out, args.snapshot)
    except FileNotFoundError as exc:
        print(f"byapar export: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
