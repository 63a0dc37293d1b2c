# cython: language_level=3, cdivision=True
"""The core: card ids, multisets, piles, the seeded PCG32 generator and Fisher-Yates shuffle.

Declarations and the inline kernels live in _fast.pxd so that game modules can cimport them;
this file holds the out-of-line parts and the small Python-visible wrappers used by the
public modules and by tests. Every entry point from Python checks its arguments before it
touches memory.
"""
from cpython.buffer cimport (
    PyObject_GetBuffer, PyBuffer_Release, PyBUF_WRITABLE, PyBUF_SIMPLE, PyBUF_C_CONTIGUOUS, PyBUF_FORMAT,
)
from cpython.mem cimport PyMem_Malloc, PyMem_Free
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.long cimport PyLong_AsUnsignedLongLong
from libc.string cimport memchr, memcmp, memcpy, memset, strlen
from libc.stdint cimport int8_t, int32_t, int64_t, uint8_t, uint32_t, uint64_t

NUM_CARD_KINDS = NUM_KINDS
# GameState.solve_moves: the positions a solve may visit by default, and its transposition
# table's bytes (40-byte entries: 2^16 of them), allocated for each call.
SOLVE_BUDGET = 200_000
cdef size_t SOLVE_TABLE_BYTES = 1 << 21
JOKER_ID = JOKER
PILE_CAPACITY_CARDS = PILE_CAPACITY
MULTISET_MAX_COPIES = MS_MAX_COPIES
_MASK64 = (1 << 64) - 1


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
            raise ValueError(f"card id out of range: {echo(c)}")
        dst[i] = <uint8_t>c
        i += 1
    return i


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


cdef uint64_t seed_bits(object seed) except? 0:
    """seed_to_u64(seed) without a Python call for the usual seed, an int that fits in 64 bits
    (run_random is called once a playout: the call cost ~70 ns, 6% of a short random deal)."""
    if type(seed) is int:
        try:
            return PyLong_AsUnsignedLongLong(seed)
        except OverflowError:                   # negative, or wider: seed_to_u64 decides
            pass
    return seed_to_u64(seed)


cdef class Random:
    """The library's seeded generator: PCG32 (XSH RR, 64-bit state) with splitmix64 seeding.

    The same seed gives the same stream on every platform. ``state`` is a pair of ints that
    ``Random.from_state`` restores exactly (it is what Game.to_json() saves).
    """

    def __init__(self, seed=0):
        rng_seed(&self.rng, seed_bits(seed))

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
            raise ValueError(f"more than {MS_MAX_COPIES} copies of card {card}")

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
        return [self.ms.plane[k] for k in range(MS_MAX_COPIES)]

    def __len__(self) -> int:
        return self.ms.total

    def to_list(self) -> list:
        cdef uint8_t out[MS_MAX_COPIES * NUM_KINDS]
        cdef int n = ms_to_array(&self.ms, out)
        return [out[i] for i in range(n)]


# ---------------------------------------------------------------- the state machine framework
from cardcore.errors import IllegalActionError, Words, echo

_HOOK_NAMES = ("start", "legal", "apply", "observation_size", "observe", "returns",
               "scores", "sample_hidden", "zone_cards", "breakdown")
_SCOPES = ("shared", "seat", "team", "pile")
_SIGHTS = ("all", "owner", "none")
_STATE_METHODS = ("all_cards", "hand", "hand_sizes")


cdef GameHooks game_hooks(const char* name, size_t state_size, int num_actions, int max_legal,
                          start_fn start, legal_fn legal, apply_fn apply,
                          observation_size_fn observation_size, observe_fn observe,
                          returns_fn returns, scores_fn scores, sample_hidden_fn sample_hidden,
                          const ZoneSpec* zones, int num_zones, zone_cards_fn zone_cards,
                          breakdown_fn breakdown, rollout_fn greedy,
                          rollout_fn rollout, known_cards_fn known_cards,
                          hand_cards_fn hand_cards, refuse_fn refuse=NULL,
                          int num_refusals=0) except *:
    """A game's hook table, every part named and checked (``check_hooks``): the one wiring
    every game's module makes, with keyword arguments (the optional parts NULL where the game
    has none: rollout, known_cards, hand_cards, refuse)."""
    cdef GameHooks hooks
    memset(&hooks, 0, sizeof(GameHooks))
    hooks.size = sizeof(GameHooks)           # GAME_HOOKS_HEAD: built here, for this core
    hooks.version = CARDCORE_HOOKS_VERSION
    hooks.name = name
    hooks.state_size = state_size
    hooks.num_actions = num_actions
    hooks.max_legal = max_legal
    hooks.start = start
    hooks.legal = legal
    hooks.apply = apply
    hooks.observation_size = observation_size
    hooks.observe = observe
    hooks.returns = returns
    hooks.scores = scores
    hooks.sample_hidden = sample_hidden
    hooks.rollout = rollout
    hooks.zones = zones
    hooks.num_zones = num_zones
    hooks.zone_cards = zone_cards
    hooks.known_cards = known_cards
    hooks.breakdown = breakdown
    hooks.greedy = greedy
    hooks.hand_cards = hand_cards
    hooks.refuse = refuse
    hooks.num_refusals = num_refusals
    check_hooks(&hooks)
    return hooks


cdef int check_hooks(const GameHooks* hooks) except -1:
    """Refuse, at the game module's import, a hook table with a missing part (no silent
    defaults) or one this core cannot read (built against another release's kernel.h)."""
    cdef const char* known = hooks_name(hooks)    # NULL: too short to hold even the name
    name = (<bytes>known).decode() if known != NULL else "?"
    if not hooks_compatible(hooks):
        raise ImportError(
            f"game {name}: its hook table is version {hooks.version} of {hooks.size} bytes; "
            f"this core reads versions {CARDCORE_HOOKS_MIN_VERSION}..{CARDCORE_HOOKS_VERSION} "
            f"of {GAME_HOOKS_MIN_SIZE}..{sizeof(GameHooks)} bytes (build the game against "
            f"this cardcore's headers; its table opens with GAME_HOOKS_HEAD)")
    cdef void* pointers[10]
    pointers[0] = <void*>hooks.start
    pointers[1] = <void*>hooks.legal
    pointers[2] = <void*>hooks.apply
    pointers[3] = <void*>hooks.observation_size
    pointers[4] = <void*>hooks.observe
    pointers[5] = <void*>hooks.returns
    pointers[6] = <void*>hooks.scores
    pointers[7] = <void*>hooks.sample_hidden
    pointers[8] = <void*>hooks.zone_cards
    pointers[9] = <void*>hooks.breakdown
    for i in range(10):
        if pointers[i] == NULL:
            raise ImportError(f"game {name}: hook {_HOOK_NAMES[i]!r} is missing")
    if hooks.zones == NULL or hooks.num_zones <= 0:
        raise ImportError(f"game {name}: the zone table (who sees which cards) is missing")
    for i in range(hooks.num_zones):
        zone = hooks.zones[i]
        if zone.name == NULL or not 0 <= zone.scope <= ZONE_PILE or not 0 <= zone.sight <= SEEN_BY_NONE:
            raise ImportError(f"game {name}: zone {i} is not a valid ZoneSpec")
        if zone.sight == SEEN_BY_OWNER and zone.scope not in (ZONE_SEAT, ZONE_TEAM):
            raise ImportError(f"game {name}: zone {zone.name.decode()!r} has no owner to see it")
        if zone.scope in (ZONE_PILE, ZONE_TEAM) and zone.instances <= 0:
            raise ImportError(f"game {name}: zone {zone.name.decode()!r} needs its instances")
    if hooks.state_size == 0 or hooks.num_actions <= 0 or hooks.max_legal <= 0:
        raise ImportError(f"game {name}: state_size, num_actions and max_legal must be set")
    if hooks.max_legal > hooks.num_actions or sizeof(Header) > hooks.state_size:
        raise ImportError(f"game {name}: max_legal or state_size out of range")
    return 0


cdef extern from *:
    """
    /* 1 on a little-endian machine: numpy marks non-native byte order with '<' or '>'. */
    static int cardcore_little_endian(void) { const unsigned short one = 1; return *(const unsigned char*)&one; }
    """
    int cardcore_little_endian() noexcept nogil


cdef int get_buffer(object obj, Py_buffer* view, bint writable, Py_ssize_t itemsize, bytes kinds,
                    Py_ssize_t rows, Py_ssize_t cols, str what) except -1:
    cdef int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (PyBUF_WRITABLE if writable else 0)
    try:
        PyObject_GetBuffer(obj, view, flags)
    except (TypeError, ValueError, BufferError) as e:
        raise ValueError(f"{what} must be a C-contiguous{' writable' if writable else ''} "
                         f"array: {str(e)[:80]}") from None
    # The format is one item code, optionally after a byte-order mark ("f", "<f", "=l", "?");
    # a mark for the other byte order (">f4" here) would have the bytes misread. Compared in
    # C, since ``bytes in bytes`` first tries the operand as an int and formats a TypeError
    # per call.
    cdef const char* code = view.format
    if code == NULL:
        code = "B"                  # no format: unsigned bytes (the buffer protocol's default)
    cdef char order = code[0]
    cdef bint foreign = False
    if order == b"@" or order == b"=" or order == b"<" or order == b">" or order == b"!":
        foreign = ((order == b">" or order == b"!") if cardcore_little_endian()
                   else order == b"<")
        code += 1
    cdef bint shaped = view.shape != NULL and (
        (view.ndim == 1 and cols == 0 and view.shape[0] == rows)
        or (view.ndim == 2 and cols > 0 and view.shape[0] == rows and view.shape[1] == cols))
    if (view.itemsize != itemsize or foreign or strlen(code) != 1
            or memchr(<const char*>kinds, code[0], len(kinds)) == NULL or not shaped):
        shape = f"({rows},)" if cols == 0 else f"({rows}, {cols})"
        PyBuffer_Release(view)
        raise ValueError(f"{what} must be a {shape} array of {itemsize}-byte items "
                         f"(format {kinds.decode()}, native byte order)")
    return 0


cdef class LoggedApply:
    """``Game.apply`` of one game: an int id with no ``player`` (the simulation fast path) is
    checked, applied and appended to the game's log in C, all under the GIL, so no other
    thread sees the state and the log disagree; it defers to ``slow`` (``Game.apply``, which
    waits for the game's guard) for anything else (``player`` or ``cards`` given included), or while another thread holds the guard
    (``token`` is then empty)."""
    cdef GameState state
    cdef list log
    cdef list token
    cdef object slow

    def __init__(self, GameState state, list log, list token, slow):
        state.ready()
        self.state = state
        self.log = log
        self.token = token
        self.slow = slow

    def __call__(self, action, player=None, cards=None):
        if type(action) is int and player is None and cards is None and len(self.token) > 0:
            self.state.apply_checked(action)            # raises, unchanged, if not legal now
            self.log.append(action)
            return None
        return self.slow(action, player, cards)


def check_state_class(cls) -> None:
    """Refuse, at import, a game state class that lacks one of the Python-level methods."""
    if not issubclass(cls, GameState):
        raise ImportError(f"{cls.__name__} is not a GameState")
    for method in _STATE_METHODS:
        if getattr(cls, method, None) is getattr(GameState, method, None):
            raise ImportError(f"{cls.__name__} does not define {method}()")


cdef int init_header(Header* h, int players, object stacked, object composition) except -1:
    """Seats and the stacked deck (top card first, checked against the composition)."""
    if len(composition) > PILE_CAPACITY:
        raise ValueError(f"a deck of {len(composition)} cards exceeds the core's {PILE_CAPACITY}")
    h.players = players
    h.to_move = -1
    h.stacked_size = 0
    if stacked is not None:
        if len(stacked) != len(composition) or sorted(stacked) != sorted(composition):
            raise ValueError("stacked deck does not match the composition")
        h.stacked_size = load_cards(h.stacked, stacked, PILE_CAPACITY)
    return 0


cdef class GameState:
    """The lifecycle of every game, written once over the game's Header and GameHooks.

    A game's class only binds its struct (``bind`` in ``__cinit__``), reads its options in
    ``__init__`` and adds the Python getters its view needs, plus ``all_cards()`` (checked at
    import by check_state_class). Its ``refusals`` are its words module's REFUSALS: the
    templates the kernel's refuse hook indexes.
    """

    def __dealloc__(self):
        PyMem_Free(self.legal_buf)

    cdef int bind(self, const GameHooks* hooks, void* data, Header* header) except -1:
        if <void*>header != data:
            raise TypeError(f"{hooks.name.decode()}: the Header must be the first member of the state")
        self.hooks = hooks
        self.data = data
        self.h = header
        self.legal_buf = <int32_t*>PyMem_Malloc(hooks.max_legal * sizeof(int32_t))
        if self.legal_buf == NULL:
            raise MemoryError()
        return 0

    cdef int ready(self) except -1:
        if self.hooks == NULL:
            raise TypeError("GameState is the base class; create a game's state instead")
        return 0

    # --- the header, read-only from Python
    @property
    def num_players(self) -> int:
        self.ready()
        return self.h.players

    @property
    def phase(self) -> int:
        self.ready()
        return self.h.phase

    @property
    def round_index(self) -> int:
        """Rounds (deals, hands) finished."""
        self.ready()
        return self.h.round_index

    @property
    def dealer(self) -> int:
        self.ready()
        return self.h.dealer

    @property
    def actions_applied(self) -> int:
        self.ready()
        return self.h.actions_applied

    @property
    def turns(self) -> int:
        self.ready()
        return self.h.turns

    @property
    def is_over(self) -> bool:
        self.ready()
        return self.h.to_move < 0

    @property
    def current_player(self):
        self.ready()
        return None if self.h.to_move < 0 else self.h.to_move

    @property
    def rng_state(self) -> tuple:
        self.ready()
        return (self.h.rng.state, self.h.rng.inc)

    @property
    def num_actions(self) -> int:
        self.ready()
        return self.hooks.num_actions

    def seed_rng(self, seed) -> None:
        self.ready()
        rng_seed(&self.h.rng, seed_bits(seed))

    def check_seat(self, p) -> int:
        """p as a seat index; ValueError unless it is an int seat of this game."""
        self.ready()
        if isinstance(p, bool) or not isinstance(p, int) or not 0 <= p < self.h.players:
            raise ValueError(f"seat must be an int 0..{self.h.players - 1}, not {echo(p)}")
        return p

    # --- the lifecycle
    def start(self) -> None:
        """Choose the first player (option or lot) and deal the first round."""
        self.ready()
        self.hooks.start(self.data)

    cdef int fill_legal(self) except -1:
        cdef int n = self.hooks.legal(self.data, self.legal_buf, self.hooks.max_legal)
        if n < 0:
            raise RuntimeError(f"{self.hooks.name.decode()}: legal actions exceed max_legal")
        return n

    def legal_ids(self) -> list:
        """The legal action ids, ascending (empty once the match is over)."""
        self.ready()
        cdef int n = self.fill_legal()
        return [self.legal_buf[i] for i in range(n)]

    def is_legal(self, action) -> bool:
        self.ready()
        if isinstance(action, bool) or not isinstance(action, int):
            return False
        cdef int n = self.fill_legal()
        cdef int i
        for i in range(n):
            if self.legal_buf[i] == action:
                return True
        return False

    def apply(self, object action_id) -> None:
        """Apply a legal action id; otherwise raise IllegalActionError and change nothing."""
        self.ready()
        self.apply_checked(action_id)

    cdef int apply_checked(self, object action_id) except -1:
        cdef int action
        try:
            action = action_id
        except (OverflowError, TypeError):
            raise IllegalActionError(f"action id {echo(action_id)} is not a valid id") from None
        cdef int n = self.fill_legal()
        cdef int i
        for i in range(n):
            if self.legal_buf[i] == action:
                self.hooks.apply(self.data, action)
                self.h.actions_applied += 1
                return 0
        raise self.illegal(action)

    def illegal(self, action) -> object:
        """The IllegalActionError of an action id that is not legal now: the kernel's refusal
        as data (``words``: its template and fields, cardcore.refusals), else
        ``explain_illegal``'s message."""
        self.ready()
        found = self.refusal(action) if self.refusals is not None else None
        if found is not None:
            return self.refusals.error(found)
        if isinstance(action, bool) or not isinstance(action, int) \
                or not 0 <= action < self.hooks.num_actions:
            return IllegalActionError(Words("action id {action} is outside 0..{last}",
                                            {"action": echo(action),
                                             "last": self.hooks.num_actions - 1}))
        message, rule = self.explain_illegal(action)
        return IllegalActionError(message, rule)

    cdef int choose(self, object cards) except -1:
        self.h.chosen_size = load_cards(self.h.chosen, cards, CHOSEN_CAPACITY)
        return 0

    @property
    def chooses_hand_cards(self) -> bool:
        """Some action of this game takes hand cards by count or rank (the ``hand_cards``
        hook), so ``hand_cards`` and ``apply_chosen`` can name exact cards."""
        return self.hooks != NULL and self.hooks.hand_cards != NULL

    def hand_cards(self, int action, chosen=()) -> object:
        """The cards (ids) that action ``action`` would take now from the hand of the seat to
        move, taking the ``chosen`` ids first where they fit (each a card the action may take
        at that place and the hand holds); the game's own choice for the rest. None for an
        action that names its cards (every action of a game without the hook), or when the
        hand cannot make it. ValueError for more than CHOSEN_CAPACITY chosen cards."""
        self.ready()
        cdef uint8_t out[CHOSEN_CAPACITY]
        cdef int n
        if self.hooks.hand_cards == NULL or self.h.to_move < 0 \
                or not 0 <= action < self.hooks.num_actions:
            return None
        cdef int kept = self.h.chosen_size
        cdef uint8_t before[CHOSEN_CAPACITY]
        memcpy(before, self.h.chosen, CHOSEN_CAPACITY)
        if len(chosen) > 0 or kept == 0:
            self.choose(chosen)
        try:
            n = self.hooks.hand_cards(self.data, action, out)
        finally:
            self.h.chosen_size = kept
            memcpy(self.h.chosen, before, CHOSEN_CAPACITY)
        if n < 0 or n > CHOSEN_CAPACITY:
            return None
        return [out[i] for i in range(n)]

    def keep_chosen(self, chosen) -> None:
        """Set the chosen cards (ids) on this state and keep them: its ``hand_cards`` (and a
        game's getters of what an action takes) follow them until ``keep_chosen(())``. For a
        throwaway copy that tells what an action applied with ``apply_chosen`` took (the
        events' narration); never for a state that plays on."""
        self.ready()
        self.choose(chosen)

    def apply_chosen(self, object action_id, chosen) -> None:
        """Apply a legal action that takes exactly the ``chosen`` cards (ids) from the hand
        instead of the game's own choice; IllegalActionError, and nothing changes, if the
        action is not legal now or would not take exactly those cards (``hand_cards``).
        The choice is set for this one apply and cleared after it."""
        self.ready()
        cdef int action
        try:
            action = action_id
        except (OverflowError, TypeError):
            raise IllegalActionError(f"action id {echo(action_id)} is not a valid id") from None
        taken = self.hand_cards(action, chosen) if self.is_legal(action) else None
        if taken is not None and sorted(taken) != sorted(chosen):
            raise IllegalActionError(f"action {action} does not take exactly the cards "
                                     f"{echo(list(chosen))} from the hand")
        if taken is None and len(chosen) > 0 and self.is_legal(action):
            raise IllegalActionError(f"action {action} names its cards: none can be chosen")
        self.choose(chosen)
        try:
            self.apply_checked(action)
        finally:
            self.h.chosen_size = 0

    def explain_illegal(self, action) -> tuple:
        """(message, rule id) saying why an action id is not legal now."""
        self.ready()
        if isinstance(action, bool) or not isinstance(action, int) \
                or not 0 <= action < self.hooks.num_actions:
            return (f"action id {echo(action)} is outside 0..{self.hooks.num_actions - 1}", None)
        if self.h.to_move < 0:
            return ("the match is over", self.match_end_rule)
        return self.explain_rule(action)

    match_end_rule = None          # a game names the rule that ends its match
    breakdown_what = ()            # a game's words for what its breakdown rows count ...
    breakdown_rules = ()           # ... and the rule IDs they cite (indexes of the rows)

    refusals = None                # a game's cardcore.refusals.Refusals (its words.REFUSALS)

    @property
    def num_refusals(self) -> int:
        """How many refusal templates the kernel's refuse hook indexes (0: no hook)."""
        self.ready()
        return self.hooks.num_refusals if self.hooks.refuse != NULL else 0

    def refusal(self, action) -> object:
        """Why an action id is not legal now, as the kernel's refuse hook decides it: a
        cardcore.refusals.Refusal (reason, rule, args); None for a legal id, an id out of
        range, a finished match or a game without the hook."""
        self.ready()
        if self.hooks.refuse == NULL or self.h.to_move < 0 or isinstance(action, bool) \
                or not isinstance(action, int) or not 0 <= action < self.hooks.num_actions \
                or self.is_legal(action):
            return None
        found = self.refused(action)
        return None if found is None else self.refusals.record(*found)

    cdef object refused(self, int action):
        # The hook's refusal of an id in range, not legal, the match on (not checked here:
        # explain_rule's caller knows it); None if the hook has none.
        cdef Refusal r
        if self.hooks.refuse(self.data, action, &r) < 0:
            return None
        if not 0 <= r.reason < self.hooks.num_refusals or not 0 <= r.nargs <= REFUSAL_MAX_ARGS \
                or r.rule == NULL:
            raise RuntimeError(f"{self.hooks.name.decode()}: refusal {r.reason} of action "
                               f"{action} is out of range")
        return (r.reason, (<bytes>r.rule).decode(), tuple(r.args[i] for i in range(r.nargs)))

    def explain_rule(self, int action) -> tuple:
        """(message, rule id) for an id in range that is not legal while the match is on: the
        kernel's refusal, its template (``refusals``) filled with its fields."""
        self.ready()
        if self.h.to_move < 0 or not 0 <= action < self.hooks.num_actions:
            return self.explain_illegal(action)    # the kernel is never asked about these
        found = self.refused(action) if self.hooks.refuse != NULL else None
        if found is None:
            raise NotImplementedError(f"{type(self).__name__} has no refusal for action {action}")
        reason, rule, args = found
        return (self.refusals.text(reason, args), rule)

    @property
    def has_greedy(self) -> bool:
        """The game has an in-core greedy policy (``greedy_move``)."""
        return self.hooks != NULL and self.hooks.greedy != NULL

    def greedy_move(self, Random rng not None) -> int:
        """GreedyBot's move for the seat to move, computed inside the core from what that seat
        may know; its tie-breaks are drawn from ``rng``. ValueError once the match is over,
        NotImplementedError for a game without an in-core greedy policy."""
        self.ready()
        if self.h.to_move < 0:
            raise ValueError("the game is over: there is no action to choose")
        if self.hooks.greedy == NULL:
            raise NotImplementedError(f"{self.hooks.name.decode()} has no in-core greedy policy")
        cdef int n = self.fill_legal(), k
        if n <= 0:
            raise RuntimeError("a game that is not over offered no legal action")
        k = self.hooks.greedy(self.data, self.legal_buf, n, &rng.rng)   # microseconds: GIL kept
        if not 0 <= k < n:
            raise RuntimeError(f"{self.hooks.name.decode()}: the greedy policy chose no legal "
                               f"action ({k} of {n})")
        return self.legal_buf[k]

    @property
    def has_solver(self) -> bool:
        """The game can solve some positions exactly (``solve_moves``)."""
        return self.hooks != NULL and hooks_solve(self.hooks) != NULL

    def solve_moves(self, long long budget=SOLVE_BUDGET, bint every=False):
        """The exact result of each legal move for the seat to move, where the game can solve
        the position from what that seat knows (its ``solve`` hook, e.g. an endgame where
        every card is known): ``[(action id, value), ...]`` in legal order, the value the
        mover's under best play by every seat, 1 a win, 0 a draw, -1 a loss; with
        ``every=False`` the moves after the first one as good as any are ``None`` (not
        searched). ``None`` when the game has no solver, the position is not one it solves,
        or more than ``budget`` positions would be visited (a fixed count, so the answer does
        not depend on the machine). The search runs without the GIL."""
        self.ready()
        cdef solve_fn solve = hooks_solve(self.hooks)    # NULL from an older kernel's table
        if solve == NULL or self.h.to_move < 0:
            return None
        if budget < 1:
            raise ValueError("budget must be at least 1")
        cdef int n = self.fill_legal(), status, k
        cdef int8_t values[1024]
        if n <= 0 or n > 1024:
            return None
        cdef size_t size = SOLVE_TABLE_BYTES
        cdef void* table = PyMem_Malloc(size)
        if table == NULL:
            raise MemoryError()
        try:
            with nogil:
                status = solve(self.data, self.legal_buf, n, every, budget, table, size,
                               values)
        finally:
            PyMem_Free(table)
        if status != 0:
            return None
        return [(self.legal_buf[k], None if values[k] == SOLVE_UNKNOWN else values[k])
                for k in range(n)]

    def run_random(self, seed, long long max_actions=100_000_000) -> int:
        """Play uniformly random legal actions inside the core until the match is over.
        The choices use their own generator seeded with ``seed``; returns the number of actions."""
        self.ready()
        cdef Rng chooser
        rng_seed(&chooser, seed_bits(seed))
        cdef long long done
        with nogil:
            done = play_random(self.data, self.hooks, &chooser, self.legal_buf, max_actions)
        if done < 0:
            raise RuntimeError("a game that is not over offered no legal action")
        return done

    def clone(self) -> GameState:
        """An independent copy (the whole struct, generator included)."""
        self.ready()
        cdef GameState other = type(self).__new__(type(self))
        memcpy(other.data, self.data, self.hooks.state_size)
        other.sides = self.sides
        return other

    def copy_from(self, GameState other) -> None:
        """Make this state what ``other.clone()`` would be, in place: the same class and
        configuration, no allocation (the narration copies the state before every action it
        tells into one state it keeps for that)."""
        self.ready()
        if type(other) is not type(self) or other.hooks != self.hooks:
            raise TypeError(f"copy_from needs a {type(self).__name__}, "
                            f"not a {type(other).__name__}")
        memcpy(self.data, other.data, self.hooks.state_size)
        self.sides = other.sides

    def set_sides(self, sides) -> None:
        """A side number per seat (``Game.sides_of``, which the Game sets on every state it
        makes): instance k of a team zone is side k's, seen by its seats. Until set, a team
        zone is seen by no seat."""
        cdef tuple given = tuple(int(s) for s in sides)
        if len(given) != self.h.players:
            raise ValueError(f"sides: one per seat ({self.h.players}), not {len(given)}")
        self.sides = given

    # --- results
    def returns(self) -> list:
        """Per seat, higher is better; all zeros before the match is over."""
        self.ready()
        cdef double out[64]
        cdef int p
        if self.h.players > 64:
            raise RuntimeError("more than 64 seats")
        for p in range(self.h.players):
            out[p] = 0.0
        if self.h.to_move < 0:
            self.hooks.returns(self.data, out)
        return [out[p] for p in range(self.h.players)]

    def winners(self) -> list:
        """The seats with the highest returns once the match is over; [] before."""
        self.ready()
        if self.h.to_move >= 0:
            return []
        cdef list r = self.returns()
        best = max(r)
        return [p for p in range(self.h.players) if r[p] == best]

    def scores(self) -> list:
        """Per seat, the scores the view shows (each game's own direction; see returns())."""
        self.ready()
        cdef int32_t out[64]
        if self.h.players > 64:
            raise RuntimeError("more than 64 seats")
        self.hooks.scores(self.data, out)
        return [out[p] for p in range(self.h.players)]

    def all_cards(self) -> list:
        raise NotImplementedError

    def hand(self, p) -> list:
        """Seat p's hand, card ids in id order (hidden information: the view shows its own)."""
        raise NotImplementedError

    def hand_sizes(self) -> list:
        """Every seat's number of cards in hand."""
        raise NotImplementedError

    # --- the per-seat projection and determinization
    @property
    def observation_size(self) -> int:
        self.ready()
        return self.hooks.observation_size(self.data)

    def observation_tensor(self, seat, out=None):
        """Write what ``seat`` may know as float32 into ``out`` (a new array when None).
        The projection runs holding the GIL: no move of this state by another thread can
        run meanwhile, so the tensor is always one position's (and a microsecond of
        projection gains nothing from releasing it)."""
        self.ready()
        cdef int p = self.check_seat(seat)
        cdef int size = self.hooks.observation_size(self.data)
        if out is None:
            import numpy
            out = numpy.zeros(size, dtype=numpy.float32)
        cdef Py_buffer view
        get_buffer(out, &view, True, sizeof(float), b"f", size, 0, "out (float32)")
        try:
            self.hooks.observe(self.data, p, <float*>view.buf)
        finally:
            PyBuffer_Release(&view)
        return out

    def sample_hidden(self, seat, seed) -> GameState:
        """A copy in which everything ``seat`` cannot see is redealt at random (consistent with
        what it saw), and the generator for future deals is redrawn too."""
        self.ready()
        cdef int p = self.check_seat(seat)
        cdef Rng sampler
        rng_seed(&sampler, seed_bits(seed))
        cdef GameState world = self.clone()
        cdef int status
        with nogil:
            status = self.hooks.sample_hidden(world.data, p, &sampler)
        if status != 0:
            raise RuntimeError("no deal is consistent with what this seat saw")
        # Future shuffles are hidden from every seat: the sampled world gets its own.
        cdef uint64_t high = rng_next32(&sampler)
        cdef uint64_t low = rng_next32(&sampler)
        rng_seed(&world.h.rng, (high << 32) | low)
        return world

    # --- the zones: what a seat may know (the game's one table of it)
    cdef int zone_instances(self, int zone) noexcept:
        cdef const ZoneSpec* spec = &self.hooks.zones[zone]
        if spec.scope == ZONE_SEAT:
            return self.h.players
        if spec.scope == ZONE_SHARED:
            return 1
        return spec.instances

    cdef int zone_index(self, object name) except -1:
        for i in range(self.hooks.num_zones):
            if self.hooks.zones[i].name.decode() == name:
                return i
        known = ", ".join(self.hooks.zones[i].name.decode() for i in range(self.hooks.num_zones))
        raise ValueError(f"no zone {str(name)[:40]!r}; zones: {known}")

    def zones(self) -> list:
        """The game's zones, in the kernel's order: (name, scope, instances, sight) with scope
        "shared" | "seat" | "team" | "pile" and sight "all" | "owner" | "none" (who knows
        its cards; everybody knows every zone's size)."""
        self.ready()
        return [(self.hooks.zones[i].name.decode(), _SCOPES[self.hooks.zones[i].scope],
                 self.zone_instances(i), _SIGHTS[self.hooks.zones[i].sight])
                for i in range(self.hooks.num_zones)]

    def zone_sees(self, zone, int instance, int seat) -> bool:
        """Whether ``seat`` knows the cards of instance ``instance`` of zone ``zone`` (its
        name): a zone seen by all, or one it owns (a team zone: its side's instance, the sides
        being ``Game.sides_of``'s, set with ``set_sides``)."""
        self.ready()
        cdef int z = self.zone_index(zone)
        self.check_seat(seat)
        if not 0 <= instance < self.zone_instances(z):
            raise ValueError(f"zone {zone!r} has instances 0..{self.zone_instances(z) - 1}")
        cdef const ZoneSpec* spec = &self.hooks.zones[z]
        if spec.sight == SEEN_BY_ALL:
            return True
        if spec.sight == SEEN_BY_NONE:
            return False
        if spec.scope == ZONE_SEAT:
            return instance == seat
        return self.sides is not None and self.sides[seat] == instance

    def zone_cards(self, zone, int instance=0) -> list:
        """The cards of a zone instance (bottom to top for a pile), hidden ones included: for
        tools and tests, never for a seat that cannot see them (``zone_sees``)."""
        self.ready()
        cdef int z = self.zone_index(zone)
        if not 0 <= instance < self.zone_instances(z):
            raise ValueError(f"zone {zone!r} has instances 0..{self.zone_instances(z) - 1}")
        cdef uint8_t out[ZONE_CAPACITY]
        cdef int n = self.hooks.zone_cards(self.data, z, instance, out)
        return [out[i] for i in range(n)]

    def zone_bytes(self) -> list:
        """The cards of every zone instance, in the order of ``zones()`` and each zone's
        instances, as bytes of card ids (a pile bottom to top): one call for a whole
        snapshot, which the moves of events compare (cardcore.zones); never for a seat."""
        self.ready()
        cdef uint8_t out[ZONE_CAPACITY]
        cdef int z, i, n
        cdef list snapshot = []
        for z in range(self.hooks.num_zones):
            for i in range(self.zone_instances(z)):
                n = self.hooks.zone_cards(self.data, z, i, out)
                snapshot.append(PyBytes_FromStringAndSize(<char*>out, n))
        return snapshot

    def zone_changes(self, GameState before) -> list:
        """The zone instances whose cards differ in ``before`` (a state of the same game and
        configuration): ``(index in zone_bytes() order, cards in before, cards here)``, the
        cards as bytes of ids. What one narrated action changed, with no snapshot of the
        zones it did not touch (cardcore.zones.ZoneTable.changes)."""
        self.ready()
        if type(before) is not type(self) or before.hooks != self.hooks or \
                before.h.players != self.h.players:
            raise TypeError(f"zone_changes needs a {type(self).__name__} of the same "
                            f"configuration, not a {type(before).__name__}")
        cdef uint8_t was[ZONE_CAPACITY]
        cdef uint8_t now[ZONE_CAPACITY]
        cdef int z, i, nw, nn
        cdef Py_ssize_t k = 0
        cdef list out = []
        for z in range(self.hooks.num_zones):
            for i in range(self.zone_instances(z)):
                nw = self.hooks.zone_cards(before.data, z, i, was)
                nn = self.hooks.zone_cards(self.data, z, i, now)
                if nw != nn or memcmp(was, now, nn) != 0:
                    out.append((k, PyBytes_FromStringAndSize(<char*>was, nw),
                                PyBytes_FromStringAndSize(<char*>now, nn)))
                k += 1
        return out

    def known_in_zone(self, zone, int instance=0) -> list:
        """The cards of a zone instance that every seat knows are there though the zone is
        hidden from it (e.g. a card taken face up into a hand); in id order."""
        self.ready()
        cdef int z = self.zone_index(zone)
        if not 0 <= instance < self.zone_instances(z):
            raise ValueError(f"zone {zone!r} has instances 0..{self.zone_instances(z) - 1}")
        if self.hooks.known_cards == NULL:
            return []
        cdef uint8_t out[ZONE_CAPACITY]
        cdef int n = self.hooks.known_cards(self.data, z, instance, out)
        return sorted(out[i] for i in range(n))

    def breakdown_rows(self) -> list:
        """The scoring rows of the last finished round, as the game's scoring wrote them:
        (owner, what, rule, detail, count, points) with ``what`` and ``rule`` indexes into the
        game's BREAKDOWN_WHAT and BREAKDOWN_RULES, ``count`` and ``detail`` -1 when unused;
        [] before the first round ends."""
        self.ready()
        cdef BreakdownRow rows[MAX_BREAKDOWN_ROWS]
        cdef int n = self.hooks.breakdown(self.data, rows, MAX_BREAKDOWN_ROWS)
        if n < 0:
            raise RuntimeError(f"{self.hooks.name.decode()}: more than {MAX_BREAKDOWN_ROWS} rows")
        return [(rows[i].owner, rows[i].what, rows[i].rule, rows[i].detail, rows[i].count,
                 rows[i].points) for i in range(n)]
