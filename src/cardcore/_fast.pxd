# cython: language_level=3
"""C-level core shared by every game: card ids, bitsets, multisets, piles, the seeded RNG.

Card id (one definition for the whole library):
    id = suit * 13 + rank        rank 0..12 = A 2 3 4 5 6 7 8 9 10 J Q K, suit 0..3 = C S D H
    id = 52                      the joker
A 64-bit mask holds one bit per id (bit 52 = joker). Multi-deck collections are multisets:
a count per id plus bit-planes (plane k = the ids present more than k times), so counting by
rank, suit or colour is a handful of popcounts.
"""
from libc.stdint cimport uint8_t, int8_t, int16_t, int32_t, int64_t, uint32_t, uint64_t

# The kernel interface in C (src/cardcore/core/kernel.h): what every game's kernel.c is
# written against, declared here for the Cython wrappers. Its functions are static inline in
# the header: every module compiles the same C.
cdef extern from "cardcore/core/kernel.h" nogil:
    enum:
        NUM_RANKS
        NUM_SUITS
        NUM_KINDS          # 52 natural ids + the joker
        JOKER
        MS_MAX_COPIES      # a Multiset holds up to 8 copies of an id
        PILE_CAPACITY      # a Pile holds up to 256 cards
        CHOSEN_CAPACITY    # the most hand cards one action takes by count or rank
    enum:
        R_ACE
        R_TWO
        R_THREE
        R_SEVEN
        R_TEN
        R_JACK
        R_QUEEN
        R_KING
    enum:
        CLUBS
        SPADES
        DIAMONDS
        HEARTS

    int cardcore_popcount64(unsigned long long x) noexcept
    int cardcore_ctz64(unsigned long long x) noexcept

    # card ids and 64-bit masks
    int card_rank(int card) noexcept
    int card_suit(int card) noexcept
    int make_card(int suit, int rank) noexcept
    bint is_red_suit(int suit) noexcept
    uint64_t card_bit(int card) noexcept
    uint64_t rank_mask(int rank) noexcept
    uint64_t suit_mask(int suit) noexcept
    uint64_t colour_mask(bint red) noexcept
    int popcount64(uint64_t x) noexcept
    int lowest_card(uint64_t mask) noexcept

    # multisets
    ctypedef struct Multiset:
        uint8_t count[NUM_KINDS]
        uint64_t plane[MS_MAX_COPIES]
        int32_t total
    void ms_clear(Multiset* m) noexcept
    bint ms_add(Multiset* m, int card) noexcept
    bint ms_remove(Multiset* m, int card) noexcept
    int ms_count(const Multiset* m, int card) noexcept
    int ms_count_mask(const Multiset* m, uint64_t mask) noexcept
    int ms_count_rank(const Multiset* m, int rank) noexcept
    int ms_count_suit(const Multiset* m, int suit) noexcept
    uint64_t ms_support(const Multiset* m) noexcept
    int ms_to_array(const Multiset* m, uint8_t* out) noexcept

    # ordered piles
    ctypedef struct Pile:
        uint8_t cards[PILE_CAPACITY]
        int32_t size
    bint pile_push(Pile* p, int card) noexcept
    int pile_pop(Pile* p) noexcept
    int pile_top(const Pile* p) noexcept
    int pile_copy(const Pile* p, uint8_t* out) noexcept

    # the seeded RNG (PCG32)
    ctypedef struct Rng:
        uint64_t state
        uint64_t inc
    void rng_seed(Rng* r, uint64_t seed) noexcept
    uint32_t rng_next32(Rng* r) noexcept
    uint32_t rng_below(Rng* r, uint32_t n) noexcept
    void shuffle_u8(Rng* r, uint8_t* cards, int n) noexcept

    ctypedef struct BestPick:
        int index
        int value
        uint32_t ties
    void best_pick_init(BestPick* b) noexcept
    void best_pick_offer(BestPick* b, int index, int value, Rng* rng) noexcept
    int best_by_value(const double* values, int n, Rng* rng, int32_t* ties) noexcept

    # the state machine framework
    ctypedef struct Header:
        int32_t players
        int32_t phase
        int32_t to_move
        int32_t round_index
        int32_t dealer
        int64_t actions_applied
        int64_t turns
        Rng rng
        int32_t stacked_size
        uint8_t stacked[PILE_CAPACITY]
        int32_t chosen_size
        uint8_t chosen[CHOSEN_CAPACITY]

    cdef enum ZoneScope:
        ZONE_SHARED
        ZONE_SEAT
        ZONE_TEAM
        ZONE_PILE
    cdef enum ZoneSight:
        SEEN_BY_ALL
        SEEN_BY_OWNER
        SEEN_BY_NONE

    ctypedef struct ZoneSpec:
        const char* name
        int scope
        int instances
        int sight

    ctypedef struct BreakdownRow:
        int32_t owner
        int32_t what
        int32_t rule
        int32_t detail
        int64_t count
        int64_t points

    # why an id is not legal now: a reason (an index into the game's words.REFUSALS), the
    # rule ID and the template's fields as ints (kernel.h says how each is shown)
    enum:
        REFUSAL_MAX_ARGS
    ctypedef struct Refusal:
        int32_t reason
        const char* rule
        int32_t nargs
        int32_t args[REFUSAL_MAX_ARGS]

    ctypedef void (*start_fn)(void* s) noexcept
    ctypedef int (*legal_fn)(void* s, int32_t* out, int capacity) noexcept
    ctypedef void (*apply_fn)(void* s, int action) noexcept
    ctypedef int (*observation_size_fn)(const void* s) noexcept
    ctypedef void (*observe_fn)(const void* s, int seat, float* out) noexcept
    ctypedef void (*returns_fn)(const void* s, double* out) noexcept
    ctypedef void (*scores_fn)(const void* s, int32_t* out) noexcept
    ctypedef int (*sample_hidden_fn)(void* s, int seat, Rng* rng) noexcept
    ctypedef int (*rollout_fn)(const void* s, const int32_t* legal, int n, Rng* rng) noexcept
    ctypedef int (*zone_cards_fn)(const void* s, int zone, int instance, uint8_t* out) noexcept
    ctypedef int (*known_cards_fn)(const void* s, int zone, int instance, uint8_t* out) noexcept
    ctypedef int (*breakdown_fn)(const void* s, BreakdownRow* out, int capacity) noexcept
    ctypedef int (*hand_cards_fn)(const void* s, int action, uint8_t* out) noexcept
    ctypedef long long (*play_fn)(void* s, Rng* chooser, int32_t* scratch, long long max_actions) noexcept
    ctypedef int (*refuse_fn)(const void* s, int32_t action, Refusal* out) noexcept
    enum:
        SOLVE_UNKNOWN      # solve: a move not searched (the first as good as any was found)
    ctypedef int (*solve_fn)(const void* s, const int32_t* legal, int n, int every,
                             int64_t budget, void* scratch, size_t scratch_bytes,
                             int8_t* values) noexcept

    ctypedef struct GameHooks:
        uint32_t size          # GAME_HOOKS_HEAD: the table's sizeof and version where built
        uint32_t version
        const char* name
        size_t state_size
        int num_actions
        int max_legal
        start_fn start
        legal_fn legal
        apply_fn apply
        observation_size_fn observation_size
        observe_fn observe
        returns_fn returns
        scores_fn scores
        sample_hidden_fn sample_hidden
        rollout_fn rollout
        const ZoneSpec* zones
        int num_zones
        zone_cards_fn zone_cards
        known_cards_fn known_cards
        breakdown_fn breakdown
        rollout_fn greedy
        hand_cards_fn hand_cards
        play_fn play
        refuse_fn refuse
        int num_refusals
        solve_fn solve         # version 2: read through hooks_solve

    # The hook table's version (kernel.h): which tables the core reads, and the optional
    # hooks added after version 1, NULL where a kernel's table ends before them.
    const int CARDCORE_HOOKS_VERSION
    const int CARDCORE_HOOKS_MIN_VERSION
    const size_t GAME_HOOKS_MIN_SIZE
    int hooks_compatible(const GameHooks* hooks) noexcept
    const char* hooks_name(const GameHooks* hooks) noexcept
    solve_fn hooks_solve(const GameHooks* hooks) noexcept

    enum:
        ZONE_CAPACITY
        HAND_CARDS_NAMED
        HAND_CARDS_LACKING
        MAX_BREAKDOWN_ROWS

    # A game as the C ABI sees it: its option table (each option resolved to one int64) and
    # the setup both Python's state and the ABI call (the game's xx_init)
    enum:
        OPT_FLAG
        OPT_CHOICE
        OPT_INT
        OPT_SEAT_OR_LOT
        OPT_PLAYERS_MULTIPLE
    const int64_t OPTION_NONE
    ctypedef struct OptionSpec:
        const char* name
        int kind
        const char* rule
        int64_t dflt
        int64_t lo
        int64_t hi
        int allow_none
        const char* const* choices
        int num_choices
        uint32_t players_mask
    ctypedef struct GameKernel:
        const GameHooks* hooks
        const OptionSpec* options
        int num_options
        int min_players
        int max_players
        int default_players
        int deck_size

    int copy_breakdown(const BreakdownRow* rows, int n, BreakdownRow* out, int capacity) noexcept
    int chosen_card(const Header* h, uint64_t interchangeable, const uint8_t* held,
                    const uint8_t* picked) noexcept
    void deal_prologue(Header* h, const uint8_t* composition, int n, uint8_t* deck_out) noexcept
    long long play_random(void* s, const GameHooks* hooks, Rng* chooser, int32_t* scratch,
                          long long max_actions) noexcept

# ---------------------------------------------------------------- Python-facing helpers
cdef list ms_to_list(const Multiset* m)          # card ids in id order, copies repeated
cdef list pile_to_list(const Pile* p)            # card ids bottom -> top
cdef int load_cards(uint8_t* dst, object cards, int capacity) except -1   # checked copy

# ---------------------------------------------------------------- Python-visible generator
cdef class Random:
    cdef Rng rng
    cpdef uint32_t below(self, uint32_t n) except? 0

cdef int check_hooks(const GameHooks* hooks) except -1     # ImportError naming a missing hook
# A game's hook table, called once with every part as a keyword argument (rollout,
# known_cards, hand_cards and refuse may be NULL; ``greedy`` is required of a game:
# docs/adding-a-game.md); checked by check_hooks.
cdef GameHooks game_hooks(const char* name, size_t state_size, int num_actions, int max_legal,
                          start_fn start, legal_fn legal, apply_fn apply,
                          observation_size_fn observation_size, observe_fn observe,
                          returns_fn returns, scores_fn scores, sample_hidden_fn sample_hidden,
                          const ZoneSpec* zones, int num_zones, zone_cards_fn zone_cards,
                          breakdown_fn breakdown, rollout_fn greedy,
                          rollout_fn rollout, known_cards_fn known_cards,
                          hand_cards_fn hand_cards, refuse_fn refuse=*,
                          int num_refusals=*) except *
# A C-contiguous buffer of shape (rows,) (cols 0) or (rows, cols) of ``itemsize``-byte items in
# native byte order whose format is one of ``kinds`` (e.g. b"f" float32, b"B?" bytes/bools);
# ValueError naming ``what`` otherwise. Release it with PyBuffer_Release. (Plain buffers, not
# typed memoryviews: far less code in every module.)
cdef int get_buffer(object obj, Py_buffer* view, bint writable, Py_ssize_t itemsize, bytes kinds,
                    Py_ssize_t rows, Py_ssize_t cols, str what) except -1
cdef int init_header(Header* h, int players, object stacked, object composition) except -1

cdef class GameState:
    """Base of every game's Cython state: the lifecycle, written once over Header + GameHooks."""
    cdef Header* h                 # the header inside the game's struct
    cdef void* data                # the game's struct
    cdef const GameHooks* hooks
    cdef int32_t* legal_buf        # scratch for legal ids, hooks.max_legal long
    cdef readonly tuple sides      # a side per seat (Game.sides_of): who sees a team zone
    cdef int bind(self, const GameHooks* hooks, void* data, Header* header) except -1
    cdef int ready(self) except -1          # TypeError on the bare base class
    cdef int fill_legal(self) except -1     # legal ids into legal_buf; their count
    cdef int apply_checked(self, object action_id) except -1   # apply a legal id, else raise
    cdef object refused(self, int action)   # the refuse hook's (reason, rule, args); legality not checked
    cdef int choose(self, object cards) except -1           # set the header's chosen cards
    cdef int zone_instances(self, int zone) noexcept
    cdef int zone_index(self, object name) except -1

