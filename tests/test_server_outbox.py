"""The bounded outbox of a socket (docs/server.md, "Limits": ``--max-outbox``,
``--max-outbox-bytes``, ``--send-timeout``): real ``cardcore serve`` processes and raw sockets
that send and never read. The server's RSS stays flat, the socket is dropped, and a client
that reads at last finds the close code 1008 after what had been sent."""
from __future__ import annotations

import json
import socket
import time

import pytest

from cardcore.server.limits import WS_CLOSE
from cardcore.server.sockets import Connection

from server_helpers import ServerProcess, TestClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


class RawSocket:
    """A WebSocket client on a bare socket with a small receive buffer, so that a client
    that does not read stops the server's sends soon."""

    def __init__(self, port: int, path: str) -> None:
        self.sock = socket.socket()
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        self.sock.connect(("127.0.0.1", port))
        self.sock.sendall((f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                           "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                           "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
                           "Sec-WebSocket-Version: 13\r\n\r\n").encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            self.buffer += self.sock.recv(4096)
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        assert head.startswith(b"HTTP/1.1 101"), head

    @staticmethod
    def frame(payload: bytes, opcode: int = 0x1) -> bytes:
        """A masked client frame (mask 0: the payload as is)."""
        n = len(payload)
        size = bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + n.to_bytes(2, "big")
        return bytes([0x80 | opcode]) + size + b"\0\0\0\0" + payload

    def flood(self, data: bytes, log: ServerProcess, seconds: float = 60) -> int:
        """Send ``data`` again and again, never reading, until the server stops taking it
        (it dropped the socket) or says it dropped it; the bytes sent."""
        self.sock.settimeout(3)
        sent = 0
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            try:
                self.sock.sendall(data)
            except OSError:                        # a timeout: the server reads no more
                return sent
            sent += len(data)
            if "dropped" in log.log_text():
                return sent
        raise AssertionError(f"{sent} bytes sent, never read, and the socket is still open")

    def frames(self, seconds: float = 20) -> list[tuple[int, bytes]]:
        """Read every frame the server sent, up to and with its close frame."""
        self.sock.settimeout(seconds)
        out: list[tuple[int, bytes]] = []
        while True:
            while True:
                frame = self._parse()
                if frame is None:
                    break
                out.append(frame)
                if frame[0] == 0x8:
                    return out
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                return out
            self.buffer += chunk

    def _parse(self) -> tuple[int, bytes] | None:
        b = self.buffer
        if len(b) < 2:
            return None
        n, at = b[1] & 0x7F, 2
        if n == 126:
            if len(b) < 4:
                return None
            n, at = int.from_bytes(b[2:4], "big"), 4
        elif n == 127:
            if len(b) < 10:
                return None
            n, at = int.from_bytes(b[2:10], "big"), 10
        if len(b) < at + n:
            return None
        self.buffer = b[at + n:]
        return b[0] & 0x0F, b[at:at + n]

    def close(self) -> None:
        self.sock.close()


def close_code(frames: list[tuple[int, bytes]]) -> int | None:
    last = frames[-1] if frames else None
    return int.from_bytes(last[1][:2], "big") if last and last[0] == 0x8 else None


def slow_reader_refusals(server: ServerProcess) -> float:
    import urllib.request
    with urllib.request.urlopen(server.base + "/metrics", timeout=10) as r:
        for line in r.read().decode().splitlines():
            if line.startswith('cardcore_refusals_total{reason="slow_reader"}'):
                return float(line.split()[-1])
    return 0.0


@pytest.fixture
def server(tmp_path):
    s = ServerProcess(tmp_path / "t.sqlite3", extra=("--message-rate", "1000000",
                                                     "--send-timeout", "20"))
    yield s
    s.stop()


def test_ping_frames_never_read_are_dropped_at_the_byte_limit(server):
    """WebSocket ping frames are answered by the protocol layer itself, into the socket's
    write buffer (171 MB in 15 s before the limit): past --max-outbox-bytes the socket is
    dropped, and the close 1008 waits behind what was buffered."""
    _, made = server.request("POST", "/api/tables", {"game": "kings_stakes"})
    before = server.rss_mb()
    raw = RawSocket(server.port, f"/ws/tables/{made['table']}")
    try:
        sent = raw.flood(RawSocket.frame(b"p" * 125, opcode=0x9) * 1000, server)
        assert sent > 1 << 20                    # more pongs were asked than the limit holds
        time.sleep(0.5)
        assert "a socket was dropped: it did not read" in server.log_text()
        assert server.rss_mb() - before < 30
        frames = raw.frames()
        assert [json.loads(f[1])["type"] for f in frames if f[0] == 0x1] == ["state"]
        # What was answered: the limit, plus what the kernels' buffers held (not the RSS).
        pongs = [f for f in frames if f[0] == 0xA]
        kernel = int(open("/proc/sys/net/ipv4/tcp_wmem").read().split()[2])
        assert pongs and len(pongs) * 127 <= (1 << 20) + kernel + (1 << 20)
        assert close_code(frames) == WS_CLOSE["refused"]
    finally:
        raw.close()
    assert slow_reader_refusals(server) >= 1
    assert server.request("GET", "/api/games")[0] == 200          # the server carries on


def test_a_seat_that_sends_actions_and_never_reads_is_dropped_with_1008(server):
    _, made = server.request("POST", "/api/tables", {"game": "kings_stakes"})
    _, state = server.request("GET", f"/api/tables/{made['table']}")
    token = made["seats"][str(state["current_player"])]
    before = server.rss_mb()
    raw = RawSocket(server.port, f"/ws/tables/{made['table']}?token={token}")
    try:
        bad = RawSocket.frame(json.dumps({"type": "action", "action": 99_999}).encode())
        raw.flood(bad * 500, server)
        time.sleep(0.5)
        assert "a seat socket was dropped: it did not read (outbox full)" in server.log_text()
        assert server.rss_mb() - before < 30
        frames = raw.frames()
        texts = [json.loads(f[1]) for f in frames if f[0] == 0x1]
        assert texts[0]["type"] == "state"
        # Answers (if any went out before the outbox filled) are the 422s of the bad action.
        assert all(m["type"] == "error" and m["status"] == 422 for m in texts[1:])
        assert close_code(frames) == WS_CLOSE["refused"]
    finally:
        raw.close()
    assert slow_reader_refusals(server) >= 1
    # The table is unharmed: the seat plays on a new socket.
    _, again = server.request("GET", f"/api/tables/{made['table']}?token={token}")
    assert again["event_count"] == state["event_count"] and again["legal"]


def test_the_outbox_is_bounded_in_bytes_as_in_messages():
    c = Connection(None, 0, 10.0, 20.0, max_outbox=1000, max_outbox_bytes=1000)
    message = {"type": "error", "status": 422, "error": "x" * 80}
    size = len(json.dumps(message, separators=(",", ":")))
    for _ in range(1000 // size):
        c.push(message)
    assert not c.overflow and c.messages() == 1000 // size
    assert c.outbox_bytes() == size * (1000 // size)
    c.push(message)                                  # one more is over 1000 bytes
    assert c.overflow and c.messages() == 1000 // size
    c.pop()
    assert c.outbox_bytes() == size * (1000 // size - 1)
    c.sending = 1000                                 # a state being sent counts too
    c.overflow = False
    c.push({"type": "pong"})
    assert c.overflow
    by_count = Connection(None, 0, 10.0, 20.0, max_outbox=3, max_outbox_bytes=1 << 20)
    for _ in range(4):
        by_count.push({"type": "pong"})
    assert by_count.overflow and by_count.messages() == 3


def test_outbox_metrics_count_messages_and_bytes(tmp_path):
    from cardcore.server import create_app
    with TestClient(create_app(tmp_path / "t.sqlite3")) as c:
        made = c.post("/api/tables", json={"game": "kings_stakes"}).json()
        with c.websocket_connect(f"/ws/tables/{made['table']}") as ws:
            ws.receive_json()
            server = c.app.state.tables
            (connection,) = server.tables[made["table"]].audience.sockets
            connection.errors.append({"type": "pong"})       # as if not sent yet
            connection.queued_bytes += 15
            text = c.get("/metrics").text
            connection.errors.clear()
            connection.queued_bytes = 0
    lines = dict(line.rsplit(" ", 1) for line in text.splitlines() if line.startswith("cardcore_outbox"))
    assert float(lines['cardcore_outbox_messages{stat="total"}']) == 1
    assert float(lines['cardcore_outbox_bytes{stat="max"}']) == 15
