"""Businessman's random and easy players.

random: a uniformly random legal action (seeded).

easy, a casual player's habits: buys a lot when 50,000 cr would be left, builds whenever a whole
group allows it with the same reserve, never takes a side track, a fork or the Hotel's options,
never plays an Exchange card or trades shares, takes the first colour offered, never proposes a
trade and answers one by list values (lots at price, shares at the current price, cash at face),
and raises funds by pledging its cheapest lot, then selling buildings.
"""

from __future__ import annotations

import random

from byapar_env.businessman import Action, ActionKind, Game, Phase, actions, board
from byapar_env.businessman.game import purchase_price

from .base import BusinessmanPlayer

EASY_RESERVE = 50_000
_PRICE = tuple(c.price for c in board.CELLS)
_BUILD_COST = {ActionKind.BUILD_BRANCH: tuple(c.branch_cost for c in board.CELLS),
               ActionKind.BUILD_ENTERPRISE: tuple(c.enterprise_cost for c in board.CELLS)}


class RandomPlayer(BusinessmanPlayer):
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def reset(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        return legal[int(self.rng.random() * len(legal))]


def list_value(game: Game, seat: int, lots: list[int], shares: list[int], cash: int) -> int:
    """Lots at their printed price, shares at the current prices, cash at face: what ``seat``
    receives (positive) in a trade, seen by a casual player."""
    return (sum(_PRICE[c] for c in lots)
            + sum(n * p for n, p in zip(shares, game.prices, strict=True)) * board.FIGURES.point
            + cash)


class EasyPlayer(BusinessmanPlayer):
    name = "easy"

    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        ph = game.phase
        cash = game.cash[seat]
        if ph == Phase.PRE_ROLL:
            for a in legal:
                if a.kind in _BUILD_COST and cash - _BUILD_COST[a.kind][a.arg] >= EASY_RESERVE:
                    return a
            return actions.ROLL
        if ph == Phase.BUY:
            c = game.pending_cell
            if actions.buy(c) in legal and cash - purchase_price(c) >= EASY_RESERVE:
                return actions.buy(c)
            return actions.decline(c)
        if ph == Phase.FORK:
            return actions.no(game.fork)
        if ph == Phase.HOTEL_MENU:
            return actions.hotel(board.HOTEL_NOTHING)
        if ph == Phase.EXCHANGE_CARD:
            return actions.SKIP_CARD
        if ph == Phase.EXCHANGE_TRADE:
            return actions.END_SESSION
        if ph == Phase.TRADE_ANSWER:
            t = game.trade
            # The proposer gives t.give, t.shares and t.cash (signed) and takes t.take.
            value_in = list_value(game, seat, t.give, [max(x, 0) for x in t.shares],
                                  max(t.cash, 0))
            value_out = list_value(game, seat, t.take, [max(-x, 0) for x in t.shares],
                                   max(-t.cash, 0))
            return actions.ACCEPT_TRADE if value_in > value_out and actions.ACCEPT_TRADE in legal \
                else actions.REJECT_TRADE
        if ph == Phase.TRADE_COMPOSE:
            return actions.CANCEL_TRADE
        if ph == Phase.RAISE_CASH:
            pledges = [a for a in legal if a.kind == ActionKind.MORTGAGE]
            if pledges:
                return min(pledges, key=lambda a: _PRICE[a.arg])
        return legal[0]  # a colour pick: the first offered; any other single choice
