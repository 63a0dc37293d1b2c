"""Seats of the table server: open seats, invites, display names, table settings and presence
(docs/server.md, "Seats, invites and presence").

No I/O and no asyncio: ``tables.py`` holds the tables and calls these checks; ``app.py`` turns
their ``ApiError`` into answers. A seat is, at any time, exactly one of

- a **bot** (``Table.bots``), for the whole match;
- **taken**: a person holds its token (``Table.token_hashes`` has its hash), under a name;
- **open**: a person's seat nobody holds; whoever may join (the invite's holder, or anyone at a
  table whose ``join`` is ``"anyone"``) claims it with a name and gets a fresh token.
"""
from __future__ import annotations

import unicodedata
from typing import Any, Mapping

from cardcore.errors import echo

__all__ = ["SeatError", "MAX_NAME", "JOIN_MODES", "PRESENCES", "check_name", "check_settings",
           "check_open_seats", "check_names", "presence_of"]

MAX_NAME = 24                       # characters of a display name, after trimming
# Besides letters, digits and marks (every script), a name may hold spaces and these.
NAME_PUNCTUATION = frozenset(" -_.'")
JOIN_MODES = ("invite", "anyone")   # who may claim an open seat
PRESENCES = ("connected", "away", "bot", "open")


class SeatError(ValueError):
    """A bad seat setting: the HTTP status (400: a wrong type, 422: a bad value) and the
    ``field`` it names; tables.py turns it into its ApiError."""

    def __init__(self, status: int, message: str, field: str) -> None:
        super().__init__(message)
        self.status = status
        self.field = field


def _refuse(status: int, text: str, field: str) -> SeatError:
    return SeatError(status, text, field)


def check_name(raw: Any, field: str = "name") -> str:
    """A display name: 1..MAX_NAME characters once trimmed and NFC-normalised, of letters,
    digits, marks, spaces and ``-_.'`` (no control or format characters, so nothing
    reorders or hides text in another seat's page). SeatError: 400 for a non-string, 422
    otherwise, both naming ``field``; the bad value is echoed cut to 60 characters."""
    if not isinstance(raw, str):
        raise _refuse(400, f"{field} must be a string", field)
    name = unicodedata.normalize("NFC", raw.strip()) if len(raw) <= 4 * MAX_NAME else raw
    if not 0 < len(name) <= MAX_NAME:
        raise _refuse(422, f"{field} must have 1..{MAX_NAME} characters, not {len(name)}",
                      field)
    for ch in name:
        if not (unicodedata.category(ch)[0] in "LNM" or ch in NAME_PUNCTUATION):
            raise _refuse(422, f"{field} may hold letters, digits, spaces and -_.' only, "
                               f"not {echo(name)}", field)
    if "  " in name:
        raise _refuse(422, f"{field} may not hold two spaces in a row: {echo(name)}", field)
    return name


def check_settings(listed: Any, spectators: Any, join: Any) -> tuple[bool, bool, str]:
    """The table settings of ``POST /api/tables``: ``listed`` and ``spectators`` (booleans,
    default true) and ``join`` (``"invite"``, the default, or ``"anyone"``)."""
    for value, field in ((listed, "listed"), (spectators, "spectators")):
        if value is not None and not isinstance(value, bool):
            raise _refuse(400, f"{field} must be true or false", field)
    if join is not None and join not in JOIN_MODES:
        raise _refuse(422 if isinstance(join, str) else 400,
                      f"join must be one of {', '.join(JOIN_MODES)}, not {echo(join)}", "join")
    return listed is not False, spectators is not False, join or "invite"


def _seat_number(key: Any, players: int, field: str, text: bool = False) -> int:
    """A seat number: an int (``text``: the digits of an object key, ``"1"``)."""
    if text and isinstance(key, str) and key.isascii() and key.isdigit() and len(key) <= 3:
        key = int(key)
    elif text or isinstance(key, str):
        raise _refuse(422 if text else 400, f"{field}: {echo(key)} is not a seat number", field)
    if isinstance(key, bool) or not isinstance(key, int) or not 0 <= key < players:
        raise _refuse(422, f"{field}: {echo(key)} is not a seat 0..{players - 1}", field)
    return key


def check_open_seats(raw: Any, players: int, bots: Mapping[int, str]) -> set[int]:
    """``open_seats``: the seats (not bots) the creator leaves for others to claim."""
    if raw is None:
        return set()
    if not isinstance(raw, list) or len(raw) > players:
        raise _refuse(400, "open_seats must be a list of seat numbers", "open_seats")
    seats = {_seat_number(k, players, "open_seats") for k in raw}
    if seats & set(bots):
        raise _refuse(422, f"open_seats: seat {min(seats & set(bots))} is a bot", "open_seats")
    return seats


def check_names(raw: Any, players: int, taken: set[int]) -> dict[int, str]:
    """``names``: display names of the seats the creator takes (``{"0": "Ann"}``), unique
    at the table (ignoring case)."""
    if raw is None:
        return {}
    if not isinstance(raw, dict) or len(raw) > players:
        raise _refuse(400, 'names must be an object like {"0": "Ann"}', "names")
    names: dict[int, str] = {}
    for key, value in raw.items():
        seat = _seat_number(key, players, "names", text=True)
        if seat not in taken:
            raise _refuse(422, f"names: seat {seat} is not a seat the creator takes (a bot "
                               "or an open seat)", "names")
        names[seat] = check_name(value, "names")
    folded = [n.casefold() for n in names.values()]
    if len(set(folded)) != len(folded):
        raise _refuse(422, "names: two seats have the same name", "names")
    return names


def presence_of(seat: int, bots: Mapping[int, str], token_hashes: Mapping[int, str],
                connected: set[int]) -> str:
    """``bot``, ``open`` (nobody holds the seat), ``connected`` (a socket of the seat is
    open, in any server process) or ``away``."""
    if seat in bots:
        return "bot"
    if seat not in token_hashes:
        return "open"
    return "connected" if seat in connected else "away"
