"""cardcore games as OpenSpiel (pyspiel) Python games (extra ``cardcore[openspiel]``).

>>> import pyspiel
>>> from cardcore.envs import openspiel
>>> openspiel.register()                       # cardcore_<name> for every game
>>> game = pyspiel.load_game(short_name(name))
>>> state = game.new_initial_state()
>>> while state.is_chance_node():               # the match's seed, drawn by chance
...     state.apply_action(state.chance_outcomes()[0][0])
>>> state.apply_action(state.legal_actions()[0])

What OpenSpiel sees:

* **GameType**: sequential, ``EXPLICIT_STOCHASTIC``, imperfect information, general-sum,
  terminal rewards. A match begins with ``SEED_CHANCE_NODES`` chance nodes that draw its
  63-bit seed, ``SEED_BITS`` bits each, uniformly; after them the seeded cardcore game plays
  on its own (its deals and stock draws follow from that seed). Why not
  ``SAMPLED_STOCHASTIC``: OpenSpiel serializes such a game through ``Game::GetRNGState``,
  which a Python game cannot override (pyspiel 2.0.2 has no binding for it), so
  ``serialize_game_and_state`` would abort; with the seed drawn at explicit chance nodes the
  whole match is a function of its history and serializes like any OpenSpiel game.
  Observations (string and tensor) and perfect-recall information states (string and
  tensor: ``Game.information_state_string`` / ``information_state_tensor``) are provided, so
  OpenSpiel's information-state algorithms (MCCFR, CFR, IS-MCTS) run on them.
* **Parameters**: ``players`` and every game option; an option whose default is None (drawn
  by lot / derived) is an int parameter where ``-1`` means that default.
* **GameInfo**: ``num_distinct_actions``, ``utility_range`` as min/max utility,
  ``max_game_length`` — all from the cardcore game of that configuration (a length bound
  above OpenSpiel's C ``int`` range is
  reported as 2**31 - 1).
* **Observer**: the tensor is ``observation_tensor(player)`` with the game's named pieces; the
  string is ``view(player)``, one ``key: value`` line per key.
* ``resample_from_infostate(player, sampler)`` is ``sample_hidden(player, seed)``, the seed
  drawn from ``sampler``; the world it returns plays on but cannot be serialized.
* **Serialization**: the state's game travels as ``to_json()`` (``load_game`` on the way
  back), so ``pyspiel.serialize_game_and_state`` round-trips exactly, generator included.
"""
from __future__ import annotations

import hashlib
from typing import Any, Callable

import numpy as np
import numpy.typing as npt
import pyspiel  # type: ignore[import-not-found, import-untyped, unused-ignore]

from cardcore.envs._common import camel_name, observation_text
from cardcore.game import Game
from cardcore.registry import available_games, game_class, load_game, new_game

__all__ = ["CardcoreSpielGame", "CardcoreSpielState", "CardcoreObserver",
           "CardcoreInformationStateObserver", "register", "short_name"]

SEED_BITS = 9                       # each seed chance node draws 9 bits ...
SEED_CHANCE_NODES = 7               # ... and seven of them make a 63-bit cardcore seed
SEED_OUTCOMES = 1 << SEED_BITS
_NONE_OPTION = -1                   # an option whose default is None: -1 as a pyspiel int
MAX_SPIEL_INT = 2 ** 31 - 1         # OpenSpiel's sizes are C ints: larger bounds are capped
# Every seed chance node's outcomes (made once: rl_environment asks at each of them)
_SEED_CHANCE_OUTCOMES = tuple((outcome, 1.0 / SEED_OUTCOMES) for outcome in range(SEED_OUTCOMES))


def short_name(name: str) -> str:
    """The pyspiel name of a cardcore game: ``cardcore_<name>``."""
    return f"cardcore_{name}"


def _parameter_specification(name: str) -> dict[str, Any]:
    """players and every option, each with a pyspiel-typed default."""
    cls = game_class(name)
    spec: dict[str, Any] = {"players": cls.default_players}
    for key, option in cls.options_spec.items():
        default = option.default
        if default is None:
            spec[key] = _NONE_OPTION
        elif isinstance(default, (bool, int, float, str)):
            spec[key] = default
        # other defaults (lists, dicts) cannot be pyspiel parameters: such an option keeps
        # its default and is not settable through OpenSpiel
    return spec


def _game_type(name: str) -> Any:
    cls = game_class(name)
    return pyspiel.GameType(
        short_name=short_name(name),
        long_name=f"cardcore {name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameter_specification(name),
    )


class _GameBox:
    """Holds a state's cardcore game. OpenSpiel copies a Python state's attributes with
    ``copy.deepcopy`` (clone) and ``pickle`` (serialize): here those become ``Game.clone``
    and ``to_json``/``load_game``."""

    __slots__ = ("game",)

    def __init__(self, game: Game) -> None:
        self.game = game

    def __deepcopy__(self, memo: dict[int, Any]) -> _GameBox:
        return _GameBox(self.game.clone())

    def __reduce__(self) -> tuple[Callable[[str], _GameBox], tuple[str]]:
        # A world made by sample_hidden raises ValueError here: it cannot be saved.
        return _box_from_json, (self.game.to_json(),)


def _box_from_json(data: str) -> _GameBox:
    return _GameBox(load_game(data))


class _Config:
    """A state's configuration (game name, players, options): shared, never changed, so
    OpenSpiel's per-clone deepcopy keeps the one object."""

    __slots__ = ("name", "players", "options")

    def __init__(self, name: str, players: int, options: dict[str, Any]) -> None:
        self.name = name
        self.players = players
        self.options = options

    def __deepcopy__(self, memo: dict[int, Any]) -> _Config:
        return self

    def __reduce__(self) -> tuple[type[_Config], tuple[str, int, dict[str, Any]]]:
        return _Config, (self.name, self.players, self.options)

    def new_game(self, seed: int) -> Game:
        return new_game(self.name, players=self.players, seed=seed, **self.options)


class CardcoreSpielGame(pyspiel.Game):  # type: ignore[misc]
    """One configuration of a cardcore game, as a pyspiel Game. ``register()`` makes one
    subclass per game (its ``cardcore_name`` set), which is what pyspiel calls with the
    parameters."""

    cardcore_name: str = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        name = self.cardcore_name
        spec = _parameter_specification(name)
        given = {key: _plain(value) for key, value in (params or {}).items()}
        unknown = sorted(set(given) - set(spec))
        if unknown:
            raise ValueError(f"{short_name(name)}: unknown parameter(s) {', '.join(unknown)}; "
                             f"known: {', '.join(sorted(spec))}")
        values = {key: given.get(key, default) for key, default in spec.items()}
        cls = game_class(name)
        self.cardcore_options = {
            key: None if cls.options_spec[key].default is None and value == _NONE_OPTION else value
            for key, value in values.items() if key != "players"}
        probe = new_game(name, players=int(values["players"]), seed=0, **self.cardcore_options)
        self.cardcore_players = probe.num_players
        self.cardcore_config = _Config(name, probe.num_players, self.cardcore_options)
        low, high = probe.utility_range
        info = pyspiel.GameInfo(
            num_distinct_actions=probe.num_distinct_actions,
            max_chance_outcomes=SEED_OUTCOMES,
            num_players=probe.num_players,
            min_utility=float(low),
            max_utility=float(high),
            utility_sum=None,
            max_game_length=min(probe.max_game_length, MAX_SPIEL_INT),
        )
        super().__init__(_game_type(name), info, values)
        self.observation_pieces = probe.observation_pieces
        self.observation_size = int(probe.observation_shape[0])
        self.information_state_pieces = probe.information_state_pieces
        self.information_state_size = int(probe.information_state_shape[0])

    def new_initial_state(self) -> CardcoreSpielState:
        """A new match, at its first seed chance node."""
        return CardcoreSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> CardcoreObserver:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type is not None and (
                not iig_obs_type.public_info
                or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER):
            raise ValueError("cardcore observes what one seat sees (public and private "
                             "information, now or with perfect recall); other observation "
                             "types are not provided")
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            return CardcoreInformationStateObserver(self.information_state_pieces,
                                                    self.information_state_size)
        return CardcoreObserver(self.observation_pieces, self.observation_size)


class CardcoreSpielState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel State: the seed chance nodes, then a cardcore game (``self._box``).
    Its attributes are plain data, so OpenSpiel's clone and serialization carry exactly
    the seed drawn so far and the game."""

    def __init__(self, game: CardcoreSpielGame) -> None:
        super().__init__(game)
        self._config = game.cardcore_config
        self._seed_parts: list[int] = []
        self._box: _GameBox | None = None

    @property
    def cardcore_game(self) -> Game | None:
        """The cardcore game behind this state, None during the seed chance nodes
        (read it; apply actions through the state)."""
        return None if self._box is None else self._box.game

    def current_player(self) -> int:
        if self._box is None:
            return int(pyspiel.PlayerId.CHANCE)
        player = self._box.game.current_player
        return int(pyspiel.PlayerId.TERMINAL) if player is None else player

    # Python callers (rl_environment, OpenSpiel's Python algorithms) reach these first: the
    # same answers as pyspiel's C++ path, without its round trip (an observation through
    # pyspiel builds a new initial state and calls the observer twice; legal ids cross into
    # C++ and back). C++ callers still take pyspiel's path; the odd cases (no seat, the seed
    # chance nodes, keywords) are left to it, so its checks and errors stay its own.
    def observation_tensor(self, *args: Any, **kwargs: Any) -> list[float]:
        seat = self._direct_seat(args, kwargs)
        if seat is None:
            return list(pyspiel.State.observation_tensor(self, *args, **kwargs))
        assert self._box is not None
        values: list[float] = self._box.game.observation_tensor(seat).tolist()
        return values

    def information_state_tensor(self, *args: Any, **kwargs: Any) -> list[float]:
        seat = self._direct_seat(args, kwargs)
        if seat is None:
            return list(pyspiel.State.information_state_tensor(self, *args, **kwargs))
        assert self._box is not None
        values: list[float] = self._box.game.information_state_tensor(seat).tolist()
        return values

    def legal_actions(self, *args: Any, **kwargs: Any) -> list[int]:
        box = self._box
        if box is None or kwargs or len(args) > 1 or (args and (type(args[0]) is not int
                                                                or args[0] < 0)):
            return list(pyspiel.State.legal_actions(self, *args, **kwargs))
        game = box.game
        if args and args[0] != game.current_player:
            return []                              # not this seat's turn, or the match is over
        return list(game.legal_action_ids())

    def _direct_seat(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> int | None:
        """The seat of a tensor call this state answers itself (one int seat, the game
        dealt), else None."""
        if self._box is None or kwargs or len(args) != 1:
            return None
        seat = args[0]
        return seat if type(seat) is int and 0 <= seat < self._config.players else None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """The next SEED_BITS bits of the match seed, uniform."""
        return list(_SEED_CHANCE_OUTCOMES)

    def _legal_actions(self, player: int) -> list[int]:
        assert self._box is not None
        return list(self._box.game.legal_action_ids())

    def _apply_action(self, action: int) -> None:
        if self._box is not None:
            self._box.game.apply(int(action))
            return
        if not 0 <= action < SEED_OUTCOMES:
            raise ValueError(f"a seed chance outcome is 0..{SEED_OUTCOMES - 1}, not {action}")
        self._seed_parts.append(int(action))
        if len(self._seed_parts) == SEED_CHANCE_NODES:
            seed = 0
            for part in self._seed_parts:
                seed = seed << SEED_BITS | part
            self._box = _GameBox(self._config.new_game(seed))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed bits {len(self._seed_parts)}: {action}"
        game = self._box.game if self._box is not None else self._config.new_game(0)
        return game.action_from_id(int(action)).label

    def is_terminal(self) -> bool:
        return self._box is not None and self._box.game.is_over

    def returns(self) -> list[float]:
        if self._box is None:
            return [0.0] * self._config.players
        return self._box.game.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any
                                ) -> CardcoreSpielState:
        """A state in which everything ``player_id`` cannot see is redealt (``sample_hidden``),
        its seed drawn from ``probability_sampler`` (a callable returning floats in [0, 1))."""
        state: CardcoreSpielState = self.clone()
        if self._box is None:
            return state                  # nothing is dealt yet: nothing is hidden
        seed = 0
        for _ in range(SEED_CHANCE_NODES):
            part = min(int(float(probability_sampler()) * SEED_OUTCOMES), SEED_OUTCOMES - 1)
            seed = seed << SEED_BITS | part
        state._box = _GameBox(self._box.game.sample_hidden(int(player_id), seed))
        return state

    def __str__(self) -> str:
        """The move number, the generator's state, a digest of every seat's observation
        (so two states print alike exactly when no seat could tell them apart and their
        futures are drawn alike) and, readable, the view of the seat to move. Its size does
        not grow with the match (a save's would), and it is cheap: OpenSpiel's tests print
        states at every step."""
        if self._box is None:
            return f"seed chance nodes: {self._seed_parts}"
        game = self._box.game
        digest = hashlib.blake2b(digest_size=16)
        for seat in range(game.num_players):
            digest.update(game.observation_tensor(seat).tobytes())
        seat = game.current_player if game.current_player is not None else 0
        return (f"{game.name}, move {self.move_number()}, generator {game.state.rng_state}, "
                f"observations {digest.hexdigest()}\nseat {seat}:\n"
                f"{observation_text(game, seat)}")


class CardcoreObserver:
    """The PyObserver OpenSpiel asks for: one float32 tensor with a named view per piece of
    the game's documented layout (``observation_pieces``), and a string per player. Before
    the deal (the seed chance nodes) the tensor is zeros."""

    def __init__(self, pieces: list[tuple[str, int, int]], size: int) -> None:
        self.tensor: npt.NDArray[np.float32] = np.zeros(size, np.float32)
        tiled = [offset for _, offset, _ in pieces] == _offsets([n for _, _, n in pieces])
        if not tiled or sum(n for _, _, n in pieces) != size:
            pieces = [("observation", 0, size)]      # OpenSpiel copies pieces back to back
        self.dict = {name: self.tensor[offset:offset + n] for name, offset, n in pieces}

    def set_from(self, state: CardcoreSpielState, player: int) -> None:
        game = state.cardcore_game
        if game is None:
            self.tensor.fill(0.0)
        else:
            game.observation_tensor(player, self.tensor)

    def string_from(self, state: CardcoreSpielState, player: int) -> str:
        game = state.cardcore_game
        return "the deal is not made yet" if game is None else observation_text(game, player)


class CardcoreInformationStateObserver(CardcoreObserver):
    """The perfect-recall observer (OpenSpiel's information state): the tensor is
    ``information_state_tensor(player)`` in its named pieces, the string
    ``information_state_string(player)``; both empty (zeros, "") before the deal."""

    def set_from(self, state: CardcoreSpielState, player: int) -> None:
        game = state.cardcore_game
        if game is None:
            self.tensor.fill(0.0)
        else:
            game.information_state_tensor(player, self.tensor)

    def string_from(self, state: CardcoreSpielState, player: int) -> str:
        game = state.cardcore_game
        return "" if game is None else game.information_state_string(player)


def _offsets(sizes: list[int]) -> list[int]:
    out, total = [], 0
    for n in sizes:
        out.append(total)
        total += n
    return out


def _plain(value: Any) -> Any:
    """A pyspiel parameter as a Python scalar."""
    return value.value() if hasattr(value, "value") and callable(value.value) else value


_registered: dict[str, type[CardcoreSpielGame]] = {}


def register() -> list[str]:
    """Register ``cardcore_<game>`` with pyspiel for every game (idempotent); returns the
    names, ready for ``pyspiel.load_game``."""
    names = []
    for name in available_games():
        spiel_name = short_name(name)
        if spiel_name not in _registered:
            # pyspiel keeps the factory until the C++ registry is torn down, after Python
            # has finalized: a class (kept alive by its own reference cycle) survives that
            # safely, where a plain function would be freed without the GIL and abort.
            game_cls = type(f"Cardcore{camel_name(name)}SpielGame", (CardcoreSpielGame,),
                            {"cardcore_name": name, "__module__": __name__})
            pyspiel.register_game(_game_type(name), game_cls)
            _registered[spiel_name] = game_cls
        names.append(spiel_name)
    return names
