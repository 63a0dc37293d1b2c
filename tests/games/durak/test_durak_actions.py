"""The Durak action space is a public contract: its ids are pinned here."""
from __future__ import annotations

import pytest

from cardcore import new_game
from cardcore.games.durak import ATTACK_FIRST, BEAT_FIRST, PASS, TAKE, TRANSFER_FIRST

GOLDEN = {0: "attack AC", 5: "attack 6C", 12: "attack KC", 51: "attack KH",
          52: "beat AC", 103: "beat KH", 104: "transfer AC", 155: "transfer KH",
          156: "take", 157: "pass"}


@pytest.mark.parametrize("players,options", [(2, {}), (4, {"partners": True}),
                                             (6, {"transfer": True})])
def test_action_ids_are_pinned(players, options):
    game = new_game("durak", players=players, seed=0, **options)
    assert game.num_distinct_actions == 158
    for action_id, label in GOLDEN.items():
        assert game.action_from_id(action_id).label == label
    assert (ATTACK_FIRST, BEAT_FIRST, TRANSFER_FIRST, TAKE, PASS) == (0, 52, 104, 156, 157)


def test_every_id_has_a_unique_notation_that_parses_back():
    game = new_game("durak", seed=0)
    labels = [game.action_from_id(i).label for i in range(game.num_distinct_actions)]
    assert len(set(labels)) == 158
    legal = game.legal_actions()
    assert game.legal_action_ids()[0] == legal[0].id
    game.apply(str(legal[0]).upper())                  # any case
    assert len(game.action_log()) == 1


MANY_GOLDEN = {158: "attack 6C 6S", 163: "attack 6D 6H", 164: "attack 6C 6S 6D",
               168: "attack 6C 6S 6D 6H", 169: "attack 7C 7S", 256: "attack AC AS AD AH"}


@pytest.mark.parametrize("players,options", [(2, {}), (4, {"partners": True, "transfer": True})])
def test_du_13_1_several_card_attacks_follow_the_158_pinned_ids(players, options):
    game = new_game("durak", players=players, seed=0, attack_many=True, **options)
    assert game.num_distinct_actions == 257
    for action_id, label in {**GOLDEN, **MANY_GOLDEN}.items():
        assert game.action_from_id(action_id).label == label
    labels = {game.action_from_id(i).label for i in range(257)}
    assert len(labels) == 257
    assert game.action_from_id(200).cards == ("9S", "9D", "9H")   # 158 + 3 * 11 + 9: S D H
    from cardcore.games.durak import MANY_FIRST
    assert MANY_FIRST == 158
