"""Manna from Heaven in words for the terminal (cardcore.narrate): its own event kinds."""
from __future__ import annotations

from cardcore.narrate import Event, Phrase, Who, action_line, cards_text, verb


def _take_pile(event: Event, seat: int | None, who: Who, name: str) -> str:
    melded = " ".join(event.get("melded", []))
    return f"{action_line(event, name)} — takes the pile ({len(event['cards'])}: " \
           f"{cards_text(event)}), melding {melded}"


def _meld(event: Event, seat: int | None, who: Who, name: str) -> str:
    line = f"{action_line(event, name)} ({cards_text(event)})"
    if "turn_points" in event and not event.get("opened", True):     # MH-4.8
        line += f" — initial meld {event['turn_points']} of {event['min_meld']}"
    return line


def _first_discard(event: Event, seat: int | None, who: Who, name: str) -> str:
    return f"the pile starts with {cards_text(event)}"


def _red_three(event: Event, seat: int | None, who: Who, name: str) -> str:
    how = "replaced from the stock" if event.get("replaced") else "not replaced"
    plural = "s" if len(event["cards"]) > 1 else ""
    return f"red three{plural} {cards_text(event)} laid out for team {event.get('team')} ({how})"


def _canasta(event: Event, seat: int | None, who: Who, name: str) -> str:
    return f"team {event['team']} completes a {event['type']} canasta of {event['rank']}"


def _foot(event: Event, seat: int | None, who: Who, name: str) -> str:
    return f"{name} {verb('pick', event.get('player'), seat)} up the foot: {cards_text(event)}"


def _foot_dealt(event: Event, seat: int | None, who: Who, name: str) -> None:
    return None


PHRASES: dict[str, Phrase] = {
    "take_pile": _take_pile, "meld": _meld, "first_discard": _first_discard,
    "red_three": _red_three, "canasta": _canasta, "foot": _foot, "foot_dealt": _foot_dealt,
}
