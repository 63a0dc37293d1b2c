"""The vocabulary of cardcore's JSON Schemas (draft 2020-12), for the games' own parts.

A game declares the parts of its schemas that only it knows (``Game.schema_parts``, a
``SchemaParts``): the keys its view adds, the details its actions carry, the fields its events
carry. ``cardcore.schemas`` puts them together with what every game shares. Objects are closed
(``additionalProperties: false``): a key a schema does not list is a bug, on either side.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from cardcore.cards import RANKS, SUITS

__all__ = ["Schema", "SchemaParts", "CARD", "CARDS", "INT", "NAT", "STR", "BOOL", "RANK",
           "nullable", "array", "closed_object", "seat_schema"]

Schema = dict[str, Any]

CARD: Schema = {"enum": [r + s for s in SUITS for r in RANKS] + ["JK"]}
CARDS: Schema = {"type": "array", "items": CARD}
INT: Schema = {"type": "integer"}
NAT: Schema = {"type": "integer", "minimum": 0}
STR: Schema = {"type": "string"}
BOOL: Schema = {"type": "boolean"}
RANK: Schema = {"enum": list(RANKS)}


def nullable(s: Schema) -> Schema:
    """``s`` or null."""
    return {"anyOf": [s, {"type": "null"}]}


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


@dataclass(frozen=True)
class SchemaParts:
    """What a game adds to the shared schemas.

    ``view(seat, max_players)`` gives the view's keys beyond the common ones (``seat`` is the
    schema of a seat number); ``action_info`` the keys of ``Action.info``; ``event_fields``
    the fields its events carry beyond the common ones."""

    view: Callable[[Schema, int], dict[str, Schema]]
    action_info: dict[str, Schema] = field(default_factory=dict)
    event_fields: dict[str, Schema] = field(default_factory=dict)
