"""``bench.byapar_phase_swap``: a phase handed to medium is medium's choice, the rest the
player's, and the script runs and refuses an unknown phase by name."""

from __future__ import annotations

import pytest

from bench.byapar_phase_swap import PhaseSwap, main
from byapar_agents import make_agent
from byapar_env.byapar_v0 import raw_env
from byapar_env.engine import Phase


class Fixed:
    """A player that always answers ``action``."""

    def __init__(self, action: int) -> None:
        self.action = action

    def act(self, env: raw_env, seat: int) -> int:
        return self.action


def test_the_swapped_phase_is_mediums_and_the_rest_the_players() -> None:
    env = raw_env(num_players=2)
    env.reset(seed=3)
    assert env.game.phase == Phase.BUY  # the first decision: the roll alone is taken unasked
    seat = env.game.current_player
    medium = make_agent("medium").act(env, seat)
    assert PhaseSwap(Fixed(-7), frozenset({Phase.BUY})).act(env, seat) == medium
    assert PhaseSwap(Fixed(-7), frozenset({Phase.AUCTION})).act(env, seat) == -7

    # Another donor: at seed 9's first purchase the hoarder and medium choose differently.
    env.reset(seed=9)
    assert env.game.phase == Phase.BUY
    seat = env.game.current_player
    hoarder = make_agent("hoarder").act(env, seat)
    assert hoarder != make_agent("medium").act(env, seat)
    assert PhaseSwap(Fixed(-7), frozenset({Phase.BUY}), "hoarder").act(env, seat) == hoarder


def test_the_script_runs_and_names_a_bad_phase(capsys) -> None:
    assert main(["--games", "2", "--opponents", "easy", "--swap", "none,BUY+AUCTION"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "hard, 4 seats, 2 games an opponent, seed 5"
    assert out[1].startswith("none ") and out[2].startswith("BUY+AUCTION ")
    with pytest.raises(SystemExit):
        main(["--swap", "JAIL"])
    assert "unknown phase 'JAIL'" in capsys.readouterr().err
    assert main(["--games", "2", "--opponents", "easy", "--swap", "AUCTION", "--seats", "6",
                 "--donor", "strategist"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "hard, 6 seats, 2 games an opponent, seed 5, phases to strategist"
    with pytest.raises(SystemExit):
        main(["--donor", "grandmaster"])
    assert "unknown player 'grandmaster'" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--seats", "7"])
    assert "--seats: invalid choice: 7" in capsys.readouterr().err
