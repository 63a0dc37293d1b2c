"""Text on the wire (issue 31, item 4): every event carries a sentence in the reader's
language from its seat's point of view, round and match ends say why they ended, breakdown
rows are words with their count apart; the Russian names no English word, and every catalog
keeps to the glossary (src/cardcore/locale/glossary.<lang>.json)."""
from __future__ import annotations

import functools
import json
import random
import re
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import cardcore
from cardcore.registry import game_class, game_classes

sys.path.insert(0, str(Path(__file__).resolve().parent))
import i18n_catalogs  # noqa: E402  (beside this file)
from server_helpers import TestClient  # noqa: E402

GAMES = cardcore.available_games()
LOCALE = Path(cardcore.__file__).resolve().parent / "locale"
# Card notation (10H, JK, 7-7-W), rule IDs (MH-9.5), suit and rank letters.
CARD = re.compile(r"^(10|[2-9AJQKW])[CDHS]?$|^JK$")
RULE = re.compile(r"^[A-Z]{2}-\d+(\.\d+)*$")
LETTERS = {"C", "D", "H", "S", "J", "Q", "K", "A", "W"}


def english_words(text: str) -> set[str]:
    """The Latin-letter words of ``text`` that are neither card notation nor rule IDs: what
    a Russian text may not hold."""
    text = re.sub(r"\b[A-Z]{2}-\d+(\.\d+)*", " ", text)           # rule IDs
    words = re.findall(r"[A-Za-z0-9]+", text)
    return {w for w in words if re.search(r"[A-Za-z]", w) and not CARD.match(w)
            and not RULE.match(w) and w not in LETTERS}


@functools.lru_cache(maxsize=None)
def played(name: str, seed: int, players: int | None = None) -> cardcore.Game:
    game = cardcore.new_game(name, seed=seed, **({"players": players} if players else {}))
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_action_ids()))
    return game


def texts_of(event: dict) -> list[str]:
    """Every text an event carries: its sentence, its reason, its breakdown rows."""
    out = [event["text"]] + ([event["reason"]] if "reason" in event else [])
    out += [row["text"] for row in (event.get("breakdown") or {}).get("components", [])]
    return out


@pytest.mark.parametrize("name", GAMES)
def test_every_event_has_a_sentence_in_english_and_russian_for_every_seat(name):
    for seed in range(2):
        game = played(name, seed)
        for seat in [None, *range(game.num_players)]:
            for lang in ("en", "ru"):
                events = game.events(seat, lang=lang)
                for event in events:
                    assert isinstance(event["text"], str) and event["text"], event
                    assert event["text"][0].isupper(), event["text"]
                assert [e["n"] for e in events] == list(range(len(events)))


@pytest.mark.parametrize("name", GAMES)
def test_the_wire_texts_are_the_terminals_sentences(name):
    """``Game.events`` tells most kinds in C (cardcore._render.Teller, from the game's and
    the shared phrases); ``cardcore.narrate.event_text`` tells every kind in Python. Both
    say the same, for every seat and the spectator, in both languages, every kind met."""
    from cardcore.narrate import event_text
    kinds = set()
    for seed in range(3):
        game = played(name, seed)
        for seat in [None, *range(game.num_players)]:
            for lang in ("en", "ru"):
                for event in game.events(seat, lang=lang):
                    kinds.add(event["kind"])
                    assert event["text"] == event_text(event, seat, game, lang), event
    assert {game.round_end_event, "match_end", "deal"} <= kinds    # the Python-only kinds too


@pytest.mark.parametrize("name", GAMES)
def test_round_and_match_ends_say_why_and_rows_have_text_count_points_rule(name):
    cls = game_class(name)
    rows = ends = 0
    for seed in range(3):
        for event in played(name, seed).events(0):
            if event["kind"] in (cls.round_end_event, "match_end"):
                ends += 1
                assert event["reason_code"] in cls.reasons, event
                reason = event["reason"]               # capitalized when it starts the text
                assert reason and (reason in event["text"] or
                                   reason[0].upper() + reason[1:] in event["text"]), event
                assert RULE.match(event["rule"]), event
            for row in (event.get("breakdown") or {}).get("components", []):
                rows += 1
                assert {"text", "points", "rule"} <= set(row), row
                assert not re.search(r"\(\d+\)$", row["text"]), row     # no count in words
                assert "count" not in row or isinstance(row["count"], int)
    assert rows and ends


def test_manna_red_threes_row_is_words_with_a_count():
    """MH-10.3: "red threes" and the count apart, not "red threes (2)"."""
    rows = [row for seed in range(3) for e in played("manna", seed).events(0, lang="ru")
            for row in (e.get("breakdown") or {}).get("components", [])
            if row["what"].startswith("red threes (")]
    assert rows
    for row in rows:
        assert row["text"] == "красные тройки"
        assert row["what"] == f"red threes ({row['count']})"


def _ends(name: str, code: str, seeds=range(40), players=None):
    for seed in seeds:
        game = played(name, seed, players)
        for event in game.events(0):
            if event.get("reason_code") == code:
                return game, event
    pytest.fail(f"no {code} end of {name} in {len(seeds)} random games")


def test_ks_8_2_a_take_during_the_final_turns_says_so():
    game, event = _ends("kings_stakes", "final_take")
    assert event["rule"] == "KS-8.2" and "during the final turns" in event["reason"]
    ru = game.events(0, lang="ru")[event["n"]]
    assert "во время последних ходов" in ru["reason"]


def test_ks_8_1_final_turns_after_a_player_went_out():
    _, event = _ends("kings_stakes", "final_turns")
    assert event["rule"] == "KS-8.1" and "went out" in event["reason"]


def test_ks_9_4_the_match_ends_when_its_rounds_are_played():
    _, event = _ends("kings_stakes", "rounds")
    assert event["kind"] == "match_end" and event["reason"] == "all 4 rounds are played"


def test_mh_9_5_the_stock_ran_out():
    game, event = _ends("manna", "stock_out")
    assert event["rule"] == "MH-9.5" and event["reason"] == "the stock ran out"
    assert game.events(0, lang="ru")[event["n"]]["reason"] == "кончилась колода"


def test_mh_10_6_a_team_reached_the_target():
    _, event = _ends("manna", "target")
    assert event["rule"] == "MH-10.6" and event["reason"] == "a team reached 20000"


def test_kz_7_went_out_and_kz_7_5_target():
    _, event = _ends("kuzanasta", "went_out")
    assert event["rule"] == "KZ-7" and event["reason"].endswith("went out")
    _, event = _ends("kuzanasta", "target")
    assert event["rule"] == "KZ-7.5"


def test_ce_7_3_passes_with_the_stock_empty():
    _, event = _ends("crazy_eights", "passes")
    assert event["rule"] == "CE-7.3" and "passed with the stock empty" in event["reason"]


def test_ce_7_1_the_player_who_went_out_is_named():
    game, event = _ends("crazy_eights", "out")
    out = event["reason_seat"]
    assert game.events(out)[event["n"]]["reason"] == "you played your last card"
    other = (out + 1) % game.num_players
    assert game.events(other)[event["n"]]["reason"] == f"player {out + 1} played their last card"


def test_the_verb_agrees_with_the_person_in_russian():
    """«Вы забрали стол», «Игрок 3 забирает стол»: a sentence in two contexts (msgctxt)."""
    _, event = _ends("kings_stakes", "final_take")
    game = played("kings_stakes", [s for s in range(40) if any(
        e.get("reason_code") == "final_take" for e in played("kings_stakes", s).events(0))][0])
    take = next(e for e in game.events(0) if e["kind"] == "take")
    taker = take["player"]
    mine = game.events(taker, lang="ru")[take["n"]]["text"]
    other = game.events((taker + 1) % game.num_players, lang="ru")[take["n"]]["text"]
    assert mine.startswith("Вы забрали стол: ")
    assert other.startswith(f"Игрок {taker + 1} забирает стол: ")
    assert game.events(taker)[take["n"]]["text"].startswith("You took the table: ")


@pytest.mark.parametrize("name", GAMES)
def test_no_text_names_a_card_the_seat_may_not_see(name):
    """The texts are made from the event as rendered for the seat: every card they name is
    a card of the rendered event's other fields."""
    game = played(name, 1)
    for seat in [None, *range(game.num_players)]:
        for event in game.events(seat, lang="ru"):
            shown = json.dumps({k: v for k, v in event.items() if k not in ("text",)})
            for text in texts_of(event):
                for word in re.findall(r"\b(?:10|[2-9AJQK])[CDHS]\b|\bJK\b", text):
                    assert word in shown, (seat, event, word)


@pytest.mark.parametrize("name", GAMES)
def test_russian_texts_hold_no_english_word(name):
    cls = game_class(name)
    counts = sorted({cls.min_players, cls.default_players, cls.max_players})
    for players in counts:
        for seed in range(4):
            game = played(name, seed, players)
            for seat in [None, 0]:
                for event in game.events(seat, lang="ru"):
                    for text in texts_of(event):
                        assert not english_words(text), (name, event["kind"], text)


@pytest.mark.parametrize("name", GAMES)
def test_no_event_text_names_a_rule_id(name):
    """A player reads what happened, not the rulebook's numbering: the rule is the event's
    ``rule`` field (and a breakdown row's), never part of its sentence."""
    cls = game_class(name)
    for players in sorted({cls.min_players, cls.max_players}):
        for seed in range(3):
            game = played(name, seed, players)
            for lang in ("en", "ru"):
                for event in game.events(None, lang=lang):
                    for text in texts_of(event):
                        assert not re.search(r"\b[A-Z]{2}-\d", text), (name, event["kind"], text)


def test_the_english_word_check_allows_notation_and_rule_ids_only():
    assert not english_words("Вы взяли 10H JK 7-7-W из колоды (MH-9.5, KZ-7.2, KS-9).")
    assert english_words("вы: draw — берёт 2S") == {"draw"}
    assert english_words("у вас нет the cards for that") == {"the", "cards", "for", "that"}


def test_an_unknown_language_is_a_config_error_naming_lang():
    game = cardcore.new_game("kings_stakes", seed=0)
    with pytest.raises(cardcore.ConfigError, match="lang") as info:
        game.events(0, lang="xx")
    assert info.value.option == "lang"
    with pytest.raises(ValueError):
        game.events(0, lang=None)


def test_texts_are_made_once_per_event_seat_and_language():
    game = played("manna", 0)
    first = game.events(1, lang="ru")
    again = game.events(1, lang="ru")
    assert [e["text"] for e in first] == [e["text"] for e in again]
    first[0]["text"] = "changed"                     # a caller's copy, not the cache
    assert game.events(1, lang="ru")[0]["text"] != "changed"


# ---------------------------------------------------------------- the server
@pytest.fixture
def client(tmp_path):
    from cardcore.server import create_app
    with TestClient(create_app(tmp_path / "t.sqlite3")) as c:
        yield c


@pytest.mark.parametrize("name", GAMES)
def test_a_russian_server_state_has_russian_texts(client, name):
    cls = game_class(name)
    bots = {str(k): "random" for k in range(1, cls.default_players)}
    made = client.post("/api/tables", json={"game": name, "bots": bots}).json()
    token = made["seats"]["0"]
    for _ in range(30):
        state = client.get(f"/api/tables/{made['table']}", params={"token": token},
                           headers={"Accept-Language": "ru-RU,ru;q=0.9"}).json()
        if state["over"] or not state["legal"]:
            break
        client.post(f"/api/tables/{made['table']}/actions",
                    json={"token": token, "action": state["legal"][0]["id"],
                          "after": state["event_count"]})
    assert state["lang"] == "ru" and state["events"]
    for event in state["events"]:
        for text in texts_of(event):
            assert not english_words(text), (name, event["kind"], text)
    english = client.get(f"/api/tables/{made['table']}", params={"token": token, "lang": "en"},
                         headers={"Accept-Language": "ru"}).json()
    assert english["lang"] == "en"
    assert english["events"][0]["text"] != state["events"][0]["text"]
    assert not re.search("[а-яА-Я]", english["events"][0]["text"])


def test_each_game_has_its_own_catalog_on_the_web(client):
    """Kings' Stakes' discard pile is «сброс» (its zone's label), Kuzanasta's move «Сбросить»
    (its button's caption): never merged."""
    body = client.get("/api/i18n", params={"lang": "ru"}).json()
    assert body["games"]["kings_stakes"]["discard pile"] == "сброс"
    assert "Discard" not in body["games"]["kings_stakes"]
    assert body["games"]["kuzanasta"]["Discard"] == "Сбросить"
    assert "Discard" not in body["shared"] and "Discard" not in body["messages"]
    one = client.get("/api/i18n", params={"lang": "ru", "game": "kings_stakes"}).json()
    assert set(one["games"]) == {"kings_stakes"} and one["messages"]["discard pile"] == "сброс"


# ---------------------------------------------------------------- the glossary
def _glossaries():
    en = json.loads((LOCALE / "glossary.en.json").read_text(encoding="utf-8"))
    ru = json.loads((LOCALE / "glossary.ru.json").read_text(encoding="utf-8"))
    return ({k: v for k, v in en.items() if not k.startswith("_")},
            {k: v for k, v in ru.items() if not k.startswith("_")})


def test_the_glossaries_name_the_same_things():
    en, ru = _glossaries()
    assert set(en) == set(ru)
    for key, entry in ru.items():
        assert entry["term"] and entry["stems"], key


@pytest.mark.parametrize("package", sorted(i18n_catalogs.packages()))
def test_every_russian_text_keeps_to_the_glossary(package):
    """A msgid using a glossary term is translated with that term's Russian word, and no
    forbidden variant («прикуп», «запас» for the stock; «объединение» for a meld) is used."""
    en, ru = _glossaries()
    locale, _files = i18n_catalogs.packages()[package]
    with open(locale / "ru" / "LC_MESSAGES" / "messages.po", "rb") as f:
        catalog = read_po(f)
    short = package.rsplit(".", 1)[-1]
    checked = 0
    for message in catalog:
        if not message.id:
            continue
        msgid = message.id[0] if isinstance(message.id, tuple) else message.id
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for key, entry in en.items():
            if "catalogs" in entry and short not in entry["catalogs"]:
                continue
            if re.search(entry["pattern"], msgid, re.IGNORECASE):
                checked += 1
                for text in strings:
                    assert any(stem.lower() in text.lower() for stem in ru[key]["stems"]), \
                        (package, key, msgid, text)
        for key, entry in ru.items():
            if "catalogs" in en[key] and short not in en[key]["catalogs"]:
                continue        # a game's own term forbids its variants in that game only
            for variant in entry["forbidden"]:
                for text in strings:
                    assert not re.search(variant, text, re.IGNORECASE), (package, key, text)
    assert checked


@pytest.mark.parametrize("cls", game_classes(), ids=lambda c: c.name)
def test_the_how_to_pages_keep_to_the_glossary_and_the_title(cls):
    en, ru = _glossaries()
    page = (Path(cardcore.__file__).resolve().parent / "games" / cls.name / "howto.ru.md"
            ).read_text(encoding="utf-8")
    for key, entry in ru.items():
        if "catalogs" in en[key] and cls.name not in en[key]["catalogs"]:
            continue            # a game's own term (Durak's "take": not «взятка») is its own
        for variant in entry["forbidden"]:
            assert not re.search(variant, page, re.IGNORECASE), (cls.name, key, variant)
    from cardcore.i18n import translations
    title = translations("ru", cls).gettext(cls.title)
    assert title != cls.title and title in page.splitlines()[0], (cls.name, title)


def test_a_refusal_is_put_in_words_by_its_id_never_by_its_english():
    """«у вас нет карт для этого» for the message without fields, «у вас нет 7H» for the
    template "you do not hold {card}" with its card; an English text that merely fits a
    template is not read back against it (issue 46: refusals are data)."""
    from cardcore.errors import IllegalActionError, Words
    from cardcore.i18n import use
    from cardcore.texts import refusal_text
    manna = game_class("manna")
    with use("ru", manna):
        assert refusal_text(IllegalActionError("you do not hold the cards for that", "MH-4.2"),
                            manna) == "у вас нет карт для этого [MH-4.2]"
        assert refusal_text(IllegalActionError(Words("you do not hold {card}", {"card": "7H"})),
                            manna) == "у вас нет 7H"
        assert refusal_text(IllegalActionError("you do not hold 7H"), manna) == \
            "you do not hold 7H"
    game = cardcore.new_game("manna", seed=1)
    refused = next(a for a in range(game.num_distinct_actions)
                   if a not in game.legal_action_ids())
    with pytest.raises(IllegalActionError) as caught:
        game.apply(refused)
    found = game._state.refusal(refused)
    assert caught.value.words == game._state.refusals.words(found.reason, found.args)
    assert caught.value.rule == found.rule and str(caught.value) == \
        f"{caught.value.words.english()} [{found.rule}]"


@pytest.mark.parametrize("package", sorted(i18n_catalogs.packages()))
def test_no_text_a_player_reads_says_s_for_a_plural(package):
    """Issue 35, item 7: a count's noun takes the catalog's plural forms ("1 card", "2 cards"),
    never "card(s)". The only msgids with "(s)" are a core refusal's templates that the
    words module reads back through its plural forms (its PLURAL_REFUSALS)."""
    from cardcore.texts import words_module
    locale, _files = i18n_catalogs.packages()[package]
    with open(locale / "messages.pot", "rb") as f:
        catalog = read_po(f)
    read_back = {template for cls in game_classes()
                 for template in getattr(words_module(cls), "PLURAL_REFUSALS", {})}
    said = [m.id[0] if isinstance(m.id, tuple) else m.id for m in catalog if m.id]
    assert [text for text in said if "(s)" in text and text not in read_back] == []


# --- Line: a phrase filled from the event in C (cardcore._render), told with no Python run

def test_a_line_is_said_of_its_seat_in_the_persons_form() -> None:
    from cardcore.i18n import use
    from cardcore.narrate import Line, seat_name
    discarded = Line("{name} discarded {cards}.")
    event = {"kind": "discard", "player": 2, "cards": ["9S"]}
    assert discarded(event, 2, seat_name(2), "you") == "you discarded 9S."
    assert discarded(event, 0, seat_name(0), "seat 2") == "seat 2 discarded 9S."
    with use("ru", game_class("manna")):
        assert discarded(event, 2, seat_name(2), "вы").startswith("вы сбросили")
        assert discarded(event, 0, seat_name(0), "Игрок 3").startswith("Игрок 3 сбрасывает")


def test_a_lines_fields_come_from_the_event_renamed_or_nested() -> None:
    from cardcore.narrate import Line, seat_name
    who = seat_name(None)
    stock = Line(" Stock: {count}.", personal=False, fields={"count": "stock_size"})
    assert stock({"stock_size": 7}, None, who, "") == " Stock: 7."
    next_one = Line(" Next: {name}; suit {suit}.", of="next_player", personal=False)
    assert next_one({"player": 1, "next_player": 2, "suit": "H"}, None, who, "seat 1") == \
        " Next: player 3; suit H."
    staked = Line("{line} Stake {stake}.", personal=False,
                  fields={"line": Line("{name} played {cards}.")})
    assert staked({"player": 1, "cards": ["4H", "4D"], "stake": 8}, None, who, "seat 1") == \
        "seat 1 played 4H 4D. Stake 8."
    drew = Line("{name} drew {cards}.", nothing="nothing")
    assert drew({"player": 1, "cards": []}, None, who, "seat 1") == "seat 1 drew nothing."
    assert drew({"player": 1, "cards": [], "hidden": 2}, None, who, "seat 1") == \
        "seat 1 drew 2 cards."
    mine = Line("{name} were dealt {cards}.", "{name} was dealt {cards}.")
    assert mine({"player": 0, "cards": ["AS"]}, 0, seat_name(0), "you") == "you were dealt AS."
    assert mine({"player": 0, "cards": [], "hidden": 1}, 1, seat_name(1), "seat 0") == \
        "seat 0 was dealt 1 card."


def test_a_line_refuses_a_template_it_cannot_fill() -> None:
    from cardcore.narrate import Line
    for bad in ("{name!r} went out.", "{0} went out.", "{name.upper} went out."):
        with pytest.raises(ValueError, match="plain names"):
            Line(bad)


def test_a_phrase_may_say_lines_in_order_and_the_terminal_says_the_same() -> None:
    """A phrase returning Lines (Crazy Eights' ``pass``: who passed, then who is next) gives
    the wire and the terminal one sentence."""
    game = cardcore.new_game("crazy_eights", seed=3)
    rng = random.Random(3)
    while not any(e["kind"] == "pass" for e in game.events()):
        game.apply(rng.choice(game.legal_action_ids()))
    passed = next(e for e in game.events(1) if e["kind"] == "pass")
    assert re.fullmatch(r"(You|Player \d) passed\.( Next: (you|player \d); suit [CDHS]\.)?",
                        passed["text"]), passed["text"]
    from cardcore.narrate import event_text
    assert event_text({k: v for k, v in passed.items() if k != "text"}, 1, game) == \
        passed["text"]


def test_the_told_words_are_kept_per_reader_and_a_raw_is_not_tracked() -> None:
    """Words are kept in one list per reader (not a dict per event), and the raw events are
    C objects the collector does not track (their fields cannot lead back to them)."""
    import gc
    game = cardcore.new_game("manna", seed=2)
    for _ in range(30):
        game.apply(game.legal_action_ids()[0])
    game.events(0, lang="ru")
    narration = game._narration
    assert set(narration.words) == {"ru:0"}
    assert len(narration.words["ru:0"]) == len(narration.raw)
    assert all(isinstance(w, (str, dict)) for w in narration.words["ru:0"])
    assert not any(gc.is_tracked(raw) for raw in narration.raw)
    from cardcore._render import Teller, render_all
    from cardcore.events import sentence_of, words_of
    from cardcore.narrate import phrases_of, seat_name
    with pytest.raises(TypeError):               # no teller: refused, never dereferenced
        render_all(narration.raw[:3], 0, None, None, {}, [None] * 3, None)
    teller = Teller(None, seat_name(None), game, phrases_of(game), "the table", sentence_of,
                    words_of)
    with pytest.raises(ValueError, match="places"):     # fewer places than events: refused
        render_all(narration.raw[:3], 0, None, None, {}, [None], teller)
    told = [None] * 3
    assert [e["text"] for e in render_all(narration.raw[:3], 0, None, None, {}, told, teller)
            ] == told == [e["text"] for e in game.events()[:3]]


def test_ks_4_3_a_play_told_without_cards_names_its_notation_then_the_stake() -> None:
    """Kings' Stakes' play, told with no card seen or counted, says its notation instead;
    the stake the next play must meet follows all the same (KS-4.3)."""
    from cardcore.narrate import event_text
    game = game_class("kings_stakes")
    event = {"kind": "play", "player": 1, "cards": [], "action": "play JK", "stake": 5,
             "direction": -1}
    assert event_text(event, None, game) == "Player 2 played play JK. Stake 5, counter-clockwise."
    assert event_text({**event, "cards": ["4H"]}, 1, game) == \
        "You played 4H. Stake 5, counter-clockwise."
    assert event_text({**event, "direction": 1}, None, game, lang="ru").endswith("5.")
