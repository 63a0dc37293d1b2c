/* Kuzanasta's rules kernel (rules: games/kuzanasta.md, rule IDs KZ-x.y): the set detection
 * (KZ-4, KZ-5, KZ-7.1) and the state machine, in C99 over the core (cardcore/core/kernel.h).
 * The Python modules _sets.pyx and _state.pyx wrap it; the native and WebAssembly libraries
 * build the same file. No global changes: every table is const.
 *
 * Action space (the same 2970 ids for every configuration):
 *     0            draw_stock: the top card of your stock pile                    KZ-3.1
 *     1            draw_discard: the top card of your discard pile                KZ-3.1
 *     2            god_look: use the God card's draw (see the stock piles)        KZ-6.2
 *     3..54        god_draw card c (id 3 + c, c = 0..51): take c from a stock     KZ-6.2
 *     55..107      discard card c (id 55 + c, c = 0..52; 52 = the joker, KZ-6.4)  KZ-3.2, KZ-6.4
 *     108..159     god_discard card c (id 108 + c, c = 0..51): new discard pile   KZ-6.3
 *     160          end_turn: keep the hand, do not go out                         KZ-3.3
 *     161          go_out with the engine's best declaration                      KZ-7.1
 *     162..2969    go_out naming two sets: one id per unordered pair of set       KZ-7.1
 *                  descriptors (d1 <= d2, not both of 4 cards), ordered by (d1, d2)
 * Only with the option god_draw="position" (then 3156 ids; the ids above keep their meaning):
 *     2970..3155   god_draw at a place: pile k, depth d from the top (0 = top),   KZ-6.2
 *                  id 2970 + k * 93 + d, taken without looking
 */
#include "cardcore/games/kuzanasta/kernel.h"

/* The kernel's own names for the header's constants (the header's carry the prefix). */
enum {
    MIN_PLAYERS = KZ_MIN_PLAYERS,
    MAX_PLAYERS = KZ_MAX_PLAYERS,
    DECK_SIZE = KZ_DECK_SIZE,
    HAND_SIZE = KZ_HAND_SIZE,
    TURN_UP_INSERT = 46,        /* KZ-2.3: len(R) // 2 with the 92 remaining cards */
    NUM_STOCKS = KZ_NUM_STOCKS,
    FOUR_PLAYER_PILES = 4,      /* KZ-2.6: both piles are used with 4 players */
    GOD_DOUBLING = KZ_GOD_DOUBLING,
    A_DRAW_STOCK = KZ_A_DRAW_STOCK,
    A_DRAW_DISCARD = KZ_A_DRAW_DISCARD,
    A_GOD_LOOK = KZ_A_GOD_LOOK,
    FIRST_GOD_DRAW = KZ_FIRST_GOD_DRAW,
    FIRST_DISCARD = KZ_FIRST_DISCARD,
    FIRST_GOD_DISCARD = KZ_FIRST_GOD_DISCARD,
    A_END_TURN = KZ_A_END_TURN,
    A_GO_OUT = KZ_A_GO_OUT,
    FIRST_NAMED = KZ_FIRST_NAMED,
    NUM_NAMED = KZ_NUM_NAMED,
    NUM_ACTIONS = KZ_NUM_ACTIONS,
    FIRST_GOD_PLACE = KZ_FIRST_GOD_PLACE,
    NUM_PLACE_ACTIONS = KZ_NUM_PLACE_ACTIONS,
    NUM_ALL_ACTIONS = KZ_NUM_ALL_ACTIONS,
    PH_DRAW = KZ_PH_DRAW,
    PH_GOD_DRAW = KZ_PH_GOD_DRAW,
    PH_DISCARD = KZ_PH_DISCARD,
    PH_DECLARE = KZ_PH_DECLARE,
    PH_OVER = KZ_PH_OVER,
    END_NONE = KZ_END_NONE,
    END_OUT = KZ_END_OUT,
    END_NO_DRAW = KZ_END_NO_DRAW,
    END_MAX_TURNS = KZ_END_MAX_TURNS,
    Z_HAND = KZ_Z_HAND,
    Z_DISCARD = KZ_Z_DISCARD,
    Z_STOCK = KZ_Z_STOCK,
    Z_SET_ASIDE = KZ_Z_SET_ASIDE
};

/* Limits: the deck fits the core's piles, a hand's copies its multisets, the places the ids. */
typedef char kz_deck_fits_a_pile[((int)DECK_SIZE <= (int)PILE_CAPACITY && 2 <= MS_MAX_COPIES) ? 1 : -1];
typedef char kz_place_ids_match[(NUM_PLACE_ACTIONS == NUM_STOCKS * DECK_SIZE
                                 && NUM_ALL_ACTIONS == FIRST_GOD_PLACE + NUM_PLACE_ACTIONS) ? 1 : -1];

/* ================================================================ set detection (KZ-4, KZ-5, KZ-7.1)
 *
 * Everything works on the core Multiset with masks and popcounts: a hand of the 93-card
 * Kuzanasta deck holds up to two copies of a card id, so its multiset has at most two
 * non-empty bit-planes and every count below is one or two popcounts.
 *
 * Why the best declaration is always two 3-card sets: every 4-card set contains a 3-card set
 * (drop a wild card, or a natural one if there is no wild card: at least one natural card
 * stays), and the cheapest 3-card row (5000) beats the dearest 4-card row (2000). Shrinking
 * both sets of any valid pair keeps them disjoint, so if a hand holds two sets at all it holds
 * two 3-card sets, and those are worth more (KZ-5.5). kz_best_two therefore searches pairs of
 * 3-card sets only; the brute-force oracle in tests/ checks this over all 3- and 4-card groups. */

/* KZ-5.3, indexed by row (KZ_NOT_A_SET = 0 is worth nothing). */
static const int KZ_ROW_VALUE[KZ_NUM_ROWS] = {0, 20000, 10000, 10000, 5000, 2000, 1500, 1100,
                                              1000, 1000, 500};

enum { KZ_RANK_LANE = 0x1FFF };          /* the 13 rank bits of one suit */

int kz_row_value(int row) {
    if (row < 0 || row >= KZ_NUM_ROWS) return 0;
    return KZ_ROW_VALUE[row];
}

static inline uint64_t kz_wild_mask(int wild_rank) {
    return (0 <= wild_rank && wild_rank < NUM_RANKS) ? rank_mask(wild_rank) : 0;
}

/* KZ-5.3 rows of a 3-card set. */
static inline int kz_three_value(int rank, int natural) {
    if (rank >= R_JACK)
        return KZ_ROW_VALUE[natural ? KZ_ROW_3_NATURAL_FACE : KZ_ROW_3_MIXED_FACE];
    return KZ_ROW_VALUE[natural ? KZ_ROW_3_NATURAL_NUMBER : KZ_ROW_3_MIXED_NUMBER];
}

/* KZ-5.3/5.4: the best row four natural number cards of `rank` drawn from m can make. */
static inline int kz_natural_four_number_row(const Multiset *m, int rank) {
    if (m->count[make_card(HEARTS, rank)] >= 2 && m->count[make_card(DIAMONDS, rank)] >= 2)
        return KZ_ROW_4_RED_PAIRS;
    if (m->count[make_card(CLUBS, rank)] >= 2 && m->count[make_card(SPADES, rank)] >= 2)
        return KZ_ROW_4_BLACK_PAIRS;
    return KZ_ROW_4_NATURAL_NUMBER;
}

/* KZ-5.2..5.4: the table row of a set of `size` (3 or 4) of `rank`, natural or mixed;
 * four natural number cards are scored by their suits, read from `cards`. */
static inline int kz_row(int size, int rank, int natural, const Multiset *cards) {
    if (size == 3) {
        if (rank >= R_JACK) return natural ? KZ_ROW_3_NATURAL_FACE : KZ_ROW_3_MIXED_FACE;
        return natural ? KZ_ROW_3_NATURAL_NUMBER : KZ_ROW_3_MIXED_NUMBER;
    }
    if (rank >= R_JACK) return natural ? KZ_ROW_4_NATURAL_FACE : KZ_ROW_4_MIXED_FACE;
    if (!natural) return KZ_ROW_4_MIXED_NUMBER;
    return kz_natural_four_number_row(cards, rank);
}

/* KZ-5.1..5.4: the table row of a group of cards (0 if it is not a set).
 * The cards that are not of the wild rank must all share one rank r (one bit after folding
 * the four suit lanes of the support together); the wild-rank cards then stand in. A group
 * made only of wild-rank cards is a natural set of the wild rank (KZ-4.2). */
int kz_classify(const Multiset *group, int wild_rank) {
    int total = group->total;
    uint64_t wild, others, lanes;
    int wilds, rank, natural;
    if (total < 3 || total > 4 || group->count[JOKER] > 0)          /* KZ-5.1, KZ-4.3 */
        return KZ_NOT_A_SET;
    wild = kz_wild_mask(wild_rank);
    wilds = wild ? ms_count_mask(group, wild) : 0;
    others = group->plane[0] & ~wild;
    if (wilds == total) {
        rank = wild_rank;
        natural = 1;
    } else {
        lanes = (others | (others >> 13) | (others >> 26) | (others >> 39)) & KZ_RANK_LANE;
        if (lanes & (lanes - 1)) return KZ_NOT_A_SET;                /* two ranks besides the wild one */
        rank = lowest_card(lanes);
        natural = wilds == 0;
    }
    return kz_row(total, rank, natural, group);
}

/* A natural card's rank (c % 13, without a division). */
#define KZ_SUIT_RANKS 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
static const uint8_t RANK_OF[JOKER] = {KZ_SUIT_RANKS, KZ_SUIT_RANKS, KZ_SUIT_RANKS, KZ_SUIT_RANKS};
#undef KZ_SUIT_RANKS

/* counts[r] = cards of rank r (copies included, the joker left out), r = 0..12; returns
 * the set of ranks present (bit r). */
static inline unsigned rank_counts(const Multiset *hand, int *counts) {
    int k, r;
    unsigned present = 0;
    uint64_t x;
    memset(counts, 0, NUM_RANKS * sizeof(int));
    for (k = 0; k < MS_MAX_COPIES; k++) {
        x = hand->plane[k] & ~card_bit(JOKER);
        if (x == 0) break;
        while (x) {
            r = RANK_OF[lowest_card(x)];
            x &= x - 1;
            counts[r] += 1;
            present |= 1u << r;
        }
    }
    return present;
}

/* counts[r] = cards of rank r (copies included, the joker left out), r = 0..12. */
void kz_rank_counts(const Multiset *hand, int *counts) {
    rank_counts(hand, counts);
}

/* KZ-7.1: the highest total of two disjoint sets in the hand; 0 (and d1 = d2 = -1) if
 * there are none. d1 <= d2 receive the descriptors of the two 3-card sets (see above for
 * why 3-card sets suffice). Among equal totals the first found is kept: the same-rank pairs
 * by rank, then the pairs of different ranks by (rank, rank). */
int kz_best_two(const Multiset *hand, int wild_rank, int *d1, int *d2) {
    int n[NUM_RANKS];
    int opt_value[NUM_RANKS + 1];
    int opt_cost[NUM_RANKS + 1];           /* wild cards the option needs */
    int opt_desc[NUM_RANKS + 1];
    int options = 0, r, i = -1, j = -1, v, wilds = 0, t;
    int best = 0, best1 = -1, best2 = -1;
    int has_wild = 0 <= wild_rank && wild_rank < NUM_RANKS;
    unsigned ranks;
    if (hand->total - hand->count[JOKER] < 6) {   /* two sets take six cards, none the joker (KZ-4.3) */
        *d1 = *d2 = -1;
        return 0;
    }
    ranks = rank_counts(hand, n);
    if (has_wild) {
        wilds = n[wild_rank];
        ranks &= ~(1u << wild_rank);
    }
    while (ranks) {                        /* the ranks present, ascending */
        r = lowest_card(ranks);
        ranks &= ranks - 1;
        /* The single cheapest and best 3-card set of rank r: as many naturals as possible. */
        if (n[r] >= 3) {
            opt_value[options] = kz_three_value(r, 1);
            opt_cost[options] = 0;
            opt_desc[options] = kz_desc(r, 3, 0);
            options += 1;
        } else if (3 - n[r] <= wilds) {
            opt_value[options] = kz_three_value(r, 0);
            opt_cost[options] = 3 - n[r];
            opt_desc[options] = kz_desc(r, 3, 3 - n[r]);
            options += 1;
        }
        /* Two sets of the same rank r share its natural cards and the wild cards. */
        v = 0;
        if (n[r] >= 6) {
            v = 2 * kz_three_value(r, 1);
            i = kz_desc(r, 3, 0);
            j = i;
        } else if (n[r] >= 4 && n[r] + wilds >= 6) {
            v = kz_three_value(r, 1) + kz_three_value(r, 0);
            i = kz_desc(r, 3, 0);
            j = kz_desc(r, 3, 6 - n[r]);
        } else if (n[r] >= 2 && n[r] + wilds >= 6) {
            v = 2 * kz_three_value(r, 0);
            i = kz_desc(r, 3, 4 - n[r]);   /* naturals split 1+1 (n = 2) or 2+1 (n = 3) */
            j = kz_desc(r, 3, 2);
        }
        if (v > best) {
            best = v;
            best1 = i;
            best2 = j;
        }
    }
    if (has_wild && wilds >= 3) {          /* KZ-4.2: natural sets of the wild rank */
        opt_value[options] = kz_three_value(wild_rank, 1);
        opt_cost[options] = 3;
        opt_desc[options] = kz_desc(wild_rank, 3, 0);
        options += 1;
        if (wilds >= 6 && 2 * kz_three_value(wild_rank, 1) > best) {
            best = 2 * kz_three_value(wild_rank, 1);
            best1 = best2 = kz_desc(wild_rank, 3, 0);
        }
    }
    for (i = 0; i < options; i++)          /* two sets of different ranks share the wild cards */
        for (j = i + 1; j < options; j++)
            if (opt_cost[i] + opt_cost[j] <= wilds) {
                v = opt_value[i] + opt_value[j];
                if (v > best) {
                    best = v;
                    best1 = opt_desc[i];
                    best2 = opt_desc[j];
                }
            }
    if (best1 > best2) {
        t = best1;
        best1 = best2;
        best2 = t;
    }
    *d1 = best1;
    *d2 = best2;
    return best;
}

/* Cards a descriptor takes: `naturals` of its own rank and `pool` cards of the wild rank.
 * Returns -1 if the descriptor cannot be a set in this deal (wild cards without a wild rank,
 * or wild cards standing in a set of the wild rank itself, KZ-4.2). */
static inline int kz_desc_needs(int d, int wild_rank, int *naturals, int *pool) {
    int r = kz_desc_rank(d), s = kz_desc_size(d), m = kz_desc_wilds(d);
    if (m > 0 && (wild_rank < 0 || r == wild_rank)) return -1;
    if (r == wild_rank) {
        *naturals = 0;
        *pool = s;
    } else {
        *naturals = s - m;
        *pool = m;
    }
    return 0;
}

/* The row of a realisable descriptor; for four natural number cards the best suits the
 * hand offers (the other set of a declaration never cares about suits). */
static inline int kz_desc_row(const Multiset *hand, int wild_rank, int d) {
    (void)wild_rank;
    return kz_row(kz_desc_size(d), kz_desc_rank(d), kz_desc_wilds(d) == 0, hand);
}

/* Value of one set named by descriptor d if the hand can show it, else -1. */
int kz_descriptor_value(const Multiset *hand, int wild_rank, int d) {
    int naturals, pool, r;
    if (d < 0 || d >= KZ_NUM_DESCRIPTORS || kz_desc_needs(d, wild_rank, &naturals, &pool) < 0)
        return -1;
    r = kz_desc_rank(d);
    if (ms_count_rank(hand, r) < naturals) return -1;
    if (pool && ms_count_rank(hand, wild_rank) < pool) return -1;
    return KZ_ROW_VALUE[kz_desc_row(hand, wild_rank, d)];
}

/* KZ-7.1: total value of two disjoint sets named by descriptors, or -1 if the hand cannot
 * show both at once. Two 4-card sets (8 cards) are never a declaration: -1. */
int kz_declaration_value(const Multiset *hand, int wild_rank, int d1, int d2) {
    int nat1, pool1, nat2, pool2, r1, r2;
    if (d1 < 0 || d1 >= KZ_NUM_DESCRIPTORS || d2 < 0 || d2 >= KZ_NUM_DESCRIPTORS) return -1;
    if (kz_desc_size(d1) == 4 && kz_desc_size(d2) == 4) return -1;
    if (kz_desc_needs(d1, wild_rank, &nat1, &pool1) < 0
        || kz_desc_needs(d2, wild_rank, &nat2, &pool2) < 0)
        return -1;
    r1 = kz_desc_rank(d1);
    r2 = kz_desc_rank(d2);
    if (r1 == r2) {
        if (ms_count_rank(hand, r1) < nat1 + nat2) return -1;
    } else if (ms_count_rank(hand, r1) < nat1 || ms_count_rank(hand, r2) < nat2) {
        return -1;
    }
    if (pool1 + pool2 && ms_count_rank(hand, wild_rank) < pool1 + pool2) return -1;
    return KZ_ROW_VALUE[kz_desc_row(hand, wild_rank, d1)]
           + KZ_ROW_VALUE[kz_desc_row(hand, wild_rank, d2)];
}

/* KZ-7.1 with sets="three_and_four": the highest total of a 3-card set and a disjoint
 * 4-card set in the hand (with a 7-card hand: all seven cards), suits chosen as
 * kz_declaration_value does; 0 (and d1 = d2 = -1) if there is none. d1 <= d2 as
 * descriptors; among equal totals the first pair in (d1, d2) order is kept. */
int kz_best_three_four(const Multiset *hand, int wild_rank, int *d1, int *d2) {
    int cand[KZ_NUM_DESCRIPTORS];
    int n[NUM_RANKS];
    int k = 0, r, i, j, v, best = 0, best1 = -1, best2 = -1, wilds = 0;
    kz_rank_counts(hand, n);
    if (0 <= wild_rank && wild_rank < NUM_RANKS) wilds = n[wild_rank];
    for (r = 0; r < NUM_RANKS; r++) {
        /* Only ranks that can make a set at all (most hands have none or one): the playout
         * calls this after every discard with going_out="immediate". */
        if (n[r] == 0 || (r != wild_rank ? n[r] + wilds < 3 : n[r] < 3)) continue;
        for (i = r * KZ_NUM_SHAPES; i < (r + 1) * KZ_NUM_SHAPES; i++)
            if (kz_descriptor_value(hand, wild_rank, i) >= 0) {
                cand[k] = i;
                k += 1;
            }
    }
    for (i = 0; i < k; i++)
        for (j = i + 1; j < k; j++) {
            if (kz_desc_size(cand[i]) + kz_desc_size(cand[j]) != 7) continue;
            v = kz_declaration_value(hand, wild_rank, cand[i], cand[j]);
            if (v > best) {
                best = v;
                best1 = cand[i];
                best2 = cand[j];
            }
        }
    *d1 = best1;
    *d2 = best2;
    return best;
}

/* ================================================================ the named declarations (KZ-7.1)
 * One id per unordered pair of descriptors (d1 <= d2), not both of 4 cards, ordered by
 * (d1, d2). PAIR_START[d] is the id of the first pair whose smaller descriptor is d (the
 * counts of the pairs before: 91 - d after a 3-card descriptor d, the 3-card descriptors
 * above it after a 4-card one); PAIR_START[91] ends the table. */
static const int16_t PAIR_START[KZ_NUM_DESCRIPTORS + 1] = {
     162,  253,  343,  432,  468,  504,  540,
     576,  660,  743,  825,  858,  891,  924,
     957, 1034, 1110, 1185, 1215, 1245, 1275,
    1305, 1375, 1444, 1512, 1539, 1566, 1593,
    1620, 1683, 1745, 1806, 1830, 1854, 1878,
    1902, 1958, 2013, 2067, 2088, 2109, 2130,
    2151, 2200, 2248, 2295, 2313, 2331, 2349,
    2367, 2409, 2450, 2490, 2505, 2520, 2535,
    2550, 2585, 2619, 2652, 2664, 2676, 2688,
    2700, 2728, 2755, 2781, 2790, 2799, 2808,
    2817, 2838, 2858, 2877, 2883, 2889, 2895,
    2901, 2915, 2928, 2940, 2943, 2946, 2949,
    2952, 2959, 2965, 2970, 2970, 2970, 2970,
    2970
};

/* The 3-card descriptors below d (3 in each rank's block of 7). */
static inline int three_card_below(int d) {
    int shape = d % KZ_NUM_SHAPES;
    return (d / KZ_NUM_SHAPES) * 3 + (shape < 3 ? shape : 3);
}

/* The action id naming sets d1 and d2 (either order); -1 if there is none. */
int kz_pair_id(int d1, int d2) {
    int t;
    if (d1 < 0 || d1 >= KZ_NUM_DESCRIPTORS || d2 < 0 || d2 >= KZ_NUM_DESCRIPTORS) return -1;
    if (d1 > d2) {
        t = d1;
        d1 = d2;
        d2 = t;
    }
    if (kz_desc_size(d1) == 3) return PAIR_START[d1] + (d2 - d1);
    if (kz_desc_size(d2) == 4) return -1;     /* 8 cards: a 7-card hand never shows two 4-card sets */
    return PAIR_START[d1] + three_card_below(d2) - three_card_below(d1);
}

/* The two descriptors (d1 <= d2) of named declaration `index` (0..KZ_NUM_NAMED-1). */
void kz_named_pair(int index, int *d1, int *d2) {
    int id = FIRST_NAMED + index, lo = 0, hi = KZ_NUM_DESCRIPTORS - 1, mid, d, k;
    while (lo < hi) {                          /* the last d with PAIR_START[d] <= id */
        mid = (lo + hi + 1) / 2;
        if (PAIR_START[mid] <= id) lo = mid;
        else hi = mid - 1;
    }
    d = lo;
    k = id - PAIR_START[d];
    *d1 = d;
    if (kz_desc_size(d) == 3) {
        *d2 = d + k;
    } else {                                   /* the k-th 3-card descriptor above d */
        k += three_card_below(d);
        *d2 = (k / 3) * KZ_NUM_SHAPES + k % 3;
    }
}

/* ================================================================ the deal plan (KZ-2.3..2.7) */
/* The one description of the deal layout: the C deal, deal_plan and through it the
 * wrapper's hidden positions and the tests' stacked decks all come from here.
 *
 * R is the deck after KZ-2.3 (the turn-up, deck position 0, reinserted at index 46 of the
 * other 92): R[i] is deck position i + 1 below 46, 0 at 46, i above. R[:7n] is dealt one card
 * at a time from the first player (KZ-2.4); the rest splits into pile 0 = the first
 * ceil(len / 2) cards and pile 1 (KZ-2.5); each pile's top card starts its discard pile when
 * the pile is in play (KZ-2.7), and pile 1 is set aside with 2-3 players (KZ-2.6). */
void kz_make_deal_plan(int players, int first, KZDealPlan *plan) {
    int top = HAND_SIZE * players;
    int size0 = (DECK_SIZE - top + 1) / 2;
    int i, pos, k, pile;
    plan->stock_size[0] = size0 - 1;
    plan->stock_size[1] = players == FOUR_PLAYER_PILES ? DECK_SIZE - top - size0 - 1 : 0;
    for (i = 0; i < DECK_SIZE; i++) {
        pos = i < TURN_UP_INSERT ? i + 1 : (i == TURN_UP_INSERT ? 0 : i);
        plan->depth[pos] = 0;
        if (i < top) {
            plan->zone[pos] = Z_HAND;
            plan->which[pos] = (uint8_t)((first + i) % players);
            continue;
        }
        pile = i < top + size0 ? 0 : 1;
        k = i - top - (pile == 0 ? 0 : size0);      /* place in the pile before KZ-2.7 */
        plan->which[pos] = (uint8_t)pile;
        if (pile == 1 && players != FOUR_PLAYER_PILES) {
            plan->zone[pos] = Z_SET_ASIDE;
            plan->which[pos] = 0;
        } else if (k == 0) {
            plan->zone[pos] = Z_DISCARD;
        } else {
            plan->zone[pos] = Z_STOCK;
            plan->depth[pos] = (uint8_t)(k - 1);
        }
    }
}

/* ================================================================ small rules helpers */
static void begin_turn(KZState *s, int p);
static void end_deal(KZState *s, int how, int winner, int d1, int d2);

/* KZ-7.1: the best declaration the option `sets` allows (0 if none): two sets of any
 * sizes, or a 3-card and a 4-card set (all seven cards of a 7-card hand). */
static inline int best_declaration(const KZState *s, const Multiset *hand, int *d1, int *d2) {
    if (s->opt.three_four) return kz_best_three_four(hand, s->wild, d1, d2);
    return kz_best_two(hand, s->wild, d1, d2);
}

int kz_best_declaration(const KZState *s, const Multiset *hand, int *d1, int *d2) {
    return best_declaration(s, hand, d1, d2);
}

/* KZ-1.4: A-5 = 5, 6-10 = 10, J-K = 50, the joker 0. */
static inline int card_points(int card) {
    int r;
    if (card == JOKER) return 0;
    r = card_rank(card);
    if (r <= 4) return 5;
    if (r <= 9) return 10;
    return 50;
}

int kz_card_points(int card) { return card_points(card); }

/* ================================================================ the deal (KZ-2) */
/* Lay the deck (stacked on the first deal, else shuffled) out by the deal plan. */
static void kz_deal(KZState *s) {
    uint8_t order[DECK_SIZE];
    KZDealPlan plan;
    int i, p, n = s->h.players, pile, card;
    Pile *stock;
    deal_prologue(&s->h, s->deck, DECK_SIZE, order);
    /* KZ-2.3: the turn-up (deck position 0) names the wild rank. */
    s->turn_up = order[0];
    s->wild = order[0] == JOKER ? KZ_NO_WILD : card_rank(order[0]);
    for (p = 0; p < MAX_PLAYERS; p++) {
        ms_clear(&s->hand[p]);
        ms_clear(&s->known[p]);
    }
    ms_clear(&s->dead);
    ms_clear(&s->dead_seen);
    ms_clear(&s->dead_up);
    memset(s->stock_seen, 0, sizeof(s->stock_seen));
    s->look_seat = -1;
    s->first = (s->h.dealer + 1) % n;                               /* KZ-2.2 */
    kz_make_deal_plan(n, s->first, &plan);                          /* KZ-2.3..2.7 */
    for (pile = 0; pile < NUM_STOCKS; pile++) {
        s->stock[pile].size = plan.stock_size[pile];
        s->discard[pile].size = 0;
    }
    for (i = 0; i < DECK_SIZE; i++) {
        card = order[i];
        if (plan.zone[i] == Z_HAND) {
            ms_add(&s->hand[plan.which[i]], card);
        } else if (plan.zone[i] == Z_DISCARD) {
            pile_push(&s->discard[plan.which[i]], card);
        } else if (plan.zone[i] == Z_STOCK) {                       /* cards[] is bottom -> top */
            stock = &s->stock[plan.which[i]];
            stock->cards[stock->size - 1 - plan.depth[i]] = (uint8_t)card;
        } else {
            ms_add(&s->dead, card);
        }
    }
    /* Everybody saw the turn-up (position 0): its place is public knowledge. */
    if (plan.zone[0] == Z_HAND)
        ms_add(&s->known[plan.which[0]], order[0]);
    else if (plan.zone[0] == Z_STOCK)
        s->stock_seen[plan.which[0]][s->stock[plan.which[0]].size - 1 - plan.depth[0]] = 1;
    else if (plan.zone[0] == Z_SET_ASIDE)
        ms_add(&s->dead_seen, order[0]);
    if (n == FOUR_PLAYER_PILES) {                                   /* KZ-2.6 */
        s->piles_in_play = 2;
        for (i = 0; i < n; i++) {
            p = (s->first + i) % n;
            if (s->opt.adjacent_piles)
                s->pile_of[p] = i < 2 ? 0 : 1;
            else
                s->pile_of[p] = i % 2;
        }
    } else {
        s->piles_in_play = 1;
        for (p = 0; p < n; p++) s->pile_of[p] = 0;
    }
    for (p = 0; p < n; p++) {                                       /* KZ-7.6 */
        s->chips[p] -= s->opt.ante;
        s->pot += s->opt.ante;
    }
    s->turns_in_deal = 0;
    s->god_public = -1;
    begin_turn(s, s->first);
}

/* KZ-2.1: the first dealer by option or by lot, then the first deal. */
static void kz_start(void *state) {
    KZState *s = (KZState *)state;
    if (s->opt.dealer >= 0)
        s->h.dealer = s->opt.dealer;
    else
        s->h.dealer = (int32_t)rng_below(&s->h.rng, (uint32_t)s->h.players);
    kz_deal(s);
}

/* ================================================================ turn flow */
static inline int stocks_in_play(const KZState *s) {
    int pile, n = 0;
    for (pile = 0; pile < s->piles_in_play; pile++) n += s->stock[pile].size;
    return n;
}

static inline int can_draw(const KZState *s, int p) {
    int pile = s->pile_of[p];
    if (s->stock[pile].size > 0 || s->discard[pile].size > 0) return 1;
    return s->hand[p].count[JOKER] > 0 && stocks_in_play(s) > 0;
}

/* KZ-3.4: refill an empty stock from its discard pile; a player who can draw nothing
 * ends the deal void. */
static void begin_turn(KZState *s, int p) {
    int pile = s->pile_of[p];
    Pile *stock = &s->stock[pile];
    Pile *discard = &s->discard[pile];
    int keep, i;
    s->h.to_move = p;
    s->h.phase = PH_DRAW;
    if (stock->size == 0 && discard->size > 1) {
        s->look_seat = -1;                   /* the stocks take new cards: a past look is stale */
        keep = pile_pop(discard);
        /* Turning the face-up pile over: its top card (the last one pushed) becomes the
         * bottom of the stock, so the old bottom card is the new top. Everybody saw the pile,
         * so its order stays public, unless it is shuffled. */
        i = discard->size - 1;
        while (i >= 0) {
            s->stock_seen[pile][stock->size] = s->opt.reshuffle ? 0 : 1;
            pile_push(stock, discard->cards[i]);
            i -= 1;
        }
        discard->size = 0;
        if (s->opt.reshuffle) shuffle_u8(&s->h.rng, stock->cards, stock->size);
        pile_push(discard, keep);
    }
    if (!can_draw(s, p)) end_deal(s, END_NO_DRAW, -1, -1, -1);
}

static void end_turn(KZState *s, int p) {
    s->h.turns += 1;
    s->turns_in_deal += 1;
    if (s->turns_in_deal >= s->opt.max_turns) {                     /* KZ-3.5 */
        end_deal(s, END_MAX_TURNS, -1, -1, -1);
        return;
    }
    begin_turn(s, (p + 1) % s->h.players);                          /* KZ-2.2 */
}

/* ================================================================ legality (one function per phase) */
static int legal_draw(const KZState *s, int32_t *out) {
    int p = s->h.to_move, pile = s->pile_of[p], n = 0, k, d;
    if (s->stock[pile].size > 0) out[n++] = A_DRAW_STOCK;            /* KZ-3.1 */
    if (s->discard[pile].size > 0) out[n++] = A_DRAW_DISCARD;
    if (s->hand[p].count[JOKER] > 0 && stocks_in_play(s) > 0) {     /* KZ-6.2 */
        if (!s->opt.god_place) {
            out[n++] = A_GOD_LOOK;
        } else {                             /* every place of every stock pile in play */
            for (k = 0; k < s->piles_in_play; k++)
                for (d = 0; d < s->stock[k].size; d++)
                    out[n++] = FIRST_GOD_PLACE + k * DECK_SIZE + d;
        }
    }
    return n;
}

/* The distinct cards in the stock piles in play (KZ-6.2). */
static uint64_t stock_cards(const KZState *s) {
    uint64_t m = 0;
    int pile, i;
    for (pile = 0; pile < s->piles_in_play; pile++)
        for (i = 0; i < s->stock[pile].size; i++) m |= card_bit(s->stock[pile].cards[i]);
    return m;
}

static int legal_god_draw(const KZState *s, int32_t *out) {
    uint64_t m = stock_cards(s) & ~card_bit(JOKER);
    int n = 0;
    while (m) {
        out[n] = FIRST_GOD_DRAW + lowest_card(m);
        m &= m - 1;
        n += 1;
    }
    return n;
}

static int legal_discard(const KZState *s, int32_t *out) {
    int p = s->h.to_move, n = 0;
    const Multiset *hand = &s->hand[p];
    uint64_t m = hand->plane[0];
    int god = hand->count[JOKER] > 0;
    while (m) {                                                     /* KZ-3.2, KZ-6.4 */
        out[n] = FIRST_DISCARD + lowest_card(m);
        m &= m - 1;
        n += 1;
    }
    /* KZ-6.3: only when there is a pile to end (otherwise it is a plain discard). */
    if (god && s->discard[s->pile_of[p]].size > 0) {
        m = hand->plane[0] & ~card_bit(JOKER);
        while (m) {
            out[n] = FIRST_GOD_DISCARD + lowest_card(m);
            m &= m - 1;
            n += 1;
        }
    }
    return n;
}

/* KZ-3.3, KZ-7.1: end the turn; with two sets also go out (best or named sets). */
static int legal_declare(const KZState *s, int32_t *out) {
    const Multiset *hand = &s->hand[s->h.to_move];
    int w = s->wild, n = 1, k = 0, i, j, r, d1, d2, id;
    int cand[KZ_NUM_DESCRIPTORS];
    out[0] = A_END_TURN;
    if (best_declaration(s, hand, &d1, &d2) == 0) return n;
    out[n] = A_GO_OUT;
    n += 1;
    /* The descriptors the hand can show alone, ascending, then every compatible pair:
     * ids grow with (d1, d2), the order of this double loop. */
    for (r = 0; r < NUM_RANKS; r++) {
        if (ms_count_rank(hand, r) == 0) continue;
        for (i = r * KZ_NUM_SHAPES; i < (r + 1) * KZ_NUM_SHAPES; i++)
            if (kz_descriptor_value(hand, w, i) >= 0) {
                cand[k] = i;
                k += 1;
            }
    }
    for (i = 0; i < k; i++)
        for (j = i; j < k; j++) {
            if (s->opt.three_four && kz_desc_size(cand[i]) + kz_desc_size(cand[j]) != HAND_SIZE)
                continue;                    /* KZ-7.1: a 3-card and a 4-card set */
            id = kz_pair_id(cand[i], cand[j]);
            if (id >= 0 && kz_declaration_value(hand, w, cand[i], cand[j]) >= 0) {
                out[n] = id;
                n += 1;
            }
        }
    return n;
}

static int kz_legal(void *state, int32_t *out, int capacity) {
    KZState *s = (KZState *)state;
    if (capacity < NUM_ALL_ACTIONS) return -1;   /* every id at once still fits */
    if (s->h.phase == PH_DRAW) return legal_draw(s, out);
    if (s->h.phase == PH_GOD_DRAW) return legal_god_draw(s, out);
    if (s->h.phase == PH_DISCARD) return legal_discard(s, out);
    if (s->h.phase == PH_DECLARE) return legal_declare(s, out);
    return 0;
}

/* ================================================================ applying */
/* Everybody now knows that p holds the joker (KZ-8). */
static inline void reveal_god(KZState *s, int p) {
    s->god_public = p;
    if (s->known[p].count[JOKER] == 0) ms_add(&s->known[p], JOKER);
}

/* p's card left the hand face up: if everybody knew p held a copy, that copy went (of two
 * equal copies either may be thought to go; the hands that result are the same). */
static inline void forget_known(KZState *s, int p, int card) {
    if (s->known[p].count[card] > 0) ms_remove(&s->known[p], card);
}

/* KZ-6.2 Decision: the card comes from the player's own stock pile if it is there,
 * else from the other pile in play; the copy nearest the top of that pile. */
static void god_take(KZState *s, int p, int card) {
    int pile = s->pile_of[p], k, i, other;
    Pile *stock;
    for (k = 0; k < s->piles_in_play; k++) {
        other = (pile + k) % s->piles_in_play;
        stock = &s->stock[other];
        i = stock->size - 1;
        while (i >= 0) {
            if (stock->cards[i] == card) {
                while (i < stock->size - 1) {
                    stock->cards[i] = stock->cards[i + 1];
                    i += 1;
                }
                stock->size -= 1;
                ms_add(&s->hand[p], card);
                /* The others do not see which card left the pile, so the places they knew in
                 * it are no longer certain: forgotten (games/kuzanasta.md, "Hidden cards"). */
                memset(s->stock_seen[other], 0, sizeof(s->stock_seen[other]));
                return;
            }
            i -= 1;
        }
    }
}

/* KZ-6.2 with god_draw="position": take the card at `depth` (0 = top) of stock `pile`
 * without looking. Everybody sees the place, so a card whose place everybody knew (the
 * turn-up's, KZ-2.3) is known to be in the hand, and the other known places stay known. */
static void god_take_place(KZState *s, int p, int pile, int depth) {
    Pile *stock = &s->stock[pile];
    int i = stock->size - 1 - depth;
    int card = stock->cards[i];
    if (s->stock_seen[pile][i]) ms_add(&s->known[p], card);
    while (i < stock->size - 1) {
        stock->cards[i] = stock->cards[i + 1];
        s->stock_seen[pile][i] = s->stock_seen[pile][i + 1];
        i += 1;
    }
    s->stock_seen[pile][stock->size - 1] = 0;
    stock->size -= 1;
    ms_add(&s->hand[p], card);
    reveal_god(s, p);                         /* the draw shows who holds the joker */
    if (p == s->look_seat)
        s->look_gone |= card_bit(card);
    else
        s->look_seat = -1;
}

/* KZ-6.3, KZ-6.4: the discard pile leaves play (dead for the rest of the deal, KZ-6.6). */
static void kill_discard_pile(KZState *s, int pile) {
    Pile *discard = &s->discard[pile];
    int card;
    while (discard->size > 0) {
        card = pile_pop(discard);
        ms_add(&s->dead, card);
        ms_add(&s->dead_seen, card);
        ms_add(&s->dead_up, card);
    }
}

static void go_out(KZState *s, int p, int d1, int d2) {
    s->h.turns += 1;
    end_deal(s, END_OUT, p, d1, d2);
}

/* KZ-3.3: every turn ends with the declare step, whether or not the hand holds two
 * sets, so that the public phase and history say nothing about the hand (KZ-8). With
 * going_out="immediate" there is no such step: a hand holding two sets goes out at once with
 * the best declaration, any other ends the turn. */
static inline void after_discard(KZState *s, int p) {
    int d1, d2;
    if (!s->opt.immediate)
        s->h.phase = PH_DECLARE;
    else if (best_declaration(s, &s->hand[p], &d1, &d2) > 0)
        go_out(s, p, d1, d2);
    else
        end_turn(s, p);
}

static void kz_apply(void *state, int action) {
    KZState *s = (KZState *)state;
    int p = s->h.to_move, pile = s->pile_of[p], card;
    int d1, d2;
    Multiset *hand = &s->hand[p];
    Pile *stock = &s->stock[pile];
    if (action >= FIRST_GOD_PLACE) {                                /* KZ-6.2, god_draw="position" */
        god_take_place(s, p, (action - FIRST_GOD_PLACE) / DECK_SIZE,
                       (action - FIRST_GOD_PLACE) % DECK_SIZE);
        s->h.phase = PH_DISCARD;
    } else if (action == A_DRAW_STOCK) {                            /* KZ-3.1 */
        card = stock->cards[stock->size - 1];
        if (s->stock_seen[pile][stock->size - 1]) {                 /* a card everybody knows */
            s->stock_seen[pile][stock->size - 1] = 0;
            ms_add(&s->known[p], card);
        }
        if (p == s->look_seat)
            s->look_gone |= card_bit(card);
        else
            s->look_seat = -1;               /* a card left the stocks unseen by the looker */
        ms_add(hand, pile_pop(stock));
        s->h.phase = PH_DISCARD;
    } else if (action == A_DRAW_DISCARD) {
        card = pile_pop(&s->discard[pile]);
        ms_add(hand, card);
        ms_add(&s->known[p], card);                                 /* taken face up */
        if (card == JOKER) s->god_public = p;
        s->h.phase = PH_DISCARD;
    } else if (action == A_GOD_LOOK) {                              /* KZ-6.2 */
        reveal_god(s, p);
        s->look_seat = p;
        s->look_shown = stock_cards(s);
        s->look_gone = 0;
        s->h.phase = PH_GOD_DRAW;
    } else if (action < FIRST_DISCARD) {
        god_take(s, p, action - FIRST_GOD_DRAW);
        s->look_gone |= card_bit(action - FIRST_GOD_DRAW);         /* p is the looker */
        s->h.phase = PH_DISCARD;
    } else if (action < FIRST_GOD_DISCARD) {
        card = action - FIRST_DISCARD;
        ms_remove(hand, card);
        forget_known(s, p, card);
        if (card == JOKER) {                                        /* KZ-6.4 */
            kill_discard_pile(s, pile);
            ms_add(&s->dead, JOKER);
            ms_add(&s->dead_seen, JOKER);
            ms_add(&s->dead_up, JOKER);
            s->god_public = -1;
        } else {                                                    /* KZ-3.2 */
            pile_push(&s->discard[pile], card);
        }
        after_discard(s, p);
    } else if (action < A_END_TURN) {                               /* KZ-6.3 */
        card = action - FIRST_GOD_DISCARD;
        ms_remove(hand, card);
        forget_known(s, p, card);
        kill_discard_pile(s, pile);
        pile_push(&s->discard[pile], card);
        reveal_god(s, p);
        after_discard(s, p);
    } else if (action == A_END_TURN) {
        end_turn(s, p);
    } else if (action == A_GO_OUT) {                                /* KZ-7.1 */
        best_declaration(s, hand, &d1, &d2);
        go_out(s, p, d1, d2);
    } else {
        kz_named_pair(action - FIRST_NAMED, &d1, &d2);
        go_out(s, p, d1, d2);
    }
}

/* KZ-7.5: after N scored deals with `deals`, else once someone reaches the target. */
static int match_finished(const KZState *s) {
    int p;
    if (s->opt.deals > 0) return s->deals_scored >= s->opt.deals;
    for (p = 0; p < s->h.players; p++)
        if (s->score[p] >= s->opt.target) return 1;
    return 0;
}

/* KZ-7.2..7.6 scoring of a deal someone went out of; a void deal scores nothing and
 * its pot carries over. Then the next deal, or the end of the match (KZ-7.5). */
static void end_deal(KZState *s, int how, int winner, int d1, int d2) {
    int q, c, k;
    int64_t points = 0, total;
    Multiset *hand;
    s->last_end = how;
    s->last_winner = winner;
    s->last_wild = s->wild;
    s->h.round_index += 1;
    if (how == END_OUT) {
        hand = &s->hand[winner];
        s->last_d1 = d1;
        s->last_d2 = d2;
        s->last_v1 = kz_descriptor_value(hand, s->wild, d1);
        s->last_v2 = kz_descriptor_value(hand, s->wild, d2);
        /* The pair's value, suits chosen together (equal to v1 + v2 for a legal pair). */
        total = kz_declaration_value(hand, s->wild, d1, d2);
        for (q = 0; q < s->h.players; q++) {                        /* KZ-7.2 */
            if (q == winner) continue;
            for (c = 0; c < NUM_KINDS; c++) points += (int64_t)card_points(c) * s->hand[q].count[c];
        }
        s->last_turn_up_doubled = s->wild == KZ_NO_WILD;
        if (s->last_turn_up_doubled) points *= GOD_DOUBLING;
        s->last_hand_points = points;
        total += points;
        s->last_god_doubled = hand->count[JOKER] > 0;
        if (s->last_god_doubled) {                                  /* KZ-7.3 */
            total *= GOD_DOUBLING;
            for (q = 0; q < s->h.players; q++)                      /* KZ-7.6: the pot doubles */
                if (q != winner) {
                    s->chips[q] -= s->opt.ante;
                    s->pot += s->opt.ante;
                }
        }
        s->last_total = total;
        s->score[winner] += total;                                  /* KZ-7.4 */
        s->chips[winner] += s->pot;
        s->last_pot = s->pot;
        s->pot = 0;
        k = 0;
        for (c = 0; c < NUM_KINDS; c++)
            for (q = 0; q < hand->count[c]; q++)
                if (k < HAND_SIZE + 1) {
                    s->last_hand[k] = (uint8_t)c;
                    k += 1;
                }
        s->last_hand_size = k;
        s->deals_scored += 1;
        if (match_finished(s)) {
            s->h.phase = PH_OVER;
            s->h.to_move = -1;
            return;
        }
    } else {
        s->last_d1 = -1;
        s->last_d2 = -1;
        s->last_total = 0;
        s->last_hand_points = 0;
        s->last_pot = 0;
        s->last_hand_size = 0;
    }
    if (how != END_OUT && s->h.round_index - s->deals_scored >= KZ_MAX_VOID_DEALS) {   /* KZ-7.8 */
        s->h.phase = PH_OVER;
        s->h.to_move = -1;
        return;
    }
    s->h.dealer = (s->h.dealer + 1) % s->h.players;                 /* KZ-2.1 */
    kz_deal(s);
}

/* ================================================================ results */
/* KZ-7.4, KZ-7.5: each seat's match score (the highest wins, ties share). */
static void kz_returns(const void *state, double *out) {
    const KZState *s = (const KZState *)state;
    int p;
    for (p = 0; p < s->h.players; p++) out[p] = (double)s->score[p];
}

/* KZ-7.4 match scores, as the view shows them (held as int64: the hook's int32 saturates,
 * far beyond any reachable score). */
static void kz_scores(const void *state, int32_t *out) {
    const KZState *s = (const KZState *)state;
    int p;
    for (p = 0; p < s->h.players; p++)
        out[p] = (int32_t)(s->score[p] < 2147483647 ? s->score[p] : 2147483647);
}

/* ================================================================ the per-seat projection
 * The observation: exactly what view(seat) shows (KZ-8), as floats. Seats are absolute and
 * padded to 4, piles padded to 2; "counts" are copies per card id 0..52. The offsets are
 * kernel.h's KZ_O_*, named by the wrapper's OBSERVATION_PIECES (games/kuzanasta.md). */
static int kz_observation_size(const void *state) {
    (void)state;
    return KZ_OBSERVATION_SIZE;
}

static inline int wild_index(int wild) { return wild == KZ_NO_WILD ? NUM_RANKS : wild; }

/* What `seat` sees (KZ-8) except its legal actions (left to the legal-action mask; they
 * include the cards a God look shows, KZ-6.2): its own hand, the public table, the sizes of
 * the hidden zones, the scores and the last deal. */
static void kz_observe(const void *state, int seat, float *out) {
    const KZState *s = (const KZState *)state;
    int p, c, k, i, d1, d2, value;
    const Pile *pile;
    memset(out, 0, KZ_OBSERVATION_SIZE * sizeof(float));
    out[KZ_O_OBSERVER + seat] = 1.0;
    if (s->h.to_move >= 0) out[KZ_O_TO_MOVE + s->h.to_move] = 1.0;
    out[KZ_O_PHASE + s->h.phase] = 1.0;
    for (c = 0; c < NUM_KINDS; c++) out[KZ_O_HAND + c] = s->hand[seat].count[c];
    for (p = 0; p < s->h.players; p++) {
        out[KZ_O_HAND_SIZES + p] = (float)s->hand[p].total;
        out[KZ_O_SCORES + p] = (float)s->score[p];
        out[KZ_O_PILE_OF + p * NUM_STOCKS + s->pile_of[p]] = 1.0;
        out[KZ_O_CHIPS + p] = (float)s->chips[p];
    }
    out[KZ_O_WILD + wild_index(s->wild)] = 1.0;
    out[KZ_O_TURN_UP + s->turn_up] = 1.0;
    for (k = 0; k < s->piles_in_play; k++) {
        pile = &s->discard[k];
        for (i = 0; i < pile->size; i++) {
            out[KZ_O_DISCARD_COUNTS + k * NUM_KINDS + pile->cards[i]] += 1.0;
            out[KZ_O_DISCARD_ORDER + k * DECK_SIZE + i] = (float)(pile->cards[i] + 1);
        }
        if (pile->size > 0) out[KZ_O_DISCARD_TOP + k * NUM_KINDS + pile->cards[pile->size - 1]] = 1.0;
        out[KZ_O_STOCK_SIZES + k] = (float)s->stock[k].size;
    }
    out[KZ_O_PILES_IN_PLAY] = (float)s->piles_in_play;
    out[KZ_O_MY_PILE + s->pile_of[seat]] = 1.0;
    out[KZ_O_DEALER + s->h.dealer] = 1.0;
    out[KZ_O_FIRST + s->first] = 1.0;
    out[KZ_O_DEAL] = (float)(s->h.round_index + (s->h.to_move < 0 ? 0 : 1));
    out[KZ_O_TURNS_IN_DEAL] = (float)s->turns_in_deal;
    out[KZ_O_GOD_HOLDER + (s->god_public >= 0 ? s->god_public : KZ_OBS_SEATS)] = 1.0;
    out[KZ_O_POT] = (float)s->pot;
    value = best_declaration(s, &s->hand[seat], &d1, &d2);
    if (value > 0) {
        out[KZ_O_BEST_VALUE] = (float)value;
        out[KZ_O_BEST_SETS + d1] += 1.0;
        out[KZ_O_BEST_SETS + d2] += 1.0;
    }
    out[KZ_O_LAST_END + s->last_end] = 1.0;
    if (s->last_end != END_NONE) out[KZ_O_LAST_WILD + wild_index(s->last_wild)] = 1.0;
    if (s->last_end == END_OUT) {
        out[KZ_O_LAST_WINNER + s->last_winner] = 1.0;
        out[KZ_O_LAST_SETS + s->last_d1] += 1.0;
        out[KZ_O_LAST_SETS + s->last_d2] += 1.0;
        out[KZ_O_LAST_SET_VALUES] = (float)s->last_v1;
        out[KZ_O_LAST_SET_VALUES + 1] = (float)s->last_v2;
        for (i = 0; i < s->last_hand_size; i++) out[KZ_O_LAST_HAND + s->last_hand[i]] += 1.0;
        out[KZ_O_LAST_HAND_POINTS] = (float)s->last_hand_points;
        out[KZ_O_LAST_TURN_UP_DOUBLED] = s->last_turn_up_doubled ? 1.0f : 0.0f;
        out[KZ_O_LAST_GOD_DOUBLED] = s->last_god_doubled ? 1.0f : 0.0f;
        out[KZ_O_LAST_TOTAL] = (float)s->last_total;
        out[KZ_O_LAST_POT] = (float)s->last_pot;
    }
}

/* ================================================================ determinization */
/* A uniform double in [0, 1) from 53 random bits. */
static inline double uniform01(Rng *rng) {
    uint64_t high = rng_next32(rng) >> 5;
    uint64_t low = rng_next32(rng) >> 6;
    return ((double)high * 67108864.0 + (double)low) / 9007199254740992.0;
}

/* Pick the cards of the stocks' m unknown places, uniformly among the m-card
 * sub-multisets of the pool's (labelled) cards that hold at least one copy of every id in
 * `required` and nothing outside `required | allowed`; write them to chosen. Returns 0,
 * or -1 if there is none. ways[i][j] counts the labelled choices of j cards among the ids
 * i.. and is sampled backwards. */
static int choose_god_look_stock(const uint8_t *pool, int n, int m, uint64_t required,
                                 uint64_t allowed, uint8_t *chosen, Rng *rng) {
    double ways[NUM_KINDS + 1][DECK_SIZE + 1];
    int copies[NUM_KINDS];
    int lo[NUM_KINDS];
    int c, j, k, i, pick, taken = 0;
    double total, u, binom;
    memset(copies, 0, sizeof(copies));
    for (i = 0; i < n; i++) copies[pool[i]] += 1;
    for (c = 0; c < NUM_KINDS; c++) {
        if ((required >> c) & 1)
            lo[c] = 1;
        else if ((allowed >> c) & 1)
            lo[c] = 0;
        else
            lo[c] = -1;                                 /* excluded */
    }
    for (j = 0; j < m + 1; j++) ways[NUM_KINDS][j] = j == 0 ? 1.0 : 0.0;
    c = NUM_KINDS - 1;
    while (c >= 0) {
        for (j = 0; j < m + 1; j++) {
            total = 0.0;
            if (lo[c] < 0) {
                total = ways[c + 1][j];
            } else {
                binom = 1.0;
                for (k = 0; k < copies[c] + 1; k++) {   /* C(copies, k), built up as k grows */
                    if (k > 0) binom = binom * (copies[c] - k + 1) / k;
                    if (k >= lo[c] && k <= j) total += binom * ways[c + 1][j - k];
                }
            }
            ways[c][j] = total;
        }
        c -= 1;
    }
    if (ways[0][m] <= 0.0) return -1;
    j = m;
    for (c = 0; c < NUM_KINDS; c++) {
        if (lo[c] < 0) continue;
        u = uniform01(rng) * ways[c][j];
        pick = -1;
        binom = 1.0;
        for (k = 0; k < copies[c] + 1; k++) {
            if (k > 0) binom = binom * (copies[c] - k + 1) / k;
            if (k < lo[c] || k > j || binom * ways[c + 1][j - k] <= 0.0) continue;
            pick = k;                                   /* the last feasible count absorbs rounding */
            u -= binom * ways[c + 1][j - k];
            if (u < 0.0) break;
        }
        if (pick < 0) return -1;
        for (i = 0; i < pick; i++) {
            chosen[taken] = (uint8_t)c;
            taken += 1;
        }
        j -= pick;
    }
    return j == 0 ? 0 : -1;
}

/* Redeal, in place, every card `seat` cannot place: the unknown part of each other hand,
 * the stock places nobody knows and the set-aside pile. Known places stay: the seat's hand,
 * the face-up piles and dead discards, the cards everybody knows a hand holds, the stock
 * places everybody knows; during the seat's own God draw the stocks keep exactly the cards
 * the look shows (games/kuzanasta.md, "Hidden cards"). */
static int kz_sample_hidden(void *state, int seat, Rng *rng) {
    KZState *s = (KZState *)state;
    uint8_t pool[DECK_SIZE];
    uint8_t chosen[DECK_SIZE];
    int count[NUM_KINDS];
    int hidden[MAX_PLAYERS];
    int p, c, k, i, n = 0, m = 0, a, b;
    uint64_t known_in_stock = 0, required;
    /* The pool is built from counts in id order: the world depends only on what the seat
     * knows and on rng, never on where the hidden cards really lie. */
    memset(count, 0, sizeof(count));
    for (p = 0; p < s->h.players; p++) {
        hidden[p] = 0;
        if (p == seat) continue;
        for (c = 0; c < NUM_KINDS; c++) {
            hidden[p] += s->hand[p].count[c] - s->known[p].count[c];
            count[c] += s->hand[p].count[c] - s->known[p].count[c];
        }
    }
    for (k = 0; k < NUM_STOCKS; k++)
        for (i = 0; i < s->stock[k].size; i++) {
            if (s->stock_seen[k][i]) {
                known_in_stock |= card_bit(s->stock[k].cards[i]);
            } else {
                count[s->stock[k].cards[i]] += 1;
                m += 1;
            }
        }
    for (c = 0; c < NUM_KINDS; c++) count[c] += s->dead.count[c] - s->dead_seen.count[c];
    for (c = 0; c < NUM_KINDS; c++)
        for (k = 0; k < count[c]; k++) {
            pool[n] = (uint8_t)c;
            n += 1;
        }
    if (s->look_seat == seat) {
        /* The seat's own God look showed the stocks in play (then the only stocks with cards),
         * and no card left them unseen by the seat since: the unknown places get a uniform
         * choice of cards that shows the same, less what the seat itself took out since. */
        required = s->look_shown & ~s->look_gone & ~known_in_stock;
        if (choose_god_look_stock(pool, n, m, required, s->look_shown & ~required, chosen, rng) < 0)
            return -1;
        for (i = 0; i < m; i++) count[chosen[i]] -= 1;
        shuffle_u8(rng, chosen, m);
        for (i = 0; i < m; i++) pool[i] = chosen[i];    /* the stocks' unknown places come first below */
        a = m;
        for (c = 0; c < NUM_KINDS; c++)
            for (k = 0; k < count[c]; k++) {
                pool[a] = (uint8_t)c;
                a += 1;
            }
        shuffle_u8(rng, pool + m, n - m);
    } else {
        shuffle_u8(rng, pool, n);
    }
    /* Lay the pool back out: stocks' unknown places first, then the hands, then set-aside. */
    a = 0;
    for (k = 0; k < NUM_STOCKS; k++)
        for (i = 0; i < s->stock[k].size; i++)
            if (!s->stock_seen[k][i]) {
                s->stock[k].cards[i] = pool[a];
                a += 1;
            }
    for (p = 0; p < s->h.players; p++) {
        if (p == seat) continue;
        s->hand[p] = s->known[p];
        for (b = 0; b < hidden[p]; b++) {
            ms_add(&s->hand[p], pool[a]);
            a += 1;
        }
    }
    s->dead = s->dead_seen;
    while (a < n) {
        ms_add(&s->dead, pool[a]);
        a += 1;
    }
    return 0;
}

/* ================================================================ the search's rollout policy
 * Uniformly random play almost never builds two sets (KZ-5), so a search's random rollouts
 * rarely see a deal won. This cheap policy collects ranks: it is what ISMCTS rollouts play
 * (cardcore._search), never a player's move. It reads only the sampled world it is given. */

/* How much the hand wants `card`: the joker (KZ-7.3) and wild cards (KZ-4) most, then
 * by how many natural cards of its rank the hand holds (sets are one rank, KZ-5.1), then by
 * how many more of the rank the stock still holds (`stock_ranks`: a rank still to come
 * is worth waiting for), a card's points (KZ-1.4, counted against the hand, KZ-7.2) last. */
static inline int keep_value(const KZState *s, const Multiset *hand, const int *stock_ranks,
                             int card) {
    if (card == JOKER) return 1000;
    if (card_rank(card) == s->wild) return 500;
    return 100 * ms_count_rank(hand, card_rank(card)) + 8 * stock_ranks[card_rank(card)]
           - card_points(card) / 10;
}

/* Draw: the God look (KZ-6.2) if offered, the discard top if it matches a held rank or
 * is wild or the joker, else the stock. God draw: the card the hand wants most. Discard:
 * the plain discard of the card the hand wants least, least of all one that gives the next
 * seat (sharing the pile) a third card of a rank (ties at random). Declare: go out with the
 * best sets (KZ-7.1) whenever the hand can. It reads the whole world it is given (a
 * sampled one, in a search). Returns an index into legal, or -1 (no preference: the search
 * plays at random). */
static int kz_rollout(const void *state, const int32_t *legal, int n, Rng *rng) {
    const KZState *s = (const KZState *)state;
    int p = s->h.to_move, k, card, value, top;
    BestPick pick;
    int pile = s->pile_of[p], nxt = (p + 1) % s->h.players;
    int stock_ranks[NUM_RANKS];
    const Multiset *hand = &s->hand[p];
    best_pick_init(&pick);
    if (s->h.phase == PH_DRAW) {
        for (k = 0; k < n; k++)
            if (legal[k] == A_GOD_LOOK) return k;
        for (k = 0; k < n; k++)
            if (legal[k] == A_DRAW_DISCARD) {
                top = s->discard[pile].cards[s->discard[pile].size - 1];
                if (top == JOKER || card_rank(top) == s->wild || ms_count_rank(hand, card_rank(top)) > 0)
                    return k;
            }
        for (k = 0; k < n; k++)
            if (legal[k] == A_DRAW_STOCK) return k;
        return -1;
    }
    if (s->h.phase == PH_DECLARE) {
        for (k = 0; k < n; k++)
            if (legal[k] == A_GO_OUT) return k;
        return 0;                                   /* A_END_TURN comes first */
    }
    if (s->h.phase != PH_GOD_DRAW && s->h.phase != PH_DISCARD) return -1;
    for (k = 0; k < NUM_RANKS; k++) stock_ranks[k] = 0;
    for (k = 0; k < s->stock[pile].size; k++)
        if (s->stock[pile].cards[k] != JOKER) stock_ranks[card_rank(s->stock[pile].cards[k])] += 1;
    for (k = 0; k < n; k++) {
        if (s->h.phase == PH_GOD_DRAW && FIRST_GOD_DRAW <= legal[k] && legal[k] < FIRST_DISCARD) {
            value = keep_value(s, hand, stock_ranks, legal[k] - FIRST_GOD_DRAW);
        } else if (s->h.phase == PH_DISCARD && FIRST_DISCARD <= legal[k]
                   && legal[k] < FIRST_GOD_DISCARD) {
            card = legal[k] - FIRST_DISCARD;
            value = -keep_value(s, hand, stock_ranks, card);
            /* The next seat draws from this pile too (KZ-2.6): do not hand it a set's card. */
            if (s->pile_of[nxt] == pile && card != JOKER && card_rank(card) != s->wild
                && ms_count_rank(&s->hand[nxt], card_rank(card)) >= 2)
                value -= 60;
        } else {
            continue;
        }
        best_pick_offer(&pick, k, value, rng);
    }
    return pick.index;
}

/* ================================================================ GreedyBot's policy
 * GreedyBot's Kuzanasta heuristic (cardcore.games.kuzanasta.greedy documents it), played
 * inside the core. Unlike the rollout policy above it reads only what the seat to move may
 * know: its own hand, the wild rank, its discard pile, the turn counter, and in the God draw
 * the cards the God look shows (the legal ids, KZ-6.2). These weights are the heuristic's one
 * source (the 0.2-0.3 Python heuristic is the tests' oracle, tests/games/kuzanasta/). */
enum {
    GREEDY_PAIR = 1,                  /* potential of two natural cards of a rank (not the wild one) */
    GREEDY_TRIPLE = 3,                /* ... of three or more */
    GREEDY_FACE = 2,                  /* a face rank's (J-K, KZ-5.3) potential counts double */
    GREEDY_PER_POTENTIAL = 400,       /* evaluation points per unit of potential */
    GREEDY_PER_WILD = 600,            /* per wild card held (KZ-4) */
    GREEDY_PER_JOKER = 900,           /* per joker held (it doubles the deal, KZ-7.3) */
    G_WAIT_BELOW = KZ_G_WAIT_BELOW,   /* declarations worth less may wait ... */
    G_WAIT_TURNS_PER_PLAYER = KZ_G_WAIT_TURNS_PER_PLAYER   /* ... while the deal is younger */
};

/* The value of the best declaration the option `sets` allows (KZ-7.1) plus the hand's
 * potential (pairs and triples of a natural rank, wild cards, the joker), minus its card
 * points (KZ-1.4: they go to the winner if someone else goes out, KZ-7.2). */
static int greedy_evaluate(const KZState *s, const Multiset *cards) {
    int n[NUM_RANKS];
    int d1, d2, r, c, potential = 0, points = 0, wilds = 0;
    int value = best_declaration(s, cards, &d1, &d2);
    kz_rank_counts(cards, n);
    for (c = 0; c < JOKER; c++) points += card_points(c) * cards->count[c];
    for (r = 0; r < NUM_RANKS; r++) {
        if (r == s->wild)
            wilds = n[r];
        else if (n[r] >= 2)
            potential += (n[r] >= 3 ? GREEDY_TRIPLE : GREEDY_PAIR) * (r >= R_JACK ? GREEDY_FACE : 1);
    }
    return value + GREEDY_PER_POTENTIAL * potential + GREEDY_PER_WILD * wilds
           + GREEDY_PER_JOKER * cards->count[JOKER] - points;
}

/* The card whose loss leaves the best evaluation (the lowest id among equals), and that
 * evaluation in `value`; -1 for an empty hand. */
static int greedy_best_discard(const KZState *s, const Multiset *hand, int *value) {
    Multiset rest;
    uint64_t m = hand->plane[0];              /* the distinct ids, the joker's included */
    int card, v, best = -1;
    while (m) {
        card = lowest_card(m);
        m &= m - 1;
        rest = *hand;
        ms_remove(&rest, card);
        v = greedy_evaluate(s, &rest);
        if (best < 0 || v > *value) {
            best = card;
            *value = v;
        }
    }
    return best;
}

static inline int index_of(const int32_t *legal, int n, int action) {
    int k;
    for (k = 0; k < n; k++)
        if (legal[k] == action) return k;
    return -1;
}

/* Draw: the God look if offered (KZ-6.2), else the discard top if it is the joker, wild,
 * or worth keeping (the best discard afterwards is another card and the hand evaluates
 * higher than now), else the stock (KZ-3.1). God draw: the card that makes the best 8-card
 * evaluation (the lowest id among equals). Discard: greedy_best_discard's card, a plain
 * discard (KZ-3.2; never a God discard, KZ-6.3). Declare: go out with the best declaration
 * (KZ-7.1) unless it is worth less than G_WAIT_BELOW while the deal is young, end the turn
 * without one (KZ-3.3). A choice that is not legal becomes a uniform legal id, the one draw
 * the policy makes (as the heuristic's; no position the rules reach needs it: a God holder's
 * own discard pile is never empty at its draw, so one of the plain draws is legal). */
static int kz_greedy(const void *state, const int32_t *legal, int n, Rng *rng) {
    const KZState *s = (const KZState *)state;
    int p = s->h.to_move, k, card, top, value = 0, best_value = 0, choice = -1;
    const Multiset *hand = &s->hand[p];
    const Pile *pile;
    Multiset more;
    if (s->h.phase == PH_DRAW) {
        if (index_of(legal, n, A_GOD_LOOK) >= 0) {
            choice = A_GOD_LOOK;
        } else {
            pile = &s->discard[s->pile_of[p]];
            choice = index_of(legal, n, A_DRAW_STOCK) >= 0 ? A_DRAW_STOCK : A_DRAW_DISCARD;
            if (pile->size > 0 && index_of(legal, n, A_DRAW_DISCARD) >= 0) {
                top = pile->cards[pile->size - 1];
                if (top == JOKER || card_rank(top) == s->wild) {
                    choice = A_DRAW_DISCARD;
                } else {
                    more = *hand;
                    ms_add(&more, top);
                    if (greedy_best_discard(s, &more, &value) != top
                        && value > greedy_evaluate(s, hand))
                        choice = A_DRAW_DISCARD;
                }
            }
        }
    } else if (s->h.phase == PH_GOD_DRAW) {
        for (k = 0; k < n; k++) {
            more = *hand;
            ms_add(&more, legal[k] - FIRST_GOD_DRAW);
            value = greedy_evaluate(s, &more);
            if (choice < 0 || value > best_value || (value == best_value && legal[k] < choice)) {
                choice = legal[k];
                best_value = value;
            }
        }
    } else if (s->h.phase == PH_DISCARD) {
        choice = FIRST_DISCARD + greedy_best_discard(s, hand, &value);
    } else if (s->h.phase == PH_DECLARE) {
        value = best_declaration(s, hand, &k, &card);
        if (value == 0 || (value < G_WAIT_BELOW
                           && s->turns_in_deal < G_WAIT_TURNS_PER_PLAYER * s->h.players))
            choice = A_END_TURN;
        else
            choice = A_GO_OUT;
    }
    k = index_of(legal, n, choice);
    if (k < 0) k = (int)rng_below(rng, (uint32_t)n);
    return k;
}

/* ================================================================ the zones: who sees what (KZ-8) */
enum {                      /* the zones, in ZONES order */
    ZN_HAND = 0,            /* each seat's hand: its own (KZ-2.4); cards taken face up are known */
    ZN_STOCK = 1,           /* the stock piles, face down (KZ-2.5); places seen by all are known */
    ZN_DISCARD = 2,         /* the discard piles, face up (KZ-2.7, KZ-3.2) */
    ZN_ASIDE = 3,           /* pile 1 set aside face down in a 2-3 player deal (KZ-2.6); the
                               turn-up, if it went there, is known */
    ZN_DEAD = 4,            /* the dead discard piles, face up (KZ-6.3, KZ-6.4, KZ-6.6) */
    NUM_ZONES = 5
};

static const ZoneSpec ZONES[NUM_ZONES] = {
    {"hand", ZONE_SEAT, 0, SEEN_BY_OWNER},
    {"stock", ZONE_PILE, NUM_STOCKS, SEEN_BY_NONE},
    {"discard", ZONE_PILE, NUM_STOCKS, SEEN_BY_ALL},
    {"aside", ZONE_SHARED, 0, SEEN_BY_NONE},
    {"dead", ZONE_SHARED, 0, SEEN_BY_ALL}
};

/* The cards of a that b does not hold (b is part of a). */
static int ms_minus_to_array(const Multiset *a, const Multiset *b, uint8_t *out) {
    int card, k, n = 0;
    for (card = 0; card < NUM_KINDS; card++)
        for (k = b->count[card]; k < a->count[card]; k++) out[n++] = (uint8_t)card;
    return n;
}

static int kz_zone_cards(const void *state, int zone, int instance, uint8_t *out) {
    const KZState *s = (const KZState *)state;
    if (zone == ZN_HAND) return ms_to_array(&s->hand[instance], out);
    if (zone == ZN_STOCK) return pile_copy(&s->stock[instance], out);
    if (zone == ZN_DISCARD) return pile_copy(&s->discard[instance], out);
    if (zone == ZN_ASIDE) return ms_minus_to_array(&s->dead, &s->dead_up, out);
    return ms_to_array(&s->dead_up, out);
}

/* The cards of a hidden zone whose place every seat knows ("Hidden cards" in the rulebook):
 * a hand's cards taken face up, the stock places turned over face up, the dead discards. */
static int kz_known_cards(const void *state, int zone, int instance, uint8_t *out) {
    const KZState *s = (const KZState *)state;
    int i, n = 0;
    if (zone == ZN_HAND) return ms_to_array(&s->known[instance], out);
    if (zone == ZN_STOCK) {
        for (i = 0; i < s->stock[instance].size; i++)
            if (s->stock_seen[instance][i]) {
                out[n] = s->stock[instance].cards[i];
                n += 1;
            }
        return n;
    }
    if (zone == ZN_ASIDE) return ms_minus_to_array(&s->dead_seen, &s->dead_up, out);
    return 0;
}

/* ================================================================ the scoring breakdown (KZ-7) */
static inline void set_row(BreakdownRow *row, int seat, int what, int rule, int detail,
                           int64_t points) {
    row->owner = seat;
    row->what = what;
    row->rule = rule;
    row->detail = detail;
    row->count = -1;
    row->points = points;
}

/* The last deal's scoring as end_deal recorded it: the two sets (detail: the set's
 * descriptor), the points left in the other hands, the God card's doubling (the rest of the
 * total). A void deal scores nothing (KZ-3.4, KZ-3.5). */
static int kz_breakdown(const void *state, BreakdownRow *out, int capacity) {
    const KZState *s = (const KZState *)state;
    int w = s->last_winner;
    if (s->last_end != END_OUT) return 0;
    if (capacity < 4) return -1;
    set_row(&out[0], w, KZ_W_SET, KZ_R_KZ_7_4, s->last_d1, s->last_v1);
    set_row(&out[1], w, KZ_W_SET, KZ_R_KZ_7_4, s->last_d2, s->last_v2);
    if (s->last_turn_up_doubled)
        set_row(&out[2], w, KZ_W_HAND_POINTS_DOUBLED, KZ_R_KZ_7_2_2_3, -1, s->last_hand_points);
    else
        set_row(&out[2], w, KZ_W_HAND_POINTS, KZ_R_KZ_7_2, -1, s->last_hand_points);
    if (!s->last_god_doubled) return 3;
    set_row(&out[3], w, KZ_W_GOD_DOUBLED, KZ_R_KZ_7_3, -1,
            s->last_total - s->last_v1 - s->last_v2 - s->last_hand_points);
    return 4;
}

/* Random play with this game's hooks called directly (kernel.h, play_loop). */
static long long kz_play(void *s, Rng *chooser, int32_t *scratch, long long max_actions) {
    return play_loop(s, &KZ_HOOKS, chooser, scratch, max_actions);
}

/* ================================================================ refusals */
/* Why an id is not legal now: reasons index words.REFUSALS (the texts stay in Python). */
enum {
    R_PLACE_OPTION = 0, R_POSITION_NO_LOOK, R_GOD_DRAW_HOLDER, R_PLACE_NOT_IN_PLAY,
    R_STOCK_EMPTY, R_DISCARD_EMPTY, R_STOCKS_EMPTY, R_FIRST_DRAW, R_CARD_NOT_IN_STOCK,
    R_GOD_DRAW_CHOSEN, R_NOT_HELD, R_GOD_DISCARD_HOLDER, R_NO_PILE_TO_END, R_NOW_DISCARD,
    R_NOT_THREE_FOUR, R_NOT_TWO_SETS, R_CANNOT_SHOW_THREE_FOUR, R_CANNOT_SHOW_TWO,
    R_GO_OUT_OR_END, NUM_REFUSALS
};

static int kz_refuse(const void *state, int32_t action, Refusal *out) {
    const KZState *s = (const KZState *)state;
    int a = action, p = s->h.to_move, ph = s->h.phase;
    int pile = s->pile_of[p];
    int god = s->hand[p].count[JOKER] > 0;
    if (a >= FIRST_GOD_PLACE && !s->opt.god_place) return refuse0(out, R_PLACE_OPTION, "KZ-6.2");
    if (a == A_GOD_LOOK && s->opt.god_place) return refuse0(out, R_POSITION_NO_LOOK, "KZ-6.2");
    if (ph == PH_DRAW) {
        if (a >= FIRST_GOD_PLACE) {
            if (!god) return refuse0(out, R_GOD_DRAW_HOLDER, "KZ-6.2");
            return refuse0(out, R_PLACE_NOT_IN_PLAY, "KZ-6.2");
        }
        if (a == A_DRAW_STOCK) return refuse0(out, R_STOCK_EMPTY, "KZ-3.4");
        if (a == A_DRAW_DISCARD) return refuse0(out, R_DISCARD_EMPTY, "KZ-3.1");
        if (a == A_GOD_LOOK) {
            if (!god) return refuse0(out, R_GOD_DRAW_HOLDER, "KZ-6.2");
            return refuse0(out, R_STOCKS_EMPTY, "KZ-6.2");
        }
        return refuse0(out, R_FIRST_DRAW, "KZ-3.1");
    }
    if (ph == PH_GOD_DRAW) {
        if (FIRST_GOD_DRAW <= a && a < FIRST_DISCARD)
            return refuse1(out, R_CARD_NOT_IN_STOCK, "KZ-6.2", a - FIRST_GOD_DRAW);
        return refuse0(out, R_GOD_DRAW_CHOSEN, "KZ-6.2");
    }
    if (ph == PH_DISCARD) {
        if (FIRST_DISCARD <= a && a < FIRST_GOD_DISCARD)
            return refuse1(out, R_NOT_HELD, "KZ-3.2", a - FIRST_DISCARD);
        if (FIRST_GOD_DISCARD <= a && a < A_END_TURN) {
            if (!god) return refuse0(out, R_GOD_DISCARD_HOLDER, "KZ-6.3");
            if (s->discard[pile].size == 0) return refuse0(out, R_NO_PILE_TO_END, "KZ-6.3");
            return refuse1(out, R_NOT_HELD, "KZ-3.2", a - FIRST_GOD_DISCARD);
        }
        return refuse0(out, R_NOW_DISCARD, "KZ-3.2");
    }
    /* PH_DECLARE */
    if (a == A_GO_OUT) {
        if (s->opt.three_four) return refuse0(out, R_NOT_THREE_FOUR, "KZ-7.1");
        return refuse0(out, R_NOT_TWO_SETS, "KZ-7.1");
    }
    if (FIRST_NAMED <= a && a < FIRST_GOD_PLACE) {
        if (s->opt.three_four) return refuse0(out, R_CANNOT_SHOW_THREE_FOUR, "KZ-7.1");
        return refuse0(out, R_CANNOT_SHOW_TWO, "KZ-7.1");
    }
    return refuse0(out, R_GO_OUT_OR_END, "KZ-3.3");
}

const GameHooks KZ_HOOKS = {
    GAME_HOOKS_HEAD,
    .name = "kuzanasta",
    .state_size = sizeof(KZState),
    .num_actions = NUM_ALL_ACTIONS,          /* the widest configuration (god_draw="position") */
    .max_legal = NUM_ALL_ACTIONS,
    .start = kz_start,
    .legal = kz_legal,
    .apply = kz_apply,
    .observation_size = kz_observation_size,
    .observe = kz_observe,
    .returns = kz_returns,
    .scores = kz_scores,
    .sample_hidden = kz_sample_hidden,
    .rollout = kz_rollout,
    .zones = ZONES,
    .num_zones = NUM_ZONES,
    .zone_cards = kz_zone_cards,
    .known_cards = kz_known_cards,
    .breakdown = kz_breakdown,
    .greedy = kz_greedy,
    .hand_cards = NULL,
    .play = kz_play,
    .refuse = kz_refuse,
    .num_refusals = NUM_REFUSALS
};

/* ================================================================ the game for the C ABI */
/* KZ-1.1: deck A (52 cards), deck B without J, Q, K (40 cards), one joker; in id order. */
#define KZ_TWO_OF_TEN(s) (s) + 0, (s) + 0, (s) + 1, (s) + 1, (s) + 2, (s) + 2, (s) + 3, (s) + 3, \
    (s) + 4, (s) + 4, (s) + 5, (s) + 5, (s) + 6, (s) + 6, (s) + 7, (s) + 7, (s) + 8, (s) + 8, \
    (s) + 9, (s) + 9, (s) + 10, (s) + 11, (s) + 12
static const uint8_t DECK[DECK_SIZE] = {
    KZ_TWO_OF_TEN(0), KZ_TWO_OF_TEN(13), KZ_TWO_OF_TEN(26), KZ_TWO_OF_TEN(39), JOKER
};
#undef KZ_TWO_OF_TEN

/* The options, as the Python Option table in __init__.py (same names, order, defaults). */
static const char *const PILE_PAIRING_CHOICES[2] = {"opposite", "adjacent"};
static const char *const GOING_OUT_CHOICES[2] = {"immediate", "optional"};
static const char *const SETS_CHOICES[2] = {"any_two", "three_and_four"};
static const char *const GOD_DRAW_CHOICES[2] = {"look", "position"};

static const OptionSpec KZ_OPTIONS[KZ_NUM_OPTIONS] = {
    /* seat of the first dealer (None = by lot) */
    {"dealer", OPT_SEAT_OR_LOT, "KZ-2.1", OPTION_NONE, 0, 0, 0, NULL, 0, 0},
    /* which 4-player seats share a stock pile */
    {"pile_pairing", OPT_CHOICE, "KZ-2.6", 0, 0, 0, 0, PILE_PAIRING_CHOICES, 2, 0},
    /* shuffle (True) or just turn over (False) a recycled discard pile */
    {"reshuffle", OPT_FLAG, "KZ-3.4", 0, 0, 0, 0, NULL, 0, 0},
    /* turns before a deal ends void */
    {"max_turns", OPT_INT, "KZ-3.5", 1000, 1, 10000, 0, NULL, 0, 0},
    /* the score that ends the match after the deal reaching it */
    {"target", OPT_INT, "KZ-7.5", 50000, 1000, 1000000, 0, NULL, 0, 0},
    /* a number of scored deals instead of the target */
    {"deals", OPT_INT, "KZ-7.5", OPTION_NONE, 1, 100, 1, NULL, 0, 0},
    /* chips each player pays into the pot per deal; 0: no chips */
    {"ante", OPT_INT, "KZ-7.6", 0, 0, 1000, 0, NULL, 0, 0},
    /* go out as soon as the hand holds two sets, or when the player likes */
    {"going_out", OPT_CHOICE, "KZ-3.3", 0, 0, 0, 0, GOING_OUT_CHOICES, 2, 0},
    /* going out needs any two sets, or a 3-card and a 4-card set of all 7 cards */
    {"sets", OPT_CHOICE, "KZ-7.1", 0, 0, 0, 0, SETS_CHOICES, 2, 0},
    /* the God draw picks a card after looking, or a place without looking */
    {"god_draw", OPT_CHOICE, "KZ-6.2", 0, 0, 0, 0, GOD_DRAW_CHOICES, 2, 0}
};

/* A zeroed state made a game of `players` seats with the resolved options (GameKernel.init):
 * what KuzanastaState.__init__ does after init_header. 0, or -1 for values it cannot take
 * (the bounds checked are what the struct holds: saved games keep their wider bounds). */
int kz_init(void *state, int players, const int64_t *values) {
    KZState *s = (KZState *)state;
    int64_t dealer = values[KZ_OPT_DEALER], deals = values[KZ_OPT_DEALS];
    int i;
    static const int choices[4] = {KZ_OPT_PILE_PAIRING, KZ_OPT_GOING_OUT, KZ_OPT_SETS,
                                   KZ_OPT_GOD_DRAW};
    if (players < MIN_PLAYERS || players > MAX_PLAYERS) return -1;
    if (dealer != OPTION_NONE && (dealer < 0 || dealer >= players)) return -1;
    for (i = 0; i < 4; i++)
        if (values[choices[i]] < 0 || values[choices[i]] > 1) return -1;
    if (values[KZ_OPT_RESHUFFLE] != 0 && values[KZ_OPT_RESHUFFLE] != 1) return -1;
    if (values[KZ_OPT_MAX_TURNS] < 1 || values[KZ_OPT_MAX_TURNS] > INT32_MAX) return -1;
    if (values[KZ_OPT_TARGET] < 1) return -1;                      /* OPTION_NONE too */
    if (deals != OPTION_NONE && (deals < 1 || deals > INT32_MAX)) return -1;
    if (values[KZ_OPT_ANTE] < 0) return -1;
    s->h.players = players;
    s->h.to_move = -1;
    s->opt.dealer = dealer == OPTION_NONE ? -1 : (int32_t)dealer;
    s->opt.adjacent_piles = values[KZ_OPT_PILE_PAIRING] == 1;
    s->opt.reshuffle = (int)values[KZ_OPT_RESHUFFLE];
    s->opt.max_turns = (int32_t)values[KZ_OPT_MAX_TURNS];
    s->opt.deals = deals == OPTION_NONE ? 0 : (int32_t)deals;
    s->opt.target = values[KZ_OPT_TARGET];
    s->opt.ante = values[KZ_OPT_ANTE];
    s->opt.immediate = values[KZ_OPT_GOING_OUT] == 0;
    s->opt.three_four = values[KZ_OPT_SETS] == 1;
    s->opt.god_place = values[KZ_OPT_GOD_DRAW] == 1;
    memcpy(s->deck, DECK, DECK_SIZE);
    s->h.phase = PH_OVER;
    s->last_end = END_NONE;
    s->last_winner = -1;
    s->god_public = -1;
    s->look_seat = -1;
    return 0;
}

/* actions.set_label: "7-7-W" (the rank per natural card, W per wild card). */
static void label_set(Label *b, int d) {
    int k, size = kz_desc_size(d), wilds = kz_desc_wilds(d);
    for (k = 0; k < size; k++) {
        if (k > 0) label_char(b, '-');
        if (k < size - wilds)
            label_rank(b, kz_desc_rank(d));
        else
            label_char(b, 'W');
    }
}

/* str(action), the label of the Python Action (__init__.py's action_specs): "draw_stock",
 * "god_draw 7H", "discard JK", "go_out 7-7-7 Q-Q-W", "god_draw 0:12" (god_draw="position"
 * only; a NULL state is any other configuration) ...; the same in every state of a
 * configuration; -1 (and an empty string) for an id out of the configuration's range. */
int kz_action_label(const void *state, int action, char *buf, size_t len) {
    const KZState *s = (const KZState *)state;
    Label b = label_start(buf, len);
    int d1, d2;
    if (action < 0 || action >= (s != NULL && s->opt.god_place ? NUM_ALL_ACTIONS : NUM_ACTIONS)) {
        label_end(&b);
        return -1;
    }
    if (action >= FIRST_GOD_PLACE) {
        label_put(&b, "god_draw ");
        label_int(&b, (action - FIRST_GOD_PLACE) / DECK_SIZE);
        label_char(&b, ':');
        label_int(&b, (action - FIRST_GOD_PLACE) % DECK_SIZE);
    } else if (action == A_DRAW_STOCK) {
        label_put(&b, "draw_stock");
    } else if (action == A_DRAW_DISCARD) {
        label_put(&b, "draw_discard");
    } else if (action == A_GOD_LOOK) {
        label_put(&b, "god_look");
    } else if (action < FIRST_DISCARD) {
        label_put(&b, "god_draw ");
        label_card(&b, action - FIRST_GOD_DRAW);
    } else if (action < FIRST_GOD_DISCARD) {
        label_put(&b, "discard ");
        label_card(&b, action - FIRST_DISCARD);
    } else if (action < A_END_TURN) {
        label_put(&b, "god_discard ");
        label_card(&b, action - FIRST_GOD_DISCARD);
    } else if (action == A_END_TURN) {
        label_put(&b, "end_turn");
    } else if (action == A_GO_OUT) {
        label_put(&b, "go_out");
    } else {
        kz_named_pair(action - FIRST_NAMED, &d1, &d2);
        label_put(&b, "go_out ");
        label_set(&b, d1);
        label_char(&b, ' ');
        label_set(&b, d2);
    }
    return label_end(&b);
}

/* KZ-1.1: the deck's ids in id order, as the Python composition (kuzanasta_deck()). */
int kz_composition(const void *state, uint8_t *out) {
    (void)state;
    memcpy(out, DECK, DECK_SIZE);
    return DECK_SIZE;
}

const GameKernel KZ_KERNEL = {
    &KZ_HOOKS, KZ_OPTIONS, KZ_NUM_OPTIONS, MIN_PLAYERS, MAX_PLAYERS, KZ_DEFAULT_PLAYERS,
    kz_init, kz_action_label, DECK_SIZE, kz_composition
};
