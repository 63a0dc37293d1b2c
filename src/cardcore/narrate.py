"""Plain-text narration of events (``Game.events``) for terminal and log front ends.

``describe(event, seat, who, game)`` turns one event, as ``seat`` saw it, into a line of text
(None for events not worth a line, e.g. another seat's hidden deal). ``who(k)`` names a seat
("you", "seat 2 (greedy)"). The words for a game's own event kinds are the game's
(``Game.phrases``, in its package's ``words.py``); this module has the words every card game
shares and the fallbacks. ``breakdown_lines`` spells out the end of a round (the game's
``round_end_event``) with its scoring breakdown.

Both take ``lang=`` ("en" or "ru", cardcore.i18n): the words come from the game's message
catalog, then the shared one; rule IDs and notations stay as they are.
"""
from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, Callable, Mapping, Union

from cardcore.i18n import DEFAULT_LANG, N_, _, fill_template, ngettext, use

__all__ = ["Event", "Who", "Phrase", "action_line", "breakdown_lines", "cards_text", "describe",
           "hand_order", "verb", "mine"]

Event = dict[str, Any]
Who = Callable[[int], str]
# A phrase: (event, seat that saw it, who, the name of the event's player) -> a line or None.
Phrase = Callable[[Event, Union[int, None], Who, str], Union[str, None]]


def cards_text(event: Event) -> str:
    """The event's cards as the seat saw them: named ones, then how many were unseen."""
    shown = " ".join(event.get("cards", []))
    hidden = event.get("hidden", 0)
    if shown and hidden:
        return _("{shown} and {hidden} unseen").format(shown=shown, hidden=hidden)
    if hidden:
        return ngettext("{n} card", "{n} cards", hidden).format(n=hidden)
    return shown


def verb(base: str, player: Any, seat: int | None) -> str:
    """``base`` for the seat itself ("you draw"), with an s for the others ("seat 2 draws").
    English only: translated phrases choose between two whole sentences with ``mine``."""
    return base if player == seat else base + "s"


def mine(player: Any, seat: int | None, yours: str, theirs: str) -> str:
    """The sentence for the seat itself (``yours``: "you draw") or for another seat
    (``theirs``: "seat 2 draws"): in Russian the verb agrees with the person, so each
    form is a whole msgid."""
    return yours if player == seat else theirs


def _dealt(event: Event, seat: int | None, who: Who, name: str) -> str | None:
    if event.get("player") != seat:
        return None
    return _("You are dealt {cards}").format(cards=cards_text(event))


def _deal_line(event: Event, seat: int | None, who: Who, number: Any) -> str:
    first = event.get("first_player")
    if not isinstance(first, int):
        return _("— new deal {number}").format(number=number)
    return mine(first, seat, _("— new deal {number}; {name} start"),
                _("— new deal {number}; {name} starts")).format(number=number, name=who(first))


def action_line(event: Event, name: str) -> str:
    """The plain line of an action event: who, then the notation."""
    return f"{name}: {event.get('action', event['kind'])}"


def _draw_stock(event: Event, seat: int | None, who: Who, name: str) -> str | None:
    cards = cards_text(event) or _("nothing")
    if "pile" in event:
        return _("{line} — draws {cards} from stock {pile}").format(
            line=action_line(event, name), cards=cards, pile=event["pile"])
    return _("{line} — draws {cards}").format(line=action_line(event, name), cards=cards)


def _go_out(event: Event, seat: int | None, who: Who, name: str) -> str | None:
    if len(event.get("cards", [])) > 1:                  # going out shows the hand
        return _("{line} — shows {cards}").format(line=action_line(event, name),
                                                   cards=cards_text(event))
    return action_line(event, name)


def _silent(event: Event, seat: int | None, who: Who, name: str) -> str | None:
    return None


# The words of kinds every card game has; a game's own phrases take precedence. A phrase
# that gives None means: no line for this event.
COMMON: dict[str, Phrase] = {
    "dealt": _dealt, "draw_stock": _draw_stock, "go_out": _go_out, "match_end": _silent,
}


def describe(event: Event, seat: int | None, who: Who, game: Any,
             lang: str = DEFAULT_LANG) -> str | None:
    """One line for ``event`` as ``seat`` saw it in ``game`` (a Game or its class), in
    ``lang``; None when there is nothing to say."""
    with use(lang, game):
        return _describe(event, seat, who, game)


def _describe(event: Event, seat: int | None, who: Who, game: Any) -> str | None:
    kind = event["kind"]
    player = event.get("player")
    name = who(player) if isinstance(player, int) else _("table")
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


def score_direction(text: str) -> str:
    """A game's ``score_direction`` ("lower is better") in the current language."""
    return _(text)


DIRECTIONS = (N_("higher is better"), N_("lower is better"))   # Game.score_direction


def breakdown_lines(event: Event, who: Who, game: Any, lang: str = DEFAULT_LANG) -> list[str]:
    """The lines of a round-end event (``game.round_end_event``): the breakdown with its
    rule IDs, in ``lang``. A game's phrase for that kind, if it has one, gives the heading
    line (e.g. a round that ended without a score)."""
    with use(lang, game):
        return _breakdown_lines(event, who, game)


def _breakdown_lines(event: Event, who: Who, game: Any) -> list[str]:
    word = game.round_name
    heading = game.phrases.get(event["kind"])
    title = heading(event, None, who, "") if heading is not None else None
    direction = score_direction(event.get("score_direction", ""))
    lines = [title or _("— {round} {number} over ({direction}):").format(
        round=_(word), number=event.get(word), direction=direction)]
    b: Mapping[str, Any] = event.get("breakdown") or {}
    labels = breakdown_labels(game)
    for c in b.get("components", []):
        owner = (who(c["seat"]) if "seat" in c else _("team {team}").format(team=c["team"]))
        count = f" {c['count']}" if "count" in c else ""
        what = fill_template(c["what"], labels)
        lines.append(f"    {owner}: {what}{count} → {c['points']:+d}  [{c['rule']}]")
    totals = b.get("totals", [])
    if totals:
        unit = _("team") if b.get("by") == "team" else _("seat")
        lines.append(_("    totals: {totals}").format(totals=", ".join(
            f"{unit} {k} {t:+d}" for k, t in enumerate(totals))))
    if "scores" in event:
        lines.append(_("    scores now: {scores}").format(scores=", ".join(
            f"{who(k)} {s}" for k, s in enumerate(event["scores"]))))
    return lines


def breakdown_labels(game: Any) -> tuple[str, ...]:
    """The words of the game's breakdown rows (its state class's ``breakdown_what``): msgids
    of its catalog, with ``{detail}`` where a row names e.g. its set."""
    state = getattr(game, "_state", None)
    if state is None:
        return _state_labels(game if isinstance(game, type) else type(game))
    return tuple(type(state).breakdown_what)


@functools.lru_cache(maxsize=None)
def _state_labels(cls: type) -> tuple[str, ...]:
    return tuple(type(cls(seed=0)._state).breakdown_what)


def hand_order(legal: Sequence[Any], hand: Sequence[str]) -> list[Any]:
    """The moves in the order of the hand as shown: kind by kind (in the order the ids list
    them: draw before discard, plays before take), within a kind by the position of the hand
    cards each plays."""
    position: dict[str, list[int]] = {}
    for i, card in enumerate(hand):
        position.setdefault(card, []).append(i)
    kinds: dict[str, int] = {}
    for action in legal:
        kinds.setdefault(action.kind, len(kinds))

    def key(action: Any) -> tuple[int, tuple[int, ...]]:
        spots = {c: list(p) for c, p in position.items()}
        used = []
        for card in action.cards:
            card = card.split("=")[0]
            if spots.get(card):
                used.append(spots[card].pop(0))
        return (kinds[action.kind], tuple(sorted(used)))
    return sorted(legal, key=key)
