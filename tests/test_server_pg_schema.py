"""Opening the PostgreSQL store (a server process starting, a tool reading it) beside a busy
one: no DDL, so no table lock that would queue behind, and deadlock with, another process's
commit; a database that lacks a column still gets it; a commit that PostgreSQL rolls back to
break a deadlock is run again (docs/server.md, "Several processes")."""
from __future__ import annotations

import threading
import time

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


def test_a_commit_chosen_as_a_deadlocks_victim_is_run_again(pg_url):
    import psycopg

    from cardcore.server.store import TableUpdate
    store = PgTableStore(pg_url)
    for table_id in ("d1", "d2"):
        insert_table(store, table_id)
    other = psycopg.connect(pg_url, autocommit=True)
    # The other session detects deadlocks late, so the store's commit is the victim.
    other.execute("SET deadlock_timeout = '20s'")
    locked, done = threading.Event(), []

    def lock_in_the_other_order() -> None:
        with other.transaction():
            other.execute("SELECT 1 FROM tables WHERE id = 'd2' FOR UPDATE")
            locked.set()
            time.sleep(0.5)                         # the store now waits for d2, holding d1
            other.execute("SELECT 1 FROM tables WHERE id = 'd1' FOR UPDATE")
        done.append(True)
    thread = threading.Thread(target=lock_in_the_other_order)
    try:
        thread.start()
        assert locked.wait(10)
        updates = [TableUpdate(t, 0, [5], 1, False, None) for t in ("d1", "d2")]
        assert store.save_many(updates) == []         # stored, on its second attempt
        thread.join(30)
        assert done == [True]
        assert store.progress("d1") == (1, None) and store.progress("d2") == (1, None)
        assert store.actions_since("d1", 0, 1) == [5]
    finally:
        thread.join(30)
        other.close()
        store.close()
