"""Seats of the table server: open seats, invites, display names, table settings and presence
(docs/server.md, "Seats, invites and presence").

No I/O and no asyncio: ``tables.py`` holds the tables and calls these checks; ``app.py`` turns
their ``ApiError`` into answers. A seat is, at any time, exactly one of

- a **bot** (``TableSettings.bots``), for the whole match;
- **taken**: a person holds its token (``Table.token_hashes`` has its hash), under a name;
- **open**: a person's seat nobody holds; whoever may join (the invite's holder, or anyone at a
  table whose ``join`` is ``"anyone"``) claims it with a name and gets a fresh token.
"""
from __future__ import annotations

import functools
import unicodedata
from typing import Any, Mapping

import icu  # type: ignore[import-untyped, unused-ignore]  # PyICU ships no stubs

from cardcore.errors import Words, echo
from cardcore.i18n import N_

__all__ = ["SeatError", "MAX_NAME", "MAX_MARKS", "JOIN_MODES", "PRESENCES", "check_name",
           "name_key", "same_name", "check_settings", "check_open_seats", "check_names",
           "presence_of"]

MAX_NAME = 24                       # characters of a display name, after trimming
# Besides letters, digits and marks (every script), a name may hold spaces and these.
NAME_PUNCTUATION = frozenset(" -_.'")
MAX_MARKS = 3                       # combining marks on one letter (Vietnamese stacks 2)
JOIN_MODES = ("invite", "anyone")   # who may claim an open seat
PRESENCES = ("connected", "away", "bot", "open")


class SeatError(ValueError):
    """A bad seat setting: the HTTP status (400: a wrong type, 422: a bad value) and the
    ``field`` it names; tables.py turns it into its ApiError."""

    def __init__(self, status: int, message: Words, field: str) -> None:
        super().__init__(message.english())
        self.words = message
        self.status = status
        self.field = field


def _refuse(status: int, template: str, field: str, **values: str | int) -> SeatError:
    """The refusal of ``field``: ``template`` (a msgid) with the field's name and ``values``."""
    return SeatError(status, Words(template, {"field": field, **values}), field)


def _ignorable(ch: str) -> bool:
    """Unicode's Default_Ignorable_Code_Point: drawn as nothing (variation selectors, the
    combining grapheme joiner, Hangul fillers, zero-width characters)."""
    return bool(icu.Char.hasBinaryProperty(ch, icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT))


def check_name(raw: Any, field: str = "name") -> str:
    """A display name: 1..MAX_NAME characters once trimmed and NFC-normalised, of letters,
    digits, marks, spaces and ``-_.'`` (no control or format characters, so nothing
    reorders or hides text in another seat's page), starting with a letter or digit, with at
    most MAX_MARKS marks on a letter and nothing drawn as nothing (Default_Ignorable_Code_Point:
    a Hangul filler, a variation selector). SeatError: 400 for a non-string, 422 otherwise,
    both naming ``field``; the bad value is echoed cut to 60 characters."""
    if not isinstance(raw, str):
        raise _refuse(400, N_("{field} must be a string"), field)
    name = unicodedata.normalize("NFC", raw.strip()) if len(raw) <= 4 * MAX_NAME else raw
    if not 0 < len(name) <= MAX_NAME:
        raise _refuse(422, N_("{field} must have 1..{limit} characters, not {count}"), field,
                      limit=MAX_NAME, count=len(name))
    marks = 0
    for ch in name:
        kind = unicodedata.category(ch)[0]
        if not (kind in "LNM" or ch in NAME_PUNCTUATION):
            raise _refuse(422, N_("{field} may hold letters, digits, spaces and -_.' only, "
                                  "not {value}"), field, value=echo(name))
        if _ignorable(ch):
            raise _refuse(422, N_("{field} may not hold invisible characters: {value}"), field,
                          value=echo(name.encode('unicode_escape').decode()))
    for ch in unicodedata.normalize("NFD", name):     # marks counted decomposed: á is a + 1
        marks = marks + 1 if unicodedata.category(ch)[0] == "M" else 0
        if marks > MAX_MARKS:
            raise _refuse(422, N_("{field} may have at most {limit} marks on a letter"),
                          field, limit=MAX_MARKS)
    if unicodedata.category(name[0])[0] not in "LN":
        raise _refuse(422, N_("{field} must start with a letter or a digit: {value}"), field,
                      value=echo(name))
    if "  " in name:
        raise _refuse(422, N_("{field} may not hold two spaces in a row: {value}"), field,
                      value=echo(name))
    return name


@functools.lru_cache(maxsize=1)
def _spoof_checker() -> Any:
    return icu.SpoofChecker()


def name_key(name: str) -> tuple[str, str]:
    """What two names that look alike share: the confusable skeletons (Unicode TS #39, by
    ICU) of the name and of its case fold (Ann, ANN, Аnn with a Cyrillic A)."""
    skeleton = _spoof_checker().getSkeleton
    return skeleton(0, name), skeleton(0, name.casefold())


def same_name(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` would be taken for one name at a table."""
    key_a, key_b = name_key(a), name_key(b)
    return key_a[0] == key_b[0] or key_a[1] == key_b[1]


def check_settings(listed: Any, spectators: Any, join: Any) -> tuple[bool, bool, str]:
    """The table settings of ``POST /api/tables``: ``listed`` and ``spectators`` (booleans,
    default true) and ``join`` (``"invite"``, the default, or ``"anyone"``)."""
    for value, field in ((listed, "listed"), (spectators, "spectators")):
        if value is not None and not isinstance(value, bool):
            raise _refuse(400, N_("{field} must be true or false"), field)
    if join is not None and join not in JOIN_MODES:
        raise _refuse(422 if isinstance(join, str) else 400,
                      N_("{field} must be one of {allowed}, not {value}"), "join",
                      allowed=", ".join(JOIN_MODES), value=echo(join))
    return listed is not False, spectators is not False, join or "invite"


def _seat_number(key: Any, players: int, field: str, text: bool = False) -> int:
    """A seat number: an int (``text``: the digits of an object key, ``"1"``)."""
    if text and isinstance(key, str) and key.isascii() and key.isdigit() and len(key) <= 3 \
            and key == str(int(key)):                   # "0", "12"; never "00" or "01"
        key = int(key)
    elif text or isinstance(key, str):
        raise _refuse(422 if text else 400, N_("{field}: {value} is not a seat number"), field,
                      value=echo(key))
    if isinstance(key, bool) or not isinstance(key, int) or not 0 <= key < players:
        raise _refuse(422, N_("{field}: {value} is not a seat 0..{last}"), field,
                      value=echo(key), last=players - 1)
    return key


def check_open_seats(raw: Any, players: int, bots: Mapping[int, str]) -> set[int]:
    """``open_seats``: the seats (not bots) the creator leaves for others to claim."""
    if raw is None:
        return set()
    if not isinstance(raw, list) or len(raw) > players:
        raise _refuse(400, N_("{field} must be a list of seat numbers"), "open_seats")
    seats = {_seat_number(k, players, "open_seats") for k in raw}
    if seats & set(bots):
        raise _refuse(422, N_("{field}: seat {seat} is a bot"), "open_seats",
                      seat=min(seats & set(bots)))
    return seats


def check_names(raw: Any, players: int, taken: set[int]) -> dict[int, str]:
    """``names``: display names of the seats the creator takes (``{"0": "Ann"}``), unique
    at the table (ignoring case and look-alike letters: ``same_name``)."""
    if raw is None:
        return {}
    if not isinstance(raw, dict) or len(raw) > players:
        raise _refuse(400, N_('{field} must be an object like {example}'), "names",
                      example='{"0": "Ann"}')
    names: dict[int, str] = {}
    for key, value in raw.items():
        seat = _seat_number(key, players, "names", text=True)
        if seat not in taken:
            raise _refuse(422, N_("{field}: seat {seat} is not a seat the creator takes (a bot "
                                  "or an open seat)"), "names", seat=seat)
        names[seat] = check_name(value, "names")
    listed = list(names.values())
    if any(same_name(a, b) for k, a in enumerate(listed) for b in listed[k + 1:]):
        raise _refuse(422, N_("{field}: two seats have the same name (or names that look "
                              "alike)"), "names")
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


def row_presence(row: Mapping[str, Any], connected: set[int]) -> list[str]:
    """Each seat's presence of a lobby row (``list_tables``), as a state would say it."""
    bots = {int(k): v for k, v in row["bots"].items()}
    taken = dict.fromkeys(row["human_seats"], "")
    return [presence_of(k, bots, taken, connected) for k in range(row["players"])]
