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
The take-back itself is ``TableServer.take_back`` (tables.py), beside ``act``.
"""
from __future__ import annotations

import json
import time
from typing import Any

from cardcore.errors import ConfigError, Words
from cardcore.game import Game
from cardcore.registry import new_game
from cardcore.server.clocks import TableClock
from cardcore.server.messages import TAKEBACK_BOOL, TAKEBACK_PEOPLE

__all__ = ["parse_takeback", "fresh_game", "Movers", "rewound_clock", "OPTION"]

OPTION = "takeback"


class TakebackError(ConfigError):
    """A ``takeback`` field that cannot be (a 422 naming the option)."""


def parse_takeback(raw: Any, human_seats: int) -> bool:
    """The ``takeback`` field of ``POST /api/tables``; TakebackError (a 422 naming the
    option) when it is not a bool or the table would not have exactly one person's seat."""
    if raw is None or raw is False:
        return False
    if raw is not True:
        raise TakebackError(Words(TAKEBACK_BOOL, {"value": repr(str(raw)[:60])}), OPTION)
    if human_seats != 1:
        raise TakebackError(Words(TAKEBACK_PEOPLE, {"count": human_seats}), OPTION)
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
