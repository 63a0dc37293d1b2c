/* libcardcore: cardcore's rules as a C library (C99), for any runtime that can call C:
 * the native shared library (C, C#/Unity through [DllImport("cardcore")], Godot, phones)
 * and WebAssembly (@cardcore/engine, clients/engine/). The same kernels as the Python
 * package's extension modules: the same seed deals the same cards, the same legal action
 * ids in the same order, the same labels, observation tensors and returns.
 *
 * Conventions:
 *   - Every function that can fail returns 0 or a negative CC_E_* code, and changes nothing
 *     when it fails; where it takes err/err_len, it writes a NUL-terminated message there
 *     (truncated to err_len) naming the option or the rule.
 *   - A function that fills a buffer returns the full count (or length) and writes at most
 *     cap items (len bytes, always NUL-terminated when len > 0), as snprintf does: compare.
 *   - A cc_game is not thread-safe: use one handle per thread (cc_game_clone is cheap).
 *     Distinct handles share nothing: the library has no global that changes.
 *   - The library allocates with malloc and frees with free; every allocation is checked.
 *
 * Versioning: cc_abi_version() returns CC_ABI_VERSION. A release that adds functions keeps
 * it; one that changes or removes a function, a code or a struct bumps it. Compare it at
 * load time.
 */
#ifndef CARDCORE_H
#define CARDCORE_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CC_ABI_VERSION 1

#if defined(_WIN32)
#define CC_API __declspec(dllexport)
#elif defined(__wasm__)
#define CC_API __attribute__((visibility("default")))
#else
#define CC_API __attribute__((visibility("default")))
#endif

/* Error codes: every one is negative. */
enum {
    CC_OK = 0,
    CC_E_UNKNOWN_GAME = -1,   /* no game of that name registered (err: or why it was refused) */
    CC_E_CONFIG = -2,         /* players or an option out of range, or bad options JSON */
    CC_E_ILLEGAL = -3,        /* the action is not legal now */
    CC_E_OVER = -4,           /* the match is over */
    CC_E_NOMEM = -5,          /* an allocation failed */
    CC_E_ARGUMENT = -6,       /* a NULL handle or pointer, a seat or an id out of range */
    CC_E_LEGAL = -7           /* cc_refusal: the action is legal now, nothing to refuse */
};

typedef struct cc_game cc_game;

/* The ABI's version (CC_ABI_VERSION of the library, not of the header you compiled with). */
CC_API int cc_abi_version(void);

/* The registered games: the name of game i (0 <= i < cc_game_count()), or NULL. A kernel
 * whose hook table this library cannot read (built for a newer core: kernel.h,
 * GAME_HOOKS_HEAD) is not registered. */
CC_API int cc_game_count(void);
CC_API const char *cc_game_name(int i);

/* A new match of `game`, dealt exactly as cardcore.new_game(game, players=players,
 * seed=seed, **options) deals it. players <= 0: the game's default. options_json: NULL, ""
 * or a JSON object of the game's options (strings, integers, true/false, null), at most
 * 4096 bytes, no nesting; an unknown option, a value out of range or trailing bytes give
 * CC_E_CONFIG with err naming the option. 0 and *out set, or an error code (*out NULL). */
CC_API int cc_game_new(const char *game, int players, const char *options_json, uint64_t seed,
                       cc_game **out, char *err, size_t err_len);

/* The same, with the first deal's deck given (card ids, top first: deck[0] is dealt first;
 * the game's whole composition, in any order). */
CC_API int cc_game_new_stacked(const char *game, int players, const char *options_json,
                               uint64_t seed, const uint8_t *deck, int deck_len,
                               cc_game **out, char *err, size_t err_len);

CC_API void cc_game_free(cc_game *g);                  /* NULL is fine */
CC_API cc_game *cc_game_clone(const cc_game *g);       /* NULL when out of memory */

CC_API const char *cc_name(const cc_game *g);          /* the game's registered name */
CC_API int cc_num_players(const cc_game *g);
CC_API int cc_num_actions(const cc_game *g);           /* ids are 0..cc_num_actions-1 */
CC_API int cc_current_player(const cc_game *g);        /* -1 once over */
CC_API int cc_is_over(const cc_game *g);               /* 1 or 0 (-6 for NULL) */
CC_API int64_t cc_actions_applied(const cc_game *g);

/* The legal action ids, ascending (Game.legal_action_ids()); 0 once the match is over. */
CC_API int cc_legal_actions(const cc_game *g, int32_t *ids, int cap);

/* Apply a legal id: 0, or CC_E_ILLEGAL / CC_E_OVER with err saying why; nothing changes.
 * For an id in range that is not legal now, err is exactly the rule ID that forbids it
 * (e.g. "XY-4.3"; cc_refusal gives the reason and its fields); for an id out of range, or a
 * game without refusals, a sentence ("action 999 is outside 0..157"); once over, "the match
 * is over". */
CC_API int cc_apply(cc_game *g, int32_t id, char *err, size_t err_len);

/* Why an id is not legal now, without applying it (a UI's "why not?"): the reason, >= 0 (the
 * index of the game's refusal template: its Python words module's REFUSALS, in order), the
 * rule ID written to rule (snprintf-style, rule_len bytes) and the template's fields to
 * args (at most cap; *nargs, if nargs is not NULL, is how many there are: compare). The
 * fields follow the English template's order: card ids for fields named card, target and
 * top, a suit index 0..3 (C S D H) for suit, plain numbers otherwise. Otherwise a negative
 * code, rule "" and *nargs 0: CC_E_LEGAL for a legal id, CC_E_OVER once the match is over,
 * CC_E_ARGUMENT for an id outside 0..cc_num_actions-1 (or a NULL handle, rule with
 * rule_len > 0, args with cap > 0, or cap < 0), CC_E_ILLEGAL for a game without refusals. */
CC_API int cc_refusal(const cc_game *g, int32_t id, char *rule, size_t rule_len, int32_t *args,
                      int cap, int *nargs);

/* Per seat, higher is better: the final result once over, zeros before (Game.returns()). */
CC_API int cc_returns(const cc_game *g, double *out, int cap);
/* Per seat, the scores the view shows (the game's own direction). */
CC_API int cc_scores(const cc_game *g, int32_t *out, int cap);

/* What `seat` may know, as the float32 tensor of Game.observation_tensor(seat). */
CC_API int cc_observation_size(const cc_game *g);
CC_API int cc_observation(const cc_game *g, int seat, float *out, int cap);

/* The in-core greedy policy's choice (GreedyBot's heuristic) for the seat to move, its
 * tie-breaks drawn from a generator seeded with (seed + cc_actions_applied) mod 2^64:
 * the same id as Python's state.greedy_move(Random(that)). CC_E_OVER once over. */
CC_API int cc_greedy_action(const cc_game *g);
/* The same with the tie-break generator's seed given. */
CC_API int cc_greedy_action_seeded(const cc_game *g, uint64_t tie_seed);

/* str(action) of an id in this position, e.g. "attack 7H"; the label's length (snprintf). */
CC_API int cc_action_label(const cc_game *g, int32_t id, char *buf, size_t len);

/* Play uniformly random legal actions, chosen by a generator seeded with `seed`, until the
 * match is over or max_actions were applied (Game.run_random): the number applied. */
CC_API int64_t cc_play_random(cc_game *g, uint64_t seed, int64_t max_actions);

/* A copy in which everything `seat` cannot see is redealt at random, consistent with what it
 * saw (GameState.sample_hidden(seat, seed)); NULL if out of memory or no deal fits. */
CC_API cc_game *cc_sample_hidden(const cc_game *g, int seat, uint64_t seed);

/* The zones: how many, zone z's name and its instances; the cards of one instance (card
 * ids, a pile bottom to top), hidden ones included: for tools, never for a seat. */
CC_API int cc_zone_count(const cc_game *g);
CC_API const char *cc_zone_name(const cc_game *g, int zone);
CC_API int cc_zone_instances(const cc_game *g, int zone);
CC_API int cc_zone_cards(const cc_game *g, int zone, int instance, uint8_t *out, int cap);

/* IS-MCTS (single-observer information-set Monte Carlo tree search, the Python package's
 * ismcts_search) from a position, for the seat to move. */
typedef struct cc_search cc_search;

/* A search from g's position for the seat to move: iterations run in batches on one tree.
 * rollout: 0 = the game's rollout hook (uniform if none), 1 = greedy, 2 = uniform random;
 * horizon: 0 = match, 1 = round; exploration and prior 0..100 (ismcts_search's). Every seat
 * is its own side and the reward is the win (ismcts_search's defaults). The search copies the
 * position: g may change or be freed afterwards. NULL when out of memory or the game is over
 * (or g is NULL, an argument is out of range, or rollout is 1 for a game without a greedy
 * policy). */
CC_API cc_search *cc_search_new(const cc_game *g, uint64_t seed, int rollout, int horizon,
                                double exploration, double prior);
/* Run `iterations` more iterations (0 is fine): 0, or a negative CC_E_* code: CC_E_NOMEM
 * when the tree cannot grow (nothing changes), CC_E_ARGUMENT for NULL, iterations < 0 or
 * more than 10,000,000 in all, CC_E_ILLEGAL when the game's hooks failed (no world fits what
 * the seat saw, or a game that is not over offered no move: the search then stays failed). */
CC_API int cc_search_run(cc_search *s, int iterations);
/* The most visited root move (ties: the lower id), or a negative code (CC_E_ARGUMENT) before
 * any iteration. */
CC_API int cc_search_best(const cc_search *s);
/* The iterations run so far (CC_E_ARGUMENT for NULL). */
CC_API int cc_search_iterations(const cc_search *s);
CC_API void cc_search_free(cc_search *s);    /* NULL is fine */

/* The zones as `seat` sees them, as JSON: Python's view(seat)["zones"] (seat -1: a
 * spectator), e.g. {"hand:0": ["10C", "QC"], "hand:1": {"count": 6}, "stock": {"count": 24}}:
 * a zone it sees lists its cards (a pile bottom to top), any other gives its size. A zone
 * that a game splits into parts in Python (its split_zones, e.g. melds by meld) is given
 * whole here. Returns the length. */
CC_API int cc_view_json(const cc_game *g, int seat, char *buf, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* CARDCORE_H */
