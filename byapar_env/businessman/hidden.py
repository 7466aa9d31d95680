"""What a seat of Businessman may know and what it cannot: its view of the game, the Exchange
cards it has not seen, and a copy with everything hidden from it drawn afresh (for searches that
must not peek).

``HiddenInformation`` is a part of ``Game`` (one of its bases): its methods read the game's
fields like the game's own.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ..core.errors import show
from . import board
from .board import FIGURES

if TYPE_CHECKING:
    from .game import Game

_IS_LARGE = tuple(k.deck == board.LARGE for k in board.EXCHANGE_KINDS)
# Every printed Exchange card by kind (both decks).
_ALL_EXCHANGE = tuple(sorted(board.EXCHANGE_DECK[board.LARGE] + board.EXCHANGE_DECK[board.SMALL]))
_DEAL_TRIES = 32  # draws of the hidden hands within the deal's limits before drawing freely


class HiddenInformation:
    """The hidden-information part of ``Game``."""

    def view(self, seat: int) -> dict:
        """Everything ``seat`` may know, as plain values: the public state, its own Exchange
        hand, the size of every hand, the played cards and the deck sizes; never another
        seat's hand, a deck's order, the generator or the seed."""
        if type(seat) is not int or not 0 <= seat < self.num_players:
            raise ValueError(f"seat must be 0 to {self.num_players - 1}, got {show(seat)}")
        t = self.trade
        return {
            "rules": self.rules.to_dict(), "seat": seat, "turn": self.turn, "round": self.round,
            "turn_count": self.turn_count, "phase": int(self.phase),
            "current_player": self.current_player, "dice": list(self.dice),
            "cash": list(self.cash), "track": list(self.track), "position": list(self.position),
            "laps": list(self.laps), "shares": [list(s) for s in self.shares],
            "passes": [list(p) for p in self.passes], "bankrupt": list(self.bankrupt),
            "owner": list(self.owner), "level": list(self.level),
            "mortgaged": list(self.mortgaged), "pledge_lap": list(self.pledge_lap),
            "prices": list(self.prices), "supply": list(self.supply),
            "played": list(self.played), "hand": list(self.hands[seat]),
            "hand_sizes": [len(h) for h in self.hands],
            "deck_sizes": {d: len(c) for d, c in self.decks.items()},
            "trades_made": self.trades_made, "pending_cell": self.pending_cell,
            "fork": self.fork, "picks_left": self.picks_left,
            "session_bought": list(self.session_bought),
            "trade": None if t is None else t.to_dict(),
            "debt": None if self.debt is None else list(self.debt),
            "winners": list(self.winners),
        }

    def unseen_cards(self, seat: int) -> list[int]:
        """The Exchange cards ``seat`` cannot see, as kinds in increasing order: every printed
        card of both decks less its own hand and the played cards. The other seats' hands are
        among them; the rest were never dealt (or went with a bankrupt seat's hand)."""
        if type(seat) is not int or not 0 <= seat < self.num_players:
            raise ValueError(f"seat must be 0 to {self.num_players - 1}, got {show(seat)}")
        rest = list(_ALL_EXCHANGE)
        for k in self.hands[seat] + self.played:
            rest.remove(k)
        return rest

    def determinise(self, seat: int, rng: random.Random) -> Game:
        """A clone in which everything hidden from ``seat`` is drawn afresh from ``rng``: each
        other seat's Exchange hand, of the same size, from ``unseen_cards(seat)``; the order of
        each Surprise and Notice deck (the same cards, reshuffled); the generator (reseeded from
        ``rng``, so later dice are new); no forced dice and no seed. ``view(seat)`` of the clone
        equals this game's, and what is drawn depends on that view alone (two games differing
        only in what ``seat`` cannot see give the same clone). A hand is drawn card by card
        from the unseen cards, keeping to what the deal allows a hand (at most ``hand_large``
        cards of the large deck and ``hand_small`` of the small one, as no card is ever added
        to a hand); if a position allows no such draw (hands set by hand), the hands are drawn
        freely. The same ``rng`` state gives the same clone. This game is left unchanged."""
        if not isinstance(rng, random.Random):
            raise TypeError(f"rng must be a random.Random, got {type(rng).__name__}")
        unseen = self.unseen_cards(seat)
        g = self.clone()
        others = [s for s in range(self.num_players) if s != seat and self.hands[s]]
        hands = _deal_hidden(unseen, [len(self.hands[s]) for s in others], rng)
        for s, hand in zip(others, hands, strict=True):
            g.hands[s] = hand
        for d in sorted(g.decks):
            cards = sorted(g.decks[d])  # from their numbers alone: the order is not read
            rng.shuffle(cards)
            g.decks[d] = cards
        g.rng = random.Random(rng.getrandbits(64))
        g.forced_dice = []
        g.seed = None
        return g


def _deal_hidden(unseen: list[int], sizes: list[int], rng: random.Random) -> list[list[int]]:
    """Hands of ``sizes`` drawn from the ``unseen`` card kinds: card by card, large or small in
    proportion to what is left, each hand within the deal's limits per deck; after
    ``_DEAL_TRIES`` draws that run short, a free draw of the whole pool."""
    large = [k for k in unseen if _IS_LARGE[k]]
    small = [k for k in unseen if not _IS_LARGE[k]]
    for _ in range(_DEAL_TRIES):
        rng.shuffle(large)
        rng.shuffle(small)
        li = si = 0
        hands = []
        for size in sizes:
            hand: list[int] = []
            nl = ns = 0
            for _ in range(size):
                left_l, left_s = len(large) - li, len(small) - si
                can_l = left_l > 0 and nl < FIGURES.hand_large
                can_s = left_s > 0 and ns < FIGURES.hand_small
                if can_l and (not can_s or rng.random() * (left_l + left_s) < left_l):
                    hand.append(large[li])
                    li += 1
                    nl += 1
                elif can_s:
                    hand.append(small[si])
                    si += 1
                    ns += 1
                else:
                    break
            if len(hand) < size:
                break
            hands.append(sorted(hand))
        else:
            return hands
    pool = large + small
    rng.shuffle(pool)
    out, i = [], 0
    for size in sizes:
        out.append(sorted(pool[i:i + size]))
        i += size
    return out
