"""The end of the game: the last round, net worth, shared wins, bankruptcy, until one is left."""

from __future__ import annotations

import pytest
from scenario import give, new_game, put, roll, sq

from byapar_env.engine import IllegalActionError, Phase, actions, board


def quiet_roll(game, seat):
    """``seat`` (the current player) rolls 4+5 from Start onto Jail, just visiting: no money."""
    assert game.current_player == seat and game.phase == Phase.PRE_ROLL
    put(game, seat, 0)
    roll(game, 4, 5)
    assert game.position[seat] == 9 and not game.in_jail[seat]


def play_round(game):
    """Every seat still in plays one quiet turn, in order."""
    for seat in game.active_seats():
        quiet_roll(game, seat)


def assert_over(game, winners):
    assert game.is_over and game.phase == Phase.GAME_OVER
    assert game.winners == winners
    assert game.current_player == -1
    assert game.legal_actions() == []
    with pytest.raises(IllegalActionError, match="game is over"):
        game.apply(actions.ROLL)


# --------------------------------------------------------------------------- net worth
def test_net_worth_cash_places_mortgages_and_buildings():
    """Net worth = cash + each place at its price, half if mortgaged, + buildings at cost."""
    game = new_game(3)
    game.cash[0] = 1_230
    give(game, 0, "Jumla", "Surkhet", buildings=3)  # 2 x 600 + 6 x 500
    give(game, 0, "Bus park")  # 2,000
    give(game, 0, "Hydropower", "Lalitpur", mortgaged=True)  # 750 + 1,750
    assert game.net_worth(0) == 1_230 + 1_200 + 3_000 + 2_000 + 750 + 1_750
    assert game.net_worth(1) == 15_000


def test_a_hotel_counts_as_five_house_costs():
    """A hotel is worth what it cost: four houses plus one more house cost."""
    game = new_game(2)
    game.cash[0] = 0
    give(game, 0, "Lalitpur", buildings=4)
    give(game, 0, "Kathmandu", buildings=5)
    assert game.net_worth(0) == 3_500 + 4 * 2_000 + 4_000 + 5 * 2_000


def test_net_worth_moves_only_by_what_a_sale_loses():
    """Building and mortgaging keep net worth (cash turns into buildings at cost, or a full price
    into half price plus the loan); selling a building back loses half its cost."""
    game = new_game(2)
    give(game, 0, "Jumla", "Surkhet")
    before = game.net_worth(0)
    assert before == 15_000 + 1_200
    game.apply(actions.build(sq("Jumla")))
    assert game.net_worth(0) == before
    game.apply(actions.sell_building(sq("Jumla")))
    assert game.net_worth(0) == before - 250
    game.apply(actions.mortgage(sq("Jumla")))
    assert game.cash[0] == 15_000 - 500 + 250 + 300
    assert game.net_worth(0) == before - 250


# --------------------------------------------------------------------------- the last round
def test_game_ends_after_the_last_round_with_the_highest_net_worth():
    """rounds=1: after every seat's turn the richest (by net worth, not cash) wins."""
    game = new_game(2, rounds=1)
    game.cash[0] = 5_000
    give(game, 0, "Kathmandu", buildings=5)  # 4,000 + 10,000
    give(game, 0, "Bus park", mortgaged=True)  # 1,000
    game.cash[1] = 19_990
    quiet_roll(game, 0)
    assert not game.is_over and game.current_player == 1
    quiet_roll(game, 1)
    assert game.net_worth(0) == 20_000 and game.net_worth(1) == 19_990
    assert_over(game, [0])
    assert game.round == 1
    assert game.log[-1] == "Game over: seat 0 wins with the highest net worth"


def test_two_rounds_are_played_in_full():
    """rounds=2: round 1 ends and round 2 starts; the game ends only after round 2."""
    game = new_game(3, rounds=2)
    game.cash[2] = 15_100
    play_round(game)
    assert not game.is_over and game.round == 2 and game.current_player == 0
    quiet_roll(game, 0)
    quiet_roll(game, 1)
    assert not game.is_over and game.current_player == 2
    quiet_roll(game, 2)
    assert_over(game, [2])
    assert game.round == 2


def test_equal_net_worth_shares_the_win():
    """Seats with the same highest net worth all win; a poorer seat does not."""
    game = new_game(3, rounds=1)
    game.cash[0] = 12_650
    give(game, 0, "Jumla")  # 600
    give(game, 0, "Lalitpur", mortgaged=True)  # 1,750
    game.cash[2] = 14_990
    play_round(game)
    assert [game.net_worth(s) for s in range(3)] == [15_000, 15_000, 14_990]
    assert_over(game, [0, 1])
    assert game.log[-1] == "Game over: seat 0, seat 1 share the win with the highest net worth"


def test_everyone_equal_all_share_the_win():
    """With nothing changed in a one-round game every seat ties and every seat wins."""
    game = new_game(4, rounds=1)
    play_round(game)
    assert_over(game, [0, 1, 2, 3])


def test_the_last_turn_finishes_before_the_game_ends():
    """The game waits for the last player's buying decision, and counts the purchase."""
    game = new_game(2, rounds=1)
    quiet_roll(game, 0)
    roll(game, 3, 4)  # seat 1 onto Dhangadhi
    assert not game.is_over and game.phase == Phase.BUY and game.current_player == 1
    game.cash[0] = 14_500  # beats seat 1 unless the place bought counts
    game.apply(actions.buy(sq("Dhangadhi")))
    assert game.owner[7] == 1 and game.cash[1] == 14_000
    assert game.net_worth(1) == 15_000
    assert_over(game, [1])


def test_a_double_in_the_last_turn_is_played_before_the_end():
    """An extra turn from a double belongs to the same round: the game ends after it."""
    game = new_game(2, rounds=1)
    quiet_roll(game, 0)
    roll(game, 2, 2)  # seat 1: Income tax, then again
    assert not game.is_over and game.current_player == 1 and game.phase == Phase.PRE_ROLL
    assert game.cash[1] == 14_000
    roll(game, 2, 3)  # 9, Jail, visiting
    assert_over(game, [0])


def test_bankrupt_players_score_zero_and_cannot_win():
    """A seat that went bankrupt scores 0 and is left out of the winners."""
    game = new_game(3, rounds=1)
    game.cash[0] = 100
    give(game, 0, "Jumla")
    give(game, 1, "Kathmandu", buildings=5)
    put(game, 0, 29)
    roll(game, 2, 4)  # Kathmandu with a hotel: Rs 20,000 owed, 400 raisable
    assert game.bankrupt[0] and game.net_worth(0) == 0
    assert game.owner[sq("Jumla")] == 1 and game.cash[1] == 15_100
    assert not game.is_over and game.current_player == 1
    quiet_roll(game, 1)
    quiet_roll(game, 2)
    assert game.net_worth(1) == 15_100 + 600 + 4_000 + 10_000
    assert_over(game, [1])
    assert game.net_worth(0) == 0


# --------------------------------------------------------------------------- last one left
def test_last_player_left_wins_at_once():
    """Two players, round 1 of 40: the other player's bankruptcy ends the game straight away."""
    game = new_game(2)
    game.cash[0] = 100
    give(game, 1, "Kathmandu", buildings=5)
    put(game, 0, 29)
    roll(game, 2, 4)
    assert game.bankrupt[0] and game.cash[0] == 0 and game.cash[1] == 15_100
    assert game.round == 1
    assert_over(game, [1])
    assert game.log[-1] == "Game over: seat 1 wins with everyone else bankrupt"


def test_last_player_left_wins_even_when_bankrupt_to_the_bank():
    """Bankruptcy to the bank (tax) ends a two-player game too; the places go to the bank."""
    game = new_game(2)
    game.cash[0] = 100
    give(game, 0, "Jumla")
    put(game, 0, 30)
    roll(game, 1, 3)  # Property tax, Rs 1,500 owed, 400 raisable
    assert game.bankrupt[0] and game.owner[sq("Jumla")] == -1
    assert_over(game, [1])


def test_last_player_left_wins_mid_turn_on_a_card():
    """Seat 1 cannot pay seat 0's Bhailo card: seat 0 wins at once, double or not."""
    game = new_game(2)
    game.cash[1] = 50
    game.stack_deck(board.SAMUDAYA, 3)
    roll(game, 1, 1)  # Samudaya: collect Rs 100 from every other player
    assert game.bankrupt[1]
    assert game.cash[0] == 15_050
    assert_over(game, [0])


def test_one_bankruptcy_of_three_does_not_end_the_game():
    """With two players still in, play goes on; the second bankruptcy ends it at once."""
    game = new_game(3)
    give(game, 1, "Kathmandu", buildings=5)
    game.cash[0] = 100
    put(game, 0, 29)
    roll(game, 2, 4)
    assert game.bankrupt[0] and not game.is_over
    assert game.current_player == 1
    quiet_roll(game, 1)
    game.cash[2] = 0
    put(game, 2, 29)
    roll(game, 2, 4)
    assert game.bankrupt[2]
    assert_over(game, [1])


# --------------------------------------------------------------------------- until one is left
def test_until_one_left_goes_past_40_rounds():
    """rounds=None: round 40 ending is not the end."""
    game = new_game(2, rounds=None)
    game.round = 40
    play_round(game)
    assert not game.is_over and game.round == 41


def test_until_one_left_ends_after_round_100_by_net_worth():
    """rounds=None: if nobody is bankrupt after round 100, the richest wins."""
    game = new_game(3, rounds=None)
    game.round = 99
    game.cash[1] = 15_010
    play_round(game)
    assert not game.is_over and game.round == 100
    play_round(game)
    assert game.round == 100
    assert_over(game, [1])
    assert game.log[-1] == "Game over: seat 1 wins with the highest net worth"


def test_a_round_limited_game_at_its_preset_of_40():
    """The default 40-round game ends after round 40, not after 39."""
    game = new_game(2)
    game.round = 39
    play_round(game)
    assert not game.is_over and game.round == 40
    game.cash[0] = 15_010
    play_round(game)
    assert_over(game, [0])
