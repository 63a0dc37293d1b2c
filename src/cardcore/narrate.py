"""Plain-text narration of events (``Game.events``) for terminal and log front ends.

``describe(event, seat, who)`` turns one event, as ``seat`` saw it, into a line of text (None
for events not worth a line, e.g. another seat's hidden deal). ``who(k)`` names a seat ("you",
"seat 2 (greedy)"). ``breakdown_lines`` spells out a round/deal/hand-end breakdown.
"""
from __future__ import annotations

from typing import Any, Callable

__all__ = ["describe", "breakdown_lines"]

Event = dict[str, Any]
END_KINDS = ("round_end", "deal_end", "hand_end")


def _cards(event: Event) -> str:
    shown = " ".join(event.get("cards", []))
    hidden = event.get("hidden", 0)
    if shown and hidden:
        return f"{shown} and {hidden} unseen"
    if hidden:
        return f"{hidden} card{'s' if hidden != 1 else ''}"
    return shown


def _action_line(event: Event, name: str) -> str:
    kind = event["kind"]
    cards = _cards(event)
    action = event.get("action", kind)
    if kind in ("draw_stock", "god_draw"):
        pile = f" from stock {event['pile']}" if "pile" in event else ""
        return f"{name}: {action} — draws {cards or 'nothing'}{pile}"
    if kind == "draw_discard":
        return f"{name}: {action} — takes {cards} from the discard pile"
    if kind == "take":
        return f"{name}: take — takes the table: {cards} (stake back to 0)"
    if kind == "take_pile":
        melded = " ".join(event.get("melded", []))
        size = len(event["cards"])
        return f"{name}: {action} — takes the pile ({size}: {cards}), melding {melded}"
    if kind == "meld":
        line = f"{name}: {action} ({cards})"
        if "turn_points" in event and not event.get("opened", True):
            line += f" — initial meld {event['turn_points']} of {event['min_meld']}"
        return line
    if kind == "go_out" and len(event.get("cards", [])) > 1:      # Kuzanasta shows the hand
        return f"{name}: {action} — shows {cards}"
    line = f"{name}: {action}"
    if "stake" in event:
        line += f"   (stake {event['stake']}"
        line += ", counter-clockwise)" if event.get("direction") == -1 else ")"
    return line


def describe(event: Event, seat: int | None, who: Callable[[int], str]) -> str | None:
    """One line for ``event`` as ``seat`` saw it; None when there is nothing to say."""
    kind = event["kind"]
    player = event.get("player")
    name = who(player) if isinstance(player, int) else "table"
    if not event.get("auto"):
        return _action_line(event, name)
    if kind == "dealt":
        return f"You are dealt {_cards(event)}" if player == seat else None
    if kind in ("foot_dealt", "set_aside"):
        return None
    if kind == "deal":
        number = event.get("round") or event.get("deal") or event.get("hand")
        first = int(event.get("first_player", -1))
        return f"— new deal {number}; {who(first)} start{'s' if first != seat else ''}"
    if kind == "draw":
        return f"{name} draw{'s' if player != seat else ''} {_cards(event)} from the stock"
    if kind == "table_cleared":
        return f"{name}'s king clears the table to the discard: {_cards(event)}"
    if kind == "chip":
        return f"{name} now hold{'s' if player != seat else ''} the forget-me chip (KS-7.1)"
    if kind == "out":
        return f"{name} {'are' if player == seat else 'is'} out; the others get final turns"
    if kind == "turn_up":
        return f"turned up {_cards(event)}: wild rank {event.get('wild_rank') or 'none'}"
    if kind == "pile_start":
        return f"pile {event['pile']} starts with {_cards(event)}"
    if kind == "recycle":
        size = len(event["cards"])
        return f"discard pile {event['pile']} turned over as the new stock ({size} cards)"
    if kind == "pile_dead":
        return f"a discard pile leaves play: {_cards(event)} ({event.get('rule')})"
    if kind == "first_discard":
        return f"the pile starts with {_cards(event)}"
    if kind == "red_three":
        team = event.get("team")
        how = "replaced from the stock" if event.get("replaced") else "not replaced"
        plural = "s" if len(event["cards"]) > 1 else ""
        return f"red three{plural} {_cards(event)} laid out for team {team} ({how})"
    if kind == "canasta":
        return f"team {event['team']} completes a {event['type']} canasta of {event['rank']}"
    if kind == "foot":
        return f"{name} pick{'s' if player != seat else ''} up the foot: {_cards(event)}"
    if kind in END_KINDS:
        return None                      # breakdown_lines prints these
    if kind == "match_end":
        return None
    return f"{name}: {kind} {_cards(event)}".rstrip()


def breakdown_lines(event: Event, who: Callable[[int], str]) -> list[str]:
    """The lines of a round/deal/hand-end event: the breakdown with its rule IDs."""
    word = {"round_end": "round", "deal_end": "deal", "hand_end": "hand"}[event["kind"]]
    number = event.get(word)
    lines = []
    if event["kind"] == "deal_end" and event.get("end") != "went_out":
        lines.append(f"— {word} {number} over: void ({event.get('end')}, {event.get('rule')})")
    else:
        lines.append(f"— {word} {number} over ({event.get('score_direction', '')}):")
    b = event.get("breakdown") or {}
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
