"""Type stubs for cardcore._search (SO-ISMCTS in C)."""
from cardcore._fast import GameState

def ismcts_search(state: GameState, observer: int, iterations: int, seed: int,
                  exploration: float = 0.7) -> list[tuple[int, int, float]]: ...
