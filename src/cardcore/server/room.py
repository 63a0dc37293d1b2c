"""A room: one live table of the server, with its game, seats, bots, clock, sockets and
outbox (docs/architecture.md, "The room and its host").

A ``Room`` holds everything that changes in play and the behaviour of one table: what each
seat is told (``Room.state``), a person's move (``act``), its bots' moves and its clock. It
knows nothing of HTTP, of the store or of other processes: it asks its host, a ``RoomHost``
(``tables.TableServer``), to commit, and the host decides where and how (one process, or a
shared store with leases: ``deployment.py``). Everything runs in the server's one event-loop
thread, so a room changes in one synchronous step (check, apply, commit) that nothing can
interleave with.

What leaves the server is built in one place, ``Room.state``: the seat's ``view``, its
``events`` and its ``legal`` moves, or the spectator's public version. Saves, seeds and
tokens never appear there.
"""
from __future__ import annotations

import asyncio
import hmac
import json
import logging
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from cardcore.bots import Bot
from cardcore.errors import IllegalActionError, Words
from cardcore.game import MAX_ACTION_TEXT, MAX_CHOSEN_CARDS, NOTATION_RULE, Game
from cardcore.i18n import N_
from cardcore.records import Fairness, forfeit_winners, make_record
from cardcore.registry import load_game
from cardcore.server import clocks, pushes
from cardcore.server.pushes import zone_descriptors
from cardcore.server import seats as seating
from cardcore.server.api_errors import ApiError, BadCredential, check_after
from cardcore.server.audience import Audience
from cardcore.server.leases import MOVED
from cardcore.server.messages import (BAD_TOKEN, NOT_YOUR_TURN, STALE_ACTION, STALE_TAKEBACK,
                                      STORAGE_RETRY, NO_SUCH_TABLE, TAKEBACK_UNDER_WAY)
from cardcore.server.limits import WS_CLOSE, Limits
from cardcore.server.record_keys import RecordKeys
from cardcore.server.sockets import Connection
from cardcore.server.store import StoredTable, TableUpdate
from cardcore.server.table_bots import (FALLBACK_BOT, MAX_DETAIL, BotFallback, failure_reason,
                                        is_plugin, table_bot)
from cardcore.server.table_settings import TableSettings
from cardcore.server.takeback import OPTION as TAKEBACK_OPTION
from cardcore.server.takeback import Movers
from cardcore.server.tokens import MAX_TOKEN_TEXT, token_hash
from cardcore.simulation import bot_seed

if TYPE_CHECKING:
    from cardcore.server.responses import SeatInfo, TableState, TakebackState

__all__ = ["Room", "RoomHost", "spectator_view", "seat_events", "zone_descriptors",
           "ENDS_OUTSIDE_RULES"]

log = logging.getLogger("cardcore.server")

# Tables that end outside the rules and stay stored (a deleted one is gone): the 409 each
# answers a move with, and what its sockets are told before they close.
ENDS_OUTSIDE_RULES = {"abandoned": N_("the table was abandoned: nobody moved for too long"),
                      "closed": N_("the table was closed by the server's operator")}


def seat_events(game: Game, seat: int | None, since: int, lang: str = "en"
                ) -> list[dict[str, Any]]:
    """The events ``seat`` may see (None: a spectator), from index ``since``, their texts in
    ``lang``: the one place the server reads events (``Game.events``)."""
    return game.events(seat, since, lang)


def spectator_view(game: Game) -> dict[str, Any]:
    """The public view: ``game.view(None)``, a seat's keys with those about one seat null,
    every hidden zone a count (api.md, "Views")."""
    return game.view(None)


class RoomHost(clocks.ClockHost, Protocol):
    """What a room asks of the server that holds it (``tables.TableServer``; a fake one in
    tests/test_server_rooms.py): to commit its changes (batched with other rooms', fenced by
    the lease with a shared store), its take-backs and its seat holders, to let it go once it
    has ended, and the tools it shares with every room (what its timer needs,
    ``clocks.ClockHost``: metrics, the bot pool...; and the limits)."""

    @property
    def limits(self) -> Limits: ...

    @property
    def lease_owner(self) -> str | None:
        """The process a store write is fenced by (None: one process, no leases)."""

    async def commit(self, room: Room) -> None:
        """Store what ``room`` changed since its last commit; returns once it is stored
        (ApiError 503 when the store failed, 409 when another process moved on)."""

    async def rewind(self, room: Room, update: TableUpdate) -> bool:
        """Store a take-back of ``room``; False when another process moved it meanwhile."""

    async def seats_from_store(self, room: Room) -> None:
        """Read the seat holders again if another process may have changed them (async:
        the store's reads leave the event loop behind this seam, issue 46 item 2)."""

    async def store_seats(self, room: Room, token_hashes: dict[int, str],
                          names: dict[int, str]) -> None:
        """Store new seat holders (ApiError 409 if they changed meanwhile)."""

    def release(self, room: Room) -> None:
        """``room`` may leave memory if it has ended and nothing holds it."""


@dataclass
class Room:
    """One live table: its game and what changes in play (the log's length, commits under
    way, bots, clock, take-backs), beside what it was created with (``settings``) and its
    sockets and their outbox (``audience``). It moves its bots and runs its clock itself and
    asks its ``host`` (``RoomHost``) for the rest: commits, the lease, the seat store."""

    host: RoomHost = field(repr=False)             # the server that holds it (RoomHost)
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
    record_pushed: tuple[dict[str, Any], Any] | None = None   # a record and its JSON
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
    zones_memo: pushes.ZonesMemo | None = field(
        default=None, repr=False)                  # pushes.zones_in's last answer
    common_memo: tuple[Game, tuple[Any, ...], dict[str, Any]] | None = field(
        default=None, repr=False)                  # pushes.common_state's last answer
    shared_memo: tuple[dict[str, Any], dict[str, Any]] | None = field(
        default=None, repr=False)                  # pushes.shared_json's last answer

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
    def seat_of(self, token: str | None) -> int | None:
        """The seat a token acts for, None without a token; BadCredential (403) for a bad
        token. Every seat's hash is compared (in constant time), whichever matches. The seats
        as this process knows them: ``TableServer.seat_for`` re-reads them on a miss when
        another process may have changed them."""
        if token is None:
            return None
        if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN_TEXT:
            raise BadCredential(BAD_TOKEN)
        digest = token_hash(token)
        found = None
        for seat, stored in self.token_hashes.items():
            if hmac.compare_digest(digest, stored):
                found = seat
        if found is None:
            raise BadCredential(N_("bad token: it is not a token of this table"))
        return found

    # ---------------------------------------------------------------- what a seat is told
    def state(self, seat: int | None, since: int = 0, lang: str = "en") -> TableState:
        """What ``seat`` is told (None: a spectator), its events from ``since`` with their
        texts in ``lang`` (the reader's: server.md, "Texts")."""
        return self._state(seat, since, lang, pushes.common_state(self), pushes.zones_in(self, lang))

    def push_state(self, seat: int | None, since: int = 0, lang: str = "en") -> TableState:
        """``state`` for a socket's whole-state push: the same keys and values, those every
        reader shares already serialised (``pushes.shared_json``), so that ``json_bytes``
        gives the same bytes as for ``state`` while encoding them once per position."""
        return self._state(seat, since, lang, pushes.shared_json(self),
                           pushes.zones_in(self, lang, serialised=True))

    def _state(self, seat: int | None, since: int, lang: str, common: dict[str, Any],
               zones: Any) -> TableState:
        game = self.game
        if not 0 <= since <= self.event_count:
            raise ApiError(400, Words(N_("since must be 0..{count}, not {value}"),
                                      {"count": self.event_count, "value": since}))
        to_move = common["current_player"]
        legal = ([a.to_dict() for a in game.legal_actions()]
                 if seat is not None and to_move == seat else [])
        return {
            "table": self.id,
            "game": common["game"],
            "seat": seat,
            "view": game.view(seat) if seat is not None else spectator_view(game),
            "events": seat_events(game, seat, since, lang),
            "zones": zones,
            "wild_cards": common["wild_cards"],
            "lang": lang,
            "event_count": self.event_count,
            "legal": legal,
            "over": common["over"], "ended": common["ended"],
            "scores": common["scores"], "winners": common["winners"],
            "current_player": to_move,
            "players": common["players"],
            "seats": common["seats"],
            "options": common["options"],
            "listed": common["listed"], "spectators": common["spectators"],
            "join": common["join"], "rematch": common["rematch"],
            "carried": common["carried"], "fairness": common["fairness"],
            "clock": None if self.clock is None else self.clock.public(time.time()),
            "forfeit": None if self.clock is None else self.clock.forfeit,
            "takeback": self.takeback_state(seat),
        }

    def takeback_state(self, seat: int | None) -> TakebackState | None:
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

    def seat_list(self) -> list[SeatInfo]:
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
                self.audience.close_seat(seat, ApiError(403, Words(
                    N_("seat {seat} was left: its token no longer works"), {"seat": seat})),
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
            connection.push({"type": "record", "record": self.record_json()}, later=True)
            connection.notify()

    def record_json(self) -> Any:
        """``record()`` serialised once for every socket it is pushed to (``preserialised``:
        a long match's record is a few hundred kB)."""
        record = self.record()
        if self.record_pushed is None or self.record_pushed[0] is not record:
            self.record_pushed = (record, pushes.preserialised(record))
        return self.record_pushed[1]

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
            raise ApiError(404, NO_SUCH_TABLE)
        if self.ended in ENDS_OUTSIDE_RULES:
            raise ApiError(409, ENDS_OUTSIDE_RULES[self.ended], event_count=self.event_count)
        if self.ended == "forfeit":
            raise ApiError(409, N_("the match is over: a seat forfeited on time"),
                           event_count=self.event_count)
        if game.is_over:
            raise ApiError(409, N_("the match is over"), event_count=self.event_count)
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
            raise ApiError(409, N_("this table has no take-backs (create it with \"takeback\": "
                                   "true)"), option=TAKEBACK_OPTION)
        check_after(after)
        if self.ended == "deleted":
            raise ApiError(404, NO_SUCH_TABLE)
        if self.ended is not None or self.game.is_over:
            raise ApiError(409, N_("the match is over: its moves are final"),
                           event_count=self.event_count)
        if self.broken:
            raise ApiError(503, STORAGE_RETRY)
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

    # ---------------------------------------------------------------- play (the host commits)
    async def settled(self) -> Room:
        """The room once nothing on it is waiting to be committed (reads call this)."""
        while self.unstored:
            await self.stored.wait()
        if self.broken:
            raise ApiError(503, STORAGE_RETRY)
        return self

    async def commit(self) -> None:
        """Have the host store what changed; returns once it is stored."""
        await self.host.commit(self)

    def release(self) -> None:
        """Tell the host this room may leave memory (if it has ended and nothing holds it)."""
        self.host.release(self)

    async def act(self, seat: int, action: Any, after: Any, cards: Any = None) -> None:
        """One action for ``seat``: checked, applied, committed, then pushed. With no bot
        delay the bot moves it triggers are played (and committed with it) first. ``cards``
        (card notations): the exact cards the action takes from the hand (docs/server.md)."""
        if isinstance(action, bool) or not isinstance(action, (int, str)):
            raise ApiError(400, N_("action must be an action id (int) or its notation (str)"))
        if cards is not None and (not isinstance(cards, list) or len(cards) > MAX_CHOSEN_CARDS
                                  or not all(isinstance(c, str) for c in cards)):
            raise ApiError(400, Words(N_("cards must be a list of at most {limit} card notations "
                                     "(str)"), {"limit": MAX_CHOSEN_CARDS}))
        # MAX_ACTION_TEXT (a notation's length) is the game protocol's: one limit, here too.
        if isinstance(action, str) and len(action) > MAX_ACTION_TEXT:
            raise ApiError(422, Words(N_("an action notation has at most {limit} characters, not "
                                        "{count}"), {"limit": MAX_ACTION_TEXT, "count": len(action)}), rule=NOTATION_RULE)
        check_after(after)
        if self.broken:
            raise ApiError(503, STORAGE_RETRY)
        if self.moved:
            raise ApiError(503, MOVED, retry_after=1)
        if self.rewinding:
            raise ApiError(409, TAKEBACK_UNDER_WAY,
                           event_count=self.event_count)
        host = self.host
        start = time.perf_counter()
        # With a shared store this process holds the table's lease (table_to_act): nobody
        # else moves it, and the commit checks the lease again.
        self.check_turn(seat, after)
        self.apply(seat, action, cards)
        self.human_moved = True
        host.metrics.actions.labels("person").inc()
        if host.bot_delay == 0 and self.people():
            await self.play_bots()
        self.count_events()                  # at once: a second send with this `after` is stale
        await self.commit()
        host.metrics.action_seconds.observe(time.perf_counter() - start)
        self.notify()
        self.schedule_bots()
        self.release()

    async def bot_move(self) -> bool:
        """One bot move, timed and counted. A search bot thinks in a worker thread, on a copy
        of the game (the core releases the GIL while it searches), so the event loop and every
        other table carry on; quick bots (random, greedy) answer inline. False when the table
        changed meanwhile (ended, broken) and nothing was played."""
        seat = self.bot_to_move()
        if seat is None:
            return False
        host = self.host
        bot = self.bot_players[seat]
        game = self.game                    # a refresh (another process moved) replaces it
        start = time.perf_counter()
        if seat in self.fallbacks:
            action = self.fallback_players[seat].choose_id(self.game)
        elif seat in self.plugins:
            action = await self.plugin_move(seat, bot)
        elif seat in self.searching:
            copy = self.game.clone()
            action = await asyncio.get_running_loop().run_in_executor(
                host.bot_pool, bot.choose_id, copy)
        else:
            action = bot.choose_id(self.game)
        took = time.perf_counter() - start
        host.metrics.bot_seconds.observe(took)
        budget = host.limits.bot_think_ms / 1000
        if took > 2 * budget + 0.1:
            log.warning("table %s: bot %s took %.2f s for one move (budget %.2f s)",
                        self.id, self.settings.bots[seat], took, budget)
        if self.ended is not None or not self.serving or self.bot_to_move() != seat \
                or self.game is not game:
            return False
        self.game.apply(action, player=seat)
        self.actions += 1
        self.advanced_at = time.monotonic()
        host.metrics.actions.labels("bot").inc()
        return True

    async def plugin_move(self, seat: int, bot: Bot) -> int:
        """A plug-in's move, thought in the bot pool on a copy of the game. A plug-in that
        raises or chooses an illegal move is asked once more; after a second failure, or a
        move not chosen within ``bot_timeout`` seconds (not retried: the thread stays busy),
        the seat falls back to ``FALLBACK_BOT`` for the rest of the match, told to every
        seat and counted (docs/server.md, "Bots")."""
        loop = asyncio.get_running_loop()
        limits = self.host.limits
        failure: BaseException | None = None
        for attempt in (1, 2):
            try:
                return await asyncio.wait_for(
                    loop.run_in_executor(self.host.bot_pool, bot.choose_id, self.game.clone()),
                    limits.bot_timeout)
            except TimeoutError:
                failure = TimeoutError(f"no move within {limits.bot_timeout:g} s")
            except Exception as e:                   # the plug-in's own failure
                failure = e
            log.warning("table %s: plug-in bot %s at seat %s failed (attempt %d): %s",
                        self.id, self.settings.bots[seat], seat, attempt, failure)
            if isinstance(failure, TimeoutError):
                break
        assert failure is not None
        fallback = self.fall_back(seat, failure)
        self.host.metrics.bot_fallbacks.labels(self.game.name).inc()
        log.warning("table %s: seat %s played by the %s bot from now on (%s)",
                    self.id, seat, fallback.fallback, fallback.reason)
        return self.fallback_players[seat].choose_id(self.game)

    async def play_bots(self) -> None:
        """The bots' moves up to the next person's turn (no bot delay), with the room held
        as uncommitted meanwhile, so that nobody reads a position the bots are still on."""
        if self.bot_to_move() is None:
            return
        self.unstored += 1
        self.stored.clear()
        try:
            while self.bot_to_move() is not None:
                if not await self.bot_move():
                    break
        except Exception as e:                           # pragma: no cover - a bot's bug
            self.host.on_error(e)
        finally:
            self.unstored -= 1
            if not self.unstored:
                self.stored.set()

    def schedule_bots(self) -> None:
        """Start the bots if one is to move (paced by the host's ``bot_delay``), and the
        timer of the turn the clock times."""
        clocks.schedule(self)
        if self.bot_to_move() is None or self.runner is not None or self.host.closing:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            return                                   # no loop yet: resume_bots starts it
        self.runner = loop.create_task(self._run_bots())

    async def _run_bots(self) -> None:
        host = self.host
        try:
            while not host.closing and self.serving and self.bot_to_move() is not None:
                await asyncio.sleep(host.bot_delay)
                if host.closing or not self.serving or self.bot_to_move() is None:
                    break
                if not await self.bot_move():
                    break
                self.count_events()
                await self.commit()
                self.notify()
        except ApiError:
            pass                                     # storage failed: the table reloads
        except Exception as e:                       # pragma: no cover - a bug in a bot
            host.on_error(e)
        finally:
            self.runner = None
            clocks.schedule(self)                    # a person's turn now: time it


def revived(host: RoomHost, stored: StoredTable, game: Game | None, think_ms: float,
            record_keys: RecordKeys) -> Room:
    """The room of a stored table (``game``: its save loaded already, off the loop)."""
    game = load_game(stored.save) if game is None else game
    settings = TableSettings(
        stored.bots, stored.bot_seed, stored.takeback, stored.listed, stored.spectators,
        stored.join, creator_hash=stored.creator_hash, invite_hash=stored.invite_hash,
        fairness=None if stored.fairness is None else Fairness.from_json(stored.fairness),
        think_ms=think_ms,
        carried=None if stored.carried is None else tuple(json.loads(stored.carried)))
    room = Room(host, stored.id, game, settings, stored.token_hashes,
                len(json.loads(stored.save)["actions"]), names=stored.names,
                record_keys=record_keys, rewinds=stored.rewinds, rematch=stored.rematch,
                clock=None if stored.clock is None
                else clocks.TableClock.from_json(stored.clock))
    if stored.ended in ENDS_OUTSIDE_RULES or stored.ended == "forfeit":
        room.ended = stored.ended
    return room
