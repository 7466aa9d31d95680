"""Jail: going there, visiting, and the three ways out (fine, bail card, doubles)."""

from __future__ import annotations

import pytest
from scenario import assert_illegal, give, new_game, put, roll, sq

from byapar_env.engine import Phase, actions, board

JAIL = board.JAIL_SQUARE


def jail(game, seat, misses=0):
    """Put ``seat`` in jail with ``misses`` failed rolls so far."""
    game.position[seat] = JAIL
    game.in_jail[seat] = True
    game.jail_misses[seat] = misses


def take_bail_card(game, seat, deck):
    """Hand ``seat`` the bail card of ``deck``, taking it out of the deck as a draw would."""
    number = 10 if deck == board.BHAGYA else 12
    game.decks[deck].remove(number)
    game.bail_cards[seat].append(deck)


def assert_jailed(game, seat):
    assert game.position[seat] == JAIL
    assert game.in_jail[seat]
    assert game.jail_misses[seat] == 0



# --- going to jail ---------------------------------------------------------------------------

def test_go_to_jail_square_sends_to_jail_and_ends_the_turn():
    """Landing on Go to jail moves the token to Jail, in jail, and passes the turn."""
    g = new_game()
    put(g, 0, "Chautari")
    roll(g, 4, 5)  # Chautari -> Go to jail
    assert_jailed(g, 0)
    assert g.cash == [15_000, 15_000]
    assert (g.phase, g.current_player) == (Phase.PRE_ROLL, 1)


def test_go_to_jail_by_a_double_gives_no_extra_turn():
    """Being sent to jail ends the turn even when the roll was a double."""
    g = new_game()
    put(g, 0, "Dharan")
    roll(g, 3, 3)  # Dharan -> Go to jail
    assert_jailed(g, 0)
    assert (g.phase, g.current_player) == (Phase.PRE_ROLL, 1)


@pytest.mark.parametrize(
    ("deck", "card", "start", "dice"),
    [(board.BHAGYA, 9, "Pokhara", (1, 2)), (board.SAMUDAYA, 11, "Janakpur", (1, 2))],
)
def test_jail_card_pays_no_salary(deck, card, start, dice):
    """A go-to-jail card puts the token on Jail with no salary, though Jail lies past Start."""
    g = new_game()
    put(g, 0, start)
    g.stack_deck(deck, card)
    roll(g, *dice)  # onto the card square (Bhagya 29, Samudaya 20)
    assert_jailed(g, 0)
    assert g.cash == [15_000, 15_000]
    assert g.decks[deck][-1] == card
    assert (g.phase, g.current_player) == (Phase.PRE_ROLL, 1)


def test_three_doubles_go_to_jail_without_moving():
    """The third double in a row sends the player to jail without moving by it."""
    g = new_game()
    give(g, 0, "Mahendranagar", "Nepalgunj")
    roll(g, 3, 3)  # Start -> Mahendranagar, own place
    assert (g.phase, g.current_player) == (Phase.PRE_ROLL, 0)
    roll(g, 2, 2)  # -> Nepalgunj, own place
    assert (g.phase, g.current_player) == (Phase.PRE_ROLL, 0)
    roll(g, 4, 4)  # third double: straight to jail, not on to Chautari
    assert_jailed(g, 0)
    assert g.cash == [15_000, 15_000]
    assert (g.phase, g.current_player) == (Phase.PRE_ROLL, 1)


def test_landing_on_jail_is_only_visiting():
    """An ordinary move onto the Jail square does not jail the player."""
    g = new_game()
    put(g, 0, "Bus park")
    roll(g, 1, 3)  # Bus park -> Jail
    assert g.position[0] == JAIL
    assert not g.in_jail[0]
    assert (g.phase, g.current_player) == (Phase.PRE_ROLL, 1)
    roll(g, 1, 2)
    g.apply(actions.decline(sq("Surkhet")))
    g.apply(actions.DROP_OUT)
    g.apply(actions.DROP_OUT)
    assert (g.phase, g.current_player) == (Phase.PRE_ROLL, 0)
    assert actions.PAY_FINE not in g.legal_actions()
    roll(g, 4, 5)  # Jail -> Chautari: an ordinary move out
    assert g.position[0] == sq("Chautari")


# --- leaving jail ----------------------------------------------------------------------------

def test_jailed_player_choices_before_rolling():
    """In jail before rolling: roll, pay the fine, or use a bail card."""
    g = new_game()
    jail(g, 0)
    assert g.legal_actions() == [actions.ROLL, actions.PAY_FINE]
    take_bail_card(g, 0, board.BHAGYA)
    assert g.legal_actions() == [actions.ROLL, actions.PAY_FINE, actions.USE_BAIL_CARD]


def test_pay_fine_then_roll_and_move():
    """Paying the Rs 500 fine frees the player, who then rolls and moves as usual."""
    g = new_game()
    jail(g, 0, misses=2)
    g.apply(actions.PAY_FINE)
    assert g.cash[0] == 14_500
    assert g.bank_received == 500
    assert not g.in_jail[0]
    assert g.jail_misses[0] == 0
    assert g.legal_actions() == [actions.ROLL]
    assert (g.phase, g.current_player) == (Phase.PRE_ROLL, 0)
    roll(g, 4, 5)  # Jail -> Chautari
    assert g.position[0] == sq("Chautari")
    assert g.cash[0] == 14_500
    assert (g.phase, g.current_player) == (Phase.PRE_ROLL, 1)


def test_paying_the_fine_needs_the_cash():
    """The fine can be paid only with Rs 500 in hand; exactly 500 is enough."""
    g = new_game()
    jail(g, 0)
    g.cash[0] = 499
    assert g.legal_actions() == [actions.ROLL]
    assert_illegal(g, actions.PAY_FINE)
    g.cash[0] = 500
    g.apply(actions.PAY_FINE)
    assert g.cash[0] == 0
    assert not g.in_jail[0]


def test_a_double_after_paying_the_fine_gives_another_turn():
    """After the fine the roll is an ordinary one: a double plays again."""
    g = new_game()
    jail(g, 0)
    give(g, 0, "Birgunj")
    g.apply(actions.PAY_FINE)
    roll(g, 3, 3)  # Jail -> Birgunj, own place
    assert g.position[0] == sq("Birgunj")
    assert (g.phase, g.current_player) == (Phase.PRE_ROLL, 0)


@pytest.mark.parametrize(("deck", "number"), [(board.BHAGYA, 10), (board.SAMUDAYA, 12)])
def test_bail_card_frees_and_goes_under_its_deck(deck, number):
    """A used bail card frees the player and becomes the last card of its own deck."""
    g = new_game()
    jail(g, 0)
    take_bail_card(g, 0, deck)
    other = board.SAMUDAYA if deck == board.BHAGYA else board.BHAGYA
    other_before = list(g.decks[other])
    g.apply(actions.USE_BAIL_CARD)
    assert g.bail_cards[0] == []
    assert not g.in_jail[0]
    assert g.decks[deck][-1] == number
    assert sorted(g.decks[deck]) == list(range(1, 17))
    assert g.decks[other] == other_before
    assert g.cash == [15_000, 15_000]
    assert g.legal_actions() == [actions.ROLL]
    roll(g, 4, 4)  # an ordinary roll: Jail -> Janakpur, unowned
    assert g.position[0] == sq("Janakpur")
    assert (g.phase, g.current_player) == (Phase.BUY, 0)


def test_bail_card_drawn_then_kept_then_used():
    """A drawn bail card stays with the player, out of the deck, until it is used."""
    g = new_game()
    g.stack_deck(board.SAMUDAYA, 12)
    give(g, 0, "Surkhet")
    roll(g, 1, 1)  # Start -> Samudaya: bail card, then the double plays again
    assert g.bail_cards[0] == [board.SAMUDAYA]
    assert 12 not in g.decks[board.SAMUDAYA]
    assert len(g.decks[board.SAMUDAYA]) == 15
    assert (g.phase, g.current_player) == (Phase.PRE_ROLL, 0)
    put(g, 0, "Chautari")
    roll(g, 4, 5)  # -> Go to jail
    assert_jailed(g, 0)
    roll(g, 1, 2)  # seat 1 -> Surkhet, seat 0's place: rent 40
    assert g.cash == [15_040, 14_960]
    g.apply(actions.USE_BAIL_CARD)
    assert g.decks[board.SAMUDAYA][-1] == 12
    assert g.bail_cards[0] == []


def test_the_first_held_bail_card_is_used_first():
    """Engine choice: holding both bail cards, the one taken first is used first."""
    g = new_game()
    jail(g, 0)
    take_bail_card(g, 0, board.SAMUDAYA)
    take_bail_card(g, 0, board.BHAGYA)
    g.apply(actions.USE_BAIL_CARD)
    assert g.bail_cards[0] == [board.BHAGYA]
    assert g.decks[board.SAMUDAYA][-1] == 12
    assert 10 not in g.decks[board.BHAGYA]


def test_a_double_in_jail_frees_and_moves_but_no_extra_turn():
    """Rolling a double in jail frees the player, who moves by it and does not roll again."""
    g = new_game()
    jail(g, 0, misses=1)
    give(g, 0, "Lumbini")
    roll(g, 2, 2)  # Jail -> Lumbini
    assert g.position[0] == sq("Lumbini")
    assert not g.in_jail[0]
    assert g.jail_misses[0] == 0
    assert g.cash == [15_000, 15_000]
    assert (g.phase, g.current_player) == (Phase.PRE_ROLL, 1)


def test_a_double_on_the_third_try_needs_no_fine():
    """After two misses a double still frees the player free of charge."""
    g = new_game()
    jail(g, 0, misses=2)
    give(g, 0, "Dharan")
    roll(g, 6, 6)  # Jail -> Dharan
    assert g.position[0] == sq("Dharan")
    assert not g.in_jail[0]
    assert g.cash == [15_000, 15_000]
    assert (g.phase, g.current_player) == (Phase.PRE_ROLL, 1)


def test_three_misses_then_the_fine_and_the_move():
    """Each miss keeps the player in jail; the third pays the fine and moves by that roll."""
    g = new_game()
    jail(g, 0)
    put(g, 1, "Chautari")
    give(g, 1, "Dharan", "Gorkha")
    give(g, 0, "Butwal")
    roll(g, 1, 2)  # miss 1
    assert (g.position[0], g.in_jail[0], g.jail_misses[0]) == (JAIL, True, 1)
    assert (g.phase, g.current_player) == (Phase.PRE_ROLL, 1)
    roll(g, 1, 2)  # seat 1 -> Dharan
    roll(g, 1, 2)  # miss 2
    assert (g.position[0], g.in_jail[0], g.jail_misses[0]) == (JAIL, True, 2)
    assert (g.phase, g.current_player) == (Phase.PRE_ROLL, 1)
    roll(g, 1, 2)  # seat 1 -> Gorkha
    assert g.cash == [15_000, 15_000]
    roll(g, 1, 2)  # miss 3: pay Rs 500 and move Jail -> Butwal
    assert g.position[0] == sq("Butwal")
    assert not g.in_jail[0]
    assert g.jail_misses[0] == 0
    assert g.cash == [14_500, 15_000]
    assert g.bank_received == 500
    assert (g.phase, g.current_player) == (Phase.PRE_ROLL, 1)


def test_third_miss_without_the_fine_raises_cash_before_moving():
    """Short of the fine after the third miss, the player raises cash, pays, then moves."""
    g = new_game()
    jail(g, 0, misses=2)
    g.cash[0] = 200
    give(g, 0, "Jumla", "Butwal")
    roll(g, 1, 2)
    assert (g.phase, g.current_player) == (Phase.RAISE_CASH, 0)
    assert g.position[0] == JAIL
    assert g.debt_owed() == 500
    assert g.legal_actions() == [actions.mortgage(sq("Jumla")), actions.mortgage(sq("Butwal"))]
    g.apply(actions.mortgage(sq("Jumla")))  # 200 + 300 pays the fine, then the move
    assert g.cash[0] == 0
    assert g.position[0] == sq("Butwal")
    assert not g.in_jail[0]
    assert (g.phase, g.current_player) == (Phase.PRE_ROLL, 1)


def test_third_miss_with_too_little_to_raise_is_bankruptcy():
    """A player who cannot raise the fine even by selling everything goes bankrupt."""
    g = new_game(players=3)
    jail(g, 0, misses=2)
    g.cash[0] = 100
    give(g, 0, "Jumla", mortgaged=True)
    take_bail_card(g, 0, board.BHAGYA)
    roll(g, 1, 2)
    assert g.bankrupt[0]
    assert g.cash == [0, 15_000, 15_000]
    assert g.owner[sq("Jumla")] == -1
    assert not g.mortgaged[sq("Jumla")]
    assert g.decks[board.BHAGYA][-1] == 10
    assert g.position[0] == JAIL
    assert not g.in_jail[0]
    assert (g.phase, g.current_player) == (Phase.PRE_ROLL, 1)


def test_third_miss_bankruptcy_ends_a_two_player_game():
    """With two players, going bankrupt over the fine leaves the other as the winner."""
    g = new_game()
    jail(g, 0, misses=2)
    g.cash[0] = 100
    roll(g, 1, 2)
    assert g.bankrupt[0]
    assert g.phase == Phase.GAME_OVER
    assert g.winners == [1]


def test_a_player_in_jail_still_collects_rent():
    """Owners in jail are paid rent as usual."""
    g = new_game()
    jail(g, 1)
    give(g, 1, "Kathmandu")
    put(g, 0, "Bhaktapur")
    roll(g, 2, 3)  # Bhaktapur -> Kathmandu
    assert g.cash == [14_500, 15_500]
    assert g.in_jail[1]
    assert (g.phase, g.current_player) == (Phase.PRE_ROLL, 1)


def test_fine_and_bail_card_are_not_legal_outside_jail():
    """A free player cannot pay the fine or spend a bail card."""
    g = new_game()
    take_bail_card(g, 0, board.BHAGYA)
    put(g, 0, "Jail")
    assert g.legal_actions() == [actions.ROLL]
    assert_illegal(g, actions.PAY_FINE)
    assert_illegal(g, actions.USE_BAIL_CARD)
