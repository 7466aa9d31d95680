"""The /v1/tables routes: create a table, read it, act, let computer seats move, save, delete;
for Byapar and Businessman tables alike (``businessman.py`` holds Businessman's own parts).

Every route that touches a table does so inside ``table.locked()``, and validates everything
before changing anything, so a refused request leaves the table as it was.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Callable

from fastapi import APIRouter, Header, Query
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from byapar_env.games import available_games, find_game

from . import businessman as bm
from .errors import Conflict, InvalidInput, SeatSecretRequired
from .limits import MAX_SEED
from .roster import PERSON, Roster
from .schemas import (
    Advance,
    ApplyAction,
    BusinessmanTableState,
    CreateTable,
    ErrorOut,
    Mute,
    TableState,
)
from .slow import SlowPool
from .tables import SPECTATOR, Table, TableBase, TableStore

_ERRORS = {code: {"model": ErrorOut} for code in (404, 409, 413, 422, 429, 503)}
AnyState = TableState | BusinessmanTableState
Viewer = Query(None, ge=0, le=5, description="Businessman tables: the person seat the state "
                                             "is shown to (by default the person deciding "
                                             "now, else the first person seat)")


def _seat_names(roster: Roster, names: list | None, field: str, num_players: int | None,
                game: str) -> list[str]:
    if names is None:
        allowed = roster.offered[game]
        raise InvalidInput(f"{field} is needed: one entry per seat, 2 to 6, each \"person\" or "
                           "a player name", field=field, allowed=[PERSON, *allowed])
    if not 2 <= len(names) <= 6 or (num_players is not None and len(names) != num_players):
        want = "2 to 6" if num_players is None else f"{num_players} (the saved game's seats)"
        raise InvalidInput(f"{field} must have {want} entries, got {len(names)}", field=field)
    return [roster.check(name, f"{field}[{i}]", person_ok=True, game=game)
            for i, name in enumerate(names)]


def _is_name(game: object) -> bool:
    """Whether a request's ``game`` is a game's name (the earlier form of ``game_name``)."""
    return isinstance(game, str) and game in available_games()


def _game_of(body: CreateTable) -> str:
    """Which game a create request is for: ``game_name``, ``game`` as a name, or told by a
    save's format; Byapar's by default."""
    named = body.game_name
    if named is not None and named not in available_games():
        raise InvalidInput(f"game_name must be one of {', '.join(available_games())}, got "
                           f"{named!r:.40}", field="game_name", allowed=list(available_games()))
    if named is not None and _is_name(body.game) and body.game != named:
        raise InvalidInput("game and game_name name different games; give game_name alone",
                           field="game", allowed=list(available_games()))
    named = named or (body.game if _is_name(body.game) else None)
    saved = bm.is_saved_game(body.game) or bm.is_table_save(body.save)
    told = bm.BusinessmanTable.game_name if saved else None
    if named is not None and told is not None and named != told:
        raise InvalidInput(f"the save is a {find_game(told).title} table; leave out "
                           f"'game_name' or name \"{told}\"", field="game",
                           allowed=list(available_games()))
    return named or told or available_games()[0]


def _new_table(body: CreateTable, roster: Roster, store: TableStore) -> TableBase:
    """The table a create request describes, fully checked; nothing is stored yet. The checks
    are the same for every game; the game's table class (``TABLE_KINDS``) reads its saves and
    makes its new games."""
    kind = TABLE_KINDS[_game_of(body)]
    saved_game = None if _is_name(body.game) else body.game
    if saved_game is not None and body.save is not None:
        raise InvalidInput("give a saved game in 'game' or a table save in 'save', not both",
                           field="save")
    if (saved_game is not None or body.save is not None) and body.rules is not None:
        raise InvalidInput("a saved game brings its own rules: leave out 'rules'", field="rules")
    seed = body.seed if body.seed is not None else secrets.randbelow(MAX_SEED)
    more: dict = {}  # the table's own arguments from a save (Byapar's pre-roll count)
    if body.save is not None:
        saved, game, more = kind.read_save(body.save)
        field = "seats" if body.seats is not None else "save.seats"
        names = _seat_names(roster, body.seats if body.seats is not None else saved, field,
                            game.num_players, kind.game_name)
    elif saved_game is not None:
        game = kind.load_game(saved_game, "game")
        names = _seat_names(roster, body.seats, "seats", game.num_players, kind.game_name)
    else:
        names = _seat_names(roster, body.seats, "seats", None, kind.game_name)
        game = kind.new_game(body.rules, len(names), seed)
    return kind(store.new_id(), names, game, roster, seed % 2**31, **more)


# Each game's table class, by the game's name (byapar_env.games).
TABLE_KINDS: dict[str, type[TableBase]] = {kind.game_name: kind
                                           for kind in (Table, bm.BusinessmanTable)}


def _fingerprint(kind: str, body: ApplyAction | Advance, held: set[int] | None = None) -> str:
    """What a request asks, apart from its idempotency key, and who asks (the seats whose
    secrets it carries): equal for a repeated request."""
    asked = kind + json.dumps(body.model_dump(exclude={"idempotency_key"}), sort_keys=True)
    return asked if held is None else f"{asked} by {sorted(held)}"


def _state(table: TableBase, moves: list[dict] | None = None, seat: int | None = None,
           held: set[int] | None = None) -> dict:
    """The table's state as the request sees it (``TableBase.state_view``)."""
    return table.state_view(moves, seat, held)


def _answer(store: TableStore, table: TableBase, before: int, key: str | None,
            fingerprint: str, moves: list[dict] | None = None, seat: int | None = None,
            held: set[int] | None = None) -> Response:
    """The table's state as the answer, committed with the change since version ``before``
    and kept under ``key`` for a repeated request, before it is sent."""
    response = JSONResponse(_state(table, moves, seat, held))
    kept = store.commit(table, before, key, fingerprint, bytes(response.body))
    return response if kept is None else _replayed(kept)  # another process answered first


def _replayed(body: bytes) -> Response:
    return Response(body, media_type="application/json",
                    headers={"Idempotent-Replayed": "true"})


SEAT_SECRET = Header(None, alias="X-Seat-Secret", max_length=8 * 64,
                    description="the secret of a seat at this table (or of its spectators), "
                                "as created; several separated by commas")


def held_seats(table: TableBase, secret: str | None, open_seats: bool,
               seat_needed: bool = False) -> set[int] | None:
    """None when seats are open to every client (``open_seats``); else the seats whose
    secrets the request carries (a spectator's: ``SPECTATOR``), at least one, and with
    ``seat_needed`` at least one seat's: ``SeatSecretRequired`` (403) otherwise."""
    if open_seats:
        return None
    held = table.holders(secret)
    if not held or (seat_needed and held <= {SPECTATOR}):
        raise SeatSecretRequired(
            "this table's seats are its players': send a seat's secret (given when the "
            "table was made) in the X-Seat-Secret header"
            + (", a seat's, not a spectator's" if held else ""), field="X-Seat-Secret")
    return held


def tables_router(roster: Roster, store: TableStore, slow: SlowPool | None = None,
                  open_seats: bool = True) -> APIRouter:
    """The routes on tables. Each request on a table first waits for the table's turn in the
    event loop (``Table.queued``), holding no thread, and only then takes a thread for its
    work: 45 requests queued on one table hold one thread, not the pool, so other tables'
    requests are answered meanwhile."""
    router = APIRouter(prefix="/v1/tables", tags=["tables"], responses=_ERRORS)

    async def on_table(table_id: str, work: Callable[[TableBase], Response]) -> Response:
        table = store.get(table_id)
        async with table.queued():
            return await run_in_threadpool(run_locked, store, table, work)

    def seats_held(table: TableBase, secret: str | None, seat_needed: bool = False
                   ) -> set[int] | None:
        return held_seats(table, secret, open_seats, seat_needed)

    @router.post("", status_code=201, response_model=AnyState)
    def create_table(body: CreateTable) -> Response:
        """Seat players at a new table (or a loaded game) and return its state. ``game``:
        "byapar" (the default) or "businessman"."""
        table = _new_table(body, roster, store)
        if body.save is not None and "record" in body.save:  # a save that can be replayed
            table.adopt_record(body.save["record"])
        secrets_given = None if open_seats else table.issue_secrets()
        store.add(table)
        with table.locked():
            if secrets_given is None:  # seats open to every client: no secrets to hand out
                return JSONResponse(_state(table), status_code=201)
            state = _state(table, held={int(s) for s in secrets_given["seats"]})
            return JSONResponse({**state, "secrets": secrets_given}, status_code=201)

    @router.get("/{table_id}", response_model=AnyState)
    async def read_table(table_id: str, seat: int | None = Viewer,
                         secret: str | None = SEAT_SECRET) -> Response:
        """The table's state: the saved game, the legal actions with ids and names, and more.
        A Businessman table's state is shown to one person seat (``seat``): its own Exchange
        hand, never another's, and no saved game. Unless the server opens its seats to every
        client, a seat's or a spectator's secret is needed, and a seat is shown only with its
        own."""

        def work(table: TableBase) -> Response:
            held = seats_held(table, secret)
            return JSONResponse(_state(table, None, seat, held))

        return await on_table(table_id, work)

    @router.post("/{table_id}/actions", response_model=AnyState)
    async def apply_action(table_id: str, body: ApplyAction,
                           secret: str | None = SEAT_SECRET) -> Response:
        """A person's action, by id, by name or in engine form (trade offers: engine form;
        Businessman: by id or name only). With ``version`` it is applied only in that version
        of the table (409 otherwise); with ``idempotency_key`` a repeat gets the first answer
        and is not applied again."""
        def work(table: TableBase) -> Response:
            held = seats_held(table, secret, seat_needed=True)
            deciding = table.game.current_player
            if (held is not None and deciding not in held and not table.game.is_over
                    and table.players[deciding] is None):
                raise SeatSecretRequired(f"seat {deciding} decides now: its secret is needed",
                                         field="X-Seat-Secret")
            # a keyed answer is given again only to the seats that first asked
            fingerprint = _fingerprint("action", body, held)
            earlier = store.replay(table, body.idempotency_key, fingerprint)
            if earlier is not None:
                return _replayed(earlier)
            table.check_version(body.version)
            before = table.version
            table.act(body.model_dump())
            # secret seats: the answer shows what GET shows them (no hand but theirs, no dice
            # or deck order to come)
            return _answer(store, table, before, body.idempotency_key, fingerprint,
                           seat=body.seat if held is None else deciding, held=held)

        return await on_table(table_id, work)

    @router.post("/{table_id}/advance", response_model=AnyState)
    async def advance(table_id: str, body: Advance | None = None,
                      seat: int | None = Viewer, secret: str | None = SEAT_SECRET) -> Response:
        """Let computer seats decide, up to ``max_decisions``, until a person must decide or
        the game ends; ``moves`` lists what they did. ``version`` and ``idempotency_key`` as
        for actions."""
        body = body if body is not None else Advance()

        def work(table: TableBase) -> Response:
            held = seats_held(table, secret)
            fingerprint = _fingerprint("advance", body, held)
            earlier = store.replay(table, body.idempotency_key, fingerprint)
            if earlier is not None:
                return _replayed(earlier)
            table.check_version(body.version)
            before = table.version
            try:
                moves = table.advance(body.max_decisions, store.advance_budget_s, slow=slow)
            except BaseException:
                store.commit(table, before)  # moves made before a failure stand
                raise
            return _answer(store, table, before, body.idempotency_key, fingerprint, moves,
                           seat, held)

        return await on_table(table_id, work)

    @router.post("/{table_id}/mute", response_model=TableState)
    async def mute(table_id: str, body: Mute, secret: str | None = SEAT_SECRET) -> Response:
        """Stop (``"muted": true``) or allow again trade offers from computer seat ``seat`` to
        person seat ``person`` (every person seat when left out)."""

        def work(table: TableBase) -> Response:
            if not isinstance(table, Table):
                raise Conflict("mute is for Byapar tables", field="table_id")
            held = seats_held(table, secret, seat_needed=True)
            table.check_version(body.version)
            n = len(table.seats)
            if body.seat >= n or table.players[body.seat] is None:
                computers = [s for s in range(n) if table.players[s] is not None]
                raise InvalidInput(f"seat must be a computer seat of this table: {computers}",
                                   field="seat", allowed=computers)
            people = [s for s in range(n) if table.players[s] is None
                      and (held is None or s in held)]  # a seat mutes only for itself
            if body.person is not None and body.person not in people:
                raise InvalidInput(f"person must be a person seat of this table: {people}",
                                   field="person", allowed=people)
            pairs = {(p, body.seat) for p in ([body.person] if body.person is not None
                                              else people)}
            version = table.version
            before = set(table.mutes)
            if body.muted:
                table.mutes |= pairs
            else:
                table.mutes -= pairs
            if table.mutes != before:
                table.changed()
                store.commit(table, version)
            return JSONResponse(_state(table, held=held))

        return await on_table(table_id, work)

    @router.get("/{table_id}/save")
    async def save_table(table_id: str, secret: str | None = SEAT_SECRET) -> Response:
        """The table as a file to keep: seats and the engine's saved game. POST it back to
        /v1/tables as ``{"save": ...}``. Unless seats are open, a seat's secret is needed, and
        a game with hidden hands is saved only once it is over (the save holds every hand)."""

        def work(table: TableBase) -> Response:
            held = seats_held(table, secret, seat_needed=True)
            if (held is not None and not table.game.is_over
                    and find_game(table.game_name).hidden_information):
                raise SeatSecretRequired(
                    f"a {find_game(table.game_name).title} save holds every seat's hand: it is "
                    "given once the game is over", field="table_id")
            data = table.save_data(hide_chance=held is not None and not table.game.is_over)
            # its record, where a replay may be shown (api_replays): a loaded save replays
            if table.game.is_over or (held is None
                                      and not find_game(table.game_name).hidden_information):
                record = table.saved_record()
                if record is not None:
                    data["record"] = record
            return JSONResponse(data, headers={"Content-Disposition": "attachment; filename="
                                               f'"{table.game_name}-{table.id}.json"'})

        return await on_table(table_id, work)

    @router.delete("/{table_id}", status_code=204)
    def delete_table(table_id: str, secret: str | None = SEAT_SECRET) -> Response:
        table = store.get(table_id)
        with table.locked():
            seats_held(table, secret, seat_needed=True)
        store.remove(table_id)
        return Response(status_code=204)

    return router


def run_locked(store: TableStore, table: TableBase, work: Callable[[TableBase], Response]
               ) -> Response:
    """``work`` on ``table`` under its lock, after reading any newer version from the
    database."""
    with table.locked():
        store.refresh(table)  # another server process on the database may have changed it
        return work(table)
