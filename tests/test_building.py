"""Houses and hotels: who may build, where, how evenly, at what cost, and selling them back."""

from __future__ import annotations

import pytest
from scenario import assert_illegal, give, new_game, put, roll, sq

from byapar_env.engine import ActionKind, Phase, actions, board

KARNALI = (sq("Jumla"), sq("Surkhet"))
SUDURPASHCHIM = (sq("Mahendranagar"), sq("Dhangadhi"), sq("Dadeldhura"))
LUMBINI = (sq("Nepalgunj"), sq("Butwal"), sq("Lumbini"))
GANDAKI = (sq("Gorkha"), sq("Mustang"), sq("Pokhara"))
CAPITAL = (sq("Lalitpur"), sq("Kathmandu"))


def legal_squares(game, kind):
    """The squares of the legal actions of one kind, sorted."""
    return sorted(a.square for a in game.legal_actions() if a.kind == kind)


def builds(game):
    return legal_squares(game, ActionKind.BUILD)


def sells(game):
    return legal_squares(game, ActionKind.SELL_BUILDING)


def set_buildings(game, squares, levels):
    for s, b in zip(squares, levels, strict=True):
        game.buildings[s] = b



# --- who may build ---------------------------------------------------------------------------

def test_building_needs_every_place_of_the_group():
    """No house while another player or the bank holds a place of the colour group."""
    g = new_game()
    give(g, 0, "Jumla")
    assert builds(g) == []
    assert_illegal(g, actions.build(sq("Jumla")))
    give(g, 1, "Surkhet")
    assert builds(g) == []
    assert_illegal(g, actions.build(sq("Jumla")))
    give(g, 0, "Surkhet")
    assert builds(g) == list(KARNALI)


def test_building_needs_no_mortgaged_place_in_the_group():
    """A mortgaged place anywhere in the group blocks building on every place of it."""
    g = new_game()
    give(g, 0, "Mahendranagar", "Dhangadhi")
    give(g, 0, "Dadeldhura", mortgaged=True)
    assert builds(g) == []
    for s in SUDURPASHCHIM[:2]:
        assert_illegal(g, actions.build(s))


@pytest.mark.parametrize(
    ("group", "cost"),
    [("Karnali", 500), ("Sudurpashchim", 500), ("Lumbini", 800), ("Madhesh", 1_000),
     ("Koshi", 1_200), ("Gandaki", 1_400), ("Bagmati", 1_800), ("Capital", 2_000)],
)
def test_a_house_costs_the_group_house_cost_paid_to_the_bank(group, cost):
    """Building one house takes exactly the group's house cost from the builder to the bank."""
    g = new_game()
    squares = board.GROUPS[group]
    for s in squares:
        g.owner[s] = 0
    first = squares[0]
    g.apply(actions.build(first))
    assert g.buildings[first] == 1
    assert [g.buildings[s] for s in squares[1:]] == [0] * (len(squares) - 1)
    assert g.cash == [15_000 - cost, 15_000]
    assert g.bank_received == cost
    assert g.bank_paid == 0
    assert (g.phase, g.current_player) == (Phase.PRE_ROLL, 0)


def test_building_needs_the_cash_for_the_house():
    """A house is legal only with at least its cost in cash; exactly the cost is enough."""
    g = new_game()
    give(g, 0, "Jumla", "Surkhet")
    g.cash[0] = 499
    assert builds(g) == []
    assert_illegal(g, actions.build(sq("Jumla")))
    g.cash[0] = 500
    assert builds(g) == list(KARNALI)
    g.apply(actions.build(sq("Jumla")))
    assert g.cash[0] == 0
    assert builds(g) == []


def test_no_buildings_on_transport_or_utilities():
    """Transport squares and utilities never take a house, even when all are held."""
    g = new_game()
    for s in board.TRANSPORTS + board.UTILITIES:
        g.owner[s] = 0
    assert builds(g) == []
    for s in board.TRANSPORTS + board.UTILITIES:
        assert_illegal(g, actions.build(s))


# --- building evenly -------------------------------------------------------------------------

def test_build_evenly_exact_legal_list():
    """A place gets its next house only when no place of the group has fewer."""
    g = new_game()
    m, d, dd = SUDURPASHCHIM
    for s in SUDURPASHCHIM:
        g.owner[s] = 0
    assert builds(g) == [m, d, dd]
    g.apply(actions.build(d))
    assert builds(g) == [m, dd]
    assert_illegal(g, actions.build(d))
    g.apply(actions.build(m))
    assert builds(g) == [dd]
    assert_illegal(g, actions.build(m))
    g.apply(actions.build(dd))
    assert builds(g) == [m, d, dd]
    assert [g.buildings[s] for s in SUDURPASHCHIM] == [1, 1, 1]
    assert g.cash[0] == 15_000 - 3 * 500


def test_hotel_only_after_four_houses_on_every_place():
    """The fifth building (a hotel) waits until every place of the group has four houses."""
    g = new_game()
    n, b, lu = LUMBINI
    for s in LUMBINI:
        g.owner[s] = 0
    set_buildings(g, LUMBINI, (4, 4, 3))
    assert builds(g) == [lu]
    assert_illegal(g, actions.build(n))
    g.apply(actions.build(lu))
    assert builds(g) == [n, b, lu]
    g.apply(actions.build(n))
    assert g.buildings[n] == board.HOTEL == 5
    assert builds(g) == [b, lu]
    assert g.cash[0] == 15_000 - 2 * 800


def test_a_hotel_costs_one_house_cost():
    """A hotel costs the same as one more house of its group."""
    g = new_game()
    give(g, 0, "Lalitpur", "Kathmandu", buildings=4)
    g.apply(actions.build(sq("Kathmandu")))
    assert g.buildings[sq("Kathmandu")] == 5
    assert g.cash[0] == 13_000
    assert g.bank_received == 2_000


def test_nothing_beyond_a_hotel():
    """A place holds at most one hotel: no building is legal on a full group."""
    g = new_game()
    give(g, 0, "Lalitpur", "Kathmandu", buildings=board.HOTEL)
    g.cash[0] = 100_000
    assert builds(g) == []
    for s in CAPITAL:
        assert_illegal(g, actions.build(s))


def test_the_bank_never_runs_out_of_houses():
    """Every city on the board can take four houses and a hotel: no building shortage."""
    g = new_game()
    for s in board.CITIES:
        g.owner[s] = 0
    g.cash[0] = 200_000
    for level in range(1, 6):
        for s in board.CITIES:
            g.apply(actions.build(s))
        assert all(g.buildings[s] == level for s in board.CITIES)
    # One level of every city costs Rs 22,300; five levels are 100 buildings.
    assert g.cash[0] == 200_000 - 5 * 22_300
    assert g.bank_received == 5 * 22_300
    assert builds(g) == []


# --- selling back ----------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("name", "refund"),
    [("Jumla", 250), ("Dadeldhura", 250), ("Lumbini", 400), ("Janakpur", 500),
     ("Biratnagar", 600), ("Pokhara", 700), ("Bhaktapur", 900), ("Kathmandu", 1_000)],
)
def test_selling_a_house_pays_half_its_cost(name, refund):
    """The bank buys a house back for half the group's house cost."""
    g = new_game()
    s = sq(name)
    for t in board.GROUPS[board.SQUARES[s].group]:
        g.owner[t] = 0
        g.buildings[t] = 2
    g.apply(actions.sell_building(s))
    assert g.buildings[s] == 1
    assert g.cash[0] == 15_000 + refund
    assert g.bank_paid == refund


def test_sell_only_from_the_places_with_most_buildings():
    """Selling is even too: only a place holding the group's most buildings may sell."""
    g = new_game()
    m, d, dd = SUDURPASHCHIM
    for s in SUDURPASHCHIM:
        g.owner[s] = 0
    set_buildings(g, SUDURPASHCHIM, (2, 1, 2))
    assert sells(g) == [m, dd]
    assert_illegal(g, actions.sell_building(d))
    g.apply(actions.sell_building(dd))
    assert sells(g) == [m]
    g.apply(actions.sell_building(m))
    assert sells(g) == [m, d, dd]
    assert [g.buildings[s] for s in SUDURPASHCHIM] == [1, 1, 1]
    assert g.cash[0] == 15_500


def test_selling_a_hotel_leaves_four_houses():
    """A sold hotel becomes four houses and pays half a house cost."""
    g = new_game()
    go, mu, po = GANDAKI
    for s in GANDAKI:
        g.owner[s] = 0
    set_buildings(g, GANDAKI, (5, 5, 4))
    assert sells(g) == [go, mu]
    assert_illegal(g, actions.sell_building(po))
    g.apply(actions.sell_building(go))
    assert [g.buildings[s] for s in GANDAKI] == [4, 5, 4]
    assert g.cash[0] == 15_700
    assert sells(g) == [mu]
    assert builds(g) == [go, po]


def test_no_sale_where_nothing_is_built():
    """A place with no buildings has nothing to sell."""
    g = new_game()
    give(g, 0, "Jumla", "Surkhet")
    assert sells(g) == []
    assert_illegal(g, actions.sell_building(sq("Jumla")))


# --- when building and selling are legal -----------------------------------------------------

def test_no_building_while_deciding_to_buy():
    """Building is a before-rolling action: not while deciding whether to buy a place."""
    g = new_game()
    give(g, 0, "Jumla", "Surkhet")
    roll(g, 2, 4)  # Start -> Mahendranagar, unowned
    assert (g.phase, g.current_player) == (Phase.BUY, 0)
    assert g.legal_actions() == [actions.buy(sq("Mahendranagar")),
                                 actions.decline(sq("Mahendranagar"))]
    assert_illegal(g, actions.build(sq("Jumla")))
    assert_illegal(g, actions.sell_building(sq("Jumla")))


def test_no_building_during_an_auction():
    """A bidder at an auction may only bid or drop out, not build."""
    g = new_game()
    give(g, 1, "Lalitpur", "Kathmandu")
    roll(g, 2, 4)
    g.apply(actions.decline(sq("Mahendranagar")))
    assert (g.phase, g.current_player) == (Phase.AUCTION, 1)
    assert builds(g) == []
    assert_illegal(g, actions.build(sq("Kathmandu")))


def test_no_building_while_answering_a_trade():
    """The player answering a trade offer may only accept or decline."""
    g = new_game()
    give(g, 0, "Jumla")
    give(g, 1, "Lalitpur", "Kathmandu")
    g.apply(actions.offer_trade(1, [sq("Jumla")], [], 0))
    assert (g.phase, g.current_player) == (Phase.TRADE_ANSWER, 1)
    assert g.legal_actions() == [actions.ACCEPT_TRADE, actions.REJECT_TRADE]
    assert_illegal(g, actions.build(sq("Kathmandu")))


def test_raising_cash_allows_selling_but_not_building():
    """While raising cash a player may sell buildings (evenly) but not build."""
    g = new_game()
    give(g, 0, "Jumla", "Surkhet", buildings=1)
    g.cash[0] = 900
    roll(g, 1, 3)  # Start -> Income tax, Rs 1,000 owed with Rs 900 in hand
    assert (g.phase, g.current_player) == (Phase.RAISE_CASH, 0)
    assert g.legal_actions() == [actions.sell_building(sq("Jumla")),
                                 actions.sell_building(sq("Surkhet"))]
    assert_illegal(g, actions.build(sq("Jumla")))
    g.apply(actions.sell_building(sq("Jumla")))  # 900 + 250 covers the tax at once
    assert g.cash[0] == 150
    assert g.buildings[sq("Jumla")] == 0
    assert (g.phase, g.current_player) == (Phase.PRE_ROLL, 1)


def test_building_again_after_a_double():
    """A double gives a new before-rolling phase, so the player may build again."""
    g = new_game()
    give(g, 0, "Jumla", "Surkhet")
    give(g, 0, "Mahendranagar")
    roll(g, 3, 3)  # Start -> Mahendranagar, own place
    assert (g.phase, g.current_player) == (Phase.PRE_ROLL, 0)
    g.apply(actions.build(sq("Surkhet")))
    assert g.buildings[sq("Surkhet")] == 1
    assert g.cash[0] == 14_500


def test_a_player_in_jail_may_build_and_sell():
    """Being in jail does not stop building or selling before the roll."""
    g = new_game()
    put(g, 0, "Jail")
    g.in_jail[0] = True
    give(g, 0, "Jumla", "Surkhet")
    assert builds(g) == list(KARNALI)
    g.apply(actions.build(sq("Jumla")))
    assert g.cash[0] == 14_500
    assert sells(g) == [sq("Jumla")]
    g.apply(actions.sell_building(sq("Jumla")))
    assert g.cash[0] == 14_750
    assert g.in_jail[0]
    assert (g.phase, g.current_player) == (Phase.PRE_ROLL, 0)
