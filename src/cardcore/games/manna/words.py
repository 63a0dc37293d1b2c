"""Manna from Heaven in words for the terminal (cardcore.narrate): its own event kinds, and
the templates of its refusals (``explain_rule``) for translation. The texts are msgids of the
game's catalog (``locale/``)."""
from __future__ import annotations

from typing import Any

from cardcore.i18n import N_, P_, _, ngettext
from cardcore.narrate import Event, Line, Phrase, Said, Who, cards_text, mine, personal


def _take_pile(event: Event, seat: int | None, who: Who, name: str) -> str:
    count = len(event["cards"])
    return personal(event.get("player"), seat,
                    P_("{name} took the discard pile ({count}: {cards}) and melded {melded}.")
                    ).format(name=name, count=count, cards=cards_text(event),
                             melded=" ".join(event.get("melded", [])))


MELDED = Line(P_("{name} melded {cards}."))
# MH-4.8: how far a team's first melds of the hand are from the minimum
INITIAL_MELD = Line(N_("Initial meld: {points} of {minimum}."), personal=False,
                    fields={"points": "turn_points", "minimum": "min_meld"})


def _meld(event: Event, seat: int | None, who: Who, name: str) -> Said:
    if "turn_points" in event and not event.get("opened", True):
        return MELDED, " ", INITIAL_MELD
    return MELDED


# A team as its reader names it, as the score table does: "your team", "the opponents"; to
# a spectator "team 1", counted from 1. MH-1: partners sit apart, so a seat's team is its
# parity. One English form per use, since other languages decline the words (Russian «перед
# вашей командой», «собрана соперниками»).
TEAM_WORDS = {
    "name": (N_("your team"), N_("the opponents"), N_("team {n}")),
    "for": (N_("for your team"), N_("for the opponents"), N_("for team {n}")),
    "by": (N_("by your team"), N_("by the opponents"), N_("by team {n}")),
}


def team_words(team: int, seat: int | None, use: str = "name") -> str:
    """``team`` (0 or 1) in the words of ``use`` (``TEAM_WORDS``), from ``seat``'s side."""
    mine, theirs, counted = TEAM_WORDS[use]
    if not isinstance(seat, int):
        return _(counted).format(n=team + 1)
    return _(mine if seat % 2 == team else theirs)


def _red_three(event: Event, seat: int | None, who: Who, name: str) -> str:
    count = len(event["cards"])
    if event.get("replaced"):
        text = ngettext("Red three {cards} laid out {for_team} (replaced from the stock).",
                        "Red threes {cards} laid out {for_team} (replaced from the stock).",
                        count)
    else:
        text = ngettext("Red three {cards} laid out {for_team} (not replaced).",
                        "Red threes {cards} laid out {for_team} (not replaced).", count)
    return text.format(cards=cards_text(event),
                       for_team=team_words(event["team"], seat, "for"))


# A breakdown row's text when its count stands apart ("red threes ({detail})", events.COUNTED).
ROW_TEXTS = (N_("red threes"),)

CANASTA_KINDS = {"natural": N_("natural"), "mixed": N_("mixed"), "wild": N_("wild"),
                 "sevens": N_("sevens")}
CANASTA_SENTENCES = {
    "natural": N_("A natural canasta of {rank} completed {by_team}."),
    "mixed": N_("A mixed canasta of {rank} completed {by_team}."),
    "wild": N_("A wild canasta completed {by_team}."),
    "sevens": N_("A canasta of sevens completed {by_team}."),
}


def _canasta(event: Event, seat: int | None, who: Who, name: str) -> str:
    text = CANASTA_SENTENCES.get(str(event["type"]), CANASTA_SENTENCES["natural"])
    return _(text).format(rank=event.get("rank"),
                          by_team=team_words(event["team"], seat, "by"))


def _deal(event: Event, seat: int | None, who: Who, name: str) -> str:
    first = event.get("first_player")
    minimum = event.get("min_meld") or [0, 0]
    teams = [1, 0] if isinstance(seat, int) and seat % 2 else [0, 1]    # the reader's first
    return mine(first, seat, _("Hand {hand} begins; {name} move first. Initial meld "
                               "minimum: {one_team} — {first}, {other_team} — {second}."),
                _("Hand {hand} begins; {name} moves first. Initial meld minimum: {one_team} — "
                  "{first}, {other_team} — {second}.")).format(
        hand=event.get("hand"), name=who(first) if isinstance(first, int) else "",
        one_team=team_words(teams[0], seat), first=minimum[teams[0]],
        other_team=team_words(teams[1], seat), second=minimum[teams[1]])


def _hand_end(event: Event, seat: int | None, who: Who, reason: str) -> str:
    return _("Hand {hand} is over: {reason}.").format(hand=event.get("hand"), reason=reason)


PHRASES: dict[str, Phrase] = {
    "take_pile": _take_pile, "meld": _meld,
    "first_discard": Line(N_("The discard pile starts with {cards}."), personal=False),
    "red_three": _red_three, "canasta": _canasta,
    "foot": Line(P_("{name} picked up the foot: {cards}.")),
    "foot_dealt": Line(N_("{name} were dealt a foot of {cards}, face down."),
                       N_("{name} was dealt a foot of {cards}, face down.")),
    "retract": Line(P_("{name} took back this turn's melds: {cards}.")),
    "deal": _deal, "hand_end": _hand_end,
}

# Why a hand or the match ended, by the events' ``reason_code``.
REASONS: dict[str, str | tuple[str, str]] = {
    "went_out": (N_("you went out"), N_("{name} went out")),
    "stock_out": N_("the stock ran out"),
    "target": N_("a team reached {target}"),
    "hands": N_("the last of {hands} hands is played"),
}


def canasta_counts(kinds: list[str]) -> str:
    """A team's canastas counted by kind: "2 natural, 1 sevens" (MH-9.1 needs one of each)."""
    counts = {kind: kinds.count(kind) for kind in dict.fromkeys(kinds)}
    return ", ".join(f"{n} {_(CANASTA_KINDS.get(kind, kind))}" for kind, n in counts.items())


REFUSALS = (
    N_("draw is always legal at the draw stage"),
    N_("that take is not legal now"),
    N_("draw first: draw_stock or take the pile"),
    N_("you have already drawn this turn"),
    N_("there are no provisional initial melds to take back"),
    N_("you do not hold {card}"),
    N_("your melds this turn total {points}, below the minimum {minimum}: meld more or retract"),
    N_("going out needs a natural, a mixed, a wild and a sevens canasta"),
    N_("a seven may never be the going-out discard"),
    N_("go out by discarding your last card: you hold more than one"),
    N_("sevens may not be discarded until both teams have a canasta of sevens"),
    N_("you must keep at least one card unless you go out"),
    N_("that meld is not legal now"),
    N_("after a retract you may not meld again this turn"),
    N_("you do not hold the cards for that"),
    N_("your team already has an unfinished meld of that rank: add to it"),
    N_("your team has no unfinished meld of that rank to add to"),
    N_("a meld has at most 7 cards"),
    N_("sevens take no wild cards (option wild_sevens)"),
    N_("a meld needs 3 to 7 cards, at least two naturals and at most three wild cards"),
    N_("while the initial meld is short, a canasta must reach the minimum"),
    N_("black threes are melded only as the last meld before going out"),
    N_("you must keep a card to discard and one to hold unless you can go out"),
    N_("that would leave a seven as your going-out discard"),
    N_("after taking the pile your melds must still be able to reach the minimum"),
    N_("the discard pile is empty"),
    N_("the pile cannot be taken when its top card is a wild card or a three"),
    N_("the pile is frozen (a wild card or red three in it, or your team has not opened): "
       "take it only with a natural pair"),
    N_("that way of taking the pile does not fit your team's melds of that rank"),
)

NOTATION = (
    ("draw", N_("draw two cards from the stock (MH-3.1)")),
    ("take add", N_("take the pile: its top card goes onto your team's unfinished meld of "
                    "its rank (MH-5.3)")),
    ("take pair", N_("take the pile with a natural pair of the top card's rank from your "
                     "hand")),
    ("take natural+two", N_("take the pile: a new meld of the top card, one natural from "
                            "your hand and a two (+joker: a joker)")),
    ("meld K K K 2", N_("a new meld: three kings and a two (ranks only: suits do not "
                        "matter)")),
    ("add to K: K JK", N_("add a king and a joker to your team's unfinished meld of kings")),
    ("meld 2 2 JK", N_("a wild meld (twos and jokers); add to wild: JK adds to it")),
    ("retract", N_("take back this turn's provisional initial melds (MH-4.8)")),
    ("discard 9S", N_("discard a card and end the turn")),
    ("out 9S", N_("go out by discarding your last card (MH-9)")),
)


def explain_notation(words: list[str], hand: list[str]) -> tuple[str, str] | None:
    """Why a written ``meld``/``add to`` is no meld of the game: too few or too many cards
    (MH-4.1, MH-4.2)."""
    if not words or words[0].lower() != "meld":
        return None
    count = len(words) - 1
    if count < 3 or count > 7:
        return (N_("a meld needs 3 to 7 cards, at least two naturals and at most three wild "
                   "cards"), "MH-4.2")
    return None


def not_alone(game: Any, seat: int) -> dict[int, str]:
    """The melds of a team's first meld of the hand that do not reach the initial-meld
    minimum by themselves (MH-4.8): legal, since more melds may follow this turn, but the
    turn cannot end on them (a discard is refused until they do). Each tried on a copy of
    the game: the count is the engine's, not a second table of card points here."""
    view = game.view(seat)
    team = view["team"]
    if game.current_player != seat or view["opened"][team]:
        return {}
    minimum = view["min_meld"][team]
    short = {}
    for action in game.legal_actions():
        if action.kind != "meld":
            continue
        trial = game.clone()
        trial.apply(action.id, player=seat)
        points = trial.view(seat)["turn_points"]
        if points < minimum:
            short[action.id] = _("not enough alone: {points} of the {minimum} a first meld "
                                 "needs").format(points=points, minimum=minimum)
    return short


# The moves in words, for the terminal's list of moves («Выложить 9H 9C 2C»): the web table's
# captions (web/board.js ``actions``; tests/test_move_words.py holds them equal).
MOVE_WORDS = {"draw_stock": N_("Draw from the stock"), "discard": N_("Discard"),
              "go_out": N_("Go out"), "take_pile": N_("Take the pile"), "meld": N_("Meld"),
              "retract": N_("Take back melds")}

# How a take of the pile meets its top card (the notation's ``take add`` ...: MH-5.3).
TAKE_WAYS = {"add": N_("onto your team's meld"), "pair": N_("with a natural pair"),
             "natural+two": N_("with a natural and a two"),
             "natural+joker": N_("with a natural and a joker")}


def move_words(notation: str) -> str | None:
    """A move in the reader's words where Manna's notation is not its kind and cards
    (``draw``, ``take pair``, ``add to K: K JK``, ``out 7H``): «Взять сброс (с парой
    натуральных)», «Добавить к K: K JK»; None for the others (their captions)."""
    kind, _sep, rest = notation.partition(" ")
    if notation == "draw":
        return _(MOVE_WORDS["draw_stock"])
    if kind == "take" and rest in TAKE_WAYS:
        return _("{take} ({how})").format(take=_(MOVE_WORDS["take_pile"]), how=_(TAKE_WAYS[rest]))
    if kind == "add" and rest.startswith("to "):
        meld, _colon, cards = rest[3:].partition(": ")
        if meld == "wild":
            return _("Add to the wild meld: {cards}").format(cards=cards)
        return _("Add to {rank}: {cards}").format(rank=meld, cards=cards)
    if kind == "out":
        return f"{_(MOVE_WORDS['go_out'])} {rest}"
    return None
