"""The games the trainers train for: what differs between Byapar and Businessman, in one place.

The compact trainer (``byapar_training/ppo.py``) and its collectors
(``byapar_training/rollout.py``) are the
same for both games; ``--game`` picks one of ``GAMES``, which says which environment to play,
its observation and action sizes, the table options an episode is drawn from, the hand-written
players that may sit at the table, the warm start's teacher, and the format and player class of
its policy checkpoints.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from byapar_env.games import GameSpec, find_game

BYAPAR = "byapar"
BUSINESSMAN = "businessman"


@dataclass(frozen=True)
class TrainedGame:
    """One game as the trainers see it: its ``byapar_env.games.GameSpec`` and the trainers'
    own choices for it."""

    name: str
    observation_size: int
    num_actions: int
    tables: tuple[dict, ...]  # the table options an episode's table is drawn from
    policy_format: str  # the checkpoint format of its policies (byapar_agents/network.py)
    teacher: str  # the warm start copies this player's decisions ...
    sparring: str  # ... in games against it and this one
    rounds: int | None  # the round limit of its evaluation tables
    trainers: tuple[str, ...] = ("compact",)  # the trainers that play it (sb3 plays Byapar)
    population: bool = False  # "pop" may join a league (the generated population)
    league_tables: bool = False  # a league run is evaluated on the panel's tables too

    def spec(self) -> GameSpec:
        return find_game(self.name)

    @property
    def reward_modes(self) -> tuple[str, ...]:
        return tuple(self.spec().module("env").REWARD_MODES)

    def env(self, num_players: int, reward: str, **options: Any):
        """A fresh raw environment of this game."""
        return self.spec().module("env").raw_env(num_players=num_players, reward=reward,
                                                 **options)

    def player(self, name: str):
        """A hand-written player of this game by name (``ValueError`` naming the choices)."""
        return self.spec().make_agent(name)

    def learned(self, folder: str | Path):
        """The player of a policy checkpoint folder of this game (a snapshot, an exploiter)."""
        return self.spec().module("players").learned_player(folder)


def _byapar() -> TrainedGame:
    from byapar_env.action_table import NUM_ACTIONS
    from byapar_env.engine.board import FIGURES
    from byapar_env.observation import OBSERVATION_SIZE

    return TrainedGame(
        BYAPAR, OBSERVATION_SIZE, NUM_ACTIONS,
        ({"rounds": 40}, {"rounds": 40, "auctions": False}, {"rounds": None}, {"rounds": 20},
         {"rounds": 40, "starting_cash": 10_000}),
        find_game(BYAPAR).policy_format, "medium", "easy", FIGURES.default_rounds,
        trainers=("sb3", "compact"), population=True, league_tables=True)


def _businessman() -> TrainedGame:
    from byapar_env.businessman.board import FIGURES
    from byapar_env.businessman_action_table import NUM_ACTIONS
    from byapar_env.businessman_observation import OBSERVATION_SIZE

    # Its default round limit mostly; twice as long, and the home perimeter alone, sometimes.
    return TrainedGame(
        BUSINESSMAN, OBSERVATION_SIZE, NUM_ACTIONS,
        ({}, {}, {"rounds": 2 * FIGURES.default_max_rounds}, {"abroad_enabled": False}),
        find_game(BUSINESSMAN).policy_format, "medium", "easy", FIGURES.default_max_rounds)


# The trainers' own choices per game, by the name of its GameSpec.
_TRAINED = {BYAPAR: _byapar, BUSINESSMAN: _businessman}
GAME_NAMES = tuple(_TRAINED)


def trained_game(name: str) -> TrainedGame:
    """The game ``name`` (one of ``GAME_NAMES``); ValueError otherwise."""
    made = _TRAINED.get(name) if isinstance(name, str) else None
    if made is None:
        raise ValueError(f"--game must be one of {', '.join(GAME_NAMES)}, got {name!r}")
    return made()
