"""Round-robin tournaments: seatings, tallies, ratings, tables, plots and `cardcore tournament`.
(The same tournament on Dask, Ray and process pools: tests/test_executors.py.)"""
from __future__ import annotations

import json
import math
import re
from collections import Counter

import pytest
from rich.console import Console

from cardcore import ConfigError, new_game
from cardcore.bots import make_bot
from cardcore.cli import main
from cardcore.simulation import bot_seed, game_seed
from cardcore.tournament import (ELO_MEAN, TIMING, bradley_terry, planned_games,
                                 plot_tournament, seatings, standings_table, tournament,
                                 wilson_interval)


def without_timing(result):
    return {k: v for k, v in result.items() if k not in TIMING}


def rendered(table):
    console = Console(width=160, record=True, file=open("/dev/null", "w"))
    console.print(table)
    return console.export_text()


# ---------------------------------------------------------------- seatings
@pytest.mark.parametrize("bots, seats, count", [
    (2, 2, 2), (3, 2, 6), (2, 4, 14), (3, 4, 36), (4, 4, 24), (5, 3, 60), (2, 6, 62),
])
def test_every_bot_sits_in_every_seat_equally(bots, seats, count):
    plan = seatings(bots, seats)
    assert len(plan) == count == len(set(plan))
    assert all(len(set(s)) == min(bots, seats) for s in plan)
    for seat in range(seats):
        held = Counter(s[seat] for s in plan)
        assert set(held) == set(range(bots)) and len(set(held.values())) == 1


def test_every_pair_meets_in_both_orders_in_two_player_games():
    plan = seatings(3, 2)
    assert sorted(plan) == [(0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1)]


def test_seatings_refuse_one_bot_and_too_many_seatings():
    with pytest.raises(ConfigError, match="at least two different bots"):
        seatings(1, 4)
    with pytest.raises(ConfigError, match="seatings"):
        seatings(12, 6)


# ---------------------------------------------------------------- statistics
def test_wilson_interval_known_values():
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = wilson_interval(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    assert wilson_interval(0, 0) == (0.0, 1.0)
    for trials in range(1, 200):                        # p itself is always inside
        for wins in (0, 1, trials // 3, trials - 1, trials):
            lo, hi = wilson_interval(wins, trials)
            assert 0.0 <= lo <= wins / trials <= hi <= 1.0


def test_bradley_terry_two_bots_is_the_log_odds_with_one_virtual_draw():
    # 70 wins, 20 losses, 10 draws: 75 points of 100, + one virtual draw: 75.5 of 101
    theta, errors = bradley_terry([[0, 150], [50, 0]], [[0, 100], [100, 0]])
    assert theta[0] - theta[1] == pytest.approx(math.log(75.5 / 25.5), abs=1e-9)
    assert theta[0] + theta[1] == pytest.approx(0.0, abs=1e-12)
    p = 75.5 / 101                                   # Fisher information of the difference
    assert errors[0] == pytest.approx(0.5 / math.sqrt(101 * p * (1 - p)), rel=1e-6)


def test_bradley_terry_never_losing_stays_finite_and_orders_three_bots():
    points = [[0, 200, 200], [0, 0, 120], [0, 80, 0]]
    meets = [[0, 100, 100], [100, 0, 100], [100, 100, 0]]
    theta, errors = bradley_terry(points, meets)
    assert theta[0] > theta[1] > theta[2] and all(math.isfinite(t) for t in theta)
    assert all(e > 0 for e in errors)


# ---------------------------------------------------------------- the tournament
@pytest.fixture(scope="module")
def three_way():
    return tournament("kings_stakes", 200, bots="greedy,random,random:seed=3", seed=5)


def test_tallies_add_up(three_way):
    r = three_way
    assert r["bots"] == ["greedy", "random", "random:seed=3"]
    assert len(r["seatings"]) == 36 and r["games_per_seating"] == 6 and r["games"] == 216
    assert planned_games("kings_stakes", 200, bots="greedy,random,random:seed=3") == 216
    rows = r["standings"]
    assert sum(row["seat_games"] for row in rows) == 216 * 4
    assert len({row["seat_games"] for row in rows}) == 1            # every bot equally
    for row in rows:
        assert sum(c for _, c in row["scores"]) == row["seat_games"]
        assert row["sole_wins"] <= row["wins"] <= row["seat_games"]
        lo, hi = row["win_rate_ci"]
        assert lo <= row["win_rate"] <= hi
        lo, hi = row["rating_ci"]
        assert lo < row["rating"] < hi
    assert sum(row["rating"] for row in rows) / 3 == pytest.approx(ELO_MEAN)
    points, meets = r["pairwise"]["points"], r["pairwise"]["meetings"]
    for i in range(3):
        for j in range(3):
            assert points[i][j] + points[j][i] == meets[i][j] == meets[j][i]
    json.dumps(r)


def test_greedy_rates_clearly_above_random(three_way):
    greedy, random_a, random_b = three_way["standings"]
    assert greedy["rating_ci"][0] > max(random_a["rating_ci"][1], random_b["rating_ci"][1])
    assert greedy["win_rate_ci"][0] > 3 * random_a["win_rate_ci"][1]
    assert greedy["mean_score"] < random_a["mean_score"]        # penalty points: fewer is better


def test_two_player_tournament_replays_with_the_documented_seeds():
    r = tournament("kings_stakes", 10, bots="greedy,random", players=2, seed=9)
    assert r["seatings"] == [["greedy", "random"], ["random", "greedy"]]
    wins = {"greedy": 0, "random": 0}
    for seating in r["seatings"]:
        for i in range(r["games_per_seating"]):      # every seating plays the same deals
            game = new_game("kings_stakes", players=2, seed=game_seed(9, i))
            bots = [make_bot(spec, bot_seed(9, i, k)) for k, spec in enumerate(seating)]
            while not game.is_over:
                game.apply(bots[game.current_player].choose_id(game))
            for seat in game.winners:
                wins[seating[seat]] += 1
    assert {row["bot"]: row["wins"] for row in r["standings"]} == wins


def test_chunking_and_local_workers_change_nothing(three_way):
    for kwargs in ({"chunk_size": 1}, {"chunk_size": 5, "workers": 2}):
        again = tournament("kings_stakes", 200, bots="greedy,random,random:seed=3", seed=5,
                           **kwargs)
        assert without_timing(again) == without_timing(three_way)


def test_seed_changes_the_games(three_way):
    other = tournament("kings_stakes", 200, bots="greedy,random,random:seed=3", seed=6)
    assert other["standings"] != three_way["standings"]


def test_progress_counts_every_game():
    seen = []
    r = tournament("kings_stakes", 30, bots="greedy,random", players=3, progress=seen.append)
    assert sum(seen) == r["games"] == 30 and len(seen) > 1


@pytest.mark.parametrize("kwargs, option, message", [
    ({"bots": "greedy"}, "bots", "at least two different bots"),
    ({"bots": "greedy,greedy"}, "bots", "given twice"),
    ({"bots": "greedy,minimax"}, "bots", "unknown bot"),
    ({"bots": "greedy,random:depth=2"}, "bots", "no parameter 'depth'"),
    ({"bots": "greedy,random", "games": 0}, "games", "positive"),
    ({"bots": "greedy,random", "players": 9}, "players", ""),
    ({"bots": "greedy,random", "chunk_size": 0}, "chunk_size", "positive"),
    ({"bots": "greedy,random", "executor": "spark"}, "executor", "executor must be"),
    ({"bots": "greedy,random", "rounds": 3}, "rounds", ""),
])
def test_bad_arguments_are_config_errors(kwargs, option, message):
    kwargs = {"games": 10, **kwargs}
    with pytest.raises(ConfigError) as info:
        tournament("kings_stakes", kwargs.pop("games"), **kwargs)
    assert info.value.option == option and message in str(info.value)


# ---------------------------------------------------------------- table and plots
def test_standings_table_ranks_by_rating(three_way):
    text = rendered(standings_table(three_way))
    assert text.index("greedy") < text.index("random")
    assert "216 games, 36 seatings × 6" in text and "[" in text


def test_plots_are_written_and_reproducible(three_way, tmp_path):
    first = plot_tournament(three_way, tmp_path / "a")
    second = plot_tournament(three_way, tmp_path / "b")
    assert [p.name for p in first] == ["tournament.png", "tournament.svg"]
    assert first[0].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    svg = first[1].read_text(encoding="utf-8")
    assert "<svg" in svg and "random:seed=3" in svg and "rating" in svg
    assert first[1].read_bytes() == second[1].read_bytes()        # no date, fixed ids
    assert first[0].read_bytes() == second[0].read_bytes()


def test_plots_of_a_bot_that_always_or_never_wins(tmp_path):
    # 2-player kuzanasta: greedy wins every game here, random none (win rates 1.0 and 0.0)
    r = tournament("kuzanasta", 10, bots="greedy,random", players=2, seed=1)
    assert [row["win_rate"] for row in r["standings"]] == [1.0, 0.0]
    assert all(p.stat().st_size > 0 for p in plot_tournament(r, tmp_path))


def test_plots_without_matplotlib_are_a_config_error(three_way, tmp_path, monkeypatch):
    import sys
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    from cardcore.extras import install_hint
    with pytest.raises(ConfigError, match=re.escape(install_hint("plot"))):
        plot_tournament(three_way, tmp_path)
    code = main(["tournament", "kings_stakes", "--bots", "greedy,random", "-n", "4",
                 "--out", str(tmp_path)])
    assert code == 2 and not any(tmp_path.iterdir())           # refused before playing


# ---------------------------------------------------------------- the command
def test_cli_tournament_table_plots_and_json(capsys, tmp_path):
    out_dir = tmp_path / "out"
    code = main(["tournament", "kings_stakes", "--bots", "greedy,random", "-n", "40",
                 "--players", "3", "--seed", "2", "--out", str(out_dir)])
    out = capsys.readouterr().out
    assert code == 0
    assert "kings_stakes tournament: 42 games, 6 seatings × 7, 3 players, seed 2" in out
    assert "head to head" in out and "one process, 1 worker" in out
    assert sorted(p.name for p in out_dir.iterdir()) == \
        ["tournament.json", "tournament.png", "tournament.svg"]
    saved = json.loads((out_dir / "tournament.json").read_text(encoding="utf-8"))
    code = main(["tournament", "kings_stakes", "--bots", "greedy,random", "-n", "40",
                 "--players", "3", "--seed", "2", "--json", "--workers", "2"])
    printed = json.loads(capsys.readouterr().out)
    assert code == 0 and without_timing(printed) == without_timing(saved)
    assert without_timing(printed) == without_timing(
        tournament("kings_stakes", 40, bots="greedy,random", players=3, seed=2))


@pytest.mark.parametrize("args, message", [
    (["--bots", "greedy"], "at least two different bots"),
    (["--bots", "greedy,random:x=1"], "no parameter 'x'"),
    (["--bots", "greedy,random", "-n", "0"], "games must be a positive int"),
    (["--bots", "greedy,random", "--chunk-size", "-1"], "chunk_size"),
    (["--bots", "greedy,random", "--dask", "nonsense://nowhere"], "Dask scheduler"),
])
def test_cli_tournament_bad_arguments_exit_2(args, message, capsys):
    assert main(["tournament", "kings_stakes", *args]) == 2
    assert message in capsys.readouterr().err


def test_cli_tournament_out_must_be_a_directory(capsys, tmp_path):
    taken = tmp_path / "a_file"
    taken.write_text("x")
    assert main(["tournament", "kings_stakes", "--bots", "greedy,random", "-n", "4",
                 "--out", str(taken)]) == 2
    assert "cannot write plots to" in capsys.readouterr().err


def test_cli_tournament_needs_bots_and_one_place_to_run(capsys):
    with pytest.raises(SystemExit) as info:
        main(["tournament", "kings_stakes"])
    assert info.value.code == 2 and "--bots" in capsys.readouterr().err
    with pytest.raises(SystemExit) as info:
        main(["tournament", "kings_stakes", "--bots", "greedy,random", "--dask", "x",
              "--ray", "auto"])
    assert info.value.code == 2 and "not allowed with" in capsys.readouterr().err
