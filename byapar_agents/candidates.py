"""Candidates enumerated from the position rather than drawn from a policy (issue 39, item 2).

A policy's few most likely actions miss the bids a strong player weighs: far above the list
price for the last piece of its own group, and a hold-out bid against a rival who needs the
place. ``auction_bids`` lists, for the bidder to play in an auction:

- dropping out;
- a bid at the place's list price;
- where every other place of its group is one rival's (**denial**): a bid at one and a half
  times the price;
- where every other place of its group is the bidder's (**completion**): a bid at twice the
  price.

Each amount is rounded down to the bid step and listed only where it is a legal bid now (above
the highest bid, within the bidder's cash). The expert adds them to its candidates with
``enumerate_bids`` (the name ``expert-enum``); the search then tells which, if any, is worth it.

The moves away from auctions and trades (``move_choices``; the expert's ``enumerate_moves``, the
name ``expert-moves``), each a single legal action, so that the search decides how many houses
and where one step at a time, as the game asks:

- **jail** (``jail_choices``), before rolling in jail: staying (rolling for a double), paying the
  fine, using a bail card, whichever are legal;
- **houses** (``house_choices``), before rolling where a building is legal: rolling without
  building, and for each colour group one building on the group's place with the fewest
  buildings (the lowest square on a tie);
- **mortgages and raising cash** (``property_choices``): while raising cash, of the legal
  mortgages and building sales, the ``PROPERTY_CHOICES`` that leave the seat the most position
  value (``byapar_env.valuation.position_value``: cash, places and the rent they should bring);
  before rolling, the pay-off that does, if any is legal.
"""

from __future__ import annotations

from byapar_env.engine import Action, ActionKind, Game, Phase, actions, board
from byapar_env.valuation import position_value

from .judge import position_after

LIST_PRICE = 1.0
DENIAL = 1.5  # times the price, against a rival who holds the rest of the group
COMPLETION = 2.0  # times the price, for the last piece of the bidder's own group
# The ways of raising cash listed: the best few by the position value they leave (a sale of a
# building and a mortgage on the same group are often close, a loose place's mortgage cheaper).
PROPERTY_CHOICES = 3
_RAISING = frozenset({ActionKind.MORTGAGE, ActionKind.SELL_BUILDING})


def group_holder(game: Game, square: int) -> int | None:
    """The seat that holds every other place of ``square``'s colour group, if one does (None
    for a place outside the groups, or a group split between seats or partly unowned)."""
    group = board.GROUP_OF[square]
    if group is None:
        return None
    owners = {game.owner[s] for s in group if s != square}
    if len(owners) != 1:
        return None
    (owner,) = owners
    return owner if owner >= 0 else None


def auction_bids(game: Game) -> list[Action]:
    """The enumerated bids of the seat to bid in ``game``'s auction (none outside an
    auction), dropping out first, in increasing amount."""
    if game.phase != Phase.AUCTION or game.auction is None:
        return []
    seat = game.current_player
    square = game.auction.square
    price = board.SQUARES[square].price
    factors = [LIST_PRICE]
    holder = group_holder(game, square)
    if holder == seat:
        factors.append(COMPLETION)
    elif holder is not None:
        factors.append(DENIAL)
    listed = [actions.DROP_OUT]
    for factor in factors:
        amount = int(price * factor) // board.BID_STEP * board.BID_STEP
        bid = actions.bid(square, amount)
        if bid not in listed and game.is_legal(bid):
            listed.append(bid)
    return listed


def jail_choices(game: Game) -> list[Action]:
    """Before rolling in jail, the legal ways out or not, in this order: rolling, paying the
    fine, using a bail card (none for a seat not in jail, or in another phase)."""
    if game.phase != Phase.PRE_ROLL or not game.in_jail[game.current_player]:
        return []
    return [a for a in (actions.ROLL, actions.PAY_FINE, actions.USE_BAIL_CARD)
            if game.is_legal(a)]


def house_choices(game: Game) -> list[Action]:
    """Before rolling, where the seat may build: rolling, then one building per colour group
    (on its place with the fewest buildings, the lowest square on a tie), groups in board
    order; none where no building is legal."""
    if game.phase != Phase.PRE_ROLL:
        return []
    builds = [a for a in game.legal_actions() if a.kind == ActionKind.BUILD]
    groups = sorted({board.GROUP_OF[a.square] for a in builds})
    least = [min((a for a in builds if board.GROUP_OF[a.square] == group),
                 key=lambda a: (game.buildings[a.square], a.square)) for group in groups]
    return [actions.ROLL, *least] if least else []


def property_choices(game: Game) -> list[Action]:
    """While raising cash, the ``PROPERTY_CHOICES`` legal mortgages and building sales that
    leave the seat the most position value (best first, the lower square and a sale before a
    mortgage on a tie); before rolling, the legal pay-off that does, if any."""
    seat = game.current_player
    if game.phase == Phase.RAISE_CASH:
        kinds, keep = _RAISING, PROPERTY_CHOICES
    elif game.phase == Phase.PRE_ROLL:
        kinds, keep = frozenset({ActionKind.UNMORTGAGE}), 1
    else:
        return []
    scored = [(-position_value(position_after(game, a), seat), a.square, -int(a.kind), a)
              for a in game.legal_actions() if a.kind in kinds]
    scored.sort(key=lambda t: t[:3])
    return [t[3] for t in scored[:keep]]


def move_choices(game: Game) -> list[Action]:
    """Every enumerated move of the seat to play in ``game`` away from auctions and trades:
    ``jail_choices``, ``house_choices`` and ``property_choices``, each once, in that order."""
    out: list[Action] = []
    for a in (*jail_choices(game), *house_choices(game), *property_choices(game)):
        if a not in out:
            out.append(a)
    return out
