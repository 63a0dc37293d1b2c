"""`cardcore serve` as deployed (docs/server.md, "Logs", "Limits", "Origins and hosts"): real
server processes, real sockets. Each limit, status and close code of those sections is here."""
from __future__ import annotations

import asyncio
import http.client
import json
import re
import socket
import time
import urllib.request

import pytest
import websockets
from websockets.asyncio.client import connect

from cardcore.server import create_app
from cardcore.server.limits import RETRY_FULL_SECONDS, Limits, RateBuckets

from server_helpers import ServerProcess, TestClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

JSON = {"Content-Type": "application/json"}
TIMESTAMP = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z ")


@pytest.fixture
def server(tmp_path):
    s = ServerProcess(tmp_path / "t.sqlite3")
    yield s
    s.stop()


def request(port: int, method: str, path: str, body: bytes | None = None,
            headers: dict[str, str] | None = None, source: str | None = None,
            conn: http.client.HTTPConnection | None = None
            ) -> tuple[int, dict[str, str], bytes]:
    own = conn is None
    if conn is None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30,
                                          source_address=(source, 0) if source else None)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        if own:
            conn.close()


def create(port: int, source: str | None = None, conn: http.client.HTTPConnection | None = None,
           game: str = "kings_stakes", **body: object) -> tuple[int, dict[str, str], dict]:
    status, headers, raw = request(port, "POST", "/api/tables",
                                   json.dumps({"game": game, **body}).encode(), JSON,
                                   source, conn)
    return status, headers, json.loads(raw)


def ws_url(server: ServerProcess, path: str) -> str:
    return server.base.replace("http", "ws") + path


# ---------------------------------------------------------------- logs
def test_a_get_with_a_token_logs_one_line_with_the_token_redacted(server):
    _, _, made = create(server.port)
    token = made["seats"]["0"]
    path = f"/api/tables/{made['table']}?token={token}&since=0"
    assert request(server.port, "GET", path)[0] == 200

    async def socket_with_query_token() -> None:
        async with connect(ws_url(server, f"/ws/tables/{made['table']}?token={token}")) as ws:
            assert json.loads(await ws.recv())["seat"] == 0
    asyncio.run(socket_with_query_token())
    time.sleep(0.3)
    text = server.log_text()
    assert token not in text
    assert "Logging error" not in text and "Traceback" not in text
    lines = [line for line in text.splitlines() if f"/api/tables/{made['table']}?" in line]
    assert len(lines) == 1, lines
    assert "token=[redacted]&since=0" in lines[0] and '" 200' in lines[0]
    assert TIMESTAMP.match(lines[0]) and "127.0.0.1:" in lines[0]
    ws_lines = [line for line in text.splitlines() if f"/ws/tables/{made['table']}" in line]
    assert ws_lines and all("token=[redacted]" in line for line in ws_lines)
    # Every line is one record with a timestamp (the banner of `cardcore serve` aside).
    assert all(TIMESTAMP.match(line) for line in text.splitlines()
               if line and not line.startswith("cardcore serve:"))


def test_json_lines_logs(tmp_path):
    s = ServerProcess(tmp_path / "t.sqlite3", extra=("--log-format", "json"))
    try:
        _, _, made = create(s.port)
        token = made["seats"]["1"]
        request(s.port, "GET", f"/api/tables/{made['table']}?token={token}")
        time.sleep(0.3)
        text = s.log_text()
    finally:
        s.stop()
    assert token not in text and "Traceback" not in text
    records = [json.loads(line) for line in text.splitlines()
               if line and not line.startswith("cardcore serve:")]
    assert all({"time", "level", "logger", "message"} <= set(r) for r in records)
    access = [r for r in records if r["logger"] == "cardcore.access"
              and r["path"].startswith(f"/api/tables/{made['table']}?")]
    assert len(access) == 1
    assert access[0]["path"] == f"/api/tables/{made['table']}?token=[redacted]"
    assert access[0]["status"] == 200 and access[0]["method"] == "GET"
    assert 0 < access[0]["duration_ms"] < 10_000       # observe.py's line, timed


# ---------------------------------------------------------------- creation
def test_a_burst_of_5000_creations_is_throttled_while_another_address_creates(server):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
    start = time.monotonic()
    statuses: dict[int, int] = {}
    retry_after = set()
    for _ in range(5000):
        status, headers, body = create(server.port, conn=conn)
        statuses[status] = statuses.get(status, 0) + 1
        if status == 429:
            retry_after.add(headers.get("retry-after"))
    elapsed = time.monotonic() - start
    conn.close()
    # The default bucket: bursts of 10, then 0.2 creations per second.
    assert statuses.get(201, 0) <= 10 + 0.2 * elapsed + 1
    assert statuses.get(201, 0) >= 10
    assert statuses[429] == 5000 - statuses[201]
    assert retry_after and all(v is not None and v.isdigit() and 1 <= int(v) <= 5
                               for v in retry_after)
    status, _, made = create(server.port, source="127.0.0.2")
    assert status == 201 and made["seats"]
    assert "too many tables created" in body["error"]


def test_open_tables_per_address_and_in_total(tmp_path):
    s = ServerProcess(tmp_path / "t.sqlite3", extra=("--max-tables", "5",
                                                      "--max-tables-per-client", "3",
                                                      "--create-burst", "100"))
    try:
        for _ in range(3):
            assert create(s.port)[0] == 201
        status, _, body = create(s.port)
        assert status == 429 and "3 open tables" in body["error"]
        assert create(s.port, source="127.0.0.2")[0] == 201
        assert create(s.port, source="127.0.0.2")[0] == 201
        status, _, body = create(s.port, source="127.0.0.3")
        assert status == 503 and "at most 5 open tables" in body["error"]
    finally:
        s.stop()


def test_token_buckets_refill_and_forget_full_buckets():
    buckets = RateBuckets(rate=2.0, burst=3, max_addresses=4)
    assert [buckets.take("a", 0.0) for _ in range(3)] == [0, 0, 0]
    assert buckets.take("a", 0.0) == pytest.approx(0.5)
    assert buckets.take("a", 0.5) == 0
    for k in range(10):                   # many addresses: memory stays bounded
        buckets.take(f"b{k}", 100.0)
    assert len(buckets.buckets) <= 4


def test_limits_are_checked():
    with pytest.raises(ValueError, match="max_body"):
        Limits(max_body=0)
    with pytest.raises(ValueError, match="create_rate"):
        Limits(create_rate=float("nan"))
    with pytest.raises(ValueError, match="max_spectators must be an int"):
        Limits(max_spectators=2.5)


def test_cli_refuses_a_bad_limit(capsys):
    from cardcore.cli import main
    assert main(["serve", "--max-outbox", "0"]) == 2
    assert "--max-outbox must be a number > 0" in capsys.readouterr().err


# ---------------------------------------------------------------- connections
def test_64_spectators_do_not_keep_a_seat_out(tmp_path):
    # Every socket comes from 127.0.0.1: the limits per address are lifted above the test's.
    server = ServerProcess(tmp_path / "t.sqlite3", extra=(
        "--max-spectators-per-address", "64", "--max-sockets-per-address", "100",
        "--max-connections-per-address", "100"))
    try:
        _spectators_and_seats(server)
    finally:
        server.stop()


def test_sockets_past_the_cap_per_address_are_refused_503_and_counted(tmp_path):
    server = ServerProcess(tmp_path / "t.sqlite3", extra=(
        "--max-sockets-per-address", "3", "--max-connections-per-address", "100"))
    try:
        tables = [create(server.port)[2]["table"] for _ in range(2)]

        async def run() -> None:
            # Three sockets over two tables: the cap counts an address's sockets, not a table's.
            open_ = [await connect(ws_url(server, f"/ws/tables/{t}"))
                     for t in (tables[0], tables[0], tables[1])]
            for ws in open_:
                assert json.loads(await ws.recv())["type"] == "state"
            async with connect(ws_url(server, f"/ws/tables/{tables[1]}")) as fourth:
                reply = json.loads(await fourth.recv())
                assert reply["status"] == 503
                assert reply["error"] == "too many sockets from 127.0.0.1 (at most 3)"
                assert reply["retry_after"] == RETRY_FULL_SECONDS      # told to come back
                with pytest.raises(websockets.ConnectionClosed) as closed:
                    await fourth.recv()
                assert closed.value.rcvd.code == 1013
            await open_[0].close()
            async with connect(ws_url(server, f"/ws/tables/{tables[1]}")) as again:
                assert json.loads(await again.recv())["type"] == "state"
            for ws in open_[1:]:
                await ws.close()
        asyncio.run(run())
        with urllib.request.urlopen(server.base + "/metrics", timeout=30) as response:
            metrics = response.read().decode()
        assert 'cardcore_refusals_total{reason="sockets_per_address"} 1.0' in metrics
    finally:
        server.stop()


def test_eighty_seats_behind_one_address_are_served_by_default(tmp_path):
    """A school's or an office's NAT (issue 46): 20 tables of four players, all from one
    address, with the default per-address socket and connection caps: no socket refused."""
    server = ServerProcess(tmp_path / "t.sqlite3", extra=(
        "--max-tables-per-client", "20", "--create-burst", "20"))    # creation is not the test
    try:
        made = [create(server.port, players=4)[2] for _ in range(20)]

        async def run() -> None:
            sockets = []
            for table in made:
                for token in table["seats"].values():
                    sockets.append(await connect(
                        ws_url(server, f"/ws/tables/{table['table']}"),
                        subprotocols=["cardcore", f"cardcore.token.{token}"]))
            replies = [json.loads(await ws.recv()) for ws in sockets]
            assert len(replies) == 80
            assert all(r["type"] == "state" and r["seat"] is not None for r in replies)
            for ws in sockets:
                await ws.close()
        asyncio.run(run())
        assert metric_text(server).count('reason="sockets_per_address"') == 0
    finally:
        server.stop()


def metric_text(server: ServerProcess) -> str:
    with urllib.request.urlopen(server.base + "/metrics", timeout=30) as response:
        return response.read().decode()


def _spectators_and_seats(server: ServerProcess) -> None:
    _, _, made = create(server.port)
    table, token = made["table"], made["seats"]["0"]

    async def run() -> None:
        watchers = [await connect(ws_url(server, f"/ws/tables/{table}")) for _ in range(64)]
        for w in watchers:
            assert json.loads(await w.recv())["type"] == "state"
        async with connect(ws_url(server, f"/ws/tables/{table}")) as extra:
            reply = json.loads(await extra.recv())
            assert reply["status"] == 503 and "spectator" in reply["error"]
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await extra.recv()
            assert closed.value.rcvd.code == 1013
        seats = [await connect(ws_url(server, f"/ws/tables/{table}"),
                               subprotocols=["cardcore", f"cardcore.token.{token}"])
                 for _ in range(4)]
        for ws in seats:
            first = json.loads(await ws.recv())
            assert first["type"] == "state" and first["seat"] == 0
            assert ws.subprotocol == "cardcore"
        async with connect(ws_url(server, f"/ws/tables/{table}?token={token}")) as fifth:
            reply = json.loads(await fifth.recv())
            assert reply["status"] == 503 and "seat 0" in reply["error"]
        # Another seat is not kept out by seat 0's sockets either.
        async with connect(ws_url(server, f"/ws/tables/{table}"),
                           subprotocols=["cardcore",
                                         f"cardcore.token.{made['seats']['1']}"]) as other:
            assert json.loads(await other.recv())["seat"] == 1
        for w in watchers + seats:
            await w.close()
    asyncio.run(run())


def test_a_message_over_the_limit_is_answered_413_then_closed_1009(server):
    _, _, made = create(server.port)
    url = ws_url(server, f"/ws/tables/{made['table']}?token={made['seats']['0']}")

    async def run() -> None:
        async with connect(url, max_size=None) as ws:
            await ws.recv()
            await ws.send("x" * 16385)
            reply = json.loads(await ws.recv())
            assert reply["type"] == "error" and reply["status"] == 413
            assert "16384 bytes" in reply["error"]
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd.code == 1009
        ws = await connect(url, max_size=None)              # past the frame cap: 1009 at once
        await ws.recv()
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await ws.send("x" * (2 * 1024 * 1024))
            while True:
                await ws.recv()
        assert closed.value.rcvd.code == 1009
    asyncio.run(run())


def _ws_frame(payload: bytes) -> bytes:
    """A masked client text frame (mask 0: the payload as is)."""
    header = bytes([0x81])
    n = len(payload)
    header += bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + n.to_bytes(2, "big")
    return header + b"\0\0\0\0" + payload


def test_a_socket_that_never_reads_is_dropped_and_memory_stays_flat(tmp_path):
    s = ServerProcess(tmp_path / "t.sqlite3", extra=("--message-rate", "1000000"))
    try:
        _, _, made = create(s.port)
        before = s.rss_mb()
        raw = socket.socket()
        raw.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        raw.connect(("127.0.0.1", s.port))
        raw.sendall((f"GET /ws/tables/{made['table']} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                     "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                     "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                     "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        assert b"101" in raw.recv(200)
        ping = _ws_frame(b'{"type":"ping"}') * 1000
        sent = 0
        dropped = False
        raw.settimeout(5)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                raw.sendall(ping)
                sent += 1000
            except OSError:                    # the server closed the connection
                dropped = True
                break
            if "dropped" in s.log_text():
                dropped = True
                break
        assert dropped, f"{sent} pings sent, never read, and the socket is still open"
        time.sleep(0.5)
        assert "a spectator socket was dropped: it did not read (outbox full)" in s.log_text()
        assert s.rss_mb() - before < 30
        raw.close()
        assert s.request("GET", "/api/games")[0] == 200       # the server carries on
    finally:
        s.stop()


# ---------------------------------------------------------------- headers and bodies
def test_a_1_mb_header_is_refused(server):
    before = server.rss_mb()
    for _ in range(5):
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as raw:
            try:
                raw.sendall(b"GET /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Big: "
                            + b"a" * (1024 * 1024) + b"\r\n\r\n")
            except OSError:
                pass                            # refused before it was all sent
            answer = raw.recv(200)
        assert answer.startswith(b"HTTP/1.1 400"), answer
    assert server.rss_mb() - before < 10
    assert request(server.port, "GET", "/api/games", headers={"X-Fine": "a" * 8000})[0] == 200


def test_a_head_over_the_limit_is_431_when_embedded(tmp_path):
    """Under another ASGI server (or httptools), the app itself refuses a big head."""
    with TestClient(create_app(tmp_path / "t.sqlite3",
                               limits=Limits(max_header_bytes=1000))) as c:
        r = c.get("/api/games", headers={"X-Big": "a" * 1000})
        assert r.status_code == 431 and "1000 bytes" in r.json()["error"]
        assert c.get("/api/games").status_code == 200


def test_a_client_that_leaves_mid_body_changes_nothing_and_logs_no_traceback(server):
    # A proxy failing over (HAProxy's shutdown-sessions) or a closed tab cuts a POST after
    # its head: the server logs the request 499 and does not apply half a move.
    _, _, made = create(server.port)
    table, token = made["table"], made["seats"]["0"]
    before = request(server.port, "GET", f"/api/tables/{table}",
                     headers={"Authorization": f"Bearer {token}"})[2]
    head = (f"POST /api/tables/{table}/actions HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n"
            f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
            "Content-Length: 1000\r\n\r\n")
    with socket.create_connection(("127.0.0.1", server.port)) as raw:
        raw.sendall(head.encode() + b'{"action": ')
        time.sleep(0.3)
    deadline = time.monotonic() + 10
    while f"/api/tables/{table}/actions" not in server.log_text() and time.monotonic() < deadline:
        time.sleep(0.1)
    text = server.log_text()
    assert "Traceback" not in text and "ERROR" not in text, text[-2000:]
    line = next(x for x in text.splitlines() if f"POST /api/tables/{table}/actions" in x)
    assert '" 499' in line
    after = request(server.port, "GET", f"/api/tables/{table}",
                    headers={"Authorization": f"Bearer {token}"})[2]
    assert after == before


def test_body_limit_is_an_option(tmp_path):
    with TestClient(create_app(tmp_path / "t.sqlite3", limits=Limits(max_body=100))) as c:
        body = json.dumps({"game": "kings_stakes", "options": {"x": "y" * 100}})
        r = c.post("/api/tables", content=body, headers=JSON)
        assert r.status_code == 413 and "100 bytes" in r.json()["error"]
        assert c.post("/api/tables", json={"game": "kings_stakes"}).status_code == 201


# ---------------------------------------------------------------- origins and hosts
def test_a_cross_site_text_plain_post_is_refused(server):
    body = json.dumps({"game": "kings_stakes"}).encode()
    status, _, raw = request(server.port, "POST", "/api/tables", body,
                             {"Content-Type": "text/plain", "Origin": "http://evil.example"})
    assert status == 403 and "evil.example" in json.loads(raw)["error"]
    status, _, raw = request(server.port, "POST", "/api/tables", body,
                             {"Content-Type": "text/plain"})
    assert status == 415 and "application/json" in json.loads(raw)["error"]
    status, _, raw = request(server.port, "POST", "/api/tables", body,
                             {"Content-Type": "application/json",
                              "Origin": "http://evil.example"})
    assert status == 403
    assert server.request("GET", "/api/tables")[1]["tables"] == []
    # The server's own origin, and loopback ones, may.
    own = f"http://127.0.0.1:{server.port}"
    assert request(server.port, "POST", "/api/tables", body,
                   {**JSON, "Origin": own})[0] == 201
    assert request(server.port, "POST", "/api/tables", body,
                   {**JSON, "Origin": "http://localhost:5173"})[0] == 201


def test_a_foreign_host_is_refused(server):
    status, _, raw = request(server.port, "GET", "/api/games", headers={"Host": "evil.example"})
    assert status == 421 and "evil.example" in json.loads(raw)["error"]
    for host in (f"127.0.0.1:{server.port}", f"localhost:{server.port}", "[::1]:8000",
                 "10.1.2.3"):
        assert request(server.port, "GET", "/api/games", headers={"Host": host})[0] == 200


def test_allowed_origins_and_hosts_are_options_and_cors_follows_them(tmp_path):
    s = ServerProcess(tmp_path / "t.sqlite3", extra=("--allow-origin", "https://ui.example",
                                                      "--allow-host", "games.example"))
    try:
        assert request(s.port, "GET", "/api/games",
                       headers={"Host": "games.example"})[0] == 200
        assert request(s.port, "GET", "/api/games", headers={"Host": "evil.example"})[0] == 421
        status, headers, _ = request(s.port, "GET", "/api/games",
                                     headers={"Origin": "https://ui.example"})
        assert status == 200
        assert headers["access-control-allow-origin"] == "https://ui.example"
        status, headers, _ = request(s.port, "OPTIONS", "/api/tables", headers={
            "Origin": "https://ui.example", "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "content-type, authorization"})
        assert status == 200 and "POST" in headers["access-control-allow-methods"]
        assert "authorization" in headers["access-control-allow-headers"].lower()
        status, headers, _ = request(s.port, "OPTIONS", "/api/tables", headers={
            "Origin": "https://evil.example", "Access-Control-Request-Method": "POST"})
        assert status == 403 and "access-control-allow-origin" not in headers
        status, headers, _ = request(s.port, "GET", "/api/games",
                                     headers={"Origin": "http://localhost:3000"})
        assert headers["access-control-allow-origin"] == "http://localhost:3000"
    finally:
        s.stop()


def test_a_socket_from_a_foreign_origin_is_refused(server):
    _, _, made = create(server.port)

    async def run() -> None:
        url = ws_url(server, f"/ws/tables/{made['table']}")
        async with connect(url, origin="http://evil.example") as ws:
            reply = json.loads(await ws.recv())
            assert reply["type"] == "error" and reply["status"] == 403
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
            assert closed.value.rcvd.code == 1008
        async with connect(url, origin=f"http://127.0.0.1:{server.port}") as ws:
            assert json.loads(await ws.recv())["type"] == "state"
    asyncio.run(run())


def test_tokens_travel_as_bearer_and_subprotocol(tmp_path):
    with TestClient(create_app(tmp_path / "t.sqlite3")) as c:
        made = c.post("/api/tables", json={"game": "kings_stakes"}).json()
        token = made["seats"]["1"]
        r = c.get(f"/api/tables/{made['table']}", headers={"Authorization": f"Bearer {token}"})
        assert r.json()["seat"] == 1
        with c.websocket_connect(f"/ws/tables/{made['table']}",
                                 subprotocols=["cardcore", f"cardcore.token.{token}"]) as ws:
            assert ws.accepted_subprotocol == "cardcore"
            assert ws.receive_json()["seat"] == 1
        with c.websocket_connect(f"/ws/tables/{made['table']}",
                                 subprotocols=["cardcore", "cardcore.token.forged"]) as ws:
            reply = ws.receive_json()
            assert reply["status"] == 403


def test_every_limit_is_a_serve_option_with_the_same_default():
    from dataclasses import fields

    from cardcore.cli import SERVE_LIMITS, build_parser
    assert {f.name: f.default for f in fields(Limits)} == {
        name: default for name, (_, default, _) in SERVE_LIMITS.items()}
    args = build_parser().parse_args(["serve"])
    assert Limits(**{name: getattr(args, name) for name in SERVE_LIMITS}) == Limits()
    docs = (__import__("pathlib").Path(__file__).parents[1] / "docs" / "server.md").read_text()
    for name in SERVE_LIMITS:
        assert f"`--{name.replace('_', '-')}`" in docs, name


def test_a_socket_with_a_foreign_host_is_refused(tmp_path):
    with TestClient(create_app(tmp_path / "t.sqlite3")) as c:
        made = c.post("/api/tables", json={"game": "kings_stakes"}).json()
        with c.websocket_connect(f"ws://evil.example/ws/tables/{made['table']}") as ws:
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["status"] == 421
            assert ws.receive()["code"] == 1008


def test_sockets_of_a_table_whose_commit_failed_are_closed_1011(tmp_path, monkeypatch):
    with TestClient(create_app(tmp_path / "t.sqlite3")) as c:
        made = c.post("/api/tables", json={"game": "kings_stakes"}).json()
        mover = c.get(f"/api/tables/{made['table']}").json()["current_player"]
        token = made["seats"][str(mover)]
        with c.websocket_connect(f"/ws/tables/{made['table']}?token={token}") as ws, \
                c.websocket_connect(f"/ws/tables/{made['table']}") as watcher:
            first = ws.receive_json()
            watcher.receive_json()

            def broken(rows):
                raise OSError("disk full")
            monkeypatch.setattr(c.app.state.tables.writer, "save_many", broken)
            ws.send_json({"type": "action", "action": first["legal"][0]["id"],
                          "after": first["event_count"]})
            for sock in (ws, watcher):
                messages = []
                while True:
                    m = sock.receive()
                    if m["type"] == "websocket.close":
                        break
                    messages.append(json.loads(m["text"]))
                assert m["code"] == 1011
                assert messages and all(x["type"] == "error" and x["status"] == 503
                                        for x in messages)
        monkeypatch.undo()
        again = c.get(f"/api/tables/{made['table']}", params={"token": token}).json()
        assert again["event_count"] == first["event_count"]          # nothing was accepted
