"""Type stubs for cardcore._search (SO-ISMCTS in C)."""
from collections.abc import Sequence

from cardcore._fast import GameState

HORIZONS: tuple[str, ...]
ROLLOUTS: tuple[str, ...]
REWARDS: tuple[str, ...]
MAX_ITERATIONS: int
MAX_THINK_MS: float
SLICE_SECONDS: float

def ismcts_search(state: GameState, observer: int, iterations: int, seed: int,
                  exploration: float = 0.7, horizon: str = "match", rollout: str = "game",
                  sides: Sequence[int] | None = None,
                  prior: float = 0.0,
                  think_ms: float | None = None, reward: str = "win",
                  points_scale: float = 0.0) -> list[tuple[int, int, float]]: ...
def rollout_move(state: GameState, seed: int) -> int: ...
