"""The vocabulary of cardcore's JSON Schemas (draft 2020-12), for the games' own parts.

A game declares the parts of its schemas that only it knows (``Game.schema_parts``, a
``SchemaParts``): the keys its view adds, the fields its actions and events carry, and which
of them each kind of action and event carries (``Kind``). ``cardcore.schemas`` puts them
together with what every game shares: actions and events become unions discriminated by
``kind`` (one closed object per kind, its fields required). Objects are closed
(``additionalProperties: false``): a key a schema does not list is a bug, on either side.
Every property has a ``description`` (a test walks the schemas): ``described`` attaches one.

The pieces of the UI contract (docs/api.md, "UI contract": zones, moves, texts) are here too,
as named definitions (``DEFS``) that the schemas refer to (``ref``) and the TypeScript client
generates once (``Move``, ``ZoneContents``, ``Zone``; and ``Card``, which the schemas write out).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from cardcore.cards import RANKS, SUITS

__all__ = ["Schema", "SchemaParts", "Kind", "CARD", "CARD_NAMES", "CARDS", "INT", "NAT", "STR",
           "BOOL", "RANK", "ZONE_ID", "MOVE", "ZONE_CONTENTS", "ZONE", "ZONE_SLOTS", "DEFS", "ref", "described",
           "nullable", "array", "closed_object", "seat_schema"]

Schema = dict[str, Any]

# One card, as cardcore writes it (docs/api.md, Cards). Written out where it is used (a $ref
# per card made the reference validator several times slower); the TypeScript client makes it
# one type, Card, from CARD_NAMES.
CARD: Schema = {"enum": [r + s for s in SUITS for r in RANKS] + ["JK"]}
CARD_NAMES: Schema = {"description": "a card: its rank and suit (10H, QS, 2C), or JK, a joker",
                      **CARD}
CARDS: Schema = {"type": "array", "items": CARD}
INT: Schema = {"type": "integer"}
NAT: Schema = {"type": "integer", "minimum": 0}
STR: Schema = {"type": "string"}
BOOL: Schema = {"type": "boolean"}
RANK: Schema = {"enum": list(RANKS)}


def described(s: Schema, text: str) -> Schema:
    """``s`` with a ``description`` (every property of a shipped schema has one)."""
    return {**s, "description": text}


def nullable(s: Schema) -> Schema:
    """``s`` or null (a description on ``s`` moves to the whole)."""
    inner = {k: v for k, v in s.items() if k != "description"}
    out: Schema = {"anyOf": [inner, {"type": "null"}]}
    if "description" in s:
        out["description"] = s["description"]
    return out


def array(items: Schema, n: int | None = None) -> Schema:
    """An array of ``items``; of exactly ``n`` when given."""
    out: Schema = {"type": "array", "items": items}
    if n is not None:
        out.update(minItems=n, maxItems=n)
    return out


def closed_object(props: dict[str, Schema], required: list[str] | None = None) -> Schema:
    """An object with exactly these properties (all required unless ``required`` says)."""
    return {"type": "object", "properties": props,
            "required": list(props) if required is None else required,
            "additionalProperties": False}


def seat_schema(players: int) -> Schema:
    """A seat number 0..players-1."""
    return {"type": "integer", "minimum": 0, "maximum": players - 1}


# ------------------------------------------------------------------ the UI contract's pieces
def ref(name: str, description: str | None = None) -> Schema:
    """A reference to the shared definition ``name`` of ``DEFS`` (``cardcore.schemas`` puts
    the definitions a schema uses into its ``$defs``)."""
    out: Schema = {"$ref": f"#/$defs/{name}"}
    if description is not None:
        out["description"] = description
    return out


# "stock", "discard", "hand:2", "foot:1", "meld:0:7": a kind, then its instance numbers.
ZONE_ID: Schema = {"type": "string", "pattern": "^[a-z][a-z_]*(:[A-Za-z0-9_]+)*$"}

MOVE: Schema = {
    "description": "cards going from one zone to another: named when the reader may see them, "
                   "counted when not",
    "oneOf": [
        {"title": "Move of cards", **closed_object({
            "from": described(ZONE_ID, "the zone the cards leave (an id of game.zones)"),
            "to": described(ZONE_ID, "the zone the cards reach"),
            "cards": described(CARDS, "the cards that move, in order")})},
        {"title": "Move of hidden cards", **closed_object({
            "from": described(ZONE_ID, "the zone the cards leave (an id of game.zones)"),
            "to": described(ZONE_ID, "the zone the cards reach"),
            "count": described({"type": "integer", "minimum": 1},
                               "how many cards move, which the reader may not see")})},
    ]}

ZONE_CONTENTS: Schema = {
    "type": "object", "propertyNames": ZONE_ID,
    "description": "every zone by id: its cards where the reader may see them, else their "
                   "count",
    "additionalProperties": {"anyOf": [
        described(CARDS, "the zone's cards, bottom to top"),
        closed_object({"count": described(NAT, "how many cards the zone holds, unseen")})]}}

ZONE: Schema = {
    "description": "one zone of the table (game.zones): its stable id, its kind, whose it is "
                   "and its words",
    **closed_object({
        "id": described(ZONE_ID, "the zone's id, as in view zones and moves"),
        "kind": described({"type": "string", "pattern": "^[a-z][a-z_]*$"},
                          "what the zone is: stock, discard, hand, foot, table, meld..."),
        "owner": described(nullable(NAT), "the seat the zone belongs to, or null"),
        "team": described(nullable(NAT), "the team the zone belongs to, or null"),
        "label": described(STR, "the zone's name for people"),
        "layout": described({"enum": ["pairs"]},
                            "how a table lays the zone out, where it is not a plain pile: "
                            "pairs (the view's slots: each card with its cover); absent "
                            "for a pile")},
        required=["id", "kind", "owner", "team", "label"])}

ZONE_SLOTS: Schema = {
    "type": "object", "propertyNames": ZONE_ID,
    "description": "the slots of each zone laid out in pairs (a zone descriptor's layout) "
                   "that the reader sees, in the zone's order",
    "additionalProperties": array(closed_object({
        "card": described(CARD, "the slot's card (an attacking card)"),
        "cover": described(nullable(CARD), "the card covering it (its beat), or null"),
        "open": described({"type": "boolean"}, "true while nothing covers the card")}))}

# The definitions the schemas refer to by name (``ref``); the TypeScript client makes one
# type of each (Card, Move, ZoneContents, Zone, ZoneSlots).
DEFS: dict[str, Schema] = {"Card": CARD_NAMES, "Move": MOVE, "ZoneContents": ZONE_CONTENTS,
                           "Zone": ZONE, "ZoneSlots": ZONE_SLOTS}


# ------------------------------------------------------------------ a game's declarations
@dataclass(frozen=True)
class Kind:
    """One kind of action or event: what it is, which fields it always carries (``fields``,
    required) and which it carries only sometimes (``optional``, e.g. none once the match is
    over). Names refer to the game's field vocabulary (``SchemaParts.action_info`` /
    ``event_fields``) or to the shared fields (``cardcore.schemas``); ``own`` gives a field
    a schema of this kind's own (the same name meaning something else here); ``cards`` says
    what its ``cards`` hold."""

    doc: str = ""
    fields: tuple[str, ...] = ()
    optional: tuple[str, ...] = ()
    own: dict[str, Schema] = field(default_factory=dict)
    cards: str = ""


@dataclass(frozen=True)
class SchemaParts:
    """What a game adds to the shared schemas.

    ``view(seat, max_players)`` gives the view's keys beyond the common ones (``seat`` is the
    schema of a seat number); ``action_info`` the keys of ``Action.info``; ``event_fields``
    the fields its events carry beyond the common ones; ``action_kinds`` / ``event_kinds``
    which of those each kind carries (every action kind of the decode table and every event
    kind, automatic or not, must be declared). Every schema given has a ``description``."""

    view: Callable[[Schema, int], dict[str, Schema]]
    action_info: dict[str, Schema] = field(default_factory=dict)
    event_fields: dict[str, Schema] = field(default_factory=dict)
    action_kinds: dict[str, Kind] = field(default_factory=dict)
    event_kinds: dict[str, Kind] = field(default_factory=dict)
