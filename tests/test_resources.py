"""Bounded resources (issue 20): allocation failures, buffers, slot logs, long searches and
big runs. Every refusal is a cardcore error (or MemoryError / KeyboardInterrupt where the
cause is the machine or the user), never a signal, a hang or an unbounded allocation."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import cardcore
from cardcore import ConfigError, VectorGame, new_game
from cardcore.cards import card_str

from invariants import all_configs, config_id

SRC = str(Path(cardcore.__file__).resolve().parents[1])
GAMES = cardcore.available_games()
pytestmark = pytest.mark.slow       # subprocesses, address-space limits, timed searches


def run_python(code: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, timeout=timeout, env=env, check=False)


# ------------------------------------------------------------------ allocation failures
@pytest.mark.skipif(not sys.platform.startswith("linux"),
                    reason="RLIMIT_AS is enforced by Linux only")
def test_vector_core_allocation_failure_is_a_memory_error_not_a_crash():
    """Under an address-space limit (``ulimit -v``, as containers set) VectorCore's
    allocations fail one after another as the limit grows; each failure must leave an
    object that is safe to free (no uninitialised pointer freed), i.e. a MemoryError."""
    out = run_python("""
        import resource
        import cardcore
        from cardcore import VectorGame
        names = cardcore.available_games()
        for name in names:
            VectorGame(name, 4).close()           # every module imported before the limit

        def mapped():
            with open("/proc/self/status") as f:
                for line in f:
                    if line.startswith("VmSize:"):
                        return int(line.split()[1]) * 1024

        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        failed = built = 0
        for name in names:
            for n in (300, 2000):
                for extra in range(0, 24 << 20, 1 << 20):
                    base = mapped()
                    resource.setrlimit(resource.RLIMIT_AS, (base + extra, hard))
                    try:
                        vg = VectorGame(name, n)
                    except MemoryError:
                        failed += 1
                    else:
                        built += 1
                        del vg
                    finally:
                        resource.setrlimit(resource.RLIMIT_AS, (soft, hard))
        print("failed", failed, "built", built)
    """)
    assert out.returncode == 0, (out.returncode, out.stderr[-2000:])
    words = out.stdout.split()
    assert words[0] == "failed" and int(words[1]) > 0, out.stdout    # failures were exercised


# ------------------------------------------------------------------ buffers
def _bad_float_buffers(shape: tuple[int, ...]) -> list[tuple[str, object]]:
    size = int(np.prod(shape))
    bad = [
        ("big-endian float32", np.zeros(shape, dtype=">f4")),
        ("float64", np.zeros(shape, dtype=np.float64)),
        ("int32", np.zeros(shape, dtype=np.int32)),
        ("not C-contiguous", np.zeros(shape[::-1], dtype=np.float32).T if len(shape) > 1
         else np.zeros(2 * size, dtype=np.float32)[::2]),
        ("read-only", np.zeros(shape, dtype=np.float32)),
    ]
    bad[-1][1].flags.writeable = False        # type: ignore[attr-defined]
    if len(shape) == 1:
        bad.append(("2-D of the right size", np.zeros((1, size), dtype=np.float32)))
    else:
        bad.append(("flat of the right size", np.zeros(size, dtype=np.float32)))
        bad.append(("transposed shape", np.zeros(shape[::-1], dtype=np.float32)))
    return bad


@pytest.mark.parametrize("name", GAMES)
def test_observation_tensor_out_is_checked_for_dtype_byte_order_shape_and_layout(name):
    game = new_game(name, seed=2)
    seat = game.current_player
    want = game.observation_tensor(seat)
    for what, out in _bad_float_buffers(game.observation_shape):
        with pytest.raises(ValueError):
            game.observation_tensor(seat, out)
        if out.flags.writeable:                   # type: ignore[attr-defined]
            assert not np.any(out), what          # nothing written into a refused buffer
    good = np.empty(game.observation_shape, dtype="<f4" if sys.byteorder == "little" else ">f4")
    assert np.array_equal(game.observation_tensor(seat, good), want)


@pytest.mark.parametrize("name", GAMES)
def test_vector_game_buffers_are_checked_for_dtype_byte_order_shape_and_layout(name):
    vg = VectorGame(name, 3, seed=1)
    shape = (3, *vg.observation_shape)
    for what, out in _bad_float_buffers(shape):
        with pytest.raises(ValueError):
            vg.observations(out)
    width = vg.num_distinct_actions
    for bad in (np.zeros(3 * width, dtype=bool), np.zeros((width, 3), dtype=bool),
                np.zeros((3, width), dtype=bool).T.copy().T):
        with pytest.raises(ValueError):
            vg.legal_mask(bad)
    core = vg._core
    mask = vg.legal_mask()
    actions = np.array([np.flatnonzero(row)[0] for row in mask], dtype=np.int64)
    rewards = np.zeros((3, vg.num_players), dtype=np.float32)
    done = np.zeros(3, dtype=np.bool_)
    before = [vg.game(i).to_json() for i in range(3)]
    for bad_actions in (actions.astype(">i8"), actions.reshape(3, 1), actions.astype(np.int32)):
        with pytest.raises(ValueError):
            core.step(bad_actions, rewards, done, 0, 3)
    for bad_rewards in (rewards.astype(">f4"), rewards.reshape(-1), rewards.T.copy()):
        with pytest.raises(ValueError):
            core.step(actions, bad_rewards, done, 0, 3)
    with pytest.raises(ValueError):
        core.step(actions, rewards, done.reshape(3, 1), 0, 3)
    with pytest.raises(ValueError):
        core.random_actions(np.zeros(3, dtype=">i8"), 0, 3, cardcore._fast.Random(1))
    with pytest.raises(ValueError):
        core.current_player(np.zeros((3, 1), dtype=np.int32), 0, 3)
    assert [vg.game(i).to_json() for i in range(3)] == before
    # Big-endian actions given to VectorGame.step are converted, not misread.
    twin = VectorGame(name, 3, seed=1)
    assert np.array_equal(twin.legal_mask(), mask)
    got, want = vg.step(actions.astype(">i8")), twin.step(actions)
    assert all(np.array_equal(a, b) for a, b in zip(got, want))
    assert [vg._core.game_record(i) for i in range(3)] == \
        [twin._core.game_record(i) for i in range(3)]


# ------------------------------------------------------------------ VectorGame slot logs
def test_slot_logs_shrink_after_a_long_episode():
    """A slot's log keeps its memory between episodes only up to a small size: the longest
    episode ever seen does not stay allocated for ever."""
    from cardcore._batch import LOG_KEEP
    vg = VectorGame("kuzanasta", 2, seed=0, players=2, max_turns=10_000, sets="three_and_four")
    steps = 0
    while vg._core.log_capacity(0) <= LOG_KEEP and steps < 10**6:
        vg.step(vg.random_actions())
        steps += 1
    assert vg._core.log_capacity(0) > LOG_KEEP                # a long episode grew the log
    episode = vg._core.game_record(0)[0]
    while vg._core.game_record(0)[0] == episode:
        vg.step(vg.random_actions())
    assert vg._core.log_capacity(0) <= LOG_KEEP               # ... and its end shrank it



# ------------------------------------------------------------------ length bounds
@pytest.mark.parametrize("config", all_configs(), ids=config_id)
def test_every_configuration_has_a_finite_length_bound(config):
    name, kwargs = config
    game = new_game(name, seed=0, **kwargs)
    assert isinstance(game.max_game_length, int) and 0 < game.max_game_length < sys.maxsize


# ------------------------------------------------------------------ long searches
def test_a_long_search_reaches_keyboard_interrupt_within_a_tenth_of_a_second():
    """ISMCTS runs its iterations in short slices without the GIL and checks for signals
    between them: Ctrl-C (SIGINT) raises KeyboardInterrupt at once, the machine's load
    aside."""
    out = run_python("""
        import signal, threading, time
        from cardcore import new_game
        from cardcore._search import ismcts_search
        # Ctrl-C raises KeyboardInterrupt even when this process was started with SIGINT
        # ignored (as a shell's background job is): the default handler, set explicitly.
        signal.signal(signal.SIGINT, signal.default_int_handler)
        game = new_game("kuzanasta", seed=1)
        sent = []
        def interrupt():
            time.sleep(0.5)
            sent.append(time.perf_counter())
            signal.raise_signal(signal.SIGINT)
        threading.Thread(target=interrupt, daemon=True).start()
        started = time.perf_counter()
        try:
            ismcts_search(game.state, game.current_player, 10_000_000, 1, horizon="match")
        except KeyboardInterrupt:
            print("interrupted after", time.perf_counter() - sent[0])
        else:
            print("finished", time.perf_counter() - started)
    """)
    assert out.returncode == 0, out.stderr[-2000:]
    words = out.stdout.split()
    assert words[0] == "interrupted", out.stdout
    assert float(words[2]) < 0.5, out.stdout      # about 0.01 s here; a busy machine aside


def test_interrupt_main_from_a_timer_thread_stops_a_search():
    import _thread
    game = new_game("manna", seed=2)
    while len(game.legal_action_ids()) < 2:
        game.apply(game.legal_action_ids()[0])
    bot = cardcore.bots.ISMCTSBot(iterations=10_000_000, seed=1, horizon="match")
    timer = threading.Timer(0.3, _thread.interrupt_main)
    # interrupt_main does nothing where SIGINT is ignored (pytest run as a background job):
    # the default handler for the test's duration.
    inherited = signal.signal(signal.SIGINT, signal.default_int_handler)
    started = time.perf_counter()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            bot.choose_id(game)
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, inherited)
    assert time.perf_counter() - started < 0.3 + 1.0


@pytest.mark.parametrize("name", GAMES)
def test_think_ms_bounds_the_time_of_a_decision(name):
    from cardcore.bots import ISMCTSBot
    game = new_game(name, seed=4)
    while len(game.legal_action_ids()) < 2:
        game.apply(game.legal_action_ids()[0])
    bot = ISMCTSBot(think_ms=50, seed=3)
    started = time.perf_counter()
    action = bot.choose_id(game)
    elapsed = time.perf_counter() - started
    assert action in game.legal_action_ids()
    assert elapsed < 0.05 + 0.5                       # the budget plus one slice, load aside
    assert bot.last_iterations >= 1
    capped = ISMCTSBot(iterations=5, think_ms=10_000, seed=3)
    started = time.perf_counter()
    capped.choose_id(game)
    assert capped.last_iterations == 5 and time.perf_counter() - started < 5


def test_ismcts_defaults_and_parameters():
    from cardcore.bots import ISMCTSBot, make_bot
    bot = ISMCTSBot()
    assert bot.iterations == 1000 and bot.think_ms is None
    assert ISMCTSBot(think_ms=20).iterations == 10_000_000      # the cap, time decides
    assert make_bot("ismcts:think_ms=20").think_ms == 20
    for bad in (0, -1, float("nan"), float("inf"), True, "5", 10**9):
        with pytest.raises(ValueError):
            ISMCTSBot(think_ms=bad)
    with pytest.raises(ConfigError):
        make_bot("ismcts:think_ms=-3")


def test_sliced_search_gives_the_same_choice_as_before():
    """Slicing the iterations (to check for interrupts) changes nothing: the statistics of
    a fixed number of iterations are those of one uninterrupted run."""
    from cardcore._search import ismcts_search
    game = new_game("kings_stakes", seed=5)
    a = ismcts_search(game.state, game.current_player, 3000, 9)
    b = ismcts_search(game.state, game.current_player, 3000, 9)
    assert a == b and sum(v for _, v, _ in a) == 3000


# ------------------------------------------------------------------ big runs
def test_simulate_makes_its_chunks_lazily_and_caps_the_games():
    from cardcore.simulation import MAX_GAMES
    with pytest.raises(ConfigError, match="games"):
        cardcore.simulate("kings_stakes", 2**64)
    with pytest.raises(ConfigError, match="games"):
        cardcore.simulate("kings_stakes", MAX_GAMES + 1)
    from cardcore.tournament import tournament
    with pytest.raises(ConfigError, match="games"):
        tournament("kings_stakes", MAX_GAMES + 1, bots="greedy,random")


def test_a_huge_run_starts_at_once_with_bounded_memory():
    """The job list is never built whole: runs of MAX_GAMES games start playing at once
    (stopped here by their progress callback) with the memory of a few chunks. In a
    subprocess under an address-space limit where there is one: a job list built whole
    (23 GB in 12 s for 2**64 games) fails there with MemoryError, not on the machine."""
    out = run_python("""
        import sys, time, tracemalloc
        if sys.platform.startswith("linux"):
            import resource
            with open("/proc/self/status") as f:
                mapped = next(int(l.split()[1]) * 1024 for l in f if l.startswith("VmSize:"))
            resource.setrlimit(resource.RLIMIT_AS, (mapped + (1 << 30), resource.RLIM_INFINITY))
        import cardcore
        from cardcore.simulation import MAX_GAMES
        from cardcore.tournament import tournament

        class Enough(Exception):
            pass

        def stop_after(chunks):
            seen = []
            def progress(n):
                seen.append(n)
                if len(seen) >= chunks:
                    raise Enough
            return progress, seen

        tracemalloc.start()
        started = time.perf_counter()
        for run in (lambda p: cardcore.simulate("kings_stakes", MAX_GAMES, chunk_size=50,
                                                progress=p),
                    lambda p: tournament("kings_stakes", MAX_GAMES, bots="random,greedy",
                                         chunk_size=5, progress=p)):
            progress, seen = stop_after(3)
            try:
                run(progress)
            except Enough:
                pass
            assert len(seen) == 3, seen
        peak = tracemalloc.get_traced_memory()[1]
        print("peak", peak, "seconds", time.perf_counter() - started)
    """)
    assert out.returncode == 0, out.stderr[-2000:]
    words = out.stdout.split()
    assert int(words[1]) < 20 << 20 and float(words[3]) < 60, out.stdout


def test_simulate_refuses_a_stacked_deck_and_non_bot_arguments():
    game = new_game("kings_stakes", players=2, seed=0)
    deck = [card_str(c) for c in game.deck_for(2, game.options)]
    with pytest.raises(ConfigError, match="deck"):
        cardcore.simulate("kings_stakes", 3, players=2, deck=deck)
    from cardcore.tournament import tournament
    with pytest.raises(ConfigError, match="deck"):
        tournament("kings_stakes", 3, bots="greedy,random", deck=deck)
    for bad in (12, None, 1.5, [3], {"a": 1}, b"random"):
        with pytest.raises(ConfigError) as refused:
            cardcore.simulate("kings_stakes", 3, bots=bad)
        assert refused.value.option == "bots"
