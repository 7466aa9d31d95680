"""The game's state, declared once.

``STATE`` lists every field of a ``Game`` in save order, each with its kind: how ``Game.clone``
copies it, how ``Game.to_json`` writes it and how ``Game.from_json`` reads it back and checks
it. A field added to the game is added here, and clone, save and load all know it.

Reading checks each field on its own (type, length, range), then the whole game for what only
holds between fields (a bankrupt seat holds nothing, an auction phase has an auction, buildings
stand only on whole unmortgaged groups, the decks and bail cards hold each card once, ...).
Anything wrong raises ``GameStateError`` naming the field and what is allowed; nothing else
escapes, and no game is returned until the whole save has passed.

The field kinds and the saved game's machinery (header, field-by-field reading) are the ones
both games share, from ``schema``; what is Byapar's own (the auction and offer records, its
tasks, the whole-game check) is here. The values the fields hold (``Phase``, ``Auction``, the
task codes) are declared here too. This module never makes a game: the callers hand
it a blank one to fill, so that it sits below ``game.py``, which imports it (``Game.clone``,
``to_json``, ``from_json``), and ``serialize.py`` sits above both.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import IntEnum
from typing import TYPE_CHECKING, Any

from ..core.schema import (  # noqa: F401 (BANK and the task codes: read from here too)
    BANK,
    T_DEBT,
    T_END_TURN,
    T_LAND,
    T_MOVE,
    Bool,
    DecksKind,
    Field,
    Int,
    Kind,
    Maybe,
    OneOf,
    PhaseKind,
    SaveFormat,
    Seq,
    TaskKind,
    check_deck,
    check_dice,
    check_over,
    clone_copies,
    closing_fields,
    expect,
    fail,
    last_seat,
    opening_fields,
    per_seat,
    record,
)
from . import board
from .actions import Action, ActionKind
from .board import FIGURES
from .rules import Rules

if TYPE_CHECKING:  # the game is read and written here, never made: game.py imports this module
    from .game import Game

# The bounds below come from the board's data and rule figures, never typed again here.
_DECK_SIZE = {d: len(board.CARDS[d]) for d in board.DECKS}
_GROUP = board.GROUP_OF
_IS_PLACE = board.IS_PLACE
_BAIL_CARD = board.BAIL_CARD

# ------------------------------------------------------------------------- the values it holds
# Declared here, beside the fields they fill; game.py imports them (and exports them as before).


class Phase(IntEnum):
    """What kind of decision the game is waiting for."""

    PRE_ROLL = 0  # the turn's player: build, sell, mortgage, pay off, trade, leave jail, roll
    BUY = 1  # the turn's player: buy the unowned place landed on, or not
    AUCTION = 2  # the bidder whose turn it is: bid or drop out
    TRADE_ANSWER = 3  # the player offered a trade: accept or decline
    RAISE_CASH = 4  # a player owing more than their cash: sell buildings, mortgage
    GAME_OVER = 5


# The turn's task codes are the schema's: T_END_TURN, T_MOVE (steps forward, the salary on
# reaching or passing Start), T_LAND (the square stood on) and T_DEBT.


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


class ByaparTaskKind(TaskKind):
    """A task of the turn's stack: (end turn), (move, steps), (land) or (debt, debtor,
    creditor, amount, ...) with creditor -1 for the bank."""

    allowed = (f"[0] (end the turn), [1, steps 1-{board.NUM_SQUARES}] (move), [2] (land) or "
               "[3, debtor, creditor, amount, ...] (a debt; creditor -1 is the bank)")

    def other_ok(self, raw: list) -> bool:
        code = raw[0]
        if code in (T_END_TURN, T_LAND):
            return len(raw) == 1
        if code == T_MOVE:
            return len(raw) == 2 and 1 <= raw[1] <= board.NUM_SQUARES
        return False


_AUCTION_KEYS = ("square", "bidders", "high", "holder", "idx")


class AuctionKind(Kind):
    copies = True
    plain = False

    def copy(self, value: Auction) -> Auction:
        return value.copy()

    def dump(self, value: Auction) -> dict:
        return value.to_dict()

    def load(self, raw: Any, where: str, game: Game) -> Auction:
        raw = record(raw, where, _AUCTION_KEYS)
        square = Int(0, board.NUM_SQUARES - 1).load(raw["square"], f"{where}.square", game)
        if not _IS_PLACE[square]:
            raise fail(f"{where}.square", "a place (a city, transport or utility)", square)
        bidders = Seq(Int(0, last_seat), min_length=1).load(
            raw["bidders"], f"{where}.bidders", game)
        if len(set(bidders)) != len(bidders):
            raise fail(f"{where}.bidders", "distinct seats", bidders)
        high = Int(0, step=board.BID_STEP).load(raw["high"], f"{where}.high", game)
        holder = Int(-1, last_seat).load(raw["holder"], f"{where}.holder", game)
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
        raw = record(raw, where, _OFFER_KEYS)
        seat = Int(0, last_seat).load(raw["seat"], f"{where}.seat", game)
        target = Int(0, last_seat).load(raw["target"], f"{where}.target", game)
        places = Seq(Int(0, board.NUM_SQUARES - 1), as_tuple=True)
        give = places.load(raw["give"], f"{where}.give", game)
        take = places.load(raw["take"], f"{where}.take", game)
        amount = Int(step=FIGURES.trade_money_step).load(raw["amount"], f"{where}.amount", game)
        return seat, Action(ActionKind.OFFER_TRADE, -1, amount, target, give, take)


def _per_square(item: Kind) -> Seq:
    return Seq(item, board.NUM_SQUARES)


_SEAT = Int(0, last_seat)

# The game's state in save order. ``rules`` comes first: the other fields' bounds need it.
STATE: tuple[Field, ...] = (
    *opening_fields(Rules),
    Field("position", per_seat(Int(0, board.NUM_SQUARES - 1))),
    Field("in_jail", per_seat(Bool())),
    Field("jail_misses", per_seat(Int(0, board.JAIL_MAX_MISSES - 1))),
    Field("bail_cards", per_seat(Seq(OneOf(board.DECKS)))),
    Field("bankrupt", per_seat(Bool())),
    Field("owner", _per_square(Int(BANK, last_seat))),
    Field("buildings", _per_square(Int(0, board.HOTEL))),
    Field("mortgaged", _per_square(Bool())),
    Field("decks", DecksKind(_DECK_SIZE)),
    Field("turn", _SEAT),
    Field("round", Int(1, lambda g: g.rules.round_limit)),
    Field("turn_count", Int(1)),
    Field("doubles", Int(0, FIGURES.doubles_to_jail - 1)),  # one more is jail, and the count resets
    Field("roll_again", Bool()),
    Field("dice", Seq(Int(0, FIGURES.dice_sides), 2, as_tuple=True)),
    Field("offers_made", Int(0, FIGURES.max_offers_per_turn)),
    Field("phase", PhaseKind(Phase)),
    Field("current_player", Int(-1, last_seat)),
    Field("tasks", Seq(ByaparTaskKind())),
    Field("pending_square", Int(-1, board.NUM_SQUARES - 1)),
    Field("auction", Maybe(AuctionKind())),
    Field("offer", Maybe(OfferKind())),
    Field("debt", Maybe(ByaparTaskKind(debt_only=True))),
    *closing_fields(FIGURES.dice_sides),
)
# What clone copies (the mutable fields); everything else is shared, being immutable.
CLONE_COPIES: tuple[tuple[str, Callable[[Any], Any]], ...] = clone_copies(STATE)

# ------------------------------------------------------------------------------ the saved game
# A save is the fields above after a header naming the format, its version and the board.
FORMAT = "byapar-game"
VERSION = 1
SAVE = SaveFormat("Byapar", FORMAT, VERSION, board.BOARD_HASH, STATE,
                  lambda g: check_whole(g))
SAVED = SAVE.saved
state_to_dict = SAVE.state_to_dict  # the saved fields of a game as JSON-ready values
state_from_dict = SAVE.state_from_dict
save_dict = SAVE.save_dict  # the whole game as JSON-ready values, header first
save_json = SAVE.save_json
load_dict = SAVE.load_dict  # a blank Game.__new__(Game) filled from save_dict values
load_json = SAVE.load_json


# ------------------------------------------------------------------------- the whole-game check
def check_whole(g: Game) -> None:
    """What holds between fields in every game the engine plays; GameStateError if not."""
    n = g.num_players
    seats = range(n)
    for s in seats:
        if g.bankrupt[s]:
            # Going bankrupt hands over the cash and bail cards and ends any time in jail.
            expect(((f"cash[{s}]", g.cash[s], 0), (f"bail_cards[{s}]", g.bail_cards[s], []),
                    (f"in_jail[{s}]", g.in_jail[s], False)), " for a bankrupt seat")
        if g.in_jail[s] and g.position[s] != board.JAIL_SQUARE:
            raise fail(f"position[{s}]", f"the jail ({board.JAIL_SQUARE}) for a seat in jail",
                       g.position[s])
        if g.jail_misses[s] and not g.in_jail[s]:
            raise fail(f"jail_misses[{s}]", "0 for a seat out of jail", g.jail_misses[s])
    _check_squares(g)
    _check_decks(g)
    check_dice(g.dice)
    _check_phase(g)


def _check_squares(g: Game) -> None:
    for sq in range(board.NUM_SQUARES):
        o, b, m = g.owner[sq], g.buildings[sq], g.mortgaged[sq]
        name = board.SQUARES[sq].name
        if not _IS_PLACE[sq]:
            expect(((f"owner[{sq}]", o, BANK), (f"buildings[{sq}]", b, 0),
                    (f"mortgaged[{sq}]", m, False)), f": {name} is not a place")
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
    for deck in board.DECKS:
        held = sum(cards.count(deck) for cards in g.bail_cards)
        bail = _BAIL_CARD[deck]
        check_deck(deck, g.decks[deck], _DECK_SIZE[deck], held, bail,
                   f"card {bail} (the bail card) while a seat holds it ({held} held)")


def _check_phase(g: Game) -> None:
    ph, p, turn = g.phase, g.current_player, g.turn
    over = ph == Phase.GAME_OVER
    check_over(g, over)
    if not over:
        if p == -1 or g.bankrupt[p]:
            raise fail("current_player", "a seat still in the game", p)
        if g.bankrupt[turn]:
            raise fail("turn", "a seat still in the game", turn)
    # The phase's own record is there, and no other phase's.
    records = {"auction": ph == Phase.AUCTION, "offer": ph == Phase.TRADE_ANSWER,
               "debt": ph == Phase.RAISE_CASH}
    for name, present in records.items():
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
        if g.cash[p] < a.high + board.BID_STEP:
            raise fail(f"cash[{p}]", f"at least {a.high + board.BID_STEP} for the bidder asked",
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
