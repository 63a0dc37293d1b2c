"""Gin Rummy events (cardcore.events): what each seat saw happen.

Kinds: ``deal`` (the hand begins: the stock), ``dealt`` (a seat's cards: only that seat sees
them), ``turn_up`` (the first upcard, GR-2.3; the knock card under Oklahoma, GR-3.3), the
action kinds ``draw_upcard`` / ``draw_stock`` (the card it took: only the drawer sees it) /
``card`` (a discard, the knocker's discard or a layoff) / ``knock`` / ``meld`` / ``pass``
(rule GR-6.4: the knocker keeps eleven cards, big gin),
``to_discard`` (the upcard not taken goes out of play, GR-4.1), ``hand_end`` (GR-8: why, the
hands laid down and the breakdown the kernel's scoring wrote; with ``match_to`` the next
hand's ``deal`` follows, GR-11) and ``match_end``. Who sees
which cards follows from the kernel's zones.
"""
from __future__ import annotations

from typing import Any

from cardcore._fast import GameState
from cardcore.cards import format_cards
from cardcore.events import Narrator, Raw, public
from cardcore.games.gin_rummy._state import GinRummyState

__all__ = ["GinRummyNarrator"]

# Why the hand ended (the state's end_reason) -> the reason code and its rule.
ENDS = {"knock": ("knock", "GR-8.1"), "wall": ("wall", "GR-5.2"),
        "upcards": ("upcards", "GR-8.2"), "repeated": ("repeated", "GR-8.3")}


class GinRummyNarrator(Narrator):

    kinds = {
        "deal": "the hand begins: its number, the dealer, the stock size (GR-2)",
        "dealt": "a seat's cards: only that seat sees them (GR-2.1)",
        "turn_up": "the first upcard and the knock card in force (GR-2.3, GR-3.3)",
        "to_discard": "the upcard nobody took goes out of play (GR-4.1)",
        "hand_end": "the hand is over: why, the hands laid down and the scoring breakdown "
                    "(GR-8)",
        "match_end": "the winners and the points (GR-8.1)",
    }

    def match_reason(self, post: GameState) -> dict[str, Any]:
        options = self.game.options
        if not options["match_to"]:
            return {"reason_code": "one_hand", "rule": "GR-8.1"}
        s: GinRummyState = post  # type: ignore[assignment]
        if s.target_reached:
            return {"reason_code": "match_to", "rule": "GR-11.1"}
        return {"reason_code": "hands", "rule": "GR-11.5"}

    def deal(self, state: GameState) -> list[Raw]:
        s: GinRummyState = state  # type: ignore[assignment]
        events = [public("deal", None, hand=s.round_index + 1, dealer=s.dealer,
                         stock_size=s.stock_size, rule="GR-2.2")]
        events += [self.moved("dealt", p, s.hand(p), s, "stock", f"hand:{p}", rule="GR-2.1")
                   for p in range(self.players)]
        upcard = [] if s.upcard is None else [s.upcard]
        events.append(self.moved("turn_up", None, upcard, s, "stock", "upcard",
                                 rule="GR-3.3" if self.game.options["oklahoma"] else "GR-2.3",
                                 knock_card=s.knock_card, first_player=s.current_player))
        return events

    def action(self, pre: GameState, action_id: int, player: int, post: GameState) -> list[Raw]:
        a: GinRummyState = pre  # type: ignore[assignment]
        b: GinRummyState = post  # type: ignore[assignment]
        spec = self.game._specs[action_id]
        fields: dict[str, Any] = {} if b.is_over else {"next_player": b.current_player}
        events: list[Raw] = []
        if spec.kind == "draw_stock":
            events.append(self.action_event(action_id, player, b.last_drawn(), a, "stock",
                                            f"hand:{player}", rule="GR-4.1",
                                            stock_size=b.stock_size, **fields))
            if a.upcard is not None:
                events.append(self.moved("to_discard", None, [a.upcard], b, "upcard",
                                         "discard", rule="GR-4.1"))
        elif spec.kind == "draw_upcard":
            # GR-8.2: the 50th draw ends the hand and takes nothing
            cards = [] if b.is_over or a.upcard is None else [a.upcard]
            events.append(self.action_event(action_id, player, cards, a, "upcard",
                                            f"hand:{player}", rule="GR-4.1", **fields))
        elif spec.kind == "play_card":
            card = self.spec_ids(action_id)
            if a.phase == 4:                             # GR-7.1: a layoff
                target, rule = f"melds:{1 - player}", "GR-7.1"
            elif a.phase == 3:                           # GR-6.2: the knocker's discard
                target, rule = "discard", "GR-6.2"
            else:
                target, rule = "upcard", "GR-4.1"
            events.append(self.action_event(action_id, player, card, a, f"hand:{player}",
                                            target, rule=rule, **fields))
        elif spec.kind == "meld":
            events.append(self.action_event(action_id, player, self.spec_ids(action_id), a,
                                            f"hand:{player}", f"melds:{player}",
                                            rule="GR-6.3" if a.knocked()[player] else "GR-7.2",
                                            **fields))
        elif spec.kind == "knock" and a.phase == 5:      # GR-5.2: the knock takes the upcard
            taken = [] if a.upcard is None else [a.upcard]
            events.append(self.action_event(action_id, player, taken, a, "upcard",
                                            f"hand:{player}", rule="GR-5.2", **fields))
        elif spec.kind == "pass" and b.big_gin and not a.big_gin:   # GR-6.4: no discard
            events.append(self.action_event(action_id, player, rule="GR-6.4", **fields))
        else:
            events.append(self.action_event(action_id, player, **fields))
        return events

    def round_end(self, pre: GameState, action_id: int, player: int,
                  post: GameState) -> list[Raw]:
        b: GinRummyState = post  # type: ignore[assignment]
        reason, rule = ENDS[b.end_reason]
        named: dict[str, Any] = {}
        if b.end_reason == "knock" and b.last_knocker is not None:
            named["reason_seat"] = b.last_knocker
        # the hands as the hand ended (in a match, the next hand is dealt already: GR-11.4)
        hands = [format_cards(b.final_hand(p), sort=True) for p in range(self.players)]
        return [public("hand_end", None, hand=b.round_index, reason_code=reason, rule=rule,
                       **named, hands=hands, breakdown=self.breakdown_of(b),
                       scores=list(b.scores()), score_direction="higher is better")]

