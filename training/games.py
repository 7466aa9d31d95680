"""The games the trainers train for: what differs between Byapar and Businessman, in one place.

The compact trainer (``training/ppo.py``) and its collectors (``training/rollout.py``) are the
same for both games; ``--game`` picks one of ``GAMES``, which says which environment to play,
its observation and action sizes, the table options an episode is drawn from, the hand-written
players that may sit at the table, the warm start's teacher, and the format and player class of
its policy checkpoints.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

BYAPAR = "byapar"
BUSINESSMAN = "businessman"


@dataclass(frozen=True)
class TrainedGame:
    """One game as the trainers see it."""

    name: str
    observation_size: int
    num_actions: int
    tables: tuple[dict, ...]  # the table options an episode's table is drawn from
    policy_format: str  # the checkpoint format of its policies (agents/network.py)
    teacher: str  # the warm start copies this player's decisions ...
    sparring: str  # ... in games against it and this one
    rounds: int | None  # the round limit of its evaluation tables

    def env(self, num_players: int, reward: str, **options: Any):
        """A fresh raw environment of this game."""
        if self.name == BUSINESSMAN:
            from byapar_env.businessman_v0 import raw_env as businessman_env

            return businessman_env(num_players=num_players, reward=reward, **options)
        from byapar_env.byapar_v0 import raw_env

        return raw_env(num_players=num_players, reward=reward, **options)

    def player(self, name: str):
        """A hand-written player of this game by name (``ValueError`` naming the choices)."""
        if self.name == BUSINESSMAN:
            from byapar_agents.businessman import make_agent as businessman_agent

            return businessman_agent(name)
        from byapar_agents import make_agent

        return make_agent(name)

    def learned(self, folder: str | Path):
        """The player of a policy checkpoint folder of this game (a snapshot, an exploiter)."""
        if self.name == BUSINESSMAN:
            from byapar_agents.businessman.learned import LearnedBusinessmanPlayer

            return LearnedBusinessmanPlayer(folder)
        from byapar_agents import LearnedPlayer

        return LearnedPlayer(folder)


def _byapar() -> TrainedGame:
    from byapar_env.action_table import NUM_ACTIONS
    from byapar_env.engine.board import RULES_FIGURES
    from byapar_env.observation import OBSERVATION_SIZE

    return TrainedGame(
        BYAPAR, OBSERVATION_SIZE, NUM_ACTIONS,
        ({"rounds": 40}, {"rounds": 40, "auctions": False}, {"rounds": None}, {"rounds": 20},
         {"rounds": 40, "starting_cash": 10_000}),
        "byapar-policy", "medium", "easy", RULES_FIGURES.default_rounds)


def _businessman() -> TrainedGame:
    from byapar_env.businessman.action_table import NUM_ACTIONS
    from byapar_env.businessman.board import FIGURES
    from byapar_env.businessman.observation import OBSERVATION_SIZE

    # Its default round limit mostly; twice as long, and the home perimeter alone, sometimes.
    return TrainedGame(
        BUSINESSMAN, OBSERVATION_SIZE, NUM_ACTIONS,
        ({}, {}, {"max_rounds": 2 * FIGURES.default_max_rounds}, {"abroad_enabled": False}),
        "businessman-policy", "medium", "easy", FIGURES.default_max_rounds)


GAME_NAMES = (BYAPAR, BUSINESSMAN)


def trained_game(name: str) -> TrainedGame:
    """The game ``name`` (one of ``GAME_NAMES``); ValueError otherwise."""
    if name == BYAPAR:
        return _byapar()
    if name == BUSINESSMAN:
        return _businessman()
    raise ValueError(f"--game must be one of {', '.join(GAME_NAMES)}, got {name!r}")
