"""A generated population of opponents: hand-written players whose judgement is drawn from a seed.

``pop-SEED`` (``make_agent("pop-17")``, ``byapar arena --players hard,pop-17,pop-18,pop-19``)
is a player whose model of worth and habits are drawn from ``SEED`` (``draw_traits``), not
chosen: thousands of seeds give thousands of distinct players (issue 24, part 2). Its model of
worth is its own, written here (not ``byapar_env/valuation.py``):

- **What a group is worth to its owner**: expected rent per turn from the chance of landing on
  each of its places (a Markov chain of this board, ``outside.common.LANDING``, each chance
  seen through a drawn belief), at a drawn number of houses, times the opponents, times a drawn
  horizon in turns and a drawn taste per group. A part of a group is worth that times
  ``(held / size) ** curve`` (a drawn curve), cut to a drawn share when a rival holds another
  piece. Places count at a drawn weight of their price (half when mortgaged); transports and
  utilities gain a drawn bonus for each other one held.
- **What a group is worth to a rival**: the same potential, times a drawn rival weight, for
  every group a rival holds whole: a place that completes a rival's group costs that much to
  let go, and is worth that much to keep from them (bids, buys).
- **Cash reserve**: a drawn base plus a drawn share of the biggest rent a rival's place charges.
- **Buying and bidding**: buys when the cash left keeps a drawn share of the reserve and the
  place is worth a drawn floor of its price, or when it is worth a drawn margin above its price;
  bids the least raise up to a drawn multiple of its worth and a drawn share of spare cash.
- **Trades**: whether it trades at all, whether it proposes, and with whom (anyone, anyone but
  the leader, or only those poorer than itself) are drawn. Answers compare the change in its
  holdings, the money and the change in its rivals' whole groups with a drawn margin of the
  places' price. Offers: two-way swaps that complete a group on both sides, with the money
  splitting the two gains by a drawn generosity (several of these players swap with each
  other), and money for the pieces one rival holds of a group it has started, at a drawn
  premium raised on each refusal, after a drawn number of rounds.
- **Building** up to a drawn level, at most a drawn number of houses a turn, in a drawn order,
  above a drawn share of the reserve; whether it mortgages spare places to build is drawn.
- **Jail**: leaves at once, or stays while the rivals hold at least a drawn number of houses.
- **Mortgages**: raises cash by mortgages first or by selling houses first (drawn), pays off
  mortgages when its cash is a drawn multiple of the reserve, or never.

The seed ranges are split here and nowhere else: training draws from ``TRAINING_SEEDS``; the
evaluation seeds (``EVALUATION_SEEDS``) are never drawn by training, and
``tests/test_population.py`` checks that no file under ``byapar_training/`` names them.

The player decides without chance (the same seed and game give the same choices), and keeps its
state per seat, so one object may sit in several seats (the arena seats one object per name).
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import asdict, dataclass

from byapar_env.engine import Action, ActionKind, Game, Phase, actions, board

from .base import EnginePlayer
from .outside.common import LANDING, pay_at_most

PREFIX = "pop-"
# The one split of the seeds: training draws from the first, evaluation uses the second only.
TRAINING_SEEDS = range(0, 100_000)
EVALUATION_SEEDS = range(1_000_000, 1_100_000)
MAX_SEED = 2**31 - 1
_NAME = re.compile(r"pop-(0|[1-9][0-9]{0,9})")

PRICE = tuple(s.price for s in board.SQUARES)
HOUSE_COST = tuple(s.house_cost for s in board.SQUARES)
GROUP_OF = board.GROUP_OF
GROUP_NAMES = tuple(board.GROUPS)
GROUPS = tuple(board.GROUPS.values())
GROUP_INDEX = {sq: i for i, g in enumerate(GROUPS) for sq in g}
_MORTGAGE_SHARE = board.FIGURES.mortgage_value_percent / 100
_WHOLE_RENT = board.FIGURES.whole_group_rent_multiplier
PARTNER_RULES = ("any", "not_leader", "poorer")
BUILD_ORDERS = ("cheap", "dear", "return")
RAISE_ORDERS = ("mortgage_first", "sell_first")


# ----------------------------------------------------------------------------- seeds and names
def population_name(seed: int) -> str:
    return f"{PREFIX}{seed}"


def population_seed(name: object) -> int | None:
    """The seed of a population name (``pop-17`` -> 17), or None for any other name."""
    m = _NAME.fullmatch(name) if isinstance(name, str) else None
    if m is None or int(m.group(1)) > MAX_SEED:
        return None
    return int(m.group(1))


def is_population_name(name: object) -> bool:
    return population_seed(name) is not None


def evaluation_names(count: int, start: int = 0) -> tuple[str, ...]:
    """``count`` evaluation players, from the ``start``-th evaluation seed."""
    if start < 0 or count < 0 or start + count > len(EVALUATION_SEEDS):
        raise ValueError(f"evaluation seeds run to {len(EVALUATION_SEEDS):,}")
    return tuple(population_name(EVALUATION_SEEDS[start + i]) for i in range(count))


def training_names(count: int, rng: random.Random) -> tuple[str, ...]:
    """``count`` training players drawn by ``rng`` (from ``TRAINING_SEEDS`` only)."""
    return tuple(population_name(rng.choice(TRAINING_SEEDS)) for _ in range(count))


# ----------------------------------------------------------------------------- drawn traits
@dataclass(frozen=True)
class Traits:
    """Everything a population player's decisions depend on, drawn by ``draw_traits``."""

    belief: tuple[float, ...]  # per square: its believed landing chance over the real one
    horizon: float  # turns of rent a whole group is worth
    assumed_houses: int  # the houses it counts a whole group at (0: bare, double rent)
    group_taste: tuple[float, ...]  # per group (board order): a multiplier of its potential
    set_curve: float  # a part of a group is worth (held / size) ** set_curve of it
    blocked_share: float  # ... and this share of that when a rival holds another piece
    rival_weight: float  # a group a rival holds whole costs this share of its potential
    price_weight: float  # a place's own worth, as a share of its price
    transport_bonus: float  # per other transport held, a share of the price
    utility_bonus: float
    reserve_base: int
    reserve_danger: float  # share of the biggest rent a rival may charge, kept in cash
    buy_reserve_share: float  # buys while keeping this share of the reserve ...
    buy_floor: float  # ... a place worth at least this share of its price
    buy_margin: float  # or a place worth this multiple of its price, with the cash
    bid_multiple: float  # bids up to this multiple of the place's worth ...
    bid_cash_share: float  # ... and this share of its cash above the reserve
    trades: bool  # trades at all (offers and answers)
    offers: bool  # proposes trades (when it trades)
    partners: str  # with whom: PARTNER_RULES
    accept_margin: float  # accepts when the deal nets at least this share of its places' price
    offer_margin: float  # its offers keep at least this share for itself
    generosity: float  # share of a swap's combined gain it gives the other side
    offer_premium: float  # money offers: this multiple of the price, raised on refusals
    premium_step: float
    offer_tries: int  # offers for one deal before giving up on it
    retry_rounds: int  # rounds between offers for the same deal
    offers_per_turn: int
    cash_offer_share: float  # at most this share of its cash in a trade
    build_cap: int  # builds up to this level (5: a hotel)
    build_pace: int  # houses a turn at most
    build_order: str  # BUILD_ORDERS
    build_reserve_share: float
    mortgage_to_build: bool
    jail_stay_houses: int | None  # stays in jail while rivals hold this many houses (None: never)
    payoff_multiple: float | None  # pays off a mortgage with cash this multiple of the reserve
    raise_order: str  # RAISE_ORDERS


def draw_traits(seed: int) -> Traits:
    """The traits of population player ``seed``: the same seed, the same traits."""
    r = random.Random(f"byapar-population-{seed}")

    def lognormal(sigma: float) -> float:
        return math.exp(r.gauss(0.0, sigma))

    def hundreds(low: int, high: int) -> int:
        return 100 * r.randint(low // 100, high // 100)

    trades = r.random() < 0.85
    return Traits(
        belief=tuple(round(lognormal(0.25), 4) for _ in range(board.NUM_SQUARES)),
        horizon=round(r.uniform(6.0, 40.0), 2),
        assumed_houses=r.choice((0, 1, 2, 3, 3, 4)),
        group_taste=tuple(round(lognormal(0.35), 4) for _ in GROUPS),
        set_curve=round(r.uniform(1.0, 3.5), 3),
        blocked_share=round(r.uniform(0.1, 0.8), 3),
        rival_weight=round(r.uniform(0.0, 1.5), 3),
        price_weight=round(r.uniform(0.6, 1.2), 3),
        transport_bonus=round(r.uniform(0.0, 0.7), 3),
        utility_bonus=round(r.uniform(0.0, 0.8), 3),
        reserve_base=hundreds(0, 3_000),
        reserve_danger=round(r.uniform(0.0, 0.8), 3),
        buy_reserve_share=round(r.uniform(0.0, 1.2), 3),
        buy_floor=round(r.uniform(0.4, 1.1), 3),
        buy_margin=round(r.uniform(1.0, 2.0), 3),
        bid_multiple=round(r.uniform(0.5, 1.4), 3),
        bid_cash_share=round(r.uniform(0.3, 1.0), 3),
        trades=trades,
        offers=trades and r.random() < 0.85,
        partners=r.choice(PARTNER_RULES),
        accept_margin=round(r.uniform(-0.15, 0.5), 3),
        offer_margin=round(r.uniform(0.0, 0.4), 3),
        generosity=round(r.uniform(0.2, 0.8), 3),
        offer_premium=round(r.uniform(0.9, 1.5), 3),
        premium_step=round(r.uniform(0.1, 0.5), 3),
        offer_tries=r.randint(1, 4),
        retry_rounds=r.randint(1, 6),
        offers_per_turn=r.randint(1, 3),
        cash_offer_share=round(r.uniform(0.2, 0.8), 3),
        build_cap=r.choice((2, 3, 3, 4, 5, 5)),
        build_pace=r.randint(1, 8),
        build_order=r.choice(BUILD_ORDERS),
        build_reserve_share=round(r.uniform(0.1, 1.2), 3),
        mortgage_to_build=r.random() < 0.5,
        jail_stay_houses=None if r.random() < 0.4 else r.randint(2, 20),
        payoff_multiple=None if r.random() < 0.15 else round(r.uniform(1.0, 4.0), 3),
        raise_order=r.choice(RAISE_ORDERS),
    )


# ----------------------------------------------------------------------------- the player
class PopulationPlayer(EnginePlayer):
    """A player of the generated population: ``PopulationPlayer(17)`` is ``pop-17``; pass
    ``traits`` to seat exactly those (a test changing one drawn trait)."""

    def __init__(self, seed: int, traits: Traits | None = None) -> None:
        super().__init__()
        self.seed = seed
        self.name = population_name(seed)
        self.traits = traits if traits is not None else draw_traits(seed)
        t = self.traits
        # Rent per opponent-turn of each group held whole at the assumed houses, as believed.
        self._group_income = []
        for g in GROUPS:
            income = 0.0
            for s in g:
                rents = board.SQUARES[s].rents
                rent = rents[t.assumed_houses] if t.assumed_houses else rents[0] * _WHOLE_RENT
                income += LANDING[s] * t.belief[s] * rent
            self._group_income.append(income)
        self.reset()

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        # Per seat (one object may be seated several times): offers tried (key: (round, n)),
        # this turn's offers made and houses built.
        self.tried: dict[int, dict[tuple, tuple[int, int]]] = {}
        self.turn_counts: dict[int, tuple[int, int, int]] = {}  # seat: (turn, offers, builds)

    def params(self) -> dict:
        return asdict(self.traits)

    # ------------------------------------------------------------------ the model of worth
    def potential(self, game: Game, group: int, seat: int) -> float:
        """What holding group ``group`` whole is worth to ``seat``, as this player sees it."""
        opponents = sum(1 for s in range(game.num_players) if s != seat and not game.bankrupt[s])
        t = self.traits
        return self._group_income[group] * max(opponents, 1) * t.horizon * t.group_taste[group]

    def holdings(self, game: Game, seat: int, owner: list[int]) -> float:
        """What ``seat``'s places are worth to it, were the places owned as ``owner`` says."""
        t = self.traits
        total = 0.0
        transports = utilities = 0
        for sq in board.PLACES:
            if owner[sq] != seat:
                continue
            total += PRICE[sq] * t.price_weight * (_MORTGAGE_SHARE if game.mortgaged[sq] else 1)
            kind = board.SQUARES[sq].kind
            if kind == board.TRANSPORT:
                transports += 1
            elif kind == board.UTILITY:
                utilities += 1
        if transports > 1:
            total += (transports - 1) * transports / 2 * 2_000 * t.transport_bonus
        if utilities > 1:
            total += 1_500 * t.utility_bonus
        for i, group in enumerate(GROUPS):
            held = sum(1 for s in group if owner[s] == seat)
            if not held:
                continue
            share = (held / len(group)) ** t.set_curve
            if held < len(group) and any(owner[s] >= 0 and owner[s] != seat for s in group):
                share *= t.blocked_share
            total += share * self.potential(game, i, seat)
        return total

    def threat(self, game: Game, seat: int, owner: list[int]) -> float:
        """What the groups rivals hold whole cost ``seat``, were the places owned so."""
        total = 0.0
        for i, group in enumerate(GROUPS):
            o = owner[group[0]]
            if o >= 0 and o != seat and all(owner[s] == o for s in group):
                total += self.traits.rival_weight * self.potential(game, i, o)
        return total

    def deal_value(self, game: Game, seat: int, gets: tuple[int, ...] | list[int],
                   gives: tuple[int, ...] | list[int], other: int, cash_in: int = 0) -> float:
        """What a deal is worth to ``seat``: places ``gets`` from ``other`` (-1: the bank) and
        ``gives`` to ``other``, and ``cash_in`` (negative: it pays)."""
        after = list(game.owner)
        for s in gets:
            after[s] = seat
        for s in gives:
            after[s] = other
        before = game.owner
        return (self.holdings(game, seat, after) - self.holdings(game, seat, before) + cash_in
                - (self.threat(game, seat, after) - self.threat(game, seat, before)))

    def worth(self, game: Game, seat: int, sq: int) -> float:
        """What an unowned place is worth to ``seat``: its holdings with it, plus keeping it
        from the rival it would complete a group for."""
        gain = self.deal_value(game, seat, (sq,), (), -1)
        now = self.threat(game, seat, game.owner)
        denial = 0.0
        for r in range(game.num_players):
            if r != seat and not game.bankrupt[r]:
                after = list(game.owner)
                after[sq] = r
                denial = max(denial, self.threat(game, seat, after) - now)
        return gain + denial

    def reserve(self, game: Game, seat: int) -> int:
        danger = 0
        for sq in board.CITIES:
            o = game.owner[sq]
            if o >= 0 and o != seat and not game.mortgaged[sq]:
                rents = board.SQUARES[sq].rents
                b = game.buildings[sq]
                danger = max(danger, rents[b] if b else rents[0] * _WHOLE_RENT)
        return int(self.traits.reserve_base + self.traits.reserve_danger * danger)

    def trades_with(self, game: Game, seat: int, other: int) -> bool:
        t = self.traits
        if not t.trades:
            return False
        if t.partners == "not_leader":
            rivals = [s for s in range(game.num_players) if s != seat and not game.bankrupt[s]]
            leader = max(rivals, key=lambda s: (game.net_worth(s), -s))
            return other != leader or len(rivals) == 1
        if t.partners == "poorer":
            return game.net_worth(other) <= game.net_worth(seat)
        return True

    # ------------------------------------------------------------------ deciding
    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        ph = game.phase
        if ph == Phase.BUY:
            sq = game.pending_square
            return actions.buy(sq) if self.wants_to_buy(game, seat, sq) else actions.decline(sq)
        if ph == Phase.AUCTION:
            return self.bid(game, seat)
        if ph == Phase.TRADE_ANSWER:
            return actions.ACCEPT_TRADE if self.accepts(game, seat) else actions.REJECT_TRADE
        if ph == Phase.RAISE_CASH:
            return self.raise_cash(game, seat, legal)
        return self.pre_roll(game, seat, legal)

    def wants_to_buy(self, game: Game, seat: int, sq: int) -> bool:
        t = self.traits
        cash, price = game.cash[seat], PRICE[sq]
        if cash < price:
            return False
        w = self.worth(game, seat, sq)
        if cash - price >= t.buy_reserve_share * self.reserve(game, seat):
            return w >= t.buy_floor * price
        return w >= t.buy_margin * price

    def bid_ceiling(self, game: Game, seat: int, sq: int) -> float:
        t = self.traits
        spare = game.cash[seat] - self.reserve(game, seat)
        return min(t.bid_multiple * self.worth(game, seat, sq), t.bid_cash_share * max(spare, 0))

    def bid(self, game: Game, seat: int) -> Action:
        a = game.auction
        amount = a.high + board.BID_STEP
        if amount <= self.bid_ceiling(game, seat, a.square) and amount <= game.cash[seat]:
            return actions.bid(a.square, amount)
        return actions.DROP_OUT

    def accepts(self, game: Game, seat: int) -> bool:
        offerer, offer = game.offer
        if not self.trades_with(game, seat, offerer):
            return False
        net = self.deal_value(game, seat, offer.give, offer.take, offerer, offer.amount)
        scale = sum(PRICE[s] for s in offer.give + offer.take)
        return net >= self.traits.accept_margin * scale

    # ------------------------------------------------------------------ before rolling
    def _counts(self, game: Game, seat: int) -> tuple[int, int]:
        turn, offers, builds = self.turn_counts.get(seat, (-1, 0, 0))
        return (offers, builds) if turn == game.turn_count else (0, 0)

    def _count(self, game: Game, seat: int, offers: int = 0, builds: int = 0) -> None:
        o, b = self._counts(game, seat)
        self.turn_counts[seat] = (game.turn_count, o + offers, b + builds)

    def pre_roll(self, game: Game, seat: int, legal: list[Action]) -> Action:
        t = self.traits
        if game.in_jail[seat]:
            rival_houses = sum(game.buildings[s] for s in board.CITIES
                               if game.owner[s] >= 0 and game.owner[s] != seat)
            stay = t.jail_stay_houses is not None and rival_houses >= t.jail_stay_houses
            if not stay:
                if actions.USE_BAIL_CARD in legal:
                    return actions.USE_BAIL_CARD
                if actions.PAY_FINE in legal:
                    return actions.PAY_FINE
        offer = self.offer(game, seat)
        if offer is not None:
            self._count(game, seat, offers=1)
            return offer
        build = self.build(game, seat, legal)
        if build is not None:
            if build.kind == ActionKind.BUILD:
                self._count(game, seat, builds=1)
            return build
        payoff = self.payoff(game, seat, legal)
        return payoff if payoff is not None else actions.ROLL

    def build(self, game: Game, seat: int, legal: list[Action]) -> Action | None:
        """The next house, or a mortgage that pays for it."""
        t = self.traits
        _, built = self._counts(game, seat)
        if built >= t.build_pace:
            return None
        floor = t.build_reserve_share * self.reserve(game, seat)
        wanted = [a.square for a in legal if a.kind == ActionKind.BUILD and game.buildings[a.square]
                  < t.build_cap]
        if not wanted:
            return None
        if t.build_order == "cheap":
            wanted.sort(key=lambda s: (HOUSE_COST[s], s))
        elif t.build_order == "dear":
            wanted.sort(key=lambda s: (-HOUSE_COST[s], s))
        else:  # the best rent gained per rupee, as believed
            def gain(s: int) -> float:
                rents, b = board.SQUARES[s].rents, game.buildings[s]
                now = rents[b] if b else rents[0] * _WHOLE_RENT
                return -LANDING[s] * t.belief[s] * (rents[b + 1] - now) / HOUSE_COST[s]
            wanted.sort(key=lambda s: (gain(s), s))
        cash = game.cash[seat]
        for s in wanted:
            if cash - HOUSE_COST[s] >= floor:
                return actions.build(s)
        if t.mortgage_to_build:
            cost = HOUSE_COST[wanted[0]]
            spare = [a.square for a in legal if a.kind == ActionKind.MORTGAGE
                     and (GROUP_OF[a.square] is None or not game.owns_group(seat, a.square))]
            if spare:
                sq = min(spare, key=lambda s: (PRICE[s], s))
                if cash + PRICE[sq] * _MORTGAGE_SHARE - cost >= floor:
                    return actions.mortgage(sq)
        return None

    def payoff(self, game: Game, seat: int, legal: list[Action]) -> Action | None:
        t = self.traits
        if t.payoff_multiple is None:
            return None
        # Never below the building floor: it does not pay off what it mortgaged to build.
        floor = max(t.payoff_multiple, t.build_reserve_share) * self.reserve(game, seat)
        payoffs = [a.square for a in legal if a.kind == ActionKind.UNMORTGAGE]
        # Groups it holds whole first (that unlocks building), then the dearest.
        payoffs.sort(key=lambda s: (GROUP_OF[s] is None or not game.owns_group(seat, s),
                                    -PRICE[s], s))
        for s in payoffs:
            cost = PRICE[s] * _MORTGAGE_SHARE * 1.1
            if game.cash[seat] - cost >= floor:
                return actions.unmortgage(s)
        return None

    def raise_cash(self, game: Game, seat: int, legal: list[Action]) -> Action:
        mortgages = [a for a in legal if a.kind == ActionKind.MORTGAGE]
        sales = [a for a in legal if a.kind == ActionKind.SELL_BUILDING]
        # Mortgage first what matters least to it: outside whole groups, cheapest first.
        mortgages.sort(key=lambda a: (GROUP_OF[a.square] is not None
                                      and game.owns_group(seat, a.square), PRICE[a.square],
                                      a.square))
        sales.sort(key=lambda a: (HOUSE_COST[a.square], a.square))
        order = (mortgages + sales if self.traits.raise_order == "mortgage_first"
                 else sales + mortgages)
        return order[0] if order else legal[0]

    # ------------------------------------------------------------------ offers
    def offer(self, game: Game, seat: int) -> Action | None:
        t = self.traits
        if not (t.trades and t.offers) or not game.can_offer_trade():
            return None
        offers, _ = self._counts(game, seat)
        if offers >= t.offers_per_turn:
            return None
        tried = self.tried.setdefault(seat, {})
        for action, key in self.candidates(game, seat):
            last, n = tried.get(key, (-10**9, 0))
            if n >= t.offer_tries or game.round - last < t.retry_rounds:
                continue
            action = self._priced(game, seat, action, n)
            if action is None or game.trade_error(action) is not None:
                continue
            tried[key] = (game.round, n + 1)
            return action
        return None

    def candidates(self, game: Game, seat: int) -> list[tuple[Action, tuple]]:
        """Deals it would like, best first: (an offer with its money to be set, a key). The
        money of a swap is set here; of a purchase by ``_priced`` (it rises with refusals)."""
        owner = game.owner
        out: list[tuple[float, Action, tuple]] = []
        for gi, group in enumerate(GROUPS):
            mine = [s for s in group if owner[s] == seat]
            missing = [s for s in group if owner[s] != seat]
            if not mine or not missing:
                continue
            holders = {owner[s] for s in missing}
            if len(holders) != 1:
                continue
            (rival,) = holders
            if rival < 0 or game.bankrupt[rival] or not self.trades_with(game, seat, rival):
                continue
            if any(game.buildings[s] for s in missing):
                continue
            # A two-way swap: a group the rival has started whose other pieces are all ours.
            for hi, their_group in enumerate(GROUPS):
                if hi == gi:
                    continue
                theirs = [s for s in their_group if owner[s] == rival]
                needed = [s for s in their_group if owner[s] != rival]
                if not theirs or not needed or any(owner[s] != seat for s in needed):
                    continue
                if any(game.buildings[s] for s in their_group):
                    continue
                swap = self._swap(game, seat, rival, needed, missing)
                if swap is not None:
                    gain, action = swap
                    out.append((gain, action, ("swap", rival, action.give, action.take)))
            gain = self.deal_value(game, seat, missing, (), rival)
            out.append((gain - sum(PRICE[s] for s in missing),
                        actions.offer_trade(rival, (), missing, 0),
                        ("buy", rival, tuple(missing))))
        out.sort(key=lambda x: -x[0])
        return [(a, k) for _, a, k in out]

    def _swap(self, game: Game, seat: int, rival: int, give: list[int],
              take: list[int]) -> tuple[float, Action] | None:
        t = self.traits
        mine = self.deal_value(game, seat, take, give, rival)
        # What the swap does for the rival, as this player would value it in the rival's place.
        theirs = self.deal_value(game, rival, give, take, seat)
        scale = sum(PRICE[s] for s in give + take)
        if mine <= 0 or mine + theirs <= 0:
            return None
        pay = mine - (1 - t.generosity) * (mine + theirs)  # >0: it pays the rival
        cap = t.cash_offer_share * game.cash[seat]
        if pay > 0:
            amount = pay_at_most(min(pay, cap))
        else:
            amount = -pay_at_most(min(-pay, game.cash[rival]))
        if mine - amount < t.offer_margin * scale:
            return None
        return mine - amount, actions.offer_trade(rival, give, take, amount)

    def _priced(self, game: Game, seat: int, action: Action, tries: int) -> Action | None:
        """A purchase priced for its ``tries``-th offer; a swap as it is."""
        if action.give or action.amount:
            return action
        t = self.traits
        price = sum(PRICE[s] for s in action.take)
        gain = self.deal_value(game, seat, action.take, (), action.target)
        want = price * (t.offer_premium + t.premium_step * tries)
        most = min(gain - t.offer_margin * price, t.cash_offer_share * game.cash[seat],
                   game.cash[seat] - self.reserve(game, seat))
        amount = pay_at_most(min(want, most))
        if amount <= 0:
            return None
        return actions.offer_trade(action.target, (), action.take, amount)


def make_population(name: str) -> PopulationPlayer:
    """A fresh population player by name (``pop-SEED``)."""
    seed = population_seed(name)
    if seed is None:
        raise ValueError(f"unknown population player {name!r}: expected pop-SEED, SEED a whole "
                         f"number from 0 to {MAX_SEED:,} without leading zeros")
    return PopulationPlayer(seed)


__all__ = ["EVALUATION_SEEDS", "MAX_SEED", "PopulationPlayer", "TRAINING_SEEDS", "Traits",
           "draw_traits", "evaluation_names", "is_population_name", "make_population",
           "population_name", "population_seed", "training_names"]
