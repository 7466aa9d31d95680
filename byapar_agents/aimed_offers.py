"""Offers aimed at what a rival takes: the hard player's wide list, weighed by the rival's answers.

The deal module (``byapar_agents.deals``) offers only deals that change who holds a group whole
and that its value network says the target gains by (or loses at most a point by): it offers
what it would itself accept. A rival that judges by its own rule takes other offers too. Here
the seat to play lists a wider set (``wide_offers``):

- **purchases** of any place without buildings that a rival holds, of a set the seat already
  has a piece of, at about a half, one, one and a half, two and three times its list price;
- **swaps** of any place of the seat's without buildings (never a piece of a group it holds
  whole) for such a place, with Rs 1,000 from the target, nothing, or Rs 1,000 or 2,000 to it;
- the deal module's own list (``deals.listed_deals``).

Each is judged by the chance that its target accepts it (``AnswerReader.chances``, learned
from every answer seen this game) and by the value network (``deals.appraise``: the seat's gain
in win chance if accepted). The offer made (``aimed_offer``) is the one that gains the seat most
of those whose chance is at least ``MIN_CHANCE`` and whose gain is at least ``deals.MIN_GAIN``;
offers it made before while their places stand as they did are left out (``deals.DealMemory``),
so a refused offer gives way to the next best one turn by turn.

Why the largest gain and not the largest expected gain: a rival takes eagerly the offers that
are best for it, so ranking by the chance of acceptance picks the deals that cost the seat most
where its network errs. Offered best-for-the-seat first, a deal is taken where the rival only
just accepts it (docs/expert_iteration.md, "Offers aimed by the rivals' answers").
"""

from __future__ import annotations

from collections.abc import Callable

from byapar_env.action_table import TRADE_AMOUNTS
from byapar_env.engine import Action, Game, Phase, board

from .answer_reader import AnswerReader
from .deals import (
    MIN_GAIN,
    SET_OF,
    Appraisal,
    appraise,
    completes_group,
    completes_target_group,
    listed_deals,
    offers_with_money,
)
from .tactics import PRICE
from .value import ValueNet

PRICE_SHARES = (0.5, 1.0, 1.5, 2.0, 3.0)  # of a place's list price, offered for it
SWAP_MONEY = (-1000, 0, 1000, 2000)  # with a swap (positive: the seat pays)
MIN_CHANCE = 0.05  # the least chance of acceptance an offer made here may have


def near_amounts(price: int) -> list[int]:
    """The trade amounts nearest ``PRICE_SHARES`` of ``price``, each once, ascending."""
    return sorted({min(TRADE_AMOUNTS, key=lambda a: abs(a - price * share))
                   for share in PRICE_SHARES})


def wide_offers(game: Game, seat: int) -> list[Action]:
    """The offers ``seat`` (to play, before rolling) weighs here (see the module docstring),
    each legal now, each once."""
    owner = game.owner

    def has_piece_of(sq: int, who: int) -> bool:
        return any(owner[s] == who for s in SET_OF[sq] if s != sq)

    def in_whole_group(sq: int) -> bool:
        group = board.GROUP_OF[sq]
        return group is not None and all(owner[s] == seat for s in group)

    out = [o for o, _ in listed_deals(game, seat)]
    givable = [s for s in board.PLACES
               if owner[s] == seat and not game.buildings[s] and not in_whole_group(s)]
    for target in game.active_seats():
        if target == seat:
            continue
        for take in board.PLACES:
            if owner[take] != target or game.buildings[take] or not has_piece_of(take, seat):
                continue
            out += offers_with_money(game, seat, target, (), (take,), near_amounts(PRICE[take]))
            for give in givable:
                out += offers_with_money(game, seat, target, (give,), (take,), SWAP_MONEY)
    seen: set[Action] = set()
    unique = []
    for o in out:
        if o not in seen and game.trade_error(o) is None:
            seen.add(o)
            unique.append(o)
    return unique


def largest_gain(appraised: list[Appraisal]) -> Appraisal | None:
    """Of ``appraised``, the first that gains the offering seat most, if that is at least
    ``deals.MIN_GAIN``; else None."""
    best = None
    for a in appraised:
        if a.offerer_gain >= MIN_GAIN and (best is None or a.offerer_gain > best.offerer_gain):
            best = a
    return best


def aimed_offer(game: Game, value: ValueNet, reader: AnswerReader,
                made_before: Callable[[Action], bool] = lambda offer: False
                ) -> Appraisal | None:
    """The offer the seat to play in ``game`` makes now (see the module docstring), none for
    which ``made_before`` holds, or None."""
    if game.phase != Phase.PRE_ROLL or not game.can_offer_trade():
        return None
    seat = game.current_player
    offers = [o for o in wide_offers(game, seat) if not made_before(o)]
    if not offers:
        return None
    chances = reader.chances(game, seat, offers)
    likely = [k for k, c in enumerate(chances) if c >= MIN_CHANCE]
    if not likely:
        return None
    return largest_gain(appraise(game, [offers[k] for k in likely], value))


def consolidation_offer(game: Game, value: ValueNet, reader: AnswerReader | None = None,
                        made_before: Callable[[Action], bool] = lambda offer: False
                        ) -> Appraisal | None:
    """The consolidating offer the seat to play in ``game`` makes now, or None: of the wide
    list, the offers that complete no colour group for either side (a second piece of a set
    bought, or one loose place swapped for another), none for which ``made_before`` holds and,
    given a ``reader``, none whose chance of acceptance is under ``MIN_CHANCE``, the one that
    gains the seat most by ``value``, if that is at least ``deals.MIN_GAIN``. Why such deals,
    and what they won and did not: docs/expert_iteration.md, "Two-way swaps barred, and
    consolidating offers"."""
    if game.phase != Phase.PRE_ROLL or not game.can_offer_trade():
        return None
    seat = game.current_player
    offers = [o for o in wide_offers(game, seat)
              if not made_before(o) and not completes_group(game, seat, o)
              and not completes_target_group(game, seat, o)]
    if reader is not None and offers:
        chances = reader.chances(game, seat, offers)
        offers = [o for o, c in zip(offers, chances, strict=True) if c >= MIN_CHANCE]
    return largest_gain(appraise(game, offers, value))
