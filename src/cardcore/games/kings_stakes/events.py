"""Kings' Stakes events (cardcore.events): what each seat saw happen.

Kinds: ``deal`` (a round begins: round, first player), ``dealt`` (a seat's four cards: only
that seat sees them), the action kinds ``play`` / ``take`` / ``refill`` / ``end_turn``,
``draw`` (cards from the stock reaching a hand, KS-4.5 / KS-7.2: only the drawer sees them),
``table_cleared`` (KS-5.3: a king sends the table to the discard), ``chip`` (KS-7.1: the
forget-me chip changes hands), ``out`` (KS-8.1), ``round_end`` (KS-8, KS-9: the breakdown) and
``match_end``.
"""
from __future__ import annotations

from typing import Any

from cardcore._fast import GameState
from cardcore.cards import JOKER
from cardcore.events import Narrator, Raw, multiset_minus, public
from cardcore.games.kings_stakes._state import HAND_SIZE, KingsStakesState

__all__ = ["KingsStakesNarrator"]


class KingsStakesNarrator(Narrator):

    kinds = {
        "deal": "a round begins: its number, the first player, the stock size (KS-3)",
        "dealt": "a seat's four cards: only that seat sees them (KS-3.1)",
        "draw": "stock cards reaching a hand: KS-4.5 refill, KS-7.2 top-up (only the drawer "
                "sees them)",
        "table_cleared": "a king sends the table to the discard (KS-5.3)",
        "chip": "the forget-me chip changes hands (KS-7.1)",
        "out": "a player is out of cards; the others get final turns (KS-8.1)",
        "round_end": "the round's scoring breakdown (KS-8, KS-9)",
        "match_end": "the winners and final scores (KS-9.4)",
    }

    def deal(self, state: GameState) -> list[Raw]:
        s: KingsStakesState = state  # type: ignore[assignment]
        events = [public("deal", None, round=s.round_index + 1, first_player=s.round_first_player,
                         stock_size=s.stock_size)]
        events += [self.moved("dealt", p, s.hand(p), s, "stock", f"hand:{p}")
                   for p in range(self.players)]
        return events

    def action(self, pre: GameState, action_id: int, player: int, post: GameState) -> list[Raw]:
        a: KingsStakesState = pre  # type: ignore[assignment]
        b: KingsStakesState = post  # type: ignore[assignment]
        spec = self.game._specs[action_id]
        ended = b.round_index != a.round_index
        if spec.kind == "take":
            cards, source, target = a.table(), "table", f"penalty:{player}"
        elif spec.kind == "play":
            cards, source, target = self.spec_ids(action_id), f"hand:{player}", "table"
        else:
            cards, source, target = [], "table", "table"
        fields: dict[str, Any] = {}
        if not ended:
            fields = {"stake": b.stake, "direction": b.direction}
        events = [self.action_event(action_id, player, cards, a, source, target, **fields)]
        if ended:
            return events
        cleared = multiset_minus(b.discard(), a.discard())
        if cleared:
            events.append(public("table_cleared", player, cleared, rule="KS-5.3"))
        for p in range(self.players):
            before = a.hand(p)
            if p == player:
                before = multiset_minus(before, cards if spec.kind == "play" else [])
            drawn = multiset_minus(b.hand(p), before)
            if drawn:
                rule = "KS-4.5" if p == player else "KS-7.2"
                events.append(self.moved("draw", p, drawn, b, "stock", f"hand:{p}", rule=rule,
                                         stock_size=b.stock_size))
        if b.chip_holder != a.chip_holder:
            events.append(public("chip", b.chip_holder, rule="KS-7.1"))
        if a.out_player is None and b.out_player is not None:
            events.append(public("out", b.out_player, rule="KS-8.1",
                                 final_turns_owed=b.final_turns_owed))
        return events

    def declared_moves(self, pre: GameState, action_id: int, player: int
                       ) -> list[tuple[str, str, tuple[int, ...]]] | None:
        """Most actions' moves follow from the position (tests/test_zones.py holds them
        equal to the narrated ones): before anyone is out, a take moves the table to the
        taker's penalty pile; a play that keeps cards in hand moves its cards from hand to
        table (a king with its queen, KS-5.5, stays there too), and a lone king on a table
        with cards then sends the table, king last, to the discard (KS-5.3). Narrated: four
        kings, which end the round (KS-5.7), and a joker's play when a draw of this step
        (KS-4.5, KS-7.2) could bring the other joker, which the zone diff then sees
        played."""
        a: KingsStakesState = pre  # type: ignore[assignment]
        if a.out_player is not None:
            return None                     # the final turns: a move may end the round
        spec = self.game._specs[action_id]
        if spec.kind == "take":
            table = tuple(sorted(a.table()))    # as a zone diff lists them
            return [("table", f"penalty:{player}", table)] if table else None
        if spec.kind != "play":
            return None
        if any(c.startswith("JK") for c in spec.cards) \
                and JOKER in a.stock()[:HAND_SIZE * self.players]:     # as many as can be drawn
            return None
        cards = self.spec_ids(action_id)
        if len(cards) >= len(a.hand(player)):
            return None                     # out of cards (KS-8.1)
        played = (f"hand:{player}", "table", tuple(sorted(cards)))
        kings = sum(c[0] == "K" for c in spec.cards)
        if not kings or (kings == 1 and len(cards) == 2):        # KS-5.5 keeps them
            return [played]
        if kings > 1 or len(cards) != 1:
            return None                                           # four kings: KS-5.7
        lying = a.table()
        if not lying:
            return [played]                                       # KS-5.4: the king stays
        return [played, ("table", "discard", (*sorted(lying), cards[0]))]    # KS-5.3

    def round_end(self, pre: GameState, action_id: int, player: int,
                  post: GameState) -> list[Raw]:
        a: KingsStakesState = pre  # type: ignore[assignment]
        b: KingsStakesState = post  # type: ignore[assignment]
        spec = self.game._specs[action_id]
        scored = self.breakdown_of(b)
        per_seat = [sum(c["points"] for c in scored["components"] if c["seat"] == p)
                    for p in range(self.players)]
        extra: dict[str, Any] = {}
        if self.game.options["teams"]:
            # The breakdown is by team (KS-9.5); ``teams`` is its 0.3 form, until 0.5.0.
            extra["teams"] = [{"seats": [0, 2], "points": per_seat[0] + per_seat[2],
                               "rule": "KS-9.5"},
                              {"seats": [1, 3], "points": per_seat[1] + per_seat[3],
                               "rule": "KS-9.5"}]
        leftovers = []
        if b.is_over:           # the final discard shows the hands left over (KS-8.4)
            for p in range(self.players):
                hand = a.hand(p)
                if p == player and spec.kind == "play":
                    hand = multiset_minus(hand, self.spec_ids(action_id))
                leftovers.extend(hand)
        events = [public("round_end", None, leftovers, round=a.round_index + 1,
                         **self.round_reason(a, spec, player),
                         breakdown=scored, round_points=per_seat, scores=list(b.scores()),
                         score_direction="lower is better", **extra)]
        if not b.is_over:
            hidden = [len(a.hand(p)) for p in range(self.players)]
            if spec.kind == "play":
                hidden[player] -= len(spec.cards)
            events[0].public["hands_left"] = hidden
        return events

    @staticmethod
    def round_reason(a: KingsStakesState, spec: Any, player: int) -> dict[str, Any]:
        """Why the round ended (KS-8): four kings at once, a take in the final turns, or the
        final turns after a player went out."""
        if spec.kind == "play" and len(spec.cards) == 4 and all(
                c.startswith("K") for c in spec.cards):
            return {"reason_code": "four_kings", "reason_seat": player, "rule": "KS-8.3"}
        if spec.kind == "take" and a.out_player is not None:
            return {"reason_code": "final_take", "reason_seat": player, "rule": "KS-8.2"}
        out = a.out_player if a.out_player is not None else player
        return {"reason_code": "final_turns", "reason_seat": out, "rule": "KS-8.1"}

    def match_reason(self, post: GameState) -> dict[str, Any]:
        return {"reason_code": "rounds", "rule": "KS-9.4", "rounds": post.round_index}
