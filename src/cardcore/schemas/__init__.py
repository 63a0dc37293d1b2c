"""JSON Schemas (draft 2020-12) of every game's view, action, event, save and match record.

``cardcore.schema(game, kind)`` returns the schema shipped in the game's package
(``cardcore/games/<game>/schemas/<kind>.json``); ``cardcore schema GAME KIND`` prints it. The
files are generated from ``build`` below by ``python -m cardcore.schemas`` and a test checks
that the shipped files match it, so the schemas and the code cannot drift apart. ``build``
puts together what every game shares (here) and what each game declares
(``Game.schema_parts``, the event kinds of its narrator, its rule-ID prefix). Objects are
closed (``additionalProperties: false``): a key a schema does not list is a bug, on either
side.
"""
from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

from cardcore.errors import ConfigError, echo
from cardcore.game import Game
from cardcore.registry import available_games, game_class
from cardcore.records import ENDINGS, MAX_CLIENT_SEED, RECORD_FORMAT, SCHEME
from cardcore.saves import SAVE_FORMAT
from cardcore.schema_parts import (
    BOOL, CARDS, INT, NAT, STR, Schema, array, closed_object, nullable, seat_schema,
)

__all__ = ["KINDS", "schema", "build", "write_all"]

KINDS = ("view", "action", "event", "save", "record")
DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _view(cls: type[Game]) -> Schema:
    seat = seat_schema(cls.max_players)
    props: dict[str, Schema] = {
        "game": {"const": cls.name}, "player": seat, "current_player": nullable(seat),
        "phase": {"enum": list(cls.phases)}, "hand": CARDS,
        "hand_sizes": {"type": "array", "items": NAT, "minItems": cls.min_players,
                       "maxItems": cls.max_players},
        "scores": {"type": "array", "items": INT, "minItems": cls.min_players,
                   "maxItems": cls.max_players},
        "legal_actions": array(STR),
    }
    props.update(cls.schema_parts.view(seat, cls.max_players))
    return props


def _action(cls: type[Game], kinds: list[str]) -> Schema:
    props: dict[str, Schema] = {
        "id": NAT, "player": {"type": "integer", "minimum": -1,
                              "maximum": cls.max_players - 1},
        "kind": {"enum": kinds}, "cards": CARDS, "label": STR,
    }
    props.update(cls.schema_parts.action_info)
    return closed_object(props, required=["id", "player", "kind", "cards", "label"])


def _breakdown(cls: type[Game]) -> Schema:
    component = closed_object({
        "seat": NAT, "team": NAT, "what": STR, "text": STR, "count": NAT, "points": INT,
        "rule": {"type": "string", "pattern": f"^{cls.rule_prefix}-"}},
        required=["what", "text", "points", "rule"])
    return closed_object({"by": {"enum": ["seat", "team"]}, "components": array(component),
                          "totals": array(INT)})


def _event(cls: type[Game], action_kinds: list[str]) -> Schema:
    automatic = list(cls.narrator.kinds)
    props: dict[str, Schema] = {
        "n": NAT, "kind": {"enum": automatic + [k for k in action_kinds if k not in automatic]},
        "player": nullable(seat_schema(cls.max_players)), "cards": CARDS,
        "hidden": {"type": "integer", "minimum": 1}, "auto": {"const": True},
        "id": nullable(NAT), "action": STR, "rule": STR, "breakdown": _breakdown(cls),
        "scores": array(INT), "winners": array(NAT),
        cls.round_name: NAT,
        # The words (Game.events(lang=)): the sentence; a round or match end's reason.
        "text": STR, "reason": STR, "reason_code": {"enum": sorted(cls.reasons)},
        "reason_seat": NAT,
    }
    props.update(cls.schema_parts.event_fields)
    return closed_object(props, required=["n", "kind", "player", "cards", "text"])


# -------------------------------------------------------------------------------- saves
def _option_schema(value: Any) -> Schema:
    if value is None or isinstance(value, int) and not isinstance(value, bool):
        return {"type": ["integer", "null"]}
    if isinstance(value, bool):
        return BOOL
    return STR


def _save(cls: type[Game], num_actions: int) -> Schema:
    options = {key: _option_schema(opt.default) for key, opt in cls.options_spec.items()}
    props: dict[str, Schema] = {
        "format": {"const": SAVE_FORMAT}, "cardcore": STR, "game": {"const": cls.name},
        "players": {"type": "integer", "minimum": cls.min_players,
                    "maximum": cls.max_players},
        "seed": NAT, "deck": nullable(CARDS),
        "options": closed_object(options),
        "actions": {"type": "array", "items": {"type": "integer", "minimum": 0,
                                                "maximum": num_actions - 1}},
        "rng": array(NAT, 2),
        "digest": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
        "hmac": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
    }
    return closed_object(props, required=[k for k in props if k != "hmac"])


def _record(cls: type[Game], save: Schema) -> Schema:
    """A match record of the table server (records.py): the save, the revealed seeds."""
    hexes = {n: {"type": "string", "pattern": f"^[0-9a-f]{{{n}}}$"} for n in (32, 64)}
    seat = seat_schema(cls.max_players)
    fairness = closed_object({
        "scheme": {"const": SCHEME}, "commitment": hexes[64], "server_seed": hexes[64],
        "nonce": hexes[32],
        "client_seed": nullable({"type": "string", "pattern": "^[ -~]+$",
                                 "maxLength": MAX_CLIENT_SEED})})
    timeout = closed_object({"seat": seat, "move": NAT, "by": STR})
    props: dict[str, Schema] = {
        "record": {"const": RECORD_FORMAT}, "cardcore": STR, "table": STR,
        "game": {"const": cls.name}, "ended": {"enum": list(ENDINGS)},
        "forfeit": nullable(seat), "timeouts": array(timeout),
        "fairness": nullable(fairness), "save": save,
        "digest": hexes[64], "hmac": hexes[64],
    }
    return closed_object(props, required=[k for k in props if k != "hmac"])


def _check_kind(kind: Any) -> None:
    if kind not in KINDS:
        raise ConfigError(f"unknown schema kind {echo(kind)}; kinds: {', '.join(KINDS)}",
                          "kind")


def build(name: str, kind: str) -> Schema:
    """The schema of ``kind`` ("view", "action", "event", "save" or "record") for game
    ``name``."""
    cls = game_class(name)
    _check_kind(kind)
    probe = cls(seed=0)
    specs = probe._specs
    action_kinds = sorted({spec.kind for spec in specs})
    title = f"cardcore {name} {kind}"
    if kind == "view":
        body = closed_object(_view(cls))
    elif kind == "action":
        body = _action(cls, action_kinds)
    elif kind == "event":
        body = _event(cls, action_kinds)
    else:
        # Saves of every configuration: an option may widen the action space, and the
        # conformance configurations cover every option value.
        widest = max([len(specs)] + [cls(seed=0, **config).num_distinct_actions
                                     for config in cls.conformance_configs])
        body = _save(cls, widest)
        if kind == "record":
            body = _record(cls, body)
    return {"$schema": DIALECT, "$id": f"https://cardcore.dev/schemas/{name}.{kind}.json",
            "title": title, **body}


def schema(game: str, kind: str) -> Schema:
    """The shipped JSON Schema of ``kind`` ("view", "action", "event", "save", "record") for
    ``game``;
    ConfigError for an unknown game or kind."""
    cls = game_class(game)
    _check_kind(kind)
    text = resources.files(cls.__module__).joinpath("schemas").joinpath(f"{kind}.json").read_text(
        encoding="utf-8")
    loaded: Schema = json.loads(text)
    return loaded


def write_all() -> list[str]:
    """Regenerate every shipped schema file, each in its game's package; returns the paths."""
    written = []
    for game in available_games():
        cls = game_class(game)
        module = __import__(cls.__module__, fromlist=["__file__"])
        folder = Path(module.__file__ or "").parent / "schemas"
        folder.mkdir(exist_ok=True)
        for kind in KINDS:
            path = folder / f"{kind}.json"
            path.write_text(json.dumps(build(game, kind), indent=1, sort_keys=True) + "\n",
                            encoding="utf-8")
            written.append(str(path))
    return written
