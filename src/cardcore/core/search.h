/* Single-observer information-set Monte Carlo tree search (SO-ISMCTS) over any game's hook
 * table (GameHooks, kernel.h), in C99: the core that the Python extension (cardcore._search)
 * wraps and that the native and WebAssembly libraries (cardcore.h) run.
 *
 * Cowling, Powley and Whitehouse (2012), "Information Set Monte Carlo Tree Search". One tree
 * for the observer's information set: every iteration draws a world the observer cannot tell
 * from the real one (the game's sample_hidden hook), descends the tree by UCB among the actions
 * legal in that world (each child counts the iterations in which it was available), adds one
 * node, plays on to the horizon and credits every move on the path with its mover's share of
 * the win. cardcore/_search.pyx's docstring tells the whole method.
 *
 * The core allocates nothing and has no global that changes: the tree's memory and every
 * scratch buffer are the caller's (cc_search_batch says how big each must be). The same
 * arguments and generator give the same tree on every platform: the only floating point is
 * +, -, *, / and log, sqrt, tanh, fabs of <math.h>, in one fixed order.
 */
#ifndef CARDCORE_SEARCH_H
#define CARDCORE_SEARCH_H

#include "cardcore/core/kernel.h"
#include "cardcore/core/cardcore.h"

#ifdef __cplusplus
extern "C" {
#endif

enum {
    CC_SEARCH_MAX_PLAYERS = 64,           /* the most seats a search handles */
    CC_SEARCH_MAX_ITERATIONS = 10000000,  /* the most iterations of one search (int32 tree) */
    CC_SEARCH_INITIAL_NODES = 1024        /* the tree's first capacity; it grows between batches */
};

typedef struct CcSearchNode {
    int32_t parent;
    int32_t first_child;
    int32_t next_sibling;
    int32_t action;           /* the move from the parent to this node */
    int32_t mover;            /* the seat that made it: rewards here are that seat's */
    int32_t visits;
    int32_t available;        /* iterations in which this move was legal at the parent */
    double reward;            /* the mover's summed win shares */
} CcSearchNode;

/* nodes[0:size] are the tree (node 0 the root), nodes[size:capacity] room for more. */
typedef struct CcSearchTree {
    CcSearchNode *nodes;
    int32_t size;
    int32_t capacity;
} CcSearchTree;

/* Append a child of parent (-1: the root); its index, or -1 when the tree is full. */
int32_t cc_search_add_node(CcSearchTree *t, int32_t parent, int32_t action, int32_t mover);

/* 1 shared among the sides with the best result (ties split it); every seat of a winning side
 * gets its side's share, the others 0. Seats of one side have equal results. */
void cc_search_win_shares(const double *result, const int32_t *side, int players,
                          double *shares);

/* The points-aware reward: each seat's margin (its result less the best other side's)
 * squashed to 0.5 + 0.5 * tanh(margin / scale), 0..1 (two sides: the shares add up to 1). */
void cc_search_margin_shares(const double *result, const int32_t *side, int players,
                             double scale, double *shares);

/* |the observer's margin|: what the points reward's scale averages. */
double cc_search_observer_margin(const double *result, const int32_t *side, int players,
                                 int observer);

/* The iteration plays on: the match is not over and (horizon_round < 0, the match horizon)
 * the round it began in is still being played. */
int cc_search_before_horizon(const Header *h, int horizon_round);

/* Play to the horizon: the rollout policy (a game's hook; NULL: none) or uniformly random
 * moves. legal: hooks->max_legal ids of scratch. 0, or -1 if a game that is not over offered
 * no move. */
int cc_search_rollout(const GameHooks *hooks, void *world, int horizon_round, rollout_fn policy,
                      Rng *rng, int32_t *legal);

/* Run `iterations` iterations from root (a state of hooks' game, the observer to move) on
 * tree, whose node 0 is the root's node; the root's children then hold the statistics.
 * policy: the rollout policy (NULL: uniform); prior: its move's weight in the tree;
 * round_horizon: 1 = the round's end, 0 = the match's; points_scale > 0: the points reward,
 * its scale kept in *scale_sum / *scale_count (0: the win reward; they are then unused);
 * side: a side number per seat. Scratch, the caller's: world hooks->state_size bytes, legal
 * and untried hooks->max_legal ids, child_of hooks->num_actions ids, all -1 on entry (and so
 * on exit). The tree needs room for `iterations` more nodes (an iteration adds at most one).
 * 0, or -1 on a full tree, a world sample_hidden could not deal or a game that offered no
 * move. */
int cc_search_batch(const GameHooks *hooks, const void *root, int observer, int iterations,
                    double exploration, double prior, int round_horizon, rollout_fn policy,
                    double points_scale, double *scale_sum, int64_t *scale_count,
                    const int32_t *side, Rng *rng, CcSearchTree *tree, char *world,
                    int32_t *legal, int32_t *child_of, int32_t *untried);

/* The ABI's search (cc_search_new ... cc_search_free) is declared in cardcore.h; search.c
 * defines it unless CC_SEARCH_NO_ABI (the Python extension, which has no cc_game). */

#ifdef __cplusplus
}
#endif
#endif /* CARDCORE_SEARCH_H */
