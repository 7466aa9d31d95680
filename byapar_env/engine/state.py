"""The game's state, declared once.

``STATE`` lists every field of a ``Game`` in save order, each with its kind: how ``Game.clone``
copies it, how ``Game.to_json`` writes it and how ``Game.from_json`` reads it back and checks
it. A field added to the game is added here, and clone, save and load all know it.

Reading checks each field on its own (type, length, range), then the whole game for what only
holds between fields (a bankrupt seat holds nothing, an auction phase has an auction, buildings
stand only on whole unmortgaged groups, the decks and bail cards hold each card once, ...).
Anything wrong raises ``GameStateError`` naming the field and what is allowed; nothing else
escapes, and no game is returned until the whole save has passed.

The values the fields hold (``Phase``, ``Auction``, the task codes, ``BANK``, what a seed may be)
and the save's header are declared here too. This module never makes a game: the callers hand
it a blank one to fill, so that it sits below ``game.py``, which imports it (``Game.clone``,
``to_json``, ``from_json``), and ``serialize.py`` sits above both.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from enum import IntEnum
from typing import TYPE_CHECKING, Any, NamedTuple

from . import board as B
from .actions import Action, ActionKind
from .errors import GameStateError, RulesError, show
from .rules import Rules

if TYPE_CHECKING:  # the game is read and written here, never made: game.py imports this module
    from .game import Game

PREFIX = "corrupt saved game"
# The bounds below come from the board's data and rule figures, never typed again here.
_F = B.RULES_FIGURES
_DECK_SIZE = {d: len(B.CARDS[d]) for d in B.DECKS}
_GROUP = B.GROUP_OF
_IS_PLACE = B.IS_PLACE
_BAIL_CARD = B.BAIL_CARD
# A bound that depends on the game being read (the number of seats, the round limit).
Bound = int | Callable[["Game"], int] | None

# ------------------------------------------------------------------------- the values it holds
# Declared here, beside the fields they fill; game.py imports them (and exports them as before).
BANK = -1  # the owner of a place nobody holds, and the creditor of a debt to the bank


class Phase(IntEnum):
    """What kind of decision the game is waiting for."""

    PRE_ROLL = 0  # the turn's player: build, sell, mortgage, pay off, trade, leave jail, roll
    BUY = 1  # the turn's player: buy the unowned place landed on, or not
    AUCTION = 2  # the bidder whose turn it is: bid or drop out
    TRADE_ANSWER = 3  # the player offered a trade: accept or decline
    RAISE_CASH = 4  # a player owing more than their cash: sell buildings, mortgage
    GAME_OVER = 5


# Task codes of the turn's work stack (tuples of ints, so a game saves as plain JSON).
T_END_TURN = 0
T_MOVE = 1  # (T_MOVE, steps): forward, salary on reaching or passing Start
T_LAND = 2  # deal with the square the turn's player stands on
T_DEBT = 3  # (T_DEBT, debtor, creditor, amount, creditor, amount, ...); creditor -1 is the bank


def seed_error(seed: object) -> str | None:
    """Why ``seed`` cannot seed a game, or None. A seed is None or an int from 0 up.

    random.Random folds a negative seed onto its absolute value (-1 plays the game of 1), and
    a bool or float would be truncated or hashed: all are refused rather than played.
    """
    if seed is None or (type(seed) is int and seed >= 0):
        return None
    return (f"seed must be a whole number from 0 up (an int, not a bool or float), or None; "
            f"got {show(seed)}")


class Auction:
    """The auction under way: the place, the highest bid and its holder, who is still in."""

    __slots__ = ("square", "high", "holder", "bidders", "idx")

    def __init__(self, square: int, bidders: list[int], high: int = 0, holder: int = -1,
                 idx: int = 0) -> None:
        self.square = square
        self.bidders = bidders  # seats still in, in bidding order
        self.high = high
        self.holder = holder
        self.idx = idx  # position in ``bidders`` of the next to act

    def to_dict(self) -> dict:
        return {"square": self.square, "bidders": list(self.bidders), "high": self.high,
                "holder": self.holder, "idx": self.idx}

    def copy(self) -> Auction:
        return Auction(self.square, list(self.bidders), self.high, self.holder, self.idx)




def fail(where: str, allowed: str, got: object) -> GameStateError:
    """The error for field ``where`` of a save: what is allowed and what was found."""
    return GameStateError(f"{PREFIX}: field {where!r} must be {allowed}, got {show(got)}")


def _bound(bound: Bound, game: Game) -> int | None:
    return bound(game) if callable(bound) else bound


def _only(values: list, cls: type) -> bool:
    """Whether every value is exactly of type ``cls`` (a bool is not an int here)."""
    return set(map(type, values)) <= {cls}


def _last_seat(game: Game) -> int:
    return game.num_players - 1


# ---------------------------------------------------------------------------------- field kinds
class Kind:
    """How one field is copied by clone, written to a save and read back from one."""

    copies = False  # whether clone must copy the value (it is mutable)
    plain = True  # whether the value is written as it is (no conversion to JSON types)

    def copy(self, value: Any) -> Any:
        return value

    def dump(self, value: Any) -> Any:
        return value

    def load(self, raw: Any, where: str, game: Game) -> Any:
        raise NotImplementedError

    def load_all(self, raw: list, where: str, game: Game) -> list:
        """Every entry of a list of this kind, read and checked."""
        return [self.load(x, f"{where}[{i}]", game) for i, x in enumerate(raw)]


class Int(Kind):
    """A whole number (an int, never a bool or a float) from ``lo`` to ``hi``."""

    def __init__(self, lo: Bound = None, hi: Bound = None, step: int = 1) -> None:
        self.lo, self.hi, self.step = lo, hi, step

    def allowed(self, game: Game) -> str:
        lo, hi = _bound(self.lo, game), _bound(self.hi, game)
        text = "a whole number"
        if self.step != 1:
            text = f"a whole multiple of {self.step}"
        if lo is not None and hi is not None:
            return f"{text} from {lo} to {hi}"
        if lo is not None:
            return f"{text} from {lo} up"
        return text

    def load(self, raw: Any, where: str, game: Game) -> int:
        lo, hi = _bound(self.lo, game), _bound(self.hi, game)
        if (type(raw) is not int or (lo is not None and raw < lo)
                or (hi is not None and raw > hi) or raw % self.step):
            raise fail(where, self.allowed(game), raw)
        return raw

    def load_all(self, raw: list, where: str, game: Game) -> list:
        # The common case in one pass; the slow path only finds the entry to name.
        lo, hi = _bound(self.lo, game), _bound(self.hi, game)
        if _only(raw, int) and (
                not raw or ((lo is None or min(raw) >= lo) and (hi is None or max(raw) <= hi)
                            and (self.step == 1 or not any(x % self.step for x in raw)))):
            return list(raw)
        return super().load_all(raw, where, game)


class Bool(Kind):
    def load(self, raw: Any, where: str, game: Game) -> bool:
        if type(raw) is not bool:
            raise fail(where, "true or false", raw)
        return raw

    def load_all(self, raw: list, where: str, game: Game) -> list:
        if _only(raw, bool):
            return list(raw)
        return super().load_all(raw, where, game)


class Text(Kind):
    def load(self, raw: Any, where: str, game: Game) -> str:
        if type(raw) is not str:
            raise fail(where, "a string", raw)
        return raw

    def load_all(self, raw: list, where: str, game: Game) -> list:
        if _only(raw, str):
            return list(raw)
        return super().load_all(raw, where, game)


class OneOf(Kind):
    """One of a few fixed values (deck names)."""

    def __init__(self, values: tuple) -> None:
        self.values = values

    def load(self, raw: Any, where: str, game: Game) -> Any:
        if type(raw) is not str or raw not in self.values:
            raise fail(where, f"one of {list(self.values)}", raw)
        return raw


class Seq(Kind):
    """A list of ``item`` (a tuple in the game when ``as_tuple``), of a fixed length or any."""

    def __init__(self, item: Kind, length: Bound = None, as_tuple: bool = False,
                 min_length: int = 0) -> None:
        self.item, self.length, self.as_tuple, self.min_length = item, length, as_tuple, min_length
        self.copies = not as_tuple
        self.plain = False

    def copy(self, value: Any) -> Any:
        if self.as_tuple:
            return value
        if self.item.copies:
            return [self.item.copy(x) for x in value]
        return list(value)

    def dump(self, value: Any) -> Any:
        if self.item.plain:
            return list(value) if self.as_tuple else value
        return [self.item.dump(x) for x in value]

    def load(self, raw: Any, where: str, game: Game) -> Any:
        length = _bound(self.length, game)
        if type(raw) is not list or (length is not None and len(raw) != length) or (
                len(raw) < self.min_length):
            if length is not None:
                allowed = f"a list of {length} entries"
            elif self.min_length:
                allowed = f"a list of at least {self.min_length} entries"
            else:
                allowed = "a list"
            raise fail(where, allowed, raw)
        out = self.item.load_all(raw, where, game)
        return tuple(out) if self.as_tuple else out


class Maybe(Kind):
    """``kind`` or None (null in the save)."""

    def __init__(self, kind: Kind) -> None:
        self.kind = kind
        self.copies = kind.copies
        self.plain = kind.plain

    def copy(self, value: Any) -> Any:
        return None if value is None else self.kind.copy(value)

    def dump(self, value: Any) -> Any:
        return None if value is None else self.kind.dump(value)

    def load(self, raw: Any, where: str, game: Game) -> Any:
        return None if raw is None else self.kind.load(raw, where, game)


def _record(raw: Any, where: str, keys: tuple[str, ...]) -> dict:
    """A JSON object with exactly ``keys``."""
    if type(raw) is not dict or set(raw) != set(keys):
        raise fail(where, f"an object with exactly the keys {list(keys)}", raw)
    return raw


class RulesKind(Kind):
    plain = False

    def dump(self, value: Rules) -> dict:
        return value.to_dict()

    def load(self, raw: Any, where: str, game: Game) -> Rules:
        try:
            return Rules.from_dict(raw)
        except RulesError as exc:
            raise GameStateError(f"{PREFIX}: field {where!r}: {exc}") from None


class SeedKind(Kind):
    def load(self, raw: Any, where: str, game: Game) -> int | None:
        if seed_error(raw) is not None:
            raise fail(where, "null or a whole number from 0 up", raw)
        return raw


_MT_WORDS = 624  # the Mersenne Twister's state: 624 words and a position


class RngKind(Kind):
    """The game's random.Random, saved as its getstate()."""

    copies = True
    plain = False

    def copy(self, value: random.Random) -> random.Random:
        rng = random.Random()
        rng.setstate(value.getstate())
        return rng

    def dump(self, value: random.Random) -> list:
        version, internal, gauss = value.getstate()
        return [version, list(internal), gauss]

    def load(self, raw: Any, where: str, game: Game) -> random.Random:
        allowed = ("[3, a list of 624 whole numbers from 0 to 2**32-1 (not all 0) and a position "
                   "from 0 to 624, null or a float]")
        if type(raw) is not list or len(raw) != 3 or type(raw[0]) is not int or raw[0] != 3:
            raise fail(where, allowed, raw)
        internal, gauss = raw[1], raw[2]
        if (type(internal) is not list or len(internal) != _MT_WORDS + 1
                or not _only(internal, int)
                or min(internal[:_MT_WORDS]) < 0 or max(internal[:_MT_WORDS]) >= 2 ** 32
                or not any(internal[:_MT_WORDS]) or not 0 <= internal[-1] <= _MT_WORDS):
            raise fail(f"{where}[1]", allowed, internal)
        if gauss is not None and (type(gauss) is not float or not math.isfinite(gauss)):
            raise fail(f"{where}[2]", allowed, gauss)
        rng = random.Random()
        rng.setstate((3, tuple(internal), gauss))
        return rng


class DecksKind(Kind):
    """Each deck's card numbers, top first. Which cards must be there depends on the bail cards
    held, which the whole-game check compares."""

    copies = True

    def copy(self, value: dict) -> dict:
        return {d: list(c) for d, c in value.items()}

    def load(self, raw: Any, where: str, game: Game) -> dict:
        if type(raw) is not dict or set(raw) != set(B.DECKS):
            raise GameStateError(
                f"{PREFIX}: field {where!r}: saved decks must be exactly {list(B.DECKS)}, each a "
                f"list of its card numbers; got {show(raw)}")
        return {d: Seq(Int(1, _DECK_SIZE[d])).load(raw[d], f"{where}.{d}", game)
                for d in B.DECKS}


class PhaseKind(Kind):
    plain = False

    def dump(self, value: Phase) -> int:
        return int(value)

    def load(self, raw: Any, where: str, game: Game) -> Phase:
        return Phase(Int(0, len(Phase) - 1).load(raw, where, game))


class TaskKind(Kind):
    """A task of the turn's stack: (end turn), (move, steps), (land) or (debt, debtor,
    creditor, amount, ...) with creditor -1 for the bank."""

    plain = False

    def __init__(self, debt_only: bool = False) -> None:
        self.debt_only = debt_only

    def dump(self, value: tuple) -> list:
        return list(value)

    def load(self, raw: Any, where: str, game: Game) -> tuple:
        allowed = (f"[0] (end the turn), [1, steps 1-{B.NUM_SQUARES}] (move), [2] (land) or "
                   "[3, debtor, creditor, amount, ...] (a debt; creditor -1 is the bank)")
        if self.debt_only:
            allowed = "[3, debtor, creditor, amount, ...] (a debt; creditor -1 is the bank)"
        if type(raw) is not list or not raw or not all(type(x) is int for x in raw):
            raise fail(where, allowed, raw)
        code, n = raw[0], game.num_players
        ok = False
        if code == T_DEBT:
            debtor = raw[1] if len(raw) > 1 else None
            ok = (len(raw) >= 4 and len(raw) % 2 == 0 and 0 <= debtor < n
                  and all(BANK <= c < n and c != debtor for c in raw[2::2])
                  and all(a >= 0 for a in raw[3::2]))
        elif not self.debt_only:
            if code in (T_END_TURN, T_LAND):
                ok = len(raw) == 1
            elif code == T_MOVE:
                ok = len(raw) == 2 and 1 <= raw[1] <= B.NUM_SQUARES
        if not ok:
            raise fail(where, allowed, raw)
        return tuple(raw)


_AUCTION_KEYS = ("square", "bidders", "high", "holder", "idx")


class AuctionKind(Kind):
    copies = True
    plain = False

    def copy(self, value: Auction) -> Auction:
        return value.copy()

    def dump(self, value: Auction) -> dict:
        return value.to_dict()

    def load(self, raw: Any, where: str, game: Game) -> Auction:
        raw = _record(raw, where, _AUCTION_KEYS)
        square = Int(0, B.NUM_SQUARES - 1).load(raw["square"], f"{where}.square", game)
        if not _IS_PLACE[square]:
            raise fail(f"{where}.square", "a place (a city, transport or utility)", square)
        bidders = Seq(Int(0, _last_seat), min_length=1).load(
            raw["bidders"], f"{where}.bidders", game)
        if len(set(bidders)) != len(bidders):
            raise fail(f"{where}.bidders", "distinct seats", bidders)
        high = Int(0, step=B.BID_STEP).load(raw["high"], f"{where}.high", game)
        holder = Int(-1, _last_seat).load(raw["holder"], f"{where}.holder", game)
        if (holder == -1) != (high == 0) or (holder != -1 and holder not in bidders):
            raise fail(f"{where}.holder", "-1 before the first bid, else a seat still bidding",
                       holder)
        idx = Int(0, len(bidders) - 1).load(raw["idx"], f"{where}.idx", game)
        return Auction(square, bidders, high, holder, idx)


_OFFER_KEYS = ("seat", "target", "give", "take", "amount")


class OfferKind(Kind):
    """The trade offer awaiting an answer: (offering seat, the offer)."""

    plain = False

    def dump(self, value: tuple[int, Action]) -> dict:
        seat, a = value
        return {"seat": seat, "target": a.target, "give": list(a.give), "take": list(a.take),
                "amount": a.amount}

    def load(self, raw: Any, where: str, game: Game) -> tuple[int, Action]:
        raw = _record(raw, where, _OFFER_KEYS)
        seat = Int(0, _last_seat).load(raw["seat"], f"{where}.seat", game)
        target = Int(0, _last_seat).load(raw["target"], f"{where}.target", game)
        places = Seq(Int(0, B.NUM_SQUARES - 1), as_tuple=True)
        give = places.load(raw["give"], f"{where}.give", game)
        take = places.load(raw["take"], f"{where}.take", game)
        amount = Int(step=_F.trade_money_step).load(raw["amount"], f"{where}.amount", game)
        return seat, Action(ActionKind.OFFER_TRADE, -1, amount, target, give, take)


class Derived(Kind):
    """A field not saved: computed from the fields read before it."""

    def __init__(self, derive: Callable[[Game], Any]) -> None:
        self.derive = derive


class Field(NamedTuple):
    name: str  # the attribute of Game and the key in the save
    kind: Kind

    @property
    def saved(self) -> bool:
        return not isinstance(self.kind, Derived)


def _per_seat(item: Kind) -> Seq:
    return Seq(item, lambda g: g.num_players)


def _per_square(item: Kind) -> Seq:
    return Seq(item, B.NUM_SQUARES)


_SEAT = Int(0, _last_seat)

# The game's state in save order. ``rules`` comes first: the other fields' bounds need it.
STATE: tuple[Field, ...] = (
    Field("rules", RulesKind()),
    Field("num_players", Derived(lambda g: g.rules.num_players)),
    Field("seed", SeedKind()),
    Field("rng", RngKind()),
    Field("cash", _per_seat(Int(0))),
    Field("position", _per_seat(Int(0, B.NUM_SQUARES - 1))),
    Field("in_jail", _per_seat(Bool())),
    Field("jail_misses", _per_seat(Int(0, B.JAIL_MAX_MISSES - 1))),
    Field("bail_cards", _per_seat(Seq(OneOf(B.DECKS)))),
    Field("bankrupt", _per_seat(Bool())),
    Field("owner", _per_square(Int(BANK, _last_seat))),
    Field("buildings", _per_square(Int(0, B.HOTEL))),
    Field("mortgaged", _per_square(Bool())),
    Field("decks", DecksKind()),
    Field("turn", _SEAT),
    Field("round", Int(1, lambda g: g.rules.round_limit)),
    Field("turn_count", Int(1)),
    Field("doubles", Int(0, _F.doubles_to_jail - 1)),  # one more is jail, and the count resets
    Field("roll_again", Bool()),
    Field("dice", Seq(Int(0, _F.dice_sides), 2, as_tuple=True)),
    Field("offers_made", Int(0, _F.max_offers_per_turn)),
    Field("phase", PhaseKind()),
    Field("current_player", Int(-1, _last_seat)),
    Field("tasks", Seq(TaskKind())),
    Field("pending_square", Int(-1, B.NUM_SQUARES - 1)),
    Field("auction", Maybe(AuctionKind())),
    Field("offer", Maybe(OfferKind())),
    Field("debt", Maybe(TaskKind(debt_only=True))),
    Field("winners", Seq(_SEAT)),
    Field("forced_dice", Seq(Seq(Int(1, _F.dice_sides), 2, as_tuple=True))),
    Field("bank_paid", Int(0)),
    Field("bank_received", Int(0)),
    Field("log", Seq(Text())),
    Field("version", Derived(lambda g: 0)),  # counts applied actions since loading
)
SAVED = tuple(f.name for f in STATE if f.saved)
# What clone copies (the mutable fields); everything else is shared, being immutable.
CLONE_COPIES: tuple[tuple[str, Callable[[Any], Any]], ...] = tuple(
    (f.name, f.kind.copy) for f in STATE if f.kind.copies)


def state_to_dict(game: Game) -> dict:
    """The saved fields of ``game`` as JSON-ready values, in save order."""
    return {f.name: f.kind.dump(getattr(game, f.name)) for f in STATE if f.saved}


def state_from_dict(data: dict, game: Game) -> Game:
    """``game`` (a blank ``Game.__new__(Game)``) filled from ``state_to_dict`` values;
    GameStateError naming the field if any is wrong.

    ``data`` may hold other keys (the save's header); the caller checks those.
    """
    for f in STATE:
        if not f.saved:
            value = f.kind.derive(game)
        elif f.name not in data:
            raise GameStateError(f"{PREFIX}: field {f.name!r} is missing")
        else:
            value = f.kind.load(data[f.name], f.name, game)
        setattr(game, f.name, value)
    check_whole(game)
    return game


# ------------------------------------------------------------------------------ the saved game
# A save is the fields above after a header naming the format, its version and the board.
FORMAT = "byapar-game"
VERSION = 1
_HEADER = ("format", "version", "board")
_KEYS = frozenset(_HEADER + SAVED)


def save_dict(game: Game) -> dict:
    """The whole game as JSON-ready values, header first."""
    data = {"format": FORMAT, "version": VERSION, "board": B.BOARD_HASH}
    data.update(state_to_dict(game))
    return data


def save_json(game: Game) -> str:
    return json.dumps(save_dict(game), separators=(",", ":"))


def load_dict(data: dict, game: Game) -> Game:
    """``game`` (a blank ``Game.__new__(Game)``) filled from ``save_dict`` values;
    GameStateError (naming the field and what is allowed) for anything corrupt or saved by
    another version or board."""
    if type(data) is not dict or data.get("format") != FORMAT:
        raise GameStateError(f"not a saved Byapar game (expected format {FORMAT!r})")
    if type(data.get("version")) is not int or data.get("version") != VERSION:
        raise GameStateError(
            f"saved game version {show(data.get('version'))} is not supported; this engine "
            f"reads version {VERSION}")
    if data.get("board") != B.BOARD_HASH:
        raise GameStateError(
            f"saved game was played on board {show(data.get('board'))}, this engine has board "
            f"{B.BOARD_HASH!r}")
    unknown = set(data) - _KEYS
    if unknown:
        raise GameStateError(
            f"{PREFIX}: unknown fields {show(sorted(unknown))}; a version {VERSION} save has "
            f"exactly {sorted(_KEYS)}")
    try:
        return state_from_dict(data, game)
    except GameStateError:
        raise
    except (LookupError, TypeError, ValueError, ArithmeticError, RecursionError) as exc:
        # A safety net: every field is checked before use, so this names a gap in the checks
        # rather than an expected path. The save is refused all the same, with its cause.
        raise GameStateError(f"{PREFIX}: {type(exc).__name__}: {show(str(exc))}") from exc


def load_json(text: str | bytes, game: Game) -> Game:
    """``game`` (a blank) filled from ``save_json`` text, as ``load_dict``."""
    try:
        data = json.loads(text)
    except RecursionError:  # nesting deeper than the decoder's stack
        raise GameStateError("saved game is not valid JSON: nested too deeply") from None
    except (TypeError, ValueError) as exc:
        raise GameStateError(f"saved game is not valid JSON: {exc}") from exc
    return load_dict(data, game)


# ------------------------------------------------------------------------- the whole-game check
def check_whole(g: Game) -> None:
    """What holds between fields in every game the engine plays; GameStateError if not."""
    n = g.num_players
    seats = range(n)
    for s in seats:
        if g.bankrupt[s]:
            # Going bankrupt hands over the cash and bail cards and ends any time in jail.
            for field, value, allowed in (("cash", g.cash[s], 0),
                                          ("bail_cards", g.bail_cards[s], []),
                                          ("in_jail", g.in_jail[s], False)):
                if value != allowed:
                    raise fail(f"{field}[{s}]", f"{allowed!r} for a bankrupt seat", value)
        if g.in_jail[s] and g.position[s] != B.JAIL_SQUARE:
            raise fail(f"position[{s}]", f"the jail ({B.JAIL_SQUARE}) for a seat in jail",
                       g.position[s])
        if g.jail_misses[s] and not g.in_jail[s]:
            raise fail(f"jail_misses[{s}]", "0 for a seat out of jail", g.jail_misses[s])
    _check_squares(g)
    _check_decks(g)
    if (g.dice[0] == 0) != (g.dice[1] == 0):
        raise fail("dice", "two dice from 1 to 6, or [0, 0] before the first roll", g.dice)
    _check_phase(g)


def _check_squares(g: Game) -> None:
    for sq in range(B.NUM_SQUARES):
        o, b, m = g.owner[sq], g.buildings[sq], g.mortgaged[sq]
        name = B.SQUARES[sq].name
        if not _IS_PLACE[sq]:
            for field, value, allowed in (("owner", o, BANK), ("buildings", b, 0),
                                          ("mortgaged", m, False)):
                if value != allowed:
                    raise fail(f"{field}[{sq}]", f"{allowed!r}: {name} is not a place", value)
            continue
        if o != BANK and g.bankrupt[o]:
            raise fail(f"owner[{sq}]", "-1 or a seat still in the game", o)
        if o == BANK and m:
            raise fail(f"mortgaged[{sq}]", "false for a place the bank holds", m)
        if o == BANK and b:
            raise fail(f"buildings[{sq}]", "0 for a place the bank holds", b)
        group = _GROUP[sq]
        if b and group is None:
            raise fail(f"buildings[{sq}]", f"0: {name} is not a city", b)
        if group is not None and (b or m):
            levels = [g.buildings[s] for s in group]
            if not any(levels):
                continue
            if m:
                raise fail(f"mortgaged[{sq}]", "false while its colour group has buildings", m)
            if any(g.owner[s] != o for s in group):
                raise fail(f"buildings[{sq}]", "0 unless one seat holds the whole colour group",
                           b)
            if max(levels) - min(levels) > 1:
                raise fail(f"buildings[{sq}]", "within one of the rest of its colour group "
                           "(building is even)", levels)


def _check_decks(g: Game) -> None:
    for deck in B.DECKS:
        held = sum(cards.count(deck) for cards in g.bail_cards)
        bail = _BAIL_CARD[deck]
        cards = g.decks[deck]
        expected = [c for c in range(1, _DECK_SIZE[deck] + 1) if not (held and c == bail)]
        if held > 1 or sorted(cards) != expected:
            raise fail(f"decks.{deck}", f"the cards 1 to {_DECK_SIZE[deck]} once each, less "
                       f"card {bail} (the bail card) while a seat holds it ({held} held)", cards)


def _check_phase(g: Game) -> None:
    ph, p, turn = g.phase, g.current_player, g.turn
    over = ph == Phase.GAME_OVER
    if over:
        w = g.winners
        if p != -1 or not w or w != sorted(set(w)) or any(g.bankrupt[s] for s in w):
            raise fail("winners", "distinct seats still in, in order, and current_player -1 "
                       "once the game is over", (w, p))
        if g.tasks:
            raise fail("tasks", "empty once the game is over", g.tasks)
    else:
        if g.winners:
            raise fail("winners", "empty while the game is on", g.winners)
        if p == -1 or g.bankrupt[p]:
            raise fail("current_player", "a seat still in the game", p)
        if g.bankrupt[turn]:
            raise fail("turn", "a seat still in the game", turn)
    # The phase's own record is there, and no other phase's.
    expect = {"auction": ph == Phase.AUCTION, "offer": ph == Phase.TRADE_ANSWER,
              "debt": ph == Phase.RAISE_CASH}
    for name, present in expect.items():
        if (getattr(g, name) is not None) != present:
            raise fail(name, f"{'present' if present else 'null'} in phase {ph.name}",
                       getattr(g, name))
    if (g.pending_square != -1) != (ph == Phase.BUY):
        raise fail("pending_square", "the place landed on in phase BUY, else -1",
                   g.pending_square)
    if ph in (Phase.PRE_ROLL, Phase.TRADE_ANSWER, Phase.GAME_OVER):
        if g.tasks:
            raise fail("tasks", f"empty in phase {ph.name}", g.tasks)
    elif not g.tasks or g.tasks[0] != (T_END_TURN,):
        raise fail("tasks", f"a stack ending the turn at its bottom in phase {ph.name}", g.tasks)
    if ph in (Phase.PRE_ROLL, Phase.BUY) and p != turn:
        raise fail("current_player", f"the turn's seat {turn} in phase {ph.name}", p)
    if ph == Phase.BUY:
        sq = g.pending_square
        if not _IS_PLACE[sq] or g.owner[sq] != BANK or g.position[turn] != sq:
            raise fail("pending_square", "an unowned place the turn's seat stands on", sq)
    elif ph == Phase.AUCTION:
        a = g.auction
        if g.owner[a.square] != BANK:
            raise fail("auction.square", "a place the bank holds", a.square)
        if any(g.bankrupt[s] for s in a.bidders):
            raise fail("auction.bidders", "seats still in the game", a.bidders)
        if a.bidders[a.idx] != p or p == a.holder:
            raise fail("current_player", "the auction's next bidder, not the highest one", p)
        # Cash does not move during an auction, and a bidder who cannot beat the highest bid
        # is dropped before being asked.
        if a.holder != -1 and g.cash[a.holder] < a.high:
            raise fail("auction.high", f"at most the cash of its holder, {g.cash[a.holder]}",
                       a.high)
        if g.cash[p] < a.high + B.BID_STEP:
            raise fail(f"cash[{p}]", f"at least {a.high + B.BID_STEP} for the bidder asked",
                       g.cash[p])
    elif ph == Phase.TRADE_ANSWER:
        _check_offer(g)
    elif ph == Phase.RAISE_CASH:
        owed = g.debt_owed()
        if g.debt[1] != p or g.cash[p] >= owed:
            raise fail("debt", f"a debt of current_player {p} that is more than their cash",
                       g.debt)
        # A debtor who could not raise the debt went bankrupt at once; selling and mortgaging
        # leave this figure as it was, so it still covers the debt.
        if g.liquidation_value(p) < owed:
            raise fail("debt", f"at most what seat {p} can raise, {g.liquidation_value(p)}",
                       g.debt)


def _check_offer(g: Game) -> None:
    seat, offer = g.offer
    t = offer.target
    if seat != g.turn or t == seat or g.current_player != t or g.bankrupt[t]:
        raise fail("offer", f"an offer by the turn's seat {g.turn} to current_player, another "
                   "seat still in the game", (seat, t))
    if g.offers_made < 1:
        raise fail("offers_made", "at least 1 while an offer awaits its answer", g.offers_made)
    if not offer.give and not offer.take:
        raise fail("offer", "an offer of at least one place", g.offer)
    for side, owner, squares in (("give", seat, offer.give), ("take", t, offer.take)):
        if len(set(squares)) != len(squares) or any(
                not _IS_PLACE[sq] or g.owner[sq] != owner for sq in squares):
            raise fail(f"offer.{side}", f"distinct places held by seat {owner}", squares)
    payer = seat if offer.amount > 0 else t
    if abs(offer.amount) > g.cash[payer]:
        raise fail("offer.amount", f"at most the cash of seat {payer}, {g.cash[payer]}",
                   offer.amount)
