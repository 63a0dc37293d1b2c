"""A failing plug-in bot is visible (docs/server.md, "Bots"): a plug-in that fails on its turn
is asked once more, then its seat is played by the fallback bot within the table's bot delay;
every seat sees it in the state (``seats[k].fallback``) and in a ``bot`` message, and
``cardcore_bot_fallbacks_total`` counts it by game. A plug-in that fails once is retried and
keeps its seat. The web table shows the notice."""
from __future__ import annotations

import json
import os
import re
import time
import urllib.request
from typing import Any

import pytest
from websockets.sync.client import connect

from server_helpers import SRC, ServerProcess, TestClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

BOT_DELAY = 0.3

FLAKY = '''
import time


class Flaky:
    """Fails on its turn as told: "always" raises, "once" raises at its first move only,
    "illegal" chooses an action id no game has, "slow" sleeps before answering."""

    def __init__(self, fail):
        self.fail, self.moves = fail, 0

    def choose(self, game):
        self.moves += 1
        if self.fail == "always" or (self.fail == "once" and self.moves == 1):
            raise RuntimeError("flaky policy broke")
        if self.fail == "illegal":
            return 10 ** 6
        if self.fail == "slow":
            time.sleep(2)
        return game.legal_action_ids()[0]


def make_bot(game_name, seed=None, fail="always"):
    return Flaky(fail)
'''


@pytest.fixture(scope="module")
def flaky_path(tmp_path_factory) -> str:
    """A plug-in package ``flakybot`` found through PYTHONPATH like an installed one."""
    folder = tmp_path_factory.mktemp("flaky")
    (folder / "flakybot.py").write_text(FLAKY)
    info = folder / "flakybot-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: flakybot\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[cardcore.bots]\nflakybot = flakybot:make_bot\n")
    return os.pathsep.join([str(folder), SRC])


def _metric(server: ServerProcess, game: str) -> float:
    with urllib.request.urlopen(server.base + "/metrics", timeout=10) as r:
        text = r.read().decode()
    found = re.search(rf'^cardcore_bot_fallbacks_total{{game="{game}"}} (\S+)$', text, re.M)
    return float(found.group(1)) if found else 0.0


def _state(server: ServerProcess, table: str, token: str) -> dict[str, Any]:
    status, state = server.request("GET", f"/api/tables/{table}",
                                    headers={"Authorization": f"Bearer {token}"})
    assert status == 200, state
    return state


def _socket(server: ServerProcess, table: str, token: str, lang: str) -> Any:
    url = server.base.replace("http", "ws") + f"/ws/tables/{table}?lang={lang}"
    ws = connect(url, subprotocols=["cardcore", f"cardcore.token.{token}"])
    assert json.loads(ws.recv(timeout=10))["type"] == "state"
    return ws


def _play_until(server: ServerProcess, table: str, tokens: dict[int, str], bot: int,
                done: Any, limit: float = 60.0, waits: list[float] | None = None
                ) -> tuple[dict[str, Any], list[float]]:
    """The people move (their first legal move) until ``done(state)``; returns the state and
    how long each of the bot's turns took, from the state showing it to move to the next
    (appended to ``waits`` when given)."""
    waits = [] if waits is None else waits
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        state = _state(server, table, tokens[0])
        if done(state) or state["over"]:
            return state, waits
        mover = state["current_player"]
        if mover == bot:
            since, count = time.monotonic(), state["event_count"]
            while _state(server, table, tokens[0])["event_count"] == count:
                assert time.monotonic() - since < 10, "the bot's seat stalled"
                time.sleep(0.02)
            waits.append(time.monotonic() - since)
            continue
        seat_state = _state(server, table, tokens[mover])
        status, body = server.request(
            "POST", f"/api/tables/{table}/actions",
            {"action": seat_state["legal"][0]["id"], "after": seat_state["event_count"]},
            headers={"Authorization": f"Bearer {tokens[mover]}"})
        assert status in (200, 409), body
    raise AssertionError("the match did not get there in time")


def test_a_plugin_that_raises_is_played_by_the_fallback_and_every_seat_is_told(
        flaky_path, tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", flaky_path)
    server = ServerProcess(tmp_path / "t.sqlite3", bot_delay=BOT_DELAY,
                           extra=("--bots", "flakybot:fail=always"))
    try:
        status, made = server.request("POST", "/api/tables", {
            "game": "crazy_eights", "players": 3, "seed": 4,
            "bots": {"2": "flakybot:fail=always"}})
        assert status == 201, made
        table, tokens = made["table"], {int(k): v for k, v in made["seats"].items()}
        sockets = {0: _socket(server, table, tokens[0], "en"),
                   1: _socket(server, table, tokens[1], "ru")}
        assert _metric(server, "crazy_eights") == 0
        state, waits = _play_until(server, table, tokens, 2,
                                   lambda s: s["seats"][2]["fallback"] is not None)
        fallback = state["seats"][2]["fallback"]
        assert fallback["bot"] == "greedy" and fallback["reason"] == "raised"
        assert "flaky policy broke" in fallback["detail"]
        assert state["seats"][2]["bot"] == "flakybot:fail=always"      # the seat's own bot
        # The fallback moved in the bot's turn: the delay, not a stall (and no second delay).
        assert waits and waits[-1] < BOT_DELAY + 2.0, waits
        for seat in (0, 1):
            assert _state(server, table, tokens[seat])["seats"][2]["fallback"] == fallback
        # Each seat's socket is told once, in its language.
        notices: dict[int, list[dict[str, Any]]] = {0: [], 1: []}
        for seat, ws in sockets.items():
            end = time.monotonic() + 5
            while time.monotonic() < end and not notices[seat]:
                message = json.loads(ws.recv(timeout=5))
                if message["type"] == "bot":
                    notices[seat].append(message)
        for seat, texts in (0, "failed (it raised an error)"), (1, "выдал ошибку"):
            [notice] = notices[seat]
            assert notice["event"] == "fallback" and notice["seat"] == 2
            assert notice["plugin"] == "flakybot:fail=always" and notice["bot"] == "greedy"
            assert texts in notice["text"], notice["text"]
        # The seat plays on (greedy) to the end; one fallback counted, by game.
        state, waits = _play_until(server, table, tokens, 2, lambda s: s["over"])
        assert state["over"] and waits and max(waits) < BOT_DELAY + 2.0, waits
        assert _metric(server, "crazy_eights") == 1
        for seat, ws in sockets.items():        # no second notice
            while True:
                try:
                    message = json.loads(ws.recv(timeout=0.5))
                except TimeoutError:
                    break
                assert message["type"] != "bot", message
            ws.close()
        assert "failed (attempt 2)" in server.log_text()
    finally:
        server.stop()


def test_a_plugin_that_fails_once_is_retried_and_keeps_its_seat(flaky_path, tmp_path,
                                                                monkeypatch):
    monkeypatch.setenv("PYTHONPATH", flaky_path)
    server = ServerProcess(tmp_path / "t.sqlite3", bot_delay=BOT_DELAY,
                           extra=("--bots", "flakybot:fail=once"))
    try:
        status, made = server.request("POST", "/api/tables", {
            "game": "crazy_eights", "players": 2, "seed": 4,
            "bots": {"1": "flakybot:fail=once"}})
        assert status == 201, made
        table, tokens = made["table"], {0: made["seats"]["0"]}
        waits: list[float] = []
        state, waits = _play_until(server, table, tokens, 1,
                                   lambda s: len(waits) >= 3 or s["over"], waits=waits)
        assert len(waits) >= 2, waits                # it moved, and moved again
        assert state["seats"][1]["fallback"] is None
        assert _metric(server, "crazy_eights") == 0
        log = server.log_text()
        assert "failed (attempt 1)" in log and "failed (attempt 2)" not in log
    finally:
        server.stop()


@pytest.mark.parametrize("fail, reason", [("illegal", "illegal"), ("slow", "timeout")])
def test_an_illegal_or_late_choice_falls_back_too(fail, reason, flaky_path, tmp_path,
                                                  monkeypatch):
    """In process (the plug-in registered, not an entry point): an illegal choice is
    retried, then falls back; a move past ``bot_timeout`` falls back at once (its thread is
    still busy: no second wait)."""
    from cardcore.bots import register, unregister
    from cardcore.server import Limits, create_app
    flaky: dict[str, Any] = {}
    exec(FLAKY, flaky)
    register("flakybot", flaky["make_bot"], replace=True)
    spec = f"flakybot:fail={fail}"
    app = create_app(tmp_path / "t.sqlite3", bots=spec, limits=Limits(bot_timeout=0.3))
    try:
        with TestClient(app) as client:
            made = client.post("/api/tables", json={"game": "kings_stakes", "players": 2,
                                                    "seed": 1, "bots": {"1": spec}}).json()
            table, token = made["table"], made["seats"]["0"]
            headers = {"Authorization": f"Bearer {token}"}
            start = time.monotonic()
            state = client.get(f"/api/tables/{table}", headers=headers).json()
            while state["seats"][1]["fallback"] is None and not state["over"]:
                assert time.monotonic() - start < 30
                if state["current_player"] == 0:
                    state = client.post(f"/api/tables/{table}/actions", headers=headers, json={
                        "action": state["legal"][0]["id"],
                        "after": state["event_count"]}).json()
                else:
                    state = client.get(f"/api/tables/{table}", headers=headers).json()
            assert state["seats"][1]["fallback"]["reason"] == reason
            assert 'cardcore_bot_fallbacks_total{game="kings_stakes"} 1.0' in \
                client.get("/metrics").text
    finally:
        unregister("flakybot")


def test_the_web_table_shows_the_notice_in_its_language(flaky_path, tmp_path, monkeypatch,
                                                        browser):
    """The Russian web table of the person's seat shows the fallback notice as a toast."""
    from test_server_browser_layout import LAPTOP, new_page
    monkeypatch.setenv("PYTHONPATH", flaky_path)
    server = ServerProcess(tmp_path / "t.sqlite3", bot_delay=BOT_DELAY,
                           extra=("--bots", "flakybot:fail=always"))
    try:
        status, made = server.request("POST", "/api/tables", {       # seed 3: seat 0 first
            "game": "crazy_eights", "players": 2, "seed": 3,
            "bots": {"1": "flakybot:fail=always"}})
        assert status == 201, made
        table, tokens = made["table"], {0: made["seats"]["0"]}
        for page in new_page(browser, LAPTOP, locale="ru-RU"):
            page.goto(f"{server.base}/tables/{table}#token={tokens[0]}")
            page.evaluate("""() => { window.toasts = []; new MutationObserver(() =>
              window.toasts.push(document.getElementById('toast').textContent)).observe(
              document.getElementById('toast'),
              {childList: true, characterData: true, subtree: true}); }""")
            page.wait_for_selector("#status.ok")          # the socket is open
            _play_until(server, table, tokens, 1,
                        lambda s: s["seats"][1]["fallback"] is not None)
            page.wait_for_function("() => window.toasts.some(t => t.includes("
                                   "'дальше за этого игрока играет бот greedy'))")
    finally:
        server.stop()
