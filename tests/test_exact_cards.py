"""Exact cards (issue 31, item 3; docs/api.md "Exact cards") in seeded random games of every
game and configuration: an action applied with ``cards=`` moves exactly those cards out of the
hand instead of the engine's choice, a refused ``cards=`` changes nothing, and the saves,
clones and events of such games replay the choices."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from cardcore import IllegalActionError, load_game, new_game
from cardcore.cards import card_id, card_str

from invariants import all_configs, check_invariants, composition, config_id, snapshot

CONFIGS = all_configs()


def random_choice(game, action_id, rng):
    """A random multiset of cards the action could take from the hand: for each card the
    engine would take, a card of the same kind (``interchangeable_as``) the hand holds."""
    default = game.state.hand_cards(action_id)
    if default is None:
        return None, [card_str(c) for c in map(card_id, game.action_from_id(action_id).cards)]
    left = Counter(game.state.hand(game.current_player))
    chosen = []
    for card in default:
        kind = game.interchangeable_as(card)
        options = sorted(c for c in left.elements() if game.interchangeable_as(c) == kind)
        pick = rng.choice(options)
        left[pick] -= 1
        chosen.append(pick)
    return default, [card_str(c) for c in chosen]


def a_misfit(game, action_id, chosen, rng):
    """cards= that does not fit: one card more, or one swapped for a card of another kind."""
    if not chosen or rng.random() < 0.3:
        return chosen + ["KH"]
    kinds = {game.interchangeable_as(card_id(c)) for c in chosen}
    other = [c for c in range(53) if game.interchangeable_as(c) not in kinds]
    return chosen[1:] + [card_str(rng.choice(other))]


@pytest.mark.parametrize("config", CONFIGS, ids=config_id)
def test_exact_cards_leave_the_hand_and_refusals_change_nothing(config):
    name, options = config
    chose = refused = 0
    for seed in range(3):
        rng = random.Random(seed)
        game = new_game(name, seed=seed, **options)
        steps = 0
        while not game.is_over and steps < 600:
            ids = game.legal_action_ids()
            action = ids[rng.randrange(len(ids))]
            default, chosen = random_choice(game, action, rng)
            if rng.random() < 0.05:
                before = snapshot(game)
                with pytest.raises(IllegalActionError):
                    game.apply(action, cards=a_misfit(game, action, chosen, rng))
                assert snapshot(game) == before
                refused += 1
            seat = game.current_player
            hand = Counter(game.state.hand(seat))
            engine = game.clone()
            engine.apply(action)
            game.apply(action, cards=chosen)
            if default is not None and game.state.round_index == engine.state.round_index:
                # The same move with the engine's cards: the hands differ by exactly the
                # choice (whatever else entered the hand, the pile or a foot, is the same).
                after = Counter(game.state.hand(seat))
                theirs = Counter(engine.state.hand(seat))
                assert after + Counter(map(card_id, chosen)) == theirs + Counter(default)
                assert not Counter(map(card_id, chosen)) - hand
                chose += sorted(default) != sorted(map(card_id, chosen))
            assert game.all_cards() == composition(game)
            steps += 1
        check_invariants(game)
        data = game.to_json()
        loaded = load_game(data)
        assert loaded.to_json() == data
        assert snapshot(loaded) == snapshot(game)
        for seat in (None, 0):
            assert loaded.events(seat) == game.events(seat)
            assert game.clone().events(seat) == game.events(seat)
    assert refused > 0
    if game.state.chooses_hand_cards:
        assert chose > 0, "no action took cards other than the engine's"


def test_exact_cards_hostile_save_cards_raise_value_error():
    import hashlib
    import json

    from cardcore.saves import canonical_bytes

    game = new_game("manna", seed=1, hands=1)
    for _ in range(40):
        game.apply(game.legal_action_ids()[0])
    data = json.loads(game.to_json())

    def resigned(**fields):
        body = {**data, **fields}
        body["digest"] = hashlib.sha256(canonical_bytes(body)).hexdigest()
        return json.dumps(body)

    for cards in ({}, {"x": "KH"}, {"999": "KH"}, {"0": 5}, {"-1": "KH"}, {"0": "KH" * 5000},
                  {"0": "KH"}, [["0", "KH"]], "0 KH", {"0" * 20: "KH"}):
        with pytest.raises(ValueError):
            load_game(resigned(format=3, cards=cards))
    assert load_game(resigned(format=2, cards={"0": "KH"})).to_json() == game.to_json()


def test_the_hand_cards_an_actions_moves_show_are_accepted_as_its_cards():
    """A UI names an action's cards from its ``moves`` (docs/building-a-ui.md). With copies a
    card leaving the hand while its twin comes in from a pile nets out of the moves (a Manna
    pile taken with a pair whose pile holds one of the pair's twins), so the moves may show
    fewer hand cards than the action takes: those are accepted as the engine's own choice,
    and the step is the one ``apply`` without cards makes. (Manna: the game with copies whose
    actions take hand cards by rank; an action that names its cards takes those.)"""
    name = "manna"
    checked = 0
    for seed in range(1, 4):
        game = new_game(name, seed=seed)
        rng = random.Random(seed)
        for _ in range(400):
            if game.is_over or checked >= 3000:
                break
            seat = game.current_player
            hand = f"hand:{seat}"
            for action in game.legal_actions():
                cards = [c for m in action.moves if m["from"] == hand for c in m.get("cards", [])]
                if not cards:
                    continue
                named, plain = game.clone(), game.clone()
                named.apply(action.id, cards=cards)
                plain.apply(action.id)
                assert snapshot(named) == snapshot(plain), (name, seed, str(action))
                checked += 1
            game.apply(rng.choice(game.legal_action_ids()))
    assert checked > 0
