"""Property tests (hypothesis) of the protocol's invariants, for every game and every one of
its conformance configurations: card conservation, the JSON round trip, clone independence,
refused input changes nothing, the mask equals the ids, events/action_log slicing, returns
and length within their bounds, and the same game in another process."""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cardcore
from cardcore import IllegalActionError, VectorGame, load_game, new_game

from invariants import all_configs, composition, snapshot

SRC = str(Path(cardcore.__file__).resolve().parents[1])
CONFIGS = all_configs()
SETTINGS = settings(max_examples=40, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

configs = st.sampled_from(CONFIGS)
seeds = st.integers(0, 2**64 - 1)
choices = st.lists(st.integers(0, 2**32 - 1), max_size=80)


def play(config, seed: int, picks: list[int]):
    """A game of ``config`` with every pick choosing among the legal ids (modulo)."""
    name, kwargs = config
    game = new_game(name, seed=seed, **kwargs)
    for pick in picks:
        ids = game.legal_action_ids()
        if not ids:
            break
        game.apply(ids[pick % len(ids)])
    return game


def digest(game) -> str:
    h = hashlib.sha256(game.to_json().encode())
    for seat in range(game.num_players):
        h.update(game.observation_tensor(seat).tobytes())
        h.update(json.dumps(game.view(seat), sort_keys=True).encode())
    return h.hexdigest()


@SETTINGS
@given(configs, seeds, choices)
def test_cards_are_conserved_and_the_mask_equals_the_ids(config, seed, picks):
    game = play(config, seed, picks)
    assert game.all_cards() == composition(game)
    ids = list(game.legal_action_ids())
    assert list(np.flatnonzero(game.legal_action_mask())) == ids
    assert [a.id for a in game.legal_actions()] == ids
    assert (ids == []) == game.is_over


@SETTINGS
@given(configs, seeds, choices, choices)
def test_the_json_round_trip_continues_identically(config, seed, picks, more):
    game = play(config, seed, picks)
    again = load_game(game.to_json())
    assert snapshot(again) == snapshot(game)
    for pick in more:
        ids = game.legal_action_ids()
        if not ids:
            break
        game.apply(ids[pick % len(ids)])
        again.apply(ids[pick % len(ids)])
    assert digest(again) == digest(game)


@SETTINGS
@given(configs, seeds, choices, choices)
def test_clones_are_independent(config, seed, picks, more):
    game = play(config, seed, picks)
    before = snapshot(game)
    twin = game.clone()
    for pick in more:
        ids = twin.legal_action_ids()
        if not ids:
            break
        twin.apply(ids[pick % len(ids)])
    assert snapshot(game) == before
    assert twin.action_log()[:len(game.action_log())] == game.action_log()


junk = st.one_of(
    st.integers(-2**70, 2**70), st.text(max_size=200), st.binary(max_size=20), st.none(),
    st.floats(allow_nan=True), st.booleans(), st.lists(st.integers(), max_size=3),
    st.integers(-5, 5).map(np.int64), st.sampled_from([np.float32(1), np.bool_(True)]))


@SETTINGS
@given(configs, seeds, choices, st.lists(st.tuples(junk, junk), min_size=1, max_size=8))
def test_refused_input_changes_nothing(config, seed, picks, attempts):
    game = play(config, seed, picks)
    before = snapshot(game)
    legal = set(game.legal_action_ids())
    for action, player in attempts:
        applies = (type(action) in (int, np.int64) and not isinstance(action, bool)
                   and int(action) in legal and player is None)
        if applies:
            continue
        try:
            game.apply(action, player=player)
        except (IllegalActionError, ValueError):
            assert snapshot(game) == before
        else:                         # only a legal id (or notation) for the right seat
            assert game.action_log()[-1] in legal
            return
        for call in (lambda: game.view(player), lambda: game.events(player, since=0),
                     lambda: game.observation_tensor(player), lambda: game.action_log(player),
                     lambda: game.sample_hidden(player, 1)):
            try:
                call()
            except ValueError:
                pass
        assert snapshot(game) == before


@SETTINGS
@given(configs, seeds, choices, st.integers(0, 400))
def test_events_and_the_action_log_slice_alike(config, seed, picks, since):
    game = play(config, seed, picks)
    log = game.action_log()
    assert game.action_log(since) == log[since:]
    for seat in [None, *range(game.num_players)]:
        events = game.events(seat)
        assert [e["n"] for e in events] == list(range(len(events)))
        assert game.events(seat, since=since) == events[since:]
        moves = [e for e in events if not e.get("auto")]
        assert len(moves) == len(log)


@settings(max_examples=12, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(configs, seeds)
def test_returns_and_length_within_their_bounds(config, seed):
    name, kwargs = config
    game = new_game(name, seed=seed, **kwargs)
    state = game.state
    actions = state.run_random(seed ^ 0x5EED)
    low, high = game.utility_range
    assert state.is_over and 0 < actions <= game.max_game_length
    assert all(low <= r <= high for r in state.returns())
    assert game.returns() == [0.0] * game.num_players        # the real game has not moved


@pytest.mark.slow                   # a subprocess
@settings(max_examples=3, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.lists(st.tuples(st.integers(0, len(CONFIGS) - 1), seeds, choices),
                min_size=4, max_size=8))
def test_the_same_game_in_another_process(cases):
    """Seeded games are the same in a fresh interpreter (no state leaks between games or
    depends on the process): saves, tensors and views hash alike."""
    here = [digest(play(CONFIGS[i], seed, picks)) for i, seed, picks in cases]
    code = ("import json, sys\n"
            "sys.path.insert(0, sys.argv[1])\n"
            "from test_properties import CONFIGS, digest, play\n"
            "cases = json.loads(sys.stdin.read())\n"
            "print(json.dumps([digest(play(CONFIGS[i], s, p)) for i, s, p in cases]))\n")
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", ""),
           "PYTHONHASHSEED": "123"}
    out = subprocess.run([sys.executable, "-c", code, str(Path(__file__).parent)],
                         input=json.dumps(cases), capture_output=True, text=True, env=env,
                         timeout=300, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    assert json.loads(out.stdout) == here


@settings(max_examples=8, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(configs, st.integers(0, 2**32), st.integers(1, 6), st.integers(1, 3),
       st.lists(st.integers(0, 2**32 - 1), min_size=1, max_size=40))
def test_vector_games_are_the_games_of_their_seeds(config, seed, n, threads, picks):
    name, kwargs = config
    vg = VectorGame(name, n, seed=seed, threads=threads, **kwargs)
    mask = vg.legal_mask()
    for pick in picks:
        actions = np.array([np.flatnonzero(row)[pick % row.sum()] for row in mask])
        vg.step(actions)
        mask = vg.legal_mask(mask)
    obs = vg.observations()
    for i in range(n):
        game = vg.game(i)
        assert np.array_equal(game.legal_action_mask(), mask[i])
        assert np.array_equal(game.observation_tensor(game.current_player), obs[i])
    vg.close()
