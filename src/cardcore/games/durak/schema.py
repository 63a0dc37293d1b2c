"""Durak's parts of the JSON Schemas (cardcore.schemas puts them together)."""
from __future__ import annotations

from cardcore.schema_parts import (
    CARD, CARDS, NAT, Kind, Schema, SchemaParts, array, described as d, nullable,
)

SUIT: Schema = {"enum": ["C", "S", "D", "H"]}


def view(seat: Schema, max_players: int) -> dict[str, Schema]:
    """The keys Durak's view adds (games/durak.md, DU-11)."""
    per_seat_cards = {"type": "array", "items": CARDS, "maxItems": max_players}
    pair = {"type": "array", "prefixItems": [CARD, nullable(CARD)], "items": False,
            "minItems": 2, "maxItems": 2}
    return {
        "trump_suit": d(SUIT, "the trump suit (DU-2.3)"),
        "trump_card": d(CARD, "the card turned face up for trumps (DU-2.3)"),
        "stock_size": d(NAT, "cards left in the stock, the trump card included"),
        "dealer": d(seat, "the dealer's seat (DU-2.1)"),
        "attacker": d(nullable(seat), "the principal attacker of the bout; null once over"),
        "defender": d(nullable(seat), "the defender of the bout; null once over"),
        "bout": d(array(pair), "the bout's attacking cards in play order, each with the card "
                  "beating it or null (DU-4)"),
        "bout_limit": d(NAT, "the most attacking cards of this bout (DU-4.5, DU-4.6)"),
        "taking": d({"type": "boolean"}, "the defender has said take (DU-6.1)"),
        "bouts": d(NAT, "bouts finished"),
        "discard_size": d(NAT, "cards in the discard pile (DU-6.3)"),
        "shown_trump": d(nullable(CARD), "the lowest trump the first attacker showed "
                         "(DU-3.1), or null"),
        "known_cards": d(per_seat_cards, "per seat, the cards everybody knows it holds: "
                         "taken from the table, the trump card drawn, the trump shown "
                         "(DU-11.2)"),
        "out": d(array(seat), "the seats out of cards (DU-8.1)"),
        "sides": d(array(NAT), "the side of each seat: partners share one (DU-10.1)"),
        "durak": d(nullable(seat), "once over, the last hand's durak: the seat left holding "
                   "cards; null before or for a draw (DU-8)"),
        "hand_number": d(NAT, "the hand being played, from 1 (the last one once over, DU-12)"),
        "hands": d(NAT, "the hands the match lasts (DU-12.1)"),
        "fools": d(array(NAT), "per seat, the hands it lost: the fool's count (DU-12.3)"),
    }


NEXT = ("attacker", "defender", "next_player")      # after a move, unless it ended the game

SCHEMA = SchemaParts(
    view=view,
    action_info={},
    action_kinds={
        "attack": Kind("lead a card or throw one in (DU-4.1, DU-5); several of one rank with "
                       "attack_many (DU-13.1)", cards="the card played, or the cards"),
        "beat": Kind("beat the first uncovered attacking card (DU-4.2)", cards="the card "
                     "played"),
        "transfer": Kind("pass the attack on with a card of its rank (DU-9)", cards="the "
                         "card played"),
        "take": Kind("take the table (DU-6)"),
        "pass": Kind("throw in nothing more (DU-5.3)"),
    },
    event_fields={
        "dealer": d(NAT, "the dealer's seat (DU-2.1)"),
        "stock_size": d(NAT, "cards left in the stock after it"),
        "trump_suit": d(SUIT, "the trump suit (DU-2.3)"),
        "attacker": d(NAT, "the principal attacker after it (DU-4.1)"),
        "defender": d(NAT, "the defender after it (DU-4.1)"),
        "next_player": d(NAT, "the seat to move next"),
        "throw_in": d({"type": "boolean"}, "the card was thrown in (DU-5), not led (DU-4.1)"),
        "beats": d(CARD, "the attacking card it beat (DU-4.2)"),
        "hands_left": d(array(NAT), "the cards each seat still held, by seat (DU-8)"),
        "score_direction": d({"const": "lower is better"}, "1 marks the durak: lower is "
                             "better"),
    },
    event_kinds={
        "deal": Kind(fields=("hand", "dealer", "stock_size", "trump_suit", "rule")),
        "dealt": Kind(fields=("rule",), cards="the seat's hand (only that seat sees it)"),
        "trump": Kind(fields=("rule", "trump_suit"), cards="the card turned face up"),
        "first_attack": Kind(fields=("rule", "attacker", "defender"),
                             cards="the lowest trump shown, if any"),
        "beaten": Kind(fields=("rule",), cards="the bout's cards"),
        "picked_up": Kind(fields=("rule",), cards="the bout's cards"),
        "draw": Kind(fields=("rule", "stock_size"), cards="the cards drawn (only the drawer "
                     "sees them)"),
        "out": Kind(fields=("rule",)),
        "hand_end": Kind(fields=("hand", "reason", "rule", "hands_left", "breakdown",
                                 "scores", "score_direction")),
        "match_end": Kind(fields=("winners", "scores")),
        "attack": Kind("a card led or thrown in (DU-4.1, DU-5), or several of one rank "
                       "(DU-13.1)", fields=("throw_in",), optional=NEXT,
                       cards="the card played, or the cards"),
        "beat": Kind("an attacking card beaten (DU-4.2)", fields=("beats",), optional=NEXT,
                     cards="the card played"),
        "transfer": Kind("the attack passed on (DU-9)", optional=NEXT, cards="the card "
                         "played"),
        "take": Kind("the defender takes (DU-6.1)", optional=NEXT),
        "pass": Kind("a thrower throws in nothing more (DU-5.3)", optional=NEXT),
    },
)
