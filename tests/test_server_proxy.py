"""The reverse proxy of docs/operations.md, as written there: HAProxy (Debian's package,
.ci/run installs it) in front of two `cardcore serve` processes on one PostgreSQL database.
- every request of a table reaches one process (its id hashed), so a read after an
  acknowledged move shows it;
- a drained process (SIGTERM with --drain) leaves the proxy by its /readyz, its sockets close
  with 1012, and the table plays on through the proxy on the other process."""
from __future__ import annotations

import asyncio
import json
import shutil
import signal
import subprocess
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from server_helpers import ServerProcess, docs_haproxy_config, free_port

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
