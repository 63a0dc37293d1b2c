"""Hostile clients, in process (docs/server.md, "Limits", "Seats", "Errors", "Logs"): look-alike
and invisible names, strict JSON, token and invite guesses, spectator slots per address, the
auth window, a 503 over a socket, redaction and the serve command's help. The same limits
against real sockets are tests/test_server_hostile_serve.py."""
from __future__ import annotations

import asyncio
import threading

import pytest
from starlette.websockets import WebSocketDisconnect

from cardcore.server import Limits, create_app
from cardcore.server.api_errors import unavailable
from cardcore.server.logs import redact
from cardcore.server.store import StoreUnavailable
from server_helpers import TestClient

pytestmark = [pytest.mark.slow,                     # the server's front end (conftest.py)
              pytest.mark.filterwarnings("ignore::DeprecationWarning")]

JSON = {"Content-Type": "application/json"}


@pytest.fixture
def app(tmp_path):
    return create_app(tmp_path / "t.sqlite3", limits=Limits(create_burst=1000))


@pytest.fixture
def client(app):
    with TestClient(app) as c:
        yield c


def create(client, **body):
    r = client.post("/api/tables", json={"game": "kings_stakes", **body})
    assert r.status_code == 201, r.text
    return r.json()


def claim(client, table, **body):
    return client.post(f"/api/tables/{table}/seats", json=body)


def mover_token(client, made):
    mover = client.get(f"/api/tables/{made['table']}").json()["current_player"]
    return made["seats"][str(mover)]


# ------------------------------------------------------------------ names (Unicode TS #39)
LOOK_ALIKES = ["Ann\ufe0f",            # a variation selector
               "An\u034fn",            # a combining grapheme joiner
               "\u0410nn",             # Cyrillic A
               "ANN", "Ann\u200d"]     # case; a zero-width joiner


@pytest.mark.parametrize("other", LOOK_ALIKES)
def test_a_look_alike_name_is_the_same_name(client, other):
    made = create(client, players=2, names={"0": "Ann"}, open_seats=[1])
    r = claim(client, made["table"], invite=made["invite"], name=other)
    assert r.status_code in (409, 422) and r.json()["field"] == "name", r.text
    r = client.post("/api/tables", json={"game": "kings_stakes", "players": 2,
                                         "names": {"0": "Ann", "1": other}})
    assert r.status_code == 422 and r.json()["field"] == "names", r.text


@pytest.mark.parametrize("name", ["\u3164", "\u3164\u3164", "\u115f", "\u0301\u0301",
                                  "a" + "\u0301" * 23, "a" + "\u0301" * 4, "\u200b",
                                  "...", "-_-"])
def test_invisible_and_overmarked_names_are_refused(client, name):
    made = create(client, players=2, open_seats=[1])
    r = claim(client, made["table"], invite=made["invite"], name=name)
    assert r.status_code == 422 and r.json()["field"] == "name", (name, r.text)


@pytest.mark.parametrize("name", ["Zoë", "Nguyễn", "李小龍", "Борис", "O'Neil", "R2-D2",
                                  "e\u0302\u0323"])       # ệ spelt with two marks
def test_real_names_pass(client, name):
    made = create(client, players=2, open_seats=[1])
    r = claim(client, made["table"], invite=made["invite"], name=name)
    assert r.status_code == 201, (name, r.text)


# ------------------------------------------------------------------ strict JSON
@pytest.mark.parametrize("raw", [
    b'{"game": "kings_stakes", "game": "manna"}',                # a duplicate key
    b'\xef\xbb\xbf{"game": "kings_stakes"}',                     # a BOM
    '{"game": "kings_stakes"}'.encode("utf-16"),                 # UTF-16
    '{"game": "kings_stakes"}'.encode("utf-32-le"),              # UTF-32, no BOM
    b'{"game": "kings_\xff"}',                                   # not UTF-8
    b'{"game": "kings_stakes", "seed": NaN}'])                   # not JSON
def test_a_body_that_is_not_strict_json_is_400_and_makes_nothing(client, raw):
    before = client.get("/api/tables").json()
    r = client.post("/api/tables", content=raw, headers=JSON)
    assert r.status_code == 400, r.text
    assert client.get("/api/tables").json() == before


def test_a_socket_message_that_is_not_strict_json_is_400(client):
    made = create(client)
    token = mover_token(client, made)
    with client.websocket_connect(f"/ws/tables/{made['table']}?token={token}") as ws:
        first = ws.receive_json()
        move = first["legal"][0]["id"]
        for raw in (f'{{"type": "action", "action": {move}, "type": "ping"}}',
                    f'\ufeff{{"type": "action", "action": {move}}}'):
            ws.send_text(raw)
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["status"] == 400, reply
        ws.send_bytes(f'{{"type": "action", "action": {move}}}'.encode("utf-16"))
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["status"] == 400, reply
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}           # nothing was played meanwhile
    assert client.get(f"/api/tables/{made['table']}").json()["event_count"] == \
        first["event_count"]


def test_after_minus_one_is_400_over_http_and_a_socket(client):
    made = create(client)
    token = mover_token(client, made)
    state = client.get(f"/api/tables/{made['table']}", params={"token": token}).json()
    r = client.post(f"/api/tables/{made['table']}/actions",
                    json={"token": token, "action": state["legal"][0]["id"], "after": -1})
    assert r.status_code == 400 and "after" in r.json()["error"]
    with client.websocket_connect(f"/ws/tables/{made['table']}?token={token}") as ws:
        ws.receive_json()
        ws.send_json({"type": "action", "action": state["legal"][0]["id"], "after": -1})
        reply = ws.receive_json()
        assert reply["type"] == "error" and reply["status"] == 400


def test_a_seat_00_and_a_seed_of_10_to_the_100_are_refused(client):
    r = client.post("/api/tables", json={"game": "kings_stakes", "names": {"00": "Ann"}})
    assert r.status_code == 422 and r.json()["field"] == "names"
    r = client.post("/api/tables", json={"game": "kings_stakes", "seed": 10 ** 100})
    assert r.status_code == 422 and r.json()["option"] == "seed"
    assert client.post("/api/tables", json={"game": "kings_stakes",
                                            "seed": 2 ** 64 - 1}).status_code == 201


# ------------------------------------------------------------------ guesses
def test_token_and_invite_guesses_are_limited_per_address_with_429_and_a_metric(tmp_path):
    app = create_app(tmp_path / "t.sqlite3", limits=Limits(guess_rate=0.01, guess_burst=5))
    with TestClient(app, client=("203.0.113.7", 1000)) as guesser, \
            TestClient(app, client=("198.51.100.1", 1000)) as player:
        made = create(player, players=2, open_seats=[1])
        table = made["table"]
        statuses = [guesser.get(f"/api/tables/{table}", params={"token": f"guess{k}"}
                                ).status_code for k in range(5)]
        assert statuses == [403] * 5
        r = claim(guesser, table, invite="x" * 32, name="Eve")
        assert r.status_code == 429 and int(r.headers["Retry-After"]) >= 1
        # Once limited, even a right token waits: the limit is the address's, not the token's.
        r = guesser.get(f"/api/tables/{table}", params={"token": made["seats"]["0"]})
        assert r.status_code == 429
        with guesser.websocket_connect(f"/ws/tables/{table}?token=guess") as ws:
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["status"] == 429
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1013
        # Another address is not affected; a good token never counts.
        for _ in range(10):
            assert player.get(f"/api/tables/{table}",
                              params={"token": made["seats"]["0"]}).status_code == 200
        metrics = player.get("/metrics").text
        assert 'cardcore_refusals_total{reason="guesses"}' in metrics
        assert "cardcore_bad_credentials_total 5.0" in metrics, metrics


def test_a_token_miss_rereads_the_seats_off_the_event_loop(client, monkeypatch):
    made = create(client, players=2, open_seats=[1])
    server = client.app.state.tables
    on_loop = []

    def seats(table_id):
        try:
            asyncio.get_running_loop()
            on_loop.append(True)
        except RuntimeError:                        # a worker thread: no loop runs here
            on_loop.append(False)
        return None
    # As on PostgreSQL: the deployment of a shared store re-reads the seats on a miss.
    from cardcore.server.deployment import OneProcess, SharedStore

    class Shared(OneProcess):
        seats_changed = SharedStore.seats_changed
    monkeypatch.setattr(server, "deployment", Shared(server))
    monkeypatch.setattr(server.store, "seats", seats)
    monkeypatch.setattr(server.writer, "seats", seats)
    monkeypatch.setattr(server.reads.store, "seats", seats)     # the reads lane's connection
    r = client.get(f"/api/tables/{made['table']}", params={"token": "not-a-token"})
    assert r.status_code == 403
    assert on_loop == [False]


# ------------------------------------------------------------------ sockets
def test_spectator_slots_are_limited_per_address(tmp_path):
    app = create_app(tmp_path / "t.sqlite3",
                     limits=Limits(max_spectators=6, max_spectators_per_address=2))
    with TestClient(app, client=("203.0.113.7", 1000)) as a, \
            TestClient(app, client=("198.51.100.1", 1000)) as b:
        made = create(a)
        url = f"/ws/tables/{made['table']}"
        with a.websocket_connect(url) as w1, a.websocket_connect(url) as w2:
            w1.receive_json()
            w2.receive_json()
            with a.websocket_connect(url) as w3:
                reply = w3.receive_json()
                assert reply["type"] == "error" and reply["status"] == 503
                assert "from 203.0.113.7" in reply["error"]
                with pytest.raises(WebSocketDisconnect) as closed:
                    w3.receive_json()
                assert closed.value.code == 1013
            with b.websocket_connect(url) as w4:                # another address still watches
                assert w4.receive_json()["type"] == "state"
        assert 'reason="spectators_per_address"' in b.get("/metrics").text


def test_a_late_auth_is_refused_after_the_auth_window(tmp_path):
    app = create_app(tmp_path / "t.sqlite3", limits=Limits(auth_timeout=0.05))
    with TestClient(app) as c:
        made = create(c)
        with c.websocket_connect(f"/ws/tables/{made['table']}") as ws:
            ws.receive_json()
            threading.Event().wait(0.3)                         # past the window, whatever the load
            ws.send_json({"type": "auth", "token": made["seats"]["0"]})
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["status"] == 400
            assert "within" in reply["error"]


def test_a_503_over_a_socket_is_followed_by_the_tables_state(client, monkeypatch):
    made = create(client)
    token = mover_token(client, made)
    server = client.app.state.tables

    async def unreachable(*args, **kwargs):          # the store down before the move
        raise unavailable(StoreUnavailable("PostgreSQL is restarting"))
    with client.websocket_connect(f"/ws/tables/{made['table']}?token={token}") as ws:
        first = ws.receive_json()
        monkeypatch.setattr(server, "act", unreachable)
        ws.send_json({"type": "action", "action": first["legal"][0]["id"],
                      "after": first["event_count"], "id": "m-1"})
        error = ws.receive_json()
        assert error["type"] == "error" and error["status"] == 503 and error["id"] == "m-1"
        assert "nothing was changed" in error["error"]
        ws.send_json({"type": "ping"})
        state = ws.receive_json()                   # before the pong: the table as it is
        assert state["type"] == "state" and state["event_count"] == first["event_count"]
        assert state["legal"] == first["legal"]
        assert ws.receive_json() == {"type": "pong"}
        monkeypatch.undo()
        ws.send_json({"type": "action", "action": first["legal"][0]["id"],
                      "after": first["event_count"], "id": "m-2"})
        again = ws.receive_json()
        assert again["type"] == "state" and again["id"] == "m-2"
        assert again["event_count"] > first["event_count"]


# ------------------------------------------------------------------ logs and help
@pytest.mark.parametrize("line", [
    '< TEXT \'{"type": "auth", "token": "S3cr3t-tok_en"}\' [48 bytes]',
    '{"type":"auth","token":"S3cr3t-tok_en"}',
    'body {"invite": "S3cr3t-tok_en", "name": "Ann"}',
    "GET /tables/abc?invite=S3cr3t-tok_en HTTP/1.1",
    "GET /tables/abc#invite=S3cr3t-tok_en",
    '{"creator_token": "S3cr3t-tok_en"}',
    '{"seats": {"0": "S3cr3t-tok_en"}}'])
def test_tokens_and_invites_are_redacted_from_any_line(line):
    assert "S3cr3t" not in redact(line), redact(line)
    assert "[redacted]" in redact(line)


def test_serve_help_shows_readable_defaults():
    from cardcore.cli import build_parser
    serve = next(a for a in build_parser()._subparsers._group_actions[0].choices.items()
                 if a[0] == "serve")[1]
    text = " ".join(serve.format_help().split())
    assert "e+0" not in text
    assert "(default 1048576)" in text and "(default 0.2)" in text
    assert "(default 604800)" in text
