"""Take-backs against bots (docs/server.md, "Take-backs").

A table created with ``"takeback": true`` has exactly one person's seat, the others bots: the
person may undo their last move at any time before the match ends ("no other person has moved
since" holds by construction). The move and every bot move after it leave the log; the server
rebuilds the game from its configuration and replays the shorter log (``Game.to_json`` holds
the configuration, ``apply`` the replay: nothing but what a user of the library could do),
stores it as a whole save with the table's generation (``rewinds``) one higher, and pushes a
state marked ``"rewound": true`` with every event from index 0 to each socket of the table.

``Movers`` knows which seat made each move of the log (a shadow replay kept up to date as the
log grows), so the state can say whether the seat has a move to take back without replaying.
"""
from __future__ import annotations

import asyncio
import json
import time
from typing import TYPE_CHECKING, Any

from cardcore.game import Game, is_int
from cardcore.registry import new_game
from cardcore.server.clocks import TableClock
from cardcore.server.store import TableUpdate

if TYPE_CHECKING:                                    # pragma: no cover
    from cardcore.server.tables import Table, TableServer

__all__ = ["parse_takeback", "fresh_game", "Movers", "take_back", "OPTION"]

OPTION = "takeback"


def parse_takeback(raw: Any, human_seats: int) -> bool:
    """The ``takeback`` field of ``POST /api/tables``; ValueError (a 422 naming the option)
    when it is not a bool or the table would not have exactly one person's seat."""
    if raw is None or raw is False:
        return False
    if raw is not True:
        raise ValueError(f"takeback must be true or false, not {str(raw)[:60]!r}")
    if human_seats != 1:
        raise ValueError(f"takeback: a table with take-backs has exactly one person's seat "
                         f"(the others bots), not {human_seats}: a take-back would undo "
                         f"another person's moves")
    return True


def fresh_game(game: Game) -> Game:
    """A new game of ``game``'s configuration (players, seed, stacked deck, options) before
    any move: replaying a prefix of its log on it gives the position after that prefix."""
    save = json.loads(game.to_json())
    return new_game(save["game"], players=save["players"], seed=save["seed"],
                    deck=save["deck"], **save["options"])


class Movers:
    """The seat that made each move of a table's log, from a shadow copy of the game that
    replays the log as it grows (rebuilt when the table's game object is replaced)."""

    def __init__(self) -> None:
        self.of: Game | None = None                 # the game followed
        self.shadow: Game | None = None
        self.seats: list[int | None] = []

    def update(self, game: Game) -> list[int | None]:
        if self.of is not game or self.shadow is None:
            self.of, self.shadow, self.seats = game, fresh_game(game), []
        shadow = self.shadow
        for action in game.action_log(len(self.seats)):
            self.seats.append(shadow.current_player)
            shadow.apply(action)
        return self.seats

    def last_move_of(self, game: Game, seat: int) -> int | None:
        """The index in the log of ``seat``'s last move (None: it has not moved)."""
        seats = self.update(game)
        for index in range(len(seats) - 1, -1, -1):
            if seats[index] == seat:
                return index
        return None


def check(table: Table, seat: int, after: Any) -> None:
    """What a take-back needs, or the ApiError saying which part is missing."""
    from cardcore.server.tables import ApiError
    if not table.takeback:
        raise ApiError(409, "this table has no take-backs (create it with \"takeback\": true)",
                       option=OPTION)
    if after is not None and not is_int(after):
        raise ApiError(400, "after must be an int (the number of events seen)")
    if table.ended == "deleted":
        raise ApiError(404, "no such table")
    if table.ended is not None or table.game.is_over:
        raise ApiError(409, "the match is over: its moves are final",
                       event_count=table.event_count)
    if table.broken:
        raise ApiError(503, "storage failed; try again")
    if after is not None and after != table.event_count:
        raise ApiError(409, f"stale: the take-back was sent after event {after}, but the "
                            f"table has {table.event_count} events; look again",
                       event_count=table.event_count)


async def take_back(server: TableServer, table: Table, seat: int, after: Any) -> None:
    """Undo ``seat``'s last move and every move after it: bots stopped, the table settled,
    the shorter log rebuilt, stored (compare-and-set), then put in place and pushed."""
    from cardcore.server.tables import ApiError
    check(table, seat, after)
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
        await server.settled(table)
        if server.store.shared:
            try:
                server.catch_up(table)
            except Exception:                    # the shared store does not answer
                raise ApiError(503, "storage failed: nothing was changed") from None
        check(table, seat, None)
        cut = table.movers.last_move_of(table.game, seat)
        if cut is None:
            raise ApiError(409, "you have no move to take back yet",
                           event_count=table.event_count)
        game = fresh_game(table.game)
        for action in table.game.action_log()[:cut]:
            game.apply(action)
        clock = rewound_clock(table.clock, game, seat, cut)
        update = TableUpdate(table.id, cut, [], game.current_player, False, game.to_json(),
                             True, None if clock is None else clock.to_json(),
                             None if clock is None else clock.deadline, None, table.rewinds)
        generation = table.rewinds
        table.unstored += 1                     # readers (and catch-ups) wait for the write
        table.stored.clear()
        try:
            done = await server._write(server.writer.rewind, update, table.actions)
        finally:
            table.unstored -= 1
            if not table.unstored:
                table.stored.set()
        if not done:                                  # another process moved it meanwhile
            server.refresh(table)
            raise ApiError(409, "the table moved on meanwhile (a move made through another "
                                "server process); look again", event_count=table.event_count)
        table.install(game, cut, generation + 1)
        table.clock = clock
    finally:
        table.rewinding = False
        server.schedule_bots(table)             # and the clock of the turn now to move
    table.notify()


def rewound_clock(clock: TableClock | None, game: Game, seat: int, cut: int
                  ) -> TableClock | None:
    """A copy of the clock after a take-back: the timeouts of the undone moves forgotten, the
    seat's turn at the rewound position timed afresh (time already spent stays spent: a bank
    is charged for the turn that was running, as after any move)."""
    if clock is None:
        return None
    copy = TableClock.from_json(clock.to_json())
    copy.timeouts = [t for t in copy.timeouts if t["move"] < cut]
    copy.arm(seat if game.current_player == seat else None, cut, time.time())
    return copy
