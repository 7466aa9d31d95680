"""``byapar serve``: start the web table and the JSON API with one command.

    byapar serve [--host 127.0.0.1] [--port 8000] [--pace-ms 400] [--player FOLDER ...]
                 [--max-tables 64] [--advance-budget-s 2] [--cors-origin ORIGIN ...]

Then open http://127.0.0.1:8000/ in a browser. ``--player`` offers a checkpoint folder (or a
level or panel name, which are offered anyway) as a computer player; a folder that cannot be
used stops the server before it starts, with the reason. The server binds its socket before it
says where it listens, so ``--port 0`` prints the port the system chose, and a port in use
stops it with that reason (rather than naming another server's address).
"""

from __future__ import annotations

import argparse
import socket
import sys

from .limits import ADVANCE_BUDGET_S, DEFAULT_PACE_MS, MAX_PACE_MS, MAX_TABLES

MAX_TABLES_FLAG = 10_000  # --max-tables: each table holds a game and a few answers in memory
MAX_ADVANCE_BUDGET_S = 60.0


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


def _max_tables(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if not 1 <= value <= MAX_TABLES_FLAG:
        raise argparse.ArgumentTypeError(
            f"--max-tables must be a whole number from 1 to {MAX_TABLES_FLAG:,}, got {text!r}")
    return value


def _budget(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0.01 <= value <= MAX_ADVANCE_BUDGET_S:  # also refuses nan
        raise argparse.ArgumentTypeError(
            f"--advance-budget-s must be seconds from 0.01 to {MAX_ADVANCE_BUDGET_S:g}, "
            f"got {text!r}")
    return value


def _origin(text: str) -> str:
    scheme, sep, rest = text.partition("://")
    if text == "*" or (scheme in ("http", "https") and sep and rest and "/" not in rest):
        return text
    raise argparse.ArgumentTypeError(
        f"--cors-origin must be an origin such as https://games.example.org (scheme, host and "
        f"port if any, no path) or *, got {text!r}")


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
    ap.add_argument("--max-tables", type=_max_tables, default=MAX_TABLES,
                    help="tables held at once; at the limit the least recently used one idle "
                         "10 minutes makes room, otherwise a new table gets 429 "
                         "(default: %(default)s)")
    ap.add_argument("--advance-budget-s", type=_budget, default=ADVANCE_BUDGET_S,
                    help="the wall time one advance request may spend on computer moves, "
                         "seconds (default: %(default)s)")
    ap.add_argument("--cors-origin", action="append", default=[], type=_origin,
                    metavar="ORIGIN",
                    help="let web pages from ORIGIN (https://host[:port]) call the API from a "
                         "browser (repeatable; default: none, only this server's own page)")
    return ap.parse_args(argv)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (0: a free port). ``OSError`` if it is taken."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(2048)
    except OSError:
        sock.close()
        raise
    return sock


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
    from .tables import TableStore

    store = TableStore(max_tables=args.max_tables, advance_budget_s=args.advance_budget_s)
    app = create_app(roster, pace_ms=args.pace_ms, store=store, cors_origins=args.cors_origin)
    try:
        sock = bind(args.host, args.port)
    except OSError as exc:
        print(f"byapar serve: cannot listen on {args.host} port {args.port}: {exc.strerror or exc}"
              " (another server may hold the port: choose one with --port, or --port 0 for a "
              "free one)", file=sys.stderr)
        return 2
    port = sock.getsockname()[1]
    shown = f"[{args.host}]" if ":" in args.host else args.host
    print(f"byapar serve: the web table at http://{shown}:{port}/ (Ctrl+C stops it)",
          file=sys.stderr, flush=True)
    # No access log: a paced game polls several times a second and would flood the terminal.
    config = uvicorn.Config(app, log_level="warning", access_log=False)
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
