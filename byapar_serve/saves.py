"""Saved games in, checked; and the table save file (seats plus the engine's saved game).

A saved game is checked by the engine's schema alone (``engine.state.load_dict``, through
``serialize.game_from_dict``: every field, what holds between fields, and the money), which
refuses a damaged or foreign save with ``GameStateError``. What the server adds are its own size
limits (``limits``: the rounds and the starting cash it plays), and the table save's own fields.
"""

from __future__ import annotations

from byapar_env.engine import Game, GameStateError
from byapar_env.engine.serialize import game_from_dict, game_from_json
from byapar_harness.analyse import TABLE_FORMAT

from .errors import BadSavedGame
from .limits import MAX_ROUNDS, MAX_STARTING_CASH

TABLE_VERSION = 1
# A table save's count of pre-roll actions: a whole number up to this (a size limit only).
MAX_PRE_ROLL_COUNT = 10**6


def load_game(data: object, field: str = "game") -> Game:
    """The game in ``data`` (the engine's saved game as a JSON object, or its text), checked;
    ``BadSavedGame`` with the engine's typed message otherwise."""
    try:
        game = game_from_json(data) if isinstance(data, str) else game_from_dict(data)
    except GameStateError as exc:
        raise BadSavedGame(f"{field}: {type(exc).__name__}: {exc}", field=field) from None
    rules = game.rules
    if (rules.rounds is not None and rules.rounds > MAX_ROUNDS) or (
            rules.starting_cash > MAX_STARTING_CASH):
        raise BadSavedGame(f"{field}: this server plays at most {MAX_ROUNDS} rounds and a "
                           f"starting cash of at most {MAX_STARTING_CASH:,}", field=field)
    return game


def table_save(seats: list[str], game: Game, pre_roll_actions: int,
               hide_chance: bool = False) -> dict:
    """A table as a file: who sits where, the pre-roll count, and the engine's saved game
    (with ``hide_chance``, its dice generator and deck order drawn afresh: ``game_snapshot``)."""
    from .state import game_snapshot

    return {"format": TABLE_FORMAT, "version": TABLE_VERSION, "seats": list(seats),
            "pre_roll_actions": pre_roll_actions, "game": game_snapshot(game, hide_chance)}


def read_table_save(data: dict, field: str = "save") -> tuple[list, Game, int]:
    """Seats (unchecked names), game and pre-roll count from a table save."""
    if data.get("format") != TABLE_FORMAT or data.get("version") != TABLE_VERSION:
        raise BadSavedGame(f"{field}: not a table save (format {TABLE_FORMAT!r}, version "
                           f"{TABLE_VERSION}); a bare saved game goes in 'game' with 'seats'",
                           field=f"{field}.format")
    seats = data.get("seats")
    if not isinstance(seats, list):
        raise BadSavedGame(f"{field}.seats must be a list of player names", field=f"{field}.seats")
    pre_roll = data.get("pre_roll_actions", 0)
    if type(pre_roll) is not int or not 0 <= pre_roll <= MAX_PRE_ROLL_COUNT:
        raise BadSavedGame(f"{field}.pre_roll_actions must be a whole number from 0",
                           field=f"{field}.pre_roll_actions")
    return seats, load_game(data.get("game"), f"{field}.game"), pre_roll
