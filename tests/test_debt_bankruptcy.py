"""Scenario tests: raising cash for a debt, and bankruptcy to a player, the bank or several."""

from __future__ import annotations

import pytest
from scenario import give, new_game, put, roll, sq

from byapar_env.engine import IllegalActionError, Phase, actions, board

START_CASH = 15_000


def land_on(game, target, d1=2, d2=3):
    """The turn's player rolls ``d1 + d2`` onto ``target`` (never passing Start)."""
    p = game.turn
    s = target if isinstance(target, int) else sq(target)
    assert s - d1 - d2 >= 0
    put(game, p, s - d1 - d2)
    roll(game, d1, d2)
    assert game.position[p] == s


def hold_bail_card(game, seat, deck):
    """Give ``seat`` the bail card of ``deck``, taking it out of the deck."""
    number = 10 if deck == board.BHAGYA else 12
    game.decks[deck].remove(number)
    game.bail_cards[seat].append(deck)


def draw_on_16(game, number):
    """The turn's player rolls 3+4 from the Jail square (visiting) onto Bhagya 16 and draws."""
    put(game, game.turn, board.JAIL_SQUARE)
    game.stack_deck(board.BHAGYA, number)
    roll(game, 3, 4)


def kathmandu_hotel_for(game, seat):
    """``seat`` owns the Capital group with a hotel on each: Kathmandu's rent is Rs 20,000."""
    give(game, seat, "Lalitpur", "Kathmandu", buildings=board.HOTEL)


# --------------------------------------------------------------------------- raising cash


def test_owing_more_than_cash_asks_the_debtor_to_raise_it():
    """Short of cash but solvent: RAISE_CASH for the debtor, nothing paid yet; paid once raised."""
    game = new_game(2)
    give(game, 1, "Lalitpur", "Kathmandu")  # whole group, no buildings: rent 1,000
    give(game, 0, "Jumla", "Bus park")
    game.cash[0] = 600
    land_on(game, "Kathmandu")
    assert game.phase == Phase.RAISE_CASH and game.current_player == 0
    assert game.debt_owed() == 1_000
    assert game.legal_actions() == [actions.mortgage(1), actions.mortgage(5)]
    assert game.cash == [600, START_CASH]
    game.apply(actions.mortgage(1))  # 900: still short
    assert game.phase == Phase.RAISE_CASH and game.current_player == 0
    assert game.cash == [900, START_CASH]
    assert game.legal_actions() == [actions.mortgage(5)]
    game.apply(actions.mortgage(5))  # 1,900: the rent goes through at once
    assert game.cash == [900, START_CASH + 1_000]
    assert game.mortgaged[1] and game.mortgaged[5]
    assert game.phase == Phase.PRE_ROLL and game.current_player == 1 and game.turn == 1


def test_raise_cash_offers_only_even_sales_and_mortgages():
    """RAISE_CASH lists sales from the most built place and mortgages of unbuilt groups only."""
    game = new_game(2)
    give(game, 1, "Lalitpur", "Kathmandu")  # rent 1,000
    give(game, 0, "Jumla", buildings=2)
    give(game, 0, "Surkhet", buildings=1)
    give(game, 0, "Bus park")
    give(game, 0, "Hydropower", mortgaged=True)
    give(game, 0, "Mahendranagar")  # a lone city of an unowned group: may be mortgaged
    game.cash[0] = 100
    land_on(game, "Kathmandu")
    assert game.phase == Phase.RAISE_CASH and game.current_player == 0
    assert game.legal_actions() == [actions.sell_building(1), actions.mortgage(5),
                                    actions.mortgage(6)]
    before = game.to_json()
    for wrong in (actions.ROLL, actions.build(3), actions.unmortgage(11), actions.mortgage(1),
                  actions.sell_building(3), actions.PAY_FINE):
        with pytest.raises(IllegalActionError):
            game.apply(wrong)
    offer = actions.offer_trade(1, [5], [35], 0)
    assert not game.is_legal(offer) and not game.can_offer_trade()
    assert game.to_json() == before

    game.apply(actions.sell_building(1))  # 350, houses 1 and 1
    assert game.legal_actions() == [actions.sell_building(1), actions.sell_building(3),
                                    actions.mortgage(5), actions.mortgage(6)]
    game.apply(actions.sell_building(3))  # 600, houses 1 and 0
    assert game.legal_actions() == [actions.sell_building(1), actions.mortgage(5),
                                    actions.mortgage(6)]
    game.apply(actions.sell_building(1))  # 850, no buildings
    assert game.legal_actions() == [actions.mortgage(1), actions.mortgage(3), actions.mortgage(5),
                                    actions.mortgage(6)]
    assert game.cash[0] == 850 and game.phase == Phase.RAISE_CASH
    game.apply(actions.mortgage(3))  # 1,150: pays 1,000
    assert game.cash == [150, START_CASH + 1_000]
    assert game.buildings[1] == game.buildings[3] == 0
    assert game.phase == Phase.PRE_ROLL and game.current_player == 1


def test_selling_a_hotel_while_raising_leaves_four_houses():
    """A hotel sold while raising cash pays half a house cost and leaves four houses."""
    game = new_game(2)
    kathmandu_hotel_for(game, 1)
    give(game, 0, "Jumla", "Surkhet", buildings=board.HOTEL)
    game.cash[0] = 19_500
    land_on(game, "Kathmandu")
    assert game.phase == Phase.RAISE_CASH
    assert game.legal_actions() == [actions.sell_building(1), actions.sell_building(3)]
    game.apply(actions.sell_building(3))
    assert game.buildings[1] == board.HOTEL and game.buildings[3] == 4
    assert game.cash[0] == 19_750
    assert game.legal_actions() == [actions.sell_building(1)]
    game.apply(actions.sell_building(1))  # 20,000: pays the rent exactly
    assert game.cash == [0, START_CASH + 20_000]
    assert game.buildings[1] == game.buildings[3] == 4
    assert not game.bankrupt[0]
    assert game.phase == Phase.PRE_ROLL and game.current_player == 1


def test_everything_sold_exactly_covers_the_debt_so_no_bankruptcy():
    """Liquidation value equal to the debt: raise cash (selling all), pay, and stay in at Rs 0."""
    game = new_game(2)
    kathmandu_hotel_for(game, 1)
    give(game, 0, "Jumla", "Surkhet", buildings=board.HOTEL)  # 2 x 1,250 + 2 x 300 = 3,100
    game.cash[0] = 20_000 - 3_100
    assert game.liquidation_value(0) == 20_000
    land_on(game, "Kathmandu")
    assert game.phase == Phase.RAISE_CASH
    steps = 0
    while game.phase == Phase.RAISE_CASH:
        game.apply(game.legal_actions()[0])
        steps += 1
    assert steps == 12  # ten building sales and two mortgages
    assert game.cash == [0, START_CASH + 20_000]
    assert not game.bankrupt[0]
    assert game.owner[1] == game.owner[3] == 0 and game.mortgaged[1] and game.mortgaged[3]
    assert game.phase == Phase.PRE_ROLL and game.current_player == 1


def test_paying_after_raising_on_a_double_keeps_the_extra_roll():
    """A debt raised for after rolling a double: once paid, the same player rolls again."""
    game = new_game(2)
    give(game, 1, "Lalitpur", "Kathmandu")  # rent 1,000
    give(game, 0, "Bus park")
    game.cash[0] = 500
    land_on(game, "Kathmandu", 2, 2)
    assert game.phase == Phase.RAISE_CASH
    game.apply(actions.mortgage(5))
    assert game.cash == [500, START_CASH + 1_000]
    assert game.phase == Phase.PRE_ROLL and game.current_player == 0 and game.turn == 0


# --------------------------------------------------------------------------- bankruptcy


def test_bankrupt_to_a_player_who_takes_cash_places_and_bail_cards():
    """One short of covering rent: bankrupt at once; buildings sold to the bank at half price,
    then the cash, the places (mortgages kept) and the bail card go to the owner."""
    game = new_game(3)
    kathmandu_hotel_for(game, 1)
    give(game, 0, "Jumla", "Surkhet", buildings=board.HOTEL)  # liquidation: 2,500 + 600
    give(game, 0, "Bus park", mortgaged=True)  # adds nothing to the liquidation value
    hold_bail_card(game, 0, board.SAMUDAYA)
    game.cash[0] = 20_000 - 3_100 - 10
    land_on(game, "Kathmandu")
    assert game.bankrupt[0]
    assert game.cash == [0, START_CASH + 16_890 + 2_500, START_CASH]
    assert game.bank_paid == 2_500  # the five houses' worth on each Karnali city, at half
    assert game.owner[1] == game.owner[3] == game.owner[5] == 1
    assert game.buildings[1] == game.buildings[3] == 0
    assert not game.mortgaged[1] and not game.mortgaged[3] and game.mortgaged[5]
    assert game.bail_cards == [[], [board.SAMUDAYA], []]
    assert len(game.decks[board.SAMUDAYA]) == 15
    assert game.phase == Phase.PRE_ROLL and game.current_player == 1 and game.turn == 1


def test_bankrupt_to_the_bank_returns_places_unmortgaged_and_bail_cards_under_decks():
    """Owing the bank (tax) beyond everything: buildings sold, cash to the bank, places back to
    the bank unmortgaged, bail cards under their decks."""
    game = new_game(3)
    give(game, 0, "Jumla", "Surkhet", buildings=1)  # houses 250 + 250, mortgages 300 + 300
    give(game, 0, "Hydropower", mortgaged=True)
    hold_bail_card(game, 0, board.BHAGYA)
    hold_bail_card(game, 0, board.SAMUDAYA)
    game.cash[0] = 200  # liquidation 1,300 < 1,500 Property tax
    land_on(game, "Property tax")
    assert game.bankrupt[0]
    assert game.cash == [0, START_CASH, START_CASH]
    assert game.bank_paid == 500 and game.bank_received == 700
    for s in (1, 3, 11):
        assert game.owner[s] == -1 and game.buildings[s] == 0 and not game.mortgaged[s]
    assert game.bail_cards[0] == []
    assert game.decks[board.BHAGYA][-1] == 10 and len(game.decks[board.BHAGYA]) == 16
    assert game.decks[board.SAMUDAYA][-1] == 12 and len(game.decks[board.SAMUDAYA]) == 16
    assert game.phase == Phase.PRE_ROLL and game.current_player == 1


def test_bankruptcy_after_a_double_gives_no_extra_turn():
    """Going bankrupt on a double's move ends the turn for good: the next seat plays."""
    game = new_game(3)
    kathmandu_hotel_for(game, 2)
    game.cash[0] = 100
    land_on(game, "Kathmandu", 2, 2)
    assert game.bankrupt[0]
    assert game.cash == [0, START_CASH, START_CASH + 100]
    assert game.phase == Phase.PRE_ROLL and game.current_player == 1 and game.turn == 1


def test_bankrupt_seat_is_skipped_in_turn_order():
    """After a bankruptcy the seat never plays again: seat 2's turn passes straight to seat 1."""
    game = new_game(3)
    kathmandu_hotel_for(game, 2)
    game.cash[0] = 100
    land_on(game, "Kathmandu")
    roll(game, 4, 5)  # seat 1, to Jail visiting
    assert game.current_player == 2
    roll(game, 4, 5)  # seat 2
    assert game.current_player == 1 and game.turn == 1 and game.round == 2


def test_last_player_left_wins_at_once():
    """When every other player is bankrupt the game ends there, the survivor the only winner."""
    game = new_game(2)
    kathmandu_hotel_for(game, 1)
    game.cash[0] = 100
    land_on(game, "Kathmandu", 2, 2)
    assert game.bankrupt[0]
    assert game.is_over and game.phase == Phase.GAME_OVER
    assert game.winners == [1] and game.current_player == -1
    assert game.cash == [0, START_CASH + 100]
    with pytest.raises(IllegalActionError):
        game.apply(actions.ROLL)


# --------------------------------------------------------------------------- several creditors


def test_paying_every_other_player_raises_for_the_total():
    """Bhagya 16 with 4 players owes 1,500 in all: raise for the total, then everyone is paid."""
    game = new_game(4)
    give(game, 0, "Jumla", "Surkhet", "Bus park")
    game.cash[0] = 1_000
    draw_on_16(game, 16)
    assert game.phase == Phase.RAISE_CASH and game.current_player == 0
    assert game.debt_owed() == 1_500
    assert game.cash == [1_000] + [START_CASH] * 3
    game.apply(actions.mortgage(1))  # 1,300
    assert game.phase == Phase.RAISE_CASH and game.cash[0] == 1_300
    game.apply(actions.mortgage(3))  # 1,600
    assert game.cash == [100] + [START_CASH + 500] * 3
    assert game.phase == Phase.PRE_ROLL and game.current_player == 1


def test_bankrupt_to_several_players_shares_the_cash_and_returns_places_to_the_bank():
    """Engine's choice: bankrupt to several players at once, the cash is split equally among
    them, the places go back to the bank unmortgaged and the bail card under its deck."""
    game = new_game(4)
    give(game, 0, "Jumla", mortgaged=True)
    give(game, 0, "Surkhet", mortgaged=True)
    hold_bail_card(game, 0, board.BHAGYA)
    game.cash[0] = 990  # nothing left to raise: 990 < 1,500
    draw_on_16(game, 16)
    assert game.bankrupt[0]
    assert game.cash == [0] + [START_CASH + 330] * 3
    assert game.bank_received == 0
    for s in (1, 3):
        assert game.owner[s] == -1 and not game.mortgaged[s]
    assert game.bail_cards == [[], [], [], []]
    assert game.decks[board.BHAGYA][-2:] == [16, 10]  # the drawn card, then the returned bail card
    assert game.phase == Phase.PRE_ROLL and game.current_player == 1


def test_bankrupt_to_several_players_bank_keeps_the_indivisible_remainder():
    """Engine's choice: the cash is shared in equal whole Rs 10; the bank keeps the rest."""
    game = new_game(4)
    game.cash[0] = 1_000
    draw_on_16(game, 16)
    assert game.bankrupt[0]
    assert game.cash == [0] + [START_CASH + 330] * 3
    assert game.bank_received == 10
    assert sum(game.cash) == 1_000 + 3 * START_CASH - 10  # no rupee made or lost


def test_pay_every_other_player_with_one_opponent_left_is_a_debt_to_that_player():
    """With one other player in, Bhagya 16 is a plain debt to them: they take places and all."""
    game = new_game(3)
    game.bankrupt[2] = True
    game.cash[2] = 0
    give(game, 0, "Bus park", mortgaged=True)
    game.cash[0] = 300
    draw_on_16(game, 16)
    assert game.bankrupt[0]
    assert game.is_over and game.winners == [1]
    assert game.cash == [0, START_CASH + 300, 0]
    assert game.owner[5] == 1 and game.mortgaged[5]


# --------------------------------------------------------------------------- Bhailo debts


def test_bhailo_debtors_raise_cash_or_go_bankrupt_to_the_drawer():
    """Samudaya 3: each other player owes the drawer 100 in seat order; one short raises cash
    on the drawer's turn, one without enough goes bankrupt to the drawer."""
    game = new_game(4)
    give(game, 1, "Jumla")  # seat 1 holds 50 and can mortgage Jumla for 300
    game.cash[1] = 50
    give(game, 2, "Bus park", mortgaged=True)  # seat 2 holds 50 and nothing to raise
    game.cash[2] = 50
    hold_bail_card(game, 2, board.BHAGYA)
    put(game, 0, 13)
    game.stack_deck(board.SAMUDAYA, 3)
    roll(game, 3, 4)
    assert game.position[0] == 20
    assert game.phase == Phase.RAISE_CASH and game.current_player == 1 and game.turn == 0
    assert game.legal_actions() == [actions.mortgage(1)]
    assert game.cash == [START_CASH, 50, 50, START_CASH]
    game.apply(actions.mortgage(1))
    assert game.bankrupt == [False, False, True, False]
    assert game.cash == [START_CASH + 100 + 50 + 100, 250, 0, START_CASH - 100]
    assert game.owner[5] == 0 and game.mortgaged[5]
    assert game.bail_cards[0] == [board.BHAGYA] and game.bail_cards[2] == []
    assert game.phase == Phase.PRE_ROLL and game.current_player == 1 and game.turn == 1


def test_bhailo_last_opponent_bankrupt_ends_the_game():
    """Bhailo that bankrupts the only other player: the drawer wins at once."""
    game = new_game(2)
    game.cash[1] = 40
    put(game, 0, 13)
    game.stack_deck(board.SAMUDAYA, 3)
    roll(game, 3, 4)
    assert game.bankrupt == [False, True]
    assert game.is_over and game.winners == [0]
    assert game.cash == [START_CASH + 40, 0]
