"""byapar analyse and POST /v1/analyse: win chances by rollouts and the expert's choice."""

from __future__ import annotations

import json
import warnings

import pytest

from byapar_agents import make_agent
from byapar_cli import command as cli
from byapar_env.driver import SeatDriver
from byapar_env.engine import Game, Rules
from byapar_env.engine.serialize import game_to_dict
from byapar_harness.analyse import AnalyseError, analyse, parse_saved_game


def mid_game(rounds: int = 4, players: int = 3) -> Game:
    """A seeded game of medium players stopped at the first real choice of round ``rounds``."""
    driver = SeatDriver.for_game(Game(Rules(num_players=players, rounds=12), seed=11))
    game = driver.game
    seats = [make_agent("medium") for _ in range(players)]
    for s, p in enumerate(seats):
        p.reset(s)
    while legal := driver.engine_choices():
        if game.round >= rounds:
            return game
        driver.take_engine(seats[game.current_player].choose(game, game.current_player, legal))
    raise AssertionError("the game ended early")


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    try:
        code = cli.main(argv)
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def saved(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("saves") / "game.json"
    path.write_text(mid_game().to_json())
    return str(path)


def test_analyse_a_saved_game(saved: str, capsys, tmp_path) -> None:
    out_json = tmp_path / "a.json"
    argv = ["analyse", saved, "--rollouts", "20", "--expert-sims", "8", "--seed", "3"]
    code, out, err = run(argv + ["--json", str(out_json)], capsys)
    assert code == 0, err
    assert "chance of winning (20 rollouts to the end" in out
    assert out.count("  seat ") == 3 and "the expert's choice for seat" in out
    data = json.loads(out_json.read_text())
    assert data["rollouts"] == 20
    assert abs(sum(c["rate"] for c in data["chances"]) - 1.0) < 1e-9
    for c in data["chances"]:
        assert c["ci95"][0] <= c["rate"] <= c["ci95"][1]
    chosen = data["expert"]["candidates"][data["expert"]["choice"]]
    assert chosen["action"] == data["expert"]["action"]
    # The same seed gives the same figures.
    code, again, _ = run(argv, capsys)
    assert code == 0 and again == out


def test_a_table_save_is_read_with_its_pre_roll_count() -> None:
    game = mid_game()
    table = {"format": "byapar-table", "version": 1, "seats": ["person"] * 3,
             "pre_roll_actions": 2, "game": game_to_dict(game)}
    loaded, pre_roll = parse_saved_game(table)
    assert pre_roll == 2 and loaded.to_json() == game.to_json()


def _damaged(tmp_path) -> list[tuple[str, str, str]]:
    good = json.loads(mid_game().to_json())
    owner = dict(good)
    owner["owner"] = list(good["owner"])
    owner["owner"][1] = 7  # a seat that does not exist
    return [("not json", "{nope", "not JSON"),
            ("a list", "[1, 2]", "expected a saved game as a JSON object"),
            ("another format", json.dumps({"format": "chess"}), "not a saved Byapar game"),
            ("an owner seat that does not exist", json.dumps(owner),
             "field 'owner[1]' must be a whole number from -1 to 2, got 7")]


def test_a_damaged_or_foreign_file_is_refused_in_one_line(tmp_path, capsys) -> None:
    for label, text, fragment in _damaged(tmp_path):
        path = tmp_path / "bad.json"
        path.write_text(text)
        code, out, err = run(["analyse", str(path), "--rollouts", "5"], capsys)
        assert code == 2, label
        assert out == "" and err.count("\n") == 1 and "Traceback" not in err, label
        assert err.startswith(f"byapar analyse: {path}: ") and fragment in err, (label, err)
    code, _, err = run(["analyse", str(tmp_path / "missing.json")], capsys)
    assert code == 2 and "no such file" in err


def test_bad_settings_and_finished_games_are_refused(saved: str, capsys, tmp_path) -> None:
    code, _, err = run(["analyse", saved, "--rollouts", "0"], capsys)
    assert code == 2 and "rollouts must be a whole number from 1" in err
    code, _, err = run(["analyse", saved, "--expert-sims", "-3"], capsys)
    assert code == 2 and "expert sims must be a whole number from 1" in err
    game = mid_game()
    game._finish([1], "a test")
    with pytest.raises(AnalyseError, match="the saved game is over"):
        analyse(game, rollouts=5, expert_sims=2)


# ---------------------------------------------------------------------- the server
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    fastapi = pytest.importorskip("fastapi")
    from fastapi.testclient import TestClient


@pytest.fixture(scope="module")
def client() -> TestClient:
    from byapar_serve.app import create_app

    return TestClient(create_app())


def test_the_analyse_endpoint_answers_as_the_command_does(client: TestClient) -> None:
    game = mid_game()
    body = {"game": game_to_dict(game), "rollouts": 12, "expert_sims": 4, "seed": 2}
    r = client.post("/v1/analyse", json=body)
    assert r.status_code == 200, r.text
    data = r.json()
    expected = analyse(game, rollouts=12, expert_sims=4, seed=2).to_dict()
    for key in ("seat_to_move", "rollouts", "chances"):
        assert data[key] == expected[key]
    assert data["expert"]["candidates"] == expected["expert"]["candidates"]


@pytest.mark.parametrize(("change", "field"), [
    ({"rollouts": 0}, "rollouts"), ({"rollouts": 100_000}, "rollouts"),
    ({"expert_sims": 10_000}, "expert_sims"), ({"seed": -1}, "seed"),
    ({"rollouts": "12"}, "rollouts"), ({"sims": 5}, "sims")])
def test_the_analyse_endpoint_bounds_its_work(client: TestClient, change: dict,
                                              field: str) -> None:
    body = {"game": game_to_dict(mid_game()), **change}
    r = client.post("/v1/analyse", json=body)
    assert r.status_code == 422, r.text
    assert r.json()["field"] == field


def test_the_analyse_endpoint_refuses_damaged_and_finished_games(client: TestClient) -> None:
    r = client.post("/v1/analyse", json={"game": {"format": "chess"}})
    assert r.status_code == 422 and r.json()["error"] == "bad_saved_game"
    game = mid_game()
    game._finish([0], "a test")
    r = client.post("/v1/analyse", json={"game": game_to_dict(game)})
    assert r.status_code == 409


def test_the_expert_is_seated_and_decides_within_bounds(client: TestClient) -> None:
    info = client.get("/v1").json()
    assert info["players"]["search"] == ["expert"] and "expert" in info["players"]["all"]
    game = game_to_dict(mid_game())
    r = client.post("/v1/decide", json={"game": game, "player": "expert", "budget_ms": 40})
    assert r.status_code == 200, r.text
    assert r.json()["player"] == "expert"
    r = client.post("/v1/decide", json={"game": game, "player": "expert", "budget_ms": 10**6})
    assert r.status_code == 422 and r.json()["field"] == "budget_ms"
    r = client.post("/v1/decide", json={"game": game, "player": "medium", "budget_ms": 40})
    assert r.status_code == 422 and r.json()["field"] == "budget_ms"
    r = client.post("/v1/tables", json={"seats": ["person", "expert"], "seed": 1})
    assert r.status_code == 201, r.text


def test_every_analyse_flag_has_help_and_shows_its_default() -> None:
    parser = cli.analyse_parser()
    formatter = parser.formatter_class(prog=parser.prog)
    flags = [a for a in parser._actions if a.option_strings and a.dest != "help"]
    assert {f.dest for f in flags} == {"rollouts", "expert_sims", "seed", "json"}
    for action in flags:
        assert action.help and "(default: " in formatter._get_help_string(action)


def test_no_simulation_is_explained(tmp_path, capsys) -> None:
    path = tmp_path / "start.json"
    path.write_text(Game(Rules(num_players=3), seed=7).to_json())  # rolling: nothing else to do
    code, out, err = run(["analyse", str(path), "--rollouts", "4", "--seed", "1"], capsys)
    assert code == 0, err
    assert ("the expert's choice for seat 0 (0 simulations: a single candidate, nothing to "
            "compare;") in out


def test_sims_the_earlier_name_of_rollouts_still_works_and_says_so(saved: str, capsys) -> None:
    code, out, err = run(["analyse", saved, "--sims", "6", "--expert-sims", "2"], capsys)
    assert code == 0 and "chance of winning (6 rollouts to the end" in out
    assert err == ("byapar analyse: --sims is now --rollouts (it counts rollouts to the end); "
                   "--sims goes in the next release\n")
