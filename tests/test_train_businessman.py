"""One trainer, two games: ``byapar train --game businessman`` runs the compact trainer on
Businessman's environment, and its snapshots, exports and arena games are Businessman's."""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("torch")

from byapar_agents.businessman import LearnedBusinessmanPlayer, make_agent  # noqa: E402
from byapar_agents.network import CheckpointError, NumpyPolicy, load_checkpoint  # noqa: E402
from byapar_env import businessman_v0  # noqa: E402
from byapar_env.businessman import (  # noqa: E402
    Game,
    Rules,
    board,  # noqa: E402
)
from byapar_env.businessman_observation import OBSERVATION_SIZE  # noqa: E402
from byapar_training.checks import check_config  # noqa: E402
from byapar_training.config import Config, ConfigError  # noqa: E402

CLI = [sys.executable, "-m", "byapar_cli"]


def test_the_real_script_trains_exports_and_seats_a_businessman_policy(tmp_path) -> None:
    run, out = tmp_path / "run", tmp_path / "ckpt"
    # no --trainer: Businessman's own (compact), the only one that plays it
    subprocess.run(CLI + ["train", "--game", "businessman",
                          "--run-dir", str(run), "--total-steps", "512", "--n-envs", "4",
                          "--n-workers", "1", "--n-steps", "64", "--batch-size", "64",
                          "--imitation-games", "2", "--imitation-epochs", "1",
                          "--table-sizes", "2,3", "--eval-every", "512", "--eval-games", "2"],
                   check=True, capture_output=True, text=True, timeout=600)
    snapshots = sorted((run / "pool").glob("step_*"))
    assert [p.name for p in snapshots] == ["step_000000000", "step_000000512"]
    meta = json.loads((snapshots[-1] / "meta.json").read_text())
    assert meta["format"] == "businessman-policy" and meta["observation_size"] == 1080
    assert meta["layers"] == [[1080, 256], [256, 256], [256, 402]]
    with pytest.raises(CheckpointError, match="format"):
        load_checkpoint(snapshots[-1])  # not a Byapar policy
    evals = (run / "eval.csv").read_text().splitlines()
    assert evals[0].startswith("steps,") and "vs3medium_win_rate" in evals[0]
    subprocess.run(CLI + ["export", str(run), "--name", "bm", "--out", str(out)],
                   check=True, capture_output=True, text=True, timeout=300)
    player = make_agent(str(out / "bm"))
    assert isinstance(player, LearnedBusinessmanPlayer)
    # The engine-level choice and the environment's id agree, from the seat's own view.
    env = businessman_v0.raw_env(num_players=3)
    env.reset(seed=5)
    seat = env.agent_name_mapping[env.agent_selection]
    choice = player.choose(env.game, seat, env.game.legal_actions())
    assert businessman_v0.action_to_string(player.act(env, seat)) == str(choice)
    arena = subprocess.run(CLI + ["arena", "--game", "businessman", "--players",
                                  f"{out / 'bm'},medium", "--games", "2", "--workers", "1"],
                           check=True, capture_output=True, text=True, timeout=300)
    assert "medium" in arena.stdout
    # the freshly trained checkpoint evaluated as a researcher would report it
    report = subprocess.run(CLI + ["evaluate", str(out / "bm"), "--game", "businessman",
                                   "--games", "1", "--sizes", "2", "--workers", "1",
                                   "--json", str(tmp_path / "e.json")],
                            check=True, capture_output=True, text=True, timeout=300)
    assert "worst case at 2 seats" in report.stdout
    assert set(json.loads((tmp_path / "e.json").read_text())["cells"]) == {
        "random@2", "easy@2", "medium@2", "hard@2"}


def test_the_learned_player_never_reads_another_seats_hand(tmp_path) -> None:
    """A random Businessman policy saved as a checkpoint: its choice at every asked decision of
    a seeded game is the same when the other seats hold other cards."""
    rng = np.random.default_rng(0)
    NumpyPolicy([(rng.standard_normal((OBSERVATION_SIZE, 16)), rng.standard_normal(16)),
                 (rng.standard_normal((16, 402)), rng.standard_normal(402))]).save(
        tmp_path / "p", {"name": "random-weights"}, "businessman-policy")
    player = LearnedBusinessmanPlayer(tmp_path / "p")
    game, compared, choices = Game(Rules(num_players=3), seed=4), 0, set()
    while not game.is_over and compared < 300:
        legal = game.legal_actions()
        seat = game.current_player
        if len(legal) > 1:
            twin = game.clone()
            for s in range(3):
                if s != seat:
                    twin.hands[s] = sorted((k + 5) % board.NUM_EXCHANGE_KINDS
                                           for k in game.hands[s])
            action = player.choose(game, seat, legal)
            assert player.choose(twin, seat, twin.legal_actions()) == action
            choices.add(str(action))
            compared += 1
        else:
            action = legal[0]
        game.apply(action)
    assert compared > 50 and len(choices) > 5


@pytest.mark.parametrize("options, error", [
    ({"game": "chess"}, "--game must be one of byapar, businessman"),
    ({"game": "businessman"}, "trained by --trainer compact only"),
    ({"game": "businessman", "trainer": "compact", "reward": "position_share"},
     "--reward must be one of outcome, net_worth_share for businessman"),
    ({"game": "businessman", "trainer": "compact", "league": "population"},
     "unknown Businessman player 'population'"),
    ({"game": "businessman", "trainer": "compact", "league": "guardian"},
     "unknown Businessman player 'guardian'"),
])
def test_a_businessman_run_refuses_byapar_settings(tmp_path, options, error) -> None:
    with pytest.raises(ConfigError, match=error):
        check_config(Config(run_dir=str(tmp_path / "run"), **options))


def test_the_shipped_businessman_hard_player_plays_whole_games() -> None:
    from byapar_agents.businessman import play_game

    player = make_agent("hard")
    assert isinstance(player, LearnedBusinessmanPlayer) and player.name == "hard"
    assert player.meta["format"] == "businessman-policy"
    # the mean of three snapshots of the run with the per-turn caps (docs/businessman_env.md)
    assert player.meta["training"]["averaged_snapshots"] == [1_253_376, 1_507_328, 1_753_088]
    for seed in (0, 1):
        game = Game(Rules(num_players=3), seed=seed)
        play_game(game, [player, make_agent("medium"), make_agent("easy")])
        assert game.is_over and game.winners
        again = Game(Rules(num_players=3), seed=seed)
        play_game(again, [player, make_agent("medium"), make_agent("easy")])
        assert again.to_json() == game.to_json()  # the same seed, the same game
