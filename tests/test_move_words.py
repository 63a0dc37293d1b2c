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
from game_cases import game_case

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


# Russian captions of each game's moves (issue 48, item 9: Manna's and Kuzanasta's joined
# Durak's, Kings' Stakes' and Crazy Eights'), from tests/games/<game>/cases.py
# (RUSSIAN_MOVE_CAPTIONS); the rest of a notation (cards, sets) is kept.
RUSSIAN_CAPTIONS = {name: set(game_case(name, "RUSSIAN_MOVE_CAPTIONS", ()))
                    for name in available_games()}
CAPTIONED = sorted(name for name, captions in RUSSIAN_CAPTIONS.items() if captions)


@pytest.mark.parametrize("name", CAPTIONED)
def test_every_move_of_a_playout_is_said_in_russian_at_the_terminal(name):
    """Every legal move met in a random playout reads as its Russian caption and the rest of
    its notation; in English the notation itself."""
    import random
    game = cardcore.new_game(name, seed=2)
    words = words_module(type(game))
    rng = random.Random(2)
    seen: set[str] = set()
    for _ in range(300):
        if game.is_over:
            break
        for action in game.legal_actions():
            notation = str(action)
            with use("ru", game):
                said = move_in_words(notation, words, game.phase)
            caption = max((c for c in RUSSIAN_CAPTIONS[name] if said.startswith(c)), key=len)
            if notation.partition(" ")[0] == action.kind:     # kind + cards: the cards kept
                assert said[len(caption):].strip() == notation.partition(" ")[2], said
            latin = [w for w in re.findall(r"[\w+-]+", said) if re.search(r"[A-Za-z]", w)
                     and not re.fullmatch(r"(10|[2-9JQKA])[CDHS]|JK|[2-9JQKAW]|[\dJQKAW-]+", w)]
            assert latin == [], (notation, said)     # card and set notation only
            with use("en", game):
                assert move_in_words(notation, words, game.phase) == notation
            seen.add(action.kind)
        game.apply(rng.choice(game.legal_actions()))
    assert len(seen) >= 4, seen           # draws, discards, melds or sets: most kinds met


@pytest.mark.parametrize("name", CAPTIONED)
def test_the_terminal_lists_the_moves_in_russian(name, capsys, monkeypatch):
    import io
    import sys
    from cardcore.cli import main
    monkeypatch.setattr(sys, "stdin", io.StringIO("1\n" * 30 + "q\n"))
    main(["play", name, "--seed", "3", "--lang", "ru", "--bots", "random"])
    out = capsys.readouterr().out
    listed = re.findall(r"^\s*\d+\) (.+)$", out, re.M)
    assert listed, out[-2000:]
    for line in listed:
        assert any(line.startswith(c) for c in RUSSIAN_CAPTIONS[name]), line
