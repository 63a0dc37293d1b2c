"""JSON Schemas (draft 2020-12) of every game's view, action, event and save.

``cardcore.schema(game, kind)`` returns the schema shipped in this package
(``cardcore/schemas/<game>.<kind>.json``); ``cardcore schema GAME KIND`` prints it. The files
are generated from ``build`` below by ``python -m cardcore.schemas`` and a test checks that the
shipped files match it, so the schemas and the code cannot drift apart. Objects are closed
(``additionalProperties: false``): a key a schema does not list is a bug, on either side.
"""
from __future__ import annotations

import json
from importlib import resources
from typing import Any

from cardcore.cards import RANKS, SUITS
from cardcore.errors import ConfigError, echo

__all__ = ["KINDS", "schema", "build", "write_all"]

KINDS = ("view", "action", "event", "save")
DIALECT = "https://json-schema.org/draft/2020-12/schema"

Schema = dict[str, Any]

CARD: Schema = {"enum": [r + s for s in SUITS for r in RANKS] + ["JK"]}
CARDS: Schema = {"type": "array", "items": CARD}
INT: Schema = {"type": "integer"}
NAT: Schema = {"type": "integer", "minimum": 0}
STR: Schema = {"type": "string"}
BOOL: Schema = {"type": "boolean"}
RANK: Schema = {"enum": list(RANKS)}


def _nullable(s: Schema) -> Schema:
    return {"anyOf": [s, {"type": "null"}]}


def _array(items: Schema, n: int | None = None) -> Schema:
    out: Schema = {"type": "array", "items": items}
    if n is not None:
        out.update(minItems=n, maxItems=n)
    return out


def _object(props: dict[str, Schema], required: list[str] | None = None) -> Schema:
    return {"type": "object", "properties": props,
            "required": list(props) if required is None else required,
            "additionalProperties": False}


def _seat(players: int) -> Schema:
    return {"type": "integer", "minimum": 0, "maximum": players - 1}


# ------------------------------------------------------------------------------- views
def _view_extra(name: str, seat: Schema, nmax: int) -> dict[str, Schema]:
    per_seat = {"type": "array", "items": NAT, "maxItems": nmax}
    if name == "kings_stakes":
        return {
            "table": CARDS, "stake": NAT, "direction": {"enum": [1, -1]},
            "penalty_counts": per_seat, "stock_size": NAT, "discard": CARDS,
            "chip_holder": _nullable(seat), "round": NAT, "rounds": NAT,
            "round_first_player": seat, "out_player": _nullable(seat),
            "final_turns_owed": _array(seat),
            "last_play": _nullable(_object({"player": seat, "action": STR})),
            "teams": _nullable(_array(_array(seat, 2), 2)),
        }
    if name == "kuzanasta":
        set_value = _object({"set": STR, "value": NAT})
        last_deal = _object({
            "end": {"enum": ["went_out", "no_draw", "max_turns"]}, "winner": _nullable(seat),
            "wild_rank": _nullable(RANK), "sets": _array(set_value, 2), "hand": CARDS,
            "hand_points": NAT, "turn_up_doubled": BOOL, "god_doubled": BOOL, "total": NAT,
            "pot": INT}, required=["end", "winner", "wild_rank"])
        return {
            "wild_rank": _nullable(RANK), "turn_up": CARD,
            "discards": {"type": "array", "items": CARDS, "minItems": 1, "maxItems": 2},
            "my_pile": {"enum": [0, 1]}, "pile_of": _array({"enum": [0, 1]}),
            "stock_sizes": {"type": "array", "items": NAT, "minItems": 1, "maxItems": 2},
            "dealer": seat, "first_player": seat, "deal": NAT,
            "turns_in_deal": NAT, "god_holder": _nullable(seat), "chips": _array(INT),
            "pot": INT,
            "best_sets": _nullable(_object({"sets": _array(STR, 2), "value": NAT})),
            "last_deal": _nullable(last_deal),
        }
    if name == "manna":
        ctype = {"enum": ["natural", "mixed", "wild", "sevens"]}
        meld = _object({"rank": {"enum": list(RANKS) + ["wild"]}, "cards": CARDS,
                        "complete": BOOL, "type": _nullable(ctype)})
        return {
            "team": {"enum": [0, 1]}, "melds": _array(_array(meld), 2),
            "red_threes": _array(_array({"enum": ["3D", "3H"]}), 2), "discard": CARDS,
            "frozen": BOOL, "stock_size": NAT, "foot_sizes": _array(NAT, 6),
            "min_meld": _array(NAT, 2), "opened": _array(BOOL, 2),
            "canasta_types": _array(_array(ctype), 2), "dealer": seat, "hand_number": NAT,
            "turn_points": NAT, "last_hand_scores": _array(INT, 2),
        }
    raise ConfigError(f"no schema for game {echo(name)}", "game")


def _view(cls: Any) -> Schema:
    seat = _seat(cls.max_players)
    props: dict[str, Schema] = {
        "game": {"const": cls.name}, "player": seat, "current_player": _nullable(seat),
        "phase": {"enum": list(cls.phases)}, "hand": CARDS,
        "hand_sizes": {"type": "array", "items": NAT, "minItems": cls.min_players,
                       "maxItems": cls.max_players},
        "scores": {"type": "array", "items": INT, "minItems": cls.min_players,
                   "maxItems": cls.max_players},
        "legal_actions": _array(STR),
    }
    props.update(_view_extra(cls.name, seat, cls.max_players))
    return props


# ------------------------------------------------------------------------------ actions
ACTION_INFO: dict[str, dict[str, Schema]] = {
    "kings_stakes": {"effect": {"enum": ["number", "jack", "queen", "king", "king_queen",
                                         "queen_jack", "four_kings"]},
                     "amount": NAT, "jokers_as": _array({"type": ["string", "integer"]})},
    "kuzanasta": {"sets": _array(STR, 2), "descriptors": _array(NAT, 2), "best": BOOL,
                  "pile": {"enum": [0, 1]}, "depth": NAT},
    "manna": {"with": {"enum": ["add", "pair", "natural+two", "natural+joker"]},
              "ways": STR, "melded": CARDS, "from_hand": CARDS,
              "group": {"enum": list(RANKS) + ["wild", "black3"]}, "new": BOOL,
              "naturals": NAT, "twos": NAT, "jokers": NAT, "compact": STR},
}


def _action(cls: Any, kinds: list[str]) -> Schema:
    props: dict[str, Schema] = {
        "id": NAT, "player": {"type": "integer", "minimum": -1,
                              "maximum": cls.max_players - 1},
        "kind": {"enum": kinds}, "cards": CARDS, "label": STR,
    }
    props.update(ACTION_INFO[cls.name])
    return _object(props, required=["id", "player", "kind", "cards", "label"])


# ------------------------------------------------------------------------------- events
BREAKDOWN_COMPONENT: Schema = _object({
    "seat": NAT, "team": {"enum": [0, 1]}, "what": STR, "count": NAT, "points": INT,
    "rule": {"type": "string", "pattern": "^(KS|KZ|MH)-"}},
    required=["what", "points", "rule"])
BREAKDOWN: Schema = _object({"by": {"enum": ["seat", "team"]},
                             "components": _array(BREAKDOWN_COMPONENT),
                             "totals": _array(INT)})

EVENT_FIELDS: dict[str, dict[str, Schema]] = {
    "kings_stakes": {"round": NAT, "first_player": NAT, "stock_size": NAT, "stake": NAT,
                     "direction": {"enum": [1, -1]},
                     "score_direction": {"const": "lower is better"},
                     "final_turns_owed": _array(NAT), "round_points": _array(INT),
                     "teams": _array(_object({"seats": _array(NAT, 2), "points": INT,
                                              "rule": STR})),
                     "hands_left": _array(NAT)},
    "kuzanasta": {"deal": NAT, "dealer": NAT, "first_player": NAT, "pot": INT,
                  "chips": _array(INT), "wild_rank": _nullable(RANK), "pile": {"enum": [0, 1]},
                  "stock_size": NAT, "reshuffled": BOOL,
                  "end": {"enum": ["went_out", "no_draw", "max_turns"]},
                  "winner": _nullable(NAT), "pot_won": INT,
                  "score_direction": {"const": "higher is better"}},
    "manna": {"hand": NAT, "dealer": NAT, "first_player": NAT,
              "min_meld": {"anyOf": [NAT, _array(NAT, 2)]}, "frozen": BOOL,
              "team": {"enum": [0, 1]}, "replaced": BOOL, "stock_size": NAT,
              "melded": CARDS, "from_hand": CARDS, "turn_points": NAT, "opened": BOOL,
              "rank": {"enum": list(RANKS) + ["wild"]},
              "type": {"enum": ["natural", "mixed", "wild", "sevens"]},
              "went_out": _nullable(NAT), "hand_scores": _array(INT, 2),
              "team_scores": _array(INT, 2), "score_direction": {"const": "higher is better"}},
}
EVENT_KINDS: dict[str, list[str]] = {
    "kings_stakes": ["deal", "dealt", "draw", "table_cleared", "chip", "out", "round_end",
                     "match_end"],
    "kuzanasta": ["deal", "turn_up", "dealt", "pile_start", "set_aside", "recycle",
                  "pile_dead", "deal_end", "match_end"],
    "manna": ["deal", "dealt", "foot_dealt", "first_discard", "red_three", "canasta", "foot",
              "hand_end", "match_end"],
}


def _event(cls: Any, action_kinds: list[str]) -> Schema:
    props: dict[str, Schema] = {
        "n": NAT, "kind": {"enum": EVENT_KINDS[cls.name] + action_kinds},
        "player": _nullable(_seat(cls.max_players)), "cards": CARDS,
        "hidden": {"type": "integer", "minimum": 1}, "auto": {"const": True},
        "id": _nullable(NAT), "action": STR, "rule": STR, "breakdown": BREAKDOWN,
        "scores": _array(INT), "winners": _array(NAT),
    }
    props.update(EVENT_FIELDS[cls.name])
    return _object(props, required=["n", "kind", "player", "cards"])


# -------------------------------------------------------------------------------- saves
def _option_schema(value: Any) -> Schema:
    if value is None or isinstance(value, int) and not isinstance(value, bool):
        return {"type": ["integer", "null"]}
    if isinstance(value, bool):
        return BOOL
    return STR


def _save(cls: Any, num_actions: int) -> Schema:
    from cardcore.saves import SAVE_FORMAT
    options = {key: _option_schema(opt.default) for key, opt in cls.options_spec.items()}
    props: dict[str, Schema] = {
        "format": {"const": SAVE_FORMAT}, "cardcore": STR, "game": {"const": cls.name},
        "players": {"type": "integer", "minimum": cls.min_players,
                    "maximum": cls.max_players},
        "seed": NAT, "deck": _nullable(CARDS),
        "options": _object(options),
        "actions": {"type": "array", "items": {"type": "integer", "minimum": 0,
                                                "maximum": num_actions - 1}},
        "rng": _array(NAT, 2),
        "digest": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
        "hmac": {"type": "string", "pattern": "^[0-9a-f]{64}$"},
    }
    return _object(props, required=[k for k in props if k != "hmac"])


def build(name: str, kind: str) -> Schema:
    """The schema of ``kind`` ("view", "action", "event" or "save") for game ``name``."""
    from cardcore.game import game_class
    cls = game_class(name)
    if kind not in KINDS:
        raise ConfigError(f"unknown schema kind {echo(kind)}; kinds: {', '.join(KINDS)}",
                          "kind")
    probe = cls(seed=0)
    specs = probe._specs
    action_kinds = sorted({spec.kind for spec in specs})
    title = f"cardcore {name} {kind}"
    if kind == "view":
        body = _object(_view(cls))
    elif kind == "action":
        body = _action(cls, action_kinds)
    elif kind == "event":
        body = _event(cls, action_kinds)
    else:
        # Saves of every configuration: an option may widen the action space (Kuzanasta's
        # god_draw="position"), and the conformance configurations cover every option value.
        widest = max([len(specs)] + [cls(seed=0, **config).num_distinct_actions
                                     for config in cls.conformance_configs])
        body = _save(cls, widest)
    return {"$schema": DIALECT, "$id": f"https://cardcore.dev/schemas/{name}.{kind}.json",
            "title": title, **body}


def schema(game: str, kind: str) -> Schema:
    """The shipped JSON Schema of ``kind`` ("view", "action", "event", "save") for ``game``;
    ConfigError for an unknown game or kind."""
    from cardcore.game import game_class
    name = game_class(game).name
    if kind not in KINDS:
        raise ConfigError(f"unknown schema kind {echo(kind)}; kinds: {', '.join(KINDS)}",
                          "kind")
    text = resources.files("cardcore.schemas").joinpath(f"{name}.{kind}.json").read_text(
        encoding="utf-8")
    loaded: Schema = json.loads(text)
    return loaded


def write_all(directory: str) -> list[str]:
    """Regenerate every shipped schema file into ``directory``; returns the file names."""
    import os
    from cardcore.game import available_games
    names = []
    for game in available_games():
        for kind in KINDS:
            path = os.path.join(directory, f"{game}.{kind}.json")
            with open(path, "w", encoding="utf-8") as f:
                f.write(json.dumps(build(game, kind), indent=1, sort_keys=True) + "\n")
            names.append(os.path.basename(path))
    return names
