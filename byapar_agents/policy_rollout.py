"""The learned policy as a fast engine-level rollout player, and what "undoing a move" means.

``PolicyRolloutPlayer`` plays a seat of a rollout (``byapar_agents.search``) or a generated
table (``byapar_training.value``) by the policy's most likely legal action; the dealing rollout
player (``byapar_agents.dealing_rollout``) adds the deal module on top. ``UNDOES`` pairs each
move with the move that undoes it within a turn, which no fast player, the search or the hard
player makes.
"""

from __future__ import annotations

import numpy as np

from byapar_env.action_table import ACTIONS, engine_action, legal_ids
from byapar_env.driver import PRE_ROLL_CAP, TRADE_STEP_CAP
from byapar_env.engine import Action, ActionKind, Game, Phase
from byapar_env.observation import OBSERVATION_SIZE, PlaceBlocks, encode

from .network import NumpyPolicy

# An action undoing one taken earlier in the same turn, by kind (never a gain within a turn).
UNDOES = {ActionKind.MORTGAGE: ActionKind.UNMORTGAGE, ActionKind.UNMORTGAGE: ActionKind.MORTGAGE,
          ActionKind.BUILD: ActionKind.SELL_BUILDING, ActionKind.SELL_BUILDING: ActionKind.BUILD}
_TRADE_START_IDS = np.array([i for i, a in enumerate(ACTIONS) if a.kind == "trade_start"])


class PolicyRolloutPlayer:
    """The learned policy as a fast engine-level rollout player: its most likely legal id at
    each decision, trade offers left out (composing one takes a forward pass per step, and a
    rollout of a few rounds meets few of them; the other seats' offers are still answered)."""

    def __init__(self, policy: NumpyPolicy) -> None:
        self.policy = policy
        self._obs = np.empty(OBSERVATION_SIZE, np.float32)
        self._places = PlaceBlocks()  # rebuilt or patched as the board it last read changes
        self._mask = np.zeros(len(ACTIONS), np.int8)
        self.reset()

    def reset(self, seed: int | None = None) -> None:
        self._turn, self._pre_roll = -1, 0
        self._undo: set[Action] = set()  # this turn's actions' reverses

    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        if self._turn != game.turn_count:
            self._turn, self._pre_roll, self._undo = game.turn_count, 0, set()
        capped = game.phase == Phase.PRE_ROLL and self._pre_roll >= PRE_ROLL_CAP
        mask = self._mask
        mask[:] = 0
        mask[legal_ids(game, None, TRADE_STEP_CAP, capped)] = 1
        mask[_TRADE_START_IDS] = 0
        obs = encode(game, seat, self._obs, None, self._pre_roll, PRE_ROLL_CAP, TRADE_STEP_CAP,
                     places=self._places)
        logits = np.where(mask.astype(bool), self.policy.logits(obs), -np.inf)
        while True:
            i = int(np.argmax(logits))
            action = engine_action(game, i)
            # Not undoing this turn's own move (mortgaging and paying off one place over and
            # over before rolling, which the policy can fall into): its next choice instead.
            if action not in self._undo or np.isfinite(logits).sum() == 1:
                break
            logits[i] = -np.inf
        if game.phase == Phase.PRE_ROLL:
            self._pre_roll += 1
            reverse = UNDOES.get(action.kind)
            if reverse is not None:
                self._undo.add(action._replace(kind=reverse))
        return action
