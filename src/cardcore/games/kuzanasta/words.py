"""Kuzanasta in words for the terminal (cardcore.narrate): its own event kinds."""
from __future__ import annotations

from cardcore.narrate import COMMON, Event, Phrase, Who, cards_text


def _draw_discard(event: Event, seat: int | None, who: Who, name: str) -> str:
    return f"{name}: {event.get('action')} — takes {cards_text(event)} from the discard pile"


def _turn_up(event: Event, seat: int | None, who: Who, name: str) -> str:
    return f"turned up {cards_text(event)}: wild rank {event.get('wild_rank') or 'none'}"


def _pile_start(event: Event, seat: int | None, who: Who, name: str) -> str:
    return f"pile {event['pile']} starts with {cards_text(event)}"


def _recycle(event: Event, seat: int | None, who: Who, name: str) -> str:
    return f"discard pile {event['pile']} turned over as the new stock " \
           f"({len(event['cards'])} cards)"


def _pile_dead(event: Event, seat: int | None, who: Who, name: str) -> str:
    return f"a discard pile leaves play: {cards_text(event)} ({event.get('rule')})"


def _set_aside(event: Event, seat: int | None, who: Who, name: str) -> None:
    return None


def _deal_end(event: Event, seat: int | None, who: Who, name: str) -> str | None:
    """The heading of a deal that ended void (KZ-3.4, KZ-3.5); a scored deal has the usual."""
    if event.get("end") != "went_out":
        return f"— deal {event.get('deal')} over: void ({event.get('end')}, {event.get('rule')})"
    return None


PHRASES: dict[str, Phrase] = {
    "god_draw": COMMON["draw_stock"], "draw_discard": _draw_discard, "turn_up": _turn_up,
    "pile_start": _pile_start, "recycle": _recycle, "pile_dead": _pile_dead,
    "set_aside": _set_aside, "deal_end": _deal_end,
}
