"""The Byapar state machine: one pending decision at a time, never calling the players.

A turn runs as a small stack of tasks (end the turn, move, deal with the square, settle a debt).
The engine works through the stack until some player has a choice to make, and stops there;
``apply`` takes that choice and carries on. Every die and card comes from the game's own seeded
generator, and tests force them with ``force_dice`` and ``stack_deck``.
"""

from __future__ import annotations

from ..core.errors import IllegalActionError, UnbalancedMoneyError, show
from ..core.members import member_lookup
from ..core.table import TableGame
from . import actions, board
from .actions import Action, ActionKind
from .board import FIGURES
from .rules import Rules
from .state import (
    BANK,
    CLONE_COPIES,
    SAVE,
    T_DEBT,
    T_END_TURN,
    T_LAND,
    T_MOVE,
    Auction,
    Phase,
)

K = member_lookup(ActionKind)  # the same members, looked up faster
_P = member_lookup(Phase)
# Every figure of the rules is read from board.FIGURES, the one place they are written
# (and covered by the board hash); the names below bind them once for the hot paths.
MAX_OFFERS_PER_TURN = FIGURES.max_offers_per_turn
_DICE_SIDES = FIGURES.dice_sides
_DOUBLES_TO_JAIL = FIGURES.doubles_to_jail
_GROUP_RENT = FIGURES.whole_group_rent_multiplier
_TRADE_MONEY_STEP = FIGURES.trade_money_step
_SHARE_STEP = FIGURES.bankruptcy_share_step
_PROPERTY_KINDS = (K.BUILD, K.SELL_BUILDING, K.MORTGAGE, K.UNMORTGAGE)


# Per-square lookups derived from the board data once, for the hot paths.
_KIND = tuple(s.kind for s in board.SQUARES)
_PRICE = tuple(s.price for s in board.SQUARES)
_HOUSE_COST = tuple(s.house_cost for s in board.SQUARES)
_GROUP = board.GROUP_OF
_MORTGAGE_VALUE = tuple(p * FIGURES.mortgage_value_percent // 100 for p in _PRICE)
# Paying off: mortgage value plus the interest (10%), rounded up to the next multiple of the
# payoff rounding (Rs 10), in exact integers.
_PAYOFF = tuple(
    -(-v * (100 + FIGURES.mortgage_interest_percent) // (100 * FIGURES.payoff_rounding))
    * FIGURES.payoff_rounding
    for v in _MORTGAGE_VALUE
)
# What the bank pays for one building sold back (half its cost); liquidation and bankruptcy
# count each building at this.
_HOUSE_SALE = tuple(c * FIGURES.building_sale_percent // 100 for c in _HOUSE_COST)
_IS_PLACE = board.IS_PLACE
_BAIL_CARD = board.BAIL_CARD


def mortgage_value(square: int) -> int:
    """What the bank pays for mortgaging ``square``."""
    return _MORTGAGE_VALUE[square]


def place_worth(square: int, buildings: int, mortgaged: bool) -> int:
    """What a held place counts for in net worth: its price (half if mortgaged) plus its
    buildings at cost."""
    return (_MORTGAGE_VALUE[square] if mortgaged else _PRICE[square]) + buildings * _HOUSE_COST[
        square]


def payoff_cost(square: int) -> int:
    """What paying off the mortgage on ``square`` costs."""
    return _PAYOFF[square]


def _money(amount: int) -> str:
    return f"Rs {amount:,}"


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
             "ninth", "tenth")


def _ordinal(n: int) -> str:
    """``3`` -> ``"third"``: log lines name a count figure of the rules in words."""
    return _ORDINALS[n - 1] if 1 <= n <= len(_ORDINALS) else f"{n}th"


class Game(TableGame):
    """One game of Byapar. Seats are numbered 0 to ``num_players - 1`` in turn order.

    Public state (read it freely; scenario tests also set it up directly):
    ``cash``, ``position``, ``in_jail``, ``jail_misses``, ``bail_cards`` (deck names),
    ``bankrupt`` per seat; ``owner`` (-1 for the bank), ``buildings`` (0-4 houses, 5 a hotel),
    ``mortgaged`` per square; ``decks`` (card numbers, top first); ``turn``, ``round``,
    ``phase``, ``current_player``, ``log``. Every field is declared once, with its type and
    range, in ``state.STATE``, which ``to_json``, ``from_json`` and ``clone`` follow
    (``table.TableGame``, shared with the other games on this design).
    """

    SAVE = SAVE
    CLONE_COPIES = CLONE_COPIES
    RULES = Rules
    RULES_NAME = "a Rules value"
    ACTION = Action
    PRE_ROLL = Phase.PRE_ROLL
    GAME_OVER = Phase.GAME_OVER
    RAISE_PHASE = Phase.RAISE_CASH
    RAISE_WORD = "cash"
    DICE_SIDES = _DICE_SIDES
    money = staticmethod(_money)
    CARDS = board.CARDS
    KEPT = "bail_cards"
    KEPT_EFFECT = "bail"
    KEPT_CARD = _BAIL_CARD

    def __init__(self, rules: Rules | None = None, seed: int | None = None) -> None:
        rules = self._seat_table(rules, seed)
        n = rules.num_players
        self.cash = [rules.starting_cash] * n
        self.position = [0] * n
        self.in_jail = [False] * n
        self.jail_misses = [0] * n
        self.bail_cards: list[list[str]] = [[] for _ in range(n)]
        self.bankrupt = [False] * n
        self.owner = [-1] * board.NUM_SQUARES
        self.buildings = [0] * board.NUM_SQUARES
        self.mortgaged = [False] * board.NUM_SQUARES
        self.decks: dict[str, list[int]] = {}
        for d in board.DECKS:
            cards = [c.number for c in board.CARDS[d]]
            self.rng.shuffle(cards)
            self.decks[d] = cards
        self.turn = 0
        self.round = 1
        self.turn_count = 1
        self.doubles = 0
        self.roll_again = False
        self.dice = (0, 0)
        self.offers_made = 0
        self.phase = _P.PRE_ROLL
        self.current_player = 0
        self.tasks: list[tuple[int, ...]] = []
        self.pending_square = -1
        self.auction: Auction | None = None
        self.offer: tuple[int, Action] | None = None  # (offering seat, the offer)
        self.debt: tuple[int, ...] | None = None  # the T_DEBT task being raised for
        self.winners: list[int] = []
        self.forced_dice: list[tuple[int, int]] = []
        self.log: list[str] = [f"Round 1: seat 0 to play ({n} players)"]
        self.bank_paid = 0  # money the bank has paid out (salary, cards, sales, mortgages)
        self.bank_received = 0  # money paid to the bank (prices, taxes, fines, bids, payoffs)
        self.version = 0  # counts applied actions, so callers can cache what they derive

    # ------------------------------------------------------------------ queries
    def places_of(self, seat: int) -> list[int]:
        return [sq for sq in board.PLACES if self.owner[sq] == seat]

    def check_loaded(self) -> None:
        """``UnbalancedMoneyError`` (a ``GameStateError``) unless the seats' cash is what play
        can make of it: every seat's starting cash, plus what the bank paid out (salary, cards,
        mortgages, sales), less what it received (prices, rents to the bank, taxes, bids).
        Trades and rents move money between seats and change neither side. Every loader of a
        saved game checks it (``from_json``, ``serialize``, the environment's ``load_state``)."""
        expected = self.num_players * self.rules.starting_cash + self.bank_paid - self.bank_received
        held = sum(self.cash)
        if held != expected:
            raise UnbalancedMoneyError(
                f"saved game's money does not add up: the seats hold Rs {held:,}, but "
                f"{self.num_players} x Rs {self.rules.starting_cash:,} to start, plus Rs "
                f"{self.bank_paid:,} the bank paid out, less Rs {self.bank_received:,} it "
                f"received, is Rs {expected:,}")

    def net_worth(self, seat: int) -> int:
        """Cash + places at price (half if mortgaged) + buildings at cost; 0 once bankrupt."""
        if self.bankrupt[seat]:
            return 0
        total = self.cash[seat]
        for sq in board.PLACES:
            if self.owner[sq] == seat:
                total += place_worth(sq, self.buildings[sq], self.mortgaged[sq])
        return total

    def owns_group(self, seat: int, square: int) -> bool:
        """Whether ``seat`` owns every place of the colour group of city ``square``."""
        group = _GROUP[square]
        return group is not None and all(self.owner[s] == seat for s in group)

    def rent(self, square: int, dice_total: int | None = None) -> int:
        """The rent a visitor would owe on ``square`` now (0 when unowned or mortgaged)."""
        o = self.owner[square]
        if o < 0 or self.mortgaged[square]:
            return 0
        kind = _KIND[square]
        if kind == board.CITY:
            rents = board.SQUARES[square].rents
            b = self.buildings[square]
            if b:
                return rents[b]
            return rents[0] * _GROUP_RENT if self.owns_group(o, square) else rents[0]
        if kind == board.TRANSPORT:
            held = sum(1 for s in board.TRANSPORTS if self.owner[s] == o)
            return board.TRANSPORT_RENT[held]
        held = sum(1 for s in board.UTILITIES if self.owner[s] == o)
        total = sum(self.dice) if dice_total is None else dice_total
        return board.UTILITY_MULTIPLIER[held] * total

    def liquidation_value(self, seat: int) -> int:
        """Cash the seat could hold after selling every building and mortgaging every place."""
        total = self.cash[seat]
        for sq in board.PLACES:
            if self.owner[sq] == seat:
                total += self.buildings[sq] * _HOUSE_SALE[sq]
                if not self.mortgaged[sq]:
                    total += _MORTGAGE_VALUE[sq]
        return total

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[Action]:
        """Every legal action of ``current_player`` now, except trade offers and, with very
        large cash, some bids.

        Trade offers are open-ended (any mix of places and money); ``can_offer_trade`` tells
        whether one may be made now and ``is_legal`` or ``trade_error`` checks a given offer.
        The list is never empty while the game is not over.

        In an auction the list is ``DROP_OUT`` then bids in increasing order: every multiple of
        the bid step from the lowest legal bid, 1,000 of them (``actions.BIDS_LISTED_EACH``,
        Rs 100,000 of bids), which is every legal bid in any game with normal money; beyond
        that, at most 24 more (``actions.BIDS_LISTED_ABOVE``) spaced up to the bidder's cash,
        the last being all of it rounded down to the bid step. So the list stays short at any
        cash (a starting cash of 10^12 is allowed). ``is_legal`` and ``apply`` take every bid
        that is a multiple of the step from the lowest legal bid up to the bidder's cash,
        listed or not.
        """
        ph = self.phase
        p = self.current_player
        if ph == _P.PRE_ROLL:
            acts = [actions.ROLL]
            if self.in_jail[p]:
                if self.cash[p] >= board.JAIL_FINE:
                    acts.append(actions.PAY_FINE)
                if self.bail_cards[p]:
                    acts.append(actions.USE_BAIL_CARD)
            self._property_actions(p, True, acts)
            return acts
        if ph == _P.BUY:
            return [actions.buy(self.pending_square), actions.decline(self.pending_square)]
        if ph == _P.AUCTION:
            a = self.auction
            acts = [actions.DROP_OUT]
            acts.extend(actions.bids(a.square, a.high + board.BID_STEP, self.cash[p]))
            return acts
        if ph == _P.TRADE_ANSWER:
            return [actions.ACCEPT_TRADE, actions.REJECT_TRADE]
        if ph == _P.RAISE_CASH:
            acts = []
            self._property_actions(p, False, acts)
            return acts
        return []

    def _property_actions(self, p: int, pre_roll: bool, acts: list[Action],
                          squares: tuple[int, ...] = board.PLACES) -> None:
        """Append the builds, sales, mortgages and pay-offs open to ``p`` on ``squares``."""
        owner = self.owner
        blds = self.buildings
        mort = self.mortgaged
        cash = self.cash[p]
        for sq in squares:
            if owner[sq] != p:
                continue
            if mort[sq]:
                if pre_roll and cash >= _PAYOFF[sq]:
                    acts.append(actions._UNMORTGAGE[sq])
                continue
            group = _GROUP[sq]
            if group is None:
                acts.append(actions._MORTGAGE[sq])
                continue
            b = blds[sq]
            top = low = b
            whole = True
            for s in group:
                h = blds[s]
                if h > top:
                    top = h
                elif h < low:
                    low = h
                if owner[s] != p or mort[s]:
                    whole = False
            if top == 0:
                acts.append(actions._MORTGAGE[sq])
            elif b == top:
                acts.append(actions._SELL[sq])
            if pre_roll and whole and b < board.HOTEL and b == low and cash >= _HOUSE_COST[sq]:
                acts.append(actions._BUILD[sq])

    def can_offer_trade(self) -> bool:
        """Whether the current player may make a trade offer now (to someone)."""
        return (
            self.phase == _P.PRE_ROLL
            and self.offers_made < MAX_OFFERS_PER_TURN
            and sum(1 for b in self.bankrupt if not b) > 1
        )

    def trade_error(self, offer: Action) -> str | None:
        """Why ``offer`` may not be made now, or None when it may."""
        if self.phase != _P.PRE_ROLL:
            return f"trade offers are made before rolling, and the game is in {self.phase.name}"
        p = self.turn
        sq = offer.square
        if type(sq) is not int or sq != -1:
            return f"field 'square' is not used by a trade offer and must be -1, got {show(sq)}"
        if self.offers_made >= MAX_OFFERS_PER_TURN:
            return f"at most {MAX_OFFERS_PER_TURN} trade offers a turn, and {self.offers_made} made"
        t = offer.target
        if type(t) is not int or not 0 <= t < self.num_players or t == p or self.bankrupt[t]:
            others = [s for s in self.active_seats() if s != p]
            return (f"the other player (field 'target') must be a seat still in the game other "
                    f"than {p}: {others}, got {show(t)}")
        give, take = offer.give, offer.take
        for side, squares in (("give", give), ("take", take)):
            if type(squares) is not tuple or any(type(sq) is not int for sq in squares):
                return (f"field {side!r} must be a tuple of square numbers (ints), "
                        f"got {show(squares)}")
        if not give and not take:
            return "a trade must include at least one place"
        for side, seat, squares in (("give", p, give), ("take", t, take)):
            if len(set(squares)) != len(squares):
                return f"{side} names a place twice: {show(squares)}"
            for sq in squares:
                if not 0 <= sq < board.NUM_SQUARES or not _IS_PLACE[sq]:
                    return f"{side} names {show(sq)}, which is not a place"
                if self.owner[sq] != seat:
                    return f"{side} names {board.SQUARES[sq].name}, which seat {seat} does not own"
                group = _GROUP[sq]
                if group and any(self.buildings[s] for s in group):
                    return (f"{board.SQUARES[sq].name} cannot change hands while its colour group "
                            "has buildings")
        amount = offer.amount
        if type(amount) is not int or amount % _TRADE_MONEY_STEP:
            return (f"trade money (field 'amount') must be a whole multiple of "
                    f"Rs {_TRADE_MONEY_STEP} (an int), got {show(amount)}")
        payer = p if amount > 0 else t
        if abs(amount) > self.cash[payer]:
            return (f"seat {payer} would pay {_money(abs(amount))} but holds "
                    f"{_money(self.cash[payer])}")
        return None

    def _illegal_reason(self, action: object) -> str | None:
        if not isinstance(action, Action):
            return f"expected an Action, got {type(action).__name__}"
        ph = self.phase
        if ph == _P.GAME_OVER:
            return "the game is over"
        # Types and stray fields first, so that the checks below compare plain ints only (a
        # float square equals an int one in a tuple comparison, then fails as an index).
        malformed = actions.field_error(action)
        if malformed is not None:
            return malformed
        k = action.kind
        if k == K.OFFER_TRADE:
            return self.trade_error(action)
        if k == K.BID and ph == _P.AUCTION:
            # Any bid in range is legal, listed or not: legal_actions lists a bounded subset.
            a = self.auction
            amt = action.amount
            if action.square != a.square:
                return f"the auction is for {board.SQUARES[a.square].name}"
            low = a.high + board.BID_STEP
            if amt % board.BID_STEP or amt < low:
                return f"a bid must be a multiple of {board.BID_STEP} from {low:,} up"
            if amt > self.cash[self.current_player]:
                return f"a bid may not exceed the bidder's cash, {self.cash[self.current_player]:,}"
            return None
        if k == K.BID:
            return "bids are made in an auction only"
        if k == K.ROLL and ph == _P.PRE_ROLL and action.square == -1:
            return None
        # Cheap checks for the fixed choices, the same rules as legal_actions.
        if k == K.BUY or k == K.DECLINE:
            ok = ph == _P.BUY and action.square == self.pending_square
            return None if ok else "it is not among the legal actions"
        if k == K.ACCEPT_TRADE or k == K.REJECT_TRADE or k == K.DROP_OUT:
            ok = action.square == -1 and ph == (_P.AUCTION if k == K.DROP_OUT
                                                else _P.TRADE_ANSWER)
            return None if ok else "it is not among the legal actions"
        sq = action.square
        if (k in _PROPERTY_KINDS and (ph == _P.PRE_ROLL or ph == _P.RAISE_CASH)
                and type(sq) is int and 0 <= sq < board.NUM_SQUARES):
            # Only this square's actions need listing: the same rule as legal_actions, cheaper.
            acts: list[Action] = []
            self._property_actions(self.current_player, ph == _P.PRE_ROLL, acts, (sq,))
            return None if action in acts else "it is not among the legal actions"
        if action in self.legal_actions():
            return None
        return "it is not among the legal actions"

    # ------------------------------------------------------------------ applying actions
    def apply(self, action: Action) -> None:
        """Take ``action`` for ``current_player``; raise IllegalActionError, changing nothing."""
        reason = self._illegal_reason(action)
        if reason is not None:
            raise IllegalActionError(self._illegal_message(action, reason))
        self.apply_legal(action)

    def apply_legal(self, action: Action) -> None:
        """Take ``action``, already known to be legal (one of ``legal_actions()``, or passed by
        ``is_legal`` or ``trade_error``), without checking it again: search's inner loop
        (``byapar_env.fast_play``). An illegal action here leaves the game inconsistent."""
        self.version += 1
        k = action.kind
        p = self.current_player
        if k == K.ROLL:
            self._do_roll(p)
        elif k == K.BUILD:
            sq = action.square
            self._pay_bank(p, _HOUSE_COST[sq])
            self.buildings[sq] += 1
            what = "a hotel" if self.buildings[sq] == board.HOTEL else f"house {self.buildings[sq]}"
            self.log.append(f"seat {p} builds {what} on {board.SQUARES[sq].name}")
        elif k == K.SELL_BUILDING:
            sq = action.square
            self.buildings[sq] -= 1
            self._bank_pays(p, _HOUSE_SALE[sq])
            self.log.append(f"seat {p} sells a building on {board.SQUARES[sq].name}")
            self._after_raise(p)
        elif k == K.MORTGAGE:
            sq = action.square
            self.mortgaged[sq] = True
            self._bank_pays(p, _MORTGAGE_VALUE[sq])
            self.log.append(f"seat {p} mortgages {board.SQUARES[sq].name}")
            self._after_raise(p)
        elif k == K.UNMORTGAGE:
            sq = action.square
            self._pay_bank(p, _PAYOFF[sq])
            self.mortgaged[sq] = False
            self.log.append(f"seat {p} pays off the mortgage on {board.SQUARES[sq].name}")
        elif k == K.PAY_FINE:
            self._pay_bank(p, board.JAIL_FINE)
            self._leave_jail(p, "pays the fine")
        elif k == K.USE_BAIL_CARD:
            self._use_kept(p)
            self._leave_jail(p, "uses a bail card")
        elif k == K.OFFER_TRADE:
            self.offers_made += 1
            self.offer = (p, action)
            self.phase = _P.TRADE_ANSWER
            self.current_player = action.target
            self.log.append(f"seat {p} offers seat {action.target}: {self._trade_text(action)}")
        elif k == K.ACCEPT_TRADE or k == K.REJECT_TRADE:
            self._answer_trade(k == K.ACCEPT_TRADE)
        elif k == K.BUY:
            sq = self.pending_square
            self._pay_bank(p, _PRICE[sq])
            self.owner[sq] = p
            self.pending_square = -1
            self.log.append(f"seat {p} buys {board.SQUARES[sq].name} for {_money(_PRICE[sq])}")
            self._run()
        elif k == K.DECLINE:
            sq = self.pending_square
            self.pending_square = -1
            self.log.append(f"seat {p} does not buy {board.SQUARES[sq].name}")
            if not self._start_auction(sq):
                self._run()
        elif k == K.BID:
            a = self.auction
            a.high = action.amount
            a.holder = p
            a.idx += 1
            self.log.append(f"seat {p} bids {action.amount:,} on {board.SQUARES[a.square].name}")
            if not self._advance_auction():
                self._run()
        elif k == K.DROP_OUT:
            a = self.auction
            a.bidders.pop(a.idx)
            self.log.append(f"seat {p} drops out of the auction")
            if not self._advance_auction():
                self._run()

    def _also_legal(self) -> str:
        return ", or a trade offer" if self.can_offer_trade() else ""

    # ------------------------------------------------------------------ the turn
    def _do_roll(self, p: int) -> None:
        d1, d2 = self._roll()
        self.dice = (d1, d2)
        total = d1 + d2
        double = d1 == d2
        self.log.append(f"seat {p} rolls {d1}+{d2}" + (" (double)" if double else ""))
        tasks = [(T_END_TURN,)]
        self.roll_again = False
        if self.in_jail[p]:
            if double:
                self._leave_jail(p, "rolls a double and leaves jail")
                tasks.append((T_MOVE, total))
            else:
                self.jail_misses[p] += 1
                if self.jail_misses[p] >= board.JAIL_MAX_MISSES:
                    self._leave_jail(p, f"misses a {_ordinal(board.JAIL_MAX_MISSES)} time, "
                                        "must pay the fine and leaves jail")
                    tasks.append((T_MOVE, total))
                    tasks.append((T_DEBT, p, BANK, board.JAIL_FINE))
                else:
                    self.log.append(f"seat {p} stays in jail (miss {self.jail_misses[p]})")
        elif double:
            self.doubles += 1
            if self.doubles >= _DOUBLES_TO_JAIL:
                self.log.append(f"seat {p} rolls a {_ordinal(_DOUBLES_TO_JAIL)} double in a row")
                self._go_to_jail(p)
                tasks = self.tasks
            else:
                self.roll_again = True
                tasks.append((T_MOVE, total))
        else:
            tasks.append((T_MOVE, total))
        self.tasks = tasks
        self._run()

    def _leave_jail(self, p: int, how: str) -> None:
        self.in_jail[p] = False
        self.jail_misses[p] = 0
        self.log.append(f"seat {p} {how}")

    def _go_to_jail(self, p: int) -> None:
        self.position[p] = board.JAIL_SQUARE
        self.in_jail[p] = True
        self.jail_misses[p] = 0
        self.roll_again = False
        self.tasks = [(T_END_TURN,)]  # going to jail ends the turn
        self.log.append(f"seat {p} goes to jail")

    def _move(self, steps: int) -> None:
        p = self.turn
        new = self.position[p] + steps
        if new >= board.NUM_SQUARES:
            new -= board.NUM_SQUARES
            self._bank_pays(p, board.SALARY)
            self.log.append(f"seat {p} collects the salary, {_money(board.SALARY)}")
        self.position[p] = new
        self.log.append(f"seat {p} moves to {board.SQUARES[new].name}")
        self.tasks.append((T_LAND,))

    def _land(self) -> bool:
        """Deal with the square the turn's player stands on; True when a decision is pending."""
        p = self.turn
        sq = self.position[p]
        kind = _KIND[sq]
        if _IS_PLACE[sq]:
            o = self.owner[sq]
            if o < 0:
                if self.cash[p] >= _PRICE[sq]:
                    self.pending_square = sq
                    self.phase = _P.BUY
                    self.current_player = p
                    return True
                self.log.append(f"seat {p} cannot afford {board.SQUARES[sq].name}")
                return self._start_auction(sq)
            if o == p:
                return False
            if self.mortgaged[sq]:
                self.log.append(f"{board.SQUARES[sq].name} is mortgaged: no rent")
                return False
            self.tasks.append((T_DEBT, p, o, self.rent(sq)))
        elif kind == board.TAX:
            self.tasks.append((T_DEBT, p, BANK, board.SQUARES[sq].tax))
        elif kind == board.CARD:
            self._draw(board.SQUARES[sq].deck, p)
        elif kind == board.GO_TO_JAIL:
            self._go_to_jail(p)
        return False

    def _draw(self, deck: str, p: int) -> None:
        card = self._draw_card(deck, p)
        if card is None:  # a bail card, kept
            return
        effect = card.effect
        pos = self.position[p]
        if effect == "advance":
            self.tasks.append((T_MOVE,
                               (card.target - pos) % board.NUM_SQUARES or board.NUM_SQUARES))
        elif effect == "advance_transport":
            steps = min((t - pos) % board.NUM_SQUARES or board.NUM_SQUARES
                        for t in board.TRANSPORTS)
            self.tasks.append((T_MOVE, steps))
        elif effect == "back":
            new = (pos - card.amount) % board.NUM_SQUARES
            self.position[p] = new
            self.log.append(f"seat {p} moves back to {board.SQUARES[new].name}")
            self.tasks.append((T_LAND,))
        elif effect == "jail":
            self._go_to_jail(p)
        elif effect == "collect":
            self._bank_pays(p, card.amount)
        elif effect == "pay":
            self.tasks.append((T_DEBT, p, BANK, card.amount))
        elif effect == "repairs":
            houses = hotels = 0
            for sq in board.CITIES:
                if self.owner[sq] == p:
                    b = self.buildings[sq]
                    if b == board.HOTEL:
                        hotels += 1
                    else:
                        houses += b
            amount = houses * card.amount + hotels * card.per_hotel
            if amount:
                self.tasks.append((T_DEBT, p, BANK, amount))
        elif effect == "pay_each":
            debt: tuple[int, ...] = (T_DEBT, p)
            for s in self._others_in_order(p):
                debt += (s, card.amount)
            self.tasks.append(debt)
        elif effect == "collect_each":
            # The stack runs last-pushed first: push so that the next seat after p pays first.
            for s in reversed(self._others_in_order(p)):
                self.tasks.append((T_DEBT, s, p, card.amount))

    def _end_turn(self) -> None:
        p = self.turn
        if self.roll_again and not self.bankrupt[p]:
            self.roll_again = False
            self.offers_made = 0
            self.turn_count += 1
            self.phase = _P.PRE_ROLL
            self.current_player = p
            self.log.append(f"seat {p} rolled a double and plays again")
            return
        self.roll_again = False
        self.doubles = 0
        nxt, wrapped = self._next_seat(p)
        if wrapped:
            self.round += 1
            if self.round > self.rules.round_limit:
                self.round = self.rules.round_limit
                self._finish_by_net_worth()
                return
            self.log.append(f"Round {self.round}")
        self.turn = nxt
        self.turn_count += 1
        self.offers_made = 0
        self.phase = _P.PRE_ROLL
        self.current_player = nxt

    # ------------------------------------------------------------------ auctions
    def _start_auction(self, sq: int) -> bool:
        """Open the auction for ``sq``; True when a bidder must decide."""
        if not self.rules.auctions:
            self.log.append(f"{board.SQUARES[sq].name} stays with the bank")
            return False
        p = self.turn
        order = self._others_in_order(p) + [p]
        self.auction = Auction(sq, order)
        self.log.append(f"auction of {board.SQUARES[sq].name}")
        return self._advance_auction()

    def _advance_auction(self) -> bool:
        """Find the next bidder (dropping those who cannot beat the bid) or close the auction."""
        a = self.auction
        bidders = a.bidders
        while True:
            if not bidders:
                self.log.append(f"nobody bids: {board.SQUARES[a.square].name} stays with the bank")
                break
            if len(bidders) == 1 and bidders[0] == a.holder:
                w = a.holder
                self._pay_bank(w, a.high)
                self.owner[a.square] = w
                self.log.append(f"seat {w} wins {board.SQUARES[a.square].name} "
                                f"for {_money(a.high)}")
                break
            if a.idx >= len(bidders):
                a.idx = 0
            s = bidders[a.idx]
            if s == a.holder:  # unreachable by the rotation, kept as a guard
                a.idx += 1
                continue
            if self.cash[s] < a.high + board.BID_STEP:
                bidders.pop(a.idx)
                self.log.append(f"seat {s} cannot beat {a.high:,} and drops out")
                continue
            self.phase = _P.AUCTION
            self.current_player = s
            return True
        self.auction = None
        return False

    # ------------------------------------------------------------------ trades
    def _trade_text(self, offer: Action) -> str:
        text = str(offer)
        return text[text.index(":") + 2:]

    def _answer_trade(self, accept: bool) -> None:
        p, offer = self.offer
        t = offer.target
        if accept:
            for sq in offer.give:
                self.owner[sq] = t
            for sq in offer.take:
                self.owner[sq] = p
            if offer.amount > 0:
                self.cash[p] -= offer.amount
                self.cash[t] += offer.amount
            elif offer.amount < 0:
                self.cash[t] += offer.amount
                self.cash[p] -= offer.amount
            self.log.append(f"seat {t} accepts the trade")
        else:
            self.log.append(f"seat {t} declines the trade")
        self.offer = None
        self.phase = _P.PRE_ROLL
        self.current_player = p

    # ------------------------------------------------------------------ debts and bankruptcy
    def _go_bankrupt(self, debt: tuple[int, ...]) -> None:
        p = debt[1]
        creditors = [debt[i] for i in range(2, len(debt), 2) if debt[i] != BANK]
        for sq in board.CITIES:  # buildings go back to the bank at half price first
            if self.owner[sq] == p and self.buildings[sq]:
                self._bank_pays(p, self.buildings[sq] * _HOUSE_SALE[sq])
                self.buildings[sq] = 0
        places = self.places_of(p)
        cash = self.cash[p]
        self.cash[p] = 0
        if len(creditors) == 1 and len(debt) == 4:
            c = creditors[0]
            self.cash[c] += cash
            for sq in places:
                self.owner[sq] = c
            self.bail_cards[c].extend(self.bail_cards[p])
            to = f"seat {c}"
        else:
            # Owed to the bank, or to several players at once: places return to the bank
            # unmortgaged; the cash is shared equally among player creditors in whole Rs 10 (the
            # share step; the bank keeps what does not divide).
            share = cash // len(creditors) // _SHARE_STEP * _SHARE_STEP if creditors else 0
            for c in creditors:
                self.cash[c] += share
            self.bank_received += cash - share * len(creditors)
            for sq in places:
                self.owner[sq] = BANK
                self.mortgaged[sq] = False
            self._return_kept(p)
            to = "the bank" if not creditors else ", ".join(f"seat {c}" for c in creditors)
        self.bail_cards[p] = []
        self.bankrupt[p] = True
        self.in_jail[p] = False
        self.jail_misses[p] = 0
        self.log.append(f"seat {p} is bankrupt to {to}")
        if p == self.turn:
            self.roll_again = False
            self.tasks = [(T_END_TURN,)]
        left = self.active_seats()
        if len(left) == 1:
            self._finish(left, "everyone else bankrupt")
