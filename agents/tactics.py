"""Shared pieces of the hand-written players: id lookups, place values, trade plans.

Hand-written players read the engine's game and answer with the environment's action ids. The
lookups here turn "build on square 26" into its id once, at import, so a decision costs
microseconds.
"""

from __future__ import annotations

from byapar_env.action_table import (
    ACCEPT_ID,
    ACTIONS,
    BID_MIN_ID,
    BUY_ID,
    CANCEL_ID,
    DECLINE_ID,
    DROP_OUT_ID,
    PAY_FINE_ID,
    REJECT_ID,
    ROLL_ID,
    SUBMIT_ID,
    TRADE_AMOUNTS,
    TRADE_MONEY_IDS,
    TRADE_START_IDS,
    USE_BAIL_ID,
)
from byapar_env.engine import Game
from byapar_env.engine import board as B


def _ids(kind: str) -> dict[int, int]:
    return {a.arg: a.id for a in ACTIONS if a.kind == kind}


BUILD = _ids("build")
SELL = _ids("sell")
MORTGAGE = _ids("mortgage")
UNMORTGAGE = _ids("unmortgage")
TOGGLE = _ids("trade_toggle")
PRICE = {sq: B.SQUARES[sq].price for sq in B.PLACES}
HOUSE_COST = {sq: B.SQUARES[sq].house_cost for sq in B.CITIES}
GROUP_OF = B.GROUP_OF

__all__ = [
    "ACCEPT_ID", "BID_MIN_ID", "BUILD", "BUY_ID", "CANCEL_ID", "DECLINE_ID", "DROP_OUT_ID",
    "MORTGAGE", "PAY_FINE_ID", "PRICE", "REJECT_ID", "ROLL_ID", "SELL", "SUBMIT_ID", "TOGGLE",
    "UNMORTGAGE", "USE_BAIL_ID", "TradePlan", "list_value", "others_holding_group",
]


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


class TradePlan:
    """A trade offer a player has decided on, played out as the environment's composition steps:
    start, toggle each place, set the money, submit. Cancelled if a step is no longer legal."""

    __slots__ = ("steps",)

    def __init__(self, me: int, target: int, n: int, give: list[int], take: list[int],
                 amount: int) -> None:
        steps = [TRADE_START_IDS[(target - me) % n - 1]]
        steps += [TOGGLE[s] for s in give + take]
        if amount:
            steps.append(TRADE_MONEY_IDS[amount])
        steps.append(SUBMIT_ID)
        self.steps = steps

    def next(self, legal: list[int]) -> int | None:
        """The next step, or CANCEL if it is not legal now; None when the plan is done."""
        if not self.steps:
            return None
        step = self.steps.pop(0)
        if step in legal:
            return step
        self.steps = []
        return CANCEL_ID if CANCEL_ID in legal else None


def money_step(amount: int) -> int:
    """The smallest trade amount the table offers that is at least ``amount`` (0 if none)."""
    for a in TRADE_AMOUNTS:
        if a >= amount:
            return a
    return 0
