"""A turn: actions before the roll, the roll and the move, Start's salary, doubles, rounds."""

from __future__ import annotations

import pytest
from scenario import give, new_game, put, roll, sq

from byapar_env.engine import IllegalActionError, Phase, actions, board


def own_all(game, seat):
    """Give ``seat`` every place, so that landing on one costs nothing and asks nothing."""
    for s in board.PLACES:
        game.owner[s] = seat


def quiet_roll(game, seat, d1=4, d2=5):
    """Let ``seat`` (the current player, on Start) roll a non-double onto a quiet square."""
    assert game.current_player == seat and game.phase == Phase.PRE_ROLL
    roll(game, d1, d2)


# --------------------------------------------------------------------------- before the roll
def test_pre_roll_actions_repeat_then_roll_ends_them():
    """Before rolling a player may act as often as they like (here: build four houses, mortgage a
    place); the roll then moves them and the pre-roll actions are gone."""
    game = new_game(2)
    give(game, 0, "Jumla", "Surkhet", "Airport")
    for name in ("Jumla", "Surkhet", "Jumla", "Surkhet"):
        game.apply(actions.build(sq(name)))
        assert game.phase == Phase.PRE_ROLL and game.current_player == 0
    game.apply(actions.mortgage(sq("Airport")))
    assert game.buildings[1] == 2 and game.buildings[3] == 2
    assert game.cash[0] == 15_000 - 4 * 500 + 1_000
    roll(game, 3, 4)  # onto Dhangadhi, unowned: a buying decision
    assert game.position[0] == 7
    assert game.phase == Phase.BUY and game.current_player == 0
    assert game.legal_actions() == [actions.buy(7), actions.decline(7)]
    with pytest.raises(IllegalActionError):
        game.apply(actions.build(sq("Jumla")))
    assert game.buildings[1] == 2 and game.cash[0] == 14_000
    with pytest.raises(IllegalActionError):
        game.apply(actions.ROLL)


def test_pre_roll_legal_actions_exact_list():
    """Perft-style: the full pre-roll list for a set-up position is exactly what it allows."""
    game = new_game(3)
    p = 0
    game.cash[p] = 1_500
    game.in_jail[p] = True
    game.position[p] = 9
    game.bail_cards[p] = [board.BHAGYA]
    give(game, p, "Jumla", buildings=1)
    give(game, p, "Surkhet")
    give(game, p, "Mahendranagar", "Dhangadhi")
    give(game, 1, "Dadeldhura")
    give(game, p, "Bus park", "Hydropower", mortgaged=True)  # pay off 1,100 and 830
    give(game, p, "Airport")
    give(game, p, "Gorkha", "Mustang", buildings=4)
    give(game, p, "Pokhara", buildings=5)
    give(game, p, "Chitwan", "Bhaktapur", buildings=2)  # a house costs 1,800: no building
    give(game, p, "Lalitpur", mortgaged=True)  # pay off 1,930: too dear
    give(game, p, "Kathmandu")
    give(game, 2, "Railway", "Ilam")
    expected = [
        actions.ROLL, actions.PAY_FINE, actions.USE_BAIL_CARD,
        actions.sell_building(sq("Jumla")), actions.build(sq("Surkhet")),
        actions.mortgage(sq("Mahendranagar")), actions.mortgage(sq("Dhangadhi")),
        actions.unmortgage(sq("Bus park")), actions.unmortgage(sq("Hydropower")),
        actions.mortgage(sq("Airport")),
        actions.build(sq("Gorkha")), actions.build(sq("Mustang")),
        actions.sell_building(sq("Pokhara")),
        actions.sell_building(sq("Chitwan")), actions.sell_building(sq("Bhaktapur")),
        actions.mortgage(sq("Kathmandu")),
    ]
    assert sorted(game.legal_actions()) == sorted(expected)
    assert game.legal_actions()[0] == actions.ROLL
    assert game.can_offer_trade()

    game.apply(actions.build(sq("Gorkha")))  # a hotel: Rs 1,400 leaves Rs 100
    assert game.buildings[sq("Gorkha")] == 5 and game.cash[p] == 100
    assert game.phase == Phase.PRE_ROLL and game.current_player == p
    expected = [
        actions.ROLL, actions.USE_BAIL_CARD,
        actions.sell_building(sq("Jumla")),
        actions.mortgage(sq("Mahendranagar")), actions.mortgage(sq("Dhangadhi")),
        actions.mortgage(sq("Airport")),
        actions.sell_building(sq("Gorkha")), actions.sell_building(sq("Pokhara")),
        actions.sell_building(sq("Chitwan")), actions.sell_building(sq("Bhaktapur")),
        actions.mortgage(sq("Kathmandu")),
    ]
    assert sorted(game.legal_actions()) == sorted(expected)


def test_pre_roll_with_nothing_owned_is_just_the_roll():
    """A player outside jail with no places has one listed action: roll (trades aside)."""
    game = new_game(4)
    give(game, 1, "Jumla", "Surkhet")
    assert game.legal_actions() == [actions.ROLL]


# --------------------------------------------------------------------------- moving and Start
def test_move_clockwise_by_the_dice_total():
    """The token moves forward (clockwise, up the square numbers) by the sum of the dice."""
    game = new_game(2)
    own_all(game, 0)
    roll(game, 1, 2)
    assert game.position[0] == 3 and game.dice == (1, 2)
    quiet_roll(game, 1)
    roll(game, 6, 5)
    assert game.position[0] == 14
    quiet_roll(game, 1, 6, 3)  # 9 + 9 = 18, Chautari
    roll(game, 6, 4)
    assert game.position[0] == 24
    assert game.cash[0] == 15_000 and game.current_player == 1


def test_passing_start_onto_own_place_pays_salary_once():
    """From Bhaktapur (30) a 7 reaches Jumla (1): past Start, so Rs 2,000, and nothing else."""
    game = new_game(2)
    own_all(game, 0)
    put(game, 0, "Bhaktapur")
    roll(game, 3, 4)
    assert game.position[0] == sq("Jumla")
    assert game.cash[0] == 17_000 and game.cash[1] == 15_000
    assert game.bank_paid == 2_000
    assert game.current_player == 1 and game.phase == Phase.PRE_ROLL


def test_landing_exactly_on_start_pays_the_salary():
    """A move that ends on Start pays the salary too."""
    game = new_game(2)
    put(game, 0, 29)
    roll(game, 3, 4)
    assert game.position[0] == 0
    assert game.cash[0] == 17_000
    assert game.current_player == 1


def test_a_move_that_stops_short_of_start_pays_nothing():
    """Ending on the last square, Kathmandu (35), does not reach Start: no salary."""
    game = new_game(2)
    own_all(game, 0)
    put(game, 0, 29)
    roll(game, 2, 4)
    assert game.position[0] == 35
    assert game.cash[0] == 15_000 and game.bank_paid == 0


# --------------------------------------------------------------------------- doubles
def test_a_double_gives_the_same_seat_another_turn():
    """After a double is dealt with, the same seat decides again in PRE_ROLL; a non-double then
    passes the turn."""
    game = new_game(3)
    roll(game, 2, 2)  # Income tax
    assert game.position[0] == 4 and game.cash[0] == 14_000
    assert game.phase == Phase.PRE_ROLL and game.current_player == 0 and game.turn == 0
    assert game.round == 1
    assert game.legal_actions() == [actions.ROLL]
    roll(game, 3, 2)  # 9, Jail, just visiting
    assert game.position[0] == 9 and not game.in_jail[0]
    assert game.current_player == 1 and game.turn == 1 and game.phase == Phase.PRE_ROLL


def test_a_double_with_a_purchase_plays_again_after_the_purchase():
    """The buying decision of a double comes first; after it, the same seat rolls again."""
    game = new_game(2)
    roll(game, 3, 3)  # Mahendranagar, unowned
    assert game.phase == Phase.BUY and game.current_player == 0
    game.apply(actions.buy(6))
    assert game.owner[6] == 0 and game.cash[0] == 14_000
    assert game.phase == Phase.PRE_ROLL and game.current_player == 0


def test_a_double_resets_the_trade_offer_count():
    """Three offers were made this turn; the extra turn from a double allows three more."""
    game = new_game(2)
    give(game, 0, "Jumla")
    give(game, 1, "Surkhet")
    offer = actions.offer_trade(1, [sq("Jumla")], [sq("Surkhet")])
    for _ in range(3):
        game.apply(offer)
        assert game.current_player == 1 and game.phase == Phase.TRADE_ANSWER
        game.apply(actions.REJECT_TRADE)
    assert not game.can_offer_trade() and not game.is_legal(offer)
    assert "at most 3" in game.trade_error(offer)
    roll(game, 4, 4)  # Dadeldhura: pass, nobody bids, then play again
    game.apply(actions.decline(8))
    game.apply(actions.DROP_OUT)  # seat 1 bids first
    game.apply(actions.DROP_OUT)
    assert game.owner[8] == -1
    assert game.current_player == 0 and game.phase == Phase.PRE_ROLL
    assert game.can_offer_trade() and game.is_legal(offer)
    game.apply(offer)
    game.apply(actions.ACCEPT_TRADE)
    assert game.owner[sq("Jumla")] == 1 and game.owner[sq("Surkhet")] == 0
    assert game.current_player == 0 and game.phase == Phase.PRE_ROLL


def test_three_doubles_in_a_row_go_to_jail_without_moving():
    """The third double sends the player to jail from where they stand: no move, no salary, no
    square dealt with, and the turn passes."""
    game = new_game(2)
    give(game, 0, "Nepalgunj")
    roll(game, 2, 2)  # Income tax, Rs 1,000
    roll(game, 3, 3)  # Nepalgunj, own place
    assert game.position[0] == 10 and game.current_player == 0
    roll(game, 4, 4)  # would be 18, Chautari
    assert game.position[0] == 9 and game.in_jail[0] and game.jail_misses[0] == 0
    assert game.cash[0] == 14_000
    assert game.dice == (4, 4)
    assert game.current_player == 1 and game.phase == Phase.PRE_ROLL and game.turn == 1


def test_third_double_that_would_pass_start_pays_no_salary():
    """Jail on the third double even when that roll would have passed Start."""
    game = new_game(2)
    own_all(game, 0)
    put(game, 0, 24)
    roll(game, 4, 4)  # Cable car, own
    roll(game, 1, 1)  # Property tax 34, Rs 1,500
    assert game.position[0] == 34 and game.cash[0] == 13_500
    roll(game, 6, 6)  # 34 + 12 would pass Start
    assert game.position[0] == 9 and game.in_jail[0]
    assert game.cash[0] == 13_500 and game.bank_paid == 0
    assert game.current_player == 1


def test_doubles_count_starts_again_each_turn():
    """Two doubles then Go to jail end a turn; next turn, after paying the fine, it takes three
    new doubles in a row to be jailed (a double after paying the fine plays again)."""
    game = new_game(2)
    own_all(game, 0)
    put(game, 0, 15)
    roll(game, 3, 3)  # Dharan, own
    roll(game, 3, 3)  # Go to jail
    assert game.in_jail[0] and game.current_player == 1
    quiet_roll(game, 1)
    game.apply(actions.PAY_FINE)
    roll(game, 1, 1)  # 11, Hydropower, own
    assert game.position[0] == 11 and not game.in_jail[0]
    assert game.current_player == 0 and game.phase == Phase.PRE_ROLL
    roll(game, 2, 2)  # 15, Birgunj, own
    assert game.position[0] == 15 and game.current_player == 0
    roll(game, 5, 5)  # third double of this turn
    assert game.position[0] == 9 and game.in_jail[0]
    assert game.cash[0] == 14_500 and game.current_player == 1


def test_going_to_jail_on_a_double_ends_the_turn():
    """A double that lands on Go to jail jails the player; the double gives no extra turn."""
    game = new_game(2)
    put(game, 0, 21)
    roll(game, 3, 3)
    assert game.position[0] == 9 and game.in_jail[0]
    assert game.cash[0] == 15_000
    assert game.current_player == 1 and game.phase == Phase.PRE_ROLL


def test_double_out_of_jail_moves_but_does_not_roll_again():
    """Leaving jail on a double moves by that roll, and the turn passes (no extra roll)."""
    game = new_game(2)
    put(game, 0, 9)
    game.in_jail[0] = True
    own_all(game, 0)
    roll(game, 5, 5)
    assert game.position[0] == 19 and not game.in_jail[0]
    assert game.current_player == 1


# --------------------------------------------------------------------------- passing the turn
def test_non_double_passes_to_the_next_seat_in_order():
    """Seat 0, 1, 2, 3 in turn, then back to seat 0."""
    game = new_game(4)
    own_all(game, 0)
    for seat in (0, 1, 2, 3):
        assert game.current_player == seat and game.turn == seat
        put(game, seat, 0)
        quiet_roll(game, seat)
    assert game.current_player == 0 and game.phase == Phase.PRE_ROLL


def test_a_bankrupt_seat_is_skipped():
    """The turn goes to the next seat still in the game."""
    game = new_game(4)
    game.bankrupt[1] = True
    game.bankrupt[2] = True
    game.cash[1] = game.cash[2] = 0
    quiet_roll(game, 0)
    assert game.current_player == 3 and game.turn == 3
    quiet_roll(game, 3)
    assert game.current_player == 0 and game.round == 2


# --------------------------------------------------------------------------- rounds
def test_a_round_is_one_turn_for_every_player():
    """The round number goes up when every seat has had its turn, and not before; extra turns
    from doubles stay in the same round."""
    game = new_game(3)
    assert game.round == 1
    quiet_roll(game, 0)
    assert game.round == 1
    roll(game, 2, 2)  # seat 1: Income tax, then again
    assert game.round == 1 and game.current_player == 1
    roll(game, 2, 3)  # 9, Jail, visiting
    assert game.round == 1 and game.current_player == 2
    quiet_roll(game, 2)
    assert game.round == 2 and game.current_player == 0
    assert game.log[-1] == "Round 2"


def test_round_counting_skips_a_seat_gone_bankrupt_this_round():
    """Seat 0 goes bankrupt on its own turn; seats 1 and 2 play, and round 2 starts with seat 1."""
    game = new_game(3)
    game.cash[0] = 100
    give(game, 1, "Kathmandu", "Lalitpur", buildings=5)
    put(game, 0, 29)
    roll(game, 2, 4)  # Kathmandu with a hotel: Rs 20,000
    assert game.bankrupt[0] and game.cash[0] == 0
    assert game.cash[1] == 15_100
    assert game.current_player == 1 and game.round == 1
    quiet_roll(game, 1)
    assert game.current_player == 2 and game.round == 1
    quiet_roll(game, 2)
    assert game.current_player == 1 and game.turn == 1 and game.round == 2
    put(game, 1, 0)
    quiet_roll(game, 1)
    assert game.current_player == 2 and game.round == 2
