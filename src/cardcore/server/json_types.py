"""JSON Schema from ``TypedDict`` types: the bodies a client sends (requests.py) and the
answers it gets (responses.py) are each one type, which the handlers read or build and
``openapi.py`` describes, so that a field and its description are one list.

A field's schema comes from its type: ``int``, ``float``, ``str``, ``bool``, ``Any``,
``Optional``, ``Union``, ``Literal``, ``List``, ``Dict`` and another ``TypedDict`` (a
``$ref`` when the caller names it a component, else inline). ``Annotated[T, Schema(...)]``
adds keywords (bounds, a description, or ``items`` in place of the derived ones). A required
field is in a base class with ``total=True``, the optional ones in a subclass with
``total=False`` (Python 3.9 has no ``Required``). Written with ``typing``'s old names: the
package supports Python 3.9, where ``get_type_hints`` cannot read ``int | None``.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Dict, List, Literal, Union, get_args, get_origin, get_type_hints

__all__ = ["Schema", "json_schema", "fields_of", "is_typed_dict"]

# A component's name for each type that has one (a ``$ref`` where another type uses it).
Refs = Mapping[type, str]


class Schema:
    """JSON Schema keywords a field's ``Annotated`` type adds to the derived ones (an
    object, not a dict: typing hashes an ``Annotated`` type inside a ``Union``)."""

    def __init__(self, **keywords: Any) -> None:
        self.keywords = keywords


_NAMES = {int: "integer", float: "number", str: "string", bool: "boolean",
          type(None): "null"}


def is_typed_dict(hint: Any) -> bool:
    return isinstance(hint, type) and issubclass(hint, dict) and hasattr(hint, "__total__")


def _union(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """Plain types join in one ``type`` list (a list's keywords stay: they bind only the
    list); a reference, a constant or an enum among them makes an ``anyOf``."""
    if all("type" in p for p in parts):
        schema: dict[str, Any] = {"type": [p["type"] for p in parts]}
        for part in parts:
            schema.update({k: v for k, v in part.items() if k != "type"})
        return schema
    return {"anyOf": parts}


def _type_schema(hint: Any, refs: Refs) -> dict[str, Any]:
    """The JSON Schema of one field's type."""
    extra: dict[str, Any] = {}
    if get_origin(hint) is Annotated:
        hint, *meta = get_args(hint)
        for item in meta:
            if isinstance(item, Schema):
                extra.update(item.keywords)
    origin = get_origin(hint)
    if origin is Literal:
        values = get_args(hint)
        schema: dict[str, Any] = {"const": values[0]} if len(values) == 1 \
            else {"enum": list(values)}
    elif origin is Union:
        schema = _union([_type_schema(arg, refs) for arg in get_args(hint)])
    elif origin in (list, List):
        schema = {"type": "array", "items": _type_schema(get_args(hint)[0], refs)}
    elif origin in (dict, Dict):
        value = get_args(hint)[1]
        schema = {"type": "object"} if value is Any \
            else {"type": "object", "additionalProperties": _type_schema(value, refs)}
    elif hint is Any:
        schema = {}
    elif is_typed_dict(hint):
        schema = {"$ref": f"#/components/schemas/{refs[hint]}"} if hint in refs \
            else json_schema(hint, closed=False, refs=refs)
    elif hint in _NAMES:
        schema = {"type": _NAMES[hint]}
    else:
        raise TypeError(f"no JSON Schema for the field type {hint!r}")
    schema.update(extra)
    return schema


def json_schema(typed: type, closed: bool = True, refs: Refs | None = None
                ) -> dict[str, Any]:
    """A ``TypedDict`` as a JSON Schema object: its fields, the required ones (in the order
    declared), ``additionalProperties: false`` when ``closed`` (a handler refuses others);
    ``refs`` names the types that are components of their own."""
    hints = get_type_hints(typed, include_extras=True)
    required = [name for name in hints if name in typed.__required_keys__]  # type: ignore[attr-defined]
    schema: dict[str, Any] = {"type": "object"}
    if required:
        schema["required"] = required
    if closed:
        schema["additionalProperties"] = False
    schema["properties"] = {name: _type_schema(hint, refs or {})
                            for name, hint in hints.items()}
    return schema


def fields_of(typed: type) -> frozenset[str]:
    """The fields a request may carry: what its handler accepts (400 for any other)."""
    return frozenset(get_type_hints(typed))
