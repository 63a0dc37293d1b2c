"""Kuzanasta observation tensor, returns, bounds and sample_hidden (KZ-8), against independent
Python code: an encoder of view(seat), brute-force counts of where unseen cards can be."""
from __future__ import annotations

import functools
import random
from collections import Counter

import numpy as np
import pytest
from kuzanasta_oracle import deal_model
from kz_helpers import stacked

from cardcore import new_game
from cardcore.cards import RANKS, card_id, card_str
from cardcore.games.kuzanasta._state import actions_per_turn, deal_plan, max_deal_total
from cardcore.games.kuzanasta._sets import kz_descriptor_id

from invariants import random_steps

PHASES = ("draw", "god_draw", "discard", "declare", "over")
DEAL_ENDS = (None, "went_out", "no_draw", "max_turns")
SEATS, PILES, DECK = 4, 2, 93
CONFIGS = [{"players": 2}, {"players": 3, "ante": 2},
           {"players": 4}, {"players": 4, "pile_pairing": "adjacent", "reshuffle": True},
           {"players": 2, "going_out": "optional"}, {"players": 3, "sets": "three_and_four"},
           {"players": 2, "sets": "three_and_four", "going_out": "optional"},
           {"players": 4, "god_draw": "position"}]


def descriptor(label: str) -> int:
    """A set label such as ``7-7-W`` back to its descriptor (rank, size, wild cards)."""
    words = label.split("-")
    naturals = [w for w in words if w != "W"]
    return kz_descriptor_id(RANKS.index(naturals[0]), len(words), len(words) - len(naturals))


# card_id memoized: the same ids (a name's id never changes), without parsing each card's name
# again at every encoding (parsing was about half of an encoding's time).
_card_id = functools.lru_cache(maxsize=None)(card_id)


def encode_view(game, seat: int) -> np.ndarray:
    """The tensor written from ``view(seat)`` alone, by the layout in games/kuzanasta.md."""
    view = game.view(seat)
    pieces = {name: (offset, size) for name, offset, size in game.observation_pieces}
    out = np.zeros(game.observation_shape, dtype=np.float32)

    def put(name, index, value=1.0):
        offset, size = pieces[name]
        assert 0 <= index < size, (name, index)
        out[offset + index] += value

    def rank_index(rank):
        return len(RANKS) if rank is None else RANKS.index(rank)

    put("observer", view["player"])
    if view["current_player"] is not None:
        put("current_player", view["current_player"])
    put("phase", PHASES.index(view["phase"]))
    for card in view["hand"]:
        put("hand", _card_id(card))
    for key in ("hand_sizes", "scores", "chips"):
        for p, value in enumerate(view[key]):
            put(key, p, value)
    put("wild_rank", rank_index(view["wild_rank"]))
    put("turn_up", _card_id(view["turn_up"]))
    for k, pile in enumerate(view["discards"]):
        for i, card in enumerate(pile):
            put("discard_counts", k * 53 + _card_id(card))
            put("discard_order", k * DECK + i, _card_id(card) + 1)
        if pile:
            put("discard_tops", k * 53 + _card_id(pile[-1]))
    put("piles_in_play", 0, len(view["stock_sizes"]))
    put("my_pile", view["my_pile"])
    for p, pile in enumerate(view["pile_of"]):
        put("pile_of", p * PILES + pile)
    for k, size in enumerate(view["stock_sizes"]):
        put("stock_sizes", k, size)
    put("dealer", view["dealer"])
    put("first_player", view["first_player"])
    put("deal", 0, view["deal"])
    put("turns_in_deal", 0, view["turns_in_deal"])
    put("god_holder", SEATS if view["god_holder"] is None else view["god_holder"])
    put("pot", 0, view["pot"])
    best = view["best_sets"]
    if best is not None:
        put("best_value", 0, best["value"])
        for label in best["sets"]:
            put("best_sets", descriptor(label))
    last = view["last_deal"]
    put("last_end", DEAL_ENDS.index(None if last is None else last["end"]))
    if last is not None:
        put("last_wild_rank", rank_index(last["wild_rank"]))
    if last is not None and last["end"] == "went_out":
        put("last_winner", last["winner"])
        for i, s in enumerate(last["sets"]):
            put("last_sets", descriptor(s["set"]))
            put("last_set_values", i, s["value"])
        for card in last["hand"]:
            put("last_hand", _card_id(card))
        for key in ("hand_points", "total", "pot"):
            put("last_" + key, 0, last[key])
        put("last_turn_up_doubled", 0, float(last["turn_up_doubled"]))
        put("last_god_doubled", 0, float(last["god_doubled"]))
    return out


@pytest.mark.parametrize("config", CONFIGS)
def test_kz_8_observation_tensor_is_an_encoding_of_the_view(config):
    for seed in range(3):
        game = new_game("kuzanasta", seed=seed, max_turns=60, deals=2, **config)
        rng = random.Random(seed)
        steps = 0
        for _ in random_steps(game, rng):
            steps += 1
            if steps % 3 == 0 or game.is_over:
                for seat in range(game.num_players):
                    assert np.array_equal(game.observation_tensor(seat), encode_view(game, seat))
        assert game.view(0)["last_deal"] is not None     # the last-deal pieces were exercised


def test_kz_8_observation_pieces_are_documented_in_the_rulebook():
    from pathlib import Path
    text = (Path(__file__).resolve().parents[3] / "games" / "kuzanasta.md").read_text()
    section = text.split("## Observation", 1)[1].split("\n## ", 1)[0]
    game = new_game("kuzanasta", seed=0)
    for name, offset, size in game.observation_pieces:
        assert f"`{name}`" in section and f"| {offset} | {size} |" in section, name
    assert f"{game.observation_shape[0]} floats" in section


HAND0 = ["7C", "7S", "QC", "QS", "2C", "3D", "9H"]
HAND1 = ["8C", "8S", "8D", "KC", "4H", "6S", "10D"]


def test_kz_8_tensor_is_the_same_when_only_hidden_cards_differ():
    # Seat 0 sees its hand, the turn-up and the discard turn-up; the other hand and the
    # stock differ between the two deals, and stay hidden through a few turns.
    a = stacked(2, 1, hands={0: HAND0, 1: HAND1}, stocks=[["9C", "5H", "JD"]], discard_tops=["4S"])
    other = list(HAND1)
    other[0] = "JH"
    b = stacked(2, 1, hands={0: HAND0, 1: other}, stocks=[["9C", "5H", "8C"]], discard_tops=["4S"])
    for action in ["draw_stock", "discard 2C", "end_turn", "draw_stock", "discard 4H", "end_turn"]:
        assert np.array_equal(a.observation_tensor(0), b.observation_tensor(0))
        a.apply(action)
        b.apply(action)
    assert np.array_equal(a.observation_tensor(0), b.observation_tensor(0))
    assert not np.array_equal(a.observation_tensor(1), b.observation_tensor(1))


def test_kz_8_tensor_differs_when_a_visible_card_differs():
    a = stacked(2, 1, hands={0: HAND0, 1: HAND1}, discard_tops=["4S"])
    b = stacked(2, 1, hands={0: HAND0, 1: HAND1}, discard_tops=["4H"])       # seen by all
    for seat in (0, 1):
        assert not np.array_equal(a.observation_tensor(seat), b.observation_tensor(seat))
    c = stacked(2, 1, hands={0: HAND0[:-1] + ["9D"], 1: HAND1}, discard_tops=["4S"])
    assert not np.array_equal(a.observation_tensor(0), c.observation_tensor(0))
    assert np.array_equal(a.observation_tensor(1), c.observation_tensor(1))   # seat 1 sees neither


# ---------------------------------------------------------------- returns and bounds
@pytest.mark.parametrize("config", CONFIGS)
def test_kz_7_5_returns_are_the_scores_at_the_end_and_zero_before(config):
    low, high = new_game("kuzanasta", deals=2, **config).utility_range
    for seed in range(4):
        game = new_game("kuzanasta", seed=seed, deals=2, max_turns=200, **config)
        for _ in random_steps(game, random.Random(seed)):
            if not game.is_over:
                assert game.returns() == [0.0] * game.num_players
        assert game.returns() == [float(s) for s in game.scores]
        assert all(low <= r <= high for r in game.returns())
        assert game.winners == [p for p, s in enumerate(game.scores) if s == max(game.scores)]


def test_kz_7_4_utility_range_bounds_one_deal():
    # Two natural face-card triples (KZ-5.3), three other hands of seven face-valued cards,
    # doubled for a joker turn-up (KZ-7.2), and the total doubled by the joker (KZ-7.3).
    assert max_deal_total(4) == (2 * 20000 + 2 * 3 * 7 * 50) * 2
    game = new_game("kuzanasta", players=3, deals=5)
    assert game.utility_range == (0.0, 5.0 * max_deal_total(3))
    game = new_game("kuzanasta", players=2, target=1000)
    assert game.utility_range == (0.0, 999.0 + max_deal_total(2))


def test_kz_3_5_a_deal_has_at_most_four_actions_per_turn():
    from cardcore.games.kuzanasta._state import MAX_VOID_DEALS
    game = new_game("kuzanasta", players=4, seed=3, max_turns=12, going_out="optional")
    scored = 4 * (-(-50000 // 5500) - 1) + 1          # KZ-7.5 with the default target
    assert game.max_game_length == (scored + MAX_VOID_DEALS) * actions_per_turn() * 12  # KZ-7.8
    per_deal = Counter()
    while game.state.round_index < 6:
        deal = game.state.round_index
        ids = game.legal_action_ids()
        game.apply(ids[0] if game.phase == "declare" else ids[-1])    # never goes out
        per_deal[deal] += 1
    assert max(per_deal.values()) <= actions_per_turn() * 12
    assert game.view(0)["last_deal"]["end"] == "max_turns"


# ---------------------------------------------------------------- sample_hidden
def test_kz_8_sample_hidden_keeps_every_known_place():
    # Seat 1 takes the discard turn-up 4S face up: every sampled world for seat 0 keeps it in
    # seat 1's hand, keeps seat 0's hand, the discards, and the turn-up's place in the stock.
    g = stacked(2, 1, hands={0: HAND0, 1: HAND1}, discard_tops=["4S"], turn_up="9D")
    g.apply("draw_stock")
    g.apply("discard 2C")
    g.apply("end_turn")
    g.apply("draw_discard")                       # seat 1 takes 2C, face up
    s = g.state
    turn_up_at = deal_model(range(93), 2, 0)["stocks"][0].index(0) - 1     # one card drawn
    assert s.stock(0)[turn_up_at] == card_id("9D")
    seen = set()
    for seed in range(40):
        world = g.sample_hidden(0, seed)
        w = world.state
        assert world.view(0) == g.view(0)
        assert card_id("2C") in w.hand(1) and w.known_cards(1) == [card_id("2C")]
        assert w.hand(0) == s.hand(0) and w.discards() == s.discards()
        assert w.stock(0)[turn_up_at] == card_id("9D")
        assert world.all_cards() == g.all_cards()
        seen.add(tuple(w.hand(1)))
    assert len(seen) > 30                         # the rest of seat 1's hand is redealt


def test_kz_3_4_a_recycled_discard_pile_stays_known_in_order():
    """Turned over without a shuffle, the discard pile's order is public: sampled worlds keep
    the whole stock as it is, until a God draw takes an unseen card from it."""
    checked, seed = 0, 0
    while checked < 25:
        game = new_game("kuzanasta", players=2, seed=seed, deals=3)
        rng = random.Random(seed)
        recycled = False
        while not game.is_over and checked < 25:
            before = game.state
            ids = game.legal_action_ids()
            action = ids[rng.randrange(len(ids))]
            label = game.action_from_id(action).label
            game.apply(action)
            after = game.state
            if after.round_index != before.round_index or label.startswith("god_draw"):
                recycled = False
            elif after.stock_sizes()[0] > before.stock_sizes()[0]:
                recycled = True                   # KZ-3.4: turned over, in a public order
            if recycled and not game.is_over:
                world = game.sample_hidden(1 - game.current_player, checked)
                assert world.state.stock(0) == after.stock(0)
                checked += 1
        seed += 1
    assert seed < 30


def test_kz_6_2_sample_hidden_keeps_what_the_god_look_shows():
    g = stacked(2, 1, hands={0: ["JK", "7C", "7S", "QC", "QS", "2C", "3D"], 1: HAND1},
                stocks=[["4H", "10S", "QD", "10S"]])
    g.apply("god_look")
    shown = sorted(g.legal_action_ids())
    worlds = [g.sample_hidden(0, seed) for seed in range(30)]
    for world in worlds:
        assert sorted(world.legal_action_ids()) == shown
        assert world.view(0) == g.view(0)
        assert world.all_cards() == g.all_cards()
    assert len({tuple(w.state.stock(0)) for w in worlds}) > 20
    assert len({tuple(w.state.hand(1)) for w in worlds}) > 20     # seat 1 is redealt too
    # After the God draw, for the rest of the turn, the stock still holds only cards the look
    # showed, and all of them but (perhaps) the one taken; the first unseen draw ends that.
    g.apply("god_draw 10S")
    shown_ids = {i - 3 for i in shown}
    for seed in range(30):
        world = g.sample_hidden(0, seed)
        stock = set(world.state.stock(0))
        assert shown_ids - {card_id("10S")} <= stock <= shown_ids
        assert world.view(0) == g.view(0)
    g.apply("discard 2C")
    g.apply("end_turn")
    g.apply("draw_stock")                          # seat 1 takes a card seat 0 does not see
    worlds = [g.sample_hidden(0, seed) for seed in range(60)]
    assert any(not set(w.state.stock(0)) <= shown_ids for w in worlds)


def test_kz_8_sample_hidden_is_uniform_over_the_unseen_places():
    """Where one unseen card (the only K of hearts) lands, over many sampled worlds, against
    the number of places hidden from seat 0 in each zone: chi-square with 3 degrees of
    freedom, refused beyond the 0.1 % point (16.27)."""
    g = stacked(3, 2, hands={0: ["2C", "3D", "4H", "5S", "6C", "7D", "8H"]}, turn_up="9S")
    s = g.state
    kh = card_id("KH")
    assert kh not in s.hand(0) and all(kh not in pile for pile in s.discards())
    expected = {"hand:1": 7, "hand:2": 7, "stock": len(s.stock(0)) - 1, "set_aside": len(s.dead())}
    total = sum(expected.values())
    turn_up_at = deal_model(range(93), 3, 0)["stocks"][0].index(0)   # KZ-2.3: a known place
    assert s.stock(0)[turn_up_at] == card_id("9S")
    observed = Counter()
    n = 6000
    for seed in range(n):
        w = g.sample_hidden(0, seed).state
        assert w.stock(0)[turn_up_at] == card_id("9S")
        if kh in w.hand(1):
            observed["hand:1"] += 1
        elif kh in w.hand(2):
            observed["hand:2"] += 1
        elif kh in w.stock(0):
            observed["stock"] += 1
        else:
            assert kh in w.dead()
            observed["set_aside"] += 1
    chi2 = sum((observed[z] - n * k / total) ** 2 / (n * k / total) for z, k in expected.items())
    assert chi2 < 16.27, (observed, expected)


def test_kz_8_sample_hidden_never_moves_the_seats_own_cards():
    for seed in range(3):
        game = new_game("kuzanasta", players=4, seed=seed, max_turns=80, deals=1)
        rng = random.Random(seed)
        for step, _ in enumerate(random_steps(game, rng)):
            if game.is_over or step % 5:
                continue
            seat = rng.randrange(4)
            world = game.sample_hidden(seat, step)
            assert world.view(seat) == game.view(seat)
            assert world.state.hand(seat) == game.state.hand(seat)
            for p in range(4):
                known = Counter(game.state.known_cards(p))
                assert not known - Counter(world.state.hand(p))
            if step > 150:
                break


def god_look_law(pool: Counter, shown: set, known: set, m: int) -> dict:
    """Exact law of how many copies of each id the stocks' m unknown places hold, when every
    labelled choice of m pool cards that shows exactly ``shown`` (with the known places'
    ids ``known``) is equally likely: generating polynomials with exact integers."""
    from math import comb

    def factor(c):
        if c not in shown:
            return [1]
        low = 0 if c in known else 1
        return [comb(pool[c], k) if k >= low else 0 for k in range(pool[c] + 1)]

    def times(a, b):
        out = [0] * (len(a) + len(b) - 1)
        for i, x in enumerate(a):
            for j, y in enumerate(b):
                out[i + j] += x * y
        return out

    ids = sorted(pool)
    law = {}
    for c in ids:
        rest = [1]
        for d in ids:
            if d != c:
                rest = times(rest, factor(d))
        f = factor(c)
        weights = {k: f[k] * (rest[m - k] if 0 <= m - k < len(rest) else 0) for k in range(len(f))}
        total = sum(weights.values())
        law[c] = {k: w / total for k, w in weights.items() if w}
    return law


def test_kz_6_2_god_look_worlds_follow_the_exact_law():
    """During the seat's God draw, how many copies of an id the stock's unknown places hold
    follows the exact count of consistent deals (chi-square, 0.1 % points)."""
    deck = new_game("kuzanasta", players=2).deck_for(2, {})
    random.Random(5).shuffle(deck)
    plan = deal_plan(2, {}, 1)
    mine, joker = plan.index("hand:0"), deck.index(card_id("JK"))
    deck[mine], deck[joker] = deck[joker], deck[mine]          # seat 0 holds the God card
    g = new_game("kuzanasta", players=2, seed=1, dealer=1, deck=[card_str(c) for c in deck])
    g.apply("god_look")
    s = g.state
    turn_up_at = deal_model(range(93), 2, 0)["stocks"][0].index(0)
    stock = s.stock(0)
    pool = Counter(new_game("kuzanasta", players=2).deck_for(2, {}))
    for c in s.hand(0) + s.discards()[0] + [stock[turn_up_at]]:
        pool[c] -= 1
    pool = +pool
    law = god_look_law(pool, set(stock), {stock[turn_up_at]}, len(stock) - 1)
    twice = [c for c in law if set(law[c]) == {1, 2}]            # shown, two unseen copies
    maybe = [c for c in law if set(law[c]) == {0, 1, 2} or set(law[c]) == {0, 1}]
    assert twice and maybe
    watched = [twice[0], maybe[0]]
    n = 3000
    counts = {c: Counter() for c in watched}
    for seed in range(n):
        world = g.sample_hidden(0, seed).state.stock(0)
        assert world[turn_up_at] == stock[turn_up_at]
        for c in watched:
            counts[c][world.count(c) - (stock[turn_up_at] == c)] += 1
    for c, critical in zip(watched, (10.83, 13.82)):          # 1 and 2 degrees of freedom
        expected = {k: n * p for k, p in law[c].items()}
        chi2 = sum((counts[c][k] - e) ** 2 / e for k, e in expected.items())
        assert set(counts[c]) <= set(expected) and chi2 < critical, (c, counts[c], expected)
