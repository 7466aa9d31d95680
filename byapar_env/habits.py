"""What each seat has done so far in a game: the habits the observation shows of every rival.

People and programs differ (one trades all game, one never; one bids far over list price, one
never builds), and a strong player reads its opponents as the game goes. ``Habits`` counts, per
seat, the engine actions that show those differences; the observation (version 2) shows them
for every seat, relative to the observer (``observation.LAYOUT``'s ``habits`` block).

The counts are the environment's, not the engine's: they are gathered from the actions a
``SeatDriver`` applies (``record`` is called just before each engine action), so an engine game
shown to an environment by hand (``raw_env.show_game``) starts them at zero unless its habits are
given, and a saved environment state carries them. Every feature is a bounded ratio:

- ``offers_per_round``: trade offers made a round, over 3 (capped at 1);
- ``offers_accepted``: the share of its offers that were accepted (with one refusal assumed, so
  a seat that never offered shows 0);
- ``answers_accepted``: the share of offers made to it that it accepted (likewise);
- ``bid_to_price``: in the auctions it bid in, its last bid over the list price, on average,
  over 2 (capped at 1);
- ``buys``: the share of its landings on an unowned place that it bought (likewise);
- ``builds_per_round``: buildings bought a round, over 5 (capped at 1).
"""

from __future__ import annotations

from .engine import Action, ActionKind, Game, Phase, board
from .engine.errors import ByaparError

FEATURES = ("offers_per_round", "offers_accepted", "answers_accepted", "bid_to_price", "buys",
            "builds_per_round")
PER_SEAT = len(FEATURES)
# The counters kept per seat, in this order (``to_list`` and ``from_list`` use it).
COUNTERS = ("offers_made", "offers_taken", "offers_received", "answers_accepted", "auctions_bid",
            "bid_ratio_sum", "last_ratio", "landings", "buys", "builds")
_AUCTION_KEY = len(COUNTERS)  # the auction the last bid was in: (turn_count, square)
_PRICE = tuple(s.price for s in board.SQUARES)
_COUNTED = frozenset((ActionKind.OFFER_TRADE, ActionKind.ACCEPT_TRADE, ActionKind.BID,
                      ActionKind.BUY, ActionKind.DECLINE, ActionKind.BUILD))


class HabitsError(ByaparError, ValueError):
    """Saved habits that do not fit the table; the message says what was expected."""


class Habits:
    """Counters of one game's actions, per absolute seat."""

    __slots__ = ("num_players", "seats", "changes", "cache")

    def __init__(self, num_players: int) -> None:
        self.num_players = num_players
        # Per seat: the counters, then the key of its last auction (-1 before any).
        self.seats = [[0] * len(COUNTERS) + [-1] for _ in range(num_players)]
        self.changes = 0  # counts every change of the counts, so readers can cache what they derive
        self.cache: dict = {}  # for such a reader (the observation's encoded block)

    def copy(self) -> Habits:
        other = Habits(self.num_players)
        other.seats = [list(row) for row in self.seats]
        return other

    def record(self, game: Game, action: Action) -> tuple:
        """Count ``action``, which ``game.current_player`` is about to take in ``game``; returns
        what ``restore`` needs to take the count back (the engine may still refuse the action).
        Most actions count nothing and cost a few comparisons."""
        kind = action.kind
        if kind not in _COUNTED:
            return ()
        p = game.current_player
        row = self.seats[p]
        undo = ((p, row[:]),)
        self.changes += 1
        if kind == ActionKind.OFFER_TRADE:
            other = self.seats[action.target]
            undo += ((action.target, other[:]),)
            row[0] += 1
            other[2] += 1
        elif kind == ActionKind.ACCEPT_TRADE:
            offerer = game.offer[0]
            undo += ((offerer, self.seats[offerer][:]),)
            self.seats[offerer][1] += 1
            row[3] += 1
        elif kind == ActionKind.BID and game.phase == Phase.AUCTION:
            square = game.auction.square
            ratio = action.amount / _PRICE[square]
            key = game.turn_count * 64 + square
            if row[_AUCTION_KEY] == key:  # a raise in the same auction replaces its last bid
                row[5] += ratio - row[6]
            else:
                row[4] += 1
                row[5] += ratio
                row[_AUCTION_KEY] = key
            row[6] = ratio
        elif kind == ActionKind.BUY:
            row[7] += 1
            row[8] += 1
        elif kind == ActionKind.DECLINE:
            row[7] += 1
        elif kind == ActionKind.BUILD:
            row[9] += 1
        return undo

    def restore(self, undo: tuple) -> None:
        """Take back what ``record`` counted (``undo`` is its return value)."""
        for seat, row in reversed(undo):
            self.seats[seat] = row
        self.changes += 1

    def features(self, seat: int, rounds: int) -> tuple[float, ...]:
        """``seat``'s ``FEATURES`` after ``rounds`` rounds (the game's round number)."""
        (made, taken, received, accepted, auctions, ratio_sum, _last, landings, buys,
         builds) = self.seats[seat][:len(COUNTERS)]
        rounds = max(rounds, 1)
        return (min(made / rounds / 3.0, 1.0), taken / (made + 1), accepted / (received + 1),
                min(ratio_sum / auctions / 2.0, 1.0) if auctions else 0.0,
                buys / (landings + 1), min(builds / rounds / 5.0, 1.0))

    def to_list(self) -> list[list[float]]:
        """JSON-ready counters, one row per seat (``from_list`` reads them back)."""
        return [list(row) for row in self.seats]

    @classmethod
    def from_list(cls, rows: object, num_players: int) -> Habits:
        """Habits from ``to_list`` rows; HabitsError naming what is wrong, if anything."""
        width = len(COUNTERS) + 1
        if (not isinstance(rows, list) or len(rows) != num_players or any(
                not isinstance(r, list) or len(r) != width for r in rows)):
            raise HabitsError(f"habits must be {num_players} rows of {width} numbers "
                              f"({', '.join(COUNTERS)}, the last auction's key)")
        for r in rows:
            for i, x in enumerate(r):
                if isinstance(x, bool) or not isinstance(x, (int, float)) or not (
                        x >= (-1 if i == _AUCTION_KEY else 0)) or x != x or x > 1e12:
                    name = COUNTERS[i] if i < len(COUNTERS) else "the last auction's key"
                    raise HabitsError(f"habits: {name} must be a number from 0 to 10^12 "
                                      f"(-1 for no auction's key), got {x!r}")
        habits = cls(num_players)
        habits.seats = [list(r) for r in rows]
        return habits
