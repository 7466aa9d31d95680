"""A game's state declared once, for any game on this engine design (Byapar, Businessman).

Each game lists every field of its ``Game`` in save order as a ``Field`` with a kind: how
``Game.clone`` copies it, how ``Game.to_json`` writes it and how ``Game.from_json`` reads it
back and checks it. The kinds here are the shared ones (whole numbers with bounds, lists, the
generator's state, the seed, the rules, the phase, the decks, the turn's task stack);
``SaveFormat`` is the saved game around them (a header naming the format, its version and the
board, then the fields), read back field by field and then as a whole by the game's own
``check_whole``. Anything wrong raises ``GameStateError`` naming the field and what is allowed.

This module never makes a game: the callers hand it a blank one to fill, so that it sits below
each game's ``state`` and ``game`` modules. Standard library only.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from enum import IntEnum
from typing import Any, NamedTuple

from .errors import GameStateError, RulesError, show

PREFIX = "corrupt saved game"
BANK = -1  # the owner of what nobody holds, and the creditor of a debt to the bank
# A bound that depends on the game being read (the number of seats, the round limit).
Bound = int | Callable[[Any], int] | None
# The task codes every game's turn stack starts from (tuples of ints, so a game saves as plain
# JSON); a game adds its own from 4 up.
T_END_TURN = 0
T_MOVE = 1  # (T_MOVE, steps): the turn's player moves
T_LAND = 2  # the turn's player deals with where it stands
T_DEBT = 3  # (T_DEBT, debtor, creditor, amount, creditor, amount, ...); creditor -1 is the bank
DEBT_TEXT = "[3, debtor, creditor, amount, ...] (a debt; creditor -1 is the bank)"


def seed_error(seed: object) -> str | None:
    """Why ``seed`` cannot seed a game, or None. A seed is None or an int from 0 up.

    random.Random folds a negative seed onto its absolute value (-1 plays the game of 1), and
    a bool or float would be truncated or hashed: all are refused rather than played.
    """
    if seed is None or (type(seed) is int and seed >= 0):
        return None
    return (f"seed must be a whole number from 0 up (an int, not a bool or float), or None; "
            f"got {show(seed)}")


def fail(where: str, allowed: str, got: object) -> GameStateError:
    """The error for field ``where`` of a save: what is allowed and what was found."""
    return GameStateError(f"{PREFIX}: field {where!r} must be {allowed}, got {show(got)}")


def expect(rows: tuple, why: str) -> None:
    """Each ``(where, value, allowed)`` row holds ``value == allowed``, else ``fail`` with
    ``allowed!r`` followed by ``why`` (e.g. ``" for a bankrupt seat"``)."""
    for where, value, allowed in rows:
        if value != allowed:
            raise fail(where, f"{allowed!r}{why}", value)


def bound(limit: Bound, game: Any) -> int | None:
    return limit(game) if callable(limit) else limit


def only(values: list, cls: type) -> bool:
    """Whether every value is exactly of type ``cls`` (a bool is not an int here)."""
    return set(map(type, values)) <= {cls}


def last_seat(game: Any) -> int:
    return game.num_players - 1


def record(raw: Any, where: str, keys: tuple[str, ...]) -> dict:
    """A JSON object with exactly ``keys``."""
    if type(raw) is not dict or set(raw) != set(keys):
        raise fail(where, f"an object with exactly the keys {list(keys)}", raw)
    return raw


# ---------------------------------------------------------------------------------- field kinds
class Kind:
    """How one field is copied by clone, written to a save and read back from one."""

    copies = False  # whether clone must copy the value (it is mutable)
    # Whether clone shares the value until either game reads it (``table.CopyOnClone``): for
    # values that are costly to copy and that a search's clone often replaces or never reads.
    lazy = False
    plain = True  # whether the value is written as it is (no conversion to JSON types)

    def copy(self, value: Any) -> Any:
        return value

    def dump(self, value: Any) -> Any:
        return value

    def load(self, raw: Any, where: str, game: Any) -> Any:
        raise NotImplementedError

    def load_all(self, raw: list, where: str, game: Any) -> list:
        """Every entry of a list of this kind, read and checked."""
        return [self.load(x, f"{where}[{i}]", game) for i, x in enumerate(raw)]


class Int(Kind):
    """A whole number (an int, never a bool or a float) from ``lo`` to ``hi``."""

    def __init__(self, lo: Bound = None, hi: Bound = None, step: int = 1) -> None:
        self.lo, self.hi, self.step = lo, hi, step

    def allowed(self, game: Any) -> str:
        lo, hi = bound(self.lo, game), bound(self.hi, game)
        text = "a whole number"
        if self.step != 1:
            text = f"a whole multiple of {self.step}"
        if lo is not None and hi is not None:
            return f"{text} from {lo} to {hi}"
        if lo is not None:
            return f"{text} from {lo} up"
        return text

    def load(self, raw: Any, where: str, game: Any) -> int:
        lo, hi = bound(self.lo, game), bound(self.hi, game)
        if (type(raw) is not int or (lo is not None and raw < lo)
                or (hi is not None and raw > hi) or raw % self.step):
            raise fail(where, self.allowed(game), raw)
        return raw

    def load_all(self, raw: list, where: str, game: Any) -> list:
        # The common case in one pass; the slow path only finds the entry to name.
        lo, hi = bound(self.lo, game), bound(self.hi, game)
        if only(raw, int) and (
                not raw or ((lo is None or min(raw) >= lo) and (hi is None or max(raw) <= hi)
                            and (self.step == 1 or not any(x % self.step for x in raw)))):
            return list(raw)
        return super().load_all(raw, where, game)


class Bool(Kind):
    def load(self, raw: Any, where: str, game: Any) -> bool:
        if type(raw) is not bool:
            raise fail(where, "true or false", raw)
        return raw

    def load_all(self, raw: list, where: str, game: Any) -> list:
        if only(raw, bool):
            return list(raw)
        return super().load_all(raw, where, game)


class Text(Kind):
    def load(self, raw: Any, where: str, game: Any) -> str:
        if type(raw) is not str:
            raise fail(where, "a string", raw)
        return raw

    def load_all(self, raw: list, where: str, game: Any) -> list:
        if only(raw, str):
            return list(raw)
        return super().load_all(raw, where, game)


class OneOf(Kind):
    """One of a few fixed values (deck names)."""

    def __init__(self, values: tuple) -> None:
        self.values = values

    def load(self, raw: Any, where: str, game: Any) -> Any:
        if type(raw) is not str or raw not in self.values:
            raise fail(where, f"one of {list(self.values)}", raw)
        return raw


class Seq(Kind):
    """A list of ``item`` (a tuple in the game when ``as_tuple``), of a fixed length or any."""

    def __init__(self, item: Kind, length: Bound = None, as_tuple: bool = False,
                 min_length: int = 0, lazy: bool = False) -> None:
        self.item, self.length, self.as_tuple, self.min_length = item, length, as_tuple, min_length
        self.copies = not as_tuple
        self.lazy = lazy
        self.plain = False
        # A list of immutable values copies as a list's own copy, without a call through here.
        if self.copies and not item.copies:
            self.copy = list.copy  # type: ignore[method-assign]

    def copy(self, value: Any) -> Any:
        if self.as_tuple:
            return value
        return [self.item.copy(x) for x in value]

    def dump(self, value: Any) -> Any:
        if self.item.plain:
            return list(value) if self.as_tuple else value
        return [self.item.dump(x) for x in value]

    def load(self, raw: Any, where: str, game: Any) -> Any:
        length = bound(self.length, game)
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

    def load(self, raw: Any, where: str, game: Any) -> Any:
        return None if raw is None else self.kind.load(raw, where, game)


def per_seat(item: Kind) -> Seq:
    """One ``item`` per seat of the game being read."""
    return Seq(item, lambda g: g.num_players)


class RulesKind(Kind):
    """The game's frozen rules value (a class with ``to_dict`` and ``from_dict``)."""

    plain = False

    def __init__(self, rules_cls: type) -> None:
        self.rules_cls = rules_cls

    def dump(self, value: Any) -> dict:
        return value.to_dict()

    def load(self, raw: Any, where: str, game: Any) -> Any:
        try:
            return self.rules_cls.from_dict(raw)
        except RulesError as exc:
            raise GameStateError(f"{PREFIX}: field {where!r}: {exc}") from None


class SeedKind(Kind):
    def load(self, raw: Any, where: str, game: Any) -> int | None:
        if seed_error(raw) is not None:
            raise fail(where, "null or a whole number from 0 up", raw)
        return raw


MT_WORDS = 624  # the Mersenne Twister's state: 624 words and a position


class RngKind(Kind):
    """The game's random.Random, saved as its getstate()."""

    copies = True
    lazy = True  # copying its 625 words is most of a clone, and a search reseeds its clones
    plain = False

    def copy(self, value: random.Random) -> random.Random:
        rng = random.Random()
        rng.setstate(value.getstate())
        return rng

    def dump(self, value: random.Random) -> list:
        version, internal, gauss = value.getstate()
        return [version, list(internal), gauss]

    def load(self, raw: Any, where: str, game: Any) -> random.Random:
        allowed = ("[3, a list of 624 whole numbers from 0 to 2**32-1 (not all 0) and a position "
                   "from 0 to 624, null or a float]")
        if type(raw) is not list or len(raw) != 3 or type(raw[0]) is not int or raw[0] != 3:
            raise fail(where, allowed, raw)
        internal, gauss = raw[1], raw[2]
        if (type(internal) is not list or len(internal) != MT_WORDS + 1
                or not only(internal, int)
                or min(internal[:MT_WORDS]) < 0 or max(internal[:MT_WORDS]) >= 2 ** 32
                or not any(internal[:MT_WORDS]) or not 0 <= internal[-1] <= MT_WORDS):
            raise fail(f"{where}[1]", allowed, internal)
        if gauss is not None and (type(gauss) is not float or not math.isfinite(gauss)):
            raise fail(f"{where}[2]", allowed, gauss)
        rng = random.Random()
        rng.setstate((3, tuple(internal), gauss))
        return rng


class PhaseKind(Kind):
    """The game's phase, an IntEnum saved as its number."""

    plain = False

    def __init__(self, phase_cls: type[IntEnum]) -> None:
        self.phase_cls = phase_cls

    def dump(self, value: IntEnum) -> int:
        return int(value)

    def load(self, raw: Any, where: str, game: Any) -> IntEnum:
        return self.phase_cls(Int(0, len(self.phase_cls) - 1).load(raw, where, game))


class DecksKind(Kind):
    """Each deck's card numbers, top first (``sizes``: each deck name and its card count).
    Which cards must be there depends on what the seats keep, which each game's whole-game
    check compares (``check_deck``)."""

    copies = True

    def __init__(self, sizes: dict[str, int]) -> None:
        self.sizes = sizes

    def copy(self, value: dict) -> dict:
        return {d: list(c) for d, c in value.items()}

    def load(self, raw: Any, where: str, game: Any) -> dict:
        if type(raw) is not dict or set(raw) != set(self.sizes):
            raise GameStateError(
                f"{PREFIX}: field {where!r}: saved decks must be exactly {list(self.sizes)}, "
                f"each a list of its card numbers; got {show(raw)}")
        return {d: Seq(Int(1, n)).load(raw[d], f"{where}.{d}", game)
                for d, n in self.sizes.items()}


def check_deck(deck: str, cards: list[int], size: int, held: int, card: int, less: str) -> None:
    """Deck ``deck`` holds the cards 1 to ``size`` once each, less ``card`` while a seat keeps it
    (``held`` such cards kept, at most one); ``less`` words that exception for the error."""
    expected = [c for c in range(1, size + 1) if not (held and c == card)]
    if held > 1 or sorted(cards) != expected:
        raise fail(f"decks.{deck}", f"the cards 1 to {size} once each, less {less}", cards)


class TaskKind(Kind):
    """A task of the turn's stack, a tuple of ints saved as a list: a debt (``T_DEBT``, debtor,
    creditor, amount, ...) with creditor -1 for the bank, or one of the game's other tasks
    (``other_ok`` says which); with ``debt_only``, a debt alone."""

    plain = False
    allowed = DEBT_TEXT  # every task the game has, in words
    min_amount = 0  # the least amount a debt may name

    def __init__(self, debt_only: bool = False) -> None:
        self.debt_only = debt_only

    def dump(self, value: tuple) -> list:
        return list(value)

    def other_ok(self, raw: list) -> bool:
        """Whether ``raw`` (a non-empty list of ints, not a debt) is one of the game's tasks."""
        return False

    def load(self, raw: Any, where: str, game: Any) -> tuple:
        allowed = DEBT_TEXT if self.debt_only else self.allowed
        if type(raw) is not list or not raw or not all(type(x) is int for x in raw):
            raise fail(where, allowed, raw)
        n = game.num_players
        ok = False
        if raw[0] == T_DEBT:
            debtor = raw[1] if len(raw) > 1 else None
            ok = (len(raw) >= 4 and len(raw) % 2 == 0 and 0 <= debtor < n
                  and all(BANK <= c < n and c != debtor for c in raw[2::2])
                  and all(a >= self.min_amount for a in raw[3::2]))
        elif not self.debt_only:
            ok = self.other_ok(raw)
        if not ok:
            raise fail(where, allowed, raw)
        return tuple(raw)


class Derived(Kind):
    """A field not saved: computed from the fields read before it."""

    def __init__(self, derive: Callable[[Any], Any]) -> None:
        self.derive = derive


class Field(NamedTuple):
    name: str  # the attribute of Game and the key in the save
    kind: Kind

    @property
    def saved(self) -> bool:
        return not isinstance(self.kind, Derived)


def opening_fields(rules_cls: type) -> tuple[Field, ...]:
    """The fields every game's state opens with: the rules (first, as the other fields' bounds
    read them), the number of seats (derived from the rules), the seed, the generator, the cash
    of each seat."""
    return (
        Field("rules", RulesKind(rules_cls)),
        Field("num_players", Derived(lambda g: g.rules.num_players)),
        Field("seed", SeedKind()),
        Field("rng", RngKind()),
        Field("cash", per_seat(Int(0))),
    )


def closing_fields(dice_sides: int) -> tuple[Field, ...]:
    """The fields every game's state closes with: the winners, the dice forced by tests, what
    the bank has paid out and taken in, the log, and ``version`` (not saved: the count of
    actions applied since loading)."""
    return (
        Field("winners", Seq(Int(0, last_seat))),
        Field("forced_dice", Seq(Seq(Int(1, dice_sides), 2, as_tuple=True))),
        Field("bank_paid", Int(0)),
        Field("bank_received", Int(0)),
        Field("log", Seq(Text(), lazy=True)),
        Field("version", Derived(lambda g: 0)),
    )


def clone_copies(state: tuple[Field, ...]) -> tuple[tuple[str, Callable[[Any], Any]], ...]:
    """What clone copies at once (the mutable fields, each with its copy, but the lazy ones);
    the rest is shared, being immutable, and the lazy ones are shared until read
    (``lazy_fields``)."""
    return tuple((f.name, f.kind.copy) for f in state if f.kind.copies and not f.kind.lazy)


def lazy_fields(state: tuple[Field, ...]) -> tuple[tuple[str, Callable[[Any], Any]], ...]:
    """The mutable fields that clone shares until either game reads them, with their copy."""
    return tuple((f.name, f.kind.copy) for f in state if f.kind.copies and f.kind.lazy)


# ------------------------------------------------------------------------------ the saved game
HEADER = ("format", "version", "board")


class SaveFormat:
    """A game's saved form: the header (``format``, ``version``, ``board``), then the fields of
    ``state`` in order; read back field by field, then checked whole by ``check_whole``."""

    def __init__(self, game_name: str, format_name: str, version: int, board_hash: str,
                 state: tuple[Field, ...], check_whole: Callable[[Any], None]) -> None:
        self.game_name, self.format, self.version = game_name, format_name, version
        self.board_hash, self.state, self.check_whole = board_hash, state, check_whole
        self.saved = tuple(f.name for f in state if f.saved)
        self.keys = frozenset(HEADER + self.saved)

    def state_to_dict(self, game: Any) -> dict:
        """The saved fields of ``game`` as JSON-ready values, in save order."""
        return {f.name: f.kind.dump(getattr(game, f.name)) for f in self.state if f.saved}

    def state_from_dict(self, data: dict, game: Any) -> Any:
        """``game`` (a blank ``Game.__new__(Game)``) filled from ``state_to_dict`` values;
        GameStateError naming the field if any is wrong.

        ``data`` may hold other keys (the save's header); the caller checks those.
        """
        for f in self.state:
            if not f.saved:
                value = f.kind.derive(game)
            elif f.name not in data:
                raise GameStateError(f"{PREFIX}: field {f.name!r} is missing")
            else:
                value = f.kind.load(data[f.name], f.name, game)
            setattr(game, f.name, value)
        self.check_whole(game)
        return game

    def save_dict(self, game: Any) -> dict:
        """The whole game as JSON-ready values, header first."""
        data = {"format": self.format, "version": self.version, "board": self.board_hash}
        data.update(self.state_to_dict(game))
        return data

    def save_json(self, game: Any) -> str:
        return json.dumps(self.save_dict(game), separators=(",", ":"))

    def load_dict(self, data: Any, game: Any) -> Any:
        """``game`` (a blank ``Game.__new__(Game)``) filled from ``save_dict`` values;
        GameStateError (naming the field and what is allowed) for anything corrupt or saved by
        another version or board."""
        if type(data) is not dict or data.get("format") != self.format:
            raise GameStateError(
                f"not a saved {self.game_name} game (expected format {self.format!r})")
        if type(data.get("version")) is not int or data.get("version") != self.version:
            raise GameStateError(
                f"saved game version {show(data.get('version'))} is not supported; this engine "
                f"reads version {self.version}")
        if data.get("board") != self.board_hash:
            raise GameStateError(
                f"saved game was played on board {show(data.get('board'))}, this engine has "
                f"board {self.board_hash!r}")
        unknown = set(data) - self.keys
        if unknown:
            raise GameStateError(
                f"{PREFIX}: unknown fields {show(sorted(unknown))}; a version {self.version} "
                f"save has exactly {sorted(self.keys)}")
        try:
            return self.state_from_dict(data, game)
        except GameStateError:
            raise
        except (LookupError, TypeError, ValueError, ArithmeticError, RecursionError) as exc:
            # A safety net: every field is checked before use, so this names a gap in the
            # checks rather than an expected path. The save is refused all the same.
            raise GameStateError(f"{PREFIX}: {type(exc).__name__}: {show(str(exc))}") from exc

    def load_json(self, text: str | bytes, game: Any) -> Any:
        """``game`` (a blank) filled from ``save_json`` text, as ``load_dict``."""
        try:
            data = json.loads(text)
        except RecursionError:  # nesting deeper than the decoder's stack
            raise GameStateError("saved game is not valid JSON: nested too deeply") from None
        except (TypeError, ValueError) as exc:
            raise GameStateError(f"saved game is not valid JSON: {exc}") from exc
        return self.load_dict(data, game)


# ------------------------------------------------------------------------- the whole-game check
def check_dice(dice: tuple[int, int]) -> None:
    if (dice[0] == 0) != (dice[1] == 0):
        raise fail("dice", "two dice from 1 to 6, or [0, 0] before the first roll", dice)


def check_over(g: Any, over: bool) -> None:
    """Once the game is over: winners, distinct seats still in, in order, with no seat to move
    and no task left; while it is on, no winners."""
    if over:
        w = g.winners
        if g.current_player != -1 or not w or w != sorted(set(w)) or any(
                g.bankrupt[s] for s in w):
            raise fail("winners", "distinct seats still in, in order, and current_player -1 "
                       "once the game is over", (w, g.current_player))
        if g.tasks:
            raise fail("tasks", "empty once the game is over", g.tasks)
    elif g.winners:
        raise fail("winners", "empty while the game is on", g.winners)
