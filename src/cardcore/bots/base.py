"""The bot protocol (``Bot``) and the uniformly random bot: the base every bot builds on."""
from __future__ import annotations

from cardcore._fast import Random
from cardcore.game import Action, Game

__all__ = ["Bot", "RandomBot"]


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
