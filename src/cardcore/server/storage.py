"""Which store ``--db`` names: a ``postgresql://`` URL (``pg_store.py``, several server
processes on one database), else a SQLite file (``store.py``, the embedded default).

A store that cannot be opened is a ``ConfigError`` of one line naming the cause and the fix
(``cardcore serve`` and ``cardcore admin`` print it and exit with 2), not a traceback.
"""
from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from urllib.parse import urlsplit

from cardcore.errors import ConfigError
from cardcore.server.store import STORE_VERSION, SqlTableStore, StoreTooNew, TableStore

__all__ = ["open_store", "is_postgres_url", "redact_url"]


def is_postgres_url(db: str | Path) -> bool:
    """Whether ``--db`` names a PostgreSQL database rather than a SQLite file."""
    return str(db).startswith(("postgresql://", "postgres://"))


def redact_url(db: str | Path) -> str:
    """``--db`` as it may be shown: a URL's password replaced."""
    return re.sub(r"://([^:/@]*):[^@/]*@", r"://\1:[redacted]@", str(db))


def _echo(db: str | Path) -> str:
    text = redact_url(db)
    return text if len(text) <= 60 else text[:57] + "..."


def open_store(db: str | Path, synchronous: str = "full") -> SqlTableStore:
    """The store ``--db`` names: a ``postgresql://`` URL, else a SQLite file."""
    if is_postgres_url(db):
        import psycopg

        from cardcore.server.pg_store import PgTableStore    # psycopg only when asked for
        try:
            return PgTableStore(str(db))
        except psycopg.Error as e:
            raise _postgres_error(str(db), e) from None
        except StoreTooNew as e:
            raise _too_new(db, e) from None
    try:
        return TableStore(db, synchronous)
    except sqlite3.Error as e:
        raise _sqlite_error(db, e) from None
    except StoreTooNew as e:
        raise _too_new(db, e) from None


def _too_new(db: str | Path, error: StoreTooNew) -> ConfigError:
    return ConfigError(f"the store {_echo(db)} has version {error.found}, written by a newer "
                       f"cardcore; this one uses version {STORE_VERSION}: upgrade this "
                       "process (docs/operations.md, \"Upgrades\")", "db")


def _sqlite_error(db: str | Path, error: sqlite3.Error) -> ConfigError:
    path = Path(db)
    if not path.parent.is_dir():
        fix = f"its folder {_echo(path.parent)} does not exist: create it or give another --db"
    elif "not a database" in str(error) or "malformed" in str(error):
        fix = "it is not a SQLite database: give --db a store, or a new file's path"
    elif "readonly" in str(error) or "unable to open" in str(error):
        fix = ("the server cannot write it or its folder (it writes DB, DB-wal, DB-shm): "
               "check their owner and permissions")
    else:
        fix = "check the path and the disk"
    return ConfigError(f"cannot open the SQLite store {_echo(db)} ({error}): {fix}", "db")


def _postgres_error(url: str, error: Exception) -> ConfigError:
    import psycopg
    parts = urlsplit(url)
    user = parts.username or "(the default user)"
    where = f"{parts.hostname or 'localhost'}:{parts.port or 5432}"
    database = parts.path.lstrip("/") or user
    first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    first = redact_url(first)[:200]
    if isinstance(error, psycopg.errors.InsufficientPrivilege):
        fix = (f"user {user} may not create the store's tables (PostgreSQL 15 and later grant "
               f"CREATE on schema public to the database owner only): as a superuser, run "
               f"ALTER DATABASE {database} OWNER TO {user}, or GRANT CREATE ON SCHEMA public "
               f"TO {user} in database {database}")
    elif "does not exist" in first and "database" in first:
        fix = f"create it: createdb -h {parts.hostname or 'localhost'} -O {user} {database}"
    elif "authentication failed" in first or "password" in first:
        fix = f"check the user ({user}) and password in --db, and pg_hba.conf"
    elif isinstance(error, psycopg.OperationalError):
        fix = (f"is PostgreSQL running and listening at {where}? Check --db's host and port, "
               "listen_addresses and the firewall")
    else:
        fix = "check the database and the user's rights"
    return ConfigError(f"cannot open the PostgreSQL store {_echo(url)} ({first}): {fix}", "db")
