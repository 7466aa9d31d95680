"""A game as JSON text and back: an exact round trip, generator state and deck order included.

The fields and how each is written and checked are declared once, in ``state.STATE``; this
module adds the header (format, version, board) and the JSON text.
"""

from __future__ import annotations

import json

from . import board as B
from .errors import GameStateError, show
from .game import Game
from .state import PREFIX, SAVED, state_from_dict, state_to_dict

FORMAT = "byapar-game"
VERSION = 1
_HEADER = ("format", "version", "board")
_KEYS = frozenset(_HEADER + SAVED)


def game_to_dict(game: Game) -> dict:
    data = {"format": FORMAT, "version": VERSION, "board": B.BOARD_HASH}
    data.update(state_to_dict(game))
    return data


def game_to_json(game: Game) -> str:
    return json.dumps(game_to_dict(game), separators=(",", ":"))


def game_from_dict(data: dict) -> Game:
    """A game from ``game_to_dict`` values; GameStateError (naming the field and what is
    allowed) for anything corrupt or saved by another version or board."""
    if type(data) is not dict or data.get("format") != FORMAT:
        raise GameStateError(f"not a saved Byapar game (expected format {FORMAT!r})")
    if type(data.get("version")) is not int or data.get("version") != VERSION:
        raise GameStateError(
            f"saved game version {show(data.get('version'))} is not supported; this engine "
            f"reads version {VERSION}")
    if data.get("board") != B.BOARD_HASH:
        raise GameStateError(
            f"saved game was played on board {show(data.get('board'))}, this engine has board "
            f"{B.BOARD_HASH!r}")
    unknown = set(data) - _KEYS
    if unknown:
        raise GameStateError(
            f"{PREFIX}: unknown fields {show(sorted(unknown))}; a version {VERSION} save has "
            f"exactly {sorted(_KEYS)}")
    try:
        return state_from_dict(data)
    except GameStateError:
        raise
    except (LookupError, TypeError, ValueError, ArithmeticError, RecursionError) as exc:
        # A safety net: every field is checked before use, so this names a gap in the checks
        # rather than an expected path. The save is refused all the same, with its cause.
        raise GameStateError(f"{PREFIX}: {type(exc).__name__}: {show(str(exc))}") from exc


def game_from_json(text: str | bytes) -> Game:
    try:
        data = json.loads(text)
    except RecursionError:  # nesting deeper than the decoder's stack
        raise GameStateError("saved game is not valid JSON: nested too deeply") from None
    except (TypeError, ValueError) as exc:
        raise GameStateError(f"saved game is not valid JSON: {exc}") from exc
    return game_from_dict(data)
