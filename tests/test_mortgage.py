"""Mortgages: when a place may be mortgaged, what the bank pays, rent, and paying it off."""

from __future__ import annotations

import pytest
from scenario import assert_illegal, give, new_game, put, roll, sq

from byapar_env.engine import ActionKind, Phase, actions, board, mortgage_value, payoff_cost

# Every place: (price, mortgage value = half the price, pay-off = value + 10% rounded up to Rs 10).
PLACES = {
    "Jumla": (600, 300, 330),
    "Surkhet": (600, 300, 330),
    "Bus park": (2_000, 1_000, 1_100),
    "Mahendranagar": (1_000, 500, 550),
    "Dhangadhi": (1_000, 500, 550),
    "Dadeldhura": (1_200, 600, 660),
    "Nepalgunj": (1_400, 700, 770),
    "Hydropower": (1_500, 750, 830),
    "Butwal": (1_400, 700, 770),
    "Lumbini": (1_600, 800, 880),
    "Airport": (2_000, 1_000, 1_100),
    "Birgunj": (1_800, 900, 990),
    "Janakpur": (2_000, 1_000, 1_100),
    "Ilam": (2_200, 1_100, 1_210),
    "Dharan": (2_200, 1_100, 1_210),
    "Biratnagar": (2_400, 1_200, 1_320),
    "Railway": (2_000, 1_000, 1_100),
    "Gorkha": (2_600, 1_300, 1_430),
    "Mustang": (2_600, 1_300, 1_430),
    "Pokhara": (2_800, 1_400, 1_540),
    "Chitwan": (3_000, 1_500, 1_650),
    "Bhaktapur": (3_200, 1_600, 1_760),
    "Drinking water": (1_500, 750, 830),
    "Cable car": (2_000, 1_000, 1_100),
    "Lalitpur": (3_500, 1_750, 1_930),
    "Kathmandu": (4_000, 2_000, 2_200),
}


def legal_squares(game, kind):
    return sorted(a.square for a in game.legal_actions() if a.kind == kind)



def test_the_table_covers_every_place():
    """The expected figures below name all 26 places at their board prices."""
    assert sorted(sq(n) for n in PLACES) == sorted(board.PLACES)
    for name, (price, _, _) in PLACES.items():
        assert board.SQUARES[sq(name)].price == price


@pytest.mark.parametrize("name", list(PLACES))
def test_mortgage_pays_half_the_price(name):
    """The bank pays half the price for a mortgage; the place stays with its owner."""
    g = new_game()
    s = sq(name)
    give(g, 0, name)
    value = PLACES[name][1]
    assert mortgage_value(s) == value
    g.apply(actions.mortgage(s))
    assert g.mortgaged[s]
    assert g.owner[s] == 0
    assert g.cash == [15_000 + value, 15_000]
    assert g.bank_paid == value
    assert (g.phase, g.current_player) == (Phase.PRE_ROLL, 0)


@pytest.mark.parametrize("name", list(PLACES))
def test_paying_off_costs_value_plus_ten_percent_rounded_up(name):
    """Paying off costs the mortgage value plus 10%, rounded up to the next Rs 10."""
    g = new_game()
    s = sq(name)
    give(g, 0, name, mortgaged=True)
    cost = PLACES[name][2]
    assert payoff_cost(s) == cost
    g.apply(actions.unmortgage(s))
    assert not g.mortgaged[s]
    assert g.owner[s] == 0
    assert g.cash == [15_000 - cost, 15_000]
    assert g.bank_received == cost


def test_paying_off_needs_the_cash():
    """A pay-off is legal only with its whole cost in cash; exactly the cost is enough."""
    g = new_game()
    give(g, 0, "Hydropower", mortgaged=True)
    s = sq("Hydropower")
    g.cash[0] = 829
    assert legal_squares(g, ActionKind.UNMORTGAGE) == []
    assert_illegal(g, actions.unmortgage(s))
    g.cash[0] = 830
    assert legal_squares(g, ActionKind.UNMORTGAGE) == [s]
    g.apply(actions.unmortgage(s))
    assert g.cash[0] == 0
    assert not g.mortgaged[s]


def test_no_mortgage_twice():
    """A mortgaged place cannot be mortgaged again."""
    g = new_game()
    give(g, 0, "Jumla", mortgaged=True)
    assert legal_squares(g, ActionKind.MORTGAGE) == []
    assert_illegal(g, actions.mortgage(sq("Jumla")))


def test_no_mortgage_of_someone_elses_place():
    """Only the owner may mortgage a place; bank places cannot be mortgaged."""
    g = new_game()
    give(g, 1, "Jumla")
    assert_illegal(g, actions.mortgage(sq("Jumla")))
    assert_illegal(g, actions.mortgage(sq("Surkhet")))


def test_mortgage_needs_no_buildings_anywhere_in_the_group():
    """A bare place cannot be mortgaged while another place of its group has buildings."""
    g = new_game()
    m, d, dd = sq("Mahendranagar"), sq("Dhangadhi"), sq("Dadeldhura")
    give(g, 0, "Mahendranagar", "Dhangadhi", buildings=1)
    give(g, 0, "Dadeldhura")
    give(g, 0, "Jumla")
    assert legal_squares(g, ActionKind.MORTGAGE) == [sq("Jumla")]
    for s in (m, d, dd):
        assert_illegal(g, actions.mortgage(s))
    g.apply(actions.sell_building(m))
    assert legal_squares(g, ActionKind.MORTGAGE) == [sq("Jumla")]
    g.apply(actions.sell_building(d))
    assert legal_squares(g, ActionKind.MORTGAGE) == [sq("Jumla"), m, d, dd]
    g.apply(actions.mortgage(dd))
    assert g.cash[0] == 15_000 + 2 * 250 + 600


def test_mortgaged_city_charges_no_rent():
    """Landing on a mortgaged city owes nothing, even with the whole group held."""
    g = new_game()
    give(g, 1, "Lalitpur")
    give(g, 1, "Kathmandu", mortgaged=True)
    put(g, 0, "Bhaktapur")
    roll(g, 2, 3)  # Bhaktapur -> Kathmandu
    assert g.position[0] == sq("Kathmandu")
    assert g.cash == [15_000, 15_000]
    assert g.rent(sq("Kathmandu")) == 0
    assert (g.phase, g.current_player) == (Phase.PRE_ROLL, 1)


def test_mortgaged_transport_and_utility_charge_no_rent():
    """A mortgaged transport square or utility owes nothing either."""
    g = new_game()
    give(g, 1, "Bus park", "Airport", "Railway", "Cable car", mortgaged=True)
    give(g, 1, "Hydropower", "Drinking water", mortgaged=True)
    give(g, 1, "Surkhet")
    roll(g, 2, 3)  # Start -> Bus park
    assert g.cash == [15_000, 15_000]
    assert (g.phase, g.current_player) == (Phase.PRE_ROLL, 1)
    roll(g, 1, 2)  # seat 1: Start -> Surkhet, its own place
    assert (g.phase, g.current_player) == (Phase.PRE_ROLL, 0)
    roll(g, 2, 4)  # Bus park -> Hydropower
    assert g.position[0] == sq("Hydropower")
    assert g.cash == [15_000, 15_000]


def test_cannot_build_with_a_mortgaged_place_in_the_group():
    """Building waits until every mortgage of the group is paid off."""
    g = new_game()
    give(g, 0, "Kathmandu")
    give(g, 0, "Lalitpur", mortgaged=True)
    assert legal_squares(g, ActionKind.BUILD) == []
    assert_illegal(g, actions.build(sq("Kathmandu")))
    g.apply(actions.unmortgage(sq("Lalitpur")))
    assert legal_squares(g, ActionKind.BUILD) == [sq("Lalitpur"), sq("Kathmandu")]
    assert g.cash[0] == 15_000 - 1_930


def test_mortgaged_places_still_count_for_the_whole_group():
    """Engine choice: a mortgaged place still completes the group, doubling the others' rent."""
    g = new_game()
    give(g, 1, "Jumla")
    give(g, 1, "Surkhet", mortgaged=True)
    put(g, 0, "Cable car")
    roll(g, 2, 3)  # Cable car -> past Start (salary) -> Jumla
    assert g.position[0] == sq("Jumla")
    assert g.rent(sq("Jumla")) == 40
    assert g.cash == [15_000 + 2_000 - 40, 15_000 + 40]
    give(g, -1, "Surkhet")  # without the whole group, Jumla's rent is its base rent
    assert g.rent(sq("Jumla")) == 20


def test_mortgaged_transport_still_counts_for_the_others_rent():
    """Engine choice: a mortgaged transport square still counts towards the owner's total."""
    g = new_game()
    give(g, 1, "Bus park")
    give(g, 1, "Airport", "Railway", mortgaged=True)
    roll(g, 2, 3)  # Start -> Bus park
    assert g.cash == [15_000 - 1_000, 15_000 + 1_000]


def test_mortgage_is_legal_while_raising_cash_but_pay_off_is_not():
    """Raising cash allows mortgaging; paying off a mortgage waits for a before-rolling phase."""
    g = new_game()
    give(g, 0, "Jumla", "Bus park")
    give(g, 0, "Surkhet", mortgaged=True)
    g.cash[0] = 900
    roll(g, 1, 3)  # Start -> Income tax, Rs 1,000 owed
    assert (g.phase, g.current_player) == (Phase.RAISE_CASH, 0)
    assert g.legal_actions() == [actions.mortgage(sq("Jumla")), actions.mortgage(sq("Bus park"))]
    assert_illegal(g, actions.unmortgage(sq("Surkhet")))
    g.apply(actions.mortgage(sq("Jumla")))  # 900 + 300 covers the tax at once
    assert g.cash[0] == 200
    assert g.mortgaged[sq("Jumla")]
    assert (g.phase, g.current_player) == (Phase.PRE_ROLL, 1)


def test_no_mortgage_or_pay_off_while_deciding_to_buy():
    """Mortgages and pay-offs are before-rolling actions: not while deciding to buy."""
    g = new_game()
    give(g, 0, "Jumla")
    give(g, 0, "Surkhet", mortgaged=True)
    roll(g, 2, 4)  # Start -> Mahendranagar
    assert (g.phase, g.current_player) == (Phase.BUY, 0)
    assert_illegal(g, actions.mortgage(sq("Jumla")))
    assert_illegal(g, actions.unmortgage(sq("Surkhet")))


def test_a_player_in_jail_may_mortgage_and_pay_off():
    """Being in jail does not stop mortgaging or paying off, and the cash can pay the fine."""
    g = new_game()
    put(g, 0, "Jail")
    g.in_jail[0] = True
    g.cash[0] = 200
    give(g, 0, "Jumla")
    assert actions.PAY_FINE not in g.legal_actions()
    g.apply(actions.mortgage(sq("Jumla")))
    assert g.cash[0] == 500
    assert g.in_jail[0]
    assert actions.PAY_FINE in g.legal_actions()
    g.cash[0] = 330
    g.apply(actions.unmortgage(sq("Jumla")))
    assert g.cash[0] == 0
    assert not g.mortgaged[sq("Jumla")]
    assert (g.phase, g.current_player) == (Phase.PRE_ROLL, 0)


def test_mortgaged_utility_still_counts_for_the_other():
    """Engine choice: with both utilities held, one mortgaged, the other charges 100 times."""
    g = new_game()
    give(g, 1, "Hydropower")
    give(g, 1, "Drinking water", mortgaged=True)
    put(g, 0, "Bus park")
    roll(g, 2, 4)  # Bus park -> Hydropower, dice total 6
    assert g.cash == [15_000 - 600, 15_000 + 600]
