"""Exact cards (issue 31, item 3): ``apply(..., cards=)`` chooses which suits a Manna meld or
pile take moves (games/manna.md, "Actions", the Decision on which cards a meld takes)."""
from __future__ import annotations

import json
import pickle
from collections import Counter

import pytest

from cardcore import IllegalActionError, load_game
from cardcore.cards import card_str

from manna_helpers import DRAW, TAKE_PAIR, cs, discard, game_with, meld

HAND = ["KC", "KS", "KD", "KH", "KH", "2C", "2H", "JK", "9C", "9S", "9D", "5C", "5S"]
MELD_K3_2 = meld("K", True, n=3, t=1)


def drawn_game(**kwargs):
    """Seat 1 (dealer 0's left) holds HAND and has drawn 4C 4S: its meld stage."""
    g = game_with(dealer=0, hands={1: HAND}, stock=["4C", "4S"], **kwargs)
    g.apply(DRAW)
    assert g.current_player == 1 and g.phase == "meld"
    return g


def snapshot(g):
    """Everything a refused apply must leave as it was."""
    return (g.to_json(), [g.view(p) for p in range(6)], g.legal_action_ids(),
            g.all_cards(), g.events())


def names(ids):
    return sorted(card_str(x) for x in ids)


def test_manna_exact_cards_a_meld_moves_exactly_the_chosen_suits():
    g = drawn_game()
    assert g.legal_actions()[0].player == 1
    default = g.action_from_id(MELD_K3_2).cards
    assert sorted(default) == ["2C", "KC", "KD", "KS"]          # the engine: lowest ids
    before = Counter(g._state.hand(1))
    g.apply(MELD_K3_2, cards=["KH", "KH", "KD", "2H"])
    after = Counter(g._state.hand(1))
    assert before - after == Counter(cs("KH", "KH", "KD", "2H"))
    assert not after - before
    assert names(g._state.melds(1)[0][1]) == ["2H", "KD", "KH", "KH"]
    event = [e for e in g.events(1) if e["kind"] == "meld"][-1]
    assert sorted(event["cards"]) == ["2H", "KD", "KH", "KH"]
    assert sorted(g.events(None)[event["n"]]["cards"]) == ["2H", "KD", "KH", "KH"]
    assert g.chosen_cards() == {1: ["KD", "2H", "KH", "KH"]}          # id order


def test_manna_exact_cards_the_engine_choice_is_unchanged_without_cards():
    g = drawn_game()
    g.apply(MELD_K3_2)
    assert names(g._state.melds(1)[0][1]) == ["2C", "KC", "KD", "KS"]
    assert g.chosen_cards() == {}
    assert '"format": 2' in g.to_json()


def test_manna_exact_cards_the_engine_choice_given_as_cards_records_nothing():
    g = drawn_game()
    g.apply(MELD_K3_2, cards=("KS", "2C", "KD", "KC"))          # a tuple, any order
    assert names(g._state.melds(1)[0][1]) == ["2C", "KC", "KD", "KS"]
    assert g.chosen_cards() == {}


def test_mh_4_exact_cards_a_wild_meld_takes_chosen_twos():
    g = drawn_game()
    wild = meld("wild", True, t=2, j=1)
    assert sorted(g.action_from_id(wild).cards) == ["2C", "2H", "JK"]
    g.apply(wild, cards=["JK", "2H", "2C"])
    assert names(g._state.melds(1)[0][1]) == ["2C", "2H", "JK"]


@pytest.mark.parametrize("cards, words", [
    (["KH", "KH", "9C", "2H"], "9C does not fit"),                 # a natural of another rank
    (["KH", "KH", "JK", "2H"], "JK does not fit"),                 # a wild card for a natural
    (["KH", "KH", "KD", "KC"], "KC does not fit"),                 # a natural for the two
    (["KH", "KH", "2H"], "takes 4 cards from the hand, not 3"),
    (["KH", "KH", "KD", "KC", "2H"], "takes 4 cards from the hand, not 5"),
    (["KH", "KH", "KD", "2S"], "you do not hold 2S"),
    (["KD", "KD", "KH", "2H"], "you hold 1 KD, not 2"),           # beyond the hand's copies
    (["KH", "KH", "KH", "2H"], "you hold 2 KH, not 3"),
])
def test_mh_4_exact_cards_refused_change_nothing(cards, words):
    g = drawn_game()
    before = snapshot(g)
    with pytest.raises(IllegalActionError) as e:
        g.apply(MELD_K3_2, cards=cards)
    assert words in str(e.value)
    assert e.value.rule == "MH-4"
    assert snapshot(g) == before


@pytest.mark.parametrize("cards", [
    "KH KH KD 2H", [1, 2, 3, 4], [None], {"KH": 1}, ["ZZ"] * 4, ["K" * 10**6] * 4,
    ["KH"] * 10**6, 17,
])
def test_manna_exact_cards_bad_values_are_refused_briefly(cards):
    g = drawn_game()
    before = snapshot(g)
    with pytest.raises(IllegalActionError) as e:
        g.apply(MELD_K3_2, cards=cards)
    assert len(str(e.value)) < 200
    assert snapshot(g) == before


def test_manna_exact_cards_an_illegal_action_says_its_rule():
    g = drawn_game()
    before = snapshot(g)
    with pytest.raises(IllegalActionError) as e:
        g.apply(DRAW, cards=[])                                    # drawn already
    assert e.value.rule == "MH-3"
    assert snapshot(g) == before


def test_manna_exact_cards_an_action_that_names_its_cards_takes_only_those():
    g = drawn_game()
    before = snapshot(g)
    with pytest.raises(IllegalActionError) as e:
        g.apply(MELD_K3_2, cards=["KH", "KH", "KD", "2H"], player=0)
    assert snapshot(g) == before
    g.apply(MELD_K3_2, cards=["KH", "KH", "KD", "2H"], player=1)
    before = snapshot(g)
    with pytest.raises(IllegalActionError) as e:
        g.apply(discard("9C"), cards=["9S"])
    assert "names its cards (9C)" in str(e.value)
    assert snapshot(g) == before
    g.apply(discard("9C"), cards=["9C"])
    assert g.chosen_cards() == {1: ["KD", "2H", "KH", "KH"]}          # id order


def test_mh_5_3_exact_cards_a_pile_take_melds_the_chosen_pair():
    # The pile is frozen for a team without its initial meld (MH-5.2): a natural pair
    # from hand (MH-5.3 c); KD on top, the nines make the minimum reachable (MH-5.5).
    g = game_with(dealer=0, hands={1: HAND}, upcard="KD")
    take = g.action_from_id(TAKE_PAIR)
    assert take.info["from_hand"] == ["KC", "KS"]
    before = Counter(g._state.hand(1))
    pile = g._state.discard_pile()
    g.apply(TAKE_PAIR, cards=["KH", "KH"])
    after = Counter(g._state.hand(1))
    assert before - after == Counter(cs("KH", "KH"))
    assert after - before == Counter(pile[:-1])
    assert names(g._state.melds(1)[0][1]) == ["KD", "KH", "KH"]
    event = [e for e in g.events(3) if e["kind"] == "take_pile"][-1]
    assert sorted(event["melded"]) == ["KD", "KH", "KH"]


def test_mh_5_3_exact_cards_a_take_refuses_a_wild_card_for_the_pair():
    g = game_with(dealer=0, hands={1: HAND}, upcard="KD")
    before = snapshot(g)
    with pytest.raises(IllegalActionError) as e:
        g.apply(TAKE_PAIR, cards=["KH", "2H"])
    assert e.value.rule == "MH-5.3" and "2H does not fit" in str(e.value)
    with pytest.raises(IllegalActionError) as e:
        g.apply(TAKE_PAIR, cards=[])
    assert "takes 2 cards" in str(e.value)
    assert snapshot(g) == before


def played_with_choice():
    g = drawn_game()
    g.apply(MELD_K3_2, cards=["KH", "KH", "KD", "2H"])
    g.apply(discard("9C"))
    return g


def test_manna_exact_cards_a_save_replays_the_chosen_cards():
    g = played_with_choice()
    data = g.to_json()
    assert '"format": 3' in data and '"cards": {"1": "KD 2H KH KH"}' in data
    loaded = load_game(data)
    assert loaded.to_json() == data
    assert loaded._state.melds(1) == g._state.melds(1)
    assert [loaded._state.hand(p) for p in range(6)] == [g._state.hand(p) for p in range(6)]
    assert loaded.events(1) == g.events(1)
    assert loaded.chosen_cards() == g.chosen_cards()
    keyed = load_game(g.to_json(key="k"), key="k")
    assert keyed._state.melds(1) == g._state.melds(1)
    import jsonschema
    import cardcore
    jsonschema.validate(json.loads(data), cardcore.schema("manna", "save"))   # the shipped one


def test_manna_exact_cards_a_tampered_choice_is_refused():
    data = played_with_choice().to_json().replace('"1": "KD 2H KH KH"', '"1": "KD 2H KH 9C"')
    with pytest.raises(ValueError):
        load_game(data)                                            # the digest
    from cardcore.saves import canonical_bytes
    import hashlib
    body = json.loads(data)
    body["digest"] = hashlib.sha256(canonical_bytes(body)).hexdigest()
    with pytest.raises(ValueError, match="action #1"):
        load_game(json.dumps(body))                                # the replay's check


def test_manna_exact_cards_clone_pickle_and_worlds_keep_the_cards():
    g = played_with_choice()
    for other in (g.clone(), pickle.loads(pickle.dumps(g))):
        assert other._state.melds(1) == g._state.melds(1)
        assert other.chosen_cards() == g.chosen_cards()
        assert other.events(1) == g.events(1)
        assert other.to_json() == g.to_json()
    world = g.sample_hidden(1, seed=3)
    assert world._state.melds(1) == g._state.melds(1)
    assert world.view(1)["hand"] == g.view(1)["hand"]
    assert world.chosen_cards() == {}
    history = g.history
    assert [h["action"] for h in history if h["event"] == "action"][:3] == \
        ["draw", "meld K K K 2", "discard 9C"]
