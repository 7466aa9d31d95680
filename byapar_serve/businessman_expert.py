"""Businessman's expert at the server: its search runs in the slow pool, answered by its budget.

The expert (``byapar_agents.businessman.ExpertBusinessmanPlayer``) samples the hands it cannot
see, so it may be handed the whole saved game: it reads its own seat's view only. Like
Byapar's expert here (``slow.py``), its searches run in the pool's workers, off the threads
that answer fast calls, each within a budget counted from when the server took the call:

- a decision that needs no search (one legal action; a step of a proposal being composed) is
  played at once where it is asked;
- otherwise ``search_job`` runs in a worker with ``SEARCH_SHARE`` of the time left as the
  search's budget. A seated expert's memory (``memory``/``remember``: its seeds, the proposal
  it is composing) travels with the job and comes back with the answer;
- the caller stops waiting at the budget (``Late``: a worker waiting for a core) and plays the
  expert's prior instead, the hard player's move (``prior``), marked ``"searched": false``.
"""

from __future__ import annotations

import time
from typing import Any

from byapar_agents.businessman import ExpertBusinessmanPlayer
from byapar_env.businessman import ACTION_ID, ALL_ACTIONS, Action, Game

from .slow import ANSWER_BY_SHARE, SEARCH_SHARE, Late, SlowPool

_WORKER_EXPERT: list[ExpertBusinessmanPlayer] = []


def search_job(saved: str, legal_ids: list[int], budget_ms: float, deadline: float,
               seed: int | None, memory: dict | None) -> tuple[int, dict | None]:
    """One searched decision in a worker: ``(action id, memory after it)``. ``memory``: a
    seated expert's, or None for a fresh one seeded ``seed`` (a decide call)."""
    if not _WORKER_EXPERT:  # one per process: the policy loads once
        _WORKER_EXPERT.append(ExpertBusinessmanPlayer(budget_ms=budget_ms, seed=0))
    expert = _WORKER_EXPERT[0]
    if memory is not None:
        expert.remember(memory)
    else:
        expert.reset(seed)
    game = Game.from_json(saved)
    left_ms = max(deadline - time.monotonic(), 0.0) * 1000.0
    expert.budget_ms = max(1.0, min(budget_ms, left_ms) * SEARCH_SHARE)
    legal = [ALL_ACTIONS[i] for i in legal_ids]
    action = expert.choose(game, game.current_player, legal)
    if action not in legal:  # never: choose answers from legal
        action = legal[0]
    return ACTION_ID[action], (expert.memory() if memory is not None else None)


def _position(game: Game, legal: list[Action]) -> tuple[str, list[int]]:
    """What a search job is sent of the position: the saved game and the legal ids."""
    return game.to_json(), [ACTION_ID[a] for a in legal]


def expert_decision(slow: SlowPool, expert: ExpertBusinessmanPlayer, game: Game,
                    legal: list[Action], left_s: float) -> tuple[Action, bool]:
    """A seated expert's decision within ``left_s`` seconds and its own budget: the action and
    whether it was searched (False: no search was needed, or the worker was late and the
    prior decided)."""
    seat = game.current_player
    if not expert.needs_search(game, legal):
        return expert.choose(game, seat, legal), False
    now = time.monotonic()
    budget_s = min(left_s, expert.budget_ms / 1000.0) if expert.budget_ms else left_s
    try:
        i, memory = slow.run(search_job, *_position(game, legal), budget_s * 1000.0,
                             now + budget_s, None, expert.memory(),
                             answer_by=now + budget_s * ANSWER_BY_SHARE)
    except Late:
        return expert.prior(game, seat, legal), False
    expert.remember(memory)
    return ALL_ACTIONS[i], True


async def decide_async(slow: SlowPool, game: Game, legal: list[Action], budget_ms: float,
                       arrived: float, prior: Any) -> tuple[Action, bool]:
    """A decide call's expert decision, searched within ``budget_ms`` of ``arrived``
    (``time.monotonic``); ``prior`` awaits the hard player's move for a late worker."""
    try:
        i, _ = await slow.run_async(search_job, *_position(game, legal), budget_ms,
                                    arrived + budget_ms / 1000.0, 0, None,
                                    answer_by=arrived + budget_ms / 1000.0 * ANSWER_BY_SHARE)
    except Late:
        return await prior, False
    return ALL_ACTIONS[i], True
