"""``byapar serve``: start the web table and the JSON API with one command.

    byapar serve [--host 127.0.0.1] [--port 8000] [--pace-ms 400] [--player FOLDER ...]

Then open http://127.0.0.1:8000/ in a browser. ``--player`` offers a checkpoint folder (or a
level or panel name, which are offered anyway) as a computer player; a folder that cannot be
used stops the server before it starts, with the reason.
"""

from __future__ import annotations

import argparse
import sys

from .limits import DEFAULT_PACE_MS, MAX_PACE_MS


def _pace(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= MAX_PACE_MS:
        raise argparse.ArgumentTypeError(
            f"--pace-ms must be a whole number of milliseconds from 0 to {MAX_PACE_MS}, "
            f"got {text!r}")
    return value


def _port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"--port must be from 0 to 65535, got {text!r}")
    return value


def parse_args(argv: list[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(
        prog="byapar serve",
        description="The web table (play Byapar in a browser against computer players) and the "
                    "versioned JSON API (/v1) with the decision call for game sites.")
    ap.add_argument("--host", default="127.0.0.1",
                    help="address to listen on (default: %(default)s, this machine only)")
    ap.add_argument("--port", type=_port, default=8000, help="default: %(default)s")
    ap.add_argument("--pace-ms", type=_pace, default=DEFAULT_PACE_MS,
                    help="the page's default pause between computer moves, in milliseconds "
                         "(default: %(default)s; the page can change it)")
    ap.add_argument("--player", action="append", default=[], metavar="NAME_OR_FOLDER",
                    help="also offer this checkpoint folder as a computer player (repeatable)")
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(sys.argv[1:] if argv is None else argv)
    import uvicorn
    from byapar_agents import CheckpointError, UnknownAgentError

    from .app import create_app
    from .roster import Roster

    try:
        roster = Roster(args.player)
    except (CheckpointError, UnknownAgentError) as exc:
        print(f"byapar serve: --player: {exc}", file=sys.stderr)
        return 2
    app = create_app(roster, pace_ms=args.pace_ms)
    print(f"byapar serve: the web table at http://{args.host}:{args.port}/ (Ctrl+C stops it)",
          file=sys.stderr, flush=True)
    # No access log: a paced game polls several times a second and would flood the terminal.
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning", access_log=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
