"""Scenario tests: the auction of a place that the lander passes on or cannot afford."""

from __future__ import annotations

import pytest
from scenario import new_game, put, sq

from byapar_env.engine import IllegalActionError, Phase, actions

START_CASH = 15_000
POKHARA = sq("Pokhara")  # price 2,800


def open_auction(players=4, turn=0, cash=None, bankrupt=(), decline=True, dice=(2, 3)):
    """Seat ``turn`` lands on Pokhara and declines (or cannot afford it): the auction opens."""
    game = new_game(players)
    if cash:
        for seat, amount in cash.items():
            game.cash[seat] = amount
    for seat in bankrupt:
        game.bankrupt[seat] = True
        game.cash[seat] = 0
    game.turn = game.current_player = turn
    put(game, turn, POKHARA - sum(dice))
    game.force_dice(dice)
    game.apply(actions.ROLL)
    if decline:
        assert game.phase == Phase.BUY and game.current_player == turn
        game.apply(actions.decline(POKHARA))
    assert game.phase == Phase.AUCTION
    return game


def test_every_player_bids_starting_after_the_lander_who_bids_last():
    """Order: the seats after the turn's player, the one who declined last of all."""
    game = open_auction(4)
    asked = []
    for _ in range(3):
        asked.append(game.current_player)
        game.apply(actions.DROP_OUT)
    asked.append(game.current_player)
    assert asked == [1, 2, 3, 0]
    assert game.phase == Phase.AUCTION
    game.apply(actions.bid(POKHARA, 100))
    assert game.owner[POKHARA] == 0
    assert game.cash == [START_CASH - 100, START_CASH, START_CASH, START_CASH]


def test_order_wraps_round_the_table_from_a_later_seat():
    """Seat 2's auction in a 4-player game asks seats 3, 0, 1 and then 2."""
    game = open_auction(4, turn=2)
    asked = []
    for _ in range(3):
        asked.append(game.current_player)
        game.apply(actions.DROP_OUT)
    asked.append(game.current_player)
    assert asked == [3, 0, 1, 2]


def test_bidding_goes_round_again_after_the_lander():
    """After the last seat bids, the first seat still in is asked again."""
    game = open_auction(3)
    game.apply(actions.bid(POKHARA, 100))  # seat 1
    game.apply(actions.bid(POKHARA, 200))  # seat 2
    game.apply(actions.bid(POKHARA, 300))  # seat 0
    assert game.current_player == 1
    game.apply(actions.bid(POKHARA, 1_000))
    assert game.current_player == 2


def test_first_bidder_legal_actions_are_drop_out_and_every_hundred_up_to_cash():
    """No bid yet: DROP_OUT and bids of 100, 200, ... up to the bidder's cash."""
    game = open_auction(3)
    expected = [actions.DROP_OUT] + [actions.bid(POKHARA, a) for a in range(100, 15_001, 100)]
    assert game.legal_actions() == expected


def test_later_legal_bids_start_a_hundred_above_the_highest_and_stop_at_cash():
    """After a bid of 1,200 a bidder holding 2,350 may bid 1,300 to 2,300 in steps of 100."""
    game = open_auction(3, cash={2: 2_350})
    game.apply(actions.bid(POKHARA, 1_200))  # seat 1
    assert game.current_player == 2
    expected = [actions.DROP_OUT] + [actions.bid(POKHARA, a) for a in range(1_300, 2_301, 100)]
    assert game.legal_actions() == expected


def test_a_bid_of_all_ones_cash_is_legal_and_wins():
    """A bid equal to the bidder's cash is allowed; the winner pays it all to the bank."""
    game = open_auction(3, cash={1: 2_300})
    game.apply(actions.bid(POKHARA, 2_300))
    game.apply(actions.DROP_OUT)  # seat 2
    game.apply(actions.DROP_OUT)  # seat 0
    assert game.owner[POKHARA] == 1
    assert game.cash == [START_CASH, 0, START_CASH]


def test_dropping_out_is_final():
    """A seat that dropped out is never asked again in that auction."""
    game = open_auction(3)
    game.apply(actions.DROP_OUT)  # seat 1
    game.apply(actions.bid(POKHARA, 100))  # seat 2
    game.apply(actions.bid(POKHARA, 200))  # seat 0
    assert game.current_player == 2
    game.apply(actions.bid(POKHARA, 300))  # seat 2
    assert game.current_player == 0
    game.apply(actions.DROP_OUT)
    assert game.owner[POKHARA] == 2
    assert game.cash == [START_CASH, START_CASH, START_CASH - 300]


def test_a_player_who_cannot_beat_the_highest_bid_drops_out_on_their_own():
    """Seat 2 holds 650 and the bid is 600: dropped automatically, seat 0 is asked next."""
    game = open_auction(3, cash={2: 650})
    game.apply(actions.bid(POKHARA, 600))  # seat 1
    assert game.log[-1] == "seat 2 cannot beat 600 and drops out"
    assert game.phase == Phase.AUCTION and game.current_player == 0
    game.apply(actions.DROP_OUT)
    assert game.owner[POKHARA] == 1
    assert game.cash == [START_CASH, START_CASH - 600, 650]


def test_a_player_who_can_just_beat_the_bid_is_asked():
    """Holding exactly highest + 100 is enough to stay in."""
    game = open_auction(3, cash={2: 700})
    game.apply(actions.bid(POKHARA, 600))
    assert game.current_player == 2
    assert game.legal_actions() == [actions.DROP_OUT, actions.bid(POKHARA, 700)]


def test_a_player_under_the_first_bid_drops_out_at_once():
    """A seat with less than Rs 100 cannot make the first bid and is passed over."""
    game = open_auction(3, cash={1: 90})
    assert game.current_player == 2
    assert "seat 1 cannot beat 0 and drops out" in game.log


def test_auto_drop_can_leave_the_highest_bidder_alone_and_close_the_auction():
    """When every other seat is dropped automatically, the highest bidder wins at once."""
    game = open_auction(3, cash={1: 1_050, 2: 500})
    game.apply(actions.bid(POKHARA, 1_000))  # seat 1; seat 2 cannot beat it
    assert "seat 2 cannot beat 1,000 and drops out" in game.log
    assert game.current_player == 0
    game.apply(actions.bid(POKHARA, 1_100))  # seat 0; seat 1 cannot beat it
    assert game.log[-2:] == ["seat 1 cannot beat 1,100 and drops out",
                             "seat 0 wins Pokhara for Rs 1,100"]
    assert game.owner[POKHARA] == 0
    assert game.cash == [START_CASH - 1_100, 1_050, 500]
    assert game.phase == Phase.PRE_ROLL and game.current_player == 1


def test_winner_pays_the_bank_when_nobody_else_is_left():
    """The sale: the highest bidder pays the bid to the bank and takes the place; turn passes."""
    game = open_auction(3)
    game.apply(actions.bid(POKHARA, 1_500))  # seat 1
    game.apply(actions.DROP_OUT)  # seat 2
    assert game.phase == Phase.AUCTION and game.current_player == 0
    game.apply(actions.DROP_OUT)  # seat 0
    assert game.owner[POKHARA] == 1
    assert game.cash == [START_CASH, START_CASH - 1_500, START_CASH]
    assert game.bank_received == 1_500
    assert game.log[-1] == "seat 1 wins Pokhara for Rs 1,500"
    assert game.auction is None
    assert game.phase == Phase.PRE_ROLL and game.current_player == 1


def test_nobody_bids_the_bank_keeps_the_place():
    """Every seat drops out without a bid: the place stays with the bank, no money moves."""
    game = open_auction(3)
    for _ in range(3):
        game.apply(actions.DROP_OUT)
    assert game.owner[POKHARA] == -1
    assert game.cash == [START_CASH] * 3
    assert game.bank_received == 0
    assert game.log[-1] == "nobody bids: Pokhara stays with the bank"
    assert game.phase == Phase.PRE_ROLL and game.current_player == 1


def test_bankrupt_players_do_not_bid():
    """A bankrupt seat is skipped in the bidding order."""
    game = open_auction(4, bankrupt=(2,))
    asked = []
    for _ in range(2):
        asked.append(game.current_player)
        game.apply(actions.DROP_OUT)
    asked.append(game.current_player)
    assert asked == [1, 3, 0]


def test_lander_who_cannot_afford_the_price_may_still_win_the_auction():
    """A lander short of the price is in the auction (last) and may win it below the price."""
    game = open_auction(3, cash={0: 1_000}, decline=False)
    assert game.current_player == 1
    game.apply(actions.DROP_OUT)
    game.apply(actions.DROP_OUT)
    assert game.current_player == 0
    game.apply(actions.bid(POKHARA, 1_000))
    assert game.owner[POKHARA] == 0
    assert game.cash == [0, START_CASH, START_CASH]


def test_auction_after_a_double_returns_to_the_lander_for_the_extra_turn():
    """The auction closes, then the lander who rolled a double plays again."""
    game = open_auction(3, dice=(2, 2))
    game.apply(actions.bid(POKHARA, 500))  # seat 1
    game.apply(actions.DROP_OUT)
    game.apply(actions.DROP_OUT)
    assert game.owner[POKHARA] == 1
    assert game.phase == Phase.PRE_ROLL and game.current_player == 0


@pytest.mark.parametrize(("action", "why"), [
    (actions.bid(POKHARA, 650), "not a multiple of 100"),
    (actions.bid(POKHARA, 550), "not a multiple of 100"),
    (actions.bid(POKHARA, 500), "equal to the highest bid"),
    (actions.bid(POKHARA, 400), "below the highest bid"),
    (actions.bid(POKHARA, 0), "zero"),
    (actions.bid(POKHARA, -100), "negative"),
    (actions.bid(POKHARA, 2_400), "above the bidder's cash"),
    (actions.bid(sq("Mustang"), 600), "the wrong square"),
    (actions.buy(POKHARA), "not a bid"),
    (actions.ROLL, "not a bid"),
])
def test_illegal_bids_raise_and_change_nothing(action, why):
    """Bids that are off the 100 grid, too low, above cash or for another square are refused."""
    game = open_auction(3, cash={2: 2_350})
    game.apply(actions.bid(POKHARA, 500))  # seat 1
    assert game.current_player == 2
    before = game.to_json()
    assert not game.is_legal(action), why
    with pytest.raises(IllegalActionError):
        game.apply(action)
    assert game.to_json() == before


def test_first_bid_below_one_hundred_is_illegal():
    """The first bid is at least Rs 100."""
    game = open_auction(3)
    before = game.to_json()
    with pytest.raises(IllegalActionError):
        game.apply(actions.bid(POKHARA, 50))
    assert game.to_json() == before
    game.apply(actions.bid(POKHARA, 100))
    assert game.current_player == 2


def test_trade_offers_are_not_legal_during_an_auction():
    """Nobody may offer a trade while bidding is under way."""
    game = open_auction(3)
    game.owner[sq("Jumla")] = 0
    offer = actions.offer_trade(2, (sq("Jumla"),), (), 0)
    assert not game.can_offer_trade()
    assert game.trade_error(offer) is not None


def test_bid_on_a_square_off_the_board_raises_illegal_action_error():
    """A bid naming square 99 is refused with IllegalActionError, changing nothing."""
    game = open_auction(3)
    before = game.to_json()
    with pytest.raises(IllegalActionError):
        game.apply(actions.bid(99, 100))
    assert game.to_json() == before
