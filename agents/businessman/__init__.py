"""Computer players for Businessman (``byapar_env.businessman``): random, easy, medium, hard
(the shipped policy of ``byapar train --game businessman``, ``checkpoints/businessman_hard``)
and learned policies from any such checkpoint folder.

>>> from byapar_agents.businessman import make_agent
>>> player = make_agent("medium")

Each answers ``choose(game, seat, legal)`` with one of the engine's legal actions and reads only
what its seat may know; ``act(env, seat)`` seats it in ``businessman_v0``. ``play_game`` plays a
table of them on the engine, as the environment would.
"""

from __future__ import annotations

from pathlib import Path

from byapar_checkpoints import shipped

from .base import BusinessmanPlayer, play_game
from .learned import LearnedBusinessmanPlayer
from .medium import MediumPlayer
from .simple import EasyPlayer, RandomPlayer

AGENT_NAMES = ("random", "easy", "medium", "hard")


def make_agent(name: str, seed: int | None = None) -> BusinessmanPlayer:
    """A fresh Businessman player by name (``random`` takes the seed), or the player of a
    Businessman policy checkpoint folder (``CheckpointError`` if it cannot be used)."""
    if name == "random":
        return RandomPlayer(seed)
    if name == "easy":
        return EasyPlayer()
    if name == "medium":
        return MediumPlayer()
    if name == "hard":  # the policy trained by byapar train --game businessman
        return LearnedBusinessmanPlayer(shipped("businessman_hard"), name="hard")
    if isinstance(name, str) and name and Path(name).is_dir():
        return LearnedBusinessmanPlayer(name)
    raise ValueError(f"unknown Businessman player {name!r}: expected one of "
                     f"{', '.join(AGENT_NAMES)} or a checkpoint folder")


__all__ = ["AGENT_NAMES", "BusinessmanPlayer", "EasyPlayer", "LearnedBusinessmanPlayer",
           "MediumPlayer", "RandomPlayer",
           "make_agent", "play_game"]
