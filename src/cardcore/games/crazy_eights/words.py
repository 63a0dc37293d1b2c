"""Crazy Eights in words for the terminal (cardcore.narrate): its actions and event kinds, and
the templates of its refusals (``explain_rule``) for translation. The texts are msgids of the
game's catalog (``locale/``)."""
from __future__ import annotations

from cardcore.i18n import N_, _, ngettext
from cardcore.narrate import Event, Phrase, Who, action_line, cards_text, mine

REASONS = {"out": N_("{who} went out"),
           "max_turns": N_("the plays allowed (max_turns) are used up"),
           "passes": N_("every player passed with the stock empty")}


def _next(event: Event, who: Who) -> str:
    """Who plays next and what they follow, when the turn passes."""
    if "next_player" not in event or event["next_player"] == event.get("player"):
        return ""
    return _(" — {name} next, suit {suit}").format(name=who(event["next_player"]),
                                                   suit=event["suit"])


def _play(event: Event, seat: int | None, who: Who, name: str) -> str:
    line = action_line(event, name)
    if event.get("next_player") == event.get("player"):
        cards = event.get("cards", [])
        eight = bool(cards) and cards[0].startswith("8")
        player = event.get("player")
        if eight:
            return line + mine(player, seat, _(" — and nominate a suit"),
                               _(" — and nominates a suit"))
        return line + mine(player, seat, _(" — and play again"), _(" — and plays again"))
    return line + _next(event, who)


def _nominate(event: Event, seat: int | None, who: Who, name: str) -> str:
    return action_line(event, name) + _next(event, who)


def _draw(event: Event, seat: int | None, who: Who, name: str) -> str:
    player = event.get("player")
    what = cards_text(event) or _("nothing")
    if event.get("rule") == "CE-4.4":                     # a draw-two debt, all at once
        line = mine(player, seat, _("{name} take the debt: {cards}"),
                    _("{name} takes the debt: {cards}"))
    else:
        line = mine(player, seat, _("{name} draw {cards}"), _("{name} draws {cards}"))
    return (line.format(name=name, cards=what)
            + _(" (stock {count})").format(count=event.get("stock_size")) + _next(event, who))


def _pass(event: Event, seat: int | None, who: Who, name: str) -> str:
    return mine(event.get("player"), seat, _("{name} pass"),
                _("{name} passes")).format(name=name) + _next(event, who)


def _deal(event: Event, seat: int | None, who: Who, name: str) -> str:
    dealer: int = event["dealer"]
    return mine(dealer, seat, _("— hand {hand}: {name} deal; stock {count}"),
                _("— hand {hand}: {name} deals; stock {count}")).format(
        hand=event.get("hand"), name=who(dealer), count=event.get("stock_size"))


def _reburied(event: Event, seat: int | None, who: Who, name: str) -> str:
    bottom = event.get("place") == "bottom"
    if len(event.get("cards", [])) == 1:
        text = (_("turned up {cards}: an eight goes to the bottom of the stock (CE-2.4)")
                if bottom else
                _("turned up {cards}: an eight goes back into the stock at random (CE-2.4)"))
    else:
        text = (_("turned up {cards}: the eights go to the bottom of the stock (CE-2.4)")
                if bottom else
                _("turned up {cards}: the eights go back into the stock at random (CE-2.4)"))
    return text.format(cards=cards_text(event))


def _turn_up(event: Event, seat: int | None, who: Who, name: str) -> str:
    first: int = event["first_player"]
    line = mine(first, seat, _("turned up {cards} — suit {suit}; {name} play first"),
                _("turned up {cards} — suit {suit}; {name} plays first")).format(
        cards=cards_text(event), suit=event.get("suit"), name=who(first))
    if event.get("direction") == -1:
        line += _(", down the seats")
    if event.get("draw_two_owed"):
        line += _(", owing {count}").format(count=event["draw_two_owed"])
    if event.get("rule") == "CE-4.5":
        line += _(" (the turn-up acts as if the dealer had played it)")
    return line


def _reshuffle(event: Event, seat: int | None, who: Who, name: str) -> str:
    moved = len(event.get("cards", [])) + event.get("hidden", 0)
    return ngettext("the discard pile but its top card ({n} card) becomes the stock",
                    "the discard pile but its top card ({n} cards) becomes the stock",
                    moved).format(n=moved)


def _drew(event: Event, seat: int | None, who: Who, name: str) -> str:
    return mine(event.get("player"), seat,
                _("{name} take the rest of the debt from the new stock: {cards}"),
                _("{name} takes the rest of the debt from the new stock: {cards}")).format(
        name=name, cards=cards_text(event))


def _hand_end(event: Event, seat: int | None, who: Who, name: str) -> str:
    reason = _(REASONS.get(event.get("reason", ""), N_("the hand is over")))
    out = next((p for p, hand in enumerate(event.get("hands", [])) if not hand), None)
    reason = reason.format(who=who(out) if out is not None else _("a player"))
    from cardcore.narrate import score_direction
    return _("— hand over: {reason}; penalty points ({direction}):").format(
        reason=reason, direction=score_direction(event.get("score_direction", "")))


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

NOTATION = (
    ("play 7H", N_("play a card of the suit to follow or of the same rank")),
    ("play 8C", N_("an eight is wild: then nominate the suit to follow")),
    ("nominate H", N_("after an eight: hearts are to follow (C D H S)")),
    ("draw", N_("draw a card from the stock")),
    ("pass", N_("pass (after the draws allowed, or with the stock empty)")),
)
