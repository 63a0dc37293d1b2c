"""Manna from Heaven (``manna``): the six-player, four-deck Pennies from Heaven canasta.

The rules are games/manna.md (rule IDs MH-x.y); the state machine is the C kernel
``kernel.c``, wrapped by ``_state.pyx`` (its docstring lists the 909 action ids and the game's
other modules: meld table, minimum search, test setters). This module is the thin protocol
wrapper: options, action decoding, the view (MH-11).

Action notation (what ``str(action)`` gives and ``apply`` accepts):
``draw`` · ``take add`` · ``take pair`` · ``take natural+two`` · ``take natural+joker`` ·
``retract`` · ``discard 7H`` · ``out 9C`` (discard the last card and go out) ·
``meld K K K 2`` (a new meld: its cards by rank, ``2`` per two, ``JK`` per joker) ·
``add to K: K JK`` (an addition to the team's unfinished K meld) · ``meld 2 2 JK`` (a new wild
meld) · ``add to wild: JK`` · ``meld 3 3 3 3`` (black threes). The 0.1 compact forms
(``new K n=3 two=1 jk=0``, ``add wild two=0 jk=1``, ``new black3 n=4``) are still accepted.

Which cards a meld takes (``action.cards``): naturals of the rank, then twos, then jokers, each
the lowest card id first (suits in the order C S D H), exactly as the state machine removes
them from the hand (``pick_kind`` in ``kernel.c``; games/manna.md, "Actions"), unless
``apply(..., cards=)`` names the exact cards (any suits of those ranks the hand holds).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cardcore._fast import GameState
from cardcore.cards import card_id, card_str, format_cards
from cardcore.i18n import N_, _
from cardcore.narrate import seat_name
from cardcore.games.manna.words import CANASTA_KINDS, canasta_counts
from cardcore.game import (
    ActionSpec, Game, ShortMatch, JSONValue, Option, _normalize_label, flag, int_between, one_of,
    seat_or_lot,
)
from cardcore.games.manna._state import (
    ACTION_LAYOUT,
    FOOT_PENALTIES,
    MAX_HANDS_PER_MATCH,
    MIXED_SEVENS,
    PHASES,
    MannaState,
    deal_plan,
    hand_action_bound,
    hand_score_bounds,
    manna_deck,
)
from cardcore.games.manna._view import OBSERVATION_PIECES
from cardcore.games.manna.actions import GROUP_NAMES, describe_action
from cardcore.games.manna.events import MannaNarrator
from cardcore.games.manna.greedy import choose as greedy_choose
from cardcore.games.manna.schema import SCHEMA
from cardcore.games.manna.words import PHRASES, REASONS

__all__ = ["Manna", "ACTION_LAYOUT"]

NUM_PLAYERS = 6
# MH-10.6 Decision (bounds): a target a team must reach by scoring, 1..1,000,000 (a hand
# scores a few thousand points); a short match is ``hands``, not a target nobody can miss.
MIN_TARGET, MAX_TARGET = 1, 1_000_000


class Manna(Game):
    """Manna from Heaven. Options: ``dealer`` (None = by lot), ``target`` (20000),
    ``wild_sevens`` (False: sevens melds take no wild cards), ``mixed_sevens`` ("either": with
    wild_sevens a mixed canasta of sevens is the team's canasta of sevens or its mixed one),
    ``foot_penalty`` ("red_threes": an unopened foot costs only its red threes)."""

    name = "manna"
    title = "Manna from Heaven"
    rule_prefix = "MH"
    round_name = "hand"
    # A match runs to a target over many hands: a rollout through all of them is ~80 times
    # slower than one through the hand and says little about the move at hand.
    search_horizon = "round"
    # The difficulty levels (make_bot("level:N")), calibrated by team-against-team hands
    # (benchmarks/calibrate_levels.py, docs/bots.md).
    levels = {1: "random", 2: "greedy:epsilon=0.7", 3: "greedy:epsilon=0.35", 4: "greedy",
              5: "ismcts:iterations=1000,think_ms=1000"}
    # The review's default reference (cardcore.review; docs/bots.md, "Game review", has its
    # score against the levels): level 5's search, iteration-bound, at a playing bot's
    # exploration; the review runs it 5 times a decision and plays the most visited move.
    review_reference = "ismcts:iterations=1000,exploration=0.7"
    default_players = NUM_PLAYERS
    min_players = NUM_PLAYERS
    # One hand, team against team: the generic full matches and the calibration.
    short_match = ShortMatch(NUM_PLAYERS, {"hands": 1}, "hands, team against team", 300)
    benchmark_targets = {"vector_steps_per_s": 2e6, "bots_ratio_0_2": 0.33, "bots_goal_factor": 1.5}
    max_players = NUM_PLAYERS
    phases = PHASES
    rulebook = "manna.md"
    score_direction = "higher is better"
    narrator = MannaNarrator
    # A team's melds are one kernel zone; each meld is a zone of its own, "meld:T:N" (team
    # T's meld N, numbered in the order the team started them: MH-4).
    zone_labels = {"hand": N_("cards in hand"), "foot": N_("foot"), "stock": N_("stock"),
                   "discard": N_("discard pile"), "meld": N_("meld"),
                   "red_threes": N_("red threes")}
    wild = ("2C", "2S", "2D", "2H", "JK")       # MH-1.2: jokers and twos
    split_zones = {"melds": "meld"}
    greedy = staticmethod(greedy_choose)
    schema_parts = SCHEMA
    phrases = PHRASES
    reasons = REASONS
    _state: MannaState
    options_spec = {
        "dealer": Option(None, seat_or_lot("MH-2.1"), "seat of the first dealer; None draws it by lot"),
        "target": Option(20000, int_between(MIN_TARGET, MAX_TARGET, "MH-10.6"),
                         "the match ends after the hand in which a team reaches it",
                         saved=int_between(-10**9, 10**9, "MH-10.6")),      # 0.3: any int
        "hands": Option(None, int_between(1, MAX_HANDS_PER_MATCH, "MH-10.7", allow_none=True),
                        "the match ends after this many hands at the latest; None: 1000"),
        "wild_sevens": Option(False, flag("MH-4.6"), "melds of sevens may take wild cards"),
        "mixed_sevens": Option("either", one_of(*MIXED_SEVENS, rule="MH-4.6"),
                               "with wild_sevens: a mixed sevens canasta counts as sevens too "
                               "('either') or as mixed only ('mixed')"),
        "foot_penalty": Option("red_threes", one_of(*FOOT_PENALTIES, rule="MH-10.5"),
                               "an unopened foot costs its red threes only ('red_threes'), or "
                               "also its other cards ('cards')"),
    }
    # Saves of format 1 (cardcore 0.1) predate these options; they replay with 0.1's rules.
    format1_options = {"foot_penalty": "cards", "mixed_sevens": "mixed"}
    # Few hands keep random matches short enough for the conformance suite.
    conformance_configs = [
        {"hands": 1},
        {"hands": 2, "target": 1, "dealer": 2},
        {"hands": 1, "wild_sevens": True},
        {"hands": 1, "foot_penalty": "cards"},
        {"hands": 1, "wild_sevens": True, "mixed_sevens": "mixed", "foot_penalty": "cards"},
    ]

    @classmethod
    def deck_for(cls, players: int, options: Mapping[str, Any]) -> list[int]:
        """The deck composition (card ids, id order) for this configuration."""
        return manna_deck()

    @classmethod
    def action_specs(cls, players: int, options: Mapping[str, Any]) -> Sequence[ActionSpec]:
        """The decode table: the meaning of every action id (pinned by golden tests)."""
        return [describe_action(i) for i in range(ACTION_LAYOUT["num_actions"])]

    def _make_state(self, deck: list[int] | None) -> MannaState:
        return MannaState(self.num_players, self.options, deck)

    # apply(..., cards=) (games/manna.md, "Actions": which cards a meld takes): a meld's
    # cards are its composition's (MH-4), a take's cards from hand MH-5.3's.
    exact_cards_rules = {"meld": "MH-4", "take_pile": "MH-5.3"}

    def interchangeable_as(self, card: int) -> str:
        """A natural stands for its rank (any suit), a two for any two, a joker for a joker."""
        name = card_str(card)
        return name if name == "JK" else name[:-1]

    def _parse_alias(self, text: str) -> int | None:
        """The 0.1 compact meld notation (``new K n=3 two=1 jk=0``)."""
        index = type(self).__dict__.get("_compact_index")
        if index is None:
            index = {_normalize_label(str(spec.info["compact"])): i
                     for i, spec in enumerate(self._specs) if spec.kind == "meld"}
            setattr(type(self), "_compact_index", index)
        found: int | None = index.get(_normalize_label(text))
        return found

    def _action_detail(self, action_id: int, spec: ActionSpec, player: int
                       ) -> tuple[tuple[str, ...], Mapping[str, JSONValue]] | None:
        """A meld names the exact cards it takes; a take names the pile it takes and the
        cards it melds (the top card, then the cards from hand)."""
        s = self._state
        if spec.kind == "meld":
            cards = s.hand_cards_of(action_id, player)
            return None if cards is None else (tuple(format_cards(cards)), {})
        if spec.kind == "take_pile":
            pile = s.discard_pile()
            if not pile:
                return None
            from_hand = s.hand_cards_of(action_id, player) or []
            return (tuple(format_cards(pile)),
                    {"melded": format_cards([pile[-1]] + from_hand),
                     "from_hand": format_cards(from_hand)})
        return None

    def _zone_parts(self, state: GameState, name: str, instance: int) -> Sequence[bytes]:
        """A team's melds (kernel zone "melds"), in the order it started them."""
        s: MannaState = state  # type: ignore[assignment]
        return s.meld_bytes(instance)

    def team_melds(self, team: int) -> list[dict[str, JSONValue]]:
        """A team's melds as the view shows them (rank, cards, complete, canasta type)."""
        return [{"rank": GROUP_NAMES[g] if g != 2 else "3", "cards": format_cards(cards),
                 "complete": ctype is not None, "type": ctype}
                for g, cards, ctype in self._state.melds(team)]

    def _view_extra(self, player: int | None) -> dict[str, JSONValue]:
        s = self._state
        return {
            "team": None if player is None else player % 2,
            "melds": [self.team_melds(0), self.team_melds(1)],
            "red_threes": [format_cards(s.red_threes(0)), format_cards(s.red_threes(1))],
            "discard": format_cards(s.discard_pile()),
            "frozen": s.frozen,
            "stock_size": s.stock_size,
            "foot_sizes": s.foot_sizes(),
            "min_meld": s.min_meld(),
            "opened": s.opened(),
            "canasta_types": [s.canasta_types(0), s.canasta_types(1)],
            "dealer": s.dealer,
            "hand_number": s.round_index + (0 if s.is_over else 1),
            "turn_points": s.turn_points,
            "last_hand_scores": s.last_hand_scores(),
        }

    def _round_summary(self, state: GameState) -> dict[str, JSONValue]:
        s: MannaState = state  # type: ignore[assignment]
        return {"hand_scores": s.last_hand_scores(), "team_scores": s.team_scores(),
                "went_out": s.last_out, "scores": list(s.scores())}

    @classmethod
    def sides_of(cls, players: int, options: Mapping[str, Any]) -> list[int]:
        """Two teams of three: team = seat % 2 (MH-1.4)."""
        return [p % 2 for p in range(players)]

    @classmethod
    def deal_plan_of(cls, players: int, options: Mapping[str, Any], first: int) -> list[str]:
        """``first`` is the dealer (the header's dealer); play starts at the next seat."""
        return deal_plan(players, options, first)

    def hidden_deck_positions(self, seat: int) -> list[int]:
        """Deck positions (top first) whose cards ``seat`` could not see after the first deal,
        from the deal plan: other hands, feet, and stock cards not drawn into its own hand.
        Red threes are left out wherever they lie: the deal lays out every red three that
        reaches a hand, replaced from the stock top (MH-2.4), so moving one would show. Without
        a stacked deck, only the positions hidden whatever the deck: the feet and the stock
        below the cards that can replace red threes (one per red three in the deck)."""
        self._seat(seat)
        players = self.num_players
        hands_after_first = self._state.round_index - (1 if self._state.is_over else 0)
        dealer = (self._state.dealer - hands_after_first) % players      # MH-2.1
        plan = self.deal_plan_of(players, self.options, dealer)
        red_threes = {card_id("3D"), card_id("3H")}
        stock = [i for i, zone in enumerate(plan) if zone == "stock"]
        deck = self._deck_input
        if deck is None:
            replacements = sum(1 for c in manna_deck() if c in red_threes)
            return [i for i, zone in enumerate(plan) if zone.startswith("foot:")] + stock[replacements:]
        drawn_by: dict[int, int] = {}             # stock position -> the seat it replaced for
        top = 0
        for k in range(players):                  # MH-2.4: in play order from the dealer's left
            p = (dealer + 1 + k) % players
            owed = sum(1 for i, zone in enumerate(plan)
                       if zone == f"hand:{p}" and deck[i] in red_threes)
            while owed:
                drawn_by[stock[top]] = p
                owed -= 0 if deck[stock[top]] in red_threes else 1
                top += 1

        def unseen(i: int, zone: str) -> bool:
            if deck[i] in red_threes:
                return False
            if zone == "stock":
                return drawn_by.get(i) != seat
            return not self._zone_visible(zone, seat)

        return [i for i, zone in enumerate(plan) if unseen(i, zone)]

    @classmethod
    def observation_pieces_of(cls, players: int, options: Mapping[str, Any]
                              ) -> Sequence[tuple[str, int, int]]:
        return OBSERVATION_PIECES

    @classmethod
    def utility_range_of(cls, players: int, options: Mapping[str, Any]) -> tuple[float, float]:
        """Returns are the team's total: at most MAX_HANDS_PER_MATCH hands (MH-10.7), each
        within ``hand_score_bounds()`` (MH-10; derived there from the rule constants). A tie
        at or above the target plays on (MH-10.6), so the target bounds nothing."""
        low, high = hand_score_bounds()
        return (float(MAX_HANDS_PER_MATCH * low), float(MAX_HANDS_PER_MATCH * high))

    @classmethod
    def max_game_length_of(cls, players: int, options: Mapping[str, Any]) -> int:
        """At most MAX_HANDS_PER_MATCH hands (MH-10.7), each within ``hand_action_bound()``
        actions (derived there: draws, takes and lasting melds, discards, retracted melds)."""
        return MAX_HANDS_PER_MATCH * hand_action_bound()

    @classmethod
    def observation_bounds_of(cls, players: int, options: Mapping[str, Any]
                              ) -> Mapping[str, tuple[float, float]]:
        """Per piece (rulebook, "Observation"): one-hots and flags 0..1; counts per card id
        up to the deck's copies; sizes and meld sizes up to the deck, canastas up to the deck
        in 7s (MH-9.1); scores within ``utility_range``, a hand's within
        ``hand_score_bounds()``, a turn's counted points up to a hand's best; MH-4.8's
        minimum 15..150; hands 1..MAX_HANDS_PER_MATCH (MH-10.7)."""
        deck = manna_deck()
        size = float(len(deck))
        copies = float(max(deck.count(c) for c in set(deck)))
        low, high = hand_score_bounds()
        one_hot = (0.0, 1.0)
        bounds = {piece: one_hot for piece in (
            "observer", "current_player", "phase", "team", "opened", "dealer", "frozen",
            "discard_top")}
        bounds.update({
            "hand": (0.0, copies), "discard": (0.0, copies), "meld_cards": (0.0, copies),
            "red_threes": (0.0, copies), "hand_sizes": (0.0, size), "foot_sizes": (0.0, size),
            "stock_size": (0.0, size), "unfinished_size": (0.0, size),
            "unfinished_wilds": (0.0, size), "canasta_types": (0.0, float(len(deck) // 7)),
            "canastas": (0.0, float(len(deck) // 7)),
            "scores": cls.utility_range_of(players, options),
            "last_hand_scores": (float(low), float(high)), "min_meld": (15.0, 150.0),
            "turn_points": (0.0, float(high)),
            "hand_number": (1.0, float(MAX_HANDS_PER_MATCH))})
        return bounds

    def table_lines(self, player: int) -> list[str]:
        """The public table as plain-text lines, for terminal front ends."""
        v = self.view(player)
        top = v["discard"][-1] if v["discard"] else "-"
        frozen = _(" (frozen)") if v["frozen"] else ""
        who = seat_name(player)              # "you", "player 3": counted from 1
        seats = len(v["hand_sizes"])
        # the teams from the reader's side, with their players (MH-1: seats alternate)
        teams = [(_("your team ({names})") if team == v["team"] else _("opponents ({names})"))
                 .format(names=", ".join(who(p) for p in range(team, seats, 2)))
                 for team in range(2)]
        lines = [
            _("Hand {hand}  dealer: {dealer}  stock {stock}  pile {pile}{frozen} top {top}")
            .format(hand=v["hand_number"], dealer=who(v["dealer"]), stock=v["stock_size"],
                    pile=len(v["discard"]), frozen=frozen, top=top),
            _("Scores: {first} {score0}   {second} {score1}").format(
                first=teams[0], second=teams[1], score0=v["scores"][0], score1=v["scores"][1]),
        ]
        for team in range(2):
            opened = _("opened") if v["opened"][team] else _("needs {points}").format(
                points=v["min_meld"][team])
            to_move = v["current_player"]
            if not v["opened"][team] and to_move is not None and team == to_move % 2 \
                    and v["turn_points"]:
                opened += _(", {points} counted this turn").format(points=v["turn_points"])
            kinds = v["canasta_types"][team]                         # MH-9.1: one of each
            lines.append(_("{side}: {opened}; red threes {threes}; canastas: {canastas}")
                         .format(side=teams[team][:1].upper() + teams[team][1:], opened=opened, threes=len(v["red_threes"][team]),
                                 canastas=canasta_counts(kinds) or _("none")))
            for m in v["melds"][team]:
                mark = _("[{kind} canasta]").format(kind=_(CANASTA_KINDS.get(
                    m["type"], m["type"]))) if m["complete"] else ""
                lines.append(f"   {m['rank']:>6}: {' '.join(m['cards'])} {mark}")
        lines.append(_("Hands: {hands}   feet: {feet}").format(
            hands="  ".join(_("{name}: {value}").format(name=who(p), value=n)
                            for p, n in enumerate(v["hand_sizes"])),
            feet=" ".join(str(n) for n in v["foot_sizes"])))
        return lines
