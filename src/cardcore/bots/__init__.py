"""Bots: players that pick a legal action for ``game.current_player``.

Every bot has the same two entry points (docs/api.md, "Bots"):

* ``bot.choose(game) -> Action`` — the protocol form, for applications;
* ``bot.choose_id(game) -> int`` — the fast form, for simulation loops
  (``game.apply(bot.choose_id(game))`` builds no Action object).

A bot owns its generator (a ``cardcore._fast.Random``), so a seeded bot makes the same choices
in the same positions; ``bot.reseed(seed)`` restarts it (``simulate`` reseeds per game).

``RandomBot`` picks uniformly among the legal ids. ``GreedyBot`` uses a per-game heuristic:
the module ``cardcore.bots.greedy_<game>`` exporting ``choose(game, rng) -> int`` (a legal id).
A game without such a module has no GreedyBot (``ConfigError``), rather than a silent
random stand-in.
"""
from __future__ import annotations

import importlib
from types import ModuleType
from typing import Callable

from cardcore._fast import Random
from cardcore.errors import ConfigError
from cardcore.game import Action, Game

__all__ = [
    "BOTS", "Bot", "GreedyBot", "RandomBot", "available_bots", "greedy_heuristic", "make_bot",
]


class Bot:
    """Base class: subclasses implement ``choose_id``."""

    name = "bot"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed
        self.rng = Random(seed) if seed is not None else _fresh_random()

    def reseed(self, seed: int) -> None:
        """Restart the bot's generator (same seed ⇒ same future choices)."""
        self.seed = seed
        self.rng = Random(seed)

    def check_game(self, name: str) -> None:
        """ConfigError if this bot cannot play the game ``name`` (checked before a run)."""

    def choose_id(self, game: Game) -> int:
        """The id of a legal action for ``game.current_player`` (the fast path)."""
        raise NotImplementedError

    def choose(self, game: Game) -> Action:
        """A legal action for ``game.current_player``; ValueError if the game is over."""
        if game.is_over:
            raise ValueError("the game is over: there is no action to choose")
        return game.action_from_id(self.choose_id(game))

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"


def _fresh_random() -> Random:
    import secrets
    return Random(secrets.randbits(63))


class RandomBot(Bot):
    """Uniformly random legal action. With one RandomBot for every seat, a game makes the same
    choices as ``GameState.run_random`` seeded with the bot's seed (both draw
    ``ids[rng.below(len(ids))]`` from the same PCG32 stream)."""

    name = "random"

    def choose_id(self, game: Game) -> int:
        """A uniformly random legal id, drawn from the bot's generator."""
        ids = game.legal_action_ids()
        n = len(ids)
        if n == 0:
            raise ValueError("the game is over: there is no action to choose")
        return int(ids[self.rng.below(n)])


_HEURISTICS: dict[str, ModuleType] = {}


def greedy_heuristic(game_name: str) -> Callable[[Game, Random], int]:
    """The ``choose(game, rng)`` function of ``cardcore.bots.greedy_<game_name>``."""
    module = _HEURISTICS.get(game_name)
    if module is None:
        try:
            module = importlib.import_module(f"cardcore.bots.greedy_{game_name}")
        except ModuleNotFoundError as e:
            if e.name != f"cardcore.bots.greedy_{game_name}":
                raise
            raise ConfigError(f"the greedy bot has no heuristic for {game_name!r} "
                              f"(module cardcore.bots.greedy_{game_name}); use another bot, "
                              f"e.g. 'random'", "bots") from None
        _HEURISTICS[game_name] = module
    return module.choose  # type: ignore[no-any-return]


class GreedyBot(Bot):
    """A sensible one-move heuristic per game (see ``cardcore.bots.greedy_<game>``);
    its random tie-breaks come from the bot's own seeded generator."""

    name = "greedy"

    def check_game(self, name: str) -> None:
        """ConfigError if there is no greedy heuristic for the game ``name``."""
        greedy_heuristic(name)

    def choose_id(self, game: Game) -> int:
        """The heuristic's choice (random tie-breaks from the bot's generator)."""
        if game.is_over:
            raise ValueError("the game is over: there is no action to choose")
        return int(greedy_heuristic(game.name)(game, self.rng))


BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot}


def available_bots() -> tuple[str, ...]:
    """The names ``make_bot`` (and ``--bots``) accept."""
    return tuple(BOTS)


def make_bot(name: str, seed: int | None = None) -> Bot:
    """A bot by name (``"random"``, ``"greedy"``); ConfigError for an unknown name."""
    cls = BOTS.get(name.strip().lower()) if isinstance(name, str) else None
    if cls is None:
        raise ConfigError(f"unknown bot {name!r}; available: {', '.join(BOTS)}", "bots")
    return cls(seed)
