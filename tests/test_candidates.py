"""Enumerated candidates (``byapar_agents.candidates``): the bids an auction lists and the moves
away from auctions and trades (jail, houses, mortgages, raising cash), in exact positions, and
the expert that adds them to its search."""

from __future__ import annotations

from scenario import give, new_game, put, roll, sq

from byapar_agents import make_agent
from byapar_agents.candidates import (
    auction_bids,
    group_holder,
    house_choices,
    jail_choices,
    move_choices,
    property_choices,
)
from byapar_env.engine import Phase, actions
from byapar_env.engine.board import JAIL_FINE
from byapar_env.valuation import position_value


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


def _jailed(cash: int, bail_card: bool):
    """Two seats; seat 0 in jail before rolling, with ``cash`` and perhaps a bail card."""
    game = new_game(2, seed=3)
    put(game, 0, "Jail")
    game.in_jail[0] = True
    game.cash[0] = cash
    if bail_card:
        game.bail_cards[0].append(sorted(game.decks)[0])
    return game


def test_jail_lists_every_legal_way_out_and_staying() -> None:
    assert jail_choices(_jailed(15_000, True)) == [actions.ROLL, actions.PAY_FINE,
                                                    actions.USE_BAIL_CARD]
    assert jail_choices(_jailed(15_000, False)) == [actions.ROLL, actions.PAY_FINE]
    # Too poor for the fine: staying or the card
    assert jail_choices(_jailed(JAIL_FINE - 100, True)) == [actions.ROLL,
                                                                 actions.USE_BAIL_CARD]
    assert jail_choices(new_game(2)) == []  # not in jail


def test_one_house_per_group_on_its_least_built_place() -> None:
    game = new_game(3, seed=2)
    give(game, 0, "Jumla", "Surkhet")
    give(game, 0, "Mahendranagar", "Dhangadhi", "Dadeldhura")
    game.buildings[sq("Jumla")] = 1  # Surkhet is behind: the next house goes there
    assert house_choices(game) == [actions.ROLL, actions.build(sq("Surkhet")),
                                   actions.build(sq("Mahendranagar"))]
    # Too poor for a house (Rs 500 on both groups): nothing to list
    game.cash[0] = 400
    assert house_choices(game) == []
    assert house_choices(new_game(3)) == []  # no group held


def test_raising_cash_ranks_mortgages_and_sales_by_the_value_they_leave() -> None:
    """Seat 0 holds Jumla and Surkhet with a house each and Bus park, Rs 900 in hand, and lands
    on Income tax (Rs 1,000): mortgaging Bus park (Rs 1,000 of its Rs 2,000) keeps both
    houses and leaves Rs 900; a house sold brings only Rs 250 and leaves Rs 150."""
    game = new_game()
    give(game, 0, "Jumla", "Surkhet", buildings=1)
    give(game, 0, "Bus park")
    game.cash[0] = 900
    roll(game, 1, 3)
    assert (game.phase, game.current_player) == (Phase.RAISE_CASH, 0)
    listed = property_choices(game)
    assert listed == [actions.mortgage(sq("Bus park")), actions.sell_building(sq("Jumla")),
                      actions.sell_building(sq("Surkhet"))]
    cash, worth = [], []
    for a in listed:
        after = game.clone()
        after.apply(a)
        cash.append(after.cash[0])
        worth.append(position_value(after, 0))
    assert cash == [900, 150, 150]
    assert worth == sorted(worth, reverse=True)
    assert move_choices(game) == listed


def test_before_rolling_the_best_pay_off_is_listed() -> None:
    game = new_game()
    give(game, 0, "Jumla", "Surkhet")
    give(game, 0, "Bus park", mortgaged=True)
    game.mortgaged[sq("Jumla")] = True
    # Paying off Jumla makes the group whole again; Bus park is one transport of four
    assert property_choices(game) == [actions.unmortgage(sq("Jumla"))]
    game.cash[0] = 100  # no pay-off affordable
    assert property_choices(game) == []


def test_the_expert_searches_the_enumerated_moves() -> None:
    game = new_game(3, seed=2)
    give(game, 0, "Jumla", "Surkhet")
    expert = make_agent("expert-moves@8", seed=0)
    assert expert.enumerate_moves and not make_agent("expert@8").enumerate_moves
    listed, _ = expert.candidates(game)
    enumerated = [c.action for c in listed if c.source == "enumerated"]
    assert actions.build(sq("Jumla")) in [c.action for c in listed]
    assert all(a in move_choices(game) for a in enumerated)
    # The search plays them though building is not a money decision (the focus): the policy
    # builds on Jumla, and rolling without building is simulated beside it
    searched = expert.evaluate(game, 0, seed=1).candidates
    assert [(c.action, c.source, len(c.scores)) for c in searched] == [
        (actions.build(sq("Jumla")), "policy", 4), (actions.ROLL, "enumerated", 4)]
    assert [c.action for c in make_agent("expert@8", seed=0).evaluate(game, 0, 1).candidates
            ] == [actions.build(sq("Jumla"))]
    # make_agent("expert-enum-moves") asks for both
    both = make_agent("expert-enum-moves@8", seed=0)
    assert both.enumerate_bids and both.enumerate_moves
