"""Belote Contrée in words for the terminal (cardcore.narrate): its actions and event kinds,
and the templates of its refusals (``explain_rule``) for translation. The texts are msgids of
the game's catalog (``locale/``); the Russian words are listed in the rulebook's glossary."""
from __future__ import annotations

from cardcore.i18n import N_, P_, _, personal
from cardcore.narrate import Event, Line, Phrase, Said, Who

SUIT_NAMES = {"S": N_("spades"), "H": N_("hearts"), "D": N_("diamonds"), "C": N_("clubs"),
              "NT": N_("no trumps"), "AT": N_("all trumps")}   # contracts="all" (BE-9)

# Why the deal or the match (one deal: BE-2.3; to a target: BE-10) ended, by the events'
# ``reason_code``.
REASONS: dict[str, str | tuple[str, str]] = {
    "made": N_("the contract is made"),
    "fell": N_("the contract fell"),
    "passed_out": N_("all four passed: the deal is passed out"),
    "one_deal": N_("its one deal is played"),
    "match_to": N_("a side's total reached the match's target"),
    "deals": N_("the two hundredth deal is played"),
}

# Who moves next, when the turn passes to another seat.
NEXT = Line(N_(" Next: {name}."), of="next_player", personal=False)


def _then_next(line: Line) -> Phrase:
    """``line``, then who moves next if the turn passes to another seat."""
    def phrase(event: Event, seat: int | None, who: Who, name: str) -> Said:
        if "next_player" not in event or event["next_player"] == event.get("player"):
            return line
        return line, NEXT
    return phrase


def _bid_words(template: str, ntat: str) -> Phrase:
    """A bid or a capot, its trump suit in words (``ntat``: no-trump or all-trump, BE-9), then
    who speaks next."""
    def phrase(event: Event, seat: int | None, who: Who, name: str) -> Said:
        chosen = ntat if event.get("suit") in ("NT", "AT") else template
        text = personal(event.get("player"), seat, chosen).format(
            name=name, value=event.get("value"),
            suit_name=_(SUIT_NAMES.get(str(event.get("suit")), "")))
        nxt = event.get("next_player")
        return text if nxt is None or nxt == event.get("player") else (text, NEXT)
    return phrase


def _contract(event: Event, seat: int | None, who: Who, name: str) -> str:
    doubled = ("", _(", contre"), _(", surcontre"))[int(event.get("contre", 0))]
    template = (_("Contract: {value}, {suit_name}{doubled}, taken by {name}.")
                if event.get("suit") in ("NT", "AT")
                else _("Contract: {value} in {suit_name}{doubled}, taken by {name}."))
    return template.format(
        value=event.get("value"), suit_name=_(SUIT_NAMES.get(str(event.get("suit")), "")),
        doubled=doubled, name=who(int(event["taker"])))


def _belote(event: Event, seat: int | None, who: Who, name: str) -> str:
    if event.get("stage") == "rebelote":
        return _("{name}: «Rebelote!»").format(name=name)
    return _("{name}: «Belote!»").format(name=name)


def _deal_end(event: Event, seat: int | None, who: Who, reason: str) -> str:
    return _("The deal is over: {reason}.").format(reason=reason)


PHRASES: dict[str, Phrase] = {
    "play": _then_next(Line(P_("{name} played {cards}."))),
    "pass": _then_next(Line(P_("{name} passed."))),
    "bid": _bid_words(P_("{name} bid {value} in {suit_name}."),
                      P_("{name} bid {value}, {suit_name}.")),
    "capot": _bid_words(P_("{name} bid capot in {suit_name}."),
                        P_("{name} bid capot, {suit_name}.")),
    "contre": _then_next(Line(P_("{name} said contre."))),
    "surcontre": _then_next(Line(P_("{name} said surcontre."))),
    "deal": Line(P_("Deal {deal}: {name} dealt."), of="dealer"),
    "auction_end": _contract,
    "belote": _belote,
    "trick_won": Line(P_("{name} won the trick ({points} points)."),
                      fields={"points": "points"}),
    "deal_end": _deal_end,
}

# The refusals of the kernel (be_refuse), in its order: templates that
# cardcore.i18n.fill_template translates (a test checks that every refusal fits one).
REFUSALS = (
    N_("the auction comes first: pass, bid, contre or surcontre"),
    N_("the auction is over: play a card"),
    N_("a bid must be higher than {value}"),
    N_("nothing outbids a capot"),
    N_("after a contre nobody bids: pass or surcontre"),
    N_("there is no contract to contre"),
    N_("only the opponents of the contract's side may say contre, once"),
    N_("the contract is already doubled"),
    N_("only the contract's side may say surcontre, after a contre"),
    N_("you do not hold {card}"),
    N_("{card} does not follow the suit led, {suit}"),
    N_("{card} does not beat the trumps on the table, and you hold one that does"),
    N_("{card}: you cannot follow, so you must trump in {suit}"),
    N_("no-trump and all-trump bids are not offered: the option contracts is \"suits\""),
    N_("{card} does not beat the cards of the suit led on the table, and you hold one that does"),
)

NOTATION = (
    ("bid 80S", N_("bid 80 (to 160, by tens) with spades trumps (S H D C)")),
    ("capot H", N_("bid capot (all eight tricks) with hearts trumps")),
    ("bid 80NT", N_("contracts=\"all\": bid 80 in no trumps (NT) or all trumps (AT)")),
    ("pass", N_("pass")),
    ("contre", N_("double the opponents' contract")),
    ("surcontre", N_("redouble after their contre")),
    ("play 10H", N_("play a card")),
)
