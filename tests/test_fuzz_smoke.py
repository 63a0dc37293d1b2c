"""Fuzz smoke (issue 20): a few thousand seeded random inputs at every entry point that
reaches C (moves, notations, buffers, batches, saves, worlds), for every game. Each is
answered or refused with a cardcore error and leaves the game unchanged. Short enough for
the quick loop; CI runs it again on the AddressSanitizer build (.ci/run), where any memory
error in C is fatal."""
from __future__ import annotations

import json
import random

import numpy as np
import pytest

import cardcore
from cardcore import IllegalActionError, VectorGame, load_game, new_game
from cardcore.game import Action

from invariants import all_configs, composition, random_steps, snapshot

GAMES = cardcore.available_games()
DTYPES = [np.float32, ">f4", np.float64, np.int8, np.uint8, np.bool_, np.int32, ">i4",
          np.int64, ">i8", np.uint64, np.float16]


def started(name: str, seed: int):
    config = next(kwargs for game, kwargs in all_configs() if game == name)
    game = new_game(name, seed=seed, **config)
    for _, _ in zip(range(seed % 40), random_steps(game, random.Random(seed))):
        pass
    return game


def random_value(rng: random.Random):
    kind = rng.randrange(9)
    if kind == 0:
        return rng.randrange(-2**40, 2**40)
    if kind == 1:
        return rng.randrange(-3, 4000)
    if kind == 2:
        return "".join(rng.choice("AKQJ1023456789CSDHjk_ :=-W ") for _ in range(rng.randrange(12)))
    if kind == 3:
        return rng.choice([None, True, False, 1.5, float("nan"), b"\x00", [], {}, ()])
    if kind == 4:
        return np.int64(rng.randrange(-5, 3000))
    if kind == 5:
        return rng.choice(["draw_stock", "discard", "play", "take", "go_out", "meld", "pass"])
    if kind == 6:
        return rng.randrange(2**63, 2**65)
    if kind == 7:
        return np.uint8(rng.randrange(256))
    return str(rng.random())


def random_array(rng: random.Random, size: int):
    """A random buffer near ``size`` items: dtypes, byte orders, shapes and layouts."""
    dtype = rng.choice(DTYPES)
    n = size + rng.choice([0, 0, 0, -1, 1, size])
    shape = rng.choice([(n,), (1, n), (n, 1), (max(n, 1) // 2, 2)])
    array = np.zeros(shape if np.prod(shape) >= 0 else (0,), dtype=dtype)
    if rng.random() < 0.2 and array.ndim == 2:
        array = array.T
    if rng.random() < 0.1:
        array = array[::2]
    if rng.random() < 0.1:
        array.flags.writeable = False
    return array


def written(game, seat, out) -> None:
    """observation_tensor into ``out``: refused, or ``out`` reads as the true tensor."""
    seat = 0 if seat is None else seat
    game.observation_tensor(seat, out)
    assert np.array_equal(out, game.observation_tensor(seat)), out.dtype


@pytest.mark.parametrize("name", GAMES)
def test_random_moves_seats_and_buffers_are_answered_or_refused(name):
    rng = random.Random(7)
    for round_ in range(6):
        game = started(name, round_)
        size = game.observation_shape[0]
        for _ in range(250):
            before = snapshot(game) if rng.random() < 0.05 else None
            action, seat = random_value(rng), random_value(rng) if rng.random() < 0.5 else None
            try:
                game.apply(action, player=seat)
                continue                            # a legal move for the right seat
            except (IllegalActionError, ValueError):
                pass
            for call in (lambda: game.view(seat), lambda: game.events(seat, since=rng.randrange(5)),
                         lambda: written(game, seat, random_array(rng, size)),
                         lambda: game.action_from_id(action),
                         lambda: game.sample_hidden(seat, action),
                         lambda: game.hidden_deck_positions(seat),
                         lambda: Action(action, seat, "x", (), str(action))):
                try:
                    call()
                except (IllegalActionError, ValueError):
                    pass
            if before is not None:
                assert snapshot(game) == before


@pytest.mark.parametrize("name", GAMES)
def test_random_batches_are_answered_or_refused(name):
    rng = random.Random(11)
    vg = VectorGame(name, 5, seed=2, threads=rng.choice([1, 2]))
    width = vg.num_distinct_actions
    for _ in range(600):
        records = [vg._core.game_record(i) for i in range(5)]
        kind = rng.randrange(4)
        try:
            if kind == 0:
                vg.step(random_array(rng, 5).astype(rng.choice(DTYPES), copy=False)
                        if rng.random() < 0.5 else
                        np.array([rng.randrange(-2, width + 2) for _ in range(5)]))
            elif kind == 1:
                out = random_array(rng, 5 * vg.observation_shape[0])
                vg.observations(out)
                assert np.array_equal(out, vg.observations()), out.dtype
            elif kind == 2:
                vg.legal_mask(random_array(rng, 5 * width))
            else:
                vg.game(random_value(rng))
            continue
        except (IllegalActionError, ValueError, IndexError):
            pass
        assert [vg._core.game_record(i) for i in range(5)] == records
        vg.step(vg.random_actions())                 # and it plays on
    vg.close()


@pytest.mark.parametrize("name", GAMES)
def test_mutated_saves_load_or_are_refused(name):
    rng = random.Random(13)
    game = started(name, 3)
    text = game.to_json()
    data = json.loads(text)
    for _ in range(200):
        kind = rng.randrange(4)
        if kind == 0:
            k = rng.randrange(len(text))
            mutated: object = text[:k] + chr(rng.randrange(32, 127)) + text[k + 1:]
        elif kind == 1:
            mutated = text[:rng.randrange(len(text))]
        elif kind == 2:
            mutated = dict(data, **{rng.choice(list(data)): random_value(rng)})
        else:
            mutated = dict(data, format=1, options={**data["options"],
                                                    rng.choice(list(data["options"]) or ["x"]):
                                                    random_value(rng)})
            mutated.pop("digest", None)
        try:
            loaded = load_game(mutated)
        except ValueError:
            continue
        assert loaded.all_cards() == composition(loaded)     # a game the rules reach
