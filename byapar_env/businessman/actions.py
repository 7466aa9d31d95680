"""Businessman's actions: small immutable values with readable names, all built once.

Every decision of the game is one of a fixed, finite set of actions (trades are composed step by
step), so each exists once as a shared value: ``ALL_ACTIONS`` lists them in a fixed order (a flat
action table for an environment), and the helpers below hand out the shared values.
``str(action)`` names it, e.g. ``"build a branch on Bakery"`` or ``"play the card in slot 2 on
RED"``.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

from ..core.errors import show
from . import board


class ActionKind(IntEnum):
    ROLL = 0
    MORTGAGE = 1
    REDEEM = 2
    BUILD_BRANCH = 3
    BUILD_ENTERPRISE = 4
    SELL_BUILDING = 5
    USE_PASS = 6
    START_TRADE = 7  # arg: the seat offered a trade
    TRADE_GIVE_LOT = 8  # toggles a lot of the proposer's in the proposal
    TRADE_TAKE_LOT = 9  # toggles a lot of the other seat's
    TRADE_GIVE_SHARE = 10  # one more share of ``colour`` to give (or one fewer to take)
    TRADE_TAKE_SHARE = 11
    TRADE_GIVE_CASH = 12  # arg: credits more to give (or fewer to take)
    TRADE_TAKE_CASH = 13
    SUBMIT_TRADE = 14
    CANCEL_TRADE = 15
    ACCEPT_TRADE = 16
    REJECT_TRADE = 17
    BUY = 18  # arg: the lot offered
    DECLINE = 19
    YES = 20  # arg: the fork (board.FORK_*)
    NO = 21
    HOTEL = 22  # arg: the Hotel's option (board.HOTEL_*)
    PICK_COLOUR = 23
    PLAY_CARD = 24  # arg: hand slot; colour; down (only for a Deuce)
    SKIP_CARD = 25
    BUY_SHARE = 26
    SELL_SHARE = 27
    END_SESSION = 28


class Action(NamedTuple):
    """One decision. ``arg`` is a cell, seat, slot, amount, fork or Hotel option by kind;
    ``colour`` a share colour (0..3); ``down`` halves rather than doubles with a Deuce card."""

    kind: ActionKind
    arg: int = -1
    colour: int = -1
    down: bool = False

    def __str__(self) -> str:
        return describe(self)


def _cell(i: object) -> str:
    if type(i) is int and 0 <= i < board.NUM_CELLS:
        return board.CELLS[i].name
    return f"cell {show(i)}"


def _colour(c: object) -> str:
    if type(c) is int and 0 <= c < board.NUM_COLOURS:
        return board.COLOURS[c]
    return f"colour {show(c)}"


_FORK_YES = ("enter the motorway", "enter the roulette", "go abroad through customs",
             "pay the broker for a session")
_FORK_NO = ("pass the motorway by", "pass the roulette by", "stay at home", "decline the broker")
_HOTEL = ("buy a company abroad from the Hotel", "play the roulette three times from the Hotel",
          "play the exchange once from the Hotel", "do nothing at the Hotel")
_PLAIN = {
    ActionKind.ROLL: "roll", ActionKind.USE_PASS: "use an exchange pass",
    ActionKind.SUBMIT_TRADE: "submit the proposal", ActionKind.CANCEL_TRADE: "cancel the proposal",
    ActionKind.ACCEPT_TRADE: "accept the trade", ActionKind.REJECT_TRADE: "reject the trade",
    ActionKind.SKIP_CARD: "play no Exchange card",
    ActionKind.END_SESSION: "end the exchange session",
}
_ON_CELL = {
    ActionKind.MORTGAGE: "pledge", ActionKind.REDEEM: "redeem",
    ActionKind.BUILD_BRANCH: "build a branch on",
    ActionKind.BUILD_ENTERPRISE: "build an enterprise on",
    ActionKind.SELL_BUILDING: "sell a building on",
    ActionKind.TRADE_GIVE_LOT: "toggle giving", ActionKind.TRADE_TAKE_LOT: "toggle taking",
    ActionKind.BUY: "buy", ActionKind.DECLINE: "do not buy",
}
_ON_COLOUR = {
    ActionKind.TRADE_GIVE_SHARE: "give one more share of",
    ActionKind.TRADE_TAKE_SHARE: "take one more share of",
    ActionKind.PICK_COLOUR: "take a share of", ActionKind.BUY_SHARE: "buy a share of",
    ActionKind.SELL_SHARE: "sell a share of",
}


def describe(a: Action) -> str:
    """The action in words; written for any field values, since it names malformed actions."""
    k, arg, colour, down = a
    try:
        k = ActionKind(k)
    except (ValueError, TypeError):
        return f"unknown action kind {show(k)}"
    if k in _PLAIN:
        return _PLAIN[k]
    if k in _ON_CELL:
        return f"{_ON_CELL[k]} {_cell(arg)}"
    if k in _ON_COLOUR:
        return f"{_ON_COLOUR[k]} {_colour(colour)}"
    ok = type(arg) is int
    if k == ActionKind.START_TRADE:
        return f"start a trade proposal to seat {arg if ok else show(arg)}"
    if k in (ActionKind.TRADE_GIVE_CASH, ActionKind.TRADE_TAKE_CASH):
        amount = f"{arg:,}" if ok else show(arg)
        return f"{'give' if k == ActionKind.TRADE_GIVE_CASH else 'take'} {amount} cr more"
    if k in (ActionKind.YES, ActionKind.NO):
        names = _FORK_YES if k == ActionKind.YES else _FORK_NO
        return names[arg] if ok and 0 <= arg < len(names) else f"{k.name.lower()} {show(arg)}"
    if k == ActionKind.HOTEL:
        return _HOTEL[arg] if ok and 0 <= arg < len(_HOTEL) else f"Hotel option {show(arg)}"
    # PLAY_CARD
    how = " (halve)" if down is True else ""
    return f"play the card in slot {arg if ok else show(arg)} on {_colour(colour)}{how}"


# --- the shared values ------------------------------------------------------------------------
ROLL = Action(ActionKind.ROLL)
USE_PASS = Action(ActionKind.USE_PASS)
SUBMIT_TRADE = Action(ActionKind.SUBMIT_TRADE)
CANCEL_TRADE = Action(ActionKind.CANCEL_TRADE)
ACCEPT_TRADE = Action(ActionKind.ACCEPT_TRADE)
REJECT_TRADE = Action(ActionKind.REJECT_TRADE)
SKIP_CARD = Action(ActionKind.SKIP_CARD)
END_SESSION = Action(ActionKind.END_SESSION)

_CELLS = range(board.NUM_CELLS)
_MORTGAGE = tuple(Action(ActionKind.MORTGAGE, c) for c in _CELLS)
_REDEEM = tuple(Action(ActionKind.REDEEM, c) for c in _CELLS)
_BRANCH = tuple(Action(ActionKind.BUILD_BRANCH, c) for c in _CELLS)
_ENTERPRISE = tuple(Action(ActionKind.BUILD_ENTERPRISE, c) for c in _CELLS)
_SELL = tuple(Action(ActionKind.SELL_BUILDING, c) for c in _CELLS)
_GIVE_LOT = tuple(Action(ActionKind.TRADE_GIVE_LOT, c) for c in _CELLS)
_TAKE_LOT = tuple(Action(ActionKind.TRADE_TAKE_LOT, c) for c in _CELLS)
_BUY = tuple(Action(ActionKind.BUY, c) for c in _CELLS)
_DECLINE = tuple(Action(ActionKind.DECLINE, c) for c in _CELLS)
_START_TRADE = tuple(Action(ActionKind.START_TRADE, s) for s in range(board.FIGURES.max_players))
_COLOURS = range(board.NUM_COLOURS)
_GIVE_SHARE = tuple(Action(ActionKind.TRADE_GIVE_SHARE, -1, c) for c in _COLOURS)
_TAKE_SHARE = tuple(Action(ActionKind.TRADE_TAKE_SHARE, -1, c) for c in _COLOURS)
_PICK = tuple(Action(ActionKind.PICK_COLOUR, -1, c) for c in _COLOURS)
_BUY_SHARE = tuple(Action(ActionKind.BUY_SHARE, -1, c) for c in _COLOURS)
_SELL_SHARE = tuple(Action(ActionKind.SELL_SHARE, -1, c) for c in _COLOURS)
_GIVE_CASH = {x: Action(ActionKind.TRADE_GIVE_CASH, x) for x in board.FIGURES.trade_cash_steps}
_TAKE_CASH = {x: Action(ActionKind.TRADE_TAKE_CASH, x) for x in board.FIGURES.trade_cash_steps}
_YES = tuple(Action(ActionKind.YES, f) for f in range(len(board.FORK_NAMES)))
_NO = tuple(Action(ActionKind.NO, f) for f in range(len(board.FORK_NAMES)))
_HOTEL_OPTIONS = tuple(Action(ActionKind.HOTEL, h) for h in range(4))
# _PLAY[slot][colour][down]
_PLAY = tuple(tuple(tuple(Action(ActionKind.PLAY_CARD, s, c, d) for d in (False, True))
                    for c in _COLOURS)
              for s in range(board.HAND_MAX))

_OWN = board.OWNABLES
_LOTS = board.LOTS
ALL_ACTIONS: tuple[Action, ...] = (
    (ROLL,)
    + tuple(_MORTGAGE[c] for c in _OWN) + tuple(_REDEEM[c] for c in _OWN)
    + tuple(_BRANCH[c] for c in _LOTS) + tuple(_ENTERPRISE[c] for c in _LOTS)
    + tuple(_SELL[c] for c in _LOTS)
    + (USE_PASS,) + _START_TRADE
    + tuple(_GIVE_LOT[c] for c in _OWN) + tuple(_TAKE_LOT[c] for c in _OWN)
    + _GIVE_SHARE + _TAKE_SHARE + tuple(_GIVE_CASH.values()) + tuple(_TAKE_CASH.values())
    + (SUBMIT_TRADE, CANCEL_TRADE, ACCEPT_TRADE, REJECT_TRADE)
    + tuple(_BUY[c] for c in _OWN) + tuple(_DECLINE[c] for c in _OWN)
    + _YES + _NO + _HOTEL_OPTIONS + _PICK
    + tuple(a for slot in _PLAY for col in slot for a in col) + (SKIP_CARD,)
    + _BUY_SHARE + _SELL_SHARE + (END_SESSION,)
)
ACTION_ID: dict[Action, int] = {a: i for i, a in enumerate(ALL_ACTIONS)}
# The table's own action objects by identity: most actions a game is asked to take are these
# very objects (from ``legal_actions``), and hashing an enum field costs a Python call.
_TABLE_OBJECTS = {id(a): a for a in ALL_ACTIONS}


def field_error(action: object) -> str | None:
    """Why ``action`` is not one of the game's actions (a wrong type or value), or None."""
    if _TABLE_OBJECTS.get(id(action), _TABLE_OBJECTS) is action:  # (a default no action is)
        return None
    if not isinstance(action, Action):
        return f"expected a businessman Action, got {type(action).__name__}"
    k, arg, colour, down = action
    if not (type(k) is ActionKind or (type(k) is int and 0 <= k < len(ActionKind))):
        return f"field 'kind' must be an ActionKind, got {show(k)}"
    if type(arg) is not int or type(colour) is not int or type(down) is not bool:
        return ("fields 'arg' and 'colour' must be whole numbers (ints) and 'down' a bool, got "
                f"{show(arg)}, {show(colour)}, {show(down)}")
    if action not in ACTION_ID:
        return f"no {ActionKind(k).name} action has arg {arg}, colour {colour}, down {down}"
    return None


def _pick(table: tuple, i: int, what: str) -> Action:
    if type(i) is not int or not 0 <= i < len(table):
        raise ValueError(f"{what} must be a whole number from 0 to {len(table) - 1}, got {show(i)}")
    return table[i]


def mortgage(cell: int) -> Action:
    return _pick(_MORTGAGE, cell, "a cell")


def redeem(cell: int) -> Action:
    return _pick(_REDEEM, cell, "a cell")


def build_branch(cell: int) -> Action:
    return _pick(_BRANCH, cell, "a cell")


def build_enterprise(cell: int) -> Action:
    return _pick(_ENTERPRISE, cell, "a cell")


def sell_building(cell: int) -> Action:
    return _pick(_SELL, cell, "a cell")


def buy(cell: int) -> Action:
    return _pick(_BUY, cell, "a cell")


def decline(cell: int) -> Action:
    return _pick(_DECLINE, cell, "a cell")


def start_trade(seat: int) -> Action:
    return _pick(_START_TRADE, seat, "a seat")


def give_lot(cell: int) -> Action:
    return _pick(_GIVE_LOT, cell, "a cell")


def take_lot(cell: int) -> Action:
    return _pick(_TAKE_LOT, cell, "a cell")


def give_share(colour: int) -> Action:
    return _pick(_GIVE_SHARE, colour, "a colour")


def take_share(colour: int) -> Action:
    return _pick(_TAKE_SHARE, colour, "a colour")


def give_cash(amount: int) -> Action:
    if amount not in _GIVE_CASH:
        raise ValueError(f"a cash step is one of {list(_GIVE_CASH)}, got {show(amount)}")
    return _GIVE_CASH[amount]


def take_cash(amount: int) -> Action:
    if amount not in _TAKE_CASH:
        raise ValueError(f"a cash step is one of {list(_TAKE_CASH)}, got {show(amount)}")
    return _TAKE_CASH[amount]


def yes(fork: int) -> Action:
    return _pick(_YES, fork, "a fork")


def no(fork: int) -> Action:
    return _pick(_NO, fork, "a fork")


def hotel(option: int) -> Action:
    return _pick(_HOTEL_OPTIONS, option, "a Hotel option")


def pick_colour(colour: int) -> Action:
    return _pick(_PICK, colour, "a colour")


def buy_share(colour: int) -> Action:
    return _pick(_BUY_SHARE, colour, "a colour")


def sell_share(colour: int) -> Action:
    return _pick(_SELL_SHARE, colour, "a colour")


def play_card(slot: int, colour: int, down: bool = False) -> Action:
    by_colour = _pick(_PLAY, slot, "a hand slot")
    return _pick(by_colour, colour, "a colour")[1 if down else 0]
