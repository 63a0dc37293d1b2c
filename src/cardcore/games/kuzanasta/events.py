"""Kuzanasta events (cardcore.events): what each seat saw happen.

Kinds: ``deal`` (a deal begins: deal number, dealer, first player, the pot after the ante,
KZ-2.1, KZ-7.6), ``turn_up`` (KZ-2.3: the card whose rank is wild), ``dealt`` (a seat's seven
cards: only that seat sees them), ``pile_start`` (KZ-2.7: a stock pile's top card turned up to
start its discard pile), ``set_aside`` (KZ-2.6: pile 1 dead in a 2-3 player deal, cards
unseen), the action kinds (``draw_stock`` and ``god_draw`` name the card for the drawer only;
a God draw's notation is ``god_draw`` for everybody else, except a draw at a place, whose
place everybody sees; ``go_out`` shows the hand; with going_out="immediate" a discard may
end the deal, and then ``deal_end`` follows it),
``recycle`` (KZ-3.4: a discard pile turned over as the new stock), ``pile_dead`` (KZ-6.3,
KZ-6.4: a discard pile leaves play), ``deal_end`` (KZ-7: the breakdown; or a void deal, KZ-3.4,
KZ-3.5) and ``match_end``.
"""
from __future__ import annotations

from typing import Any

from cardcore._fast import GameState
from cardcore.cards import JOKER, RANKS, card_id
from cardcore.events import Narrator, Raw, multiset_minus, public
from cardcore.games.kuzanasta._state import DISCARD_FIRST, KuzanastaState
from cardcore.games.kuzanasta.actions import set_label

__all__ = ["KuzanastaNarrator"]

VOID_RULES = {"no_draw": "KZ-3.4", "max_turns": "KZ-3.5"}


class KuzanastaNarrator(Narrator):

    kinds = {
        "deal": "a deal begins: number, dealer, first player, the pot after the ante "
                "(KZ-2.1, KZ-7.6)",
        "turn_up": "the card whose rank is wild (KZ-2.3)",
        "dealt": "a seat's seven cards: only that seat sees them (KZ-2.4)",
        "pile_start": "a stock pile's top card turned up to start its discard pile (KZ-2.7)",
        "set_aside": "pile 1 dead in a 2-3 player deal, cards unseen (KZ-2.6)",
        "recycle": "a discard pile turned over as the new stock (KZ-3.4)",
        "pile_dead": "a discard pile leaves play (KZ-6.3, KZ-6.4)",
        "deal_end": "the deal's scoring breakdown, or a void deal (KZ-7, KZ-3.4, KZ-3.5)",
        "match_end": "the winners and final scores (KZ-7.5)",
    }

    def deal(self, state: GameState) -> list[Raw]:
        s: KuzanastaState = state  # type: ignore[assignment]
        wild = s.wild_rank
        events = [public("deal", None, deal=s.round_index + 1, dealer=s.dealer,
                         first_player=s.first_player, pot=s.pot, chips=s.chips(),
                         rule="KZ-2.1"),
                  public("turn_up", None, [s.turn_up], rule="KZ-2.3",
                         wild_rank=None if wild is None else RANKS[wild])]
        events += [self.moved("dealt", p, s.hand(p), s, "stock", f"hand:{p}", rule="KZ-2.4")
                   for p in range(self.players)]
        piles = s.discards()
        for k in range(s.piles_in_play):
            events.append(public("pile_start", None, piles[k], pile=k, rule="KZ-2.7",
                                 stock_size=s.stock_sizes()[k], into=f"discard:{k}"))
        if s.dead():
            events.append(self.moved("set_aside", None, s.dead(), s, "stock", "aside",
                                     rule="KZ-2.6"))
        return events

    def action(self, pre: GameState, action_id: int, player: int, post: GameState) -> list[Raw]:
        a: KuzanastaState = pre  # type: ignore[assignment]
        b: KuzanastaState = post  # type: ignore[assignment]
        spec = self.game._specs[action_id]
        ended = b.round_index != a.round_index
        events: list[Raw] = []
        if not ended:                   # KZ-3.4: a stock that grew was a recycled discard pile
            for k, (before, after) in enumerate(zip(a.stock_sizes(), b.stock_sizes())):
                if after > before:
                    recycled = a.discards()[k][:-1]
                    events.append(public("recycle", player, recycled, pile=k, rule="KZ-3.4",
                                         reshuffled=bool(self.game.options["reshuffle"])))
        kind = spec.kind
        if kind in ("draw_stock", "god_draw") and not ended:
            drawn = multiset_minus(b.hand(player), a.hand(player))
            pile = a.pile_of(player)
            if kind == "god_draw":       # KZ-6.2: which stock shrank is public (stock_sizes)
                shrunk = [k for k, (x, y) in enumerate(zip(a.stock_sizes(), b.stock_sizes()))
                          if y < x]
                pile = shrunk[0] if shrunk else pile
            # From a face-down stock to the hand: the drawer sees the card, and only the drawer
            # sees a God draw's notation, which names it (KZ-6.2); a draw at a place
            # (god_draw="position") names no card, so everybody sees the place.
            events.insert(0, self.action_event(action_id, player, drawn, a, f"stock:{pile}",
                                               f"hand:{player}", pile=pile))
        elif kind == "draw_discard":
            top = a.discards()[a.pile_of(player)][-1:]
            events.insert(0, self.action_event(action_id, player, top))
        elif kind in ("discard", "god_discard") and ended:
            # The deal's last discard: named hand -> pile, as the next deal's first event
            # gathers every card (cardcore.events: a round's end is told as the action's move).
            events.insert(0, self.action_event(action_id, player, self._card_ids(spec.cards),
                                               a, f"hand:{player}",
                                               f"discard:{a.pile_of(player)}"))
        elif kind == "go_out":
            events.insert(0, self.action_event(action_id, player, a.hand(player)))
        else:
            events.insert(0, self.action_event(action_id, player,
                                               self._card_ids(spec.cards)))
        dead = multiset_minus(b.dead(), a.dead()) if not ended else []
        if dead:
            rule = "KZ-6.4" if action_id == DISCARD_FIRST + JOKER else "KZ-6.3"
            events.append(public("pile_dead", player, dead, rule=rule))
        return events

    @staticmethod
    def _card_ids(names: tuple[str, ...]) -> list[int]:
        return [card_id(c) for c in names]

    def what(self, words: str, detail: int) -> str:
        """A set row names its set (the detail is the set's descriptor)."""
        return words.format(detail=set_label(detail)) if detail >= 0 else words

    def round_end(self, pre: GameState, action_id: int, player: int,
                  post: GameState) -> list[Raw]:
        b: KuzanastaState = post  # type: ignore[assignment]
        last = b.last_deal()
        assert last is not None
        deal = pre.round_index + 1
        scored = self.breakdown_of(b)
        if last["end"] != "went_out":
            return [public("deal_end", None, deal=deal, end=last["end"], winner=None,
                           reason_code=str(last["end"]), **self._stuck(pre, last),
                           rule=VOID_RULES.get(str(last["end"]), "KZ-3.5"),
                           breakdown=scored, scores=list(b.scores()),
                           chips=b.chips(), pot=b.pot, score_direction="higher is better")]
        w = last["winner"]
        return [public("deal_end", w, last["hand"], deal=deal, end="went_out", winner=w,
                       reason_code="went_out", reason_seat=w,
                       rule="KZ-7", breakdown=scored,
                       pot_won=last["pot"], scores=list(b.scores()), chips=b.chips(),
                       score_direction="higher is better")]

    @staticmethod
    def _stuck(pre: GameState, last: dict[str, Any]) -> dict[str, Any]:
        """The seat that could draw nothing (KZ-3.4): the one to move when the deal ended."""
        if last["end"] == "no_draw" and pre.current_player is not None:
            return {"reason_seat": pre.current_player}
        return {}

    def match_reason(self, post: GameState) -> dict[str, Any]:
        b: KuzanastaState = post  # type: ignore[assignment]
        deals = self.game.options.get("deals")
        if deals:
            return {"reason_code": "deals", "rule": "KZ-7.5", "deals": deals}
        target = self.game.options["target"]
        if max(b.scores()) >= target:
            return {"reason_code": "target", "rule": "KZ-7.5", "target": target}
        return {"reason_code": "void_deals", "rule": "KZ-7.8"}
