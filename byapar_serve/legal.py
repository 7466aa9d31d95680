"""What a person may do now, as the API lists it, and an action request resolved to an engine
action (by id, by name, or in engine form), refused with the legal ones when it is not legal.

Ids are the environment's action ids (``byapar_env.action_table``), so a name and an id mean
the same thing here as everywhere in the project. The ids that compose a trade offer step by
step are left out: the API takes an offer whole, in engine form. Bids at any amount and offers
have no single id; ``bids`` and ``trade`` in the state describe them.
"""

from __future__ import annotations

from byapar_env.action_table import ACTIONS, NUM_ACTIONS, engine_action, legal_ids
from byapar_env.driver import legal_engine_actions, pre_roll_capped
from byapar_env.engine import MAX_OFFERS_PER_TURN, Action, Game, Phase, board

from .codec import action_from_json, action_to_json
from .decide import COMPOSING, permitted
from .errors import IllegalAction, InvalidInput

_TRADE_HINT = ('a trade offer is sent whole, in engine form: {"engine": {"kind": '
               '"offer_trade", "target": SEAT, "give": [SQUARES], "take": [SQUARES], '
               '"amount": RUPEES}} (amount > 0: you pay; < 0: they pay)')


def legal_entries(game: Game, pre_roll_actions: int) -> list[dict]:
    """Every legal id now but the trade-composition ones: id, name, engine action and its text."""
    if game.is_over:
        return []
    out = []
    for i in legal_ids(game, None, 1, pre_roll_capped(game, pre_roll_actions)):
        if ACTIONS[i].kind in COMPOSING:
            continue
        action = engine_action(game, i)
        out.append({"id": i, "name": ACTIONS[i].name, "text": str(action),
                    "engine": action_to_json(action)})
    return out


def bid_range(game: Game) -> dict | None:
    """Any bid from ``min`` to ``max`` in steps of ``step`` is legal (not only those with ids)."""
    if game.phase != Phase.AUCTION or game.auction is None:
        return None
    a = game.auction
    return {"square": a.square, "high": a.high, "holder": a.holder, "bidders": list(a.bidders),
            "min": a.high + board.BID_STEP, "max": game.cash[game.current_player],
            "step": board.BID_STEP}


def trade_options(game: Game, pre_roll_actions: int) -> dict | None:
    """Whom an offer may go to now, and how many offers are left this turn; None when none."""
    if pre_roll_capped(game, pre_roll_actions) or not game.can_offer_trade():
        return None
    p = game.current_player
    # An offer needs a place that can change hands (its group has no buildings) on one side.
    movable = {game.owner[sq] for sq in board.PLACES
               if not any(game.buildings[s] for s in (board.GROUP_OF[sq] or (sq,)))}
    targets = [s for s in game.active_seats() if s != p and (p in movable or s in movable)]
    if not targets:
        return None
    return {"targets": targets, "offers_left": MAX_OFFERS_PER_TURN - game.offers_made}


def _short_list(game: Game, pre_roll_actions: int) -> list[dict]:
    return [{"id": e["id"], "name": e["name"], "text": e["text"]}
            for e in legal_entries(game, pre_roll_actions)]


def _refuse(game: Game, pre_roll_actions: int, field: str, why: str) -> IllegalAction:
    extra = ""
    bids = bid_range(game)
    if bids:
        extra = (f"; any bid from {bids['min']:,} to {bids['max']:,} in steps of "
                 f"{bids['step']} is legal in engine form or by name ('bid 1,200 on ...')")
    if trade_options(game, pre_roll_actions):
        extra += "; " + _TRADE_HINT
    return IllegalAction(f"{why}; the legal actions are listed in 'allowed'{extra}", field=field,
                         allowed=_short_list(game, pre_roll_actions))


def _normal(text: str) -> str:
    return " ".join(text.lower().replace(",", "").split())


def resolve(request: dict, game: Game, pre_roll_actions: int) -> Action:
    """The engine action an apply request names: exactly one of ``id``, ``name``, ``engine``."""
    given = [k for k in ("id", "name", "engine") if request.get(k) is not None]
    if len(given) != 1:
        raise InvalidInput("give exactly one of id (an action id), name (an action's name) or "
                           f"engine (an engine action), got {given or 'none'}", field="action",
                           allowed=["id", "name", "engine"])
    how = given[0]
    value = request[how]
    if how == "engine":
        action = action_from_json(value, "engine")
        why = permitted(game, action, pre_roll_actions)
        if why is not None:
            raise _refuse(game, pre_roll_actions, "engine", f"{action} may not be made now: "
                          f"{why}")
        return action
    entries = legal_entries(game, pre_roll_actions)
    if how == "id":
        if type(value) is not int or not 0 <= value < NUM_ACTIONS:
            raise InvalidInput(f"id must be an action id from 0 to {NUM_ACTIONS - 1}",
                               field="id")
        for e in entries:
            if e["id"] == value:
                return engine_action(game, value)
        hint = f" ({_TRADE_HINT})" if ACTIONS[value].kind in COMPOSING else ""
        raise _refuse(game, pre_roll_actions, "id",
                      f"action {value} ({ACTIONS[value].name}) is not legal now{hint}")
    if not isinstance(value, str) or len(value) > 200:
        raise InvalidInput("name must be an action's name of at most 200 characters",
                           field="name")
    wanted = _normal(value)
    for e in entries:
        if wanted in (_normal(e["name"]), _normal(e["text"])):
            return engine_action(game, e["id"])
    # Any legal engine action by its text: bids at amounts without an id of their own.
    for action in legal_engine_actions(game, pre_roll_actions):
        if _normal(str(action)) == wanted:
            return action
    if game.phase == Phase.PRE_ROLL and wanted.startswith("offer"):
        raise _refuse(game, pre_roll_actions, "name", f"offers are not taken by name; "
                      f"{_TRADE_HINT}")
    raise _refuse(game, pre_roll_actions, "name", f"no legal action is called {value!r}")


def offer_view(game: Game) -> dict | None:
    """The offer the current player is answering, if any."""
    if game.phase != Phase.TRADE_ANSWER or game.offer is None:
        return None
    seat, offer = game.offer
    return {"from": seat, **action_to_json(offer), "text": str(offer)}
