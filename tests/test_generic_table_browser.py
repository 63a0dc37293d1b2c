"""The generic table (examples/generic_table/) in a real browser: one page with no per-game
code plays every game the server offers to its first round end, by clicks only.

The test builds the example itself (``npm ci`` when its node_modules is missing or stale,
tests/node_packages.py, then ``tsc`` into a temporary folder) and serves it from a second
origin, as a third-party app would be: the page talks to ``cardcore serve`` at ``?server=``
(a loopback origin, which the server allows). Then, for each
game: the lobby (the game, its option inputs built from the option schemas), a table with bots,
legal moves clicked at random until the round-end panel shows its scoring rows; along the way
the page checks that the events' moves, applied to the zones, give the view's zones
(``data-mismatches``), and in one game it sends exact cards of its own choosing and checks that
those left the hand (``data-exact``). Once more in Russian. Screenshots go to test-artifacts/.
"""
from __future__ import annotations

import functools
import http.server
import json
import random
import shutil
import subprocess
import threading
from pathlib import Path

import pytest

from cardcore.registry import available_games, game_class
from game_cases import game_case
from node_packages import node_packages
from test_ts_client import CLIENT, generate

pytestmark = pytest.mark.slow       # a real browser and Node: out of the quick loop

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "generic_table"
ARTIFACTS = ROOT / "test-artifacts"
STEP_TIMEOUT = 30_000
MAX_CLICKS = 1500


def start_of(game: str) -> tuple[dict[str, str], int]:
    """The game's GENERIC_TABLE_START (tests/games/<game>/cases.py): options that keep a round
    short, typed into the lobby's generic inputs, and a seed; else the defaults and seed 1."""
    return game_case(game, "GENERIC_TABLE_START", ({}, 1))


def _run(args: list[str], cwd: Path, timeout: float) -> None:
    result = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, (f"{' '.join(args)} exited {result.returncode}\n"
                                    f"{result.stdout[-4000:]}\n{result.stderr[-4000:]}")


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The example built (tsc) into a temporary folder with its page and style, served over
    HTTP from its own port."""
    tsc = node_packages(EXAMPLE) / ".bin" / "tsc"
    if not tsc.exists():
        pytest.fail(f"npm ci in {EXAMPLE} installed no node_modules/.bin/tsc: is typescript "
                    "still in its package-lock.json?", pytrace=False)
    # The client's types are built from this cardcore's registry, never committed (as
    # `npm run types` does in clients/typescript before a build).
    generate(CLIENT / "src" / "generated")
    out = tmp_path_factory.mktemp("generic_table")
    _run([str(tsc), "-p", "tsconfig.json", "--outDir", str(out / "dist")], EXAMPLE, 300)
    for name in ("index.html", "style.css"):
        shutil.copy(EXAMPLE / name, out / name)
    handler = functools.partial(_QuietHandler, directory=str(out))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):        # noqa: A002 (the base class's name)
        pass


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 950})
    page = context.new_page()
    page.set_default_timeout(STEP_TIMEOUT)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    context.close()
    assert errors == [], errors


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"generic-{name}.png"), full_page=True)


def open_lobby(page, site, web_server, lang):
    page.goto(f"{site}/?server={web_server.base}&lang={lang}")
    page.wait_for_selector("#create")


def start(page, site, web_server, game, lang="en"):
    open_lobby(page, site, web_server, lang)
    page.select_option("#game", game)
    options, seed = start_of(game)
    for name, value in options.items():
        page.fill(f"[data-option={name}]", value)
    page.fill("#seed", str(seed))
    shot(page, f"lobby-{game}-{lang}")
    page.click("#create")
    page.wait_for_url("**table=*#token=*")
    page.wait_for_function("() => Number(document.body.dataset.eventCount) > 0")


def settle(page):
    """Until the round-end panel is open, or it is our turn with nothing pending."""
    page.wait_for_function(
        "() => document.body.dataset.panel === 'round' || document.body.dataset.panel === 'match'"
        " || (document.body.dataset.myTurn === 'true' && document.body.dataset.pending === 'false')")


def try_exact(page) -> bool:
    """Pick, for a move that lets the player choose its cards, a card of the same rank other
    than the one the engine would move, and send it: the page sends `cards`."""
    choice = page.evaluate("""() => {
        const hand = [...document.querySelectorAll('#hand button.hand-card')].map(b => b.dataset.card);
        for (const b of document.querySelectorAll('button.move[data-choose=true]')) {
            const own = b.dataset.cards.split(' ').filter(Boolean);
            const spare = [...hand];
            for (const c of own) spare.splice(spare.indexOf(c), 1);
            const rank = c => c.length > 2 && c !== 'JK' ? c.slice(0, -1) : (c === 'JK' ? c : c.slice(0, -1));
            for (const c of own) {
                const other = spare.find(s => s !== c && rank(s) === rank(c));
                if (other) return {id: b.dataset.id, card: other};
            }
        }
        return null;
    }""")
    if choice is None:
        return False
    page.click(f"#hand button.hand-card[data-card='{choice['card']}'] >> nth=0")
    button = page.locator(f"button.move[data-id='{choice['id']}']")
    if button.count() == 0 or button.get_attribute("data-exact") is None:
        page.click("#clear")
        return False
    before = page.evaluate("document.body.dataset.eventCount")
    button.click()
    page.wait_for_function(f"() => document.body.dataset.eventCount !== '{before}' || "
                           "document.getElementById('toast').hidden === false")
    assert page.is_hidden("#toast"), page.inner_text("#toast")        # not refused
    assert choice["card"] in json.loads(page.evaluate("document.body.dataset.sent"))["cards"]
    return True


def play_to_round_end(page, rng, name, exact=False) -> int:
    clicks = exact_sent = 0
    while True:
        settle(page)
        if page.evaluate("document.body.dataset.panel") in ("round", "match"):
            return clicks
        # a zone arranged in pairs (its descriptor's layout): its slots drawn, open ones marked
        slots = page.eval_on_selector_all(".zone .pairs .slot", "ss => ss.map(s => [s.dataset.cover, "
                                          "s.classList.contains('open'), s.querySelectorAll('img').length])")
        assert all(bool(cover) != is_open and images == 1 + bool(cover) for cover, is_open, images in slots)
        page.slots_seen = max(getattr(page, "slots_seen", 0), len(slots))
        if exact and not exact_sent and try_exact(page):
            exact_sent += 1
            continue
        ids = page.eval_on_selector_all("button.move", "bs => bs.map(b => b.dataset.id)")
        assert ids, "our turn without a move button"
        before = page.evaluate("document.body.dataset.eventCount")
        page.click(f"button.move[data-id='{rng.choice(ids)}']")
        page.wait_for_function(f"() => document.body.dataset.eventCount !== '{before}' || "
                               "document.getElementById('toast').hidden === false")
        clicks += 1
        assert clicks < MAX_CLICKS
        if clicks % 40 == 1:
            shot(page, f"{name}-playing")


def check_round_end(page, game, lang):
    panel = page.locator("#panel")
    assert panel.locator("table.breakdown tbody tr").count() >= 1
    rows = panel.locator("table.breakdown tbody tr")
    for i in range(rows.count()):
        cells = rows.nth(i).locator("td")
        assert cells.count() == 5
        assert cells.nth(1).inner_text().strip(), "a scoring row without its text"
        int(cells.nth(3).inner_text())                     # its points, a number
    assert panel.locator(".story").first.inner_text().strip(), "the round end's sentence"
    shot(page, f"{game}-round-end-{lang}")
    assert page.evaluate("document.body.dataset.mismatches") in ("0", None)


@pytest.mark.parametrize("game", available_games())
def test_generic_table_plays_each_game_to_its_first_round_end(page, site, web_server, game):
    start(page, site, web_server, game)
    assert page.locator("#hand button.hand-card").count() > 0
    assert page.locator(".zone").count() >= 2
    shot(page, f"{game}-start")
    cls = game_class(game)
    if "wild_cards" not in vars(cls):             # wild in every position: a start shows them
        pictures = page.eval_on_selector_all(
            "img.card[data-card]", "imgs => imgs.map(i => [i.dataset.card, i.classList.contains('wild')])")
        assert pictures and all(marked == (card in cls.wild) for card, marked in pictures)
    play_to_round_end(page, random.Random(start_of(game)[1]), game, exact=True)
    if any("layout" in zone for zone in cls.zones_of()):     # pairs drawn at some turn
        assert getattr(page, "slots_seen", 0) > 0
    check_round_end(page, game, "en")
    assert page.locator("#log li").count() > 3
    exact = page.evaluate("document.body.dataset.exact")
    assert exact is None or exact == "kept", exact
    if game_case(game, "MOVES_NAME_RANKS", False):     # the player chooses the suits
        assert exact == "kept", "no move with cards of the player's choosing was sent"
    assert int(page.evaluate("document.body.dataset.animated")) > 0
    page.click("#continue")


def test_generic_table_in_russian(page, site, web_server):
    game = "kings_stakes" if "kings_stakes" in available_games() else available_games()[0]
    open_lobby(page, site, web_server, "ru")
    assert "Начать игру" in page.inner_text("#create")
    title = page.locator("#game option").first.inner_text()
    assert title                                   # the server's title for the game
    start(page, site, web_server, game, lang="ru")
    play_to_round_end(page, random.Random(1), f"{game}-ru")
    panel = page.inner_text("#panel")
    assert "Подсчёт очков" in panel
    log = page.inner_text("#log")
    assert any("а" <= ch <= "я" for ch in log.lower()), "the events' texts are not Russian"
    check_round_end(page, game, "ru")


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_generic_table_watches_a_table_without_a_seat(page, site, web_server, lang):
    """Spectator mode: the lobby lists the tables being played, each with a link to watch it;
    the page opened without a token draws every seat's zones and the log, with no hand and no
    move, and its zones follow the events' moves."""
    game = "kings_stakes" if "kings_stakes" in available_games() else available_games()[0]
    status, made = web_server.request("POST", "/api/tables", {
        "game": game, "seed": 3, "bots": {"0": "greedy", "2": "greedy"}})
    assert status == 201
    open_lobby(page, site, web_server, lang)
    link = page.locator(f"#watch-list li[data-table='{made['table']}'] a.watch")
    assert link.count() == 1
    assert link.inner_text() == ("Смотреть" if lang == "ru" else "Watch")
    link.click()
    page.wait_for_url(f"**table={made['table']}*")
    page.wait_for_function("() => Number(document.body.dataset.eventCount) > 0")
    assert page.evaluate("document.body.dataset.watching") == "true"
    assert ("наблюдение" if lang == "ru" else "watching") in page.inner_text("#title")
    assert page.is_hidden("#dock")
    assert page.locator("#hand button").count() == 0 and page.locator("button.move").count() == 0
    assert page.locator(".seat").count() == made.get("players", 4)
    assert page.locator(".zone").count() >= 2
    assert page.locator("#log li").count() >= 1
    # A seat plays: the watcher's page follows, its zones as the moves make them.
    before = int(page.evaluate("document.body.dataset.eventCount"))
    state = web_server.request("GET", f"/api/tables/{made['table']}?token={made['seats']['1']}")[1]
    mover = state["current_player"]
    token = made["seats"][str(mover)]
    legal = web_server.request("GET", f"/api/tables/{made['table']}?token={token}")[1]["legal"]
    status, _ = web_server.request("POST", f"/api/tables/{made['table']}/actions",
                                   {"token": token, "action": legal[0]["id"]})
    assert status == 200
    page.wait_for_function(f"() => Number(document.body.dataset.eventCount) > {before}")
    assert page.evaluate("document.body.dataset.mismatches") in ("0", None)
    shot(page, f"spectator-{lang}")
