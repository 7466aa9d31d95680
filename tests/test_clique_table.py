"""``bench.clique_table``: a clique rival refuses the outsider's offer and answers anyone else's
as itself, and the script runs, measures the open table alike and names bad settings."""

from __future__ import annotations

import pytest

from bench.clique_table import Clique, lineup, main, win_share
from byapar_env.action_table import ACCEPT_ID, REJECT_ID
from byapar_env.byapar_v0 import raw_env
from byapar_env.engine import Phase, actions

JUMLA, SURKHET = 1, 3


class Always:
    """A player that always answers ``action``."""

    def __init__(self, action: int) -> None:
        self.action = action

    def act(self, env: raw_env, seat: int) -> int:
        return self.action


def _offer_pending(offerer: int) -> raw_env:
    """A three-seat table where seat ``offerer`` has offered seat 2 Rs 1,000 for Surkhet."""
    env = raw_env(num_players=3)
    env.reset(seed=0)
    game = env.game
    game.owner[SURKHET] = 2
    game.phase, game.turn, game.current_player = Phase.PRE_ROLL, offerer, offerer
    game.apply(actions.offer_trade(2, give=(), take=(SURKHET,), amount=1_000))
    assert game.phase == Phase.TRADE_ANSWER and game.offer[0] == offerer
    return env


def test_a_clique_rival_refuses_the_outsider_and_answers_others_as_itself() -> None:
    env = _offer_pending(offerer=0)
    assert Clique(Always(ACCEPT_ID), outsider=0).act(env, 2) == REJECT_ID
    assert Clique(Always(ACCEPT_ID), outsider=1).act(env, 2) == ACCEPT_ID
    env = _offer_pending(offerer=1)
    assert Clique(Always(ACCEPT_ID), outsider=0).act(env, 2) == ACCEPT_ID


def test_the_lineup_repeats_the_rivals_in_turn() -> None:
    assert lineup("hard", ["pop-3", "pop-4"], 6) == ("hard", "pop-3", "pop-4", "pop-3", "pop-4",
                                                     "pop-3")


def test_same_seed_same_share_and_the_script(capsys) -> None:
    first = win_share("hard", ["medium"], 3, 2, seed=5)
    assert first == win_share("hard", ["medium"], 3, 2, seed=5)
    assert main(["--player", "hard,easy", "--opponents", "medium", "--seats", "3",
                 "--games", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("3 seats, rivals medium, medium (a clique): 2 games a player, seed 31, "
                      "seats rotated")
    assert out[1].startswith("hard ") and out[2].startswith("easy ")
    assert main(["--opponents", "medium", "--seats", "3", "--games", "1", "--open"]) == 0
    assert "(open table)" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["--player", "medium", "--opponents", "medium"])
    assert "both name 'medium'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--opponents", "nobody"])
    assert "unknown player 'nobody'" in capsys.readouterr().err
