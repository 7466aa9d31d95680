"""Actions: small immutable values with readable names.

Fixed actions are shared singletons and per-square tables, so the engine never builds them in its
hot path. ``str(action)`` names any action, e.g. ``"bid 1,200 on Pokhara"``.
"""

from __future__ import annotations

import contextlib
from enum import IntEnum
from typing import NamedTuple

from .board import BID_STEP, NUM_SQUARES, SQUARES


class ActionKind(IntEnum):
    ROLL = 0
    PAY_FINE = 1
    USE_BAIL_CARD = 2
    BUILD = 3
    SELL_BUILDING = 4
    MORTGAGE = 5
    UNMORTGAGE = 6
    OFFER_TRADE = 7
    BUY = 8
    DECLINE = 9  # do not buy the place landed on
    BID = 10
    DROP_OUT = 11
    ACCEPT_TRADE = 12
    REJECT_TRADE = 13


def _name(square: object) -> str:
    """A square's name; an index off the board is shown as it is, so errors can name it."""
    if isinstance(square, int) and 0 <= square < NUM_SQUARES:
        return SQUARES[square].name
    return f"square {square!r}"


def _names(squares: tuple[int, ...]) -> str:
    if not isinstance(squares, (tuple, list)):
        return repr(squares)
    return ", ".join(_name(s) for s in squares) if squares else "nothing"


class Action(NamedTuple):
    """One decision. ``square`` names the place acted on; ``amount`` is a bid or trade money.

    A trade offer names the other player by seat (``target``), the places the offerer gives and
    takes, and ``amount``: positive when the offerer pays it, negative when the other player does.
    """

    kind: ActionKind
    square: int = -1
    amount: int = 0
    target: int = -1
    give: tuple[int, ...] = ()
    take: tuple[int, ...] = ()

    def __str__(self) -> str:
        k = self.kind
        if k == ActionKind.BID:
            amount = f"{self.amount:,}" if isinstance(self.amount, int) else repr(self.amount)
            return f"bid {amount} on {_name(self.square)}"
        if k == ActionKind.OFFER_TRADE:
            money = ""
            if not isinstance(self.amount, int):
                money = f"; money {self.amount!r}"
            elif self.amount > 0:
                money = f"; pay Rs {self.amount:,}"
            elif self.amount < 0:
                money = f"; ask Rs {-self.amount:,}"
            return (f"offer seat {self.target}: give {_names(self.give)} "
                    f"for {_names(self.take)}{money}")
        try:
            text = _KIND_TEXT.get(k)
        except TypeError:  # an unhashable kind
            text = None
        if text is None:
            return f"unknown action kind {k!r}"
        if self.square != -1:
            return f"{text} {_name(self.square)}"
        return text


_KIND_TEXT = {
    ActionKind.ROLL: "roll",
    ActionKind.PAY_FINE: "pay the jail fine",
    ActionKind.USE_BAIL_CARD: "use a bail card",
    ActionKind.BUILD: "build on",
    ActionKind.SELL_BUILDING: "sell a building on",
    ActionKind.MORTGAGE: "mortgage",
    ActionKind.UNMORTGAGE: "pay off the mortgage on",
    ActionKind.BUY: "buy",
    ActionKind.DECLINE: "do not buy",
    ActionKind.DROP_OUT: "drop out of the auction",
    ActionKind.ACCEPT_TRADE: "accept the trade",
    ActionKind.REJECT_TRADE: "decline the trade",
}

ROLL = Action(ActionKind.ROLL)
PAY_FINE = Action(ActionKind.PAY_FINE)
USE_BAIL_CARD = Action(ActionKind.USE_BAIL_CARD)
DROP_OUT = Action(ActionKind.DROP_OUT)
ACCEPT_TRADE = Action(ActionKind.ACCEPT_TRADE)
REJECT_TRADE = Action(ActionKind.REJECT_TRADE)

_BUILD = tuple(Action(ActionKind.BUILD, s) for s in range(NUM_SQUARES))
_SELL = tuple(Action(ActionKind.SELL_BUILDING, s) for s in range(NUM_SQUARES))
_MORTGAGE = tuple(Action(ActionKind.MORTGAGE, s) for s in range(NUM_SQUARES))
_UNMORTGAGE = tuple(Action(ActionKind.UNMORTGAGE, s) for s in range(NUM_SQUARES))
_BUY = tuple(Action(ActionKind.BUY, s) for s in range(NUM_SQUARES))
_DECLINE = tuple(Action(ActionKind.DECLINE, s) for s in range(NUM_SQUARES))


def _square(square: int) -> int:
    """A square index, refusing negatives (a list would wrap them round silently)."""
    if type(square) is not int or not 0 <= square < NUM_SQUARES:
        raise ValueError(f"a square is a whole number from 0 to {NUM_SQUARES - 1}, "
                         f"got {square!r}")
    return square


def build(square: int) -> Action:
    return _BUILD[_square(square)]


def sell_building(square: int) -> Action:
    return _SELL[_square(square)]


def mortgage(square: int) -> Action:
    return _MORTGAGE[_square(square)]


def unmortgage(square: int) -> Action:
    return _UNMORTGAGE[_square(square)]


def buy(square: int) -> Action:
    return _BUY[_square(square)]


def decline(square: int) -> Action:
    return _DECLINE[_square(square)]


def bid(square: int, amount: int) -> Action:
    return Action(ActionKind.BID, square, amount)


# Bids on each square, indexed by amount // BID_STEP and grown on demand, so that listing the
# legal bids is a list slice rather than hundreds of new tuples.
_BIDS: list[list[Action]] = [[] for _ in range(NUM_SQUARES)]


def bids(square: int, low: int, high: int) -> list[Action]:
    """Every bid on ``square`` from ``low`` to ``high`` (both multiples of the bid step)."""
    table = _BIDS[square]
    top = high // BID_STEP
    if len(table) <= top:
        table.extend(
            Action(ActionKind.BID, square, i * BID_STEP) for i in range(len(table), top + 1)
        )
    return table[low // BID_STEP: top + 1]


def offer_trade(
    target: int, give: tuple[int, ...] | list[int] = (), take: tuple[int, ...] | list[int] = (),
    amount: int = 0,
) -> Action:
    """An offer to seat ``target``: ``give`` my places for ``take`` theirs; ``amount`` > 0 I pay."""
    give, take = tuple(give), tuple(take)
    # A malformed offer keeps its order; the engine refuses it with a clear message.
    with contextlib.suppress(TypeError):
        give, take = tuple(sorted(give)), tuple(sorted(take))
    return Action(ActionKind.OFFER_TRADE, -1, amount, target, give, take)
