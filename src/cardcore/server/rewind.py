"""A take-back at a room (docs/server.md, "Take-backs"): the bots and the clock stopped, the
log cut before the seat's last move and replayed on a fresh game, stored by the host as a
compare-and-set on the log's length and generation, then put in place and pushed."""
from __future__ import annotations

import asyncio
from typing import Any

from cardcore.i18n import N_
from cardcore.server.api_errors import ApiError
from cardcore.server.messages import MOVED_ON, TAKEBACK_UNDER_WAY
from cardcore.server.room import Room
from cardcore.server.store import TableUpdate
from cardcore.server.takeback import fresh_game, rewound_clock

__all__ = ["take_back"]


async def take_back(table: Room, seat: int, after: Any) -> None:
    """Undo ``seat``'s last move and every move after it (docs/server.md, "Take-backs"):
    bots stopped, the table settled, the shorter log replayed on a fresh game, stored
    (compare-and-set on the count and the generation), then put in place and pushed."""
    table.check_takeback(after)
    if table.rewinding:
        raise ApiError(409, TAKEBACK_UNDER_WAY,
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
            raise ApiError(409, N_("you have no move to take back yet"),
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
                             rewinds=table.rewinds, owner=table.host.lease_owner)
        generation = table.rewinds
        table.unstored += 1                     # readers (and catch-ups) wait for it
        table.stored.clear()
        try:
            done = await table.host.rewind(table, update)
        finally:
            table.unstored -= 1
            if not table.unstored:
                table.stored.set()
        if not done:                                  # another process moved it meanwhile
            raise ApiError(409, MOVED_ON, event_count=table.event_count)
        table.install(game, cut, generation + 1)
        table.clock = clock
        # The undone moves' timeouts are forgotten; the sockets were told of the rest.
        table.timeouts_pushed = 0 if clock is None else len(clock.timeouts)
    finally:
        table.rewinding = False
        table.schedule_bots()             # and the clock of the turn now to move
    table.notify()
