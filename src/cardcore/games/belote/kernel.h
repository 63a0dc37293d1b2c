/* Belote Contrée' kernel in C (rules: games/belote.md, rule IDs BE-x.y), exactly as
 * OpenSpiel's ``crazy_eights`` plays it: the state struct, the rule constants and action ids,
 * and the hook table (BE_HOOKS) and ABI description (BE_KERNEL) that kernel.c defines.
 *
 * Cards inside this kernel are OpenSpiel's card indices, rank * 4 + suit with ranks 2..A as
 * 0..12 and suits C D H S as 0..3, so that the action ids ARE the card indices and legality is
 * one mask: Multiset hands and Pile piles hold these indices. cardcore's own card ids
 * (suit * 13 + rank, A = 0, suits C S D H) appear only at the boundary, converted by
 * be_card_id / be_os_index (the one mapping).
 *
 * Action space (the same 58 ids for every configuration, OpenSpiel's):
 *     0..51   play the card with that index                               BE-3.1
 *     52      draw (one card; under a draw-two debt, the whole debt)      BE-5.1, BE-4.4
 *     53      pass                                                        BE-5.2, BE-5.3
 *     54..57  nominate C, D, H, S after an eight                          BE-3.3
 *
 * Every name here carries the prefix BE_ / be_: all the games' kernels link into one library.
 */
#ifndef CARDCORE_BE_KERNEL_H
#define CARDCORE_BE_KERNEL_H

#include "cardcore/core/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---------------------------------------------------------------- rule constants */
enum {
    BE_MIN_PLAYERS = 2,               /* BE-1.1 */
    BE_MAX_PLAYERS = 15,              /* BE-1.1 */
    BE_ONE_DECK_MAX_PLAYERS = 5,      /* BE-1.2: two decks above 5 players */
    BE_NUM_CARDS = 52,                /* BE-1.2: one deck */
    BE_MAX_DECK = 104,                /* BE-1.2: two decks */
    BE_HAND_SIZE = 5,                 /* BE-2.2 */
    BE_HAND_SIZE_TWO_PLAYERS = 7,     /* BE-2.2 */
    BE_EIGHT_RANK = 6,                /* BE-3.3: the wild card (rank index of 8, ranks 2..A = 0..12) */
    BE_SKIP_RANK = 10,                /* BE-4.1: Q */
    BE_REVERSE_RANK = 12,             /* BE-4.2: A */
    BE_DRAW_TWO_RANK = 0,             /* BE-4.3: 2 */
    BE_DRAW_TWO_CARDS = 2,            /* BE-4.3 */
    BE_EIGHT_POINTS = 50,             /* BE-8.1 */
    BE_COURT_RANK = 9,                /* BE-8.1: J Q K A (rank indexes 9..12) cost COURT_POINTS */
    BE_COURT_POINTS = 10
};

/* ---------------------------------------------------------------- action table */
enum {
    BE_A_DRAW = 52,
    BE_A_PASS = 53,
    BE_A_NOMINATE = 54,               /* + suit (C D H S) */
    BE_NUM_ACTIONS = 58,
    BE_MAX_LEGAL = 54                 /* every card index, draw and pass */
};

/* The options' bounds the state accepts (the core's limits; Python's MAX_*_LIMIT). */
enum {
    BE_MAX_DRAW_CARDS_LIMIT = 10000,  /* BE-5.1: more than a deck's worth changes nothing */
    BE_MAX_TURNS_LIMIT = 1000000      /* BE-7.2: counters stay far inside 32 bits */
};

/* ---------------------------------------------------------------- scoring (BE-8) */
/* The hand-end breakdown: one row per seat and kind of card it holds (indexes into the
 * wrapper's BREAKDOWN_WHAT and BREAKDOWN_RULES). */
enum {
    BE_ROW_EIGHTS = 0,
    BE_ROW_COURT = 1,
    BE_ROW_NUMBERS = 2,
    BE_ROWS_PER_SEAT = 3,
    BE_R_BE_8_1 = 0,
    BE_R_BE_8_2 = 1
};

/* ---------------------------------------------------------------- the state */
enum {
    BE_PH_PLAY = 0,          /* play, draw or pass (BE-3, BE-5) */
    BE_PH_NOMINATE = 1,      /* BE-3.3: the player of an eight names a suit */
    BE_PH_OVER = 2
};

enum {
    BE_MAX_CLASSES = 8,      /* "Hidden cards": source classes of the unseen cards tracked at once */
    BE_E_LOG_CAP = 128,      /* events that bear on reburied eights (one deck: at most 41 draws + 52 plays) */
    BE_E_DRAW = 1,           /* e_log kinds (high nibble; the seat is the low nibble) */
    BE_E_PLAY = 2,           /* a class-0 card that is not a reburied eight was played */
    BE_E_PLAY_EIGHT = 3,     /* a reburied eight was played */
    BE_MAX_DRAWN = 16,       /* cards one action can draw: a debt is 2 per two (BE-4.3), 8 twos */
    BE_MAX_OBS_PIECES = 32   /* room for the observation layout's offsets */
};

/* The zones, in the zone table's order. */
enum {
    BE_Z_HAND = 0,           /* each seat's hand: its own (BE-9.2) */
    BE_Z_STOCK = 1,          /* face down (BE-9.2) */
    BE_Z_DISCARD = 2,        /* every card in it was played or turned up face up (BE-9.1) */
    BE_NUM_ZONES = 3
};

/* The observation's pieces, in the wrapper's OBS_NAMES order. */
enum {
    BE_P_OS_HAND = 0,
    BE_P_OS_LAST_CARD = 1,
    BE_P_OS_LAST_SUIT = 2,
    BE_P_OS_HAND_SIZES = 3,
    BE_P_OS_DIRECTION = 4,
    BE_P_OBSERVER = 5,
    BE_P_TO_MOVE = 6,
    BE_P_PHASE = 7,
    BE_P_DEALER = 8,
    BE_P_DIRECTION = 9,
    BE_P_STOCK_SIZE = 10,
    BE_P_DISCARD = 11,
    BE_P_DRAWS = 12,
    BE_P_MAX_DRAWS = 13,
    BE_P_TWOS_OWED = 14,
    BE_P_PASSES = 15,
    BE_P_PLAYS = 16,
    BE_P_MAX_TURNS = 17,
    BE_P_REBURIED = 18,
    BE_P_KNOWN_BOTTOM = 19,
    BE_P_KNOWN_EIGHTS = 20,
    BE_P_SCORES = 21,
    BE_NUM_PIECES = 22
};

/* The resolved options (defaults: the Python options_spec / BE_KERNEL's option table). */
typedef struct BEOptions {
    int32_t max_draw_cards;            /* BE-5.1 */
    int32_t max_turns;                 /* BE-7.2 */
    int special;                       /* use_special_cards (BE-4) */
    int reshuffle;                     /* BE-6.1 */
    int face;                          /* scoring="face" (BE-8.1), else "openspiel" (BE-8.2) */
    int32_t dealer;                    /* BE-2.1: a seat, or -1 to draw by lot */
} BEOptions;

typedef struct BEState {
    Header h;                          /* players, phase, to_move, round_index, dealer, rng */
    BEOptions opt;
    int32_t decks, hand_size, deck_size;
    uint8_t deck[BE_MAX_DECK];         /* the composition, cardcore ids in id order (BE-1.2) */
    Multiset hand[BE_MAX_PLAYERS];     /* OpenSpiel indices */
    Pile stock;                        /* top = last */
    Pile discard;                      /* bottom -> top; the top is the card to match */
    int32_t last_card, last_suit;      /* BE-3.1: the card and suit to match */
    int32_t direction;                 /* +1 / -1 (BE-4.2) */
    /* OpenSpiel's turn counters, kept as its code keeps them */
    int can_pass;                      /* BE-5.2, BE-5.3 */
    int32_t passes;                    /* BE-7.3: consecutive passes with an empty stock */
    int32_t draws;                     /* BE-5.1: draws before a play (num_draws_before_play_) */
    int32_t twos_owed;                 /* BE-4.3: cards the player to move owes */
    int32_t plays;                     /* BE-7.2: cards played (the turn-up is not one) */
    int32_t reshuffles;                /* BE-6.1 */
    int32_t reburied[NUM_SUITS];       /* BE-2.4: eights turned up and put back, per suit */
    int stacked_deal;                  /* BE-2.4: the deal used a stacked deck */
    /* The last action's draws, in order (events and the OpenSpiel differential test) */
    int32_t n_drawn;
    uint8_t drawn[BE_MAX_DRAWN];
    /* Public knowledge that sample_hidden keeps (games/belote.md "Hidden cards") */
    int32_t known_bottom;              /* stacked deal: the reburied eights at the stock bottom */
    uint8_t known_eights[BE_MAX_PLAYERS][NUM_SUITS];    /* known eights a hand holds (drawn from there) */
    uint8_t hand_cls[BE_MAX_PLAYERS][BE_NUM_CARDS][2];  /* the source class of each unknown copy held */
    int32_t stock_cls;                 /* the class of every unknown stock card */
    int32_t cls_epoch[BE_MAX_CLASSES]; /* the reshuffle that made a class (0: the deal) */
    int e_active;                      /* shuffled deal, one deck: reburied eights are tracked */
    uint8_t e_hidden[NUM_SUITS];       /* ... the reburied eights not played yet */
    int32_t e_log_len;
    uint8_t e_log[BE_E_LOG_CAP];       /* ... and the draws and plays that bear on them */
    /* Scoring (BE-8), written once by be_score */
    int32_t penalty[BE_MAX_PLAYERS];
    int32_t n_rows;                    /* the breakdown: the kinds of card each seat held */
    BreakdownRow rows[BE_MAX_PLAYERS * BE_ROWS_PER_SEAT];
    /* The observation layout of this configuration (offsets of the pieces) */
    int32_t obs_offset[BE_MAX_OBS_PIECES];
    int32_t obs_size;
} BEState;

/* ---------------------------------------------------------------- the one card mapping */
/* OpenSpiel's rank (2..A = 0..12) and suit (C D H S = 0..3) of a card index. */
static inline int be_os_rank(int card) { return card >> 2; }
static inline int be_os_suit(int card) { return card & 3; }
/* The eight of an OpenSpiel suit, as an index. */
static inline int be_eight_of(int suit) { return BE_EIGHT_RANK * 4 + suit; }

/* cardcore's card id of an OpenSpiel card index (0..51): OpenSpiel suits C D H S are
 * cardcore's 0 2 3 1; cardcore ranks: A = 0, 2..K = 1..12; OpenSpiel's: 2..K = 0..11, A = 12. */
static inline int be_card_id(int index) {
    static const uint8_t cc_suit_of_os[4] = {0, 2, 3, 1};
    return cc_suit_of_os[index & 3] * 13 + ((index >> 2) + 1) % 13;
}

/* OpenSpiel's card index of a cardcore card id (0..51). */
static inline int be_os_index(int card) {
    static const uint8_t os_suit_of_cc[4] = {0, 3, 1, 2};
    return ((card % 13 + 12) % 13) * 4 + os_suit_of_cc[card / 13];
}

/* ---------------------------------------------------------------- exported */
extern const GameHooks BE_HOOKS;
extern const GameKernel BE_KERNEL;

/* BE-1.2: 2 decks above 5 players, else 1. */
int be_decks_for(int players);
/* BE-2.2: the cards dealt to each hand (7 with 2 players, else 5). */
int be_hand_size_for(int players);
/* BE-2.2: the seat deck position `position` (0 = top) is dealt to; -1 past the hands. */
int be_deal_seat(int players, int dealer, int hand_size, int position);
/* BE-8.1 (face) / BE-8.2 (openspiel): the penalty of one card (an OpenSpiel index). */
int be_card_points(int card, int face);
/* Offsets of the observation's pieces (offset[BE_NUM_PIECES] = the size); the size. */
int be_obs_layout(int players, int special, int32_t *offset);
/* Copies of `card` (an index) in p's hand whose place nobody else knows. */
int be_unknown_count(const BEState *s, int p, int card);
/* A zone's cards as cardcore ids (a hand in id order; piles bottom to top); the count. */
int be_zone_cards(const void *state, int zone, int instance, uint8_t *out);

/* The C ABI: setup from resolved option values (BE_KERNEL's option order: dealer,
 * max_draw_cards, max_turns, use_special_cards, reshuffle, scoring), an action's notation,
 * the deck's composition. */
int be_init(void *state, int players, const int64_t *values);
int be_action_label(const void *state, int action, char *buf, size_t len);
int be_composition(const void *state, uint8_t *out);

#ifdef __cplusplus
}
#endif
#endif /* CARDCORE_BE_KERNEL_H */
