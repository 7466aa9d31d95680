"""Ports of the EPT trading players of chrisaacson69/monopoly (research/simulation/).

Source files (commit 9161834 of github.com/chrisaacson69/monopoly):

- ``research/simulation/base-ai.js``: ``BaseAI`` (lines 19-150: completing and blocking tests,
  the reserve by game phase) and ``StrategicAI`` (lines 252-458: buying by payback of earnings
  per turn, bidding to a multiple of price, staying in jail against a built board, building the
  house of best marginal return).
- ``research/simulation/trading-ai.js``: ``TradingAI`` (lines 18-487: two-way swaps that complete
  both sides' groups with cash split by the ratio of gains, cash offers capped by payback,
  answers by property value with a blocking charge) and ``AggressiveTradingAI`` (lines
  496-534: takes any offer that completes its group unless it gives up a whole group).
- ``research/simulation/game-engine.js``: the game phase (lines 296-310), finding groups to
  complete by trade (lines 1402-1450) and raising cash (lines 1240-1300), which the source's
  engine does for every player.

Adapted to Byapar: money times ten (reserves 2,000/1,500/1,000, the acceptance slack Rs 500, the
small "own chance" charge Rs 1,000); the early phase ends when half of the 26 places are owned
(the source: 14 of 28); landing chances from a chain of this board (``common.LANDING``); bids
rise by Byapar's step of Rs 100 instead of $10; trade money is put on the environment's amounts
(the payer's side rounded down); the source's engine hands an offer to the other player's
``evaluateTrade`` at once, here it is an offer answered by ACCEPT or REJECT, at most three a
turn, until one is accepted (the source: one accepted trade a turn). The source never pays off
a mortgage; neither do these.
"""

from __future__ import annotations

from byapar_env.engine import Action, ActionKind, Game, Phase, actions, board

from ..base import EnginePlayer
from .common import (
    GROUP_OF,
    GROUPS,
    HOUSE_COST,
    LANDING,
    PRICE,
    SCALE,
    bid_or_drop,
    held,
    legal_of,
    others,
    pay_at_most,
)

EARLY_OWNED = len(board.PLACES) // 2  # the source: 14 of the classic board's 28 places
LATE_BUILDINGS = 10
RESERVE = {"early": 200 * SCALE, "mid": 150 * SCALE, "late": 100 * SCALE}
DICE_AVERAGE = 7
ACCEPT_SLACK = -50 * SCALE
OWN_CHANCE_CHARGE = 100 * SCALE
TRADE_COOLDOWN = 5  # turns


def phase(game: Game) -> str:
    owned = sum(1 for s in board.PLACES if game.owner[s] >= 0)
    built = sum(game.buildings[s] for s in board.CITIES)
    if owned < EARLY_OWNED:
        return "early"
    return "mid" if built < LATE_BUILDINGS else "late"



class StrategicPlayer(EnginePlayer):
    """``StrategicAI`` of chrisaacson69/monopoly, research/simulation/base-ai.js lines 252-458
    (with ``BaseAI``, lines 19-150): buys everything early and later by payback of earnings per
    turn, always buys to complete or block a group, bids up to price (1.5x to complete, 1.3x to
    block), builds the house of best marginal earnings per rupee, stays in jail once the rivals
    have six houses. Adapted as the module says."""

    name = "outside-chrisaacson-strategic"

    def __init__(self) -> None:
        super().__init__()
        self.reset()

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        # Per seat (one player object may be seated twice): places traded away lately, and
        # this turn's offers (turn, offers tried, the last one, whether trading is done).
        self.recent: dict[int, list[tuple[int, frozenset]]] = {}
        self.turn_offers: dict[int, tuple[int, set, Action | None, bool]] = {}

    # ---------------------------------------------------------------- BaseAI / StrategicAI
    @staticmethod
    def opponents(game: Game, seat: int) -> int:
        return len(others(game, seat))

    @staticmethod
    def would_complete(game: Game, seat: int, sq: int) -> bool:
        group = GROUP_OF[sq]
        return group is not None and len(held(game, seat, group)) == len(group) - 1

    @staticmethod
    def would_block(game: Game, seat: int, sq: int) -> bool:
        group = GROUP_OF[sq]
        if group is None:
            return False
        return any(len(held(game, o, group)) == len(group) - 1 for o in others(game, seat))

    @staticmethod
    def reserve(game: Game) -> int:
        return RESERVE[phase(game)]

    def differential_value(self, game: Game, seat: int, sq: int) -> float:
        prob, opp = LANDING[sq], self.opponents(game, seat)
        kind = board.SQUARES[sq].kind
        if kind == board.CITY:
            rents = board.SQUARES[sq].rents
            rent = rents[3] if self.would_complete(game, seat, sq) else rents[0]
            return prob * rent * opp
        if kind == board.TRANSPORT:
            count = sum(1 for t in board.TRANSPORTS if game.owner[t] == seat) + 1
            return prob * board.TRANSPORT_RENT[min(count, 4)] * opp
        count = sum(1 for u in board.UTILITIES if game.owner[u] == seat) + 1
        return prob * board.UTILITY_MULTIPLIER[min(count, 2)] * DICE_AVERAGE * opp

    def decide_buy(self, game: Game, seat: int, sq: int) -> bool:
        cash, price = game.cash[seat], PRICE[sq]
        if self.would_complete(game, seat, sq) or self.would_block(game, seat, sq):
            return cash >= price
        if cash - price < self.reserve(game):
            return False
        if phase(game) == "early":
            return True
        return price / max(self.differential_value(game, seat, sq), 0.01) < 50

    def bid_ceiling(self, game: Game, seat: int, sq: int) -> float:
        afford = game.cash[seat] - self.reserve(game)
        willing = float(PRICE[sq])
        if self.would_complete(game, seat, sq):
            willing *= 1.5
        if self.would_block(game, seat, sq):
            willing *= 1.3
        return min(willing, afford)

    def leave_jail(self, game: Game, seat: int) -> bool:
        if phase(game) == "early":
            return True
        houses = sum(game.buildings[s] for s in board.CITIES
                     if game.owner[s] >= 0 and game.owner[s] != seat)
        return houses < 6

    def marginal_roi(self, game: Game, seat: int, sq: int) -> float:
        houses = game.buildings[sq]
        rents = board.SQUARES[sq].rents
        current = rents[0] * 2 if houses == 0 else rents[houses]
        gain = LANDING[sq] * (rents[houses + 1] - current) * self.opponents(game, seat)
        return gain / HOUSE_COST[sq]

    def best_build(self, game: Game, seat: int, legal: list[Action]) -> Action | None:
        reserve = self.reserve(game)
        if game.cash[seat] <= reserve:
            return None
        best, best_roi = None, 0.0
        for a in legal_of(legal, ActionKind.BUILD):
            if game.cash[seat] - HOUSE_COST[a.square] < reserve:
                continue
            roi = self.marginal_roi(game, seat, a.square)
            if roi > best_roi:
                best, best_roi = a, roi
        return best if best is not None and best_roi > 0.001 else None

    # ---------------------------------------------------------------- trades (none here)
    def offer(self, game: Game, seat: int) -> Action | None:
        return None

    def accept(self, game: Game, seat: int) -> bool:
        return False

    # ---------------------------------------------------------------- the engine's questions
    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        ph = game.phase
        if ph == Phase.BUY:
            sq = game.pending_square
            return actions.buy(sq) if self.decide_buy(game, seat, sq) else actions.decline(sq)
        if ph == Phase.AUCTION:
            sq = game.auction.square
            return bid_or_drop(game, sq, self.bid_ceiling(game, seat, sq))
        if ph == Phase.TRADE_ANSWER:
            return actions.ACCEPT_TRADE if self.accept(game, seat) else actions.REJECT_TRADE
        if ph == Phase.RAISE_CASH:
            return self.raise_cash(game, legal)
        if game.in_jail[seat] and self.leave_jail(game, seat):
            if actions.USE_BAIL_CARD in legal:
                return actions.USE_BAIL_CARD
            if actions.PAY_FINE in legal:
                return actions.PAY_FINE
        offer = self.offer(game, seat)
        if offer is not None:
            return offer
        build = self.best_build(game, seat, legal)
        return build if build is not None else actions.ROLL

    @staticmethod
    def raise_cash(game: Game, legal: list[Action]) -> Action:
        """game-engine.js ``raiseCash``: sell from the most built place first, then mortgage
        the cheapest place."""
        sales = legal_of(legal, ActionKind.SELL_BUILDING)
        if sales:
            return max(sales, key=lambda a: (game.buildings[a.square], -a.square))
        mortgages = legal_of(legal, ActionKind.MORTGAGE)
        if mortgages:
            return min(mortgages, key=lambda a: (PRICE[a.square], a.square))
        return legal[0]


class TradingPlayer(StrategicPlayer):
    """``TradingAI`` of chrisaacson69/monopoly, research/simulation/trading-ai.js lines 18-487:
    for each group it holds part of, with nothing left unowned and the rest held by one rival,
    it looks for a swap that completes both groups (its gain and the rival's gain in earnings
    per turn at three houses both positive), with cash = price difference times its share of
    the gains; failing that, money: price plus ten turns of the gain, if the whole investment
    pays back within 40 turns, at most half its cash. It answers offers by property value (more
    for transports and utilities it collects, for streets of groups it has started), plus the
    group's gain for a piece that completes its group, minus 40% of a rival's gain for a piece
    that completes the rival's group, accepting at a net of at least -Rs 500. A place it got by
    trade is not traded away for five turns."""

    name = "outside-chrisaacson-trading"
    max_cash_offer = 0.5

    # ---------------------------------------------------------------- valuation (the source's)
    def monopoly_gain(self, game: Game, seat: int, group_sq: int) -> float:
        group = GROUP_OF[group_sq]
        opp = self.opponents(game, seat)
        total = sum(LANDING[s] * board.SQUARES[s].rents[3] * opp for s in group)
        current = sum(LANDING[s] * board.SQUARES[s].rents[0] * opp for s in group
                      if game.owner[s] == seat)
        return total - current

    def property_value(self, game: Game, seat: int, sq: int) -> float:
        value = float(PRICE[sq])
        kind = board.SQUARES[sq].kind
        if kind == board.TRANSPORT:
            count = sum(1 for t in board.TRANSPORTS if game.owner[t] == seat)
            return value * (2.0 if count >= 3 else 1.5 if count >= 2 else 1.25 if count else 1.0)
        if kind == board.UTILITY:
            count = sum(1 for u in board.UTILITIES if game.owner[u] == seat)
            return value * (2.5 if count else 1.0)
        group = GROUP_OF[sq]
        owned = len(held(game, seat, group))
        return value * (1 + owned / len(group)) if owned else value

    @staticmethod
    def completes_with(game: Game, seat: int, sq: int, extra) -> bool:
        group = GROUP_OF[sq]
        if group is None:
            return False
        return all(game.owner[s] == seat or s == sq or s in extra for s in group)

    def blocking_value(self, game: Game, seat: int, sq: int, rival: int) -> float:
        group = GROUP_OF[sq]
        if group is None or len(held(game, rival, group)) + 1 != len(group):
            return 0.0
        return self.monopoly_gain(game, seat, sq)

    def evaluate(self, game: Game, seat: int) -> bool:
        """``evaluateTrade``: lines 328-374."""
        offerer, offer = game.offer
        gain = loss = 0.0
        received = set(offer.give)
        for sq in offer.give:
            gain += self.property_value(game, seat, sq)
            if self.completes_with(game, seat, sq, received):
                gain += self.monopoly_gain(game, seat, sq)
        for sq in offer.take:
            loss += self.property_value(game, seat, sq)
            blocking = self.blocking_value(game, seat, sq, offerer)
            if blocking > 0:
                loss += blocking * 0.4
            elif GROUP_OF[sq] is not None and len(held(game, seat, GROUP_OF[sq])) == 1:
                loss += OWN_CHANCE_CHARGE
        gain += offer.amount  # positive: the offerer pays
        return gain - loss >= ACCEPT_SLACK

    # ---------------------------------------------------------------- offers
    def opportunities(self, game: Game, seat: int) -> list[tuple[tuple, list[int], int]]:
        """game-engine.js ``findTradeOpportunities``: (group, places needed, their holder)."""
        out = []
        for group in GROUPS:
            mine = held(game, seat, group)
            if not mine or len(mine) == len(group):
                continue
            if any(game.owner[s] < 0 for s in group):
                continue
            by_owner: dict[int, list[int]] = {}
            for s in group:
                o = game.owner[s]
                if o != seat and not game.bankrupt[o]:
                    by_owner.setdefault(o, []).append(s)
            for o, needed in by_owner.items():
                out.append((group, needed, o))
        return out

    def their_needs(self, game: Game, rival: int) -> list[tuple[tuple, list[int], list[int]]]:
        needs = []
        for group in GROUPS:
            theirs = held(game, rival, group)
            if not theirs or len(theirs) == len(group):
                continue
            needed = [s for s in group if game.owner[s] != rival]
            needs.append((len(theirs) / len(group), group, theirs, needed))
        needs.sort(key=lambda n: -n[0])
        return [(g, t, n) for _, g, t, n in needs]

    def mutual_cash(self, game: Game, seat: int, my_gain: float, their_gain: float,
                    gained: list[int], given: list[int]) -> int:
        ratio = my_gain / (my_gain + their_gain)
        diff = int((sum(PRICE[s] for s in gained) - sum(PRICE[s] for s in given)) * ratio)
        cap = int(game.cash[seat] * self.max_cash_offer)
        return max(-cap, min(cap, diff))

    def cash_offer(self, game: Game, seat: int, needed: list[int], my_gain: float) -> int:
        base = sum(PRICE[s] for s in needed)
        offer = base + int(my_gain * 10)
        cap = int(game.cash[seat] * self.max_cash_offer)
        investment = offer + HOUSE_COST[needed[0]] * 3 * len(needed)
        if my_gain > 0 and investment / my_gain > 40:
            return 0
        return min(offer, cap)

    def monopoly_trade(self, game: Game, seat: int, group, needed: list[int],
                       rival: int) -> Action | None:
        """``evaluateMonopolyTrade``: lines 98-185."""
        if len(held(game, seat, group)) + len(needed) != len(group):
            return None
        my_gain = self.monopoly_gain(game, seat, group[0])
        for their_group, theirs, their_needed in self.their_needs(game, rival):
            if their_group == group:
                continue
            can_offer = [s for s in their_needed
                         if game.owner[s] == seat and game.buildings[s] == 0]
            if not can_offer or len(theirs) + len(can_offer) != len(their_group):
                continue
            if len(can_offer) != len(their_needed):
                continue
            their_gain = self.monopoly_gain(game, seat, their_group[0])
            if my_gain > 0 and their_gain > 0:
                cash = self.mutual_cash(game, seat, my_gain, their_gain, needed, can_offer)
                if cash > 0 and game.cash[seat] < cash:
                    continue
                amount = pay_at_most(cash) if cash > 0 else -pay_at_most(-cash)
                return actions.offer_trade(rival, can_offer, needed, amount)
        cash = self.cash_offer(game, seat, needed, my_gain)
        if cash > 0 and game.cash[seat] >= cash:
            amount = pay_at_most(cash)
            if amount:
                return actions.offer_trade(rival, [], needed, amount)
        return None

    def offer(self, game: Game, seat: int) -> Action | None:
        """``attemptTrades``: lines 46-93, one offer at a time until one is accepted."""
        if not game.can_offer_trade():
            return None
        turn = game.turn_count
        stamp, tried, last, done = self.turn_offers.get(seat, (-1, set(), None, False))
        if stamp != turn:
            tried, last, done = set(), None, False
        if last is not None and all(game.owner[s] == seat for s in last.take):
            self._gave(game, seat, last.give)  # accepted: one trade a turn
            done = True
        if done:
            self.turn_offers[seat] = (turn, tried, None, True)
            return None
        given = [g for t, g in self.recent.get(seat, []) if turn - t < TRADE_COOLDOWN]
        for group, needed, rival in self.opportunities(game, seat):
            action = self.monopoly_trade(game, seat, group, needed, rival)
            if action is None or action in tried:
                continue
            if any(s in g for s in action.give for g in given):
                continue  # do not trade back what it traded away lately
            if game.trade_error(action) is not None:
                continue
            tried.add(action)
            self.turn_offers[seat] = (turn, tried, action, False)
            return action
        self.turn_offers[seat] = (turn, tried, None, True)
        return None

    def _gave(self, game: Game, seat: int, places) -> None:
        self.recent.setdefault(seat, []).append((game.turn_count, frozenset(places)))

    def accept(self, game: Game, seat: int) -> bool:
        if self.evaluate(game, seat):
            self._gave(game, seat, game.offer[1].take)
            return True
        return False


class AggressiveTradingPlayer(TradingPlayer):
    """``AggressiveTradingAI`` of chrisaacson69/monopoly, research/simulation/trading-ai.js
    lines 496-534: the trading player, offering up to 70% of its cash, and taking any offer
    that completes one of its groups unless it gives away a place of a group it holds whole;
    other offers as the trading player answers them."""

    name = "outside-chrisaacson-aggressive"
    max_cash_offer = 0.7

    def accept(self, game: Game, seat: int) -> bool:
        _, offer = game.offer
        received = set(offer.give)
        for sq in offer.give:
            if self.completes_with(game, seat, sq, received):
                giving_whole = any(GROUP_OF[s] is not None and game.owns_group(seat, s)
                                   for s in offer.take)
                if not giving_whole:
                    self._gave(game, seat, offer.take)
                    return True
        return super().accept(game, seat)


__all__ = ["AggressiveTradingPlayer", "StrategicPlayer", "TradingPlayer"]
