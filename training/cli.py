"""The ``byapar`` command: one entry point, a subcommand per job.

    byapar arena [options]      computer players against each other (the main job)
    byapar train [options]      self-play training of the hard player
    byapar gauntlet PLAYER      a player against every panel member and level
    byapar exploit CKPT --steps N   how far a fresh learner exploits a frozen player
    byapar export RUN --name hard   a training run as a shipped checkpoint
    byapar simulate [options]   seeded games of random legal play
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def arena_main(argv: list[str]) -> int:
    from byapar_agents.arena import (
        ArenaConfig,
        ArenaError,
        default_workers,
        format_table,
        progress_bar,
        run_arena,
    )

    ap = argparse.ArgumentParser(prog="byapar arena",
                                 description="Computer players against each other.")
    ap.add_argument("--players", default="hard,medium,easy,random",
                    help="comma-separated player kinds, one per seat (2 to 6): random, easy, "
                         "medium, hard, or a checkpoint folder (default: %(default)s)")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=default_workers())
    length = ap.add_mutually_exclusive_group()
    length.add_argument("--rounds", type=int, default=40)
    length.add_argument("--until-one-left", action="store_true")
    ap.add_argument("--starting-cash", type=int, default=15_000)
    ap.add_argument("--no-auctions", action="store_true")
    ap.add_argument("--json", metavar="PATH", help="write every figure as JSON")
    ap.add_argument("--plot", metavar="PATH", help="save a bar chart of the win rates")
    ap.add_argument("--quiet", action="store_true", help="no progress bar")
    args = ap.parse_args(argv)
    config = ArenaConfig(
        players=tuple(p.strip() for p in args.players.split(",") if p.strip()),
        games=args.games, seed=args.seed, workers=args.workers,
        rounds=None if args.until_one_left else args.rounds,
        starting_cash=args.starting_cash, auctions=not args.no_auctions)
    try:
        summary = run_arena(config, None if args.quiet else progress_bar)
    except ArenaError as exc:
        print(f"byapar arena: {exc}", file=sys.stderr)
        return 2
    print(format_table(summary))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(summary, f, indent=2)
    if args.plot:
        from byapar_agents.arena_plot import plot_win_rates

        plot_win_rates(summary, args.plot)
    return 0


def _names(text: str) -> tuple[str, ...]:
    return tuple(p.strip() for p in text.split(",") if p.strip())


def _sizes(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(x) for x in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"expected comma-separated table sizes from 2 to 6, got {text!r}") from None


def gauntlet_main(argv: list[str]) -> int:
    from byapar_agents.arena import ArenaError, default_workers
    from byapar_agents.gauntlet import (
        DEFAULT_OPPONENTS,
        DEFAULT_SIZES,
        GauntletConfig,
        format_gauntlet,
        run_gauntlet,
    )

    ap = argparse.ArgumentParser(
        prog="byapar gauntlet",
        description="One player against every panel member and level at several table sizes: "
                    "win rates, 95%% intervals, multiples of chance and the worst case.",
        formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    ap.add_argument("player", help="a level, a panel name or a checkpoint folder")
    ap.add_argument("--opponents", type=_names, default=DEFAULT_OPPONENTS,
                    help="comma-separated opponents (the player itself is skipped)")
    ap.add_argument("--sizes", type=_sizes, default=DEFAULT_SIZES,
                    help="comma-separated table sizes")
    ap.add_argument("--games", type=int, default=400, help="games per opponent and table size")
    ap.add_argument("--seed", type=int, default=0, help="the run's seed")
    ap.add_argument("--workers", type=int, default=default_workers(), help="processes")
    ap.add_argument("--json", metavar="PATH", default=None,
                    help="write every figure as JSON after each cell; a run started again "
                         "with the same settings and file goes on where it stopped")
    args = ap.parse_args(argv)
    config = GauntletConfig(player=args.player, opponents=args.opponents, sizes=args.sizes,
                            games=args.games, seed=args.seed, workers=args.workers)
    if args.json and not Path(args.json).resolve().parent.is_dir():
        print(f"byapar gauntlet: --json {args.json}: its folder does not exist", file=sys.stderr)
        return 2
    try:
        result = run_gauntlet(config, args.json, lambda line: print(line, file=sys.stderr,
                                                                     flush=True))
    except ArenaError as exc:
        print(f"byapar gauntlet: {exc}", file=sys.stderr)
        return 2
    print(format_gauntlet(config, result))
    return 0


def train_main(argv: list[str]) -> int:
    from .selfplay import main as selfplay_main

    return selfplay_main(argv)


def export_main(argv: list[str]) -> int:
    from .export import main as export_main_

    return export_main_(argv)


COMMANDS = {
    "arena": ("computer players against each other (the main job)", arena_main),
    "train": ("self-play training of the hard player (needs the train extra)", train_main),
    "gauntlet": ("one player against every panel member and level, at 2, 4 and 6 seats",
                 gauntlet_main),
    "exploit": ("train a fresh learner against a frozen player: its exploitability",
                lambda argv: __import__("byapar_training.exploit", fromlist=["main"]).main(argv)),
    "export": ("export a training run as a shipped checkpoint", export_main),
    "simulate": ("seeded games of random legal play", None),
}


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] in ("-h", "--help"):
        print("usage: byapar COMMAND [options]\n\ncommands:")
        for name, (text, _) in COMMANDS.items():
            print(f"  {name:<10} {text}")
        return 0
    command, rest = argv[0], argv[1:]
    if command == "simulate":
        from byapar_env.simulate import main as simulate_main

        return simulate_main(rest)
    if command in COMMANDS:
        return COMMANDS[command][1](rest)
    print(f"byapar: unknown command {command!r}; commands: {', '.join(COMMANDS)}",
          file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
