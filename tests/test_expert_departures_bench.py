"""``bench.expert_departures``: a searched decision is counted by phase and the hard player's
move, a departure by the move chosen instead and its source; the script runs on the arena's
games and refuses a player that is not an expert."""

from __future__ import annotations

import pytest

from bench.expert_departures import Departures, main
from byapar_agents.expert import Candidate, Evaluation
from byapar_env.engine import Phase, actions

MUSTANG = 25


def _decision(choice: int) -> Evaluation:
    """Buy or decline Mustang: the hard player declines, the search's runner-up buys."""
    candidates = [Candidate(actions.decline(MUSTANG), 0.6, "policy"),
                  Candidate(actions.buy(MUSTANG), 0.4, "prior")]
    return Evaluation(seat=0, candidates=candidates, choice=choice, sims=48, seconds=0.1)


def test_searched_decisions_and_departures_are_counted_by_kind_and_source() -> None:
    d = Departures()
    d.record(Phase.BUY, _decision(0))
    d.record(Phase.BUY, _decision(1))
    d.record(Phase.BUY, _decision(1))
    d.record(Phase.PRE_ROLL, Evaluation(0, [Candidate(actions.ROLL, 1.0, "policy")], 0, 0, 0.0))
    d.record(Phase.PRE_ROLL, None)  # a forced move: nothing searched
    assert d.searched == {("BUY", "DECLINE"): 3}
    assert d.departed == {("BUY", "DECLINE", "BUY", "prior"): 2}
    other = Departures(games=2, wins=1.5)
    other.record(Phase.BUY, _decision(1))
    d.merge(other)
    assert d.searched[("BUY", "DECLINE")] == 4
    assert d.departed[("BUY", "DECLINE", "BUY", "prior")] == 3
    assert (d.games, d.wins) == (2, 1.5)


def test_the_script_reports_a_silent_search_without_departures(capsys) -> None:
    # expert@8 plays too few paired simulations to leave the hard player's choice
    assert main(["--player", "expert@8", "--opponents", "random", "--games", "1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "expert@8 + random: seed 0, seats rotated"
    assert out[1].startswith("1 games, the expert's share of the wins ")
    searched = out[3:out.index("departures (phase, the hard player's move -> the move chosen, "
                                    "from)")]
    assert searched and all(line.split()[-1] == "0" for line in searched)
    assert out[-1].startswith("departures")


def test_the_script_refuses_a_player_that_is_not_an_expert(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["--player", "medium", "--games", "1"])
    assert "--player must name an expert (expert, expert@SIMS, ...), got 'medium'" in (
        capsys.readouterr().err)
    with pytest.raises(SystemExit):
        main(["--opponents", "easy,easy,easy,easy,easy,easy"])
    assert "--opponents must name 1 to 5 players, got 6" in capsys.readouterr().err
