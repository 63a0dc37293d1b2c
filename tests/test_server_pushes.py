"""A socket's push is the state freshly built (issue 46, item 3): what the room shares
between the pushes of one position (``pushes.common_state``, the zones, the values serialised
once by ``pushes.shared_json``) never changes a byte of what a seat or a spectator is sent,
at every position of random matches of every game."""
from __future__ import annotations

import random
from typing import Any

import pytest

from cardcore import available_games, new_game
from cardcore.registry import game_class
from cardcore.server.http import json_bytes
from cardcore.server.limits import Limits
from cardcore.server.room import Room, zone_descriptors
from cardcore.server.table_settings import TableSettings
from cardcore.server.tokens import token_hash

# Every game at its default table (from the registry: a new game is covered by itself).
CONFIGS = [(name, game_class(name).default_players) for name in available_games()]
MOVES = 120                 # per match: enough for rounds to end, zones to appear and empty


class Host:
    """What a room reads of its host while it is only asked for states."""
    limits = Limits()
    lease_owner = None


def fresh(room: Room, seat: int | None, since: int, lang: str) -> bytes:
    """The push as built with nothing kept from earlier pushes of the position."""
    room.common_memo = room.zones_memo = room.shared_memo = None
    return json_bytes({"type": "state", **room.state(seat, since, lang)})


@pytest.mark.parametrize("name, players", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_pushes_are_the_freshly_built_state_byte_for_byte(name: str, players: int) -> None:
    game = new_game(name, players=players, seed=5)
    room = Room(Host(), "t1", game, TableSettings({}, 7, False, join="anyone"),  # type: ignore[arg-type]
                {s: token_hash(f"token {s}") for s in range(players)}, 0)
    rng = random.Random(5)
    sent: dict[Any, int] = {}
    readers = [*range(players), None]
    for _ in range(MOVES):
        if room.game.is_over:
            break
        mover = room.game.current_player
        room.apply(mover, rng.choice(room.game.legal_actions()).id)
        room.count_events()
        for lang in ("en", "ru"):
            for seat in rng.sample(readers, len(readers)):   # any order of the sockets
                since = sent.get((seat, lang), 0)
                pushed = json_bytes({"type": "state", **room.push_state(seat, since, lang)})
                plain = room.state(seat, since, lang)
                assert json_bytes({"type": "state", **plain}) == pushed
                assert pushed == fresh(room, seat, since, lang), (name, seat, lang)
                # the shared parts are what the game says now
                assert plain["zones"] == zone_descriptors(room.game, lang)
                assert plain["view"] == room.game.view(seat)
                sent[seat, lang] = room.event_count
