"""Port of the test AI of the browser Monopoly game by intrepidcoder (github.com/intrepidcoder/
monopoly, ``ai.js``), read as kept in github.com/chrisaacson69/monopoly at
``source-material/js/ai.js`` (commit 9161834), lines 1-209.

Adapted to Byapar: money times ten (the $50 margins are Rs 500, the $100 building margin Rs
1,000, the $25 trade margin Rs 250, random raises of $10-30 are Rs 100-300 since Byapar bids go
in hundreds); the source offers its utility-for-railroad swap on landing, Byapar takes offers
before rolling, so it is offered then (once a game, as the source's flag does, and without the
source's no-double test, which only kept it off a turn with another roll to come); the source
answers some refused offers with a counter-offer, which Byapar's protocol does not have, so
those are refused; bail cards are not traded in Byapar (the source counts $10 each).
"""

from __future__ import annotations

from byapar_env.engine import Action, ActionKind, Game, Phase, actions, board

from ..base import EnginePlayer
from .common import GROUP_OF, HOUSE_COST, PRICE, SCALE, forced_sale, legal_of, rng


class IntrepidTestPlayer(EnginePlayer):
    """``AITest`` of intrepidcoder/monopoly (source-material/js/ai.js lines 1-209 of
    chrisaacson69/monopoly):

    - buys when its cash is above the price plus Rs 500 (lines 14-24);
    - accepts an offer worth more than Rs 250 to it, counting places at price (half when
      mortgaged) and money, and nothing else (lines 30-61);
    - builds on each whole group one house per place it owns there each turn, on the place
      with fewest houses, when its cash is above the house cost plus Rs 1,000, and pays off a
      mortgage when its cash is above the full price (lines 65-116);
    - holding one utility, offers it once a game for a transport held by a rival (lines
      118-160);
    - leaves jail only by a bail card on its third try, never by the fine (lines 164-173);
    - raises cash by mortgaging from the last square back (lines 177-192);
    - bids a random Rs 100-300 over the highest bid while that stays at most 1.5x the price and
      Rs 500 under its cash (lines 196-208).
    """

    name = "outside-intrepid-aitest"

    def __init__(self) -> None:
        super().__init__()
        self.reset()

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        self.swap_offered: set[int] = set()  # seats that made the utility-for-transport offer
        self.built: dict[int, tuple[int, dict]] = {}  # seat: (turn, houses built per group)

    def trade_value(self, game: Game) -> int:
        _, offer = game.offer
        value = offer.amount
        for s in offer.give:
            value += PRICE[s] // 2 if game.mortgaged[s] else PRICE[s]
        for s in offer.take:
            value -= PRICE[s] // 2 if game.mortgaged[s] else PRICE[s]
        return value

    def utility_swap(self, game: Game, seat: int) -> Action | None:
        if seat in self.swap_offered or not game.can_offer_trade():
            return None
        rail = next((t for t in board.TRANSPORTS if game.owner[t] >= 0 and game.owner[t] != seat),
                    None)
        mine = [u for u in board.UTILITIES if game.owner[u] == seat]
        if rail is None or len(mine) != 1:
            return None
        self.swap_offered.add(seat)
        offer = actions.offer_trade(game.owner[rail], mine, [rail], 0)
        return offer if game.trade_error(offer) is None else None

    def build(self, game: Game, seat: int, legal: list[Action]) -> Action | None:
        turn = game.turn_count
        stamp, done = self.built.get(seat, (-1, {}))
        if stamp != turn:
            done = {}
            self.built[seat] = (turn, done)
        builds = {a.square for a in legal_of(legal, ActionKind.BUILD)}
        for sq in board.CITIES:
            group = GROUP_OF[sq]
            if game.owner[sq] != seat or not all(game.owner[s] == seat for s in group):
                continue
            if done.get(group, 0) >= len(group):
                continue
            # The place with fewest houses, the last of the group on a tie (the source looks
            # from the last place back and keeps the first strictly fewer).
            least = min(reversed(group), key=lambda s: game.buildings[s])
            if least in builds and game.cash[seat] > HOUSE_COST[least] + 100 * SCALE:
                done[group] = done.get(group, 0) + 1
                return actions.build(least)
        return None

    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        ph = game.phase
        if ph == Phase.BUY:
            sq = game.pending_square
            return (actions.buy(sq) if game.cash[seat] > PRICE[sq] + 50 * SCALE
                    else actions.decline(sq))
        if ph == Phase.AUCTION:
            a = game.auction
            raise_by = round(rng(game, seat, "bid").random() * 20 + 10) * SCALE
            bid = -(-(a.high + raise_by) // board.BID_STEP) * board.BID_STEP
            if game.cash[seat] < bid + 50 * SCALE or bid > PRICE[a.square] * 1.5:
                return actions.DROP_OUT
            return actions.bid(a.square, bid)
        if ph == Phase.TRADE_ANSWER:
            return (actions.ACCEPT_TRADE if self.trade_value(game) > 25 * SCALE
                    else actions.REJECT_TRADE)
        if ph == Phase.RAISE_CASH:
            mortgages = legal_of(legal, ActionKind.MORTGAGE)
            if mortgages:
                return max(mortgages, key=lambda a: a.square)
            return forced_sale(legal)
        if game.in_jail[seat] and game.jail_misses[seat] == 2 and actions.USE_BAIL_CARD in legal:
            return actions.USE_BAIL_CARD
        swap = self.utility_swap(game, seat)
        if swap is not None:
            return swap
        build = self.build(game, seat, legal)
        if build is not None:
            return build
        for a in sorted(legal_of(legal, ActionKind.UNMORTGAGE), key=lambda a: -a.square):
            if game.cash[seat] > PRICE[a.square]:
                return a
        return actions.ROLL
