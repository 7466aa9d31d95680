"""Ports of players of the monopyly tournament framework (github.com/richard-shepherd/monopyly,
commit 807b67e): a tournament entry and a sample player.

The framework's rules differ from Byapar's where these ports adapt:

- Auctions are sealed bids there (each player names one amount; the highest pays the second
  highest plus one). Here the player bids the least raise while the bid stays at or under the
  amount it would have named, which ends an open auction where the sealed one would.
- Deals there carry hidden cash limits (the proposer's most offered or least wanted, the
  answer's too, settled half way). Here an offer names its money: the proposer offers its own
  limit (the payer's side put on the environment's amounts, rounded in the payer's favour), and
  the answer accepts exactly when the framework would have closed the deal with that money.
  Up to three proposals a turn there and here, before rolling (there: before jail, pay-offs and
  building, the same order here).
- Money is times ten (Byapar's prices, rents and cash are the classic board's times ten); the
  classic colour sets are matched to Byapar's groups in board order (``common.CLASSIC_SET``).
- Raising cash: the framework lets a player mortgage nothing and go bankrupt; Byapar asks for a
  sale, so when the source would stop, the first building sale offered is taken.
"""

from __future__ import annotations

import random

from byapar_env.engine import Action, ActionKind, Game, Phase, actions, board

from ..base import EnginePlayer
from .common import (
    CAPITAL_PAIR,
    CLASSIC_SET,
    GROUP_OF,
    HOUSE_COST,
    PRICE,
    SCALE,
    ask_at_least,
    bid_or_drop,
    forced_sale,
    legal_of,
    pay_at_most,
    rng,
)

NONE = -1


# ----------------------------------------------------------------------------- Huw's set states
def offer_slots(slots: dict[int, tuple[int, int]], game: Game, seat: int):
    """The proposal slots left to ``seat`` this turn (three a turn, the engine's cap), each
    counted in ``slots`` ((turn, used) per seat) as it is yielded."""
    turn = game.turn_count
    stamp, used = slots.get(seat, (-1, 0))
    if stamp != turn:
        used = 0
    while used < 3 and game.can_offer_trade():
        used += 1
        slots[seat] = (turn, used)
        yield used


class SetState:
    """The ownership states of a colour set, as ``SetInfo.State`` of huw20140203.py numbers
    them (lines 30-40)."""

    NONE_OWNED = 0
    ONE_OF_THREE_OWNED = 1
    TWO_OF_THREE_OWNED_DIFFERENT = 2
    TWO_OF_THREE_OWNED_SAME = 3
    OWNED_OUTRIGHT = 4
    THREE_OWNED_TWO_OWNERS = 5
    THREE_OWNED_THREE_OWNERS = 6
    TWO_OF_TWO_OWNED_DIFFERENT = 7
    BORING = 8
    ONE_OF_TWO_OWNED = 9


def _pair(a: int, b: int, size: int) -> tuple[int, list[int]]:
    """``SetInfo.make``: two owned places of a set of ``size``."""
    if a == b:
        return (SetState.OWNED_OUTRIGHT if size == 2 else SetState.TWO_OF_THREE_OWNED_SAME), [a]
    return (SetState.TWO_OF_TWO_OWNED_DIFFERENT if size == 2
            else SetState.TWO_OF_THREE_OWNED_DIFFERENT), [a, b]


def set_info(game: Game, sq: int) -> tuple[int, list[int]]:
    """``work_out_owners`` (lines 74-133): the state of ``sq``'s set and its owners; with three
    owners of a three-place set the one holding two comes first. Transports and utilities are
    BORING."""
    group = GROUP_OF[sq]
    if group is None:
        return SetState.BORING, []
    owners = [game.owner[s] for s in group]
    owned = [o for o in owners if o != NONE]
    if len(group) == 2:
        if not owned:
            return SetState.NONE_OWNED, []
        if len(owned) == 1:
            return SetState.ONE_OF_TWO_OWNED, owned
        return _pair(owned[0], owned[1], 2)
    if not owned:
        return SetState.NONE_OWNED, []
    if len(owned) == 1:
        return SetState.ONE_OF_THREE_OWNED, owned
    if len(owned) == 2:
        return _pair(owned[0], owned[1], 3)
    a, b, c = owners
    if a == b == c:
        return SetState.OWNED_OUTRIGHT, [a]
    if a == b:
        return SetState.THREE_OWNED_TWO_OWNERS, [a, c]
    if a == c:
        return SetState.THREE_OWNED_TWO_OWNERS, [a, b]
    if b == c:
        return SetState.THREE_OWNED_TWO_OWNERS, [b, a]
    return SetState.THREE_OWNED_THREE_OWNERS, [a, b, c]


class Gift:
    """``PostGiftState`` (lines 184-197): what giving a place of a set from p1 to p2 does."""

    S_BAA, S_BAB, S_BAC, S_BAX, S_BBB, S_BBC, S_BBX, S_BCC, S_BC, S_BCD, S_BCX, S_BXX, \
        BORING = range(13)


def gift_result(info: tuple[int, list[int]], p1: int, p2: int) -> int:
    """``gift_result`` (lines 228-264), the same tests in the same order."""
    state, owners = info
    if state == SetState.OWNED_OUTRIGHT and owners[0] == p1:
        return Gift.S_BAA
    two_owners = state == SetState.THREE_OWNED_TWO_OWNERS
    if two_owners and owners[0] == p1 and owners[1] == p2:
        return Gift.S_BAB
    if two_owners and owners[0] == p1 and owners[1] != NONE:
        return Gift.S_BAC
    if state == SetState.TWO_OF_THREE_OWNED_SAME and owners[0] == p1:
        return Gift.S_BAX
    if two_owners and owners[0] == p2 and owners[1] == p1:
        return Gift.S_BBB
    if state == SetState.THREE_OWNED_THREE_OWNERS and p1 in owners and p2 in owners:
        return Gift.S_BBC
    if state == SetState.TWO_OF_THREE_OWNED_DIFFERENT and p1 in owners and p2 in owners:
        return Gift.S_BBX
    if two_owners and owners[0] != p2 and owners[0] == p1:
        return Gift.S_BCC
    if state == SetState.TWO_OF_TWO_OWNED_DIFFERENT and (
            (owners[0] == p1 and owners[1] != p2) or (owners[1] == p1 and owners[0] != p2)):
        return Gift.S_BC
    if state == SetState.THREE_OWNED_THREE_OWNERS and p1 in owners and p2 not in owners:
        return Gift.S_BCD
    if state == SetState.TWO_OF_THREE_OWNED_DIFFERENT and p1 in owners and p2 not in owners:
        return Gift.S_BCX
    if state in (SetState.ONE_OF_TWO_OWNED, SetState.ONE_OF_THREE_OWNED) and owners[0] == p1:
        return Gift.S_BXX
    return Gift.BORING


# ``PostGiftState.deal_array`` (lines 211-226): x never, d if favourable, y always; the row is
# the gift the player makes, the column the gift it receives.
X, D, Y = 0, 1, 2
DEAL_TABLE = (
    (X, X, X, X, D, X, X, X, X, X, X, X, X),
    (X, X, X, X, Y, D, Y, X, X, X, X, X, X),
    (X, X, X, X, Y, D, D, X, X, X, X, X, X),
    (X, X, X, X, Y, D, D, X, X, X, X, X, X),
    (X, X, X, X, D, X, X, X, X, X, X, X, X),
    (D, X, D, D, Y, D, Y, X, D, X, X, X, X),
    (D, X, D, D, Y, X, D, X, X, X, X, X, X),
    (X, Y, Y, Y, Y, Y, Y, D, D, X, X, Y, X),
    (X, Y, X, X, Y, D, Y, X, D, X, X, Y, X),
    (Y, Y, Y, Y, Y, Y, Y, Y, Y, D, Y, Y, X),
    (Y, Y, Y, Y, Y, Y, Y, X, Y, X, D, D, X),
    (X, Y, Y, Y, Y, Y, Y, X, X, X, D, D, X),
    (X, X, X, X, X, X, X, X, X, X, X, X, X),
)

# ``sets_we_like`` (lines 312-314): the order Huw builds in.
HUW_BUILD_ORDER = tuple(board.GROUPS[CLASSIC_SET[c]] for c in (
    "orange", "light_blue", "yellow", "red", "purple", "green", "dark_blue", "brown"))


class HuwPlayer(EnginePlayer):
    """``HuwAI20140203`` of the monopyly tournament, AIs/Huw Roberts/huw20140203.py lines
    1-566 (with its utils.py, lines 1-43, for building).

    - Buys whatever it can while cash plus the mortgage value of its loose places stays above a
      Rs 5,000 reserve and the price (lines 366-374).
    - Auctions: a ceiling of 2.5x price for the piece that completes a set where it holds two
      of three, 2x where a rival holds two of three, 1.5x where it holds one of three, else the
      price, plus a random Rs 10-200, within cash plus mortgage values less the reserve (lines
      419-433; the source's own test for the two-place sets compares a class with a number and
      never holds, so those sets get the price, here too).
    - Deals (lines 141-286, 376-405, 435-464): a place-for-place table of 13 x 13 outcomes of
      giving a place from one owner to another (breaking a set, handing over its last piece,
      ...), each cell "never", "if favourable" (the price difference in cash) or "always"; it
      accepts swaps by that table, place sales by price (twice the price for the third piece of
      a set it holds two of), never sells a place for money alone, and refuses taking more
      than one place. It proposes one deal at random from every swap the table allows and a
      money offer near the price for each rival's city; proposals read the table with the
      roles as the source passes them (lines 276-286).
    - Leaves jail (card first, then the fine with cash above Rs 500) while any set is still open
      to it, else stays (lines 498-517); builds evenly towards hotels on its sets in the order
      orange, light blue, yellow, red, purple, green, dark blue, brown while cash stays above the
      reserve (utils.py); mortgages in turn to cover a debt and never sells houses (lines
      483-496); pays off mortgages the way its lines 539-566 do (only when a set's payoffs run
      past its spare cash, the ones before that point).

    Adapted: money times ten; the mortgage values counted fresh at each decision (the source
    counts them at the start of its own turn); the rest as the module says."""

    name = "outside-monopyly-huw"
    CASH_RESERVE = 500 * SCALE

    def __init__(self) -> None:
        super().__init__()
        self.reset()

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.slots: dict[int, tuple[int, int]] = {}  # seat: (turn, proposals asked this turn)

    # ---------------------------------------------------------------- money
    @staticmethod
    def easy_reserve(game: Game, seat: int) -> int:
        """``calculate_reserve``: the mortgage value of its unmortgaged places without
        houses."""
        return sum(PRICE[s] // 2 for s in board.PLACES
                   if game.owner[s] == seat and not game.mortgaged[s] and not game.buildings[s])

    def offer_amount(self, game: Game, seat: int, target: float, salt: str) -> int:
        """``make_offer_amount``: the target plus a random 1-20 (times ten), within cash plus
        mortgage values less the reserve."""
        target += rng(game, seat, salt).randint(1, 20) * SCALE
        return int(max(0, min(target, game.cash[seat] + self.easy_reserve(game, seat)
                              - self.CASH_RESERVE)))

    # ---------------------------------------------------------------- deals
    def _response(self, game: Game, seat: int, action: int, given: int, wanted: int,
                  ) -> tuple[int, int] | None:
        """The answer of ``accept_deal_if_favorable`` / ``accept_deal_always``: None to
        refuse, else (most it pays, least it wants)."""
        if action == X:
            return None
        diff = PRICE[given] - PRICE[wanted]  # the place offered to it less the one it gives
        if diff < 0:
            return (0, -diff) if action == D else (0, 0)
        return self.offer_amount(game, seat, diff, "answer"), 0

    def accept(self, game: Game, seat: int) -> bool:
        him, offer = game.offer
        give, take = offer.give, offer.take  # give: the offerer's places, to this player
        if len(take) > 1:
            return False
        if len(give) == 1 and len(take) == 1:
            i = gift_result(set_info(game, take[0]), seat, him)
            j = gift_result(set_info(game, give[0]), him, seat)
            limits = self._response(game, seat, DEAL_TABLE[i][j], give[0], take[0])
        elif give:
            sq = give[0]
            state, owners = set_info(game, sq)
            avail = game.cash[seat] + self.easy_reserve(game, seat)
            mult = 2 if state == SetState.THREE_OWNED_TWO_OWNERS and owners[0] == seat else 1
            limits = (min(PRICE[sq] * mult, avail), 0)
        else:
            return False  # never just gives away a place for money
        if limits is None:
            return False
        most_paid, least_wanted = limits
        if offer.amount < 0:  # the proposer wants money
            return most_paid >= -offer.amount
        if offer.amount > 0:
            return offer.amount >= least_wanted
        return True

    def deals(self, game: Game, seat: int) -> list[Action]:
        """``work_out_deals`` (lines 435-451)."""
        out = []
        mine = [s for s in board.PLACES if game.owner[s] == seat]
        for asked in board.CITIES:
            him = game.owner[asked]
            if him == seat or him < 0 or game.bankrupt[him]:
                continue
            asked_info = set_info(game, asked)
            for offered in mine:
                if GROUP_OF[asked] is not None and GROUP_OF[asked] == GROUP_OF[offered]:
                    continue
                i = gift_result(asked_info, seat, him)
                j = gift_result(set_info(game, offered), him, seat)
                action = DEAL_TABLE[i][j]
                if action == X:
                    continue
                diff = PRICE[offered] - PRICE[asked]
                if diff < 0:
                    amount = -ask_at_least(-diff) if action == D else 0
                    if action == D and not amount:
                        continue
                else:
                    amount = pay_at_most(self.offer_amount(game, seat, diff, f"o{asked}:{offered}"))
                out.append(actions.offer_trade(him, [offered], [asked], amount))
            cash = pay_at_most(self.offer_amount(game, seat, PRICE[asked], f"c{asked}"))
            out.append(actions.offer_trade(him, [], [asked], cash))
        return out

    def propose(self, game: Game, seat: int) -> Action | None:
        turn = game.turn_count
        for used in offer_slots(self.slots, game, seat):
            deals = self.deals(game, seat)
            if not deals:
                return None
            deal = deals[rng(game, seat, f"deal{used}").randrange(len(deals))]
            if game.trade_error(deal) is None:
                return deal
        self.slots[seat] = (turn, 3)
        return None

    # ---------------------------------------------------------------- the rest
    def auction_ceiling(self, game: Game, seat: int, sq: int) -> int:
        state, owners = set_info(game, sq)
        price = PRICE[sq]
        if state == SetState.TWO_OF_THREE_OWNED_SAME and owners[0] == seat:
            target = price * 2.5
        elif state == SetState.TWO_OF_THREE_OWNED_SAME:
            target = price * 2
        elif state == SetState.ONE_OF_THREE_OWNED and owners[0] == seat:
            target = price * 1.5
        else:
            target = price
        target += _auction_draw(game, seat, sq)
        return int(max(0, min(target, game.cash[seat] + self.easy_reserve(game, seat)
                              - self.CASH_RESERVE)))

    def wants_out_of_jail(self, game: Game, seat: int) -> bool:
        for group in board.GROUPS.values():
            state, _ = set_info(game, group[0])
            if state in (SetState.NONE_OWNED, SetState.ONE_OF_THREE_OWNED,
                         SetState.TWO_OF_THREE_OWNED_SAME, SetState.ONE_OF_TWO_OWNED):
                return True
        return False

    def unmortgage(self, game: Game, seat: int, legal: list[Action]) -> Action | None:
        """Lines 539-566 as they run: the set of its first mortgaged place; its mortgaged
        places in order while the payoffs fit its cash less the reserve, but only when one
        does not fit (when all fit the source returns nothing)."""
        first = next((s for s in board.PLACES if game.owner[s] == seat and game.mortgaged[s]), None)
        if first is None:
            return None
        group = GROUP_OF[first] or (board.TRANSPORTS if first in board.TRANSPORTS
                                    else board.UTILITIES)
        chosen, cost = [], 0
        for s in group:
            if game.owner[s] == seat and game.mortgaged[s]:
                cost += int(PRICE[s] // 2 * 1.1)
                if cost > game.cash[seat] - self.CASH_RESERVE:
                    if chosen:
                        action = actions.unmortgage(chosen[0])
                        return action if action in legal else None
                    return None
                chosen.append(s)
        return None

    def build(self, game: Game, seat: int, legal: list[Action]) -> Action | None:
        builds = {a.square for a in legal_of(legal, ActionKind.BUILD)}
        spare = game.cash[seat] - self.CASH_RESERVE
        for group in HUW_BUILD_ORDER:
            if not all(game.owner[s] == seat and not game.mortgaged[s] for s in group):
                continue
            if spare < HOUSE_COST[group[0]]:
                continue
            # build_stuff: the last place of the set first, evenly.
            for s in reversed(group):
                if s in builds and game.buildings[s] == min(game.buildings[g] for g in group):
                    return actions.build(s)
        return None

    def raise_cash(self, game: Game, seat: int, legal: list[Action]) -> Action:
        mortgages = legal_of(legal, ActionKind.MORTGAGE)
        if mortgages:
            return min(mortgages, key=lambda a: a.square)
        return forced_sale(legal)

    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        ph = game.phase
        if ph == Phase.BUY:
            sq = game.pending_square
            ok = game.cash[seat] + self.easy_reserve(game, seat) > self.CASH_RESERVE + PRICE[sq]
            return actions.buy(sq) if ok else actions.decline(sq)
        if ph == Phase.AUCTION:
            sq = game.auction.square
            return bid_or_drop(game, sq, self.auction_ceiling(game, seat, sq))
        if ph == Phase.TRADE_ANSWER:
            return actions.ACCEPT_TRADE if self.accept(game, seat) else actions.REJECT_TRADE
        if ph == Phase.RAISE_CASH:
            return self.raise_cash(game, seat, legal)
        deal = self.propose(game, seat)
        if deal is not None:
            return deal
        if game.in_jail[seat] and self.wants_out_of_jail(game, seat):
            if actions.USE_BAIL_CARD in legal:
                return actions.USE_BAIL_CARD
            if actions.PAY_FINE in legal and game.cash[seat] > 50 * SCALE:
                return actions.PAY_FINE
        payoff = self.unmortgage(game, seat, legal)
        if payoff is not None:
            return payoff
        build = self.build(game, seat, legal)
        return build if build is not None else actions.ROLL


def _auction_draw(game: Game, seat: int, sq: int) -> int:
    """Huw's random 1-20 (times ten) on a bid, drawn once per auction (the source names one
    sealed amount): keyed by the turn, not by the bid reached."""
    return random.Random(f"{game.seed}:{game.turn_count}:{seat}:auction{sq}").randint(1, 20) * SCALE


# Sophie's places: the classic board's two dearest streets and its four stations.
SOPHIE_LIKES = frozenset(CAPITAL_PAIR) | frozenset(board.TRANSPORTS)


class SophiePlayer(EnginePlayer):
    """``SophieAI``, the sample player of the monopyly framework, SampleAIs/Sample_Sophie/
    sophie.py lines 1-108: buys only the two dearest places (the source's Mayfair and Park
    Lane: here Lalitpur and Kathmandu) and the four transports (the stations), when her cash is
    above the price; offers twice the price for one of them held by another player, when her
    cash is above that (a liked place drawn at random each time); refuses every deal and never
    bids at auction (the framework's defaults); stays in jail until it lets her out (the
    default); builds a house on each place of her first buildable set when her cash is at least
    Rs 10,000 (and covers them all); mortgages everything when raising cash; pays off every
    mortgage when her cash is above Rs 20,000. Adapted as the module says."""

    name = "outside-monopyly-sophie"

    def __init__(self) -> None:
        super().__init__()
        self.reset()

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.plans: dict[int, tuple[int, list[int]]] = {}  # seat: (turn, places to build on)
        self.slots: dict[int, tuple[int, int]] = {}

    def propose(self, game: Game, seat: int) -> Action | None:
        for used in offer_slots(self.slots, game, seat):
            liked = sorted(SOPHIE_LIKES)
            rng(game, seat, f"sophie{used}").shuffle(liked)
            for sq in liked:
                holder = game.owner[sq]
                if holder == seat or holder < 0:
                    continue
                price = PRICE[sq] * 2
                if game.cash[seat] > price:
                    offer = actions.offer_trade(holder, [], [sq], pay_at_most(price))
                    if game.trade_error(offer) is None:
                        return offer
        return None

    def build(self, game: Game, seat: int, legal: list[Action]) -> Action | None:
        turn = game.turn_count
        stamp, plan = self.plans.get(seat, (-1, []))
        if stamp != turn:
            plan = []
            if game.cash[seat] >= 1000 * SCALE:
                for group in board.GROUPS.values():
                    if all(game.owner[s] == seat and not game.mortgaged[s] for s in group) \
                            and any(game.buildings[s] < board.HOTEL for s in group):
                        if game.cash[seat] >= HOUSE_COST[group[0]] * len(group):
                            plan = sorted(group, key=lambda s: (game.buildings[s], s))
                        break
            self.plans[seat] = (turn, plan)
        while plan:
            sq = plan.pop(0)
            if actions.build(sq) in legal:
                return actions.build(sq)
        return None

    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        ph = game.phase
        if ph == Phase.BUY:
            sq = game.pending_square
            ok = sq in SOPHIE_LIKES and game.cash[seat] > PRICE[sq]
            return actions.buy(sq) if ok else actions.decline(sq)
        if ph == Phase.AUCTION:
            return actions.DROP_OUT
        if ph == Phase.TRADE_ANSWER:
            return actions.REJECT_TRADE
        if ph == Phase.RAISE_CASH:
            mortgages = legal_of(legal, ActionKind.MORTGAGE)
            return mortgages[0] if mortgages else forced_sale(legal)
        deal = self.propose(game, seat)
        if deal is not None:
            return deal
        if game.cash[seat] > 2000 * SCALE:
            payoffs = legal_of(legal, ActionKind.UNMORTGAGE)
            if payoffs:
                return payoffs[0]
        build = self.build(game, seat, legal)
        return build if build is not None else actions.ROLL
