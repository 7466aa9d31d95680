"""Load on ``byapar serve``: many tables of computer players played through the API at once,
and the decision call's latency for the hard player.

    python -m bench.serve_load [--seconds 20] [--workers 8] [--max-tables 200]
                               [--decide-calls 300] [--json PATH]
    python -m bench.serve_load --duplicates 1000 [--workers 8] [--json PATH]
    python -m bench.serve_load --mixed [--seconds 30]     # hard's decide beside analyse
    python -m bench.serve_load --expert 25                # the expert, 4 clients at once
    python -m bench.serve_load --hostile [--seconds 40]   # fast calls under a hostile mix

Starts the server in a subprocess on a free loopback port (127.0.0.1 only; nothing else is
ever contacted), then:

1. ``/v1/decide`` with ``player: hard`` on saved games from seeded games (every phase, early
   and late positions), one call at a time: the server's own time (``ms`` in the answer, from
   reading the game to the decision) and the client's round trip, median and 95th percentile;
2. the load: ``--workers`` threads, each creating a table of 2 to 4 computer players (20
   rounds), letting it play one decision per request (``POST .../advance``, as the page does at
   a pace), reading its state now and then, and deleting it at the end; plus one thread calling
   ``/v1/decide``. It stops after ``--seconds`` or ``--max-tables`` tables, whichever comes
   first, and reports requests per second, latency percentiles and errors.

With ``--duplicates N`` it measures instead that no action is applied twice: ``--workers``
threads, each on its own table of two people, send each of N actions twice at the same moment
(two connections, released together), a third with the table's ``version``, a third with an
``idempotency_key``, a third with both; after each pair the table must be exactly one action
further (its version one higher, its game the one the action makes applied once on the
client's own engine). A further N/10 pairs with neither show what an unguarded retry does.

Client and server share this machine's cores, so the figures are what one machine does with
both; the server runs one process (uvicorn, no workers). Proxies in the environment are
ignored (``trust_env=False``): the traffic stays on the loopback interface.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from byapar_env.engine import Action, ActionKind, Game, Rules
from byapar_env.engine.serialize import game_to_dict

LINEUPS = (("medium", "easy"), ("hard", "medium", "random"), ("easy", "hard"),
           ("strategist", "medium", "easy", "hard"), ("random", "random", "medium"))
ROUNDS = 20


def free_port() -> int:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


_DATABASE = tempfile.TemporaryDirectory(prefix="serve-load-")


def start_server(port: int) -> subprocess.Popen:
    # The tables in an SQLite file of its own (every change written before it is answered, as
    # byapar serve runs by default); seats open, as the load's clients name none of them.
    return serve(port, str(Path(_DATABASE.name) / f"tables-{port}.sqlite3"))


def serve(port: int, database: str, extra: list[str] | tuple = (),
          headers: dict | None = None) -> subprocess.Popen:
    """``byapar serve`` on ``port`` with its tables in ``database``, seats open and no pace
    (``extra``: more flags), returned once ``GET /v1`` answers (with ``headers``)."""
    proc = subprocess.Popen([sys.executable, "-m", "byapar_serve.cli", "--host", "127.0.0.1",
                             "--port", str(port), "--pace-ms", "0", "--open-seats",
                             "--database", database, *extra],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while True:
        try:
            httpx.get(f"http://127.0.0.1:{port}/v1", timeout=2, trust_env=False,
                      headers=headers).raise_for_status()
            return proc
        except httpx.HTTPError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                raise RuntimeError("byapar serve did not start: "
                                   + proc.stderr.read().decode(errors="replace")) from None
            time.sleep(0.2)


def stop_server(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q / 100 * len(ordered)))]


def saved_positions(count: int, seed: int = 0) -> list[dict]:
    """Saved games from seeded games of random legal play, at random points before the end."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        game = Game(Rules(num_players=rng.choice((2, 3, 4, 6))), seed=rng.getrandbits(32))
        stop = rng.randrange(1, 600)
        for _ in range(stop):
            if game.is_over:
                break
            game.apply(rng.choice(game.legal_actions()))
        if not game.is_over:
            out.append(json.loads(game.to_json()))
    return out


def measure_decide(base: str, calls: int) -> dict:
    positions = saved_positions(calls)
    server_ms, client_ms = [], []
    with httpx.Client(base_url=base, timeout=30, trust_env=False) as client:
        for body in positions[:20]:  # warm-up: first imports, caches
            client.post("/v1/decide", json={"game": body, "player": "hard"})
        for body in positions:
            start = time.perf_counter()
            r = client.post("/v1/decide", json={"game": body, "player": "hard"})
            client_ms.append((time.perf_counter() - start) * 1000)
            r.raise_for_status()
            server_ms.append(r.json()["ms"])
    return {"calls": len(positions), "server_ms_median": statistics.median(server_ms),
            "server_ms_p95": percentile(server_ms, 95),
            "client_ms_median": statistics.median(client_ms),
            "client_ms_p95": percentile(client_ms, 95)}


@dataclass
class Tally:
    latencies: dict[str, list[float]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)
    tables: int = 0
    games_finished: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, kind: str, ms: float) -> None:
        with self.lock:
            self.latencies.setdefault(kind, []).append(ms)

    def error(self, text: str) -> None:
        with self.lock:
            self.errors.append(text[:200])


def _timed(client: httpx.Client, tally: Tally, kind: str, method: str, url: str,
           body: dict | None = None) -> dict | None:
    start = time.perf_counter()
    try:
        r = client.request(method, url, json=body)
    except httpx.HTTPError as exc:
        tally.error(f"{kind}: {type(exc).__name__}")
        return None
    tally.add(kind, (time.perf_counter() - start) * 1000)
    if r.status_code >= 400:
        tally.error(f"{kind}: {r.status_code} {r.text}")
        return None
    return r.json() if r.status_code != 204 else {}


def table_worker(base: str, tally: Tally, stop: threading.Event, max_tables: int,
                 seed: int) -> None:
    rng = random.Random(seed)
    with httpx.Client(base_url=base, timeout=30, trust_env=False) as client:
        while not stop.is_set():
            with tally.lock:
                if tally.tables >= max_tables:
                    return
                tally.tables += 1
            seats = list(rng.choice(LINEUPS))
            state = _timed(client, tally, "create", "POST", "/v1/tables",
                           {"seats": seats, "rules": {"rounds": ROUNDS},
                            "seed": rng.getrandbits(31)})
            if state is None:
                continue
            url = f"/v1/tables/{state['id']}"
            steps = 0
            while state is not None and state["to_move"] and not stop.is_set():
                state = _timed(client, tally, "advance", "POST", f"{url}/advance",
                               {"max_decisions": 1})
                steps += 1
                if steps % 10 == 0:
                    _timed(client, tally, "read", "GET", url)
            if state is not None and state["to_move"] is None:
                with tally.lock:
                    tally.games_finished += 1
            _timed(client, tally, "delete", "DELETE", url)


def decide_worker(base: str, tally: Tally, stop: threading.Event) -> None:
    positions = saved_positions(100, seed=1)
    with httpx.Client(base_url=base, timeout=30, trust_env=False) as client:
        i = 0
        while not stop.is_set():
            _timed(client, tally, "decide", "POST", "/v1/decide",
                   {"game": positions[i % len(positions)], "player": "hard"})
            i += 1


def run_load(base: str, seconds: float, workers: int, max_tables: int) -> dict:
    tally = Tally()
    stop = threading.Event()
    threads = [threading.Thread(target=table_worker, args=(base, tally, stop, max_tables, i))
               for i in range(workers)]
    threads.append(threading.Thread(target=decide_worker, args=(base, tally, stop)))
    start = time.perf_counter()
    for t in threads:
        t.start()
    # Stop on the time budget, or as soon as every table worker is done (max_tables reached).
    while time.perf_counter() - start < seconds and any(t.is_alive() for t in threads[:-1]):
        time.sleep(0.05)
    stop.set()
    for t in threads:
        t.join(60)
    elapsed = time.perf_counter() - start
    every = [ms for values in tally.latencies.values() for ms in values]
    by_kind = {k: {"requests": len(v), "p50_ms": percentile(v, 50), "p95_ms": percentile(v, 95),
                   "p99_ms": percentile(v, 99)} for k, v in sorted(tally.latencies.items())}
    return {"seconds": elapsed, "workers": workers, "requests": len(every),
            "requests_per_s": len(every) / elapsed, "p50_ms": percentile(every, 50),
            "p95_ms": percentile(every, 95), "p99_ms": percentile(every, 99),
            "errors": len(tally.errors), "error_examples": tally.errors[:5],
            "tables": tally.tables, "games_finished": tally.games_finished, "by_kind": by_kind}


def applied_once(before: dict, entry: dict) -> dict:
    game = Game.from_json(json.dumps(before["game"]))
    e = entry["engine"]
    game.apply(Action(ActionKind[e["kind"].upper()], e["square"], e["amount"], e["target"],
                      tuple(e["give"]), tuple(e["take"])))
    return game_to_dict(game)


MODES = ("version", "key", "both")


def duplicate_worker(bases: list[str], pairs: list[str], seed: int, out: dict,
                     lock: threading.Lock) -> None:
    """Send each action of ``pairs`` (a guard mode each) twice at once on one table, one copy
    through each of ``bases`` (one server twice, or two servers sharing a database); each
    table is made through one and read back through the other."""
    clients = [httpx.Client(base_url=b, timeout=30, trust_env=False) for b in bases]
    pool = concurrent.futures.ThreadPoolExecutor(2)
    try:
        state = None
        for n, mode in enumerate(pairs):
            if state is None or state["to_move"] is None:
                state = clients[n % 2].post("/v1/tables", json={
                    "seats": ["person", "person"], "seed": seed * 1000 + n}).json()
            url = f"/v1/tables/{state['id']}"
            entry = next((e for e in state["legal"] if e["id"] == 0), state["legal"][0])
            body: dict = {"id": entry["id"]}
            if mode in ("version", "both"):
                body["version"] = state["version"]
            if mode in ("key", "both"):
                body["idempotency_key"] = f"{seed}-{n}"
            barrier = threading.Barrier(2)

            def send(client: httpx.Client, body: dict = body, url: str = url,
                     barrier: threading.Barrier = barrier) -> httpx.Response:
                barrier.wait()
                return client.post(f"{url}/actions", json=body)

            answers = list(pool.map(send, clients))
            after = clients[(n + 1) % 2].get(url).json()
            twice = after["version"] != state["version"] + 1 or (
                after["game"] != applied_once(state, entry))
            codes = ",".join(str(c) for c in sorted(r.status_code for r in answers))
            first_answer = ([r.status_code for r in answers] == [200, 200]
                            and answers[0].content == answers[1].content
                            and sorted(str(r.headers.get("Idempotent-Replayed"))
                                       for r in answers) == ["None", "true"])
            with lock:
                row = out.setdefault(mode, {"pairs": 0, "applied_twice": 0, "answers": {},
                                            "both_first_answer": 0})
                row["pairs"] += 1
                row["applied_twice"] += int(twice)
                row["answers"][codes] = row["answers"].get(codes, 0) + 1
                row["both_first_answer"] += int(first_answer)
            state = after
    finally:
        pool.shutdown()
        for c in clients:
            c.close()


def run_duplicates(bases: list[str], count: int, workers: int) -> dict:
    """``count`` guarded pairs (the three modes in turn) and ``count // 10`` unguarded ones."""
    modes = [MODES[i % 3] for i in range(count)] + ["none"] * (count // 10)
    random.Random(0).shuffle(modes)
    out: dict = {}
    lock = threading.Lock()
    start = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(workers) as tables:
        for done in [tables.submit(duplicate_worker, bases, modes[w::workers], w, out, lock)
                     for w in range(workers)]:
            done.result()
    guarded = [out.get(m, {"pairs": 0, "applied_twice": 0}) for m in MODES]
    return {"seconds": time.perf_counter() - start, "workers": workers,
            "guarded_pairs": sum(r["pairs"] for r in guarded),
            "guarded_applied_twice": sum(r["applied_twice"] for r in guarded),
            "by_mode": out}


def _summary(values: list[float]) -> dict:
    return {"calls": len(values), "p50_ms": percentile(values, 50),
            "p95_ms": percentile(values, 95), "p99_ms": percentile(values, 99),
            "max_ms": max(values) if values else float("nan")}


def _decide_loop(base: str, positions: list[dict], stop: threading.Event,
                 out: dict[str, list[float]], player: str = "hard",
                 budget_ms: float | None = None, limit: int | None = None) -> None:
    """Decide calls one at a time until ``stop`` (or ``limit`` calls): client and server ms."""
    body_extra = {"budget_ms": budget_ms} if budget_ms is not None else {}
    with httpx.Client(base_url=base, timeout=30, trust_env=False) as client:
        i = 0
        while not stop.is_set() and (limit is None or i < limit):
            start = time.perf_counter()
            r = client.post("/v1/decide", json={"game": positions[i % len(positions)],
                                                "player": player, **body_extra})
            ms = (time.perf_counter() - start) * 1000
            i += 1
            if r.status_code != 200:
                out.setdefault("errors", []).append(r.status_code)
                continue
            out.setdefault("client", []).append(ms)
            out.setdefault("server", []).append(r.json()["ms"])
            if r.json().get("searched") is False:  # the expert's prior answered a late search
                out.setdefault("prior", []).append(ms)


def _analyse_loop(base: str, positions: list[dict], stop: threading.Event,
                  out: list[float]) -> None:
    """/v1/analyse at its largest (400 rollouts, 256 expert simulations), one after another."""
    with httpx.Client(base_url=base, timeout=60, trust_env=False) as client:
        i = 0
        while not stop.is_set():
            start = time.perf_counter()
            r = client.post("/v1/analyse", json={"game": positions[i % len(positions)],
                                                 "rollouts": 400, "expert_sims": 256})
            out.append((time.perf_counter() - start) * 1000)
            i += 1
            if r.status_code != 200:
                out.append(-r.status_code)


def run_mixed(base: str, seconds: float) -> dict:
    """hard's decide, one call at a time, alone and then while another client runs analyse
    back to back."""
    positions = saved_positions(200, seed=1)
    alone: dict[str, list[float]] = {}
    stop = threading.Event()
    _decide_loop(base, positions, stop, {}, limit=20)  # warm-up
    _decide_loop(base, positions, stop, alone, limit=200)
    mixed: dict[str, list[float]] = {}
    analyses: list[float] = []
    other = threading.Thread(target=_analyse_loop, args=(base, positions, stop, analyses))
    other.start()
    time.sleep(1.0)  # the first analysis under way
    timer = threading.Timer(seconds, stop.set)
    timer.start()
    _decide_loop(base, positions, stop, mixed)
    other.join()
    return {"seconds": seconds,
            "alone": {"client": _summary(alone["client"]), "server": _summary(alone["server"])},
            "with_analyse": {"client": _summary(mixed["client"]),
                             "server": _summary(mixed["server"]),
                             "errors": len(mixed.get("errors", []))},
            "analyse_ms": _summary([a for a in analyses if a > 0]),
            "analyse_errors": sum(1 for a in analyses if a < 0)}


def run_expert(base: str, budgets: list[float], clients: int, calls: int) -> dict:
    """The expert's decide at each budget, ``clients`` at once, ``calls`` each: round trips."""
    positions = saved_positions(120, seed=2)
    out = {}
    stop = threading.Event()
    _decide_loop(base, positions, stop, {}, player="expert", budget_ms=100, limit=clients)
    for budget in budgets:
        results = [{} for _ in range(clients)]
        threads = [threading.Thread(target=_decide_loop,
                                    args=(base, positions[k::clients], stop, results[k]),
                                    kwargs={"player": "expert", "budget_ms": budget,
                                            "limit": calls}) for k in range(clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        client = [ms for r in results for ms in r.get("client", [])]
        server = [ms for r in results for ms in r.get("server", [])]
        out[str(int(budget))] = {**_summary(client), "clients": clients,
                                 "server": _summary(server),
                                 "errors": sum(len(r.get("errors", [])) for r in results),
                                 "answered_by_prior": sum(len(r.get("prior", []))
                                                          for r in results),
                                 "bar_ms": budget * 1.2}
    return out


def _slow_sender(port: int, stop: threading.Event, size: int, headers_only: bool,
                 out: dict) -> None:
    """A connection that sends a POST's body (or its headers) a byte at a time."""
    import socket

    while not stop.is_set():
        sock = socket.create_connection(("127.0.0.1", port))
        sock.settimeout(1.0)
        head = (f"POST /v1/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json"
                f"\r\nContent-Length: {size}\r\n\r\n").encode()
        data = head if headers_only else head + b" " * size
        start = time.monotonic()
        sent = 0 if headers_only else len(head)
        if not headers_only:
            sock.sendall(head)
        try:
            while sent < len(data) and not stop.is_set():
                sock.send(data[sent:sent + 1])
                sent += 1
                time.sleep(0.2 if headers_only else 0.002)
            reply = sock.recv(200)
        except OSError:
            reply = b""
        key = "slow_headers" if headers_only else "slow_body"
        status = reply[9:12].decode(errors="replace") if reply else "closed"
        with threading.Lock():
            out.setdefault(key, []).append((status, round(time.monotonic() - start, 1)))
        sock.close()


def _large_sender(base: str, stop: threading.Event, out: dict) -> None:
    body = json.dumps({"game": {"format": "byapar-game", "log": ["x" * 60] * 30_000}}).encode()
    with httpx.Client(base_url=base, timeout=60, trust_env=False) as client:
        while not stop.is_set():
            try:
                r = client.post("/v1/decide", content=body,
                                headers={"content-type": "application/json"})
                out.setdefault("large", []).append(r.status_code)
            except httpx.HTTPError as exc:
                out.setdefault("large", []).append(type(exc).__name__)


def _hot_sender(base: str, table: str, stop: threading.Event, out: dict) -> None:
    with httpx.Client(base_url=base, timeout=60, trust_env=False) as client:
        while not stop.is_set():
            try:
                r = client.post(f"/v1/tables/{table}/advance", json={"max_decisions": 1000})
                out.setdefault("hot", []).append(r.status_code)
            except httpx.HTTPError as exc:
                out.setdefault("hot", []).append(type(exc).__name__)


def _rss_mb(pid: int) -> float:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def hostile_clients(base: str, port: int, hot: str, done, conn) -> None:
    """The hostile clients, in a process of their own (as they would be on other machines:
    in the measuring process their 57 threads would delay its own calls): slow bodies and
    slow headers (a byte at a time), 2 MB bodies from 8 clients at once, 45 clients queued on
    one hot table, and analyse back to back; until ``done`` is set, then what they saw goes
    back through ``conn``."""
    positions = saved_positions(100, seed=3)
    stop = threading.Event()
    out: dict = {}
    threads = [threading.Thread(target=_slow_sender, args=(port, stop, 400_000, False, out)),
               threading.Thread(target=_slow_sender, args=(port, stop, 0, True, out))]
    threads += [threading.Thread(target=_large_sender, args=(base, stop, out))
                for _ in range(8)]
    threads += [threading.Thread(target=_hot_sender, args=(base, hot, stop, out))
                for _ in range(45)]
    analyses: list[float] = []
    threads.append(threading.Thread(target=_analyse_loop, args=(base, positions, stop,
                                                                analyses)))
    for t in threads:
        t.start()
    done.wait()
    stop.set()
    for t in threads:
        t.join(30)
    conn.send((out, analyses))


def run_hostile(base: str, port: int, seconds: float, pid: int) -> dict:
    """Fast calls (reads of a quiet table, hard's decide), one at a time, while the hostile
    clients (``hostile_clients``, another process) run."""
    import multiprocessing

    positions = saved_positions(100, seed=3)
    with httpx.Client(base_url=base, timeout=30, trust_env=False) as client:
        hot = client.post("/v1/tables", json={"seats": ["hard"] * 4, "rules": {"rounds": None},
                                              "seed": 1}).json()["id"]
        quiet = client.post("/v1/tables", json={"seats": ["person", "hard"], "seed": 2}
                            ).json()["id"]
    context = multiprocessing.get_context("spawn")
    done = context.Event()
    receiver, sender = context.Pipe(duplex=False)
    hostile = context.Process(target=hostile_clients, args=(base, port, hot, done, sender))
    hostile.start()
    time.sleep(4.0)  # the process started and every hostile client under way
    reads, decides = [], {}
    rss = []
    deadline = time.monotonic() + seconds
    with httpx.Client(base_url=base, timeout=30, trust_env=False) as client:
        i = 0
        while time.monotonic() < deadline:
            start = time.perf_counter()
            r = client.get(f"/v1/tables/{quiet}")
            reads.append((time.perf_counter() - start) * 1000 if r.status_code == 200 else -1)
            start = time.perf_counter()
            r = client.post("/v1/decide", json={"game": positions[i % len(positions)],
                                                "player": "hard"})
            if r.status_code == 200:
                decides.setdefault("client", []).append((time.perf_counter() - start) * 1000)
                decides.setdefault("server", []).append(r.json()["ms"])
            else:
                decides.setdefault("errors", []).append(r.status_code)
            i += 1
            if i % 20 == 0:
                rss.append(_rss_mb(pid))
            time.sleep(0.01)
    done.set()
    out, analyses = receiver.recv()
    hostile.join(30)
    fast = [x for x in reads if x >= 0] + decides.get("client", [])
    count = {k: {str(c): v.count(c) for c in set(v)} for k, v in out.items()
             if k in ("large", "hot")}
    return {"seconds": seconds,
            "fast_calls": _summary(fast),
            "quiet_table_reads": {**_summary([x for x in reads if x >= 0]),
                                  "errors": reads.count(-1)},
            "hard_decide": {**_summary(decides.get("client", [])),
                            "errors": len(decides.get("errors", []))},
            "hard_decide_server": _summary(decides.get("server", [])),
            "analyse_ms": _summary([a for a in analyses if a > 0]),
            "slow_body": out.get("slow_body", [])[:5], "slow_headers": out.get("slow_headers",
                                                                              [])[:5],
            "answers": count, "server_rss_mb_max": max(rss) if rss else float("nan")}


def _print_summary(label: str, row: dict) -> None:
    print(f"  {label:<34} {row['calls']:>5} calls  p50 {row['p50_ms']:7.1f} ms  "
          f"p95 {row['p95_ms']:7.1f} ms  p99 {row['p99_ms']:7.1f} ms  max {row['max_ms']:7.1f} ms")


def run_modes(args: argparse.Namespace) -> dict | None:
    """--mixed, --expert and --hostile: the server under slow and hostile calls."""
    if not (args.mixed or args.expert or args.hostile):
        return None
    port = free_port()
    proc = start_server(port)
    base = f"http://127.0.0.1:{port}"
    result: dict = {}
    try:
        time.sleep(3.0)  # the slow-call workers load their networks
        if args.mixed:
            result["mixed"] = m = run_mixed(base, args.seconds)
            print(f"mixed ({m['seconds']:.0f} s): hard's decide, one call at a time")
            _print_summary("alone, round trip", m["alone"]["client"])
            _print_summary("alone, server ms", m["alone"]["server"])
            _print_summary("while analyse runs, round trip", m["with_analyse"]["client"])
            _print_summary("while analyse runs, server ms", m["with_analyse"]["server"])
            _print_summary("analyse (400 rollouts, 256 sims)", m["analyse_ms"])
        if args.expert:
            result["expert"] = e = run_expert(base, [100.0, 300.0], 4, args.expert)
            print("expert decide, 4 clients at once (round trip):")
            for budget, row in e.items():
                _print_summary(f"budget {budget} ms (bar {row['bar_ms']:.0f})", row)
                _print_summary("  server ms", row["server"])
                print(f"    answered by the prior (search late): {row['answered_by_prior']}")
        if args.hostile:
            result["hostile"] = h = run_hostile(base, port, args.seconds, proc.pid)
            print(f"hostile mix ({h['seconds']:.0f} s): slow bodies and headers, 8 x 2 MB "
                  "bodies, 45 clients on one hot table, analyse")
            _print_summary("fast calls (reads + hard decide)", h["fast_calls"])
            _print_summary("reads of a quiet table", h["quiet_table_reads"])
            _print_summary("hard's decide", h["hard_decide"])
            _print_summary("hard's decide, server ms", h["hard_decide_server"])
            _print_summary("analyse", h["analyse_ms"])
            print(f"  answers: {h['answers']}; slow bodies: {h['slow_body']}; slow headers: "
                  f"{h['slow_headers']}; server RSS max {h['server_rss_mb_max']:.0f} MB")
    finally:
        stop_server(proc)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2)
    return result


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=20.0, help="load phase time budget")
    ap.add_argument("--workers", type=int, default=8, help="concurrent table players (1-32)")
    ap.add_argument("--max-tables", type=int, default=200, help="tables created at most")
    ap.add_argument("--decide-calls", type=int, default=300, help="decide latency samples")
    ap.add_argument("--duplicates", type=int, default=0, metavar="N",
                    help="instead: send N actions twice at once and count those applied twice")
    ap.add_argument("--mixed", action="store_true",
                    help="instead: hard's decide alone, then while another client runs "
                         "analyse (--seconds)")
    ap.add_argument("--expert", type=int, default=0, metavar="CALLS",
                    help="instead: the expert's decide at 100 and 300 ms, 4 clients at once, "
                         "CALLS each")
    ap.add_argument("--hostile", action="store_true",
                    help="instead: the fast calls' latency under a hostile mix (--seconds)")
    ap.add_argument("--json", metavar="PATH", help="also write the figures as JSON")
    args = ap.parse_args(argv)
    modes = run_modes(args)
    if modes is not None:
        return modes
    if not 1 <= args.workers <= 32 or not 0 < args.seconds <= 600 or args.max_tables < 1:
        ap.error("--workers 1 to 32, --seconds up to 600 and --max-tables at least 1")
    if not 0 <= args.duplicates <= 100_000:
        ap.error("--duplicates at most 100,000 (0: the load test instead)")
    port = free_port()
    proc = start_server(port)
    base = f"http://127.0.0.1:{port}"
    if args.duplicates:
        try:
            dup = run_duplicates([base, base], args.duplicates, args.workers)
        finally:
            stop_server(proc)
        print(f"duplicates ({args.workers} tables, {dup['seconds']:.1f} s): "
              f"{dup['guarded_applied_twice']} of {dup['guarded_pairs']} guarded pairs "
              "applied twice")
        for mode, row in sorted(dup["by_mode"].items()):
            answers = ", ".join(f"[{k}] x{v}" for k, v in sorted(row["answers"].items()))
            print(f"  {mode:<8} {row['pairs']:>5} pairs  applied twice {row['applied_twice']:>4}"
                  f"  answers {answers}")
        result = {"duplicates": dup}
        if args.json:
            with open(args.json, "w") as f:
                json.dump(result, f, indent=2)
        return result
    try:
        decide = measure_decide(base, args.decide_calls)
        load = run_load(base, args.seconds, args.workers, args.max_tables)
    finally:
        stop_server(proc)
    print(f"decide (hard, {decide['calls']} saved games, one at a time): server "
          f"{decide['server_ms_median']:.2f} ms median, {decide['server_ms_p95']:.2f} ms p95; "
          f"round trip {decide['client_ms_median']:.2f} ms median, "
          f"{decide['client_ms_p95']:.2f} ms p95")
    print(f"load ({load['workers']} table workers + 1 decide worker, {load['seconds']:.1f} s, "
          f"{load['tables']} tables, {load['games_finished']} games finished): "
          f"{load['requests_per_s']:.0f} requests/s; latency p50 {load['p50_ms']:.1f} ms, "
          f"p95 {load['p95_ms']:.1f} ms, p99 {load['p99_ms']:.1f} ms; errors {load['errors']}")
    for kind, row in load["by_kind"].items():
        print(f"  {kind:<8} {row['requests']:>7} requests  p50 {row['p50_ms']:6.1f} ms  "
              f"p95 {row['p95_ms']:6.1f} ms  p99 {row['p99_ms']:6.1f} ms")
    for example in load["error_examples"]:
        print(f"  error: {example}")
    result = {"decide": decide, "load": load}
    if args.json:
        with open(args.json, "w") as f:
            json.dump(result, f, indent=2)
    return result


if __name__ == "__main__":
    main()
