"""Manna from Heaven's parts of the JSON Schemas (cardcore.schemas puts them together)."""
from __future__ import annotations

from cardcore.cards import RANKS
from cardcore.schema_parts import (
    BOOL, CARDS, INT, NAT, STR, Kind, Schema, SchemaParts, array, closed_object,
    described as d, nullable,
)

RANKS_AND_WILD: Schema = {"enum": list(RANKS) + ["wild"]}     # a meld's rank (MH-4)

CANASTA_TYPES = {"enum": ["natural", "mixed", "wild", "sevens"]}
TEAM = {"enum": [0, 1]}


def view(seat: Schema, max_players: int) -> dict[str, Schema]:
    """The keys Manna's view adds (games/manna.md, MH-11)."""
    meld = closed_object({
        "rank": d(RANKS_AND_WILD, "the meld's rank, or wild (MH-4.3)"),
        "cards": d(CARDS, "its cards"),
        "complete": d(BOOL, "a canasta: seven cards (MH-4.5)"),
        "type": d(nullable(CANASTA_TYPES), "the canasta's type, or null while unfinished "
                  "(MH-4.5)")})
    return {
        "team": d(nullable(TEAM), "this seat's team (seat % 2); null in the spectator's view"),
        "melds": d(array(array(meld), 2), "each team's melds, by team (MH-4)"),
        "red_threes": d(array(array({"enum": ["3D", "3H"]}), 2),
                        "the red threes each team laid out, by team (MH-8.1)"),
        "discard": d(CARDS, "the discard pile, bottom to top"),
        "frozen": d(BOOL, "the pile is frozen (MH-5.2)"),
        "stock_size": d(NAT, "cards left in the stock"),
        "foot_sizes": d(array(NAT, 6), "cards in each seat's foot, by seat; 0 once picked up "
                        "(MH-6)"),
        "min_meld": d(array(NAT, 2), "each team's initial-meld minimum this hand (MH-4.8)"),
        "opened": d(array(BOOL, 2), "whether each team has made its initial meld (MH-4.8)"),
        "canasta_types": d(array(array(CANASTA_TYPES), 2),
                           "the canasta types each team has completed (MH-9.1)"),
        "dealer": d(seat, "the dealer's seat (MH-2.1)"),
        "hand_number": d(NAT, "the hand being played, from 1 (the last one once over)"),
        "turn_points": d(NAT, "the points melded so far this turn, counted for the initial "
                         "meld (MH-4.8)"),
        "last_hand_scores": d(array(INT, 2), "each team's score for the last hand"),
    }


SCHEMA = SchemaParts(
    view=view,
    action_info={
        "with": d({"enum": ["add", "pair", "natural+two", "natural+joker"]},
                  "how the pile's top card is melded (MH-5.3)"),
        "ways": d(STR, "the cases of MH-5.3 this take covers: a, b, c"),
        "melded": d(CARDS, "the cards the take melds: the top card, then those from the hand"),
        "from_hand": d(CARDS, "the hand cards the take melds (the engine's choice)"),
        "group": d({"enum": RANKS_AND_WILD["enum"] + ["black3"]},
                   "the meld's rank, wild, or black3 (MH-4.7)"),
        "new": d(BOOL, "a new meld (true) or an addition to the team's unfinished one"),
        "naturals": d(NAT, "natural cards of the rank it takes"),
        "twos": d(NAT, "twos it takes"),
        "jokers": d(NAT, "jokers it takes"),
        "compact": d(STR, "the 0.1 notation (still accepted by apply)")},
    action_kinds={
        "draw_stock": Kind("draw two cards from the stock (MH-3.1)"),
        "take_pile": Kind("take the discard pile, melding its top card (MH-5)",
                          ("with", "ways", "melded", "from_hand")),
        "meld": Kind("a new meld or an addition to one of the team's (MH-3.2, MH-4)",
                     ("group", "new", "naturals", "twos", "jokers", "compact")),
        "retract": Kind("take back the provisional melds of an initial meld below its "
                        "minimum (MH-4.8)"),
        "discard": Kind("discard a card, ending the turn (MH-3.3)",
                        cards="the card discarded"),
        "go_out": Kind("go out by discarding a card (MH-9.2)", cards="the card discarded"),
    },
    event_fields={
        "target": d(NAT, "the points that end the match (MH-10.6)"),
        "hands": d(NAT, "the hands the match lasts (MH-10.7)"),
        "dealer": d(NAT, "the dealer's seat (MH-2.1)"),
        "first_player": d(NAT, "the seat that plays first (MH-2.1)"),
        "min_meld": d(array(NAT, 2), "each team's initial-meld minimum this hand (MH-4.8)"),
        "frozen": d(BOOL, "the pile is frozen (MH-5.2)"),
        "team": d(TEAM, "the team it concerns"),
        "replaced": d(BOOL, "the red threes were replaced from the stock (MH-2.4, MH-8.1, "
                      "MH-6.2), or not (MH-5.4)"),
        "stock_size": d(NAT, "cards left in the stock after it"),
        "melded": d(CARDS, "the cards melded: the pile's top card, then those from the hand"),
        "turn_points": d(NAT, "the points melded so far this turn (MH-4.8)"),
        "opened": d(BOOL, "whether the team has made its initial meld after it (MH-4.8)"),
        "rank": d(RANKS_AND_WILD, "the canasta's rank, or wild"),
        "type": d(CANASTA_TYPES, "the canasta's type (MH-4.5)"),
        "went_out": d(nullable(NAT), "the seat that went out, or null (the stock ran out, "
                      "MH-9.5)"),
        "hand_scores": d(array(INT, 2), "each team's score for the hand, by team"),
        "team_scores": d(array(INT, 2), "each team's match total after it, by team"),
        "score_direction": d({"const": "higher is better"}, "higher is better"),
    },
    event_kinds={
        "deal": Kind(fields=("hand", "dealer", "first_player", "min_meld", "rule")),
        "dealt": Kind(fields=("rule",), cards="the seat's hand after its red threes were "
                      "replaced (only that seat sees it)"),
        "foot_dealt": Kind(fields=("rule",), cards="the seat's foot (nobody sees it)"),
        "first_discard": Kind(fields=("rule", "frozen"), cards="the card that starts the pile"),
        "red_three": Kind(fields=("team", "rule", "replaced"), cards="the red threes laid out"),
        "canasta": Kind(fields=("team", "rank", "type", "rule"), cards="the canasta's cards"),
        "foot": Kind(fields=("rule",), cards="the foot's cards (only its owner sees them)"),
        "hand_end": Kind(fields=("hand", "went_out", "rule", "breakdown", "hand_scores",
                                 "team_scores", "scores", "score_direction")),
        "match_end": Kind(fields=("winners", "scores"), optional=("target", "hands")),
        "draw_stock": Kind("cards drawn from the stock (MH-3.1)", ("stock_size",),
                           cards="the cards drawn (only the drawer sees them)"),
        "take_pile": Kind("the discard pile taken (MH-5)", ("melded",),
                          cards="the whole pile, bottom to top"),
        "meld": Kind("a meld laid or added to (MH-4)",
                     optional=("turn_points", "min_meld", "opened"),
                     own={"min_meld": d(NAT, "the team's initial-meld minimum (MH-4.8)")},
                     cards="the cards melded"),
        "retract": Kind("provisional melds taken back (MH-4.8)",
                        cards="the cards taken back into the hand"),
        "discard": Kind("a card discarded (MH-3.3)", cards="the card discarded"),
        "go_out": Kind("a seat goes out (MH-9)", cards="the card discarded"),
    },
)
