"""Round ends are never missed (issue 35, item 4): a page that connects after a round ended
shows that round's panel (its story and breakdown) once; opened again in the same browser it
does not. In English and Russian, at 390x844 and 1280x800, fitting the screen's width, with
no serious or critical axe-core violation. Playwright for Python drives Debian's chromium."""
from __future__ import annotations

import json
import random
import re

import pytest

from cardcore.registry import available_games
from game_cases import declared, game_case
from test_server_browser_layout import LAPTOP, PHONE, axe_violations, english_left, new_page

pytestmark = pytest.mark.slow       # a real browser: the quick loop leaves it out

SIZES = {"phone": PHONE, "laptop": LAPTOP}
WORDS = {"en-US": ("Round 1 is over", "Continue"), "ru-RU": ("Раунд 1: конец", "Продолжить")}


def table_past_its_first_round(web_server):
    """A Kings' Stakes table, seat 0 a person (played by the API, its first legal move each
    time), greedy bots elsewhere, played until its first round has ended."""
    _, games = web_server.request("GET", "/api/games")
    round_end = next(g for g in games["games"] if g["game"] == "kings_stakes")["round_end_event"]
    status, made = web_server.request("POST", "/api/tables", {
        "game": "kings_stakes", "seed": 7, "bots": {"1": "greedy", "2": "greedy", "3": "greedy"}})
    assert status == 201, made
    token = made["seats"]["0"]
    for _ in range(500):
        _, state = web_server.request("GET", f"/api/tables/{made['table']}?token={token}")
        ends = [e for e in state["events"] if e["kind"] == round_end]
        if ends:
            assert not state["over"]
            return made["table"], token, ends[-1]["n"]
        status, _ = web_server.request("POST", f"/api/tables/{made['table']}/actions",
                                       {"token": token, "action": state["legal"][0]["id"]})
        assert status == 200
    raise AssertionError("no round end in 500 moves")


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("locale", list(WORDS))
def test_a_late_page_shows_the_last_rounds_panel_once(browser, web_server, locale, size):
    title, button = WORDS[locale]
    table, token, _ = table_past_its_first_round(web_server)
    for page in new_page(browser, SIZES[size], locale=locale):
        page.goto(f"{web_server.base}/tables/{table}#token={token}")
        page.wait_for_function("() => document.body.dataset.panel === 'round'")
        assert page.inner_text("#panel-title").startswith(title)
        assert page.locator("#panel table.breakdown tbody tr").count() >= 1
        assert page.inner_text("#panel .panel-story").strip()
        assert page.inner_text("#continue") == button
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        box = page.locator("#continue").bounding_box()
        assert box["y"] + box["height"] <= SIZES[size]["height"]     # Continue on screen
        if locale == "ru-RU":
            # (the table's id in the header is no English)
            assert english_left(page, extra=set(re.findall(r"[A-Za-z]+", table))) == []
        assert axe_violations(page) == []
        page.click("#continue")
        page.wait_for_function("() => !document.getElementById('panel').open")
        # Once: the same browser opening the table again is not shown it again.
        page.reload()
        # (the first state is drawn and its panel, if any, opened in one go: table.js onState)
        page.wait_for_function("() => Number(document.body.dataset.eventCount) > 0")
        assert page.evaluate("document.body.dataset.panels") is None
        assert not page.evaluate("document.getElementById('panel').open")


# (server, game, start) -> the table played to its first end: the pages only read it, so the
# four languages and sizes of one game share it (its play is half of such a test's time).
PLAYED: dict[tuple[str, str, str], tuple[str, str, bool]] = {}


def table_at_its_first_end(web_server, game, start="TABLE_START"):
    """A table of ``game`` at the start a player makes from the lobby (its TABLE_START case),
    seat 0 a person played by the API (a seeded random legal move each time), greedy bots
    elsewhere, played until its first round (deal, hand) has ended: the match's end when that
    round was its last."""
    key = (web_server.base, game, start)
    if key not in PLAYED:
        PLAYED[key] = play_to_first_end(web_server, game, start)
    return PLAYED[key]


def play_to_first_end(web_server, game, start):
    options, seed = game_case(game, start, ({}, 1))
    _, games = web_server.request("GET", "/api/games")
    info = next(g for g in games["games"] if g["game"] == game)
    status, made = web_server.request("POST", "/api/tables", {
        "game": game, "seed": seed, "options": {k: json.loads(v) for k, v in options.items()},
        "bots": {str(s): "greedy" for s in range(1, info["default_players"])}})
    assert status == 201, made
    token, rng = made["seats"]["0"], random.Random(seed)
    for _ in range(5000):
        _, state = web_server.request("GET", f"/api/tables/{made['table']}?token={token}")
        if state["over"] or (start == "TABLE_START" and any(
                e["kind"] == info["round_end_event"] for e in state["events"])):
            return made["table"], token, state["over"]
        status, _ = web_server.request("POST", f"/api/tables/{made['table']}/actions",
                                       {"token": token, "action": rng.choice(state["legal"])["id"]})
        assert status == 200
    raise AssertionError(f"{game}: no round end in 5000 moves")


PANEL_BUTTONS = """() => { const box = (n) => n.getBoundingClientRect().toJSON();
  return {panel: box(document.getElementById('panel')),
          buttons: [...document.querySelectorAll('#panel-buttons > *')].map((b) => ({text: b.textContent, ...box(b)}))}; }"""


# Every game's first end from its TABLE_START (a round's panel, or the match's when that round
# is its last); a game whose TABLE_START plays more rounds declares a MATCH_START, played to
# the match's end for its match panel.
ENDS = [(game, "TABLE_START") for game in available_games()] + [
    (game, "MATCH_START") for game, _ in declared("MATCH_START")]


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("locale", list(WORDS))
@pytest.mark.parametrize("game, start", ENDS)
def test_every_games_end_panel_shows_to_a_late_page_and_fits(browser, web_server, game, start,
                                                             locale, size):
    """For every game, in both languages at both sizes: a page that connects after the
    first round ended shows its panel (the round's, or the match's when that round was the
    last), no wider than the screen, every button of it on screen, in the page's language,
    with no serious or critical axe-core violation; closed, the table behind it too (Crazy
    Eights' five players' score table in Russian once made a phone's page 403 px wide)."""
    table, token, over = table_at_its_first_end(web_server, game, start)
    # A game's match panel is shown: its start ends the match at once, or it has a MATCH_START.
    assert over or (start == "TABLE_START" and game in dict(declared("MATCH_START"))), game
    for page in new_page(browser, SIZES[size], locale=locale):
        page.goto(f"{web_server.base}/tables/{table}#token={token}")
        page.wait_for_function("() => document.body.dataset.panel")
        assert page.evaluate("document.body.dataset.panel") == ("match" if over else "round")
        assert page.inner_text("#panel-title").strip()
        assert page.inner_text("#panel .panel-story").strip()
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), game
        # Every button of the panel in sight: on screen and inside the panel's visible box,
        # not below it in the part the panel scrolls to (the match panel's Close once was).
        # Read from the panel's top, where a reader starts (the story before the breakdown).
        page.evaluate("document.getElementById('panel').scrollTop = 0")
        boxes = page.evaluate(PANEL_BUTTONS)
        assert boxes["buttons"] and all(
            box["left"] >= 0 and box["right"] <= SIZES[size]["width"] + 0.5
            and box["top"] >= boxes["panel"]["top"] - 0.5
            and box["bottom"] <= min(boxes["panel"]["bottom"], SIZES[size]["height"]) + 0.5
            for box in boxes["buttons"]), (game, boxes)
        if locale == "ru-RU":
            assert english_left(page, extra=set(re.findall(r"[A-Za-z]+", table))) == [], game
        assert axe_violations(page) == [], game
        # Closed, the table behind it (its score table now filled) holds the same.
        page.click("#panel-close" if over else "#continue")
        page.wait_for_function("() => !document.getElementById('panel').open")
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), game
        assert axe_violations(page) == [], game
