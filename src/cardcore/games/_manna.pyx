# cython: language_level=3, cdivision=True
"""Manna from Heaven (Pennies from Heaven canasta): the meld engine and the state machine.

Rules: games/manna.md (rule IDs MH-x.y). One module holds both the meld engine (meld validity,
canasta classification, the enumeration of every legal new meld and addition as count-based
actions, the initial-minimum reachability search ``reach_min``, the pile-taking legality) and
the state machine ``MannaState``; the engine functions are cdef so the state uses them without
a Python call, and small ``py_*`` wrappers expose them to the differential tests.

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
    112..859    natural-rank melds: 11 groups of 68 ids, ranks in id order A 4 5 6 7 8 9 10 J Q K;
                in a group, ids 0..38 are NEW melds and 39..67 ADDITIONS, each an (n, t, j) =
                (naturals, twos, jokers) count triple from the tables below, in that order
    860..903    wild melds: 30 NEW (t + j = 3..7) then 14 ADDITIONS (t + j = 1..4)     (MH-4.3)
    904..908    a meld of n = 3..7 black threes when going out                          (MH-4.7)
NEW natural triples: n = 2..7, t = 0..3, j = 0..3 - t, 3 <= n+t+j <= 7, at least one wild when n = 2.
ADD natural triples: n = 0..4, t = 0..3, j = 0..3 - t, 1 <= n+t+j <= 4.
Wild triples: k = t + j ascending, t = k..0 descending (most twos first).
Naturals of a rank are interchangeable: the engine moves the lowest card ids (suit order C S D H).
"""
from libc.stdint cimport uint8_t, int8_t, int16_t, int32_t, uint64_t
from libc.string cimport memset

from cardcore._fast cimport (
    GameState, Pile, JOKER, NUM_KINDS, card_rank, card_suit, make_card,
    pile_push, pile_pop, pile_top, load_cards, rng_below, shuffle_u8, MAX_CARDS,
)
from cardcore._fast import build_deck

# ---------------------------------------------------------------- rule constants
cdef enum:
    NPLAYERS = 6            # MH-1.4: two teams of three, team = seat % 2
    DECK_SIZE = 216         # MH-1.1: four decks and 8 jokers
    HAND_DEAL = 13          # MH-2.2
    FOOT_DEAL = 11          # MH-2.2
    STOCK_START = 144       # MH-2.3: 6 * (13 + 11) cards dealt, 72 left
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
    DEFAULT_TARGET = 20000  # MH-10.6

cdef enum:
    R_ACE = 0
    R_TWO = 1
    R_THREE = 2
    R_SEVEN = 6
    K_JOKER = 13            # index of the joker in per-rank count arrays
    NRK = 14                # per-rank count arrays: ranks 0..12 and the joker
    G_WILD = 13             # meld group of the wild meld (MH-4.3)
    G_BLACK3 = 14           # meld group of black threes when going out (MH-4.7)
    NGROUPS = 15
    MAX_TEAM_MELDS = 80

# Canasta types (MH-4.5) as bits of a team's ``types`` mask.
cdef enum:
    CT_NONE = 0
    CT_NATURAL = 1
    CT_MIXED = 2
    CT_WILD = 4
    CT_SEVENS = 8
    CT_ALL = 15             # MH-9.1: one of each type to go out

cdef int canasta_bonus(int ctype) noexcept nogil:
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

# MH-1.3 card points by rank index (A 2 3 4 5 6 7 8 9 10 J Q K) and the joker.
cdef int RANK_POINTS[NRK]
RANK_POINTS[:] = [20, 20, 5, 5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 50]

cdef inline int card_points(int card) noexcept nogil:
    return RANK_POINTS[K_JOKER] if card == JOKER else RANK_POINTS[card % 13]

cdef inline int kind_of(int card) noexcept nogil:
    """Index into per-rank arrays: rank 0..12, the joker 13."""
    return K_JOKER if card == JOKER else card % 13

cdef inline bint is_wild(int card) noexcept nogil:
    return card == JOKER or card % 13 == R_TWO          # MH-1.2

cdef inline bint is_red_three(int card) noexcept nogil:
    return card != JOKER and card % 13 == R_THREE and card // 13 >= 2    # MH-1.2: D, H

cdef inline bint is_black_three(int card) noexcept nogil:
    return card != JOKER and card % 13 == R_THREE and card // 13 < 2

cdef inline bint natural_rank(int r) noexcept nogil:
    """MH-1.2: ranks 4..K and A can be melded as natural-rank melds."""
    return r == R_ACE or r > R_THREE

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

def py_min_meld(int score) -> int:
    """MH-4.8 for tests and tools."""
    return min_meld_for(score)

# ---------------------------------------------------------------- action table
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
    NAT_NEW = 39
    NAT_ADD = 29
    NAT_GROUP = 68
    A_WILD = 860            # A_MELD + 11 * 68
    WILD_NEW = 30
    WILD_ADD = 14
    A_BLACK3 = 904
    NUM_ACTIONS = 909

# Decoded meld ids (index = id - A_MELD).
cdef int8_t M_GROUP[NUM_ACTIONS - A_MELD]
cdef int8_t M_NEW[NUM_ACTIONS - A_MELD]
cdef int8_t M_N[NUM_ACTIONS - A_MELD]
cdef int8_t M_T[NUM_ACTIONS - A_MELD]
cdef int8_t M_J[NUM_ACTIONS - A_MELD]
cdef int16_t GROUP_FIRST[NGROUPS]      # first meld id of a group (natural groups by rank), -1
cdef int8_t NAT_RANKS[11]
NAT_RANKS[:] = [0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]

PHASES = ("draw", "meld", "over")
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
_MELD_TABLE = []     # (group, new, n, t, j) per meld id, in id order


cdef void build_table():
    cdef int i = 0, gi, g, n, t, j, k
    for g in range(NGROUPS):
        GROUP_FIRST[g] = -1
    for gi in range(11):
        g = NAT_RANKS[gi]
        GROUP_FIRST[g] = A_MELD + i
        for n in range(2, 8):                       # NEW
            for t in range(4):
                for j in range(4 - t):
                    k = n + t + j
                    if MIN_MELD <= k <= CANASTA:
                        M_GROUP[i] = g; M_NEW[i] = 1; M_N[i] = n; M_T[i] = t; M_J[i] = j
                        _MELD_TABLE.append((g, True, n, t, j))
                        i += 1
        for n in range(5):                          # ADD
            for t in range(4):
                for j in range(4 - t):
                    k = n + t + j
                    if 1 <= k <= CANASTA - MIN_MELD:
                        M_GROUP[i] = g; M_NEW[i] = 0; M_N[i] = n; M_T[i] = t; M_J[i] = j
                        _MELD_TABLE.append((g, False, n, t, j))
                        i += 1
    GROUP_FIRST[G_WILD] = A_MELD + i
    for k in range(MIN_MELD, CANASTA + 1):
        for t in range(k, -1, -1):
            M_GROUP[i] = G_WILD; M_NEW[i] = 1; M_N[i] = 0; M_T[i] = t; M_J[i] = k - t
            _MELD_TABLE.append((G_WILD, True, 0, t, k - t))
            i += 1
    for k in range(1, CANASTA - MIN_MELD + 1):
        for t in range(k, -1, -1):
            M_GROUP[i] = G_WILD; M_NEW[i] = 0; M_N[i] = 0; M_T[i] = t; M_J[i] = k - t
            _MELD_TABLE.append((G_WILD, False, 0, t, k - t))
            i += 1
    GROUP_FIRST[G_BLACK3] = A_MELD + i
    for n in range(MIN_MELD, CANASTA + 1):
        M_GROUP[i] = G_BLACK3; M_NEW[i] = 1; M_N[i] = n; M_T[i] = 0; M_J[i] = 0
        _MELD_TABLE.append((G_BLACK3, True, n, 0, 0))
        i += 1
    assert A_MELD + i == NUM_ACTIONS, (A_MELD + i)
    assert GROUP_FIRST[G_WILD] == A_WILD and GROUP_FIRST[G_BLACK3] == A_BLACK3

build_table()


def meld_table() -> list:
    """(group, new, naturals, twos, jokers) for ids A_MELD.. in order; group 0..12 = rank,
    13 = wild, 14 = black threes."""
    return list(_MELD_TABLE)


ACTION_LAYOUT = {
    "draw": A_DRAW, "take_add": A_TAKE_ADD, "take_pair": A_TAKE_PAIR, "take_two": A_TAKE_TWO,
    "take_joker": A_TAKE_JOKER, "retract": A_RETRACT, "discard": A_DISCARD, "go_out": A_GO_OUT,
    "meld": A_MELD, "wild": A_WILD, "black3": A_BLACK3, "num_actions": NUM_ACTIONS,
    "nat_group": NAT_GROUP, "nat_new": NAT_NEW,
}

# ---------------------------------------------------------------- meld validity (MH-4)
cdef int meld_shape_ok(int group, int naturals, int wilds, bint wild_sevens) noexcept nogil:
    """A meld's composition is valid (MH-4.1..4.3, 4.6, 4.7): 1 if so."""
    cdef int size = naturals + wilds
    if size < MIN_MELD or size > CANASTA:
        return 0
    if group == G_WILD:
        return naturals == 0
    if group == G_BLACK3:
        return wilds == 0
    if not natural_rank(group):
        return 0
    if group == R_SEVEN and not wild_sevens and wilds > 0:
        return 0
    return naturals >= MIN_NATURALS and wilds <= MAX_WILDS


cdef int canasta_type(int group, int naturals, int wilds) noexcept nogil:
    """MH-4.5: the type of a 7-card meld (CT_NONE if not a canasta)."""
    if naturals + wilds != CANASTA or group == G_BLACK3:
        return CT_NONE
    if group == G_WILD:
        return CT_WILD
    if wilds > 0:
        return CT_MIXED                 # MH-4.6: wild sevens make a mixed canasta
    if group == R_SEVEN:
        return CT_SEVENS
    return CT_NATURAL


def py_meld_shape_ok(int group, int naturals, int wilds, bint wild_sevens=False) -> bool:
    if not 0 <= group < NGROUPS or naturals < 0 or wilds < 0:
        raise ValueError("group 0..14, counts >= 0")
    return bool(meld_shape_ok(group, naturals, wilds, wild_sevens))


def py_canasta_type(int group, int naturals, int wilds) -> str:
    if not 0 <= group < NGROUPS or naturals < 0 or wilds < 0:
        raise ValueError("group 0..14, counts >= 0")
    return {CT_NONE: "", CT_NATURAL: "natural", CT_MIXED: "mixed", CT_WILD: "wild",
            CT_SEVENS: "sevens"}[canasta_type(group, naturals, wilds)]

# ---------------------------------------------------------------- initial-minimum search (MH-4.8, MH-5.5)
ctypedef struct ReachIn:
    int nat[13]         # naturals in hand per rank (all of them)
    int cred[13]        # of those, how many count toward the minimum
    int twos, jokers, cred_twos, cred_jokers
    int ex_size[NGROUPS]   # the team's unfinished meld per group: size (0 = none)
    int ex_wild[NGROUPS]   # and its wild cards
    int hand            # cards in hand
    int points          # points already counted this turn
    int need            # the minimum
    bint foot           # the player still has the foot (a canasta would bring it: hand >= 3)
    bint wild_sevens

# DP scratch: best[comp][w][c] = most natural points (-1 = unreachable).
cdef enum:
    DP_W = 25               # wild cards used: at most 16 twos + 8 jokers
    DP_C = 104              # cards melded (only when the hand-keep rule can bind)
cdef int DP_A[2 * DP_W * DP_C]
cdef int DP_B[2 * DP_W * DP_C]


cdef inline int wild_points(const ReachIn* q, int w) noexcept:
    """Counted points of w wild cards used as well as possible: jokers and twos are
    interchangeable in every meld, so the counted jokers go first, then the counted twos."""
    cdef int jk = w if w < q.cred_jokers else q.cred_jokers
    cdef int rest = w - jk
    return 50 * jk + 20 * (rest if rest < q.cred_twos else q.cred_twos)


cdef bint greedy_reach(const ReachIn* q) noexcept:
    """A quick sufficient test: one feasible plan without a canasta. Each rank gives a chunk
    (its naturals up to 6 cards), the wild cards one more (into the wild meld); the richest
    chunks are taken until the minimum is met, sparing two cards. False = don't know."""
    cdef int r, gi, a, s, x, i, k, n = 0, pts = q.points, used = 0
    cdef int cpts[12]
    cdef int ccards[12]
    for gi in range(11):
        r = NAT_RANKS[gi]
        s = q.ex_size[r]
        a = q.nat[r] if q.nat[r] < CANASTA - 1 - s else CANASTA - 1 - s
        if a <= 0 or (s == 0 and a < MIN_MELD):
            continue
        cpts[n] = RANK_POINTS[r] * (a if a < q.cred[r] else q.cred[r])
        ccards[n] = a
        n += 1
    s = q.ex_size[G_WILD]
    x = q.twos + q.jokers
    if x > CANASTA - 1 - s:
        x = CANASTA - 1 - s
    if x > 0 and (s > 0 or x >= MIN_MELD):
        cpts[n] = wild_points(q, x)
        ccards[n] = x
        n += 1
    # Richest first (insertion sort of at most 12 chunks).
    for i in range(1, n):
        a = cpts[i]
        x = ccards[i]
        k = i - 1
        while k >= 0 and cpts[k] < a:
            cpts[k + 1] = cpts[k]
            ccards[k + 1] = ccards[k]
            k -= 1
        cpts[k + 1] = a
        ccards[k + 1] = x
    for i in range(n):
        if cpts[i] == 0:
            break
        pts += cpts[i]
        used += ccards[i]
        if pts >= q.need:
            return used <= q.hand - 2
    return False


cdef bint reach_min(const ReachIn* q) noexcept:
    """Can a sequence of legal melds this turn bring the counted points to q.need?

    Exact for the engine's rules: every group (rank, or the wild meld) ends the search either
    unchanged, or grown to 3..6 cards by one legal new meld or addition, or (in at most one group,
    as the last meld) completed to a canasta, which is legal only if it reaches the minimum
    (MH-4.8 Decision). Every meld but a foot-bringing canasta must leave 2 cards in hand
    (MH-9.3: one to discard, one to keep). A DP over groups with state (wild cards used, cards
    melded, canasta used) keeps the most natural points; the points of the wild cards depend
    only on how many are used (wild_points), so they are added at the end.
    """
    cdef int r, g, gi, a, w, h, s, final, capw, natpts, k, amax
    cdef int W, Wn, Cn, L, ww, cc, comp, c2, v, total, idx, idx2, nstates, nopt, o
    cdef int meldable = 0
    cdef bint cards_dim
    cdef int* cur
    cdef int* nxt
    cdef int* tmp
    cdef int opt_w[64]
    cdef int opt_k[64]
    cdef int opt_pts[64]
    cdef int opt_comp[64]
    if q.points >= q.need:
        return True
    # Upper bound: every counted card melded.
    total = q.points + 20 * q.cred_twos + 50 * q.cred_jokers
    for r in range(13):
        if natural_rank(r):
            total += RANK_POINTS[r] * q.cred[r]
    if total < q.need:
        return False
    if greedy_reach(q):
        return True
    W = q.twos + q.jokers
    if W > DP_W - 1:
        W = DP_W - 1
    Wn = W + 1
    for gi in range(11):
        r = NAT_RANKS[gi]
        meldable += q.nat[r] if q.nat[r] < CANASTA else CANASTA
    meldable += W
    L = q.hand - 2            # cards that may be melded before a foot-bringing canasta
    cards_dim = meldable > L  # the cards dimension is needed only if the hand-keep rule binds
    Cn = (L + 1 if L >= 0 else 1) if cards_dim else 1
    if Cn > DP_C:
        Cn = DP_C
    nstates = 2 * Wn * Cn
    cur = DP_A
    nxt = DP_B
    for idx in range(nstates):
        cur[idx] = -1
    cur[0] = 0
    for gi in range(12):
        g = NAT_RANKS[gi] if gi < 11 else G_WILD
        h = 0 if g == G_WILD else q.nat[g]
        s = q.ex_size[g]
        if g == R_SEVEN and not q.wild_sevens:
            capw = 0
        elif g == G_WILD:
            capw = CANASTA
        else:
            capw = MAX_WILDS - q.ex_wild[g]
        if capw > W:
            capw = W
        # The group's options: one legal meld taking it from s to `final` cards.
        nopt = 0
        amax = h if h < CANASTA else CANASTA
        for a in range(amax + 1):
            natpts = 0 if g == G_WILD else RANK_POINTS[g] * (a if a < q.cred[g] else q.cred[g])
            for w in range(capw + 1):
                k = a + w
                final = s + k
                if k == 0 or final > CANASTA:
                    continue
                if s == 0 and (final < MIN_MELD or (g != G_WILD and a < MIN_NATURALS)):
                    continue
                opt_w[nopt] = w
                opt_k[nopt] = k
                opt_pts[nopt] = natpts
                opt_comp[nopt] = 1 if final == CANASTA else 0
                nopt += 1
        if nopt == 0:
            continue
        for idx in range(nstates):
            nxt[idx] = cur[idx]          # the group left alone
        for idx in range(nstates):
            v = cur[idx]
            if v < 0:
                continue
            cc = idx % Cn
            ww = (idx // Cn) % Wn
            comp = idx // (Cn * Wn)
            for o in range(nopt):
                w = opt_w[o]
                if ww + w > W or (comp and opt_comp[o]):
                    continue
                c2 = cc
                if not (opt_comp[o] and q.foot):
                    if L < 0:
                        continue
                    if cards_dim:
                        c2 = cc + opt_k[o]
                        if c2 >= Cn:
                            continue
                idx2 = ((comp | opt_comp[o]) * Wn + ww + w) * Cn + c2
                if v + opt_pts[o] > nxt[idx2]:
                    nxt[idx2] = v + opt_pts[o]
        tmp = cur
        cur = nxt
        nxt = tmp
        # Later groups may be left alone: stop as soon as a state reaches the minimum.
        for idx in range(nstates):
            v = cur[idx]
            if v >= 0 and q.points + v + wild_points(q, (idx // Cn) % Wn) >= q.need:
                return True
    return False


def py_reach_min(nat, cred, int twos, int jokers, int cred_twos, int cred_jokers,
                 ex_size, ex_wild, int hand, int points, int need, bint foot,
                 bint wild_sevens=False) -> bool:
    """Python face of reach_min for tests: nat/cred per rank (13), ex_* per group (15)."""
    cdef ReachIn q
    memset(&q, 0, sizeof(ReachIn))
    if len(nat) != 13 or len(cred) != 13 or len(ex_size) != NGROUPS or len(ex_wild) != NGROUPS:
        raise ValueError("nat/cred need 13 entries, ex_size/ex_wild 15")
    for r in range(13):
        if not 0 <= cred[r] <= nat[r] <= 64:
            raise ValueError("0 <= cred <= nat <= 64")
        q.nat[r] = nat[r]
        q.cred[r] = cred[r]
    for g in range(NGROUPS):
        if not 0 <= ex_size[g] < CANASTA or not 0 <= ex_wild[g] <= ex_size[g]:
            raise ValueError("an unfinished meld has 0..6 cards")
        q.ex_size[g] = ex_size[g]
        q.ex_wild[g] = ex_wild[g]
    if not (0 <= cred_twos <= twos <= 64 and 0 <= cred_jokers <= jokers <= 64 and 0 <= hand < 250):
        raise ValueError("counts out of range")
    q.twos = twos; q.jokers = jokers; q.cred_twos = cred_twos; q.cred_jokers = cred_jokers
    q.hand = hand; q.points = points; q.need = need; q.foot = foot; q.wild_sevens = wild_sevens
    return bool(reach_min(&q))

# ---------------------------------------------------------------- why an action is illegal
cdef enum:
    OK = 0
    W_RETRACTED = 1
    W_CARDS = 2
    W_UNFINISHED = 3
    W_NO_MELD = 4
    W_SIZE = 5
    W_SEVENS = 6
    W_SHAPE = 7
    W_SHORT_CANASTA = 8
    W_BLACK3 = 9
    W_KEEP = 10
    W_SEVEN_LAST = 11
    W_REACH = 12
    W_EMPTY = 13
    W_TOP = 14
    W_FROZEN = 15
    W_WAY = 16

# (message, rule) per code, for explain_illegal.
WHY = {
    W_RETRACTED: ("after a retract you may not meld again this turn", "MH-4.8"),
    W_CARDS: ("you do not hold the cards for that", "MH-3.2"),
    W_UNFINISHED: ("your team already has an unfinished meld of that rank: add to it", "MH-4.4"),
    W_NO_MELD: ("your team has no unfinished meld of that rank to add to", "MH-4.4"),
    W_SIZE: ("a meld has at most 7 cards", "MH-4.1"),
    W_SEVENS: ("sevens take no wild cards (option wild_sevens)", "MH-4.6"),
    W_SHAPE: ("a meld needs 3 to 7 cards, at least two naturals and at most three wild cards",
              "MH-4.2"),
    W_SHORT_CANASTA: ("while the initial meld is short, a canasta must reach the minimum",
                      "MH-4.8"),
    W_BLACK3: ("black threes are melded only as the last meld before going out", "MH-4.7"),
    W_KEEP: ("you must keep a card to discard and one to hold unless you can go out", "MH-9.3"),
    W_SEVEN_LAST: ("that would leave a seven as your going-out discard", "MH-7.2"),
    W_REACH: ("after taking the pile your melds must still be able to reach the minimum",
              "MH-5.5"),
    W_EMPTY: ("the discard pile is empty", "MH-5"),
    W_TOP: ("the pile cannot be taken when its top card is a wild card or a three", "MH-5.1"),
    W_FROZEN: ("the pile is frozen (a wild card or red three in it, or your team has not "
               "opened): take it only with a natural pair", "MH-5.2"),
    W_WAY: ("that way of taking the pile does not fit your team's melds of that rank", "MH-5.3"),
}

# ---------------------------------------------------------------- state
cdef enum:
    ST_DRAW = 0
    ST_MELD = 1
    ST_OVER = 2

ctypedef struct Meld:
    uint8_t cards[CANASTA]
    int8_t group
    int8_t size
    int8_t wilds
    int8_t ctype            # CT_NONE while unfinished

ctypedef struct MData:
    int32_t target, fixed_dealer
    bint wild_sevens
    bint stacked_pending
    uint8_t stacked[DECK_SIZE]
    # match
    int32_t dealer, first, current, stage, round_index, winner_team
    int32_t score[2]
    int32_t last_hand[2]
    int32_t last_out                    # seat that went out in the last hand, -1
    # zones
    uint8_t hand[NPLAYERS][NUM_KINDS]
    uint8_t hrank[NPLAYERS][NRK]
    int32_t hand_size[NPLAYERS]
    uint8_t foot[NPLAYERS][NUM_KINDS]
    int32_t foot_size[NPLAYERS]         # 0 once picked up
    bint foot_taken[NPLAYERS]
    Pile stock
    Pile pile
    bint pile_frozen                    # MH-5.2: a wild card or red three is in it
    int32_t pile_red3
    int32_t red3[2][2]                  # laid-out red threes per team, [diamonds, hearts]
    Meld melds[2][MAX_TEAM_MELDS]
    int32_t nmelds[2]
    int32_t unf[2][NGROUPS]             # index of the team's unfinished meld per group, -1
    int32_t types[2]                    # canasta types completed (CT_ bits)
    int32_t canastas[2][NGROUPS]        # completed canastas per group
    bint opened[2]
    int32_t need[2]
    # turn
    int32_t turn_points, committed, retracted
    int32_t credit[NRK]                 # cards per rank whose points count toward the minimum
    # legal-action cache (valid while cache_n >= 0)
    int32_t cache_n


cdef class MannaState(GameState):
    cdef MData d
    cdef int cache[NUM_ACTIONS]

    def __init__(self, int players, dict options, deck=None):
        if players != NPLAYERS:
            raise ValueError("manna is for 6 players")
        memset(&self.d, 0, sizeof(MData))
        self.num_players = NPLAYERS
        self.d.target = options.get("target", DEFAULT_TARGET)
        dealer = options.get("dealer")
        self.d.fixed_dealer = -1 if dealer is None else dealer
        self.d.wild_sevens = bool(options.get("wild_sevens", False))
        if deck is not None:
            if sorted(deck) != manna_deck():
                raise ValueError("stacked deck does not match the composition")
            load_cards(self.d.stacked, deck, MAX_CARDS)
            self.d.stacked_pending = True
        self.d.stage = ST_OVER
        self.d.current = -1
        self.d.winner_team = -1
        self.d.last_out = -1
        self.d.cache_n = -1

    def start(self) -> None:
        """MH-2.1: the first dealer by option or by lot, then the first deal."""
        if self.d.fixed_dealer >= 0:
            self.d.dealer = self.d.fixed_dealer
        else:
            self.d.dealer = rng_below(&self.rng, NPLAYERS)
        self.deal()

    # ------------------------------------------------------------ zones
    cdef inline void hand_add(self, int p, int c) noexcept:
        self.d.hand[p][c] += 1
        self.d.hrank[p][kind_of(c)] += 1
        self.d.hand_size[p] += 1

    cdef inline void hand_remove(self, int p, int c) noexcept:
        self.d.hand[p][c] -= 1
        self.d.hrank[p][kind_of(c)] -= 1
        self.d.hand_size[p] -= 1

    cdef int take_kind(self, int p, int k) noexcept:
        """Remove one card of kind k (rank 0..12 or the joker) from hand, lowest id first;
        black threes (kind 2) only from the black suits. Returns the card."""
        cdef int s, c
        if k == K_JOKER:
            self.hand_remove(p, JOKER)
            return JOKER
        for s in range(4):
            c = s * 13 + k
            if self.d.hand[p][c] > 0:
                self.hand_remove(p, c)
                return c
        return -1

    cdef void lay_red_three(self, int p, int c) noexcept:
        self.d.red3[p & 1][c // 13 - 2] += 1

    cdef int draw_one(self, int p) noexcept:
        """MH-8.1: draw the stock's top card; a red three is laid out and replaced. Returns the
        number of cards that reached the hand (0 if the stock ran out)."""
        cdef int c
        while self.d.stock.size > 0:
            c = pile_pop(&self.d.stock)
            if is_red_three(c):
                self.lay_red_three(p, c)
                continue
            self.hand_add(p, c)
            return 1
        return 0

    cdef void lay_out_red_threes(self, int p) noexcept:
        """MH-2.4, MH-6.2: every red three in hand goes out, replaced from the stock."""
        cdef int c, s
        for s in range(2, 4):
            c = s * 13 + R_THREE
            while self.d.hand[p][c] > 0:
                self.hand_remove(p, c)
                self.lay_red_three(p, c)
                self.draw_one(p)

    cdef void deal(self) noexcept:
        """MH-2.2..2.5."""
        cdef uint8_t order[DECK_SIZE]
        cdef int i, p, t, c, k
        if self.d.stacked_pending:
            for i in range(DECK_SIZE):
                order[i] = self.d.stacked[i]
            self.d.stacked_pending = False
        else:
            i = 0
            for c in range(52):
                for k in range(4):
                    order[i] = c
                    i += 1
            for k in range(8):
                order[i] = JOKER
                i += 1
            shuffle_u8(&self.rng, order, DECK_SIZE)
        memset(self.d.hand, 0, sizeof(self.d.hand))
        memset(self.d.hrank, 0, sizeof(self.d.hrank))
        memset(self.d.foot, 0, sizeof(self.d.foot))
        memset(self.d.melds, 0, sizeof(self.d.melds))
        memset(self.d.red3, 0, sizeof(self.d.red3))
        memset(self.d.canastas, 0, sizeof(self.d.canastas))
        for p in range(NPLAYERS):
            self.d.hand_size[p] = 0
            self.d.foot_size[p] = 0
            self.d.foot_taken[p] = False
        for t in range(2):
            self.d.nmelds[t] = 0
            self.d.types[t] = 0
            self.d.opened[t] = False
            self.d.need[t] = min_meld_for(self.d.score[t])       # MH-4.8
            for k in range(NGROUPS):
                self.d.unf[t][k] = -1
        self.d.first = (self.d.dealer + 1) % NPLAYERS
        for i in range(NPLAYERS * HAND_DEAL):
            self.hand_add((self.d.first + i) % NPLAYERS, order[i])
        for i in range(NPLAYERS * FOOT_DEAL):
            p = (self.d.first + i) % NPLAYERS
            self.d.foot[p][order[NPLAYERS * HAND_DEAL + i]] += 1
            self.d.foot_size[p] += 1
        self.d.stock.size = 0
        self.d.pile.size = 0
        for i in range(DECK_SIZE - 1, STOCK_START - 1, -1):
            pile_push(&self.d.stock, order[i])
        c = pile_pop(&self.d.stock)                      # MH-2.3: the first discard
        pile_push(&self.d.pile, c)
        self.d.pile_frozen = is_wild(c) or is_red_three(c)
        self.d.pile_red3 = 1 if is_red_three(c) else 0
        for i in range(NPLAYERS):                        # MH-2.4
            self.lay_out_red_threes((self.d.first + i) % NPLAYERS)
        self.d.current = self.d.first
        self.begin_turn()

    cdef void begin_turn(self) noexcept:
        self.d.stage = ST_DRAW
        self.d.turn_points = 0
        self.d.committed = 0
        self.d.retracted = 0
        memset(self.d.credit, 0, sizeof(self.d.credit))

    # ------------------------------------------------------------ rule predicates
    cdef inline bint sevens_free(self) noexcept:
        """MH-7.1: sevens may be discarded once both teams have a sevens canasta."""
        return (self.d.types[0] & CT_SEVENS) and (self.d.types[1] & CT_SEVENS)

    cdef inline int ex_size(self, int tm, int g) noexcept:
        cdef int u = self.d.unf[tm][g]
        return 0 if u < 0 else self.d.melds[tm][u].size

    cdef inline int ex_wild(self, int tm, int g) noexcept:
        cdef int u = self.d.unf[tm][g]
        return 0 if u < 0 else self.d.melds[tm][u].wilds

    cdef int foot_cards(self, int p) noexcept:
        """Cards the foot would add to the hand (its red threes go out; replacements ignored)."""
        if self.d.foot_taken[p]:
            return 0
        return self.d.foot_size[p] - self.d.foot[p][2 * 13 + R_THREE] - self.d.foot[p][3 * 13 + R_THREE]

    cdef void fill_reach(self, int p, ReachIn* q) noexcept:
        """The reach_min input for the player to move as things stand."""
        cdef int r, g, tm = p & 1
        for r in range(13):
            q.nat[r] = self.d.hrank[p][r]
            q.cred[r] = self.d.credit[r] if self.d.credit[r] < q.nat[r] else q.nat[r]
        q.twos = self.d.hrank[p][R_TWO]
        q.cred_twos = q.cred[R_TWO]
        q.jokers = self.d.hrank[p][K_JOKER]
        q.cred_jokers = self.d.credit[K_JOKER] if self.d.credit[K_JOKER] < q.jokers else q.jokers
        for g in range(NGROUPS):
            q.ex_size[g] = self.ex_size(tm, g)
            q.ex_wild[g] = self.ex_wild(tm, g)
        q.hand = self.d.hand_size[p]
        q.points = self.d.turn_points
        q.need = self.d.need[tm]
        q.foot = not self.d.foot_taken[p]
        q.wild_sevens = self.d.wild_sevens

    cdef inline int credited(self, int k, int used) noexcept:
        """Points of `used` cards of kind k that count toward the minimum (MH-4.8)."""
        cdef int c = self.d.credit[k]
        return RANK_POINTS[k] * (used if used < c else c)

    cdef bint hand_after_ok(self, int p, int newhand, int types_after, bint opened_after,
                            int sevens_left) noexcept:
        """MH-9.2/9.3: after a meld the player can still discard and keep a card, or go out."""
        if newhand >= 2:
            return True
        if not (opened_after and types_after == CT_ALL):
            return False
        return newhand == 0 or sevens_left == 0          # MH-7.2: never go out on a seven

    cdef inline bint meld_legal(self, int p, int mi) noexcept:
        return self.meld_check(p, mi) == OK

    cdef int meld_check(self, int p, int mi) noexcept:
        """The one legality function for melds (MH-4, 4.8, 5.5, 6, 9.3): OK or why not."""
        cdef int tm = p & 1
        cdef int g = M_GROUP[mi], n = M_N[mi], t = M_T[mi], j = M_J[mi]
        cdef int k = n + t + j, u = self.d.unf[tm][g], size0 = 0, wild0 = 0, final, ctype = CT_NONE
        cdef int pts, total, newhand, sevens_left, types_after
        cdef bint opened_after
        cdef ReachIn q
        if self.d.retracted:
            return W_RETRACTED                            # MH-4.8: no melding after a retract
        if g == G_BLACK3:
            if self.d.hand[p][R_THREE] + self.d.hand[p][13 + R_THREE] < n:
                return W_CARDS
        else:
            if g != G_WILD and self.d.hrank[p][g] < n:
                return W_CARDS
            if self.d.hrank[p][R_TWO] < t or self.d.hrank[p][K_JOKER] < j:
                return W_CARDS
        if M_NEW[mi]:
            if u >= 0:
                return W_UNFINISHED                       # MH-4.4
        else:
            if u < 0:
                return W_NO_MELD
            size0 = self.d.melds[tm][u].size
            wild0 = self.d.melds[tm][u].wilds
        if size0 + k > CANASTA:
            return W_SIZE                                 # MH-4.1
        if g == R_SEVEN and t + j > 0 and not self.d.wild_sevens:
            return W_SEVENS                               # MH-4.6
        if g == G_WILD:
            if not meld_shape_ok(g, 0, size0 + k, self.d.wild_sevens):
                return W_SHAPE
        elif not meld_shape_ok(g, size0 - wild0 + n, wild0 + t + j, self.d.wild_sevens):
            return W_SHAPE
        final = size0 + k
        if g != G_BLACK3 and final == CANASTA:
            ctype = canasta_type(g, final - wild0 - t - j, wild0 + t + j)
        types_after = self.d.types[tm] | ctype
        opened_after = self.d.opened[tm]
        total = 0
        if not opened_after:
            pts = self.credited(g if g < 13 else R_THREE, n) + self.credited(R_TWO, t) \
                + self.credited(K_JOKER, j)
            total = self.d.turn_points + pts
            if total >= self.d.need[tm]:
                opened_after = True
            elif ctype != CT_NONE:
                return W_SHORT_CANASTA                    # MH-4.8 Decision: no canasta while short
        newhand = self.d.hand_size[p] - k
        if ctype != CT_NONE:
            newhand += self.foot_cards(p)                 # MH-6.1
        sevens_left = self.d.hrank[p][R_SEVEN] - (n if g == R_SEVEN else 0)
        if g == G_BLACK3:
            # MH-4.7 Decision: black threes are the last meld of a going-out turn.
            if not (opened_after and types_after == CT_ALL) or newhand > 1:
                return W_BLACK3
        if not self.hand_after_ok(p, newhand, types_after, opened_after, sevens_left):
            return W_SEVEN_LAST if newhand == 1 and opened_after and types_after == CT_ALL \
                else W_KEEP
        if not opened_after and self.d.committed:
            # MH-4.8/5.5: after taking the pile the minimum must stay reachable.
            self.fill_reach(p, &q)
            if g < 13:
                q.nat[g] -= n
                q.cred[g] = q.cred[g] - n if q.cred[g] > n else 0
            q.twos -= t
            q.cred_twos = q.cred_twos - t if q.cred_twos > t else 0
            q.jokers -= j
            q.cred_jokers = q.cred_jokers - j if q.cred_jokers > j else 0
            q.ex_size[g] = final
            q.ex_wild[g] = wild0 + t + j
            q.hand = newhand
            q.points = total
            if not reach_min(&q):
                return W_REACH
        return OK

    cdef inline bint take_legal(self, int p, int kind) noexcept:
        return self.take_check(p, kind) == OK

    cdef int take_check(self, int p, int kind) noexcept:
        """MH-5: the one legality function for the four ways of taking the pile."""
        cdef int tm = p & 1, top = pile_top(&self.d.pile), r, u, h, used_n = 0, used_t = 0
        cdef int used_j = 0, final, wild0 = 0, newhand, types_after, ctype = CT_NONE, pts, i, c
        cdef bint frozen, has_can, opened_after
        cdef ReachIn q
        if top < 0:
            return W_EMPTY
        if is_wild(top) or top % 13 == R_THREE:
            return W_TOP                                   # MH-5.1
        r = top % 13
        frozen = self.d.pile_frozen or not self.d.opened[tm]   # MH-5.2
        u = self.d.unf[tm][r]
        has_can = self.d.canastas[tm][r] > 0
        h = self.d.hrank[p][r]
        if kind == A_TAKE_ADD:                             # (a)
            if frozen:
                return W_FROZEN
            if u < 0:
                return W_WAY
        elif kind == A_TAKE_PAIR:
            if h < 2:
                return W_CARDS
            if not frozen and not has_can:                 # (b): a new meld
                if u >= 0:
                    return W_WAY
            elif u >= 0 and self.d.melds[tm][u].size + 3 > CANASTA:   # (c)
                return W_SIZE
            used_n = 2
        else:                                              # (b) with one wild card
            if frozen:
                return W_FROZEN
            if has_can or u >= 0:
                return W_WAY
            if r == R_SEVEN and not self.d.wild_sevens:    # MH-4.6
                return W_SEVENS
            if h < 1:
                return W_CARDS
            if kind == A_TAKE_TWO:
                if self.d.hrank[p][R_TWO] < 1:
                    return W_CARDS
                used_t = 1
            else:
                if self.d.hrank[p][K_JOKER] < 1:
                    return W_CARDS
                used_j = 1
            used_n = 1
        final = 1 + used_n + used_t + used_j
        if u >= 0:
            final += self.d.melds[tm][u].size
            wild0 = self.d.melds[tm][u].wilds
        if final == CANASTA:
            ctype = canasta_type(r, final - wild0, wild0)
        types_after = self.d.types[tm] | ctype
        newhand = self.d.hand_size[p] - used_n - used_t - used_j + self.d.pile.size - 1 - self.d.pile_red3
        if ctype != CT_NONE:
            newhand += self.foot_cards(p)
        opened_after = self.d.opened[tm]
        pts = 0
        if not opened_after:
            # MH-4.8: the top card and the cards from hand count.
            pts = RANK_POINTS[r] * (1 + used_n) + 20 * used_t + 50 * used_j
            if pts >= self.d.need[tm]:
                opened_after = True
        if not self.hand_after_ok(p, newhand, types_after, opened_after,
                                  self.d.hrank[p][R_SEVEN] - (used_n if r == R_SEVEN else 0)
                                  + self.pile_count_rank(R_SEVEN, True)):
            return W_KEEP
        if not opened_after:
            # MH-5.5: the rest of the pile joins the hand but does not count.
            self.fill_reach(p, &q)
            for i in range(13):
                q.cred[i] = self.d.hrank[p][i]
            q.cred_twos = self.d.hrank[p][R_TWO]
            q.cred_jokers = self.d.hrank[p][K_JOKER]
            q.nat[r] -= used_n
            q.cred[r] -= used_n
            for i in range(self.d.pile.size - 1):
                c = self.d.pile.cards[i]
                if c == JOKER:
                    q.jokers += 1
                elif c % 13 == R_TWO:
                    q.twos += 1
                elif not is_red_three(c):
                    q.nat[c % 13] += 1
            q.ex_size[r] = final
            q.ex_wild[r] = wild0
            q.hand = newhand
            q.points = pts
            if not reach_min(&q):
                return W_REACH
        return OK

    cdef int pile_count_rank(self, int r, bint below_top) noexcept:
        cdef int i, n = 0, last = self.d.pile.size - (1 if below_top else 0)
        for i in range(last):
            if self.d.pile.cards[i] != JOKER and self.d.pile.cards[i] % 13 == r:
                n += 1
        return n

    cdef bint discard_legal(self, int p, int c) noexcept:
        """MH-3.3, MH-7.1, MH-9.3, MH-4.8."""
        if self.d.hand[p][c] == 0 or self.d.hand_size[p] < 2:
            return False
        if not self.d.opened[p & 1] and self.d.turn_points > 0:
            return False                                   # provisional melds fall short
        if c % 13 == R_SEVEN and c != JOKER and not self.sevens_free():
            # MH-7.1; Decision: a hand of nothing but sevens may discard one.
            return self.d.hrank[p][R_SEVEN] == self.d.hand_size[p]
        return True

    cdef bint go_out_legal(self, int p, int c) noexcept:
        """MH-9.1, MH-9.2, MH-7.2."""
        cdef int tm = p & 1
        return (self.d.hand[p][c] > 0 and self.d.hand_size[p] == 1 and self.d.opened[tm]
                and self.d.types[tm] == CT_ALL and (c == JOKER or c % 13 != R_SEVEN))

    # ------------------------------------------------------------ legal actions
    cdef int legal_uncached(self, int* out) noexcept:
        cdef int n = 0, p = self.d.current, tm, c, gi, g, first, count, i, u, h, tw, jk, room, mi
        if self.d.stage == ST_OVER:
            return 0
        tm = p & 1
        if self.d.stage == ST_DRAW:
            out[n] = A_DRAW
            n += 1
            for i in range(A_TAKE_ADD, A_TAKE_JOKER + 1):
                if self.take_legal(p, i):
                    out[n] = i
                    n += 1
            return n
        if not self.d.opened[tm] and self.d.turn_points > 0 and not self.d.committed \
                and not self.d.retracted:
            out[n] = A_RETRACT
            n += 1
        for c in range(NUM_KINDS):
            if self.d.hand[p][c] and self.discard_legal(p, c):
                out[n] = A_DISCARD + c
                n += 1
        if self.d.hand_size[p] == 1:
            for c in range(NUM_KINDS):
                if self.d.hand[p][c] and self.go_out_legal(p, c):
                    out[n] = A_GO_OUT + c
                    n += 1
        if self.d.retracted:
            return n
        for gi in range(13):
            g = NAT_RANKS[gi] if gi < 11 else (G_WILD if gi == 11 else G_BLACK3)
            if g == G_BLACK3:
                if self.d.hand[p][R_THREE] + self.d.hand[p][13 + R_THREE] < MIN_MELD:
                    continue
            elif g == G_WILD:
                if self.d.hrank[p][R_TWO] + self.d.hrank[p][K_JOKER] == 0:
                    continue
            elif self.d.hrank[p][g] == 0 and self.d.unf[tm][g] < 0:
                continue
            first = GROUP_FIRST[g]
            u = self.d.unf[tm][g]
            if g == G_BLACK3:
                count = NUM_ACTIONS - A_BLACK3
            elif g == G_WILD:
                if u >= 0:
                    first += WILD_NEW
                count = WILD_ADD if u >= 0 else WILD_NEW
            else:
                if u >= 0:
                    first += NAT_NEW
                count = NAT_ADD if u >= 0 else NAT_NEW
            h = self.d.hand[p][R_THREE] + self.d.hand[p][13 + R_THREE] if g == G_BLACK3 \
                else (self.d.hrank[p][g] if g < 13 else 0)
            tw = self.d.hrank[p][R_TWO]
            jk = self.d.hrank[p][K_JOKER]
            room = CANASTA - (self.d.melds[tm][u].size if u >= 0 else 0)
            for i in range(first, first + count):
                mi = i - A_MELD
                # Cheap filters first: the cards in hand and the room in the meld.
                if M_N[mi] > h or M_T[mi] > tw or M_J[mi] > jk \
                        or M_N[mi] + M_T[mi] + M_J[mi] > room:
                    continue
                if self.meld_legal(p, mi):
                    out[n] = i
                    n += 1
        return n

    cdef int legal_into(self, int* out) noexcept:
        cdef int i
        if self.d.cache_n < 0:
            self.d.cache_n = self.legal_uncached(self.cache)
        for i in range(self.d.cache_n):
            out[i] = self.cache[i]
        return self.d.cache_n

    cdef bint over(self) noexcept:
        return self.d.stage == ST_OVER

    cdef int to_move(self) noexcept:
        return -1 if self.d.stage == ST_OVER else self.d.current

    # ------------------------------------------------------------ applying actions
    cdef void apply_fast(self, int action) noexcept:
        cdef int p = self.d.current
        self.d.cache_n = -1
        if action == A_DRAW:
            self.draw_stock(p)
        elif action <= A_TAKE_JOKER:
            self.take_pile(p, action)
        elif action == A_RETRACT:
            self.retract(p)
        elif action < A_GO_OUT:
            self.discard(p, action - A_DISCARD)
        elif action < A_MELD:
            self.hand_remove(p, action - A_GO_OUT)
            pile_push(&self.d.pile, action - A_GO_OUT)
            self.end_hand(p)                              # MH-9.2, MH-9.4
        else:
            self.meld(p, action - A_MELD)

    cdef void start_meld_stage(self, int p) noexcept:
        cdef int k
        self.d.stage = ST_MELD
        for k in range(NRK):
            self.d.credit[k] = self.d.hrank[p][k]         # MH-4.8: cards from hand count

    cdef void draw_stock(self, int p) noexcept:
        cdef int i
        if self.d.stock.size == 0:
            self.end_hand(-1)                             # MH-9.5
            return
        for i in range(DRAW_COUNT):                       # MH-3.1; one card if one is left
            self.draw_one(p)
        self.start_meld_stage(p)
        if self.d.hand_size[p] < 2 and self.legal_uncached(self.cache) == 0:
            # MH-9.5 Decision: the stock ran out (red threes) and the player's single card can
            # neither be discarded nor go out (by `out` or by melding it): the hand ends.
            # (self.cache is scratch here: cache_n stays -1, so the legal set is recomputed.)
            self.end_hand(-1)

    cdef void pick_up_foot(self, int p) noexcept:
        """MH-6.1..6.3."""
        cdef int c, k
        if self.d.foot_taken[p]:
            return
        self.d.foot_taken[p] = True
        for c in range(NUM_KINDS):
            for k in range(self.d.foot[p][c]):
                self.hand_add(p, c)
            self.d.foot[p][c] = 0
        self.d.foot_size[p] = 0
        self.lay_out_red_threes(p)

    cdef int new_meld(self, int tm, int g) noexcept:
        cdef int m = self.d.nmelds[tm]
        self.d.nmelds[tm] += 1
        self.d.melds[tm][m].group = g
        self.d.melds[tm][m].size = 0
        self.d.melds[tm][m].wilds = 0
        self.d.melds[tm][m].ctype = CT_NONE
        if g != G_BLACK3:
            self.d.unf[tm][g] = m
        return m

    cdef void meld_card(self, int tm, int m, int c) noexcept:
        cdef Meld* x = &self.d.melds[tm][m]
        x.cards[x.size] = c
        x.size += 1
        if is_wild(c):
            x.wilds += 1

    cdef bint finish_meld(self, int p, int m) noexcept:
        """A meld that reached 7 cards becomes a closed canasta (MH-4.1, 4.5); returns True then."""
        cdef int tm = p & 1
        cdef Meld* x = &self.d.melds[tm][m]
        if x.size != CANASTA or x.group == G_BLACK3:
            return False
        x.ctype = canasta_type(x.group, x.size - x.wilds, x.wilds)
        self.d.types[tm] |= x.ctype
        self.d.canastas[tm][x.group] += 1
        self.d.unf[tm][x.group] = -1
        return True

    cdef void count_points(self, int p, int k, int used) noexcept:
        """MH-4.8: add counted points while the team's initial meld is short."""
        cdef int tm = p & 1, c = self.d.credit[k], cnt = used if used < c else c
        self.d.credit[k] = c - cnt
        if not self.d.opened[tm]:
            self.d.turn_points += RANK_POINTS[k] * cnt

    cdef void check_opened(self, int p) noexcept:
        cdef int tm = p & 1
        if not self.d.opened[tm] and self.d.turn_points >= self.d.need[tm]:
            self.d.opened[tm] = True
            self.d.committed = 0

    cdef void meld(self, int p, int mi) noexcept:
        cdef int tm = p & 1, g = M_GROUP[mi], n = M_N[mi], t = M_T[mi], j = M_J[mi], m, i, c
        m = self.new_meld(tm, g) if M_NEW[mi] else self.d.unf[tm][g]
        for i in range(n):
            c = self.take_kind(p, g if g < 13 else R_THREE)
            self.meld_card(tm, m, c)
        for i in range(t):
            self.meld_card(tm, m, self.take_kind(p, R_TWO))
        for i in range(j):
            self.meld_card(tm, m, self.take_kind(p, K_JOKER))
        self.count_points(p, g if g < 13 else R_THREE, n)
        self.count_points(p, R_TWO, t)
        self.count_points(p, K_JOKER, j)
        self.check_opened(p)
        if self.finish_meld(p, m):
            self.pick_up_foot(p)                          # MH-6.1
        if self.d.hand_size[p] == 0:
            self.end_hand(p)                              # MH-9.2: melded every card

    cdef void take_pile(self, int p, int kind) noexcept:
        """MH-5.3, MH-5.4."""
        cdef int tm = p & 1, top = pile_pop(&self.d.pile), r = top % 13, m, i, c, k, x
        cdef int u = self.d.unf[tm][r]
        m = u if u >= 0 else self.new_meld(tm, r)
        self.meld_card(tm, m, top)
        if not self.d.opened[tm]:
            self.d.turn_points = RANK_POINTS[r]
            self.d.committed = 1                          # MH-4.8: no retract after a take
        for k in range(NRK):
            self.d.credit[k] = self.d.hrank[p][k]         # the hand before the pile joins it
        if kind == A_TAKE_PAIR:
            i = 2
        elif kind == A_TAKE_ADD:
            i = 0
        else:
            i = 1
        for x in range(i):
            self.meld_card(tm, m, self.take_kind(p, r))
        self.count_points(p, r, i)
        if kind == A_TAKE_TWO:
            self.meld_card(tm, m, self.take_kind(p, R_TWO))
            self.count_points(p, R_TWO, 1)
        elif kind == A_TAKE_JOKER:
            self.meld_card(tm, m, self.take_kind(p, K_JOKER))
            self.count_points(p, K_JOKER, 1)
        for i in range(self.d.pile.size):
            c = self.d.pile.cards[i]
            if is_red_three(c):
                self.lay_red_three(p, c)                  # MH-5.4, MH-8.1: not replaced
            else:
                self.hand_add(p, c)
        self.d.pile.size = 0
        self.d.pile_frozen = False
        self.d.pile_red3 = 0
        self.d.stage = ST_MELD
        self.check_opened(p)
        if self.finish_meld(p, m):
            self.pick_up_foot(p)
        if self.d.hand_size[p] == 0:
            self.end_hand(p)

    cdef void retract(self, int p) noexcept:
        """MH-4.8: every provisional meld of the team goes back to the hand."""
        cdef int tm = p & 1, m, i, k
        for m in range(self.d.nmelds[tm]):
            for i in range(self.d.melds[tm][m].size):
                self.hand_add(p, self.d.melds[tm][m].cards[i])
        self.d.nmelds[tm] = 0
        for k in range(NGROUPS):
            self.d.unf[tm][k] = -1
        self.d.turn_points = 0
        self.d.retracted = 1
        for k in range(NRK):
            self.d.credit[k] = self.d.hrank[p][k]

    cdef void discard(self, int p, int c) noexcept:
        self.hand_remove(p, c)
        pile_push(&self.d.pile, c)
        if is_wild(c):
            self.d.pile_frozen = True                     # MH-5.2
        self.d.current = (p + 1) % NPLAYERS               # MH-1.4: clockwise
        self.turns += 1
        self.begin_turn()

    cdef int team_hand_score(self, int tm, int out_seat) noexcept:
        """MH-10.1..10.5."""
        cdef int s = 0, m, i, p, c, nred
        cdef Meld* x
        for m in range(self.d.nmelds[tm]):
            x = &self.d.melds[tm][m]
            s += canasta_bonus(x.ctype)
            for i in range(x.size):
                s += card_points(x.cards[i])
        nred = self.d.red3[tm][0] + self.d.red3[tm][1]
        i = RED_THREES_ALL if nred == ALL_RED_THREES else RED_THREE_EACH * nred
        s += i if self.d.types[tm] & CT_SEVENS else -i    # MH-8.3
        if out_seat >= 0 and (out_seat & 1) == tm:
            s += GOING_OUT_BONUS
        for p in range(tm, NPLAYERS, 2):
            for c in range(NUM_KINDS):
                s -= card_points(c) * self.d.hand[p][c]
                if not self.d.foot_taken[p]:
                    if is_red_three(c):
                        s -= FOOT_RED_THREE * self.d.foot[p][c]   # MH-8.4
                    else:
                        s -= card_points(c) * self.d.foot[p][c]   # MH-10.5 Decision
        return s

    cdef void end_hand(self, int out_seat) noexcept:
        """MH-9.4/9.5 end of the hand, MH-10 scoring, MH-10.6 the match."""
        cdef int tm
        for tm in range(2):
            self.d.last_hand[tm] = self.team_hand_score(tm, out_seat)
            self.d.score[tm] += self.d.last_hand[tm]
        self.d.last_out = out_seat
        self.d.round_index += 1
        self.turns += 1
        if self.d.score[0] >= self.d.target or self.d.score[1] >= self.d.target:
            if self.d.score[0] != self.d.score[1]:
                self.d.winner_team = 0 if self.d.score[0] > self.d.score[1] else 1
                self.d.stage = ST_OVER
                self.d.current = -1
                return
        self.d.dealer = (self.d.dealer + 1) % NPLAYERS    # MH-2.1
        self.deal()

    # ------------------------------------------------------------ Python-visible state
    def explain_illegal(self, action) -> tuple:
        from cardcore.cards import card_str
        cdef int p, tm, c, mi, g
        if not isinstance(action, int) or not 0 <= action < NUM_ACTIONS:
            return (f"action id {action!r} is outside 0..{NUM_ACTIONS - 1}", None)
        if self.d.stage == ST_OVER:
            return ("the match is over", "MH-10.6")
        p = self.d.current
        tm = p & 1
        if self.d.stage == ST_DRAW:
            if action == A_DRAW:
                return ("draw is always legal at the draw stage", "MH-3.1")
            if A_TAKE_ADD <= action <= A_TAKE_JOKER:
                return WHY.get(self.take_check(p, action), ("that take is not legal now", "MH-5"))
            return ("draw first: draw_stock or take the pile", "MH-3.1")
        if action <= A_TAKE_JOKER:
            return ("you have already drawn this turn", "MH-3")
        if action == A_RETRACT:
            return ("there are no provisional initial melds to take back", "MH-4.8")
        if action < A_MELD:
            c = (action - A_DISCARD) if action < A_GO_OUT else (action - A_GO_OUT)
            if self.d.hand[p][c] == 0:
                return (f"you do not hold {card_str(c)}", "MH-3.3")
            if not self.d.opened[tm] and self.d.turn_points > 0:
                return (f"your melds this turn total {self.d.turn_points}, below the minimum "
                        f"{self.d.need[tm]}: meld more or retract", "MH-4.8")
            if action >= A_GO_OUT:
                if self.d.types[tm] != CT_ALL:
                    return ("going out needs a natural, a mixed, a wild and a sevens canasta",
                            "MH-9.1")
                if c % 13 == R_SEVEN and c != JOKER:
                    return ("a seven may never be the going-out discard", "MH-7.2")
                return ("go out by discarding your last card: you hold more than one", "MH-9.2")
            if c % 13 == R_SEVEN and c != JOKER:
                return ("sevens may not be discarded until both teams have a sevens canasta",
                        "MH-7.1")
            return ("you must keep at least one card unless you go out", "MH-9.3")
        return WHY.get(self.meld_check(p, action - A_MELD),
                       ("that meld is not legal now", "MH-4"))

    def legal_ids_uncached(self) -> list:
        """legal_ids() recomputed from scratch (the per-state cache dropped): for benchmarks."""
        self.d.cache_n = -1
        return self.legal_ids()

    @property
    def phase(self) -> int:
        return self.d.stage

    @property
    def round_index(self) -> int:
        return self.d.round_index

    def _seat(self, int p):
        if not 0 <= p < NPLAYERS:
            raise ValueError(f"seat {p} out of range")

    def hand(self, int p) -> list:
        self._seat(p)
        cdef list out = []
        for c in range(NUM_KINDS):
            out.extend([c] * self.d.hand[p][c])
        return out

    def hand_sizes(self) -> list:
        return [self.d.hand_size[p] for p in range(NPLAYERS)]

    def foot(self, int p) -> list:
        """A player's unopened foot (hidden information: tests and tools only)."""
        self._seat(p)
        cdef list out = []
        for c in range(NUM_KINDS):
            out.extend([c] * self.d.foot[p][c])
        return out

    def foot_sizes(self) -> list:
        return [self.d.foot_size[p] for p in range(NPLAYERS)]

    def feet_taken(self) -> list:
        return [bool(self.d.foot_taken[p]) for p in range(NPLAYERS)]

    def melds(self, int team) -> list:
        """[(group, cards, ctype name or None)] of a team, in the order they were started."""
        if not 0 <= team < 2:
            raise ValueError("team 0 or 1")
        names = {CT_NATURAL: "natural", CT_MIXED: "mixed", CT_WILD: "wild", CT_SEVENS: "sevens"}
        out = []
        cdef Meld x
        for m in range(self.d.nmelds[team]):
            x = self.d.melds[team][m]
            out.append((x.group, [x.cards[i] for i in range(x.size)], names.get(x.ctype)))
        return out

    def red_threes(self, int team) -> list:
        if not 0 <= team < 2:
            raise ValueError("team 0 or 1")
        return [2 * 13 + R_THREE] * self.d.red3[team][0] + [3 * 13 + R_THREE] * self.d.red3[team][1]

    def discard_pile(self) -> list:
        return [self.d.pile.cards[i] for i in range(self.d.pile.size)]

    def stock(self) -> list:
        """The stock top-first (hidden: tests and tools only)."""
        return [self.d.stock.cards[i] for i in range(self.d.stock.size)][::-1]

    @property
    def stock_size(self) -> int:
        return self.d.stock.size

    @property
    def frozen(self) -> bool:
        return bool(self.d.pile_frozen)

    @property
    def dealer(self) -> int:
        return self.d.dealer

    def min_meld(self) -> list:
        return [self.d.need[0], self.d.need[1]]

    def opened(self) -> list:
        return [bool(self.d.opened[0]), bool(self.d.opened[1])]

    def canasta_types(self, int team) -> list:
        if not 0 <= team < 2:
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

    def scores(self) -> list:
        """MH-10.6: each seat shows its team's cumulative score."""
        return [self.d.score[p & 1] for p in range(NPLAYERS)]

    def winners(self) -> list:
        if self.d.stage != ST_OVER or self.d.winner_team < 0:
            return []
        return [p for p in range(NPLAYERS) if (p & 1) == self.d.winner_team]

    def all_cards(self) -> list:
        cards = []
        for p in range(NPLAYERS):
            cards += self.hand(p) + self.foot(p)
        for tm in range(2):
            cards += self.red_threes(tm)
            for m in self.melds(tm):
                cards += m[1]
        return cards + self.discard_pile() + self.stock()

    def clone(self) -> MannaState:
        cdef MannaState other = MannaState.__new__(MannaState)
        other.d = self.d
        other.d.cache_n = -1
        other.rng = self.rng
        other.num_players = self.num_players
        other.actions_applied = self.actions_applied
        other.turns = self.turns
        return other

    # ------------------------------------------------------------ test support
    def _set_position(self, int player, hand, melds0, melds1, bint opened0=False,
                      bint opened1=False, int stage=ST_MELD, pile=(), bint frozen=False,
                      int turn_points=0, bint committed=False, bint retracted=False,
                      credit=None, bint foot_taken=False, need=None, stock=None) -> None:
        """Install an arbitrary position (tests of the meld engine only; breaks conservation).
        melds*: lists of card-id lists (a list with 7 cards is a canasta)."""
        self._seat(player)
        if stage not in (ST_DRAW, ST_MELD):
            raise ValueError("stage 0 (draw) or 1 (meld)")
        for c in list(hand) + list(pile):
            if not 0 <= c < NUM_KINDS:
                raise ValueError("card id out of range")
        if len(hand) > 200 or len(pile) > DECK_SIZE:
            raise ValueError("too many cards")
        self.d.cache_n = -1
        for p in range(NPLAYERS):
            for c in range(NUM_KINDS):
                self.d.hand[p][c] = 0
            for k in range(NRK):
                self.d.hrank[p][k] = 0
            self.d.hand_size[p] = 0
        for c in hand:
            if self.d.hand[player][c] >= 250:
                raise ValueError("too many copies")
            self.hand_add(player, c)
        if stock is not None:
            if len(stock) > DECK_SIZE or any(not 0 <= c < NUM_KINDS for c in stock):
                raise ValueError("bad stock")
            self.d.stock.size = 0
            for c in reversed(list(stock)):             # given top first
                pile_push(&self.d.stock, c)
        self.d.pile.size = 0
        self.d.pile_red3 = 0
        for c in pile:
            pile_push(&self.d.pile, c)
            if is_red_three(c):
                self.d.pile_red3 += 1
        self.d.pile_frozen = frozen
        for tm, ms in ((0, melds0), (1, melds1)):
            self.d.nmelds[tm] = 0
            self.d.types[tm] = 0
            for k in range(NGROUPS):
                self.d.unf[tm][k] = -1
                self.d.canastas[tm][k] = 0
            if len(ms) > MAX_TEAM_MELDS:
                raise ValueError("too many melds")
            for cards in ms:
                cards = list(cards)
                if any(not isinstance(c, int) or not 0 <= c < NUM_KINDS for c in cards):
                    raise ValueError("card id out of range")
                if not MIN_MELD <= len(cards) <= CANASTA:
                    raise ValueError("a meld has 3..7 cards")
                nat = [c for c in cards if not is_wild(c)]
                g = G_WILD if not nat else (G_BLACK3 if is_black_three(nat[0]) else nat[0] % 13)
                if g < 13 and not natural_rank(g):
                    raise ValueError("not a meldable rank")
                if any(c % 13 != nat[0] % 13 for c in nat) or \
                        not meld_shape_ok(g, len(nat), len(cards) - len(nat), self.d.wild_sevens):
                    raise ValueError(f"invalid meld {cards}")
                if len(cards) < CANASTA and g != G_BLACK3 and self.d.unf[tm][g] >= 0:
                    raise ValueError("one unfinished meld per group")
                prev = self.d.unf[tm][g] if g < NGROUPS - 1 else -1
                m = self.new_meld(tm, g)
                for c in cards:
                    self.meld_card(tm, m, c)
                if self.finish_meld(tm, m) and g != G_BLACK3:
                    self.d.unf[tm][g] = prev
        self.d.opened[0] = opened0
        self.d.opened[1] = opened1
        if need is not None:
            self.d.need[0], self.d.need[1] = need
        self.d.current = player
        self.d.stage = stage
        self.d.turn_points = turn_points
        self.d.committed = committed
        self.d.retracted = retracted
        for k in range(NRK):
            self.d.credit[k] = self.d.hrank[player][k] if credit is None else credit[k]
        self.d.foot_taken[player] = foot_taken
        if foot_taken:
            for c in range(NUM_KINDS):
                self.d.foot[player][c] = 0
            self.d.foot_size[player] = 0


def manna_deck() -> list:
    """MH-1.1: four full decks and eight jokers (216 cards), id order."""
    return build_deck([list(range(13))] * 4, 8)


def num_actions() -> int:
    return NUM_ACTIONS
