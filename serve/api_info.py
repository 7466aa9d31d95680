"""The /v1 routes that hold no table: what this server offers, the board, the action table,
and the stateless decision call for game sites."""

from __future__ import annotations

import time

from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response

from byapar_env import __version__
from byapar_env.action_table import ACTIONS
from byapar_env.engine import board as B
from byapar_env.engine.rules import DEFAULT_AUCTIONS, DEFAULT_ROUNDS, ROUND_PRESETS
from byapar_env.render import GROUP_COLOURS, SEAT_COLOURS

from . import limits
from .codec import action_to_json
from .decide import decide
from .errors import Conflict, InvalidInput
from .roster import PERSON, Roster
from .saves import load_game
from .schemas import AnalyseIn, DecideIn, DecideOut, ErrorOut
from .tables import TableStore


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def board_view() -> dict:
    squares = [{"index": s.index, "name": s.name, "kind": s.kind, "group": s.group,
                "price": s.price, "house_cost": s.house_cost, "rents": list(s.rents),
                "tax": s.tax} for s in B.SQUARES]
    return {"board": B.BOARD_HASH, "squares": squares,
            "groups": {g: list(sq) for g, sq in B.GROUPS.items()},
            "group_colours": {g: _hex(c) for g, c in GROUP_COLOURS.items()},
            "seat_colours": [_hex(c) for c in SEAT_COLOURS],
            "salary": B.SALARY, "jail_fine": B.JAIL_FINE, "bid_step": B.BID_STEP,
            "trade_money_step": B.RULES_FIGURES.trade_money_step, "hotel": B.HOTEL}


def info_router(roster: Roster, pace_ms: int, store: TableStore,
                max_body_bytes: int = limits.MAX_BODY_BYTES) -> APIRouter:
    router = APIRouter(prefix="/v1", tags=["info"])
    info = {
        "api_version": limits.API_VERSION, "version": __version__,
        "players": {"person": PERSON, "levels": list(roster.levels),
                    "panel": list(roster.panel), "search": list(roster.search),
                    "checkpoints": list(roster.checkpoints),
                    "all": list(roster.names)},
        "pace_ms": pace_ms,
        "defaults": {"rounds": DEFAULT_ROUNDS, "round_presets": list(ROUND_PRESETS),
                     "starting_cash": B.DEFAULT_STARTING_CASH,
                     "starting_cash_presets": list(B.STARTING_CASH_PRESETS),
                     "auctions": DEFAULT_AUCTIONS},
        "limits": {"max_tables": store.max_tables, "idle_evict_s": store.idle_evict_s,
                   "advance_budget_s": store.advance_budget_s,
                   "max_body_bytes": max_body_bytes,
                   "max_name_chars": limits.MAX_NAME_CHARS, "max_rounds": limits.MAX_ROUNDS,
                   "max_starting_cash": limits.MAX_STARTING_CASH,
                   "max_advance": limits.MAX_ADVANCE, "seats": [2, 6],
                   "max_expert_budget_ms": limits.MAX_EXPERT_BUDGET_MS,
                   "max_expert_sims": limits.MAX_EXPERT_SIMS,
                   "max_analyse_rollouts": limits.MAX_ANALYSE_ROLLOUTS,
                   "analyse_budget_s": limits.ANALYSE_BUDGET_S,
                   "idempotency_keys_kept": limits.MAX_REPLAY_KEYS,
                   "idempotency_bytes_kept": limits.MAX_REPLAY_BYTES},
    }
    board = board_view()
    actions = [{"id": a.id, "kind": a.kind, "arg": a.arg, "name": a.name} for a in ACTIONS]

    @router.get("")
    def server_info() -> dict:
        """The API version, the players offered, the default pace and every limit."""
        return info

    @router.get("/board")
    def board_data() -> dict:
        """The 36 squares (names, kinds, groups, prices, rents) and the colours the page uses."""
        return board

    @router.get("/actions")
    def action_table() -> dict:
        """Every action id of the environment with its kind, argument and name."""
        return {"actions": actions}

    return router


def decide_router(roster: Roster) -> APIRouter:
    router = APIRouter(prefix="/v1", tags=["decide"],
                       responses={c: {"model": ErrorOut} for c in (409, 413, 422)})

    @router.post("/decide", response_model=DecideOut)
    def decide_action(body: DecideIn) -> Response:
        """What a computer player does in a saved game, for the seat that must decide. Nothing
        is stored. ``ms`` is the server's time to read the game and decide."""
        start = time.perf_counter()
        name = roster.check(body.player, "player")
        if body.budget_ms is not None and name not in roster.search:
            raise InvalidInput(f"budget_ms is the search budget of {', '.join(roster.search)}; "
                               f"{name!r} does not search", field="budget_ms")
        game = load_game(body.game, "game")
        if game.is_over:
            raise Conflict("the game is over: there is nothing to decide", field="game")
        player = (roster.make(name, budget_ms=body.budget_ms) if body.budget_ms is not None
                  else roster.make(name))
        d = decide(player, game, body.pre_roll_actions)
        ms = (time.perf_counter() - start) * 1000.0
        named = ACTIONS[d.id].name if d.id is not None else str(d.action)
        return JSONResponse({
            "api_version": limits.API_VERSION,
            "action": {"id": d.id, "name": named, "text": str(d.action),
                       "engine": action_to_json(d.action)},
            "seat": game.current_player, "player": name, "ms": round(ms, 3)})

    @router.post("/analyse")
    def analyse_game(body: AnalyseIn) -> Response:
        """Each seat's chance of winning a saved game by rollouts to the end (95% Wilson
        intervals), and the expert's candidate actions with their simulated values. Bounded:
        at most ``max_analyse_rollouts`` rollouts and ``max_expert_sims`` simulations, and
        the rollouts stop after the server's time limit (``rollouts`` says how many ran).
        The same seed gives the same figures when every rollout runs."""
        from byapar_agents.analyse import analyse

        start = time.perf_counter()
        game = load_game(body.game, "game")
        if game.is_over:
            raise Conflict("the game is over: there is nothing to analyse", field="game")
        result = analyse(game, body.pre_roll_actions, rollouts=body.rollouts,
                         expert_sims=body.expert_sims, seed=body.seed,
                         deadline=start + limits.ANALYSE_BUDGET_S)
        return JSONResponse({"api_version": limits.API_VERSION, **result.to_dict(),
                             "ms": round((time.perf_counter() - start) * 1000.0, 3)})

    return router
