"""Export a training run as a shipped player: ``byapar export RUN --name hard``.

Writes ``OUT/<name>/`` (``--out``, by default ``checkpoints`` in the current folder):
``weights.npz`` (the policy as numpy layers) and ``meta.json``
(observation and action versions, board hash, the training command, steps, games, wall time and
the run's evaluations). ``--snapshot STEP`` exports one pool snapshot instead of the last save;
``--average STEP,STEP,...`` the mean of the weights of several (snapshot weight averaging). With
``--table-size N`` the run is exported as that checkpoint's
specialist for tables of N players instead: into ``byapar_checkpoints/<name>/table_N/``, named in
the
checkpoint's ``meta.json`` (``table_specialists``). ``--blend-with CHECKPOINT:W`` writes W times
that checkpoint's policy plus 1 - W times the exported one: a fine-tune blended in weight space
with the policy it started from, which keeps more of the start's robustness than the fine-tune
alone (WiSE-FT, Wortsman et al., 2022). Exporting the main policy again keeps the
specialists already there. An existing checkpoint is never overwritten without ``--force``.
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from byapar_env.engine.errors import ByaparError
from byapar_env.engine.rules import MAX_PLAYERS, MIN_PLAYERS

from .common import TRAIN_INSTALL, ArgumentParser, require
from .games import BYAPAR, trained_game


class ExportError(ByaparError, ValueError):
    """An export that cannot be done as asked: one that would overwrite a checkpoint without
    ``force``, or contradictory or out-of-range options."""


def export(run_dir: str | Path, name: str, out_dir: str | Path = "byapar_checkpoints",
           snapshot: int | None = None, table_size: int | None = None,
           average: Sequence[int] | None = None, force: bool = False,
           blend_with: tuple[str, float] | None = None) -> Path:
    """Export the run's last save, or with ``snapshot`` the pool snapshot of that step, or with
    ``average`` the mean of the weights of those pool snapshots; with ``table_size``, as the
    specialist of checkpoint ``name`` for tables of that size. An existing checkpoint (or
    specialist) is overwritten only with ``force``."""
    from byapar_agents.network import average_policies, load_checkpoint, specialist_folders

    if snapshot is not None and average:
        raise ExportError("give --snapshot or --average, not both")
    blend_policy = None
    if blend_with is not None:
        blend_folder, blend_weight = blend_with
        if not 0.0 < blend_weight < 1.0:
            raise ExportError(f"--blend-with: the weight must be between 0 and 1 (both "
                              f"excluded), got {blend_weight:g}")
        blend_policy = None  # read below, in the run's format, before anything is written

    run = Path(run_dir)
    # The run's game (byapar train --game) decides the checkpoint format of its policies.
    run_config = (json.loads((run / "config.json").read_text())
                  if (run / "config.json").exists() else {})
    fmt = trained_game(run_config.get("game", BYAPAR)).policy_format
    if blend_with is not None:
        blend_policy = load_checkpoint(blend_with[0], fmt)[0]
    parent = Path(out_dir) / name
    if table_size is not None:
        if not MIN_PLAYERS <= table_size <= MAX_PLAYERS:
            raise ExportError(f"--table-size must be from {MIN_PLAYERS} to {MAX_PLAYERS}, "
                              f"got {table_size}")
        _, parent_meta = load_checkpoint(parent, fmt)  # the main policy must be there already
        specialist_folders(parent, parent_meta)  # and its list of specialists readable
    latest = run / "latest.zip"
    if not latest.is_file() and not (run / "latest.pt").is_file():
        raise FileNotFoundError(f"no {latest} or {run / 'latest.pt'}: a run folder of byapar "
                                "train holds one of them")
    if snapshot is None and not average and not latest.is_file():
        # The compact trainer snapshots its actor into the pool at every save.
        snapshot = int(json.loads((run / "state.json").read_text())["steps"])
    target = parent / f"table_{table_size}" if table_size is not None else parent
    if (target / "meta.json").exists() and not force:
        shipped = " (a checkpoint this package ships)" if _is_shipped(target) else ""
        raise ExportError(f"{target} already holds a checkpoint{shipped}; name another --out "
                          "or --name, or pass --force to overwrite it")
    if average:
        policies = []
        for step in average:
            folder = run / "pool" / f"step_{step:09d}"
            if not folder.is_dir():
                raise FileNotFoundError(f"no snapshot {folder}")
            policies.append(load_checkpoint(folder, fmt)[0])
        policy, steps = average_policies(policies), max(average)
    elif snapshot is None:
        from sb3_contrib import MaskablePPO

        from .weights import numpy_policy

        model = MaskablePPO.load(latest, device="cpu")
        policy, steps = numpy_policy(model), int(model.num_timesteps)
    else:
        folder = run / "pool" / f"step_{snapshot:09d}"
        if not folder.is_dir():
            raise FileNotFoundError(f"no snapshot {folder}")
        policy, steps = load_checkpoint(folder, fmt)[0], snapshot
    if blend_policy is not None:
        policy = average_policies([blend_policy, policy], [blend_weight, 1.0 - blend_weight])
    state = json.loads((run / "state.json").read_text()) if (run / "state.json").exists() else {}
    config = json.loads((run / "config.json").read_text()) if (run / "config.json").exists() \
        else {}
    evals = []
    if (run / "eval.csv").exists():
        with (run / "eval.csv").open() as f:
            evals = [{k: float(v) for k, v in row.items()} for row in csv.DictReader(f)]
    at = next((r for r in evals if int(r["steps"]) == steps), {})
    if table_size is not None:
        folder = parent / f"table_{table_size}"
        label = f"{name} at tables of {table_size}"
    else:
        folder, label = parent, name
        kept = _loadable_specialists(parent)
    policy.save(folder, {
        "name": label,
        "training": {"command": state.get("command", ""),
                     "commands": state.get("commands", [state.get("command", "")]),
                     "config": config,
                     "steps": steps, "games_in_run": state.get("episodes"),
                     "averaged_snapshots": sorted(average) if average else None,
                     "blended_with": ({"checkpoint": str(blend_with[0]),
                                       "weight": blend_with[1]} if blend_with else None),
                     "wall_seconds": at.get("wall_seconds", state.get("wall_seconds")),
                     "games": at.get("episodes", state.get("episodes")),
                     "imitation_agreement": state.get("imitation_agreement"),
                     "imitation_seconds": state.get("imitation_seconds")},
        "evaluation": evals,
    }, fmt)
    if table_size is not None:
        parent_meta.setdefault("table_specialists", {})[str(table_size)] = folder.name
        (parent / "meta.json").write_text(json.dumps(parent_meta, indent=2) + "\n")
    elif kept:
        meta = json.loads((folder / "meta.json").read_text())
        meta["table_specialists"] = kept
        (folder / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")
    specialist_folders(parent, json.loads((parent / "meta.json").read_text()))
    return folder


def _is_shipped(folder: Path) -> bool:
    from byapar_checkpoints import HERE

    try:
        folder.resolve().relative_to(HERE)
    except ValueError:
        return False
    return True


def _loadable_specialists(parent: Path) -> dict[str, str]:
    """The specialists of an existing checkpoint that still load here (exporting the main policy
    again keeps them); one that no longer loads is dropped, with a line saying why."""
    from byapar_agents.network import CheckpointError, load_checkpoint, specialist_folders

    old = parent / "meta.json"
    if not old.is_file():
        return {}
    try:
        meta = json.loads(old.read_text())
        folders = specialist_folders(parent, meta if isinstance(meta, dict) else {})
    except (ValueError, CheckpointError) as exc:
        print(f"byapar export: not keeping the specialists of {old}: {exc}", file=sys.stderr)
        return {}
    kept = {}
    for size, folder in folders.items():
        try:
            load_checkpoint(folder)
        except CheckpointError as exc:
            print(f"byapar export: dropping the specialist for {size} players: {exc}",
                  file=sys.stderr)
            continue
        kept[str(size)] = folder.name
    return kept


def _steps(text: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected snapshot steps separated by commas (e.g. 250000,500000), got {text!r}"
        ) from None


def _blend(text: str) -> tuple[str, float]:
    folder, sep, weight = text.rpartition(":")
    try:
        if not sep or not folder:
            raise ValueError
        return folder, float(weight)
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected CHECKPOINT:WEIGHT (e.g. byapar_checkpoints/hard:0.7), "
            f"got {text!r}") from None


def build_parser() -> argparse.ArgumentParser:
    ap = ArgumentParser(prog="byapar export", description=__doc__.splitlines()[0])
    ap.add_argument("run", help="the run folder of byapar train")
    ap.add_argument("--name", default=None,
                    help="the checkpoint's folder name under --out (default: the run folder's "
                         "name; a shipped checkpoint such as hard only with --force)")
    ap.add_argument("--out", default="byapar_checkpoints",
                    help="the folder the checkpoint folder is written into")
    ap.add_argument("--force", action="store_true",
                    help="overwrite an existing checkpoint (a shipped one included)")
    ap.add_argument("--snapshot", type=int, default=None, metavar="STEP",
                    help="export the pool snapshot of this step (default: the run's last save)")
    ap.add_argument("--table-size", type=int, default=None, metavar="N",
                    help="export as the checkpoint's specialist for tables of N players "
                         "(default: as the main policy)")
    ap.add_argument("--average", type=_steps, default=None, metavar="STEP,STEP,...",
                    help="export the mean of the weights of these pool snapshots (default: "
                         "one policy, no averaging)")
    ap.add_argument("--blend-with", type=_blend, default=None, metavar="CHECKPOINT:WEIGHT",
                    help="write WEIGHT times this checkpoint's policy plus 1 - WEIGHT times the "
                         "exported one (weight-space blend with the fine-tune's start; "
                         "default: none)")
    return ap


def main(argv: list[str] | None = None) -> int:
    """Errors reach ``byapar``'s main, which reports each in one line."""
    args = build_parser().parse_args(argv)
    if args.snapshot is None and not args.average and (Path(args.run) / "latest.zip").exists():
        # The last save is an SB3 model: reading it needs torch and sb3-contrib (a pool
        # snapshot or an average of them needs numpy alone).
        require(["torch", "sb3_contrib"], "export", TRAIN_INSTALL)
    name = args.name if args.name is not None else Path(args.run).resolve().name
    folder = export(args.run, name, args.out, args.snapshot, args.table_size,
                    args.average, args.force, args.blend_with)
    print(f"wrote {folder}")
    return 0

