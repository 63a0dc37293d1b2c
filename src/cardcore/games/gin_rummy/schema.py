"""Gin Rummy' parts of the JSON Schemas (cardcore.schemas puts them together)."""
from __future__ import annotations

from cardcore.schema_parts import (
    CARD, CARDS, NAT, Kind, Schema, SchemaParts, array, described as d, nullable,
)

SUIT: Schema = {"enum": ["C", "D", "H", "S"]}          # OpenSpiel's order, as the nominations
DIRECTION: Schema = {"enum": [1, -1]}


def view(seat: Schema, max_players: int) -> dict[str, Schema]:
    """The keys Gin Rummy' view adds (games/gin_rummy.md, GR-9)."""
    per_seat_cards = {"type": "array", "items": CARDS, "maxItems": max_players}
    return {
        "top_card": d(CARD, "the top card of the discard pile"),
        "suit": d(SUIT, "the suit to follow (an eight's nominated suit, GR-4.2)"),
        "direction": d(DIRECTION, "the direction of play: 1 clockwise, -1 reversed (GR-4.5)"),
        "dealer": d(seat, "the dealer's seat (GR-2.1)"),
        "stock_size": d(NAT, "cards left in the stock"),
        "discard": d(CARDS, "the discard pile, bottom to top (every card was played face up)"),
        "draws_this_turn": d(NAT, "cards drawn so far this turn (GR-5.1)"),
        "max_draw_cards": d(NAT, "the most cards a turn may draw before passing (GR-5.1)"),
        "draw_two_owed": d(NAT, "cards the seat to move owes for played twos (GR-4.4)"),
        "passes": d(NAT, "passes in a row, counted for GR-7.3"),
        "plays": d(NAT, "cards played so far, counted for max_turns (GR-7.2)"),
        "max_turns": d(NAT, "the plays after which the hand ends (GR-7.2)"),
        "reburied": d(CARDS, "the eights turned up at the deal and put back into the stock "
                      "(GR-2.4)"),
        "stock_bottom_known": d(CARDS, "with a stacked deck, the reburied eights still at the "
                                "stock's bottom (GR-10.2)"),
        "known_eights": d(per_seat_cards, "per seat, the reburied eights it drew from the "
                          "bottom, which everybody saw"),
        "final_hands": d(nullable(per_seat_cards), "every seat's hand once the game is over "
                         "(GR-8.3); null until then"),
    }


NEXT = ("suit", "next_player")        # after a move, unless it ended the game

SCHEMA = SchemaParts(
    view=view,
    action_info={"suit": d(SUIT, "the suit the eight's player nominates (GR-4.2)")},
    action_kinds={
        "play": Kind("play a card on the discard pile (GR-3, GR-4)",
                     cards="the card played"),
        "nominate": Kind("name the suit to follow after an eight (GR-4.2)", ("suit",)),
        "draw": Kind("draw a card from the stock (GR-5.1; a draw-two debt at once, GR-4.4)"),
        "pass": Kind("pass after drawing the most cards allowed (GR-5.2)"),
    },
    event_fields={
        "dealer": d(NAT, "the dealer's seat (GR-2.1)"),
        "stock_size": d(NAT, "cards left in the stock after it"),
        "place": d({"enum": ["bottom", "random"]}, "where the reburied eights went: the stock's "
                   "bottom (a stacked deck) or a random place (GR-2.4)"),
        "suit": d(SUIT, "the suit to follow after it"),
        "first_player": d(NAT, "the seat that plays first (GR-2.5)"),
        "direction": d(DIRECTION, "the direction of play: 1 clockwise, -1 reversed"),
        "draw_two_owed": d(NAT, "cards the seat to move owes for played twos (GR-4.4)"),
        "next_player": d(NAT, "the seat to move next"),
        "hands": d(array(CARDS), "every seat's hand as laid down, by seat (GR-8.3)"),
        "score_direction": d({"const": "lower is better"}, "penalty points: lower is better"),
    },
    event_kinds={
        "deal": Kind(fields=("hand", "dealer", "stock_size", "rule")),
        "dealt": Kind(fields=("rule",), cards="the seat's hand (only that seat sees it)"),
        "reburied": Kind(fields=("rule", "place"), cards="the eights put back"),
        "turn_up": Kind(fields=("rule", "suit", "first_player", "direction", "draw_two_owed"),
                        cards="the card turned up"),
        "reshuffle": Kind(fields=("rule", "stock_size"),
                          cards="the cards of the discard pile that become the stock"),
        "drew": Kind(fields=("rule", "stock_size"), cards="the cards drawn (only the drawer "
                     "sees them)"),
        "hand_end": Kind(fields=("hand", "reason", "rule", "hands", "breakdown", "scores",
                                 "score_direction")),
        "match_end": Kind(fields=("winners", "scores")),
        "play": Kind("a card played (GR-3, GR-4)", optional=NEXT, cards="the card played"),
        "nominate": Kind("a suit named after an eight (GR-4.2)", optional=NEXT),
        "draw": Kind("cards drawn from the stock (GR-5.1, GR-4.4)", ("rule", "stock_size"),
                     NEXT, cards="the cards drawn (only the drawer sees them)"),
        "pass": Kind("a pass (GR-5.2)", optional=NEXT),
    },
)
