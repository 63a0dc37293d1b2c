"""ISMCTSBot: information-set Monte Carlo tree search, running inside the core.

Every iteration plays in a world drawn by the game's ``sample_hidden`` for the bot's seat, so
the bot knows exactly what its seat knows (``cardcore._search`` has the algorithm). The move
played is the root's most visited one.

Horizon and reward. With ``horizon="round"`` an iteration plays to the end of the current
round (deal, hand) and credits the win of that round, judged on its score: the change of each
seat's standing (the game's ``returns``) over the round, partners together (``sides_of``). With
``horizon="match"`` it plays to the end of the match and credits the match's win. The default
is the game's (``Game.search_horizon``; each game says why it chose it): "match" where a
match is a few short rounds whose results add up, "round" where a match runs to a target
over many rounds, so that a rollout through all of them is slow and says little about the
move at hand.

Rollouts. With ``rollout="game"`` they play the game's in-core rollout policy where it has
one (the ``rollout`` hook of its state machine), and the tree uses it too: a node's
untried moves are expanded in the policy's order, below the root only while the node has at
most sqrt(visits) children (progressive widening), and ``prior`` > 0 adds a PUCT-like bonus
to the policy's move. Without a policy, or with ``rollout="random"``, rollouts are
uniformly random and every untried move is expanded at once.
"""
from __future__ import annotations

from cardcore._search import MAX_ITERATIONS, MAX_THINK_MS, ismcts_search
from cardcore.bots.base import Bot
from cardcore.errors import echo
from cardcore.game import Game, is_int

__all__ = ["ISMCTSBot"]

DEFAULT_ITERATIONS = 1000
HORIZONS = ("round", "match")
ROLLOUTS = ("game", "random")


def sides_of(game: Game) -> list[int]:
    """A side number per seat: partners share one (the game's ``sides_of``)."""
    return list(type(game).sides_of(game.num_players, game.options))


class ISMCTSBot(Bot):
    """``ISMCTSBot(iterations=None, think_ms=None, seed=None, exploration=0.7,
    horizon=None, rollout="game", prior=0.25)``.

    ``iterations`` searches that many iterations per decision (1000 when neither it nor
    ``think_ms`` is given); ``think_ms`` gives each decision a time budget in milliseconds
    instead, with ``iterations`` (default MAX_ITERATIONS) as a cap. A seeded bot with
    iterations only makes the same choices every time; with a time budget its choices depend
    on the machine's speed. Either way Ctrl-C stops a search at once (KeyboardInterrupt).
    ``exploration`` is the UCB constant (win shares are in 0..1), ``horizon`` "round" or
    "match" (None: the game's default), ``rollout`` "game" or "random", ``prior`` the weight
    of the rollout policy's move in the tree (0: none). ``last_iterations`` is the number of
    iterations the latest decision ran."""

    name = "ismcts"

    def __init__(self, iterations: int | None = None, think_ms: float | None = None,
                 seed: int | None = None, exploration: float = 0.7, horizon: str | None = None,
                 rollout: str = "game", prior: float = 0.25) -> None:
        if iterations is None:
            iterations = DEFAULT_ITERATIONS if think_ms is None else MAX_ITERATIONS
        if not is_int(iterations) or not 1 <= iterations <= MAX_ITERATIONS:
            raise ValueError(f"iterations must be an int 1..{MAX_ITERATIONS:,}, "
                             f"not {echo(iterations)}")
        if think_ms is not None and (isinstance(think_ms, bool)
                                     or not isinstance(think_ms, (int, float))
                                     or not 0 < think_ms <= MAX_THINK_MS):
            raise ValueError(f"think_ms must be a number of milliseconds in (0, "
                             f"{MAX_THINK_MS:,.0f}], not {echo(think_ms)}")
        if isinstance(exploration, bool) or not isinstance(exploration, (int, float)) \
                or not 0 <= exploration <= 100:
            raise ValueError(f"exploration must be a number 0..100, not {echo(exploration)}")
        if horizon is not None and horizon not in HORIZONS:
            raise ValueError(f"horizon must be one of {HORIZONS} or None, not {echo(horizon)}")
        if rollout not in ROLLOUTS:
            raise ValueError(f"rollout must be one of {ROLLOUTS}, not {echo(rollout)}")
        if isinstance(prior, bool) or not isinstance(prior, (int, float)) or not 0 <= prior <= 100:
            raise ValueError(f"prior must be a number 0..100, not {echo(prior)}")
        super().__init__(seed)
        self.prior = float(prior)
        self.iterations = iterations
        self.think_ms = think_ms
        self.exploration = float(exploration)
        self.horizon = horizon
        self.rollout = rollout
        self.last_iterations = 0
        self._sides: dict[tuple[str, int, str], list[int]] = {}   # by configuration

    def _sides_for(self, game: Game) -> list[int]:
        key = (game.name, game.num_players, repr(sorted(game.options.items())))
        if key not in self._sides:
            self._sides[key] = sides_of(game)
        return self._sides[key]

    def choose_id(self, game: Game) -> int:
        ids = game.legal_action_ids()
        if len(ids) == 0:
            raise ValueError("the game is over: there is no action to choose")
        if len(ids) == 1:
            self.last_iterations = 0
            return int(ids[0])
        seed = (self.rng.next_u32() << 32) | self.rng.next_u32()
        player = game.current_player
        assert player is not None                 # the game is not over
        horizon = self.horizon or game.search_horizon
        stats = ismcts_search(game.state, player, self.iterations, seed, self.exploration,
                              horizon, self.rollout, self._sides_for(game), self.prior,
                              self.think_ms)
        self.last_iterations = sum(visits for _, visits, _ in stats)
        return int(stats[0][0])

    def __repr__(self) -> str:
        return (f"ISMCTSBot(iterations={self.iterations}, think_ms={self.think_ms!r}, "
                f"seed={self.seed!r}, exploration={self.exploration}, "
                f"horizon={self.horizon!r}, rollout={self.rollout!r})")
