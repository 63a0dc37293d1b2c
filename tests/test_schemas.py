"""JSON Schemas (api.md "Additions in 0.2"): shipped, current, and every view, action, event
and save of random playouts validates against them with jsonschema."""
from __future__ import annotations

import json
import random
import subprocess
import sys

import jsonschema
import pytest

import cardcore
from cardcore.schemas import KINDS, build

from invariants import all_configs, config_id

CONFIGS = all_configs()


@pytest.mark.parametrize("game", cardcore.available_games())
def test_shipped_schemas_are_valid_and_current(game):
    for kind in KINDS:
        schema = cardcore.schema(game, kind)
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema == json.loads(json.dumps(build(game, kind))), (
            "regenerate with: python -m cardcore.schemas")


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=[config_id(c) for c in CONFIGS])
def test_random_playouts_validate(config):
    name, kwargs = config
    validators = {k: jsonschema.Draft202012Validator(cardcore.schema(name, k)) for k in KINDS}
    for seed in range(2):
        game = cardcore.new_game(name, seed=seed, **kwargs)
        rng = random.Random(seed)
        step = 0
        while not game.is_over and step < 700:       # every view and action on the way
            actions = game.legal_actions()
            for a in actions:
                validators["action"].validate(json.loads(json.dumps(a.to_dict())))
            for p in [None, *range(game.num_players)]:          # the spectator's too
                validators["view"].validate(json.loads(json.dumps(game.view(p))))
            game.apply(rng.choice(actions))
            step += 1
        for p in [None, *range(game.num_players)]:
            validators["view"].validate(game.view(p))
        for seat in [None] + list(range(game.num_players)):
            for event in game.events(seat):
                validators["event"].validate(json.loads(json.dumps(event)))
        validators["save"].validate(json.loads(game.to_json()))
        validators["save"].validate(json.loads(game.to_json(key=b"k")))


def test_schemas_reject_what_they_should():
    view = jsonschema.Draft202012Validator(cardcore.schema("kings_stakes", "view"))
    good = cardcore.new_game("kings_stakes", seed=1).view(0)
    assert view.is_valid(good)
    assert not view.is_valid({**good, "secret": 1})          # closed objects
    assert not view.is_valid({**good, "hand": ["ZZ"]})
    assert view.is_valid(cardcore.new_game("kings_stakes", seed=1).view(None))  # a spectator
    assert not view.is_valid({**good, "zones": {"stock": {"count": -1}}})
    save = jsonschema.Draft202012Validator(cardcore.schema("kings_stakes", "save"))
    data = json.loads(cardcore.new_game("kings_stakes", seed=1).to_json())
    assert save.is_valid(data) and not save.is_valid({**data, "format": 1})


def test_cli_schema_prints_the_schema():
    out = subprocess.run([sys.executable, "-m", "cardcore", "schema", "manna", "event"],
                         capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == cardcore.schema("manna", "event")
