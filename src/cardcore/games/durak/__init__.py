"""Durak (``durak``, «Дурак»): podkidnoy durak for 2-6 players, the card game most played in
Russia; transfer (perevodnoy), the first-bout limit and partners are options.

The rules are the rulebook games/durak.md (rule IDs DU-x.y). The game's files, here:

* ``kernel.c`` / ``kernel.h`` — the rules in C99 over the core (cardcore/core/kernel.h): rule
  constants, the 158 action ids (listed at the top of both), legality, apply, the result, the
  per-seat projection, the zones, sample_hidden, GreedyBot's policy and the options as the C
  ABI sees them; the same C builds the extension, the native library and WebAssembly;
* ``_state.pyx`` — the Python extension over that C: the state class and its getters;
* this module — the thin protocol class: options, action decoding, the view;
* ``events.py`` — the narrator (what each seat saw happen); ``words.py`` — its words;
* ``greedy.py`` — GreedyBot's heuristic (documented there; the core plays it);
  ``schema.py`` and ``schemas/`` — the JSON Schemas;
* ``web/`` — the web table's board and words.

Action notation (what ``str(action)`` gives and ``apply`` accepts): ``attack 7H`` (lead or
throw in; ``attack 7C 7H`` with ``attack_many``) · ``beat 9H`` (beat the first uncovered attacking card) · ``transfer 7S`` ·
``take`` · ``pass``.
"""
from __future__ import annotations

from typing import Any, Callable, Mapping, Sequence

from cardcore._fast import GameState
from cardcore.cards import card_id, card_str, format_cards
from cardcore.game import (
    ActionSpec, Game, JSONValue, Option, flag, int_between, one_of, seat_or_lot,
)
from cardcore.i18n import N_, _
from cardcore.narrate import seat_name, slots_text
from cardcore.games.durak._state import (
    MAX_HANDS, OBSERVATION_PIECES, PHASES, DurakState, action_table, card_power, deal_plan,
    durak_deck,
)
from cardcore.games.durak._state import (  # the action ids by name
    ATTACK_FIRST, BEAT_FIRST, MANY_FIRST, PASS, TAKE, TRANSFER_FIRST,
)
from cardcore.games.durak.events import DurakNarrator
from cardcore.games.durak.greedy import choose as greedy_choose
from cardcore.games.durak.schema import SCHEMA
from cardcore.games.durak.words import PHRASES, REASONS, SUIT_NAMES

__all__ = ["Durak", "ATTACK_FIRST", "BEAT_FIRST", "MANY_FIRST", "PASS", "TAKE", "TRANSFER_FIRST"]

# The suits' signs, for the terminal's trump line (the words are SUIT_NAMES').
SUIT_SIGNS = {"C": "♣", "S": "♠", "D": "♦", "H": "♥"}

# DU-8.4: a match that reaches this many bouts is drawn (the kernel's MAX_BOUTS).
MAX_BOUTS = 200


def card_suit_of(card: int) -> int:
    """The suit index of a card id (cardcore's ids: suit * 13 + rank)."""
    return card // 13


def _describe(entry: tuple[str, tuple[int, ...]]) -> ActionSpec:
    kind, cards = entry
    names = tuple(card_str(c) for c in cards)
    return ActionSpec(kind, names, " ".join((kind, *names)))


class Durak(Game):
    """Durak. Options: ``dealer`` (None = by lot), ``first_attacker`` ("lowest_trump" /
    "random"), ``transfer`` (perevodnoy), ``first_bout_five`` (the first bout's limit of 5),
    ``partners`` (4 or 6 players, sides alternate), ``hands`` (the match's hands, 1),
    ``attack_many`` (several cards of one rank at once)."""

    _state: DurakState

    name = "durak"
    title = "Durak"
    rule_prefix = "DU"
    # A match is `hands` hands (DU-12), one by default: each hand's durak scores a fool.
    round_name = "hand"
    search_horizon = "match"
    # The difficulty levels (make_bot("level:N")), calibrated by 2-player tournaments
    # (benchmarks/calibrate_levels.py's method; games/durak.md, "Bots", has the figures):
    # the greedy heuristic is about 300 Elo above random, and search with greedy rollouts
    # gains fast, then flattens (300 iterations were no weaker than 2,000 at 500 ms); level 5
    # plays the two-player endgame exactly where its solver proves a win within 100,000
    # positions (kernel.c, du_solve).
    levels = {1: "random", 2: "greedy", 3: "ismcts:iterations=3,rollout=greedy",
              4: "ismcts:iterations=25,rollout=greedy",
              5: "ismcts:iterations=1000,rollout=greedy,think_ms=500,solver=100000"}
    # The review's default reference (cardcore.review; docs/bots.md, "Game review", has its
    # score against the levels): level 5's search with 5 times its iterations at its playing
    # exploration picks the move; the same search at the review's exploration 3 estimates
    # every move. Exploration 3 alone lost to level 5 (0.35 in 70 games): spread that wide,
    # each move's estimate reflects weak play after it; 0.7 alone left the planted blunders'
    # estimates too few playouts to flag them.
    review_reference = "ismcts:iterations=5000,rollout=greedy,exploration=0.7,solver=100000"
    review_exploration = 3.0
    default_players = 2
    min_players = 2
    max_players = 6
    phases = PHASES
    rulebook = "durak.md"
    score_direction = "lower is better (1 marks the durak)"
    narrator = DurakNarrator
    zone_labels = {"hand": N_("cards in hand"), "stock": N_("stock"), "table": N_("table"),
                   "discard": N_("discard pile")}
    zone_layouts = {"table": "pairs"}        # the bout: each attacking card and its beat
    shown_deal_entries = ("trump",)          # DU-2.3: the last card is turned face up
    greedy = staticmethod(greedy_choose)
    schema_parts = SCHEMA
    phrases = PHRASES
    reasons = REASONS
    options_spec = {
        "dealer": Option(None, seat_or_lot("DU-2.1"), "the dealer's seat; None draws it by lot"),
        "first_attacker": Option("lowest_trump", one_of("lowest_trump", "random",
                                                        rule="DU-3.1, DU-3.2"),
                                 "who attacks first: the lowest trump in hand, or by lot"),
        "transfer": Option(False, flag("DU-9"),
                           "perevodnoy: the defender may pass the attack on with a card of "
                           "its rank"),
        "first_bout_five": Option(False, flag("DU-4.6"),
                                  "at most 5 attacking cards in the first bout"),
        "partners": Option(False, flag("DU-10", players=(4, 6)),
                           "partners sit alternately (4 or 6 players); a side loses together"),
        "hands": Option(1, int_between(1, MAX_HANDS, "DU-12.1"),
                        "the hands of the match; each hand's durak scores a fool"),
        "attack_many": Option(False, flag("DU-13.1"),
                              "lead or throw in several cards of one rank at once"),
    }
    conformance_configs = [
        {}, {"players": 3}, {"players": 6},
        {"players": 4, "partners": True, "transfer": True},
        {"players": 6, "partners": True, "first_attacker": "random"},
        {"players": 3, "transfer": True, "first_bout_five": True, "dealer": 1},
        {"players": 5, "first_attacker": "random", "first_bout_five": True},
        {"players": 3, "hands": 3},
        {"players": 3, "attack_many": True, "transfer": True},
    ]

    @classmethod
    def deck_for(cls, players: int, options: Mapping[str, Any]) -> list[int]:
        """DU-1.1: the 36-card deck (card ids, id order)."""
        return durak_deck()

    @classmethod
    def action_specs(cls, players: int, options: Mapping[str, Any]) -> Sequence[ActionSpec]:
        """The decode table: 158 ids, and with ``attack_many`` the 99 several-card attacks
        after them (DU-13.1)."""
        return [_describe(entry) for entry in action_table(bool(options["attack_many"]))]

    def _make_state(self, deck: list[int] | None) -> DurakState:
        return DurakState(self.num_players, self.options, deck)

    def _action_detail(self, action_id: int, spec: ActionSpec, player: int
                       ) -> tuple[tuple[str, ...], Mapping[str, JSONValue]] | None:
        """``take`` names the table it will take (DU-6.2)."""
        if spec.kind == "take":
            return tuple(format_cards(self._state.table())), {}
        return None

    def _view_extra(self, player: int | None) -> dict[str, JSONValue]:
        s = self._state
        return {
            "trump_suit": s.trump_suit,
            "trump_card": card_str(s.trump_card),
            "stock_size": s.stock_size,
            "dealer": s.dealer,
            "attacker": s.attacker,
            "defender": s.defender,
            "bout": [[card_str(a), None if b is None else card_str(b)] for a, b in s.bout()],
            "bout_limit": s.bout_limit,
            "taking": s.taking,
            "bouts": s.bouts,
            "discard_size": len(s.discard()),
            "shown_trump": None if s.shown_trump is None else card_str(s.shown_trump),
            "known_cards": [format_cards(s.known(p), sort=True)
                            for p in range(self.num_players)],
            "out": s.out_seats(),
            "sides": self.sides_of(self.num_players, self.options),
            "durak": s.loser,
            "hand_number": s.round_index + (0 if s.is_over else 1),
            "hands": s.hands,
            "fools": list(s.scores()),
        }

    def _round_summary(self, state: GameState) -> dict[str, JSONValue]:
        """DU-12.3: the fool's count after the hand."""
        return {"scores": list(state.scores())}

    def _zone_slots(self, state: GameState, name: str, instance: int
                    ) -> Sequence[tuple[int, int | None]]:
        """The table's slots: the bout's attacking cards and their beats (DU-5)."""
        assert isinstance(state, DurakState)
        return state.bout()

    @classmethod
    def sides_of(cls, players: int, options: Mapping[str, Any]) -> list[int]:
        """DU-10.1: with ``partners`` the sides alternate, [0, 1, 0, 1, ...]."""
        return [p % 2 for p in range(players)] if options["partners"] else list(range(players))

    @classmethod
    def deal_plan_of(cls, players: int, options: Mapping[str, Any], first: int) -> list[str]:
        """``first`` is the dealer; the seat after it gets the first card (DU-2.2)."""
        return deal_plan(players, first)

    def hidden_deck_positions(self, seat: int) -> list[int]:
        """Deck positions (top first) whose cards ``seat`` could not see after the deal. With
        ``first_attacker="lowest_trump"`` the deal itself tells everybody who holds the lowest
        trump (DU-3.1), so a stacked deck's trumps are left out: swapping one of them may
        change the first attacker."""
        hidden = super().hidden_deck_positions(seat)
        deck = self._deck_input
        if deck is None or self.options["first_attacker"] != "lowest_trump":
            return hidden
        trump = card_suit_of(deck[-1])
        return [i for i in hidden if card_suit_of(deck[i]) != trump]

    @classmethod
    def observation_pieces_of(cls, players: int, options: Mapping[str, Any]
                              ) -> Sequence[tuple[str, int, int]]:
        return OBSERVATION_PIECES

    @classmethod
    def utility_range_of(cls, players: int, options: Mapping[str, Any]) -> tuple[float, float]:
        """Returns are minus the fool's count (DU-12.3): -1 for each hand's durak (its side
        with partners), 0 for everybody else."""
        return (-float(options["hands"]), 0.0)

    @classmethod
    def observation_bounds_of(cls, players: int, options: Mapping[str, Any]
                              ) -> Mapping[str, tuple[float, float]]:
        """Per piece (rulebook, "Observation"): cards and one-hots 0..1; sizes up to the
        deck; bouts up to the DU-8.4 cap; the bout limit 5 or 6; scores (the fool's count,
        DU-12.3) 0..hands."""
        bounds = {piece: (0.0, 1.0) for piece, _, _ in OBSERVATION_PIECES}
        bounds.update({"hand_sizes": (0.0, 36.0), "stock_size": (0.0, 36.0),
                       "bouts": (0.0, float(MAX_BOUTS)), "bout_limit": (5.0, 6.0),
                       "scores": (0.0, float(options["hands"]))})
        return bounds

    @classmethod
    def max_game_length_of(cls, players: int, options: Mapping[str, Any]) -> int:
        """A bout puts at most 12 cards on the table (6 attacking, 6 beating; a transfer is
        an attacking card), and between two of them, or after the last, each thrower passes
        at most once, plus one take: (13 * players + 13) actions; a hand has at most
        MAX_BOUTS bouts (DU-8.4), a match ``hands`` hands (DU-12.1)."""
        return int(options["hands"]) * MAX_BOUTS * (13 * players + 13)

    def hand_order_key(self, player: int) -> Callable[[str], Any] | None:
        """DU-1.3, DU-4.3: six to ace, the trumps last (the highest), then by suit."""
        trump = self._state.trump_suit
        return lambda card: (card[-1] == trump, card_power(card_id(card)), "CSDH".index(card[-1]))

    def table_lines(self, player: int) -> list[str]:
        """The public table as plain-text lines, for terminal front ends: seats named as the
        events name them ("you", "player 2"), the trump suit by its sign and name."""
        v = self.view(player)
        who = seat_name(player)
        suit = v["trump_suit"]
        lines = [_("Trumps: {suit} ({card})   stock {stock}   discard {discard}").format(
            suit=f"{SUIT_SIGNS[suit]} {_(SUIT_NAMES[suit])}", card=v["trump_card"],
            stock=v["stock_size"], discard=v["discard_size"])]
        attacker, defender = v["attacker"], v["defender"]
        if attacker is not None:
            # no case forms of a name: "Ходит Игрок 1, отбиваетесь вы"
            line = (_("You attack; {defender} defends") if attacker == player else
                    _("{attacker} attacks; you defend") if defender == player else
                    _("{attacker} attacks; {defender} defends"))
            lines.append(line.format(attacker=who(attacker), defender=who(defender)))
        lines.append(_("Table: {cards}").format(
            cards=slots_text(v["slots"]["table"]) or _("(empty)")))
        if v["taking"]:
            lines.append(_("You take; the others may throw in") if defender == player else
                         _("{defender} takes; the others may throw in").format(
                             defender=who(defender)))
        lines.append(_("Hand sizes: {sizes}").format(sizes="  ".join(
            f"{who(p)}: {n}" for p, n in enumerate(v["hand_sizes"]))))
        return lines
