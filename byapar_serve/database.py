"""Tables kept in a database, so that a restart, a deploy or a crash loses no game.

``Database`` is what the table store needs of one; ``database_open.open_database`` opens one
by its name (``byapar serve --database``): a file path or ``sqlite:///PATH`` for SQLite, here
(``TableDatabase``), or ``postgresql://...`` for PostgreSQL (``database_postgres.py``, with the
``postgres`` extra), which several server processes on several machines may share.

SQLite, from the standard library: a file beside the server (``byapar serve --database
FILE``), no set-up. Each table is one row: its id, its game, its version, whether its game is
over, when it last changed, and a snapshot of the whole table (the game, the seats, every
computer seat's memory, the counts the server keeps). Each answer to a request that carried an
idempotency key is a row of its own, kept for ``reply_ttl_s`` seconds whatever came between.

A change and the answer it gets are written in one transaction before the answer is sent
(``commit``): a server killed at any point comes back with every answered action, and none
twice. The write is a compare-and-set on the version the change started from, so two server
processes sharing one file never both apply an action at one version (``StaleVersion`` for the
second).

The database has a schema version (``SCHEMA_VERSION``) in its ``meta`` table; a file of a newer
schema is refused (``DatabaseError``) rather than misread, and so is a snapshot written by
another snapshot format. Snapshots are Python pickles: the database is the server's own file,
as trusted as its code, and is never read from a client.
"""

from __future__ import annotations

import pickle
import sqlite3
import threading
import time
from pathlib import Path
from typing import Protocol

SCHEMA_VERSION = 1
# The snapshots' own format (byapar_serve/tables.py ``TableBase.__getstate__``): a server refuses
# rows
# written by another.
SNAPSHOT_FORMAT = 1
MEMORY = ":memory:"


class DatabaseError(RuntimeError):
    """A database this server cannot use (a newer schema, another snapshot format, no access)."""


class VersionTaken(Exception):
    """Another process changed the table first: the version the change started from is gone."""


_SCHEMA = """
create table if not exists meta (key text primary key, value text not null);
create table if not exists tables (
    id text primary key,
    game_name text not null,
    version integer not null,
    finished integer not null,
    updated real not null,
    snapshot blob not null
);
create table if not exists replies (
    table_id text not null,
    key text not null,
    fingerprint text not null,
    body blob not null,
    created real not null,
    primary key (table_id, key)
);
create index if not exists replies_created on replies (created);
"""


class Database(Protocol):
    """What the table store (``byapar_serve/tables.py``) needs of a database, SQLite's or
    PostgreSQL's: the same calls with the same guarantees."""

    reply_ttl_s: float

    def insert(self, table_id: str, game_name: str, version: int, finished: bool,
               snapshot: object) -> None: ...

    def commit(self, table_id: str, before: int, version: int, finished: bool,
               snapshot: object, reply: tuple[str, str, bytes] | None = None) -> None: ...

    def version(self, table_id: str) -> int | None: ...

    def load(self, table_id: str) -> object | None: ...

    def ids(self) -> list[str]: ...

    def delete(self, table_id: str, version: int | None = None) -> bool: ...

    def reply(self, table_id: str, key: str) -> tuple[str, bytes] | None: ...

    def expire(self, finished_after_s: float | None) -> int: ...

    def close(self) -> None: ...


class TableDatabase:
    """One SQLite file (or ``":memory:"``) of tables and kept answers; safe across threads."""

    def __init__(self, path: str | Path, reply_ttl_s: float = 86_400.0,
                 clock=time.time) -> None:
        self.path = str(path)
        self.reply_ttl_s = reply_ttl_s
        self.clock = clock
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None,
                                       timeout=30.0)
            self._db.execute("pragma journal_mode=wal" if self.path != MEMORY
                             else "pragma journal_mode=memory")
            self._db.execute("pragma synchronous=full")
            self._db.executescript(_SCHEMA)
        except sqlite3.Error as exc:
            raise DatabaseError(f"cannot use the database {self.path!r}: {exc}") from None
        self._check_schema()

    def _check_schema(self) -> None:
        with self._lock:
            row = self._db.execute("select value from meta where key = 'schema'").fetchone()
            if row is None:
                self._db.execute("insert into meta values ('schema', ?)", (str(SCHEMA_VERSION),))
                return
        if int(row[0]) > SCHEMA_VERSION:
            raise DatabaseError(f"the database {self.path!r} has schema {row[0]}, newer than "
                                f"this server's {SCHEMA_VERSION}: run the newer server")

    # -------------------------------------------------------------- tables
    def insert(self, table_id: str, game_name: str, version: int, finished: bool,
               snapshot: object) -> None:
        """A new table."""
        with self._lock:
            self._db.execute("insert into tables values (?, ?, ?, ?, ?, ?)",
                             (table_id, game_name, version, int(finished), self.clock(),
                              dump_snapshot(snapshot)))

    def commit(self, table_id: str, before: int, version: int, finished: bool,
               snapshot: object, reply: tuple[str, str, bytes] | None = None) -> None:
        """The table changed from version ``before`` to ``version``: its new snapshot, and the
        answer kept under ``reply`` (key, fingerprint, body), in one transaction.
        ``VersionTaken`` if the row is no longer at ``before`` (another process got there)."""
        now, data = self.clock(), dump_snapshot(snapshot)
        with self._lock:
            db = self._db
            db.execute("begin immediate")
            try:
                cur = db.execute("update tables set version = ?, finished = ?, updated = ?, "
                                 "snapshot = ? where id = ? and version = ?",
                                 (version, int(finished), now, data, table_id, before))
                if cur.rowcount != 1:
                    raise VersionTaken(table_id)
                if reply is not None:
                    key, fingerprint, body = reply
                    db.execute("insert or replace into replies values (?, ?, ?, ?, ?)",
                               (table_id, key, fingerprint, body, now))
                db.execute("commit")
            except BaseException:
                db.execute("rollback")
                raise

    def version(self, table_id: str) -> int | None:
        with self._lock:
            row = self._db.execute("select version from tables where id = ?",
                                   (table_id,)).fetchone()
        return None if row is None else row[0]

    def load(self, table_id: str) -> object | None:
        """The snapshot of table ``table_id``, or None if there is none."""
        with self._lock:
            row = self._db.execute("select snapshot from tables where id = ?",
                                   (table_id,)).fetchone()
        return None if row is None else load_snapshot(row[0])

    def ids(self) -> list[str]:
        """Every table's id, the most recently changed last."""
        with self._lock:
            return [r[0] for r in self._db.execute("select id from tables order by updated")]

    def delete(self, table_id: str, version: int | None = None) -> bool:
        """Drop the table and its kept answers (with ``version``: only if it is still at that
        version); whether it was there to drop."""
        with self._lock:
            db = self._db
            db.execute("begin immediate")
            try:
                cur = db.execute("delete from tables where id = ? and (? is null or version = ?)",
                                 (table_id, version, version))
                if cur.rowcount == 1:
                    db.execute("delete from replies where table_id = ?", (table_id,))
                db.execute("commit")
            except BaseException:
                db.execute("rollback")
                raise
        return cur.rowcount == 1

    # -------------------------------------------------------------- kept answers
    def reply(self, table_id: str, key: str) -> tuple[str, bytes] | None:
        """The (fingerprint, body) kept for ``key`` at the table, if younger than the TTL."""
        with self._lock:
            row = self._db.execute(
                "select fingerprint, body from replies where table_id = ? and key = ? and "
                "created >= ?", (table_id, key, self.clock() - self.reply_ttl_s)).fetchone()
        return None if row is None else (row[0], bytes(row[1]))

    # -------------------------------------------------------------- expiry
    def expire(self, finished_after_s: float | None) -> int:
        """Drop kept answers older than the TTL, and (with ``finished_after_s``) tables whose
        game ended more than that long ago; returns the tables dropped."""
        now = self.clock()
        with self._lock:
            self._db.execute("delete from replies where created < ?", (now - self.reply_ttl_s,))
            if finished_after_s is None:
                return 0
            old = [r[0] for r in self._db.execute(
                "select id from tables where finished = 1 and updated < ?",
                (now - finished_after_s,))]
            for table_id in old:
                self._db.execute("delete from replies where table_id = ?", (table_id,))
                self._db.execute("delete from tables where id = ?", (table_id,))
        return len(old)

    def close(self) -> None:
        with self._lock:
            self._db.close()


def dump_snapshot(snapshot: object) -> bytes:
    """A snapshot as stored, with the snapshot format it was written in."""
    return pickle.dumps((SNAPSHOT_FORMAT, snapshot), protocol=pickle.HIGHEST_PROTOCOL)


def load_snapshot(data: bytes) -> object:
    """A stored snapshot; ``DatabaseError`` for one written in another snapshot format."""
    fmt, snapshot = pickle.loads(data)
    if fmt != SNAPSHOT_FORMAT:
        raise DatabaseError(f"a table snapshot of format {fmt}, not this server's "
                            f"{SNAPSHOT_FORMAT}: run the server that wrote it")
    return snapshot
