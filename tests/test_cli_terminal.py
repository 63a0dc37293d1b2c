"""`cardcore play` on a real pseudo-terminal (issue 35, the terminal), driven by pexpect as a
person types, in English and Russian: the arrow keys edit the line, the up arrow recalls the
last move, the deal is narrated before the first prompt, bad input says what to type, Ctrl-C
says where the game was saved, God draws come in card order, Manna marks its short first
melds, and every move the game offers is explained by h."""
from __future__ import annotations

import io
import json
import os
import random
import re
import sys
from pathlib import Path

import pytest
from rich.console import Console

import cardcore
from cardcore.cli import PlaySession
from cardcore.i18n import use
from cardcore.narrate import hand_order
from cardcore.texts import words_module
from game_cases import declared

pexpect = pytest.importorskip("pexpect")

SRC = str(Path(cardcore.__file__).resolve().parents[1])
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\r")
LEFT, UP, CTRL_C = "\x1b[D", "\x1b[A", "\x03"
# Seat 0 leads with the hand 3H 5S 8D JC (shown 3♥ 5♠ 8♦ J♣) (seed 3, 3 players).
KS = ["play", "kings_stakes", "--seed", "3", "--players", "3", "-o", "first_player=0"]

WORDS = {
    "en": {"prompt": "Your move [", "dealt": "You were dealt J♣ 5♠ 8♦ 3♥",
           "played": "You played 3♥", "not_held": "you do not hold 3H",
           "foo": "'foo' is not a move: type 1-4, a move like 'play 3♥', or h for help.",
           "play": "'play' is not a whole move: type 1-4, a move like 'play 3♥', or h for help.",
           "99": "There is no move '99': type 1-4, a move like 'play 3♥', or h for help.",
           "interrupted": "Interrupted; leaving the game. Saved to {path}; resume with: "
                          "cardcore play kings_stakes --seat 0 --load {path}",
           "options": "Options: first player: player 1, rounds: 3, teams: no, refill: auto, "
                      "scoring: rank",
           "hint": "Hint (highest estimated win share first):"},
    "ru": {"prompt": "Ваш ход [", "dealt": "Вы получили J♣ 5♠ 8♦ 3♥",
           "played": "Вы сыграли 3♥", "not_held": "у вас нет 3H",
           "foo": "'foo' — не ход: наберите 1-4, ход вроде 'play 3♥' или h для справки.",
           "play": "'play' — ход не целиком: наберите 1-4, ход вроде 'play 3♥' или h для "
                   "справки.",
           "99": "Хода '99' нет: наберите 1-4, ход вроде 'play 3♥' или h для справки.",
           "interrupted": "Прервано; вы вышли из игры.",
           "options": "Параметры: первый игрок: Игрок 1, раунды: 3, команды: нет, добор: сам, "
                      "подсчёт: по месту",
           "hint": "Подсказка (сначала ходы с большей оценкой доли побед):"},
}


def spawn(args):
    env = {**os.environ, "PYTHONPATH": SRC, "TERM": "xterm", "COLUMNS": "200",
           "PROMPT_TOOLKIT_NO_CPR": "1"}          # pexpect answers no cursor-position query
    return pexpect.spawn(sys.executable, ["-m", "cardcore", *args], env=env,
                         encoding="utf-8", dimensions=(40, 200), timeout=120)


def screen(child) -> str:
    return " ".join(ANSI.sub("", child.before).split())


def interrupt(child, patience: float = 20.0) -> int | None:
    """Press Ctrl-C and return the program's exit status once it has ended. A Ctrl-C that lands
    just as the bots finish, before the next prompt reads keys, can be lost (a known gap, in
    the 0.4 notes): if the program still runs after ``patience`` seconds, the player presses
    it again. (Not on seeing a prompt: prompt_toolkit redraws its prompt as it leaves, and a
    second Ctrl-C then interrupts the program's own exit.)"""
    for _ in range(3):
        child.send(CTRL_C)
        if child.expect([pexpect.EOF, pexpect.TIMEOUT], timeout=patience) == 0:
            break
    return child.wait()        # close() would kill a program still tearing down after 0.1 s


@pytest.mark.slow                          # the front-end suites: tests/test_cli*.py
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_line_edits_history_recalls_and_bad_input_says_what_to_type(lang, tmp_path):
    w = WORDS[lang]
    save = tmp_path / "game.json"
    child = spawn(KS + ["--lang", lang, "--save", str(save)])
    child.expect_exact(w["prompt"])
    before = screen(child)
    assert w["dealt"] in before                       # the deal, before the first prompt
    assert w["options"] in before
    for typed in ("foo", "play", "99"):
        child.send(typed + "\r")
        child.expect_exact(w[typed])
    child.send("?\r")
    child.expect_exact(w["hint"])
    child.expect(r"\d+%.*\n.*\d+%.*\n.*\d+%")
    hint = ANSI.sub("", child.after)
    shares = [int(s) for s in re.findall(r"(\d+)%", hint)]
    assert len(shares) == 3 and shares == sorted(shares, reverse=True)
    child.send("pla 3H" + LEFT * 3 + "y\r")         # the arrow keys move in the line
    child.expect_exact(w["played"])
    child.expect_exact(w["dealt"].split()[0])         # the bots' moves, then the next turn
    child.expect_exact(w["prompt"])
    child.send(UP + "\r")                             # the last move again: 3H is gone now
    child.expect_exact(w["not_held"])
    child.expect_exact(w["prompt"])                   # asked again
    assert interrupt(child) == 130
    said = screen(child)
    assert w["interrupted"].format(path=save) in said, said
    if lang == "ru":
        assert f"Сохранено в {save}" in said
    game = cardcore.load_game(save.read_text())       # saved at the turn Ctrl-C left
    assert game.current_player == 0 and "3H" not in game.view(0)["hand"]
    assert json.loads(Path(f"{save}.players.json").read_text())["bots"] == {
        "1": "greedy", "2": "greedy"}


@pytest.mark.slow
def test_ctrl_c_without_a_save_says_so_plainly():
    child = spawn(KS)
    child.expect_exact("Your move [")
    assert interrupt(child) == 130
    assert "Interrupted; leaving the game." in screen(child)


# ---------------------------------------------------------------- what h and the list say
def offered_words(name: str, games: int = 4) -> set[str]:
    words: set[str] = set()
    for seed in range(games):
        game = cardcore.new_game(name, seed=seed)
        rng = random.Random(seed)
        while not game.is_over:
            words |= {str(a).split()[0] for a in game.legal_actions()}
            game.apply(rng.choice(game.legal_action_ids()))
    return words


@pytest.mark.parametrize("name", cardcore.available_games())
def test_every_offered_move_is_explained_by_help(name):
    notation = words_module(cardcore.new_game(name, seed=0)).NOTATION
    explained = {part.split()[0] for example, _meaning in notation
                 for part in example.split(", ")}
    assert offered_words(name) <= explained


@pytest.mark.parametrize("lang", ["en", "ru"])
@pytest.mark.parametrize("name", cardcore.available_games())
def test_every_offered_move_is_named_on_the_how_to_page(name, lang):
    """The how-to page (`cardcore rules`, the web's /howto) writes every kind of move the game
    offers in its notation, once at least (Kuzanasta's god_look was offered and on no page)."""
    from cardcore.texts import howto_text
    written = " ".join(re.findall(r"`([^`]*)`", howto_text(name, lang))).split()
    assert sorted(offered_words(name) - set(written)) == []


def test_god_draw_choices_come_in_the_order_a_hand_shows_cards():
    from cardcore.cards import card_id, sort_key
    game = cardcore.new_game("kuzanasta", seed=0, players=2)
    rng = random.Random(0)
    while "god_draw" not in {a.kind for a in game.legal_actions()}:
        game.apply(rng.choice(game.legal_action_ids()))
    seat = game.current_player
    hand = game.view(seat)["hand"]
    draws = [a.cards[0] for a in hand_order(game.legal_actions(), hand)
             if a.kind == "god_draw"]
    assert len(draws) > 20 and any(c in hand for c in draws)   # held copies too, in order
    assert draws == sorted(draws, key=lambda c: sort_key(card_id(c)))


@pytest.mark.parametrize("lang, note", [
    ("en", "meld Q Q Q (not enough alone: 30 of the 50 a first meld needs)"),
    # the terminal's moves in the reader's language (issue 48 item 9)
    ("ru", "Выложить Q Q Q (одной мало: 30 из 50, нужных для первой выкладки)"),
])
def test_manna_marks_first_melds_that_cannot_open_alone(lang, note):
    """MH-4.8: a first meld below the minimum is legal (more may follow this turn) but the
    turn cannot end on it; the list says so."""
    from cardcore.bots import make_bot
    game = cardcore.new_game("manna", seed=3)
    bot = make_bot("greedy", 3)
    while not (game.current_player == 0 and game.phase == "meld"):
        game.apply(bot.choose(game))
    out = io.StringIO()
    session = PlaySession(game, 0, ["greedy"], 3, Console(file=out, width=300),
                          lambda prompt: "q", lang=lang)
    with use(lang, game):
        session.show_moves()
        short = session.short_moves()
    assert note in out.getvalue()
    assert [str(game.action_from_id(i)) for i in short] == ["meld Q Q Q"]
    trial = game.clone()                               # and indeed: alone it cannot end the turn
    trial.apply("meld Q Q Q")
    assert not any(a.kind == "discard" for a in trial.legal_actions())


@pytest.mark.slow
def test_ctrl_c_while_the_bots_think_saves_the_game_as_it_stands(tmp_path):
    """Ctrl-C after your move, while the search bots think (or, on a fast machine, at your
    next prompt): the save holds your move and loads; the message says where it is."""
    save = tmp_path / "game.json"
    child = spawn(KS + ["--level", "5", "--save", str(save)])
    child.expect_exact("Your move [")
    child.send("1\r")
    child.expect_exact("You played 3♥")
    assert interrupt(child) == 130
    said = screen(child)
    assert f"Interrupted; leaving the game. Saved to {save}; resume with:" in said, said
    game = cardcore.load_game(save.read_text())
    assert "3H" not in game.view(0)["hand"] and len(game.action_log()) >= 1


@pytest.mark.parametrize("name, case", declared("REFUSAL_WITH_A_COUNT"))
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_refusals_with_a_count_take_its_plural_from_the_catalog(lang, name, case):
    """The core says "card(s)"; the player reads "1 card", "2 cards" (Babel's ngettext),
    by the refusal's template and its count (its words as data, never its English)."""
    from cardcore.errors import IllegalActionError, Words
    from cardcore.texts import refusal_text
    game = cardcore.new_game(name, seed=1)
    rule = case["rule"]
    template = case["template"].replace("{n}", "{count}")
    with use(lang, game):
        said = [refusal_text(IllegalActionError(Words(template, {"count": n}), rule), game)
                for n in (1, 2)]
    assert said == [f"{text} [{rule}]" for text in case[lang]]
    assert not any("(s)" in text for text in said)
