"""Threads (issue 20; docs/api.md "Threads"): a Game and a VectorGame shared by threads.

A Game makes every move and every read that can race one (``view``, ``observation_tensor``,
``events``, ``returns``, ``legal_actions``, ...) one step under its per-game guard, and checks
``apply(player=)``'s seat inside it. A VectorGame serialises its public methods. Both are
hammered here from several threads with ``faulthandler`` on and a bounded time; anything a
reader saw must be a position the game really passed through.
"""
from __future__ import annotations

import faulthandler
import json
import os
import random
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import numpy as np
import pytest

import cardcore
from cardcore import IllegalActionError, VectorGame, load_game, new_game

from invariants import all_configs, config_id, snapshot

SRC = str(Path(cardcore.__file__).resolve().parents[1])
GAMES = cardcore.available_games()


def run_python(code: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-X", "faulthandler", "-c", textwrap.dedent(code)],
                          capture_output=True, text=True, timeout=timeout, env=env,
                          check=False)


def hammer(workers: list, seconds: float) -> list[BaseException]:
    """Run ``work(stop)`` of every worker on its own thread, switching threads often, for
    ``seconds``; faulthandler dumps every thread's stack if they do not stop in time."""
    stop = threading.Event()
    errors: list[BaseException] = []

    def run(work) -> None:
        try:
            while not stop.is_set():
                work()
        except BaseException as e:            # reported by the caller
            errors.append(e)
            stop.set()

    threads = [threading.Thread(target=run, args=(w,), daemon=True) for w in workers]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    faulthandler.dump_traceback_later(seconds + 60, exit=True)
    try:
        for t in threads:
            t.start()
        stop.wait(seconds)
        stop.set()
        for t in threads:
            t.join()
    finally:
        faulthandler.cancel_dump_traceback_later()
        sys.setswitchinterval(interval)
    return errors


# ------------------------------------------------------------------ VectorGame
def test_a_vector_game_stepped_by_two_threads_is_serialised_not_corrupted():
    """The reproduction of issue 20: two threads looping ``vg.step(vg.random_actions())``
    on one VectorGame. Every call is serialised: no signal, no hang, and every slot is
    still exactly the game its seed and log rebuild."""
    out = run_python("""
        import threading
        import numpy as np
        from cardcore import IllegalActionError, VectorGame
        for threads in (1, 2):
            vg = VectorGame("kuzanasta", 64, seed=1, threads=threads)
            refused = [0]
            def loop():
                for _ in range(400):
                    try:
                        vg.step(vg.random_actions())
                    except IllegalActionError:
                        refused[0] += 1        # the other thread stepped in between
            workers = [threading.Thread(target=loop) for _ in range(2)]
            for t in workers:
                t.start()
            for t in workers:
                t.join(timeout=120)
                assert not t.is_alive(), "hung"
            obs, mask = vg.observations(), vg.legal_mask()
            for i in range(64):
                game = vg.game(i)
                assert np.array_equal(game.observation_tensor(game.current_player), obs[i]), i
                assert np.array_equal(game.legal_action_mask(), mask[i]), i
            vg.close()
            print("threads", threads, "refused", refused[0])
        print("ok")
    """)
    assert out.returncode == 0, (out.returncode, out.stderr[-3000:])
    assert out.stdout.strip().endswith("ok")


def test_a_closed_vector_game_goes_on_with_the_same_results():
    a = VectorGame("kings_stakes", 8, seed=3, threads=3)
    b = VectorGame("kings_stakes", 8, seed=3, threads=3)
    a.close()
    a.close()                                          # twice is fine
    for _ in range(60):
        actions = a.random_actions()
        assert np.array_equal(actions, b.random_actions())
        for x, y in zip(a.step(actions), b.step(actions)):
            assert np.array_equal(x, y)
        assert np.array_equal(a.legal_mask(), b.legal_mask())
        assert np.array_equal(a.observations(), b.observations())
    b.close()


def test_every_vector_game_method_from_four_threads():
    vg = VectorGame("kuzanasta", 16, seed=5, threads=2)
    own_mask = [vg.legal_mask()]

    def stepper() -> None:
        try:
            vg.step(vg.random_actions())
        except IllegalActionError:
            pass

    def masker() -> None:
        own_mask[0] = vg.legal_mask(own_mask[0]) if random.random() < 0.5 else vg.legal_mask()
        vg.legal_mask(np.zeros((16, vg.num_distinct_actions), dtype=bool))

    def reader() -> None:
        obs = vg.observations()
        players = vg.current_player
        game = vg.game(random.randrange(16))
        assert obs.shape == (16, *vg.observation_shape) and players.shape == (16,)
        assert game.current_player is not None

    errors = hammer([stepper, stepper, masker, reader], seconds=3)
    assert not errors, errors
    obs = vg.observations()
    for i in range(16):
        game = vg.game(i)
        assert np.array_equal(game.observation_tensor(game.current_player), obs[i])
    vg.close()


