"""Crazy Eights in words for the terminal (cardcore.narrate): its actions and event kinds."""
from __future__ import annotations

from cardcore.narrate import Event, Phrase, Who, action_line, cards_text, verb

REASONS = {"out": "{who} went out", "max_turns": "the plays allowed (max_turns) are used up",
           "passes": "every player passed with the stock empty"}


def _next(event: Event, who: Who) -> str:
    """Who plays next and what they follow, when the turn passes."""
    if "next_player" not in event or event["next_player"] == event.get("player"):
        return ""
    return f" — {who(event['next_player'])} next, suit {event['suit']}"


def _play(event: Event, seat: int | None, who: Who, name: str) -> str:
    line = action_line(event, name)
    if event.get("next_player") == event.get("player"):
        cards = event.get("cards", [])
        eight = bool(cards) and cards[0].startswith("8")
        player = event.get("player")
        return line + (f" — and {verb('nominate', player, seat)} a suit" if eight
                       else f" — and {verb('play', player, seat)} again")
    return line + _next(event, who)


def _nominate(event: Event, seat: int | None, who: Who, name: str) -> str:
    return action_line(event, name) + _next(event, who)


def _draw(event: Event, seat: int | None, who: Who, name: str) -> str:
    player = event.get("player")
    what = cards_text(event) or "nothing"
    if event.get("rule") == "CE-4.4":                     # a draw-two debt, all at once
        line = f"{name} {verb('take', player, seat)} the debt: {what}"
    else:
        line = f"{name} {verb('draw', player, seat)} {what}"
    return line + f" (stock {event.get('stock_size')})" + _next(event, who)


def _pass(event: Event, seat: int | None, who: Who, name: str) -> str:
    passes = "pass" if event.get("player") == seat else "passes"
    return f"{name} {passes}" + _next(event, who)


def _deal(event: Event, seat: int | None, who: Who, name: str) -> str:
    dealer: int = event["dealer"]
    return f"— hand {event.get('hand')}: {who(dealer)} {verb('deal', dealer, seat)}; " \
           f"stock {event.get('stock_size')}"


def _reburied(event: Event, seat: int | None, who: Who, name: str) -> str:
    where = "to the bottom of the stock" if event.get("place") == "bottom" else \
        "back into the stock at random"
    eights = "an eight goes" if len(event.get("cards", [])) == 1 else "the eights go"
    return f"turned up {cards_text(event)}: {eights} {where} (CE-2.4)"


def _turn_up(event: Event, seat: int | None, who: Who, name: str) -> str:
    first: int = event["first_player"]
    line = f"turned up {cards_text(event)} — suit {event.get('suit')}; " \
           f"{who(first)} {verb('play', first, seat)} first"
    if event.get("direction") == -1:
        line += ", down the seats"
    if event.get("draw_two_owed"):
        line += f", owing {event['draw_two_owed']}"
    if event.get("rule") == "CE-4.5":
        line += " (the turn-up acts as if the dealer had played it)"
    return line


def _reshuffle(event: Event, seat: int | None, who: Who, name: str) -> str:
    moved = len(event.get("cards", [])) + event.get("hidden", 0)
    return f"the discard pile but its top card ({moved} card{'s' if moved != 1 else ''}) " \
           f"becomes the stock"


def _drew(event: Event, seat: int | None, who: Who, name: str) -> str:
    return f"{name} {verb('take', event.get('player'), seat)} the rest of the debt from the " \
           f"new stock: {cards_text(event)}"


def _hand_end(event: Event, seat: int | None, who: Who, name: str) -> str:
    reason = REASONS.get(event.get("reason", ""), "the hand is over")
    out = next((p for p, hand in enumerate(event.get("hands", [])) if not hand), None)
    reason = reason.format(who=who(out) if out is not None else "a player")
    return f"— hand over: {reason}; penalty points ({event.get('score_direction', '')}):"


PHRASES: dict[str, Phrase] = {
    "play": _play, "nominate": _nominate, "draw": _draw, "pass": _pass, "deal": _deal,
    "reburied": _reburied, "turn_up": _turn_up, "reshuffle": _reshuffle, "drew": _drew,
    "hand_end": _hand_end,
}
