"""VectorGame (api.md "Batched play"): the same games as Game objects, stepped together in C."""
from __future__ import annotations

import numpy as np
import pytest

import cardcore
from cardcore import ConfigError, IllegalActionError, new_game
from cardcore.vector import VectorGame, episode_seed

GAMES = cardcore.available_games()


def episode_game(vg: VectorGame, slot: int, episode: int):
    return new_game(vg.name, players=vg.num_players, seed=episode_seed(vg.seed, slot, episode),
                    **vg.options)


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("threads", [1, 2])
def test_trajectories_equal_those_of_games_with_the_same_seeds_and_actions(name, threads):
    n = 6
    vg = VectorGame(name, n, seed=5, threads=threads)
    episodes = [0] * n
    games = [episode_game(vg, i, 0) for i in range(n)]
    rng = np.random.default_rng(5)
    finished = 0
    steps = 0
    while finished < n + 2 and steps < 30_000:
        mask = vg.legal_mask()
        observations = vg.observations()
        players = vg.current_player
        for i, game in enumerate(games):
            assert players[i] == game.current_player
            assert np.array_equal(mask[i], game.legal_action_mask())
            assert np.array_equal(observations[i], game.observation_tensor(game.current_player))
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in mask])
        rewards, done = vg.step(actions)
        steps += 1
        for i, game in enumerate(games):
            game.apply(int(actions[i]))
            if done[i]:
                assert game.is_over
                assert np.allclose(rewards[i], game.returns())
                finished += 1
                episodes[i] += 1
                games[i] = episode_game(vg, i, episodes[i])
            else:
                assert not game.is_over and not rewards[i].any()
    assert finished >= n + 2, "every slot finished and restarted at least once"
    for i, game in enumerate(games):
        assert vg.game(i).to_json() == game.to_json()


@pytest.mark.parametrize("name", GAMES)
def test_an_illegal_id_names_the_game_and_applies_nothing(name):
    vg = VectorGame(name, 4, seed=1)
    before = [vg.game(i).to_json() for i in range(4)]
    mask = vg.legal_mask()
    actions = np.array([np.flatnonzero(row)[0] for row in mask])
    illegal = np.flatnonzero(~mask[2])
    actions[2] = illegal[0]
    with pytest.raises(IllegalActionError, match=r"^game 2: "):
        vg.step(actions)
    assert [vg.game(i).to_json() for i in range(4)] == before
    for bad in (np.array([0, 1]), np.zeros(4, dtype=np.float64), np.array([-1, 0, 0, 0]),
                np.array([10**9] * 4)):
        with pytest.raises(IllegalActionError):
            vg.step(bad)
    assert [vg.game(i).to_json() for i in range(4)] == before


def test_buffers_and_arguments_are_checked():
    vg = VectorGame("kings_stakes", 3, seed=0)
    out = np.empty((3, *vg.observation_shape), dtype=np.float32)
    assert vg.observations(out) is out
    with pytest.raises(ValueError):
        vg.observations(np.empty((2, *vg.observation_shape), dtype=np.float32))
    with pytest.raises(ValueError):
        vg.legal_mask(np.empty((3, vg.num_distinct_actions), dtype=np.int8))
    for bad in (0, -1, True, 2.0):
        with pytest.raises(ConfigError):
            VectorGame("kings_stakes", bad)
    with pytest.raises(ConfigError):
        VectorGame("kings_stakes", 2, threads=0)
    with pytest.raises(ConfigError):
        VectorGame("kings_stakes", 2, rounds=3)
    with pytest.raises(IndexError):
        vg.game(3)


def test_simulate_in_the_core_matches_games_played_one_by_one():
    from cardcore.simulation import chooser_seed, game_seed
    summary = cardcore.simulate("kings_stakes", 40, players=3, seed=9)
    actions = 0
    wins = [0, 0, 0]
    for i in range(40):
        game = new_game("kings_stakes", players=3, seed=game_seed(9, i))
        state = game.state
        actions += state.run_random(chooser_seed(9, i))
        for seat in state.winners():
            wins[seat] += 1
    assert summary["actions"] == actions and summary["wins"] == wins


def test_the_core_loop_refuses_an_unchecked_illegal_id():
    """The C entry point checks legality itself, so no caller can apply an illegal id."""
    vg = VectorGame("kings_stakes", 2, seed=3)
    before = [vg.game(i).to_json() for i in range(2)]
    mask = vg.legal_mask()
    actions = np.array([np.flatnonzero(row)[0] for row in mask], dtype=np.int64)
    actions[1] = np.flatnonzero(~mask[1])[0]
    rewards = np.zeros((2, vg.num_players), dtype=np.float32)
    done = np.zeros(2, dtype=np.uint8)
    with pytest.raises(IllegalActionError, match="game 1"):
        vg._core.apply(actions, rewards, done, 0, 2)
    assert [vg.game(i).to_json() for i in range(2)] == before


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("threads", [1, 2])
def test_a_mask_given_back_is_rewritten_to_the_same_values(name, threads):
    """legal_mask() returns a read-only array; given back, it is updated in place (wide rows
    sparsely) and equals each game's own mask every step, also when the VectorGame wrote a
    caller's array in between."""
    n = 5
    vg = VectorGame(name, n, seed=2, threads=threads)
    games = [episode_game(vg, i, 0) for i in range(n)]
    episodes = [0] * n
    out = vg.legal_mask()
    assert not out.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        out[1, :] = False
    mine = np.ones_like(out)
    for step in range(200):
        if step % 11 == 5:
            assert vg.legal_mask(mine) is mine         # a caller's array: written whole
        assert vg.legal_mask(out) is out
        for i, game in enumerate(games):
            assert np.array_equal(out[i], game.legal_action_mask())
        if step % 11 == 5:
            assert np.array_equal(mine, out)
        actions = vg.random_actions()
        _, done = vg.step(actions)
        for i in range(n):
            games[i].apply(int(actions[i]))
            if done[i]:
                episodes[i] += 1
                games[i] = episode_game(vg, i, episodes[i])


def test_a_read_only_mask_that_is_not_the_latest_is_refused():
    vg = VectorGame("kuzanasta", 3, seed=4)
    first = vg.legal_mask()
    second = vg.legal_mask()
    with pytest.raises(ValueError, match="read-only"):
        vg.legal_mask(first)
    assert vg.legal_mask(second) is second
    other = VectorGame("kuzanasta", 3, seed=5)
    with pytest.raises(ValueError, match="read-only"):
        other.legal_mask(second)                       # another VectorGame's own array


def test_a_writeable_array_is_written_whole():
    """Whatever the caller's array held (a view of a mask, set entries), it is rewritten."""
    vg = VectorGame("kuzanasta", 3, seed=4)
    expected = vg.legal_mask().copy()
    mine = np.ones_like(expected)
    assert np.array_equal(vg.legal_mask(mine), expected)
    mine[...] = True
    view = mine[:]
    assert np.array_equal(vg.legal_mask(view), expected)


@pytest.mark.parametrize("name", GAMES)
def test_an_id_legal_only_on_the_previous_step_is_refused(name):
    """The cached legal lists are rewritten each step: an id from the last list that is not
    in the new one is refused (and nothing applied)."""
    vg = VectorGame(name, 4, seed=6)
    previous = vg.legal_mask().copy()
    refused = 0
    for _ in range(150):
        actions = vg.random_actions()
        vg.step(actions)
        mask = vg.legal_mask()
        stale = np.flatnonzero(previous[0] & ~mask[0])
        if len(stale):
            before = vg.game(0).to_json()
            wrong = actions.copy()
            wrong[0] = stale[-1]
            with pytest.raises(IllegalActionError, match=r"^game 0: "):
                vg.step(wrong)
            assert vg.game(0).to_json() == before
            assert np.array_equal(vg.legal_mask(), mask)
            refused += 1
        previous = mask
    assert refused > 10


def test_a_held_card_the_stake_forbids_is_refused():
    """KS-4.3: Kings' Stakes writes every held card as a candidate and keeps only those the
    stake allows, so the ids past its count are scratch. A short list's padding is written
    after the call: a forbidden card (the scratch) is still refused, and nothing applied."""
    vg = VectorGame("kings_stakes", 8, players=2, seed=3)
    refused = 0
    for _ in range(400):
        mask = vg.legal_mask()
        for i in range(8):
            game = vg.game(i)
            if game.phase != "play":
                continue
            hand = game.state.hand(game.current_player)
            barred = [c for c in hand if c < 52 and not mask[i][c]]   # natural singles: id = card
            if not barred:
                continue
            before = game.to_json()
            wrong = vg.random_actions()
            wrong[i] = barred[0]
            with pytest.raises(IllegalActionError, match=rf"^game {i}: "):
                vg.step(wrong)
            assert vg.game(i).to_json() == before
            refused += 1
        vg.step(vg.random_actions())
    assert refused > 20
