"""/healthz, /metrics and the stall watchdog (docs/server.md, "Health and metrics"), read
from a real `cardcore serve`."""
from __future__ import annotations

import asyncio
import json
import time
import urllib.request

import pytest
from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.client import connect

from server_helpers import ServerProcess

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def scrape(server: ServerProcess) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    with urllib.request.urlopen(server.base + "/metrics", timeout=10) as r:
        assert r.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        text = r.read().decode()
    return {(s.name, tuple(sorted(s.labels.items()))): s.value
            for family in text_string_to_metric_families(text) for s in family.samples}


def test_healthz_and_metrics(tmp_path):
    s = ServerProcess(tmp_path / "t.sqlite3")
    try:
        status, body = s.request("GET", "/healthz")
        assert status == 200 and body["status"] == "ok" and body["store"] == "ok"
        _, made = s.request("POST", "/api/tables", {"game": "kings_stakes", "players": 2,
                                                     "bots": {"1": "greedy"}})
        token = made["seats"]["0"]
        _, state = s.request("GET", f"/api/tables/{made['table']}?token={token}")
        if state["current_player"] == 0:
            status, _ = s.request("POST", f"/api/tables/{made['table']}/actions",
                                  {"token": token, "action": state["legal"][0]["id"]})
            assert status == 200
        moved = 1 if state["current_player"] == 0 else 0
        assert s.request("GET", "/api/games", headers={"Host": "evil.example"})[0] == 421
        assert s.request("GET", "/api/games", headers={"Host": "evil.example"})[0] == 421

        async def watch_and_scrape() -> dict:
            url = s.base.replace("http", "ws") + f"/ws/tables/{made['table']}"
            async with connect(url) as ws:
                await ws.recv()
                return await asyncio.to_thread(scrape, s)
        m = asyncio.run(watch_and_scrape())
        assert m[("cardcore_store_tables", (("state", "open"),))] == 1
        # The loop's lag, sampled every 100 ms since the start (vitals.py): its first sample
        # may come after a loaded machine's first scrape.
        lag = m
        for _ in range(50):
            if lag[("cardcore_event_loop_lag_seconds_count", ())] > 0:
                break
            time.sleep(0.1)
            lag = scrape(s)
        assert lag[("cardcore_event_loop_lag_seconds_count", ())] > 0
        assert "loop_lag_ms" in s.request("GET", "/healthz")[1]
        assert m[("cardcore_store_tables", (("state", "finished"),))] == 0
        assert m[("cardcore_tables", (("state", "held"),))] == 1
        assert m[("cardcore_tables", (("state", "active"),))] == 1
        assert m[("cardcore_connections", (("kind", "spectator"),))] == 1
        assert m[("cardcore_connections", (("kind", "seat"),))] == 0
        assert m[("cardcore_refusals_total", (("reason", "host"),))] == 2
        assert m[("cardcore_actions_total", (("by", "person"),))] == moved
        assert m[("cardcore_action_seconds_count", ())] == moved
        assert m[("cardcore_bot_think_seconds_count", ())] >= 1 - moved
        assert m[("cardcore_store_seconds_count", ())] >= 1
        assert m[("cardcore_outbox_messages", (("stat", "max"),))] == 0
        assert m[("cardcore_tables_stalled", ())] == 0
    finally:
        s.stop()


def test_a_stalled_table_shows_in_metrics_and_the_log(tmp_path):
    s = ServerProcess(tmp_path / "t.sqlite3", extra=("--stall-after", "0.5"))
    try:
        _, made = s.request("POST", "/api/tables", {"game": "kings_stakes", "players": 2})
        _, state = s.request("GET", f"/api/tables/{made['table']}")
        mover = state["current_player"]
        token = made["seats"][str(mover)]
        _, idle = s.request("POST", "/api/tables", {"game": "kings_stakes", "players": 2})

        async def run() -> None:
            url = s.base.replace("http", "ws") + f"/ws/tables/{made['table']}"
            async with connect(url, subprotocols=["cardcore", f"cardcore.token.{token}"]) as ws:
                first = json.loads(await ws.recv())
                await asyncio.sleep(1.5)
                m = await asyncio.to_thread(scrape, s)
                assert m[("cardcore_tables_stalled", ())] == 1    # the idle table: nobody there
                assert m[("cardcore_stalls_total", ())] == 1
                await ws.send(json.dumps({"type": "action", "action": first["legal"][0]["id"],
                                          "after": first["event_count"]}))
                assert json.loads(await ws.recv())["type"] == "state"
                await asyncio.sleep(0.3)
                m = await asyncio.to_thread(scrape, s)
                assert m[("cardcore_tables_stalled", ())] == 0
        asyncio.run(run())
        time.sleep(0.2)
        log = s.log_text()
        assert f"table {made['table']} stalled: seat {mover} (connected)" in log
        assert idle["table"] not in log
    finally:
        s.stop()


def test_build_info_request_latency_by_route_and_socket_close_codes(tmp_path):
    s = ServerProcess(tmp_path / "t.sqlite3", extra=("--quiet-health-checks",))
    try:
        _, made = s.request("POST", "/api/tables", {"game": "kings_stakes", "players": 2})
        for _ in range(3):
            assert s.request("GET", f"/api/tables/{made['table']}")[0] == 200
        assert s.request("GET", "/api/tables/nosuchtable")[0] == 404
        assert s.request("GET", "/no/such/page")[0] == 404
        assert s.request("GET", "/livez")[0] == 200

        async def close_twice() -> None:
            url = s.base.replace("http", "ws") + f"/ws/tables/{made['table']}"
            async with connect(url) as ws:          # the client closes: 1000
                await ws.recv()
            async with connect(url + "?token=wrong") as ws:     # refused by the server
                try:
                    while True:
                        await ws.recv()
                except Exception:
                    pass
        asyncio.run(close_twice())
        time.sleep(0.3)
        m = scrape(s)
        builds = [k for k in m if k[0] == "cardcore_build_info"]
        assert len(builds) == 1 and dict(builds[0][1])["version"]
        process = dict(builds[0][1])["process"]
        assert len(process) == 16
        route = (("method", "GET"), ("route", "/api/tables/{table}"))
        assert m[("cardcore_request_seconds_count", route)] == 4      # one series for all ids
        assert m[("cardcore_request_seconds_count", (("method", "GET"), ("route", "other")))] \
            == 1
        assert not any(made["table"] in dict(k[1]).get("route", "") for k in m)
        closes = {dict(k[1])["code"] + "/" + dict(k[1])["by"]: v for k, v in m.items()
                  if k[0] == "cardcore_socket_closes_total"}
        assert closes.get("1000/connection") == 1, closes          # the client closed
        assert sum(v for k, v in closes.items() if k.endswith("/app")) == 1, closes
    finally:
        s.stop()
    log = s.log_path.read_text()
    assert f"process {process}" in log
    lines = [line for line in log.splitlines() if f'"GET /api/tables/{made["table"]} ' in line]
    assert len(lines) == 3 and all(line.rstrip().endswith("ms") for line in lines), lines
    assert "/livez" not in log                     # --quiet-health-checks
    assert '"GET /metrics HTTP/1.1" 200' in log


def test_the_held_tables_of_two_processes_sum_to_the_stores_open_tables(tmp_path, pg_cluster):
    url = pg_cluster.new_database()
    a = ServerProcess(url, log=tmp_path / "a.log", extra=("--create-burst", "100"))
    b = ServerProcess(url, log=tmp_path / "b.log", extra=("--create-burst", "100"))
    try:
        for server, n in ((a, 3), (b, 2)):          # each process holds what it made
            for _ in range(n):
                status, _ = server.request("POST", "/api/tables",
                                           {"game": "kings_stakes", "players": 2})
                assert status == 201
        ma, mb = scrape(a), scrape(b)
        held = (("state", "held"),)
        assert (ma[("cardcore_tables", held)], mb[("cardcore_tables", held)]) == (3, 2)
        stored = (("state", "open"),)                # the store's figure: the same on both
        assert ma[("cardcore_store_tables", stored)] == mb[("cardcore_store_tables", stored)] \
            == 5
        processes = {dict(k[1])["process"] for m in (ma, mb) for k in m
                     if k[0] == "cardcore_build_info"}
        assert len(processes) == 2
    finally:
        a.stop()
        b.stop()
