"""Catching up with the store: a room another process (or ``cardcore admin``) moved past
is brought up to the store, from the new action rows when it can, else loaded whole in place
(its sockets stay bound to it); the sweep checks every room against its row once in a while
(a notice lost while PostgreSQL restarted)."""
from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING, Mapping, MutableMapping, Protocol

from cardcore.server import clocks
from cardcore.server.api_errors import ApiError
from cardcore.server.messages import MOVED_ON, TABLE_DELETED
from cardcore.server.lanes import Lane, stored_game
from cardcore.server.limits import WS_CLOSE
from cardcore.server.room import ENDS_OUTSIDE_RULES, Room
from cardcore.server.store import (Progress, SqlTableStore, StoredTable, StoreUnavailable,
                                   TableUpdate)

if TYPE_CHECKING:
    from cardcore.game import Game

__all__ = ["CatchUpHost", "check_against_store", "catch_up", "catch_up_settled", "reload",
           "refuse"]

log = logging.getLogger("cardcore.server")


class CatchUpHost(Protocol):
    """What catching up asks of the server (``tables.TableServer``, not imported: it imports
    this): its rooms, its store, the commits it has queued, and how it revives a room."""

    reloads: int                                # rooms loaded again (metrics)

    @property
    def tables(self) -> MutableMapping[str, Room]: ...
    @property
    def store(self) -> SqlTableStore: ...
    @property
    def queued(self) -> Mapping[str, TableUpdate]: ...
    @property
    def reads(self) -> Lane: ...
    def revive(self, stored: StoredTable, game: Game | None = None) -> Room: ...
    async def lost(self, room: Room, mine: int = 0) -> None: ...


async def check_against_store(host: CatchUpHost) -> None:
    """The tables in memory against their rows: one the store has moved past (a change by
    ``cardcore admin``, or another process's notice lost while PostgreSQL restarted) is
    caught up, and seats changed there are read again. One query per sweep."""
    tables = [t for t in host.tables.values() if t.ended is None and not t.unstored]
    if not tables:
        return
    try:
        rows = await host.reads.call(lambda s: s.generations([t.id for t in tables]))
    except StoreUnavailable as e:                # read again at the next sweep
        log.warning("tables not checked against the store: %s", e)
        return
    loop = asyncio.get_running_loop()
    for table in tables:
        row = rows.get(table.id)
        if row is None or table.id in host.queued:
            continue                                # deleted (the sweep's own), or ours
        if row.token_hashes != table.token_hashes:
            table_id = table.id
            stored = await host.reads.call(lambda s: s.seats(table_id))
            if stored is not None:
                table.set_seats(stored.token_hashes, stored.names)
        ended_there = (row.ended in ENDS_OUTSIDE_RULES or row.ended == "forfeit") \
            and row.ended != table.ended
        if row.actions > table.actions or row.rewinds > table.rewinds or ended_there:
            loop.create_task(catch_up_settled(host, table, None))


async def catch_up_settled(host: CatchUpHost, table: Room, count: int | None) -> None:
    """``catch_up`` once the table's own commits in flight are done (one of them may
    have reached the store before the notice that beat it here)."""
    try:
        await table.settled()
        if count is not None and count <= table.actions:
            return                               # caught up meanwhile
        await catch_up(host, table, None if count is None else Progress(count, None))
    except ApiError:
        pass                                     # storage failed: the table reloads
    except Exception as e:                       # pragma: no cover - the store is down
        log.error("table %s could not be refreshed: %s", table.id, e)

async def catch_up(host: CatchUpHost, table: Room, stored: Progress | None = None) -> None:
    """Refresh ``table`` if the store is ahead of it (another process moved or ended it):
    the new actions applied from their rows when it can, else loaded whole. ``stored``:
    the store's action count and end if known (a notice's), else read. The store is read
    off the loop; a table that moved here meanwhile is left as it is."""
    if table.unstored:
        return
    at = (table.actions, table.rewinds, table.game)
    if stored is None:
        generation = await host.reads.call(lambda s: s.generation(table.id))
        stored = None if generation is None else Progress(generation.actions,
                                                          generation.ended)
        if generation is not None and generation.rewinds != table.rewinds:
            table.diverged = True                   # rewound elsewhere: load it whole
    # Ended elsewhere (abandoned, closed, or a forfeit on time, which adds no action):
    # reload.
    ended = stored is not None and table.ended != stored.ended \
        and (stored.ended in ENDS_OUTSIDE_RULES or stored.ended == "forfeit")
    if stored is not None and stored.actions == table.actions and not table.diverged \
            and not ended:
        return
    new = None
    if stored is not None and stored.actions > table.actions and not table.diverged \
            and not ended:
        since, count = table.actions, stored.actions
        new = await host.reads.call(lambda s: s.actions_since(table.id, since, count))
    clock = None if table.clock is None or new is None \
        else await host.reads.call(lambda s: s.clock_of(table.id))
    if table.unstored or at != (table.actions, table.rewinds, table.game):
        return                                  # moved here, or caught up, meanwhile
    if stored is None or new is None:
        await reload(host, table)
        return
    for action in new:
        table.game.apply(action)
    if table.clock is not None:                  # the turn the committer timed
        clocks.adopt(table, clock)
    table.actions = table.queued_actions = stored.actions
    table.advanced_at = time.monotonic()
    table.count_events()
    table.notify()
    table.schedule_bots()

async def refuse(host: CatchUpHost, refused: list[tuple[Room, asyncio.Future[None]]]) -> None:
    """Commits the store found stale: each table is reloaded (or let go, ``host.lost``)
    while its refused commits still count as unstored, so that no read shows their actions,
    then they are answered 409: whoever looks again sees the store's."""
    try:
        for table in {t.id: t for t, _ in refused}.values():
            table.diverged = True                   # reloaded whole, now or later
            await host.lost(table, sum(t is table for t, _ in refused))
    finally:                                        # answered whatever happened
        for table, done in refused:
            table.unstored -= 1
            if not table.unstored:
                table.stored.set()
            if not done.done():     # (else its request was cancelled: the client went away)
                done.set_exception(ApiError(409, MOVED_ON))


async def reload(host: CatchUpHost, table: Room, mine: int = 0) -> None:
    """Load ``table`` from the store again, in place (its sockets stay bound to it), and
    push the new state to them; loaded and replayed in the reads lane. ``mine``: commits of
    the caller's still counted in ``table.unstored`` (a refused one's)."""
    found = await host.reads.call(lambda s: stored_game(s, table.id))
    if table.unstored > mine:
        return                                  # moved here meanwhile: its commit decides
    _put(host, table, *(found or (None, None)))


def _put(host: CatchUpHost, table: Room, stored: StoredTable | None,
         game: Game | None) -> None:
    """The stored table (``game``: its save loaded already) put in place of ``table``'s."""
    if stored is None:
        table.end("deleted", WS_CLOSE["ended"], ApiError(410, TABLE_DELETED))
        if host.tables.get(table.id) is table:
            del host.tables[table.id]
        return
    fresh = host.revive(stored, game)
    if fresh.rewinds != table.rewinds:               # rewound elsewhere: its clock too
        table.clock = fresh.clock
    for name in ("game", "bot_players", "searching", "actions", "queued_actions",
                 "checkpoint_at", "event_count", "advanced_at", "rewinds"):
        setattr(table, name, getattr(fresh, name))
    table.set_seats(fresh.token_hashes, fresh.names)
    if fresh.rematch is not None:
        table.announce_rematch(fresh.rematch)
    table.diverged = False
    host.reloads += 1
    clocks.adopt(table, fresh.clock)
    if "forfeit" in (fresh.ended, table.ended):    # a forfeit stored, or ours refused
        table.ended = fresh.ended
    if fresh.ended in ENDS_OUTSIDE_RULES and table.ended is None:
        table.end(fresh.ended, WS_CLOSE["ended"],
                  ApiError(409, ENDS_OUTSIDE_RULES[fresh.ended]))
    table.notify()
    table.schedule_bots()
