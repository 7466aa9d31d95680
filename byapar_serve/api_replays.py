"""The replay routes: a table's game move by move with each seat's win chance, and any position
of it as a table state the page can draw.

A game is replayed once it is over, to anyone with the table's id (nothing in it is hidden any
more, and the page shares a replay by its link). Before that only where nothing is hidden:
seats open to every client and a game without hidden hands (a replay starts from the saved
game, which holds the dice to come, and a Businessman replay shows every hand).
"""

from __future__ import annotations

from collections.abc import Callable

from fastapi import APIRouter, Path
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from byapar_env.games import find_game

from .api_tables import run_locked
from .errors import InvalidInput, ReplayUnavailable
from .schemas import ErrorOut
from .tables import TableBase, TableStore

_ERRORS = {code: {"model": ErrorOut} for code in (403, 404, 422, 503)}
REPLAY_TO_MOVE = "replay"  # a replayed position's "to_move": nobody is to act on it


def replays_router(store: TableStore, open_seats: bool = True) -> APIRouter:
    router = APIRouter(prefix="/v1/tables", tags=["replays"], responses=_ERRORS)

    def check(table: TableBase) -> None:
        if table.game.is_over:
            return
        spec = find_game(table.game_name)
        if not open_seats or spec.hidden_information:
            raise ReplayUnavailable(
                f"this {spec.title} game is replayed once it is over"
                + (" (its replay shows every hand)" if spec.hidden_information else
                   " (its replay holds the dice to come)"), field="table_id")

    async def on_table(table_id: str, work: Callable[[TableBase], Response]) -> Response:
        table = store.get(table_id)
        async with table.queued():
            return await run_in_threadpool(run_locked, store, table, work)

    @router.get("/{table_id}/replay")
    async def replay(table_id: str) -> Response:
        """The game move by move: for each move the seat, the action, the log lines it wrote
        and every seat's win chance after it (``chance_kind`` says how a position is judged),
        and the biggest swings of win chance. Once the game is over (any time where seats are
        open and nothing is hidden)."""

        def work(table: TableBase) -> Response:
            check(table)
            summary = table.replay_summary()
            return JSONResponse({"id": table.id, "game_name": table.game_name,
                                 "seats": list(table.seats), **summary})

        return await on_table(table_id, work)

    @router.get("/{table_id}/replay/{moves}")
    async def position(table_id: str,
                       moves: int = Path(ge=0, description="moves made")) -> Response:
        """The table as it stood after its first ``moves`` actions, as a table state (as a
        spectator sees it) whose ``to_move`` is "replay" and whose ``legal`` is empty."""

        def work(table: TableBase) -> Response:
            check(table)
            summary = table.replay_summary()  # refuses a table without a record
            made = summary["moves"]
            if moves > made:
                raise InvalidInput(f"moves must be from 0 to {made}: this game has {made} "
                                   "moves", field="moves")
            view = table.position_after(moves)
            state = view.replay_view()
            state.update(to_move=REPLAY_TO_MOVE, legal=[], replay={"moves": moves, "of": made})
            return JSONResponse(state)

        return await on_table(table_id, work)

    return router
