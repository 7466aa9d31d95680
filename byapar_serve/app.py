"""The web application: the /v1 JSON API, the web table at ``/``, and the error handling that
keeps every answer a short JSON message.

Why FastAPI under uvicorn: request bodies are declared once as typed models, which gives
validation with messages that name the field, and the OpenAPI description (/openapi.json) for
free; requests on a table wait for it in the event loop and then run on the thread pool, so
one table's requests are serialised without holding up the others, and slow calls (the
expert, analyses) run in worker processes (``slow.py``); its TestClient drives the app in
tests without a socket. uvicorn is the standard ASGI server for it, and both were already in
the project's test extra; its HTTP parser is httptools (C) when installed, h11 (Python)
otherwise, each bounded against hostile clients by ``protocol.py``. The page is static HTML,
CSS and JavaScript served from ``byapar_serve/static``: no build step and nothing fetched from
elsewhere.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import FileResponse, JSONResponse, RedirectResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException

from byapar_env import __version__

from .api_info import decide_router, info_router
from .api_replays import replays_router
from .api_tables import tables_router
from .body_limit import BodyLimit
from .errors import ApiError
from .guard import Guard
from .limits import DEFAULT_PACE_MS, MAX_BODY_BYTES
from .roster import Roster
from .slow import SlowPool
from .tables import TableStore

STATIC = Path(__file__).resolve().parent / "static"
log = logging.getLogger("byapar_serve")


def _field(loc: tuple) -> str:
    parts = [str(p) for p in loc if p != "body"]
    return ".".join(parts) or "body"


def _validation_error(_: Request, exc: RequestValidationError) -> JSONResponse:
    errors = exc.errors()
    # Only the location and message of each error: pydantic's "input" would echo a whole
    # request back.
    listed = [{"field": _field(e.get("loc", ())), "message": e.get("msg", "invalid")}
              for e in errors[:10]]
    if any(e.get("type") == "json_invalid" for e in errors):
        return JSONResponse({"error": "invalid_input", "field": "body",
                             "detail": "the request body is not valid JSON"}, status_code=422)
    first = listed[0] if listed else {"field": "body", "message": "invalid request"}
    return _SafeJSON({"error": "invalid_input", "field": first["field"],
                         "detail": f"{first['field']}: {first['message']}", "errors": listed},
                        status_code=422)


class _SafeJSON(JSONResponse):
    """JSON that never fails to encode: an error may name a client's value, and a lone UTF-16
    surrogate (valid in JSON text, not in UTF-8) is written as an escape instead."""

    def render(self, content: object) -> bytes:
        return json.dumps(content, ensure_ascii=True, separators=(",", ":")).encode()


def _api_error(_: Request, exc: ApiError) -> JSONResponse:
    return _SafeJSON(exc.body(), status_code=exc.status)


def _http_error(_: Request, exc: HTTPException) -> JSONResponse:
    code = {404: "not_found", 405: "method_not_allowed"}.get(exc.status_code, "http_error")
    return _SafeJSON({"error": code, "detail": str(exc.detail)}, status_code=exc.status_code,
                        headers=getattr(exc, "headers", None))


def _internal_error(request: Request, exc: Exception) -> JSONResponse:
    # The traceback goes to the server's log only; the client gets one line.
    log.error("internal error on %s %s", request.method, request.url.path, exc_info=exc)
    return JSONResponse({"error": "internal", "detail": "internal server error"},
                        status_code=500)


def create_app(roster: Roster | None = None, pace_ms: int = DEFAULT_PACE_MS,
               store: TableStore | None = None, max_body_bytes: int = MAX_BODY_BYTES,
               cors_origins: Sequence[str] = (), slow: SlowPool | None = None,
               allowed_hosts: Sequence[str] | None = None, token: str | None = None,
               open_seats: bool = True, **body_limits: float) -> FastAPI:
    """The application. ``roster``: the players offered (levels and panel by default);
    ``pace_ms``: the page's default pause between computer moves; ``store``: the tables (and
    their limits); ``cors_origins``: web origins whose pages may call the API from a browser
    (none by default: only the server's own page); ``slow``: the pool for the expert and
    analyses (by default one thread; ``byapar serve`` starts worker processes);
    ``allowed_hosts``: the Host names served (None: any; ``byapar serve`` passes loopback
    names by default); ``token``: the access token every request must carry (none by
    default); ``open_seats``: every client may act and look as any person seat (True: a
    single screen, the default here; ``byapar serve`` passes False unless ``--open-seats``, so
    that each seat is played and seen only with its secret); ``body_limits``: ``BodyLimit``'s
    other bounds."""
    roster = roster or Roster()
    store = store if store is not None else TableStore()
    slow = slow if slow is not None else SlowPool(workers=0)

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        slow.start()  # the workers load the networks while the server starts
        try:
            yield
        finally:
            slow.close()

    # FastAPI's own /docs and /redoc load their scripts from a CDN: /docs here is the
    # project's page (static/docs.html), drawn from /openapi.json with nothing from elsewhere.
    app = FastAPI(title="Byapar", version=__version__, docs_url=None, redoc_url=None,
                  lifespan=lifespan,
                  description="The Byapar web table and decision API, for Byapar and "
                              "Businessman. /v1 never changes incompatibly; fields may be "
                              "added.")
    app.state.slow = slow
    app.state.store = store
    app.state.roster = roster
    app.add_exception_handler(ApiError, _api_error)
    app.add_exception_handler(RequestValidationError, _validation_error)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_exception_handler(Exception, _internal_error)
    app.add_middleware(BodyLimit, max_bytes=max_body_bytes, **body_limits)
    if cors_origins:
        app.add_middleware(CORSMiddleware, allow_origins=list(cors_origins),
                           allow_methods=["GET", "POST", "DELETE"],
                           allow_headers=["Content-Type", "Authorization"],
                           expose_headers=["Idempotent-Replayed"])
    # Outermost: a request from a name the server does not answer to, or without the token,
    # is refused before anything else reads it.
    app.add_middleware(Guard, allowed_hosts=allowed_hosts, token=token)
    app.include_router(info_router(roster, pace_ms, store, slow, max_body_bytes, body_limits))
    app.include_router(decide_router(roster, slow))
    app.include_router(tables_router(roster, store, slow, open_seats))
    app.include_router(replays_router(store, open_seats))
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/docs", include_in_schema=False)
    def docs_page() -> FileResponse:
        return FileResponse(STATIC / "docs.html")

    @app.get("/redoc", include_in_schema=False)
    def redoc() -> RedirectResponse:
        """Where FastAPI's other docs page would be: the one page of docs this server has."""
        return RedirectResponse("/docs")

    return app
