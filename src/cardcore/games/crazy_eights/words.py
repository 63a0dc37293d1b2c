"""Crazy Eights in words for the terminal (cardcore.narrate): its actions and event kinds, and
the templates of its refusals (``explain_rule``) for translation. The texts are msgids of the
game's catalog (``locale/``)."""
from __future__ import annotations

from cardcore.i18n import N_, P_, _, ngettext
from cardcore.narrate import Event, Line, Phrase, Said, Who, cards_text, mine, sentence

# Why the hand (the match: CE-8.3) ended, by the events' ``reason_code``.
REASONS: dict[str, str | tuple[str, str]] = {
    "out": (N_("you played your last card"), N_("{name} played their last card")),
    "max_turns": N_("the cards allowed to be played are played"),
    "passes": N_("every player passed with the stock empty"),
    "one_hand": N_("its one hand is played"),
}


# Who plays next and what they follow, when the turn passes.
NEXT = Line(N_(" Next: {name}; suit {suit}."), of="next_player", personal=False)


def _passes(event: Event) -> bool:
    """Whether the turn passes to another seat (``NEXT`` says to whom)."""
    return "next_player" in event and event["next_player"] != event.get("player")


PLAYED = Line(P_("{name} played {cards}."))
NOMINATES_NEXT = Line(N_("{name} nominate a suit next."), N_("{name} nominates a suit next."))
PLAYS_AGAIN = Line(N_("{name} play again."), N_("{name} plays again."))


def _play(event: Event, seat: int | None, who: Who, name: str) -> Said:
    if event.get("next_player") == event.get("player"):
        cards = event.get("cards", [])
        again = NOMINATES_NEXT if cards and cards[0].startswith("8") else PLAYS_AGAIN
        return PLAYED(event, seat, who, name) + " " + sentence(again(event, seat, who, name))
    return (PLAYED, NEXT) if "next_player" in event else PLAYED


NOMINATED = Line(P_("{name} nominated {suit}."))


def _nominate(event: Event, seat: int | None, who: Who, name: str) -> Said:
    return (NOMINATED, NEXT) if _passes(event) else NOMINATED


DREW = Line(P_("{name} drew {cards}."), nothing=N_("nothing"))
TOOK_THE_DEBT = Line(P_("{name} took the debt: {cards}."), nothing=N_("nothing"))
STOCK = Line(N_(" Stock: {count}."), personal=False, fields={"count": "stock_size"})


def _draw(event: Event, seat: int | None, who: Who, name: str) -> Said:
    drew = TOOK_THE_DEBT if event.get("rule") == "CE-4.4" else DREW   # a draw-two debt: at once
    return (drew, STOCK, NEXT) if _passes(event) else (drew, STOCK)


PASSED = Line(P_("{name} passed."))


def _pass(event: Event, seat: int | None, who: Who, name: str) -> Said:
    return (PASSED, NEXT) if _passes(event) else PASSED


def _reburied(event: Event, seat: int | None, who: Who, name: str) -> str:
    bottom = event.get("place") == "bottom"
    if len(event.get("cards", [])) == 1:
        text = (_("Turned up {cards}: an eight goes to the bottom of the stock.")
                if bottom else
                _("Turned up {cards}: an eight goes back into the stock at random."))
    else:
        text = (_("Turned up {cards}: the eights go to the bottom of the stock.")
                if bottom else
                _("Turned up {cards}: the eights go back into the stock at random."))
    return text.format(cards=cards_text(event))


def _turn_up(event: Event, seat: int | None, who: Who, name: str) -> str:
    first: int = event["first_player"]
    line = mine(first, seat, _("Turned up {cards}, suit {suit}; {name} play first."),
                _("Turned up {cards}, suit {suit}; {name} plays first.")).format(
        cards=cards_text(event), suit=event.get("suit"), name=who(first))
    if event.get("direction") == -1:
        line += _(" Play goes down the seats.")
    if event.get("draw_two_owed"):
        line += _(" Owed: {count}.").format(count=event["draw_two_owed"])
    if event.get("rule") == "CE-4.5":
        line += _(" The turn-up acts as if the dealer had played it.")
    return line


def _reshuffle(event: Event, seat: int | None, who: Who, name: str) -> str:
    moved = len(event.get("cards", [])) + event.get("hidden", 0)
    return ngettext("The discard pile but its top card ({n} card) becomes the stock.",
                    "The discard pile but its top card ({n} cards) becomes the stock.",
                    moved).format(n=moved)


def _hand_end(event: Event, seat: int | None, who: Who, reason: str) -> str:
    return _("The hand is over: {reason}.").format(reason=reason)


PHRASES: dict[str, Phrase] = {
    "play": _play, "nominate": _nominate, "draw": _draw, "pass": _pass,
    "deal": Line(P_("Hand {hand}: {name} dealt; stock: {count}."), of="dealer",
                 fields={"count": "stock_size"}),
    "reburied": _reburied, "turn_up": _turn_up, "reshuffle": _reshuffle,
    "drew": Line(P_("{name} took the rest of the debt from the new stock: {cards}.")),
    "hand_end": _hand_end,
}

REFUSALS = (
    N_("after an eight, nominate a suit first"),
    N_("a suit is nominated only right after playing an eight"),
    N_("you owe {count} cards: play a 2 or draw them"),
    N_("you may pass only after drawing {count} card(s) this turn or with the stock empty"),
    N_("the stock is empty"),
    N_("you have drawn {count} card(s) this turn (max_draw_cards)"),
    N_("you do not hold {card}"),
    N_("you owe {count} cards: only a 2 may be played"),
    N_("{card} matches neither the suit {suit} nor the rank of {top}"),
)
# Refusals with a count, said with the plural the count takes (cardcore.texts.refusal_text).
PLURAL_REFUSALS = {
    "you may pass only after drawing {count} card(s) this turn or with the stock empty":
        lambda n: ngettext("you may pass only after drawing {count} card this turn or with "
                           "the stock empty", "you may pass only after drawing {count} cards "
                           "this turn or with the stock empty", n),
    "you have drawn {count} card(s) this turn (max_draw_cards)": lambda n: ngettext(
        "you have drawn {count} card this turn (max_draw_cards)",
        "you have drawn {count} cards this turn (max_draw_cards)", n),
}

NOTATION = (
    ("play 7H", N_("play a card of the suit to follow or of the same rank")),
    ("play 8C", N_("an eight is wild: then nominate the suit to follow")),
    ("nominate H", N_("after an eight: hearts are to follow (C D H S)")),
    ("draw", N_("draw a card from the stock")),
    ("pass", N_("pass (after the draws allowed, or with the stock empty)")),
)

# The moves in words, for the terminal («Сыграть JH»): the web table's captions
# (web/board.js ``actions``; tests/test_move_words.py holds them equal).
MOVE_WORDS = {"play": N_("Play"), "draw": N_("Draw"), "pass": N_("Pass"),
              "nominate": N_("Nominate")}
