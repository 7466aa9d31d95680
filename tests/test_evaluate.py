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
from byapar_harness.rating_scale import format_rating, rate_cells

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
    # the rating: from the cells against the other levels, the player itself left out
    assert evaluated["rating"] == rate_cells("byapar", evaluated["cells"])
    assert evaluated["rating"]["opponents"] == ["random", "easy", "medium"]
    assert evaluated["rating"]["games"] == 9


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
    lines = out.stdout.splitlines()
    assert lines[0] == ("evaluation of my_agent:act (businessman): 2 games a cell, seats "
                        "rotated, seed 0")
    assert lines[1].startswith("worst case at 2 seats: ")
    saved = json.loads((agent_module / "e.json").read_text())
    assert set(saved["cells"]) == {"random@2", "easy@2", "medium@2", "hard@2"}
    assert saved["settings"]["game"] == "businessman"
    # the rating, in the JSON and on the report's third line, before the table of cells
    assert saved["rating"] == rate_cells("businessman", saved["cells"])
    assert saved["rating"]["games"] == 8
    assert lines[2] == format_rating(saved["rating"])
    assert "gauntlet of my_agent:act: 2 games a cell" in out.stdout


@pytest.mark.parametrize("rating", [
    {"rating": 1100.0, "ci95": [1050.0, 1150.0]},
    {"rating": None, "ci95": [1500.0, None]},  # it won every game: an open upper end
    None,  # no cell against the levels
])
def test_the_plot_has_a_panel_a_size_and_the_rating(tmp_path, rating) -> None:
    from PIL import Image

    from byapar_harness.evaluate import plot_evaluation

    pytest.importorskip("matplotlib")
    cells = {f"{o}@{n}": {"opponent": o, "size": n, "games": 10, "win_rate": 0.5,
                          "multiple": 0.5 * n, "multiple_ci95": [0.2 * n, 0.8 * n]}
             for o in ("random", "easy") for n in (2, 4)}
    if rating is not None:
        rating = {**rating, "games": 40, "opponents": ["random", "easy"],
                  "levels": {"random": 300.0, "easy": 1000.0}}
    path = tmp_path / "e.png"
    plot_evaluation(EvaluateConfig(agent="mine", sizes=(2, 4), games=10),
                    {"cells": cells, "rating": rating}, str(path))
    assert Image.open(path).size == (1000, 800)  # 5 inches a size, 8 high, at 100 dpi
