"""The arena's games as Ray tasks, on a local Ray instance or on a cluster (``--backend ray``).

    byapar arena --players medium,medium,medium,medium --games 4000 --backend ray --workers 2
    byapar arena --players medium,medium,medium,medium --games 40000 --backend ray \\
                 --address auto                     (on the head of a cluster: docs/ray.md)

The games are cut into the same chunks as the local backend's (``arena.run_games``, which hands
them here with its function that plays one chunk) and each chunk is one Ray task. A local Ray
instance gets ``--workers`` CPUs; on a cluster, the cluster's CPUs decide how many chunks run at
once (``--workers`` then only sizes the chunks of a small run).
A game's result depends only on the run's seed and its number, never on where or when it is
played, so the results are the same as the local backend's, in the same order.

Ray is an optional extra (``pip install -e '.[ray]'``); this module imports it only when
called, so ``import byapar_harness.arena_ray`` works without it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from .arena_errors import ArenaError

RAY_INSTALL = "pip install -e '.[ray]'"
# How long one wait for finished chunks lasts: long enough that a run of many thousands of
# chunks does not spin on ray.wait, short enough that the progress bar moves.
_WAIT_S = 0.5


class RayBackendError(ArenaError):
    """Ray cannot do the work as asked: it is not installed, or no cluster answers at the
    address. Found before any game is played or any environment is stepped."""


def import_ray() -> ModuleType:
    """The ``ray`` module, or a ``RayBackendError`` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise RayBackendError(f"--backend ray needs Ray, which is not installed: {RAY_INSTALL}"
                              ) from None
    return ray


def connect(address: str | None, num_cpus: int) -> bool:
    """Join the Ray cluster at ``address`` (``auto``: the one started on this machine with ``ray
    start --head``), or without one start a local Ray instance of ``num_cpus`` CPUs. Returns
    whether this call connected, in which case the caller disconnects (``ray.shutdown()``) when
    done; a Ray already initialised by the caller's program (a test's, a notebook's) is used as
    it is and left running."""
    ray = import_ray()
    if ray.is_initialized():
        return False
    # Ray's own INFO lines ("Started a local Ray instance") would break into the progress bar.
    # A local instance lives only as long as this run, so its warnings about how a cluster is
    # secured (the token that Ray 2.59 and later make for every new instance) are noise there.
    try:
        if address:
            ray.init(address=address, logging_level=logging.WARNING)
        else:
            ray.init(num_cpus=num_cpus, include_dashboard=False, logging_level=logging.ERROR)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        detail = " ".join(str(exc).split())
        if address:
            raise RayBackendError(f"could not join the Ray cluster at --address {address}: "
                                  f"{detail}") from None
        raise RayBackendError(f"could not start a local Ray instance: {detail}") from None
    return True


def run_ranges(play: Callable[[Any], list], ranges: Sequence[Any], workers: int, total: int,
               address: str | None = None,
               progress: Callable[[int, int], None] | None = None) -> list:
    """``play(r)`` for every chunk ``r`` of ``ranges``, each as one Ray task, and every chunk's
    results in chunk order, one list. ``play`` is module-level and importable: Ray sends it by
    reference. A local Ray instance gets ``workers`` CPUs; with ``address`` the cluster's CPUs
    decide how many chunks run at once. ``progress(done, total)`` is called as chunks finish,
    in whatever order they do, ``done`` counting the results so far out of ``total``."""
    ray = import_ray()
    started = connect(address, workers)
    pending: dict = {}
    try:
        # Module-level and importable: Ray sends the function by reference, so every node needs
        # this project installed (the same version), as docs/ray.md says.
        remote = ray.remote(play)
        pending = {remote.remote(r): k for k, r in enumerate(ranges)}
        parts: list[list] = [[] for _ in ranges]
        done = 0
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=len(pending), timeout=_WAIT_S)
            for ref in ready:
                k = pending.pop(ref)
                parts[k] = ray.get(ref)
                done += len(parts[k])
            if ready and progress:
                progress(done, total)
    finally:
        if pending and not started:
            # Stopped early (Ctrl-C) on a Ray this run did not start: that Ray outlives the run,
            # so its tasks are cancelled rather than left to play games nobody reads.
            for ref in pending:
                ray.cancel(ref, force=True)
        if started:
            ray.shutdown()  # a driver's tasks end with it
    return [r for part in parts for r in part]
