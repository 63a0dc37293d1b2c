"""PostgreSQL restarted under two `cardcore serve` processes (docs/server.md, "Several
processes"): while it is down the servers answer 503 (never 500, no traceback) and
``/healthz`` says the store failed; they reconnect by themselves, every table plays on to
its end, and no acknowledged action is lost."""
from __future__ import annotations

import random
import threading
import time

import pytest

from pg_cluster import Cluster
from server_helpers import ServerProcess
from test_server_pg import stored_game

pytestmark = pytest.mark.slow       # server processes and a PostgreSQL cluster of its own


def play(servers: list[ServerProcess], table: str, seats: dict[str, str], acked: list[int],
         statuses: list[int], rng: random.Random, deadline: float) -> None:
    """Random legal moves over HTTP until the match ends: reads through both processes in
    turn, moves through the first (where a proxy would route them: a table is served by one
    process, docs/operations.md); every status is kept, every action answered 200 appended
    to ``acked``."""
    k = 0
    while time.monotonic() < deadline:
        server = servers[k % 2]
        k += 1
        status, public = server.request("GET", f"/api/tables/{table}")
        statuses.append(status)
        if status != 200:
            time.sleep(0.1)
            continue
        if public["over"]:
            return
        token = seats[str(public["current_player"])]
        status, mine = server.request("GET", f"/api/tables/{table}?token={token}")
        statuses.append(status)
        if status != 200 or not mine["legal"]:
            time.sleep(0.05)
            continue
        choice = rng.choice(mine["legal"])["id"]
        status, _ = servers[0].request("POST", f"/api/tables/{table}/actions", {
            "token": token, "action": choice, "after": mine["event_count"]})
        statuses.append(status)
        if status == 200:
            acked.append(choice)


def is_subsequence(short: list[int], long: list[int]) -> bool:
    it = iter(long)
    return all(any(x == y for y in it) for x in short)


def health(server: ServerProcess) -> tuple[int, dict]:
    return server.request("GET", "/healthz")


def test_a_postgresql_restart_mid_traffic_is_503_then_every_table_plays_on(tmp_path):
    with Cluster() as cluster:
        url = cluster.new_database()
        servers = [ServerProcess(url, bot_delay=0, log=tmp_path / f"server{k}.log",
                                 extra=("--message-rate", "1000"))
                   for k in range(2)]
        try:
            tables = []
            for seed in range(4):
                status, made = servers[seed % 2].request("POST", "/api/tables", {
                    "game": "kings_stakes", "seed": seed, "options": {"rounds": 4}})
                assert status == 201
                tables.append((made["table"], made["seats"], [], []))
            deadline = time.monotonic() + 120
            threads = [threading.Thread(target=play, args=(servers[i % 2:] + servers[:i % 2],
                                                           t, s, acked, statuses,
                                                           random.Random(i), deadline))
                       for i, (t, s, acked, statuses) in enumerate(tables)]
            for t in threads:
                t.start()
            time.sleep(0.5)                              # (a match is ~230 actions)
            assert sum(len(acked) for _, _, acked, _ in tables) > 0     # under way
            cluster.pause()                              # PostgreSQL is down ...
            time.sleep(1.5)
            down = [health(s) for s in servers]
            created = servers[0].request("POST", "/api/tables", {"game": "crazy_eights"})
            time.sleep(0.5)
            cluster.resume()                             # ... and back
            for t in threads:
                t.join(130)
            assert not any(t.is_alive() for t in threads)
            for status, body in down:
                assert status == 503 and body["status"] == "failing"
                assert body["store"].startswith("failed: PostgreSQL is unavailable")
            assert created[0] == 503 and "storage unavailable" in created[1]["error"]
            up = time.monotonic() + 10
            while any(health(s)[0] != 200 for s in servers) and time.monotonic() < up:
                time.sleep(0.2)
            for server in servers:
                status, body = health(server)
                assert status == 200 and body["store"] == "ok"
            every = [x for *_, statuses in tables for x in statuses]
            assert 503 in every                          # the outage was seen ...
            assert set(every) <= {200, 409, 503}, sorted(set(every))   # ... never a 500
            for table, seats, acked, statuses in tables:
                game = stored_game(url, table)
                assert game.is_over
                log = game.action_log()
                # Every acknowledged action is stored, in order; besides them only actions
                # answered 503 whose commit went through as the connection broke.
                assert is_subsequence(acked, log)
                assert len(log) - len(acked) <= statuses.count(503)
                for server in servers:
                    status, state = server.request("GET", f"/api/tables/{table}")
                    assert status == 200 and state["over"]
                    assert state["event_count"] == len(game.events(None, 0))
            status, made = servers[1].request("POST", "/api/tables", {"game": "kuzanasta"})
            assert status == 201                         # creating works again
        finally:
            for server in servers:
                server.stop()
        for server in servers:
            text = server.log_path.read_text()
            assert "Traceback" not in text and '" 500' not in text
            assert "storage unavailable" in text or "storage failed" in text
