"""Gin Rummy in words for the terminal (cardcore.narrate): its actions and event kinds, and
the templates of its refusals (``explain_rule``) for translation. The texts are msgids of the
game's catalog (``locale/``)."""
from __future__ import annotations

from cardcore.i18n import N_, P_, _
from cardcore.narrate import Event, Line, Phrase, Said, Who

# Why the hand (the match: GR-8, GR-11) ended, by the events' ``reason_code``.
REASONS: dict[str, str | tuple[str, str]] = {
    "knock": (N_("you knocked"), N_("{name} knocked")),
    "wall": N_("two cards were left in the stock and nobody knocked"),
    "upcards": N_("the upcard was drawn fifty times"),
    "repeated": N_("both players put back the upcard they drew"),
    "one_hand": N_("its one hand is played"),
    "match_to": N_("a player's points reached the game's target"),
    "hands": N_("the fiftieth hand is played"),
}

# Who plays next, when the turn passes.
NEXT = Line(N_(" Next: {name}."), of="next_player", personal=False)


def _passes(event: Event) -> bool:
    """Whether the turn passes to another seat (``NEXT`` says to whom)."""
    return "next_player" in event and event["next_player"] != event.get("player")


def _with_next(line: Line) -> Phrase:
    def phrase(event: Event, seat: int | None, who: Who, name: str) -> Said:
        return (line, NEXT) if _passes(event) else line
    return phrase


TOOK_UPCARD = Line(P_("{name} took the upcard {cards}."), nothing=N_("nothing"))
DREW = Line(P_("{name} drew {cards} from the stock."), nothing=N_("a card"))
DISCARDED = Line(P_("{name} discarded {cards}."))
LAID_OFF = Line(P_("{name} laid off {cards}."))
MELDED = Line(P_("{name} laid the meld {cards}."))
KNOCKED = Line(P_("{name} knocked."))
PASSED = Line(P_("{name} passed."))
BIG_GIN = Line(P_("{name} kept all eleven cards: big gin."))


def _card(event: Event, seat: int | None, who: Who, name: str) -> Said:
    line = LAID_OFF if event.get("rule") == "GR-7.1" else DISCARDED
    return (line, NEXT) if _passes(event) else line


def _pass(event: Event, seat: int | None, who: Who, name: str) -> Said:
    line = BIG_GIN if event.get("rule") == "GR-6.4" else PASSED
    return (line, NEXT) if _passes(event) else line


def _hand_end_phrase(event: Event, seat: int | None, who: Who, reason: str) -> str:
    return _("The hand is over: {reason}.").format(reason=reason)


PHRASES: dict[str, Phrase] = {
    "draw_upcard": _with_next(TOOK_UPCARD),
    "draw_stock": _with_next(DREW),
    "play_card": _card,
    "meld": _with_next(MELDED),
    "knock": _with_next(KNOCKED),
    "pass": _pass,
    "deal": Line(P_("Hand {hand}: {name} dealt; stock: {count}."), of="dealer",
                 fields={"count": "stock_size"}),
    "turn_up": Line(N_("The upcard is {cards}; the knock card is {knock_card}."),
                    personal=False),
    "to_discard": Line(N_("The upcard {cards} goes to the discard pile."), personal=False),
    "hand_end": _hand_end_phrase,
}

REFUSALS = (
    N_("the first upcard: draw it or pass"),
    N_("both players passed the first upcard: draw from the stock"),
    N_("draw first: the upcard or from the stock"),
    N_("discard a card or knock"),
    N_("you do not hold {card}"),
    N_("a knock needs deadwood of at most {count}"),
    N_("after a knock, discard a card that keeps your deadwood at most {count}"),
    N_("that meld cannot be laid now"),
    N_("lay melds until your deadwood is at most {count}"),
    N_("{card} does not fit the knocker's melds now"),
    N_("nothing may be laid off on gin"),
    N_("two cards are left in the stock: knock or pass"),
    N_("you took {card} from the discard pile this turn: discard another card"),
    N_("a knock needs a discard other than {card}, the upcard taken this turn"),
    N_("big gin needs all eleven cards in melds: discard a card"),
)

NOTATION = (
    ("draw upcard", N_("take the upcard")),
    ("draw stock", N_("draw the top card of the stock")),
    ("card 7H", N_("discard a card; after a knock, lay it off on the knocker's melds")),
    ("knock", N_("end the hand with your deadwood at most the knock card")),
    ("meld 7H 8H 9H", N_("lay a meld: three or four of a rank, or a run of a suit")),
    ("pass", N_("pass (the first upcard, the wall, or when done laying; after a knock, "
                "big gin)")),
)
