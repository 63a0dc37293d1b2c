"""The moves in the reader's words at the terminal (issue 48, item 9): a game's words module
may give its action kinds' captions (``MOVE_WORDS``, ``PHASE_MOVE_WORDS``), which must be
the web table's (its ``web/board.js`` ``actions`` and ``phase_actions``), and
``narrate.move_in_words`` says a notation with them in the current language."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import cardcore
from cardcore.i18n import use
from cardcore.narrate import move_in_words
from cardcore.registry import available_games, game_class
from cardcore.texts import words_module

PAIR = re.compile(r'(\w+): N_\("([^"]+)"\)')


def block(text: str, name: str) -> str:
    """The body of ``name: { ... }`` in a board.js (one level of nesting at most)."""
    start = text.index(f"{name}: {{") + len(name) + 3
    depth, end = 1, start
    while depth:
        depth += {"{": 1, "}": -1}.get(text[end], 0)
        end += 1
    return text[start:end - 1]


@pytest.mark.parametrize("name", available_games())
def test_the_terminals_move_words_are_the_web_tables_captions(name):
    words = words_module(game_class(name))
    own = getattr(words, "MOVE_WORDS", None)
    if own is None:
        return
    board = (Path(cardcore.__file__).parent / "games" / name / "web" / "board.js").read_text()
    assert dict(PAIR.findall(block(board, "actions"))) == own
    phases = getattr(words, "PHASE_MOVE_WORDS", {})
    if phases or "phase_actions" in board:
        table = block(board, "phase_actions")
        assert {phase: dict(PAIR.findall(block(table, phase))) for phase in phases} == phases
        assert set(re.findall(r"(\w+): \{", table)) == set(phases)


def test_move_in_words_says_the_kind_in_the_language_and_keeps_the_cards():
    game = cardcore.new_game("durak", seed=1)
    words = words_module(type(game))
    with use("ru", game):
        assert move_in_words("beat 7C", words, "defend") == "Побить 7C"
        assert move_in_words("pass", words, "throw_in") == "Бито"
        assert move_in_words("pass", words, "take_throw_in") == "Хватит"
        assert move_in_words("attack 9H", words, "throw_in") == "Подкинуть 9H"
        assert move_in_words("unknown 7C", words, "defend") == "unknown 7C"
    with use("en", game):
        assert move_in_words("beat 7C", words, "defend") == "beat 7C"


def test_kings_stakes_last_move_in_the_readers_words():
    game = cardcore.new_game("kings_stakes", seed=3)
    game.apply(game.legal_actions()[0])
    mover = game.view(0)["last_play"]["player"]
    with use("ru", game):
        assert game.table_lines(mover)[-1].startswith("Последний ход — вы: Сыграть ")
        other = (mover + 1) % game.num_players
        assert game.table_lines(other)[-1].startswith(f"Последний ход — Игрок {mover + 1}: ")
    with use("en", game):
        assert game.table_lines(other)[-1].startswith(f"Last move: player {mover + 1}: play ")
