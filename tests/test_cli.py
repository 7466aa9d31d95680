"""The ``byapar`` command: help with defaults for every flag, the version, bad values refused in
one line with exit status 2 before any work, Ctrl-C as one line with exit status 130 (worker
processes included), and small training runs that stay small."""

from __future__ import annotations

import argparse
import dataclasses
import importlib.metadata
import json
import os
import signal
import subprocess
import sys
import threading
import time

import pytest

import byapar_env
from byapar_cli import command as cli
from byapar_env import simulate
from byapar_harness import arena
from byapar_harness.arena import ArenaConfig, ArenaError, game_seed, max_workers, run_games

CLI = [sys.executable, "-m", "byapar_cli"]


def run(argv: list[str], capsys) -> tuple[int, str, str]:
    """``byapar ARGV`` in this process: exit status, stdout, stderr."""
    try:
        code = cli.main(argv)
    except SystemExit as exc:  # argparse's own exits (--help, a value it cannot parse)
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def assert_refused(code: int, err: str, *fragments: str) -> None:
    """Exit status 2 and one line on stderr, naming the problem; no traceback."""
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    for fragment in fragments:
        assert fragment in err, err


# ---------------------------------------------------------------------------- help and version
def _parsers() -> dict[str, argparse.ArgumentParser]:
    from byapar_training import export

    return {"arena": cli.arena_parser(), "gauntlet": cli.gauntlet_parser(),
            "export": export.build_parser(), "simulate": simulate.build_parser()}


def _training_parsers() -> dict[str, argparse.ArgumentParser]:
    pytest.importorskip("sb3_contrib")
    from byapar_training import config, exploit

    return {"train": config.build_parser(), "exploit": exploit.build_parser()}


def _check_every_flag(name: str, parser: argparse.ArgumentParser) -> None:
    formatter = parser.formatter_class(prog=parser.prog)
    flags = [a for a in parser._actions if a.option_strings and a.dest != "help"]
    assert flags, name
    for action in flags:
        assert action.help and action.help.strip(), (name, action.option_strings)
        shown = formatter._get_help_string(action)
        assert "(default: " in shown or "default:" in action.help, (name, action.option_strings)
    text = parser.format_help()
    assert "(default:" in text


@pytest.mark.parametrize("name", ["arena", "simulate"])
def test_table_flags_take_the_rules_figures(name) -> None:
    """One home for the table options' defaults: FIGURES, read by every parser."""
    from byapar_env.engine.board import FIGURES
    from byapar_harness.arena import ArenaConfig
    from byapar_harness.gauntlet import GauntletConfig

    args = _parsers()[name].parse_args([])
    # the arena plays any game: no --rounds is each game's own limit, Byapar's the figure's
    rounds = None if name == "arena" else FIGURES.default_rounds
    assert (args.rounds, args.until_one_left, args.starting_cash, args.no_auctions) == (
        rounds, False, FIGURES.default_starting_cash, not FIGURES.default_auctions)
    if name == "simulate":
        assert args.players == FIGURES.default_num_players
    for config in (ArenaConfig(), GauntletConfig()):
        assert (config.rounds, config.starting_cash, config.auctions) == (
            FIGURES.default_rounds, FIGURES.default_starting_cash,
            FIGURES.default_auctions)


@pytest.mark.parametrize("name", ["arena", "gauntlet", "export", "simulate"])
def test_every_flag_has_help_and_shows_its_default(name) -> None:
    _check_every_flag(name, _parsers()[name])


@pytest.mark.parametrize("name", ["train", "exploit"])
def test_every_training_flag_has_help_and_shows_its_default(name) -> None:
    _check_every_flag(name, _training_parsers()[name])


def test_every_config_field_has_a_help_string() -> None:
    from byapar_training.config import Config

    fields = dataclasses.fields(Config)
    assert [f.name for f in fields if not f.metadata.get("help", "").strip()] == []


def test_train_help_shows_tuples_as_the_flag_takes_them(capsys) -> None:
    pytest.importorskip("sb3_contrib")
    code, out, _ = run(["train", "--help"], capsys)
    assert code == 0
    assert "(default: 2,3,4,5,6)" in out and "(default: 256,256)" in out
    assert "(default: runs/hard)" in out and "(default: 3000000)" in out


def test_version_comes_from_the_installed_metadata(capsys) -> None:
    code, out, _ = run(["--version"], capsys)
    assert code == 0
    assert out.strip() == f"byapar {importlib.metadata.version('byapar-env')}"
    # The fallback for a checkout that is not installed is the version pyproject.toml reads.
    assert byapar_env.__version__ == importlib.metadata.version("byapar-env")


def test_top_level_help_and_unknown_command(capsys) -> None:
    code, out, _ = run([], capsys)
    assert code == 0 and "--version" in out and "arena" in out
    code, _, err = run(["nonsense"], capsys)
    assert_refused(code, err, "unknown command 'nonsense'")


# ---------------------------------------------------------------------------- bad values
@pytest.mark.parametrize(("argv", "fragments"), [
    (["arena", "--workers", "999", "--games", "2"], ["--workers", f"1 to {max_workers()}", "999"]),
    (["arena", "--workers", "0"], ["--workers"]),
    (["arena", "--seed", "-1"], ["--seed", "from 0 to", "got -1"]),
    (["arena", "--seed", str(2**63)], ["--seed", "from 0 to"]),
    (["arena", "--games", "100000000000"], ["--games", "1 to 1,000,000"]),
    (["arena", "--games", "0"], ["--games"]),
    (["arena", "--games", "lots"], ["invalid int value: 'lots'"]),
    (["arena", "--players", "easy"], ["seats 2 to 6 players, got 1"]),
    (["arena", "--starting-cash", "150"], ["starting_cash"]),
    (["arena", "--rounds", "0"], ["rounds"]),
    (["simulate", "--seed", "-1"], ["--seed", "from 0 to"]),
    (["simulate", "--games", "0"], ["--games"]),
    (["simulate", "--players", "9"], ["num_players"]),
    (["simulate", "--log", "-2"], ["--log"]),
    (["gauntlet", "hard", "--sizes", "7"], ["table sizes must be from 2 to 6"]),
    (["gauntlet", "hard", "--sizes", "two"], ["table sizes from 2 to 6"]),
    (["gauntlet", "hard", "--seed", "-5"], ["--seed"]),
    (["gauntlet", "hard", "--workers", "999"], ["--workers"]),
    (["gauntlet", "nobody"], ["unknown player 'nobody'"]),
])
def test_bad_values_are_refused_in_one_line(argv, fragments, capsys) -> None:
    code, out, err = run(argv, capsys)
    assert_refused(code, err, *fragments)
    assert "games" not in out  # nothing was played


def test_output_folders_are_checked_before_the_games(tmp_path, capsys) -> None:
    missing = tmp_path / "no-such-folder"
    for flag in ("--json", "--plot"):
        code, out, err = run(["arena", "--games", "400", flag, str(missing / "x")], capsys)
        assert_refused(code, err, flag, "does not exist")
        assert out == ""
    code, _, err = run(["arena", "--json", str(tmp_path)], capsys)
    assert_refused(code, err, "that is a folder")
    code, _, err = run(["gauntlet", "hard", "--json", str(missing / "g.json")], capsys)
    assert_refused(code, err, "--json", "does not exist")


def test_plot_without_matplotlib_is_refused_up_front(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now fails
    code, out, err = run(["arena", "--games", "400", "--plot", str(tmp_path / "p.png")], capsys)
    assert_refused(code, err, "matplotlib", "pip install -e '.[plot]'")
    assert out == ""


def test_a_missing_torch_names_what_to_install(tmp_path, capsys, monkeypatch) -> None:
    pytest.importorskip("sb3_contrib")  # imported whole first: only torch goes missing below
    monkeypatch.setitem(sys.modules, "torch", None)
    for argv in (["train", "--run-dir", str(tmp_path / "r")], ["exploit", "hard"]):
        code, _, err = run(argv, capsys)
        assert_refused(code, err, "torch", "pip install torch==2.13.0",
                       "pip install -e '.[train]'")
    assert not (tmp_path / "r").exists()


def test_export_of_a_last_save_without_sb3_names_what_to_install(tmp_path, capsys,
                                                                   monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "sb3_contrib", None)
    (tmp_path / "latest.zip").write_bytes(b"")  # an SB3 run's last save (a compact run's
    # last save is a pool snapshot, which needs numpy alone)
    code, _, err = run(["export", str(tmp_path)], capsys)
    assert_refused(code, err, "sb3_contrib", "pip install -e '.[train]'")


def test_the_real_command_refuses_in_one_line() -> None:
    """Through the installed entry point's module, in a process of its own."""
    for argv in (["arena", "--workers", "999", "--games", "2"], ["simulate", "--seed", "-1"]):
        done = subprocess.run([*CLI, *argv], capture_output=True, text=True, timeout=120)
        assert_refused(done.returncode, done.stderr)
        assert done.stdout == ""


# ---------------------------------------------------------------------------- arena bounds
def test_negative_seeds_are_refused_and_valid_seeds_keep_their_games() -> None:
    with pytest.raises(ArenaError, match="--seed must be a whole number from 0"):
        arena.validate(ArenaConfig(players=("easy", "easy"), seed=-1))
    # random.Random folds -1 onto 1: that is why negatives are refused. Valid seeds are as
    # they always were (these pin the games of every seeded result in the README).
    assert game_seed(0, 0) == 3553260803050964941
    assert game_seed(1, 0) == 6105171790140581482
    assert game_seed(7, 3) == 4746087446006465878


def test_never_more_worker_processes_than_pieces_of_work(monkeypatch) -> None:
    started = []

    class InlinePool:
        def __init__(self, workers: int) -> None:
            started.append(workers)

        def __enter__(self):
            return self

        def __exit__(self, *exc) -> None:
            return None

        def imap(self, fn, items):
            return map(fn, items)

    monkeypatch.setattr(arena, "worker_pool", InlinePool)
    config = ArenaConfig(players=("random", "random"), games=2, workers=max_workers(),
                         rounds=2)
    if max_workers() > 2:
        run_games(config)
        assert started == [2]
    one = run_games(dataclasses.replace(config, workers=1))
    assert len(one) == 2


# ---------------------------------------------------------------------------- training
@pytest.mark.parametrize(("flags", "fragments"), [
    (["--reward", "bogus"], ["--reward must be one of outcome, net_worth_share"]),
    (["--table-sizes", "1,9"], ["--table-sizes", "from 2 to 6"]),
    (["--table-sizes", "x"], ["comma-separated whole numbers"]),
    (["--seed", "-1"], ["--seed must be from 0 to 4,294,967,295"]),
    (["--n-envs", "0"], ["--n-envs"]),
    (["--n-envs", "999", "--n-workers", "999"], ["environment processes are too many"]),
    (["--batch-size", "1"], ["--batch-size"]),
    (["--learning-rate", "nan"], ["--learning-rate"]),
    (["--gamma", "1.5"], ["--gamma"]),
    (["--hidden", "0"], ["--hidden"]),
    (["--league", "nobody"], ["--league", "unknown player 'nobody'"]),
    (["--exploiters", "no/such/folder"], ["--exploiters"]),
    (["--init-from", "no/such/folder"], ["--init-from"]),
    (["--eval-tables", "medium:9"], ["--eval-tables takes OPPONENT:COUNT"]),
    (["--eval-games", "0"], ["--eval-games"]),
    (["--eval-workers", "999"], ["--eval-workers"]),
    (["--total-steps", "-5"], ["--total-steps"]),
])
def test_bad_training_settings_are_refused_before_any_process(flags, fragments, tmp_path,
                                                              capsys) -> None:
    pytest.importorskip("sb3_contrib")
    run_dir = tmp_path / "run"
    code, out, err = run(["train", "--run-dir", str(run_dir), *flags], capsys)
    assert_refused(code, err, *fragments)
    assert not run_dir.exists()  # nothing started: no folder, no worker, no imitation


def test_bad_exploit_settings_are_refused(tmp_path, capsys) -> None:
    pytest.importorskip("sb3_contrib")
    run_dir = str(tmp_path / "x")
    for flags, fragment in ((["nobody"], "unknown player 'nobody'"),
                            (["hard", "--table-sizes", "9"], "--table-sizes"),
                            (["hard", "--steps", "0"], "--steps"),
                            (["hard", "--seed", "-1"], "--seed")):
        code, _, err = run(["exploit", *flags, "--run-dir", run_dir], capsys)
        assert_refused(code, err, fragment)


def test_a_small_budget_gets_a_small_rollout_warm_start_and_evaluation() -> None:
    pytest.importorskip("sb3_contrib")
    from byapar_training.checks import fit_to_budget
    from byapar_training.config import Config

    config, notes = fit_to_budget(Config(run_dir="/nonexistent/run", total_steps=2000),
                                  frozenset({"total_steps"}))
    assert (config.n_steps, config.batch_size) == (1000, 500)  # one rollout is the budget
    assert config.imitation_games == 20 and config.eval_games == 20
    assert len(notes) == 3 and "one rollout (2,048 steps x 2 environments)" in notes[0]
    # Flags given are kept, except that a rollout is never bigger than the budget.
    config, notes = fit_to_budget(
        Config(run_dir="/nonexistent/run", total_steps=100, n_envs=1, imitation_games=3,
               eval_games=50, batch_size=64),
        frozenset({"imitation_games", "eval_games", "batch_size"}))
    assert (config.n_steps, config.batch_size, config.imitation_games,
            config.eval_games) == (100, 50, 3, 50)
    # A big budget is left alone.
    big = Config(run_dir="/nonexistent/run")
    assert fit_to_budget(big, frozenset()) == (big, [])


def test_a_resumed_run_keeps_its_own_rollout(tmp_path) -> None:
    pytest.importorskip("sb3_contrib")
    from byapar_training.checks import fit_to_budget
    from byapar_training.config import Config

    run_dir = tmp_path / "run"
    run_dir.mkdir()
    (run_dir / "latest.zip").write_bytes(b"")
    saved = dataclasses.asdict(Config(run_dir=str(run_dir), n_steps=1000, batch_size=500))
    (run_dir / "config.json").write_text(json.dumps(saved))
    config, notes = fit_to_budget(Config(run_dir=str(run_dir), total_steps=10**6), frozenset())
    assert (config.n_steps, config.batch_size) == (1000, 500)
    assert notes == ["resuming with the run's own --n-steps 1,000 and --batch-size 500"]
    given = fit_to_budget(Config(run_dir=str(run_dir), n_steps=64), frozenset({"n_steps"}))[0]
    assert given.n_steps == 64  # given: the trainer refuses it with its own message


def test_a_tiny_training_run_stays_tiny_and_says_what_it_did(tmp_path) -> None:
    pytest.importorskip("sb3_contrib")
    run_dir = tmp_path / "tiny"
    # --eval-games 2: the final evaluation's games were most of the run's time; the default's
    # cut (to 20 games a table) is checked on fit_to_budget itself, above.
    done = subprocess.run([*CLI, "train", "--run-dir", str(run_dir), "--total-steps", "200",
                           "--table-sizes", "2,3", "--eval-games", "2"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert ("one rollout (2,048 steps x 2 environments) is more than the budget of 200 steps: "
            "using --n-steps 100 and --batch-size 200") in out
    assert "imitation warm start cut to 2 games" in out
    assert "eval at step 200: vs3medium_win_rate" in out
    assert "step 200/200" in out and "step 4,096" not in out
    last = out.strip().splitlines()[-1]
    assert last.startswith("byapar train: 200 steps (200 in the run), ")
    assert f"saved {run_dir / 'latest.zip'}" in last
    state = json.loads((run_dir / "state.json").read_text())
    assert state["steps"] == 200
    assert "Traceback" not in done.stderr


# ---------------------------------------------------------------------------- Ctrl-C
def _interrupt_when(cmd: list[str], ready: str, stream: str, timeout: float = 300) -> tuple:
    """Start ``cmd`` in a process group of its own, send the group SIGINT (what Ctrl-C in a
    terminal does) once ``ready`` shows on ``stream``, and return (exit status, stdout,
    stderr, whether every process of the group has gone)."""
    # The command starts as from a terminal: SIGINT at its default, whatever this test process
    # inherited or was left with (an ignored SIGINT would pass to the command across exec).
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    seen = {"stdout": "", "stderr": ""}
    flag = threading.Event()

    def read(name: str) -> None:
        for chunk in iter(lambda: getattr(proc, name).read(1), ""):
            seen[name] += chunk
            if name == stream and ready in seen[name]:
                flag.set()

    readers = [threading.Thread(target=read, args=(n,), daemon=True) for n in seen]
    for t in readers:
        t.start()
    try:
        assert flag.wait(timeout), seen
        os.killpg(proc.pid, signal.SIGINT)
        code = proc.wait(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    for t in readers:
        t.join(timeout=10)
    gone = False
    for _ in range(100):
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            gone = True
            break
        time.sleep(0.1)
    return code, seen["stdout"], seen["stderr"], gone


def _assert_interrupted(code: int, err: str, command: str) -> None:
    assert code == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    assert err.strip().splitlines()[-1].startswith(f"byapar {command}: interrupted")


def test_ctrl_c_stops_the_arena_and_its_workers_in_one_line() -> None:
    code, out, err, gone = _interrupt_when(
        [*CLI, "arena", "--players", "random,random", "--games", "1000000", "--workers", "2",
         "--rounds", "5"], "games", "stderr")
    _assert_interrupted(code, err, "arena")
    assert gone, "worker processes outlived the run"


def test_ctrl_c_stops_training_and_its_environment_workers_in_one_line(tmp_path) -> None:
    pytest.importorskip("sb3_contrib")
    code, out, err, gone = _interrupt_when(
        [*CLI, "train", "--run-dir", str(tmp_path / "run"), "--total-steps", "1000000",
         "--imitation-games", "0", "--n-steps", "32", "--batch-size", "64",
         "--table-sizes", "2", "--eval-games", "20"], "step 64/", "stdout")
    _assert_interrupted(code, err, "train")
    assert "the same command resumes" in err
    assert gone, "environment workers outlived the run"
