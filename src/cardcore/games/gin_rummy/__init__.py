"""Gin Rummy (``gin_rummy``), exactly as OpenSpiel's ``gin_rummy`` plays it.

The rules are the rulebook games/gin_rummy.md (rule IDs GR-x.y). The game's files, here:

* ``kernel.c`` / ``kernel.h`` — the rules in C99 over the core (cardcore/core/kernel.h): rule
  constants, OpenSpiel's 241 action ids (listed at the top of both), the meld and deadwood
  arithmetic, legality, apply, scoring, the per-seat projection, the zones, sample_hidden,
  GreedyBot's policy and the options as the C ABI sees them; the same C builds the
  extension, the native library and WebAssembly;
* ``_state.pyx`` — the Python extension over that C: the state class and its getters;
* this module — the thin protocol class: options, action decoding, the view;
* ``events.py`` — the narrator (what each seat saw happen); ``words.py`` — its words;
* ``greedy.py`` — GreedyBot's heuristic (documented there; the core plays it, ``kernel.c``);
  ``schema.py`` and ``schemas/`` — the JSON Schemas;
* ``web/`` — the web table's board and words.

Action notation (what ``str(action)`` gives and ``apply`` accepts): ``card 7H`` (discard it,
or lay it off) · ``draw upcard`` · ``draw stock`` · ``pass`` · ``knock`` · ``meld 7H 8H 9H``.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from cardcore._fast import GameState
from cardcore.cards import card_str, format_cards
from cardcore.i18n import N_, _
from cardcore.narrate import seat_name
from cardcore.game import ActionSpec, Game, JSONValue, Option, ShortMatch, flag, int_between
from cardcore.games.gin_rummy._state import (
    BOX_BONUS, GAME_BONUS, MAX_BONUS, MAX_HAND_SIZE, MAX_HANDS, MAX_KNOCK_CARD,
    MAX_LAYOFF_LIMIT, MAX_MATCH_TO, MIN_HAND_SIZE, NUM_CARDS, PHASES, GinRummyState,
    action_table, deal_plan, gin_rummy_deck, meld_cards, observation_pieces,
)
from cardcore.games.gin_rummy._state import (  # the action ids by name
    CARD_FIRST, DRAW_STOCK, DRAW_UPCARD, KNOCK, MELD_FIRST, PASS,
)
from cardcore.games.gin_rummy.events import GinRummyNarrator
from cardcore.games.gin_rummy.greedy import choose as greedy_choose
from cardcore.games.gin_rummy.schema import SCHEMA
from cardcore.games.gin_rummy.words import PHRASES, REASONS

__all__ = ["GinRummy", "CARD_FIRST", "DRAW_STOCK", "DRAW_UPCARD", "KNOCK", "MELD_FIRST", "PASS"]

# The most a hand can count after a knock: ten cards with no meld laid (KKKKQQQQJJ, GR-7.2:
# the other player need not lay its melds).
MAX_HAND_VALUE = 100
# GR-8.2: the upcard may be drawn 49 times; the stock gives every card but the hands, the
# first upcard and the wall's two; a draw and a discard per turn; then at most the first
# upcard's three actions and the knock's and layoffs' (a discard, melds, layoffs, passes).
MAX_UPCARD_DRAWS = 49
END_ACTIONS = 40


def _describe(entry: tuple[str, list[int]]) -> ActionSpec:
    kind, cards = entry
    names = tuple(card_str(c) for c in cards)
    if kind == "play_card":
        return ActionSpec("play_card", names, f"card {names[0]}")
    if kind == "meld":
        return ActionSpec("meld", names, "meld " + " ".join(names))
    return ActionSpec(kind, (), kind.replace("_", " "))


class GinRummy(Game):
    """Gin Rummy for two. Options (OpenSpiel's names and defaults): ``knock_card`` (10),
    ``gin_bonus`` (25), ``undercut_bonus`` (25), ``oklahoma`` (False), ``hand_size`` (10); and
    pagat's standard readings, off by default: ``rediscard_upcard`` (True),
    ``big_gin_bonus`` (0), ``layoff_limit`` (2; 10: no limit), ``undercut_on_equal``
    (False), ``wall_knock`` (True), ``match_to`` (0: one hand; pagat: 100, GR-11)."""

    _state: GinRummyState

    name = "gin_rummy"
    title = "Gin Rummy"
    rule_prefix = "GR"
    # A match is one hand (GR-8.4), or hands up to match_to points (GR-11): players call a
    # round a hand, and its end is "hand_end".
    round_name = "hand"
    # The search plays to the hand's end: with one hand that is the match's end (the same
    # moves as a "match" horizon, seed for seed); in a match to match_to points a rollout
    # through every later hand cost 10x the time and says little of the move at hand. The
    # hand's points, not only its win, are what a match to a target adds up.
    search_horizon = "round"
    search_reward = "points"
    # The difficulty levels (make_bot("level:N")), calibrated by one 400-hand tournament of the
    # five (benchmarks/calibrate_levels.py, levels.md, games/gin_rummy.md "Bots"). Greedy play
    # (knock at once, keep the melds) is strong here and the search gains little over it: a
    # hand is mostly the draws, so the root's moves differ by a few hundredths of a win and
    # thousands of iterations only begin to tell them apart (head to head with greedy, 200
    # hands: 200 iterations -28 Elo at the default prior 0.25, +23 at prior 2; in tournaments
    # 2,000 iterations at prior 2 +42 and +57). So plain greedy is no level: the ladder is
    # greedy play with fewer and fewer random moves (level 4 a quarter of them, 125 Elo below
    # the search), and the search (which gives the hints) on top.
    levels = {1: "random", 2: "greedy:epsilon=0.7", 3: "greedy:epsilon=0.45",
              4: "greedy:epsilon=0.25", 5: "ismcts:iterations=2000,rollout=greedy,prior=2"}
    # The review's default reference (cardcore.review; docs/bots.md, "Game review", has its
    # score against the levels): level 5's search, iteration-bound, at a playing bot's
    # exploration; the review runs it 5 times a decision and plays the most visited move.
    review_reference = "ismcts:iterations=2000,rollout=greedy,exploration=0.7,prior=2"
    default_players = 2
    min_players = 2
    max_players = 2
    short_match = ShortMatch(2, {}, "hands", 400)
    phases = PHASES
    rulebook = "gin_rummy.md"
    score_direction = "higher is better (points)"
    narrator = GinRummyNarrator
    zone_labels = {"hand": N_("cards in hand"), "stock": N_("stock"), "upcard": N_("upcard"),
                   "discard": N_("discard pile"), "melds": N_("melds laid")}
    greedy = staticmethod(greedy_choose)
    schema_parts = SCHEMA
    phrases = PHRASES
    reasons = REASONS
    options_spec = {
        "knock_card": Option(10, int_between(0, MAX_KNOCK_CARD, "GR-5.1"),
                             "the most deadwood a knock may leave"),
        "gin_bonus": Option(25, int_between(0, MAX_BONUS, "GR-8.1"),
                            "the bonus for knocking with no deadwood"),
        "undercut_bonus": Option(25, int_between(0, MAX_BONUS, "GR-8.1"),
                                 "the bonus of a player who undercuts the knocker"),
        "oklahoma": Option(False, flag("GR-3.3"), "the first upcard's value is the knock card"),
        "hand_size": Option(10, int_between(MIN_HAND_SIZE, MAX_HAND_SIZE, "GR-2.1"),
                            "cards dealt to each player"),
        # pagat's standard readings; the defaults are OpenSpiel's (games/gin_rummy.md)
        "rediscard_upcard": Option(True, flag("GR-4.2"),
                                   "the upcard just taken may be discarded again"),
        "big_gin_bonus": Option(0, int_between(0, MAX_BONUS, "GR-6.4"),
                                "the bonus for big gin, eleven cards in melds (0: no big gin)"),
        "layoff_limit": Option(2, int_between(1, MAX_LAYOFF_LIMIT, "GR-7.4"),
                               "cards laid off at each end of a run (10: no limit)"),
        "undercut_on_equal": Option(False, flag("GR-8.5"),
                                    "equal deadwood undercuts the knocker"),
        "wall_knock": Option(True, flag("GR-5.3"),
                             "at the wall, the next player may take the upcard to knock"),
        "match_to": Option(0, int_between(0, MAX_MATCH_TO, "GR-11.1"),
                           "play hands until a total reaches this (0: one hand; pagat: 100)"),
    }
    conformance_configs = [
        {},
        {"knock_card": 0},
        {"oklahoma": True},
        {"gin_bonus": 31, "undercut_bonus": 7, "knock_card": 5},
        {"hand_size": 7},
        {"hand_size": 2, "knock_card": 1, "gin_bonus": 0, "undercut_bonus": 0},
        # pagat's standard readings (GR-4.2, GR-6.4, GR-7.4, GR-8.5)
        {"rediscard_upcard": False, "big_gin_bonus": 31, "layoff_limit": 10,
         "undercut_on_equal": True, "wall_knock": False},
        {"layoff_limit": 1, "big_gin_bonus": 10, "knock_card": 0},
        # pagat's whole game: its readings and the match to 100 (GR-11)
        {"rediscard_upcard": False, "big_gin_bonus": 31, "layoff_limit": 10,
         "undercut_on_equal": True, "wall_knock": False, "match_to": 100},
    ]

    @classmethod
    def deck_for(cls, players: int, options: Mapping[str, Any]) -> list[int]:
        """The deck composition (card ids, id order): one 52-card deck (GR-1.2)."""
        return gin_rummy_deck()

    @classmethod
    def action_specs(cls, players: int, options: Mapping[str, Any]) -> Sequence[ActionSpec]:
        """The decode table: OpenSpiel's 241 ids in every configuration."""
        return [_describe(entry) for entry in action_table()]

    def _make_state(self, deck: list[int] | None) -> GinRummyState:
        return GinRummyState(self.num_players, self.options, deck)

    def _view_extra(self, player: int | None) -> dict[str, JSONValue]:
        s = self._state
        upcard = s.upcard
        return {
            "upcard": card_str(upcard) if upcard is not None else None,
            "stock_size": s.stock_size,
            "discard": format_cards(s.discard()),
            "knock_card": s.knock_card,
            "melds": [[format_cards(meld_cards(m)) for m in s.melds(p)] for p in range(2)],
            "layoffs": format_cards(s.layoffs()),
            "known": [format_cards(s.known(p), sort=True) for p in range(2)],
            "knocked": s.knocked(),
            "passed_first_upcard": s.passed_first_upcard(),
            "upcard_draws": s.upcard_draws,
            # GR-9.1: the card taken face up this turn (everybody saw it) and big gin; a list,
            # so that a turn's end is no null (the server's merge patches cannot set one)
            "taken": [card_str(taken)] if (taken := s.taken) is not None else [],
            "big_gin": s.big_gin,
            # GR-11: the match (scores are its totals): the hand's number and hands won
            "match_to": self.options["match_to"],
            "hand_number": s.round_index + (0 if s.is_over else 1),
            "hands_won": s.hands_won(),
            # GR-5.1: the seat's own least deadwood (nobody else's)
            "deadwood": s.deadwood(player) if player is not None else None,
            # GR-8.1: the hands are laid down to be counted once the hand is over
            "final_hands": ([format_cards(s.hand(p), sort=True) for p in range(2)]
                            if s.is_over else None),
        }

    def _round_summary(self, state: GameState) -> dict[str, JSONValue]:
        return {"scores": list(state.scores())}

    @classmethod
    def deal_plan_of(cls, players: int, options: Mapping[str, Any], first: int) -> list[str]:
        """Seat 0's hand, seat 1's, the upcard, the stock (GR-2)."""
        return deal_plan(options["hand_size"])

    @classmethod
    def observation_pieces_of(cls, players: int, options: Mapping[str, Any]
                              ) -> Sequence[tuple[str, int, int]]:
        pieces: Sequence[tuple[str, int, int]] = observation_pieces()
        return pieces

    @classmethod
    def observation_variants_of(cls, players: int, options: Mapping[str, Any]
                                ) -> Mapping[str, tuple[int, int]]:
        """"openspiel": OpenSpiel's gin_rummy observation tensor, exactly: the
        ``openspiel_*`` pieces the observation begins with."""
        pieces = cls.observation_pieces_of(players, options)
        size = sum(n for name, _, n in pieces if name.startswith("openspiel_"))
        return {"openspiel": (0, size)}

    @classmethod
    def utility_range_of(cls, players: int, options: Mapping[str, Any]) -> tuple[float, float]:
        """GR-8.1: at most the dearest hand of ten and the (big) gin bonus; at worst that or
        the knock card and the undercut bonus. GR-11: a match's winner has at most the target
        less one and a hand's points, the game bonus and a box bonus per hand, doubled."""
        gin = max(options["gin_bonus"], options["big_gin_bonus"])
        top = float(MAX_HAND_VALUE + gin + options["undercut_bonus"])
        if options["match_to"]:
            top = 2 * (options["match_to"] - 1 + top + GAME_BONUS + BOX_BONUS * MAX_HANDS)
        return (-top, top)

    @classmethod
    def observation_bounds_of(cls, players: int, options: Mapping[str, Any]
                              ) -> Mapping[str, tuple[float, float]]:
        """Every piece is 0..1 (one-hots and card sets) but the scores (the returns; a
        match's totals, GR-11.2) and the match's counts of hands."""
        bounds = {name: (0.0, 1.0) for name, _, _ in observation_pieces()}
        bounds["scores"] = cls.utility_range_of(players, options)
        if options["match_to"]:
            bounds["scores"] = (0.0, bounds["scores"][1])
        bounds["hand_number"] = bounds["hands_won"] = (0.0, float(MAX_HANDS))
        return bounds

    @classmethod
    def max_game_length_of(cls, players: int, options: Mapping[str, Any]) -> int:
        """A bound on the actions of a game: a draw and a discard per turn, for the 49 upcard
        draws GR-8.2 allows and every card of the stock above the wall, and the first
        upcard's and the knock's actions (END_ACTIONS covers them); a match, GR-11.5's
        hands."""
        stock: int = NUM_CARDS - 2 * int(options["hand_size"]) - 1
        hands = MAX_HANDS if options["match_to"] else 1
        return hands * (2 * (MAX_UPCARD_DRAWS + stock) + END_ACTIONS)

    def table_lines(self, player: int) -> list[str]:
        """The public table as plain-text lines, for terminal front ends."""
        v = self.view(player)
        lines = [
            _("Upcard {card}   stock {stock}   knock card {knock}").format(
                card=v["upcard"] or "-", stock=v["stock_size"], knock=v["knock_card"]),
            _("Discard pile: {cards}").format(cards=" ".join(v["discard"]) or "-"),
        ]
        for p in range(2):
            if v["melds"][p]:
                lines.append(_("Melds ({name}): {melds}").format(
                    name=seat_name(player)(p), melds="  ".join(" ".join(m) for m in v["melds"][p])))
        if v["deadwood"] is not None:
            lines.append(_("Your deadwood: {points}").format(points=v["deadwood"]))
        if v["taken"]:
            lines.append(_("Taken from the discard pile this turn: {card}").format(
                card=v["taken"][0]))
        if v["match_to"]:
            lines.append(_("Hand {hand}   points {scores} (game to {target})").format(
                hand=v["hand_number"], scores="  ".join(str(c) for c in v["scores"]),
                target=v["match_to"]))
        elif v["phase"] == "over":
            lines.append(_("Points: {scores}").format(scores="  ".join(
                str(c) for c in v["scores"])))
        return lines
