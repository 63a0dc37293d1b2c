"""Crazy Eights' parts of the JSON Schemas (cardcore.schemas puts them together)."""
from __future__ import annotations

from cardcore.schema_parts import CARD, CARDS, NAT, Schema, SchemaParts, array, nullable

SUIT: Schema = {"enum": ["C", "D", "H", "S"]}          # OpenSpiel's order, as the nominations
DIRECTION: Schema = {"enum": [1, -1]}


def view(seat: Schema, max_players: int) -> dict[str, Schema]:
    """The keys Crazy Eights' view adds (games/crazy_eights.md, CE-9)."""
    per_seat_cards = {"type": "array", "items": CARDS, "maxItems": max_players}
    return {
        "top_card": CARD, "suit": SUIT, "direction": DIRECTION, "dealer": seat,
        "stock_size": NAT, "discard": CARDS, "draws_this_turn": NAT, "max_draw_cards": NAT,
        "draw_two_owed": NAT, "passes": NAT, "plays": NAT, "max_turns": NAT,
        "reburied": CARDS, "stock_bottom_known": CARDS, "known_eights": per_seat_cards,
        "final_hands": nullable(per_seat_cards),
    }


SCHEMA = SchemaParts(
    view=view,
    action_info={"suit": SUIT},
    event_fields={"dealer": NAT, "stock_size": NAT, "place": {"enum": ["bottom", "random"]},
                  "suit": SUIT, "first_player": NAT, "direction": DIRECTION,
                  "draw_two_owed": NAT, "next_player": NAT,
                  "hands": array(CARDS),
                  "score_direction": {"const": "lower is better"}},
)
