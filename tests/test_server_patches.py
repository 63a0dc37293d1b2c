"""State deltas (issue 31, item 5; docs/server.md "Patches"): a socket opened with
``?patches=1`` gets a whole state first, then ``{"type": "patch", "events", "patch"}`` pushes
whose RFC 7396 merge patches, applied with the same library the server builds them with,
give exactly the states a socket without patches is sent; a reconnect with ``since``, a
take-back and a change of seat start whole again; errors, acks and pongs are unchanged."""
from __future__ import annotations

import copy
import json
import random

import json_merge_patch
import jsonschema
import pytest

from cardcore.registry import game_class, game_classes
from cardcore.server import Limits, create_app
from cardcore.server.openapi import openapi_spec
from cardcore.server.patches import StateMemo, canonical_json

from server_helpers import TestClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

SPEC = openapi_spec()


def check(name: str, value: object) -> None:
    """``value`` against the OpenAPI document's schema ``name``."""
    schema = {**SPEC["components"]["schemas"][name], "components": SPEC["components"]}
    jsonschema.Draft202012Validator(schema).validate(value)


@pytest.fixture
def client(tmp_path):
    app = create_app(tmp_path / "t.sqlite3", bot_delay=0,
                     limits=Limits(create_rate=1000, create_burst=1000,
                                   max_tables_per_client=1000, message_rate=1000))
    with TestClient(app) as c:
        yield c


def make(client, game, **body):
    r = client.post("/api/tables", json={"game": game, **body})
    assert r.status_code == 201, r.text
    return r.json()


def connect(client, made, seat=None, query=""):
    path = f"/ws/tables/{made['table']}{query}"
    if seat is None:
        return client.websocket_connect(path)
    return client.websocket_connect(path, subprotocols=[
        "cardcore", f"cardcore.token.{made['seats'][str(seat)]}"])


class Follower:
    """A socket's pushes as whole states (patches applied), keyed by event count."""

    def __init__(self, socket, patches: bool) -> None:
        self.socket = socket
        self.patches = patches
        self.rest: dict | None = None
        self.by_count: dict[int, dict] = {}
        self.events: list[dict] = []
        self.kinds: list[str] = []

    def receive(self) -> dict:
        message = self.socket.receive_json()
        kind = message["type"]
        if kind not in ("state", "patch"):
            return message
        self.kinds.append(kind)
        if kind == "patch":
            assert self.patches and self.rest is not None, "a patch without a state first"
            check("WsPatch", message)
            self.rest = json_merge_patch.merge(copy.deepcopy(self.rest), message["patch"])
        else:
            check("WsState", message)
            self.rest = {k: v for k, v in message.items()
                         if k not in ("type", "events", "id", "rewound")}
        if message.get("rewound"):
            self.events = []
        self.events.extend(message["events"])
        self.by_count[self.rest["event_count"]] = self.rest
        return {**message, **self.rest, "type": kind}

    def until(self, count: int) -> None:
        while self.rest is None or self.rest["event_count"] < count:
            self.receive()


def same_states(patched: Follower, whole: Follower) -> int:
    common = patched.by_count.keys() & whole.by_count.keys()
    for count in common:
        assert patched.by_count[count] == whole.by_count[count], count
    assert patched.events == whole.events
    return len(common)


def play(client, game, players, rounds_only, seed=5):
    """One person (seat 0, a patch socket and a whole-state socket) against greedy bots, a
    spectator with and without patches: a whole match (or its first round)."""
    cls = game_class(game)
    made = make(client, game, players=players, seed=seed,
                bots={str(k): "greedy" for k in range(1, players)})
    rng = random.Random(seed)
    with connect(client, made, 0, "?patches=1") as ps, connect(client, made, 0) as ws, \
            connect(client, made, None, "?patches=1") as pw, connect(client, made) as ww:
        me, whole = Follower(ps, True), Follower(ws, False)
        watcher, watcher_whole = Follower(pw, True), Follower(ww, False)
        sent = -1
        while True:
            state = me.receive()
            if state["type"] not in ("state", "patch"):
                continue
            # (A round may end in the first state: a Kuzanasta deal can end at once.)
            if state["over"] or (rounds_only and len(me.kinds) > 1 and any(
                    e["kind"] == cls.round_end_event for e in state["events"])):
                break
            if state["current_player"] == 0 and state["legal"] and state["event_count"] != sent:
                sent = state["event_count"]
                ps.send_json({"type": "action", "action": rng.choice(state["legal"])["id"],
                              "after": sent})
        final = me.rest["event_count"]
        for other in (whole, watcher, watcher_whole):
            other.until(final)
    assert me.kinds[0] == "state" and whole.kinds.count("patch") == 0
    assert me.kinds.count("patch") >= max(3, len(me.kinds) // 2), me.kinds
    assert watcher.kinds[0] == "state" and watcher.kinds.count("patch") >= 3
    assert same_states(me, whole) >= len(me.kinds) // 2
    assert same_states(watcher, watcher_whole) >= len(watcher.kinds) // 2
    return me


def test_a_patch_socket_sees_the_whole_states_of_a_whole_match(client):
    me = play(client, "crazy_eights", 2, rounds_only=False)
    assert me.rest["over"] is True


@pytest.mark.parametrize("game, players", [
    (cls.name, max(cls.min_players, min(4, cls.max_players))) for cls in game_classes()])
def test_a_patch_socket_sees_the_whole_states_of_a_round(client, game, players):
    play(client, game, players, rounds_only=True)


def test_a_reconnect_with_since_starts_with_a_whole_state(client):
    made = make(client, "crazy_eights", players=2, seed=3, bots={"1": "greedy"})
    with connect(client, made, 0, "?patches=1") as ps:
        me = Follower(ps, True)
        state = me.receive()
        ps.send_json({"type": "action", "action": state["legal"][0]["id"],
                      "after": state["event_count"], "id": 1})
        moved = me.receive()
        assert moved["type"] == "patch" and moved["id"] == 1
        count = moved["event_count"]
    with connect(client, made, 0, f"?patches=1&since={count}") as again:
        first = again.receive_json()
        assert first["type"] == "state" and first["events"] == []
        assert first["event_count"] == count
        assert {k: v for k, v in first.items() if k not in ("type", "events")} == me.rest


def test_a_take_back_sends_a_whole_rewound_state_then_patches_again(client):
    made = make(client, "kings_stakes", players=2, seed=3, bots={"1": "greedy"},
                takeback=True)
    with connect(client, made, 0, "?patches=1") as ps, connect(client, made, None,
                                                               "?patches=1") as pw:
        me, watcher = Follower(ps, True), Follower(pw, True)
        start = me.receive()
        watcher.receive()
        ps.send_json({"type": "action", "action": start["legal"][0]["id"],
                      "after": start["event_count"], "id": "m"})
        while (moved := me.receive()).get("id") != "m":
            pass
        assert moved["type"] == "patch"
        watcher.until(moved["event_count"])
        ps.send_json({"type": "takeback", "after": moved["event_count"], "id": "undo"})
        got = [me.receive()]
        while got[-1].get("id") != "undo":
            got.append(me.receive())
        rewound = [m for m in got if m.get("rewound")]
        assert rewound and all(m["type"] == "state" for m in rewound)
        assert [e["n"] for e in rewound[0]["events"]] == list(range(start["event_count"]))
        pushed = watcher.receive()
        assert pushed["type"] == "state" and pushed["rewound"] is True
        assert watcher.rest["event_count"] == start["event_count"]
        # Play on: patches again, from the rewound state.
        ps.send_json({"type": "action", "action": start["legal"][0]["id"],
                      "after": start["event_count"], "id": "m2"})
        while (nxt := me.receive()).get("id") != "m2":
            pass
        assert nxt["type"] == "patch" and "rewound" not in nxt
        assert me.events[start["event_count"]]["n"] == start["event_count"]
        after = client.get(f"/api/tables/{made['table']}",
                           headers={"Authorization": f"Bearer {made['seats']['0']}"}).json()
        # GET's page of the log (events, events_from) aside, what the socket's patches built
        assert {k: v for k, v in after.items() if k not in ("events", "events_from")} == me.rest


def test_errors_acks_and_pongs_are_unchanged_on_a_patch_socket(client):
    made = make(client, "crazy_eights", players=2, seed=3, bots={"1": "greedy"})
    with connect(client, made, 0, "?patches=1") as ps:
        first = ps.receive_json()
        assert first["type"] == "state"
        ps.send_json({"type": "action", "action": 999, "after": first["event_count"],
                      "id": "bad"})
        error = ps.receive_json()
        assert error["type"] == "error" and error["id"] == "bad" and error["status"] == 422
        ps.send_json({"type": "ping"})
        assert ps.receive_json() == {"type": "pong"}
        ps.send_json({"type": "action", "action": first["legal"][0]["id"],
                      "after": first["event_count"], "id": 7})
        answer = ps.receive_json()
        assert answer["type"] == "patch" and answer["id"] == 7
        assert answer["patch"]["event_count"] > first["event_count"]
        assert [e["n"] for e in answer["events"]] == list(
            range(first["event_count"], answer["patch"]["event_count"]))


def test_a_socket_that_authenticates_by_message_gets_its_seat_state_whole(client):
    made = make(client, "crazy_eights", players=2, seed=3, bots={"1": "greedy"})
    with connect(client, made, None, "?patches=1") as ps:
        spectator = ps.receive_json()
        assert spectator["type"] == "state" and spectator["seat"] is None
        ps.send_json({"type": "auth", "token": made["seats"]["0"]})
        seat = ps.receive_json()
        assert seat["type"] == "state" and seat["seat"] == 0 and seat["legal"]


def test_patches_must_be_0_or_1(client):
    made = make(client, "crazy_eights", players=2, seed=3, bots={"1": "greedy"})
    with connect(client, made, 0, "?patches=yes") as ps:
        error = ps.receive_json()
        assert error["type"] == "error" and error["status"] == 400
        assert "patches" in error["error"]


def test_the_memo_refuses_what_rfc_7396_cannot_say():
    memo = StateMemo()
    assert memo.patch({"a": 1})[0] is None                     # nothing sent yet: whole
    memo.remember(canonical_json({"a": 1, "b": {"c": [1, 2], "d": "x"}}))
    patch, sent = memo.patch({"a": 2, "b": {"c": [1, 2, 3], "d": "x"}})
    assert patch == {"a": 2, "b": {"c": [1, 2, 3]}}
    assert json.loads(sent) == {"a": 2, "b": {"c": [1, 2, 3], "d": "x"}}
    assert memo.patch({"a": 1, "b": {"c": [1, 2], "d": "x"}})[0] == {}
    assert memo.patch({"a": 1, "b": {"c": [1, 2]}})[0] == {"b": {"d": None}}   # removed
    # A member set to null, an object gaining a null, 1 -> true: not expressible, whole.
    assert memo.patch({"a": None, "b": {"c": [1, 2], "d": "x"}})[0] is None
    assert memo.patch({"a": 1, "b": {"c": [1, 2], "d": "x"}, "e": {"f": None}})[0] is None
    assert memo.patch({"a": True, "b": {"c": [1, 2], "d": "x"}})[0] is None
    # Nulls inside arrays are values: fine.
    assert memo.patch({"a": 1, "b": {"c": [None], "d": "x"}})[0] == {"b": {"c": [None]}}
    memo.forget()
    assert memo.patch({"a": 1})[0] is None


def test_the_openapi_document_lists_the_patch_message():
    ws = SPEC["x-websocket"]
    assert "patches" in ws["query"]
    assert {"$ref": "#/components/schemas/WsPatch"} in ws["server"]
