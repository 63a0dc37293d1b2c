/* Kings' Stakes's kernel (rules: games/kings_stakes.md, rule IDs KS-x.y): the state struct,
 * the rule constants, the action ids and the hook table, in C99 over cardcore/core/kernel.h.
 * The Python extension (_state.pyx), the native library and WebAssembly build the same
 * kernel.c. Every name here carries the game's prefix (KS_ / ks_): all the games' kernels
 * are linked into one library.
 *
 * Action space (the same 320 ids for every configuration; pinned by
 * tests/test_kings_stakes_actions.py):
 *     0..51     play one natural card (id = card id)                       KS-4.1, KS-5.1..5.4
 *     52..62    play a joker alone as value 1..11                          KS-4.4
 *     63..166   play two natural cards: same-rank numbers, same-suit       KS-4.2, KS-5.5, KS-5.6
 *               adjacent numbers, K+Q or Q+J of a suit; ordered by (lower id, higher id)
 *     167..294  play a natural card with a joker, one id per meaning of    KS-4.4
 *               the joker, ordered by the natural card's id
 *     295..315  play both jokers as a pair worth 2..22                     KS-4.4
 *     316       play four kings                                            KS-5.7
 *     317       take the table                                             KS-6
 *     318       refill (refill="manual")                                   KS-7.1
 *     319       end the turn without refilling (refill="manual")           KS-7.1
 */
#ifndef CARDCORE_GAMES_KINGS_STAKES_KERNEL_H
#define CARDCORE_GAMES_KINGS_STAKES_KERNEL_H

#include "cardcore/core/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- rule constants */
enum {
    KS_HAND_SIZE = 4,             /* KS-3.1, KS-4.5: deal and refill up to 4 */
    KS_FULL_DECK = 54,            /* KS-1.1 (50 with 2 players, KS-1.2) */
    KS_MAX_PLAYERS = 6,           /* KS-1.4 */
    KS_KING_ON_EMPTY_STAKE = 15,  /* KS-5.4 */
    KS_QUEEN_JACK_RAISE = 10,     /* KS-5.6 */
    KS_JACK_RAISE = 1,            /* KS-5.1 */
    KS_JOKER_MIN_VALUE = 1,       /* KS-4.4: a lone joker names a value 1..11 */
    KS_JOKER_MAX_VALUE = 11
};

/* ---------------------------------------------------------------- action table */
enum {
    KS_NUM_ACTIONS = 320,
    KS_FIRST_JOKER_SINGLE = 52,
    KS_FIRST_NATURAL_PAIR = 63,
    KS_FIRST_JOKER_PAIR = 167,
    KS_FIRST_TWO_JOKERS = 295,
    KS_A_FOUR_KINGS = 316,
    KS_A_TAKE = 317,
    KS_A_REFILL = 318,
    KS_A_END_TURN = 319
};

/* What a play does (KS-4.3 for numbers, KS-5 for the specials). */
typedef enum KSEffect {
    KS_E_NONE = 0,           /* take / refill / end_turn */
    KS_E_NUMBER = 1,         /* KS-4.1, KS-4.2: amount against the stake */
    KS_E_JACK = 2,           /* KS-5.1 */
    KS_E_QUEEN = 3,          /* KS-5.2 */
    KS_E_KING = 4,           /* KS-5.3 / KS-5.4 */
    KS_E_KING_QUEEN = 5,     /* KS-5.5 */
    KS_E_QUEEN_JACK = 6,     /* KS-5.6 */
    KS_E_FOUR_KINGS = 7      /* KS-5.7 */
} KSEffect;

/* Per action id (the wrapper's action_table() is checked against them at import). */
extern const int8_t KS_ACT_CARD1[KS_NUM_ACTIONS];        /* natural card played, or -1 */
extern const int8_t KS_ACT_CARD2[KS_NUM_ACTIONS];        /* second natural card, or -1 */
extern const int8_t KS_ACT_JOKERS[KS_NUM_ACTIONS];       /* jokers played (0..2) */
extern const int8_t KS_ACT_EFFECT[KS_NUM_ACTIONS];       /* a KSEffect */
extern const int8_t KS_ACT_AMOUNT[KS_NUM_ACTIONS];       /* the amount of a number play */
extern const uint8_t KS_ACT_JOKER_IS_QUEEN[KS_NUM_ACTIONS];   /* KS-4.4 Decision: impossible without queens */

/* ---------------------------------------------------------------- the state */
typedef enum KSPhase {
    KS_PH_PLAY = 0,          /* KS-4 / KS-6: play or take */
    KS_PH_REFILL = 1,        /* KS-7.1: refill or end the turn (refill="manual") */
    KS_PH_OVER = 2
} KSPhase;

typedef struct KSOptions {   /* the resolved options (defaults: the wrapper's options_spec) */
    int manual_refill;       /* refill="manual" (KS-7.1) */
    int teams;               /* KS-9.5 */
    int score_cards;         /* scoring="cards" (KS-9.6) */
    int32_t rounds_total;    /* KS-9.4 */
    int32_t first_player;    /* KS-3.2: a seat, or -1 to draw by lot */
} KSOptions;

typedef struct KSState {
    Header h;                        /* players, phase, to_move, round_index, dealer (KS-3.2), rng */
    KSOptions opt;
    int32_t deck_size;
    uint8_t deck[KS_FULL_DECK];      /* the composition, id order (KS-1.1, KS-1.2) */
    int32_t direction, stake;
    Multiset hand[KS_MAX_PLAYERS];
    Pile stock, table, discard;
    Pile penalty[KS_MAX_PLAYERS];    /* KS-6.2 */
    int32_t out_player;              /* KS-8.1: the first player out, -1 before */
    int32_t final_owed;              /* bitmask of players still owed their final turn */
    int32_t four_kings_player;       /* KS-8.3, -1 if none */
    int32_t chip_holder;             /* KS-7, -1 = in the box */
    int32_t last_round[KS_MAX_PLAYERS];   /* points of the last finished round (KS-9) */
    int32_t total[KS_MAX_PLAYERS];   /* per player, KS-7.3 included at the end */
    int32_t last_player;             /* who made the last play or take (for the view) */
    int32_t last_action;
    int32_t breakdown_size;          /* the last finished round's scoring rows (KS-9) */
    BreakdownRow breakdown[KS_MAX_PLAYERS + 1];
} KSState;

/* The options, in the order of the Python options_spec (ks_init's values). */
enum {
    KS_OPT_FIRST_PLAYER = 0,
    KS_OPT_ROUNDS = 1,
    KS_OPT_TEAMS = 2,
    KS_OPT_REFILL = 3,       /* choice: 0 "auto", 1 "manual" */
    KS_OPT_SCORING = 4,      /* choice: 0 "rank", 1 "cards" */
    KS_NUM_OPTIONS = 5
};

/* ---------------------------------------------------------------- the per-seat projection */
/* The observation: what view(seat) shows, as floats. Seats are absolute, padded to 6; counts
 * per card id (0..52). One source for the layout: these offsets (the wrapper's
 * OBSERVATION_PIECES names them). */
enum {
    KS_NUM_IDS = NUM_KINDS,
    KS_SEATS = KS_MAX_PLAYERS,
    KS_O_OBSERVER = 0,                                  /* one-hot: the seat observing */
    KS_O_TO_MOVE = KS_O_OBSERVER + KS_SEATS,            /* one-hot: the seat to move (none when over) */
    KS_O_PHASE = KS_O_TO_MOVE + KS_SEATS,               /* one-hot: play, refill, over */
    KS_O_HAND = KS_O_PHASE + 3,                         /* the observer's hand, count per card id */
    KS_O_TABLE = KS_O_HAND + KS_NUM_IDS,                /* the table, count per card id */
    KS_O_DISCARD = KS_O_TABLE + KS_NUM_IDS,             /* out of play (KS-5.3, KS-8.4) */
    KS_O_PENALTY_COUNTS = KS_O_DISCARD + KS_NUM_IDS,    /* penalty cards per seat (KS-6.2) */
    KS_O_HAND_SIZES = KS_O_PENALTY_COUNTS + KS_SEATS,
    KS_O_SCORES = KS_O_HAND_SIZES + KS_SEATS,           /* penalty points shown per seat (KS-9.4/9.5) */
    KS_O_STAKE = KS_O_SCORES + KS_SEATS,
    KS_O_DIRECTION = KS_O_STAKE + 1,                    /* +1 clockwise, -1 counter-clockwise */
    KS_O_STOCK_SIZE = KS_O_DIRECTION + 1,
    KS_O_CHIP_HOLDER = KS_O_STOCK_SIZE + 1,             /* one-hot seat, last = in the box (KS-7) */
    KS_O_ROUND = KS_O_CHIP_HOLDER + KS_SEATS + 1,       /* the round being played, 1-based */
    KS_O_ROUNDS = KS_O_ROUND + 1,
    KS_O_ROUND_FIRST = KS_O_ROUNDS + 1,                 /* one-hot: the round's first player */
    KS_O_OUT_PLAYER = KS_O_ROUND_FIRST + KS_SEATS,      /* one-hot seat, last = nobody out yet */
    KS_O_FINAL_OWED = KS_O_OUT_PLAYER + KS_SEATS + 1,   /* 1 for each seat owed a final turn (KS-8.1) */
    KS_O_LAST_PLAYER = KS_O_FINAL_OWED + KS_SEATS,      /* one-hot seat, last = none this round */
    KS_O_LAST_ACTION = KS_O_LAST_PLAYER + KS_SEATS + 1, /* one-hot action id of the last play or take */
    KS_O_TEAMS = KS_O_LAST_ACTION + KS_NUM_ACTIONS,     /* 1 when partners sit opposite (KS-9.5) */
    KS_OBSERVATION_SIZE = KS_O_TEAMS + 1
};

/* ---------------------------------------------------------------- the hooks and the C ABI */
extern const GameHooks KS_HOOKS;
extern const GameKernel KS_KERNEL;

int ks_init(void *state, int players, const int64_t *values);
int ks_action_label(const void *state, int action, char *buf, size_t len);
int ks_composition(const void *state, uint8_t *out);

/* What the Python wrapper calls directly. */
int ks_card_value(int card);                         /* KS-2.1 */
int ks_deal_seat(int players, int first, int position);   /* KS-3.1 */
void ks_score_round(int players, const int *counts, int four_kings_player, int by_cards,
                    int32_t *out);                   /* KS-9 */
int ks_check_tables(void);   /* -1 if the derived tables agree with the action table, else an id */

#ifdef __cplusplus
}
#endif
#endif /* CARDCORE_GAMES_KINGS_STAKES_KERNEL_H */
