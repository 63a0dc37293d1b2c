"""SQLite storage of the table server (server.md, "Storage").

One row per table: its save (``Game.to_json()``: configuration and action log), the bots, the
hashes of its seat tokens and a few columns the lobby lists without loading the game. The
database runs in WAL mode; ``save_many`` commits before it returns, so an action the server
acknowledges is on disk, and a restart (even after ``kill -9``) continues from it.

Only token *hashes* are stored (SHA-256 of a 192-bit random token): a copied database does
not let anyone act for a seat.
"""
from __future__ import annotations

import json
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["StoredTable", "TableStore", "SYNCHRONOUS_MODES"]

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
    updated REAL NOT NULL
);
CREATE INDEX IF NOT EXISTS tables_open ON tables (over, updated);
"""


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


class TableStore:
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
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    def insert(self, table_id: str, game: str, players: int, save: str, actions: int,
               current_player: int | None, over: bool, bots: dict[int, str], bot_seed: int,
               token_hashes: dict[int, str]) -> None:
        now = time.time()
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            self.db.execute(
                "INSERT INTO tables (id, game, players, save, actions, current_player, over, "
                "bots, bot_seed, token_hashes, created, updated) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (table_id, game, players, save, actions, current_player, int(over),
                 json.dumps({str(k): v for k, v in bots.items()}), bot_seed,
                 json.dumps({str(k): v for k, v in token_hashes.items()}), now, now))

    def save_many(self, rows: list[tuple[Any, ...]]) -> None:
        """Store several tables' saves in one transaction (one disk sync for all): rows of
        (id, save, actions, current_player, over)."""
        now = time.time()
        with self.db:
            self.db.execute("BEGIN IMMEDIATE")
            for table_id, save, actions, current_player, over in rows:
                cursor = self.db.execute(
                    "UPDATE tables SET save = ?, actions = ?, current_player = ?, over = ?, "
                    "updated = ? WHERE id = ?",
                    (save, actions, current_player, int(over), now, table_id))
                if cursor.rowcount != 1:
                    raise KeyError(table_id)

    def load(self, table_id: str) -> StoredTable | None:
        row = self.db.execute(
            "SELECT id, game, players, save, bots, bot_seed, token_hashes, created "
            "FROM tables WHERE id = ?", (table_id,)).fetchone()
        if row is None:
            return None
        return StoredTable(row[0], row[1], row[2], row[3],
                           {int(k): v for k, v in json.loads(row[4]).items()}, row[5],
                           {int(k): v for k, v in json.loads(row[6]).items()}, row[7])

    def count_open(self) -> int:
        return int(self.db.execute("SELECT COUNT(*) FROM tables WHERE over = 0").fetchone()[0])

    def list_tables(self, include_over: bool = False, limit: int = 100) -> list[dict[str, Any]]:
        """The lobby's list, newest first: public columns only."""
        rows = self.db.execute(
            "SELECT id, game, players, actions, current_player, over, bots, token_hashes, "
            "created, updated FROM tables " + ("" if include_over else "WHERE over = 0 ")
            + "ORDER BY created DESC LIMIT ?", (limit,)).fetchall()
        return [{"table": r[0], "game": r[1], "players": r[2], "moves": r[3],
                 "current_player": r[4], "over": bool(r[5]),
                 "bots": {k: v for k, v in json.loads(r[6]).items()},
                 "human_seats": sorted(int(k) for k in json.loads(r[7])),
                 "created": r[8], "updated": r[9]} for r in rows]

    def ids_waiting_for_bots(self) -> list[str]:
        """Open tables whose seat to move is a bot (their bots resume after a restart)."""
        rows = self.db.execute(
            "SELECT id, current_player, bots FROM tables WHERE over = 0").fetchall()
        return [r[0] for r in rows
                if r[1] is not None and str(r[1]) in json.loads(r[2])]
