"""Businessman observations: what one seat may know, as a flat float32 vector.

``encode(view)`` reads only ``Game.view(seat)``, the engine's account of what that seat may
know: the public state, its own Exchange hand and the size of every hand, never another seat's
hand, a deck's order, the seed or the generator. So nothing hidden can reach an observation by
construction; ``tests/test_businessman_env.py`` checks it as well.

Seats are relative: player slot 0 is the observer, slot 1 the next seat in turn order, and so on
(slots beyond the table size are all zero). ``observation_layout()`` names the slices; money is
in units of the starting cash (250,000), share counts in tens, prices over 25.
"""

from __future__ import annotations

import numpy as np

from .businessman import board
from .businessman.board import FIGURES

MAX_SEATS = FIGURES.max_players
OWNABLES = board.OWNABLES
_OWN_INDEX = {c: i for i, c in enumerate(OWNABLES)}
_N_OWN = len(OWNABLES)
MONEY = float(FIGURES.starting_cash)
WORTH = 1_000_000.0
OBSERVATION_VERSION = 1

# (name, size) in order; the per-cell and per-seat blocks are flattened row by row.
CELL_FEATURES = ("owner_slot",) * MAX_SEATS + ("level", "pledged", "pledge_laps_left",
                                                "group_held")
SEAT_FEATURES = (("present", 1), ("bankrupt", 1), ("cash", 1), ("track", 4),
                 ("position", board.NUM_CELLS), ("laps", 1), ("shares", board.NUM_COLOURS),
                 ("passes", len(board.DECKS)), ("hand_size", 1), ("net_worth", 1), ("is_turn", 1),
                 ("is_deciding", 1))
SEAT_SIZE = sum(n for _, n in SEAT_FEATURES)
_PARTS = (
    ("cells", _N_OWN * len(CELL_FEATURES)),
    ("players", MAX_SEATS * SEAT_SIZE),
    ("prices", board.NUM_COLOURS),
    ("supply", board.NUM_COLOURS),
    ("hand", board.NUM_EXCHANGE_KINDS),
    ("played", board.NUM_EXCHANGE_KINDS),
    ("deck_sizes", len(board.DECKS)),
    ("tokens_left", 2),
    ("phase", 11),
    ("pending_cell", _N_OWN),
    ("fork", len(board.FORK_NAMES)),
    ("picks_left", 1),
    ("session_bought", board.NUM_COLOURS),
    ("trades_made", 1),
    ("trade_target", MAX_SEATS),
    ("trade_give", _N_OWN),
    ("trade_take", _N_OWN),
    ("trade_shares", board.NUM_COLOURS),
    ("trade_cash", 1),
    ("trade_steps", 1),
    ("debt", 1),
    ("round", 1),
    ("rounds_left", 1),
    ("dice", 2),
    ("options", 3),
)


def _offsets() -> dict[str, slice]:
    out, at = {}, 0
    for name, size in _PARTS:
        out[name] = slice(at, at + size)
        at += size
    return out


_LAYOUT = _offsets()
OBSERVATION_SIZE = _LAYOUT["options"].stop
_SEAT_AT = {}
_at = 0
for _name, _size in SEAT_FEATURES:
    _SEAT_AT[_name] = _at
    _at += _size
_PRICE = tuple(c.price for c in board.CELLS)
_PLEDGE = tuple(c.pledge for c in board.CELLS)
_REDEEM = tuple(v + v * FIGURES.redeem_interest_percent // 100 for v in _PLEDGE)
_BRANCH = tuple(c.branch_cost for c in board.CELLS)
_ENTERPRISE = tuple(c.enterprise_cost for c in board.CELLS)
_PRINTED_COUNT = tuple(k.count for k in board.EXCHANGE_KINDS)


def observation_layout() -> dict[str, slice]:
    """The named slices of the observation vector (a copy)."""
    return dict(_LAYOUT)


def view_net_worth(view: dict, seat: int) -> int:
    """``Game.net_worth(seat)`` computed from a view (public figures only)."""
    if view["bankrupt"][seat]:
        return 0
    prices = view["prices"]
    held = sum(n * p for n, p in zip(view["shares"][seat], prices, strict=True))
    total = view["cash"][seat] + held * FIGURES.point
    owner, mort, level = view["owner"], view["mortgaged"], view["level"]
    for c in OWNABLES:
        if owner[c] == seat:
            total += _PRICE[c] - (_REDEEM[c] if mort[c] else 0)
            lv = level[c]
            if lv:
                total += _BRANCH[c] + (_ENTERPRISE[c] if lv == 2 else 0)
    return total


def encode(view: dict, out: np.ndarray | None = None) -> np.ndarray:
    """The observation of the seat whose ``Game.view(seat)`` this is."""
    v = np.zeros(OBSERVATION_SIZE, np.float32) if out is None else out
    if out is not None:
        v[:] = 0.0
    me = view["seat"]
    rules = view["rules"]
    n = rules["num_players"]

    def slot(seat: int) -> int:
        return (seat - me) % n

    owner, level, mort, laps = view["owner"], view["level"], view["mortgaged"], view["laps"]
    pledge_lap = view["pledge_lap"]
    # cells
    width = len(CELL_FEATURES)
    base = _LAYOUT["cells"].start
    for i, c in enumerate(OWNABLES):
        o = owner[c]
        if o < 0:
            continue
        row = base + i * width
        v[row + slot(o)] = 1.0
        v[row + MAX_SEATS] = level[c] / 2
        if mort[c]:
            v[row + MAX_SEATS + 1] = 1.0
            left = pledge_lap[c] + FIGURES.forfeit_laps - laps[o]
            v[row + MAX_SEATS + 2] = max(left, 0) / FIGURES.forfeit_laps
        group = board.GROUP_OF[c]
        if group is not None and all(owner[g] == o for g in group):
            v[row + MAX_SEATS + 3] = 1.0
    # players
    base = _LAYOUT["players"].start
    at = _SEAT_AT
    turn, deciding = view["turn"], view["current_player"]
    for s in range(n):
        row = base + slot(s) * SEAT_SIZE
        v[row + at["present"]] = 1.0
        if view["bankrupt"][s]:
            v[row + at["bankrupt"]] = 1.0
            continue
        v[row + at["cash"]] = view["cash"][s] / MONEY
        v[row + at["track"] + view["track"][s]] = 1.0
        v[row + at["position"] + view["position"][s]] = 1.0
        v[row + at["laps"]] = laps[s] / 10
        for c, k in enumerate(view["shares"][s]):
            v[row + at["shares"] + c] = k / 10
        for d, deck in enumerate(board.DECKS):
            v[row + at["passes"] + d] = view["passes"][s].count(deck)
        v[row + at["hand_size"]] = view["hand_sizes"][s] / board.HAND_MAX
        v[row + at["net_worth"]] = view_net_worth(view, s) / WORTH
        v[row + at["is_turn"]] = float(s == turn)
        v[row + at["is_deciding"]] = float(s == deciding)
    v[_LAYOUT["prices"]] = np.asarray(view["prices"], np.float32) / FIGURES.price_max
    v[_LAYOUT["supply"]] = np.asarray(view["supply"], np.float32) / FIGURES.shares_per_colour
    hand = _LAYOUT["hand"].start
    for kind in view["hand"]:
        v[hand + kind] += 0.25
    played = _LAYOUT["played"].start
    for kind in view["played"]:
        v[played + kind] += 1.0 / _PRINTED_COUNT[kind]
    for d, deck in enumerate(board.DECKS):
        v[_LAYOUT["deck_sizes"].start + d] = view["deck_sizes"][deck] / board.DECK_SIZE[deck]
    branches = sum(1 for c in board.LOTS if level[c])
    enterprises = sum(1 for c in board.LOTS if level[c] == 2)
    v[_LAYOUT["tokens_left"].start] = (FIGURES.branch_tokens - branches) / FIGURES.branch_tokens
    v[_LAYOUT["tokens_left"].start + 1] = ((FIGURES.enterprise_tokens - enterprises)
                                           / FIGURES.enterprise_tokens)
    v[_LAYOUT["phase"].start + view["phase"]] = 1.0
    if view["pending_cell"] in _OWN_INDEX:
        v[_LAYOUT["pending_cell"].start + _OWN_INDEX[view["pending_cell"]]] = 1.0
    if view["fork"] >= 0:
        v[_LAYOUT["fork"].start + view["fork"]] = 1.0
    v[_LAYOUT["picks_left"].start] = view["picks_left"] / 5
    v[_LAYOUT["session_bought"]] = (np.asarray(view["session_bought"], np.float32)
                                    / FIGURES.session_buy_limit)
    v[_LAYOUT["trades_made"].start] = view["trades_made"] / FIGURES.max_trades_per_turn
    t = view["trade"]
    if t is not None:
        v[_LAYOUT["trade_target"].start + slot(t["target"])] = 1.0
        for c in t["give"]:
            v[_LAYOUT["trade_give"].start + _OWN_INDEX[c]] = 1.0
        for c in t["take"]:
            v[_LAYOUT["trade_take"].start + _OWN_INDEX[c]] = 1.0
        v[_LAYOUT["trade_shares"]] = np.asarray(t["shares"], np.float32) / 10
        v[_LAYOUT["trade_cash"].start] = t["cash"] / MONEY
        v[_LAYOUT["trade_steps"].start] = t["steps"] / FIGURES.max_compose_steps
    debt = view["debt"]
    if debt is not None:
        v[_LAYOUT["debt"].start] = sum(debt[3::2]) / MONEY
    limit = rules["max_rounds"]
    v[_LAYOUT["round"].start] = view["round"] / (limit or 100)
    v[_LAYOUT["rounds_left"].start] = (limit - view["round"]) / limit if limit else 1.0
    v[_LAYOUT["dice"]] = np.asarray(view["dice"], np.float32) / FIGURES.dice_sides
    o = _LAYOUT["options"].start
    v[o] = n / MAX_SEATS
    v[o + 1] = (limit or 100) / 100
    v[o + 2] = float(rules["abroad_enabled"])
    return v


__all__ = ["OBSERVATION_SIZE", "OBSERVATION_VERSION", "encode", "observation_layout",
           "view_net_worth"]
