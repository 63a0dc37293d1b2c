"""Saves written by cardcore 0.2 (format 2; tests/games/<game>/data/<game>_0.2.json, made by
the 0.2 build with what each game showed then) load in this version and show the same game:
the same scores, seat to move, legal actions, views, events and returns."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import cardcore
from game_cases import declared

FILES = sorted((Path(__file__).parent / "games").glob("*/data/*_0.2.json"))


def test_every_game_has_its_0_2_saves():
    """The games of 0.2 (those whose cases.py says so) keep their saves here."""
    had = {name for name, has in declared("HAS_0_2_SAVES") if has}
    assert len(had) >= 3 and {p.parent.parent.name for p in FILES} >= had


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_0_2_saves_load_and_show_the_same_game(path):
    for case in json.loads(path.read_text(encoding="utf-8")):
        game = cardcore.load_game(case["save"], key=case["key"])
        want = case["expect"]
        assert game.scores == want["scores"] and game.is_over == want["is_over"]
        assert game.current_player == want["current_player"]
        assert game.legal_action_ids() == want["legal"]
        # 0.4 added the views' zones: the 0.2 keys are as they were
        assert [{k: v for k, v in game.view(p).items() if k != "zones"}
                for p in range(game.num_players)] == want["views"]
        assert len(game.events(None)) == want["events"]
        assert game.returns() == want["returns"]
        assert json.loads(game.to_json())["actions"] == case["save"]["actions"]
        if case["key"]:
            with pytest.raises(ValueError, match="hmac"):
                cardcore.load_game(case["save"], key="another key")
