"""Scenario tests: landing on places (buying, rent), the taxes and the corner squares."""

from __future__ import annotations

import pytest
from scenario import give, new_game, put, sq

from byapar_env.engine import IllegalActionError, Phase, actions, board

START_CASH = 15_000


def land(game, seat, target, d1=2, d2=3):
    """Stand ``seat`` (the turn's player) ``d1 + d2`` squares before ``target`` and roll there.

    The start square is chosen so that the move never passes Start (no salary muddles the sums).
    """
    assert game.turn == seat and game.phase == Phase.PRE_ROLL
    s = target if isinstance(target, int) else sq(target)
    start = s - (d1 + d2)
    assert start >= 0, "this move would pass Start"
    put(game, seat, start)
    game.force_dice((d1, d2))
    game.apply(actions.ROLL)
    assert game.position[seat] == s


def money_before(game):
    return list(game.cash), game.bank_received, game.bank_paid


# --------------------------------------------------------------------------- buying


def test_unowned_place_with_enough_cash_asks_the_lander_to_buy():
    """An unowned place landed on with the cash for it: the lander decides buy or decline."""
    game = new_game(3)
    land(game, 0, "Pokhara")
    assert game.phase == Phase.BUY
    assert game.current_player == 0
    assert game.legal_actions() == [actions.buy(sq("Pokhara")), actions.decline(sq("Pokhara"))]
    assert game.cash == [START_CASH] * 3
    assert game.owner[sq("Pokhara")] == -1


def test_exactly_the_price_in_cash_is_enough_to_be_asked():
    """Holding exactly the price counts as affording it."""
    game = new_game(3)
    game.cash[0] = 2_800
    land(game, 0, "Pokhara")
    assert game.phase == Phase.BUY and game.current_player == 0


def test_buying_pays_the_exact_price_to_the_bank():
    """Buy: the lander pays the printed price to the bank and owns the place; the turn passes."""
    game = new_game(3)
    land(game, 0, "Pokhara")
    game.apply(actions.buy(sq("Pokhara")))
    assert game.owner[sq("Pokhara")] == 0
    assert game.cash == [START_CASH - 2_800, START_CASH, START_CASH]
    assert game.bank_received == 2_800 and game.bank_paid == 0
    assert not game.mortgaged[sq("Pokhara")] and game.buildings[sq("Pokhara")] == 0
    assert game.phase == Phase.PRE_ROLL and game.current_player == 1


def test_buying_a_transport_and_a_utility_pays_their_prices():
    """Transport squares cost Rs 2,000 and utilities Rs 1,500."""
    game = new_game(2)
    land(game, 0, "Railway")
    game.apply(actions.buy(sq("Railway")))
    land(game, 1, "Drinking water")
    game.apply(actions.buy(sq("Drinking water")))
    assert game.owner[sq("Railway")] == 0 and game.owner[sq("Drinking water")] == 1
    assert game.cash == [START_CASH - 2_000, START_CASH - 1_500]


def test_buy_names_only_the_place_landed_on():
    """In BUY, buying another square, rolling or bidding is illegal and changes nothing."""
    game = new_game(3)
    land(game, 0, "Pokhara")
    before = game.to_json()
    for wrong in (actions.buy(sq("Mustang")), actions.decline(sq("Mustang")), actions.ROLL,
                  actions.bid(sq("Pokhara"), 100), actions.DROP_OUT):
        with pytest.raises(IllegalActionError):
            game.apply(wrong)
        assert game.to_json() == before


def test_declining_sends_the_place_to_auction():
    """Decline with auctions on: the auction opens at once with the next seat to bid."""
    game = new_game(3)
    land(game, 0, "Pokhara")
    game.apply(actions.decline(sq("Pokhara")))
    assert game.phase == Phase.AUCTION
    assert game.current_player == 1
    assert game.owner[sq("Pokhara")] == -1
    assert game.cash == [START_CASH] * 3


def test_declining_without_auctions_leaves_the_place_with_the_bank():
    """Decline with auctions off: no auction, the place stays unowned, the turn passes."""
    game = new_game(3, auctions=False)
    land(game, 0, "Pokhara")
    game.apply(actions.decline(sq("Pokhara")))
    assert game.owner[sq("Pokhara")] == -1
    assert game.cash == [START_CASH] * 3
    assert game.bank_received == 0
    assert game.phase == Phase.PRE_ROLL and game.current_player == 1
    assert game.log[-1] == "Pokhara stays with the bank"


def test_without_auctions_the_next_lander_may_buy():
    """A place left with the bank is offered again to the next player who lands there."""
    game = new_game(2, auctions=False)
    land(game, 0, "Pokhara")
    game.apply(actions.decline(sq("Pokhara")))
    land(game, 1, "Pokhara")
    assert game.phase == Phase.BUY and game.current_player == 1
    game.apply(actions.buy(sq("Pokhara")))
    assert game.owner[sq("Pokhara")] == 1
    assert game.cash == [START_CASH, START_CASH - 2_800]


def test_lander_who_cannot_afford_goes_straight_to_auction():
    """Short of the price by Rs 10: no BUY decision, the auction starts at once."""
    game = new_game(3)
    game.cash[0] = 2_790
    land(game, 0, "Pokhara")
    assert game.phase == Phase.AUCTION
    assert game.current_player == 1
    assert "seat 0 cannot afford Pokhara" in game.log
    assert game.cash == [2_790, START_CASH, START_CASH]


def test_lander_who_cannot_afford_without_auctions_gets_nothing():
    """Short of the price with auctions off: nothing happens and the turn passes."""
    game = new_game(3, auctions=False)
    game.cash[0] = 2_790
    land(game, 0, "Pokhara")
    assert game.owner[sq("Pokhara")] == -1
    assert game.cash == [2_790, START_CASH, START_CASH]
    assert game.phase == Phase.PRE_ROLL and game.current_player == 1


def test_buying_after_a_double_keeps_the_extra_turn():
    """A double that lands on a place: after buying, the same player rolls again."""
    game = new_game(3)
    land(game, 0, "Pokhara", 2, 2)
    game.apply(actions.buy(sq("Pokhara")))
    assert game.phase == Phase.PRE_ROLL and game.current_player == 0


# --------------------------------------------------------------------------- rent


def test_city_base_rent_is_paid_at_once_to_the_owner():
    """A city without buildings, group not whole: the base rent goes straight to the owner."""
    game = new_game(3)
    give(game, 1, "Pokhara", "Gorkha")  # not Mustang: group not whole
    land(game, 0, "Pokhara")
    assert game.cash == [START_CASH - 240, START_CASH + 240, START_CASH]
    assert game.bank_received == 0 and game.bank_paid == 0
    assert game.phase == Phase.PRE_ROLL and game.current_player == 1


def test_owner_in_jail_still_collects_rent():
    """Rent is paid to an owner who is in jail."""
    game = new_game(3)
    give(game, 2, "Pokhara")
    game.in_jail[2] = True
    put(game, 2, board.JAIL_SQUARE)
    land(game, 0, "Pokhara")
    assert game.cash == [START_CASH - 240, START_CASH, START_CASH + 240]
    assert game.in_jail[2]


def test_whole_group_doubles_rent_of_a_city_without_buildings():
    """Owner of the whole colour group: the base rent is doubled."""
    game = new_game(3)
    give(game, 1, "Gorkha", "Mustang", "Pokhara")
    land(game, 0, "Pokhara")
    assert game.cash == [START_CASH - 480, START_CASH + 480, START_CASH]


def test_whole_group_doubling_applies_to_a_bare_city_even_if_others_have_houses():
    """board.md: doubled when the group is whole and THIS place has no buildings."""
    game = new_game(3)
    give(game, 1, "Gorkha", "Mustang", buildings=1)
    give(game, 1, "Pokhara")
    assert game.rent(sq("Pokhara")) == 480
    assert game.rent(sq("Gorkha")) == 1_100  # house rent, not doubled
    land(game, 0, "Pokhara")
    assert game.cash == [START_CASH - 480, START_CASH + 480, START_CASH]


def test_whole_group_with_a_mortgaged_place_still_doubles_the_others():
    """Engine choice: a mortgaged place still counts as held, so the group stays whole."""
    game = new_game(3)
    give(game, 1, "Gorkha", "Pokhara")
    give(game, 1, "Mustang", mortgaged=True)
    land(game, 0, "Pokhara")
    assert game.cash == [START_CASH - 480, START_CASH + 480, START_CASH]


@pytest.mark.parametrize(("level", "rent"), [
    (1, 1_200), (2, 3_600), (3, 8_500), (4, 10_250), (5, 12_000),
])
def test_rent_with_houses_and_a_hotel(level, rent):
    """With 1-4 houses or a hotel the rent is the board's column for that level, never doubled."""
    game = new_game(3)
    give(game, 1, "Gorkha", "Mustang", "Pokhara", buildings=level)
    land(game, 0, "Pokhara")
    assert game.cash == [START_CASH - rent, START_CASH + rent, START_CASH]


@pytest.mark.parametrize(("held", "rent"), [(1, 250), (2, 500), (3, 1_000), (4, 2_000)])
def test_transport_rent_by_number_held(held, rent):
    """Transport rent is 250, 500, 1,000 or 2,000 by how many transport squares the owner has."""
    game = new_game(3)
    others = ["Bus park", "Airport", "Cable car"][: held - 1]
    give(game, 1, "Railway", *others)
    if held < 4:  # the rest belong to someone else and do not count
        give(game, 2, *["Bus park", "Airport", "Cable car"][held - 1:])
    land(game, 0, "Railway")
    assert game.cash[0] == START_CASH - rent
    assert game.cash[1] == START_CASH + rent
    assert game.cash[2] == START_CASH


def test_mortgaged_transports_still_count_towards_the_number_held():
    """Engine choice: the count is of transport squares owned, mortgaged ones included."""
    game = new_game(3)
    give(game, 1, "Railway", "Cable car")
    give(game, 1, "Bus park", "Airport", mortgaged=True)
    land(game, 0, "Railway")
    assert game.cash == [START_CASH - 2_000, START_CASH + 2_000, START_CASH]


@pytest.mark.parametrize(("both", "d1", "d2", "rent"), [
    (False, 2, 3, 200), (False, 4, 5, 360), (True, 2, 3, 500), (True, 4, 5, 900),
])
def test_utility_rent_is_40_or_100_times_the_dice(both, d1, d2, rent):
    """One utility: 40 times the dice total; both utilities: 100 times."""
    game = new_game(3)
    give(game, 1, "Hydropower")
    if both:
        give(game, 1, "Drinking water")
    else:
        give(game, 2, "Drinking water")
    land(game, 0, "Hydropower", d1, d2)
    assert game.cash == [START_CASH - rent, START_CASH + rent, START_CASH]


@pytest.mark.parametrize("place", ["Pokhara", "Railway", "Hydropower"])
def test_mortgaged_place_charges_no_rent(place):
    """A mortgaged place charges nothing, even in a whole group."""
    game = new_game(3)
    give(game, 1, "Gorkha", "Mustang", "Pokhara", "Bus park", "Airport", "Railway", "Cable car",
         "Hydropower", "Drinking water")
    game.mortgaged[sq(place)] = True
    land(game, 0, place)
    assert game.cash == [START_CASH] * 3
    assert game.phase == Phase.PRE_ROLL and game.current_player == 1
    assert f"{place} is mortgaged: no rent" in game.log


@pytest.mark.parametrize("place", ["Pokhara", "Railway", "Hydropower"])
def test_landing_on_ones_own_place_does_nothing(place):
    """Your own place: no rent, no decision, the turn passes."""
    game = new_game(3)
    give(game, 0, place)
    land(game, 0, place)
    assert game.cash == [START_CASH] * 3
    assert game.bank_received == 0 and game.bank_paid == 0
    assert game.log[-2:] == ["seat 0 rolls 2+3", f"seat 0 moves to {place}"]
    assert game.phase == Phase.PRE_ROLL and game.current_player == 1


def test_own_hotel_costs_nothing_even_when_short_of_cash():
    """Own city with a hotel and only Rs 100 in hand: no debt, no raising cash."""
    game = new_game(3)
    give(game, 0, "Gorkha", "Mustang", "Pokhara", buildings=5)
    game.cash[0] = 100
    land(game, 0, "Pokhara")
    assert game.cash == [100, START_CASH, START_CASH]
    assert game.phase == Phase.PRE_ROLL and game.current_player == 1


# --------------------------------------------------------------------------- taxes and corners


@pytest.mark.parametrize(("square", "d1", "d2", "tax"), [
    ("Income tax", 1, 3, 1_000), ("Property tax", 2, 3, 1_500),
])
def test_taxes_are_paid_to_the_bank(square, d1, d2, tax):
    """Income tax Rs 1,000 and Property tax Rs 1,500, paid to the bank."""
    game = new_game(3)
    land(game, 0, square, d1, d2)
    assert game.cash == [START_CASH - tax, START_CASH, START_CASH]
    assert game.bank_received == tax
    assert game.phase == Phase.PRE_ROLL and game.current_player == 1


def test_chautari_does_nothing():
    """Chautari: a free corner, nothing happens."""
    game = new_game(3)
    land(game, 0, "Chautari")
    assert game.cash == [START_CASH] * 3
    assert game.position[0] == 18 and not game.in_jail[0]
    assert game.bank_received == 0 and game.bank_paid == 0
    assert game.phase == Phase.PRE_ROLL and game.current_player == 1


def test_landing_on_jail_is_only_visiting():
    """Jail reached by an ordinary move: just visiting, not jailed."""
    game = new_game(3)
    land(game, 0, "Jail")
    assert game.position[0] == board.JAIL_SQUARE
    assert not game.in_jail[0] and game.jail_misses[0] == 0
    assert game.cash == [START_CASH] * 3
    assert game.phase == Phase.PRE_ROLL and game.current_player == 1


def test_go_to_jail_sends_to_jail_without_salary():
    """Go to jail: token to the Jail square (9), jailed, no salary for the way round."""
    game = new_game(3)
    land_start = sq("Go to jail") - 5
    put(game, 0, land_start)
    game.force_dice((2, 3))
    game.apply(actions.ROLL)
    assert game.position[0] == board.JAIL_SQUARE == 9
    assert game.in_jail[0] and game.jail_misses[0] == 0
    assert game.cash == [START_CASH] * 3
    assert game.bank_paid == 0
    assert "seat 0 goes to jail" in game.log
    assert game.phase == Phase.PRE_ROLL and game.current_player == 1


def test_go_to_jail_ends_the_turn_even_after_a_double():
    """A double that lands on Go to jail gives no extra turn."""
    game = new_game(3)
    put(game, 0, sq("Go to jail") - 4)
    game.force_dice((2, 2))
    game.apply(actions.ROLL)
    assert game.position[0] == 9 and game.in_jail[0]
    assert game.cash == [START_CASH] * 3
    assert game.phase == Phase.PRE_ROLL and game.current_player == 1
    assert game.turn == 1
