"""The PostgreSQL store against the SQLite one (same calls, same answers), its compare-and-set
under two concurrent connections, and its notices (docs/server.md, "Several processes")."""
from __future__ import annotations

import queue
import threading
import time

import psycopg
import pytest

from cardcore import new_game
from cardcore.server.pg_store import Listener, PgTableStore
from cardcore.server.storage import open_store
from cardcore.server.store import TableStore, TableUpdate

pytestmark = pytest.mark.slow       # a PostgreSQL cluster


def story(store) -> list:
    """One table's life through the store's calls; what each call answered (no times)."""
    out = []
    game = new_game("kings_stakes", seed=3)
    store.insert("t1", game.name, game.num_players, game.to_json(), 0, game.current_player,
                 False, {1: "greedy"}, 2 ** 62 + 5, {0: "h0", 2: "h2", 3: "h3"}, "10.0.0.1", "c")
    first = 0
    for k in range(70):                          # past a checkpoint (every 64 actions)
        game.apply(game.legal_action_ids()[0])
        save = game.to_json() if k == 66 else None
        out.append(store.save_many([TableUpdate("t1", first, game.action_log(first),
                                                game.current_player, game.is_over, save,
                                                k % 2 == 0)]))
        first = len(game.action_log())
    out.append(store.save_many([TableUpdate("t1", 3, [1], 0, False, None)]))   # stale
    stored = store.load("t1")
    out.append((stored.save == game.to_json(), stored.bots, stored.bot_seed,
                stored.token_hashes, stored.creator_hash, stored.ended))
    out.append(store.progress("t1"))
    out.append(store.actions_since("t1", 67, 70) == game.action_log(67))
    out.append(store.actions_since("t1", 60, 70))          # rewritten by the checkpoint
    listed = store.list_tables()
    out.append([{k: v for k, v in t.items() if k not in ("created", "updated")}
                for t in listed])
    out.append((store.count_open(), store.count_open("10.0.0.1"), store.count_open("x"),
                store.count_by_state(), store.ids_waiting_for_bots()))
    out.append(store.abandon(time.time() + 1))
    out.append((store.progress("t1"), store.count_by_state(), store.expired(time.time() + 1)))
    store.delete(["t1"])
    out.append((store.load("t1"), store.progress("t1"), store.list_tables(True)))
    return out


def test_both_stores_answer_alike(tmp_path, pg_url):
    sqlite = TableStore(tmp_path / "t.sqlite3")
    pg = open_store(pg_url)
    assert isinstance(pg, PgTableStore) and pg.shared and not sqlite.shared
    try:
        assert story(pg) == story(sqlite)
    finally:
        sqlite.close()
        pg.close()


def test_two_connections_storing_the_same_move_store_it_once(pg_url):
    stores = [PgTableStore(pg_url) for _ in range(2)]
    game = new_game("crazy_eights", seed=1)
    stores[0].insert("t1", game.name, game.num_players, game.to_json(), 0, 0, False, {}, 1, {})
    for n in range(20):
        game.apply(game.legal_action_ids()[0])
        update = TableUpdate("t1", n, game.action_log(n), game.current_player, False, None)
        barrier = threading.Barrier(2)
        answers: list[list[str]] = []

        def store_it(store: PgTableStore) -> None:
            barrier.wait()
            answers.append(store.save_many([update]))

        threads = [threading.Thread(target=store_it, args=(s,)) for s in stores]
        for t in threads:
            t.start()
        for t in threads:
            t.join(10)
        assert sorted(answers) == [[], ["t1"]]
    assert stores[1].progress("t1") == (20, None)
    assert stores[1].actions_since("t1", 0, 20) == game.action_log()
    for s in stores:
        s.close()


def test_a_load_is_one_snapshot_when_another_process_checkpoints_meanwhile(pg_url):
    """Between ``load``'s read of the checkpoint and its read of the action rows, another
    connection commits a checkpoint (which deletes the rows): the load still gives every
    action (of the one snapshot), never the old checkpoint alone."""
    reader, writer = PgTableStore(pg_url), PgTableStore(pg_url)
    try:
        game = new_game("kings_stakes", seed=5)
        writer.insert("t1", game.name, game.num_players, game.to_json(), 0,
                      game.current_player, False, {}, 1, {0: "h"})
        for _ in range(3):
            game.apply(game.legal_action_ids()[0])
        writer.save_many([TableUpdate("t1", 0, game.action_log(), game.current_player,
                                      False, None)])
        seen = game.to_json()
        raw_execute = reader.db.raw.execute

        def execute(sql, params=()):
            result = raw_execute(sql, params)
            if sql.startswith("SELECT id, game"):        # the checkpoint was read: now
                game.apply(game.legal_action_ids()[0])    # ... a checkpoint elsewhere
                assert writer.save_many([TableUpdate("t1", 3, game.action_log(3),
                                                     game.current_player, False,
                                                     game.to_json())]) == []
            return result
        reader.db.raw.execute = execute
        assert reader.load("t1").save == seen
        reader.db.raw.execute = raw_execute
        assert reader.load("t1").save == game.to_json()
    finally:
        reader.close()
        writer.close()


def test_every_commit_abandonment_and_deletion_is_announced(pg_url):
    store = PgTableStore(pg_url)
    got: queue.Queue[tuple[str | None, str]] = queue.Queue()
    listener = Listener(pg_url, lambda table, what: got.put((table, what)))
    try:
        game = new_game("crazy_eights", seed=2)
        for table in ("a", "b"):
            store.insert(table, game.name, game.num_players, game.to_json(), 0, 0, False, {},
                         1, {})
        game.apply(game.legal_action_ids()[0])
        log = game.action_log()
        assert store.save_many([TableUpdate("a", 0, log, 1, False, None),
                                TableUpdate("b", 5, log, 1, False, None)]) == ["b"]
        assert got.get(timeout=5) == ("a", "1")          # the stale "b" is not announced
        assert sorted(store.abandon(time.time() + 1)) == ["a", "b"]
        assert {got.get(timeout=5), got.get(timeout=5)} == {("a", "ended"), ("b", "ended")}
        store.delete(["a"])
        assert got.get(timeout=5) == ("a", "ended")
        with pytest.raises(queue.Empty):
            got.get(timeout=0.5)
    finally:
        listener.close()
        store.close()
    assert not listener.thread.is_alive()


def test_cardcore_serve_never_prints_the_databases_password(monkeypatch, capsys):
    import cardcore.server
    from cardcore.cli import main
    given = {}
    monkeypatch.setattr(cardcore.server, "serve", lambda *a, **k: given.update(db=a[2]))
    url = "postgresql://cardcore:s3cret-pw@db.internal:5432/tables"
    assert main(["serve", "--db", url]) == 0
    out = capsys.readouterr().out
    assert given["db"] == url                        # the server gets the URL as given
    assert "s3cret" not in out and "postgresql://cardcore:[redacted]@db.internal" in out


def test_a_lease_is_held_by_one_process_and_fences_its_commits(pg_url):
    """Leases (docs/operations.md, "One process per table"): taken when free or expired,
    renewed by their holder, wanted and released; a commit or a rewind that names an owner
    is stored only while that owner holds the lease."""
    a, b = PgTableStore(pg_url), PgTableStore(pg_url)
    got: queue.Queue[tuple[str | None, str]] = queue.Queue()
    listener = Listener(pg_url, lambda table, what: got.put((table, what)))
    try:
        assert a.acquire("nope", "A", 5).owner is None              # no such table
        game = new_game("crazy_eights", seed=2)
        a.insert("t1", game.name, game.num_players, game.to_json(), 0, 0, False, {}, 1, {})
        assert a.acquire("t1", "A", 5) == ("A", 5)
        held = b.acquire("t1", "B", 5)
        assert held.owner == "A" and 4 < held.seconds <= 5
        b.want("t1", "B")
        assert got.get(timeout=5) == ("t1", "wanted:B")
        assert a.renew("A", 5) == {"t1": "B"}                # the holder sees the want
        assert a.acquire("t1", "A", 5).owner == "A"          # its own renewal keeps the want
        assert a.renew("A", 5) == {"t1": "B"}
        game.apply(game.legal_action_ids()[0])
        move = TableUpdate("t1", 0, game.action_log(), game.current_player, False, None,
                           owner="B")
        assert b.save_many([move]) == ["t1"]                 # B does not hold it: refused
        assert a.progress("t1") == (0, None)
        a.release("A", ["t1"])
        assert a.renew("A", 5) == {}
        assert b.acquire("t1", "B", 0.2).owner == "B"        # released: anybody's
        assert b.save_many([move]) == []
        assert a.save_many([move._replace(first=1, new_actions=[], owner="A")]) == ["t1"]
        time.sleep(0.3)                                      # B's lease expires unrenewed
        assert a.acquire("t1", "A", 5).owner == "A"
        assert b.renew("B", 5) == {}                         # B finds it lost
        short = new_game("crazy_eights", seed=2)
        cut = TableUpdate("t1", 0, [], short.current_player, False, short.to_json(), True,
                          owner="B")
        assert not b.rewind(cut, 1) and a.progress("t1") == (1, None)
        assert a.rewind(cut._replace(owner="A"), 1) and a.progress("t1") == (0, None)
        a.delete(["t1"])                                     # its lease goes with it
        assert a.acquire("t1", "A", 5).owner is None
    finally:
        listener.close()
        a.close()
        b.close()


def test_a_batch_of_commits_is_one_transaction_a_failure_in_it_stores_none_of_it(pg_url):
    """``save_many`` pipelines a statement per table between BEGIN and COMMIT (one round
    trip): when one fails, none is stored, and the connection serves the next batch."""
    store = PgTableStore(pg_url)
    try:
        games = {}
        for table in ("a", "b", "c"):
            games[table] = new_game("crazy_eights", seed=2)
            store.insert(table, "crazy_eights", 2, games[table].to_json(), 0, 0, False, {}, 1,
                         {})
        moves = {}
        for table, game in games.items():
            game.apply(game.legal_action_ids()[0])
            moves[table] = TableUpdate(table, 0, game.action_log(), game.current_player,
                                       False, None)
        bad = moves["b"]._replace(new_actions=[2 ** 70])        # no BIGINT: refused
        with pytest.raises(psycopg.Error):
            store.save_many([moves["a"], bad, moves["c"]])
        assert [store.progress(t) for t in "abc"] == [(0, None)] * 3
        assert store.save_many(list(moves.values())) == []
        assert [store.progress(t) for t in "abc"] == [(1, None)] * 3
        assert store.save_many([moves["a"]]) == ["a"]           # stale now: refused
    finally:
        store.close()
