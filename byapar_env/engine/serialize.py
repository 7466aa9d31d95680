"""A game as JSON text and back: an exact round trip, generator state and deck order included.

The fields and how each is written and checked are declared once, in ``state.STATE``, and the
save's header (format, version, board) beside them; ``Game.to_json`` and ``Game.from_json`` read
them there. This module is the saved-game interface for callers outside the engine.
"""

from __future__ import annotations

from .game import Game
from .state import FORMAT, VERSION, load_dict, save_dict, save_json

__all__ = ["FORMAT", "VERSION", "check_money", "game_from_dict", "game_from_json",
           "game_to_dict", "game_to_json"]


def game_to_dict(game: Game) -> dict:
    """The game as JSON values (``game_from_dict`` reads them back) of the caller's own: no list
    or dict in it is the game's, so a kept copy does not change as play goes on, and changing it
    changes nothing in the game."""
    return _copied(save_dict(game))


def _copied(value: object) -> object:
    if isinstance(value, list):
        return [_copied(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_copied(v) for v in value)
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    return value


def game_to_json(game: Game) -> str:
    return save_json(game)


def check_money(game: Game) -> None:
    """``UnbalancedMoneyError`` (a ``GameStateError``) unless the seats' cash is what play can
    make of it (``Game.check_loaded``)."""
    game.check_loaded()


def game_from_dict(data: dict) -> Game:
    """A game from ``game_to_dict`` values; GameStateError (naming the field and what is
    allowed) for anything corrupt or saved by another version or board, and
    ``UnbalancedMoneyError`` for money that does not add up (``check_money``)."""
    game = load_dict(data, Game.__new__(Game))
    check_money(game)
    return game


def game_from_json(text: str | bytes) -> Game:
    """As ``game_from_dict``, from ``game_to_json`` text."""
    return Game.from_json(text)
