"""What every game on this engine design shares: ``TableGame``, the base of each ``Game``.

A game on this design (Byapar, Businessman) is a state machine with one pending decision at a
time: seats numbered 0 to ``num_players - 1``, a seeded generator, a turn's task stack, money
that moves between the seats and the bank, debts raised by selling and pledging, and a state
declared once (``schema``) that clone, save and load follow. ``TableGame`` holds the parts
that are the same in every such game; each game's ``Game`` subclasses it and sets the class
attributes below to its own phases, figures and saved form, and keeps its rules. ``TableRules``
is the same for each game's table options.
Standard library only.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import asdict
from enum import IntEnum
from typing import Any, ClassVar

from .errors import RulesError, SeedError, show
from .schema import (
    BANK,
    T_DEBT,
    T_END_TURN,
    T_LAND,
    T_MOVE,
    SaveFormat,
    lazy_fields,
    seed_error,
)


class CopyOnClone:
    """A field that ``clone`` shares between the two games until either reads it; the reader
    then takes its own copy (a read may be the start of a change: ``game.rng.random()``,
    ``game.log.append``). Writing the field gives the game its own value, uncopied.

    The value lives in the game's ``__dict__`` under ``_<name>``, with ``_<name>_shared``
    telling whether it is still shared. A search clones a position hundreds of times and
    reseeds each clone, so the generator's 625 words are then never copied at all.
    """

    def __init__(self, name: str, copy: Callable[[Any], Any]) -> None:
        self.slot, self.flag, self.copy = f"_{name}", f"_{name}_shared", copy

    def __get__(self, game: Any, owner: type | None = None) -> Any:
        if game is None:
            return self
        d = game.__dict__
        value = d[self.slot]
        if d[self.flag]:
            value = d[self.slot] = self.copy(value)
            d[self.flag] = False
        return value

    def __set__(self, game: Any, value: Any) -> None:
        d = game.__dict__
        d[self.slot] = value
        d[self.flag] = False


class TableGame:
    """The shared half of a game's ``Game``; the game's class sets:

    ``SAVE`` (its ``schema.SaveFormat``), ``CLONE_COPIES`` (``schema.clone_copies`` of its
    state), ``RULES`` (its rules class) and ``RULES_NAME`` (how a wrong rules value is named),
    ``ACTION`` (its action class), ``PRE_ROLL``, ``GAME_OVER`` and ``RAISE_PHASE`` (its phases),
    ``RAISE_WORD`` (what a debtor must raise, for the log), ``DICE_SIDES``, ``FINISH_CLEARS``
    (the fields reset when the game ends, with their values), ``OUT_CREDITOR_TO_BANK`` (whether
    a debt to a seat gone bankrupt is paid to the bank), ``money`` (an amount in words), and
    its decks: ``CARDS`` (each deck's cards, number 1 first), the card a seat keeps until used
    (``KEPT_EFFECT``, the number of each deck's such card ``KEPT_CARD``, and ``KEPT``, the
    field of each seat's kept cards, by deck).
    """

    SAVE: ClassVar[SaveFormat]
    CLONE_COPIES: ClassVar[tuple[tuple[str, Callable[[Any], Any]], ...]]
    RULES: ClassVar[type]
    RULES_NAME: ClassVar[str]
    ACTION: ClassVar[type]
    PRE_ROLL: ClassVar[IntEnum]
    GAME_OVER: ClassVar[IntEnum]
    RAISE_PHASE: ClassVar[IntEnum]
    RAISE_WORD: ClassVar[str]
    DICE_SIDES: ClassVar[int]
    FINISH_CLEARS: ClassVar[tuple[tuple[str, Any], ...]] = ()
    CARDS: ClassVar[dict[str, tuple]]
    KEPT: ClassVar[str]
    KEPT_EFFECT: ClassVar[str]
    KEPT_CARD: ClassVar[dict[str, int]]
    OUT_CREDITOR_TO_BANK: ClassVar[bool] = False
    money: ClassVar[Callable[[int], str]]
    # The flags of the fields that clone shares until read (from the state's lazy kinds).
    SHARED_FLAGS: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Each game's lazy fields (``schema.lazy_fields`` of its state) become
        ``CopyOnClone`` attributes of its class."""
        super().__init_subclass__(**kwargs)
        save = cls.__dict__.get("SAVE")
        if save is None:
            return
        lazy = lazy_fields(save.state)
        for name, copy in lazy:
            setattr(cls, name, CopyOnClone(name, copy))
        cls.SHARED_FLAGS = tuple(f"_{name}_shared" for name, _ in lazy)

    # Set by the game's own __init__ (through ``_seat_table``) and declared in its state.
    rules: Any
    num_players: int
    seed: int | None
    rng: random.Random
    cash: list[int]
    bankrupt: list[bool]
    phase: IntEnum
    current_player: int
    turn: int
    tasks: list[tuple[int, ...]]
    debt: tuple[int, ...] | None
    winners: list[int]
    forced_dice: list[tuple[int, int]]
    log: list[str]
    bank_paid: int
    bank_received: int
    version: int

    def _seat_table(self, rules: Any, seed: int | None) -> Any:
        """Check and set ``rules`` (None: the defaults), ``num_players``, ``seed`` and the
        generator; the rules, for the game's own __init__ to go on with."""
        rules = rules if rules is not None else self.RULES()
        if not isinstance(rules, self.RULES):
            raise TypeError(f"rules must be {self.RULES_NAME}, got {type(rules).__name__}")
        error = seed_error(seed)
        if error is not None:
            raise SeedError(error)
        self.rules = rules
        self.num_players = rules.num_players
        self.seed = seed
        self.rng = random.Random(seed)
        return rules

    # ------------------------------------------------------------------ queries
    @property
    def is_over(self) -> bool:
        return self.phase == self.GAME_OVER

    def active_seats(self) -> list[int]:
        """Seats still in the game, in turn order from seat 0."""
        return [s for s in range(self.num_players) if not self.bankrupt[s]]

    def debt_owed(self) -> int:
        """The amount of the debt being raised for (0 when none)."""
        return sum(self.debt[3::2]) if self.debt else 0

    def is_legal(self, action: Any) -> bool:
        """Whether ``action`` may be taken now."""
        return self._illegal_reason(action) is None

    def _illegal_reason(self, action: Any) -> str | None:
        raise NotImplementedError

    def legal_actions(self) -> list:
        raise NotImplementedError

    def _also_legal(self) -> str:
        """What is legal beside the listed actions, for the error message ('' if nothing)."""
        return ""

    def _phase_shown(self) -> str:
        """The phase's name in the error message (a game may show another than its member's)."""
        return self.phase.name

    def _illegal_message(self, action: object, reason: str) -> str:
        # An action names itself safely whatever its fields; anything else is cut short.
        what = str(action) if isinstance(action, self.ACTION) else show(action)
        if self.phase == self.GAME_OVER:
            return f"illegal action {what}: the game is over, no action is legal"
        legal = [str(a) for a in self.legal_actions()]
        shown = ", ".join(legal[:12]) + (f", ... ({len(legal)} in all)" if len(legal) > 12 else "")
        shown += self._also_legal()
        return (f"illegal action {what} for seat {self.current_player} in "
                f"{self._phase_shown()}: {reason}. Legal now: {shown}")

    # ------------------------------------------------------------------ chance
    def force_dice(self, *rolls: tuple[int, int]) -> None:
        """Make the next rolls these (each a pair of 1-6), before the generator is used again."""
        sides = self.DICE_SIDES
        for r in rolls:
            ok = (isinstance(r, (tuple, list)) and len(r) == 2
                  and all(type(d) is int and 1 <= d <= sides for d in r))
            if not ok:
                raise ValueError(f"a forced roll is a pair of two dice from 1 to {sides}, "
                                 f"got {show(r)}")
        self.forced_dice.extend((r[0], r[1]) for r in rolls)

    def _card_number(self, deck: str, card: Any) -> Any:
        """The number of ``card`` as ``stack_deck`` names it (a number; a game may take more)."""
        return card

    def stack_deck(self, deck: str, *cards: Any) -> None:
        """Put these cards on top of ``deck``, the first named on top."""
        decks = self.decks  # type: ignore[attr-defined]
        if type(deck) is not str or deck not in decks:
            raise ValueError(f"deck must be one of {list(decks)}, got {show(deck)}")
        held = decks[deck]
        numbers = []
        for card in cards:
            number = self._card_number(deck, card)
            if type(number) is not int or number not in held:
                raise ValueError(f"card {show(card)} is not in the {deck} deck now: {held}")
            numbers.append(number)
        if len(set(numbers)) != len(numbers):
            raise ValueError(f"each card can be stacked once, got {list(cards)}")
        rest = [c for c in held if c not in numbers]
        held[:] = numbers + rest

    def _card_label(self, deck: str, card: Any) -> str:
        """How the log names a drawn card."""
        return deck.capitalize()

    def _draw_card(self, deck: str, p: int) -> Any:
        """Seat ``p`` draws the top card of ``deck``: a card kept until used (``KEPT_EFFECT``)
        goes to the seat's ``KEPT`` list and None is returned; any other goes back under the
        deck and is returned, for the game to carry out."""
        cards = self.decks[deck]  # type: ignore[attr-defined]
        number = cards.pop(0)
        card = self.CARDS[deck][number - 1]
        self.log.append(f"seat {p} draws {self._card_label(deck, card)}: {card.text}")
        if card.effect == self.KEPT_EFFECT:
            getattr(self, self.KEPT)[p].append(deck)
            return None
        cards.append(number)
        return card

    def _use_kept(self, p: int) -> str:
        """Seat ``p`` uses its first kept card: back under its deck. Its deck."""
        deck = getattr(self, self.KEPT)[p].pop(0)
        self.decks[deck].append(self.KEPT_CARD[deck])  # type: ignore[attr-defined]
        return deck

    def _return_kept(self, p: int) -> None:
        """Every card seat ``p`` keeps goes back under its deck."""
        kept = getattr(self, self.KEPT)
        for deck in kept[p]:
            self.decks[deck].append(self.KEPT_CARD[deck])  # type: ignore[attr-defined]
        kept[p] = []

    def _roll(self) -> tuple[int, int]:
        if self.forced_dice:
            return self.forced_dice.pop(0)
        r = self.rng.random
        sides = self.DICE_SIDES
        return int(r() * sides) + 1, int(r() * sides) + 1

    # ------------------------------------------------------------------ money
    def _pay_bank(self, seat: int, amount: int) -> None:
        self.cash[seat] -= amount
        self.bank_received += amount

    def _bank_pays(self, seat: int, amount: int) -> None:
        self.cash[seat] += amount
        self.bank_paid += amount

    # ------------------------------------------------------------------ the turn
    def _run(self) -> None:
        """Work through the task stack until a decision is pending or the turn has passed on.

        The shared codes are worked here (move, land, settle a debt, end the turn); any other
        is the game's ``_task``. ``_stack_done`` follows a stack that empties without a
        decision."""
        self.phase = self.PRE_ROLL  # provisional; a task that needs a decision sets its own
        tasks = self.tasks
        while tasks:
            t = tasks.pop()
            code = t[0]
            if code == T_MOVE:
                self._move(t[1])
            elif code == T_LAND:
                if self._land():
                    return
            elif code == T_DEBT:
                if self._settle(t):
                    return
            elif code == T_END_TURN:
                self._end_turn()
                return
            elif self._task(t):
                return
            tasks = self.tasks  # going to jail or bankruptcy replaces the stack
        self._stack_done()

    def _task(self, task: tuple[int, ...]) -> bool:
        """Work one of the game's own tasks; True when a decision is pending or the turn has
        passed on. A game without tasks of its own ends the turn here."""
        self._end_turn()
        return True

    def _stack_done(self) -> None:
        """After a stack emptied without a decision (the game has ended)."""

    def _move(self, steps: int) -> None:
        raise NotImplementedError

    def _land(self) -> bool:
        raise NotImplementedError

    def _end_turn(self) -> None:
        raise NotImplementedError

    def _others_in_order(self, p: int) -> list[int]:
        """The seats still in after ``p``, in turn order."""
        n = self.num_players
        return [(p + i) % n for i in range(1, n) if not self.bankrupt[(p + i) % n]]

    def _next_seat(self, p: int) -> tuple[int, bool]:
        """The next seat still in after ``p``, and whether the turn order wrapped round."""
        n = self.num_players
        bankrupt = self.bankrupt
        for s in range(p + 1, n):
            if not bankrupt[s]:
                return s, False
        return next(s for s in range(n) if not bankrupt[s]), True

    def net_worth(self, seat: int) -> int:
        raise NotImplementedError

    def _finish_by_net_worth(self) -> None:
        worth = {s: self.net_worth(s) for s in self.active_seats()}
        best = max(worth.values())
        self._finish([s for s, w in worth.items() if w == best], "the highest net worth")

    def _finish(self, winners: list[int], why: str) -> None:
        self.winners = winners
        self.tasks = []
        self.phase = self.GAME_OVER
        self.current_player = -1
        for name, value in self.FINISH_CLEARS:
            setattr(self, name, value)
        names = ", ".join(f"seat {s}" for s in winners)
        self.log.append(f"Game over: {names} {'wins' if len(winners) == 1 else 'share the win'} "
                        f"with {why}")

    # ------------------------------------------------------------------ debts
    def liquidation_value(self, seat: int) -> int:
        raise NotImplementedError

    def _settle(self, debt: tuple[int, ...]) -> bool:
        """Pay ``debt`` if the cash is there; else ask to raise it, or go bankrupt at once."""
        debtor = debt[1]
        owed = sum(debt[3::2])
        if owed == 0 or self.bankrupt[debtor]:
            return False
        if self.cash[debtor] >= owed:
            self._pay_debt(debt)
            return False
        if self.liquidation_value(debtor) < owed:
            self._go_bankrupt(debt)
            return False
        self.debt = debt
        self.phase = self.RAISE_PHASE
        self.current_player = debtor
        money = self.money
        self.log.append(f"seat {debtor} owes {money(owed)} and holds "
                        f"{money(self.cash[debtor])}: must raise {self.RAISE_WORD}")
        return True

    def _pay_debt(self, debt: tuple[int, ...]) -> None:
        debtor = debt[1]
        money = self.money
        for i in range(2, len(debt), 2):
            creditor, amount = debt[i], debt[i + 1]
            if creditor == BANK or (self.OUT_CREDITOR_TO_BANK and self.bankrupt[creditor]):
                self._pay_bank(debtor, amount)
                self.log.append(f"seat {debtor} pays {money(amount)} to the bank")
            else:
                self.cash[debtor] -= amount
                self.cash[creditor] += amount
                self.log.append(f"seat {debtor} pays {money(amount)} to seat {creditor}")

    def _after_raise(self, p: int) -> None:
        """After a sale or pledge while raising cash: pay as soon as the cash is there."""
        if self.phase == self.RAISE_PHASE and self.cash[p] >= self.debt_owed():
            debt = self.debt
            self.debt = None
            self._pay_debt(debt)
            self._run()

    def _go_bankrupt(self, debt: tuple[int, ...]) -> None:
        raise NotImplementedError

    # ------------------------------------------------------------------ copying and saving
    def to_json(self) -> str:
        """The whole game as JSON text; ``Game.from_json`` restores it exactly."""
        return self.SAVE.save_json(self)

    @classmethod
    def from_json(cls, text: str | bytes) -> Any:
        """A game from ``to_json`` text; GameStateError for a corrupt or mismatched one, or one
        the game's own ``check_loaded`` refuses (every loader of a game goes through it)."""
        game = cls.SAVE.load_json(text, cls.__new__(cls))
        game.check_loaded()
        return game

    def check_loaded(self) -> None:
        """What a game checks of a loaded save beyond its schema (a ``GameStateError`` if it
        cannot stand): nothing here; Byapar checks that its money adds up."""

    def clone(self) -> Any:
        """An independent copy, cheap enough for search. It copies the mutable fields that the
        game's state declares, shares the lazy ones (the generator, the log) until either game
        reads them (``CopyOnClone``), and shares the rest (immutable, or set by callers)."""
        cls = type(self)
        g = cls.__new__(cls)
        d = g.__dict__
        src = self.__dict__
        d.update(src)
        for name, copy in self.CLONE_COPIES:
            d[name] = copy(d[name])
        for flag in self.SHARED_FLAGS:
            src[flag] = d[flag] = True
        return g


def is_whole(value: object) -> bool:
    """Whether ``value`` is an int and not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


class TableRules:
    """The shared half of a game's frozen ``Rules`` dataclass: ``num_players`` checked against
    the game's range, and the value to and from a plain mapping of its options."""

    num_players: int

    def check_players(self, lo: int, hi: int) -> None:
        if not is_whole(self.num_players) or not lo <= self.num_players <= hi:
            raise RulesError(f"num_players must be a whole number from {lo} to {hi}, "
                             f"got {show(self.num_players)}")

    def to_dict(self) -> dict:
        return asdict(self)  # type: ignore[call-overload]

    @classmethod
    def from_dict(cls, data: dict) -> Any:
        if not isinstance(data, dict):
            raise RulesError(f"rules must be a mapping of option names to values, got {show(data)}")
        allowed = set(cls.__dataclass_fields__)  # type: ignore[attr-defined]
        unknown = set(data) - allowed
        if unknown:
            raise RulesError(f"unknown table options {show(sorted(map(str, unknown)))}; "
                             f"allowed: {sorted(allowed)}")
        return cls(**data)


def check_options(options: dict, allowed: tuple[str, ...], game: str) -> None:
    """``RulesError`` naming an option of ``options`` that ``game``'s tables do not have."""
    for name in options:
        if name not in allowed:
            raise RulesError(f"{game} has no table option {str(name)[:40]!r}: its options are "
                             f"{', '.join(allowed)}")
