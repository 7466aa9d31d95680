"""uvicorn's HTTP/1.1 protocol (h11) with a time limit on a request's headers.

uvicorn closes a kept-alive connection left idle (``timeout_keep_alive``), but a new
connection that sends nothing, or sends its headers a byte at a time, is kept open for ever:
a few hundred of those hold a server's connections. Here a connection must deliver a
request's headers within ``HEADER_TIMEOUT_S`` of opening (or of the previous response) or it
is closed. The body's own limit is ``BodyLimit``'s (``read_timeout_s``).
"""

from __future__ import annotations

import asyncio

from uvicorn.protocols.http.h11_impl import H11Protocol

HEADER_TIMEOUT_S = 10.0


class TimedH11Protocol(H11Protocol):
    header_timeout_s = HEADER_TIMEOUT_S

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.header_timeout_s, self._too_slow)

    def _disarm(self) -> None:
        timer = getattr(self, "_header_timer", None)
        if timer is not None:
            timer.cancel()
            self._header_timer = None

    def _too_slow(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def handle_events(self) -> None:
        cycle = self.cycle
        super().handle_events()
        if self.cycle is not cycle:  # a request's headers came in full
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        idle = self.cycle is None or self.cycle.response_complete
        if idle and not self.transport.is_closing() and getattr(self, "_header_timer",
                                                                 None) is None:
            self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)
