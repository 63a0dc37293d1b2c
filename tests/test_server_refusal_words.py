"""The server's refusals in the reader's language (docs/server.md, "Errors"; issues 24 and
46): a socket opened with ?lang=ru (or Accept-Language) and an HTTP request with
Accept-Language: ru get the game's refusals and the server's own in Russian, from the
catalogs by their message ids (never by reading the English back); the rule IDs, the
message id, its fields and the other fields stay; without either, English as before."""
from __future__ import annotations

import re

import pytest

from cardcore.errors import Words
from cardcore.i18n import fill, translations
from cardcore.server import create_app
from cardcore.server.api_errors import ApiError
from cardcore.server.messages import MESSAGE_RATE, SERVER_MESSAGES, STALE_ACTION

from server_helpers import TestClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

CYRILLIC = re.compile("[а-яё]", re.I)


@pytest.fixture()
def client(tmp_path):
    with TestClient(create_app(tmp_path / "t.sqlite3")) as c:
        yield c


def made(client):
    r = client.post("/api/tables", json={"game": "kings_stakes", "players": 2, "seed": 3,
                                         "bots": {"1": "greedy"}, "takeback": True})
    return r.json()


def english_words(text):
    """Latin words left, apart from rule IDs and card or action notation."""
    text = re.sub(r"\[[A-Z]{2}-[\d.]+[a-z]?\]|\b(?:10|[2-9JQKA])[CDHS]\b|\"takeback\"|true", "",
                  text)
    return re.findall(r"[A-Za-z]{3,}", text)


def test_a_russian_socket_is_refused_in_russian(client):
    table = made(client)
    token = table["seats"]["0"]
    url = f"/ws/tables/{table['table']}?lang=ru"
    with client.websocket_connect(url, subprotocols=["cardcore", f"cardcore.token.{token}"]) as ws:
        s = ws.receive_json()
        illegal = next(a for a in ("play 2C", "play 7H") if a not in
                       [x["label"] for x in s["legal"]])
        answers = []
        for message in ({"type": "action", "action": illegal, "after": s["event_count"], "id": 1},
                        {"type": "action", "action": s["legal"][0]["id"], "after": 0, "id": 2},
                        {"type": "takeback", "id": 3}):
            ws.send_json(message)
            answers.append(ws.receive_json())
        assert [a["status"] for a in answers] == [422, 409, 409]
        assert [a["code"] for a in answers] == ["illegal_action", "stale", "conflict"]
        assert answers[0]["rule"] and answers[0]["error"].endswith(f"[{answers[0]['rule']}]")
        # The data beside the words: the English template and its fields.
        assert answers[1]["message_id"] == STALE_ACTION and answers[1]["fields"] == \
            {"after": 0, "count": s["event_count"]}
        ru = translations("ru")
        assert answers[1]["error"] == fill(ru.gettext(STALE_ACTION),
                                           {k: str(v) for k, v in answers[1]["fields"].items()})
        assert "{" in answers[0]["message_id"] and answers[0]["fields"]      # a template
        assert answers[1]["event_count"] == s["event_count"]
        for a in answers:
            assert CYRILLIC.search(a["error"]) and english_words(a["error"]) == [], a
    with client.websocket_connect(f"/ws/tables/{table['table']}?lang=ru") as spectator:
        spectator.receive_json()
        spectator.send_json({"type": "action", "action": 0})
        refused = spectator.receive_json()
        assert refused["status"] == 403 and refused["error"] == \
            "зрители не ходят: подключитесь с ключом места"
    with client.websocket_connect("/ws/tables/nope", headers={"Accept-Language": "ru"}) as gone:
        assert gone.receive_json()["error"] == "такого стола нет"


def test_http_refusals_follow_accept_language(client):
    table = made(client)
    token = table["seats"]["0"]
    ru = {"Accept-Language": "ru-RU,ru;q=0.9"}
    body = {"token": token, "action": "take", "after": 0}
    r = client.post(f"/api/tables/{table['table']}/actions", json=body, headers=ru)
    assert r.status_code == 409 and r.json()["error"].startswith("устарело: ход отправлен")
    in_russian = r.json()
    r = client.post(f"/api/tables/{table['table']}/actions", json=body)
    assert r.json()["error"].startswith("stale: the action was sent after event 0")
    assert {k: v for k, v in r.json().items() if k != "error"} == \
        {k: v for k, v in in_russian.items() if k != "error"}        # the data is the same
    r = client.post(f"/api/tables/{table['table']}/takeback", json={"token": token}, headers=ru)
    assert r.json() == {"error": "вам пока нечего отменять", "code": "conflict",
                        "message_id": "you have no move to take back yet", "fields": {},
                        "event_count": r.json()["event_count"]}
    r = client.post("/api/tables", headers=ru, json={"game": "kings_stakes", "players": 2,
                                                     "takeback": True})
    assert r.status_code == 422 and r.json()["option"] == "takeback"
    assert r.json()["error"].startswith("отмена ходов: за столом с отменой ходов ровно одно")
    assert r.json()["fields"] == {"count": 2} and r.json()["code"] == "bad_option"
    assert client.get("/api/tables/nope", headers=ru).json() == {
        "error": "такого стола нет", "code": "not_found", "message_id": "no such table",
        "fields": {}}
    r = client.post("/api/tables", headers=ru, json={"game": "kings_stakes", "players": 2,
                                                     "options": {"rounds": 3}})
    assert r.status_code == 422 and r.json()["error"].startswith("параметр rounds=3: должен")
    assert "(по одному на игрока)" in r.json()["error"]        # the game's own msgid, nested
    assert r.json()["message_id"] == "option {key}={value}: {problem}"
    assert r.json()["fields"]["problem"]["fields"]["none_means"] == \
        {"message_id": "one per player", "fields": {}}


def test_every_server_refusal_template_is_translated_with_its_fields():
    ru = translations("ru")
    for template in SERVER_MESSAGES:
        text = ru.gettext(template)
        assert text != template and CYRILLIC.search(text), template
        assert sorted(re.findall(r"\{\w+\}", text)) == sorted(re.findall(r"\{\w+\}", template))
    error = ApiError(429, Words(MESSAGE_RATE, {"rate": "20"}))
    assert error.text("ru") == "слишком много сообщений: не больше 20 в секунду"
    assert error.text("en") == error.error == "too many messages: at most 20 per second"
    assert error.body() == {"error": error.error, "code": "too_many_requests",
                            "message_id": MESSAGE_RATE, "fields": {"rate": "20"}}


def test_no_english_is_read_back():
    """A refusal is put in words by its id: an English text that happens to fill a template
    is not matched against it (the reverse matching is gone), it stays as it was made."""
    text = "too many messages: at most 20 per second"
    assert ApiError(429, text).text("ru") == text              # its own id: no msgid
    assert ApiError(409, "no such table").text("ru") == "такого стола нет"   # a msgid
    import cardcore.server.languages as languages
    assert not hasattr(languages, "refusal_words")
