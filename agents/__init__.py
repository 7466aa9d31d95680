"""Computer players for Byapar, all behind one interface (``byapar_env.players.Player``).

>>> from agents import make_agent
>>> player = make_agent("medium")
"""

from __future__ import annotations

from pathlib import Path

from byapar_env.players import Player, PolicyPlayer, RandomPlayer

from .base import EnginePlayer
from .easy import EasyPlayer
from .medium import MediumPlayer

AGENT_NAMES = ("random", "easy", "medium")


class UnknownAgentError(ValueError):
    """A player name that is neither a known level nor a checkpoint folder."""


def make_agent(name: str, seed: int | None = None) -> Player:
    """A fresh player by level name (random, easy, medium) or from a checkpoint folder."""
    if name == "random":
        return RandomPlayer(seed)
    if name == "easy":
        return EasyPlayer()
    if name == "medium":
        return MediumPlayer()
    if Path(name).is_dir():
        raise UnknownAgentError(f"{name!r} is a folder, but loading checkpoints is not built yet")
    raise UnknownAgentError(
        f"unknown player {name!r}: expected one of {', '.join(AGENT_NAMES)} or a checkpoint "
        "folder")


__all__ = ["AGENT_NAMES", "EasyPlayer", "EnginePlayer", "MediumPlayer", "Player", "PolicyPlayer",
           "RandomPlayer", "UnknownAgentError", "make_agent"]
