"""byapar serve bounded under hostile clients (issue 41, section 3): bodies parsed in turns,
bodies of tiny chunks refused, the rest of a body dropped unparsed after an early answer, slow
senders cut off at a minimum rate and holding no large-body slot, bytes being read and
connections bounded per client address, and the expert's pool doing no work for callers who
have gone. Latency figures come from bench/serve_hostile.py, not from here."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import threading
import time
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from byapar_env.engine import Game, Rules
from byapar_env.engine.serialize import game_to_dict
from byapar_serve import cli, slow
from byapar_serve.app import create_app
from byapar_serve.body_limit import BodyLimit
from byapar_serve.protocol import (
    LINGER_BYTES,
    MIN_DATA_SHARE,
    http_protocol,
    open_connections,
)
from byapar_serve.slow import SlowPool

HEAD = (b"POST /v1/decide HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n")


def _serve(app, **protocol):
    import uvicorn

    sock = cli.bind("127.0.0.1", 0)
    server = uvicorn.Server(uvicorn.Config(app, log_level="error",
                                           http=http_protocol(**protocol)))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.02)
    return server, thread, sock.getsockname()[1]


@contextlib.contextmanager
def serving(app, **protocol):
    server, thread, port = _serve(app, **protocol)
    try:
        yield port, server
    finally:
        server.should_exit = True
        thread.join(5)


def _read_all(sock: socket.socket) -> bytes:
    out = b""
    try:
        while chunk := sock.recv(4096):
            out += chunk
    except OSError:
        pass
    return out


def _status(reply: bytes) -> int:
    return int(reply.split(b" ", 2)[1]) if reply.startswith(b"HTTP/1.1 ") else 0


def _get(port: int, path: str, headers: bytes = b"") -> bytes:
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    try:
        sock.sendall(b"GET " + path.encode() + b" HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers
                     + b"Connection: close\r\n\r\n")
        return _read_all(sock)
    finally:
        sock.close()


def _position() -> dict:
    game = Game(Rules(num_players=4), seed=7)
    for _ in range(12):
        game.apply(game.legal_actions()[0])
    return game_to_dict(game)


# ---------------------------------------------------------------- the protocol
@pytest.mark.parametrize("parser", ["httptools", "h11"])
def test_a_body_of_one_byte_chunks_is_refused_and_larger_chunks_pass(parser) -> None:
    pytest.importorskip(parser)
    with serving(create_app(), parser=parser) as (port, _):
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(HEAD + b"Transfer-Encoding: chunked\r\n\r\n")
        with contextlib.suppress(OSError):  # the server may close while this is still sent
            sock.sendall(b"1\r\n \r\n" * 100_000)
        reply = _read_all(sock)
        sock.close()
        assert _status(reply) == 400 and b'"body_chunks_too_small"' in reply
        assert f"{MIN_DATA_SHARE:.0%} data".encode() in reply
        # chunks of a few hundred bytes are data, and pass
        body = b'{"game": {}, "player": "hard"}' + b" " * 20_000
        chunked = b"".join(b"%x\r\n%s\r\n" % (len(body[i:i + 300]), body[i:i + 300])
                           for i in range(0, len(body), 300)) + b"0\r\n\r\n"
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(HEAD + b"Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n" + chunked)
        reply = _read_all(sock)
        sock.close()
        assert _status(reply) == 422 and b'"field":"game"' in reply


class FakeTransport(asyncio.Transport):
    """A transport that records what the protocol does with it."""

    def __init__(self) -> None:
        super().__init__()
        self.reading, self.closing, self.written = True, False, b""
        self.protocol = None

    def get_extra_info(self, name, default=None):
        return {"peername": ("10.0.0.9", 5555), "sockname": ("127.0.0.1", 80)}.get(name)

    def pause_reading(self) -> None:
        self.reading = False

    def resume_reading(self) -> None:
        self.reading = True

    def is_closing(self) -> bool:
        return self.closing

    def write(self, data) -> None:
        self.written += bytes(data)

    def close(self) -> None:
        self.closing = True

    def get_protocol(self):
        return self.protocol


def _connect(app, **settings):
    """A bounded httptools protocol on a ``FakeTransport``, counting the parser's body
    callbacks (``protocol.parsed``); in a running event loop."""
    import uvicorn
    from uvicorn.server import ServerState

    config = uvicorn.Config(app, log_level="error")
    config.load()

    class Counting(http_protocol("httptools", **settings)):
        parsed = 0

        def on_body(self, body: bytes) -> None:
            self.parsed += 1
            super().on_body(body)

    protocol = Counting(config, ServerState(), {})
    transport = FakeTransport()
    transport.protocol = protocol
    protocol.connection_made(transport)
    return protocol, transport


def test_a_connection_is_parsed_a_slice_a_turn_and_reading_waits_meanwhile() -> None:
    pytest.importorskip("httptools")
    seen: list[int] = []

    async def app(scope, receive, send) -> None:
        while True:
            message = await receive()
            seen.append(len(message.get("body", b"")))
            if not message.get("more_body"):
                break
        await send({"type": "http.response.start", "status": 204, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    async def scenario() -> tuple[list[int], bool, list[int], bool]:
        # turn_s 0: one slice a turn, so each turn's work is exactly known
        protocol, transport = _connect(app, turn_s=0.0, slice_bytes=1000)
        body = b"x" * 50_000
        protocol.data_received(b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 50000\r\n\r\n"
                               + body)
        paused = not transport.reading  # more than a slice came: reading waits
        await asyncio.sleep(0)
        first = list(seen)
        for _ in range(200):
            await asyncio.sleep(0)
        return first, paused, list(seen), transport.reading

    first, paused, later, reading = asyncio.run(scenario())
    # The first slice held the headers (and a little body): the app saw at most a slice.
    assert paused and sum(first) < 1000
    assert sum(later) == 50_000 and reading


def test_after_an_early_answer_the_rest_of_the_body_is_not_parsed() -> None:
    pytest.importorskip("httptools")

    async def app(scope, receive, send) -> None:  # answers without reading the body
        await send({"type": "http.response.start", "status": 401, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    async def scenario() -> tuple[int, int, bool, bool]:
        protocol, transport = _connect(app, linger_s=0.05)
        protocol.data_received(b"POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked"
                               b"\r\n\r\n" + b"100\r\n" + b" " * 256 + b"\r\n")
        for _ in range(20):
            await asyncio.sleep(0)  # the app answers
        before = protocol.parsed
        protocol.data_received(b"1\r\n \r\n" * 10_000)  # dropped, not parsed
        after = protocol.parsed
        still_open = not transport.closing
        await asyncio.sleep(0.1)
        # More than LINGER_BYTES dropped: closed at once, whatever is left of the linger.
        flood, flooded = _connect(app, linger_s=60.0)
        flood.data_received(b"POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 9000000\r\n\r\n")
        for _ in range(20):
            await asyncio.sleep(0)
        flood.data_received(b" " * LINGER_BYTES)
        at_the_limit = flooded.closing
        flood.data_received(b" ")
        return before, after, still_open, transport.closing, at_the_limit, flooded.closing

    before, after, still_open, closed, at_the_limit, flooded = asyncio.run(scenario())
    assert before == 1 and after == 1  # the chunk before the answer only
    assert still_open and closed  # the client had the linger to read the answer
    assert not at_the_limit and flooded


def test_an_answer_before_the_body_drops_the_rest_and_closes() -> None:
    token = "t" * 20
    with serving(create_app(token=token), linger_s=0.3) as (port, _):
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        start = time.monotonic()
        sock.sendall(HEAD + b"Content-Length: 400000\r\n\r\n" + b" " * 1000)
        reply = _read_all(sock)  # until the server closes
        took = time.monotonic() - start
        sock.close()
        assert _status(reply) == 401 and b'"token_required"' in reply
        assert took < 3.0  # closed after the linger, not after the keep-alive or any timeout
        ok = _get(port, "/v1/board", b"Authorization: Bearer " + token.encode() + b"\r\n")
        assert _status(ok) == 200


def test_connections_from_one_address_are_bounded() -> None:
    with serving(create_app(), client_connections=2, linger_s=0.2) as (port, server):
        held = [socket.create_connection(("127.0.0.1", port), timeout=10) for _ in range(2)]
        time.sleep(0.2)
        third = _get(port, "/v1/board")
        assert _status(third) == 429 and b'"too_many_connections"' in third
        assert b"at most 2 connections at once from one address" in third
        held.pop().close()
        time.sleep(0.2)
        assert _status(_get(port, "/v1/board")) == 200
        for sock in held:
            sock.close()
        time.sleep(0.2)
        assert open_connections(server.server_state) == {}


# ---------------------------------------------------------------- bodies
def test_a_slow_sender_gets_408_after_the_grace_while_a_quiet_read_answers() -> None:
    app = create_app(min_rate=1000, grace_s=0.5)
    with serving(app) as (port, _):
        sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        sock.sendall(HEAD + b"Content-Length: 5000\r\n\r\n")
        start = time.monotonic()
        reply = b""
        sock.setblocking(False)
        while time.monotonic() - start < 5 and not reply:
            with contextlib.suppress(BlockingIOError):
                reply = sock.recv(4096)
            if not reply:
                with contextlib.suppress(BlockingIOError, OSError):
                    sock.send(b" " * 20)  # 200 bytes a second
                read = _get(port, "/v1/board")
                assert _status(read) == 200
                time.sleep(0.1)
        took = time.monotonic() - start
        sock.close()
        # 20 bytes every 0.1 s or so: under 1,000 a second soon after the 0.5 s of grace
        assert _status(reply) == 408 and b'"body_too_slow"' in reply
        assert b"under 1,000 bytes a second (after the first 0.5 s)" in reply
        assert 0.5 < took < 3.0


class Post:
    """A POST to ``limit`` whose body the test hands over piece by piece (``give``)."""

    def __init__(self, limit: BodyLimit, client: str = "10.0.0.1",
                 declared: int | None = None) -> None:
        self.parts: asyncio.Queue = asyncio.Queue()
        self.sent: list[dict] = []
        headers = [(b"content-length", str(declared).encode())] if declared is not None else []
        scope = {"type": "http", "method": "POST", "headers": headers, "client": (client, 1)}
        self.task = asyncio.ensure_future(limit(scope, self.parts.get, self._send))

    async def _send(self, message: dict) -> None:
        self.sent.append(message)

    async def give(self, size: int, last: bool = False) -> None:
        await self.parts.put({"type": "http.request", "body": b" " * size,
                              "more_body": not last})
        for _ in range(10):  # the middleware takes it and does what follows
            await asyncio.sleep(0)

    @property
    def status(self) -> int | None:
        return self.sent[0]["status"] if self.sent else None


async def _answer(scope, receive, send, release: asyncio.Event | None = None) -> None:
    body = (await receive())["body"]
    if release is not None and len(body) > 1000:
        await release.wait()
    await send({"type": "http.response.start", "status": 200, "headers": []})
    await send({"type": "http.response.body", "body": b""})


def test_large_body_slots_are_taken_only_by_bodies_come_in_full() -> None:
    async def scenario() -> None:
        release = asyncio.Event()

        async def app(scope, receive, send) -> None:
            await _answer(scope, receive, send, release)

        limit = BodyLimit(app, max_bytes=100_000, large_bytes=1000, large_slots=1,
                          large_per_s=100.0, busy_pause_s=0.0, min_rate=0)
        coming = Post(limit, declared=5000)
        await coming.give(10)  # a large body still coming holds no slot
        assert limit.large_in_use == 0
        first = Post(limit, declared=1500)
        await first.give(1500, last=True)  # one come in full takes it, for its whole request
        assert limit.large_in_use == 1 and first.status is None
        second = Post(limit, declared=1500)
        await second.give(1500, last=True)
        assert second.status == 503 and second.sent[1]["body"].startswith(
            b'{"error": "server_busy"')
        small = Post(limit, declared=100)
        await small.give(100, last=True)  # small bodies take none
        assert small.status == 200
        release.set()
        await coming.give(4990, last=True)
        await asyncio.gather(first.task, coming.task)
        assert (first.status, coming.status, limit.large_in_use) == (200, 200, 0)

    asyncio.run(scenario())


def test_bytes_being_read_are_bounded_per_client_address_and_in_all() -> None:
    async def scenario() -> None:
        limit = BodyLimit(_answer, max_bytes=100_000, client_bytes=3000, reading_bytes=5000,
                          min_rate=0)
        a, b = Post(limit), Post(limit)
        for post in (a, b, a):
            await post.give(1000)  # 3,000 from one address: its limit
        await b.give(1000)
        assert (a.status, b.status) == (None, 429)
        assert b.sent[1]["body"].startswith(b'{"error": "client_busy"')
        await a.give(1000, last=True)  # b's bytes were given back
        assert a.status == 200
        x, y, z = Post(limit, "x"), Post(limit, "y"), Post(limit, "z")
        for post in (x, y, z):
            await post.give(1500)
        await x.give(1000)  # 5,500 in all, 2,500 of them x's
        assert x.status == 503 and x.sent[1]["body"].startswith(b'{"error": "server_busy"')
        await y.give(500, last=True)
        await z.give(1000, last=True)
        assert (y.status, z.status) == (200, 200)
        assert limit.reading == 0 and limit.reading_by_client == {}

    asyncio.run(scenario())


# ---------------------------------------------------------------- the expert's pool
def test_a_job_whose_caller_has_gone_is_not_run_and_gives_its_slot_back() -> None:
    pool = SlowPool(workers=0, max_queued=1)  # two slots
    ran: list[int] = []
    gate, started, running = threading.Event(), threading.Event(), threading.Event()

    def held() -> None:
        started.set()
        running.wait(10)

    try:
        busy = pool._pool().submit(gate.wait, 10)  # the one thread is busy (as warming up)
        with pytest.raises(slow.Late):
            pool.run(ran.append, 1, answer_by=time.monotonic() + 0.05)
        assert pool._in_flight == 0  # it was still queued: cancelled, its slot back at once
        with pytest.raises(slow.Late):
            asyncio.run(pool.run_async(ran.append, 2, answer_by=time.monotonic() + 0.05))
        assert pool._in_flight == 0
        # One that reaches the thread after its caller stopped waiting is not run either.
        late = pool._submit(slow.unless_abandoned, (time.monotonic() + 0.05, ran.append, 3))
        time.sleep(0.1)
        gate.set()
        busy.result()
        with pytest.raises(slow.Abandoned):
            late.result(5)
        assert ran == [] and pool._in_flight == 0
        # A job already running keeps its slot until it ends.
        with pytest.raises(slow.Late):
            pool.run(held, answer_by=time.monotonic() + 0.3)
        assert started.is_set() and pool._in_flight == 1
        running.set()
        pool.run(ran.append, 4)
        assert ran == [4] and pool._in_flight == 0
    finally:
        gate.set()
        running.set()
        pool.close()


def test_a_sequential_client_of_quick_expert_calls_is_never_refused() -> None:
    pool = SlowPool(workers=0, max_queued=2)  # three slots
    game = _position()
    client = TestClient(create_app(slow=pool))
    gate = threading.Event()
    try:
        # The one worker is busy (as when it loads its networks at start-up): each call's
        # job waits, its caller answers with the prior at its budget and goes.
        busy = pool._pool().submit(gate.wait, 60)
        codes = []
        for _ in range(20):
            r = client.post("/v1/decide", json={"game": game, "player": "expert",
                                                "budget_ms": 20})
            codes.append((r.status_code, r.json().get("searched")))
        assert codes == [(200, False)] * 20
        assert pool._in_flight == 0
        gate.set()
        busy.result()
        r = client.post("/v1/analyse", json={"game": game, "rollouts": 2, "expert_sims": 4})
        assert r.status_code == 200 and r.json()["rollouts"] == 2
    finally:
        gate.set()
        pool.close()


# ---------------------------------------------------------------- flags
def test_the_hostile_client_flags_are_checked() -> None:
    args = cli.parse_args(["--min-body-rate", "512", "--body-grace-s", "1.5",
                           "--client-connections", "0", "--client-body-bytes", "1000000"])
    assert (args.min_body_rate, args.body_grace_s, args.client_connections,
            args.client_body_bytes) == (512.0, 1.5, 0, 1_000_000)
    defaults = cli.parse_args([])
    assert (defaults.min_body_rate, defaults.body_grace_s, defaults.client_connections,
            defaults.client_body_bytes) == (2048, 2.0, 100, 16 * 1024 * 1024)
    for bad in (["--min-body-rate", "-1"], ["--body-grace-s", "nan"],
                ["--client-connections", "1.5"], ["--client-body-bytes", "0"]):
        with pytest.raises(SystemExit):
            cli.parse_args(bad)


def test_get_v1_lists_the_body_bounds_in_force() -> None:
    from byapar_serve.limits import BODY_GRACE_S, CLIENT_BODY_BYTES, READING_BODY_BYTES

    shown = TestClient(create_app(min_rate=512)).get("/v1").json()["limits"]
    assert shown["min_body_rate"] == 512 and shown["body_grace_s"] == BODY_GRACE_S
    assert shown["reading_body_bytes"] == READING_BODY_BYTES
    assert shown["client_body_bytes"] == CLIENT_BODY_BYTES
