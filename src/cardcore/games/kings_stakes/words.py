"""Kings' Stakes in words for the terminal (cardcore.narrate): its own event kinds."""
from __future__ import annotations

from cardcore.narrate import Event, Phrase, Who, action_line, cards_text, verb


def _with_stake(event: Event, seat: int | None, who: Who, name: str) -> str:
    line = action_line(event, name)
    if "stake" in event:                                 # KS-4.3: what the next play must meet
        line += f"   (stake {event['stake']}"
        line += ", counter-clockwise)" if event.get("direction") == -1 else ")"
    return line


def _take(event: Event, seat: int | None, who: Who, name: str) -> str:
    return f"{name}: take — takes the table: {cards_text(event)} (stake back to 0)"


def _draw(event: Event, seat: int | None, who: Who, name: str) -> str:
    return f"{name} {verb('draw', event.get('player'), seat)} {cards_text(event)} from the stock"


def _table_cleared(event: Event, seat: int | None, who: Who, name: str) -> str:
    return f"{name}'s king clears the table to the discard: {cards_text(event)}"


def _chip(event: Event, seat: int | None, who: Who, name: str) -> str:
    return f"{name} now {verb('hold', event.get('player'), seat)} the forget-me chip (KS-7.1)"


def _out(event: Event, seat: int | None, who: Who, name: str) -> str:
    return f"{name} {'are' if event.get('player') == seat else 'is'} out; " \
           f"the others get final turns"


PHRASES: dict[str, Phrase] = {
    "play": _with_stake, "refill": _with_stake, "end_turn": _with_stake, "take": _take,
    "draw": _draw, "table_cleared": _table_cleared, "chip": _chip, "out": _out,
}
