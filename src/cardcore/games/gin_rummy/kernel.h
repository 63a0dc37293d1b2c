/* Gin Rummy's kernel in C (rules: games/gin_rummy.md, rule IDs GR-x.y), exactly as OpenSpiel's
 * ``gin_rummy`` plays it: the state struct, the rule constants and action ids, and the hook
 * table (GR_HOOKS) and ABI description (GR_KERNEL) that kernel.c defines.
 *
 * Cards inside this kernel are OpenSpiel's card indices, suit * 13 + rank with ranks A..K as
 * 0..12 and suits s c d h as 0..3, so that the action ids ARE the card indices and a hand is
 * one 64-bit mask. cardcore's own card ids (suit * 13 + rank, A = 0, suits C S D H) differ
 * only in the order of the first two suits: gr_card_id / gr_os_index (the one mapping).
 *
 * Action space (OpenSpiel's 241 ids in every configuration):
 *     0..51    the card with that index: discard it (GR-4.1, GR-6.2), lay it off (GR-7.1)
 *     52       draw the upcard                                     GR-3.1, GR-4.1
 *     53       draw from the stock                                 GR-3.2, GR-4.1
 *     54       pass                                                GR-3.1, GR-6.3, GR-7.1, GR-5.2;
 *              after a knock with eleven cards, keep them all: big gin  GR-6.4
 *     55       knock                                               GR-5.1, GR-5.2
 *     56..240  lay the meld with OpenSpiel's meld id (action - 56)  GR-6.3, GR-7.2
 *
 * Every name here carries the prefix GR_ / gr_: all the games' kernels link into one library.
 */
#ifndef CARDCORE_GR_KERNEL_H
#define CARDCORE_GR_KERNEL_H

#include "cardcore/core/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- rule constants */
enum {
    GR_PLAYERS = 2,                   /* GR-1.1 */
    GR_NUM_CARDS = 52,                /* GR-1.2 */
    GR_WALL = 2,                      /* GR-5.2: the stock never goes below two cards */
    GR_MAX_DRAW_UPCARD = 50,          /* GR-8.2: the 50th draw of an upcard ends the hand */
    GR_MAX_DEADWOOD = 98,             /* the dearest hand of ten without a meld (KKQQJJTT99) */
    GR_MAX_HAND_SIZE = 10,            /* GR-2.1 (the hand_size option's bound) */
    GR_MIN_HAND_SIZE = 2,
    GR_MAX_KNOCK_CARD = 10,           /* GR-5.1: OpenSpiel's tensor has ten places for it */
    GR_MAX_BONUS = 1000,
    GR_MAX_LAYOFF_LIMIT = 10,         /* GR-7.4: no end of a run takes more than ten cards */
    GR_MAX_MATCH_TO = 1000,           /* GR-11.1: the match_to option's bound */
    GR_GAME_BONUS = 100,              /* GR-11.3: pagat's game bonus */
    GR_BOX_BONUS = 25,                /* GR-11.3: pagat's box (line) bonus, per hand won */
    GR_MAX_HANDS = 50                 /* GR-11.5: a match ends after this many hands */
};

/* ---------------------------------------------------------------- action table */
enum {
    GR_A_DRAW_UPCARD = 52,
    GR_A_DRAW_STOCK = 53,
    GR_A_PASS = 54,
    GR_A_KNOCK = 55,
    GR_A_MELD = 56,                   /* + meld id */
    GR_NUM_MELDS = 185,               /* 65 of a rank, 44 runs of 3, 40 of 4, 36 of 5 */
    GR_NUM_ACTIONS = 241,
    GR_MAX_LEGAL = 241
};

/* ---------------------------------------------------------------- the state */
enum {
    GR_PH_FIRST_UPCARD = 0,  /* GR-3: the first upcard, offered to each player once */
    GR_PH_DRAW = 1,          /* GR-4.1: draw the upcard or from the stock */
    GR_PH_DISCARD = 2,       /* GR-4.1, GR-5.1: discard or knock */
    GR_PH_KNOCK = 3,         /* GR-6: the knocker discards and lays melds */
    GR_PH_LAYOFF = 4,        /* GR-7: the other player lays off, then lays melds */
    GR_PH_WALL = 5,          /* GR-5.2: two cards left in the stock: knock or end */
    GR_PH_OVER = 6,
    GR_NUM_PHASES = 7
};

/* The zones, in the zone table's order. */
enum {
    GR_Z_HAND = 0,           /* each seat's hand: its own (GR-9.1) */
    GR_Z_STOCK = 1,          /* face down */
    GR_Z_UPCARD = 2,         /* the card that may be drawn, face up */
    GR_Z_DISCARD = 3,        /* cards out of play, face up */
    GR_Z_MELDS = 4,          /* each seat's laid melds and the cards it laid off, face up */
    GR_NUM_ZONES = 5
};

/* The observation's pieces, in the wrapper's OBS_NAMES order: OpenSpiel's eight, then ours. */
enum {
    GR_P_OS_PLAYER = 0,      /* 2 */
    GR_P_OS_HAND = 1,        /* 2 x 52: the observer's row only */
    GR_P_OS_TO_MOVE = 2,     /* 2 */
    GR_P_OS_KNOCK_CARD = 3,  /* 10: the first knock_card places set */
    GR_P_OS_UPCARD = 4,      /* 52 */
    GR_P_OS_DISCARD = 5,     /* 52 */
    GR_P_OS_STOCK_SIZE = 6,  /* 52: the first stock_size places set */
    GR_P_OS_MELDS = 7,       /* 2 x 185 */
    GR_P_PHASE = 8,          /* 7 */
    GR_P_LAYOFFS = 9,        /* 52 */
    GR_P_KNOWN = 10,         /* 52: the opponent's cards the observer saw it take */
    GR_P_PASSED = 11,        /* 2: passed on the first upcard */
    GR_P_KNOCKED = 12,       /* 2 */
    GR_P_SCORES = 13,        /* 2: the hand's points; in a match the totals (GR-11.2) */
    GR_P_TAKEN = 14,         /* 52: the card taken face up this turn (GR-4.2, GR-9.1) */
    GR_P_BIG_GIN = 15,       /* 1: the knocker keeps eleven cards (GR-6.4) */
    GR_P_HAND_NUMBER = 16,   /* 1: the hand being played, from 1 (GR-11.1) */
    GR_P_DEALER = 17,        /* 2: one-hot (GR-2.2, GR-11.4) */
    GR_P_HANDS_WON = 18,     /* 2: per seat (GR-11.3) */
    GR_NUM_PIECES = 19
};

enum {
    GR_ROW_NO_KNOCK = 0,     /* breakdown rows (the wrapper's BREAKDOWN_WHAT) */
    GR_ROW_DIFFERENCE = 1,
    GR_ROW_GIN = 2,
    GR_ROW_UNDERCUT = 3,
    GR_ROW_BIG_GIN = 4,
    GR_ROW_GAME = 5,         /* GR-11.3: the match's end */
    GR_ROW_BOX = 6,
    GR_ROW_SHUTOUT = 7,
    GR_MAX_ROWS = 8
};

/* The resolved options (defaults: the Python options_spec / GR_KERNEL's option table). */
typedef struct GROptions {
    int32_t knock_card;                /* GR-5.1 */
    int32_t gin_bonus;                 /* GR-8.1 */
    int32_t undercut_bonus;            /* GR-8.1 */
    int32_t hand_size;                 /* GR-2.1 */
    int oklahoma;                      /* GR-3.3 */
    /* pagat's standard readings (the defaults are OpenSpiel's) */
    int rediscard_upcard;              /* GR-4.2: 1 (OpenSpiel) may discard the upcard just taken */
    int32_t big_gin_bonus;             /* GR-6.4: 0 = no big gin (OpenSpiel) */
    int32_t layoff_limit;              /* GR-7.4: cards laid off at each end of a run (10: all) */
    int undercut_on_equal;             /* GR-8.5: 0 (OpenSpiel) an undercut needs less deadwood */
    int wall_knock;                    /* GR-5.3: 1 (OpenSpiel) the wall's knock (GR-5.2) is played */
    int32_t match_to;                  /* GR-11.1: 0 = one hand (OpenSpiel); pagat: 100 */
} GROptions;

typedef struct GRState {
    Header h;                          /* players, phase, to_move, round_index, dealer, rng */
    GROptions opt;
    int32_t knock_card;                /* in force (GR-3.3: the upcard's value under Oklahoma) */
    uint8_t deck[GR_NUM_CARDS];        /* the composition, cardcore ids in id order */
    uint64_t hand[GR_PLAYERS];         /* OpenSpiel indices, one bit each */
    uint64_t known[GR_PLAYERS];        /* cards each hand took face up and still holds */
    Pile stock;                        /* top = last */
    Pile discard;                      /* out of play, bottom -> top */
    int32_t upcard, prev_upcard;       /* -1: none */
    int32_t deadwood[GR_PLAYERS];      /* OpenSpiel's deadwood_ (GR-5.1, GR-8.1) */
    int knocked[GR_PLAYERS];
    int passed_first[GR_PLAYERS];      /* GR-3.1 */
    int finished_layoffs;              /* GR-7.1 */
    int repeated_move;                 /* GR-8.3 */
    int32_t draw_upcards;              /* GR-8.2 */
    int32_t n_melds[GR_PLAYERS];
    uint8_t melds[GR_PLAYERS][GR_MAX_HAND_SIZE + 1];   /* laid meld ids, in order */
    int32_t n_layoffs;
    uint8_t layoffs[GR_MAX_HAND_SIZE + 1];             /* cards laid off, in order */
    int32_t drawn;                     /* the card the last action took from the stock, or -1 */
    int32_t taken;                     /* GR-4.2: the upcard taken this turn, or -1 */
    int big_gin;                       /* GR-6.4: the knocker keeps its eleven cards */
    int32_t end_reason;                /* GR_END_* once over */
    int32_t result[GR_PLAYERS];        /* GR-8.1: the hand's points (one hand: the returns) */
    int32_t total[GR_PLAYERS];         /* GR-11.2: the match's points so far (with match_to) */
    int32_t hands_won[GR_PLAYERS];     /* GR-11.3 */
    uint64_t final_hand[GR_PLAYERS];   /* the cards each held when the last hand ended (GR-8.1) */
    int32_t last_knocker;              /* who knocked in the last hand ended, or -1 */
    int reached;                       /* GR-11.1: a total reached match_to (not GR-11.5) */
    int32_t n_rows;
    BreakdownRow rows[GR_MAX_ROWS];
    int32_t obs_offset[GR_NUM_PIECES + 1];
    int32_t obs_size;
} GRState;

enum {
    GR_END_NONE = 0,
    GR_END_KNOCK = 1,        /* GR-8.1 */
    GR_END_WALL = 2,         /* GR-5.2: passed at the wall */
    GR_END_UPCARDS = 3,      /* GR-8.2 */
    GR_END_REPEATED = 4      /* GR-8.3 */
};

/* ---------------------------------------------------------------- the one card mapping */
/* OpenSpiel's rank (A..K = 0..12) and suit (s c d h = 0..3) of a card index. */
static inline int gr_os_rank(int card) { return card % 13; }
static inline int gr_os_suit(int card) { return card / 13; }

/* cardcore's card id of an OpenSpiel card index (0..51): the suits s c are cardcore's S C. */
static inline int gr_card_id(int index) {
    static const uint8_t cc_suit_of_os[4] = {1, 0, 2, 3};
    return cc_suit_of_os[index / 13] * 13 + index % 13;
}

/* OpenSpiel's card index of a cardcore card id (0..51): the same swap. */
static inline int gr_os_index(int card) { return gr_card_id(card); }

/* GR-1.3: a card's value (A 1, 2..10 their number, J Q K 10). */
static inline int gr_card_value(int card) {
    int v = card % 13 + 1;
    return v > 10 ? 10 : v;
}

/* ---------------------------------------------------------------- exported */
extern const GameHooks GR_HOOKS;
extern const GameKernel GR_KERNEL;

/* The cards of OpenSpiel's meld id (0..184), as a mask of indices. */
uint64_t gr_meld_mask(int meld);
/* GR-1.3: the values of a mask's cards, summed. */
int gr_mask_value(uint64_t cards);
/* GR-5.1: OpenSpiel's MinDeadwood of a set of cards (with hand_size + 1 cards, the dearest
 * unmelded card is left out, as the discard to come). */
int gr_min_deadwood(uint64_t cards, int hand_size);
/* Offsets of the observation's pieces (offset[GR_NUM_PIECES] = the size); the size. */
int gr_obs_layout(int32_t *offset);
/* A zone's cards as cardcore ids; the count. */
int gr_zone_cards(const void *state, int zone, int instance, uint8_t *out);

/* The C ABI: setup from resolved option values (GR_KERNEL's option order: knock_card,
 * gin_bonus, undercut_bonus, oklahoma, hand_size, rediscard_upcard, big_gin_bonus,
 * layoff_limit, undercut_on_equal, wall_knock, match_to), an action's notation, the
 * composition. */
int gr_init(void *state, int players, const int64_t *values);
int gr_action_label(const void *state, int action, char *buf, size_t len);
int gr_composition(const void *state, uint8_t *out);

#ifdef __cplusplus
}
#endif
#endif /* CARDCORE_GR_KERNEL_H */
