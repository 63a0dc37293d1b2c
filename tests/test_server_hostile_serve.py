"""Hostile clients against `cardcore serve` itself (docs/server.md, "Limits"): connections per
address, slow request heads, tokens at --log-level debug, and the check of issue 32: 2,000
idle sockets and 1,000 slow heads from 127.0.0.2 while a client on 127.0.0.1 plays a match."""
from __future__ import annotations

import asyncio
import json
import os
import re
import resource
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

from cardcore.server.limits import Limits
from server_helpers import SRC, ServerProcess

pytestmark = [pytest.mark.slow,                     # real server processes
              pytest.mark.filterwarnings("ignore::DeprecationWarning")]

ATTACKER = "127.0.0.2"                              # Linux routes all of 127/8 to lo


def raise_open_files(wanted: int) -> int:
    """The soft open-file limit raised towards ``wanted`` (as far as the hard limit allows);
    returns the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def open_from(port: int, source: str, head: bytes = b"") -> socket.socket:
    s = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0))
    if head:
        s.sendall(head)
    return s


def closed_by_server(s: socket.socket) -> bool:
    """Whether the server has closed ``s`` (it read EOF or a reset; a 503 may come first)."""
    s.setblocking(False)
    try:
        while True:
            data = s.recv(65536)
            if not data:
                return True
    except BlockingIOError:
        return False
    except OSError:
        return True


def metric(server: ServerProcess, name: str) -> float:
    text = urllib.request.urlopen(server.base + "/metrics", timeout=30).read().decode()
    found = re.search(rf"^{re.escape(name)} (\S+)$", text, re.MULTILINE)
    return float(found.group(1)) if found else 0.0


def poll(condition, timeout: float = 60.0, step: float = 0.2) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(step)
    return condition()


def test_connections_per_address_are_capped_counted_and_freed(tmp_path):
    server = ServerProcess(tmp_path / "t.sqlite3",
                           extra=("--max-connections-per-address", "10",
                                  "--head-timeout", "600"))
    held: list[socket.socket] = []
    try:
        status, made = server.request("POST", "/api/tables", {"game": "kings_stakes"})
        assert status == 201

        async def sockets_then_idle() -> None:
            url = f"ws://127.0.0.1:{server.port}/ws/tables/{made['table']}"
            async with connect(url) as a, connect(url) as b:      # from 127.0.0.1
                await a.recv()
                await b.recv()
                assert metric(server, 'cardcore_open_connections{stat="total"}') >= 2
        asyncio.run(sockets_then_idle())
        held = [open_from(server.port, ATTACKER) for _ in range(30)]
        assert poll(lambda: sum(closed_by_server(s) for s in held) >= 20)
        assert sum(closed_by_server(s) for s in held) == 20      # the first 10 stay open
        # Another address is served meanwhile, and /metrics says what happened.
        assert server.request("GET", "/api/games")[0] == 200
        assert metric(server, 'cardcore_open_connections{stat="max_per_address"}') == 10
        assert metric(server, 'cardcore_refusals_total{reason="connections_per_address"}') \
            == 20
        for s in held:
            s.close()
        assert poll(lambda: metric(server,
                                   'cardcore_open_connections{stat="max_per_address"}') <= 1)
        again = open_from(server.port, ATTACKER, b"GET /api/games HTTP/1.1\r\nHost: localhost\r\n\r\n")
        assert again.recv(12) == b"HTTP/1.1 200"                # its slots came back
        again.close()
    finally:
        for s in held:
            s.close()
        server.stop()


def test_a_request_head_sent_slowly_is_cut_off(tmp_path):
    server = ServerProcess(tmp_path / "t.sqlite3", extra=("--head-timeout", "1"))
    try:
        slow = open_from(server.port, ATTACKER, b"GET /api/games HTTP/1.1\r\n")
        idle = open_from(server.port, ATTACKER)

        def dripped() -> bool:
            try:
                slow.sendall(b"X")               # a header line, a byte at a time
            except OSError:
                return True
            return closed_by_server(slow)
        assert poll(dripped, step=0.3)
        assert poll(lambda: closed_by_server(idle))
        assert metric(server, 'cardcore_refusals_total{reason="head_timeout"}') >= 2
        # A whole head in time is served, and a kept-alive connection serves a second one.
        conn = open_from(server.port, ATTACKER)
        for _ in range(2):
            conn.sendall(b"GET /api/games HTTP/1.1\r\nHost: localhost\r\n\r\n")
            assert conn.recv(12) == b"HTTP/1.1 200"
            conn.settimeout(0.5)
            try:
                while conn.recv(65536):
                    pass
            except socket.timeout:
                pass
        conn.close()
    finally:
        server.stop()


def test_tokens_and_invites_stay_out_of_debug_logs(tmp_path):
    server = ServerProcess(tmp_path / "t.sqlite3", extra=("--log-level", "debug"))
    try:
        status, made = server.request("POST", "/api/tables", {
            "game": "kings_stakes", "players": 2, "open_seats": [1], "names": {"0": "Ann"}})
        assert status == 201
        token, invite = made["seats"]["0"], made["invite"]

        async def auth_by_message() -> None:
            url = f"ws://127.0.0.1:{server.port}/ws/tables/{made['table']}"
            async with connect(url) as ws:
                await ws.recv()
                await ws.send(json.dumps({"type": "auth", "token": token}))
                assert json.loads(await ws.recv())["seat"] == 0
        asyncio.run(auth_by_message())
        status, claimed = server.request("POST", f"/api/tables/{made['table']}/seats",
                                         {"invite": invite, "name": "Bo"})
        assert status == 201
        urllib.request.urlopen(f"{server.base}/tables/{made['table']}?invite={invite}",
                               timeout=30).read()
        server.request("GET", f"/api/tables/{made['table']}?token={claimed['token']}")
        time.sleep(0.5)
        text = server.log_text()
        assert "DEBUG" in text                           # the level was in force
        for secret in (token, invite, claimed["token"], made["creator_token"]):
            assert secret not in text
    finally:
        server.stop()


# ------------------------------------------------------------------ issue 32's check
IDLE, SLOW = 2000, 1000


def test_idle_and_slow_sockets_from_one_address_do_not_stop_a_match_elsewhere(tmp_path):
    # The attack needs IDLE + SLOW descriptors in this process (the server needs few: past
    # its per-address limit it closes what it accepts). Where the hard limit is lower, the
    # attack is scaled down to what it allows, keeping its 2:1 mix and 100 spare.
    allowed = raise_open_files(IDLE + SLOW + 200)
    idle_n, slow_n = IDLE, SLOW
    if allowed < IDLE + SLOW + 200:
        scale = max(allowed - 200, 30) / (IDLE + SLOW)
        idle_n, slow_n = int(IDLE * scale), int(SLOW * scale)
    # Default limits, and the open-file limit most systems give a process (1,024): more
    # sockets than that from one address, unchecked, leave nothing for other clients.
    server = ServerProcess(tmp_path / "t.sqlite3", open_files=1024)
    attackers: list[socket.socket] = []
    stop = threading.Event()
    try:
        status, made = server.request("POST", "/api/tables", {
            "game": "kings_stakes", "players": 2, "bots": {"1": "random"},
            "options": {"rounds": 2}})
        assert status == 201, made
        token = made["seats"]["0"]
        baseline = server.rss_mb()

        for _ in range(idle_n):
            try:
                attackers.append(open_from(server.port, ATTACKER))
            except OSError:                       # the backlog is full: the attack goes on
                pass
        slow: list[socket.socket] = []
        for _ in range(slow_n):
            try:
                slow.append(open_from(server.port, ATTACKER, b"GET / HTTP/1.1\r\n"))
            except OSError:
                pass
        attackers += slow

        def drip() -> None:                       # a byte a second on every slow head
            while not stop.wait(1.0):
                for s in slow:
                    try:
                        s.send(b"X")
                    except OSError:
                        pass
        dripper = threading.Thread(target=drip, daemon=True)
        dripper.start()
        peak = [server.rss_mb()]

        async def play() -> dict:
            url = f"ws://127.0.0.1:{server.port}/ws/tables/{made['table']}"
            async with connect(url, subprotocols=["cardcore", f"cardcore.token.{token}"],
                               open_timeout=60) as ws:
                acted = -1
                while True:
                    state = json.loads(await asyncio.wait_for(ws.recv(), 60))
                    assert state["type"] in ("state", "record"), state
                    if state["type"] != "state":
                        continue
                    peak[0] = max(peak[0], server.rss_mb())
                    if state["over"]:
                        return state
                    # One action per position (a push may repeat it while ours is answered).
                    if state["legal"] and state["event_count"] > acted:
                        acted = state["event_count"]
                        await asyncio.sleep(0.06)       # under --message-rate's 20 a second
                        await ws.send(json.dumps({"type": "action",
                                                  "action": state["legal"][0]["id"],
                                                  "after": state["event_count"]}))
        final = asyncio.run(play())
        assert final["over"] and final["event_count"] > 10
        cap = Limits().max_connections_per_address           # the default
        assert metric(server, 'cardcore_refusals_total{reason="connections_per_address"}') \
            >= (idle_n + slow_n) - cap
        assert metric(server, 'cardcore_open_connections{stat="max_per_address"}') <= cap
        assert peak[0] < baseline + 60, (baseline, peak)
        stop.set()
        for s in attackers:
            s.close()
        assert poll(lambda: metric(server, 'cardcore_open_connections{stat="total"}') <= 1)
        assert poll(lambda: server.rss_mb() < baseline + 20, timeout=30), \
            (baseline, server.rss_mb())
    finally:
        stop.set()
        for s in attackers:
            s.close()
        server.stop()


# ------------------------------------------------------------------ benchmarks/load_server.py
LOAD_SERVER = Path(__file__).resolve().parents[1] / "benchmarks" / "load_server.py"


def run_load_server(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    """The load test as a user runs it from a checkout whose ``src/`` has no extensions
    built (a stand-in that cannot be imported), with cardcore installed: here, the cardcore
    these tests import, on PYTHONPATH."""
    checkout = tmp_path / "checkout"
    (checkout / "benchmarks").mkdir(parents=True)
    (checkout / "src" / "cardcore").mkdir(parents=True)
    (checkout / "src" / "cardcore" / "__init__.py").write_text(
        'raise ImportError("a source tree without its extensions built")\n')
    shutil.copy(LOAD_SERVER, checkout / "benchmarks")
    env = {**os.environ, "PYTHONPATH": SRC}
    return subprocess.run([sys.executable, str(checkout / "benchmarks" / "load_server.py"),
                           *args], capture_output=True, text=True, env=env, timeout=600,
                          cwd=tmp_path)


def test_the_load_test_runs_against_an_installed_cardcore(tmp_path):
    done = run_load_server(tmp_path, "--tables", "1", "--seconds", "2", "--json")
    assert done.returncode == 0, done.stderr[-2000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["actions"] > 0 and result["lost"] == 0
    # what the pushes carried: a whole state per seat and action, at least its legal list
    assert result["pushed_kb_per_action"] > 0.5 and result["server_cpu_us_per_pushed_kb"] > 0


def test_the_load_test_says_when_its_server_did_not_start(tmp_path):
    done = run_load_server(tmp_path, "--tables", "1", "--seconds", "2",
                           "--db", str(tmp_path / "no" / "such" / "dir" / "t.sqlite3"))
    assert done.returncode == 2
    assert "a server failed to start" in done.stderr and "unable to open" in done.stderr
