"""Which database a name opens: a file path or ``sqlite:///PATH`` for SQLite
(``database.TableDatabase``), ``postgresql://...`` for PostgreSQL (``database_postgres``).
Apart from both so that neither backend imports the other."""

from __future__ import annotations

import time

from .database import Database, DatabaseError, TableDatabase

SQLITE_PREFIX = "sqlite:///"
POSTGRES_SCHEMES = ("postgresql", "postgres")


def open_database(name: str, reply_ttl_s: float = 86_400.0, clock=time.time) -> Database:
    """The database ``name`` names: ``postgresql://...`` (or ``postgres://``) for PostgreSQL,
    ``sqlite:///PATH`` or a plain file path for SQLite. ``DatabaseError`` for another scheme,
    or for PostgreSQL without its driver (the ``postgres`` extra)."""
    scheme, sep, _ = name.partition("://")
    if not sep:
        return TableDatabase(name, reply_ttl_s=reply_ttl_s, clock=clock)
    if scheme.lower() == "sqlite":
        # as SQLAlchemy reads it: sqlite:///rel/path, sqlite:////abs/path
        path = name[len(SQLITE_PREFIX):] if name.startswith(SQLITE_PREFIX) else ""
        if not path:
            raise DatabaseError(f"{name!r}: an SQLite database is sqlite:///PATH (a relative "
                                "path) or sqlite:////PATH (an absolute one)")
        return TableDatabase(path, reply_ttl_s=reply_ttl_s, clock=clock)
    if scheme.lower() in POSTGRES_SCHEMES:
        try:
            from .database_postgres import PostgresDatabase
        except ImportError as exc:
            raise DatabaseError(f"a PostgreSQL database needs the psycopg package ({exc}): "
                                "pip install 'byapar-env[postgres]'") from None
        return PostgresDatabase(name, reply_ttl_s=reply_ttl_s, clock=clock)
    raise DatabaseError(f"unknown database {scheme + '://'!r}: give a file path, "
                        "sqlite:///PATH or postgresql://USER@HOST/NAME")
