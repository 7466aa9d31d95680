"""Engine actions as JSON and back.

An engine action travels as ``{"kind": "bid", "square": 26, "amount": 1200, "target": -1,
"give": [], "take": []}``: ``kind`` is the lower-case name of ``ActionKind`` and the other
fields are those of ``byapar_env.engine.Action``. A game site rebuilds the action with
``Action(ActionKind[kind.upper()], square, amount, target, tuple(give), tuple(take))``.
Reading is lenient about fields a kind does not use (an echoed action carries all six) and
strict about types, so a bad value is named rather than guessed.
"""

from __future__ import annotations

from byapar_env.engine import Action, ActionKind, actions, board

from .errors import InvalidInput

KIND_NAMES = tuple(k.name.lower() for k in ActionKind)
_SQUARE_KINDS = {ActionKind.BUILD: actions.build, ActionKind.SELL_BUILDING: actions.sell_building,
                 ActionKind.MORTGAGE: actions.mortgage, ActionKind.UNMORTGAGE: actions.unmortgage,
                 ActionKind.BUY: actions.buy, ActionKind.DECLINE: actions.decline}
_PLAIN = {ActionKind.ROLL: actions.ROLL, ActionKind.PAY_FINE: actions.PAY_FINE,
          ActionKind.USE_BAIL_CARD: actions.USE_BAIL_CARD, ActionKind.DROP_OUT: actions.DROP_OUT,
          ActionKind.ACCEPT_TRADE: actions.ACCEPT_TRADE,
          ActionKind.REJECT_TRADE: actions.REJECT_TRADE}
_FIELDS = ("kind", "square", "amount", "target", "give", "take")
MAX_AMOUNT = 10**9  # far above any cash in a game; keeps numbers in messages short


def action_to_json(action: Action) -> dict:
    return {"kind": ActionKind(action.kind).name.lower(), "square": action.square,
            "amount": action.amount, "target": action.target, "give": list(action.give),
            "take": list(action.take)}


def _int(data: dict, key: str, field: str, default: int, low: int, high: int) -> int:
    value = data.get(key, default)
    # bool is an int subclass: true must not pass for 1.
    if type(value) is not int or not low <= value <= high:
        raise InvalidInput(f"{field}.{key} must be a whole number from {low} to {high}",
                           field=f"{field}.{key}")
    return value


def _squares(data: dict, key: str, field: str) -> tuple[int, ...]:
    value = data.get(key, [])
    if (not isinstance(value, list) or len(value) > len(board.PLACES)
            or any(type(s) is not int or not 0 <= s < board.NUM_SQUARES for s in value)):
        raise InvalidInput(f"{field}.{key} must be a list of at most {len(board.PLACES)} square "
                           f"numbers from 0 to {board.NUM_SQUARES - 1}", field=f"{field}.{key}")
    return tuple(value)


def action_from_json(data: object, field: str = "engine") -> Action:
    """The engine action ``data`` describes; ``InvalidInput`` naming the field at fault."""
    if not isinstance(data, dict):
        raise InvalidInput(f"{field} must be an object with a kind and its fields "
                           f"({', '.join(_FIELDS)})", field=field)
    unknown = sorted(set(data) - set(_FIELDS))
    if unknown:
        first = unknown[0] if unknown[0].isprintable() and len(unknown[0]) <= 40 else "?"
        raise InvalidInput(f"{field} has unknown fields {ascii(unknown)[:200]}",
                           field=f"{field}.{first}", allowed=list(_FIELDS))
    kind_name = data.get("kind")
    if not isinstance(kind_name, str) or kind_name.lower() not in KIND_NAMES:
        raise InvalidInput(f"{field}.kind must be one of {', '.join(KIND_NAMES)}",
                           field=f"{field}.kind", allowed=list(KIND_NAMES))
    kind = ActionKind[kind_name.upper()]
    # Every field is type-checked, used or not, so that a malformed echo is refused.
    square = _int(data, "square", field, -1, -1, board.NUM_SQUARES - 1)
    amount = _int(data, "amount", field, 0, -MAX_AMOUNT, MAX_AMOUNT)
    target = _int(data, "target", field, -1, -1, 5)
    give, take = _squares(data, "give", field), _squares(data, "take", field)
    if kind in _PLAIN:
        return _PLAIN[kind]
    if kind == ActionKind.OFFER_TRADE:
        return actions.offer_trade(target, give, take, amount)
    if square < 0:
        raise InvalidInput(f"{field}.square is needed for {kind_name.lower()}: a square number "
                           f"from 0 to {board.NUM_SQUARES - 1}", field=f"{field}.square")
    if kind == ActionKind.BID:
        return actions.bid(square, amount)
    return _SQUARE_KINDS[kind](square)
