# cython: language_level=3, cdivision=True
# distutils: sources = src/cardcore/core/search.c
# distutils: extra_compile_args = -DCC_SEARCH_NO_ABI
"""Single-observer information-set Monte Carlo tree search (SO-ISMCTS), in C, for any game.

Cowling, Powley and Whitehouse (2012), "Information Set Monte Carlo Tree Search". One tree
for the observer's information set: every iteration draws a world the observer cannot tell
from the real one (the game's ``sample_hidden`` hook, which depends only on what the observer
knows), descends the tree by UCB among the actions legal in that world (each child counts the
iterations in which it was available), adds one node, plays on to the horizon and credits
every move on the path with its mover's share of the win.

The horizon is the end of the match, or the end of the current round (deal, hand: the
header's ``round_index`` moves on, or the match ends). The win is judged on the game's
``returns`` hook (higher is better): at the end of the match on their values, at the end of a
round on their change since the iteration began (the round's score). Seats on one side (a
partnership) win together: the win goes to the side(s) with the best result, ties split it.
Rollouts play the game's ``rollout`` hook when it has one (a cheap in-core policy), its
``greedy`` hook when asked, or uniformly random moves. With a policy the tree uses it as well: untried moves are expanded in
the policy's order, below the root only while a node has at most sqrt(visits) children
(progressive widening: sampled worlds keep offering moves no earlier world had, and expanding
each at once would make the tree's moves mostly random), and ``prior`` adds
prior * sqrt(available) / (1 + visits) to the UCB value of the policy's move.

The search never reads the real hidden cards: it copies the root only to hand it to
``sample_hidden``, which redeals everything the observer cannot see from the observer's
knowledge and the search's own generator.
"""
import time

from cpython.exc cimport PyErr_CheckSignals
from cpython.mem cimport PyMem_Malloc, PyMem_Realloc, PyMem_Free
from libc.stdint cimport int32_t, int64_t, uint32_t, uint64_t

from cardcore._fast cimport GameState, GameHooks, Rng, rng_seed, rng_below, rollout_fn
from cardcore._fast import seed_to_u64
from cardcore.errors import echo


# The search itself is C (src/cardcore/core/search.c, the same core the native and WebAssembly
# libraries run); this module checks the arguments, owns the tree's memory and runs the
# iterations in slices without the GIL.
cdef extern from "cardcore/core/search.h" nogil:
    ctypedef struct Node "CcSearchNode":
        int32_t parent
        int32_t first_child
        int32_t next_sibling
        int32_t action           # the move from the parent to this node
        int32_t mover            # the seat that made it: rewards here are that seat's
        int32_t visits
        int32_t available        # iterations in which this move was legal at the parent
        double reward            # the mover's summed win shares

    ctypedef struct Tree "CcSearchTree":
        Node* nodes
        int32_t size
        int32_t capacity

    # Append a child of ``parent``; -1 when the tree is full (capacity is set up front).
    int32_t add_node "cc_search_add_node"(Tree* t, int32_t parent, int32_t action,
                                           int32_t mover) noexcept
    # Run the iterations; the root's children then hold the statistics. ``child_of`` is a
    # num_actions-long map, all -1 on entry and on exit. Returns 0, or -1 on a full tree or a
    # game that offered no move.
    int search "cc_search_batch"(const GameHooks* hooks, const void* root, int observer,
                                 int iterations, double exploration, double prior,
                                 bint round_horizon, rollout_fn policy, double points_scale,
                                 double* scale_sum, int64_t* scale_count, const int32_t* side,
                                 Rng* rng, Tree* tree, char* world, int32_t* legal,
                                 int32_t* child_of, int32_t* untried) noexcept


HORIZONS = ("round", "match")
ROLLOUTS = ("game", "greedy", "random")
REWARDS = ("win", "points")
cdef enum:
    C_MAX_ITERATIONS = 10000000
    C_INITIAL_NODES = 1024         # the tree grows between slices: memory follows iterations
# The iterations run in slices without the GIL; between two slices the search checks for
# signals (Ctrl-C raises KeyboardInterrupt at once) and for the end of its time budget. A
# slice aims at SLICE_SECONDS (the first has one iteration, then they double up to that), so
# an interrupt waits at most about that long, or one iteration when a single one is longer.
cdef double C_SLICE_SECONDS = 0.01
MAX_ITERATIONS = C_MAX_ITERATIONS
MAX_THINK_MS = 3_600_000.0          # an hour per decision
SLICE_SECONDS = C_SLICE_SECONDS


cdef int grow_tree(Tree* tree, int32_t needed) except -1:
    """Room for ``needed`` nodes in all (between slices, with the GIL)."""
    if needed <= tree.capacity:
        return 0
    cdef int32_t capacity = <int32_t>max(<int64_t>needed, min(2 * <int64_t>tree.capacity,
                                                              <int64_t>C_MAX_ITERATIONS + 1))
    cdef Node* grown = <Node*>PyMem_Realloc(tree.nodes, sizeof(Node) * capacity)
    if grown == NULL:
        raise MemoryError()
    tree.nodes = grown
    tree.capacity = capacity
    return 0


def ismcts_search(GameState state, int observer, int iterations, seed,
                  double exploration=0.7, str horizon="match", str rollout="game",
                  sides=None, double prior=0.0, think_ms=None, str reward="win",
                  double points_scale=0.0) -> list:
    """Search from ``state`` for the seat ``observer`` (the seat to move); returns
    [(action id, visits, mean win share), ...] for the root's moves, most visited first
    (ties: the lower id); the visits add up to the iterations run. ``horizon``: "round" or
    "match"; ``rollout``: "game" (the game's rollout policy, uniform without one), "greedy"
    (the game's in-core greedy policy, which reads only the mover's information of each
    sampled world: slower, and a player's own judgement) or "random"; ``sides``: a side number per seat (partners share one), default every seat on
    its own; ``prior``: the weight of the rollout policy's move in the tree (0..100);
    ``think_ms``: a time budget, after which the search stops (at least one iteration runs;
    ``iterations`` is then a cap); ``reward``: "win" (the win shares of the horizon's result)
    or "points" (with the round horizon: when the match goes on past the round, each seat's
    margin, its round score less the best other side's, as 0.5 + 0.5 * tanh(margin / scale),
    the scale the mean size of the observer's margins in the search so far, ``points_scale``
    its prior worth one iteration; a match that ends still pays its win). The same arguments without
    ``think_ms`` give the same result. KeyboardInterrupt (or any signal handler's exception) stops the search within
    about SLICE_SECONDS."""
    if state is None or state.hooks == NULL:
        raise TypeError("state must be a game's state")
    if state.h.to_move < 0:
        raise ValueError("the game is over: there is nothing to search")
    if observer != state.h.to_move:
        raise ValueError(f"observer {observer} is not the seat to move ({state.h.to_move})")
    if not 1 <= iterations <= C_MAX_ITERATIONS:
        raise ValueError(f"iterations must be 1..{MAX_ITERATIONS:,}")
    if not 0.0 <= exploration <= 100.0:
        raise ValueError("exploration must be 0..100")
    if state.h.players > 64:
        raise ValueError("more than 64 seats")
    if horizon not in HORIZONS:
        raise ValueError(f"horizon must be one of {HORIZONS}, not {echo(horizon)}")
    if rollout not in ROLLOUTS:
        raise ValueError(f"rollout must be one of {ROLLOUTS}, not {echo(rollout)}")
    if not 0.0 <= prior <= 100.0:
        raise ValueError("prior must be 0..100")
    if reward not in REWARDS:
        raise ValueError(f"reward must be one of {REWARDS}, not {echo(reward)}")
    if reward == "points" and not points_scale > 0:
        raise ValueError("the points reward needs a positive points_scale")
    cdef double scale = points_scale if reward == "points" else 0.0
    cdef double scale_sum = scale                   # the prior: one iteration's worth
    cdef int64_t scale_count = 1
    cdef double budget = -1.0
    if think_ms is not None:
        if (isinstance(think_ms, bool) or not isinstance(think_ms, (int, float))
                or not 0 < think_ms <= MAX_THINK_MS):
            raise ValueError(f"think_ms must be a number of milliseconds in (0, "
                             f"{MAX_THINK_MS:,.0f}], not {echo(think_ms)}")
        budget = think_ms / 1000.0
    cdef int k, players = state.h.players
    cdef int32_t side[64]
    if sides is None:
        sides = range(players)
    sides = list(sides)
    if len(sides) != players or not all(type(x) is int and 0 <= x < players for x in sides):
        raise ValueError(f"sides must be {players} side numbers 0..{players - 1}, not "
                         f"{echo(sides)}")
    for k in range(players):
        side[k] = sides[k]
    cdef bint round_horizon = horizon == "round"
    cdef rollout_fn policy = NULL
    if rollout == "game":
        policy = state.hooks.rollout
    elif rollout == "greedy":
        policy = state.hooks.greedy
        if policy == NULL:
            raise ValueError(f"{state.hooks.name.decode()} has no in-core greedy policy to "
                             f"roll out with")
    cdef const GameHooks* hooks = state.hooks
    cdef Tree tree
    tree.size = 0
    tree.capacity = min(iterations + 1, C_INITIAL_NODES)
    tree.nodes = <Node*>PyMem_Malloc(sizeof(Node) * tree.capacity)
    cdef char* world = <char*>PyMem_Malloc(hooks.state_size)
    cdef int32_t* legal = <int32_t*>PyMem_Malloc(sizeof(int32_t) * hooks.max_legal)
    cdef int32_t* untried = <int32_t*>PyMem_Malloc(sizeof(int32_t) * hooks.max_legal)
    cdef int32_t* child_of = <int32_t*>PyMem_Malloc(sizeof(int32_t) * hooks.num_actions)
    cdef Rng rng
    cdef int status = 0, done = 0, count, chunk = 1
    cdef double began, now, elapsed, deadline
    clock = time.perf_counter
    try:
        if not (tree.nodes and world and legal and untried and child_of):
            raise MemoryError()
        for k in range(hooks.num_actions):
            child_of[k] = -1
        rng_seed(&rng, seed_to_u64(seed))
        add_node(&tree, -1, -1, -1)
        deadline = clock() + budget
        while done < iterations:
            count = min(chunk, iterations - done)
            grow_tree(&tree, tree.size + count)         # an iteration adds at most one node
            began = clock()
            with nogil:
                status = search(hooks, state.data, observer, count, exploration, prior,
                                round_horizon, policy, scale, &scale_sum, &scale_count, side,
                                &rng, &tree, world, legal,
                                child_of, untried)
            if status != 0:
                raise RuntimeError("the search failed (no consistent world, or a stuck game)")
            done += count
            PyErr_CheckSignals()                         # Ctrl-C: KeyboardInterrupt here
            now = clock()
            if budget >= 0 and now >= deadline:
                break
            elapsed = now - began
            if elapsed < C_SLICE_SECONDS / 2:
                chunk = min(2 * chunk, C_MAX_ITERATIONS)
            elif elapsed > 2 * C_SLICE_SECONDS and chunk > 1:
                chunk //= 2
            if budget >= 0 and elapsed > 0:              # never far past the deadline
                chunk = max(1, min(chunk, <int>(count * (deadline - now) / elapsed) + 1))
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


def rollout_move(GameState state, seed) -> int:
    """The move the game's rollout policy plays in ``state`` (uniform without one), drawing
    its ties from ``seed``. For tests and diagnostics: the policy reads the whole state, hidden
    cards included, so it is no player (the search hands it sampled worlds only)."""
    if state is None or state.hooks == NULL:
        raise TypeError("state must be a game's state")
    if state.h.to_move < 0:
        raise ValueError("the game is over: there is no move")
    cdef const GameHooks* hooks = state.hooks
    cdef int n = state.fill_legal(), k
    cdef Rng rng
    rng_seed(&rng, seed_to_u64(seed))
    if n <= 0:
        raise RuntimeError("a game that is not over offered no legal action")
    k = hooks.rollout(state.data, state.legal_buf, n, &rng) if hooks.rollout != NULL else -1
    if k < 0 or k >= n:
        k = <int>rng_below(&rng, <uint32_t>n)
    return state.legal_buf[k]
