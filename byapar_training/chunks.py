"""The data chunks of the commands that generate games, then fit (``train-value``, ``distill``).

A run folder keeps its games in ``RUN/data/chunk_KKKK.npz``, each written whole under a
temporary name and then renamed, so a stopped run has whole chunks only and goes on from them.
The chunks whose number ends in ``HELD_OUT_DIGIT`` are held out from the fit: a tenth of the
games, whole games, so no position of a held-out game is trained on.
"""

from __future__ import annotations

import json
import math
import shlex
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict
from pathlib import Path
from typing import TypeVar

HELD_OUT_DIGIT = 9
T = TypeVar("T")


def chunk_path(run: Path, k: int) -> Path:
    return run / "data" / f"chunk_{k:04d}.npz"


def chunk_files(run: Path, held_out: bool) -> list[Path]:
    """The finished chunks of ``run``, in order: the held-out ones, or the rest."""
    return [path for path in sorted((run / "data").glob("chunk_*.npz"))
            if not path.name.endswith(".tmp.npz")
            and (int(path.stem[-1]) == HELD_OUT_DIGIT) == held_out]


def play_chunks(config, play: Callable[[tuple], tuple], describe: Callable[..., str],
                log: Callable[[str], None]) -> None:
    """Write every chunk of ``config.run_dir`` still missing, on ``config.workers`` processes
    (``config.games`` games in chunks of ``config.chunk_games``). ``play((config, k))`` writes
    chunk ``k`` whole and returns a tuple that starts with ``k``; ``describe(result, done,
    chunks, seconds)`` is its progress line. A chunk depends on its number alone, so the same
    config gives the same chunks whatever the number of workers."""
    from byapar_harness.arena import worker_pool

    run = Path(config.run_dir)
    (run / "data").mkdir(parents=True, exist_ok=True)
    chunks = math.ceil(config.games / config.chunk_games)
    todo = [(config, k) for k in range(chunks) if not chunk_path(run, k).exists()]
    done = chunks - len(todo)
    if not todo:
        log(f"games: all {chunks} chunks are there")
        return
    start = time.time()
    pool = worker_pool(min(config.workers, len(todo))) if config.workers > 1 else None
    results = pool.imap_unordered(play, todo) if pool else map(play, todo)
    try:
        for result in results:
            done += 1
            log(describe(result, done, chunks, time.time() - start))
    finally:
        if pool is not None:
            pool.terminate()


def train_and_held_out(run: Path, load: Callable[[list[Path]], T],
                       error: type[ValueError], also: Sequence[Path] = ()) -> tuple[T, T]:
    """``load`` of the training chunks and of the held-out ones, of ``run`` and of the run
    folders ``also`` (earlier runs whose games are kept); ``error`` if either is empty."""
    runs = [run, *also]
    train = load([path for r in runs for path in chunk_files(r, False)])
    held = load([path for r in runs for path in chunk_files(r, True)])
    if not train or not held:
        raise error(f"{run}/data has too few chunks to train and hold out games: generate at "
                    f"least {HELD_OUT_DIGIT + 1} chunks first")
    return train, held


def run_stages(config, stage: str, command: list[str], generate: Callable[..., None],
               fit: Callable[..., dict]) -> None:
    """The stages of such a command (``stage``: all, games or fit) in its run folder, with the
    config in ``config.json`` and the fit's figures in ``fit.json``."""
    run = Path(config.run_dir)
    run.mkdir(parents=True, exist_ok=True)
    (run / "config.json").write_text(json.dumps(asdict(config), indent=2) + "\n")
    if stage in ("all", "games"):
        generate(config)
    if stage in ("all", "fit"):
        result = fit(config, command=shlex.join(command))
        (run / "fit.json").write_text(json.dumps(result, indent=2) + "\n")
