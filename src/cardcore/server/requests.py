"""The bodies a client sends (docs/server.md): one ``TypedDict`` per request, which the
handlers read their fields from and ``openapi.py`` describes (``json_schema``), so that the
fields a handler accepts and the fields the document lists are one list.

A field's JSON Schema comes from its type (json_types.py, as for the answers of
responses.py). Written with ``typing``'s old names: the package supports Python 3.9, where
``get_type_hints`` cannot read ``int | None``.
"""
from __future__ import annotations

from typing import Annotated, Any, Dict, List, Literal, Optional, TypedDict, Union

from cardcore.server.json_types import Schema, fields_of, json_schema

from cardcore.game import MAX_CHOSEN_CARDS
from cardcore.records import MAX_CLIENT_SEED
from cardcore.server.seats import MAX_NAME
from cardcore.server.sockets import MAX_REQUEST_ID, MAX_REQUEST_INT

__all__ = ["Schema", "json_schema", "fields_of", "NewTableRequest", "NEW_TABLE_FROM_SERVER",
           "ActionRequest", "TakebackRequest",
           "ClaimRequest", "WsActionMessage", "WsTakebackMessage", "WsPingMessage",
           "WsAuthMessage", "WS_CLIENT_MESSAGES"]


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
