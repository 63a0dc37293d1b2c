# cython: language_level=3
"""Manna from Heaven: the rule constants, card predicates and action-id layout shared by the
meld table (_melds), the minimum search (_minimum) and the state machine (_state).

Compile-time only (enums and inline functions): there is no _rules module at run time.
Rules: games/manna.md (rule IDs MH-x.y). The action ids are listed in _state.pyx's docstring.
"""
from cardcore._fast cimport JOKER

# ---------------------------------------------------------------- rule constants
cdef enum:
    NPLAYERS = 6            # MH-1.4: two teams of three, team = seat % 2
    NTEAMS = 2
    NUM_DECKS = 4           # MH-1.1: four decks ...
    NUM_JOKERS = 8          # ... and eight jokers
    DECK_SIZE = 216         # MH-1.1: 4 * 52 + 8
    MAX_ID_COPIES = 8       # the most copies of one card id (the joker)
    HAND_DEAL = 13          # MH-2.2
    FOOT_DEAL = 11          # MH-2.2
    DRAW_COUNT = 2          # MH-3.1
    CANASTA = 7             # MH-4.1: a canasta is exactly 7 cards and closed
    MIN_MELD = 3            # MH-4.1
    MAX_WILDS = 3           # MH-4.2
    MIN_NATURALS = 2        # MH-4.2
    GOING_OUT_BONUS = 100   # MH-10.4
    RED_THREE_EACH = 100    # MH-8.3
    RED_THREES_ALL = 1000   # MH-8.3: all 8 to one team
    ALL_RED_THREES = 8
    FOOT_RED_THREE = 100    # MH-8.4
    MAX_HANDS = 1000        # MH-10.7 Decision (termination guard): the match ends after 1000 hands

# Rank indexes and meld groups.
cdef enum:
    R_ACE = 0
    R_TWO = 1
    R_THREE = 2
    R_SEVEN = 6
    K_JOKER = 13            # index of the joker in per-kind count arrays
    NRK = 14                # per-kind count arrays: ranks 0..12 and the joker
    G_WILD = 13             # meld group of the wild meld (MH-4.3)
    G_BLACK3 = 14           # meld group of black threes when going out (MH-4.7)
    NGROUPS = 15
    NAT_GROUPS = 11         # the natural-rank groups: A 4 5 6 7 8 9 10 J Q K
    MAX_TEAM_MELDS = 80

# Canasta types (MH-4.5) as bits of a team's ``types`` mask.
cdef enum:
    CT_NONE = 0
    CT_NATURAL = 1
    CT_MIXED = 2
    CT_WILD = 4
    CT_SEVENS = 8
    CT_ALL = 15             # MH-9.1: one of each type to go out
    # Not canasta types: extra bits of a team's mask saying which rank a mixed canasta has, so
    # that MH-9.1 can let a mixed canasta of sevens serve as the sevens one (MH-4.6 Decision).
    CT_MIXED_SEVENS = 16    # a mixed canasta of sevens (only with wild_sevens)
    CT_MIXED_OTHER = 32     # a mixed canasta of any other rank

# Option values (MH-10.5 foot_penalty).
cdef enum:
    FOOT_RED_THREES = 0     # an unopened foot costs only its red threes (MH-8.4)
    FOOT_CARDS = 1          # ... and the points of its other cards too (0.1, Hand-and-Foot)

# ---------------------------------------------------------------- action ids
cdef enum:
    A_DRAW = 0
    A_TAKE_ADD = 1
    A_TAKE_PAIR = 2
    A_TAKE_TWO = 3
    A_TAKE_JOKER = 4
    A_RETRACT = 5
    A_DISCARD = 6
    A_GO_OUT = 59
    A_MELD = 112
    NAT_NEW = 39            # NEW (n, t, j) triples of a natural-rank group
    NAT_ADD = 29            # ADDITION triples of a natural-rank group
    NAT_GROUP = 68
    A_WILD = 860            # A_MELD + 11 * 68
    WILD_NEW = 30
    WILD_ADD = 14
    A_BLACK3 = 904
    NUM_ACTIONS = 909
    MELD_IDS = 797          # NUM_ACTIONS - A_MELD

# ---------------------------------------------------------------- card predicates
cdef inline int rank_points(int kind) noexcept nogil:
    """MH-1.3: points of a card kind (rank 0..12 = A 2 3 .. K, 13 = the joker)."""
    if kind == K_JOKER:
        return 50
    if kind <= R_TWO:
        return 20           # ace, two
    if kind <= R_SEVEN:
        return 5            # 3..7
    return 10               # 8..K

cdef inline int kind_of(int card) noexcept nogil:
    """Index into per-kind arrays: rank 0..12, the joker 13."""
    return K_JOKER if card == JOKER else card % 13

cdef inline int card_points(int card) noexcept nogil:
    return rank_points(kind_of(card))

cdef inline bint is_wild(int card) noexcept nogil:
    return card == JOKER or card % 13 == R_TWO          # MH-1.2

cdef inline bint is_red_three(int card) noexcept nogil:
    return card != JOKER and card % 13 == R_THREE and card // 13 >= 2    # MH-1.2: D, H

cdef inline bint is_black_three(int card) noexcept nogil:
    return card != JOKER and card % 13 == R_THREE and card // 13 < 2

cdef inline bint natural_rank(int r) noexcept nogil:
    """MH-1.2: ranks 4..K and A can be melded as natural-rank melds."""
    return r == R_ACE or r > R_THREE

cdef inline int natural_group(int index) noexcept nogil:
    """The index-th natural-rank group (0..10) in id order: A 4 5 6 7 8 9 10 J Q K."""
    return R_ACE if index == 0 else index + R_THREE

cdef inline int canasta_bonus(int ctype) noexcept nogil:
    """MH-4.5."""
    if ctype == CT_NATURAL:
        return 500
    if ctype == CT_MIXED:
        return 300
    if ctype == CT_WILD:
        return 1000
    if ctype == CT_SEVENS:
        return 1500
    return 0

cdef inline int type_bits(int group, int ctype) noexcept nogil:
    """The bits a completed canasta adds to its team's mask: its type and, if mixed, its rank kind."""
    if ctype == CT_MIXED:
        return CT_MIXED | (CT_MIXED_SEVENS if group == R_SEVEN else CT_MIXED_OTHER)
    return ctype

cdef inline int min_meld_for(int score) noexcept nogil:
    """MH-4.8: the initial-meld minimum by the team's cumulative score."""
    if score < 0:
        return 15
    if score < 500:
        return 50
    if score < 1000:
        return 90
    if score < 1500:
        return 120
    return 150
