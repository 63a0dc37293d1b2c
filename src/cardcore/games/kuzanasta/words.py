"""Kuzanasta in words for the terminal (cardcore.narrate): its own event kinds, a note on the
moves that take a hidden-until-now card, and the templates of its refusals (``explain_rule``)
for translation. The texts are msgids of the game's catalog (``locale/``)."""
from __future__ import annotations

from typing import Any

from cardcore.i18n import N_, P_, _, ngettext
from cardcore.narrate import Event, Line, Phrase, Who, cards_text, personal


def pile_number(event: Event) -> int | str:
    """A pile as players count it, from 1 (the terminal's table does too); events and the
    rulebook number the piles 0 and 1."""
    pile = event.get("pile")
    return pile + 1 if isinstance(pile, int) else "?"


def _god_draw(event: Event, seat: int | None, who: Who, name: str) -> str:
    return personal(event.get("player"), seat,
                    P_("{name} took {cards} from stock pile {pile} with the God card.")).format(
        name=name, cards=cards_text(event), pile=pile_number(event))


# A rank in words, for the wild cards ("jacks are wild"; the web board has the same words).
RANK_WORDS = {"A": N_("aces"), "2": N_("twos"), "3": N_("threes"), "4": N_("fours"),
              "5": N_("fives"), "6": N_("sixes"), "7": N_("sevens"), "8": N_("eights"),
              "9": N_("nines"), "10": N_("tens"), "J": N_("jacks"), "Q": N_("queens"),
              "K": N_("kings")}


def rank_words(rank: str) -> str:
    return _(RANK_WORDS.get(rank, rank))


def _turn_up(event: Event, seat: int | None, who: Who, name: str) -> str:
    rank = event.get("wild_rank")
    if rank is None:
        return _("Turned up {cards}: no rank is wild.").format(cards=cards_text(event))
    return _("Turned up {cards}: wild cards are {rank}.").format(cards=cards_text(event),
                                                                 rank=rank_words(str(rank)))


def _recycle(event: Event, seat: int | None, who: Who, name: str) -> str:
    count = len(event["cards"]) + event.get("hidden", 0)
    return ngettext("Discard pile {pile} was turned over as the new stock ({count} card).",
                    "Discard pile {pile} was turned over as the new stock ({count} cards).",
                    count).format(pile=pile_number(event), count=count)


def _pile_start(event: Event, seat: int | None, who: Who, name: str) -> str:
    return _("Discard pile {pile} starts with {cards}.").format(pile=pile_number(event),
                                                              cards=cards_text(event))


def _deal_end(event: Event, seat: int | None, who: Who, reason: str) -> str:
    if event.get("end") != "went_out":                   # KZ-3.4, KZ-3.5: nobody scores
        return _("Deal {deal} is void: {reason}.").format(deal=event.get("deal"), reason=reason)
    return _("Deal {deal} is over: {reason}.").format(deal=event.get("deal"), reason=reason)


PHRASES: dict[str, Phrase] = {
    "god_draw": _god_draw,
    "draw_discard": Line(P_("{name} took {cards}, the top card of the discard pile.")),
    "turn_up": _turn_up,
    "pile_start": _pile_start,
    "recycle": _recycle,
    "pile_dead": Line(N_("A discard pile leaves play: {cards}."), personal=False),
    # KZ-2.6: the rulebook's pile 1, the second as players count
    "set_aside": Line(N_("Stock pile 2 is set aside unseen: {cards}."), personal=False),
    "deal_end": _deal_end,
    "god_look": Line(P_("{name} chose the God card's draw from the stock piles.")),
    "god_discard": Line(P_("{name} started a new discard pile with {cards}.")),
    "deal": Line(N_("Deal {deal} begins; {name} move first. Pot: {pot}."),
                 N_("Deal {deal} begins; {name} moves first. Pot: {pot}."), of="first_player"),
}

# Why a deal or the match ended, by the events' ``reason_code``.
REASONS: dict[str, str | tuple[str, str]] = {
    "went_out": (N_("you went out"), N_("{name} went out")),
    "no_draw": (N_("you could draw nothing"), N_("{name} could draw nothing")),
    "max_turns": N_("the turns allowed in a deal are played"),
    "target": N_("a score reached {target}"),
    "deals": N_("all {deals} scored deals are played"),
    "void_deals": N_("the limit of void deals was reached"),
}


def move_note(action: Any) -> str | None:
    """What a move takes that its notation does not say: the card a ``draw_discard`` takes
    (the last card shown of the discard pile is its top)."""
    if action.kind == "draw_discard" and action.cards:
        return _("takes {card}, the top of your discard pile").format(card=action.cards[0])
    return None


REFUSALS = (
    N_("taking a card from a chosen place of a stock is the option god_draw='position'"),
    N_("with god_draw='position' the God card's draw takes a chosen place without looking"),
    N_("only the holder of the God card (the joker) may draw from the stocks at will"),
    N_("that place is not in a stock pile in play"),
    N_("your stock pile is empty"),
    N_("your discard pile is empty"),
    N_("the stock piles are empty"),
    N_("first draw: draw_stock or draw_discard"),
    N_("{card} is not in a stock pile in play"),
    N_("you chose the God card's draw: take a card from the stock piles (god_draw)"),
    N_("you do not hold {card}"),
    N_("only the holder of the God card (the joker) may start a new discard pile"),
    N_("your discard pile is empty: there is no pile to end, discard normally"),
    N_("you have drawn: now discard a card"),
    N_("your hand does not make a 3-card and a 4-card set of all seven cards"),
    N_("your hand does not hold two sets"),
    N_("your hand cannot show those sets as a 3-card and a 4-card set of all seven cards"),
    N_("your hand cannot show those two sets"),
    N_("you have discarded: go out (go_out) or end the turn (end_turn)"),
)

NOTATION = (
    ("draw_stock", N_("take the top card of your stock pile (the reserve)")),
    ("draw_discard", N_("take the top card of your discard pile (the last one shown)")),
    ("god_look", N_("holder of the God card (joker): see which cards the stock piles hold, "
                    "then take one with god_draw (KZ-6.2)")),
    ("god_draw 7H", N_("holder of the God card (joker): take 7H from a stock pile (KZ-6.2)")),
    ("discard 7H", N_("discard a card onto your discard pile")),
    ("god_discard 7H", N_("holder of the God card: start a new discard pile (KZ-6.3)")),
    ("go_out 3-3-3 7-7-7-W", N_("show two sets and go out; W is a wild card (KZ-7.1)")),
    ("end_turn", N_("end the turn without going out")),
)


def explain_notation(words: list[str], hand: list[str]) -> tuple[str, str] | None:
    """Why a written ``go_out`` is no declaration of the game: it shows two sets of 3 or 4
    cards, written rank-rank-rank with W for a wild card (KZ-7.1, KZ-5.1)."""
    if not words or words[0].lower() != "go_out":
        return None
    sets = words[1:]
    if len(sets) != 2 or not all(2 <= s.count("-") <= 3 for s in sets):
        return (N_("going out shows two sets of 3 or 4 cards, e.g. go_out 3-3-3 7-7-7-W"),
                "KZ-7.1")
    return None


# The moves in words, for the terminal's list of moves («Сбросить 7H»): the web table's
# captions (web/board.js ``actions``; tests/test_move_words.py holds them equal).
MOVE_WORDS = {"draw_stock": N_("Draw from the stock"), "draw_discard": N_("Take the top discard"),
              "god_look": N_("Look at God"), "god_draw": N_("Draw from God"),
              "discard": N_("Discard"), "god_discard": N_("Discard to a new pile"),
              "end_turn": N_("End turn"), "go_out": N_("Go out")}
