"""The zone diff and multiset difference in C (cardcore._moves) give what the Python versions
in cardcore.zones define, on random zones: bytes, lists, zones made and emptied, copies."""
from __future__ import annotations

import random

import pytest

from cardcore import _moves
from cardcore.registry import new_game
from invariants import all_configs, config_id
from cardcore.zones import _diff, _multiset_minus, apply_moves


def random_step(rng: random.Random) -> tuple[dict, dict]:
    """Zones before and after cards moved among them (cards conserved, copies allowed)."""
    zones = [f"z{i}" for i in range(rng.randint(1, 8))]
    before: dict = {}
    for zone in zones:
        cards = [rng.randrange(54) for _ in range(rng.randint(0, 12))]
        before[zone] = bytes(cards) if rng.random() < 0.6 else cards
    moves = []
    held = {z: list(c) for z, c in before.items()}
    for _ in range(rng.randint(0, 4)):
        source = rng.choice(zones)
        if not held[source]:
            continue
        target = rng.choice(zones + ["made:0:1"])
        taken = rng.sample(held[source], rng.randint(1, len(held[source])))
        for card in taken:
            held[source].remove(card)
        held.setdefault(target, []).extend(taken)
        moves.append((source, target, taken))
    after = {z: (bytes(c) if rng.random() < 0.5 else c) for z, c in held.items()
             if c or z in before}
    if rng.random() < 0.2:                       # reordered, nothing moved
        z = rng.choice(zones)
        after[z] = list(reversed(list(after[z])))
    return before, after


@pytest.mark.parametrize("seed", range(300))
def test_c_diff_is_the_python_diff(seed: int) -> None:
    rng = random.Random(seed)
    before, after = random_step(rng)
    expected = _diff(before, after)
    assert _moves.diff(before, after) == expected
    replayed = apply_moves(before, expected)
    for zone in set(replayed) | set(after):
        assert sorted(replayed.get(zone, [])) == sorted(after.get(zone, []))


@pytest.mark.parametrize("seed", range(100))
def test_c_multiset_minus_is_the_python_one(seed: int) -> None:
    rng = random.Random(seed)
    a = [rng.randrange(54) for _ in range(rng.randint(0, 15))]
    b = [rng.randrange(54) for _ in range(rng.randint(0, 15))]
    for x, y in ((a, b), (bytes(a), b), (a, bytes(b)), (tuple(a), b)):
        assert _moves.multiset_minus(x, y) == _multiset_minus(x, y)


def test_ids_out_of_bytes_go_to_python() -> None:
    before = {"a": [300, 5], "b": []}
    after = {"a": [5], "b": [300]}
    assert _moves.diff(before, after) == _diff(before, after) == (("a", "b", (300,)),)
    assert _moves.multiset_minus([300, 1], [1]) == [300]
    assert _moves.multiset_minus(iter([1, 2]), [2]) == [1]


def test_cards_from_nowhere_and_to_nowhere_raise() -> None:
    with pytest.raises(KeyError):
        _moves.diff({"a": b""}, {"a": b"\x05"})
    with pytest.raises(AssertionError):
        _moves.diff({"a": b"\x05"}, {"a": b""})


@pytest.mark.parametrize("config", all_configs(), ids=config_id)
def test_the_zones_an_action_changed_give_the_moves_of_whole_snapshots(config) -> None:
    """The narration diffs only the zones an action changed (``ZoneTable.changes``, from the
    kernel's ``zone_changes``): the same moves, in the same order, as the two whole
    snapshots; and a zone left out is one whose cards did not change."""
    name, options = config
    rng = random.Random(7)
    for seed in range(3):
        game = new_game(name, seed=seed, **options)
        table = game._zone_table()
        while not game.is_over:
            before = game._state.clone()
            game.apply(rng.choice(game.legal_action_ids()))
            after = game._state
            if after.round_index != before.round_index:
                continue                         # a new deal: told from whole snapshots
            was, now = table.changes(before, after)
            whole_was, whole_now = table.cards(before), table.cards(after)
            assert _moves.diff(was, now) == _moves.diff(whole_was, whole_now)
            for zone in set(whole_was) | set(whole_now):
                if zone not in was and zone not in now:
                    assert bytes(whole_was.get(zone, b"")) == bytes(whole_now.get(zone, b""))


def test_zone_changes_refuses_a_state_of_another_game() -> None:
    ce, manna = new_game("crazy_eights", seed=1), new_game("manna", seed=1)
    with pytest.raises(TypeError, match="zone_changes"):
        ce._state.zone_changes(manna._state)
    with pytest.raises(TypeError):
        ce._state.zone_changes(None)
    assert ce._state.zone_changes(ce._state.clone()) == []
