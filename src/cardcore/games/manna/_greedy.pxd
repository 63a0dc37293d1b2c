# cython: language_level=3
"""GreedyBot's policy for Manna (the ``greedy`` hook): a one-move heuristic that reads only what
the seat to move may know (MH-11): its own hand, the teams' melds (face up, MH-4), the canasta
types they hold and whether they have opened. Compile time only (included by _state). It is
the heuristic of greedy.py (0.2-0.3) moved into the core, choice for choice and draw for draw
(tests/games/manna/test_greedy_policy.py checks it against that Python code).

Draw stage: take the pile the first way offered (``take add`` first, MH-5.3), else draw.
Meld stage: go out when offered (MH-9.2); else the best meld if its value is > 0; else the
discard of lowest value; else retract (MH-4.8); else a uniformly random legal move. Each meld
and each discard considered draws ``rng_below(1 << 16)``, in legal-id order, whatever it is
worth; the best is the highest (value, draw, id), the best discard the lowest: the tuples
the Python heuristic compared.

The weights (their one definition; greedy.py's docstring documents them):
    meld value (higher is better)
        GR_BLACK3_MELD      1000   black threes (only offered when they lead to going out, MH-4.7)
        GR_NEW_TYPE          400   the meld makes a canasta of a type the team lacks (MH-4.5)
        GR_CANASTA           150   ... of a type it already has
        GR_NATURAL            12   per natural card laid
        GR_SEVEN              +4   per seven laid (sevens canastas, MH-7)
        GR_WILD_MELD          30   per wild card laid in the wild meld (MH-4.3)
        GR_WILD_SAVED       -100   per wild card laid elsewhere once opened with a mixed canasta
        GR_WILD_USEFUL         5   per wild card that completes a canasta or helps open (MH-4.8)
        GR_WILD_SPENT        -15   per wild card laid elsewhere otherwise
    discard value (lower is better)
        GR_DISCARD_THREE    -100   a three (black: it stops the next player, MH-5.1)
        (base)                     the card's points (MH-1.3)
        GR_SAME_RANK           8   per other card of its kind in hand
        GR_KEEP_WILD          80   a wild card (MH-1.2)
        GR_FEEDS_THEM        120   the opponents have an unfinished meld of its kind
        GR_OURS               30   the team has an unfinished meld of its kind
"""
from libc.stdint cimport int32_t, uint32_t

from cardcore._fast cimport Rng, rng_below, JOKER
from cardcore.games.manna._rules cimport (
    NTEAMS, CANASTA, R_TWO, R_THREE, R_SEVEN, K_JOKER, NRK, G_WILD, G_BLACK3, NGROUPS,
    CT_NONE, CT_NATURAL, CT_MIXED, CT_WILD, CT_SEVENS,
    A_DRAW, A_TAKE_ADD, A_TAKE_JOKER, A_RETRACT, A_DISCARD, A_GO_OUT, A_MELD, card_points, kind_of,
    is_wild,
)
from cardcore.games.manna._melds cimport M_GROUP, M_NEW, M_N, M_T, M_J
from cardcore.games.manna._data cimport ST_DRAW, MannaData

cdef enum:
    GR_BLACK3_MELD = 1000
    GR_NEW_TYPE = 400
    GR_CANASTA = 150
    GR_NATURAL = 12
    GR_SEVEN = 4
    GR_WILD_MELD = 30
    GR_WILD_SAVED = -100
    GR_WILD_USEFUL = 5
    GR_WILD_SPENT = -15
    GR_DISCARD_THREE = -100
    GR_SAME_RANK = 8
    GR_KEEP_WILD = 80
    GR_FEEDS_THEM = 120
    GR_OURS = 30
    GR_TIE_DRAW = 1 << 16       # the tie-break draw per candidate: rng_below(GR_TIE_DRAW)


ctypedef struct GreedyTable:        # what the meld and discard values read of the public melds
    int size[NGROUPS]               # the team's unfinished meld of each group: its size (0: none;
                                    # the last one started, if the table held several)
    bint wild[NGROUPS]              # an unfinished meld of the team's in that group holds a wild card
    bint unfinished[NTEAMS][NGROUPS]   # the team has an unfinished meld of that group


cdef inline void greedy_table(const MannaData* s, int team, GreedyTable* t) noexcept nogil:
    cdef int tm, m, i, g
    for g in range(NGROUPS):
        t.size[g] = 0
        t.wild[g] = False
        t.unfinished[0][g] = False
        t.unfinished[1][g] = False
    for tm in range(NTEAMS):
        for m in range(s.nmelds[tm]):
            if s.melds[tm][m].ctype != CT_NONE:
                continue
            g = s.melds[tm][m].group
            t.unfinished[tm][g] = True
            if tm != team:
                continue
            t.size[g] = s.melds[tm][m].size
            for i in range(s.melds[tm][m].size):
                if is_wild(s.melds[tm][m].cards[i]):
                    t.wild[g] = True


cdef inline bint has_type(int types, int kind) noexcept nogil:
    return (types & kind) != 0


cdef inline double greedy_meld_value(const MannaData* s, const GreedyTable* t, int team,
                                     bint opened, int mi) noexcept nogil:
    """How good meld ``mi`` (its index in the meld table) is for the team; <= 0: not worth it."""
    cdef int group = M_GROUP[mi], n = M_N[mi], wilds = M_T[mi] + M_J[mi]
    cdef int size, final, kind, types = s.types[team]
    cdef double score = 0.0
    if group == G_BLACK3:
        return GR_BLACK3_MELD                   # MH-4.7: only legal when it leads to going out
    size = n + wilds
    final = size + (0 if M_NEW[mi] else t.size[group])
    if final == CANASTA:                        # MH-4.5: the canasta's type
        if group == G_WILD:
            kind = CT_WILD
        elif wilds or t.wild[group]:
            kind = CT_MIXED
        elif group == R_SEVEN:
            kind = CT_SEVENS
        else:
            kind = CT_NATURAL
        score += GR_NEW_TYPE if not has_type(types, kind) else GR_CANASTA
    score += GR_NATURAL * n + (GR_SEVEN if group == R_SEVEN else 0) * n
    if wilds:
        if group == G_WILD:
            score += GR_WILD_MELD * wilds       # the wild canasta is the hardest type to make
        elif opened and has_type(types, CT_MIXED):
            score += GR_WILD_SAVED * wilds      # save wild cards for the wild canasta
        elif final == CANASTA or not opened:
            score += GR_WILD_USEFUL * wilds
        else:
            score += GR_WILD_SPENT * wilds
    return score


cdef inline double greedy_discard_value(const MannaData* s, const GreedyTable* t, int p, int team,
                                        int card) noexcept nogil:
    """Lower is a better discard."""
    cdef int r = kind_of(card), same, suit
    cdef double score
    if r == R_THREE:
        return GR_DISCARD_THREE                 # MH-5.1: a black three stops the next player
    if r == K_JOKER:
        same = s.hand[p].count[JOKER]
    else:
        same = 0
        for suit in range(4):
            same += s.hand[p].count[suit * 13 + r]
    score = <double>(card_points(card) + GR_SAME_RANK * (same - 1))
    if r == R_TWO or r == K_JOKER:
        score += GR_KEEP_WILD                   # keep wild cards
    if t.unfinished[1 - team][r]:
        score += GR_FEEDS_THEM                  # it would join their meld with the pile (MH-5.3)
    if t.unfinished[team][r]:
        score += GR_OURS
    return score


cdef inline int mh_greedy(const void* state, const int32_t* legal, int n, Rng* rng) noexcept nogil:
    """GreedyBot's move: the index in legal[0:n] (the ``greedy`` hook)."""
    cdef const MannaData* s = <const MannaData*>state
    cdef int p = s.h.to_move, team = p & 1, k, a, best = -1, take = -1
    cdef bint opened = s.opened[team], seen = False
    cdef double value, best_value = 0.0
    cdef uint32_t draw, best_draw = 0
    cdef GreedyTable table
    if s.h.phase == ST_DRAW:                    # MH-3.1, MH-5: take the pile if offered
        for k in range(n):
            if A_TAKE_ADD <= legal[k] <= A_TAKE_JOKER and (take < 0 or legal[k] < legal[take]):
                take = k                        # take_add if offered, else the lowest way
        if take >= 0:
            return take
        for k in range(n):
            if legal[k] == A_DRAW:
                return k
        return -1
    for k in range(n):
        if A_GO_OUT <= legal[k] < A_MELD:
            return k                            # MH-9.2: the first way out offered
    greedy_table(s, team, &table)
    for k in range(n):                          # the highest (value, draw, id)
        a = legal[k]
        if a < A_MELD:
            continue
        value = greedy_meld_value(s, &table, team, opened, a - A_MELD)
        draw = rng_below(rng, GR_TIE_DRAW)
        if (not seen or value > best_value or (value == best_value and (
                draw > best_draw or (draw == best_draw and a > legal[best])))):
            best, best_value, best_draw, seen = k, value, draw, True
    if seen and best_value > 0:
        return best
    best = -1
    seen = False
    for k in range(n):                          # the lowest (value, draw, id)
        a = legal[k]
        if not A_DISCARD <= a < A_GO_OUT:
            continue
        value = greedy_discard_value(s, &table, p, team, a - A_DISCARD)
        draw = rng_below(rng, GR_TIE_DRAW)
        if (not seen or value < best_value or (value == best_value and (
                draw < best_draw or (draw == best_draw and a < legal[best])))):
            best, best_value, best_draw, seen = k, value, draw, True
    if seen:
        return best
    for k in range(n):
        if legal[k] == A_RETRACT:
            return k                            # MH-4.8: the initial meld falls short
    return <int>rng_below(rng, <uint32_t>n)
