"""A person takes an open seat (``POST /api/tables/{id}/seats``) or leaves one
(``DELETE /api/tables/{id}/seats/{seat}``); the room's host stores the new seat holders as a
compare-and-set (another process may have changed them) and re-reads them (seats.py checks
the names and settings)."""
from __future__ import annotations

import hmac
from typing import Any

from cardcore.errors import echo
from cardcore.game import is_int
from cardcore.server import seats as seating
from cardcore.server.api_errors import ApiError, BadCredential
from cardcore.server.room import Room
from cardcore.server.tokens import MAX_TOKEN_TEXT, new_token, token_hash

__all__ = ["claim", "leave"]


async def claim(table: Room, invite: Any, name: Any, seat: Any) -> tuple[int, str, str]:
    """``POST /api/tables/{id}/seats``: an open seat (``seat``, or the lowest open one)
    for a person called ``name``; returns the seat, its new token and the name as kept."""
    if table.settings.join == "invite":
        if invite is None:
            raise ApiError(403, "claiming a seat needs the table's invite", field="invite")
        if not isinstance(invite, str) or not 0 < len(invite) <= MAX_TOKEN_TEXT \
                or table.settings.invite_hash is None \
                or not hmac.compare_digest(token_hash(invite), table.settings.invite_hash):
            raise BadCredential("bad invite: it is not this table's", field="invite")
    try:
        name = seating.check_name(name)
    except seating.SeatError as e:
        raise ApiError(e.status, str(e), field=e.field) from None
    if seat is not None and not is_int(seat):
        raise ApiError(400, "seat must be an int", field="seat")
    if seat is not None and not 0 <= seat < table.game.num_players:
        raise ApiError(422, f"seat must be a seat 0..{table.game.num_players - 1}, not "
                            f"{seat}", field="seat")
    if table.ended is not None or table.game.is_over:
        raise ApiError(409, "the match is over: its seats are not open any more",
                       field="seat")
    await table.host.seats_from_store(table)
    open_seats = table.open_seats()
    if seat is None:
        if not open_seats:
            raise ApiError(409, "no seat is open at this table", field="seat")
        seat = open_seats[0]
    elif seat not in open_seats:
        raise ApiError(409, f"seat {seat} is not open: it is "
                            f"{'a bot' if seat in table.settings.bots else 'taken'}",
                       field="seat")
    if any(seating.same_name(n, name) for n in table.names.values()):
        raise ApiError(409, f"the name {echo(name)} is taken at this table (or one that "
                            f"looks like it)", field="name")
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
        raise ApiError(409, f"seat {seat} is not taken", field="seat")
    await table.host.store_seats(table,
                                 {k: v for k, v in table.token_hashes.items() if k != seat},
                                 {k: v for k, v in table.names.items() if k != seat})
