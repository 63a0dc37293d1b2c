"""The tables of a server: games in memory, seats and tokens, bots, and what each seat is told.

This module knows nothing of HTTP: ``app.py`` turns requests into calls here and ``ApiError``
into answers. Everything runs in the server's one event-loop thread, so a table changes in
one synchronous step (check, apply, commit) that nothing can interleave with.

What leaves the server is built in one place, ``Table.state``: the seat's ``view``, its
``events`` and its ``legal`` moves, or the spectator's public version. Saves, seeds and
tokens never appear there.
"""
from __future__ import annotations

import asyncio
import base64
import functools
import hashlib
import hmac
import json
import logging
import math
import secrets
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from collections.abc import Sequence
from typing import Any, Callable, Mapping

from cardcore.bots import Bot
from cardcore.errors import ConfigError, IllegalActionError, Words, echo
from cardcore.game import MAX_ACTION_TEXT, MAX_CHOSEN_CARDS, NOTATION_RULE, Game, is_int
from cardcore.records import Fairness, check_client_seed, forfeit_winners, make_record
from cardcore.i18n import _, use
from cardcore.registry import available_games, game_class, load_game, new_game
from cardcore.server import clocks
from cardcore.server import seats as seating
from cardcore.server.api_errors import (ApiError, BadCredential, check_after, log_store_error,
                                        unavailable)
from cardcore.server.audience import Audience
from cardcore.server.sockets import Connection
from cardcore.server.table_settings import TableSettings
from cardcore.server.table_bots import (FALLBACK_BOT, MAX_DETAIL, BotFallback, failure_reason,
                                        is_plugin, offered_bots, parse_bots, table_bot,
                                        table_bots)
from cardcore.server.takeback import OPTION as TAKEBACK_OPTION
from cardcore.server.messages import (HINT_RATE, NOT_AN_OPTION, NOT_YOUR_TURN, STALE_ACTION,
                                      STALE_TAKEBACK)
from cardcore.server.takeback import (Movers, TakebackError, fresh_game, parse_takeback,
                                      rewound_clock)
from cardcore.server.leases import MOVED, Leases
from cardcore.server.limits import WS_CLOSE, Limits, RateBuckets
from cardcore.server.metrics import Metrics
from cardcore.server.record_keys import RecordKeys
from cardcore.server.storage import open_store
from cardcore.server.store import (CHECKPOINT_EVERY, Progress, SeatRow, StoredTable,
                                   StoreUnavailable, TableUpdate)
from cardcore.simulation import bot_seed

__all__ = ["Table", "TableServer", "spectator_view", "seat_events", "new_token",
           "token_hash", "MAX_TOKEN_TEXT"]

log = logging.getLogger("cardcore.server")

TOKEN_BYTES = 24            # 192 random bits per seat token
TABLE_ID_BYTES = 9          # 72 bits: table ids are public, they only need to be unique
MAX_TOKEN_TEXT = 100        # longer "tokens" are refused before hashing
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
# Tables that end outside the rules and stay stored (a deleted one is gone): the 409 each
# answers a move with, and what its sockets are told before they close.
ENDS_OUTSIDE_RULES = {"abandoned": "the table was abandoned: nobody moved for too long",
                      "closed": "the table was closed by the server's operator"}

# View keys that belong to the seat that asked; the spectator's view blanks them.


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_table_id() -> str:
    """A fresh table id (72 random bits, URL-safe) that does not start with "-": a command
    line (``cardcore admin end ID``) would read such an id as an option."""
    while True:
        table_id = secrets.token_urlsafe(TABLE_ID_BYTES)
        if not table_id.startswith("-"):
            return table_id


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def seat_events(game: Game, seat: int | None, since: int, lang: str = "en"
                ) -> list[dict[str, Any]]:
    """The events ``seat`` may see (None: a spectator), from index ``since``, their texts in
    ``lang``: the one place the server reads events (``Game.events``)."""
    return game.events(seat, since, lang)


def zone_descriptors(game: Game, lang: str) -> list[dict[str, Any]]:
    """The table's zones (``game.zones``: id, kind, owner, team) with their labels in
    ``lang``, for a UI that lays the table out from them (docs/building-a-ui.md)."""
    with use(lang, game):
        return [{**zone, "label": _(zone["label"])} for zone in game.zones]


def spectator_view(game: Game) -> dict[str, Any]:
    """The public view: ``game.view(None)``, a seat's keys with those about one seat null,
    every hidden zone a count (api.md, "Views")."""
    return game.view(None)


@dataclass
class Table:
    """A table in memory: its game and what changes in play (the log's length, commits under
    way, bots, clock, take-backs), beside what it was created with (``settings``) and its
    sockets (``audience``)."""

    id: str
    game: Game
    settings: TableSettings
    token_hashes: dict[int, str]                   # seat -> its token's hash: taken seats
    actions: int                                   # length of the action log
    names: dict[int, str] = field(default_factory=dict)   # display names (seats.py)
    audience: Audience = field(default_factory=Audience)
    bot_players: dict[int, Bot] = field(default_factory=dict)
    event_count: int = 0
    runner: asyncio.Task[None] | None = None
    broken: bool = False                           # a failed commit: reload before use
    moved: bool = False             # handed to another process (leases.py): no moves here
    unstored: int = 0                              # commits queued and not yet done
    stored: asyncio.Event = field(default_factory=asyncio.Event)
    queued_actions: int = -1                       # actions in the database or queued for it
    checkpoint_at: int = -1                        # log length of the last whole save queued
    ended: str | None = None        # ENDS_OUTSIDE_RULES, "forfeit" or "deleted" (not the rules')
    last_used: float = 0.0                         # monotonic time of the last request
    # The last record made (what it was made from, the record): a finished match's record
    # names every card (~1 s of a long match), so it is made once, not at every request.
    record_made: tuple[Any, dict[str, Any]] | None = None
    human_moved: bool = False                      # a person moved since the last commit
    creator_token: str | None = field(default=None, repr=False)  # at creation only
    advanced_at: float = 0.0                       # monotonic time of the last action
    searching: set[int] = field(default_factory=set)   # bot seats that search (a worker thread)
    plugins: set[int] = field(default_factory=set)     # bot seats that are plug-ins
    # Plug-in seats played by the fallback bot since their plug-in failed (kept in memory:
    # after a reload the plug-in is tried again), each seat's fallback bot, and the
    # fallbacks the sockets have not been told of yet (pushed by notify()).
    fallbacks: dict[int, BotFallback] = field(default_factory=dict)
    fallback_players: dict[int, Bot] = field(default_factory=dict)
    fallback_notices: list[BotFallback] = field(default_factory=list)
    stalled: bool = False                          # the watchdog's verdict
    clock: clocks.TableClock | None = None         # the turn clock (clocks.py)
    clock_task: asyncio.Task[None] | None = None   # the timer of the turn being timed
    timeouts_pushed: int = -1                      # clock timeouts its sockets were told of
    record_keys: RecordKeys | None = field(default=None, repr=False)   # sign records
    diverged: bool = False                         # holds a move the store refused (stale)
    rewinds: int = 0                               # take-backs so far: the log's generation
    rewinding: bool = False                        # a take-back is under way (bots wait)
    movers: Movers = field(default_factory=Movers)   # who made each move
    rematch: str | None = None                     # the rematch table's id, once asked for
    invite: str | None = field(default=None, repr=False)   # at creation only
    zones_memo: tuple[Game, tuple[Any, ...], list[dict[str, Any]]] | None = field(
        default=None, repr=False)                  # zones_in's last answer
    # With a shared store: re-reads the seats (a token claimed through another process).
    reload_seats: Callable[[], None] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.stored.set()
        self.queued_actions = self.checkpoint_at = self.actions
        self._make_bots()
        self.event_count = self.game.event_count()
        self.last_used = self.advanced_at = time.monotonic()
        if self.timeouts_pushed < 0:
            self.timeouts_pushed = 0 if self.clock is None else len(self.clock.timeouts)
        self.audience.presence = self.presences()

    def _make_bots(self) -> None:
        """The bot of each bot seat, seeded for the log's length (as after a reload)."""
        self.bot_players = {}
        self.searching = set()
        self.plugins = set()
        settings = self.settings
        for seat, name in settings.bots.items():
            seed = bot_seed(settings.bot_seed, self.actions, seat)
            bot, searches = table_bot(name, self.game.name, settings.think_ms, seed)
            if searches:                                    # a search bot: budgeted, off-loop
                self.searching.add(seat)
            if is_plugin(name):
                self.plugins.add(seat)
            self.bot_players[seat] = bot
        self.fallback_players = {
            seat: table_bot(FALLBACK_BOT, self.game.name, None,
                            bot_seed(settings.bot_seed, self.actions, seat))[0]
            for seat in self.fallbacks}

    def fall_back(self, seat: int, error: BaseException) -> BotFallback:
        """The plug-in of ``seat`` failed for good: ``FALLBACK_BOT`` plays the seat from now
        on, and every socket is told with the next push."""
        fallback = BotFallback(seat, self.settings.bots[seat], failure_reason(error),
                               str(error)[:MAX_DETAIL] or type(error).__name__, self.actions)
        self.fallbacks[seat] = fallback
        self.fallback_players[seat] = table_bot(
            FALLBACK_BOT, self.game.name, None,
            bot_seed(self.settings.bot_seed, self.actions, seat))[0]
        self.fallback_notices.append(fallback)
        return fallback

    def install(self, game: Game, actions: int, rewinds: int) -> None:
        """Put a rewound game in place (a take-back, stored): its log of ``actions`` moves is
        generation ``rewinds``; the bots start afresh and the events are counted again."""
        self.game = game
        self.actions = self.queued_actions = self.checkpoint_at = actions
        self.rewinds = rewinds
        self._make_bots()
        self.event_count = game.event_count()
        self.advanced_at = time.monotonic()

    # ---------------------------------------------------------------- who is asking
    def seat_of(self, token: str | None, reload: bool = True) -> int | None:
        """The seat a token acts for, None without a token; BadCredential (403) for a bad
        token. Every seat's hash is compared (in constant time), whichever matches. A miss
        re-reads the seats (``reload``) when another process may have changed them: a
        blocking read; on the event loop use ``TableServer.seat_for``."""
        if token is None:
            return None
        if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN_TEXT:
            raise BadCredential("bad token")
        digest = token_hash(token)
        for attempt in range(2):
            found = None
            for seat, stored in self.token_hashes.items():
                if hmac.compare_digest(digest, stored):
                    found = seat
            if found is not None:
                return found
            if attempt or self.reload_seats is None or not reload:
                break
            self.reload_seats()                  # claimed through another process just now?
        raise BadCredential("bad token: it is not a token of this table")

    # ---------------------------------------------------------------- what a seat is told
    def state(self, seat: int | None, since: int = 0, lang: str = "en") -> dict[str, Any]:
        """What ``seat`` is told (None: a spectator), its events from ``since`` with their
        texts in ``lang`` (the reader's: server.md, "Texts")."""
        game = self.game
        if not 0 <= since <= self.event_count:
            raise ApiError(400, f"since must be 0..{self.event_count}, not {since}")
        to_move = game.current_player
        legal = ([a.to_dict() for a in game.legal_actions()]
                 if seat is not None and to_move == seat else [])
        return {
            "table": self.id,
            "game": game.name,
            "seat": seat,
            "view": game.view(seat) if seat is not None else spectator_view(game),
            "events": seat_events(game, seat, since, lang),
            "zones": self.zones_in(lang),
            "wild_cards": game.wild_cards,
            "lang": lang,
            "event_count": self.event_count,
            "legal": legal,
            "over": game.is_over or self.ended is not None,
            "ended": self.ended or ("over" if game.is_over else None),
            "scores": game.scores,
            "winners": game.winners,
            "current_player": to_move,
            "players": game.num_players,
            "seats": self.seat_list(),
            "options": game.options,
            "listed": self.settings.listed, "spectators": self.settings.spectators,
            "join": self.settings.join, "rematch": self.rematch,
            "fairness": None if self.settings.fairness is None
            else self.settings.fairness.public(),
            "clock": None if self.clock is None else self.clock.public(time.time()),
            "forfeit": None if self.clock is None else self.clock.forfeit,
            "takeback": self.takeback_state(seat),
            **({"winners": self.final_winners()} if self.ended == "forfeit" else {}),
        }

    def zones_in(self, lang: str) -> list[dict[str, Any]]:
        """``zone_descriptors`` built once per position and language, not once per seat
        (every seat's push after a move reads them); shared: callers must not change it."""
        key = (id(self.game), self.actions, self.rewinds, self.event_count, lang)
        memo = self.zones_memo
        if memo is None or memo[0] is not self.game or memo[1] != key:
            memo = self.zones_memo = (self.game, key, zone_descriptors(self.game, lang))
        return memo[2]

    def takeback_state(self, seat: int | None) -> dict[str, Any] | None:
        """None at a table without take-backs; else how many there were (``rewinds``: a
        client that sees it change drops its events) and whether ``seat`` may take one now."""
        if not self.settings.takeback:
            return None
        able = seat is not None and seat in self.token_hashes and self.ended is None \
            and not self.game.is_over and self.movers.last_move_of(self.game, seat) is not None
        return {"rewinds": self.rewinds, "available": able}

    # ---------------------------------------------------------------- seats and presence
    def people(self) -> bool:
        """Some seat is a person's (taken or open): bots then move inline, as after an
        action; a table of bots only plays in the background."""
        return len(self.settings.bots) < self.game.num_players

    def open_seats(self) -> list[int]:
        return [k for k in range(self.game.num_players)
                if k not in self.settings.bots and k not in self.token_hashes]

    def presences(self) -> list[str]:
        here = self.audience.seats_present()
        return [seating.presence_of(k, self.settings.bots, self.token_hashes, here)
                for k in range(self.game.num_players)]

    def seat_list(self) -> list[dict[str, Any]]:
        fallbacks = self.fallbacks
        return [{"seat": k, "bot": self.settings.bots.get(k), "name": self.names.get(k),
                 "presence": p,
                 "fallback": fallbacks[k].public() if k in fallbacks else None}
                for k, p in enumerate(self.presences())]

    def push_presence(self, cause: Connection | None = None) -> None:
        """After a socket came or went, or a seat was claimed or left: a ``presence`` message
        for each seat whose presence changed, to every socket that asked for them
        (``?presence=1``) but ``cause`` (the socket that came: its first state shows it).
        States carry every seat's presence too."""
        self.audience.push_presence(self.presences(), self.names, cause)

    def set_seats(self, token_hashes: dict[int, str], names: dict[int, str]) -> None:
        """New seat holders (a claim or a leave, here or in another process): the sockets of
        a seat whose token changed are told and closed (their token no longer works)."""
        for seat in range(self.game.num_players):
            if token_hashes.get(seat) != self.token_hashes.get(seat):
                self.audience.close_seat(seat, ApiError(403, f"seat {seat} was left: its token "
                                                             "no longer works"),
                                         WS_CLOSE["left"])
        changed = (token_hashes, names) != (self.token_hashes, self.names)
        self.token_hashes, self.names = token_hashes, names
        self.push_presence()
        if changed:
            self.notify()

    def announce_rematch(self, rematch: str) -> None:
        """The rematch table is known: a state saying so, then a ``rematch`` message, to every
        socket (once)."""
        if self.rematch == rematch:
            return
        self.rematch = rematch
        self.audience.tell_later({"type": "rematch", "table": rematch})

    # ---------------------------------------------------------------- clocks and records
    def finished(self) -> bool:
        """The match ended by the rules or by a forfeit: its record is published."""
        return self.game.is_over or self.ended == "forfeit"

    def final_winners(self) -> list[int]:
        if self.ended == "forfeit" and self.clock is not None and self.clock.forfeit is not None:
            return forfeit_winners(self.game, self.clock.forfeit)
        return self.game.winners

    def clock_update(self, moves: int) -> tuple[str | None, float | None]:
        """Arm the clock for the position about to be committed (a person's turn is timed,
        a bot's or an ended table's is not); what the store keeps of it."""
        if self.clock is None:
            return None, None
        seat = self.game.current_player
        timed = self.ended is None and not self.game.is_over and seat is not None \
            and seat not in self.settings.bots
        self.clock.arm(seat if timed else None, moves, time.time())
        return self.clock.to_json(), self.clock.deadline

    def offer_record(self, connection: Connection) -> None:
        """Push the match record to a socket once, right after the state that ends the match
        (or its first state, connected later)."""
        recorded = self.audience.recorded
        if self.finished() and connection not in recorded and not self.broken:
            recorded.add(connection)
            connection.push({"type": "record", "record": self.record()}, later=True)
            connection.notify()

    def record(self) -> dict[str, Any]:
        """The match record (records.py), signed with the server's record key if it has
        one; only once the match has ended."""
        clock = self.clock
        key = None if self.record_keys is None else self.record_keys.current()
        names = [str(self.names.get(k) or self.settings.bots.get(k) or f"Seat {k}")
                 for k in range(self.game.num_players)]
        made_from = (key, names, self.ended, self.actions)
        if self.record_made is not None and self.record_made[0] == made_from:
            return self.record_made[1]
        record = make_record(self.game, table=self.id, fairness=self.settings.fairness,
                             ended="forfeit" if self.ended == "forfeit" else "over",
                             forfeit=None if clock is None else clock.forfeit,
                             timeouts=None if clock is None else clock.timeouts,
                             key=key, names=names)
        self.record_made = (made_from, record)
        return record

    # ---------------------------------------------------------------- changes
    def check_turn(self, seat: int, after: int | None) -> None:
        game = self.game
        if self.ended == "deleted":
            raise ApiError(404, "no such table")
        if self.ended in ENDS_OUTSIDE_RULES:
            raise ApiError(409, ENDS_OUTSIDE_RULES[self.ended], event_count=self.event_count)
        if self.ended == "forfeit":
            raise ApiError(409, "the match is over: a seat forfeited on time",
                           event_count=self.event_count)
        if game.is_over:
            raise ApiError(409, "the match is over", event_count=self.event_count)
        if game.current_player != seat:
            mover = game.current_player                 # not None: the match is on
            raise ApiError(409, Words(NOT_YOUR_TURN, {"seat": -1 if mover is None else mover,
                                                      "other": seat}),
                           event_count=self.event_count)
        if after is not None and after != self.event_count:
            raise ApiError(409, Words(STALE_ACTION, {"after": after, "count": self.event_count}),
                           code="stale", event_count=self.event_count)

    def check_takeback(self, after: Any) -> None:
        """What a take-back needs (takeback.py), or the ApiError naming what is missing."""
        if not self.settings.takeback:
            raise ApiError(409, "this table has no take-backs (create it with \"takeback\": "
                                "true)", option=TAKEBACK_OPTION)
        check_after(after)
        if self.ended == "deleted":
            raise ApiError(404, "no such table")
        if self.ended is not None or self.game.is_over:
            raise ApiError(409, "the match is over: its moves are final",
                           event_count=self.event_count)
        if self.broken:
            raise ApiError(503, "storage failed; try again")
        if self.moved:
            raise ApiError(503, MOVED, retry_after=1)
        if after is not None and after != self.event_count:
            raise ApiError(409, Words(STALE_TAKEBACK, {"after": after,
                                                       "count": self.event_count}),
                           code="stale", event_count=self.event_count)

    def apply(self, seat: int, action: int | str, cards: list[str] | None = None) -> None:
        """Apply one action for ``seat`` (already checked to be the seat to move), taking
        exactly ``cards`` from the hand when given (``Game.apply``'s ``cards``)."""
        try:
            self.game.apply(action, player=seat, cards=cards)
        except IllegalActionError as e:
            raise ApiError.illegal(e) from None
        self.actions += 1
        self.advanced_at = time.monotonic()

    def bot_to_move(self) -> int | None:
        if self.ended is not None or self.rewinding:
            return None
        seat = self.game.current_player
        return seat if seat is not None and seat in self.settings.bots else None

    def count_events(self) -> None:
        # Counted, not rendered: a spectator's words would be made for no reader.
        self.event_count = self.game.event_count()

    def notify(self) -> None:
        notices, self.fallback_notices = self.fallback_notices, []
        for connection in self.audience:
            connection.notify()
            for fallback in notices:             # after the state that shows it, once
                connection.push(fallback.notice(connection.lang), later=True)
            self.offer_record(connection)

    @property
    def serving(self) -> bool:
        """Its moves, bots and clock run here: not broken by a failed commit, not moved."""
        return not self.broken and not self.moved

    def idle(self) -> bool:
        """Nothing holds it in memory: no socket, no bot running, nothing uncommitted, no
        clock running."""
        return not self.audience.sockets and self.runner is None and not self.unstored \
            and self.clock_task is None

    def end(self, how: str, code: int, error: ApiError) -> None:
        """The table ends outside the rules (abandoned, deleted): sockets told and closed."""
        self.ended = how
        self.stop(code, error)

    def stop(self, code: int, error: ApiError) -> None:
        """Its bots and clock stop here; its sockets are told ``error`` and closed."""
        if self.runner is not None:
            self.runner.cancel()
        if self.clock_task is not None:
            self.clock_task.cancel()
        self.audience.close(error, code)


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
            raise ApiError(422, Words(NOT_AN_OPTION, {"name": repr(clash[0])}), option=clash[0])
        try:
            clock_spec = clocks.parse_clock(clock)
        except clocks.ClockError as e:
            raise ApiError.config(e, e.option) from None
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
            raise ApiError.config(e, TAKEBACK_OPTION if isinstance(e, TakebackError)
                                  else e.option) from None
        except (TypeError, ValueError, OverflowError) as e:
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
        table = Table(table_id, g, settings_of, hashes, 0, names=named,
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
            await self.play_bots(table)
            table.count_events()
            await self.commit(table)
        self.schedule_bots(table)
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
        self.schedule_bots(table)
        return table

    async def bot_move(self, table: Table) -> bool:
        """One bot move at ``table``, timed and counted. A search bot thinks in a worker
        thread, on a copy of the game (the core releases the GIL while it searches), so the
        event loop and every other table carry on; quick bots (random, greedy) answer inline.
        False when the table changed meanwhile (ended, broken) and nothing was played."""
        seat = table.bot_to_move()
        if seat is None:
            return False
        bot = table.bot_players[seat]
        game = table.game                   # a refresh (another process moved) replaces it
        start = time.perf_counter()
        if seat in table.fallbacks:
            action = table.fallback_players[seat].choose_id(table.game)
        elif seat in table.plugins:
            action = await self.plugin_move(table, seat, bot)
        elif seat in table.searching:
            copy = table.game.clone()
            action = await asyncio.get_running_loop().run_in_executor(
                self.bot_pool, bot.choose_id, copy)
        else:
            action = bot.choose_id(table.game)
        took = time.perf_counter() - start
        self.metrics.bot_seconds.observe(took)
        budget = self.limits.bot_think_ms / 1000
        if took > 2 * budget + 0.1:
            log.warning("table %s: bot %s took %.2f s for one move (budget %.2f s)",
                        table.id, table.settings.bots[seat], took, budget)
        if table.ended is not None or not table.serving or table.bot_to_move() != seat \
                or table.game is not game:
            return False
        table.game.apply(action, player=seat)
        table.actions += 1
        table.advanced_at = time.monotonic()
        self.metrics.actions.labels("bot").inc()
        return True

    async def plugin_move(self, table: Table, seat: int, bot: Bot) -> int:
        """A plug-in's move, thought in the bot pool on a copy of the game. A plug-in that
        raises or chooses an illegal move is asked once more; after a second failure, or a
        move not chosen within ``bot_timeout`` seconds (not retried: the thread stays busy),
        the seat falls back to ``FALLBACK_BOT`` for the rest of the match, told to every
        seat and counted (docs/server.md, "Bots")."""
        loop = asyncio.get_running_loop()
        failure: BaseException | None = None
        for attempt in (1, 2):
            try:
                return await asyncio.wait_for(
                    loop.run_in_executor(self.bot_pool, bot.choose_id, table.game.clone()),
                    self.limits.bot_timeout)
            except TimeoutError:
                failure = TimeoutError(f"no move within {self.limits.bot_timeout:g} s")
            except Exception as e:                   # the plug-in's own failure
                failure = e
            log.warning("table %s: plug-in bot %s at seat %s failed (attempt %d): %s",
                        table.id, table.settings.bots[seat], seat, attempt, failure)
            if isinstance(failure, TimeoutError):
                break
        assert failure is not None
        fallback = table.fall_back(seat, failure)
        self.metrics.bot_fallbacks.labels(table.game.name).inc()
        log.warning("table %s: seat %s played by the %s bot from now on (%s)",
                    table.id, seat, fallback.fallback, fallback.reason)
        return table.fallback_players[seat].choose_id(table.game)

    async def play_bots(self, table: Table) -> None:
        """The bots' moves up to the next person's turn (no bot delay), with the table held
        as uncommitted meanwhile, so that nobody reads a position the bots are still on."""
        if table.bot_to_move() is None:
            return
        table.unstored += 1
        table.stored.clear()
        try:
            while table.bot_to_move() is not None:
                if not await self.bot_move(table):
                    break
        except Exception as e:                           # pragma: no cover - a bot's bug
            self.on_error(e)
        finally:
            table.unstored -= 1
            if not table.unstored:
                table.stored.set()

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
            return table.seat_of(token, reload=False)
        except BadCredential:
            if not self.store.shared or not isinstance(token, str) \
                    or not 0 < len(token) <= MAX_TOKEN_TEXT:
                raise
        # The writer thread's own connection: the loop's is never used from two threads.
        stored = await asyncio.get_running_loop().run_in_executor(
            self.executor, self.writer.seats, table.id)
        self._put_seats(table, stored)
        return table.seat_of(token, reload=False)

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
        await self.settled(table)
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
                await self.settled(table)
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
        if self.store.shared and table.reload_seats is None:
            table.reload_seats = functools.partial(self._seats_from_store, table)
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
        table = Table(stored.id, game, settings, stored.token_hashes, actions,
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
        while table.unstored:
            await table.stored.wait()
        if table.broken:
            raise ApiError(503, "storage failed; try again")
        return table

    async def record(self, table: Table) -> dict[str, Any]:
        """``GET /api/tables/{id}/record``: the match record, 409 before the match end."""
        await self.settled(table)
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
        await self.settled(table)
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
            raise ApiError(429, Words(HINT_RATE, {"rate": f"{self.limits.hint_rate:g}"}),
                           retry_after=math.ceil(wait))
        await self.settled(table)
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
        """One action for ``seat``: checked, applied, committed, then pushed. With no bot
        delay the bot moves it triggers are played (and committed with it) first. ``cards``
        (card notations): the exact cards the action takes from the hand (docs/server.md)."""
        if isinstance(action, bool) or not isinstance(action, (int, str)):
            raise ApiError(400, "action must be an action id (int) or its notation (str)")
        if cards is not None and (not isinstance(cards, list) or len(cards) > MAX_CHOSEN_CARDS
                                  or not all(isinstance(c, str) for c in cards)):
            raise ApiError(400, f"cards must be a list of at most {MAX_CHOSEN_CARDS} card "
                                f"notations (str)")
        if isinstance(action, str) and len(action) > MAX_ACTION_TEXT:
            raise ApiError(422, f"an action notation has at most {MAX_ACTION_TEXT} characters, "
                                f"not {len(action)}", rule=NOTATION_RULE)
        check_after(after)
        if table.broken:
            raise ApiError(503, "storage failed; try again")
        if table.moved:
            raise ApiError(503, MOVED, retry_after=1)
        if table.rewinding:
            raise ApiError(409, "a take-back at this table is under way; look again",
                           event_count=table.event_count)
        start = time.perf_counter()
        # With a shared store this process holds the table's lease (table_to_act): nobody
        # else moves it, and the commit checks the lease again.
        table.check_turn(seat, after)
        table.apply(seat, action, cards)
        table.human_moved = True
        self.metrics.actions.labels("person").inc()
        if self.bot_delay == 0 and table.people():
            await self.play_bots(table)
        table.count_events()                 # at once: a second send with this `after` is stale
        await self.commit(table)
        self.metrics.action_seconds.observe(time.perf_counter() - start)
        table.notify()
        self.schedule_bots(table)
        self.release(table)

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
            await self.settled(table)
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
            self.schedule_bots(table)             # and the clock of the turn now to move
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

    # ---------------------------------------------------------------- bots
    def schedule_bots(self, table: Table) -> None:
        clocks.schedule(self, table)
        if table.bot_to_move() is None or table.runner is not None or self.closing:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return                                   # no loop yet: resume_bots starts it
        table.runner = loop.create_task(self._run_bots(table))

    async def _run_bots(self, table: Table) -> None:
        try:
            while not self.closing and table.serving and table.bot_to_move() is not None:
                await asyncio.sleep(self.bot_delay)
                if self.closing or not table.serving or table.bot_to_move() is None:
                    break
                if not await self.bot_move(table):
                    break
                table.count_events()
                await self.commit(table)
                table.notify()
        except ApiError:
            pass                                     # storage failed: the table reloads
        except Exception as e:                       # pragma: no cover - a bug in a bot
            self.on_error(e)
        finally:
            table.runner = None
            clocks.schedule(self, table)             # a person's turn now: time it

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
            await self.settled(table)
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
        self.schedule_bots(table)

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
        self.schedule_bots(table)

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
