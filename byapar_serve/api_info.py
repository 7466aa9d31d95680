"""The /v1 routes that hold no table: what this server offers, the board, the action table,
and the stateless decision call for game sites."""

from __future__ import annotations

import asyncio
import time

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse, Response
from starlette.concurrency import run_in_threadpool

from byapar_env import __version__
from byapar_env.action_table import ACTIONS
from byapar_env.board_picture import GROUP_COLOURS, SEAT_COLOURS
from byapar_env.engine import board
from byapar_env.engine.rules import DEFAULT_AUCTIONS, DEFAULT_ROUNDS, ROUND_PRESETS
from byapar_env.engine.serialize import game_to_dict
from byapar_env.games import available_games

from . import businessman as bm
from . import businessman_expert as bm_expert
from . import limits
from .body_limit import ARRIVED
from .codec import action_from_json, action_to_json
from .decide import decide
from .errors import Conflict, InvalidInput
from .limits import EXPERT_BUDGET_MS
from .roster import PERSON, Roster
from .saves import load_game
from .schemas import AnalyseIn, AnalyseOut, BusinessmanDecideOut, DecideIn, DecideOut, ErrorOut
from .slow import ANSWER_BY_SHARE, Late, SlowPool, analyse_job, expert_job
from .tables import TableStore


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def board_view() -> dict:
    squares = [{"index": s.index, "name": s.name, "kind": s.kind, "group": s.group,
                "price": s.price, "house_cost": s.house_cost, "rents": list(s.rents),
                "tax": s.tax} for s in board.SQUARES]
    return {"board": board.BOARD_HASH, "squares": squares,
            "groups": {g: list(sq) for g, sq in board.GROUPS.items()},
            "group_colours": {g: _hex(c) for g, c in GROUP_COLOURS.items()},
            "seat_colours": [_hex(c) for c in SEAT_COLOURS],
            "salary": board.SALARY, "jail_fine": board.JAIL_FINE, "bid_step": board.BID_STEP,
            "trade_money_step": board.FIGURES.trade_money_step, "hotel": board.HOTEL,
            # for the page's property cards: rent by transports held, utility times the dice
            "transport_rent": list(board.TRANSPORT_RENT),
            "utility_multiplier": list(board.UTILITY_MULTIPLIER)}


def info_router(roster: Roster, pace_ms: int, store: TableStore, slow: SlowPool,
                max_body_bytes: int = limits.MAX_BODY_BYTES,
                body_limits: dict | None = None) -> APIRouter:
    router = APIRouter(prefix="/v1", tags=["info"])
    info = {
        "api_version": limits.API_VERSION, "version": __version__,
        "players": {"person": PERSON,
                    "ladder": [{"name": n, "text": roster.ladder_text[n]} for n in roster.ladder],
                    "levels": list(roster.levels),
                    "panel": list(roster.panel), "search": list(roster.search),
                    "checkpoints": list(roster.checkpoints),
                    "all": list(roster.names)},
        # Each game this server plays, with its players (Byapar's as in "players" above).
        "games": {"byapar": {"players": [PERSON, *roster.names], "seats": [2, 6]},
                  "businessman": {"players": [PERSON, *roster.businessman], "seats": [2, 6],
                                  "defaults": {"rounds": bm.DEFAULT_MAX_ROUNDS,
                                               "abroad": True},
                                  "max_rounds": limits.MAX_ROUNDS}},
        "pace_ms": pace_ms,
        "defaults": {"rounds": DEFAULT_ROUNDS, "round_presets": list(ROUND_PRESETS),
                     "starting_cash": board.DEFAULT_STARTING_CASH,
                     "starting_cash_presets": list(board.STARTING_CASH_PRESETS),
                     "auctions": DEFAULT_AUCTIONS},
        "limits": {"max_tables": store.max_tables, "idle_evict_s": store.idle_evict_s,
                   "advance_budget_s": store.advance_budget_s,
                   "max_body_bytes": max_body_bytes,
                   **_body_limits(body_limits or {}),
                   "max_name_chars": limits.MAX_NAME_CHARS, "max_rounds": limits.MAX_ROUNDS,
                   "max_starting_cash": limits.MAX_STARTING_CASH,
                   "max_advance": limits.MAX_ADVANCE, "seats": [2, 6],
                   "max_expert_budget_ms": limits.MAX_EXPERT_BUDGET_MS,
                   "max_expert_sims": limits.MAX_EXPERT_SIMS,
                   "max_analyse_rollouts": limits.MAX_ANALYSE_ROLLOUTS,
                   "analyse_budget_s": limits.ANALYSE_BUDGET_S,
                   "slow_workers": slow.workers, "max_slow_queued": slow.max_queued,
                   "max_table_queue": limits.MAX_TABLE_QUEUE,
                   "idempotency_keys_kept": limits.MAX_REPLAY_KEYS,
                   "idempotency_bytes_kept": limits.MAX_REPLAY_BYTES},
    }
    boards = {"byapar": board_view(), "businessman": bm.board_view()}  # by game name
    actions = [{"id": a.id, "kind": a.kind, "arg": a.arg, "name": a.name} for a in ACTIONS]

    @router.get("")
    def server_info() -> dict:
        """The API version, the players offered, the default pace and every limit."""
        return info

    @router.get("/board")
    def board_data(game: str = Query("byapar", pattern="^(byapar|businessman)$",
                                     description='"byapar" or "businessman"')) -> dict:
        """Byapar's 36 squares (names, kinds, groups, prices, rents) and the colours the page
        uses; with ``game=businessman``, Businessman's 78 cells, groups, share colours and
        Exchange card kinds."""
        return boards[game]

    @router.get("/actions")
    def action_table() -> dict:
        """Every action id of the environment with its kind, argument and name."""
        return {"actions": actions}

    return router


def decide_router(roster: Roster, slow: SlowPool) -> APIRouter:
    router = APIRouter(prefix="/v1", tags=["decide"],
                       responses={c: {"model": ErrorOut} for c in (409, 413, 422, 503)})

    def fast_decide(body: DecideIn, name: str, start: float) -> Response:
        game = _playable(body.game, "decide")
        d = decide(roster.make(name), game, body.pre_roll_actions)
        return _decision(game, name, d.action, d.id, start)

    def prior_decision(game, pre_roll: int):
        return decide(roster.make("hard"), game, pre_roll)

    def businessman_check(body: DecideIn) -> str:
        name = roster.check(body.player, "player", game="businessman")
        if body.pre_roll_actions:
            raise InvalidInput("pre_roll_actions is not used in Businessman: leave it out",
                               field="pre_roll_actions")
        if body.budget_ms is not None and name != "expert":
            raise InvalidInput(f"budget_ms is the search budget of the expert; {name!r} does "
                               "not search", field="budget_ms")
        return name

    def businessman_decide(body: DecideIn, name: str, start: float) -> Response:
        return JSONResponse(bm.decide(roster, body.game, name, start))

    async def businessman_expert(body: DecideIn, arrived: float, start: float) -> Response:
        game, legal = await run_in_threadpool(bm.decide_position, body.game)
        if len(legal) == 1:
            return JSONResponse(bm.decide_answer(game, "expert", legal[0], start, False))
        budget_ms = float(body.budget_ms if body.budget_ms is not None else EXPERT_BUDGET_MS)
        # The prior (the hard player's move) is worked out while the search runs, so that a
        # late search is answered at once.
        prior = asyncio.ensure_future(run_in_threadpool(bm.quick_choice, roster, "hard", game,
                                                        legal))
        action, searched = await bm_expert.decide_async(slow, game, legal, budget_ms, arrived,
                                                        prior)
        return JSONResponse(bm.decide_answer(game, "expert", action, start, searched))

    def checked(body_game: object, what: str) -> tuple:
        game = _playable(body_game, what)
        return game, game_to_dict(game)

    @router.post("/decide", response_model=DecideOut | BusinessmanDecideOut)
    async def decide_action(body: DecideIn, request: Request) -> Response:
        """What a computer player does in a saved game, for the seat that must decide. Nothing
        is stored. ``ms`` is the server's time to read the game and decide. The expert
        searches in a separate worker process, within ``budget_ms`` counted from the
        request's arrival, before its body was read (a call that could not start in time gets
        503 server_busy)."""
        start = time.perf_counter()
        arrived = request.scope.get(ARRIVED, time.monotonic())
        if bm.is_saved_game(body.game):
            name = businessman_check(body)
            if name == "expert":
                return await businessman_expert(body, arrived, start)
            return await run_in_threadpool(businessman_decide, body, name, start)
        if body.game in available_games():
            raise InvalidInput("game holds the saved game itself (a Businessman one is told by "
                               "its format, businessman-game), not the game's name",
                               field="game")
        name = roster.check(body.player, "player")
        if body.budget_ms is not None and name not in roster.search:
            raise InvalidInput(f"budget_ms is the search budget of {', '.join(roster.search)}; "
                               f"{name!r} does not search", field="budget_ms")
        if name not in roster.search:
            return await run_in_threadpool(fast_decide, body, name, start)
        game, data = await run_in_threadpool(checked, body.game, "decide")
        budget_ms = float(body.budget_ms if body.budget_ms is not None else EXPERT_BUDGET_MS)
        # The expert's prior (the hard player's move, a few ms) is worked out while the search
        # runs, so that a late search is answered at once.
        prior = asyncio.ensure_future(run_in_threadpool(prior_decision, game,
                                                        body.pre_roll_actions))
        try:
            out, _ = await slow.run_async(
                expert_job, data, body.pre_roll_actions, budget_ms, arrived + budget_ms / 1000.0,
                None, None, answer_by=arrived + budget_ms / 1000.0 * ANSWER_BY_SHARE)
        except Late:  # the worker is late (waiting for a core): the expert's prior answers
            d = await prior
            return _decision(game, name, d.action, d.id, start, searched=False)
        return _decision(game, name, action_from_json(out["action"]), out["id"], start,
                         searched=True)

    @router.post("/analyse", response_model=AnalyseOut)
    async def analyse_game(body: AnalyseIn, request: Request) -> Response:
        """Each seat's chance of winning a saved game by rollouts to the end (95% Wilson
        intervals), and the expert's candidate actions with their simulated values. Bounded:
        at most ``max_analyse_rollouts`` rollouts and ``max_expert_sims`` simulations, and the
        whole call ends within ``analyse_budget_s`` of its arrival, checked while it runs
        (``rollouts`` says how many finished; with none, each ``rate`` is null). It runs in a
        separate worker process. The same seed gives the same figures when all of it ran."""
        start = time.perf_counter()
        arrived = request.scope.get(ARRIVED, time.monotonic())
        if bm.is_saved_game(body.game):
            raise InvalidInput("analyse is for Byapar games; this is a Businessman one",
                               field="game")
        _, data = await run_in_threadpool(checked, body.game, "analyse")
        result = await slow.run_async(analyse_job, data, body.pre_roll_actions, body.rollouts,
                                      body.expert_sims, body.seed,
                                      arrived + limits.ANALYSE_BUDGET_S)
        return JSONResponse({"api_version": limits.API_VERSION, **result,
                             "ms": round((time.perf_counter() - start) * 1000.0, 3)})

    return router


def _body_limits(given: dict) -> dict:
    """``BodyLimit``'s bounds in force (its defaults where not given), by their API names."""
    from .body_limit import (
        BODY_READ_TIMEOUT_S,
        BUSY_PAUSE_S,
        LARGE_BODIES_PER_S,
        LARGE_BODY_BYTES,
        LARGE_BODY_SLOTS,
    )
    from .limits import BODY_GRACE_S, BODY_MIN_RATE, CLIENT_BODY_BYTES, READING_BODY_BYTES

    return {"large_body_bytes": given.get("large_bytes", LARGE_BODY_BYTES),
            "large_body_slots": given.get("large_slots", LARGE_BODY_SLOTS),
            "large_bodies_per_s": given.get("large_per_s", LARGE_BODIES_PER_S),
            "busy_pause_s": given.get("busy_pause_s", BUSY_PAUSE_S),
            "body_read_timeout_s": given.get("read_timeout_s", BODY_READ_TIMEOUT_S),
            "min_body_rate": given.get("min_rate", BODY_MIN_RATE),
            "body_grace_s": given.get("grace_s", BODY_GRACE_S),
            "reading_body_bytes": given.get("reading_bytes", READING_BODY_BYTES),
            "client_body_bytes": given.get("client_bytes", CLIENT_BODY_BYTES)}


def _playable(data: object, what: str):
    game = load_game(data, "game")
    if game.is_over:
        raise Conflict(f"the game is over: there is nothing to {what}", field="game")
    return game


def _decision(game, name: str, action, action_id: int | None, start: float,
              searched: bool | None = None) -> Response:
    ms = (time.perf_counter() - start) * 1000.0
    named = ACTIONS[action_id].name if action_id is not None else str(action)
    out = {"api_version": limits.API_VERSION,
           "action": {"id": action_id, "name": named, "text": str(action),
                      "engine": action_to_json(action)},
           "seat": game.current_player, "player": name, "ms": round(ms, 3)}
    if searched is not None:
        out["searched"] = searched
    return JSONResponse(out)
