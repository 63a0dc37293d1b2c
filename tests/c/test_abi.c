/* The C ABI (src/cardcore/core/cardcore.h) from C: every registered game played to the end
 * by random choices with the contract checked after every step, and hostile input at every
 * entry point (an unknown game, bad options JSON, an illegal id, a NULL, too small a buffer).
 * Built with -DCC_TEST_NOMEM (make test), the library's allocator fails the k-th allocation
 * for every k: each failure is an error code, never a crash or a leak.
 *
 * The hook table's versions (kernel.h, GAME_HOOKS_HEAD): a kernel built against an older
 * release's headers (a shorter table, no solve) is registered and plays, its solve NULL; a
 * table claiming a newer version, or shorter than the first version's, is refused at
 * registration with an error saying so (tests of the library's registry over the test's own).
 *
 * Run by `make -C src/cardcore/core test` (tests/test_libcardcore.py does, and CI's
 * sanitizer job with SANITIZE=1). Prints "N passed, N failed" last. */
#include "cardcore/core/cardcore.h"
#include "cardcore/core/internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;

#define CHECK(cond, ...) do { \
    if (cond) { passed++; } \
    else { failed++; printf("FAIL %s:%d: ", __FILE__, __LINE__); printf(__VA_ARGS__); printf("\n"); } \
} while (0)

#ifdef CC_TEST_NOMEM
static long allocations, outstanding, fail_at = -1;
void *cc_test_malloc(size_t size) {
    void *p;
    if (fail_at >= 0 && allocations++ == fail_at) return NULL;
    p = malloc(size);
    if (p != NULL) outstanding++;
    return p;
}
void cc_test_free(void *p) {
    if (p != NULL) outstanding--;
    free(p);
}
#endif

/* The part of a position a caller can see: whose turn, the legal ids, seat 0's tensor. */
typedef struct Seen {
    int to_move, n;
    int32_t ids[4096];
    float obs[8192];
    int obs_n;
} Seen;

static void look(const cc_game *g, Seen *s) {
    s->to_move = cc_current_player(g);
    s->n = cc_legal_actions(g, s->ids, 4096);
    s->obs_n = cc_observation(g, 0, s->obs, 8192);
}

static int same(const Seen *a, const Seen *b) {
    return a->to_move == b->to_move && a->n == b->n && a->obs_n == b->obs_n
        && memcmp(a->ids, b->ids, sizeof(int32_t) * (size_t)a->n) == 0
        && memcmp(a->obs, b->obs, sizeof(float) * (size_t)(a->obs_n < 8192 ? a->obs_n : 8192)) == 0;
}

static uint64_t next(uint64_t *x) {    /* the test's own choices: splitmix64 */
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static Seen before, after;

static void play_game(const char *name, int players, uint64_t seed) {
    cc_game *g = NULL, *copy;
    char err[256], label[128], rule[32];
    int32_t args[4];
    int status, steps = 0, i, n, reason, nargs;
    uint64_t chooser = seed;
    double returns[16];

    status = cc_game_new(name, players, NULL, seed, &g, err, sizeof err);
    CHECK(status == CC_OK && g != NULL, "%s new: %d %s", name, status, err);
    if (g == NULL) return;
    while (!cc_is_over(g) && steps < 100000) {
        look(g, &before);
        CHECK(before.n > 0 && before.to_move >= 0, "%s: no legal action", name);
        for (i = 1; i < before.n; i++)
            if (before.ids[i] <= before.ids[i - 1]) break;
        CHECK(i >= before.n, "%s: legal ids not ascending", name);
        /* an id that is not legal: refused, nothing changes */
        for (n = 0; n < cc_num_actions(g); n++) {
            for (i = 0; i < before.n && before.ids[i] != n; i++) {}
            if (i == before.n) break;
        }
        if (n < cc_num_actions(g) && steps % 7 == 0) {
            /* why not, asked first: a reason, its rule, its fields; nothing changes */
            reason = cc_refusal(g, n, rule, sizeof rule, args, 4, &nargs);
            look(g, &after);
            CHECK(reason >= 0 && rule[0] != '\0' && nargs >= 0 && nargs <= 4
                  && same(&before, &after), "%s: refusal of %d: %d %s", name, n, reason, rule);
            status = cc_apply(g, n, err, sizeof err);
            look(g, &after);
            CHECK(status == CC_E_ILLEGAL && strcmp(err, rule) == 0 && same(&before, &after),
                  "%s: illegal id %d: %d, err '%s' is not its rule '%s'", name, n, status, err,
                  rule);
        }
        if (steps % 5 == 0) {                  /* a legal id has no refusal */
            reason = cc_refusal(g, before.ids[0], rule, sizeof rule, args, 4, &nargs);
            CHECK(reason == CC_E_LEGAL && rule[0] == '\0' && nargs == 0,
                  "%s: refusal of the legal id %d: %d", name, before.ids[0], reason);
        }
        if (steps % 11 == 0) {
            status = cc_apply(g, -5, err, sizeof err);
            CHECK(status == CC_E_ILLEGAL, "%s: id -5: %d", name, status);
            status = cc_apply(g, cc_num_actions(g) + 3, err, sizeof err);
            CHECK(status == CC_E_ILLEGAL, "%s: id past the end: %d", name, status);
        }
        n = cc_action_label(g, before.ids[0], label, sizeof label);
        CHECK(n > 0 && (size_t)n == strlen(label), "%s: label of %d", name, before.ids[0]);
        n = cc_greedy_action(g);
        for (i = 0; i < before.n && before.ids[i] != n; i++) {}
        CHECK(i < before.n, "%s: greedy chose %d, not a legal id", name, n);
        if (steps % 13 == 0) {                 /* a clone plays on alone */
            copy = cc_game_clone(g);
            CHECK(copy != NULL, "%s: clone", name);
            if (copy != NULL) {
                cc_play_random(copy, seed + (uint64_t)steps, 1000000);
                CHECK(cc_is_over(copy), "%s: clone's random playout ends", name);
                look(g, &after);
                CHECK(same(&before, &after), "%s: the clone's play changed the original", name);
                cc_game_free(copy);
            }
            copy = cc_sample_hidden(g, before.to_move, seed ^ (uint64_t)steps);
            CHECK(copy != NULL, "%s: sample_hidden", name);
            cc_game_free(copy);
        }
        status = cc_apply(g, before.ids[next(&chooser) % (uint64_t)before.n], err, sizeof err);
        CHECK(status == CC_OK, "%s: a legal id refused: %d %s", name, status, err);
        steps++;
    }
    CHECK(cc_is_over(g) && cc_current_player(g) == -1, "%s: the match ends", name);
    CHECK(cc_legal_actions(g, before.ids, 4096) == 0, "%s: no legal id once over", name);
    CHECK(cc_apply(g, 0, err, sizeof err) == CC_E_OVER, "%s: apply once over", name);
    reason = cc_refusal(g, 0, rule, sizeof rule, args, 4, &nargs);
    CHECK(reason == CC_E_OVER && rule[0] == '\0' && nargs == 0, "%s: refusal once over: %d",
          name, reason);
    CHECK(cc_greedy_action(g) == CC_E_OVER, "%s: greedy once over", name);
    CHECK(cc_returns(g, returns, 16) == cc_num_players(g), "%s: returns", name);
    cc_game_free(g);
}

/* cc_refusal's hostile input: NULLs, ids out of range, short buffers (snprintf's rules). */
static void refusals(const cc_game *g, const char *name) {
    char rule[32], tiny[3];
    int32_t args[4], one[1];
    int32_t ids[4096];
    int n = cc_legal_actions(g, ids, 4096), id, i, reason, nargs = 99, full, k;
    for (id = 0; id < cc_num_actions(g); id++) {        /* the first id that is not legal */
        for (i = 0; i < n && ids[i] != id; i++) {}
        if (i == n) break;
    }
    if (id == cc_num_actions(g)) return;
    CHECK(cc_refusal(NULL, id, rule, sizeof rule, args, 4, &nargs) == CC_E_ARGUMENT && nargs == 0,
          "%s: refusal, NULL handle", name);
    CHECK(cc_refusal(g, id, NULL, 5, args, 4, NULL) == CC_E_ARGUMENT, "%s: NULL rule", name);
    CHECK(cc_refusal(g, id, rule, sizeof rule, NULL, 2, NULL) == CC_E_ARGUMENT, "%s: NULL args", name);
    CHECK(cc_refusal(g, id, rule, sizeof rule, args, -1, NULL) == CC_E_ARGUMENT, "%s: cap -1", name);
    CHECK(cc_refusal(g, -1, rule, sizeof rule, args, 4, NULL) == CC_E_ARGUMENT && rule[0] == '\0',
          "%s: refusal of -1", name);
    CHECK(cc_refusal(g, cc_num_actions(g), rule, sizeof rule, args, 4, NULL) == CC_E_ARGUMENT,
          "%s: refusal past the end", name);
    reason = cc_refusal(g, id, rule, sizeof rule, args, 4, &full);
    CHECK(reason >= 0 && strlen(rule) >= 3, "%s: refusal of %d: %d", name, id, reason);
    /* no buffers at all: the same reason and count; a short rule buffer: cut, NUL-terminated */
    CHECK(cc_refusal(g, id, NULL, 0, NULL, 0, &k) == reason && k == full,
          "%s: refusal without buffers", name);
    memset(tiny, 'x', sizeof tiny);
    CHECK(cc_refusal(g, id, tiny, sizeof tiny, one, 1, NULL) == reason && tiny[2] == '\0'
          && strncmp(tiny, rule, 2) == 0, "%s: refusal's rule cut to 2 bytes: %.3s", name, tiny);
}

static void hostile(const char *name) {
    cc_game *g = NULL;
    char err[256], tiny[4];
    int32_t one[1];
    int n, status;
    static const char *bad_options[] = {
        "[1]", "{", "{\"nope\": 1}", "{\"a\": {\"b\": 1}}", "{} x", "{\"a\": 1.5}",
        "{\"a\": 1, \"a\": 2}", "\"text\"", "{\"a\": 123456789012345678901}", "{\"a\": \"\\u0041\"}",
        NULL
    };
    int i;

    status = cc_game_new("no_such_game_of_a_very_long_name_that_goes_on_and_on_and_on_past_sixty",
                         0, NULL, 1, &g, err, sizeof err);
    CHECK(status == CC_E_UNKNOWN_GAME && g == NULL && strlen(err) < 200,
          "unknown game: %d %s", status, err);
    CHECK(cc_game_new(NULL, 0, NULL, 1, &g, err, sizeof err) == CC_E_ARGUMENT, "NULL game");
    CHECK(cc_game_new(name, 0, NULL, 1, NULL, err, sizeof err) == CC_E_ARGUMENT, "NULL out");
    CHECK(cc_game_new(name, 99, NULL, 1, &g, err, sizeof err) == CC_E_CONFIG && g == NULL,
          "%s: 99 players", name);
    for (i = 0; bad_options[i] != NULL; i++) {
        status = cc_game_new(name, 0, bad_options[i], 1, &g, err, sizeof err);
        CHECK(status == CC_E_CONFIG && g == NULL && err[0] != '\0',
              "%s: options %s: %d", name, bad_options[i], status);
    }
    status = cc_game_new(name, 0, "{\"nope\": true}", 1, &g, err, sizeof err);
    CHECK(status == CC_E_CONFIG && strstr(err, "nope") != NULL, "%s: names the option: %s", name, err);
    status = cc_game_new(name, 0, " {  } ", 7, &g, tiny, sizeof tiny);
    CHECK(status == CC_OK && g != NULL, "%s: empty options", name);
    if (g == NULL) return;
    n = cc_legal_actions(g, one, 1);
    CHECK(n >= 1, "%s: full count with a short buffer", name);
    n = cc_action_label(g, one[0], tiny, sizeof tiny);
    CHECK(n >= 0 && strlen(tiny) <= 3, "%s: a label truncated, NUL-terminated", name);
    CHECK(cc_action_label(g, -1, tiny, sizeof tiny) == CC_E_ARGUMENT, "%s: label of -1", name);
    CHECK(cc_observation(g, -1, NULL, 0) == CC_E_ARGUMENT, "%s: seat -1", name);
    CHECK(cc_observation(g, 0, NULL, 0) == cc_observation_size(g), "%s: observation size", name);
    CHECK(cc_apply(NULL, 0, err, sizeof err) == CC_E_ARGUMENT, "NULL handle");
    refusals(g, name);
    CHECK(cc_apply(g, 0, NULL, 0) != CC_OK || 1, "no err buffer");   /* must not crash */
    CHECK(cc_is_over(NULL) == CC_E_ARGUMENT && cc_game_clone(NULL) == NULL, "NULL handle");
    cc_game_free(NULL);
    cc_game_free(g);
}

#ifdef CC_TEST_NOMEM
static void out_of_memory(const char *name) {
    cc_game *g, *copy;
    char err[256];
    long k;
    int status;
    for (k = 0; k < 8; k++) {
        g = NULL;
        allocations = 0;
        fail_at = k;
        status = cc_game_new(name, 0, NULL, 3, &g, err, sizeof err);
        CHECK(status == CC_OK || (status == CC_E_NOMEM && g == NULL), "%s: allocation %ld: %d",
              name, k, status);
        if (g != NULL) {
            allocations = 0;
            copy = cc_game_clone(g);
            cc_game_free(copy);
            allocations = 0;
            copy = cc_sample_hidden(g, 0, 5);
            cc_game_free(copy);
        }
        cc_game_free(g);
        fail_at = -1;
        CHECK(outstanding == 0, "%s: %ld allocations left after failing allocation %ld", name,
              outstanding, k);
    }
}
#endif

extern const GameKernel *const cc_registry[];

/* A game played to its end through a handle of the test's registry: 0, or the failing step. */
static int play_through(const GameKernel *const *registry, const char *name) {
    cc_game *g = NULL;
    char err[256];
    int32_t ids[4096];
    int steps = 0, n, status;
    cc_search *search;
    status = cc_internal_game_new(registry, name, 0, NULL, 11, &g, err, sizeof err);
    if (status != CC_OK || g == NULL) return -1;
    search = cc_search_new(g, 3, 0, 0, 0.7, 0.0);
    status = search == NULL || cc_search_run(search, 20) != 0 || cc_search_best(search) < 0;
    cc_search_free(search);
    while (status == 0 && !cc_is_over(g) && steps++ < 100000) {
        n = cc_legal_actions(g, ids, 4096);
        if (n <= 0 || cc_apply(g, ids[(unsigned)steps % (unsigned)n], err, sizeof err) != CC_OK)
            status = -2;
    }
    if (status == 0 && !cc_is_over(g)) status = -3;
    cc_game_free(g);
    return status;
}

/* The hook table's versions. The game with a solve hook stands in for an out-of-tree kernel:
 * its table as an older release's headers built it (GAME_HOOKS_MIN_SIZE bytes, version 1,
 * in an allocation of exactly that size, so that a read past its end is the sanitizers'
 * error), as a newer core's headers would (version + 1), and too short or too long. */
static void hook_versions(void) {
    const GameKernel *solver = NULL;
    GameKernel old_kernel, newer_kernel, short_kernel, long_kernel;
    GameHooks newer, shortened, *old, *full;
    const GameKernel *registry[6];
    char err[512], expected[128];
    cc_game *g = NULL;
    int i, status;

    for (i = 0; cc_registry[i] != NULL; i++) {
        const GameHooks *hooks = cc_registry[i]->hooks;
        CHECK(hooks->size == sizeof(GameHooks) && hooks->version == CARDCORE_HOOKS_VERSION
              && hooks_compatible(hooks), "%s: its table opens with GAME_HOOKS_HEAD", hooks->name);
        if (hooks_solve(hooks) != NULL) solver = cc_registry[i];
    }
    CHECK(solver != NULL, "a registered game has a solve hook");
    if (solver == NULL) return;
    CHECK(GAME_HOOKS_MIN_SIZE < sizeof(GameHooks) && GAME_HOOKS_MIN_SIZE
          <= offsetof(GameHooks, solve), "version 1's table ends before solve");

    /* An older release's table: no solve, and whatever follows it in memory is not read. */
    old = (GameHooks *)malloc(GAME_HOOKS_MIN_SIZE);
    full = (GameHooks *)malloc(sizeof(GameHooks));
    if (old == NULL || full == NULL) {
        free(old);
        free(full);
        CHECK(0, "malloc");
        return;
    }
    memcpy(old, solver->hooks, GAME_HOOKS_MIN_SIZE);
    old->size = (uint32_t)GAME_HOOKS_MIN_SIZE;
    old->version = 1;
    *full = *solver->hooks;          /* the bytes after the old table: a solve that is there */
    full->size = (uint32_t)GAME_HOOKS_MIN_SIZE;
    full->version = 1;
    CHECK(hooks_compatible(old) && hooks_solve(old) == NULL, "an old table: compatible, no solve");
    CHECK(hooks_solve(full) == NULL && full->solve != NULL,
          "the table's size, not what lies after it, says there is no solve");
    old_kernel = *solver;
    old_kernel.hooks = old;
    registry[0] = &old_kernel;
    registry[1] = NULL;
    CHECK(cc_internal_game_count(registry) == 1
          && strcmp(cc_internal_game_name(registry, 0), solver->hooks->name) == 0,
          "an old table is registered");
    CHECK(play_through(registry, solver->hooks->name) == 0, "an old table plays and searches");

    /* Refused at registration: a newer version, too short, longer than this core's. */
    newer = *solver->hooks;
    newer.version = CARDCORE_HOOKS_VERSION + 1;
    newer_kernel = *solver;
    newer_kernel.hooks = &newer;
    shortened = *solver->hooks;
    shortened.size = (uint32_t)GAME_HOOKS_MIN_SIZE - 4;
    shortened.version = 1;
    short_kernel = *solver;
    short_kernel.hooks = &shortened;
    *full = *solver->hooks;
    full->size = (uint32_t)sizeof(GameHooks) + 8;
    long_kernel = *solver;
    long_kernel.hooks = full;
    CHECK(!hooks_compatible(&newer) && !hooks_compatible(&shortened) && !hooks_compatible(full),
          "newer, shorter and longer tables are refused");
    registry[0] = &newer_kernel;
    registry[1] = &short_kernel;
    registry[2] = &long_kernel;
    registry[3] = NULL;
    CHECK(cc_internal_game_count(registry) == 0 && cc_internal_game_name(registry, 0) == NULL,
          "no refused table is registered");
    status = cc_internal_game_new(registry, solver->hooks->name, 0, NULL, 1, &g, err, sizeof err);
    snprintf(expected, sizeof expected,
             "is version %d of %d bytes; this library reads versions %d..%d",
             CARDCORE_HOOKS_VERSION + 1, (int)sizeof(GameHooks), CARDCORE_HOOKS_MIN_VERSION,
             CARDCORE_HOOKS_VERSION);
    CHECK(status == CC_E_UNKNOWN_GAME && g == NULL && strstr(err, "is refused") != NULL
          && strstr(err, expected) != NULL, "a newer table: refused, saying its version: %d %s",
          status, err);
    registry[0] = &short_kernel;
    registry[1] = solver;             /* beside a good kernel of the same name: that one */
    registry[2] = NULL;
    CHECK(cc_internal_game_count(registry) == 1, "the good one of two is registered");
    status = cc_internal_game_new(registry, solver->hooks->name, 0, NULL, 1, &g, err, sizeof err);
    CHECK(status == CC_OK && g != NULL, "the good one plays: %d %s", status, err);
    cc_game_free(g);
    registry[0] = &short_kernel;
    registry[1] = NULL;
    status = cc_internal_game_new(registry, solver->hooks->name, 0, NULL, 1, &g, err, sizeof err);
    CHECK(status == CC_E_UNKNOWN_GAME && g == NULL && strstr(err, "unknown game") != NULL
          && strstr(err, "hook tables refused at registration: 1 ") != NULL,
          "a short table (its name unread): refused: %s", err);
    free(old);
    free(full);
}

int main(void) {
    int i, players, count = cc_game_count();
    CHECK(cc_abi_version() == CC_ABI_VERSION, "ABI version");
    CHECK(count > 0, "no game registered");
    CHECK(cc_game_name(count) == NULL && cc_game_name(-1) == NULL, "game names out of range");
    hook_versions();
    for (i = 0; i < count; i++) {
        const char *name = cc_game_name(i);
        hostile(name);
#ifdef CC_TEST_NOMEM
        out_of_memory(name);
#endif
        for (players = 2; players <= 6; players++) {
            cc_game *probe = NULL;
            char err[256];
            if (cc_game_new(name, players, NULL, 1, &probe, err, sizeof err) != CC_OK) continue;
            cc_game_free(probe);
            play_game(name, players, 1000u + (unsigned)players);
        }
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed != 0;
}
