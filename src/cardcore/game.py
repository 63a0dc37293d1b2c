"""The game protocol (docs/api.md): Game, Action, options and the checks shared by every game.

Every game is a thin Python subclass of ``Game`` over a Cython state machine (a subclass of
``cardcore._fast.GameState``). This module does what is common to all games, once:
option and deck checking, seeds, the action dispatch of ``apply``, views' common keys,
history, JSON save/load and cloning. A game subclass supplies its options, its deck, the
decoding of its action ids and the game-specific part of the view.

Save format (``to_json``, cardcore.saves): the configuration plus the action log, replayed on
load, and the generator state, compared after the replay. Replaying through the checked
``apply`` means a tampered file cannot produce a game the rules could not reach. Format 2 adds
a digest (and optionally an HMAC); format-1 saves (cardcore 0.1, no digest) still load, with
the 0.1 rules each game declares in ``format1_options``.
"""
from __future__ import annotations

import secrets
import time
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, Callable, ClassVar, Iterable, Mapping, Protocol, Sequence, Union

import numpy as np
import numpy.typing as npt

from cardcore._fast import GameState, LoggedApply, Random, seed_to_u64
from cardcore.cards import card_id, card_str, format_cards
from cardcore.errors import ConfigError, IllegalActionError, Words, echo
from cardcore.events import (
    Narration, Narrator, action_moves_for, events_for, multiset_minus,
)
from cardcore.information_state import Layout, SeatRecord
from cardcore.i18n import N_
from cardcore.saves import REPLAYING_SAVE, SAVE_FORMAT, dump, load   # to_json writes format 2
from cardcore.schema_parts import SchemaParts
from cardcore.zones import ZoneTable, render_moves

__all__ = [
    "Action", "ActionSpec", "Game", "Option", "ShortMatch", "SAVE_FORMAT", "seat_or_lot",
    "one_of", "int_between", "flag", "is_int", "resolve_seed",
    "players_multiple", "MAX_ACTION_TEXT", "MAX_CHOSEN_CARDS", "NOTATION_RULE",
]



def __getattr__(name: str) -> Any:
    """The 0.2 spellings of the registry's functions (``cardcore.game.new_game`` & co.): a
    deprecated alias (cardcore._compat.MOVED_NAMES), read from cardcore.registry when asked,
    so this module imports nothing above it and nothing patches it."""
    from cardcore._compat import moved_name
    return moved_name(__name__, name)


MAX_ACTION_TEXT = 160          # the longest real action notation is under 50 characters
MAX_CHOSEN_CARDS = 256         # apply(..., cards=): no action names more (a pile, a table)
# The ``rule`` of an IllegalActionError for text that is no action of the game (unknown or too
# long): no rule of the rulebook forbids it, the notation itself is wrong (docs/api.md).
NOTATION_RULE = "notation"
WORLD_SEED_STREAM = 0x5A3D_E0F1_7C2B_9A46   # keeps a sampled world's seed apart from its seed

JSONValue = Any


class GreedyHeuristic(Protocol):
    """A game's one-move heuristic: the id of a legal action for ``game.current_player``,
    its ties broken with ``rng``."""

    def __call__(self, game: Game, rng: Random) -> int: ...


def best_by(ids: Iterable[int], value: Callable[[int], float], rng: Random) -> int:
    """The id of highest ``value(id)``; ids within 1e-9 of it are ties, broken uniformly with
    ``rng`` (one draw, only when there is a tie): how a float-valued heuristic chooses."""
    best: list[int] = []
    best_value = float("-inf")
    for i in map(int, ids):         # numpy ids too
        v = value(i)
        if v > best_value + 1e-9:
            best_value = v
            best = [i]
        elif v > best_value - 1e-9:
            best.append(i)
    return best[rng.below(len(best))] if len(best) > 1 else best[0]


_echo = echo                   # error messages never repeat megabytes of hostile input


def _as_action_id(value: Any, what: str = "an action id") -> int:
    """A real int id: Python ints as they are, numpy integers converted; bools, floats and
    anything else refused with IllegalActionError (True is not action 1, 3.0 is not 3)."""
    if type(value) is int:
        return value
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, int) and not isinstance(value, bool):
        return int(value)                       # an int subclass: its plain value
    raise IllegalActionError(f"{what} must be an int, not {type(value).__name__}")


@dataclass(frozen=True)
class Action:
    """One legal move. ``str(action)`` is its notation, which ``Game.apply`` accepts too.

    ``id`` is its integer id (the same meaning has the same id in a configuration), ``player``
    the seat it is for, ``kind`` its kind (docs/api.md), ``cards`` every card it moves that the
    acting seat can see (card notations), ``label`` its notation and ``info`` game-specific
    details (JSON values). ``moves`` (computed when first read) are the moves it will make,
    as far as the acting seat can know them now. A numpy integer id is converted to int; a
    bool, float or other id raises IllegalActionError.
    """

    id: int
    player: int
    kind: str
    cards: tuple[str, ...]
    label: str
    info: Mapping[str, JSONValue] = field(default_factory=dict, compare=False)
    # The position the action was offered in, (game, log length), read only by ``moves``.
    _position: Any = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if type(self.id) is not int:
            object.__setattr__(self, "id", _as_action_id(self.id))
        if type(self.player) is not int:
            object.__setattr__(self, "player", _as_action_id(self.player, "an action's player"))

    def __str__(self) -> str:
        return self.label

    @property
    def moves(self) -> list[dict[str, JSONValue]]:
        """The moves this action will make (docs/api.md, "Zones and moves"), as far as the
        acting seat can know them now: ``{"from", "to", "cards"}`` for cards from a zone it
        sees, ``{"from", "to", "count"}`` else (a draw: ``{"from": "stock", "to": "hand:0",
        "count": 1}``). They are the moves of the event the action makes, those automatic
        events take aside (a canasta, a foot picked up), then the automatic events' moves
        that carry its cards on (the bout it ends: hand -> table, then table -> discard;
        cardcore.events.carried), never the draws that follow. Computed when first read (the
        action's own snapshot of the position): ``legal_actions()`` costs nothing more; []
        for an Action not made by a game."""
        cached: list[dict[str, JSONValue]] | None = self.__dict__.get("_moves")
        if cached is None:
            position = self._position
            cached = ([] if position is None else
                      position[0]._position_at(position[1]).moves(self.id, self.player))
            object.__setattr__(self, "_moves", cached)
        return [dict(m) for m in cached]

    def to_dict(self) -> dict[str, JSONValue]:
        """The action as JSON values: id, player, kind, cards, label, moves and the game's
        details."""
        return {"id": self.id, "player": self.player, "kind": self.kind,
                "cards": list(self.cards), "label": self.label, "moves": self.moves,
                **dict(self.info)}


class _Position:
    """The position legal actions were offered in (the game and how many actions its log
    held), shared by them: what ``Action.moves`` applies each to, on a copy. Nothing is
    copied until moves are read: the state then, if the game has not moved on (a log only
    grows), else the log's first actions replayed."""

    __slots__ = ("game", "done", "state", "zones", "made")

    def __init__(self, game: Game, done: int) -> None:
        self.game = game
        self.done = done
        self.state: GameState | None = None
        self.zones: Any = None                  # the position's zones, read once
        # Each action's moves for a seat, made once per position: the actions of another
        # legal_actions() call here (a seat's second socket, a GET) read them again.
        self.made: dict[tuple[int, int], list[dict[str, JSONValue]]] = {}

    def snapshot(self) -> GameState:
        if self.state is None:
            game = self.game
            token = game._take_token()
            try:
                if len(game._log) == self.done:
                    self.state = game._state.clone()
                else:
                    state = game._fresh_state()
                    for action_id in game._log[:self.done]:
                        state.apply(action_id)
                    self.state = state
            finally:
                game._give_token(token)
        return self.state

    def moves(self, action_id: int, seat: int) -> list[dict[str, JSONValue]]:
        """The moves (shared: ``Action.moves`` hands out copies)."""
        made = self.made.get((action_id, seat))
        if made is None:
            table = self.game._zone_table()
            state = self.snapshot()
            if self.zones is None:
                self.zones = table.cards(state)
            made = self.made[action_id, seat] = render_moves(
                table, action_moves_for(self.game, state, action_id, self.zones), seat,
                known="source")
        return made


@dataclass(frozen=True)
class ActionSpec:
    """The player-independent meaning of an action id (a game's decode table holds these)."""

    kind: str
    cards: tuple[str, ...]
    label: str
    info: Mapping[str, JSONValue] = field(default_factory=dict)


@dataclass(frozen=True)
class ShortMatch:
    """A short complete match of a game: the configuration the generic tests' full matches
    (the TypeScript client's among them) and the calibration of the levels
    (benchmarks/calibrate_levels.py) play. ``what`` says what one such match is, for the
    ladder's heading; ``calibration_games`` is how many the calibration plays."""

    players: int
    options: Mapping[str, Any] = field(default_factory=dict)
    what: str = ""
    calibration_games: int = 400


@dataclass(frozen=True)
class Option:
    """A game option: its default, a check that returns an error text or None, and a
    one-line description (from the rulebook).

    The checks below (``one_of``, ``int_between``, ``flag``, ``seat_or_lot``,
    ``players_multiple``) are declarations: the same parameters drive the check in the game's
    constructor, ``allowed_values()`` (``cardcore games``) and ``schema()`` (the JSON Schema
    fragment ``/api/games`` serves), so the three cannot disagree. A check of the game's own
    (a plain function) needs ``allowed`` and ``json_schema`` said by hand. ``saved`` is the
    wider check of an earlier release, for values its saves hold: ``load_game`` replays them
    by the rules they were played with, while a new game gets ``check``."""

    default: Any
    check: Callable[[Any, int], Union[str, None]]
    doc: str = ""
    resolve: Union[Callable[[Any, int], Any], None] = None   # e.g. a default that depends on players
    allowed: str = ""
    json_schema: Union[Mapping[str, Any], None] = None       # for a check of the game's own
    # The wider check of an earlier release, for the values its saves may hold (load_game
    # replays them by the rules they were played with); new games get ``check``.
    saved: Union[Callable[[Any, int], Union[str, None]], None] = None

    def allowed_values(self) -> str:
        """The values this option accepts, in words: ``"opposite" | "adjacent"``,
        ``1..1000``, ``True | False``, ..."""
        return self.allowed or str(getattr(self.check, "allowed", "")) or "see the rulebook"

    def schema(self, players: int | None = None, max_players: int = 1) -> dict[str, Any]:
        """The option as a JSON Schema fragment: type, allowed values or bounds, ``default``,
        ``description`` and ``x-rule`` (the rulebook's rule). With ``players`` the bounds are
        those of that player count; without, those of any count (a rule that depends on the
        player count is stated in ``x-players``: "below" a seat number, "multiple" of it,
        or the list of counts a True flag is for)."""
        make = getattr(self.check, "schema", None)
        fragment: dict[str, Any] = (dict(make(players, max_players)) if make is not None
                                    else dict(self.json_schema or {}))
        fragment.setdefault("x-allowed", self.allowed_values())
        rule = getattr(self.check, "rule", None)
        if rule:
            fragment["x-rule"] = rule
        fragment["default"] = self.default
        fragment["description"] = self.doc
        return fragment


SchemaOf = Callable[[Union[int, None], int], Mapping[str, Any]]


class _Check:
    """An option check that also says which values it accepts (``allowed``, in words, and
    ``schema(players, max_players)``, a JSON Schema fragment) and the rule it enforces."""

    def __init__(self, test: Callable[[Any, int], Union[str, None]], allowed: str,
                 schema: SchemaOf, rule: str) -> None:
        self.test = test
        self.allowed = allowed
        self.schema = schema
        self.rule = rule

    def __call__(self, value: Any, players: int) -> Union[str, None]:
        return self.test(value, players)


ActionLike = Union[Action, int, str, "np.integer[Any]"]
OptionCheck = Callable[[Any, int], Union[str, None]]


def is_int(value: Any) -> bool:
    """An int that is not a bool (JSON and options treat True as a flag, never as 1)."""
    return isinstance(value, int) and not isinstance(value, bool)


def resolve_seed(seed: int | None) -> int:
    """A usable seed: the given non-negative int, or fresh entropy for None; ConfigError else."""
    if seed is None:
        return secrets.randbits(63)
    try:
        seed_to_u64(seed)
    except (TypeError, ValueError) as e:
        raise ConfigError(f"seed: {e}", "seed") from None
    return seed


# The option checks' refusals, as the templates they fill: a ConfigError's text is
# OPTION_REFUSAL with ``problem`` one of OPTION_PROBLEMS, so the server and the terminal can
# show it in the reader's language (cardcore.texts.config_text); the rule ID stays.
OPTION_REFUSAL = N_("option {key}={value}: {problem}")
_SEAT_OR_LOT = N_("must be None (drawn by lot) or a seat 0..{last} ({rule})")
_ONE_OF = N_("must be one of {allowed} ({rule})")
_INT_BETWEEN = N_("must be an int {low}..{high} ({rule})")
_NONE_OR_INT = N_("must be None or an int {low}..{high} ({rule})")
_MULTIPLE = N_("must be None ({none_means}) or a positive multiple of the number of players "
               "({players}), at most {high} ({rule})")
_FLAG = N_("must be True or False ({rule})")
_FLAG_PLAYERS = N_("True is for {counts} players only, not {players} ({rule})")
OPTION_PROBLEMS = (_SEAT_OR_LOT, _ONE_OF, _INT_BETWEEN, _NONE_OR_INT, _MULTIPLE, _FLAG,
                   _FLAG_PLAYERS)


class Problem(str):
    """An option check's answer (one of OPTION_PROBLEMS filled): its English text, and its
    words as data (``words``) for the reader's language."""

    words: Words

    def __new__(cls, template: str, **fields: Any) -> Problem:
        words = Words(template, fields)
        made = super().__new__(cls, words.english())
        made.words = words
        return made


# The other refusals of a game's configuration (the players, unknown options).
CONFIG_REFUSALS = (
    N_("{game} is for {low} to {high} players, not {value}"),
    N_("players must be an int, not {type}"),
    N_("{game} has no option {named} (its options: {known})"),
)


def seat_or_lot(rule: str) -> OptionCheck:
    """Option check: None (drawn by lot from the seed) or a seat number."""
    def check(value: Any, players: int) -> str | None:
        if value is None or (is_int(value) and 0 <= value < players):
            return None
        return Problem(_SEAT_OR_LOT, last=players - 1, rule=rule)

    def schema(players: int | None, most: int) -> dict[str, Any]:
        return {"type": ["integer", "null"], "minimum": 0,
                "maximum": (players or most) - 1, "x-players": "below"}
    return _Check(check, "None (by lot) | a seat 0..players-1", schema, rule)


def one_of(*allowed: Any, rule: str) -> OptionCheck:
    """Option check: one of the listed values."""
    def check(value: Any, players: int) -> str | None:
        if any(value == a and type(value) is type(a) for a in allowed):
            return None
        return Problem(_ONE_OF, allowed=", ".join(map(repr, allowed)), rule=rule)
    return _Check(check, " | ".join(map(repr, allowed)),
                  lambda players, most: {"enum": list(allowed)}, rule)


def int_between(low: int, high: int, rule: str, allow_none: bool = False) -> OptionCheck:
    """Option check: an int in low..high (or None when allowed)."""
    def check(value: Any, players: int) -> str | None:
        if (allow_none and value is None) or (is_int(value) and low <= value <= high):
            return None
        return Problem(_NONE_OR_INT if allow_none else _INT_BETWEEN, low=low, high=high,
                       rule=rule)
    kind = ["integer", "null"] if allow_none else "integer"
    return _Check(check, ("None | " if allow_none else "") + f"{low}..{high}",
                  lambda players, most: {"type": kind, "minimum": low, "maximum": high}, rule)


def players_multiple(high: int, rule: str, none_means: str) -> OptionCheck:
    """Option check: None (``none_means``) or a positive multiple of the number of players,
    at most ``high`` (e.g. rounds that give every seat the same number of first turns)."""
    def check(value: Any, players: int) -> str | None:
        if value is None or (is_int(value) and 0 < value <= high and value % players == 0):
            return None
        return Problem(_MULTIPLE, none_means=Words(none_means), players=players, high=high,
                       rule=rule)

    def schema(players: int | None, most: int) -> dict[str, Any]:
        if players is None:
            return {"type": ["integer", "null"], "minimum": 1, "maximum": high,
                    "x-players": "multiple"}
        return {"type": ["integer", "null"], "minimum": players,
                "maximum": high - high % players, "multipleOf": players,
                "x-players": "multiple"}
    return _Check(check, f"None ({none_means}) | a multiple of players up to {high}",
                  schema, rule)


def flag(rule: str, players: Sequence[int] | None = None) -> OptionCheck:
    """Option check: True or False (True only for the player counts ``players``, if given)."""
    counts = tuple(players) if players is not None else None

    def check(value: Any, n: int) -> str | None:
        if not isinstance(value, bool):
            return Problem(_FLAG, rule=rule)
        if value and counts is not None and n not in counts:
            return Problem(_FLAG_PLAYERS, counts=" or ".join(map(str, counts)), players=n,
                           rule=rule)
        return None

    def schema(n: int | None, most: int) -> dict[str, Any]:
        if counts is None:
            return {"type": "boolean"}
        if n is not None and n not in counts:
            return {"type": "boolean", "const": False, "x-players": list(counts)}
        return {"type": "boolean", "x-players": list(counts)}
    allowed = "True | False" if counts is None else \
        f"True ({' or '.join(map(str, counts))} players) | False"
    return _Check(check, allowed, schema, rule)


def _normalize_label(text: str) -> str:
    """Canonical form of an action notation: the verb in lower case, then its card tokens in
    canonical notation and sorted, so ``play 10d ad`` and ``play AD 10D`` are the same."""
    words = text.replace(",", " ").split()
    if not words:
        return ""
    parts = []
    for token in words[1:]:
        pieces = []
        for piece in token.split("="):
            try:
                pieces.append(card_str(card_id(piece)))
            except ValueError:
                pieces.append(piece.lower())
        parts.append("=".join(pieces))
    return " ".join([words[0].lower()] + sorted(parts))


class Game:
    """A game in progress. Create with ``cardcore.new_game``; see docs/api.md for the contract."""

    # --- supplied by each game -------------------------------------------------------
    name: ClassVar[str]                           # the package's name: "some_game"
    title: ClassVar[str]                          # the name people read: "Some Game"
    default_players: ClassVar[int]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options_spec: ClassVar[dict[str, Option]] = {}
    phases: ClassVar[tuple[str, ...]] = ()
    rulebook: ClassVar[str] = ""                  # its file in the top-level games/ folder
    rule_prefix: ClassVar[str]                    # "SG": the rulebook's rule IDs are SG-n.m
    score_direction: ClassVar[str] = "higher is better"   # how to read ``scores``
    # What the game calls a round ("round", "deal", "hand"): the round-end event's kind is
    # ``round_end_event`` = f"{round_name}_end", and deal events number rounds by this key.
    round_name: ClassVar[str] = "round"
    round_end_event: ClassVar[str]                # derived from round_name (__init_subclass__)
    search_horizon: ClassVar[str] = "round"       # ISMCTSBot's default: "round" or "match"
    search_reward: ClassVar[str] = "win"          # ISMCTSBot's default: "win" or "points"
    narrator: ClassVar[type[Narrator]]            # turns state changes into events
    # The greedy bot's heuristic (GreedyBot): ``greedy(game, rng) -> a legal id``, or None.
    greedy: ClassVar[Union[GreedyHeuristic, None]] = None
    # The difficulty levels, ``make_bot("level:N")``: a bot spec per level 1..5, weakest
    # first. Each game defines and calibrates its own (cardcore tournament: ratings rising
    # with N, neighbours >= 100 Elo apart; the ladder is in docs/bots.md); this default is a
    # starting point for a new game with a greedy heuristic.
    levels: ClassVar[Mapping[int, str]] = {
        1: "random", 2: "greedy:epsilon=0.5", 3: "greedy", 4: "ismcts:iterations=100",
        5: "ismcts:iterations=1000,think_ms=500"}
    # The review's default reference (cardcore.review.reference_spec): an ``ismcts`` spec
    # bound by iterations (no think_ms), searched several times a decision, their visits
    # pooled. Each game declares one it measured against its levels
    # (benchmarks/review_reference.py); None: level 5's search without its time cap.
    review_reference: ClassVar[Union[str, None]] = None
    # The exploration of the searches that estimate every move in a review, where the
    # reference's own searches (whose pooled visits pick the move) explore narrower: a playing
    # exploration picks stronger moves, but leaves the moves it dislikes a few playouts each.
    # None: the reference's searches do both.
    review_exploration: ClassVar[Union[float, None]] = None
    # A short complete match (ShortMatch); undeclared, the fewest players with the default
    # options (set in __init_subclass__).
    short_match: ClassVar[ShortMatch]
    schema_parts: ClassVar[SchemaParts]           # the game's parts of the JSON Schemas
    # The game's speed targets for the benchmarks (benchmarks/bench_vector.py,
    # bench_bots.py): figure -> number, kept with the game so no benchmark lists games.
    # Known figures: "vector_steps_per_s" (VectorGame step + legal_mask, one core; the
    # benchmark's uniform BENCHMARK_DEFAULTS value when undeclared), "bots_ratio_0_2" and
    # "bots_goal_factor" (greedy/random time ratio of release 0.2 and the aimed speed-up;
    # undeclared, the figure has no goal).
    benchmark_targets: ClassVar[Mapping[str, float]] = {}
    # Terminal phrases for the game's own event kinds (cardcore.narrate): kind -> phrase.
    phrases: ClassVar[Mapping[str, Any]] = {}      # kind -> a cardcore.narrate.Phrase
    # Why a round or the match ended, in words: the ``reason_code`` of the round-end and
    # match-end events -> a msgid of the game's catalog (``{name}``: the seat
    # ``reason_seat``), or a pair (said to that seat, said of it) where the verb agrees.
    reasons: ClassVar[Mapping[str, Union[str, tuple[str, str]]]] = {}
    # The zones (cardcore.zones): a label per kernel zone name and split zone kind (an
    # English noun marked N_, translated by the game's catalog); the kernel zones that hold
    # several piles made in play, each split into one zone per pile (kernel name -> the
    # piles' zone kind: {"melds": "meld"} gives "meld:T:N"; ``_zone_parts`` says how); the
    # zone that holds the cards before a deal and gathers them after a round.
    zone_labels: ClassVar[Mapping[str, str]]
    split_zones: ClassVar[Mapping[str, str]] = {}
    deck_zone: ClassVar[str] = "stock"
    # How a UI lays out a kernel zone's cards when it is not a plain pile (docs/api.md,
    # "Zones and moves"): kernel name -> layout. "pairs": slots, each a card and the card
    # covering it (a bout's attacks and their beats); ``_zone_slots`` gives them and the
    # view carries them (``slots``), the zone's descriptor says ``"layout": "pairs"``.
    zone_layouts: ClassVar[Mapping[str, str]] = {}
    # The cards that are wild in every position, as notations (``wild_cards`` lists them in
    # id order for a table to mark); none by default.
    wild: ClassVar[tuple[str, ...]] = ()

    _REQUIRED: ClassVar[tuple[str, ...]] = (
        "name", "title", "default_players", "min_players", "max_players", "rule_prefix",
        "narrator", "schema_parts", "zone_labels")

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """A game declares what shared code asks of it; a missing declaration is an error at
        import (no silent default), and the derived ones are set here."""
        super().__init_subclass__(**kwargs)
        missing = [attr for attr in cls._REQUIRED if not hasattr(cls, attr)]
        if missing:
            raise TypeError(f"{cls.__qualname__} does not declare {', '.join(missing)}")
        if cls.search_horizon not in ("round", "match"):
            raise TypeError(f"{cls.__qualname__}.search_horizon must be 'round' or 'match'")
        if cls.search_reward not in ("win", "points"):
            raise TypeError(f"{cls.__qualname__}.search_reward must be 'win' or 'points'")
        cls.round_end_event = f"{cls.round_name}_end"
        if getattr(cls, "short_match", None) is None:     # declared here or inherited
            players = max(cls.min_players, 2)
            cls.short_match = ShortMatch(players, {}, f"{players}-player matches")
        if sorted(cls.levels) != [1, 2, 3, 4, 5] or not all(
                isinstance(spec, str) for spec in cls.levels.values()):
            raise TypeError(f"{cls.__qualname__}.levels must give a bot spec for each level 1..5")
        if cls.review_reference is not None and not (
                isinstance(cls.review_reference, str)
                and cls.review_reference.startswith("ismcts")
                and "think_ms" not in cls.review_reference):
            raise TypeError(f"{cls.__qualname__}.review_reference must be an ismcts spec "
                            f"without think_ms, or None")
        if cls.review_exploration is not None and (
                isinstance(cls.review_exploration, bool)
                or not isinstance(cls.review_exploration, (int, float))
                or not 0 < cls.review_exploration <= 100):
            raise TypeError(f"{cls.__qualname__}.review_exploration must be a number in "
                            f"(0, 100], or None")

    @classmethod
    def rulebook_text(cls) -> str:
        """The game's rulebook (Markdown). The one copy is the top-level ``games/<rulebook>``
        of the source tree, which the installed package carries as ``cardcore.rulebooks``
        (mapped from that folder, not copied). ConfigError if it is not there."""
        try:
            book = resources.files("cardcore.rulebooks").joinpath(cls.rulebook)
            if book.is_file():
                return book.read_text(encoding="utf-8")
        except ModuleNotFoundError:            # a source tree built in place: the folder itself
            pass
        source = Path(__file__).resolve().parents[2] / "games" / cls.rulebook
        if cls.rulebook and source.is_file():
            return source.read_text(encoding="utf-8")
        raise ConfigError(f"the rulebook of {cls.name} ({cls.rulebook}) is not installed", "name")

    @classmethod
    def sides_of(cls, players: int, options: Mapping[str, Any]) -> list[int]:
        """A side number per seat: partners share one (search credits them together);
        by default every seat is its own side."""
        return list(range(players))

    @classmethod
    def deck_for(cls, players: int, options: Mapping[str, Any]) -> list[int]:
        """The deck composition (card ids, id order) for this configuration."""
        raise NotImplementedError

    @classmethod
    def action_specs(cls, players: int, options: Mapping[str, Any]) -> Sequence[ActionSpec]:
        """The decode table: one ActionSpec per action id, for this configuration."""
        raise NotImplementedError

    def _make_state(self, deck: list[int] | None) -> GameState:
        raise NotImplementedError

    def _view_extra(self, player: int | None) -> dict[str, JSONValue]:
        """The game's own view keys for seat ``player`` (None: a spectator; a key about one
        seat is then None)."""
        return {}

    def _hand(self, player: int) -> list[int]:
        """A seat's hand (card ids): the state's ``hand(seat)``."""
        return list(self._state.hand(player))

    def _hand_sizes(self) -> list[int]:
        """Every seat's hand size: the state's ``hand_sizes()``."""
        return list(self._state.hand_sizes())

    def _round_summary(self, state: GameState) -> dict[str, JSONValue]:
        """Public facts about the round that ``state`` has just finished (for ``history``)."""
        return {}

    def _zone_parts(self, state: GameState, name: str, instance: int
                    ) -> Sequence[Sequence[int]]:
        """The piles of kernel zone ``name`` (one of ``split_zones``), instance
        ``instance``, in ``state``: each pile's cards (a list or the kernel's bytes of ids),
        a pile's index its zone's number (stable while it holds cards)."""
        raise NotImplementedError(f"{type(self).__qualname__} splits zone {name!r} "
                                  f"but has no _zone_parts")

    def _zone_slots(self, state: GameState, name: str, instance: int
                    ) -> Sequence[tuple[int, int | None]]:
        """The slots of kernel zone ``name`` (one of ``zone_layouts``), instance
        ``instance``, in ``state``: (card, the card covering it or None), in the zone's
        order (its cards are the slots' cards, each followed by its cover)."""
        raise NotImplementedError(f"{type(self).__qualname__} lays out zone {name!r} "
                                  f"but has no _zone_slots")

    @classmethod
    def zones_of(cls, players: int | None = None, **options: Any) -> list[dict[str, JSONValue]]:
        """The zones of a configuration, declared once from the kernel's zone table:
        ``{"id", "kind", "owner", "team", "label"}`` each (docs/api.md, "Zones and
        moves"). Zones made in play (a team's meld ``"meld:T:N"``) are not listed: the event
        whose moves first fill one announces it (``new_zones``). ConfigError as ``new_game``."""
        return [dict(z) for z in cls(players=players, seed=0, **options)._zone_table().static]

    @property
    def zones(self) -> list[dict[str, JSONValue]]:
        """The zones now: those of ``zones_of``, then the zones made in play that hold
        cards (a team's melds)."""
        token = self._take_token()
        try:
            return self._zone_table().descriptors(self._state)
        finally:
            self._give_token(token)

    def _zone_table(self) -> ZoneTable:
        table: ZoneTable | None = self.__dict__.get("_zones_cache")
        if table is None:
            table = self.__dict__["_zones_cache"] = ZoneTable.of(self)
        return table

    def _position_at(self, done: int) -> _Position:
        """The position after the log's first ``done`` actions, for ``Action.moves``: the
        last one asked is kept, so the actions of one position share its snapshot."""
        last: _Position | None = self.__dict__.get("_last_position")
        if last is None or last.done != done:
            last = self.__dict__["_last_position"] = _Position(self, done)
        return last

    def _action_narrator(self) -> Narrator:
        """A narrator for ``Action.moves`` (the narration's own is for its replay)."""
        narrator: Narrator | None = self.__dict__.get("_moves_narrator")
        if narrator is None:
            narrator = self.__dict__["_moves_narrator"] = self.narrator(self)
        return narrator

    def hidden_deck_positions(self, seat: int) -> list[int]:
        """Positions in this game's stacked deck (top first) whose cards ``seat`` could not see
        right after the first deal, from the game's deal plan. The conformance tests swap
        such cards and expect the same view, tensor and events. ValueError unless ``seat``
        is a seat of this game."""
        seat = self._seat(seat)
        plan = self.deal_plan_of(self.num_players, self.options, self._state.dealer)
        return [i for i, zone in enumerate(plan) if not self._zone_visible(zone, seat)]

    # Deal-plan entries (``deal_plan_of``) name the kernel's zones ("hand:2", "stock"). A game
    # may also name a position the deal turns face up before it joins a zone (its
    # ``shown_deal_entries``) or a zone by another word (``deal_entry_zones``).
    shown_deal_entries: ClassVar[tuple[str, ...]] = ()
    deal_entry_zones: ClassVar[dict[str, str]] = {}

    def _zone_visible(self, zone: str, seat: int) -> bool:
        """Whether ``seat`` sees the cards dealt to ``zone`` (a deal-plan entry): what the
        kernel's zone table says of that zone, or True for a position the deal shows."""
        name, _, instance = zone.partition(":")
        if name in self.shown_deal_entries:
            return True
        return bool(self._state.zone_sees(self.deal_entry_zones.get(name, name),
                                          int(instance or 0), seat))

    def table_lines(self, player: int) -> list[str]:
        """Plain-text lines describing the public table, for terminal front ends."""
        return []

    def hand_order_key(self, player: int) -> Callable[[str], Any] | None:
        """How a front end sorts the hand it shows ``player``: a key over card notations,
        for a game that ranks cards its own way (aces high, trumps last); None keeps the
        view's order (by rank, aces low, then suit)."""
        return None

    def _action_detail(self, action_id: int, spec: ActionSpec, player: int
                       ) -> tuple[tuple[str, ...], Mapping[str, JSONValue]] | None:
        """Cards (and extra details) of an action that depend on the current state, e.g. the
        top card a ``draw_discard`` takes; None when the decode table's cards are complete."""
        return None

    conformance_configs: ClassVar[list[dict[str, Any]]] = []

    # Saves of format 1 (cardcore 0.1) record only the options 0.1 had. An option added since
    # whose default is not the 0.1 behaviour names its 0.1 value here; load_game gives it to
    # a format-1 save that does not record it (e.g. {"going_out": "optional"}).
    format1_options: ClassVar[dict[str, Any]] = {}

    # Numbers for learning and search (api.md "Additions in 0.2"): each game states its
    # observation layout (the C projection's offsets), its utility bounds and a length bound.
    @classmethod
    def observation_pieces_of(cls, players: int, options: Mapping[str, Any]
                              ) -> Sequence[tuple[str, int, int]]:
        """The observation layout: (name, offset, size) per piece, in order."""
        raise NotImplementedError

    @classmethod
    def utility_range_of(cls, players: int, options: Mapping[str, Any]) -> tuple[float, float]:
        """(min, max) of any seat's ``returns()`` in this configuration."""
        raise NotImplementedError

    @classmethod
    def max_game_length_of(cls, players: int, options: Mapping[str, Any]) -> int:
        """An upper bound on the actions of a whole match in this configuration."""
        raise NotImplementedError

    @classmethod
    def observation_bounds_of(cls, players: int, options: Mapping[str, Any]
                              ) -> Mapping[str, tuple[float, float]]:
        """(low, high) of every entry of an observation piece, by piece name (the pieces of
        ``observation_pieces_of``): what VectorGame's ``observation="scaled"`` maps to
        [0, 1]. A piece left out has no declared bounds (+-inf)."""
        return {}

    @classmethod
    def observation_variants_of(cls, players: int, options: Mapping[str, Any]
                                ) -> Mapping[str, tuple[int, int]]:
        """Named variants of the observation, each a slice (offset, size) of it, e.g. the
        tensor of another engine that the observation begins with (``observation_tensor(seat,
        observation=name)``, VectorGame's ``observation=name``). None by default."""
        return {}

    @classmethod
    def deal_plan_of(cls, players: int, options: Mapping[str, Any], first: int) -> list[str]:
        """The zone of each deck position (top first) in a deal begun by seat ``first``."""
        raise NotImplementedError

    # --- common machinery --------------------------------------------------------------
    def __init__(self, *, players: int | None = None, seed: int | None = None,
                 deck: Sequence[str] | None = None, **options: Any) -> None:
        self.num_players = self._check_players(players)
        (self.options, self._specs, self._label_index,
         self._spec_card_ids) = self._configuration(options)
        self.seed: int = resolve_seed(seed)
        self._deck_input = None if deck is None else self._check_deck(deck)
        self._origin: GameState | None = None     # a sample_hidden world's first state
        self._state = self._fresh_state()
        self._log: list[int] = []
        # log index -> the card ids apply(..., cards=) chose there (where not the engine's own)
        self._chosen: dict[int, tuple[int, ...]] = {}
        self._sampled_for: int | None = None      # the seat a sample_hidden world is for
        self._init_shared()
        self._bind_fast_path()

    def _init_shared(self) -> None:
        """Per-instance guard and caches (a clone gets its own). ``_token`` makes a state
        change and its log entry one step, so a Game shared by threads never tears: a step
        takes the single token out of the list and puts it back (list.pop and list.append
        are atomic), which costs a fraction of a threading.Lock on the fast path."""
        self._token: list[bool] = [True]
        self._narration: Any = None               # cardcore.events.Narration, built lazily
        self.__dict__.pop("_last_position", None)  # Action.moves' snapshot: the copy's own

    def _take_token(self) -> bool:
        """Wait until no other thread is in the middle of a step, then hold the token."""
        while True:
            try:
                return self._token.pop()
            except IndexError:
                time.sleep(0)                     # another thread is mid-step: let it finish

    def _give_token(self, token: bool) -> None:
        self._token.append(token)

    def _bind_fast_path(self) -> None:
        # Bound C methods stored on the instance: the simulation fast path costs one call.
        # Call again whenever _state, _log or _token is replaced (as __init__ and clone do).
        self.__dict__["legal_action_ids"] = self._state.legal_ids
        self.__dict__["apply"] = self._fast_apply()

    def _fast_apply(self) -> Callable[..., None]:
        """``apply`` for this instance: an int id (and no ``player``) is checked, applied and
        logged in C under the GIL (``cardcore._fast.LoggedApply``); anything else, or a call
        while another thread holds the guard, takes ``Game.apply``. Either way the state change
        and its log entry are one step."""
        checked = type(self).apply

        def slow(action: Any, player: int | None, cards: Any = None) -> None:
            checked(self, action, player, cards)

        return LoggedApply(self._state, self._log, self._token, slow)

    def legal_action_ids(self) -> list[int]:
        """The fast path: the legal actions' ids, ascending, no objects; empty exactly when
        the match is over. (Each instance binds this to the state machine's C method.)"""
        return self._state.legal_ids()

    _CONFIGURATIONS_KEPT: ClassVar[int] = 256   # per game: the configurations remembered

    def _configuration(self, given: Mapping[str, Any]
                       ) -> tuple[dict[str, Any], Sequence[ActionSpec], dict[str, int],
                                  dict[int, tuple[int, ...]]]:
        """The checked options (the game's own copy), the decode table, the notation index
        and the card ids of the table's actions (filled as the narrators parse them, shared
        by the configuration's games) of this configuration. Checking options and building
        the table cost more than the rest of a new game, so a configuration met before is
        looked up (the options as given, their types included: 1 and True are different
        options)."""
        cls = type(self)
        cache: dict[Any, Any] | None = cls.__dict__.get("_configurations")
        if cache is None:
            cache = {}
            setattr(cls, "_configurations", cache)
        try:
            key: Any = (self.num_players,
                        tuple(sorted((k, type(v), v) for k, v in given.items())))
            known = cache.get(key)
        except TypeError:                     # an unhashable or unorderable value: not kept
            key, known = None, None
        if known is None:
            options = self._check_options(given)
            specs = tuple(cls.action_specs(self.num_players, options))
            index = {_normalize_label(spec.label): i for i, spec in enumerate(specs)}
            if len(index) != len(specs):
                raise RuntimeError(f"{cls.name}: two action ids share a notation")
            known = (options, specs, index, {})
            if key is not None:
                if len(cache) >= cls._CONFIGURATIONS_KEPT:
                    cache.clear()
                cache[key] = known
        return dict(known[0]), known[1], known[2], known[3]

    @classmethod
    def option_schema(cls, players: int | None = None) -> dict[str, dict[str, Any]]:
        """Each option as a JSON Schema fragment (``Option.schema``): its type, allowed values
        or bounds, ``default``, a one-line ``description``, the rule (``x-rule``). With
        ``players``, the bounds of that player count (ConfigError for a count the game does
        not take); without, those of any count, with ``x-players`` saying how a bound
        depends on the count. The constructor checks options against the same declarations."""
        if players is not None:
            players = cls._check_players(players)
        return {key: option.schema(players, cls.max_players)
                for key, option in cls.options_spec.items()}

    @classmethod
    def _check_players(cls, players: int | None) -> int:
        if players is None:
            return cls.default_players
        if isinstance(players, bool) or not isinstance(players, int):
            raise ConfigError(Words(CONFIG_REFUSALS[1], {"type": type(players).__name__}),
                              "players")
        if not cls.min_players <= players <= cls.max_players:
            raise ConfigError(Words(CONFIG_REFUSALS[0], {
                "game": cls.name, "low": cls.min_players, "high": cls.max_players,
                "value": echo(players)}), "players")
        return players

    def _check_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(given) - set(self.options_spec))
        if unknown:
            known = ", ".join(sorted(self.options_spec)) or "none"
            named = ", ".join(echo(k) if not isinstance(k, str) or len(k) > 40 else k
                              for k in unknown[:5]) + (", ..." if len(unknown) > 5 else "")
            raise ConfigError(Words(CONFIG_REFUSALS[2], {"game": self.name, "named": named,
                                                         "known": known}), unknown[0])
        resolved = {}
        for key, option in self.options_spec.items():
            value = given.get(key, option.default)
            check = option.saved if option.saved is not None and REPLAYING_SAVE.get() \
                else option.check
            problem = check(value, self.num_players)
            if problem:
                said = problem.words if isinstance(problem, Problem) else Words(problem)
                raise ConfigError(Words(OPTION_REFUSAL, {"key": key, "value": echo(value),
                                                         "problem": said}), key)
            resolved[key] = option.resolve(value, self.num_players) if option.resolve else value
        return resolved

    def _check_deck(self, deck: Sequence[str]) -> list[int]:
        if isinstance(deck, (str, bytes)) or not isinstance(deck, Sequence):
            raise ConfigError("deck must be a list of card notations, top card first", "deck")
        expected = self.deck_for(self.num_players, self.options)
        if len(deck) != len(expected):              # before parsing: a huge list costs nothing
            raise ConfigError(f"deck has {len(deck)} cards; {self.name} with {self.num_players} "
                              f"players uses {len(expected)}", "deck")
        try:
            ids = [card_id(c) for c in deck]
        except ValueError as e:
            raise ConfigError(f"deck: {e}", "deck") from None
        if sorted(ids) != expected:
            have: dict[int, int] = {}
            for c in ids:
                have[c] = have.get(c, 0) + 1
            want: dict[int, int] = {}
            for c in expected:
                want[c] = want.get(c, 0) + 1
            extra = [f"{card_str(c)} x{have[c] - want.get(c, 0)}" for c in sorted(have)
                     if have[c] > want.get(c, 0)]
            missing = [f"{card_str(c)} x{want[c] - have.get(c, 0)}" for c in sorted(want)
                       if want[c] > have.get(c, 0)]
            raise ConfigError(f"deck composition is wrong: too many {', '.join(extra)}; "
                              f"missing {', '.join(missing)}", "deck")
        return ids

    # --- public protocol ----------------------------------------------------------------
    @property
    def wild_cards(self) -> list[str]:
        """The cards that are wild now, as notations in id order (a table marks them): the
        class's ``wild`` (every copy of each card listed), or, in a game whose wild cards
        change in play (a wild rank drawn each deal), what its override says. [] in a game
        without wild cards."""
        return list(self.wild)

    @property
    def current_player(self) -> int | None:
        """The seat to move, or None once the match is over."""
        return self._state.current_player

    @property
    def is_over(self) -> bool:
        """True once the whole match is over (then ``legal_actions()`` is empty)."""
        return self._state.is_over

    @property
    def phase(self) -> str:
        """The game-specific stage name ("draw", "discard", ..., "over")."""
        return self.phases[self._state.phase]

    @property
    def scores(self) -> list[int]:
        """The match scores, one per seat (a team game shows each seat its team's score).
        The direction is the game's (``score_direction``): penalty points (lower is better)
        or points won (higher is better)."""
        return list(self._state.scores())

    @property
    def winners(self) -> list[int]:
        """The winning seats (several on a tie or for a team); [] until the match is over."""
        return list(self._state.winners()) if self._state.is_over else []

    @property
    def num_distinct_actions(self) -> int:
        """Size of this configuration's fixed integer action space."""
        return len(self._specs)

    @property
    def state(self) -> GameState:
        """A snapshot of the core state, for bots, tools and tests: its getters (hands,
        piles, counters) read the whole game, hidden cards included, so a fair bot reads
        only its own seat. Changing the snapshot never changes the game (it is a copy,
        about a microsecond to make)."""
        return self._state.clone()

    # --- numbers for learning and search ----------------------------------------------
    @property
    def observation_shape(self) -> tuple[int]:
        """The shape of ``observation_tensor``: fixed for a configuration."""
        return (self._state.observation_size,)

    @property
    def observation_pieces(self) -> list[tuple[str, int, int]]:
        """The tensor's documented layout: (name, offset, size) in order (rulebook
        section "Observation")."""
        return list(type(self).observation_pieces_of(self.num_players, self.options))

    def observation_tensor(self, seat: int,
                           out: npt.NDArray[np.float32] | None = None) -> npt.NDArray[np.float32]:
        """What ``seat`` may know, as float32 (written in C; into ``out`` when given: a
        C-contiguous float32 array of ``observation_shape`` in native byte order). One call
        of the core, holding the GIL throughout: always one position's tensor, even while
        another thread plays."""
        return self._state.observation_tensor(seat, out)

    @property
    def observation_variants(self) -> dict[str, tuple[int]]:
        """The observation variants of this configuration (``observation_variants_of``)
        and their shapes."""
        return {name: (size,) for name, (_, size) in
                type(self).observation_variants_of(self.num_players, self.options).items()}

    def observation_variant(self, seat: int, observation: str) -> npt.NDArray[np.float32]:
        """The variant ``observation`` (a name in ``observation_variants``, e.g. Crazy
        Eights' "openspiel") of ``observation_tensor(seat)``, as a new float32 array;
        ConfigError naming ``observation`` for a name this game does not have."""
        variants = type(self).observation_variants_of(self.num_players, self.options)
        if not isinstance(observation, str) or observation not in variants:
            raise ConfigError(f"observation must be one of {', '.join(variants) or 'none'} "
                              f"for {self.name}, not {_echo(observation)}", "observation")
        offset, size = variants[observation]
        tensor: npt.NDArray[np.float32] = self._state.observation_tensor(seat)
        variant: npt.NDArray[np.float32] = tensor[offset:offset + size].copy()
        return variant

    def returns(self) -> list[float]:
        """Per seat, higher is better in every game; all zeros until the match is over.
        (One call of the core: one position's returns.)"""
        return self._state.returns()

    @property
    def utility_range(self) -> tuple[float, float]:
        """(min, max) bounds of ``returns()`` in this configuration."""
        return type(self).utility_range_of(self.num_players, self.options)

    @property
    def max_game_length(self) -> int:
        """An upper bound on the number of actions of a whole match (guards included)."""
        return type(self).max_game_length_of(self.num_players, self.options)

    # --- information states (cardcore.information_state) ------------------------------
    @property
    def information_state_pieces(self) -> list[tuple[str, int, int]]:
        """The layout of ``information_state_tensor``: (name, offset, size) in order:
        ``observation`` (the observation tensor now), ``dealt`` and ``received`` (a count
        per distinct card of the deck, ``information_state_cards``: the cards the seat was
        dealt this round, and those it drew or took privately since), ``history`` (the last
        ``HISTORY_EVENTS`` events, ``HISTORY_FIELDS`` numbers each: the actor + 1, the
        kind's index in ``information_state_kinds`` + 1, the action id + 1 or 0)."""
        return list(Layout.of(self).pieces)

    @property
    def information_state_shape(self) -> tuple[int]:
        """The shape of ``information_state_tensor``: fixed for a configuration."""
        return (Layout.of(self).size,)

    @property
    def information_state_cards(self) -> list[str]:
        """The distinct cards of the deck in id order: the entries of the tensor's ``dealt``
        and ``received`` pieces."""
        return [card_str(c) for c in Layout.of(self).cards]

    @property
    def information_state_kinds(self) -> list[str]:
        """Every event kind of the game in a fixed order (its action kinds, then its
        automatic kinds): the tensor's history codes a kind as its index here + 1."""
        return list(Layout.of(self).kinds)

    def information_state_string(self, seat: int) -> str:
        """Everything ``seat`` has seen, in order (perfect recall): one line per event as it
        saw it (``events(seat)``), so it names no card the seat may not see. Two histories
        the seat can tell apart give different strings."""
        return self._seat_record(self._seat(seat)).string()

    def information_state_tensor(self, seat: int, out: npt.NDArray[np.float32] | None = None
                                 ) -> npt.NDArray[np.float32]:
        """``information_state_string`` as float32 of ``information_state_shape`` (layout:
        ``information_state_pieces``; into ``out`` when given, a C-contiguous float32 array
        of that shape). A match of at most ``HISTORY_EVENTS`` events is held in full; a
        longer one keeps its most recent events."""
        seat = self._seat(seat)
        shape = self.information_state_shape
        if out is None:
            out = np.empty(shape, np.float32)
        elif (not isinstance(out, np.ndarray) or out.dtype != np.float32 or out.shape != shape
              or not out.flags.c_contiguous or not out.flags.writeable):
            raise ValueError(f"out must be a writable C-contiguous float32 array of shape "
                             f"{shape}")
        self._seat_record(seat).fill(out, self.observation_tensor(seat))
        return out

    def _seat_record(self, seat: int) -> SeatRecord:
        """The seat's information-state record, brought up to the action log."""
        layout = Layout.of(self)
        narration = self._narrate()
        with narration.lock:
            record = narration.seat_records.get(seat)
            if record is None:
                record = narration.seat_records[seat] = SeatRecord(seat, len(layout.cards))
            record.extend(narration.raw, layout, self.round_end_event)
            return record

    def sample_hidden(self, seat: int, seed: int) -> Game:
        """A world: a copy in which everything ``seat`` cannot see is redealt uniformly among
        the deals consistent with what it has seen, and future shuffles are redrawn.
        ``view(seat)`` and ``observation_tensor(seat)`` are unchanged.

        Nothing in a world rebuilds the real game: its ``seed`` is a fresh one (drawn from
        ``seed`` alone; ``new_game`` with it deals another game), it has no stacked deck,
        and its history starts at the moment it was sampled: ``action_log()``, ``events()``
        and ``history`` hold only what was played in the world since (empty at first; events
        numbered from 0, for any seat, showing the world's own sampled cards). The events
        up to that moment are the real game's ``events(seat)``; ``seat``'s information state
        is the real game's, continued. A world plays on like any game, but cannot be saved
        (``to_json`` raises ValueError: no seed deals it)."""
        seat = self._seat(seat)
        try:
            seed_to_u64(seed)
        except (TypeError, ValueError) as e:
            raise ValueError(f"sample_hidden seed: {e}") from None
        token = self._take_token()
        try:
            state = self._state.sample_hidden(seat, seed)
        finally:
            self._give_token(token)
        world = object.__new__(type(self))
        world.__dict__.update(self.__dict__)          # configuration and decode tables
        world.options = dict(self.options)
        fresh = Random(seed_to_u64(seed) ^ WORLD_SEED_STREAM)
        world.seed = (fresh.next_u32() << 32) | fresh.next_u32()
        world._deck_input = None
        world._state = state
        world._origin = state.clone()                 # where the world's history begins
        world._sampled_for = seat
        world._log = []
        world._chosen = {}
        world._init_shared()
        world._inherit_information_state(self, seat)
        world._bind_fast_path()
        return world

    def _inherit_information_state(self, game: Game, seat: int) -> None:
        """A world's information state for the seat it was sampled for begins with that
        seat's past in ``game`` (the same in both, by construction), so that search keyed
        on information states (OpenSpiel's IS-MCTS) finds the real game's node in every
        world. The other seats' pasts cannot be rebuilt: theirs begin at the sampling."""
        record = game._seat_record(seat).copy()
        record.done = 0                               # the world's own events follow
        self._narrate().seat_records[seat] = record

    def _seat(self, seat: Any, what: str = "seat") -> int:
        """``seat`` if it is a seat of this game (an int, numpy ints too); ValueError else."""
        if isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)) \
                or not 0 <= seat < self.num_players:
            raise ValueError(f"{what} must be a seat 0..{self.num_players - 1}, "
                             f"not {echo(seat)}")
        return int(seat)

    def action_from_id(self, action_id: int) -> Action:
        """The Action with this id, attributed to the player to move (or seat -1 when over).
        Cards that depend on the position (the top card a ``draw_discard`` takes, the table
        a ``take`` takes, the exact cards of a meld) are filled in for the position now."""
        token = self._take_token()
        try:
            return self._action_from_id(action_id)
        finally:
            self._give_token(token)

    def _action_from_id(self, action_id: int,
                        position: tuple[Game, int] | None = None) -> Action:
        action_id = _as_action_id(action_id)
        if not 0 <= action_id < len(self._specs):
            raise IllegalActionError(Words("action id {action} is outside 0..{last}",
                                           {"action": echo(action_id),
                                            "last": len(self._specs) - 1}))
        spec = self._specs[action_id]
        player = self._state.current_player
        seat = -1 if player is None else player
        detail = self._action_detail(action_id, spec, seat) if player is not None else None
        if player is not None and position is None and self._state.is_legal(action_id):
            position = (self, len(self._log))
        if detail is None:
            return Action(action_id, seat, spec.kind, spec.cards, spec.label, spec.info,
                          position)
        cards, info = detail
        return Action(action_id, seat, spec.kind, cards, spec.label, {**spec.info, **info},
                      position)

    def legal_actions(self) -> list[Action]:
        """The legal actions now, in id order, with their cards; empty exactly when over."""
        token = self._take_token()
        try:
            position = (self, len(self._log))       # Action.moves reads it, if ever
            player = self._state.current_player
            if player is None:
                return [self._action_from_id(i, position) for i in self._state.legal_ids()]
            # _action_from_id without its checks: the kernel's ids are ints in range
            specs, detail_of, out = self._specs, self._action_detail, []
            for i in self._state.legal_ids():
                spec = specs[i]
                detail = detail_of(i, spec, player)
                if detail is None:
                    out.append(Action(i, player, spec.kind, spec.cards, spec.label, spec.info,
                                      position))
                else:
                    out.append(Action(i, player, spec.kind, detail[0], spec.label,
                                      {**spec.info, **detail[1]}, position))
            return out
        finally:
            self._give_token(token)

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        """numpy bool array of length ``num_distinct_actions``: True at the legal ids."""
        mask = np.zeros(len(self._specs), dtype=bool)
        mask[self._state.legal_ids()] = True      # one call of the core: one position's ids
        return mask

    def apply(self, action: ActionLike, player: int | None = None,
              cards: Sequence[str] | None = None) -> None:
        """Apply a legal action: an Action, its int id (numpy ints too) or its notation.

        With ``player`` (a server's seat; numpy ints too) the action must also be that seat's
        to make. With ``cards`` (card notations, a list or tuple) the action takes exactly
        those cards from the hand where it names its hand cards by count or rank (e.g. a
        meld named by ranks: which suits leave the hand); they must be a multiset the action
        could take now (as many, each of the kind it needs at its place, held), and for an
        action that names its cards they must be ``Action.cards``. The choice is recorded
        (``chosen_cards``) and saves replay it. Anything not legal now raises
        IllegalActionError naming the rule and changes nothing. The seat check, the action's
        resolution, the state and the action log are one step (a per-game guard), so a Game
        shared by threads stays consistent, its saves load, and a move checked for one seat is
        never applied as another's; one Game per thread is faster (no waiting). The fast path,
        ``apply(int)``, costs no more than in 0.1."""
        try:
            token = self._token.pop()
        except IndexError:
            token = self._take_token()
        try:
            if type(action) is int and player is None:
                action_id = action
            else:
                if player is not None:
                    self._check_player(player)
                action_id = self._resolve(action)
            if cards is None:
                self._state.apply(action_id)      # raises, unchanged, if not legal now
            else:
                chosen = self._chosen_for(action_id, cards)      # raises, nothing changed
                if chosen is None:
                    self._state.apply(action_id)
                else:
                    self._state.apply_chosen(action_id, chosen)
                    self._chosen[len(self._log)] = chosen
            self._log.append(action_id)
        finally:
            self._token.append(token)

    # The rule a game cites when ``cards=`` does not fit an action of a kind (its rule of
    # what that kind takes from the hand), by kind; a kind not listed cites none.
    exact_cards_rules: ClassVar[Mapping[str, str]] = {}

    def interchangeable_as(self, card: int) -> str:
        """What card id ``card`` is when an action takes hand cards by count or rank: cards
        with the same answer are interchangeable there (``apply(..., cards=)``). By default
        each card is only itself (its notation); a game whose actions name cards by rank
        answers with the rank."""
        return card_str(card)

    def _chosen_for(self, action_id: int, cards: Any) -> tuple[int, ...] | None:
        """The card ids ``cards`` names for a legal ``action_id``, when they are a choice the
        engine would not make itself (None when they are what it takes anyway, or the cards of
        an action that names them); IllegalActionError, nothing changed, when they do not fit."""
        if not isinstance(cards, (list, tuple)):
            raise IllegalActionError(f"cards must be a list of card notations, not "
                                     f"{type(cards).__name__}", NOTATION_RULE)
        if len(cards) > MAX_CHOSEN_CARDS:
            raise IllegalActionError(f"cards: at most {MAX_CHOSEN_CARDS} card notations, not "
                                     f"{len(cards)}", NOTATION_RULE)
        ids = []
        for card in cards:
            if not isinstance(card, str) or len(card) > 8:
                raise IllegalActionError(f"cards: {_echo(card)} is not a card notation",
                                         NOTATION_RULE)
            try:
                ids.append(card_id(card))
            except ValueError:
                raise IllegalActionError(f"cards: {_echo(card)} is not a card notation",
                                         NOTATION_RULE) from None
        state = self._state
        if not state.is_legal(action_id):
            raise state.illegal(action_id)
        spec = self._specs[action_id]
        rule = self.exact_cards_rules.get(spec.kind)
        default = state.hand_cards(action_id)
        if default is None:                      # the action names its cards
            named = self._action_from_id(action_id).cards
            if sorted(ids) != sorted(card_id(c) for c in named):
                raise IllegalActionError(
                    f"{spec.label!r} names its cards ({' '.join(named) or 'none'}); cards "
                    f"must be those, not {_echo(' '.join(cards)) or 'none'}", rule)
            return None
        if len(ids) != len(default):
            if sorted(ids) == sorted(self._hand_cards_moved(action_id)):
                # The hand cards the action's own moves show: with copies, a card that goes
                # from the hand while its twin comes in from a pile nets out of the moves
                # (a pile taken with a pair, say), so a UI reading the moves names fewer cards
                # than the action takes. That is the engine's own choice, as shown.
                return None
            raise IllegalActionError(f"{spec.label!r} takes {len(default)} cards from the "
                                     f"hand, not {len(ids)}", rule)
        seat = state.current_player
        held = [] if seat is None else self._hand(seat)       # a legal action: a seat moves
        for c in sorted(set(ids)):
            have = held.count(c)
            if ids.count(c) > have:
                raise IllegalActionError(
                    f"you do not hold {card_str(c)}" if not have else
                    f"you hold {have} {card_str(c)}, not {ids.count(c)}", rule)
        taken = state.hand_cards(action_id, ids)
        if taken is None or sorted(taken) != sorted(ids):
            wrong = [card_str(c) for c in multiset_minus(ids, taken or [])]
            kinds = " ".join(self.interchangeable_as(c) for c in default)
            raise IllegalActionError(f"{spec.label!r} takes {kinds} from the hand; "
                                     f"{' '.join(wrong)} does not fit", rule)
        return None if sorted(ids) == sorted(default) else tuple(sorted(ids))

    def _hand_cards_moved(self, action_id: int) -> list[int]:
        """The card ids a legal action's ``moves`` show leaving the mover's hand (read from
        the state held under the token: ``Action.moves`` would wait for it)."""
        from cardcore.events import action_moves_for
        seat = self._state.current_player
        hands = {z["id"] for z in self._zone_table().static
                 if z["kind"] == "hand" and z["owner"] == seat}
        return [c for source, _, cards in action_moves_for(self, self._state, action_id)
                if source in hands for c in cards]

    def chosen_cards(self, since: int = 0) -> dict[int, list[str]]:
        """The exact cards chosen with ``apply(..., cards=)``, by index in ``action_log()``
        (from ``since`` on): only the actions whose cards differ from the engine's own choice
        (the others replay as they are). A host that stores ``action_log`` incrementally stores
        these with it and replays them with ``apply(id, cards=...)``."""
        if type(since) is not int or since < 0:
            raise ValueError(f"since must be an int >= 0, not {_echo(since)}")
        token = self._take_token()
        try:
            return {i: format_cards(cards) for i, cards in self._chosen.items() if i >= since}
        finally:
            self._give_token(token)

    def _log_since(self, since: int) -> tuple[list[int], dict[int, tuple[int, ...]]]:
        """The action log from ``since`` and its chosen cards, as one step (for replays)."""
        token = self._take_token()
        try:
            return self._log[since:], {i: c for i, c in self._chosen.items() if i >= since}
        finally:
            self._give_token(token)

    def _check_player(self, player: Any) -> None:
        to_move = self._state.current_player
        if isinstance(player, np.integer) and not isinstance(player, np.bool_):
            player = int(player)
        if type(player) is not int or not 0 <= player < self.num_players:
            raise IllegalActionError(f"player must be a seat 0..{self.num_players - 1}, "
                                     f"not {_echo(player)}")
        if to_move is None:
            raise IllegalActionError("the match is over: nobody is to move")
        if player != to_move:
            raise IllegalActionError(Words("it is seat {seat}'s turn, not seat {other}'s",
                                           {"seat": to_move, "other": player}))

    def _resolve(self, action: ActionLike) -> int:
        if isinstance(action, Action):
            action_id = _as_action_id(action.id)
            if action.player != self._state.current_player:
                raise IllegalActionError(f"that action is for seat {echo(action.player)}, but "
                                         f"it is seat {self._state.current_player}'s turn")
            if (not 0 <= action_id < len(self._specs)
                    or self._specs[action_id].label != action.label):
                raise IllegalActionError(f"action {_echo(action.label)} does not belong to "
                                         f"this game")
            return action_id
        if isinstance(action, str):
            if len(action) > MAX_ACTION_TEXT:
                raise IllegalActionError(
                    Words("an action notation has at most {limit} characters, not {count}",
                          {"limit": MAX_ACTION_TEXT, "count": len(action)}), NOTATION_RULE)
            found = self._label_index.get(_normalize_label(action))
            if found is None:
                found = self._parse_alias(action)
            if found is None:
                legal = ", ".join(self._specs[i].label for i in self._state.legal_ids())
                if len(legal) > 400:
                    legal = legal[:400] + ", ..."
                raise IllegalActionError(
                    Words("{action} is not an action of {game}; legal now: {legal}",
                          {"action": _echo(action), "game": self.name,
                           "legal": legal or "nothing"}), NOTATION_RULE)
            return found            # the state machine says which rule forbids it, if one does
        if isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)):
            return _as_action_id(action)
        raise IllegalActionError(f"an action must be an Action, int id or str, "
                                 f"not {type(action).__name__}")

    def _parse_alias(self, text: str) -> int | None:
        """Another accepted notation of an action (a game's older or longer form), or None."""
        return None

    def view(self, player: int | None) -> dict[str, JSONValue]:
        """What seat ``player`` may know (the rulebook's view section), JSON-serializable;
        ``None``: a spectator's (no hand: ``player``, ``hand`` and the other keys about one
        seat are null, ``legal_actions`` empty). ``zones`` holds every zone's cards the seat
        sees and a count for the others. One position's view: a move by another thread waits
        until it is built."""
        if player is None:
            pass
        elif type(player) is not int:
            player = self._seat(player, "player")           # numpy ints too; else ValueError
        elif not 0 <= player < self.num_players:
            self._seat(player, "player")
        tokens = self._token
        try:
            token = tokens.pop()
        except IndexError:
            token = self._take_token()
        try:
            return self._view(player)
        finally:
            tokens.append(token)

    def _view(self, player: int | None) -> dict[str, JSONValue]:
        to_move = self._state.current_player
        view: dict[str, JSONValue] = {
            "game": self.name,
            "player": player,
            "current_player": to_move,
            "phase": self.phase,
            "hand": None if player is None else format_cards(self._hand(player), sort=True),
            "hand_sizes": self._hand_sizes(),
            "scores": self.scores,
            "legal_actions": ([self._specs[i].label for i in self._state.legal_ids()]
                              if to_move == player and player is not None else []),
        }
        view.update(self._view_extra(player))
        table = self._zone_table()
        view["zones"] = table.view(self._state, player)
        if table.layouts:
            view["slots"] = table.slots(self._state, player)
        return view

    def events(self, seat: int | None = None, since: int = 0,
               lang: str = "en", until: int | None = None) -> list[dict[str, JSONValue]]:
        """The event stream as ``seat`` saw it (``None``: a spectator, public facts only), from
        index ``since``: one event per applied action and per automatic happening (deal,
        turn-up, red three laid, foot picked up, pile recycled, round/deal/hand end with its
        scoring breakdown, match end). Cards the seat may not see are counted (``"hidden"``),
        never named. Computed lazily from the action log: the fast path pays nothing. The
        events of one log prefix: a move by another thread meanwhile shows in the next call.

        Every event carries ``text``, a sentence in ``lang`` ("en", "ru"; else ConfigError
        naming ``lang``) from ``seat``'s point of view, naming only cards it saw; a round or
        match end its ``reason`` in words (``reason_code`` the stable code); each breakdown
        row its ``text`` (``count`` apart). The words are made once per event, seat and
        language. ``until`` ends the list before that index (None: at the last event), so
        that a page of a long match renders only its own events."""
        return events_for(self, seat, since, lang, until)

    def event_count(self) -> int:
        """How many events ``events()`` returns from 0 (for every seat the same): the
        narration brought up to the log, no event rendered or put in words."""
        narration = self._narrate()
        with narration.lock:
            return len(narration.raw)

    def action_log(self, since: int = 0) -> list[int]:
        """The ids of the actions applied so far, in order, from index ``since`` (the log a
        save holds: replaying it on a new game of the same configuration and seed gives this
        game). A host that stores games incrementally appends ``action_log(stored)``."""
        if type(since) is not int or since < 0:
            raise ValueError(f"since must be an int >= 0, not {_echo(since)}")
        token = self._take_token()
        try:
            return self._log[since:]
        finally:
            self._give_token(token)

    @property
    def history(self) -> list[dict[str, JSONValue]]:
        """Public events in order: every action, and a summary at the end of each round.
        (The 0.1 log; ``events`` is the full per-seat stream, and this is read from its
        spectator's side: an action whose notation names a card nobody else saw shows only
        its kind, with id None.)"""
        return [dict(e) for e in self._narrate().history]

    def _narrate(self) -> Narration:
        """The narration brought up to the action log (built on first use)."""
        narration: Narration | None = self._narration
        if narration is None:
            narration = self._narration = Narration(self)
        narration.catch_up()
        return narration

    def _fresh_state(self) -> GameState:
        """A new state machine for this configuration, seeded, with the first round dealt
        (for a sampled world: the state it was sampled in, where its history begins)."""
        if self._origin is not None:
            return self._origin.clone()
        state = self._make_state(self._deck_input)
        state.set_sides(type(self).sides_of(self.num_players, self.options))   # team zones
        state.seed_rng(self.seed)
        state.start()
        return state

    def clone(self) -> Game:
        """An independent deep copy: state, log, options and caches are the copy's own."""
        other = object.__new__(type(self))
        token = self._take_token()
        try:
            other.__dict__.update(self.__dict__)
            other._state = self._state.clone()
            other._log = list(self._log)
            other._chosen = dict(self._chosen)
        finally:
            self._give_token(token)
        other.options = dict(self.options)        # JSON scalars: a new dict is a deep copy
        other._init_shared()
        narration = self._narration
        if narration is not None and narration.done == len(other._log):
            other._narration = narration.copy_for(other)
        other._bind_fast_path()
        return other

    def __copy__(self) -> Game:
        """``copy.copy(game)`` is ``game.clone()``: a shallow copy sharing the state would
        let two games change each other, so both copies are deep and independent."""
        return self.clone()

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self.clone()

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickling goes through the save: ``pickle.loads`` replays it (as ``load_game``)."""
        return (_restore, (type(self), self.to_json()))

    def to_json(self, key: bytes | str | None = None) -> str:
        """The complete game as JSON: configuration, action log and generator state.

        ``load_game`` replays it. With ``key`` (bytes or str; an empty key is refused with
        ValueError) the save carries an HMAC-SHA256
        that ``load_game(data, key=key)`` checks, so a server can hand a save out and trust it
        back. A save reveals every hand and every future shuffle: never send one to a player
        who should not see them. See cardcore.saves for what is detected without a key."""
        if self._sampled_for is not None:
            raise ValueError(f"a world sampled for seat {self._sampled_for} cannot be saved "
                             f"(no seed deals it): save the game it was sampled from")
        token = self._take_token()
        try:
            log = list(self._log)
            chosen = {i: format_cards(c) for i, c in self._chosen.items()}
            rng = list(self._state.rng_state)
        finally:
            self._give_token(token)
        return dump(self.name, self.num_players, self.seed, self._deck_input, self.options,
                    log, rng, key, chosen)

    # Invariant support for tests and tools.
    def all_cards(self) -> list[int]:
        """Every card of every zone (card conservation: always the deck composition)."""
        return sorted(self._state.all_cards())

    def __repr__(self) -> str:
        status = "over" if self.is_over else f"seat {self.current_player} to move ({self.phase})"
        return f"<{type(self).__name__} {self.num_players} players, {status}>"


def _restore(cls: type[Game], data: str) -> Game:
    """A pickled game (``Game.__reduce__``): its save replayed by its own class."""
    def own_class(name: str) -> type[Game]:
        if name != cls.name:
            raise ValueError(f"a pickled {cls.name} holds a save of {echo(name)}")
        return cls

    game: Game = load(data, None, own_class)
    return game
