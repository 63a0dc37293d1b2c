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

The win of a round says nothing of its size. With ``reward="points"`` (the default where the
game's ``search_reward`` says so: a game whose rounds are worth from a few hundred to tens of
thousands of points) an iteration whose round ends with the match still going credits the
points instead: each seat's margin (its round score less the best other side's) as
0.5 + 0.5·tanh(margin / scale), where the scale is the mean size of the bot's own margins in
the search so far (so rewards spread over 0..1 whatever a game's points are worth; half the
game's ``utility_range`` is the prior, worth one iteration); an iteration in which the match
ends (a seat reaches the target) still credits the match's win.
With ``horizon="match"`` every iteration ends the match, so the reward is the win either way.

Rollouts. With ``rollout="game"`` they play the game's in-core rollout policy where it has
one (the ``rollout`` hook of its state machine), and the tree uses it too: a node's
untried moves are expanded in the policy's order, below the root only while the node has at
most sqrt(visits) children (progressive widening), and ``prior`` > 0 adds a PUCT-like bonus
to the policy's move. ``rollout="greedy"`` does the same with the game's in-core greedy
policy (GreedyBot's own moves, from each mover's information in the sampled world). Without a
policy, or with ``rollout="random"``, rollouts are uniformly random and every untried move is
expanded at once.
"""
from __future__ import annotations

from typing import Any

from cardcore._search import MAX_ITERATIONS, MAX_THINK_MS, ismcts_search
from cardcore.bots.base import Bot
from cardcore.errors import ConfigError, echo
from cardcore.game import Game, is_int

__all__ = ["ISMCTSBot", "check_suggest"]

DEFAULT_ITERATIONS = 1000
HORIZONS = ("round", "match")
ROLLOUTS = ("game", "greedy", "random")
REWARDS = ("win", "points")
MAX_SOLVER = 100_000_000           # positions one solve may visit (about a minute)


def sides_of(game: Game) -> list[int]:
    """A side number per seat: partners share one (the game's ``sides_of``)."""
    return list(type(game).sides_of(game.num_players, game.options))


class ISMCTSBot(Bot):
    """``ISMCTSBot(iterations=None, think_ms=None, seed=None, exploration=0.7,
    horizon=None, rollout="game", prior=0.25, reward=None)``.

    ``iterations`` searches that many iterations per decision (1000 when neither it nor
    ``think_ms`` is given); ``think_ms`` gives each decision a time budget in milliseconds
    instead, with ``iterations`` (default MAX_ITERATIONS) as a cap. A seeded bot with
    iterations only makes the same choices every time; with a time budget its choices depend
    on the machine's speed. Either way Ctrl-C stops a search at once (KeyboardInterrupt).
    ``exploration`` is the UCB constant (win shares are in 0..1), ``horizon`` "round" or
    "match" (None: the game's default), ``rollout`` "game", "greedy" or "random", ``prior`` the weight
    of the rollout policy's move in the tree (0: none), ``reward`` "win" or "points" (None:
    the game's ``search_reward``; see the module docstring). ``last_iterations`` is the
    number of iterations the latest decision ran. ``solver`` > 0 lets the game's exact
    solver (``GameState.solve_moves``, where the game has one, e.g. for an endgame with every
    card known) visit up to that many positions first: when it proves a win or a draw, the bot plays that
    move, and hints give the exact results (1 a win, 0.5 a draw, 0 a loss); when every move
    loses against best play, or the budget runs out, the search decides as usual (it plays
    for the other side's mistakes). Bad values: ConfigError naming the parameter."""

    name = "ismcts"

    def __init__(self, iterations: int | None = None, think_ms: float | None = None,
                 seed: int | None = None, exploration: float = 0.7, horizon: str | None = None,
                 rollout: str = "game", prior: float = 0.25, reward: str | None = None,
                 solver: int = 0) -> None:
        if iterations is None:
            iterations = DEFAULT_ITERATIONS if think_ms is None else MAX_ITERATIONS
        if not is_int(iterations) or not 1 <= iterations <= MAX_ITERATIONS:
            raise ConfigError(f"iterations must be an int 1..{MAX_ITERATIONS:,}, "
                              f"not {echo(iterations)}", "iterations")
        if think_ms is not None and not _number_in(think_ms, 0, MAX_THINK_MS, open_low=True):
            raise ConfigError(f"think_ms must be a number of milliseconds in (0, "
                              f"{MAX_THINK_MS:,.0f}], not {echo(think_ms)}", "think_ms")
        if not _number_in(exploration, 0, 100):
            raise ConfigError(f"exploration must be a number 0..100, not {echo(exploration)}",
                              "exploration")
        if horizon is not None and horizon not in HORIZONS:
            raise ConfigError(f"horizon must be one of {HORIZONS} or None, not {echo(horizon)}",
                              "horizon")
        if rollout not in ROLLOUTS:
            raise ConfigError(f"rollout must be one of {ROLLOUTS}, not {echo(rollout)}",
                              "rollout")
        if not _number_in(prior, 0, 100):
            raise ConfigError(f"prior must be a number 0..100, not {echo(prior)}", "prior")
        if reward is not None and reward not in REWARDS:
            raise ConfigError(f"reward must be one of {REWARDS} or None, not {echo(reward)}",
                              "reward")
        if not is_int(solver) or not 0 <= solver <= MAX_SOLVER:
            raise ConfigError(f"solver must be an int 0..{MAX_SOLVER:,} (positions), not "
                              f"{echo(solver)}", "solver")
        super().__init__(seed)
        self.solver = int(solver)
        self.prior = float(prior)
        self.iterations = iterations
        self.think_ms = think_ms
        self.exploration = float(exploration)
        self.horizon = horizon
        self.rollout = rollout
        self.reward = reward
        self.last_iterations = 0
        self._sides: dict[tuple[str, int, str], tuple[list[int], float]] = {}  # by configuration

    def _config(self, game: Game) -> tuple[list[int], float]:
        """The sides per seat and the points reward's scale of the game's configuration."""
        key = (game.name, game.num_players, repr(sorted(game.options.items())))
        if key not in self._sides:
            low, high = type(game).utility_range_of(game.num_players, game.options)
            self._sides[key] = (sides_of(game), max((high - low) / 2, 1.0))
        return self._sides[key]

    def _search(self, game: Game) -> list[tuple[int, int, float]]:
        seed = (self.rng.next_u32() << 32) | self.rng.next_u32()
        player = game.current_player
        assert player is not None                 # the game is not over
        horizon = self.horizon or game.search_horizon
        sides, scale = self._config(game)
        stats = ismcts_search(game.state, player, self.iterations, seed, self.exploration,
                              horizon, self.rollout, sides, self.prior, self.think_ms,
                              self.reward or game.search_reward, scale)
        self.last_iterations = sum(visits for _, visits, _ in stats)
        return stats

    def _solve(self, game: Game, every: bool) -> list[tuple[int, int | None]] | None:
        """The solver's results when it proves a win or a draw for the mover, else None."""
        if not self.solver or not game.state.has_solver:
            return None
        solved = game.state.solve_moves(self.solver, every)
        if solved is None or max(v for _, v in solved if v is not None) < 0:
            return None
        return solved

    def choose_id(self, game: Game) -> int:
        ids = game.legal_action_ids()
        if len(ids) == 0:
            raise ValueError("the game is over: there is no action to choose")
        self.last_iterations = 0
        if len(ids) == 1:
            return int(ids[0])
        solved = self._solve(game, every=False)
        if solved is not None:
            return max(solved, key=lambda e: -2 if e[1] is None else e[1])[0]
        return int(self._search(game)[0][0])

    def suggest(self, game: Game, seat: int | None = None, top: int = 3) -> list[dict[str, Any]]:
        """The ``top`` best moves for the seat to move, best first: ``{"action": Action,
        "estimate": float, "visits": int}``, from one search of this bot's settings that sees
        only the seat's information. ``estimate`` is the move's mean reward: its win share in
        0..1 (with the "points" reward, the share of the points margin, 0.5 = even).
        ``seat`` (default: the seat to move) must be the seat to move."""
        check_suggest(game, seat, top)
        solved = self._solve(game, every=True)
        if solved is not None:                    # exact: 1 a win, 0.5 a draw, 0 a loss
            self.last_iterations = 0
            ranked = sorted(solved, key=lambda e: -(e[1] if e[1] is not None else -2))
            return [{"action": game.action_from_id(action), "estimate": (value + 1) / 2,
                     "visits": 1} for action, value in ranked[:top] if value is not None]
        stats = self._search(game)
        return [{"action": game.action_from_id(action), "estimate": float(share),
                 "visits": int(visits)} for action, visits, share in stats[:top]]

    def __repr__(self) -> str:
        return (f"ISMCTSBot(iterations={self.iterations}, think_ms={self.think_ms!r}, "
                f"seed={self.seed!r}, exploration={self.exploration}, "
                f"horizon={self.horizon!r}, rollout={self.rollout!r}, reward={self.reward!r}, "
                f"solver={self.solver})")


def _number_in(value: Any, low: float, high: float, *, open_low: bool = False) -> bool:
    """A real number (not a bool) in [low, high] (``open_low``: (low, high])."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return (low < value if open_low else low <= value) and value <= high


def check_suggest(game: Game, seat: int | None, top: int) -> None:
    """ValueError for a finished game or a seat that is not to move; ConfigError for ``top``."""
    if game.is_over:
        raise ValueError("the game is over: there is no move to suggest")
    if not is_int(top) or not 1 <= top <= 1000:
        raise ConfigError(f"top must be an int 1..1000, not {echo(top)}", "top")
    if seat is not None and (not is_int(seat) or seat != game.current_player):
        raise ValueError(f"hints are for the seat to move ({game.current_player}), "
                         f"not seat {echo(seat)}")
