"""Port of the computer player of Bradderz65/MonopolyMain (github.com/Bradderz65/MonopolyMain,
commit 02f8a42), a browser Monopoly game whose ``MonopolyBot`` joins a table over a socket and
plays by a score for buying, a premium-priced trade judgement and a colour ranking, at three
difficulties. This is its hard difficulty (``DIFFICULTY_CONFIGS.hard``).

Source files (commit 02f8a42):

- ``server/bot.js`` lines 85-115 (the hard settings), 205-224 (the colour ranking: orange 10,
  red 9, yellow 8, light blue 7, pink 6, green 5, dark blue 4, brown 3, which the hard
  difficulty's full colour awareness leaves as it is), 415-431 (the game phase: under 30% of
  the places owned early, under 70% mid, then late), 436-605 (who holds what: groups one piece
  short, a place of its own that stands between a rival and a group), 614-672 (answering an
  offer, and refusing one it has turned down twice without looking again for a while),
  678-891 (the trade judgement and its value of a place), 896-1061 (proposing a trade for the
  last piece of a group), 1067-1161 (buying), 1167-1262 (building), 1273-1345 (auctions),
  1402-1437 and 1495-1536 (the order of a turn), 1446-1476 (jail), 1538-1629 (raising cash);
- ``server/game.js`` lines 253-304 (three missed jail rolls cost the fine), 605-675 (the
  auction: the player who declined has passed), 677-731 (even building, five at most),
  813-877 (trades carry places, money and bail cards, with no test on buildings).

Adapted to Byapar:

- Money times ten (``common.SCALE``): the $100 cash reserve is Rs 1,000 (halved early, half as
  much again late when buying), the $200 "cheap place" line of the buying score Rs 2,000, the
  $200 jail line Rs 2,000, the $50 least building budget Rs 500. Everything else it computes
  is a multiple of a price, so it scales by itself. The classic colours are Byapar's groups in
  board order (``common.CLASSIC_SET``): orange is Madhesh (rank 10), red Koshi, yellow
  Gandaki, light blue Sudurpashchim, pink Lumbini, green Bagmati, dark blue Capital, brown
  Karnali (rank 3); transports and utilities have no colour (rank 5 where the source defaults
  to 5, none where it skips them). The phase counts Byapar's 26 places (the source: 28).
- Its timed play becomes turns. The source waits between moves (about ten seconds a turn of a
  bot table: a roll, a second for the board, a pause after landing, a buy, the end) and keeps
  its trade memory in milliseconds; here one table turn (``Game.turn_count``) is ten seconds:
  a place it asked for is asked again only after min(12 x asks, 30) turns (2 to 5 minutes)
  and never after five asks; an offer it has refused twice or more is refused unread for
  min(6 x refusals, 30) turns (1 to 5 minutes); its 15 s between proposals is 1.5 turns.
- Buying, jail and trades: the source proposes at the start of its turn, before jail and the
  roll; so here, before rolling, at the first decision of the turn (not after a double: the
  source rolls again without starting a turn), one proposal a turn. Byapar answers at once;
  there the answer came a few seconds later. Its jail choice is made then too, with its
  attempts read as Byapar's misses; Byapar's third miss pays the fine, as its server does.
- Building: the source plans up to ten houses at the end of its turn, after moving; Byapar
  builds only before a roll, so the plan is made once at the start of each turn (after the
  offer and the jail choice) and built one house a decision; a planned house that is not legal
  is skipped, as its server refuses it and takes the rest.
- Auctions: the source's server lets every bidder bid at any time and the player who declined
  has passed; Byapar asks the bidders in turn, the one who declined last. So it drops out of
  the auction of a place it landed on, and otherwise bids its source's raise over the highest
  bid ($6-20: the least raise of $1 plus a random $5-19, from the seeded draw ``common.rng``),
  Rs 60-200 rounded up to Byapar's step of Rs 100, at most its limit rounded down to the step,
  while the least legal bid stays within the limit. Its opening bid ($15-29) is Rs 200: Rs 300
  is no bid of the environment's table (the least raise, and raises of 200, 500, 1,000 and
  2,000). There every bid reaches every bot, the highest bidder included, which then raises
  its own bid; Byapar never asks the highest bidder, so that habit has no counterpart.
- Trades: a Byapar offer carries places both ways and one sum of money, paid by one side; bail
  cards are not traded (the source counts them $50). Money is put on the environment's trade
  amounts, the payer's side rounded down (``common.pay_at_most``), after the source's tests on
  the exact sum. Its own places are looked at in board order (the source: the order it got
  them). An offer that Byapar forbids (a place whose group has buildings, which its server
  would let through) is not made, and the search goes on. At hard it looks for a proposal
  every turn (its frequency 1.0: the source's random draw against it never skips), so no draw.
- Raising cash: as the source, houses from its worst-ranked whole group first, then the
  cheapest place without buildings; where Byapar wants a choice it would not make, the first
  building sale offered (``common.forced_sale``).
- Source quirks kept: a gift of two pieces of a group it holds one of is not "completing" (it
  tests one piece at a time against its current holding); any rival one short of a group makes
  a place of that group "give a monopoly", whoever the offer is from; ``buildWhenCashAbove``
  is set but never read, so it builds whenever the budget allows; its cooldown counter counts
  asks, not refusals; the piece it asks for always completes its group, so the completing
  premium (1.2x, +0.15x an ask) always outbids its plain escalation (0.9x, +0.2x an ask); it
  never pays a mortgage off, so a group with a mortgaged place is never built on again.
  Dropped: the names, delays, logging, the turn watchdog, reconnection.
"""

from __future__ import annotations

import math

from byapar_env.engine import Action, Game, Phase, actions, board, mortgage_value

from ..base import EnginePlayer
from .common import (
    CLASSIC_SET,
    GROUP_OF,
    GROUPS,
    HOUSE_COST,
    PRICE,
    SCALE,
    forced_sale,
    held,
    others,
    pay_at_most,
    rng,
    whole_groups,
)

# DIFFICULTY_CONFIGS.hard (bot.js lines 85-115), money times ten.
BUY_THRESHOLD = 0.25
MIN_CASH_RESERVE = 100 * SCALE
BLOCK_BONUS = 0.5
COMPLETION_BONUS = 0.7
MAX_BUILDING_SPEND = 0.6
AUCTION_SHARE = 0.85
TRADE_ACCEPT_RATIO = 1.0
CASH_MULTIPLIER = 1.5
BLOCKING_MULTIPLIER = 2.5
GIVEAWAY_MULTIPLIER = 3.0
JAIL_PAY_ABOVE = 200 * SCALE
AWARENESS = 1.0  # colorGroupAwareness: 1 keeps the ranking as written
# Fixed figures of the source, money times ten.
CHEAP_PLACE = 200 * SCALE  # the buying score's bonus for a cheap place early
LEAST_BUILD_BUDGET = 50 * SCALE
MOST_HOUSES_A_TURN = 10
MOST_RAISE = 200  # the largest raise under the source's $20 the environment can bid
OVERPAY = 4.0  # money alone at four times the price is taken whatever it asks for
# Its clock in table turns, at ten seconds a turn (the module docstring).
PROPOSAL_INTERVAL = 1.5  # 15 s between proposals
ASK_COOLDOWN, ASK_COOLDOWN_CAP, MOST_ASKS = 12, 30, 5  # 2 min per ask, 5 min at most
REFUSAL_COOLDOWN, REFUSAL_COOLDOWN_CAP = 6, 30  # 1 min per refusal, 5 min at most

_BASE_RANK = {"orange": 10, "red": 9, "yellow": 8, "light_blue": 7, "purple": 6, "green": 5,
              "dark_blue": 4, "brown": 3}
RANK = {board.GROUPS[CLASSIC_SET[c]]: 6.5 + (v - 6.5) * AWARENESS for c, v in _BASE_RANK.items()}
NO_COLOUR_RANK = 5  # the source's default where a place has no colour


def game_phase(game: Game) -> str:
    """``getGamePhase`` (lines 415-431): the share of places owned."""
    owned = sum(1 for s in board.PLACES if game.owner[s] >= 0) / len(board.PLACES)
    return "early" if owned < 0.3 else "mid" if owned < 0.7 else "late"


def completes_mine(game: Game, seat: int, sq: int) -> bool:
    """``wouldCompleteMyMonopoly`` (lines 871-876): it holds all of the group but one, and
    ``sq`` is not its own."""
    group = GROUP_OF[sq]
    return (group is not None and len(held(game, seat, group)) == len(group) - 1
            and game.owner[sq] != seat)


def completes_a_rivals(game: Game, seat: int, sq: int) -> bool:
    """``wouldCompleteOpponentMonopoly`` (lines 553-572): a rival holds all of the group but
    one, and the first place of it not theirs is unowned or ``sq``."""
    group = GROUP_OF[sq]
    if group is None:
        return False
    for r in others(game, seat):
        if len(held(game, r, group)) == len(group) - 1:
            missing = next(s for s in group if game.owner[s] != r)
            if game.owner[missing] < 0 or missing == sq:
                return True
    return False


def gives_a_rival_a_set(game: Game, seat: int, sq: int) -> bool:
    """``wouldGiveOpponentMonopoly`` (lines 878-891): some rival holds all of the group but one
    (whoever would receive ``sq``)."""
    group = GROUP_OF[sq]
    return group is not None and any(len(held(game, r, group)) == len(group) - 1
                                     for r in others(game, seat))


def blocks(game: Game, seat: int, sq: int) -> bool:
    """``sq`` is among ``findBlockingProperties`` (lines 577-605): its own place, and a rival
    holds every place of the group that it does not."""
    group = GROUP_OF[sq]
    if group is None or game.owner[sq] != seat:
        return False
    mine = len(held(game, seat, group))
    return any(len(held(game, r, group)) == len(group) - mine for r in others(game, seat))


def transports_of(game: Game, seat: int) -> int:
    return sum(1 for t in board.TRANSPORTS if game.owner[t] == seat)


def place_value(game: Game, seat: int, sq: int, context: str) -> int:
    """``calculatePropertyValueAdvanced`` (lines 826-869): price and buildings, times the
    colour's rank, more to receive the piece completing its group or to give up a place that
    blocks a rival, more for a transport the more it holds; a mortgaged place at its mortgage
    plus 10%."""
    group = GROUP_OF[sq]
    value = float(PRICE[sq])
    if game.buildings[sq] > 0:
        value += game.buildings[sq] * HOUSE_COST[sq]
    rank = RANK[group] if group is not None else NO_COLOUR_RANK
    value *= 1 + rank * 0.02
    if context == "receiving" and completes_mine(game, seat, sq):
        value *= 1.8
    if context == "giving" and blocks(game, seat, sq):
        value *= 1.5
    if board.SQUARES[sq].kind == board.TRANSPORT:
        value *= 1 + transports_of(game, seat) * 0.15
    if game.mortgaged[sq]:
        value = mortgage_value(sq) * 1.1
    return math.floor(value)


class BradderzHardPlayer(EnginePlayer):
    """``MonopolyBot`` of Bradderz65/MonopolyMain (server/bot.js, commit 02f8a42) at its hard
    difficulty:

    - buys by a score of at least 0.25: affordability, early (+0.2, +0.15 for a place up to Rs
      2,000) or late (-0.1), +0.7 for the piece completing a group (else its share of the
      group held, x0.3), +0.5 for the piece a rival lacks, the colour's rank x0.02, +0.25 and
      +0.15 a transport held for a transport, +0.15 and +0.1 for a utility, +0.1 with four
      times the price in hand; never below the phase's reserve (Rs 500, 1,000, 1,500) unless
      the place completes a group (lines 1067-1148);
    - bids up to 0.85x the price, 1.8x for the piece completing its group, 1.3x for a rival's,
      1.2x for a third transport, keeping Rs 1,000 (lines 1273-1304);
    - answers offers by its value of the places each way: money alone for its places needs 1.5x
      their price, 2.5x for a place blocking a rival, 4x for one that would give a rival a
      group (any money at 4x is taken); other offers need what it receives (plus half the price
      of a completing piece) to match what it gives (plus the price again, or 1.5x the price
      when a rival gets a group), by 10% or 20% more for those (lines 678-821);
    - asks, once a turn, for the last piece of a group held by one rival: money at 0.9x to 2x
      its value (1.2x and up for the completing piece) while it has that and a reserve, else
      a place of a group the rival is one short of plus money (lines 896-1061);
    - builds evenly on its whole groups, best-ranked first, up to ten houses a turn while the
      budget (cash less Rs 1,000, at most 60% of it) allows (lines 1167-1245);
    - in jail: a bail card; else rolls late in the game on its first two tries; else pays with
      more than Rs 2,000 on its first two tries; else rolls (lines 1446-1476);
    - raises cash by selling houses from its worst-ranked group, then mortgaging its cheapest
      place without buildings (lines 1579-1629).
    """

    name = "outside-bradderz-hard"

    def __init__(self) -> None:
        super().__init__()
        self.reset()

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        # Per seat (one object may be seated twice): the turn it last looked for a trade, the
        # turn of its last proposal, its asks per (holder, place) as (turn, asks), the offers
        # it refused per (offerer, places given, places asked) as (turn, refusals), and this
        # turn's building plan.
        self.looked: dict[int, int] = {}
        self.proposed: dict[int, int] = {}
        self.asks: dict[int, dict[tuple[int, int], tuple[int, int]]] = {}
        self.refused: dict[int, dict[tuple, tuple[int, int]]] = {}
        self.plans: dict[int, tuple[int, list[int]]] = {}

    # ---------------------------------------------------------------- buying (1067-1161)
    @staticmethod
    def wants(game: Game, seat: int, sq: int) -> bool:
        """``evaluateProperty``."""
        money, price, phase = game.cash[seat], PRICE[sq], game_phase(game)
        if price > money:
            return False
        reserve = {"early": MIN_CASH_RESERVE * 0.5, "mid": MIN_CASH_RESERVE,
                   "late": MIN_CASH_RESERVE * 1.5}[phase]
        if money - price < reserve:
            return completes_mine(game, seat, sq)
        score = (1 - price / money) * 0.3
        if phase == "early":
            score += 0.2
            if price <= CHEAP_PLACE:
                score += 0.15
        elif phase == "late":
            score -= 0.1
        group = GROUP_OF[sq]
        if completes_mine(game, seat, sq):
            score += COMPLETION_BONUS
        elif group is not None:
            score += len(held(game, seat, group)) / len(group) * 0.3 * AWARENESS
        if completes_a_rivals(game, seat, sq):
            score += BLOCK_BONUS
        if group is not None:
            score += RANK[group] * 0.02
        kind = board.SQUARES[sq].kind
        if kind == board.TRANSPORT:
            score += 0.25 + transports_of(game, seat) * 0.15
        if kind == board.UTILITY:
            score += 0.15 + sum(1 for u in board.UTILITIES if game.owner[u] == seat) * 0.1
        if money > price * 4:
            score += 0.1
        return score >= BUY_THRESHOLD

    # ---------------------------------------------------------------- auctions (1273-1345)
    @staticmethod
    def auction_limit(game: Game, seat: int, sq: int) -> int:
        """``calculateAuctionLimit`` (hard: no random spread)."""
        price = PRICE[sq]
        limit = price * AUCTION_SHARE
        if completes_mine(game, seat, sq):
            limit = price * (1.3 + AWARENESS * 0.5)
        if completes_a_rivals(game, seat, sq):
            limit = max(limit, price * (1.0 + BLOCK_BONUS * 0.6))
        if board.SQUARES[sq].kind == board.TRANSPORT and transports_of(game, seat) >= 2:
            limit = max(limit, price * 1.2)
        return math.floor(min(limit, game.cash[seat] - MIN_CASH_RESERVE))

    def bid(self, game: Game, seat: int) -> Action:
        a = game.auction
        if seat == game.turn:  # it declined this place: the source has passed
            return actions.DROP_OUT
        limit = self.auction_limit(game, seat, a.square)
        if a.high + board.BID_STEP > limit:
            return actions.DROP_OUT
        # The source's bid: the least ($10 at first, else $1 over) plus a random $5-19, rounded
        # up to the step; a raise of at most Rs 200, the environment's bids being the least
        # raise and raises of 200, 500, 1,000 and 2,000 (an opening bid of 300 is not one).
        increment = rng(game, seat, "bid").randrange(15) + 5
        wanted = max(10 * SCALE, a.high + SCALE) + increment * SCALE
        wanted = min(-(-wanted // board.BID_STEP) * board.BID_STEP, a.high + MOST_RAISE)
        return actions.bid(a.square, min(wanted, limit // board.BID_STEP * board.BID_STEP))

    # ---------------------------------------------------------------- answers (614-821)
    @staticmethod
    def judge(game: Game, seat: int, offer: Action) -> bool:
        """``evaluateTradeAdvanced`` for the seat answering ``offer``."""
        money_in, money_out = max(offer.amount, 0), max(-offer.amount, 0)
        receiving, giving, bonus = float(money_in), float(money_out), 0.0
        for sq in offer.give:
            receiving += place_value(game, seat, sq, "receiving")
            if completes_mine(game, seat, sq):
                bonus += PRICE[sq] * 0.5
        asked_price, gives_set, blocking = 0, False, False
        for sq in offer.take:
            giving += place_value(game, seat, sq, "giving")
            asked_price += PRICE[sq]
            gives_set = gives_set or gives_a_rival_a_set(game, seat, sq)
            blocking = blocking or blocks(game, seat, sq)
        received = receiving + bonus
        cash_ratio = money_in / asked_price if asked_price > 0 else 0
        cash_only = not offer.give and money_in > 0
        if cash_only and cash_ratio >= OVERPAY:
            return True
        needed = CASH_MULTIPLIER
        if gives_set and blocking:
            needed = GIVEAWAY_MULTIPLIER + (BLOCKING_MULTIPLIER - CASH_MULTIPLIER)
        elif gives_set:
            needed = GIVEAWAY_MULTIPLIER
        elif blocking:
            needed = BLOCKING_MULTIPLIER
        if cash_only and offer.take:
            return cash_ratio >= needed
        if gives_set:
            giving += asked_price * 1.5 * AWARENESS
        elif blocking:
            giving += asked_price * 1.0 * AWARENESS
        ratio = received / max(giving, 1)
        required = TRADE_ACCEPT_RATIO
        if gives_set:
            required *= 1.2
        elif blocking:
            required *= 1.1
        return ratio >= required

    def answer(self, game: Game, seat: int) -> Action:
        """``handleTradeProposal``: an offer it has refused twice or more is refused unread
        until the cooldown passes; an accepted one clears its record."""
        offerer, offer = game.offer
        key = (offerer, tuple(sorted(offer.give)), tuple(sorted(offer.take)))
        refused = self.refused.setdefault(seat, {})
        turn = game.turn_count
        if key in refused:
            when, count = refused[key]
            cooldown = min(count * REFUSAL_COOLDOWN, REFUSAL_COOLDOWN_CAP)
            if turn - when < cooldown and count >= 2:
                return actions.REJECT_TRADE
        if self.judge(game, seat, offer):
            refused.pop(key, None)
            return actions.ACCEPT_TRADE
        refused[key] = (turn, refused.get(key, (0, 0))[1] + 1)
        return actions.REJECT_TRADE

    # ---------------------------------------------------------------- proposals (896-1061)
    @staticmethod
    def offer_for(game: Game, seat: int, holder: int, sq: int, asks: int) -> Action | None:
        """``findTradeOffer``: money for ``sq`` while it can spare it, else one of its places
        that would complete a group of the holder's, with money to make up the value."""
        wanted = place_value(game, seat, sq, "receiving")
        multiplier = min(0.9 + asks * 0.2, 2.0)
        if completes_mine(game, seat, sq):
            multiplier = max(multiplier, 1.2 + asks * 0.15)
        worth = math.floor(wanted * multiplier)
        money = game.cash[seat]
        reserve_multiplier = 1.0 if asks > 1 else 1.5
        if (money > worth * reserve_multiplier + MIN_CASH_RESERVE
                and worth <= money - MIN_CASH_RESERVE):
            return actions.offer_trade(holder, [], [sq], pay_at_most(worth))
        for mine in board.PLACES:
            group = GROUP_OF[mine]
            if game.owner[mine] != seat or group is None:
                continue
            mine_held = len(held(game, seat, group))
            if mine_held == len(group) or mine_held >= len(group) - 1:
                continue  # never a piece of a group it holds, or is one short of
            if len(held(game, holder, group)) != len(group) - 1:
                continue
            value = place_value(game, seat, mine, "giving")
            diff = worth - value
            extra = math.floor(diff) if 0 < diff <= money - MIN_CASH_RESERVE else 0
            if value + extra >= worth * 0.95:
                return actions.offer_trade(holder, [mine], [sq], pay_at_most(extra))
        return None

    def propose(self, game: Game, seat: int) -> Action | None:
        """``considerProposingTrade`` (hard: every turn): for each group it is one piece short
        of, in board order, the piece's holder, unless asked lately or five times."""
        turn = game.turn_count
        if self.looked.get(seat) == turn or not game.can_offer_trade():
            return None
        self.looked[seat] = turn
        last = self.proposed.get(seat)
        if last is not None and turn - last < PROPOSAL_INTERVAL:
            return None
        asks = self.asks.setdefault(seat, {})
        for group in GROUPS:
            mine_held = len(held(game, seat, group))
            if mine_held == 0 or len(group) - mine_held != 1:
                continue
            for sq in group:
                holder = game.owner[sq]
                if holder < 0 or holder == seat or game.bankrupt[holder]:
                    continue
                when, count = asks.get((holder, sq), (None, 0))
                if when is not None:
                    if turn - when < min(count * ASK_COOLDOWN, ASK_COOLDOWN_CAP):
                        continue
                    if count >= MOST_ASKS:
                        continue
                offer = self.offer_for(game, seat, holder, sq, count)
                if offer is None or game.trade_error(offer) is not None:
                    continue
                asks[(holder, sq)] = (turn, count + 1)
                self.proposed[seat] = turn
                return offer
        return None

    # ---------------------------------------------------------------- building (1167-1262)
    @staticmethod
    def building_plan(game: Game, seat: int) -> list[int]:
        """``tryBuildHouses``: the houses to build this turn, in order."""
        money = game.cash[seat]
        houses = list(game.buildings)
        whole = sorted(whole_groups(game, seat),
                       key=lambda g: -RANK[g])
        plan: list[int] = []
        spent = 0
        while len(plan) < MOST_HOUSES_A_TURN:
            budget = min(money - MIN_CASH_RESERVE - spent, money * MAX_BUILDING_SPEND - spent)
            if budget < LEAST_BUILD_BUDGET:
                break
            for group in whole:
                if any(game.mortgaged[s] for s in group):
                    continue
                fewest = min(group, key=lambda s: houses[s])  # the first of them, board order
                if houses[fewest] >= board.HOTEL or HOUSE_COST[fewest] > budget:
                    continue
                plan.append(fewest)
                spent += HOUSE_COST[fewest]
                houses[fewest] += 1
                break
            else:
                break
        return plan

    def build(self, game: Game, seat: int, legal: list[Action]) -> Action | None:
        turn = game.turn_count
        stamp, plan = self.plans.get(seat, (-1, []))
        if stamp != turn:
            plan = self.building_plan(game, seat)
            self.plans[seat] = (turn, plan)
        while plan:
            action = actions.build(plan.pop(0))
            if action in legal:
                return action
        return None

    # ---------------------------------------------------------------- jail (1446-1476)
    @staticmethod
    def jail(game: Game, seat: int, legal: list[Action]) -> Action | None:
        """``handleJail``: the way out it takes now, or None to roll for a double."""
        if actions.USE_BAIL_CARD in legal:
            return actions.USE_BAIL_CARD
        tries = game.jail_misses[seat]
        if game_phase(game) == "late" and tries < 2:
            return None
        if game.cash[seat] > JAIL_PAY_ABOVE and tries < 2 and actions.PAY_FINE in legal:
            return actions.PAY_FINE
        return None

    # ---------------------------------------------------------------- raising cash (1579-1629)
    @staticmethod
    def raise_cash(game: Game, seat: int, legal: list[Action]) -> Action:
        """``handleBankruptcyState``."""
        whole = sorted(whole_groups(game, seat),
                       key=lambda g: RANK[g])
        for group in whole:
            top = max(game.buildings[s] for s in group)
            if top > 0:
                sale = actions.sell_building(next(s for s in group if game.buildings[s] == top))
                return sale if sale in legal else forced_sale(legal)
        bare = sorted((s for s in board.PLACES if game.owner[s] == seat
                       and not game.mortgaged[s] and game.buildings[s] == 0),
                      key=lambda s: PRICE[s])
        if bare:
            mortgage = actions.mortgage(bare[0])
            if mortgage in legal:
                return mortgage
        return forced_sale(legal)

    # ---------------------------------------------------------------- the engine's questions
    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        ph = game.phase
        if ph == Phase.BUY:
            sq = game.pending_square
            return actions.buy(sq) if self.wants(game, seat, sq) else actions.decline(sq)
        if ph == Phase.AUCTION:
            return self.bid(game, seat)
        if ph == Phase.TRADE_ANSWER:
            return self.answer(game, seat)
        if ph == Phase.RAISE_CASH:
            return self.raise_cash(game, seat, legal)
        first = game.doubles == 0  # the turn's first roll (after a double the source rolls on)
        if first:
            offer = self.propose(game, seat)
            if offer is not None:
                return offer
        if game.in_jail[seat]:
            leave = self.jail(game, seat, legal)
            if leave is not None:
                return leave
        if first:
            build = self.build(game, seat, legal)
            if build is not None:
                return build
        return actions.ROLL


__all__ = ["BradderzHardPlayer", "RANK", "game_phase", "place_value"]
