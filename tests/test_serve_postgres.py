"""byapar serve keeps its tables in PostgreSQL with ``--database postgresql://...``
(``byapar_serve/database_postgres.py``): two server processes on one database play each other's
tables, a process killed with SIGKILL loses nothing, and an action sent to both at once is
applied once. Each test runs a real PostgreSQL server of its own (``bench/temp_postgres.py``,
Debian's ``postgresql`` package); they are skipped only where its programs are not installed.
"""

from __future__ import annotations

import concurrent.futures
import json
import os
import secrets
import signal
import sys
import threading
import urllib.error
import urllib.request
import warnings

import psycopg
import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from test_serve_database import SEATS, _call, _public, _serve, play

from bench.temp_postgres import TempPostgres, server_programs
from byapar_env.engine import Action, ActionKind, Game
from byapar_env.engine.serialize import game_to_dict
from byapar_serve.app import create_app
from byapar_serve.cli import main as serve_main
from byapar_serve.database import SCHEMA_VERSION, DatabaseError, VersionTaken
from byapar_serve.database_open import open_database
from byapar_serve.database_postgres import PostgresDatabase, redact
from byapar_serve.roster import Roster
from byapar_serve.tables import TableStore

ROSTER = Roster()


@pytest.fixture(scope="module")
def server():
    if server_programs() is None:
        pytest.skip("PostgreSQL's server programs (initdb, pg_ctl) are not installed: "
                    "apt-get install postgresql")
    with TempPostgres() as pg:
        yield pg


@pytest.fixture
def url(server) -> str:
    """A new, empty database on the test server."""
    name = f"t_{secrets.token_hex(6)}"
    with psycopg.connect(server.url, autocommit=True) as conn:
        conn.execute(f"create database {name}")
    return server.url.replace("/postgres?", f"/{name}?")


def app_on(url: str) -> TestClient:
    store = TableStore(database=open_database(url), roster=ROSTER)
    return TestClient(create_app(ROSTER, store=store))


# ------------------------------------------------------------------ choosing the database
def test_the_database_is_chosen_by_its_url(tmp_path) -> None:
    db = open_database(f"sqlite:///{tmp_path}/a.sqlite3")  # sqlite:////abs/path
    db.insert("t1", "byapar", 0, False, "snapshot")
    assert (tmp_path / "a.sqlite3").exists() and open_database(str(tmp_path / "a.sqlite3")
                                                               ).ids() == ["t1"]
    with pytest.raises(DatabaseError, match=r"unknown database 'mysql://': give a file path, "
                                            r"sqlite:///PATH or postgresql://"):
        open_database("mysql://user@host/tables")
    with pytest.raises(DatabaseError, match="an SQLite database is sqlite:///PATH"):
        open_database("sqlite://")


def test_postgresql_without_its_driver_is_a_one_line_error(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "psycopg", None)  # import psycopg fails
    monkeypatch.delitem(sys.modules, "byapar_serve.database_postgres")
    with pytest.raises(DatabaseError, match=r"a PostgreSQL database needs the psycopg package "
                                            r".*pip install 'byapar-env\[postgres\]'"):
        open_database("postgresql://postgres@localhost/tables")


def test_serve_names_a_database_it_cannot_use_in_one_line_without_its_password(
        tmp_path, capsys) -> None:
    assert serve_main(["--port", "0", "--database", "mysql://u@h/t"]) == 2
    assert capsys.readouterr().err == ("byapar serve: --database: unknown database 'mysql://': "
                                       "give a file path, sqlite:///PATH or "
                                       "postgresql://USER@HOST/NAME\n")
    url = f"postgresql://byapar:hunter2secret@/tables?host={tmp_path}"  # no server there
    assert serve_main(["--port", "0", "--database", url]) == 2
    err = capsys.readouterr().err
    assert err.startswith("byapar serve: --database: cannot use the database "
                          f"postgresql://byapar:***@/tables?host={tmp_path}: ")
    assert err.count("\n") == 1 and "hunter2secret" not in err
    assert redact("postgres://u@h/db?password=pw&sslmode=require") == (
        "postgres://u@h/db?password=***&sslmode=require")


# ------------------------------------------------------------------ the database's calls
def test_the_compare_and_set_refuses_a_stale_version(url) -> None:
    db = PostgresDatabase(url)
    db.insert("t1", "byapar", 0, False, "zero")
    db.commit("t1", 0, 1, False, "one")
    with pytest.raises(VersionTaken):
        db.commit("t1", 0, 1, False, "another one", ("key", "f", b"b"))
    assert db.load("t1") == "one" and db.reply("t1", "key") is None  # nothing of it written
    assert db.version("t1") == 1 and db.version("t2") is None
    assert not db.delete("t1", version=0) and db.ids() == ["t1"]  # changed since: kept
    assert db.delete("t1", version=1) and db.ids() == [] and db.load("t1") is None


def test_kept_answers_expire_by_age_and_finished_tables_by_the_flag(url) -> None:
    now = [1_000.0]
    db = PostgresDatabase(url, reply_ttl_s=60.0, clock=lambda: now[0])
    db.insert("over", "byapar", 0, False, "snapshot")
    db.insert("on", "byapar", 0, False, "snapshot")
    db.commit("over", 0, 1, True, "a finished game", ("key", "fingerprint", b"body"))
    now[0] += 59.0
    assert db.reply("over", "key") == ("fingerprint", b"body")
    now[0] += 2.0
    assert db.reply("over", "key") is None
    assert db.expire(finished_after_s=100.0) == 0
    with psycopg.connect(url) as raw:  # the old answer is gone from the database too
        assert raw.execute("select count(*) from byapar_replies").fetchone() == (0,)
    now[0] += 50.0
    assert db.expire(finished_after_s=100.0) == 1 and db.ids() == ["on"]


def test_a_newer_schema_is_refused(url) -> None:
    PostgresDatabase(url).insert("t1", "byapar", 0, False, "snapshot")
    with psycopg.connect(url) as raw:
        raw.execute("update byapar_meta set value = %s where key = 'schema'",
                    (str(SCHEMA_VERSION + 1),))
    with pytest.raises(DatabaseError, match=f"has schema {SCHEMA_VERSION + 1}, newer than "
                                            f"this server's {SCHEMA_VERSION}"):
        PostgresDatabase(url)


# ------------------------------------------------------------------ two servers, one database
def test_a_table_made_by_one_process_is_played_by_the_other(url) -> None:
    a, b = app_on(url), app_on(url)
    state = a.post("/v1/tables", json={"seats": SEATS, "seed": 11,
                                       "rules": {"rounds": 12}}).json()
    table = f"/v1/tables/{state['id']}"
    for turn in range(6):  # each plays a stretch of the game, in turn
        state = play(b if turn % 2 == 0 else a, state, 8)
        shown = {k: v for k, v in state.items() if k != "moves"}  # an advance's answer
        assert a.get(table).json() == b.get(table).json() == shown
    assert state["version"] > 20
    # a table deleted by one is gone for the other
    assert a.delete(table).status_code == 204
    assert b.get(table).status_code == 404


def test_a_full_server_drops_a_table_from_the_database_only_if_no_other_changed_it(url) -> None:
    def full_store():  # room for one table, and any table idle long enough to go
        store = TableStore(max_tables=1, idle_evict_s=0.0, database=open_database(url),
                           roster=ROSTER)
        return store, TestClient(create_app(ROSTER, store=store))

    (_, a), (_, b) = full_store(), full_store()
    made = [a.post("/v1/tables", json={"seats": ["person", "person"], "seed": 1}).json()]
    first = f"/v1/tables/{made[0]['id']}"
    assert b.post(f"{first}/actions", json={"id": made[0]["legal"][0]["id"]}).status_code == 200
    for seed in (2, 3):  # each new table makes room by dropping the one before
        made.append(a.post("/v1/tables", json={"seats": ["person", "person"],
                                               "seed": seed}).json())
    second = f"/v1/tables/{made[1]['id']}"
    assert b.get(first).json()["version"] == 1  # kept: the other server played it meanwhile
    assert b.get(second).status_code == 404  # dropped: nobody else had changed it
    assert a.get(first).json()["version"] == 1


def test_a_server_follows_the_database_through_its_restart(url, server) -> None:
    a = app_on(url)
    state = a.post("/v1/tables", json={"seats": ["person", "person"], "seed": 4}).json()
    server.restart()  # every connection the server holds is broken now
    r = a.post(f"/v1/tables/{state['id']}/actions", json={"id": state["legal"][0]["id"]})
    assert r.status_code == 200 and r.json()["version"] == 1


@pytest.mark.skipif(os.name != "posix", reason="SIGKILL")
def test_sigkill_of_one_process_mid_game_and_the_other_goes_on_from_the_same_version(
        url) -> None:
    first, first_base = _serve(url)
    second, second_base = _serve(url)
    try:
        state = _call(f"{first_base}/v1/tables",
                      {"seats": ["person", "medium", "hard", "club"], "seed": 2})
        secret = state["secrets"]["seats"]["0"]
        keyed = []

        def step(base: str, state: dict, n: int) -> dict:
            url_n = f"{base}/v1/tables/{state['id']}"
            if state["to_move"] == "computer":
                return _call(f"{url_n}/advance", {"max_decisions": 5}, secret)
            body = {"id": state["legal"][0]["id"], "idempotency_key": f"a{n}"}
            keyed.append((body, _call(f"{url_n}/actions", body, secret)))
            return keyed[-1][1]

        for n in range(12):  # the two processes take turns
            state = step((first_base, second_base)[n % 2], state, n)
        table = f"{first_base}/v1/tables/{state['id']}"
        before = _call(table, None, secret)
        assert keyed and before["version"] > 5
    finally:
        first.send_signal(signal.SIGKILL)
        first.wait()
    try:
        table = f"{second_base}/v1/tables/{state['id']}"
        assert _public(_call(table, None, secret)) == _public(before)
        for body, answer in list(keyed):  # every keyed action retried: its first answer
            assert _call(f"{table}/actions", body, secret) == answer
        assert _call(table, None, secret)["version"] == before["version"]
        # the game goes on at the second process, and a restarted first one finds it there
        after = step(second_base, before, 12)
        assert after["version"] > before["version"]
        restarted, restarted_base = _serve(url)
        try:
            again = _call(f"{restarted_base}/v1/tables/{state['id']}", None, secret)
            assert again["version"] == after["version"]
        finally:
            restarted.send_signal(signal.SIGKILL)
            restarted.wait()
    finally:
        second.send_signal(signal.SIGKILL)
        second.wait()


def _post(url: str, body: dict) -> tuple[int, bytes, str | None]:
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    req = urllib.request.Request(url, data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    try:
        with opener.open(req, timeout=60) as r:
            return r.status, r.read(), r.headers.get("Idempotent-Replayed")
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read(), None


def _applied_once(before: dict, entry: dict) -> dict:
    game = Game.from_json(json.dumps(before["game"]))
    e = entry["engine"]
    game.apply(Action(ActionKind[e["kind"].upper()], e["square"], e["amount"], e["target"],
                      tuple(e["give"]), tuple(e["take"])))
    return game_to_dict(game)


def test_two_processes_apply_200_concurrent_duplicate_keyed_actions_once(url) -> None:
    """Each action sent with one idempotency key to both processes at the same moment: the
    table moves one action, both get the first answer (one of them replayed)."""
    procs = [_serve(url, "--open-seats") for _ in range(2)]
    tally = {"pairs": 0, "applied_twice": 0, "both_first_answer": 0}
    lock = threading.Lock()

    def table_worker(w: int, pairs: int) -> None:
        pool = concurrent.futures.ThreadPoolExecutor(2)
        state = _call(f"{procs[0][1]}/v1/tables", {"seats": ["person", "person"], "seed": w})
        table = f"/v1/tables/{state['id']}"
        for n in range(pairs):
            entry = state["legal"][0]
            body = {"id": entry["id"], "idempotency_key": f"{w}-{n}"}
            barrier = threading.Barrier(2)

            def send(base: str, body: dict = body, barrier: threading.Barrier = barrier):
                barrier.wait()
                return _post(f"{base}{table}/actions", body)

            answers = list(pool.map(send, [base for _, base in procs]))
            after = _call(f"{procs[w % 2][1]}{table}")
            twice = (after["version"] != state["version"] + 1
                     or after["game"] != _applied_once(state, entry))
            same = ([a[0] for a in answers] == [200, 200] and answers[0][1] == answers[1][1]
                    and sorted(str(a[2]) for a in answers) == ["None", "true"])
            with lock:
                tally["pairs"] += 1
                tally["applied_twice"] += int(twice)
                tally["both_first_answer"] += int(same)
            state = after
        pool.shutdown()

    try:
        with concurrent.futures.ThreadPoolExecutor(4) as tables:
            for done in [tables.submit(table_worker, w, 50) for w in range(4)]:
                done.result()
    finally:
        for proc, _ in procs:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
    assert tally == {"pairs": 200, "applied_twice": 0, "both_first_answer": 200}
