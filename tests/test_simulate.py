"""cardcore.simulate: seeded runs, the in-core path, workers, summaries and errors."""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import cardcore
from cardcore import ConfigError, new_game
from cardcore.bots import make_bot
from cardcore._fast import seed_to_u64
from cardcore.game import Game
from cardcore.simulation import bot_seed, chooser_seed, game_seed, simulate

TIMING = ("seconds", "games_per_second", "actions_per_second", "workers")


def without_timing(summary):
    return {k: v for k, v in summary.items() if k not in TIMING}


def replay_random(seed, index, players=None, **options):
    """Game ``index`` of an all-random run, played again through new_game + run_random."""
    game = new_game("kings_stakes", players=players, seed=game_seed(seed, index), **options)
    actions = game._state.run_random(chooser_seed(seed, index))
    return game, actions


def test_summary_fields_are_consistent_and_json_serializable():
    s = simulate("kings_stakes", 300, seed=4)
    json.dumps(s)
    assert s["game"] == "kings_stakes" and s["players"] == 4 and s["games"] == 300
    assert s["bots"] == ["random"] * 4 and s["core"] is True
    assert s["options"]["rounds"] == 4
    assert s["win_rate"] == [w / 300 for w in s["wins"]]
    assert sum(s["sole_wins"]) <= 300 <= sum(s["wins"])       # every game has a winner
    assert s["mean_actions"] == s["actions"] / 300
    assert s["mean_turns"] == s["turns"] / 300 and 0 < s["turns"] <= s["actions"]
    assert s["seconds"] > 0 and s["actions_per_second"] > 0
    assert s["by_bot"]["random"]["seats"] == [0, 1, 2, 3]
    assert s["by_bot"]["random"]["mean_score"] == pytest.approx(sum(s["mean_score"]) / 4)


def test_all_random_run_is_the_sum_of_replayed_games():
    s = simulate("kings_stakes", 25, seed=11, players=3)
    wins, score_sum, actions, turns = [0] * 3, [0] * 3, 0, 0
    for i in range(25):
        game, n = replay_random(11, i, players=3)
        actions += n
        turns += game._state.turns
        for seat in game.winners:
            wins[seat] += 1
        score_sum = [a + b for a, b in zip(score_sum, game.scores)]
    assert s["actions"] == actions and s["turns"] == turns and s["wins"] == wins
    assert s["mean_score"] == [x / 25 for x in score_sum]


@pytest.mark.parametrize("name", cardcore.available_games())
def test_every_game_simulates_like_new_game_plus_run_random(name):
    # simulate() deals clones of one fresh state; that must be the game new_game deals.
    s = simulate(name, 3, seed=21)
    actions, wins, scores = 0, [0] * s["players"], [0] * s["players"]
    for i in range(3):
        game = new_game(name, seed=game_seed(21, i))
        actions += game._state.run_random(chooser_seed(21, i))
        assert game.is_over
        for seat in game.winners:
            wins[seat] += 1
        scores = [a + b for a, b in zip(scores, game.scores)]
    assert (s["actions"], s["wins"]) == (actions, wins)
    assert s["mean_score"] == [x / 3 for x in scores]


def test_all_random_runs_entirely_in_the_core(monkeypatch):
    # No Python per action: neither Game.apply nor a Python bot may be called.
    def forbidden(*args, **kwargs):
        raise AssertionError("Python ran per action")

    monkeypatch.setattr(Game, "apply", forbidden)
    monkeypatch.setattr("cardcore.bots.RandomBot.choose_id", forbidden)
    assert simulate("kings_stakes", 50, seed=1)["games"] == 50
    monkeypatch.setattr("cardcore.bots.GreedyBot.choose_id", forbidden)
    # in-core bots (greedy, seeded random, a level without search) play in the core too
    summary = simulate("kings_stakes", 50, bots=("greedy", "random:seed=4", "level:2"), seed=1)
    assert summary["games"] == 50 and summary["core"] is True
    with pytest.raises(AssertionError, match="Python ran per action"):
        simulate("kings_stakes", 1, bots=("ismcts:iterations=5", "random"), seed=1)


def test_python_bot_run_replays_with_the_published_seeds():
    s = simulate("kings_stakes", 6, players=2, bots=("greedy", "random"), seed=3)
    assert s["bots"] == ["greedy", "random"] and s["core"] is True   # in the core, same moves
    actions = 0
    wins = [0, 0]
    for i in range(6):
        game = new_game("kings_stakes", players=2, seed=game_seed(3, i))
        bots = [make_bot("greedy", bot_seed(3, i, 0)), make_bot("random", bot_seed(3, i, 1))]
        while not game.is_over:
            game.apply(bots[game.current_player].choose_id(game))
            actions += 1
        for seat in game.winners:
            wins[seat] += 1
    assert s["actions"] == actions and s["wins"] == wins


def test_same_seed_same_summary_different_seed_different_games():
    a = simulate("kings_stakes", 200, seed=5)
    b = simulate("kings_stakes", 200, seed=5)
    c = simulate("kings_stakes", 200, seed=6)
    assert without_timing(a) == without_timing(b)
    assert a["actions"] != c["actions"]


@pytest.mark.parametrize("bots", [("random",), ("greedy", "random")])
def test_results_do_not_depend_on_workers(bots):
    one = simulate("kings_stakes", 120, bots=bots, seed=8, workers=1)
    two = simulate("kings_stakes", 120, bots=bots, seed=8, workers=2)
    assert two["workers"] == 2
    assert without_timing(one) == without_timing(two)


def test_workers_zero_means_one_per_cpu_and_are_capped_by_games():
    assert simulate("kings_stakes", 1, workers=0)["workers"] == 1
    assert simulate("kings_stakes", 3, workers=8)["workers"] == 3


def test_workers_are_spawn_safe(tmp_path):
    script = tmp_path / "spawned.py"
    script.write_text(textwrap.dedent("""
        import json, multiprocessing
        from cardcore.simulation import simulate
        if __name__ == "__main__":
            multiprocessing.set_start_method("spawn")
            s = simulate("kings_stakes", 40, seed=2, workers=2, bots="greedy,random")
            print(json.dumps([s["workers"], s["actions"], s["wins"]]))
    """))
    src = str(Path(cardcore.__file__).resolve().parents[1])
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=False,
                         timeout=300, env={**__import__("os").environ, "PYTHONPATH": src})
    assert out.returncode == 0, out.stderr
    workers, actions, wins = json.loads(out.stdout)
    same = simulate("kings_stakes", 40, seed=2, bots="greedy,random")
    assert workers == 2 and actions == same["actions"] and wins == same["wins"]


def test_progress_reports_every_game():
    seen = []
    s = simulate("kings_stakes", 1000, seed=1, progress=seen.append)
    assert sum(seen) == 1000 == s["games"] and len(seen) > 1


def test_options_and_players_reach_the_games():
    base = simulate("kings_stakes", 100, seed=1)
    longer = simulate("kings_stakes", 100, seed=1, rounds=8)
    assert longer["options"]["rounds"] == 8
    assert longer["mean_actions"] > 1.5 * base["mean_actions"]
    teams = simulate("kings_stakes", 50, seed=1, teams=True)
    assert teams["mean_score"][0] == teams["mean_score"][2]    # a seat shows its team's score
    assert teams["wins"][0] == teams["wins"][2]
    six = simulate("kings_stakes", 20, players=6, bots="greedy,random")
    assert six["bots"] == ["greedy", "random"] * 3 and len(six["wins"]) == 6


def test_seed_none_draws_a_fresh_seed_and_reports_it():
    a, b = simulate("kings_stakes", 20, seed=None), simulate("kings_stakes", 20, seed=None)
    assert isinstance(a["seed"], int) and a["seed"] != b["seed"]
    assert without_timing(simulate("kings_stakes", 20, seed=a["seed"])) == without_timing(a)


def test_zero_games_is_an_empty_summary():
    s = simulate("kings_stakes", 0)
    assert s["games"] == 0 and s["actions"] == 0 and s["win_rate"] == [0.0] * 4


def test_game_seeds_are_distinct_per_game_and_per_run():
    seeds = {game_seed(s, i) for s in range(20) for i in range(500)}
    assert len(seeds) == 20 * 500
    assert game_seed(1, 2) != chooser_seed(1, 2) != bot_seed(1, 2, 0) != bot_seed(1, 2, 1)
    # A seed wider than 64 bits is folded, its high bits included, into a 64-bit game seed.
    wide = 2**70 + 5
    assert game_seed(wide, 0) == game_seed(seed_to_u64(wide), 0) != game_seed(5, 0)
    assert 0 <= game_seed(wide, 0) < 2**64


@pytest.mark.parametrize("kwargs, option", [
    ({"name": "no_such_game"}, "name"),
    ({"players": 9}, "players"),
    ({"bots": ("random",) * 5}, "bots"),
    ({"bots": "random,minimax"}, "bots"),
    ({"bots": ""}, "bots"),
    ({"games": -1}, "games"),
    ({"games": 2.5}, "games"),
    ({"workers": -2}, "workers"),
    ({"seed": -1}, "seed"),
    ({"rounds": 3}, "rounds"),
    ({"colour": "red"}, "colour"),
])
def test_bad_arguments_are_config_errors_naming_the_option(kwargs, option):
    args = {"name": "kings_stakes", "games": 10, **kwargs}
    name, games = args.pop("name"), args.pop("games")
    with pytest.raises(ConfigError) as info:
        simulate(name, games, **args)
    assert info.value.option == option


def test_cardcore_simulate_is_callable_from_the_package():
    import cardcore
    import cardcore.simulation  # noqa: F401  (importing the module must not shadow the function)
    assert cardcore.simulate("kings_stakes", 3)["games"] == 3
    from cardcore import simulate as top_level
    assert top_level("kings_stakes", 2, seed=1)["games"] == 2
