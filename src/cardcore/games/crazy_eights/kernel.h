/* Crazy Eights' kernel in C (rules: games/crazy_eights.md, rule IDs CE-x.y), exactly as
 * OpenSpiel's ``crazy_eights`` plays it: the state struct, the rule constants and action ids,
 * and the hook table (CE_HOOKS) and ABI description (CE_KERNEL) that kernel.c defines.
 *
 * Cards inside this kernel are OpenSpiel's card indices, rank * 4 + suit with ranks 2..A as
 * 0..12 and suits C D H S as 0..3, so that the action ids ARE the card indices and legality is
 * one mask: Multiset hands and Pile piles hold these indices. cardcore's own card ids
 * (suit * 13 + rank, A = 0, suits C S D H) appear only at the boundary, converted by
 * ce_card_id / ce_os_index (the one mapping).
 *
 * Action space (the same 58 ids for every configuration, OpenSpiel's):
 *     0..51   play the card with that index                               CE-3.1
 *     52      draw (one card; under a draw-two debt, the whole debt)      CE-5.1, CE-4.4
 *     53      pass                                                        CE-5.2, CE-5.3
 *     54..57  nominate C, D, H, S after an eight                          CE-3.3
 *
 * Every name here carries the prefix CE_ / ce_: all the games' kernels link into one library.
 */
#ifndef CARDCORE_CE_KERNEL_H
#define CARDCORE_CE_KERNEL_H

#include "cardcore/core/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- rule constants */
enum {
    CE_MIN_PLAYERS = 2,               /* CE-1.1 */
    CE_MAX_PLAYERS = 15,              /* CE-1.1 */
    CE_ONE_DECK_MAX_PLAYERS = 5,      /* CE-1.2: two decks above 5 players */
    CE_NUM_CARDS = 52,                /* CE-1.2: one deck */
    CE_MAX_DECK = 104,                /* CE-1.2: two decks */
    CE_HAND_SIZE = 5,                 /* CE-2.2 */
    CE_HAND_SIZE_TWO_PLAYERS = 7,     /* CE-2.2 */
    CE_EIGHT_RANK = 6,                /* CE-3.3: the wild card (rank index of 8, ranks 2..A = 0..12) */
    CE_SKIP_RANK = 10,                /* CE-4.1: Q */
    CE_REVERSE_RANK = 12,             /* CE-4.2: A */
    CE_DRAW_TWO_RANK = 0,             /* CE-4.3: 2 */
    CE_DRAW_TWO_CARDS = 2,            /* CE-4.3 */
    CE_EIGHT_POINTS = 50,             /* CE-8.1 */
    CE_COURT_RANK = 9,                /* CE-8.1: J Q K A (rank indexes 9..12) cost COURT_POINTS */
    CE_COURT_POINTS = 10
};

/* ---------------------------------------------------------------- action table */
enum {
    CE_A_DRAW = 52,
    CE_A_PASS = 53,
    CE_A_NOMINATE = 54,               /* + suit (C D H S) */
    CE_NUM_ACTIONS = 58,
    CE_MAX_LEGAL = 54                 /* every card index, draw and pass */
};

/* The options' bounds the state accepts (the core's limits; Python's MAX_*_LIMIT). */
enum {
    CE_MAX_DRAW_CARDS_LIMIT = 10000,  /* CE-5.1: more than a deck's worth changes nothing */
    CE_MAX_TURNS_LIMIT = 1000000      /* CE-7.2: counters stay far inside 32 bits */
};

/* ---------------------------------------------------------------- scoring (CE-8) */
/* The hand-end breakdown: one row per seat and kind of card it holds (indexes into the
 * wrapper's BREAKDOWN_WHAT and BREAKDOWN_RULES). */
enum {
    CE_ROW_EIGHTS = 0,
    CE_ROW_COURT = 1,
    CE_ROW_NUMBERS = 2,
    CE_ROWS_PER_SEAT = 3,
    CE_R_CE_8_1 = 0,
    CE_R_CE_8_2 = 1
};

/* ---------------------------------------------------------------- the state */
enum {
    CE_PH_PLAY = 0,          /* play, draw or pass (CE-3, CE-5) */
    CE_PH_NOMINATE = 1,      /* CE-3.3: the player of an eight names a suit */
    CE_PH_OVER = 2
};

enum {
    CE_MAX_CLASSES = 8,      /* "Hidden cards": source classes of the unseen cards tracked at once */
    CE_E_LOG_CAP = 128,      /* events that bear on reburied eights (one deck: at most 41 draws + 52 plays) */
    CE_E_DRAW = 1,           /* e_log kinds (high nibble; the seat is the low nibble) */
    CE_E_PLAY = 2,           /* a class-0 card that is not a reburied eight was played */
    CE_E_PLAY_EIGHT = 3,     /* a reburied eight was played */
    CE_MAX_DRAWN = 16,       /* cards one action can draw: a debt is 2 per two (CE-4.3), 8 twos */
    CE_MAX_OBS_PIECES = 32   /* room for the observation layout's offsets */
};

/* The zones, in the zone table's order. */
enum {
    CE_Z_HAND = 0,           /* each seat's hand: its own (CE-9.2) */
    CE_Z_STOCK = 1,          /* face down (CE-9.2) */
    CE_Z_DISCARD = 2,        /* every card in it was played or turned up face up (CE-9.1) */
    CE_NUM_ZONES = 3
};

/* The observation's pieces, in the wrapper's OBS_NAMES order. */
enum {
    CE_P_OS_HAND = 0,
    CE_P_OS_LAST_CARD = 1,
    CE_P_OS_LAST_SUIT = 2,
    CE_P_OS_HAND_SIZES = 3,
    CE_P_OS_DIRECTION = 4,
    CE_P_OBSERVER = 5,
    CE_P_TO_MOVE = 6,
    CE_P_PHASE = 7,
    CE_P_DEALER = 8,
    CE_P_DIRECTION = 9,
    CE_P_STOCK_SIZE = 10,
    CE_P_DISCARD = 11,
    CE_P_DRAWS = 12,
    CE_P_MAX_DRAWS = 13,
    CE_P_TWOS_OWED = 14,
    CE_P_PASSES = 15,
    CE_P_PLAYS = 16,
    CE_P_MAX_TURNS = 17,
    CE_P_REBURIED = 18,
    CE_P_KNOWN_BOTTOM = 19,
    CE_P_KNOWN_EIGHTS = 20,
    CE_P_SCORES = 21,
    CE_NUM_PIECES = 22
};

/* The resolved options (defaults: the Python options_spec / CE_KERNEL's option table). */
typedef struct CEOptions {
    int32_t max_draw_cards;            /* CE-5.1 */
    int32_t max_turns;                 /* CE-7.2 */
    int special;                       /* use_special_cards (CE-4) */
    int reshuffle;                     /* CE-6.1 */
    int face;                          /* scoring="face" (CE-8.1), else "openspiel" (CE-8.2) */
    int32_t dealer;                    /* CE-2.1: a seat, or -1 to draw by lot */
} CEOptions;

typedef struct CEState {
    Header h;                          /* players, phase, to_move, round_index, dealer, rng */
    CEOptions opt;
    int32_t decks, hand_size, deck_size;
    uint8_t deck[CE_MAX_DECK];         /* the composition, cardcore ids in id order (CE-1.2) */
    Multiset hand[CE_MAX_PLAYERS];     /* OpenSpiel indices */
    Pile stock;                        /* top = last */
    Pile discard;                      /* bottom -> top; the top is the card to match */
    int32_t last_card, last_suit;      /* CE-3.1: the card and suit to match */
    int32_t direction;                 /* +1 / -1 (CE-4.2) */
    /* OpenSpiel's turn counters, kept as its code keeps them */
    int can_pass;                      /* CE-5.2, CE-5.3 */
    int32_t passes;                    /* CE-7.3: consecutive passes with an empty stock */
    int32_t draws;                     /* CE-5.1: draws before a play (num_draws_before_play_) */
    int32_t twos_owed;                 /* CE-4.3: cards the player to move owes */
    int32_t plays;                     /* CE-7.2: cards played (the turn-up is not one) */
    int32_t reshuffles;                /* CE-6.1 */
    int32_t reburied[NUM_SUITS];       /* CE-2.4: eights turned up and put back, per suit */
    int stacked_deal;                  /* CE-2.4: the deal used a stacked deck */
    /* The last action's draws, in order (events and the OpenSpiel differential test) */
    int32_t n_drawn;
    uint8_t drawn[CE_MAX_DRAWN];
    /* Public knowledge that sample_hidden keeps (games/crazy_eights.md "Hidden cards") */
    int32_t known_bottom;              /* stacked deal: the reburied eights at the stock bottom */
    uint8_t known_eights[CE_MAX_PLAYERS][NUM_SUITS];    /* known eights a hand holds (drawn from there) */
    uint8_t hand_cls[CE_MAX_PLAYERS][CE_NUM_CARDS][2];  /* the source class of each unknown copy held */
    int32_t stock_cls;                 /* the class of every unknown stock card */
    int32_t cls_epoch[CE_MAX_CLASSES]; /* the reshuffle that made a class (0: the deal) */
    int e_active;                      /* shuffled deal, one deck: reburied eights are tracked */
    uint8_t e_hidden[NUM_SUITS];       /* ... the reburied eights not played yet */
    int32_t e_log_len;
    uint8_t e_log[CE_E_LOG_CAP];       /* ... and the draws and plays that bear on them */
    /* Scoring (CE-8), written once by ce_score */
    int32_t penalty[CE_MAX_PLAYERS];
    int32_t n_rows;                    /* the breakdown: the kinds of card each seat held */
    BreakdownRow rows[CE_MAX_PLAYERS * CE_ROWS_PER_SEAT];
    /* The observation layout of this configuration (offsets of the pieces) */
    int32_t obs_offset[CE_MAX_OBS_PIECES];
    int32_t obs_size;
} CEState;

/* ---------------------------------------------------------------- the one card mapping */
/* OpenSpiel's rank (2..A = 0..12) and suit (C D H S = 0..3) of a card index. */
static inline int ce_os_rank(int card) { return card >> 2; }
static inline int ce_os_suit(int card) { return card & 3; }
/* The eight of an OpenSpiel suit, as an index. */
static inline int ce_eight_of(int suit) { return CE_EIGHT_RANK * 4 + suit; }

/* cardcore's card id of an OpenSpiel card index (0..51): OpenSpiel suits C D H S are
 * cardcore's 0 2 3 1; cardcore ranks: A = 0, 2..K = 1..12; OpenSpiel's: 2..K = 0..11, A = 12. */
static inline int ce_card_id(int index) {
    static const uint8_t cc_suit_of_os[4] = {0, 2, 3, 1};
    return cc_suit_of_os[index & 3] * 13 + ((index >> 2) + 1) % 13;
}

/* OpenSpiel's card index of a cardcore card id (0..51). */
static inline int ce_os_index(int card) {
    static const uint8_t os_suit_of_cc[4] = {0, 3, 1, 2};
    return ((card % 13 + 12) % 13) * 4 + os_suit_of_cc[card / 13];
}

/* ---------------------------------------------------------------- exported */
extern const GameHooks CE_HOOKS;
extern const GameKernel CE_KERNEL;

/* CE-1.2: 2 decks above 5 players, else 1. */
int ce_decks_for(int players);
/* CE-2.2: the cards dealt to each hand (7 with 2 players, else 5). */
int ce_hand_size_for(int players);
/* CE-2.2: the seat deck position `position` (0 = top) is dealt to; -1 past the hands. */
int ce_deal_seat(int players, int dealer, int hand_size, int position);
/* CE-8.1 (face) / CE-8.2 (openspiel): the penalty of one card (an OpenSpiel index). */
int ce_card_points(int card, int face);
/* Offsets of the observation's pieces (offset[CE_NUM_PIECES] = the size); the size. */
int ce_obs_layout(int players, int special, int32_t *offset);
/* Copies of `card` (an index) in p's hand whose place nobody else knows. */
int ce_unknown_count(const CEState *s, int p, int card);
/* A zone's cards as cardcore ids (a hand in id order; piles bottom to top); the count. */
int ce_zone_cards(const void *state, int zone, int instance, uint8_t *out);

/* The C ABI: setup from resolved option values (CE_KERNEL's option order: dealer,
 * max_draw_cards, max_turns, use_special_cards, reshuffle, scoring), an action's notation,
 * the deck's composition. */
int ce_init(void *state, int players, const int64_t *values);
int ce_action_label(const void *state, int action, char *buf, size_t len);
int ce_composition(const void *state, uint8_t *out);

#ifdef __cplusplus
}
#endif
#endif /* CARDCORE_CE_KERNEL_H */
