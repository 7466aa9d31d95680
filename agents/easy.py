"""The easy player: a casual player's habits.

Buys what it can afford while keeping a small reserve, bids at most the price at auctions,
builds whenever it can, answers trades by comparing list values (places at price, money at face),
never offers trades, and pays to leave jail at once. Raises cash by mortgaging the cheapest place,
then selling buildings.
"""

from __future__ import annotations

from byapar_env.byapar_v0 import raw_env
from byapar_env.engine import Phase
from byapar_env.engine import board as B

from .tactics import (
    ACCEPT_ID,
    BID_MIN_ID,
    BUILD,
    BUY_ID,
    DECLINE_ID,
    DROP_OUT_ID,
    MORTGAGE,
    PAY_FINE_ID,
    PRICE,
    REJECT_ID,
    ROLL_ID,
    SELL,
    USE_BAIL_ID,
    list_value,
)

RESERVE = 500


class EasyPlayer:
    name = "easy"

    def act(self, env: raw_env, seat: int) -> int:
        game = env.game
        legal = env.legal_action_ids()
        ph = game.phase
        cash = game.cash[seat]
        if env.draft is not None:  # never composes trades; a stray draft is cancelled
            return legal[0]
        if ph == Phase.PRE_ROLL:
            if game.in_jail[seat]:
                if USE_BAIL_ID in legal:
                    return USE_BAIL_ID
                if PAY_FINE_ID in legal:
                    return PAY_FINE_ID
            for sq in B.CITIES:
                i = BUILD[sq]
                if i in legal and cash - B.SQUARES[sq].house_cost >= RESERVE:
                    return i
            return ROLL_ID
        if ph == Phase.BUY:
            price = PRICE[game.pending_square]
            return BUY_ID if cash - price >= RESERVE else DECLINE_ID
        if ph == Phase.AUCTION:
            a = game.auction
            limit = min(PRICE[a.square], cash - RESERVE)
            return BID_MIN_ID if a.high + B.BID_STEP <= limit else DROP_OUT_ID
        if ph == Phase.TRADE_ANSWER:
            offerer, offer = game.offer
            value_in = list_value(game, offer.give) + offer.amount
            value_out = list_value(game, offer.take)
            return ACCEPT_ID if value_in > value_out else REJECT_ID
        # Raising cash: the cheapest mortgage first, then any building sale.
        mortgages = [sq for sq in B.PLACES if MORTGAGE[sq] in legal]
        if mortgages:
            return MORTGAGE[min(mortgages, key=PRICE.__getitem__)]
        for sq in B.CITIES:
            if sq in SELL and SELL[sq] in legal:
                return SELL[sq]
        return legal[0]
