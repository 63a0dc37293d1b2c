"""Whether a server is using a store (docs/operations.md, "Backup and restore"), so that
``cardcore admin restore`` never pulls a store from under a running server.

- **SQLite**: a running server holds a shared ``flock`` on ``DB.serving`` beside the file
  (several servers on one file share it); the kernel drops it when the process ends, even on
  ``kill -9``, so a stale file never blocks. ``restore`` asks for the exclusive lock without
  waiting: refused means a server is on the file. The file names the last server to start
  (its process id), which ``cardcore admin list`` shows. SQLite's own locks are no help
  here: a server holds none between its transactions.
- **PostgreSQL**: ``cardcore serve`` names its connections (``PGAPPNAME``, which libpq
  reads), so ``pg_stat_activity`` lists the servers connected to the database; their leases
  (``leases``) say which process serves which table.
"""
from __future__ import annotations

import fcntl
import os
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Iterator

__all__ = ["SERVE_APP_NAME", "ServingLock", "ServerRunning", "lock_path", "sqlite_server",
           "no_server"]

# The application_name of `cardcore serve`'s PostgreSQL connections (and its prefix: the
# process id follows).
SERVE_APP_NAME = "cardcore serve"
SUFFIX = ".serving"


def lock_path(db: str | Path) -> Path:
    return Path(f"{db}{SUFFIX}")


def in_memory(db: str | Path) -> bool:
    return str(db) == ":memory:" or str(db).startswith("file::memory:")


class ServingLock:
    """The shared lock a server holds on its SQLite file's ``.serving`` while it runs."""

    def __init__(self, db: str | Path, process_id: str) -> None:
        self.file: IO[str] | None = None
        if in_memory(db):
            return
        try:
            descriptor = os.open(lock_path(db), os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:             # a folder the server may not write: serve, unannounced
            return
        self.file = os.fdopen(descriptor, "r+", encoding="utf-8")
        fcntl.flock(self.file, fcntl.LOCK_SH)      # waits only for a restore in progress
        try:                                        # who started last (admin list shows it)
            self.file.seek(0)
            self.file.truncate()
            self.file.write(f"{process_id} {os.getpid()}\n")
            self.file.flush()
        except OSError:                             # a read-only folder: the lock still holds
            pass

    def release(self) -> None:
        if self.file is not None:
            self.file.close()                       # closing drops the lock
            self.file = None


def sqlite_server(db: str | Path) -> str | None:
    """The process id of a server running on the SQLite file ``db`` ("" when it did not
    say), or None when none is: the exclusive lock of ``DB.serving`` is tried, never
    waited for."""
    path = lock_path(db)
    if not path.exists():
        return None
    with open(path, "r", encoding="utf-8") as file:
        try:
            fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return (file.read().split() or [""])[0]
        fcntl.flock(file, fcntl.LOCK_UN)
    return None


class ServerRunning(Exception):
    """A server is using the store (its process id, "" when it did not say)."""

    def __init__(self, process: str) -> None:
        super().__init__(process)
        self.process = process


@contextmanager
def no_server(db: str | Path) -> Iterator[None]:
    """Hold the exclusive lock of the SQLite file ``db`` for the block (a server starting
    meanwhile waits for it); ``ServerRunning`` at once when a server holds the file."""
    descriptor = os.open(lock_path(db), os.O_RDWR | os.O_CREAT, 0o600)
    with os.fdopen(descriptor, "r+", encoding="utf-8") as file:
        try:
            fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise ServerRunning((file.read().split() or [""])[0]) from None
        yield
