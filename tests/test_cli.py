"""The `cardcore` command: play (scripted stdin), simulate, rules, games, bench."""
from __future__ import annotations

import re

import io
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

import cardcore
from cardcore.cards import with_suit_symbols
from cardcore.cli import main

SRC = str(Path(cardcore.__file__).resolve().parents[1])


def run_cli(args, stdin="", timeout=300, **env_extra):
    """`python -m cardcore ARGS` in a subprocess with piped stdin, as a shell pipe would."""
    env = {**os.environ, "PYTHONPATH": SRC, "COLUMNS": "100", **env_extra}
    return subprocess.run([sys.executable, "-m", "cardcore", *args], input=stdin,
                          capture_output=True, text=True, timeout=timeout, env=env,
                          check=False)


def run_main(args, capsys, monkeypatch, stdin=""):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


# ---------------------------------------------------------------- play
def test_play_a_whole_match_from_piped_input():
    out = run_cli(["play", "kings_stakes", "--players", "3", "--seed", "4"], "1\n" * 400)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    text = out.stdout
    assert "seed 4; you are player 1" in text
    assert "Your hand:" in text and "Table:" in text and "stake" in text
    assert "1) " in text                                  # numbered legal moves
    assert "Round 1 is over: " in text and "match over" in text
    assert ("You win!" in text) or ("You lose." in text) or ("You share the win." in text)


def test_output_to_a_narrow_encoding_does_not_fail():
    # A Windows pipe is cp1252: cards, arrows and the rulebook's dashes must not crash.
    for args in (["play", "kings_stakes", "--seed", "4"], ["rules", "kings_stakes"],
                 ["simulate", "kings_stakes", "-n", "20"]):
        out = run_cli(args, "1\n" * 400, PYTHONIOENCODING="ascii")
        assert out.returncode == 0, out.stderr
        assert "Traceback" not in out.stderr


def test_play_same_seed_same_game():
    a = run_cli(["play", "kings_stakes", "--seed", "8", "--seat", "2"], "1\n" * 400)
    b = run_cli(["play", "kings_stakes", "--seed", "8", "--seat", "2"], "1\n" * 400)
    assert a.returncode == b.returncode == 0
    assert a.stdout == b.stdout and "you are player 3" in a.stdout


def test_play_bad_input_reprompts_and_a_written_move_is_accepted(capsys, monkeypatch):
    # Seat 0 leads first (first_player=0): a number, a wrong number, junk, then a move by name.
    script = "abc\n999\n0\n\nh\ns\nplay zz\n"
    code, out, _ = run_main(["play", "kings_stakes", "--seed", "1", "-o", "first_player=0"],
                            capsys, monkeypatch, script + "1\n" * 400)
    assert code == 0
    out = " ".join(out.split())                               # the console wraps lines
    assert "'abc' is not a move: type 1-4, a move like 'play " in out
    assert "There is no move '999': type 1-4, a move like 'play " in out
    assert "There is no move '0': type 1-4, a move like 'play " in out
    assert "'play zz' is not a move: type 1-4" in out
    assert "Type the number of a move" in out               # help
    assert out.count("your turn (player 1)") >= 2              # 's' shows the table again
    assert "match over" in out


def test_play_accepts_a_move_written_out(capsys, monkeypatch):
    from cardcore import new_game
    game = new_game("kings_stakes", seed=1, first_player=0)
    move = str(game.legal_actions()[-1]).lower()
    code, out, _ = run_main(["play", "kings_stakes", "--seed", "1", "-o", "first_player=0"],
                            capsys, monkeypatch, move + "\nq\n")
    assert code == 0
    assert "You played " + with_suit_symbols(" ".join(game.legal_actions()[-1].cards)) in out
    assert "You left the game." in out


def test_play_ends_cleanly_on_end_of_input():
    out = run_cli(["play", "kings_stakes", "--seed", "2", "-o", "first_player=0"], "")
    assert out.returncode == 0 and "Traceback" not in out.stderr
    assert "Input ended; leaving the game." in out.stdout


def test_play_quit(capsys, monkeypatch):
    code, out, _ = run_main(["play", "kings_stakes", "--seed", "2", "-o", "first_player=0"],
                            capsys, monkeypatch, "quit\n")
    assert code == 0 and "You left the game." in out


def test_play_against_random_bots_with_options(capsys, monkeypatch):
    code, out, _ = run_main(["play", "kings_stakes", "--players", "2", "--bots", "random",
                             "--seed", "5", "-o", "refill=manual"], capsys, monkeypatch,
                            "1\n" * 600)
    assert code == 0
    assert "player 2 (random)" in out and "refill: manual" in out and "match over" in out


def test_play_with_a_bot_per_seat(capsys, monkeypatch):
    code, out, _ = run_main(["play", "kings_stakes", "--seat", "1", "--bots", "greedy,random",
                             "--seed", "5"], capsys, monkeypatch, "1\n" * 400)
    assert code == 0
    assert "player 1 (greedy)" in out and "player 3 (random)" in out and "player 4 (greedy)" in out
    code, _, err = run_main(["play", "kings_stakes", "--bots", "greedy,minimax"], capsys,
                            monkeypatch)
    assert code == 2 and "unknown bot 'minimax'" in err


@pytest.mark.parametrize("args, message", [
    (["play", "kings_stakes", "--players", "9"], "2 to 6 players"),
    (["play", "kings_stakes", "--seat", "4"], "--seat must be 0..3"),
    (["play", "no_such_game"], "unknown game"),
    (["play", "kings_stakes", "-o", "teams=maybe"], "teams"),
    (["play", "kings_stakes", "-o", "rounds"], "name=value"),
    (["simulate", "kings_stakes", "--bots", "minimax"], "unknown bot"),
    (["simulate", "kings_stakes", "-n", "-3"], "games"),
    (["rules", "no_such_game"], "unknown game"),
])
def test_bad_configuration_exits_2_with_a_message(args, message, capsys, monkeypatch):
    code, _out, err = run_main(args, capsys, monkeypatch)
    assert code == 2
    assert message in err


def test_unknown_command_is_a_usage_error():
    out = run_cli(["deal"])
    assert out.returncode == 2 and "invalid choice" in out.stderr


# ---------------------------------------------------------------- simulate
def test_simulate_json(capsys, monkeypatch):
    code, out, _ = run_main(["simulate", "kings_stakes", "-n", "200", "--bots", "greedy,random",
                             "--seed", "3", "--json"], capsys, monkeypatch)
    assert code == 0
    summary = json.loads(out)
    assert summary["games"] == 200 and summary["bots"] == ["greedy", "random"] * 2
    assert summary["by_bot"]["greedy"]["win_rate"] > summary["by_bot"]["random"]["win_rate"]
    from cardcore.simulation import simulate
    again = simulate("kings_stakes", 200, bots="greedy,random", seed=3)
    assert summary["wins"] == again["wins"] and summary["actions"] == again["actions"]


def test_simulate_table_and_workers():
    out = run_cli(["simulate", "kings_stakes", "-n", "500", "--players", "3", "--workers", "2",
                   "--seed", "1", "-o", "scoring=cards"])
    assert out.returncode == 0, out.stderr
    text = out.stdout
    for word in ("seat", "bot", "win rate", "mean score", "games/s", "actions/s", "mean",
                 "turns", "500/500", "whole games in the core"):
        assert word in text, word


def test_simulate_per_bot_table(capsys, monkeypatch):
    code, out, _ = run_main(["simulate", "kings_stakes", "-n", "50", "--bots", "greedy,random"],
                            capsys, monkeypatch)
    assert code == 0 and "per bot" in out and "greedy" in out


# ---------------------------------------------------------------- rules, games, bench, version
def test_rules_prints_the_packaged_rulebook(capsys, monkeypatch):
    code, out, _ = run_main(["rules", "kings_stakes", "--spec", "--raw"], capsys, monkeypatch)
    assert code == 0
    assert out == cardcore.registry.game_class("kings_stakes").rulebook_text()
    assert "KS-4.3" in out and "KS-9.2" in out


def test_rules_rendered_in_a_terminal(capsys, monkeypatch):
    from rich.console import Console
    monkeypatch.setattr(Console, "is_terminal", property(lambda self: True))
    code, out, _ = run_main(["rules", "kings_stakes", "--spec"], capsys, monkeypatch)
    assert code == 0 and "KS-4.3" in out and "## " not in out      # Markdown was rendered


def test_games_lists_every_game_with_options(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")                       # one line per option
    code, out, _ = run_main(["games"], capsys, monkeypatch)
    assert code == 0
    for name in cardcore.available_games():
        assert name in out
    assert "first_player" in out and "2-6" in out
    # Each option's allowed values (Option.allowed_values), for every game.
    for value in ("immediate | optional", "any_two | three_and_four", "look | position",
                  "allowed:", "(default: by lot; allowed: by lot | a seat 0..players-1)",
                  "(default: no; allowed: yes (4 players) | no)", "4 players"):
        assert value in " ".join(out.split()), value
    defaults = [line for line in out.splitlines() if "(default: " in line]
    assert len(defaults) == sum(len(cardcore.game.game_class(n).options_spec)
                                for n in cardcore.available_games())
    for line in defaults:                                      # words, not Python literals
        assert not re.search(r"\b(None|True|False|null)\b|'", line), line
    for name in cardcore.available_games():
        for option in cardcore.registry.game_class(name).options_spec.values():
            assert option.allowed_values() != "see the rulebook"


def test_bench_reports_speeds(capsys, monkeypatch):
    code, out, _ = run_main(["bench", "kings_stakes", "--seconds", "0.2"], capsys, monkeypatch)
    assert code == 0 and "kings_stakes" in out and "µs/action" in out
    code, _, err = run_main(["bench", "no_such_game"], capsys, monkeypatch)
    assert code == 2 and "unknown game" in err


def test_version_and_help():
    out = run_cli(["--version"])
    assert out.returncode == 0 and cardcore.__version__ in out.stdout
    out = run_cli(["--help"])
    assert out.returncode == 0
    for command in ("play", "simulate", "rules", "games", "bench"):
        assert command in out.stdout


def test_play_renders_the_view_of_a_game_without_table_lines(capsys, monkeypatch):
    from cardcore.cli import table_lines
    from cardcore.games.kings_stakes import KingsStakes
    game = cardcore.new_game("kings_stakes", seed=1, first_player=0)
    own = [str(line) for line in table_lines(game, 0)]
    assert own == game.table_lines(0)                        # the game's own lines win
    monkeypatch.delattr(KingsStakes, "table_lines")
    generic = [str(line) for line in table_lines(game, 0)]
    assert "stake: 0" in generic and "table: —" in generic and "stock size: 38" in generic
    assert not any(line.startswith(("hand:", "legal actions:")) for line in generic)
    code, out, _ = run_main(["play", "kings_stakes", "--seed", "1", "-o", "first_player=0"],
                            capsys, monkeypatch, "1\n" * 400)
    assert code == 0 and "stake: " in out and "penalty counts: " in out and "match over" in out


def test_play_refuses_a_bot_that_cannot_play_the_game(capsys, monkeypatch):
    from cardcore.bots import GreedyBot
    from cardcore.errors import ConfigError

    def cannot(self, name):
        raise ConfigError(f"the greedy bot has no heuristic for {name!r}", "bots")

    monkeypatch.setattr(GreedyBot, "check_game", cannot)
    code, out, err = run_main(["play", "kings_stakes", "--seed", "1"], capsys, monkeypatch, "1\n")
    assert code == 2 and "no heuristic for 'kings_stakes'" in err and "Your hand" not in out
    code, _, err = run_main(["simulate", "kings_stakes", "-n", "5", "--bots", "greedy"], capsys,
                            monkeypatch)
    assert code == 2 and "no heuristic" in err


def test_play_survives_junk_input_and_only_legal_moves_reach_the_game():
    import random

    from rich.console import Console

    from cardcore.cli import PlaySession

    rng = random.Random(5)
    junk = ["", " ", "-1", "0", "10**9", "99999999999999999999", "1.5", "play", "play 7", "play JK",
            "play JK=99", "play 10H 10H", "take take", "TAKE", "refill", "♥", "Ω", "\x00", "1 2",
            "play 2C JK=2C", "PLAY kc ks kd kh", "h", "s", "show", "?", "end_turn"]
    lines = [rng.choice(junk) if rng.random() < 0.6 else str(rng.randint(1, 4))
             for _ in range(3000)]
    feed = iter(lines)

    def read(prompt):
        try:
            return next(feed)
        except StopIteration:
            raise EOFError from None

    game = cardcore.new_game("kings_stakes", players=3, seed=9, refill="manual")
    out = io.StringIO()
    session = PlaySession(game, 0, ["random"], 9, Console(file=out, width=100), read)
    assert session.run() == 0
    replay = cardcore.load_game(game.to_json())            # every applied move was legal
    assert replay.scores == game.scores and len(game.history) > 20
    text = out.getvalue()
    assert "Not allowed" in text and "There is no move" in text
    assert ("match over" in text) or ("Input ended" in text)


def test_play_saves_and_resumes(tmp_path, capsys, monkeypatch):
    save = tmp_path / "match.json"
    args = ["play", "kings_stakes", "--seed", "3", "--seat", "1", "--save", str(save)]
    code, out, _ = run_main(args, capsys, monkeypatch, "1\n1\n1\nq\n")
    assert code == 0 and "resume with: cardcore play kings_stakes --seat 1 --load" in out
    saved = cardcore.load_game(save.read_text())
    assert saved.current_player == 1 and not saved.is_over and len(saved.history) > 3
    code, out, _ = run_main(["play", "kings_stakes", "--seat", "1", "--load", str(save)],
                            capsys, monkeypatch, "1\n" * 400)
    assert code == 0 and "seed 3; you are player 2" in out and "match over" in out
    finished = cardcore.load_game(save.read_text())
    assert finished.is_over and finished.to_json().startswith(saved.to_json()[:40])
    code, _, err = run_main(["play", "kings_stakes", "--load", str(save)], capsys, monkeypatch)
    assert code == 2 and "already over" in err


@pytest.mark.parametrize("content, extra, message", [
    (None, [], "cannot read"),
    ("{not json", [], "not a saved cardcore game"),
    ('{"format": 1}', [], "not a saved cardcore game"),
    ("GOOD", ["--seed", "4"], "drop --players, -o and --seed"),
])
def test_play_load_errors(tmp_path, capsys, monkeypatch, content, extra, message):
    path = tmp_path / "save.json"
    if content == "GOOD":
        content = cardcore.new_game("kings_stakes", seed=1).to_json()
    if content is not None:
        path.write_text(content)
    code, _, err = run_main(["play", "kings_stakes", "--load", str(path), *extra], capsys,
                            monkeypatch)
    assert code == 2 and message in err


def test_play_load_of_another_game_is_refused(tmp_path, capsys, monkeypatch):
    path = tmp_path / "save.json"
    path.write_text(cardcore.new_game("kuzanasta", seed=1).to_json())
    code, _, err = run_main(["play", "kings_stakes", "--load", str(path)], capsys, monkeypatch)
    assert code == 2 and "holds a kuzanasta game, not kings_stakes" in err


# ---------------------------------------------------------------- narration (issue 8)
def test_play_narrates_draws_takes_and_breakdowns(capsys, monkeypatch):
    code, out, _ = run_main(["play", "kings_stakes", "--players", "3", "--seed", "3",
                             "--bots", "random"], capsys, monkeypatch, "1\n" * 600)
    assert code == 0
    assert "You were dealt " in out
    assert re.search(r"You drew \S+ from the stock", out)      # your own draw, by card
    assert "drew 1 card from the stock" in out                 # the others' draws, counted
    assert "took the table: " in out                           # the cards a take takes
    assert "clears the table to the discard" in out            # KS-5.3
    assert "Round 1 is over: " in out and "points (lower is better)" in out
    # a row in a player's words: the count in brackets, no rule ID (issue 48; the rulebook
    # and the event's `rule` carry them)
    assert re.search(r"^    you: penalty cards \(\d+\) — \d+$", out, re.MULTILINE), out
    assert "[KS-9.2]" not in out and "scores: lower is better" in out
    assert "(your only move: take)" in out                     # forced: no Enter needed


def test_play_manna_shows_pile_takes_and_the_initial_meld(capsys, monkeypatch):
    code, out, _ = run_main(["play", "manna", "--seed", "3", "--bots", "random",
                             "-o", "hands=1"], capsys, monkeypatch, "1\n" * 800)
    assert code == 0
    assert "(your only move: draw)" in out and re.search(r"You drew \S+ \S+ from the stock", out)
    assert "took the discard pile (" in out and ") and melded " in out
    assert "Initial meld: " in out and " of 50" in out
    assert "Hand 1 is over: " in out and "points (higher is better)" in out
    assert "cards in melds" in out and "[MH-" not in out       # a row in words, no rule ID


# ---------------------------------------------------------------- bad arguments (issue 20)
@pytest.mark.parametrize("args", [
    ["simulate", "kings_stakes", "-o", "players=3"],
    ["simulate", "kings_stakes", "-o", "seed=3"],
    ["simulate", "kings_stakes", "-o", "workers=2"],
    ["tournament", "kings_stakes", "--bots", "greedy,random", "-o", "players=3"],
    ["tournament", "kings_stakes", "--bots", "greedy,random", "-o", "seed=3"],
    ["play", "kings_stakes", "-o", "players=3"],
    ["play", "kings_stakes", "-o", "seed=3"],
    ["play", "kings_stakes", "-o", "deck=[]"],
    ["play", "kings_stakes", "-o", "rounds=" + "[" * 100_000],
    ["bench", "--seconds", "-1"],
    ["bench", "--seconds", "nan"],
    ["bench", "--seconds", "inf"],
    ["simulate", "kings_stakes", "-n", str(2**64)],
    ["simulate", "kings_stakes", "-n", "lots"],
    ["schema", "kings_stakes", "x" * 5000],
    ["simulate", "kings_stakes", "--bots", "random:seed=" + "9" * 5000],
    ["play", "kings_stakes", "-o", "rounds=" + "x" * 100_000],
])
def test_every_bad_argument_is_one_line_and_exit_2(args):
    out = run_cli(args, "q\n")
    assert out.returncode == 2, (out.returncode, out.stderr[-500:])
    assert "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr[:1000]
    assert len(lines[0]) < 400 and "x" * 61 not in lines[0] and "9" * 61 not in lines[0]


def test_load_reads_at_most_the_save_size_limit(tmp_path):
    from cardcore.saves import MAX_SAVE_CHARS
    started = time.perf_counter()
    out = run_cli(["play", "kings_stakes", "--load", "/dev/zero"])
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert f"{MAX_SAVE_CHARS:,}" in out.stderr and time.perf_counter() - started < 60
    big = tmp_path / "big.json"
    with open(big, "wb") as f:                              # sparse: no disk is used
        f.truncate(10 * MAX_SAVE_CHARS)
    out = run_cli(["play", "kings_stakes", "--load", str(big)])
    assert out.returncode == 2 and f"{MAX_SAVE_CHARS:,}" in out.stderr


def test_save_to_a_directory_or_a_missing_directory_is_refused(tmp_path, capsys, monkeypatch):
    for target, message in ((tmp_path, "is a directory"),
                            (tmp_path / "missing" / "save.json", "does not exist")):
        code, out, err = run_main(["play", "kings_stakes", "--save", str(target)], capsys,
                                  monkeypatch, "1\n" * 50)
        assert code == 2 and message in err and "Your hand" not in out
    assert list(tmp_path.iterdir()) == []                  # nothing written


def test_a_save_that_fails_mid_game_is_a_one_line_error(tmp_path, capsys, monkeypatch):
    target = tmp_path / "save.json"
    calls = []

    def failing(self, *args, **kwargs):
        calls.append(1)
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(Path, "write_text", failing)
    code, _, err = run_main(["play", "kings_stakes", "--seed", "2", "--save", str(target)],
                            capsys, monkeypatch, "1\n" * 50)
    assert code == 2 and calls and "Permission denied" in err


# ---------------------------------------------------------------- levels and hints (issue 22)
def test_play_against_a_level_with_hints(capsys, monkeypatch):
    code, out, err = run_main(["play", "crazy_eights", "--players", "2", "--seed", "3",
                               "--level", "2"], capsys, monkeypatch, "?\nhint\n1\nq\n")
    assert code == 0, err
    assert "bots: player 2 (level 2)" in out
    assert out.count("Hint (highest estimated win share first):") == 2
    assert "win share" in out and "visits" in out
    shares = [int(s) for s in re.findall(r"win share (\d+)%", out)]
    assert shares[:3] == sorted(shares[:3], reverse=True)          # by estimate, as headed


@pytest.mark.parametrize("args, message", [
    (["--level", "7"], "--level must be 1..5"),
    (["--level", "0"], "--level must be 1..5"),
    (["--level", "2", "--bots", "random"], "not both"),
])
def test_play_refuses_a_bad_level(args, message, capsys, monkeypatch):
    code, _, err = run_main(["play", "kings_stakes", "--seed", "1", *args], capsys, monkeypatch)
    assert code == 2 and message in err


@pytest.mark.parametrize("args, english, russian", [
    (["-o", "foo=1"], "kings_stakes has no option foo (its options: first_player, refill, "
                      "rounds, scoring, teams)",
     "у kings_stakes нет параметра foo (его параметры: first_player, refill, rounds, scoring, "
     "teams)"),
    (["-o", "players=3"], "-o 'players' is not an option of kings_stakes; give it as --players",
     "-o 'players': у kings_stakes нет такого параметра; задайте его флагом --players"),
    (["--seat", "9"], "--seat must be 0..3, not 9", "--seat: от 0 до 3, а не 9"),
    (["--level", "9"], "--level must be 1..5, not 9", "--level: от 1 до 5, а не 9"),
    (["--level", "2", "--bots", "random"], "give --bots or --level, not both",
     "задайте --bots или --level, но не оба сразу"),
])
def test_play_refuses_bad_flags_in_the_players_language(args, english, russian, capsys,
                                                        monkeypatch):
    for lang, words in (("en", english), ("ru", russian)):
        code, _, err = run_main(["play", "kings_stakes", *args, "--lang", lang], capsys,
                                monkeypatch)
        assert code == 2
        assert " ".join(err.split()) == f"cardcore play: {words}", err
