"""Tables kept in PostgreSQL (``byapar serve --database postgresql://USER@HOST/NAME``), so that
several server processes, on one machine or several, share them.

The same calls and guarantees as SQLite's ``TableDatabase`` (``database.py``), in tables of
its own (``byapar_meta``, ``byapar_tables``, ``byapar_replies``) so that the database may hold
others: a change and its answer are written in one transaction before the answer is sent, and
the write is an ``update ... where version = before``, a compare-and-set in the database (under
PostgreSQL's row lock the second of two writers at one version finds the row gone and changes
nothing: ``VersionTaken``). Answers to keyed requests are kept ``reply_ttl_s`` seconds; a
database of a newer schema is refused. Needs the ``postgres`` extra (psycopg 3).
"""

from __future__ import annotations

import queue
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

import psycopg

from .database import SCHEMA_VERSION, DatabaseError, VersionTaken, dump_snapshot, load_snapshot

MAX_CONNECTIONS = 4  # a server process's connections at most (its requests wait for one)
CONNECT_TIMEOUT_S = 10
# An advisory lock's key, held only while a server creates or checks the schema, so that two
# starting at once do not both create the tables.
SCHEMA_LOCK = 0x6279_6170_6172  # "byapar"

_SCHEMA = (
    "create table if not exists byapar_meta (key text primary key, value text not null)",
    """create table if not exists byapar_tables (
        id text primary key,
        game_name text not null,
        version bigint not null,
        finished boolean not null,
        updated double precision not null,
        snapshot bytea not null)""",
    """create table if not exists byapar_replies (
        table_id text not null,
        key text not null,
        fingerprint text not null,
        body bytea not null,
        created double precision not null,
        primary key (table_id, key))""",
    "create index if not exists byapar_replies_created on byapar_replies (created)",
)

T = TypeVar("T")


def redact(url: str) -> str:
    """``url`` with its password, if any, shown as ``***`` (it is printed in errors)."""
    url = re.sub(r"^([A-Za-z][A-Za-z0-9+.-]*://[^:/@?#]*):[^@/?#]*@", r"\1:***@", url)
    return re.sub(r"(password=)[^&]*", r"\1***", url)


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split())


class PostgresDatabase:
    """Tables and kept answers in one PostgreSQL database; safe across threads (at most
    ``max_connections`` connections, made as needed)."""

    def __init__(self, url: str, reply_ttl_s: float = 86_400.0,
                 clock: Callable[[], float] = time.time,
                 max_connections: int = MAX_CONNECTIONS) -> None:
        self.url = url
        self.shown = redact(url)
        self.reply_ttl_s = reply_ttl_s
        self.clock = clock
        self._idle: queue.LifoQueue[psycopg.Connection] = queue.LifoQueue()
        self._slots = threading.BoundedSemaphore(max_connections)
        self._run(self._check_schema, retry=False)

    # -------------------------------------------------------------- connections
    def _connect(self) -> psycopg.Connection:
        try:
            return psycopg.connect(self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT_S,
                                   application_name="byapar serve")
        except psycopg.Error as exc:
            raise DatabaseError(f"cannot use the database {self.shown}: {_one_line(exc)}"
                                ) from None

    @contextmanager
    def _connection(self) -> Iterator[tuple[psycopg.Connection, bool]]:
        """A connection, and whether it was made before (it may have broken since)."""
        with self._slots:
            try:
                conn, old = self._idle.get_nowait(), True
            except queue.Empty:
                conn, old = self._connect(), False
            try:
                yield conn, old
            finally:
                if conn.broken or conn.closed:
                    conn.close()
                else:
                    self._idle.put(conn)

    def _run(self, work: Callable[[psycopg.Connection], T], retry: bool = True) -> T:
        """``work`` on a connection; with ``retry`` (work that may safely run twice), once more
        on a new connection when an old one turns out broken (the database restarted since)."""
        while True:
            with self._connection() as (conn, old):
                try:
                    return work(conn)
                except psycopg.Error as exc:
                    if retry and old and conn.broken:
                        continue
                    raise DatabaseError(f"the database {self.shown}: {_one_line(exc)}"
                                        ) from None

    def _check_schema(self, conn: psycopg.Connection) -> None:
        with conn.transaction():
            conn.execute("select pg_advisory_xact_lock(%s)", (SCHEMA_LOCK,))
            if conn.execute("select to_regclass('byapar_meta')").fetchone()[0] is not None:
                row = conn.execute("select value from byapar_meta where key = 'schema'"
                                   ).fetchone()
                if row is not None and int(row[0]) > SCHEMA_VERSION:
                    raise DatabaseError(
                        f"the database {self.shown} has schema {row[0]}, newer than this "
                        f"server's {SCHEMA_VERSION}: run the newer server")
            for statement in _SCHEMA:
                conn.execute(statement)
            conn.execute("insert into byapar_meta values ('schema', %s) "
                         "on conflict (key) do nothing", (str(SCHEMA_VERSION),))

    # -------------------------------------------------------------- tables
    def insert(self, table_id: str, game_name: str, version: int, finished: bool,
               snapshot: object) -> None:
        """A new table."""
        data = dump_snapshot(snapshot)
        self._run(lambda conn: conn.execute(
            "insert into byapar_tables values (%s, %s, %s, %s, %s, %s)",
            (table_id, game_name, version, finished, self.clock(), data)), retry=False)

    def commit(self, table_id: str, before: int, version: int, finished: bool,
               snapshot: object, reply: tuple[str, str, bytes] | None = None) -> None:
        """The table changed from version ``before`` to ``version``: its new snapshot, and the
        answer kept under ``reply`` (key, fingerprint, body), in one transaction.
        ``VersionTaken`` if the row is no longer at ``before`` (another process got there)."""
        data, now = dump_snapshot(snapshot), self.clock()

        def work(conn: psycopg.Connection) -> None:
            with conn.transaction():
                cur = conn.execute(
                    "update byapar_tables set version = %s, finished = %s, updated = %s, "
                    "snapshot = %s where id = %s and version = %s",
                    (version, finished, now, data, table_id, before))
                if cur.rowcount != 1:
                    raise VersionTaken(table_id)
                if reply is not None:
                    key, fingerprint, body = reply
                    conn.execute(
                        "insert into byapar_replies values (%s, %s, %s, %s, %s) "
                        "on conflict (table_id, key) do update set fingerprint = "
                        "excluded.fingerprint, body = excluded.body, created = excluded.created",
                        (table_id, key, fingerprint, body, now))

        self._run(work, retry=False)

    def version(self, table_id: str) -> int | None:
        row = self._run(lambda conn: conn.execute(
            "select version from byapar_tables where id = %s", (table_id,)).fetchone())
        return None if row is None else row[0]

    def load(self, table_id: str) -> object | None:
        """The snapshot of table ``table_id``, or None if there is none."""
        row = self._run(lambda conn: conn.execute(
            "select snapshot from byapar_tables where id = %s", (table_id,)).fetchone())
        return None if row is None else load_snapshot(bytes(row[0]))

    def ids(self) -> list[str]:
        """Every table's id, the most recently changed last."""
        rows = self._run(lambda conn: conn.execute(
            "select id from byapar_tables order by updated").fetchall())
        return [r[0] for r in rows]

    def delete(self, table_id: str, version: int | None = None) -> bool:
        """Drop the table and its kept answers (with ``version``: only if it is still at that
        version); whether it was there to drop."""
        def work(conn: psycopg.Connection) -> bool:
            with conn.transaction():
                gone = conn.execute(
                    "delete from byapar_tables where id = %s and "
                    "(%s::bigint is null or version = %s)",
                    (table_id, version, version)).rowcount == 1
                if gone:
                    conn.execute("delete from byapar_replies where table_id = %s", (table_id,))
                return gone

        return self._run(work, retry=False)

    # -------------------------------------------------------------- kept answers
    def reply(self, table_id: str, key: str) -> tuple[str, bytes] | None:
        """The (fingerprint, body) kept for ``key`` at the table, if younger than the TTL."""
        oldest = self.clock() - self.reply_ttl_s
        row = self._run(lambda conn: conn.execute(
            "select fingerprint, body from byapar_replies where table_id = %s and key = %s "
            "and created >= %s", (table_id, key, oldest)).fetchone())
        return None if row is None else (row[0], bytes(row[1]))

    # -------------------------------------------------------------- expiry
    def expire(self, finished_after_s: float | None) -> int:
        """Drop kept answers older than the TTL, and (with ``finished_after_s``) tables whose
        game ended more than that long ago; returns the tables dropped."""
        now = self.clock()

        def work(conn: psycopg.Connection) -> int:
            with conn.transaction():
                conn.execute("delete from byapar_replies where created < %s",
                             (now - self.reply_ttl_s,))
                if finished_after_s is None:
                    return 0
                old = [r[0] for r in conn.execute(
                    "delete from byapar_tables where finished and updated < %s returning id",
                    (now - finished_after_s,)).fetchall()]
                conn.execute("delete from byapar_replies where table_id = any(%s)", (old,))
                return len(old)

        return self._run(work)

    def close(self) -> None:
        while True:
            try:
                self._idle.get_nowait().close()
            except queue.Empty:
                return
