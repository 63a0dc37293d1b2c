"""Kings' Stakes' parts of the JSON Schemas (cardcore.schemas puts them together)."""
from __future__ import annotations

from cardcore.schema_parts import (
    CARDS, INT, NAT, STR, Kind, Schema, SchemaParts, array, closed_object, described as d,
    nullable,
)

DIRECTION: Schema = {"enum": [1, -1]}


def view(seat: Schema, max_players: int) -> dict[str, Schema]:
    """The keys Kings' Stakes' view adds (games/kings_stakes.md, KS-10)."""
    per_seat = {"type": "array", "items": NAT, "maxItems": max_players}
    return {
        "table": d(CARDS, "the cards on the table, in play order"),
        "stake": d(NAT, "the stake a number play must reach (KS-4.3)"),
        "direction": d(DIRECTION, "the direction of play: 1 clockwise, -1 reversed (KS-5.2)"),
        "penalty_counts": d(per_seat, "each seat's penalty cards this round, by seat (KS-6.2)"),
        "stock_size": d(NAT, "cards left in the stock"),
        "discard": d(CARDS, "the cards out of play, all seen face up (KS-5.3, KS-8.4)"),
        "chip_holder": d(nullable(seat), "the seat holding the forget-me chip, or null while "
                         "it is in the box (KS-7)"),
        "round": d(NAT, "the round being played, from 1 (the last one once over)"),
        "rounds": d(NAT, "the rounds in the match (KS-9.4)"),
        "round_first_player": d(seat, "the seat that led the round (KS-3.2)"),
        "out_player": d(nullable(seat), "the seat that went out this round, or null (KS-8.1)"),
        "final_turns_owed": d(array(seat), "the seats still owed a final turn (KS-8.1)"),
        "last_play": d(nullable(closed_object({
            "player": d(seat, "the seat that made it"),
            "action": d(STR, "its notation")})),
            "the last play or take of this round, or null"),
        "teams": d(nullable(array(array(seat, 2), 2)),
                   "with teams=True, the two teams' seats (KS-9.5); else null"),
    }


AFTER = ("stake", "direction")       # after a move, unless it ended the round

SCHEMA = SchemaParts(
    view=view,
    action_info={
        "effect": d({"enum": ["number", "jack", "queen", "king", "king_queen", "queen_jack",
                              "four_kings"]},
                    "what the play does: a number (KS-4) or a face card's effect (KS-5)"),
        "amount": d(NAT, "a number play's value (KS-4.1, KS-4.2)"),
        "jokers_as": d(array({"type": ["string", "integer"]}),
                       "what each joker stands for: a value, a rank or a card (KS-4.4)")},
    action_kinds={
        "play": Kind("play one card or a combination onto the table (KS-4, KS-5)",
                     ("effect",), ("amount", "jokers_as"), cards="the cards played"),
        "take": Kind("take the table as penalty cards (KS-6)"),
        "refill": Kind("refill the hand to 4 cards from the stock (KS-7.1)"),
        "end_turn": Kind("end the turn short and get the chip (KS-7.1)"),
    },
    event_fields={
        "rounds": d(NAT, "the rounds played (KS-9.4)"),
        "first_player": d(NAT, "the seat that leads the round (KS-3.2)"),
        "stock_size": d(NAT, "cards left in the stock after it"),
        "stake": d(NAT, "the stake after it (KS-4.3)"),
        "direction": d(DIRECTION, "the direction of play after it: 1 clockwise, -1 reversed"),
        "score_direction": d({"const": "lower is better"}, "penalty points: lower is better"),
        "final_turns_owed": d(array(NAT), "the seats owed a final turn (KS-8.1)"),
        "round_points": d(array(INT), "each seat's points for the round, by seat (KS-9)"),
        "teams": d(array(closed_object({
            "seats": d(array(NAT, 2), "the team's two seats"),
            "points": d(INT, "the team's points for the round"),
            "rule": d(STR, "the rule ID (KS-9.5)")})),
            "with teams=True, the teams' points (the 0.3 form, kept one release)"),
        "hands_left": d(array(NAT), "the cards each seat still held, by seat (KS-8.4)"),
    },
    event_kinds={
        "deal": Kind(fields=("round", "first_player", "stock_size")),
        "dealt": Kind(cards="the seat's four cards (only that seat sees them)"),
        "draw": Kind(fields=("rule", "stock_size"), cards="the cards drawn (only the drawer "
                     "sees them)"),
        "table_cleared": Kind(fields=("rule",), cards="the table's cards, now discarded"),
        "chip": Kind(fields=("rule",)),
        "out": Kind(fields=("rule", "final_turns_owed")),
        "round_end": Kind(fields=("round", "breakdown", "round_points", "scores",
                                  "score_direction"), optional=("teams", "hands_left"),
                          cards="once the match is over, the cards left in hands"),
        "match_end": Kind(fields=("winners", "scores"), optional=("rounds",)),
        "play": Kind("cards played onto the table (KS-4, KS-5)", optional=AFTER,
                     cards="the cards played"),
        "take": Kind("the table taken as penalty cards (KS-6)", optional=AFTER,
                     cards="the cards taken"),
        "refill": Kind("a refill chosen (KS-7.1)", optional=AFTER),
        "end_turn": Kind("a turn ended short (KS-7.1)", optional=AFTER),
    },
)
