"""Crazy Eights events (cardcore.events): what each seat saw happen.

Kinds: ``deal`` (the hand begins: the dealer, the stock), ``dealt`` (a seat's cards: only that
seat sees them), ``reburied`` (CE-2.4: the eights turned up and put back), ``turn_up`` (CE-2.3,
CE-4.5), the action kinds ``play`` / ``nominate`` / ``draw`` (the cards it took: only the
drawer sees them) / ``pass``, ``reshuffle`` (CE-6.1: the discard pile but its top becomes the
stock) and ``drew`` (the cards of a draw-two debt taken after a reshuffle), ``hand_end``
(CE-7, CE-8: the final hands laid down and the breakdown the kernel's scoring wrote) and
``match_end``. Who sees which cards follows from the kernel's zones.
"""
from __future__ import annotations

from typing import Any

from cardcore._fast import GameState, rank_of
from cardcore.cards import format_cards
from cardcore.events import Narrator, Raw, public
from cardcore.games.crazy_eights._state import SPECIAL_RANKS, CrazyEightsState

__all__ = ["CrazyEightsNarrator"]


class CrazyEightsNarrator(Narrator):

    kinds = {
        "deal": "the hand begins: its number, the dealer, the stock size (CE-2.1)",
        "dealt": "a seat's cards: only that seat sees them (CE-2.2)",
        "reburied": "eights turned up at the deal and put back into the stock (CE-2.4)",
        "turn_up": "the card that starts the discard pile: the suit to follow, the first "
                   "player, a special card's effect (CE-2.3, CE-2.5, CE-4.5)",
        "reshuffle": "the discard pile but its top card becomes the stock (CE-6.1)",
        "drew": "the cards of a draw-two debt taken from the stock after a reshuffle: only the "
                "drawer sees them (CE-4.4, CE-6.1)",
        "hand_end": "the hand is over: why, the hands laid down and the scoring breakdown "
                    "(CE-7, CE-8)",
        "match_end": "the winners and final penalties (CE-8.3)",
    }

    def match_reason(self, post: GameState) -> dict[str, Any]:
        return {"reason_code": "one_hand", "rule": "CE-8.3"}

    def deal(self, state: GameState) -> list[Raw]:
        s: CrazyEightsState = state  # type: ignore[assignment]
        events = [public("deal", None, hand=s.round_index + 1, dealer=s.dealer,
                         stock_size=s.stock_size, rule="CE-2.1")]
        events += [self.moved("dealt", p, s.hand(p), s, "stock", f"hand:{p}", rule="CE-2.2")
                   for p in range(self.players)]
        if s.reburied():
            where = "bottom" if self.game._deck_input is not None else "random"
            events.append(public("reburied", None, s.reburied(), rule="CE-2.4", place=where))
        turn_up = s.discard()
        special = self.game.options["use_special_cards"] and (
            rank_of(turn_up[0]) in SPECIAL_RANKS.values())
        events.append(self.moved("turn_up", None, turn_up, s, "stock", "discard",
                                 rule="CE-4.5" if special else "CE-2.3", suit=s.suit,
                                 first_player=s.current_player, direction=s.direction,
                                 draw_two_owed=s.draw_two_owed))
        return events

    def action(self, pre: GameState, action_id: int, player: int, post: GameState) -> list[Raw]:
        a: CrazyEightsState = pre  # type: ignore[assignment]
        b: CrazyEightsState = post  # type: ignore[assignment]
        spec = self.game._specs[action_id]
        fields: dict[str, Any] = {}
        if not b.is_over:
            fields = {"suit": b.suit, "next_player": b.current_player}
        drawn = b.last_drawn()
        shuffled = b.reshuffles - a.reshuffles
        # Cards drawn before a reshuffle are the old stock's; the rest come from the new one.
        before = drawn[:a.stock_size] if shuffled else drawn
        if spec.kind == "draw":
            rule = "CE-4.4" if a.draw_two_owed else "CE-5.1"
            event = self.action_event(action_id, player, before, a, "stock", f"hand:{player}",
                                      rule=rule, stock_size=b.stock_size, **fields)
        elif spec.kind == "play":
            event = self.action_event(action_id, player, self.spec_ids(action_id)[:1], a,
                                      f"hand:{player}", "discard", **fields)
        else:
            event = self.action_event(action_id, player, **fields)
        events = [event]
        if shuffled:
            # The first reshuffle moves the discard pile but its top (a later one in the same
            # action finds nothing to move): after a play, everything under the card played.
            moved = a.discard() if spec.kind == "play" else a.discard()[:-1]
            events.append(self.moved("reshuffle", None, moved, b, "discard", "stock",
                                     rule="CE-6.1", stock_size=b.stock_size))
            after = drawn[a.stock_size:]
            if after:
                events.append(self.moved("drew", player, after, b, "stock", f"hand:{player}",
                                         rule="CE-4.4", stock_size=b.stock_size))
        return events

    def declared_moves(self, pre: GameState, action_id: int, player: int
                       ) -> list[tuple[str, str, tuple[int, ...]]] | None:
        """The moves of most actions follow from the position (each as narrating the action
        on a copy would find them): a play that neither empties the hand (CE-7.1) nor
        reaches ``max_turns`` (CE-7.2) moves its card from hand to discard; a draw that
        leaves the stock cards takes its top (one, or the draw-two debt, CE-4.4, CE-5.1); a
        nomination moves nothing, nor does a pass while the stock holds cards (CE-7.3).
        Narrated: anything that may end the hand or reshuffle (CE-6.1)."""
        a: CrazyEightsState = pre  # type: ignore[assignment]
        kind = self.game._specs[action_id].kind
        if kind == "nominate":
            return []
        stock = a.stock_size
        if not stock:
            return None                     # passes may end the hand; a play may reshuffle
        if kind == "pass":
            return []
        if kind == "play":
            if len(a.hand(player)) <= 1 or a.plays + 1 >= self.game.options["max_turns"]:
                return None
            return [(f"hand:{player}", "discard", tuple(self.spec_ids(action_id)[:1]))]
        if kind == "draw":
            taken = a.draw_two_owed or 1
            if taken >= stock:
                return None                 # the stock's last card: CE-5.3, CE-6.1
            return [("stock", f"hand:{player}", tuple(sorted(a.stock()[:taken])))]
        return None

    def round_end(self, pre: GameState, action_id: int, player: int,
                  post: GameState) -> list[Raw]:
        b: CrazyEightsState = post  # type: ignore[assignment]
        if any(size == 0 for size in b.hand_sizes()):
            reason, rule = "out", "CE-7.1"
        elif b.plays >= self.game.options["max_turns"]:
            reason, rule = "max_turns", "CE-7.2"
        else:
            reason, rule = "passes", "CE-7.3"
        hands = [format_cards(b.hand(p), sort=True) for p in range(self.players)]
        out = next((p for p, size in enumerate(b.hand_sizes()) if size == 0), None)
        named: dict[str, Any] = {"reason_seat": out} if out is not None else {}
        return [public("hand_end", None, hand=b.round_index, reason_code=reason, rule=rule,
                       **named,
                       hands=hands, breakdown=self.breakdown_of(b), scores=list(b.scores()),
                       score_direction="lower is better")]
