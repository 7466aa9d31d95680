"""``byapar evaluate AGENT`` (``byapar_harness.evaluate``): a name, a checkpoint folder or
``module:callable`` against the shipped players of either game, the gauntlet's figures."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest
from byapar_agents import UnknownAgentError, make_agent

from byapar_harness.evaluate import EvaluateConfig, run_evaluation
from byapar_harness.gauntlet import GROUP_NAMES, GauntletConfig, run_gauntlet

AGENT = '''
import numpy as np

def act(observation, mask):
    """The legal action of the highest id: a player nobody trained."""
    return int(np.flatnonzero(mask)[-1])
'''


@pytest.fixture()
def agent_module(tmp_path, monkeypatch):
    (tmp_path / "my_agent.py").write_text(AGENT)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _figures(result: dict) -> dict:
    return {k: {f: v for f, v in c.items() if f != "seconds"} for k, c in result["cells"].items()}


def test_evaluate_gives_the_gauntlets_figures_for_hard() -> None:
    config = EvaluateConfig(agent="hard", games=3, sizes=(2,), population=1)
    evaluated = run_evaluation(config)
    gauntlet = run_gauntlet(GauntletConfig(player="hard", groups=GROUP_NAMES, population=1,
                                           games=3, sizes=(2,)))
    assert _figures(evaluated) == _figures(gauntlet)
    assert {"random@2", "medium@2", "outside-monopyly-huw@2", "pop-1000000@2"} <= set(
        evaluated["cells"])
    assert evaluated["worst"] == gauntlet["worst"]


@pytest.mark.parametrize("game, opponents", [
    ("businessman", {"random@2", "easy@2", "medium@2", "hard@2"}),
])
def test_a_callable_agent_is_evaluated_in_either_game(agent_module, game, opponents) -> None:
    result = run_evaluation(EvaluateConfig(agent="my_agent:act", game=game, games=2,
                                           sizes=(2,)))
    assert set(result["cells"]) == opponents
    assert all(c["games"] == 2 and 0 <= c["win_rate"] <= 1 for c in result["cells"].values())


def test_a_callable_plays_byapar_as_a_policy(agent_module) -> None:
    player = make_agent("my_agent:act")
    assert player.name == "my_agent:act"
    mask = np.array([1, 0, 1, 0], np.int8)
    assert player.policy(np.zeros(3), mask) == 2


@pytest.mark.parametrize("name, says", [("no_such_module:act", "cannot import the module"),
                                        ("my_agent:missing", "has no callable 'missing'")])
def test_a_callable_that_is_not_there_is_refused(agent_module, name, says) -> None:
    for game in ("byapar", "businessman"):
        with pytest.raises(UnknownAgentError, match=says):
            make_agent(name, game=game)


def test_the_command_writes_the_report_and_the_json(agent_module) -> None:
    out = subprocess.run([sys.executable, "-m", "byapar_cli", "evaluate", "my_agent:act",
                          "--game", "businessman", "--games", "2", "--sizes", "2",
                          "--workers", "1", "--json", "e.json"], capture_output=True, text=True,
                         timeout=300, cwd=agent_module)
    assert out.returncode == 0, out.stderr
    assert "[4/4] hard@2:" in out.stderr and "s left" in out.stderr
    assert out.stdout.startswith("gauntlet of my_agent:act: 2 games a cell")
    assert "worst case at 2 seats" in out.stdout
    saved = json.loads((agent_module / "e.json").read_text())
    assert set(saved["cells"]) == {"random@2", "easy@2", "medium@2", "hard@2"}
    assert saved["settings"]["game"] == "businessman"
