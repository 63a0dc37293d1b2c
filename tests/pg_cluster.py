"""A throwaway PostgreSQL 15 cluster for the tests of the PostgreSQL store (and the load
benchmark): ``initdb`` into a fresh directory under /tmp, ``pg_ctl start`` on a free port with
its socket in that directory, stopped and removed at the end. As root (CI), the cluster runs
as the ``postgres`` user (``runuser``), which refuses to run as root.

    with Cluster() as cluster:
        url = cluster.new_database()        # postgresql://postgres@127.0.0.1:PORT/t1
"""
from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import Any, Iterator

import pytest

BIN_DIRS = ("/usr/lib/postgresql/15/bin", "/usr/lib/postgresql/16/bin",
            "/usr/lib/postgresql/17/bin")


def bin_dir() -> Path:
    for d in BIN_DIRS:
        if Path(d, "initdb").exists():
            return Path(d)
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    raise RuntimeError("PostgreSQL's initdb is not installed (apt-get install postgresql; "
                       ".ci/run does it)")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """One cluster; ``fsync`` off by default (a killed *server process* is what the tests
    test, not a power cut; fsync on for the benchmark)."""

    def __init__(self, fsync: bool = False) -> None:
        self.bin = bin_dir()
        self.fsync = fsync
        self.port = _free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="cardcore-pg-"))
        self.data = self.dir / "data"
        self.log = self.dir / "server.log"
        self.count = 0

    def _as_owner(self, *args: str) -> list[str]:
        if os.geteuid() == 0:
            return ["runuser", "-u", "postgres", "--", *args]
        return list(args)

    def start(self) -> Cluster:
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
        os.chmod(self.dir, 0o755)
        subprocess.run(self._as_owner(str(self.bin / "initdb"), "-D", str(self.data),
                                      "--auth=trust", "-U", "postgres", "--no-sync", "-E",
                                      "UTF8"),
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self.options = (f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 "
                        f"-c fsync={'on' if self.fsync else 'off'} -c max_connections=200")
        self.resume()
        return self

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database; its URL."""
        import psycopg
        self.count += 1
        name = f"t{self.count}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def pause(self) -> None:
        """Stop the server (``pg_ctl stop -m fast``: every connection is cut); ``resume``
        starts it again on the same port and data."""
        subprocess.run(self._as_owner(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m",
                                      "fast", "-w", "stop"),
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def resume(self) -> None:
        subprocess.run(self._as_owner(str(self.bin / "pg_ctl"), "-D", str(self.data), "-l",
                                      str(self.log), "-o", self.options, "-w", "-t", "60",
                                      "start"),
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)

    def stop(self) -> None:
        subprocess.run(self._as_owner(str(self.bin / "pg_ctl"), "-D", str(self.data), "-m",
                                      "immediate", "-w", "stop"),
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(self.dir, ignore_errors=True)

    def __enter__(self) -> Cluster:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()


@pytest.fixture(scope="session")
def pg_cluster() -> Iterator[Cluster]:
    """One cluster for the whole session (registered in conftest.py)."""
    started = time.monotonic()
    with Cluster() as cluster:
        print(f"PostgreSQL cluster on port {cluster.port} in {time.monotonic() - started:.1f} s")
        yield cluster


@pytest.fixture
def pg_url(pg_cluster: Cluster) -> str:
    """A fresh database of the session's cluster."""
    return pg_cluster.new_database()
