"""Kings' Stakes observation tensor and sample_hidden, against independent Python code."""
from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest

from cardcore import new_game
from cardcore.cards import card_id

from invariants import random_steps

PHASES = ("play", "refill", "over")
SEATS = 6


def label_index(game) -> dict[str, int]:
    """Each action's label -> its id: the game's decode table, fixed for the whole game."""
    return {game.action_from_id(i).label: i for i in range(game.num_distinct_actions)}


def encode_view(game, seat: int, label_ids: dict[str, int] | None = None) -> np.ndarray:
    """The tensor written from ``view(seat)`` alone, by the layout in games/kings_stakes.md
    (``label_ids``: ``label_index(game)``, built once per game by a caller that encodes many
    views: building it is most of the cost of one encoding)."""
    view = game.view(seat)
    pieces = {name: (offset, size) for name, offset, size in game.observation_pieces}
    out = np.zeros(game.observation_shape, dtype=np.float32)
    if label_ids is None:
        label_ids = label_index(game)

    def put(name, index, value=1.0):
        offset, size = pieces[name]
        assert 0 <= index < size
        out[offset + index] += value

    def one_hot_or_none(name, seat_or_none):
        put(name, SEATS if seat_or_none is None else seat_or_none)

    put("observer", view["player"])
    if view["current_player"] is not None:
        put("current_player", view["current_player"])
    put("phase", PHASES.index(view["phase"]))
    for key in ("hand", "table", "discard"):
        for card in view[key]:
            put(key, card_id(card))
    for key in ("penalty_counts", "hand_sizes", "scores"):
        for p, value in enumerate(view[key]):
            put(key, p, value)
    put("stake", 0, view["stake"])
    put("direction", 0, view["direction"])
    put("stock_size", 0, view["stock_size"])
    one_hot_or_none("chip_holder", view["chip_holder"])
    put("round", 0, view["round"])
    put("rounds", 0, view["rounds"])
    put("round_first_player", view["round_first_player"])
    one_hot_or_none("out_player", view["out_player"])
    for p in view["final_turns_owed"]:
        put("final_turns_owed", p)
    last = view["last_play"]
    one_hot_or_none("last_play_player", None if last is None else last["player"])
    if last is not None:
        put("last_play_action", label_ids[last["action"]])
    put("teams", 0, 1.0 if view["teams"] else 0.0)
    return out


@pytest.mark.slow
@pytest.mark.parametrize("config", [{"players": 2}, {"players": 4, "teams": True},
                                    {"players": 5, "refill": "manual", "scoring": "cards"}])
def test_tensor_equals_an_independent_encoding_of_the_view(config):
    checked = 0
    for seed in range(5):
        game = new_game("kings_stakes", seed=seed, **config)
        labels = label_index(game)
        rng = random.Random(seed)
        while True:
            for seat in range(game.num_players):
                assert np.array_equal(game.observation_tensor(seat),
                                      encode_view(game, seat, labels))
                checked += 1
            if game.is_over:
                break
            next(random_steps(game, rng))
    assert checked > 1000


def test_sample_hidden_deals_an_unseen_card_uniformly():
    """Where one card that seat 0 has not seen lands: each hidden slot (the other hands and
    the stock) equally likely, by a chi-square test over 4,000 samples."""
    game = new_game("kings_stakes", players=4, seed=9)
    for _ in zip(range(6), random_steps(game, random.Random(9))):
        pass
    seat = 0
    state = game.state
    unseen = state.hand(1)[0]
    zones = {f"hand:{p}": len(state.hand(p)) for p in range(1, 4)} | {"stock": state.stock_size}
    assert sum(zones.values()) > 10
    landed: Counter[str] = Counter()
    samples = 4000
    for k in range(samples):
        world = game.sample_hidden(seat, k).state
        where = [z for z in zones if z != "stock" and unseen in world.hand(int(z[5:]))]
        landed[where[0] if where else "stock"] += 1
        assert unseen not in world.hand(seat)
    total = sum(zones.values())
    chi2 = sum((landed[z] - samples * n / total) ** 2 / (samples * n / total)
               for z, n in zones.items())
    # 3 degrees of freedom: P(chi2 > 16.27) = 0.001.
    assert chi2 < 16.27, (landed, zones)


def test_sample_hidden_keeps_the_seats_hand_and_every_public_pile():
    game = new_game("kings_stakes", players=3, seed=4)
    for _ in zip(range(15), random_steps(game, random.Random(4))):
        pass
    real = game.state
    for k in range(50):
        world = game.sample_hidden(2, k).state
        assert world.hand(2) == real.hand(2)
        assert world.table() == real.table() and world.discard() == real.discard()
        assert [world.penalty(p) for p in range(3)] == [real.penalty(p) for p in range(3)]
        assert world.hand_sizes() == real.hand_sizes() and world.stock_size == real.stock_size


def test_returns_are_minus_the_penalty_points():
    game = new_game("kings_stakes", players=4, teams=True, seed=2)
    for _ in random_steps(game, random.Random(2)):
        pass
    assert game.returns() == [-float(s) for s in game.scores]
    assert game.scores[0] == game.scores[2] and game.scores[1] == game.scores[3]
