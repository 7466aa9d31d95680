"""The medium player: a solid player's judgement, in a few rules.

- Values a place by what it does for colour groups: finishing its own group (high), blocking a
  rival who holds the rest (above price), transports by how many it holds.
- Keeps a cash reserve that grows with the biggest rent it may face on the board.
- Builds towards three houses on its groups first (the third house pays most per rupee), then
  further; funds houses by selling or mortgaging places outside its groups.
- Bids up to a reservation value at auctions; buys when the reserve allows or the place matters.
- Offers a spare place and money for the one place missing from a group, raising the offer on
  each refusal; at tables of three or more, buys a place from a rival about to hold a whole group.
  Refuses trades that complete a rival's group unless paid well for it.
- Sells spare places (outside its groups, far from any group of the buyer) a little under list
  price to fund houses, and heads-up at any time: cash the rival cannot build with.
- Raises cash by the cheapest sales first: mortgages before building sales, weighing a place in
  a whole group it holds at three times its price; then buildings from its cheapest group.
- Leaves jail at once, except late in the game when the board is full of houses.
"""

from __future__ import annotations

from byapar_env.engine import Action, ActionKind, Game, Phase, actions, board

from .base import EnginePlayer
from .tactics import (
    GROUP_OF,
    HOUSE_COST,
    PRICE,
    list_value,
    money_step,
    money_step_below,
    others_holding_group,
)

BASE_RESERVE = 1_000
# Offers for a missing place, as multiples of its price, raised after each refusal.
OFFER_MULTIPLES = (1.05, 1.6)
RETRY_ROUNDS = 3
LATE_ROUND_SHARE = 0.5  # past this share of the game, a dangerous board keeps it in jail
DANGEROUS_HOUSES = 8
# Each city with its bare rent doubled (a whole group's) and its rents by buildings.
_CITY_RENTS = tuple((sq, board.SQUARES[sq].rents[0] * 2, board.SQUARES[sq].rents)
                    for sq in board.CITIES)
_GROUPS = tuple(board.GROUPS.values())  # every group has two or three places
# Each place with its group's other places (None outside colour groups), and whether it is a
# transport: what ``_spare_place`` asks of every place.
_PLACE_OTHERS = tuple(
    (s, None if board.GROUP_OF[s] is None else tuple(g for g in board.GROUP_OF[s] if g != s),
     board.SQUARES[s].kind == board.TRANSPORT)
    for s in board.PLACES)


def cash_reserve(game: Game, seat: int) -> int:
    """The medium player's cash to keep: a base plus half the biggest rent an opponent's place
    may charge (at most Rs 3,000 over the base)."""
    danger = 0
    owner, blds, mort = game.owner, game.buildings, game.mortgaged
    for sq, bare, rents in _CITY_RENTS:
        o = owner[sq]
        if o != seat and o >= 0 and not mort[sq]:
            b = blds[sq]
            r = rents[b] if b else bare  # bare: at most double
            if r > danger:
                danger = r
    return BASE_RESERVE + min(danger // 2, 3_000)


class MediumPlayer(EnginePlayer):
    name = "medium"
    # For byapar_env.fast_play: it reads ``legal`` only before rolling and while raising cash,
    # and checks its own trade offers with ``trade_error`` before making them (``_try``).
    LEGAL_READ = frozenset({Phase.PRE_ROLL, Phase.RAISE_CASH})
    OFFERS_CHECKED = True

    def reset(self, seed: int | None = None) -> None:
        """Forget the last game: the offers already tried."""
        super().reset(seed)
        self.tried: dict[tuple[int, int], tuple[int, int]] = {}  # (seat, square): (round, n)
        self._offer_stamp: tuple[int, int] = (-1, -1)

    def __init__(self) -> None:
        super().__init__()
        self.reset()

    # ------------------------------------------------------------------ judgement
    def reserve(self, game: Game, seat: int) -> int:
        """Cash to keep: a base plus half the biggest rent an opponent's place may charge."""
        return cash_reserve(game, seat)

    def place_value(self, game: Game, sq: int, seat: int) -> int:
        """What ``sq`` is worth to ``seat`` if it came to them."""
        price = PRICE[sq]
        kind = board.SQUARES[sq].kind
        if kind == board.TRANSPORT:
            held = sum(1 for t in board.TRANSPORTS if game.owner[t] == seat and t != sq)
            return int(price * (1.0 + 0.25 * held))
        if kind == board.UTILITY:
            other = any(game.owner[u] == seat for u in board.UTILITIES if u != sq)
            return int(price * (1.0 if other else 0.8))
        others = len(GROUP_OF[sq]) - 1
        mine, theirs = others_holding_group(game, sq, seat)
        if mine == others:
            return price * 2
        if theirs == others and self._single_rival(game, sq, seat) >= 0:
            return int(price * 1.5)
        if mine and not theirs:
            return int(price * 1.2)
        return price

    @staticmethod
    def _single_rival(game: Game, sq: int, seat: int) -> int:
        """The one rival holding every other place of ``sq``'s group, or -1."""
        owners = {game.owner[s] for s in GROUP_OF[sq] if s != sq}
        if len(owners) == 1:
            (o,) = owners
            if o >= 0 and o != seat:
                return o
        return -1

    @staticmethod
    def _dangerous_board(game: Game, seat: int) -> bool:
        houses = sum(game.buildings[s] for s in board.CITIES if game.owner[s] not in (-1, seat))
        return houses >= DANGEROUS_HOUSES

    # ------------------------------------------------------------------ deciding
    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        ph = game.phase
        if ph == Phase.PRE_ROLL:
            return self._pre_roll(game, seat, legal)
        if ph == Phase.BUY:
            sq = game.pending_square
            price = PRICE[sq]
            if game.cash[seat] - price >= self.reserve(game, seat) // 2:
                return actions.buy(sq)
            return (actions.buy(sq) if self.place_value(game, sq, seat) > price
                    else actions.decline(sq))
        if ph == Phase.AUCTION:
            a = game.auction
            value = self.place_value(game, a.square, seat)
            limit = min(value, game.cash[seat] - self.reserve(game, seat) // 3)
            bid = a.high + board.BID_STEP
            return actions.bid(a.square, bid) if bid <= limit else actions.DROP_OUT
        if ph == Phase.TRADE_ANSWER:
            good = self._trade_is_good(game, seat)
            return actions.ACCEPT_TRADE if good else actions.REJECT_TRADE
        return self._raise_cash(game, seat, legal)

    def _pre_roll(self, game: Game, seat: int, legal: list[Action]) -> Action:
        cash = game.cash[seat]
        reserve = self.reserve(game, seat)
        builds, mortgages, payoffs = [], [], []
        for a in legal:
            k = a.kind
            if k == ActionKind.BUILD:
                builds.append(a.square)
            elif k == ActionKind.MORTGAGE:
                mortgages.append(a.square)
            elif k == ActionKind.UNMORTGAGE:
                payoffs.append(a.square)
        if game.in_jail[seat]:
            late = game.round > game.rules.round_limit * LATE_ROUND_SHARE
            if not (late and self._dangerous_board(game, seat)):
                if actions.USE_BAIL_CARD in legal:
                    return actions.USE_BAIL_CARD
                if actions.PAY_FINE in legal:
                    return actions.PAY_FINE
        # Pay off mortgages in groups it holds whole: that unlocks building there.
        for sq in payoffs:
            if game.owns_group(seat, sq) and cash - PRICE[sq] >= reserve:
                return actions.unmortgage(sq)
        # Look for an offer once per turn, and again after each offer made.
        stamp = (game.turn_count, game.offers_made)
        if self._offer_stamp != stamp:
            self._offer_stamp = stamp
            offer = self._offer(game, seat, reserve)
            if offer is not None:
                return offer
        build = self._best_build(game, builds, cash - reserve)
        if build is not None:
            return actions.build(build)
        if builds:
            # Houses pay, idle places do not: sell a spare place for cash to build, or else
            # mortgage one outside its groups (net worth stays: cash replaces the half price).
            sale = self._sale(game, seat)
            if sale is not None:
                return sale
            for sq in mortgages:
                if not game.owns_group(seat, sq):
                    return actions.mortgage(sq)
            return actions.ROLL
        for sq in payoffs:
            if cash - PRICE[sq] >= 2 * reserve:
                return actions.unmortgage(sq)
        # Heads-up, a spare place is worth more as cash for the next houses, and the rival's
        # cash then cannot go into houses of its own. (With more players it feeds them all.)
        if len(game.active_seats()) == 2:
            sale = self._sale(game, seat)
            if sale is not None:
                return sale
        return actions.ROLL

    @staticmethod
    def _best_build(game: Game, builds, spare: int) -> int | None:
        """The next house: lower levels first (to three on every group), then cheaper groups."""
        best = None
        for sq in builds:
            if HOUSE_COST[sq] > spare:
                continue
            key = (min(game.buildings[sq], 3), HOUSE_COST[sq], sq)
            if best is None or key < best:
                best = key
        return None if best is None else best[2]

    # ------------------------------------------------------------------ trades
    def _try(self, game: Game, offer: Action, key: tuple[int, int], count: int) -> Action | None:
        if game.trade_error(offer) is not None:
            return None
        self.tried[key] = (game.round, count + 1)
        return offer

    def _fresh(self, game: Game, key: tuple[int, int]) -> int | None:
        """How many offers were made for ``key`` if another may be made now, else None."""
        round_tried, count = self.tried.get(key, (-RETRY_ROUNDS, 0))
        if game.round - round_tried < RETRY_ROUNDS or count >= len(OFFER_MULTIPLES):
            return None
        return count

    def _offer(self, game: Game, seat: int, reserve: int) -> Action | None:
        """An offer for the one place missing from one of its groups, else a blocking offer."""
        if not game.can_offer_trade():
            return None
        owner, blds = game.owner, game.buildings
        for group in _GROUPS:
            sq = -1
            for s in group:
                if owner[s] != seat:
                    if sq >= 0:
                        break  # two or more missing
                    sq = s
            else:
                if sq < 0:
                    continue  # holds the whole group already
                holder = owner[sq]
                if holder < 0 or blds[group[0]] or blds[group[-1]] or blds[group[1]]:
                    continue
                action = self._offer_for(game, seat, sq, holder, reserve)
                if action is not None:
                    return action
        return self._block(game, seat, reserve)

    def _offer_for(self, game: Game, seat: int, sq: int, holder: int,
                   reserve: int) -> Action | None:
        """A spare place and money, or money alone, for ``sq`` from ``holder``."""
        count = self._fresh(game, (holder, sq))
        if count is None:
            return None
        want = int(PRICE[sq] * OFFER_MULTIPLES[count])
        give = self._spare_place(game, seat, holder, want)
        give_value = list_value(game, [give]) if give is not None else 0
        amount = money_step(want - give_value) if want > give_value else 0
        if want > give_value and not amount:
            return None
        if game.cash[seat] - amount < reserve // 2:
            return None
        offer = actions.offer_trade(holder, [give] if give is not None else [], [sq], amount)
        return self._try(game, offer, (holder, sq), count)

    def _block(self, game: Game, seat: int, reserve: int) -> Action | None:
        """Money for one place of a group a single rival holds all or all but one of, before
        it can build there (only with three or more players: heads-up it feeds the rival)."""
        if game.num_players - sum(game.bankrupt) < 3:
            return None
        owner, blds = game.owner, game.buildings
        for group in _GROUPS:
            rival = -1
            held = []
            for s in group:
                o = owner[s]
                if blds[s] or o == seat or (o >= 0 and rival >= 0 and o != rival):
                    break  # built, shared with it, or split between rivals
                if o >= 0:
                    rival = o
                    held.append(s)
            else:
                if rival < 0 or len(held) < len(group) - 1:
                    continue
                action = self._block_for(game, seat, rival, held, reserve)
                if action is not None:
                    return action
        return None

    def _block_for(self, game: Game, seat: int, rival: int, held: list[int],
                   reserve: int) -> Action | None:
        """Money for the cheapest of ``held``, the places of a group ``rival`` holds."""
        sq = min(held, key=PRICE.__getitem__)
        count = self._fresh(game, (rival, sq))
        if count is None:
            return None
        amount = money_step(int(PRICE[sq] * OFFER_MULTIPLES[count]))
        if not amount or game.cash[seat] - amount < reserve:
            return None
        return self._try(game, actions.offer_trade(rival, [], [sq], amount), (rival, sq), count)

    def _sale(self, game: Game, seat: int) -> Action | None:
        """A spare place offered a little under list price to the richest other player who
        would not come close to a whole group by it."""
        if not game.can_offer_trade():
            return None
        n = game.num_players
        buyers = sorted((s for s in range(n) if s != seat and not game.bankrupt[s]),
                        key=lambda s: (-game.cash[s], s))
        for buyer in buyers:
            place = self._spare_place(game, seat, buyer, 10**9, keep_away=True)
            if place is None:
                return None
            if (buyer, place) in self.tried:
                continue
            value = list_value(game, [place])
            ask = money_step_below(value)
            if ask < value * 0.75 or ask > game.cash[buyer]:
                continue
            made = self._try(game, actions.offer_trade(buyer, [place], [], -ask), (buyer, place),
                             len(OFFER_MULTIPLES) - 1)
            if made is not None:
                return made
        return None

    @staticmethod
    def _spare_place(game: Game, seat: int, other: int, want: int,
                     keep_away: bool = False) -> int | None:
        """A place of ``seat``'s worth at most ``want`` that it can spare: outside any group it
        has a stake in, unbuilt, not a transport, and not the last piece of ``other``'s group
        (with ``keep_away``, not even one that would leave ``other`` one place short)."""
        best = None
        owner, blds = game.owner, game.buildings
        for s, others, transport in _PLACE_OTHERS:
            if owner[s] != seat:
                continue
            if others is not None:
                if blds[s] or any(blds[g] for g in others):
                    continue
                held = [owner[g] for g in others]
                if seat in held:
                    continue  # part of a group it is building towards
                if held.count(other) == len(held):
                    continue  # would finish the other player's group
                if keep_away and other in held:
                    continue
            elif transport:
                continue  # transports pay more the more it holds
            value = list_value(game, (s,))
            if value <= want and (best is None or value > best[0]):
                best = (value, s)
        return None if best is None else best[1]

    def _trade_is_good(self, game: Game, seat: int) -> bool:
        offerer, offer = game.offer
        value_in = offer.amount + sum(self.place_value(game, s, seat) for s in offer.give)
        value_out = 0
        for s in offer.take:
            value_out += PRICE[s] * 2 if game.owns_group(seat, s) else PRICE[s]
            group = GROUP_OF[s]
            if group is not None:
                # Would the offerer then hold the whole group? Then it must pay for that.
                after = [o for o in group if o != s and o not in offer.take]
                if all(game.owner[o] == offerer or o in offer.give for o in after):
                    value_out += PRICE[s] * 2 + 2_000
        return value_in > value_out * 1.1

    def _raise_cash(self, game: Game, seat: int, legal: list[Action]) -> Action:
        """The cheapest sale: a mortgage outside its groups, another mortgage, a building."""
        best = None
        sales = []
        for a in legal:
            if a.kind == ActionKind.MORTGAGE:
                cost = PRICE[a.square] * (3 if game.owns_group(seat, a.square) else 1)
                if best is None or cost < best[0]:
                    best = (cost, a)
            elif a.kind == ActionKind.SELL_BUILDING:
                sales.append(a)
        if best is not None:
            return best[1]
        if sales:
            return min(sales, key=lambda a: (HOUSE_COST[a.square], a.square))
        return legal[0]
