"""A game as JSON text and back: an exact round trip, generator state and deck order included.

The fields and how each is written and checked are declared once, in ``state.STATE``, and the
save's header (format, version, board) beside them; ``Game.to_json`` and ``Game.from_json`` read
them there. This module is the saved-game interface for callers outside the engine.
"""

from __future__ import annotations

from .game import Game
from .state import FORMAT, VERSION, load_dict, load_json, save_dict, save_json

__all__ = ["FORMAT", "VERSION", "game_from_dict", "game_from_json", "game_to_dict",
           "game_to_json"]


def game_to_dict(game: Game) -> dict:
    return save_dict(game)


def game_to_json(game: Game) -> str:
    return save_json(game)


def game_from_dict(data: dict) -> Game:
    """A game from ``game_to_dict`` values; GameStateError (naming the field and what is
    allowed) for anything corrupt or saved by another version or board."""
    return load_dict(data, Game.__new__(Game))


def game_from_json(text: str | bytes) -> Game:
    return load_json(text, Game.__new__(Game))
