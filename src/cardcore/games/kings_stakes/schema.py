"""Kings' Stakes' parts of the JSON Schemas (cardcore.schemas puts them together)."""
from __future__ import annotations

from cardcore.schema_parts import (
    CARDS, INT, NAT, STR, Schema, SchemaParts, array, closed_object, nullable,
)


def view(seat: Schema, max_players: int) -> dict[str, Schema]:
    """The keys Kings' Stakes' view adds (games/kings_stakes.md, "What a seat sees")."""
    per_seat = {"type": "array", "items": NAT, "maxItems": max_players}
    return {
        "table": CARDS, "stake": NAT, "direction": {"enum": [1, -1]},
        "penalty_counts": per_seat, "stock_size": NAT, "discard": CARDS,
        "chip_holder": nullable(seat), "round": NAT, "rounds": NAT,
        "round_first_player": seat, "out_player": nullable(seat),
        "final_turns_owed": array(seat),
        "last_play": nullable(closed_object({"player": seat, "action": STR})),
        "teams": nullable(array(array(seat, 2), 2)),
    }


SCHEMA = SchemaParts(
    view=view,
    action_info={"effect": {"enum": ["number", "jack", "queen", "king", "king_queen",
                                     "queen_jack", "four_kings"]},
                 "amount": NAT, "jokers_as": array({"type": ["string", "integer"]})},
    event_fields={"rounds": NAT, "first_player": NAT, "stock_size": NAT, "stake": NAT,
                  "direction": {"enum": [1, -1]},
                  "score_direction": {"const": "lower is better"},
                  "final_turns_owed": array(NAT), "round_points": array(INT),
                  "teams": array(closed_object({"seats": array(NAT, 2), "points": INT,
                                                "rule": STR})),
                  "hands_left": array(NAT)},
)
