"""Kuzanasta's parts of the JSON Schemas (cardcore.schemas puts them together)."""
from __future__ import annotations

from cardcore.schema_parts import (
    BOOL, CARD, CARDS, INT, NAT, RANK, STR, Kind, Schema, SchemaParts, array, closed_object,
    described as d, nullable,
)

DEAL_ENDS = {"enum": ["went_out", "no_draw", "max_turns"]}
PILE: Schema = {"enum": [0, 1]}


def view(seat: Schema, max_players: int) -> dict[str, Schema]:
    """The keys Kuzanasta's view adds (games/kuzanasta.md, KZ-8)."""
    set_value = closed_object({"set": d(STR, "the set's notation"),
                               "value": d(NAT, "its value (KZ-5.3)")})
    last_deal = closed_object({
        "end": d(DEAL_ENDS, "how the deal ended: a seat went out (KZ-7), no draw was "
                 "possible (KZ-3.4) or max_turns (KZ-3.5)"),
        "winner": d(nullable(seat), "the seat that went out, or null"),
        "wild_rank": d(nullable(RANK), "the deal's wild rank, or null (a joker turn-up)"),
        "sets": d(array(set_value, 2), "the two sets declared"),
        "hand": d(CARDS, "the winner's hand, shown"),
        "hand_points": d(NAT, "the declaration's points (KZ-7.2)"),
        "turn_up_doubled": d(BOOL, "doubled for the turn-up card (KZ-7.3)"),
        "god_doubled": d(BOOL, "doubled for holding the joker (KZ-7.3)"),
        "total": d(NAT, "the points won (KZ-7.3)"),
        "pot": d(INT, "the chips won from the pot (KZ-7.6)")},
        required=["end", "winner", "wild_rank"])
    return {
        "wild_rank": d(nullable(RANK), "the rank whose cards are wild this deal, or null "
                       "(a joker turned up, KZ-2.3)"),
        "turn_up": d(CARD, "the card turned up at the deal (KZ-2.3)"),
        "discards": d({"type": "array", "items": CARDS, "minItems": 1, "maxItems": 2},
                      "each discard pile in play, bottom to top"),
        "my_pile": d(nullable(PILE), "the pile this seat draws from and discards to; null in "
                     "the spectator's view"),
        "pile_of": d(array(PILE), "each seat's pile, by seat (KZ-2.5)"),
        "stock_sizes": d({"type": "array", "items": NAT, "minItems": 1, "maxItems": 2},
                         "cards in each stock pile in play"),
        "dealer": d(seat, "the dealer's seat (KZ-2.1)"),
        "first_player": d(seat, "the seat that plays first this deal"),
        "deal": d(NAT, "the deal being played, from 1 (the last one once over)"),
        "turns_in_deal": d(NAT, "turns played this deal, counted for max_turns (KZ-3.5)"),
        "god_holder": d(nullable(seat), "the seat known to hold the joker, or null while "
                        "nobody is (KZ-8)"),
        "chips": d(array(INT), "each seat's chips, by seat (KZ-7.6)"),
        "pot": d(INT, "the chips in the pot (KZ-7.6)"),
        "best_sets": d(nullable(closed_object({
            "sets": d(array(STR, 2), "the two sets' notations"),
            "value": d(NAT, "their value (KZ-5.3)")})),
            "the best declaration in this seat's hand now, or null (none; the spectator)"),
        "last_deal": d(nullable(last_deal), "the last deal's result, or null before one "
                       "ended"),
    }


SCHEMA = SchemaParts(
    view=view,
    action_info={
        "sets": d(array(STR, 2), "the two sets declared (notations)"),
        "descriptors": d(array(NAT, 2), "the two sets' descriptors (ids)"),
        "best": d(BOOL, "go out with the best declaration of the hand (KZ-7.1)"),
        "pile": d(PILE, "the stock pile a God draw at a place takes from (KZ-6.2)"),
        "depth": d(NAT, "the place in that stock, 0 its top card (KZ-6.2)")},
    action_kinds={
        "draw_stock": Kind("draw the top card of your stock pile (KZ-3.1)"),
        "draw_discard": Kind("draw the top card of your discard pile (KZ-3.1)"),
        "discard": Kind("discard a card onto your discard pile (KZ-3.2)",
                        cards="the card discarded"),
        "god_discard": Kind("discard a card to start a new discard pile (KZ-6.3)",
                            cards="the card discarded"),
        "god_look": Kind("commit to a God draw and see the stocks (KZ-6.2)"),
        "god_draw": Kind("take a chosen card, or the card at a chosen place, from a stock "
                         "(KZ-6.2)", optional=("pile", "depth"),
                         cards="the card chosen (god_draw=\"look\")"),
        "go_out": Kind("go out with two sets (KZ-3.3, KZ-7.1)",
                       optional=("sets", "descriptors", "best")),
        "end_turn": Kind("end the turn without going out (going_out=\"optional\", KZ-3.3)"),
    },
    event_fields={
        "target": d(NAT, "the points that end the match (KZ-7.5)"),
        "deals": d(NAT, "the deals the match lasts (KZ-7.5)"),
        "dealer": d(NAT, "the dealer's seat (KZ-2.1)"),
        "first_player": d(NAT, "the seat that plays first (KZ-2.2)"),
        "pot": d(INT, "the chips in the pot after it (KZ-7.6)"),
        "chips": d(array(INT), "each seat's chips after it, by seat (KZ-7.6)"),
        "wild_rank": d(nullable(RANK), "the deal's wild rank, or null (a joker turned up, "
                       "KZ-2.3)"),
        "pile": d(PILE, "the pile it concerns (0 or 1)"),
        "stock_size": d(NAT, "cards in that stock pile"),
        "reshuffled": d(BOOL, "the pile was shuffled as it became the stock (reshuffle=True)"),
        "end": d(DEAL_ENDS, "how the deal ended: a seat went out (KZ-7), no draw was possible "
                 "(KZ-3.4) or max_turns (KZ-3.5)"),
        "winner": d(nullable(NAT), "the seat that went out, or null (a void deal)"),
        "pot_won": d(INT, "the chips the winner took from the pot (KZ-7.6)"),
        "score_direction": d({"const": "higher is better"}, "higher is better"),
    },
    event_kinds={
        "deal": Kind(fields=("deal", "dealer", "first_player", "pot", "chips", "rule")),
        "turn_up": Kind(fields=("rule", "wild_rank"), cards="the card turned up"),
        "dealt": Kind(fields=("rule",), cards="the seat's seven cards (only that seat sees "
                      "them)"),
        "pile_start": Kind(fields=("pile", "rule", "stock_size"),
                           cards="the card that starts the discard pile"),
        "set_aside": Kind(fields=("rule",), cards="the cards set aside (nobody sees them)"),
        "recycle": Kind(fields=("pile", "rule", "reshuffled"),
                        cards="the discard pile's cards that become the stock"),
        "pile_dead": Kind(fields=("rule",), cards="the cards that leave play"),
        "deal_end": Kind(fields=("deal", "end", "winner", "rule", "breakdown", "scores",
                                 "chips", "score_direction"), optional=("pot", "pot_won"),
                         cards="the winner's hand, shown"),
        "match_end": Kind(fields=("winners", "scores"), optional=("target", "deals")),
        "draw_stock": Kind("a card drawn from a stock (KZ-3.1)", optional=("pile",),
                           cards="the card drawn (only the drawer sees it)"),
        "draw_discard": Kind("a discard pile's top card drawn (KZ-3.1)",
                             cards="the card drawn"),
        "discard": Kind("a card discarded (KZ-3.2)", cards="the card discarded"),
        "god_discard": Kind("a card discarded to start a new pile (KZ-6.3)",
                            cards="the card discarded"),
        "god_look": Kind("a God draw begun: the holder sees the stocks (KZ-6.2)"),
        "god_draw": Kind("a God draw (KZ-6.2)", optional=("pile",),
                         cards="the card taken (only the drawer sees it)"),
        "go_out": Kind("a seat goes out (KZ-3.3, KZ-7)", cards="its hand, shown"),
        "end_turn": Kind("a turn ended without going out (KZ-3.3)"),
    },
)
