"""ISMCTSBot: information-set Monte Carlo tree search, running inside the core.

Every iteration plays in a world drawn by the game's ``sample_hidden`` for the bot's seat, so
the bot knows exactly what its seat knows (``cardcore._search`` has the algorithm). Rollouts
are uniformly random to the end of the match; a move is credited with its mover's share of
the win. The move played is the root's most visited one.
"""
from __future__ import annotations

from cardcore._search import ismcts_search
from cardcore.bots import Bot
from cardcore.game import Game, is_int

__all__ = ["ISMCTSBot"]


class ISMCTSBot(Bot):
    """``ISMCTSBot(iterations=1000, seed=None, exploration=0.7)``; ``exploration`` is the UCB
    constant (win shares are in 0..1)."""

    name = "ismcts"

    def __init__(self, iterations: int = 1000, seed: int | None = None,
                 exploration: float = 0.7) -> None:
        if not is_int(iterations) or not 1 <= iterations <= 10_000_000:
            raise ValueError(f"iterations must be an int 1..10,000,000, not {iterations!r}")
        if isinstance(exploration, bool) or not isinstance(exploration, (int, float)) \
                or not 0 <= exploration <= 100:
            raise ValueError(f"exploration must be a number 0..100, not {exploration!r}")
        super().__init__(seed)
        self.iterations = iterations
        self.exploration = float(exploration)

    def choose_id(self, game: Game) -> int:
        ids = game.legal_action_ids()
        if len(ids) == 0:
            raise ValueError("the game is over: there is no action to choose")
        if len(ids) == 1:
            return int(ids[0])
        seed = (self.rng.next_u32() << 32) | self.rng.next_u32()
        player = game.current_player
        assert player is not None                 # the game is not over
        stats = ismcts_search(game.state, player, self.iterations, seed, self.exploration)
        return int(stats[0][0])

    def __repr__(self) -> str:
        return (f"ISMCTSBot(iterations={self.iterations}, seed={self.seed!r}, "
                f"exploration={self.exploration})")
