"""Businessman's flat action table for the environment: one id per engine action.

The engine already names every decision as one of a fixed, finite set of actions
(``actions.ALL_ACTIONS``, trades composed step by step), so the environment's ids are simply
their positions in that tuple: id ``i`` is ``ALL_ACTIONS[i]``, the same for every table size.
``docs/businessman_env.md`` lists the ranges.
"""

from __future__ import annotations

import numpy as np

from .businessman.actions import ACTION_ID, ALL_ACTIONS, Action, ActionKind
from .businessman.game import Game

NUM_ACTIONS = len(ALL_ACTIONS)  # 402


def action_to_string(action_id: int) -> str:
    """The id's engine action in words, e.g. ``"buy Bakery"``."""
    if type(action_id) is not int or not 0 <= action_id < NUM_ACTIONS:
        raise ValueError(f"an action id is a whole number from 0 to {NUM_ACTIONS - 1}, "
                         f"got {action_id!r}")
    return str(ALL_ACTIONS[action_id])


def action_id(action: Action) -> int:
    """The id of an engine action."""
    return ACTION_ID[action]


def legal_ids(game: Game) -> list[int]:
    """The ids of ``game.legal_actions()``, in increasing order."""
    return sorted(ACTION_ID[a] for a in game.legal_actions())


def legal_mask(game: Game) -> np.ndarray:
    """An int8 mask over the table: 1 where the id is legal for ``game.current_player``."""
    mask = np.zeros(NUM_ACTIONS, np.int8)
    if not game.is_over:
        mask[[ACTION_ID[a] for a in game.legal_actions()]] = 1
    return mask


def id_ranges() -> list[tuple[int, int, str]]:
    """The table as (first id, last id, kind name) runs, in id order, for the docs."""
    runs: list[tuple[int, int, str]] = []
    for i, a in enumerate(ALL_ACTIONS):
        name = ActionKind(a.kind).name.lower()
        if runs and runs[-1][2] == name and runs[-1][1] == i - 1:
            runs[-1] = (runs[-1][0], i, name)
        else:
            runs.append((i, i, name))
    return runs


__all__ = ["NUM_ACTIONS", "action_id", "action_to_string", "id_ranges", "legal_ids",
           "legal_mask"]
