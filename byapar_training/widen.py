"""Widen checkpoints made for observation version 1 to version 2: they play exactly as before.

    python -m byapar_training.widen FOLDER [FOLDER ...] [--dry-run]

Observation version 2 appends the seats' habits (``byapar_env.habits``) after version 1's 641
values and changes none of them. A network whose first layer gets zero weights for the new
inputs computes, on any version 2 observation, exactly what it computed on the version 1 part:
so a version 1 policy or value network is carried over by adding those zero rows and stamping
``meta.json`` with the new version and size. A run started from a widened policy
(``byapar train --init-from``) begins where the old policy was and learns to use the habits.

The table specialists a policy's ``meta.json`` names are widened with it. Anything other than a
version 1 checkpoint of this installation's action table and board is refused (exit status 2,
no file written); folders are checked first and written only if all of them pass.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from byapar_agents.network import expected_meta, specialist_folders
from byapar_env.engine.errors import ByaparError
from byapar_env.observation import OBSERVATION_SIZE, OBSERVATION_VERSION

FROM_VERSION = 1
FROM_SIZE = 641  # version 1's observation: version 2 keeps it as its first values
FORMATS = ("byapar-policy", "byapar-value")


class WidenError(ByaparError, ValueError):
    """A folder that cannot be widened; the message says why."""


def _plan(folder: Path) -> tuple[dict, dict[str, np.ndarray]]:
    """The widened meta and weights of ``folder``, or WidenError."""
    try:
        meta = json.loads((folder / "meta.json").read_text())
        with np.load(folder / "weights.npz") as data:
            arrays = {k: data[k] for k in data.files}
    except (OSError, ValueError) as exc:
        raise WidenError(f"{folder}: not a readable checkpoint ({exc})") from exc
    if not isinstance(meta, dict) or meta.get("format") not in FORMATS:
        raise WidenError(f"{folder}: meta.json format must be one of {FORMATS}")
    if meta.get("observation_version") != FROM_VERSION or meta.get(
            "observation_size") != FROM_SIZE:
        raise WidenError(f"{folder}: only observation version {FROM_VERSION} ({FROM_SIZE} "
                         f"values) is widened, this one has version "
                         f"{meta.get('observation_version')!r}")
    want = expected_meta(meta["format"])
    for key in ("checkpoint_version", "action_version", "num_actions", "action_table_hash",
                "board_hash"):
        if meta.get(key) != want[key]:
            raise WidenError(f"{folder}: {key} is {meta.get(key)!r}, this installation has "
                             f"{want[key]!r}; only the observation is widened")
    first = arrays.get("layer0_w")
    if first is None or first.ndim != 2 or first.shape[0] != FROM_SIZE:
        raise WidenError(f"{folder}: layer0_w must be a ({FROM_SIZE}, hidden) matrix")
    extra = np.zeros((OBSERVATION_SIZE - FROM_SIZE, first.shape[1]), first.dtype)
    arrays["layer0_w"] = np.concatenate([first, extra])
    meta = dict(meta, observation_version=OBSERVATION_VERSION, observation_size=OBSERVATION_SIZE)
    meta["layers"] = [list(arrays[f"layer{i}_w"].shape) for i in range(len(meta["layers"]))]
    meta["widened_from_observation_version"] = FROM_VERSION
    return meta, arrays


def widen(folders: Sequence[Path], dry_run: bool = False) -> list[Path]:
    """Widen every folder and the specialists each names; the folders written."""
    targets: list[Path] = []
    for folder in folders:
        targets.append(folder)
        try:
            meta = json.loads((folder / "meta.json").read_text())
        except (OSError, ValueError) as exc:
            raise WidenError(f"{folder}: meta.json cannot be read ({exc})") from exc
        targets.extend(specialist_folders(folder, meta).values())
    plans = [(f, *_plan(f)) for f in targets]  # every folder checked before any is written
    if not dry_run:
        for folder, meta, arrays in plans:
            np.savez_compressed(folder / "weights.npz", **arrays)
            (folder / "meta.json").write_text(json.dumps(meta, indent=2) + "\n")
    return targets


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m byapar_training.widen",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("folders", nargs="+", type=Path, help="checkpoint folders")
    parser.add_argument("--dry-run", action="store_true", help="check only, write nothing")
    args = parser.parse_args(argv)
    try:
        done = widen(args.folders, args.dry_run)
    except (WidenError, ValueError) as exc:
        print(f"widen: {exc}", file=sys.stderr)
        return 2
    for folder in done:
        print(f"{'would widen' if args.dry_run else 'widened'} {folder}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
