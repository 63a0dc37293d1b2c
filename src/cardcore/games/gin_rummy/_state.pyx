# cython: language_level=3, cdivision=True
"""Gin Rummy state machine (rules: games/gin_rummy.md, rule IDs GR-x.y), exactly as
OpenSpiel's ``crazy_eights`` plays it.

Cards inside this kernel are OpenSpiel's card indices, ``rank * 4 + suit`` with ranks 2..A as
0..12 and suits C D H S as 0..3, so that the action ids ARE the card indices and legality is
one mask: ``Multiset`` hands and ``Pile`` piles hold these indices. cardcore's own card ids
(``suit * 13 + rank``, A = 0, suits C S D H) appear only at the Python boundary, converted by
``to_card_id`` / ``to_os_index`` (the one mapping, gr_card_id / gr_os_index in kernel.h).

Action space (the same 58 ids for every configuration, OpenSpiel's):
    0..51   play the card with that index                               GR-3.1
    52      draw (one card; under a draw-two debt, the whole debt)      GR-5.1, GR-4.4
    53      pass                                                        GR-5.2, GR-5.3
    54..57  nominate C, D, H, S after an eight                          GR-3.3

The rules themselves are C (``kernel.c`` / ``kernel.h`` beside this file: the same code the
native and WebAssembly libraries build); this module binds them to the framework and adds the
Python-side tables and getters.
"""
from libc.stdint cimport uint8_t, int32_t, int64_t, uint64_t
from libc.string cimport memset

from cardcore._fast cimport OPTION_NONE   # the C ABI's view of a game (core/kernel.h)
from cardcore._fast cimport (
    GameState, GameHooks, Header, Multiset, Pile, NUM_RANKS, NUM_SUITS,
    PILE_CAPACITY, MS_MAX_COPIES, MAX_BREAKDOWN_ROWS, check_hooks, init_header,
)
from cardcore._fast import build_deck, check_state_class
from cardcore.games.gin_rummy.words import REFUSALS as _REFUSALS
from cardcore.refusals import Refusals

# ---------------------------------------------------------------- the kernel (kernel.h)
cdef extern from "cardcore/games/gin_rummy/kernel.h" nogil:
    # rule constants
    enum:
        GR_MIN_PLAYERS            # GR-1.1
        GR_MAX_PLAYERS            # GR-1.1
        GR_NUM_CARDS              # GR-1.2: one deck
        GR_MAX_DECK               # GR-1.2: two decks
        GR_EIGHT_RANK             # GR-3.3: the wild card (rank index of 8, ranks 2..A = 0..12)
        GR_SKIP_RANK              # GR-4.1: Q
        GR_REVERSE_RANK           # GR-4.2: A
        GR_DRAW_TWO_RANK          # GR-4.3: 2
    # the action table
    enum:
        GR_A_DRAW
        GR_A_PASS
        GR_A_NOMINATE             # + suit (C D H S)
        GR_NUM_ACTIONS
    enum:
        GR_MAX_DRAW_CARDS_LIMIT
        GR_MAX_TURNS_LIMIT
    enum:
        GR_ROWS_PER_SEAT
    enum:
        GR_PH_PLAY
        GR_PH_NOMINATE
        GR_PH_OVER
    enum:
        GR_MAX_DRAWN
        GR_MAX_CLASSES
        GR_E_LOG_CAP
        GR_MAX_OBS_PIECES
    enum:
        GR_Z_HAND
        GR_Z_STOCK
        GR_Z_DISCARD
    enum:
        GR_NUM_PIECES


    ctypedef struct GROptions:
        int32_t max_draw_cards
        int32_t max_turns
        bint special
        bint reshuffle
        bint face
        int32_t dealer

    ctypedef struct GRState:
        Header h
        GROptions opt
        int32_t decks, hand_size, deck_size
        uint8_t deck[GR_MAX_DECK]
        Multiset hand[GR_MAX_PLAYERS]
        Pile stock
        Pile discard
        int32_t last_card, last_suit
        int32_t direction
        bint can_pass
        int32_t passes
        int32_t draws
        int32_t twos_owed
        int32_t plays
        int32_t reshuffles
        int32_t reburied[NUM_SUITS]
        bint stacked_deal
        int32_t n_drawn
        uint8_t drawn[GR_MAX_DRAWN]
        int32_t known_bottom
        uint8_t known_eights[GR_MAX_PLAYERS][NUM_SUITS]
        uint8_t hand_cls[GR_MAX_PLAYERS][GR_NUM_CARDS][2]
        int32_t stock_cls
        int32_t cls_epoch[GR_MAX_CLASSES]
        bint e_active
        uint8_t e_hidden[NUM_SUITS]
        int32_t e_log_len
        uint8_t e_log[GR_E_LOG_CAP]
        int32_t penalty[GR_MAX_PLAYERS]
        int32_t n_rows
        int32_t obs_offset[GR_MAX_OBS_PIECES]
        int32_t obs_size

    int gr_os_rank(int card) noexcept
    int gr_os_suit(int card) noexcept
    int gr_eight_of(int suit) noexcept
    int gr_card_id(int index) noexcept
    int gr_os_index(int card) noexcept

    const GameHooks GR_HOOKS

    int gr_decks_for(int players) noexcept
    int gr_hand_size_for(int players) noexcept
    int gr_deal_seat(int players, int dealer, int hand_size, int position) noexcept
    int gr_card_points(int card, bint face) noexcept
    int gr_obs_layout(int players, bint special, int32_t* offset) noexcept
    int gr_unknown_count(const GRState* s, int p, int card) noexcept
    int gr_zone_cards(const void* state, int zone, int instance, uint8_t* out) noexcept
    int gr_init(void* state, int players, const int64_t* values) noexcept

check_hooks(&GR_HOOKS)

if <int>GR_MAX_DECK > <int>PILE_CAPACITY or 2 > <int>MS_MAX_COPIES or (
        <int>GR_MAX_PLAYERS * <int>GR_ROWS_PER_SEAT > <int>MAX_BREAKDOWN_ROWS):
    raise ImportError("Gin Rummy needs a larger Pile, Multiset or breakdown than the core "
                      "provides")

# ---------------------------------------------------------------- action table
# The action ids as Python names (bots, tools, tests use these; the docstring above lists them).
PLAY_FIRST = 0                    # play the card with OpenSpiel index i: PLAY_FIRST + i
DRAW = GR_A_DRAW
PASS = GR_A_PASS
NOMINATE_FIRST = GR_A_NOMINATE    # nominate suit s (C D H S = 0..3): NOMINATE_FIRST + s

# The ranks that act, as cardcore rank indexes (A = 0, 2..K = 1..12), for the Python side.
WILD_RANK = (GR_EIGHT_RANK + 1) % NUM_RANKS                               # GR-3.1, GR-3.3
SPECIAL_RANKS = {"skip": (GR_SKIP_RANK + 1) % NUM_RANKS,                 # GR-4.1
                 "reverse": (GR_REVERSE_RANK + 1) % NUM_RANKS,           # GR-4.2
                 "draw_two": (GR_DRAW_TWO_RANK + 1) % NUM_RANKS}         # GR-4.3


def to_card_id(int index) -> int:
    """cardcore's card id of an OpenSpiel card index (0..51)."""
    if not 0 <= index < GR_NUM_CARDS:
        raise ValueError(f"card index out of range: {index}")
    return gr_card_id(index)


def to_os_index(int card) -> int:
    """OpenSpiel's card index of a cardcore card id (0..51)."""
    if not 0 <= card < GR_NUM_CARDS:
        raise ValueError(f"card id out of range: {card}")
    return gr_os_index(card)


SUIT_LETTERS = "CDHS"                         # OpenSpiel's suit order (nominations 54..57)


def action_table() -> list:
    """One tuple per id: (kind, cardcore card id or None, suit letter or None)."""
    table = [("play", gr_card_id(i), None) for i in range(GR_NUM_CARDS)]
    table += [("draw", None, None), ("pass", None, None)]
    table += [("nominate", None, SUIT_LETTERS[s]) for s in range(4)]
    assert len(table) == GR_NUM_ACTIONS
    return table


def num_actions() -> int:
    return GR_NUM_ACTIONS


def cards_per_hand(int players) -> int:
    """GR-2.2: the cards dealt to each hand (7 with 2 players, else 5)."""
    return gr_hand_size_for(players)


def gin_rummy_deck(int players) -> list:
    """GR-1.2: one 52-card deck for 2..5 players, two above (cardcore ids, id order)."""
    return build_deck([range(NUM_RANKS)] * gr_decks_for(players), 0)


_COMPOSITIONS = (tuple(gin_rummy_deck(2)), tuple(gin_rummy_deck(GR_MAX_PLAYERS)))  # per deck count


# ---------------------------------------------------------------- scoring (GR-8)
# The hand-end breakdown: the kernel's scoring writes a row per seat and kind of card it holds
# (indexes into BREAKDOWN_WHAT and BREAKDOWN_RULES), so the hand-end event shows the engine's
# figures.
BREAKDOWN_WHAT = ("eights", "court cards (J Q K A)", "number cards (2-10)")
BREAKDOWN_RULES = ("GR-8.1", "GR-8.2")


def penalty_points(cards, scoring="face") -> int:
    """The penalty of a hand of cardcore card ids (the function the state machine uses)."""
    if scoring not in ("face", "openspiel"):
        raise ValueError("scoring must be 'face' or 'openspiel'")
    total = 0
    for c in cards:
        total += gr_card_points(to_os_index(c), scoring == "face")
    return total


# ---------------------------------------------------------------- the state
PHASES = ("play", "nominate", "over")


cdef list zone_list(const GRState* s, int zone, int instance):
    cdef uint8_t buf[GR_MAX_DECK]
    cdef int n = gr_zone_cards(s, zone, instance, buf)
    return [buf[i] for i in range(n)]


# ---------------------------------------------------------------- the deal (GR-2)
def deal_plan(int players, int dealer, deck=None) -> list:
    """The zone of each deck position (top first): "hand:<seat>", "reburied" (an eight turned
    up and put at the stock bottom, GR-2.4: seen by everybody), "discard" (the turn-up) or
    "stock". Without a stacked deck (cardcore ids, top first) the turn-up is taken to be the
    first card after the hands. The deal below walks the same rules."""
    if not GR_MIN_PLAYERS <= players <= GR_MAX_PLAYERS or not 0 <= dealer < players:
        raise ValueError(f"players must be {GR_MIN_PLAYERS}..{GR_MAX_PLAYERS} and dealer a seat")
    cdef int n = GR_NUM_CARDS * gr_decks_for(players), k = gr_hand_size_for(players), i
    if deck is not None:
        deck = [int(c) for c in deck]
        if len(deck) != n or not all(0 <= c < GR_NUM_CARDS for c in deck):
            raise ValueError(f"a deck of {players} players is {n} card ids 0..51")
    plan = []
    for i in range(players * k):
        plan.append(f"hand:{gr_deal_seat(players, dealer, k, i)}")
    i = players * k
    while deck is not None and gr_os_rank(gr_os_index(deck[i])) == GR_EIGHT_RANK:
        plan.append("reburied")
        i += 1
    plan.append("discard")
    plan += ["stock"] * (n - len(plan))
    return plan


# ---------------------------------------------------------------- the per-seat projection
# The tensor opens with OpenSpiel's own observation, piece for piece; then what else the
# view shows. Every card piece uses OpenSpiel's card indices. OBS_NAMES is the one list of
# pieces; the kernel's gr_obs_layout gives their sizes for a configuration.
OBS_NAMES = (
    "openspiel_hand", "openspiel_last_card", "openspiel_last_suit", "openspiel_hand_sizes",
    "openspiel_direction", "observer", "current_player", "phase", "dealer", "direction",
    "stock_size", "discard", "draws_this_turn", "max_draw_cards", "draw_two_owed", "passes",
    "plays", "max_turns", "reburied", "stock_bottom_known", "known_eights", "scores")

if len(OBS_NAMES) != GR_NUM_PIECES or GR_NUM_PIECES + 1 > GR_MAX_OBS_PIECES:
    raise ImportError("the observation layout needs a larger MAX_OBS_PIECES")


def observation_pieces(int players, bint special) -> tuple:
    """(name, offset, size) of each piece of this configuration's tensor (the empty
    openspiel_direction piece is left out without special cards, as OpenSpiel leaves it)."""
    cdef int32_t offset[GR_NUM_PIECES + 1]
    gr_obs_layout(players, special, offset)
    return tuple((OBS_NAMES[i], offset[i], offset[i + 1] - offset[i]) for i in range(GR_NUM_PIECES)
                 if offset[i + 1] > offset[i])


MAX_DRAW_CARDS_LIMIT = GR_MAX_DRAW_CARDS_LIMIT   # GR-5.1: more than a deck's worth changes nothing
MAX_TURNS_LIMIT = GR_MAX_TURNS_LIMIT             # GR-7.2: counters stay far inside 32 bits


# ---------------------------------------------------------------- the Python-visible state
cdef class GinRummyState(GameState):
    """Gin Rummy: the struct above, bound to the framework; getters for the view (card
    lists in cardcore ids)."""
    cdef GRState d

    match_end_rule = "GR-7"
    breakdown_what = BREAKDOWN_WHAT
    breakdown_rules = BREAKDOWN_RULES
    refusals = Refusals(_REFUSALS)  # the templates of the kernel's refusals (gr_refuse)

    def __cinit__(self, *args, **kwargs):
        memset(&self.d, 0, sizeof(GRState))
        self.bind(&GR_HOOKS, &self.d, &self.d.h)

    def __init__(self, int players, dict options, deck=None):
        if not GR_MIN_PLAYERS <= players <= GR_MAX_PLAYERS:
            raise ValueError(f"players must be {GR_MIN_PLAYERS}..{GR_MAX_PLAYERS}")
        if not 1 <= options["max_draw_cards"] <= MAX_DRAW_CARDS_LIMIT:
            raise ValueError("max_draw_cards out of range")
        if not 1 <= options["max_turns"] <= MAX_TURNS_LIMIT:
            raise ValueError("max_turns out of range")
        composition = _COMPOSITIONS[gr_decks_for(players) - 1]
        init_header(&self.d.h, players, deck, composition)
        # The options resolved as the C ABI gives them (GR_KERNEL's option order): one setup.
        cdef int64_t values[6]
        dealer = options["dealer"]
        values[0] = OPTION_NONE if dealer is None else dealer
        values[1] = options["max_draw_cards"]
        values[2] = options["max_turns"]
        values[3] = bool(options["use_special_cards"])
        values[4] = bool(options["reshuffle"])
        values[5] = 0 if options["scoring"] == "face" else 1
        if gr_init(&self.d, players, values) != 0:
            raise ValueError(f"dealer must be None or a seat 0..{players - 1}")

    # --- the zones (cardcore ids)
    def hand(self, p) -> list:
        return zone_list(&self.d, GR_Z_HAND, self.check_seat(p))

    def hand_sizes(self) -> list:
        return [self.d.hand[p].total for p in range(self.d.h.players)]

    def stock(self) -> list:
        """The stock top-first (hidden information: for tests and tools only)."""
        return zone_list(&self.d, GR_Z_STOCK, 0)[::-1]

    def discard(self) -> list:
        """The discard pile, bottom to top."""
        return zone_list(&self.d, GR_Z_DISCARD, 0)

    def last_drawn(self) -> list:
        """The cards the last action drew, in order (hidden information: tests and events)."""
        return [gr_card_id(self.d.drawn[i]) for i in range(self.d.n_drawn)]

    def all_cards(self) -> list:
        cards = []
        for p in range(self.d.h.players):
            cards += zone_list(&self.d, GR_Z_HAND, p)
        return cards + zone_list(&self.d, GR_Z_STOCK, 0) + zone_list(&self.d, GR_Z_DISCARD, 0)

    # --- the public counters
    @property
    def top_card(self) -> int:
        return gr_card_id(self.d.last_card)

    @property
    def suit(self) -> str:
        """The suit to follow (GR-3.1; an eight's nominated suit, GR-3.3)."""
        return SUIT_LETTERS[self.d.last_suit]

    @property
    def direction(self) -> int:
        return self.d.direction

    @property
    def stock_size(self) -> int:
        return self.d.stock.size

    @property
    def draws_this_turn(self) -> int:
        return self.d.draws

    @property
    def draw_two_owed(self) -> int:
        return self.d.twos_owed

    @property
    def passes(self) -> int:
        return self.d.passes

    @property
    def plays(self) -> int:
        return self.d.plays

    @property
    def reshuffles(self) -> int:
        return self.d.reshuffles

    def reburied(self) -> list:
        """GR-2.4: the eights turned up at the deal and put back (cardcore ids, with repeats)."""
        return [gr_card_id(gr_eight_of(k)) for k in range(NUM_SUITS) for _ in range(self.d.reburied[k])]

    def stock_bottom_known(self) -> list:
        """A stacked deal's reburied eights still at the stock bottom (bottom first)."""
        return [gr_card_id(self.d.stock.cards[i]) for i in range(self.d.known_bottom)]

    def known_eights(self, p) -> list:
        """Eights everybody knows seat p holds (drawn from the known stock bottom)."""
        cdef int q = self.check_seat(p)
        return [gr_card_id(gr_eight_of(k)) for k in range(NUM_SUITS) for _ in range(self.d.known_eights[q][k])]

    def penalties(self) -> list:
        return [self.d.penalty[p] for p in range(self.d.h.players)]

    def source_classes(self, p) -> list:
        """(card id, class) of each unknown copy in p's hand (tests of sample_hidden)."""
        cdef int q = self.check_seat(p), c, k
        return sorted((gr_card_id(c), self.d.hand_cls[q][c][k]) for c in range(GR_NUM_CARDS)
                      for k in range(gr_unknown_count(&self.d, q, c)))

    @property
    def stock_class(self) -> int:
        return self.d.stock_cls

    @property
    def reburied_tracked(self) -> list:
        """The reburied eights whose place sample_hidden draws from their posterior."""
        if not self.d.e_active:
            return []
        return [gr_card_id(gr_eight_of(k)) for k in range(NUM_SUITS) if self.d.e_hidden[k]]


check_state_class(GinRummyState)
