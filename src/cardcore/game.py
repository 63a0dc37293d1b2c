"""The game protocol (api.md): Game, Action, the registry, new_game / load_game.

Every game is a thin Python subclass of ``Game`` over a Cython state machine (a subclass of
``cardcore._fast.GameState``). This module does what is common to all games, once:
option and deck checking, seeds, the action dispatch of ``apply``, views' common keys,
history, JSON save/load and cloning. A game subclass supplies its options, its deck, the
decoding of its action ids and the game-specific part of the view.

Save format (``to_json``): the configuration plus the action log, replayed on load, and the
generator state, compared after the replay. Replaying through the checked ``apply`` means a
tampered file cannot produce a game the rules could not reach.
"""
from __future__ import annotations

import json
import secrets
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Mapping, Sequence, Union

import numpy as np
import numpy.typing as npt

from cardcore import __version__
from cardcore._fast import GameState, seed_to_u64
from cardcore.cards import card_id, card_str, format_cards, sort_key
from cardcore.errors import ConfigError, IllegalActionError

__all__ = [
    "Action", "ActionSpec", "Game", "Option", "register", "available_games", "new_game",
    "load_game", "SAVE_FORMAT", "seat_or_lot", "one_of", "int_between", "flag", "is_int", "resolve_seed",
]

SAVE_FORMAT = 1

JSONValue = Any


@dataclass(frozen=True)
class Action:
    """One legal move. ``str(action)`` is its notation, which ``Game.apply`` accepts too."""

    id: int
    player: int
    kind: str
    cards: tuple[str, ...]
    label: str
    info: Mapping[str, JSONValue] = field(default_factory=dict, compare=False)

    def __str__(self) -> str:
        return self.label

    def to_dict(self) -> dict[str, JSONValue]:
        return {"id": self.id, "player": self.player, "kind": self.kind,
                "cards": list(self.cards), "label": self.label, **dict(self.info)}


@dataclass(frozen=True)
class ActionSpec:
    """The player-independent meaning of an action id (a game's decode table holds these)."""

    kind: str
    cards: tuple[str, ...]
    label: str
    info: Mapping[str, JSONValue] = field(default_factory=dict)


@dataclass(frozen=True)
class Option:
    """A game option: its default and a check that returns an error text or None."""

    default: Any
    check: Callable[[Any, int], Union[str, None]]
    doc: str = ""
    resolve: Union[Callable[[Any, int], Any], None] = None   # e.g. a default that depends on players


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


def seat_or_lot(rule: str) -> OptionCheck:
    """Option check: None (drawn by lot from the seed) or a seat number."""
    def check(value: Any, players: int) -> str | None:
        if value is None or (is_int(value) and 0 <= value < players):
            return None
        return f"must be None (drawn by lot) or a seat 0..{players - 1} ({rule})"
    return check


def one_of(*allowed: Any, rule: str) -> OptionCheck:
    """Option check: one of the listed values."""
    def check(value: Any, players: int) -> str | None:
        if any(value == a and type(value) is type(a) for a in allowed):
            return None
        return f"must be one of {', '.join(map(repr, allowed))} ({rule})"
    return check


def int_between(low: int, high: int, rule: str, allow_none: bool = False) -> OptionCheck:
    """Option check: an int in low..high (or None when allowed)."""
    def check(value: Any, players: int) -> str | None:
        if (allow_none and value is None) or (is_int(value) and low <= value <= high):
            return None
        return f"must be {'None or ' if allow_none else ''}an int {low}..{high} ({rule})"
    return check


def flag(rule: str) -> OptionCheck:
    """Option check: True or False."""
    def check(value: Any, players: int) -> str | None:
        return None if isinstance(value, bool) else f"must be True or False ({rule})"
    return check


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
    """A game in progress. Create with ``cardcore.new_game``; see api.md for the contract."""

    # --- supplied by each game -------------------------------------------------------
    name: ClassVar[str]
    default_players: ClassVar[int]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    options_spec: ClassVar[dict[str, Option]] = {}
    phases: ClassVar[tuple[str, ...]] = ()
    rulebook: ClassVar[str] = ""                  # file name under cardcore/rulebooks

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

    def _view_extra(self, player: int) -> dict[str, JSONValue]:
        return {}

    def _hand(self, player: int) -> list[int]:
        raise NotImplementedError

    def _hand_sizes(self) -> list[int]:
        return [len(self._hand(p)) for p in range(self.num_players)]

    def _round_summary(self) -> dict[str, JSONValue]:
        """Public facts about the round that just ended (for history)."""
        return {}

    def hidden_deck_positions(self, seat: int) -> list[int]:
        """Positions in this game's stacked deck (top first) whose cards ``seat`` could not see
        right after the first deal, from the game's deal plan. The conformance tests swap
        such cards and expect the same view, tensor and events."""
        plan = self.deal_plan_of(self.num_players, self.options, self._state.dealer)
        return [i for i, zone in enumerate(plan) if not self._zone_visible(zone, seat)]

    @classmethod
    def _zone_visible(cls, zone: str, seat: int) -> bool:
        """Whether ``seat`` sees the cards dealt to ``zone`` (a deal-plan zone name)."""
        return zone == f"hand:{seat}"

    def table_lines(self, player: int) -> list[str]:
        """Plain-text lines describing the public table, for terminal front ends."""
        return []

    conformance_configs: ClassVar[list[dict[str, Any]]] = []

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
    def deal_plan_of(cls, players: int, options: Mapping[str, Any], first: int) -> list[str]:
        """The zone of each deck position (top first) in a deal begun by seat ``first``."""
        raise NotImplementedError

    # --- common machinery --------------------------------------------------------------
    def __init__(self, *, players: int | None = None, seed: int | None = None,
                 deck: Sequence[str] | None = None, **options: Any) -> None:
        self.num_players = self._check_players(players)
        self.options = self._check_options(options)
        self.seed: int = resolve_seed(seed)
        self._deck_input = None if deck is None else self._check_deck(deck)
        self._specs, self._label_index = self._cached_specs(self.num_players, tuple(sorted(
            (k, json.dumps(v)) for k, v in self.options.items())))
        self._state = self._fresh_state()
        self._log: list[int] = []
        self._history: list[dict[str, JSONValue]] = []
        self._history_state: GameState | None = None
        self._history_done = 0                    # actions already turned into events
        self._sampled_for: int | None = None      # set on worlds made by sample_hidden
        self._bind_fast_path()

    def _bind_fast_path(self) -> None:
        # Bound C methods stored on the instance: the simulation fast path costs one call.
        self.legal_action_ids: Callable[[], list[int]] = self._state.legal_ids

    @classmethod
    def _cached_specs(cls, players: int, key: tuple[tuple[str, str], ...]
                      ) -> tuple[Sequence[ActionSpec], dict[str, int]]:
        """The decode table and the notation index of a configuration, built once."""
        cache = cls.__dict__.get("_spec_cache")
        if cache is None:
            cache = {}
            setattr(cls, "_spec_cache", cache)
        if (players, key) not in cache:
            options = {k: json.loads(v) for k, v in key}
            specs = tuple(cls.action_specs(players, options))
            index = {_normalize_label(spec.label): i for i, spec in enumerate(specs)}
            if len(index) != len(specs):
                raise RuntimeError(f"{cls.name}: two action ids share a notation")
            cache[(players, key)] = (specs, index)
        specs_and_index: tuple[Sequence[ActionSpec], dict[str, int]] = cache[(players, key)]
        return specs_and_index

    @classmethod
    def _check_players(cls, players: int | None) -> int:
        if players is None:
            return cls.default_players
        if isinstance(players, bool) or not isinstance(players, int):
            raise ConfigError(f"players must be an int, not {type(players).__name__}", "players")
        if not cls.min_players <= players <= cls.max_players:
            raise ConfigError(f"{cls.name} is for {cls.min_players} to {cls.max_players} players, "
                              f"not {players}", "players")
        return players

    def _check_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        unknown = sorted(set(given) - set(self.options_spec))
        if unknown:
            known = ", ".join(sorted(self.options_spec)) or "none"
            raise ConfigError(f"unknown option(s) for {self.name}: {', '.join(unknown)} "
                              f"(known: {known})", unknown[0])
        resolved = {}
        for key, option in self.options_spec.items():
            value = given.get(key, option.default)
            problem = option.check(value, self.num_players)
            if problem:
                raise ConfigError(f"option {key}={value!r}: {problem}", key)
            resolved[key] = option.resolve(value, self.num_players) if option.resolve else value
        return resolved

    def _check_deck(self, deck: Sequence[str]) -> list[int]:
        if isinstance(deck, (str, bytes)) or not isinstance(deck, Sequence):
            raise ConfigError("deck must be a list of card notations, top card first", "deck")
        try:
            ids = [card_id(c) for c in deck]
        except ValueError as e:
            raise ConfigError(f"deck: {e}", "deck") from None
        expected = self.deck_for(self.num_players, self.options)
        if len(ids) != len(expected):
            raise ConfigError(f"deck has {len(ids)} cards; {self.name} with {self.num_players} "
                              f"players uses {len(expected)}", "deck")
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
    def current_player(self) -> int | None:
        return self._state.current_player

    @property
    def is_over(self) -> bool:
        return self._state.is_over

    @property
    def phase(self) -> str:
        return self.phases[self._state.phase]

    @property
    def scores(self) -> list[int]:
        return list(self._state.scores())

    @property
    def winners(self) -> list[int]:
        return list(self._state.winners()) if self._state.is_over else []

    @property
    def num_distinct_actions(self) -> int:
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
        """What ``seat`` may know, as float32 (written in C; into ``out`` when given)."""
        return self._state.observation_tensor(seat, out)

    def returns(self) -> list[float]:
        """Per seat, higher is better in every game; all zeros until the match is over."""
        return self._state.returns()

    @property
    def utility_range(self) -> tuple[float, float]:
        """(min, max) bounds of ``returns()`` in this configuration."""
        return type(self).utility_range_of(self.num_players, self.options)

    @property
    def max_game_length(self) -> int:
        """An upper bound on the number of actions of a whole match (guards included)."""
        return type(self).max_game_length_of(self.num_players, self.options)

    def sample_hidden(self, seat: int, seed: int) -> Game:
        """A copy in which everything ``seat`` cannot see is redealt uniformly among the
        deals consistent with what it has seen (and future shuffles are redrawn).
        ``view(seat)`` and the public history are unchanged. A sampled world is a search
        tool: it plays on like any game, but it cannot be saved (``to_json`` raises), since
        no seed and action log reach it."""
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.num_players:
            raise ValueError(f"seat must be an int 0..{self.num_players - 1}, not {seat!r}")
        try:
            seed_to_u64(seed)
        except (TypeError, ValueError) as e:
            raise ValueError(f"sample_hidden seed: {e}") from None
        world = self.clone()
        world._state = self._state.sample_hidden(seat, seed)
        world._sampled_for = seat
        world._bind_fast_path()
        return world

    def action_from_id(self, action_id: int) -> Action:
        """The Action with this id, attributed to the player to move (or seat 0 when over)."""
        if isinstance(action_id, bool) or not isinstance(action_id, (int, np.integer)):
            raise IllegalActionError(f"an action id must be an int, not {type(action_id).__name__}")
        if not 0 <= action_id < len(self._specs):
            raise IllegalActionError(f"action id {action_id} is outside 0..{len(self._specs) - 1}")
        spec = self._specs[action_id]
        player = self._state.current_player
        return Action(int(action_id), -1 if player is None else player, spec.kind, spec.cards,
                      spec.label, spec.info)

    def legal_actions(self) -> list[Action]:
        return [self.action_from_id(i) for i in self._state.legal_ids()]

    def legal_action_mask(self) -> npt.NDArray[np.bool_]:
        mask = np.zeros(len(self._specs), dtype=bool)
        mask[self._state.legal_ids()] = True
        return mask

    def apply(self, action: ActionLike) -> None:
        """Apply a legal action (Action, id or notation); IllegalActionError otherwise."""
        if type(action) is int:
            action_id = action
        else:
            action_id = self._resolve(action)
        self._state.apply(action_id)          # raises, unchanged, if not legal now
        self._log.append(action_id)

    def _resolve(self, action: ActionLike) -> int:
        if isinstance(action, Action):
            if action.player != self._state.current_player:
                raise IllegalActionError(f"that action is for seat {action.player}, but it is "
                                         f"seat {self._state.current_player}'s turn")
            if not 0 <= action.id < len(self._specs) or self._specs[action.id].label != action.label:
                raise IllegalActionError(f"action {action.label!r} does not belong to this game")
            return action.id
        if isinstance(action, np.integer):
            return int(action)
        if isinstance(action, str):
            action_id = self._label_index.get(_normalize_label(action))
            if action_id is None:
                legal = ", ".join(self._specs[i].label for i in self._state.legal_ids())
                raise IllegalActionError(f"{action!r} is not an action of {self.name}; "
                                         f"legal now: {legal or 'nothing'}")
            return action_id        # the state machine says which rule forbids it, if one does
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalActionError(f"an action must be an Action, int id or str, "
                                     f"not {type(action).__name__}")
        return action

    def view(self, player: int) -> dict[str, JSONValue]:
        """What seat ``player`` may know (the rulebook's view section), JSON-serializable."""
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < self.num_players:
            raise ValueError(f"player must be a seat 0..{self.num_players - 1}, not {player!r}")
        to_move = self._state.current_player
        view: dict[str, JSONValue] = {
            "game": self.name,
            "player": player,
            "current_player": to_move,
            "phase": self.phase,
            "hand": format_cards(self._hand(player), sort=True),
            "hand_sizes": self._hand_sizes(),
            "scores": self.scores,
            "legal_actions": ([self._specs[i].label for i in self._state.legal_ids()]
                              if to_move == player else []),
        }
        view.update(self._view_extra(player))
        return view

    @property
    def history(self) -> list[dict[str, JSONValue]]:
        """Public events in order: every action, and a summary at the end of each round."""
        if self._history_state is None:
            self._history_state = self._fresh_state()
        state = self._history_state
        for action_id in self._log[self._history_done:]:
            self._history_done += 1
            player = state.current_player
            before = state.round_index
            state.apply(action_id)
            self._history.append({"event": "action", "player": player, "id": action_id,
                                  "action": self._specs[action_id].label})
            if state.round_index != before:
                self._history.append({"event": "round_end", "round": before + 1,
                                      **self._round_summary_of(state)})
        return [dict(e) for e in self._history]

    def _round_summary_of(self, state: GameState) -> dict[str, JSONValue]:
        saved, self._state = self._state, state
        try:
            return self._round_summary()
        finally:
            self._state = saved

    def _fresh_state(self) -> GameState:
        """A new state machine for this configuration, seeded, with the first round dealt."""
        state = self._make_state(self._deck_input)
        state.seed_rng(self.seed)
        state.start()
        return state

    def clone(self) -> Game:
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other._state = self._state.clone()
        other._log = list(self._log)
        other._history = list(self._history)
        other._history_state = None if self._history_state is None else self._history_state.clone()
        other._bind_fast_path()
        return other

    def to_json(self) -> str:
        if self._sampled_for is not None:
            raise ValueError(f"a world sampled for seat {self._sampled_for} cannot be saved: "
                             f"save the game it was sampled from")
        return json.dumps({
            "format": SAVE_FORMAT,
            "cardcore": __version__,
            "game": self.name,
            "players": self.num_players,
            "seed": self.seed,
            "deck": None if self._deck_input is None else [card_str(c) for c in self._deck_input],
            "options": self.options,
            "actions": self._log,
            "rng": list(self._state.rng_state),
        })

    # Invariant support for tests and tools.
    def all_cards(self) -> list[int]:
        """Every card of every zone (card conservation: always the deck composition)."""
        return sorted(self._state.all_cards())

    def __repr__(self) -> str:
        status = "over" if self.is_over else f"seat {self.current_player} to move ({self.phase})"
        return f"<{type(self).__name__} {self.num_players} players, {status}>"


_REGISTRY: dict[str, type[Game]] = {}


def register(cls: type[Game]) -> type[Game]:
    _REGISTRY[cls.name] = cls
    return cls


def available_games() -> tuple[str, ...]:
    _load_games()
    return tuple(_REGISTRY)


def _load_games() -> None:
    import cardcore.games  # noqa: F401  (registers every game on import)


def game_class(name: str) -> type[Game]:
    _load_games()
    if not isinstance(name, str) or name not in _REGISTRY:
        raise ConfigError(f"unknown game {name!r}; available: {', '.join(_REGISTRY)}", "name")
    return _REGISTRY[name]


def new_game(name: str, *, players: int | None = None, seed: int | None = None,
             deck: Sequence[str] | None = None, **options: Any) -> Game:
    """Start a game. ``deck`` stacks the first deal (card notations, top card first)."""
    return game_class(name)(players=players, seed=seed, deck=deck, **options)


def load_game(data: str | Mapping[str, Any]) -> Game:
    """Rebuild a game from ``Game.to_json()``; ValueError if the data is malformed or tampered."""
    if isinstance(data, (str, bytes)):
        try:
            data = json.loads(data)
        except json.JSONDecodeError as e:
            raise ValueError(f"load_game: not JSON: {e}") from None
    if not isinstance(data, Mapping):
        raise ValueError("load_game: expected a JSON object")
    if data.get("format") != SAVE_FORMAT:
        raise ValueError(f"load_game: unknown save format {data.get('format')!r} "
                         f"(this cardcore reads format {SAVE_FORMAT})")
    for key, kind in (("game", str), ("players", int), ("seed", int), ("options", dict),
                      ("actions", list), ("rng", list)):
        if not isinstance(data.get(key), kind) or isinstance(data.get(key), bool):
            raise ValueError(f"load_game: field {key!r} missing or not a {kind.__name__}")
    game = new_game(data["game"], players=data["players"], seed=data["seed"],
                    deck=data.get("deck"), **data["options"])
    for index, action_id in enumerate(data["actions"]):
        if isinstance(action_id, bool) or not isinstance(action_id, int):
            raise ValueError(f"load_game: action #{index} is not an int id")
        try:
            game.apply(action_id)
        except IllegalActionError as e:
            raise ValueError(f"load_game: action #{index} (id {action_id}) is illegal: {e}") from None
    if list(game._state.rng_state) != data["rng"]:
        raise ValueError("load_game: the generator state does not match the replayed game")
    return game


def sorted_cards(cards: Sequence[int]) -> list[int]:
    return sorted(cards, key=sort_key)
