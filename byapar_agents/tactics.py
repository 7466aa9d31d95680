"""Shared judgement of the hand-written players: place values, money steps, legal-action sets."""

from __future__ import annotations

from byapar_env.action_table import TRADE_AMOUNTS
from byapar_env.engine import Game, board

PRICE = {sq: board.SQUARES[sq].price for sq in board.PLACES}
HOUSE_COST = {sq: board.SQUARES[sq].house_cost for sq in board.CITIES}
GROUP_OF = board.GROUP_OF


def list_value(game: Game, squares) -> int:
    """Places at their printed price, half if mortgaged: a casual player's measure."""
    return sum(PRICE[s] // 2 if game.mortgaged[s] else PRICE[s] for s in squares)


def others_holding_group(game: Game, square: int, seat: int) -> tuple[int, int]:
    """For the group of ``square``: how many of its other places ``seat`` holds, and how many
    are held by players other than ``seat`` (the bank's do not count)."""
    group = GROUP_OF[square]
    mine = theirs = 0
    if group is None:
        return 0, 0
    for s in group:
        if s == square:
            continue
        o = game.owner[s]
        if o == seat:
            mine += 1
        elif o >= 0:
            theirs += 1
    return mine, theirs


def money_step(amount: int) -> int:
    """The smallest trade amount of the environment's table that is at least ``amount``
    (0 if none): offers stay expressible as environment actions."""
    for a in TRADE_AMOUNTS:
        if a >= amount:
            return a
    return 0


def money_step_below(amount: int) -> int:
    """The largest trade amount of the table below ``amount`` (0 if none)."""
    return max((a for a in TRADE_AMOUNTS if a < amount), default=0)
