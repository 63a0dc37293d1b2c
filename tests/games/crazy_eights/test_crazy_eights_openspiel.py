"""Crazy Eights against OpenSpiel's crazy_eights, side by side (issue 19, item 5).

Both engines get the same dealer and the same cards: pyspiel's chance nodes are driven from
cardcore's state (the dealer outcome is cardcore's dealer, each card outcome the card cardcore
dealt or drew next). At every decision both must have the same player to move, the same legal
action ids and the same observation tensor (OpenSpiel's, the first pieces of ours); then both
apply the same uniformly random action. At the end, under scoring="openspiel" the returns are
equal; under the default scoring they are minus the face-value penalties of the final hands.
Games come with stacked decks (the deal read from the deck) and with cardcore's own shuffles
(the deal read from the hands; these exercise the random return of a turned-up eight and the
reshuffles). The quick part plays a few dozen games; the long part (slow) some thousands.
"""
from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pyspiel
import pytest

from cardcore import new_game
from cardcore.vector import VectorGame, episode_seed
from cardcore.cards import card_id, card_str
from cardcore.games.crazy_eights._state import to_os_index

FACE = {"A": 10, "J": 10, "Q": 10, "K": 10, "8": 50}
OS_RANKS = "23456789TJQKA"
OS_SUITS = "CDHS"


def face_penalty(hand: list[str]) -> int:
    """CE-8.1 from the notation alone: 8 = 50, J Q K A = 10, 2-10 face value."""
    return sum(FACE.get(c[:-1], 0) or int(c[:-1]) for c in hand)


def openspiel_penalty(hand: list[str]) -> int:
    """OpenSpiel's ScoreUp from the notation alone: card + 2 for 2-10 (CE-8.2)."""
    total = 0
    for c in hand:
        rank, suit = c[:-1].replace("10", "T"), c[-1]
        if rank == "8":
            total += 50
        elif rank in "JQKA":
            total += 10
        else:
            total += OS_RANKS.index(rank) * 4 + OS_SUITS.index(suit) + 2
    return total


def openspiel_game(players: int, options: dict[str, Any]):
    params = {"players": players, **{k: options[k] for k in
              ("max_draw_cards", "max_turns", "use_special_cards", "reshuffle") if k in options}}
    return pyspiel.load_game("crazy_eights", params)


def openspiel_twin(ours, deck: list[str] | None = None):
    """A pyspiel crazy_eights state dealt as ``ours`` (a fresh cardcore game) was: the dealer,
    one card at a time from the dealer's next seat (read from the stacked ``deck`` or from the
    hands), the turn-ups."""
    state, players = ours._state, ours.num_players
    theirs = openspiel_game(players, ours.options).new_initial_state()
    dealer = state.dealer
    theirs.apply_action(52 + dealer)
    per_hand = 7 if players == 2 else 5
    if deck is not None:
        dealt = [to_os_index(card_id(c)) for c in deck[:players * per_hand]]
    else:
        hands = {p: [to_os_index(c) for c in state.hand(p)] for p in range(players)}
        dealt = [hands[(dealer + 1 + i) % players].pop() for i in range(players * per_hand)]
    turn_ups = state.reburied() + state.discard()[:1]
    for card in dealt + [to_os_index(c) for c in turn_ups]:
        assert theirs.is_chance_node()
        theirs.apply_action(card)
    return theirs


def play_both(players: int, seed: int, stacked: bool, **options: Any) -> Counter:
    """One game in both engines; returns what happened in it (to prove the coverage)."""
    rng = random.Random(seed * 7919 + players)
    deck = None
    if stacked:
        ids = list(new_game("crazy_eights", players=players).deck_for(players, {}))
        rng.shuffle(ids)
        deck = [card_str(c) for c in ids]
    ours = new_game("crazy_eights", players=players, seed=seed, deck=deck, scoring="openspiel",
                    **options)
    face = new_game("crazy_eights", players=players, seed=seed, deck=deck, **options)
    state = ours._state                            # the live state: last_drawn, the deal
    theirs = openspiel_twin(ours, deck)
    seen: Counter = Counter()
    seen["reburied " + ("bottom" if stacked else "random")] += len(state.reburied())
    step = 0
    while not ours.is_over:
        assert not theirs.is_chance_node() and not theirs.is_terminal(), step
        player = ours.current_player
        assert theirs.current_player() == player, step
        legal = ours.legal_action_ids()
        assert theirs.legal_actions() == legal, (step, str(theirs))
        prefix = np.asarray(theirs.observation_tensor(player), dtype=np.float32)
        assert np.array_equal(ours.observation_tensor(player)[:len(prefix)], prefix), step
        # observation="openspiel" is OpenSpiel's tensor exactly, element by element
        assert np.array_equal(ours.observation_variant(player, "openspiel"), prefix), step
        action = legal[rng.randrange(len(legal))]
        owed, stock, shuffles = state.draw_two_owed, state.stock_size, state.reshuffles
        ours.apply(action)
        face.apply(action)
        theirs.apply_action(action)
        for card in state.last_drawn():            # the chance outcomes: what cardcore drew
            assert theirs.is_chance_node(), step
            theirs.apply_action(to_os_index(card))
        seen["reshuffle"] += state.reshuffles - shuffles
        seen["debt cut short"] += bool(owed and state.stock_size == 0 and
                                       len(state.last_drawn()) < owed)
        seen["two stacked"] += bool(owed and action < 4)
        seen["stock emptied"] += bool(stock and not state.stock_size)
        step += 1
    assert theirs.is_terminal()
    hands = [ours.view(p)["hand"] for p in range(players)]
    assert theirs.returns() == ours.returns() == [-float(openspiel_penalty(h)) for h in hands]
    assert face.returns() == [-float(face_penalty(h)) for h in hands]
    assert face.view(0)["hand"] == hands[0] and face.winners == [
        p for p in range(players) if face_penalty(hands[p]) == min(map(face_penalty, hands))]
    seen["games"] += 1
    seen["ended " + ("out" if min(map(len, hands)) == 0 else
                     "max_turns" if state.plays >= options.get("max_turns", 100) else "passes")] += 1
    seen["face differs"] += face.returns() != ours.returns()
    return seen


CONFIGS = [(players, special, reshuffle) for players in (2, 3, 4, 5, 6)
           for special in (False, True) for reshuffle in (False, True)]


def test_the_installed_openspiel_is_the_source_read():
    """open_spiel 2.0.2 plays the crazy_eights.cc read for cardcore (after the 2025 fix that
    counts the turn-up as played): same parameters, sizes and deal."""
    game = pyspiel.load_game("crazy_eights")
    assert game.get_parameters() == {"players": 5, "max_draw_cards": 5, "max_turns": 100,
                                     "use_special_cards": False, "reshuffle": False}
    assert game.num_distinct_actions() == 58 and game.max_chance_outcomes() == 57
    assert pyspiel.load_game("crazy_eights(players=6,use_special_cards=True)") \
        .observation_tensor_shape() == [3 * 52 + 52 + 4 + 105 * 5 + 1]
    state = game.new_initial_state()
    state.apply_action(52)                               # seat 0 deals
    for card in list(range(24)) + [28, 29]:              # 25 dealt (no eight), turn up 9D
        state.apply_action(card)
    assert state.current_player() == 1
    assert sum(state.observation_tensor(0)[1:104:2]) == 5  # the dealer keeps 5 cards
    assert new_game("crazy_eights", seed=0).observation_shape == (483,)


@pytest.mark.parametrize("players,special,reshuffle", CONFIGS)
def test_both_engines_play_the_same_games(players, special, reshuffle):
    seen: Counter = Counter()
    for seed in range(3):
        for stacked in (False, True):
            seen += play_both(players, seed, stacked, use_special_cards=special,
                              reshuffle=reshuffle)
    assert seen["games"] == 6


def test_small_limits_and_fifteen_players_play_the_same():
    seen: Counter = Counter()
    for seed in range(4):
        seen += play_both(4, seed, seed % 2 == 0, max_draw_cards=1, max_turns=9,
                          use_special_cards=True, reshuffle=True)
        seen += play_both(15, seed, seed % 2 == 1, use_special_cards=True, reshuffle=seed < 2)
    assert seen["games"] == 8 and seen["ended max_turns"] >= 1


@pytest.mark.slow
@pytest.mark.parametrize("players,special,reshuffle", CONFIGS)
def test_hundreds_of_games_play_the_same(players, special, reshuffle):
    # 100 games a configuration (2,000 in all, beside the 600 below): in every configuration
    # each path asserted below was first taken within its first 73 games (of 200 tried).
    seen: Counter = Counter()
    for seed in range(100, 200):
        seen += play_both(players, seed, seed % 2 == 0, use_special_cards=special,
                          reshuffle=reshuffle)
    assert seen["games"] == 100
    # Every path these options open was taken, so the comparison covered it.
    assert seen["reburied random"] and seen["reburied bottom"] and seen["face differs"]
    assert seen["ended out"] and seen["reshuffle" if reshuffle else "stock emptied"]
    if special:
        assert seen["two stacked"]


@pytest.mark.slow
def test_random_limits_play_the_same():
    seen: Counter = Counter()
    pick = random.Random(19)
    for seed in range(600):
        players = pick.choice([2, 3, 4, 5, 6, 9, 15])
        seen += play_both(players, 1000 + seed, pick.random() < 0.5,
                          max_draw_cards=pick.choice([1, 2, 3, 5, 8]),
                          max_turns=pick.choice([1, 5, 30, 100, 300]),
                          use_special_cards=pick.random() < 0.6, reshuffle=pick.random() < 0.6)
    assert seen["games"] == 600
    for feature in ("ended out", "ended max_turns", "ended passes", "reshuffle", "debt cut short",
                    "two stacked", "reburied random", "reburied bottom"):
        assert seen[feature], feature


@pytest.mark.parametrize("players,special", [(2, False), (3, True), (5, False), (6, True)])
def test_vector_game_openspiel_observation_is_openspiels_tensor(players, special):
    """VectorGame(observation="openspiel") in self-play beside pyspiel states dealt alike and
    played with the same random actions: every row equal to OpenSpiel's observation tensor
    element by element, across episodes."""
    seed, n = 20 + players, 3
    options = {"use_special_cards": special, "reshuffle": True, "max_turns": 30}
    vg = VectorGame("crazy_eights", n, players=players, seed=seed, observation="openspiel",
                    **options)
    size = openspiel_game(players, options).observation_tensor_shape()[0]
    assert vg.observation_shape == (size,)
    ours = [new_game("crazy_eights", players=players, seed=episode_seed(seed, i, 0), **options)
            for i in range(n)]
    theirs = [openspiel_twin(g) for g in ours]
    episodes, rng, ended = [0] * n, random.Random(seed), 0
    for step in range(150):
        rows = vg.observations()
        for i in range(n):
            player = ours[i].current_player
            expected = np.asarray(theirs[i].observation_tensor(player), np.float32)
            assert np.array_equal(rows[i], expected), (i, step)
            assert ((rows[i] >= vg.observation_low) & (rows[i] <= vg.observation_high)).all()
        actions = np.array([rng.choice(g.legal_action_ids()) for g in ours], np.int64)
        _, done = vg.step(actions)
        for i in range(n):
            mover = ours[i].current_player
            ours[i].apply(int(actions[i]))
            theirs[i].apply_action(int(actions[i]))
            for card in ours[i]._state.last_drawn():
                theirs[i].apply_action(to_os_index(card))
            assert done[i] == ours[i].is_over == theirs[i].is_terminal()
            if done[i]:
                final = ours[i].observation_variant(mover, "openspiel")
                assert np.array_equal(vg.final_observations[i], final)
                ended += 1
                episodes[i] += 1
                ours[i] = new_game("crazy_eights", players=players,
                                   seed=episode_seed(seed, i, episodes[i]), **options)
                theirs[i] = openspiel_twin(ours[i])
    assert ended >= 1


def test_openspiel_observation_variant_of_the_single_game():
    game = new_game("crazy_eights", players=4, seed=2)
    assert game.observation_variants == {
        "openspiel": tuple(openspiel_game(4, {}).observation_tensor_shape())}
    assert game.observation_pieces[0][1] == 0     # OpenSpiel's pieces begin the tensor
