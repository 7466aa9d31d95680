"""The panel of strategic players and the valuation they share: exact situations, exact choices."""

from __future__ import annotations

import pytest
from scenario import give, new_game, sq

from byapar_agents import PANEL_NAMES, PanelPlayer, make_agent
from byapar_env.engine import Phase, actions, board
from byapar_env.valuation import (
    LANDINGS_PER_TURN,
    MOVES_PER_TURN,
    acquisition_gain,
    denial_value,
    income_per_round,
    trade_gains,
)
from byapar_harness.arena import ArenaConfig, play_game


def decide(player, game):
    return player.choose(game, game.current_player, game.legal_actions())


# ---------------------------------------------------------------------------- valuation
def test_landing_chances_come_from_the_board() -> None:
    non_card = sum(p for s, p in enumerate(LANDINGS_PER_TURN)
                   if board.SQUARES[s].kind != board.CARD)
    card = sum(p for s, p in enumerate(LANDINGS_PER_TURN) if board.SQUARES[s].kind == board.CARD)
    # Every move ends on one square; a card that moves the player counts a second landing.
    assert non_card + card > MOVES_PER_TURN
    assert non_card < MOVES_PER_TURN
    # Pokhara is a card's target and lies a common roll past the most visited stretch.
    assert max(range(board.NUM_SQUARES), key=LANDINGS_PER_TURN.__getitem__) == sq("Pokhara")
    # Players sent to jail start again from it: a roll of 6 to 8 past jail is well above the
    # average square, and the squares just before jail are below it.
    average = MOVES_PER_TURN / board.NUM_SQUARES
    after_jail = [LANDINGS_PER_TURN[board.JAIL_SQUARE + k] for k in (6, 7, 8)]
    assert min(after_jail) > 1.05 * average
    assert LANDINGS_PER_TURN[sq("Jumla")] < average
    # The card targets (Kathmandu, Pokhara, Butwal, the airport) beat their neighbours.
    assert LANDINGS_PER_TURN[sq("Kathmandu")] > LANDINGS_PER_TURN[sq("Lalitpur")]
    assert LANDINGS_PER_TURN[sq("Pokhara")] > LANDINGS_PER_TURN[sq("Mustang")]


def test_income_counts_whole_groups_double_and_houses_by_cash() -> None:
    game = new_game(4)
    give(game, 0, "Gorkha", "Mustang")
    owner = list(game.owner)
    partial = income_per_round(game, 0, owner, cash=0)
    expected = 3 * 220 * (LANDINGS_PER_TURN[sq("Gorkha")] + LANDINGS_PER_TURN[sq("Mustang")])
    assert partial == pytest.approx(expected)
    owner[sq("Pokhara")] = 0
    bare = income_per_round(game, 0, owner, cash=0)
    three_houses = income_per_round(game, 0, owner, cash=3 * 3 * 1_400)
    assert bare == pytest.approx(3 * sum(2 * board.SQUARES[s].rents[0] * LANDINGS_PER_TURN[s]
                                         for s in board.GROUPS["Gandaki"]))
    assert three_houses == pytest.approx(3 * sum(board.SQUARES[s].rents[3] * LANDINGS_PER_TURN[s]
                                                 for s in board.GROUPS["Gandaki"]))


def test_the_completing_piece_is_worth_far_more_than_a_loose_one() -> None:
    game = new_game(4)
    give(game, 1, "Gorkha", "Mustang")
    loose = acquisition_gain(game, 0, sq("Pokhara"), board.SQUARES[sq("Pokhara")].price)
    completing = acquisition_gain(game, 1, sq("Pokhara"), board.SQUARES[sq("Pokhara")].price)
    assert completing > 10 * max(loose, 1.0)
    # Keeping it from seat 1 is worth a share of seat 1's gain to each other player.
    assert denial_value(game, 0, sq("Pokhara")) == pytest.approx(completing * 2 / 4)


def test_trade_gains_are_each_sides_change_in_position_value() -> None:
    game = new_game(2)
    give(game, 0, "Gorkha", "Mustang")
    give(game, 1, "Pokhara")
    mine, theirs = trade_gains(game, 0, 1, (), (sq("Pokhara"),), 3_000)
    assert mine > 3_000  # a whole group with houses to come
    assert theirs < 0  # 3,000 for a place listed at 2,800 does not pay for its lost rent...
    assert theirs > -3_000  # ...but the rent of one loose place is small


# ---------------------------------------------------------------------------- the players
def test_every_panel_member_is_seatable_and_plays_legal_games() -> None:
    for name in PANEL_NAMES:
        player = make_agent(name)
        assert isinstance(player, PanelPlayer) and player.name == name
    # Whole games on the engine (every choice checked by the engine) and through the
    # environment (every id checked by the mask), at two table sizes.
    for players in (("guardian", "completer", "shark", "builder"),
                    ("hoarder", "trader", "strategist")):
        result = play_game(ArenaConfig(players=players), 3)
        assert abs(sum(result.shares) - 1) < 1e-9
    mixed = play_game(ArenaConfig(players=("strategist", "hard", "trader")), 1)
    assert abs(sum(mixed.shares) - 1) < 1e-9


def test_unknown_panel_name_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown panel player 'bully'.*guardian"):
        PanelPlayer("bully")


def offer_last_piece(amount: int, cash: int = 15_000):
    """Seat 0 holds Gorkha and Mustang and ``cash``, and offers seat 1 ``amount`` for
    Pokhara."""
    game = new_game(2)
    game.cash[0] = cash
    give(game, 0, "Gorkha", "Mustang")
    give(game, 1, "Pokhara")
    game.apply(actions.offer_trade(1, [], [sq("Pokhara")], amount))
    assert game.phase == Phase.TRADE_ANSWER and game.current_player == 1
    return game


def test_guardian_sells_the_last_piece_only_when_paid_what_the_group_will_earn() -> None:
    guardian = make_agent("guardian")
    # A rich buyer builds hotels on the group: list price, or even 15,000, does not cover
    # what it will earn over the rounds ahead; 20,000 does.
    for amount in (4_000, 10_000, 15_000):
        assert decide(guardian, offer_last_piece(amount, cash=40_000)) == actions.REJECT_TRADE
    game = offer_last_piece(20_000, cash=40_000)
    theirs, mine = trade_gains(game, 0, 1, (), (sq("Pokhara"),), 20_000)
    assert mine > theirs > 0
    assert decide(guardian, game) == actions.ACCEPT_TRADE
    # A buyer left with 7,000 after paying 8,000 can build one house a city: 8,000 covers it.
    assert decide(guardian, offer_last_piece(4_000)) == actions.REJECT_TRADE
    assert decide(guardian, offer_last_piece(8_000)) == actions.ACCEPT_TRADE


def test_trader_accepts_what_raises_its_own_value_and_medium_is_cheaper_still() -> None:
    game = offer_last_piece(4_000)
    _, mine = trade_gains(game, 0, 1, (), (sq("Pokhara"),), 4_000)
    assert mine > 0
    assert decide(make_agent("trader"), game) == actions.ACCEPT_TRADE
    assert decide(make_agent("guardian"), game) == actions.REJECT_TRADE


def test_completer_pays_a_premium_for_its_missing_piece() -> None:
    game = new_game(2)
    give(game, 0, "Gorkha", "Mustang")
    give(game, 1, "Pokhara")
    choice = decide(make_agent("completer"), game)
    assert choice.kind == actions.ActionKind.OFFER_TRADE
    assert (choice.target, choice.take, choice.give) == (1, (sq("Pokhara"),), ())
    assert choice.amount > board.SQUARES[sq("Pokhara")].price * 1.1  # medium opens at 1.05x
    assert game.is_legal(choice)


def test_completer_offers_a_swap_that_completes_both_groups() -> None:
    game = new_game(2)
    give(game, 0, "Gorkha", "Mustang", "Ilam")
    give(game, 1, "Pokhara", "Dharan", "Biratnagar")
    choice = decide(make_agent("completer"), game)
    assert choice.kind == actions.ActionKind.OFFER_TRADE
    assert (choice.give, choice.take) == ((sq("Ilam"),), (sq("Pokhara"),))
    assert game.is_legal(choice)


def auction_of(name: str, players: int, holder_of_rest: int | None):
    """An auction of ``name`` at a table of ``players``; seat ``holder_of_rest`` holds the
    rest of its group. Seat 1 is to bid."""
    game = new_game(players)
    if holder_of_rest is not None:
        rest = [board.SQUARES[s].name for s in board.GROUP_OF[sq(name)] if s != sq(name)]
        give(game, holder_of_rest, *rest)
    game.position[0] = (sq(name) - 7) % 36
    game.force_dice((3, 4))
    game.apply(actions.ROLL)
    game.apply(actions.decline(sq(name)))
    assert game.phase == Phase.AUCTION and game.current_player == 1
    return game


def test_shark_bids_past_list_price_to_block_a_rival_and_medium_stops_sooner() -> None:
    price = board.SQUARES[sq("Pokhara")].price
    game = auction_of("Pokhara", 3, holder_of_rest=2)
    game.auction.high = int(price * 1.6) // 100 * 100
    assert decide(make_agent("shark"), game).kind == actions.ActionKind.BID
    assert decide(make_agent("medium"), game) == actions.DROP_OUT
    # A loose place with nothing at stake: no more than its worth to the shark.
    loose = auction_of("Jumla", 3, holder_of_rest=None)
    loose.auction.high = 1_500
    assert decide(make_agent("shark"), loose) == actions.DROP_OUT


def test_hoarder_declines_a_place_of_a_group_split_between_rivals() -> None:
    game = new_game(4)
    give(game, 1, "Gorkha")
    give(game, 2, "Mustang")
    game.position[0] = (sq("Pokhara") - 7) % 36
    game.force_dice((3, 4))
    game.apply(actions.ROLL)
    assert game.phase == Phase.BUY
    assert decide(make_agent("hoarder"), game) == actions.decline(sq("Pokhara"))
    assert decide(make_agent("medium"), game) == actions.buy(sq("Pokhara"))


def test_builder_keeps_a_smaller_reserve_than_the_hoarder() -> None:
    game = new_game(4)
    give(game, 1, "Kathmandu", "Lalitpur", buildings=3)
    builder, medium, hoarder = (make_agent(n) for n in ("builder", "medium", "hoarder"))
    assert builder.reserve(game, 0) < medium.reserve(game, 0) < hoarder.reserve(game, 0)
    assert hoarder.reserve(game, 0) == 3 * medium.reserve(game, 0)


def test_position_share_reward_is_zero_sum_shaping_by_position_value() -> None:
    """The environment's position_share reward: each step adds the change of each player's
    share of the table's position value (net worth plus expected rent), so the rewards of a step
    sum to zero until the outcome, and a seat's shaping adds up to its change of share."""
    import numpy as np

    from byapar_env.byapar_v0 import raw_env
    from byapar_env.valuation import position_value

    env = raw_env(num_players=3, reward="position_share", rounds=40)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(env.possible_agents, 0.0)

    def shares() -> list[float]:
        values = [position_value(env.game, s) for s in range(3)]
        return [v / sum(values) for v in values]

    start = shares()
    moved = False
    for _ in range(400):  # well inside a 40-round game: no outcome yet
        agent = env.agent_selection
        mask = env.observe(agent)["action_mask"]
        env.step(int(rng.choice(np.flatnonzero(mask))))
        step = [env.rewards[a] for a in env.possible_agents]
        assert abs(sum(step)) < 1e-9
        moved |= any(abs(r) > 1e-6 for r in step)
        for a in env.possible_agents:
            totals[a] += env.rewards[a]
    assert moved and not env.game.is_over and not any(env.game.bankrupt)
    end = shares()
    for s, a in enumerate(env.possible_agents):
        assert totals[a] == pytest.approx(end[s] - start[s], abs=1e-9)
