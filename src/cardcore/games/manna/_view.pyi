"""Type stubs for Manna's per-seat projection (cardcore.games.manna._view)."""

OBSERVATION_PIECES: tuple[tuple[str, int, int], ...]
