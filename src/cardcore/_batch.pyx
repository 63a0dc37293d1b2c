# cython: language_level=3, cdivision=True
"""Many games of one configuration stepped together in C, and whole runs played in C.

Both work over any game of the framework (``GameHooks``): the games live side by side in one
block of memory, each a copy of the game's struct, and every loop below runs without the GIL,
so a caller may split the games between threads (``lo``/``hi`` ranges).

Seeds: game slot ``i`` plays its ``k``-th episode (0, 1, ... after each auto-restart) with
``episode_seed(seed, i, k)``; ``new_game(name, seed=episode_seed(seed, i, k), ...)`` deals the
same game. ``run_seed``/``chooser_seed`` are simulate's seeds (game ``index`` of a run).
"""
cimport cython
from cpython.buffer cimport PyBuffer_Release
from cpython.mem cimport PyMem_Malloc, PyMem_Free
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memcpy, memset
from libc.stdint cimport int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

from cardcore._fast cimport (
    GameState, GameHooks, Header, Random, Rng, rng_seed, rng_below, play_random, get_buffer,
)
from cardcore._fast import seed_to_u64
from cardcore.errors import IllegalActionError


cdef inline uint64_t mix64(uint64_t x) noexcept nogil:
    """splitmix64's finaliser, a bijective 64-bit hash (simulation.py's ``_mix``)."""
    x += 0x9E3779B97F4A7C15ULL
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL
    return x ^ (x >> 31)


cdef inline uint64_t derive(uint64_t base, uint64_t index, uint64_t stream) noexcept nogil:
    return mix64(mix64(base ^ index) ^ stream)


cdef enum:
    EPISODE_STREAM = 0x7EC7      # keeps VectorGame's seeds apart from simulate's streams 0, 1, 2+
    OPPONENT_STREAM = 0x0BB0     # an in-core opponent's generator, from its episode's seed


def episode_seed(seed, int64_t slot, int64_t episode) -> int:
    """The seed of episode ``episode`` of game slot ``slot`` in a VectorGame seeded ``seed``."""
    if slot < 0 or episode < 0:
        raise ValueError("slot and episode must be >= 0")
    return mix64(derive(mix64(seed_to_u64(seed)), <uint64_t>slot, EPISODE_STREAM) ^ <uint64_t>episode)


class NoLearnerTurn(RuntimeError):
    """A slot's episodes kept ending (or being cut) before any learner seat moved."""


def opponent_seed(seed, int64_t slot, int64_t episode, int64_t seat) -> int:
    """The seed of the in-core opponent at ``seat`` in episode ``episode`` of game slot
    ``slot`` (VectorGame ``opponents``): ``derive(episode_seed(seed, slot, episode), seat,
    OPPONENT_STREAM)``. A Python bot ``reseed`` with it makes the same moves."""
    if seat < 0:
        raise ValueError("seat must be >= 0")
    return derive(episode_seed(seed, slot, episode), <uint64_t>seat, OPPONENT_STREAM)


cdef inline Header* header_at(char* state) noexcept nogil:
    return <Header*>state          # the Header is the first member of every game's struct


cdef enum:
    SHORT_LIST = 8           # legal lists this short are padded with -1 (first_illegal)
    # A slot's action log keeps its memory for the next episode up to this many entries; a
    # longer one is freed when its episode ends, so memory follows the episodes being played,
    # not the longest one ever seen (each log is also capped at the game's max_game_length).
    LOG_KEEP_ENTRIES = 4096
    LOG_OUT_OF_MEMORY = 1
    LOG_OVER_BOUND = 2
    # Why an in-core opponent could not move (apply_all's ``log_error`` too).
    PLAY_NO_LEGAL = 3            # a game that is not over offered no legal action
    PLAY_POLICY_FAILED = 4       # the greedy hook chose no legal index
    PLAY_NO_LEARNER = 5          # episodes kept ending before any learner seat moved
    # A slot whose episodes end this many times in a row before a learner seat moves is an
    # error (PLAY_NO_LEARNER), not a loop for ever.
    MAX_LEARNERLESS_EPISODES = 64
    REWARD_RETURNS = 0
    REWARD_WIN = 1

LOG_KEEP = LOG_KEEP_ENTRIES

cdef enum:
    # legal_mask remembers up to this many ids per row, to clear just those next time (a
    # row can be ~3,000 bytes, with a handful set); a row with more is cleared whole.
    MASK_REMEMBERED = 64
    # Rows narrower than this are cleared whole: a few cache lines, as cheap as the bookkeeping.
    MASK_SPARSE_MIN_WIDTH = 512


@cython.final
cdef class VectorCore:
    """``n`` games of one configuration (copies of an unstarted template state)."""
    cdef GameState template
    cdef const GameHooks* hooks
    cdef size_t size
    cdef int n, players, max_legal, num_actions
    cdef uint64_t base                  # mix64(seed)
    cdef char* states                   # n game structs, back to back
    cdef int32_t* legal                 # n * max_legal: the legal ids of each game ...
    cdef int32_t* legal_count           # ... and their count, -1 when not computed since a change
    cdef int64_t* episode
    cdef int32_t** logs                 # the actions of each game's current episode
    cdef int32_t* log_len
    cdef int32_t* log_cap
    cdef int32_t max_log                # the game's max_game_length (capped to int32)
    cdef int log_error                  # why apply_all stopped: LOG_OUT_OF_MEMORY, LOG_OVER_BOUND
    # The mask array legal_mask wrote last (held, so that its memory stays that array's) and,
    # per row, the ids set in it (mask_count -1: unknown, the row must be cleared whole).
    cdef object mask_obj
    cdef uint8_t* mask_ptr
    cdef int mask_width
    cdef uint16_t* mask_ids             # n * MASK_REMEMBERED
    cdef int32_t* mask_count
    # In-core opponents (VectorGame ``opponents``): per seat, whether a learner plays it, else
    # its policy (policy_index) and epsilon threshold; one generator per slot and seat,
    # reseeded at every deal from the episode's seed (opponent_seed). ``opponents`` False:
    # every seat learns and none of this runs.
    cdef bint opponents
    cdef uint8_t learner[64]
    # Where the core's own moves stop: a learner's seat, or an outside opponent's
    # (POLICY_EXTERNAL: VectorGame asks a Python callable; external_pending and after).
    cdef uint8_t stops[64]
    cdef uint8_t outside[64]
    cdef bint external                  # some seat is an outside opponent's
    cdef int32_t* last_mover            # per slot: the learner seat of its latest step (external)
    cdef int32_t* learnerless           # per slot: episodes ended before a learner moved (external)
    cdef int kind[64]
    cdef uint32_t threshold[64]
    cdef Rng* opponent_rng              # n * players (NULL without opponents)
    cdef int32_t* learner_steps         # per slot: the learner steps of the current episode
    cdef int32_t obs_size
    # What a finished episode reports (VectorGame.configure_episodes): the reward rule and,
    # per slot, the last finished episode's figures (NULL: not kept).
    cdef int reward_mode                # REWARD_RETURNS or REWARD_WIN
    cdef double reward_scale
    cdef int side[64]                   # Game.sides_of: partners share a side (REWARD_WIN)
    cdef int num_sides
    cdef object episode_objects         # the arrays below, held so their memory stays valid
    cdef double* ep_returns             # n * players
    cdef int64_t* ep_lengths            # n: learner steps
    cdef int64_t* ep_actions            # n: every seat's actions
    cdef int64_t* unplayed              # n: episodes that ended before a learner seat moved
    cdef float* final_obs               # n * obs_size
    cdef uint8_t* final_mask            # n * final_width
    cdef int final_width
    cdef const float* obs_low           # observation scaling (NULL: raw): (x - low) * inv
    cdef const float* obs_inv
    cdef object obs_objects
    # keep_finished_logs(): each slot's latest credited episode's log, swapped in at finish
    cdef bint keep_finished
    cdef int32_t** done_logs
    cdef int32_t* done_len
    cdef int32_t* done_cap
    cdef int64_t* done_episode

    def __cinit__(self, GameState template, int n, seed, max_log=None, learners=None,
                  kinds=None, thresholds=None):
        # Every pointer is NULL (the object's memory starts zeroed) until its allocation below,
        # and ``logs`` is cleared before anything can fail: __dealloc__ may run after any
        # MemoryError here and frees exactly what was allocated.
        if template is None or template.hooks == NULL:
            raise TypeError("template must be a game's state")
        if template.h.to_move >= 0 or template.h.actions_applied:
            raise ValueError("template must be a fresh state that has not started")
        if n < 1:
            raise ValueError("the number of games must be >= 1")
        self.template = template
        self.hooks = template.hooks
        self.size = template.hooks.state_size
        self.n = n
        self.players = template.h.players
        self.max_legal = template.hooks.max_legal
        if self.max_legal < SHORT_LIST:
            raise ValueError(f"a game's legal-id capacity must be >= {SHORT_LIST}")
        self.num_actions = template.hooks.num_actions
        self.max_log = 0x7FFFFFF0 if max_log is None else max(1, min(int(max_log), 0x7FFFFFF0))
        self.base = mix64(seed_to_u64(seed))
        self.states = <char*>PyMem_Malloc(self.size * n)
        self.legal = <int32_t*>PyMem_Malloc(sizeof(int32_t) * self.max_legal * n)
        self.legal_count = <int32_t*>PyMem_Malloc(sizeof(int32_t) * n)
        self.episode = <int64_t*>PyMem_Malloc(sizeof(int64_t) * n)
        self.logs = <int32_t**>PyMem_Malloc(sizeof(int32_t*) * n)
        if self.logs != NULL:
            memset(self.logs, 0, sizeof(int32_t*) * n)
        self.log_len = <int32_t*>PyMem_Malloc(sizeof(int32_t) * n)
        self.log_cap = <int32_t*>PyMem_Malloc(sizeof(int32_t) * n)
        self.mask_ids = <uint16_t*>PyMem_Malloc(sizeof(uint16_t) * MASK_REMEMBERED * n)
        self.mask_count = <int32_t*>PyMem_Malloc(sizeof(int32_t) * n)
        self.learner_steps = <int32_t*>PyMem_Malloc(sizeof(int32_t) * n)
        self.unplayed = <int64_t*>PyMem_Malloc(sizeof(int64_t) * n)
        self.last_mover = <int32_t*>PyMem_Malloc(sizeof(int32_t) * n)
        self.learnerless = <int32_t*>PyMem_Malloc(sizeof(int32_t) * n)
        if not (self.last_mover and self.learnerless and self.states and self.legal and self.legal_count and self.episode and self.logs
                and self.log_len and self.log_cap and self.mask_ids and self.mask_count
                and self.learner_steps and self.unplayed):
            raise MemoryError()
        self.mask_obj = None
        self.mask_ptr = NULL
        self.mask_width = 0
        self.obs_size = self.hooks.observation_size(template.data)
        self.reward_mode = REWARD_RETURNS
        self.reward_scale = 1.0
        cdef int i, p
        if self.players > 64:
            raise ValueError("more than 64 seats")
        for p in range(self.players):
            self.learner[p] = 1
            self.stops[p] = 1
            self.outside[p] = 0
            self.kind[p] = C_POLICY_RANDOM
            self.threshold[p] = 0
            self.side[p] = p
        self.num_sides = self.players
        if learners is not None:
            self.configure_opponents(learners, kinds, thresholds)
        for i in range(n):
            self.episode[i] = 0
            self.log_len[i] = 0
            self.log_cap[i] = 0
            self.mask_count[i] = -1
            self.learner_steps[i] = 0
            self.unplayed[i] = 0
            self.last_mover[i] = -1
            self.learnerless[i] = 0
            self.reset(i)
        cdef int bad = -1
        if self.opponents:
            with nogil:
                for i in range(n):
                    if self.settle(i, -1, NULL, NULL, NULL) < 0:
                        bad = i
                        break
            if bad >= 0:
                self.raise_log_error(bad)

    cdef int configure_opponents(self, learners, kinds, thresholds) except -1:
        """Seat p is a learner's when learners[p], else played by policy kinds[p] with the
        epsilon threshold thresholds[p] (play_policy_games' kinds), or by the caller when
        kinds[p] is POLICY_EXTERNAL: the core's moves stop at that seat as at a learner's,
        and the caller moves it through external_apply."""
        if not (len(learners) == len(kinds) == len(thresholds) == self.players):
            raise ValueError(f"learners, kinds and thresholds need one entry per seat "
                             f"({self.players})")
        cdef int p
        for p in range(self.players):
            self.learner[p] = 1 if learners[p] else 0
            self.kind[p] = kinds[p]
            if self.kind[p] not in (C_POLICY_RANDOM, C_POLICY_GREEDY, C_POLICY_EXTERNAL):
                raise ValueError(f"policy kind {self.kind[p]} is not POLICY_RANDOM, "
                                 f"POLICY_GREEDY or POLICY_EXTERNAL")
            if not self.learner[p] and self.kind[p] == C_POLICY_GREEDY and self.hooks.greedy == NULL:
                raise ValueError(f"{self.hooks.name.decode()} has no in-core greedy policy")
            if not 0 <= thresholds[p] <= C_EPSILON_ONE:
                raise ValueError("an epsilon threshold is 0..EPSILON_ONE")
            self.threshold[p] = thresholds[p]
            self.outside[p] = not self.learner[p] and self.kind[p] == C_POLICY_EXTERNAL
            self.stops[p] = self.learner[p] or self.outside[p]
            if self.outside[p]:
                self.external = True
            if not self.learner[p]:
                self.opponents = True
        if not any(self.learner[p] for p in range(self.players)):
            raise ValueError("at least one seat must be a learner's")
        if self.opponents:
            self.opponent_rng = <Rng*>PyMem_Malloc(sizeof(Rng) * self.players * self.n)
            if self.opponent_rng == NULL:
                raise MemoryError()
        return 0

    def configure_episodes(self, int reward_mode, double reward_scale, sides, returns, lengths,
                           actions, final_obs=None, final_mask=None, obs_low=None,
                           obs_inv=None) -> None:
        """What a finished episode reports: the reward rule (REWARD_RETURNS: returns() times
        ``reward_scale``; REWARD_WIN: VectorGame's win rule, times ``reward_scale``), the side
        of each seat (Game.sides_of), and the arrays that receive, per slot, the last finished
        episode's raw returns (float64, games x players), learner steps and actions (int64),
        the acting seat's observation of the final state (float32, games x observation size)
        and its legal mask there (bool, games x width). ``obs_low``/``obs_inv`` (float32, one
        per observation entry): every observation written is ``(x - low) * inv``."""
        if reward_mode not in (REWARD_RETURNS, REWARD_WIN):
            raise ValueError("reward_mode is REWARD_RETURNS or REWARD_WIN")
        if len(sides) != self.players:
            raise ValueError(f"sides needs one entry per seat ({self.players})")
        cdef int p, q, distinct = 0
        for p in range(self.players):
            if not 0 <= sides[p] < self.players:
                raise ValueError("a side is 0..players-1")
        for p in range(self.players):
            for q in range(p):
                if sides[q] == sides[p]:
                    break
            else:
                distinct += 1
        cdef double[:, ::1] r = returns
        cdef int64_t[::1] le = lengths
        cdef int64_t[::1] ac = actions
        if r.shape[0] != self.n or r.shape[1] != self.players or le.shape[0] != self.n \
                or ac.shape[0] != self.n:
            raise ValueError("returns, lengths and actions need a row per game")
        cdef float[:, ::1] fo
        cdef uint8_t[:, ::1] fm     # a bool array viewed as uint8 (VectorGame does)
        cdef const float[::1] lo
        cdef const float[::1] inv
        if final_obs is not None:
            fo = final_obs
            if fo.shape[0] != self.n or fo.shape[1] != self.obs_size:
                raise ValueError("final_obs needs a row per game of the observation size")
        if final_mask is not None:
            fm = final_mask
            if fm.shape[0] != self.n or not 0 < fm.shape[1] <= self.num_actions:
                raise ValueError("final_mask needs a row per game of the action width")
        if (obs_low is None) != (obs_inv is None):
            raise ValueError("obs_low and obs_inv come together")
        if obs_low is not None:
            lo = obs_low
            inv = obs_inv
            if lo.shape[0] != self.obs_size or inv.shape[0] != self.obs_size:
                raise ValueError("obs_low and obs_inv need one entry per observation entry")
        self.reward_mode = reward_mode
        self.reward_scale = reward_scale
        for p in range(self.players):
            self.side[p] = sides[p]
        self.num_sides = distinct
        self.episode_objects = (returns, lengths, actions, final_obs, final_mask)
        self.ep_returns = &r[0, 0]
        self.ep_lengths = &le[0]
        self.ep_actions = &ac[0]
        self.final_obs = &fo[0, 0] if final_obs is not None else NULL
        self.final_mask = &fm[0, 0] if final_mask is not None else NULL
        self.final_width = fm.shape[1] if final_mask is not None else 0
        self.obs_objects = (obs_low, obs_inv)
        self.obs_low = &lo[0] if obs_low is not None else NULL
        self.obs_inv = &inv[0] if obs_low is not None else NULL

    def __dealloc__(self):
        cdef int i
        if self.logs != NULL:
            for i in range(self.n):
                free(self.logs[i])
        PyMem_Free(self.states)
        PyMem_Free(self.legal)
        PyMem_Free(self.legal_count)
        PyMem_Free(self.episode)
        PyMem_Free(self.logs)
        PyMem_Free(self.log_len)
        PyMem_Free(self.log_cap)
        PyMem_Free(self.mask_ids)
        PyMem_Free(self.mask_count)
        PyMem_Free(self.learner_steps)
        PyMem_Free(self.unplayed)
        PyMem_Free(self.last_mover)
        PyMem_Free(self.learnerless)
        PyMem_Free(self.opponent_rng)
        if self.done_logs != NULL:
            for i in range(self.n):
                free(self.done_logs[i])
        PyMem_Free(self.done_logs)
        PyMem_Free(self.done_len)
        PyMem_Free(self.done_cap)
        PyMem_Free(self.done_episode)

    cdef inline char* state(self, int i) noexcept nogil:
        return self.states + self.size * <size_t>i

    cdef void reset(self, int i) noexcept nogil:
        """Deal episode ``episode[i]`` of slot ``i`` exactly as new_game would."""
        cdef char* s = self.state(i)
        cdef uint64_t seed = mix64(derive(self.base, <uint64_t>i, EPISODE_STREAM)
                                   ^ <uint64_t>self.episode[i])
        cdef int p
        memcpy(s, self.template.data, self.size)
        rng_seed(&header_at(s).rng, seed)
        if self.opponents:
            for p in range(self.players):
                rng_seed(&self.opponent_rng[<size_t>i * self.players + p],
                         derive(seed, <uint64_t>p, OPPONENT_STREAM))
        self.hooks.start(s)
        self.log_len[i] = 0
        self.learner_steps[i] = 0
        if self.log_cap[i] > LOG_KEEP_ENTRIES:
            free(self.logs[i])
            self.logs[i] = NULL
            self.log_cap[i] = 0
        self.legal_count[i] = -1

    cdef inline int fill_legal(self, int i) noexcept nogil:
        cdef int32_t* ids
        cdef int count, k
        if self.legal_count[i] < 0:
            ids = self.legal + <size_t>i * self.max_legal
            count = self.hooks.legal(self.state(i), ids, self.max_legal)
            # The padding of a short list (first_illegal), written after the call: a game may
            # use out past its count as scratch (and a failed call may have written ids).
            for k in range(count if count > 0 else 0, SHORT_LIST):
                ids[k] = -1
            self.legal_count[i] = count
        return self.legal_count[i]

    @property
    def num_games(self) -> int:
        return self.n

    cpdef int check_range(self, int lo, int hi) except -1:
        if not 0 <= lo <= hi <= self.n:
            raise ValueError(f"range {lo}..{hi} is outside 0..{self.n}")
        return 0

    def current_player(self, out, int lo, int hi) -> None:
        """out[i] (int32): the seat to move in game i, for i in lo..hi."""
        self.check_range(lo, hi)
        cdef Py_buffer b
        get_buffer(out, &b, True, 4, b"il", self.n, 0, "out (int32 per game)")
        cdef int32_t* players = <int32_t*>b.buf
        cdef int i
        try:
            with nogil:
                for i in range(lo, hi):
                    players[i] = header_at(self.state(i)).to_move
        finally:
            PyBuffer_Release(&b)

    cdef bint claim_mask(self, object out, uint8_t* ptr, int width, bint trusted):
        """Make ``out`` the array whose rows this core remembers. True when ``trusted`` (the
        caller vouches that nobody else wrote the array since: VectorGame's own read-only
        mask) and it is the array remembered, at the same address and width: each row then
        needs only its remembered ids cleared. Width and address are checked here, so that a
        wrong vouch can give a wrong mask but never a write outside the row."""
        cdef bint same = (trusted and out is self.mask_obj and ptr == self.mask_ptr
                          and width == self.mask_width)
        self.mask_obj = out
        self.mask_ptr = ptr
        self.mask_width = width
        return same

    def mask_rows_reusable(self, out, int width, bint trusted) -> bool:
        """claim_mask for ``out`` (VectorGame's threads decide once, then fill slices)."""
        if not 0 < width <= self.num_actions:
            raise ValueError(f"width must be 1..{self.num_actions}")
        cdef Py_buffer b
        get_buffer(out, &b, True, 1, b"B?", self.n, width, "out (bool per game and action)")
        try:
            return self.claim_mask(out, <uint8_t*>b.buf, width, trusted)
        finally:
            PyBuffer_Release(&b)

    def legal_mask(self, out, int width, int lo, int hi, bint trusted=False,
                   reusable=None) -> int:
        """Rows lo..hi of the (games, width) uint8/bool mask; returns -1, or the first game
        whose legal ids overflow. ``width`` is the configuration's action space, which may be
        narrower than the game's widest (an option may add ids): an id past
        it is an overflow too. ``trusted``: see claim_mask. ``reusable``: mask_rows_reusable's
        answer for ``out`` (threads), decided here when None."""
        self.check_range(lo, hi)
        if not 0 < width <= self.num_actions:
            raise ValueError(f"width must be 1..{self.num_actions}")
        cdef Py_buffer b
        get_buffer(out, &b, True, 1, b"B?", self.n, width, "out (bool per game and action)")
        cdef uint8_t* rows = <uint8_t*>b.buf
        cdef bint reuse
        cdef int bad = -1
        try:
            reuse = (self.claim_mask(out, rows, width, trusted) if reusable is None
                     else bool(reusable) and out is self.mask_obj and rows == self.mask_ptr
                     and width == self.mask_width)
            with nogil:
                bad = self.fill_mask_rows(rows, width, lo, hi, reuse)
        finally:
            PyBuffer_Release(&b)
        return bad

    cdef int fill_mask_rows(self, uint8_t* rows, int width, int lo, int hi, bint reuse) noexcept nogil:
        cdef uint8_t* row
        cdef int i, k, count, known, a
        cdef int32_t* ids
        cdef uint16_t* kept
        cdef bint sparse = MASK_SPARSE_MIN_WIDTH <= width <= 65536     # ids kept as uint16
        for i in range(lo, hi):
            count = self.fill_legal(i)
            row = rows + <size_t>i * width
            kept = self.mask_ids + <size_t>i * MASK_REMEMBERED
            known = self.mask_count[i] if reuse and sparse else -1
            if known >= 0:
                for k in range(known):
                    row[kept[k]] = 0
            else:
                memset(row, 0, width)
            self.mask_count[i] = -1
            if count < 0:
                return self.forget_rows(i, hi)
            ids = self.legal + <size_t>i * self.max_legal
            if sparse and count <= MASK_REMEMBERED:
                for k in range(count):
                    a = ids[k]
                    if <unsigned>a >= <unsigned>width:     # and a >= 0
                        return self.forget_rows(i, hi)
                    row[a] = 1
                    kept[k] = <uint16_t>a
                self.mask_count[i] = count
            else:
                for k in range(count):
                    a = ids[k]
                    if <unsigned>a >= <unsigned>width:     # and a >= 0
                        return self.forget_rows(i, hi)
                    row[a] = 1
        return -1

    cdef int forget_rows(self, int i, int hi) noexcept nogil:
        """Rows i..hi were not (fully) written: clear them whole next time. Returns i."""
        cdef int j
        for j in range(i, hi):
            self.mask_count[j] = -1
        return i

    def observations(self, out, int lo, int hi) -> None:
        """Rows lo..hi of (games, observation size) float32: each game seen by its player to
        move."""
        self.check_range(lo, hi)
        cdef int size = self.hooks.observation_size(self.template.data)
        cdef Py_buffer b
        get_buffer(out, &b, True, sizeof(float), b"f", self.n, size,
                   "out (float32 per game and observation entry)")
        cdef float* rows = <float*>b.buf
        cdef int i
        cdef char* s
        try:
            with nogil:
                for i in range(lo, hi):
                    s = self.state(i)
                    if header_at(s).to_move >= 0:     # always: finished games restart at once
                        self.observe_row(s, header_at(s).to_move, rows + <size_t>i * size)
        finally:
            PyBuffer_Release(&b)

    cdef inline void observe_row(self, char* s, int seat, float* row) noexcept nogil:
        """The game seen by ``seat``, scaled when VectorGame asked for it."""
        cdef int k
        self.hooks.observe(s, seat, row)
        if self.obs_low != NULL:
            for k in range(self.obs_size):
                row[k] = (row[k] - self.obs_low[k]) * self.obs_inv[k]

    def observations_of(self, out, int seat, int lo, int hi) -> None:
        """Rows lo..hi of (games, observation size) float32: every game seen by ``seat``."""
        self.check_range(lo, hi)
        if not 0 <= seat < self.players:
            raise ValueError(f"seat must be 0..{self.players - 1}")
        cdef Py_buffer b
        get_buffer(out, &b, True, sizeof(float), b"f", self.n, self.obs_size,
                   "out (float32 per game and observation entry)")
        cdef float* rows = <float*>b.buf
        cdef int i
        try:
            with nogil:
                for i in range(lo, hi):
                    self.observe_row(self.state(i), seat, rows + <size_t>i * self.obs_size)
        finally:
            PyBuffer_Release(&b)

    def observations_all(self, out, int lo, int hi) -> None:
        """Rows lo..hi of (games, players * observation size) float32: every game seen by
        every seat, seat after seat."""
        self.check_range(lo, hi)
        cdef Py_buffer b
        cdef size_t width = <size_t>self.players * self.obs_size
        get_buffer(out, &b, True, sizeof(float), b"f", self.n, width,
                   "out (float32 per game, seat and observation entry)")
        cdef float* rows = <float*>b.buf
        cdef int i, p
        try:
            with nogil:
                for i in range(lo, hi):
                    for p in range(self.players):
                        self.observe_row(self.state(i), p,
                                         rows + <size_t>i * width + <size_t>p * self.obs_size)
        finally:
            PyBuffer_Release(&b)

    cdef int first_illegal(self, const int64_t* actions, int lo, int hi) noexcept nogil:
        """The first game in lo..hi whose action is not legal now, or -1."""
        cdef int i, k, count
        cdef int64_t a
        cdef int32_t* ids
        cdef bint found
        for i in range(lo, hi):
            a = actions[i]
            count = self.fill_legal(i)
            ids = self.legal + <size_t>i * self.max_legal
            if count <= SHORT_LIST:
                # A short list is padded with -1 up to SHORT_LIST ids: compared whole, without
                # a branch per id (where a scan would stop is unpredictable).
                if a < 0:                                   # never equal to the padding
                    return i
                if not ((ids[0] == a) | (ids[1] == a) | (ids[2] == a) | (ids[3] == a)
                        | (ids[4] == a) | (ids[5] == a) | (ids[6] == a) | (ids[7] == a)):
                    return i
                continue
            found = False
            for k in range(count):
                if ids[k] == a:
                    found = True
                    break
            if not found:
                return i
        return -1

    def validate(self, actions, int lo, int hi) -> int:
        """The first game in lo..hi whose action (int64 per game) is not legal now, or -1."""
        self.check_range(lo, hi)
        cdef Py_buffer b
        get_buffer(actions, &b, False, 8, b"lq", self.n, 0, "actions (int64 per game)")
        cdef int bad
        try:
            with nogil:
                bad = self.first_illegal(<const int64_t*>b.buf, lo, hi)
        finally:
            PyBuffer_Release(&b)
        return bad

    def step(self, actions, rewards, done, int lo, int hi, truncated=None) -> int:
        """Check, then apply, one action (int64 per game) in each of games lo..hi; a finished
        game writes its returns into ``rewards`` (float32, games x players; 0 for the others),
        sets ``done`` (bool per game, else cleared) and restarts. Returns -1, or the first
        game whose action is not legal now, and then nothing is applied. Legality is checked
        against the cached legal ids (those legal_mask wrote), so costs no kernel call.
        With in-core opponents, their moves follow until a learner seat is to move again (a
        game that ends meanwhile is credited and restarts); ``truncated`` (bool per game):
        set where an episode reached ``max_log`` actions unfinished (done too, reward 0)."""
        self.check_range(lo, hi)
        if self.players > 64:
            raise ValueError("more than 64 seats")
        cdef Py_buffer ba, br, bd, bt
        cdef uint8_t* cut = NULL
        if truncated is not None:
            get_buffer(truncated, &bt, True, 1, b"B?", self.n, 0, "truncated (bool per game)")
            cut = <uint8_t*>bt.buf
        get_buffer(actions, &ba, False, 8, b"lq", self.n, 0, "actions (int64 per game)")
        try:
            get_buffer(rewards, &br, True, sizeof(float), b"f", self.n, self.players,
                       "rewards (float32 per game and seat)")
            try:
                get_buffer(done, &bd, True, 1, b"B?", self.n, 0, "done (bool per game)")
                try:
                    return self.step_checked(<const int64_t*>ba.buf, <float*>br.buf,
                                             <uint8_t*>bd.buf, cut, lo, hi)
                finally:
                    PyBuffer_Release(&bd)
            finally:
                PyBuffer_Release(&br)
        finally:
            PyBuffer_Release(&ba)
            if cut != NULL:
                PyBuffer_Release(&bt)

    def apply(self, actions, rewards, done, int lo, int hi) -> None:
        """step, raising IllegalActionError (naming the game) for an illegal id."""
        cdef int bad = self.step(actions, rewards, done, lo, hi)
        if bad >= 0:
            raise IllegalActionError(f"game {bad}: action id {actions[bad]} is not legal now")

    cdef int step_checked(self, const int64_t* actions, float* rewards, uint8_t* done,
                          uint8_t* cut, int lo, int hi) except -2:
        cdef int i, bad
        with nogil:
            bad = self.first_illegal(actions, lo, hi)
            if bad < 0:
                if self.external:       # the learner seats acting now (credited by external_apply)
                    for i in range(lo, hi):
                        self.last_mover[i] = header_at(self.state(i)).to_move
                i = self.apply_all(actions, rewards, done, cut, lo, hi)
        if bad >= 0:
            return bad
        if i >= 0:
            self.raise_log_error(i)
        return -1

    cdef int raise_log_error(self, int i) except -1:
        """The error ``log_error`` names, for game ``i``."""
        if self.log_error == LOG_OVER_BOUND:
            raise RuntimeError(f"game {i}: longer than the game's max_game_length "
                               f"({self.max_log} actions)")
        if self.log_error == PLAY_NO_LEGAL:
            raise RuntimeError(f"game {i}: a game that is not over offered no legal action")
        if self.log_error == PLAY_POLICY_FAILED:
            raise RuntimeError(f"game {i}: {self.hooks.name.decode()}'s greedy policy chose "
                               f"no legal action")
        if self.log_error == PLAY_NO_LEARNER:
            raise NoLearnerTurn(f"game {i}: {MAX_LEARNERLESS_EPISODES} episodes in a row "
                                f"ended before a learner seat moved")
        raise MemoryError(f"game {i}: the action log could not grow")

    cdef inline int log_push(self, int i, int32_t action) noexcept nogil:
        """Append ``action`` to slot i's log (grown as needed): 0, or -1 (``log_error``)."""
        cdef int cap
        cdef int32_t* grown
        if self.log_len[i] == self.log_cap[i]:
            if self.log_cap[i] >= self.max_log:
                self.log_error = LOG_OVER_BOUND
                return -1
            cap = <int>min(2 * <int64_t>self.log_cap[i] + 64, <int64_t>self.max_log)
            grown = <int32_t*>realloc(self.logs[i], sizeof(int32_t) * cap)
            if grown == NULL:
                self.log_error = LOG_OUT_OF_MEMORY
                return -1
            self.logs[i] = grown
            self.log_cap[i] = cap
        self.logs[i][self.log_len[i]] = action
        self.log_len[i] += 1
        return 0

    cdef int apply_all(self, const int64_t* actions, float* rewards, uint8_t* done,
                       uint8_t* cut, int lo, int hi) noexcept nogil:
        """Apply checked actions; -1, or the first game that could not go on (its action log
        could not grow, or an opponent could not move: ``log_error`` says why). The games
        before it have stepped; a log that could not take the learner's action leaves its
        game and those after it unchanged."""
        cdef int i, p, mover
        cdef char* s
        cdef Header* h
        cdef float* reward_row
        for i in range(lo, hi):
            s = self.state(i)
            h = header_at(s)
            if self.log_push(i, <int32_t>actions[i]) < 0:
                return i
            mover = h.to_move
            self.hooks.apply(s, <int>actions[i])
            h.actions_applied += 1
            self.learner_steps[i] += 1
            reward_row = rewards + <size_t>i * self.players
            for p in range(self.players):
                reward_row[p] = 0.0
            done[i] = 0
            if cut != NULL:
                cut[i] = 0
            self.legal_count[i] = -1
            # Most steps leave a learner seat to move in a game that goes on: nothing to settle.
            if (h.to_move < 0 or self.log_len[i] >= self.max_log or not self.stops[h.to_move]) \
                    and self.settle(i, mover, reward_row, done + i,
                                    cut + i if cut != NULL else NULL) < 0:
                return i
            # The next step checks its action against these ids (and legal_mask writes them):
            # computed now, while the game's state is still in the L1 cache.
            self.fill_legal(i)
        return -1

    # ------------------------------------------------ outside opponents (POLICY_EXTERNAL)
    # VectorGame's loop after a learner step: external_pending lists the slots where an
    # outside opponent is to move, external_inputs gives their views, the caller's policy
    # answers, external_validate checks every answer before external_apply plays any.

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def external_pending(self, int32_t[::1] out) -> int:
        """Write the slots (ascending) whose seat to move is an outside opponent's into
        ``out`` (int32, one entry per game); returns their count."""
        if out.shape[0] < self.n:
            raise ValueError("out needs one entry per game")
        cdef int i, p, k = 0
        with nogil:
            for i in range(self.n):
                p = header_at(self.state(i)).to_move
                if p >= 0 and self.outside[p]:
                    out[k] = i
                    k += 1
        return k

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def external_still(self, int32_t[::1] slots) -> int:
        """Keep in ``slots`` (in place, in order) the slots whose seat to move is an outside
        opponent's; returns their count. After a round only the slots just played can be at
        an outside seat's turn, so this scans those, not every game."""
        self.check_slots(slots)
        cdef Py_ssize_t j
        cdef int i, p, k = 0
        with nogil:
            for j in range(slots.shape[0]):
                i = slots[j]
                p = header_at(self.state(i)).to_move
                if p >= 0 and self.outside[p]:
                    slots[k] = i
                    k += 1
        return k

    cdef int check_slots(self, const int32_t[::1] slots) except -1:
        cdef Py_ssize_t j
        for j in range(slots.shape[0]):
            if not 0 <= slots[j] < self.n:
                raise IndexError(f"slot {slots[j]} is outside 0..{self.n - 1}")
        return 0

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def external_inputs(self, const int32_t[::1] slots, float[:, ::1] obs, uint8_t[:, ::1] mask,
                        int64_t[::1] seats) -> int:
        """For each slot in ``slots``: row j of ``obs`` (float32, k x observation size) the
        game seen by its seat to move (scaled as observations), of ``mask`` (a bool array
        viewed as uint8, k x width) its legal ids, ``seats[j]`` that seat. ``obs`` with no
        rows writes no observations (``external_observations`` writes them when asked).
        Returns -1, or the first j whose legal ids do not fit the width."""
        cdef Py_ssize_t k = slots.shape[0], j
        cdef int width = mask.shape[1]
        cdef bint observe = obs.shape[0] > 0
        if (observe and (obs.shape[0] != k or obs.shape[1] != self.obs_size)) \
                or mask.shape[0] != k or seats.shape[0] != k \
                or not 0 < width <= self.num_actions:
            raise ValueError("obs, mask and seats need a row per slot (observation size, width)")
        self.check_slots(slots)
        cdef int i, c, count, a, bad = -1
        cdef char* s
        cdef int32_t* ids
        with nogil:
            for j in range(k):
                i = slots[j]
                s = self.state(i)
                seats[j] = header_at(s).to_move
                if observe:
                    self.observe_row(s, header_at(s).to_move, &obs[j, 0])
                memset(&mask[j, 0], 0, width)
                count = self.fill_legal(i)
                ids = self.legal + <size_t>i * self.max_legal
                for c in range(count if count > 0 else 0):
                    a = ids[c]
                    if not 0 <= a < width:
                        bad = <int>j
                        break
                    mask[j, a] = 1
                if bad >= 0:
                    break
        return bad

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def external_observations(self, const int32_t[::1] slots, float[:, ::1] obs) -> None:
        """Row j of ``obs`` (float32, k x observation size): slot ``slots[j]`` seen by its
        seat to move (scaled as observations), as ``external_inputs`` writes it."""
        cdef Py_ssize_t k = slots.shape[0], j
        if obs.shape[0] != k or obs.shape[1] != self.obs_size:
            raise ValueError("obs needs a row per slot (observation size)")
        self.check_slots(slots)
        cdef char* s
        with nogil:
            for j in range(k):
                s = self.state(slots[j])
                self.observe_row(s, header_at(s).to_move, &obs[j, 0])

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def external_validate(self, const int32_t[::1] slots, const int64_t[::1] actions) -> int:
        """The first j whose ``actions[j]`` is not legal in slot ``slots[j]`` now, or -1."""
        if actions.shape[0] != slots.shape[0]:
            raise ValueError("one action per slot")
        self.check_slots(slots)
        cdef int bad
        with nogil:
            bad = self.first_illegal_answer(slots, actions)
        return bad

    @cython.boundscheck(False)
    @cython.wraparound(False)
    cdef int first_illegal_answer(self, const int32_t[::1] slots,
                                  const int64_t[::1] actions) noexcept nogil:
        """``external_validate``'s scan (slots checked by the caller): a C call, so that
        ``external_round`` pays no Python call and no buffer conversions for it each round."""
        cdef Py_ssize_t j
        cdef int i, c, count
        cdef int64_t a
        cdef int32_t* ids
        cdef bint found
        for j in range(slots.shape[0]):
            i = slots[j]
            a = actions[j]
            count = self.fill_legal(i)
            ids = self.legal + <size_t>i * self.max_legal
            found = False
            for c in range(count if count > 0 else 0):
                if ids[c] == a:
                    found = True
                    break
            if not found:
                return <int>j
        return -1

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def external_apply(self, const int32_t[::1] slots, const int64_t[::1] actions,
                       float[:, ::1] rewards, uint8_t[::1] done, uint8_t[::1] cut) -> None:
        """Play ``actions[j]`` (checked by external_validate) in slot ``slots[j]``, each slot's
        outside opponent to move, then settle as a learner's step does: in-core opponents
        move, an episode that ends is credited to the slot's latest learner step (its
        ``rewards`` row, ``done`` and ``cut``, bool arrays viewed as uint8) and restarts."""
        cdef Py_ssize_t k = slots.shape[0], j
        if actions.shape[0] != k or rewards.shape[0] != self.n or done.shape[0] != self.n \
                or cut.shape[0] != self.n or rewards.shape[1] != self.players:
            raise ValueError("one action per slot; rewards, done, cut: a row per game")
        self.check_slots(slots)
        cdef int i, p, bad = -1
        cdef char* s
        cdef Header* h
        for j in range(k):              # checked first: nothing is applied to a wrong slot
            p = header_at(self.state(slots[j])).to_move
            if p < 0 or not self.outside[p]:
                raise ValueError(f"slot {slots[j]}: no outside opponent is to move")
        with nogil:
            for j in range(k):
                i = slots[j]
                s = self.state(i)
                h = header_at(s)
                if self.log_push(i, <int32_t>actions[j]) < 0:
                    bad = i
                    break
                self.hooks.apply(s, <int>actions[j])
                h.actions_applied += 1
                self.legal_count[i] = -1
                if h.to_move < 0 or self.log_len[i] >= self.max_log or not self.stops[h.to_move]:
                    if self.settle(i, self.last_mover[i], &rewards[i, 0], &done[i],
                                   &cut[i]) < 0:
                        bad = i
                        break
                elif self.learner[h.to_move]:
                    self.learnerless[i] = 0
                self.fill_legal(i)
        if bad >= 0:
            self.raise_log_error(bad)

    @cython.boundscheck(False)
    @cython.wraparound(False)
    def external_round(self, int32_t[::1] slots, const int64_t[::1] actions,
                       float[:, ::1] rewards, uint8_t[::1] done, uint8_t[::1] cut,
                       uint8_t[:, ::1] mask, int64_t[::1] seats) -> int:
        """One round in one pass: ``external_validate``, then ``external_apply`` of every
        slot's action, and while each game is in cache what ``external_still`` and
        ``external_inputs`` (no observations) do for the next round: the slots whose seat to
        move is still an outside opponent's are kept in ``slots`` (in place, in order) and
        their masks and seats written to rows 0.. of ``mask`` (k x width, viewed as uint8)
        and ``seats``. Returns their count, or -1 - j for the first illegal ``actions[j]``
        (then nothing is applied)."""
        cdef Py_ssize_t k = slots.shape[0], j
        cdef int width = mask.shape[1]
        if actions.shape[0] != k or rewards.shape[0] != self.n or done.shape[0] != self.n \
                or cut.shape[0] != self.n or rewards.shape[1] != self.players \
                or mask.shape[0] < k or seats.shape[0] < k or not 0 < width <= self.num_actions:
            raise ValueError("one action per slot; rewards, done, cut: a row per game; mask "
                             "and seats: a row per slot")
        self.check_slots(slots)         # a C loop; never an index past the games
        cdef int bad
        with nogil:
            bad = self.first_illegal_answer(slots, actions)
        if bad >= 0:
            return -1 - bad
        cdef int i, p, c, count, a, kept = 0, wide = -1
        cdef char* s
        cdef Header* h
        cdef int32_t* ids
        # ``slots`` come from external_pending or the previous round (an outside seat to move
        # in each): no pass to check them, which would bring every game into cache twice
        with nogil:
            for j in range(k):
                i = slots[j]
                s = self.state(i)
                h = header_at(s)
                if self.log_push(i, <int32_t>actions[j]) < 0:
                    bad = i
                    break
                self.hooks.apply(s, <int>actions[j])
                h.actions_applied += 1
                self.legal_count[i] = -1
                if h.to_move < 0 or self.log_len[i] >= self.max_log or not self.stops[h.to_move]:
                    if self.settle(i, self.last_mover[i], &rewards[i, 0], &done[i],
                                   &cut[i]) < 0:
                        bad = i
                        break
                elif self.learner[h.to_move]:
                    self.learnerless[i] = 0
                count = self.fill_legal(i)
                p = h.to_move
                if p >= 0 and self.outside[p]:       # the next round's row, while in cache
                    slots[kept] = i
                    seats[kept] = p
                    memset(&mask[kept, 0], 0, width)
                    ids = self.legal + <size_t>i * self.max_legal
                    for c in range(count if count > 0 else 0):
                        a = ids[c]
                        if not 0 <= a < width:
                            wide = i
                            break
                        mask[kept, a] = 1
                    kept += 1
        if bad >= 0:
            self.raise_log_error(bad)
        if wide >= 0:
            raise RuntimeError(f"game {wide} offered an action id past num_distinct_actions")
        return kept

    cdef int settle(self, int i, int mover, float* reward_row, uint8_t* done,
                    uint8_t* cut) noexcept nogil:
        """After ``mover``'s action in game i (-1: a fresh deal): finish an episode that is
        over or at ``max_log`` actions (crediting it when a learner seat has moved in it, and
        dealing the next), and play the in-core opponents, until a learner seat (or an outside
        opponent's) is to move. 0, or -1 (``log_error``)."""
        cdef char* s = self.state(i)
        cdef Header* h = header_at(s)
        cdef int p, k, count
        # The count goes on across an outside opponent's moves (external_apply settles again).
        cdef int learnerless = self.learnerless[i] if self.external else 0
        cdef int32_t* ids
        while True:
            if h.to_move < 0 or self.log_len[i] >= self.max_log:
                if self.learner_steps[i] > 0:
                    self.finish(i, mover, h.to_move >= 0, reward_row, done, cut)
                else:
                    learnerless += 1
                    self.unplayed[i] += 1
                    if learnerless > MAX_LEARNERLESS_EPISODES:
                        self.log_error = PLAY_NO_LEARNER
                        return -1
                self.episode[i] += 1
                self.reset(i)
                continue
            p = h.to_move
            if self.stops[p]:
                if self.external:
                    self.learnerless[i] = 0 if self.learner[p] else learnerless
                return 0
            count = self.fill_legal(i)
            if count <= 0:
                self.log_error = PLAY_NO_LEGAL
                return -1
            ids = self.legal + <size_t>i * self.max_legal
            k = policy_index(self.hooks, s, self.kind[p], self.threshold[p], ids, count,
                             &self.opponent_rng[<size_t>i * self.players + p])
            if k < 0:
                self.log_error = PLAY_POLICY_FAILED
                return -1
            if self.log_push(i, ids[k]) < 0:
                return -1
            self.hooks.apply(s, ids[k])
            h.actions_applied += 1
            self.legal_count[i] = -1

    cdef void finish(self, int i, int mover, bint truncated, float* reward_row, uint8_t* done,
                     uint8_t* cut) noexcept nogil:
        """Credit game i's episode, which a learner's action (by seat ``mover``) began to end:
        the reward (0 when truncated), done, truncated and the episode's figures."""
        cdef char* s = self.state(i)
        cdef double returns[64]
        cdef int p, k, count
        cdef int32_t* ids
        cdef uint8_t* row
        self.hooks.returns(s, returns)
        if reward_row != NULL and not truncated:
            self.reward_of(returns, reward_row)
        if done != NULL:
            done[0] = 1
        if cut != NULL:
            cut[0] = truncated
        if self.ep_returns != NULL:
            for p in range(self.players):
                self.ep_returns[<size_t>i * self.players + p] = returns[p]
            self.ep_lengths[i] = self.learner_steps[i]
            self.ep_actions[i] = self.log_len[i]
        if self.final_obs != NULL and mover >= 0:
            self.observe_row(s, mover, self.final_obs + <size_t>i * self.obs_size)
        if self.final_mask != NULL:
            row = self.final_mask + <size_t>i * self.final_width
            memset(row, 0, self.final_width)
            if truncated and header_at(s).to_move == mover:
                count = self.fill_legal(i)
                ids = self.legal + <size_t>i * self.max_legal
                for k in range(count):
                    if 0 <= ids[k] < self.final_width:
                        row[ids[k]] = 1
        if self.keep_finished:         # the log moves aside (reset follows and clears logs[i])
            self.done_logs[i], self.logs[i] = self.logs[i], self.done_logs[i]
            self.done_cap[i], self.log_cap[i] = self.log_cap[i], self.done_cap[i]
            self.done_len[i] = self.log_len[i]
            self.done_episode[i] = self.episode[i]

    cdef void reward_of(self, const double* returns, float* out) noexcept nogil:
        """The reward rule (VectorGame ``reward``): the returns scaled, or the win reward:
        every seat of a side with the best returns gets 1 / (winning sides), every other
        seat -1; all 0 when every side ties."""
        cdef int p, q, winning = 0
        cdef double best = returns[0]
        cdef bint first
        if self.reward_mode == REWARD_RETURNS:
            for p in range(self.players):
                out[p] = <float>(returns[p] * self.reward_scale)
            return
        for p in range(1, self.players):
            if returns[p] > best:
                best = returns[p]
        for p in range(self.players):          # the distinct sides among the best seats
            if returns[p] != best:
                continue
            first = True
            for q in range(p):
                if returns[q] == best and self.side[q] == self.side[p]:
                    first = False
                    break
            winning += first
        for p in range(self.players):
            if winning == self.num_sides:
                out[p] = 0.0
            elif returns[p] == best:
                out[p] = <float>(self.reward_scale / winning)
            else:
                out[p] = <float>(-self.reward_scale)

    def random_actions(self, out, int lo, int hi, Random chooser) -> None:
        """A uniformly random legal id (int64) per game in lo..hi, drawn from ``chooser``."""
        self.check_range(lo, hi)
        cdef Py_buffer b
        get_buffer(out, &b, True, 8, b"lq", self.n, 0, "out (int64 per game)")
        cdef int64_t* ids = <int64_t*>b.buf
        cdef int i, count
        cdef Rng* r = &chooser.rng
        try:
            with nogil:
                for i in range(lo, hi):
                    count = self.fill_legal(i)
                    if count > 0:
                        ids[i] = self.legal[<size_t>i * self.max_legal + rng_below(r, <uint32_t>count)]
                    else:
                        ids[i] = -1         # no game stays over (they restart), so never seen
        finally:
            PyBuffer_Release(&b)

    def episode_ids(self, out) -> None:
        """out[i] (int64): the episode slot i is playing (0, 1, ...: episode_seed's k)."""
        cdef int64_t[::1] o = out
        if o.shape[0] != self.n:
            raise ValueError("out needs one entry per game")
        memcpy(&o[0], self.episode, sizeof(int64_t) * self.n)

    def unplayed_episodes(self, out) -> None:
        """out[i] (int64): the episodes of slot i that ended before a learner seat moved."""
        cdef int64_t[::1] o = out
        if o.shape[0] != self.n:
            raise ValueError("out needs one entry per game")
        memcpy(&o[0], self.unplayed, sizeof(int64_t) * self.n)

    def game_record(self, int i) -> tuple:
        """(episode, action ids) of game slot i's current episode."""
        if not 0 <= i < self.n:
            raise IndexError(f"game index {i} is outside 0..{self.n - 1}")
        return (self.episode[i], [self.logs[i][k] for k in range(self.log_len[i])])

    def log_since(self, int i, int start) -> tuple:
        """(episode, action ids from index ``start`` on) of slot i's current episode."""
        if not 0 <= i < self.n:
            raise IndexError(f"game index {i} is outside 0..{self.n - 1}")
        return (self.episode[i], [self.logs[i][k] for k in range(max(start, 0), self.log_len[i])])

    def keep_finished_logs(self) -> None:
        """From now on keep each slot's latest credited (done) episode's log for
        ``finished_record`` (an O(1) swap per finished episode; off by default)."""
        if self.keep_finished:
            return
        self.done_logs = <int32_t**>PyMem_Malloc(sizeof(int32_t*) * self.n)
        if self.done_logs != NULL:
            memset(self.done_logs, 0, sizeof(int32_t*) * self.n)
        self.done_len = <int32_t*>PyMem_Malloc(sizeof(int32_t) * self.n)
        self.done_cap = <int32_t*>PyMem_Malloc(sizeof(int32_t) * self.n)
        self.done_episode = <int64_t*>PyMem_Malloc(sizeof(int64_t) * self.n)
        if not (self.done_logs and self.done_len and self.done_cap and self.done_episode):
            raise MemoryError()
        memset(self.done_len, 0, sizeof(int32_t) * self.n)
        memset(self.done_cap, 0, sizeof(int32_t) * self.n)
        memset(self.done_episode, 0xFF, sizeof(int64_t) * self.n)      # -1: none yet
        self.keep_finished = True

    def finished_record(self, int i) -> tuple:
        """(episode, action ids) of slot i's latest credited episode (keep_finished_logs;
        episode -1: none finished since)."""
        if not self.keep_finished:
            raise RuntimeError("keep_finished_logs() was not called")
        if not 0 <= i < self.n:
            raise IndexError(f"game index {i} is outside 0..{self.n - 1}")
        return (self.done_episode[i], [self.done_logs[i][k] for k in range(self.done_len[i])])

    def log_capacity(self, int i) -> int:
        """The entries game slot i's action log has room for now (memory, for tests)."""
        if not 0 <= i < self.n:
            raise IndexError(f"game index {i} is outside 0..{self.n - 1}")
        return self.log_cap[i]

    def clone_state(self, int i) -> GameState:
        """A GameState holding a copy of game slot i."""
        if not 0 <= i < self.n:
            raise IndexError(f"game index {i} is outside 0..{self.n - 1}")
        cdef GameState copy = self.template.clone()
        memcpy(copy.data, self.state(i), self.size)
        return copy


def run_seed(seed, int64_t index) -> int:
    """simulate's game seed of game ``index`` (= simulation.game_seed)."""
    return derive(mix64(seed_to_u64(seed)), <uint64_t>index, 0)


def play_random_games(GameState template, seed, int64_t start, int64_t stop) -> tuple:
    """Games start..stop of an all-random simulate run, dealt and played inside the core:
    game ``index`` is dealt with ``run_seed(seed, index)`` and played by a chooser seeded
    ``derive(seed, index, 1)``, exactly as simulate did from Python. Returns (actions, turns,
    score sums, wins, sole wins), the last three per seat."""
    if template is None or template.hooks == NULL:
        raise TypeError("template must be a game's state")
    if template.h.to_move >= 0 or template.h.actions_applied:
        raise ValueError("template must be a fresh state that has not started")
    cdef const GameHooks* hooks = template.hooks
    cdef int players = template.h.players
    if players > 64:
        raise ValueError("more than 64 seats")
    cdef uint64_t base = mix64(seed_to_u64(seed))
    cdef char* s = <char*>PyMem_Malloc(hooks.state_size)
    cdef int32_t* scratch = <int32_t*>PyMem_Malloc(sizeof(int32_t) * hooks.max_legal)
    if s == NULL or scratch == NULL:
        PyMem_Free(s)
        PyMem_Free(scratch)
        raise MemoryError()
    cdef int64_t index, actions = 0, turns = 0, done
    cdef uint64_t inner
    cdef Rng chooser
    cdef int32_t scores[64]
    cdef double returns[64]
    cdef double best
    cdef int p, winners, last_winner = 0
    cdef int64_t score_sum[64]
    cdef int64_t wins[64]
    cdef int64_t sole_wins[64]
    for p in range(players):
        score_sum[p] = wins[p] = sole_wins[p] = 0
    cdef bint failed = False
    with nogil:
        for index in range(start, stop):
            inner = mix64(base ^ <uint64_t>index)
            memcpy(s, template.data, hooks.state_size)
            rng_seed(&header_at(s).rng, mix64(inner))
            hooks.start(s)
            rng_seed(&chooser, mix64(inner ^ 1))
            done = play_random(s, hooks, &chooser, scratch, 1_000_000_000)
            if done < 0:
                failed = True
                break
            actions += done
            turns += header_at(s).turns
            hooks.scores(s, scores)
            hooks.returns(s, returns)
            best = returns[0]
            for p in range(1, players):
                if returns[p] > best:
                    best = returns[p]
            winners = 0
            for p in range(players):
                score_sum[p] += scores[p]
                if returns[p] == best:
                    wins[p] += 1
                    winners += 1
                    last_winner = p
            if winners == 1:
                sole_wins[last_winner] += 1
    PyMem_Free(s)
    PyMem_Free(scratch)
    if failed:
        raise RuntimeError("a game that is not over offered no legal action")
    return (actions, turns, [score_sum[p] for p in range(players)],
            [wins[p] for p in range(players)], [sole_wins[p] for p in range(players)])


# ---------------------------------------------------------------- whole games with in-core bots
# The bots a run can play without Python per move (cardcore.bots.in_core_policy): a seat's
# policy is uniform (RandomBot) or the game's greedy hook (GreedyBot), the latter optionally
# with a share of uniform moves (GreedyBot's ``epsilon``: one draw of 16 bits per decision,
# below the threshold plays uniformly). Each seat's generator is the one its Python bot would
# hold after ``reseed(bot_seed(stream, index, seat))``, so both paths make the same moves.
cdef enum:
    C_POLICY_RANDOM = 0
    C_POLICY_GREEDY = 1
    C_POLICY_EXTERNAL = 2           # VectorCore only: the caller moves this seat
    C_EPSILON_ONE = 1 << 16         # epsilon thresholds are out of this
POLICY_RANDOM = C_POLICY_RANDOM
POLICY_GREEDY = C_POLICY_GREEDY
POLICY_EXTERNAL = C_POLICY_EXTERNAL
EPSILON_ONE = C_EPSILON_ONE


cdef inline int policy_index(const GameHooks* hooks, void* s, int kind, uint32_t threshold,
                             const int32_t* legal, int n, Rng* rng) noexcept nogil:
    """The index in legal[0:n] that a seat's in-core bot plays."""
    cdef int k
    if kind == C_POLICY_GREEDY:
        if threshold and rng_below(rng, C_EPSILON_ONE) < threshold:
            return <int>rng_below(rng, <uint32_t>n)
        k = hooks.greedy(s, legal, n, rng)
        return k if 0 <= k < n else -1
    return <int>rng_below(rng, <uint32_t>n)


@cython.boundscheck(False)
@cython.wraparound(False)
def play_policy_games(GameState template, seed, int64_t start, int64_t stop, kinds, thresholds,
                      streams, int64_t max_actions, int32_t[:, ::1] scores,
                      uint8_t[:, ::1] winners, int64_t[::1] actions, int64_t[::1] turns) -> None:
    """Games start..stop of a run whose every seat is an in-core bot, dealt as simulate deals
    game ``index`` (``run_seed(seed, index)``). Seat k plays ``kinds[k]`` (POLICY_RANDOM or
    POLICY_GREEDY) with the epsilon threshold ``thresholds[k]`` (0..EPSILON_ONE) and its
    generator seeded ``derive(stream_k, index, 2 + k)`` (simulation.bot_seed), stream_k the
    seed ``streams[k]``. Row ``index - start`` of the outputs gets the game's scores, its
    winners (1: a best ``returns``), actions and turns. RuntimeError if a game runs past
    ``max_actions`` or offers no move."""
    if template is None or template.hooks == NULL:
        raise TypeError("template must be a game's state")
    if template.h.to_move >= 0 or template.h.actions_applied:
        raise ValueError("template must be a fresh state that has not started")
    cdef const GameHooks* hooks = template.hooks
    cdef int players = template.h.players, p
    if players > 64:
        raise ValueError("more than 64 seats")
    if not (len(kinds) == len(thresholds) == len(streams) == players):
        raise ValueError(f"kinds, thresholds and streams need one entry per seat ({players})")
    cdef int64_t games = stop - start
    if games < 0 or scores.shape[0] < games or winners.shape[0] < games or \
            actions.shape[0] < games or turns.shape[0] < games or \
            scores.shape[1] != players or winners.shape[1] != players:
        raise ValueError("the output arrays need a row per game and a column per seat")
    cdef int kind[64]
    cdef uint32_t threshold[64]
    cdef uint64_t stream[64]
    for p in range(players):
        kind[p] = kinds[p]
        if kind[p] not in (POLICY_RANDOM, POLICY_GREEDY):
            raise ValueError(f"policy kind {kind[p]} is not POLICY_RANDOM or POLICY_GREEDY")
        if kind[p] == POLICY_GREEDY and hooks.greedy == NULL:
            raise ValueError(f"{hooks.name.decode()} has no in-core greedy policy")
        if not 0 <= thresholds[p] <= EPSILON_ONE:
            raise ValueError("an epsilon threshold is 0..EPSILON_ONE")
        threshold[p] = thresholds[p]
        stream[p] = mix64(seed_to_u64(streams[p]))
    cdef uint64_t base = mix64(seed_to_u64(seed))
    cdef char* s = <char*>PyMem_Malloc(hooks.state_size)
    cdef int32_t* legal = <int32_t*>PyMem_Malloc(sizeof(int32_t) * hooks.max_legal)
    if s == NULL or legal == NULL:
        PyMem_Free(s)
        PyMem_Free(legal)
        raise MemoryError()
    cdef Rng rng[64]
    cdef double returns[64]
    cdef double best
    cdef int64_t index, row, done
    cdef int n, k, status = 0
    cdef Header* h = header_at(s)
    try:
        with nogil:
            for index in range(start, stop):
                row = index - start
                memcpy(s, template.data, hooks.state_size)
                rng_seed(&h.rng, derive(base, <uint64_t>index, 0))
                hooks.start(s)
                for p in range(players):
                    rng_seed(&rng[p], derive(stream[p], <uint64_t>index, <uint64_t>(2 + p)))
                done = 0
                while h.to_move >= 0:
                    if done >= max_actions:
                        status = 1
                        break
                    n = hooks.legal(s, legal, hooks.max_legal)
                    if n <= 0:
                        status = 2
                        break
                    p = h.to_move
                    k = policy_index(hooks, s, kind[p], threshold[p], legal, n, &rng[p])
                    if k < 0:
                        status = 3
                        break
                    hooks.apply(s, legal[k])
                    done += 1
                if status:
                    break
                h.actions_applied += done
                actions[row] = done
                turns[row] = h.turns
                hooks.scores(s, &scores[row, 0])
                hooks.returns(s, returns)
                best = returns[0]
                for p in range(1, players):
                    if returns[p] > best:
                        best = returns[p]
                for p in range(players):
                    winners[row, p] = returns[p] == best
    finally:
        PyMem_Free(s)
        PyMem_Free(legal)
    if status == 1:
        raise RuntimeError(f"a game ran past {max_actions:,} actions (the game's length bound)")
    if status == 2:
        raise RuntimeError("a game that is not over offered no legal action")
    if status == 3:
        raise RuntimeError(f"{hooks.name.decode()}: the greedy policy chose no legal action")
