"""Swap offers (``agents.swaps``): the places that complete a group, the offers listed, the one
made by the value judgement, once a turn and never repeated in the same position, composed
through the environment by the hard player that offers them."""

from __future__ import annotations

from byapar_agents import make_agent
from byapar_agents.swaps import (
    BUY_AMOUNTS,
    SWAP_AMOUNTS,
    SwapMemory,
    SwappingPlayer,
    best_swap,
    completing_places,
    listed_swaps,
)
from scenario import give, new_game, sq
from stubs import cash_value

from byapar_env.action_table import fixed_action_id
from byapar_env.byapar_v0 import raw_env
from byapar_env.engine import Phase
from byapar_env.engine import actions as A

SURKHET, DADELDHURA = sq("Surkhet"), sq("Dadeldhura")


def _position(game, a: int = 0, b: int = 1) -> None:
    """Seat ``a`` holds Jumla and Dadeldhura, seat ``b`` Surkhet, Mahendranagar and Dhangadhi:
    each holds the piece that completes a group of the other's (Jumla and Surkhet; Mahendranagar,
    Dhangadhi and Dadeldhura)."""
    give(game, a, "Jumla", "Dadeldhura")
    give(game, b, "Surkhet", "Mahendranagar", "Dhangadhi")


def test_the_places_that_complete_a_group_and_the_offers_listed() -> None:
    game = new_game(3, seed=4)
    _position(game)
    give(game, 2, "Butwal")
    assert completing_places(game, 0, 1) == [SURKHET]
    # Jumla completes Karnali for seat 1 as Surkhet does for seat 0; it is not offered for
    # Surkhet (a piece of the group it would complete)
    assert completing_places(game, 1, 0) == [sq("Jumla"), DADELDHURA]
    assert completing_places(game, 0, 2) == []  # Butwal completes nothing of seat 0's
    offers = listed_swaps(game, 0, 1)
    assert offers == ([A.offer_trade(1, (), (SURKHET,), m) for m in BUY_AMOUNTS]
                      + [A.offer_trade(1, (DADELDHURA,), (SURKHET,), m) for m in SWAP_AMOUNTS])
    assert listed_swaps(game, 0, 2) == []
    game.cash[0] = 900  # seat 0 offers no more money than it holds
    assert {o.amount for o in listed_swaps(game, 0, 1)} == {-1000, -500, 0, 500}


def test_the_offer_made_is_the_best_for_the_seat_that_the_target_may_take() -> None:
    game = new_game(3, seed=4)
    _position(game)
    # A judgement by cash alone: seat 0 gains most by being paid the most, and the target's
    # loss is the same size, within the share it may lose.
    offer, gain, theirs = best_swap(game, cash_value(5.0))
    assert offer == A.offer_trade(1, (DADELDHURA,), (SURKHET,), -1000)
    assert gain > 0 > theirs
    skip = {(1, (DADELDHURA,), (SURKHET,))}
    assert best_swap(game, cash_value(5.0), skip) is None  # buying only costs seat 0 cash
    game.phase = Phase.BUY
    assert best_swap(game, cash_value(5.0)) is None  # only before rolling


def test_a_seat_offers_once_a_turn_and_not_again_with_the_owners_as_they_were() -> None:
    game = new_game(3, seed=4)
    _position(game)
    memory, value = SwapMemory(), cash_value(5.0)
    first = memory.offer(game, value)
    assert first == A.offer_trade(1, (DADELDHURA,), (SURKHET,), -1000)
    assert memory.offer(game, value) is None  # once a turn
    game.turn_count += 3  # a later turn of the same seat, nothing changed hands
    assert memory.offer(game, value) is None  # the same places, owners as they were: not again
    give(game, 2, "Butwal")  # the owners changed: it may be offered again
    assert memory.offer(game, value) == first
    memory.reset()
    assert memory.made == set() and memory.last_turn == -1


def test_the_hard_player_composes_its_swap_through_the_environment() -> None:
    env = raw_env(num_players=3)
    env.reset(seed=4)
    game = env.game
    player = make_agent("hard-swaps")
    while not (game.phase == Phase.PRE_ROLL and env.draft is None):  # to a turn's start
        env.step(player.act(env, game.current_player))
    me = game.current_player
    target = (me + 1) % 3
    _position(game, me, target)
    env.game_changed()
    assert isinstance(player, SwappingPlayer)
    player.reset(0)
    player.value = cash_value(5.0)
    while game.phase != Phase.TRADE_ANSWER:
        assert game.current_player == me and game.phase == Phase.PRE_ROLL
        env.step(player.act(env, me))
    assert game.offer == (me, A.offer_trade(target, (DADELDHURA,), (SURKHET,), -1000))
    env.step(fixed_action_id(A.REJECT_TRADE))
    assert game.phase == Phase.PRE_ROLL and game.owner[SURKHET] == target
    assert game.offers_made == 1
    # Refused: this turn the policy plays on, and no swap is composed again.
    env.step(player.act(env, me))
    assert player.memory.offer(game, player.value) is None
