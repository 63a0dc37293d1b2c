"""Kings' Stakes (``kings_stakes``): a shedding and bidding game for 2-6 players.

The rules are the rulebook games/kings_stakes.md (rule IDs KS-x.y). The game's files, here:

* ``_state.pyx`` — the state machine over the core framework: rule constants, the 320
  action ids (its docstring lists them), legality, apply, scoring, the per-seat projection;
* this module — the thin protocol class: options, action decoding, the view;
* ``events.py`` — the narrator (what each seat saw happen); ``words.py`` — its words;
* ``greedy.py`` — GreedyBot's heuristic (documented there; the core plays it, ``_state.pyx``);
  ``schema.py`` and ``schemas/`` — the JSON Schemas;
* ``web/`` — the web table's board and words.

Action notation (what ``str(action)`` gives and ``apply`` accepts):
``play 7H`` · ``play 7H 7S`` · ``play JK=9`` (a lone joker as 9) · ``play 5H JK=4H`` (the joker
as 4H) · ``play 5H JK=5`` (the joker as a 5) · ``play JK=5 JK=6`` · ``play KC KS KD KH`` ·
``take`` · ``refill`` · ``end_turn``.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from cardcore.cards import card_id, card_str, format_cards
from cardcore._fast import GameState
from cardcore.i18n import N_, _
from cardcore.game import (ActionSpec, Game, JSONValue, Option, ShortMatch, flag, one_of,
                           players_multiple, seat_or_lot)
from cardcore.games.kings_stakes._state import (
    OBSERVATION_PIECES, PHASES, KingsStakesState, action_table, deal_plan, kings_stakes_deck,
)
from cardcore.games.kings_stakes._state import (  # the action ids by name
    END_TURN, PLAY_FOUR_KINGS, PLAY_JOKER_FIRST, PLAY_PAIR_FIRST, PLAY_TWO_JOKERS_FIRST, PLAY_WITH_JOKER_FIRST, REFILL, TAKE,
)
from cardcore.games.kings_stakes.events import KingsStakesNarrator
from cardcore.games.kings_stakes.greedy import choose as greedy_choose
from cardcore.games.kings_stakes.schema import SCHEMA
from cardcore.games.kings_stakes import words
from cardcore.games.kings_stakes.words import PHRASES, REASONS
from cardcore.narrate import move_in_words, seat_name

__all__ = ["KingsStakes", "END_TURN", "PLAY_FOUR_KINGS", "PLAY_JOKER_FIRST", "PLAY_PAIR_FIRST",
    "PLAY_TWO_JOKERS_FIRST", "PLAY_WITH_JOKER_FIRST", "REFILL", "TAKE"]

# KS-9.4 Decision (bounds): at most 120 rounds, a multiple of every player count 2..6 (20
# full turns of the first player even with 6 players); the state machine counts in 32 bits.
MAX_ROUNDS = 120


def _describe(entry: tuple) -> ActionSpec:  # type: ignore[type-arg]
    kind, naturals, jokers, meaning, effect, amount = entry
    if kind != "play":
        return ActionSpec(kind, (), kind)
    if effect == "four_kings":
        naturals = tuple(card_id(f"K{suit}") for suit in "CSDH")
    words = [card_str(c) for c in naturals]
    jokers_as: list[JSONValue] = []
    for m in meaning:
        if m == "same":                               # the joker takes the other card's rank
            shown: JSONValue = card_str(naturals[0])[:-1]
        elif isinstance(m, int) and not naturals:     # a value named for a lone joker / two jokers
            shown = m
        else:                                         # the card the joker stands for
            shown = card_str(m)
        jokers_as.append(shown)
        words.append(f"JK={shown}")
    info: dict[str, JSONValue] = {"effect": effect}
    if effect == "number":
        info["amount"] = amount
    if jokers_as:
        info["jokers_as"] = jokers_as
    cards = tuple(card_str(c) for c in naturals) + ("JK",) * jokers
    return ActionSpec("play", cards, "play " + " ".join(words), info)


class KingsStakes(Game):
    """Kings' Stakes. Options: ``first_player`` (None = by lot), ``rounds`` (None = players),
    ``teams`` (4 players), ``refill`` ("auto"/"manual"), ``scoring`` ("rank"/"cards")."""

    _state: KingsStakesState

    name = "kings_stakes"
    title = "Kings' Stakes"
    rule_prefix = "KS"
    round_name = "round"
    # A match is a few short rounds whose penalties add up: searching to the end of the
    # match judges a move by what it costs there (measured: as strong as the round horizon
    # in 2-player matches, and a match rollout is cheap).
    search_horizon = "match"
    # The difficulty levels (make_bot("level:N")), calibrated by 2-player tournaments
    # (benchmarks/calibrate_levels.py, docs/bots.md): the greedy heuristic is a strong
    # middle, and search with greedy rollouts above it (measured: +138 Elo per step from 300
    # to 4,000 iterations; the game's own rollouts gain less per iteration).
    levels = {1: "random", 2: "greedy:epsilon=0.5", 3: "greedy",
              4: "ismcts:iterations=300,rollout=greedy",
              5: "ismcts:iterations=4000,rollout=greedy,think_ms=500"}
    # The review's default reference (cardcore.review; docs/bots.md, "Game review", has its
    # score against the levels): level 5's search, iteration-bound, at a playing bot's
    # exploration; the review runs it 5 times a decision and plays the most visited move.
    review_reference = "ismcts:iterations=4000,rollout=greedy,exploration=0.7"
    default_players = 4
    min_players = 2
    # Two players: one round per player; the generic full matches and the calibration.
    short_match = ShortMatch(2, {}, "2-player matches", 400)
    benchmark_targets = {"vector_steps_per_s": 8e6, "bots_ratio_0_2": 0.015, "bots_goal_factor": 10.0}
    max_players = 6
    phases = PHASES
    rulebook = "kings_stakes.md"
    score_direction = "lower is better (penalty points)"
    narrator = KingsStakesNarrator
    zone_labels = {"hand": N_("cards in hand"), "stock": N_("stock"), "table": N_("table"),
                   "discard": N_("discard pile"), "penalty": N_("penalty pile")}
    wild = ("JK",)                              # KS-2.3
    greedy = staticmethod(greedy_choose)
    schema_parts = SCHEMA
    phrases = PHRASES
    reasons = REASONS
    options_spec = {
        "first_player": Option(None, seat_or_lot("KS-3.2"),
                               "seat that starts round 1; None draws it by lot"),
        "rounds": Option(None, players_multiple(MAX_ROUNDS, "KS-9.4", N_("one per player")),
                         "rounds in the match, a multiple of the players; None: one per player",
                         resolve=lambda v, n: n if v is None else v,
                         saved=players_multiple(10**6, "KS-9.4", "one per player")),  # 0.3
        "teams": Option(False, flag("KS-9.5", players=(4,)), "partners sit opposite (4 players)"),
        "refill": Option("auto", one_of("auto", "manual", rule="KS-4.5, KS-7"),
                         doc="'auto': refill to 4 after a play; 'manual': refill or end the "
                             "turn, else the forget-me chip (KS-7)"),
        "scoring": Option("rank", one_of("rank", "cards", rule="KS-9.2, KS-9.6"),
                          doc="'rank': points by place in penalty cards (KS-9.2); 'cards': a "
                              "point per penalty card (KS-9.6)"),
    }
    conformance_configs = [
        {"players": 2}, {"players": 4}, {"players": 3, "scoring": "cards"},
        {"players": 4, "teams": True}, {"players": 6, "refill": "manual"},
    ]

    @classmethod
    def deck_for(cls, players: int, options: Mapping[str, Any]) -> list[int]:
        """The deck composition (card ids, id order) for this configuration."""
        return kings_stakes_deck(players)

    @classmethod
    def action_specs(cls, players: int, options: Mapping[str, Any]) -> Sequence[ActionSpec]:
        """The decode table: the meaning of every action id (pinned by golden tests)."""
        return [_describe(entry) for entry in action_table()]

    def _make_state(self, deck: list[int] | None) -> KingsStakesState:
        return KingsStakesState(self.num_players, self.options, deck)

    def _action_detail(self, action_id: int, spec: ActionSpec, player: int
                       ) -> tuple[tuple[str, ...], Mapping[str, JSONValue]] | None:
        """``take`` names the table it takes (KS-6.2)."""
        if spec.kind == "take":
            return tuple(format_cards(self._state.table())), {}
        return None

    def _label(self, action_id: int) -> str:
        return self._specs[action_id].label

    def _view_extra(self, player: int | None) -> dict[str, JSONValue]:
        s = self._state
        last = s.last_play
        return {
            "table": format_cards(s.table()),
            "stake": s.stake,
            "direction": s.direction,
            "penalty_counts": s.penalty_counts(),
            "stock_size": s.stock_size,
            "discard": format_cards(s.discard()),
            "chip_holder": s.chip_holder,
            "round": s.round_index + (0 if s.is_over else 1),
            "rounds": self.options["rounds"],
            "round_first_player": s.round_first_player,
            "out_player": s.out_player,
            "final_turns_owed": s.final_turns_owed,
            "last_play": None if last is None else {"player": last[0], "action": self._label(last[1])},
            "teams": [[0, 2], [1, 3]] if self.options["teams"] else None,
        }

    def _round_summary(self, state: GameState) -> dict[str, JSONValue]:
        s: KingsStakesState = state  # type: ignore[assignment]
        return {"round_scores": s.last_round_scores(), "scores": list(s.scores())}

    @classmethod
    def sides_of(cls, players: int, options: Mapping[str, Any]) -> list[int]:
        """Partners sit opposite with ``teams`` (KS-9.5): seats p and p + 2."""
        return [p % 2 for p in range(players)] if options["teams"] else list(range(players))

    @classmethod
    def deal_plan_of(cls, players: int, options: Mapping[str, Any], first: int) -> list[str]:
        return deal_plan(players, first)

    @classmethod
    def observation_pieces_of(cls, players: int, options: Mapping[str, Any]
                              ) -> Sequence[tuple[str, int, int]]:
        return OBSERVATION_PIECES

    @classmethod
    def utility_range_of(cls, players: int, options: Mapping[str, Any]) -> tuple[float, float]:
        """Returns are minus penalty points. A round costs a player at most ``players``
        points when ranked (KS-9.2, KS-9.3) or one per card of the deck (KS-9.6), the chip
        one more (KS-7.3), and a team adds its two players (KS-9.5)."""
        per_round = len(kings_stakes_deck(players)) if options["scoring"] == "cards" else players
        worst = per_round * options["rounds"] + 1
        return (-float(worst * (2 if options["teams"] else 1)), 0.0)

    @classmethod
    def observation_bounds_of(cls, players: int, options: Mapping[str, Any]
                              ) -> Mapping[str, tuple[float, float]]:
        """Per piece (rulebook, "Observation"): one-hots 0..1; card counts up to the deck's
        copies of an id; sizes and penalty cards up to the deck; scores up to the worst
        return. The stake: a number play is at most 22 (two jokers, KS-4.4) and doubles only
        when equal (KS-4.3), so at most 44 before the specials, which only add: a jack 1
        (KS-5.1) or a queen-jack 10 (KS-5.6), each jack or joker spent once a round."""
        deck = kings_stakes_deck(players)
        copies = float(max(deck.count(c) for c in set(deck)))
        jacks = sum(1 for c in deck if c == 52 or (c < 52 and c % 13 == 10))
        one_hot = (0.0, 1.0)
        bounds = {piece: one_hot for piece in (
            "observer", "current_player", "phase", "chip_holder", "round_first_player",
            "out_player", "final_turns_owed", "last_play_player", "last_play_action", "teams")}
        worst = -cls.utility_range_of(players, options)[0]
        bounds.update({
            "hand": (0.0, copies), "table": (0.0, copies), "discard": (0.0, copies),
            "penalty_counts": (0.0, float(len(deck))), "hand_sizes": (0.0, float(len(deck))),
            "stock_size": (0.0, float(len(deck))), "scores": (0.0, worst),
            "stake": (0.0, 44.0 + 10.0 * jacks), "direction": (-1.0, 1.0),
            "round": (1.0, float(options["rounds"])),
            "rounds": (float(options["rounds"]), float(options["rounds"]))})
        return bounds

    @classmethod
    def max_game_length_of(cls, players: int, options: Mapping[str, Any]) -> int:
        """Every play sheds at least one card and hands only fill from the stock, so a round
        has at most one play per card of the deck; a take needs a play before it (KS-6.1) and
        refill/end_turn follow a play (KS-7.1): at most three actions per card per round."""
        rounds: int = options["rounds"]
        return 3 * len(kings_stakes_deck(players)) * rounds

    def table_lines(self, player: int) -> list[str]:
        """The public table as plain-text lines, for terminal front ends."""
        v = self.view(player)
        arrow = _("→ clockwise") if v["direction"] == 1 else _("← counter-clockwise")
        who = seat_name(player)              # "you", "player 3": counted from 1
        seat = _("{name}: {value}")
        lines = [
            _("Round {round}/{rounds}   stake {stake}   {arrow}   stock {stock}").format(
                round=v["round"], rounds=v["rounds"], stake=v["stake"], arrow=arrow,
                stock=v["stock_size"]),
            _("Table: {cards}").format(cards=" ".join(v["table"]) or _("(empty)")),
            _("Penalty cards: {counts}").format(counts="  ".join(
                seat.format(name=who(p), value=c) for p, c in enumerate(v["penalty_counts"]))),
            _("Scores: {scores}").format(scores="  ".join(
                seat.format(name=who(p), value=c) for p, c in enumerate(v["scores"]))),
        ]
        if v["last_play"]:                  # the move in the reader's words, by whom
            lines.append(_("Last move: {who}: {move}").format(
                who=who(v["last_play"]["player"]),
                move=move_in_words(v["last_play"]["action"], words)))
        if v["chip_holder"] is not None:
            lines.append(_("Forget-me chip: {name}").format(name=who(v["chip_holder"])))
        if v["out_player"] is not None:
            owed = v["final_turns_owed"]            # the seats still to play their final turn
            lines.append(_("Out of cards: {name}; final turns still to play: {names}").format(
                name=who(v["out_player"]), names=", ".join(who(p) for p in owed) or _("none")))
        return lines
