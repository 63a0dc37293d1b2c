/* SO-ISMCTS over any game's hooks (search.h): the core, moved 1:1 from cardcore/_search.pyx
 * (the same arithmetic and the same order of every generator call, so that the Python
 * extension, the native and the WebAssembly libraries search alike), and the ABI's stateful
 * search over a cc_game. */
#include "cardcore/core/search.h"

#include <math.h>

/* ------------------------------------------------------------------ the core (no allocation) */
int32_t cc_search_add_node(CcSearchTree *t, int32_t parent, int32_t action, int32_t mover) {
    int32_t k;
    if (t->size >= t->capacity) return -1;
    k = t->size;
    t->size += 1;
    t->nodes[k].parent = parent;
    t->nodes[k].first_child = -1;
    t->nodes[k].next_sibling = -1;
    t->nodes[k].action = action;
    t->nodes[k].mover = mover;
    t->nodes[k].visits = 0;
    t->nodes[k].available = 0;
    t->nodes[k].reward = 0.0;
    if (parent >= 0) {
        t->nodes[k].next_sibling = t->nodes[parent].first_child;
        t->nodes[parent].first_child = k;
    }
    return k;
}

void cc_search_win_shares(const double *result, const int32_t *side, int players,
                          double *shares) {
    double best = result[0];
    int p, q, winners = 0, counted;
    for (p = 1; p < players; p++)
        if (result[p] > best) best = result[p];
    for (p = 0; p < players; p++) {             /* count each winning side once */
        if (result[p] != best) continue;
        counted = 0;
        for (q = 0; q < p; q++) {
            if (side[q] == side[p]) {
                counted = 1;
                break;
            }
        }
        if (!counted) winners += 1;
    }
    for (p = 0; p < players; p++)
        shares[p] = result[p] == best ? 1.0 / (double)winners : 0.0;
}

void cc_search_margin_shares(const double *result, const int32_t *side, int players,
                             double scale, double *shares) {
    int p, q;
    double best_other;
    for (p = 0; p < players; p++) {
        best_other = -1e300;
        for (q = 0; q < players; q++)
            if (side[q] != side[p] && result[q] > best_other) best_other = result[q];
        shares[p] = best_other == -1e300 ? 0.5
                                         : 0.5 + 0.5 * tanh((result[p] - best_other) / scale);
    }
}

double cc_search_observer_margin(const double *result, const int32_t *side, int players,
                                 int observer) {
    double best_other = -1e300;
    int q;
    for (q = 0; q < players; q++)
        if (side[q] != side[observer] && result[q] > best_other) best_other = result[q];
    return best_other == -1e300 ? 0.0 : fabs(result[observer] - best_other);
}

int cc_search_before_horizon(const Header *h, int horizon_round) {
    return h->to_move >= 0 && (horizon_round < 0 || h->round_index == horizon_round);
}

int cc_search_rollout(const GameHooks *hooks, void *world, int horizon_round, rollout_fn policy,
                      Rng *rng, int32_t *legal) {
    Header *h = (Header *)world;
    int n, k;
    while (cc_search_before_horizon(h, horizon_round)) {
        n = hooks->legal(world, legal, hooks->max_legal);
        if (n <= 0) return -1;
        if (policy != NULL) {
            k = policy(world, legal, n, rng);
            if (k < 0 || k >= n)                    /* a policy's bad index: play at random */
                k = (int)rng_below(rng, (uint32_t)n);
        } else {
            k = (int)rng_below(rng, (uint32_t)n);
        }
        hooks->apply(world, legal[k]);
    }
    return 0;
}

int cc_search_batch(const GameHooks *hooks, const void *root, int observer, int iterations,
                    double exploration, double prior, int round_horizon, rollout_fn policy,
                    double points_scale, double *scale_sum, int64_t *scale_count,
                    const int32_t *side, Rng *rng, CcSearchTree *tree, char *world,
                    int32_t *legal, int32_t *child_of, int32_t *untried) {
    Header *h = (Header *)world;
    int it, n, k, p, untried_count, children, favourite;
    int players = ((const Header *)root)->players;
    int horizon_round = round_horizon ? ((const Header *)root)->round_index : -1;
    int32_t node, child, best;
    double best_value, value, scale;
    double shares[CC_SEARCH_MAX_PLAYERS];
    double start[CC_SEARCH_MAX_PLAYERS];
    double result[CC_SEARCH_MAX_PLAYERS];
    uint64_t high, low;
    for (it = 0; it < iterations; it++) {
        memcpy(world, root, hooks->state_size);
        if (hooks->sample_hidden(world, observer, rng) != 0) return -1;
        high = rng_next32(rng);
        low = rng_next32(rng);
        rng_seed(&h->rng, (high << 32) | low);             /* future shuffles are unknown too */
        if (round_horizon) hooks->returns(world, start);  /* the standing the round's score adds to */
        node = 0;
        while (cc_search_before_horizon(h, horizon_round)) {
            n = hooks->legal(world, legal, hooks->max_legal);
            if (n <= 0) return -1;
            children = 0;
            child = tree->nodes[node].first_child;
            while (child >= 0) {
                child_of[tree->nodes[child].action] = child;
                children += 1;
                child = tree->nodes[child].next_sibling;
            }
            untried_count = 0;
            best = -1;
            best_value = -1.0;
            favourite = -1;
            if (policy != NULL && prior > 0) {
                k = policy(world, legal, n, rng);
                if (0 <= k && k < n) favourite = legal[k];
            }
            for (k = 0; k < n; k++) {
                child = child_of[legal[k]];
                if (child < 0) {
                    untried[untried_count] = legal[k];
                    untried_count += 1;
                } else {
                    CcSearchNode *c = &tree->nodes[child];
                    c->available += 1;
                    value = c->reward / (double)c->visits
                            + exploration * sqrt(log((double)c->available) / (double)c->visits);
                    if (legal[k] == favourite)             /* the policy's move: a PUCT-like prior */
                        value = value + prior * sqrt((double)c->available) / (double)(1 + c->visits);
                    if (value > best_value) {
                        best_value = value;
                        best = child;
                    }
                }
            }
            child = tree->nodes[node].first_child;
            while (child >= 0) {
                child_of[tree->nodes[child].action] = -1;
                child = tree->nodes[child].next_sibling;
            }
            if (untried_count > 0 && (policy == NULL || node == 0 || best < 0
                                      || children * children <= tree->nodes[node].visits)) {
                /* Expand one untried move, then roll out. With a rollout policy, the policy's
                 * favourite among the untried moves, and below the root only while the node
                 * has at most sqrt(visits) children (progressive widening): in worlds that
                 * offer new moves all the time (other hands, other draws) the tree would
                 * otherwise play mostly untried, i.e. random, moves. */
                k = -1;
                if (policy != NULL) k = policy(world, untried, untried_count, rng);
                if (k < 0 || k >= untried_count) k = (int)rng_below(rng, (uint32_t)untried_count);
                k = untried[k];
                child = cc_search_add_node(tree, node, k, h->to_move);
                if (child < 0) return -1;
                tree->nodes[child].available = 1;
                hooks->apply(world, k);
                node = child;
                break;
            }
            hooks->apply(world, tree->nodes[best].action);
            node = best;
        }
        if (cc_search_rollout(hooks, world, horizon_round, policy, rng, legal) < 0) return -1;
        hooks->returns(world, result);
        if (round_horizon)
            for (p = 0; p < players; p++) result[p] -= start[p];
        if (points_scale > 0 && h->to_move >= 0) {         /* the match goes on: points */
            /* The scale is the mean size of the observer's margin so far (the prior
             * points_scale counting as one iteration): rewards spread over 0..1 in any game. */
            *scale_sum += cc_search_observer_margin(result, side, players, observer);
            *scale_count += 1;
            scale = *scale_sum / (double)*scale_count;
            if (1.0 > scale) scale = 1.0;                   /* Python's max(scale, 1.0) */
            cc_search_margin_shares(result, side, players, scale, shares);
        } else {
            cc_search_win_shares(result, side, players, shares);
        }
        while (node > 0) {
            tree->nodes[node].visits += 1;
            tree->nodes[node].reward += shares[tree->nodes[node].mover];
            node = tree->nodes[node].parent;
        }
        tree->nodes[0].visits += 1;
    }
    return 0;
}

/* ------------------------------------------------------------------ the ABI's search */
#ifndef CC_SEARCH_NO_ABI

#include "cardcore/core/internal.h"

struct cc_search {
    const GameHooks *hooks;
    void *root;               /* the position searched: a copy of the game's state */
    int observer;             /* the seat to move there */
    int round_horizon;
    rollout_fn policy;
    double exploration, prior;
    double scale_sum;         /* the points reward's (unused: the ABI's reward is the win) */
    int64_t scale_count;
    int32_t side[CC_SEARCH_MAX_PLAYERS];
    Rng rng;
    CcSearchTree tree;
    char *world;              /* scratch, as cc_search_batch asks */
    int32_t *legal, *untried, *child_of;
    int iterations;           /* run so far */
    int failed;               /* 0, or the code every later run returns */
};

void cc_search_free(cc_search *s) {
    if (s == NULL) return;
    CC_FREE(s->tree.nodes);
    CC_FREE(s->world);
    CC_FREE(s->legal);
    CC_FREE(s->untried);
    CC_FREE(s->child_of);
    CC_FREE(s->root);
    CC_FREE(s);
}

cc_search *cc_search_new(const cc_game *g, uint64_t seed, int rollout, int horizon,
                         double exploration, double prior) {
    const GameHooks *hooks;
    const Header *h;
    cc_search *s;
    rollout_fn policy = NULL;
    int k;
    if (g == NULL) return NULL;
    hooks = cc_internal_hooks(g);
    h = (const Header *)cc_internal_state(g);
    if (hooks == NULL || h == NULL || h->to_move < 0 || h->players < 1
        || h->players > CC_SEARCH_MAX_PLAYERS)
        return NULL;
    if (rollout < 0 || rollout > 2 || horizon < 0 || horizon > 1
        || !(exploration >= 0.0 && exploration <= 100.0) || !(prior >= 0.0 && prior <= 100.0))
        return NULL;                                 /* (the comparisons are false for NaN) */
    if (rollout == 0) {
        policy = hooks->rollout;
    } else if (rollout == 1) {
        policy = hooks->greedy;
        if (policy == NULL) return NULL;            /* no in-core greedy policy */
    }
    s = (cc_search *)CC_MALLOC(sizeof(cc_search));
    if (s == NULL) return NULL;
    s->hooks = hooks;
    s->observer = h->to_move;
    s->round_horizon = horizon == 1;
    s->policy = policy;
    s->exploration = exploration;
    s->prior = prior;
    s->scale_sum = 0.0;
    s->scale_count = 1;
    for (k = 0; k < CC_SEARCH_MAX_PLAYERS; k++) s->side[k] = k;   /* every seat its own side */
    s->iterations = 0;
    s->failed = 0;
    s->tree.size = 0;
    s->tree.capacity = CC_SEARCH_INITIAL_NODES;
    s->tree.nodes = (CcSearchNode *)CC_MALLOC(sizeof(CcSearchNode) * (size_t)s->tree.capacity);
    s->root = CC_MALLOC(hooks->state_size);
    s->world = (char *)CC_MALLOC(hooks->state_size);
    s->legal = (int32_t *)CC_MALLOC(sizeof(int32_t) * (size_t)hooks->max_legal);
    s->untried = (int32_t *)CC_MALLOC(sizeof(int32_t) * (size_t)hooks->max_legal);
    s->child_of = (int32_t *)CC_MALLOC(sizeof(int32_t) * (size_t)hooks->num_actions);
    if (s->tree.nodes == NULL || s->root == NULL || s->world == NULL || s->legal == NULL
        || s->untried == NULL || s->child_of == NULL) {
        cc_search_free(s);
        return NULL;
    }
    memcpy(s->root, h, hooks->state_size);
    for (k = 0; k < hooks->num_actions; k++) s->child_of[k] = -1;
    rng_seed(&s->rng, seed);
    cc_search_add_node(&s->tree, -1, -1, -1);       /* the root's node */
    return s;
}

int cc_search_run(cc_search *s, int iterations) {
    int32_t needed, capacity;
    CcSearchNode *grown;
    if (s == NULL || iterations < 0 || iterations > CC_SEARCH_MAX_ITERATIONS - s->iterations)
        return CC_E_ARGUMENT;
    if (s->failed != 0) return s->failed;
    if (iterations == 0) return CC_OK;
    needed = s->tree.size + iterations;             /* an iteration adds at most one node */
    if (needed > s->tree.capacity) {                /* double, or more when a batch needs it */
        capacity = s->tree.capacity <= CC_SEARCH_MAX_ITERATIONS / 2 ? 2 * s->tree.capacity
                                                                    : CC_SEARCH_MAX_ITERATIONS + 1;
        if (capacity < needed) capacity = needed;
        grown = (CcSearchNode *)CC_MALLOC(sizeof(CcSearchNode) * (size_t)capacity);
        if (grown == NULL) return CC_E_NOMEM;       /* nothing changed */
        memcpy(grown, s->tree.nodes, sizeof(CcSearchNode) * (size_t)s->tree.size);
        CC_FREE(s->tree.nodes);
        s->tree.nodes = grown;
        s->tree.capacity = capacity;
    }
    if (cc_search_batch(s->hooks, s->root, s->observer, iterations, s->exploration, s->prior,
                        s->round_horizon, s->policy, 0.0, &s->scale_sum, &s->scale_count,
                        s->side, &s->rng, &s->tree, s->world, s->legal, s->child_of,
                        s->untried) != 0) {
        s->failed = CC_E_ILLEGAL;                    /* the game's hooks failed: no way on */
        return s->failed;
    }
    s->iterations += iterations;
    return CC_OK;
}

int cc_search_best(const cc_search *s) {
    int32_t child, best = -1;
    if (s == NULL || s->iterations == 0) return CC_E_ARGUMENT;
    for (child = s->tree.nodes[0].first_child; child >= 0;
         child = s->tree.nodes[child].next_sibling) {
        if (best < 0 || s->tree.nodes[child].visits > s->tree.nodes[best].visits
            || (s->tree.nodes[child].visits == s->tree.nodes[best].visits
                && s->tree.nodes[child].action < s->tree.nodes[best].action))
            best = child;
    }
    return best < 0 ? CC_E_ARGUMENT : s->tree.nodes[best].action;
}

int cc_search_iterations(const cc_search *s) {
    return s == NULL ? CC_E_ARGUMENT : s->iterations;
}

#endif /* CC_SEARCH_NO_ABI */
