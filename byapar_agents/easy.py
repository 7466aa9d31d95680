"""The easy player: a casual player's habits.

Buys what it can afford while keeping a small reserve, bids at most the price at auctions,
builds whenever it can, answers trades by comparing list values (places at price, money at face),
never offers trades, and pays to leave jail at once. Raises cash by mortgaging the cheapest place,
then selling buildings.
"""

from __future__ import annotations

from byapar_env.engine import Action, ActionKind, Game, Phase, actions, board

from .base import EnginePlayer
from .tactics import HOUSE_COST, PRICE, list_value

RESERVE = 500


class EasyPlayer(EnginePlayer):
    name = "easy"

    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        ph = game.phase
        cash = game.cash[seat]
        if ph == Phase.PRE_ROLL:
            if game.in_jail[seat]:
                if actions.USE_BAIL_CARD in legal:
                    return actions.USE_BAIL_CARD
                if actions.PAY_FINE in legal:
                    return actions.PAY_FINE
            for a in legal:
                if a.kind == ActionKind.BUILD and cash - HOUSE_COST[a.square] >= RESERVE:
                    return a
            return actions.ROLL
        if ph == Phase.BUY:
            sq = game.pending_square
            return actions.buy(sq) if cash - PRICE[sq] >= RESERVE else actions.decline(sq)
        if ph == Phase.AUCTION:
            a = game.auction
            bid = a.high + board.BID_STEP
            if bid <= min(PRICE[a.square], cash - RESERVE):
                return actions.bid(a.square, bid)
            return actions.DROP_OUT
        if ph == Phase.TRADE_ANSWER:
            _, offer = game.offer
            value_in = list_value(game, offer.give) + offer.amount
            value_out = list_value(game, offer.take)
            return actions.ACCEPT_TRADE if value_in > value_out else actions.REJECT_TRADE
        # Raising cash: the cheapest mortgage first, then the first building sale.
        mortgages = [a for a in legal if a.kind == ActionKind.MORTGAGE]
        if mortgages:
            return min(mortgages, key=lambda a: PRICE[a.square])
        return legal[0]
