"""Businessman's hard player (``byapar_agents/businessman/hard.py``): the shipped policy, except
that the Exchange card, a gifted share's colour and the answer to a proposal are worked out by
sums. Exact positions: where the bare policy plays the wrong card, hard plays the one that
takes the most from the others, skips a card that harms nobody, picks the dearest colour,
accepts a rich offer the policy refuses and refuses a cheap one, answers the same through
``businessman_v0``, and follows the policy everywhere else."""

from __future__ import annotations

import pytest
from test_businessman_helpers import (
    BLUE,
    GREEN,
    RED,
    YELLOW,
    deuce_at_the_exchange,
    give,
    land,
    new,
    put,
    roll,
    set_hand,
)

from byapar_agents.businessman import (
    HardBusinessmanPlayer,
    LearnedBusinessmanPlayer,
    MediumPlayer,
    make_agent,
    play_game,
)
from byapar_checkpoints import shipped
from byapar_env.businessman import ACTION_ID, Game, Phase, Rules, actions
from byapar_env.businessman_v0 import raw_env

START = 250_000


def _policy() -> LearnedBusinessmanPlayer:
    return LearnedBusinessmanPlayer(shipped("businessman_hard"))


def test_make_agent_hard_is_the_policy_with_sums() -> None:
    hard = make_agent("hard")
    assert isinstance(hard, HardBusinessmanPlayer) and hard.name == "hard"
    assert hard.folder == _policy().folder


def test_hard_halves_the_colour_the_others_hold_where_the_policy_does_not() -> None:
    game = deuce_at_the_exchange()
    legal = game.legal_actions()
    assert _policy().choose(game, 0, legal) == actions.play_card(0, RED, True)
    choice = make_agent("hard").choose(game, 0, legal)
    assert choice == actions.play_card(0, YELLOW, True)
    game.apply(choice)
    # YELLOW falls from 10 to 5 a share: each other seat's six lose 30,000 of worth, and seat 0
    # is paid the fall of its own one share (5,000) while the others' cash stays.
    assert game.prices == [10, 10, 10, 5]
    assert game.cash == [START + 5_000, START, START, START]
    assert game.phase == Phase.EXCHANGE_TRADE


def test_hard_keeps_a_card_that_harms_nobody() -> None:
    game = new(4)
    set_hand(game, 0, "L-DOUBLE")
    for s in (1, 2, 3):  # the others hold no shares: no card takes anything from them
        for c in (RED, BLUE, GREEN, YELLOW):
            game.supply[c] += game.shares[s][c]
            game.shares[s][c] = 0
    land(game, 0, 10)
    legal = game.legal_actions()
    assert _policy().choose(game, 0, legal).kind != actions.SKIP_CARD.kind
    assert make_agent("hard").choose(game, 0, legal) == actions.SKIP_CARD


def test_hard_picks_the_dearest_colour_for_a_gift() -> None:
    game = new()
    game.prices = [7, 12, 18, 9]
    put(game, 0, 26)
    roll(game, 1, 1)
    roll(game, 2, 3, seat=0)  # to cell 33: three shares to pick
    assert game.phase == Phase.PICK_COLOUR and game.picks_left == 3
    hard = make_agent("hard")
    for _ in range(3):
        game.apply(hard.choose(game, 0, game.legal_actions()))
    assert game.shares[0] == [1, 1, 4, 1]


BAKERY, CAFE, CANTEEN = 6, 8, 9  # one colour group


def _offer_for_canteen(players: int, thousands: int) -> Game:
    """Seat 0 (Bakery and Cafe) proposes to seat 1 ``thousands`` thousand credits for the
    Canteen, which completes seat 0's group; seat 1 must answer."""
    game = new(players)
    give(game, 0, BAKERY, CAFE)
    give(game, 1, CANTEEN)
    for step in ([actions.start_trade(1), actions.take_lot(CANTEEN)]
                 + [actions.give_cash(10_000)] * (thousands // 10) + [actions.SUBMIT_TRADE]):
        game.apply(step)
    assert game.phase == Phase.TRADE_ANSWER and game.trade.cash == thousands * 1_000
    return game


@pytest.mark.parametrize("players", [2, 4])
def test_hard_accepts_a_rich_offer_that_the_policy_refuses(players: int) -> None:
    # 80,000 for a lot printed at 34,000: more than the Canteen's rent over the turns left
    # and than half (heads-up: all) of what the whole group brings seat 0.
    game = _offer_for_canteen(players, 80)
    legal = game.legal_actions()
    assert _policy().choose(game, 1, legal) == actions.REJECT_TRADE
    answer = make_agent("hard").choose(game, 1, legal)
    assert answer == actions.ACCEPT_TRADE
    game.apply(answer)
    assert game.owner[CANTEEN] == 0
    assert game.cash[:2] == [START - 80_000, START + 80_000]


@pytest.mark.parametrize("players", [2, 4])
def test_hard_refuses_to_complete_a_group_cheaply(players: int) -> None:
    game = _offer_for_canteen(players, 10)
    answer = make_agent("hard").choose(game, 1, game.legal_actions())
    assert answer == actions.REJECT_TRADE
    game.apply(answer)
    assert game.owner[CANTEEN] == 1 and game.cash[:2] == [START, START]


def test_hard_answers_the_same_through_the_environment() -> None:
    env = raw_env(num_players=4)
    env.reset(seed=0)
    env.game = deuce_at_the_exchange()
    env.caps.start(env.game)
    env.game_changed()
    seat = env.game.current_player
    assert make_agent("hard").act(env, seat) == ACTION_ID[actions.play_card(0, YELLOW, True)]


def test_hard_follows_the_policy_outside_the_exchange_card() -> None:
    """A whole seeded game of hard against medium: every decision outside the two calculated
    phases is the bare policy's choice in the same position."""
    policy, hard = _policy(), make_agent("hard")
    checked = {"policy": 0, "sums": 0}

    def check(game: Game, seat: int, action) -> None:
        if seat != 0:
            return
        legal = game.legal_actions()
        if game.phase in (Phase.EXCHANGE_CARD, Phase.PICK_COLOUR, Phase.TRADE_ANSWER):
            assert action == MediumPlayer().choose(game, seat, legal)
            checked["sums"] += 1
        else:
            assert action == policy.choose(game, seat, legal)
            checked["policy"] += 1

    play_game(Game(Rules(num_players=2, max_rounds=20), seed=3), [hard, MediumPlayer()],
              on_decision=check)
    assert checked["policy"] > 20 and checked["sums"] > 0


def test_the_phase_swap_bench_hands_only_its_phases_to_medium(capsys) -> None:
    from bench.businessman_phase_swap import PhaseSwap, main

    game = deuce_at_the_exchange()
    legal = game.legal_actions()
    swapped = PhaseSwap(_policy(), frozenset({Phase.EXCHANGE_CARD}))
    assert swapped.name == "EXCHANGE_CARD"
    assert swapped.choose(game, 0, legal) == actions.play_card(0, YELLOW, True)
    assert PhaseSwap(_policy(), frozenset({Phase.PICK_COLOUR})).choose(game, 0, legal) == \
        actions.play_card(0, RED, True)
    assert main(["--player", "hard", "--games", "2", "--swap", "none,BUY+FORK"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith("none ") and out[2].startswith("BUY+FORK ")
    assert "heads-up" in out[1] and "+ 3 medium" in out[1] and "easy" not in out[1]
    assert main(["--games", "2", "--swap", "TRADE_ANSWER", "--tables", "mixed"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1].startswith("TRADE_ANSWER ") and "+ medium, easy, random" in out[1]
    assert "heads-up" not in out[1]
    with pytest.raises(SystemExit):
        main(["--tables", "2,6"])
    assert "unknown table '6': expected some of 2, 4, mixed" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--swap", "DICE"])
    assert "unknown phase 'DICE'" in capsys.readouterr().err


def test_the_answers_bench_counts_proposals_by_proposer(capsys) -> None:
    """Eight seeded games of the first table a user runs: the random player's proposals are
    the ones hard accepts and the bare network refuses (docs/businessman_env.md)."""
    from bench.businessman_answers import count_answers, main

    counts = count_answers("hard", ("medium", "easy", "random"),
                           str(shipped("businessman_hard")), 8, 5)
    assert counts["random"] == {"proposed": 51, "accepted": 10, "network": 0}
    assert counts["medium"] == {"proposed": 6, "accepted": 0, "network": 0}
    assert counts["easy"]["proposed"] == 0  # easy never proposes
    with pytest.raises(SystemExit):
        main(["--rivals", "medium,hard"])
    assert "--rivals must be distinct kinds other than 'hard'" in capsys.readouterr().err
