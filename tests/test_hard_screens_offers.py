"""The hard player makes no offer of its policy's that its value network says would cost it if
accepted (``LearnedPlayer(screen_offers=True)``): a seeded four-seat game where the bare
release sells Pokhara to a medium player for Rs 2,500, a loss of about six points by its own
judgement, and the same game where the hard player cancels that offer instead."""

from __future__ import annotations

import pytest

from byapar_agents import deals, make_agent, play_through_env
from byapar_agents.hard import DEFAULT_CHECKPOINT, LearnedPlayer
from byapar_env.action_table import CANCEL_ID, SUBMIT_ID
from byapar_env.byapar_v0 import raw_env
from byapar_env.engine import Game, Phase, Rules, actions

POKHARA = 26
SALE = "seat 0 offers seat 1: give Pokhara for nothing; ask Rs 2,500"


def _play(screen_offers: bool) -> tuple[raw_env, list[tuple[int, int, int]], list[float]]:
    """Seed 1, twelve rounds, the hard player in seat 0 and three medium players: the game,
    every decision as (turn, seat, action id), and the network's gain for seat 0 of each offer
    it submitted."""
    env = raw_env(num_players=4, rounds=12)
    env.reset(seed=1)
    hard = LearnedPlayer(DEFAULT_CHECKPOINT, screen_offers=screen_offers)
    players = [hard] + [make_agent("medium") for _ in range(3)]
    decisions: list[tuple[int, int, int]] = []
    gains: list[float] = []

    def seen(env: raw_env, seat: int, i: int) -> None:
        decisions.append((env.game.turn_count, seat, i))
        if seat == 0 and i == SUBMIT_ID and env.draft is not None:
            offer = env.draft.offer()
            gains.append(deals.appraise(env.game, [offer], hard.value)[0].offerer_gain)

    play_through_env(env, players, on_decision=seen)
    return env, decisions, gains


def test_the_release_sells_pokhara_at_a_loss_and_hard_cancels_the_offer() -> None:
    bare, bare_moves, bare_gains = _play(screen_offers=False)
    log = bare.game.log
    k = log.index(SALE)
    assert log[k + 1] == "seat 1 accepts the trade"

    screened, moves, gains = _play(screen_offers=True)
    assert SALE not in screened.game.log
    # The same game up to the sale's submission, which is cancelled instead.
    at = next(n for n, (turn, seat, i) in enumerate(bare_moves)
              if turn == 25 and seat == 0 and i == SUBMIT_ID)
    assert moves[:at] == bare_moves[:at]
    assert moves[at] == (25, 0, CANCEL_ID)
    # The sale was the only offer of the release's that cost it, by about six points; none of
    # the screened player's offers costs it.
    assert sorted(bare_gains)[0] == pytest.approx(-0.065, abs=0.005)
    assert sorted(bare_gains)[1] >= 0
    assert min(gains) >= 0


def test_own_offer_loses_reads_the_offerers_gain() -> None:
    game = Game(Rules(num_players=2), seed=0)
    value = make_agent("hard").value
    game.owner[POKHARA] = 0
    assert game.phase == Phase.PRE_ROLL and game.current_player == 0
    # Giving a place away for nothing costs the seat; selling it for far more than it is
    # worth does not.
    assert deals.own_offer_loses(game, actions.offer_trade(1, (POKHARA,), (), 0), value)
    assert not deals.own_offer_loses(game, actions.offer_trade(1, (POKHARA,), (), -10_000),
                                     value)


def test_the_release_before_keeps_the_bare_policys_offers() -> None:
    assert make_agent("hard").screen_offers
    assert not make_agent("hard-unscreened").screen_offers
    assert not make_agent("hard-guarded").screen_offers
