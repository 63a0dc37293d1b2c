"""Refusals decided in C (issue 45): every game's kernel says why an id is not legal now (a
reason, the rule ID, the template's fields), and the words stay in Python (``words.REFUSALS``,
filled by ``cardcore.refusals``). The messages were pinned byte for byte against the Python
explain_rule they replaced by ``benchmarks/refusal_digest.py``; these tests hold the parts
together."""
from __future__ import annotations

import importlib

import numpy as np
import pytest

from cardcore import new_game
from cardcore.i18n import fields_of
from cardcore.refusals import Refusal, field_text, refusal_text
from cardcore.registry import available_games

GAMES = sorted(available_games())


def _words(name: str):
    return importlib.import_module(f"cardcore.games.{name}.words")


@pytest.mark.parametrize("name", GAMES)
def test_every_game_refuses_in_c_by_its_words(name):
    state = new_game(name, seed=1)._state
    assert state.num_refusals == len(_words(name).REFUSALS) > 0
    assert state.refusals == _words(name).REFUSALS


@pytest.mark.parametrize("name", GAMES)
def test_explain_rule_is_the_refusal_filled(name):
    """In random play, the first three illegal ids of every step: the refusal's reason, rule
    and fields give exactly explain_illegal's (message, rule); a legal id has none."""
    game = new_game(name, seed=3)
    state = game._state
    rng = np.random.default_rng(5)
    reasons = set()
    steps = 0
    while not game.is_over and steps < 400:
        legal = game.legal_action_ids()
        illegal = [a for a in range(state.num_actions) if a not in set(legal)][:3]
        for a in illegal:
            found = state.refusal(a)
            assert isinstance(found, Refusal)
            template = state.refusals[found.reason]
            assert len(found.args) == len(dict.fromkeys(fields_of(template)))
            assert state.explain_illegal(a) == (refusal_text(template, found.args), found.rule)
            assert found.rule.startswith(game.rule_prefix + "-")
            reasons.add(found.reason)
        assert state.refusal(legal[0]) is None
        game.apply(legal[int(rng.integers(len(legal)))])
        steps += 1
    assert len(reasons) >= 2


def test_no_refusal_out_of_range_or_once_over():
    game = new_game("durak", seed=2)
    state = game._state
    for bad in (-1, state.num_actions, True, "7", None):
        assert state.refusal(bad) is None
    state.run_random(4)
    assert state.is_over and state.refusal(0) is None
    assert state.explain_illegal(0) == ("the match is over", state.match_end_rule)


def test_DU_4_3_a_refusal_carries_the_cards_as_ids():
    """The defender's card that does not beat the attacking one: reason, rule and both cards."""
    game = new_game("durak", seed=11)
    state = game._state
    while state.phase != 1:                     # DU_PH_DEFEND
        game.apply(game.legal_action_ids()[0])
    legal = set(game.legal_action_ids())
    hand = state.hand(state.current_player)
    beat_first = 52
    ids = [beat_first + c for c in hand if beat_first + c not in legal]
    assert ids
    found = state.refusal(ids[0])
    attacking = next(a for a, cover in state.bout() if cover is None)
    assert found == Refusal(11, "DU-4.3", (ids[0] - beat_first, attacking))
    assert state.explain_illegal(ids[0])[0] == (
        f"{field_text('card', ids[0] - beat_first)} does not beat {field_text('target', attacking)}")


def test_fields_follow_the_english_template_whatever_the_translation_order():
    template = "{card} matches neither the suit {suit} nor the rank of {top}"
    args = (12, 3, 51)                           # KC, hearts, KH
    assert refusal_text(template, args) == "KC matches neither the suit H nor the rank of KH"
    assert refusal_text(template, args, "{top} / {suit} / {card}") == "KH / H / KC"
    assert field_text("count", 7) == "7" and field_text("target", 52) == "JK"
    with pytest.raises(ValueError, match="fields"):
        refusal_text(template, (1, 2))



def test_explain_rule_never_asks_the_kernel_about_an_id_out_of_range_or_a_finished_match():
    # The refuse hooks index tables by id and the hand by the seat to move: both guarded.
    for name in available_games():
        game = new_game(name, seed=1)
        before = game.to_json()
        assert game.state.explain_rule(10**6)[1] is None
        assert game.state.explain_rule(-1)[1] is None
        assert game.to_json() == before
        while not game.is_over:
            game.apply(game.legal_action_ids()[0])
        assert game.state.explain_rule(0) == ("the match is over", game.state.match_end_rule)
