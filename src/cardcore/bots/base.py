"""The bot protocol (``Bot``) and the uniformly random bot: the base every bot builds on."""
from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any

# The core's policy kinds for whole games played there, and epsilon's 16-bit scale.
from cardcore._batch import EPSILON_ONE, POLICY_GREEDY, POLICY_RANDOM
from cardcore._fast import Random
from cardcore.errors import ConfigError, echo
from cardcore.game import Action, Game, is_int

__all__ = ["EPSILON_ONE", "POLICY_GREEDY", "POLICY_RANDOM", "Bot", "RandomBot", "check_bot"]


class Bot:
    """Base class: subclasses implement ``choose_id``."""

    name = "bot"

    def __init__(self, seed: int | None = None) -> None:
        if seed is not None and not is_int(seed):
            raise ConfigError(f"seed must be an int or None, not {echo(seed)}", "seed")
        if seed is not None and seed < 0:
            raise ConfigError(f"seed must be a non-negative int, not {echo(seed)}", "seed")
        self.seed = seed
        self.rng = Random(seed) if seed is not None else _fresh_random()

    def reseed(self, seed: int) -> None:
        """Restart the bot's generator (same seed ⇒ same future choices)."""
        self.seed = seed
        self.rng = Random(seed)

    def check_game(self, name: str, players: int | None = None,
                   options: Mapping[str, Any] | None = None) -> None:
        """ConfigError if this bot cannot play the game ``name`` with ``players`` and
        ``options`` (checked before a run; None: not known yet)."""

    def choose_id(self, game: Game) -> int:
        """The id of a legal action for ``game.current_player`` (the fast path)."""
        raise NotImplementedError

    def core_policy(self, game: Game) -> tuple[int, int] | None:
        """(policy kind, epsilon threshold) when this bot's moves can be made inside the core
        for ``game``'s configuration (a whole run then needs no Python per move), else None.
        The core's moves are the ones ``choose_id`` makes from the same generator state."""
        return None

    def suggest(self, game: Game, seat: int | None = None, top: int = 3) -> list[dict[str, Any]]:
        """The best moves for the seat to move with their estimates (``ISMCTSBot.suggest``);
        bots without a search of their own have none: ask ``make_bot("level:5")``."""
        raise ConfigError(f"the {self.name} bot has no move estimates; hints come from a "
                          f"search bot such as make_bot('level:5')", "bots")

    def choose(self, game: Game) -> Action:
        """A legal action for ``game.current_player``; ValueError if the game is over."""
        if game.is_over:
            raise ValueError("the game is over: there is no action to choose")
        return game.action_from_id(self.choose_id(game))

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"


def check_bot(bot: Any, name: str, players: int | None = None,
              options: Mapping[str, Any] | None = None) -> None:
    """``bot.check_game`` for the game ``name`` with ``players`` and ``options``: told them
    when its ``check_game`` takes them, else (a Bot subclass written for 0.4,
    ``check_game(self, name)``) asked with the name alone."""
    check = bot.check_game
    try:
        params = inspect.signature(check).parameters.values()
    except (TypeError, ValueError):
        params = None
    if params is not None and not any(p.name == "players" or p.kind is p.VAR_KEYWORD
                                       for p in params):
        check(name)
        return
    check(name, players=players, options=options)


def _fresh_random() -> Random:
    import secrets
    return Random(secrets.randbits(63))


class RandomBot(Bot):
    """Uniformly random legal action. With one RandomBot for every seat, a game makes the same
    choices as ``GameState.run_random`` seeded with the bot's seed (both draw
    ``ids[rng.below(len(ids))]`` from the same PCG32 stream)."""

    name = "random"

    def core_policy(self, game: Game) -> tuple[int, int] | None:
        """Uniform moves run in the core for every game (not for a subclass with its own
        ``choose_id``: the core would not play its moves)."""
        return (POLICY_RANDOM, 0) if type(self).choose_id is RandomBot.choose_id else None

    def choose_id(self, game: Game) -> int:
        """A uniformly random legal id, drawn from the bot's generator."""
        ids = game.legal_action_ids()
        n = len(ids)
        if n == 0:
            raise ValueError("the game is over: there is no action to choose")
        return int(ids[self.rng.below(n)])
