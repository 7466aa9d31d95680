"""Scenario tests: the Bhagya and Samudaya decks, every card's effect, and where drawn cards go."""

from __future__ import annotations

import dataclasses

import pytest
from scenario import give, new_game, put, roll, sq

from byapar_env.engine import Game, IllegalActionError, Phase, Rules, actions, board

START_CASH = 15_000
BHAGYA_SQUARES = (16, 29)
SAMUDAYA_SQUARES = (2, 20)


def draw(game, deck, number, card_square, d1=3, d2=4):
    """The turn's player rolls ``d1 + d2`` onto ``card_square`` and draws card ``number``.

    Returns the deck as it was just before the draw (the stacked card on top).
    """
    p = game.turn
    assert game.phase == Phase.PRE_ROLL and game.current_player == p
    assert board.SQUARES[card_square].deck == deck
    put(game, p, (card_square - d1 - d2) % board.NUM_SQUARES)
    game.stack_deck(deck, number)
    before = list(game.decks[deck])
    assert before[0] == number
    game.force_dice((d1, d2))
    game.apply(actions.ROLL)
    return before


def assert_went_under(game, deck, before):
    """The card drawn from the top of ``before`` is now at the bottom; the rest moved up."""
    assert game.decks[deck] == before[1:] + before[:1]


def assert_turn_passed_to(game, seat):
    assert game.phase == Phase.PRE_ROLL
    assert game.turn == seat and game.current_player == seat


# --------------------------------------------------------------------------- shuffling


def test_same_seed_deals_the_same_deck_order():
    """Both decks are shuffled from the game's seed: the same seed gives the same order."""
    for seed in (0, 1, 12345):
        a = Game(Rules(num_players=3), seed=seed)
        b = Game(Rules(num_players=3), seed=seed)
        assert a.decks == b.decks


def test_decks_are_full_shuffled_permutations():
    """Each deck holds its 16 cards once each, and the seed actually shuffles them."""
    game = Game(Rules(num_players=2), seed=5)
    for deck in board.DECKS:
        assert sorted(game.decks[deck]) == list(range(1, 17))
        assert game.decks[deck] != list(range(1, 17))


def test_different_seeds_deal_different_orders():
    """Different seeds give different deck orders (checked over several seed pairs)."""
    orders = {tuple(Game(Rules(num_players=2), seed=s).decks[board.BHAGYA]) for s in range(10)}
    assert len(orders) == 10
    orders = {tuple(Game(Rules(num_players=2), seed=s).decks[board.SAMUDAYA]) for s in range(10)}
    assert len(orders) == 10


# --------------------------------------------------------------------------- Bhagya moves


@pytest.mark.parametrize("card_square", BHAGYA_SQUARES)
def test_bhagya_1_advance_to_start_collects_the_salary_once(card_square):
    """Bhagya 1: move forward to Start, collecting the salary exactly once; Start does nothing."""
    game = new_game(3)
    before = draw(game, board.BHAGYA, 1, card_square)
    assert game.position[0] == 0
    assert game.cash == [START_CASH + 2_000, START_CASH, START_CASH]
    assert game.bank_paid == 2_000
    assert_went_under(game, board.BHAGYA, before)
    assert_turn_passed_to(game, 1)


def test_bhagya_2_advance_to_kathmandu_unowned_asks_to_buy():
    """Bhagya 2 from square 16: forward to Kathmandu, no salary, and the buy decision follows."""
    game = new_game(3)
    before = draw(game, board.BHAGYA, 2, 16)
    assert game.position[0] == sq("Kathmandu")
    assert game.phase == Phase.BUY and game.current_player == 0
    assert game.legal_actions() == [actions.buy(35), actions.decline(35)]
    assert game.cash[0] == START_CASH
    assert_went_under(game, board.BHAGYA, before)
    game.apply(actions.buy(35))
    assert game.owner[35] == 0
    assert game.cash[0] == START_CASH - 4_000
    assert_turn_passed_to(game, 1)


def test_bhagya_2_advance_to_kathmandu_owned_pays_rent():
    """Bhagya 2 from square 29: six squares on to Kathmandu, no salary, rent to its owner."""
    game = new_game(3)
    give(game, 1, "Lalitpur", "Kathmandu")  # whole Capital group, no buildings: 2 x 500
    draw(game, board.BHAGYA, 2, 29)
    assert game.position[0] == 35
    assert game.cash == [START_CASH - 1_000, START_CASH + 1_000, START_CASH]
    assert_turn_passed_to(game, 1)


@pytest.mark.parametrize(("card_square", "salary"), [(16, 0), (29, 2_000)])
def test_bhagya_3_advance_to_pokhara_pays_rent_with_houses(card_square, salary):
    """Bhagya 3: forward to Pokhara (salary only when passing Start), house rent to its owner."""
    game = new_game(3)
    give(game, 1, "Gorkha", "Mustang", "Pokhara", buildings=2)
    draw(game, board.BHAGYA, 3, card_square)
    assert game.position[0] == sq("Pokhara")
    assert game.cash == [START_CASH + salary - 3_600, START_CASH + 3_600, START_CASH]
    assert_turn_passed_to(game, 1)


@pytest.mark.parametrize("card_square", BHAGYA_SQUARES)
def test_bhagya_4_advance_to_butwal_passes_start_and_may_buy(card_square):
    """Bhagya 4: Butwal lies behind both Bhagya squares, so the move passes Start and pays."""
    game = new_game(3)
    draw(game, board.BHAGYA, 4, card_square)
    assert game.position[0] == sq("Butwal")
    assert game.cash[0] == START_CASH + 2_000
    assert game.phase == Phase.BUY and game.current_player == 0
    game.apply(actions.buy(sq("Butwal")))
    assert game.cash[0] == START_CASH + 2_000 - 1_400
    assert game.owner[sq("Butwal")] == 0
    assert_turn_passed_to(game, 1)


@pytest.mark.parametrize("card_square", BHAGYA_SQUARES)
def test_bhagya_5_advance_to_airport_passes_start_and_pays_transport_rent(card_square):
    """Bhagya 5: forward to the Airport (past Start), rent by the owner's transport count."""
    game = new_game(3)
    give(game, 2, "Airport", "Railway")  # two transport squares: Rs 500
    draw(game, board.BHAGYA, 5, card_square)
    assert game.position[0] == sq("Airport")
    assert game.cash == [START_CASH + 2_000 - 500, START_CASH, START_CASH + 500]
    assert_turn_passed_to(game, 1)


@pytest.mark.parametrize("number", [6, 7])
@pytest.mark.parametrize(("card_square", "transport"), [(16, "Railway"), (29, "Cable car")])
def test_bhagya_6_7_next_transport_pays_ordinary_rent(number, card_square, transport):
    """Bhagya 6 and 7: forward to the next transport square (no salary), ordinary rent there."""
    game = new_game(3)
    give(game, 1, "Railway", "Cable car")  # two transport squares: Rs 500
    before = draw(game, board.BHAGYA, number, card_square)
    assert game.position[0] == sq(transport)
    assert game.cash == [START_CASH - 500, START_CASH + 500, START_CASH]
    assert_went_under(game, board.BHAGYA, before)
    assert_turn_passed_to(game, 1)


@pytest.mark.parametrize(("card_square", "transport"), [(16, "Railway"), (29, "Cable car")])
def test_bhagya_next_transport_unowned_asks_to_buy(card_square, transport):
    """An unowned next transport square is offered to the player like any landing."""
    game = new_game(3)
    draw(game, board.BHAGYA, 6, card_square)
    t = sq(transport)
    assert game.position[0] == t
    assert game.phase == Phase.BUY and game.legal_actions() == [actions.buy(t), actions.decline(t)]
    assert game.cash[0] == START_CASH


def test_bhagya_8_back_three_from_16_lands_on_lumbini_to_buy():
    """Bhagya 8 from 16: back to Lumbini (13), no salary; the unowned city is offered."""
    game = new_game(3)
    before = draw(game, board.BHAGYA, 8, 16)
    assert game.position[0] == sq("Lumbini")
    assert game.phase == Phase.BUY and game.current_player == 0
    assert game.cash[0] == START_CASH
    assert_went_under(game, board.BHAGYA, before)
    game.apply(actions.buy(13))
    assert game.owner[13] == 0 and game.cash[0] == START_CASH - 1_600
    assert_turn_passed_to(game, 1)


def test_bhagya_8_back_three_from_29_pays_rent_on_pokhara():
    """Bhagya 8 from 29: back to Pokhara (26) and pay its rent; moving back pays no salary."""
    game = new_game(3)
    give(game, 2, "Pokhara")
    draw(game, board.BHAGYA, 8, 29)
    assert game.position[0] == sq("Pokhara")
    assert game.cash == [START_CASH - 240, START_CASH, START_CASH + 240]
    assert game.bank_paid == 0
    assert_turn_passed_to(game, 1)


@pytest.mark.parametrize("card_square", BHAGYA_SQUARES)
def test_bhagya_9_go_to_jail(card_square):
    """Bhagya 9: straight to jail, no salary, and the turn ends."""
    game = new_game(3)
    before = draw(game, board.BHAGYA, 9, card_square)
    assert game.position[0] == board.JAIL_SQUARE
    assert game.in_jail[0] and game.jail_misses[0] == 0
    assert game.cash[0] == START_CASH and game.bank_paid == 0
    assert_went_under(game, board.BHAGYA, before)
    assert_turn_passed_to(game, 1)


def test_go_to_jail_card_after_a_double_ends_the_turn():
    """A jail card drawn after rolling a double cancels the extra roll: the next seat plays."""
    game = new_game(3)
    draw(game, board.BHAGYA, 9, 29, 3, 3)
    assert game.in_jail[0] and game.position[0] == board.JAIL_SQUARE
    assert_turn_passed_to(game, 1)


def test_bhagya_10_bail_card_is_kept_then_returned_under_the_deck_when_used():
    """Bhagya 10: the player keeps the bail card (out of the deck) until using it to leave jail."""
    game = new_game(3)
    draw(game, board.BHAGYA, 10, 16)
    assert game.bail_cards[0] == [board.BHAGYA]
    assert 10 not in game.decks[board.BHAGYA] and len(game.decks[board.BHAGYA]) == 15
    assert game.cash[0] == START_CASH
    assert_turn_passed_to(game, 1)
    roll(game, 4, 5)  # seat 1: Start to Jail, visiting
    roll(game, 4, 5)  # seat 2 likewise
    assert_turn_passed_to(game, 0)
    game.in_jail[0] = True
    put(game, 0, board.JAIL_SQUARE)
    assert actions.USE_BAIL_CARD in game.legal_actions()
    game.apply(actions.USE_BAIL_CARD)
    assert not game.in_jail[0] and game.bail_cards[0] == []
    assert game.decks[board.BHAGYA][-1] == 10 and len(game.decks[board.BHAGYA]) == 16
    assert game.cash[0] == START_CASH
    assert game.phase == Phase.PRE_ROLL and game.current_player == 0
    roll(game, 1, 2)  # out of jail: rolls and moves as usual
    assert game.position[0] == 12


@pytest.mark.parametrize(("number", "amount"), [(11, 500), (12, 1_500), (13, 1_000)])
def test_bhagya_collect_from_the_bank(number, amount):
    """Bhagya 11, 12, 13: the bank pays the player the card's amount."""
    game = new_game(3)
    before = draw(game, board.BHAGYA, number, 16)
    assert game.cash == [START_CASH + amount, START_CASH, START_CASH]
    assert game.bank_paid == amount
    assert game.position[0] == 16
    assert_went_under(game, board.BHAGYA, before)
    assert_turn_passed_to(game, 1)


def test_bhagya_14_pay_the_bank_150():
    """Bhagya 14: pay Rs 150 to the bank."""
    game = new_game(3)
    before = draw(game, board.BHAGYA, 14, 29)
    assert game.cash == [START_CASH - 150, START_CASH, START_CASH]
    assert game.bank_received == 150
    assert_went_under(game, board.BHAGYA, before)
    assert_turn_passed_to(game, 1)


def give_repairs_estate(game, seat):
    """Karnali: hotel + 4 houses; Sudurpashchim: 2, 2, 1 houses. 9 houses and 1 hotel."""
    give(game, seat, "Jumla", buildings=board.HOTEL)
    give(game, seat, "Surkhet", buildings=4)
    give(game, seat, "Mahendranagar", "Dhangadhi", buildings=2)
    give(game, seat, "Dadeldhura", buildings=1)


@pytest.mark.parametrize(("deck", "number", "card_square", "amount"), [
    (board.BHAGYA, 15, 16, 9 * 250 + 1 * 1_000),
    (board.SAMUDAYA, 13, 20, 9 * 400 + 1 * 1_150),
])
def test_repairs_charge_per_house_and_per_hotel(deck, number, card_square, amount):
    """Bhagya 15 / Samudaya 13: per house and per hotel; a hotel is not also counted as houses."""
    game = new_game(3)
    give_repairs_estate(game, 0)
    give(game, 1, "Nepalgunj", "Butwal", "Lumbini", buildings=3)  # another seat's: not counted
    before = draw(game, deck, number, card_square)
    assert game.cash == [START_CASH - amount, START_CASH, START_CASH]
    assert game.bank_received == amount
    assert_went_under(game, deck, before)
    assert_turn_passed_to(game, 1)


@pytest.mark.parametrize(("deck", "number", "card_square"), [
    (board.BHAGYA, 15, 29), (board.SAMUDAYA, 13, 20),
])
def test_repairs_with_no_buildings_cost_nothing(deck, number, card_square):
    """A repairs card for a player without buildings charges nothing (places alone are free)."""
    game = new_game(3)
    give(game, 0, "Jumla", "Surkhet", "Bus park")
    draw(game, deck, number, card_square)
    assert game.cash == [START_CASH] * 3
    assert_turn_passed_to(game, 1)


def test_bhagya_16_pay_every_other_player_500_skips_bankrupt_seats():
    """Bhagya 16: Rs 500 to each other player still in the game; a bankrupt seat gets nothing."""
    game = new_game(4)
    game.bankrupt[2] = True
    game.cash[2] = 0
    before = draw(game, board.BHAGYA, 16, 16)
    assert game.cash == [START_CASH - 1_000, START_CASH + 500, 0, START_CASH + 500]
    assert game.bank_paid == 0 and game.bank_received == 0
    assert_went_under(game, board.BHAGYA, before)
    assert_turn_passed_to(game, 1)


# --------------------------------------------------------------------------- Samudaya


def test_samudaya_1_advance_to_start_from_20():
    """Samudaya 1 from 20: forward to Start with the salary."""
    game = new_game(3)
    before = draw(game, board.SAMUDAYA, 1, 20)
    assert game.position[0] == 0
    assert game.cash[0] == START_CASH + 2_000
    assert_went_under(game, board.SAMUDAYA, before)
    assert_turn_passed_to(game, 1)


def test_samudaya_1_advance_to_start_from_2_after_passing_start():
    """Samudaya 1 from 2, reached by passing Start: the roll pays and the card's move pays again."""
    game = new_game(3)
    draw(game, board.SAMUDAYA, 1, 2)  # from Drinking water (31), 7 squares: past Start
    assert game.position[0] == 0
    assert game.cash[0] == START_CASH + 4_000
    assert game.bank_paid == 4_000


@pytest.mark.parametrize(("number", "amount"), [
    (2, 1_000), (7, 200), (8, 2_000), (9, 500), (10, 1_000), (14, 250), (15, 1_000), (16, 100),
])
def test_samudaya_collect_from_the_bank(number, amount):
    """Samudaya 2, 7, 8, 9, 10, 14, 15, 16: the bank pays the player the card's amount."""
    game = new_game(3)
    before = draw(game, board.SAMUDAYA, number, 20)
    assert game.cash == [START_CASH + amount, START_CASH, START_CASH]
    assert game.bank_paid == amount
    assert_went_under(game, board.SAMUDAYA, before)
    assert_turn_passed_to(game, 1)


def test_samudaya_3_bhailo_collects_100_from_every_other_player_still_in():
    """Samudaya 3 (Bhailo): each other player still in pays Rs 100; bankrupt seats are skipped."""
    game = new_game(4)
    game.bankrupt[2] = True
    game.cash[2] = 0
    before = draw(game, board.SAMUDAYA, 3, 20)
    assert game.cash == [START_CASH + 200, START_CASH - 100, 0, START_CASH - 100]
    assert game.bank_paid == 0 and game.bank_received == 0
    assert_went_under(game, board.SAMUDAYA, before)
    assert_turn_passed_to(game, 1)


@pytest.mark.parametrize(("number", "amount"), [(4, 1_000), (5, 500), (6, 500)])
def test_samudaya_pay_the_bank(number, amount):
    """Samudaya 4, 5, 6: pay the card's amount to the bank."""
    game = new_game(3)
    before = draw(game, board.SAMUDAYA, number, 20)
    assert game.cash == [START_CASH - amount, START_CASH, START_CASH]
    assert game.bank_received == amount
    assert_went_under(game, board.SAMUDAYA, before)
    assert_turn_passed_to(game, 1)


@pytest.mark.parametrize("card_square", SAMUDAYA_SQUARES)
def test_samudaya_11_go_to_jail_without_salary(card_square):
    """Samudaya 11: straight to jail; only the roll that passed Start (to square 2) paid salary."""
    game = new_game(3)
    before = draw(game, board.SAMUDAYA, 11, card_square)
    salary = 2_000 if card_square == 2 else 0
    assert game.position[0] == board.JAIL_SQUARE and game.in_jail[0]
    assert game.cash[0] == START_CASH + salary
    assert_went_under(game, board.SAMUDAYA, before)
    assert_turn_passed_to(game, 1)


def test_samudaya_12_bail_card_is_kept_and_returned_under_its_deck():
    """Samudaya 12: kept out of the deck; using it puts it back under the Samudaya deck."""
    game = new_game(2)
    bhagya = list(game.decks[board.BHAGYA])
    draw(game, board.SAMUDAYA, 12, 20)
    assert game.bail_cards[0] == [board.SAMUDAYA]
    assert 12 not in game.decks[board.SAMUDAYA] and len(game.decks[board.SAMUDAYA]) == 15
    assert_turn_passed_to(game, 1)
    game.in_jail[1] = True
    put(game, 1, board.JAIL_SQUARE)
    with pytest.raises(IllegalActionError):  # seat 1 holds no card
        game.apply(actions.USE_BAIL_CARD)
    roll(game, 1, 2)  # seat 1 misses
    game.in_jail[0] = True
    put(game, 0, board.JAIL_SQUARE)
    game.apply(actions.USE_BAIL_CARD)
    assert game.bail_cards[0] == [] and not game.in_jail[0]
    assert game.decks[board.SAMUDAYA][-1] == 12 and len(game.decks[board.SAMUDAYA]) == 16
    assert game.decks[board.BHAGYA] == bhagya  # the other deck is untouched


# --------------------------------------------------------------------------- deck mechanics


def test_non_bail_cards_cycle_through_the_deck_in_order():
    """Drawn cards go under at once, so sixteen draws without a bail card restore the order."""
    game = new_game(2)
    game.decks[board.SAMUDAYA].remove(12)  # a bail card out with seat 1
    game.bail_cards[1] = [board.SAMUDAYA]
    start = list(game.decks[board.SAMUDAYA])
    for i, number in enumerate(start):
        assert game.decks[board.SAMUDAYA][0] == number
        game.turn = game.current_player = 0
        game.in_jail[0] = False
        game.phase = Phase.PRE_ROLL
        put(game, 0, 13)
        game.force_dice((3, 4))
        game.apply(actions.ROLL)
        if game.phase != Phase.PRE_ROLL:  # a card that asks for nothing here: none should
            pytest.fail(f"card {number} left the game in {game.phase.name}")
        assert game.decks[board.SAMUDAYA] == start[i + 1:] + start[:i + 1]
    assert game.decks[board.SAMUDAYA] == start


def test_card_after_a_double_keeps_the_extra_roll():
    """A card that neither jails nor bankrupts leaves the double's extra roll in place."""
    game = new_game(3)
    draw(game, board.BHAGYA, 11, 16, 3, 3)
    assert game.cash[0] == START_CASH + 500
    assert_turn_passed_to(game, 0)


def test_advance_card_onto_unaffordable_place_goes_to_auction():
    """A card move onto an unowned place the player cannot afford opens the auction at once."""
    game = new_game(3)
    game.cash[0] = 3_000
    draw(game, board.BHAGYA, 2, 16)
    assert game.position[0] == 35
    assert game.phase == Phase.AUCTION
    assert game.current_player == 1  # bidding starts with the seat after the turn's player


@pytest.mark.parametrize(("card", "start_total", "utilities", "rent"), [
    # Bhagya 8 made "back five": from 16 to Hydropower (11).
    (dataclasses.replace(board.BHAGYA_CARDS[7], amount=5), (9, 3, 4), ("Hydropower",), 40 * 7),
    # Bhagya 2 made "advance to Drinking water": from 29 to 31.
    (dataclasses.replace(board.BHAGYA_CARDS[1], target=31), (25, 2, 2),
     ("Hydropower", "Drinking water"), 100 * 4),
])
def test_utility_rent_after_a_card_move_uses_the_roll_to_the_card_square(
    monkeypatch, card, start_total, utilities, rent
):
    """Utility rent after a card move: the dice total is the roll that reached the card square.

    No card on this board moves a player onto a utility, so a variant deck is patched in.
    """
    deck = list(board.BHAGYA_CARDS)
    deck[card.number - 1] = card
    monkeypatch.setitem(board.CARDS, board.BHAGYA, tuple(deck))
    game = new_game(3)
    give(game, 1, *utilities)
    start, d1, d2 = start_total
    put(game, 0, start)
    game.stack_deck(board.BHAGYA, card.number)
    game.force_dice((d1, d2))
    game.apply(actions.ROLL)
    assert board.SQUARES[game.position[0]].kind == board.UTILITY
    assert game.cash == [START_CASH - rent, START_CASH + rent, START_CASH]
    # A double (2, 2) keeps the extra roll; a plain roll passes the turn.
    assert game.current_player == (0 if d1 == d2 else 1)
