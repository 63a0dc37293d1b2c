"""Manna from Heaven's parts of the JSON Schemas (cardcore.schemas puts them together)."""
from __future__ import annotations

from cardcore.cards import RANKS
from cardcore.schema_parts import (
    BOOL, CARDS, INT, NAT, STR, Schema, SchemaParts, array, closed_object, nullable,
)

RANKS_AND_WILD: Schema = {"enum": list(RANKS) + ["wild"]}     # a meld's rank (MH-4)

CANASTA_TYPES = {"enum": ["natural", "mixed", "wild", "sevens"]}
TEAM = {"enum": [0, 1]}


def view(seat: Schema, max_players: int) -> dict[str, Schema]:
    """The keys Manna's view adds (games/manna.md, MH-11)."""
    meld = closed_object({"rank": RANKS_AND_WILD, "cards": CARDS,
                          "complete": BOOL, "type": nullable(CANASTA_TYPES)})
    return {
        "team": TEAM, "melds": array(array(meld), 2),
        "red_threes": array(array({"enum": ["3D", "3H"]}), 2), "discard": CARDS,
        "frozen": BOOL, "stock_size": NAT, "foot_sizes": array(NAT, 6),
        "min_meld": array(NAT, 2), "opened": array(BOOL, 2),
        "canasta_types": array(array(CANASTA_TYPES), 2), "dealer": seat, "hand_number": NAT,
        "turn_points": NAT, "last_hand_scores": array(INT, 2),
    }


SCHEMA = SchemaParts(
    view=view,
    action_info={"with": {"enum": ["add", "pair", "natural+two", "natural+joker"]},
                 "ways": STR, "melded": CARDS, "from_hand": CARDS,
                 "group": {"enum": RANKS_AND_WILD["enum"] + ["black3"]}, "new": BOOL,
                 "naturals": NAT, "twos": NAT, "jokers": NAT, "compact": STR},
    event_fields={"target": NAT, "hands": NAT, "dealer": NAT, "first_player": NAT,
                  "min_meld": {"anyOf": [NAT, array(NAT, 2)]}, "frozen": BOOL,
                  "team": TEAM, "replaced": BOOL, "stock_size": NAT,
                  "melded": CARDS, "from_hand": CARDS, "turn_points": NAT, "opened": BOOL,
                  "rank": RANKS_AND_WILD, "type": CANASTA_TYPES,
                  "went_out": nullable(NAT), "hand_scores": array(INT, 2),
                  "team_scores": array(INT, 2), "score_direction": {"const": "higher is better"}},
)
