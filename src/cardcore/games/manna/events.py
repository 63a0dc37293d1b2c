"""Manna from Heaven events (cardcore.events): what each seat saw happen.

Kinds: ``deal`` (a hand begins: hand number, dealer, first player, minimums, MH-2), ``dealt``
(a seat's hand after its red threes were replaced: only that seat sees it), ``foot_dealt``
(11 cards nobody sees, MH-2.2), ``first_discard`` (MH-2.3), the action kinds (``draw_stock``
names the cards for the drawer only; ``take_pile`` names the pile and, in ``melded``, the
cards melded; ``meld`` and ``retract`` name their cards), ``red_three`` (laid out before a team:
MH-2.4, MH-8.1, MH-6.2 replaced from the stock; MH-5.4 from the pile, not replaced),
``canasta`` (MH-4.5: a meld reached seven cards), ``foot`` (MH-6.1: a foot picked up; its
cards for its owner only), ``hand_end`` (MH-9, MH-10: per team, the breakdown) and
``match_end``.

The hand-end breakdown is computed from the position just before the last action plus that
action's effect (the state machine deals the next hand at once); its components add up to the
engine's hand score (tests check this on random matches).
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cardcore._fast import GameState
from cardcore.cards import JOKER
from cardcore.events import Narrator, Raw, breakdown, multiset_minus, private, public
from cardcore.cards import card_id, card_str
from cardcore.games.manna._melds import py_canasta_type
from cardcore.games.manna._state import MannaState
from cardcore.games.manna.actions import GROUP_NAMES, meld_cards

__all__ = ["MannaNarrator", "card_points", "final_position"]

# Mirrors of the rule constants at the top of _state.pyx (the breakdown test pins them: its
# components must add up to the engine's score).
RANK_POINTS = (20, 20, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10)      # MH-1.3, A..K
JOKER_POINTS = 50
CANASTA_BONUS = {"natural": 500, "mixed": 300, "wild": 1000, "sevens": 1500}   # MH-4.5
RED_THREE_EACH = 100        # MH-8.3
RED_THREES_ALL = 1000       # MH-8.3, all eight with one team
ALL_RED_THREES = 8
FOOT_RED_THREE = 100        # MH-8.4
GOING_OUT_BONUS = 100       # MH-10.4
CANASTA = 7                 # MH-4.1
DRAW_COUNT = 2              # MH-3.1
WILD_GROUP = 13
BLACK3_GROUP = 14
RANK_TWO = 1
RANK_THREE = 2
SEVEN = 6


def card_points(card: int) -> int:
    """MH-1.3."""
    return JOKER_POINTS if card == JOKER else RANK_POINTS[card % 13]


def is_red_three(card: int) -> bool:
    return card != JOKER and card % 13 == RANK_THREE and card // 13 >= 2


def is_wild(card: int) -> bool:
    return card == JOKER or card % 13 == RANK_TWO


class _Meld:
    """A meld of the position: its group, cards and canasta type (None while unfinished)."""

    def __init__(self, group: int, cards: list[int], ctype: str | None) -> None:
        self.group = group
        self.cards = cards
        self.ctype = ctype


class _Position:
    """The zones that scoring reads, copied from a state so an action can be played on them."""

    def __init__(self, s: MannaState) -> None:
        self.hands = [list(s.hand(p)) for p in range(6)]
        self.feet = [list(s.foot(p)) for p in range(6)]
        self.taken = list(s.feet_taken())
        self.melds = [[_Meld(g, list(cards), ctype) for g, cards, ctype in s.melds(t)]
                      for t in range(2)]
        self.red3 = [len(s.red_threes(t)) for t in range(2)]
        self.stock = list(s.stock())                  # top first
        self.pile = list(s.discard_pile())

    def draw_one(self, p: int) -> None:
        """MH-8.1 as ``draw_one`` in _state.pyx."""
        while self.stock:
            c = self.stock.pop(0)
            if is_red_three(c):
                self.red3[p & 1] += 1
                continue
            self.hands[p].append(c)
            return

    def lay_out_red_threes(self, p: int) -> None:
        for c in sorted(c for c in self.hands[p] if is_red_three(c)):
            self.hands[p].remove(c)
            self.red3[p & 1] += 1
            self.draw_one(p)

    def meld_into(self, p: int, group: int, new: bool, cards: list[int]) -> None:
        team = self.melds[p & 1]
        target = None
        if not new:
            target = next(m for m in team if m.group == group and m.ctype is None)
        if target is None:
            target = _Meld(group, [], None)
            team.append(target)
        target.cards.extend(cards)
        if len(target.cards) == CANASTA and group != BLACK3_GROUP:
            wilds = sum(1 for c in target.cards if is_wild(c))
            target.ctype = py_canasta_type(group, CANASTA - wilds, wilds)
            if not self.taken[p]:                     # MH-6.1 (the hand is then not empty)
                self.taken[p] = True
                self.hands[p].extend(self.feet[p])
                self.feet[p] = []
                self.lay_out_red_threes(p)


def final_position(pre: MannaState, spec_kind: str, info: dict[str, Any], player: int,
                   cards: list[int]) -> _Position:
    """The zones after the hand-ending action, before the next deal."""
    pos = _Position(pre)
    p = player
    if spec_kind == "go_out":
        pos.hands[p].remove(cards[0])
    elif spec_kind == "meld":
        for c in cards:
            pos.hands[p].remove(c)
        pos.meld_into(p, _group_index(str(info["group"])), bool(info["new"]), cards)
    elif spec_kind == "take_pile":
        top = pos.pile.pop()
        from_hand = list(info["from_hand_ids"])
        for c in from_hand:
            pos.hands[p].remove(c)
        for c in pos.pile:
            if is_red_three(c):
                pos.red3[p & 1] += 1
            else:
                pos.hands[p].append(c)
        pos.pile = []
        r = top % 13
        unfinished = any(m.group == r and m.ctype is None for m in pos.melds[p & 1])
        pos.meld_into(p, r, not unfinished, [top] + from_hand)
    elif spec_kind == "draw_stock":
        for _ in range(DRAW_COUNT):
            pos.draw_one(p)
    return pos


def _group_index(name: str) -> int:
    return GROUP_NAMES.index(name)


def has_sevens_canasta(melds: list[_Meld], options: Mapping[str, Any]) -> bool:
    """MH-8.3: a canasta of sevens; with wild_sevens and mixed_sevens="either" a mixed one
    counts too (MH-4.6 Decision)."""
    either = options["wild_sevens"] and options["mixed_sevens"] == "either"
    return any(m.ctype == "sevens" or (either and m.ctype == "mixed" and m.group == SEVEN)
               for m in melds)


def team_breakdown(pos: _Position, team: int, out_seat: int | None,
                   options: Mapping[str, Any]) -> list[dict[str, Any]]:
    """MH-10 per team, one component per rule (MH-10.5 by the foot_penalty option)."""
    melds = pos.melds[team]
    bonus = sum(CANASTA_BONUS[m.ctype] for m in melds if m.ctype is not None)
    points = sum(card_points(c) for m in melds for c in m.cards)
    n = pos.red3[team]
    red = RED_THREES_ALL if n == ALL_RED_THREES else RED_THREE_EACH * n
    if not has_sevens_canasta(melds, options):
        red = -red
    in_hands = foot_threes = foot_cards = 0
    for p in range(team, 6, 2):
        in_hands -= sum(card_points(c) for c in pos.hands[p])
        if not pos.taken[p]:
            foot_threes -= sum(FOOT_RED_THREE for c in pos.feet[p] if is_red_three(c))
            foot_cards -= sum(card_points(c) for c in pos.feet[p] if not is_red_three(c))
    out: list[dict[str, Any]] = []
    out.append({"team": team, "what": "canasta bonuses", "points": bonus,
                "rule": "MH-10.1, MH-4.5"})
    out.append({"team": team, "what": "cards in melds", "points": points, "rule": "MH-10.2"})
    out.append({"team": team, "what": f"red threes ({n})", "points": red,
                "rule": "MH-10.3, MH-8.3"})
    out.append({"team": team, "what": "going out",
                "points": GOING_OUT_BONUS if out_seat is not None and out_seat % 2 == team else 0,
                "rule": "MH-10.4"})
    out.append({"team": team, "what": "cards left in hands", "points": in_hands,
                "rule": "MH-10.5"})
    out.append({"team": team, "what": "red threes in unopened feet", "points": foot_threes,
                "rule": "MH-10.5, MH-8.4"})
    if options["foot_penalty"] == "cards":
        out.append({"team": team, "what": "other cards in unopened feet", "points": foot_cards,
                    "rule": "MH-10.5 (foot_penalty=cards)"})
    return out


class MannaNarrator(Narrator):

    kinds = {
        "deal": "a hand begins: number, dealer, first player, the minimums (MH-2)",
        "dealt": "a seat's hand after its red threes were replaced: only that seat sees it "
                 "(MH-2.2)",
        "foot_dealt": "a seat's foot of 11 cards, which nobody sees (MH-2.2)",
        "first_discard": "the card that starts the discard pile (MH-2.3)",
        "red_three": "red threes laid out before a team (MH-2.4, MH-8.1, MH-6.2 replaced from "
                     "the stock; MH-5.4 from the pile, not replaced)",
        "canasta": "a meld reached seven cards (MH-4.5)",
        "foot": "a seat picks up its foot; its cards for its owner only (MH-6.1)",
        "hand_end": "the hand's scoring breakdown per team (MH-9, MH-10)",
        "match_end": "the winners and final scores (MH-10.6)",
    }

    def deal(self, state: GameState) -> list[Raw]:
        s: MannaState = state  # type: ignore[assignment]
        events = [public("deal", None, hand=s.round_index + 1, dealer=s.dealer,
                         first_player=(s.dealer + 1) % 6, min_meld=s.min_meld(), rule="MH-2")]
        events += [private("dealt", p, s.hand(p), [p], rule="MH-2.2") for p in range(6)]
        events += [private("foot_dealt", p, s.foot(p), [], rule="MH-2.2") for p in range(6)]
        events.append(public("first_discard", None, s.discard_pile()[:1], rule="MH-2.3",
                             frozen=s.frozen))
        for team in range(2):
            red = s.red_threes(team)
            if red:
                events.append(public("red_three", None, red, team=team, rule="MH-2.4",
                                     replaced=True))
        return events

    def _cards(self, pre: MannaState, action_id: int, player: int) -> tuple[list[int], dict[str, Any]]:
        """The card ids an action moves (as ``action.cards``) and its extra fields."""
        spec = self.game._specs[action_id]
        if spec.kind == "meld":
            info = spec.info
            cards = meld_cards(pre.hand(player), _group_index(str(info["group"])),
                               int(info["naturals"]), int(info["twos"]), int(info["jokers"]))
            return list(cards or []), {}
        if spec.kind == "take_pile":
            pile = pre.discard_pile()
            how = str(spec.info["with"])
            n = {"add": 0, "pair": 2}.get(how, 1)
            t = 1 if how == "natural+two" else 0
            j = 1 if how == "natural+joker" else 0
            from_hand = meld_cards(pre.hand(player), pile[-1] % 13, n, t, j) or []
            return pile, {"melded": [card_str(c) for c in [pile[-1]] + from_hand],
                          "from_hand_ids": from_hand}
        if spec.kind == "retract":
            return [c for _, cards, _ in pre.melds(player & 1) for c in cards], {}
        return [card_id(c) for c in spec.cards], {}

    def action(self, pre: GameState, action_id: int, player: int, post: GameState) -> list[Raw]:
        a: MannaState = pre  # type: ignore[assignment]
        b: MannaState = post  # type: ignore[assignment]
        spec = self.game._specs[action_id]
        ended = b.round_index != a.round_index
        cards, extra = self._cards(a, action_id, player)
        fields = {k: v for k, v in extra.items() if not k.endswith("_ids")}
        if spec.kind == "draw_stock":
            drawn = [] if ended else multiset_minus(b.hand(player), a.hand(player))
            return ([self.action_event(action_id, player, drawn, [player],
                                       stock_size=b.stock_size if not ended else 0)]
                    + ([] if ended else self._red_threes(a, b, player, "MH-8.1", True)))
        events = [self.action_event(action_id, player, cards, **fields)]
        if spec.kind == "meld" and not ended:
            events[0].public["turn_points"] = b.turn_points
            events[0].public["min_meld"] = b.min_meld()[player & 1]
            events[0].public["opened"] = b.opened()[player & 1]
        if ended:
            return events
        team = player & 1
        before = [m for m in a.melds(team) if m[2] is not None]
        for g, meld, ctype in b.melds(team):
            if ctype is not None and not any(m[1] == meld and m[0] == g for m in before):
                events.append(public("canasta", player, meld, team=team, rank=GROUP_NAMES[g],
                                     type=ctype, rule="MH-4.5"))
        laid = multiset_minus(b.red_threes(team), a.red_threes(team))
        if spec.kind == "take_pile":                 # MH-5.4: laid out, not replaced
            from_pile = [c for c in cards if is_red_three(c)]
            if from_pile:
                events.append(public("red_three", player, from_pile, team=team,
                                     rule="MH-5.4", replaced=False))
            laid = multiset_minus(laid, from_pile)
        if b.feet_taken()[player] and not a.feet_taken()[player]:
            moved = cards if spec.kind == "meld" else list(extra.get("from_hand_ids", []))
            expected = multiset_minus(a.hand(player), moved)
            if spec.kind == "take_pile":
                expected += [c for c in cards[:-1] if not is_red_three(c)]
            gained = multiset_minus(b.hand(player), expected)
            events.append(private("foot", player, gained, [player], rule="MH-6.1"))
            if laid:
                events.append(public("red_three", player, laid, team=team, rule="MH-6.2",
                                     replaced=True))
        return events

    def _red_threes(self, a: MannaState, b: MannaState, player: int, rule: str,
                    replaced: bool) -> list[Raw]:
        team = player & 1
        laid = multiset_minus(b.red_threes(team), a.red_threes(team))
        if not laid:
            return []
        return [public("red_three", player, laid, team=team, rule=rule, replaced=replaced)]

    def round_end(self, pre: GameState, action_id: int, player: int,
                  post: GameState) -> list[Raw]:
        a: MannaState = pre  # type: ignore[assignment]
        b: MannaState = post  # type: ignore[assignment]
        spec = self.game._specs[action_id]
        cards, extra = self._cards(a, action_id, player)
        info = {**spec.info, **extra}
        pos = final_position(a, spec.kind, info, player, cards)
        out = b.last_out
        totals = b.last_hand_scores()
        options = self.game.options
        components = (team_breakdown(pos, 0, out, options)
                      + team_breakdown(pos, 1, out, options))
        return [public("hand_end", out, hand=a.round_index + 1, went_out=out,
                       rule="MH-9.4" if out is not None else "MH-9.5",
                       breakdown=breakdown("team", components, totals), hand_scores=totals,
                       team_scores=b.team_scores(), scores=list(b.scores()),
                       score_direction="higher is better")]
