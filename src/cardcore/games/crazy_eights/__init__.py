"""Crazy Eights (``crazy_eights``), exactly as OpenSpiel's ``crazy_eights`` plays it.

The rules are the rulebook games/crazy_eights.md (rule IDs CE-x.y). The game's files, here:

* ``kernel.c`` / ``kernel.h`` — the rules in C99 over the core (cardcore/core/kernel.h): rule
  constants, the 58 action ids (OpenSpiel's; listed at the top of both), legality, apply,
  scoring, the per-seat projection, the zones, sample_hidden, GreedyBot's policy and the
  options as the C ABI sees them; the same C builds the extension, the native library and
  WebAssembly;
* ``_state.pyx`` — the Python extension over that C: the state class and its getters;
* this module — the thin protocol class: options, action decoding, the view;
* ``events.py`` — the narrator (what each seat saw happen); ``words.py`` — its words;
* ``greedy.py`` — GreedyBot's heuristic (documented there; the core plays it, ``kernel.c``);
  ``schema.py`` and ``schemas/`` — the JSON Schemas;
* ``web/`` — the web table's board and words.

Action notation (what ``str(action)`` gives and ``apply`` accepts): ``play 7H`` · ``draw`` ·
``pass`` · ``nominate H``.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from cardcore._fast import GameState, rank_of
from cardcore.cards import card_str, format_cards
from cardcore.i18n import N_, _
from cardcore.narrate import seat_name
from cardcore.game import (
    ActionSpec, Game, JSONValue, Option, ShortMatch, flag, int_between, one_of, seat_or_lot,
)
from cardcore.games.crazy_eights._state import (
    MAX_DRAW_CARDS_LIMIT, MAX_TURNS_LIMIT, PHASES, WILD_RANK, CrazyEightsState, action_table,
    cards_per_hand, crazy_eights_deck, deal_plan, observation_pieces, penalty_points,
)
from cardcore.games.crazy_eights._state import (  # the action ids by name
    DRAW, NOMINATE_FIRST, PASS, PLAY_FIRST,
)
from cardcore.games.crazy_eights.events import CrazyEightsNarrator
from cardcore.games.crazy_eights.greedy import choose as greedy_choose
from cardcore.games.crazy_eights.schema import SCHEMA
from cardcore.games.crazy_eights.words import PHRASES, REASONS

__all__ = ["CrazyEights", "DRAW", "NOMINATE_FIRST", "PASS", "PLAY_FIRST"]


def _describe(entry: tuple[str, int | None, str | None]) -> ActionSpec:
    kind, card, suit = entry
    if kind == "play":
        assert card is not None
        return ActionSpec("play", (card_str(card),), f"play {card_str(card)}")
    if kind == "nominate":
        return ActionSpec("nominate", (), f"nominate {suit}", {"suit": suit})
    return ActionSpec(kind, (), kind)


# CE-5.1, CE-7.2 Decisions (bounds a table accepts): at most 104 draws in a turn (the two-deck
# stock: more changes nothing) and 10,000 cards played (a hand ends long before).
MAX_DRAW_CARDS = 104
MAX_TURNS = 10_000

class CrazyEights(Game):
    """Crazy Eights. Options (OpenSpiel's names and defaults): ``max_draw_cards`` (5),
    ``max_turns`` (100), ``use_special_cards`` (False), ``reshuffle`` (False); cardcore's:
    ``dealer`` (None = by lot) and ``scoring`` ("face" / "openspiel")."""

    _state: CrazyEightsState

    name = "crazy_eights"
    title = "Crazy Eights"
    rule_prefix = "CE"
    # A match is one hand (CE-7): players call it a hand, and its end is "hand_end".
    round_name = "hand"
    # The end of the hand is the end of the match, so both horizons stop at the same place;
    # "match" says what a search credits: the game's win, on the final penalties (CE-8.3).
    search_horizon = "match"
    # The difficulty levels (make_bot("level:N")), calibrated by 2-player tournaments
    # (benchmarks/calibrate_levels.py, docs/bots.md). A hand leaves little room between a
    # random and a greedy player (about 330 Elo), so three levels share it, and search with
    # greedy rollouts is the top.
    levels = {1: "random", 2: "greedy:epsilon=0.65", 3: "greedy:epsilon=0.35", 4: "greedy",
              5: "ismcts:iterations=3000,rollout=greedy,think_ms=500"}
    # The review's default reference (cardcore.review; docs/bots.md, "Game review", has its
    # score against the levels): level 5's search, iteration-bound, at the review's wide
    # exploration (a playing bot's 0.7 measured no stronger on the same deals, and it flags
    # less steadily); the review runs it 5 times a decision, the most visited move played.
    review_reference = "ismcts:iterations=3000,rollout=greedy,exploration=3.0"
    default_players = 5
    min_players = 2
    # One hand (CE-7) of two: the generic full matches and the level calibration.
    short_match = ShortMatch(2, {}, "2-player hands", 400)
    max_players = 15
    phases = PHASES
    rulebook = "crazy_eights.md"
    score_direction = "lower is better (penalty points)"
    narrator = CrazyEightsNarrator
    zone_labels = {"hand": N_("cards in hand"), "stock": N_("stock"), "discard": N_("discard pile")}
    wild = ("8C", "8S", "8D", "8H")             # CE-3.1: an eight may be played on anything
    shown_deal_entries = ("reburied",)          # CE-2.4: turned up, then back in the stock
    greedy = staticmethod(greedy_choose)
    schema_parts = SCHEMA
    phrases = PHRASES
    reasons = REASONS
    options_spec = {
        "dealer": Option(None, seat_or_lot("CE-2.1"), "the dealer's seat; None draws it by lot"),
        # ``saved``: the core's limits, the bounds of 0.3 (its saves load by them).
        "max_draw_cards": Option(5, int_between(1, MAX_DRAW_CARDS, "CE-5.1"),
                                 "cards a player may draw in one turn",
                                 saved=int_between(1, MAX_DRAW_CARDS_LIMIT, "CE-5.1")),
        "max_turns": Option(100, int_between(1, MAX_TURNS, "CE-7.2"),
                            "cards played before the game ends",
                            saved=int_between(1, MAX_TURNS_LIMIT, "CE-7.2")),
        "use_special_cards": Option(False, flag("CE-4"),
                                    "Q skips, A reverses, 2 makes the next player draw two"),
        "reshuffle": Option(False, flag("CE-6.1"),
                            "an empty stock is refilled from the discard pile"),
        "scoring": Option("face", one_of("face", "openspiel", rule="CE-8.1, CE-8.2"),
                          "penalties by card value, or OpenSpiel's own arithmetic"),
    }
    conformance_configs = [
        {},
        {"players": 2},
        {"players": 3, "use_special_cards": True},
        {"players": 6, "reshuffle": True},
        {"players": 15, "use_special_cards": True, "reshuffle": True, "scoring": "openspiel"},
        {"players": 4, "max_draw_cards": 1, "max_turns": 12, "dealer": 2},
        {"players": 3, "use_special_cards": True, "reshuffle": True, "max_draw_cards": 2},
    ]

    @classmethod
    def deck_for(cls, players: int, options: Mapping[str, Any]) -> list[int]:
        """The deck composition (card ids, id order) for this configuration."""
        return crazy_eights_deck(players)

    @classmethod
    def action_specs(cls, players: int, options: Mapping[str, Any]) -> Sequence[ActionSpec]:
        """The decode table: OpenSpiel's 58 ids in every configuration."""
        return [_describe(entry) for entry in action_table()]

    def _make_state(self, deck: list[int] | None) -> CrazyEightsState:
        return CrazyEightsState(self.num_players, self.options, deck)

    def _view_extra(self, player: int | None) -> dict[str, JSONValue]:
        s = self._state
        return {
            "top_card": card_str(s.top_card),
            "suit": s.suit,
            "direction": s.direction,
            "dealer": s.dealer,
            "stock_size": s.stock_size,
            "discard": format_cards(s.discard()),
            "draws_this_turn": s.draws_this_turn,
            "max_draw_cards": self.options["max_draw_cards"],
            "draw_two_owed": s.draw_two_owed,
            "passes": s.passes,
            "plays": s.plays,
            "max_turns": self.options["max_turns"],
            "reburied": format_cards(s.reburied()),
            "stock_bottom_known": format_cards(s.stock_bottom_known()),
            "known_eights": [format_cards(s.known_eights(p)) for p in range(self.num_players)],
            # CE-8.3: the hands are laid down to be counted once the hand is over
            "final_hands": ([format_cards(s.hand(p), sort=True) for p in range(self.num_players)]
                            if s.is_over else None),
        }

    def _round_summary(self, state: GameState) -> dict[str, JSONValue]:
        return {"scores": list(state.scores())}

    @classmethod
    def deal_plan_of(cls, players: int, options: Mapping[str, Any], first: int) -> list[str]:
        """``first`` is the dealer; the seat after it gets the first card (CE-2.2)."""
        return deal_plan(players, first)

    def hidden_deck_positions(self, seat: int) -> list[int]:
        """Deck positions (top first) whose cards ``seat`` could not see after the deal. With
        a stacked deck the turned-up eights (CE-2.4) are seen; without one, only positions
        hidden whatever the deck: other hands and the stock below every card that could be
        turned up (one more per eight in the deck)."""
        seat = self._seat(seat)
        deck = self._deck_input
        plan = deal_plan(self.num_players, self._state.dealer, deck)
        hidden = [i for i, zone in enumerate(plan) if not self._zone_visible(zone, seat)]
        if deck is None:
            eights = sum(1 for c in crazy_eights_deck(self.num_players) if rank_of(c) == WILD_RANK)
            turn_up = plan.index("discard")
            hidden = [i for i in hidden if not turn_up < i <= turn_up + eights]
        return hidden

    @classmethod
    def observation_pieces_of(cls, players: int, options: Mapping[str, Any]
                              ) -> Sequence[tuple[str, int, int]]:
        pieces: Sequence[tuple[str, int, int]] = observation_pieces(
            players, options["use_special_cards"])
        return pieces

    @classmethod
    def observation_variants_of(cls, players: int, options: Mapping[str, Any]
                                ) -> Mapping[str, tuple[int, int]]:
        """"openspiel": OpenSpiel's crazy_eights observation tensor, exactly: the
        ``openspiel_*`` pieces the observation begins with."""
        pieces = cls.observation_pieces_of(players, options)
        size = sum(n for name, _, n in pieces if name.startswith("openspiel_"))
        return {"openspiel": (0, size)}

    @classmethod
    def utility_range_of(cls, players: int, options: Mapping[str, Any]) -> tuple[float, float]:
        """Returns are minus penalty points (CE-8.3): at worst a hand holds every card of
        the deck (the deck's penalty under the scoring in use); the seat that goes out has 0."""
        worst = penalty_points(crazy_eights_deck(players), options["scoring"])
        return (-float(worst), 0.0)

    @classmethod
    def observation_bounds_of(cls, players: int, options: Mapping[str, Any]
                              ) -> Mapping[str, tuple[float, float]]:
        """Per piece (rulebook, "Observation"): one-hots 0..1; copies per card up to the
        decks; the stock up to the deck; a draw-two debt grows by 2 per two played in a row
        (CE-4.3), each two at most once in a chain; players + 1 passes end the game (CE-7.3);
        max_turns bounds the plays (CE-7.2); scores up to the worst return."""
        deck = crazy_eights_deck(players)
        decks = float(max(deck.count(c) for c in set(deck)))
        twos = sum(1 for c in deck if rank_of(c) == 1)
        one_hot = (0.0, 1.0)
        bounds = {piece: one_hot for piece in (
            "openspiel_hand", "openspiel_last_card", "openspiel_last_suit",
            "openspiel_hand_sizes", "openspiel_direction", "observer", "current_player",
            "phase", "dealer")}
        draws, turns = float(options["max_draw_cards"]), float(options["max_turns"])
        bounds.update({
            "direction": (-1.0, 1.0), "stock_size": (0.0, float(len(deck))),
            "discard": (0.0, decks), "draws_this_turn": (0.0, draws),
            "max_draw_cards": (draws, draws), "draw_two_owed": (0.0, 2.0 * twos),
            "passes": (0.0, float(players + 1)), "plays": (0.0, turns),
            "max_turns": (turns, turns), "reburied": (0.0, decks),
            "stock_bottom_known": (0.0, decks), "known_eights": (0.0, decks),
            "scores": (0.0, -cls.utility_range_of(players, options)[0])})
        return bounds

    @classmethod
    def max_game_length_of(cls, players: int, options: Mapping[str, Any]) -> int:
        """A bound on the actions of a game. T = max_turns bounds the plays (CE-7.2) and
        the nominations (one per eight played). Every draw action takes at least one card
        from the stock, and the stock only ever holds the S cards left after the turn-up
        plus, with reshuffle, cards that reached the discard pile: the turn-up and the
        plays (CE-6.1); so draws D <= S (+ 1 + T with reshuffle). A pass while the stock has
        cards needs max_draw_cards >= 1 draws before it (CE-5.2), so there are at most D of
        them. Every other pass finds the stock empty, and players + 1 of those in a row end
        the game (CE-7.3): at most ``players`` between two of the X = 2T + 2D actions above,
        and one more. Total <= X + players * (X + 1) + 1 = (players + 1) * (X + 1)."""
        deck = len(crazy_eights_deck(players))
        hand = cards_per_hand(players)
        turns: int = options["max_turns"]
        draws = deck - players * hand - 1 + ((1 + turns) if options["reshuffle"] else 0)
        return (players + 1) * (2 * turns + 2 * draws + 1)

    def table_lines(self, player: int) -> list[str]:
        """The public table as plain-text lines, for terminal front ends."""
        v = self.view(player)
        arrow = _("→ up the seats") if v["direction"] == 1 else _("← down the seats")
        who = seat_name(player)              # "you", "player 3": counted from 1
        seat = _("{name}: {value}")
        lines = [
            _("Top card {card}   suit to follow {suit}   {arrow}   stock {stock}").format(
                card=v["top_card"], suit=v["suit"], arrow=arrow, stock=v["stock_size"]),
            _("Plays {plays}/{max_turns}   draws this turn {draws}/{max_draws}").format(
                plays=v["plays"], max_turns=v["max_turns"], draws=v["draws_this_turn"],
                max_draws=v["max_draw_cards"]),
            _("Hand sizes: {sizes}").format(sizes="  ".join(
                seat.format(name=who(p), value=n) for p, n in enumerate(v["hand_sizes"]))),
        ]
        if v["draw_two_owed"]:
            lines.append(_("Cards owed by {name}: {count}").format(
                name=who(v["current_player"]), count=v["draw_two_owed"]))
        if v["passes"]:
            lines.append(_("Passes with the stock empty: {count}").format(count=v["passes"]))
        if v["phase"] == "over":
            lines.append(_("Penalties: {scores}").format(scores="  ".join(
                seat.format(name=who(p), value=c) for p, c in enumerate(v["scores"]))))
        return lines
