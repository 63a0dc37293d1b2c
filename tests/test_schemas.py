"""JSON Schemas (api.md "JSON Schemas"): shipped and current; every property described;
actions and events unions discriminated by ``kind`` (each kind's fields required); and every
view (each seat's and the spectator's), action, event and save of random playouts validates
against them."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from typing import Any, Iterator

import jsonschema
import jsonschema_rs
import pytest

import cardcore
from cardcore.registry import game_class
from cardcore.schemas import KINDS, build
from cardcore.server.tables import spectator_view

from invariants import all_configs, config_id

CONFIGS = all_configs()
GAMES = cardcore.available_games()
# Every game at every player count (the options at their defaults; CONFIGS covers them).
COUNTS = [(name, n) for name in GAMES
          for n in range(game_class(name).min_players, game_class(name).max_players + 1)]
PLAYOUTS = 100                       # seeded random playouts per game and player count ...
STEPS = 200                          # ... of this many moves at most (whole matches: CONFIGS)
PER_GAME = 500                       # ... but about this many per game at most (below)


def playouts(name: str) -> int:
    """PLAYOUTS per player count, or PER_GAME shared by the counts of a game that takes many:
    a game's schemas are the same at every count. Crazy Eights' 14 counts get 35 each: the
    first 10 of every count together met all 21 shapes of action, view and event (kinds,
    fields, zones moved between) that 100 of every count met. The other games (1 to 5 counts)
    keep 100: each met its rarest shape only after playout 75."""
    cls = game_class(name)
    return min(PLAYOUTS, max(20, PER_GAME // (cls.max_players - cls.min_players + 1)))


@pytest.mark.parametrize("game", GAMES)
def test_shipped_schemas_are_valid_and_current(game):
    for kind in KINDS:
        schema = cardcore.schema(game, kind)
        jsonschema.Draft202012Validator.check_schema(schema)
        assert schema == json.loads(json.dumps(build(game, kind))), (
            "regenerate with: python -m cardcore.schemas")


def properties(node: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """Every (path, property schema) under ``node``, however deep (unions, arrays, $defs)."""
    if isinstance(node, dict):
        for name, prop in (node.get("properties") or {}).items():
            yield f"{path}.{name}", prop
        for key, value in node.items():
            yield from properties(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from properties(value, f"{path}[{i}]")


@pytest.mark.parametrize("game", GAMES)
def test_every_property_has_a_description(game):
    for kind in KINDS:
        schema = cardcore.schema(game, kind)
        found = list(properties(schema))
        assert len(found) > 8
        bare = [path for path, prop in found
                if not isinstance(prop, dict) or not str(prop.get("description", "")).strip()]
        assert not bare, f"{game} {kind}: properties without a description: {bare[:10]}"
        assert schema["description"]


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("kind", ["action", "event"])
def test_actions_and_events_are_unions_discriminated_by_kind(game, kind):
    cls = game_class(game)
    action_kinds = {spec.kind for spec in cls(seed=0)._specs}
    expected = action_kinds | (set(cls.narrator.kinds) if kind == "event" else set())
    members = cardcore.schema(game, kind)["oneOf"]
    kinds = [m["properties"]["kind"]["const"] for m in members]
    assert sorted(kinds) == sorted(expected)              # one member per kind, each once
    for m in members:
        assert m["additionalProperties"] is False and m["description"] and m["title"]
        assert {"kind", "cards"} <= set(m["required"])
        if kind == "event":
            automatic = m["properties"]["kind"]["const"] in cls.narrator.kinds
            assert ("auto" in m["required"]) == automatic
            assert ({"id", "action"} <= set(m["required"])) == (not automatic)


def validator(game: str, kind: str) -> jsonschema.Draft202012Validator:
    return jsonschema.Draft202012Validator(cardcore.schema(game, kind))


def test_each_kind_requires_its_own_fields():
    """A kind's fields are required by its member alone: a Manna meld without its counts, a
    take_pile event without melded or a deal without its dealer is refused."""
    game = cardcore.new_game("manna", seed=3)
    actions = validator("manna", "action")
    rng = random.Random(3)
    while not any(a.kind == "meld" for a in game.legal_actions()):
        game.apply(rng.choice(game.legal_actions()))
    meld = next(a.to_dict() for a in game.legal_actions() if a.kind == "meld")
    assert actions.is_valid(meld)
    assert not actions.is_valid({k: v for k, v in meld.items() if k != "naturals"})
    assert not actions.is_valid({**meld, "kind": "discard"})      # a discard has no counts
    events = validator("manna", "event")
    deal = game.events(0)[0]
    assert deal["kind"] == "deal" and events.is_valid(deal)
    assert not events.is_valid({k: v for k, v in deal.items() if k != "dealer"})
    assert not events.is_valid({**deal, "auto": False})
    take = {"n": 9, "kind": "take_pile", "player": 1, "cards": ["5H", "7C"], "id": 1,
            "action": "take add", "melded": ["7C"], "moves": [],
            "text": "Seat 1 took the discard pile."}
    assert events.is_valid(take)
    assert not events.is_valid({k: v for k, v in take.items() if k != "melded"})
    assert not events.is_valid({**take, "auto": True})            # a move, not automatic


@pytest.mark.parametrize("game", GAMES)
def test_spectator_view_is_valid(game):
    """The server's spectator view (no seat: player, team, my_pile null, no hand) fits the
    view schema at every point of a random playout."""
    views = validator(game, "view")
    g = cardcore.new_game(game, seed=5)
    rng = random.Random(5)
    seen = 0
    while not g.is_over and seen < 300:
        view = spectator_view(g)
        assert view["player"] is None and view["hand"] is None
        views.validate(json.loads(json.dumps(view)))
        g.apply(rng.choice(g.legal_actions()))
        seen += 1
    views.validate(spectator_view(g))


def test_ui_contract_fields_are_declared():
    """The UI contract's fields (docs/api.md, "UI contract") are in the schemas, required."""
    view = cardcore.schema("manna", "view")
    assert view["properties"]["zones"]["$ref"] == "#/$defs/ZoneContents"
    assert "zones" in view["required"]
    events = cardcore.schema("manna", "event")
    for member in events["oneOf"]:
        assert {"moves", "text"} <= set(member["properties"])
        assert {"moves", "text"} <= set(member["required"])
    end = next(m for m in events["oneOf"] if m["properties"]["kind"]["const"] == "hand_end")
    assert {"reason", "reason_code"} <= set(end["required"])
    move = jsonschema.Draft202012Validator({**events["$defs"]["Move"],
                                            "$defs": events["$defs"]})
    assert move.is_valid({"from": "stock", "to": "hand:0", "count": 1})
    assert move.is_valid({"from": "hand:0", "to": "meld:0:7", "cards": ["7H", "7S", "JK"]})
    assert not move.is_valid({"from": "stock", "to": "hand:0", "count": 1, "cards": []})
    assert not move.is_valid({"from": "Stock!", "to": "hand:0", "count": 1})
    zones = jsonschema.Draft202012Validator({**view["$defs"]["ZoneContents"],
                                             "$defs": view["$defs"]})
    assert zones.is_valid({"stock": {"count": 40}, "hand:0": ["AS", "JK"], "meld:1:0": []})
    assert not zones.is_valid({"stock": {"count": -1}})


class RoundTrip:
    """A validator that validates the JSON text's reading of what it is given."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def validate(self, value: Any) -> None:
        self.inner.validate(json.loads(json.dumps(value)))


def check_playout(name: str, kwargs: dict[str, Any], seed: int, validators: dict[str, Any],
                  steps: int, readers: list[int | None] | None = None,
                  round_trip: bool = False) -> None:
    """One seeded random playout of at most ``steps`` moves: every legal action and the view
    of the seat to move at every step, every seat's and the spectator's view every tenth
    step and at the end, then the events as each of ``readers`` saw them (None: the
    spectator; by default every seat and the spectator) and the save; with ``round_trip``
    each through JSON text first."""
    game = cardcore.new_game(name, seed=seed, **kwargs)
    rng = random.Random(seed)
    if round_trip:
        validators = {k: RoundTrip(v) for k, v in validators.items()}
    step = 0
    while not game.is_over and step < steps:
        actions = game.legal_actions()
        for a in actions:
            validators["action"].validate(a.to_dict())
        if step % 10 == 0:
            for p in range(game.num_players):
                validators["view"].validate(game.view(p))
            validators["view"].validate(spectator_view(game))
        else:
            validators["view"].validate(game.view(game.current_player))
        game.apply(rng.choice(actions))
        step += 1
    for p in range(game.num_players):
        validators["view"].validate(game.view(p))
    validators["view"].validate(spectator_view(game))
    for seat in [None, *range(game.num_players)] if readers is None else readers:
        for event in game.events(seat):
            validators["event"].validate(event)
    validators["save"].validate(json.loads(game.to_json()))


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=[config_id(c) for c in CONFIGS])
def test_random_playouts_validate(config):
    """Whole matches of every configuration, every seat and the spectator, after a JSON round
    trip; saves with and without a key."""
    name, kwargs = config
    validators = {k: jsonschema_rs.Draft202012Validator(cardcore.schema(name, k))
                  for k in KINDS}
    for seed in range(2):
        check_playout(name, kwargs, seed, validators, steps=3000, round_trip=True)
        game = cardcore.new_game(name, seed=seed, **kwargs)
        validators["save"].validate(json.loads(game.to_json(key=b"k")))


def test_validators_agree():
    """The fast validator (jsonschema-rs, the playout tests') and the reference one (jsonschema)
    agree on real actions and events of every game and on broken copies of them (a required
    field dropped, an unknown field, a wrong kind)."""
    for name in GAMES:
        game = cardcore.new_game(name, seed=2)
        rng = random.Random(2)
        actions: list[dict[str, Any]] = []
        while not game.is_over and len(actions) < 15:
            legal = game.legal_actions()
            actions.append(rng.choice(legal).to_dict())
            game.apply(rng.choice(legal))
        samples = {"action": actions, "event": game.events(0)[:15] + game.events(None)[-3:]}
        for kind, items in samples.items():
            reference = validator(name, kind)
            fast = jsonschema_rs.Draft202012Validator(cardcore.schema(name, kind))
            for item in items:
                broken = [{k: v for k, v in item.items() if k != key} for key in item]
                broken += [{**item, "extra": 1}, {**item, "kind": "no_such_kind"}]
                for candidate in [item, *broken]:
                    assert fast.is_valid(candidate) == reference.is_valid(candidate), candidate
                assert reference.is_valid(item)


@pytest.mark.slow
@pytest.mark.parametrize("name,players", COUNTS, ids=[f"{g}-{n}" for g, n in COUNTS])
def test_many_playouts_validate(name, players):
    """``playouts(name)`` seeded random playouts of each game at each player count, whole
    matches, each seat's events in turn and the spectator's (jsonschema-rs: the same schemas,
    fast enough for this)."""
    validators = {k: jsonschema_rs.Draft202012Validator(cardcore.schema(name, k))
                  for k in ("view", "action", "event", "save")}
    for seed in range(playouts(name)):      # the spectator and one seat, each seat in turn
        check_playout(name, {"players": players}, seed, validators, STEPS,
                      readers=[None, seed % players])


def test_schemas_reject_what_they_should():
    view = jsonschema.Draft202012Validator(cardcore.schema("kings_stakes", "view"))
    good = cardcore.new_game("kings_stakes", seed=1).view(0)
    assert view.is_valid(good)
    assert not view.is_valid({**good, "secret": 1})          # closed objects
    assert not view.is_valid({**good, "hand": ["ZZ"]})
    assert not view.is_valid({**good, "scores": ["1", 2]})   # integers per seat
    assert view.is_valid(cardcore.new_game("kings_stakes", seed=1).view(None))  # a spectator
    assert not view.is_valid({**good, "zones": {"stock": {"count": -1}}})
    save = jsonschema.Draft202012Validator(cardcore.schema("kings_stakes", "save"))
    data = json.loads(cardcore.new_game("kings_stakes", seed=1).to_json())
    assert save.is_valid(data) and not save.is_valid({**data, "format": 1})


def test_cli_schema_prints_the_schema():
    out = subprocess.run([sys.executable, "-m", "cardcore", "schema", "manna", "event"],
                         capture_output=True, text=True, check=True)
    assert json.loads(out.stdout) == cardcore.schema("manna", "event")
