"""The sockets of one table (``Table.audience``): who is connected here and elsewhere, what
each was last told of presence and of the record. Telling them something is done here; what
to tell (a state, an error, a rematch) is decided by ``tables.Table``."""
from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from cardcore.server.api_errors import ApiError
from cardcore.server.sockets import Connection

__all__ = ["Audience"]


@dataclass
class Audience:
    sockets: set[Connection] = field(default_factory=set)
    recorded: set[Connection] = field(default_factory=set)   # sockets sent the record
    elsewhere: set[int] = field(default_factory=set)  # seats with a socket in another process
    presence: list[str] = field(default_factory=list)  # each seat's, as last pushed

    def __iter__(self) -> Iterator[Connection]:
        return iter(self.sockets)

    def seats_present(self) -> set[int]:
        """Seats with a socket here or in another process."""
        return {c.seat for c in self.sockets if c.seat is not None} | self.elsewhere

    def count(self, seat: int | None) -> int:
        """Sockets of ``seat`` here (None: spectators)."""
        return sum(1 for c in self.sockets if c.seat == seat)

    def push_presence(self, now: list[str], names: Mapping[int, str],
                      cause: Connection | None) -> None:
        """A ``presence`` message for each seat whose presence changed since the last push,
        to every socket that asked for them (``?presence=1``) but ``cause``."""
        changed = [k for k, p in enumerate(now)
                   if k >= len(self.presence) or self.presence[k] != p]
        self.presence = now
        for connection in self.sockets:
            if connection is not cause and connection.wants_presence:
                for k in changed:
                    connection.push({"type": "presence", "seat": k, "presence": now[k],
                                     "name": names.get(k)})

    def close(self, error: ApiError, code: int) -> None:
        """Tell every socket ``error``, then close it with ``code``."""
        for connection in self.sockets:
            self._close(connection, error, code)

    def close_seat(self, seat: int, error: ApiError, code: int) -> None:
        """Tell ``seat``'s sockets ``error``, then close them with ``code``."""
        for connection in self.sockets:
            if connection.seat == seat:
                self._close(connection, error, code)

    @staticmethod
    def _close(connection: Connection, error: ApiError, code: int) -> None:
        connection.push_error(error)
        connection.close_code = code
        connection.wake.set()

    def tell_later(self, message: dict[str, Any]) -> None:
        """``message`` to every socket, after its next state."""
        for connection in self.sockets:
            connection.later.append(message)
            connection.notify()
