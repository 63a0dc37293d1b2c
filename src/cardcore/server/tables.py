"""The host of a server's rooms: ``TableServer`` creates, finds, routes, commits and evicts
the rooms (room.py), one per live table.

This module knows nothing of HTTP: ``app.py`` turns requests into calls here and ``ApiError``
into answers. A room's own behaviour (a move, its bots, its clock, what each seat is told) is
the room's; the host owns what rooms share: the store and its writer thread (commits batched
across rooms), the bot pool, the limits, the metrics, and the process's place among others
(docs/architecture.md). Everything runs in the server's one event-loop thread.

``Table`` is the old name of ``Room`` (kept for embedders and the routes).
"""
from __future__ import annotations

import asyncio
import functools
import hmac
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Callable, TypeVar

from cardcore.server import catching_up, clocks, rewind, seat_changes, watchdog
from cardcore.server import seats as seating
from cardcore.server.advice import Advisor
from cardcore.errors import Words
from cardcore.i18n import N_
from cardcore.server.api_errors import ApiError, BadCredential, log_store_error, unavailable
from cardcore.server.messages import CREATOR_TOKEN, NO_SUCH_TABLE, TABLE_DELETED
from cardcore.server.catalogue import games_catalogue, make_cursor, read_cursor
from cardcore.server.deployment import deployment_for
from cardcore.server.lanes import Lane, stored_game
from cardcore.server.leases import Leases
from cardcore.server.responses import Hints, Review
from cardcore.server.limits import WS_CLOSE, Limits
from cardcore.server.metrics import Metrics
from cardcore.server.new_table import NewTable, make_game, seat_plan, series_scores
from cardcore.server.record_keys import RecordKeys
from cardcore.server.room import (ENDS_OUTSIDE_RULES, Room, revived, seat_events, spectator_view,
                                  zone_descriptors)
from cardcore.server.sockets import Connection
from cardcore.server.storage import open_store
from cardcore.server.store import (CHECKPOINT_EVERY, Progress, StoredTable,
                                   StoreUnavailable, TableUpdate)
from cardcore.server.table_bots import offered_bots
from cardcore.server.table_settings import TableSettings
from cardcore.server.tokens import (MAX_TOKEN_TEXT, TABLE_ID_BYTES, new_table_id, new_token,
                                    token_hash)
from cardcore.server.vitals import READY_TIMEOUT, Vitals

if TYPE_CHECKING:
    from cardcore.game import Game

__all__ = ["Table", "Room", "TableServer", "NewTable", "spectator_view", "seat_events",
           "new_token", "token_hash", "MAX_TOKEN_TEXT", "zone_descriptors", "new_table_id",
           "TABLE_ID_BYTES", "games_catalogue"]

Table = Room                # the old name: routes and embedders say Table
T = TypeVar("T")

log = logging.getLogger("cardcore.server")

MAX_CACHED = 500            # tables kept in memory; the others are reloaded when used
IDLE_SECONDS = 60.0         # a table nobody used for this long leaves memory (reloaded on use)


class TableServer:
    """The host of one server's rooms (a ``RoomHost``): it creates them, finds them in memory
    or revives them from the store, routes requests to them, commits for them and evicts
    them; where a table is served (one process or many) its ``deployment`` decides.

    Writes go to the store (SQLite or PostgreSQL) from one writer thread, in batches: an
    action is applied in memory, queued, and its sender waits until the batch holding it is
    committed; only then is it answered and pushed. Actions arriving meanwhile (on any
    table) join the next batch, so one disk sync serves many actions and the event loop never
    waits for the disk. Reads wait until their table has nothing uncommitted, so nobody is
    shown an unstored action.
    """

    def __init__(self, db_path: str, *, bot_delay: float = 0.0, max_tables: int = 1000,
                 message_rate: float = 20.0, synchronous: str = "full",
                 limits: Limits | None = None, bots: str | Sequence[str] = ()) -> None:
        """``bots``: plug-in bot specs the server offers besides the built-in ones
        (``offered_bots``; ConfigError for one it cannot make)."""
        self.extra_bots = offered_bots(bots)              # game -> specs, checked once
        if bot_delay < 0:
            raise ValueError("bot_delay must be >= 0")
        if max_tables < 1:
            raise ValueError("max_tables must be >= 1")
        if message_rate <= 0:
            raise ValueError("message_rate must be > 0")
        self.store = open_store(db_path, synchronous)           # its path and kind; tests
        self.writer = open_store(db_path, synchronous)          # writes, in the writer lane
        # Commits (batched across rooms) and every other write, bounded as any store call.
        self.writes = Lane(self.writer, "writer")
        self.executor = self.writes.executor
        # Loads, revivals and lease polls, each call off the loop and bounded (lanes.py).
        self.reads = Lane(open_store(db_path, synchronous), "reads")
        self.limits = limits or Limits(max_tables=max_tables, message_rate=message_rate)
        self.bot_pool = ThreadPoolExecutor(self.limits.bot_workers,
                                           thread_name_prefix="cardcore-bot")
        self.bot_delay = bot_delay
        self.max_tables = max_tables
        self.refusals: dict[str, int] = {}                      # reason -> count (metrics)
        self.reloads = self.deleted = self.abandoned = 0          # counters (metrics)
        self.metrics = Metrics()
        self.metrics.attach(self)
        # /healthz, /readyz and the store's gauges answer from here, never the store.
        self.vitals = Vitals(Lane(open_store(db_path, synchronous), "health", READY_TIMEOUT),
                             self.metrics.loop_lag)
        self.creating_by: dict[str, int] = {}                   # address -> rows being written
        self.advisor = Advisor(self.limits, self.bot_pool, self.refused)   # hints, reviews
        self.message_rate = message_rate
        self.tables: OrderedDict[str, Table] = OrderedDict()    # most recently used last
        self.closing = False
        self.draining = False                   # SIGTERM: readiness 503 (drain.py)
        self.queued: dict[str, TableUpdate] = {}                # table id -> what to store
        self.waiting: list[tuple[Table, asyncio.Future[None]]] = []
        self.flushing = False
        self.creating = 0
        self.on_error: Callable[[BaseException], None] = lambda e: log.exception(
            "bot move failed", exc_info=e)
        # Records are signed (HMAC-SHA256, saves.py) with this key when the host sets one.
        self.record_keys = RecordKeys.from_env()
        # Presence across processes (a shared store): this process's rows carry this id.
        self.process_id = secrets.token_hex(8)
        # One process, or one of many sharing the store (leases, notices, presence).
        self.deployment = deployment_for(self)
        self.rematching: dict[str, asyncio.Future[str]] = {}    # old table id -> new id

    @property
    def record_key(self) -> str | None:
        """The key that signs the next record (record_keys.py)."""
        return self.record_keys.current()

    @record_key.setter
    def record_key(self, key: str | None) -> None:
        self.record_keys = RecordKeys(key)

    def refused(self, reason: str) -> None:
        """Count a refusal by its reason (``/metrics``)."""
        self.refusals[reason] = self.refusals.get(reason, 0) + 1

    # ---------------------------------------------------------------- tables
    async def create(self, request: NewTable, inherit: Room | None = None
                     ) -> tuple[Room, dict[int, str]]:
        """A new table (``NewTable``: each field checked, a bad one named); returns its room
        and the token of every seat that is neither a bot nor in ``open_seats`` (left for
        others to claim with the table's invite, seats.py). ``deck`` (a stacked first deal)
        is for tests and embedding hosts only: the HTTP API does not offer it. Without
        ``seed`` (and ``deck``) the deal seed is committed (records.py), mixing in
        ``client_seed``; ``clock`` is the turn clock (clocks.py); ``takeback`` (True) lets the
        one person at a table of bots undo moves (takeback.py). ``inherit``: a rematch of
        that table, whose seats (tokens, names, invite, creator token) and settings the new
        table keeps."""
        client = request.client
        try:                    # the open tables counted off the loop (lanes.py)
            counts = await self.reads.call(lambda s: (s.count_open(), 0 if client is None
                                                      else s.count_open(client)))
        except StoreUnavailable as e:
            raise unavailable(e) from None
        made = make_game(request, self.extra_bots, lambda: self._check_capacity(client, *counts))
        plan = seat_plan(request, made, inherit)
        g = made.game
        settings_of = TableSettings(
            made.bots, secrets.randbits(63), made.takeback, plan.listed, plan.spectators,
            plan.join, creator_hash=plan.creator_hash, invite_hash=plan.invite_hash,
            fairness=made.fairness, think_ms=self.limits.bot_think_ms,
            carried=None if inherit is None else series_scores(inherit))
        table = Room(self, new_table_id(), g, settings_of, plan.hashes, 0, names=plan.names,
                     record_keys=self.record_keys,
                     clock=None if made.clock is None
                     else clocks.TableClock(made.clock, g.num_players))
        table.creator_token = plan.creator_token     # handed out once (app.py), never stored
        table.invite = plan.invite                   # the same
        await self._insert(table, request.client)
        self._remember(table)
        if self.bot_delay == 0 and table.people() and table.bot_to_move() is not None:
            # The bots before the first person move at once, as after any action.
            await table.play_bots()
            table.count_events()
            await self.commit(table)
        table.schedule_bots()
        return table, plan.tokens

    def _check_capacity(self, client: str | None, total: int, by_client: int) -> None:
        """The limits on open tables: the server's (503) and one address's (429), given the
        store's counts of open tables (``total``, and ``by_client``'s)."""
        if total + self.creating >= self.max_tables:
            self.refused("max_tables")
            raise ApiError(503, Words(N_("this server holds at most {limit} open tables; "
                                     "finish one or try later"), {"limit": self.max_tables}))
        per_client = self.limits.max_tables_per_client
        if client is not None and by_client + self.creating_by.get(client, 0) >= per_client:
            self.refused("max_tables_per_client")
            raise ApiError(429, Words(N_("{address} has {limit} open tables, the most one "
                                     "address may have; finish or delete one first"),
                                  {"address": client, "limit": per_client}))

    async def _insert(self, table: Room, client: str | None) -> None:
        """Store a new table's row (with this process's lease when the store is shared),
        counted against the limits while it is being written."""
        g = table.game
        clock_json, deadline = table.clock_update(0)
        insert = functools.partial(
            self.writer.insert, table_id=table.id, game=g.name, players=g.num_players,
            save=g.to_json(), actions=0, current_player=g.current_player, over=g.is_over,
            token_hashes=table.token_hashes, creator=client, clock=clock_json,
            deadline=deadline, names=table.names, **table.settings.columns(),
            lease=self.deployment.insert_lease())
        inserted_at = time.monotonic()
        self.creating += 1                      # counted while its row is being written
        if client is not None:
            self.creating_by[client] = self.creating_by.get(client, 0) + 1
        try:
            await self.write(insert)
        finally:
            self.creating -= 1
            if client is not None:
                self.creating_by[client] -= 1
                if not self.creating_by[client]:
                    del self.creating_by[client]
        self.deployment.created(table.id, inserted_at)

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the writer lane (``fn``: a method of ``self.writer``); 503 when
        the store fails or does not answer within ``lanes.CALL_SECONDS``."""
        start = time.perf_counter()
        try:
            result = await self.writes.call(lambda _: fn(*args))
            self.metrics.store_seconds.observe(time.perf_counter() - start)
            return result
        except Exception as e:
            log_store_error("storage failed", e)
            raise ApiError(503, N_("storage failed: nothing was changed")) from None

    @property
    def leases(self) -> Leases[Room] | None:
        """The leases this process holds (a shared store's; None: one process)."""
        return self.deployment.leases

    @property
    def lease_owner(self) -> str | None:
        """The owner a commit's lease check expects (None: no leases, one process)."""
        return self.deployment.lease_owner

    async def table_to_act(self, table_id: str) -> Room:
        """The room a move, a seat or a socket acts on: with a shared store, the lease taken
        or waited for first (leases.py)."""
        return await self.deployment.room_to_act(table_id)

    async def table_to_read(self, table_id: str) -> Room:
        """The room a read shows: with a shared store, as committed when another process
        holds it (leases.py)."""
        return await self.deployment.room_to_read(table_id)

    def _live(self, table_id: str) -> Table | None:
        table = self.tables.get(table_id)
        if table is not None and table.serving and table.ended != "deleted":
            self.tables.move_to_end(table_id)
            table.last_used = time.monotonic()
            return table
        return None

    async def get(self, table_id: str) -> Table:
        """The room in memory, else loaded off the loop (``load``, its other name)."""
        return await self.load(table_id)

    async def load(self, table_id: str) -> Table:
        """The room in memory, else loaded and its game rebuilt (the replay) in the reads
        lane's thread: the loop only makes the room."""
        table = self._live(table_id)
        if table is not None:
            return table
        try:
            found = await self.reads.call(lambda s: stored_game(s, table_id))
        except StoreUnavailable as e:
            raise unavailable(e) from None
        table = self._live(table_id)            # loaded meanwhile by another request
        if table is not None:
            return table
        if found is None:
            raise ApiError(404, NO_SUCH_TABLE)
        return self._install(self.revive(*found))

    def _install(self, table: Table) -> Table:
        """A room just loaded from the store: kept in memory, its bots resumed."""
        self.deployment.loaded(table)
        self._remember(table)
        self.reloads += 1
        table.schedule_bots()
        return table

    def watch(self, now: float | None = None) -> list[Table]:
        """The watchdog (watchdog.py): the tables newly found stalled."""
        return watchdog.watch(list(self.tables.values()), self.limits.stall_after,
                              self.metrics.stalls, now)

    def release(self, table: Table) -> None:
        """Drop a table from memory once it has ended and nothing holds it (it reloads from
        the store if asked for again)."""
        if (table.ended is not None or table.game.is_over) and table.idle() \
                and self.tables.get(table.id) is table:
            del self.tables[table.id]

    async def delete(self, table: Table, creator_token: str | None) -> None:
        """``DELETE /api/tables/{id}``: only with the creator token given at creation."""
        if creator_token is None:
            raise ApiError(401, CREATOR_TOKEN)
        if table.settings.creator_hash is None \
                or not isinstance(creator_token, str) or len(creator_token) > MAX_TOKEN_TEXT \
                or not hmac.compare_digest(token_hash(creator_token), table.settings.creator_hash):
            raise BadCredential(CREATOR_TOKEN)
        await self._delete([table.id])

    # ---------------------------------------------------------------- seats (seats.py)
    async def seats_from_store(self, table: Room) -> None:
        """The seat holders as stored, if another process may have changed them."""
        await self.deployment.seats_from_store(table)

    async def store_seats(self, table: Room, token_hashes: dict[int, str],
                          names: dict[int, str]) -> None:
        """Store new seat holders (compare-and-set: 409 if they changed meanwhile)."""
        if not await self.write(self.writer.update_seats, table.id, table.token_hashes,
                                token_hashes, names):
            await self.deployment.seats_from_store(table)
            raise ApiError(409, N_("the seats changed meanwhile (through another server "
                                   "process); look again"), field="seat")
        table.set_seats(token_hashes, names)

    async def seat_for(self, table: Table, token: str | None) -> int | None:
        """``table.seat_of(token)`` with the seats re-read, on a miss, in a worker thread
        rather than on the event loop (a guessed token must not block every table)."""
        try:
            return table.seat_of(token)
        except BadCredential:
            if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN_TEXT \
                    or not await self.deployment.seats_changed(table):
                raise
        return table.seat_of(token)

    async def claim(self, table: Table, invite: Any, name: Any,
                    seat: Any) -> tuple[int, str, str]:
        """``POST /api/tables/{id}/seats``: an open seat for a person (seat_changes.py)."""
        return await seat_changes.claim(table, invite, name, seat)

    async def leave(self, table: Table, seat: int) -> None:
        """``DELETE /api/tables/{id}/seats/{seat}``: the seat is open again (seat_changes.py)."""
        await seat_changes.leave(table, seat)

    async def rematch_of(self, table: Table, seat: int | None,
                         client: str | None = None) -> Table | str:
        """``POST /api/tables/{id}/rematch``: the table's rematch, made once (a second ask,
        through any process, gets the same id): the same game, players, options, bots, clock,
        settings and seats (tokens, names, invite), a new committed seed. Returns the new
        table, or the id of one made before."""
        if seat is None:
            raise ApiError(401, N_("a rematch is asked for by a seat: give its token "
                                   "(Authorization: Bearer T)"))
        await table.settled()
        if not table.finished() or table.ended not in (None, "forfeit"):
            raise ApiError(409, N_("a rematch follows a finished match"),
                           event_count=table.event_count)
        await self.deployment.seats_from_store(table)
        if table.rematch is not None:
            return table.rematch
        pending = self.rematching.get(table.id)
        if pending is not None:
            return await asyncio.shield(pending)
        done: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.rematching[table.id] = done
        try:
            game = table.game
            new, _ = await self.create(NewTable(
                game.name, game.num_players, None, dict(game.options),
                {str(k): v for k, v in table.settings.bots.items()}, client=client,
                clock=None if table.clock is None else table.clock.spec.to_dict(),
                takeback=table.settings.takeback or None), inherit=table)
            winner = await self.write(self.writer.set_rematch, table.id, new.id)
            if winner is None:
                await self._delete([new.id])
                raise ApiError(404, NO_SUCH_TABLE)
            if winner != new.id:                         # another process made it first
                await self._delete([new.id])
            table.announce_rematch(winner)
            done.set_result(winner)
            return new if winner == new.id else winner
        except BaseException as e:
            done.set_exception(e)
            done.exception()                             # retrieved: nobody else may wait
            raise
        finally:
            del self.rematching[table.id]

    def presence_changed(self, table: Table, seat: int | None,
                         cause: Connection | None = None) -> None:
        """A socket of ``seat`` came (``cause``) or went: pushed at once, and with a shared
        store this process's count of the seat's sockets is stored (and announced) in the
        background."""
        table.push_presence(cause)
        if seat is not None:
            self.deployment.presence_changed(table, seat)

    async def _delete(self, table_ids: list[str]) -> None:
        held = [self.tables[i] for i in table_ids if i in self.tables]
        for table in held:
            table.end("deleted", WS_CLOSE["ended"], ApiError(410, TABLE_DELETED))
        for table in held:
            try:
                await table.settled()
            except ApiError:
                pass
        await self.write(self.writer.delete, table_ids)
        for table in held:
            if self.tables.get(table.id) is table:
                del self.tables[table.id]
        self.deleted += len(table_ids)

    async def sweep(self, now: float | None = None) -> None:
        """The lifecycle, run every few seconds: tables where no person moved for
        ``abandon_after`` end as abandoned; tables ended ``retention`` ago are deleted; ended
        and idle tables leave memory."""
        now = time.time() if now is None else now
        abandoned = await self.write(self.writer.abandon, now - self.limits.abandon_after)
        for table_id in abandoned:
            table = self.tables.get(table_id)
            if table is not None:
                table.end("abandoned", WS_CLOSE["ended"],
                          ApiError(409, ENDS_OUTSIDE_RULES["abandoned"]))
            log.info("table %s abandoned: no move by a person for %g s", table_id,
                     self.limits.abandon_after)
        self.abandoned += len(abandoned)
        await catching_up.check_against_store(self)
        await self.take_up(now)
        expired = await self.reads.call(lambda s: s.expired(now - self.limits.retention))
        if expired:
            await self._delete(expired)
        idle_since = time.monotonic() - IDLE_SECONDS
        for table in list(self.tables.values()):
            if table.idle() and (table.ended is not None or table.game.is_over
                                 or table.last_used < idle_since):
                del self.tables[table.id]

    def sweep_interval(self) -> float:
        interval = max(0.05, min(10.0, self.limits.abandon_after / 4, self.limits.retention / 4))
        return min(interval, max(0.05, self.limits.stall_after / 4))

    async def sweep_forever(self) -> None:
        """Sweep every ``sweep_interval`` until closed. A failing sweep (the store down) is
        logged once, when it starts failing, and once more when it works again: not at every
        sweep of an outage."""
        interval = self.sweep_interval()
        failing: float | None = None            # when the sweeps began to fail
        while not self.closing:
            await asyncio.sleep(interval)
            try:
                self.watch()
                await self.sweep()
                await self.deployment.sweep()
            except Exception as e:                  # keep sweeping
                if failing is None:
                    log.error("the table sweep failed: %s (logged again once it works)", e)
                    failing = time.monotonic()
                continue
            if failing is not None:
                log.warning("the table sweep works again, after %.0f s of failures",
                            time.monotonic() - failing)
                failing = None

    def _remember(self, table: Table) -> None:
        """Keep a table in memory; past MAX_CACHED, forget the least recently used idle ones
        (nobody connected, nothing running or uncommitted): they reload from the database."""
        self.tables[table.id] = table
        if len(self.tables) <= MAX_CACHED:
            return
        for key in list(self.tables):
            old = self.tables[key]
            if len(self.tables) <= MAX_CACHED:
                break
            if old is not table and not old.audience.sockets and old.runner is None \
                    and not old.unstored:
                del self.tables[key]

    def revive(self, stored: StoredTable, game: Game | None = None) -> Table:
        """The room of a stored table (``game``: its save loaded already, off the loop)."""
        return revived(self, stored, game, self.limits.bot_think_ms, self.record_keys)

    def resume_bots(self) -> None:
        """After a start (in the event loop): tables whose bots were to move carry on, in
        the background (and, with a shared store, the process starts following other
        processes' changes)."""
        self.deployment.start()
        self.resuming = asyncio.get_running_loop().create_task(self.take_up(None))

    async def take_up(self, due: float | None) -> None:
        """Load the tables that move without a person (a bot to move; a clock running, due
        before ``due`` if given) and that no process serves: after a start, and at every
        sweep (a clock run out while its table was out of memory; with leases, the tables
        of a process that died)."""
        for table_id in await self.deployment.orphans(due):
            if table_id in self.tables:
                continue
            try:
                await self.deployment.take_up(table_id)
            except Exception as e:                      # one bad row must not stop the server
                log.error("table %s could not be loaded: %s", table_id, e)

    async def list_tables(self, include_over: bool = False, limit: int = 100,
                          cursor: str | None = None) -> dict[str, Any]:
        """``GET /api/tables``: a page of ``limit`` tables, newest first, from ``cursor`` (the
        ``next`` of the page before); ``next`` is None on the last page."""
        before = read_cursor(cursor)
        try:
            rows = await self.reads.call(lambda s: s.list_tables(include_over, limit + 1, before))
        except StoreUnavailable as e:
            raise unavailable(e) from None
        page, more = rows[:limit], len(rows) > limit
        elsewhere = await self.deployment.presence_elsewhere([r["table"] for r in page])
        for row in page:                 # each seat's presence, as a state would say it
            held = self.tables.get(row["table"])
            row["presence"] = seating.row_presence(row, elsewhere.get(row["table"], set()) | (
                {c.seat for c in held.audience if c.seat is not None} if held else set()))
        last = page[-1] if page else None
        return {"tables": page,
                "next": make_cursor(last["created"], last["table"]) if more and last else None}

    async def settled(self, table: Table) -> Table:
        """The table once nothing on it is waiting to be committed (reads call this)."""
        return await table.settled()

    async def record(self, table: Table) -> dict[str, Any]:
        """``GET /api/tables/{id}/record``: the match record, 409 before the match end."""
        await table.settled()
        if not table.finished() or table.ended not in (None, "forfeit"):
            raise ApiError(409, N_("the record is published when the match ends"),
                           event_count=table.event_count)
        return table.record()

    async def review(self, table: Table, seat: int) -> Review:
        """``GET /api/tables/{id}/review?seat=S`` (advice.py)."""
        return await self.advisor.review(table, seat)

    async def hint(self, table: Table, seat: int | None) -> Hints:
        """``GET /api/tables/{id}/hint`` (advice.py)."""
        return await self.advisor.hint(table, seat)

    async def act(self, table: Table, seat: int, action: Any, after: Any,
                  cards: Any = None) -> None:
        """One action for ``seat``, routed to its room (``Room.act``)."""
        await table.act(seat, action, after, cards)

    async def take_back(self, table: Table, seat: int, after: Any) -> None:
        """Undo ``seat``'s last move and every move after it (rewind.py)."""
        await rewind.take_back(table, seat, after)

    async def rewind(self, table: Room, update: TableUpdate) -> bool:
        """Store a take-back (compare-and-set on the log's length and generation); False
        when another process moved the table meanwhile (it is given up or reloaded here)."""
        done = await self.write(self.writer.rewind, update, table.actions)
        if not done:
            await self.lost(table)
        return done

    async def commit(self, table: Table) -> None:
        """Queue the table's save and wait until a batch has stored it."""
        self.queued[table.id] = self._update(table)
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.append((table, done))
        table.unstored += 1
        table.stored.clear()
        if not self.flushing:
            self.flushing = True
            asyncio.get_running_loop().create_task(self._flush())
        await done

    async def _flush(self) -> None:
        try:
            while self.queued:
                rows, waiting = list(self.queued.values()), self.waiting
                self.queued, self.waiting = {}, []
                try:
                    stale = set(await self.write(self.writer.save_many, rows))
                    failed = None
                except ApiError as e:
                    failed, stale = e, set()
                if failed is not None or stale:
                    # Updates queued meanwhile for these tables build on the lost ones.
                    lost = {table.id for table, _ in waiting} if failed is not None else stale
                    later = [(t, d) for t, d in self.waiting if t.id in lost]
                    self.waiting = [(t, d) for t, d in self.waiting if t.id not in lost]
                    self.queued = {k: u for k, u in self.queued.items() if k not in lost}
                    waiting = waiting + later
                refused = [(t, d) for t, d in waiting if t.id in stale]
                for table, done in waiting:
                    if table.id in stale:
                        continue
                    table.unstored -= 1
                    if failed is not None:
                        self._forget(table)
                    if not table.unstored:
                        table.stored.set()
                    if done.done():
                        continue    # its request was cancelled (the client went away)
                    if failed is not None:
                        done.set_exception(ApiError(503, N_("storage failed: the action was "
                                                            "not accepted")))
                    else:
                        done.set_result(None)
                if refused:
                    await catching_up.refuse(self, refused)
        finally:
            self.flushing = False

    async def lost(self, table: Table, mine: int = 0) -> None:
        """The store refused a commit of ``table`` as stale (``mine``: refused commits still
        counted unstored): the deployment reloads it off the loop or lets another process
        serve it; if the store does not answer now, it loads again on its next use."""
        try:
            await self.deployment.lost(table, mine)
        except StoreUnavailable as e:
            log.error("table %s could not be refreshed: %s", table.id, e)
            self._forget(table)

    def _update(self, table: Table) -> TableUpdate:
        """What the next batch stores for ``table``: its actions not queued yet (merged with
        an update already waiting in the batch), and the whole save at a checkpoint."""
        game = table.game
        new = game.action_log(table.queued_actions)
        count = table.queued_actions + len(new)
        waiting = self.queued.get(table.id)
        first = table.queued_actions if waiting is None else waiting.first
        actions = new if waiting is None else waiting.new_actions + new
        # A save must cover the whole log: a waiting checkpoint is redone with the new actions.
        # An action with chosen cards is stored by a checkpoint: the save carries its cards
        # (the action rows hold ids only).
        checkpoint = (game.is_over or count - table.checkpoint_at >= CHECKPOINT_EVERY
                      or (waiting is not None and waiting.save is not None)
                      or bool(game.chosen_cards(table.queued_actions)))
        save = game.to_json() if checkpoint else None
        if checkpoint:
            table.checkpoint_at = count
        table.queued_actions = count
        human = table.human_moved or (waiting is not None and waiting.human)
        table.human_moved = False
        clock, deadline = table.clock_update(count)
        return TableUpdate(table_id=table.id, first=first, new_actions=actions,
                           current_player=game.current_player, over=game.is_over, save=save,
                           human=human, clock=clock, deadline=deadline,
                           ended="forfeit" if table.ended == "forfeit" else None,
                           rewinds=table.rewinds, owner=self.lease_owner)

    def _forget(self, table: Table) -> None:
        """The game in memory is ahead of the database: drop it, reload on next use."""
        table.broken = True
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
        for connection in table.audience:       # bound to the stale copy: reconnect
            connection.push_error(ApiError(503, N_("storage failed; reconnect")))
            connection.close_code = WS_CLOSE["storage"]

    # ---------------------------------------------------------------- catching up
    async def catch_up_settled(self, table: Room, count: int | None) -> None:
        """``catch_up`` once the room's own commits in flight are done (catching_up.py)."""
        await catching_up.catch_up_settled(self, table, count)

    async def catch_up(self, table: Room, stored: Progress | None = None) -> None:
        """Bring ``table`` up to the store if another process moved it (catching_up.py)."""
        await catching_up.catch_up(self, table, stored)

    async def reload(self, table: Room, mine: int = 0) -> None:
        """Load ``table`` again in place, off the loop, its sockets kept (catching_up.py)."""
        await catching_up.reload(self, table, mine)

    async def close(self) -> None:
        self.closing = True
        await self.deployment.stop_following()
        runners = [t.runner for t in self.tables.values() if t.runner is not None]
        runners += [t.clock_task for t in self.tables.values() if t.clock_task is not None]
        for runner in runners:
            runner.cancel()
        for runner in runners:
            try:
                await runner
            except BaseException:
                pass
        while self.flushing:
            await asyncio.sleep(0.01)
        await self.deployment.close()               # a shared store's leases let go
        self.executor.shutdown(wait=True)
        self.reads.close()
        self.vitals.lane.close()
        self.bot_pool.shutdown(wait=True, cancel_futures=True)
        self.store.close()
        self.writer.close()
