# cython: language_level=3, cdivision=True
"""Manna from Heaven: what a seat may know. The per-seat projection (``mh_observe``: MH-11 as a
float tensor, laid out by OBSERVATION_PIECES and games/manna.md "Observation") and the redeal of
everything a seat cannot see (``mh_sample_hidden``), both hooks of the state machine (_state)."""
from libc.stdint cimport uint8_t, int32_t
from libc.string cimport memset

from cardcore._fast cimport JOKER, NUM_KINDS, Rng, ms_add, ms_clear, pile_top, shuffle_u8
from cardcore.games.manna._rules cimport (
    NPLAYERS, NTEAMS, DECK_SIZE, NRK, NAT_GROUPS, R_THREE, G_WILD, G_BLACK3, CT_NONE, CT_NATURAL,
    CT_MIXED, CT_WILD, is_red_three,
)
from cardcore.games.manna._data cimport ST_MELD, Meld, MannaData, hand_add, clear_hand

# ---------------------------------------------------------------- the per-seat projection
# What view(seat) shows (MH-11), as floats; seats and teams absolute. One source for the layout:
# these offsets and OBSERVATION_PIECES (documented in games/manna.md, "Observation").
cdef enum:
    SEATS = NPLAYERS
    NUM_IDS = NUM_KINDS
    MELD_SLOTS = NAT_GROUPS + 2                        # A 4 5 6 7 8 9 10 J Q K, wild, black3
    NUM_CT = 4                                         # natural, mixed, wild, sevens
    O_OBSERVER = 0                                     # one-hot: the seat observing
    O_TO_MOVE = O_OBSERVER + SEATS                     # one-hot: the seat to move (none when over)
    O_PHASE = O_TO_MOVE + SEATS                        # one-hot: draw, meld, over
    O_TEAM = O_PHASE + 3                               # one-hot: the observer's team
    O_HAND = O_TEAM + NTEAMS                           # the observer's hand, count per card id
    O_HAND_SIZES = O_HAND + NUM_IDS
    O_FOOT_SIZES = O_HAND_SIZES + SEATS                # 0 once picked up (MH-6)
    O_SCORES = O_FOOT_SIZES + SEATS                    # per seat: its team's total (MH-10.6)
    O_LAST_HAND = O_SCORES + SEATS                     # per team: the last hand's score
    O_MIN_MELD = O_LAST_HAND + NTEAMS                  # per team (MH-4.8)
    O_OPENED = O_MIN_MELD + NTEAMS                     # per team
    O_TURN_POINTS = O_OPENED + NTEAMS                  # counted points of the current turn
    O_DEALER = O_TURN_POINTS + 1                       # one-hot seat
    O_HAND_NUMBER = O_DEALER + SEATS                   # the hand being played, 1-based
    O_STOCK_SIZE = O_HAND_NUMBER + 1
    O_FROZEN = O_STOCK_SIZE + 1                        # MH-5.2
    O_DISCARD = O_FROZEN + 1                           # the discard pile, count per card id
    O_DISCARD_TOP = O_DISCARD + NUM_IDS                # one-hot: its top card
    O_RED_THREES = O_DISCARD_TOP + NUM_IDS             # per team: diamonds, hearts laid out
    O_CANASTA_TYPES = O_RED_THREES + NTEAMS * 2        # per team: natural, mixed, wild, sevens
    O_MELD_CARDS = O_CANASTA_TYPES + NTEAMS * NUM_CT   # per team: count per card id in its melds
    O_OPEN_SIZE = O_MELD_CARDS + NTEAMS * NUM_IDS      # per team per meld slot: cards in unfinished melds
    O_OPEN_WILDS = O_OPEN_SIZE + NTEAMS * MELD_SLOTS   # per team per slot: their wild cards
    O_CANASTAS = O_OPEN_WILDS + NTEAMS * MELD_SLOTS    # per team per slot per type: canastas
    OBSERVATION_SIZE = O_CANASTAS + NTEAMS * MELD_SLOTS * NUM_CT

OBSERVATION_PIECES = tuple((name, offset, size) for name, offset, size in (
    ("observer", O_OBSERVER, SEATS), ("current_player", O_TO_MOVE, SEATS), ("phase", O_PHASE, 3),
    ("team", O_TEAM, NTEAMS), ("hand", O_HAND, NUM_IDS), ("hand_sizes", O_HAND_SIZES, SEATS),
    ("foot_sizes", O_FOOT_SIZES, SEATS), ("scores", O_SCORES, SEATS),
    ("last_hand_scores", O_LAST_HAND, NTEAMS), ("min_meld", O_MIN_MELD, NTEAMS),
    ("opened", O_OPENED, NTEAMS), ("turn_points", O_TURN_POINTS, 1), ("dealer", O_DEALER, SEATS),
    ("hand_number", O_HAND_NUMBER, 1), ("stock_size", O_STOCK_SIZE, 1), ("frozen", O_FROZEN, 1),
    ("discard", O_DISCARD, NUM_IDS), ("discard_top", O_DISCARD_TOP, NUM_IDS),
    ("red_threes", O_RED_THREES, NTEAMS * 2), ("canasta_types", O_CANASTA_TYPES, NTEAMS * NUM_CT),
    ("meld_cards", O_MELD_CARDS, NTEAMS * NUM_IDS),
    ("unfinished_size", O_OPEN_SIZE, NTEAMS * MELD_SLOTS),
    ("unfinished_wilds", O_OPEN_WILDS, NTEAMS * MELD_SLOTS),
    ("canastas", O_CANASTAS, NTEAMS * MELD_SLOTS * NUM_CT)))


cdef inline int meld_slot(int group) noexcept nogil:
    """The observation's slot of a meld group: A 4..K = 0..10, wild 11, black threes 12."""
    if group == G_WILD:
        return NAT_GROUPS
    if group == G_BLACK3:
        return NAT_GROUPS + 1
    return 0 if group == 0 else group - R_THREE


cdef inline int type_index(int ctype) noexcept nogil:
    """CT_NATURAL, CT_MIXED, CT_WILD, CT_SEVENS -> 0..3."""
    return 0 if ctype == CT_NATURAL else (1 if ctype == CT_MIXED else (2 if ctype == CT_WILD else 3))


cdef int mh_observation_size(const void* state) noexcept nogil:
    return OBSERVATION_SIZE


cdef void mh_observe(const void* state, int seat, float* out) noexcept nogil:
    """MH-11: the seat's own hand; every public zone; sizes of the hidden ones."""
    cdef const MannaData* s = <const MannaData*>state
    cdef const Meld* x
    cdef int p, c, tm, m, i, slot, k
    memset(out, 0, OBSERVATION_SIZE * sizeof(float))
    out[O_OBSERVER + seat] = 1.0
    if s.h.to_move >= 0:
        out[O_TO_MOVE + s.h.to_move] = 1.0
    out[O_PHASE + s.h.phase] = 1.0
    out[O_TEAM + (seat & 1)] = 1.0
    for c in range(NUM_IDS):
        out[O_HAND + c] = s.hand[seat].count[c]
    for p in range(NPLAYERS):
        out[O_HAND_SIZES + p] = s.hand[p].total
        out[O_FOOT_SIZES + p] = s.foot[p].total
        out[O_SCORES + p] = s.score[p & 1]
    out[O_TURN_POINTS] = s.turn_points
    out[O_DEALER + s.h.dealer] = 1.0
    out[O_HAND_NUMBER] = s.h.round_index + (0 if s.h.to_move < 0 else 1)
    out[O_STOCK_SIZE] = s.stock.size
    out[O_FROZEN] = 1.0 if s.pile_frozen else 0.0
    for i in range(s.pile.size):
        out[O_DISCARD + s.pile.cards[i]] += 1.0
    if s.pile.size > 0:
        out[O_DISCARD_TOP + pile_top(&s.pile)] = 1.0
    for tm in range(NTEAMS):
        out[O_LAST_HAND + tm] = s.last_hand[tm]
        out[O_MIN_MELD + tm] = s.need[tm]
        out[O_OPENED + tm] = 1.0 if s.opened[tm] else 0.0
        out[O_RED_THREES + 2 * tm] = s.red3[tm][0]
        out[O_RED_THREES + 2 * tm + 1] = s.red3[tm][1]
        for k in range(NUM_CT):
            if s.types[tm] & (1 << k):
                out[O_CANASTA_TYPES + NUM_CT * tm + k] = 1.0
        for m in range(s.nmelds[tm]):
            x = &s.melds[tm][m]
            for i in range(x.size):
                out[O_MELD_CARDS + NUM_IDS * tm + x.cards[i]] += 1.0
            slot = MELD_SLOTS * tm + meld_slot(x.group)
            if x.ctype == CT_NONE:
                out[O_OPEN_SIZE + slot] += x.size
                out[O_OPEN_WILDS + slot] += x.wilds
            else:
                out[O_CANASTAS + NUM_CT * slot + type_index(x.ctype)] += 1.0

# ---------------------------------------------------------------- determinization
cdef int mh_sample_hidden(void* state, int seat, Rng* rng) noexcept nogil:
    """Redeal, uniformly among the deals consistent with what ``seat`` knows, every card it
    cannot see: the other hands except their known cards (taken piles, retracted melds), every
    unopened foot (its own too, MH-2.2) and the stock; every zone keeps its size. Hands never
    hold a red three (MH-2.4, MH-8.1), so the unseen red threes go to feet and stock only:
    they take uniformly chosen slots there, and a uniform shuffle of the other unseen cards
    fills the rest. Approximation: for the player to move, mid-turn, the counted points of the
    turn (MH-4.8) are not used as evidence about which of its cards count."""
    cdef MannaData* s = <MannaData*>state
    cdef int32_t unseen[NUM_KINDS]                     # the pool, as a count per card id
    cdef uint8_t plain[DECK_SIZE]                      # unseen cards other than red threes
    cdef uint8_t slots[DECK_SIZE]                      # foot and stock slots: a red three or PLAIN
    cdef int32_t unknown[NPLAYERS]
    cdef int32_t foot_size[NPLAYERS]
    cdef int p, c, k, q, n_plain = 0, n_red = 0, n_slots = 0, next_plain = 0, stock_size
    cdef int mover = s.h.to_move if s.h.to_move != seat and s.h.phase == ST_MELD else -1
    cdef int32_t uncounted[NRK]
    if mover >= 0:
        for k in range(NRK):
            uncounted[k] = s.hand_kind[mover][k] - s.credit[k] if s.hand_kind[mover][k] > s.credit[k] else 0
    # Gather the unknown part of the other hands, the unopened feet and the stock as counts,
    # so that the pool's order says nothing about where its cards were.
    memset(unseen, 0, sizeof(unseen))
    for p in range(NPLAYERS):
        unknown[p] = 0
        foot_size[p] = 0
        if p != seat:
            for c in range(NUM_KINDS):
                unseen[c] += s.hand[p].count[c] - s.known[p].count[c]
            unknown[p] = s.hand[p].total - s.known[p].total
            clear_hand(s, p)
            for c in range(NUM_KINDS):
                for k in range(s.known[p].count[c]):
                    hand_add(s, p, c)
        if not s.foot_taken[p]:
            foot_size[p] = s.foot[p].total
            for c in range(NUM_KINDS):
                unseen[c] += s.foot[p].count[c]
            ms_clear(&s.foot[p])
    stock_size = s.stock.size
    for k in range(stock_size):
        unseen[s.stock.cards[k]] += 1
    # In id order; the red threes apart: they may only land in a foot or the stock.
    for c in range(NUM_KINDS):
        for k in range(unseen[c]):
            if is_red_three(c):
                slots[n_red] = c
                n_red += 1
            else:
                plain[n_plain] = c
                n_plain += 1
    for p in range(NPLAYERS):
        n_slots += foot_size[p]
    n_slots += stock_size
    for q in range(n_red, n_slots):
        slots[q] = JOKER + 1                           # "a plain card goes here"
    shuffle_u8(rng, slots, n_slots)                    # the red threes' places, uniformly
    shuffle_u8(rng, plain, n_plain)
    # Deal: the unknown hand cards first, then feet and stock slot by slot.
    for p in range(NPLAYERS):
        for k in range(unknown[p]):
            hand_add(s, p, plain[next_plain])
            next_plain += 1
    q = 0
    for p in range(NPLAYERS):
        for k in range(foot_size[p]):
            c = slots[q]
            q += 1
            if c > JOKER:
                c = plain[next_plain]
                next_plain += 1
            ms_add(&s.foot[p], c)
    for k in range(stock_size):
        c = slots[q]
        q += 1
        if c > JOKER:
            c = plain[next_plain]
            next_plain += 1
        s.stock.cards[k] = c
    if next_plain != n_plain:
        return -1                                      # cannot happen for a reachable state
    # The player to move may have been redealt: its counted cards (MH-4.8) follow its new
    # hand, less the cards of this turn's pile that it still holds uncounted.
    if mover >= 0:
        for k in range(NRK):
            s.credit[k] = s.hand_kind[mover][k] - uncounted[k] if s.hand_kind[mover][k] > uncounted[k] else 0
    s.legal_count = -1
    return 0
