"""Deals: how the hard player and the expert judge, answer and propose trades.

A deal is judged in its table, not by fixed caps: the value network's win chance of every seat
with the offer accepted and with it declined (one batched pass, ``appraise``). The answering
seat accepts (``refusal`` is None) when all of these hold:

- **It gains** at least ``ACCEPT_MARGIN`` of win chance.
- **A rival's group is not handed over cheaply**: an offer that completes the offering seat's
  colour group and none of the answering seat's gains it at least ``COMPLETION_GAIN``.
- **The offering seat does not gain much more than it does**: at most ``FAIR_EDGE`` more, where
  the deal completes a group on each side (a swap that makes both stronger against the rest,
  whose split the network reads only roughly), and ``RIVAL_EDGE`` otherwise (an offer comes from
  a seat that chose it: where the network errs, it errs in the offering seat's favour).
- **The leader pays more**: an offering seat that leads before the deal must gain at least
  ``LEADER_EDGE`` less than the answering seat.
- **No rival is made the leader**: a deal after which the offering seat would lead the table,
  where it did not before, is refused.

The answer reads the position and the offer alone (never how many offers came before), so the
same offer in the same position always gets the same answer.

A seat proposes (``best_offer``) from a list (``listed_deals``) of the offers that change who
holds a group whole, each with money either way from a ladder:

- **swaps** of a place that completes one of its groups for one that completes the target's;
- **purchases** of a place that completes one of its groups;
- **sales** of a place that completes the target's group, for money;
- **denials**: where two rivals each hold the place that completes the other's group, a
  purchase from one of them of the place the other needs, so that their swap cannot happen.

An offer is kept if it gains the proposing seat at least ``MIN_GAIN`` (a denial is credited
with the win chance the rivals' swap would cost it, ``DENIAL_SHARE`` of it), if the target
does not lose more than ``TARGET_LOSS`` by the same judgement (a seat that judges by its own
lights takes a deal that is roughly fair to it), and if it would not ask more of a leader than
this module's own answer would give a leader. Of those, the largest gain is offered, first
among the deals that this module would accept in the target's seat, then among the rest. A
``DealMemory`` makes it at most one offer a turn and never an offer it made before while the
places it touches stand as they did (the owner, buildings and mortgage of every place of their
sets): a refused offer is not repeated while nothing has changed, and the next turn's offer is
the next on the list. A list that gave nothing is gone through again when any place changes
(owner, buildings, mortgage), or ``RELIST_ROUNDS`` rounds later.

An offer the seat composed some other way (the hard player's policy composes its own) is made
only if it gains the seat at least ``OWN_OFFER_GAIN`` by the same judgement (``own_offer_loses``):
a rival takes an offer when it gains by it, so the offers taken are more often the ones that cost
the seat.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from byapar_env.engine import Action, ActionKind, Game, Phase, actions, board

from .value import ValueNet

ACCEPT_MARGIN = 0.0  # the answering seat's win chance may not fall
COMPLETION_GAIN = 0.03  # handing a rival a whole group (and none back): three points at least
RIVAL_EDGE = -0.01  # the answering seat gains a point more than the offering seat
FAIR_EDGE = 0.02  # a swap completing a group each side: the offerer may gain two points more
LEADER_EDGE = -0.03  # from the leader: the answering seat gains three points more
MIN_GAIN = 0.02  # what a proposal must gain the proposing seat
TARGET_LOSS = 0.01  # the most a proposal may cost its target by this module's judgement
OWN_OFFER_GAIN = 0.0  # what an offer composed outside this module must gain the seat making it
DENIAL_SHARE = 0.5  # of the win chance that a swap between two rivals would cost the seat
# Each place's set: its colour group, the transports or the utilities.
SET_OF = {sq: board.GROUP_OF[sq]
          or (board.TRANSPORTS if sq in board.TRANSPORTS else board.UTILITIES)
          for sq in board.PLACES}
# Money either way (positive: the proposing seat pays), each one of the environment's amounts.
SWAP_AMOUNTS = (-2000, -1000, 0, 1000, 2000)
BUY_AMOUNTS = (500, 1000, 2000, 3000, 5000)
SELL_AMOUNTS = (-8000, -5000, -3000, -2000)
# A list that gave no offer is gone through again once the places change, or after as many
# rounds (cash moves meanwhile): a list is a few dozen positions for the value network.
RELIST_ROUNDS = 4
CHECKED = 2  # proposals that complete a group checked by rollouts a turn, at most


@dataclass(frozen=True)
class Appraisal:
    """One offer judged: every seat's win chance with it declined and with it accepted, and
    whether it completes a colour group for the offering seat and for its target."""

    offer: Action
    offerer: int
    declined: tuple[float, ...]
    accepted: tuple[float, ...]
    completes_offerer: bool
    completes_target: bool

    @property
    def target(self) -> int:
        return self.offer.target

    @property
    def target_gain(self) -> float:
        return self.accepted[self.target] - self.declined[self.target]

    @property
    def offerer_gain(self) -> float:
        return self.accepted[self.offerer] - self.declined[self.offerer]


def _leads(chances: Sequence[float], seat: int) -> bool:
    """Whether ``seat``'s chance is above every other seat's."""
    return all(chances[seat] > c for s, c in enumerate(chances) if s != seat)


def refusal(a: Appraisal) -> str | None:
    """Why the target refuses the appraised offer (see the module docstring), or None: it
    accepts."""
    mine, theirs = a.target_gain, a.offerer_gain
    if mine < ACCEPT_MARGIN:
        return "it costs the answering seat"
    if a.completes_offerer and not a.completes_target and mine < COMPLETION_GAIN:
        return "it hands the offering seat a group for too little"
    leader = _leads(a.declined, a.offerer)
    edge = LEADER_EDGE if leader else (
        FAIR_EDGE if a.completes_offerer and a.completes_target else RIVAL_EDGE)
    if theirs - mine > edge:
        return "the offering seat gains too much more"
    if not leader and _leads(a.accepted, a.offerer):
        return "it makes the offering seat the leader"
    return None


def mirrored(offerer: int, offer: Action) -> Action:
    """The same deal seen from its target: what it gives is what the offer takes."""
    return Action(ActionKind.OFFER_TRADE, -1, -offer.amount, offerer, offer.take, offer.give)


def completes_group(game: Game, offerer: int, offer: Action) -> bool:
    """Whether ``offer`` (made by ``offerer``) would give the offerer every place of a colour
    group that it does not hold whole now."""
    owner = game.owner
    for sq in offer.take:
        group = board.GROUP_OF[sq]
        if group is not None and all(
                s in offer.take or (owner[s] == offerer and s not in offer.give) for s in group):
            return True
    return False


def completes_target_group(game: Game, offerer: int, offer: Action) -> bool:
    """Whether ``offer`` (made by ``offerer``) would give its target every place of a colour
    group that the target does not hold whole now: ``completes_group`` seen from the target."""
    return completes_group(game, offer.target, mirrored(offerer, offer))


def made(game: Game, offer: Action) -> Game:
    """A copy of ``game`` (its log left behind) with ``offer`` made, pending its answer."""
    pending = game.clone()
    pending.log = []
    pending.apply(offer)
    return pending


def answered(game: Game, offer: Action | None, accept: bool, first: bool = True) -> Game:
    """A copy of ``game`` once ``offer`` is made (None: the pending one) and answered; with
    ``first``, the offer counted as the turn's first, so that a judgement never reads how many
    came before it."""
    if offer is None:
        after = game.clone()
        after.log = []
    else:
        after = made(game, offer)
    if first:
        after.offers_made = 1
    after.apply(actions.ACCEPT_TRADE if accept else actions.REJECT_TRADE)
    return after


def appraise(game: Game, offers: Sequence[Action], value: ValueNet) -> list[Appraisal]:
    """Each offer the seat to play in ``game`` could make now (before rolling; each legal),
    judged by ``value`` in one forward pass: the declined position is the same for all."""
    if not offers:
        return []
    offerer = game.current_player
    positions = [answered(game, offers[0], False)] + [answered(game, o, True) for o in offers]
    chances = value.table_chances(positions)
    declined = tuple(chances[0])
    return [Appraisal(o, offerer, declined, tuple(chances[k + 1]),
                      completes_group(game, offerer, o),
                      completes_target_group(game, offerer, o))
            for k, o in enumerate(offers)]


def appraise_pending(game: Game, value: ValueNet) -> Appraisal:
    """The offer pending in ``game`` (its target to answer), judged by ``value``."""
    if game.phase != Phase.TRADE_ANSWER or game.offer is None:
        raise ValueError("appraise_pending needs a game with a trade offer to answer")
    offerer, offer = game.offer
    accepted, declined = value.table_chances([answered(game, None, True),
                                              answered(game, None, False)])
    return Appraisal(offer, offerer, tuple(declined), tuple(accepted),
                     completes_group(game, offerer, offer),
                     completes_target_group(game, offerer, offer))


def accepts_pending(game: Game, value: ValueNet, check=None) -> bool:
    """Whether the seat that must answer the offer pending in ``game`` accepts it; with
    ``check`` (``byapar_agents.deal_rollouts.RolloutCheck``), an acceptance of a deal that completes
    a group stands only if its rollouts confirm it."""
    a = appraise_pending(game, value)
    if refusal(a) is not None:
        return False
    return check is None or check.answer(game, a.completes_offerer or a.completes_target)


def own_offer_loses(game: Game, offer: Action, value: ValueNet) -> bool:
    """Whether ``offer``, which the seat to play in ``game`` could make now, would gain it less
    than ``OWN_OFFER_GAIN`` of win chance by ``value`` if it were accepted."""
    return appraise(game, [offer], value)[0].offerer_gain < OWN_OFFER_GAIN


def completing_places(game: Game, seat: int, holder: int) -> list[int]:
    """The places ``holder`` owns that would complete a colour group of ``seat``'s: ``seat``
    holds every other piece of the group."""
    owner = game.owner
    return [sq for sq in board.PLACES if owner[sq] == holder and board.GROUP_OF[sq] is not None
            and all(owner[s] == seat for s in board.GROUP_OF[sq] if s != sq)]


def offers_with_money(game: Game, seat: int, target: int, give: tuple, take: tuple,
                      amounts: Sequence[int]) -> list[Action]:
    """The offers of ``give`` for ``take`` from ``seat`` to ``target`` with each of
    ``amounts`` the payer holds, or none if the places may not change hands."""
    if game.trade_error(actions.offer_trade(target, give, take)) is not None:
        return []
    # The places may change hands; of the money, what the payer holds (the one rule of
    # trade_error left, checked here to spare a call per amount; every offer is checked whole
    # again before it is made).
    cash = game.cash
    return [actions.offer_trade(target, give, take, m) for m in amounts
            if (m <= cash[seat] if m > 0 else -m <= cash[target])]


def rival_swaps(game: Game, seat: int) -> list[tuple[int, int, int, int]]:
    """Swaps two rivals of ``seat`` could make that complete a group each:
    ``(a, place_a_gives, b, place_b_gives)``, each pair once."""
    rivals = [s for s in game.active_seats() if s != seat]
    out = []
    for i, a in enumerate(rivals):
        for b in rivals[i + 1:]:
            for x in completing_places(game, b, a):
                for y in completing_places(game, a, b):
                    if board.GROUP_OF[x] != board.GROUP_OF[y]:
                        out.append((a, x, b, y))
    return out


def listed_deals(game: Game, seat: int) -> list[tuple[Action, str]]:
    """The offers ``seat`` (to play, before rolling) considers, each with its kind: "swap",
    "buy", "sell" or "deny" (see the module docstring)."""
    out: list[tuple[Action, str]] = []
    for target in game.active_seats():
        if target == seat:
            continue
        takes = completing_places(game, seat, target)
        gives = completing_places(game, target, seat)
        for take in takes:
            out += [(o, "buy") for o in offers_with_money(game, seat, target, (), (take,),
                                                     BUY_AMOUNTS)]
            for give in gives:
                if board.GROUP_OF[give] != board.GROUP_OF[take]:
                    out += [(o, "swap") for o in offers_with_money(game, seat, target, (give,),
                                                              (take,), SWAP_AMOUNTS)]
        for give in gives:
            out += [(o, "sell") for o in offers_with_money(game, seat, target, (give,), (),
                                                      SELL_AMOUNTS)]
    listed = {o for o, _ in out}
    for a, x, b, y in rival_swaps(game, seat):
        for holder, place in ((a, x), (b, y)):
            out += [(o, "deny") for o in offers_with_money(game, seat, holder, (), (place,),
                                                      BUY_AMOUNTS) if o not in listed]
    return out


def denial_credit(game: Game, seat: int, value: ValueNet) -> dict[int, float]:
    """For each place whose purchase would stop a swap between two rivals (``rival_swaps``):
    ``DENIAL_SHARE`` of the win chance that swap would cost ``seat``, by ``value`` (the places
    moved directly, no money)."""
    swaps = rival_swaps(game, seat)
    if not swaps:
        return {}
    worlds = [game]
    for a, x, b, y in swaps:
        world = game.clone()
        world.log = []
        world.owner[x], world.owner[y] = b, a
        worlds.append(world)
    mine = value.seat_chances(worlds, seat)
    credit: dict[int, float] = {}
    for (_, x, _, y), after in zip(swaps, mine[1:], strict=True):
        cost = max(0.0, float(mine[0] - after)) * DENIAL_SHARE
        for place in (x, y):
            credit[place] = max(credit.get(place, 0.0), cost)
    return credit


def proposal_ok(a: Appraisal, credit: float = 0.0) -> bool:
    """Whether an appraised proposal is worth making (see the module docstring)."""
    if a.offerer_gain + credit < MIN_GAIN or a.target_gain < -TARGET_LOSS:
        return False
    return not _leads(a.declined, a.target) or a.target_gain - a.offerer_gain <= LEADER_EDGE


def ranked_offers(game: Game, value: ValueNet, skip: frozenset | set = frozenset()
                  ) -> list[Appraisal]:
    """The offers worth making for the seat to play in ``game`` (see the module docstring),
    none of ``skip``, the one to make first first."""
    if game.phase != Phase.PRE_ROLL or not game.can_offer_trade():
        return []
    seat = game.current_player
    listed = [(o, kind) for o, kind in listed_deals(game, seat) if o not in skip]
    if not listed:
        return []
    credit = denial_credit(game, seat, value) if any(k == "deny" for _, k in listed) else {}
    ranked = []
    for k, (a, (_, kind)) in enumerate(zip(appraise(game, [o for o, _ in listed], value),
                                           listed, strict=True)):
        bonus = credit.get(a.offer.take[0], 0.0) if kind == "deny" else 0.0
        if proposal_ok(a, bonus):
            # Deals this module would accept in the target's seat come first: a target that
            # judges alike takes them now, while a swap between two rivals may still come
            # first. Then the larger gain; then the order listed.
            ranked.append(((refusal(a) is not None, -(a.offerer_gain + bonus), k), a))
    ranked.sort(key=lambda r: r[0])
    return [a for _, a in ranked]


def best_offer(game: Game, value: ValueNet, skip: frozenset | set = frozenset(),
               check=None) -> Appraisal | None:
    """The offer the seat to play in ``game`` makes now (see the module docstring), none of
    ``skip``, or None. With ``check`` (``byapar_agents.deal_rollouts.RolloutCheck``), of the first
    ``CHECKED`` offers that complete a group the first that its rollouts confirm."""
    ranked = ranked_offers(game, value, skip)
    if check is None:
        return ranked[0] if ranked else None
    left = CHECKED
    for a in ranked:
        if not (a.completes_offerer or a.completes_target):
            return a
        if check.proposal(game, a.offer, True):
            return a
        left -= 1
        if not left:
            return None
    return None


def offer_key(game: Game, offer: Action) -> tuple:
    """What must change before a refused offer may be made again: the owner, buildings and
    mortgage of every place of the sets (colour group, transports, utilities) it touches."""
    squares = sorted({s for sq in (*offer.give, *offer.take) for s in SET_OF[sq]})
    return (offer, tuple((s, game.owner[s], game.buildings[s], game.mortgaged[s])
                         for s in squares))


@dataclass
class DealMemory:
    """A seat's offers this game: at most one of this module's a turn, and never one made
    before while the places it touches stand as they did (``offer_key``), whoever composed
    it."""

    last_turn: int = -1  # the turn the list was last gone through
    made: set = field(default_factory=set)
    idle: tuple = ()  # (places, round) when the list last gave no offer

    def reset(self) -> None:
        self.last_turn = -1
        self.made.clear()
        self.idle = ()

    def is_repeat(self, game: Game, offer: Action) -> bool:
        """Whether ``offer`` was made before with its places as they stand now."""
        return offer_key(game, offer) in self.made

    def remember(self, game: Game, offer: Action) -> None:
        """Note ``offer`` as made now; forget the offers whose places have changed since (they
        may be made again), so the set holds only offers that are still repeats."""
        self.made = {key for key in self.made if offer_key(game, key[0]) == key}
        self.made.add(offer_key(game, offer))

    def propose(self, game: Game, value: ValueNet, check=None) -> Action | None:
        """This module's offer for the seat to play now, remembered, or None; the list is gone
        through once a turn, at the turn's first decision before rolling."""
        if game.turn_count == self.last_turn:
            return None
        self.last_turn = game.turn_count
        places = (tuple(game.owner), tuple(game.buildings), tuple(game.mortgaged))
        if self.idle and self.idle[0] == places and game.round - self.idle[1] < RELIST_ROUNDS:
            return None
        skip = {key[0] for key in self.made if offer_key(game, key[0]) == key}
        found = best_offer(game, value, skip, check)
        if found is None:
            self.idle = (places, game.round)
            return None
        self.idle = ()
        self.remember(game, found.offer)
        return found.offer
