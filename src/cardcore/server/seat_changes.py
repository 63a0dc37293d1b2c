"""A person takes an open seat (``POST /api/tables/{id}/seats``) or leaves one
(``DELETE /api/tables/{id}/seats/{seat}``); the room's host stores the new seat holders as a
compare-and-set (another process may have changed them) and re-reads them (seats.py checks
the names and settings)."""
from __future__ import annotations

import hmac
from typing import Any

from cardcore.errors import Words, echo
from cardcore.game import is_int
from cardcore.server import seats as seating
from cardcore.i18n import N_
from cardcore.server.api_errors import ApiError, BadCredential
from cardcore.server.messages import MUST_BE_INT
from cardcore.server.room import Room
from cardcore.server.tokens import MAX_TOKEN_TEXT, new_token, token_hash

__all__ = ["claim", "leave"]


async def claim(table: Room, invite: Any, name: Any, seat: Any) -> tuple[int, str, str]:
    """``POST /api/tables/{id}/seats``: an open seat (``seat``, or the lowest open one)
    for a person called ``name``; returns the seat, its new token and the name as kept."""
    if table.settings.join == "invite":
        if invite is None:
            raise ApiError(403, N_("claiming a seat needs the table's invite"), field="invite")
        if not isinstance(invite, str) or not 0 < len(invite) <= MAX_TOKEN_TEXT \
                or table.settings.invite_hash is None \
                or not hmac.compare_digest(token_hash(invite), table.settings.invite_hash):
            raise BadCredential(N_("bad invite: it is not this table's"), field="invite")
    try:
        name = seating.check_name(name)
    except seating.SeatError as e:
        raise ApiError(e.status, e.words, field=e.field) from None
    if seat is not None and not is_int(seat):
        raise ApiError(400, Words(MUST_BE_INT, {"field": "seat"}), field="seat")
    if seat is not None and not 0 <= seat < table.game.num_players:
        raise ApiError(422, Words(N_("seat must be a seat 0..{last}, not {seat}"),
                                  {"last": table.game.num_players - 1, "seat": seat}),
                       field="seat")
    if table.ended is not None or table.game.is_over:
        raise ApiError(409, N_("the match is over: its seats are not open any more"),
                       field="seat")
    await table.host.seats_from_store(table)
    open_seats = table.open_seats()
    if seat is None:
        if not open_seats:
            raise ApiError(409, N_("no seat is open at this table"), field="seat")
        seat = open_seats[0]
    elif seat not in open_seats:
        raise ApiError(409, Words(N_("seat {seat} is not open: it is a bot")
                                  if seat in table.settings.bots
                                  else N_("seat {seat} is not open: it is taken"),
                                  {"seat": seat}), field="seat")
    if any(seating.same_name(n, name) for n in table.names.values()):
        raise ApiError(409, Words(N_("the name {name} is taken at this table (or one that "
                                     "looks like it)"), {"name": echo(name)}), field="name")
    token = new_token()
    await table.host.store_seats(table, {**table.token_hashes, seat: token_hash(token)},
                                 {**table.names, seat: name})
    table.release()
    return seat, token, name

async def leave(table: Room, seat: int) -> None:
    """``DELETE /api/tables/{id}/seats/{seat}``: the seat is open again, its token stops
    working (its sockets are closed, 4010)."""
    await table.host.seats_from_store(table)
    if seat not in table.token_hashes:                  # pragma: no cover - seat_of said so
        raise ApiError(409, Words(N_("seat {seat} is not taken"), {"seat": seat}), field="seat")
    await table.host.store_seats(table,
                                 {k: v for k, v in table.token_hashes.items() if k != seat},
                                 {k: v for k, v in table.names.items() if k != seat})
