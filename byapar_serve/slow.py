"""Slow work off the threads that answer fast calls: the expert's decisions and analyses run in
a small pool of worker processes, each bounded by a deadline checked while it runs.

Why processes: a search is pure Python, and in the server's own process it would hold the
interpreter lock that every other request needs (while one client ran ``/v1/analyse``, hard's
decide p95 went from 6 to 54 ms). In a worker process it shares only the CPU. The pool is
bounded: ``workers`` processes and at most ``max_queued`` jobs waiting; past that a request
gets 503 ``server_busy`` at once, never a growing queue.

Every job carries an absolute deadline (``time.monotonic``, the same clock in every process on
the machine), counted from the moment the server took the request, so time spent waiting for a
worker counts against it:

- the expert (``ExpertPlayer.deadline``) checks its deadline before each round of simulations,
  using the time a simulation took in this process so far (shared by the process's experts, so
  also on a fresh expert's first decision), and before each simulation; a round cut short is
  dropped whole, so the candidates stay paired. The trade finder checks it too, and here
  (``BoundedExpert``) runs only when the time left leaves room for it. The search ends early
  enough for the rest of the decision: ``SEARCH_SHARE`` of the time left, or less by as long
  as recent decisions in the process went on after their search's end (a worker waiting for
  a core takes longer);
- an analysis gives the expert at most ``EXPERT_SHARE`` of its time and plays rollouts to the
  end until the deadline, checked at every decision of a rollout; a rollout cut short is not
  counted (``rollouts`` in the answer says how many finished).

A caller may also stop waiting at ``answer_by`` (``Late``): the expert's decide answers by its
budget with the expert's prior (the hard player's move) when the worker is late. Then the pool
does no work for a caller who has gone: a job still waiting for a worker is cancelled and its
slot given back at once, and a job that reaches a worker after its ``answer_by`` is not run
(``Abandoned``, the slot given back as soon as the worker takes it); a job already running
goes on to its own deadline (at ``answer_by`` or just after) and keeps its slot until then.
So the slots count only work that is waiting for an answer or really running: quick callers
that stop waiting (a sequential client at a 5 ms budget, or any client while the workers
load their networks at start-up) do not pile up jobs nobody waits for, which once filled
every slot and refused every expert and analyse call with 503 for seconds.

``workers=0`` runs the jobs on a thread of this process instead (tests, and machines where a
process pool is unwanted): the same deadlines, without the isolation.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import math
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from .errors import ServerBusy

EXPERT_SHARE = 0.4  # of an analysis' time, the most its expert evaluation may take
MIN_ANALYSE_S = 0.5  # an analysis that would start with less time left is not started (503)
# The time the search itself may take of a decision's remaining budget: the rest covers
# reading the game, the candidates' forward passes and the answer.
SEARCH_SHARE = 0.85
# How long after its search's end a recent decision in this process finished: a high running
# estimate (up at once, down by a tenth of the way a decision). When it is more than the rest
# the share leaves, the search ends that much before the deadline instead: a worker that waits
# for a core (more workers than cores, other work on the machine) still answers in time.
_AFTER_SEARCH_S = [0.0]


class TooLate(Exception):
    """The job's deadline passed while it waited for a worker."""


class Late(Exception):
    """The job had not answered by the time its caller must answer (``answer_by``). The job
    goes on in its worker and its answer is dropped; the caller answers without it."""


class Abandoned(Exception):
    """The job reached a worker after its caller stopped waiting (``answer_by``): not run."""


def unless_abandoned(answer_by: float, fn: Callable, *args: Any) -> Any:
    """``fn(*args)``, unless ``answer_by`` (``time.monotonic``) has passed: ``Abandoned``."""
    if time.monotonic() >= answer_by:
        raise Abandoned
    return fn(*args)


# When the server answers an expert decision at the latest, as a multiple of its budget from
# the request's arrival: then the caller stops waiting for the worker (``Late``) and plays the
# expert's prior, the hard player's move, worked out meanwhile. A worker that waits for a core
# can overrun its deadline by tens of milliseconds however early its search ends; the person
# or site waiting should not.
ANSWER_BY_SHARE = 1.0


# ---------------------------------------------------------------------- in the worker process
# The trade finder's time on a decision, a high running estimate (it varies tenfold with the
# position: 20 to 750 ms measured); it runs only when the time left is FINDER_ROOM times that.
# (The finder itself stops at the decision's deadline; this keeps the budget for simulations.)
_FINDER_S = [0.0]
FINDER_ROOM = 2.0
_EXPERTS: dict[str, Any] = {}


def _bounded_expert_class():
    from byapar_agents.expert import ExpertPlayer

    class BoundedExpert(ExpertPlayer):
        """The expert, with its search bounded by ``deadline`` (``ExpertPlayer``: checked
        before each simulation and in the trade finder; the first round runs only if the
        process's measured simulation time says it fits), and the trade finder run only when
        the time left leaves room for it. See the module docstring."""

        def found_offers(self, game, pre_roll_actions, policy):
            """The trade finder's offers, as the expert's, but only when the time left leaves
            room for it: at serve's budgets of a few hundred ms it often does not fit, and the
            expert then weighs the policy's and the medium player's candidates only."""
            key = (game.turn_count, game.offers_made, tuple(game.owner))
            cached = self._found[0] == key
            left = self._end - time.perf_counter()
            if not cached and left < FINDER_ROOM * _FINDER_S[0]:
                return []
            start = time.perf_counter()
            offers = super().found_offers(game, pre_roll_actions, policy)
            if not cached and self._found[0] == key:
                took = time.perf_counter() - start
                # Up fast, down slowly: the estimate stays near the finder's slow cases.
                _FINDER_S[0] = max(took, 0.9 * _FINDER_S[0] + 0.1 * took)
            return offers

    return BoundedExpert


_BOUNDED: list[type] = []


def bounded_expert(seed: int | None = None, **options: Any):
    """A new ``BoundedExpert`` (``ExpertPlayer`` options)."""
    if not _BOUNDED:
        _BOUNDED.append(_bounded_expert_class())
    return _BOUNDED[0](seed, **options)


def _worker_expert(key: str):
    expert = _EXPERTS.get(key)
    if expert is None:
        from .limits import EXPERT_BUDGET_MS

        expert = _EXPERTS[key] = bounded_expert(0, budget_ms=EXPERT_BUDGET_MS)
    return expert


def warm() -> int:
    """Load what the jobs use (the hard policy, the value network), play a few searches and
    run the trade finder on a few positions, so the first real job pays for none of it and
    the times of a simulation and of the finder are known (about 2 s)."""
    from byapar_env.engine import Game, Rules

    from .decide import decide

    expert = _worker_expert("decide")
    rng = random.Random(2)
    searched = found = 0
    for seed in range(12):
        if searched >= 3 and found >= 4:
            break
        game = Game(Rules(num_players=3 + seed % 3), seed=seed)
        while game.round < 4 + seed and not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
            if searched < 3 and game.phase.name in ("BUY", "AUCTION"):
                expert.reset(seed)
                expert.budget_ms = 60.0
                decide(expert, game, 0)
                searched += 1
        if game.is_over or game.phase.name != "PRE_ROLL" or found >= 4:
            continue
        expert.reset(seed)
        expert.budget_ms = 60_000.0
        start = time.perf_counter()
        expert.found_offers(game, 0, expert.policy(game))
        _FINDER_S[0] = max(_FINDER_S[0], time.perf_counter() - start)
        found += 1
    expert.reset(0)
    return os.getpid()


# State of a seated expert that travels with each of its decisions (its memory of the turn and
# of the offers it made); the loaded networks and the timing estimate stay in the worker.
KEEP_IN_WORKER = frozenset({"learned", "value", "last", "_rollout_s", "deadline", "_end"})


def expert_state(player: object) -> dict:
    return {k: v for k, v in vars(player).items() if k not in KEEP_IN_WORKER}


def expert_job(game_data: dict, pre_roll: int, budget_ms: float, deadline: float,
               seed: int | None, state: dict | None) -> tuple[dict, dict | None]:
    """One expert decision in a worker: ``(decision, state after it)``. ``state``: a seated
    expert's (``expert_state``), or None for a fresh one seeded ``seed``."""
    from byapar_env.engine.serialize import game_from_dict

    from .codec import action_to_json
    from .decide import decide

    # However late the job starts, it answers: with no time left the search is skipped and
    # the expert plays its policy's choice (the hard player's move), in a few milliseconds.
    left = max(deadline - time.monotonic(), 0.0)
    game = game_from_dict(game_data)
    expert = _worker_expert("seat" if state is not None else "decide")
    if state is not None:
        vars(expert).update(state)
    else:
        expert.reset(seed)
    search_s = max(0.0, left - max(left * (1.0 - SEARCH_SHARE), _AFTER_SEARCH_S[0]))
    expert.budget_ms = max(0.001, min(budget_ms / 1000.0 * SEARCH_SHARE, search_s) * 1000.0)
    expert.find_trades = True
    search_end = time.perf_counter() + search_s
    expert.deadline = search_end
    try:
        d = decide(expert, game, pre_roll)
    finally:
        expert.deadline = math.inf
    after = max(0.0, time.perf_counter() - search_end)
    _AFTER_SEARCH_S[0] = max(after, 0.9 * _AFTER_SEARCH_S[0] + 0.1 * after)
    out = {"action": action_to_json(d.action), "id": d.id, "steps": d.steps}
    return out, (expert_state(expert) if state is not None else None)


def win_chances(game, rollouts: int, seed: int, deadline: float) -> tuple[list, int]:
    """Each seat's chance of winning by up to ``rollouts`` rollouts to the end, as
    ``byapar_harness.analyse.win_chances`` (the same seeds, so the same figures when all run),
    but the deadline (``perf_counter``) is checked at every decision and a rollout it cuts
    short is not counted: there may be none."""
    from byapar_harness.analyse import win_chances as analyse_win_chances

    return analyse_win_chances(game, rollouts, seed, deadline, strict=True)


def analyse_job(game_data: dict, pre_roll: int, rollouts: int, expert_sims: int, seed: int,
                deadline: float) -> dict:
    """``byapar_harness.analyse.analyse`` with every part bounded by ``deadline``."""
    from byapar_agents.value import shipped_value
    from byapar_env.engine.serialize import game_from_dict
    from byapar_harness.analyse import Analysis

    left = deadline - time.monotonic()
    if left < MIN_ANALYSE_S:
        raise TooLate
    start = time.perf_counter()
    end = start + left
    game = game_from_dict(game_data)
    expert = bounded_expert(seed, sims=expert_sims)
    expert.deadline = start + left * EXPERT_SHARE
    evaluation = expert.evaluate(game, pre_roll, seed)
    chances, done = win_chances(game, rollouts, seed, end)
    by_net = shipped_value().win_chances(game)
    analysis = Analysis(game.current_player, chances, done, evaluation,
                        time.perf_counter() - start, by_net)
    return analysis.to_dict()


# ---------------------------------------------------------------------- in the server process
class SlowPool:
    """The bounded pool of worker processes (threads when ``workers`` is 0)."""

    def __init__(self, workers: int = 2, max_queued: int = 8) -> None:
        self.workers = workers
        self.max_queued = max_queued
        self._executor: Executor | None = None
        # Reentrant: shutting a pool down runs the cancelled jobs' callbacks (``_done``) at once.
        self._lock = threading.RLock()
        self._in_flight = 0

    def _pool(self) -> Executor:
        with self._lock:
            if getattr(self._executor, "_broken", False):  # a worker died: start afresh
                self._executor.shutdown(wait=False, cancel_futures=True)
                self._executor = None
            if self._executor is None:
                if self.workers == 0:
                    self._executor = ThreadPoolExecutor(1, thread_name_prefix="byapar-slow")
                else:
                    # spawn: a forked copy of a threaded server could inherit a held lock.
                    self._executor = ProcessPoolExecutor(
                        self.workers, mp_context=multiprocessing.get_context("spawn"))
            return self._executor

    def start(self) -> None:
        """Start the workers now and warm each (loads the networks), without waiting."""
        pool = self._pool()
        for _ in range(max(1, self.workers)):
            pool.submit(warm)

    def close(self) -> None:
        with self._lock:
            executor, self._executor = self._executor, None
        # Outside the lock: cancelling the queued jobs runs their callbacks (``_done``) here.
        if executor is not None:
            executor.shutdown(wait=False, cancel_futures=True)

    def _admit(self) -> None:
        with self._lock:
            limit = max(1, self.workers) + self.max_queued
            if self._in_flight >= limit:
                raise ServerBusy("the server's slow calls (the expert, analyses) are all busy; "
                                 "try again in a few seconds")
            self._in_flight += 1

    def _done(self, _: object = None) -> None:
        with self._lock:
            self._in_flight -= 1

    def _submit(self, fn: Callable, args: tuple) -> Any:
        self._admit()
        try:
            future = self._pool().submit(fn, *args)
        except BaseException:
            self._done()
            raise
        future.add_done_callback(self._done)
        return future

    def run(self, fn: Callable, *args: Any, answer_by: float | None = None) -> Any:
        """Run ``fn(*args)`` on the pool and wait (from a thread), at most until ``answer_by``
        (``time.monotonic``; ``Late`` then, and the job is dropped unless it is running)."""
        if answer_by is None:
            return _result(self._submit(fn, args).result)
        future = self._submit(unless_abandoned, (answer_by, fn, *args))
        try:
            return _result(lambda: future.result(max(0.0, answer_by - time.monotonic())))
        except (concurrent.futures.TimeoutError, Abandoned):
            future.cancel()  # still queued: its slot comes back now
            raise Late from None

    async def run_async(self, fn: Callable, *args: Any, answer_by: float | None = None) -> Any:
        """Run ``fn(*args)`` on the pool and wait without holding a thread, at most until
        ``answer_by`` (``time.monotonic``; ``Late`` then, and the job is dropped unless it is
        running)."""
        if answer_by is None:
            return await _aresult(asyncio.wrap_future(self._submit(fn, args)))
        future = self._submit(unless_abandoned, (answer_by, fn, *args))
        wrapped = asyncio.wrap_future(future)
        try:
            # asyncio.wait cancels nothing: a job already running goes on in its worker (it
            # cannot be stopped there) and its slot is given back when it ends.
            done, _ = await asyncio.wait({wrapped},
                                         timeout=max(0.0, answer_by - time.monotonic()))
        except asyncio.CancelledError:  # the request itself was cancelled
            _drop(future, wrapped)
            raise
        if not done:
            _drop(future, wrapped)
            raise Late
        try:
            return await _aresult(wrapped)
        except Abandoned:
            raise Late from None


def _drop(future: concurrent.futures.Future, wrapped: asyncio.Future) -> None:
    """Stop waiting for a job: cancelled if still queued (its slot comes back now); its
    outcome read when it comes, so that asyncio does not log it as never retrieved."""
    future.cancel()
    wrapped.add_done_callback(lambda f: f.cancelled() or f.exception())


def _result(get: Callable) -> Any:
    try:
        return get()
    except BrokenProcessPool:
        raise ServerBusy("a worker of the server stopped; try again") from None
    except TooLate:
        raise ServerBusy("the server was too busy to start this call before its deadline; "
                         "try again") from None


async def _aresult(wrapped: asyncio.Future) -> Any:
    try:
        return await wrapped
    except BrokenProcessPool:
        raise ServerBusy("a worker of the server stopped; try again") from None
    except TooLate:
        raise ServerBusy("the server was too busy to start this call before its deadline; "
                         "try again") from None
