"""Trade offers worth simulating: those the hard player would accept as their target, ranked by
the value network's gain for the seat that offers them.

The expert's trade candidates otherwise come from two players, each with one idea a turn: the
policy's own draft and the medium player's offer. The finder goes through a list instead:

- **What is listed.** For every other seat still in, every offer of one place of theirs for
  money, one place of the offering seat's for money, or one place each, with money from
  ``AMOUNTS`` either way, that the engine allows now (``Game.trade_error``) and that touches a
  set (a colour group, the transports, the utilities) in which the side receiving a place owns
  another one: a swap of strays changes little, and listing them would crowd out the rest.
- **Is it worth it, and would it be accepted?** The deal module's appraisal of each offer
  (``byapar_agents.deals.appraise``: every seat's win chance with it accepted and declined, batched
  by chunks): the offering seat's gain, and the target's answer by the deal judgement
  (``byapar_agents.deals.refusal``), as the hard player answers; with ``guarded`` off, the policy's
  own answer instead (its most likely one in the canonical form of ``byapar_agents.trade_guard``).
  For each target and pair of places only the accepted amount best for the offering seat is
  kept.

``find_offers`` gives the best few with a gain of at least ``MIN_GAIN``. They are candidates,
not moves: the expert plays each on its simulations, where the target is the policy or the medium
player, and makes one only when the simulations show an edge over the policy's own choice. A
target that answers unlike the policy turns a found offer down; nothing changes hands then.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from byapar_env.action_table import TRADE_MONEY_IDS
from byapar_env.engine import Action, Game, Phase, board

from .deals import SET_OF, appraise, offers_with_money, refusal
from .network import NumpyPolicy
from .trade_guard import policy_accept_chances
from .value import ValueNet

# Money either way (positive: the offering seat pays), each one of the environment's amounts.
AMOUNTS = (-3000, -2000, -1000, -500, 0, 500, 1000, 2000, 3000)
MIN_GAIN = 0.01  # a point of win chance: below it the value network's error is larger
GAIN_CHUNK = 32  # offers whose gains are read in one pass, between checks of the deadline
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
    if take is not None and any(owner[s] == seat for s in SET_OF[take] if s != take):
        return True
    return give is not None and any(owner[s] == target for s in SET_OF[give] if s != give)


def listed_offers(game: Game, seat: int, target: int) -> list[Action]:
    """The offers the finder considers from ``seat`` (to play, before rolling) to ``target``."""
    theirs = [sq for sq in board.PLACES if game.owner[sq] == target]
    mine = [sq for sq in board.PLACES if game.owner[sq] == seat]
    out = []
    for take in (None, *theirs):
        for give in (None, *mine):
            if (take is None and give is None) or not _relevant(game, seat, target, give, take):
                continue
            gives, takes = () if give is None else (give,), () if take is None else (take,)
            out += offers_with_money(game, seat, target, gives, takes, AMOUNTS)
    return out


def find_offers(game: Game, policy: NumpyPolicy, value: ValueNet, limit: int = 1,
                skip: frozenset | set = frozenset(), pre_roll_actions: int = 0,
                guarded: bool = True, deadline: float = math.inf) -> list[FoundOffer]:
    """The best ``limit`` offers the seat to play (before rolling) could make, none of
    ``skip`` (offers, or ``(target, give, take)`` keys), that the target would accept, with a
    gain in win chance of at least ``MIN_GAIN``, the largest first. With ``guarded`` the target
    answers by the deal judgement (``byapar_agents.deals``), as every shipped learned player does;
    without it, as its policy alone does (its canonical answer, which ``pre_roll_actions``
    taken this turn does not change).

    ``deadline`` (``time.perf_counter`` time) is checked before each target's answers and each
    chunk of ``GAIN_CHUNK`` offers' gains: once it has passed, the offers checked so far are
    the ones ranked (none if no gain was read)."""
    if game.phase != Phase.PRE_ROLL or not game.can_offer_trade():
        return []
    seat = game.current_player
    found: list[FoundOffer] = []
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
        # The policy's accept chance (1 where the deal judgement answers: it accepts or not)
        chances = (np.ones(len(offers)) if guarded
                   else policy_accept_chances(policy, game, seat, offers))
        best: dict[tuple, FoundOffer] = {}
        for i in range(0, len(offers), GAIN_CHUNK):
            if clock() > deadline:
                break
            chunk = offers[i:i + GAIN_CHUNK]
            for offer, p, a in zip(chunk, chances[i:i + GAIN_CHUNK],
                                   appraise(game, chunk, value), strict=True):
                yes = refusal(a) is None if guarded else p > 0.5
                key = (offer.give, offer.take)
                # Of the accepted amounts for the same places, the one best for the offerer
                if yes and a.offerer_gain >= MIN_GAIN and (
                        key not in best or a.offerer_gain > best[key].gain):
                    best[key] = FoundOffer(offer, float(p), float(a.offerer_gain))
        found += best.values()
    found.sort(key=lambda f: (-f.gain, f.offer))
    return found[:limit]
