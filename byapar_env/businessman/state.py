"""Businessman's game state, declared once.

``STATE`` lists every field of a ``Game`` in save order with its kind: how ``Game.clone`` copies
it, how ``Game.to_json`` writes it and how ``Game.from_json`` reads and checks it. The field
kinds (whole numbers with bounds, lists, the generator's state, the rules, the phase, the
decks, the task stack) and the saved game's header and reading are the ones both games share,
from ``byapar_env.core.schema``: one saved-game machinery for both games.

Reading checks each field on its own, then the whole game (``check_whole``) for what holds
between fields: money conserved (the players' cash is the starting cash plus what the bank paid
out less what it took in), each colour's shares adding up to its stock, each Exchange card kind
held or played at most as often as it is printed, the Surprise and Notice decks holding each card
once less the kept passes, a bankrupt seat holding nothing, the phase's own record present and no
other's. Anything wrong raises ``GameStateError`` naming the field.
"""

from __future__ import annotations

import warnings
from enum import EnumMeta, IntEnum
from typing import TYPE_CHECKING, Any

from ..core import schema
from ..core.schema import (  # noqa: F401 (BANK and the task codes: read from here too)
    BANK,
    T_DEBT,
    T_END_TURN,
    T_LAND,
    T_MOVE,
    Field,
    fail,
)
from . import board
from .board import FIGURES
from .rules import Rules

if TYPE_CHECKING:
    from .game import Game

# Three phases took the names Byapar's phases have for the same decisions. Their old names
# (``Phase.BUY_OFFER``, ``Phase["BUY_OFFER"]``) still read, with a DeprecationWarning, for one
# release; and what leaves the engine as text (the server's status, error messages, the rendered
# table) keeps showing the old names (``Phase.shown_name``), so a client reads what it always has.
RENAMED_PHASES = {"TRADE_RESPONSE": "TRADE_ANSWER", "BUY_OFFER": "BUY", "RAISE_FUNDS": "RAISE_CASH"}
_SHOWN_NAMES = {new: old for old, new in RENAMED_PHASES.items()}


def _renamed(cls: EnumMeta, old: str) -> Any:
    new = RENAMED_PHASES[old]
    warnings.warn(f"Phase.{old} is deprecated: use Phase.{new}, Byapar's name for the same "
                  "phase", DeprecationWarning, stacklevel=3)
    return EnumMeta.__getitem__(cls, new)


class _PhaseType(EnumMeta):
    """Phase's type: reads a phase's old name as its new one, warning."""

    def __getattr__(cls, name: str) -> Any:
        if name in RENAMED_PHASES:
            return _renamed(cls, name)
        raise AttributeError(f"type object {cls.__name__!r} has no attribute {name!r}")

    def __getitem__(cls, name: str) -> Any:
        if name in RENAMED_PHASES:
            return _renamed(cls, name)
        return super().__getitem__(name)


class Phase(IntEnum, metaclass=_PhaseType):
    """What kind of decision the game is waiting for. The names are Byapar's where the
    decision is the same (``PRE_ROLL``, ``BUY``, ``TRADE_ANSWER``, ``RAISE_CASH``,
    ``GAME_OVER``)."""

    PRE_ROLL = 0  # the turn's player: manage, trade, use a pass, roll
    TRADE_COMPOSE = 1  # the turn's player composes a proposal step by step
    TRADE_ANSWER = 2  # the seat offered the trade: accept or reject
    BUY = 3  # buy the unowned lot (or Supermarket) landed on, or not
    FORK = 4  # yes or no at the motorway, roulette, customs or broker
    HOTEL_MENU = 5
    PICK_COLOUR = 6  # a colour for each share given
    EXCHANGE_CARD = 7  # play one Exchange card or none
    EXCHANGE_TRADE = 8  # buy and sell shares, then end the session
    RAISE_CASH = 9  # a player owing more than their cash: sell buildings, pledge
    GAME_OVER = 10

    @property
    def shown_name(self) -> str:
        """The name the server's status, error messages and the rendered table show: the
        member's name, or its old one for the three renamed phases."""
        return _SHOWN_NAMES.get(self.name, self.name)


# Task codes of the turn's work stack (tuples of ints, so a game saves as plain JSON).
# T_END_TURN, T_MOVE ((T_MOVE, roll): along the token's track), T_LAND (the landing effect of
# the turn's player's cell) and T_DEBT are the schema's, shared with Byapar; these are its own:
T_SESSION = 4  # one exchange session for the turn's player (card phase first)
T_SESSION_TRADE = 5  # the trade phase of the session under way
T_PICK = 6  # (T_PICK, shares): colours to choose for shares from the bank's supply
T_OFFER = 7  # (T_OFFER, cell): offer the unowned cell to the turn's player
T_SPIN = 8  # (T_SPIN, spins left, marker cell): the Hotel's private roulette
_TASK_ARGS = {T_END_TURN: 0, T_MOVE: 1, T_LAND: 0, T_SESSION: 0, T_SESSION_TRADE: 0,
              T_PICK: 1, T_OFFER: 1, T_SPIN: 2}


class Trade:
    """A proposal being composed or answered: the other seat, the lots each side gives, the
    shares per colour and the cash, both signed (positive: the proposer gives), and how many
    composition steps it has taken."""

    __slots__ = ("target", "give", "take", "shares", "cash", "steps", "toggles")

    def __init__(self, target: int, give: list[int] | None = None,
                 take: list[int] | None = None, shares: list[int] | None = None, cash: int = 0,
                 steps: int = 0) -> None:
        self.target = target
        self.give = give if give is not None else []
        self.take = take if take is not None else []
        self.shares = shares if shares is not None else [0] * board.NUM_COLOURS
        self.cash = cash
        self.steps = steps
        # The lot toggles open while composing, listed once: nothing changes lots meanwhile.
        self.toggles: list | None = None

    def copy(self) -> Trade:
        t = Trade(self.target, list(self.give), list(self.take), list(self.shares), self.cash,
                  self.steps)
        t.toggles = self.toggles
        return t

    def to_dict(self) -> dict:
        return {"target": self.target, "give": list(self.give), "take": list(self.take),
                "shares": list(self.shares), "cash": self.cash, "steps": self.steps}

    def is_empty(self) -> bool:
        """Whether it holds no lot and no share (cash alone is not a trade)."""
        return not self.give and not self.take and not any(self.shares)


class BusinessmanTaskKind(schema.TaskKind):
    allowed = ("a task: [0] end turn, [1, roll 2-12] move, [2] land, [3, debtor, creditor, "
               "amount, ...] debt, [4] session, [5] session trade, [6, shares 1-5] picks, "
               "[7, cell] buy offer, [8, spins 1-3, roulette cell] Hotel spins")
    min_amount = 1

    def other_ok(self, raw: list) -> bool:
        code = raw[0]
        if code not in _TASK_ARGS or len(raw) != 1 + _TASK_ARGS[code]:
            return False
        if code == T_MOVE:
            return 2 <= raw[1] <= 2 * FIGURES.dice_sides
        if code == T_PICK:
            return 1 <= raw[1] <= 5
        if code == T_OFFER:
            return 0 <= raw[1] < board.NUM_CELLS and board.IS_OWNABLE[raw[1]]
        if code == T_SPIN:
            return (1 <= raw[1] <= 3
                    and board.ROULETTE_FIRST <= raw[2]
                    < board.ROULETTE_FIRST + board.ROULETTE_CELLS)
        return True


_TRADE_KEYS = ("target", "give", "take", "shares", "cash", "steps")


class TradeKind(schema.Kind):
    copies = True
    plain = False

    def copy(self, value: Trade) -> Trade:
        return value.copy()

    def dump(self, value: Trade) -> dict:
        return value.to_dict()

    def load(self, raw: Any, where: str, game: Game) -> Trade:
        raw = schema.record(raw, where, _TRADE_KEYS)
        target = schema.Int(0, schema.last_seat).load(raw["target"], f"{where}.target", game)
        cells = schema.Seq(schema.Int(0, board.NUM_CELLS - 1))
        give = cells.load(raw["give"], f"{where}.give", game)
        take = cells.load(raw["take"], f"{where}.take", game)
        shares = schema.Seq(schema.Int(-FIGURES.shares_per_colour, FIGURES.shares_per_colour),
                            board.NUM_COLOURS).load(raw["shares"], f"{where}.shares", game)
        cash = schema.Int().load(raw["cash"], f"{where}.cash", game)
        steps = schema.Int(0, FIGURES.max_compose_steps).load(raw["steps"], f"{where}.steps", game)
        return Trade(target, give, take, shares, cash, steps)


def _per_cell(item: schema.Kind) -> schema.Seq:
    return schema.Seq(item, board.NUM_CELLS)


def _colours(item: schema.Kind) -> schema.Seq:
    return schema.Seq(item, board.NUM_COLOURS)


_SEAT = schema.Int(0, schema.last_seat)
_KIND = schema.Int(0, board.NUM_EXCHANGE_KINDS - 1)

STATE: tuple[Field, ...] = (
    *schema.opening_fields(Rules),
    Field("track", schema.per_seat(schema.Int(0, 3))),
    Field("position", schema.per_seat(schema.Int(0, board.NUM_CELLS - 1))),
    Field("laps", schema.per_seat(schema.Int(0))),
    Field("shares", schema.per_seat(_colours(schema.Int(0, FIGURES.shares_per_colour)))),
    Field("hands", schema.per_seat(schema.Seq(_KIND))),
    Field("passes", schema.per_seat(schema.Seq(schema.OneOf(board.DECKS)))),
    Field("bankrupt", schema.per_seat(schema.Bool())),
    Field("owner", _per_cell(schema.Int(BANK, schema.last_seat))),
    Field("level", _per_cell(schema.Int(0, 2))),
    Field("mortgaged", _per_cell(schema.Bool())),
    Field("pledge_lap", _per_cell(schema.Int(-1))),
    Field("prices", _colours(schema.Int(FIGURES.price_min, FIGURES.price_max))),
    Field("supply", _colours(schema.Int(0, FIGURES.shares_per_colour))),
    Field("played", schema.Seq(_KIND)),
    Field("decks", schema.DecksKind(board.DECK_SIZE)),
    Field("turn", _SEAT),
    Field("round", schema.Int(1)),
    Field("turn_count", schema.Int(1)),
    Field("dice", schema.Seq(schema.Int(0, FIGURES.dice_sides), 2, as_tuple=True)),
    Field("trades_made", schema.Int(0, FIGURES.max_trades_per_turn)),
    Field("phase", schema.PhaseKind(Phase)),
    Field("current_player", schema.Int(-1, schema.last_seat)),
    Field("tasks", schema.Seq(BusinessmanTaskKind())),
    Field("pending_cell", schema.Int(-1, board.NUM_CELLS - 1)),
    Field("fork", schema.Int(-1, len(board.FORK_NAMES) - 1)),
    Field("picks_left", schema.Int(0, 5)),
    Field("session_bought", _colours(schema.Int(0, FIGURES.session_buy_limit))),
    Field("trade", schema.Maybe(TradeKind())),
    Field("debt", schema.Maybe(BusinessmanTaskKind(debt_only=True))),
    *schema.closing_fields(FIGURES.dice_sides),
)
CLONE_COPIES = schema.clone_copies(STATE)

FORMAT = "businessman-game"
VERSION = 1
SAVE = schema.SaveFormat("Businessman", FORMAT, VERSION, board.BOARD_HASH, STATE,
                  lambda g: check_whole(g))
SAVED = SAVE.saved
save_dict = SAVE.save_dict
save_json = SAVE.save_json
load_dict = SAVE.load_dict  # a blank Game.__new__(Game) filled from save_dict values
load_json = SAVE.load_json


# ------------------------------------------------------------------------- the whole-game check
def check_whole(g: Game) -> None:
    """What holds between fields in every game the engine plays; GameStateError if not."""
    n = g.num_players
    start = n * FIGURES.starting_cash
    if sum(g.cash) != start + g.bank_paid - g.bank_received:
        raise fail("cash", f"amounts summing to the starting cash {start:,} plus what the bank "
                   f"paid ({g.bank_paid:,}) less what it received ({g.bank_received:,}): money "
                   "is conserved", g.cash)
    for c in range(board.NUM_COLOURS):
        total = g.supply[c] + sum(sh[c] for sh in g.shares)
        if total != FIGURES.shares_per_colour:
            raise fail(f"supply[{c}]", f"the {FIGURES.shares_per_colour} shares of "
                       f"{board.COLOURS[c]} less those players hold", g.supply[c])
    for s in range(n):
        hand = g.hands[s]
        if len(hand) > board.HAND_MAX or hand != sorted(hand):
            raise fail(f"hands[{s}]", f"at most {board.HAND_MAX} card kinds in increasing order",
                       hand)
        if g.bankrupt[s]:
            schema.expect(((f"cash[{s}]", g.cash[s], 0), (f"hands[{s}]", hand, []),
                    (f"passes[{s}]", g.passes[s], []),
                    (f"shares[{s}]", g.shares[s], [0] * board.NUM_COLOURS)), " for a bankrupt seat")
        tr, pos = g.track[s], g.position[s]
        ok = (board.track_of_cell(pos) == tr
              or (tr == board.MOTORWAY and pos == FIGURES.motorway_entry_cell))
        if not ok:
            raise fail(f"position[{s}]", f"a cell of the {board.TRACK_NAMES[tr]}", pos)
        if tr == board.ABROAD and not g.rules.abroad_enabled:
            raise fail(f"track[{s}]", "not abroad when abroad_enabled is false", tr)
    for k in board.EXCHANGE_KINDS:
        used = sum(h.count(k.index) for h in g.hands) + g.played.count(k.index)
        if used > k.count:
            raise fail("hands", f"at most {k.count} {k.code} cards held and played", used)
    for deck in board.DECKS:
        held = sum(p.count(deck) for p in g.passes)
        card = board.PASS_CARD[deck]
        schema.check_deck(deck, g.decks[deck], board.DECK_SIZE[deck], held, card,
                   f"the pass ({card}) while a seat keeps it")
    _check_cells(g)
    schema.check_dice(g.dice)
    _check_phase(g)


def _check_cells(g: Game) -> None:
    branches = enterprises = 0
    for c in range(board.NUM_CELLS):
        o, lv, m, pl = g.owner[c], g.level[c], g.mortgaged[c], g.pledge_lap[c]
        if not board.IS_OWNABLE[c] or o == BANK:
            for name, value, allowed in (("owner", o, BANK), ("level", lv, 0),
                                         ("mortgaged", m, False), ("pledge_lap", pl, -1)):
                if value != allowed:
                    why = "not ownable" if not board.IS_OWNABLE[c] else "unowned"
                    raise fail(f"{name}[{c}]", f"{allowed!r}: {board.CELLS[c].name} is {why}",
                               value)
            continue
        if g.bankrupt[o]:
            raise fail(f"owner[{c}]", "-1 or a seat still in the game", o)
        if lv and not board.IS_LOT[c]:
            raise fail(f"level[{c}]", "0: the Supermarket takes no buildings", lv)
        if m and lv:
            raise fail(f"level[{c}]", "0 on a pledged lot", lv)
        if m != (pl >= 0) or pl > g.laps[o]:
            raise fail(f"pledge_lap[{c}]", f"the owner's lap when pledged (at most "
                       f"{g.laps[o]}) on a pledged lot, else -1", pl)
        branches += lv >= 1
        enterprises += lv == 2
    if branches > FIGURES.branch_tokens or enterprises > FIGURES.enterprise_tokens:
        raise fail("level", f"at most {FIGURES.branch_tokens} branches and "
                   f"{FIGURES.enterprise_tokens} enterprises", (branches, enterprises))


def _check_phase(g: Game) -> None:
    ph, p, turn = g.phase, g.current_player, g.turn
    over = ph == Phase.GAME_OVER
    schema.check_over(g, over)
    if not over:
        if p == -1 or g.bankrupt[p] or g.bankrupt[turn]:
            raise fail("current_player", "a seat still in the game", (p, turn))
        if g.rules.max_rounds and g.round > g.rules.max_rounds:
            raise fail("round", f"at most {g.rules.max_rounds}", g.round)
    records = {
        "trade": (g.trade, ph in (Phase.TRADE_COMPOSE, Phase.TRADE_ANSWER), None),
        "debt": (g.debt, ph == Phase.RAISE_CASH, None),
        "pending_cell": (g.pending_cell, ph == Phase.BUY, -1),
        "fork": (g.fork, ph == Phase.FORK, -1),
        "picks_left": (g.picks_left, ph == Phase.PICK_COLOUR, 0),
    }
    for name, (value, present, absent) in records.items():
        if (value != absent) != present:
            raise fail(name, f"{'set' if present else repr(absent)} in phase {ph.shown_name}",
                       value)
    if ph in (Phase.PRE_ROLL, Phase.TRADE_COMPOSE, Phase.TRADE_ANSWER) and g.tasks:
        raise fail("tasks", f"empty in phase {ph.shown_name}", g.tasks)
    if ph not in (Phase.GAME_OVER, Phase.TRADE_ANSWER, Phase.RAISE_CASH) and p != turn:
        raise fail("current_player", f"the turn's seat {turn} in phase {ph.shown_name}", p)
    if ph in (Phase.TRADE_COMPOSE, Phase.TRADE_ANSWER):
        t = g.trade
        if t.target == turn or g.bankrupt[t.target] or (
                ph == Phase.TRADE_ANSWER and (p != t.target or t.is_empty())):
            raise fail("trade.target", "another seat still in (current_player when answering)",
                       t.target)
        if g.trades_made < 1:
            raise fail("trades_made", "at least 1 while a proposal is open", g.trades_made)
        for side, seat, cells in (("give", turn, t.give), ("take", t.target, t.take)):
            if len(set(cells)) != len(cells) or any(
                    not board.IS_OWNABLE[c] or g.owner[c] != seat or g.mortgaged[c] or g.level[c]
                    for c in cells):
                raise fail(f"trade.{side}", f"distinct bare unpledged lots of seat {seat}", cells)
    elif ph == Phase.BUY:
        if not board.IS_OWNABLE[g.pending_cell] or g.owner[g.pending_cell] != BANK:
            raise fail("pending_cell", "an unowned lot or the Supermarket", g.pending_cell)
    elif ph == Phase.RAISE_CASH:
        owed = sum(g.debt[3::2])
        if g.debt[1] != p or g.cash[p] >= owed or g.liquidation_value(p) < owed:
            raise fail("debt", f"a debt of current_player {p} above their cash and within what "
                       "they can raise", g.debt)
    elif ph == Phase.EXCHANGE_CARD and not g.hands[p]:
        raise fail("phase", "not EXCHANGE_CARD with an empty hand", ph.name)
