"""Kings' Stakes in words for the terminal (cardcore.narrate): its own event kinds, and the
templates of its refusals (the state machine's ``explain_rule`` texts) for translation. The
texts are msgids of the game's catalog (``locale/``)."""
from __future__ import annotations

from cardcore.i18n import N_, P_, _, ngettext
from cardcore.narrate import Event, Line, Phrase, PhraseFunction, Said, Who


def _staked(line: Line) -> tuple[Line, Line]:
    """``line`` and the stake the next play must meet (KS-4.3): clockwise, counter-clockwise."""
    return (Line(N_("{line} Stake {stake}."), personal=False, fields={"line": line}),
            Line(N_("{line} Stake {stake}, counter-clockwise."), personal=False,
                 fields={"line": line}))


def _with_stake(line: Line, staked: tuple[Line, Line]) -> PhraseFunction:
    def phrase(event: Event, seat: int | None, who: Who, name: str) -> Said:
        if "stake" not in event:
            return line
        return staked[event.get("direction") == -1]
    return phrase


PLAYED = Line(P_("{name} played {cards}."))
PLAYED_AS_NOTED = Line(P_("{name} played {cards}."), fields={"cards": "action"})
REFILLED = Line(P_("{name} refilled the hand."))
ENDED = Line(P_("{name} ended the turn without refilling."))
_play_staked = _with_stake(PLAYED, _staked(PLAYED))
_play_noted = _with_stake(PLAYED_AS_NOTED, _staked(PLAYED_AS_NOTED))


def _play(event: Event, seat: int | None, who: Who, name: str) -> Said:
    if not event.get("cards") and not event.get("hidden"):     # no cards: its notation
        return _play_noted(event, seat, who, name)
    return _play_staked(event, seat, who, name)


def _round_end(event: Event, seat: int | None, who: Who, reason: str) -> str:
    return _("Round {round} is over: {reason}.").format(round=event.get("round"), reason=reason)


PHRASES: dict[str, Phrase] = {
    "play": _play,
    "refill": _with_stake(REFILLED, _staked(REFILLED)),
    "end_turn": _with_stake(ENDED, _staked(ENDED)),
    "take": Line(P_("{name} took the table: {cards}. The stake is back to 0.")),
    "draw": Line(P_("{name} drew {cards} from the stock.")),
    "table_cleared": Line(N_("The king clears the table to the discard pile: {cards}."),
                          personal=False),
    "chip": Line(P_("{name} now hold the forget-me chip.")),
    "out": Line(P_("{name} went out; the others get their final turns.")),
    "round_end": _round_end,
    "deal": Line(N_("Round {round} begins; {name} lead. Stock: {count}."),
                 N_("Round {round} begins; {name} leads. Stock: {count}."), of="first_player",
                 fields={"count": "stock_size"}),
}

# Why a round or the match ended (the events' ``reason_code``): said to the seat, said of it.
REASONS: dict[str, str | tuple[str, str]] = {
    "final_turns": (N_("you went out and the final turns are played"),
                    N_("{name} went out and the final turns are played")),
    "final_take": (N_("you took the table during the final turns"),
                   N_("{name} took the table during the final turns")),
    "four_kings": (N_("you played four kings"), N_("{name} played four kings")),
    "rounds": N_("all {rounds} rounds are played"),
}


# The refusals of _state.pyx (explain_rule), as templates: cardcore.i18n.fill_template
# translates a refusal by the template it fills (a test checks that every refusal fits one).
REFUSALS = (
    N_("after a play choose refill or end_turn"),
    N_("refill and end_turn follow a play when refill='manual' and the hand is short"),
    N_("there is nothing on the table to take"),
    N_("four kings needs all four kings in hand"),
    N_("you do not hold {card}"),
    N_("you do not hold {count} joker(s)"),
    N_("with 2 players there are no queens for a joker to stand for"),
    N_("amount {amount} is below the stake {stake}"),
)
# Refusals with a count, said with the plural the count takes (cardcore.texts.refusal_text).
PLURAL_REFUSALS = {
    "you do not hold {count} joker(s)": lambda n: ngettext(
        "you do not hold {count} joker", "you do not hold {count} jokers", n),
}

# The notation, for the terminal's help: (an example, what it means).
NOTATION = (
    ("play 7H", N_("play one card: a number card counts its value (ace 11)")),
    ("play 7H 7S", N_("a pair: same rank, or one suit and values one apart (KS-4.2)")),
    ("play JK=9", N_("a lone joker played as a 9 (any value 1 to 11)")),
    ("play 5H JK=4H", N_("a joker standing for the 4 of hearts beside your 5H (KS-4.4)")),
    ("play KS JK=QS", N_("king and a joker as the queen of spades: stake 0, direction "
                         "reverses (KS-4.4, KS-5.5)")),
    ("play KC KS KD KH", N_("four kings (KS-5.7)")),
    ("take", N_("take the table: its cards become your penalty cards (KS-6)")),
    ("refill, end_turn", N_("with refill='manual': draw back to 4 cards, or not (KS-7)")),
)

_VALUES = {"A": 11, "T": 10, **{str(v): v for v in range(2, 10)}}


def explain_notation(words: list[str], hand: list[str]) -> tuple[str, str] | None:
    """Why ``play C1 C2`` (natural cards, all held) is no play of the game: a pair is two
    number cards of one rank, or of one suit one apart (KS-4.2); court cards play alone or
    in KS-5's combinations."""
    if len(words) != 3 or words[0].lower() != "play" or any("=" in w for w in words):
        return None
    cards = [w.upper() for w in words[1:]]
    if any(c[:-1] in ("J", "Q", "K") for c in cards):
        return (N_("jacks, queens and kings pair only in the combinations of KS-5"), "KS-4.2")
    (r1, s1), (r2, s2) = ((c[:-1], c[-1]) for c in cards)
    if r1 != r2 and (s1 != s2 or abs(_VALUES.get(r1, 0) - _VALUES.get(r2, 0)) != 1):
        return (N_("a pair is two cards of the same rank, or of one suit with values one "
                   "apart"), "KS-4.2")
    return None


# The moves in words, for the terminal («Сыграть JH», the last move): the web table's
# captions (web/board.js ``actions``; tests/test_move_words.py holds them equal).
MOVE_WORDS = {"play": N_("Play"), "take": N_("Take the table"), "refill": N_("Refill"),
              "end_turn": N_("End turn")}
