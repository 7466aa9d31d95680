"""Tables: one game each (Byapar here; Businessman in ``businessman.py``), its seats (people or
computer players), and a lock; and the store that holds at most ``MAX_TABLES`` of them.

Both games' tables play through ``TableBase``: one move loop (``advance``: computer seats play
until a person must act), one check of a person's action (``act``) and one ``apply`` (the
record for replays, the version). Each game's table class gives only its own parts, as hooks:
how a computer seat decides, how a request names an action, what its engine's apply keeps
count of, and how its saves and new games are read and made.

Every request on a table runs under that table's own lock, so two requests on one table never
interleave and a request on one table never waits for another table. The store's lock guards
only its dictionary, for microseconds.

A table's ``version`` goes up by one with every change (each action applied, each mute), so a
client that names the version it chose an action in can never have it applied twice; the
answers to the last few requests that carried an idempotency key are kept (bounded by count
and bytes) and sent again for a repeated key. Computer seats' trade offers to people pass
``offer_refusal``: at most one a turn to each person, none that asks something for nothing,
none from a seat the person muted, and never again an offer the person refused while the
places it touches stand as they did (their owners, buildings and mortgages:
``byapar_agents.deals.offer_key``), in any later turn.
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import secrets
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

from byapar_agents import ExpertPlayer, LearnedPlayer, NumpyPolicy
from byapar_agents.businessman import LearnedBusinessmanPlayer
from byapar_agents.deals import offer_key
from byapar_agents.value import ValueNet, shipped_value
from byapar_env.driver import legal_engine_actions
from byapar_env.engine import (
    Action,
    ActionKind,
    Game,
    IllegalActionError,
    Phase,
    Rules,
    RulesError,
)
from byapar_env.engine.serialize import game_to_dict
from byapar_env.habits import Habits

from . import legal, saves
from .codec import action_from_json, action_to_json
from .database import Database, VersionTaken
from .decide import Decision, decide, fallback, id_of, steps_of
from .errors import (
    Conflict,
    IllegalAction,
    InvalidInput,
    NotFound,
    ReplayUnavailable,
    SeatSecretRequired,
    ServerBusy,
    StaleVersion,
    TableBusy,
    TooManyTables,
)
from .limits import (
    ADVANCE_BUDGET_S,
    IDLE_EVICT_S,
    LOCK_WAIT_S,
    MAX_REFUSALS,
    MAX_REPLAY_BYTES,
    MAX_REPLAY_KEYS,
    MAX_ROUNDS,
    MAX_STARTING_CASH,
    MAX_TABLE_QUEUE,
    MAX_TABLES,
)
from .replay import GameRecord, read_record, record_json, replay_summary
from .roster import PERSON, Roster
from .schemas import RulesIn
from .slow import ANSWER_BY_SHARE, KEEP_IN_WORKER, Late, SlowPool, expert_job, expert_state
from .state import table_state

# What a computer seat's snapshot leaves out: the networks a player shares with every table
# (made again on loading), the expert's last search and its timing.
_SHARED_TYPES = (LearnedPlayer, NumpyPolicy, ValueNet, LearnedBusinessmanPlayer)


def player_memory(player: object) -> dict:
    """A computer seat's memory of its game (its generators, the offers it tried, its plans):
    every attribute but the networks and the search's working state."""
    return {k: v for k, v in vars(player).items()
            if k not in KEEP_IN_WORKER and not isinstance(v, _SHARED_TYPES)}


SPECTATOR = -1  # the seat a spectator's secret names
SECRET_BYTES = 18  # a secret's random bytes (24 characters of base64)
MAX_SECRETS = 8  # secrets one request may carry (six seats and a spectator's, and spare)


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


def unwanted(offer: Action) -> bool:
    """Whether the offer asks its target for something (a place or money) and gives nothing
    back: no person can want it."""
    asks = bool(offer.take) or offer.amount < 0
    gives = bool(offer.give) or offer.amount > 0
    return asks and not gives


def make_rules(rules: RulesIn | None, num_players: int) -> Rules:
    """Byapar's options from a create request's ``rules``: ``rounds``, ``starting_cash`` and
    ``auctions``; Businessman's ``abroad`` is refused."""
    rules = rules or RulesIn()
    if rules.rounds is not None and not 1 <= rules.rounds <= MAX_ROUNDS:
        raise InvalidInput(f"rules.rounds must be null (until one player is left) or a whole "
                           f"number from 1 to {MAX_ROUNDS}", field="rules.rounds")
    if rules.abroad is not None:
        raise InvalidInput("rules.abroad is an option of Businessman tables", field="rules.abroad")
    if not 0 < rules.starting_cash <= MAX_STARTING_CASH:
        raise InvalidInput(f"rules.starting_cash must be a positive multiple of 100 up to "
                           f"{MAX_STARTING_CASH:,}", field="rules.starting_cash")
    try:
        return Rules(num_players=num_players, rounds=rules.rounds,
                     starting_cash=rules.starting_cash, auctions=rules.auctions)
    except RulesError as exc:
        key = str(exc).split(" ", 1)[0]  # the engine's messages start with the option's name
        field = "seats" if key == "num_players" else f"rules.{key}"
        raise InvalidInput(f"{field}: {exc}", field=field) from None



class TableBase:
    """What every table has, whichever game it plays: an id, its seats, a lock and a queue,
    a version and the answers kept for idempotency keys. Use it only inside
    ``with table.locked():``."""

    game_name = ""  # "byapar" or "businessman"

    def __init__(self, table_id: str, seats: list[str], game: Any, seed: int = 0) -> None:
        self.id = table_id
        self.seats = list(seats)
        self.game = game
        self.seed = seed  # seat s's computer player was made and reset with seed + s
        self._lock = threading.Lock()
        # The queue's lock, one per event loop (a server has one; a test client may start
        # several), made in that loop; the thread lock below still keeps requests apart.
        self._queue_locks: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._waiting = 0  # requests queued for this table (read and changed in the loop)
        self.last_used = time.monotonic()
        self.version = 0  # changes made since the table was made (actions applied, mutes)
        # sha256 of each seat's secret -> the seat (-1: a spectator's); see issue_secrets
        self.secret_hashes: dict[str, int] = {}
        # Idempotency key -> (the request's fingerprint, the answer's bytes); oldest first.
        self._replies: OrderedDict[str, tuple[str, bytes]] = OrderedDict()
        self._reply_bytes = 0
        self.players: list = []
        self.record: GameRecord | None = GameRecord(game)  # None: made before replays
        self._replay: tuple[int, dict] | None = None  # (version, replay_summary) last made

    # ------------------------------------------------------------------ seats' secrets
    def issue_secrets(self) -> dict:
        """New secrets: one for each person seat and one for spectators, handed out once (the
        table keeps only their hashes). A request names its seats by them."""
        seats = {str(s): secrets.token_urlsafe(SECRET_BYTES)
                 for s, p in enumerate(self.players) if p is None}
        spectator = secrets.token_urlsafe(SECRET_BYTES)
        self.secret_hashes = {_digest(v): int(s) for s, v in seats.items()}
        self.secret_hashes[_digest(spectator)] = SPECTATOR
        return {"seats": seats, "spectator": spectator}

    def holders(self, header: str | None) -> set[int]:
        """The seats (``SPECTATOR`` for a spectator) whose secrets ``header`` carries: one
        secret, or several separated by commas (a page that seats several people)."""
        if not header:
            return set()
        held = (self.secret_hashes.get(_digest(part.strip()))
                for part in header.split(",")[:MAX_SECRETS])
        return {seat for seat in held if seat is not None}

    # ------------------------------------------------------------------ snapshots
    def __getstate__(self) -> dict:
        """The table as a database keeps it (``byapar_serve/database.py``): everything but its
        locks,
        its queue and the answers kept in memory (the database keeps its own); each computer
        seat as its name and its memory of the game (``player_memory``), the networks left out
        (``restore_players`` makes them again)."""
        state = {k: v for k, v in vars(self).items()
                 if k not in ("_lock", "_queue_locks", "_waiting", "_replies", "_reply_bytes",
                              "_replay")}
        # a person: None; a shared learned player: no memory to keep
        state["players"] = [None if p is None else {} if isinstance(p, _SHARED_TYPES)
                            else player_memory(p) for p in self.players]
        return state

    def __setstate__(self, state: dict) -> None:
        vars(self).update(state)
        self.__dict__.setdefault("record", None)  # a snapshot from before replays
        self._replay = None
        self._lock = threading.Lock()
        self._queue_locks = weakref.WeakKeyDictionary()
        self._waiting = 0
        self._replies = OrderedDict()
        self._reply_bytes = 0
        self.last_used = time.monotonic()
        self._memories = state["players"]
        self.players = []

    def restore_players(self, roster: Roster) -> None:
        """After loading from a snapshot: each computer seat made again as at the table's
        creation, then given back its memory of the game."""
        memories = self.__dict__.pop("_memories")
        self.players = []
        for s, (name, memory) in enumerate(zip(self.seats, memories, strict=True)):
            player = None if memory is None else self.make_player(roster, name, self.seed + s)
            if player is not None:  # a shared learned player's memory is empty
                vars(player).update(memory)
            self.players.append(player)

    def make_player(self, roster: Roster, name: str, seed: int) -> object:
        """A computer player of this table's game for one seat."""
        raise NotImplementedError

    # ------------------------------------------------------------------ games to seat
    @staticmethod
    def read_save(data: dict) -> tuple[list, Any, dict]:
        """Seats (names not yet checked), game and the table's other arguments from a table
        save of this game (``GET .../save``); ``BadSavedGame`` naming the field otherwise."""
        raise NotImplementedError

    @staticmethod
    def load_game(data: object, field: str) -> Any:
        """The engine's saved game of this game in ``data``, checked; ``BadSavedGame``."""
        raise NotImplementedError

    @staticmethod
    def new_game(rules: RulesIn | None, num_players: int, seed: int) -> Any:
        """A new game with a create request's ``rules``; ``InvalidInput`` naming the option."""
        raise NotImplementedError

    # ------------------------------------------------------------------ replays
    chance_kind = ""  # what ``win_chances`` reads a position by, as a replay says it

    def win_chances(self, games: list) -> list[list[float] | None]:
        """Each seat's chance of winning each of ``games`` (positions of this table's game);
        None for a position with an offer waiting for its answer."""
        raise NotImplementedError

    def replay_summary(self) -> dict:
        """The game so far move by move (``replay.replay_summary``), made once a version."""
        if self.record is None:
            raise ReplayUnavailable("this table was made before this server recorded games: "
                                    "it has no replay", field="table_id")
        if self._replay is None or self._replay[0] != self.version:
            summary = replay_summary(self.record, type(self.game), self.win_chances,
                                     self.chance_kind)
            self._replay = (self.version, summary)
        return self._replay[1]

    def encode_action(self, action: Any) -> object:
        """One of this game's actions as JSON (in a table save's record)."""
        raise NotImplementedError

    def decode_action(self, data: object, field: str) -> Any:
        """``encode_action``'s inverse; ``InvalidInput`` naming ``field`` for bad data."""
        raise NotImplementedError

    def saved_record(self) -> dict | None:
        """The record as a table save carries it (None for a table without one)."""
        return None if self.record is None else record_json(self.record, self.encode_action)

    def adopt_record(self, data: object, field: str = "save.record") -> None:
        """A table save's record for this table, made from that save: checked to lead to this
        table's game (``replay.read_record``)."""
        self.record = read_record(data, self.game, self.decode_action, field)
        self._replay = None

    def position_after(self, moves: int) -> TableBase:
        """A copy of this table that shows its game after its first ``moves`` actions (its
        version is ``moves``); the copy shares everything else and must not be played."""
        if self.record is None:
            raise ReplayUnavailable("this table was made before this server recorded games: "
                                    "it has no replay", field="table_id")
        view = object.__new__(type(self))
        view.__dict__.update(self.__dict__)
        view.game = self.record.position(type(self.game), moves)
        view.version = moves
        return view

    @asynccontextmanager
    async def queued(self) -> AsyncIterator[TableBase]:
        """Wait for this table's turn without holding a thread (requests on one table queue
        here, in the event loop, so a busy table never ties up the shared thread pool): at
        most ``MAX_TABLE_QUEUE`` waiting, each at most ``LOCK_WAIT_S``; ``TableBusy`` (503)
        otherwise."""
        loop = asyncio.get_running_loop()
        lock = self._queue_locks.get(loop)
        if lock is None:
            lock = self._queue_locks[loop] = asyncio.Lock()
        if self._waiting >= MAX_TABLE_QUEUE:
            raise TableBusy(f"table {self.id} has {self._waiting} requests waiting; try again")
        self._waiting += 1
        try:
            await asyncio.wait_for(lock.acquire(), LOCK_WAIT_S)
        except TimeoutError:
            raise TableBusy(f"table {self.id} is busy with another request; try again") from None
        finally:
            self._waiting -= 1
        try:
            yield self
        finally:
            lock.release()

    @contextmanager
    def locked(self) -> Iterator[TableBase]:
        if not self._lock.acquire(timeout=LOCK_WAIT_S):
            raise TableBusy(f"table {self.id} is busy with another request; try again")
        try:
            yield self
        finally:
            self.last_used = time.monotonic()
            self._lock.release()

    def to_move(self) -> str | None:
        """Who decides now: "person", "computer", or None once the game is over."""
        if self.game.is_over:
            return None
        return PERSON if self.players[self.game.current_player] is None else "computer"

    def check_version(self, version: int | None, field: str = "version") -> None:
        """``StaleVersion`` (409) unless ``version`` is None or the table's version now."""
        if version is not None and version != self.version:
            raise StaleVersion(
                f"{field} {version} is not the table's version now ({self.version}): the "
                "table has changed since; read it again (GET /v1/tables/ID) and choose anew",
                field=field, version=self.version)

    def replay(self, key: str | None, fingerprint: str) -> bytes | None:
        """The answer already sent for idempotency key ``key``, or None if it is new.
        ``Conflict`` if the key came with a different request."""
        if key is None or key not in self._replies:
            return None
        seen, body = self._replies[key]
        if seen != fingerprint:
            raise Conflict("idempotency_key was already used on this table for a different "
                           "request; use a new key for each new action",
                           field="idempotency_key")
        return body

    def remember(self, key: str | None, fingerprint: str, body: bytes) -> None:
        """Keep the answer to a request with an idempotency key: the last ``MAX_REPLAY_KEYS``
        keys, and no more than ``MAX_REPLAY_BYTES`` of answers (the newest is always kept)."""
        if key is None:
            return
        old = self._replies.pop(key, None)
        if old is not None:
            self._reply_bytes -= len(old[1])
        self._replies[key] = (fingerprint, body)
        self._reply_bytes += len(body)
        while len(self._replies) > 1 and (len(self._replies) > MAX_REPLAY_KEYS
                                          or self._reply_bytes > MAX_REPLAY_BYTES):
            _, (_, dropped) = self._replies.popitem(last=False)
            self._reply_bytes -= len(dropped)

    def changed(self) -> None:
        """Count a change of the table that is not an action (a mute)."""
        self.version += 1

    # ------------------------------------------------------------------ play, both games
    def apply(self, action: Any, steps: int = 1) -> None:
        """Apply a checked action (``IllegalActionError`` from the engine changes nothing):
        the game's own bookkeeping and the engine (``apply_to_game``), then the record of
        actions for replays and the version. ``steps``: the pre-roll steps it counts for."""
        self.apply_to_game(action, steps)
        if self.record is not None:
            self.record.add(action)
        self.version += 1

    def act(self, request: dict) -> None:
        """A person's action (an apply request's fields), checked and applied: ``Conflict``
        (409) once the game is over, for another seat or a computer seat's turn; the game's
        ``resolve`` (422 for an action not legal now); the engine's refusal as
        ``IllegalAction``."""
        game = self.game
        if game.is_over:
            raise Conflict("the game is over; create a new table to play again",
                           field="table_id")
        seat = game.current_player
        wanted = request.get("seat")
        if wanted is not None and wanted != seat:
            raise Conflict(f"seat {seat} decides now, not seat {wanted}", field="seat")
        if self.players[seat] is not None:
            raise Conflict(f"seat {seat} is played by the computer ({self.seats[seat]}); "
                           "POST /v1/tables/ID/advance lets it move", field="seat")
        action = self.resolve(request)
        try:
            self.apply(action, self.steps_of(action))
        except IllegalActionError as exc:  # the engine's last word; nothing changed
            raise IllegalAction(str(exc), field="action") from None

    def advance(self, max_decisions: int, budget_s: float = ADVANCE_BUDGET_S,
                clock: Callable[[], float] = time.perf_counter,
                slow: SlowPool | None = None) -> list[dict]:
        """Play computer seats until a person must decide, the game ends, ``max_decisions``
        have been made or ``budget_s`` has passed (a seated expert's search stops by then too;
        with ``slow`` it searches there, off this thread). Returns the moves made."""
        moves: list[dict] = []
        start = clock()

        def left_s() -> float:  # read only by an expert's search, when it starts
            return budget_s - (clock() - start)

        while (len(moves) < max_decisions and self.to_move() == "computer"
               and clock() - start < budget_s):
            seat = self.game.current_player
            try:
                decision = self.computer_decision(left_s, slow)
            except ServerBusy:
                if moves:
                    break  # the moves made stand; the next advance goes on
                raise
            try:
                self.apply(decision.action, decision.steps)
            except IllegalActionError:
                # computer_decision checks every answer, so this is a player bug: the seat
                # takes a legal action rather than stall the table.
                decision = self.unstick()
            moves.append(self.public_move(seat, decision))
        return moves

    # ------------------------------------------------------------------ each game's part
    def apply_to_game(self, action: Any, steps: int) -> None:
        """Apply ``action`` to the game with this game's own bookkeeping of the turn;
        ``IllegalActionError`` from the engine changes nothing."""
        raise NotImplementedError

    def resolve(self, request: dict) -> Any:
        """The engine action an apply request names, legal now; ``InvalidInput`` or
        ``IllegalAction`` (422) naming the field otherwise."""
        raise NotImplementedError

    def steps_of(self, action: Any) -> int:
        """The pre-roll steps a person's ``action`` counts for."""
        return 1

    def computer_decision(self, left_s: Callable[[], float], slow: SlowPool | None
                          ) -> Decision:
        """What the computer seat to move does, checked to be legal; ``left_s()``: the seconds
        left for a search; ``ServerBusy`` when ``slow`` has no room for one."""
        raise NotImplementedError

    def unstick(self) -> Decision:
        """After the engine refused a checked decision: a legal action, applied."""
        raise NotImplementedError

    def public_move(self, seat: int, decision: Decision) -> dict:
        """A computer seat's move as ``advance`` reports it to every viewer."""
        return {"seat": seat, "player": self.seats[seat], "text": str(decision.action),
                "id": decision.id}

    def state_view(self, moves: list[dict] | None, seat: int | None,
                   held: set[int] | None) -> dict:
        """The table's state as a request sees it: ``held`` None for seats open to every
        client, else the seats whose secrets the request carries; ``seat`` the seat it asks to
        see the table as (where a game hides anything)."""
        raise NotImplementedError

    def save_data(self, hide_chance: bool) -> dict:
        """The table's save (``GET .../save``); ``hide_chance``: the dice and decks to come
        drawn afresh, where the game has them."""
        raise NotImplementedError

    def replay_view(self) -> dict:
        """A replayed position's state (a view nobody acts on: nothing hidden)."""
        return self.state_view(None, None, None)

    def viewer_among(self, held: set[int], asked: int | None) -> int | None:
        """The person seat a request with the secrets of ``held`` sees the table as: ``asked``
        if it holds that seat's secret, else the deciding seat if it holds that, else its
        first."""
        people = sorted(s for s in held if s >= 0 and self.players[s] is None)
        if asked is not None:
            if asked not in people:
                raise SeatSecretRequired(f"seat {asked} is shown only with its own secret",
                                         field="seat")
            return asked
        current = self.game.current_player
        return current if current in people else (people[0] if people else None)


class Table(TableBase):
    """A game of Byapar and who plays each seat. Use it only inside ``with table.locked():``."""

    game_name = "byapar"

    def __init__(self, table_id: str, seats: list[str], game: Game, roster: Roster,
                 seed: int = 0, pre_roll_actions: int = 0) -> None:
        super().__init__(table_id, seats, game, seed)
        self.game: Game = game
        self.players = [None if name == PERSON else self.make_player(roster, name, seed + s)
                        for s, name in enumerate(seats)]
        for s, player in enumerate(self.players):
            # Fresh players with a memory (the offers a medium player tried) start clean and
            # seeded, as in the arena; shared learned players have no memory to reset.
            if player is not None and hasattr(player, "reset"):
                player.reset(seed + s)
        self._stamp = game.turn_count
        self._pre_roll = pre_roll_actions
        # What each seat has done at this table, as the environment counts it (observation
        # version 2); a table made from a saved game starts the counts from there.
        self.habits = Habits(game.num_players)
        # Trade offers of computer seats to people (see offer_refusal).
        self.mutes: set[tuple[int, int]] = set()  # (person seat, computer seat)
        self._offered: set[tuple[int, int, int]] = set()  # (turn_count, offerer, target)
        # (offerer, offer_key) of offers people refused, oldest first, at most MAX_REFUSALS
        self._refused: dict[tuple[int, tuple], None] = {}
        self.offers_held_back = 0  # computer offers replaced by offer_refusal

    def make_player(self, roster: Roster, name: str, seed: int) -> object:
        return roster.make(name, seed)

    @staticmethod
    def read_save(data: dict) -> tuple[list, Game, dict]:
        seats, game, pre_roll = saves.read_table_save(data)
        return seats, game, {"pre_roll_actions": pre_roll}

    @staticmethod
    def load_game(data: object, field: str) -> Game:
        return saves.load_game(data, field)

    @staticmethod
    def new_game(rules: RulesIn | None, num_players: int, seed: int) -> Game:
        return Game(make_rules(rules, num_players), seed=seed)

    chance_kind = "value network"

    def encode_action(self, action: Action) -> object:
        return action_to_json(action)

    def decode_action(self, data: object, field: str) -> Action:
        return action_from_json(data, field)

    def win_chances(self, games: list) -> list[list[float] | None]:
        judged = iter(shipped_value().table_chances([g for g in games if g.offer is None]))
        return [None if g.offer is not None else next(judged) for g in games]

    def state_view(self, moves: list[dict] | None, seat: int | None,
                   held: set[int] | None) -> dict:
        """Every seat sees the same table; at secret seats the dice and decks to come are
        drawn afresh (``state.game_snapshot``)."""
        return table_state(self, moves, hide_chance=held is not None)

    def save_data(self, hide_chance: bool) -> dict:
        return saves.table_save(self.seats, self.game, self.pre_roll_actions,
                                hide_chance=hide_chance)

    @property
    def pre_roll_actions(self) -> int:
        """Actions taken before rolling in the current turn (the environment's cap applies)."""
        if self.game.turn_count != self._stamp:
            self._stamp, self._pre_roll = self.game.turn_count, 0
        return self._pre_roll

    def apply_to_game(self, action: Action, steps: int) -> None:
        """The engine applies ``action``, with the seats' habits, the offers made this turn
        and the count of the turn's pre-roll actions kept up to date."""
        game = self.game
        pre_roll = self.pre_roll_actions
        pre_roll_phase = game.phase == Phase.PRE_ROLL
        seat, turn = game.current_player, game.turn_count
        if action.kind == ActionKind.REJECT_TRADE and game.offer is not None:
            self._note_refusal(*game.offer)
        undo = self.habits.record(game, action)  # it reads the state before the action
        try:
            game.apply(action)
        except IllegalActionError:
            self.habits.restore(undo)
            raise
        if action.kind == ActionKind.OFFER_TRADE:
            # Only this turn's entries matter: the set holds a few entries at most.
            self._offered = {k for k in self._offered if k[0] == turn}
            self._offered.add((turn, seat, action.target))
        if game.turn_count == self._stamp and pre_roll_phase:
            self._pre_roll = pre_roll + steps

    def _note_refusal(self, offerer: int, offer: Action) -> None:
        """Remember an offer a person refuses from a computer seat (the latest
        ``MAX_REFUSALS``): it is not made again while its places stand as they did then."""
        if self.players[offer.target] is not None or self.players[offerer] is None:
            return
        self._refused[offerer, offer_key(self.game, offer)] = None
        while len(self._refused) > MAX_REFUSALS:
            del self._refused[next(iter(self._refused))]

    def offer_refusal(self, offer: Action) -> str | None:
        """Why the current (computer) seat may not make ``offer`` to a person at this table,
        or None: the target is a computer, or the offer passes every rule."""
        game = self.game
        seat, target = game.current_player, offer.target
        if not 0 <= target < len(self.players) or self.players[target] is not None:
            return None
        turn = game.turn_count
        if (target, seat) in self.mutes:
            return f"seat {target} muted offers from seat {seat}"
        if (turn, seat, target) in self._offered:
            return f"seat {seat} already made seat {target} an offer this turn"
        if (seat, offer_key(game, offer)) in self._refused:
            return f"seat {target} refused this offer from seat {seat}, and nothing changed since"
        if unwanted(offer):
            return f"seat {target} would give something and get nothing"
        return None

    def _expert_decision(self, slow: SlowPool, left_s: float) -> Decision:
        """The seated expert's decision, searched in the slow pool within ``left_s`` (and its
        own budget); its memory of the game travels with it."""
        game = self.game
        player = self.players[game.current_player]
        now = time.monotonic()
        budget_s = float(player.budget_ms or 0.0) / 1000.0
        answer_s = min(left_s, budget_s * ANSWER_BY_SHARE) if budget_s > 0 else left_s
        try:
            out, state = slow.run(expert_job, game_to_dict(game), self.pre_roll_actions,
                                  float(player.budget_ms or 0.0), now + left_s, None,
                                  expert_state(player),
                                  answer_by=now + answer_s)
        except Late:  # the worker is late (waiting for a core): the expert's prior decides
            return decide(player.learned, game, self.pre_roll_actions, self.habits)
        vars(player).update(state)
        return Decision(action_from_json(out["action"]), out["id"], out["steps"])

    def resolve(self, request: dict) -> Action:
        return legal.resolve(request, self.game, self.pre_roll_actions)

    def steps_of(self, action: Action) -> int:
        return steps_of(self.game, action)

    def computer_decision(self, left_s: Callable[[], float], slow: SlowPool | None
                          ) -> Decision:
        """The seat's player decides (``decide``; a seated expert searches within
        ``left_s()``, in ``slow`` when given); an offer to a person that ``offer_refusal``
        holds back becomes what the seat would do without offering (rolls, before the roll)."""
        game = self.game
        pre_roll = self.pre_roll_actions
        player = self.players[game.current_player]
        if isinstance(player, ExpertPlayer):
            left = left_s()
            player.deadline = time.perf_counter() + left  # bounds the search here
            try:
                decision = (self._expert_decision(slow, left) if slow is not None
                            else decide(player, game, pre_roll, self.habits))
            finally:
                player.deadline = math.inf
        else:
            decision = decide(player, game, pre_roll, self.habits)
        if decision.action.kind == ActionKind.OFFER_TRADE and self.offer_refusal(decision.action):
            self.offers_held_back += 1
            action = fallback(legal_engine_actions(game, pre_roll))
            decision = Decision(action, id_of(game, action), 1)
        return decision

    def unstick(self) -> Decision:
        """The engine's first legal action, applied."""
        game = self.game
        action = game.legal_actions()[0]
        self.apply(action, steps_of(game, action))
        return Decision(action, id_of(game, action), 1)


class TableStore:
    """At most ``max_tables`` tables by id. At the limit, the least recently used table goes if
    it has been idle ``idle_evict_s``; otherwise a new table is refused (429).

    With a ``database`` (``byapar_serve/database.py``), every table lives there too: the store loads
    them when it starts (games ended more than ``expire_finished_s`` ago are dropped first),
    ``commit`` writes each change with its answer before the answer is sent, and ``refresh``
    brings a table up to date when another server process on the same database changed it."""

    def __init__(self, max_tables: int = MAX_TABLES, idle_evict_s: float = IDLE_EVICT_S,
                 advance_budget_s: float = ADVANCE_BUDGET_S,
                 database: Database | None = None, roster: Roster | None = None,
                 expire_finished_s: float | None = None) -> None:
        self.max_tables = max_tables
        self.idle_evict_s = idle_evict_s
        self.advance_budget_s = advance_budget_s  # the wall time one advance request may take
        self._tables: OrderedDict[str, TableBase] = OrderedDict()
        self._lock = threading.Lock()
        if database is not None and roster is None:
            raise ValueError("a store with a database needs the roster its players come from")
        self.database = database
        self.roster = roster
        if database is not None:
            database.expire(expire_finished_s)
            for table_id in database.ids():  # the most recently changed last, as used here
                table = self._load(table_id)
                if table is not None:
                    self._tables[table_id] = table

    @staticmethod
    def new_id() -> str:
        return secrets.token_hex(8)

    def _load(self, table_id: str) -> TableBase | None:
        table = self.database.load(table_id)
        if table is not None:
            table.restore_players(self.roster)
        return table

    def add(self, table: TableBase) -> None:
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
                if self.database is not None:
                    # not if another server process changed it since: it is in use there
                    self.database.delete(oldest_id, version=oldest.version)
            if self.database is not None:
                self.database.insert(table.id, table.game_name, table.version,
                                     table.game.is_over, table)
            self._tables[table.id] = table

    def get(self, table_id: str) -> TableBase:
        with self._lock:
            table = self._tables.get(table_id)
            if table is None and self.database is not None:
                table = self._load(table_id)  # made by another process on the database
                if table is not None:
                    self._tables[table_id] = table
            if table is None:
                raise NotFound(f"no table {table_id[:40]!r} (tables are evicted when idle long "
                               "and the server is full)", field="table_id")
            self._tables.move_to_end(table_id)  # most recently used last
            return table

    def refresh(self, table: TableBase) -> None:
        """Under the table's lock, before a request's work: the database's copy in place of
        this one if another process changed it since (the object, and its lock, stay)."""
        if self.database is None:
            return
        version = self.database.version(table.id)
        if version is None:
            with self._lock:
                self._tables.pop(table.id, None)
            raise NotFound(f"no table {table.id!r} (deleted)", field="table_id")
        if version == table.version:
            return
        fresh = self._load(table.id)
        keep = {k: vars(table)[k] for k in ("_lock", "_queue_locks", "_waiting")}
        vars(table).clear()
        vars(table).update(vars(fresh))
        vars(table).update(keep)

    def replay(self, table: TableBase, key: str | None, fingerprint: str) -> bytes | None:
        """The answer already sent for idempotency key ``key`` at ``table`` (kept in memory, or
        in the database for its TTL), or None; ``Conflict`` for a key reused differently."""
        earlier = table.replay(key, fingerprint)
        if earlier is not None or key is None or self.database is None:
            return earlier
        kept = self.database.reply(table.id, key)
        if kept is None:
            return None
        table.remember(key, kept[0], kept[1])
        return table.replay(key, fingerprint)

    def commit(self, table: TableBase, before: int, key: str | None = None,
               fingerprint: str = "", body: bytes = b"") -> bytes | None:
        """The table changed since version ``before`` (or answered a keyed request): kept in
        memory and, with a database, written there in one transaction with the answer, before
        the answer is sent. If another process changed it first, this one's change is dropped:
        the answer that process kept for the same keyed request is returned, to be sent in
        place of this one (the request came to both); ``StaleVersion`` otherwise."""
        if self.database is not None and (table.version != before or key is not None):
            reply = (key, fingerprint, body) if key is not None else None
            try:
                self.database.commit(table.id, before, table.version, table.game.is_over,
                                     table, reply)
            except VersionTaken:
                table.version = -1  # refresh() reloads whatever the database holds
                self.refresh(table)
                kept = self.replay(table, key, fingerprint)
                if kept is not None:
                    return kept
                raise StaleVersion(
                    f"another server changed table {table.id} first (version {table.version} "
                    "now); read it again and choose anew", field="version",
                    version=table.version) from None
        table.remember(key, fingerprint, body)
        return None

    def remove(self, table_id: str) -> None:
        with self._lock:
            gone = self._tables.pop(table_id, None) is not None
            if self.database is not None:
                gone = self.database.delete(table_id) or gone
            if not gone:
                raise NotFound(f"no table {table_id[:40]!r}", field="table_id")

    def __len__(self) -> int:
        return len(self._tables)
