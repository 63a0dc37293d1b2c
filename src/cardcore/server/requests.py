"""The bodies a client sends (docs/server.md): one ``TypedDict`` per request, which the
handlers read their fields from and ``openapi.py`` describes (``json_schema``), so that the
fields a handler accepts and the fields the document lists are one list.

A field's JSON Schema comes from its type (``int``, ``str``, ``bool``, ``Optional``,
``Union``, ``Literal``, ``List``); ``Annotated[T, Schema({...})]`` adds keywords (bounds, a
description, or ``items`` in place of the derived ones). A required field is in a base class
with ``total=True``, the optional ones in a subclass with ``total=False`` (Python 3.9 has no
``Required``). Written with ``typing``'s old names: the package supports Python 3.9, where
``get_type_hints`` cannot read ``int | None``.
"""
from __future__ import annotations

from typing import (Annotated, Any, Dict, List, Literal, Optional, TypedDict, Union, get_args,
                    get_origin, get_type_hints)

from cardcore.game import MAX_CHOSEN_CARDS
from cardcore.records import MAX_CLIENT_SEED
from cardcore.server.seats import MAX_NAME
from cardcore.server.sockets import MAX_REQUEST_ID, MAX_REQUEST_INT

__all__ = ["Schema", "json_schema", "fields_of", "NewTableRequest", "NEW_TABLE_FROM_SERVER",
           "ActionRequest", "TakebackRequest",
           "ClaimRequest", "WsActionMessage", "WsTakebackMessage", "WsPingMessage",
           "WsAuthMessage", "WS_CLIENT_MESSAGES"]


class Schema:
    """JSON Schema keywords a field's ``Annotated`` type adds to the derived ones (an
    object, not a dict: typing hashes an ``Annotated`` type inside a ``Union``)."""

    def __init__(self, **keywords: Any) -> None:
        self.keywords = keywords


AFTER = Schema(minimum=0)
CARDS = Schema(maxItems=MAX_CHOSEN_CARDS, items={"type": "string", "maxLength": 8},
               description="the exact cards the action takes from the hand (card "
                           "notations), where it names them by count or rank; for any "
                           "other action its own cards")
REQUEST_ID = Schema(minLength=1, maxLength=MAX_REQUEST_ID, minimum=0, maximum=MAX_REQUEST_INT)
# As sent: the server trims it first, so the bounds are the kept name's (422 otherwise).
NAME = Schema(description=f"1..{MAX_NAME} characters once trimmed: letters, digits, marks, "
                          "spaces and -_.'")


class _NewTable(TypedDict):
    game: str


class NewTableRequest(_NewTable, total=False):
    """``POST /api/tables``. The names of games and bots, the clock's shape and the join
    modes are the server's own: openapi.py puts them in (``NEW_TABLE_FROM_SERVER``)."""
    players: Optional[int]
    seed: Annotated[Optional[int], Schema(minimum=0, maximum=2**64 - 1)]
    options: Optional[Dict[str, Any]]
    bots: Optional[Dict[str, str]]
    client_seed: Annotated[Optional[str], Schema(minLength=1, maxLength=MAX_CLIENT_SEED,
                                                 pattern="^[ -~]+$")]
    clock: Optional[Dict[str, Any]]
    takeback: Annotated[Optional[bool], Schema(description="the one person at a table of "
                                                           "bots may take moves back "
                                                           "(docs/server.md)")]
    open_seats: Optional[List[Annotated[int, Schema(minimum=0)]]]
    names: Optional[Dict[str, Annotated[str, NAME]]]
    listed: Optional[bool]
    spectators: Optional[bool]
    join: Optional[str]


# The fields of NewTableRequest whose schema the server completes from its own lists.
NEW_TABLE_FROM_SERVER = ("game", "bots", "clock", "join")


class _Action(TypedDict):
    action: Union[int, str]


class ActionRequest(_Action, total=False):
    """``POST /api/tables/{id}/actions`` (the token may come as ``Authorization``)."""
    token: Optional[str]
    after: Annotated[Optional[int], AFTER]
    cards: Annotated[Optional[List[str]], CARDS]


class TakebackRequest(TypedDict, total=False):
    """``POST /api/tables/{id}/takeback``."""
    token: Optional[str]
    after: Annotated[Optional[int], AFTER]


class _Claim(TypedDict):
    name: Annotated[str, NAME]


class ClaimRequest(_Claim, total=False):
    """``POST /api/tables/{id}/seats``: claim an open seat."""
    invite: Optional[str]
    seat: Annotated[Optional[int], Schema(minimum=0)]


class _WsAction(TypedDict):
    type: Literal["action"]
    action: Union[int, str]


class WsActionMessage(_WsAction, total=False):
    """A socket's ``{"type": "action"}``."""
    after: Annotated[Optional[int], AFTER]
    cards: Annotated[Optional[List[str]], CARDS]
    id: Annotated[Union[str, int], REQUEST_ID]


class _WsTakeback(TypedDict):
    type: Literal["takeback"]


class WsTakebackMessage(_WsTakeback, total=False):
    """A socket's ``{"type": "takeback"}``."""
    after: Annotated[Optional[int], AFTER]
    id: Annotated[Union[str, int], REQUEST_ID]


class WsPingMessage(TypedDict):
    """A socket's ``{"type": "ping"}`` (answered ``pong``)."""
    type: Literal["ping"]


class WsAuthMessage(TypedDict):
    """The first message of a socket opened without a token: it becomes the seat's."""
    type: Literal["auth"]
    token: str


# The socket's client messages as x-websocket names them (their handlers: routes/socket.py).
WS_CLIENT_MESSAGES: dict[str, type] = {"WsAction": WsActionMessage,
                                       "WsTakeback": WsTakebackMessage,
                                       "WsPing": WsPingMessage, "WsAuth": WsAuthMessage}

_NAMES = {int: "integer", str: "string", bool: "boolean", type(None): "null"}


def _type_schema(hint: Any) -> dict[str, Any]:
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
        parts = [_type_schema(arg) for arg in get_args(hint)]
        if all(set(p) <= {"type"} for p in parts):
            schema = {"type": [p["type"] for p in parts]}
        else:       # a list among them: its type joins the others', its keywords stay
            schema = {"type": [p["type"] for p in parts]}
            for part in parts:
                schema.update({k: v for k, v in part.items() if k != "type"})
    elif origin in (list, List):
        schema = {"type": "array", "items": _type_schema(get_args(hint)[0])}
    elif origin in (dict, Dict):
        value = get_args(hint)[1]
        schema = {"type": "object"} if value is Any \
            else {"type": "object", "additionalProperties": _type_schema(value)}
    elif hint in _NAMES:
        schema = {"type": _NAMES[hint]}
    else:
        raise TypeError(f"no JSON Schema for the field type {hint!r}")
    schema.update(extra)
    return schema


def json_schema(request: type, closed: bool = True) -> dict[str, Any]:
    """A request type as a JSON Schema object: its fields, the required ones (in the order
    declared), ``additionalProperties: false`` when ``closed`` (a handler refuses others)."""
    hints = get_type_hints(request, include_extras=True)
    required = [name for name in hints if name in request.__required_keys__]  # type: ignore[attr-defined]
    schema: dict[str, Any] = {"type": "object"}
    if required:
        schema["required"] = required
    if closed:
        schema["additionalProperties"] = False
    schema["properties"] = {name: _type_schema(hint) for name, hint in hints.items()}
    return schema


def fields_of(request: type) -> frozenset[str]:
    """The fields a request may carry: what its handler accepts (400 for any other)."""
    return frozenset(get_type_hints(request))
