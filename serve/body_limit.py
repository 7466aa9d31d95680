"""An ASGI middleware that bounds request bodies: their size, how many large ones are held at
once, and how long one may take to arrive.

- Size: a declared Content-Length over the limit is refused with 413 before anything is read;
  a body sent without one (chunked) is refused as soon as it passes the limit.
- Large bodies: a body over ``large_bytes`` takes one of ``large_slots`` slots for the whole
  request (reading, parsing the JSON, the work); with every slot taken it is refused at once
  with 503 ``server_busy``. Parsed JSON takes about ten times its text in memory, so this
  bounds what bodies can make the server hold: slots x limit x ~10 (4 x 2 MiB x 10: 80 MiB).
- Rate: at most ``large_per_s`` large bodies are taken a second (a bucket of as many, refilled
  evenly): reading and parsing a 2 MB body holds the interpreter lock for tens of ms (the JSON
  parser and the HTTP parser are not interrupted), so a few clients sending them back to back
  would otherwise take most of the server's time from the fast calls. A game's save is far
  under ``large_bytes``; only unusual clients meet this.
- Refusals for being busy are answered after ``busy_pause_s`` (waiting in the event loop,
  holding nothing), so a client that retries at once without reading ``Retry-After`` retries a
  few times a second, not hundreds.
- Time: the whole body must arrive within ``read_timeout_s`` of the request's headers, or the
  request gets 408 ``body_timeout`` and the connection is closed: a client sending a byte at a
  time cannot hold a request (and a slot) open for long.

The body is read here, then handed to the app in one piece.
"""

from __future__ import annotations

import asyncio
import json
import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import TooLarge

# Where the request's arrival (``time.monotonic``, before its body is read) is kept in the ASGI
# scope: a deadline counted from the arrival counts the body's reading and parsing too.
ARRIVED = "byapar.arrived"
LARGE_BODY_BYTES = 256 * 1024
LARGE_BODY_SLOTS = 4
LARGE_BODIES_PER_S = 4.0
BUSY_PAUSE_S = 0.25
BODY_READ_TIMEOUT_S = 15.0


class BodyLimit:
    def __init__(self, app: ASGIApp, max_bytes: int, large_bytes: int = LARGE_BODY_BYTES,
                 large_slots: int = LARGE_BODY_SLOTS,
                 read_timeout_s: float = BODY_READ_TIMEOUT_S,
                 large_per_s: float = LARGE_BODIES_PER_S,
                 busy_pause_s: float = BUSY_PAUSE_S) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.large_bytes = large_bytes
        self.large_slots = large_slots
        self.read_timeout_s = read_timeout_s
        self.large_per_s = large_per_s
        self.busy_pause_s = busy_pause_s
        self.large_in_use = 0  # changed only in the event loop
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
        slot = False
        try:
            if declared is not None and int(declared) > self.large_bytes:
                if not self._take_slot():
                    await self._busy(send)
                    return
                slot = True
            chunks: list[bytes] = []
            seen = 0
            deadline = time.monotonic() + self.read_timeout_s
            last: Message = {"type": "http.request", "body": b"", "more_body": False}
            while True:
                left = deadline - time.monotonic()
                try:
                    message = await asyncio.wait_for(receive(), max(left, 0.0))
                except TimeoutError:
                    await self._refuse(send, 408, "body_timeout",
                                       f"the request body did not arrive within "
                                       f"{self.read_timeout_s:g} s")
                    return
                if message["type"] != "http.request":
                    last = message  # the client went away: the app sees it
                    break
                body = message.get("body", b"")
                seen += len(body)
                if seen > self.max_bytes:
                    await self._refuse(send, TooLarge.status, "body_too_large", self._message())
                    return
                if body:
                    chunks.append(body)
                if not slot and seen > self.large_bytes:
                    if not self._take_slot():
                        await self._busy(send)
                        return
                    slot = True
                if not message.get("more_body", False):
                    break
            first: Message = ({"type": "http.request", "body": b"".join(chunks),
                               "more_body": False} if last["type"] == "http.request" else last)
            chunks.clear()
            given = [first]

            async def replay() -> Message:
                return given.pop() if given else await receive()

            await self.app(scope, replay, send)
        finally:
            if slot:
                self.large_in_use -= 1

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

    async def _busy(self, send: Send) -> None:
        await asyncio.sleep(self.busy_pause_s)
        await self._refuse(send, 503, "server_busy",
                           f"the server takes at most {self.large_slots} large request bodies "
                           f"at once and {self.large_per_s:g} a second; try again in a moment",
                           retry=True)

    async def _refuse(self, send: Send, status: int, code: str, detail: str,
                      retry: bool = False) -> None:
        body = json.dumps({"error": code, "detail": detail, "field": "body"}).encode()
        headers = [(b"content-type", b"application/json"),
                   (b"content-length", str(len(body)).encode()), (b"connection", b"close")]
        if retry:
            headers.append((b"retry-after", b"1"))
        await send({"type": "http.response.start", "status": status, "headers": headers})
        await send({"type": "http.response.body", "body": body})
