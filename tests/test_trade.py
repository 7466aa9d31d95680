"""Scenario tests: trade offers made before rolling, and their answers."""

from __future__ import annotations

import pytest
from scenario import give, new_game, put, sq

from byapar_env.engine import MAX_OFFERS_PER_TURN, IllegalActionError, Phase, actions

START_CASH = 15_000
JUMLA, SURKHET = sq("Jumla"), sq("Surkhet")
GORKHA, MUSTANG, POKHARA = sq("Gorkha"), sq("Mustang"), sq("Pokhara")
RAILWAY, HYDRO = sq("Railway"), sq("Hydropower")


def offer(target, give_=(), take=(), amount=0):
    return actions.offer_trade(target, give_, take, amount)


def setup(players=3):
    """Seat 0 holds Jumla and Railway, seat 1 holds Gorkha and Hydropower, seat 2 Mustang."""
    game = new_game(players)
    give(game, 0, "Jumla", "Railway")
    give(game, 1, "Gorkha", "Hydropower")
    if players > 2:
        give(game, 2, "Mustang")
    return game


def refused(game, action):
    """``action`` is illegal now: is_legal says so, trade_error explains, apply changes nothing."""
    before = game.to_json()
    assert not game.is_legal(action)
    assert isinstance(game.trade_error(action), str)
    with pytest.raises(IllegalActionError):
        game.apply(action)
    assert game.to_json() == before


def quiet_roll(game, seat, target="Chautari", d1=2, d2=3):
    """The turn's player rolls onto a square where nothing happens."""
    put(game, seat, sq(target) - d1 - d2)
    game.force_dice((d1, d2))
    game.apply(actions.ROLL)


# --------------------------------------------------------------------------- who and when


def test_offer_is_made_before_rolling_by_the_turns_player():
    """A legal offer in PRE_ROLL moves the decision to the other seat, in TRADE_ANSWER."""
    game = setup()
    o = offer(1, (JUMLA,), (GORKHA,))
    assert game.can_offer_trade()
    assert game.trade_error(o) is None and game.is_legal(o)
    game.apply(o)
    assert game.phase == Phase.TRADE_ANSWER
    assert game.current_player == 1
    assert game.turn == 0
    assert game.offers_made == 1
    assert game.log[-1] == "seat 0 offers seat 1: give Jumla for Gorkha"


def test_no_offer_after_rolling():
    """Once the dice are rolled (here, deciding whether to buy) no offer may be made."""
    game = setup()
    put(game, 0, POKHARA - 5)
    game.force_dice((2, 3))
    game.apply(actions.ROLL)
    assert game.phase == Phase.BUY
    assert not game.can_offer_trade()
    refused(game, offer(1, (JUMLA,), (GORKHA,)))


def test_the_answering_seat_cannot_counter_offer():
    """In TRADE_ANSWER only accept or decline are legal; a counter-offer or a roll is not."""
    game = setup()
    game.apply(offer(1, (JUMLA,), (GORKHA,)))
    assert game.legal_actions() == [actions.ACCEPT_TRADE, actions.REJECT_TRADE]
    assert not game.can_offer_trade()
    refused(game, offer(0, (GORKHA,), (JUMLA,)))
    refused(game, actions.ROLL)


def test_accept_and_decline_are_illegal_without_an_offer():
    """No pending offer: answering is not a legal action."""
    game = setup()
    refused(game, actions.ACCEPT_TRADE)
    refused(game, actions.REJECT_TRADE)


@pytest.mark.parametrize("target", [0, 3, -1])
def test_offer_must_go_to_another_seat_at_the_table(target):
    """Not to oneself and not to a seat that does not exist."""
    game = setup()
    refused(game, offer(target, (JUMLA,), ()))


def test_offer_may_not_go_to_a_bankrupt_seat():
    """A bankrupt seat is out and cannot be offered a trade."""
    game = setup()
    game.owner[MUSTANG] = -1
    game.bankrupt[2] = True
    game.cash[2] = 0
    refused(game, offer(2, (JUMLA,), (), 0))
    assert game.is_legal(offer(1, (JUMLA,), (), 0))


# --------------------------------------------------------------------------- what may be traded


def test_at_least_one_place_must_change_hands():
    """Money alone is not a trade."""
    game = setup()
    refused(game, offer(1, (), (), 500))
    refused(game, offer(1, (), (), -500))
    refused(game, offer(1, (), (), 0))
    assert game.is_legal(offer(1, (JUMLA,), (), 0))  # a gift of one place is a trade
    assert game.is_legal(offer(1, (), (GORKHA,), 500))


@pytest.mark.parametrize(("give_", "take", "why"), [
    ((GORKHA,), (), "gives a place of the other seat"),
    ((MUSTANG,), (), "gives a place of a third seat"),
    ((POKHARA,), (), "gives an unowned place"),
    ((), (JUMLA,), "takes one's own place"),
    ((), (MUSTANG,), "takes a place of a third seat"),
    ((), (POKHARA,), "takes an unowned place"),
    ((0,), (), "gives Start, not a place"),
    ((sq("Chautari"),), (GORKHA,), "gives a corner"),
    ((), (sq("Income tax"),), "takes a tax square"),
    ((JUMLA, JUMLA), (), "names a place twice"),
    ((-1,), (), "a negative square number"),
])
def test_only_ones_own_places_are_given_and_the_others_taken(give_, take, why):
    """give lists places of the offerer, take places of the seat offered to; nothing else."""
    game = setup()
    action = actions.Action(actions.ActionKind.OFFER_TRADE, -1, 0, 1, give_, take)
    refused(game, action)


def test_offer_naming_a_square_off_the_board_raises_illegal_action_error():
    """An offer naming square 99 is refused with IllegalActionError, changing nothing."""
    game = setup()
    refused(game, offer(1, (99,), (GORKHA,)))


def test_offerer_pays_a_positive_amount_only_if_held():
    """Positive money is paid by the offerer, who must hold it (all of it may be offered)."""
    game = setup()
    game.cash[0] = 3_000
    assert game.is_legal(offer(1, (), (GORKHA,), 3_000))
    refused(game, offer(1, (), (GORKHA,), 3_010))


def test_other_seat_pays_a_negative_amount_only_if_held():
    """Negative money is paid by the seat offered to, who must hold it."""
    game = setup()
    game.cash[0] = 0
    game.cash[1] = 2_000
    assert game.is_legal(offer(1, (JUMLA,), (), -2_000))
    refused(game, offer(1, (JUMLA,), (), -2_010))


def test_trade_money_is_a_multiple_of_ten():
    """Engine choice: trade money is in whole tens of rupees, as every amount on the board."""
    game = setup()
    refused(game, offer(1, (JUMLA,), (GORKHA,), 55))
    refused(game, offer(1, (JUMLA,), (GORKHA,), -5))
    assert game.is_legal(offer(1, (JUMLA,), (GORKHA,), 50))


def test_no_place_of_a_group_with_buildings_on_the_giving_side():
    """Jumla has no house, but Surkhet (same group) has one: Jumla may not be traded."""
    game = setup()
    give(game, 0, "Surkhet", buildings=1)
    refused(game, offer(1, (JUMLA,), (GORKHA,)))
    refused(game, offer(1, (SURKHET,), (GORKHA,)))
    assert game.is_legal(offer(1, (RAILWAY,), (GORKHA,)))  # other places are free to trade


def test_no_place_of_a_group_with_buildings_on_the_taking_side():
    """The other seat's built group is just as closed to trading."""
    game = setup()
    give(game, 1, "Jumla")
    give(game, 1, "Surkhet", buildings=1)
    refused(game, offer(1, (RAILWAY,), (JUMLA,)))
    refused(game, offer(1, (RAILWAY,), (SURKHET,)))
    assert game.is_legal(offer(1, (RAILWAY,), (HYDRO,)))


# --------------------------------------------------------------------------- the answer


def test_accept_moves_places_and_money_the_offerer_pays():
    """Accepted: places swap owners and the offerer pays the amount to the other seat."""
    game = setup()
    game.apply(offer(1, (JUMLA, RAILWAY), (GORKHA,), 700))
    game.apply(actions.ACCEPT_TRADE)
    assert game.owner[JUMLA] == 1 and game.owner[RAILWAY] == 1
    assert game.owner[GORKHA] == 0 and game.owner[HYDRO] == 1 and game.owner[MUSTANG] == 2
    assert game.cash == [START_CASH - 700, START_CASH + 700, START_CASH]
    assert game.bank_received == 0 and game.bank_paid == 0
    assert game.log[-1] == "seat 1 accepts the trade"


def test_accept_moves_money_from_the_other_seat_when_negative():
    """A negative amount is paid by the seat that accepts."""
    game = setup()
    game.apply(offer(1, (RAILWAY,), (), -1_200))
    game.apply(actions.ACCEPT_TRADE)
    assert game.owner[RAILWAY] == 1
    assert game.cash == [START_CASH + 1_200, START_CASH - 1_200, START_CASH]


def test_mortgaged_place_stays_mortgaged_with_its_new_owner():
    """A mortgaged place changes hands still mortgaged, with no fee."""
    game = setup()
    game.mortgaged[RAILWAY] = True
    game.mortgaged[GORKHA] = True
    game.apply(offer(1, (RAILWAY,), (GORKHA,)))
    game.apply(actions.ACCEPT_TRADE)
    assert game.owner[RAILWAY] == 1 and game.mortgaged[RAILWAY]
    assert game.owner[GORKHA] == 0 and game.mortgaged[GORKHA]
    assert game.cash == [START_CASH] * 3
    assert game.bank_received == 0


def test_decline_changes_nothing_but_the_turn_goes_on():
    """Declined: no place or money moves, and the offerer is back before rolling."""
    game = setup()
    owners = list(game.owner)
    game.apply(offer(1, (JUMLA,), (GORKHA,), 1_000))
    game.apply(actions.REJECT_TRADE)
    assert game.owner == owners
    assert game.cash == [START_CASH] * 3
    assert game.log[-1] == "seat 1 declines the trade"
    assert game.phase == Phase.PRE_ROLL and game.current_player == 0


def test_after_an_accepted_trade_the_offerer_carries_on_the_turn():
    """After the answer the offerer is in PRE_ROLL again and may roll."""
    game = setup()
    game.apply(offer(2, (), (MUSTANG,), 100))
    game.apply(actions.ACCEPT_TRADE)
    assert game.phase == Phase.PRE_ROLL and game.current_player == 0 and game.turn == 0
    assert actions.ROLL in game.legal_actions()
    quiet_roll(game, 0)
    assert game.current_player == 1


def test_trade_can_complete_a_colour_group_and_double_the_rent():
    """Taking the last place of a group makes it whole: base rent doubles on every city."""
    game = setup()
    give(game, 0, "Gorkha", "Mustang")
    give(game, 1, "Pokhara")
    assert game.rent(GORKHA) == 220
    game.apply(offer(1, (), (POKHARA,), 3_000))
    game.apply(actions.ACCEPT_TRADE)
    assert game.owns_group(0, GORKHA)
    quiet_roll(game, 0)
    assert game.current_player == 1
    put(game, 1, GORKHA - 5)
    game.force_dice((2, 3))
    game.apply(actions.ROLL)
    assert game.cash == [START_CASH - 3_000 + 440, START_CASH + 3_000 - 440, START_CASH]


# --------------------------------------------------------------------------- three offers a turn


def test_at_most_three_offers_a_turn():
    """Three offers, answered either way; the fourth is illegal until the next turn."""
    game = setup(2)
    assert MAX_OFFERS_PER_TURN == 3
    for answer in (actions.REJECT_TRADE, actions.REJECT_TRADE, actions.ACCEPT_TRADE):
        game.apply(offer(1, (), (HYDRO,), 100))
        game.apply(answer)
    assert game.offers_made == 3
    assert not game.can_offer_trade()
    refused(game, offer(1, (JUMLA,), (GORKHA,)))
    quiet_roll(game, 0)
    quiet_roll(game, 1)
    assert game.current_player == 0 and game.phase == Phase.PRE_ROLL
    assert game.can_offer_trade()
    assert game.is_legal(offer(1, (JUMLA,), (GORKHA,)))


def test_the_other_seats_turn_has_its_own_three_offers():
    """The count belongs to a turn, not to a seat: the next seat may offer at once."""
    game = setup(2)
    for _ in range(3):
        game.apply(offer(1, (JUMLA,), ()))
        game.apply(actions.REJECT_TRADE)
    quiet_roll(game, 0)
    assert game.current_player == 1
    assert game.is_legal(offer(0, (GORKHA,), ()))


def test_a_doubles_extra_turn_resets_the_count():
    """A double gives another turn, with three new offers."""
    game = setup(2)
    for _ in range(3):
        game.apply(offer(1, (JUMLA,), ()))
        game.apply(actions.REJECT_TRADE)
    assert not game.can_offer_trade()
    quiet_roll(game, 0, "Chautari", 2, 2)
    assert game.phase == Phase.PRE_ROLL and game.current_player == 0
    assert game.can_offer_trade()
    game.apply(offer(1, (JUMLA,), ()))
    assert game.phase == Phase.TRADE_ANSWER and game.current_player == 1


def test_a_jailed_player_may_offer_before_rolling():
    """Trades are part of the pre-roll options, in jail too."""
    game = setup()
    game.in_jail[0] = True
    put(game, 0, 9)
    game.apply(offer(1, (JUMLA,), (GORKHA,)))
    game.apply(actions.ACCEPT_TRADE)
    assert game.owner[GORKHA] == 0 and game.in_jail[0]
    assert game.phase == Phase.PRE_ROLL and game.current_player == 0
