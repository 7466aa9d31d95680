"""Hostile clients against ``byapar serve`` (issue 41, section 3): what they cost everyone else.

    python -m bench.serve_hostile [--runs 3] [--seconds 8] [--senders 4] [--chunks 100000]
                                  [--chunk-size 1] [--tries 10] [--expert-calls 30]
                                  [--only chunks,token,trickle,expert] [--json PATH]

Starts the real server (``byapar serve`` in a subprocess, on a free loopback port; nothing else
is ever contacted) for each scenario, with its tables in a temporary SQLite file:

- ``chunks``: ``--senders`` connections each send a POST whose body comes in ``--chunks``
  chunks of ``--chunk-size`` bytes (one by default; chunked transfer encoding, all sent at
  once: the server does all the parsing), over and over, while a fifth client reads a quiet
  table (``GET /v1/tables/ID``) and the board (``GET /v1/board``) one after the other, 40
  times a second: the reads' round trips, median, 95th percentile and the worst;
- ``token``: the same on a server started with ``--token``, the senders without the token
  (their requests are refused with 401; the reader has it);
- ``trickle``: ``--senders`` connections each declare a 400 KB body and send it at 200 bytes
  a second, again and again, while a legitimate client sends a 300 KB decide (a saved game
  padded with JSON whitespace) ``--tries`` times, one after the other: how many are answered
  200, and what the trickling senders got;
- ``expert``: one client, one call at a time: ``--expert-calls`` expert decisions at 20 ms,
  then as many at 5 ms, then five analyses, from the moment the server answers (its workers
  still loading their networks) and then again: how many got 503, and how many searches
  answered in time (the others were answered by the expert's prior).

Each scenario runs ``--runs`` times (a fresh server each) and reports each run and, over the
runs, the median of the medians and the worst read. The hostile clients run in a process of
their own, as they would on other machines; client and server share this machine's cores.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import socket
import statistics
import subprocess
import tempfile
import threading
import time
from pathlib import Path

import httpx

from bench.serve_load import free_port, percentile, saved_positions, serve, stop_server

TOKEN = "bench-hostile-token-0123456789"
TRICKLE_BYTES = 400_000
TRICKLE_RATE = 200  # bytes a second
LEGIT_BYTES = 300_000


def start_server(port: int, folder: str, extra: list[str]) -> subprocess.Popen:
    return serve(port, str(Path(folder) / f"tables-{port}.sqlite3"), extra,
                 {"authorization": f"Bearer {TOKEN}"})


def _summary(values: list[float]) -> dict:
    if not values:
        return {"calls": 0, "p50_ms": float("nan"), "p95_ms": float("nan"),
                "max_ms": float("nan")}
    return {"calls": len(values), "p50_ms": round(statistics.median(values), 1),
            "p95_ms": round(percentile(values, 95), 1), "max_ms": round(max(values), 1)}


# ---------------------------------------------------------------- the hostile process
def _status(reply: bytes) -> str:
    return reply[9:12].decode(errors="replace") if reply.startswith(b"HTTP/") else "closed"


def _recv_some(sock: socket.socket) -> bytes:
    try:
        return sock.recv(4096)
    except OSError:
        return b""


def _chunk_sender(port: int, chunks: int, size: int, stop: threading.Event, out: list) -> None:
    """POST bodies of ``chunks`` chunks of ``size`` bytes, sent at once, until ``stop``."""
    head = (b"POST /v1/decide HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
            b"\r\nTransfer-Encoding: chunked\r\n\r\n")
    data = head + (b"%x\r\n" % size + b" " * size + b"\r\n") * chunks + b"0\r\n\r\n"
    while not stop.is_set():
        start = time.monotonic()
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=30)
        except OSError:
            time.sleep(0.1)
            continue
        try:
            sock.sendall(data)
            reply = _recv_some(sock)
        except OSError:
            reply = _recv_some(sock)
        finally:
            sock.close()
        out.append((_status(reply), round(time.monotonic() - start, 2)))


def _trickle_sender(port: int, stop: threading.Event, out: list) -> None:
    """POST bodies declared as TRICKLE_BYTES, sent at TRICKLE_RATE bytes a second."""
    head = (f"POST /v1/decide HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
            f"\r\nContent-Length: {TRICKLE_BYTES}\r\n\r\n").encode()
    piece = b" " * (TRICKLE_RATE // 10)
    while not stop.is_set():
        start = time.monotonic()
        try:
            sock = socket.create_connection(("127.0.0.1", port), timeout=60)
        except OSError:
            time.sleep(0.1)
            continue
        reply = b""
        try:
            sock.sendall(head)
            sock.setblocking(False)
            sent = 0
            while sent < TRICKLE_BYTES and not stop.is_set():
                with contextlib.suppress(BlockingIOError):
                    reply = sock.recv(4096)
                if reply:
                    break
                sock.send(piece)
                sent += len(piece)
                time.sleep(0.1)
            if not reply:
                sock.setblocking(True)
                sock.settimeout(1.0)
                reply = _recv_some(sock)
        except OSError:
            pass
        finally:
            sock.close()
        out.append((_status(reply), round(time.monotonic() - start, 2)))


def hostile(kind: str, port: int, senders: int, chunks: int, size: int, done, conn) -> None:
    """The hostile senders (``kind``: chunks or trickle) until ``done``; what each request got
    goes back through ``conn``."""
    stop = threading.Event()
    out: list = []
    target = _chunk_sender if kind == "chunks" else _trickle_sender
    args = (port, chunks, size, stop, out) if kind == "chunks" else (port, stop, out)
    threads = [threading.Thread(target=target, args=args, daemon=True) for _ in range(senders)]
    for t in threads:
        t.start()
    done.wait()
    stop.set()
    for t in threads:
        t.join(5)
    conn.send(list(out))


class Hostile:
    """The hostile process, as a context: started on entry, stopped (and its record read) on
    exit into ``answers``."""

    def __init__(self, kind: str, port: int, senders: int, chunks: int = 0,
                 size: int = 1) -> None:
        context = multiprocessing.get_context("spawn")
        self.done = context.Event()
        self.receiver, sender = context.Pipe(duplex=False)
        self.proc = context.Process(target=hostile,
                                    args=(kind, port, senders, chunks, size, self.done,
                                          sender))
        self.answers: list = []

    def __enter__(self) -> Hostile:
        self.proc.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.done.set()
        if self.receiver.poll(30):
            self.answers = self.receiver.recv()
        self.proc.join(10)
        if self.proc.is_alive():
            self.proc.kill()


def _answers(answers: list) -> dict:
    counts: dict[str, int] = {}
    for status, _ in answers:
        counts[status] = counts.get(status, 0) + 1
    seconds = [s for _, s in answers]
    return {"requests": len(answers), "by_status": counts,
            "seconds_median": round(statistics.median(seconds), 2) if seconds else None}


# ---------------------------------------------------------------- the scenarios
def _quiet_reads(base: str, table: str, seconds: float, headers: dict) -> list[float]:
    reads = []
    with httpx.Client(base_url=base, timeout=60, trust_env=False, headers=headers) as client:
        end = time.monotonic() + seconds
        i = 0
        while time.monotonic() < end:
            start = time.perf_counter()
            r = client.get(f"/v1/tables/{table}" if i % 2 == 0 else "/v1/board")
            took = (time.perf_counter() - start) * 1000
            reads.append(took if r.status_code == 200 else -float(r.status_code))
            i += 1
            time.sleep(0.025)
    return reads


def run_chunks(args: argparse.Namespace, folder: str, token: bool) -> dict:
    port = free_port()
    extra = ["--token", TOKEN] if token else []
    headers = {"authorization": f"Bearer {TOKEN}"} if token else {}
    proc = start_server(port, folder, extra)
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base, timeout=30, trust_env=False, headers=headers) as c:
            table = c.post("/v1/tables", json={"seats": ["person", "hard"], "seed": 2}
                           ).json()["id"]
        alone = _quiet_reads(base, table, 2.0, headers)
        with Hostile("chunks", port, args.senders, args.chunks, args.chunk_size) as h:
            time.sleep(1.5)  # every sender under way
            reads = _quiet_reads(base, table, args.seconds, headers)
    finally:
        stop_server(proc)
    ok = [r for r in reads if r >= 0]
    return {"alone": _summary(alone), "reads": _summary(ok),
            "read_errors": [int(-r) for r in reads if r < 0][:10],
            "senders": _answers(h.answers)}


def _legit_body(size: int) -> bytes:
    game = saved_positions(1, seed=5)[0]
    text = json.dumps({"game": game, "player": "hard"})
    return (text + " " * max(0, size - len(text))).encode()


def run_trickle(args: argparse.Namespace, folder: str) -> dict:
    port = free_port()
    proc = start_server(port, folder, [])
    base = f"http://127.0.0.1:{port}"
    body = _legit_body(LEGIT_BYTES)
    statuses: list[int] = []
    times: list[float] = []
    try:
        with Hostile("trickle", port, args.senders) as h:
            time.sleep(2.0)  # every trickle under way
            with httpx.Client(base_url=base, timeout=60, trust_env=False) as client:
                for _ in range(args.tries):
                    start = time.perf_counter()
                    r = client.post("/v1/decide", content=body,
                                    headers={"content-type": "application/json"})
                    times.append((time.perf_counter() - start) * 1000)
                    statuses.append(r.status_code)
                    time.sleep(0.5)
    finally:
        stop_server(proc)
    return {"tries": len(statuses), "ok": statuses.count(200),
            "statuses": {str(s): statuses.count(s) for s in sorted(set(statuses))},
            "legit_ms": _summary(times), "senders": _answers(h.answers)}


def _expert_pass(client: httpx.Client, positions: list[dict], calls: int) -> dict:
    out: dict = {}
    for budget in (20, 5):
        codes, searched = [], 0
        for i in range(calls):
            r = client.post("/v1/decide", json={"game": positions[i % len(positions)],
                                                "player": "expert", "budget_ms": budget})
            codes.append(r.status_code)
            searched += int(r.status_code == 200 and r.json().get("searched") is True)
        out[f"expert_{budget}ms"] = {"calls": len(codes), "503": codes.count(503),
                                     "200": codes.count(200), "searched": searched}
    codes = []
    for i in range(5):
        r = client.post("/v1/analyse", json={"game": positions[i], "rollouts": 20,
                                             "expert_sims": 8})
        codes.append(r.status_code)
    out["analyse"] = {"calls": len(codes), "503": codes.count(503), "200": codes.count(200)}
    return out


def run_expert(args: argparse.Namespace, folder: str) -> dict:
    """The sequence from the moment the server answers (its workers still loading their
    networks: "cold"), then again once it is done ("warm")."""
    port = free_port()
    proc = start_server(port, folder, [])
    base = f"http://127.0.0.1:{port}"
    positions = saved_positions(40, seed=4)
    try:
        with httpx.Client(base_url=base, timeout=60, trust_env=False) as client:
            return {"cold": _expert_pass(client, positions, args.expert_calls),
                    "warm": _expert_pass(client, positions, args.expert_calls)}
    finally:
        stop_server(proc)


def _reads_overall(runs: list[dict]) -> dict:
    return {"p50_ms_median": round(statistics.median(r["reads"]["p50_ms"] for r in runs), 1),
            "p95_ms_median": round(statistics.median(r["reads"]["p95_ms"] for r in runs), 1),
            "max_ms_worst": max(r["reads"]["max_ms"] for r in runs)}


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=8.0, help="reads under load, each run")
    ap.add_argument("--senders", type=int, default=4)
    ap.add_argument("--chunks", type=int, default=100_000, help="chunks a request")
    ap.add_argument("--chunk-size", type=int, default=1, help="bytes of data a chunk")
    ap.add_argument("--tries", type=int, default=10, help="legitimate 300 KB decide calls")
    ap.add_argument("--expert-calls", type=int, default=30)
    ap.add_argument("--only", default="chunks,token,trickle,expert")
    ap.add_argument("--json", metavar="PATH")
    args = ap.parse_args(argv)
    if not 1 <= args.runs <= 20 or not 1 <= args.senders <= 64 or args.chunk_size < 1:
        ap.error("--runs 1 to 20, --senders 1 to 64 and --chunk-size at least 1")
    result: dict = {}
    with tempfile.TemporaryDirectory(prefix="serve-hostile-") as folder:
        for kind in args.only.split(","):
            runs = []
            for n in range(args.runs):
                if kind in ("chunks", "token"):
                    row = run_chunks(args, folder, token=kind == "token")
                    print(f"{kind} run {n + 1}: reads alone {row['alone']}; under "
                          f"{args.senders} senders {row['reads']} errors {row['read_errors']}; "
                          f"senders got {row['senders']}", flush=True)
                elif kind == "trickle":
                    row = run_trickle(args, folder)
                    print(f"trickle run {n + 1}: 300 KB decide {row['ok']} of {row['tries']} "
                          f"answered 200 {row['statuses']}, {row['legit_ms']}; senders got "
                          f"{row['senders']}", flush=True)
                elif kind == "expert":
                    row = run_expert(args, folder)
                    print(f"expert run {n + 1}: {row}", flush=True)
                else:
                    ap.error(f"--only takes chunks, token, trickle and expert, got {kind!r}")
                runs.append(row)
            result[kind] = {"runs": runs}
            if kind in ("chunks", "token"):
                result[kind]["overall"] = o = _reads_overall(runs)
                print(f"{kind}: quiet reads over {args.runs} runs: median p50 {o['p50_ms_median']}"
                      f" ms, median p95 {o['p95_ms_median']} ms, worst {o['max_ms_worst']} ms",
                      flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2)
    return result


if __name__ == "__main__":
    main()
