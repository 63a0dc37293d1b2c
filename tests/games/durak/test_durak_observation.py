"""Durak's observation tensor: the layout of games/durak.md ("Observation"), written by the
kernel's projection, and the words of its moves."""
from __future__ import annotations

import numpy as np

from cardcore.games.durak import words

from du_helpers import du

H0 = ["7H", "9H", "KD", "8C", "10C", "6S"]
H1 = ["8H", "JH", "6D", "QC", "AS", "9D"]
SUITS = "CSDH"
POWERS = ["6", "7", "8", "9", "10", "J", "Q", "K", "A"]


def slot(card: str) -> int:
    return SUITS.index(card[-1]) * 9 + POWERS.index(card[:-1])


def piece(game, seat: int, name: str) -> np.ndarray:
    offsets = {n: (o, s) for n, o, s in game.observation_pieces}
    o, s = offsets[name]
    return game.observation_tensor(seat)[o:o + s]


def test_layout_matches_the_rulebook():
    game = du(2, {0: H0, 1: H1}, trump="10S")
    assert game.observation_shape == (451,)
    assert sorted(np.flatnonzero(piece(game, 0, "hand"))) == sorted(slot(c) for c in H0)
    assert np.flatnonzero(piece(game, 1, "trump_card")).tolist() == [slot("10S")]
    assert np.flatnonzero(piece(game, 1, "trump_suit")).tolist() == [SUITS.index("S")]
    known = piece(game, 1, "known_hands").reshape(6, 36)
    assert np.flatnonzero(known[0]).tolist() == [slot("6S")]          # the shown trump
    game.apply("attack 7H")
    game.apply("beat 8H")
    assert np.flatnonzero(piece(game, 0, "attack")).tolist() == [slot("7H")]
    assert np.flatnonzero(piece(game, 0, "cover")).tolist() == [slot("8H")]
    assert piece(game, 0, "stock_size").tolist() == [24.0]
    assert piece(game, 0, "bout_limit").tolist() == [6.0]
    # what seat 1 may not know is the same whatever seat 0 holds: its tensor shows no hand 0
    assert not np.any(piece(game, 1, "hand")[[slot(c) for c in H0 if c != "7H"]])


def test_move_words():
    game = du(2, {0: H0, 1: H1}, trump="10S")
    game.apply("attack 7H")
    take = [a for a in game.legal_actions() if a.kind == "take"][0]
    assert words.move_note(take) == "picks up 7H"
    assert words.explain_notation(["beat", "8H", "JH"], []) is not None
    assert words.explain_notation(["beat", "8H"], []) is None
    assert {example.split()[0] for example, _ in words.NOTATION} == {
        "attack", "beat", "transfer", "take", "pass"}
