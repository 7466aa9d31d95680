"""The arena: reproducible for any worker count, rotated seats, honest figures, clear errors."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from byapar_agents import make_agent, play_through_env
from byapar_env.byapar_v0 import raw_env
from byapar_harness.arena import (
    ArenaConfig,
    ArenaError,
    game_seed,
    lineup_seat,
    play_game,
    run_arena,
    run_games,
    validate,
    wilson,
)

CLI = [sys.executable, "-m", "byapar_cli"]


def test_results_are_identical_for_any_number_of_workers() -> None:
    one = run_games(ArenaConfig(players=("medium", "easy", "random"), games=12, workers=1))
    two = run_games(ArenaConfig(players=("medium", "easy", "random"), games=12, workers=2))
    assert [r.__dict__ for r in one] == [r.__dict__ for r in two]


def test_seats_rotate_from_game_to_game() -> None:
    results = run_games(ArenaConfig(players=("medium", "easy", "random"), games=3))
    assert [r.kinds for r in results] == [["medium", "easy", "random"],
                                          ["easy", "random", "medium"],
                                          ["random", "medium", "easy"]]


def test_a_lineup_position_keeps_its_own_seat_when_its_name_repeats() -> None:
    config = ArenaConfig(players=("easy", "random", "easy"), games=3)
    # game 0 seats easy, random, easy; game 1 random, easy, easy; game 2 easy, easy, random
    assert [lineup_seat(config, i) for i in range(4)] == [0, 2, 1, 0]
    assert [lineup_seat(config, i, position=2) for i in range(3)] == [2, 1, 0]
    for i, result in enumerate(run_games(config)):
        assert result.kinds[lineup_seat(config, i, position=1)] == "random"


def test_engine_tables_play_the_same_game_as_through_the_environment() -> None:
    """Hand-written players on the engine directly give exactly the environment's games."""
    config = ArenaConfig(players=("medium", "easy", "medium"))
    for index in range(6):
        fast = play_game(config, index)
        seed = game_seed(config.seed, index)
        players = [make_agent(k) for k in fast.kinds]
        for s, p in enumerate(players):
            p.reset(seed + s)
        env = raw_env(num_players=3)
        env.reset(seed=seed)
        decisions = play_through_env(env, players)
        assert [env.game.net_worth(s) for s in range(3)] == fast.net_worth
        assert decisions == fast.decisions


def test_summary_figures_and_json_shape() -> None:
    summary = run_arena(ArenaConfig(players=("medium", "easy", "easy", "easy"), games=40))
    medium, easy = summary["players"]["medium"], summary["players"]["easy"]
    assert medium["games"] == 40 and easy["games"] == 120
    assert medium["wins"] + easy["wins"] == pytest.approx(40)
    lo, hi = medium["ci95"]
    assert lo <= medium["win_rate"] <= hi
    assert medium["mean_rank"] < easy["mean_rank"]  # medium is the stronger player
    assert medium["rating"] > easy["rating"]
    run = summary["run"]
    assert run["ended_by_bankruptcy"] + run["ended_by_round_limit"] == pytest.approx(1)
    json.dumps(summary)  # every figure is plain JSON


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    assert wilson(0, 10)[0] == 0.0


@pytest.mark.parametrize(("players", "message"), [
    (("medium",), "seats 2 to 6 players, got 1"),
    (("easy",) * 7, "seats 2 to 6 players, got 7"),
    (("easy", "grandmaster"), "unknown player 'grandmaster'"),
    (("easy", "byapar_checkpoints/nowhere"), "unknown player 'byapar_checkpoints/nowhere'"),
])
def test_bad_input_is_refused_before_any_game(players, message) -> None:
    with pytest.raises(ArenaError, match=message):
        validate(ArenaConfig(players=players))


def test_command_line_table_json_plot_and_errors(tmp_path) -> None:
    out = tmp_path / "r.json"
    png = tmp_path / "r.png"
    cmd = [*CLI, "arena", "--players", "medium,easy",
           "--games", "6", "--workers", "1", "--json", str(out), "--plot", str(png), "--quiet"]
    done = subprocess.run(cmd, capture_output=True, text=True, check=True)
    assert "win rate" in done.stdout and "medium" in done.stdout
    data = json.loads(out.read_text())
    assert set(data["players"]["medium"]) >= {"games", "wins", "win_rate", "ci95"}
    assert png.read_bytes()[:4] == b"\x89PNG"
    bad = subprocess.run([*CLI, "arena", "--players", "easy"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "seats 2 to 6 players, got 1" in bad.stderr
    assert "games" not in bad.stdout
