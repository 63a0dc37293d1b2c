"""The search in C (src/cardcore/core/search.c) through the native library's ABI
(cc_search_new/run/best/iterations/free), by ctypes: the same choice as Python's
ismcts_search for the same position, iterations and seed, in one batch or many (the tree
grown between them), for every game the library registers; and hostile calls (NULL, zero or
too many iterations, arguments out of range, a game that is over)."""
from __future__ import annotations

import ctypes
import math
import shutil
import subprocess
from pathlib import Path

import pytest

import cardcore
from cardcore._search import ismcts_search

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "src" / "cardcore" / "core"

pytestmark = pytest.mark.slow      # a C build: out of the quick loop

E_ARGUMENT = -6
ROLLOUTS = {0: "game", 1: "greedy", 2: "random"}
HORIZONS = {0: "match", 1: "round"}
# (rollout, horizon, exploration, prior): the ABI's codes, as ismcts_search's arguments above
VARIANTS = [(0, 0, 0.7, 0.0), (1, 1, 0.7, 0.5), (2, 0, 1.0, 0.0), (0, 1, 0.4, 2.0)]


@pytest.fixture(scope="module")
def lib(tmp_path_factory) -> ctypes.CDLL:
    if shutil.which("make") is None or shutil.which("cc") is None:
        pytest.fail("make and a C compiler are needed to build libcardcore", pytrace=False)
    out = tmp_path_factory.mktemp("search_lib")
    result = subprocess.run(["make", "-s", "-C", str(CORE), f"OUT={out}"], capture_output=True,
                            text=True, timeout=600)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    so = ctypes.CDLL(str(out / "libcardcore.so"))
    p, i, u64, i64, d = ctypes.c_void_p, ctypes.c_int, ctypes.c_uint64, ctypes.c_int64, ctypes.c_double
    sigs = {
        "cc_game_count": (i, []), "cc_game_name": (ctypes.c_char_p, [i]),
        "cc_game_new": (i, [ctypes.c_char_p, i, ctypes.c_char_p, u64, ctypes.POINTER(p),
                            ctypes.c_char_p, ctypes.c_size_t]),
        "cc_game_free": (None, [p]),
        "cc_current_player": (i, [p]), "cc_is_over": (i, [p]),
        "cc_legal_actions": (i, [p, ctypes.POINTER(ctypes.c_int32), i]),
        "cc_apply": (i, [p, ctypes.c_int32, ctypes.c_char_p, ctypes.c_size_t]),
        "cc_play_random": (i64, [p, u64, i64]),
        "cc_search_new": (p, [p, u64, i, i, d, d]),
        "cc_search_run": (i, [p, i]),
        "cc_search_best": (i, [p]),
        "cc_search_iterations": (i, [p]),
        "cc_search_free": (None, [p]),
    }
    for name, (restype, argtypes) in sigs.items():
        fn = getattr(so, name)
        fn.restype = restype
        fn.argtypes = argtypes
    return so


@pytest.fixture(scope="module")
def native_games(lib) -> list[str]:
    names = [lib.cc_game_name(k).decode() for k in range(lib.cc_game_count())]
    assert names, "the library registers no game"
    return names


def new_native(lib, name: str, seed: int) -> int:
    handle = ctypes.c_void_p()
    err = ctypes.create_string_buffer(256)
    status = lib.cc_game_new(name.encode(), 0, None, seed, ctypes.byref(handle), err, len(err))
    assert status == 0, (name, status, err.value)
    return handle.value


def native_legal(lib, g: int) -> list[int]:
    buf = (ctypes.c_int32 * 4096)()
    n = lib.cc_legal_actions(g, buf, len(buf))
    assert 0 <= n <= len(buf)
    return list(buf[:n])


def native_choice(lib, g: int, seed: int, iterations, variant) -> int | None:
    """cc_search_best after `iterations` (an int: one batch; a list: those batches)."""
    rollout, horizon, exploration, prior = variant
    s = lib.cc_search_new(g, seed, rollout, horizon, exploration, prior)
    if not s:
        return None
    try:
        for batch in [iterations] if isinstance(iterations, int) else iterations:
            assert lib.cc_search_run(s, batch) == 0
        assert lib.cc_search_iterations(s) == (iterations if isinstance(iterations, int)
                                               else sum(iterations))
        return lib.cc_search_best(s)
    finally:
        lib.cc_search_free(s)


def python_choice(game, seed: int, iterations: int, variant) -> int | None:
    rollout, horizon, exploration, prior = variant
    try:
        stats = ismcts_search(game._state, game.current_player, iterations, seed, exploration,
                              HORIZONS[horizon], ROLLOUTS[rollout], None, prior)
    except ValueError as e:                 # a game without a greedy policy
        assert ROLLOUTS[rollout] == "greedy" and "greedy" in str(e)
        return None
    assert sum(v for _, v, _ in stats) == iterations
    return stats[0][0]


def test_the_abi_search_chooses_as_python(lib, native_games):
    """For every registered game, positions along two seeded matches, four settings of
    rollout/horizon/exploration/prior: cc_search_best after N iterations in one batch is
    ismcts_search(state, seat to move, N, seed, ...)'s most visited move."""
    compared = 0
    for name in native_games:
        for match_seed in (1, 2):
            game = cardcore.new_game(name, seed=match_seed)
            g = new_native(lib, name, match_seed)
            try:
                for step in range(16):
                    if game.is_over:
                        break
                    assert native_legal(lib, g) == list(game.legal_action_ids()), (name, step)
                    assert lib.cc_current_player(g) == game.current_player
                    if step % 3 == 0:
                        for k, variant in enumerate(VARIANTS):
                            seed = 1000 * match_seed + 10 * step + k
                            want = python_choice(game, seed, 200, variant)
                            got = native_choice(lib, g, seed, 200, variant)
                            assert got == want, (name, match_seed, step, variant, seed)
                            compared += want is not None
                    ids = game.legal_action_ids()
                    action = int(ids[(7 * step + match_seed) % len(ids)])
                    game.apply(action)
                    assert lib.cc_apply(g, action, None, 0) == 0
            finally:
                lib.cc_game_free(g)
    assert compared > 0
    print(f"{compared} searches compared over {len(native_games)} games")


def test_batches_and_tree_growth_change_nothing(lib, native_games):
    """1,500 iterations (past the tree's first 1,024 nodes) in uneven batches: the choice of
    one Python search of 1,500, and of one ABI batch of 1,500."""
    for name in native_games:
        game = cardcore.new_game(name, seed=5)
        g = new_native(lib, name, 5)
        try:
            for variant in (VARIANTS[0], VARIANTS[2]):
                want = python_choice(game, 77, 1500, variant)
                assert native_choice(lib, g, 77, 1500, variant) == want, (name, variant)
                assert native_choice(lib, g, 77, [1, 6, 500, 0, 993], variant) == want, (name, variant)
        finally:
            lib.cc_game_free(g)


def test_the_search_keeps_its_own_copy_of_the_position(lib, native_games):
    name = native_games[0]
    game = cardcore.new_game(name, seed=9)
    want = python_choice(game, 3, 300, VARIANTS[0])
    g = new_native(lib, name, 9)
    s = lib.cc_search_new(g, 3, *VARIANTS[0])
    assert s
    try:
        lib.cc_play_random(g, 1, 1 << 40)              # the game moves on, then is freed
        lib.cc_game_free(g)
        assert lib.cc_search_run(s, 300) == 0
        assert lib.cc_search_best(s) == want
    finally:
        lib.cc_search_free(s)


def test_hostile_calls(lib, native_games):
    # NULL everywhere
    assert lib.cc_search_new(None, 1, 0, 0, 0.7, 0.0) is None
    assert lib.cc_search_run(None, 10) == E_ARGUMENT
    assert lib.cc_search_best(None) == E_ARGUMENT
    assert lib.cc_search_iterations(None) == E_ARGUMENT
    lib.cc_search_free(None)
    for name in native_games:
        g = new_native(lib, name, 4)
        try:
            legal = native_legal(lib, g)
            # arguments out of range: no search
            for args in [(4, 9, 0, 0.7, 0.0), (4, -1, 0, 0.7, 0.0), (4, 3, 0, 0.7, 0.0),
                         (4, 0, 2, 0.7, 0.0), (4, 0, -1, 0.7, 0.0), (4, 0, 0, -0.1, 0.0),
                         (4, 0, 0, 100.5, 0.0), (4, 0, 0, math.nan, 0.0),
                         (4, 0, 0, 0.7, -1.0), (4, 0, 0, 0.7, math.nan), (4, 0, 0, 0.7, math.inf)]:
                assert lib.cc_search_new(g, *args) is None, (name, args)
            s = lib.cc_search_new(g, 4, 0, 0, 0.7, 0.0)
            assert s
            try:
                # 0 iterations: fine, and nothing to choose yet
                assert lib.cc_search_run(s, 0) == 0
                assert lib.cc_search_iterations(s) == 0
                assert lib.cc_search_best(s) == E_ARGUMENT
                # negative, or past 10,000,000 in all: refused, nothing changes
                assert lib.cc_search_run(s, -1) == E_ARGUMENT
                assert lib.cc_search_run(s, 10_000_001) == E_ARGUMENT
                assert lib.cc_search_run(s, 3) == 0
                assert lib.cc_search_run(s, 10_000_000 - 2) == E_ARGUMENT
                assert lib.cc_search_run(s, -(2 ** 31)) == E_ARGUMENT
                assert lib.cc_search_iterations(s) == 3
                assert lib.cc_search_best(s) in legal
                assert lib.cc_search_run(s, 1) == 0
                assert lib.cc_search_iterations(s) == 4
            finally:
                lib.cc_search_free(s)
            # a game that is over: nothing to search
            lib.cc_play_random(g, 2, 1 << 40)
            assert lib.cc_is_over(g) == 1
            for variant in VARIANTS:
                assert lib.cc_search_new(g, 1, *variant) is None, name
        finally:
            lib.cc_game_free(g)
