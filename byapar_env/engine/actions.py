"""Actions: small immutable values with readable names.

Fixed actions are shared singletons and per-square tables, so the engine never builds them in its
hot path. ``str(action)`` names any action, e.g. ``"bid 1,200 on Pokhara"``.
"""

from __future__ import annotations

import contextlib
from enum import IntEnum
from typing import NamedTuple

from ..core.errors import show
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


_KIND_VALUES = frozenset(int(k) for k in ActionKind)

def is_kind(kind: object) -> bool:
    """Whether ``kind`` is an action kind: an ``ActionKind`` or its plain int (not a bool)."""
    return isinstance(kind, ActionKind) or (type(kind) is int and kind in _KIND_VALUES)


def _name(square: object) -> str:
    """A square's name; an index off the board is shown as it is, so errors can name it."""
    if type(square) is int and 0 <= square < NUM_SQUARES:
        return SQUARES[square].name
    return f"square {show(square)}"


def _names(squares: object) -> str:
    if type(squares) is not tuple:
        return show(squares)
    if not squares:
        return "nothing"
    names = ", ".join(_name(s) for s in squares[:12])
    return names + (", ..." if len(squares) > 12 else "")


class Action(NamedTuple):
    """One decision. ``square`` names the place acted on; ``amount`` is a bid or trade money.

    A trade offer names the other player by seat (``target``), the places the offerer gives and
    takes, and ``amount``: positive when the offerer pays it, negative when the other player does.
    Every field is a plain ``int`` (never a bool or a float) or a tuple of them; the engine
    refuses anything else, and any field the kind does not use, with ``IllegalActionError``.
    """

    kind: ActionKind
    square: int = -1
    amount: int = 0
    target: int = -1
    give: tuple[int, ...] = ()
    take: tuple[int, ...] = ()

    def __str__(self) -> str:
        # Written for any field values, since it names malformed actions in error messages.
        k = self.kind
        if not is_kind(k):
            return f"unknown action kind {show(k)}"
        if k == ActionKind.BID:
            amount = f"{self.amount:,}" if type(self.amount) is int else show(self.amount)
            return f"bid {amount} on {_name(self.square)}"
        if k == ActionKind.OFFER_TRADE:
            money = ""
            if type(self.amount) is not int:
                money = f"; money {show(self.amount)}"
            elif self.amount > 0:
                money = f"; pay Rs {self.amount:,}"
            elif self.amount < 0:
                money = f"; ask Rs {-self.amount:,}"
            target = self.target if type(self.target) is int else show(self.target)
            return (f"offer seat {target}: give {_names(self.give)} "
                    f"for {_names(self.take)}{money}")
        text = _KIND_TEXT[k]
        if type(self.square) is int and self.square == -1:
            return text
        return f"{text} {_name(self.square)}"


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

# The fields each kind uses besides ``kind``; every other field must keep its default.
_SQUARE_KINDS = frozenset({
    ActionKind.BUILD, ActionKind.SELL_BUILDING, ActionKind.MORTGAGE, ActionKind.UNMORTGAGE,
    ActionKind.BUY, ActionKind.DECLINE, ActionKind.BID,
})
_FIELD_DEFAULTS = (("square", -1), ("amount", 0), ("target", -1), ("give", ()), ("take", ()))
# Per kind value, for the quick path: 0 uses no field, 1 a square, 2 a square and an amount
# (a bid), 3 is a trade offer (checked in full by Game.trade_error).
_SHAPE = tuple(3 if k == ActionKind.OFFER_TRADE else 2 if k == ActionKind.BID
               else 1 if k in _SQUARE_KINDS else 0 for k in ActionKind)


def field_error(action: Action) -> str | None:
    """Why ``action`` is malformed (a field of the wrong type, or one its kind does not use), or
    None. Whether it is legal now is the game's business; this needs no game.

    Trade offers are checked for their square here and for the rest by ``Game.trade_error``,
    which knows the seats and the places.
    """
    k, sq, amount, target, give, take = action
    # The quick path, taken by every well-formed action (it runs on each apply): exact types,
    # then the values. Anything else gets the slow path below, which names the field.
    if (type(k) is ActionKind and type(sq) is int and type(amount) is int
            and type(target) is int and type(give) is tuple and type(take) is tuple):
        shape = _SHAPE[k]
        if shape == 3:
            if sq == -1:
                return None
        elif target == -1 and not give and not take:
            if shape == 0:
                if sq == -1 and amount == 0:
                    return None
            elif 0 <= sq < NUM_SQUARES and (shape == 2 or amount == 0):
                return None
    if not is_kind(k):
        return (f"field 'kind' must be an ActionKind, one of "
                f"{[x.name for x in ActionKind]}, got {show(k)}")
    k = ActionKind(k)
    if k == ActionKind.OFFER_TRADE:
        if type(sq) is not int or sq != -1:
            return f"field 'square' is not used by a trade offer and must be -1, got {show(sq)}"
        return None
    for field, default in _FIELD_DEFAULTS:
        value = getattr(action, field)
        if field == "square" and k in _SQUARE_KINDS:
            if type(value) is not int or not 0 <= value < NUM_SQUARES:
                return (f"field 'square' of {k.name} must be a whole number (an int) from 0 to "
                        f"{NUM_SQUARES - 1}, got {show(value)}")
        elif field == "amount" and k == ActionKind.BID:
            if type(value) is not int:
                return f"field 'amount' of a bid must be a whole number (an int), got {show(value)}"
        elif type(value) is not type(default) or value != default:
            return (f"field {field!r} is not used by {k.name} and must be {default!r}, "
                    f"got {show(value)}")
    return None


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
                         f"got {show(square)}")
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


# How many bids the legal action list holds one by one from the lowest (Rs 100,000 of bids: more
# than six times the largest preset starting cash, so that every normal game lists every bid),
# and at most how many larger ones follow up to the bidder's cash. The list is therefore never
# longer than 1 + BIDS_LISTED_EACH + BIDS_LISTED_ABOVE, whatever the cash.
BIDS_LISTED_EACH = 1_000
BIDS_LISTED_ABOVE = 24

# Bids on each square, indexed by amount // BID_STEP and grown on demand up to a cap, so that
# listing the legal bids is mostly a list slice rather than hundreds of new tuples. The cap
# bounds the memory (36 squares x 2,048 bids at most); bids above it are built when listed.
_BID_CACHE_SIZE = 2_048
_BIDS: list[list[Action]] = [[] for _ in range(NUM_SQUARES)]


def _bid_run(square: int, first: int, last: int) -> list[Action]:
    """The bids on ``square`` of ``first * BID_STEP`` to ``last * BID_STEP``, in order."""
    table = _BIDS[square]
    cached = min(last, _BID_CACHE_SIZE - 1)
    if len(table) <= cached:
        table.extend(
            Action(ActionKind.BID, square, i * BID_STEP) for i in range(len(table), cached + 1)
        )
    out = table[first: cached + 1]
    start = max(first, cached + 1)
    if start <= last:
        out.extend(Action(ActionKind.BID, square, i * BID_STEP) for i in range(start, last + 1))
    return out


def bids(square: int, low: int, high: int) -> list[Action]:
    """The bids on ``square`` that ``Game.legal_actions`` lists, for a lowest legal bid ``low``
    and a bidder holding ``high``, in increasing order.

    Every multiple of the bid step from ``low`` up to ``BIDS_LISTED_EACH`` of them; above that
    (only with far more cash than any normal game holds) at most ``BIDS_LISTED_ABOVE`` more,
    spaced ever closer to the top, which is the highest bid the cash allows (all of it, rounded
    down to the bid step). So the list stays short at any cash; ``Game.is_legal`` and
    ``Game.apply`` still take every bid in between.
    """
    first = -(-low // BID_STEP)  # the lowest multiple of the bid step from low up
    top = high // BID_STEP
    if top < first:
        return []
    dense = min(top, first + BIDS_LISTED_EACH - 1)
    out = _bid_run(square, first, dense)
    if dense < top:
        # The rest of the range halved again and again: points at span/2^23 ... span/2, span
        # above the dense run, so the last one is the all-in bid.
        span = top - dense
        last = dense
        for shift in range(BIDS_LISTED_ABOVE - 1, -1, -1):
            i = dense + (span >> shift)
            if i > last:
                out.append(Action(ActionKind.BID, square, i * BID_STEP))
                last = i
    return out


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
