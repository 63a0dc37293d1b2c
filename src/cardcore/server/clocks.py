"""Turn clocks of the table server (docs/server.md, "Clocks").

A table created with ``"clock"`` gives each person's move a time limit, in one of two shapes:

- ``{"per_move": S}``: S seconds for every move;
- ``{"bank": B, "increment": I}``: each seat starts with B seconds; a move uses the time it
  took, then I seconds are added (Fischer increment); a move is due when the bank runs out;

plus ``"on_timeout"``: ``"level:N"`` (the default ``"level:2"``: the game's difficulty level
N moves for the seat) or ``"forfeit"`` (the match ends; the seat and its side lose). Bot seats
have no clock. The deadline is wall-clock time (``time.time()``), stored with the table, so a
restarted server keeps the deadlines it had (a clock runs while the server is down).

``TableClock`` is the bookkeeping (no asyncio, no I/O): the table server calls ``arm`` when it
commits a change, stores ``to_json`` and ``deadline``, and each room runs its own timer
(``schedule``: a ``TimedRoom``, room.py's ``Room``).
"""
from __future__ import annotations

import asyncio
import json
import math
import secrets
import time
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Protocol, cast

from cardcore.bots import LEVELS, make_bot
from cardcore.errors import Words, echo
from cardcore.i18n import N_

if TYPE_CHECKING:
    from cardcore.server.responses import ClockState
    from cardcore.game import Game
    from cardcore.server.audience import Audience
    from cardcore.server.metrics import Metrics

__all__ = ["ClockSpec", "TableClock", "TimedRoom", "ClockHost", "parse_clock", "MIN_SECONDS",
           "MAX_SECONDS", "DEFAULT_ON_TIMEOUT", "FORFEIT", "CLOCK_REFUSALS"]

MIN_SECONDS = 0.01                  # below this a clock is noise (tests use 0.05)
MAX_SECONDS = 7 * 86400.0           # a week per move or bank: correspondence play
DEFAULT_ON_TIMEOUT = "level:2"
FORFEIT = "forfeit"
SHAPES = ({"per_move"}, {"bank", "increment"})

# parse_clock's refusals: the templates of their words (ClockError.words).
_SECONDS = N_("clock.{name} must be a number of seconds in [{low}, {high}], not {value}")
_NOT_OBJECT = N_('clock must be an object like {"per_move": 20} or '
                 '{"bank": 300, "increment": 5}')
_UNKNOWN_KEY = N_("clock: unknown key {key}; keys: {keys}")
_SHAPE = N_('clock: give either "per_move", or "bank" and "increment"')
_ON_TIMEOUT = N_("clock.on_timeout must be one of {allowed}, not {value}")
CLOCK_REFUSALS = (_SECONDS, _NOT_OBJECT, _UNKNOWN_KEY, _SHAPE, _ON_TIMEOUT)
KEYS = ("per_move", "bank", "increment", "on_timeout")


class ClockError(ValueError):
    """A bad clock option; ``option`` names it (``clock.per_move`` ...)."""

    def __init__(self, message: str | Words, option: str) -> None:
        self.words = message if isinstance(message, Words) else Words(message)
        super().__init__(self.words.english())
        self.option = option


def _seconds(raw: dict[str, Any], name: str, low: float) -> float:
    value = raw[name]
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not math.isfinite(value) or not low <= value <= MAX_SECONDS:
        raise ClockError(Words(_SECONDS, {"name": name, "low": f"{low:g}",
                                          "high": f"{MAX_SECONDS:g}", "value": echo(value)}),
                         f"clock.{name}")
    return float(value)


@dataclass(frozen=True)
class ClockSpec:
    """A table's clock option, checked."""

    per_move: float | None = None
    bank: float | None = None
    increment: float = 0.0
    on_timeout: str = DEFAULT_ON_TIMEOUT

    def to_dict(self) -> dict[str, Any]:
        shape: dict[str, Any] = ({"per_move": self.per_move} if self.per_move is not None
                                 else {"bank": self.bank, "increment": self.increment})
        return {**shape, "on_timeout": self.on_timeout}


def parse_clock(raw: Any) -> ClockSpec | None:
    """The ``clock`` field of ``POST /api/tables``; ClockError naming the option."""
    if raw is None:
        return None
    if not isinstance(raw, dict):
        raise ClockError(_NOT_OBJECT, "clock")
    unknown = sorted(str(k) for k in raw if k not in KEYS)
    if unknown:
        raise ClockError(Words(_UNKNOWN_KEY, {"key": echo(unknown[0]), "keys": ", ".join(KEYS)}),
                         "clock")
    shape = set(raw) - {"on_timeout"}
    if shape not in SHAPES:
        raise ClockError(_SHAPE, "clock")
    on_timeout = raw.get("on_timeout", DEFAULT_ON_TIMEOUT)
    allowed = [FORFEIT] + [f"level:{n}" for n in LEVELS]
    if on_timeout not in allowed:
        raise ClockError(Words(_ON_TIMEOUT, {"allowed": ", ".join(allowed),
                                             "value": echo(on_timeout)}),
                         "clock.on_timeout")
    if "per_move" in raw:
        return ClockSpec(per_move=_seconds(raw, "per_move", MIN_SECONDS), on_timeout=on_timeout)
    return ClockSpec(bank=_seconds(raw, "bank", MIN_SECONDS),
                     increment=_seconds(raw, "increment", 0.0), on_timeout=on_timeout)


@dataclass
class TableClock:
    """The clock of one table: the turn it times (``seat`` to make move number ``move``),
    when that turn started and its deadline, each seat's bank, and the timeouts so far."""

    spec: ClockSpec
    players: int
    banks: list[float] = field(default_factory=list)
    seat: int | None = None
    move: int = -1
    started: float | None = None
    deadline: float | None = None
    timeouts: list[dict[str, Any]] = field(default_factory=list)
    forfeit: int | None = None

    def __post_init__(self) -> None:
        if not self.banks and self.spec.bank is not None:
            self.banks = [self.spec.bank] * self.players

    def allowance(self, seat: int) -> float:
        return self.spec.per_move if self.spec.per_move is not None else self.banks[seat]

    def arm(self, mover: int | None, moves: int, now: float) -> bool:
        """The table now has ``moves`` moves and ``mover`` (a person's seat, or None: a bot
        or nobody) to move: a new turn starts unless it is the one already timed. The turn
        that ended is charged to its seat's bank. True when the turn changed."""
        if (mover, moves) == (self.seat, self.move) or (mover is None and self.seat is None):
            return False
        if self.seat is not None and self.banks and self.started is not None:
            left = max(0.0, self.banks[self.seat] - (now - self.started))
            self.banks[self.seat] = min(MAX_SECONDS, left + self.spec.increment)
        self.seat, self.move = mover, moves
        if mover is None:
            self.started = self.deadline = None
        else:
            self.started = now
            self.deadline = now + self.allowance(mover)
        return True

    def stop(self) -> None:
        """The match ended: nothing more is timed."""
        self.seat, self.started, self.deadline = None, None, None

    def timed_out(self, by: str) -> dict[str, Any]:
        """Record the timeout of the turn being timed (made by ``by``: a level or forfeit)."""
        entry = {"seat": self.seat, "move": self.move, "by": by}
        self.timeouts.append(entry)
        if by == FORFEIT:
            self.forfeit = self.seat
        return entry

    def public(self, now: float) -> ClockState:
        """What the pushed state says: the option, whose turn is timed, its deadline and the
        seconds left (at the time of the state), and each seat's bank."""
        remaining = None if self.deadline is None else max(0.0, round(self.deadline - now, 3))
        return cast("ClockState", {  # the spec's fields: ClockState's optional ones
            **self.spec.to_dict(), "seat": self.seat, "deadline": self.deadline,
            "remaining": remaining, "banks": [round(b, 3) for b in self.banks] or None,
            "timeouts": len(self.timeouts)})

    def to_json(self) -> str:
        return json.dumps({"spec": self.spec.to_dict(), "players": self.players,
                           "banks": self.banks, "seat": self.seat, "move": self.move,
                           "started": self.started, "deadline": self.deadline,
                           "timeouts": self.timeouts, "forfeit": self.forfeit})

    @classmethod
    def from_json(cls, text: str) -> TableClock:
        data = json.loads(text)
        spec = parse_clock(data["spec"])
        assert spec is not None
        return cls(spec, data["players"], data["banks"], data["seat"], data["move"],
                   data["started"], data["deadline"], data["timeouts"], data["forfeit"])


# ------------------------------------------------------------------ what a timer needs
class ClockHost(Protocol):
    """What a timer asks of the room's host (room.py's ``RoomHost`` has it)."""

    @property
    def bot_pool(self) -> Executor: ...
    @property
    def metrics(self) -> Metrics: ...
    @property
    def bot_delay(self) -> float: ...
    @property
    def closing(self) -> bool: ...
    @property
    def on_error(self) -> Callable[[BaseException], None]: ...


class TimedRoom(Protocol):
    """The room a timer runs for (room.py's ``Room``: this module cannot import it)."""

    id: str
    clock: TableClock | None
    clock_task: asyncio.Task[None] | None
    timeouts_pushed: int
    audience: Audience
    ended: str | None
    game: Game
    actions: int
    advanced_at: float
    token_hashes: dict[int, str]
    rewinding: bool

    @property
    def host(self) -> ClockHost: ...
    @property
    def serving(self) -> bool: ...
    async def settled(self) -> object: ...
    async def play_bots(self) -> None: ...
    async def commit(self) -> None: ...
    def count_events(self) -> None: ...
    def notify(self) -> None: ...
    def schedule_bots(self) -> None: ...
    def release(self) -> None: ...


# ------------------------------------------------------------------ several processes
def push_timeouts(table: TimedRoom) -> None:
    """Push the table's timeouts its sockets have not been told of, as ``clock`` messages:
    after this process's expiry is stored, or after adopting another process's."""
    clock = table.clock
    if clock is None:
        return
    for entry in clock.timeouts[table.timeouts_pushed:]:
        for connection in table.audience:
            connection.push({"type": "clock", "event": "timeout", **entry})
    table.timeouts_pushed = len(clock.timeouts)


def adopt(table: TimedRoom, stored: str | TableClock | None) -> None:
    """Take the clock as stored (another process committed a move or an expiry): every
    process that holds the table then times the same turn to the same deadline, and of two
    that expire it at once, the store's compare-and-set keeps one."""
    if table.clock is None or stored is None:
        return
    table.clock = TableClock.from_json(stored) if isinstance(stored, str) else stored
    push_timeouts(table)


# ------------------------------------------------------------------ the timer of a table
def schedule(table: TimedRoom) -> None:
    """Start the timer of the turn ``table.clock`` times, unless it runs already (called
    wherever the server schedules bots: after every change and after loading a table)."""
    clock = table.clock
    if clock is None or table.host.closing:
        return
    key = (clock.seat, clock.move)
    running = table.clock_task
    if running is not None and getattr(running, "clock_key", None) == key:
        return
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return                                   # no loop yet: resume_bots starts it
    if running is not None:
        if running is not asyncio.current_task():    # (a timer that expired goes on)
            running.cancel()
        table.clock_task = None
    if clock.deadline is None or table.ended is not None or table.game.is_over:
        return
    task = loop.create_task(_run(table, key))
    task.clock_key = key                         # type: ignore[attr-defined]
    table.clock_task = task


async def _run(table: TimedRoom, key: tuple[int | None, int]) -> None:
    try:
        deadline = None if table.clock is None else table.clock.deadline
        delay = 0.0 if deadline is None else deadline - time.time()
        if delay > 0:
            await asyncio.sleep(delay)
        await expire(table, key)
    except asyncio.CancelledError:
        raise
    except Exception as e:                       # pragma: no cover - a bug: keep serving
        table.host.on_error(e)
    finally:
        if table.clock_task is asyncio.current_task():
            table.clock_task = None
    schedule(table)                              # the next person's turn, if any


async def expire(table: TimedRoom, key: tuple[int | None, int]) -> None:
    """The turn ``key`` ran out: move for the seat with the level bot the table names, or
    end the match by the seat's forfeit; once that is stored, tell the sockets. Every
    process holding the table may run this for the same turn: the commit's compare-and-set
    on the action count lets one through (a forfeit, which adds no action, is stored the
    same by either), and the others reload the table and tell their sockets from it."""
    server = table.host
    clock = table.clock
    await table.settled()
    if clock is None or (clock.seat, clock.move) != key or table.ended is not None \
            or not table.serving or table.game.is_over or table.game.current_player != clock.seat \
            or table.rewinding:                      # a take-back re-arms the clock
        return
    seat, by = clock.seat, clock.spec.on_timeout
    game, moves = table.game, table.actions
    action = None
    if by != FORFEIT:
        # The level thinks in the bot pool, on a copy (a high level searches; a timeout is
        # rare enough that the thread hop of a quick level does not matter).
        bot = make_bot(by, secrets.randbits(63))
        action = await asyncio.get_running_loop().run_in_executor(
            server.bot_pool, bot.choose_id, table.game.clone())
        now = table.clock                    # adopted from the store meanwhile, perhaps
        if now is None or (now.seat, now.move) != key or table.ended is not None \
                or not table.serving or table.rewinding or table.game is not game \
                or table.actions != moves:
            return          # the person moved or took back meanwhile (here or elsewhere)
        clock = now
    clock.timed_out(by)
    if action is None:
        table.ended = FORFEIT
        clock.stop()
    else:
        table.game.apply(action, player=seat)
        table.actions += 1
        table.advanced_at = time.monotonic()
        server.metrics.actions.labels("bot").inc()
        if server.bot_delay == 0 and table.token_hashes:
            await table.play_bots()
    table.count_events()
    try:
        await table.commit()
    except Exception as e:
        # 503: storage failed, the table reloads. 409: another process holding the table
        # committed first (its expiry of this turn, or the person's move): the store's
        # compare-and-set refused this one, and the table was reloaded with what won.
        if getattr(e, "status", None) in (409, 503):
            return
        raise
    push_timeouts(table)                             # told once stored, never twice
    table.notify()
    table.schedule_bots()
    table.release()
