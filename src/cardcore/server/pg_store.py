"""PostgreSQL storage of the table server: several ``cardcore serve`` processes, on one machine
or several, serving the same tables (docs/server.md, "Storage" and "Several processes").

The tables, action rows and checkpoints are those of the SQLite store (``store.py``, whose SQL
and logic ``SqlTableStore`` holds once); this module adds only what PostgreSQL needs:

- the schema (SQLite's columns) in PostgreSQL's types (the seeds are 63-bit: BIGINT);
- a connection with sqlite3's small API (``?`` placeholders, ``with db:`` as a transaction);
- the compare-and-set of ``save_many`` under a row lock (``SELECT ... FOR UPDATE``): of two
  processes committing a move to one table, the second waits for the first, then finds the
  action count moved on and stores nothing (its server answers 409 and refreshes the table);
- ``NOTIFY cardcore_tables, 'ID COUNT'`` (or ``'ID ended'``) in the transaction of every
  commit, abandonment and deletion, delivered to every listening process when it commits;
  ``Listener`` receives them in a thread of its own and hands them to the event loop.

One channel carries every table's id (rather than a channel per table): a process LISTENs
once, whatever tables it holds, and drops the notices of tables not in its memory.
"""
from __future__ import annotations

import logging
import re
import threading
import time
from typing import Any, Callable, Sequence

import psycopg

from cardcore.server.store import ADDED_COLUMNS, PRESENCE_SCHEMA, SqlTableStore
from cardcore.server.store import SCHEMA as SQLITE_SCHEMA

__all__ = ["PgTableStore", "Listener", "CHANNEL"]

log = logging.getLogger("cardcore.server")

CHANNEL = "cardcore_tables"
SCHEMA_LOCK = 0x63617264            # advisory lock id: two processes starting at once
RECONNECT_SECONDS = 1.0

# The SQLite schema (one list of columns) in PostgreSQL's types: seeds are 63-bit and action
# ids are kept as wide, times are doubles; PostgreSQL has no WITHOUT ROWID.
SCHEMA = (re.sub(r"\b(bot_seed|action) INTEGER", r"\1 BIGINT", SQLITE_SCHEMA + PRESENCE_SCHEMA)
          .replace(" REAL", " DOUBLE PRECISION").replace(" WITHOUT ROWID", "")
          + "CREATE INDEX IF NOT EXISTS tables_creator ON tables (creator, over);\n"
          + "CREATE INDEX IF NOT EXISTS tables_human ON tables (over, human_at);\n")


class _Connection:
    """A psycopg connection with the part of sqlite3's API the store uses: ``execute`` and
    ``executemany`` with ``?`` placeholders, and ``with conn:`` as one transaction."""

    def __init__(self, url: str) -> None:
        self.raw = psycopg.connect(url, autocommit=True)
        self._transaction: Any = None

    @staticmethod
    def _sql(sql: str) -> str:
        return sql.replace("?", "%s")           # the store's SQL has no other "?" nor "%"

    def execute(self, sql: str, params: Sequence[Any] = ()) -> psycopg.Cursor[Any]:
        return self.raw.execute(self._sql(sql), params)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            with self.raw.cursor() as cursor:
                cursor.executemany(self._sql(sql), rows)

    def __enter__(self) -> _Connection:
        self._transaction = self.raw.transaction()
        self._transaction.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        transaction, self._transaction = self._transaction, None
        transaction.__exit__(*exc)

    def close(self) -> None:
        self.raw.close()


class PgTableStore(SqlTableStore):
    """The tables in a PostgreSQL database (``postgresql://user@host:port/db``), shared by
    every server process given the same URL. Each commit is durable when it returns (the
    server's ``synchronous_commit``, on by default)."""

    shared = True
    ROW_LOCK = " FOR UPDATE"

    def __init__(self, url: str) -> None:
        self.path = url
        self.db = _Connection(url)
        with self.db:
            self.db.execute("SELECT pg_advisory_xact_lock(?)", (SCHEMA_LOCK,))
            if self._schema_current():
                return
            for statement in SCHEMA.split(";"):
                if statement.strip():
                    self.db.execute(statement)
            for name, kind in ADDED_COLUMNS:        # columns added after a database was made
                kind = "DOUBLE PRECISION" if kind == "REAL" else kind
                self.db.execute(f"ALTER TABLE tables ADD COLUMN IF NOT EXISTS {name} {kind}")
            self.db.execute("CREATE INDEX IF NOT EXISTS tables_deadline ON tables (over, deadline)")

    def _schema_current(self) -> bool:
        """Every table, column and index exists already. Then no DDL runs: even with IF NOT
        EXISTS, ALTER TABLE and CREATE INDEX lock the table, and a store opened beside
        running servers (a second process, a tool) could deadlock with their commits (a
        commit's row lock upgrading to a write lock behind the queued DDL lock)."""
        def names(sql: str) -> set[str]:
            return {str(r[0]) for r in self.db.execute(sql)}
        tables = names("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()")
        columns = names("SELECT column_name FROM information_schema.columns WHERE "
                        "table_schema = current_schema() AND table_name = 'tables'")
        indexes = names("SELECT indexname FROM pg_indexes WHERE schemaname = current_schema()")
        return set(re.findall(r"CREATE TABLE IF NOT EXISTS (\w+)", SCHEMA)) <= tables \
            and {name for name, _ in ADDED_COLUMNS} <= columns \
            and set(re.findall(r"CREATE INDEX IF NOT EXISTS (\w+)", SCHEMA)) | {"tables_deadline"} \
            <= indexes

    def _announce(self, changes: list[tuple[str, str]]) -> None:
        for table_id, what in changes:
            self.db.execute("SELECT pg_notify(?, ?)", (CHANNEL, f"{table_id} {what}"))


class Listener:
    """LISTEN on the tables' channel in a thread of its own; ``deliver(table_id, what)`` is
    called (in that thread) for each notice, ``what`` being the new action count or
    ``"ended"``; after a lost connection, once reconnected, ``deliver(None, "")``: anything
    may have changed meanwhile."""

    def __init__(self, url: str, deliver: Callable[[str | None, str], None]) -> None:
        self.url = url
        self.deliver = deliver
        self.stopping = threading.Event()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, name="cardcore-listen", daemon=True)
        self.thread.start()
        self.ready.wait(10)

    def _run(self) -> None:
        lost = False
        while not self.stopping.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.ready.set()
                    if lost:                      # notices may have been missed meanwhile
                        log.warning("listening to %s again", CHANNEL)
                        lost = False
                        self.deliver(None, "")
                    while not self.stopping.is_set():
                        for notice in conn.notifies(timeout=0.5):
                            table_id, _, what = notice.payload.partition(" ")
                            self.deliver(table_id, what)
            except psycopg.Error as e:
                if not self.stopping.is_set():
                    log.error("the store's notices were lost (%s); reconnecting", e)
                    lost = True
                    self.ready.set()
                    time.sleep(RECONNECT_SECONDS)

    def close(self) -> None:
        self.stopping.set()
        self.thread.join(5)
