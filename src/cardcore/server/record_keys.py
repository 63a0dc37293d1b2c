"""The keys that sign match records (docs/server.md, "Fair deals and match records").

A server has none, one (``CARDCORE_RECORD_KEY``), or a key ring: a file named by
``CARDCORE_RECORD_KEY_FILE`` with one key a line, the newest last, which
``cardcore admin rotate-key`` appends to. The newest key signs; every record names the key
that signed it (``key_id``), and ``cardcore verify --key-file`` checks a record with the key
of the ring that id names, so records signed before a rotation still verify, and a key taken
out of the ring is named when a record needs it. The file is read again when it changes, so
a rotation needs no restart.
"""
from __future__ import annotations

import logging
import os
import secrets
from pathlib import Path

from cardcore.records import key_id   # one definition: the records carry it

__all__ = ["RecordKeys", "key_id", "read_ring", "rotate", "RECORD_KEY_ENV",
           "RECORD_KEY_FILE_ENV"]

log = logging.getLogger("cardcore.server")

RECORD_KEY_ENV = "CARDCORE_RECORD_KEY"
RECORD_KEY_FILE_ENV = "CARDCORE_RECORD_KEY_FILE"




def read_ring(path: str | Path) -> list[str]:
    """The keys of a key-ring file, oldest first (blank lines and ``#`` comments skipped)."""
    lines = Path(path).read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def rotate(path: str | Path) -> str:
    """Append a new random key to the ring at ``path`` (created owner-only if missing) and
    return its id; the servers reading the ring sign with it from their next record on."""
    key = secrets.token_urlsafe(32)
    descriptor = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    with os.fdopen(descriptor, "a", encoding="utf-8") as ring:
        ring.write(key + "\n")
    return key_id(key)


class RecordKeys:
    """The key a server signs with now: a fixed one, or the newest of a ring file."""

    def __init__(self, key: str | None = None, ring: str | Path | None = None) -> None:
        self.key = key
        self.ring = None if ring is None else Path(ring)
        self._seen: tuple[float, int] | None = None
        self._newest: str | None = None

    @classmethod
    def from_env(cls) -> RecordKeys:
        return cls(os.environ.get(RECORD_KEY_ENV) or None,
                   os.environ.get(RECORD_KEY_FILE_ENV) or None)

    def current(self) -> str | None:
        """The signing key: the ring's newest (read again if the file changed), else the
        fixed key, else None (records carry digests only)."""
        if self.ring is None:
            return self.key
        try:
            stat = self.ring.stat()
            if self._seen != (stat.st_mtime, stat.st_size):
                keys = read_ring(self.ring)
                self._newest = keys[-1] if keys else self.key
                self._seen = (stat.st_mtime, stat.st_size)
        except OSError as e:          # moved or unreadable mid-rotation: the last key read
            log.warning("record key ring %s not read (%s): signing with the last key read",
                        self.ring, e.strerror)
            if self._seen is None:
                self._newest, self._seen = self.key, (0.0, -1)
        return self._newest
