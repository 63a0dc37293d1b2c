/* The native side of benchmarks/wasm_ab.py: reads "GAME GAMES SEED" lines, plays that many
 * random matches through libcardcore (new, play_random, free: what playouts.mjs does through
 * the WebAssembly build) and prints "SECONDS ACTIONS" for each line. */
#define _POSIX_C_SOURCE 199309L
#include "cardcore/core/cardcore.h"

#include <stdio.h>
#include <time.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int main(void) {
    char game[64];
    long games;
    unsigned long long seed;
    while (scanf("%63s %ld %llu", game, &games, &seed) == 3) {
        long long actions = 0;
        double start = now();
        long i;
        for (i = 0; i < games; i++) {
            cc_game *g = NULL;
            if (cc_game_new(game, 0, NULL, seed + (unsigned long long)i, &g, NULL, 0) != 0) return 1;
            actions += cc_play_random(g, seed + (unsigned long long)i, 1000000);
            cc_game_free(g);
        }
        printf("%.9f %lld\n", now() - start, actions);
        fflush(stdout);
    }
    return 0;
}
