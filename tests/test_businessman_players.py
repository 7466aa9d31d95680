"""Businessman's players: whole seeded games at 2, 4 and 6 seats with no illegal choice, the same
seed playing the same game (on the engine and through businessman_v0 alike), no player reading
another seat's hand, medium's signature decisions in exact positions, and the arena seating
them."""

from __future__ import annotations

import copy

import pytest
from test_businessman_helpers import give, land, new, set_hand, slot, turn_of

from byapar_agents.businessman import EasyPlayer, MediumPlayer, make_agent, play_game
from byapar_env import businessman_v0
from byapar_env.businessman import Game, Phase, Rules, actions, board
from byapar_harness.arena import ArenaConfig, ArenaError, run_arena, validate

BLUE = 1


def _table(kinds: list[str], seed: int) -> list:
    return [make_agent(k, seed + s) for s, k in enumerate(kinds)]


@pytest.mark.parametrize("kinds", [
    ["medium", "easy"], ["random", "medium"],
    ["medium", "easy", "random", "medium"], ["medium", "medium", "medium", "medium"],
    ["medium", "easy", "easy", "random", "medium", "easy"],
])
def test_whole_seeded_games_with_only_legal_choices(kinds: list[str]) -> None:
    for seed in range(3):
        game = Game(Rules(num_players=len(kinds)), seed=seed)
        asked: list[int] = []

        def check(g: Game, seat: int, action: actions.Action, asked: list[int] = asked) -> None:
            assert action in g.legal_actions(), (seat, str(action))
            asked.append(seat)

        play_game(game, _table(kinds, seed), on_decision=check)
        assert game.is_over and game.winners and asked
        Game.from_json(game.to_json())  # the end position is a consistent game (money too)


def test_the_same_seed_plays_the_same_game() -> None:
    kinds = ["medium", "random", "easy", "medium"]
    logs = []
    for _ in range(2):
        game = Game(Rules(num_players=4), seed=17)
        play_game(game, _table(kinds, 17))
        logs.append(game.to_json())
    assert logs[0] == logs[1]


def test_through_the_environment_the_same_game_as_on_the_engine() -> None:
    kinds = ["medium", "random", "easy"]
    game = Game(Rules(num_players=3), seed=5)
    play_game(game, _table(kinds, 5))
    env = businessman_v0.raw_env(num_players=3, max_decisions=10**9)
    env.reset(seed=5)
    players = _table(kinds, 5)
    while env.agents:
        agent = env.agent_selection
        if env.terminations[agent] or env.truncations[agent]:
            env.step(None)
        else:
            env.step(players[env.agent_name_mapping[agent]].act(env, env.agent_name_mapping[agent]))
    assert env.game.to_json() == game.to_json()


def test_no_player_reads_another_seats_hand() -> None:
    """At every asked decision of seeded games, each player's choice is the same when the
    other seats hold other cards (a copy of the player asked in a copy of the game)."""
    compared = 0
    for kinds, seed in ((["medium", "easy", "medium", "random"], 8), (["medium", "medium"], 3)):
        game = Game(Rules(num_players=len(kinds)), seed=seed)
        players = _table(kinds, seed)
        while not game.is_over:
            legal = game.legal_actions()
            seat = game.current_player
            if len(legal) == 1:
                game.apply(legal[0])
                continue
            twin = game.clone()
            for s in range(game.num_players):
                if s != seat:
                    twin.hands[s] = sorted((k + 5) % board.NUM_EXCHANGE_KINDS
                                           for k in game.hands[s])
            probe = copy.deepcopy(players[seat])
            action = players[seat].choose(game, seat, legal)
            assert probe.choose(twin, seat, twin.legal_actions()) == action
            compared += 1
            game.apply(action)
    assert compared > 100


# ----------------------------------------------------------------------------- medium's decisions
def test_medium_buys_the_last_lot_of_a_group_for_its_worth_and_then_builds() -> None:
    game = new(4)
    give(game, 0, 6, 8)  # Bakery and Cafe; seat 1 holds Canteen, the rest of the group
    give(game, 1, 9)
    medium = MediumPlayer()
    steps = []
    while True:
        action = medium.choose(game, 0, game.legal_actions())
        steps.append(action)
        game.apply(action)
        if game.phase != Phase.TRADE_COMPOSE:
            break
    # Canteen's worth to its owner: 34,000 + 3,500 rent x 1/40 x 60 opponent turns = 39,250,
    # offered in whole thousands.
    assert steps == ([actions.start_trade(1), actions.take_lot(9)]
                     + [actions.give_cash(10_000)] * 4 + [actions.SUBMIT_TRADE])
    assert game.phase == Phase.TRADE_ANSWER and game.trade.cash == 40_000
    assert EasyPlayer().choose(game, 1, game.legal_actions()) == actions.ACCEPT_TRADE
    game.apply(actions.ACCEPT_TRADE)
    assert game.owner[9] == 0 and game.cash[0] == 210_000
    # The whole group: a branch where it adds the most rent per credit (Canteen: 10,000 more
    # for 20,000; Bakery and Cafe 9,000).
    assert medium.choose(game, 0, game.legal_actions()) == actions.build_branch(9)


def test_medium_keeps_its_reserve_before_building() -> None:
    game = new(2)
    give(game, 0, 6, 8, 9)
    game.cash[0] = 29_000  # a branch costs 20,000; the reserve is 10,000 with no rival rent
    assert MediumPlayer().choose(game, 0, game.legal_actions()) == actions.ROLL
    game.cash[0] = 30_000
    assert MediumPlayer().choose(game, 0, game.legal_actions()) == actions.build_branch(9)


def test_medium_answers_trades_by_its_own_valuation() -> None:
    # Asked to sell the lot that completes the proposer's group, for a little over its price:
    # refused. Offered the lot that completes its own group, for the same cash: accepted.
    game = new(4)
    give(game, 0, 6, 8)
    give(game, 1, 9)
    for a in (actions.start_trade(1), actions.take_lot(9), actions.give_cash(10_000),
              actions.give_cash(10_000), actions.give_cash(10_000), actions.give_cash(10_000),
              actions.SUBMIT_TRADE):
        game.apply(a)
    assert MediumPlayer().choose(game, 1, game.legal_actions()) == actions.REJECT_TRADE
    game = new(4)
    give(game, 1, 6, 8)
    give(game, 0, 9)
    for a in (actions.start_trade(1), actions.give_lot(9), actions.take_cash(10_000),
              actions.take_cash(10_000), actions.take_cash(10_000), actions.take_cash(10_000),
              actions.SUBMIT_TRADE):
        game.apply(a)
    assert MediumPlayer().choose(game, 1, game.legal_actions()) == actions.ACCEPT_TRADE


def test_medium_plays_the_card_that_takes_most_from_the_others() -> None:
    game = new(4)
    set_hand(game, 0, "S-FALL-5", "S-RISE-1")
    for s in (1, 2, 3):
        game.shares[s][BLUE] += 4  # the others hold five BLUE each, medium one
        game.supply[BLUE] -= 4
    deck = board.SURPRISE_DECK
    game.decks[deck].remove(board.PASS_CARD[deck])
    game.passes[0] = [deck]
    medium = MediumPlayer()
    assert medium.choose(game, 0, game.legal_actions()) == actions.USE_PASS
    game.apply(actions.USE_PASS)
    assert game.phase == Phase.EXCHANGE_CARD
    assert medium.choose(game, 0, game.legal_actions()) == actions.play_card(
        slot(game, 0, "S-FALL-5"), BLUE)


def test_medium_pledges_before_selling_buildings_and_redeems_before_forfeiting() -> None:
    game = new(2)
    give(game, 0, 6, 8, 9, level=1)
    give(game, 0, 16)
    game.cash[0] = 10_000
    land(game, 0, 4)  # Penalty: 30,000
    assert game.phase == Phase.RAISE_CASH
    assert MediumPlayer().choose(game, 0, game.legal_actions()) == actions.mortgage(16)
    game = new(2)
    give(game, 0, 16, mortgaged=True)
    game.laps[0] = 1  # one more lap and the pledge goes to the bank
    turn_of(game, 0)
    assert MediumPlayer().choose(game, 0, game.legal_actions()) == actions.redeem(16)


@pytest.mark.parametrize("cell", [5, 15])
def test_medium_declines_the_motorway_and_the_roulette(cell: int) -> None:
    game = new(3)
    land(game, 0, cell)
    assert game.phase == Phase.FORK
    assert MediumPlayer().choose(game, 0, game.legal_actions()) == actions.no(game.fork)


# ----------------------------------------------------------------------------- the arena
def test_the_arena_seats_businessman_players_reproducibly() -> None:
    config = ArenaConfig(players=("medium", "easy", "easy", "easy"), games=8, seed=0,
                         game="businessman", rounds=20)
    one, two = run_arena(config), run_arena(config)
    assert one["players"] == two["players"]
    assert one["config"]["game"] == "businessman" and one["run"]["games"] == 8
    for bad in (ArenaConfig(players=("medium", "guardian"), game="businessman"),
                ArenaConfig(players=("medium", "easy"), game="businessman", starting_cash=20_000),
                ArenaConfig(players=("medium", "easy"), game="monopoly")):
        with pytest.raises(ArenaError):
            validate(bad)


def test_businessman_arena_games_match_a_direct_play() -> None:
    from byapar_harness.arena import game_seed
    from byapar_harness.arena import play_game as arena_game

    config = ArenaConfig(players=("medium", "random", "easy"), games=2, game="businessman",
                         rounds=12)
    result = arena_game(config, 1)
    seed = game_seed(0, 1)
    kinds = ["random", "easy", "medium"]  # game 1 rotates the lineup by one
    game = Game(Rules(num_players=3, max_rounds=12), seed=seed)
    play_game(game, _table(kinds, seed))
    assert result.kinds == kinds
    assert result.net_worth == [game.net_worth(s) for s in range(3)]
