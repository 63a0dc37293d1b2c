"""The core (_fast): card ids, masks, multisets, the generator and the shuffle."""
from __future__ import annotations

import pickle
import random
from collections import Counter

import numpy as np
import pytest

from cardcore import Card, new_game, parse_card
from cardcore._fast import (
    CardMultiset, Random, build_deck, cards_of, mask_of, rank_mask_of, rank_of, seed_to_u64,
    suit_mask_of, suit_of,
)
from cardcore.cards import JOKER, card_id, card_str, sort_key

from reference_rng import ReferencePCG32


# ---------------------------------------------------------------- card ids and notation
def test_card_id_layout_is_suit_major_ace_low():
    assert card_id("AC") == 0 and card_id("KC") == 12 and card_id("AS") == 13
    assert card_id("10H") == 3 * 13 + 9 and card_id("KH") == 51 and card_id("JK") == JOKER == 52
    assert [card_str(i) for i in (0, 9, 10, 11, 25, 38, 52)] == ["AC", "10C", "JC", "QC", "KS", "KD", "JK"]
    assert rank_of(card_id("7D")) == 6 and suit_of(card_id("7D")) == 2 and rank_of(52) == -1


@pytest.mark.parametrize("text,canonical", [
    ("10H", "10H"), ("th", "10H"), ("T♥", "10H"), ("q♦", "QD"), (" as ", "AS"), ("jk", "JK"),
    ("Joker", "JK"), ("9♣", "9C"), ("k♠", "KS")])
def test_parse_accepts_variants_and_prints_canonical(text, canonical):
    assert str(parse_card(text)) == canonical


@pytest.mark.parametrize("bad", ["", "1H", "11S", "AX", "H", "10", "JKK", None, 5])
def test_parse_rejects_non_cards(bad):
    with pytest.raises(ValueError):
        parse_card(bad)


def test_card_object():
    c = Card("QD")
    assert (c.rank, c.suit, c.is_red, c.is_joker, c.id) == ("Q", "D", True, False, 37)
    assert Card(37) == c and hash(Card(37)) == hash(c) and repr(c) == "Card('QD')"
    assert Card("JK").rank is None and sorted([Card("KC"), Card("AH"), Card("JK")])[0] == Card("AH")
    for bad in (-1, 53, True):
        with pytest.raises(ValueError):
            Card(bad)
    assert sorted(range(53), key=sort_key)[:4] == [0, 13, 26, 39]


# ---------------------------------------------------------------- masks and multisets
def test_masks_use_one_bit_per_id():
    assert mask_of([0, 13, 52]) == (1 | 1 << 13 | 1 << 52)
    assert cards_of(mask_of([5, 7, 52])) == [5, 7, 52]
    assert rank_mask_of(0) == (1 | 1 << 13 | 1 << 26 | 1 << 39)
    assert suit_mask_of(3) == 0x1FFF << 39
    assert cards_of(rank_mask_of(12)) == [12, 25, 38, 51]
    for bad in (-1, 53):
        with pytest.raises(ValueError):
            mask_of([bad])
    with pytest.raises(ValueError):
        rank_mask_of(13)


def test_multiset_counts_by_rank_suit_colour_match_a_counter():
    rng = random.Random(1)
    for _ in range(300):
        cards = [rng.randrange(53) for _ in range(rng.randrange(0, 60))]
        counter = Counter(cards)
        if max(counter.values(), default=0) > 8:
            continue
        ms = CardMultiset(cards)
        assert len(ms) == len(cards) and ms.to_list() == sorted(cards)
        for r in range(13):
            assert ms.count_rank(r) == sum(n for c, n in counter.items() if c < 52 and c % 13 == r)
        for s in range(4):
            assert ms.count_suit(s) == sum(n for c, n in counter.items() if c < 52 and c // 13 == s)
        red = sum(n for c, n in counter.items() if c < 52 and c // 13 >= 2)
        assert ms.count_colour(True) == red
        assert ms.support == mask_of(counter)
        planes = ms.planes
        for k in range(8):
            assert planes[k] == mask_of(c for c, n in counter.items() if n > k)


def test_multiset_refuses_bad_input_without_change():
    ms = CardMultiset([52] * 8)
    with pytest.raises(ValueError):
        ms.add(52)                       # a ninth copy does not fit
    with pytest.raises(ValueError):
        ms.remove(3)
    for bad in (-1, 53, 1000):
        with pytest.raises((ValueError, OverflowError)):
            ms.add(bad)
    assert len(ms) == 8 and ms.count(52) == 8


def test_deck_compositions_come_from_build_deck():
    assert len(build_deck([range(13)], 2)) == 54
    assert len(build_deck([[r for r in range(13) if r != 11]], 2)) == 50
    assert len(build_deck([range(13), range(10)], 1)) == 93
    assert len(build_deck([range(13)] * 4, 8)) == 216
    assert build_deck([[0]], 1) == [0, 13, 26, 39, 52]
    with pytest.raises(ValueError):
        build_deck([[13]], 0)


# ---------------------------------------------------------------- generator and shuffle
def test_rng_golden_stream_is_pinned():
    r = Random(42)
    assert [r.next_u32() for _ in range(4)] == [3508393247, 2846903365, 3050928809, 2850731726]
    assert Random(42).shuffled(range(54))[:12] == [49, 3, 28, 52, 20, 12, 31, 27, 13, 39, 6, 26]
    r = Random(0)
    assert [r.below(6) for _ in range(10)] == [3, 1, 3, 4, 5, 3, 0, 4, 2, 1]


@pytest.mark.parametrize("seed", [0, 1, 42, 2**63 + 11, 2**64 - 1])
def test_rng_matches_the_plain_python_reference(seed):
    fast, ref = Random(seed), ReferencePCG32(seed)
    assert [fast.next_u32() for _ in range(50)] == [ref.next32() for _ in range(50)]
    bounds = [1, 2, 3, 7, 54, 93, 216, 2**31 + 1, 2**32 - 1]
    assert [fast.below(n) for n in bounds * 20] == [ref.below(n) for n in bounds * 20]
    deck = list(range(216))
    ref.shuffle(deck)
    assert fast.shuffled(range(216)) == deck


def test_seed_folding_and_errors():
    assert seed_to_u64(5) == 5 and seed_to_u64(2**64 + 5) == 4
    for bad in (-1, 1.5, "7", True):
        with pytest.raises((ValueError, TypeError)):
            Random(bad)
    with pytest.raises(ValueError):
        Random(1).below(0)


def test_seeds_take_one_path_whatever_their_size():
    """The C fast path for a seed within 64 bits (run_random, seed_rng, sample_hidden, Random)
    folds exactly as seed_to_u64 does, and refuses what it refuses."""
    class Wide(int):
        pass
    state = new_game("crazy_eights", seed=3)._state
    for seed in (0, 7, 2**63, 2**64 - 1, 2**64, 2**64 + 5, 2**200 + 3, Wide(9)):
        folded = seed_to_u64(seed)
        assert Random(seed).state == Random(folded).state
        a, b = state.clone(), state.clone()
        assert a.run_random(seed) == b.run_random(folded) and a.returns() == b.returns()
        a.seed_rng(seed)
        b.seed_rng(folded)
        assert a.rng_state == b.rng_state
    for bad in (-1, -2**70, 1.5, "7", True, None):
        with pytest.raises((ValueError, TypeError)):
            state.clone().run_random(bad)
        with pytest.raises((ValueError, TypeError)):
            state.clone().seed_rng(bad)


def test_rng_state_round_trips_and_pickles():
    r = Random(9)
    r.below(10)
    copy = Random.from_state(r.state)
    assert [r.next_u32() for _ in range(5)] == [copy.next_u32() for _ in range(5)]
    p = pickle.loads(pickle.dumps(r))
    assert p.state == r.state
    c = r.clone()
    c.next_u32()
    assert c.state != r.state
    for bad in ([1, 2], [1], "x", [2**64, 1], [-1, 1]):
        with pytest.raises(ValueError):
            Random.from_state(bad)


def test_shuffle_in_place_on_buffers_and_uniformity():
    r = Random(3)
    buf = bytearray(range(216))
    r.shuffle(buf)
    assert sorted(buf) == list(range(216)) and list(buf) != list(range(216))
    arr = np.arange(54, dtype=np.uint8)
    r.shuffle(arr)
    assert sorted(arr.tolist()) == list(range(54))
    with pytest.raises((TypeError, BufferError)):
        r.shuffle(b"immutable")
    wide = np.arange(54, dtype=np.int64)
    with pytest.raises(TypeError, match="byte buffer"):
        r.shuffle(wide)
    assert wide.tolist() == list(range(54))
    # Every position of a 4-card shuffle is equally likely (chi-square, generous bound).
    counts = Counter()
    for _ in range(24000):
        b = bytearray(range(4))
        r.shuffle(b)
        counts[bytes(b)] += 1
    assert len(counts) == 24
    chi2 = sum((n - 1000) ** 2 / 1000 for n in counts.values())
    assert chi2 < 60                       # 23 degrees of freedom: p < 1e-5 beyond ~55


# ---------------------------------------------------------------- properties (hypothesis)
from hypothesis import given, settings, strategies as st  # noqa: E402


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 52), max_size=120), st.lists(st.integers(0, 52), max_size=40))
def test_multiset_add_remove_property(adds, removes):
    ms, model = CardMultiset(), Counter()
    for c in adds:
        if model[c] < 8:
            ms.add(c)
            model[c] += 1
        else:
            with pytest.raises(ValueError):
                ms.add(c)
    for c in removes:
        if model[c]:
            ms.remove(c)
            model[c] -= 1
        else:
            with pytest.raises(ValueError):
                ms.remove(c)
    assert ms.to_list() == sorted(model.elements())
    assert all(ms.count_rank(r) == sum(n for c, n in model.items() if c < 52 and c % 13 == r)
               for r in range(13))


@given(st.integers(0, 52), st.sampled_from(["upper", "lower", "symbol", "T"]))
def test_notation_round_trip_property(card, style):
    text = card_str(card)
    if style == "lower":
        text = text.lower()
    elif style == "symbol" and card != JOKER:
        text = text[:-1] + "♣♠♦♥"["CSDH".index(text[-1])]
    elif style == "T":
        text = text.replace("10", "T")
    assert card_id(text) == card and str(parse_card(text)) == card_str(card)
