"""The table server's protocol details (docs/server.md, issue 25): request ids and the
acknowledgement rule, options with their schema in /api/games, one notation limit and its
rule, clean errors for bad query values, no redirect that could carry a token, paging of the
table list, the oversize-message close, and the breakdown of team games over the wire."""
from __future__ import annotations

import json

import jsonschema
import pytest
from starlette.websockets import WebSocketDisconnect

import cardcore
from cardcore.game import MAX_ACTION_TEXT, NOTATION_RULE
from cardcore.server import Limits, create_app
from cardcore.server.messages import SINCE_RANGE
from cardcore.server.openapi import openapi_spec
from cardcore.server.sockets import MAX_REQUEST_ID, MAX_REQUEST_INT

from server_helpers import TestClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

JSON = {"Content-Type": "application/json"}
SPEC = openapi_spec()


def check(name: str, value: object) -> None:
    """``value`` against the OpenAPI document's schema ``name`` (its $refs resolved)."""
    schema = {**SPEC["components"]["schemas"][name], "components": SPEC["components"]}
    jsonschema.Draft202012Validator(schema).validate(value)


@pytest.fixture
def client(tmp_path):
    app = create_app(tmp_path / "t.sqlite3", bot_delay=0,
                     limits=Limits(create_rate=1000, create_burst=1000,
                                   max_tables_per_client=1000, message_rate=1000))
    with TestClient(app) as c:
        yield c


def make(client, game="crazy_eights", **body):
    r = client.post("/api/tables", json={"game": game, **body})
    assert r.status_code == 201, r.text
    return r.json()


def seat_socket(client, made, seat=0):
    token = made["seats"][str(seat)]
    return client.websocket_connect(f"/ws/tables/{made['table']}",
                                    subprotocols=["cardcore", f"cardcore.token.{token}"])


def legal_now(client, made, seat):
    state = client.get(f"/api/tables/{made['table']}",
                       headers={"Authorization": f"Bearer {made['seats'][str(seat)]}"}).json()
    return state


# ---------------------------------------------------------------- request ids
def test_an_action_with_an_id_is_answered_by_the_state_that_carries_it(client):
    made = make(client, players=2, options={"dealer": 1})       # seat 0 moves first
    with seat_socket(client, made, 0) as me, seat_socket(client, made, 1) as other, \
            client.websocket_connect(f"/ws/tables/{made['table']}") as watcher:
        first = me.receive_json()
        other.receive_json()
        watcher.receive_json()
        assert first["current_player"] == 0 and "id" not in first
        action = first["legal"][0]["id"]
        me.send_json({"type": "action", "action": action, "after": first["event_count"],
                      "id": "move-1"})
        answer = me.receive_json()
        check("WsState", answer)
        assert answer["type"] == "state" and answer["id"] == "move-1"
        # Acknowledged: its events are in this push (the first after the action).
        mine = [e for e in answer["events"] if e.get("id") == action and not e.get("auto")]
        assert mine and answer["event_count"] > first["event_count"]
        # The other sockets are pushed the change without the id: ids are the sender's.
        pushed, seen = other.receive_json(), watcher.receive_json()
        assert "id" not in pushed and "id" not in seen
        assert pushed["event_count"] == seen["event_count"] == answer["event_count"]


def test_int_ids_and_errors_echo_the_id_in_order(client):
    made = make(client, players=2, options={"dealer": 1})
    with seat_socket(client, made, 0) as me:
        first = me.receive_json()
        action = first["legal"][0]["id"]
        # Two actions back to back: the second is stale (its after is the old count).
        me.send_json({"type": "action", "action": action, "after": first["event_count"],
                      "id": 7})
        me.send_json({"type": "action", "action": action, "after": first["event_count"],
                      "id": MAX_REQUEST_INT})
        answers = [me.receive_json(), me.receive_json()]
        assert [a.get("id") for a in answers] == [7, MAX_REQUEST_INT]     # in action order
        assert answers[0]["type"] == "state"
        assert answers[1]["type"] == "error" and answers[1]["status"] == 409
        check("WsError", answers[1])
        count = answers[0]["event_count"]
        # An illegal notation: 422 with its rule and the id.
        me.send_json({"type": "action", "action": "fly away", "id": "x"})
        error = me.receive_json()
        assert error["status"] in (409, 422) and error["id"] == "x"
        # A bad id is refused (400, nothing echoed) and nothing is played.
        for bad in ("", "x" * (MAX_REQUEST_ID + 1), 1.5, True, -1, MAX_REQUEST_INT + 1,
                    None, [1], {"a": 1}):
            me.send_json({"type": "action", "action": action, "id": bad})
            error = me.receive_json()
            assert error["type"] == "error" and error["status"] == 400 and "id" not in error
            assert "id must be" in error["error"]
        me.send_json({"type": "ping"})
        assert me.receive_json() == {"type": "pong"}
    state = client.get(f"/api/tables/{made['table']}").json()
    assert state["event_count"] == count


def test_the_ws_action_schema_takes_the_id():
    check("WsAction", {"type": "action", "action": 3, "id": "a"})
    check("WsAction", {"type": "action", "action": "draw", "after": 4, "id": 12})
    for bad in ("", "x" * (MAX_REQUEST_ID + 1), -1, 1.5):
        with pytest.raises(jsonschema.ValidationError):
            check("WsAction", {"type": "action", "action": 3, "id": bad})


def test_an_http_action_is_committed_when_answered_and_pushed_once(client):
    """The acknowledgement rule over HTTP: the answer comes once the action is stored; the
    socket's push of the same change carries the same events (once), whenever it arrives."""
    made = make(client, players=2, options={"dealer": 1})
    token = made["seats"]["0"]
    with seat_socket(client, made, 0) as me:
        first = me.receive_json()
        r = client.post(f"/api/tables/{made['table']}/actions",
                        json={"action": first["legal"][0]["id"], "after": first["event_count"]},
                        headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200
        answer = r.json()
        pushed = me.receive_json()
        assert "id" not in pushed
        assert pushed["event_count"] == answer["event_count"]
        assert [e["n"] for e in pushed["events"]] == [e["n"] for e in answer["events"]]


# ---------------------------------------------------------------- options and their schema
def test_api_games_serves_each_option_as_a_schema_with_its_description(client):
    games = {g["game"]: g for g in client.get("/api/games").json()["games"]}
    assert set(games) == set(cardcore.available_games())
    for name, entry in games.items():
        cls = cardcore.registry.game_class(name)
        assert set(entry["options"]) == set(cls.options_spec)
        for key, option in entry["options"].items():
            schema = option["schema"]
            assert option["description"] and option["description"] == option["doc"]
            assert option["default"] == cls.options_spec[key].default == schema["default"]
            assert schema["description"] == option["description"] and schema["x-rule"]
            assert "type" in schema or "enum" in schema
            jsonschema.Draft202012Validator.check_schema(schema)
            jsonschema.validate(schema["default"], schema)          # the default is allowed
        for option in list(entry["options"].values())[:1]:     # a game may have no options
            check("GameOption", option)


def outside_the_bounds() -> list[tuple[str, str, int]]:
    """(game, option, value) for every integer option of every game: far past its served
    maximum and one below its minimum, at the default players (from the registry)."""
    cases = []
    for cls in cardcore.registry.game_classes():
        for option, schema in cls.option_schema(cls.default_players).items():
            if isinstance(schema.get("maximum"), int):
                cases.append((cls.name, option, schema["maximum"] * 1000 + 1))
            if isinstance(schema.get("minimum"), int):
                cases.append((cls.name, option, schema["minimum"] - 1))
    return cases


@pytest.mark.parametrize("game,option,value", [
    ("kings_stakes", "rounds", 5),            # not a multiple of 4 players
    ("kings_stakes", "teams", True),          # with 2 players
    *outside_the_bounds(),
])
def test_a_value_outside_the_served_bounds_is_a_422_naming_the_option(client, game, option,
                                                                      value):
    players = 2 if game == "kings_stakes" and option == "teams" else None
    body = {"game": game, "options": {option: value}}
    if players:
        body["players"] = players
    r = client.post("/api/tables", json=body)
    assert r.status_code == 422 and r.json()["option"] == option, r.text
    cls = cardcore.registry.game_class(game)
    schema = cls.option_schema(players or cls.default_players)[option]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(value, schema)                 # the schema says no as well


def past_the_bounds() -> list[tuple[str, str, int]]:
    """(game, option, value) for every integer option of every game: one past its served
    maximum at the default players (from the registry: a new game is covered as it is)."""
    cases = []
    for cls in cardcore.registry.game_classes():
        for option, schema in cls.option_schema(cls.default_players).items():
            if isinstance(schema.get("maximum"), int):
                cases.append((cls.name, option, schema["maximum"] + 1))
    return cases


@pytest.mark.parametrize("game,option,value", past_the_bounds())
def test_every_integer_option_refuses_one_past_its_maximum(client, game, option, value):
    r = client.post("/api/tables", json={"game": game, "options": {option: value}})
    assert r.status_code == 422 and r.json()["option"] == option, r.text


# ---------------------------------------------------------------- the notation limit and rule
def test_one_notation_limit_and_a_rule_for_a_notation_that_is_no_action(client):
    made = make(client, players=2, options={"dealer": 1})
    url = f"/api/tables/{made['table']}/actions"
    auth = {"Authorization": f"Bearer {made['seats']['0']}"}
    for text, limit in (("x" * MAX_ACTION_TEXT, False), ("x" * (MAX_ACTION_TEXT + 1), True)):
        r = client.post(url, json={"action": text}, headers=auth)
        assert r.status_code == 422 and r.json()["rule"] == NOTATION_RULE
        assert (f"at most {MAX_ACTION_TEXT}" in r.json()["error"]) is limit
    assert MAX_ACTION_TEXT == 160
    game = cardcore.new_game("crazy_eights", players=2, seed=1)
    with pytest.raises(cardcore.IllegalActionError) as info:
        game.apply("x" * (MAX_ACTION_TEXT + 1))
    assert info.value.rule == NOTATION_RULE


# ---------------------------------------------------------------- query values and redirects
@pytest.mark.parametrize("value", ["abc", "²", "١٢", "-1", "1.0", "9" * 13, " 1"])
def test_a_bad_since_is_a_clean_400(client, value):
    made = make(client, players=2)
    r = client.get(f"/api/tables/{made['table']}", params={"since": value})
    assert r.status_code == 400
    count = client.get(f"/api/tables/{made['table']}").json()["event_count"]
    assert r.json() == {"error": f"since must be an int 0..{count} (the event count), not "
                                 f"{value!r}", "option": "since", "code": "bad_request",
                        "message_id": SINCE_RANGE, "fields": {"count": count,
                                                              "value": repr(value)}}
    with client.websocket_connect(f"/ws/tables/{made['table']}?since={value}") as ws:
        error = ws.receive_json()
        assert error["status"] == 400 and "int()" not in error["error"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1008


def test_a_trailing_slash_is_not_redirected_with_the_token(client):
    made = make(client, players=2)
    token = made["seats"]["0"]
    for path in (f"/api/tables/{made['table']}/?token={token}", f"/api/tables/?token={token}"):
        r = client.get(path, follow_redirects=False)
        assert r.status_code == 404 and "location" not in r.headers
        assert token not in r.text


# ---------------------------------------------------------------- paging the table list
def test_the_table_list_pages_with_a_cursor(client):
    made = [make(client, players=2)["table"] for _ in range(7)]
    seen, cursor, pages = [], None, 0
    while True:
        params = {"limit": 3, **({"cursor": cursor} if cursor else {})}
        r = client.get("/api/tables", params=params)
        assert r.status_code == 200
        page = r.json()
        assert len(page["tables"]) <= 3
        seen += [t["table"] for t in page["tables"]]
        pages += 1
        cursor = page["next"]
        if cursor is None:
            break
    assert pages == 3 and seen == made[::-1]              # newest first, each once
    whole = client.get("/api/tables").json()
    assert whole["next"] is None and [t["table"] for t in whole["tables"]] == made[::-1]
    for bad in ({"limit": "0"}, {"limit": "101"}, {"limit": "x"}, {"cursor": "!!"},
                {"cursor": "bm90IGEgY3Vyc29y"}, {"cursor": "x" * 200}):
        r = client.get("/api/tables", params=bad)
        assert r.status_code == 400, bad                      # the bad value is not echoed
        assert r.json()["fields"] in ({}, {"field": "limit", "low": 1, "high": 100}), bad
        assert set(r.json()) == {"error", "code", "message_id", "fields"}, bad


# ---------------------------------------------------------------- oversize messages
def test_an_oversize_message_gets_the_413_error_then_close_1009_with_a_reason(tmp_path):
    app = create_app(tmp_path / "t.sqlite3", limits=Limits(max_message=1000))
    with TestClient(app) as client:
        made = make(client, players=2)
        with seat_socket(client, made, 0) as ws:
            ws.receive_json()
            ws.send_text(json.dumps({"type": "action", "action": "x" * 1000}))
            error = ws.receive_json()
            assert error["status"] == 413 and "1000 bytes" in error["error"]
            with pytest.raises(WebSocketDisconnect) as closed:
                ws.receive_json()
            assert closed.value.code == 1009
            assert closed.value.reason == "message over 1000 bytes"


# ---------------------------------------------------------------- team breakdowns
def test_team_breakdowns_are_by_team_over_the_wire(client):
    made = make(client, "kings_stakes", players=4, options={"teams": True},
                bots={"1": "random", "2": "random", "3": "random"})
    token = made["seats"]["0"]
    url = f"/api/tables/{made['table']}"
    auth = {"Authorization": f"Bearer {token}"}
    state = client.get(url, headers=auth).json()
    for _ in range(400):
        ends = [e for e in state["events"] if e["kind"] == "round_end"]
        if ends or state["over"]:
            break
        r = client.post(url + "/actions", json={"action": state["legal"][0]["id"]},
                        headers=auth)
        assert r.status_code == 200
        state = client.get(url, headers=auth).json()
    end = ends[0]
    b = end["breakdown"]
    assert b["by"] == "team" and len(b["totals"]) == 2
    for c in b["components"]:
        assert c["team"] == c["seat"] % 2
    assert b["totals"] == [t["points"] for t in end["teams"]]        # the 0.3 key, one release
    assert b["totals"] == [end["round_points"][0] + end["round_points"][2],
                           end["round_points"][1] + end["round_points"][3]]


# ---------------------------------------------------------------- socket message dispatch
def test_the_socket_answers_exactly_the_documented_message_types():
    """routes/socket.py dispatches by a table of handlers (issue 46, item 5): its types are
    the client messages x-websocket documents, the seat's moves those that take an id."""
    from cardcore.server.routes.socket import MESSAGE_TYPES
    documented = {SPEC["components"]["schemas"][ref["$ref"].rsplit("/", 1)[1]]
                  ["properties"]["type"]["const"]: ref["$ref"]
                  for ref in SPEC["x-websocket"]["client"]}
    assert set(MESSAGE_TYPES) == set(documented)
    takes_id = {name for name, ref in documented.items()
                if "id" in SPEC["components"]["schemas"][ref.rsplit("/", 1)[1]]["properties"]}
    assert {name for name, kind in MESSAGE_TYPES.items() if kind.acts} == takes_id


@pytest.mark.parametrize("message", [{}, {"type": "nope"}, {"type": ["action"]},
                                     {"type": {"a": 1}}, {"type": 3}, {"type": None},
                                     {"type": "Action"}])
def test_an_unknown_message_type_is_refused_and_the_socket_stays(client, message):
    made = make(client, players=2)
    with seat_socket(client, made) as ws:
        first = ws.receive_json()
        ws.send_json({**message, "id": 7})
        refused = ws.receive_json()
        assert refused["type"] == "error" and refused["status"] == 400
        assert refused["error"].startswith("unknown message type") and "id" not in refused
        ws.send_json({"type": "ping"})
        assert ws.receive_json() == {"type": "pong"}
        assert client.get(f"/api/tables/{made['table']}").json()["event_count"] \
            == first["event_count"]
