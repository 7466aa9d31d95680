"""An ASGI middleware that bounds request bodies: their size, how fast they must come, how many
bytes are being read at once, and how many large ones are worked on at once.

- Size: a declared Content-Length over the limit is refused with 413 before anything is read;
  a body sent without one (chunked) is refused as soon as it passes the limit.
- Time and rate: the whole body must arrive within ``read_timeout_s`` of the request's
  headers, and once ``grace_s`` have passed it must have come at ``min_rate`` bytes a second
  on average (by ``t`` seconds, ``min_rate * (t - grace_s)`` bytes); otherwise 408
  (``body_timeout``, ``body_too_slow``) and the connection is closed. A client sending a few
  bytes a second cannot hold a request open for long.
- Bytes being read: the bodies still coming in hold at most ``reading_bytes`` in all and
  ``client_bytes`` from one client address, counted as they arrive; past that a request gets
  503 ``server_busy`` (in all) or 429 ``client_busy`` (its address). A slow sender holds only
  what it has sent, and only while it keeps the rate.
- Large bodies: a body over ``large_bytes`` takes one of ``large_slots`` slots once it has
  come in full, for the rest of the request (parsing the JSON, the work); with every slot
  taken it is refused with 503 ``server_busy``. A body still coming takes no slot, so slow
  senders cannot hold them. Parsed JSON takes about ten times its text in memory, so this
  bounds what bodies can make the server hold: slots x limit x ~10 (4 x 2 MiB x 10: 80 MiB).
- Rate of large bodies: at most ``large_per_s`` are taken a second (a bucket of as many,
  refilled evenly): parsing a 2 MB body holds the interpreter lock for tens of ms, so a few
  clients sending them back to back would otherwise take most of the server's time from the
  fast calls. A game's save is far under ``large_bytes``; only unusual clients meet this.
- Refusals for being busy are answered after ``busy_pause_s`` (waiting in the event loop,
  holding nothing), so a client that retries at once without reading ``Retry-After`` retries a
  few times a second, not hundreds.

The body is read here, then handed to the app in one piece.
"""

from __future__ import annotations

import asyncio
import json
import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import TooLarge
from .limits import BODY_GRACE_S, BODY_MIN_RATE, CLIENT_BODY_BYTES, READING_BODY_BYTES

# Where the request's arrival (``time.monotonic``, before its body is read) is kept in the ASGI
# scope: a deadline counted from the arrival counts the body's reading and parsing too.
ARRIVED = "byapar.arrived"
LARGE_BODY_BYTES = 256 * 1024
LARGE_BODY_SLOTS = 4
LARGE_BODIES_PER_S = 4.0
BUSY_PAUSE_S = 0.25
BODY_READ_TIMEOUT_S = 15.0


class _Refused(Exception):
    def __init__(self, status: int, code: str, detail: str, retry: bool = False) -> None:
        super().__init__(detail)
        self.status, self.code, self.detail, self.retry = status, code, detail, retry


class BodyLimit:
    def __init__(self, app: ASGIApp, max_bytes: int, large_bytes: int = LARGE_BODY_BYTES,
                 large_slots: int = LARGE_BODY_SLOTS,
                 read_timeout_s: float = BODY_READ_TIMEOUT_S,
                 large_per_s: float = LARGE_BODIES_PER_S,
                 busy_pause_s: float = BUSY_PAUSE_S, min_rate: float = BODY_MIN_RATE,
                 grace_s: float = BODY_GRACE_S, reading_bytes: int = READING_BODY_BYTES,
                 client_bytes: int = CLIENT_BODY_BYTES) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.large_bytes = large_bytes
        self.large_slots = large_slots
        self.read_timeout_s = read_timeout_s
        self.large_per_s = large_per_s
        self.busy_pause_s = busy_pause_s
        self.min_rate = min_rate
        self.grace_s = grace_s
        self.reading_bytes = reading_bytes
        self.client_bytes = client_bytes
        # Changed only in the event loop:
        self.large_in_use = 0
        self.reading = 0  # bytes of bodies still coming in, in all and by client address
        self.reading_by_client: dict[str, int] = {}
        self._tokens = max(large_per_s, 1.0)  # the rate's bucket, and when it was filled
        self._filled = time.monotonic()

    def _message(self) -> str:
        return f"request bodies are at most {self.max_bytes:,} bytes"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            scope[ARRIVED] = time.monotonic()
        if scope["type"] != "http" or scope.get("method") in ("GET", "HEAD", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        declared = next((v for k, v in scope.get("headers", ()) if k == b"content-length"), None)
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._refuse(send, TooLarge.status, "body_too_large", self._message())
            return
        client = (scope.get("client") or ("",))[0]
        held = [0]
        slot = False
        try:
            try:
                first = await self._read(scope[ARRIVED], receive, client, held)
                self._release(client, held)
                if first["type"] == "http.request" and len(first["body"]) > self.large_bytes:
                    if not self._take_slot():
                        await asyncio.sleep(self.busy_pause_s)
                        raise _Refused(503, "server_busy", self._busy_text(), retry=True)
                    slot = True
            except _Refused as refused:
                self._release(client, held)
                await self._refuse(send, refused.status, refused.code, refused.detail,
                                   refused.retry)
                return
            if first["type"] != "http.request":
                return  # the client went before its body came in full: no one to answer
            given = [first]

            async def replay() -> Message:
                return given.pop() if given else await receive()

            await self.app(scope, replay, send)
        finally:
            self._release(client, held)
            if slot:
                self.large_in_use -= 1

    async def _read(self, begun: float, receive: Receive, client: str,
                    held: list[int]) -> Message:
        """The whole body as one message (or the client's going away), within the time and
        rate bounds, counting what it holds meanwhile in ``held``; ``_Refused`` otherwise."""
        chunks: list[bytes] = []
        seen = 0
        deadline = begun + self.read_timeout_s
        while True:
            # The rate's bound falls due when the bytes seen stop covering it.
            due = begun + self.grace_s + seen / self.min_rate if self.min_rate > 0 else deadline
            try:
                message = await asyncio.wait_for(receive(),
                                                 max(min(due, deadline) - time.monotonic(), 0.0))
            except TimeoutError:
                if due < deadline:
                    raise _Refused(408, "body_too_slow",
                                   f"the request body came at under {self.min_rate:,.0f} bytes a "
                                   f"second (after the first {self.grace_s:g} s)") from None
                raise _Refused(408, "body_timeout", f"the request body did not arrive within "
                                                    f"{self.read_timeout_s:g} s") from None
            if message["type"] != "http.request":
                return message  # the client went away
            body = message.get("body", b"")
            seen += len(body)
            if seen > self.max_bytes:
                raise _Refused(TooLarge.status, "body_too_large", self._message())
            if body:
                self._hold(client, len(body), held)
                chunks.append(body)
            if not message.get("more_body", False):
                return {"type": "http.request", "body": b"".join(chunks), "more_body": False}

    def _hold(self, client: str, size: int, held: list[int]) -> None:
        mine = self.reading_by_client.get(client, 0)
        if mine + size > self.client_bytes:
            raise _Refused(429, "client_busy",
                           f"the server reads at most {self.client_bytes:,} bytes of request "
                           "bodies at once from one address; try again in a moment", retry=True)
        if self.reading + size > self.reading_bytes:
            raise _Refused(503, "server_busy",
                           f"the server reads at most {self.reading_bytes:,} bytes of request "
                           "bodies at once; try again in a moment", retry=True)
        self.reading_by_client[client] = mine + size
        self.reading += size
        held[0] += size

    def _release(self, client: str, held: list[int]) -> None:
        if not held[0]:
            return
        self.reading -= held[0]
        left = self.reading_by_client[client] - held[0]
        if left:
            self.reading_by_client[client] = left
        else:
            del self.reading_by_client[client]
        held[0] = 0

    def _take_slot(self) -> bool:
        now = time.monotonic()
        size = max(self.large_per_s, 1.0)
        self._tokens = min(size, self._tokens + (now - self._filled) * self.large_per_s)
        self._filled = now
        if self.large_in_use >= self.large_slots or self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        self.large_in_use += 1
        return True

    def _busy_text(self) -> str:
        return (f"the server takes at most {self.large_slots} large request bodies at once "
                f"and {self.large_per_s:g} a second; try again in a moment")

    async def _refuse(self, send: Send, status: int, code: str, detail: str,
                      retry: bool = False) -> None:
        body = json.dumps({"error": code, "detail": detail, "field": "body"}).encode()
        headers = [(b"content-type", b"application/json"),
                   (b"content-length", str(len(body)).encode()), (b"connection", b"close")]
        if retry:
            headers.append((b"retry-after", b"1"))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
