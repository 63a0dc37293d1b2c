"""Russian as Durak players speak it (issue 48, item 7): what a Russian player reads — the
events and their reasons, the breakdown, the web table's words (buttons, turn line, board and
seat facts, through /api/i18n and the game's board.js), the terminal's table and help, the
refusals, the options and the how-to page — holds none of the texts the issue measured, no
Latin word outside card notation, no rule ID, and names seats «Игрок N» counted from 1."""
from __future__ import annotations

import json
import random
import re
import sys
from pathlib import Path

import pytest

import cardcore
from cardcore import new_game
from cardcore.i18n import use

from du_helpers import du

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "tests"))
from server_helpers import TestClient  # noqa: E402

# The texts a Russian player met in 0.4 (issue 48's table, "now" column).
NOW = ["ходит под вы", "сыграть в «Дурак»", "1 очков", "Матч окончен", "единственная партия",
       "Место", "место ", "пошло", "побило", "забрало", "взяло", "сдало", "получило",
       "перевело", "осталось", "побили картой", "(отбой)", "(ход)",
       "подкидывание к взятке", "отбивающийся берёт; остальные могут подкинуть",
       "Отбивающийся:", "вовремя избавился", "Партия окончена", "команда 0",
       "Победители:", "Вы делите победу", "выигрыш в", "None", "True", "False",
       "первый ход — пять карт", "бот: жадный", "бот: поиск", "бот уровня", "transfer=",
       "JK = джокер", "2-10", "перевод выключен", "Козырь D", "ваш единственный ход",
       "до 200 ходов", "Спецификация", "жадный"]
RULE_ID = re.compile(r"\b[A-Z]{2}-\d+(\.\d+)*\b")
CARD = re.compile(r"^(10|[6-9AJQK])[CDHS]$")


LETTERS = {"C", "D", "H", "S", "J", "Q", "K", "A"}        # a suit's or a rank's letter


def latin_words(text: str) -> set[str]:
    """The Latin-letter words of ``text`` other than card notation (``7H``, ``10S``, the
    letters the terminal's help explains)."""
    return {w for w in re.findall(r"[A-Za-z0-9=_]+", text)
            if re.search(r"[A-Za-z]", w) and not CARD.match(w) and w not in LETTERS}


def check(text: str, where: object) -> None:
    text = re.sub(r"\{\w+\}", "", text)            # a template's fields
    assert not [s for s in NOW if s in text], (where, text)
    assert not latin_words(text), (where, text, latin_words(text))
    assert not RULE_ID.search(text), (where, text)


def played(seed: int, **options: object) -> cardcore.Game:
    game = new_game("durak", seed=seed, **options)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_action_ids()))
    return game


CONFIGS = [{}, {"players": 3}, {"players": 4, "partners": True, "transfer": True},
           {"players": 6, "first_bout_five": True}]


@pytest.mark.parametrize("options", CONFIGS, ids=lambda o: json.dumps(o))
def test_russian_events_of_random_playouts_are_players_russian(options):
    for seed in range(3):
        game = played(seed, **options)
        for seat in [None, *range(game.num_players)]:
            for event in game.events(seat, lang="ru"):
                texts = [event["text"], event.get("reason", "")]
                texts += [row["text"] for row in
                          (event.get("breakdown") or {}).get("components", [])]
                for text in texts:
                    check(text, (options, seed, seat, event["kind"]))
                if event.get("throw_in"):          # «Вы подкинули 9D», never «пошли»
                    assert "подки" in event["text"], event["text"]


def test_seats_are_players_counted_from_one_in_both_languages():
    game = played(1, players=3)
    seen = " ".join(e["text"] for e in game.events(0, lang="ru"))
    assert "Игрок 2" in seen and "Игрок 3" in seen and "Игрок 0" not in seen
    english = " ".join(e["text"] for e in game.events(0))
    assert re.search(r"\b[Pp]layer [23]\b", english) and not re.search(r"\b[Ss]eat \d", english)


H0 = ["7H", "9H", "KD", "8C", "10C", "6S"]
H1 = ["8H", "JH", "6D", "QC", "AS", "9D"]


def told(game, seat: int, action: str) -> str:
    seen = len(game.events())
    game.apply(action)
    return game.events(seat, since=seen, lang="ru")[0]["text"]


def test_du_5_1_a_throw_in_is_said_so_and_a_beat_names_both_cards():
    game = du(2, {0: H0, 1: H1}, trump="10S")
    assert told(game.clone(), 1, "attack 7H") == "Игрок 1 ходит 7H. Следующий ход: вы."
    assert told(game, 0, "attack 7H") == "Вы пошли 7H. Следующий ход: Игрок 2."
    assert told(game.clone(), 1, "beat 8H") == "Вы побили 7H восьмёркой (8H). Следующий ход: " \
        "Игрок 1."
    assert told(game, 0, "beat 8H") == "Игрок 2 бьёт 7H восьмёркой (8H). Следующий ход: вы."
    assert told(game.clone(), 0, "attack 8C") == "Вы подкинули 8C. Следующий ход: Игрок 2."
    assert told(game, 1, "attack 8C") == "Игрок 1 подкидывает 8C. Следующий ход: вы."


def test_du_3_1_the_first_attack_needs_no_case_of_a_name():
    game = du(2, {0: H0, 1: H1}, trump="10S")
    first = [e["text"] for e in game.events(1, lang="ru") if e["kind"] == "first_attack"][0]
    assert first == "Игрок 1 показывает младший козырь 6S и начинает. Теперь отбиваетесь вы."


def test_du_8_2_the_end_says_who_the_durak_is_and_the_game_is_over():
    game = played(3, players=3)
    loser = game.state.loser
    end = [e for e in game.events(None, lang="ru") if e["kind"] == "hand_end"][0]
    assert end["text"] == f"Дурак — Игрок {loser + 1}."
    mine = [e for e in game.events(loser, lang="ru") if e["kind"] == "match_end"][0]
    other = [e for e in game.events((loser + 1) % 3, lang="ru") if e["kind"] == "match_end"][0]
    assert (mine["text"], other["text"]) == ("Игра окончена.",
                                             "Игра окончена. Вы не дурак!")
    rows = {row["text"] for row in end["breakdown"]["components"]}
    assert rows == {"вышли из игры", "дурак"}


def test_the_terminal_table_names_suits_and_seats_in_words():
    game = du(2, {0: H0, 1: H1}, trump="10S")
    with use("ru", game):
        lines = game.table_lines(1)
    assert lines[0].startswith("Козырь ♠ пики (10S)")
    assert lines[1] == "Ходит Игрок 1, отбиваетесь вы"
    assert lines[-1] == "Карт на руках: Игрок 1: 6  вы: 6"
    game.apply("attack 7H")
    game.apply("take")
    with use("ru", game):
        assert "Вы берёте — остальные могут подкидывать" in game.table_lines(1)
        assert "Берёт Игрок 2 — можно подкидывать" in game.table_lines(0)
    for seat in (0, 1):
        with use("ru", game):
            for line in game.table_lines(seat):
                check(line, seat)


def test_the_terminal_help_refusals_and_options_speak_russian():
    from cardcore.games.durak import words
    from cardcore.i18n import translations
    ru = translations("ru", type(new_game("durak", seed=0)))
    for _example, meaning in words.NOTATION:
        check(ru.gettext(meaning), meaning)
    for refusal in words.REFUSALS:
        check(ru.gettext(refusal), refusal)
    assert ru.gettext("transfers are off (transfer=False)") == "в подкидном переводить нельзя"
    spec = type(new_game("durak", seed=0)).options_spec
    for key, option in spec.items():
        check(ru.gettext(option.doc), key)
        check(ru.gettext(key.replace("_", " ")), key)
    assert ru.gettext("first bout five") == "первый отбой — до пяти карт"
    assert ru.gettext(spec["dealer"].doc) == "кто сдаёт; пусто — по жребию"


def board_words() -> list[str]:
    """The msgids of the game's board.js (buttons, facts, turn lines): what the web table
    shows through the catalog."""
    board = (ROOT / "src/cardcore/games/durak/web/board.js").read_text(encoding="utf-8")
    return re.findall(r'N_\("([^"]+)"\)', board)


def test_the_web_tables_words_through_the_api():
    from cardcore.server import create_app
    import tempfile
    with tempfile.TemporaryDirectory() as folder, \
            TestClient(create_app(Path(folder) / "t.sqlite3")) as client:
        body = client.get("/api/i18n", params={"lang": "ru", "game": "durak"}).json()
        messages = body["messages"]
        for msgid in board_words():
            assert msgid in messages, msgid
            check(messages[msgid].replace("{who}", "").replace("{about}", ""), msgid)
        assert messages["Throw in"] == "Подкинуть" and messages["Beaten"] == "Бито"
        assert messages["Enough"] == "Хватит" and messages["{who} defends."] == "{who} отбивается."
        assert messages["{who} throws in ({about} takes)."] == "{who} подкидывает ({about} берёт)."
        assert messages["You defend"] == "Отбиваетесь вы"               # a board fact
        assert messages["{defender} takes; the others may throw in"] == \
            "Берёт {defender} — можно подкидывать"
        assert "не остаётесь дураком" in \
            messages["Suggested: {move} (not the durak in {share}% of the searched games)"]
        shared = body["shared"] if "shared" in body else body["messages"]
        assert shared.get("Player {n}", messages.get("Player {n}")) == "Игрок {n}"
        made = client.post("/api/tables", json={"game": "durak", "players": 3,
                                                 "bots": {"1": "random", "2": "random"}}).json()
        token = made["seats"]["0"]
        for _ in range(60):
            state = client.get(f"/api/tables/{made['table']}", params={"token": token},
                               headers={"Accept-Language": "ru"}).json()
            for event in state["events"]:
                check(event["text"], event["kind"])
            if state["over"] or not state["legal"]:
                break
            client.post(f"/api/tables/{made['table']}/actions",
                        json={"token": token, "action": state["legal"][-1]["id"],
                              "after": state["event_count"]})


def test_the_how_to_page_speaks_to_players():
    """No rule IDs and no Latin words but the notation one types at the terminal (in `code`);
    every way the game ends is said in words."""
    from cardcore.texts import howto_text
    page = howto_text("durak", "ru")
    check(re.sub(r"`[^`]*`", "", page), "howto")
    for words in ("дурак, ему 1 очко", "одновременно, дурака нет", "200 отбоев",
                  "Полные правила"):
        assert words in page


def test_the_glossary_holds_the_durak_words():
    locale = Path(cardcore.__file__).resolve().parent / "locale"
    ru = json.loads((locale / "glossary.ru.json").read_text(encoding="utf-8"))
    terms = " ".join(entry["term"] for key, entry in ru.items() if not key.startswith("_"))
    for word in ("бито", "подкинуть", "отбиваться", "беру", "переводной", "дурак"):
        assert word in terms, word


def test_the_terminal_plays_a_russian_game_in_players_words(capsys, monkeypatch):
    """A whole game at the terminal: the forced pass, the card help for a 36-card deck, the
    breakdown without rule IDs, the end as the game words it, seats numbered from 1."""
    from cardcore.cli import main
    import io
    monkeypatch.setattr("sys.stdin", io.StringIO("h\n" + "1\n" * 400))
    code = main(["play", "durak", "--players", "3", "--seed", "4", "--bots", "random,greedy",
                 "--lang", "ru"])
    out = capsys.readouterr().out
    assert code == 0
    assert "Достоинства от младшего к старшему: 6 7 8 9 10" in " ".join(out.split())
    assert "JK" not in out
    assert "Игра окончена. Вы" in out and "Победител" not in out
    lines = [line for line in out.splitlines() if "—" in line and "очк" not in line]
    assert any(re.search(r"вы: вышли из игры — 0$", line) for line in lines), out
    assert any(re.search(r"Игрок \d \(\w+\): дурак \(\d+ карт[аы]?\) — 1$", line) for line in lines), out
    for line in out.splitlines():
        if re.match(r"\s*\d\) ", line) or "cardcore" in line or "--" in line or \
                "Ваш ход [" in line:
            continue                        # the moves' notation one types, and commands
        line = re.sub(r"\b(attack|beat|transfer|take|pass)( (10|[6-9JQKA])[CDHS])?\b"
                      r"|\b([shq]|hint|show|help|quit)\b", "", line)   # what one types
        check(line, "terminal")


def test_du_10_3_a_side_loses_together_in_words():
    game = played(2, players=4, partners=True)
    losers = [k for k in range(4) if k not in game.winners]
    assert len(losers) == 2
    names = ", ".join("вы" if k == losers[0] else f"Игрок {k + 1}" for k in losers)
    end = [e for e in game.events(losers[0], lang="ru") if e["kind"] == "match_end"][0]
    assert end["text"] == f"Игра окончена. Ваша команда ({names}) проиграла — вы дураки."
    other = [e for e in game.events(game.winners[0], lang="ru") if e["kind"] == "match_end"][0]
    assert other["text"] == "Игра окончена. Дураки — " + ", ".join(
        f"Игрок {k + 1}" for k in losers) + "."


def _end_rows(game: cardcore.Game, seat: int, lang: str) -> list[str]:
    from cardcore.narrate import breakdown_lines
    names = {k: ("you" if lang == "en" else "вы") if k == seat else
             (f"Player {k + 1}" if lang == "en" else f"Игрок {k + 1}") for k in range(6)}
    end = [e for e in game.events(seat) if e["kind"] == "hand_end"][0]
    return breakdown_lines(end, names.get, game, lang=lang, seat=seat)


def test_du_8_2_the_terminal_scoring_rows_count_the_durak_s_cards_in_words():
    """«Игрок 2: дурак (8 карт) — 1», «вы: вышли из игры — 0» (issue 48's table), and in
    English "Player 2: durak (8 cards) — 1": no rule ID, no "×", the count in cards."""
    game = played(3, players=3)
    loser = game.state.loser
    left = [e for e in game.events() if e["kind"] == "hand_end"][0]["hands_left"][loser]
    seat = (loser + 1) % 3
    plural = {1: "карта", 2: "карты", 3: "карты", 4: "карты"}.get(left, "карт")
    ru, en = _end_rows(game, seat, "ru"), _end_rows(game, seat, "en")
    assert f"    Игрок {loser + 1}: дурак ({left} {plural}) — 1" in ru, ru
    assert "    вы: вышли из игры — 0" in ru, ru
    assert f"    Player {loser + 1}: durak ({left} card{'s' if left != 1 else ''}) — 1" in en, en
    assert "    you: out of cards in time — 0" in en, en
    for line in ru + en:
        assert "×" not in line and "→" not in line and not RULE_ID.search(line), line


def test_du_10_3_the_terminal_totals_name_your_team_and_the_opponents():
    """Partners: the totals say «ваша команда (вы, Игрок 3)» and «соперники (Игрок 2, Игрок 4)»,
    never «команда 0»; the durak's partner who got out has no count."""
    game = played(2, players=4, partners=True)
    seat = game.winners[0]
    ru = _end_rows(game, seat, "ru")
    mates = sorted({seat, (seat + 2) % 4})
    ours = ", ".join("вы" if k == seat else f"Игрок {k + 1}" for k in mates)
    theirs = ", ".join(f"Игрок {k + 1}" for k in range(4) if k not in mates)
    totals = [line for line in ru if line.startswith("    итого: ")][0]
    assert f"ваша команда ({ours}) +0" in totals and f"соперники ({theirs}) +2" in totals, ru
    assert "команда 0" not in " ".join(ru) and "команда 1" not in " ".join(ru)
    en = _end_rows(game, seat, "en")
    assert any("your team (" in line and "opponents (" in line for line in en), en
