"""Gin Rummy's parts of the JSON Schemas (cardcore.schemas puts them together)."""
from __future__ import annotations

from cardcore.schema_parts import (
    CARD, CARDS, NAT, Kind, Schema, SchemaParts, array, described as d, nullable,
)

INT: Schema = {"type": "integer"}
FLAGS: Schema = {"type": "array", "items": {"type": "boolean"}, "minItems": 2, "maxItems": 2}


def view(seat: Schema, max_players: int) -> dict[str, Schema]:
    """The keys Gin Rummy's view adds (games/gin_rummy.md, GR-9)."""
    per_seat_cards = {"type": "array", "items": CARDS, "minItems": 2, "maxItems": 2}
    return {
        "upcard": d(nullable(CARD), "the card that may be drawn face up (GR-4.1); null when "
                    "there is none"),
        "stock_size": d(NAT, "cards left in the stock"),
        "discard": d(CARDS, "the cards out of play, bottom to top (GR-4.1)"),
        "knock_card": d(NAT, "the most deadwood a knock may leave (GR-5.1, GR-3.3)"),
        "melds": d({"type": "array", "items": array(CARDS), "minItems": 2, "maxItems": 2},
                   "per seat, the melds it laid (GR-6.3, GR-7.2)"),
        "layoffs": d(CARDS, "the cards laid off on the knocker's melds (GR-7.1)"),
        "known": d(per_seat_cards, "per seat, the cards it took face up and still holds "
                   "(GR-9.2)"),
        "knocked": d(FLAGS, "per seat, whether it knocked (GR-5.1)"),
        "passed_first_upcard": d(FLAGS, "per seat, whether it passed the first upcard "
                                 "(GR-3.1)"),
        "upcard_draws": d(NAT, "upcards drawn so far, counted for GR-8.2"),
        "deadwood": d(nullable(NAT), "the viewer's least deadwood (GR-5.1); null for a "
                      "spectator"),
        "final_hands": d(nullable(per_seat_cards), "both hands once the hand is over "
                         "(GR-8.1); null until then"),
        "taken": d({**CARDS, "maxItems": 1}, "the card taken face up this turn, while it is "
                   "that player's turn: everybody saw it taken (GR-4.2, GR-9.1); empty "
                   "otherwise"),
        "big_gin": d({"type": "boolean"}, "the knocker kept all eleven cards: big gin "
                     "(GR-6.4)"),
        "match_to": d(NAT, "the points a total must reach to end the match; 0: one hand "
                      "(GR-11.1)"),
        "hand_number": d(NAT, "the hand being played, from 1; once over, the hands played "
                         "(GR-11.1)"),
        "hands_won": d({"type": "array", "items": NAT, "minItems": 2, "maxItems": 2},
                       "per seat, the hands it won: its box bonus (GR-11.3)"),
    }


NEXT = ("next_player",)               # after a move, unless it ended the hand

SCHEMA = SchemaParts(
    view=view,
    action_info={},
    action_kinds={
        "play_card": Kind("discard a card, or lay it off on the knocker's melds (GR-4.1, GR-6.2, "
                     "GR-7.1)", cards="the card"),
        "draw_upcard": Kind("take the upcard (GR-3.1, GR-4.1)"),
        "draw_stock": Kind("draw the top card of the stock (GR-3.2, GR-4.1)"),
        "pass": Kind("pass: the first upcard, the wall, or done laying (GR-3.1, GR-5.2, "
                     "GR-6.3, GR-7)"),
        "knock": Kind("knock: end the hand (GR-5.1, GR-5.2)"),
        "meld": Kind("lay a meld (GR-6.3, GR-7.2)", cards="the meld's cards"),
    },
    event_fields={
        "dealer": d(NAT, "the dealer's seat (GR-2.2)"),
        "stock_size": d(NAT, "cards left in the stock after it"),
        "knock_card": d(NAT, "the knock card in force (GR-5.1, GR-3.3)"),
        "first_player": d(NAT, "the seat that acts first (GR-2.2)"),
        "next_player": d(NAT, "the seat to move next"),
        "hands": d(array(CARDS), "both hands as laid down, by seat (GR-8.1)"),
        "score_direction": d({"const": "higher is better"}, "points: higher is better"),
    },
    event_kinds={
        "deal": Kind(fields=("hand", "dealer", "stock_size", "rule")),
        "dealt": Kind(fields=("rule",), cards="the seat's hand (only that seat sees it)"),
        "turn_up": Kind(fields=("rule", "knock_card", "first_player"),
                        cards="the first upcard"),
        "to_discard": Kind(fields=("rule",), cards="the upcard nobody took"),
        "hand_end": Kind(fields=("hand", "reason", "rule", "hands", "breakdown", "scores",
                                 "score_direction")),
        "match_end": Kind(fields=("winners", "scores")),
        "play_card": Kind("a discard or a layoff (GR-4.1, GR-6.2, GR-7.1)", ("rule",), NEXT,
                     cards="the card"),
        "draw_upcard": Kind("the upcard taken (GR-4.1)", ("rule",), NEXT,
                            cards="the upcard"),
        "draw_stock": Kind("a card drawn from the stock (GR-4.1)", ("rule", "stock_size"),
                           NEXT, cards="the card drawn (only the drawer sees it)"),
        "pass": Kind("a pass", optional=NEXT),
        "knock": Kind("a knock (GR-5.1; at the wall it takes the upcard, GR-5.2)",
                      optional=("rule",) + NEXT, cards="the upcard taken at the wall"),
        "meld": Kind("a meld laid (GR-6.3, GR-7.2)", ("rule",), NEXT,
                     cards="the meld's cards"),
    },
)
