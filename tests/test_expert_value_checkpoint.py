"""The expert's rollouts ending on a value checkpoint other than the shipped one
(``ExpertPlayer(value_checkpoint=...)``, ``expert...+value=FOLDER``): how a round of expert
iteration is played against the shipped network on the same games."""

from __future__ import annotations

import numpy as np
import pytest

from byapar_agents import UnknownAgentError, expert_options, make_agent
from byapar_agents.expert import ExpertPlayer
from byapar_agents.medium import MediumPlayer
from byapar_agents.network import CheckpointError, NumpyPolicy
from byapar_agents.value import DEFAULT_VALUE, ValueNet
from byapar_env.driver import SeatDriver
from byapar_env.engine import Game, Rules


def _position() -> tuple[Game, int]:
    """A decision of a seeded four-seat game of medium players, from round 6 on, with more
    than one candidate for the expert."""
    game = Game(Rules(num_players=4), seed=21)
    driver = SeatDriver.for_game(game)
    players = [MediumPlayer() for _ in range(4)]
    probe = ExpertPlayer(sims=2)
    while legal := driver.engine_choices():
        if game.round >= 6 and len(probe.candidates(game, driver.pre_roll_actions)[0]) > 1:
            return game.clone(), driver.pre_roll_actions
        seat = game.current_player
        driver.take_engine(players[seat].choose(game, seat, legal))
    raise AssertionError("no searched decision")


def _inverted(folder) -> None:
    """The shipped value network with its output negated: the richest seat looks the poorest."""
    shipped = ValueNet.load(DEFAULT_VALUE)
    layers = [(w.copy(), b.copy()) for w, b in shipped.network.layers]
    w, b = layers[-1]
    layers[-1] = (-w, -b)
    meta = {k: v for k, v in shipped.meta.items() if k in ("name", "training")}
    NumpyPolicy(layers, shipped.network.activation).save(folder, meta, fmt="byapar-value")


def _scores(expert: ExpertPlayer, game: Game, pre: int) -> list:
    ev = expert.evaluate(game, pre, seed=3)
    return [(str(c.action), c.scores) for c in ev.candidates]


def test_the_shipped_folder_gives_the_default_scores() -> None:
    game, pre = _position()
    assert (_scores(ExpertPlayer(sims=8, value_checkpoint=DEFAULT_VALUE), game, pre)
            == _scores(ExpertPlayer(sims=8), game, pre))


def test_another_network_changes_the_scores_on_one_process_and_on_workers(tmp_path) -> None:
    _inverted(tmp_path / "inverted")
    game, pre = _position()
    default = _scores(ExpertPlayer(sims=8), game, pre)
    one = _scores(ExpertPlayer(sims=8, value_checkpoint=tmp_path / "inverted"), game, pre)
    two = _scores(ExpertPlayer(sims=8, value_checkpoint=tmp_path / "inverted", workers=2),
                  game, pre)
    assert one == two  # the workers load the same folder
    assert [a for a, _ in one] == [a for a, _ in default]
    # the seat's scores move against the shipped ones: the network reads the other way round
    mine = np.array([s for _, scores in one for s in scores])
    shipped = np.array([s for _, scores in default for s in scores])
    assert not np.allclose(mine, shipped)
    assert np.corrcoef(mine, shipped)[0, 1] < 0


def test_the_name_carries_the_folder(tmp_path) -> None:
    _inverted(tmp_path / "net")
    options = expert_options(f"expert-mixed@12+value={tmp_path / 'net'}")
    assert options == {"focus": True, "rollout": "mixed", "value": "net", "sims": 12,
                       "value_checkpoint": str(tmp_path / "net")}
    player = make_agent(f"expert@12+value={tmp_path / 'net'}")
    assert player.value_folder == str(tmp_path / "net") and player.sims == 12


def test_an_empty_or_missing_folder_is_refused(tmp_path) -> None:
    assert expert_options("expert+value=") is None
    with pytest.raises(UnknownAgentError, match="value=FOLDER"):
        make_agent("expert+value=")
    with pytest.raises(CheckpointError, match="no meta.json"):
        make_agent(f"expert+value={tmp_path / 'nothing'}")
