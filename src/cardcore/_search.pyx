# cython: language_level=3, cdivision=True
"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS), in C, for any game.

Cowling, Powley and Whitehouse (2012), "Information Set Monte Carlo Tree Search". One tree
for the observer's information set: every iteration draws a world the observer cannot tell
from the real one (the game's ``sample_hidden`` hook, which depends only on what the observer
knows), descends the tree by UCB among the actions legal in that world (each child counts the
iterations in which it was available), adds one node, plays the rest of the match at random
and credits every move on the path with its mover's share of the win.

The search never reads the real hidden cards: it copies the root only to hand it to
``sample_hidden``, which redeals everything the observer cannot see from the observer's
knowledge and the search's own generator.
"""
from cpython.mem cimport PyMem_Malloc, PyMem_Realloc, PyMem_Free
from libc.math cimport log, sqrt
from libc.string cimport memcpy
from libc.stdint cimport int32_t, uint32_t, uint64_t

from cardcore._fast cimport GameState, GameHooks, Header, Rng, rng_seed, rng_below, rng_next32, play_random
from cardcore._fast import seed_to_u64


ctypedef struct Node:
    int32_t parent
    int32_t first_child
    int32_t next_sibling
    int32_t action           # the move from the parent to this node
    int32_t mover            # the seat that made it: rewards here are that seat's
    int32_t visits
    int32_t available        # iterations in which this move was legal at the parent
    double reward            # the mover's summed win shares


cdef struct Tree:
    Node* nodes
    int32_t size
    int32_t capacity


cdef int32_t add_node(Tree* t, int32_t parent, int32_t action, int32_t mover) noexcept nogil:
    """Append a child of ``parent``; -1 when the tree is full (capacity is set up front)."""
    if t.size >= t.capacity:
        return -1
    cdef int32_t k = t.size
    t.size += 1
    t.nodes[k].parent = parent
    t.nodes[k].first_child = -1
    t.nodes[k].next_sibling = -1
    t.nodes[k].action = action
    t.nodes[k].mover = mover
    t.nodes[k].visits = 0
    t.nodes[k].available = 0
    t.nodes[k].reward = 0.0
    if parent >= 0:
        t.nodes[k].next_sibling = t.nodes[parent].first_child
        t.nodes[parent].first_child = k
    return k


cdef void win_shares(const double* returns, int players, double* shares) noexcept nogil:
    """1 shared among the seats with the best return (ties split it), 0 for the others."""
    cdef double best = returns[0]
    cdef int p, winners = 0
    for p in range(1, players):
        if returns[p] > best:
            best = returns[p]
    for p in range(players):
        if returns[p] == best:
            winners += 1
    for p in range(players):
        shares[p] = 1.0 / winners if returns[p] == best else 0.0


cdef int search(const GameHooks* hooks, const void* root, int observer, int iterations,
                double exploration, Rng* rng, Tree* tree, char* world, int32_t* legal,
                int32_t* child_of, int32_t* untried) noexcept nogil:
    """Run the iterations; the root's children then hold the statistics. ``child_of`` is a
    num_actions-long map, all -1 on entry and on exit. Returns 0, or -1 on a full tree or a
    game that offered no move."""
    cdef Header* h = <Header*>world
    cdef int it, n, k, p, untried_count, players = (<const Header*>root).players
    cdef int32_t node, child, best
    cdef double best_value, value, shares[64], returns[64]
    cdef uint64_t high, low
    for it in range(iterations):
        memcpy(world, root, hooks.state_size)
        if hooks.sample_hidden(world, observer, rng) != 0:
            return -1
        high = rng_next32(rng)
        low = rng_next32(rng)
        rng_seed(&h.rng, (high << 32) | low)          # future shuffles are unknown too
        node = 0
        while h.to_move >= 0:
            n = hooks.legal(world, legal, hooks.max_legal)
            if n <= 0:
                return -1
            child = tree.nodes[node].first_child
            while child >= 0:
                child_of[tree.nodes[child].action] = child
                child = tree.nodes[child].next_sibling
            untried_count = 0
            best = -1
            best_value = -1.0
            for k in range(n):
                child = child_of[legal[k]]
                if child < 0:
                    untried[untried_count] = legal[k]
                    untried_count += 1
                else:
                    tree.nodes[child].available += 1
                    value = tree.nodes[child].reward / tree.nodes[child].visits + exploration * sqrt(
                        log(<double>tree.nodes[child].available) / tree.nodes[child].visits)
                    if value > best_value:
                        best_value = value
                        best = child
            child = tree.nodes[node].first_child
            while child >= 0:
                child_of[tree.nodes[child].action] = -1
                child = tree.nodes[child].next_sibling
            if untried_count > 0:                     # expand one untried move, then roll out
                k = untried[rng_below(rng, <uint32_t>untried_count)]
                child = add_node(tree, node, k, h.to_move)
                if child < 0:
                    return -1
                tree.nodes[child].available = 1
                hooks.apply(world, k)
                node = child
                break
            hooks.apply(world, tree.nodes[best].action)
            node = best
        if h.to_move >= 0 and play_random(world, hooks, rng, legal, 1_000_000_000) < 0:
            return -1
        hooks.returns(world, returns)
        win_shares(returns, players, shares)
        while node > 0:
            tree.nodes[node].visits += 1
            tree.nodes[node].reward += shares[tree.nodes[node].mover]
            node = tree.nodes[node].parent
        tree.nodes[0].visits += 1
    return 0


def ismcts_search(GameState state, int observer, int iterations, seed,
                  double exploration=0.7) -> list:
    """Search from ``state`` for the seat ``observer`` (the seat to move); returns
    [(action id, visits, mean win share), ...] for the root's moves, most visited first
    (ties: the lower id)."""
    if state is None or state.hooks == NULL:
        raise TypeError("state must be a game's state")
    if state.h.to_move < 0:
        raise ValueError("the game is over: there is nothing to search")
    if observer != state.h.to_move:
        raise ValueError(f"observer {observer} is not the seat to move ({state.h.to_move})")
    if not 1 <= iterations <= 10_000_000:
        raise ValueError("iterations must be 1..10,000,000")
    if not 0.0 <= exploration <= 100.0:
        raise ValueError("exploration must be 0..100")
    if state.h.players > 64:
        raise ValueError("more than 64 seats")
    cdef const GameHooks* hooks = state.hooks
    cdef Tree tree
    tree.size = 0
    tree.capacity = iterations + 1
    tree.nodes = <Node*>PyMem_Malloc(sizeof(Node) * tree.capacity)
    cdef char* world = <char*>PyMem_Malloc(hooks.state_size)
    cdef int32_t* legal = <int32_t*>PyMem_Malloc(sizeof(int32_t) * hooks.max_legal)
    cdef int32_t* untried = <int32_t*>PyMem_Malloc(sizeof(int32_t) * hooks.max_legal)
    cdef int32_t* child_of = <int32_t*>PyMem_Malloc(sizeof(int32_t) * hooks.num_actions)
    cdef Rng rng
    cdef int status, k
    try:
        if not (tree.nodes and world and legal and untried and child_of):
            raise MemoryError()
        for k in range(hooks.num_actions):
            child_of[k] = -1
        rng_seed(&rng, seed_to_u64(seed))
        add_node(&tree, -1, -1, -1)
        with nogil:
            status = search(hooks, state.data, observer, iterations, exploration, &rng, &tree,
                            world, legal, child_of, untried)
        if status != 0:
            raise RuntimeError("the search failed (no consistent world, or a stuck game)")
        stats = []
        child = tree.nodes[0].first_child
        while child >= 0:
            stats.append((tree.nodes[child].action, tree.nodes[child].visits,
                          tree.nodes[child].reward / max(1, tree.nodes[child].visits)))
            child = tree.nodes[child].next_sibling
        stats.sort(key=lambda entry: (-entry[1], entry[0]))
        return stats
    finally:
        PyMem_Free(tree.nodes)
        PyMem_Free(world)
        PyMem_Free(legal)
        PyMem_Free(untried)
        PyMem_Free(child_of)
