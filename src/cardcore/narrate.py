"""Plain-text narration of events (``Game.events``) for terminal and log front ends.

``describe(event, seat, who, game)`` turns one event, as ``seat`` saw it, into a line of text
(None for events not worth a line, e.g. another seat's hidden deal). ``who(k)`` names a seat
("you", "seat 2 (greedy)"). The words for a game's own event kinds are the game's
(``Game.phrases``, in its package's ``words.py``); this module has the words every card game
shares and the fallbacks. A phrase is a ``Line`` (a msgid filled from the event, in C:
cardcore._render; the wire's texts are every event's for every reader, so most phrases are
Lines), Lines in order, or a function that says which. ``breakdown_lines`` spells out the
end of a round (the game's ``round_end_event``) with its scoring breakdown.

Both take ``lang=`` ("en" or "ru", cardcore.i18n): the words come from the game's message
catalog, then the shared one; rule IDs and notations stay as they are.
"""
from __future__ import annotations

import functools
import importlib
from collections.abc import Sequence
from typing import Any, Callable, Mapping, Union

from cardcore._render import Line, cards_text, say  # cards_text: the Lines' own
from cardcore.cards import card_id, sort_key
from cardcore.i18n import (DEFAULT_LANG, N_, P_, _, current, current_lang, fields_of, fill, fill_template,
                           ngettext, personal, use)

__all__ = ["Event", "Who", "Phrase", "PhraseFunction", "Said", "Line", "say", "action_line",
           "breakdown_lines", "cards_text", "describe", "event_text", "reason_text", "row_text",
           "seat_name", "sentence", "verb", "mine", "personal", "hand_order", "slots_text",
           "move_in_words"]

Event = dict[str, Any]
# A breakdown label whose detail is a count ("red threes ({detail})"): a row's ``text`` is the
# label without it, the count apart (cardcore.events.Narrator.row_words).
COUNTED = " ({detail})"
Who = Callable[[int], str]
# What a phrase says: a line, a Line filled from the event, Lines (and strings) in order, or
# None (nothing to say).
Said = Union[str, Line, tuple[Union[str, Line], ...], None]
# A phrase: a Line or Lines (told in C, with no Python run: cardcore._render), or a function
# (event, seat that saw it, who, the name of the event's player) -> what to say.
PhraseFunction = Callable[[Event, Union[int, None], Who, str], Said]
Phrase = Union[PhraseFunction, tuple[Union[str, Line], ...]]


# The words of unseen cards, said in C (``cards_text``, cardcore._render): marked here for the
# catalog, as a game's plural refusals are.
UNSEEN_WORDS = (N_("{shown} and {hidden} unseen"),
                lambda n: ngettext("{n} card", "{n} cards", n))


def verb(base: str, player: Any, seat: int | None) -> str:
    """``base`` for the seat itself ("you draw"), with an s for the others ("seat 2 draws").
    English only: translated phrases choose between two whole sentences with ``mine``."""
    return base if player == seat else base + "s"


def mine(player: Any, seat: int | None, yours: str, theirs: str) -> str:
    """The sentence for the seat itself (``yours``: "you draw") or for another seat
    (``theirs``: "seat 2 draws"): in Russian the verb agrees with the person, so each
    form is a whole msgid."""
    return yours if player == seat else theirs


def _deal_line(event: Event, seat: int | None, who: Who, number: Any) -> str:
    first = event.get("first_player")
    if not isinstance(first, int):
        return _("Deal {number} begins.").format(number=number)
    return mine(first, seat, _("Deal {number} begins; {name} move first."),
                _("Deal {number} begins; {name} moves first.")).format(number=number,
                                                                        name=who(first))


def action_line(event: Event, name: str) -> str:
    """The plain line of an action event: who, then the notation (a fallback: every kind of
    the games has its sentence)."""
    return f"{name}: {event.get('action', event['kind'])}"


DREW_NOTHING = Line(P_("{name} could draw nothing: the stock is empty."))
DREW_FROM_PILE = Line(P_("{name} drew {cards} from stock pile {pile}."))
DREW = Line(P_("{name} drew {cards} from the stock."))


def _draw_stock(event: Event, seat: int | None, who: Who, name: str) -> Said:
    if not event.get("cards") and not event.get("hidden"):
        return DREW_NOTHING
    return DREW_FROM_PILE if "pile" in event else DREW


WENT_OUT_SHOWING = Line(P_("{name} went out, showing {cards}."))
WENT_OUT_DISCARDING = Line(P_("{name} went out, discarding {cards}."))


def _go_out(event: Event, seat: int | None, who: Who, name: str) -> Said:
    # going out shows the hand, or discards the last card
    return WENT_OUT_SHOWING if len(event.get("cards", [])) > 1 else WENT_OUT_DISCARDING


# The words of kinds every card game has; a game's own phrases take precedence.
COMMON: dict[str, Phrase] = {
    "dealt": Line(N_("{name} were dealt {cards}."), N_("{name} was dealt {cards}.")),
    "draw_stock": _draw_stock, "go_out": _go_out,
    "discard": Line(P_("{name} discarded {cards}.")),
    "end_turn": Line(P_("{name} ended the turn.")),
}


def move_in_words(notation: str, words: Any, phase: str | None = None) -> str:
    """A move's notation in the reader's words (the current language): the caption of its
    kind, from the game's words module (``MOVE_WORDS``, or ``PHASE_MOVE_WORDS`` for
    ``phase``: the web table's captions), then the rest of the notation ("Побить 7C"), or
    the game's own words for a notation (its words module's ``move_words``, where a
    notation is not a kind and its cards). In English, or for a kind without words, the notation itself."""
    if current_lang() == DEFAULT_LANG:
        return notation
    own = getattr(words, "move_words", None)      # a notation that is not kind + cards
    said = own(notation) if own is not None else None
    if said is not None:
        return str(said)
    kind, _sep, rest = notation.partition(" ")
    caption = getattr(words, "PHASE_MOVE_WORDS", {}).get(phase, {}).get(kind) \
        or getattr(words, "MOVE_WORDS", {}).get(kind)
    return notation if caption is None else " ".join(filter(None, (_(caption), rest)))


def slots_text(slots: Sequence[Mapping[str, Any]]) -> str:
    """A zone laid out in pairs (a view's ``slots``) as text: each card and its cover
    ("7H/8H"), an open card marked ("8C (not beaten)"), slots apart by two spaces."""
    return "  ".join(f"{s['card']}/{s['cover']}" if s["cover"] is not None
                     else _("{card} (not beaten)").format(card=s["card"]) for s in slots)


def seat_name(seat: int | None) -> Who:
    """The names of the wire's texts (``Game.events``) in the current language: "you" for
    ``seat`` itself, "player 3" for the others, counted from 1 as players count (the terminal passes its own ``who``, with the
    bots' names). One namer per language and seat, its names made once."""
    key = (current(), seat)
    try:
        return _NAMERS[key]
    except KeyError:
        who = _NAMERS[key] = _Names(seat).__getitem__
        return who


class _Names(dict[int, str]):
    """Seat -> its name for one reader, each made on its first asking: its ``__getitem__`` is
    the namer (a C call, not a Python function: texts name a seat or two each)."""

    __slots__ = ("seat",)

    def __init__(self, seat: int | None) -> None:
        super().__init__()
        self.seat = seat

    def __missing__(self, k: int) -> str:
        name = self[k] = _("you") if k == self.seat else _("player {number}").format(number=k + 1)
        return name


_NAMERS: dict[tuple[Any, int | None], Who] = {}


def sentence(text: str) -> str:
    """A text as a sentence: its first letter upper case (names start lower case)."""
    return text[0].upper() + text[1:] if text and text[0].islower() else text


def describe(event: Event, seat: int | None, who: Who, game: Any,
             lang: str = DEFAULT_LANG) -> str | None:
    """One line for ``event`` as ``seat`` saw it in ``game`` (a Game or its class), in
    ``lang``; None when the terminal has nothing to say (another seat's hidden deal, the
    round end whose lines ``breakdown_lines`` gives). The line is the event's ``text`` on the
    wire (``event_text``), with the terminal's names."""
    with use(lang, game):
        kind = event["kind"]
        if kind == game.round_end_event or kind in SILENT:
            return None
        if kind in ("dealt", "foot_dealt") and event.get("player") != seat:
            return None
        return _event_text(event, seat, who, game)


# Kinds the terminal leaves out (it prints the match's end itself); they have a text on the
# wire all the same.
SILENT = frozenset({"match_end", "set_aside"})


def event_text(event: Event, seat: int | None, game: Any, lang: str = DEFAULT_LANG,
               who: Who | None = None) -> str:
    """The whole sentence of ``event`` (as rendered for ``seat``: it names only the cards that
    seat saw) in ``lang``: the ``text`` of ``Game.events``. ``who`` names seats (default:
    "you" / "player 3")."""
    with use(lang, game):
        return _event_text(event, seat, who or seat_name(seat), game)


def _event_text(event: Event, seat: int | None, who: Who, game: Any) -> str:
    kind = event["kind"]
    if kind == game.round_end_event:
        return sentence(round_heading(event, seat, who, game))
    if kind == "match_end":
        return sentence(match_text(event, seat, who, game))
    player = event.get("player")
    name = who(player) if type(player) is int else _("the table")
    phrase = game.phrases.get(kind) or COMMON.get(kind)
    said = phrase if isinstance(phrase, tuple) else phrase(event, seat, who, name) if phrase \
        else None
    text = say(said, event, seat, who, name)
    if text is None:
        text = (_deal_line(event, seat, who, event.get(game.round_name)) if kind == "deal"
                else action_line(event, name))
    # sentence(text), inline: a call fewer for every event of every game
    return text[0].upper() + text[1:] if text and text[0].islower() else text


def phrases_of(game: Any) -> dict[str, Phrase]:
    """Event kind -> its phrase for ``game`` (a Game or its class): the game's, else the
    shared one; without the round and match ends, which ``_event_text`` words itself.
    (``Game.events`` tells these in C, cardcore._render.Teller.)"""
    cls = game if isinstance(game, type) else type(game)
    return _phrases_of(cls, game.round_end_event)


@functools.lru_cache(maxsize=None)
def _phrases_of(cls: type, round_end: str) -> dict[str, Phrase]:
    own = {kind: phrase for kind, phrase in cls.phrases.items() if phrase}   # type: ignore[attr-defined]
    return {kind: phrase for kind, phrase in {**COMMON, **own}.items()
            if kind not in (round_end, "match_end")}


def reason_text(event: Event, seat: int | None, who: Who, game: Any) -> str:
    """The reason of a round or match end (its ``reason_code``) in words: the game's
    ``reasons`` msgid for the code, its ``{name}`` the seat ``reason_seat`` (two msgids,
    for "you" and for another seat, where the verb agrees)."""
    code = event.get("reason_code")
    words = game.reasons.get(code) if isinstance(code, str) else None
    if words is None:
        return _("the rules end it")
    actor = event.get("reason_seat")
    if isinstance(words, tuple):
        words = words[0] if actor == seat and actor is not None else words[1]
    template = _(words)
    values = {}
    for k in fields_of(template):               # the event's own, where a number or word
        v = event.get(k)
        if isinstance(v, (int, str)):
            values[k] = str(v)
    values["name"] = who(actor) if isinstance(actor, int) else _("a player")
    return fill(template, values)


def round_heading(event: Event, seat: int | None, who: Who, game: Any) -> str:
    """The first line of a round end: which round, and why it ended."""
    heading = game.phrases.get(event["kind"])
    reason = reason_text(event, seat, who, game)
    if heading is not None:              # a round end's phrase gets the reason as its name
        title = heading(event, seat, who, reason)
        if title is not None:
            return str(title)
    word = game.round_name
    return _("{round} {number} is over: {reason}.").format(
        round=_(word), number=event.get(word), reason=reason)


def match_text(event: Event, seat: int | None, who: Who, game: Any) -> str:
    own = game.phrases.get("match_end")      # a game whose match is one round says it so
    if own is not None:
        return str(own(event, seat, who, reason_text(event, seat, who, game)))
    winners = [w for w in event.get("winners", []) if isinstance(w, int)]
    names = ", ".join(who(w) for w in winners)
    return ngettext("The match is over: {reason}. Winner: {names}.",
                    "The match is over: {reason}. Winners: {names}.", len(winners)).format(
        reason=reason_text(event, seat, who, game), names=names)


def row_text(component: Mapping[str, Any], game: Any) -> str:
    """A breakdown row's words (its ``text``, without its count) in the current language."""
    text = str(component.get("text", component.get("what", "")))
    source = _label_source(game)
    key = (current()[1], text, source)
    try:
        return _ROWS[key]
    except KeyError:
        pass
    words = fill_template(text, _source_labels(source))
    if len(_ROWS) < 100_000:                     # rows' texts: bounded in practice
        _ROWS[key] = words
    return words


# (catalogs, row text, where the game's labels come from) -> the row's words: each round end
# has several, matched against the labels' templates once.
_ROWS: dict[tuple[Any, str, type], str] = {}


def score_direction(text: str) -> str:
    """A game's ``score_direction`` ("lower is better") in the current language."""
    return _(text)


DIRECTIONS = (N_("higher is better"), N_("lower is better"))   # Game.score_direction


def breakdown_lines(event: Event, who: Who, game: Any, lang: str = DEFAULT_LANG,
                    seat: int | None = None) -> list[str]:
    """The lines of a round-end event (``game.round_end_event``) as ``seat`` saw it: its
    heading (the event's ``text``, with the reason), then the breakdown's rows, in
    ``lang``."""
    with use(lang, game):
        return _breakdown_lines(event, who, game, seat)


def _breakdown_lines(event: Event, who: Who, game: Any, seat: int | None = None) -> list[str]:
    direction = score_direction(event.get("score_direction", ""))
    lines = [sentence(round_heading(event, seat, who, game)),
             _("    points ({direction}):").format(direction=direction)]
    b: Mapping[str, Any] = event.get("breakdown") or {}
    # A player's row: no rule ID (issue 48; the rulebook gives them), the count in the game's
    # words where it has them ("... (8 cards) — 1")
    with_count = _("    {owner}: {what} ({count}) — {points}")
    without = _("    {owner}: {what} — {points}")
    counted = _count_words(game)
    for c in b.get("components", []):
        owner = (who(c["seat"]) if "seat" in c else _("team {team}").format(team=c["team"]))
        count = c.get("count")
        if counted is not None and count is not None:
            count = counted(str(c.get("what", "")), count)    # "8 cards"; "" shows none
        lines.append((with_count if count not in (None, "") else without).format(
            owner=owner, what=row_text(c, game), count=count, points=c["points"]))
    totals = b.get("totals", [])
    if totals:
        by_team = b.get("by") == "team"
        lines.append(_("    totals: {totals}").format(totals=", ".join(
            f"{_team_name(b, k, seat, who) if by_team else who(k)} {t:+d}"
            for k, t in enumerate(totals))))
    if "scores" in event:
        lines.append(_("    scores now: {scores}").format(scores=", ".join(
            f"{who(k)} {s}" for k, s in enumerate(event["scores"]))))
    return lines


def _team_name(breakdown: Mapping[str, Any], team: int, seat: int | None, who: Who) -> str:
    """A team as its reader names it, with its players (the breakdown's rows give each
    seat's team): "your team (you, player 3)", "opponents (player 2, player 4)"; to a
    spectator "team 1 (...)", counted from 1."""
    members = sorted({c["seat"] for c in breakdown.get("components", [])
                      if c.get("team") == team and isinstance(c.get("seat"), int)})
    mine = [c.get("team") for c in breakdown.get("components", []) if c.get("seat") == seat]
    names = ", ".join(who(k) for k in members)
    if seat is None or not mine:
        return _("team {n} ({names})").format(n=team + 1, names=names)
    if mine[0] == team:
        return _("your team ({names})").format(names=names)
    return _("opponents ({names})").format(names=names)


def _count_words(game: Any) -> Callable[[str, int], str] | None:
    """The game's words for a breakdown row's count (its words module's ``count_words``:
    "8 cards"), or None: the bare number."""
    return getattr(words_module(game), "count_words", None)


def words_module(game: Any) -> Any:
    """The game's ``words`` module (its package's terminal words), or None."""
    cls = game if isinstance(game, type) else type(game)
    try:
        return importlib.import_module(cls.__module__ + ".words")
    except ImportError:
        return None


def breakdown_labels(game: Any) -> tuple[str, ...]:
    """The words of the game's breakdown rows (its state class's ``breakdown_what``): msgids
    of its catalog, with ``{detail}`` where a row names e.g. its set."""
    return _source_labels(_label_source(game))


def _label_source(game: Any) -> type:
    """What says a game's breakdown labels: its state's class, or (no state) its class."""
    state = getattr(game, "_state", None)
    if state is None:
        return game if isinstance(game, type) else type(game)
    return type(state)


@functools.lru_cache(maxsize=None)
def _source_labels(source: type) -> tuple[str, ...]:
    if hasattr(source, "breakdown_what"):
        return _labels(tuple(source.breakdown_what))
    return _state_labels(source)


@functools.lru_cache(maxsize=None)
def _labels(what: tuple[str, ...]) -> tuple[str, ...]:
    """The labels, and those whose detail is a count without it (a row's ``text``)."""
    return what + tuple(w.replace(COUNTED, "") for w in what if COUNTED in w)


@functools.lru_cache(maxsize=None)
def _state_labels(cls: type) -> tuple[str, ...]:
    return _labels(tuple(type(cls(seed=0)._state).breakdown_what))


def hand_order(legal: Sequence[Any], hand: Sequence[str]) -> list[Any]:
    """The moves in the order of the hand as shown: kind by kind (in the order the ids list
    them: draw before discard, plays before take), within a kind by the position of the hand
    cards each plays; a kind whose moves name cards not held (a God draw's choices) by its
    cards in the order a hand is shown (rank, then suit)."""
    position: dict[str, list[int]] = {}
    for i, card in enumerate(hand):
        position.setdefault(card, []).append(i)
    kinds: dict[str, int] = {}
    for action in legal:
        kinds.setdefault(action.kind, len(kinds))

    def shown(card: str) -> tuple[int, int]:
        try:
            return sort_key(card_id(card))
        except ValueError:
            return (99, 0)

    def held(action: Any) -> tuple[int, ...] | None:
        spots = {c: list(p) for c, p in position.items()}
        used = []
        for card in action.cards:
            card = card.split("=")[0]
            if not spots.get(card):
                return None
            used.append(spots[card].pop(0))
        return tuple(sorted(used))
    places = {id(a): held(a) for a in legal}
    drawn = {a.kind for a in legal if places[id(a)] is None}

    def key(action: Any) -> tuple[int, tuple[Any, ...]]:
        if action.kind in drawn:
            return (kinds[action.kind], tuple(sorted(shown(c.split("=")[0])
                                                     for c in action.cards)))
        return (kinds[action.kind], places[id(action)] or ())
    return sorted(legal, key=key)
