"""Port of the benchmark player of harveyxia/monopoly (github.com/harveyxia/monopoly, commit
cbadcff), a Yale course project whose ``BenchmarkPlayer`` follows Tim Darling's "How to Win at
Monopoly" (amnesta.net): one colour set at a time in a fixed order of preference, three houses
before anything else, jail as a shelter once a rival holds a set, and a cash reserve of the
largest rent on the board. It never trades (the project's game has no trades).

Source files (commit cbadcff):

- ``players/benchmark_player.py`` lines 6-12 (its plan: the set it collects, the early and late
  game), 14-120 (buying), 122-157 (raising cash), 159-173 (building), 175-198 (jail), 207-226
  (whether a set is still free; whether one double from jail would finish the orange set);
- ``monopoly/player.py`` lines 172-184 (a building choice that names a mortgaged place pays the
  mortgage off), 245-259 (a rival holding a whole set; the largest rent a rival charges);
- ``monopoly/monopoly.py`` lines 117-147 (jail: the player's answer follows the roll), 206 (it
  is asked to build again and again after every move), 394-421 and 490-493 (what may be built).

Adapted to Byapar:

- The classic colour sets are Byapar's groups in board order (``common.CLASSIC_SET``): the
  preferred order orange, light blue, pink, brown is Madhesh, Sudurpashchim, Lumbini, Karnali;
  the late sets (pink to dark blue) are Lumbini to Capital. The orange rule for jail names the
  two orange streets six and eight squares from jail; Byapar's Madhesh pair stands at those same
  distances, so the rule reads "the one place the set lacks is a double away from jail".
- The reserve is the largest rent a rival's place charges now as Byapar charges it (a set's
  doubled rent, a transport's by its holder's count, a utility at a roll of 7); the source
  reads each place's own rent figure. It is a board figure, so no scaling is needed.
- Auctions: the source's game has none. Here it bids on a place its buying rule wants, up to the
  price and never below the reserve; the plan that buying would make (the set it collects) is
  kept only if it wins the place.
- Raising cash: the source sells places back to the bank at their price; Byapar only mortgages
  them. So places outside whole groups are mortgaged first (the source: sold, latest bought
  first; here from the last square back), then buildings on whole groups are sold, then those
  places mortgaged. It never buys a mortgage back outside a whole group (the source's sold
  places are gone); on a whole group it pays one off before building, as the source's engine
  does when the building choice names a mortgaged place.
- Building happens before a roll here (there: after each move), on places in board order (there:
  in the order bought); the last place offered, as the source's loop leaves it, once it builds
  past three houses. It builds while its cash is above the house cost, with no reserve, as there.
- Jail: "leave" is a bail card if held (the source's own TODO), else the fine; "stay" is a roll
  for a double, which frees and moves the player here as its comment intends (its code stays
  even on a double). Byapar's third miss makes it pay, as the source leaves after three turns.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from byapar_env.engine import Action, ActionKind, Game, Phase, actions, board

from ..base import EnginePlayer
from .common import CLASSIC_SET, GROUP_OF, HOUSE_COST, PRICE, forced_sale, legal_of

COLOUR_OF = {board.GROUPS[group]: colour for colour, group in CLASSIC_SET.items()}
GROUP = {colour: board.GROUPS[group] for colour, group in CLASSIC_SET.items()}
EARLY_ORDER = ("orange", "light_blue", "purple", "brown")  # sides one and two, best first
LATE_SETS = ("purple", "orange", "red", "yellow", "green", "dark_blue")  # sides two and three
BUILD_TO = 3  # houses per place before it builds further
MEAN_ROLL = 7
DOUBLES = {2 * d for d in range(1, 7)}


@dataclass(frozen=True)
class Plan:
    """What the source keeps between decisions (lines 8-12): the set it collects, whether its
    first set is done (sides two and three next), and whether its second one is."""

    focus: str | None = None
    late: bool = False
    finished: bool = False


def largest_rent(game: Game, seat: int) -> int:
    """``Player.largest_rent`` (player.py 252-259): the most a rival's place charges now."""
    return max((game.rent(sq, MEAN_ROLL) for sq in board.PLACES
                if game.owner[sq] >= 0 and game.owner[sq] != seat), default=0)


def rival_holds_a_set(game: Game, seat: int) -> bool:
    """``Player.others_have_monopoly`` (player.py 245-250)."""
    return any(game.owner[g[0]] not in (-1, seat) and game.owns_group(game.owner[g[0]], g[0])
               for g in board.GROUPS.values())


def set_is_free(game: Game, seat: int, colour: str) -> bool:
    """``should_focus_color`` (lines 207-216): no rival holds a place of the set."""
    return all(game.owner[s] in (-1, seat) for s in GROUP[colour])


def chasing_orange(game: Game, seat: int) -> bool:
    """``trying_to_complete_orange`` (lines 218-226): it holds all of the orange set but one
    place, and that place is a double away from jail."""
    missing = [s for s in GROUP["orange"] if game.owner[s] != seat]
    return len(missing) == 1 and (missing[0] - board.JAIL_SQUARE) % board.NUM_SQUARES in DOUBLES


class DarlingBenchmarkPlayer(EnginePlayer):
    """``BenchmarkPlayer`` of harveyxia/monopoly (players/benchmark_player.py, commit cbadcff):

    - buys only with the price plus the largest rent a rival charges in hand (line 15); every
      transport, never a utility (lines 18-23);
    - buys a street that completes a set or blocks one (the rest of the set held by one seat,
      lines 26-56); else one of the set it collects while no rival holds a place there (58-65);
    - early, collects one set at a time in the order orange, light blue, pink, brown, the first
      still free (67-96); once all four are contested, or its first set is done, any free set
      of sides two and three (pink to dark blue, 98-120); declines the rest;
    - builds to three houses on every place of its sets first, and further only once it has
      completed a second set (159-173);
    - stays in jail while a rival holds a whole set, or while one double could finish its
      orange set; else leaves at once (175-198);
    - raises cash from places outside its sets first, then from its sets (122-157);
    - never offers a trade and refuses every one (its game has none).
    """

    name = "outside-harveyxia-benchmark"

    def __init__(self) -> None:
        super().__init__()
        self.reset()

    def reset(self, seed: int | None = None) -> None:
        super().reset(seed)
        # Per seat (one object may be seated twice): the plan, and one made while bidding,
        # kept only if the auction's place becomes its own.
        self.plans: dict[int, Plan] = {}
        self.pending: dict[int, tuple[int, Plan]] = {}

    # ---------------------------------------------------------------- buying (lines 14-120)
    def wants(self, game: Game, seat: int, sq: int) -> tuple[bool, Plan]:
        """The source's buying rule past its cash test, and the plan it leaves (the source
        changes its plan even when it declines)."""
        plan = self.plans.get(seat, Plan())
        kind = board.SQUARES[sq].kind
        if kind == board.TRANSPORT:
            return True, plan
        if kind != board.CITY:
            return False, plan
        colour = COLOUR_OF[GROUP_OF[sq]]
        rest = [s for s in GROUP_OF[sq] if s != sq]
        owners = {game.owner[s] for s in rest if game.owner[s] >= 0}
        others_owned = sum(1 for s in rest if game.owner[s] not in (-1, seat))
        if len(owners) == 1 and all(game.owner[s] >= 0 for s in rest):
            if plan.focus == colour:  # its set done: the late sets next, or building past three
                plan = Plan(None, True, plan.late or plan.finished)
            return True, plan
        if plan.focus == colour:
            if others_owned == 0:
                return True, plan
            plan = replace(plan, focus=None)
        if plan.late:
            if colour in LATE_SETS and others_owned == 0 and plan.focus is None:
                return True, replace(plan, focus=colour)
            return False, plan
        for pref in EARLY_ORDER:
            if colour == pref:
                if others_owned == 0 and plan.focus is None:
                    return True, replace(plan, focus=colour)
                break
            if set_is_free(game, seat, pref):
                break  # a better set is still free: not this one
        if not any(set_is_free(game, seat, c) for c in EARLY_ORDER):
            plan = replace(plan, late=True)
            if others_owned == 0 and plan.focus is None:
                return True, replace(plan, focus=colour)
        return False, plan

    def buy(self, game: Game, seat: int, sq: int) -> Action:
        if game.cash[seat] < PRICE[sq] + largest_rent(game, seat):
            return actions.decline(sq)
        want, self.plans[seat] = self.wants(game, seat, sq)
        return actions.buy(sq) if want else actions.decline(sq)

    def bid(self, game: Game, seat: int) -> Action:
        sq = game.auction.square
        want, plan = self.wants(game, seat, sq)
        ceiling = min(PRICE[sq], game.cash[seat] - largest_rent(game, seat))
        bid = game.auction.high + board.BID_STEP
        if not want or bid > ceiling:
            return actions.DROP_OUT
        self.pending[seat] = (sq, plan)
        return actions.bid(sq, bid)

    def settle(self, game: Game, seat: int) -> None:
        """Keep the plan made while bidding once the auction is over and the place is its own."""
        if seat not in self.pending:
            return
        sq, plan = self.pending[seat]
        if game.auction is not None and game.auction.square == sq:
            return
        del self.pending[seat]
        if game.owner[sq] == seat:
            self.plans[seat] = plan

    # ---------------------------------------------------------------- building (lines 159-173)
    def build(self, game: Game, seat: int, legal: list[Action]) -> Action | None:
        for a in legal_of(legal, ActionKind.UNMORTGAGE):
            if game.owns_group(seat, a.square):
                return a
        builds = [a for a in legal_of(legal, ActionKind.BUILD)
                  if game.cash[seat] > HOUSE_COST[a.square]]
        for a in builds:
            if game.buildings[a.square] < BUILD_TO:
                return a
        if builds and self.plans.get(seat, Plan()).finished:
            return builds[-1]
        return None

    # ---------------------------------------------------------------- raising cash (122-157)
    @staticmethod
    def raise_cash(game: Game, seat: int, legal: list[Action]) -> Action:
        mortgages = sorted(legal_of(legal, ActionKind.MORTGAGE), key=lambda a: -a.square)
        loose = [a for a in mortgages
                 if GROUP_OF[a.square] is None or not game.owns_group(seat, a.square)]
        if loose:
            return loose[0]
        sales = sorted(legal_of(legal, ActionKind.SELL_BUILDING), key=lambda a: -a.square)
        if sales:
            return sales[0]
        return mortgages[0] if mortgages else forced_sale(legal)

    # ---------------------------------------------------------------- jail (lines 175-198)
    def stays_in_jail(self, game: Game, seat: int) -> bool:
        plan = self.plans.get(seat, Plan())
        if plan.focus == "orange" and chasing_orange(game, seat):
            return True
        return rival_holds_a_set(game, seat)

    # ---------------------------------------------------------------- the engine's questions
    def choose(self, game: Game, seat: int, legal: list[Action]) -> Action:
        self.settle(game, seat)
        ph = game.phase
        if ph == Phase.BUY:
            return self.buy(game, seat, game.pending_square)
        if ph == Phase.AUCTION:
            return self.bid(game, seat)
        if ph == Phase.TRADE_ANSWER:
            return actions.REJECT_TRADE
        if ph == Phase.RAISE_CASH:
            return self.raise_cash(game, seat, legal)
        if game.in_jail[seat] and not self.stays_in_jail(game, seat):
            for leave in (actions.USE_BAIL_CARD, actions.PAY_FINE):
                if leave in legal:
                    return leave
        build = self.build(game, seat, legal)
        return build if build is not None else actions.ROLL


__all__ = ["DarlingBenchmarkPlayer", "Plan"]
