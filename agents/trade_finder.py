"""Trade offers worth simulating: those the learned policy would accept as their target, ranked
by the value network's gain for the seat that offers them.

The expert's trade candidates otherwise come from two players, each with one idea a turn: the
policy's own draft and the medium player's offer. The finder goes through a list instead:

- **What is listed.** For every other seat still in, every offer of one place of theirs for
  money, one place of the offering seat's for money, or one place each, with money from
  ``AMOUNTS`` either way, that the engine allows now (``Game.trade_error``) and that touches a
  set (a colour group, the transports, the utilities) in which the side receiving a place owns
  another one: a swap of strays changes little, and listing them would crowd out the rest.
- **Would it be accepted?** The policy answers as the target, as the hard player does (its most
  likely answer in the canonical form of ``agents.trade_guard``): one batched forward pass
  answers every offer to a target. For each target and pair of places only the accepted amount
  best for the offering seat is kept (the least it pays, the most it is paid).
- **Is it worth it?** The value network's win chance of the offering seat with the offer
  accepted, less with it declined (``agents.trade_guard.trade_gains``), one batched pass over
  the kept offers; the target's change from the same pass, for its value check: a guarded
  target (every shipped learned player) turns down what fails it, so such offers are not found.

``find_offers`` gives the best few with a gain of at least ``MIN_GAIN``. They are candidates,
not moves: the expert plays each on its simulations, where the target is the policy or the medium
player, and makes one only when the simulations show an edge over the policy's own choice. A
target that answers unlike the policy turns a found offer down; nothing changes hands then.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from byapar_env.action_table import TRADE_MONEY_IDS
from byapar_env.engine import Action, Game, Phase
from byapar_env.engine import actions as A
from byapar_env.engine import board as B

from .network import NumpyPolicy
from .trade_guard import completes_group, passes_check, policy_accept_chances, trade_gains
from .value import ValueNet

# Money either way (positive: the offering seat pays), each one of the environment's amounts.
AMOUNTS = (-3000, -2000, -1000, -500, 0, 500, 1000, 2000, 3000)
MIN_GAIN = 0.01  # a point of win chance: below it the value network's error is larger
GAIN_CHUNK = 32  # offers whose gains are read in one pass, between checks of the deadline
_SET_OF = {sq: (B.GROUP_OF[sq] or (B.TRANSPORTS if sq in B.TRANSPORTS else B.UTILITIES))
           for sq in B.PLACES}
if any(a not in TRADE_MONEY_IDS for a in AMOUNTS):
    raise ValueError("every finder amount must be one of the environment's trade amounts")


@dataclass(frozen=True)
class FoundOffer:
    """An offer the finder found, with the policy's answer to it and the offering seat's gain."""

    offer: Action
    accept: float  # the policy's probability of accepting, as the target
    gain: float  # the offering seat's win chance after, less before (value network)


def _relevant(game: Game, seat: int, target: int, give: int | None, take: int | None) -> bool:
    """Whether a place changing hands joins another of its set held by its new owner."""
    owner = game.owner
    if take is not None and any(owner[s] == seat for s in _SET_OF[take] if s != take):
        return True
    return give is not None and any(owner[s] == target for s in _SET_OF[give] if s != give)


def listed_offers(game: Game, seat: int, target: int) -> list[Action]:
    """The offers the finder considers from ``seat`` (to play, before rolling) to ``target``."""
    theirs = [sq for sq in B.PLACES if game.owner[sq] == target]
    mine = [sq for sq in B.PLACES if game.owner[sq] == seat]
    out = []
    for take in (None, *theirs):
        for give in (None, *mine):
            if (take is None and give is None) or not _relevant(game, seat, target, give, take):
                continue
            gives, takes = () if give is None else (give,), () if take is None else (take,)
            out += offers_with_money(game, seat, target, gives, takes, AMOUNTS)
    return out


def offers_with_money(game: Game, seat: int, target: int, give: tuple, take: tuple,
                      amounts) -> list[Action]:
    """The offers of ``give`` for ``take`` from ``seat`` to ``target`` with each of
    ``amounts`` the payer holds, or none if the places may not change hands."""
    if game.trade_error(A.offer_trade(target, give, take)) is not None:
        return []
    # The places may change hands; of the money, what the payer holds (the one rule of
    # trade_error left, checked here to spare a call per amount; every offer is checked whole
    # again before it is made).
    cash = game.cash
    return [A.offer_trade(target, give, take, amount) for amount in amounts
            if (amount <= cash[seat] if amount > 0 else -amount <= cash[target])]


def find_offers(game: Game, policy: NumpyPolicy, value: ValueNet, limit: int = 1,
                skip: frozenset | set = frozenset(), pre_roll_actions: int = 0,
                guarded: bool = True, deadline: float = math.inf) -> list[FoundOffer]:
    """The best ``limit`` offers the seat to play (before rolling) could make, none of
    ``skip`` (offers, or ``(target, give, take)`` keys): those the policy would accept as the
    target, and with ``guarded`` that the target's value check would pass too
    (``agents.trade_guard``: the shipped learned players guard their answers), with a gain in
    win chance of at least ``MIN_GAIN``, the largest first. The answers are canonical, so
    ``pre_roll_actions`` (taken this turn) does not change them.

    ``deadline`` (``time.perf_counter`` time) is checked before each target's answers and each
    chunk of ``GAIN_CHUNK`` offers' gains: once it has passed, the offers checked so far are
    the ones ranked (none if no gain was read)."""
    if game.phase != Phase.PRE_ROLL or not game.can_offer_trade():
        return []
    seat = game.current_player
    kept: list[tuple[Action, float]] = []
    clock = time.perf_counter
    for target in game.active_seats():
        if target == seat:
            continue
        if clock() > deadline:
            break
        offers = [o for o in listed_offers(game, seat, target)
                  if o not in skip and (o.target, o.give, o.take) not in skip]
        if not offers:
            continue
        best: dict[tuple, tuple[Action, float]] = {}
        chances = policy_accept_chances(policy, game, seat, offers)
        for offer, p in zip(offers, chances, strict=True):
            key = (offer.give, offer.take)
            # The policy's answer is its most likely one; of the accepted amounts the least paid
            if p > 0.5 and (key not in best or offer.amount < best[key][0].amount):
                best[key] = (offer, float(p))
        kept += best.values()
    if not kept:
        return []
    found = []
    for i in range(0, len(kept), GAIN_CHUNK):
        if clock() > deadline:
            break
        chunk = kept[i:i + GAIN_CHUNK]
        theirs, gains = trade_gains(game, [offer for offer, _ in chunk], value)
        found += [FoundOffer(offer, p, float(g))
                  for (offer, p), g, t in zip(chunk, gains, theirs, strict=True)
                  if g >= MIN_GAIN and (not guarded or passes_check(
                      float(t), float(g), completes_group(game, seat, offer)))]
    found.sort(key=lambda f: (-f.gain, f.offer))
    return found[:limit]
