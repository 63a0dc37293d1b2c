"""The terminal as a player meets it (issue 24), through a pseudo-terminal, in English and in
Russian: moves in hand order, help with the notation, the same words for every bad number,
reasons for impossible combinations, pile draws that name their card, bots kept in saves,
`cardcore games` and `cardcore rules` (how to play, paged)."""
from __future__ import annotations

import io
import json
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

import cardcore
from cardcore.bots import make_bot
from cardcore.cli import hand_order, main
from cardcore.i18n import use

SRC = str(Path(cardcore.__file__).resolve().parents[1])
pytestmark = pytest.mark.slow              # a front-end suite, like tests/test_cli.py
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07]*\x07|\r")


def run_pty(args, typed="", timeout=120, **env_extra):
    """`python -m cardcore ARGS` on a pseudo-terminal (stdin, stdout and stderr), ``typed``
    written to it as a person would; the screen's text without colours, and the exit code."""
    master, slave = pty.openpty()
    env = {**os.environ, "PYTHONPATH": SRC, "COLUMNS": "110", "LINES": "30",
           "TERM": "xterm", **env_extra}
    proc = subprocess.Popen([sys.executable, "-m", "cardcore", *args], stdin=slave,
                            stdout=slave, stderr=slave, env=env, close_fds=True)
    os.close(slave)
    os.write(master, typed.encode())
    chunks, deadline = [], time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:                       # the child closed the terminal
                break
            if not data:
                break
            chunks.append(data)
        elif proc.poll() is not None:
            break
    else:
        proc.kill()
    os.close(master)
    code = proc.wait(timeout=30)
    return code, ANSI.sub("", b"".join(chunks).decode("utf-8", "replace"))


def run_main(args, capsys, monkeypatch, stdin=""):
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(args)
    out = capsys.readouterr()
    return code, out.out, out.err


# ---------------------------------------------------------------- play, both languages
KS = ["play", "kings_stakes", "--seed", "3", "--players", "3"]   # hand AH 5H 7C 9D (A♥ 5♥ 7♣ 9♦) at seat 0
TYPED = "h\n-1\n0\n99\nplay 5H 9D\nplay 4S 5D\nq\n"


def test_play_on_a_terminal_in_english():
    code, screen = run_pty(KS, TYPED)
    assert code == 0, screen[-2000:]
    hand = re.search(r"Your hand: (.+)", screen).group(1).split()
    moves = re.findall(r"\d+\) play (\S+)", screen.split("Your hand:")[1].split("Your move")[0])
    assert moves == [c for c in hand if c in moves]                  # in hand order
    assert "JK=QS" in screen and "take the table" in screen         # help explains notation
    assert "Cards: rank then suit" in screen and "? or hint" in screen
    for number in ("'-1'", "'0'", "'99'"):                           # one message for all
        assert f"There is no move {number}: type 1-4, a move like 'play " in screen
    assert ("Not allowed: 'play 5H 9D': a pair is two cards of the same rank, or of one suit "
            "with values one apart [KS-4.2]") in screen
    assert "Not allowed: 'play 4S 5D': you do not hold 4S" in screen
    assert "is not an action of" not in screen


def test_play_on_a_terminal_in_russian():
    code, screen = run_pty(KS + ["--lang", "ru"], TYPED)
    assert code == 0, screen[-2000:]
    assert "Ваша рука: A♥ 5♥ 7♣ 9♦" in screen and "Ваш ход [" in screen
    assert "Хода '-1' нет: наберите 1-4, ход вроде 'play " in screen
    assert "Хода '0' нет" in screen and "Хода '99' нет" in screen
    assert "Нельзя: 'play 5H 9D': пара — две карты одного достоинства" in screen
    assert "[KS-4.2]" in screen and "Нельзя: 'play 4S 5D': у вас нет 4S" in screen
    assert "Карты: достоинство, затем масть" in screen and "ставка" in screen
    assert "колода" in screen and "Вы вышли из игры." in screen
    for english in ("Your hand", "There is no move", "Not allowed", "(stake", "You left"):
        assert english not in screen


@pytest.mark.parametrize("lang, words", [
    ("en", ("draw_discard (takes 8♦, the top of your discard pile)", "discard (top last)")),
    ("ru", ("Взять верхнюю из сброса (берёт 8♦, верхнюю карту вашего сброса)",
            "сброс (верхняя — последняя)")),
])
def test_a_pile_draw_names_its_card_and_the_top_is_stated(lang, words):
    code, screen = run_pty(["play", "kuzanasta", "--players", "2", "--seed", "0", "--lang", lang],
                           "q\n")
    assert code == 0, screen[-2000:]
    for text in words:
        assert text in screen


def test_an_unknown_language_is_refused_naming_lang(capsys, monkeypatch):
    for args in (["play", "kings_stakes", "--lang", "de"], ["rules", "manna", "--lang", "xx"],
                 ["games", "--lang", "fr"]):
        code, _, err = run_main(args, capsys, monkeypatch, "q\n")
        assert code == 2 and "lang must be one of en, ru" in err, err


# ---------------------------------------------------------------- words of the table
def test_moves_follow_the_hand_kind_by_kind():
    game = cardcore.new_game("manna", seed=3)
    bot = make_bot("greedy", 3)
    while not (game.current_player == 0 and game.phase == "meld"):
        game.apply(bot.choose(game))
    hand = game.view(0)["hand"]
    ordered = hand_order(game.legal_actions(), hand)
    assert {a.id for a in ordered} == set(game.legal_action_ids())
    kinds = [a.kind for a in ordered]
    assert kinds == sorted(kinds, key=kinds.index)                   # each kind together
    discards = [hand.index(a.cards[0]) for a in ordered if a.kind == "discard"]
    assert discards == sorted(discards) and len(discards) > 3


def test_manna_counts_canastas_by_kind_in_both_languages():
    from cardcore.games.manna.words import canasta_counts
    kinds = ["natural", "sevens", "natural", "wild"]
    assert canasta_counts(kinds) == "2 natural, 1 sevens, 1 wild"
    from cardcore.registry import game_class
    with use("ru", game_class("manna")):
        assert canasta_counts(kinds) == "2 естественная, 1 семёрок, 1 дикая"
    game = cardcore.new_game("manna", seed=1)
    with use("ru", game):
        assert any("канасты: нет" in line for line in game.table_lines(0))


def test_end_of_turn_lines_are_words_not_python():
    """The final-turns line names seats and the breakdown's scores are labelled by player."""
    from cardcore.bots import make_bot
    from cardcore.narrate import breakdown_lines
    game = cardcore.new_game("kings_stakes", seed=4, players=3)
    bot = make_bot("greedy", 1)
    seen_out = seen_end = False
    while not game.is_over and not (seen_out and seen_end):
        view = game.view(0)
        if view["out_player"] is not None and view["final_turns_owed"]:
            line = [t for t in game.table_lines(0) if t.startswith("Out of cards: ")][0]
            assert re.fullmatch(r"Out of cards: (you|player \d); final turns still to play: "
                                r"((you|player \d)(, |$))+", line), line
            seen_out = True
        game.apply(bot.choose(game))
    assert seen_out
    names = {0: "you", 1: "seat 1 (greedy)", 2: "seat 2 (greedy)"}.get
    end = next(e for e in game.events(0) if e["kind"] == game.round_end_event)
    last = breakdown_lines(end, names, game)[-1]
    assert re.fullmatch(r"    scores now: you \d+, seat 1 \(greedy\) \d+, seat 2 \(greedy\) \d+",
                        last), last
    ru = breakdown_lines(end, {0: "вы", 1: "место 1", 2: "место 2"}.get, game, lang="ru")
    assert ru[0].startswith("Раунд 1 окончен: ") and ru[1] == "    очки (меньше — лучше):"
    assert ru[-1].startswith("    счёт сейчас: вы ")


@pytest.mark.parametrize("name", cardcore.available_games())
def test_the_table_lines_name_players_counted_from_one_in_both_languages(name):
    """Issue 48, item 7: a seat in the terminal's table is "you" or "player N" («Игрок N»),
    counted from 1, and a team is the reader's or the opponents': never "seat 2", «место 2»
    or «команда 0»."""
    import random
    from cardcore.i18n import use
    game = cardcore.new_game(name, seed=5)
    rng = random.Random(5)
    seen: set[str] = set()
    for _ in range(400):
        if game.is_over:
            break
        for lang in ("en", "ru"):
            with use(lang, game):
                seen.update(game.table_lines(0))
        game.apply(rng.choice(game.legal_actions()))
    text = "\n".join(seen)
    assert not re.search(r"\b[Ss]eats? \d|\b[Мм]ест[оа] \d|\b[Tt]eam \d|\b[Кк]оманда \d", text), text
    if "Player " in text or "player " in text:
        assert "Игрок " in text


# ---------------------------------------------------------------- saves keep their bots
def test_a_loaded_game_resumes_against_the_same_bots(tmp_path):
    save = tmp_path / "match.json"
    code, screen = run_pty(["play", "kings_stakes", "--seed", "3", "--seat", "1",
                            "--bots", "random,level:2", "--save", str(save)], "q\n")
    assert code == 0 and "bots: player 1 (random), player 3 (level 2), player 4 (random)" in \
        " ".join(screen.split())
    record = json.loads(Path(str(save) + ".players.json").read_text())
    assert record["bots"] == {"0": "random", "2": "level:2", "3": "random"}
    assert record["seat"] == 1
    saved = save.read_text()
    assert cardcore.load_game(saved).to_json() == saved        # the save itself is untouched
    code, screen = run_pty(["play", "kings_stakes", "--load", str(save), "--lang", "ru"], "q\n")
    assert code == 0 and "вы — игрок 2; боты: Игрок 1 (случайный), Игрок 3 (уровень 2), " \
        "Игрок 4 (случайный)" in " ".join(screen.split())
    code, screen = run_pty(["play", "kings_stakes", "--load", str(save), "--bots", "greedy"],
                           "q\n")
    assert "bots: player 1 (greedy), player 3 (greedy), player 4 (greedy)" in \
        " ".join(screen.split())                                    # asked: replaced


# ---------------------------------------------------------------- games, rules
def test_games_lists_players_in_words_and_what_each_option_means(capsys, monkeypatch):
    code, out, _ = run_main(["games"], capsys, monkeypatch)
    assert code == 0 and "6 players" in out and "6-6" not in out and "2-4 players" in out
    words = " ".join(out.split())                    # the table wraps its cells
    assert "forget-me chip" in words and "penalty card" in words     # refill, scoring
    for cls in cardcore.registry.game_classes():
        for option in cls.options_spec.values():
            assert option.doc, "every option says what it means"
    code, out, _ = run_main(["games", "--lang", "ru"], capsys, monkeypatch)
    assert code == 0 and "6 игроков" in out and "фишка-забывашка" in " ".join(out.split())


@pytest.mark.parametrize("lang, title", [("en", "How to play Kings' Stakes"),
                                         ("ru", "«Королевские ставки»: как играть")])
def test_rules_prints_how_to_play_and_the_spec_behind_a_flag(capsys, monkeypatch, lang, title):
    code, out, _ = run_main(["rules", "kings_stakes", "--lang", lang], capsys, monkeypatch)
    assert code == 0 and out.startswith(f"# {title}") and "KS-9.2**" not in out
    assert len(out.splitlines()) < 60
    code, out, _ = run_main(["rules", "kings_stakes", "--spec"], capsys, monkeypatch)
    assert code == 0 and "**KS-9.2**" in out


def test_every_game_has_a_how_to_play_page_in_both_languages():
    from cardcore.cli import howto_text
    for cls in cardcore.registry.game_classes():
        for lang, heading in (("en", "## What you hold"), ("ru", "## Что у вас в руке")):
            text = howto_text(cls.name, lang)
            assert heading in text and ("## An example turn" in text or "## Пример хода" in text)


def test_rules_on_a_terminal_goes_through_the_pager():
    code, screen = run_pty(["rules", "manna", "--lang", "ru"],
                           PAGER="echo PAGED-BY-PAGER; cat", MANPAGER="")
    assert code == 0 and "PAGED-BY-PAGER" in screen and "как играть" in screen
    code, screen = run_pty(["rules", "manna", "--spec"], PAGER="echo PAGED-BY-PAGER; cat",
                           MANPAGER="")
    assert "PAGED-BY-PAGER" in screen and "MH-4.8" in screen


# ---------------------------------------------------------------- tournament plot
def test_the_tournament_plot_and_table_say_which_scores_are_better(tmp_path):
    pytest.importorskip("matplotlib")
    from rich.console import Console

    from cardcore.narrate import DIRECTIONS
    from cardcore.registry import game_classes
    from cardcore.tournament import plot_tournament, standings_table, tournament
    for direction in DIRECTIONS:                   # a game of each kind of score
        name = next(cls.name for cls in game_classes()
                    if cls.score_direction.startswith(direction) and cls.min_players <= 2)
        result = tournament(name, 4, bots="random,greedy", players=2, seed=1)
        svg = plot_tournament(result, tmp_path / name)[1].read_text(encoding="utf-8")
        assert f"score as the game counts it: {direction}" in svg
        console = Console(width=200, record=True)
        console.print(standings_table(result))
        assert f"scores: {direction}" in " ".join(console.export_text().split())


@pytest.mark.parametrize("lang, text", [
    ("en", "Not allowed: 'meld 5 5': a meld needs 3 to 7 cards, at least two naturals and at "
           "most three wild cards [MH-4.2]"),
    ("ru", "Нельзя: 'meld 5 5': комбинации нужны от 3 до 7 карт, не меньше двух натуральных "
           "и не больше трёх диких [MH-4.2]"),
])
def test_an_impossible_meld_says_which_rule_and_what_is_missing(capsys, monkeypatch, lang, text):
    code, out, _ = run_main(["play", "manna", "--seed", "3", "--lang", lang], capsys,
                            monkeypatch, "meld 5 5\nq\n")
    assert code == 0 and text in " ".join(out.split())
