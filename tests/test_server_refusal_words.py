"""The server's refusals in the reader's language (docs/server.md, "Errors"; issues 24 and
46): a socket opened with ?lang=ru (or Accept-Language) and an HTTP request with
Accept-Language: ru get the game's refusals and the server's own in Russian, from the
catalogs by their message ids (never by reading the English back); the rule IDs, the
message id, its fields and the other fields stay; without either, English as before."""
from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

import cardcore.server
from cardcore.errors import ECHO_LIMIT, Words
from cardcore.i18n import fill, translations
from cardcore.server import create_app
from cardcore.server.api_errors import ApiError
from cardcore.server.limits import Limits
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


# ---------------------------------------------------------------- every refusal is data
# What makes a refusal in server/ and server/routes/ (the argument that is its message).
CONSTRUCTORS = {"ApiError": 1, "BadCredential": 0, "SeatError": 1, "_refuse": 1,
                "ClockError": 0, "TakebackError": 0, "ConfigError": 0, "Words": 0}
SERVER = Path(cardcore.server.__file__).parent
# `cardcore admin`'s refusals (admin.py) are walked too: `--lang ru` shows them in Russian.
# The start-up errors of `cardcore serve` (storage.py: an operator's, in English, like the
# checks of Limits and of the log and store settings, ValueErrors) are no refusals of a
# request or of a command with --lang.
NOT_REFUSALS = {"storage.py"}
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def _module(path):
    name = ".".join(path.relative_to(SERVER.parent.parent).with_suffix("").parts)
    return importlib.import_module(name)


class _Refusals(ast.NodeVisitor):
    """The templates of one module's refusals, and what is wrong with any of them."""

    def __init__(self, path):
        self.path, self.module = path, _module(path)
        self.tree = ast.parse(path.read_text(encoding="utf-8"))
        self.functions = {n.name: n for n in ast.walk(self.tree)
                          if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        self.templates, self.problems, self.params = set(), [], [set()]

    def where(self, node):
        return f"{self.path.relative_to(SERVER)}:{node.lineno}"

    def visit_FunctionDef(self, node):
        self.params.append({a.arg for a in node.args.args + node.args.kwonlyargs})
        self.generic_visit(node)
        self.params.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Call(self, node):
        f = node.func
        name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
        index = CONSTRUCTORS.get(name)
        if index is not None and len(node.args) > index:
            fields = None
            if name == "Words" and len(node.args) > 1 and isinstance(node.args[1], ast.Dict) \
                    and None not in node.args[1].keys:
                fields = {k.value for k in node.args[1].keys}
            elif name == "Words" and len(node.args) == 1:
                fields = set()
            elif name == "_refuse":
                fields = {"field"} | {k.arg for k in node.keywords}
            for template in self.templates_of(node.args[index], node):
                self.templates.add(template)
                if fields is not None and set(PLACEHOLDER.findall(template)) != fields:
                    self.problems.append(f"{self.where(node)}: {template!r} is given the "
                                         f"fields {sorted(fields)}")
        self.generic_visit(node)

    def templates_of(self, arg, node):
        """The templates ``arg`` may be; a problem when it may be a text made here."""
        if isinstance(arg, ast.Call):
            f = arg.func
            if isinstance(f, ast.Name) and f.id == "N_" and isinstance(arg.args[0], ast.Constant):
                return [arg.args[0].value]
            if isinstance(f, ast.Name) and f.id == "Words":
                return []                                  # visited as a call of its own
            if isinstance(f, ast.Attribute) and f.attr == "get" \
                    and isinstance(f.value, ast.Dict):     # {404: NOT_FOUND, ...}.get(s, N_())
                return [t for v in f.value.values + arg.args[1:]
                        for t in self.templates_of(v, node)]
            made = self.functions.get(getattr(f, "id", None))
            if made is not None and ast.unparse(made.returns) == "Words":
                return []                                  # its own Words calls are visited
        elif isinstance(arg, ast.Name):
            value = getattr(self.module, arg.id, None)
            if isinstance(value, str):
                return [value]
            if arg.id in self.params[-1]:
                return []                                  # its callers are visited
        elif isinstance(arg, ast.Attribute) and arg.attr == "words":
            return []                                      # an error's words, made as data
        elif isinstance(arg, ast.Subscript) and isinstance(arg.value, ast.Name):
            table = getattr(self.module, arg.value.id, None)
            if isinstance(table, dict) and all(isinstance(v, str) for v in table.values()):
                return list(table.values())
        elif isinstance(arg, ast.IfExp):
            return self.templates_of(arg.body, node) + self.templates_of(arg.orelse, node)
        self.problems.append(f"{self.where(node)}: {ast.unparse(arg)[:70]} is not a template")
        return []


def server_refusal_templates():
    """Every template the server's refusals are made with, and what is wrong."""
    templates, problems = set(), []
    for path in sorted(SERVER.rglob("*.py")):
        if path.name in NOT_REFUSALS:
            continue
        found = _Refusals(path)
        found.visit(found.tree)
        templates |= found.templates
        problems += found.problems
    return templates, problems


def test_every_refusal_of_the_server_is_a_template_with_its_fields_and_a_russian_text():
    """Issue 46, item 5: no refusal is a text made with its values in it (an f-string, a
    plain string, ``str(e)``); each is a marked template, given exactly its fields, that
    the Russian catalog translates with the same fields."""
    templates, problems = server_refusal_templates()
    assert problems == []
    assert len(templates) > 120 and set(SERVER_MESSAGES) <= templates
    ru = translations("ru")
    for template in sorted(templates):
        text = ru.gettext(template)
        words = PLACEHOLDER.sub("", template).partition(": ")[2]   # "bots: {problem}": none
        assert (text != template and CYRILLIC.search(text)) or not re.search("[a-z]", words), \
            template
        assert sorted(PLACEHOLDER.findall(text)) == sorted(PLACEHOLDER.findall(template)), \
            template


def test_the_walk_finds_a_made_text():
    """The walk above holds: an f-string, a plain text and ``str(e)`` are each found."""
    source = ("def f(x, e):\n    raise ApiError(400, f'bad {x}')\n"
              "def g(e):\n    raise ApiError(400, 'bad')\n"
              "def h(e):\n    raise ApiError(422, str(e))\n"
              "def k(x):\n    raise ApiError(422, Words(N_('bad {x}'), {'y': x}))\n")
    found = _Refusals(SERVER / "http.py")
    found.tree = ast.parse(source)
    found.visit(found.tree)
    assert len(found.problems) == 4, found.problems


def _ids_and_fields(body, templates):
    """``body``'s message id is a template of the code, filled by exactly its fields."""
    assert body["message_id"] in templates, body
    assert set(PLACEHOLDER.findall(body["message_id"])) == set(body["fields"]), body


def test_http_refusals_in_russian_carry_their_fields(client):
    templates = server_refusal_templates()[0]
    ru = {"Accept-Language": "ru"}
    table = made(client)
    cases = [
        (client.post("/api/tables", headers=ru, json={"game": "kings_stakes", "colour": 1}),
         400, "неизвестное поле 'colour'", {"name": "'colour'"}),
        (client.post("/api/tables", headers=ru, json={"game": "kings_stakes", "seed": -1}),
         422, "seed должен быть целым числом 0..", {"field": "seed", "low": 0}),
        (client.post("/api/tables", headers=ru,
                     json={"game": "kings_stakes", "bots": {"7": "greedy"}}),
         422, "bots: '7' — не место 0..3", {"seat": "'7'", "last": 3}),
        (client.post("/api/tables", headers=ru,
                     json={"game": "kings_stakes", "names": {"0": "A  B"}}),
         422, "names не может содержать два пробела подряд: 'A  B'",
         {"field": "names", "value": "'A  B'"}),
        (client.get("/api/tables?limit=0", headers=ru), 400,
         "limit должен быть целым числом 1..100", {"field": "limit", "low": 1, "high": 100}),
        (client.get(f"/api/tables/{table['table']}/review", headers=ru), 400,
         "укажите место для разбора: ?seat=S", {}),
        (client.post(f"/api/tables/{table['table']}/seats", headers=ru, json={"name": "Ann"}),
         403, "чтобы занять место, нужно приглашение стола", {}),
        (client.get("/howto/kings_stakes?lang=xx", headers=ru), 422,
         "lang должен быть одним из: en, ru", {"languages": "en, ru"}),
        (client.get("/games/nope/board.js", headers=ru), 404, "такой игры нет", {}),
        (client.get("/no/such/path", headers=ru), 404, "не найден", {}),
    ]
    for r, status, start, fields in cases:
        body = r.json()
        assert r.status_code == status and body["error"].startswith(start), body
        assert fields.items() <= body["fields"].items(), body
        _ids_and_fields(body, templates)
        assert english_words(body["error"].split(":")[0]) == [] or "{" in body["message_id"]


def test_socket_refusals_in_russian_carry_their_fields(client):
    templates = server_refusal_templates()[0]
    table = made(client)
    url = f"/ws/tables/{table['table']}?lang=ru"
    with client.websocket_connect(url) as ws:
        ws.receive_json()
        answers = []
        for raw in ('{"type": "dance"}', '[1]', '{"type": "action", "action": 0}'):
            ws.send_text(raw)
            answers.append(ws.receive_json())
    assert [a["error"] for a in answers] == [
        'неизвестный тип сообщения; отправьте {"type": "action", ...}',
        "сообщение должно быть объектом JSON",
        "зрители не ходят: подключитесь с ключом места"]
    token = table["seats"]["0"]
    with client.websocket_connect(url, subprotocols=["cardcore", f"cardcore.token.{token}"]) as ws:
        ws.receive_json()
        ws.send_json({"type": "action", "action": "x" * 500, "id": 7})
        answer = ws.receive_json()
        assert answer["status"] == 422 and answer["id"] == 7
        assert answer["error"].startswith("запись хода")
        assert answer["fields"]["count"] == 500 and "500" in answer["error"]
        ws.send_json({"type": "action", "action": 0, "id": "y" * 65})
        answer = ws.receive_json()
        assert answer["error"] == ("id должен быть строкой из 1..64 символов или целым числом "
                                   "0..9007199254740991")
        answers += [answer]
    with client.websocket_connect(f"/ws/tables/{table['table']}?lang=ru&presence=2") as ws:
        answers.append(ws.receive_json())
        assert answers[-1]["error"] == "presence должен быть 0 или 1"
    for a in answers:
        _ids_and_fields(a, templates)


def test_refused_before_the_app_in_russian(tmp_path):
    """The guard in front of the app (limits.py: head size, Host, Origin) answers in the
    reader's language too, with its fields, over HTTP and over a socket."""
    with TestClient(create_app(tmp_path / "t.sqlite3",
                               limits=Limits(max_header_bytes=1000))) as c:
        r = c.get("/api/games", headers={"X-Big": "a" * 1000, "Accept-Language": "ru"})
        assert r.status_code == 431 and r.json()["error"] == "заголовки запроса больше 1000 байт"
        assert r.json()["fields"] == {"limit": 1000}
        r = c.get("/api/games", headers={"Origin": "https://evil.example" + "e" * 300,
                                         "Accept-Language": "ru"})
        body = r.json()
        assert r.status_code == 403 and body["error"].startswith("источник 'https://evil")
        assert len(body["fields"]["origin"]) == ECHO_LIMIT and "..." in body["fields"]["origin"]
        with c.websocket_connect("/ws/tables/x", headers={"Origin": "https://evil.example",
                                                          "Accept-Language": "ru"}) as ws:
            answer = ws.receive_json()
        assert answer["status"] == 403
        assert answer["error"] == "источник 'https://evil.example' не разрешён"
        with c.websocket_connect("/ws/tables/x?lang=ru", headers={"Host": "evil.example"}) as ws:
            answer = ws.receive_json()
        assert answer["status"] == 421 and answer["fields"] == {"host": "'evil.example'"}
        assert answer["error"] == "этот сервер не обслуживает хост 'evil.example'"


def test_a_bad_value_is_echoed_at_most_60_characters(client):
    """The echo limit (cardcore.errors.ECHO_LIMIT) holds for the values now given as
    fields: a field echoes at most 60 characters of what was sent, in both languages."""
    huge = "Ω" * 2_000                      # under the body limit (16 KB), over the echo
    bodies = [
        client.post("/api/tables", json={"game": "kings_stakes", huge: 1}).json(),
        client.post("/api/tables", json={"game": "kings_stakes", "bots": {huge: "greedy"}}).json(),
        client.post("/api/tables", json={"game": "kings_stakes", "bots": {"1": huge}}).json(),
        client.post("/api/tables", json={"game": "kings_stakes", "clock": {huge: 1}}).json(),
        client.post("/api/tables", json={"game": "kings_stakes", "join": huge}).json(),
        client.post("/api/tables", headers={"Accept-Language": "ru"},
                    json={"game": "kings_stakes", "open_seats": [huge]}).json(),
    ]
    for body in bodies:
        echoed = [v for v in body["fields"].values() if isinstance(v, str) and "Ω" in v]
        assert echoed and all(len(v) <= ECHO_LIMIT for v in echoed), body
        assert len(body["error"]) < 200, body


def test_cardcore_admin_refuses_in_the_readers_language(client, tmp_path, capsys):
    """The command line is the third place a refusal leaves: `cardcore admin --lang ru`."""
    from cardcore.cli import main
    table = made(client)["table"]
    db = str(tmp_path / "t.sqlite3")
    assert main(["admin", "free-seat", table, "1", "--db", db, "--lang", "ru"]) == 2
    assert capsys.readouterr().err.strip() == (
        f"cardcore admin: место 1 стола '{table}' не занято человеком (заняты: 0)")
    assert main(["admin", "end", "x" * 100, "--db", db, "--lang", "ru"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("cardcore admin: нет открытого стола 'xxx") and len(err) < 100
    assert main(["admin", "free-seat", table, "1", "--db", db]) == 2
    assert "seat 1 of table" in capsys.readouterr().err


def test_a_connection_past_the_cap_per_address_is_refused_as_data_too():
    """Refused before a request is read (no language asked for yet): English, but with the
    code, message id and fields of every refusal, and a Russian text in the catalog."""
    import json
    from cardcore.server.connections import BUSY
    body = json.loads(BUSY.split(b"\r\n\r\n", 1)[1])
    assert body == {"error": body["message_id"], "code": "unavailable",
                    "message_id": "too many connections from this address; retry later",
                    "fields": {}}
    assert translations("ru").gettext(body["message_id"]) == \
        "слишком много подключений с этого адреса; повторите позже"
