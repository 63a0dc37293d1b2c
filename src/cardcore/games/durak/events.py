"""Durak events (cardcore.events): what each seat saw happen.

Kinds: ``deal`` (the hand begins: the dealer, the trump, the stock), ``dealt`` (a seat's six
cards: only that seat sees them), ``trump`` (DU-2.3: the card turned face up), ``first_attack``
(DU-3: who attacks first, with the lowest trump shown), the action kinds ``attack`` / ``beat``
/ ``transfer`` / ``take`` / ``pass``, ``beaten`` (DU-6.3: the bout's cards to the discard pile),
``picked_up`` (DU-6.2: the defender takes the table), ``draw`` (DU-7: cards from the stock; only
the drawer sees them, but the face-up trump card, drawn last in everybody's sight:
DU-7.3), ``out`` (DU-8.1), ``hand_end`` (DU-8: the
durak and the breakdown) and ``match_end``. Who sees which cards follows from the kernel's zones.
"""
from __future__ import annotations

from typing import Any

from cardcore._fast import GameState
from cardcore.cards import card_id, card_str
from cardcore.events import Narrator, Raw, public
from cardcore.games.durak._state import DurakState

__all__ = ["DurakNarrator"]


class DurakNarrator(Narrator):

    kinds = {
        "deal": "the hand begins: the dealer, the trump suit, the stock size (DU-2.1)",
        "dealt": "a seat's six cards: only that seat sees them (DU-2.2)",
        "trump": "the last card, turned face up: its suit is trumps (DU-2.3)",
        "first_attack": "who attacks first and whom; the lowest trump shown (DU-3)",
        "beaten": "every attacking card was beaten: the bout's cards go to the discard pile "
                  "(DU-6.3)",
        "picked_up": "the defender takes every card of the bout into the hand (DU-6.2)",
        "draw": "cards drawn from the stock up to six (DU-7): only the drawer sees them",
        "out": "a player is out of cards with the stock empty (DU-8.1)",
        "hand_end": "the hand is over: the durak, or a draw, and the breakdown (DU-8)",
        "match_end": "the winners: everybody but the durak (DU-8.2)",
    }

    def match_reason(self, post: GameState) -> dict[str, Any]:
        if self.game.options["hands"] == 1:
            return {"reason_code": "one_hand", "rule": "DU-8.2"}
        return {"reason_code": "hands", "rule": "DU-12.1"}     # the fool's count decides

    def deal(self, state: GameState) -> list[Raw]:
        s: DurakState = state  # type: ignore[assignment]
        events = [public("deal", None, hand=s.round_index + 1, dealer=s.dealer,
                         stock_size=s.stock_size, trump_suit=s.trump_suit, rule="DU-2.1")]
        events += [self.moved("dealt", p, s.hand(p), s, "stock", f"hand:{p}", rule="DU-2.2")
                   for p in range(self.players)]
        events.append(public("trump", None, [s.trump_card], rule="DU-2.3",
                             trump_suit=s.trump_suit))
        shown = [] if s.shown_trump is None else [s.shown_trump]
        rule = "DU-3.1" if self.game.options["first_attacker"] == "lowest_trump" else "DU-3.2"
        events.append(public("first_attack", s.attacker, shown, rule=rule,
                             attacker=s.attacker, defender=s.defender))
        return events

    def action(self, pre: GameState, action_id: int, player: int, post: GameState) -> list[Raw]:
        a: DurakState = pre  # type: ignore[assignment]
        b: DurakState = post  # type: ignore[assignment]
        spec = self.game._specs[action_id]
        fields: dict[str, Any] = {}
        if not b.is_over:
            fields = {"attacker": b.attacker, "defender": b.defender,
                      "next_player": b.current_player}
        if spec.kind == "attack":       # a lead, or a card thrown in (DU-5): words differ
            fields["throw_in"] = bool(a.bout())
        elif spec.kind == "beat":       # the first uncovered attacking card (DU-4.2)
            fields["beats"] = next(card_str(c) for c, cover in a.bout() if cover is None)
        if spec.cards:                  # one card, or several of a rank (DU-13.1)
            event = self.action_event(action_id, player, [card_id(c) for c in spec.cards], a,
                                      f"hand:{player}", "table", **fields)
        elif spec.kind == "take":       # the table it takes when the bout ends (DU-6.2)
            event = self.action_event(action_id, player, source="table",
                                      target=f"hand:{player}", **fields)
        else:                           # a pass may end the bout: its cards leave the table
            event = self.action_event(action_id, player, source="table", **fields)
        events = [event]
        bout = b.last_bout()
        if bout is not None:
            result, defender, cards = bout
            if result == "beaten":
                events.append(self.moved("beaten", defender, cards, b, "table", "discard",
                                         rule="DU-6.3"))
            else:
                events.append(self.moved("picked_up", defender, cards, b, "table",
                                         f"hand:{defender}", rule="DU-6.2"))
        draws = b.last_draws()
        for k, (seat, cards) in enumerate(draws):
            shown = b.trump_card if b.stock_size == 0 and k == len(draws) - 1 else None
            if shown is None or shown not in cards:
                events.append(self.moved("draw", seat, cards, b, "stock", f"hand:{seat}",
                                         rule="DU-7.1", stock_size=b.stock_size))
                continue
            # DU-7.3: the face-up trump is drawn last, in everybody's sight; the cards drawn
            # before it stay the drawer's.
            unseen = [c for c in cards if c != shown]
            if unseen:
                events.append(self.moved("draw", seat, unseen, b, "stock", f"hand:{seat}",
                                         rule="DU-7.1", stock_size=1))
            events.append(Raw("draw", seat, (shown,), None, {"rule": "DU-7.3", "stock_size": 0},
                              None, True, "stock", f"hand:{seat}"))
        for seat in b.went_out():
            events.append(public("out", seat, rule="DU-8.1"))
        return events

    def round_end(self, pre: GameState, action_id: int, player: int,
                  post: GameState) -> list[Raw]:
        b: DurakState = post  # type: ignore[assignment]
        last = b.last_hand()            # post may be the next hand's deal already (DU-12)
        assert last is not None
        loser, bouts, hands = last
        partners = self.game.options["partners"]
        if loser is not None:
            reason: dict[str, Any] = {"reason_code": "durak", "reason_seat": loser,
                                      "rule": "DU-10.3" if partners else "DU-8.2"}
        elif bouts >= 200:
            reason = {"reason_code": "bouts", "rule": "DU-8.4"}
        else:
            reason = {"reason_code": "draw", "rule": "DU-8.3"}
        return [public("hand_end", None, hand=b.round_index, **reason, hands_left=hands,
                       breakdown=self.breakdown_of(b), scores=list(b.scores()),
                       score_direction="lower is better")]
