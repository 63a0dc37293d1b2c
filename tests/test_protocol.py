"""The protocol details of api.md that the generic conformance suite does not pin."""
from __future__ import annotations

import json

import numpy as np
import pytest

import cardcore
from cardcore import IllegalActionError, load_game, new_game

COMMON_VIEW_KEYS = {"game", "player", "current_player", "phase", "hand", "hand_sizes", "scores",
                    "legal_actions", "zones"}


def game_view_keys(name: str) -> set[str]:
    """The game's own view keys: those its view schema requires (``cardcore schema GAME
    view``, the typed list docs/api.md points to), declared by the game, not listed here."""
    return set(cardcore.schema(name, "view")["required"]) - COMMON_VIEW_KEYS


@pytest.mark.parametrize("name", cardcore.available_games())
def test_views_have_the_keys_of_api_md(name):
    game = new_game(name, seed=1)
    for seat in range(game.num_players):
        view = game.view(seat)
        assert COMMON_VIEW_KEYS | game_view_keys(name) <= set(view)
        assert view["game"] == name and view["player"] == seat
        assert view["hand"] == sorted(view["hand"], key=lambda c: cardcore.parse_card(c))
    for bad in (-1, game.num_players, "0", True):
        with pytest.raises(ValueError):
            game.view(bad)
    assert game.view(None)["player"] is None              # None: the spectator's view


@pytest.mark.parametrize("name", cardcore.available_games())
def test_options_are_resolved_and_default_players(name):
    game = new_game(name, seed=1)
    assert game.num_players == type(game).default_players
    assert set(game.options) == set(type(game).options_spec)
    json.dumps(game.options)


def test_history_records_actions_and_round_ends():
    game = new_game("kings_stakes", players=2, seed=4, rounds=2)
    played = []
    while not game.is_over:
        action = game.legal_actions()[-1]
        played.append((action.player, str(action)))
        game.apply(action)
    history = game.history
    assert [(e["player"], e["action"]) for e in history if e["event"] == "action"] == played
    ends = [e for e in history if e["event"] == "round_end"]
    assert [e["round"] for e in ends] == [1, 2]
    assert game.view(0)["chip_holder"] is None            # refill="auto": no chip
    assert [sum(x) for x in zip(*(e["round_scores"] for e in ends))] == game.scores
    assert ends[-1]["scores"] == game.scores
    json.dumps(history)
    assert game.history == history                        # cached, not rebuilt differently


def test_seed_none_is_recorded_and_reproducible():
    game = new_game("kings_stakes")
    assert isinstance(game.seed, int)
    again = new_game("kings_stakes", seed=game.seed)
    assert again.view(0) == game.view(0)
    assert json.loads(game.to_json())["seed"] == game.seed


def test_stacked_deck_is_saved_and_later_rounds_shuffle():
    deck = [cardcore.cards.card_str(c) for c in range(52)] + ["JK", "JK"]
    game = new_game("kings_stakes", deck=deck, seed=3, first_player=0)
    assert game.view(0)["hand"] == ["AC", "5C", "9C", "KC"]   # 0, 4, 8, 12 dealt to seat 0
    copy = load_game(game.to_json())
    assert copy.view(0) == game.view(0)
    assert json.loads(game.to_json())["deck"] == deck


def test_action_from_id_and_int_like_inputs():
    game = new_game("kings_stakes", seed=2)
    with pytest.raises(IllegalActionError):
        game.action_from_id(320)
    with pytest.raises(IllegalActionError):
        game.action_from_id("1")            # type: ignore[arg-type]
    first = game.legal_action_ids()[0]
    game.apply(np.int64(first))
    assert game.history[0]["id"] == first
    assert game.legal_action_mask().sum() == len(game.legal_action_ids())


def test_apply_of_a_stale_action_object_is_refused():
    game = new_game("kings_stakes", seed=2)
    action = game.legal_actions()[0]
    game.apply(action)
    before = game.to_json()
    with pytest.raises(IllegalActionError):
        game.apply(action)                  # it was for the previous player
    assert game.to_json() == before


def test_a_configuration_met_before_is_checked_the_same():
    """new_game remembers configurations (options checked, decode table built): a value that
    equals a remembered one but has another type is still checked, and so is one that cannot
    be remembered (unhashable); the options are each game's own copy."""
    import cardcore
    for name in cardcore.available_games():
        cls = cardcore.registry.game_class(name)
        flag = next((k for k, o in cls.options_spec.items() if isinstance(o.default, bool)), None)
        if flag is None:
            continue
        good = new_game(name, seed=1, **{flag: True}).options
        with pytest.raises(cardcore.ConfigError, match=flag):
            new_game(name, seed=1, **{flag: 1})             # True == 1, but not an option value
        with pytest.raises(cardcore.ConfigError, match=flag):
            new_game(name, seed=1, **{flag: [True]})
        again = new_game(name, seed=1, **{flag: True})
        assert again.options == good and again.options is not good
        again.options[flag] = "changed"
        assert new_game(name, seed=1, **{flag: True}).options == good
