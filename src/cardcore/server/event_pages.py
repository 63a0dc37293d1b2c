"""Bounded reads of a table over HTTP (docs/server.md, "Reading a table"): a state carries
one page of its events, never the whole log, so a client that polls pays for a page, not
for the match so far.

Without ``since`` the page is the last ``EVENT_PAGE`` events; with ``?since=n`` it is the
events ``n`` .. ``n + EVENT_PAGE - 1`` (fewer at the end). ``events_from`` is the index of
the page's first event and ``event_count`` the log's length: a client reads the earlier
events with ``since=max(0, events_from - EVENT_PAGE)``, or the whole log from ``since=0``
page by page until ``events_from + len(events) == event_count``.
"""
from __future__ import annotations

from typing import Any

from cardcore.errors import Words, echo
from cardcore.server.api_errors import ApiError
from cardcore.server.messages import SINCE_RANGE

__all__ = ["EVENT_PAGE", "page_start", "paged_state"]

EVENT_PAGE = 100        # events in one answer: about 20 KB of a 4-seat trick game's log


def page_start(raw: str | None, count: int) -> int:
    """The first event of the page ``?since=raw`` asks for: the last page without it; 400
    naming ``since`` (its value echoed, at most 60 characters) for anything but ASCII digits
    of an index 0..``count``."""
    if raw is None:
        return max(0, count - EVENT_PAGE)
    if not (raw.isascii() and raw.isdigit()) or len(raw) > 12 or int(raw) > count:
        raise ApiError(400, Words(SINCE_RANGE, {"count": count, "value": echo(raw)}),
                       option="since")
    return int(raw)


def paged_state(table: Any, seat: int | None, since: int, lang: str) -> dict[str, Any]:
    """``table.state`` for ``seat`` with the page of events from ``since`` (``events_from``
    its first index), the page's events alone rendered."""
    state: dict[str, Any] = table.state(seat, table.event_count, lang)
    until = min(since + EVENT_PAGE, table.event_count)
    state["events"] = table.game.events(seat, since, lang, until)
    state["events_from"] = since
    return state
