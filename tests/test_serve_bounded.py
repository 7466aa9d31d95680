"""byapar serve bounded under load (issue 26, section 5): slow calls in their own pool with
deadlines checked while they run, per-table queues, body limits, timeouts, the Host
allow-list and the token, no 500 for any body, copied snapshots, unbalanced saves refused.
Timing bars are measured by bench/serve_load.py, not here."""

from __future__ import annotations

import asyncio
import json
import math
import os
import socket
import threading
import time
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from late_pool import LatePool, expert_once_loaded, expert_then_hard

from byapar_env.engine import Game, Rules
from byapar_env.engine.serialize import game_to_dict
from byapar_serve import cli, slow
from byapar_serve.app import create_app
from byapar_serve.guard import LOOPBACK_HOSTS, host_name
from byapar_serve.slow import SlowPool
from byapar_serve.tables import TableStore


def position(seed: int = 7, moves: int = 12) -> Game:
    game = Game(Rules(num_players=4), seed=seed)
    for _ in range(moves):
        game.apply(game.legal_actions()[0])
    return game


# ---------------------------------------------------------------- slow calls and deadlines
def test_analyse_checks_its_deadline_while_rollouts_run() -> None:
    game = position()
    start = time.perf_counter()
    chances, done = slow.win_chances(game, 400, 0, time.perf_counter() + 0.3)
    took = time.perf_counter() - start
    assert took < 0.3 + 0.2  # cut inside a rollout, not after it
    assert 0 <= done < 400 and all(c.rollouts == done for c in chances)
    none, zero = slow.win_chances(game, 10, 0, time.perf_counter() - 1)
    assert zero == 0 and all(c.rate is None and c.ci95 == (0.0, 1.0) for c in none)


def test_analyse_with_all_its_rollouts_matches_the_library() -> None:
    from byapar_harness.analyse import win_chances

    game = position()
    ours, done = slow.win_chances(game, 6, 3, math.inf)
    theirs, done2 = win_chances(game, 6, 3)
    assert done == done2 == 6
    assert [(c.wins, c.rate) for c in ours] == [(c.wins, c.rate) for c in theirs]


def test_analyse_job_bounds_the_expert_and_the_rollouts() -> None:
    game = position()
    start = time.perf_counter()
    # Budgets far beyond what a second allows, on a fast machine too: the deadline cuts both.
    out = slow.analyse_job(game_to_dict(game), 0, 4000, 4096, 0, time.monotonic() + 1.0)
    assert time.perf_counter() - start < 1.0 * 1.2
    assert out["rollouts"] < 4000 and out["expert"]["sims"] < 4096
    with pytest.raises(slow.TooLate):
        slow.analyse_job(game_to_dict(game), 0, 10, 8, 0, time.monotonic())


def test_bounded_expert_skips_a_round_that_does_not_fit_even_the_first() -> None:
    from byapar_agents import expert as expert_module

    saved = expert_module._SIM_SECONDS[0]
    expert_module._SIM_SECONDS[0] = 10.0  # the process measured 10 s a simulation
    try:
        expert = slow.bounded_expert(0, budget_ms=100)
        game = Game(Rules(num_players=3), seed=1)
        while game.phase.name != "BUY":
            game.apply(game.legal_actions()[0])
        evaluation = expert.evaluate(game, 0, 0)
        assert evaluation.sims == 0 and evaluation.choice == 0  # the policy's choice
    finally:
        expert_module._SIM_SECONDS[0] = saved


def test_a_requests_arrival_is_stamped_before_its_body_is_read() -> None:
    from byapar_serve.body_limit import ARRIVED, BodyLimit

    seen = {}

    async def app(scope, receive, send) -> None:
        seen["arrived"] = scope[ARRIVED]
        seen["body"] = (await receive())["body"]

    parts = [{"type": "http.request", "body": b"{}", "more_body": True},
             {"type": "http.request", "body": b"", "more_body": False}]

    async def receive():
        await asyncio.sleep(0.05)  # the body takes a while to arrive
        return parts.pop(0)

    async def send(message) -> None:
        pass

    before = time.monotonic()
    scope = {"type": "http", "method": "POST", "headers": []}
    asyncio.run(BodyLimit(app, max_bytes=1000)(scope, receive, send))
    assert seen["body"] == b"{}" and before <= seen["arrived"] < before + 0.05


def test_large_bodies_are_taken_at_most_so_many_a_second() -> None:
    from byapar_serve.body_limit import BodyLimit

    async def app(scope, receive, send) -> None:
        await receive()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    limited = BodyLimit(app, max_bytes=10_000, large_bytes=100, large_slots=4,
                        large_per_s=2.0, busy_pause_s=0.05)

    async def post(size: int) -> int:
        sent = []

        async def receive():
            return {"type": "http.request", "body": b" " * size, "more_body": False}

        async def send(message) -> None:
            sent.append(message)

        scope = {"type": "http", "method": "POST",
                 "headers": [(b"content-length", str(size).encode())]}
        await limited(scope, receive, send)
        return sent[0]["status"]

    async def burst() -> list[int]:
        return [await post(size) for size in (500, 500, 500, 50)]

    start = time.monotonic()
    # Two large bodies fill the bucket of two a second; the third is refused after the pause;
    # a small body is never counted.
    assert asyncio.run(burst()) == [200, 200, 503, 200]
    assert time.monotonic() - start >= 0.05
    time.sleep(0.6)  # a second's half refills one
    assert asyncio.run(post(500)) == 200


def test_the_body_limits_in_force_are_listed() -> None:
    limits = TestClient(create_app(large_slots=2)).get("/v1").json()["limits"]
    assert limits["large_body_slots"] == 2 and limits["large_body_bytes"] == 256 * 1024
    assert limits["large_bodies_per_s"] > 0 and limits["body_read_timeout_s"] > 0


def test_the_expert_job_leaves_room_for_what_recent_decisions_took_after_their_search(
        monkeypatch) -> None:
    import byapar_serve.decide as decide_module

    seen = []
    real = decide_module.decide

    def recording(player, game, pre_roll=0):
        seen.append(player.deadline - time.perf_counter())
        return real(player, game, pre_roll)

    monkeypatch.setattr(decide_module, "decide", recording)
    game = game_to_dict(position())
    saved = slow._AFTER_SEARCH_S[0]
    try:
        slow._AFTER_SEARCH_S[0] = 0.0
        slow.expert_job(game, 0, 1000.0, time.monotonic() + 1.0, 0, None)
        slow._AFTER_SEARCH_S[0] = 0.5
        slow.expert_job(game, 0, 1000.0, time.monotonic() + 1.0, 0, None)
    finally:
        slow._AFTER_SEARCH_S[0] = saved
    assert 0.7 < seen[0] <= 0.85 and 0.4 < seen[1] <= 0.5


def test_expert_job_answers_even_with_no_time_left() -> None:
    game = position()
    out, state = slow.expert_job(game_to_dict(game), 0, 300.0, time.monotonic() - 1, 0, None)
    assert state is None and out["action"]["kind"] in {"roll", "buy", "decline", "bid",
                                                       "offer_trade", "drop_out"}


def test_slow_pool_refuses_past_its_queue() -> None:
    pool = SlowPool(workers=0, max_queued=1)
    gate = threading.Event()
    try:
        futures = [threading.Thread(target=pool.run, args=(gate.wait, 5)) for _ in range(2)]
        for t in futures:
            t.start()
        time.sleep(0.2)
        from byapar_serve.errors import ServerBusy

        with pytest.raises(ServerBusy):
            pool.run(time.sleep, 0)
        gate.set()
        for t in futures:
            t.join()
        assert pool.run(sum, [1, 2]) == 3  # slots are given back
    finally:
        gate.set()
        pool.close()


def test_a_caller_stops_waiting_at_answer_by_and_the_slot_comes_back_later() -> None:
    pool = SlowPool(workers=0, max_queued=0)
    try:
        start = time.monotonic()
        with pytest.raises(slow.Late):
            pool.run(time.sleep, 0.4, answer_by=start + 0.05)
        assert time.monotonic() - start < 0.3  # answered without waiting for the job
        from byapar_serve.errors import ServerBusy

        with pytest.raises(ServerBusy):  # the late job still holds the one slot
            pool.run(sum, [1])
        time.sleep(0.5)
        assert pool.run(sum, [1, 2], answer_by=time.monotonic() + 5) == 3
        start = time.monotonic()
        with pytest.raises(slow.Late):
            asyncio.run(pool.run_async(time.sleep, 0.4, answer_by=start + 0.05))
        assert time.monotonic() - start < 0.3
        time.sleep(0.5)
        assert asyncio.run(pool.run_async(sum, [4], answer_by=time.monotonic() + 5)) == 4
    finally:
        pool.close()


def test_a_late_expert_answers_with_its_prior_by_its_budget_and_says_so() -> None:
    game = game_to_dict(position())
    with TestClient(create_app(slow=LatePool(workers=0, max_queued=8))) as client:
        r, took, hard = expert_then_hard(client, game, 50)
        assert r.status_code == 200 and took < 0.5
        assert r.json()["searched"] is False and r.json()["player"] == "expert"
        assert r.json()["action"] == hard["action"] and "searched" not in hard
        seats = {"seed": 3, "rules": {"rounds": 5}}
        expert = client.post("/v1/tables", json={"seats": ["expert", "easy"], **seats}).json()
        learned = client.post("/v1/tables", json={"seats": ["hard", "easy"], **seats}).json()
        start = time.monotonic()
        moved = client.post(f"/v1/tables/{expert['id']}/advance", json={"max_decisions": 8})
        assert moved.status_code == 200 and time.monotonic() - start < 3.0
        same = client.post(f"/v1/tables/{learned['id']}/advance", json={"max_decisions": 8})
        assert [m["text"] for m in moved.json()["moves"]] == [
            m["text"] for m in same.json()["moves"]]


def test_expert_and_analyse_through_worker_processes() -> None:
    game = game_to_dict(position())
    with TestClient(create_app(slow=SlowPool(workers=1))) as client:
        r = expert_once_loaded(client, game, 50, tries=40)
        assert r.status_code == 200 and r.json()["player"] == "expert"
        for _ in range(60):  # the worker has loaded once a search answers within a second
            r = client.post("/v1/decide", json={"game": game, "player": "expert",
                                                "budget_ms": 1000})
            if r.json().get("searched"):
                break
        assert r.json()["searched"] is True
        r = client.post("/v1/analyse", json={"game": game, "rollouts": 3, "expert_sims": 4})
        assert r.status_code == 200 and r.json()["rollouts"] == 3
        state = client.post("/v1/tables", json={"seats": ["expert", "easy"], "seed": 3}).json()
        moved = client.post(f"/v1/tables/{state['id']}/advance", json={"max_decisions": 6})
        assert moved.status_code == 200 and len(moved.json()["moves"]) == 6
        assert client.get("/v1").json()["limits"]["slow_workers"] == 1


def test_a_whole_advance_stops_at_its_budget_with_an_expert_seated() -> None:
    store = TableStore(advance_budget_s=0.3)
    client = TestClient(create_app(store=store))
    state = client.post("/v1/tables", json={"seats": ["expert", "expert"], "seed": 2,
                                            "rules": {"rounds": None}}).json()
    start = time.perf_counter()
    moved = client.post(f"/v1/tables/{state['id']}/advance", json={"max_decisions": 1000})
    assert moved.status_code == 200 and 1 <= len(moved.json()["moves"]) < 1000
    assert time.perf_counter() - start < 0.3 + 0.3  # each search bounded by what was left


# ---------------------------------------------------------------- per-table queues
def test_requests_on_one_table_queue_without_holding_threads() -> None:
    from byapar_serve import tables

    store = TableStore()
    client = TestClient(create_app(store=store))
    busy = client.post("/v1/tables", json={"seats": ["person", "easy"], "seed": 1}).json()["id"]
    table = store.get(busy)

    async def scenario() -> tuple[int, int]:
        async with table.queued():
            waiting = [asyncio.create_task(_enter(table)) for _ in range(3)]
            await asyncio.sleep(0.05)
            queued = table._waiting
        await asyncio.gather(*waiting)
        return queued, table._waiting

    assert asyncio.run(scenario()) == (3, 0)
    old = tables.MAX_TABLE_QUEUE
    tables.MAX_TABLE_QUEUE = 0
    try:
        r = client.get(f"/v1/tables/{busy}")
        assert r.status_code == 503 and r.json()["error"] == "table_busy"
    finally:
        tables.MAX_TABLE_QUEUE = old


async def _enter(table) -> None:
    async with table.queued():
        pass


def test_reads_of_other_tables_go_on_while_one_table_is_held() -> None:
    store = TableStore()
    client = TestClient(create_app(store=store))
    busy = client.post("/v1/tables", json={"seats": ["person", "easy"], "seed": 1}).json()["id"]
    quiet = client.post("/v1/tables", json={"seats": ["person", "easy"], "seed": 2}).json()["id"]
    with store.get(busy).locked():  # a long request holds the busy table
        answers = []
        threads = [threading.Thread(target=lambda: answers.append(
            client.get(f"/v1/tables/{busy}").status_code)) for _ in range(45)]
        for t in threads:
            t.start()
        time.sleep(0.3)
        assert client.get(f"/v1/tables/{quiet}").status_code == 200
    for t in threads:
        t.join()
    assert answers == [200] * 45


# ---------------------------------------------------------------- bodies and connections
def _serve(app, header_timeout_s: float = 10.0):
    import uvicorn

    from byapar_serve.protocol import http_protocol

    sock = cli.bind("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(
        app, log_level="error", http=http_protocol(header_timeout_s=header_timeout_s)))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    return server, thread, sock.getsockname()[1]


def _read_all(sock: socket.socket) -> bytes:
    out = b""
    try:
        while chunk := sock.recv(4096):
            out += chunk
    except OSError:
        pass
    return out


def _raw(port: int, data: bytes, wait: float = 5.0) -> bytes:
    """Send ``data`` on a new connection and read what comes back until it closes."""
    sock = socket.create_connection(("127.0.0.1", port))
    sock.settimeout(wait)
    try:
        sock.sendall(data)
        return _read_all(sock)
    finally:
        sock.close()


def test_slow_bodies_and_headers_time_out_and_hold_no_large_body_slot() -> None:
    app = create_app(large_bytes=1000, large_slots=1, read_timeout_s=0.5)
    server, thread, port = _serve(app, header_timeout_s=0.5)
    try:
        head = (b"POST /v1/decide HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                b"application/json\r\nContent-Length: 5000\r\n\r\n")
        # A large body that never finishes holds no slot (slots are taken by bodies come in
        # full): the one slot serves another large body meanwhile...
        holder = socket.create_connection(("127.0.0.1", port))
        holder.sendall(head + b"{" * 10)
        time.sleep(0.1)
        ok = _raw(port, head.replace(b"5000", b"1200").replace(b"1.1\r\n", b"1.1\r\n"
                  b"Connection: close\r\n", 1) + b'{"game": "' + b"x" * 1188 + b'"}')
        assert b" 422 " in ok.split(b"\r\n")[0]
        # ...and the holder's time runs out.
        holder.settimeout(3)
        reply = _read_all(holder)
        holder.close()
        assert b" 408 " in reply.split(b"\r\n")[0] and b'"body_timeout"' in reply
        # Headers that never end are cut off.
        start = time.monotonic()
        assert _raw(port, b"GET /v1 HTTP/1.1\r\nHost: 127", wait=5) == b""
        assert time.monotonic() - start < 3
    finally:
        server.should_exit = True
        thread.join(5)


def test_no_500_for_any_body() -> None:
    client = TestClient(create_app(), raise_server_exceptions=False)
    table = client.post("/v1/tables", json={"seats": ["person", "easy"], "seed": 1}).json()["id"]
    bodies = [r'{"engine": {"kind": "\ud800"}}', r'{"engine": {"\ud800": 1, "kind": "roll"}}',
              r'{"name": "\ud800"}', r'{"\udfff": 1}', r'{"engine": {"kind": "roll", '
              r'"give": ["\ud800"]}}', '{"engine": {"kind": "roll", "square": 1e999}}',
              "[" * 5000, '{"id": 0, "seat": -0.0}', "\x00", '{"name": "' + "\\u0000" * 50 + '"}']
    for body in bodies:
        for path in (f"/v1/tables/{table}/actions", "/v1/decide", "/v1/tables",
                     f"/v1/tables/{table}/advance", f"/v1/tables/{table}/mute"):
            r = client.post(path, content=body.encode("utf-8", "surrogatepass"),
                            headers={"content-type": "application/json"})
            assert 400 <= r.status_code < 500, (path, body[:40], r.status_code)
    r = client.post(f"/v1/tables/{table}/actions",
                    content=rb'{"engine": {"\ud800": 1, "kind": "roll"}}',
                    headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json() == {
        "error": "invalid_input", "detail": "engine has unknown fields ['\\ud800']",
        "field": "engine.?", "allowed": ["kind", "square", "amount", "target", "give", "take"]}


# ---------------------------------------------------------------- who may call
def test_host_names_are_read_without_their_port() -> None:
    assert [host_name(h) for h in ("127.0.0.1:8000", "[::1]:80", "LocalHost", "::1",
                                   "games.example.org:443")] == [
        "127.0.0.1", "::1", "localhost", "::1", "games.example.org"]


def test_only_allowed_host_names_are_served() -> None:
    client = TestClient(create_app(allowed_hosts=LOOPBACK_HOSTS))
    assert client.get("/v1", headers={"host": "127.0.0.1:8000"}).status_code == 200
    assert client.get("/v1", headers={"host": "[::1]:8000"}).status_code == 200
    r = client.get("/v1", headers={"host": "attacker.example:8000"})
    assert r.status_code == 400 and r.json() == {
        "error": "host_not_allowed",
        "detail": "this server answers to 127.0.0.1, ::1, localhost only (byapar serve "
                  "--allow-host NAME adds a name)"}
    assert client.post("/v1/tables", json={"seats": ["easy", "easy"]},
                       headers={"host": "rebound.example"}).status_code == 400
    anyone = TestClient(create_app(allowed_hosts=["*"]))
    assert anyone.get("/v1", headers={"host": "x.example"}).status_code == 200


def test_the_token_is_needed_by_header_cookie_or_the_page_link() -> None:
    token = "s3cret-token-0123456789"
    client = TestClient(create_app(token=token))
    r = client.get("/v1")
    assert r.status_code == 401 and r.json()["error"] == "token_required"
    assert r.headers["www-authenticate"] == "Bearer"
    assert client.get("/v1", headers={"authorization": "Bearer wrong-token-000000"}
                      ).status_code == 401
    assert client.get("/v1", headers={"authorization": f"Bearer {token}"}).status_code == 200
    page = client.get(f"/?token={token}")
    assert page.status_code == 200
    assert page.headers["set-cookie"] == (f"byapar_token={token}; Path=/; HttpOnly; "
                                          "SameSite=Strict")
    assert client.get("/v1").status_code == 200  # the cookie now goes with every request


def test_a_reachable_host_needs_a_token_or_says_it_does_not() -> None:
    with pytest.raises(SystemExit):
        cli.parse_args(["--host", "0.0.0.0"])
    with pytest.raises(SystemExit):
        cli.parse_args(["--host", "0.0.0.0", "--token", "short"])
    args = cli.parse_args(["--host", "0.0.0.0", "--token", "a" * 20,
                           "--allow-host", "games.example.org"])
    assert args.token == "a" * 20
    assert cli.allowed_hosts(args) == [*LOOPBACK_HOSTS, "games.example.org"]
    args = cli.parse_args(["--host", "192.168.1.5", "--no-token"])
    assert args.token is None and cli.allowed_hosts(args) == [*LOOPBACK_HOSTS, "192.168.1.5"]
    args = cli.parse_args([])
    # slow workers: one a core, at most four (the machine's size, not a fixed four)
    cores = os.cpu_count() or 1
    assert (args.host, args.token, args.log_level, args.slow_workers) == (
        "127.0.0.1", None, "warning", max(1, min(4, cores)))
    assert cli.parse_args(["--log-level", "info"]).log_level == "info"


# ---------------------------------------------------------------- state and saves
def test_a_kept_state_does_not_change_as_play_goes_on() -> None:
    client = TestClient(create_app())
    from byapar_serve.state import table_state

    store = client.app.state.store
    state = client.post("/v1/tables", json={"seats": ["easy", "easy"], "seed": 4}).json()
    table = store.get(state["id"])
    with table.locked():
        kept = table_state(table)
    before = json.dumps(kept)
    client.post(f"/v1/tables/{state['id']}/advance", json={"max_decisions": 30})
    assert json.dumps(kept) == before


def test_the_engines_saved_game_is_a_copy_of_its_own() -> None:
    from byapar_env.engine.serialize import game_from_dict

    game = position(seed=3, moves=30)
    kept = game_to_dict(game)
    before = json.dumps(kept)
    for _ in range(40):  # play goes on: cash, owners, positions and the log change
        game.apply(game.legal_actions()[0])
    assert json.dumps(kept) == before
    # ...and changing the copy changes nothing in the game.
    now = game_to_dict(game)
    mutable = [v for v in now.values() if isinstance(v, list | dict)]
    assert mutable
    for v in mutable:
        v.clear()
    assert game_to_dict(game) != now and json.dumps(game_to_dict(game)) == json.dumps(
        game_to_dict(game_from_dict(json.loads(game.to_json()))))


def test_a_save_with_money_from_nowhere_is_refused() -> None:
    client = TestClient(create_app())
    data = game_to_dict(position())
    data["cash"][1] += 10**12
    for path, body in (("/v1/decide", {"game": data}), ("/v1/analyse", {"game": data}),
                       ("/v1/tables", {"game": data, "seats": ["person"] * 4})):
        r = client.post(path, json=body)
        assert r.status_code == 422 and r.json()["error"] == "bad_saved_game", path
        assert r.json()["detail"].startswith("game: UnbalancedMoneyError: saved game's money "
                                             "does not add up")


def test_openapi_types_the_state_and_the_analysis() -> None:
    schema = TestClient(create_app()).get("/openapi.json").json()
    parts = schema["components"]["schemas"]
    assert {"TableState", "AnalyseOut", "ChanceOut", "SeatOut", "StatusOut", "LegalOut"} <= set(
        parts)
    assert parts["TableState"]["properties"]["status"] == {"$ref":
                                                           "#/components/schemas/StatusOut"}
    analyse = schema["paths"]["/v1/analyse"]["post"]["responses"]["200"]
    assert analyse["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/AnalyseOut"}
