"""Tables: one game each, its seats (people or computer players), and a lock; and the store
that holds at most ``MAX_TABLES`` of them.

Every request on a table runs under that table's own lock, so two requests on one table never
interleave and a request on one table never waits for another table. The store's lock guards
only its dictionary, for microseconds.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from byapar_env.engine import Action, Game, IllegalActionError, Phase

from .decide import Decision, decide, id_of, steps_of
from .errors import NotFound, TableBusy, TooManyTables
from .limits import ADVANCE_BUDGET_S, IDLE_EVICT_S, LOCK_WAIT_S, MAX_TABLES
from .roster import PERSON, Roster


class Table:
    """A game and who plays each seat. Use it only inside ``with table.locked():``."""

    def __init__(self, table_id: str, seats: list[str], game: Game, roster: Roster,
                 seed: int = 0, pre_roll_actions: int = 0) -> None:
        self.id = table_id
        self.seats = list(seats)
        self.game = game
        self.players = [None if name == PERSON else roster.make(name, seed + s)
                        for s, name in enumerate(seats)]
        for s, player in enumerate(self.players):
            # Fresh players with a memory (the offers a medium player tried) start clean and
            # seeded, as in the arena; shared learned players have no memory to reset.
            if player is not None and hasattr(player, "reset"):
                player.reset(seed + s)
        self._lock = threading.Lock()
        self.last_used = time.monotonic()
        self._stamp = game.turn_count
        self._pre_roll = pre_roll_actions
        self.moves = 0  # actions applied since the table was made: a version for clients

    @contextmanager
    def locked(self) -> Iterator[Table]:
        if not self._lock.acquire(timeout=LOCK_WAIT_S):
            raise TableBusy(f"table {self.id} is busy with another request; try again")
        try:
            yield self
        finally:
            self.last_used = time.monotonic()
            self._lock.release()

    @property
    def pre_roll_actions(self) -> int:
        """Actions taken before rolling in the current turn (the environment's cap applies)."""
        if self.game.turn_count != self._stamp:
            self._stamp, self._pre_roll = self.game.turn_count, 0
        return self._pre_roll

    def to_move(self) -> str | None:
        """Who decides now: "person", "computer", or None once the game is over."""
        if self.game.is_over:
            return None
        return PERSON if self.players[self.game.current_player] is None else "computer"

    def apply(self, action: Action, steps: int = 1) -> None:
        """Apply a checked action (``IllegalActionError`` from the engine changes nothing)."""
        pre_roll = self.pre_roll_actions
        pre_roll_phase = self.game.phase == Phase.PRE_ROLL
        self.game.apply(action)
        self.moves += 1
        if self.game.turn_count == self._stamp and pre_roll_phase:
            self._pre_roll = pre_roll + steps

    def advance(self, max_decisions: int, budget_s: float = ADVANCE_BUDGET_S,
                clock: Callable[[], float] = time.perf_counter) -> list[dict]:
        """Play computer seats until a person must decide, the game ends, ``max_decisions``
        have been made or ``budget_s`` has passed. Returns the moves made."""
        moves: list[dict] = []
        start = clock()
        while (len(moves) < max_decisions and self.to_move() == "computer"
               and clock() - start < budget_s):
            game = self.game
            seat = game.current_player
            d = decide(self.players[seat], game, self.pre_roll_actions)
            try:
                self.apply(d.action, d.steps)
            except IllegalActionError:
                # decide() checks every answer, so this is a player bug: roll or take the first
                # legal action rather than stall the table.
                action = game.legal_actions()[0]
                self.apply(action, steps_of(game, action))
                d = Decision(action, id_of(game, action), 1)
            moves.append({"seat": seat, "player": self.seats[seat], "text": str(d.action),
                          "id": d.id})
        return moves


class TableStore:
    """At most ``max_tables`` tables by id. At the limit, the least recently used table goes if
    it has been idle ``idle_evict_s``; otherwise a new table is refused (429)."""

    def __init__(self, max_tables: int = MAX_TABLES, idle_evict_s: float = IDLE_EVICT_S) -> None:
        self.max_tables = max_tables
        self.idle_evict_s = idle_evict_s
        self._tables: OrderedDict[str, Table] = OrderedDict()
        self._lock = threading.Lock()

    @staticmethod
    def new_id() -> str:
        return secrets.token_hex(8)

    def add(self, table: Table) -> None:
        with self._lock:
            if len(self._tables) >= self.max_tables:
                oldest_id, oldest = next(iter(self._tables.items()))
                idle = time.monotonic() - oldest.last_used
                if idle < self.idle_evict_s:
                    raise TooManyTables(
                        f"this server holds at most {self.max_tables} tables and none has been "
                        f"idle {self.idle_evict_s:g} s; delete one (DELETE /v1/tables/ID) or try "
                        "later")
                del self._tables[oldest_id]
            self._tables[table.id] = table

    def get(self, table_id: str) -> Table:
        with self._lock:
            table = self._tables.get(table_id)
            if table is None:
                raise NotFound(f"no table {table_id[:40]!r} (tables are evicted when idle long "
                               "and the server is full, and lost when it restarts)",
                               field="table_id")
            self._tables.move_to_end(table_id)  # most recently used last
            return table

    def remove(self, table_id: str) -> None:
        with self._lock:
            if self._tables.pop(table_id, None) is None:
                raise NotFound(f"no table {table_id[:40]!r}", field="table_id")

    def __len__(self) -> int:
        return len(self._tables)
