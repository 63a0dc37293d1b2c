"""Durak at the terminal (issue 48, item 8): suits by their signs, the hand sorted as Durak
ranks it (six to ace, trumps last), the moves typed in Russian players' words or by number,
and Durak's own help (the 36-card pack, no jokers)."""
from __future__ import annotations

import io
import re

from rich.console import Console

from cardcore.cards import with_suit_symbols
from cardcore.cli import PlaySession
from cardcore.i18n import use

from du_helpers import du, legal

# Trumps are spades (10S turned up); seat 0 holds the lowest trump, 6S, and attacks seat 1.
H0 = ["AH", "7H", "KD", "8C", "6S", "10C"]
H1 = ["8H", "JH", "7D", "QC", "AS", "9D"]


def session(game, seat, typed=(), lang="ru"):
    """A terminal session of ``seat`` that reads ``typed`` line by line; its output."""
    out = io.StringIO()
    lines = iter(typed)
    s = PlaySession(game, seat, ["greedy"], 0, Console(file=out, width=200),
                    lambda prompt: next(lines), lang=lang)
    return s, out


def test_du_1_3_the_terminal_sorts_the_hand_six_to_ace_trumps_last():
    game = du(2, {0: H0, 1: H1}, trump="10S")
    s, out = session(game, 0)
    assert game.view(0)["hand"][0] == "AH"              # the view's order: aces low
    assert s.hand() == ["7H", "8C", "10C", "KD", "AH", "6S"]
    assert [a.cards[0] for a in s.moves()] == s.hand()  # the moves are numbered so
    with use("ru", game):
        s.show()
    assert "Ваша рука: 7♥ 8♣ 10♣ K♦ A♥ 6♠" in out.getvalue()
    assert "1) Пойти 7♥" in out.getvalue()
    other = du(2, {0: H0, 1: H1}, trump="10D")
    assert session(other, 0)[0].hand() == ["6S", "7H", "8C", "10C", "AH", "KD"]


def test_the_terminal_writes_suits_by_their_signs():
    assert with_suit_symbols("Стол: 7H/9H 10D AS; JK") == "Стол: 7♥/9♥ 10♦ A♠; JK"
    assert with_suit_symbols("ASK 10DX H7 [KS-9.2]") == "ASK 10DX H7 [KS-9.2]"   # not cards
    game = du(2, {0: H0, 1: H1}, trump="10S")
    s, out = session(game, 1)
    with use("ru", game):
        s.print_events()
        s.show()
    text = out.getvalue()
    assert "Козырь ♠ пики (10♠)" in text and "Открыта 10♠" in text
    assert not re.search(r"\b(10|[6-9JQKA])[CDHS]\b", text), text


def test_du_4_du_6_du_9_russian_move_words_are_moves():
    game = du(3, {0: ["7H", "9H", "KD", "8C", "10C", "6S"],
                  1: ["7D", "JH", "6D", "QC", "AS", "9D"],
                  2: ["QH", "KH", "AH", "AD", "AC", "JD"]}, trump="10S", dealer=2, transfer=True)
    first, _ = session(game, 0, ["пойти 7H"])
    with use("ru", game):
        first.human_turn()
    assert game.view(0)["bout"] == [["7H", None]]
    second, _ = session(game, 1, ["перевести 7D"])
    with use("ru", game):
        second.human_turn()
    assert game.view(0)["bout"] == [["7H", None], ["7D", None]] and game.view(0)["defender"] == 2
    third, _ = session(game, 2, ["Беру"])
    with use("ru", game):
        third.human_turn()
    assert game.view(0)["taking"]
    fourth, _ = session(game, 1, ["бито"])               # nothing more to throw in
    with use("ru", game):
        fourth.human_turn()
    assert game.current_player != 1


def test_a_russian_word_with_a_card_not_held_is_refused_and_asked_again():
    game = du(2, {0: H0, 1: H1}, trump="10S")
    game.apply("attack 7H")
    s, out = session(game, 1, ["побить 9H", "побить", "бью 8H"])
    with use("ru", game):
        s.human_turn()
    text = out.getvalue()
    assert "у вас нет 9H" in text                          # asked again, then a whole move
    assert "ход не целиком" in text
    assert game.view(0)["bout"] == [["7H", "8H"]]
    assert legal(game) != []


def test_the_durak_help_shows_the_36_card_pack_and_the_russian_words():
    game = du(2, {0: H0, 1: H1}, trump="10S")
    for lang, ranks, words in (
            ("en", "Ranks from low to high: 6 7 8 9 10 J (jack) Q (queen) K (king) A (ace)",
             "«бито», «пас» or «хватит» (pass)"),
            ("ru", "Достоинства от младшего к старшему: 6 7 8 9 10 J (валет) Q (дама) K "
                   "(король) A (туз)", "«бито», «пас» или «хватит»")):
        s, out = session(game, 0, lang=lang)
        with use(lang, game):
            s.show_help(s.moves())
        text = " ".join(out.getvalue().split())
        assert ranks in text and words in text, text
        assert "JK" not in text and "2-10" not in text and "joker" not in text
