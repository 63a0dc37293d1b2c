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
import base64
import functools
import hmac
import json
import logging
import math
import secrets
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from collections.abc import Sequence
from typing import Any, Callable, Mapping

from cardcore.errors import ConfigError, echo
from cardcore.game import is_int
from cardcore.records import Fairness, check_client_seed
from cardcore.registry import available_games, game_class, load_game, new_game
from cardcore.server import clocks
from cardcore.server import seats as seating
from cardcore.server.api_errors import ApiError, BadCredential, log_store_error, unavailable
from cardcore.server.room import (ENDS_OUTSIDE_RULES, Room, seat_events, spectator_view,
                                  zone_descriptors)
from cardcore.server.sockets import Connection
from cardcore.server.table_settings import TableSettings
from cardcore.server.table_bots import offered_bots, parse_bots, table_bot, table_bots
from cardcore.server.takeback import OPTION as TAKEBACK_OPTION
from cardcore.server.takeback import fresh_game, parse_takeback, rewound_clock
from cardcore.server.leases import Leases
from cardcore.server.limits import WS_CLOSE, Limits, RateBuckets
from cardcore.server.metrics import Metrics
from cardcore.server.record_keys import RecordKeys
from cardcore.server.storage import open_store
from cardcore.server.store import (CHECKPOINT_EVERY, Progress, SeatRow, StoredTable,
                                   StoreUnavailable, TableUpdate)
from cardcore.server.tokens import (MAX_TOKEN_TEXT, TABLE_ID_BYTES, new_table_id, new_token,
                                    token_hash)

__all__ = ["Table", "Room", "TableServer", "spectator_view", "seat_events", "new_token",
           "token_hash", "MAX_TOKEN_TEXT", "zone_descriptors", "new_table_id", "TABLE_ID_BYTES"]

Table = Room                # the old name: routes and embedders say Table

log = logging.getLogger("cardcore.server")

MAX_SEED = 2**64 - 1        # a table's seed: the generator's 64 bits (larger ones only fold)
# MAX_ACTION_TEXT (a notation's length) is the game protocol's: one limit, here and in apply.
HINT_LEVEL = 5              # hints come from the game's strongest level's search ...
HINT_TOP = 3                # ... its best three moves
# A review (GET /api/tables/{id}/review) searches each decision this many iterations at
# most: a whole match then takes seconds of a bot-pool thread, not a minute.
REVIEW_ITERATIONS = 300
REVIEWS_KEPT = 256          # finished reviews kept in memory (a finished table does not change)
MAX_CACHED = 500            # tables kept in memory; the others are reloaded when used
IDLE_SECONDS = 60.0         # a table nobody used for this long leaves memory (reloaded on use)


class TableServer:
    """Every table of one server: creation, loading after a restart, actions, bots.

    Writes go to the store (SQLite or PostgreSQL) from one writer thread, in batches: an
    action is applied in memory, queued, and its sender waits until the batch holding it is committed; only then is it
    answered and pushed. Actions arriving meanwhile (on any table) join the next batch, so
    one disk sync serves many actions and the event loop never waits for the disk. Reads
    wait until their table has nothing uncommitted, so nobody is shown an unstored action.
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
        self.store = open_store(db_path, synchronous)           # reads, in the loop thread
        self.writer = open_store(db_path, synchronous)          # writes, in the writer thread
        # A shared store: each table is served by the one process holding its lease.
        self.leases = Leases(self) if self.store.shared else None
        self.listener: Any = None                   # a shared store's notices (listen())
        self.executor = ThreadPoolExecutor(1, thread_name_prefix="cardcore-db")
        self.limits = limits or Limits(max_tables=max_tables, message_rate=message_rate)
        self.bot_pool = ThreadPoolExecutor(self.limits.bot_workers,
                                           thread_name_prefix="cardcore-bot")
        self.bot_delay = bot_delay
        self.max_tables = max_tables
        self.refusals: dict[str, int] = {}                      # reason -> count (metrics)
        self.reloads = self.deleted = self.abandoned = 0          # counters (metrics)
        self.metrics = Metrics()
        self.metrics.attach(self)
        self.creating_by: dict[str, int] = {}                   # address -> rows being written
        self.hints = RateBuckets(self.limits.hint_rate, 2)      # per table and seat
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
        self.rematching: dict[str, asyncio.Future[str]] = {}    # old table id -> new id
        self.reviews: OrderedDict[tuple[str, int], dict[str, Any]] = OrderedDict()

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
    async def create(self, game: Any, players: Any = None, seed: Any = None,
                     options: Any = None, bots: Any = None, deck: list[str] | None = None,
                     client: str | None = None, client_seed: Any = None,
                     clock: Any = None, take_back: Any = None, open_seats: Any = None,
                     names: Any = None, listed: Any = None, spectators: Any = None,
                     join: Any = None, inherit: Table | None = None
                     ) -> tuple[Table, dict[int, str]]:
        """A new table; returns it and the token of every seat that is neither a bot nor in
        ``open_seats`` (left for others to claim with the table's invite, seats.py).
        ``deck`` (a stacked first deal) is for tests and embedding hosts only: the HTTP API
        does not offer it. Without ``seed`` (and ``deck``) the deal seed is committed
        (records.py), mixing in ``client_seed``; ``clock`` is the turn clock (clocks.py);
        ``take_back`` (True) lets the one person at a table of bots undo moves (takeback.py).
        ``inherit``: a rematch of that table, whose seats (tokens, names, invite, creator
        token) and settings the new table keeps."""
        if not isinstance(game, str):
            raise ApiError(400, "game must be a string (see GET /api/games)")
        if players is not None and not is_int(players):
            raise ApiError(400, "players must be an int")
        if seed is not None and not is_int(seed):
            raise ApiError(400, "seed must be an int")
        if seed is not None and not 0 <= seed <= MAX_SEED:
            raise ApiError(422, f"seed must be an int 0..{MAX_SEED}", option="seed")
        if options is None:
            options = {}
        if not isinstance(options, dict):
            raise ApiError(400, "options must be an object")
        clash = sorted(set(options) & {"players", "seed", "deck"})
        if clash:
            raise ApiError(422, f"options: {clash[0]!r} is not a game option", option=clash[0])
        try:
            clock_spec = clocks.parse_clock(clock)
        except clocks.ClockError as e:
            raise ApiError(422, str(e), option=e.option) from None
        fairness = None
        try:
            check_client_seed(client_seed)
            if client_seed is not None and (seed is not None or deck is not None):
                raise ConfigError("client_seed: a table given a seed deals from that seed; "
                                  "send client_seed without seed", "client_seed")
            if seed is None and deck is None:
                fairness = Fairness.fresh(client_seed)
                seed = fairness.seed
            cls = game_class(game)
            count = players if players is not None else cls.default_players
            parsed_bots = parse_bots(bots, max(count, 0), cls.name,
                                     self.extra_bots.get(cls.name, ()))
            if self.store.count_open() + self.creating >= self.max_tables:
                self.refused("max_tables")
                raise ApiError(503, f"this server holds at most {self.max_tables} open tables; "
                                    "finish one or try later")
            per_client = self.limits.max_tables_per_client
            if client is not None and (self.store.count_open(client)
                                       + self.creating_by.get(client, 0)) >= per_client:
                self.refused("max_tables_per_client")
                raise ApiError(429, f"{client} has {per_client} open tables, the most one "
                                    "address may have; finish or delete one first")
            g = new_game(cls.name, players=players, seed=seed, deck=deck, **options)
            allow_takeback = parse_takeback(take_back, g.num_players - len(parsed_bots))
        except ConfigError as e:
            raise ApiError(422, str(e), option=e.option) from None
        except (TypeError, ValueError, OverflowError) as e:
            if str(e).startswith(TAKEBACK_OPTION):
                raise ApiError(422, str(e), option=TAKEBACK_OPTION) from None
            raise ApiError(422, f"bad table configuration: {str(e)[:200]}") from None
        n = g.num_players                            # checked by the game: a small number
        if inherit is None:
            try:
                opened = seating.check_open_seats(open_seats, n, parsed_bots)
                named = seating.check_names(names, n, set(range(n)) - opened - set(parsed_bots))
                seat_settings = seating.check_settings(listed, spectators, join)
            except seating.SeatError as e:
                raise ApiError(e.status, str(e), field=e.field) from None
        else:
            opened, named = set(), dict(inherit.names)
        table_id = new_table_id()
        tokens = {seat: new_token() for seat in range(g.num_players)
                  if seat not in parsed_bots and seat not in opened}
        creator_token: str | None = None
        invite: str | None = None
        creator_hash: str | None
        invite_hash: str | None
        if inherit is None:
            creator_token, invite = new_token(), new_token()
            creator_hash, invite_hash = token_hash(creator_token), token_hash(invite)
            hashes = {seat: token_hash(t) for seat, t in tokens.items()}
        else:                        # a rematch: the same people, seats and seat settings
            old = inherit.settings
            seat_settings = (old.listed, old.spectators, old.join)
            creator_hash, invite_hash = old.creator_hash, old.invite_hash
            hashes = dict(inherit.token_hashes)
        settings_of = TableSettings(
            parsed_bots, secrets.randbits(63), allow_takeback, *seat_settings,
            creator_hash=creator_hash, invite_hash=invite_hash, fairness=fairness,
            think_ms=self.limits.bot_think_ms)
        table = Room(self, table_id, g, settings_of, hashes, 0, names=named,
                      record_keys=self.record_keys,
                      clock=None if clock_spec is None
                      else clocks.TableClock(clock_spec, g.num_players))
        table.creator_token = creator_token          # handed out once (app.py), never stored
        table.invite = invite                        # the same
        clock_json, deadline = table.clock_update(0)
        insert = functools.partial(
            self.writer.insert, table_id=table_id, game=g.name, players=g.num_players,
            save=g.to_json(), actions=0, current_player=g.current_player, over=g.is_over,
            token_hashes=hashes, creator=client, clock=clock_json, deadline=deadline,
            names=named, **settings_of.columns(),
            lease=None if self.leases is None else (self.process_id, self.leases.seconds))
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
        if self.leases is not None:
            self.leases.created(table_id, inserted_at)
        self._remember(table)
        if self.bot_delay == 0 and table.people() and table.bot_to_move() is not None:
            # The bots before the first person move at once, as after any action.
            await table.play_bots()
            table.count_events()
            await self.commit(table)
        table.schedule_bots()
        return table, tokens

    async def write(self, fn: Callable[..., Any], *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        start = time.perf_counter()
        try:
            result = await loop.run_in_executor(self.executor, fn, *args)
            self.metrics.store_seconds.observe(time.perf_counter() - start)
            return result
        except Exception as e:
            log_store_error("storage failed", e)
            raise ApiError(503, "storage failed: nothing was changed") from None

    @property
    def lease_owner(self) -> str | None:
        """The owner a commit's lease check expects (None: no leases, one process)."""
        return None if self.leases is None else self.process_id

    async def table_to_act(self, table_id: str) -> Table:
        """The table a move, a seat or a socket acts on: with a shared store, the lease taken
        or waited for first (leases.py)."""
        if self.leases is None:
            return self.get(table_id)
        table: Table = await self.leases.own(table_id)
        return table

    def table_to_read(self, table_id: str) -> Table:
        """The table a read shows: with a shared store, as committed when another process
        holds it (leases.py)."""
        if self.leases is None:
            return self.get(table_id)
        table: Table = self.leases.read(table_id)
        return table

    def lost_or_refresh(self, table: Table) -> None:
        """A commit the store refused as stale: with leases the lease was lost (another
        process serves the table now), so it is dropped here; else another process moved
        it, and it is loaded again."""
        if self.leases is not None:
            log.warning("table %s: a commit was refused (its lease was lost or the store moved "
                        "on); another process serves it now", table.id)
            self.leases.drop(table.id)
        else:
            self.refresh(table)

    def get(self, table_id: str) -> Table:
        table = self.tables.get(table_id)
        if table is not None and table.serving and table.ended != "deleted":
            self.tables.move_to_end(table_id)
            table.last_used = time.monotonic()
            return table
        try:
            stored = self.store.load(table_id) if isinstance(table_id, str) else None
        except StoreUnavailable as e:
            raise unavailable(e) from None
        if stored is None:
            raise ApiError(404, "no such table")
        table = self.revive(stored)
        if self.store.shared:                        # sockets of its seats elsewhere
            self.refresh_presence(table)
        self._remember(table)
        self.reloads += 1
        table.schedule_bots()
        return table

    def watch(self, now: float | None = None) -> list[Table]:
        """The watchdog: tables whose seat to move is there (a bot, or a person with a socket
        open) and which have not advanced for ``stall_after`` seconds are marked stalled,
        logged once and counted. Returns the tables newly found stalled."""
        now = time.monotonic() if now is None else now
        found = []
        for table in self.tables.values():
            seat = table.game.current_player
            present = seat is not None and table.ended is None and not table.game.is_over \
                and (seat in table.settings.bots or table.audience.count(seat) > 0)
            stalled = present and now - table.advanced_at >= self.limits.stall_after
            if stalled and not table.stalled:
                found.append(table)
                self.metrics.stalls.inc()
                log.warning("table %s stalled: seat %s (%s) to move, no move for %.0f s",
                            table.id, seat, "bot" if seat in table.settings.bots else "connected",
                            now - table.advanced_at)
            table.stalled = stalled
        return found

    def release(self, table: Table) -> None:
        """Drop a table from memory once it has ended and nothing holds it (it reloads from
        the store if asked for again)."""
        if (table.ended is not None or table.game.is_over) and table.idle() \
                and self.tables.get(table.id) is table:
            del self.tables[table.id]

    async def delete(self, table: Table, creator_token: str | None) -> None:
        """``DELETE /api/tables/{id}``: only with the creator token given at creation."""
        if creator_token is None:
            raise ApiError(401, "deleting a table needs its creator token "
                                "(Authorization: Bearer CREATOR_TOKEN)")
        if table.settings.creator_hash is None \
                or not isinstance(creator_token, str) or len(creator_token) > MAX_TOKEN_TEXT \
                or not hmac.compare_digest(token_hash(creator_token), table.settings.creator_hash):
            raise BadCredential("deleting a table needs its creator token "
                                "(Authorization: Bearer CREATOR_TOKEN)")
        await self._delete([table.id])

    # ---------------------------------------------------------------- seats (seats.py)
    def _seats_from_store(self, table: Table) -> None:
        """With a shared store, the seat holders another process may have changed."""
        if self.store.shared:
            self._put_seats(table, self.store.seats(table.id))

    @staticmethod
    def _put_seats(table: Table, stored: SeatRow | None) -> None:
        if stored is not None:
            table.set_seats(stored.token_hashes, stored.names)
            if stored.rematch is not None:
                table.announce_rematch(stored.rematch)

    async def _store_seats(self, table: Table, token_hashes: dict[int, str],
                           names: dict[int, str]) -> None:
        if not await self.write(self.writer.update_seats, table.id, table.token_hashes,
                                token_hashes, names):
            self._seats_from_store(table)
            raise ApiError(409, "the seats changed meanwhile (through another server "
                                "process); look again", field="seat")
        table.set_seats(token_hashes, names)

    async def seat_for(self, table: Table, token: str | None) -> int | None:
        """``table.seat_of(token)`` with the seats re-read, on a miss, in a worker thread
        rather than on the event loop (a guessed token must not block every table)."""
        try:
            return table.seat_of(token)
        except BadCredential:
            if not self.store.shared or not isinstance(token, str) \
                    or not 0 < len(token) <= MAX_TOKEN_TEXT:
                raise
        # The writer thread's own connection: the loop's is never used from two threads.
        stored = await asyncio.get_running_loop().run_in_executor(
            self.executor, self.writer.seats, table.id)
        self._put_seats(table, stored)
        return table.seat_of(token)

    async def claim(self, table: Table, invite: Any, name: Any,
                    seat: Any) -> tuple[int, str, str]:
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
        self._seats_from_store(table)
        open_seats = table.open_seats()
        if seat is None:
            if not open_seats:
                raise ApiError(409, "no seat is open at this table", field="seat")
            seat = open_seats[0]
        elif seat not in open_seats:
            raise ApiError(409, f"seat {seat} is not open: it is "
                                f"{'a bot' if seat in table.settings.bots else 'taken'}", field="seat")
        if any(seating.same_name(n, name) for n in table.names.values()):
            raise ApiError(409, f"the name {echo(name)} is taken at this table (or one that "
                                f"looks like it)", field="name")
        token = new_token()
        await self._store_seats(table, {**table.token_hashes, seat: token_hash(token)},
                                {**table.names, seat: name})
        self.release(table)
        return seat, token, name

    async def leave(self, table: Table, seat: int) -> None:
        """``DELETE /api/tables/{id}/seats/{seat}``: the seat is open again, its token stops
        working (its sockets are closed, 4010)."""
        self._seats_from_store(table)
        if seat not in table.token_hashes:                  # pragma: no cover - seat_of said so
            raise ApiError(409, f"seat {seat} is not taken", field="seat")
        await self._store_seats(table, {k: v for k, v in table.token_hashes.items() if k != seat},
                                {k: v for k, v in table.names.items() if k != seat})

    async def rematch_of(self, table: Table, seat: int | None,
                         client: str | None = None) -> Table | str:
        """``POST /api/tables/{id}/rematch``: the table's rematch, made once (a second ask,
        through any process, gets the same id): the same game, players, options, bots, clock,
        settings and seats (tokens, names, invite), a new committed seed. Returns the new
        table, or the id of one made before."""
        if seat is None:
            raise ApiError(401, "a rematch is asked for by a seat: give its token "
                                "(Authorization: Bearer T)")
        await table.settled()
        if not table.finished() or table.ended not in (None, "forfeit"):
            raise ApiError(409, "a rematch follows a finished match", event_count=table.event_count)
        self._seats_from_store(table)
        if table.rematch is not None:
            return table.rematch
        pending = self.rematching.get(table.id)
        if pending is not None:
            return await asyncio.shield(pending)
        done: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.rematching[table.id] = done
        try:
            game = table.game
            new, _ = await self.create(
                game.name, game.num_players, None, dict(game.options),
                {str(k): v for k, v in table.settings.bots.items()}, client=client,
                clock=None if table.clock is None else table.clock.spec.to_dict(),
                take_back=table.settings.takeback or None, inherit=table)
            winner = await self.write(self.writer.set_rematch, table.id, new.id)
            if winner is None:
                await self._delete([new.id])
                raise ApiError(404, "no such table")
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
        if seat is None or not self.store.shared or self.closing:
            return
        count = table.audience.count(seat)

        async def store() -> None:
            try:
                await self.write(self.writer.set_presence, table.id, seat, self.process_id,
                                 count)
            except ApiError:
                pass                               # logged; the heartbeat repairs it
        asyncio.get_running_loop().create_task(store())

    def presence_ttl(self) -> float:
        """Seconds a process's presence rows count without its heartbeat (one per sweep)."""
        return 3 * self.sweep_interval()

    def refresh_presence(self, table: Table) -> None:
        """The seats connected through other processes (their live rows), pushed if changed."""
        table.audience.elsewhere = self.store.connected_seats(
            table.id, time.time() - self.presence_ttl(), self.process_id)
        table.push_presence()

    async def _delete(self, table_ids: list[str]) -> None:
        held = [self.tables[i] for i in table_ids if i in self.tables]
        for table in held:
            table.end("deleted", WS_CLOSE["ended"], ApiError(410, "the table was deleted"))
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
        loop = asyncio.get_running_loop()
        abandoned = await loop.run_in_executor(self.executor, self.writer.abandon,
                                               now - self.limits.abandon_after)
        for table_id in abandoned:
            table = self.tables.get(table_id)
            if table is not None:
                table.end("abandoned", WS_CLOSE["ended"],
                          ApiError(409, ENDS_OUTSIDE_RULES["abandoned"]))
            log.info("table %s abandoned: no move by a person for %g s", table_id,
                     self.limits.abandon_after)
        self.abandoned += len(abandoned)
        self.check_against_store()
        self.take_up(now)
        expired = self.store.expired(now - self.limits.retention)
        if expired:
            await self._delete(expired)
        idle_since = time.monotonic() - IDLE_SECONDS
        for table in list(self.tables.values()):
            if table.idle() and (table.ended is not None or table.game.is_over
                                 or table.last_used < idle_since):
                del self.tables[table.id]

    def check_against_store(self) -> None:
        """The tables in memory against their rows: one the store has moved past (a change by
        ``cardcore admin``, or another process's notice lost while PostgreSQL restarted) is
        caught up, and seats changed there are read again. One query per sweep."""
        tables = [t for t in self.tables.values() if t.ended is None and not t.unstored]
        if not tables:
            return
        try:
            rows = self.store.generations([t.id for t in tables])
        except StoreUnavailable as e:                # read again at the next sweep
            log.warning("tables not checked against the store: %s", e)
            return
        loop = asyncio.get_running_loop()
        for table in tables:
            row = rows.get(table.id)
            if row is None or table.id in self.queued:
                continue                                # deleted (the sweep's own), or ours
            if row.token_hashes != table.token_hashes:
                stored = self.store.seats(table.id)
                if stored is not None:
                    table.set_seats(stored.token_hashes, stored.names)
            ended_there = (row.ended in ENDS_OUTSIDE_RULES or row.ended == "forfeit") \
                and row.ended != table.ended
            if row.actions > table.actions or row.rewinds > table.rewinds or ended_there:
                loop.create_task(self._catch_up_settled(table, None))

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
                if self.store.shared:
                    await self.sweep_presence()
            except Exception as e:                  # keep sweeping
                if failing is None:
                    log.error("the table sweep failed: %s (logged again once it works)", e)
                    failing = time.monotonic()
                continue
            if failing is not None:
                log.warning("the table sweep works again, after %.0f s of failures",
                            time.monotonic() - failing)
                failing = None

    async def sweep_presence(self) -> None:
        """The heartbeat of this process's presence rows; rows of a process that stopped
        (killed) expire after ``presence_ttl``, and the seats they held read away again."""
        cutoff = time.time() - self.presence_ttl()
        await self.write(self.writer.keep_presence, self.process_id)
        await self.write(self.writer.clear_presence, "", cutoff)
        for table in list(self.tables.values()):
            if table.audience.elsewhere:
                self.refresh_presence(table)

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

    def revive(self, stored: StoredTable) -> Table:
        game = load_game(stored.save)
        actions = len(json.loads(stored.save)["actions"])
        settings = TableSettings(
            stored.bots, stored.bot_seed, stored.takeback, stored.listed, stored.spectators,
            stored.join, creator_hash=stored.creator_hash, invite_hash=stored.invite_hash,
            fairness=None if stored.fairness is None else Fairness.from_json(stored.fairness),
            think_ms=self.limits.bot_think_ms)
        table = Room(self, stored.id, game, settings, stored.token_hashes, actions,
                      names=stored.names, record_keys=self.record_keys,
                      clock=None if stored.clock is None
                      else clocks.TableClock.from_json(stored.clock),
                      rewinds=stored.rewinds, rematch=stored.rematch)
        if stored.ended in ENDS_OUTSIDE_RULES or stored.ended == "forfeit":
            table.ended = stored.ended
        return table

    def resume_bots(self) -> None:
        """After a start: tables whose bots were to move carry on (and, with a shared
        store, the process starts following other processes' changes)."""
        try:
            self.listen()
        except RuntimeError:                            # no event loop: an embedding test
            pass
        self.take_up(None)

    def take_up(self, due: float | None) -> None:
        """Load the tables that move without a person (a bot to move; a clock running, due
        before ``due`` if given) and that no process serves: after a start, and at every
        sweep (a clock run out while its table was out of memory; with leases, the tables
        of a process that died)."""
        if self.leases is not None:
            ids = self.leases.orphans(math.inf if due is None else due)
        elif due is None:
            ids = self.store.ids_waiting_for_bots() + self.store.ids_with_clocks()
        else:
            ids = self.store.ids_with_clocks(due=due)
        for table_id in ids:
            if table_id in self.tables:
                continue
            try:
                if self.leases is not None:
                    self.leases.adopt(table_id)
                else:
                    self.get(table_id)
            except Exception as e:                      # one bad row must not stop the server
                log.error("table %s could not be loaded: %s", table_id, e)

    def list_tables(self, include_over: bool = False, limit: int = 100,
                    cursor: str | None = None) -> dict[str, Any]:
        """``GET /api/tables``: a page of ``limit`` tables, newest first, from ``cursor`` (the
        ``next`` of the page before); ``next`` is None on the last page."""
        rows = self.store.list_tables(include_over, limit + 1, _read_cursor(cursor))
        page, more = rows[:limit], len(rows) > limit
        elsewhere = self.store.connected_by_table(
            [r["table"] for r in page], time.time() - self.presence_ttl()) \
            if self.store.shared else {}
        for row in page:                 # each seat's presence, as a state would say it
            held = self.tables.get(row["table"])
            here = elsewhere.get(row["table"], set()) | (
                {c.seat for c in held.audience if c.seat is not None} if held else set())
            bots = {int(k): v for k, v in row["bots"].items()}
            taken = dict.fromkeys(row["human_seats"], "")
            row["presence"] = [seating.presence_of(k, bots, taken, here)
                               for k in range(row["players"])]
        last = page[-1] if page else None
        return {"tables": page,
                "next": _make_cursor(last["created"], last["table"]) if more and last else None}

    async def settled(self, table: Table) -> Table:
        """The table once nothing on it is waiting to be committed (reads call this)."""
        return await table.settled()

    async def record(self, table: Table) -> dict[str, Any]:
        """``GET /api/tables/{id}/record``: the match record, 409 before the match end."""
        await table.settled()
        if not table.finished() or table.ended not in (None, "forfeit"):
            raise ApiError(409, "the record is published when the match ends",
                           event_count=table.event_count)
        return table.record()

    async def review(self, table: Table, seat: int) -> dict[str, Any]:
        """``GET /api/tables/{id}/review?seat=S``: the review of ``seat``'s decisions
        (cardcore.review: the level-5 search from the seat's information only, at most
        ``REVIEW_ITERATIONS`` per decision), once the match ended like its record; computed
        in the bot pool once per table and seat (kept for ``REVIEWS_KEPT`` reviews), at most
        one new review per table per ``1 / hint_rate`` seconds (429 past it)."""
        from cardcore.review import review as review_of
        await table.settled()
        if not table.finished() or table.ended not in (None, "forfeit"):
            raise ApiError(409, "the review is published when the match ends",
                           event_count=table.event_count)
        if not 0 <= seat < table.game.num_players:
            raise ApiError(400, f"seat must be an int 0..{table.game.num_players - 1}")
        key = (table.id, seat)
        done = self.reviews.get(key)
        if done is None:
            wait = self.hints.take(f"{table.id}:review", time.monotonic())
            if wait:
                self.refused("hint_rate")
                raise ApiError(429, f"at most {self.limits.hint_rate:g} new reviews per "
                                    f"second per table", retry_after=math.ceil(wait))
            copy = table.game.clone()
            done = await asyncio.get_running_loop().run_in_executor(
                self.bot_pool, functools.partial(review_of, copy, seat, level=HINT_LEVEL,
                                                 iterations=REVIEW_ITERATIONS))
            self.reviews[key] = done
            while len(self.reviews) > REVIEWS_KEPT:
                self.reviews.popitem(last=False)
        return {"table": table.id, **done}

    # ---------------------------------------------------------------- actions
    async def hint(self, table: Table, seat: int | None) -> dict[str, Any]:
        """``GET /api/tables/{id}/hint``: the best moves for ``seat``, the seat to move, from
        the level-5 search of the game on a copy of the table (the seat's information only),
        computed in the bot pool within the server's think budget. 403 for a spectator, 409
        when it is not the seat's turn, 429 (with ``retry_after``) past ``hint_rate``."""
        if seat is None:
            raise ApiError(403, "hints are for a seat: give its token")
        if table.game.is_over or table.game.current_player != seat:
            raise ApiError(409, "hints are for the seat to move, at its turn")
        wait = self.hints.take(f"{table.id}:{seat}", time.monotonic())
        if wait:
            self.refused("hint_rate")
            raise ApiError(429, f"at most {self.limits.hint_rate:g} hints per second per seat",
                           retry_after=math.ceil(wait))
        await table.settled()
        copy = table.game.clone()
        advisor, _ = table_bot(f"level:{HINT_LEVEL}", table.game.name,
                               self.limits.bot_think_ms, secrets.randbits(63))
        hints = await asyncio.get_running_loop().run_in_executor(
            self.bot_pool, functools.partial(advisor.suggest, copy, seat=seat, top=HINT_TOP))
        return {"seat": seat, "moves": table.actions, "level": HINT_LEVEL,
                "hints": [{"action": h["action"].id, "label": str(h["action"]),
                           "estimate": round(h["estimate"], 4), "visits": h["visits"]}
                          for h in hints]}

    async def act(self, table: Table, seat: int, action: Any, after: Any,
                  cards: Any = None) -> None:
        """One action for ``seat``, routed to its room (``Room.act``)."""
        await table.act(seat, action, after, cards)

    async def take_back(self, table: Table, seat: int, after: Any) -> None:
        """Undo ``seat``'s last move and every move after it (docs/server.md, "Take-backs"):
        bots stopped, the table settled, the shorter log replayed on a fresh game, stored
        (compare-and-set on the count and the generation), then put in place and pushed."""
        table.check_takeback(after)
        if table.rewinding:
            raise ApiError(409, "a take-back at this table is under way; look again",
                           event_count=table.event_count)
        table.rewinding = True                      # bot_to_move() is None meanwhile
        try:
            if table.clock_task is not None:        # the clock of the undone turn stops
                table.clock_task.cancel()
                table.clock_task = None
            runner = table.runner
            if runner is not None and runner is not asyncio.current_task():
                runner.cancel()
                try:
                    await runner
                except BaseException:
                    pass
            await table.settled()
            table.check_takeback(None)
            cut = table.movers.last_move_of(table.game, seat)
            if cut is None:
                raise ApiError(409, "you have no move to take back yet",
                               event_count=table.event_count)
            game = fresh_game(table.game)
            chosen = table.game.chosen_cards()
            for index, action in enumerate(table.game.action_log()[:cut]):
                game.apply(action, cards=chosen.get(index))
            clock = rewound_clock(table.clock, game, seat, cut)
            update = TableUpdate(table_id=table.id, first=cut, new_actions=[],
                                 current_player=game.current_player, over=False,
                                 save=game.to_json(), human=True,
                                 clock=None if clock is None else clock.to_json(),
                                 deadline=None if clock is None else clock.deadline,
                                 rewinds=table.rewinds, owner=self.lease_owner)
            generation = table.rewinds
            table.unstored += 1                     # readers (and catch-ups) wait for it
            table.stored.clear()
            try:
                done = await self.write(self.writer.rewind, update, table.actions)
            finally:
                table.unstored -= 1
                if not table.unstored:
                    table.stored.set()
            if not done:                                  # another process moved it meanwhile
                self.lost_or_refresh(table)
                raise ApiError(409, "the table moved on meanwhile (a move made through another "
                                    "server process); look again", event_count=table.event_count)
            table.install(game, cut, generation + 1)
            table.clock = clock
            # The undone moves' timeouts are forgotten; the sockets were told of the rest.
            table.timeouts_pushed = 0 if clock is None else len(clock.timeouts)
        finally:
            table.rewinding = False
            table.schedule_bots()             # and the clock of the turn now to move
        table.notify()

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
                for table, done in waiting:
                    table.unstored -= 1
                    if failed is not None:
                        self._forget(table)
                    if not table.unstored:
                        table.stored.set()
                    if done.done():
                        continue    # its request was cancelled (the client went away)
                    if failed is not None:
                        done.set_exception(ApiError(503, "storage failed: the action was not "
                                                         "accepted"))
                    elif table.id in stale:
                        done.set_exception(ApiError(409, "the table moved on meanwhile (a "
                                                         "move made through another server "
                                                         "process); look again"))
                    else:
                        done.set_result(None)
                for table in {t.id: t for t, _ in waiting if t.id in stale}.values():
                    table.diverged = True                   # reloaded whole, now or later
                    if not table.unstored:
                        try:
                            self.lost_or_refresh(table)
                        except StoreUnavailable as e:       # reloaded on next use
                            log.error("table %s could not be refreshed: %s", table.id, e)
                            self._forget(table)
        finally:
            self.flushing = False

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
            connection.push_error(ApiError(503, "storage failed; reconnect"))
            connection.close_code = WS_CLOSE["storage"]

    # ---------------------------------------------------------------- several processes
    def listen(self) -> None:
        """With a shared store (PostgreSQL), follow the tables other processes change: each
        notice reaches ``on_store_change`` in the event loop."""
        if not self.store.shared or self.listener is not None:
            return
        from cardcore.server.pg_store import Listener
        loop = asyncio.get_running_loop()

        def deliver(table_id: str | None, what: str) -> None:
            try:
                loop.call_soon_threadsafe(self.on_store_change, table_id, what)
            except RuntimeError:                     # the loop has closed: shutting down
                pass
        self.listener = Listener(self.store.path, deliver)

    def on_store_change(self, table_id: str | None, what: str) -> None:
        """A notice: ``table_id`` now has ``what`` actions stored, or has ended ("ended");
        None: notices may have been lost, every table in memory is checked."""
        if self.closing:
            return
        tables = list(self.tables.values()) if table_id is None \
            else [self.tables[table_id]] if table_id in self.tables else []
        if what.startswith("wanted:"):                 # another process asks for it
            if self.leases is not None and table_id is not None \
                    and what[7:] != self.process_id:
                self.leases.on_wanted(table_id)
            return
        for table in tables:
            try:
                if what in ("seats", "rematch"):
                    self._seats_from_store(table)
                    continue
                if what == "presence" or table_id is None:
                    self.refresh_presence(table)
                    if what == "presence":
                        continue
            except StoreUnavailable as e:           # read again at the next notice or sweep
                log.warning("table %s: seats not refreshed: %s", table.id, e)
                continue
            if table.ended is not None:
                continue
            if what.startswith("rewound:"):     # a take-back: generation N of the log
                if not what[8:].isdigit() or int(what[8:]) <= table.rewinds:
                    continue                    # this process's own, or one already loaded
                table.diverged = True           # the count says nothing now: load it whole
            if table_id is not None and what.isdigit() and int(what) <= table.actions:
                continue                # this process's own commit, or one already loaded
            count = int(what) if table_id is not None and what.isdigit() else None
            asyncio.get_running_loop().create_task(self._catch_up_settled(table, count))

    async def _catch_up_settled(self, table: Table, count: int | None) -> None:
        """``catch_up`` once the table's own commits in flight are done (one of them may
        have reached the store before the notice that beat it here)."""
        try:
            await table.settled()
            if count is not None and count <= table.actions:
                return                               # caught up meanwhile
            self.catch_up(table, None if count is None else Progress(count, None))
        except ApiError:
            pass                                     # storage failed: the table reloads
        except Exception as e:                       # pragma: no cover - the store is down
            log.error("table %s could not be refreshed: %s", table.id, e)

    def catch_up(self, table: Table, stored: Progress | None = None) -> None:
        """Refresh ``table`` if the store is ahead of it (another process moved or ended it):
        the new actions applied from their rows when it can, else loaded whole. ``stored``:
        the store's action count and end if known (a notice's), else read."""
        if table.unstored:
            return
        if stored is None:
            generation = self.store.generation(table.id)
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
            new = self.store.actions_since(table.id, table.actions, stored.actions)
        if stored is None or new is None:
            self.refresh(table)
            return
        for action in new:
            table.game.apply(action)
        if table.clock is not None:                  # the turn the committer timed
            clocks.adopt(table, self.store.clock_of(table.id))
        table.actions = table.queued_actions = stored.actions
        table.advanced_at = time.monotonic()
        table.count_events()
        table.notify()
        table.schedule_bots()

    def refresh(self, table: Table) -> None:
        """Load ``table`` from the store again, in place (its sockets stay bound to it), and
        push the new state to them."""
        stored = self.store.load(table.id)
        if stored is None:
            table.end("deleted", WS_CLOSE["ended"], ApiError(410, "the table was deleted"))
            if self.tables.get(table.id) is table:
                del self.tables[table.id]
            return
        fresh = self.revive(stored)
        if fresh.rewinds != table.rewinds:               # rewound elsewhere: its clock too
            table.clock = fresh.clock
        for name in ("game", "bot_players", "searching", "actions", "queued_actions",
                     "checkpoint_at", "event_count", "advanced_at", "rewinds"):
            setattr(table, name, getattr(fresh, name))
        table.set_seats(fresh.token_hashes, fresh.names)
        if fresh.rematch is not None:
            table.announce_rematch(fresh.rematch)
        table.diverged = False
        self.reloads += 1
        clocks.adopt(table, fresh.clock)
        if "forfeit" in (fresh.ended, table.ended):    # a forfeit stored, or ours refused
            table.ended = fresh.ended
        if fresh.ended in ENDS_OUTSIDE_RULES and table.ended is None:
            table.end(fresh.ended, WS_CLOSE["ended"],
                      ApiError(409, ENDS_OUTSIDE_RULES[fresh.ended]))
        table.notify()
        table.schedule_bots()

    async def close(self) -> None:
        self.closing = True
        if self.listener is not None:
            self.listener.close()
        if self.store.shared:
            try:
                await self.write(self.writer.clear_presence, self.process_id)
            except ApiError:
                pass                                # the rows expire by themselves
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
        if self.leases is not None:                 # the tables go to the others at once
            await self.leases.close()
        self.executor.shutdown(wait=True)
        self.bot_pool.shutdown(wait=True, cancel_futures=True)
        self.store.close()
        self.writer.close()


def games_catalogue(extra: Mapping[str, Sequence[str]] | None = None) -> list[dict[str, Any]]:
    """``GET /api/games``: each game, its title, what it calls a round (and so the kind of
    its round-end event), its player counts and options (as ``cardcore games``): each
    option's JSON Schema fragment (``Game.option_schema``) and description, and its
    ``default`` and ``doc`` as in 0.3 (until 0.5.0: docs/deprecations.md)."""
    out = []
    for name in available_games():
        cls = game_class(name)
        schemas = cls.option_schema()
        out.append({
            "game": name,
            "title": cls.title,
            "round_name": cls.round_name,
            "round_end_event": cls.round_end_event,
            "min_players": cls.min_players,
            "max_players": cls.max_players,
            "default_players": cls.default_players,
            "options": {k: {"schema": _jsonable(schemas[k]), "description": o.doc,
                            "default": _jsonable(o.default), "doc": o.doc}
                        for k, o in cls.options_spec.items()},
            "bots": table_bots(name, (extra or {}).get(name, ())),
        })
    return out


def _make_cursor(created: float, table_id: str) -> str:
    """An opaque page cursor: the (created, id) of a page's last table, base64url."""
    return base64.urlsafe_b64encode(f"{created!r}|{table_id}".encode()).decode().rstrip("=")


def _read_cursor(cursor: str | None) -> tuple[float, str] | None:
    if cursor is None:
        return None
    try:
        if not 0 < len(cursor) <= 120:
            raise ValueError
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        created, table_id = text.split("|", 1)
        value = float(created)
        if not math.isfinite(value) or not table_id:
            raise ValueError
        return value, table_id
    except ValueError:                    # binascii.Error and UnicodeDecodeError are ValueErrors
        raise ApiError(400, "cursor must be the 'next' of a page of GET /api/tables") from None


def _jsonable(value: Any) -> Any:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)
    return value
