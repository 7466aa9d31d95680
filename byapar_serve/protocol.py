"""uvicorn's HTTP/1.1 connections, bounded against hostile clients (``http_protocol``).

uvicorn parses what a connection sends in the event loop, the one thread every request passes
through, as soon as it is read: all of a read (up to 256 KB) in one go. A body sent in
one-byte chunks makes the parser work per byte (h11, pure Python: about 20 µs a chunk;
httptools: C, still one Python call a chunk), and four such connections kept a quiet read
waiting 9 s. Here, over either of uvicorn's parsers (httptools when it is installed, as
uvicorn itself prefers; h11 otherwise):

- **Turns.** What a connection sent is parsed ``slice_bytes`` at a time, for at most
  ``turn_s`` a turn of the event loop; the rest waits for the next turn (the connection is not
  read meanwhile, so TCP holds the sender back) and the other connections and requests get
  their turns between.
- **Framing.** A body whose bytes on the wire are mostly chunked framing (chunks of a few
  bytes) costs the parser far more than its data: once ``FRAMING_CHECK_BYTES`` of a body have
  come, data must be at least ``MIN_DATA_SHARE`` of them, or the request gets 400
  ``body_chunks_too_small`` and the connection is closed.
- **Early answers.** When the answer goes out before the request's body has come in full (401
  without the token, a refusal, a 404), the rest is not parsed: it is read and dropped for
  ``linger_s`` (so the client can read the answer; at most ``LINGER_BYTES``) and the
  connection closed.
- **Clients.** At most ``client_connections`` connections at once from one address (0: no
  limit); one more gets 429 ``too_many_connections`` and is closed.
- **Headers.** A connection must deliver a request's headers within ``header_timeout_s`` of
  opening (or of the previous answer) or it is closed: uvicorn closes a kept-alive connection
  left idle, but would keep one that sends its headers a byte at a time open for ever.

The body's own bounds (size, rate, time, large-body slots) are ``BodyLimit``'s.
"""

from __future__ import annotations

import asyncio
import http
import json
import time
import weakref
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

from .limits import CLIENT_CONNECTIONS

HEADER_TIMEOUT_S = 10.0
TURN_S = 0.002  # parsing one connection may take of a turn of the event loop
LINGER_S = 1.0
LINGER_BYTES = 1024 * 1024  # dropped after an early answer at most; then closed at once
FRAMING_CHECK_BYTES = 1024
# Chunks of about 60 bytes and more pass (64 of 70 bytes on the wire); one-byte chunks are 1
# of 6. A chunk costs the parser a Python call whatever its size.
MIN_DATA_SHARE = 0.9

# Connections open from each address, per server (its uvicorn ServerState).
_OPEN: weakref.WeakKeyDictionary[Any, dict[str, int]] = weakref.WeakKeyDictionary()


def open_connections(server_state: Any) -> dict[str, int]:
    """The connections open from each client address on the server of ``server_state``."""
    return _OPEN.setdefault(server_state, {})


class Bounded:
    """The bounds above, mixed into one of uvicorn's protocol classes (``http_protocol``)."""

    header_timeout_s = HEADER_TIMEOUT_S
    turn_s = TURN_S
    slice_bytes = 1024  # httptools: a slice of one-byte chunks (170) in about 0.2 ms
    linger_s = LINGER_S
    client_connections = CLIENT_CONNECTIONS

    # uvicorn's protocol sets these; named here for the type checker.
    transport: asyncio.Transport
    loop: asyncio.AbstractEventLoop
    cycle: Any
    flow: Any
    client: tuple[str, int] | None
    server_state: Any

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)  # type: ignore[misc]
        self._pending = b""  # read but not parsed yet, from ``_offset``
        self._offset = 0
        self._scheduled = False
        self._dropping = False
        self._dropped = 0
        self._header_timer: asyncio.TimerHandle | None = None
        self._wire = self._data = 0  # the current body's bytes on the wire and of data
        self._address: str | None = None
        if self.client_connections and self.client:
            counts = open_connections(self.server_state)
            address = self.client[0]
            if counts.get(address, 0) >= self.client_connections:
                self._refuse(429, "too_many_connections",
                             f"at most {self.client_connections} connections at once from one "
                             "address")
                return
            counts[address] = counts.get(address, 0) + 1
            self._address = address
        self._arm()

    # ------------------------------------------------------------------ parsing in turns
    def data_received(self, data: bytes) -> None:
        if self._dropping:
            self._dropped += len(data)
            if self._dropped > LINGER_BYTES:
                self._close()
            return
        if self._offset < len(self._pending):
            self._pending = self._pending[self._offset:] + data
        else:
            self._pending = data
        self._offset = 0
        if not self._scheduled:
            self._parse()
        else:
            self.transport.pause_reading()

    def _parse(self) -> None:
        self._scheduled = False
        start = time.perf_counter()
        view = memoryview(self._pending)
        while self._offset < len(self._pending):
            if self._dropping or self.transport.is_closing():
                return
            piece = bytes(view[self._offset:self._offset + self.slice_bytes])
            self._offset += len(piece)
            cycle = self.cycle
            counted = cycle is not None and cycle.more_body and not cycle.response_complete
            before = len(cycle.body) if counted else 0
            super().data_received(piece)  # type: ignore[misc]
            taker = self.transport.get_protocol()
            if taker is not self:  # upgraded (a websocket): the rest is the new protocol's
                rest, self._pending, self._offset = view[self._offset:].tobytes(), b"", 0
                taker.data_received(rest)
                return
            if self.cycle is not cycle:  # a request's headers came in full
                self._disarm()
                self._wire = self._data = 0
            elif counted:
                self._wire += len(piece)
                self._data += max(0, len(cycle.body) - before)
                if (self._wire >= FRAMING_CHECK_BYTES
                        and self._data < MIN_DATA_SHARE * self._wire):
                    self._refuse(400, "body_chunks_too_small",
                                 f"a chunked body must be at least {MIN_DATA_SHARE:.0%} data "
                                 "on the wire: send chunks of 64 bytes or more")
                    return
            if time.perf_counter() - start >= self.turn_s:
                break
        if self._offset < len(self._pending):
            if not self.transport.is_closing():
                self.transport.pause_reading()
                self._scheduled = True
                self.loop.call_soon(self._parse)
            return
        self._pending, self._offset = b"", 0
        if not self.flow.read_paused and not self.transport.is_closing():
            self.transport.resume_reading()

    # ------------------------------------------------------------------ answers and closing
    def on_response_complete(self) -> None:
        cycle = self.cycle
        super().on_response_complete()  # type: ignore[misc]
        if self.transport.is_closing() or self._dropping:
            return
        if cycle is not None and cycle.more_body:
            self._drop_the_rest()  # answered before its body came in full
            return
        if self.cycle is not cycle:  # a pipelined request began
            self._disarm()
        idle = self.cycle is None or self.cycle.response_complete
        if idle and self._header_timer is None:
            self._arm()

    def _refuse(self, status: int, code: str, detail: str) -> None:
        """Answer ``status`` now (unless an answer has begun), then drop the rest and close;
        a request under way sees its client gone."""
        cycle = self.cycle
        if cycle is None or not cycle.response_started:
            body = json.dumps({"error": code, "detail": detail}).encode()
            self.transport.write(
                f"HTTP/1.1 {status} {http.HTTPStatus(status).phrase}\r\n"
                f"content-type: application/json\r\ncontent-length: {len(body)}\r\n"
                "connection: close\r\n\r\n".encode() + body)
        if cycle is not None and not cycle.response_complete:
            cycle.disconnected = True
            cycle.message_event.set()
        self._drop_the_rest()

    def _drop_the_rest(self) -> None:
        self._dropping = True
        self._pending, self._offset = b"", 0
        self._disarm()
        if not self.transport.is_closing():
            self.transport.resume_reading()  # read and drop, so the client reads the answer
            self.loop.call_later(self.linger_s, self._close)

    def _close(self) -> None:
        if not self.transport.is_closing():
            self.transport.close()

    # ------------------------------------------------------------------ the headers' timer
    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.header_timeout_s, self._close)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._dropping = True
        self._pending, self._offset = b"", 0
        if self._address is not None:
            counts = open_connections(self.server_state)
            counts[self._address] -= 1
            if not counts[self._address]:
                del counts[self._address]
            self._address = None
        super().connection_lost(exc)  # type: ignore[misc]


class BoundedH11Protocol(Bounded, H11Protocol):
    """uvicorn's h11 protocol (pure Python) with the bounds above."""

    slice_bytes = 512  # h11 parses a one-byte chunk in about 20 µs: 512 bytes in about 2 ms


def has_httptools() -> bool:
    try:
        import httptools  # noqa: F401
    except ImportError:
        return False
    return True


def http_protocol(parser: str = "auto", **settings: float) -> type:
    """A protocol class for ``uvicorn.Config(http=...)``: ``parser`` "httptools", "h11" or
    "auto" (httptools when installed), with the bounds above; ``settings`` override its
    class attributes (``header_timeout_s``, ``turn_s``, ``slice_bytes``, ``linger_s``,
    ``client_connections``)."""
    unknown = set(settings) - {"header_timeout_s", "turn_s", "slice_bytes", "linger_s",
                               "client_connections"}
    if unknown:
        raise TypeError(f"unknown protocol settings {sorted(unknown)}")
    if parser == "auto":
        parser = "httptools" if has_httptools() else "h11"
    if parser == "httptools":
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

        base: type = type("BoundedHttpToolsProtocol", (Bounded, HttpToolsProtocol), {})
    elif parser == "h11":
        base = BoundedH11Protocol
    else:
        raise ValueError(f"parser must be httptools, h11 or auto, got {parser!r}")
    return type(base.__name__, (base,), dict(settings)) if settings else base
