"""One table design for every game (issue 40): ``TableBase`` holds the one move loop
(``advance``: computer seats play until a person must act, the game ends, the count or the time
budget is spent), a person's action (``act``) and applying an action (``apply``: the record for
replays and the version); each game's table class gives only its own parts, as hooks.

The loop's rules are checked here on a game made for it, so that they hold for any game: a
game of saying numbers, which the engine refuses to say 13."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from byapar_env.core.errors import IllegalActionError
from byapar_env.games import available_games
from byapar_serve.api_tables import TABLE_KINDS
from byapar_serve.businessman import BusinessmanTable
from byapar_serve.decide import Decision
from byapar_serve.errors import Conflict, IllegalAction, ServerBusy
from byapar_serve.slow import SlowPool
from byapar_serve.tables import Table, TableBase

SHARED = ("apply", "act", "advance", "viewer_among")  # TableBase's, for every game
HOOKS = ("apply_to_game", "resolve", "computer_decision", "unstick", "read_save", "load_game",
         "new_game", "make_player", "state_view", "save_data")  # each game's own


def test_the_api_asks_the_table_and_never_its_class() -> None:
    """The routes build states and saves through the hooks: no check of a table's class is
    left in them but the one feature a single game has (mutes, Byapar's)."""
    import ast
    import inspect

    import byapar_serve.api_replays
    import byapar_serve.api_tables

    for module in (byapar_serve.api_tables, byapar_serve.api_replays):
        checks = [ast.unparse(node) for node in ast.walk(ast.parse(inspect.getsource(module)))
                  if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "isinstance"
                  and "table" in ast.unparse(node.args[0]).lower()]
        assert checks == (["isinstance(table, Table)"] if module is byapar_serve.api_tables
                          else []), module.__name__


def test_both_games_play_through_table_base_and_neither_has_a_loop_of_its_own() -> None:
    assert {"byapar": Table, "businessman": BusinessmanTable} == TABLE_KINDS
    assert sorted(TABLE_KINDS) == sorted(available_games())
    for kind in TABLE_KINDS.values():
        assert [name for name in SHARED if name in vars(kind)] == [], kind.__name__
        assert all(getattr(kind, name) is getattr(TableBase, name) for name in SHARED)
        assert [name for name in HOOKS if name not in vars(kind)] == [], kind.__name__


class Numbers:
    """Seats take turns to say a number; the game is over after ``length`` numbers."""

    def __init__(self, num_players: int, length: int) -> None:
        self.num_players = num_players
        self.length = length
        self.said: list[int] = []

    @property
    def current_player(self) -> int:
        return len(self.said) % self.num_players

    @property
    def is_over(self) -> bool:
        return len(self.said) >= self.length

    def to_json(self) -> str:
        return "{}"

    def apply(self, number: int) -> None:
        if number == 13:
            raise IllegalActionError("13 is not said")
        self.said.append(number)


class NumbersTable(TableBase):
    """A table of ``Numbers``: a computer seat says the next of ``answers`` (an exception in
    it is raised as the seat decides); a refused number is replaced by 0."""

    game_name = "numbers"

    def __init__(self, seats: list[str], length: int, answers: list) -> None:
        super().__init__("t", seats, Numbers(len(seats), length))
        self.players = [None if name == "person" else name for name in seats]
        self.answers: Iterator = iter(answers)
        self.steps: list[int] = []

    def apply_to_game(self, action: int, steps: int) -> None:
        self.game.apply(action)
        self.steps.append(steps)

    def resolve(self, request: dict) -> int:
        return request["id"]

    def steps_of(self, action: int) -> int:
        return 2

    def computer_decision(self, left_s: Callable[[], float], slow: SlowPool | None
                          ) -> Decision:
        answer = next(self.answers)
        if isinstance(answer, Exception):
            raise answer
        return Decision(answer, answer + 100, 1)

    def unstick(self) -> Decision:
        self.apply(0)
        return Decision(0, None, 1)


def test_computer_seats_play_until_a_person_must_act_each_move_recorded() -> None:
    table = NumbersTable(["easy", "hard", "person"], 10, [5, 7, 9])
    moves = table.advance(10)
    assert moves == [{"seat": 0, "player": "easy", "text": "5", "id": 105},
                     {"seat": 1, "player": "hard", "text": "7", "id": 107}]
    assert table.game.said == [5, 7] and table.version == 2 and table.record.actions == [5, 7]
    assert table.to_move() == "person" and table.advance(10) == []


def test_the_loop_stops_at_the_count_the_budget_and_the_end_of_the_game() -> None:
    table = NumbersTable(["easy", "hard"], 10, list(range(20, 40)))
    assert len(table.advance(3)) == 3 and table.version == 3
    ticks = iter(range(100))
    # A clock that moves a second a reading: the start, then one reading before each move.
    assert len(table.advance(100, budget_s=4.0, clock=lambda: next(ticks))) == 3
    assert next(ticks) == 5 and table.version == 6  # 4 s had passed at the fifth reading
    assert len(table.advance(100)) == 4 and table.game.is_over and table.version == 10
    assert table.to_move() is None and table.advance(100) == []


def test_a_number_the_engine_refuses_is_replaced_and_only_what_was_said_is_counted() -> None:
    table = NumbersTable(["easy", "hard"], 10, [13, 4])
    moves = table.advance(2)
    assert moves == [{"seat": 0, "player": "easy", "text": "0", "id": None},
                     {"seat": 1, "player": "hard", "text": "4", "id": 104}]
    assert table.game.said == [0, 4] and table.record.actions == [0, 4] and table.version == 2


def test_a_busy_pool_keeps_the_moves_made_and_refuses_an_advance_with_none() -> None:
    table = NumbersTable(["easy", "hard"], 10, [6, ServerBusy("no room"), ServerBusy("none")])
    assert table.advance(5) == [{"seat": 0, "player": "easy", "text": "6", "id": 106}]
    with pytest.raises(ServerBusy, match="none"):
        table.advance(5)
    assert table.game.said == [6] and table.version == 1


def test_a_persons_action_is_checked_then_applied_with_its_steps() -> None:
    table = NumbersTable(["person", "easy"], 3, [1])
    with pytest.raises(Conflict, match="^seat 0 decides now, not seat 1$"):
        table.act({"id": 3, "seat": 1})
    with pytest.raises(IllegalAction, match="^13 is not said$") as refused:
        table.act({"id": 13})
    assert refused.value.field == "action" and table.version == 0 and table.steps == []
    table.act({"id": 3, "seat": 0})
    assert table.game.said == [3] and table.steps == [2] and table.version == 1
    with pytest.raises(Conflict, match=r"^seat 1 is played by the computer \(easy\); POST "):
        table.act({"id": 4})
    table.advance(1)
    table.act({"id": 8})
    with pytest.raises(Conflict, match="^the game is over; create a new table"):
        table.act({"id": 9})
    assert table.game.said == [3, 1, 8] and table.record.actions == [3, 1, 8]
