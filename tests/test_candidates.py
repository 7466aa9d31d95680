"""Enumerated candidates (``byapar_agents.candidates``): the bids an auction lists, in exact
positions, and the expert that adds them to its search."""

from __future__ import annotations

from scenario import give, new_game, put, roll, sq

from byapar_agents import make_agent
from byapar_agents.candidates import auction_bids, group_holder
from byapar_env.engine import Phase, actions


def _auction_of_kathmandu(holder: int | None):
    """Three seats; seat 0 lands on Kathmandu (Rs 4,000) and declines it; ``holder`` holds
    Lalitpur, the rest of the Capital group."""
    game = new_game(3, seed=2)
    if holder is not None:
        give(game, holder, "Lalitpur")
    put(game, 0, sq("Kathmandu") - 5)
    roll(game, 2, 3)
    game.apply(actions.decline(sq("Kathmandu")))
    assert game.phase == Phase.AUCTION and game.auction.square == sq("Kathmandu")
    return game


def _amounts(listed) -> list:
    return [None if a == actions.DROP_OUT else a.amount for a in listed]


def test_the_list_price_and_a_completion_or_denial_bid() -> None:
    kathmandu = sq("Kathmandu")
    game = _auction_of_kathmandu(holder=None)
    assert group_holder(game, kathmandu) is None
    assert _amounts(auction_bids(game)) == [None, 4_000]
    bidder = game.current_player
    # The bidder holds the rest of the group: twice the price, to complete it.
    game = _auction_of_kathmandu(holder=bidder)
    assert group_holder(game, kathmandu) == bidder
    assert _amounts(auction_bids(game)) == [None, 4_000, 8_000]
    # A rival holds it: one and a half times, to deny it.
    rival = next(s for s in range(3) if s != bidder)
    game = _auction_of_kathmandu(holder=rival)
    assert _amounts(auction_bids(game)) == [None, 4_000, 6_000]


def test_only_legal_bids_are_listed() -> None:
    game = _auction_of_kathmandu(holder=None)
    bidder = game.current_player
    game.cash[bidder] = 5_000  # the list price still fits; a completion bid would not
    give(game, bidder, "Lalitpur")
    assert _amounts(auction_bids(game)) == [None, 4_000]
    game.apply(actions.bid(sq("Kathmandu"), 4_500))  # above the list price now
    # The next bidder: the list price is below the bid; a denial bid against the seat that
    # holds Lalitpur is not.
    assert game.current_player != bidder
    assert _amounts(auction_bids(game)) == [None, 6_000]
    game.cash[game.current_player] = 5_000
    assert _amounts(auction_bids(game)) == [None]
    assert auction_bids(new_game(2)) == []  # no auction, nothing listed


def test_the_enumerating_expert_simulates_the_bids() -> None:
    game = _auction_of_kathmandu(holder=None)
    bidder = game.current_player
    give(game, bidder, "Lalitpur")
    expert = make_agent("expert-enum@8", seed=0)
    assert expert.enumerate_bids and not make_agent("expert@8").enumerate_bids
    listed, _ = expert.candidates(game)
    enumerated = [c.action for c in listed if c.source == "enumerated"]
    assert all(a in auction_bids(game) for a in enumerated)
    assert actions.bid(sq("Kathmandu"), 8_000) in [c.action for c in listed]
