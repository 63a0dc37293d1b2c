"""Kuzanasta options from the original text (issue 14): ``going_out`` (KZ-3.3), ``sets``
(KZ-7.1, KZ-5), ``god_draw`` (KZ-6.2), with stacked decks; the greedy bot on every option
value; format-1 saves of cardcore 0.1 loading with the 0.1 rules."""
from __future__ import annotations

import itertools
import json
import random
from pathlib import Path

import numpy as np
import pytest
from kuzanasta_oracle import deal_model
from kz_helpers import assert_refused, stacked

from cardcore import load_game, new_game
from cardcore.bots import GreedyBot
from cardcore.cards import card_id, card_str
from cardcore.games.kuzanasta._state import num_actions
from cardcore.games.kuzanasta._sets import best_three_four_sets, kz_set_value
from cardcore.games.kuzanasta import Kuzanasta

DATA = Path(__file__).parent / "data"
HAND0 = ["7C", "7S", "7D", "QC", "QS", "5H", "2C"]          # 7-7-7 + Q-Q-W with 5 wild, 2C
HAND1 = ["KC", "KD", "10C", "10D", "6C", "3C", "AC"]        # 140 points, no sets
FULL = ["7C", "7S", "7D", "QC", "QS", "QD", "5H"]           # 7-7-7-W + Q-Q-Q: all seven
GOD = ["JK", "2C", "3D", "6H", "8S", "9C", "JH"]


def test_kz_3_3_the_defaults_are_the_texts_and_today_for_the_rest():
    options = new_game("kuzanasta", seed=1).options
    assert (options["going_out"], options["sets"], options["god_draw"]) == \
        ("immediate", "any_two", "look")
    assert Kuzanasta.format1_options == {"going_out": "optional"}


# ---------------------------------------------------------------- going_out (KZ-3.3)
def test_kz_3_3_immediate_a_hand_with_two_sets_goes_out_with_its_discard():
    g = stacked(2, 1, hands={0: HAND0, 1: HAND1}, stocks=[["9C"]], going_out="immediate")
    g.apply("draw_stock")
    assert "end_turn" not in [str(a) for a in g.legal_actions()]
    assert_refused(g, "end_turn", "KZ-3.2")
    g.apply("discard 9C")                        # two sets after the move: out at once
    last = g._state.last_deal()
    assert last["end"] == "went_out" and last["winner"] == 0
    assert g.scores == [20000 + 140, 0]          # the best declaration: 7-7-7 + Q-Q-W
    assert [s["set"] for s in g.view(1)["last_deal"]["sets"]] == ["7-7-7", "Q-Q-W"]
    assert g.history[-2]["action"] == "discard 9C" and g.history[-1]["event"] == "round_end"
    assert g.phase == "draw" and g._state.round_index == 1


def test_kz_3_3_immediate_without_two_sets_the_discard_ends_the_turn():
    g = stacked(2, 1, hands={0: HAND1, 1: HAND0}, stocks=[["9C", "4D"]], going_out="immediate")
    g.apply("draw_stock")
    g.apply("discard 9C")
    assert g.current_player == 1 and g.phase == "draw" and g.view(0)["turns_in_deal"] == 1
    g.apply("draw_stock")                        # 4D: seat 1 keeps its sets and 2C goes
    g.apply("discard 2C")
    assert g._state.last_deal()["winner"] == 1


def test_kz_3_3_optional_keeps_the_declare_step_and_may_wait():
    g = stacked(2, 1, hands={0: HAND0, 1: HAND1}, stocks=[["9C"]], going_out="optional")
    g.apply("draw_stock")
    g.apply("discard 9C")
    assert g.phase == "declare" and [str(a) for a in g.legal_actions()][:2] == \
        ["end_turn", "go_out"]
    g.apply("end_turn")
    assert g.current_player == 1 and g._state.last_deal() is None


def test_kz_3_3_immediate_never_enters_the_declare_step_in_play():
    for seed in range(4):
        g = new_game("kuzanasta", players=3, seed=seed, deals=1)
        while not g.is_over:
            assert g.phase != "declare"
            ids = g.legal_action_ids()
            g.apply(ids[random.Random(seed + len(g._log)).randrange(len(ids))])


# ---------------------------------------------------------------- sets (KZ-7.1, KZ-5)
def declare_ready(hand0, **options):
    g = stacked(2, 1, hands={0: hand0, 1: HAND1}, stocks=[["9C"]], going_out="optional",
                sets="three_and_four", **options)
    g.apply("draw_stock")
    g.apply("discard 9C")
    return g


def test_kz_7_1_three_and_four_two_sets_with_a_card_over_are_not_enough():
    g = declare_ready(HAND0)                     # 7-7-7 + Q-Q-W + 2C
    assert [str(a) for a in g.legal_actions()] == ["end_turn"]
    assert g.view(0)["best_sets"] is None
    assert_refused(g, "go_out", "KZ-7.1")
    assert_refused(g, "go_out 7-7-7 Q-Q-W", "KZ-7.1")
    g = stacked(2, 1, hands={0: HAND0, 1: HAND1}, stocks=[["9C"]], sets="three_and_four",
                going_out="immediate")
    g.apply("draw_stock")
    g.apply("discard 9C")                        # immediate: nothing to go out with
    assert g.current_player == 1 and g._state.last_deal() is None


def test_kz_7_1_three_and_four_scores_the_best_partition_of_all_seven():
    g = declare_ready(FULL)
    assert [str(a) for a in g.legal_actions()] == [
        "end_turn", "go_out", "go_out 7-7-7 Q-Q-Q-W", "go_out 7-7-7-W Q-Q-Q"]
    assert g.view(0)["best_sets"] == {"sets": ["7-7-7-W", "Q-Q-Q"], "value": 500 + 20000}
    assert_refused(g, "go_out 7-7-7 Q-Q-Q", "KZ-7.1")          # two 3-card sets: not all 7
    g.apply("go_out")
    assert g.scores == [20500 + 140, 0]
    g = declare_ready(FULL)
    g.apply("go_out Q-Q-Q-W 7-7-7")              # a named, weaker partition scores what it names
    assert g.scores == [10000 + 1000 + 140, 0]


def test_kz_7_1_three_and_four_immediate_goes_out_with_the_best_partition():
    g = stacked(2, 1, hands={0: FULL, 1: HAND1}, stocks=[["9C"]], sets="three_and_four",
                going_out="immediate")
    g.apply("draw_stock")
    g.apply("discard 9C")
    assert g.scores == [20500 + 140, 0]


def test_kz_4_3_three_and_four_the_joker_keeps_a_hand_from_going_out():
    hand = ["7C", "7S", "7D", "QC", "QS", "QD", "JK"]          # two natural triples + joker
    g = declare_ready(hand)
    assert [str(a) for a in g.legal_actions()] == ["end_turn"]
    g = stacked(2, 1, hands={0: hand, 1: HAND1}, stocks=[["9C"]], going_out="optional")
    g.apply("draw_stock")
    g.apply("discard 9C")
    assert "go_out" in [str(a) for a in g.legal_actions()]     # any_two: 7-7-7 + Q-Q-Q


def brute_three_four(cards, wild):
    """The best 3 + 4 partition by trying every split of the seven cards (KZ-5.3 rows)."""
    best = 0
    for three in itertools.combinations(range(7), 3):
        a = [cards[i] for i in three]
        b = [cards[i] for i in range(7) if i not in three]
        va, vb = kz_set_value(a, wild), kz_set_value(b, wild)
        if va and vb:
            best = max(best, va + vb)
    return best


def test_kz_5_3_three_and_four_partition_matches_brute_force():
    rng = random.Random(14)
    deck = [c for c in range(52) for _ in range(2 if c % 13 < 10 else 1)] + [52]
    found = 0
    for _ in range(6000):
        ranks = rng.sample(range(13), 3)             # few ranks: partitions are common
        pool = [c for c in deck if c % 13 in ranks or c == 52]
        cards = rng.sample(pool, 7)
        wild = rng.choice([None] + ranks)
        value = best_three_four_sets(cards, wild)[0]
        assert value == brute_three_four(cards, wild), ([card_str(c) for c in cards], wild)
        found += value > 0
    assert found > 300


# ---------------------------------------------------------------- god_draw (KZ-6.2)
def test_kz_6_2_position_adds_place_ids_after_the_pinned_ones():
    look = new_game("kuzanasta", seed=1)
    place = new_game("kuzanasta", seed=1, god_draw="position")
    assert look.num_distinct_actions == num_actions() == 2970
    assert place.num_distinct_actions == 2970 + 2 * 93
    assert [look.action_from_id(i).label for i in range(2970)] == \
        [place.action_from_id(i).label for i in range(2970)]
    assert place.action_from_id(2970).label == "god_draw 0:0"
    assert place.action_from_id(2970 + 93 + 12).label == "god_draw 1:12"
    assert place.action_from_id(2970 + 93 + 12).info == {"pile": 1, "depth": 12}
    assert place.action_from_id(2970).kind == "god_draw"


def test_kz_6_2_position_takes_the_chosen_place_without_looking():
    g = stacked(2, 1, hands={0: GOD}, stocks=[["4H", "10S", "QD", "10S"]], god_draw="position")
    size = g.view(0)["stock_sizes"][0]
    assert [str(a) for a in g.legal_actions()] == \
        ["draw_stock", "draw_discard"] + [f"god_draw 0:{d}" for d in range(size)]
    assert_refused(g, "god_look", "KZ-6.2")
    before = g._state.stock(0)
    g.apply("god_draw 0:2")
    assert g._state.stock(0) == before[:2] + before[3:]
    assert card_id("QD") in g._state.hand(0) and g.phase == "discard"
    assert g.view(1)["god_holder"] == 0                        # the draw shows the holder
    assert g.history[-1]["action"] == "god_draw 0:2"           # the place is public ...
    seen_by_1 = [e for e in g.events(1) if e["kind"] == "god_draw"]
    assert seen_by_1[-1]["action"] == "god_draw 0:2" and "cards" in seen_by_1[-1]
    assert "QD" not in json.dumps(seen_by_1)                   # ... the card is not
    assert "QD" in json.dumps([e for e in g.events(0) if e["kind"] == "god_draw"])


def test_kz_6_2_position_refusals_name_the_rule():
    g = stacked(2, 1, hands={0: HAND0, 1: GOD}, stocks=[["4H"]], god_draw="position")
    assert_refused(g, 2970, "KZ-6.2")                          # no joker
    look = stacked(2, 1, hands={0: GOD}, stocks=[["4H"]])
    assert_refused(look, 2970, "KZ-6.2")                       # not this configuration's id
    g = stacked(2, 1, hands={0: GOD}, stocks=[["4H"]], god_draw="position")
    size = g.view(0)["stock_sizes"][0]
    assert_refused(g, 2970 + size, "KZ-6.2")                   # below the bottom
    assert_refused(g, 2970 + 93, "KZ-6.2")                     # pile 1 is not in play


def turn_up_depth(players=2, first=0):
    return deal_model(range(93), players, first)["stocks"][0].index(0)


def test_kz_6_2_position_draw_of_the_turn_up_place_is_known_to_everybody():
    g = stacked(2, 1, hands={0: GOD}, turn_up="9D", god_draw="position")
    depth = turn_up_depth()
    assert g._state.stock(0)[depth] == card_id("9D")
    g.apply(f"god_draw 0:{depth}")
    assert card_id("9D") in g._state.known_cards(0)            # the place everybody knew
    for seed in range(20):
        world = g.sample_hidden(1, seed)
        assert card_id("9D") in world.state.hand(0) and card_id("JK") in world.state.hand(0)
        assert world.view(1) == g.view(1)


def test_kz_6_2_position_draw_above_a_known_place_keeps_it_known():
    g = stacked(2, 1, hands={0: GOD}, turn_up="9D", god_draw="position")
    depth = turn_up_depth()
    g.apply("god_draw 0:0")                                    # an unseen card from the top
    assert g._state.stock(0)[depth - 1] == card_id("9D")
    worlds = [g.sample_hidden(1, seed).state for seed in range(30)]
    assert all(w.stock(0)[depth - 1] == card_id("9D") for w in worlds)
    assert len({tuple(w.stock(0)[:depth - 1]) for w in worlds}) > 20    # the rest redealt


# ---------------------------------------------------------------- every option value in play
@pytest.mark.parametrize("config", Kuzanasta.conformance_configs,
                         ids=lambda c: "-".join(f"{k}={v}" for k, v in sorted(c.items())))
def test_greedy_plays_every_kuzanasta_option_value(config):
    config = {"max_turns": 150, **config, "deals": 1}
    for seed in range(2):
        g = new_game("kuzanasta", seed=seed, **config)
        bot = GreedyBot(seed)
        while not g.is_over:
            a = bot.choose_id(g)
            assert a in g.legal_action_ids()
            g.apply(a)
        assert g.winners


def test_conformance_covers_every_option_value():
    for key, option in Kuzanasta.options_spec.items():
        if key in ("going_out", "sets", "god_draw"):
            values = {repr(c.get(key, option.default)) for c in Kuzanasta.conformance_configs}
            assert values == set(option.allowed_values().split(" | "))


# ---------------------------------------------------------------- saves (format 1 and 2)
def test_format1_save_of_cardcore_0_1_loads_with_optional_going_out():
    text = (DATA / "kuzanasta_0.1.json").read_text()
    data = json.loads(text)
    assert data["format"] == 1 and "digest" not in data and "going_out" not in data["options"]
    game = load_game(text)
    assert game.options["going_out"] == "optional" and game.options["sets"] == "any_two"
    assert game.is_over and game.scores == [10265, 0, 0]
    # The 0.1 player waited with two sets (end_turn): under the immediate rule it is illegal.
    with pytest.raises(ValueError, match="illegal"):
        load_game({**data, "options": {**data["options"], "going_out": "immediate"}})
    again = json.loads(game.to_json())
    assert again["format"] == 2 and again["options"]["going_out"] == "optional"
    assert load_game(game.to_json()).scores == game.scores


def test_format1_save_detects_no_edit_and_refuses_a_key():
    data = json.loads((DATA / "kuzanasta_0.1.json").read_text())
    with pytest.raises(ValueError, match="no digest"):
        load_game(data, key="secret")
    cut = {**data, "actions": data["actions"][:30]}
    # No digest: a log cut short loads when no shuffle lies between the cut and the end (here
    # the one deal of the match; documented in cardcore.saves).
    assert len(load_game(json.dumps(cut))._log) == 30


def test_format1_save_with_a_digest_has_it_checked():
    # The 0.2 development line wrote format 1 with a digest (and no going_out option).
    from cardcore.saves import canonical_bytes
    import hashlib
    data = json.loads((DATA / "kuzanasta_0.1.json").read_text())
    data["digest"] = hashlib.sha256(canonical_bytes(data)).hexdigest()
    assert load_game(data).options["going_out"] == "optional"
    with pytest.raises(ValueError, match="digest does not match"):
        load_game({**data, "actions": data["actions"][:30]})


def test_saves_are_written_in_format_2_with_a_digest():
    data = json.loads(new_game("kuzanasta", seed=3, god_draw="position").to_json())
    assert data["format"] == 2 and len(data["digest"]) == 64
    assert data["options"]["god_draw"] == "position"


@pytest.mark.parametrize("god_draw, width", [("look", 2970), ("position", 3156)])
def test_kz_6_2_vector_masks_are_as_wide_as_the_configuration(god_draw, width):
    from cardcore import VectorGame
    vg = VectorGame("kuzanasta", 6, players=2, seed=5, god_draw=god_draw)
    for _ in range(300):
        mask = vg.legal_mask()
        assert mask.shape == (6, width) and mask.any(axis=1).all()
        actions = vg.random_actions()
        assert all(mask[i, a] for i, a in enumerate(actions))
        vg.step(actions)
    with pytest.raises(ValueError):
        vg.legal_mask(np.zeros((6, width + 1), dtype=bool))
    vg.close()
