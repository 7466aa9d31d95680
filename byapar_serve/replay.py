"""Replays: what a table records of its game, and the game played back move by move.

A table keeps a ``GameRecord`` of its game: the saved game it started from and every action
applied since. The engines are exact (the dice and the decks are in the saved game), so
applying the actions again from the start gives every position the table passed through, the
last one equal to the table's game. ``replay_summary`` turns the record into what the page
draws: one frame a move (who moved, what it was, the log lines it wrote, each seat's win
chance after it) and the biggest swings of win chance, each named by its move.

Each game says how to judge a position through the table class: Byapar's win chances come from
the shipped value network (as ``/v1/analyse`` shows them); Businessman has no value network,
so its chances are each seat's share of the table's net worth with its lots' expected rents
(the expert's ``rent_score``), and ``chance_kind`` says which.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from byapar_env.core.errors import GameStateError, IllegalActionError

from .errors import BadSavedGame

MAX_RECORDED_MOVES = 50_000  # far above a 100-round game; a table records no more than this
SWINGS = 5  # the biggest swings marked on a replay
MIN_SWING = 0.05  # a smaller change of a win chance is not named as a swing
MOVE_TEXT_CHARS = 160  # a swing's text, cut to this
ROUND_LINE = re.compile(r"Round \d+$")  # a new round's heading names no move
BATCH = 256  # positions judged together (one forward pass of the value network)


class GameRecord:
    """The saved game a table started from (JSON text) and the actions applied since."""

    def __init__(self, game: Any) -> None:
        self.opening: str = game.to_json()
        self.actions: list = []
        self.complete = True  # False once more than MAX_RECORDED_MOVES were made

    def add(self, action: object) -> None:
        if len(self.actions) < MAX_RECORDED_MOVES:
            self.actions.append(action)
        else:
            self.complete = False

    def __len__(self) -> int:
        return len(self.actions)

    def start(self, game_class: type) -> Any:
        return game_class.from_json(self.opening)

    def position(self, game_class: type, moves: int) -> Any:
        """The game after the first ``moves`` actions."""
        game = self.start(game_class)
        for action in self.actions[:moves]:
            game.apply(action)
        return game


def record_json(record: GameRecord, encode: Callable[[Any], object]) -> dict:
    """The record as a table save carries it: the saved game it began from and every action
    (``encode``: the game's action as JSON)."""
    return {"opening": json.loads(record.opening), "complete": record.complete,
            "actions": [encode(action) for action in record.actions]}


def read_record(data: object, game: Any, decode: Callable[[object, str], Any],
                field: str = "save.record") -> GameRecord:
    """The record of a table save (``record_json``), checked: its actions played from its
    opening must be legal and lead to ``game``, the save's own game (a record cut at its bound
    is checked as far as it goes). ``BadSavedGame`` (or the decoder's ``InvalidInput``)
    naming what is wrong otherwise."""
    if (not isinstance(data, dict) or not isinstance(data.get("opening"), dict)
            or not isinstance(data.get("actions"), list)):
        raise BadSavedGame(f"{field} must be an object with 'opening' (a saved game) and "
                           "'actions' (a list)", field=field)
    actions = data["actions"]
    if len(actions) > MAX_RECORDED_MOVES:
        raise BadSavedGame(f"{field}.actions holds at most {MAX_RECORDED_MOVES:,} moves",
                           field=f"{field}.actions")
    game_class = type(game)
    try:
        record = GameRecord(game_class.from_json(json.dumps(data["opening"])))
    except GameStateError as exc:
        raise BadSavedGame(f"{field}.opening: {type(exc).__name__}: {exc}",
                           field=f"{field}.opening") from None
    replayed = record.start(game_class)
    for k, item in enumerate(actions):
        action = decode(item, f"{field}.actions[{k}]")
        try:
            replayed.apply(action)
        except IllegalActionError as exc:
            raise BadSavedGame(f"{field}.actions[{k}] is not legal there: {exc}",
                               field=f"{field}.actions[{k}]") from None
        record.actions.append(action)
    record.complete = data.get("complete", True) is not False
    if record.complete and replayed.to_json() != game.to_json():
        raise BadSavedGame(f"{field}: its moves do not lead to the saved game", field=field)
    return record


def _rounded(chances: list[float]) -> list[float]:
    return [round(float(c), 4) for c in chances]


def _move_text(action: object, lines: list[str]) -> str:
    """What a move did, as its log says it (the action's own name if it wrote nothing)."""
    # a card's text ends with a full stop: not before the "; " that joins it to the next
    text = "; ".join(line.removesuffix(".") for line in lines if line) or str(action)
    return text if len(text) <= MOVE_TEXT_CHARS else text[:MOVE_TEXT_CHARS - 1] + "…"


def replay_summary(record: GameRecord, game_class: type,
                   chances: Callable[[list[Any]], list[list[float] | None]],
                   chance_kind: str) -> dict:
    """Every move of the record as a frame, with each seat's win chance after it, and the
    ``SWINGS`` moves that changed one seat's chance most (by at least ``MIN_SWING``).
    ``chances`` judges positions in batches; None for a position in the middle of a deal (an
    offer waiting for its answer), which keeps the chances before it: a pending offer is not
    yet a change."""
    game = record.start(game_class)
    first = chances([game])[0]
    start = {"chances": _rounded(first if first is not None else [1.0 / game.num_players]
                                 * game.num_players), "log": list(game.log)}
    frames, positions = [], []
    for n, action in enumerate(record.actions, start=1):
        seat = game.current_player
        written = len(game.log)
        game.apply(action)
        frames.append({"n": n, "seat": seat, "action": str(action),
                       "log": game.log[written:], "round": game.round})
        positions.append(game.clone())
        if len(positions) == BATCH or n == len(record.actions):
            for frame, judged in zip(frames[-len(positions):], chances(positions), strict=True):
                frame["chances"] = None if judged is None else _rounded(judged)
            positions = []
    before = start["chances"]
    swings = []
    pending: list[str] = []  # the log of a deal's moves so far (its answer names no terms)
    for frame in frames:
        if frame["chances"] is None:
            frame["chances"] = before
            pending += frame["log"]
            continue
        deltas = [a - b for a, b in zip(frame["chances"], before, strict=True)]
        moved = max(range(len(deltas)), key=lambda s: abs(deltas[s]))
        if abs(deltas[moved]) >= MIN_SWING:
            lines = [x for x in pending + frame["log"] if not ROUND_LINE.match(x)]
            swings.append({"n": frame["n"], "seat": moved, "points": round(deltas[moved] * 100),
                           "text": _move_text(frame["action"], lines), "lines": lines})
        before = frame["chances"]
        pending = []
    swings.sort(key=lambda s: -abs(s["points"]))
    return {"moves": len(frames), "complete": record.complete, "chance_kind": chance_kind,
            "start": start, "frames": frames,
            "swings": sorted(swings[:SWINGS], key=lambda s: s["n"])}
