"""The reverse proxy of docs/operations.md, as written there: HAProxy (Debian's package,
.ci/run installs it) in front of two `cardcore serve` processes on one PostgreSQL database.
- every request of a table reaches one process (its id hashed), so a read after an
  acknowledged move shows it;
- a drained process (SIGTERM with --drain) leaves the proxy by its /readyz, its sockets close
  with 1012, and the table plays on through the proxy on the other process."""
from __future__ import annotations

import asyncio
import http.client
import json
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from server_helpers import Proxy, ServerProcess, docs_haproxy_config, free_port

pytestmark = [pytest.mark.slow, pytest.mark.filterwarnings("ignore::DeprecationWarning")]

DRAIN = 3.0


def call(base: str, method: str, path: str, body: object = None) -> tuple[int, dict]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"{}")


def wait_for(check, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if check():
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise AssertionError("timed out")


def served(log: Path, table: str) -> int:
    """Requests for ``table`` in a server's access log."""
    return sum(1 for line in log.read_text(errors="replace").splitlines()
               if f"/tables/{table}" in line and '"' in line)


def test_the_documented_haproxy_keeps_a_table_on_one_process_and_drains_one(pg_cluster,
                                                                           tmp_path):
    url = pg_cluster.new_database()
    ports = [free_port(), free_port()]
    servers = [ServerProcess(url, port=port, log=tmp_path / f"s{k}.log",
                             extra=("--forwarded-allow-ips", "127.0.0.1", "--drain", str(DRAIN),
                                    "--create-burst", "100"))
               for k, port in enumerate(ports)]
    proxy_port = free_port()
    config = tmp_path / "haproxy.cfg"
    config.write_text(docs_haproxy_config(proxy_port, *ports))
    haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
    assert subprocess.run([haproxy, "-c", "-f", str(config)], capture_output=True).returncode == 0
    proxy = subprocess.Popen([haproxy, "-db", "-f", str(config)], stdout=subprocess.DEVNULL,
                             stderr=open(tmp_path / "haproxy.log", "wb"))
    base = f"http://127.0.0.1:{proxy_port}"
    try:
        wait_for(lambda: call(base, "GET", "/readyz")[0] == 200)
        tables = []
        for _ in range(6):
            status, made = call(base, "POST", "/api/tables", {
                "game": "kings_stakes", "players": 2, "bots": {"1": "greedy"}})
            assert status == 201, made
            tables.append((made["table"], made["seats"]["0"]))
        for table, token in tables:
            for _ in range(3):
                _, state = call(base, "GET", f"/api/tables/{table}?token={token}")
                before = state["event_count"]
                status, _ = call(base, "POST", f"/api/tables/{table}/actions",
                                 {"token": token, "action": state["legal"][0]["id"]})
                assert status == 200
                _, after = call(base, "GET", f"/api/tables/{table}?token={token}")
                assert after["event_count"] > before        # read after write, via the proxy
        for table, _ in tables:
            # A process writes its access line after the answer: on a loaded machine the
            # last one may reach the log a moment after the client read the answer.
            wait_for(lambda: sum(served(s.log_path, table) for s in servers) >= 9, 10)
            counts = [served(s.log_path, table) for s in servers]
            assert sorted(counts)[0] == 0 and sorted(counts)[1] >= 9, counts

        # Drain the process that serves the first table: its socket closes with 1012 after
        # the drain, the proxy's checks take the process out, and the table plays on.
        table, token = tables[0]
        owner = next(s for s in servers if served(s.log_path, table))
        other = next(s for s in servers if s is not owner)

        async def drained() -> tuple[int, float]:
            ws_url = base.replace("http", "ws") + f"/ws/tables/{table}"
            async with connect(ws_url, subprotocols=["cardcore",
                                                     f"cardcore.token.{token}"]) as ws:
                json.loads(await ws.recv())
                owner.process.send_signal(signal.SIGTERM)
                start = time.monotonic()
                try:
                    while True:
                        await asyncio.wait_for(ws.recv(), 60)
                except ConnectionClosed as e:
                    return (e.rcvd.code if e.rcvd else -1), time.monotonic() - start
        code, after = asyncio.run(drained())
        assert code == 1012 and after >= DRAIN - 0.1
        owner.process.wait(timeout=30)
        before = served(other.log_path, table)
        _, state = call(base, "GET", f"/api/tables/{table}?token={token}")
        status, _ = call(base, "POST", f"/api/tables/{table}/actions",
                         {"token": token, "action": state["legal"][0]["id"]})
        assert status == 200

        async def reconnect() -> int:
            ws_url = base.replace("http", "ws") + f"/ws/tables/{table}"
            async with connect(ws_url, subprotocols=["cardcore",
                                                     f"cardcore.token.{token}"]) as ws:
                return int(json.loads(await ws.recv())["event_count"])
        assert asyncio.run(reconnect()) > state["event_count"]
        assert served(other.log_path, table) >= before + 3
    finally:
        proxy.terminate()
        proxy.wait(timeout=15)
        for s in servers:
            s.stop()
    for s in servers:
        assert "Traceback" not in s.log_path.read_text(errors="replace")


# ------------------------------------------------------------------ the production example
def _https(proxy: Proxy, method: str, path: str, body: object = None,
           source: str = "127.0.0.1") -> tuple[int, dict]:
    """A request through the proxy's TLS port from ``source`` (a loopback address)."""
    conn = http.client.HTTPSConnection("127.0.0.1", proxy.port, timeout=30,
                                       context=proxy.context, source_address=(source, 0))
    try:
        conn.request(method, path, body=None if body is None else json.dumps(body),
                     headers={"Content-Type": "application/json"})
        response = conn.getresponse()
        raw = response.read()
        try:
            return response.status, json.loads(raw or b"{}")
        except ValueError:
            return response.status, {}
    finally:
        conn.close()


def _refused(port: int) -> bool:
    """Whether the proxy closes a new connection from 127.0.0.1 at once (no TLS reply)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
            s.sendall(b"\x16\x03\x01\x00\x05hello")      # the start of a TLS record
            return s.recv(1) == b""
    except (ConnectionResetError, BrokenPipeError):     # HAProxy's reject: a reset
        return True
    except socket.timeout:                              # waiting for the rest of a hello
        return False


def test_the_production_haproxy_example_tls_logs_stats_limit_and_shutdown_sessions(
        pg_cluster, tmp_path):
    url = pg_cluster.new_database()
    servers = [ServerProcess(url, log=tmp_path / f"s{k}.log",
                             extra=("--forwarded-allow-ips", "127.0.0.1", "--drain", "5",
                                    "--create-burst", "100", "--quiet-health-checks"))
               for k in range(2)]
    proxy = Proxy(servers, tmp_path, production=True)
    held: list[socket.socket] = []
    try:
        # Play through TLS: HTTPS requests and a WSS socket pushed the bot's answer.
        status, made = _https(proxy, "POST", "/api/tables", {
            "game": "kings_stakes", "players": 2, "bots": {"1": "greedy"}})
        assert status == 201, made
        table, token = made["table"], made["seats"]["0"]

        async def play() -> int:
            ws_url = proxy.base.replace("https", "wss") + f"/ws/tables/{table}"
            async with connect(ws_url, ssl=proxy.context,
                               subprotocols=["cardcore", f"cardcore.token.{token}"]) as ws:
                state = json.loads(await ws.recv())
                for _ in range(3):
                    if state["current_player"] != 0 or state["over"]:
                        break
                    choice = state["legal"][0]["id"]
                    status, _ = await asyncio.to_thread(
                        _https, proxy, "POST", f"/api/tables/{table}/actions",
                        {"token": token, "action": choice})
                    assert status == 200
                    while True:                         # the push after the move
                        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                        if message.get("type") == "state" and \
                                message["event_count"] > state["event_count"]:
                            state = message
                            if state["current_player"] == 0 or state["over"]:
                                break
                return int(state["event_count"])
        assert asyncio.run(play()) >= 2

        # Port 80 sends browsers to https.
        plain = http.client.HTTPConnection("127.0.0.1", proxy.http_port, timeout=10)
        plain.request("GET", f"/tables/{table}")
        redirect = plain.getresponse()
        assert redirect.status == 301
        assert redirect.getheader("Location", "").startswith("https://")
        plain.close()

        # Stats on loopback: both processes UP, and Prometheus metrics. HAProxy spreads its
        # first checks over the check interval (1 s): until a process's first check it shows
        # "UP 1/3" with check_status INI, which a fast test can read, so it waits for both
        # first checks (each then passed: UP, L7OK).
        stats = f"http://127.0.0.1:{proxy.stats_port}"

        def checked_processes() -> dict[str, tuple[str, str]]:
            with urllib.request.urlopen(stats + "/stats;csv", timeout=10) as r:
                rows = [line.split(",") for line in r.read().decode().splitlines()]
            header = rows[0]
            return {row[1]: (row[header.index("status")], row[header.index("check_status")])
                    for row in rows if row[:1] == ["tables"] and row[1] in ("a", "b")}
        wait_for(lambda: all(check != "INI" for _, check in checked_processes().values()))
        assert checked_processes() == {"a": ("UP", "L7OK"), "b": ("UP", "L7OK")}
        with urllib.request.urlopen(stats + "/metrics", timeout=10) as r:
            assert "haproxy_backend_active_servers" in r.read().decode()

        # The per-address limit: 200 connections from 127.0.0.1 are held, the 201st is cut;
        # 127.0.0.2 is served meanwhile; 127.0.0.1 is served again once they close.
        for _ in range(200):
            held.append(socket.create_connection(("127.0.0.1", proxy.port), timeout=5))
        time.sleep(0.3)
        assert _refused(proxy.port)
        assert _https(proxy, "GET", "/api/games", source="127.0.0.2")[0] == 200
        for s in held:
            s.close()
        held.clear()
        wait_for(lambda: not _refused(proxy.port))
        assert _https(proxy, "GET", "/api/games")[0] == 200

        # on-marked-down shutdown-sessions: the process serving the table is paused; its
        # socket is cut once the checks mark it down (about 8 s at most), not left hanging.
        owner = next(s for s in servers if served(s.log_path, table))

        async def cut_when_paused() -> float:
            ws_url = proxy.base.replace("https", "wss") + f"/ws/tables/{table}"
            async with connect(ws_url, ssl=proxy.context,
                               subprotocols=["cardcore", f"cardcore.token.{token}"]) as ws:
                json.loads(await ws.recv())
                owner.process.send_signal(signal.SIGSTOP)
                start = time.monotonic()
                try:
                    while True:
                        await asyncio.wait_for(ws.recv(), 30)
                except ConnectionClosed:
                    return time.monotonic() - start
        try:
            cut_after = asyncio.run(cut_when_paused())
            # and the table plays on through the other process (after the lease's 5 s)
            _, state = _https(proxy, "GET", f"/api/tables/{table}?token={token}")
            if state.get("current_player") == 0 and not state.get("over"):
                status, _ = _https(proxy, "POST", f"/api/tables/{table}/actions",
                                   {"token": token, "action": state["legal"][0]["id"]})
                assert status == 200
        finally:
            owner.process.send_signal(signal.SIGCONT)
        print(f"socket cut {cut_after:.1f} s after its process was paused")
        assert cut_after < 12.0
    finally:
        for s in held:
            s.close()
        proxy.stop()
        for s in servers:
            s.stop()
    log = (tmp_path / "haproxy.out").read_text(errors="replace")
    assert f"GET /api/tables/{table} HTTP/1.1" in log                # logged, query left out
    assert token not in log and "token=" not in log
    assert " 301 " in log and f"GET /tables/{table} HTTP/1.1" in log      # the redirect
    for s in servers:
        text = s.log_path.read_text(errors="replace")
        assert "Traceback" not in text and "GET /readyz" not in text  # --quiet-health-checks
