"""Saves of Kings' Stakes written by earlier versions still load."""
from __future__ import annotations

import json
from pathlib import Path

from cardcore import load_game

DATA = Path(__file__).parent / "data"


def test_format1_save_of_another_game_loads_with_its_defaults():
    game = load_game((DATA / "kings_stakes_0.1.json").read_text())
    assert len(game._log) == 40 and json.loads(game.to_json())["format"] == 2
