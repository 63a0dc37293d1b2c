/* Kings' Stakes's kernel in C99 (rules: games/kings_stakes.md, rule IDs KS-x.y): the deal,
 * legality, apply, scoring, the per-seat projection, determinization and GreedyBot's policy,
 * reached through KS_HOOKS; KS_KERNEL adds the options, setup and labels for the C ABI.
 * The action ids are listed in kernel.h. No global changes: the tables below are constant. */
#include "cardcore/games/kings_stakes/kernel.h"

/* ---------------------------------------------------------------- rule helpers */
/* KS-2.1: 2..10 at pip value, the ace 11; 0 for J, Q, K and the joker. */
int ks_card_value(int card) {
    int r = card_rank(card);
    if (r == R_ACE) return 11;
    if (1 <= r && r <= R_TEN) return r + 1;
    return 0;
}

static inline int card_value(int card) { return ks_card_value(card); }

/* ---------------------------------------------------------------- action table
 * The tables the Cython build_table() made at import, as constant data: one entry per action
 * id (the wrapper checks them against its action_table() at import, and ks_check_tables the
 * derived tables below against these). */
#define ALWAYS INT32_MAX    /* STAKE_LIMIT: KS-5, a special is always allowed */

const int8_t KS_ACT_CARD1[KS_NUM_ACTIONS] = {   /* natural card played, or -1 */
    /* 0..51: one natural card */
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12,
    13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
    26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38,
    39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49, 50, 51,
    /* 52..62: a lone joker as 1..11 */
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    /* 63..166: two natural cards */
    0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3,
    3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 6, 6,
    6, 6, 7, 7, 7, 7, 8, 8, 8, 8, 9, 9, 9,
    10, 11, 13, 13, 13, 14, 14, 14, 15, 15, 15, 16, 16,
    16, 17, 17, 17, 18, 18, 18, 19, 19, 19, 20, 20, 20,
    21, 21, 21, 22, 22, 23, 24, 26, 26, 27, 27, 28, 28,
    29, 29, 30, 30, 31, 31, 32, 32, 33, 33, 34, 34, 35,
    36, 37, 39, 40, 41, 42, 43, 44, 45, 46, 47, 49, 50,
    /* 167..294: a natural card with a joker */
    0, 0, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4,
    5, 5, 5, 6, 6, 6, 7, 7, 7, 8, 8, 8, 9,
    9, 9, 10, 11, 11, 12, 13, 13, 14, 14, 15, 15, 15,
    16, 16, 16, 17, 17, 17, 18, 18, 18, 19, 19, 19, 20,
    20, 20, 21, 21, 21, 22, 22, 22, 23, 24, 24, 25, 26,
    26, 27, 27, 28, 28, 28, 29, 29, 29, 30, 30, 30, 31,
    31, 31, 32, 32, 32, 33, 33, 33, 34, 34, 34, 35, 35,
    35, 36, 37, 37, 38, 39, 39, 40, 40, 41, 41, 41, 42,
    42, 42, 43, 43, 43, 44, 44, 44, 45, 45, 45, 46, 46,
    46, 47, 47, 47, 48, 48, 48, 49, 50, 50, 51,
    /* 295..315: two jokers as 2..22 */
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1,
    /* 316..319: four kings, take, refill, end_turn */
    -1, -1, -1, -1
};

const int8_t KS_ACT_CARD2[KS_NUM_ACTIONS] = {   /* second natural card, or -1 */
    /* 0..51: one natural card */
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    /* 52..62: a lone joker as 1..11 */
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    /* 63..166: two natural cards */
    9, 13, 26, 39, 2, 14, 27, 40, 3, 15, 28, 41, 4,
    16, 29, 42, 5, 17, 30, 43, 6, 18, 31, 44, 7, 19,
    32, 45, 8, 20, 33, 46, 9, 21, 34, 47, 22, 35, 48,
    11, 12, 22, 26, 39, 15, 27, 40, 16, 28, 41, 17, 29,
    42, 18, 30, 43, 19, 31, 44, 20, 32, 45, 21, 33, 46,
    22, 34, 47, 35, 48, 24, 25, 35, 39, 28, 40, 29, 41,
    30, 42, 31, 43, 32, 44, 33, 45, 34, 46, 35, 47, 48,
    37, 38, 48, 41, 42, 43, 44, 45, 46, 47, 48, 50, 51,
    /* 167..294: a natural card with a joker */
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    /* 295..315: two jokers as 2..22 */
    -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
    -1, -1, -1, -1, -1, -1, -1, -1,
    /* 316..319: four kings, take, refill, end_turn */
    -1, -1, -1, -1
};

const int8_t KS_ACT_JOKERS[KS_NUM_ACTIONS] = {   /* jokers played (0..2) */
    /* 0..51: one natural card */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* 52..62: a lone joker as 1..11 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    /* 63..166: two natural cards */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* 167..294: a natural card with a joker */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    /* 295..315: two jokers as 2..22 */
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,
    2, 2, 2, 2, 2, 2, 2, 2,
    /* 316..319: four kings, take, refill, end_turn */
    0, 0, 0, 0
};

const int8_t KS_ACT_EFFECT[KS_NUM_ACTIONS] = {   /* a KSEffect */
    /* 0..51: one natural card */
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_JACK, KS_E_QUEEN,
    KS_E_KING, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_JACK,
    KS_E_QUEEN, KS_E_KING, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_JACK, KS_E_QUEEN, KS_E_KING, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_JACK, KS_E_QUEEN, KS_E_KING,
    /* 52..62: a lone joker as 1..11 */
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    /* 63..166: two natural cards */
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_QUEEN_JACK, KS_E_KING_QUEEN, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_QUEEN_JACK, KS_E_KING_QUEEN,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_QUEEN_JACK, KS_E_KING_QUEEN, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_QUEEN_JACK, KS_E_KING_QUEEN,
    /* 167..294: a natural card with a joker */
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_QUEEN_JACK, KS_E_KING_QUEEN,
    KS_E_QUEEN_JACK, KS_E_KING_QUEEN, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_QUEEN_JACK, KS_E_KING_QUEEN, KS_E_QUEEN_JACK, KS_E_KING_QUEEN, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_QUEEN_JACK, KS_E_KING_QUEEN, KS_E_QUEEN_JACK, KS_E_KING_QUEEN,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_QUEEN_JACK, KS_E_KING_QUEEN,
    KS_E_QUEEN_JACK, KS_E_KING_QUEEN,
    /* 295..315: two jokers as 2..22 */
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    KS_E_NUMBER, KS_E_NUMBER, KS_E_NUMBER,
    /* 316..319: four kings, take, refill, end_turn */
    KS_E_FOUR_KINGS, KS_E_NONE, KS_E_NONE, KS_E_NONE
};

const int8_t KS_ACT_AMOUNT[KS_NUM_ACTIONS] = {   /* the amount of a number play */
    /* 0..51: one natural card */
    11, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 0, 0,
    11, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 0, 0,
    11, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 0, 0,
    11, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0, 0, 0,
    /* 52..62: a lone joker as 1..11 */
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
    /* 63..166: two natural cards */
    21, 22, 22, 22, 5, 4, 4, 4, 7, 6, 6, 6, 9,
    8, 8, 8, 11, 10, 10, 10, 13, 12, 12, 12, 15, 14,
    14, 14, 17, 16, 16, 16, 19, 18, 18, 18, 20, 20, 20,
    0, 0, 21, 22, 22, 5, 4, 4, 7, 6, 6, 9, 8,
    8, 11, 10, 10, 13, 12, 12, 15, 14, 14, 17, 16, 16,
    19, 18, 18, 20, 20, 0, 0, 21, 22, 5, 4, 7, 6,
    9, 8, 11, 10, 13, 12, 15, 14, 17, 16, 19, 18, 20,
    0, 0, 21, 5, 7, 9, 11, 13, 15, 17, 19, 0, 0,
    /* 167..294: a natural card with a joker */
    22, 21, 4, 5, 6, 5, 7, 8, 7, 9, 10, 9, 11,
    12, 11, 13, 14, 13, 15, 16, 15, 17, 18, 17, 19, 20,
    21, 19, 0, 0, 0, 0, 22, 21, 4, 5, 6, 5, 7,
    8, 7, 9, 10, 9, 11, 12, 11, 13, 14, 13, 15, 16,
    15, 17, 18, 17, 19, 20, 21, 19, 0, 0, 0, 0, 22,
    21, 4, 5, 6, 5, 7, 8, 7, 9, 10, 9, 11, 12,
    11, 13, 14, 13, 15, 16, 15, 17, 18, 17, 19, 20, 21,
    19, 0, 0, 0, 0, 22, 21, 4, 5, 6, 5, 7, 8,
    7, 9, 10, 9, 11, 12, 11, 13, 14, 13, 15, 16, 15,
    17, 18, 17, 19, 20, 21, 19, 0, 0, 0, 0,
    /* 295..315: two jokers as 2..22 */
    2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
    15, 16, 17, 18, 19, 20, 21, 22,
    /* 316..319: four kings, take, refill, end_turn */
    0, 0, 0, 0
};

const uint8_t KS_ACT_JOKER_IS_QUEEN[KS_NUM_ACTIONS] = {   /* KS-4.4 Decision: impossible without queens */
    /* 0..51: one natural card */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* 52..62: a lone joker as 1..11 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* 63..166: two natural cards */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    /* 167..294: a natural card with a joker */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1,
    /* 295..315: two jokers as 2..22 */
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0,
    /* 316..319: four kings, take, refill, end_turn */
    0, 0, 0, 0
};

/* Whether a play is allowed is one comparison, stake <= STAKE_LIMIT[players == 2][id]:
 * KS-4.3 for a number play (its amount), -1 (never: stakes are >= 0) for a joker standing
 * for a queen with 2 players (KS-4.4 Decision), ALWAYS for the specials (KS-5). */
static const int32_t STAKE_LIMIT[2][KS_NUM_ACTIONS] = {
    {   /* more than 2 players */
        /* 0..51: one natural card */
        11, 2, 3, 4, 5, 6, 7, 8, 9, 10, ALWAYS, ALWAYS, ALWAYS,
        11, 2, 3, 4, 5, 6, 7, 8, 9, 10, ALWAYS, ALWAYS, ALWAYS,
        11, 2, 3, 4, 5, 6, 7, 8, 9, 10, ALWAYS, ALWAYS, ALWAYS,
        11, 2, 3, 4, 5, 6, 7, 8, 9, 10, ALWAYS, ALWAYS, ALWAYS,
        /* 52..62: a lone joker as 1..11 */
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
        /* 63..166: two natural cards */
        21, 22, 22, 22, 5, 4, 4, 4, 7, 6, 6, 6, 9,
        8, 8, 8, 11, 10, 10, 10, 13, 12, 12, 12, 15, 14,
        14, 14, 17, 16, 16, 16, 19, 18, 18, 18, 20, 20, 20,
        ALWAYS, ALWAYS, 21, 22, 22, 5, 4, 4, 7, 6, 6, 9, 8,
        8, 11, 10, 10, 13, 12, 12, 15, 14, 14, 17, 16, 16,
        19, 18, 18, 20, 20, ALWAYS, ALWAYS, 21, 22, 5, 4, 7, 6,
        9, 8, 11, 10, 13, 12, 15, 14, 17, 16, 19, 18, 20,
        ALWAYS, ALWAYS, 21, 5, 7, 9, 11, 13, 15, 17, 19, ALWAYS, ALWAYS,
        /* 167..294: a natural card with a joker */
        22, 21, 4, 5, 6, 5, 7, 8, 7, 9, 10, 9, 11,
        12, 11, 13, 14, 13, 15, 16, 15, 17, 18, 17, 19, 20,
        21, 19, ALWAYS, ALWAYS, ALWAYS, ALWAYS, 22, 21, 4, 5, 6, 5, 7,
        8, 7, 9, 10, 9, 11, 12, 11, 13, 14, 13, 15, 16,
        15, 17, 18, 17, 19, 20, 21, 19, ALWAYS, ALWAYS, ALWAYS, ALWAYS, 22,
        21, 4, 5, 6, 5, 7, 8, 7, 9, 10, 9, 11, 12,
        11, 13, 14, 13, 15, 16, 15, 17, 18, 17, 19, 20, 21,
        19, ALWAYS, ALWAYS, ALWAYS, ALWAYS, 22, 21, 4, 5, 6, 5, 7, 8,
        7, 9, 10, 9, 11, 12, 11, 13, 14, 13, 15, 16, 15,
        17, 18, 17, 19, 20, 21, 19, ALWAYS, ALWAYS, ALWAYS, ALWAYS,
        /* 295..315: two jokers as 2..22 */
        2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
        15, 16, 17, 18, 19, 20, 21, 22,
        /* 316..319: four kings, take, refill, end_turn */
        ALWAYS, ALWAYS, ALWAYS, ALWAYS,
    },
    {   /* 2 players: no queens */
        /* 0..51: one natural card */
        11, 2, 3, 4, 5, 6, 7, 8, 9, 10, ALWAYS, ALWAYS, ALWAYS,
        11, 2, 3, 4, 5, 6, 7, 8, 9, 10, ALWAYS, ALWAYS, ALWAYS,
        11, 2, 3, 4, 5, 6, 7, 8, 9, 10, ALWAYS, ALWAYS, ALWAYS,
        11, 2, 3, 4, 5, 6, 7, 8, 9, 10, ALWAYS, ALWAYS, ALWAYS,
        /* 52..62: a lone joker as 1..11 */
        1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11,
        /* 63..166: two natural cards */
        21, 22, 22, 22, 5, 4, 4, 4, 7, 6, 6, 6, 9,
        8, 8, 8, 11, 10, 10, 10, 13, 12, 12, 12, 15, 14,
        14, 14, 17, 16, 16, 16, 19, 18, 18, 18, 20, 20, 20,
        ALWAYS, ALWAYS, 21, 22, 22, 5, 4, 4, 7, 6, 6, 9, 8,
        8, 11, 10, 10, 13, 12, 12, 15, 14, 14, 17, 16, 16,
        19, 18, 18, 20, 20, ALWAYS, ALWAYS, 21, 22, 5, 4, 7, 6,
        9, 8, 11, 10, 13, 12, 15, 14, 17, 16, 19, 18, 20,
        ALWAYS, ALWAYS, 21, 5, 7, 9, 11, 13, 15, 17, 19, ALWAYS, ALWAYS,
        /* 167..294: a natural card with a joker */
        22, 21, 4, 5, 6, 5, 7, 8, 7, 9, 10, 9, 11,
        12, 11, 13, 14, 13, 15, 16, 15, 17, 18, 17, 19, 20,
        21, 19, -1, ALWAYS, ALWAYS, -1, 22, 21, 4, 5, 6, 5, 7,
        8, 7, 9, 10, 9, 11, 12, 11, 13, 14, 13, 15, 16,
        15, 17, 18, 17, 19, 20, 21, 19, -1, ALWAYS, ALWAYS, -1, 22,
        21, 4, 5, 6, 5, 7, 8, 7, 9, 10, 9, 11, 12,
        11, 13, 14, 13, 15, 16, 15, 17, 18, 17, 19, 20, 21,
        19, -1, ALWAYS, ALWAYS, -1, 22, 21, 4, 5, 6, 5, 7, 8,
        7, 9, 10, 9, 11, 12, 11, 13, 14, 13, 15, 16, 15,
        17, 18, 17, 19, 20, 21, 19, -1, ALWAYS, ALWAYS, -1,
        /* 295..315: two jokers as 2..22 */
        2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14,
        15, 16, 17, 18, 19, 20, 21, 22,
        /* 316..319: four kings, take, refill, end_turn */
        ALWAYS, ALWAYS, ALWAYS, ALWAYS,
    }
};

/* Natural pair -> id, -1 if not a play (KS-4.2, KS-5.5, KS-5.6). */
static const int16_t PAIR_ID[52][52] = {
    {  /* AC */
        -1, -1, -1, -1, -1, -1, -1, -1, -1, 63, -1, -1, -1, 64, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        65, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 66, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1
    },
    {  /* 2C */
        -1, -1, 67, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 68, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, 69, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 70, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1
    },
    {  /* 3C */
        -1, 67, -1, 71, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 72, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, 73, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 74, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1
    },
    {  /* 4C */
        -1, -1, 71, -1, 75, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 76, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, 77, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 78, -1, -1, -1, -1, -1, -1, -1, -1, -1
    },
    {  /* 5C */
        -1, -1, -1, 75, -1, 79, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 80, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, 81, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 82, -1, -1, -1, -1, -1, -1, -1, -1
    },
    {  /* 6C */
        -1, -1, -1, -1, 79, -1, 83, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 84, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, 85, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 86, -1, -1, -1, -1, -1, -1, -1
    },
    {  /* 7C */
        -1, -1, -1, -1, -1, 83, -1, 87, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 88, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, 89, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 90, -1, -1, -1, -1, -1, -1
    },
    {  /* 8C */
        -1, -1, -1, -1, -1, -1, 87, -1, 91, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 92, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, 93, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 94, -1, -1, -1, -1, -1
    },
    {  /* 9C */
        -1, -1, -1, -1, -1, -1, -1, 91, -1, 95, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 96, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, -1, 97, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 98, -1, -1, -1, -1
    },
    {  /* 10C */
        63, -1, -1, -1, -1, -1, -1, -1, 95, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 99, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, -1, -1, 100, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 101, -1, -1, -1
    },
    {  /* JC */
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 102, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1
    },
    {  /* QC */
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 102, -1, 103, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1
    },
    {  /* KC */
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 103, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1
    },
    {  /* AS */
        64, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 104, -1, -1, -1,
        105, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 106, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1
    },
    {  /* 2S */
        -1, 68, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 107, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, 108, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 109, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1
    },
    {  /* 3S */
        -1, -1, 72, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 107, -1, 110, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, 111, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 112, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1
    },
    {  /* 4S */
        -1, -1, -1, 76, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 110, -1, 113, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, 114, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 115, -1, -1, -1, -1, -1, -1, -1, -1, -1
    },
    {  /* 5S */
        -1, -1, -1, -1, 80, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 113, -1, 116, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, 117, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 118, -1, -1, -1, -1, -1, -1, -1, -1
    },
    {  /* 6S */
        -1, -1, -1, -1, -1, 84, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 116, -1, 119, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, 120, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 121, -1, -1, -1, -1, -1, -1, -1
    },
    {  /* 7S */
        -1, -1, -1, -1, -1, -1, 88, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 119, -1, 122, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, 123, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 124, -1, -1, -1, -1, -1, -1
    },
    {  /* 8S */
        -1, -1, -1, -1, -1, -1, -1, 92, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 122, -1, 125, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, 126, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 127, -1, -1, -1, -1, -1
    },
    {  /* 9S */
        -1, -1, -1, -1, -1, -1, -1, -1, 96, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 125, -1, 128, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, -1, 129, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 130, -1, -1, -1, -1
    },
    {  /* 10S */
        -1, -1, -1, -1, -1, -1, -1, -1, -1, 99, -1, -1, -1, 104, -1, -1, -1, -1, -1, -1, -1, 128, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, -1, -1, 131, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 132, -1, -1, -1
    },
    {  /* JS */
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 133, -1,
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1
    },
    {  /* QS */
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 133, -1, 134,
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1
    },
    {  /* KS */
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 134, -1,
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1
    },
    {  /* AD */
        65, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 105, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, -1, -1, 135, -1, -1, -1, 136, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1
    },
    {  /* 2D */
        -1, 69, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 108, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, 137, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 138, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1
    },
    {  /* 3D */
        -1, -1, 73, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 111, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, 137, -1, 139, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 140, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1
    },
    {  /* 4D */
        -1, -1, -1, 77, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 114, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, 139, -1, 141, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 142, -1, -1, -1, -1, -1, -1, -1, -1, -1
    },
    {  /* 5D */
        -1, -1, -1, -1, 81, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 117, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, 141, -1, 143, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 144, -1, -1, -1, -1, -1, -1, -1, -1
    },
    {  /* 6D */
        -1, -1, -1, -1, -1, 85, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 120, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, 143, -1, 145, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 146, -1, -1, -1, -1, -1, -1, -1
    },
    {  /* 7D */
        -1, -1, -1, -1, -1, -1, 89, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 123, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, 145, -1, 147, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 148, -1, -1, -1, -1, -1, -1
    },
    {  /* 8D */
        -1, -1, -1, -1, -1, -1, -1, 93, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 126, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, 147, -1, 149, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 150, -1, -1, -1, -1, -1
    },
    {  /* 9D */
        -1, -1, -1, -1, -1, -1, -1, -1, 97, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 129, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, 149, -1, 151, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 152, -1, -1, -1, -1
    },
    {  /* 10D */
        -1, -1, -1, -1, -1, -1, -1, -1, -1, 100, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 131, -1, -1, -1,
        135, -1, -1, -1, -1, -1, -1, -1, 151, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 153, -1, -1, -1
    },
    {  /* JD */
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 154, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1
    },
    {  /* QD */
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 154, -1, 155, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1
    },
    {  /* KD */
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 155, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1
    },
    {  /* AH */
        66, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 106, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        136, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 156, -1, -1, -1
    },
    {  /* 2H */
        -1, 70, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 109, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, 138, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 157, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1
    },
    {  /* 3H */
        -1, -1, 74, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 112, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, 140, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 157, -1, 158, -1, -1, -1, -1, -1, -1, -1, -1, -1
    },
    {  /* 4H */
        -1, -1, -1, 78, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 115, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, 142, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 158, -1, 159, -1, -1, -1, -1, -1, -1, -1, -1
    },
    {  /* 5H */
        -1, -1, -1, -1, 82, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 118, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, 144, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 159, -1, 160, -1, -1, -1, -1, -1, -1, -1
    },
    {  /* 6H */
        -1, -1, -1, -1, -1, 86, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 121, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, 146, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 160, -1, 161, -1, -1, -1, -1, -1, -1
    },
    {  /* 7H */
        -1, -1, -1, -1, -1, -1, 90, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 124, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, 148, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 161, -1, 162, -1, -1, -1, -1, -1
    },
    {  /* 8H */
        -1, -1, -1, -1, -1, -1, -1, 94, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 127, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, 150, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 162, -1, 163, -1, -1, -1, -1
    },
    {  /* 9H */
        -1, -1, -1, -1, -1, -1, -1, -1, 98, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 130, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, -1, 152, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 163, -1, 164, -1, -1, -1
    },
    {  /* 10H */
        -1, -1, -1, -1, -1, -1, -1, -1, -1, 101, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 132, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, -1, -1, 153, -1, -1, -1, 156, -1, -1, -1, -1, -1, -1, -1, 164, -1, -1, -1, -1
    },
    {  /* JH */
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 165, -1
    },
    {  /* QH */
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 165, -1, 166
    },
    {  /* KH */
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1,
        -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 166, -1
    }
};

/* The cards b with PAIR_ID[a][b] >= 0, as a mask. */
static const uint64_t PARTNERS[52] = {
    0x0008004002200ULL, 0x0010008004004ULL, 0x002001000800AULL, 0x0040020010014ULL,
    0x0080040020028ULL, 0x0100080040050ULL, 0x02001000800A0ULL, 0x0400200100140ULL,
    0x0800400200280ULL, 0x1000800400101ULL, 0x0000000000800ULL, 0x0000000001400ULL,
    0x0000000000800ULL, 0x0008004400001ULL, 0x0010008008002ULL, 0x0020010014004ULL,
    0x0040020028008ULL, 0x0080040050010ULL, 0x01000800A0020ULL, 0x0200100140040ULL,
    0x0400200280080ULL, 0x0800400500100ULL, 0x1000800202200ULL, 0x0000001000000ULL,
    0x0000002800000ULL, 0x0000001000000ULL, 0x0008800002001ULL, 0x0010010004002ULL,
    0x0020028008004ULL, 0x0040050010008ULL, 0x00800A0020010ULL, 0x0100140040020ULL,
    0x0200280080040ULL, 0x0400500100080ULL, 0x0800A00200100ULL, 0x1000404400200ULL,
    0x0002000000000ULL, 0x0005000000000ULL, 0x0002000000000ULL, 0x1000004002001ULL,
    0x0020008004002ULL, 0x0050010008004ULL, 0x00A0020010008ULL, 0x0140040020010ULL,
    0x0280080040020ULL, 0x0500100080040ULL, 0x0A00200100080ULL, 0x1400400200100ULL,
    0x0808800400200ULL, 0x4000000000000ULL, 0xA000000000000ULL, 0x4000000000000ULL,
};

/* The first joker+card id for a card, and how many there are (KS-4.4). */
static const int16_t JOKER_PAIR_FIRST[52] = {
    167, 169, 171, 174, 177, 180, 183, 186, 189, 192, 195, 196, 198,
    199, 201, 203, 206, 209, 212, 215, 218, 221, 224, 227, 228, 230,
    231, 233, 235, 238, 241, 244, 247, 250, 253, 256, 259, 260, 262,
    263, 265, 267, 270, 273, 276, 279, 282, 285, 288, 291, 292, 294,
};

static const int8_t JOKER_PAIR_COUNT[52] = {
    2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 1, 2, 1,
    2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 1, 2, 1,
    2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 1, 2, 1,
    2, 2, 3, 3, 3, 3, 3, 3, 3, 3, 1, 2, 1,
};

#undef ALWAYS

/* The derived tables agree with the action table (the asserts of the Cython build_table):
 * -1, else the first action id (or card id) where they do not. */
int ks_check_tables(void) {
    int i, a, b, v, two, first, n = 0;
    uint64_t partners;
    int32_t want;
    for (i = 0; i < KS_NUM_ACTIONS; i++) {
        for (two = 0; two < 2; two++) {
            if (KS_ACT_JOKER_IS_QUEEN[i] && two)               /* KS-4.4 Decision */
                want = -1;
            else if (KS_ACT_EFFECT[i] == KS_E_NUMBER)          /* KS-4.3 */
                want = KS_ACT_AMOUNT[i];
            else                                               /* KS-5: always allowed */
                want = INT32_MAX;
            if (STAKE_LIMIT[two][i] != want) return i;
        }
    }
    for (a = 0; a < 52; a++) {                                 /* natural pairs */
        partners = 0;
        for (b = 0; b < 52; b++) {
            i = PAIR_ID[a][b];
            if (i < 0) continue;
            partners |= card_bit(b);
            n += 1;
            if (i < KS_FIRST_NATURAL_PAIR || i >= KS_FIRST_JOKER_PAIR || KS_ACT_JOKERS[i] != 0
                || !((KS_ACT_CARD1[i] == a && KS_ACT_CARD2[i] == b)
                     || (KS_ACT_CARD1[i] == b && KS_ACT_CARD2[i] == a)))
                return i;
        }
        if (partners != PARTNERS[a]) return a;
    }
    if (n != 2 * (KS_FIRST_JOKER_PAIR - KS_FIRST_NATURAL_PAIR)) return KS_FIRST_NATURAL_PAIR;
    for (a = 0; a < 52; a++) {                                 /* a card with a joker */
        first = JOKER_PAIR_FIRST[a];
        for (i = first; i < first + JOKER_PAIR_COUNT[a]; i++)
            if (KS_ACT_CARD1[i] != a || KS_ACT_CARD2[i] >= 0 || KS_ACT_JOKERS[i] != 1) return i;
        if (a < 51 && first + JOKER_PAIR_COUNT[a] != JOKER_PAIR_FIRST[a + 1]) return a;
    }
    if (JOKER_PAIR_FIRST[0] != KS_FIRST_JOKER_PAIR
        || JOKER_PAIR_FIRST[51] + JOKER_PAIR_COUNT[51] != KS_FIRST_TWO_JOKERS)
        return KS_FIRST_JOKER_PAIR;
    /* legal_play_phase starts the joker runs at the first allowed value: each run's amounts
     * must be its values, ascending. */
    for (v = KS_JOKER_MIN_VALUE; v <= KS_JOKER_MAX_VALUE; v++) {
        i = KS_FIRST_JOKER_SINGLE + v - KS_JOKER_MIN_VALUE;
        if (KS_ACT_EFFECT[i] != KS_E_NUMBER || KS_ACT_AMOUNT[i] != v || KS_ACT_JOKER_IS_QUEEN[i])
            return i;
    }
    for (i = KS_FIRST_TWO_JOKERS; i < KS_A_FOUR_KINGS; i++)
        if (KS_ACT_EFFECT[i] != KS_E_NUMBER || KS_ACT_AMOUNT[i] != i - KS_FIRST_TWO_JOKERS + 2)
            return i;
    return -1;
}

/* ---------------------------------------------------------------- scoring (KS-9) */
/* Round points from the penalty-card counts; fewer is better. */
void ks_score_round(int players, const int *counts, int four_kings_player, int by_cards,
                    int32_t *out) {
    int p, q, worse, points;
    for (p = 0; p < players; p++) {
        if (p == four_kings_player) {          /* KS-9.3: the four-kings player scores 0 */
            out[p] = 0;
            continue;
        }
        if (by_cards) {                        /* KS-9.6: one card, one point */
            points = counts[p];
        } else if (counts[p] == 0) {           /* KS-9.1 */
            points = 0;
        } else {                               /* KS-9.2; ties share the lower rank. Decision: */
            worse = 0;                         /* the four-kings player is not ranked (KS-9.3) */
            for (q = 0; q < players; q++)
                if (q != four_kings_player && 0 < counts[q] && counts[q] < counts[p]) worse += 1;
            points = 1 + worse;
        }
        if (four_kings_player >= 0)            /* KS-9.3: everyone else one point more */
            points += 1;
        out[p] = points;
    }
}

/* ---------------------------------------------------------------- the deal plan (KS-3.1) */
/* Where deck position `position` (0 = top) goes: a seat's hand, or -1 for the stock. Four
 * cards each, one at a time, starting with the round's first player. */
int ks_deal_seat(int players, int first, int position) {
    if (position < KS_HAND_SIZE * players) return (first + position % players) % players;
    return -1;
}

static inline int deal_seat(int players, int first, int position) {
    return ks_deal_seat(players, first, position);
}

/* KS-3.1: shuffle (unless stacked), 4 cards each one at a time from the first player. */
static void ks_deal(KSState *s) {
    uint8_t order[KS_FULL_DECK];
    int i, p, n = s->deck_size;
    deal_prologue(&s->h, s->deck, n, order);
    s->stock.size = 0;
    s->table.size = 0;
    s->discard.size = 0;
    for (p = 0; p < s->h.players; p++) {
        ms_clear(&s->hand[p]);
        s->penalty[p].size = 0;
    }
    i = n - 1;
    while (i >= 0) {                       /* bottom first, so that order[0] ends on top */
        p = deal_seat(s->h.players, s->h.dealer, i);
        if (p < 0)
            pile_push(&s->stock, order[i]);
        else
            ms_add(&s->hand[p], order[i]);
        i -= 1;
    }
    s->h.phase = KS_PH_PLAY;
    s->direction = 1;                      /* KS-3.3 */
    s->stake = 0;                          /* KS-3.4 */
    s->h.to_move = s->h.dealer;
    s->out_player = -1;
    s->final_owed = 0;
    s->four_kings_player = -1;
    s->last_player = -1;
    s->last_action = -1;
}

/* KS-3.2: the first player by option or by lot, then deal the first round. */
static void ks_start(void *state) {
    KSState *s = (KSState *)state;
    if (s->opt.first_player >= 0)
        s->h.dealer = s->opt.first_player;
    else
        s->h.dealer = (int32_t)rng_below(&s->h.rng, (uint32_t)s->h.players);
    ks_deal(s);
}

/* ---------------------------------------------------------------- legality (one function per phase) */
static inline int max_int(int a, int b) { return a > b ? a : b; }

static int legal_play_phase(const KSState *s, int32_t *out) {
    const Multiset *hand = &s->hand[s->h.to_move];
    /* KS-4.3 stake rule; specials (KS-5) always; KS-4.4 Decision on queens (STAKE_LIMIT). */
    const int32_t *limit = STAKE_LIMIT[s->h.players == 2];
    int stake = s->stake;
    uint64_t naturals = hand->plane[0] & ~card_bit(JOKER);
    uint64_t rest;
    int jokers = hand->count[JOKER];
    int n = 0, a, b, i, first, end;
    uint64_t m = naturals;
    /* Each candidate is written, then kept (n grows) only if the stake allows it: whether it
     * does is unpredictable, and a branch on it costs more than the write (out has room for
     * every id, ks_legal's capacity check). */
    while (m) {                                        /* singles, ascending ids */
        a = lowest_card(m);
        m &= m - 1;
        out[n] = a;
        n += stake <= limit[a];
    }
    if (jokers) {                  /* values 1..11 ascending: from the first the stake allows */
        for (i = KS_FIRST_JOKER_SINGLE + max_int(stake - KS_JOKER_MIN_VALUE, 0);
             i < KS_FIRST_NATURAL_PAIR; i++) {
            out[n] = i;
            n += 1;
        }
    }
    /* Natural pairs: ids grow with (lower card, higher card), the order of this scan (over
     * the higher cards that make a play with the lower one). */
    m = naturals;
    while (m) {
        a = lowest_card(m);
        m &= m - 1;
        rest = m & PARTNERS[a];
        while (rest) {
            b = lowest_card(rest);
            rest &= rest - 1;
            i = PAIR_ID[a][b];
            out[n] = i;
            n += stake <= limit[i];
        }
    }
    if (jokers) {
        m = naturals;
        while (m) {
            a = lowest_card(m);
            m &= m - 1;
            first = JOKER_PAIR_FIRST[a];
            end = first + JOKER_PAIR_COUNT[a];
            for (i = first; i < end; i++) {
                out[n] = i;
                n += stake <= limit[i];
            }
        }
    }
    if (jokers >= 2) {             /* pairs worth 2..22 ascending: from the first the stake allows */
        for (i = KS_FIRST_TWO_JOKERS + max_int(stake - 2, 0); i < KS_A_FOUR_KINGS; i++) {
            out[n] = i;
            n += 1;
        }
    }
    if ((naturals & rank_mask(R_KING)) && ms_count_rank(hand, R_KING) == 4) {   /* KS-5.7 */
        out[n] = KS_A_FOUR_KINGS;
        n += 1;
    }
    if (s->table.size > 0) {                           /* KS-6.1 */
        out[n] = KS_A_TAKE;
        n += 1;
    }
    return n;
}

static int ks_legal(void *state, int32_t *out, int capacity) {
    KSState *s = (KSState *)state;
    if (capacity < KS_NUM_ACTIONS)                     /* every id at once still fits */
        return -1;
    if (s->h.phase == KS_PH_PLAY) return legal_play_phase(s, out);
    if (s->h.phase == KS_PH_REFILL) {
        out[0] = KS_A_REFILL;
        out[1] = KS_A_END_TURN;
        return 2;
    }
    return 0;
}

/* ---------------------------------------------------------------- applying */
static void play(KSState *s, int p, int action);
static void move_table_to(KSState *s, Pile *pile);
static void refill(KSState *s, int p);
static void take(KSState *s, int p);
static void end_turn(KSState *s, int p);
static void go_out(KSState *s, int p);
static void advance(KSState *s, int p);
static void end_round(KSState *s);

static void ks_apply(void *state, int action) {
    KSState *s = (KSState *)state;
    int p = s->h.to_move;
    if (action != KS_A_REFILL && action != KS_A_END_TURN) {
        s->last_player = p;                /* the last play or take, for the view */
        s->last_action = action;
    }
    if (action == KS_A_TAKE) {
        take(s, p);
    } else if (action == KS_A_REFILL) {
        refill(s, p);
        end_turn(s, p);
    } else if (action == KS_A_END_TURN) {
        s->chip_holder = p;                /* KS-7.1: forgot to refill */
        end_turn(s, p);
    } else {
        play(s, p, action);
    }
}

static void play(KSState *s, int p, int action) {
    int c1 = KS_ACT_CARD1[action], c2 = KS_ACT_CARD2[action], k, njokers;
    int effect = KS_ACT_EFFECT[action], amount = KS_ACT_AMOUNT[action];
    int table_was_empty = s->table.size == 0;
    Multiset *hand = &s->hand[p];
    if (effect == KS_E_FOUR_KINGS) {
        for (k = 0; k < 4; k++) {
            ms_remove(hand, make_card(k, R_KING));
            pile_push(&s->table, make_card(k, R_KING));
        }
        s->four_kings_player = p;          /* KS-8.3: the round ends at once */
        end_round(s);
        return;
    }
    if (c1 >= 0) {
        ms_remove(hand, c1);
        pile_push(&s->table, c1);
    }
    if (c2 >= 0) {
        ms_remove(hand, c2);
        pile_push(&s->table, c2);
    }
    njokers = KS_ACT_JOKERS[action];
    for (k = 0; k < njokers; k++) {
        ms_remove(hand, JOKER);
        pile_push(&s->table, JOKER);
    }
    if (effect == KS_E_NUMBER) {           /* KS-4.3 */
        if (amount > s->stake)
            s->stake = amount;
        else if (amount == s->stake && s->stake > 0)
            s->stake *= 2;
    } else if (effect == KS_E_JACK) {      /* KS-5.1 */
        s->stake += KS_JACK_RAISE;
    } else if (effect == KS_E_QUEEN) {     /* KS-5.2 */
        s->direction = -s->direction;
    } else if (effect == KS_E_KING) {
        if (table_was_empty) {             /* KS-5.4 */
            s->stake = KS_KING_ON_EMPTY_STAKE;
        } else {                           /* KS-5.3: the table goes out of play */
            move_table_to(s, &s->discard);
            s->stake = 0;
        }
    } else if (effect == KS_E_KING_QUEEN) {    /* KS-5.5 */
        s->stake = 0;
        s->direction = -s->direction;
    } else if (effect == KS_E_QUEEN_JACK) {    /* KS-5.6 */
        s->direction = -s->direction;
        s->stake += KS_QUEEN_JACK_RAISE;
    }
    if (s->opt.manual_refill) {            /* KS-7.1: the player chooses */
        if (hand->total < KS_HAND_SIZE && s->stock.size > 0) {
            s->h.phase = KS_PH_REFILL;
            return;
        }
    } else {                               /* KS-4.5 */
        refill(s, p);
    }
    end_turn(s, p);
}

/* Move the whole table onto pile, keeping the cards in play order. */
static void move_table_to(KSState *s, Pile *pile) {
    int i, n = s->table.size;
    for (i = 0; i < n; i++) pile_push(pile, s->table.cards[i]);
    s->table.size = 0;
}

static void refill(KSState *s, int p) {
    while (s->hand[p].total < KS_HAND_SIZE && s->stock.size > 0)
        ms_add(&s->hand[p], pile_pop(&s->stock));
}

/* KS-6.2: the table goes to the taker's penalty pile; KS-6.3 / KS-8.2 what follows. */
static void take(KSState *s, int p) {
    move_table_to(s, &s->penalty[p]);
    s->stake = 0;
    if (s->out_player >= 0)                /* KS-8.2: a take in the final turns ends the round */
        end_round(s);
    /* else KS-6.3: the same player now leads onto the empty table (phase stays "play") */
}

/* Close p's turn, start the final turns when someone is out (KS-8.1), pass the turn. */
static void end_turn(KSState *s, int p) {
    s->h.phase = KS_PH_PLAY;
    if (s->out_player >= 0)
        s->final_owed &= ~(1 << p);
    else if (s->hand[p].total == 0 && s->stock.size == 0)
        go_out(s, p);
    advance(s, p);
}

static void go_out(KSState *s, int p) {
    int q;
    s->out_player = p;
    s->final_owed = 0;
    for (q = 0; q < s->h.players; q++)
        if (q != p && s->hand[q].total > 0) s->final_owed |= 1 << q;
}

/* Pass the turn in the current direction to the next seat that may move. */
static void advance(KSState *s, int p) {
    int q = p, steps, players;
    s->h.turns += 1;
    for (;;) {
        if (s->out_player >= 0 && s->final_owed == 0) {
            end_round(s);                  /* KS-8.1: everyone had a final turn */
            return;
        }
        players = s->h.players;
        for (steps = 0; steps < players; steps++) {
            q = (q + s->direction + s->h.players) % s->h.players;
            if (s->out_player < 0 || ((s->final_owed >> q) & 1)) break;
        }
        if (s->opt.manual_refill)
            refill(s, q);                  /* KS-7.2: a short hand is topped up first */
        if (s->hand[q].total > 0) {
            s->h.to_move = q;
            return;
        }
        /* Decision (KS-7.2): an empty hand with an empty stock at the start of a turn is out. */
        if (s->out_player < 0)
            go_out(s, q);
        else
            s->final_owed &= ~(1 << q);
    }
}

/* ---------------------------------------------------------------- the scoring breakdown (KS-9) */
/* The rows end_round writes as it scores, so that the round-end event shows the engine's own
 * figures. Indexes into the wrapper's BREAKDOWN_WHAT and BREAKDOWN_RULES. */
enum {
    W_PENALTY_CARDS = 0,
    W_CHIP = 1
};

enum {
    R_KS_9_1 = 0,
    R_KS_9_2 = 1,
    R_KS_9_3 = 2,
    R_KS_9_6 = 3,
    R_KS_7_3 = 4
};

/* The rule that scored a seat's penalty cards this round. */
static inline int penalty_rule(const KSState *s, int count) {
    if (s->four_kings_player >= 0) return s->opt.score_cards ? R_KS_9_6 : R_KS_9_3;
    if (s->opt.score_cards) return R_KS_9_6;
    return count == 0 ? R_KS_9_1 : R_KS_9_2;
}

static inline void add_row(KSState *s, int seat, int what, int rule, int count, int points) {
    BreakdownRow *row = &s->breakdown[s->breakdown_size];
    row->owner = seat;
    row->what = what;
    row->rule = rule;
    row->detail = -1;
    row->count = count;
    row->points = points;
    s->breakdown_size += 1;
}

static int ks_breakdown(const void *state, BreakdownRow *out, int capacity) {
    const KSState *s = (const KSState *)state;
    return copy_breakdown(s->breakdown, s->breakdown_size, out, capacity);
}

/* KS-8.4 leftovers to the discard, KS-9 scoring, then the next round or the end. */
static void end_round(KSState *s) {
    int p, q;
    int counts[KS_MAX_PLAYERS];
    for (p = 0; p < s->h.players; p++) {
        while (s->hand[p].total > 0) {
            q = lowest_card(s->hand[p].plane[0]);
            ms_remove(&s->hand[p], q);
            pile_push(&s->discard, q);
        }
    }
    move_table_to(s, &s->discard);
    for (p = 0; p < s->h.players; p++) counts[p] = s->penalty[p].size;
    ks_score_round(s->h.players, counts, s->four_kings_player, s->opt.score_cards, s->last_round);
    s->breakdown_size = 0;
    for (p = 0; p < s->h.players; p++) {
        s->total[p] += s->last_round[p];
        add_row(s, p, W_PENALTY_CARDS, penalty_rule(s, counts[p]), counts[p], s->last_round[p]);
    }
    s->h.round_index += 1;
    if (s->h.round_index >= s->opt.rounds_total) {
        if (s->chip_holder >= 0) {         /* KS-7.3 */
            s->total[s->chip_holder] += 1;
            add_row(s, s->chip_holder, W_CHIP, R_KS_7_3, 1, 1);
        }
        s->h.phase = KS_PH_OVER;
        s->h.to_move = -1;
        return;
    }
    s->h.dealer = (s->h.dealer + 1) % s->h.players;       /* KS-3.2 Decision */
    ks_deal(s);
}

/* ---------------------------------------------------------------- results (KS-9.4, KS-9.5) */
/* Penalty points shown for a seat: its own, or its team's with teams (KS-9.5). */
static inline int32_t seat_score(const KSState *s, int p) {
    if (s->opt.teams) return s->total[p] + s->total[(p + 2) % 4];
    return s->total[p];
}

/* Higher is better: minus the penalty points (a player's, or the team's). */
static void ks_returns(const void *state, double *out) {
    const KSState *s = (const KSState *)state;
    int p;
    for (p = 0; p < s->h.players; p++) out[p] = -(double)seat_score(s, p);
}

static void ks_scores(const void *state, int32_t *out) {
    const KSState *s = (const KSState *)state;
    int p;
    for (p = 0; p < s->h.players; p++) out[p] = seat_score(s, p);
}

/* ---------------------------------------------------------------- the per-seat projection */
static int ks_observation_size(const void *state) {
    (void)state;
    return KS_OBSERVATION_SIZE;
}

static inline void one_hot(float *out, int offset, int index, int none_index) {
    out[offset + (index >= 0 ? index : none_index)] = 1.0f;
}

static void add_pile(float *out, int offset, const Pile *pile) {
    int i;
    for (i = 0; i < pile->size; i++) out[offset + pile->cards[i]] += 1.0;
}

/* What `seat` sees: its own hand, every public zone, sizes of the hidden ones. */
static void ks_observe(const void *state, int seat, float *out) {
    const KSState *s = (const KSState *)state;
    int p, c;
    memset(out, 0, KS_OBSERVATION_SIZE * sizeof(float));
    out[KS_O_OBSERVER + seat] = 1.0f;
    if (s->h.to_move >= 0) out[KS_O_TO_MOVE + s->h.to_move] = 1.0f;
    out[KS_O_PHASE + s->h.phase] = 1.0f;
    for (c = 0; c < KS_NUM_IDS; c++) out[KS_O_HAND + c] = s->hand[seat].count[c];
    add_pile(out, KS_O_TABLE, &s->table);
    add_pile(out, KS_O_DISCARD, &s->discard);
    for (p = 0; p < s->h.players; p++) {
        out[KS_O_PENALTY_COUNTS + p] = (float)s->penalty[p].size;
        out[KS_O_HAND_SIZES + p] = (float)s->hand[p].total;
        out[KS_O_SCORES + p] = (float)seat_score(s, p);
        if ((s->final_owed >> p) & 1) out[KS_O_FINAL_OWED + p] = 1.0f;
    }
    out[KS_O_STAKE] = (float)s->stake;
    out[KS_O_DIRECTION] = (float)s->direction;
    out[KS_O_STOCK_SIZE] = (float)s->stock.size;
    one_hot(out, KS_O_CHIP_HOLDER, s->chip_holder, KS_SEATS);
    out[KS_O_ROUND] = (float)(s->h.round_index + (s->h.to_move < 0 ? 0 : 1));
    out[KS_O_ROUNDS] = (float)s->opt.rounds_total;
    out[KS_O_ROUND_FIRST + s->h.dealer] = 1.0f;
    one_hot(out, KS_O_OUT_PLAYER, s->out_player, KS_SEATS);
    one_hot(out, KS_O_LAST_PLAYER, s->last_player, KS_SEATS);
    if (s->last_action >= 0) out[KS_O_LAST_ACTION + s->last_action] = 1.0f;
    out[KS_O_TEAMS] = s->opt.teams ? 1.0f : 0.0f;
}

/* ---------------------------------------------------------------- the zones: who sees what */
enum {                      /* the zones, in ZONES order */
    Z_HAND = 0,             /* each seat's hand: its own (KS-3.1) */
    Z_STOCK = 1,            /* face down (KS-3.1) */
    Z_TABLE = 2,            /* the plays of the trick, face up (KS-4) */
    Z_DISCARD = 3,          /* out of play, face up (KS-5.3, KS-8.4) */
    Z_PENALTY = 4,          /* taken tables (KS-6.2): face down, but every card was on the table */
    NUM_ZONES = 5
};

static const ZoneSpec ZONES[NUM_ZONES] = {
    {"hand", ZONE_SEAT, 0, SEEN_BY_OWNER},
    {"stock", ZONE_SHARED, 0, SEEN_BY_NONE},
    {"table", ZONE_SHARED, 0, SEEN_BY_ALL},
    {"discard", ZONE_SHARED, 0, SEEN_BY_ALL},
    {"penalty", ZONE_SEAT, 0, SEEN_BY_ALL}
};

static int ks_zone_cards(const void *state, int zone, int instance, uint8_t *out) {
    const KSState *s = (const KSState *)state;
    if (zone == Z_HAND) return ms_to_array(&s->hand[instance], out);
    if (zone == Z_STOCK) return pile_copy(&s->stock, out);
    if (zone == Z_TABLE) return pile_copy(&s->table, out);
    if (zone == Z_DISCARD) return pile_copy(&s->discard, out);
    return pile_copy(&s->penalty[instance], out);
}

/* ---------------------------------------------------------------- determinization */
/* Redeal the zones ZONES hides from `seat`: the other hands and the stock. Everything played
 * is public and taken cards go to penalty piles (public), so no card of a hidden zone is
 * known: any arrangement of those cards with the same zone sizes is consistent, and a
 * shuffle draws one uniformly. The pool is shuffled from id order, so the world depends only
 * on what `seat` knows and on `rng`, never on where the hidden cards really are. */
static int ks_sample_hidden(void *state, int seat, Rng *rng) {
    KSState *s = (KSState *)state;
    uint8_t pool[KS_FULL_DECK];
    uint8_t count[NUM_KINDS];
    int32_t sizes[KS_MAX_PLAYERS];
    int p, k, c, end, n = 0;
    memset(count, 0, sizeof(count));
    for (p = 0; p < s->h.players; p++) {
        sizes[p] = s->hand[p].total;
        if (p != seat)
            for (c = 0; c < NUM_KINDS; c++) count[c] += s->hand[p].count[c];
    }
    for (k = 0; k < s->stock.size; k++) count[s->stock.cards[k]] += 1;
    for (c = 0; c < NUM_KINDS; c++) {
        end = count[c];
        for (k = 0; k < end; k++) {
            pool[n] = (uint8_t)c;
            n += 1;
        }
    }
    shuffle_u8(rng, pool, n);
    n = 0;
    for (p = 0; p < s->h.players; p++) {
        if (p != seat) {
            ms_clear(&s->hand[p]);
            end = sizes[p];
            for (k = 0; k < end; k++) {
                ms_add(&s->hand[p], pool[n]);
                n += 1;
            }
        }
    }
    end = s->stock.size;
    for (k = 0; k < end; k++) {
        s->stock.cards[k] = pool[n];
        n += 1;
    }
    return 0;
}

/* ---------------------------------------------------------------- GreedyBot's policy */
/* One move ahead on what the seat to move knows: the stake, the sizes of the table and the
 * stock, and the cards each legal play spends from its own hand. Every legal action gets a
 * value; the highest wins, ties (within 1e-9) broken with one draw (best_by_value). These
 * weights are the policy's one source; greedy.py's docstring documents them. Tuned by
 * self-play (2,000-game matches, a variant against the previous weights in alternate seats):
 * keeping jokers, kings, aces and tens mattered most. */
static const double G_TAKE_BASE = 6.0;            /* KS-6: the first penalty card turns a 0-point round into >= 1 */
static const double G_TAKE_PER_CARD = 3.0;        /* ... and every card taken costs */
static const double G_REFILL = 1.0;               /* KS-7.3: forgetting to refill costs a penalty point */
static const double G_END_TURN = -1.0;
static const double G_FOUR_KINGS = 1000.0;        /* KS-5.7: always */
static const double G_PRESSURE_PER_POINT = 0.25;  /* KS-4.3: stake points the next player has to meet */
enum { G_UNANSWERABLE = 22 };                     /* no number play is worth more (A+A or two jokers) */
static const double G_UNANSWERABLE_BONUS = 4.0;   /* KS-5: above it only specials answer */
static const double G_CLEAR_PER_CARD = 2.0;       /* KS-5.3: a king sends the table out of play */
static const double G_SHED_PER_CARD = 2.5;        /* KS-8.1: stock empty, every card played brings going out closer */

/* What keeping a card is worth, per card id (the Cython build_greedy_keep). Per suit A..K: the
 * ace 5 and the ten 3.5 (they answer high stakes), 2..9 a tenth of the pip value, the jack 2,
 * the queen 3.5, a king 10 (it clears a full table, KS-5.3); the joker 14, the emergency exit. */
#define KEEP_SUIT 5.0, 0.1 * 2, 0.1 * 3, 0.1 * 4, 0.1 * 5, 0.1 * 6, 0.1 * 7, 0.1 * 8, 0.1 * 9, \
                  3.5, 2.0, 3.5, 10.0
static const double G_KEEP[NUM_KINDS] = {KEEP_SUIT, KEEP_SUIT, KEEP_SUIT, KEEP_SUIT, 14.0};
#undef KEEP_SUIT

static inline int min_int(int a, int b) { return a < b ? a : b; }

/* The pressure a stake puts on the next player (KS-4.3, KS-5). */
static inline double greedy_pressure(int stake) {
    return G_PRESSURE_PER_POINT * min_int(stake, G_UNANSWERABLE)
           + (stake > G_UNANSWERABLE ? G_UNANSWERABLE_BONUS : 0.0);
}

/* The value of one legal action (higher is better), from public counters and the cards the
 * action spends. */
static double greedy_value(int action, int stake, int table_size, int stock_size) {
    int effect = KS_ACT_EFFECT[action], amount = KS_ACT_AMOUNT[action], after, k, njokers;
    int cards = 0;
    double value, cost = 0.0;
    if (action == KS_A_TAKE)                                  /* KS-6 */
        return -(G_TAKE_BASE + G_TAKE_PER_CARD * table_size);
    if (action == KS_A_REFILL)                                /* KS-7.1 */
        return G_REFILL;
    if (action == KS_A_END_TURN) return G_END_TURN;
    if (effect == KS_E_FOUR_KINGS)                            /* KS-5.7 */
        return G_FOUR_KINGS;
    if (effect == KS_E_NUMBER) {                              /* KS-4.3 */
        if (amount > stake)
            after = amount;
        else if (amount == stake && stake > 0)
            after = 2 * stake;
        else
            after = stake;
        value = greedy_pressure(after);
    } else if (effect == KS_E_JACK) {                         /* KS-5.1 */
        value = greedy_pressure(stake + KS_JACK_RAISE);
    } else if (effect == KS_E_QUEEN) {                        /* KS-5.2 */
        value = greedy_pressure(stake);
    } else if (effect == KS_E_QUEEN_JACK) {                   /* KS-5.6 */
        value = greedy_pressure(stake + KS_QUEEN_JACK_RAISE);
    } else if (effect == KS_E_KING) {                         /* KS-5.4 / KS-5.3 */
        value = table_size == 0 ? greedy_pressure(KS_KING_ON_EMPTY_STAKE)
                                : G_CLEAR_PER_CARD * table_size;
    } else {                                                  /* KS-5.5: stake 0, the table stays */
        value = 0.0;
    }
    /* the cards spent, naturals first, then the jokers (the order of the action's cards) */
    if (KS_ACT_CARD1[action] >= 0) {
        cost += G_KEEP[KS_ACT_CARD1[action]];
        cards += 1;
    }
    if (KS_ACT_CARD2[action] >= 0) {
        cost += G_KEEP[KS_ACT_CARD2[action]];
        cards += 1;
    }
    njokers = KS_ACT_JOKERS[action];
    for (k = 0; k < njokers; k++) {
        cost += G_KEEP[JOKER];
        cards += 1;
    }
    value -= cost;
    if (stock_size == 0)                                      /* KS-8.1 */
        value += G_SHED_PER_CARD * cards;
    return value;
}

/* GreedyBot's move (the index into legal[0:n]): reads the stake, the table's and the stock's
 * sizes and the legal actions (which spend the seat's own cards), nothing hidden. */
static int ks_greedy(const void *state, const int32_t *legal, int n, Rng *rng) {
    const KSState *s = (const KSState *)state;
    double values[KS_NUM_ACTIONS];
    int32_t ties[KS_NUM_ACTIONS];
    int k;
    if (n == 1) return 0;
    for (k = 0; k < n; k++) values[k] = greedy_value(legal[k], s->stake, s->table.size, s->stock.size);
    return best_by_value(values, n, rng, ties);
}

/* Random play with this game's hooks called directly (kernel.h, play_loop). */
static long long ks_play(void *s, Rng *chooser, int32_t *scratch, long long max_actions) {
    return play_loop(s, &KS_HOOKS, chooser, scratch, max_actions);
}

/* ---------------------------------------------------------------- refusals */
/* Why an id is not legal now: reasons index words.REFUSALS (the texts stay in Python). */
enum {
    R_REFILL_FIRST = 0, R_REFILL_MANUAL, R_NOTHING_TO_TAKE, R_FOUR_KINGS, R_NOT_HELD,
    R_JOKERS_NOT_HELD, R_NO_QUEENS, R_BELOW_STAKE, NUM_REFUSALS
};

static int ks_refuse(const void *state, int32_t action, Refusal *out) {
    const KSState *s = (const KSState *)state;
    const Multiset *hand = &s->hand[s->h.to_move];
    int k, c;
    if (s->h.phase == KS_PH_REFILL) return refuse0(out, R_REFILL_FIRST, "KS-7.1");
    if (action == KS_A_REFILL || action == KS_A_END_TURN)
        return refuse0(out, R_REFILL_MANUAL, "KS-7.1");
    if (action == KS_A_TAKE) return refuse0(out, R_NOTHING_TO_TAKE, "KS-6.1");
    if (action == KS_A_FOUR_KINGS) return refuse0(out, R_FOUR_KINGS, "KS-5.7");
    for (k = 0; k < 2; k++) {
        c = k == 0 ? KS_ACT_CARD1[action] : KS_ACT_CARD2[action];
        if (c >= 0 && ms_count(hand, c) == 0) return refuse1(out, R_NOT_HELD, "KS-4", c);
    }
    if (ms_count(hand, JOKER) < KS_ACT_JOKERS[action])
        return refuse1(out, R_JOKERS_NOT_HELD, "KS-4.4", KS_ACT_JOKERS[action]);
    if (KS_ACT_JOKER_IS_QUEEN[action] && s->h.players == 2)
        return refuse0(out, R_NO_QUEENS, "KS-4.4");
    return refuse2(out, R_BELOW_STAKE, "KS-4.3", KS_ACT_AMOUNT[action], s->stake);
}

const GameHooks KS_HOOKS = {
    GAME_HOOKS_HEAD,
    .name = "kings_stakes",
    .state_size = sizeof(KSState),
    .num_actions = KS_NUM_ACTIONS,
    .max_legal = KS_NUM_ACTIONS,
    .start = ks_start,
    .legal = ks_legal,
    .apply = ks_apply,
    .observation_size = ks_observation_size,
    .observe = ks_observe,
    .returns = ks_returns,
    .scores = ks_scores,
    .sample_hidden = ks_sample_hidden,
    .rollout = NULL,
    .zones = ZONES,
    .num_zones = NUM_ZONES,
    .zone_cards = ks_zone_cards,
    .known_cards = NULL,
    .breakdown = ks_breakdown,
    .greedy = ks_greedy,
    .hand_cards = NULL,
    .play = ks_play,
    .refuse = ks_refuse,
    .num_refusals = NUM_REFUSALS
};

/* ---------------------------------------------------------------- the game for the C ABI */
/* The deck (KS-1.1 one deck and two jokers; KS-1.2 without the queens for 2 players), in id
 * order; how many cards. */
static int ks_deck(int players, uint8_t *out) {
    int suit, rank, n = 0;
    for (suit = 0; suit < NUM_SUITS; suit++)
        for (rank = 0; rank < NUM_RANKS; rank++)
            if (!(players == 2 && rank == R_QUEEN)) out[n++] = (uint8_t)make_card(suit, rank);
    out[n++] = JOKER;
    out[n++] = JOKER;
    return n;
}

int ks_composition(const void *state, uint8_t *out) {
    const KSState *s = (const KSState *)state;
    return ks_deck(s->h.players, out);
}

/* The Python options_spec of KingsStakes (cardcore/games/kings_stakes/__init__.py), in order. */
static const char *const REFILL_CHOICES[] = {"auto", "manual"};
static const char *const SCORING_CHOICES[] = {"rank", "cards"};

static const OptionSpec KS_OPTIONS[KS_NUM_OPTIONS] = {
    /* seat that starts round 1; None draws it by lot */
    {.name = "first_player", .kind = OPT_SEAT_OR_LOT, .rule = "KS-3.2", .dflt = OPTION_NONE,
     .lo = 0, .hi = 0, .allow_none = 1, .choices = NULL, .num_choices = 0, .players_mask = 0},
    /* rounds in the match, a multiple of the players (at most 120); None: one per player */
    {.name = "rounds", .kind = OPT_PLAYERS_MULTIPLE, .rule = "KS-9.4", .dflt = OPTION_NONE,
     .lo = 0, .hi = 120, .allow_none = 1, .choices = NULL, .num_choices = 0, .players_mask = 0},
    /* partners sit opposite (4 players) */
    {.name = "teams", .kind = OPT_FLAG, .rule = "KS-9.5", .dflt = 0, .lo = 0, .hi = 1,
     .allow_none = 0, .choices = NULL, .num_choices = 0, .players_mask = 1u << 4},
    /* 'auto': refill to 4 after a play; 'manual': refill or end the turn, else the forget-me chip */
    {.name = "refill", .kind = OPT_CHOICE, .rule = "KS-4.5, KS-7", .dflt = 0, .lo = 0, .hi = 0,
     .allow_none = 0, .choices = REFILL_CHOICES, .num_choices = 2, .players_mask = 0},
    /* 'rank': points by place in penalty cards (KS-9.2); 'cards': a point per penalty card (KS-9.6) */
    {.name = "scoring", .kind = OPT_CHOICE, .rule = "KS-9.2, KS-9.6", .dflt = 0, .lo = 0, .hi = 0,
     .allow_none = 0, .choices = SCORING_CHOICES, .num_choices = 2, .players_mask = 0}
};

/* What the Python state's __init__ does to a zeroed struct (the header's stacked deck aside):
 * the seats, the resolved options, the composition, no round yet, the chip in the box. */
int ks_init(void *state, int players, const int64_t *values) {
    KSState *s = (KSState *)state;
    int64_t first_player = values[KS_OPT_FIRST_PLAYER], rounds = values[KS_OPT_ROUNDS];
    int k;
    if (players < 2 || players > KS_MAX_PLAYERS) return -1;
    if (first_player == OPTION_NONE)
        first_player = -1;                     /* KS-3.2: drawn by lot */
    else if (first_player < 0 || first_player >= players)
        return -1;
    if (rounds == OPTION_NONE) rounds = players;   /* KS-9.4: one per player */
    if (rounds < 1 || rounds > INT32_MAX) return -1;
    for (k = KS_OPT_TEAMS; k <= KS_OPT_SCORING; k++)
        if (values[k] != 0 && values[k] != 1) return -1;
    s->h.players = players;
    s->h.to_move = -1;
    s->opt.manual_refill = values[KS_OPT_REFILL] == 1;
    s->opt.teams = values[KS_OPT_TEAMS] == 1;
    s->opt.score_cards = values[KS_OPT_SCORING] == 1;
    s->opt.rounds_total = (int32_t)rounds;
    s->opt.first_player = (int32_t)first_player;
    s->deck_size = ks_deck(players, s->deck);
    s->h.phase = KS_PH_OVER;
    s->chip_holder = -1;                       /* KS-1.3: the chip starts in the box */
    return 0;
}

/* ---------------------------------------------------------------- action labels */
/* The card a joker played with a natural card stands for (KS-4.4), or -1 when it takes the
 * natural card's rank ("same"). */
static int joker_stands_for(int action) {
    int c = KS_ACT_CARD1[action], w = card_value(c), pv, r = card_rank(c);
    if (KS_ACT_EFFECT[action] == KS_E_NUMBER) {
        if (KS_ACT_AMOUNT[action] == 2 * w) return -1;
        pv = KS_ACT_AMOUNT[action] - w;        /* the adjacent number of the suit */
        return make_card(card_suit(c), pv == 11 ? R_ACE : pv - 1);
    }
    if (KS_ACT_EFFECT[action] == KS_E_KING_QUEEN)
        return make_card(card_suit(c), r == R_KING ? R_QUEEN : R_KING);
    return make_card(card_suit(c), r == R_JACK ? R_QUEEN : R_JACK);    /* KS_E_QUEEN_JACK */
}

/* str(action): "play 7H", "play 7H 7S", "play JK=9", "play 5H JK=4H", "play 5H JK=5",
 * "play JK=5 JK=6", "play KC KS KD KH", "take", "refill", "end_turn" (the labels of the
 * Python _describe). The label does not depend on the state; -1 for an id out of range. */
int ks_action_label(const void *state, int action, char *buf, size_t len) {
    Label t = label_start(buf, len);
    int c1, c2, jokers, amount, k, stands;
    (void)state;
    if (action < 0 || action >= KS_NUM_ACTIONS) {
        if (len > 0) buf[0] = '\0';
        return -1;
    }
    if (action == KS_A_TAKE) {
        label_put(&t, "take");
    } else if (action == KS_A_REFILL) {
        label_put(&t, "refill");
    } else if (action == KS_A_END_TURN) {
        label_put(&t, "end_turn");
    } else {
        label_put(&t, "play");
        c1 = KS_ACT_CARD1[action];
        c2 = KS_ACT_CARD2[action];
        jokers = KS_ACT_JOKERS[action];
        amount = KS_ACT_AMOUNT[action];
        if (KS_ACT_EFFECT[action] == KS_E_FOUR_KINGS) {
            for (k = 0; k < NUM_SUITS; k++) {
                label_char(&t, ' ');
                label_card(&t, make_card(k, R_KING));
            }
        }
        if (c1 >= 0) {
            label_char(&t, ' ');
            label_card(&t, c1);
        }
        if (c2 >= 0) {
            label_char(&t, ' ');
            label_card(&t, c2);
        }
        if (jokers == 1 && c1 < 0) {           /* a lone joker names its value */
            label_put(&t, " JK=");
            label_int(&t, amount);
        } else if (jokers == 1) {              /* the joker stands for a card, or the same rank */
            label_put(&t, " JK=");
            stands = joker_stands_for(action);
            if (stands < 0)
                label_rank(&t, card_rank(c1));
            else
                label_card(&t, stands);
        } else if (jokers == 2) {              /* two jokers: values (v // 2, v - v // 2) */
            label_put(&t, " JK=");
            label_int(&t, amount / 2);
            label_put(&t, " JK=");
            label_int(&t, amount - amount / 2);
        }
    }
    return label_end(&t);
}

const GameKernel KS_KERNEL = {
    &KS_HOOKS, KS_OPTIONS, KS_NUM_OPTIONS, 2, KS_MAX_PLAYERS, 4, ks_init, ks_action_label,
    KS_FULL_DECK, ks_composition
};
