"""byapar serve keeps its tables in SQLite (``byapar_serve/database.py``): a restarted server goes
on
with every game exactly where it stood, keyed answers survive it, two processes on one file
never both apply an action at one version, and a database it cannot read is refused."""

from __future__ import annotations

import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import urllib.request
import warnings

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from byapar_serve.app import create_app
from byapar_serve.database import SCHEMA_VERSION, DatabaseError, TableDatabase, VersionTaken
from byapar_serve.roster import Roster
from byapar_serve.tables import TableStore

ROSTER = Roster()
# Computer seats whose moves depend on the seed alone (no time budget), one of each kind of
# memory: the offers medium tried, a panel style's, a lapsing level's generator, a shared net.
SEATS = ["person", "medium", "strategist", "club"]


def app_on(path, roster: Roster = ROSTER, **options) -> TestClient:
    store = TableStore(database=TableDatabase(path, **options), roster=roster)
    return TestClient(create_app(roster, store=store))


def play(client: TestClient, state: dict, steps: int) -> dict:
    """``steps`` requests: the computers' moves, or the person's first buy-or-roll choice."""
    url = f"/v1/tables/{state['id']}"
    for _ in range(steps):
        if state["to_move"] is None:
            break
        if state["to_move"] == "computer":
            r = client.post(f"{url}/advance", json={"max_decisions": 7})
        else:
            legal = state["legal"]
            pick = next((e for e in legal if e["engine"]["kind"] in ("buy", "roll")), legal[-1])
            r = client.post(f"{url}/actions", json={"id": pick["id"],
                                                    "version": state["version"]})
        assert r.status_code == 200, r.text
        state = r.json()
    return state


def test_a_restarted_server_goes_on_exactly_where_it_stood(tmp_path) -> None:
    db = tmp_path / "tables.sqlite3"
    first = app_on(db)
    state = first.post("/v1/tables", json={"seats": SEATS, "seed": 11,
                                           "rules": {"rounds": 12}}).json()
    state = play(first, state, 40)
    assert state["version"] > 30
    # the server stops; a new one on a copy of the file (the first goes on beside it, alone on
    # its own file, as if it had never stopped)
    copy = tmp_path / "copy.sqlite3"
    with sqlite3.connect(db) as source, sqlite3.connect(copy) as target:
        source.backup(target)
    second = app_on(copy)
    url = f"/v1/tables/{state['id']}"
    assert second.get(url).json() == first.get(url).json()
    # the same requests from here give the same game on both: the computers' memories came back
    after_first, after_second = play(first, state, 60), play(second, state, 60)
    assert after_second == after_first and after_second["version"] > state["version"]


def test_a_keyed_action_is_never_applied_twice_across_restarts_and_many_keys(tmp_path) -> None:
    db = tmp_path / "t.sqlite3"
    client = app_on(db)
    state = client.post("/v1/tables", json={"seats": ["person", "person"], "seed": 3}).json()
    url = f"/v1/tables/{state['id']}"
    answers = {}
    for n in range(60):  # more keys than the memory keeps (its bound is by count)
        if state["legal"] == []:
            break
        body = {"id": state["legal"][0]["id"], "idempotency_key": f"k{n}"}
        r = client.post(f"{url}/actions", json=body)
        assert r.status_code == 200
        answers[f"k{n}"] = (body, r.content)
        state = r.json()
    version = state["version"]
    restarted = app_on(db)
    for _key, (body, content) in reversed(answers.items()):  # every retry, oldest last
        again = restarted.post(f"{url}/actions", json=body)
        assert again.status_code == 200 and again.content == content
        assert again.headers["Idempotent-Replayed"] == "true"
    assert restarted.get(url).json()["version"] == version  # none applied twice


def test_kept_answers_expire_by_age_not_by_count(tmp_path) -> None:
    now = [1_000.0]
    db = TableDatabase(tmp_path / "t.sqlite3", reply_ttl_s=60.0, clock=lambda: now[0])
    db.insert("t1", "byapar", 0, False, {"any": "snapshot"})
    db.commit("t1", 0, 1, False, {"any": "snapshot"}, ("key", "fingerprint", b"body"))
    now[0] += 59.0
    assert db.reply("t1", "key") == ("fingerprint", b"body")
    now[0] += 2.0
    assert db.reply("t1", "key") is None
    db.expire(None)
    assert sqlite3.connect(tmp_path / "t.sqlite3").execute(
        "select count(*) from replies").fetchone() == (0,)


def test_two_processes_on_one_file_never_apply_two_actions_at_one_version(tmp_path) -> None:
    db_path = tmp_path / "shared.sqlite3"
    a, b = app_on(db_path), app_on(db_path)
    state = a.post("/v1/tables", json={"seats": ["person", "person"], "seed": 5}).json()
    url = f"/v1/tables/{state['id']}"
    assert b.get(url).json()["version"] == 0  # the other process finds it
    body = {"id": state["legal"][0]["id"], "version": 0}
    results = []

    def send(client: TestClient) -> None:
        for _ in range(25):
            results.append(client.post(f"{url}/actions", json=body).status_code)

    threads = [threading.Thread(target=send, args=(c,)) for c in (a, b, a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results.count(200) == 1 and results.count(409) == 99
    assert a.get(url).json()["version"] == b.get(url).json()["version"] == 1


def test_the_compare_and_set_refuses_a_stale_version(tmp_path) -> None:
    db = TableDatabase(tmp_path / "t.sqlite3")
    db.insert("t1", "byapar", 0, False, "zero")
    db.commit("t1", 0, 1, False, "one")
    with pytest.raises(VersionTaken):
        db.commit("t1", 0, 1, False, "another one", ("key", "f", b"b"))
    assert db.load("t1") == "one" and db.reply("t1", "key") is None  # nothing of it written


def test_a_newer_schema_or_snapshot_is_refused(tmp_path) -> None:
    path = tmp_path / "t.sqlite3"
    TableDatabase(path).insert("t1", "byapar", 0, False, "snapshot")
    with sqlite3.connect(path) as raw:
        raw.execute("update meta set value = ? where key = 'schema'", (str(SCHEMA_VERSION + 1),))
    with pytest.raises(DatabaseError, match=f"schema {SCHEMA_VERSION + 1}, newer than"):
        TableDatabase(path)
    with sqlite3.connect(path) as raw:
        raw.execute("update meta set value = ? where key = 'schema'", (str(SCHEMA_VERSION),))
        raw.execute("update tables set snapshot = ?",
                    (__import__("pickle").dumps((99, "snapshot")),))
    with pytest.raises(DatabaseError, match="snapshot of format 99"):
        TableDatabase(path).load("t1")


def test_finished_tables_expire_at_start_up(tmp_path) -> None:
    now = [5_000.0]
    path = tmp_path / "t.sqlite3"
    db = TableDatabase(path, clock=lambda: now[0])
    db.insert("over", "byapar", 9, True, "a finished game")
    db.insert("on", "byapar", 9, False, "a game under way")
    now[0] += 100.0
    assert db.expire(finished_after_s=200.0) == 0
    now[0] += 150.0
    assert db.expire(finished_after_s=200.0) == 1
    assert db.ids() == ["on"]


def test_deleting_a_table_deletes_it_from_the_database(tmp_path) -> None:
    db = tmp_path / "t.sqlite3"
    client = app_on(db)
    table = client.post("/v1/tables", json={"seats": ["person", "medium"]}).json()["id"]
    assert client.delete(f"/v1/tables/{table}").status_code == 204
    assert app_on(db).get(f"/v1/tables/{table}").status_code == 404


def _serve(db, *flags: str) -> tuple[subprocess.Popen, str]:
    """``byapar serve`` on a free port with the tables in ``db`` (a file or a URL)."""
    proc = subprocess.Popen([sys.executable, "-m", "byapar_serve.cli", "--port", "0",
                             "--database", str(db), "--slow-workers", "0", *flags],
                            stderr=subprocess.PIPE, text=True)
    line = proc.stderr.readline()
    m = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    assert m, line
    return proc, f"http://127.0.0.1:{m.group(1)}"


def _call(url: str, body: dict | None = None, secret: str = "") -> dict:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if secret:
        headers["X-Seat-Secret"] = secret  # byapar serve plays a seat only for its secret
    req = urllib.request.Request(url, data=data, headers=headers)
    with opener.open(req, timeout=60) as r:
        return json.load(r)


def _public(state: dict) -> dict:
    """A Byapar state less what is drawn afresh for each answer to a seat."""
    game = {k: v for k, v in state["game"].items() if k not in ("rng", "seed", "decks")}
    return {**state, "game": game}


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
def test_sigkill_mid_game_loses_nothing(tmp_path) -> None:
    db = tmp_path / "killed.sqlite3"
    proc, base = _serve(db)
    try:
        state = _call(f"{base}/v1/tables", {"seats": ["person", "medium", "hard", "club"],
                                            "seed": 2})
        secret = state["secrets"]["seats"]["0"]
        url = f"{base}/v1/tables/{state['id']}"
        keyed = []
        for n in range(12):
            if state["to_move"] == "computer":
                state = _call(f"{url}/advance", {"max_decisions": 5}, secret)
            else:
                body = {"id": state["legal"][0]["id"], "idempotency_key": f"a{n}"}
                state = _call(f"{url}/actions", body, secret)
                keyed.append((body, state))
        before = _call(url, None, secret)
        assert keyed and before["version"] > 5
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
    proc, base = _serve(db)
    try:
        url = f"{base}/v1/tables/{state['id']}"
        # the same version, game and legal actions (a seat's view draws what no seat may know,
        # the dice generator and the decks' order, afresh in every answer)
        assert _public(_call(url, None, secret)) == _public(before)
        for body, answer in keyed:  # every keyed action retried: its first answer, not again
            assert _call(f"{url}/actions", body, secret) == answer
        assert _call(url, None, secret)["version"] == before["version"]
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait()
