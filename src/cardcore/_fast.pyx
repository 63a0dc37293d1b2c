# cython: language_level=3, cdivision=True
"""The core: card ids, multisets, piles, the seeded PCG32 generator and Fisher-Yates shuffle.

Declarations and the inline kernels live in _fast.pxd so that game modules can cimport them;
this file holds the out-of-line parts and the small Python-visible wrappers used by the
public modules and by tests. Every entry point from Python checks its arguments before it
touches memory.
"""
from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_WRITABLE, PyBUF_SIMPLE
from libc.string cimport memset
from libc.stdint cimport uint8_t, uint32_t, uint64_t

NUM_CARD_KINDS = NUM_KINDS
JOKER_ID = JOKER
MAX_DECK_SIZE = MAX_CARDS
_MASK64 = (1 << 64) - 1


cdef void ms_clear(Multiset* m) noexcept nogil:
    memset(m, 0, sizeof(Multiset))


cdef int ms_to_array(const Multiset* m, uint8_t* out) noexcept nogil:
    """Write the cards in id order (copies repeated) to out; returns how many."""
    cdef int card, k, n = 0
    for card in range(NUM_KINDS):
        for k in range(m.count[card]):
            out[n] = <uint8_t>card
            n += 1
    return n


cdef list ms_to_list(const Multiset* m):
    cdef list out = []
    cdef int card
    for card in range(NUM_KINDS):
        if m.count[card]:
            out.extend([card] * m.count[card])
    return out


cdef list pile_to_list(const Pile* p):
    return [p.cards[i] for i in range(p.size)]


cdef int load_cards(uint8_t* dst, object cards, int capacity) except -1:
    """Copy a sequence of card ids into a C array, refusing what does not fit."""
    if len(cards) > capacity:
        raise ValueError(f"{len(cards)} cards do not fit in {capacity}")
    cdef int i = 0
    for c in cards:
        if not 0 <= c < NUM_KINDS:
            raise ValueError(f"card id out of range: {c!r}")
        dst[i] = <uint8_t>c
        i += 1
    return i


cdef inline uint64_t splitmix64(uint64_t* x) noexcept nogil:
    x[0] += 0x9E3779B97F4A7C15ULL
    cdef uint64_t z = x[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    return z ^ (z >> 31)


cdef void rng_seed(Rng* r, uint64_t seed) noexcept nogil:
    """PCG32 seeding (pcg32_srandom_r) with state and stream both derived from seed by splitmix64."""
    cdef uint64_t x = seed
    cdef uint64_t initstate = splitmix64(&x)
    cdef uint64_t initseq = splitmix64(&x)
    r.state = 0
    r.inc = (initseq << 1) | 1
    rng_next32(r)
    r.state += initstate
    rng_next32(r)


cdef void shuffle_u8(Rng* r, uint8_t* cards, int n) noexcept nogil:
    """Fisher-Yates from the top index down; every permutation equally likely."""
    cdef int i, j
    cdef uint8_t t
    i = n - 1
    while i > 0:
        j = <int>rng_below(r, <uint32_t>(i + 1))
        t = cards[i]
        cards[i] = cards[j]
        cards[j] = t
        i -= 1


def seed_to_u64(seed) -> int:
    """Fold a non-negative Python int of any size into 64 bits (the generator's seed)."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise TypeError(f"seed must be an int, not {type(seed).__name__}")
    if seed < 0:
        raise ValueError("seed must be a non-negative int")
    folded = 0
    while True:
        folded ^= seed & _MASK64
        seed >>= 64
        if not seed:
            return folded


cdef class Random:
    """The library's seeded generator: PCG32 (XSH RR, 64-bit state) with splitmix64 seeding.

    The same seed gives the same stream on every platform. ``state`` is a pair of ints that
    ``Random.from_state`` restores exactly (it is what Game.to_json() saves).
    """

    def __init__(self, seed=0):
        rng_seed(&self.rng, seed_to_u64(seed))

    @staticmethod
    def from_state(state) -> Random:
        try:
            s, inc = state
            s = int(s)
            inc = int(inc)
        except (TypeError, ValueError):
            raise ValueError("generator state must be a pair of ints [state, inc]") from None
        if not (0 <= s <= _MASK64 and 0 <= inc <= _MASK64) or inc % 2 == 0:
            raise ValueError("generator state out of range (state < 2**64, odd inc < 2**64)")
        cdef Random r = Random.__new__(Random)
        r.rng.state = s
        r.rng.inc = inc
        return r

    @property
    def state(self) -> tuple:
        return (self.rng.state, self.rng.inc)

    def next_u32(self) -> int:
        return rng_next32(&self.rng)

    cpdef uint32_t below(self, uint32_t n) except? 0:
        """Unbiased integer in [0, n)."""
        if n == 0:
            raise ValueError("below(n) needs n >= 1")
        return rng_below(&self.rng, n)

    def shuffle(self, buffer) -> None:
        """Shuffle a writable byte buffer in place (bytearray, numpy uint8 array, memoryview)."""
        cdef Py_buffer view
        PyObject_GetBuffer(buffer, &view, PyBUF_WRITABLE | PyBUF_SIMPLE)
        try:
            if view.itemsize != 1:     # wider items would be shuffled byte by byte, i.e. broken
                raise TypeError("shuffle needs a byte buffer (bytearray or uint8 array)")
            shuffle_u8(&self.rng, <uint8_t*>view.buf, <int>view.len)
        finally:
            PyBuffer_Release(&view)

    def shuffled(self, cards) -> list:
        """A shuffled copy of a sequence of card ids (each 0..255)."""
        cdef bytearray buf = bytearray(cards)
        shuffle_u8(&self.rng, <uint8_t*>(<char*>buf), len(buf))
        return list(buf)

    def clone(self) -> Random:
        cdef Random r = Random.__new__(Random)
        r.rng = self.rng
        return r

    def __reduce__(self):
        return (Random.from_state, (self.state,))

    def __repr__(self) -> str:
        return f"Random.from_state({self.state!r})"


def build_deck(rank_sets, int jokers) -> list:
    """Card ids of a deck made of one pack per entry of rank_sets (the ranks that pack keeps,
    all four suits) plus ``jokers`` jokers, in id order. Every game's composition comes from here."""
    cdef list cards = []
    cdef int suit
    for ranks in rank_sets:
        for suit in range(NUM_SUITS):
            for rank in ranks:
                if not 0 <= rank < NUM_RANKS:
                    raise ValueError(f"rank index out of range: {rank}")
                cards.append(make_card(suit, rank))
    cards.extend([JOKER] * jokers)
    cards.sort()
    return cards


def rank_of(int card) -> int:
    if not 0 <= card < NUM_KINDS:
        raise ValueError(f"card id out of range: {card}")
    return card_rank(card)


def suit_of(int card) -> int:
    if not 0 <= card < NUM_KINDS:
        raise ValueError(f"card id out of range: {card}")
    return card_suit(card)


def mask_of(cards) -> int:
    """The 64-bit set of card ids (duplicates collapse)."""
    cdef uint64_t m = 0
    for c in cards:
        if not 0 <= c < NUM_KINDS:
            raise ValueError(f"card id out of range: {c}")
        m |= card_bit(c)
    return m


def cards_of(uint64_t mask) -> list:
    """Card ids in a 64-bit set, ascending."""
    return [c for c in range(NUM_KINDS) if mask & card_bit(c)]


def rank_mask_of(int rank) -> int:
    if not 0 <= rank < NUM_RANKS:
        raise ValueError(f"rank index out of range: {rank}")
    return rank_mask(rank)


def suit_mask_of(int suit) -> int:
    if not 0 <= suit < NUM_SUITS:
        raise ValueError(f"suit index out of range: {suit}")
    return suit_mask(suit)


cdef class CardMultiset:
    """Python face of the core multiset (used by tests and tools; games use the struct)."""
    cdef Multiset ms

    def __init__(self, cards=()):
        ms_clear(&self.ms)
        for c in cards:
            self.add(c)

    def add(self, int card) -> None:
        if not 0 <= card < NUM_KINDS:
            raise ValueError(f"card id out of range: {card}")
        if not ms_add(&self.ms, card):
            raise ValueError(f"more than {MAX_COPIES} copies of card {card}")

    def remove(self, int card) -> None:
        if not 0 <= card < NUM_KINDS or not ms_remove(&self.ms, card):
            raise ValueError(f"card {card} is not in the multiset")

    def count(self, int card) -> int:
        return ms_count(&self.ms, card)

    def count_rank(self, int rank) -> int:
        if not 0 <= rank < NUM_RANKS:
            raise ValueError(f"rank index out of range: {rank}")
        return ms_count_rank(&self.ms, rank)

    def count_suit(self, int suit) -> int:
        if not 0 <= suit < NUM_SUITS:
            raise ValueError(f"suit index out of range: {suit}")
        return ms_count_suit(&self.ms, suit)

    def count_colour(self, bint red) -> int:
        return ms_count_mask(&self.ms, colour_mask(red))

    @property
    def support(self) -> int:
        return ms_support(&self.ms)

    @property
    def planes(self) -> list:
        return [self.ms.plane[k] for k in range(MAX_COPIES)]

    def __len__(self) -> int:
        return self.ms.total

    def to_list(self) -> list:
        cdef uint8_t out[MAX_COPIES * NUM_KINDS]
        cdef int n = ms_to_array(&self.ms, out)
        return [out[i] for i in range(n)]


# The one scratch buffer for legal-action lists (the GIL is held whenever it is used).
cdef int LEGAL_BUFFER[MAX_LEGAL]
MAX_LEGAL_ACTIONS = MAX_LEGAL

from cardcore.errors import IllegalActionError


cdef class GameState:
    cdef int legal_into(self, int* out) noexcept:
        return 0

    cdef void apply_fast(self, int action) noexcept:
        pass

    cdef bint over(self) noexcept:
        return True

    cdef int to_move(self) noexcept:
        return -1

    def explain_illegal(self, int action) -> tuple:
        """(message, rule id) saying why an action id is not legal now; games override."""
        return ("that action is not legal now", None)

    # The Python-visible part of the contract (cardcore.games docstring); every game overrides.
    def start(self) -> None:
        """Deal the first round with the seeded generator."""
        raise NotImplementedError

    @property
    def phase(self) -> int:
        raise NotImplementedError

    @property
    def round_index(self) -> int:
        raise NotImplementedError

    def scores(self) -> list:
        raise NotImplementedError

    def winners(self) -> list:
        raise NotImplementedError

    def all_cards(self) -> list:
        raise NotImplementedError

    def clone(self) -> GameState:
        raise NotImplementedError

    @property
    def is_over(self) -> bool:
        return self.over()

    @property
    def current_player(self):
        cdef int p = self.to_move()
        return None if p < 0 else p

    @property
    def rng_state(self) -> tuple:
        return (self.rng.state, self.rng.inc)

    def seed_rng(self, seed) -> None:
        rng_seed(&self.rng, seed_to_u64(seed))

    def legal_ids(self) -> list:
        """The legal action ids, ascending."""
        cdef int n = self.legal_into(LEGAL_BUFFER)
        return [LEGAL_BUFFER[i] for i in range(n)]

    def is_legal(self, int action) -> bool:
        cdef int n = self.legal_into(LEGAL_BUFFER)
        cdef int i
        for i in range(n):
            if LEGAL_BUFFER[i] == action:
                return True
        return False

    def apply(self, object action_id) -> None:
        """Apply a legal action id; otherwise raise IllegalActionError and change nothing."""
        cdef int action
        try:
            action = action_id
        except (OverflowError, TypeError):
            raise IllegalActionError(f"action id {action_id!r} is not a valid id") from None
        cdef int n = self.legal_into(LEGAL_BUFFER)
        cdef int i
        for i in range(n):
            if LEGAL_BUFFER[i] == action:
                self.apply_fast(action)
                self.actions_applied += 1
                return
        message, rule = self.explain_illegal(action)
        raise IllegalActionError(message, rule)

    def run_random(self, seed, long long max_actions=100_000_000) -> int:
        """Play uniformly random legal actions inside the core until the game is over.
        The choices use their own generator seeded with ``seed``; returns the number of actions."""
        cdef Rng chooser
        rng_seed(&chooser, seed_to_u64(seed))
        cdef long long done = 0
        cdef int n
        while not self.over() and done < max_actions:
            n = self.legal_into(LEGAL_BUFFER)
            if n <= 0:
                raise RuntimeError("a game that is not over offered no legal action")
            self.apply_fast(LEGAL_BUFFER[rng_below(&chooser, <uint32_t>n)])
            done += 1
        self.actions_applied += done
        return done

