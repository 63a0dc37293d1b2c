"""Belote Contrée's parts of the JSON Schemas (cardcore.schemas puts them together)."""
from __future__ import annotations

from cardcore.schema_parts import (
    CARDS, NAT, Kind, Schema, SchemaParts, array, described as d, nullable,
)

SUIT: Schema = {"enum": ["S", "H", "D", "C", "NT", "AT"]}   # colver's order; NT, AT: BE-9
BID_VALUE: Schema = {"enum": [80, 90, 100, 110, 120, 130, 140, 150, 160, 250]}
TEAM_PAIR: Schema = {"type": "array", "items": NAT, "minItems": 2, "maxItems": 2}


def view(seat: Schema, max_players: int) -> dict[str, Schema]:
    """The keys Belote Contrée's view adds (games/belote.md, BE-8)."""
    call = {"type": "object", "properties": {
        "seat": d(seat, "the seat that called"),
        "call": d({"type": "string"}, "the call's notation: pass, bid 80S, capot H, contre, "
                  "surcontre")},
            "required": ["seat", "call"], "additionalProperties": False}
    contract = {"type": "object", "properties": {
        "value": d(BID_VALUE, "the bid's value (capot: 250)"),
        "suit": d(SUIT, "the bid's trump suit"),
        "taker": d(seat, "the seat that made the bid"),
        "contre": d({"enum": [0, 1, 2]}, "0, contre (1) or surcontre (2)"),
        "multiplier": d({"enum": [1, 2, 3, 4]}, "the contract's multiplier (BE-7.5)")},
        "required": ["value", "suit", "taker", "contre", "multiplier"],
        "additionalProperties": False}
    return {
        "dealer": d(seat, "the dealer's seat (BE-2.1)"),
        "sides": d(array(NAT), "each seat's side: partners share one (BE-1.1)"),
        "auction": d(array(call), "the auction's calls in order (BE-3)"),
        "contract": d(nullable(contract), "the highest bid so far, its taker and the contre "
                      "(BE-3); null before any bid"),
        "trump": d(nullable(SUIT), "the trump suit once the play begins (BE-3.9)"),
        "trick": d(CARDS, "the trick on the table, in order of play (BE-5)"),
        "trick_leader": d(nullable(seat), "the seat that led the trick (BE-5.1)"),
        "trick_master": d(nullable(seat), "the seat holding the trick on the table (BE-5.5)"),
        "last_trick": d(CARDS, "the last finished trick, in order of play"),
        "last_leader": d(nullable(seat), "the seat that led the last finished trick"),
        "last_winner": d(nullable(seat), "the seat that won the last finished trick"),
        "points": d(TEAM_PAIR, "card points won so far by seats 0+2 and 1+3 (BE-6)"),
        "tricks_won": d(TEAM_PAIR, "tricks won by seats 0+2 and 1+3"),
        "belote_seat": d(nullable(seat), "the seat that said belote (BE-6.4)"),
        "match_to": d(NAT, "the match's target; 0: one deal (BE-10.1)"),
        "deal_number": d(NAT, "the deal being played, from 1; once over, the deals played "
                         "(BE-10)"),
    }


NEXT = ("next_player",)        # after a move, unless it ended the game

SCHEMA = SchemaParts(
    view=view,
    action_info={"value": d(BID_VALUE, "the bid's value (BE-3.3; capot 250, BE-3.4)"),
                 "suit": d(SUIT, "the bid's trump suit (BE-3.3)")},
    action_kinds={
        "play": Kind("play a card to the trick (BE-5)", cards="the card played"),
        "pass": Kind("pass in the auction (BE-3.2)"),
        "bid": Kind("bid a value and a trump suit (BE-3.3)", ("value", "suit")),
        "capot": Kind("bid capot: all eight tricks (BE-3.4)", ("value", "suit")),
        "contre": Kind("double the opponents' contract (BE-3.5)"),
        "surcontre": Kind("redouble after a contre (BE-3.6)"),
    },
    event_fields={
        "dealer": d(NAT, "the dealer's seat (BE-2.1)"),
        "next_player": d(NAT, "the seat to move next"),
        "value": d(BID_VALUE, "a bid's or the contract's value"),
        "suit": d(SUIT, "a bid's or the contract's trump suit"),
        "taker": d(NAT, "the contract's bidder (BE-3.7)"),
        "contre": d({"enum": [0, 1, 2]}, "0, contre (1) or surcontre (2)"),
        "multiplier": d({"enum": [1, 2, 3, 4]}, "the contract's multiplier (BE-7.4, BE-7.5)"),
        "stage": d({"enum": ["belote", "rebelote"]}, "the first or the second card (BE-6.4)"),
        "points": d({"anyOf": [NAT, TEAM_PAIR]}, "a trick's card points, or the teams' at "
                    "the deal's end"),
        "trick": d(NAT, "the trick's number, 1..8"),
        "tricks_won": d(TEAM_PAIR, "tricks won by seats 0+2 and 1+3"),
        "score_direction": d({"const": "higher is better"}, "the teams' points: higher is "
                             "better"),
    },
    event_kinds={
        "deal": Kind(fields=("deal", "dealer", "rule")),
        "dealt": Kind(fields=("rule",), cards="the seat's hand (only that seat sees it)"),
        "auction_end": Kind(fields=("rule", "value", "suit", "taker", "contre", "multiplier")),
        "belote": Kind(fields=("rule", "stage"), cards="the trump king or queen played"),
        "trick_won": Kind(fields=("rule", "points", "trick"), cards="the trick's cards"),
        "deal_end": Kind(fields=("deal", "reason", "rule", "points", "tricks_won",
                                 "breakdown", "scores", "score_direction")),
        "match_end": Kind(fields=("winners", "scores")),
        "play": Kind("a card played (BE-5)", optional=NEXT, cards="the card played"),
        "pass": Kind("a pass (BE-3.2)", optional=NEXT),
        "bid": Kind("a bid (BE-3.3)", ("value", "suit"), NEXT),
        "capot": Kind("a capot bid (BE-3.4)", ("value", "suit"), NEXT),
        "contre": Kind("a contre (BE-3.5)", optional=NEXT),
        "surcontre": Kind("a surcontre (BE-3.6)", optional=NEXT),
    },
)
