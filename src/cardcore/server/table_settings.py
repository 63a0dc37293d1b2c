"""What a table was created with (docs/server.md, "Tables, seats and tokens"): its bots, take-backs,
seat settings and the fairness commitment. Fixed for the table's life, stored in its row;
``Table.settings`` holds them apart from what changes in play (``tables.Table``) and from
its sockets (``audience.Audience``)."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Mapping

from cardcore.records import Fairness

__all__ = ["TableSettings"]


@dataclass(frozen=True)
class TableSettings:
    bots: Mapping[int, str]                        # seat -> bot name, for the whole match
    bot_seed: int                                  # the bots' seeds derive from it
    takeback: bool = False                         # the person may take moves back
    listed: bool = True                            # in GET /api/tables
    spectators: bool = True                        # token-less reads and sockets allowed
    join: str = "invite"                           # who may claim an open seat
    creator_hash: str | None = field(default=None, repr=False)   # the creator token (DELETE)
    invite_hash: str | None = field(default=None, repr=False)    # the invite (claims seats)
    fairness: Fairness | None = None               # the committed seed material (records.py)
    think_ms: float | None = None                  # the think budget of searching bots
    # A rematch's series: each seat's score summed over the matches it follows (a rematch of
    # a rematch carries both), shown before this match's; None for a first match.
    carried: tuple[int, ...] | None = None

    def columns(self) -> dict[str, Any]:
        """The store's columns of these settings, by ``Store.insert``'s parameter names
        (``think_ms`` is the server's, not stored)."""
        return {"bots": dict(self.bots), "bot_seed": self.bot_seed, "takeback": self.takeback,
                "listed": self.listed, "spectators": self.spectators, "join": self.join,
                "creator_hash": self.creator_hash, "invite_hash": self.invite_hash,
                "fairness": None if self.fairness is None else self.fairness.to_json(),
                "carried": None if self.carried is None else json.dumps(list(self.carried))}
