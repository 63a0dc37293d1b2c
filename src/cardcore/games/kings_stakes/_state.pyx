# cython: language_level=3, cdivision=True
"""Kings' Stakes state machine (rules: games/kings_stakes.md, rule IDs KS-x.y).

Action space (the same 320 ids for every configuration; pinned by tests/test_kings_stakes_actions.py):
    0..51     play one natural card (id = card id)                       KS-4.1, KS-5.1..5.4
    52..62    play a joker alone as value 1..11                          KS-4.4
    63..166   play two natural cards: same-rank numbers, same-suit       KS-4.2, KS-5.5, KS-5.6
              adjacent numbers, K+Q or Q+J of a suit; ordered by (lower id, higher id)
    167..294  play a natural card with a joker, one id per meaning of    KS-4.4
              the joker, ordered by the natural card's id
    295..315  play both jokers as a pair worth 2..22                     KS-4.4
    316       play four kings                                            KS-5.7
    317       take the table                                             KS-6
    318       refill (refill="manual")                                   KS-7.1
    319       end the turn without refilling (refill="manual")           KS-7.1
"""
from libc.stdint cimport uint8_t, int8_t, int32_t, int64_t
from libc.string cimport memset

from cardcore._fast cimport OPTION_NONE   # the C ABI's view of a game (core/kernel.h)
from cardcore._fast cimport (
    GameState, GameHooks, Header, Multiset, Pile, JOKER, PILE_CAPACITY, MS_MAX_COPIES, R_JACK,
    R_QUEEN, R_KING, card_rank, card_suit, make_card, ms_count, ms_to_list, pile_to_list,
    init_header, check_hooks,
)
from cardcore._fast import build_deck, check_state_class
from cardcore.games.kings_stakes.words import REFUSALS as _REFUSALS
from cardcore.refusals import Refusals

# The rules are C (kernel.c beside this file, the same code the native and WebAssembly
# libraries build); this module wraps them for Python.
cdef extern from "cardcore/games/kings_stakes/kernel.h" nogil:
    enum:
        KS_HAND_SIZE               # KS-3.1, KS-4.5: deal and refill up to 4
        KS_FULL_DECK               # KS-1.1 (50 with 2 players, KS-1.2)
        KS_MAX_PLAYERS             # KS-1.4
        KS_JOKER_MIN_VALUE         # KS-4.4: a lone joker names a value 1..11
        KS_JOKER_MAX_VALUE
    enum:
        KS_NUM_ACTIONS
        KS_FIRST_JOKER_SINGLE
        KS_FIRST_NATURAL_PAIR
        KS_FIRST_JOKER_PAIR
        KS_FIRST_TWO_JOKERS
        KS_A_FOUR_KINGS
        KS_A_TAKE
        KS_A_REFILL
        KS_A_END_TURN
    enum:                          # KSEffect: what a play does (KS-4.3, KS-5)
        KS_E_NONE
        KS_E_NUMBER
        KS_E_JACK
        KS_E_QUEEN
        KS_E_KING
        KS_E_KING_QUEEN
        KS_E_QUEEN_JACK
        KS_E_FOUR_KINGS
    enum:                          # KSPhase
        KS_PH_PLAY
        KS_PH_REFILL
        KS_PH_OVER
    enum:                          # ks_init's values, in options_spec order
        KS_OPT_FIRST_PLAYER
        KS_OPT_ROUNDS
        KS_OPT_TEAMS
        KS_OPT_REFILL
        KS_OPT_SCORING
        KS_NUM_OPTIONS
    enum:                          # the observation's layout
        KS_NUM_IDS
        KS_SEATS
        KS_O_OBSERVER
        KS_O_TO_MOVE
        KS_O_PHASE
        KS_O_HAND
        KS_O_TABLE
        KS_O_DISCARD
        KS_O_PENALTY_COUNTS
        KS_O_HAND_SIZES
        KS_O_SCORES
        KS_O_STAKE
        KS_O_DIRECTION
        KS_O_STOCK_SIZE
        KS_O_CHIP_HOLDER
        KS_O_ROUND
        KS_O_ROUNDS
        KS_O_ROUND_FIRST
        KS_O_OUT_PLAYER
        KS_O_FINAL_OWED
        KS_O_LAST_PLAYER
        KS_O_LAST_ACTION
        KS_O_TEAMS
        KS_OBSERVATION_SIZE

    const int8_t KS_ACT_CARD1[]
    const int8_t KS_ACT_CARD2[]
    const int8_t KS_ACT_JOKERS[]
    const int8_t KS_ACT_EFFECT[]
    const int8_t KS_ACT_AMOUNT[]
    const uint8_t KS_ACT_JOKER_IS_QUEEN[]

    ctypedef struct KSState:       # the fields the Python methods read
        Header h
        int32_t direction, stake
        Multiset hand[KS_MAX_PLAYERS]
        Pile stock, table, discard
        Pile penalty[KS_MAX_PLAYERS]
        int32_t out_player
        int32_t final_owed
        int32_t four_kings_player
        int32_t chip_holder
        int32_t last_round[KS_MAX_PLAYERS]
        int32_t total[KS_MAX_PLAYERS]
        int32_t last_player
        int32_t last_action

    const GameHooks KS_HOOKS
    int ks_init(void* state, int players, const int64_t* values)
    int ks_composition(const void* state, uint8_t* out)
    int ks_card_value(int card)
    int ks_deal_seat(int players, int first, int position)
    void ks_score_round(int players, const int* counts, int four_kings_player, bint by_cards,
                        int32_t* out)
    int ks_check_tables()

# ---------------------------------------------------------------- rule constants
cdef inline int card_value(int card) noexcept nogil:
    """KS-2.1: 2..10 at pip value, the ace 11; 0 for J, Q, K and the joker."""
    return ks_card_value(card)

# ---------------------------------------------------------------- action table
# The action ids as Python names (bots, tools, tests use these; the docstring above lists them).
PLAY_JOKER_FIRST = KS_FIRST_JOKER_SINGLE    # a lone joker as 1..11
PLAY_PAIR_FIRST = KS_FIRST_NATURAL_PAIR
PLAY_WITH_JOKER_FIRST = KS_FIRST_JOKER_PAIR
PLAY_TWO_JOKERS_FIRST = KS_FIRST_TWO_JOKERS
PLAY_FOUR_KINGS = KS_A_FOUR_KINGS
TAKE = KS_A_TAKE
REFILL = KS_A_REFILL
END_TURN = KS_A_END_TURN

# The kernel's table is constant C data (kernel.c: KS_ACT_*, with the tables derived from it
# that ks_check_tables checks); the builder below derives every entry from the rules again,
# checks it against the kernel's, and keeps the Python copy with the joker's meaning.
_TABLE = []                             # Python copy: (kind, naturals, jokers, meaning, effect, amount)
_EFFECT_NAMES = ("none", "number", "jack", "queen", "king", "king_queen", "queen_jack", "four_kings")


cdef int natural_effect(int card):
    cdef int r = card_rank(card)
    return {R_JACK: KS_E_JACK, R_QUEEN: KS_E_QUEEN, R_KING: KS_E_KING}.get(r, KS_E_NUMBER)


cdef int add_action(list meaning, int c1, int c2, int jokers, int effect, int amount,
                    bint joker_is_queen=False) except -1:
    cdef int i = len(_TABLE)
    if i >= KS_NUM_ACTIONS or (
            KS_ACT_CARD1[i], KS_ACT_CARD2[i], KS_ACT_JOKERS[i], KS_ACT_EFFECT[i],
            KS_ACT_AMOUNT[i], KS_ACT_JOKER_IS_QUEEN[i]) != (
            c1, c2, jokers, effect, amount, joker_is_queen):
        raise ImportError(f"Kings' Stakes: the kernel's action {i} differs from the rules")
    naturals = tuple(c for c in (c1, c2) if c >= 0)
    _TABLE.append(("play" if effect != KS_E_NONE else "", naturals, jokers, tuple(meaning),
                   _EFFECT_NAMES[effect], amount))
    return 0


def _natural_pair_effect(int a, int b):
    """(effect, amount) of two natural cards played together, or None (KS-4.2, KS-5.5, KS-5.6)."""
    ra, rb, sa, sb = card_rank(a), card_rank(b), card_suit(a), card_suit(b)
    va, vb = card_value(a), card_value(b)
    if va and vb:
        if ra == rb or (sa == sb and abs(va - vb) == 1):
            return (KS_E_NUMBER, va + vb)
        return None
    if sa == sb and {ra, rb} == {R_KING, R_QUEEN}:
        return (KS_E_KING_QUEEN, 0)
    if sa == sb and {ra, rb} == {R_QUEEN, R_JACK}:
        return (KS_E_QUEEN_JACK, 0)
    return None            # KS-4.2 Decision: no J-J, Q-Q, K-K, no face card with a number


cdef void build_table() except *:
    cdef int c, a, b, v, s, r, w
    for c in range(52):                                        # singles
        add_action([], c, -1, 0, natural_effect(c), card_value(c))
    for v in range(KS_JOKER_MIN_VALUE, KS_JOKER_MAX_VALUE + 1):    # lone joker
        add_action([v], -1, -1, 1, KS_E_NUMBER, v)
    assert len(_TABLE) == KS_FIRST_NATURAL_PAIR
    for a in range(52):                                        # natural pairs
        for b in range(a + 1, 52):
            found = _natural_pair_effect(a, b)
            if found is not None:
                add_action([], a, b, 0, found[0], found[1])
    assert len(_TABLE) == KS_FIRST_JOKER_PAIR, len(_TABLE)
    for c in range(52):                                        # a card with a joker
        s, r, w = card_suit(c), card_rank(c), card_value(c)
        if w:
            add_action(["same"], c, -1, 1, KS_E_NUMBER, 2 * w)    # joker as the same rank
            for partner_rank in range(13):                     # joker as the adjacent card
                partner = make_card(s, partner_rank)
                pv = card_value(partner)
                if pv and abs(pv - w) == 1:
                    add_action([partner], c, -1, 1, KS_E_NUMBER, w + pv)
        elif r == R_KING:
            add_action([make_card(s, R_QUEEN)], c, -1, 1, KS_E_KING_QUEEN, 0, True)
        elif r == R_QUEEN:
            add_action([make_card(s, R_KING)], c, -1, 1, KS_E_KING_QUEEN, 0)
            add_action([make_card(s, R_JACK)], c, -1, 1, KS_E_QUEEN_JACK, 0)
        elif r == R_JACK:
            add_action([make_card(s, R_QUEEN)], c, -1, 1, KS_E_QUEEN_JACK, 0, True)
    assert len(_TABLE) == KS_FIRST_TWO_JOKERS, len(_TABLE)
    for v in range(2, 23):                                     # two jokers: values (v//2, v-v//2)
        add_action([v // 2, v - v // 2], -1, -1, 2, KS_E_NUMBER, v)
    add_action([], -1, -1, 0, KS_E_FOUR_KINGS, 0)
    assert len(_TABLE) == KS_A_FOUR_KINGS + 1
    for kind in ("take", "refill", "end_turn"):
        add_action([], -1, -1, 0, KS_E_NONE, 0)
        _TABLE[-1] = (kind,) + _TABLE[-1][1:]
    assert len(_TABLE) == KS_NUM_ACTIONS
    # The stake limits, the pair ids and the joker runs legal_play_phase reads (kernel.c).
    bad = ks_check_tables()
    if bad >= 0:
        raise ImportError(f"Kings' Stakes: the kernel's derived tables differ at {bad}")

build_table()


def action_table() -> list:
    """One tuple per id: (kind, natural card ids, jokers, joker meaning, effect, amount).
    The joker meaning is () or a tuple: a value per joker, a card id it stands for, or "same"."""
    return list(_TABLE)


def num_actions() -> int:
    return KS_NUM_ACTIONS


HAND_SIZE = KS_HAND_SIZE

# ---------------------------------------------------------------- scoring (KS-9)
def round_points(counts, four_kings_player=None, scoring="rank") -> list:
    """KS-9 round points for penalty-card counts (the function the state machine uses)."""
    cdef int n = len(counts), p
    if not 2 <= n <= KS_MAX_PLAYERS:
        raise ValueError(f"need 2..{KS_MAX_PLAYERS} counts")
    if scoring not in ("rank", "cards"):
        raise ValueError("scoring must be 'rank' or 'cards'")
    fk = -1 if four_kings_player is None else int(four_kings_player)
    if not -1 <= fk < n:
        raise ValueError("four_kings_player out of range")
    cdef int c_counts[KS_MAX_PLAYERS]
    cdef int32_t out[KS_MAX_PLAYERS]
    for p in range(n):
        if counts[p] < 0:
            raise ValueError("counts must be >= 0")
        c_counts[p] = counts[p]
    ks_score_round(n, c_counts, fk, scoring == "cards", out)
    return [out[p] for p in range(n)]


# ---------------------------------------------------------------- the state
PHASES = ("play", "refill", "over")

if <int>KS_FULL_DECK > <int>PILE_CAPACITY or 2 > <int>MS_MAX_COPIES:
    raise ImportError("Kings' Stakes needs a larger Pile or Multiset than the core provides")


# ---------------------------------------------------------------- the deal plan (KS-3.1)
def deal_plan(int players, int first) -> list:
    """The zone of each deck position (top first): "hand:<seat>" or "stock". The deal below
    walks this same function, so tests and the wrapper derive stacked decks from it."""
    if not 2 <= players <= KS_MAX_PLAYERS or not 0 <= first < players:
        raise ValueError("players must be 2..6 and first a seat")
    cdef int n = len(kings_stakes_deck(players))
    return [f"hand:{ks_deal_seat(players, first, i)}" if ks_deal_seat(players, first, i) >= 0
            else "stock" for i in range(n)]


# ---------------------------------------------------------------- the scoring breakdown (KS-9)
# The rows the kernel's end_round writes as it scores (indexes into these).
BREAKDOWN_WHAT = ("penalty cards", "forget-me chip")
BREAKDOWN_RULES = ("KS-9.1", "KS-9.2", "KS-9.3", "KS-9.6", "KS-7.3")


# ---------------------------------------------------------------- the per-seat projection
# The observation: what view(seat) shows, as floats (kernel.h's KS_O_* offsets, named here).
OBSERVATION_PIECES = tuple((name, offset, size) for name, offset, size in (
    ("observer", KS_O_OBSERVER, KS_SEATS), ("current_player", KS_O_TO_MOVE, KS_SEATS),
    ("phase", KS_O_PHASE, 3), ("hand", KS_O_HAND, KS_NUM_IDS), ("table", KS_O_TABLE, KS_NUM_IDS),
    ("discard", KS_O_DISCARD, KS_NUM_IDS), ("penalty_counts", KS_O_PENALTY_COUNTS, KS_SEATS),
    ("hand_sizes", KS_O_HAND_SIZES, KS_SEATS), ("scores", KS_O_SCORES, KS_SEATS),
    ("stake", KS_O_STAKE, 1), ("direction", KS_O_DIRECTION, 1),
    ("stock_size", KS_O_STOCK_SIZE, 1), ("chip_holder", KS_O_CHIP_HOLDER, KS_SEATS + 1),
    ("round", KS_O_ROUND, 1), ("rounds", KS_O_ROUNDS, 1),
    ("round_first_player", KS_O_ROUND_FIRST, KS_SEATS),
    ("out_player", KS_O_OUT_PLAYER, KS_SEATS + 1), ("final_turns_owed", KS_O_FINAL_OWED, KS_SEATS),
    ("last_play_player", KS_O_LAST_PLAYER, KS_SEATS + 1),
    ("last_play_action", KS_O_LAST_ACTION, KS_NUM_ACTIONS), ("teams", KS_O_TEAMS, 1)))
assert sum(size for _, _, size in OBSERVATION_PIECES) == KS_OBSERVATION_SIZE

# The hook table (kernel.c's KS_HOOKS: start, legal, apply, observe, returns, scores,
# sample_hidden, zone_cards, breakdown and GreedyBot's policy), checked as every game's is.
check_hooks(&KS_HOOKS)


cdef class KingsStakesState(GameState):
    """Kings' Stakes: the struct above, bound to the framework; getters for the view."""
    cdef KSState d

    match_end_rule = "KS-9.4"
    breakdown_what = BREAKDOWN_WHAT
    breakdown_rules = BREAKDOWN_RULES
    refusals = Refusals(_REFUSALS)  # the templates of the kernel's refusals (ks_refuse)

    def __cinit__(self, *args, **kwargs):
        memset(&self.d, 0, sizeof(KSState))
        self.bind(&KS_HOOKS, &self.d, &self.d.h)

    def __init__(self, int players, dict options, deck=None):
        if not 2 <= players <= KS_MAX_PLAYERS:
            raise ValueError(f"players must be 2..{KS_MAX_PLAYERS}")
        composition = kings_stakes_deck(players)
        init_header(&self.d.h, players, deck, composition)
        # The resolved options as the C ABI gives them (ks_init: one setup path for both).
        cdef int64_t values[KS_NUM_OPTIONS]
        fp = options["first_player"]
        rounds = options["rounds"]
        values[KS_OPT_FIRST_PLAYER] = OPTION_NONE if fp is None else fp
        values[KS_OPT_ROUNDS] = OPTION_NONE if rounds is None else rounds
        values[KS_OPT_TEAMS] = bool(options["teams"])
        values[KS_OPT_REFILL] = options["refill"] == "manual"
        values[KS_OPT_SCORING] = options["scoring"] == "cards"
        if ks_init(&self.d, players, values) < 0:
            raise ValueError(f"Kings' Stakes cannot take the options {options!r}")

    def hand(self, p) -> list:
        return ms_to_list(&self.d.hand[self.check_seat(p)])

    def hand_sizes(self) -> list:
        return [self.d.hand[p].total for p in range(self.d.h.players)]

    def table(self) -> list:
        return pile_to_list(&self.d.table)

    def discard(self) -> list:
        return pile_to_list(&self.d.discard)

    def stock(self) -> list:
        """The stock top-first (hidden information: for tests and tools only)."""
        return pile_to_list(&self.d.stock)[::-1]

    def penalty(self, p) -> list:
        return pile_to_list(&self.d.penalty[self.check_seat(p)])

    def penalty_counts(self) -> list:
        return [self.d.penalty[p].size for p in range(self.d.h.players)]

    @property
    def stake(self) -> int:
        return self.d.stake

    @property
    def direction(self) -> int:
        return self.d.direction

    @property
    def stock_size(self) -> int:
        return self.d.stock.size

    @property
    def chip_holder(self):
        return None if self.d.chip_holder < 0 else self.d.chip_holder

    @property
    def round_first_player(self) -> int:
        return self.d.h.dealer

    @property
    def out_player(self):
        return None if self.d.out_player < 0 else self.d.out_player

    @property
    def final_turns_owed(self) -> list:
        return [p for p in range(self.d.h.players) if (self.d.final_owed >> p) & 1]

    @property
    def last_play(self):
        """(seat, action id) of the last play or take this round, or None."""
        return None if self.d.last_player < 0 else (self.d.last_player, self.d.last_action)

    @property
    def four_kings_player(self):
        return None if self.d.four_kings_player < 0 else self.d.four_kings_player

    def last_round_scores(self) -> list:
        return [self.d.last_round[p] for p in range(self.d.h.players)]

    def player_totals(self) -> list:
        return [self.d.total[p] for p in range(self.d.h.players)]

    def all_cards(self) -> list:
        cards = []
        for p in range(self.d.h.players):
            cards += self.hand(p) + self.penalty(p)
        return cards + self.table() + self.discard() + self.stock()


check_state_class(KingsStakesState)


def kings_stakes_deck(int players) -> list:
    """KS-1.1 one deck and two jokers; KS-1.2 without the queens for 2 players."""
    ranks = [r for r in range(13) if not (players == 2 and r == R_QUEEN)]
    return build_deck([ranks], 2)


# The kernel's composition (ks_composition, for the C ABI) is this one.
cdef int check_composition() except -1:
    cdef KSState s
    cdef uint8_t out[KS_FULL_DECK]
    for players in range(2, KS_MAX_PLAYERS + 1):
        memset(&s, 0, sizeof(KSState))
        s.h.players = players
        n = ks_composition(&s, out)
        if [out[i] for i in range(n)] != kings_stakes_deck(players):
            raise ImportError("Kings' Stakes: the kernel's deck differs from kings_stakes_deck")
    return 0

check_composition()
