"""Port of the computer player of usama8800/monopoly (github.com/usama8800/monopoly, commit
2b9d73e), a TypeScript Monopoly engine whose ``AIPlayer`` buys, bids, builds, leaves jail and
raises cash by fixed rules, and trades for the last piece of its colour sets: it offers the
holder a swap for a piece the holder lacks (the price difference, raised to a power, in money),
then money from one to three or three and a half times the price. It judges every offer by a
worth of holdings in which a whole set counts three times its prices, and takes a deal only when
it gains at least as much as the other side.

Source files (commit 2b9d73e):

- ``src/ai_player.ts`` lines 18-34 (its settings: the order of raising cash, risk 5), 36-44
  (jail), 46-63 (buying), 65-88 (auction bids), 90-145 (the end of its turn: trades, building,
  paying mortgages off, late money offers, in that order), 147-210 (answering an offer),
  212-279 and 290-456 (raising cash), 458-516 (the offers for one place), 518-536 (the money it
  may use), 538-547 (the money it could raise), 549-561 (the pieces that complete a set),
  563-618 (the building plan), 620-647 (paying off), 649-660 (where rivals may land next),
  662-716 (its worth of holdings);
- ``src/player.ts`` lines 70-80 (whole sets), 140-158 (jail is asked before each roll in jail),
  210-223 (a house is refused where it would build unevenly), 258-293 (an offer and its answer);
- ``src/monopoly.ts`` lines 21-34 (the rules: mortgage 50%, pay-off 55% or 60% of the price,
  houses sold at half, raises of $1), 137-150 (the end of a turn comes after its last roll),
  223-237 (buy or auction), 339-369 (the auction asks every player in seat order), 371-391
  (rent, and the price of an unowned place where it counts what a turn could cost).

Adapted to Byapar:

- Money times ten (``common.SCALE``): the $50 jail line is Rs 500, a card square counts $50 (Rs
  500) in what a turn could cost it and a bail card $50 (Rs 500) in a worth; everything else is
  a multiple of Byapar's own prices, rents, taxes (Rs 1,000 and 1,500) and pay-off costs. The
  money of a swap is (price difference) ** factor, computed in dollars, rounded as JavaScript
  rounds (halves up) and put back in rupees.
- Sets are Byapar's colour groups (two or three places; the source reads its set sizes from its
  board, so nothing else changes), its railroads Byapar's transports, its utilities Byapar's.
  What a turn could cost it reads Byapar's 36 squares (each rival's rent at a roll of 7, each
  unowned place's price, each tax, each card square), and where rivals may land next counts the
  36 throws of two dice from each rival's square, as the source does on its 40.
- The end of its turn becomes the start of its next one: Byapar builds, pays off and trades
  only before a roll, so the source's turn-end routine (trades, the building plan, paying off,
  late money offers) runs at the first decision of each of its turns, before the jail choice
  (which the source makes at its next roll, after that routine). After a double it only rolls
  (the source runs the routine once, after the last roll). As there, which pieces it trades for,
  and whether its sets are built up enough to trade at all, are read once, when the routine
  starts; each offer's money, and its cash, are read when the offer is made.
- Trades: the source sends offer after offer in one routine (each escalation, each place),
  moving to the next place at the first acceptance. Byapar takes three offers a turn, answered
  at once; so the list is walked across turns: an offer sent is not sent again while the places'
  owners and mortgages stay as they are (any change of hands starts the list over, where the
  source would send it all again next turn). Trade money is put on the environment's amounts,
  the payer's side rounded down (``common.pay_at_most``; Rs 10,000 at most), after the source's
  tests on the exact sum; an offer that rounds to one already in the list, or that Byapar forbids
  (``game.trade_error``: a group with buildings, money the payer lacks), is skipped. Bail cards
  are not traded (the source values them at $50 on both sides of an answer; they cancel).
- Buying: Byapar asks only when the cash covers the price (the source could raise money to
  buy); otherwise Byapar auctions the place, where this player bids by its auction rule.
- Auctions: Byapar asks the others in seat order after the player who declined, then that
  player; the source asks every player in seat order. It bids the least raise (Rs 100, where the
  source raises $1) while that stays within its ceiling and its cash (``common.bid_or_drop``).
- Raising cash: Byapar takes no offers while a debt is raised, so the source's steps that sell
  a bail card, a utility, a transport or a place to the other players are left out; the order
  left is: mortgage a place of a set it does not hold whole, a utility, a transport, a place of
  a whole set without buildings, sell the highest building of the first set that has one (then
  the set, once bare, is mortgaged by the step before); where Byapar wants a choice it would not
  make, the first building sale offered (``common.forced_sale``). It re-plans at each step,
  where the source plans the whole sum at once; the order is the same.
- Paying off: Byapar's pay-off cost (the mortgage value plus 10%) stands for the source's 55% or
  60% of the price.
- Source quirks kept: the ceiling of 1.6x the price "to complete the highest bidder's set" also
  applies before any bid, when exactly one place of the set has an owner (the source compares
  owners with the highest bidder, -1 before a bid), and it overrides its own 2x to complete a
  two-place set; the building plan takes whole sets by where rivals may land (most first,
  stopping at the first of its sets, whole or not, that nobody can reach) but builds them in
  board order, and the number of houses it works out per set is never used (money alone limits
  it); evening up a set plans its houses on the first place that was lowest before the plan
  (only the first of them is legal: the rest would be uneven, and the source's ``build``
  refuses them too; where no place was lowest the plan stops, where the source would fail); the
  money a swap asks of the other side is tested against its own usable money; the count of
  transports and utilities in a worth is the holder's present count, whatever the deal moves;
  any player (itself included) one short of a set makes it buy that set's last place past its
  cash test (not past its other two).
  Dropped: logging, saving, the console.
"""

from __future__ import annotations

import math

from byapar_env.engine import Action, Game, Phase, actions, board, payoff_cost

from ..base import EnginePlayer
from .common import (
    GROUP_OF,
    GROUPS,
    HOUSE_COST,
    PRICE,
    SCALE,
    bid_or_drop,
    forced_sale,
    held,
    pay_at_most,
    whole_groups,
)

NAME = "outside-usama8800"
RISK = 5  # config.risk: what a turn could cost is divided by it
JAIL_LINE = 50 * SCALE  # it stays in jail with less usable money than $50
CARD_SQUARE = 50 * SCALE  # a card square counts $50 in what a turn could cost
BAIL_CARD = 50 * SCALE  # a bail card counts $50 in a worth
MORTGAGE_FACTOR = 0.5 / 1.2  # a mortgaged place's worth: mortgage share over the late pay-off
SWAP_FACTORS = (1.15, 1.2, 1.25, 1.3)
MONEY_FACTORS = (1, 1.5, 2, 2.5, 3, 3.5)
MOST_HOUSES = board.HOTEL  # 5: a hotel, as in the source


def js_round(x: float) -> int:
    """``Math.round``: halves round up (Python's ``round`` takes halves to even)."""
    return math.floor(x + 0.5)


# ------------------------------------------------------------------------ the board as it reads it
def has_set(game: Game, seat: int) -> bool:
    """Whether ``sets()`` (player.ts 70-80), the groups it holds whole, has any."""
    return bool(whole_groups(game, seat))


def active(game: Game) -> list[int]:
    return [s for s in range(game.num_players) if not game.bankrupt[s]]


def usable_money(game: Game, seat: int, double: bool = False,
                 count_unowned: bool = True) -> float:
    """``usableMoney``: cash less a fifth (risk 5) of what every square could charge it at a
    roll of 7 (a card square $50, a tax its amount, an unowned place its price when counted, a
    rival's place its rent), that charge doubled when asked."""
    needed = 0.0
    for sq in range(board.NUM_SQUARES):
        s = board.SQUARES[sq]
        if s.kind == board.CARD:
            needed += CARD_SQUARE
        elif s.kind == board.TAX:
            needed += s.tax
        elif board.IS_PLACE[sq]:
            o = game.owner[sq]
            if o < 0:
                if count_unowned:
                    needed += PRICE[sq]
            elif o != seat:
                needed += game.rent(sq, 7)  # 0 when mortgaged, as the source's
    needed /= RISK
    if double:
        needed *= 2
    return game.cash[seat] - needed


def wants_in_trade(game: Game, seat: int) -> list[int]:
    """``wantInTrade``: for each set it holds part of, the one piece it lacks, when another
    player holds that piece."""
    out = []
    for g in GROUPS:
        if not held(game, seat, g):
            continue
        missing = [s for s in g if game.owner[s] != seat]
        if len(missing) == 1 and game.owner[missing[0]] >= 0:
            out.append(missing[0])
    return out


def landing_frequency(game: Game, seat: int) -> list[int]:
    """``landingFrequency``: for each square, how many of the 36 throws of two dice of each
    rival still in end there."""
    n = board.NUM_SQUARES
    freq = [0] * n
    for other in active(game):
        if other == seat:
            continue
        for a in range(1, 7):
            for b in range(1, 7):
                freq[(game.position[other] + a + b) % n] += 1
    return freq


def value_items(game: Game, holder: int, places: list[int], money: float, cards: int) -> int:
    """``valueItems``: money, $50 a bail card, a utility at its price (1.5x when the holder now
    has both), a transport at its price x 2 ** ((transports held now - 1) / 5), a place of a set
    at 3x its price when the whole set is among ``places``, 1.6x when two or more of it are, else
    1x, plus its buildings at cost; a mortgaged place at 0.5 / 1.2 of its share."""
    value = money + cards * BAIL_CARD
    utilities_held = sum(1 for u in board.UTILITIES if game.owner[u] == holder)
    transports_held = sum(1 for t in board.TRANSPORTS if game.owner[t] == holder)
    by_group: dict[tuple[int, ...], list[int]] = {}
    for sq in places:
        factor = MORTGAGE_FACTOR if game.mortgaged[sq] else 1
        kind = board.SQUARES[sq].kind
        if kind == board.UTILITY:
            value += PRICE[sq] * (1 if utilities_held < 2 else 1.5) * factor
        elif kind == board.TRANSPORT:
            value += PRICE[sq] * 2 ** ((transports_held - 1) / 5) * factor
        else:
            by_group.setdefault(GROUP_OF[sq], []).append(sq)
    for group, incoming in by_group.items():
        for sq in incoming:
            factor = MORTGAGE_FACTOR if game.mortgaged[sq] else 1
            if len(incoming) == len(group):
                value += PRICE[sq] * 3 * factor
            elif len(incoming) == 1:
                value += PRICE[sq] * factor
            else:
                value += PRICE[sq] * 1.6 * factor
            value += HOUSE_COST[sq] * game.buildings[sq]
    return math.floor(value)


def value_player(game: Game, seat: int) -> int:
    """``valuePlayer``: the worth of everything ``seat`` holds."""
    return value_items(game, seat, game.places_of(seat), game.cash[seat],
                       len(game.bail_cards[seat]))


# ------------------------------------------------------------------------ answering an offer
def accepts(game: Game, seat: int, offerer: int, offer: Action) -> bool:
    """``receiveTradeOffer`` for ``seat``, offered ``offer`` by ``offerer``: never money it
    lacks; never a place of its own for nothing that completes a set of its while it has no set
    and the offerer has one; nothing while it alone has a set; else when the worth it gains is
    at least 0 and at least what the offerer gains."""
    receiving, giving = list(offer.give), list(offer.take)
    money_in, money_out = max(offer.amount, 0), max(-offer.amount, 0)
    if money_out > game.cash[seat]:
        return False
    makes_my_set = False
    for g in GROUPS:
        incoming = [s for s in receiving if s in g]
        if incoming and len(held(game, seat, g)) + len(incoming) == len(g):
            makes_my_set = True
    mine_has, theirs_has = has_set(game, seat), has_set(game, offerer)
    if not mine_has and theirs_has and not makes_my_set and giving:
        return False
    others_have = any(has_set(game, s) for s in range(game.num_players) if s != seat)
    if not others_have and mine_has:
        return False
    cards_me, cards_them = len(game.bail_cards[seat]), len(game.bail_cards[offerer])
    before = value_player(game, seat)
    after = value_items(game, seat,
                        [s for s in game.places_of(seat) if s not in giving] + receiving,
                        game.cash[seat] - money_out + money_in, cards_me)
    gain = after - before
    if gain < 0:
        return False
    their_before = value_player(game, offerer)
    their_after = value_items(game, offerer,
                              [s for s in game.places_of(offerer) if s not in receiving] + giving,
                              game.cash[offerer] - money_in + money_out, cards_them)
    return gain >= their_after - their_before


# ------------------------------------------------------------------------ proposing
def swap_money(diff: int, factor: float) -> int:
    """The money of a swap: the price difference ``diff`` (rupees) raised to ``factor`` in the
    source's dollars, rounded, back in rupees."""
    return js_round((diff / SCALE) ** factor) * SCALE


def offers_for(game: Game, seat: int, tile: int) -> list[Action]:
    """``tryTradeProperty``: the offers it would send for ``tile``, in order. For the piece
    completing its set, first a swap for each of its places that would complete a set of the
    holder's: adding money for a dearer piece (the difference to the power 1.15 and 1.2, or up
    to 1.3 while others have a set and it has none), asking money for a cheaper one (the power
    1.3 down to 1.2, or to 1.15); then money alone at 1x to 3x the price (to 3.5x while others
    have a set and it has none, or nobody has one). Each within its usable money."""
    group = GROUP_OF[tile]
    makes_my_set = group is not None and len(held(game, seat, group)) + 1 == len(group)
    with_sets = [s for s in range(game.num_players) if has_set(game, s)]
    others_have_and_i_dont = seat not in with_sets and bool(with_sets)
    to = game.owner[tile]
    usable = usable_money(game, seat)
    out: list[Action] = []
    if makes_my_set:
        tradables = [s for s in wants_in_trade(game, to)
                     if game.owner[s] == seat and GROUP_OF[s] != group]
        for tradable in tradables:
            diff = PRICE[tradable] - PRICE[tile]
            if diff < 0:  # it receives the dearer place: it adds money
                cutoff = 1.3 if others_have_and_i_dont else 1.2
                for factor in SWAP_FACTORS:
                    if factor > cutoff:
                        continue
                    giving = swap_money(-diff, factor)
                    if giving > usable:
                        continue
                    out.append(actions.offer_trade(to, [tradable], [tile], pay_at_most(giving)))
            else:  # it gives the dearer place (or one of the same price): it asks money
                cutoff = 1.15 if others_have_and_i_dont else 1.2
                for factor in reversed(SWAP_FACTORS):
                    if factor < cutoff:
                        continue
                    receiving = swap_money(diff, factor)
                    if receiving > usable:  # the source tests its own money here
                        continue
                    out.append(actions.offer_trade(to, [tradable], [tile],
                                                   -pay_at_most(receiving)))
    cutoff = 3.5 if others_have_and_i_dont or not with_sets else 3
    for factor in MONEY_FACTORS:
        if factor > cutoff:
            break
        giving = js_round(PRICE[tile] * factor)
        if giving > usable:
            continue
        out.append(actions.offer_trade(to, [], [tile], pay_at_most(giving)))
    return out


def built_on(game: Game, seat: int) -> float | None:
    """The mean number of buildings on the places of its whole sets (None with no set)."""
    mine = [s for g in whole_groups(game, seat) for s in g]
    return sum(game.buildings[s] for s in mine) / len(mine) if mine else None


def trade_targets(game: Game, seat: int) -> list[int]:
    """The pieces the turn-end routine trades for (lines 90-104): each piece completing a set of
    its, when it has no set or its sets average more than three buildings, and nobody has a set,
    or others have and it has not, or every player still in has one."""
    wanted = wants_in_trade(game, seat)
    if not wanted:
        return []
    mean = built_on(game, seat)
    if not (mean is None or mean > 3):
        return []
    with_sets = [s for s in active(game) if has_set(game, s)]
    i_have = seat in with_sets
    if not (not with_sets or not i_have or len(with_sets) == len(active(game))):
        return []
    return wanted


def late_offers(game: Game, seat: int, mean: float | None) -> list[Action]:
    """The late money offers of the turn-end routine (lines 129-144): with usable money (its
    charges doubled) above 0 and its sets averaging four buildings or more when the routine
    started (``mean``), money for each rival's place of a set it holds part of and lacks two or
    more of."""
    if mean is None or mean < 4 or usable_money(game, seat, double=True) <= 0:
        return []
    out: list[Action] = []
    for g in GROUPS:
        mine = held(game, seat, g)
        if not mine or len(g) - len(mine) < 2:
            continue
        for sq in g:
            if game.owner[sq] == seat or game.owner[sq] < 0:
                continue
            out.extend(offers_for(game, seat, sq))
    return out


# ------------------------------------------------------------------------ building, paying off
def building_plan(game: Game, seat: int) -> list[int]:
    """``wantToBuild``: the houses it means to build, in order (see the quirks in the module
    docstring)."""
    usable = usable_money(game, seat)
    freqs = landing_frequency(game, seat)
    reach: dict[int, int] = {}  # group index: rivals' throws that end on its places of it
    for sq in board.CITIES:
        if game.owner[sq] == seat:
            gi = GROUPS.index(GROUP_OF[sq])
            reach[gi] = reach.get(gi, 0) + freqs[sq]
    chosen: list[int] = []
    # A stable sort: ties keep the source's set order (board order).
    for gi, count in sorted(reach.items(), key=lambda kv: -kv[1]):
        if usable < 0 or count == 0:
            break
        g = GROUPS[gi]
        if not all(game.owner[s] == seat for s in g):
            continue
        for s in g:
            if game.mortgaged[s]:
                usable -= payoff_cost(s)
        chosen.append(gi)
    plan: list[int] = []
    for gi in sorted(chosen):  # the source walks an object's numeric keys: ascending
        g = GROUPS[gi]
        cost = HOUSE_COST[g[0]]
        while usable > cost:
            counts = [game.buildings[s] + plan.count(s) for s in g]
            if max(counts) == min(counts):
                break
            low = min(counts)
            # The source looks for the lowest count among the buildings before the plan.
            first = next((s for s in g if game.buildings[s] == low), None)
            if first is None:
                break
            plan.append(first)
            usable -= cost
        i = 0
        while i < len(g) and usable > cost:
            on = game.buildings[g[i]] + plan.count(g[i])
            if on != MOST_HOUSES:
                plan.append(g[i])
                usable -= cost
                if on + 1 < MOST_HOUSES and i + 1 == len(g):
                    i = -1  # round again from the first place
            i += 1
    return plan


def payoff_list(game: Game, seat: int) -> list[int]:
    """``wantToUnmortgage``: its mortgaged places, the squares rivals may land on most first
    (a square no rival can reach is never paid off), while usable money (its charges doubled)
    is more than each pay-off."""
    usable = usable_money(game, seat, double=True)
    freqs = landing_frequency(game, seat)
    out = []
    for sq in sorted((s for s in range(board.NUM_SQUARES) if freqs[s] > 0),
                     key=lambda s: -freqs[s]):
        if board.IS_PLACE[sq] and game.owner[sq] == seat and game.mortgaged[sq]:
            cost = payoff_cost(sq)
            if usable > cost:
                out.append(sq)
                usable -= cost
    return out


# ------------------------------------------------------------------------ the player
class _Routine:
    """One turn's run of the turn-end routine: where it is, the queue of that stage, and what
    the source reads once when the routine starts."""

    __slots__ = ("turn", "stage", "queue", "targets", "mean")

    def __init__(self, turn: int, stage: str, targets: list[int] | None = None,
                 mean: float | None = None) -> None:
        self.turn, self.stage, self.queue = turn, stage, []
        self.targets, self.mean = targets or [], mean


class UsamaAIPlayer(EnginePlayer):
    """usama8800/monopoly's ``AIPlayer`` (src/ai_player.ts, commit 2b9d73e):

    - buys unless no rival could pay 0.8x the price at auction, or (a place of a set) half its
      raisable money is under 1.2x the price; always when some player is one short of the set,
      else with more cash than the price (lines 46-63);
    - bids the least raise up to 1.3x the price (when its cash covers that, else its cash), 2x
      for the piece completing its set, 1.6x for the piece completing the highest bidder's, never
      past half its raisable money (lines 65-88);
    - answers by its worth of holdings (a whole set 3x its prices, two of a set 1.6x), taking a
      deal when it gains at least 0 and at least as much as the offerer (lines 147-210);
    - for the piece completing a set of its: swaps plus money, then money alone rising from 1x
      to 3x or 3.5x the price; once its sets average four buildings, money for places of sets it
      lacks two of (lines 90-145, 458-516);
    - builds evenly on its whole sets with its usable money (cash less a fifth of what a turn
      could cost), pays mortgages off where rivals may land (lines 563-647);
    - leaves jail by a card or the fine while its usable money (charges doubled, unowned places
      not counted) is Rs 500 or more (lines 36-44);
    - raises cash by mortgaging loose places, utilities, transports, bare whole sets, then
      selling buildings (lines 18-34, 290-456).
    """

    name = NAME

    def __init__(self) -> None:
        super().__init__()
        self.reset()

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        # Per seat (one object may be seated twice): this turn's routine, and the offers sent
        # since the places' owners or mortgages last changed, with that state.
        self.routines: dict[int, _Routine] = {}
        self.sent: dict[int, tuple[tuple, set[Action]]] = {}

    # ---------------------------------------------------------------- buying (46-63)
    @staticmethod
    def will_buy(game: Game, seat: int, sq: int) -> bool:
        """``willBuy``."""
        price = PRICE[sq]
        others = [game.cash[s] for s in active(game) if s != seat]
        if max(others, default=0) < price * 0.8:
            return False  # nobody could outbid it at auction
        group = GROUP_OF[sq]
        if group is not None:
            if game.liquidation_value(seat) / 2 < price * 1.2:
                return False
            counts = [len(held(game, p, group)) for p in range(game.num_players)]
            if any(len(group) - c == 1 for c in counts):
                return True
        return game.cash[seat] > price

    # ---------------------------------------------------------------- auctions (65-88)
    @staticmethod
    def ceiling(game: Game, seat: int, sq: int) -> float:
        """``bid``'s most: the price, 1.3x when its cash covers that, at most its cash; 2x for
        the piece completing its set, then 1.6x for the piece completing the highest bidder's;
        at most half its raisable money."""
        price = PRICE[sq]
        money = game.cash[seat]
        most = float(price)
        if money >= most * 1.3:
            most *= 1.3
        most = min(most, money)
        group = GROUP_OF[sq]
        if group is not None:
            holder = game.auction.holder  # -1 before the first bid
            if sum(1 for s in group if game.owner[s] != seat) == 1:
                most = price * 2
            if sum(1 for s in group if game.owner[s] != holder) == 1:
                most = price * 1.6
        return min(most, game.liquidation_value(seat) / 2)

    # ---------------------------------------------------------------- raising cash (212-456)
    @staticmethod
    def raise_cash(game: Game, seat: int, legal: list[Action]) -> Action:
        """``getMakeMoneyItems`` in its order, without the sales to other players."""
        groups = [g for g in GROUPS if held(game, seat, g)]
        loose = [s for g in groups if len(held(game, seat, g)) < len(g)
                 for s in held(game, seat, g)]
        bare_sets = [s for g in groups if len(held(game, seat, g)) == len(g)
                     and not any(game.buildings[x] for x in g) for s in g]
        for squares in (loose,
                        [u for u in board.UTILITIES if game.owner[u] == seat],
                        [t for t in board.TRANSPORTS if game.owner[t] == seat],
                        bare_sets):
            for sq in squares:
                mortgage = actions.mortgage(sq)
                if mortgage in legal:  # not already mortgaged
                    return mortgage
        for g in groups:
            top = max(game.buildings[s] for s in g)
            if top == 0:
                continue
            last_top = [s for s in g if game.buildings[s] == top][-1]
            sale = actions.sell_building(last_top)
            return sale if sale in legal else forced_sale(legal)
        return forced_sale(legal)

    # ---------------------------------------------------------------- the turn-end routine
    def _next_offer(self, game: Game, seat: int, offers: list[Action]) -> Action | None:
        """The first offer of ``offers`` not sent since the places last changed hands, that
        Byapar allows now."""
        if not game.can_offer_trade():
            return None
        key = (tuple(game.owner), tuple(game.mortgaged))
        stamp, sent = self.sent.get(seat, (None, set()))
        if stamp != key:
            sent = set()
            self.sent[seat] = (key, sent)
        for offer in offers:
            if offer in sent or game.trade_error(offer) is not None:
                continue
            sent.add(offer)
            return offer
        return None

    def routine(self, game: Game, seat: int, legal: list[Action]) -> Action | None:
        """The next step of ``endTurn`` (lines 90-145) this turn, or None when it is done."""
        turn = game.turn_count
        run = self.routines.get(seat)
        if run is None or run.turn != turn:
            if game.doubles != 0:  # a roll after a double: the source has not ended its turn
                run = _Routine(turn, "done")
            else:
                run = _Routine(turn, "trade", trade_targets(game, seat), built_on(game, seat))
            self.routines[seat] = run
        while True:
            if run.stage == "trade":
                offers = [o for t in run.targets if game.owner[t] not in (seat, -1)
                          for o in offers_for(game, seat, t)]
                offer = self._next_offer(game, seat, offers)
                if offer is not None:
                    return offer
                run.stage = "build"
                for sq in building_plan(game, seat):
                    run.queue.extend(actions.unmortgage(s) for s in GROUP_OF[sq])
                    run.queue.append(actions.build(sq))
            elif run.stage in ("build", "payoff"):
                while run.queue:
                    action = run.queue.pop(0)
                    if action in legal:  # a house the source's build would refuse is skipped
                        return action
                if run.stage == "build":
                    run.stage = "payoff"
                    run.queue = [actions.unmortgage(s) for s in payoff_list(game, seat)]
                else:
                    run.stage = "late"
            elif run.stage == "late":
                offer = self._next_offer(game, seat, late_offers(game, seat, run.mean))
                if offer is not None:
                    return offer
                run.stage = "done"
            else:
                return None

    # ---------------------------------------------------------------- the engine's questions
    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        ph = game.phase
        if ph == Phase.BUY:
            sq = game.pending_square
            return actions.buy(sq) if self.will_buy(game, seat, sq) else actions.decline(sq)
        if ph == Phase.AUCTION:
            sq = game.auction.square
            return bid_or_drop(game, sq, self.ceiling(game, seat, sq))
        if ph == Phase.TRADE_ANSWER:
            offerer, offer = game.offer
            ok = accepts(game, seat, offerer, offer)
            return actions.ACCEPT_TRADE if ok else actions.REJECT_TRADE
        if ph == Phase.RAISE_CASH:
            return self.raise_cash(game, seat, legal)
        action = self.routine(game, seat, legal)
        if action is not None:
            return action
        # wantOutOfJail (36-44): asked before each roll in jail
        if game.in_jail[seat] and usable_money(game, seat, double=True,
                                               count_unowned=False) >= JAIL_LINE:
            if actions.USE_BAIL_CARD in legal:
                return actions.USE_BAIL_CARD
            if actions.PAY_FINE in legal:
                return actions.PAY_FINE
        return actions.ROLL


__all__ = ["NAME", "UsamaAIPlayer", "accepts", "building_plan", "late_offers", "offers_for",
           "payoff_list", "trade_targets", "usable_money", "value_items"]
