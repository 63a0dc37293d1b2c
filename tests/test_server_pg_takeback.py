"""Take-backs on PostgreSQL (docs/server.md, "Take-backs"; docs/operations.md, "One process
per table"): the rewind's compare-and-set and notice, and a second server on the same
database that takes a rewound table over and finds it rewound, also when it missed the
notice that asked it for the table."""
from __future__ import annotations

import queue
import time

import pytest

from cardcore import load_game, new_game
from cardcore.server import create_app
from cardcore.server.pg_store import Listener, PgTableStore
from cardcore.server.store import TableUpdate

from server_helpers import TestClient
from test_server_takeback import move as _move
from test_server_takeback import state as _state

pytestmark = [pytest.mark.slow,                 # a PostgreSQL cluster
              pytest.mark.filterwarnings("ignore::DeprecationWarning")]

BODY = {"game": "kings_stakes", "players": 2, "seed": 3, "bots": {"1": "greedy"},
        "takeback": True}


def test_the_rewind_is_a_compare_and_set_and_is_announced(pg_url):
    store = PgTableStore(pg_url)
    got: queue.Queue[tuple[str | None, str]] = queue.Queue()
    listener = Listener(pg_url, lambda table, what: got.put((table, what)))
    try:
        game = new_game("kings_stakes", players=2, seed=5)
        store.insert("t", game.name, 2, game.to_json(), 0, 0, False, {1: "greedy"}, 1,
                     {0: "h"}, takeback=True)
        for _ in range(5):
            game.apply(game.legal_action_ids()[0])
        log = game.action_log()
        assert store.save_many([TableUpdate("t", 0, log, game.current_player, False, None)]) == []
        assert got.get(timeout=5) == ("t", "5")
        short = new_game("kings_stakes", players=2, seed=5)
        short.apply(log[0])
        cut = TableUpdate("t", 1, [], short.current_player, False, short.to_json(), True)
        assert not store.rewind(cut, 4) and store.rewind(cut, 5)
        assert got.get(timeout=5) == ("t", "rewound:1")
        assert store.generation("t") == (1, None, 1)
        assert store.save_many([TableUpdate("t", 1, log[1:3], 0, False, None)]) == ["t"]
        assert load_game(store.load("t").save).action_log() == log[:1]
    finally:
        listener.close()
        store.close()


def test_a_table_rewound_through_one_process_is_loaded_rewound_by_the_next(pg_url):
    with TestClient(create_app(pg_url)) as a, TestClient(create_app(pg_url)) as b:
        made = a.post("/api/tables", json=BODY).json()
        table, token = made, made["seats"]["0"]
        states = [_state(a, table, token)]
        for _ in range(3):
            states.append(_move(a, table, token, states[-1]))
        assert _state(b, table, token)["event_count"] == states[-1]["event_count"]
        r = a.post(f"/api/tables/{table['table']}/takeback", json={"token": token})
        assert r.status_code == 200, r.text
        # A socket through B takes the table over (A hands it over): the rewound position.
        with b.websocket_connect(f"/ws/tables/{table['table']}") as watcher:
            first = watcher.receive_json()
            assert first["event_count"] == states[2]["event_count"]
            assert first["takeback"]["rewinds"] == 1
        assert table["table"] not in a.app.state.tables.tables
        seen = _state(b, table, token)
        assert seen["view"] == states[2]["view"] and seen["legal"] == states[2]["legal"]
        # B plays on from the rewound position; a read through A shows it at once.
        nxt = _move(b, table, token, seen)
        assert _state(a, table, token)["event_count"] == nxt["event_count"]


def test_a_process_that_missed_the_notice_hands_the_table_over_at_its_heartbeat(pg_url):
    with TestClient(create_app(pg_url)) as a, TestClient(create_app(pg_url)) as b:
        made = a.post("/api/tables", json=BODY).json()
        table, token = made, made["seats"]["0"]
        s = _move(b, table, token, _state(a, table, token))     # B takes the table over
        held = b.app.state.tables.tables[table["table"]]
        b.app.state.tables.deployment.listener.close()            # B hears nothing from now on
        start = time.monotonic()
        back = a.post(f"/api/tables/{table['table']}/takeback", json={"token": token})
        took = time.monotonic() - start
        assert back.status_code == 200, back.text
        # B let it go when its heartbeat saw A's want (the notice never reached it).
        assert held.moved and table["table"] not in b.app.state.tables.tables
        assert took < 5.0, took
        again = back.json()
        assert again["event_count"] < s["event_count"]
        # B's next move takes the table back, loaded from the store: the rewound log.
        nxt = _move(b, table, token, again)
        assert nxt["event_count"] > again["event_count"]
        held = b.app.state.tables.tables[table["table"]]
        assert held.rewinds == 1
        stored = PgTableStore(pg_url)
        try:
            log = load_game(stored.load(table["table"]).save).action_log()
        finally:
            stored.close()
        assert held.game.action_log() == log
