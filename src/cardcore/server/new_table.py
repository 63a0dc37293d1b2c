"""A request for a new table (``POST /api/tables``, a rematch, an embedder's call) and its
checks: ``NewTable`` names each field, ``make_game`` checks them and deals, ``seat_plan``
hands out the seats. ``TableServer.create`` (tables.py) stores the result as a room."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Sequence

from cardcore.errors import ConfigError, Words
from cardcore.game import Game, is_int
from cardcore.records import Fairness, check_client_seed
from cardcore.registry import game_class, new_game
from cardcore.server import clocks
from cardcore.server import seats as seating
from cardcore.server.api_errors import ApiError
from cardcore.i18n import N_
from cardcore.server.messages import INT_RANGE, MUST_BE_INT, NOT_AN_OPTION
from cardcore.server.room import Room
from cardcore.server.table_bots import parse_bots
from cardcore.server.takeback import OPTION as TAKEBACK_OPTION
from cardcore.server.takeback import TakebackError, parse_takeback
from cardcore.server.tokens import new_token, token_hash

__all__ = ["NewTable", "Made", "SeatPlan", "make_game", "seat_plan", "series_scores", "MAX_SEED"]

MAX_SEED = 2**64 - 1        # a table's seed: the generator's 64 bits (larger ones only fold)


@dataclass(frozen=True)
class NewTable:
    """A new table, as asked for. The fields a client sends are its JSON values, unchecked
    (``object``): ``TableServer.create`` checks each and names a bad one (400/422)."""

    game: object                          # a game's name (GET /api/games)
    players: object = None
    seed: object = None                   # none: a committed seed (records.py)
    options: object = None
    bots: object = None                   # {"seat": "bot name"}
    deck: list[str] | None = None         # a stacked first deal: tests and embedders only
    client: str | None = None             # the creator's address (per-address limits)
    client_seed: object = None            # mixed into the committed seed
    clock: object = None                  # the turn clock (clocks.py)
    takeback: object = None               # the one person at a table of bots may undo moves
    open_seats: object = None             # seats left for others to claim (seats.py)
    names: object = None
    listed: object = None
    spectators: object = None
    join: object = None


@dataclass(frozen=True)
class Made:
    """A request checked and dealt: the game and what the table is created with."""

    game: Game
    bots: dict[int, str]
    clock: clocks.ClockSpec | None
    fairness: Fairness | None
    takeback: bool


@dataclass(frozen=True)
class SeatPlan:
    """Who sits where at a new table, and the secrets handed out once at its creation."""

    tokens: dict[int, str]                # seat -> token, for the creator to hand out
    hashes: dict[int, str]                # what the store keeps of them
    names: dict[int, str]
    listed: bool
    spectators: bool
    join: str
    creator_token: str | None             # None for a rematch: the old table's stays
    invite: str | None
    creator_hash: str | None
    invite_hash: str | None


def _checked_fields(request: NewTable) -> tuple[str, dict[str, Any], clocks.ClockSpec | None]:
    """The fields checked before the game is asked: the game's name, the options, the clock."""
    # JSON values, duck-typed while they are checked
    game: Any = request.game
    players: Any = request.players
    seed: Any = request.seed
    options: Any = request.options
    if not isinstance(game, str):
        raise ApiError(400, N_("game must be a string (see GET /api/games)"))
    if players is not None and not is_int(players):
        raise ApiError(400, Words(MUST_BE_INT, {"field": "players"}))
    if seed is not None and not is_int(seed):
        raise ApiError(400, Words(MUST_BE_INT, {"field": "seed"}))
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise ApiError(422, Words(INT_RANGE, {"field": "seed", "low": 0, "high": MAX_SEED}),
                       option="seed")
    if options is None:
        options = {}
    if not isinstance(options, dict):
        raise ApiError(400, N_("options must be an object"))
    clash = sorted(set(options) & {"players", "seed", "deck"})
    if clash:
        raise ApiError(422, Words(NOT_AN_OPTION, {"name": repr(clash[0])}), option=clash[0])
    try:
        clock_spec = clocks.parse_clock(request.clock)
    except clocks.ClockError as e:
        raise ApiError.config(e, e.option) from None
    return game, options, clock_spec


def make_game(request: NewTable, extra_bots: Mapping[str, Sequence[str]],
              capacity: Callable[[], None]) -> Made:
    """Check ``request`` and deal its game; ``capacity`` (the server's limits on open tables,
    raising ApiError) is asked once the request is known good, before the deal."""
    name, options, clock_spec = _checked_fields(request)
    players: Any = request.players
    seed: Any = request.seed
    client_seed: Any = request.client_seed              # checked by check_client_seed
    deck = request.deck
    fairness = None
    try:
        check_client_seed(client_seed)
        if client_seed is not None and (seed is not None or deck is not None):
            raise ConfigError(N_("client_seed: a table given a seed deals from that seed; "
                                 "send client_seed without seed"), "client_seed")
        if seed is None and deck is None:
            fairness = Fairness.fresh(client_seed)
            seed = fairness.seed
        cls = game_class(name)
        count: int = players if players is not None else cls.default_players
        bots = parse_bots(request.bots, max(count, 0), cls.name, extra_bots.get(cls.name, ()),
                          options)
        capacity()
        g = new_game(cls.name, players=players, seed=seed, deck=deck, **options)
        takeback = parse_takeback(request.takeback, g.num_players - len(bots))
    except ConfigError as e:
        raise ApiError.config(e, TAKEBACK_OPTION if isinstance(e, TakebackError)
                              else e.option) from None
    except (TypeError, ValueError, OverflowError) as e:
        raise ApiError(422, Words(N_("bad table configuration: {problem}"),
                                  {"problem": str(e)[:200]})) from None
    return Made(g, dict(bots), clock_spec, fairness, takeback)


def series_scores(old: Room) -> tuple[int, ...]:
    """A rematch's carried scores (``TableSettings.carried``): what the table it follows
    carried, plus that table's final scores, seat by seat ("Rematch" continues the count)."""
    scores = [int(s) for s in old.game.scores]
    before = old.settings.carried or (0,) * len(scores)
    return tuple(a + b for a, b in zip(before, scores))


def seat_plan(request: NewTable, made: Made, inherit: Room | None) -> SeatPlan:
    """The seats of a new table: the request's open seats, names and seat settings checked
    (SeatError as ApiError), or a rematch's, kept from the table it follows (``inherit``)."""
    n, bots = made.game.num_players, made.bots      # checked by the game: a small number
    if inherit is None:
        try:
            opened = seating.check_open_seats(request.open_seats, n, bots)
            named = seating.check_names(request.names, n, set(range(n)) - opened - set(bots))
            listed, spectators, join = seating.check_settings(request.listed,
                                                              request.spectators, request.join)
        except seating.SeatError as e:
            raise ApiError(e.status, e.words, field=e.field) from None
    else:
        opened, named = set(), dict(inherit.names)
    tokens = {seat: new_token() for seat in range(n) if seat not in bots and seat not in opened}
    if inherit is not None:          # a rematch: the same people, seats and seat settings
        old = inherit.settings
        return SeatPlan(tokens, dict(inherit.token_hashes), named, old.listed, old.spectators,
                        old.join, None, None, old.creator_hash, old.invite_hash)
    creator_token, invite = new_token(), new_token()
    return SeatPlan(tokens, {seat: token_hash(t) for seat, t in tokens.items()}, named,
                    listed, spectators, join, creator_token, invite, token_hash(creator_token),
                    token_hash(invite))
