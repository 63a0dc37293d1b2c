"""Crash test (server.md "Storage"): `cardcore serve` as a subprocess, part of a game over
HTTP, `kill -9`, a restart on the same database: every acknowledged action is there, the
views are identical, and the game goes on. Tokens never appear in the server's log."""
from __future__ import annotations

import http.client
import random
import threading
import time

from server_helpers import ServerProcess
import pytest

pytestmark = pytest.mark.slow       # a server process killed and restarted: the quick loop leaves it out


def snapshot(server, table, seats):
    out = {}
    for seat, token in [*seats.items(), (None, None)]:
        path = f"/api/tables/{table}" + (f"?token={token}" if token else "")
        status, body = server.request("GET", path)
        assert status == 200, body
        out[seat] = body
    return out


def play(server, table, seats, moves, rng):
    """Random legal moves over HTTP; returns the acknowledged action ids in order."""
    acked = []
    for _ in range(moves):
        _, spectator = server.request("GET", f"/api/tables/{table}")
        if spectator["over"]:
            break
        token = seats[str(spectator["current_player"])]
        _, mine = server.request("GET", f"/api/tables/{table}?token={token}")
        choice = rng.choice(mine["legal"])["id"]
        status, body = server.request("POST", f"/api/tables/{table}/actions",
                                      {"token": token, "action": choice,
                                       "after": mine["event_count"]})
        assert status == 200, body
        acked.append(choice)
    return acked


def whole_log(server, table):
    """Every event of the table as a spectator sees it: a GET carries one page of the log
    (the last ``EVENT_PAGE`` events, docs/server.md "Reading a table"), so the log is read
    page by page with ``?since=``."""
    events: list[dict] = []
    while True:
        status, page = server.request("GET", f"/api/tables/{table}?since={len(events)}")
        assert status == 200, page
        assert page["events_from"] == len(events)
        events += page["events"]
        if len(events) >= page["event_count"] or not page["events"]:
            return events


def action_ids(events):
    return [e["id"] for e in events if not e.get("auto")]


def test_kill_9_loses_nothing_acknowledged(tmp_path):
    db = tmp_path / "tables.sqlite3"
    server = ServerProcess(db, bot_delay=0)
    tokens_seen = []
    try:
        status, made = server.request("POST", "/api/tables", {"game": "kuzanasta", "seed": 31})
        assert status == 201
        table, seats = made["table"], made["seats"]
        tokens_seen += seats.values()
        acked = play(server, table, seats, 40, random.Random(1))
        assert len(acked) == 40
        before = snapshot(server, table, seats)

        # More tables played as fast as possible while the server is killed (a finished
        # match is followed by a new table).
        busy: list[tuple[dict, list[int]]] = []
        stop = threading.Event()

        def new_busy_table() -> None:
            status, made = server.request("POST", "/api/tables", {
                "game": "manna", "seed": 5 + len(busy),
                "bots": {str(k): "greedy" for k in (1, 2, 3, 5)}})
            assert status == 201
            tokens_seen.extend(made["seats"].values())
            busy.append((made, []))

        def hammer():
            rng = random.Random(2)
            try:
                new_busy_table()
                while not stop.is_set():
                    made, acked_here = busy[-1]
                    _, spectator = server.request("GET", f"/api/tables/{made['table']}")
                    if spectator["over"]:
                        new_busy_table()
                        continue
                    token = made["seats"][str(spectator["current_player"])]
                    _, mine = server.request("GET", f"/api/tables/{made['table']}?token={token}")
                    choice = rng.choice(mine["legal"])["id"]
                    status, _ = server.request(
                        "POST", f"/api/tables/{made['table']}/actions",
                        {"token": token, "action": choice, "after": mine["event_count"]})
                    if status == 200:
                        acked_here.append(choice)
            except (OSError, http.client.HTTPException):
                pass                     # the server is gone (mid-reply: IncompleteRead)
        worker = threading.Thread(target=hammer)
        worker.start()
        time.sleep(1.5)
        assert worker.is_alive(), "the hammer stopped before the kill"
        server.kill()                                    # kill -9 mid-traffic
        stop.set()
        worker.join(timeout=60)
        assert busy and busy[0][1], "the hammer got no action acknowledged before the kill"

        server = ServerProcess(db, bot_delay=0)
        after = snapshot(server, table, seats)
        assert after == before                           # identical views, events, legal moves
        assert action_ids(whole_log(server, table)) == acked

        # Every acknowledged action of the busy tables is there, in order (the people's
        # actions among all; one more may have been committed but not yet answered).
        for made, acked_here in busy:
            human_ids = [e["id"] for e in whole_log(server, made["table"])
                         if not e.get("auto") and e["player"] in (0, 4)]
            assert human_ids[:len(acked_here)] == acked_here
            assert len(human_ids) - len(acked_here) <= 1

        # The game goes on.
        more = play(server, table, seats, 5, random.Random(3))
        assert len(more) == 5
        assert action_ids(whole_log(server, table)) == acked + more
    finally:
        server.stop()
    log = b"".join(p.read_bytes() for p in tmp_path.glob("*.log")).decode()
    assert "token=[redacted]" in log                     # tokens were in URLs ...
    assert not any(t in log for t in tokens_seen)        # ... and never reached the log


def test_paced_bots_resume_after_kill_9(tmp_path):
    db = tmp_path / "tables.sqlite3"
    server = ServerProcess(db, bot_delay=0.3)
    try:
        status, made = server.request("POST", "/api/tables", {
            "game": "kings_stakes", "seed": 4, "bots": {"1": "greedy", "2": "greedy",
                                                        "3": "greedy"}})
        table, token = made["table"], made["seats"]["0"]
        deadline = time.monotonic() + 20
        while True:                                     # wait for seat 0's turn
            _, s = server.request("GET", f"/api/tables/{table}?token={token}")
            if s["current_player"] == 0:
                break
            assert time.monotonic() < deadline
            time.sleep(0.1)
        while s["current_player"] == 0:                 # play until the bots are to move
            status, s = server.request("POST", f"/api/tables/{table}/actions",
                                       {"token": token, "action": s["legal"][0]["id"]})
            assert status == 200
        assert s["current_player"] in (1, 2, 3)         # the bots have only started
        server.kill()
        server = ServerProcess(db, bot_delay=0.3)
        deadline = time.monotonic() + 20
        while True:                                     # the bots carry on by themselves
            _, s = server.request("GET", f"/api/tables/{table}?token={token}")
            if s["current_player"] == 0 or s["over"]:
                break
            assert time.monotonic() < deadline, "the bots did not resume"
            time.sleep(0.1)
        assert s["legal"] or s["over"]
    finally:
        server.stop()
