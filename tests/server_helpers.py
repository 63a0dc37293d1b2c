"""Helpers for the server tests: an in-process client, and `cardcore serve` as a subprocess."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import warnings
from pathlib import Path
from typing import Any

import cardcore

SRC = str(Path(cardcore.__file__).resolve().parents[1])

with warnings.catch_warnings():
    warnings.simplefilter("ignore")        # Starlette prefers httpx2 for its TestClient
    from starlette.testclient import TestClient as _TestClient


class TestClient(_TestClient):
    """Starlette's test client as a local browser would be: ``Host: localhost`` (the server
    refuses hosts that are neither IP addresses, localhost nor allowed names)."""

    __test__ = False

    def __init__(self, app: Any, base_url: str = "http://localhost", **kwargs: Any) -> None:
        super().__init__(app, base_url=base_url, **kwargs)

    def websocket_connect(self, url: str, *args: Any, **kwargs: Any) -> Any:
        if "://" not in url:                      # Starlette's default is ws://testserver
            url = "ws://localhost" + url
        return super().websocket_connect(url, *args, **kwargs)

FORBIDDEN_KEYS = {"seed", "rng", "save", "actions", "deck", "token", "tokens", "stock",
                  "foot", "feet", "token_hashes"}


def walk_keys(value: Any) -> set[str]:
    """Every dict key anywhere in a JSON value, but a view's zone ids (``"zones"``: data,
    not fields; that a hidden zone is only a count is tests/test_zones.py's to check)."""
    keys: set[str] = set()
    if isinstance(value, dict):
        for k, v in value.items():
            keys.add(k)
            if k == "zones" and isinstance(v, dict):
                for zone in v.values():
                    keys |= walk_keys(zone)
                continue
            keys |= walk_keys(v)
    elif isinstance(value, list):
        for v in value:
            keys |= walk_keys(v)
    return keys


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _soft_open_files(limit: int) -> None:
    """In the server's process: the soft open-file limit (the usual default is 1,024)."""
    import resource
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(limit, hard), hard))


class ServerProcess:
    """`python -m cardcore serve` on 127.0.0.1 and a free port, for crash and browser tests."""

    def __init__(self, db: Path, bot_delay: float = 0.0, port: int | None = None,
                 log: Path | None = None, extra: tuple[str, ...] = (),
                 host: str = "127.0.0.1", open_files: int | None = None) -> None:
        self.db = db
        self.port = port or free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = log or db.with_suffix(f".{self.port}.log")
        env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
        self.log = open(self.log_path, "ab")
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cardcore", "serve", "--host", host,
             "--port", str(self.port), "--db", str(db), "--bot-delay", str(bot_delay), *extra],
            stdout=self.log, stderr=subprocess.STDOUT, env=env,
            preexec_fn=None if open_files is None else lambda: _soft_open_files(open_files))
        self.wait_ready()

    def wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"server exited: {self.log_path.read_text()}")
            try:
                with urllib.request.urlopen(self.base + "/api/games", timeout=2):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("server did not start")

    def request(self, method: str, path: str, body: Any = None,
                headers: dict[str, str] | None = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json",
                                              **(headers or {})})
        try:
            with urllib.request.urlopen(req, timeout=30) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read())

    def rss_mb(self) -> float:
        """The server process's resident memory, in MB (Linux)."""
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        raise RuntimeError("no VmRSS")

    def log_text(self) -> str:
        self.log.flush()
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def kill(self) -> None:
        """kill -9: no shutdown, no flush."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=30)
        self.log.close()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=15)
        self.log.close()


DOCS_OPERATIONS = Path(__file__).resolve().parent.parent / "docs" / "operations.md"


def docs_haproxy_config(proxy: int, a: int, b: int) -> str:
    """The HAProxy configuration block of docs/operations.md, its ports replaced."""
    import re
    block = re.search(r"```haproxy\n(.*?)```", DOCS_OPERATIONS.read_text(encoding="utf-8"), re.S)
    assert block is not None, "docs/operations.md has no haproxy block"
    text = block.group(1)
    for old, new in (("127.0.0.1:8080", proxy), ("127.0.0.1:8001", a), ("127.0.0.1:8002", b)):
        assert old in text
        text = text.replace(old, f"127.0.0.1:{new}")
    return text


EXAMPLE_HAPROXY = Path(__file__).resolve().parent.parent / "examples" / "deploy" / "haproxy.cfg"


def self_signed_certificate(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and localhost made with openssl: (HAProxy's PEM, the
    certificate and key in one file; the certificate alone, for the clients to trust)."""
    key, cert, pem = folder / "key.pem", folder / "cert.pem", folder / "haproxy.pem"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout",
                    str(key), "-out", str(cert), "-days", "2", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                   check=True, capture_output=True)
    pem.write_bytes(cert.read_bytes() + key.read_bytes())
    return pem, cert


def production_haproxy_config(http: int, https: int, stats: int, a: int, b: int,
                              pem: Path) -> str:
    """examples/deploy/haproxy.cfg (docs/operations.md quotes it) on 127.0.0.1's ports, the
    servers ``a`` and ``b`` and the certificate ``pem``; everything else as written."""
    text = EXAMPLE_HAPROXY.read_text(encoding="utf-8")
    for old, new in (("bind :80\n", f"bind 127.0.0.1:{http}\n"),
                     ("bind :443 ", f"bind 127.0.0.1:{https} "),
                     ("/etc/haproxy/certs/cardcore.pem", str(pem)),
                     ("bind 127.0.0.1:8404", f"bind 127.0.0.1:{stats}"),
                     ("10.0.0.11:8000", f"127.0.0.1:{a}"), ("10.0.0.12:8000", f"127.0.0.1:{b}")):
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


class Proxy:
    """HAProxy (Debian's package; .ci/run installs it) in front of two server processes:
    every request of a table reaches one of them. docs/operations.md's minimal configuration,
    or with ``production`` its production one (examples/deploy/haproxy.cfg) over TLS."""

    def __init__(self, servers: list[ServerProcess], folder: Path,
                 production: bool = False) -> None:
        import shutil
        import ssl
        assert len(servers) == 2
        self.port = free_port()
        self.context: ssl.SSLContext | None = None
        config = folder / "haproxy.cfg"
        if production:
            pem, cert = self_signed_certificate(folder)
            self.context = ssl.create_default_context(cafile=str(cert))
            self.http_port, self.stats_port = free_port(), free_port()
            self.base = f"https://127.0.0.1:{self.port}"
            config.write_text(production_haproxy_config(
                self.http_port, self.port, self.stats_port, *(s.port for s in servers), pem))
        else:
            self.base = f"http://127.0.0.1:{self.port}"
            config.write_text(docs_haproxy_config(self.port, *(s.port for s in servers)))
        haproxy = shutil.which("haproxy") or "/usr/sbin/haproxy"
        checked = subprocess.run([haproxy, "-c", "-f", str(config)], capture_output=True)
        assert checked.returncode == 0, checked.stderr
        self.log_path = folder / "haproxy.log"
        self.process = subprocess.Popen([haproxy, "-db", "-f", str(config)],
                                        stdout=open(folder / "haproxy.out", "wb"),
                                        stderr=open(self.log_path, "wb"))
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:        # both processes pass the proxy's checks
            try:
                with urllib.request.urlopen(self.base + "/readyz", timeout=2,
                                            context=self.context):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("the proxy did not start")

    def request(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        """As ``ServerProcess.request``; the proxy's own errors (502, 503 while a process is
        down) are HTML: their body reads as {}. Over TLS a thread keeps its connection, as a
        browser does (a handshake per request costs more than the request)."""
        if self.context is not None:
            return self._keep_alive(method, path, body)
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=30, context=self.context) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as e:
            raw = e.read()
            try:
                return e.code, json.loads(raw)
            except ValueError:
                return e.code, {}

    def _keep_alive(self, method: str, path: str, body: Any) -> tuple[int, Any]:
        import http.client
        import threading
        local = self.__dict__.setdefault("_local", threading.local())
        conn = getattr(local, "conn", None)
        if conn is None:
            conn = local.conn = http.client.HTTPSConnection("127.0.0.1", self.port,
                                                            timeout=30, context=self.context)
        try:
            conn.request(method, path, body=None if body is None else json.dumps(body),
                         headers={"Content-Type": "application/json"})
            response = conn.getresponse()
            raw = response.read()
        except BaseException:
            conn.close()
            local.conn = None
            raise
        if response.getheader("Connection", "").lower() == "close":
            conn.close()
            local.conn = None
        try:
            return response.status, json.loads(raw or b"{}")
        except ValueError:
            return response.status, {}

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=15)
