"""Kuzanasta (``kuzanasta``): a two-deck set-collecting game for 2-4 players with wild cards
and the joker as the "God card".

The rules are the rulebook games/kuzanasta.md (rule IDs KZ-x.y). The game's files, here:

* ``_state.pyx`` — the state machine over the core framework: rule constants, the 2970
  action ids (its docstring lists them), legality, apply, scoring, the per-seat projection
  and sample_hidden; ``_sets.pyx`` — the set detection (``best_two_sets``, the ``kz_*``
  kernels), pure card logic with no game state;
* this module — the thin protocol class: options, action decoding, the view;
* ``events.py`` — the narrator (what each seat saw happen); ``words.py`` — its words;
* ``greedy.py`` — GreedyBot's heuristic; ``schema.py`` and ``schemas/`` — the JSON Schemas;
* ``web/`` — the web table's board and words.

Action notation (what ``str(action)`` gives and ``apply`` accepts):
``draw_stock`` · ``draw_discard`` · ``god_look`` · ``god_draw 7H`` · ``discard 7H`` ·
``discard JK`` · ``god_discard 7H`` · ``end_turn`` · ``go_out`` (the best declaration) ·
``go_out 7-7-7 Q-Q-W`` (two named sets: rank repeated for each natural card, ``W`` for each
wild card standing in; either order is accepted); with ``god_draw="position"`` also
``god_draw 0:12`` (pile 0, depth 12 from the top, taken without looking).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardcore.cards import RANKS, card_str, format_cards
from cardcore.errors import IllegalActionError
from cardcore._fast import GameState
from cardcore.i18n import N_, _
from cardcore.narrate import seat_name
from cardcore.game import (
    MAX_ACTION_TEXT, ActionLike, ActionSpec, Game, ShortMatch, JSONValue, Option, flag, int_between, one_of,
    seat_or_lot,
)
from cardcore.games.kuzanasta._state import (
    MAX_VOID_DEALS, OBSERVATION_PIECES, PHASES, KuzanastaState, action_table, actions_per_turn,
    deal_plan, kuzanasta_deck, max_deal_total, min_deal_total, place_actions,
)
from cardcore.games.kuzanasta.actions import place_label, set_label
from cardcore.games.kuzanasta._state import (  # the action ids by name
    DISCARD_FIRST, DRAW_DISCARD, DRAW_STOCK, END_TURN, GOD_DISCARD_FIRST, GOD_DRAW_FIRST, GOD_LOOK, GOD_PLACE_FIRST, GO_OUT, GO_OUT_NAMED_FIRST,
)
from cardcore.games.kuzanasta.events import KuzanastaNarrator
from cardcore.games.kuzanasta.greedy import choose as greedy_choose
from cardcore.games.kuzanasta.schema import SCHEMA
from cardcore.games.kuzanasta.words import PHRASES, REASONS, rank_words

__all__ = ["Kuzanasta", "set_label", "DISCARD_FIRST", "DRAW_DISCARD", "DRAW_STOCK", "END_TURN",
    "GOD_DISCARD_FIRST", "GOD_DRAW_FIRST", "GOD_LOOK", "GOD_PLACE_FIRST", "GO_OUT",
    "GO_OUT_NAMED_FIRST"]


def _describe(entry: tuple) -> ActionSpec:  # type: ignore[type-arg]
    kind, card, pair = entry
    if card is not None:
        name = card_str(card)
        return ActionSpec(kind, (name,), f"{kind} {name}")
    if pair is not None:
        sets = [set_label(pair[0]), set_label(pair[1])]
        return ActionSpec(kind, (), "go_out " + " ".join(sets),
                          {"sets": sets, "descriptors": [int(pair[0]), int(pair[1])]})
    if kind == "go_out":
        return ActionSpec(kind, (), kind, {"best": True})
    return ActionSpec(kind, (), kind)


# KZ-3.5, KZ-7.5, KZ-7.6 Decisions (bounds a table accepts; games/kuzanasta.md "Options").
MAX_TURNS = 10_000
MIN_TARGET, MAX_TARGET = 1000, 1_000_000
MAX_DEALS = 100
MAX_ANTE = 1000

class Kuzanasta(Game):
    """Kuzanasta. Options: ``dealer`` (None = by lot), ``pile_pairing`` ("opposite"/"adjacent"),
    ``reshuffle``, ``max_turns``, ``target``, ``deals`` (None = play to the target), ``ante``,
    ``going_out`` ("immediate"/"optional"), ``sets`` ("any_two"/"three_and_four"),
    ``god_draw`` ("look"/"position")."""

    _state: KuzanastaState

    name = "kuzanasta"
    title = "Kuzanasta"
    rule_prefix = "KZ"
    round_name = "deal"
    # A match runs to a target over many deals: a rollout through all of them is slow and
    # says little about the move at hand, so a search plays to the end of the deal.
    search_horizon = "round"
    # ... and, in a match that goes on past the deal, credits the deal's points margin rather
    # than its win: a deal is worth a few hundred to tens of thousands of points (KZ-7.2,
    # KZ-7.3). Measured: no stronger than the win in 3-deal matches (300, within +-45 Elo),
    # no different in single deals (the match ends with the deal: the win is credited).
    search_reward = "points"
    # The difficulty levels (make_bot("level:N")), calibrated on 2-player deals
    # (benchmarks/calibrate_levels.py, docs/bots.md). A deal is mostly luck: search beats the
    # greedy heuristic by only ~40 Elo, so the lower levels are greedy play with a share of
    # random moves, and the top is the search.
    levels = {1: "random", 2: "greedy:epsilon=0.8", 3: "greedy:epsilon=0.6",
              4: "greedy:epsilon=0.2", 5: "ismcts:iterations=1000,think_ms=500"}
    # The review's default reference (cardcore.review; docs/bots.md, "Game review", has its
    # score against the levels): level 5's search, iteration-bound, at the review's wide
    # exploration (a playing bot's 0.7 measured no stronger on the same deals, and it flags
    # less steadily); the review runs it 5 times a decision, the most visited move played.
    review_reference = "ismcts:iterations=1000,exploration=3.0"
    default_players = 4
    min_players = 2
    # One deal of two: the generic full matches and the level calibration.
    short_match = ShortMatch(2, {"deals": 1}, "2-player deals (deals=1)", 600)
    benchmark_targets = {"vector_steps_per_s": 8e6, "bots_ratio_0_2": 0.07, "bots_goal_factor": 3.0}
    max_players = 4
    phases = PHASES
    rulebook = "kuzanasta.md"
    score_direction = "higher is better"
    narrator = KuzanastaNarrator
    # Two stocks, each with its discard pile ("stock:0", "discard:0", "stock:1", ...): the
    # deck is gathered into stock 0 before a deal (KZ-2.5).
    zone_labels = {"hand": N_("cards in hand"), "stock": N_("stock"), "discard": N_("discard pile"),
                   "aside": N_("set-aside cards"), "dead": N_("dead cards")}
    deck_zone = "stock:0"
    shown_deal_entries = ("turn_up",)          # KZ-2.3: shown to all, then dealt
    deal_entry_zones = {"set_aside": "aside"}    # KZ-2.6
    greedy = staticmethod(greedy_choose)
    schema_parts = SCHEMA
    phrases = PHRASES
    reasons = REASONS
    options_spec = {
        "dealer": Option(None, seat_or_lot("KZ-2.1"), "seat of the first dealer (None = by lot)"),
        "pile_pairing": Option("opposite", one_of("opposite", "adjacent", rule="KZ-2.6"),
                               "which 4-player seats share a stock pile"),
        "reshuffle": Option(False, flag("KZ-3.4"),
                            "shuffle (True) or just turn over (False) a recycled discard pile"),
        # ``saved``: the bounds of 0.3, which its saves may hold (they load by those rules).
        "max_turns": Option(1000, int_between(1, MAX_TURNS, "KZ-3.5"),
                            "turns before a deal ends void",
                            saved=int_between(1, 10**9, "KZ-3.5")),
        "target": Option(50000, int_between(MIN_TARGET, MAX_TARGET, "KZ-7.5"),
                         "the score that ends the match after the deal reaching it",
                         saved=int_between(1, 10**15, "KZ-7.5")),
        "deals": Option(None, int_between(1, MAX_DEALS, "KZ-7.5", allow_none=True),
                        "a number of scored deals instead of the target",
                        saved=int_between(1, 10**6, "KZ-7.5", allow_none=True)),
        "ante": Option(0, int_between(0, MAX_ANTE, "KZ-7.6"),
                       "chips each player pays into the pot per deal; 0: no chips",
                       saved=int_between(0, 10**12, "KZ-7.6")),
        "going_out": Option("immediate", one_of("immediate", "optional", rule="KZ-3.3"),
                            "go out as soon as the hand holds two sets, or when the player likes"),
        "sets": Option("any_two", one_of("any_two", "three_and_four", rule="KZ-7.1"),
                       "going out needs any two sets, or a 3-card and a 4-card set of all 7 cards"),
        "god_draw": Option("look", one_of("look", "position", rule="KZ-6.2"),
                           "the God draw picks a card after looking, or a place without looking"),
    }
    # Saves of format 1 (cardcore 0.1) were played before these options: going out was optional.
    format1_options = {"going_out": "optional"}
    conformance_configs = [
        {"players": 2}, {"players": 3}, {"players": 4},
        {"players": 4, "pile_pairing": "adjacent", "reshuffle": True, "ante": 5},
        {"players": 2, "deals": 3, "max_turns": 40, "dealer": 1},
        {"players": 2, "going_out": "optional"},
        {"players": 4, "going_out": "optional", "god_draw": "position"},
        # one deal: random play rarely goes out with a 3 + 4 partition, so a random match to
        # the target runs to ~24,000 actions (a deal ~2,400); matches of many deals are
        # the plain configurations' (and the last two's)
        {"players": 3, "sets": "three_and_four", "deals": 1},
        {"players": 2, "sets": "three_and_four", "going_out": "optional", "deals": 2},
        {"players": 4, "god_draw": "position", "pile_pairing": "adjacent"},
        {"players": 2, "god_draw": "position", "reshuffle": True, "deals": 2},
    ]

    @classmethod
    def deck_for(cls, players: int, options: Mapping[str, Any]) -> list[int]:
        """The deck composition (card ids, id order) for this configuration."""
        return list(kuzanasta_deck())

    @classmethod
    def action_specs(cls, players: int, options: Mapping[str, Any]) -> Sequence[ActionSpec]:
        """The decode table: the meaning of every action id (pinned by golden tests). The
        option god_draw="position" adds the places after the 2970 ids every configuration has."""
        specs = [_describe(entry) for entry in action_table()]
        if options["god_draw"] == "position":
            specs += [ActionSpec("god_draw", (), place_label(pile, depth),
                                 {"pile": pile, "depth": depth})
                      for pile, depth in place_actions()]
        return specs

    def _make_state(self, deck: list[int] | None) -> KuzanastaState:
        return KuzanastaState(self.num_players, self.options, deck)

    def _action_detail(self, action_id: int, spec: ActionSpec, player: int
                       ) -> tuple[tuple[str, ...], Mapping[str, JSONValue]] | None:
        """``draw_discard`` names the top card of the player's discard pile (KZ-3.1)."""
        if spec.kind == "draw_discard":
            pile = self._state.discards()[self._state.pile_of(player)]
            return ((card_str(pile[-1]),) if pile else ()), {}
        return None

    def _resolve(self, action: ActionLike) -> int:
        """As Game._resolve; a named declaration may give its two sets in either order."""
        try:
            return super()._resolve(action)
        except IllegalActionError:
            if isinstance(action, str) and len(action) <= MAX_ACTION_TEXT:
                words = action.split()
                if len(words) == 3 and words[0].lower() == "go_out":
                    return super()._resolve(" ".join([words[0], words[2], words[1]]))
            raise

    def best_declaration(self, player: int) -> dict[str, JSONValue] | None:
        """The best declaration in a seat's hand now (KZ-7.1; a 3-card and a 4-card set with
        ``sets="three_and_four"``), or None."""
        value, d1, d2 = self._state.best_sets(player)
        if value == 0:
            return None
        return {"sets": [set_label(d1), set_label(d2)], "value": value}

    @property
    def wild_cards(self) -> list[str]:
        """Every card of the deal's wild rank (KZ-4.1; the joker never is, KZ-4.3); none
        when the turn-up was the joker (KZ-2.3) or before the first deal."""
        rank = self._state.wild_rank
        return [] if rank is None else [card_str(suit * 13 + rank) for suit in range(4)]

    def _view_extra(self, player: int | None) -> dict[str, JSONValue]:
        s = self._state
        wild = s.wild_rank
        return {
            "wild_rank": None if wild is None else RANKS[wild],
            "turn_up": card_str(s.turn_up),
            "discards": [format_cards(pile) for pile in s.discards()],
            "my_pile": None if player is None else s.pile_of(player),
            "pile_of": [s.pile_of(p) for p in range(self.num_players)],
            "stock_sizes": s.stock_sizes(),
            "dealer": s.dealer,
            "first_player": s.first_player,
            "deal": s.round_index + (0 if s.is_over else 1),
            "turns_in_deal": s.turns_in_deal,
            "god_holder": s.god_public,
            "chips": s.chips(),
            "pot": s.pot,
            "best_sets": None if player is None else self.best_declaration(player),
            "last_deal": self._last_deal(s),
        }

    @staticmethod
    def _last_deal(state: KuzanastaState) -> dict[str, JSONValue] | None:
        last = state.last_deal()
        if last is None:
            return None
        out: dict[str, JSONValue] = {
            "end": last["end"], "winner": last["winner"],
            "wild_rank": None if last["wild_rank"] is None else RANKS[last["wild_rank"]],
        }
        if last["end"] == "went_out":
            out.update({
                "sets": [{"set": set_label(d), "value": v} for d, v in last["sets"]],
                "hand": format_cards(last["hand"], sort=True),
                "hand_points": last["hand_points"],
                "turn_up_doubled": last["turn_up_doubled"],
                "god_doubled": last["god_doubled"],
                "total": last["total"],
                "pot": last["pot"],
            })
        return out

    def _round_summary(self, state: GameState) -> dict[str, JSONValue]:
        s: KuzanastaState = state  # type: ignore[assignment]
        return {**(self._last_deal(s) or {}), "scores": list(s.scores()), "chips": s.chips()}

    @classmethod
    def deal_plan_of(cls, players: int, options: Mapping[str, Any], first: int) -> list[str]:
        """The deal plan of a deal dealt by seat ``first`` (the Header's dealer; KZ-2.2: the
        seat after it plays first)."""
        return deal_plan(players, options, first)

    @classmethod
    def observation_pieces_of(cls, players: int, options: Mapping[str, Any]
                              ) -> Sequence[tuple[str, int, int]]:
        return OBSERVATION_PIECES

    @classmethod
    def utility_range_of(cls, players: int, options: Mapping[str, Any]) -> tuple[float, float]:
        """Returns are the match scores (KZ-7.4), which only grow from 0. With ``deals`` a
        match has that many scored deals; to a target, every deal but the last ends with all
        scores below it. Each deal adds at most ``max_deal_total`` to one seat."""
        per_deal = max_deal_total(players)
        if options["deals"] is not None:
            return (0.0, float(options["deals"] * per_deal))
        return (0.0, float(options["target"] - 1 + per_deal))

    @classmethod
    def max_game_length_of(cls, players: int, options: Mapping[str, Any]) -> int:
        """Derived from the rules: a deal has at most ``actions_per_turn() * max_turns``
        actions (KZ-3.5), and a match at most its scored deals plus MAX_VOID_DEALS void
        ones (KZ-7.8). Scored deals: ``deals``, or, to a target, every seat below it before
        the last deal, each scored deal adding at least ``min_deal_total()`` to one seat."""
        per_deal: int = actions_per_turn() * options["max_turns"]
        return cls.max_deals_of(players, options) * per_deal

    @classmethod
    def max_deals_of(cls, players: int, options: Mapping[str, Any]) -> int:
        """The most deals a match has, void ones included: its scored deals (``deals``, or,
        to a target, every seat below it before the last deal, each scored deal adding at
        least ``min_deal_total()`` to one seat) plus MAX_VOID_DEALS (KZ-7.8)."""
        scored: int
        if options["deals"] is not None:
            scored = options["deals"]
        else:
            below = -(-options["target"] // min_deal_total()) - 1
            scored = players * below + 1
        return scored + MAX_VOID_DEALS

    @classmethod
    def observation_bounds_of(cls, players: int, options: Mapping[str, Any]
                              ) -> Mapping[str, tuple[float, float]]:
        """Per piece (rulebook, "Observation"): one-hots 0..1; counts per card id up to the
        deck's 2 copies, per set descriptor up to the 2 sets; sizes up to the deck; card
        places hold an id + 1 (0..53). Scores and deal totals up to ``utility_range`` and
        ``max_deal_total`` (KZ-7.4), a set up to the dearest row (KZ-5). Chips (KZ-7.6): a
        seat pays at most 2 antes a deal and takes at most what every seat paid."""
        from cardcore.games.kuzanasta._sets import KZ_ROW_VALUES
        deck = kuzanasta_deck()
        copies = float(max(deck.count(c) for c in set(deck)))
        deals = float(cls.max_deals_of(players, options))
        paid = 2.0 * options["ante"] * deals                  # by one seat, over the match
        one_hot = (0.0, 1.0)
        bounds = {piece: one_hot for piece in (
            "observer", "current_player", "phase", "wild_rank", "turn_up", "discard_tops",
            "my_pile", "pile_of", "dealer", "first_player", "god_holder", "last_end",
            "last_winner", "last_wild_rank", "last_turn_up_doubled", "last_god_doubled")}
        total = float(max_deal_total(players))
        bounds.update({
            "hand": (0.0, copies), "discard_counts": (0.0, copies), "last_hand": (0.0, copies),
            "best_sets": (0.0, 2.0), "last_sets": (0.0, 2.0),
            "hand_sizes": (0.0, float(len(deck))), "stock_sizes": (0.0, float(len(deck))),
            "scores": (0.0, cls.utility_range_of(players, options)[1]),
            "discard_order": (0.0, float(len(set(deck)))), "piles_in_play": (1.0, 2.0),
            "deal": (1.0, deals), "turns_in_deal": (0.0, float(options["max_turns"])),
            "chips": (-paid, paid * players), "pot": (0.0, paid * players),
            "last_pot": (0.0, paid * players),
            "best_value": (0.0, 2.0 * max(KZ_ROW_VALUES)),
            "last_set_values": (0.0, float(max(KZ_ROW_VALUES))),
            "last_hand_points": (0.0, total), "last_total": (0.0, total)})
        return bounds

    def table_lines(self, player: int) -> list[str]:
        """The public table as plain-text lines, for terminal front ends."""
        v = self.view(player)
        wild = (rank_words(str(v["wild_rank"])) if v["wild_rank"]
                else _("none (joker turned up: hand points double)"))
        who = seat_name(player)              # "you", "player 3": counted from 1
        seat = _("{name}: {value}")
        lines = [_("Deal {deal}   dealer: {dealer}   wild cards: {wild}   turn-up {turn_up}   "
                   "turn {turn}").format(deal=v["deal"], dealer=who(v["dealer"]), wild=wild,
                                         turn_up=v["turn_up"], turn=v["turns_in_deal"] + 1)]
        for k, pile in enumerate(v["discards"]):
            users = [who(p) for p, q in enumerate(v["pile_of"]) if q == k]
            mine = _("  (yours)") if k == v["my_pile"] else ""
            shown = " ".join(pile[-8:]) if pile else _("(empty)")
            more = _("{count} more, ").format(count=len(pile) - 8) if len(pile) > 8 else ""
            # KZ-3.1: a draw_discard takes the top card, the last one shown.
            lines.append(_("Pile {pile} ({names}): stock {stock}, discard (top last) "
                           "{more}{cards}{mine}").format(
                pile=k + 1, names=", ".join(users), stock=v["stock_sizes"][k], more=more,
                cards=shown, mine=mine))
        best = v["best_sets"]
        lines.append(_("Best sets in hand: {sets}").format(
            sets=f"{' + '.join(best['sets'])} = {best['value']}" if best else _("none yet")))
        lines.append(_("Scores: {scores}").format(scores="  ".join(
            seat.format(name=who(p), value=s) for p, s in enumerate(v["scores"]))))
        if self.options["ante"]:
            lines.append(_("Chips: {chips}   pot {pot}").format(chips="  ".join(
                seat.format(name=who(p), value=c) for p, c in enumerate(v["chips"])), pot=v["pot"]))
        if v["god_holder"] is not None:
            lines.append(_("God card (joker): held by {name}").format(name=who(v["god_holder"])))
        last = v["last_deal"]
        if last is not None:
            if last["end"] == "went_out":
                sets = " + ".join(s["set"] for s in last["sets"])
                lines.append(_("Last deal: out first, {name}, with {sets}, scoring {total}")
                             .format(name=who(last["winner"]), sets=sets, total=last["total"]))
            else:
                lines.append(_("Last deal: void ({end})").format(end=last["end"]))
        return lines
