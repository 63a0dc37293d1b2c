"""Take-backs against bots (docs/server.md, "Take-backs"; issue 24): the table option, the
HTTP endpoint and the WebSocket message, what the other sockets are told, the store (a cut
below a checkpoint, a restart), the clock and the match record."""
from __future__ import annotations

import time

import pytest

from cardcore import load_game
from cardcore.records import verify
from cardcore.server import create_app
from cardcore.server.store import TableStore, TableUpdate

from server_helpers import TestClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SHORT = {"game": "crazy_eights", "players": 2, "options": {"max_turns": 12}}


@pytest.fixture()
def client(tmp_path):
    with TestClient(create_app(tmp_path / "t.sqlite3")) as c:
        yield c


def made(client, body=None, **extra):
    body = body or {"game": "kings_stakes", "players": 2, "seed": 3,
                    "bots": {"1": "greedy"}, "takeback": True}
    r = client.post("/api/tables", json={**body, **extra})
    assert r.status_code == 201, r.text
    return r.json()


def state(client, table, token):
    return client.get(f"/api/tables/{table['table']}",
                      headers={"Authorization": f"Bearer {token}"}).json()


def move(client, table, token, s):
    r = client.post(f"/api/tables/{table['table']}/actions",
                    json={"token": token, "action": s["legal"][0]["id"],
                          "after": s["event_count"]})
    assert r.status_code == 200, r.text
    return r.json()


def take_back(client, table, token, **body):
    return client.post(f"/api/tables/{table['table']}/takeback", json={"token": token, **body})


def memory(client, table):
    return client.app.state.tables.tables[table["table"]]


def test_the_option_is_off_by_default_and_needs_exactly_one_person(client):
    plain = made(client, {"game": "kings_stakes", "players": 2, "bots": {"1": "greedy"}})
    token = plain["seats"]["0"]
    assert state(client, plain, token)["takeback"] is None
    r = take_back(client, plain, token)
    assert r.status_code == 409 and r.json()["option"] == "takeback"
    for body in ({"game": "kings_stakes", "players": 2, "takeback": True},        # two people
                 {"game": "kings_stakes", "players": 2, "takeback": True,
                  "bots": {"0": "greedy", "1": "greedy"}},                       # nobody
                 {"game": "kings_stakes", "players": 2, "takeback": "yes",
                  "bots": {"1": "greedy"}}):
        r = client.post("/api/tables", json=body)
        assert r.status_code == 422 and r.json()["option"] == "takeback", r.text
    assert client.app.state.tables.store.count_open() == 1        # nothing was created


def test_a_take_back_removes_the_move_and_the_bot_moves_after_it(client):
    table = made(client)
    token = table["seats"]["0"]
    first = state(client, table, token)
    assert first["takeback"] == {"rewinds": 0, "available": False}
    r = take_back(client, table, token)
    assert r.status_code == 409 and "no move to take back" in r.json()["error"]
    log_before = memory(client, table).game.action_log()
    after = move(client, table, token, first)
    assert after["takeback"]["available"]
    assert len(memory(client, table).game.action_log()) > len(log_before) + 1  # bots replied
    r = take_back(client, table, token, after=after["event_count"])
    assert r.status_code == 200, r.text
    back = r.json()
    assert back["rewound"] is True and back["takeback"] == {"rewinds": 1, "available": False}
    assert memory(client, table).game.action_log() == log_before
    for key in ("view", "legal", "event_count", "current_player", "scores"):
        assert back[key] == first[key], key
    assert back["events"] == first["events"]           # the whole stream again, from 0
    assert state(client, table, token)["event_count"] == first["event_count"]
    # Play on from the rewound position: `after` is the lower event count now.
    again = move(client, table, token, back)
    assert again["event_count"] == after["event_count"]


def test_take_backs_are_refused_to_spectators_bad_tokens_and_stale_senders(client):
    table = made(client)
    token = table["seats"]["0"]
    s = move(client, table, token, state(client, table, token))
    url = f"/api/tables/{table['table']}/takeback"
    assert client.post(url, json={}).status_code == 403
    assert client.post(url, json={"token": "x" * 30}).status_code == 403
    assert client.post(url, json={"token": token, "extra": 1}).status_code == 400
    assert client.post(url, json={"token": token, "after": "1"}).status_code == 400
    stale = client.post(url, json={"token": token, "after": s["event_count"] - 1})
    assert stale.status_code == 409 and stale.json()["event_count"] == s["event_count"]
    assert state(client, table, token)["event_count"] == s["event_count"]   # unchanged


def test_repeated_take_backs_go_back_one_move_each(client):
    table = made(client)
    token = table["seats"]["0"]
    states = [state(client, table, token)]
    for _ in range(3):
        states.append(move(client, table, token, states[-1]))
    for k in (2, 1, 0):
        back = take_back(client, table, token).json()
        assert back["view"] == states[k]["view"] and back["legal"] == states[k]["legal"]
    assert back["takeback"] == {"rewinds": 3, "available": False}


def test_the_websocket_message_and_what_other_sockets_are_told(client):
    table = made(client)
    token = table["seats"]["0"]
    base = f"/ws/tables/{table['table']}"
    with client.websocket_connect(base, subprotocols=["cardcore", f"cardcore.token.{token}"]) \
            as seat, client.websocket_connect(base) as spectator:
        s = seat.receive_json()
        spectator.receive_json()
        seat.send_json({"type": "action", "action": s["legal"][0]["id"],
                        "after": s["event_count"], "id": 1})
        while True:
            moved = seat.receive_json()
            if moved.get("id") == 1:
                break
        while spectator.receive_json()["event_count"] != moved["event_count"]:
            pass
        seat.send_json({"type": "takeback", "after": moved["event_count"], "id": "undo"})
        got = [seat.receive_json()]
        while got[-1].get("id") != "undo":
            got.append(seat.receive_json())
        assert any(m.get("rewound") for m in got)
        assert got[-1]["event_count"] == s["event_count"] and got[-1]["legal"] == s["legal"]
        pushed = spectator.receive_json()
        assert pushed["type"] == "state" and pushed["rewound"] is True
        assert pushed["event_count"] == s["event_count"] < moved["event_count"]
        assert [e["n"] for e in pushed["events"]] == list(range(s["event_count"]))
        assert pushed["takeback"] == {"rewinds": 1, "available": False}
        spectator.send_json({"type": "takeback"})
        assert spectator.receive_json()["status"] == 403
        # The next move goes on from the lower count; the push is not marked rewound.
        seat.send_json({"type": "action", "action": s["legal"][0]["id"],
                        "after": s["event_count"], "id": 2})
        while (m := seat.receive_json()).get("id") != 2:
            assert m["type"] == "state"
        nxt = spectator.receive_json()
        assert "rewound" not in nxt and nxt["events"][0]["n"] == s["event_count"]


def test_a_cut_below_the_last_checkpoint_is_stored_and_survives_a_restart(tmp_path):
    body = {"game": "kings_stakes", "players": 4, "seed": 11, "takeback": True,
            "bots": {"1": "greedy", "2": "greedy", "3": "greedy"}}
    db = tmp_path / "t.sqlite3"
    with TestClient(create_app(db)) as client:
        table = made(client, body)
        token = table["seats"]["0"]
        s = state(client, table, token)
        held = memory(client, table)
        while True:                              # until a checkpoint lies after our last move
            s = move(client, table, token, s)
            assert not s["over"]
            cut = held.movers.last_move_of(held.game, 0)
            if held.checkpoint_at > cut:
                break
        full = held.game.action_log()
        back = take_back(client, table, token).json()
        assert held.game.action_log() == full[:cut] and held.actions == cut < 64 <= len(full)
        stored = TableStore(db)
        try:
            assert load_game(stored.load(table["table"]).save).action_log() == full[:cut]
            assert stored.generation(table["table"]) == (cut, None, 1)
        finally:
            stored.close()
    with TestClient(create_app(db)) as client:          # a restart
        again = state(client, table, token)
        for key in ("view", "legal", "event_count", "takeback"):
            assert again[key] == back[key], key
        nxt = move(client, table, token, again)
        assert nxt["event_count"] > again["event_count"]


def test_the_store_refuses_an_update_of_the_log_before_a_rewind(tmp_path):
    store = TableStore(tmp_path / "t.sqlite3")
    game = load_game(made_game_json())
    store.insert("t", game.name, game.num_players, game.to_json(), 0, 0, False, {1: "greedy"},
                 1, {0: "h"}, takeback=True)
    log = []
    for _ in range(6):
        game.apply(game.legal_action_ids()[0])
    log = game.action_log()
    assert store.save_many([TableUpdate("t", 0, log, game.current_player, False, None)]) == []
    short = load_game(made_game_json())
    for a in log[:2]:
        short.apply(a)
    cut = TableUpdate("t", 2, [], short.current_player, False, short.to_json(), True)
    assert not store.rewind(cut, 5)                     # the expected count is wrong
    assert not store.rewind(cut._replace(rewinds=1), 6)  # so is the generation
    assert store.rewind(cut, 6)
    assert store.generation("t") == (2, None, 1)
    # A process still on generation 0 tries to store the moves after its action 2.
    assert store.save_many([TableUpdate("t", 2, log[2:4], 0, False, None)]) == ["t"]
    assert store.save_many([TableUpdate("t", 2, log[2:4], 0, False, None, rewinds=1)]) == []
    assert load_game(store.load("t").save).action_log() == log[:4]
    store.close()


def made_game_json() -> str:
    from cardcore import new_game
    return new_game("kings_stakes", players=2, seed=5).to_json()


def test_a_match_with_take_backs_has_a_record_that_verifies(client):
    table = made(client, {**SHORT, "bots": {"1": "greedy"}, "takeback": True})
    token = table["seats"]["0"]
    s = state(client, table, token)
    moves = 0
    while not s["over"]:
        s = move(client, table, token, s)
        moves += 1
        if moves % 3 == 0 and not s["over"]:
            s = take_back(client, table, token).json()
    assert s["takeback"]["rewinds"] >= 1
    r = take_back(client, table, token)
    assert r.status_code == 409 and "over" in r.json()["error"]
    record = client.get(f"/api/tables/{table['table']}/record").json()
    summary = verify(record)
    assert summary["moves"] == len(record["save"]["actions"]) and summary["committed"]


def test_the_clock_restarts_at_the_rewound_turn_and_forgets_undone_timeouts(tmp_path):
    with TestClient(create_app(tmp_path / "t.sqlite3")) as client:
        table = made(client, {**SHORT, "bots": {"1": "greedy"}, "takeback": True,
                              "clock": {"per_move": 0.3, "on_timeout": "level:1"}})
        token = table["seats"]["0"]
        s = state(client, table, token)
        start = time.monotonic()
        while s["clock"]["timeouts"] == 0:              # the clock moves for the seat
            assert time.monotonic() - start < 20
            time.sleep(0.02)
            s = state(client, table, token)
        held = memory(client, table)
        back = take_back(client, table, token).json()
        clock = back["clock"]
        assert clock["timeouts"] == 0 and held.clock.timeouts == []
        assert clock["seat"] == back["current_player"] == 0
        assert held.clock.move == held.actions and 0 < clock["remaining"] <= 0.3
        assert held.clock_task is not None                # its timer runs again


def test_a_take_back_stops_the_bots_that_were_still_to_move(tmp_path):
    body = {"game": "crazy_eights", "players": 4, "seed": 2, "takeback": True,
            "bots": {"1": "greedy", "2": "greedy", "3": "greedy"}}
    with TestClient(create_app(tmp_path / "t.sqlite3", bot_delay=0.3)) as client:
        table = made(client, body)
        token = table["seats"]["0"]
        s = state(client, table, token)
        start = time.monotonic()
        while s["current_player"] != 0:
            assert time.monotonic() - start < 20
            time.sleep(0.05)
            s = state(client, table, token)
        log = memory(client, table).game.action_log()
        moved = move(client, table, token, s)
        assert moved["current_player"] != 0                   # the bots think, slowly
        back = take_back(client, table, token).json()
        assert back["legal"] == s["legal"] and memory(client, table).game.action_log() == log
        time.sleep(0.5)
        assert state(client, table, token)["event_count"] == s["event_count"]


def test_a_socket_back_from_before_a_take_back_gets_the_rewound_stream(client):
    table = made(client)
    token = table["seats"]["0"]
    s = move(client, table, token, move(client, table, token, state(client, table, token)))
    base = f"/ws/tables/{table['table']}"
    back = take_back(client, table, token).json()
    assert back["event_count"] < s["event_count"]
    with client.websocket_connect(f"{base}?since={s['event_count']}") as late:
        refused = late.receive_json()                   # past the end, same generation: 400
        assert refused["type"] == "error" and refused["status"] == 400
    with client.websocket_connect(f"{base}?since={s['event_count']}&rewinds=0") as late:
        first = late.receive_json()
        assert first["rewound"] is True and first["event_count"] == back["event_count"]
        assert [e["n"] for e in first["events"]] == list(range(back["event_count"]))
    with client.websocket_connect(f"{base}?since={back['event_count']}&rewinds=1") as fresh:
        first = fresh.receive_json()                    # up to date: nothing again
        assert "rewound" not in first and first["events"] == []
