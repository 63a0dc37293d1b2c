/* Durak's rules kernel (rules: games/durak.md, rule IDs DU-x.y): podkidnoy durak for 2-6
 * players, with the transfer (perevodnoy), first-bout and partners variants as options.
 *
 * Action space (the same 158 ids for every configuration; pinned by tests/games/durak/):
 *     0..51     attack with the card of that id: lead a bout, or throw in     DU-4.1, DU-5
 *     52..103   beat the first uncovered attacking card with card id - 52      DU-4.2, DU-4.3
 *     104..155  transfer the attack with card id - 104 (transfer=True)        DU-9.1
 *     156       take the table                                                 DU-6.1
 *     157       pass: throw in nothing more                                    DU-5.3
 *     158..256  attack with several cards of one rank at once (attack_many=True)  DU-13.1:
 *               158 + power * 11 + k, power 0 (six) .. 8 (ace), k the subset of suits
 *               (DU_MANY_SUITS in kernel.c: the pairs, then the threes, then all four)
 * Card ids are cardcore's (suit * 13 + rank); only the 36 cards 6..A are ever in play.
 * The Python game offers ids 0..157 only when attack_many is off (the same 158 as before).
 *
 * The C is kernel.c; the Python extension (_state.pyx), the native library and the
 * WebAssembly build compile the same file. Every name here carries the prefix DU_ / du_.
 */
#ifndef CARDCORE_GAMES_DURAK_KERNEL_H
#define CARDCORE_GAMES_DURAK_KERNEL_H

#include "cardcore/core/kernel.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ rule constants */
enum {
    DU_MIN_PLAYERS = 2,           /* DU-1.2 */
    DU_MAX_PLAYERS = 6,           /* DU-1.2 */
    DU_DECK_SIZE = 36,            /* DU-1.1: 6..A of each suit */
    DU_LOWEST_RANK = 5,           /* DU-1.1: the six (rank index 5); the ace (0) ranks highest */
    DU_NUM_POWERS = 9,            /* DU-1.3: 6 7 8 9 10 J Q K A */
    DU_HAND_SIZE = 6,             /* DU-2.2, DU-7.1: deal and refill up to six */
    DU_BOUT_LIMIT = 6,            /* DU-4.5: at most six attacking cards in a bout */
    DU_FIRST_BOUT_LIMIT = 5,      /* DU-4.6: first_bout_five=True */
    DU_MAX_TABLE = 6,             /* attacking cards on the table at once */
    DU_MAX_BOUTS = 200,           /* DU-8.4: a hand that reaches this many bouts is drawn */
    DU_MAX_HANDS = 100            /* DU-12.1 Decision: a match has at most this many hands */
};

/* ------------------------------------------------------------------ action table */
enum {
    DU_A_ATTACK = 0,
    DU_A_BEAT = 52,
    DU_A_TRANSFER = 104,
    DU_A_TAKE = 156,
    DU_A_PASS = 157,
    DU_A_MANY = 158,              /* DU-13.1: several cards of one rank */
    DU_MANY_PER_RANK = 11,        /* the subsets of two or more of the four suits */
    DU_NUM_ACTIONS = DU_A_MANY + DU_NUM_POWERS * DU_MANY_PER_RANK,
    DU_NUM_SINGLE_ACTIONS = DU_A_MANY, /* the ids without attack_many */
    DU_MAX_LEGAL = 144            /* a hand's cards (<= 36), its subsets of a rank (<= 99), pass */
};

/* ------------------------------------------------------------------ phases */
enum {
    DU_PH_ATTACK = 0,        /* DU-4.1: the attacker leads the bout's first card */
    DU_PH_DEFEND = 1,        /* DU-4.2: beat, transfer or take */
    DU_PH_THROW = 2,         /* DU-5: every attacking card is beaten; the throwers may add more */
    DU_PH_TAKE_THROW = 3,    /* DU-6.2: the defender takes; the throwers may add more first */
    DU_PH_OVER = 4
};

enum {                       /* how the last bout ended (for the events) */
    DU_END_NONE = 0,
    DU_END_BEATEN = 1,       /* DU-6.3 */
    DU_END_TAKEN = 2         /* DU-6.2 */
};

/* ------------------------------------------------------------------ the observation layout */
/* What view(seat) shows, as floats. Seats absolute, padded to 6; cards in 36 slots
 * (suit * 9 + power, DU-1.3). One source for the layout: these offsets. */
enum {
    DU_SEATS = DU_MAX_PLAYERS,
    DU_CARDS36 = DU_DECK_SIZE,
    DU_O_OBSERVER = 0,
    DU_O_TO_MOVE = DU_O_OBSERVER + DU_SEATS,
    DU_O_PHASE = DU_O_TO_MOVE + DU_SEATS,
    DU_O_HAND = DU_O_PHASE + 5,
    DU_O_ATTACK = DU_O_HAND + DU_CARDS36,
    DU_O_COVER = DU_O_ATTACK + DU_CARDS36,
    DU_O_DISCARD = DU_O_COVER + DU_CARDS36,
    DU_O_KNOWN = DU_O_DISCARD + DU_CARDS36,
    DU_O_TRUMP_SUIT = DU_O_KNOWN + DU_SEATS * DU_CARDS36,
    DU_O_TRUMP_CARD = DU_O_TRUMP_SUIT + NUM_SUITS,
    DU_O_HAND_SIZES = DU_O_TRUMP_CARD + DU_CARDS36,
    DU_O_STOCK_SIZE = DU_O_HAND_SIZES + DU_SEATS,
    DU_O_ATTACKER = DU_O_STOCK_SIZE + 1,
    DU_O_DEFENDER = DU_O_ATTACKER + DU_SEATS,
    DU_O_OUT = DU_O_DEFENDER + DU_SEATS,
    DU_O_BOUTS = DU_O_OUT + DU_SEATS,
    DU_O_LIMIT = DU_O_BOUTS + 1,
    DU_O_TAKING = DU_O_LIMIT + 1,
    DU_O_SCORES = DU_O_TAKING + 1,
    DU_OBSERVATION_SIZE = DU_O_SCORES + DU_SEATS
};

/* ------------------------------------------------------------------ the state */
typedef struct DUOptions {     /* the resolved options (defaults: DU_OPTIONS in kernel.c) */
    int32_t dealer;            /* DU-2.1: a seat, or -1 to draw by lot */
    int lowest_trump;          /* DU-3.1 (1) or DU-3.2 (first_attacker="random") */
    int transfer;              /* DU-9 */
    int first_five;            /* DU-4.6 */
    int partners;              /* DU-10 */
    int32_t hands;             /* DU-12.1: the hands of the match */
    int attack_many;           /* DU-13 */
} DUOptions;

typedef struct DUState {
    Header h;                              /* players, phase, to_move, round_index, dealer, rng */
    DUOptions opt;
    uint8_t deck[DU_DECK_SIZE];            /* the composition, id order (DU-1.1) */
    Multiset hand[DU_MAX_PLAYERS];
    Pile stock;                            /* bottom -> top; the bottom card is the trump card */
    Pile discard;                          /* beaten bouts, face down (DU-6.3) */
    int32_t attack[DU_MAX_TABLE];          /* the bout's attacking cards, in play order */
    int32_t cover[DU_MAX_TABLE];           /* the card beating each, -1 while uncovered */
    int32_t n_attack;
    int32_t trump_suit, trump_card;        /* DU-2.3 */
    int32_t attacker, defender;            /* DU-4.1: the principal attacker and the defender */
    int32_t thrower;                       /* DU-5.2: the step (0 = the attacker) of the thrower asked */
    int taking;                            /* DU-6.1: the defender has said "take" */
    int32_t bouts;                         /* bouts finished */
    uint64_t known[DU_MAX_PLAYERS];        /* cards every seat knows a hand holds (DU-11.2) */
    uint32_t out;                          /* seats out of the game (DU-8.1), a bit each */
    int32_t shown_trump;                   /* DU-3.1: the lowest trump shown, -1 if none */
    /* DU-11.3: what the card flow tells about the deal (sample_hidden keeps to it) */
    uint64_t late;                         /* cards no hand held at the deal: each was drawn */
    int32_t drew[DU_MAX_PLAYERS];          /* cards each seat drew from the stock (public) */
    int32_t late_seen[DU_MAX_PLAYERS];     /* late cards of its own draws each seat showed */
    int32_t loser;                         /* DU-8.2: the durak's seat, -1 for none (a draw) */
    /* What the last action did, for the events: the bout it ended, the draws, who went out */
    int32_t bout_end, bout_defender, bout_n;
    uint8_t bout_cards[2 * DU_MAX_TABLE];
    int32_t n_drawn;
    uint8_t drawn[DU_DECK_SIZE];
    uint8_t drawn_seat[DU_DECK_SIZE];
    uint32_t went_out;
    /* Scoring (DU-8): one row per seat, written once at the end */
    int32_t n_rows;
    BreakdownRow rows[DU_MAX_PLAYERS];
    int32_t penalty[DU_MAX_PLAYERS];       /* 1 for the durak (and its side with partners), else 0 */
    /* DU-12: the match of several hands */
    int32_t fools[DU_MAX_PLAYERS];         /* the fool's count: hands each seat lost */
    int32_t hand_loser, hand_bouts;        /* the last finished hand's durak (-1: none), bouts */
    int32_t hand_left[DU_MAX_PLAYERS];     /* the cards each seat held at its end */
} DUState;

extern const GameHooks DU_HOOKS;
extern const GameKernel DU_KERNEL;

/* ------------------------------------------------------------------ for the Python wrapper */
/* DU-1.3: a card's place in its suit, 0 (six) to 8 (ace). */
int du_card_power(int card);
/* DU-2.2: the seat that gets deck position `position` (top first) from the dealer's left;
 * -1 past the hands (the stock). */
int du_deal_seat(int players, int dealer, int position);
/* The table in play order: each attacking card, then the card beating it; the count. */
int du_table_cards(const DUState *s, uint8_t *out);
/* DU-4.5 / DU-4.6: the most attacking cards of this bout. */
int du_bout_limit(const DUState *s);
/* The attacking cards not yet beaten. */
int du_uncovered(const DUState *s);
/* The C ABI's setup of a zeroed state (GameKernel.init), the label of an action
 * (GameKernel.action_label) and the deck (GameKernel.composition). */
int du_init(void *state, int players, const int64_t *values);
int du_action_label(const void *state, int action, char *buf, size_t len);
int du_composition(const void *state, uint8_t *out);
/* DU-13.1: the cards of a several-card attack id (suit order C S D H); their count. */
int du_many_cards(int action, uint8_t *out);

#ifdef __cplusplus
}
#endif
#endif /* CARDCORE_GAMES_DURAK_KERNEL_H */
