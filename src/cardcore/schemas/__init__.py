"""JSON Schemas (draft 2020-12) of every game's view, action, event, save and match record.

``cardcore.schema(game, kind)`` returns the schema shipped in the game's package
(``cardcore/games/<game>/schemas/<kind>.json``); ``cardcore schema GAME KIND`` prints it. The
files are generated from ``build`` below by ``python -m cardcore.schemas`` and a test checks
that the shipped files match it, so the schemas and the code cannot drift apart. ``build``
puts together what every game shares (here) and what each game declares
(``Game.schema_parts``, the event kinds of its narrator, its rule-ID prefix). Objects are
closed (``additionalProperties: false``): a key a schema does not list is a bug, on either
side. Actions and events are unions discriminated by ``kind`` (``oneOf`` one closed object
per kind, its fields required); every property has a description; the shapes every game
shares (``Move``, ``ZoneContents``, ``Zone``, ``ZoneSlots``) are ``$defs`` (docs/api.md, "JSON Schemas").
"""
from __future__ import annotations

import json
from dataclasses import replace
from importlib import resources
from pathlib import Path
from typing import Any

from cardcore.errors import ConfigError, echo
from cardcore.game import Game
from cardcore.registry import available_games, game_class
from cardcore.match_record import RECORD_SCHEMA, SERVER_FIELDS
from cardcore.records import ENDINGS, MAX_CLIENT_SEED, READ_FORMATS, RECORD_FORMAT, SCHEME
from cardcore.saves import CHOSEN_CARDS_FORMAT, SAVE_FORMAT
from cardcore.schema_parts import (
    BOOL, CARDS, DEFS, INT, NAT, STR, Kind, Schema, array, closed_object, described, nullable,
    ref, seat_schema,
)

__all__ = ["KINDS", "schema", "build", "write_all"]

KINDS = ("view", "action", "event", "save", "record")
DESCRIPTIONS = {
    "view": "what one seat of {game} may know (Game.view; the spectator's: the server's "
            "public view)",
    "action": "a legal move of {game} (Action.to_dict)",
    "event": "one event of {game} as one reader saw it (Game.events)",
    "save": "a saved game of {game} (Game.to_json; load_game replays it)",
    "record": "a match record of {game} published by cardcore serve (cardcore.verify "
              "checks it): from format 2 a cardcore-record with the actual cards",
}
DIALECT = "https://json-schema.org/draft/2020-12/schema"


def _required(props: dict[str, Schema], optional: set[str]) -> list[str]:
    """Every property but the optional ones."""
    return [k for k in props if k not in optional]


def _view(cls: type[Game]) -> Schema:
    seat = seat_schema(cls.max_players)
    props: dict[str, Schema] = {
        "game": described({"const": cls.name}, "the game's name"),
        "player": described(nullable(seat), "the seat this view is for; null in the "
                            "spectator's view"),
        "current_player": described(nullable(seat), "the seat to move; null when nobody is "
                                    "(the match is over)"),
        "phase": described({"enum": list(cls.phases)}, "the phase of the turn (the "
                           "rulebook's turn structure)"),
        "hand": described(nullable(CARDS), "this seat's hand, sorted; null in the "
                          "spectator's view"),
        "hand_sizes": described({"type": "array", "items": NAT, "minItems": cls.min_players,
                                 "maxItems": cls.max_players},
                                "how many cards each seat holds, by seat"),
        "scores": described({"type": "array", "items": INT, "minItems": cls.min_players,
                             "maxItems": cls.max_players},
                            f"each seat's match score so far, by seat ({cls.score_direction})"),
        "legal_actions": described(array(STR), "the notations of this seat's legal moves "
                                   "(Game.apply accepts them); empty unless it is its turn"),
    }
    props.update(cls.schema_parts.view(seat, cls.max_players))
    props["zones"] = ref("ZoneContents", "every zone of the table as this seat may know it: "
                         "the cards it may see, a count for the others (docs/api.md, "
                         "\"UI contract\")")
    if cls.zone_layouts:
        props["slots"] = ref("ZoneSlots", "the slots of the zones laid out in pairs: each "
                             "card with the card covering it, the open ones marked")
    return closed_object(props, required=_required(props, set()))


def _checked_kinds(cls: type[Game], declared: dict[str, Kind], kinds: list[str], what: str
                   ) -> None:
    missing = [k for k in kinds if k not in declared]
    extra = [k for k in declared if k not in kinds]
    if missing or extra:
        raise ConfigError(f"{cls.name}: the {what} kinds of its schema parts do not match the "
                          f"game's (missing {missing}, unknown {extra})", "schema_parts")


def _fields(cls: type[Game], kind: str, spec: Kind, vocabulary: dict[str, Schema]
            ) -> tuple[dict[str, Schema], set[str]]:
    """A kind's own fields (schemas) and the names of those that are optional."""
    props: dict[str, Schema] = {}
    for name in spec.fields + spec.optional:
        schema = spec.own.get(name, vocabulary.get(name))
        if schema is None:
            raise ConfigError(f"{cls.name}: kind {kind} names a field {name!r} that no "
                              f"vocabulary describes", "schema_parts")
        props[name] = schema
    return props, set(spec.optional)


def _member(title: str, doc: str, kind: str, head: dict[str, Schema], own: dict[str, Schema],
            tail: dict[str, Schema], optional: set[str]) -> Schema:
    """One kind's closed object of a union: its ``kind``, ``head``, the kind's own fields,
    then ``tail``; every field required but ``optional``."""
    # ``kind`` first: a validator that reads the keywords in order (jsonschema does) turns
    # the other kinds' members down at their first property (a union of 20 kinds costs 20
    # lookups of kind, not 20 objects checked field by field).
    props = {"kind": described({"const": kind}, f"{kind}: {doc}" if doc else kind),
             **head, **own, **tail}
    return {"title": title, "description": doc, **closed_object(props, _required(props, optional))}


def _action(cls: type[Game], kinds: list[str]) -> Schema:
    parts = cls.schema_parts
    _checked_kinds(cls, parts.action_kinds, kinds, "action")
    members = []
    for kind in kinds:
        spec = parts.action_kinds[kind]
        own, optional = _fields(cls, kind, spec, parts.action_info)
        head: dict[str, Schema] = {
            "id": described(NAT, "the action's id: the same meaning has the same id in a "
                            "configuration (Game.apply accepts it)"),
            "player": described({"type": "integer", "minimum": -1,
                                 "maximum": cls.max_players - 1},
                                "the seat the action is for (-1 when built for a finished "
                                "game)"),
            "cards": described(CARDS, spec.cards or "the cards the action moves that the "
                               "acting seat can see"),
            "label": described(STR, "its notation, as people read it; Game.apply accepts it"),
        }
        tail = {"moves": described(array(ref("Move")), "the cards the action will move, from "
                                   "zone to zone, as far as the acting seat can know them")}
        members.append(_member(f"{cls.name} {kind} action", spec.doc, kind, head, own, tail,
                               optional))
    return {"description": f"a legal move of {cls.title}: one object per kind, told apart "
                           f"by kind", "oneOf": members}


def _breakdown(cls: type[Game]) -> Schema:
    component = closed_object({
        "seat": described(NAT, "the seat that earned the row"),
        "team": described(NAT, "the team the row counts for (where partners score "
                          "together)"),
        "what": described(STR, "what the row counts, in English words (0.3; text is the "
                          "reader's language)"),
        "text": described(STR, "the row in the reader's language, its count in words"),
        "count": described(NAT, "how many cards or items the row counts (rows that count)"),
        "points": described(INT, "the row's points (negative: a penalty)"),
        "rule": described({"type": "string", "pattern": f"^{cls.rule_prefix}-"},
                          "the rule ID of the rulebook that scores it")},
        required=["what", "text", "points", "rule"])        # count: when the row counts
    return closed_object({
        "by": described({"enum": ["seat", "team"]}, "whether rows and totals are by seat or "
                        "by team (partners scoring together)"),
        "components": described(array(component), "the rows the game's scoring wrote when "
                                "the round ended, in its order"),
        "totals": described(array(INT), "each seat's or team's points for the round: the "
                            "rows' sums, the engine's figures")})


def _shared_event_fields(cls: type[Game]) -> dict[str, Schema]:
    """Fields any game's event kinds may name besides their own vocabulary."""
    seat = seat_schema(cls.max_players)
    per_seat = {"type": "array", "items": INT, "minItems": cls.min_players,
                "maxItems": cls.max_players}
    return {
        "rule": described({"type": "string", "pattern": f"^{cls.rule_prefix}-"},
                          "the rule ID of the rulebook that made it happen"),
        "breakdown": described(_breakdown(cls), "the scoring of the round that ended "
                               "(docs/api.md, Events)"),
        "scores": described(per_seat, f"each seat's match score after it, by seat "
                            f"({cls.score_direction})"),
        "winners": described(array(seat), "the seats that won the match (more than one: "
                             "partners or a tie)"),
        cls.round_name: described({"type": "integer", "minimum": 1},
                                  f"the number of the {cls.round_name}, from 1"),
        "reason": described(STR, f"why the {cls.round_name} or the match ended, in words, "
                            "in the reader's language"),
        "reason_code": described({"enum": sorted(cls.reasons)}, "why it ended, as a stable "
                                 "code a program may switch on (Game.reasons)"),
        "reason_seat": described(NAT, "the seat the reason names (who went out, who took)"),
    }


def _event(cls: type[Game], action_kinds: list[str]) -> Schema:
    parts = cls.schema_parts
    automatic = list(cls.narrator.kinds)
    both = [k for k in automatic if k in action_kinds]
    if both:
        raise ConfigError(f"{cls.name}: kinds both automatic and actions: {both}",
                          "schema_parts")
    kinds = automatic + action_kinds
    _checked_kinds(cls, parts.event_kinds, kinds, "event")
    vocabulary = {**_shared_event_fields(cls), **parts.event_fields}
    members = []
    ends = (cls.round_end_event, "match_end")
    for kind in kinds:
        spec = parts.event_kinds[kind]
        if kind in ends:          # every round and match end says why (docs/api.md)
            named = spec.fields + spec.optional
            spec = replace(spec, fields=spec.fields + tuple(
                f for f in ("reason", "reason_code", "rule") if f not in named),
                optional=spec.optional + (() if "reason_seat" in named else ("reason_seat",)))
        own, optional = _fields(cls, kind, spec, vocabulary)
        doc = spec.doc or cls.narrator.kinds.get(kind, "")
        head: dict[str, Schema] = {
            "n": described(NAT, "the event's index in the whole stream (the same for every "
                           "seat)"),
            "player": described(nullable(seat_schema(cls.max_players)),
                                "the seat it concerns, or null"),
            "cards": described(CARDS, spec.cards or "the cards this reader may see (card "
                               "notations)"),
            "hidden": described({"type": "integer", "minimum": 1},
                                "how many cards were left out of cards because this reader "
                                "may not see them"),
        }
        optional.add("hidden")
        if kind in automatic:
            head["auto"] = described({"const": True}, "an automatic happening, not a move")
        else:
            head["id"] = described(nullable(NAT), "the action's id; null for a reader who "
                                   "may not see the cards its notation names")
            head["action"] = described(STR, "the action's notation; its kind alone for a "
                                       "reader who may not see the cards it names")
        tail = {
            "text": described(STR, "the event as one sentence from this reader's point of "
                              "view, in the language asked"),
            "moves": described(array(ref("Move")), "the cards it moved from zone to zone, "
                               "named where this reader may see them, else counted"),
            "new_zones": described(array(ref("Zone")), "the zones this event's moves first "
                                   "fill (a meld laid down), announced before their cards "
                                   "arrive"),
        }
        optional.add("new_zones")
        members.append(_member(f"{cls.name} {kind} event", doc, kind, head, own, tail,
                               optional))
    return {"description": f"what happened in {cls.title}, as one reader saw it: one object "
                           f"per kind, told apart by kind", "oneOf": members}


def _uses(node: Any, found: set[str]) -> set[str]:
    """The names of the shared definitions ``node`` refers to."""
    if isinstance(node, dict):
        target = node.get("$ref")
        if isinstance(target, str) and target.startswith("#/$defs/"):
            name = target.rsplit("/", 1)[1]
            if name not in found:
                found.add(name)
                _uses(DEFS[name], found)
        for value in node.values():
            _uses(value, found)
    elif isinstance(node, list):
        for value in node:
            _uses(value, found)
    return found


# -------------------------------------------------------------------------------- saves
def _option_schema(value: Any) -> Schema:
    if value is None or isinstance(value, int) and not isinstance(value, bool):
        return {"type": ["integer", "null"]}
    if isinstance(value, bool):
        return BOOL
    return STR


def _save(cls: type[Game], num_actions: int) -> Schema:
    options = {key: described(_option_schema(opt.default), opt.doc or f"the option {key}")
               for key, opt in cls.options_spec.items()}
    hex64 = {"type": "string", "pattern": "^[0-9a-f]{64}$"}
    props: dict[str, Schema] = {
        "format": described({"enum": [SAVE_FORMAT, CHOSEN_CARDS_FORMAT]}, "the save format "
                            "(docs/api.md, Saves): 3 when it records exact cards"),
        "cardcore": described(STR, "the version of cardcore that wrote it"),
        "game": described({"const": cls.name}, "the game's name"),
        "players": described({"type": "integer", "minimum": cls.min_players,
                              "maximum": cls.max_players}, "the number of seats"),
        "seed": described(NAT, "the seed that deals every round"),
        "deck": described(nullable(CARDS), "the stacked deck the game was made with, or "
                          "null (dealt from the seed)"),
        "options": described(closed_object(options), "the game's options, every one "
                             "resolved"),
        "actions": described({"type": "array", "items": {"type": "integer", "minimum": 0,
                                                          "maximum": num_actions - 1}},
                             "the action log: every action id applied, in order"),
        "rng": described(array(NAT, 2), "the random generator's state after the log"),
        "cards": described({"type": "object", "patternProperties": {
            "^[0-9]+$": {"type": "string", "pattern": "^[0-9AJQKCDHS ]+$"}},
            "additionalProperties": False}, "format 3: the exact cards of the actions applied "
            "with cards=, by log index (docs/api.md, Exact cards)"),
        "digest": described(hex64, "SHA-256 of the canonical JSON of the rest"),
        "hmac": described(hex64, "with a key, HMAC-SHA256 of the same bytes"),
    }
    return closed_object(props, required=[k for k in props if k not in ("hmac", "cards")])


def _record(cls: type[Game], save: Schema) -> Schema:
    """A match record of the table server (records.py): the save, the revealed seeds."""
    hexes = {n: {"type": "string", "pattern": f"^[0-9a-f]{{{n}}}$"} for n in (32, 64)}
    seat = seat_schema(cls.max_players)
    fairness = closed_object({
        "scheme": described({"const": SCHEME}, "the fairness scheme (docs/server.md, Fair "
                            "deals)"),
        "commitment": described(hexes[64], "SHA-256(server_seed || nonce), published when "
                                "the table was created"),
        "server_seed": described(hexes[64], "the server's secret seed, revealed"),
        "nonce": described(hexes[32], "the server's nonce, revealed"),
        "client_seed": described(nullable({"type": "string", "pattern": "^[ -~]+$",
                                           "maxLength": MAX_CLIENT_SEED}),
                                 "the creator's seed mixed into the deal, or null")})
    timeout = closed_object({
        "seat": described(seat, "the seat whose clock ran out"),
        "move": described(NAT, "the index of the move made for it in the action log"),
        "by": described(STR, "who moved for it: a bot spec (level:N) or forfeit")})
    props: dict[str, Schema] = {
        "record": described({"enum": list(READ_FORMATS)}, f"the record format: "
                            f"{RECORD_FORMAT} (cardcore 0.5: with the cards) or 1 (0.4)"),
        "cardcore": described(STR, "the version of cardcore that wrote it"),
        "table": described(STR, "the table's id"),
        "game": described({"const": cls.name}, "the game's name"),
        "ended": described({"enum": list(ENDINGS)}, "over (by the rules) or forfeit (a "
                           "seat's clock ran out)"),
        "forfeit": described(nullable(seat), "the seat that forfeited, or null"),
        "timeouts": described(array(timeout), "the moves a turn clock made"),
        "fairness": described(nullable(fairness), "the seed material the table committed "
                              "to, revealed; null where the creator chose the seed"),
        "save": described(save, "the save of the match (the game's save schema)"),
        "digest": described(hexes[64], "SHA-256 of the canonical JSON of the rest"),
        "key_id": described({"type": "string", "pattern": "^[0-9a-f]{12}$"},
                            "with the server's key: which key signed it (the first 12 hex "
                            "digits of the key's SHA-256; cardcore 0.5)"),
        "hmac": described(hexes[64], "with the server's key, HMAC-SHA256 of the same bytes"),
    }
    required = [k for k in props if k not in ("hmac", "key_id")]
    # Format 2: a cardcore-record (cardcore.match_record) besides: its fields, required then.
    cards = {k: v for k, v in RECORD_SCHEMA["properties"].items()
             if k not in SERVER_FIELDS and k not in props}
    out = closed_object({**props, **cards}, required=required)
    out["if"] = {"properties": {"record": described({"const": RECORD_FORMAT}, "format 2")}}
    out["then"] = {"required": [k for k in RECORD_SCHEMA["required"] if k not in props]}
    return out


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
        body = _view(cls)
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
    out: Schema = {"$schema": DIALECT,
                   "$id": f"https://cardcore.dev/schemas/{name}.{kind}.json", "title": title,
                   "description": DESCRIPTIONS[kind].format(game=cls.title), **body}
    used = sorted(_uses(body, set()))
    if used:
        out["$defs"] = {n: DEFS[n] for n in used}
    return out


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
            # In the order built (not sorted): each union member's kind comes first.
            path.write_text(json.dumps(build(game, kind), indent=1) + "\n", encoding="utf-8")
            written.append(str(path))
    return written
