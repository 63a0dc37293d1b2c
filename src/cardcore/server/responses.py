"""The answers a client gets (docs/server.md): one ``TypedDict`` per answer, which the
handlers build and ``openapi.py`` describes (json_types.json_schema), so that the fields a
handler sends and the fields the document lists are one list, as for requests.py's bodies.

The names of games, bots and the like are the server's own lists: openapi.py completes the
fields ``FROM_SERVER`` names. Written with ``typing``'s old names (Python 3.9's
``get_type_hints``).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Dict, List, Literal, Optional, TypedDict, Union, cast

from cardcore.i18n import LANGUAGES
from cardcore.match_record import FORMAT as CARDS_FORMAT
from cardcore.records import ENDINGS, RECORD_FORMAT, SCHEME
from cardcore.server.json_types import Schema
from cardcore.server.requests import REQUEST_ID
from cardcore.server.seats import JOIN_MODES, MAX_NAME, PRESENCES
from cardcore.server.table_bots import SeatFallback

if TYPE_CHECKING:
    from cardcore import records

__all__ = ["public_fairness", "ErrorBody", "RefusalWords", "Fairness", "ClockState", "TakebackState",
           "SeatFallback", "SeatInfo", "TableState", "Created", "Claimed", "RematchMade",
           "Hint", "Hints", "Review", "Health", "Draining", "Alive", "GameEntry", "GamesList",
           "TableList", "Catalog", "MatchRecord", "WsPresence", "WsRematch", "WsPong",
           "WsClock", "WsRecord", "WsError", "COMPONENTS", "FROM_SERVER"]

NAME = Schema(minLength=1, maxLength=MAX_NAME,
              description="letters, digits, marks, spaces and -_.' (trimmed, NFC)")
SEAT = Schema(minimum=0)
DIGEST = Schema(pattern="^[0-9a-f]{64}$")
JOIN = Schema(enum=list(JOIN_MODES))
PRESENCE = Schema(enum=list(PRESENCES))


# ---------------------------------------------------------------- refusals
class RefusalWords(TypedDict):
    """A message as data: its English template (the msgid) and its fields (a value, or a
    message of its own)."""
    message_id: str
    fields: Dict[str, Union[Union[str, int], "RefusalWords"]]


FIELDS = Dict[str, Union[Union[str, int], RefusalWords]]


class _Error(TypedDict):
    error: Annotated[str, Schema(description="the refusal in the reader's language")]


class ErrorBody(_Error, total=False):
    """Every refusal's body (docs/server.md, "Errors")."""
    code: Annotated[str, Schema(description="the kind of refusal, for programs: "
                                            "illegal_action, stale, bad_option, not_found, ...")]
    message_id: Annotated[str, Schema(description="the English template of the message "
                                                  "(its msgid in the catalogs)")]
    fields: FIELDS


# ---------------------------------------------------------------- parts of a table's state
class _Fairness(TypedDict):
    scheme: Literal[SCHEME]  # type: ignore[valid-type]
    commitment: Annotated[str, DIGEST]


class Fairness(_Fairness, total=False):
    """A table's commitment to its deck (docs/server.md, "Fairness")."""
    client_seed: Optional[str]


def public_fairness(fair: records.Fairness | None) -> Fairness | None:
    """What everybody may see of a table's fairness: records.py builds it with these fields
    (a framework module: it does not import the server's types)."""
    return None if fair is None else cast(Fairness, fair.public())


class _ClockState(TypedDict):
    on_timeout: str
    seat: Optional[int]
    deadline: Annotated[Optional[float], Schema(description="Unix time (seconds)")]
    remaining: Annotated[Optional[float], Schema(minimum=0)]
    banks: Optional[List[float]]
    timeouts: Annotated[int, Schema(minimum=0)]


class ClockState(_ClockState, total=False):
    """The table's clock now (clocks.py: ``Clock.public``)."""
    per_move: float
    bank: float
    increment: float


class TakebackState(TypedDict):
    rewinds: Annotated[int, Schema(minimum=0, description="take-backs so far at the table")]
    available: Annotated[bool, Schema(description="this seat has a move to take back")]


class SeatInfo(TypedDict):
    seat: Annotated[int, SEAT]
    bot: Optional[str]
    name: Annotated[Optional[str], NAME]
    presence: Annotated[str, PRESENCE]
    fallback: Optional[SeatFallback]


class _Zone(TypedDict):
    id: str
    kind: str
    owner: Optional[int]
    team: Optional[int]
    label: str


class Zone(_Zone, total=False):
    layout: Literal["pairs"]


class _TableState(TypedDict):
    table: str
    game: str
    seat: Optional[int]
    view: Annotated[Dict[str, Any], Schema(description="Game.view(seat); per game: "
                                                       "`cardcore schema GAME view`")]
    events: List[Dict[str, Any]]
    event_count: Annotated[int, Schema(minimum=0)]
    legal: Annotated[List[Dict[str, Any]], Schema(items={
        "type": "object", "required": ["id", "player", "kind", "cards", "label"]})]
    over: bool
    ended: Annotated[Optional[str], Schema(enum=["over", "abandoned", "closed", "forfeit", None])]
    scores: Annotated[List[int], Schema(description="each seat's match score, by seat")]
    winners: Annotated[List[Annotated[int, SEAT]],
                       Schema(description="the seats that won (empty until the match is "
                                          "over)")]
    current_player: Optional[int]
    players: int
    seats: List[SeatInfo]
    options: Dict[str, Any]


class TableState(_TableState, total=False):
    """What a seat (or a spectator) is told of a table: ``GET /api/tables/{id}``, an
    action's answer, and a socket's ``state`` (room.py: ``Room.state``)."""
    zones: Annotated[List[Zone], Schema(description="the table's zones (game.zones), their "
                                                    "labels in the reader's language; their "
                                                    "cards are in view.zones")]
    wild_cards: Annotated[List[str], Schema(description="the cards that are wild now "
                                                        "(game.wild_cards): a table marks "
                                                        "every copy of them")]
    events_from: Annotated[int, Schema(minimum=0, description="over HTTP: the n of the "
                                       "first of `events`, one page of at most 100 "
                                       "(docs/server.md, \"Reading a table\")")]
    listed: bool
    spectators: bool
    join: Annotated[str, JOIN]
    rematch: Annotated[Optional[str], Schema(description="the rematch table's id, once a "
                                                         "seat asked for one")]
    carried: Annotated[Optional[List[int]], Schema(
        description="a rematch's scores carried from the matches it follows, per seat (the "
                    "series' count before this match); null for a first match")]
    fairness: Optional[Fairness]
    clock: Optional[ClockState]
    forfeit: Annotated[Optional[int], Schema(minimum=0)]
    takeback: Optional[TakebackState]
    rewound: Annotated[bool, Schema(description="set on the state that follows a take-back: "
                                                "its events are the whole stream again, from "
                                                "index 0")]
    lang: Annotated[str, Schema(enum=list(LANGUAGES),
                                description="the language of the events' texts: ?lang=, "
                                            "else the Accept-Language header's pick")]


# ---------------------------------------------------------------- answers to requests
class _Created(TypedDict):
    table: str
    game: str
    seats: Dict[str, str]
    bots: Dict[str, str]
    creator_token: str


class Created(_Created, total=False):
    """``POST /api/tables``: the table and its tokens."""
    commitment: Annotated[Optional[str], DIGEST]
    fairness: Optional[Fairness]
    clock: Optional[Dict[str, Any]]
    takeback: bool
    invite: Annotated[str, Schema(description="claims open seats (docs/server.md)")]
    open_seats: List[int]
    names: Dict[str, Annotated[str, NAME]]
    listed: bool
    spectators: bool
    join: Annotated[str, JOIN]


class Claimed(TypedDict):
    """``POST /api/tables/{id}/seats``: the seat and its token (for its claimer only)."""
    table: str
    seat: Annotated[int, SEAT]
    token: str
    name: Annotated[str, NAME]


# "from" is a keyword: the functional form.
RematchMade = TypedDict("RematchMade", {"table": str, "from": str, "game": str,
                                       "fairness": Optional[Fairness]})


class Hint(TypedDict):
    action: Annotated[int, Schema(minimum=0)]
    label: str
    estimate: Annotated[float, Schema(minimum=0, maximum=1)]
    visits: Annotated[int, Schema(minimum=0)]


class Hints(TypedDict):
    """``GET /api/tables/{id}/hint`` (advice.py)."""
    seat: Annotated[int, SEAT]
    moves: Annotated[int, Schema(minimum=0)]
    level: Annotated[int, Schema(minimum=1, maximum=5)]
    hints: List[Hint]


class Health(TypedDict):
    """``/healthz`` and ``/readyz``: the server and its store, as the background check last
    found them (vitals.py)."""
    status: Annotated[str, Schema(enum=["ok", "failing"])]
    store: Annotated[str, Schema(description="ok, or why the store failed")]
    store_ms: Annotated[float, Schema(minimum=0, description="the last ping's round trip")]
    checked_s_ago: Annotated[float, Schema(minimum=0)]
    loop_lag_ms: Annotated[float, Schema(minimum=0,
                                         description="the event loop's last measured lag")]
    tables_in_memory: Annotated[int, Schema(minimum=0)]


class Draining(TypedDict):
    """``/readyz`` after SIGTERM."""
    status: Literal["draining"]
    tables_in_memory: int


class Alive(TypedDict):
    status: Literal["alive"]


class GameOption(TypedDict):
    schema: Annotated[Dict[str, Any], Schema(
        description="a JSON Schema fragment with default, description, x-rule, x-allowed "
                    "and, for a bound that depends on the player count, x-players")]
    description: str
    default: Any
    doc: Annotated[str, Schema(description="deprecated: description")]


class GameEntry(TypedDict):
    game: str
    options: Dict[str, GameOption]


class GamesList(TypedDict):
    """``GET /api/games``."""
    games: List[GameEntry]
    version: str


class TableList(TypedDict):
    """``GET /api/tables``: the lobby."""
    tables: List[Dict[str, Any]]
    next: Annotated[Optional[str], Schema(description="the cursor of the next page; null "
                                                      "on the last")]


class Catalog(TypedDict):
    """``GET /api/i18n``: msgid (the English text) -> its translation."""
    lang: Annotated[str, Schema(enum=list(LANGUAGES))]
    languages: List[str]
    messages: Annotated[Dict[str, str], Schema(description="the shared words, with game='s "
                                                           "over them")]
    shared: Dict[str, str]
    games: Annotated[Dict[str, Dict[str, str]],
                     Schema(description="each game's own words, never merged across games")]
    plurals: Annotated[Dict[str, List[str]], Schema(
        description="a plural text's singular msgid -> its forms in the catalog's order "
                    "(the shared words, with game='s over them)")]


class _MatchRecord(TypedDict):
    record: Literal[RECORD_FORMAT]  # type: ignore[valid-type]
    table: str
    game: str
    ended: Annotated[str, Schema(enum=list(ENDINGS))]
    forfeit: Optional[int]
    timeouts: List[Dict[str, Any]]
    fairness: Optional[Dict[str, Any]]
    save: Dict[str, Any]
    digest: str


class MatchRecord(_MatchRecord, total=False):
    """``GET /api/tables/{id}/record`` (docs/server.md, Records; per game: ``cardcore schema
    GAME record``)."""
    format: Annotated[Literal[CARDS_FORMAT],  # type: ignore[valid-type]
                      Schema(description="a match record with the actual cards besides "
                                         "(docs/api.md)")]
    hmac: str


# A 95% interval [low, high] of a review's estimate or loss.
Interval = Annotated[List[float], Schema(minItems=2, maxItems=2)]


class Candidate(TypedDict):
    move: str
    estimate: float
    interval: Interval
    visits: int


class ReviewedDecision(TypedDict):
    move: Annotated[int, Schema(minimum=0)]
    round: Annotated[int, Schema(minimum=1, description="the round, deal or hand of the "
                                                        "decision, from 1")]
    chosen: str
    chosen_estimate: float
    chosen_interval: Interval
    best: str
    best_estimate: float
    best_interval: Interval
    loss: Annotated[float, Schema(minimum=0)]
    loss_interval: Interval
    mistake: Annotated[bool, Schema(description="the loss's interval lies above the "
                                                "threshold")]
    legal: Annotated[int, Schema(minimum=2)]
    candidates: List[Candidate]


class ReviewSummary(TypedDict):
    decisions: int
    mistakes: int
    mistakes_per_decision: float
    interval: Interval
    mean_loss: float
    best_moves: int
    over: bool
    winners: List[int]


class _Review(TypedDict):
    table: str
    game: str
    seat: Annotated[int, SEAT]
    level: Annotated[Optional[int], Schema(minimum=1, maximum=5)]
    reference: str
    search: str
    searches: Annotated[int, Schema(minimum=1)]
    estimates: Annotated[Optional[str], Schema(
        description="the search that estimates every move, where it is not the reference's "
                    "own (a game's review_exploration)")]
    threshold: float
    decisions: List[ReviewedDecision]
    summary: ReviewSummary


class Review(_Review, total=False):
    """``GET /api/tables/{id}/review``: ``cardcore review --json`` (review.py), with the
    table."""
    seed: int


# ---------------------------------------------------------------- a socket's pushes
# (docs/server.md, "WebSocket"; the state, a patch and a fallback notice are in openapi.py,
# which composes them from the components above)
class WsPresence(TypedDict):
    type: Literal["presence"]
    seat: Annotated[int, SEAT]
    presence: Annotated[str, PRESENCE]
    name: Annotated[Optional[str], NAME]


class WsRematch(TypedDict):
    type: Literal["rematch"]
    table: str


class WsPong(TypedDict):
    type: Literal["pong"]


class WsClock(TypedDict):
    """A seat's clock ran out and ``by`` moved for it."""
    type: Literal["clock"]
    event: Literal["timeout"]
    seat: Annotated[int, SEAT]
    move: Annotated[int, Schema(minimum=0)]
    by: str


class WsRecord(TypedDict):
    type: Literal["record"]
    record: MatchRecord


class _WsErrorHead(TypedDict):
    type: Literal["error"]
    status: int


class WsError(_WsErrorHead, ErrorBody, total=False):
    """A refusal on a socket: the error body (its fields are ``ErrorBody``'s) with its HTTP
    status and the rule it names."""
    rule: Optional[str]
    id: Annotated[Union[str, int], REQUEST_ID]


# The components of the OpenAPI document that are answers, by their names there.
COMPONENTS: dict[str, type] = {
    "Error": ErrorBody, "Words": RefusalWords, "Fairness": Fairness,
    "ClockState": ClockState, "TakebackState": TakebackState, "BotFallback": SeatFallback,
    "Seat": SeatInfo, "State": TableState, "Created": Created, "Claimed": Claimed,
    "Rematch": RematchMade, "Hints": Hints, "Health": Health, "GameOption": GameOption,
    "Record": MatchRecord, "Review": Review, "WsPresence": WsPresence, "WsRematch": WsRematch,
    "WsPong": WsPong, "WsClock": WsClock, "WsRecord": WsRecord, "WsError": WsError}

# Fields whose schema the server completes from its own lists (openapi.py), per component.
FROM_SERVER = {"State": ("game",), "Rematch": ("game",), "Created": ("clock",),
               "Record": ("game",)}
