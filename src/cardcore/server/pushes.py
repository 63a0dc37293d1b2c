"""What every seat's push of one position shares (issue 46, item 3): the part of a state
that is the same for every seat and spectator, built once per position rather than once per
socket, and its larger values serialised once too (``shared_json``: a socket's push splices
them into its JSON rather than encoding them again per seat). What differs by seat (the
view, the events, the legal actions, the take-back) is built by ``Room.state``."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast

from cardcore.i18n import _, use
from cardcore.server.http import json_bytes
from cardcore.server.responses import public_fairness

if TYPE_CHECKING:
    from cardcore.game import Game
    from cardcore.server.audience import Audience
    from cardcore.server.responses import SeatInfo, Zone
    from cardcore.server.table_settings import TableSettings

__all__ = ["Position", "position_key", "common_state", "shared_json", "preserialised",
           "zones_in", "zone_descriptors", "ZonesMemo"]

# The common values worth serialising once per position (the others are scalars, cheaper
# to encode than to splice).
SPLICED = ("scores", "seats", "options", "fairness")

try:                                  # the server extra installs orjson >= 3.10 (Fragment)
    from orjson import Fragment

    def preserialised(value: Any) -> Any:
        """``value`` as JSON made now, which ``json_bytes`` copies as it stands: the same
        bytes as ``value`` gives, made once for every push that holds it."""
        return Fragment(json_bytes(value))
except ImportError:                   # pragma: no cover - json.dumps splices nothing
    def preserialised(value: Any) -> Any:
        """``value`` itself: without orjson nothing is spliced."""
        return value


@dataclass
class ZonesMemo:
    """``zones_in``'s last answer: a game's zones in a language, for the set of zone ids
    ``ids``, last read at the position ``at``; their JSON once made."""
    game: Game
    lang: str
    ids: tuple[Any, ...]
    zones: list[dict[str, Any]]
    at: tuple[int, int, int] = (-1, -1, -1)
    json: Any = None


class Position(Protocol):
    """What the shared part reads of a room (``Room`` is one; named here so that this module
    and the room do not import each other)."""
    common_memo: tuple[Game, tuple[Any, ...], dict[str, Any]] | None
    zones_memo: ZonesMemo | None
    shared_memo: tuple[dict[str, Any], dict[str, Any]] | None

    @property
    def game(self) -> Game: ...
    @property
    def actions(self) -> int: ...
    @property
    def rewinds(self) -> int: ...
    @property
    def event_count(self) -> int: ...
    @property
    def ended(self) -> str | None: ...
    @property
    def rematch(self) -> str | None: ...
    @property
    def settings(self) -> TableSettings: ...
    @property
    def token_hashes(self) -> dict[int, str]: ...
    @property
    def names(self) -> dict[int, str]: ...
    @property
    def audience(self) -> Audience: ...
    @property
    def fallbacks(self) -> dict[int, Any]: ...
    @property
    def clock(self) -> Any: ...
    def seat_list(self) -> list[SeatInfo]: ...
    def final_winners(self) -> list[int]: ...


def position_key(room: Position) -> tuple[Any, ...]:
    """What the shared part is made from: the game's position and the table's seats,
    presences, settings and end (compared by value; the game, the settings and the seat maps
    are replaced, never changed in place). Not the clock's time: it is read per state."""
    return (id(room.game), room.actions, room.rewinds, room.event_count, room.ended,
            room.rematch, id(room.settings), room.token_hashes, room.names,
            frozenset(room.audience.seats_present()), tuple(room.fallbacks),
            None if room.clock is None else room.clock.forfeit)


def common_state(room: Position) -> dict[str, Any]:
    """The fields of ``Room.state`` that are the same for every reader, once per
    ``position_key``; shared: callers must not change it or what it holds."""
    key = position_key(room)
    memo = room.common_memo
    if memo is not None and memo[0] is room.game and memo[1] == key:
        return memo[2]
    game, settings = room.game, room.settings
    common = {
        "game": game.name,
        "wild_cards": game.wild_cards,
        "over": game.is_over or room.ended is not None,
        "ended": room.ended or ("over" if game.is_over else None),
        "scores": game.scores,
        "winners": room.final_winners() if room.ended == "forfeit" else game.winners,
        "current_player": game.current_player,
        "players": game.num_players,
        "seats": room.seat_list(),
        "options": game.options,
        "listed": settings.listed, "spectators": settings.spectators,
        "join": settings.join, "rematch": room.rematch,
        "carried": None if settings.carried is None else list(settings.carried),
        "fairness": public_fairness(settings.fairness),
    }
    room.common_memo = (game, key, common)
    return common


def shared_json(room: Position) -> dict[str, Any]:
    """``common_state`` with its larger values (``SPLICED``) serialised once per position
    (``preserialised``), for pushes encoded by ``json_bytes`` (the same bytes); shared:
    callers must not change it."""
    common = common_state(room)
    memo = room.shared_memo
    if memo is not None and memo[0] is common:
        return memo[1]
    shared = {**common, **{key: preserialised(common[key]) for key in SPLICED}}
    room.shared_memo = (common, shared)
    return shared


def zone_descriptors(game: Game, lang: str,
                     zones: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The table's zones (``game.zones``, or ``zones`` when already read: id, kind, owner,
    team) with their labels in ``lang``, for a UI that lays the table out from them
    (docs/building-a-ui.md)."""
    with use(lang, game):
        return [{**zone, "label": _(zone["label"])}
                for zone in (game.zones if zones is None else zones)]


def zones_in(room: Position, lang: str, serialised: bool = False) -> list[Zone]:
    """``zone_descriptors`` built once per game, language and set of zones (they change
    only when a zone made in play appears or empties), not once per seat or position, and
    the set read once per position; shared: callers must not change it. ``serialised``: as
    JSON made once (``preserialised``), for a push."""
    game = room.game
    at = (room.actions, room.rewinds, room.event_count)
    memo = room.zones_memo
    if memo is None or memo.game is not game or memo.lang != lang or memo.at != at:
        zones = game.zones                  # cheap: the declared ones, then those made
        ids = tuple(zone["id"] for zone in zones)
        if memo is None or memo.game is not game or memo.lang != lang or memo.ids != ids:
            memo = ZonesMemo(game, lang, ids, zone_descriptors(game, lang, zones))
        memo.at = at
        room.zones_memo = memo
    if not serialised:
        return cast("list[Zone]", memo.zones)     # zones.py's descriptors: Zone's fields
    if memo.json is None:
        memo.json = preserialised(memo.zones)
    return cast("list[Zone]", memo.json)          # spliced as the same JSON
