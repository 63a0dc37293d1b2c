"""State deltas for the sockets that ask for them (``?patches=1``; docs/server.md, "Patches").

After its first whole state such a socket is sent ``{"type": "patch", "events": [...],
"patch": {...}}``: the new events, and an RFC 7396 JSON merge patch from the last state it
was sent (without its events) to the new one. The patch is built by the ``json-merge-patch``
library and then applied with it to the state it starts from: when the result is not exactly
the new state the socket gets a whole state instead. RFC 7396 cannot set a member to null (a
null in a patch deletes the member), so a state in which a value becomes null, or that gains
an object holding a null, goes whole; a test measures how often (benchmarks/push_bytes.py).

A socket keeps the last state it was sent as compact JSON (``StateMemo``): one state's bytes
per socket, whatever the table's history.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import json_merge_patch  # type: ignore[import-untyped]  # no stubs: two plain functions

__all__ = ["StateMemo", "without_events", "canonical_json"]

try:                                  # the server extra installs orjson (as app.py uses it)
    import orjson

    def canonical_json(value: Any) -> bytes:
        """``value`` as compact JSON with sorted keys: equal states give equal bytes."""
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS | orjson.OPT_SORT_KEYS)

    def _loads(raw: bytes) -> Any:
        return orjson.loads(raw)
except ImportError:                   # pragma: no cover - the server extra installs orjson
    def canonical_json(value: Any) -> bytes:
        """``value`` as compact JSON with sorted keys: equal states give equal bytes."""
        return json.dumps(value, separators=(",", ":"), ensure_ascii=False,
                          sort_keys=True).encode()

    def _loads(raw: bytes) -> Any:
        return json.loads(raw)


def without_events(state: Mapping[str, Any]) -> dict[str, Any]:
    """The part of a state that a patch describes: everything but its ``events``."""
    return {k: v for k, v in state.items() if k != "events"}


class StateMemo:
    """The last state (without events) one socket was sent, as canonical JSON; None before
    the first one, after a take-back or a change of seat: the next push is then whole."""

    __slots__ = ("sent",)

    def __init__(self) -> None:
        self.sent: bytes | None = None

    def forget(self) -> None:
        self.sent = None

    def patch(self, rest: dict[str, Any]) -> tuple[dict[str, Any] | None, bytes]:
        """The merge patch from the last state sent to ``rest`` (a state without events), or
        None when there is none to start from or RFC 7396 cannot express the change; and
        ``rest`` as canonical JSON (what ``remember`` keeps once it is sent)."""
        current = canonical_json(rest)
        if self.sent is None:
            return None, current
        if current == self.sent:
            return {}, current
        # Diff the JSON as sent (tuples as lists, int keys as strings), not Python values.
        patch = json_merge_patch.create_patch(_loads(self.sent), _loads(current))
        applied = json_merge_patch.merge(_loads(self.sent), patch)
        if canonical_json(applied) != current:          # a null, or 1 == True: send it whole
            return None, current
        return patch, current

    def remember(self, current: bytes) -> None:
        self.sent = current
