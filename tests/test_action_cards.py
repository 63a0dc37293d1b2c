"""action.cards (api.md "Additions in 0.2"): every action that moves cards names them, with
the cards that depend on the position filled in for the position now."""
from __future__ import annotations

import collections
import random

import cardcore
from cardcore import new_game
from cardcore.cards import card_id


def test_ks_6_2_take_names_the_table():
    game = new_game("kings_stakes", seed=2)
    rng = random.Random(2)
    takes = 0
    while not game.is_over:
        actions = game.legal_actions()
        for a in actions:
            if a.kind == "take":
                assert list(a.cards) == game.view(a.player)["table"] and a.cards
                takes += 1
        game.apply(rng.choice(actions))
    assert takes > 20


def test_kz_3_1_draw_discard_names_the_top_card():
    game = new_game("kuzanasta", seed=3, players=3, max_turns=50, deals=2)
    rng = random.Random(3)
    seen = 0
    while not game.is_over:
        actions = game.legal_actions()
        p = game.current_player
        for a in actions:
            if a.kind == "draw_discard":
                view = game.view(p)
                assert list(a.cards) == view["discards"][view["my_pile"]][-1:]
                before = collections.Counter(view["hand"])
                twin = game.clone()
                twin.apply(a)
                after = collections.Counter(twin.view(p)["hand"])
                assert after - before == collections.Counter(a.cards)
                seen += 1
            if a.kind == "god_draw":
                assert len(a.cards) == 1 and a.label == f"god_draw {a.cards[0]}"
        game.apply(rng.choice(actions))
    assert seen > 10


def test_mh_meld_cards_are_exactly_the_cards_that_leave_the_hand():
    """hand_before - action.cards == hand_after for every meld applied in random playouts
    (with the foot picked up by a canasta, its cards (the foot event) join the hand)."""
    melds = 0
    for seed in range(5):
        game = new_game("manna", seed=seed, target=4000)
        rng = random.Random(seed)
        while not game.is_over and melds < 3000:
            actions = game.legal_actions()
            action = rng.choice(actions)
            p = action.player
            before = collections.Counter(game.view(p)["hand"])
            hand_number = game.view(p)["hand_number"]
            since = game.event_count()
            game.apply(action)
            if action.kind != "meld" or game.is_over or game.view(p)["hand_number"] != hand_number:
                continue
            assert action.cards and len(action.cards) == (action.info["naturals"]
                                                         + action.info["twos"]
                                                         + action.info["jokers"])
            gained = collections.Counter()
            for e in game.events(p, since=since):
                if e["kind"] == "foot":
                    gained.update(e["cards"])
            expected = before - collections.Counter(action.cards) + gained
            assert collections.Counter(game.view(p)["hand"]) == expected, action
            melds += 1
    assert melds > 300


def test_mh_meld_cards_are_the_lowest_ids_first():
    game = new_game("manna", seed=1, target=4000)
    rng = random.Random(1)
    checked = 0
    while not game.is_over and checked < 200:
        actions = game.legal_actions()
        for a in actions:
            if a.kind == "meld" and a.info["naturals"]:
                hand = [card_id(c) for c in game.view(a.player)["hand"]]
                naturals = [card_id(c) for c in a.cards[:a.info["naturals"]]]
                rank = naturals[0] % 13
                assert naturals == sorted(c for c in hand if c % 13 == rank and c != 52)[
                    :len(naturals)]
                checked += 1
        game.apply(rng.choice(actions))
    assert checked >= 200


def test_mh_5_take_pile_names_the_pile_and_what_it_melds():
    seen = 0
    for seed in range(8):
        game = new_game("manna", seed=seed, target=4000)
        rng = random.Random(seed)
        while not game.is_over and seen < 40:
            actions = game.legal_actions()
            for a in actions:
                if a.kind == "take_pile":
                    view = game.view(a.player)
                    assert list(a.cards) == view["discard"]
                    assert a.info["melded"][0] == view["discard"][-1]
                    hand = collections.Counter(view["hand"])
                    assert collections.Counter(a.info["from_hand"]) <= hand
                    assert len(a.info["melded"]) == 1 + len(a.info["from_hand"])
                    seen += 1
            game.apply(rng.choice(actions))
    assert seen >= 40


def test_draw_stock_has_no_cards_until_applied():
    starts = {name: new_game(name, seed=1) for name in cardcore.available_games()}
    drawing = [name for name, game in starts.items()
               if any(a.kind == "draw_stock" for a in game.legal_actions())]
    assert drawing                # the games that open with a stock draw
    for name in drawing:
        game = starts[name]
        draw = [a for a in game.legal_actions() if a.kind == "draw_stock"][0]
        assert draw.cards == ()
        p = draw.player
        game.apply(draw)
        event = [e for e in game.events(p) if e["kind"] == "draw_stock"][-1]
        assert event["cards"] and not [e for e in game.events((p + 1) % game.num_players)
                                       if e["kind"] == "draw_stock"][-1]["cards"]
