"""Manna from Heaven events (cardcore.events): what each seat saw happen.

Kinds: ``deal`` (a hand begins: hand number, dealer, first player, minimums, MH-2), ``dealt``
(a seat's hand after its red threes were replaced: only that seat sees it), ``foot_dealt``
(11 cards nobody sees, MH-2.2), ``first_discard`` (MH-2.3), the action kinds (``draw_stock``
names the cards for the drawer only; ``take_pile`` names the pile and, in ``melded``, the
cards melded; ``meld`` and ``retract`` name their cards), ``red_three`` (laid out before a team:
MH-2.4, MH-8.1, MH-6.2 replaced from the stock; MH-5.4 from the pile, not replaced),
``canasta`` (MH-4.5: a meld reached seven cards), ``foot`` (MH-6.1: a foot picked up; its
cards for its owner only), ``hand_end`` (MH-9, MH-10: per team, the breakdown) and
``match_end``. Who sees which cards follows from the kernel's zones; the hand-end breakdown is
the kernel's own scoring rows.
"""
from __future__ import annotations

from typing import Any

from cardcore._fast import GameState
from cardcore.cards import card_id, card_str
from cardcore.events import Narrator, Raw, multiset_minus, public
from cardcore.games.manna._state import MannaState
from cardcore.games.manna.actions import GROUP_NAMES

__all__ = ["MannaNarrator"]


RED_THREES = frozenset((card_id("3D"), card_id("3H")))


def is_red_three(card: int) -> bool:
    return card in RED_THREES


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
    breakdown_by = "team"

    def deal(self, state: GameState) -> list[Raw]:
        s: MannaState = state  # type: ignore[assignment]
        events = [public("deal", None, hand=s.round_index + 1, dealer=s.dealer,
                         first_player=(s.dealer + 1) % 6, min_meld=s.min_meld(), rule="MH-2")]
        events += [self.moved("dealt", p, s.hand(p), s, "stock", f"hand:{p}", rule="MH-2.2")
                   for p in range(6)]
        events += [self.moved("foot_dealt", p, s.foot(p), s, "stock", f"foot:{p}",
                              rule="MH-2.2") for p in range(6)]
        events.append(public("first_discard", None, s.discard_pile()[:1], rule="MH-2.3",
                             frozen=s.frozen, into="discard"))
        for team in range(2):
            red = s.red_threes(team)
            if red:
                events.append(public("red_three", None, red, team=team, rule="MH-2.4",
                                     replaced=True, into=f"red_threes:{team}"))
        return events

    def _cards(self, pre: MannaState, action_id: int, player: int
               ) -> tuple[list[int], list[int]]:
        """The card ids an action moves (as ``action.cards``) and those it takes from the
        hand (the kernel's choice, ``hand_cards_of``)."""
        spec = self.game._specs[action_id]
        from_hand = pre.hand_cards_of(action_id, player) or []
        if spec.kind == "meld":
            return from_hand, from_hand
        if spec.kind == "take_pile":
            return pre.discard_pile(), from_hand
        if spec.kind == "retract":
            return [c for _, cards, _ in pre.melds(player & 1) for c in cards], []
        return self.spec_ids(action_id), []

    def action(self, pre: GameState, action_id: int, player: int, post: GameState) -> list[Raw]:
        a: MannaState = pre  # type: ignore[assignment]
        b: MannaState = post  # type: ignore[assignment]
        spec = self.game._specs[action_id]
        ended = b.round_index != a.round_index
        cards, from_hand = self._cards(a, action_id, player)
        fields: dict[str, Any] = {}
        if spec.kind == "take_pile":
            fields["melded"] = [card_str(c) for c in cards[-1:] + from_hand]
        if spec.kind == "draw_stock":
            drawn = [] if ended else multiset_minus(b.hand(player), a.hand(player))
            return ([self.action_event(action_id, player, drawn, a, "stock", f"hand:{player}",
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
                                     rule="MH-5.4", replaced=False,
                                     into=f"red_threes:{team}"))
            laid = multiset_minus(laid, from_pile)
        if b.feet_taken()[player] and not a.feet_taken()[player]:
            expected = multiset_minus(a.hand(player), from_hand)
            if spec.kind == "take_pile":
                expected += [c for c in cards[:-1] if not is_red_three(c)]
            gained = multiset_minus(b.hand(player), expected)
            events.append(self.moved("foot", player, gained, b, f"foot:{player}",
                                     f"hand:{player}", rule="MH-6.1"))
            if laid:
                events.append(public("red_three", player, laid, team=team, rule="MH-6.2",
                                     replaced=True, into=f"red_threes:{team}"))
        return events

    def _red_threes(self, a: MannaState, b: MannaState, player: int, rule: str,
                    replaced: bool) -> list[Raw]:
        team = player & 1
        laid = multiset_minus(b.red_threes(team), a.red_threes(team))
        if not laid:
            return []
        return [public("red_three", player, laid, team=team, rule=rule, replaced=replaced,
                       into=f"red_threes:{team}")]

    def round_end(self, pre: GameState, action_id: int, player: int,
                  post: GameState) -> list[Raw]:
        a: MannaState = pre  # type: ignore[assignment]
        b: MannaState = post  # type: ignore[assignment]
        out = b.last_out
        totals = b.last_hand_scores()
        why: dict[str, Any] = ({"reason_code": "went_out", "reason_seat": out}
                               if out is not None else {"reason_code": "stock_out"})
        return [public("hand_end", out, hand=a.round_index + 1, went_out=out,
                       rule="MH-9.4" if out is not None else "MH-9.5", **why,
                       breakdown=self.breakdown_of(b), hand_scores=totals,
                       team_scores=b.team_scores(), scores=list(b.scores()),
                       score_direction="higher is better")]

    def match_reason(self, post: GameState) -> dict[str, Any]:
        b: MannaState = post  # type: ignore[assignment]
        target = self.game.options["target"]
        if max(b.team_scores()) >= target:
            return {"reason_code": "target", "rule": "MH-10.6", "target": target}
        return {"reason_code": "hands", "rule": "MH-10.7", "hands": b.round_index}
