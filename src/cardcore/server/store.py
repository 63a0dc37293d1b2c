"""SQLite storage of the table server (server.md, "Storage").

One row per table: a checkpoint save (``Game.to_json()``: configuration and action log), the
bots, the hashes of its seat tokens and a few columns the lobby lists without loading the game.
The actions played since the checkpoint are rows of ``actions`` (table, index, id): an action
costs one small row, not a rewrite of the whole save, and every ``CHECKPOINT_EVERY`` actions
(and at the end of the match) the save is rewritten and those rows deleted. ``load`` returns
the checkpoint with the rows replayed on it.

The database runs in WAL mode; ``save_many`` commits before it returns, so an action the server
acknowledges is on disk, and a restart (even after ``kill -9``) continues from it.

Only token *hashes* are stored (SHA-256 of a 192-bit random token): a copied database does
not let anyone act for a seat.

``SqlTableStore`` holds the logic and the SQL, written once with sqlite3's ``?`` placeholders;
``TableStore`` is SQLite, ``cardcore.server.pg_store.PgTableStore`` PostgreSQL (several server
processes on one database). ``cardcore.server.storage.open_store`` picks one from ``--db``.
"""
from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from cardcore.registry import load_game

__all__ = ["StoredTable", "SqlTableStore", "TableStore", "TableUpdate", "SYNCHRONOUS_MODES",
           "CHECKPOINT_EVERY", "StoreUnavailable", "StoreTooNew", "STORE_VERSION"]

# Actions kept as rows before the save is rewritten: a rewrite costs the whole log, a row one id.
CHECKPOINT_EVERY = 64

# "full": every commit reaches the disk before it returns (survives a power cut);
# "normal": in WAL mode a commit survives a killed process (kill -9), not a power cut.
SYNCHRONOUS_MODES = ("full", "normal")

SCHEMA = """
CREATE TABLE IF NOT EXISTS tables (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    players INTEGER NOT NULL,
    save TEXT NOT NULL,
    actions INTEGER NOT NULL,
    current_player INTEGER,
    over INTEGER NOT NULL,
    bots TEXT NOT NULL,
    bot_seed INTEGER NOT NULL,
    token_hashes TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    creator TEXT,
    creator_hash TEXT,
    ended TEXT,
    ended_at REAL,
    human_at REAL
);
CREATE INDEX IF NOT EXISTS tables_open ON tables (over, updated);
CREATE TABLE IF NOT EXISTS actions (
    table_id TEXT NOT NULL,
    n INTEGER NOT NULL,
    action INTEGER NOT NULL,
    PRIMARY KEY (table_id, n)
) WITHOUT ROWID;
"""


# Columns added after 0.3: who created the table (its address and the hash of its creator
# token), how it ended ("over", "abandoned") and when, and when a person last moved.
ADDED_COLUMNS = [("creator", "TEXT"), ("creator_hash", "TEXT"), ("ended", "TEXT"),
                 ("ended_at", "REAL"), ("human_at", "REAL")]
# Columns of fair deals and clocks: the seed material (JSON, secret until the end), the
# clock's bookkeeping (JSON) and the deadline of the turn it times (epoch seconds; NULL: none).
ADDED_COLUMNS += [("fairness", "TEXT"), ("clock", "TEXT"), ("deadline", "REAL")]
# Columns of take-backs: whether the table allows them (1), and how many it has had (the log's
# generation: a take-back shortens the log, so the action count alone does not name it).
ADDED_COLUMNS += [("takeback", "INTEGER"), ("rewinds", "INTEGER")]
# Columns of seats (seats.py): display names (JSON {seat: name}), the invite's hash, the table
# settings (listed, spectators: NULL reads as 1; join_mode: NULL reads as "invite") and the id
# of the rematch table once one was asked for.
ADDED_COLUMNS += [("names", "TEXT"), ("invite_hash", "TEXT"), ("listed", "INTEGER"),
                  ("spectators", "INTEGER"), ("join_mode", "TEXT"), ("rematch", "TEXT")]
# A rematch's scores carried from the matches it follows (JSON [int per seat]; NULL: none).
ADDED_COLUMNS += [("carried", "TEXT")]
# Sockets per seat and server process (several processes share presence, docs/server.md):
# a process's rows count only while it refreshes ``seen`` (a killed process's rows expire).
PRESENCE_SCHEMA = """
CREATE TABLE IF NOT EXISTS presence (
    table_id TEXT NOT NULL,
    seat INTEGER NOT NULL,
    process TEXT NOT NULL,
    sockets INTEGER NOT NULL,
    seen REAL NOT NULL,
    PRIMARY KEY (table_id, seat, process)
);
"""


# The store's version (docs/operations.md, "Upgrades and the store's version"): raised only
# by a change that an older cardcore could not read or would break. Added columns and tables
# never raise it: older versions name their columns and ignore the rest, so processes of two
# releases share a store during a rolling upgrade. A process refuses a store of a higher
# version (StoreTooNew) rather than write into what it does not understand.
STORE_VERSION = 1
META_SCHEMA = """
CREATE TABLE IF NOT EXISTS store_meta (
    name TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


class StoreTooNew(Exception):
    """The store was changed by a newer cardcore into a version this one cannot use."""

    def __init__(self, found: int) -> None:
        super().__init__(f"store version {found}, this cardcore uses {STORE_VERSION}")
        self.found = found


class Progress(NamedTuple):
    """How far a stored table is: its action count, and how it ended (None: open)."""

    actions: int
    ended: str | None


class StoredGeneration(NamedTuple):
    """``Progress`` with the number of take-backs: after one, a log can be as long as
    before and still be another one."""

    actions: int
    ended: str | None
    rewinds: int


class Generation(NamedTuple):
    """What the sweep compares between a table in memory and its row."""

    actions: int
    ended: str | None
    rewinds: int
    token_hashes: dict[int, str]


class SeatRow(NamedTuple):
    """A table's stored seat holders: token hashes and names by seat, and its rematch."""

    token_hashes: dict[int, str]
    names: dict[int, str]
    rematch: str | None


class StoreUnavailable(Exception):
    """The store cannot be reached (a PostgreSQL server down or restarting): the server
    answers 503 and the store reconnects by itself (docs/server.md, "Several processes")."""


class TableUpdate(NamedTuple):
    """What one commit stores for a table: the actions from index ``first`` on, the lobby's
    columns, and, at a checkpoint, the whole save (None otherwise)."""

    table_id: str
    first: int
    new_actions: list[int]
    current_player: int | None
    over: bool
    save: str | None
    human: bool = False                 # a person moved: the table is not abandoned
    clock: str | None = None            # the clock's bookkeeping (clocks.py), if it has one
    deadline: float | None = None       # ... and the deadline it times
    ended: str | None = None            # "forfeit": the table ends outside the rules
    rewinds: int = 0                    # the log's generation it continues (take-backs)
    owner: str | None = None            # the process whose lease it needs (None: no lease)


@dataclass
class StoredTable:
    """A table row as stored."""

    id: str
    game: str
    players: int
    save: str
    bots: dict[int, str]
    bot_seed: int
    token_hashes: dict[int, str]
    created: float
    creator_hash: str | None = None
    ended: str | None = None
    fairness: str | None = None
    clock: str | None = None
    takeback: bool = False
    rewinds: int = 0
    names: dict[int, str] = field(default_factory=dict)
    invite_hash: str | None = None
    listed: bool = True
    spectators: bool = True
    join: str = "invite"
    rematch: str | None = None
    carried: str | None = None


def seats_json(mapping: dict[int, str]) -> str:
    """A {seat: text} column (token hashes, names): seats in order, so equal maps are equal
    text."""
    return json.dumps({str(k): mapping[k] for k in sorted(mapping)})


# What ``load`` reads of a table's row (``join_mode``: JOIN is a word of SQL).
LOADED_COLUMNS = ("id", "game", "players", "save", "bots", "bot_seed", "token_hashes",
                  "created", "creator_hash", "ended", "fairness", "clock", "takeback",
                  "rewinds", "names", "invite_hash", "listed", "spectators", "join_mode",
                  "rematch", "carried")


def _seat_map(text: str | None) -> dict[int, str]:
    return {} if not text else {int(k): v for k, v in json.loads(text).items()}


class SqlTableStore:
    """What both stores do, in SQL both understand. A subclass opens ``self.db`` (an object
    with sqlite3's ``execute``/``executemany`` and a transaction as ``with self.db:``)."""

    # Several processes share the store (PostgreSQL): tables changed by a commit are announced.
    shared = False
    # Appended to the read of a table's action count in ``save_many``: PostgreSQL locks the
    # row (FOR UPDATE); SQLite's BEGIN IMMEDIATE already holds the whole database.
    ROW_LOCK = ""
    db: Any
    path: str                           # the file or URL it was opened with

    def _begin(self) -> None:
        """Start the write transaction that ``with self.db:`` opened."""

    def _announce(self, changes: list[tuple[str, str]]) -> None:
        """Within the transaction: tell other processes which tables changed (table id, and
        the new action count or "ended"); nothing for a store of one process."""

    def _insert_lease(self, table_id: str, owner: str, seconds: float) -> None:
        """Within ``insert``'s transaction: the new table's lease (a shared store only)."""
        raise NotImplementedError("leases need a shared store (PostgreSQL)")

    def _lease_owners(self, table_ids: list[str]) -> dict[str, str]:
        """Within a write transaction: the process holding each table's lease (leases exist
        with a shared store only: pg_store.py), its row locked until the commit, so that a
        lease cannot change hands between this check and the write it guards."""
        return {}

    def progress(self, table_id: str) -> Progress | None:
        """The stored action count of a table and how it ended (None: no such table)."""
        row = self.db.execute("SELECT actions, ended FROM tables WHERE id = ?",
                              (table_id,)).fetchone()
        return None if row is None else Progress(int(row[0]), row[1])

    def clock_of(self, table_id: str) -> str | None:
        """The stored clock of a table (its JSON; None: no clock, or no such table)."""
        row = self.db.execute("SELECT clock FROM tables WHERE id = ?", (table_id,)).fetchone()
        return None if row is None else row[0]

    def generation(self, table_id: str) -> StoredGeneration | None:
        """``progress`` with the number of take-backs stored: after a take-back a log can
        be as long as before and still be another one."""
        row = self.db.execute("SELECT actions, ended, COALESCE(rewinds, 0) FROM tables "
                              "WHERE id = ?", (table_id,)).fetchone()
        return None if row is None else StoredGeneration(int(row[0]), row[1], int(row[2]))

    def generations(self, table_ids: list[str]) -> dict[str, Generation]:
        """``generation`` and the seats' token hashes of many tables in one query (the sweep
        checks the tables in memory against the store: a change made by ``cardcore admin``
        or by a process whose notice was lost)."""
        found: dict[str, Generation] = {}
        for start in range(0, len(table_ids), 500):             # SQLite's parameter limit
            chunk = table_ids[start:start + 500]
            marks = ", ".join("?" * len(chunk))
            for row in self.db.execute(
                    "SELECT id, actions, ended, COALESCE(rewinds, 0), token_hashes FROM tables "
                    f"WHERE id IN ({marks})", chunk).fetchall():
                found[row[0]] = Generation(int(row[1]), row[2], int(row[3]), _seat_map(row[4]))
        return found

    def close_table(self, table_id: str) -> bool:
        """End an open table as closed by the operator (``cardcore admin end``); False: no
        such open table."""
        with self.db:
            self._begin()
            changed = self.db.execute(
                "UPDATE tables SET over = 1, ended = 'closed', ended_at = ? "
                "WHERE id = ? AND over = 0", (time.time(), table_id)).rowcount
            if changed:
                self._announce([(table_id, "ended")])
        return bool(changed)

    def operator_rows(self, include_over: bool = False,
                      limit: int = 1000) -> list[dict[str, Any]]:
        """Every table, listed or not, newest first (``cardcore admin list``): no token and
        no hidden card, only what an operator needs to pick a table."""
        where = "" if include_over else "WHERE over = 0 "
        rows = self.db.execute(
            "SELECT id, game, players, actions, over, ended, bots, token_hashes, names, "
            f"created, updated FROM tables {where}ORDER BY created DESC, id DESC LIMIT ?",
            (limit,)).fetchall()
        return [{"table": r[0], "game": r[1], "players": r[2], "moves": r[3],
                 "over": bool(r[4]), "ended": r[5],
                 "bots": {int(k): v for k, v in json.loads(r[6]).items()},
                 "taken_seats": sorted(int(k) for k in json.loads(r[7])),
                 "names": _seat_map(r[8]), "created": r[9], "updated": r[10]} for r in rows]

    def actions_since(self, table_id: str, first: int, count: int) -> list[int] | None:
        """The stored actions ``first`` .. ``count - 1`` of a table from its action rows, or
        None when they are not all rows (a checkpoint rewrote the save meanwhile)."""
        rows = self.db.execute("SELECT n, action FROM actions WHERE table_id = ? AND n >= ? "
                               "AND n < ? ORDER BY n", (table_id, first, count)).fetchall()
        if [r[0] for r in rows] != list(range(first, count)):
            return None
        return [int(r[1]) for r in rows]

    def check_version(self) -> None:
        """Mark a new store with ``STORE_VERSION``; refuse one of a higher version
        (``StoreTooNew``). Run once, when the store is opened."""
        self.db.execute("INSERT INTO store_meta (name, value) VALUES ('version', ?) "
                        "ON CONFLICT (name) DO NOTHING", (str(STORE_VERSION),))
        row = self.db.execute("SELECT value FROM store_meta WHERE name = 'version'").fetchone()
        if int(row[0]) > STORE_VERSION:
            raise StoreTooNew(int(row[0]))

    def ping(self) -> None:
        """One round trip to the store (``/healthz``)."""
        self.db.execute("SELECT 1").fetchone()

    def close(self) -> None:
        self.db.close()

    def insert(self, table_id: str, game: str, players: int, save: str, actions: int,
               current_player: int | None, over: bool, bots: dict[int, str], bot_seed: int,
               token_hashes: dict[int, str], creator: str | None = None,
               creator_hash: str | None = None, fairness: str | None = None,
               clock: str | None = None, deadline: float | None = None,
               takeback: bool = False,
               names: dict[int, str] | None = None, invite_hash: str | None = None,
               listed: bool = True, spectators: bool = True, join: str = "invite",
               carried: str | None = None, lease: tuple[str, float] | None = None) -> None:
        """A new table row; ``creator`` is the client address that created it (for the limit
        of open tables per address), ``creator_hash`` the hash of its creator token;
        ``lease``: its lease taken in the same transaction (a process and seconds; a shared
        store only)."""
        now = time.time()
        with self.db:
            self._begin()
            self.db.execute(
                "INSERT INTO tables (id, game, players, save, actions, current_player, over, "
                "bots, bot_seed, token_hashes, created, updated, creator, creator_hash, "
                "ended, ended_at, human_at, fairness, clock, deadline, takeback, rewinds, "
                "names, invite_hash, listed, spectators, join_mode, carried) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, "
                "?, ?, ?, ?, ?)",
                (table_id, game, players, save, actions, current_player, int(over),
                 json.dumps({str(k): v for k, v in bots.items()}), bot_seed,
                 seats_json(token_hashes), now, now, creator,
                 creator_hash, "over" if over else None, now if over else None, now,
                 fairness, clock, deadline, int(takeback), seats_json(names or {}),
                 invite_hash, int(listed), int(spectators), join, carried))
            if lease is not None:
                self._insert_lease(table_id, *lease)

    def save_many(self, updates: list[TableUpdate]) -> list[str]:
        """Store several tables' updates in one transaction (one disk sync for all). An
        update that does not continue the stored log exactly (a gap, or an overlap: another
        process advanced the table) is never stored: the compare-and-set on the action count,
        under the row's lock (and on the number of take-backs: a log rewound and played on to
        the same length is another log). Returns the ids of those stale tables; the others
        are stored."""
        now = time.time()
        stale: list[str] = []
        changes: list[tuple[str, str]] = []
        with self.db:
            self._begin()
            owners = self._lease_owners([u.table_id for u in updates if u.owner is not None])
            # Rows are locked in id order, so two processes' batches never deadlock.
            for u in sorted(updates, key=lambda u: u.table_id):
                count = u.first + len(u.new_actions)
                stored = self.db.execute("SELECT actions, COALESCE(rewinds, 0) FROM tables "
                                         "WHERE id = ?" + self.ROW_LOCK,
                                         (u.table_id,)).fetchone()
                if stored is None:                   # deleted meanwhile: nothing to store
                    continue
                # A gap, an overlap, a log rewound meanwhile or a lease lost: never store it.
                if stored[0] != u.first or stored[1] != u.rewinds \
                        or (u.owner is not None and owners.get(u.table_id) != u.owner):
                    stale.append(u.table_id)
                    continue
                if u.owner is None:     # with a lease only its holder serves the table
                    changes.append((u.table_id, str(count)))
                # one UPDATE of the row (a person's move stamps human_at in it too)
                human_at = now if u.human else None
                if u.save is None:
                    self.db.executemany(
                        "INSERT INTO actions (table_id, n, action) VALUES (?, ?, ?)",
                        [(u.table_id, u.first + k, a) for k, a in enumerate(u.new_actions)])
                    self.db.execute(
                        "UPDATE tables SET actions = ?, current_player = ?, "
                        "over = CASE WHEN ? = 1 THEN 1 ELSE over END, updated = ?, "
                        "human_at = COALESCE(?, human_at) WHERE id = ?",
                        (count, u.current_player, int(u.over), now, human_at, u.table_id))
                else:
                    self.db.execute("DELETE FROM actions WHERE table_id = ?", (u.table_id,))
                    self.db.execute(
                        "UPDATE tables SET save = ?, actions = ?, current_player = ?, "
                        "over = CASE WHEN ? = 1 THEN 1 ELSE over END, updated = ?, "
                        "human_at = COALESCE(?, human_at) WHERE id = ?",
                        (u.save, count, u.current_player, int(u.over), now, human_at,
                         u.table_id))
                if u.over:
                    self.db.execute("UPDATE tables SET ended = 'over', ended_at = ? "
                                    "WHERE id = ? AND ended IS NULL", (now, u.table_id))
                if u.clock is not None:
                    self.db.execute("UPDATE tables SET clock = ?, deadline = ? WHERE id = ?",
                                    (u.clock, u.deadline, u.table_id))
                if u.ended is not None:              # a forfeit on time (clocks.py)
                    self.db.execute("UPDATE tables SET over = 1, ended = ?, ended_at = ? "
                                    "WHERE id = ? AND ended IS NULL", (u.ended, now, u.table_id))
                    changes.append((u.table_id, "ended"))
            self._announce(changes)
        return stale

    def rewind(self, u: TableUpdate, expected: int) -> bool:
        """A take-back: the log of ``u.table_id`` becomes the shorter one of ``u.save`` (a
        whole save: the action rows go, so a cut below the last checkpoint is as safe as one
        above it), its generation goes up by one. Compare-and-set as in ``save_many``: only
        if the stored log still has ``expected`` actions of generation ``u.rewinds`` and the
        table has not ended; False (nothing stored) otherwise."""
        assert u.save is not None and not u.new_actions
        now = time.time()
        with self.db:
            self._begin()
            stored = self.db.execute("SELECT actions, COALESCE(rewinds, 0), ended FROM tables "
                                     "WHERE id = ?" + self.ROW_LOCK, (u.table_id,)).fetchone()
            if stored is None or stored[0] != expected or stored[1] != u.rewinds \
                    or stored[2] is not None or (
                        u.owner is not None
                        and self._lease_owners([u.table_id]).get(u.table_id) != u.owner):
                return False
            self.db.execute("DELETE FROM actions WHERE table_id = ?", (u.table_id,))
            self.db.execute(
                "UPDATE tables SET save = ?, actions = ?, current_player = ?, rewinds = ?, "
                "updated = ?, human_at = ?, clock = ?, deadline = ? WHERE id = ?",
                (u.save, u.first, u.current_player, u.rewinds + 1, now, now, u.clock,
                 u.deadline, u.table_id))
            self._announce([(u.table_id, f"rewound:{u.rewinds + 1}")])
        return True

    def load(self, table_id: str) -> StoredTable | None:
        """The table as last committed; its ``save`` has every stored action."""
        found = self.db.execute(f"SELECT {', '.join(LOADED_COLUMNS)} FROM tables WHERE id = ?",
                                (table_id,)).fetchone()
        if found is None:
            return None
        row = dict(zip(LOADED_COLUMNS, found))
        save = row["save"]
        tail = [r[0] for r in self.db.execute(
            "SELECT action FROM actions WHERE table_id = ? ORDER BY n", (table_id,))]
        if tail:
            game = load_game(save)
            for action in tail:
                game.apply(action)
            save = game.to_json()
        return StoredTable(
            id=row["id"], game=row["game"], players=row["players"], save=save,
            bots=_seat_map(row["bots"]), bot_seed=row["bot_seed"],
            token_hashes=_seat_map(row["token_hashes"]), created=row["created"],
            creator_hash=row["creator_hash"], ended=row["ended"], fairness=row["fairness"],
            clock=row["clock"], takeback=bool(row["takeback"]), rewinds=row["rewinds"] or 0,
            names=_seat_map(row["names"]), invite_hash=row["invite_hash"],
            listed=row["listed"] != 0, spectators=row["spectators"] != 0,
            join=row["join_mode"] or "invite", rematch=row["rematch"], carried=row["carried"])

    def count_open(self, creator: str | None = None) -> int:
        """Open tables in all, or those created by the address ``creator``."""
        if creator is None:
            return int(self.db.execute("SELECT COUNT(*) FROM tables WHERE over = 0").fetchone()[0])
        return int(self.db.execute("SELECT COUNT(*) FROM tables WHERE creator = ? AND over = 0",
                                   (creator,)).fetchone()[0])

    def count_by_state(self) -> dict[str, int]:
        """Open and ended ("finished") tables in the store."""
        rows = dict(self.db.execute("SELECT over, COUNT(*) FROM tables GROUP BY over").fetchall())
        return {"open": int(rows.get(0, 0)), "finished": int(rows.get(1, 0))}

    def list_tables(self, include_over: bool = False, limit: int = 100,
                    before: tuple[float, str] | None = None) -> list[dict[str, Any]]:
        """The lobby's list, newest first (ties by id): public columns only; ``before``, the
        (created, id) of the last row of the previous page, starts after it."""
        where = ["COALESCE(listed, 1) = 1"] + ([] if include_over else ["over = 0"])
        args: list[Any] = []
        if before is not None:
            where.append("(created < ? OR (created = ? AND id < ?))")
            args += [before[0], before[0], before[1]]
        rows = self.db.execute(
            "SELECT id, game, players, actions, current_player, over, bots, token_hashes, "
            "created, updated, ended, names, join_mode FROM tables "
            + ("WHERE " + " AND ".join(where) + " " if where else "")
            + "ORDER BY created DESC, id DESC LIMIT ?", (*args, limit)).fetchall()
        return [{"table": r[0], "game": r[1], "players": r[2], "moves": r[3],
                 "current_player": r[4], "over": bool(r[5]),
                 "bots": {k: v for k, v in json.loads(r[6]).items()},
                 "human_seats": sorted(int(k) for k in json.loads(r[7])),
                 "open_seats": sorted(set(range(r[2])) - {int(k) for k in json.loads(r[6])}
                                      - {int(k) for k in json.loads(r[7])}),
                 "names": {str(k): v for k, v in _seat_map(r[11]).items()},
                 "join": r[12] or "invite",
                 "created": r[8], "updated": r[9], "ended": r[10]} for r in rows]

    # ---------------------------------------------------------------- seats (seats.py)
    def seats(self, table_id: str) -> SeatRow | None:
        """A table's stored token hashes, names and rematch id (None: no such table)."""
        row = self.db.execute("SELECT token_hashes, names, rematch FROM tables WHERE id = ?",
                              (table_id,)).fetchone()
        return None if row is None else SeatRow(_seat_map(row[0]), _seat_map(row[1]), row[2])

    def update_seats(self, table_id: str, expected: dict[int, str],
                     token_hashes: dict[int, str], names: dict[int, str]) -> bool:
        """Store a claim or a leave: the new token hashes and names, only if the stored
        hashes are still ``expected`` (the compare-and-set: of two processes claiming one
        seat at once, one wins). False: they changed meanwhile, nothing stored."""
        with self.db:
            self._begin()
            row = self.db.execute("SELECT token_hashes FROM tables WHERE id = ?"
                                  + self.ROW_LOCK, (table_id,)).fetchone()
            if row is None or _seat_map(row[0]) != expected:
                return False
            self.db.execute("UPDATE tables SET token_hashes = ?, names = ? WHERE id = ?",
                            (seats_json(token_hashes), seats_json(names), table_id))
            self._announce([(table_id, "seats")])
        return True

    def set_rematch(self, table_id: str, rematch: str) -> str | None:
        """Record ``rematch`` as the table's rematch unless it has one: returns the rematch
        that holds (``rematch``, or the one stored first), None for a missing table."""
        with self.db:
            self._begin()
            row = self.db.execute("SELECT rematch FROM tables WHERE id = ?" + self.ROW_LOCK,
                                  (table_id,)).fetchone()
            if row is None:
                return None
            if row[0] is not None:
                return str(row[0])
            self.db.execute("UPDATE tables SET rematch = ? WHERE id = ?", (rematch, table_id))
            self._announce([(table_id, "rematch")])
        return rematch

    def set_presence(self, table_id: str, seat: int, process: str, sockets: int) -> None:
        """This process's socket count of a seat (0: its row goes), announced."""
        with self.db:
            self._begin()
            if sockets:
                self.db.execute(
                    "INSERT INTO presence (table_id, seat, process, sockets, seen) "
                    "VALUES (?, ?, ?, ?, ?) ON CONFLICT (table_id, seat, process) DO UPDATE "
                    "SET sockets = excluded.sockets, seen = excluded.seen",
                    (table_id, seat, process, sockets, time.time()))
            else:
                self.db.execute("DELETE FROM presence WHERE table_id = ? AND seat = ? AND "
                                "process = ?", (table_id, seat, process))
            self._announce([(table_id, "presence")])

    def keep_presence(self, process: str) -> None:
        """Refresh ``seen`` of this process's rows (its heartbeat)."""
        now = time.time()
        with self.db:
            self._begin()
            self.db.execute("UPDATE presence SET seen = ? WHERE process = ?", (now, process))

    def connected_seats(self, table_id: str, since: float, besides: str = "") -> set[int]:
        """Seats with a socket in a process (other than ``besides``) whose heartbeat is
        after ``since``."""
        return {int(r[0]) for r in self.db.execute(
            "SELECT DISTINCT seat FROM presence WHERE table_id = ? AND sockets > 0 "
            "AND seen >= ? AND process <> ?", (table_id, since, besides))}

    def connected_by_table(self, table_ids: list[str], since: float) -> dict[str, set[int]]:
        """The connected seats (``connected_seats``, every process) of several tables."""
        found: dict[str, set[int]] = {}
        if table_ids:
            marks = ", ".join("?" * len(table_ids))
            for table_id, seat in self.db.execute(
                    f"SELECT DISTINCT table_id, seat FROM presence WHERE table_id IN ({marks}) "
                    "AND sockets > 0 AND seen >= ?", (*table_ids, since)):
                found.setdefault(str(table_id), set()).add(int(seat))
        return found

    def clear_presence(self, process: str, before: float | None = None) -> None:
        """Drop this process's rows (at its shutdown), and any row not seen since ``before``."""
        with self.db:
            self._begin()
            self.db.execute("DELETE FROM presence WHERE process = ?", (process,))
            if before is not None:
                self.db.execute("DELETE FROM presence WHERE seen < ?", (before,))

    # ---------------------------------------------------------------- the table lifecycle
    def abandon(self, cutoff: float) -> list[str]:
        """End every open table where no person has moved since ``cutoff`` (all-bot tables:
        since they were created); returns their ids."""
        now = time.time()
        with self.db:
            self._begin()
            ids = [r[0] for r in self.db.execute(
                "SELECT id FROM tables WHERE over = 0 AND COALESCE(human_at, updated) < ?",
                (cutoff,))]
            self.db.executemany("UPDATE tables SET over = 1, ended = 'abandoned', ended_at = ? "
                                "WHERE id = ?", [(now, i) for i in ids])
            self._announce([(i, "ended") for i in ids])
        return ids

    def expired(self, cutoff: float) -> list[str]:
        """Tables that ended before ``cutoff``."""
        return [r[0] for r in self.db.execute(
            "SELECT id FROM tables WHERE over = 1 AND COALESCE(ended_at, updated) < ?",
            (cutoff,))]

    def delete(self, table_ids: list[str]) -> None:
        """Remove tables and their action rows for good."""
        with self.db:
            self._begin()
            self.db.executemany("DELETE FROM actions WHERE table_id = ?",
                                [(i,) for i in table_ids])
            self.db.executemany("DELETE FROM tables WHERE id = ?", [(i,) for i in table_ids])
            self.db.executemany("DELETE FROM presence WHERE table_id = ?",
                                [(i,) for i in table_ids])
            self._announce([(i, "ended") for i in table_ids])

    def ids_waiting_for_bots(self) -> list[str]:
        """Open tables whose seat to move is a bot (their bots resume after a restart)."""
        rows = self.db.execute(
            "SELECT id, current_player, bots FROM tables WHERE over = 0").fetchall()
        return [r[0] for r in rows
                if r[1] is not None and str(r[1]) in json.loads(r[2])]

    def ids_with_clocks(self, due: float | None = None) -> list[str]:
        """Open tables with a turn being timed (deadline before ``due``, when given): their
        clocks resume after a restart, or run out while they are out of memory."""
        rows = self.db.execute(
            "SELECT id FROM tables WHERE over = 0 AND deadline IS NOT NULL"
            + ("" if due is None else " AND deadline < ?"),
            () if due is None else (due,)).fetchall()
        return [r[0] for r in rows]

class TableStore(SqlTableStore):
    """The tables of one server in one SQLite file (``":memory:"`` for a throwaway store)."""

    def __init__(self, path: str | Path, synchronous: str = "full") -> None:
        if synchronous not in SYNCHRONOUS_MODES:
            raise ValueError(f"synchronous must be one of {SYNCHRONOUS_MODES}, not {synchronous!r}")
        self.path = str(path)
        # The server runs in one event loop thread; check_same_thread=False lets an embedding
        # host create the app in one thread and serve it from another.
        self.db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute(f"PRAGMA synchronous={synchronous.upper()}")
        self.db.execute("PRAGMA busy_timeout=5000")
        self.db.executescript(SCHEMA + PRESENCE_SCHEMA + META_SCHEMA)
        columns = {r[1] for r in self.db.execute("PRAGMA table_info(tables)")}
        for name, kind in ADDED_COLUMNS:             # a database of 0.3: add the columns
            if name not in columns:
                try:
                    self.db.execute(f"ALTER TABLE tables ADD COLUMN {name} {kind}")
                except sqlite3.OperationalError:     # the other connection added it
                    pass
        self.db.execute("CREATE INDEX IF NOT EXISTS tables_creator ON tables (creator, over)")
        self.db.execute("CREATE INDEX IF NOT EXISTS tables_human ON tables (over, human_at)")
        self.db.execute("CREATE INDEX IF NOT EXISTS tables_deadline ON tables (over, deadline)")
        self.check_version()

    def _begin(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")
