"""Opening the PostgreSQL store (a server process starting, a tool reading it) beside a busy
one: no DDL, so no table lock that would queue behind, and deadlock with, another process's
commit; a database that lacks a column still gets it (docs/server.md, "Several processes")."""
from __future__ import annotations

import threading

import pytest

from cardcore import new_game
from cardcore.server.pg_store import PgTableStore

pytestmark = pytest.mark.slow       # a PostgreSQL cluster


def insert_table(store: PgTableStore, table_id: str) -> None:
    game = new_game("kings_stakes", seed=1)
    store.insert(table_id, game.name, game.num_players, game.to_json(), 0,
                 game.current_player, False, {}, 7, {0: "h0"})


def test_opening_the_store_beside_a_commit_in_flight_waits_for_nothing(pg_url):
    busy = PgTableStore(pg_url)
    insert_table(busy, "t1")
    opened: list[PgTableStore] = []
    try:
        # A commit half done, as in save_many: its row locked, its UPDATE still to come.
        with busy.db:
            busy.db.execute("SELECT actions FROM tables WHERE id = ? FOR UPDATE", ("t1",))
            thread = threading.Thread(target=lambda: opened.append(PgTableStore(pg_url)))
            thread.start()
            thread.join(10)
            assert opened, "opening the store waited for another connection's transaction"
            busy.db.execute("UPDATE tables SET actions = 1 WHERE id = ?", ("t1",))
        assert opened[0].progress("t1") == (1, None)
    finally:
        busy.close()
        for store in opened:
            store.close()


def test_a_database_without_a_later_column_gets_it_when_opened(pg_url):
    store = PgTableStore(pg_url)
    store.db.execute("ALTER TABLE tables DROP COLUMN deadline")     # drops its index too
    store.close()
    store = PgTableStore(pg_url)
    try:
        insert_table(store, "t2")
        assert store.db.execute("SELECT deadline FROM tables WHERE id = 't2'").fetchone() \
            == (None,)
        assert store.db.execute("SELECT to_regclass('tables_deadline')").fetchone()[0] \
            is not None
    finally:
        store.close()
