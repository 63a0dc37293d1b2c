# cython: language_level=3
"""C-level core shared by every game: card ids, bitsets, multisets, piles, the seeded RNG.

Card id (one definition for the whole library):
    id = suit * 13 + rank        rank 0..12 = A 2 3 4 5 6 7 8 9 10 J Q K, suit 0..3 = C S D H
    id = 52                      the joker
A 64-bit mask holds one bit per id (bit 52 = joker). Multi-deck collections are multisets:
a count per id plus bit-planes (plane k = the ids present more than k times), so counting by
rank, suit or colour is a handful of popcounts.
"""
from libc.math cimport INFINITY
from libc.stdint cimport uint8_t, int16_t, int32_t, int64_t, uint32_t, uint64_t

cdef enum:
    NUM_RANKS = 13
    NUM_SUITS = 4
    NUM_KINDS = 53          # 52 natural ids + the joker
    JOKER = 52
    MS_MAX_COPIES = 8       # a Multiset holds up to 8 copies of an id (games check their decks fit)
    PILE_CAPACITY = 256     # a Pile holds up to 256 cards (games check their decks fit)
    CHOSEN_CAPACITY = 16    # the most hand cards one action takes by count or rank (Header.chosen)

# Rank indexes, for readable game code.
cdef enum:
    R_ACE = 0
    R_TWO = 1
    R_THREE = 2
    R_SEVEN = 6
    R_TEN = 9
    R_JACK = 10
    R_QUEEN = 11
    R_KING = 12

cdef enum:
    CLUBS = 0
    SPADES = 1
    DIAMONDS = 2
    HEARTS = 3

cdef extern from *:
    """
    /* Portable 64-bit popcount: builtin where the compiler has one, SWAR elsewhere (MSVC). */
    #if defined(__GNUC__) || defined(__clang__)
    static inline int cardcore_popcount64(unsigned long long x) { return __builtin_popcountll(x); }
    #else
    static inline int cardcore_popcount64(unsigned long long x) {
        x = x - ((x >> 1) & 0x5555555555555555ULL);
        x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
        x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
        return (int)((x * 0x0101010101010101ULL) >> 56);
    }
    #endif
    /* Index of the lowest set bit; x must not be 0. */
    #if defined(__GNUC__) || defined(__clang__)
    static inline int cardcore_ctz64(unsigned long long x) { return __builtin_ctzll(x); }
    #else
    static inline int cardcore_ctz64(unsigned long long x) { int n = 0; while (!(x & 1ULL)) { x >>= 1; n++; } return n; }
    #endif
    """
    int cardcore_popcount64(unsigned long long x) noexcept nogil
    int cardcore_ctz64(unsigned long long x) noexcept nogil

# ---------------------------------------------------------------- card ids
cdef inline int card_rank(int card) noexcept nogil:
    """Rank index 0..12 of a natural card; -1 for the joker."""
    return card % 13 if card < JOKER else -1

cdef inline int card_suit(int card) noexcept nogil:
    """Suit index 0..3 of a natural card; -1 for the joker."""
    return card // 13 if card < JOKER else -1

cdef inline int make_card(int suit, int rank) noexcept nogil:
    return suit * 13 + rank

cdef inline bint is_red_suit(int suit) noexcept nogil:
    return suit == DIAMONDS or suit == HEARTS

# ---------------------------------------------------------------- 64-bit card masks
cdef inline uint64_t card_bit(int card) noexcept nogil:
    return (<uint64_t>1) << card

cdef inline uint64_t rank_mask(int rank) noexcept nogil:
    """Bits of the four natural cards of a rank (bits rank, 13+rank, 26+rank, 39+rank)."""
    return (<uint64_t>0x8004002001) << rank

cdef inline uint64_t suit_mask(int suit) noexcept nogil:
    return (<uint64_t>0x1FFF) << (13 * suit)

cdef inline uint64_t colour_mask(bint red) noexcept nogil:
    return (suit_mask(DIAMONDS) | suit_mask(HEARTS)) if red else (suit_mask(CLUBS) | suit_mask(SPADES))

cdef inline int popcount64(uint64_t x) noexcept nogil:
    return cardcore_popcount64(x)

cdef inline int lowest_card(uint64_t mask) noexcept nogil:
    """The smallest card id in a non-empty mask (iterate with mask &= mask - 1)."""
    return cardcore_ctz64(mask)

# ---------------------------------------------------------------- multisets
ctypedef struct Multiset:
    uint8_t count[NUM_KINDS]
    uint64_t plane[MS_MAX_COPIES]    # plane[k] has bit c set iff count[c] > k; planes nest
    int32_t total

cdef void ms_clear(Multiset* m) noexcept nogil

cdef inline bint ms_add(Multiset* m, int card) noexcept nogil:
    """Add one copy; returns False (and changes nothing) if the id or the copy count is out of range."""
    if card < 0 or card >= NUM_KINDS or m.count[card] >= MS_MAX_COPIES:
        return False
    m.plane[m.count[card]] |= card_bit(card)
    m.count[card] += 1
    m.total += 1
    return True

cdef inline bint ms_remove(Multiset* m, int card) noexcept nogil:
    """Remove one copy; returns False (and changes nothing) if there is none."""
    if card < 0 or card >= NUM_KINDS or m.count[card] == 0:
        return False
    m.count[card] -= 1
    m.plane[m.count[card]] &= ~card_bit(card)
    m.total -= 1
    return True

cdef inline int ms_count(const Multiset* m, int card) noexcept nogil:
    if card < 0 or card >= NUM_KINDS:
        return 0
    return m.count[card]

cdef inline int ms_count_mask(const Multiset* m, uint64_t mask) noexcept nogil:
    """Number of cards (copies included) whose id is in mask: one popcount per non-empty plane."""
    cdef int k = 0, n = 0
    while k < MS_MAX_COPIES and m.plane[k] != 0:
        n += popcount64(m.plane[k] & mask)
        k += 1
    return n

cdef inline int ms_count_rank(const Multiset* m, int rank) noexcept nogil:
    return ms_count_mask(m, rank_mask(rank))

cdef inline int ms_count_suit(const Multiset* m, int suit) noexcept nogil:
    return ms_count_mask(m, suit_mask(suit))

cdef inline uint64_t ms_support(const Multiset* m) noexcept nogil:
    """The set of ids present at least once (plane 0)."""
    return m.plane[0]

cdef int ms_to_array(const Multiset* m, uint8_t* out) noexcept nogil
cdef list ms_to_list(const Multiset* m)          # card ids in id order, copies repeated

# ---------------------------------------------------------------- ordered piles
ctypedef struct Pile:
    uint8_t cards[PILE_CAPACITY]     # bottom -> top; the top card is cards[size - 1]
    int32_t size

cdef inline bint pile_push(Pile* p, int card) noexcept nogil:
    if p.size >= PILE_CAPACITY or card < 0 or card >= NUM_KINDS:
        return False
    p.cards[p.size] = <uint8_t>card
    p.size += 1
    return True

cdef inline int pile_pop(Pile* p) noexcept nogil:
    """Remove and return the top card; -1 if the pile is empty."""
    if p.size <= 0:
        return -1
    p.size -= 1
    return p.cards[p.size]

cdef inline int pile_top(const Pile* p) noexcept nogil:
    return p.cards[p.size - 1] if p.size > 0 else -1

cdef inline int pile_copy(const Pile* p, uint8_t* out) noexcept nogil:
    """Write the pile's cards (bottom -> top) to out; returns how many."""
    cdef int i
    for i in range(p.size):
        out[i] = p.cards[i]
    return p.size

cdef list pile_to_list(const Pile* p)            # card ids bottom -> top
cdef int load_cards(uint8_t* dst, object cards, int capacity) except -1   # checked copy

# ---------------------------------------------------------------- seeded RNG (PCG32)
ctypedef struct Rng:
    uint64_t state
    uint64_t inc       # stream selector, always odd

cdef void rng_seed(Rng* r, uint64_t seed) noexcept nogil

cdef inline uint32_t rng_next32(Rng* r) noexcept nogil:
    """PCG32 (XSH RR): O'Neill's reference generator, identical on every platform."""
    cdef uint64_t old = r.state
    r.state = old * 6364136223846793005ULL + r.inc
    cdef uint32_t xorshifted = <uint32_t>(((old >> 18) ^ old) >> 27)
    cdef uint32_t rot = <uint32_t>(old >> 59)
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31))

cdef inline uint32_t rng_below(Rng* r, uint32_t n) noexcept nogil:
    """Unbiased integer in [0, n) by Lemire's multiply-and-reject; n must be >= 1."""
    cdef uint64_t m = <uint64_t>rng_next32(r) * n
    cdef uint32_t low = <uint32_t>m
    cdef uint32_t threshold
    if low < n:
        threshold = (<uint32_t>(-n)) % n
        while low < threshold:
            m = <uint64_t>rng_next32(r) * n
            low = <uint32_t>m
    return <uint32_t>(m >> 32)


ctypedef struct BestPick:
    # The highest-valued offer so far (index -1 before any), and how many offers share its
    # value: rollout policies pick their move with it, ties broken uniformly.
    int index
    int value
    uint32_t ties

cdef inline void best_pick_init(BestPick* b) noexcept nogil:
    b.index = -1
    b.value = 0
    b.ties = 0

cdef inline void best_pick_offer(BestPick* b, int index, int value, Rng* rng) noexcept nogil:
    """Keep ``index`` if its value is higher; among equal values each offer is kept with
    probability 1/ties (reservoir sampling: a uniform pick among the ties)."""
    if b.index < 0 or value > b.value:
        b.index = index
        b.value = value
        b.ties = 1
    elif value == b.value:
        b.ties += 1
        if rng_below(rng, b.ties) == 0:
            b.index = index

cdef inline int best_by_value(const double* values, int n, Rng* rng, int32_t* ties) noexcept nogil:
    """The index of the highest of values[0:n]; values within 1e-9 of it are ties, broken
    uniformly with one draw from ``rng``, only when there is a tie (``cardcore.game.best_by``
    in C: how a float-valued greedy heuristic chooses). ``ties`` is n-long scratch; -1 if n is 0."""
    cdef double best = -INFINITY
    cdef int k, count = 0
    for k in range(n):
        if values[k] > best + 1e-9:
            best = values[k]
            ties[0] = k
            count = 1
        elif values[k] > best - 1e-9:
            ties[count] = k
            count += 1
    if count == 0:
        return -1
    if count == 1:
        return ties[0]
    return ties[rng_below(rng, <uint32_t>count)]

cdef void shuffle_u8(Rng* r, uint8_t* cards, int n) noexcept nogil

# ---------------------------------------------------------------- Python-visible generator
cdef class Random:
    cdef Rng rng
    cpdef uint32_t below(self, uint32_t n) except? 0

# ---------------------------------------------------------------- the state machine framework
# Every game's state is one C struct whose member ``h`` is this header; the game's rules are
# ``noexcept nogil`` functions over a pointer to that struct, reached through a GameHooks
# table. The lifecycle (start, checked apply, clone, seats, winners, the random playout) is
# written once, in GameState below, on top of the header and the hooks.
ctypedef struct Header:          # the FIRST member of every game's struct
    int32_t players
    int32_t phase            # the game's own phase index
    int32_t to_move          # the seat to move; -1 once the match is over (that IS "over")
    int32_t round_index      # rounds / deals / hands finished
    int32_t dealer           # the seat that dealt or began the current round
    int64_t actions_applied  # kept by the framework, never by a game
    int64_t turns            # a game adds one each time the turn passes
    Rng rng                  # the game's generator: shuffles and draws by lot
    int32_t stacked_size     # > 0: the first deal uses stacked[0:stacked_size] (top first)
    uint8_t stacked[PILE_CAPACITY]
    # The exact hand cards of ``Game.apply(..., cards=)``: set only for the one apply (and the
    # check before it) and cleared after, so the playouts, VectorGame and search never see it
    # set. A game's hand-removal helper takes these first where they fit (``chosen_card``).
    int32_t chosen_size
    uint8_t chosen[CHOSEN_CAPACITY]

# What a seat may know, defined once per game: the game's card zones and who sees each. The
# JSON view, the tensor, the events and sample_hidden all follow from this table (and the
# generic tests check them against it).
cdef enum ZoneScope:
    ZONE_SHARED = 0          # one instance: the stock, the table
    ZONE_SEAT = 1            # one per seat: a hand, a foot, a penalty pile
    ZONE_TEAM = 2            # one per side (Game.sides_of, GameState.set_sides): a team's melds
    ZONE_PILE = 3            # ``instances`` numbered piles
cdef enum ZoneSight:
    SEEN_BY_ALL = 0          # face up, or face down but public by the play (every seat knows it)
    SEEN_BY_OWNER = 1        # the owning seat (a team zone: its side) knows its cards; others its size
    SEEN_BY_NONE = 2         # face down: every seat knows its size, none its cards

ctypedef struct ZoneSpec:
    const char* name
    int scope                # a ZoneScope
    int instances            # ZONE_PILE: how many (the other scopes: from the seats)
    int sight                # a ZoneSight

# A scoring breakdown row, written by the game's scoring itself when a round ends (so that no
# narrator recomputes a rule): who, what (an index into the game's BREAKDOWN_WHAT words),
# which rule (an index into its BREAKDOWN_RULES), how many (-1: not a count) and the points;
# ``detail`` is the game's own (e.g. which set), -1 if none.
ctypedef struct BreakdownRow:
    int32_t owner            # a seat, or a side for a game that scores by side
    int32_t what
    int32_t rule
    int32_t detail
    int64_t count
    int64_t points

ctypedef void (*start_fn)(void* s) noexcept nogil
ctypedef int (*legal_fn)(void* s, int32_t* out, int capacity) noexcept nogil
ctypedef void (*apply_fn)(void* s, int action) noexcept nogil
ctypedef int (*observation_size_fn)(const void* s) noexcept nogil
ctypedef void (*observe_fn)(const void* s, int seat, float* out) noexcept nogil
ctypedef void (*returns_fn)(const void* s, double* out) noexcept nogil
ctypedef void (*scores_fn)(const void* s, int32_t* out) noexcept nogil
ctypedef int (*sample_hidden_fn)(void* s, int seat, Rng* rng) noexcept nogil
ctypedef int (*rollout_fn)(const void* s, const int32_t* legal, int n, Rng* rng) noexcept nogil
ctypedef int (*zone_cards_fn)(const void* s, int zone, int instance, uint8_t* out) noexcept nogil
ctypedef int (*known_cards_fn)(const void* s, int zone, int instance, uint8_t* out) noexcept nogil
ctypedef int (*breakdown_fn)(const void* s, BreakdownRow* out, int capacity) noexcept nogil
ctypedef int (*hand_cards_fn)(const void* s, int action, uint8_t* out) noexcept nogil

ctypedef struct GameHooks:
    const char* name
    size_t state_size           # sizeof the game's struct (clone copies exactly this)
    int num_actions             # ids are 0..num_actions-1
    int max_legal               # most legal actions at once: the scratch capacity
    start_fn start              # first dealer/player, then deal the first round
    legal_fn legal              # legal ids ascending; returns the count, or -1 if capacity is short
                                # (out past the count is scratch: its contents are unspecified)
    apply_fn apply              # apply an id that legal() offered
    observation_size_fn observation_size   # floats in observe()'s output for this configuration
    observe_fn observe          # the per-seat projection: only what that seat may know
    returns_fn returns          # per seat, higher is better: the final result once the match is
                                # over; before, the standing so far (search credits its change)
    scores_fn scores            # per seat, the scores the view shows (the game's own direction)
    sample_hidden_fn sample_hidden   # redeal what a seat cannot see; 0 on success
    rollout_fn rollout          # optional (NULL: uniform): the index in legal[0:n] of the move a
                                # search rollout plays; it may read the whole (sampled) world
    const ZoneSpec* zones       # the game's zones and who sees them, num_zones long
    int num_zones
    zone_cards_fn zone_cards    # a zone instance's cards (bottom -> top for a pile); the count
    known_cards_fn known_cards  # optional (NULL: none): the cards of a zone instance that every
                                # seat knows are there although it cannot see the zone (a card
                                # taken face up into a hand); the count
    breakdown_fn breakdown      # the rows of the last finished round's scoring; their count,
                                # -1 if capacity is short
    rollout_fn greedy           # required of a game (the contract, docs/adding-a-game.md; NULL
                                # only in a test fixture: no in-core greedy bot): the index in
                                # legal[0:n] of GreedyBot's move; unlike rollout it reads only what
                                # the seat to move may know (the blind tests check it), and it
                                # draws its tie-breaks from ``rng`` exactly as the documented
                                # heuristic does
    hand_cards_fn hand_cards    # optional (NULL: every action names its cards): for an action
                                # that takes cards from the hand of the seat to move by count
                                # or rank, the cards it would take now (the header's chosen
                                # cards first where they fit, CHOSEN_CAPACITY at most) and
                                # their count; HAND_CARDS_NAMED for an action that names its
                                # cards, HAND_CARDS_LACKING if the hand lacks them

cdef enum:
    ZONE_CAPACITY = PILE_CAPACITY    # the most cards a zone instance holds (its out buffer)
    HAND_CARDS_NAMED = -1            # hand_cards: the action names its cards (no choice)
    HAND_CARDS_LACKING = -2          # hand_cards: the hand lacks what the action takes
    MAX_BREAKDOWN_ROWS = 64          # the most rows a round's breakdown has

cdef inline int copy_breakdown(const BreakdownRow* rows, int n, BreakdownRow* out,
                               int capacity) noexcept nogil:
    """The whole breakdown hook of a game whose scoring keeps its rows: copy n of them,
    or -1 if capacity is short."""
    cdef int i
    if n > capacity:
        return -1
    for i in range(n):
        out[i] = rows[i]
    return n

cdef inline int chosen_card(const Header* h, uint64_t interchangeable, const uint8_t* held,
                             const uint8_t* picked) noexcept nogil:
    """The next card ``Game.apply(..., cards=)`` chose among the ``interchangeable`` ids (a
    mask: the cards any of which the action may take here) that the hand still ``held`` beyond
    the copies ``picked`` so far (both per id); -1 if none (the game then picks its own).
    Costs one load when nothing was chosen."""
    cdef int i, k, c, wanted
    for i in range(h.chosen_size):
        c = h.chosen[i]
        if c >= NUM_KINDS or not (interchangeable & card_bit(c)) or held[c] <= picked[c]:
            continue
        wanted = 0
        for k in range(h.chosen_size):
            if h.chosen[k] == c:
                wanted += 1
        if picked[c] < wanted:
            return c
    return -1

cdef int check_hooks(const GameHooks* hooks) except -1     # ImportError naming a missing hook
# A game's hook table, called once with every part as a keyword argument (rollout,
# known_cards and hand_cards may be NULL; ``greedy`` is required of a game:
# docs/adding-a-game.md); checked by check_hooks.
cdef GameHooks game_hooks(const char* name, size_t state_size, int num_actions, int max_legal,
                          start_fn start, legal_fn legal, apply_fn apply,
                          observation_size_fn observation_size, observe_fn observe,
                          returns_fn returns, scores_fn scores, sample_hidden_fn sample_hidden,
                          const ZoneSpec* zones, int num_zones, zone_cards_fn zone_cards,
                          breakdown_fn breakdown, rollout_fn greedy,
                          rollout_fn rollout, known_cards_fn known_cards,
                          hand_cards_fn hand_cards) except *
# A C-contiguous buffer of shape (rows,) (cols 0) or (rows, cols) of ``itemsize``-byte items in
# native byte order whose format is one of ``kinds`` (e.g. b"f" float32, b"B?" bytes/bools);
# ValueError naming ``what`` otherwise. Release it with PyBuffer_Release. (Plain buffers, not
# typed memoryviews: far less code in every module.)
cdef int get_buffer(object obj, Py_buffer* view, bint writable, Py_ssize_t itemsize, bytes kinds,
                    Py_ssize_t rows, Py_ssize_t cols, str what) except -1
cdef int init_header(Header* h, int players, object stacked, object composition) except -1
cdef void deal_prologue(Header* h, const uint8_t* composition, int n, uint8_t* deck_out) noexcept nogil
cdef long long play_random(void* s, const GameHooks* hooks, Rng* chooser, int32_t* scratch,
                           long long max_actions) noexcept nogil

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
    cdef int choose(self, object cards) except -1           # set the header's chosen cards
    cdef int zone_instances(self, int zone) noexcept
    cdef int zone_index(self, object name) except -1

