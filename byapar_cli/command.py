"""The ``byapar`` command: one entry point, a subcommand per job.

    byapar arena [options]      computer players against each other (the main job)
    byapar train [options]      self-play training of the hard player
    byapar train-value [options]    the expert's value network (win chances from a position)
    byapar distill [options]    the expert's searched decisions taught to the hard policy
    byapar gauntlet PLAYER      a player against every panel member and level
    byapar exploit CKPT --steps N   how far a fresh learner exploits a frozen player
    byapar exploit PLAYER --method offers   every listed trade offer put to a player
    byapar train-answers CKPT --out DIR     a policy's trade answers taught the value check
    byapar export RUN --name hard   a training run as a shipped checkpoint
    byapar simulate [options]   seeded games of random legal play
    byapar serve [options]      the web table and the JSON decision API
    byapar analyse SAVED_GAME   win chances by rollouts and the expert's choice
    byapar --version

Errors are handled once, in ``main``: a bad value (any ``ByaparError``: the project's typed
errors, a missing package included) is one line on stderr and exit status 2, found before any
work starts; Ctrl-C is one line and exit status 130, in worker processes too.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable
from pathlib import Path

# One parser for every command, byapar simulate's included (imported by the subcommands' modules)
from byapar_env.cli_args import ArgumentParser, add_table_flags
from byapar_env.engine.errors import ByaparError
from byapar_env.engine.rules import MAX_PLAYERS, MIN_PLAYERS

# What the command shares with the training jobs it runs (they import it from there).
from byapar_training.common import TRAIN_PACKAGES, UsageError, require

DISTRIBUTION = "byapar-env"


def version() -> str:
    """The installed distribution's version, or ``byapar_env.__version__`` when run from a
    checkout that is not installed (pyproject.toml reads the version from there too, so the
    two agree)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed_version

    try:
        return installed_version(DISTRIBUTION)
    except PackageNotFoundError:
        from byapar_env import __version__

        return __version__


# ---------------------------------------------------------------------------- errors
# Every error of a bad value derives from ByaparError (byapar_env.engine.errors): the command
# reports those, and a missing file, as one line (tests/test_user_errors.py checks the tree).
USER_ERRORS: tuple[type[BaseException], ...] = (ByaparError, FileNotFoundError)


def check_output_path(flag: str, path: str) -> None:
    """An output file's folder must exist (checked before the work, not after it)."""
    target = Path(path)
    if target.is_dir():
        raise UsageError(f"{flag} {path}: that is a folder; give a file name")
    if not target.resolve().parent.is_dir():
        raise UsageError(f"{flag} {path}: the folder {target.parent} does not exist")


# ---------------------------------------------------------------------------- parsers
def add_backend_flags(ap: ArgumentParser, workers: int, most: int) -> None:
    """--workers, --backend and --address: where arena games run (results never depend on it)."""
    ap.add_argument("--workers", type=int, default=workers,
                    help=f"processes (with --backend ray, a local Ray instance's CPUs), from 1 "
                         f"to {most} here; results do not depend on it")
    ap.add_argument("--backend", choices=("local", "ray"), default="local",
                    help="where the games run: this machine's processes, or Ray tasks (needs "
                         "the ray extra; docs/ray.md); results do not depend on it")
    ap.add_argument("--address", default=None,
                    help="with --backend ray, the Ray cluster to join: HOST:PORT, or auto for "
                         "the one started on this machine by ray start --head (default: a "
                         "local Ray instance of --workers CPUs)")


def require_backend(args: argparse.Namespace, command: str) -> None:
    """Ray must be installed before a --backend ray run starts."""
    if args.backend == "ray":
        from byapar_harness.arena_ray import RAY_INSTALL

        require(["ray"], f"{command} --backend ray", RAY_INSTALL)


def arena_parser() -> ArgumentParser:
    from byapar_env.games import available_games
    from byapar_harness.arena import MAX_GAMES, MAX_SEED, ArenaConfig, default_workers, max_workers

    ap = ArgumentParser(prog="byapar arena", description="Computer players against each other.")
    ap.add_argument("--players", default=",".join(ArenaConfig.players),
                    help=f"comma-separated player kinds, one per seat ({MIN_PLAYERS} to "
                         f"{MAX_PLAYERS}): random, easy, "
                         "medium, hard, a panel name or a checkpoint folder (with --game "
                         "businessman: random, easy, medium, hard, expert, hard:FOLDER or a "
                         "checkpoint folder)")
    ap.add_argument("--games", type=int, default=ArenaConfig.games,
                    help=f"games, from 1 to {MAX_GAMES:,}")
    ap.add_argument("--seed", type=int, default=ArenaConfig.seed,
                    help=f"the run's seed (each game's comes from it and the game's number), "
                         f"from 0 to {MAX_SEED:,}")
    add_backend_flags(ap, default_workers(), max_workers())
    add_table_flags(ap, any_game=True)
    ap.add_argument("--json", metavar="PATH", default=None,
                    help="write every figure as JSON to PATH (default: not written)")
    ap.add_argument("--plot", metavar="PATH", default=None,
                    help="save a bar chart of the win rates to PATH; needs matplotlib "
                         "(default: no chart)")
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    ap.add_argument("--game", choices=available_games(), default=available_games()[0],
                    help="the game the tables play; businessman seats its own "
                         "random, easy, medium, hard and expert players, plays 20 rounds "
                         "unless --rounds says otherwise and has no --starting-cash or "
                         "--no-auctions")
    return ap


def arena_main(argv: list[str]) -> int:
    from byapar_harness.arena import (
        GAME_DEFAULT_ROUNDS,
        ArenaConfig,
        format_table,
        progress_bar,
        run_arena,
    )

    args = arena_parser().parse_args(argv)
    if args.json:
        check_output_path("--json", args.json)
    if args.plot:
        check_output_path("--plot", args.plot)
        require(["matplotlib"], "arena --plot", "pip install -e '.[plot]'")
    require_backend(args, "arena")
    config = ArenaConfig(
        players=_names(args.players), games=args.games, seed=args.seed, workers=args.workers,
        rounds=None if args.until_one_left else (
            GAME_DEFAULT_ROUNDS if args.rounds is None else args.rounds),
        starting_cash=args.starting_cash, auctions=not args.no_auctions,
        backend=args.backend, address=args.address, game=args.game)
    drawn = []

    def bar(done: int, total: int) -> None:
        drawn.append(done < total)
        progress_bar(done, total)

    try:
        summary = run_arena(config, None if args.quiet else bar)
    except KeyboardInterrupt:
        if drawn and drawn[-1]:
            sys.stderr.write("\n")  # end the progress bar's line before main's message
        raise
    # The files first: a reader that stops early (byapar arena ... | head) cannot lose them.
    if args.json:
        with open(args.json, "w") as f:
            json.dump(summary, f, indent=2)
    if args.plot:
        from byapar_harness.arena_plot import plot_win_rates

        plot_win_rates(summary, args.plot)
    print(format_table(summary))
    return 0


def _names(text: str) -> tuple[str, ...]:
    return tuple(p.strip() for p in text.split(",") if p.strip())


def _sizes(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected comma-separated table sizes from {MIN_PLAYERS} to {MAX_PLAYERS}, got "
            f"{text!r}") from None


def gauntlet_parser() -> ArgumentParser:
    from byapar_harness.arena import MAX_GAMES, MAX_SEED, default_workers, max_workers
    from byapar_harness.gauntlet import (
        DEFAULT_POPULATION,
        DEFAULT_SIZES,
        GROUP_NAMES,
        MAX_POPULATION,
        GauntletConfig,
    )

    ap = ArgumentParser(
        prog="byapar gauntlet",
        description="One player against every panel member and level at several table sizes: "
                    "win rates, 95% intervals, multiples of chance and the worst case. With "
                    "--groups, against groups of opponents, the unseen reported apart.")
    ap.add_argument("player", help="a level, a panel name or a checkpoint folder")
    ap.add_argument("--opponents", type=_names, default=None,
                    help="comma-separated opponents (the player itself is skipped; default: "
                         "the levels and the panel)")
    ap.add_argument("--groups", type=_groups, default=None,
                    help=f"comma-separated opponent groups instead of --opponents: "
                         f"{', '.join(GROUP_NAMES)}, or all; each group's worst case is "
                         f"reported, the unseen first (default: none)")
    ap.add_argument("--population", type=int, default=DEFAULT_POPULATION,
                    help=f"players of the population group: its first evaluation seeds, from "
                         f"1 to {MAX_POPULATION}")
    ap.add_argument("--mixed", action="store_true",
                    help="also a mixed table per group and size from 3 seats: the player and "
                         "the group's members, one of each in turn")
    ap.add_argument("--sizes", type=_sizes, default=DEFAULT_SIZES,
                    help=f"comma-separated table sizes, from {MIN_PLAYERS} to {MAX_PLAYERS}")
    ap.add_argument("--games", type=int, default=GauntletConfig.games,
                    help=f"games per opponent and table size, from 1 to {MAX_GAMES:,}")
    ap.add_argument("--seed", type=int, default=GauntletConfig.seed,
                    help=f"the run's seed, from 0 to {MAX_SEED:,}")
    add_backend_flags(ap, default_workers(), max_workers())
    ap.add_argument("--json", metavar="PATH", default=None,
                    help="write every figure as JSON after each cell; a run started again "
                         "with the same settings and file goes on where it stopped (default: "
                         "not written)")
    return ap


def _groups(text: str) -> tuple[str, ...]:
    from byapar_harness.gauntlet import GROUP_NAMES

    names = _names(text)
    if names == ("all",):
        return GROUP_NAMES
    bad = [n for n in names if n not in GROUP_NAMES]
    if bad or not names:
        raise argparse.ArgumentTypeError(
            f"expected comma-separated groups of {', '.join(GROUP_NAMES)}, or all; got {text!r}")
    return names


def gauntlet_main(argv: list[str]) -> int:
    from byapar_harness.gauntlet import (
        DEFAULT_OPPONENTS,
        GauntletConfig,
        format_gauntlet,
        run_gauntlet,
    )
    from byapar_harness.gauntlet import validate as validate_gauntlet

    ap = gauntlet_parser()
    args = ap.parse_args(argv)
    require_backend(args, "gauntlet")
    if args.groups and args.opponents is not None:
        ap.error("give --opponents or --groups, not both")
    config = GauntletConfig(player=args.player,
                            opponents=args.opponents or DEFAULT_OPPONENTS, sizes=args.sizes,
                            games=args.games, seed=args.seed, workers=args.workers,
                            backend=args.backend, address=args.address, groups=args.groups or (),
                            population=args.population, mixed=args.mixed)
    if args.json:
        check_output_path("--json", args.json)
    validate_gauntlet(config)
    result = run_gauntlet(config, args.json, lambda line: print(line, file=sys.stderr,
                                                                 flush=True))
    print(format_gauntlet(config, result))
    return 0


def evaluate_parser() -> ArgumentParser:
    from byapar_env.games import available_games
    from byapar_harness.arena import MAX_GAMES, MAX_SEED, default_workers, max_workers
    from byapar_harness.evaluate import DEFAULT_GAMES

    ap = ArgumentParser(
        prog="byapar evaluate",
        description="Your agent against the shipped levels and players (for Byapar: the "
                    "gauntlet's seen and unseen groups) at 2, 4 and 6 seats, seats rotated: "
                    "win rates with 95%% intervals as multiples of chance, the worst case first.")
    ap.add_argument("agent", help="a player name, a checkpoint folder, or module:callable (a "
                                  "function of a seat's observation and action mask returning "
                                  "an action id)")
    ap.add_argument("--game", choices=available_games(), default=available_games()[0],
                    help="the game the tables play")
    ap.add_argument("--games", type=int, default=DEFAULT_GAMES,
                    help=f"games per opponent and table size, from 1 to {MAX_GAMES:,}")
    ap.add_argument("--seed", type=int, default=0,
                    help=f"the run's seed (each game's comes from it and the game's number), "
                         f"from 0 to {MAX_SEED:,}")
    ap.add_argument("--workers", type=int, default=default_workers(),
                    help=f"processes, from 1 to {max_workers()} here; results do not depend on "
                         "it")
    ap.add_argument("--sizes", type=_sizes, default=(2, 4, 6),
                    help="comma-separated table sizes")
    ap.add_argument("--json", metavar="PATH", default=None,
                    help="write every finished cell as JSON to PATH, and go on from the cells "
                         "already there (default: not written)")
    ap.add_argument("--plot", metavar="PATH", default=None,
                    help="save a chart of the cells to PATH; needs matplotlib (default: none)")
    ap.add_argument("--quiet", action="store_true", help="no progress lines")
    return ap


def evaluate_main(argv: list[str]) -> int:
    from byapar_harness.evaluate import (
        EvaluateConfig,
        format_evaluation,
        plot_evaluation,
        run_evaluation,
    )
    from byapar_harness.gauntlet import validate as validate_gauntlet

    args = evaluate_parser().parse_args(argv)
    for flag, path in (("--json", args.json), ("--plot", args.plot)):
        if path:
            check_output_path(flag, path)
    if args.plot:
        require(["matplotlib"], "evaluate --plot", "pip install -e '.[plot]'")
    config = EvaluateConfig(agent=args.agent, game=args.game, games=args.games, seed=args.seed,
                            workers=args.workers, sizes=args.sizes)
    validate_gauntlet(config.gauntlet())
    say = None if args.quiet else (lambda line: print(line, file=sys.stderr, flush=True))
    result = run_evaluation(config, args.json, say)
    if args.plot:
        plot_evaluation(config, result, args.plot)
    print(format_evaluation(config, result))
    return 0


def train_main(argv: list[str]) -> int:
    require(TRAIN_PACKAGES, "train")
    from byapar_training.selfplay import main as selfplay_main

    return selfplay_main(argv)


def exploit_main(argv: list[str]) -> int:
    # --method ppo needs the training packages (checked there); --method offers does not
    from byapar_training.exploit import main as exploit_main_

    return exploit_main_(argv)


def train_answers_main(argv: list[str]) -> int:
    from byapar_training.answers import main as answers_main

    return answers_main(argv)


def train_value_main(argv: list[str]) -> int:
    require(("torch",), "train-value")
    from byapar_training.value import main as train_value_main_

    return train_value_main_(argv)


def distill_main(argv: list[str]) -> int:
    require(("torch",), "distill")
    from byapar_training.distill import main as distill_main_

    return distill_main_(argv)


def export_main(argv: list[str]) -> int:
    from byapar_training.export import main as export_main_

    return export_main_(argv)


def simulate_main(argv: list[str]) -> int:
    from byapar_env.simulate import main as simulate_main_

    return simulate_main_(argv)


def serve_main(argv: list[str]) -> int:
    require(["fastapi", "uvicorn"], "serve", "pip install -e '.[serve]'")
    from byapar_serve.cli import main as serve_main_

    return serve_main_(argv)


def analyse_parser() -> ArgumentParser:
    from byapar_agents.expert import MAX_SIMS
    from byapar_harness.analyse import DEFAULT_ROLLOUTS, EXPERT_SIMS

    ap = ArgumentParser(
        prog="byapar analyse",
        description="A saved game: each seat's chance of winning by rollouts to the end (95% "
                    "Wilson intervals), and the expert's candidate actions with their values.")
    ap.add_argument("saved_game", metavar="SAVED_GAME",
                    help="the engine's saved game (JSON) or a table save from byapar serve")
    ap.add_argument("--rollouts", "--sims", dest="rollouts", type=int, default=DEFAULT_ROLLOUTS,
                    help=f"rollouts to the end for the win chances, from 1 to {MAX_SIMS:,} "
                         "(--sims, its earlier name, still works for this release)")
    ap.add_argument("--expert-sims", type=int, default=EXPERT_SIMS,
                    help=f"the expert's simulations for the decision under way, from 1 to "
                         f"{MAX_SIMS:,}")
    ap.add_argument("--seed", type=int, default=0,
                    help="the seed of every rollout's dice and cards (same seed, same figures)")
    ap.add_argument("--json", metavar="PATH", default=None,
                    help="also write the figures as JSON to PATH (default: not written)")
    return ap


def analyse_main(argv: list[str]) -> int:
    from byapar_harness.analyse import analyse, format_analysis, read_saved_game

    args = analyse_parser().parse_args(argv)
    if any(a == "--sims" or a.startswith("--sims=") for a in argv):
        print("byapar analyse: --sims is now --rollouts (it counts rollouts to the end); "
              "--sims goes in the next release", file=sys.stderr)
    if args.json:
        check_output_path("--json", args.json)
    game, pre_roll = read_saved_game(args.saved_game)
    result = analyse(game, pre_roll, rollouts=args.rollouts, expert_sims=args.expert_sims,
                     seed=args.seed)
    if args.json:  # before the report, as for arena
        with open(args.json, "w") as f:
            json.dump(result.to_dict(), f, indent=2)
    print(format_analysis(result, game))
    return 0


COMMANDS: dict[str, tuple[str, Callable[[list[str]], int]]] = {
    "arena": ("computer players against each other (the main job)", arena_main),
    "train": ("self-play training of the hard player (needs the train extra)", train_main),
    "train-value": ("train the expert's value network: win chances from a position",
                    train_value_main),
    "distill": ("teach the hard policy the expert's searched decisions (expert iteration)",
                distill_main),
    "gauntlet": ("one player against every panel member and level, at 2, 4 and 6 seats",
                 gauntlet_main),
    "evaluate": ("your agent (a name, a folder, module:callable) against the shipped players, "
                 "seen and unseen", evaluate_main),
    "train-answers": ("teach a policy's trade answers the value network's check",
                      train_answers_main),
    "exploit": ("how far a player can be exploited: a learner (ppo) or listed offers",
                exploit_main),
    "export": ("export a training run as a shipped checkpoint", export_main),
    "simulate": ("seeded games of random legal play", simulate_main),
    "serve": ("the web table and the JSON decision API (needs the serve extra)", serve_main),
    "analyse": ("a saved game: win chances by rollouts and the expert's choice", analyse_main),
}

# The commands whose work is players' forward passes: numpy's matrix products on one thread
# (byapar_agents.network.single_thread_blas). Training leaves torch's threads alone.
PLAYING_COMMANDS = frozenset({"arena", "gauntlet", "evaluate", "serve", "analyse"})

# What Ctrl-C leaves behind, where that matters.
INTERRUPTED = {
    "train": "; the run folder keeps its last save, and the same command resumes from it",
    "exploit": "; the run folder keeps its last save, and the same command resumes from it",
    "train-value": "; the run folder keeps its finished chunks of games, and the same command "
                   "goes on from them",
    "distill": "; the run folder keeps its finished chunks of games, and the same command "
               "goes on from them",
    "gauntlet": "; with --json, the same command goes on from the finished cells",
    "evaluate": "; with --json, the same command goes on from the finished cells",
}


def _usage() -> str:
    lines = ["usage: byapar COMMAND [options]    (byapar COMMAND --help for its options)",
             "       byapar --version", "", "commands:"]
    lines += [f"  {name:<10} {text}" for name, (text, _) in COMMANDS.items()]
    return "\n".join(lines)


def _stdout_gone() -> int:
    """The reader of standard output went away (``byapar arena ... | head``): what was written
    to files stays, and the command ends quietly with 141 (128 + SIGPIPE, as a shell reports
    a command stopped by a closed pipe) instead of a BrokenPipeError traceback."""
    try:
        # Python flushes standard output again at exit; let that write go nowhere.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass  # standard output is not a file (a test's capture): nothing is flushed at exit
    return 141


def main(argv: list[str] | None = None) -> int:
    try:
        code = _main(argv)
        sys.stdout.flush()  # a closed pipe shows here, not at exit where it cannot be caught
        return code
    except BrokenPipeError:
        return _stdout_gone()


def _main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(_usage())
        return 0
    if argv[0] in ("-V", "--version"):
        print(f"byapar {version()}")
        return 0
    command, rest = argv[0], argv[1:]
    if command not in COMMANDS:
        print(f"byapar: unknown command {command!r}; commands: {', '.join(COMMANDS)}",
              file=sys.stderr)
        return 2
    if command in PLAYING_COMMANDS:
        from byapar_agents.network import single_thread_blas

        single_thread_blas()
    try:
        return COMMANDS[command][1](rest)
    except KeyboardInterrupt:
        print(f"byapar {command}: interrupted{INTERRUPTED.get(command, '')}", file=sys.stderr)
        return 130
    except BrokenPipeError:
        raise  # main ends quietly
    except Exception as exc:
        if not isinstance(exc, USER_ERRORS):
            raise  # a bug: its traceback is the useful report
        message = " ".join(str(exc).split())  # one line, whatever the message held
        print(f"byapar {command}: {message}", file=sys.stderr)
        return 2
