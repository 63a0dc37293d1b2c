"""Durak in words for the terminal (cardcore.narrate): its actions and event kinds, the
templates of its refusals (``explain_rule``) for translation, its notation and the notes on
its moves. The texts are msgids of the game's catalog (``locale/``)."""
from __future__ import annotations

from typing import Any

from cardcore.i18n import N_, P_, _, ngettext, personal
from cardcore.narrate import Event, Line, Phrase, PhraseFunction, Said, Who, cards_text, mine

SUIT_NAMES = {"C": N_("clubs"), "S": N_("spades"), "D": N_("diamonds"), "H": N_("hearts")}

# Why the hand (the match, DU-8) ended, by the events' ``reason_code``.
REASONS: dict[str, str | tuple[str, str]] = {
    "durak": (N_("you are the durak"), N_("the durak is {name}")),
    "draw": N_("the last cards went out together: nobody is the durak"),
    "bouts": N_("the bouts allowed are played: nobody is the durak"),
    "one_hand": N_("the game is over"),
    "hands": N_("every hand of the match is played"),
}

# "beat 6C with a seven (7C)": the beating card's rank in words (Russian: the instrumental
# case, «семёркой»), by the rank of the card notation.
RANK_WITH = {
    "6": N_("a six"), "7": N_("a seven"), "8": N_("an eight"), "9": N_("a nine"),
    "10": N_("a ten"), "J": N_("a jack"), "Q": N_("a queen"), "K": N_("a king"),
    "A": N_("an ace"),
}


# Who moves next, when the turn passes to another seat.
NEXT = Line(N_(" Next: {name}."), of="next_player", personal=False)


def _then_next(line: Line) -> PhraseFunction:
    """``line``, then who moves next if the turn passes to another seat."""
    def phrase(event: Event, seat: int | None, who: Who, name: str) -> Said:
        if "next_player" not in event or event["next_player"] == event.get("player"):
            return line
        return line, NEXT
    return phrase


TRANSFERRED = Line(P_("{name} transferred with {cards}."))
# Who defends the bout now: "you" or a seat, the verb agreeing (a name needs no gender).
NOW_DEFENDS = Line(N_(" Now {name} defend."), N_(" Now {name} defends."), of="defender")


def _transfer(event: Event, seat: int | None, who: Who, name: str) -> Said:
    return (TRANSFERRED, NOW_DEFENDS) if isinstance(event.get("defender"), int) else TRANSFERRED


def _trump(event: Event, seat: int | None, who: Who, name: str) -> str:
    return _("Turned up {cards}: trumps are {suit}.").format(
        cards=cards_text(event), suit=_(SUIT_NAMES.get(str(event.get("trump_suit")), "")))


def _first_attack(event: Event, seat: int | None, who: Who, name: str) -> Said:
    attacker = event["attacker"]
    if event.get("cards"):
        line = mine(attacker, seat, _("{name} show the lowest trump {cards} and attack first."),
                    _("{name} shows the lowest trump {cards} and attacks first."))
    else:
        line = mine(attacker, seat, _("{name} attack first."), _("{name} attacks first."))
    return line.format(name=who(attacker), cards=cards_text(event)), NOW_DEFENDS


ATTACKED = Line(P_("{name} attacked with {cards}."))
THREW_IN = Line(P_("{name} threw in {cards}."))


def _attack(event: Event, seat: int | None, who: Who, name: str) -> Said:
    """A lead (DU-4.1) or a card thrown in (DU-5): «пошли» / «подкинули»."""
    return _then_next(THREW_IN if event.get("throw_in") else ATTACKED)(event, seat, who, name)


def _beat(event: Event, seat: int | None, who: Who, name: str) -> Said:
    """"You beat 6C with a seven (7C).": the card beaten, then the card beating it."""
    cards = [str(c) for c in event.get("cards") or []]
    target = event.get("beats")
    if not cards or not isinstance(target, str):
        return _then_next(Line(P_("{name} beat with {cards}.")))(event, seat, who, name)
    rank = _(RANK_WITH.get(cards[0][:-1], ""))
    text = personal(event.get("player"), seat, P_("{name} beat {target} with {rank} ({cards}).")
                    ).format(name=name, target=target, rank=rank, cards=cards[0])
    nxt = event.get("next_player")
    return text if nxt is None or nxt == event.get("player") else (text, NEXT)


def _hand_end(event: Event, seat: int | None, who: Who, reason: str) -> str:
    """"The durak is player 2.": the match's end then says the game is over."""
    return reason + "."


def match_end(event: Event, seat: int | None, who: Who, reason: str) -> str:
    """The match is the hand (DU-8.2), whose end said who the durak is: to each seat, whether
    it escaped; to a spectator, that the game is over."""
    winners = event.get("winners") or []
    scores = event.get("scores") or []
    if event.get("reason_code") == "hands":     # DU-12: the fool's count tells
        counts = ", ".join(f"{who(k)} — {n}" for k, n in enumerate(scores))
        return _("{reason}. The fool's count: {counts}.").format(reason=reason, counts=counts)
    losers = [k for k in range(len(scores)) if k not in winners]
    names = ", ".join(who(k) for k in losers)
    if len(losers) > 1:                     # partners: a side loses together (DU-10.3)
        words = (_("{reason}. Your side ({names}) loses: you are the durak.")
                 if seat in losers else _("{reason}. The durak: {names}."))
    elif seat is None or seat not in winners:     # the hand's end named the durak
        return reason + "."
    else:
        words = _("{reason}. You are not the durak!")
    return words.format(reason=reason, names=names)


PHRASES: dict[str, Phrase] = {
    "attack": _attack,
    "beat": _beat,
    "transfer": _transfer,
    "take": _then_next(Line(P_("{name} said take; the others may throw in more."))),
    "pass": _then_next(Line(P_("{name} threw in nothing more."))),
    "deal": Line(P_("{name} dealt; stock: {count}."), of="dealer",
                 fields={"count": "stock_size"}),
    "trump": _trump, "first_attack": _first_attack,
    "beaten": Line(N_("Beaten: {cards} go to the discard pile."), personal=False),
    "picked_up": Line(P_("{name} took {cards}.")),
    "draw": (Line(P_("{name} drew {cards} from the stock.")),
             Line(N_(" Stock: {count}."), personal=False, fields={"count": "stock_size"})),
    "out": Line(P_("{name} ran out of cards.")),
    "hand_end": _hand_end,
    "match_end": match_end,
}

# The refusals of _state.pyx (explain_rule), as templates: cardcore.i18n.fill_template
# translates a refusal by the template it fills (a test checks that every refusal fits one).
REFUSALS = (
    N_("the attacker must lead a card"),
    N_("only a thrower may pass"),
    N_("only the defender may take"),
    N_("you do not hold {card}"),
    N_("only the defender may transfer"),
    N_("transfers are off (transfer=False)"),
    N_("the bout already has {count} attacking cards"),
    N_("a transfer comes before any card is beaten"),
    N_("{card} is not of the attacking rank"),
    N_("the next player holds too few cards to defend"),
    N_("only the defender beats cards"),
    N_("{card} does not beat {target}"),
    N_("the defender beats, transfers or takes"),
    N_("the defender holds no more cards to beat it"),
    N_("the rank of {card} is not on the table"),
    N_("several cards at once are off (attack_many=False)"),
    N_("the bout has room for {count} more attacking cards"),
    N_("the defender can answer only {count} more cards"),
)

# The notation, for the terminal's help: (an example, what it means).
NOTATION = (
    ("attack 7H", N_("lead a card, or throw in one of a rank on the table")),
    ("attack 7C 7H", N_("with several cards at once: lead or throw in cards of one rank")),
    ("beat 9H", N_("beat the first uncovered attacking card: higher of its suit, or a trump")),
    ("transfer 7S", N_("in perevodnoy durak: add a card of the attacking rank and pass the "
                       "attack on")),
    ("take", N_("take the table into your hand")),
    ("pass", N_("throw in nothing more (after a take: enough)")),
)

# The words Russian players say for their moves, which the terminal takes for the notation
# («бито», «беру», «перевести 7S»); the number of a move works too.
SPOKEN_MOVES = {
    "бито": "pass", "пас": "pass", "хватит": "pass",
    "беру": "take", "взять": "take", "забрать": "take",
    "пойти": "attack", "хожу": "attack", "подкинуть": "attack", "подкидываю": "attack",
    "побить": "beat", "бью": "beat", "крою": "beat", "покрыть": "beat",
    "перевести": "transfer", "перевожу": "transfer",
}


def help_lines(game: Any) -> list[str]:
    """The terminal help's lines on Durak's cards and words: the 36-card pack's ranks, six
    to ace (DU-1), suits by letter or sign, and the Russian move words."""
    return [_("Cards: rank then suit, by letter or by sign: 7H or 7♥ = seven of hearts, 10D "
              "or 10♦ = ten of diamonds; suits C ♣ clubs, D ♦ diamonds, H ♥ hearts, S ♠ "
              "spades. Ranks from low to high: 6 7 8 9 10 J (jack) Q (queen) K (king) A "
              "(ace); a trump beats any card of another suit."),
            _("Moves in Russian words work too: «бито», «пас» or «хватит» (pass), «беру» "
              "(take), «пойти 7H» or «подкинуть 7H» (attack), «побить 9H» (beat), "
              "«перевести 7S» (transfer).")]


# The moves in words, for the terminal's list of moves («Побить 7C»): the web table's
# captions (web/board.js ``actions`` and ``phase_actions``; a test holds them equal).
MOVE_WORDS = {"attack": N_("Attack"), "beat": N_("Beat"), "transfer": N_("Transfer"),
              "take": N_("Take"), "pass": N_("Pass")}
PHASE_MOVE_WORDS = {"throw_in": {"attack": N_("Throw in"), "pass": N_("Beaten")},
                    "take_throw_in": {"attack": N_("Throw in"), "pass": N_("Enough")}}


def count_words(what: str, count: int) -> str:
    """A scoring row's count in words: the durak's cards left («дурак (8 карт)»); a seat
    that got out (a partner of the durak too, DU-10.3) has nothing to count."""
    if what == "durak" and count:
        return ngettext("{count} card", "{count} cards", count).format(count=count)
    return ""


def forced_note(action: Any) -> str | None:
    """The terminal's words for a forced move: a pass with nothing to throw in."""
    return _("(nothing to throw in: pass)") if action.kind == "pass" else None


def move_note(action: Any) -> str | None:
    """What a move does that its notation does not say: ``take`` picks up the table."""
    if action.kind == "take" and action.cards:
        return _("picks up {cards}").format(cards=" ".join(action.cards))
    return None


def explain_notation(words: list[str], hand: list[str]) -> tuple[str, str] | None:
    """Why ``attack``/``beat`` with more than one card is no move: Durak plays one card at a
    time (DU-4), unless several cards of one rank are on (DU-13, ``attack 7C 7H``)."""
    if len(words) > 2 and words[0].lower() in ("attack", "beat", "transfer"):
        ranks = {w.upper()[:-1] for w in words[1:]}
        if words[0].lower() == "attack" and len(ranks) > 1:
            return (N_("several cards at once are of one rank"), "DU-13.1")
        return (N_("one card at a time: each attacking card is answered before the next"),
                "DU-4.2")
    return None
