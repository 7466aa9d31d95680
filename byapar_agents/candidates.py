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
"""

from __future__ import annotations

from byapar_env.engine import Action, Game, Phase, actions, board

LIST_PRICE = 1.0
DENIAL = 1.5  # times the price, against a rival who holds the rest of the group
COMPLETION = 2.0  # times the price, for the last piece of the bidder's own group


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
