"""Plain-text narration of events (``Game.events``) for terminal and log front ends.

``describe(event, seat, who, game)`` turns one event, as ``seat`` saw it, into a line of text
(None for events not worth a line, e.g. another seat's hidden deal). ``who(k)`` names a seat
("you", "seat 2 (greedy)"). The words for a game's own event kinds are the game's
(``Game.phrases``, in its package's ``words.py``); this module has the words every card game
shares and the fallbacks. ``breakdown_lines`` spells out the end of a round (the game's
``round_end_event``) with its scoring breakdown.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, Union

__all__ = ["Event", "Who", "Phrase", "action_line", "breakdown_lines", "cards_text", "describe",
           "verb"]

Event = dict[str, Any]
Who = Callable[[int], str]
# A phrase: (event, seat that saw it, who, the name of the event's player) -> a line or None.
Phrase = Callable[[Event, Union[int, None], Who, str], Union[str, None]]


def cards_text(event: Event) -> str:
    """The event's cards as the seat saw them: named ones, then how many were unseen."""
    shown = " ".join(event.get("cards", []))
    hidden = event.get("hidden", 0)
    if shown and hidden:
        return f"{shown} and {hidden} unseen"
    if hidden:
        return f"{hidden} card{'s' if hidden != 1 else ''}"
    return shown


def verb(base: str, player: Any, seat: int | None) -> str:
    """``base`` for the seat itself ("you draw"), with an s for the others ("seat 2 draws")."""
    return base if player == seat else base + "s"


def _dealt(event: Event, seat: int | None, who: Who, name: str) -> str | None:
    return f"You are dealt {cards_text(event)}" if event.get("player") == seat else None


def _deal_line(event: Event, seat: int | None, who: Who, number: Any) -> str:
    first = event.get("first_player")
    if not isinstance(first, int):
        return f"— new deal {number}"
    return f"— new deal {number}; {who(first)} {verb('start', first, seat)}"


def action_line(event: Event, name: str) -> str:
    """The plain line of an action event: who, then the notation."""
    return f"{name}: {event.get('action', event['kind'])}"


def _draw_stock(event: Event, seat: int | None, who: Who, name: str) -> str | None:
    pile = f" from stock {event['pile']}" if "pile" in event else ""
    return f"{name}: {event.get('action', event['kind'])} — draws " \
           f"{cards_text(event) or 'nothing'}{pile}"


def _go_out(event: Event, seat: int | None, who: Who, name: str) -> str | None:
    if len(event.get("cards", [])) > 1:                  # going out shows the hand
        return f"{action_line(event, name)} — shows {cards_text(event)}"
    return action_line(event, name)


def _silent(event: Event, seat: int | None, who: Who, name: str) -> str | None:
    return None


# The words of kinds every card game has; a game's own phrases take precedence. A phrase
# that gives None means: no line for this event.
COMMON: dict[str, Phrase] = {
    "dealt": _dealt, "draw_stock": _draw_stock, "go_out": _go_out, "match_end": _silent,
}


def describe(event: Event, seat: int | None, who: Who, game: Any) -> str | None:
    """One line for ``event`` as ``seat`` saw it in ``game`` (a Game or its class); None
    when there is nothing to say."""
    kind = event["kind"]
    player = event.get("player")
    name = who(player) if isinstance(player, int) else "table"
    if kind == game.round_end_event:
        return None                                      # breakdown_lines prints these
    phrase = game.phrases.get(kind) or COMMON.get(kind)
    if phrase is not None:
        return phrase(event, seat, who, name)
    if kind == "deal":
        return _deal_line(event, seat, who, event.get(game.round_name))
    if not event.get("auto"):
        return action_line(event, name)
    return f"{name}: {kind.replace('_', ' ')} {cards_text(event)}".rstrip()


def breakdown_lines(event: Event, who: Who, game: Any) -> list[str]:
    """The lines of a round-end event (``game.round_end_event``): the breakdown with its
    rule IDs. A game's phrase for that kind, if it has one, gives the heading line (e.g. a
    round that ended without a score)."""
    word = game.round_name
    heading = game.phrases.get(event["kind"])
    title = heading(event, None, who, "") if heading is not None else None
    lines = [title or f"— {word} {event.get(word)} over ({event.get('score_direction', '')}):"]
    b: Mapping[str, Any] = event.get("breakdown") or {}
    for c in b.get("components", []):
        owner = (who(c["seat"]) if "seat" in c else f"team {c['team']}")
        count = f" {c['count']}" if "count" in c else ""
        lines.append(f"    {owner}: {c['what']}{count} → {c['points']:+d}  [{c['rule']}]")
    totals = b.get("totals", [])
    if totals:
        unit = "team" if b.get("by") == "team" else "seat"
        lines.append("    totals: " + ", ".join(
            f"{unit} {k} {t:+d}" for k, t in enumerate(totals)))
    if "scores" in event:
        lines.append("    scores now: " + " ".join(str(s) for s in event["scores"]))
    return lines
