"""Who may talk to the server: a Host-header allow-list, and an optional access token.

**Host.** A web page on another site can point its own DNS name at 127.0.0.1 (DNS rebinding)
and then send requests to a server on this machine as if from its own origin; the browser
sends that name in the Host header. So only the names the server is known by are served
(loopback ones by default: ``localhost``, ``127.0.0.1``, ``[::1]``, any port); any other
Host is refused with 400 ``host_not_allowed``. ``--allow-host NAME`` adds a name (``*``
allows any, behind a proxy that checks it).

**Token.** On an address other people can reach (``--host`` not loopback), ``--token``
(or ``BYAPAR_SERVE_TOKEN``) makes every request carry the token: ``Authorization: Bearer
TOKEN`` for a program, or for a browser the page opened once at ``/?token=TOKEN``, which sets
a cookie (HttpOnly, SameSite=Strict) that the page's own requests then carry. Anything else
gets 401 ``token_required``. Tokens are compared in constant time.
"""

from __future__ import annotations

import hmac
import json
from collections.abc import Sequence
from urllib.parse import parse_qs

from starlette.types import ASGIApp, Receive, Scope, Send

LOOPBACK_HOSTS = ("localhost", "127.0.0.1", "::1")
COOKIE = "byapar_token"


def host_name(header: str) -> str:
    """The name in a Host header, without the port; IPv6 without its brackets."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].split("]", 1)[0]
    return header.rsplit(":", 1)[0] if header.count(":") == 1 else header


def is_loopback(host: str) -> bool:
    import ipaddress

    if host.lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


async def _answer(send: Send, status: int, code: str, detail: str,
                  headers: Sequence[tuple[bytes, bytes]] = ()) -> None:
    body = json.dumps({"error": code, "detail": detail}).encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()), *headers]})
    await send({"type": "http.response.body", "body": body})


class Guard:
    """ASGI middleware: the Host allow-list (None: no check) and the token (None: none)."""

    def __init__(self, app: ASGIApp, allowed_hosts: Sequence[str] | None,
                 token: str | None) -> None:
        self.app = app
        self.any_host = allowed_hosts is None or "*" in allowed_hosts
        self.hosts = frozenset(host_name(h) if h != "*" else h for h in allowed_hosts or ())
        self.token = token.encode() if token else None

    def _token_ok(self, scope: Scope) -> tuple[bool, bool]:
        """Whether the request carries the token, and whether it came in the query (the page
        opened with ?token=, which then gets the cookie)."""
        headers = dict(scope.get("headers", ()))
        auth = headers.get(b"authorization", b"")
        if auth[:7].lower() == b"bearer " and hmac.compare_digest(auth[7:].strip(), self.token):
            return True, False
        for part in headers.get(b"cookie", b"").split(b";"):
            name, _, value = part.strip().partition(b"=")
            if name == COOKIE.encode() and hmac.compare_digest(value, self.token):
                return True, False
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        given = query.get("token", [""])[0].encode("latin-1", "replace")
        if given and hmac.compare_digest(given, self.token):
            return True, True
        return False, False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if not self.any_host:
            raw = dict(scope.get("headers", ())).get(b"host", b"").decode("latin-1")
            if host_name(raw) not in self.hosts:
                await _answer(send, 400, "host_not_allowed",
                              f"this server answers to {', '.join(sorted(self.hosts))} only "
                              "(byapar serve --allow-host NAME adds a name)")
                return
        if self.token is None:
            await self.app(scope, receive, send)
            return
        ok, from_query = self._token_ok(scope)
        if not ok:
            await _answer(send, 401, "token_required",
                          "this server needs its access token: the header 'Authorization: "
                          "Bearer TOKEN', or open the page once at /?token=TOKEN",
                          [(b"www-authenticate", b"Bearer")])
            return
        if not from_query:
            await self.app(scope, receive, send)
            return
        cookie = (f"{COOKIE}={self.token.decode()}; Path=/; HttpOnly; SameSite=Strict"
                  ).encode("latin-1")

        async def send_with_cookie(message: dict) -> None:
            if message["type"] == "http.response.start":
                message = {**message,
                           "headers": [*message.get("headers", ()), (b"set-cookie", cookie)]}
            await send(message)

        await self.app(scope, receive, send_with_cookie)
