"""Type stubs for Manna's test-only position setter (cardcore.games.manna._testing)."""
from typing import Any

from cardcore.games.manna._state import MannaState

def set_position(state: MannaState, player: int, hand: list[int], melds0: list[list[int]],
                 melds1: list[list[int]], opened0: bool = False, opened1: bool = False,
                 stage: int = 1, pile: Any = (), frozen: bool = False,
                 turn_points: int = 0, committed: bool = False, retracted: bool = False,
                 credit: list[int] | None = None, foot_taken: bool = False,
                 need: Any = None, stock: list[int] | None = None) -> None: ...
