# cython: language_level=3, cdivision=True
"""Manna from Heaven (Pennies from Heaven canasta): the state machine.

Rules: games/manna.md (rule IDs MH-x.y). The rules are C: kernel.c beside this module (with
kernel_minimum.c), declared in kernel.h, the same files the native and WebAssembly libraries
build; the framework reaches them through MH_HOOKS. The modules of the game (this package):
    kernel.h        rule constants, card predicates, the action-id layout, the state struct
                    MHState and its zone primitives, the observation's layout
    kernel.c        the rules as C functions over an ``MHState*``: the meld table (MH-4), the
                    deal, legal actions and their application, scoring, the per-seat
                    projection and sample_hidden, GreedyBot's and the search's rollout policy,
                    the hook table MH_HOOKS and the C ABI's MH_KERNEL (options, labels)
    kernel_minimum.c  the initial-minimum search ``mh_reach_min`` (MH-4.8, MH-5.5)
    _rules.pxd      kernel.h's constants and predicates, declared for the wrappers
    _data.pxd       kernel.h's state struct (``MannaData``) and zone primitives, declared
    _melds          the meld table (meld ids decoded) and meld validity (MH-4)
    _minimum        the Python face of the minimum search, for tests
    _state          this module: the deal plan, ``MannaState`` (the Python-visible class,
                    bound to MH_HOOKS) and the options, resolved for ``mh_init``
    _view           what a seat may know: the observation's layout (OBSERVATION_PIECES)
    _testing        test-only position setters (through _state.pxd)

Action space (the same 909 ids for every configuration; pinned by tests/test_manna_actions.py):
    0           draw_stock: take the top two stock cards (MH-3.1); with an empty stock this
                declines the draw and ends the hand (MH-9.5)
    1           take_pile, (a): add the top card to the team's unfinished meld of its rank (MH-5.3)
    2           take_pile with a natural pair from hand, (b) or (c)                      (MH-5.3)
    3           take_pile with one natural and one two from hand, (b)                    (MH-5.3)
    4           take_pile with one natural and one joker from hand, (b)                  (MH-5.3)
    5           retract the provisional initial melds of this turn                     (MH-4.8)
    6..58       discard card id (id - 6)                                               (MH-3.3)
    59..111     go out: discard the last card, id (id - 59)                            (MH-9.2)
    112..908    melds: the meld table of _melds (its docstring lists the layout)
Naturals of a rank are interchangeable: the engine moves the lowest card ids (suit order C S D H),
or the cards ``Game.apply(..., cards=)`` chose (``pick_kind``, the framework's hand_cards hook).
"""

from libc.stdint cimport uint8_t, int8_t, int32_t, int64_t, uint64_t
from libc.string cimport memcpy, memset
from cpython.bytes cimport PyBytes_FromStringAndSize

from cardcore._fast cimport OPTION_NONE, OPT_FLAG, OPT_CHOICE, OptionSpec, GameKernel   # the C ABI's view of a game (core/kernel.h)
from cardcore._fast cimport (
    GameState, GameHooks, Header, Multiset, Pile, JOKER, NUM_KINDS, PILE_CAPACITY,
    MS_MAX_COPIES, CHOSEN_CAPACITY, R_THREE, R_SEVEN, ms_to_list, pile_to_list, check_hooks,
    init_header,
)
from cardcore.games.manna._rules cimport (
    NPLAYERS, NTEAMS, NUM_DECKS, NUM_JOKERS, DECK_SIZE, MAX_ID_COPIES, MAX_HANDS, CANASTA,
    GOING_OUT_BONUS, RED_THREES_ALL, ALL_RED_THREES, FOOT_RED_THREE, NRK, CT_NATURAL, CT_MIXED,
    CT_WILD, CT_SEVENS, A_DRAW, A_TAKE_ADD, A_TAKE_JOKER, A_RETRACT, A_DISCARD, A_GO_OUT, A_MELD,
    NUM_ACTIONS, card_points, is_red_three, canasta_bonus,
)
from cardcore.games.manna._data cimport ST_DRAW, ST_MELD, ST_OVER, Meld, MannaData

from cardcore._fast import build_deck, check_state_class
from cardcore.games.manna.words import REFUSALS as _REFUSALS
from cardcore.refusals import Refusals
from cardcore.games.manna._melds import ACTION_LAYOUT, RANK_NAMES, meld_table  # re-exported

# ---------------------------------------------------------------- the C kernel (kernel.h)
# The rules are kernel.c; these are the names this module reads, by their names of old (the C
# ones carry the MH_ prefix: every game's kernel is linked into one native library).
cdef extern from "cardcore/games/manna/kernel.h" nogil:
    enum:                                        # where a deck position goes at the deal
        Z_HAND "MH_Z_HAND"
        Z_FOOT "MH_Z_FOOT"
        Z_DISCARD "MH_Z_DISCARD"
        Z_STOCK "MH_Z_STOCK"
        HAND_POSITIONS "MH_HAND_POSITIONS"       # the hands, one card each in turn
        FOOT_POSITIONS "MH_FOOT_POSITIONS"       # then the feet
        DISCARD_POSITION "MH_DISCARD_POSITION"   # then the first discard, the rest: stock
    enum:                                        # the options, in MH_KERNEL.options order
        OPT_DEALER "MH_OPT_DEALER"
        OPT_TARGET "MH_OPT_TARGET"
        OPT_HANDS "MH_OPT_HANDS"
        OPT_WILD_SEVENS "MH_OPT_WILD_SEVENS"
        OPT_MIXED_SEVENS "MH_OPT_MIXED_SEVENS"
        OPT_FOOT_PENALTY "MH_OPT_FOOT_PENALTY"
        MH_NUM_OPTIONS

    const GameHooks MH_HOOKS
    const GameKernel MH_KERNEL
    int mh_init(void* state, int players, const int64_t* values) noexcept
    int mh_composition(const void* state, uint8_t* out) noexcept
    # the deal plan: for every deck position (top first) its zone and seat (-1: none)
    void plan_deal "mh_plan_deal"(int dealer, int8_t* zone, int8_t* seat) noexcept
    # what hand_cards_of asks (p: the seat to move)
    int meld_cards_of "mh_meld_cards_of"(const MannaData* s, int p, int mi, uint8_t* out) noexcept
    int take_cards_of "mh_take_cards_of"(const MannaData* s, int p, int kind, uint8_t* out) noexcept

# The core's capacities must hold Manna's deck (checked once, at import).
if <int>DECK_SIZE > <int>PILE_CAPACITY or <int>MAX_ID_COPIES > <int>MS_MAX_COPIES \
        or <int>CANASTA > <int>CHOSEN_CAPACITY:
    raise ImportError(f"Manna needs piles of {DECK_SIZE} cards and {MAX_ID_COPIES} copies of an "
                      f"id; the core holds {PILE_CAPACITY} and {MS_MAX_COPIES}")

PHASES = ("draw", "meld", "over")

# ---------------------------------------------------------------- the deal plan (MH-2.2, 2.3)
# Where a deck position goes at the deal: mh_plan_deal in kernel.c, which deal() follows.


def deal_plan(int players, options, int dealer) -> list:
    """The zone of every deck position of a deal, top card first: "hand:<seat>", "foot:<seat>",
    "discard" (the first discard) or "stock" (the stock, its top first). Red threes found in the
    hands are replaced from the top of the stock (MH-2.4). ``options`` do not change the plan."""
    cdef int8_t zone[DECK_SIZE]
    cdef int8_t seat[DECK_SIZE]
    if players != NPLAYERS:
        raise ValueError("manna is for 6 players")
    if not 0 <= dealer < NPLAYERS:
        raise ValueError(f"dealer seat {dealer} out of range")
    plan_deal(dealer, zone, seat)
    names = {Z_DISCARD: "discard", Z_STOCK: "stock"}
    return [f"hand:{seat[i]}" if zone[i] == Z_HAND else
            f"foot:{seat[i]}" if zone[i] == Z_FOOT else names[zone[i]]
            for i in range(DECK_SIZE)]


# ---------------------------------------------------------------- the scoring breakdown (MH-10)
# The rows' words: kernel.c's team_hand_score writes one row per component, these indexes.
BREAKDOWN_WHAT = ("canasta bonuses", "cards in melds", "red threes ({detail})", "going out",
                  "cards left in hands", "red threes in unopened feet",
                  "other cards in unopened feet")
BREAKDOWN_RULES = ("MH-10.1, MH-4.5", "MH-10.2", "MH-10.3, MH-8.3", "MH-10.4", "MH-10.5",
                   "MH-10.5, MH-8.4", "MH-10.5 (foot_penalty=cards)")

# The hook table is kernel.c's MH_HOOKS: checked here at import as every game's is.
check_hooks(&MH_HOOKS)
if MH_KERNEL.deck_size != DECK_SIZE:
    raise ImportError("Manna: the C ABI's deck size is not the game's")


# ---------------------------------------------------------------- the Python-visible state
def manna_deck() -> list:
    """MH-1.1: four full decks and eight jokers (216 cards), id order."""
    return build_deck([list(range(13))] * NUM_DECKS, NUM_JOKERS)


def card_points_of(int card) -> int:
    """MH-1.3: what a card counts (the kernel's table)."""
    if not 0 <= card < NUM_KINDS:
        raise ValueError(f"card id out of range: {card!r}")
    return card_points(card)


def num_actions() -> int:
    return NUM_ACTIONS


def hand_score_bounds() -> tuple:
    """(lowest, highest) score a team can make in one hand (MH-10), from the rule constants.
    Highest: every card but the red threes melded (they are never melded), as many canastas as
    those cards make, each with the largest bonus (MH-4.5), all red threes counting for the team
    (MH-8.3) and going out (MH-10.4). Lowest: every such card left in the team's hands and feet,
    every red three in a foot (MH-8.4), and all red threes counting against it (MH-8.3)."""
    deck = manna_deck()
    red = [c for c in deck if is_red_three(c)]
    meldable_points = sum(card_points(c) for c in deck) - sum(card_points(c) for c in red)
    canastas = (len(deck) - len(red)) // CANASTA
    best_bonus = max(canasta_bonus(t) for t in (CT_NATURAL, CT_MIXED, CT_WILD, CT_SEVENS))
    high = meldable_points + canastas * best_bonus + RED_THREES_ALL + GOING_OUT_BONUS
    low = -(meldable_points + FOOT_RED_THREE * len(red)) - RED_THREES_ALL
    return (low, high)


def hand_action_bound() -> int:
    """An upper bound on the actions of one hand, from the rule constants. Draws: each takes at
    least one stock card, plus the draw that finds it empty (MH-9.5). Takes and lasting melds:
    each leaves at least one card on the table for good (no retract after a take, MH-4.8), and the
    table holds at most the non-red-three cards. Turns begin with a draw or a take and end with
    one discard (or `out`). Retracts: at most one per draw turn, each undoing at most one meld per
    card in hand (at most the non-red-three cards)."""
    cdef int draws = DECK_SIZE - DISCARD_POSITION - 1 + 1
    cdef int table = DECK_SIZE - ALL_RED_THREES
    cdef int turns = draws + table
    return draws + table + turns + draws + draws * table


MAX_HANDS_PER_MATCH = MAX_HANDS          # MH-10.7 Decision (termination guard)
FOOT_PENALTIES = ("red_threes", "cards")    # MH-10.5: the values of option foot_penalty
MIXED_SEVENS = ("either", "mixed")          # MH-4.6: the values of option mixed_sevens


cdef int resolve_options(int64_t* values, dict options) except -1:
    """The typed options (every key must be there: the wrapper resolves the Option defaults) as
    the C ABI's values, one per option of MH_KERNEL (kernel.c's MH_OPTIONS, the same names in
    the same order as the wrapper's options_spec): a flag 0/1, a choice its index, an int its
    value, None OPTION_NONE. mh_init sets the struct from them, for Python as for the ABI."""
    cdef int32_t target, hands_value, dealer_value
    for key in ("target", "hands", "dealer", "wild_sevens", "foot_penalty", "mixed_sevens"):
        if key not in options:
            raise ValueError(f"manna option {key!r} missing (the wrapper supplies defaults)")
    target = options["target"]
    hands = options["hands"]
    hands_value = MAX_HANDS if hands is None else hands
    if not 1 <= hands_value <= MAX_HANDS:
        raise ValueError(f"hands must be 1..{MAX_HANDS}, not {hands}")
    dealer = options["dealer"]
    dealer_value = -1 if dealer is None else dealer
    if not -1 <= dealer_value < NPLAYERS:
        raise ValueError(f"dealer seat {dealer} out of range")
    wild_sevens = bool(options["wild_sevens"])
    if options["foot_penalty"] not in FOOT_PENALTIES or options["mixed_sevens"] not in MIXED_SEVENS:
        raise ValueError(f"foot_penalty one of {FOOT_PENALTIES}, mixed_sevens one of {MIXED_SEVENS}")
    values[OPT_DEALER] = OPTION_NONE if dealer_value < 0 else dealer_value
    values[OPT_TARGET] = target
    values[OPT_HANDS] = OPTION_NONE if hands is None else hands_value
    values[OPT_WILD_SEVENS] = 1 if wild_sevens else 0
    values[OPT_MIXED_SEVENS] = MIXED_SEVENS.index(options["mixed_sevens"])
    values[OPT_FOOT_PENALTY] = FOOT_PENALTIES.index(options["foot_penalty"])
    return 0


cdef int check_kernel() except -1:
    """The C ABI's option table (kernel.c's MH_OPTIONS) names the options resolve_options
    fills, in its order, with the choices of FOOT_PENALTIES and MIXED_SEVENS; its deck is
    manna_deck() (MH-1.1). Checked at import."""
    cdef uint8_t cards[DECK_SIZE]
    cdef int i, k, n
    names = [(<bytes>MH_KERNEL.options[i].name).decode() for i in range(MH_KERNEL.num_options)]
    if names != ["dealer", "target", "hands", "wild_sevens", "mixed_sevens", "foot_penalty"]:
        raise ImportError(f"Manna: the C kernel's options are {names}")
    for i, choices in ((OPT_MIXED_SEVENS, MIXED_SEVENS), (OPT_FOOT_PENALTY, FOOT_PENALTIES)):
        if tuple((<bytes>MH_KERNEL.options[i].choices[k]).decode()
                 for k in range(MH_KERNEL.options[i].num_choices)) != choices:
            raise ImportError(f"Manna: the C kernel's choices of {names[i]} are not {choices}")
    n = mh_composition(NULL, cards)
    if [cards[i] for i in range(n)] != manna_deck():
        raise ImportError("Manna: the C kernel's deck is not manna_deck()")
    return 0

check_kernel()


cdef class MannaState(GameState):
    """Manna from Heaven: MannaData bound to the framework; getters for the view."""

    match_end_rule = "MH-10.6"
    breakdown_what = BREAKDOWN_WHAT
    breakdown_rules = BREAKDOWN_RULES
    refusals = Refusals(_REFUSALS)  # the templates of the kernel's refusals (mh_refuse)

    def __cinit__(self, *args, **kwargs):
        memset(&self.d, 0, sizeof(MannaData))
        self.bind(&MH_HOOKS, &self.d, &self.d.h)

    def __init__(self, int players, dict options, deck=None):
        if players != NPLAYERS:
            raise ValueError("manna is for 6 players")
        cdef int64_t values[MH_NUM_OPTIONS]
        init_header(&self.d.h, players, deck, manna_deck())
        resolve_options(values, options)
        if mh_init(&self.d, players, values) < 0:
            raise ValueError(f"Manna options out of range: {options}")

    def hand_cards_of(self, int action, p=None) -> list:
        """The cards of seat p's hand (the player to move by default) that action ``action``
        uses — a meld's cards, or the cards a pile take melds with the top card — in the order
        they join the meld, chosen as the action chooses them (``pick_kind``: the lowest card
        id first); [] for the other kinds; None if the hand lacks them."""
        cdef int seat = self.d.h.to_move if p is None else self.check_seat(p)
        cdef uint8_t out[CANASTA]
        cdef int n
        if seat < 0 or not 0 <= action < NUM_ACTIONS:
            return None
        if action >= A_MELD:
            n = meld_cards_of(&self.d, seat, action - A_MELD, out)
        elif A_TAKE_ADD <= action <= A_TAKE_JOKER:
            n = take_cards_of(&self.d, seat, action, out)
        else:
            return []
        return None if n < 0 else [out[i] for i in range(n)]

    def legal_ids_uncached(self) -> list:
        """legal_ids() recomputed from scratch (the per-state cache dropped): for benchmarks."""
        self.d.legal_count = -1
        return self.legal_ids()

    def hand(self, p) -> list:
        return ms_to_list(&self.d.hand[self.check_seat(p)])

    def hand_sizes(self) -> list:
        return [self.d.hand[p].total for p in range(NPLAYERS)]

    def known_cards(self, p) -> list:
        """Cards every seat knows to be in seat p's hand: picked up with a pile or returned by a
        retract, and not since melded or discarded (the evidence sample_hidden keeps)."""
        return ms_to_list(&self.d.known[self.check_seat(p)])

    def foot(self, p) -> list:
        """A player's unopened foot (hidden information: tests and tools only)."""
        return ms_to_list(&self.d.foot[self.check_seat(p)])

    def foot_sizes(self) -> list:
        return [self.d.foot[p].total for p in range(NPLAYERS)]

    def feet_taken(self) -> list:
        return [bool(self.d.foot_taken[p]) for p in range(NPLAYERS)]

    def melds(self, int team) -> list:
        """[(group, cards, ctype name or None)] of a team, in the order they were started."""
        if not 0 <= team < NTEAMS:
            raise ValueError("team 0 or 1")
        names = {CT_NATURAL: "natural", CT_MIXED: "mixed", CT_WILD: "wild", CT_SEVENS: "sevens"}
        out = []
        cdef Meld x
        for m in range(self.d.nmelds[team]):
            x = self.d.melds[team][m]
            out.append((x.group, [x.cards[i] for i in range(x.size)], names.get(x.ctype)))
        return out

    def meld_bytes(self, int team) -> list:
        """The cards of each meld of a team as bytes of card ids, in the order they were
        started: the zones of events' moves (``melds`` without the words, for every action)."""
        if not 0 <= team < NTEAMS:
            raise ValueError("team 0 or 1")
        cdef list out = []
        cdef int m
        for m in range(self.d.nmelds[team]):
            out.append(PyBytes_FromStringAndSize(<char*>self.d.melds[team][m].cards,
                                                 self.d.melds[team][m].size))
        return out

    def red_threes(self, int team) -> list:
        if not 0 <= team < NTEAMS:
            raise ValueError("team 0 or 1")
        return [2 * 13 + R_THREE] * self.d.red3[team][0] + [3 * 13 + R_THREE] * self.d.red3[team][1]

    def discard_pile(self) -> list:
        return pile_to_list(&self.d.pile)

    def stock(self) -> list:
        """The stock top-first (hidden: tests and tools only)."""
        return pile_to_list(&self.d.stock)[::-1]

    @property
    def stock_size(self) -> int:
        return self.d.stock.size

    @property
    def frozen(self) -> bool:
        return bool(self.d.pile_frozen)

    def min_meld(self) -> list:
        return [self.d.need[0], self.d.need[1]]

    def opened(self) -> list:
        return [bool(self.d.opened[0]), bool(self.d.opened[1])]

    def canasta_types(self, int team) -> list:
        if not 0 <= team < NTEAMS:
            raise ValueError("team 0 or 1")
        return [name for bit, name in ((CT_NATURAL, "natural"), (CT_MIXED, "mixed"),
                                       (CT_WILD, "wild"), (CT_SEVENS, "sevens"))
                if self.d.types[team] & bit]

    @property
    def turn_points(self) -> int:
        return self.d.turn_points

    def credits(self) -> list:
        """Per rank (and the joker last): hand cards whose points count toward the minimum."""
        return [self.d.credit[k] for k in range(NRK)]

    @property
    def committed(self) -> bool:
        return bool(self.d.committed)

    @property
    def retracted(self) -> bool:
        return bool(self.d.retracted)

    def team_scores(self) -> list:
        return [self.d.score[0], self.d.score[1]]

    def last_hand_scores(self) -> list:
        return [self.d.last_hand[0], self.d.last_hand[1]]

    @property
    def last_out(self):
        return None if self.d.last_out < 0 else self.d.last_out

    def all_cards(self) -> list:
        cards = []
        for p in range(NPLAYERS):
            cards += self.hand(p) + self.foot(p)
        for tm in range(NTEAMS):
            cards += self.red_threes(tm)
            for m in self.melds(tm):
                cards += m[1]
        return cards + self.discard_pile() + self.stock()


check_state_class(MannaState)
