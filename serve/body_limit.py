"""An ASGI middleware that refuses request bodies over a size limit with 413.

A declared Content-Length over the limit is refused before anything is read (h11 holds the
body to its declared length). A body sent without one (chunked) is read here first, up to the
limit, and refused as soon as it passes it; within the limit it is handed on to the app as it
came. Either way the server never holds more than the limit for a request.
"""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Receive, Scope, Send

from .errors import TooLarge


class BodyLimit:
    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    def _message(self) -> str:
        return f"request bodies are at most {self.max_bytes:,} bytes"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = next((v for k, v in scope.get("headers", ()) if k == b"content-length"), None)
        if declared is not None:
            if not declared.isdigit() or int(declared) > self.max_bytes:
                await self._refuse(send)  # unreadable lengths are refused, not trusted
                return
            await self.app(scope, receive, send)
            return
        messages, seen = [], 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            seen += len(message.get("body", b""))
            if seen > self.max_bytes:
                await self._refuse(send)
                return
            if not message.get("more_body", False):
                break

        async def replay():
            return messages.pop(0) if messages else await receive()

        await self.app(scope, replay, send)

    async def _refuse(self, send: Send) -> None:
        body = json.dumps(TooLarge(self._message(), field="body").body()).encode()
        await send({"type": "http.response.start", "status": TooLarge.status,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})
