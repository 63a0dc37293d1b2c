"""What the server lists: the catalogue of games (``GET /api/games``) and the opaque page
cursors of ``GET /api/tables``."""
from __future__ import annotations

import base64
import json
import math
from collections.abc import Sequence
from typing import Any, Mapping

from cardcore.registry import available_games, game_class
from cardcore.i18n import N_
from cardcore.server.api_errors import ApiError
from cardcore.server.table_bots import table_bots

__all__ = ["games_catalogue", "make_cursor", "read_cursor"]


def games_catalogue(extra: Mapping[str, Sequence[str]] | None = None) -> list[dict[str, Any]]:
    """``GET /api/games``: each game, its title, what it calls a round (and so the kind of
    its round-end event), its player counts and options (as ``cardcore games``): each
    option's JSON Schema fragment (``Game.option_schema``) and description, and its
    ``default`` and ``doc`` as in 0.3 (until 0.5.0: docs/deprecations.md)."""
    out = []
    for name in available_games():
        cls = game_class(name)
        schemas = cls.option_schema()
        out.append({
            "game": name,
            "title": cls.title,
            "round_name": cls.round_name,
            "round_end_event": cls.round_end_event,
            "min_players": cls.min_players,
            "max_players": cls.max_players,
            "default_players": cls.default_players,
            "options": {k: {"schema": _jsonable(schemas[k]), "description": o.doc,
                            "default": _jsonable(o.default), "doc": o.doc}
                        for k, o in cls.options_spec.items()},
            "bots": table_bots(name, (extra or {}).get(name, ())),
        })
    return out


def make_cursor(created: float, table_id: str) -> str:
    """An opaque page cursor: the (created, id) of a page's last table, base64url."""
    return base64.urlsafe_b64encode(f"{created!r}|{table_id}".encode()).decode().rstrip("=")


def read_cursor(cursor: str | None) -> tuple[float, str] | None:
    if cursor is None:
        return None
    try:
        if not 0 < len(cursor) <= 120:
            raise ValueError
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
        created, table_id = text.split("|", 1)
        value = float(created)
        if not math.isfinite(value) or not table_id:
            raise ValueError
        return value, table_id
    except ValueError:                    # binascii.Error and UnicodeDecodeError are ValueErrors
        raise ApiError(400, N_("cursor must be the 'next' of a page of GET /api/tables")) from None


def _jsonable(value: Any) -> Any:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return repr(value)
    return value
