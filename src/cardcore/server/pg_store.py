"""PostgreSQL storage of the table server: several ``cardcore serve`` processes, on one machine
or several, serving the same tables (docs/server.md, "Storage" and "Several processes").

The tables, action rows and checkpoints are those of the SQLite store (``store.py``, whose SQL
and logic ``SqlTableStore`` holds once); this module adds only what PostgreSQL needs:

- the schema (SQLite's columns) in PostgreSQL's types (the seeds are 63-bit: BIGINT);
- a connection with sqlite3's small API (``?`` placeholders, ``with db:`` as a transaction);
- the compare-and-set of ``save_many`` under a row lock (``SELECT ... FOR UPDATE``): of two
  processes committing a move to one table, the second waits for the first, then finds the
  action count moved on and stores nothing (its server answers 409 and refreshes the table);
- ``NOTIFY cardcore_tables, 'ID ended'`` in the transaction of every abandonment, deletion
  and forfeit (and ``'ID COUNT'`` for a commit made without a lease), delivered to every
  listening process when it commits, and ``'ID wanted:PROCESS'`` when a process asks for a
  table; ``Listener`` receives them in a thread of its own and hands them to the event loop;
- the leases (``leases.py``): who serves each table, taken, renewed, wanted and released.

One channel carries every table's id (rather than a channel per table): a process LISTENs
once, whatever tables it holds, and drops the notices of tables not in its memory.
"""
from __future__ import annotations

import functools
import json
import logging
import math
import re
import threading
import time
from typing import Any, Callable, NamedTuple, Sequence

import psycopg
from psycopg.conninfo import conninfo_to_dict

from cardcore.server.store import (ADDED_COLUMNS, META_SCHEMA, PRESENCE_SCHEMA, SqlTableStore,
                                   StoredTable, StoreUnavailable, TableUpdate)
from cardcore.server.store import SCHEMA as SQLITE_SCHEMA

__all__ = ["PgTableStore", "Listener", "Lease", "CHANNEL"]

log = logging.getLogger("cardcore.server")

CHANNEL = "cardcore_tables"
SCHEMA_LOCK = 0x63617264            # advisory lock id: two processes starting at once
RECONNECT_SECONDS = 1.0             # between attempts to reach a PostgreSQL that is down
CONNECT_SECONDS = 3                 # a connect that hangs (an unreachable host) gives up
# Every statement has a time limit on the server's side (a lock wait, a slow disk), and so
# has a transaction left open by a client that went silent; TCP keepalives and the user
# timeout break a connection whose packets are dropped. (The event loop's own bound on a
# call, whatever the network does, is the lane's: lanes.py.)
STATEMENT_MS = 5000
SESSION: dict[str, Any] = {"connect_timeout": CONNECT_SECONDS,
                           "options": f"-c statement_timeout={STATEMENT_MS} "
                                      f"-c idle_in_transaction_session_timeout={2 * STATEMENT_MS}",
                           "keepalives": 1, "keepalives_idle": 5, "keepalives_interval": 2,
                           "keepalives_count": 3, "tcp_user_timeout": 2 * STATEMENT_MS}


def connect(url: str) -> psycopg.Connection[Any]:
    """An autocommit connection with the time limits above, but for those ``--db`` sets."""
    given = conninfo_to_dict(url)
    return psycopg.connect(url, autocommit=True,
                           **{k: v for k, v in SESSION.items() if k not in given})
# A transaction PostgreSQL rolled back to break a deadlock (or a serialization conflict) is
# safe to run again: nothing of it was stored.
RETRIED_ERRORS = (psycopg.errors.DeadlockDetected, psycopg.errors.SerializationFailure)
COMMIT_ATTEMPTS = 3

# Who serves each table (docs/operations.md, "One process per table"): the process holding an
# unexpired lease, renewed by its heartbeat; ``wanted_by``: another process asked for it.
# Times are PostgreSQL's clock (epoch seconds), the one clock every process shares.
LEASE_SCHEMA = """
CREATE TABLE IF NOT EXISTS leases (
    table_id TEXT PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    owner TEXT NOT NULL,
    expires DOUBLE PRECISION NOT NULL,
    wanted_by TEXT
);
"""
NOW = "extract(epoch FROM clock_timestamp())"
NOBODY = ""                         # the owner of a released lease: anybody may take it

# The SQLite schema (one list of columns) in PostgreSQL's types: seeds are 63-bit and action
# ids are kept as wide, times are doubles; PostgreSQL has no WITHOUT ROWID.
SCHEMA = (re.sub(r"\b(bot_seed|action) INTEGER", r"\1 BIGINT",
                SQLITE_SCHEMA + PRESENCE_SCHEMA + META_SCHEMA)
          .replace(" REAL", " DOUBLE PRECISION").replace(" WITHOUT ROWID", "")
          + "CREATE INDEX IF NOT EXISTS tables_creator ON tables (creator, over);\n"
          + "CREATE INDEX IF NOT EXISTS tables_human ON tables (over, human_at);\n"
          + LEASE_SCHEMA
          + "CREATE INDEX IF NOT EXISTS leases_owner ON leases (owner);\n")
DEADLINE_INDEX = "CREATE INDEX IF NOT EXISTS tables_deadline ON tables (over, deadline)"
# What SCHEMA creates, to see whether a database has it all already.
RELATIONS = re.findall(r"CREATE (?:TABLE|INDEX) IF NOT EXISTS (\w+)", SCHEMA + DEADLINE_INDEX)


# A lost connection (the server restarted, the network broke): reconnect, answer 503 meanwhile.
LOST = (psycopg.OperationalError, psycopg.InterfaceError)


# A commit of one table in one statement (``save_many``): the compare-and-set on the action
# count and the take-backs, the lease checked under a share lock, the row updated, the action
# rows added (or, at a checkpoint, dropped: the save has them), and the notices, all in one
# round trip. SqlTableStore.save_many does the same in 5-8 statements; the columns it sets
# are these (a forfeit's "ended" after a match's "over", as there).
COMMIT_SQL = """
WITH lease AS (
    SELECT 1 FROM leases WHERE table_id = %(id)s AND owner = %(owner)s::text FOR SHARE
), moved AS (
    UPDATE tables SET
        actions = %(count)s, current_player = %(player)s::integer,
        save = COALESCE(%(save)s::text, save), updated = %(now)s,
        over = CASE WHEN %(over)s OR %(ended)s::text IS NOT NULL THEN 1 ELSE over END,
        human_at = CASE WHEN %(human)s THEN %(now)s ELSE human_at END,
        clock = CASE WHEN %(clock)s::text IS NULL THEN clock ELSE %(clock)s::text END,
        deadline = CASE WHEN %(clock)s::text IS NULL THEN deadline
                        ELSE %(deadline)s::double precision END,
        ended = CASE WHEN ended IS NOT NULL THEN ended WHEN %(over)s THEN 'over'
                     ELSE %(ended)s::text END,
        ended_at = CASE WHEN ended IS NULL AND (%(over)s OR %(ended)s::text IS NOT NULL)
                        THEN %(now)s ELSE ended_at END
    WHERE id = %(id)s AND actions = %(first)s AND COALESCE(rewinds, 0) = %(rewinds)s
        AND (%(owner)s::text IS NULL OR EXISTS (SELECT 1 FROM lease))
    RETURNING id
), dropped AS (
    DELETE FROM actions WHERE %(save)s::text IS NOT NULL
        AND table_id IN (SELECT id FROM moved)
), added AS (
    INSERT INTO actions (table_id, n, action)
    SELECT m.id, %(first)s + a.k - 1, a.action FROM moved m,
        unnest(%(actions)s::bigint[]) WITH ORDINALITY AS a(action, k)
    WHERE %(save)s::text IS NULL
), told AS (
    SELECT pg_notify(%(channel)s, m.id || ' ' || note) FROM moved m,
        unnest(%(notes)s::text[]) AS note
)
SELECT (SELECT count(*) FROM moved), (SELECT count(*) FROM told),
    EXISTS (SELECT 1 FROM tables WHERE id = %(id)s)
"""


def _commit_params(u: TableUpdate, now: float) -> dict[str, Any]:
    """``COMMIT_SQL``'s parameters for one table's update."""
    notes = ([] if u.owner is not None else [str(u.first + len(u.new_actions))]) \
        + ([] if u.ended is None else ["ended"])
    return {"id": u.table_id, "owner": u.owner, "count": u.first + len(u.new_actions),
            "player": u.current_player, "save": u.save, "now": now, "over": u.over,
            "ended": u.ended, "human": u.human, "clock": u.clock, "deadline": u.deadline,
            "first": u.first, "rewinds": u.rewinds, "actions": u.new_actions,
            "channel": CHANNEL, "notes": notes}


class _Connection:
    """A psycopg connection with the part of sqlite3's API the store uses: ``execute`` and
    ``executemany`` with ``?`` placeholders, and ``with conn:`` as one transaction.

    A connection found lost is opened again on its next use (outside a transaction), at
    most once per ``RECONNECT_SECONDS``: in between, and while PostgreSQL refuses, uses fail
    at once with ``StoreUnavailable``, so the event loop never waits for a dead server."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.raw = connect(url)
        self._transaction: Any = None
        self.failed_at = -math.inf                # monotonic time of the last failed connect

    @staticmethod
    def _sql(sql: str) -> str:
        return sql.replace("?", "%s")           # the store's SQL has no other "?" nor "%"

    def lost(self) -> bool:
        return bool(self.raw.closed or self.raw.broken)

    def _ensure(self) -> None:
        if self._transaction is not None or not self.lost():
            return
        if time.monotonic() - self.failed_at < RECONNECT_SECONDS:
            raise StoreUnavailable("PostgreSQL is unavailable (reconnecting)")
        try:
            self.raw = connect(self.url)
        except LOST as e:
            self.failed_at = time.monotonic()
            raise StoreUnavailable(f"PostgreSQL is unavailable: {str(e).strip()[:200]}") \
                from None
        log.warning("the store's connection to PostgreSQL is back")

    def execute(self, sql: str, params: Sequence[Any] = ()) -> psycopg.Cursor[Any]:
        self._ensure()
        return self.raw.execute(self._sql(sql), params)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if rows:
            self._ensure()
            with self.raw.cursor() as cursor:
                cursor.executemany(self._sql(sql), rows)

    def each(self, sql: str, params: Sequence[dict[str, Any]]) -> list[Any]:
        """The first row of ``sql`` run with each of ``params``, all in one transaction: one
        statement alone (autocommit), several pipelined (sent together, answered together)."""
        self._ensure()
        if len(params) == 1:
            return [self.raw.execute(sql, params[0]).fetchone()]
        # BEGIN and COMMIT sent as statements: psycopg's transaction() waits for each.
        try:
            with self.raw.pipeline():
                self.raw.execute("BEGIN")
                cursors = [self.raw.execute(sql, p) for p in params]
                self.raw.execute("COMMIT")
        except BaseException:
            if self.raw.info.transaction_status != psycopg.pq.TransactionStatus.IDLE \
                    and not self.lost():
                self.raw.execute("ROLLBACK")
            raise
        return [c.fetchone() for c in cursors]

    def __enter__(self) -> _Connection:
        self._ensure()
        transaction = self.raw.transaction()
        transaction.__enter__()                 # (a failed BEGIN leaves no transaction open)
        self._transaction = transaction
        return self

    def __exit__(self, *exc: Any) -> None:
        transaction, self._transaction = self._transaction, None
        transaction.__exit__(*exc)

    def close(self) -> None:
        self.raw.close()


class Lease(NamedTuple):
    """Who holds a table's lease (None: no such table) and for how many more seconds."""

    owner: str | None
    seconds: float


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
            # DDL locks the table even when it changes nothing (ALTER TABLE takes an ACCESS
            # EXCLUSIVE lock): run on a busy database, it deadlocks with other processes'
            # commits. So it runs only when something is missing.
            if not self._schema_current():
                for statement in SCHEMA.split(";"):
                    if statement.strip():
                        self.db.execute(statement)
                for name, kind in ADDED_COLUMNS:    # columns added after a database was made
                    kind = "DOUBLE PRECISION" if kind == "REAL" else kind
                    self.db.execute(f"ALTER TABLE tables ADD COLUMN IF NOT EXISTS {name} {kind}")
                self.db.execute(DEADLINE_INDEX)
            self.check_version()

    def _schema_current(self) -> bool:
        """Every table, index and column of the schema is there already."""
        found = self.db.execute("SELECT count(*) FROM unnest(?::text[]) AS r(name) "
                                "WHERE to_regclass(r.name) IS NOT NULL",
                                (RELATIONS,)).fetchone()[0]
        columns = {r[0] for r in self.db.execute(
            "SELECT column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND table_name = 'tables'")}
        return found == len(RELATIONS) and {name for name, _ in ADDED_COLUMNS} <= columns

    def save_many(self, updates: list[TableUpdate]) -> list[str]:
        """``SqlTableStore.save_many`` in one round trip (``COMMIT_SQL``, a statement per
        table, pipelined in one transaction), run again when PostgreSQL picked its
        transaction as a deadlock's victim (another session took the same rows in another
        order)."""
        if not updates:
            return []
        ordered = sorted(updates, key=lambda u: u.table_id)    # rows locked in id order
        for attempt in range(1, COMMIT_ATTEMPTS + 1):
            try:
                now = time.time()
                rows = self.db.each(COMMIT_SQL, [_commit_params(u, now) for u in ordered])
                return [u.table_id for u, (moved, _, found) in zip(ordered, rows)
                        if found and not moved]
            except RETRIED_ERRORS as e:
                if attempt == COMMIT_ATTEMPTS:
                    raise
                log.warning("a commit was rolled back (%s); trying again", type(e).__name__)
        raise AssertionError("unreachable")

    def _announce(self, changes: list[tuple[str, str]]) -> None:
        for table_id, what in changes:
            self.db.execute("SELECT pg_notify(?, ?)", (CHANNEL, f"{table_id} {what}"))

    # ------------------------------------------------------------ leases (leases.py)
    def _insert_lease(self, table_id: str, owner: str, seconds: float) -> None:
        self.db.execute(f"INSERT INTO leases (table_id, owner, expires) VALUES (?, ?, {NOW} + ?)",
                        (table_id, owner, seconds))

    def _lease_owners(self, table_ids: list[str]) -> dict[str, str]:
        if not table_ids:
            return {}
        return {r[0]: r[1] for r in self.db.execute(
            "SELECT table_id, owner FROM leases WHERE table_id = ANY(?) ORDER BY table_id "
            "FOR SHARE", (sorted(set(table_ids)),))}

    def acquire(self, table_id: str, owner: str, seconds: float) -> Lease:
        """Take the lease of ``table_id`` for ``seconds`` if it is free, expired or
        ``owner``'s already (a want of another process is kept then); else say who holds it
        and how long it has left."""
        row = self.db.execute(
            "INSERT INTO leases (table_id, owner, expires) "
            f"SELECT id, ?, {NOW} + ? FROM tables WHERE id = ? "
            "ON CONFLICT (table_id) DO UPDATE SET owner = EXCLUDED.owner, "
            "expires = EXCLUDED.expires, wanted_by = CASE WHEN leases.owner = EXCLUDED.owner "
            "THEN leases.wanted_by END "
            f"WHERE leases.owner = EXCLUDED.owner OR leases.expires < {NOW} RETURNING owner",
            (owner, seconds, table_id)).fetchone()
        if row is not None:
            return Lease(owner, seconds)
        held = self.db.execute(f"SELECT owner, expires - {NOW} FROM leases WHERE table_id = ?",
                               (table_id,)).fetchone()
        return Lease(None, 0.0) if held is None else Lease(held[0], max(0.0, held[1]))

    def want(self, table_id: str, process: str) -> None:
        """Ask the process holding ``table_id``'s lease to hand it over (a notice wakes it;
        its heartbeat sees the want too, should the notice be lost)."""
        with self.db:
            asked = self.db.execute("UPDATE leases SET wanted_by = ? WHERE table_id = ? "
                                    "AND owner <> ?", (process, table_id, process)).rowcount
            if asked:
                self._announce([(table_id, f"wanted:{process}")])

    def renew(self, owner: str, seconds: float) -> dict[str, str | None]:
        """The heartbeat: every lease ``owner`` still holds runs ``seconds`` more. Returns
        them, each with the process that wants it (None: nobody)."""
        return {r[0]: r[1] for r in self.db.execute(
            f"UPDATE leases SET expires = {NOW} + ? WHERE owner = ? "
            "RETURNING table_id, wanted_by", (seconds, owner))}

    def release(self, owner: str, table_ids: list[str]) -> list[str]:
        """Give up leases (the tables left this process's memory, or were handed over);
        returns those that were still ``owner``'s."""
        if not table_ids:
            return []
        return [r[0] for r in self.db.execute(
            "UPDATE leases SET owner = ?, expires = 0, wanted_by = NULL "
            "WHERE owner = ? AND table_id = ANY(?) RETURNING table_id",
            (NOBODY, owner, sorted(table_ids)))]

    def orphans(self, due: float) -> list[str]:
        """Open tables that move without a person (a bot to move, or a clock due before
        ``due``) and that no process holds: their owner died or let them go."""
        rows = self.db.execute(
            "SELECT t.id, t.current_player, t.bots, t.deadline FROM tables t "
            "LEFT JOIN leases l ON l.table_id = t.id "
            f"WHERE t.over = 0 AND (l.table_id IS NULL OR l.expires < {NOW})").fetchall()
        return [r[0] for r in rows
                if (r[1] is not None and str(r[1]) in json.loads(r[2]))
                or (r[3] is not None and r[3] < due)]

    def load(self, table_id: str) -> StoredTable | None:
        """``SqlTableStore.load`` in one snapshot: it reads the checkpoint, then the action
        rows after it, and another process's checkpoint committed between the two reads
        would delete those rows (the table would load behind, with its last moves lost)."""
        with self.db:
            self.db.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            return SqlTableStore.load(self, table_id)


def _reconnecting(name: str) -> Callable[..., Any]:
    """The store's method ``name``, run again once on a new connection when it found its
    connection lost (a connection from before a restart fails at its first use), and
    ``StoreUnavailable`` when PostgreSQL does not answer. Running a write twice is safe:
    ``save_many`` is a compare-and-set on the action count (a commit that went through
    before the connection broke makes the second run find the table stale, never store it
    twice), ``rewind`` and ``update_seats`` are compare-and-sets too, ``set_rematch``
    keeps the first, ``delete``, ``abandon`` and the presence writes are idempotent, an
    ``insert`` fails on its key; reads are reads."""
    method = getattr(PgTableStore, name)

    @functools.wraps(method)
    def run(self: PgTableStore, *args: Any, **kwargs: Any) -> Any:
        for attempt in (0, 1):
            try:
                return method(self, *args, **kwargs)
            except LOST as e:
                if not self.db.lost():
                    raise                     # the connection is fine: a deadlock, say
                if attempt:
                    raise StoreUnavailable(f"PostgreSQL is unavailable: "
                                           f"{str(e).strip()[:200]}") from None
        raise AssertionError("unreachable")       # pragma: no cover
    return run


# Every call of the store (each of SqlTableStore's but close), so a call added later is
# covered too; each is safe to run twice (see _reconnecting).
for _name in sorted(name for name, value in (vars(SqlTableStore) | vars(PgTableStore)).items()
                    if callable(value) and not name.startswith("_") and name != "close"):
    setattr(PgTableStore, _name, _reconnecting(_name))


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
                with connect(self.url) as conn:
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
