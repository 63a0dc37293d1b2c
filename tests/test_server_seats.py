"""Seats, invites and presence (docs/server.md, "Seats, invites and presence"): open seats
claimed with the invite and a name, leaving, rematch, presence in states and messages,
unlisted tables and tables without spectators, all of it kept across a restart."""
from __future__ import annotations

import sqlite3

import pytest
from jsonschema import Draft202012Validator
from starlette.websockets import WebSocketDisconnect

from cardcore.server import Limits, create_app
from server_helpers import TestClient

pytestmark = pytest.mark.slow       # the server's front end (conftest.py's rule)


@pytest.fixture
def db(tmp_path):
    return tmp_path / "t.sqlite3"


@pytest.fixture
def client(db):
    with TestClient(create_app(db, limits=Limits(create_burst=1000))) as c:
        yield c


def create(client, **body):
    r = client.post("/api/tables", json={"game": "kings_stakes", **body})
    assert r.status_code == 201, r.text
    return r.json()


def bearer(token):
    return {"Authorization": f"Bearer {token}"}


def claim(client, table, **body):
    return client.post(f"/api/tables/{table}/seats", json=body)


def spec_schema(client, name):
    spec = client.get("/openapi.json").json()
    return Draft202012Validator({**spec["components"]["schemas"][name],
                                 "components": spec["components"]})


def closed_with(ws) -> int:
    with pytest.raises(WebSocketDisconnect) as closed:
        while True:
            ws.receive_json()
    return closed.value.code


def test_open_seats_are_claimed_with_the_invite_and_a_name(client):
    made = create(client, players=4, open_seats=[1, 2], bots={"3": "greedy"},
                  names={"0": "Ann"})
    table, invite = made["table"], made["invite"]
    assert set(made["seats"]) == {"0"} and made["open_seats"] == [1, 2]
    assert isinstance(invite, str) and len(invite) >= 32 and made["names"] == {"0": "Ann"}
    seats = client.get(f"/api/tables/{table}").json()["seats"]
    assert [(s["name"], s["presence"]) for s in seats] == [
        ("Ann", "away"), (None, "open"), (None, "open"), (None, "bot")]
    r = claim(client, table, invite=invite, name="  Борис  ")
    assert r.status_code == 201
    bob = r.json()
    assert bob["seat"] == 1 and bob["name"] == "Борис" and set(bob) == {"table", "seat", "token",
                                                                      "name"}
    spec_schema(client, "Claimed").validate(bob)
    mine = client.get(f"/api/tables/{table}", headers=bearer(bob["token"])).json()
    assert mine["seat"] == 1 and mine["view"]["hand"]          # its own token, its own seat
    assert [s["name"] for s in mine["seats"]] == ["Ann", "Борис", None, None]
    for who in (None, made["seats"]["0"]):                     # names are for everybody
        state = client.get(f"/api/tables/{table}",
                           headers=bearer(who) if who else {}).json()
        assert state["seats"][1]["name"] == "Борис"
        spec_schema(client, "State").validate(state)
    # Taken, a bot, no such seat, a name already used, a bad invite, no invite.
    assert claim(client, table, invite=invite, name="Cy", seat=1).status_code == 409
    assert claim(client, table, invite=invite, name="Cy", seat=3).json()["field"] == "seat"
    assert claim(client, table, invite=invite, name="Cy", seat=9).status_code == 422
    assert claim(client, table, invite=invite, name="Cy", seat="1").status_code == 400
    r = claim(client, table, invite=invite, name="борис")
    assert r.status_code == 409 and r.json()["field"] == "name"
    r = claim(client, table, invite="x" * 40, name="Cy")
    assert r.status_code == 403 and r.json()["field"] == "invite"
    assert claim(client, table, name="Cy").status_code == 403
    assert claim(client, table, invite=made["seats"]["0"], name="Cy").status_code == 403
    last = claim(client, table, invite=invite, name="Cy").json()
    assert last["seat"] == 2
    r = claim(client, table, invite=invite, name="Dee")
    assert r.status_code == 409 and "no seat is open" in r.json()["error"]
    assert client.get("/api/tables").json()["tables"][0]["open_seats"] == []


@pytest.mark.parametrize("name, status", [
    ("", 422), ("   ", 422), ("x" * 25, 422), ("a\u202eb", 422), ("a\nb", 422),
    ("<b>hi</b>", 422), ("a  b", 422), (7, 400), (None, 400), (["Ann"], 400),
    ("x" * 5000, 422)])
def test_bad_names_are_refused_naming_the_field(client, name, status):
    made = create(client, players=2, open_seats=[1])
    before = client.get(f"/api/tables/{made['table']}").json()
    r = claim(client, made["table"], invite=made["invite"], name=name)
    assert r.status_code == status
    body = r.json()
    assert body["field"] == "name" and len(body["error"]) < 160       # at most 60 echoed
    assert client.get(f"/api/tables/{made['table']}").json() == before


def test_good_names_and_creation_checks(client):
    made = create(client, players=3, open_seats=[1, 2])
    for k, name in enumerate(["O'Neil-Smith Jr.", "李小龍"]):
        r = claim(client, made["table"], invite=made["invite"], name=name)
        assert r.status_code == 201 and r.json() == {**r.json(), "seat": k + 1, "name": name}
    bad = [({"open_seats": [5]}, 422, "open_seats"), ({"open_seats": "1"}, 400, "open_seats"),
           ({"open_seats": ["1"]}, 400, "open_seats"), ({"names": {"x": "Al"}}, 422, "names"),
           ({"open_seats": [1], "bots": {"1": "greedy"}}, 422, "open_seats"),
           ({"names": {"1": "Al"}, "open_seats": [1]}, 422, "names"),
           ({"names": {"0": "Al", "1": "al"}}, 422, "names"),
           ({"names": {"0": "\x00"}}, 422, "names"), ({"listed": "no"}, 400, "listed"),
           ({"spectators": 0}, 400, "spectators"), ({"join": "everyone"}, 422, "join")]
    for body, status, field in bad:
        r = client.post("/api/tables", json={"game": "kings_stakes", "players": 3, **body})
        assert (r.status_code, r.json().get("field")) == (status, field), body


def test_join_anyone_needs_no_invite_and_is_listed_with_its_open_seats(client):
    made = create(client, players=2, open_seats=[0], join="anyone", names={"1": "Host"})
    row = next(t for t in client.get("/api/tables").json()["tables"]
               if t["table"] == made["table"])
    assert row["open_seats"] == [0] and row["join"] == "anyone" and row["names"] == {"1": "Host"}
    assert row["presence"] == ["open", "away"]
    with client.websocket_connect(f"/ws/tables/{made['table']}",
                                  subprotocols=["cardcore", f"cardcore.token.{made['seats']['1']}"]):
        row = client.get("/api/tables").json()["tables"][0]
        assert row["table"] == made["table"] and row["presence"] == ["open", "connected"]
    r = claim(client, made["table"], name="Guest")
    assert r.status_code == 201 and r.json()["seat"] == 0


def test_leaving_opens_the_seat_and_its_turn_waits(client):
    made = create(client, players=4, seed=3)
    table = made["table"]
    state = client.get(f"/api/tables/{table}").json()
    mover = state["current_player"]
    token = made["seats"][str(mover)]
    with client.websocket_connect(f"/ws/tables/{table}",
                                  subprotocols=["cardcore", f"cardcore.token.{token}"]) as ws:
        assert ws.receive_json()["seats"][mover]["presence"] == "connected"
        assert client.delete(f"/api/tables/{table}/seats/{mover}").status_code == 401
        other = made["seats"][str((mover + 1) % 4)]
        assert client.delete(f"/api/tables/{table}/seats/{mover}",
                             headers=bearer(other)).status_code == 403
        r = client.delete(f"/api/tables/{table}/seats/{mover}", headers=bearer(token))
        assert r.status_code == 204
        error = ws.receive_json()
        assert error["type"] == "error" and error["status"] == 403 and "left" in error["error"]
        assert closed_with(ws) == 4010
    assert client.get(f"/api/tables/{table}", headers=bearer(token)).status_code == 403
    after = client.get(f"/api/tables/{table}").json()
    assert after["seats"][mover]["presence"] == "open"
    assert after["current_player"] == mover and after["event_count"] == state["event_count"]
    r = claim(client, table, invite=made["invite"], name="Back", seat=mover)
    assert r.status_code == 201
    fresh = r.json()["token"]
    legal = client.get(f"/api/tables/{table}", headers=bearer(fresh)).json()["legal"]
    r = client.post(f"/api/tables/{table}/actions", headers=bearer(fresh),
                    json={"action": legal[0]["id"]})
    assert r.status_code == 200 and r.json()["current_player"] != mover


def test_an_open_seat_on_a_clock_is_played_by_the_bot(client):
    import time
    made = create(client, players=2, game="crazy_eights", open_seats=[0, 1],
                  clock={"per_move": 0.05})
    assert made["seats"] == {}
    start = client.get(f"/api/tables/{made['table']}").json()["event_count"]
    deadline = time.monotonic() + 20
    while client.get(f"/api/tables/{made['table']}").json()["event_count"] < start + 2:
        assert time.monotonic() < deadline
        time.sleep(0.05)


def play_to_end(client, made):
    table = made["table"]
    for _ in range(2000):
        state = client.get(f"/api/tables/{table}").json()
        if state["over"]:
            return state
        token = made["seats"][str(state["current_player"])]
        legal = client.get(f"/api/tables/{table}", headers=bearer(token)).json()["legal"]
        client.post(f"/api/tables/{table}/actions", headers=bearer(token),
                    json={"action": legal[0]["id"]})
    raise AssertionError("the match did not end")


def test_du_12_a_rematch_continues_the_fools_count_through_a_restart(client, db):
    """Issue 48, item 5: a 3-hand Durak match's rematch carries its count (the state's
    `carried`, stored with the table, so a restarted server has it), and the rematch of that
    rematch carries the sum of both; a first match carries nothing."""
    made = create(client, game="durak", players=3, options={"hands": 3}, bots={"2": "random"})
    table, t0 = made["table"], made["seats"]["0"]
    assert client.get(f"/api/tables/{table}").json()["carried"] is None
    first = play_to_end(client, made)["scores"]
    assert sum(first) <= 3
    second = client.post(f"/api/tables/{table}/rematch", headers=bearer(t0)).json()["table"]
    state = client.get(f"/api/tables/{second}").json()
    assert state["carried"] == first and state["scores"] == [0, 0, 0]
    spec_schema(client, "State").validate(state)
    with TestClient(create_app(db, limits=Limits(create_burst=1000))) as again:  # a restart
        assert again.get(f"/api/tables/{second}").json()["carried"] == first
        then = play_to_end(again, {"table": second, "seats": made["seats"]})["scores"]
        third = again.post(f"/api/tables/{second}/rematch", headers=bearer(t0)).json()["table"]
        carried = again.get(f"/api/tables/{third}").json()["carried"]
    assert carried == [a + b for a, b in zip(first, then)]


def test_rematch_keeps_seats_tokens_and_names_once(client):
    made = create(client, game="crazy_eights", players=3, bots={"2": "greedy"},
                  names={"0": "Ann", "1": "Bob"}, listed=False, options={"max_turns": 40},
                  clock={"per_move": 60})
    table = made["table"]
    t0, t1 = made["seats"]["0"], made["seats"]["1"]
    r = client.post(f"/api/tables/{table}/rematch", headers=bearer(t0))
    assert r.status_code == 409                                     # not over yet
    with client.websocket_connect(f"/ws/tables/{table}",
                                  subprotocols=["cardcore", f"cardcore.token.{t1}"]) as ws:
        ws.receive_json()
        play_to_end(client, made)
        assert client.post(f"/api/tables/{table}/rematch").status_code == 401
        r = client.post(f"/api/tables/{table}/rematch", headers=bearer(t0))
        assert r.status_code == 200
        new = r.json()
        spec_schema(client, "Rematch").validate(new)
        assert new["from"] == table and new["table"] != table
        again = client.post(f"/api/tables/{table}/rematch", headers=bearer(t1)).json()
        assert again["table"] == new["table"]                       # idempotent
        seen = []
        while not seen or seen[-1]["type"] != "rematch":
            seen.append(ws.receive_json())
        assert seen[-1] == {"type": "rematch", "table": new["table"]}
        spec_schema(client, "WsRematch").validate(seen[-1])
    old = client.get(f"/api/tables/{table}").json()
    assert old["rematch"] == new["table"]
    fresh = client.get(f"/api/tables/{new['table']}", headers=bearer(t1)).json()
    assert fresh["seat"] == 1 and not fresh["over"] and fresh["rematch"] is None
    assert [s["name"] for s in fresh["seats"]] == ["Ann", "Bob", None]
    assert [s["bot"] for s in fresh["seats"]] == [None, None, "greedy"]
    assert fresh["options"] == old["options"] and fresh["listed"] is False
    assert fresh["clock"]["per_move"] == 60
    assert fresh["fairness"]["commitment"] != (old["fairness"] or {}).get("commitment")
    assert new["fairness"] == fresh["fairness"]
    listed = [t["table"] for t in client.get("/api/tables?over=1").json()["tables"]]
    assert table not in listed and new["table"] not in listed      # unlisted, as before


def test_presence_in_states_and_messages(client):
    made = create(client, players=3, bots={"2": "random"}, seed=5)
    table = made["table"]
    t0, t1 = made["seats"]["0"], made["seats"]["1"]

    def presences(state):
        return [s["presence"] for s in state["seats"]]
    with client.websocket_connect(f"/ws/tables/{table}?presence=1") as watcher:
        assert presences(watcher.receive_json()) == ["away", "away", "bot"]
        with client.websocket_connect(f"/ws/tables/{table}?presence=1",
                                      subprotocols=["cardcore", f"cardcore.token.{t0}"]) as ws:
            assert presences(ws.receive_json()) == ["connected", "away", "bot"]
            message = watcher.receive_json()
            assert message == {"type": "presence", "seat": 0, "presence": "connected",
                               "name": None}
            spec_schema(client, "WsPresence").validate(message)
            # A second socket of seat 0 changes nothing; seat 1 arrives.
            with client.websocket_connect(f"/ws/tables/{table}",
                                          subprotocols=["cardcore", f"cardcore.token.{t0}"]):
                with client.websocket_connect(f"/ws/tables/{table}",
                                              subprotocols=["cardcore",
                                                            f"cardcore.token.{t1}"]):
                    assert ws.receive_json()["seat"] == 1
                    assert watcher.receive_json()["seat"] == 1
                assert ws.receive_json() == {"type": "presence", "seat": 1, "presence": "away",
                                             "name": None}
            assert client.get(f"/api/tables/{table}").json()["seats"][0]["presence"] \
                == "connected"
        assert watcher.receive_json()["seat"] == 1                  # seat 1 went, then 0
        assert watcher.receive_json() == {"type": "presence", "seat": 0, "presence": "away",
                                          "name": None}
    with client.websocket_connect(f"/ws/tables/{table}?presence=2") as ws:
        assert ws.receive_json()["status"] == 400 and closed_with(ws) == 1008


def test_unlisted_tables_and_tables_without_spectators(client):
    hidden = create(client, listed=False)
    private = create(client, spectators=False, seed=2)
    listed = [t["table"] for t in client.get("/api/tables").json()["tables"]]
    assert hidden["table"] not in listed and private["table"] in listed
    assert client.get(f"/api/tables/{hidden['table']}").status_code == 200
    table = private["table"]
    r = client.get(f"/api/tables/{table}")
    assert r.status_code == 403 and "spectators" in r.json()["error"]
    assert client.get(f"/api/tables/{table}/record").status_code == 403
    token = private["seats"]["0"]
    assert client.get(f"/api/tables/{table}", headers=bearer(token)).json()["spectators"] is False
    with client.websocket_connect(f"/ws/tables/{table}") as ws:
        refused = ws.receive_json()
        assert refused["status"] == 403 and closed_with(ws) == 1008
    with client.websocket_connect(f"/ws/tables/{table}",
                                  subprotocols=["cardcore", f"cardcore.token.{token}"]) as ws:
        assert ws.receive_json()["seat"] == 0


def test_seats_and_settings_survive_a_restart(db):
    with TestClient(create_app(db)) as c:
        made = create(c, game="crazy_eights", players=3, open_seats=[1, 2], names={"0": "Ann"},
                      listed=False, spectators=False, join="invite", bots={})
        bob = claim(c, made["table"], invite=made["invite"], name="Bob").json()
        token0 = made["seats"]["0"]
        play = {"0": token0, "1": bob["token"]}
        c.delete(f"/api/tables/{made['table']}/seats/1", headers=bearer(bob["token"]))
        bob = claim(c, made["table"], invite=made["invite"], name="Bob2").json()
        play["1"] = bob["token"]
        cy = claim(c, made["table"], invite=made["invite"], name="Cy").json()
        play["2"] = cy["token"]
    with TestClient(create_app(db)) as c:
        state = c.get(f"/api/tables/{made['table']}", headers=bearer(token0)).json()
        assert [s["name"] for s in state["seats"]] == ["Ann", "Bob2", "Cy"]
        assert (state["listed"], state["spectators"], state["join"]) == (False, False, "invite")
        assert c.get(f"/api/tables/{made['table']}").status_code == 403
        ended = play_to_end_as(c, made["table"], play)
        rematch = c.post(f"/api/tables/{made['table']}/rematch",
                         headers=bearer(token0)).json()["table"]
        assert ended["over"]
    with TestClient(create_app(db)) as c:
        old = c.get(f"/api/tables/{made['table']}", headers=bearer(token0)).json()
        assert old["rematch"] == rematch
        assert c.post(f"/api/tables/{made['table']}/rematch",
                      headers=bearer(cy["token"])).json()["table"] == rematch
        new = c.get(f"/api/tables/{rematch}", headers=bearer(bob["token"])).json()
        assert new["seat"] == 1 and new["spectators"] is False
        c.delete(f"/api/tables/{rematch}/seats/2", headers=bearer(cy["token"]))
        again = claim(c, rematch, invite=made["invite"], name="Dee")      # the same invite
        assert again.status_code == 201 and again.json()["seat"] == 2


def play_to_end_as(client, table, tokens):
    for _ in range(3000):
        state = client.get(f"/api/tables/{table}", headers=bearer(tokens["0"])).json()
        if state["over"]:
            return state
        token = tokens[str(state["current_player"])]
        legal = client.get(f"/api/tables/{table}", headers=bearer(token)).json()["legal"]
        client.post(f"/api/tables/{table}/actions", headers=bearer(token),
                    json={"action": legal[0]["id"]})
    raise AssertionError("the match did not end")


def test_an_older_database_gets_the_seat_columns(db):
    with TestClient(create_app(db)) as c:
        made = create(c, seed=1)
    con = sqlite3.connect(db)
    for column in ("names", "invite_hash", "listed", "spectators", "join_mode", "rematch",
                   "carried"):
        con.execute(f"ALTER TABLE tables DROP COLUMN {column}")
    con.execute("DROP TABLE presence")
    con.commit()
    con.close()
    with TestClient(create_app(db)) as c:
        state = c.get(f"/api/tables/{made['table']}").json()
        assert (state["listed"], state["spectators"], state["join"]) == (True, True, "invite")
        assert state["carried"] is None                 # a first match carries nothing
        assert [s["presence"] for s in state["seats"]] == ["away"] * 4
        assert made["table"] in [t["table"] for t in c.get("/api/tables").json()["tables"]]
        # No invite was ever stored: nobody claims a seat of it, once left.
        c.delete(f"/api/tables/{made['table']}/seats/0", headers=bearer(made["seats"]["0"]))
        assert claim(c, made["table"], invite=made["invite"], name="A").status_code == 403
