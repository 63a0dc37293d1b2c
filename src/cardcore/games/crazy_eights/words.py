"""Crazy Eights in words for the terminal (cardcore.narrate): its actions and event kinds, and
the templates of its refusals (``explain_rule``) for translation. The texts are msgids of the
game's catalog (``locale/``)."""
from __future__ import annotations

from cardcore.i18n import N_, P_, _, ngettext
from cardcore.narrate import Event, Phrase, Who, cards_text, mine, personal, sentence

# Why the hand (the match: CE-8.3) ended, by the events' ``reason_code``.
REASONS: dict[str, str | tuple[str, str]] = {
    "out": (N_("you played your last card"), N_("{name} played their last card")),
    "max_turns": N_("the cards allowed to be played are played"),
    "passes": N_("every player passed with the stock empty"),
    "one_hand": N_("its one hand is played"),
}


def _next(event: Event, who: Who) -> str:
    """Who plays next and what they follow, when the turn passes."""
    if "next_player" not in event or event["next_player"] == event.get("player"):
        return ""
    return _(" Next: {name}; suit {suit}.").format(
        name=who(event["next_player"]), suit=event["suit"])


def _play(event: Event, seat: int | None, who: Who, name: str) -> str:
    player = event.get("player")
    line = personal(player, seat, P_("{name} played {cards}.")).format(
        name=name, cards=cards_text(event))
    if event.get("next_player") == player:
        cards = event.get("cards", [])
        eight = bool(cards) and cards[0].startswith("8")
        if eight:
            return line + " " + sentence(mine(player, seat, _("{name} nominate a suit next."),
                                              _("{name} nominates a suit next.")).format(name=name))
        return line + " " + sentence(mine(player, seat, _("{name} play again."),
                                          _("{name} plays again.")).format(name=name))
    return line + _next(event, who)


def _nominate(event: Event, seat: int | None, who: Who, name: str) -> str:
    return personal(event.get("player"), seat, P_("{name} nominated {suit}.")).format(
        name=name, suit=event.get("suit")) + _next(event, who)


def _draw(event: Event, seat: int | None, who: Who, name: str) -> str:
    player = event.get("player")
    what = cards_text(event) or _("nothing")
    if event.get("rule") == "CE-4.4":                     # a draw-two debt, all at once
        line = personal(player, seat, P_("{name} took the debt: {cards}."))
    else:
        line = personal(player, seat, P_("{name} drew {cards}."))
    return (line.format(name=name, cards=what)
            + _(" Stock: {count}.").format(count=event.get("stock_size")) + _next(event, who))


def _pass(event: Event, seat: int | None, who: Who, name: str) -> str:
    return personal(event.get("player"), seat, P_("{name} passed.")).format(
        name=name) + _next(event, who)


def _deal(event: Event, seat: int | None, who: Who, name: str) -> str:
    dealer: int = event["dealer"]
    return personal(dealer, seat, P_("Hand {hand}: {name} dealt; stock: {count}.")).format(
        hand=event.get("hand"), name=who(dealer), count=event.get("stock_size"))


def _reburied(event: Event, seat: int | None, who: Who, name: str) -> str:
    bottom = event.get("place") == "bottom"
    if len(event.get("cards", [])) == 1:
        text = (_("Turned up {cards}: an eight goes to the bottom of the stock (CE-2.4).")
                if bottom else
                _("Turned up {cards}: an eight goes back into the stock at random (CE-2.4)."))
    else:
        text = (_("Turned up {cards}: the eights go to the bottom of the stock (CE-2.4).")
                if bottom else
                _("Turned up {cards}: the eights go back into the stock at random (CE-2.4)."))
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


def _drew(event: Event, seat: int | None, who: Who, name: str) -> str:
    return personal(event.get("player"), seat,
                    P_("{name} took the rest of the debt from the new stock: {cards}.")).format(
        name=name, cards=cards_text(event))


def _hand_end(event: Event, seat: int | None, who: Who, reason: str) -> str:
    return _("The hand is over: {reason}.").format(reason=reason)


PHRASES: dict[str, Phrase] = {
    "play": _play, "nominate": _nominate, "draw": _draw, "pass": _pass, "deal": _deal,
    "reburied": _reburied, "turn_up": _turn_up, "reshuffle": _reshuffle, "drew": _drew,
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
