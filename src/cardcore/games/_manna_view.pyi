"""Type stubs for Manna's per-seat projection (cardcore.games._manna_view)."""

OBSERVATION_PIECES: tuple[tuple[str, int, int], ...]
