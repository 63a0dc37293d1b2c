"""Belote Contrée events (cardcore.events): what each seat saw happen.

Kinds: ``deal`` (the deal begins: its number, the dealer), ``dealt`` (a seat's eight cards:
only that seat sees them), the action kinds ``pass`` / ``bid`` / ``capot`` / ``contre`` /
``surcontre`` / ``play``, ``contract`` (BE-3.7, BE-3.6: the auction is over: the contract, its
taker and multiplier), ``belote`` (BE-6.4: «Belote!» then «Rebelote!»), ``trick_won``
(BE-5.5: the trick's cards go to the winners' pile), ``deal_end`` (BE-7: made, fell or passed
out, with the breakdown the kernel's scoring wrote; in a match to a target, BE-10, its
``scores`` are the totals) and ``match_end``. Who sees which cards
follows from the kernel's zones.
"""
from __future__ import annotations

from typing import Any

from cardcore._fast import GameState
from cardcore.events import Narrator, Raw, public
from cardcore.games.belote._state import BeloteState, card_points

__all__ = ["BeloteNarrator"]


class BeloteNarrator(Narrator):

    kinds = {
        "deal": "the deal begins: its number and the dealer (BE-2.1)",
        "dealt": "a seat's eight cards: only that seat sees them (BE-2.2)",
        "auction_end": "the auction is over: the contract, its taker and the contre (BE-3.6, "
                    "BE-3.7)",
        "belote": "the holder of trump king and queen says «Belote!», then «Rebelote!» "
                  "(BE-6.4)",
        "trick_won": "a trick is over: its cards go to the winners' pile (BE-5.5, BE-6.1)",
        "deal_end": "the deal is over: made, fell or passed out, and the breakdown (BE-7)",
        "match_end": "the winners and the teams' points (BE-2.3; a match to a target: BE-10)",
    }

    def match_reason(self, post: GameState) -> dict[str, Any]:
        s: BeloteState = post  # type: ignore[assignment]
        if not s.match_to:
            return {"reason_code": "one_deal", "rule": "BE-2.3"}
        if s.target_reached:
            return {"reason_code": "match_to", "rule": "BE-10.1"}
        return {"reason_code": "deals", "rule": "BE-10.5"}

    def deal(self, state: GameState) -> list[Raw]:
        s: BeloteState = state  # type: ignore[assignment]
        events = [public("deal", None, deal=s.round_index + 1, dealer=s.dealer, rule="BE-2.1")]
        events += [self.moved("dealt", p, s.hand(p), s, "deck", f"hand:{p}", rule="BE-2.2")
                   for p in range(self.players)]
        return events

    def action(self, pre: GameState, action_id: int, player: int, post: GameState) -> list[Raw]:
        a: BeloteState = pre  # type: ignore[assignment]
        b: BeloteState = post  # type: ignore[assignment]
        spec = self.game._specs[action_id]
        fields: dict[str, Any] = dict(spec.info)
        if not b.is_over:
            fields["next_player"] = b.current_player
        if spec.kind == "play":
            event = self.action_event(action_id, player, self.spec_ids(action_id), a,
                                      f"hand:{player}", "trick", **fields)
        else:
            event = self.action_event(action_id, player, **fields)
        events = [event]
        if a.trump is None and b.trump is not None:          # the auction is over
            events.append(public("auction_end", b.taker, rule="BE-3.6" if b.contre == 2
                                 else "BE-3.7", value=b.contract_value, suit=b.contract_suit,
                                 taker=b.taker, contre=b.contre, multiplier=b.multiplier))
        if b.belote_said > a.belote_said:
            events.append(public("belote", player, self.spec_ids(action_id), rule="BE-6.4",
                                 stage="belote" if b.belote_said == 1 else "rebelote"))
        if b.tricks_done > a.tricks_done:
            cards = b.last_trick()
            winner = b.last_winner
            assert winner is not None
            points = sum(card_points(c, b.trump) for c in cards)
            events.append(self.moved("trick_won", winner, cards, b, "trick",
                                     f"won:{winner % 2}", rule="BE-5.5", points=points,
                                     trick=b.tricks_done))
        return events

    def round_end(self, pre: GameState, action_id: int, player: int,
                  post: GameState) -> list[Raw]:
        # the deal as it ended (in a match the next deal is dealt already: BE-10.4)
        b: BeloteState = post  # type: ignore[assignment]
        if b.deal_passed_out:
            reason, rule = "passed_out", "BE-3.8"
        elif b.deal_made:
            reason, rule = "made", "BE-7.1"
        else:
            reason, rule = "fell", "BE-7.2"
        return [public("deal_end", None, deal=b.round_index, reason_code=reason, rule=rule,
                       points=b.deal_points(), tricks_won=b.deal_tricks(),
                       breakdown=self.breakdown_of(b), scores=list(b.scores()),
                       score_direction="higher is better")]
