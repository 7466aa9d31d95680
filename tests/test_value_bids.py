"""Auctions bid by worth (``byapar_agents.panel.value_bid``), the rule the ``strategist`` and the
``shark`` bid by, and the hard player that bids by it at six seats (``hard-valuebids``): exact
auctions, exact bids, cash and holders."""

from __future__ import annotations

import pytest
from scenario import give, new_game, put, roll, sq

from byapar_agents import make_agent
from byapar_agents.medium import cash_reserve
from byapar_agents.panel import PanelPlayer, bid_up_to, place_worth, value_bid
from byapar_env.action_table import BID_MIN_ID, DROP_OUT_ID
from byapar_env.byapar_v0 import raw_env
from byapar_env.engine import Phase, actions, board

KATHMANDU = sq("Kathmandu")  # Rs 4,000; Lalitpur is the rest of its group


def _auction(players: int, lalitpur: int | None = None):
    """Seat 0 lands on Kathmandu and declines it: the auction is open, no bid yet."""
    game = new_game(players, seed=3)
    if lalitpur is not None:
        give(game, lalitpur, "Lalitpur")
    put(game, 0, KATHMANDU - 5)
    roll(game, 2, 3)
    game.apply(actions.decline(KATHMANDU))
    assert game.phase == Phase.AUCTION and game.auction.square == KATHMANDU
    return game


def _env_at(game):
    env = raw_env(num_players=game.num_players)
    env.reset(seed=0)
    env.show_game(game)
    return env


def test_bid_up_to_raises_by_the_step_within_worth_and_a_third_of_the_reserve() -> None:
    game = _auction(4)
    seat = game.current_player
    game.cash[seat] = 6_000
    # No bid yet: the least bid. Limit: the lesser of the worth (5,000) and the cash less a
    # third of the reserve (6,000 - 1,000).
    assert bid_up_to(game, seat, 5_000, 3_000) == actions.bid(KATHMANDU, 100)
    game.apply(actions.bid(KATHMANDU, 4_900))
    seat = game.current_player
    game.cash[seat] = 6_000
    assert game.auction.high == 4_900
    assert bid_up_to(game, seat, 5_000, 3_000) == actions.bid(KATHMANDU, 5_000)
    assert bid_up_to(game, seat, 4_999, 3_000) == actions.DROP_OUT
    assert bid_up_to(game, seat, 9_000, 3_300) == actions.DROP_OUT  # 6,000 - 1,100 < 5,000


def test_the_strategist_bids_as_value_bid_says() -> None:
    for lalitpur in (None, 1, 2):
        game = _auction(4, lalitpur)
        seat = game.current_player
        choice = PanelPlayer("strategist").choose(game, seat, game.legal_actions())
        assert choice == value_bid(game, seat)
        assert choice == bid_up_to(game, seat, place_worth(game, seat, KATHMANDU, True),
                                   cash_reserve(game, seat))


def test_completing_a_group_is_worth_more_than_the_place_alone() -> None:
    alone = _auction(6)
    seat = alone.current_player
    completing = _auction(6, lalitpur=seat)
    price = board.SQUARES[KATHMANDU].price
    assert place_worth(completing, seat, KATHMANDU, True) > place_worth(alone, seat, KATHMANDU,
                                                                        True)
    assert place_worth(completing, seat, KATHMANDU, False) > price


def test_hard_valuebids_bids_by_worth_at_six_seats_through_the_environment() -> None:
    game = _auction(6)
    seat = game.current_player
    env = _env_at(game)
    player = make_agent("hard-valuebids")
    assert value_bid(game, seat) == actions.bid(KATHMANDU, 100)
    i = player.act(env, seat)
    assert i == BID_MIN_ID
    env.step(i)
    assert env.game.auction.high == 100 and env.game.auction.holder == seat
    # Short of cash (Rs 400 less a third of the Rs 1,000 reserve is under the least bid):
    # it drops out.
    game = _auction(6)
    game.cash[seat] = 400
    assert cash_reserve(game, seat) == 1_000
    env = _env_at(game)
    assert make_agent("hard").act(_env_at(game.clone()), seat) == BID_MIN_ID  # the policy bids
    i = player.act(env, seat)
    assert i == DROP_OUT_ID
    env.step(i)
    assert seat not in env.game.auction.bidders


@pytest.mark.parametrize("players", [4, 5])
def test_hard_valuebids_is_the_hard_player_at_other_tables(players: int) -> None:
    # Rs 5,000 bid for Kathmandu, and the next bidder holds Lalitpur: by worth it would raise;
    # the policy drops out, and so does hard-valuebids away from six seats.
    game = _auction(players)
    game.apply(actions.bid(KATHMANDU, 5_000))
    seat = game.current_player
    give(game, seat, "Lalitpur")
    assert value_bid(game, seat) == actions.bid(KATHMANDU, 5_100)
    assert make_agent("hard").act(_env_at(game.clone()), seat) == DROP_OUT_ID
    assert make_agent("hard-valuebids").act(_env_at(game), seat) == DROP_OUT_ID
