/* Manna from Heaven (Pennies from Heaven canasta): the rules kernel, in C99 over the core
 * (cardcore/core/kernel.h). Rules: games/manna.md (rule IDs MH-x.y). The Python modules of
 * the game wrap it (_state, _melds, _view, _testing; _minimum wraps kernel_minimum.c); the
 * native and WebAssembly libraries build the same files. No global changes: every table is
 * const.
 *
 * Action space (the same 909 ids for every configuration; pinned by tests/test_manna_actions.py):
 *     0           draw_stock: take the top two stock cards (MH-3.1); with an empty stock this
 *                 declines the draw and ends the hand (MH-9.5)
 *     1           take_pile, (a): add the top card to the team's unfinished meld of its rank (MH-5.3)
 *     2           take_pile with a natural pair from hand, (b) or (c)                      (MH-5.3)
 *     3           take_pile with one natural and one two from hand, (b)                    (MH-5.3)
 *     4           take_pile with one natural and one joker from hand, (b)                  (MH-5.3)
 *     5           retract the provisional initial melds of this turn                     (MH-4.8)
 *     6..58       discard card id (id - 6)                                               (MH-3.3)
 *     59..111     go out: discard the last card, id (id - 59)                            (MH-9.2)
 *     112..908    melds: the meld table below
 * Naturals of a rank are interchangeable: the engine moves the lowest card ids (suit order
 * C S D H), or the cards Game.apply(..., cards=) chose (pick_kind, the hand_cards hook).
 *
 * The meld ids A_MELD..NUM_ACTIONS-1 are count-based actions: a group (a natural rank, the wild
 * meld, black threes), new meld or addition, and the (naturals, twos, jokers) it takes from hand.
 *     natural-rank melds: 11 groups of 68 ids, ranks in id order A 4 5 6 7 8 9 10 J Q K;
 *                 in a group, ids 0..38 are NEW melds and 39..67 ADDITIONS, each an (n, t, j)
 *     wild melds: 30 NEW (t + j = 3..7) then 14 ADDITIONS (t + j = 1..4)            (MH-4.3)
 *     a meld of n = 3..7 black threes when going out                                 (MH-4.7)
 * NEW natural triples: n = 2..7, t = 0..3, j = 0..3 - t, 3 <= n+t+j <= 7, at least one wild when n = 2.
 * ADD natural triples: n = 0..4, t = 0..3, j = 0..3 - t, 1 <= n+t+j <= 4.
 * Wild triples: k = t + j ascending, t = k..0 descending (most twos first).
 */
#include "cardcore/games/manna/kernel.h"

/* The kernel's own names for the header's constants (the header's carry the prefix). */
enum {
    NPLAYERS = MH_NPLAYERS,
    NTEAMS = MH_NTEAMS,
    NUM_DECKS = MH_NUM_DECKS,
    NUM_JOKERS = MH_NUM_JOKERS,
    DECK_SIZE = MH_DECK_SIZE,
    MAX_ID_COPIES = MH_MAX_ID_COPIES,
    DRAW_COUNT = MH_DRAW_COUNT,
    CANASTA = MH_CANASTA,
    MIN_MELD = MH_MIN_MELD,
    MAX_WILDS = MH_MAX_WILDS,
    GOING_OUT_BONUS = MH_GOING_OUT_BONUS,
    RED_THREE_EACH = MH_RED_THREE_EACH,
    RED_THREES_ALL = MH_RED_THREES_ALL,
    ALL_RED_THREES = MH_ALL_RED_THREES,
    FOOT_RED_THREE = MH_FOOT_RED_THREE,
    MAX_HANDS = MH_MAX_HANDS,
    K_JOKER = MH_K_JOKER,
    NRK = MH_NRK,
    G_WILD = MH_G_WILD,
    G_BLACK3 = MH_G_BLACK3,
    NGROUPS = MH_NGROUPS,
    NAT_GROUPS = MH_NAT_GROUPS,
    CT_NONE = MH_CT_NONE,
    CT_NATURAL = MH_CT_NATURAL,
    CT_MIXED = MH_CT_MIXED,
    CT_WILD = MH_CT_WILD,
    CT_SEVENS = MH_CT_SEVENS,
    CT_MIXED_SEVENS = MH_CT_MIXED_SEVENS,
    CT_MIXED_OTHER = MH_CT_MIXED_OTHER,
    FOOT_RED_THREES = MH_FOOT_RED_THREES,
    FOOT_CARDS = MH_FOOT_CARDS,
    A_DRAW = MH_A_DRAW,
    A_TAKE_ADD = MH_A_TAKE_ADD,
    A_TAKE_PAIR = MH_A_TAKE_PAIR,
    A_TAKE_TWO = MH_A_TAKE_TWO,
    A_TAKE_JOKER = MH_A_TAKE_JOKER,
    A_RETRACT = MH_A_RETRACT,
    A_DISCARD = MH_A_DISCARD,
    A_GO_OUT = MH_A_GO_OUT,
    A_MELD = MH_A_MELD,
    NAT_NEW = MH_NAT_NEW,
    NAT_ADD = MH_NAT_ADD,
    NAT_GROUP = MH_NAT_GROUP,
    A_WILD = MH_A_WILD,
    WILD_NEW = MH_WILD_NEW,
    WILD_ADD = MH_WILD_ADD,
    A_BLACK3 = MH_A_BLACK3,
    NUM_ACTIONS = MH_NUM_ACTIONS,
    MELD_IDS = MH_MELD_IDS,
    ST_DRAW = MH_ST_DRAW,
    ST_MELD = MH_ST_MELD,
    ST_OVER = MH_ST_OVER,
    OK = MH_OK,
    W_RETRACTED = MH_W_RETRACTED,
    W_CARDS = MH_W_CARDS,
    W_UNFINISHED = MH_W_UNFINISHED,
    W_NO_MELD = MH_W_NO_MELD,
    W_SIZE = MH_W_SIZE,
    W_SEVENS = MH_W_SEVENS,
    W_SHAPE = MH_W_SHAPE,
    W_SHORT_CANASTA = MH_W_SHORT_CANASTA,
    W_BLACK3 = MH_W_BLACK3,
    W_KEEP = MH_W_KEEP,
    W_SEVEN_LAST = MH_W_SEVEN_LAST,
    W_REACH = MH_W_REACH,
    W_EMPTY = MH_W_EMPTY,
    W_TOP = MH_W_TOP,
    W_FROZEN = MH_W_FROZEN,
    W_WAY = MH_W_WAY,
    Z_HAND = MH_Z_HAND,
    Z_FOOT = MH_Z_FOOT,
    Z_DISCARD = MH_Z_DISCARD,
    Z_STOCK = MH_Z_STOCK,
    HAND_POSITIONS = MH_HAND_POSITIONS,
    DISCARD_POSITION = MH_DISCARD_POSITION,
    REACH_WORK = MH_REACH_WORK
};

/* The core's capacities hold Manna's deck; the meld-id layout constants agree. */
typedef char mh_deck_fits_the_core[((int)DECK_SIZE <= (int)PILE_CAPACITY
                                    && (int)MAX_ID_COPIES <= (int)MS_MAX_COPIES
                                    && (int)CANASTA <= (int)CHOSEN_CAPACITY) ? 1 : -1];
typedef char mh_meld_layout_agrees[(NAT_NEW + NAT_ADD == NAT_GROUP
                                    && A_WILD == A_MELD + NAT_GROUPS * NAT_GROUP
                                    && A_BLACK3 - A_WILD == WILD_NEW + WILD_ADD
                                    && NUM_ACTIONS == A_BLACK3 + CANASTA - MIN_MELD + 1
                                    && MELD_IDS == NUM_ACTIONS - A_MELD) ? 1 : -1];

typedef MHState MannaData;
typedef MHMeld Meld;
typedef MHReachIn ReachIn;

/* ================================================================ the meld table (MH-4)
 * The rows of each section in id order, X(a, k, n, t, j): the k-th id of the section takes
 * n naturals, t twos and j jokers (`a` is passed through to X). */
#define NAT_NEW_ROWS(X, a) \
    X(a,  0, 2, 0, 1) X(a,  1, 2, 0, 2) X(a,  2, 2, 0, 3) X(a,  3, 2, 1, 0) X(a,  4, 2, 1, 1) \
    X(a,  5, 2, 1, 2) X(a,  6, 2, 2, 0) X(a,  7, 2, 2, 1) X(a,  8, 2, 3, 0) X(a,  9, 3, 0, 0) \
    X(a, 10, 3, 0, 1) X(a, 11, 3, 0, 2) X(a, 12, 3, 0, 3) X(a, 13, 3, 1, 0) X(a, 14, 3, 1, 1) \
    X(a, 15, 3, 1, 2) X(a, 16, 3, 2, 0) X(a, 17, 3, 2, 1) X(a, 18, 3, 3, 0) X(a, 19, 4, 0, 0) \
    X(a, 20, 4, 0, 1) X(a, 21, 4, 0, 2) X(a, 22, 4, 0, 3) X(a, 23, 4, 1, 0) X(a, 24, 4, 1, 1) \
    X(a, 25, 4, 1, 2) X(a, 26, 4, 2, 0) X(a, 27, 4, 2, 1) X(a, 28, 4, 3, 0) X(a, 29, 5, 0, 0) \
    X(a, 30, 5, 0, 1) X(a, 31, 5, 0, 2) X(a, 32, 5, 1, 0) X(a, 33, 5, 1, 1) X(a, 34, 5, 2, 0) \
    X(a, 35, 6, 0, 0) X(a, 36, 6, 0, 1) X(a, 37, 6, 1, 0) X(a, 38, 7, 0, 0)
/* A natural group's ADDITIONS: its ids NAT_NEW + k. */
#define NAT_ADD_ROWS(X, a) \
    X(a,  0, 0, 0, 1) X(a,  1, 0, 0, 2) X(a,  2, 0, 0, 3) X(a,  3, 0, 1, 0) X(a,  4, 0, 1, 1) \
    X(a,  5, 0, 1, 2) X(a,  6, 0, 2, 0) X(a,  7, 0, 2, 1) X(a,  8, 0, 3, 0) X(a,  9, 1, 0, 0) \
    X(a, 10, 1, 0, 1) X(a, 11, 1, 0, 2) X(a, 12, 1, 0, 3) X(a, 13, 1, 1, 0) X(a, 14, 1, 1, 1) \
    X(a, 15, 1, 1, 2) X(a, 16, 1, 2, 0) X(a, 17, 1, 2, 1) X(a, 18, 1, 3, 0) X(a, 19, 2, 0, 0) \
    X(a, 20, 2, 0, 1) X(a, 21, 2, 0, 2) X(a, 22, 2, 1, 0) X(a, 23, 2, 1, 1) X(a, 24, 2, 2, 0) \
    X(a, 25, 3, 0, 0) X(a, 26, 3, 0, 1) X(a, 27, 3, 1, 0) X(a, 28, 4, 0, 0)
/* The wild meld's NEW melds (ids 0..29 of its section) and ADDITIONS (30..43). */
#define WILD_NEW_ROWS(X, a) \
    X(a,  0, 0, 3, 0) X(a,  1, 0, 2, 1) X(a,  2, 0, 1, 2) X(a,  3, 0, 0, 3) X(a,  4, 0, 4, 0) \
    X(a,  5, 0, 3, 1) X(a,  6, 0, 2, 2) X(a,  7, 0, 1, 3) X(a,  8, 0, 0, 4) X(a,  9, 0, 5, 0) \
    X(a, 10, 0, 4, 1) X(a, 11, 0, 3, 2) X(a, 12, 0, 2, 3) X(a, 13, 0, 1, 4) X(a, 14, 0, 0, 5) \
    X(a, 15, 0, 6, 0) X(a, 16, 0, 5, 1) X(a, 17, 0, 4, 2) X(a, 18, 0, 3, 3) X(a, 19, 0, 2, 4) \
    X(a, 20, 0, 1, 5) X(a, 21, 0, 0, 6) X(a, 22, 0, 7, 0) X(a, 23, 0, 6, 1) X(a, 24, 0, 5, 2) \
    X(a, 25, 0, 4, 3) X(a, 26, 0, 3, 4) X(a, 27, 0, 2, 5) X(a, 28, 0, 1, 6) X(a, 29, 0, 0, 7)
#define WILD_ADD_ROWS(X, a) \
    X(a, 30, 0, 1, 0) X(a, 31, 0, 0, 1) X(a, 32, 0, 2, 0) X(a, 33, 0, 1, 1) X(a, 34, 0, 0, 2) \
    X(a, 35, 0, 3, 0) X(a, 36, 0, 2, 1) X(a, 37, 0, 1, 2) X(a, 38, 0, 0, 3) X(a, 39, 0, 4, 0) \
    X(a, 40, 0, 3, 1) X(a, 41, 0, 2, 2) X(a, 42, 0, 1, 3) X(a, 43, 0, 0, 4)
#define WILD_ROWS(X, a) WILD_NEW_ROWS(X, a) WILD_ADD_ROWS(X, a)

/* Decoded meld ids (index = id - A_MELD): group, new, naturals, twos, jokers. */
#define NEW_DEF(g, k, n, t, j) {g, 1, n, t, j},
#define ADD_DEF(g, k, n, t, j) {g, 0, n, t, j},
#define NAT_GROUP_DEFS(g) NAT_NEW_ROWS(NEW_DEF, g) NAT_ADD_ROWS(ADD_DEF, g)
static const MHMeldDef MELDS[] = {
    NAT_GROUP_DEFS(0) NAT_GROUP_DEFS(3) NAT_GROUP_DEFS(4) NAT_GROUP_DEFS(5) NAT_GROUP_DEFS(6)
    NAT_GROUP_DEFS(7) NAT_GROUP_DEFS(8) NAT_GROUP_DEFS(9) NAT_GROUP_DEFS(10) NAT_GROUP_DEFS(11)
    NAT_GROUP_DEFS(12)
    WILD_NEW_ROWS(NEW_DEF, 13) WILD_ADD_ROWS(ADD_DEF, 13)
    {14, 1, 3, 0, 0}, {14, 1, 4, 0, 0}, {14, 1, 5, 0, 0}, {14, 1, 6, 0, 0}, {14, 1, 7, 0, 0}
};
#undef NEW_DEF
#undef ADD_DEF
#undef NAT_GROUP_DEFS
typedef char mh_meld_table_size[sizeof(MELDS) / sizeof(MELDS[0]) == MELD_IDS ? 1 : -1];

const MHMeldDef *mh_meld_table(void) { return MELDS; }

/* First meld id of a group (natural groups by rank), -1. */
static const int16_t GROUP_FIRST[NGROUPS] = {
    A_MELD, -1, -1, A_MELD + 1 * NAT_GROUP, A_MELD + 2 * NAT_GROUP, A_MELD + 3 * NAT_GROUP,
    A_MELD + 4 * NAT_GROUP, A_MELD + 5 * NAT_GROUP, A_MELD + 6 * NAT_GROUP,
    A_MELD + 7 * NAT_GROUP, A_MELD + 8 * NAT_GROUP, A_MELD + 9 * NAT_GROUP,
    A_MELD + 10 * NAT_GROUP, A_WILD, A_BLACK3
};

/* The same table as bit masks by what a group's melds may take, so that legal-action
 * generation visits only the melds a hand can make: bit k = the section's k-th id. A section's
 * mask for given counts is the AND of one mask per count (each row's condition is a conjunction),
 * each mask built from the rows above: */
#define BIT_IF(cond, k) ((cond) ? (uint64_t)1 << (k) : (uint64_t)0)
#define N_AT_MOST(h, k, n, t, j) | BIT_IF((n) <= (h), k)
#define T_AT_MOST(h, k, n, t, j) | BIT_IF((t) <= (h), k)
#define J_AT_MOST(h, k, n, t, j) | BIT_IF((j) <= (h), k)
#define SIZE_AT_MOST(h, k, n, t, j) | BIT_IF((n) + (t) + (j) <= (h), k)
#define WILDS_AT_MOST(h, k, n, t, j) | BIT_IF((t) + (j) <= (h), k)
#define ANY_ROW(h, k, n, t, j) | BIT_IF(1, k)
#define UP_TO_3(ROWS, X) {0 ROWS(X, 0), 0 ROWS(X, 1), 0 ROWS(X, 2), 0 ROWS(X, 3)}
#define UP_TO_4(ROWS, X) {0 ROWS(X, 0), 0 ROWS(X, 1), 0 ROWS(X, 2), 0 ROWS(X, 3), 0 ROWS(X, 4)}
#define UP_TO_7(ROWS, X) {0 ROWS(X, 0), 0 ROWS(X, 1), 0 ROWS(X, 2), 0 ROWS(X, 3), \
                          0 ROWS(X, 4), 0 ROWS(X, 5), 0 ROWS(X, 6), 0 ROWS(X, 7)}
enum {
    ADD_MOST = CANASTA - MIN_MELD   /* an addition takes at most 4 cards */
};
/* natural-rank NEW melds (the group's ids 0..38) by naturals held, twos, jokers */
static const uint64_t NEW_BY_N[CANASTA + 1] = UP_TO_7(NAT_NEW_ROWS, N_AT_MOST);
static const uint64_t NEW_BY_T[MAX_WILDS + 1] = UP_TO_3(NAT_NEW_ROWS, T_AT_MOST);
static const uint64_t NEW_BY_J[MAX_WILDS + 1] = UP_TO_3(NAT_NEW_ROWS, J_AT_MOST);
/* natural-rank ADDITIONS (ids 39..67, bit 0 = id 39) by naturals held, twos, jokers, cards the
 * meld has room for, wild cards it has room for */
static const uint32_t ADD_BY_N[ADD_MOST + 1] = UP_TO_4(NAT_ADD_ROWS, N_AT_MOST);
static const uint32_t ADD_BY_T[MAX_WILDS + 1] = UP_TO_3(NAT_ADD_ROWS, T_AT_MOST);
static const uint32_t ADD_BY_J[MAX_WILDS + 1] = UP_TO_3(NAT_ADD_ROWS, J_AT_MOST);
static const uint32_t ADD_BY_ROOM[ADD_MOST + 1] = UP_TO_4(NAT_ADD_ROWS, SIZE_AT_MOST);
static const uint32_t ADD_BY_WILD_ROOM[MAX_WILDS + 1] = UP_TO_3(NAT_ADD_ROWS, WILDS_AT_MOST);
/* the wild meld (its section's ids: 0..29 NEW, 30..43 ADDITIONS) by new, twos, jokers, room */
static const uint64_t WILD_BY_NEW[2] = {0 WILD_ADD_ROWS(ANY_ROW, 0), 0 WILD_NEW_ROWS(ANY_ROW, 0)};
static const uint64_t WILD_BY_T[CANASTA + 1] = UP_TO_7(WILD_ROWS, T_AT_MOST);
static const uint64_t WILD_BY_J[CANASTA + 1] = UP_TO_7(WILD_ROWS, J_AT_MOST);
static const uint64_t WILD_BY_ROOM[CANASTA + 1] = UP_TO_7(WILD_ROWS, WILDS_AT_MOST);
#undef BIT_IF
#undef N_AT_MOST
#undef T_AT_MOST
#undef J_AT_MOST
#undef SIZE_AT_MOST
#undef WILDS_AT_MOST
#undef ANY_ROW
#undef UP_TO_3
#undef UP_TO_4
#undef UP_TO_7

/* NEW_MASK[held][t][j] of old: the NEW ids with n <= held, twos <= t, jokers <= j. */
static inline uint64_t new_mask(int held, int t, int j) {
    return NEW_BY_N[held] & NEW_BY_T[t] & NEW_BY_J[j];
}

/* ADD_MASK[held][t][j][room][wild_room]: bit k = the addition id NAT_NEW + k. */
static inline uint64_t add_mask(int held, int t, int j, int room, int wild_room) {
    return (uint64_t)(ADD_BY_N[held] & ADD_BY_T[t] & ADD_BY_J[j] & ADD_BY_ROOM[room]
                      & ADD_BY_WILD_ROOM[wild_room]);
}

/* WILD_MASK[new][t][j][room]. */
static inline uint64_t wild_mask(int is_new, int t, int j, int room) {
    return WILD_BY_NEW[is_new] & WILD_BY_T[t] & WILD_BY_J[j] & WILD_BY_ROOM[room];
}

/* ================================================================ the deal plan (MH-2.2, 2.3) */
/* The one deal layout: for every deck position (top first) its zone and seat (-1 for the stock
 * and the discard pile). Hands then feet go one card at a time clockwise from the dealer's
 * left (MH-2.2); the next card starts the discard pile, the rest is the stock (MH-2.3). */
typedef char mh_deal_rounds[HAND_POSITIONS % NPLAYERS == 0 ? 1 : -1];   /* deal() counts on it */

static void plan_deal(int dealer, int8_t *zone, int8_t *seat) {
    int i, next = (dealer + 1) % NPLAYERS;       /* the seat dealt to next: first the dealer's left */
    for (i = 0; i < DECK_SIZE; i++) {
        if (i == HAND_POSITIONS) next = (dealer + 1) % NPLAYERS;   /* the feet begin again there */
        if (i < DISCARD_POSITION) {
            zone[i] = i < HAND_POSITIONS ? Z_HAND : Z_FOOT;
            seat[i] = (int8_t)next;
            next = next == NPLAYERS - 1 ? 0 : next + 1;
        } else {
            zone[i] = i == DISCARD_POSITION ? Z_DISCARD : Z_STOCK;
            seat[i] = -1;
        }
    }
}

void mh_plan_deal(int dealer, int8_t *zone, int8_t *seat) { plan_deal(dealer, zone, seat); }

/* MH-1.1 in id order: four copies of each natural id, then the jokers. */
static void fill_composition(uint8_t *deck) {
    int c, k, i = 0;
    for (c = 0; c < JOKER; c++)
        for (k = 0; k < NUM_DECKS; k++) deck[i++] = (uint8_t)c;
    for (k = 0; k < NUM_JOKERS; k++) deck[i++] = JOKER;
}

/* ================================================================ zones */
static inline void lay_red_three(MannaData *s, int p, int c) {
    s->red3[p & 1][c / 13 - 2] += 1;
}

/* MH-8.1: draw the stock's top card; a red three is laid out and replaced. Returns the number
 * of cards that reached the hand (0 if the stock ran out). */
static int draw_one(MannaData *s, int p) {
    int c;
    while (s->stock.size > 0) {
        c = pile_pop(&s->stock);
        if (mh_is_red_three(c)) {
            lay_red_three(s, p, c);
            continue;
        }
        mh_hand_add(s, p, c);
        return 1;
    }
    return 0;
}

/* MH-2.4, MH-6.2: every red three in hand goes out, replaced from the stock. */
static void lay_out_red_threes(MannaData *s, int p) {
    int c, suit;
    for (suit = 2; suit < 4; suit++) {
        c = suit * 13 + R_THREE;
        while (s->hand[p].count[c] > 0) {
            mh_hand_remove(s, p, c);
            lay_red_three(s, p, c);
            draw_one(s, p);
        }
    }
}

static void begin_turn(MannaData *s) {
    s->h.phase = ST_DRAW;
    s->turn_points = 0;
    s->committed = 0;
    s->retracted = 0;
    memset(s->credit, 0, sizeof(s->credit));
}

/* MH-2.2..2.5: lay the deck (stacked on the first deal, else shuffled) out by the deal plan. */
static void deal(MannaData *s) {
    uint8_t composition[DECK_SIZE];
    uint8_t order[DECK_SIZE];
    int i, p, t, k, c;
    fill_composition(composition);
    deal_prologue(&s->h, composition, DECK_SIZE, order);
    for (p = 0; p < NPLAYERS; p++) {
        mh_clear_hand(s, p);
        ms_clear(&s->known[p]);
        ms_clear(&s->foot[p]);
        s->foot_taken[p] = 0;
    }
    memset(s->melds, 0, sizeof(s->melds));
    memset(s->red3, 0, sizeof(s->red3));
    memset(s->canastas, 0, sizeof(s->canastas));
    for (t = 0; t < NTEAMS; t++) {
        s->nmelds[t] = 0;
        s->types[t] = 0;
        s->opened[t] = 0;
        s->need[t] = mh_min_meld_for(s->score[t]);     /* MH-4.8 */
        for (k = 0; k < NGROUPS; k++) s->unf[t][k] = -1;
    }
    s->first = (s->h.dealer + 1) % NPLAYERS;
    s->stock.size = 0;
    s->pile.size = 0;
    /* plan_deal's layout (mh_plan_deal), position by position from the bottom as it lists
     * them, without building the plan: the stock, the first discard, the feet, the hands;
     * position i < DISCARD_POSITION goes to seat (first + i) % NPLAYERS (HAND_POSITIONS is a
     * multiple of NPLAYERS, so the feet's round starts at the first seat again). */
    for (i = DECK_SIZE - 1; i > DISCARD_POSITION; i--)   /* bottom up, so the stock ends top first */
        pile_push(&s->stock, order[i]);
    pile_push(&s->pile, order[DISCARD_POSITION]);
    p = (s->first + DISCARD_POSITION - 1) % NPLAYERS;    /* the seat of position i */
    for (i = DISCARD_POSITION - 1; i >= HAND_POSITIONS; i--) {
        ms_add(&s->foot[p], order[i]);
        p = p == 0 ? NPLAYERS - 1 : p - 1;
    }
    for (i = HAND_POSITIONS - 1; i > -1; i--) {
        mh_hand_add(s, p, order[i]);
        p = p == 0 ? NPLAYERS - 1 : p - 1;
    }
    c = pile_top(&s->pile);                            /* MH-2.3: the first discard */
    s->pile_frozen = mh_is_wild(c) || mh_is_red_three(c);
    s->pile_red3 = mh_is_red_three(c) ? 1 : 0;
    for (i = 0; i < NPLAYERS; i++)                     /* MH-2.4 */
        lay_out_red_threes(s, (s->first + i) % NPLAYERS);
    s->h.to_move = s->first;
    begin_turn(s);
}

/* ================================================================ rule predicates */
/* A team with this mask has its canasta of sevens (MH-7.1, MH-8.3): natural, or with
 * wild_sevens a mixed one too (MH-4.6 Decision: "a canasta of sevens (either natural or mixed)"). */
static inline int has_sevens(const MannaData *s, int types) {
    return (types & CT_SEVENS) || (s->opt.sevens_either && (types & CT_MIXED_SEVENS));
}

/* MH-7.1: sevens may be discarded once both teams have a sevens canasta. */
static inline int sevens_free(const MannaData *s) {
    return has_sevens(s, s->types[0]) && has_sevens(s, s->types[1]);
}

/* MH-9.1: four distinct canastas, one natural, one mixed, one wild, one of sevens, given the
 * team's mask and its number of sevens canastas. A mixed canasta of sevens (MH-4.6 Decision)
 * may fill the mixed or the sevens place, not both. */
static inline int types_ready(const MannaData *s, int types, int sevens) {
    if ((types & (CT_NATURAL | CT_WILD)) != (CT_NATURAL | CT_WILD)) return 0;
    if (!s->opt.sevens_either) return (types & CT_MIXED) && (types & CT_SEVENS);
    if (types & CT_MIXED_OTHER) return sevens > 0;
    return (types & CT_MIXED_SEVENS) && sevens >= 2;
}


static inline int ex_size(const MannaData *s, int tm, int g) {
    int u = s->unf[tm][g];
    return u < 0 ? 0 : s->melds[tm][u].size;
}

static inline int ex_wild(const MannaData *s, int tm, int g) {
    int u = s->unf[tm][g];
    return u < 0 ? 0 : s->melds[tm][u].wilds;
}

static inline int black_threes_in_hand(const MannaData *s, int p) {
    return s->hand[p].count[R_THREE] + s->hand[p].count[13 + R_THREE];
}

/* Cards the foot would add to the hand (its red threes go out; replacements ignored). */
static int foot_cards(const MannaData *s, int p) {
    if (s->foot_taken[p]) return 0;
    return s->foot[p].total - s->foot[p].count[2 * 13 + R_THREE] - s->foot[p].count[3 * 13 + R_THREE];
}

/* The reach_min input for the player to move as things stand. */
static void fill_reach(const MannaData *s, int p, ReachIn *q) {
    int r, g, tm = p & 1;
    for (r = 0; r < 13; r++) {
        q->nat[r] = s->hand_kind[p][r];
        q->cred[r] = s->credit[r] < q->nat[r] ? s->credit[r] : q->nat[r];
    }
    q->twos = s->hand_kind[p][R_TWO];
    q->cred_twos = q->cred[R_TWO];
    q->jokers = s->hand_kind[p][K_JOKER];
    q->cred_jokers = s->credit[K_JOKER] < q->jokers ? s->credit[K_JOKER] : q->jokers;
    for (g = 0; g < NGROUPS; g++) {
        q->ex_size[g] = ex_size(s, tm, g);
        q->ex_wild[g] = ex_wild(s, tm, g);
    }
    q->hand = s->hand[p].total;
    q->points = s->turn_points;
    q->need = s->need[tm];
    q->foot = !s->foot_taken[p];
    q->wild_sevens = s->opt.wild_sevens;
}

/* reach_min with its work space on this (separate) stack frame. */
static int reachable(const ReachIn *q) {
    MHReachWork work;
    return mh_reach_min(q, work.cells, REACH_WORK) == 1;
}

/* Points of `used` cards of kind k that count toward the minimum (MH-4.8). */
static inline int credited(const MannaData *s, int k, int used) {
    int c = s->credit[k];
    return mh_rank_points(k) * (used < c ? used : c);
}

/* MH-9.2/9.3: after a meld the player can still discard and keep a card, or go out. */
static inline int hand_after_ok(int newhand, int ready_after, int opened_after, int sevens_left) {
    if (newhand >= 2) return 1;
    if (!(opened_after && ready_after)) return 0;
    return newhand == 0 || sevens_left == 0;          /* MH-7.2: never go out on a seven */
}

/* ================================================================ the reach memo
 * While a team that took the pile has not opened, a meld is legal only if the minimum stays
 * reachable after it (MH-4.8, MH-5.5), and every candidate meld costs a reach_min search.
 * Within one group those answers are downward closed: if melding (n, t, j) keeps the minimum
 * reachable, so does melding any (n', t', j') <= (n, t, j) of the same group, because the rest,
 * (n - n', t - t', j - j'), can be added to that meld as part of its one later addition, at the
 * same points, within the same wild and hand-keep limits. legal_melds visits a group's
 * candidates from the largest down and remembers the reachable ones: a smaller one needs no
 * search. (The argument needs each kind's credit <= its count in hand, true in play, and the
 * search's card cap far away: known_reach_ok.) */
enum {
    MEMO_SIZE = 64                  /* more than the compositions of one group */
};

typedef struct ReachMemo {          /* compositions of one group known to keep the minimum reachable */
    int count;
    int8_t naturals[MEMO_SIZE];
    int8_t twos[MEMO_SIZE];
    int8_t jokers[MEMO_SIZE];
} ReachMemo;

static inline int memo_knows(const ReachMemo *memo, int n, int t, int j) {
    int i;
    for (i = 0; i < memo->count; i++)
        if (n <= memo->naturals[i] && t <= memo->twos[i] && j <= memo->jokers[i]) return 1;
    return 0;
}

static inline void memo_add(ReachMemo *memo, int n, int t, int j) {
    if (memo->count < MEMO_SIZE) {
        memo->naturals[memo->count] = (int8_t)n;
        memo->twos[memo->count] = (int8_t)t;
        memo->jokers[memo->count] = (int8_t)j;
        memo->count += 1;
    }
}

/* The memo's argument holds here: credits within the hand, and a hand far below the search's
 * card cap (DP_CARDS). */
static int known_reach_ok(const MannaData *s, int p) {
    int k;
    if (s->hand[p].total >= 100) return 0;
    for (k = 0; k < NRK; k++)
        if (s->credit[k] > s->hand_kind[p][k]) return 0;
    return 1;
}

typedef struct MeldGroup {          /* the position as every meld of one group sees it */
    int p, tm, g;
    int held;                       /* naturals of the group in hand (black threes for G_BLACK3) */
    int twos, jokers;               /* wild cards in hand */
    int u, size0, wild0;            /* the team's unfinished meld of the group: index (-1 if none),
                                       its cards and its wild cards */
} MeldGroup;

static inline void meld_group(const MannaData *s, int p, int g, MeldGroup *c) {
    c->p = p;
    c->tm = p & 1;
    c->g = g;
    c->held = g == G_BLACK3 ? black_threes_in_hand(s, p) : (g < 13 ? s->hand_kind[p][g] : 0);
    c->twos = s->hand_kind[p][R_TWO];
    c->jokers = s->hand_kind[p][K_JOKER];
    c->u = s->unf[c->tm][g];
    c->size0 = c->u < 0 ? 0 : s->melds[c->tm][c->u].size;
    c->wild0 = c->u < 0 ? 0 : s->melds[c->tm][c->u].wilds;
}

static int meld_rules_rest(const MannaData *s, const MeldGroup *c, int n, int t, int j,
                           ReachMemo *memo);

/* meld_rules from the shape rule on. legal_melds' candidates need no more: its masks
 * (new_mask, add_mask, wild_mask) give only compositions that pass meld_rules' earlier rules
 * (cards in hand, new or addition as the group's meld requires, room in the meld, no wild card
 * in sevens without wild_sevens), and it runs only when nothing was retracted. Skipping those
 * checks per candidate is not only less work: gcc folds them into branchless chains that cost
 * more instructions than Cython's version did. */
static inline int meld_rules_shape(const MannaData *s, const MeldGroup *c, int n, int t, int j,
                                   ReachMemo *memo) {
    int g = c->g, k = n + t + j;
    if (g == G_WILD) {
        if (!mh_meld_shape_ok(g, 0, c->size0 + k, s->opt.wild_sevens)) return W_SHAPE;
    } else if (!mh_meld_shape_ok(g, c->size0 - c->wild0 + n, c->wild0 + t + j, s->opt.wild_sevens)) {
        return W_SHAPE;
    }
    if (s->opened[c->tm] && s->hand[c->p].total - k >= 2 && g != G_BLACK3)
        return OK;          /* opened, and two cards kept (MH-9.3): nothing below can fail */
    return meld_rules_rest(s, c, n, t, j, memo);
}

/* meld_check for a meld of c's group: new or an addition, n naturals, t twos, j jokers. The
 * card and shape rules; the rest (meld_rules_rest) only where it can fail. */
static inline int meld_rules(const MannaData *s, const MeldGroup *c, int is_new, int n, int t,
                             int j, ReachMemo *memo) {
    int g = c->g, k = n + t + j;
    if (s->retracted) return W_RETRACTED;             /* MH-4.8: no melding after a retract */
    if ((g != G_WILD && c->held < n) || c->twos < t || c->jokers < j) return W_CARDS;
    if (is_new) {
        if (c->u >= 0) return W_UNFINISHED;           /* MH-4.4 */
    } else if (c->u < 0) {
        return W_NO_MELD;
    }
    if (c->size0 + k > CANASTA) return W_SIZE;       /* MH-4.1 */
    if (g == R_SEVEN && t + j > 0 && !s->opt.wild_sevens) return W_SEVENS;   /* MH-4.6 */
    return meld_rules_shape(s, c, n, t, j, memo);
}

/* The one legality function for melds (MH-4, 4.8, 5.5, 6, 9.3): OK or why not. `memo` (or
 * NULL) holds this group's compositions known to keep the minimum reachable. */
static int meld_check(const MannaData *s, int p, int mi, ReachMemo *memo) {
    MeldGroup c;
    meld_group(s, p, MELDS[mi].group, &c);
    return meld_rules(s, &c, MELDS[mi].is_new, MELDS[mi].n, MELDS[mi].t, MELDS[mi].j, memo);
}


/* meld_rules after the card and shape rules: the minimum (MH-4.8, 5.5), going out (MH-4.7,
 * 7.2, 9.1..9.3). */
static int meld_rules_rest(const MannaData *s, const MeldGroup *c, int n, int t, int j,
                           ReachMemo *memo) {
    int p = c->p, tm = c->tm, g = c->g, size0 = c->size0, wild0 = c->wild0;
    int k = n + t + j, final, ctype = CT_NONE, pts, total, newhand, sevens_left;
    int opened_after, ready_after;
    ReachIn q;
    final = size0 + k;
    if (g != G_BLACK3 && final == CANASTA)
        ctype = mh_canasta_type(g, final - wild0 - t - j, wild0 + t + j);
    opened_after = s->opened[tm];
    total = 0;
    if (!opened_after) {
        pts = credited(s, g < 13 ? g : R_THREE, n) + credited(s, R_TWO, t)
            + credited(s, K_JOKER, j);
        total = s->turn_points + pts;
        if (total >= s->need[tm])
            opened_after = 1;
        else if (ctype != CT_NONE)
            return W_SHORT_CANASTA;                   /* MH-4.8 Decision: no canasta while short */
    }
    newhand = s->hand[p].total - k;
    if (ctype != CT_NONE) newhand += foot_cards(s, p);   /* MH-6.1 */
    sevens_left = s->hand_kind[p][R_SEVEN] - (g == R_SEVEN ? n : 0);
    ready_after = 0;                                  /* read only when at most one card is left */
    if (g == G_BLACK3 || newhand < 2)
        ready_after = types_ready(s, s->types[tm] | mh_type_bits(g, ctype), s->canastas[tm][R_SEVEN]
                                  + (g == R_SEVEN && ctype != CT_NONE ? 1 : 0));
    if (g == G_BLACK3) {
        /* MH-4.7 Decision: black threes are the last meld of a going-out turn. */
        if (!(opened_after && ready_after) || newhand > 1) return W_BLACK3;
    }
    if (!hand_after_ok(newhand, ready_after, opened_after, sevens_left))
        return newhand == 1 && opened_after && ready_after ? W_SEVEN_LAST : W_KEEP;
    if (!opened_after && s->committed) {
        /* MH-4.8/5.5: after taking the pile the minimum must stay reachable. */
        if (memo != NULL && memo_knows(memo, n, t, j)) return OK;
        fill_reach(s, p, &q);
        if (g < 13) {
            q.nat[g] -= n;
            q.cred[g] = q.cred[g] > n ? q.cred[g] - n : 0;
        }
        q.twos -= t;
        q.cred_twos = q.cred_twos > t ? q.cred_twos - t : 0;
        q.jokers -= j;
        q.cred_jokers = q.cred_jokers > j ? q.cred_jokers - j : 0;
        q.ex_size[g] = final;
        q.ex_wild[g] = wild0 + t + j;
        q.hand = newhand;
        q.points = total;
        if (!reachable(&q)) return W_REACH;
        if (memo != NULL) memo_add(memo, n, t, j);
    }
    return OK;
}

static int pile_count_rank(const MannaData *s, int r, int below_top) {
    int i, n = 0, last = s->pile.size - (below_top ? 1 : 0);
    for (i = 0; i < last; i++)
        if (s->pile.cards[i] != JOKER && s->pile.cards[i] % 13 == r) n += 1;
    return n;
}

/* MH-5: the one legality function for the four ways of taking the pile. */
static int take_check(const MannaData *s, int p, int kind) {
    int tm = p & 1, top = pile_top(&s->pile), r, u, h, used_n = 0, used_t = 0;
    int used_j = 0, final, wild0 = 0, newhand, types_after, ctype = CT_NONE, pts, i, c;
    int frozen, has_can, opened_after, ready_after;
    ReachIn q;
    if (top < 0) return W_EMPTY;
    if (mh_is_wild(top) || top % 13 == R_THREE) return W_TOP;   /* MH-5.1 */
    r = top % 13;
    frozen = s->pile_frozen || !s->opened[tm];        /* MH-5.2 */
    u = s->unf[tm][r];
    has_can = s->canastas[tm][r] > 0;
    h = s->hand_kind[p][r];
    if (kind == A_TAKE_ADD) {                          /* (a) */
        if (frozen) return W_FROZEN;
        if (u < 0) return W_WAY;
    } else if (kind == A_TAKE_PAIR) {
        if (h < 2) return W_CARDS;
        if (!frozen && !has_can) {                     /* (b): a new meld */
            if (u >= 0) return W_WAY;
        } else if (u >= 0 && s->melds[tm][u].size + 3 > CANASTA) {   /* (c) */
            return W_SIZE;
        }
        used_n = 2;
    } else {                                           /* (b) with one wild card */
        if (frozen) return W_FROZEN;
        if (has_can || u >= 0) return W_WAY;
        if (r == R_SEVEN && !s->opt.wild_sevens) return W_SEVENS;   /* MH-4.6 */
        if (h < 1) return W_CARDS;
        if (kind == A_TAKE_TWO) {
            if (s->hand_kind[p][R_TWO] < 1) return W_CARDS;
            used_t = 1;
        } else {
            if (s->hand_kind[p][K_JOKER] < 1) return W_CARDS;
            used_j = 1;
        }
        used_n = 1;
    }
    final = 1 + used_n + used_t + used_j;
    if (u >= 0) {
        final += s->melds[tm][u].size;
        wild0 = s->melds[tm][u].wilds;
    }
    if (final == CANASTA) ctype = mh_canasta_type(r, final - wild0, wild0);
    newhand = s->hand[p].total - used_n - used_t - used_j + s->pile.size - 1 - s->pile_red3;
    if (ctype != CT_NONE) newhand += foot_cards(s, p);
    ready_after = 0;                                   /* read only when at most one card is left */
    if (newhand < 2) {
        types_after = s->types[tm] | mh_type_bits(r, ctype);
        ready_after = types_ready(s, types_after, s->canastas[tm][R_SEVEN]
                                  + (r == R_SEVEN && ctype != CT_NONE ? 1 : 0));
    }
    opened_after = s->opened[tm];
    pts = 0;
    if (!opened_after) {
        /* MH-4.8: the top card and the cards from hand count. */
        pts = mh_rank_points(r) * (1 + used_n) + mh_rank_points(R_TWO) * used_t
            + mh_rank_points(K_JOKER) * used_j;
        if (pts >= s->need[tm]) opened_after = 1;
    }
    if (!hand_after_ok(newhand, ready_after, opened_after,
                       s->hand_kind[p][R_SEVEN] - (r == R_SEVEN ? used_n : 0)
                       + pile_count_rank(s, R_SEVEN, 1)))
        return W_KEEP;
    if (!opened_after) {
        /* MH-5.5: the rest of the pile joins the hand but does not count. */
        fill_reach(s, p, &q);
        for (i = 0; i < 13; i++) q.cred[i] = s->hand_kind[p][i];
        q.cred_twos = s->hand_kind[p][R_TWO];
        q.cred_jokers = s->hand_kind[p][K_JOKER];
        q.nat[r] -= used_n;
        q.cred[r] -= used_n;
        for (i = 0; i < s->pile.size - 1; i++) {
            c = s->pile.cards[i];
            if (c == JOKER)
                q.jokers += 1;
            else if (c % 13 == R_TWO)
                q.twos += 1;
            else if (!mh_is_red_three(c))
                q.nat[c % 13] += 1;
        }
        q.ex_size[r] = final;
        q.ex_wild[r] = wild0;
        q.hand = newhand;
        q.points = pts;
        if (!reachable(&q)) return W_REACH;
    }
    return OK;
}


/* The card ids p may discard, as a mask (MH-3.3, MH-7.1, MH-9.3, MH-4.8). */
static uint64_t legal_discards(const MannaData *s, int p) {
    uint64_t held = ms_support(&s->hand[p]);          /* MH-3.3: a card in hand */
    if (s->hand[p].total < 2) return 0;               /* MH-9.3: one card is kept */
    if (!s->opened[p & 1] && s->turn_points > 0) return 0;   /* MH-4.8: provisional melds fall short */
    if (!sevens_free(s) && s->hand_kind[p][R_SEVEN] != s->hand[p].total)
        /* MH-7.1; Decision: a hand of nothing but sevens may discard one. */
        held &= ~rank_mask(R_SEVEN);
    return held;
}

/* MH-9.1, MH-9.2, MH-7.2. */
static int go_out_legal(const MannaData *s, int p, int c) {
    int tm = p & 1;
    return s->hand[p].count[c] > 0 && s->hand[p].total == 1 && s->opened[tm]
        && types_ready(s, s->types[tm], s->canastas[tm][R_SEVEN])
        && (c == JOKER || c % 13 != R_SEVEN);
}

/* ================================================================ legal actions */
static int group_melds_memo(const MannaData *s, const MeldGroup *c, uint64_t candidates,
                            int base, int32_t *out, int n, ReachMemo *memo);

/* Append the legal ones of the ids base + (each bit of candidates: legal_melds' masks),
 * ascending; meld_rules_shape decides each. With a reach memo they are decided from the
 * largest down (the memo's order). */
static inline int group_melds(const MannaData *s, const MeldGroup *c, uint64_t candidates,
                              int base, int32_t *out, int n, ReachMemo *memo) {
    int id, mi;
    if (memo == NULL) {
        while (candidates) {
            id = base + cardcore_ctz64(candidates);
            candidates &= candidates - 1;
            mi = id - A_MELD;
            if (meld_rules_shape(s, c, MELDS[mi].n, MELDS[mi].t, MELDS[mi].j, NULL) == OK) {
                out[n] = id;
                n += 1;
            }
        }
        return n;
    }
    return group_melds_memo(s, c, candidates, base, out, n, memo);
}

/* group_melds from the largest candidate down, for the reach memo. */
static int group_melds_memo(const MannaData *s, const MeldGroup *c, uint64_t candidates,
                            int base, int32_t *out, int n, ReachMemo *memo) {
    int32_t ids[MEMO_SIZE];
    int count = 0, found = 0, i, mi;
    while (candidates) {
        ids[count] = base + cardcore_ctz64(candidates);
        candidates &= candidates - 1;
        count += 1;
    }
    memo->count = 0;
    for (i = count - 1; i > -1; i--) {
        mi = ids[i] - A_MELD;
        if (meld_rules_shape(s, c, MELDS[mi].n, MELDS[mi].t, MELDS[mi].j, memo) == OK) {
            ids[count - 1 - found] = ids[i];  /* legal ones gather at the top, in id order */
            found += 1;
        }
    }
    for (i = count - found; i < count; i++) {
        out[n] = ids[i];
        n += 1;
    }
    return n;
}

static inline int min_int(int a, int b) { return a < b ? a : b; }
static inline int max_int(int a, int b) { return a > b ? a : b; }

/* Append the legal meld ids, ascending (MH-4). Only the compositions the hand holds and the
 * meld has room for are candidates (new_mask, add_mask, wild_mask: the meld table as masks);
 * meld_rules_shape decides each. Returns the new count. */
static int legal_melds(const MannaData *s, int p, int32_t *out, int n) {
    int tm = p & 1, gi, g, wild_cap, twos, jokers, naturals, most;
    int hand_twos = s->hand_kind[p][R_TWO], hand_jokers = s->hand_kind[p][K_JOKER];
    uint64_t candidates;
    MeldGroup c;
    ReachMemo memo;
    ReachMemo *use_memo = NULL;
    if (!s->opened[tm] && s->committed && known_reach_ok(s, p))
        use_memo = &memo;                              /* the minimum search will be asked */
    for (gi = 0; gi < NAT_GROUPS; gi++) {              /* natural-rank groups, in id order */
        g = mh_natural_group(gi);
        if (s->hand_kind[p][g] == 0 && s->unf[tm][g] < 0) continue;
        meld_group(s, p, g, &c);
        /* At most 3 wild cards in a meld, none in sevens without wild_sevens (MH-4.2, 4.6). */
        wild_cap = g == R_SEVEN && !s->opt.wild_sevens ? 0 : max_int(0, MAX_WILDS - c.wild0);
        twos = min_int(hand_twos, wild_cap);
        jokers = min_int(hand_jokers, wild_cap);
        if (c.u < 0) {
            candidates = new_mask(min_int(c.held, CANASTA), twos, jokers);
            n = group_melds(s, &c, candidates, GROUP_FIRST[g], out, n, use_memo);
        } else {
            candidates = add_mask(min_int(c.held, ADD_MOST), twos, jokers,
                                  max_int(0, min_int(CANASTA - c.size0, ADD_MOST)), wild_cap);
            n = group_melds(s, &c, candidates, GROUP_FIRST[g] + NAT_NEW, out, n, use_memo);
        }
    }
    if (hand_twos + hand_jokers > 0) {                 /* the wild meld (MH-4.3) */
        meld_group(s, p, G_WILD, &c);
        candidates = wild_mask(c.u < 0, min_int(hand_twos, CANASTA), min_int(hand_jokers, CANASTA),
                               max_int(0, CANASTA - c.size0));
        n = group_melds(s, &c, candidates, GROUP_FIRST[G_WILD], out, n, use_memo);
    }
    meld_group(s, p, G_BLACK3, &c);                    /* black threes (MH-4.7) */
    most = min_int(c.held, CANASTA);
    for (naturals = MIN_MELD; naturals < most + 1; naturals++) {
        if (meld_rules(s, &c, 1, naturals, 0, 0, NULL) == OK) {
            out[n] = A_BLACK3 + naturals - MIN_MELD;
            n += 1;
        }
    }
    return n;
}

/* Every legal id, ascending, into out (room for NUM_ACTIONS ids). */
static int legal_uncached(const MannaData *s, int32_t *out) {
    int n = 0, p = s->h.to_move, tm, c, i;
    uint64_t held;
    if (s->h.phase == ST_OVER) return 0;
    tm = p & 1;
    if (s->h.phase == ST_DRAW) {
        out[n] = A_DRAW;
        n += 1;
        for (i = A_TAKE_ADD; i < A_TAKE_JOKER + 1; i++) {
            if (take_check(s, p, i) == OK) {
                out[n] = i;
                n += 1;
            }
        }
        return n;
    }
    if (!s->opened[tm] && s->turn_points > 0 && !s->committed && !s->retracted) {
        out[n] = A_RETRACT;
        n += 1;
    }
    held = legal_discards(s, p);
    while (held) {                                     /* ascending ids */
        out[n] = A_DISCARD + lowest_card(held);
        held &= held - 1;
        n += 1;
    }
    if (s->hand[p].total == 1) {
        held = ms_support(&s->hand[p]);
        while (held) {
            c = lowest_card(held);
            held &= held - 1;
            if (go_out_legal(s, p, c)) {
                out[n] = A_GO_OUT + c;
                n += 1;
            }
        }
    }
    if (s->retracted) return n;
    return legal_melds(s, p, out, n);
}

/* The legal ids of the position in s->legal (computed once per position); their count. */
static int legal_cached(MannaData *s) {
    if (s->legal_count < 0) s->legal_count = legal_uncached(s, s->legal);
    return s->legal_count;
}

/* ================================================================ applying actions */
static void start_meld_stage(MannaData *s, int p) {
    int k;
    s->h.phase = ST_MELD;
    for (k = 0; k < NRK; k++) s->credit[k] = s->hand_kind[p][k];   /* MH-4.8: cards from hand count */
}

/* MH-6.1..6.3. */
static void pick_up_foot(MannaData *s, int p) {
    int c, k;
    if (s->foot_taken[p]) return;
    s->foot_taken[p] = 1;
    for (c = 0; c < NUM_KINDS; c++)
        for (k = 0; k < s->foot[p].count[c]; k++) mh_hand_add(s, p, c);
    ms_clear(&s->foot[p]);
    lay_out_red_threes(s, p);
}

static int new_meld(MannaData *s, int tm, int g) {
    int m = s->nmelds[tm];
    s->nmelds[tm] += 1;
    s->melds[tm][m].group = (int8_t)g;
    s->melds[tm][m].size = 0;
    s->melds[tm][m].wilds = 0;
    s->melds[tm][m].ctype = CT_NONE;
    if (g != G_BLACK3) s->unf[tm][g] = m;
    return m;
}

static void meld_card(MannaData *s, int tm, int m, int c) {
    Meld *x = &s->melds[tm][m];
    x->cards[x->size] = (uint8_t)c;
    x->size += 1;
    if (mh_is_wild(c)) x->wilds += 1;
}

/* A meld that reached 7 cards becomes a closed canasta (MH-4.1, 4.5); returns 1 then. */
static int finish_meld(MannaData *s, int tm, int m) {
    Meld *x = &s->melds[tm][m];
    if (x->size != CANASTA || x->group == G_BLACK3) return 0;
    x->ctype = (int8_t)mh_canasta_type(x->group, x->size - x->wilds, x->wilds);
    s->types[tm] |= mh_type_bits(x->group, x->ctype);
    s->canastas[tm][x->group] += 1;
    s->unf[tm][x->group] = -1;
    return 1;
}

int mh_new_meld(MHState *s, int tm, int g) { return new_meld(s, tm, g); }
void mh_meld_card(MHState *s, int tm, int m, int c) { meld_card(s, tm, m, c); }
int mh_finish_meld(MHState *s, int tm, int m) { return finish_meld(s, tm, m); }

/* MH-4.8: add counted points while the team's initial meld is short. */
static void count_points(MannaData *s, int p, int k, int used) {
    int tm = p & 1, c = s->credit[k], cnt = used < c ? used : c;
    s->credit[k] = c - cnt;
    if (!s->opened[tm]) s->turn_points += mh_rank_points(k) * cnt;
}

static void check_opened(MannaData *s, int p) {
    int tm = p & 1;
    if (!s->opened[tm] && s->turn_points >= s->need[tm]) {
        s->opened[tm] = 1;
        s->committed = 0;
    }
}

/* The scoring breakdown rows (MH-10): team_hand_score writes one per component as it scores
 * (indexes into the wrapper's BREAKDOWN_WHAT and BREAKDOWN_RULES). */
enum {
    W_CANASTA_BONUSES = 0,
    W_MELD_CARDS = 1,
    W_RED_THREES = 2,
    W_GOING_OUT = 3,
    W_HAND_CARDS = 4,
    W_FOOT_RED_THREES = 5,
    W_FOOT_CARDS = 6
};

/* One breakdown row of team `tm` (its rule is its component's own); returns points. */
static inline int add_row(MannaData *s, int tm, int what, int detail, int points) {
    BreakdownRow *row = &s->breakdown[s->breakdown_size];
    row->owner = tm;
    row->what = what;
    row->rule = what;                   /* each component has its own rule (same index) */
    row->detail = detail;
    row->count = -1;
    row->points = points;
    s->breakdown_size += 1;
    return points;
}

/* MH-10.1..10.5 (MH-10.5 by the foot_penalty option), each component a breakdown row, in
 * this order. */
static int team_hand_score(MannaData *s, int tm, int out_seat) {
    int bonus = 0, in_melds = 0, m, i, p, c, nred, red, total;
    int in_hands = 0, foot_threes = 0, foot_points = 0;
    const Meld *x;
    for (m = 0; m < s->nmelds[tm]; m++) {
        x = &s->melds[tm][m];
        bonus += mh_canasta_bonus(x->ctype);
        for (i = 0; i < x->size; i++) in_melds += mh_card_points(x->cards[i]);
    }
    nred = s->red3[tm][0] + s->red3[tm][1];
    red = nred == ALL_RED_THREES ? RED_THREES_ALL : RED_THREE_EACH * nred;
    if (!has_sevens(s, s->types[tm])) red = -red;      /* MH-8.3 */
    for (p = tm; p < NPLAYERS; p += 2) {
        for (c = 0; c < NUM_KINDS; c++) {
            in_hands -= mh_card_points(c) * s->hand[p].count[c];
            if (!s->foot_taken[p]) {
                if (mh_is_red_three(c))
                    foot_threes -= FOOT_RED_THREE * s->foot[p].count[c];   /* MH-8.4 */
                else
                    foot_points -= mh_card_points(c) * s->foot[p].count[c];
            }
        }
    }
    total = add_row(s, tm, W_CANASTA_BONUSES, -1, bonus);
    total += add_row(s, tm, W_MELD_CARDS, -1, in_melds);
    total += add_row(s, tm, W_RED_THREES, nred, red);
    total += add_row(s, tm, W_GOING_OUT, -1,
                     out_seat >= 0 && (out_seat & 1) == tm ? GOING_OUT_BONUS : 0);
    total += add_row(s, tm, W_HAND_CARDS, -1, in_hands);
    total += add_row(s, tm, W_FOOT_RED_THREES, -1, foot_threes);
    if (s->opt.foot_penalty == FOOT_CARDS)             /* MH-10.5 foot_penalty="cards" */
        total += add_row(s, tm, W_FOOT_CARDS, -1, foot_points);
    return total;
}

static int mh_breakdown(const void *state, BreakdownRow *out, int capacity) {
    const MannaData *s = (const MannaData *)state;
    return copy_breakdown(s->breakdown, s->breakdown_size, out, capacity);
}

/* MH-9.4/9.5 end of the hand, MH-10 scoring, MH-10.6 the match, MH-10.7 the hand limit. */
static void end_hand(MannaData *s, int out_seat) {
    int tm, decided;
    s->breakdown_size = 0;
    for (tm = 0; tm < NTEAMS; tm++) {
        s->last_hand[tm] = team_hand_score(s, tm, out_seat);
        s->score[tm] += s->last_hand[tm];
    }
    s->last_out = out_seat;
    s->h.round_index += 1;
    s->h.turns += 1;
    decided = (s->score[0] >= s->opt.target || s->score[1] >= s->opt.target)
        && s->score[0] != s->score[1];
    if (decided || s->h.round_index >= s->opt.hands) {
        s->h.phase = ST_OVER;                          /* equal at the hand limit: a draw */
        s->h.to_move = -1;
        return;
    }
    s->h.dealer = (s->h.dealer + 1) % NPLAYERS;        /* MH-2.1 */
    deal(s);
}

static void draw_stock(MannaData *s, int p) {
    int i;
    int32_t scratch[NUM_ACTIONS];
    if (s->stock.size == 0) {
        end_hand(s, -1);                               /* MH-9.5 */
        return;
    }
    for (i = 0; i < DRAW_COUNT; i++) draw_one(s, p);   /* MH-3.1; one card if one is left */
    start_meld_stage(s, p);
    if (s->hand[p].total < 2 && legal_uncached(s, scratch) == 0)
        /* MH-9.5 Decision: the stock ran out (red threes) and the player's single card can
         * neither be discarded nor go out (by `out` or by melding it): the hand ends. */
        end_hand(s, -1);
}

/* Choose `n` cards of kind `k` (a rank 0..12 or the joker) from `hand`: the cards
 * Game.apply(..., cards=) chose first (the header's, where they are of that kind), else each
 * the lowest card id not yet `picked` (suits C S D H): the one rule for which cards a meld or
 * a pile take uses (games/manna.md, "Actions"). Returns how many it found. */
static int pick_kind(const Header *h, const Multiset *hand, int k, int n, uint8_t *picked,
                     uint8_t *out) {
    int found = 0, suit, c;
    uint64_t kind = k == K_JOKER ? card_bit(JOKER) : rank_mask(k);
    while (found < n) {
        c = -1;
        if (h->chosen_size > 0) c = chosen_card(h, kind, hand->count, picked);
        if (c < 0 && k == K_JOKER) {
            if (hand->count[JOKER] > picked[JOKER]) c = JOKER;
        } else if (c < 0) {
            for (suit = 0; suit < 4; suit++) {
                if (hand->count[suit * 13 + k] > picked[suit * 13 + k]) {
                    c = suit * 13 + k;
                    break;
                }
            }
        }
        if (c < 0) break;
        picked[c] += 1;
        out[found] = (uint8_t)c;
        found += 1;
    }
    return found;
}

/* The cards meld `mi` takes from p's hand, in the order they join the meld (naturals, twos,
 * jokers); -1 if the hand lacks them. */
static int meld_cards_of(const MannaData *s, int p, int mi, uint8_t *out) {
    uint8_t picked[NUM_KINDS];
    int g = MELDS[mi].group, n = 0;
    memset(picked, 0, sizeof(picked));
    n += pick_kind(&s->h, &s->hand[p], g < 13 ? g : R_THREE, MELDS[mi].n, picked, out + n);
    n += pick_kind(&s->h, &s->hand[p], R_TWO, MELDS[mi].t, picked, out + n);
    n += pick_kind(&s->h, &s->hand[p], K_JOKER, MELDS[mi].j, picked, out + n);
    return n == MELDS[mi].n + MELDS[mi].t + MELDS[mi].j ? n : -1;
}

/* The cards of p's hand a pile take `kind` melds with the top card (MH-5.3); -1 if the pile
 * is empty or the hand lacks them. */
static int take_cards_of(const MannaData *s, int p, int kind, uint8_t *out) {
    uint8_t picked[NUM_KINDS];
    int r, need, n;
    if (s->pile.size == 0) return -1;
    r = pile_top(&s->pile) % 13;
    memset(picked, 0, sizeof(picked));
    need = kind == A_TAKE_PAIR ? 2 : (kind == A_TAKE_ADD ? 0 : 1);
    n = pick_kind(&s->h, &s->hand[p], r, need, picked, out);
    if (kind == A_TAKE_TWO) {
        need += 1;
        n += pick_kind(&s->h, &s->hand[p], R_TWO, 1, picked, out + n);
    } else if (kind == A_TAKE_JOKER) {
        need += 1;
        n += pick_kind(&s->h, &s->hand[p], K_JOKER, 1, picked, out + n);
    }
    return n == need ? n : -1;
}

int mh_meld_cards_of(const MHState *s, int p, int mi, uint8_t *out) {
    return meld_cards_of(s, p, mi, out);
}

int mh_take_cards_of(const MHState *s, int p, int kind, uint8_t *out) {
    return take_cards_of(s, p, kind, out);
}

static void meld(MannaData *s, int p, int mi) {
    int tm = p & 1, g = MELDS[mi].group, n = MELDS[mi].n, t = MELDS[mi].t, j = MELDS[mi].j, m, i;
    uint8_t cards[CANASTA];        /* a meld never takes more than a canasta holds (MH-4.1) */
    int count = meld_cards_of(s, p, mi, cards);
    m = MELDS[mi].is_new ? new_meld(s, tm, g) : s->unf[tm][g];
    for (i = 0; i < count; i++) {
        mh_hand_remove(s, p, cards[i]);
        meld_card(s, tm, m, cards[i]);
    }
    count_points(s, p, g < 13 ? g : R_THREE, n);
    count_points(s, p, R_TWO, t);
    count_points(s, p, K_JOKER, j);
    check_opened(s, p);
    if (finish_meld(s, tm, m)) pick_up_foot(s, p);     /* MH-6.1 */
    if (s->hand[p].total == 0) end_hand(s, p);         /* MH-9.2: melded every card */
}

/* MH-5.3, MH-5.4. */
static void take_pile(MannaData *s, int p, int kind) {
    int tm = p & 1, top = pile_pop(&s->pile), r = top % 13, m, i, c, k, x;
    int u = s->unf[tm][r];
    uint8_t from_hand[3];
    m = u >= 0 ? u : new_meld(s, tm, r);
    meld_card(s, tm, m, top);
    if (!s->opened[tm]) {
        s->turn_points = mh_rank_points(r);
        s->committed = 1;                              /* MH-4.8: no retract after a take */
    }
    for (k = 0; k < NRK; k++) s->credit[k] = s->hand_kind[p][k];   /* the hand before the pile joins it */
    pile_push(&s->pile, top);                          /* take_cards_of reads the top card */
    x = take_cards_of(s, p, kind, from_hand);
    pile_pop(&s->pile);
    for (i = 0; i < x; i++) {
        mh_hand_remove(s, p, from_hand[i]);
        meld_card(s, tm, m, from_hand[i]);
    }
    i = kind == A_TAKE_PAIR ? 2 : (kind == A_TAKE_ADD ? 0 : 1);
    count_points(s, p, r, i);
    if (kind == A_TAKE_TWO)
        count_points(s, p, R_TWO, 1);
    else if (kind == A_TAKE_JOKER)
        count_points(s, p, K_JOKER, 1);
    for (i = 0; i < s->pile.size; i++) {
        c = s->pile.cards[i];
        if (mh_is_red_three(c)) {
            lay_red_three(s, p, c);                    /* MH-5.4, MH-8.1: not replaced */
        } else {
            mh_hand_add(s, p, c);
            ms_add(&s->known[p], c);                   /* everyone saw the pile join this hand */
        }
    }
    s->pile.size = 0;
    s->pile_frozen = 0;
    s->pile_red3 = 0;
    s->h.phase = ST_MELD;
    check_opened(s, p);
    if (finish_meld(s, tm, m)) pick_up_foot(s, p);
    if (s->hand[p].total == 0) end_hand(s, p);
}

/* MH-4.8: every provisional meld of the team goes back to the hand. */
static void retract(MannaData *s, int p) {
    int tm = p & 1, m, i, k;
    for (m = 0; m < s->nmelds[tm]; m++) {
        for (i = 0; i < s->melds[tm][m].size; i++) {
            mh_hand_add(s, p, s->melds[tm][m].cards[i]);
            ms_add(&s->known[p], s->melds[tm][m].cards[i]);   /* they were on the table */
        }
    }
    s->nmelds[tm] = 0;
    for (k = 0; k < NGROUPS; k++) s->unf[tm][k] = -1;
    s->turn_points = 0;
    s->retracted = 1;
    for (k = 0; k < NRK; k++) s->credit[k] = s->hand_kind[p][k];
}

static void discard(MannaData *s, int p, int c) {
    mh_hand_remove(s, p, c);
    pile_push(&s->pile, c);
    if (mh_is_wild(c)) s->pile_frozen = 1;             /* MH-5.2 */
    s->h.to_move = (p + 1) % NPLAYERS;                 /* MH-1.4: clockwise */
    s->h.turns += 1;
    begin_turn(s);
}

/* Apply an id known to be legal. */
static void apply_action(MannaData *s, int action) {
    int p = s->h.to_move;
    s->legal_count = -1;
    if (action == A_DRAW) {
        draw_stock(s, p);
    } else if (action <= A_TAKE_JOKER) {
        take_pile(s, p, action);
    } else if (action == A_RETRACT) {
        retract(s, p);
    } else if (action < A_GO_OUT) {
        discard(s, p, action - A_DISCARD);
    } else if (action < A_MELD) {
        mh_hand_remove(s, p, action - A_GO_OUT);
        pile_push(&s->pile, action - A_GO_OUT);
        end_hand(s, p);                                /* MH-9.2, MH-9.4 */
    } else {
        meld(s, p, action - A_MELD);
    }
}

/* ================================================================ GreedyBot's policy (the greedy hook)
 * A one-move heuristic that reads only what the seat to move may know (MH-11): its own hand,
 * the teams' melds (face up, MH-4), the canasta types they hold and whether they have opened.
 * It is the heuristic of greedy.py (0.2-0.3) moved into the core, choice for choice and draw
 * for draw (tests/games/manna/test_manna_greedy_policy.py checks it against that Python code).
 *
 * Draw stage: take the pile the first way offered (`take add` first, MH-5.3), else draw.
 * Meld stage: go out when offered (MH-9.2); else the best meld if its value is > 0; else the
 * discard of lowest value; else retract (MH-4.8); else a uniformly random legal move. Each meld
 * and each discard considered draws rng_below(1 << 16), in legal-id order, whatever it is
 * worth; the best is the highest (value, draw, id), the best discard the lowest: the tuples
 * the Python heuristic compared.
 *
 * The weights (their one definition; greedy.py's docstring documents them):
 *     meld value (higher is better)
 *         GR_BLACK3_MELD      1000   black threes (only offered when they lead to going out, MH-4.7)
 *         GR_NEW_TYPE          400   the meld makes a canasta of a type the team lacks (MH-4.5)
 *         GR_CANASTA           150   ... of a type it already has
 *         GR_NATURAL            12   per natural card laid
 *         GR_SEVEN              +4   per seven laid (sevens canastas, MH-7)
 *         GR_WILD_MELD          30   per wild card laid in the wild meld (MH-4.3)
 *         GR_WILD_SAVED       -100   per wild card laid elsewhere once opened with a mixed canasta
 *         GR_WILD_USEFUL         5   per wild card that completes a canasta or helps open (MH-4.8)
 *         GR_WILD_SPENT        -15   per wild card laid elsewhere otherwise
 *     discard value (lower is better)
 *         GR_DISCARD_THREE    -100   a three (black: it stops the next player, MH-5.1)
 *         (base)                     the card's points (MH-1.3)
 *         GR_SAME_RANK           8   per other card of its kind in hand
 *         GR_KEEP_WILD          80   a wild card (MH-1.2)
 *         GR_FEEDS_THEM        120   the opponents have an unfinished meld of its kind
 *         GR_OURS               30   the team has an unfinished meld of its kind */
enum {
    GR_BLACK3_MELD = 1000,
    GR_NEW_TYPE = 400,
    GR_CANASTA = 150,
    GR_NATURAL = 12,
    GR_SEVEN = 4,
    GR_WILD_MELD = 30,
    GR_WILD_SAVED = -100,
    GR_WILD_USEFUL = 5,
    GR_WILD_SPENT = -15,
    GR_DISCARD_THREE = -100,
    GR_SAME_RANK = 8,
    GR_KEEP_WILD = 80,
    GR_FEEDS_THEM = 120,
    GR_OURS = 30,
    GR_TIE_DRAW = 1 << 16       /* the tie-break draw per candidate: rng_below(GR_TIE_DRAW) */
};

typedef struct GreedyTable {        /* what the meld and discard values read of the public melds */
    int size[NGROUPS];              /* the team's unfinished meld of each group: its size (0: none;
                                       the last one started, if the table held several) */
    int wild[NGROUPS];              /* an unfinished meld of the team's in that group holds a wild card */
    int unfinished[NTEAMS][NGROUPS];   /* the team has an unfinished meld of that group */
} GreedyTable;

static inline void greedy_table(const MannaData *s, int team, GreedyTable *t) {
    int tm, m, i, g;
    for (g = 0; g < NGROUPS; g++) {
        t->size[g] = 0;
        t->wild[g] = 0;
        t->unfinished[0][g] = 0;
        t->unfinished[1][g] = 0;
    }
    for (tm = 0; tm < NTEAMS; tm++) {
        for (m = 0; m < s->nmelds[tm]; m++) {
            if (s->melds[tm][m].ctype != CT_NONE) continue;
            g = s->melds[tm][m].group;
            t->unfinished[tm][g] = 1;
            if (tm != team) continue;
            t->size[g] = s->melds[tm][m].size;
            for (i = 0; i < s->melds[tm][m].size; i++)
                if (mh_is_wild(s->melds[tm][m].cards[i])) t->wild[g] = 1;
        }
    }
}

static inline int has_type(int types, int kind) { return (types & kind) != 0; }

/* How good meld `mi` (its index in the meld table) is for the team; <= 0: not worth it. */
static inline double greedy_meld_value(const MannaData *s, const GreedyTable *t, int team,
                                       int opened, int mi) {
    int group = MELDS[mi].group, n = MELDS[mi].n, wilds = MELDS[mi].t + MELDS[mi].j;
    int size, final, kind, types = s->types[team];
    double score = 0.0;
    if (group == G_BLACK3) return GR_BLACK3_MELD;      /* MH-4.7: only legal when it leads to going out */
    size = n + wilds;
    final = size + (MELDS[mi].is_new ? 0 : t->size[group]);
    if (final == CANASTA) {                            /* MH-4.5: the canasta's type */
        if (group == G_WILD)
            kind = CT_WILD;
        else if (wilds || t->wild[group])
            kind = CT_MIXED;
        else if (group == R_SEVEN)
            kind = CT_SEVENS;
        else
            kind = CT_NATURAL;
        score += !has_type(types, kind) ? GR_NEW_TYPE : GR_CANASTA;
    }
    score += GR_NATURAL * n + (group == R_SEVEN ? GR_SEVEN : 0) * n;
    if (wilds) {
        if (group == G_WILD)
            score += GR_WILD_MELD * wilds;             /* the wild canasta is the hardest type to make */
        else if (opened && has_type(types, CT_MIXED))
            score += GR_WILD_SAVED * wilds;            /* save wild cards for the wild canasta */
        else if (final == CANASTA || !opened)
            score += GR_WILD_USEFUL * wilds;
        else
            score += GR_WILD_SPENT * wilds;
    }
    return score;
}

/* Lower is a better discard. */
static inline double greedy_discard_value(const MannaData *s, const GreedyTable *t, int p,
                                          int team, int card) {
    int r = mh_kind_of(card), same, suit;
    double score;
    if (r == R_THREE) return GR_DISCARD_THREE;         /* MH-5.1: a black three stops the next player */
    if (r == K_JOKER) {
        same = s->hand[p].count[JOKER];
    } else {
        same = 0;
        for (suit = 0; suit < 4; suit++) same += s->hand[p].count[suit * 13 + r];
    }
    score = (double)(mh_card_points(card) + GR_SAME_RANK * (same - 1));
    if (r == R_TWO || r == K_JOKER) score += GR_KEEP_WILD;   /* keep wild cards */
    if (t->unfinished[1 - team][r]) score += GR_FEEDS_THEM;  /* it would join their meld with the pile (MH-5.3) */
    if (t->unfinished[team][r]) score += GR_OURS;
    return score;
}

/* GreedyBot's move: the index in legal[0:n] (the greedy hook). */
static int mh_greedy(const void *state, const int32_t *legal, int n, Rng *rng) {
    const MannaData *s = (const MannaData *)state;
    int p = s->h.to_move, team = p & 1, k, a, best = -1, take = -1;
    int opened = s->opened[team], seen = 0;
    double value, best_value = 0.0;
    uint32_t draw, best_draw = 0;
    GreedyTable table;
    if (s->h.phase == ST_DRAW) {                       /* MH-3.1, MH-5: take the pile if offered */
        for (k = 0; k < n; k++)
            if (A_TAKE_ADD <= legal[k] && legal[k] <= A_TAKE_JOKER && (take < 0 || legal[k] < legal[take]))
                take = k;                              /* take_add if offered, else the lowest way */
        if (take >= 0) return take;
        for (k = 0; k < n; k++)
            if (legal[k] == A_DRAW) return k;
        return -1;
    }
    for (k = 0; k < n; k++)
        if (A_GO_OUT <= legal[k] && legal[k] < A_MELD) return k;   /* MH-9.2: the first way out offered */
    greedy_table(s, team, &table);
    for (k = 0; k < n; k++) {                          /* the highest (value, draw, id) */
        a = legal[k];
        if (a < A_MELD) continue;
        value = greedy_meld_value(s, &table, team, opened, a - A_MELD);
        draw = rng_below(rng, GR_TIE_DRAW);
        if (!seen || value > best_value || (value == best_value && (
                draw > best_draw || (draw == best_draw && a > legal[best])))) {
            best = k;
            best_value = value;
            best_draw = draw;
            seen = 1;
        }
    }
    if (seen && best_value > 0) return best;
    best = -1;
    seen = 0;
    for (k = 0; k < n; k++) {                          /* the lowest (value, draw, id) */
        a = legal[k];
        if (!(A_DISCARD <= a && a < A_GO_OUT)) continue;
        value = greedy_discard_value(s, &table, p, team, a - A_DISCARD);
        draw = rng_below(rng, GR_TIE_DRAW);
        if (!seen || value < best_value || (value == best_value && (
                draw < best_draw || (draw == best_draw && a < legal[best])))) {
            best = k;
            best_value = value;
            best_draw = draw;
            seen = 1;
        }
    }
    if (seen) return best;
    for (k = 0; k < n; k++)
        if (legal[k] == A_RETRACT) return k;           /* MH-4.8: the initial meld falls short */
    return (int)rng_below(rng, (uint32_t)n);
}

/* ================================================================ the rollout policy (the rollout hook)
 * What a search's rollouts play (cardcore._search), never a player's move. Uniformly random
 * play almost never opens (MH-4.8) or makes a canasta, so random rollouts say little about a
 * hand's score; this cheap policy plays like GreedyBot (greedy.py) on the counts the state
 * already keeps. It reads the whole world it is given, a sampled one in a search. */

/* How good a meld (its index in the meld table) is: naturals laid, a canasta completed
 * (MH-4.5) far more; wild cards spent outside the wild meld cost once the team has opened. */
static inline int rollout_meld_value(const MannaData *s, int team, int meld) {
    int group = MELDS[meld].group, n = MELDS[meld].n, wilds = MELDS[meld].t + MELDS[meld].j;
    int size = n + wilds, value = 12 * n;
    if (group == G_BLACK3) return 1000;                /* MH-4.7: only offered when it goes out */
    if (MELDS[meld].is_new == 0 && s->unf[team][group] >= 0)
        size += s->melds[team][s->unf[team][group]].size;
    if (size == CANASTA) value += 400;
    if (group == G_WILD)
        value += 30 * wilds;
    else if (s->opened[team] && size != CANASTA)
        value -= 15 * wilds;
    return value;
}

/* Lower is a better discard: a black three first (it stops the next player, MH-5.1), then
 * cheap lone cards (MH-1.3); wild cards, and ranks the opponents are melding, last. */
static inline int rollout_discard_value(const MannaData *s, int p, int card) {
    int kind = mh_kind_of(card), value;
    if (mh_is_black_three(card)) return -100;
    value = mh_rank_points(kind) + 8 * (s->hand_kind[p][kind] - 1);
    if (mh_is_wild(card))
        value += 80;
    else if (kind != R_THREE && s->unf[1 - (p & 1)][kind] >= 0)
        value += 120;                                  /* it would join their meld with the pile */
    return value;
}

/* Draw: take the pile when offered (MH-5), else the stock. Meld stage: go out when offered
 * (MH-9), else the best meld worth laying, else the best discard (ties at random), else
 * retract (MH-4.8). Returns an index into legal, or -1 (no preference). */
static int mh_rollout(const void *state, const int32_t *legal, int n, Rng *rng) {
    const MannaData *s = (const MannaData *)state;
    int p = s->h.to_move, team = p & 1, k, a, value;
    BestPick pick;
    best_pick_init(&pick);
    if (s->h.phase == ST_DRAW) {
        for (k = 0; k < n; k++)
            if (A_TAKE_ADD <= legal[k] && legal[k] <= A_TAKE_JOKER) return k;   /* ids ascending: take_add first */
        for (k = 0; k < n; k++)
            if (legal[k] == A_DRAW) return k;
        return -1;
    }
    for (k = 0; k < n; k++) {
        a = legal[k];
        if (A_GO_OUT <= a && a < A_MELD) return k;
        if (a >= A_MELD)
            value = rollout_meld_value(s, team, a - A_MELD);
        else if (A_DISCARD <= a && a < A_GO_OUT)
            value = -1000 - rollout_discard_value(s, p, a - A_DISCARD);   /* below any meld */
        else
            continue;
        if (a >= A_MELD && value <= 0) continue;       /* a meld not worth laying */
        best_pick_offer(&pick, k, value, rng);
    }
    if (pick.index >= 0) return pick.index;
    for (k = 0; k < n; k++)
        if (legal[k] == A_RETRACT) return k;
    return -1;
}

/* ================================================================ what a seat may know (MH-11)
 * The per-seat projection (mh_observe: MH-11 as a float tensor, laid out by the MH_O_ offsets
 * of kernel.h, documented in games/manna.md "Observation") and the redeal of everything a
 * seat cannot see (mh_sample_hidden). */
enum {
    NUM_IDS = MH_OBS_IDS,
    MELD_SLOTS = MH_MELD_SLOTS,
    NUM_CT = MH_NUM_CT
};

/* The observation's slot of a meld group: A 4..K = 0..10, wild 11, black threes 12. */
static inline int meld_slot(int group) {
    if (group == G_WILD) return NAT_GROUPS;
    if (group == G_BLACK3) return NAT_GROUPS + 1;
    return group == 0 ? 0 : group - R_THREE;
}

/* CT_NATURAL, CT_MIXED, CT_WILD, CT_SEVENS -> 0..3. */
static inline int type_index(int ctype) {
    return ctype == CT_NATURAL ? 0 : (ctype == CT_MIXED ? 1 : (ctype == CT_WILD ? 2 : 3));
}

static int mh_observation_size(const void *state) {
    (void)state;
    return MH_OBSERVATION_SIZE;
}

/* MH-11: the seat's own hand; every public zone; sizes of the hidden ones. */
static void mh_observe(const void *state, int seat, float *out) {
    const MannaData *s = (const MannaData *)state;
    const Meld *x;
    int p, c, tm, m, i, slot, k;
    memset(out, 0, MH_OBSERVATION_SIZE * sizeof(float));
    out[MH_O_OBSERVER + seat] = 1.0;
    if (s->h.to_move >= 0) out[MH_O_TO_MOVE + s->h.to_move] = 1.0;
    out[MH_O_PHASE + s->h.phase] = 1.0;
    out[MH_O_TEAM + (seat & 1)] = 1.0;
    for (c = 0; c < NUM_IDS; c++) out[MH_O_HAND + c] = s->hand[seat].count[c];
    for (p = 0; p < NPLAYERS; p++) {
        out[MH_O_HAND_SIZES + p] = (float)s->hand[p].total;
        out[MH_O_FOOT_SIZES + p] = (float)s->foot[p].total;
        out[MH_O_SCORES + p] = (float)s->score[p & 1];
    }
    out[MH_O_TURN_POINTS] = (float)s->turn_points;
    out[MH_O_DEALER + s->h.dealer] = 1.0;
    out[MH_O_HAND_NUMBER] = (float)(s->h.round_index + (s->h.to_move < 0 ? 0 : 1));
    out[MH_O_STOCK_SIZE] = (float)s->stock.size;
    out[MH_O_FROZEN] = s->pile_frozen ? 1.0f : 0.0f;
    for (i = 0; i < s->pile.size; i++) out[MH_O_DISCARD + s->pile.cards[i]] += 1.0;
    if (s->pile.size > 0) out[MH_O_DISCARD_TOP + pile_top(&s->pile)] = 1.0;
    for (tm = 0; tm < NTEAMS; tm++) {
        out[MH_O_LAST_HAND + tm] = (float)s->last_hand[tm];
        out[MH_O_MIN_MELD + tm] = (float)s->need[tm];
        out[MH_O_OPENED + tm] = s->opened[tm] ? 1.0f : 0.0f;
        out[MH_O_RED_THREES + 2 * tm] = (float)s->red3[tm][0];
        out[MH_O_RED_THREES + 2 * tm + 1] = (float)s->red3[tm][1];
        for (k = 0; k < NUM_CT; k++)
            if (s->types[tm] & (1 << k)) out[MH_O_CANASTA_TYPES + NUM_CT * tm + k] = 1.0;
        for (m = 0; m < s->nmelds[tm]; m++) {
            x = &s->melds[tm][m];
            for (i = 0; i < x->size; i++) out[MH_O_MELD_CARDS + NUM_IDS * tm + x->cards[i]] += 1.0;
            slot = MELD_SLOTS * tm + meld_slot(x->group);
            if (x->ctype == CT_NONE) {
                out[MH_O_OPEN_SIZE + slot] += x->size;
                out[MH_O_OPEN_WILDS + slot] += x->wilds;
            } else {
                out[MH_O_CANASTAS + NUM_CT * slot + type_index(x->ctype)] += 1.0;
            }
        }
    }
}

/* Redeal, uniformly among the deals consistent with what `seat` knows, every card it cannot
 * see: the other hands except their known cards (taken piles, retracted melds), every unopened
 * foot (its own too, MH-2.2) and the stock; every zone keeps its size. Hands never hold a red
 * three (MH-2.4, MH-8.1), so the unseen red threes go to feet and stock only: they take
 * uniformly chosen slots there, and a uniform shuffle of the other unseen cards fills the
 * rest. Approximation: for the player to move, mid-turn, the counted points of the turn
 * (MH-4.8) are not used as evidence about which of its cards count. */
static int mh_sample_hidden(void *state, int seat, Rng *rng) {
    MannaData *s = (MannaData *)state;
    int32_t unseen[NUM_KINDS];                         /* the pool, as a count per card id */
    uint8_t plain[DECK_SIZE];                          /* unseen cards other than red threes */
    uint8_t slots[DECK_SIZE];                          /* foot and stock slots: a red three or PLAIN */
    int32_t unknown[NPLAYERS];
    int32_t foot_size[NPLAYERS];
    int p, c, k, q, n_plain = 0, n_red = 0, n_slots = 0, next_plain = 0, stock_size, end;
    int mover = s->h.to_move != seat && s->h.phase == ST_MELD ? s->h.to_move : -1;
    int32_t uncounted[NRK];
    if (mover >= 0)
        for (k = 0; k < NRK; k++)
            uncounted[k] = s->hand_kind[mover][k] > s->credit[k] ? s->hand_kind[mover][k] - s->credit[k] : 0;
    /* Gather the unknown part of the other hands, the unopened feet and the stock as counts,
     * so that the pool's order says nothing about where its cards were. */
    memset(unseen, 0, sizeof(unseen));
    for (p = 0; p < NPLAYERS; p++) {
        unknown[p] = 0;
        foot_size[p] = 0;
        if (p != seat) {
            for (c = 0; c < NUM_KINDS; c++) unseen[c] += s->hand[p].count[c] - s->known[p].count[c];
            unknown[p] = s->hand[p].total - s->known[p].total;
            mh_clear_hand(s, p);
            for (c = 0; c < NUM_KINDS; c++) {
                end = s->known[p].count[c];
                for (k = 0; k < end; k++) mh_hand_add(s, p, c);
            }
        }
        if (!s->foot_taken[p]) {
            foot_size[p] = s->foot[p].total;
            for (c = 0; c < NUM_KINDS; c++) unseen[c] += s->foot[p].count[c];
            ms_clear(&s->foot[p]);
        }
    }
    stock_size = s->stock.size;
    for (k = 0; k < stock_size; k++) unseen[s->stock.cards[k]] += 1;
    /* In id order; the red threes apart: they may only land in a foot or the stock. */
    for (c = 0; c < NUM_KINDS; c++) {
        for (k = 0; k < unseen[c]; k++) {
            if (mh_is_red_three(c)) {
                slots[n_red] = (uint8_t)c;
                n_red += 1;
            } else {
                plain[n_plain] = (uint8_t)c;
                n_plain += 1;
            }
        }
    }
    for (p = 0; p < NPLAYERS; p++) n_slots += foot_size[p];
    n_slots += stock_size;
    for (q = n_red; q < n_slots; q++) slots[q] = JOKER + 1;   /* "a plain card goes here" */
    shuffle_u8(rng, slots, n_slots);                   /* the red threes' places, uniformly */
    shuffle_u8(rng, plain, n_plain);
    /* Deal: the unknown hand cards first, then feet and stock slot by slot. */
    for (p = 0; p < NPLAYERS; p++) {
        for (k = 0; k < unknown[p]; k++) {
            mh_hand_add(s, p, plain[next_plain]);
            next_plain += 1;
        }
    }
    q = 0;
    for (p = 0; p < NPLAYERS; p++) {
        for (k = 0; k < foot_size[p]; k++) {
            c = slots[q];
            q += 1;
            if (c > JOKER) {
                c = plain[next_plain];
                next_plain += 1;
            }
            ms_add(&s->foot[p], c);
        }
    }
    for (k = 0; k < stock_size; k++) {
        c = slots[q];
        q += 1;
        if (c > JOKER) {
            c = plain[next_plain];
            next_plain += 1;
        }
        s->stock.cards[k] = (uint8_t)c;
    }
    if (next_plain != n_plain) return -1;              /* cannot happen for a reachable state */
    /* The player to move may have been redealt: its counted cards (MH-4.8) follow its new hand,
     * less the cards of this turn's pile that it still holds uncounted. */
    if (mover >= 0)
        for (k = 0; k < NRK; k++)
            s->credit[k] = s->hand_kind[mover][k] > uncounted[k] ? s->hand_kind[mover][k] - uncounted[k] : 0;
    s->legal_count = -1;
    return 0;
}

/* ================================================================ the framework's hooks */
/* MH-2.1: the first dealer by option or by lot, then the first deal. */
static void mh_start(void *state) {
    MannaData *s = (MannaData *)state;
    s->h.dealer = s->opt.dealer >= 0 ? s->opt.dealer : (int)rng_below(&s->h.rng, NPLAYERS);
    deal(s);
}

static int mh_legal(void *state, int32_t *out, int capacity) {
    MannaData *s = (MannaData *)state;
    int n;
    if (capacity < NUM_ACTIONS) return -1;             /* every id at once still fits */
    n = legal_cached(s);
    memcpy(out, s->legal, n * sizeof(int32_t));
    return n;
}

static void mh_apply(void *state, int action) { apply_action((MannaData *)state, action); }

/* The framework's hand_cards hook: a meld's cards and a pile take's cards from hand are named
 * by count and rank (the header's chosen cards first, then pick_kind's). */
static int mh_hand_cards(const void *state, int action, uint8_t *out) {
    const MannaData *s = (const MannaData *)state;
    int p = s->h.to_move, n;
    if (p < 0) return HAND_CARDS_LACKING;
    if (action >= A_MELD)
        n = meld_cards_of(s, p, action - A_MELD, out);
    else if (A_TAKE_ADD <= action && action <= A_TAKE_JOKER)
        n = take_cards_of(s, p, action, out);
    else
        return HAND_CARDS_NAMED;
    return n < 0 ? HAND_CARDS_LACKING : n;
}

/* MH-10.6: every seat shows its team's cumulative score. */
static void mh_scores(const void *state, int32_t *out) {
    const MannaData *s = (const MannaData *)state;
    int p;
    for (p = 0; p < NPLAYERS; p++) out[p] = s->score[p & 1];
}

/* Higher is better: each seat gets its team's final score. */
static void mh_returns(const void *state, double *out) {
    const MannaData *s = (const MannaData *)state;
    int p;
    for (p = 0; p < NPLAYERS; p++) out[p] = s->score[p & 1];
}

/* ---------------------------------------------------------------- the zones: who sees what (MH-11) */
enum {                      /* the zones, in ZONES order */
    ZN_HAND = 0,            /* each seat's hand: its own (MH-2.2); taken piles are known */
    ZN_FOOT = 1,            /* face down until picked up (MH-2.2, MH-6.1) */
    ZN_STOCK = 2,           /* face down (MH-2.3) */
    ZN_PILE = 3,            /* the discard pile, face up (MH-3.2, MH-5) */
    ZN_MELDS = 4,           /* each team's melds, face up (MH-4) */
    ZN_RED_THREES = 5,      /* each team's red threes, face up (MH-8) */
    NUM_ZONES = 6
};

static const ZoneSpec ZONES[NUM_ZONES] = {
    {"hand", ZONE_SEAT, 0, SEEN_BY_OWNER},
    {"foot", ZONE_SEAT, 0, SEEN_BY_NONE},
    {"stock", ZONE_SHARED, 0, SEEN_BY_NONE},
    {"discard", ZONE_SHARED, 0, SEEN_BY_ALL},
    {"melds", ZONE_TEAM, NTEAMS, SEEN_BY_ALL},
    {"red_threes", ZONE_TEAM, NTEAMS, SEEN_BY_ALL}
};

static int mh_zone_cards(const void *state, int zone, int instance, uint8_t *out) {
    const MannaData *s = (const MannaData *)state;
    int m, i, n = 0;
    if (zone == ZN_HAND) return ms_to_array(&s->hand[instance], out);
    if (zone == ZN_FOOT) return ms_to_array(&s->foot[instance], out);
    if (zone == ZN_STOCK) return pile_copy(&s->stock, out);
    if (zone == ZN_PILE) return pile_copy(&s->pile, out);
    if (zone == ZN_MELDS) {
        for (m = 0; m < s->nmelds[instance]; m++) {
            for (i = 0; i < s->melds[instance][m].size; i++) {
                out[n] = s->melds[instance][m].cards[i];
                n += 1;
            }
        }
        return n;
    }
    for (i = 0; i < s->red3[instance][0]; i++) {
        out[n] = (uint8_t)make_card(DIAMONDS, R_THREE);
        n += 1;
    }
    for (i = 0; i < s->red3[instance][1]; i++) {
        out[n] = (uint8_t)make_card(HEARTS, R_THREE);
        n += 1;
    }
    return n;
}

/* Cards of a hand every seat knows are there: taken piles, retracted melds. */
static int mh_known_cards(const void *state, int zone, int instance, uint8_t *out) {
    const MannaData *s = (const MannaData *)state;
    if (zone == ZN_HAND) return ms_to_array(&s->known[instance], out);
    return 0;
}

/* Random play with this game's hooks called directly (kernel.h, play_loop). */
static long long mh_play(void *s, Rng *chooser, int32_t *scratch, long long max_actions) {
    return play_loop(s, &MH_HOOKS, chooser, scratch, max_actions);
}

/* ================================================================ refusals */
/* Why an id is not legal now: reasons index words.REFUSALS (the texts stay in Python). The
 * meld and take checks' codes W_* (1..16) are the reasons R_CHECK + code, in that order. */
enum {
    R_DRAW_ALWAYS = 0, R_TAKE_NOT_NOW, R_DRAW_FIRST, R_DRAWN, R_NO_PROVISIONAL, R_NOT_HELD,
    R_BELOW_MINIMUM, R_OUT_TYPES, R_OUT_SEVEN, R_OUT_LAST_CARD, R_SEVENS_DISCARD, R_KEEP_ONE,
    R_MELD_NOT_NOW, R_CHECK = R_MELD_NOT_NOW, NUM_REFUSALS = R_CHECK + W_WAY + 1
};

/* The rule each check code cites (index: the code). */
static const char *const CHECK_RULES[W_WAY + 1] = {
    NULL, "MH-4.8", "MH-3.2", "MH-4.4", "MH-4.4", "MH-4.1", "MH-4.6", "MH-4.2", "MH-4.8",
    "MH-4.7", "MH-9.3", "MH-7.2", "MH-5.5", "MH-5", "MH-5.1", "MH-5.2", "MH-5.3"
};

/* A check's code as a refusal; `none` (with its rule) when the check found nothing. */
static int check_refusal(Refusal *out, int code, int none, const char *rule) {
    if (code < W_RETRACTED || code > W_WAY) return refuse0(out, none, rule);
    return refuse0(out, R_CHECK + code, CHECK_RULES[code]);
}

static int mh_refuse(const void *state, int32_t action, Refusal *out) {
    const MannaData *s = (const MannaData *)state;
    int p = s->h.to_move, tm = p & 1, c;
    if (s->h.phase == ST_DRAW) {
        if (action == A_DRAW) return refuse0(out, R_DRAW_ALWAYS, "MH-3.1");
        if (A_TAKE_ADD <= action && action <= A_TAKE_JOKER)
            return check_refusal(out, take_check(s, p, action), R_TAKE_NOT_NOW, "MH-5");
        return refuse0(out, R_DRAW_FIRST, "MH-3.1");
    }
    if (action <= A_TAKE_JOKER) return refuse0(out, R_DRAWN, "MH-3");
    if (action == A_RETRACT) return refuse0(out, R_NO_PROVISIONAL, "MH-4.8");
    if (action < A_MELD) {
        c = action < A_GO_OUT ? action - A_DISCARD : action - A_GO_OUT;
        if (s->hand[p].count[c] == 0) return refuse1(out, R_NOT_HELD, "MH-3.3", c);
        if (!s->opened[tm] && s->turn_points > 0)
            return refuse2(out, R_BELOW_MINIMUM, "MH-4.8", s->turn_points, s->need[tm]);
        if (action >= A_GO_OUT) {
            if (!types_ready(s, s->types[tm], s->canastas[tm][R_SEVEN]))
                return refuse0(out, R_OUT_TYPES, "MH-9.1");
            if (c % 13 == R_SEVEN && c != JOKER) return refuse0(out, R_OUT_SEVEN, "MH-7.2");
            return refuse0(out, R_OUT_LAST_CARD, "MH-9.2");
        }
        if (c % 13 == R_SEVEN && c != JOKER) return refuse0(out, R_SEVENS_DISCARD, "MH-7.1");
        return refuse0(out, R_KEEP_ONE, "MH-9.3");
    }
    return check_refusal(out, meld_check(s, p, action - A_MELD, NULL), R_MELD_NOT_NOW, "MH-4");
}

const GameHooks MH_HOOKS = {
    GAME_HOOKS_HEAD,
    .name = "manna",
    .state_size = sizeof(MannaData),
    .num_actions = NUM_ACTIONS,
    .max_legal = NUM_ACTIONS,
    .start = mh_start,
    .legal = mh_legal,
    .apply = mh_apply,
    .observation_size = mh_observation_size,
    .observe = mh_observe,
    .returns = mh_returns,
    .scores = mh_scores,
    .sample_hidden = mh_sample_hidden,
    .rollout = mh_rollout,
    .zones = ZONES,
    .num_zones = NUM_ZONES,
    .zone_cards = mh_zone_cards,
    .known_cards = mh_known_cards,
    .breakdown = mh_breakdown,
    .greedy = mh_greedy,
    .hand_cards = mh_hand_cards,
    .play = mh_play,
    .refuse = mh_refuse,
    .num_refusals = NUM_REFUSALS
};

/* ================================================================ the game, for the C ABI */
/* The options, as the Python Option table in __init__.py (same names, order, defaults). */
static const char *const MIXED_SEVENS_CHOICES[2] = {"either", "mixed"};
static const char *const FOOT_PENALTY_CHOICES[2] = {"red_threes", "cards"};

static const OptionSpec MH_OPTIONS[MH_NUM_OPTIONS] = {
    /* seat of the first dealer; None draws it by lot */
    {"dealer", OPT_SEAT_OR_LOT, "MH-2.1", OPTION_NONE, 0, 0, 0, NULL, 0, 0},
    /* the match ends after the hand in which a team reaches it */
    {"target", OPT_INT, "MH-10.6", 20000, 1, 1000000, 0, NULL, 0, 0},
    /* the match ends after this many hands at the latest; None: 1000 */
    {"hands", OPT_INT, "MH-10.7", OPTION_NONE, 1, MAX_HANDS, 1, NULL, 0, 0},
    /* melds of sevens may take wild cards */
    {"wild_sevens", OPT_FLAG, "MH-4.6", 0, 0, 0, 0, NULL, 0, 0},
    /* with wild_sevens: a mixed sevens canasta counts as sevens too ('either') or as mixed only */
    {"mixed_sevens", OPT_CHOICE, "MH-4.6", 0, 0, 0, 0, MIXED_SEVENS_CHOICES, 2, 0},
    /* an unopened foot costs its red threes only ('red_threes'), or also its other cards */
    {"foot_penalty", OPT_CHOICE, "MH-10.5", 0, 0, 0, 0, FOOT_PENALTY_CHOICES, 2, 0}
};

/* A zeroed state made a game of 6 seats with the resolved options (GameKernel.init): what
 * MannaState.__init__ does after init_header. 0, or -1 for values it cannot take (the bounds
 * checked are what the struct holds: saved games keep their wider target). */
int mh_init(void *state, int players, const int64_t *values) {
    MannaData *s = (MannaData *)state;
    int64_t dealer = values[MH_OPT_DEALER], hands = values[MH_OPT_HANDS];
    int64_t target = values[MH_OPT_TARGET];
    if (players != NPLAYERS) return -1;
    if (target == OPTION_NONE || target < INT32_MIN || target > INT32_MAX) return -1;
    if (hands != OPTION_NONE && (hands < 1 || hands > MAX_HANDS)) return -1;
    if (dealer != OPTION_NONE && (dealer < 0 || dealer >= NPLAYERS)) return -1;
    if (values[MH_OPT_WILD_SEVENS] != 0 && values[MH_OPT_WILD_SEVENS] != 1) return -1;
    if (values[MH_OPT_MIXED_SEVENS] < 0 || values[MH_OPT_MIXED_SEVENS] > 1) return -1;
    if (values[MH_OPT_FOOT_PENALTY] < 0 || values[MH_OPT_FOOT_PENALTY] > 1) return -1;
    s->h.players = players;
    s->h.to_move = -1;
    s->opt.target = (int32_t)target;
    s->opt.hands = hands == OPTION_NONE ? MAX_HANDS : (int32_t)hands;
    s->opt.dealer = dealer == OPTION_NONE ? -1 : (int32_t)dealer;
    s->opt.wild_sevens = (int)values[MH_OPT_WILD_SEVENS];
    s->opt.foot_penalty = values[MH_OPT_FOOT_PENALTY] == 1 ? FOOT_CARDS : FOOT_RED_THREES;
    s->opt.sevens_either = s->opt.wild_sevens && values[MH_OPT_MIXED_SEVENS] == 0;
    s->h.phase = ST_OVER;
    s->last_out = -1;
    s->legal_count = -1;
    return 0;
}

/* actions.GROUP_NAMES: the meld groups' names (the ranks as cards.RANKS, then wild, black3). */
static const char *const GROUP_NAMES[NGROUPS] = {"A", "2", "3", "4", "5", "6", "7", "8", "9",
                                                 "10", "J", "Q", "K", "wild", "black3"};

/* str(action), actions.describe_action's label: "draw", "take add", "take pair",
 * "take natural+two", "take natural+joker", "retract", "discard 7H", "out 9C", and the melds
 * (actions._meld_label): "meld K K K 2", "add to K: K JK", "meld 2 2 JK", "add to wild: JK",
 * "meld 3 3 3"; -1 (and an empty string) for an id out of range. */
int mh_action_label(const void *state, int action, char *buf, size_t len) {
    static const char *const TAKES[4] = {"take add", "take pair", "take natural+two",
                                         "take natural+joker"};
    const MHMeldDef *d;
    const char *rank;
    Label b = label_start(buf, len);
    int k, first = 1;
    (void)state;
    if (action < 0 || action >= NUM_ACTIONS) {
        label_end(&b);
        return -1;
    }
    if (action == A_DRAW) {
        label_put(&b, "draw");
    } else if (action <= A_TAKE_JOKER) {
        label_put(&b, TAKES[action - A_TAKE_ADD]);
    } else if (action == A_RETRACT) {
        label_put(&b, "retract");
    } else if (action < A_GO_OUT) {
        label_put(&b, "discard ");
        label_card(&b, action - A_DISCARD);
    } else if (action < A_MELD) {
        label_put(&b, "out ");
        label_card(&b, action - A_GO_OUT);
    } else {
        d = &MELDS[action - A_MELD];
        rank = d->group == G_BLACK3 ? "3" : GROUP_NAMES[d->group];
        if (d->is_new) {
            label_put(&b, "meld ");
        } else {
            label_put(&b, "add to ");
            label_put(&b, GROUP_NAMES[d->group]);
            label_put(&b, ": ");
        }
        for (k = 0; k < d->n + d->t + d->j; k++) {
            if (!first) label_char(&b, ' ');
            first = 0;
            label_put(&b, k < d->n ? rank : (k < d->n + d->t ? "2" : "JK"));
        }
    }
    return label_end(&b);
}

/* MH-1.1: the deck's ids in id order, as the Python composition (manna_deck()). */
int mh_composition(const void *state, uint8_t *out) {
    (void)state;
    fill_composition(out);
    return DECK_SIZE;
}

const GameKernel MH_KERNEL = {
    &MH_HOOKS, MH_OPTIONS, MH_NUM_OPTIONS, NPLAYERS, NPLAYERS, NPLAYERS,
    mh_init, mh_action_label, DECK_SIZE, mh_composition
};
