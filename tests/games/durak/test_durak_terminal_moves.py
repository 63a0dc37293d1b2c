"""Durak at the terminal (issue 48, items 3 and 9): a forced move (the only legal move, no
card of the hand) is a prompt whose default makes it, the table's pairs with the open card
marked, and the moves in the reader's words (the web table's captions)."""
from __future__ import annotations

import io
import re
from rich.console import Console

from cardcore import new_game
from cardcore.cli import PlaySession


def session(forced_moves: bool, answers):
    """A Russian Durak game at seat 0 against greedy bots; ``answers(prompt)`` types."""
    out = io.StringIO()
    game = new_game("durak", seed=4)
    prompts: list[str] = []

    def read(prompt: str) -> str:
        prompts.append(prompt)
        if len(prompts) > 500:
            return "q"
        return answers(prompt, prompts)
    play = PlaySession(game, 0, ["greedy"], 4, Console(file=out, width=200), read, lang="ru",
                       forced_moves=forced_moves)
    assert play.run() == 0
    return game, out.getvalue(), prompts


def test_a_forced_move_is_a_prompt_whose_default_makes_it():
    shown = []

    def answers(prompt, prompts):
        if prompt.startswith("Ввод — ") and not shown:
            shown.append(prompt)
            return "s"                           # look at the table first: nothing is made
        return "" if prompt.startswith("Ввод — ") else "1"
    game, out, prompts = session(True, answers)
    forced = [p for p in prompts if p.startswith("Ввод — ")]
    assert forced and all(re.match(r"Ввод — (Взять|Бито|Хватит|Пас) \(s — стол", p)
                          for p in forced), forced
    first = prompts.index(forced[0])
    assert prompts[first + 1] == forced[0]       # after "s" the same move is asked again
    assert game.is_over
    assert "(подкинуть нечего — пас)" in out or "(ваш единственный ход: " in out


def test_without_forced_moves_a_lone_move_is_a_turn_like_any_other():
    game, out, prompts = session(False, lambda prompt, prompts: "1")
    assert not [p for p in prompts if p.startswith("Ввод — ")]
    assert re.search(r"1\) (Взять|Бито|Хватит|Пас)\b(?!.*2\))", out)
    assert game.is_over


def test_a_lone_move_that_plays_a_card_is_not_made_for_the_player():
    game = new_game("durak", seed=4)
    seat = game.current_player
    play = PlaySession(game, seat, ["greedy"], 4, Console(file=io.StringIO()), lambda p: "q")
    only = next(a for a in game.legal_actions() if a.kind == "attack")
    assert only.cards[0] in game.view(seat)["hand"]
    play.game = type("One", (), {"legal_action_ids": lambda s: [only.id],
                                 "legal_actions": lambda s: [only],
                                 "view": game.view})()
    assert play.forced_move() is None


def test_the_moves_are_listed_in_the_readers_words():
    # (the words are the web table's captions: tests/test_move_words.py)
    game, out, _ = session(True, lambda prompt, prompts: "1")
    listed = re.findall(r"^\s*1\) (\S+)", out, re.M)
    assert listed and set(listed) <= {"Пойти", "Подкинуть", "Побить", "Перевести", "Взять",
                                      "Бито", "Хватит", "Пас"}, listed


def test_du_11_4_the_terminal_draws_the_pairs_with_the_open_card_marked():
    game = new_game("durak", seed=1)
    game.apply(game.legal_actions()[0])
    from cardcore.i18n import use
    with use("ru", game):
        lines = game.table_lines(1)
    assert any(re.fullmatch(r"Стол: \S+ \(не побита\)", line) for line in lines), lines
    game.apply(next(a for a in game.legal_actions() if a.kind == "beat"))
    with use("ru", game):
        assert any(re.fullmatch(r"Стол: \S+/\S+", line) for line in game.table_lines(1))


def test_du_10_1_the_terminal_marks_the_partner_in_the_scores_table():
    out = io.StringIO()
    game = new_game("durak", players=4, partners=True, seed=4)
    play = PlaySession(game, 0, ["greedy"], 4, Console(file=out, width=200), lambda p: "q",
                       lang="ru")
    from cardcore.i18n import use
    with use("ru", game):
        play.console.print(play.scores_table())
    rows = {line.split()[0]: line for line in out.getvalue().splitlines()
            if line.strip()[:1].isdigit()}
    assert "партнёр" in rows["3"] and "партнёр" not in rows["2"] + rows["4"] + rows["1"]
