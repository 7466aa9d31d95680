"""The medium player: a solid player's judgement, in a few rules.

- Values a place by what it does for colour groups: finishing its own group (high), blocking a
  rival who holds the rest (higher than price), transports by how many it holds.
- Keeps a cash reserve that grows with the biggest rent it may face on the board.
- Builds towards three houses on its best groups first (cheap groups earn most per rupee there),
  then further when rich.
- Bids up to a reservation value at auctions; buys when the reserve allows or the place matters.
- Offers money for the last place of a group it nearly holds, at a price it raises on each
  refusal; refuses trades that complete a rival's group unless paid well for it.
- Sells spare places (outside its groups, far from any group of the buyer) a little under list
  price to fund houses, and heads-up at any time: cash the rival cannot build with.
- Raises cash by the cheapest sales first: mortgages of places outside its groups, then the rest,
  then buildings from its cheapest group.
- Leaves jail at once early in the game; stays (rolls) late when the board is full of houses.
"""

from __future__ import annotations

from byapar_env.action_table import TRADE_AMOUNTS as _AMOUNTS
from byapar_env.action_table import TRADE_START_IDS as _START_IDS
from byapar_env.byapar_v0 import raw_env
from byapar_env.engine import Game, Phase
from byapar_env.engine import board as B

from .tactics import (
    ACCEPT_ID,
    BID_MIN_ID,
    BUILD,
    BUY_ID,
    CANCEL_ID,
    DECLINE_ID,
    DROP_OUT_ID,
    GROUP_OF,
    HOUSE_COST,
    MORTGAGE,
    PAY_FINE_ID,
    PRICE,
    REJECT_ID,
    ROLL_ID,
    SELL,
    UNMORTGAGE,
    USE_BAIL_ID,
    TradePlan,
    list_value,
    money_step,
    others_holding_group,
)

BASE_RESERVE = 1_000
# Offers for a missing place, as multiples of its price, raised after each refusal.
OFFER_MULTIPLES = (1.05, 1.4, 2.0)
RETRY_ROUNDS = 3
LATE_ROUND_SHARE = 0.5  # past this share of the game, a dangerous board keeps it in jail
DANGEROUS_HOUSES = 8


class MediumPlayer:
    name = "medium"

    def __init__(self) -> None:
        self.reset()

    def reset(self, seed: int | None = None) -> None:
        """Forget the last game: the trade plan and the offers already tried."""
        self.plan: TradePlan | None = None
        self.tried: dict[tuple[int, int], tuple[int, int]] = {}  # (seat, square): (round, count)
        self._reserve_at: tuple[int, int] = (-1, 0)

    # ------------------------------------------------------------------ judgement
    def reserve(self, game: Game, seat: int) -> int:
        """Cash to keep: a base plus most of the biggest rent an opponent's place charges."""
        if self._reserve_at[0] == game.version:
            return self._reserve_at[1]
        danger = 0
        for sq in B.PLACES:
            o = game.owner[sq]
            if o >= 0 and o != seat and not game.mortgaged[sq]:
                r = game.rent(sq, 7)
                if r > danger:
                    danger = r
        value = BASE_RESERVE + min(danger // 2, 3_000)
        self._reserve_at = (game.version, value)
        return value

    def place_value(self, game: Game, sq: int, seat: int) -> int:
        """What ``sq`` is worth to ``seat`` if it came to them."""
        price = PRICE[sq]
        kind = B.SQUARES[sq].kind
        if kind == B.TRANSPORT:
            held = sum(1 for t in B.TRANSPORTS if game.owner[t] == seat and t != sq)
            return int(price * (1.0 + 0.25 * held))
        if kind == B.UTILITY:
            other = any(game.owner[u] == seat for u in B.UTILITIES if u != sq)
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

    def _dangerous_board(self, game: Game, seat: int) -> bool:
        houses = sum(game.buildings[s] for s in B.CITIES if game.owner[s] not in (-1, seat))
        return houses >= DANGEROUS_HOUSES

    # ------------------------------------------------------------------ deciding
    def act(self, env: raw_env, seat: int) -> int:
        game = env.game
        legal = env.legal_action_ids()
        if env.draft is not None:
            step = self.plan.next(legal) if self.plan is not None else None
            return step if step is not None else CANCEL_ID
        ph = game.phase
        if ph == Phase.PRE_ROLL:
            return self._pre_roll(game, seat, legal)
        if ph == Phase.BUY:
            sq = game.pending_square
            price = PRICE[sq]
            cash = game.cash[seat]
            if cash - price >= self.reserve(game, seat) // 2:
                return BUY_ID
            return BUY_ID if self.place_value(game, sq, seat) > price else DECLINE_ID
        if ph == Phase.AUCTION:
            a = game.auction
            value = self.place_value(game, a.square, seat)
            limit = min(value, game.cash[seat] - self.reserve(game, seat) // 3)
            return BID_MIN_ID if a.high + B.BID_STEP <= limit else DROP_OUT_ID
        if ph == Phase.TRADE_ANSWER:
            return ACCEPT_ID if self._trade_is_good(game, seat) else REJECT_ID
        return self._raise_cash(game, seat, legal)

    def _pre_roll(self, game: Game, seat: int, legal: list[int]) -> int:
        cash = game.cash[seat]
        reserve = self.reserve(game, seat)
        if game.in_jail[seat]:
            late = game.round > game.rules.round_limit * LATE_ROUND_SHARE
            if not (late and self._dangerous_board(game, seat)):
                if USE_BAIL_ID in legal:
                    return USE_BAIL_ID
                if PAY_FINE_ID in legal:
                    return PAY_FINE_ID
        # Pay off mortgages in groups it holds whole: that unlocks building there.
        for sq in B.PLACES:
            i = UNMORTGAGE.get(sq)
            if i in legal and game.owns_group(seat, sq) and cash - PRICE[sq] >= reserve:
                return i
        offer = self._plan_offer(game, seat, legal)
        if offer is not None:
            return offer
        build = self._best_build(game, seat, legal, cash - reserve)
        if build is not None:
            return build
        # Houses pay; idle places do not: sell a spare place for cash to build, or else mortgage
        # places outside its groups (a mortgage keeps net worth: cash replaces the half price).
        if self._best_build(game, seat, legal, 10**9) is not None:
            sale = self._plan_sale(game, seat, legal)
            if sale is not None:
                return sale
            for sq in B.PLACES:
                i = MORTGAGE[sq]
                if i in legal and not game.owns_group(seat, sq):
                    return i
            return ROLL_ID
        # With nothing to build, pay off other mortgages when comfortably rich.
        for sq in B.PLACES:
            i = UNMORTGAGE.get(sq)
            if i in legal and cash - PRICE[sq] >= 2 * reserve:
                return i
        # Heads-up, a spare place is worth more as cash for the next houses, and the rival's
        # cash then cannot go into houses of its own. (With more players it feeds them all.)
        if len(game.active_seats()) == 2:
            sale = self._plan_sale(game, seat, legal)
            if sale is not None:
                return sale
        return ROLL_ID

    def _best_build(self, game: Game, seat: int, legal: list[int], spare: int) -> int | None:
        """The next house: three on the best group first, then beyond."""
        best = None
        for sq in B.CITIES:
            i = BUILD[sq]
            if i not in legal or HOUSE_COST[sq] > spare:
                continue
            level = game.buildings[sq]
            # Lower level first (the third house pays most per rupee); then the cheaper group.
            key = (min(level, 3), HOUSE_COST[sq], sq)
            if best is None or key < best[0]:
                best = (key, i)
        return None if best is None else best[1]

    def _plan_offer(self, game: Game, seat: int, legal: list[int]) -> int | None:
        """Start an offer for the one place missing from a group, if worth trying: a spare place
        of its own of about the same list value (one that does not finish the other player's
        group), topped up with money, or money alone at a price raised on each refusal."""
        n = game.num_players
        if not any(i in legal for i in _START_IDS[:n - 1]):
            return None
        for group in B.GROUPS.values():
            missing = [s for s in group if game.owner[s] != seat]
            if len(missing) != 1:
                continue
            sq = missing[0]
            holder = game.owner[sq]
            if holder < 0 or game.bankrupt[holder] or any(game.buildings[s] for s in group):
                continue
            round_tried, count = self.tried.get((holder, sq), (-RETRY_ROUNDS, 0))
            if game.round - round_tried < RETRY_ROUNDS or count >= len(OFFER_MULTIPLES):
                continue
            want = int(PRICE[sq] * OFFER_MULTIPLES[count])
            give = self._spare_place(game, seat, holder, want)
            give_value = list_value(game, [give]) if give is not None else 0
            amount = money_step(want - give_value) if want > give_value else 0
            if want > give_value and not amount:
                continue
            if game.cash[seat] - amount < self.reserve(game, seat) // 2:
                continue
            self.tried[(holder, sq)] = (game.round, count + 1)
            self.plan = TradePlan(seat, holder, n, [give] if give is not None else [], [sq],
                                  amount)
            step = self.plan.next(legal)
            if step is not None and step != CANCEL_ID:
                return step
        return self._plan_block(game, seat, legal)

    def _plan_block(self, game: Game, seat: int, legal: list[int]) -> int | None:
        """Offer money for one place of a group a single rival holds all or all but one of,
        before the rival can build there."""
        n = game.num_players
        if len(game.active_seats()) < 3:
            return None  # heads-up, paying the only rival to block costs more than it saves
        for group in B.GROUPS.values():
            rival = game.owner[group[0]]
            if rival < 0 or rival == seat or any(game.buildings[s] for s in group):
                continue
            held = [s for s in group if game.owner[s] == rival]
            if len(held) < len(group) - 1 or any(game.owner[s] == seat for s in group):
                continue
            sq = min(held, key=PRICE.__getitem__)
            round_tried, count = self.tried.get((rival, sq), (-RETRY_ROUNDS, 0))
            if game.round - round_tried < RETRY_ROUNDS or count >= len(OFFER_MULTIPLES):
                continue
            amount = money_step(int(PRICE[sq] * OFFER_MULTIPLES[count]))
            if not amount or game.cash[seat] - amount < self.reserve(game, seat):
                continue
            self.tried[(rival, sq)] = (game.round, count + 1)
            self.plan = TradePlan(seat, rival, n, [], [sq], amount)
            step = self.plan.next(legal)
            if step is not None and step != CANCEL_ID:
                return step
        return None

    def _plan_sale(self, game: Game, seat: int, legal: list[int]) -> int | None:
        """Offer a spare place for a little under its list price to the richest other player
        who would not come close to a whole group by it."""
        n = game.num_players
        if not any(i in legal for i in _START_IDS[:n - 1]):
            return None
        buyers = sorted((s for s in range(n) if s != seat and not game.bankrupt[s]),
                        key=lambda s: -game.cash[s])
        for buyer in buyers:
            place = self._spare_place(game, seat, buyer, 10**9, keep_away=True)
            if place is None:
                return None
            if (buyer, place) in self.tried:
                continue
            ask = max((a for a in _AMOUNTS if a < list_value(game, [place])), default=0)
            if ask < list_value(game, [place]) * 0.75 or ask > game.cash[buyer]:
                continue
            self.tried[(buyer, place)] = (game.round, len(OFFER_MULTIPLES))
            self.plan = TradePlan(seat, buyer, n, [place], [], -ask)
            step = self.plan.next(legal)
            if step is not None and step != CANCEL_ID:
                return step
        return None

    def _spare_place(self, game: Game, seat: int, other: int, want: int,
                     keep_away: bool = False) -> int | None:
        """A place of ``seat``'s worth at most ``want`` that it can spare: outside any group it
        has a stake in, unbuilt, and not the last piece of ``other``'s group (with
        ``keep_away``, not even one that would leave ``other`` one place short of it)."""
        best = None
        for s in game.places_of(seat):
            group = GROUP_OF[s]
            if group is not None:
                if any(game.buildings[g] for g in group):
                    continue
                if any(game.owner[g] == seat for g in group if g != s):
                    continue  # part of a group it is building towards
                if all(game.owner[g] == other for g in group if g != s):
                    continue  # would finish the other player's group
                if keep_away and any(game.owner[g] == other for g in group if g != s):
                    continue
            elif B.SQUARES[s].kind == B.TRANSPORT:
                continue  # transports pay more the more it holds
            value = list_value(game, [s])
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

    def _raise_cash(self, game: Game, seat: int, legal: list[int]) -> int:
        """The cheapest sale: a mortgage outside its groups, another mortgage, a building."""
        best = None
        for sq in B.PLACES:
            i = MORTGAGE[sq]
            if i in legal:
                cost = PRICE[sq] * (3 if game.owns_group(seat, sq) else 1)
                if best is None or cost < best[0]:
                    best = (cost, i)
        if best is not None:
            return best[1]
        sales = [sq for sq in B.CITIES if SELL[sq] in legal]
        if sales:
            return SELL[min(sales, key=lambda s: (HOUSE_COST[s], s))]
        return legal[0]
