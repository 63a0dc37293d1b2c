"""Turn clocks (docs/server.md, "Clocks"): a seat that never moves is moved for by a level
bot within its time, or forfeits; the time left is in the state, a timeout is pushed; the
deadlines are stored, so a server killed with `kill -9` keeps them after its restart."""
from __future__ import annotations

import asyncio
import json
import time

import pytest

from cardcore.records import verify
from cardcore.server import create_app
from cardcore.server.clocks import TableClock, parse_clock
from cardcore.server.tables import NewTable, TableServer

from server_helpers import ServerProcess, TestClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

CLOCK = 0.05
SLOW = 15.0          # longer than a restart takes on a loaded machine
SHORT = {"game": "crazy_eights", "players": 2, "options": {"max_turns": 12}}


@pytest.fixture()
def client(tmp_path):
    with TestClient(create_app(tmp_path / "t.sqlite3")) as c:
        yield c


def _state(client, table, token=None):
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    return client.get(f"/api/tables/{table}", headers=headers).json()


def _wait_over(client, table, token, limit: float) -> tuple[dict, float]:
    start = time.monotonic()
    while time.monotonic() - start < limit:
        s = _state(client, table, token)
        if s["over"]:
            return s, time.monotonic() - start
        time.sleep(0.01)
    raise AssertionError(f"the table did not finish in {limit} s")


def test_a_seat_that_never_moves_is_played_by_the_bot_in_time(client):
    r = client.post("/api/tables", json={**SHORT, "bots": {"1": "greedy"},
                                         "clock": {"per_move": CLOCK, "on_timeout": "level:1"}})
    assert r.status_code == 201, r.text
    made = r.json()
    assert made["clock"] == {"per_move": CLOCK, "on_timeout": "level:1"}
    table, token = made["table"], made["seats"]["0"]
    first = _state(client, table, token)
    clock = first["clock"]
    assert clock["seat"] == first["current_player"] == 0
    assert 0 < clock["remaining"] <= CLOCK and clock["deadline"] > time.time() - 1
    final, took = _wait_over(client, table, token, 30)
    record = client.get(f"/api/tables/{table}/record").json()
    timeouts = record["timeouts"]
    human_moves = len(timeouts)
    assert human_moves >= 1 and all(t["seat"] == 0 and t["by"] == "level:1" for t in timeouts)
    assert took <= human_moves * CLOCK + 2.0, (took, human_moves)       # the small margin
    assert final["clock"]["seat"] is None and final["clock"]["remaining"] is None
    assert verify(record)["ended"] == "over"


def test_the_timeout_is_pushed_then_the_move(client):
    made = client.post("/api/tables", json={**SHORT, "bots": {"1": "random"},
                                            "clock": {"per_move": 0.3}}).json()
    table, token = made["table"], made["seats"]["0"]
    with client.websocket_connect(f"/ws/tables/{table}?token={token}") as ws:
        first = ws.receive_json()
        assert first["type"] == "state" and first["clock"]["on_timeout"] == "level:2"
        message = ws.receive_json()
        assert {k: message[k] for k in ("type", "event", "seat", "by")} == {
            "type": "clock", "event": "timeout", "seat": 0, "by": "level:2"}
        assert isinstance(message["move"], int)
        after = ws.receive_json()
        assert after["type"] == "state" and after["event_count"] > first["event_count"]
        assert after["clock"]["timeouts"] == 1


def test_a_move_in_time_resets_the_clock_and_banks_gain_the_increment(client):
    made = client.post("/api/tables", json={**SHORT, "players": 2, "bots": {"1": "random"},
                                            "clock": {"bank": 30, "increment": 2}}).json()
    table, token = made["table"], made["seats"]["0"]
    s = _state(client, table, token)
    assert s["clock"]["banks"] == [30, 30] and s["clock"]["remaining"] <= 30
    r = client.post(f"/api/tables/{table}/actions",
                    json={"token": token, "action": s["legal"][0]["id"]})
    assert r.status_code == 200
    banks = r.json()["clock"]["banks"]
    assert 31 < banks[0] <= 32                  # 30 - the time taken + 2
    assert r.json()["clock"]["timeouts"] == 0


def test_forfeit_ends_the_match_with_the_seat_losing(client):
    made = client.post("/api/tables", json={**SHORT, "players": 3,
                                            "bots": {"1": "random", "2": "random"},
                                            "clock": {"per_move": CLOCK,
                                                      "on_timeout": "forfeit"}}).json()
    table, token = made["table"], made["seats"]["0"]
    with client.websocket_connect(f"/ws/tables/{table}?token={token}") as ws:
        messages = []
        while not messages or messages[-1]["type"] != "record":
            messages.append(ws.receive_json())
        assert [m["type"] for m in messages[-3:]] == ["clock", "state", "record"]
        assert messages[-1]["record"]["ended"] == "forfeit"
        final = messages[-2]
    check = _openapi_checker(client)
    for message, name in zip(messages[-3:], ("WsClock", "WsState", "WsRecord")):
        check(name, message)
    assert final["over"] and final["ended"] == "forfeit" and final["forfeit"] == 0
    assert final["winners"] == [1, 2]
    r = client.post(f"/api/tables/{table}/actions", json={"token": token, "action": 0})
    assert r.status_code == 409 and "forfeit" in r.json()["error"]
    record = client.get(f"/api/tables/{table}/record").json()
    report = verify(record)
    assert report["ended"] == "forfeit" and report["forfeit"] == 0
    assert report["winners"] == [1, 2]
    listed = client.get("/api/tables", params={"over": "1"}).json()["tables"]
    assert [t["ended"] for t in listed] == ["forfeit"]


def _openapi_checker(client):
    """Validate a message against a schema of /openapi.json's components."""
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    spec = client.get("/openapi.json").json()
    registry = Registry().with_resource("urn:openapi", Resource.from_contents(
        spec, default_specification=DRAFT202012))

    def check(name: str, message: dict) -> None:
        Draft202012Validator({"$ref": f"urn:openapi#/components/schemas/{name}"},
                             registry=registry).validate(message)
    return check


@pytest.mark.parametrize("clock, option", [
    ({"per_move": 0}, "clock.per_move"),
    ({"per_move": -1}, "clock.per_move"),
    ({"per_move": "20"}, "clock.per_move"),
    ({"per_move": 1e12}, "clock.per_move"),
    ({"per_move": True}, "clock.per_move"),
    ({"bank": 300}, "clock"),
    ({"bank": 300, "increment": -5}, "clock.increment"),
    ({"bank": 0.001, "increment": 1}, "clock.bank"),
    ({"per_move": 5, "bank": 5, "increment": 1}, "clock"),
    ({"per_move": 5, "on_timeout": "level:9"}, "clock.on_timeout"),
    ({"per_move": 5, "on_timeout": "greedy"}, "clock.on_timeout"),
    ({"per_move": 5, "extra": 1}, "clock"),
    ([20], "clock"),
    ("20", "clock"),
])
def test_bad_clock_options_are_refused_naming_the_option(client, clock, option):
    before = client.get("/api/tables").json()
    r = client.post("/api/tables", json={"game": "manna", "clock": clock})
    assert r.status_code == 422, r.text
    assert r.json()["option"] == option and len(r.json()["error"]) < 200
    assert client.get("/api/tables").json() == before


def test_the_clock_bookkeeping_round_trips():
    spec = parse_clock({"bank": 10, "increment": 1, "on_timeout": "forfeit"})
    clock = TableClock(spec, 3)
    assert clock.arm(1, 0, 100.0) and clock.deadline == 110.0
    assert not clock.arm(1, 0, 101.0)                     # the same turn: unchanged
    assert clock.arm(2, 1, 104.0) and clock.banks == [10, 7, 10] and clock.deadline == 114.0
    assert clock.arm(None, 2, 120.0) and clock.banks == [10, 7, 1] and clock.deadline is None
    again = TableClock.from_json(clock.to_json())
    assert again == clock


# ---------------------------------------------------------------- kill -9 and restart
@pytest.mark.slow
def test_clocks_keep_their_stored_deadlines_after_kill_9(tmp_path):
    db = tmp_path / "t.sqlite3"
    server = ServerProcess(db)
    try:
        status, made = server.request("POST", "/api/tables", {
            **SHORT, "bots": {"1": "random"}, "clock": {"per_move": SLOW}})
        assert status == 201, made
        _, fast = server.request("POST", "/api/tables", {
            **SHORT, "bots": {"1": "random"}, "clock": {"per_move": 0.5}})
        headers = {"Authorization": f"Bearer {made['seats']['0']}"}
        _, before = server.request("GET", f"/api/tables/{made['table']}", headers=headers)
        deadline = before["clock"]["deadline"]
        assert before["clock"]["seat"] == 0 and deadline > time.time() + SLOW - 1
    finally:
        server.kill()                                      # kill -9
    time.sleep(0.8)                                        # the fast table's time runs out
    server = ServerProcess(db)
    try:
        asked = time.time()
        _, after = server.request("GET", f"/api/tables/{made['table']}", headers=headers)
        assert after["clock"]["deadline"] == deadline      # the stored deadline
        assert after["clock"]["remaining"] <= deadline - asked + 0.01
        assert after["clock"]["timeouts"] == 0 and after["event_count"] == before["event_count"]
        # The fast table's turn ran out while the server was down: played at once on start.
        _, other = server.request("GET", f"/api/tables/{fast['table']}")
        assert other["clock"]["timeouts"] >= 1
        while time.time() < deadline - 0.2:                # not before the deadline ...
            _, s = server.request("GET", f"/api/tables/{made['table']}", headers=headers)
            assert s["clock"]["timeouts"] == 0
            time.sleep(0.2)
        end = time.time() + 3.0                            # ... and soon after it
        while time.time() < end:
            _, s = server.request("GET", f"/api/tables/{made['table']}", headers=headers)
            if s["clock"]["timeouts"]:
                break
            time.sleep(0.05)
        assert s["clock"]["timeouts"] == 1 and time.time() - deadline < 1.5
        assert s["event_count"] > before["event_count"]
        assert "Traceback" not in server.log_text()
    finally:
        server.stop()


def test_a_clock_runs_out_for_a_table_that_left_memory(tmp_path):
    """The sweep picks up stored deadlines of tables not in memory."""
    async def run() -> tuple[int, int]:
        server = TableServer(str(tmp_path / "t.sqlite3"))
        try:
            table, _ = await server.create(NewTable(
                "crazy_eights", 2, options={"max_turns": 12}, bots={"1": "random"},
                clock={"per_move": 0.1}))
            before = table.actions
            table.clock_task.cancel()                  # as if it had left memory
            del server.tables[table.id]
            await asyncio.sleep(0.15)
            await server.sweep()
            again = server.tables[table.id]
            assert again is not table
            while again.clock is not None and not again.clock.timeouts:
                await asyncio.sleep(0.02)
            await server.settled(again)
            stored = json.loads(server.store.load(table.id).save)["actions"]
            return before, len(stored)
        finally:
            await server.close()

    before, after = asyncio.run(asyncio.wait_for(run(), 20))
    assert after > before


def test_clocks_run_with_paced_bots_too(tmp_path):
    """With a bot delay the bots move from their own task; the clock starts after them."""
    with TestClient(create_app(tmp_path / "paced.sqlite3", bot_delay=0.01)) as paced:
        made = paced.post("/api/tables", json={**SHORT, "bots": {"1": "random"},
                                               "clock": {"per_move": CLOCK}}).json()
        final, _ = _wait_over(paced, made["table"], made["seats"]["0"], 30)
        record = paced.get(f"/api/tables/{made['table']}/record").json()
    assert final["ended"] == "over" and record["timeouts"]
    assert verify(record)["moves"] == len(record["save"]["actions"])
