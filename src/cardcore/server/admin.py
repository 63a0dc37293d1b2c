"""``cardcore admin``: operate a server's table store from a shell (docs/operations.md).

Each command opens the store ``--db`` names (the SQLite file or the ``postgresql://`` URL the
servers use) and changes only rows: the servers running on it notice within a sweep (a few
seconds; with PostgreSQL at once, by the store's notices), tell the sockets concerned and go
on. ``backup`` is online (SQLite's backup API; ``pg_dump``); ``restore`` wants the servers
stopped.
"""
from __future__ import annotations

import glob
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

from cardcore.errors import ConfigError, Words, echo
from cardcore.i18n import N_
from cardcore.server.in_use import SERVE_APP_NAME, ServerRunning, no_server, sqlite_server
from cardcore.server.storage import is_postgres_url, open_store
from cardcore.server.store import SqlTableStore

# Where Debian keeps PostgreSQL's programs when /usr/bin has no pg_dump wrapper.
PG_BIN_GLOB = "/usr/lib/postgresql/*/bin"


NO_SQLITE_STORE = N_("no SQLite store at {db}")


def _open(db: str) -> SqlTableStore:
    """The store, refusing a SQLite file that is not there (opening would create it)."""
    if not is_postgres_url(db) and not Path(db).is_file():
        raise ConfigError(Words(NO_SQLITE_STORE, {"db": echo(db)}), "db")
    return open_store(db)


def list_tables(db: str, include_over: bool = False, limit: int = 1000) -> list[dict[str, Any]]:
    """Every table of the store, listed in the lobby or not, newest first; ``process``: the
    id of the server process serving it (PostgreSQL: its unexpired lease's owner; SQLite:
    the server running on the file), None when none does."""
    store = _open(db)
    try:
        rows = store.operator_rows(include_over, limit)
        if store.shared:
            owners = dict(store.db.execute(
                "SELECT table_id, owner FROM leases WHERE owner <> '' AND expires > "
                "extract(epoch FROM clock_timestamp())").fetchall())
        else:
            server = sqlite_server(db)
            owners = {} if not server else {r["table"]: server for r in rows}
    finally:
        store.close()
    for row in rows:
        row["process"] = owners.get(row["table"]) if row["ended"] is None \
            and not row["over"] else None
    return rows


def end_table(db: str, table_id: str) -> None:
    """End an open table as closed by the operator: moves are refused with 409 from then on
    and its sockets are told and closed (code 4000)."""
    store = _open(db)
    try:
        if not store.close_table(table_id):
            found = store.progress(table_id)
            raise ConfigError(Words(N_("no open table {table}") if found is None
                                    else N_("no open table {table} (it has ended)"),
                                    {"table": echo(table_id)}), "table")
    finally:
        store.close()


def free_seat(db: str, table_id: str, seat: int) -> str | None:
    """Free a person's seat: its token stops working (the holder's sockets are closed with
    code 4003) and the seat is open to a claim again. Returns the name it had."""
    store = _open(db)
    try:
        found = store.seats(table_id)
        if found is None:
            raise ConfigError(Words(N_("no table {table}"), {"table": echo(table_id)}), "table")
        hashes, names = found.token_hashes, found.names
        if seat not in hashes:
            raise ConfigError(Words(N_("seat {seat} of table {table} is not held by a person "
                                       "(held: {held})"),
                                    {"seat": echo(seat), "table": echo(table_id),
                                     "held": ", ".join(map(str, sorted(hashes))) or Words(N_("none"))}),
                              "seat")
        kept_hashes = {s: h for s, h in hashes.items() if s != seat}
        kept_names = {s: n for s, n in names.items() if s != seat}
        if not store.update_seats(table_id, hashes, kept_hashes, kept_names):
            raise ConfigError(N_("the seats changed meanwhile; run the command again"), "seat")
        return names.get(seat)
    finally:
        store.close()


def backup(db: str, out: str | Path, force: bool = False) -> Path:
    """A consistent copy of the store while servers run: SQLite's online backup API into the
    file ``out``, or ``pg_dump --format=custom`` of the PostgreSQL database."""
    out = Path(out)
    if out.exists() and not force:
        raise ConfigError(Words(N_("{path} exists (--force to overwrite)"),
                                {"path": echo(str(out))}), "out")
    if not is_postgres_url(db) and not Path(db).exists():
        raise ConfigError(Words(NO_SQLITE_STORE, {"db": echo(db)}), "db")
    # Owner-only from its first byte: a backup holds the seats' token hashes and the seeds.
    out.unlink(missing_ok=True)
    os.close(os.open(out, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
    if is_postgres_url(db):
        _run_pg("pg_dump", "--format=custom", "--no-owner", f"--file={out}", f"--dbname={db}")
        os.chmod(out, 0o600)
        return out
    source = sqlite3.connect(db)
    try:
        _copy_sqlite(source, out)
    finally:
        source.close()
    return out


def _copy_sqlite(source: sqlite3.Connection, target_path: str | Path) -> None:
    """SQLite's online backup of ``source`` into a new file (consistent while others write)."""
    target = sqlite3.connect(target_path)
    try:
        with target:
            source.backup(target)
    finally:
        target.close()


def restore(backup_path: str | Path, db: str, force: bool = False) -> None:
    """Put a backup in place of the store: a SQLite file is copied through the backup API
    (its old journal files removed); a PostgreSQL dump is restored with ``pg_restore
    --clean``. Refused, ``--force`` or not, while a server uses the store (in_use.py)."""
    backup_path = Path(backup_path)
    if not backup_path.is_file():
        raise ConfigError(Words(N_("no backup at {path}"), {"path": echo(str(backup_path))}),
                          "backup")
    if is_postgres_url(db):
        _refuse_if_served(db, force)
        _run_pg("pg_restore", "--clean", "--if-exists", "--no-owner", "--single-transaction",
                f"--dbname={db}", str(backup_path))
        return
    try:
        with no_server(db):             # held through the copy: a server starting waits
            _restore_sqlite(backup_path, db, force)
    except ServerRunning as e:
        raise ConfigError(Words(N_("a server is using {db} (process {process}): stop it first"),
                                {"db": echo(db), "process": e.process or "?"}), "db") from None


def _restore_sqlite(backup_path: Path, db: str, force: bool) -> None:
    if Path(db).exists() and not force:
        raise ConfigError(Words(N_("{db} exists: stop its servers, then --force to replace it"),
                                {"db": echo(db)}), "db")
    source = sqlite3.connect(f"file:{backup_path}?mode=ro", uri=True)
    try:
        if source.execute("SELECT name FROM sqlite_master WHERE name = 'tables'").fetchone() \
                is None:
            raise ConfigError(Words(N_("{path} is not a cardcore store"),
                                    {"path": echo(str(backup_path))}), "backup")
        for stale in (db, f"{db}-wal", f"{db}-shm"):
            Path(stale).unlink(missing_ok=True)
        _copy_sqlite(source, db)
    except sqlite3.DatabaseError as e:
        raise ConfigError(Words(N_("{path} is not a SQLite backup: {problem}"),
                                {"path": echo(str(backup_path)), "problem": str(e)}),
                          "backup") from None
    finally:
        source.close()


def _refuse_if_served(db: str, force: bool) -> None:
    """Refuse a database that `cardcore serve` processes are connected to (their connections
    are named, in_use.py), and one holding tables unless ``force``."""
    store = _open(db)
    try:
        servers = store.db.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
            "AND application_name LIKE ? AND pid <> pg_backend_pid()",
            (SERVE_APP_NAME + "%",)).fetchone()[0]
        counts = store.count_by_state()
    finally:
        store.close()
    if servers:
        raise ConfigError(Words(N_("`cardcore serve` uses the database (connections: {count}): "
                                   "stop its servers first"), {"count": servers}),
                          "db")
    if (counts["open"] or counts["finished"]) and not force:
        raise ConfigError(N_("the database holds tables: stop its servers, then --force to "
                             "replace them"), "db")


def _pg_program(name: str) -> str:
    found = shutil.which(name)
    if found:
        return found
    for directory in sorted(glob.glob(PG_BIN_GLOB), reverse=True):   # the newest first
        if Path(directory, name).exists():
            return str(Path(directory, name))
    raise ConfigError(Words(N_("{program} is not installed (Debian: apt-get install "
                               "postgresql-client)"), {"program": name}), "db")


def _run_pg(name: str, *args: str) -> None:
    done = subprocess.run([_pg_program(name), *args], capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        raise ConfigError(Words(N_("{program} failed: {problem}"),
                                {"program": name, "problem": done.stderr.strip()[-300:]}), "db")
