"""Difficulty levels, hints and the in-core bots (issue 22; api.md "Bots")."""
from __future__ import annotations

import time

import numpy as np
import pytest

import cardcore
from cardcore import new_game
from cardcore.bots import (GreedyBot, ISMCTSBot, LevelBot, RandomBot, make_bot,
                           parse_bot_spec)
from cardcore.errors import ConfigError
from cardcore.registry import game_class
from cardcore.simulation import simulate
import cardcore.simulation as simulation

from invariants import hidden_twin

GAMES = cardcore.available_games()


# ---------------------------------------------------------------- levels
@pytest.mark.parametrize("name", GAMES)
def test_every_game_has_five_levels_of_known_bots(name):
    levels = game_class(name).levels
    assert sorted(levels) == [1, 2, 3, 4, 5]
    for level, spec in levels.items():
        parse_bot_spec(spec)                       # a valid spec of a built-in bot
        make_bot(f"level:{level}", 1).check_game(name)


@pytest.mark.parametrize("text, canonical", [
    ("level:3", "level:3"), (" LEVEL:5 ", "level:5"), ("level:1,seed=4", "level:1,seed=4"),
    ("level:seed=4,level=2", "level:2,seed=4"),
])
def test_a_level_spec_reads_and_prints_as_documented(text, canonical):
    spec = parse_bot_spec(text)
    assert str(spec) == canonical and parse_bot_spec(str(spec)) == spec
    assert isinstance(spec.make(), LevelBot)


@pytest.mark.parametrize("text", ["level", "level:0", "level:6", "level:x", "level:2.5",
                                  "level:true", "level:3,level=4"])
def test_a_bad_level_is_refused_with_the_option_named(text):
    with pytest.raises(ConfigError) as info:
        parse_bot_spec(text)
    assert info.value.option == "bots" and len(str(info.value)) < 200
    for bad in (0, 6, "3", 2.0, True, None):
        with pytest.raises(ConfigError) as direct:
            LevelBot(bad)
        assert direct.value.option == "level"


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("level", [1, 2, 3])
def test_a_level_plays_exactly_its_spec_with_the_same_seed(name, level):
    """level:N seeded s makes the moves of the game's level-N spec seeded s, reseeds too."""
    spec = game_class(name).levels[level]
    for seed in (1, 2):
        a, b = new_game(name, seed=seed), new_game(name, seed=seed)
        lb, sb = make_bot(f"level:{level}", 0), make_bot(spec, 0)
        lb.reseed(seed)
        sb.reseed(seed)
        moves = 0
        while not a.is_over and moves < 400:
            x, y = lb.choose_id(a), sb.choose_id(b)
            assert x == y
            a.apply(x)
            b.apply(y)
            moves += 1


# ---------------------------------------------------------------- bot parameters
@pytest.mark.parametrize("make, option", [
    (lambda: GreedyBot(epsilon=-0.1), "epsilon"), (lambda: GreedyBot(epsilon=1.5), "epsilon"),
    (lambda: GreedyBot(epsilon="x" * 500), "epsilon"), (lambda: GreedyBot(epsilon=True), "epsilon"),
    (lambda: ISMCTSBot(iterations=0), "iterations"), (lambda: ISMCTSBot(think_ms=0), "think_ms"),
    (lambda: ISMCTSBot(exploration=-1), "exploration"), (lambda: ISMCTSBot(horizon="x"), "horizon"),
    (lambda: ISMCTSBot(rollout="x" * 500), "rollout"), (lambda: ISMCTSBot(prior=-1), "prior"),
    (lambda: ISMCTSBot(reward="score"), "reward"), (lambda: LevelBot(9), "level"),
    (lambda: RandomBot(seed=-1), "seed"), (lambda: GreedyBot(seed="x"), "seed"),
])
def test_every_bot_parameter_is_checked_with_its_name(make, option):
    with pytest.raises(ConfigError) as info:
        make()
    assert info.value.option == option
    assert option in str(info.value) and len(str(info.value)) <= 60 + 80


# ---------------------------------------------------------------- in-core runs
@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("bots", [("random:seed=3", "random"), ("greedy", "random"),
                                  ("greedy:epsilon=0.3", "greedy"), ("level:2", "level:1")])
def test_in_core_runs_equal_the_python_loop(name, bots, monkeypatch):
    """simulate with in-core bots plays the games the Python loop plays, move for move."""
    players = game_class(name).min_players
    core = simulate(name, 60, players=players, bots=bots, seed=7)
    monkeypatch.setattr(simulation, "core_policies", lambda seats, template: None)
    loop = simulate(name, 60, players=players, bots=bots, seed=7)
    for key in ("games", "actions", "turns", "wins", "sole_wins", "mean_score"):
        assert core[key] == loop[key], key


def test_an_in_core_run_checks_its_policies():
    from cardcore._batch import play_policy_games
    game = new_game("kings_stakes", players=2, seed=0)
    out = (np.zeros((1, 2), np.int32), np.zeros((1, 2), np.uint8), np.zeros(1, np.int64),
           np.zeros(1, np.int64))
    for kinds, thresholds, streams in (([0], [0], [0]), ([5, 0], [0, 0], [0, 0]),
                                       ([1, 0], [1 << 17, 0], [0, 0])):
        with pytest.raises(ValueError):
            play_policy_games(game._make_state(None), 0, 0, 1, kinds, thresholds, streams,
                              1000, *out)
    with pytest.raises(ValueError):                       # too few rows
        play_policy_games(game._make_state(None), 0, 0, 2, [0, 0], [0, 0], [0, 0], 1000, *out)
    with pytest.raises(RuntimeError, match="past 3 actions"):
        play_policy_games(game._make_state(None), 0, 0, 1, [0, 0], [0, 0], [0, 0], 3, *out)


# ---------------------------------------------------------------- hints
@pytest.mark.parametrize("name", GAMES)
def test_suggest_gives_the_best_moves_with_estimates(name):
    game = new_game(name, seed=5)
    while len(game.legal_action_ids()) < 3:
        game.apply(game.legal_action_ids()[0])
    bot = ISMCTSBot(iterations=300, seed=2)
    hints = bot.suggest(game, top=3)
    assert 1 <= len(hints) <= 3
    legal = set(game.legal_action_ids())
    assert all(h["action"].id in legal and 0.0 <= h["estimate"] <= 1.0 for h in hints)
    visits = [h["visits"] for h in hints]
    assert visits == sorted(visits, reverse=True) and sum(visits) <= 300
    # the bot would play the first hint (same seed, same search)
    assert ISMCTSBot(iterations=300, seed=2).choose_id(game) == hints[0]["action"].id
    # a level bot hints from its search; a beginner's level hints with level 5's search
    assert make_bot("level:4", 3).suggest(game, top=1)[0]["action"].id in legal
    assert make_bot("level:1", 3).suggest(game, top=2)[0]["action"].id in legal


def test_suggest_refuses_what_it_cannot_answer():
    game = new_game("kings_stakes", players=2, seed=5)
    bot = ISMCTSBot(iterations=50, seed=1)
    with pytest.raises(ValueError, match="seat to move"):
        bot.suggest(game, seat=1 - game.current_player)
    for bad in (0, -1, 1001, 2.5, True, "3"):
        with pytest.raises(ConfigError) as info:
            bot.suggest(game, top=bad)
        assert info.value.option == "top"
    for plain in (RandomBot(1), GreedyBot(1)):
        with pytest.raises(ConfigError, match="level:5"):
            plain.suggest(game)
    while not game.is_over:
        game.apply(game.legal_action_ids()[0])
    with pytest.raises(ValueError, match="over"):
        bot.suggest(game)


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_suggest_is_the_same_when_only_hidden_cards_differ(name):
    """Hints use the seat's information only: deals that differ only in cards hidden from the
    seat give the same suggestions for the same seed."""
    for trial in range(2):
        game, other, seat = hidden_twin(name, 4, trial)
        assert other.view(seat) == game.view(seat) and other.state.all_cards() != game.state.all_cards()
        a = make_bot("ismcts:iterations=200", trial).suggest(game, top=5)
        b = make_bot("ismcts:iterations=200", trial).suggest(other, top=5)
        assert [(h["action"].id, h["visits"], h["estimate"]) for h in a] == \
            [(h["action"].id, h["visits"], h["estimate"]) for h in b]


# ---------------------------------------------------------------- think budgets, rewards
@pytest.mark.slow
def test_think_ms_is_honoured_within_ten_percent_plus_5_ms():
    """The budget as the issue states it (10 % + 5 ms), best of three to allow for a busy CI."""
    game = new_game("kuzanasta", players=2, seed=4)
    while len(game.legal_action_ids()) < 2:
        game.apply(game.legal_action_ids()[0])
    for budget in (20, 200):
        best = min(_timed(ISMCTSBot(think_ms=budget, seed=k), game) for k in range(3))
        assert best <= budget * 1.10 + 5, (budget, best)
        assert best >= budget * 0.9, (budget, best)


def _timed(bot, game) -> float:
    started = time.perf_counter()
    bot.choose_id(game)
    return (time.perf_counter() - started) * 1000


def test_the_points_reward_is_selectable_and_checked():
    from cardcore._search import ismcts_search
    game = new_game("kuzanasta", players=2, seed=4)
    seat = game.current_player
    a = ismcts_search(game.state, seat, 200, 1, horizon="round", reward="points",
                      points_scale=10_000.0)
    assert sum(v for _, v, _ in a) == 200 and all(0 <= share <= 1 for _, _, share in a)
    for bad in ({"reward": "score"}, {"reward": "points"}, {"reward": "points", "points_scale": -1.0}):
        with pytest.raises(ValueError):
            ismcts_search(game.state, seat, 10, 1, **bad)
    assert game_class("kuzanasta").search_reward in ("win", "points")


def test_the_ladder_tables_are_current():
    """Each game's calibrated table (its package's levels.md, benchmarks/calibrate_levels.py,
    which docs/bots.md shows) gives its levels as they are defined now: a changed level
    without a new calibration fails here. docs/bots.md keeps no table of its own."""
    import inspect
    from pathlib import Path
    for name in GAMES:
        cls = game_class(name)
        section = Path(inspect.getfile(cls)).with_name("levels.md").read_text(encoding="utf-8")
        assert section.startswith(f"<!-- {cls.title}'s calibrated levels"), name
        assert section.split("\n")[2].startswith(f"{cls.short_match.what};"), name
        for level, spec in cls.levels.items():
            assert f"| {level} | `{spec}` |" in section, (name, level, spec)
    docs = (Path(__file__).resolve().parents[1] / "docs" / "bots.md").read_text(encoding="utf-8")
    assert "<!-- levels: each game's ladder" in docs and "| 1 | `random` |" not in docs


def test_a_subclass_with_its_own_moves_is_not_played_in_the_core():
    class Cautious(GreedyBot):
        def choose_id(self, game):
            return int(game.legal_action_ids()[0])

    class Lowest(RandomBot):
        def choose_id(self, game):
            return int(game.legal_action_ids()[0])

    game = new_game("kings_stakes", players=2, seed=1)
    assert Cautious(1).core_policy(game) is None and Lowest(1).core_policy(game) is None
    assert GreedyBot(1).core_policy(game) is not None and RandomBot(1).core_policy(game) is not None
