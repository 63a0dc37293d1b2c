/* cardcore's kernel interface: what every game's C kernel is written against.
 *
 * Card ids, 64-bit card masks, multisets, piles, the seeded PCG32 generator, the Header that
 * begins every game's state struct, the zone table (who sees which cards) and the hook table
 * (GameHooks) through which the lifecycle, the Python extension, the batch runner, the search
 * and the C ABI (cardcore.h) reach a game. C99, fixed-width types, no globals that change,
 * nothing from libc but memcpy/memset; every function here is static inline, so a kernel,
 * the Python extension and the native and WebAssembly libraries compile the same code.
 *
 * Card id (one definition for the whole library):
 *     id = suit * 13 + rank     rank 0..12 = A 2 3 4 5 6 7 8 9 10 J Q K, suit 0..3 = C S D H
 *     id = 52                   the joker
 * A 64-bit mask holds one bit per id (bit 52 = joker). Multi-deck collections are multisets:
 * a count per id plus bit-planes (plane k = the ids present more than k times).
 */
#ifndef CARDCORE_KERNEL_H
#define CARDCORE_KERNEL_H

#include <math.h>     /* INFINITY (a macro: no libm) */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifdef __cplusplus
extern "C" {
#endif

enum {
    NUM_RANKS = 13,
    NUM_SUITS = 4,
    NUM_KINDS = 53,          /* 52 natural ids + the joker */
    JOKER = 52,
    MS_MAX_COPIES = 8,       /* a Multiset holds up to 8 copies of an id (games check their decks fit) */
    PILE_CAPACITY = 256,     /* a Pile holds up to 256 cards (games check their decks fit) */
    CHOSEN_CAPACITY = 16     /* the most hand cards one action takes by count or rank (Header.chosen) */
};

/* Rank indexes, for readable game code. */
enum { R_ACE = 0, R_TWO = 1, R_THREE = 2, R_SEVEN = 6, R_TEN = 9, R_JACK = 10, R_QUEEN = 11,
       R_KING = 12 };

enum { CLUBS = 0, SPADES = 1, DIAMONDS = 2, HEARTS = 3 };

/* ------------------------------------------------------------------ bit helpers */
/* Portable 64-bit popcount: builtin where the compiler has one, SWAR elsewhere (MSVC). */
#if defined(__GNUC__) || defined(__clang__)
static inline int cardcore_popcount64(unsigned long long x) { return __builtin_popcountll(x); }
static inline int cardcore_ctz64(unsigned long long x) { return __builtin_ctzll(x); }
#else
static inline int cardcore_popcount64(unsigned long long x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
/* Index of the lowest set bit; x must not be 0. */
static inline int cardcore_ctz64(unsigned long long x) {
    int n = 0;
    while (!(x & 1ULL)) { x >>= 1; n++; }
    return n;
}
#endif

/* ------------------------------------------------------------------ card ids */
/* Rank index 0..12 of a natural card; -1 for the joker. */
static inline int card_rank(int card) { return card < JOKER ? card % 13 : -1; }
/* Suit index 0..3 of a natural card; -1 for the joker. */
static inline int card_suit(int card) { return card < JOKER ? card / 13 : -1; }
static inline int make_card(int suit, int rank) { return suit * 13 + rank; }
static inline int is_red_suit(int suit) { return suit == DIAMONDS || suit == HEARTS; }

/* ------------------------------------------------------------------ 64-bit card masks */
static inline uint64_t card_bit(int card) { return (uint64_t)1 << card; }
/* Bits of the four natural cards of a rank (bits rank, 13+rank, 26+rank, 39+rank). */
static inline uint64_t rank_mask(int rank) { return (uint64_t)0x8004002001ULL << rank; }
static inline uint64_t suit_mask(int suit) { return (uint64_t)0x1FFF << (13 * suit); }
static inline uint64_t colour_mask(int red) {
    return red ? (suit_mask(DIAMONDS) | suit_mask(HEARTS)) : (suit_mask(CLUBS) | suit_mask(SPADES));
}
static inline int popcount64(uint64_t x) { return cardcore_popcount64(x); }
/* The smallest card id in a non-empty mask (iterate with mask &= mask - 1). */
static inline int lowest_card(uint64_t mask) { return cardcore_ctz64(mask); }

/* ------------------------------------------------------------------ multisets */
typedef struct Multiset {
    uint8_t count[NUM_KINDS];
    uint64_t plane[MS_MAX_COPIES];   /* plane[k] has bit c set iff count[c] > k; planes nest */
    int32_t total;
} Multiset;

static inline void ms_clear(Multiset *m) { memset(m, 0, sizeof(Multiset)); }

/* Add one copy; 0 (and nothing changes) if the id or the copy count is out of range. */
static inline int ms_add(Multiset *m, int card) {
    if (card < 0 || card >= NUM_KINDS || m->count[card] >= MS_MAX_COPIES) return 0;
    m->plane[m->count[card]] |= card_bit(card);
    m->count[card] += 1;
    m->total += 1;
    return 1;
}

/* Remove one copy; 0 (and nothing changes) if there is none. */
static inline int ms_remove(Multiset *m, int card) {
    if (card < 0 || card >= NUM_KINDS || m->count[card] == 0) return 0;
    m->count[card] -= 1;
    m->plane[m->count[card]] &= ~card_bit(card);
    m->total -= 1;
    return 1;
}

static inline int ms_count(const Multiset *m, int card) {
    if (card < 0 || card >= NUM_KINDS) return 0;
    return m->count[card];
}

/* Number of cards (copies included) whose id is in mask: one popcount per non-empty plane. */
static inline int ms_count_mask(const Multiset *m, uint64_t mask) {
    int k = 0, n = 0;
    while (k < MS_MAX_COPIES && m->plane[k] != 0) {
        n += popcount64(m->plane[k] & mask);
        k += 1;
    }
    return n;
}

static inline int ms_count_rank(const Multiset *m, int rank) { return ms_count_mask(m, rank_mask(rank)); }
static inline int ms_count_suit(const Multiset *m, int suit) { return ms_count_mask(m, suit_mask(suit)); }
/* The set of ids present at least once (plane 0). */
static inline uint64_t ms_support(const Multiset *m) { return m->plane[0]; }

/* Write the cards in id order (copies repeated) to out; returns how many. */
static inline int ms_to_array(const Multiset *m, uint8_t *out) {
    int card, k, n = 0;
    for (card = 0; card < NUM_KINDS; card++)
        for (k = 0; k < m->count[card]; k++) out[n++] = (uint8_t)card;
    return n;
}

/* ------------------------------------------------------------------ ordered piles */
typedef struct Pile {
    uint8_t cards[PILE_CAPACITY];    /* bottom -> top; the top card is cards[size - 1] */
    int32_t size;
} Pile;

static inline int pile_push(Pile *p, int card) {
    if (p->size >= PILE_CAPACITY || card < 0 || card >= NUM_KINDS) return 0;
    p->cards[p->size] = (uint8_t)card;
    p->size += 1;
    return 1;
}

/* Remove and return the top card; -1 if the pile is empty. */
static inline int pile_pop(Pile *p) {
    if (p->size <= 0) return -1;
    p->size -= 1;
    return p->cards[p->size];
}

static inline int pile_top(const Pile *p) { return p->size > 0 ? p->cards[p->size - 1] : -1; }

/* Write the pile's cards (bottom -> top) to out; returns how many. */
static inline int pile_copy(const Pile *p, uint8_t *out) {
    int i;
    for (i = 0; i < p->size; i++) out[i] = p->cards[i];
    return p->size;
}

/* ------------------------------------------------------------------ seeded RNG (PCG32) */
typedef struct Rng {
    uint64_t state;
    uint64_t inc;      /* stream selector, always odd */
} Rng;

/* PCG32 (XSH RR): O'Neill's reference generator, identical on every platform. */
static inline uint32_t rng_next32(Rng *r) {
    uint64_t old = r->state;
    uint32_t xorshifted, rot;
    r->state = old * 6364136223846793005ULL + r->inc;
    xorshifted = (uint32_t)(((old >> 18) ^ old) >> 27);
    rot = (uint32_t)(old >> 59);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31));
}

/* Unbiased integer in [0, n) by Lemire's multiply-and-reject; n must be >= 1. */
static inline uint32_t rng_below(Rng *r, uint32_t n) {
    uint64_t m = (uint64_t)rng_next32(r) * n;
    uint32_t low = (uint32_t)m, threshold;
    if (low < n) {
        threshold = ((uint32_t)(-n)) % n;
        while (low < threshold) {
            m = (uint64_t)rng_next32(r) * n;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

static inline uint64_t cardcore_splitmix64(uint64_t *x) {
    uint64_t z;
    *x += 0x9E3779B97F4A7C15ULL;
    z = *x;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* PCG32 seeding (pcg32_srandom_r) with state and stream both derived from seed by splitmix64. */
static inline void rng_seed(Rng *r, uint64_t seed) {
    uint64_t x = seed;
    uint64_t initstate = cardcore_splitmix64(&x);
    uint64_t initseq = cardcore_splitmix64(&x);
    r->state = 0;
    r->inc = (initseq << 1) | 1;
    rng_next32(r);
    r->state += initstate;
    rng_next32(r);
}

/* Fisher-Yates from the top index down; every permutation equally likely. */
static inline void shuffle_u8(Rng *r, uint8_t *cards, int n) {
    int i, j;
    uint8_t t;
    for (i = n - 1; i > 0; i--) {
        j = (int)rng_below(r, (uint32_t)(i + 1));
        t = cards[i];
        cards[i] = cards[j];
        cards[j] = t;
    }
}

/* The highest-valued offer so far (index -1 before any), and how many offers share its
 * value: rollout policies pick their move with it, ties broken uniformly. */
typedef struct BestPick {
    int index;
    int value;
    uint32_t ties;
} BestPick;

static inline void best_pick_init(BestPick *b) {
    b->index = -1;
    b->value = 0;
    b->ties = 0;
}

/* Keep index if its value is higher; among equal values each offer is kept with probability
 * 1/ties (reservoir sampling: a uniform pick among the ties). */
static inline void best_pick_offer(BestPick *b, int index, int value, Rng *rng) {
    if (b->index < 0 || value > b->value) {
        b->index = index;
        b->value = value;
        b->ties = 1;
    } else if (value == b->value) {
        b->ties += 1;
        if (rng_below(rng, b->ties) == 0) b->index = index;
    }
}

/* The index of the highest of values[0:n]; values within 1e-9 of it are ties, broken
 * uniformly with one draw from rng, only when there is a tie (cardcore.game.best_by in C:
 * how a float-valued greedy heuristic chooses). ties is n-long scratch; -1 if n is 0. */
static inline int best_by_value(const double *values, int n, Rng *rng, int32_t *ties) {
    double best = -INFINITY;
    int k, count = 0;
    for (k = 0; k < n; k++) {
        if (values[k] > best + 1e-9) {
            best = values[k];
            ties[0] = k;
            count = 1;
        } else if (values[k] > best - 1e-9) {
            ties[count] = k;
            count += 1;
        }
    }
    if (count == 0) return -1;
    if (count == 1) return ties[0];
    return ties[rng_below(rng, (uint32_t)count)];
}

/* ------------------------------------------------------------------ the state machine framework */
/* Every game's state is one C struct whose FIRST member h is this header; the game's rules
 * are functions over a pointer to that struct, reached through a GameHooks table. */
typedef struct Header {
    int32_t players;
    int32_t phase;            /* the game's own phase index */
    int32_t to_move;          /* the seat to move; -1 once the match is over (that IS "over") */
    int32_t round_index;      /* rounds / deals / hands finished */
    int32_t dealer;           /* the seat that dealt or began the current round */
    int64_t actions_applied;  /* kept by the framework, never by a game */
    int64_t turns;            /* a game adds one each time the turn passes */
    Rng rng;                  /* the game's generator: shuffles and draws by lot */
    int32_t stacked_size;     /* > 0: the first deal uses stacked[0:stacked_size] (top first) */
    uint8_t stacked[PILE_CAPACITY];
    /* The exact hand cards of Game.apply(..., cards=): set only for the one apply (and the
     * check before it) and cleared after, so the playouts, VectorGame and search never see
     * it set. A game's hand-removal helper takes these first where they fit (chosen_card). */
    int32_t chosen_size;
    uint8_t chosen[CHOSEN_CAPACITY];
} Header;

/* What a seat may know, defined once per game: the game's card zones and who sees each. */
typedef enum ZoneScope {
    ZONE_SHARED = 0,          /* one instance: the stock, the table */
    ZONE_SEAT = 1,            /* one per seat: a hand, a foot, a penalty pile */
    ZONE_TEAM = 2,            /* one per side (Game.sides_of): a team's melds */
    ZONE_PILE = 3             /* instances numbered piles */
} ZoneScope;

typedef enum ZoneSight {
    SEEN_BY_ALL = 0,          /* face up, or face down but public by the play */
    SEEN_BY_OWNER = 1,        /* the owning seat (a team zone: its side) knows its cards */
    SEEN_BY_NONE = 2          /* face down: every seat knows its size, none its cards */
} ZoneSight;

typedef struct ZoneSpec {
    const char *name;
    int scope;                /* a ZoneScope */
    int instances;            /* ZONE_PILE, ZONE_TEAM: how many (the other scopes: from the seats) */
    int sight;                /* a ZoneSight */
} ZoneSpec;

/* A scoring breakdown row, written by the game's scoring itself when a round ends: who, what
 * (an index into the game's BREAKDOWN_WHAT words), which rule (an index into its
 * BREAKDOWN_RULES), how many (-1: not a count) and the points; detail is the game's own. */
typedef struct BreakdownRow {
    int32_t owner;
    int32_t what;
    int32_t rule;
    int32_t detail;
    int64_t count;
    int64_t points;
} BreakdownRow;

/* Why an action id is not legal now, as the game's rules decide it (the refuse hook): the
 * words stay in Python. reason is the index of the game's refusal template (its words
 * module's REFUSALS), rule the rule ID it cites (a static string, e.g. "XY-4.3"), and
 * args[0:nargs] the template's fields in the order they appear in its English text: card ids
 * for the fields named card, target and top, a suit index (0..3 = C S D H) for suit, and
 * plain numbers for every other field. */
enum { REFUSAL_MAX_ARGS = 4 };

typedef struct Refusal {
    int32_t reason;
    const char *rule;
    int32_t nargs;
    int32_t args[REFUSAL_MAX_ARGS];
} Refusal;

/* Fill a refusal with up to three fields (nargs of a0, a1, a2 used); the reason, for the
 * hook's return. */
static inline int refusal_set(Refusal *out, int reason, const char *rule, int nargs, int a0,
                              int a1, int a2) {
    out->reason = reason;
    out->rule = rule;
    out->nargs = nargs;
    out->args[0] = a0;
    out->args[1] = a1;
    out->args[2] = a2;
    out->args[3] = 0;
    return reason;
}

static inline int refuse0(Refusal *out, int reason, const char *rule) {
    return refusal_set(out, reason, rule, 0, 0, 0, 0);
}

static inline int refuse1(Refusal *out, int reason, const char *rule, int a0) {
    return refusal_set(out, reason, rule, 1, a0, 0, 0);
}

static inline int refuse2(Refusal *out, int reason, const char *rule, int a0, int a1) {
    return refusal_set(out, reason, rule, 2, a0, a1, 0);
}

static inline int refuse3(Refusal *out, int reason, const char *rule, int a0, int a1, int a2) {
    return refusal_set(out, reason, rule, 3, a0, a1, a2);
}

typedef void (*start_fn)(void *s);
typedef int (*legal_fn)(void *s, int32_t *out, int capacity);
typedef void (*apply_fn)(void *s, int action);
typedef int (*observation_size_fn)(const void *s);
typedef void (*observe_fn)(const void *s, int seat, float *out);
typedef void (*returns_fn)(const void *s, double *out);
typedef void (*scores_fn)(const void *s, int32_t *out);
typedef int (*sample_hidden_fn)(void *s, int seat, Rng *rng);
typedef int (*rollout_fn)(const void *s, const int32_t *legal, int n, Rng *rng);
typedef int (*zone_cards_fn)(const void *s, int zone, int instance, uint8_t *out);
typedef int (*known_cards_fn)(const void *s, int zone, int instance, uint8_t *out);
typedef int (*breakdown_fn)(const void *s, BreakdownRow *out, int capacity);
typedef int (*hand_cards_fn)(const void *s, int action, uint8_t *out);
typedef long long (*play_fn)(void *s, Rng *chooser, int32_t *scratch, long long max_actions);
/* Why an id in range is not legal while the match is on: fills out, returns out->reason
 * (0..num_refusals-1); -1 if it has no refusal (the id is legal). */
typedef int (*refuse_fn)(const void *s, int32_t action, Refusal *out);
/* An exact solver for the positions a game can play perfectly (optional: NULL for none): for
 * the seat to move, in a position whose hidden cards that seat's knowledge decides (the hook
 * checks this and reads nothing else hidden), values[k] is the result of legal[k] under best
 * play by every seat: SOLVE_WIN, SOLVE_DRAW or SOLVE_LOSS for the mover (with every = 0, the
 * search stops at the first move as good as any can be, the later ones SOLVE_UNKNOWN).
 * budget caps the positions visited; scratch (scratch_bytes, the caller's) holds the
 * transposition table. 0, SOLVE_NOT_PERFECT or SOLVE_OVER_BUDGET (values then unset). */
typedef int (*solve_fn)(const void *s, const int32_t *legal, int n, int every, int64_t budget,
                        void *scratch, size_t scratch_bytes, int8_t *values);
enum { SOLVE_LOSS = -1, SOLVE_DRAW = 0, SOLVE_WIN = 1, SOLVE_UNKNOWN = -2,
       SOLVE_NOT_PERFECT = -1, SOLVE_OVER_BUDGET = -2 };

/* The hook table is versioned so that it can grow at its end: a kernel built against an
 * older release's headers (an out-of-tree game) has a shorter table, which this core reads
 * up to its end and no further. Every table opens with GAME_HOOKS_HEAD, which records the
 * sizeof and the version of the table the kernel was compiled with (no kernel writes either
 * by hand). size says which hooks the table holds (Linux's clone3/openat2 `size`): a hook
 * added later is read through its accessor (hooks_solve), NULL when the table ends before it.
 * version says which core the kernel was written for (tree-sitter's language version with its
 * minimum): hooks_compatible refuses, at registration, a version newer than this core's (its
 * kernel may rely on what this core lacks) and a table smaller than the first version's.
 * CARDCORE_HOOKS_VERSION moves with every hook added at the end; size, version and name keep
 * their places in every version, and no field ever moves or changes its meaning. */
#define CARDCORE_HOOKS_VERSION 2       /* 1: through num_refusals; 2: + solve */
#define CARDCORE_HOOKS_MIN_VERSION 1   /* the oldest table this core reads */
#define GAME_HOOKS_HEAD .size = (uint32_t)sizeof(GameHooks), .version = CARDCORE_HOOKS_VERSION

typedef struct GameHooks {
    uint32_t size;              /* sizeof(GameHooks) where the kernel was built (GAME_HOOKS_HEAD) */
    uint32_t version;           /* CARDCORE_HOOKS_VERSION there (GAME_HOOKS_HEAD) */
    const char *name;
    size_t state_size;          /* sizeof the game's struct (clone copies exactly this) */
    int num_actions;            /* ids are 0..num_actions-1 */
    int max_legal;              /* most legal actions at once: the scratch capacity */
    start_fn start;             /* first dealer/player, then deal the first round */
    legal_fn legal;             /* legal ids ascending; the count, or -1 if capacity is short */
    apply_fn apply;             /* apply an id that legal() offered */
    observation_size_fn observation_size;   /* floats in observe()'s output */
    observe_fn observe;         /* the per-seat projection: only what that seat may know */
    returns_fn returns;         /* per seat, higher is better */
    scores_fn scores;           /* per seat, the scores the view shows */
    sample_hidden_fn sample_hidden;   /* redeal what a seat cannot see; 0 on success */
    rollout_fn rollout;         /* optional (NULL: uniform): a search rollout's move */
    const ZoneSpec *zones;      /* the game's zones and who sees them, num_zones long */
    int num_zones;
    zone_cards_fn zone_cards;   /* a zone instance's cards (bottom -> top for a pile); the count */
    known_cards_fn known_cards; /* optional: cards every seat knows are in a hidden zone */
    breakdown_fn breakdown;     /* the rows of the last finished round's scoring */
    rollout_fn greedy;          /* GreedyBot's move from what the seat to move may know */
    hand_cards_fn hand_cards;   /* optional: the cards an action takes by count or rank */
    play_fn play;               /* optional (NULL: play_loop): play_loop over this very table,
                                 * so that the compiler calls legal and apply directly */
    refuse_fn refuse;           /* why an id is not legal now (a Refusal) */
    int num_refusals;           /* the game's refusal templates: reasons are 0..num_refusals-1 */
    /* version 2; read through hooks_solve */
    solve_fn solve;             /* optional: exact play where the mover knows every card */
} GameHooks;

/* Does the table hold this field (is it as long as the field's end)? */
#define GAME_HOOKS_HAS(hooks, field) \
    ((size_t)(hooks)->size >= offsetof(GameHooks, field) + sizeof((hooks)->field))
/* The bytes of a version-1 table: up to the end of its last field, num_refusals. */
#define GAME_HOOKS_MIN_SIZE (offsetof(GameHooks, num_refusals) + sizeof(int))

/* 1 if this core can read the table: a version it knows (MIN_VERSION..VERSION) and a size
 * from the first version's to this core's; 0 otherwise (the caller refuses the game, saying
 * the table's version and size). */
static inline int hooks_compatible(const GameHooks *hooks) {
    return hooks->version >= CARDCORE_HOOKS_MIN_VERSION
        && hooks->version <= CARDCORE_HOOKS_VERSION
        && hooks->size >= GAME_HOOKS_MIN_SIZE && hooks->size <= sizeof(GameHooks);
}

/* The game's name, or NULL from a table too short to hold the fields every version has
 * (not a versioned table): for the message that refuses it. */
static inline const char *hooks_name(const GameHooks *hooks) {
    return hooks->size >= GAME_HOOKS_MIN_SIZE ? hooks->name : NULL;
}

/* The optional hooks added after version 1, NULL where the table ends before them. */
static inline solve_fn hooks_solve(const GameHooks *hooks) {
    return GAME_HOOKS_HAS(hooks, solve) ? hooks->solve : NULL;
}

enum {
    ZONE_CAPACITY = PILE_CAPACITY,   /* the most cards a zone instance holds (its out buffer) */
    HAND_CARDS_NAMED = -1,           /* hand_cards: the action names its cards (no choice) */
    HAND_CARDS_LACKING = -2,         /* hand_cards: the hand lacks what the action takes */
    MAX_BREAKDOWN_ROWS = 64          /* the most rows a round's breakdown has */
};

/* The whole breakdown hook of a game whose scoring keeps its rows: copy n of them, or -1 if
 * capacity is short. */
static inline int copy_breakdown(const BreakdownRow *rows, int n, BreakdownRow *out, int capacity) {
    int i;
    if (n > capacity) return -1;
    for (i = 0; i < n; i++) out[i] = rows[i];
    return n;
}

/* The next card Game.apply(..., cards=) chose among the interchangeable ids that the hand
 * still held beyond the copies picked so far (both per id); -1 if none. */
static inline int chosen_card(const Header *h, uint64_t interchangeable, const uint8_t *held,
                              const uint8_t *picked) {
    int i, k, c, wanted;
    for (i = 0; i < h->chosen_size; i++) {
        c = h->chosen[i];
        if (c >= NUM_KINDS || !(interchangeable & card_bit(c)) || held[c] <= picked[c]) continue;
        wanted = 0;
        for (k = 0; k < h->chosen_size; k++)
            if (h->chosen[k] == c) wanted += 1;
        if (picked[c] < wanted) return c;
    }
    return -1;
}

/* The deck of a deal, top card first: the stacked deck on the first deal, else the
 * composition shuffled with the game's generator. */
static inline void deal_prologue(Header *h, const uint8_t *composition, int n, uint8_t *deck_out) {
    int i;
    if (h->stacked_size > 0) {
        for (i = 0; i < n; i++) deck_out[i] = h->stacked[i];
        h->stacked_size = 0;
    } else {
        for (i = 0; i < n; i++) deck_out[i] = composition[i];
        shuffle_u8(&h->rng, deck_out, n);
    }
}

/* Uniformly random legal actions until the match is over (or max_actions); the number
 * applied, or -1 if a game that is not over offered no legal action. A game's `play` hook is
 * this loop over its own hook table, where the calls are direct: WebAssembly pays for an
 * indirect call (a table and signature check), about a tenth of Node's random playouts. */
static inline long long play_loop(void *s, const GameHooks *hooks, Rng *chooser,
                                  int32_t *scratch, long long max_actions) {
    Header *h = (Header *)s;   /* the header is the first member of every game's struct */
    long long done = 0;
    int n;
    while (h->to_move >= 0 && done < max_actions) {
        n = hooks->legal(s, scratch, hooks->max_legal);
        if (n <= 0) {
            h->actions_applied += done;
            return -1;
        }
        hooks->apply(s, scratch[rng_below(chooser, (uint32_t)n)]);
        done += 1;
    }
    h->actions_applied += done;
    return done;
}

static inline long long play_random(void *s, const GameHooks *hooks, Rng *chooser,
                                    int32_t *scratch, long long max_actions) {
    if (hooks->play != NULL) return hooks->play(s, chooser, scratch, max_actions);
    return play_loop(s, hooks, chooser, scratch, max_actions);
}


/* ------------------------------------------------------------------ action labels */
/* A bounded string builder for the C ABI's labels (str(action)), with snprintf's result:
 * every byte counted in n, at most len - 1 written, NUL-terminated by label_end when len > 0.
 * No libc: the kernels may not call snprintf. */
typedef struct Label {
    char *buf;
    size_t len;
    size_t n;
} Label;

static inline Label label_start(char *buf, size_t len) {
    Label b;
    b.buf = buf;
    b.len = len;
    b.n = 0;
    return b;
}

static inline void label_char(Label *b, char c) {
    if (b->n + 1 < b->len) b->buf[b->n] = c;
    b->n += 1;
}

static inline void label_put(Label *b, const char *text) {
    while (*text) label_char(b, *text++);
}

/* A non-negative int in decimal. */
static inline void label_int(Label *b, int value) {
    char digits[12];
    int k = 0;
    do {
        digits[k++] = (char)('0' + value % 10);
        value /= 10;
    } while (value > 0);
    while (k > 0) label_char(b, digits[--k]);
}

/* A rank index in cardcore.cards notation: A 2..10 J Q K. */
static inline void label_rank(Label *b, int rank) {
    static const char *const RANKS[NUM_RANKS] = {"A", "2", "3", "4", "5", "6", "7", "8", "9",
                                                 "10", "J", "Q", "K"};
    label_put(b, RANKS[rank]);
}

/* cardcore.cards.card_str: 10H, AS, JK. */
static inline void label_card(Label *b, int card) {
    if (card == JOKER) {
        label_put(b, "JK");
        return;
    }
    label_rank(b, card_rank(card));
    label_char(b, "CSDH"[card_suit(card)]);
}

/* NUL-terminate; the full length (what snprintf returns). */
static inline int label_end(Label *b) {
    if (b->len > 0) b->buf[b->n < b->len ? b->n : b->len - 1] = '\0';
    return (int)b->n;
}

/* ------------------------------------------------------------------ a game, as the C ABI sees it */
/* A game's options, declared in its kernel.c as a table the ABI checks JSON against (the
 * same names, defaults and bounds as the game's Python Option table; a test holds the two
 * equal). Every option resolves to one int64: a flag 0/1, a choice its index in choices, an
 * int its value, and an absent value (JSON null, where allowed) OPTION_NONE. */
typedef enum OptionKind {
    OPT_FLAG = 0,             /* true/false; players_mask, if not 0: the player counts it may be on */
    OPT_CHOICE = 1,           /* one of choices[0:num_choices] (JSON strings) */
    OPT_INT = 2,              /* lo..hi; null too where allow_none */
    OPT_SEAT_OR_LOT = 3,      /* a seat 0..players-1, or null: drawn by lot */
    OPT_PLAYERS_MULTIPLE = 4  /* null, or a multiple of the player count, at most hi */
} OptionKind;

#define OPTION_NONE INT64_MIN

typedef struct OptionSpec {
    const char *name;
    int kind;                 /* an OptionKind */
    const char *rule;         /* the rule ID an error names */
    int64_t dflt;             /* the resolved default (OPTION_NONE: null) */
    int64_t lo, hi;           /* OPT_INT: bounds; OPT_PLAYERS_MULTIPLE: hi */
    int allow_none;           /* OPT_INT: null accepted */
    const char *const *choices;
    int num_choices;
    uint32_t players_mask;    /* OPT_FLAG: bit p set = may be true with p players (0: any) */
} OptionSpec;

/* Everything the C ABI needs of a game beyond its hooks. init makes a zeroed state struct
 * into a game of `players` seats with the resolved options (values[i] for options[i]),
 * ready for hooks->start: it sets the header's players, phase and to_move (-1) but never its
 * stacked deck, which the caller sets before or after (Python's init_header, or the ABI);
 * 0, or -1 for values it cannot take. action_label writes
 * str(action) for an id (e.g. "attack 7H") as snprintf does: the full length, at most len
 * bytes, NUL-terminated when len > 0. */
typedef struct GameKernel {
    const GameHooks *hooks;
    const OptionSpec *options;
    int num_options;
    int min_players, max_players, default_players;
    int (*init)(void *state, int players, const int64_t *values);
    int (*action_label)(const void *state, int action, char *buf, size_t len);
    int deck_size;                       /* the largest composition over the player counts */
    int (*composition)(const void *state, uint8_t *out);   /* the deck's ids in id order */
} GameKernel;

#ifdef __cplusplus
}
#endif
#endif /* CARDCORE_KERNEL_H */
