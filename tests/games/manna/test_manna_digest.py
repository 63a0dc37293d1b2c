"""Seeded Manna games are byte-for-byte those of the 0.2 build: action ids, legal-action order,
views, to_json, the core's random playout and VectorGame (benchmarks/manna_digest.py; the
digests in tests/games/manna/data/manna_digests.json were made by the unchanged 0.2 build; the
Python path's again in 0.3, when the options, which to_json holds, gained ``hands``, and in
0.4, when views gained ``zones`` and saves were hashed without the package's version: the
core's and VectorGame's are still 0.2's)."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

BENCHMARKS = Path(__file__).resolve().parents[3] / "benchmarks"


@pytest.mark.slow
def test_seeded_games_match_the_stored_digests() -> None:
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import manna_digest
    finally:
        sys.path.remove(str(BENCHMARKS))
    stored = json.loads(manna_digest.STORED.read_text())
    assert manna_digest.digests() == stored
