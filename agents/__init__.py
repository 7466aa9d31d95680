"""Computer players for Byapar, all behind one interface (``byapar_env.players.Player``).

>>> from byapar_agents import make_agent
>>> player = make_agent("medium")
"""

from __future__ import annotations

from pathlib import Path

from byapar_env.players import Player, PolicyPlayer, RandomPlayer

from .base import EnginePlayer
from .easy import EasyPlayer
from .hard import DEFAULT_CHECKPOINT, LearnedPlayer
from .medium import MediumPlayer
from .network import CheckpointError, NumpyPolicy, load_checkpoint
from .panel import PANEL_NAMES, PanelPlayer

LEVEL_NAMES = ("random", "easy", "medium", "hard")
AGENT_NAMES = LEVEL_NAMES + PANEL_NAMES


class UnknownAgentError(ValueError):
    """A player name that is neither a known level nor a checkpoint folder."""


def make_agent(name: str, seed: int | None = None) -> Player:
    """A fresh player by level name (random, easy, medium, hard), panel name (see
    ``byapar_agents.panel``) or from a checkpoint folder.

    A checkpoint that cannot be used raises ``CheckpointError`` (a ValueError) saying why."""
    if name == "random":
        return RandomPlayer(seed)
    if name == "easy":
        return EasyPlayer()
    if name == "medium":
        return MediumPlayer()
    if name in PANEL_NAMES:
        return PanelPlayer(name)
    if name == "hard":
        return LearnedPlayer(DEFAULT_CHECKPOINT, name="hard")
    if Path(name).is_dir():
        return LearnedPlayer(name)
    raise UnknownAgentError(
        f"unknown player {name!r}: expected one of {', '.join(AGENT_NAMES)} or a checkpoint "
        "folder")


__all__ = ["AGENT_NAMES", "CheckpointError", "EasyPlayer", "EnginePlayer", "LearnedPlayer",
           "NumpyPolicy", "load_checkpoint", "MediumPlayer", "LEVEL_NAMES", "PANEL_NAMES",
           "PanelPlayer", "Player", "PolicyPlayer",
           "RandomPlayer", "UnknownAgentError", "make_agent"]
