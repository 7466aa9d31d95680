"""``byapar serve``: start the web table and the JSON API with one command.

    byapar serve [--host 127.0.0.1] [--port 8000] [--pace-ms 400] [--player FOLDER ...]
                 [--max-tables 64] [--advance-budget-s 2] [--cors-origin ORIGIN ...]
                 [--slow-workers 2] [--allow-host NAME ...] [--token TOKEN | --no-token]
                 [--open-seats] [--database byapar-tables.sqlite3 | --no-database]
                 [--expire-finished-s 604800] [--keep-answers-s 86400] [--log-level warning]
                 [--min-body-rate 2048] [--body-grace-s 2] [--client-connections 100]
                 [--client-body-bytes 16777216]

Then open http://127.0.0.1:8000/ in a browser. ``--player`` offers a checkpoint folder (or a
level or panel name, which are offered anyway) as a computer player; a folder that cannot be
used stops the server before it starts, with the reason. The server binds its socket before it
says where it listens, so ``--port 0`` prints the port the system chose, and a port in use
stops it with that reason (rather than naming another server's address).

Only the Host names given by ``--allow-host`` (loopback names by default, plus ``--host``
itself when it is a name or a specific address) are served. The tables live in an SQLite
file (``--database``, ``byapar-tables.sqlite3`` in the current folder by default) or a
PostgreSQL database (``--database postgresql://...``): a restarted server goes on with every
game where it stood (``byapar_serve/database.py``). A ``--host`` other people can
reach needs ``--token`` (or ``BYAPAR_SERVE_TOKEN``), or ``--no-token`` to say that something
in front of the server checks who calls. ``--log-level info`` logs every request.
"""

from __future__ import annotations

import argparse
import gc
import logging
import math
import os
import re
import socket
import sys

from byapar_env.cli_args import ArgumentParser

from .guard import LOOPBACK_HOSTS, is_loopback
from .limits import (
    ADVANCE_BUDGET_S,
    BODY_GRACE_S,
    BODY_MIN_RATE,
    CLIENT_BODY_BYTES,
    CLIENT_CONNECTIONS,
    DEFAULT_PACE_MS,
    MAX_PACE_MS,
    MAX_SLOW_QUEUED,
    MAX_TABLES,
    SLOW_WORKERS,
)

MAX_TABLES_FLAG = 10_000  # --max-tables: each table holds a game and a few answers in memory
MAX_ADVANCE_BUDGET_S = 60.0
DEFAULT_DATABASE = "byapar-tables.sqlite3"
DEFAULT_EXPIRE_FINISHED_S = 7 * 86_400.0
DEFAULT_KEEP_ANSWERS_S = 86_400.0
MAX_EXPIRY_S = 365 * 86_400.0


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


def _expiry(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = -1.0
    if not 1.0 <= value <= MAX_EXPIRY_S:  # also refuses nan
        raise argparse.ArgumentTypeError(f"seconds must be from 1 to {MAX_EXPIRY_S:,.0f} (a "
                                         f"year), got {text!r}")
    return value


def _origin(text: str) -> str:
    scheme, sep, rest = text.partition("://")
    if text == "*" or (scheme in ("http", "https") and sep and rest and "/" not in rest):
        return text
    raise argparse.ArgumentTypeError(
        f"--cors-origin must be an origin such as https://games.example.org (scheme, host and "
        f"port if any, no path) or *, got {text!r}")


LOG_LEVELS = ("critical", "error", "warning", "info", "debug")
TIMEOUT_KEEP_ALIVE_S = 5  # an idle kept-alive connection is closed after this
MAX_CONNECTIONS = 1000  # open connections at once; more get 503
SWITCH_INTERVAL_S = 0.001
_TOKEN = re.compile(r"[A-Za-z0-9._~+/=-]{16,256}")


def _bounded(flag: str, low: int, high: int, whole: bool = False):
    """An argparse type: a number from ``low`` to ``high`` (a whole one if ``whole``)."""

    def parse(text: str) -> float:
        try:
            value = int(text) if whole else float(text)
        except ValueError:
            value = math.nan
        if not low <= value <= high:  # also refuses nan
            kind = "a whole number" if whole else "a number"
            raise argparse.ArgumentTypeError(f"{flag} must be {kind} from {low:,} to "
                                             f"{high:,}, got {text!r}")
        return value

    return parse


def _workers(text: str) -> int:
    if not text.isdigit() or not 0 <= int(text) <= 64:
        raise argparse.ArgumentTypeError(f"--slow-workers must be a whole number from 0 to 64, "
                                         f"got {text!r}")
    return int(text)


def _token(text: str) -> str:
    if not _TOKEN.fullmatch(text):
        raise argparse.ArgumentTypeError(
            "--token must be 16 to 256 characters of letters, digits and ._~+/=- "
            "(python -c 'import secrets; print(secrets.token_urlsafe())' makes one)")
    return text


def _host_name(text: str) -> str:
    if not text or len(text) > 253 or any(c in text for c in " /\\@?#"):
        raise argparse.ArgumentTypeError(f"--allow-host must be a host name or address "
                                         f"(no port), or *, got {text!r}")
    return text


def parse_args(argv: list[str]) -> argparse.Namespace:
    # A bad flag in one line, naming --help (not argparse's usage block); exit status 2.
    ap = ArgumentParser(
        formatter_class=argparse.HelpFormatter,
        prog="byapar serve",
        description="The web table (play Byapar or Businessman in a browser against computer "
                    "players) and the versioned JSON API (/v1) with the decision call for game "
                    "sites.")
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
    ap.add_argument("--slow-workers", type=_workers, default=SLOW_WORKERS,
                    help="worker processes for the slow calls (the expert's decisions, "
                         "analyses), so they never slow the fast ones; 0 runs them on a thread "
                         "of the server (default: %(default)s)")
    ap.add_argument("--allow-host", action="append", default=[], type=_host_name,
                    metavar="NAME",
                    help="also answer requests for this host name (the Host header; "
                         "repeatable; * for any). Default: loopback names only, and --host")
    token = ap.add_mutually_exclusive_group()
    token.add_argument("--token", type=_token, default=os.environ.get("BYAPAR_SERVE_TOKEN"),
                       help="every request must carry this token (Authorization: Bearer "
                            "TOKEN; a browser opens /?token=TOKEN once). Needed with a --host "
                            "other machines can reach. Default: $BYAPAR_SERVE_TOKEN")
    token.add_argument("--no-token", action="store_true",
                       help="serve a --host other machines can reach without a token (only "
                            "behind something that checks who calls)")
    ap.add_argument("--open-seats", action="store_true",
                    help="let every client act and look as any person seat, as on one shared "
                         "screen; by default a seat is played and seen only with its secret, "
                         "given when its table is made")
    store = ap.add_mutually_exclusive_group()
    store.add_argument("--database", default=DEFAULT_DATABASE, metavar="FILE_OR_URL",
                       help="where the tables live, so that a restart loses no game: an "
                            "SQLite file (made if missing; or sqlite:///PATH), or "
                            "postgresql://USER@HOST/NAME, which server processes on several "
                            "machines may share (pip install 'byapar-env[postgres]'). "
                            "Default: %(default)s in the current folder")
    store.add_argument("--no-database", action="store_true",
                       help="keep tables in memory only: a restart loses them")
    ap.add_argument("--expire-finished-s", type=_expiry, default=DEFAULT_EXPIRE_FINISHED_S,
                    help="drop a table from the database this long after its game ended, at "
                         "start-up (default: %(default)s, a week)")
    ap.add_argument("--keep-answers-s", type=_expiry, default=DEFAULT_KEEP_ANSWERS_S,
                    help="how long the answer to a request with an idempotency key is kept, "
                         "so that a retry gets it again and is never applied twice "
                         "(default: %(default)s, a day)")
    hostile = ap.add_argument_group("bounds on each client (docs/serve.md, hostile clients)")
    hostile.add_argument("--min-body-rate", type=_bounded("--min-body-rate", 0, 10**9),
                         default=BODY_MIN_RATE, metavar="BYTES_PER_S",
                         help="a request body must keep coming at this many bytes a second on "
                              "average once --body-grace-s have passed, or it gets 408 "
                              "(0: no rate; default: %(default)s)")
    hostile.add_argument("--body-grace-s", type=_bounded("--body-grace-s", 0, 60),
                         default=BODY_GRACE_S,
                         help="seconds a body may take before the rate counts "
                              "(default: %(default)s)")
    hostile.add_argument("--client-connections",
                         type=_bounded("--client-connections", 0, 100_000, whole=True),
                         default=CLIENT_CONNECTIONS, metavar="N",
                         help="connections at once from one address; one more gets 429 (0: no "
                              "limit, as behind a proxy, where every client has the proxy's "
                              "address; default: %(default)s)")
    hostile.add_argument("--client-body-bytes",
                         type=_bounded("--client-body-bytes", 1, 1 << 40, whole=True),
                         default=CLIENT_BODY_BYTES, metavar="BYTES",
                         help="bytes of request bodies being read at once from one address; "
                              "past that a request gets 429 (default: %(default)s)")
    ap.add_argument("--log-level", choices=LOG_LEVELS, default="warning",
                    help="the server's log level; info and debug also log every request "
                         "(default: %(default)s)")
    args = ap.parse_args(argv)
    if args.no_token:
        args.token = None
    if args.token is not None and not _TOKEN.fullmatch(args.token):
        ap.error("BYAPAR_SERVE_TOKEN must be 16 to 256 characters of letters, digits and "
                 "._~+/=-")
    if not is_loopback(args.host) and args.token is None and not args.no_token:
        ap.error(f"--host {args.host} can be reached from other machines: give --token "
                 "(or BYAPAR_SERVE_TOKEN) so that only those who have it can play, or "
                 "--no-token if something in front of the server checks who calls")
    return args


def allowed_hosts(args: argparse.Namespace) -> list[str]:
    """The Host names served: loopback ones, --host unless it is a wildcard address, and
    every --allow-host."""
    hosts = list(LOOPBACK_HOSTS)
    if args.host not in ("0.0.0.0", "::", ""):
        hosts.append(args.host)
    return hosts + list(args.allow_host)


def bind(host: str, port: int) -> socket.socket:
    """A listening socket on ``host``:``port`` (0: a free port). ``OSError`` if it is taken."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # Accepted connections inherit it: without it an answer written in two parts (the
        # headers, then the body) waits for the client's delayed ACK, 40 ms a request.
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
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
    from .database import DatabaseError
    from .database_open import open_database
    from .protocol import http_protocol
    from .slow import SlowPool
    from .tables import TableStore

    try:
        database = None if args.no_database else open_database(
            args.database, reply_ttl_s=args.keep_answers_s)
        store = TableStore(max_tables=args.max_tables, advance_budget_s=args.advance_budget_s,
                           database=database, roster=roster,
                           expire_finished_s=args.expire_finished_s)
    except DatabaseError as exc:
        print(f"byapar serve: --database: {exc}", file=sys.stderr)
        return 2
    slow = SlowPool(workers=args.slow_workers, max_queued=MAX_SLOW_QUEUED)
    app = create_app(roster, pace_ms=args.pace_ms, store=store, cors_origins=args.cors_origin,
                     slow=slow, allowed_hosts=allowed_hosts(args), token=args.token,
                     open_seats=args.open_seats, min_rate=args.min_body_rate,
                     grace_s=args.body_grace_s, client_bytes=args.client_body_bytes)
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
    # The access log only from --log-level info: a paced game polls several times a second.
    config = uvicorn.Config(app, log_level=args.log_level,
                            access_log=args.log_level in ("info", "debug"),
                            http=http_protocol(client_connections=args.client_connections),
                            timeout_keep_alive=TIMEOUT_KEEP_ALIVE_S,
                            limit_concurrency=MAX_CONNECTIONS)
    logging.getLogger("byapar_serve").setLevel(args.log_level.upper())
    # A request thread waiting for the interpreter lock behind a long one (a computer seat's
    # advance, a large body's JSON) gets it after 1 ms rather than 5: fast calls stay fast.
    sys.setswitchinterval(SWITCH_INTERVAL_S)
    # What exists now (the app, the players offered, the modules) lasts as long as the server:
    # kept out of the collector's full passes, which a flood of connections' garbage sets off
    # and which would otherwise walk all of it while every request waits.
    gc.collect()
    gc.freeze()
    try:
        uvicorn.Server(config).run(sockets=[sock])
    finally:
        sock.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
