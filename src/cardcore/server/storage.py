"""Which store ``--db`` names: a ``postgresql://`` URL (``pg_store.py``, several server
processes on one database), else a SQLite file (``store.py``, the embedded default)."""
from __future__ import annotations

from pathlib import Path

from cardcore.server.store import SqlTableStore, TableStore

__all__ = ["open_store", "is_postgres_url"]


def is_postgres_url(db: str | Path) -> bool:
    """Whether ``--db`` names a PostgreSQL database rather than a SQLite file."""
    return str(db).startswith(("postgresql://", "postgres://"))


def open_store(db: str | Path, synchronous: str = "full") -> SqlTableStore:
    """The store ``--db`` names: a ``postgresql://`` URL, else a SQLite file."""
    if is_postgres_url(db):
        from cardcore.server.pg_store import PgTableStore    # psycopg only when asked for
        return PgTableStore(str(db))
    return TableStore(db, synchronous)
