/* What the library's own files share and no caller sees: its allocator and a handle's
 * insides (cardcore.c owns the cc_game struct; search.c reaches the game through these). */
#ifndef CARDCORE_INTERNAL_H
#define CARDCORE_INTERNAL_H

#include <stdlib.h>

#include "cardcore/core/cardcore.h"
#include "cardcore/core/kernel.h"

/* Allocation goes through these so that a test build can make them fail (tests/c/). */
#ifdef CC_TEST_NOMEM
void *cc_test_malloc(size_t size);
void cc_test_free(void *p);
#endif
#ifndef CC_MALLOC
#define CC_MALLOC malloc
#define CC_FREE free
#endif

/* The registry's functions over a given registry (cc_registry, or a test's): a game is
 * registered when its hook table is one this library reads (hooks_compatible). */
int cc_internal_game_count(const GameKernel *const *registry);
const char *cc_internal_game_name(const GameKernel *const *registry, int i);
int cc_internal_game_new(const GameKernel *const *registry, const char *game, int players,
                         const char *options_json, uint64_t seed, cc_game **out, char *err,
                         size_t err_len);

/* A handle's hooks and state. */
const GameHooks *cc_internal_hooks(const cc_game *g);
const void *cc_internal_state(const cc_game *g);

#endif /* CARDCORE_INTERNAL_H */
