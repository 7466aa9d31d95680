"""Two ``byapar serve`` processes sharing one database: duplicate actions sent to both at once.

    python -m bench.serve_shared --duplicates 1000 [--workers 8] [--sqlite] [--json PATH]

Starts a PostgreSQL server of its own (``bench/temp_postgres.py``: Debian's ``postgresql``
package, a temporary folder, a Unix socket only, fsync on as a site would run it), then two
server processes on free loopback ports with ``--database postgresql://...`` (``--sqlite``:
one SQLite file instead). ``--workers`` threads each play a table of two people; each of N
actions goes to both processes at the same moment (two connections released together), a
third with the table's ``version``, a third with an ``idempotency_key``, a third with both.
After each pair the table must be exactly one action further: its version one higher and its
game the one the action makes applied once on the client's own engine (read from either
process, in turn). A keyed pair is also counted when both answers are the first one, byte for
byte, one of them marked ``Idempotent-Replayed``. A further N/10 pairs with neither guard show
what an unguarded retry does across processes.

Both servers and the clients share this machine's cores; nothing but loopback addresses and
the database's socket is contacted (proxies in the environment are ignored).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
from pathlib import Path

from .serve_load import free_port, run_duplicates, serve, stop_server
from .temp_postgres import TempPostgres


def start_server(port: int, database: str) -> subprocess.Popen:
    """``byapar serve`` on ``port`` with its tables in ``database``, seats open (the clients
    name none), answered once it answers."""
    return serve(port, database, ["--slow-workers", "0"])


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--duplicates", type=int, default=1000, metavar="N",
                    help="guarded actions sent to both servers at once (default: %(default)s)")
    ap.add_argument("--workers", type=int, default=8, help="tables played at once (1-32)")
    ap.add_argument("--sqlite", action="store_true",
                    help="share one SQLite file instead of a PostgreSQL database")
    ap.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    args = ap.parse_args(argv)
    if not 1 <= args.workers <= 32 or not 1 <= args.duplicates <= 100_000:
        ap.error("--workers 1 to 32 and --duplicates 1 to 100,000")
    with tempfile.TemporaryDirectory(prefix="serve-shared-") as folder:
        pg = None if args.sqlite else TempPostgres(durable=True)
        database = str(Path(folder) / "tables.sqlite3") if pg is None else pg.start()
        procs = []
        try:
            ports = [free_port(), free_port()]
            while ports[1] == ports[0]:
                ports[1] = free_port()
            procs = [start_server(port, database) for port in ports]
            result = run_duplicates([f"http://127.0.0.1:{p}" for p in ports], args.duplicates,
                                    args.workers)
        finally:
            for proc in procs:
                stop_server(proc)
            if pg is not None:
                pg.stop()
    result["database"] = "sqlite" if args.sqlite else "postgresql"
    print(f"two processes on one {result['database']} database ({args.workers} tables, "
          f"{result['seconds']:.1f} s): {result['guarded_applied_twice']} of "
          f"{result['guarded_pairs']} guarded pairs applied twice")
    for mode, row in sorted(result["by_mode"].items()):
        answers = ", ".join(f"[{k}] x{v}" for k, v in sorted(row["answers"].items()))
        first = (f"  both the first answer {row['both_first_answer']}"
                 if mode in ("key", "both") else "")
        print(f"  {mode:<8} {row['pairs']:>5} pairs  applied twice {row['applied_twice']:>4}"
              f"  answers {answers}{first}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2)
    return result


if __name__ == "__main__":
    main()
