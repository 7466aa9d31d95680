"""A learned Businessman player: a policy checkpoint trained by ``byapar train --game businessman``.

The checkpoint is the Byapar hard player's form (``byapar_agents/network.py``: ``weights.npz`` and
``meta.json``, numpy alone) in the format ``businessman-policy``, made for Businessman's
observation (``byapar_env.businessman_observation``), action table and board; anything else is
refused with ``CheckpointError``. It reads only its seat's view (``Game.view``: its own Exchange
hand, never another's) and plays the most likely of the legal actions it is given (the caps of
``businessman_v0`` applied by whoever seats it: ``play_game`` or the environment's mask).

As for Byapar's hard player, a checkpoint may name table specialists in its ``meta.json``
(``"table_specialists": {"2": "table_2"}``, written by ``byapar export --table-size 2``): a
sub-folder's policy plays the games that started with that many players, the folder's own
policy every other table.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from byapar_env.businessman import ACTION_ID, ALL_ACTIONS, Action, Game
from byapar_env.businessman.rules import MAX_PLAYERS, MIN_PLAYERS
from byapar_env.businessman_action_table import NUM_ACTIONS
from byapar_env.businessman_observation import encode

from ..network import NumpyPolicy, load_checkpoint, specialist_folders
from .base import BusinessmanPlayer

POLICY_FORMAT = "businessman-policy"


class LearnedBusinessmanPlayer(BusinessmanPlayer):
    """A player from a Businessman policy checkpoint folder."""

    def __init__(self, folder: str | Path, name: str | None = None) -> None:
        self.folder = Path(folder)
        self.policy, self.meta = load_checkpoint(self.folder, fmt=POLICY_FORMAT)
        self.name = name or self.meta.get("name", self.folder.name)
        self.specialists: dict[int, NumpyPolicy] = {
            size: load_checkpoint(sub, fmt=POLICY_FORMAT)[0]
            for size, sub in specialist_folders(self.folder, self.meta, MIN_PLAYERS,
                                                MAX_PLAYERS).items()}

    def policy_for(self, num_players: int) -> NumpyPolicy:
        """The policy that plays a table of ``num_players``: its specialist, if the checkpoint
        names one, else the main policy."""
        return self.specialists.get(num_players, self.policy)

    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        """The most likely of ``legal`` (masked to exactly those actions)."""
        mask = np.zeros(NUM_ACTIONS, np.int8)
        mask[[ACTION_ID[a] for a in legal]] = 1
        policy = self.policy_for(game.num_players)
        return ALL_ACTIONS[policy.act(encode(game.view(seat)), mask)]

    def act(self, env, seat: int) -> int:
        view = env.observe(env.possible_agents[seat])
        policy = self.policy_for(len(env.possible_agents))
        return policy.act(view["observation"], view["action_mask"])


class CallableBusinessmanPlayer(BusinessmanPlayer):
    """A player from any function of a seat's observation and action mask to an action id
    (``module:callable``), seated at an engine table or in ``businessman_v0``."""

    def __init__(self, fn, name: str = "callable") -> None:
        self.fn = fn
        self.name = name

    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        mask = np.zeros(NUM_ACTIONS, np.int8)
        mask[[ACTION_ID[a] for a in legal]] = 1
        return ALL_ACTIONS[int(self.fn(encode(game.view(seat)), mask))]

    def act(self, env, seat: int) -> int:
        view = env.observe(env.possible_agents[seat])
        return int(self.fn(view["observation"], view["action_mask"]))
