"""Re-stamp checkpoints made before every rule figure joined the board hash.

    python -m byapar_training.restamp FOLDER [FOLDER ...] [--dry-run]

A checkpoint's ``meta.json`` names the board it was trained on (``board_hash``), and
``byapar_agents.network.load_checkpoint`` refuses one made for another board. When the figures of
the rules (three doubles to jail, half prices, the round cap, the default options, ...) moved into
``byapar_env.engine.board.FIGURES`` and under the hash, the hash changed although no number
did: a policy trained before plays exactly as it did, but is refused. This tool rewrites
``board_hash`` from that one previous value to the current one, in each folder named and in the
table specialists its ``meta.json`` names (``table_specialists``), and changes nothing else.

It migrates one step only, and refuses anything else (exit status 2, no file written):

- a folder whose ``meta.json`` differs from this installation in anything else that
  ``load_checkpoint`` checks (format, checkpoint, observation and action versions, sizes, the
  action table hash): only the board hash may be restamped;
- a board hash other than ``PREVIOUS_BOARD_HASH`` (one already current is left as it is);
- every folder, when this installation's board is not the one the migration leads to
  (``RESTAMPED_BOARD_HASH``): after a real change of a figure, old checkpoints must be retrained,
  not relabelled.

Folders are checked first and written only if all of them pass.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path

from byapar_env.engine import board
from byapar_env.engine.errors import ByaparError

# The board hash of every checkpoint made before the rule figures joined the hash: the squares,
# the cards and the money figures the old ``board_hash()`` covered. ``legacy_board_hash()``
# recomputes it from this installation's data, so it is only accepted while those figures are
# still the ones it was made from. This is the only value this tool restamps: it cannot relabel
# a checkpoint made for any other board.
PREVIOUS_BOARD_HASH = "2981d7036e29f770"
# The hash the migration leads to: the same figures, all of them covered. Restamping is refused
# once the installation's hash is anything else (a figure really changed).
RESTAMPED_BOARD_HASH = "4f57ea04e8b23371"


class RestampError(ByaparError, ValueError):
    """A folder that may not be restamped; the message says why."""


def legacy_board_hash() -> str:
    """The board hash as computed before the rule figures joined it, from this installation's
    data (squares, cards and the seven money figures it covered then)."""
    f = board.FIGURES
    data = {
        "squares": [asdict(s) for s in board.SQUARES],
        "cards": {d: [asdict(c) for c in cs] for d, cs in board.CARDS.items()},
        "money": [f.salary, f.jail_fine, f.transport_rent, f.utility_multiplier, f.bid_step,
                  f.mortgage_interest_percent, f.jail_max_misses],
    }
    return hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:16]


def check_installation() -> None:
    """Refuse to run unless this installation is exactly the migration's: the old hash formula
    still gives ``PREVIOUS_BOARD_HASH`` and the new one ``RESTAMPED_BOARD_HASH``."""
    if legacy_board_hash() != PREVIOUS_BOARD_HASH or board.BOARD_HASH != RESTAMPED_BOARD_HASH:
        raise RestampError(
            f"this installation's board (hash {board.BOARD_HASH}, previously computed as "
            f"{legacy_board_hash()}) is not the one this tool migrates ({PREVIOUS_BOARD_HASH} "
            f"to {RESTAMPED_BOARD_HASH}): a figure has changed, so old checkpoints must be "
            "retrained or exported again, not restamped")


def _read_meta(folder: Path) -> dict:
    path = folder / "meta.json"
    if not path.is_file():
        raise RestampError(f"{folder}: no meta.json (a checkpoint folder holds weights.npz and "
                           "meta.json)")
    try:
        meta = json.loads(path.read_text())
    except (OSError, ValueError) as exc:
        raise RestampError(f"{folder}: meta.json is not valid JSON: {exc}") from exc
    if not isinstance(meta, dict):
        raise RestampError(f"{folder}: meta.json must hold an object")
    return meta


def plan(folder: str | Path) -> list[tuple[Path, dict]]:
    """The ``meta.json`` files to rewrite for ``folder`` and its table specialists, each with
    its new content; RestampError if any of them may not be restamped."""
    from byapar_agents.network import CheckpointError, expected_meta, specialist_folders

    folder = Path(folder)
    meta = _read_meta(folder)
    try:
        subs = list(specialist_folders(folder, meta).values())
    except CheckpointError as exc:
        raise RestampError(str(exc)) from exc
    out = []
    for where, data in [(folder, meta)] + [(sub, _read_meta(sub)) for sub in subs]:
        for key, want in expected_meta().items():
            if key != "board_hash" and data.get(key) != want:
                raise RestampError(
                    f"{where}: meta.json has {key} = {data.get(key)!r}, this installation "
                    f"{want!r}; only the board hash may be restamped, so this checkpoint must "
                    "be retrained or exported again")
        got = data.get("board_hash")
        if got == board.BOARD_HASH:
            continue  # already current
        if got != PREVIOUS_BOARD_HASH:
            raise RestampError(
                f"{where}: meta.json has board_hash = {got!r}; only checkpoints of the previous "
                f"board hash {PREVIOUS_BOARD_HASH} (the same figures) can be restamped to "
                f"{board.BOARD_HASH}")
        out.append((where / "meta.json", {**data, "board_hash": board.BOARD_HASH}))
    return out


def restamp(folders: Sequence[str | Path], dry_run: bool = False) -> list[Path]:
    """Restamp every folder (and its specialists) or none: all are checked before any is
    written. Returns the meta.json files rewritten (or that would be, with ``dry_run``)."""
    check_installation()
    writes = [w for folder in folders for w in plan(folder)]
    if not dry_run:
        for path, meta in writes:
            # The format NumpyPolicy.save writes; a temporary file and a rename, so that an
            # interrupted run never leaves half a meta.json.
            tmp = path.with_name(path.name + ".restamp")
            tmp.write_text(json.dumps(meta, indent=2) + "\n")
            os.replace(tmp, path)
    return [path for path, _ in writes]


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        prog="python -m byapar_training.restamp",
        description=f"Rewrite board_hash {PREVIOUS_BOARD_HASH} -> {RESTAMPED_BOARD_HASH} in "
                    "checkpoint folders made before the rule figures joined the board hash.")
    ap.add_argument("folders", nargs="+", metavar="FOLDER", help="checkpoint folders")
    ap.add_argument("--dry-run", action="store_true", help="check and report, write nothing")
    args = ap.parse_args(argv)
    try:
        done = restamp(args.folders, dry_run=args.dry_run)
    except RestampError as exc:
        print(f"restamp: {exc}; nothing was written", file=sys.stderr)
        return 2
    verb = "would restamp" if args.dry_run else "restamped"
    for path in done:
        print(f"{verb} {path}")
    if not done:
        print("every checkpoint named already has the current board hash")
    return 0


if __name__ == "__main__":
    sys.exit(main())
