"""Kuzanasta's parts of the JSON Schemas (cardcore.schemas puts them together)."""
from __future__ import annotations

from cardcore.schema_parts import (
    BOOL, CARD, CARDS, INT, NAT, RANK, STR, Schema, SchemaParts, array, closed_object, nullable,
)

DEAL_ENDS = {"enum": ["went_out", "no_draw", "max_turns"]}


def view(seat: Schema, max_players: int) -> dict[str, Schema]:
    """The keys Kuzanasta's view adds (games/kuzanasta.md, "What a seat sees")."""
    set_value = closed_object({"set": STR, "value": NAT})
    last_deal = closed_object({
        "end": DEAL_ENDS, "winner": nullable(seat),
        "wild_rank": nullable(RANK), "sets": array(set_value, 2), "hand": CARDS,
        "hand_points": NAT, "turn_up_doubled": BOOL, "god_doubled": BOOL, "total": NAT,
        "pot": INT}, required=["end", "winner", "wild_rank"])
    return {
        "wild_rank": nullable(RANK), "turn_up": CARD,
        "discards": {"type": "array", "items": CARDS, "minItems": 1, "maxItems": 2},
        "my_pile": {"enum": [0, 1]}, "pile_of": array({"enum": [0, 1]}),
        "stock_sizes": {"type": "array", "items": NAT, "minItems": 1, "maxItems": 2},
        "dealer": seat, "first_player": seat, "deal": NAT,
        "turns_in_deal": NAT, "god_holder": nullable(seat), "chips": array(INT),
        "pot": INT,
        "best_sets": nullable(closed_object({"sets": array(STR, 2), "value": NAT})),
        "last_deal": nullable(last_deal),
    }


SCHEMA = SchemaParts(
    view=view,
    action_info={"sets": array(STR, 2), "descriptors": array(NAT, 2), "best": BOOL,
                 "pile": {"enum": [0, 1]}, "depth": NAT},
    event_fields={"target": NAT, "deals": NAT, "dealer": NAT, "first_player": NAT, "pot": INT,
                  "chips": array(INT), "wild_rank": nullable(RANK), "pile": {"enum": [0, 1]},
                  "stock_size": NAT, "reshuffled": BOOL, "end": DEAL_ENDS,
                  "winner": nullable(NAT), "pot_won": INT,
                  "score_direction": {"const": "higher is better"}},
)
