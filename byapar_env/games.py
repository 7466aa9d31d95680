"""The games this package plays, each declared once: the one list of games.

    >>> from byapar_env.games import available_games, find_game
    >>> available_games()
    ('byapar', 'businessman')
    >>> spec = find_game("businessman")
    >>> spec.max_players, spec.hidden_information
    (6, True)

A ``GameSpec`` holds a game's facts (names, table sizes, its table options beyond the seats and
the round limit, whether seats hold hidden information, the format of its policy checkpoints)
and names the modules of its own folders where the rest lives: its engine (``Game``, ``Rules``
and ``table_rules``), its environment (``raw_env``, ``env``) and its players (``make_agent``,
``AGENT_NAMES``, ``seat_player``, ``play_seated``, ``learned_player``). The arena, the trainer,
the server and the command line read a game here instead of branching on its name, so a third
game is its folders and one line in ``GAMES``. The modules are imported when first asked for:
this file needs the standard library alone, as the engines do.

One vocabulary for what every game shares: ``rounds`` is the round limit, ``None`` playing
until one player is left (the richest winning after 100 rounds, in every game). The figures a
game's engine already holds (table sizes, the default round limit, each option's default) are
read from it, never written twice.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import MISSING, dataclass, fields
from types import ModuleType
from typing import Any

from .core.errors import ByaparError


class UnknownGameError(ByaparError, ValueError):
    """A game name that is not in ``GAMES``."""


@dataclass(frozen=True)
class TableOption:
    """A table option of one game beyond the seats and the round limit."""

    name: str  # the keyword of the game's ``table_rules`` and environment
    flag: str  # the command line's flag for it
    shown: Callable[[Any], str]  # the option as a table's heading says it


@dataclass(frozen=True)
class GameSpec:
    """One game's facts, and where its engine, environment and players live."""

    name: str  # as every command and request names it
    title: str  # as a person reads it
    env_id: str  # the PettingZoo environment's registered id
    # module: Game, Rules, table_rules(num_players, rounds, **options), DEFAULT_ROUNDS,
    # MIN_PLAYERS, MAX_PLAYERS
    engine: str
    env: str  # module: raw_env, env (the versioned face)
    players: str  # module: make_agent, AGENT_NAMES, seat_player, play_seated, learned_player
    policy_format: str  # the "format" of its policy checkpoints' meta.json
    options: tuple[TableOption, ...] = ()
    hidden_information: bool = False  # whether a seat holds what others may not see

    def module(self, part: str) -> ModuleType:
        """The module of ``part`` ("engine", "env" or "players"), imported on first use."""
        if part not in ("engine", "env", "players"):
            raise ValueError(f"part must be engine, env or players, got {part!r}")
        return importlib.import_module(getattr(self, part))

    @property
    def min_players(self) -> int:
        return self.module("engine").MIN_PLAYERS

    @property
    def max_players(self) -> int:
        return self.module("engine").MAX_PLAYERS

    @property
    def default_rounds(self) -> int:
        """The round limit of a table nobody configures."""
        return self.module("engine").DEFAULT_ROUNDS

    def option_default(self, name: str) -> Any:
        """The default of table option ``name``, as the engine's ``Rules`` has it."""
        for f in fields(self.module("engine").Rules):
            if f.name == name and f.default is not MISSING:
                return f.default
        raise ValueError(f"{self.title} has no table option {name!r}")

    def option(self, name: str) -> TableOption | None:
        """The table option ``name`` of this game, or None when it has none by that name."""
        return next((o for o in self.options if o.name == name), None)

    def rules(self, num_players: int, rounds: int | None, **options: Any):
        """The engine's rules of a table: ``rounds`` None plays until one player is left."""
        return self.module("engine").table_rules(num_players, rounds, **options)

    def make_agent(self, name: str, seed: int | None = None):
        """A fresh player of this game by name (``UnknownAgentError`` naming the choices)."""
        return self.module("players").make_agent(name, seed)


def _money(amount: int) -> str:
    return f"starting cash {amount:,}"


def _auctions(on: bool) -> str:
    return "auctions" if on else "no auctions"


def _abroad(on: bool) -> str:
    return "abroad" if on else "home perimeter only"


GAMES: dict[str, GameSpec] = {spec.name: spec for spec in (
    GameSpec("byapar", "Byapar", "byapar/byapar-v0", "byapar_env.engine",
             "byapar_env.byapar_v0", "byapar_agents", "byapar-policy",
             (TableOption("starting_cash", "--starting-cash", _money),
              TableOption("auctions", "--no-auctions", _auctions))),
    GameSpec("businessman", "Businessman", "byapar/businessman-v0", "byapar_env.businessman",
             "byapar_env.businessman_v0", "byapar_agents.businessman", "businessman-policy",
             (TableOption("abroad_enabled", "--no-abroad", _abroad),),
             hidden_information=True),
)}
DEFAULT_GAME = "byapar"


def available_games() -> tuple[str, ...]:
    """Every game's name, the default first."""
    return tuple(GAMES)


def find_game(name: object) -> GameSpec:
    """The game called ``name``; ``UnknownGameError`` naming the games otherwise."""
    spec = GAMES.get(name) if isinstance(name, str) else None
    if spec is None:
        shown = repr(name)[:40]
        raise UnknownGameError(f"unknown game {shown}: expected one of "
                               f"{', '.join(available_games())}")
    return spec
