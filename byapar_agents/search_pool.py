"""The expert's simulations on several processes: the scores one process gives, sooner.

A decision's simulations are rounds: in round ``k`` every candidate is played on from the root
with round ``k``'s seed (common random numbers, ``byapar_agents.search``). ``RoundPool.play`` deals
the
rounds out to worker processes (round ``k`` to worker ``k mod workers``); a worker plays its
rounds exactly as ``Rollouts`` plays them in one process (the same root, seeds and players, its
networks loaded from the same checkpoint folder), and the scores come back in round order. With
a simulation count they are the same numbers for any worker count
(``tests/test_search_pool.py``). Under a deadline each worker stops there and drops the round
it was playing, as one process does, so the rounds kept are paired.

The pools are made on first use, one per worker count, and live as long as the process (spawned
workers: safe beside a server's threads). Each worker loads its networks once.
"""

from __future__ import annotations

import atexit
import multiprocessing
import time
from dataclasses import dataclass
from pathlib import Path

from byapar_env.engine import Action, Game

from .hard import LearnedPlayer
from .search import Rollouts
from .value import value_at

MAX_WORKERS = 16


@dataclass(frozen=True)
class RoundSpec:
    """Everything a worker needs to play a decision's rounds as the searching process would."""

    root: Game  # the game every rollout clones (``search.search_root``)
    seat: int
    pre_roll_actions: int
    horizon_rounds: int
    mode: str  # ``search.ROLLOUT_MODES``
    checkpoint: str  # the learned player's folder: the policy of the table's size
    value: bool  # rollouts end on the shipped value network (else the position-value share)
    reading: dict[int, dict[str, float]] | None = None  # rollout "read": each rival's posterior
    value_folder: str | None = None  # the value checkpoint the rollouts end on (None: shipped)


_LEARNED: dict[str, LearnedPlayer] = {}  # per worker process: one loaded checkpoint each


def _rollouts(spec: RoundSpec) -> Rollouts:
    learned = _LEARNED.get(spec.checkpoint)
    if learned is None:
        learned = _LEARNED[spec.checkpoint] = LearnedPlayer(Path(spec.checkpoint), name="hard")
    return Rollouts(spec.root, spec.seat, spec.pre_roll_actions, spec.horizon_rounds, spec.mode,
                    learned.policy_for(spec.root.num_players),
                    value_at(spec.value_folder) if spec.value else None, spec.reading)


def play_rounds(spec: RoundSpec, actions: list[Action], rounds: list[tuple[int, int]],
                seconds: float) -> list[tuple[int, list[float]]]:
    """In a worker: each of ``rounds`` (its index and seed) as one score per action, until
    ``seconds`` from now; a round the time cuts short is left out."""
    rollouts = _rollouts(spec)
    deadline = time.perf_counter() + seconds
    out = []
    for index, seed in rounds:
        scores = []
        for action in actions:
            score = rollouts.run(action, seed, deadline)
            if score is None:
                return out
            scores.append(score)
        out.append((index, scores))
    return out


def blas_threads() -> int | None:
    """The threads numpy's matrix products use in this process (None if ``threadpoolctl`` is
    missing). A product's last bits depend on them, so the workers use as many as the
    searching process: the same scores (``network.single_thread_blas`` sets one, as the
    commands that play do)."""
    try:
        from threadpoolctl import threadpool_info
    except ImportError:
        return None
    counts = [i["num_threads"] for i in threadpool_info() if i.get("user_api") == "blas"]
    return min(counts) if counts else None


def _start_worker(threads: int | None) -> None:
    if threads is not None:
        from threadpoolctl import threadpool_limits

        threadpool_limits(threads, user_api="blas")


class RoundPool:
    """Worker processes that play a decision's rounds between them, their numpy products on
    ``threads`` threads each (None: numpy's default)."""

    def __init__(self, workers: int, threads: int | None = None) -> None:
        self.workers = workers
        self._pool = multiprocessing.get_context("spawn").Pool(workers, _start_worker,
                                                               (threads,))

    def play(self, spec: RoundSpec, actions: list[Action], seeds: list[int],
             seconds: float) -> list[list[float]]:
        """The scores of each round (one per action) in round order, the rounds the time cut
        short left out."""
        shares = [[(k, s) for k, s in enumerate(seeds) if k % self.workers == w]
                  for w in range(self.workers)]
        pending = [self._pool.apply_async(play_rounds, (spec, actions, share, seconds))
                   for share in shares if share]
        done = sorted(pair for job in pending for pair in job.get())
        return [scores for _, scores in done]

    def close(self) -> None:
        self._pool.terminate()


_POOLS: dict[tuple[int, int | None], RoundPool] = {}


def round_pool(workers: int) -> RoundPool:
    """This process's pool of ``workers`` processes, their numpy products on as many threads
    as this process's (``blas_threads``), made on first use."""
    key = (workers, blas_threads())
    pool = _POOLS.get(key)
    if pool is None:
        pool = _POOLS[key] = RoundPool(*key)
    return pool


@atexit.register
def _close_pools() -> None:
    for pool in _POOLS.values():
        pool.close()
    _POOLS.clear()
