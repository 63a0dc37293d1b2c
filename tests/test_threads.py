"""Threads (issue 20; docs/api.md "Threads"): a Game and a VectorGame shared by threads.

A Game makes every move, with ``apply(player=)``'s seat check, and every read of several
steps (``view``, ``legal_actions``, saves, ...) one step under its per-game guard; a read that
is one call of the core (``observation_tensor``, ``returns``, ``legal_action_mask``) holds the
GIL throughout. A VectorGame serialises its public methods. Both are
hammered here from several threads with ``faulthandler`` on until the threads did what the
test counts (a bounded time at most); anything a reader saw must be a position the game
really passed through.
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
pytestmark = pytest.mark.slow       # seconds of hammering per test; CI's sanitizer job runs them


def run_python(code: str, timeout: float = 240) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.run([sys.executable, "-X", "faulthandler", "-c", textwrap.dedent(code)],
                          capture_output=True, text=True, timeout=timeout, env=env,
                          check=False)


def hammer(workers: list, seconds: float = 0.0, until=None, most: float = 60.0,
           each: int = 0) -> list[BaseException]:
    """Run ``work(stop)`` of every worker on its own thread, switching threads often, for
    ``seconds``, and then on until ``until()`` holds (if given) and every worker has run at
    least ``each`` times (at most ``most`` seconds more): a test that counts what the threads
    did asks for it instead of trusting the machine's speed (a sanitized build on a loaded
    machine reads a few times a second), and stops as soon as it is done instead of going on
    reading a finished game. faulthandler dumps every thread's stack if they do not stop in
    time."""
    stop = threading.Event()
    errors: list[BaseException] = []
    calls = [0] * len(workers)              # each worker's runs (its own slot: no race)

    def run(i: int, work) -> None:
        try:
            while not stop.is_set():
                work()
                calls[i] += 1
        except BaseException as e:            # reported by the caller
            errors.append(e)
            stop.set()

    def done() -> bool:
        return (until is None or until()) and min(calls) >= each

    threads = [threading.Thread(target=run, args=(i, w), daemon=True)
               for i, w in enumerate(workers)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)
    faulthandler.dump_traceback_later(seconds + most + 60, exit=True, file=sys.__stderr__)
    try:
        for t in threads:
            t.start()
        stop.wait(seconds)
        deadline = time.monotonic() + most
        while not stop.is_set() and not done() and time.monotonic() < deadline:
            stop.wait(0.01)
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

    # 25 runs of each (thousands of steps meanwhile), 3 s at most (a thread can wait long
    # for the lock: the steppers take it back to back)
    errors = hammer([stepper, stepper, masker, reader], each=25, most=3)
    assert not errors, errors
    obs = vg.observations()
    for i in range(16):
        game = vg.game(i)
        assert np.array_equal(game.observation_tensor(game.current_player), obs[i])
    vg.close()


# ------------------------------------------------------------------ Game: apply(player=)
def test_apply_with_player_checks_the_seat_inside_the_guard():
    """Two threads act for seat 0 (a double submit) while a third plays seat 1, each with
    ``apply(action, player=its seat)``. Seat 0's threads play the highest legal id, seat 1's
    the lowest; a move applied at seat 1's turn that is not seat 1's choice is a seat-0
    move that slipped past the seat check."""
    for seed in range(3):
        game = new_game("kuzanasta", players=2, seed=seed, going_out="optional")

        def act(seat: int, pick) -> None:
            if game.current_player == seat:
                ids = game.legal_action_ids()
                if ids:
                    try:
                        game.apply(pick(ids), player=seat)
                    except IllegalActionError:
                        pass                   # the turn or the position moved on

        def seat0() -> None:
            act(0, lambda ids: ids[-1])

        def seat1() -> None:
            act(1, lambda ids: ids[0])

        errors = hammer([seat0, seat0, seat1],
                        until=lambda: game.is_over or len(game.action_log()) >= 120)
        assert not errors, errors
        replay = new_game("kuzanasta", players=2, seed=seed, going_out="optional")
        checked = 0
        for action in game.action_log():
            if replay.current_player == 1:
                assert action == replay.legal_action_ids()[0], "a seat-0 move at seat 1's turn"
                checked += 1
            replay.apply(action)
        assert checked > 20


# ------------------------------------------------------------------ Game: reads
@pytest.mark.parametrize("config", all_configs(), ids=config_id)
def test_reads_are_snapshots_of_positions_the_game_passed_through(config):
    """While one thread plays, others read ``view``, ``observation_tensor``, ``returns``,
    ``legal_actions``, ``legal_action_mask`` and ``events``: each answer is that of one
    position of the game."""
    name, kwargs = config
    game = new_game(name, seed=11, **kwargs)
    seat_of = random.Random(1)
    seen_views: list[tuple[int, str]] = []
    seen_tensors: list[tuple[int, bytes]] = []
    seen_legal: list[tuple[int, ...]] = []
    seen_returns: list[tuple[float, ...]] = []
    seen_events: list[tuple[int, list]] = []
    chooser = random.Random(2)

    def player() -> None:
        if game.is_over:
            time.sleep(0.001)
            return
        ids = game.legal_action_ids()
        game.apply(ids[chooser.randrange(len(ids))])

    def reader() -> None:
        seat = seat_of.randrange(game.num_players)
        seen_views.append((seat, json.dumps(game.view(seat), sort_keys=True)))
        seen_tensors.append((seat, game.observation_tensor(seat).tobytes()))
        seen_legal.append(tuple(a.id for a in game.legal_actions()))
        seen_legal.append(tuple(np.flatnonzero(game.legal_action_mask())))
        seen_returns.append(tuple(game.returns()))

    def narrator() -> None:
        seat = seat_of.randrange(game.num_players)
        seen_events.append((seat, game.events(seat)))

    # The whole match played under the readers (then reads of a finished game add nothing).
    errors = hammer([player, reader, narrator],
                    until=lambda: game.is_over and len(seen_views) > 10 and len(seen_events) > 0)
    assert not errors, errors
    # Every position of the game, replayed: what a reader saw must be one of them.
    replay = new_game(name, seed=11, **kwargs)
    views: set[tuple[int, str]] = set()
    tensors: set[tuple[int, bytes]] = set()
    legal: set[tuple[int, ...]] = set()

    def record() -> None:
        for seat in range(replay.num_players):
            views.add((seat, json.dumps(replay.view(seat), sort_keys=True)))
            tensors.add((seat, replay.observation_tensor(seat).tobytes()))
        legal.add(tuple(replay.legal_action_ids()))

    record()
    for action in game.action_log():
        replay.apply(action)
        record()
    assert all(v in views for v in seen_views), "a view mixing two positions"
    assert all(t in tensors for t in seen_tensors), "a tensor mixing two positions"
    assert all(ids in legal for ids in seen_legal)
    final = tuple(game.returns())
    zeros = tuple([0.0] * game.num_players)
    assert all(r in (zeros, final) for r in seen_returns)
    for seat in range(game.num_players):
        full = game.events(seat)
        for s, events in seen_events:
            if s == seat:
                assert events == full[:len(events)]
    assert len(seen_views) > 10 and seen_events


# ------------------------------------------------------------------ the stress test
@pytest.mark.parametrize("name", GAMES)
def test_every_public_method_of_one_game_from_four_threads(name):
    """Four threads call every public method of one Game at random (moves with and without
    ``player``, notations, reads, saves, clones, worlds, events) until the match is over and
    each thread has run 25 times (2 s at most)."""
    game = new_game(name, seed=21)
    key = b"k"
    saves: list[str] = []

    def mover() -> None:
        rng = random.Random()
        if game.is_over:
            time.sleep(0.001)
            return
        actions = game.legal_actions()
        if not actions:
            return
        action = rng.choice(actions)
        how = rng.randrange(4)
        try:
            if how == 0:
                game.apply(action.id)
            elif how == 1:
                game.apply(action, player=action.player)
            elif how == 2:
                game.apply(str(action), player=rng.randrange(game.num_players))
            else:
                game.apply(np.int64(action.id), player=np.int32(action.player))
        except IllegalActionError:
            pass

    def reader() -> None:
        rng = random.Random()
        seat = rng.randrange(game.num_players)
        game.view(seat)
        game.observation_tensor(seat, np.empty(game.observation_shape, np.float32))
        game.legal_action_mask()
        game.legal_action_ids()
        game.returns()
        game.scores, game.winners, game.phase, game.current_player, game.is_over
        game.events(rng.choice([None, seat]), since=rng.randrange(5))
        game.action_log(rng.randrange(5))
        if rng.random() < 0.1:
            game.history
        repr(game)

    def copier() -> None:
        rng = random.Random()
        if rng.random() < 0.3:
            saves.append(game.to_json(key=key))
        other = game.clone()
        assert other.action_log() == other.action_log()
        if not game.is_over:
            seat = rng.randrange(game.num_players)
            world = game.sample_hidden(seat, rng.randrange(1 << 30))
            world.view(seat)
            world.events(seat)
        game.state.legal_ids()

    # The whole match, and each thread 25 times at least, 2 s at most (most games end in a
    # tenth of a second: a fixed 2 s went mostly to reading a finished game).
    errors = hammer([mover, mover, reader, copier], until=lambda: game.is_over, each=25,
                    most=2)
    assert not errors, errors
    again = load_game(game.to_json())
    assert snapshot(again) == snapshot(game)
    for save in saves[:: max(1, len(saves) // 5)]:
        load_game(save, key=key)
