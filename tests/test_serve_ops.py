"""byapar serve for an operator: /docs, limits set by flags and listed by GET /v1, CORS origins
by a flag (none by default), and --port 0 printing the port really bound."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request
import warnings
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's TestClient warns about httpx2 one day
    from fastapi.testclient import TestClient

from byapar_serve import cli
from byapar_serve.app import create_app
from byapar_serve.tables import TableStore

STATIC = Path(__file__).resolve().parent.parent / "byapar_serve" / "static"
ORIGIN = "https://games.example.org"


def test_docs_are_served_from_this_server_only() -> None:
    client = TestClient(create_app())
    r = client.get("/docs")
    assert r.status_code == 200 and "<title>Byapar API</title>" in r.text
    assert '<script src="/static/docs.js">' in r.text
    assert client.get("/static/docs.js").status_code == 200
    for name in ("docs.html", "docs.js"):
        assert not re.search(r"(src|href)=\"https?:", (STATIC / name).read_text()), name
        assert "cdn" not in (STATIC / name).read_text().lower()
    # Every route the page lists is in the description it reads.
    paths = client.get("/openapi.json").json()["paths"]
    assert {"/v1/tables/{table_id}/actions", "/v1/tables/{table_id}/mute"} <= set(paths)
    # FastAPI's other docs address leads to the same page
    redoc = client.get("/redoc", follow_redirects=False)
    assert redoc.status_code == 307 and redoc.headers["location"] == "/docs"


def test_limits_are_set_by_the_store_and_listed() -> None:
    store = TableStore(max_tables=2, idle_evict_s=3600, advance_budget_s=1e-9)
    client = TestClient(create_app(store=store, max_body_bytes=5000))
    limits = client.get("/v1").json()["limits"]
    assert (limits["max_tables"], limits["advance_budget_s"], limits["max_body_bytes"],
            limits["idle_evict_s"]) == (2, 1e-9, 5000, 3600)
    state = client.post("/v1/tables", json={"seats": ["easy", "easy"], "seed": 1}).json()
    moved = client.post(f"/v1/tables/{state['id']}/advance", json={"max_decisions": 50})
    assert len(moved.json()["moves"]) <= 1  # the budget ran out at once
    client.post("/v1/tables", json={"seats": ["easy", "easy"]})
    assert client.post("/v1/tables", json={"seats": ["easy", "easy"]}).status_code == 429
    default = TestClient(create_app(store=TableStore(max_tables=5)))
    state = default.post("/v1/tables", json={"seats": ["easy", "easy"], "seed": 1}).json()
    moved = default.post(f"/v1/tables/{state['id']}/advance", json={"max_decisions": 50})
    assert len(moved.json()["moves"]) == 50
    assert default.get("/v1").json()["limits"]["advance_budget_s"] == 2.0


def test_cors_only_for_the_origins_given() -> None:
    preflight = {"Origin": ORIGIN, "Access-Control-Request-Method": "POST",
                 "Access-Control-Request-Headers": "content-type"}
    closed = TestClient(create_app())
    r = closed.get("/v1", headers={"Origin": ORIGIN})
    assert r.status_code == 200 and "access-control-allow-origin" not in r.headers
    assert "access-control-allow-origin" not in closed.options("/v1/tables",
                                                               headers=preflight).headers
    open_ = TestClient(create_app(cors_origins=[ORIGIN]))
    r = open_.options("/v1/tables", headers=preflight)
    assert r.status_code == 200 and r.headers["access-control-allow-origin"] == ORIGIN
    r = open_.get("/v1", headers={"Origin": "https://elsewhere.example"})
    assert "access-control-allow-origin" not in r.headers


def test_serve_flags_are_checked() -> None:
    args = cli.parse_args(["--max-tables", "500", "--advance-budget-s", "0.5",
                           "--cors-origin", ORIGIN, "--cors-origin", "http://127.0.0.1:3000"])
    assert (args.max_tables, args.advance_budget_s) == (500, 0.5)
    assert args.cors_origin == [ORIGIN, "http://127.0.0.1:3000"]
    defaults = cli.parse_args([])
    assert (defaults.max_tables, defaults.advance_budget_s, defaults.cors_origin) == (64, 2.0, [])
    for bad in (["--max-tables", "0"], ["--max-tables", "x"], ["--advance-budget-s", "nan"],
                ["--advance-budget-s", "0"], ["--cors-origin", "https://x.org/page"],
                ["--cors-origin", "x.org"]):
        with pytest.raises(SystemExit):
            cli.parse_args(bad)


def test_port_0_prints_the_port_bound_and_a_taken_port_is_refused() -> None:
    proc = subprocess.Popen([sys.executable, "-m", "byapar_serve.cli", "--no-database",
                             "--port", "0", "--max-tables", "3"], stderr=subprocess.PIPE,
                            text=True)
    try:
        line = proc.stderr.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert m and m.group(1) != "0", line
        port = int(m.group(1))
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(f"http://127.0.0.1:{port}/v1", timeout=30) as r:
            assert json.load(r)["limits"]["max_tables"] == 3
        second = subprocess.run([sys.executable, "-m", "byapar_serve.cli", "--no-database",
                                 "--port", str(port)], capture_output=True, text=True,
                                timeout=120)
        assert second.returncode == 2
        assert f"cannot listen on 127.0.0.1 port {port}" in second.stderr
        assert "Traceback" not in second.stderr
    finally:
        proc.terminate()
        proc.wait(30)
        proc.stderr.close()


@pytest.mark.parametrize("argv, says", [
    (["--port", "x"], "byapar serve: argument --port: --port must be from 0 to 65535, got 'x' "
                      "(see byapar serve --help)"),
    (["--bogus"], "byapar serve: unrecognized arguments: --bogus (see byapar serve --help)"),
    (["--expire-finished-s", "nan"], "byapar serve: argument --expire-finished-s: seconds must "
                                     "be from 1 to 31,536,000 (a year), got 'nan' (see byapar "
                                     "serve --help)"),
])
def test_a_bad_flag_is_one_line(argv, says) -> None:
    out = subprocess.run([sys.executable, "-m", "byapar_serve.cli", *argv], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 2 and out.stderr == says + "\n" and out.stdout == ""
