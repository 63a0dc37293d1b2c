# cython: language_level=3, cdivision=True
"""Kuzanasta state machine (rules: games/kuzanasta.md, rule IDs KZ-x.y).

Action space (the same 2970 ids for every configuration; pinned by tests/test_kuzanasta_actions.py):
    0            draw_stock: the top card of your stock pile                    KZ-3.1
    1            draw_discard: the top card of your discard pile                KZ-3.1
    2            god_look: use the God card's draw (see the stock piles)        KZ-6.2
    3..54        god_draw card c (id 3 + c, c = 0..51): take c from a stock     KZ-6.2
    55..107      discard card c (id 55 + c, c = 0..52; 52 = the joker, KZ-6.4)  KZ-3.2, KZ-6.4
    108..159     god_discard card c (id 108 + c, c = 0..51): new discard pile   KZ-6.3
    160          end_turn: keep the hand, do not go out                         KZ-3.3
    161          go_out with the engine's best declaration                      KZ-7.1
    162..2969    go_out naming two sets: one id per unordered pair of set       KZ-7.1
                 descriptors (d1 <= d2, not both of 4 cards), ordered by (d1, d2)
Only with the option god_draw="position" (then 3156 ids; the ids above keep their meaning):
    2970..3155   god_draw at a place: pile k, depth d from the top (0 = top),   KZ-6.2
                 id 2970 + k * 93 + d, taken without looking

A set descriptor (_sets.pxd) is rank * 7 + shape, shape 0..2 = 3 cards
with 0..2 wild cards, 3..6 = 4 cards with 0..3 wild cards: a named declaration fixes the
rank, size and number of wild cards of each set and the engine picks the suits (which only
matter for the 2+2 four-card rows, where it takes the best). 39 three-card and 52 four-card
descriptors give 39 * 40 / 2 + 39 * 52 = 2808 named declarations.

Phases: draw -> (god_draw) -> discard -> declare (end_turn; go_out too when the 7-card hand
holds two sets) -> the next player's draw. With going_out="immediate" there is no declare
step: the discard ends the turn, and a hand holding two sets goes out with it (KZ-3.3). A deal
that ends starts the next one inside the same action.

The state is one C struct (KZState, the framework Header first); the rules are C functions
over a pointer to it (kernel.c beside this module, declared in kernel.h), reached by the
framework through KZ_HOOKS. Besides the game
itself the struct keeps the deal's public knowledge (cards everybody knows the place of), which
sample_hidden needs: see "Observation" and "Hidden cards" in games/kuzanasta.md.
"""
from libc.stdint cimport uint8_t, int32_t, int64_t, uint64_t
from libc.string cimport memset

from cardcore._fast cimport OPTION_NONE, OPT_FLAG, OPT_CHOICE, OptionSpec, GameKernel   # the C ABI's view of a game (core/kernel.h)
from cardcore._fast cimport (
    GameState, GameHooks, Header, Multiset, Pile, JOKER, NUM_KINDS, NUM_RANKS, R_JACK,
    pile_to_list, ms_to_list, check_hooks, init_header,
)
from cardcore.games.kuzanasta._sets cimport KZ_NUM_DESCRIPTORS, KZ_NO_WILD, kz_desc_size
from cardcore._fast import build_deck, check_state_class
from cardcore.games.kuzanasta.words import REFUSALS as _REFUSALS
from cardcore.refusals import Refusals

# ---------------------------------------------------------------- the C kernel (kernel.h)
# The rules are kernel.c; these are the names this module reads, by their names of old (the C
# ones carry the KZ_ prefix: every game's kernel is linked into one native library).
cdef extern from "cardcore/games/kuzanasta/kernel.h" nogil:
    enum:                                        # rule constants
        MIN_PLAYERS "KZ_MIN_PLAYERS"             # KZ-1.5
        MAX_PLAYERS "KZ_MAX_PLAYERS"
        DECK_SIZE "KZ_DECK_SIZE"                 # KZ-1.1: 52 + 40 + the joker
        HAND_SIZE "KZ_HAND_SIZE"                 # KZ-2.4
        NUM_STOCKS "KZ_NUM_STOCKS"               # KZ-2.5
        GOD_DOUBLING "KZ_GOD_DOUBLING"           # KZ-7.2 (joker turn-up), KZ-7.3 (winner holds the joker)
        KZ_MAX_VOID_DEALS                        # KZ-7.8: the termination guard
    enum:                                        # the action table (the docstring above)
        A_DRAW_STOCK "KZ_A_DRAW_STOCK"
        A_DRAW_DISCARD "KZ_A_DRAW_DISCARD"
        A_GOD_LOOK "KZ_A_GOD_LOOK"
        FIRST_GOD_DRAW "KZ_FIRST_GOD_DRAW"
        FIRST_DISCARD "KZ_FIRST_DISCARD"
        FIRST_GOD_DISCARD "KZ_FIRST_GOD_DISCARD"
        A_END_TURN "KZ_A_END_TURN"
        A_GO_OUT "KZ_A_GO_OUT"
        FIRST_NAMED "KZ_FIRST_NAMED"
        NUM_NAMED "KZ_NUM_NAMED"
        NUM_ACTIONS "KZ_NUM_ACTIONS"             # every configuration but god_draw="position"
        FIRST_GOD_PLACE "KZ_FIRST_GOD_PLACE"     # god_draw="position": 2970 + pile * 93 + depth
        NUM_PLACE_ACTIONS "KZ_NUM_PLACE_ACTIONS"
        NUM_ALL_ACTIONS "KZ_NUM_ALL_ACTIONS"     # with god_draw="position"
    enum:                                        # phases
        PH_DRAW "KZ_PH_DRAW"                     # KZ-3.1, KZ-6.2
        PH_GOD_DRAW "KZ_PH_GOD_DRAW"             # KZ-6.2: the holder looked at the stocks
        PH_DISCARD "KZ_PH_DISCARD"               # KZ-3.2, KZ-6.3, KZ-6.4
        PH_DECLARE "KZ_PH_DECLARE"               # KZ-3.3: end the turn, or go out with two sets
        PH_OVER "KZ_PH_OVER"
        NUM_PHASES "KZ_NUM_PHASES"
    enum:                                        # deal ends
        END_NONE "KZ_END_NONE"
        END_OUT "KZ_END_OUT"                     # someone went out (KZ-7)
        END_NO_DRAW "KZ_END_NO_DRAW"             # KZ-3.4: the player to draw can draw nothing
        END_MAX_TURNS "KZ_END_MAX_TURNS"         # KZ-3.5
        NUM_DEAL_ENDS "KZ_NUM_DEAL_ENDS"
    enum:                                        # the deal plan's zones
        Z_HAND "KZ_Z_HAND"                       # which = seat (KZ-2.4)
        Z_DISCARD "KZ_Z_DISCARD"                 # which = pile: starts its discard pile (KZ-2.7)
        Z_STOCK "KZ_Z_STOCK"                     # which = pile, depth = place from the top (KZ-2.5)
        Z_SET_ASIDE "KZ_Z_SET_ASIDE"             # pile 1 of a 2-3 player deal (KZ-2.6)
    enum:                                        # the observation's layout
        SEATS "KZ_OBS_SEATS"
        WILDS "KZ_OBS_WILDS"
        O_OBSERVER "KZ_O_OBSERVER"
        O_TO_MOVE "KZ_O_TO_MOVE"
        O_PHASE "KZ_O_PHASE"
        O_HAND "KZ_O_HAND"
        O_HAND_SIZES "KZ_O_HAND_SIZES"
        O_SCORES "KZ_O_SCORES"
        O_WILD "KZ_O_WILD"
        O_TURN_UP "KZ_O_TURN_UP"
        O_DISCARD_COUNTS "KZ_O_DISCARD_COUNTS"
        O_DISCARD_TOP "KZ_O_DISCARD_TOP"
        O_DISCARD_ORDER "KZ_O_DISCARD_ORDER"
        O_PILES_IN_PLAY "KZ_O_PILES_IN_PLAY"
        O_MY_PILE "KZ_O_MY_PILE"
        O_PILE_OF "KZ_O_PILE_OF"
        O_STOCK_SIZES "KZ_O_STOCK_SIZES"
        O_DEALER "KZ_O_DEALER"
        O_FIRST "KZ_O_FIRST"
        O_DEAL "KZ_O_DEAL"
        O_TURNS_IN_DEAL "KZ_O_TURNS_IN_DEAL"
        O_GOD_HOLDER "KZ_O_GOD_HOLDER"
        O_CHIPS "KZ_O_CHIPS"
        O_POT "KZ_O_POT"
        O_BEST_VALUE "KZ_O_BEST_VALUE"
        O_BEST_SETS "KZ_O_BEST_SETS"
        O_LAST_END "KZ_O_LAST_END"
        O_LAST_WINNER "KZ_O_LAST_WINNER"
        O_LAST_WILD "KZ_O_LAST_WILD"
        O_LAST_SETS "KZ_O_LAST_SETS"
        O_LAST_SET_VALUES "KZ_O_LAST_SET_VALUES"
        O_LAST_HAND "KZ_O_LAST_HAND"
        O_LAST_HAND_POINTS "KZ_O_LAST_HAND_POINTS"
        O_LAST_TURN_UP_DOUBLED "KZ_O_LAST_TURN_UP_DOUBLED"
        O_LAST_GOD_DOUBLED "KZ_O_LAST_GOD_DOUBLED"
        O_LAST_TOTAL "KZ_O_LAST_TOTAL"
        O_LAST_POT "KZ_O_LAST_POT"
        OBSERVATION_SIZE "KZ_OBSERVATION_SIZE"
    enum:                                        # GreedyBot's declaration wait
        G_WAIT_BELOW "KZ_G_WAIT_BELOW"
        G_WAIT_TURNS_PER_PLAYER "KZ_G_WAIT_TURNS_PER_PLAYER"
    enum:
        KZ_NUM_OPTIONS

    ctypedef struct KZOptions:
        int32_t dealer                     # KZ-2.1: first dealer, -1 = by lot
        bint adjacent_piles                # KZ-2.6: pile_pairing == "adjacent"
        bint reshuffle                     # KZ-3.4
        int32_t max_turns                  # KZ-3.5
        int32_t deals                      # KZ-7.5: scored deals that end the match, 0 = play to target
        int64_t target                     # KZ-7.5
        int64_t ante                       # KZ-7.6
        bint immediate                     # KZ-3.3: going_out == "immediate"
        bint three_four                    # KZ-7.1: sets == "three_and_four"
        bint god_place                     # KZ-6.2: god_draw == "position"

    ctypedef struct DealPlan "KZDealPlan":
        # Where each deck position (top card first) goes; position 0 is also the turn-up.
        uint8_t zone[DECK_SIZE]
        uint8_t which[DECK_SIZE]
        uint8_t depth[DECK_SIZE]
        int32_t stock_size[NUM_STOCKS]

    ctypedef struct KZState:               # kernel.h documents the fields
        Header h
        KZOptions opt
        uint8_t deck[DECK_SIZE]
        int32_t deals_scored
        int32_t first
        int32_t wild
        int32_t turn_up
        int32_t piles_in_play
        int32_t pile_of[MAX_PLAYERS]
        int32_t turns_in_deal
        int32_t god_public
        Multiset hand[MAX_PLAYERS]
        Pile stock[NUM_STOCKS]
        Pile discard[NUM_STOCKS]
        Multiset dead
        int64_t score[MAX_PLAYERS]
        int64_t chips[MAX_PLAYERS]
        int64_t pot
        Multiset known[MAX_PLAYERS]
        uint8_t stock_seen[NUM_STOCKS][DECK_SIZE]
        Multiset dead_seen
        int32_t look_seat
        uint64_t look_shown
        uint64_t look_gone
        int32_t last_end, last_winner, last_d1, last_d2, last_v1, last_v2, last_wild
        int64_t last_hand_points, last_total, last_pot
        bint last_god_doubled, last_turn_up_doubled
        int32_t last_hand_size
        uint8_t last_hand[HAND_SIZE + 1]


    const GameHooks KZ_HOOKS
    const GameKernel KZ_KERNEL
    int kz_init(void* state, int players, const int64_t* values) noexcept
    int kz_composition(const void* state, uint8_t* out) noexcept
    int kz_pair_id(int d1, int d2) noexcept
    void kz_named_pair(int index, int* d1, int* d2) noexcept
    void make_deal_plan "kz_make_deal_plan"(int players, int first, DealPlan* plan) noexcept
    int best_declaration "kz_best_declaration"(const KZState* s, const Multiset* hand, int* d1,
                                               int* d2) noexcept
    int card_points "kz_card_points"(int card) noexcept   # KZ-1.4

MAX_VOID_DEALS = KZ_MAX_VOID_DEALS

# The action ids as Python names (bots, tools, tests use these; the docstring above lists them).
DRAW_STOCK = A_DRAW_STOCK
DRAW_DISCARD = A_DRAW_DISCARD
GOD_LOOK = A_GOD_LOOK
GOD_DRAW_FIRST = FIRST_GOD_DRAW          # + card id (0..51)
DISCARD_FIRST = FIRST_DISCARD            # + card id (0..52)
GOD_DISCARD_FIRST = FIRST_GOD_DISCARD    # + card id (0..51)
END_TURN = A_END_TURN
GO_OUT = A_GO_OUT                        # the best declaration
GO_OUT_NAMED_FIRST = FIRST_NAMED         # + the named declaration's index
GOD_PLACE_FIRST = FIRST_GOD_PLACE        # + pile * 93 + depth (god_draw="position")


cdef int check_named_table() except -1:
    """kernel.c's named declarations against their definition (one id per unordered pair of
    descriptors, not both of 4 cards, ordered by (d1, d2)), checked at import."""
    cdef int d1, d2, a, b, i = FIRST_NAMED
    for d1 in range(KZ_NUM_DESCRIPTORS):
        for d2 in range(d1, KZ_NUM_DESCRIPTORS):
            if kz_desc_size(d1) == 4 and kz_desc_size(d2) == 4:
                if kz_pair_id(d1, d2) != -1:
                    raise ImportError(f"Kuzanasta: descriptors {d1}, {d2} name no declaration")
                continue                  # 8 cards: a 7-card hand never shows two 4-card sets
            kz_named_pair(i - FIRST_NAMED, &a, &b)
            if kz_pair_id(d1, d2) != i or kz_pair_id(d2, d1) != i or a != d1 or b != d2:
                raise ImportError(f"Kuzanasta: the named declaration {i} is not {d1}, {d2}")
            i += 1
    if i != NUM_ACTIONS:
        raise ImportError(f"Kuzanasta: {i - FIRST_NAMED} named declarations, not {NUM_NAMED}")
    return 0

check_named_table()


def num_actions() -> int:
    """The action space of the default configuration (every one but god_draw="position")."""
    return NUM_ACTIONS


def place_actions() -> list:
    """(pile, depth) of the ids 2970.. that god_draw="position" adds (KZ-6.2)."""
    return [(i // DECK_SIZE, i % DECK_SIZE) for i in range(NUM_PLACE_ACTIONS)]


def action_table() -> list:
    """One tuple per id: (kind, card id or None, (descriptor, descriptor) or None)."""
    table = [("draw_stock", None, None), ("draw_discard", None, None), ("god_look", None, None)]
    table += [("god_draw", c, None) for c in range(52)]
    table += [("discard", c, None) for c in range(53)]
    table += [("god_discard", c, None) for c in range(52)]
    table += [("end_turn", None, None), ("go_out", None, None)]
    cdef int i, d1, d2
    for i in range(NUM_NAMED):
        kz_named_pair(i, &d1, &d2)
        table.append(("go_out", None, (d1, d2)))
    assert len(table) == NUM_ACTIONS
    return table


def named_declaration_id(int d1, int d2) -> int:
    """The action id naming sets d1 and d2 (either order); ValueError if there is none."""
    cdef int i = kz_pair_id(d1, d2)
    if i < 0:
        raise ValueError(f"no declaration id for descriptors {d1}, {d2}")
    return i


# ---------------------------------------------------------------- phases and deal ends
PHASES = ("draw", "god_draw", "discard", "declare", "over")
DEAL_END_NAMES = (None, "went_out", "no_draw", "max_turns")

# ---------------------------------------------------------------- options
cdef int resolve_options(int64_t* values, dict options) except -1:
    """The wrapper's checked options (every key present; their defaults live in one place,
    the wrapper's options_spec) as the C ABI's values, one per option of KZ_KERNEL: a flag
    0/1, a choice its index, an int its value, None OPTION_NONE. kz_init sets the struct from
    them, for Python as for the ABI."""
    cdef int i, k
    cdef const OptionSpec* spec
    names = [(<bytes>KZ_KERNEL.options[i].name).decode() for i in range(KZ_KERNEL.num_options)]
    missing = set(names) - options.keys()
    if missing:
        raise ValueError(f"missing Kuzanasta options: {sorted(missing)}")
    for i in range(KZ_KERNEL.num_options):
        spec = &KZ_KERNEL.options[i]
        value = options[names[i]]
        if spec.kind == OPT_FLAG:
            values[i] = 1 if value else 0
        elif spec.kind == OPT_CHOICE:
            choices = [(<bytes>spec.choices[k]).decode() for k in range(spec.num_choices)]
            if value not in choices:
                raise ValueError(f"Kuzanasta option {names[i]}: {value!r} is not one of {choices}")
            values[i] = choices.index(value)
        else:
            values[i] = OPTION_NONE if value is None else value
    return 0

# ---------------------------------------------------------------- the deal plan (KZ-2.3..2.7)
ZONE_NAMES = ("hand", "discard", "stock", "set_aside")


def deal_plan(int players, options, int dealer) -> list:
    """Where each deck position (top card first) goes in a deal with this dealer: "turn_up"
    (position 0: shown to everybody, KZ-2.3, then returned into stock 0), "hand:<seat>",
    "discard:<pile>" (the card that starts that discard pile), "stock:<pile>" (face down, the
    positions in deck order are the stock from its top down) or "set_aside" (KZ-2.6). No
    option changes the layout (pile_pairing decides who uses a pile, not where cards go)."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}")
    if not 0 <= dealer < players:
        raise ValueError(f"dealer {dealer} is not a seat of {players} players")
    cdef DealPlan plan_data
    cdef const DealPlan* plan = &plan_data
    make_deal_plan(players, (dealer + 1) % players, &plan_data)
    out = ["turn_up"]
    for i in range(1, DECK_SIZE):
        name = ZONE_NAMES[plan.zone[i]]
        out.append(name if plan.zone[i] == Z_SET_ASIDE else f"{name}:{plan.which[i]}")
    return out


# ---------------------------------------------------------------- the per-seat projection
# The observation: exactly what view(seat) shows (KZ-8), as floats (kz_observe in kernel.c).
# Seats are absolute and padded to 4, piles padded to 2; "counts" are copies per card id
# 0..52. One source for the layout: the offsets of kernel.h (KZ_O_*), and OBSERVATION_PIECES
# below (documented in games/kuzanasta.md).
OBSERVATION_PIECES = (
    ("observer", O_OBSERVER, SEATS), ("current_player", O_TO_MOVE, SEATS),
    ("phase", O_PHASE, NUM_PHASES), ("hand", O_HAND, NUM_KINDS), ("hand_sizes", O_HAND_SIZES, SEATS),
    ("scores", O_SCORES, SEATS), ("wild_rank", O_WILD, WILDS), ("turn_up", O_TURN_UP, NUM_KINDS),
    ("discard_counts", O_DISCARD_COUNTS, NUM_STOCKS * NUM_KINDS),
    ("discard_tops", O_DISCARD_TOP, NUM_STOCKS * NUM_KINDS),
    ("discard_order", O_DISCARD_ORDER, NUM_STOCKS * DECK_SIZE),
    ("piles_in_play", O_PILES_IN_PLAY, 1), ("my_pile", O_MY_PILE, NUM_STOCKS),
    ("pile_of", O_PILE_OF, SEATS * NUM_STOCKS), ("stock_sizes", O_STOCK_SIZES, NUM_STOCKS),
    ("dealer", O_DEALER, SEATS), ("first_player", O_FIRST, SEATS), ("deal", O_DEAL, 1),
    ("turns_in_deal", O_TURNS_IN_DEAL, 1), ("god_holder", O_GOD_HOLDER, SEATS + 1),
    ("chips", O_CHIPS, SEATS), ("pot", O_POT, 1), ("best_value", O_BEST_VALUE, 1),
    ("best_sets", O_BEST_SETS, KZ_NUM_DESCRIPTORS),
    ("last_end", O_LAST_END, NUM_DEAL_ENDS), ("last_winner", O_LAST_WINNER, SEATS),
    ("last_wild_rank", O_LAST_WILD, WILDS), ("last_sets", O_LAST_SETS, KZ_NUM_DESCRIPTORS),
    ("last_set_values", O_LAST_SET_VALUES, 2), ("last_hand", O_LAST_HAND, NUM_KINDS),
    ("last_hand_points", O_LAST_HAND_POINTS, 1),
    ("last_turn_up_doubled", O_LAST_TURN_UP_DOUBLED, 1),
    ("last_god_doubled", O_LAST_GOD_DOUBLED, 1), ("last_total", O_LAST_TOTAL, 1),
    ("last_pot", O_LAST_POT, 1),
)


# ---------------------------------------------------------------- GreedyBot's policy
# (kz_greedy in kernel.c; cardcore.games.kuzanasta.greedy documents it)
WAIT_BELOW = G_WAIT_BELOW
WAIT_TURNS_PER_PLAYER = G_WAIT_TURNS_PER_PLAYER

# ---------------------------------------------------------------- the scoring breakdown (KZ-7)
# The rows' words (kz_breakdown in kernel.c writes their indexes).
BREAKDOWN_WHAT = ("set {detail}", "card points left in the other hands",
                  "card points left in the other hands (doubled: joker turn-up)",
                  "doubled: went out holding the joker")
BREAKDOWN_RULES = ("KZ-7.4", "KZ-7.2", "KZ-7.2, KZ-2.3", "KZ-7.3")

# The hook table is kernel.c's KZ_HOOKS: checked here at import as every game's is.
check_hooks(&KZ_HOOKS)
if KZ_KERNEL.deck_size != DECK_SIZE:
    raise ImportError("Kuzanasta: the C ABI's deck size is not the game's")


# ---------------------------------------------------------------- the Python-visible state
cdef class KuzanastaState(GameState):
    """Kuzanasta: the struct above, bound to the framework; getters for the view."""
    cdef KZState d

    match_end_rule = "KZ-7.5"
    breakdown_what = BREAKDOWN_WHAT
    breakdown_rules = BREAKDOWN_RULES
    refusals = Refusals(_REFUSALS)  # the templates of the kernel's refusals (kz_refuse)

    def __cinit__(self, *args, **kwargs):
        memset(&self.d, 0, sizeof(KZState))
        self.bind(&KZ_HOOKS, &self.d, &self.d.h)

    def __init__(self, int players, dict options, deck=None):
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ValueError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}")
        cdef int64_t values[KZ_NUM_OPTIONS]
        composition = kuzanasta_deck()
        init_header(&self.d.h, players, deck, composition)
        resolve_options(values, options)
        if kz_init(&self.d, players, values) < 0:
            raise ValueError(f"Kuzanasta options out of range: {options}")

    @property
    def deals_scored(self) -> int:
        return self.d.deals_scored

    def hand(self, p) -> list:
        return ms_to_list(&self.d.hand[self.check_seat(p)])

    def hand_sizes(self) -> list:
        return [self.d.hand[p].total for p in range(self.d.h.players)]

    def discards(self) -> list:
        """The discard piles in play, each bottom -> top."""
        return [pile_to_list(&self.d.discard[k]) for k in range(self.d.piles_in_play)]

    def stock(self, int pile) -> list:
        """A stock pile top-first (hidden information: for tests and tools only)."""
        if not 0 <= pile < NUM_STOCKS:
            raise ValueError(f"stock pile {pile} out of range")
        return pile_to_list(&self.d.stock[pile])[::-1]

    def stock_sizes(self) -> list:
        return [self.d.stock[k].size for k in range(self.d.piles_in_play)]

    def dead(self) -> list:
        return ms_to_list(&self.d.dead)

    def known_cards(self, p) -> list:
        """The cards everybody knows seat p holds (taken face up, or drawn from a stock place
        everybody knew; the joker once revealed), for sample_hidden and its tests."""
        return ms_to_list(&self.d.known[self.check_seat(p)])

    def pile_of(self, p) -> int:
        return self.d.pile_of[self.check_seat(p)]

    @property
    def piles_in_play(self) -> int:
        return self.d.piles_in_play

    @property
    def wild_rank(self):
        return None if self.d.wild == KZ_NO_WILD else self.d.wild

    @property
    def turn_up(self) -> int:
        return self.d.turn_up

    @property
    def first_player(self) -> int:
        return self.d.first

    @property
    def turns_in_deal(self) -> int:
        return self.d.turns_in_deal

    @property
    def god_public(self):
        """The seat known to hold the joker (KZ-8), or None."""
        return None if self.d.god_public < 0 else self.d.god_public

    @property
    def pot(self) -> int:
        return self.d.pot

    def chips(self) -> list:
        return [self.d.chips[p] for p in range(self.d.h.players)]

    def best_sets(self, p) -> tuple:
        """(total, d1, d2) of the best declaration the option ``sets`` allows in seat p's hand
        now (0, -1, -1 if none)."""
        cdef int d1, d2, q = self.check_seat(p)
        cdef int v = best_declaration(&self.d, &self.d.hand[q], &d1, &d2)
        return (v, d1, d2)

    def last_deal(self):
        """The last finished deal, or None before the first one ends."""
        if self.d.last_end == END_NONE:
            return None
        out = {"end": DEAL_END_NAMES[self.d.last_end], "winner": None,
               "wild_rank": None if self.d.last_wild == KZ_NO_WILD else self.d.last_wild}
        if self.d.last_end == END_OUT:
            out.update({
                "winner": self.d.last_winner,
                "sets": [(self.d.last_d1, self.d.last_v1), (self.d.last_d2, self.d.last_v2)],
                "hand": [self.d.last_hand[i] for i in range(self.d.last_hand_size)],
                "hand_points": self.d.last_hand_points,
                "turn_up_doubled": bool(self.d.last_turn_up_doubled),
                "god_doubled": bool(self.d.last_god_doubled),
                "total": self.d.last_total,
                "pot": self.d.last_pot,
            })
        return out

    def all_cards(self) -> list:
        cards = []
        for p in range(self.d.h.players):
            cards += self.hand(p)
        for k in range(NUM_STOCKS):
            cards += pile_to_list(&self.d.stock[k])
            cards += pile_to_list(&self.d.discard[k])
        return cards + self.dead()


check_state_class(KuzanastaState)


def kuzanasta_deck() -> list:
    """KZ-1.1: deck A (52 cards), deck B without J, Q, K (40 cards), one joker."""
    return build_deck([range(13), range(R_JACK)], 1)


def card_points_of(int card) -> int:
    """KZ-1.4 card points."""
    if not 0 <= card < NUM_KINDS:
        raise ValueError(f"card id out of range: {card}")
    return card_points(card)


def max_deal_total(int players) -> int:
    """The most one deal can score (KZ-7.2..7.4): two sets of the dearest row, every other
    hand of 7 cards at the highest card points, doubled after a joker turn-up, and the whole
    doubled when the winner holds the joker. A bound, not always reachable."""
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(f"players must be {MIN_PLAYERS}..{MAX_PLAYERS}")
    from cardcore.games.kuzanasta._sets import KZ_ROW_VALUES
    best_card = max(card_points(c) for c in range(NUM_KINDS))
    hands = (players - 1) * HAND_SIZE * best_card
    return (2 * max(KZ_ROW_VALUES) + GOD_DOUBLING * hands) * GOD_DOUBLING


def min_deal_total() -> int:
    """The least a scored deal adds to its winner (KZ-7.1, KZ-7.4): a 7-card hand cannot
    show two 4-card sets, so the cheapest declaration is the cheapest 3-card row plus the
    cheapest row of all; counted hands and doubling only add. It bounds the scored deals of
    a match played to a target (KZ-7.8)."""
    from cardcore.games.kuzanasta._sets import KZ_ROW_VALUES
    three_card_rows = KZ_ROW_VALUES[1:5]              # KZ-5.3 rows 1-4
    return min(three_card_rows) + min(KZ_ROW_VALUES[1:])


def actions_per_turn() -> int:
    """At most 4 actions make a turn (KZ-3.1..3.3, KZ-6.2): god_look, god_draw, a discard and
    the declare step (end_turn or go_out); a plain draw is one action instead of two. (Fewer
    with going_out="immediate", no declare step, or god_draw="position", one draw action.)"""
    return 4


cdef int check_composition() except -1:
    """The C kernel's deck (kz_init, the C ABI) is kuzanasta_deck() (KZ-1.1), checked at import."""
    cdef uint8_t cards[DECK_SIZE]
    cdef int i, n = kz_composition(NULL, cards)
    if [cards[i] for i in range(n)] != kuzanasta_deck():
        raise ImportError("Kuzanasta: the C kernel's deck is not kuzanasta_deck()")
    return 0

check_composition()
