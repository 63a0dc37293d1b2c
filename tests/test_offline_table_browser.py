"""The offline table (examples/offline_table/) in a real browser: a static page that plays a
whole match of every game the WebAssembly engine registers against in-page bots, no server.

The test builds the folder as its README says (``npm ci``, ``npm run build``: the engine's
wasm and JavaScript, the page's TypeScript, the engine copied into dist/engine/), serves the
folder with a static http.server, and for each game plays a whole match in headless Chromium
by clicking a move button whenever it is seat 0's turn (by index from a fixed sequence, so a
run is the same every time), the bots moving at once (``delay=0``), until ``body[data-over]``.
Some games in English, the others in Russian; the Russian buttons carry no Latin words (card
notation aside). texts.json is generated, not kept in git: the build writes it from the
registry (export_texts.py), so a new game needs no edit here. Also: no file of the
folder names a game (its name, its title, its rule prefix), as test_generic_table.py checks
for the generic table.
"""
from __future__ import annotations

import functools
import http.server
import json
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import cardcore
from cardcore.i18n import LANGUAGES, fill_template, messages, use
from cardcore.refusals import refusal_text
from cardcore.texts import words_module
from cardcore.registry import available_games, game_class
from node_packages import node_packages

pytestmark = pytest.mark.slow       # a real browser, Node and clang: out of the quick loop

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "offline_table"
ENGINE = ROOT / "clients" / "engine"
ARTIFACTS = ROOT / "test-artifacts"
STEP_TIMEOUT = 30_000
MAX_CLICKS = 600
SEQUENCE = 7                    # the k-th click takes button (k * SEQUENCE) % buttons
SKIP_DIRS = {"node_modules", "dist"}
SKIP_FILES = {"package-lock.json", "texts.json"}    # npm's; export_texts.py's data

# The games in order, each with its language (Russian and English by turns), seats (2 or 3,
# within the game's range: short matches) and seed.
GAMES = sorted(available_games())


def setup_of(game: str) -> tuple[str, int, int]:
    i = GAMES.index(game)
    cls = game_class(game)
    players = min(max(cls.min_players, 2 + i % 2), cls.max_players)
    return LANGUAGES[(i + 1) % len(LANGUAGES)], players, 1 + i


def _run(args: list[str], cwd: Path, timeout: float) -> None:
    result = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    assert result.returncode == 0, (f"{' '.join(args)} exited {result.returncode}\n"
                                    f"{result.stdout[-4000:]}\n{result.stderr[-4000:]}")


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format, *args):        # noqa: A002 (the base class's name)
        pass


@pytest.fixture(scope="module")
def site():
    """The folder built as its README says (npm ci, here and in clients/engine when their
    node_modules is missing or stale; npm run build) and served as it is, from its own port."""
    npm = shutil.which("npm")
    if npm is None:
        pytest.fail("npm is not on PATH: the offline table's test builds the page with "
                    "Node.js 20+ and npm (apt-get install nodejs npm)", pytrace=False)
    node_packages(ENGINE)
    node_packages(EXAMPLE)
    export_texts()
    _run([npm, "run", "build"], EXAMPLE, 600)
    for built in ("dist/main.js", "dist/engine/index.js", "dist/engine/cardcore.wasm"):
        assert (EXAMPLE / built).is_file(), built
    handler = functools.partial(_QuietHandler, directory=str(EXAMPLE))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def new_page(browser, width=1280, height=800):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.set_default_timeout(STEP_TIMEOUT)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return context, page, errors


@pytest.fixture
def page(browser):
    context, page, errors = new_page(browser)
    yield page
    context.close()
    assert errors == [], errors


@pytest.fixture(scope="module")
def engine_games(browser, site):
    """engine.games(), as the page lists them (its game menu is the engine's list)."""
    context, page, errors = new_page(browser)
    page.set_default_timeout(STEP_TIMEOUT)
    page.goto(f"{site}/?delay=0")
    page.wait_for_selector("#game option", state="attached")
    names = page.eval_on_selector_all("#game option", "os => os.map(o => o.value)")
    context.close()
    assert errors == [], errors
    return names


# Card notation with suit symbols ("10♥"), the joker, a rank alone (the joker's stand-in).
NOTATION = re.compile(r"(?:10|[2-9AJQK])[♣♠♦♥]|\bJK\b|(?<!\w)(?:10|[2-9AJQK])(?!\w)|[♣♠♦♥]")
LATIN = re.compile(r"[A-Za-z]")


def latin_words(text: str) -> list[str]:
    return [w for w in NOTATION.sub(" ", text).split() if LATIN.search(w)]


def wait_for_turn_or_end(page) -> bool:
    page.wait_for_function(
        "() => document.body.dataset.over === '1' || (document.body.dataset.turn === '0'"
        " && document.querySelector('button.move:not([disabled])') !== null)")
    return page.evaluate("document.body.dataset.over") == "1"


def labels_of(game: str, players: int) -> list[str]:
    """Python's notation of each action id (default options): the engine's must be the same."""
    made = cardcore.new_game(game, players=players, seed=0)
    return [spec.label for spec in type(made).action_specs(made.num_players, made.options)]


def play_match(page, lang: str, labels: list[str], shot_at: int | None = None,
               shot: str | None = None) -> int:
    """Clicks until the match is over: how many clicks. The Russian buttons are checked at
    every turn, and every button's notation against Python's for its id."""
    clicks = 0
    while not wait_for_turn_or_end(page):
        buttons = page.eval_on_selector_all(
            "button.move", "bs => bs.map(b => [b.dataset.actionId, b.innerText, b.dataset.label])")
        assert buttons, "seat 0's turn without a move button"
        assert all(re.fullmatch(r"\d+", i) for i, _, _ in buttons), buttons
        assert all(labels[int(i)] == label for i, _, label in buttons), buttons
        if lang == "ru":
            latin = [text for _, text, _ in buttons if latin_words(text)]
            assert not latin, f"Latin words on Russian buttons: {latin}"
        if shot is not None and clicks == shot_at:
            page.evaluate("window.scrollTo(0, 0)")
            page.screenshot(path=shot)
        action_id = buttons[(clicks * SEQUENCE) % len(buttons)][0]
        before = page.evaluate("document.body.dataset.applied")
        page.click(f"button.move[data-action-id='{action_id}']")
        page.wait_for_function(f"() => document.body.dataset.applied !== '{before}'")
        clicks += 1
        assert clicks < MAX_CLICKS, "the match does not end"
    return clicks


def check_end(page, lang: str, players: int) -> None:
    assert page.is_visible("#results")
    rows = page.locator("#results tbody tr")
    assert rows.count() == players
    seats = sorted(int(rows.nth(i).get_attribute("data-seat")) for i in range(players))
    assert seats == list(range(players))
    for i in range(players):
        float(rows.nth(i).get_attribute("data-return"))
        cells = rows.nth(i).locator("td")
        assert cells.count() == 4
        int(cells.nth(0).inner_text())                 # a place
        assert cells.nth(1).inner_text().strip()       # a seat's name
        int(cells.nth(2).inner_text())                 # its score
        float(cells.nth(3).inner_text())               # its return
    results = page.inner_text("#results")
    over = "Партия окончена" if lang == "ru" else "The match is over"
    assert over in results
    assert ("Победител" if lang == "ru" else "Winner") in results
    assert page.inner_text("#status") == over
    assert page.locator("button.move").count() == 0


@pytest.mark.parametrize("game", GAMES)
def test_the_page_plays_a_whole_match(page, site, engine_games, game):
    assert game in engine_games, f"the engine does not register {game}: its kernel is not C"
    lang, players, seed = setup_of(game)
    page.goto(f"{site}/?game={game}&players={players}&lang={lang}&seed={seed}&delay=0")
    page.wait_for_selector("body[data-turn]")
    assert page.evaluate("document.body.dataset.game") == game
    words = json.loads((EXAMPLE / "texts.json").read_text(encoding="utf-8"))
    title = words["games"][game][lang]["title"]
    assert page.inner_text("#title") == title
    assert page.locator("#others .seat").count() == players - 1
    assert page.locator(".zone").count() >= 2
    # Every zone's label is the game's word for its kind.
    labels = set(words["games"][game][lang]["zones"].values())
    for text in page.eval_on_selector_all(".zone-label", "ls => ls.map(l => l.innerText)"):
        assert any(text.startswith(label) for label in labels), text
    ARTIFACTS.mkdir(exist_ok=True)
    clicks = play_match(page, lang, labels_of(game, players), shot_at=3,
                        shot=str(ARTIFACTS / f"offline-{game}-{lang}.png"))
    assert clicks > 0
    check_end(page, lang, players)
    log = page.eval_on_selector_all("#log li", "ls => ls.map(l => l.innerText)")
    bot = ("Игрок 2:" if lang == "ru" else "Player 2:")
    assert any(line.startswith(bot) for line in log), log[:10]
    you = ("Вы:" if lang == "ru" else "You:")
    assert sum(line.startswith(you) for line in log) == clicks
    if lang == "ru":
        latin = [line for line in log if latin_words(line)]
        assert not latin, f"Latin words in the Russian log: {latin[:5]}"
    page.screenshot(path=str(ARTIFACTS / f"offline-{game}-{lang}-over.png"), full_page=True)


@pytest.mark.parametrize("game", GAMES)
def test_a_refused_move_says_why_in_the_readers_language(page, site, engine_games, game):
    """A move that is not legal (played through the page's table, as a stale button would):
    nothing changes, and the notice is Python's refusal in the page's language, from the
    engine's reason, rule and fields and the templates texts.json exports."""
    lang, players, seed = setup_of(game)
    page.goto(f"{site}/?game={game}&players={players}&lang={lang}&seed={seed}&delay=0")
    assert not wait_for_turn_or_end(page)
    refused = page.evaluate(
        "() => { const g = window.table.game, legal = new Set(g.legalActions());"
        " let id = 0; while (legal.has(id)) id++;"
        " return { id, applied: document.body.dataset.applied, refusal: g.refusal(id) }; }")
    page.evaluate(f"window.table.play({refused['id']})")
    found = refused["refusal"]
    templates = words_module(game_class(game)).REFUSALS
    english = refusal_text(templates[found["reason"]], found["args"])
    with use(lang, game_class(game)):
        expected = fill_template(english, templates) + f" [{found['rule']}]"
    assert page.inner_text("#notice") == expected
    assert page.evaluate("document.body.dataset.applied") == refused["applied"]
    assert page.locator("button.move").count() > 0          # seat 0 still plays on
    assert expected != english or lang == "en"               # the reader's language


def test_the_search_bots_play_a_whole_match(page, site, engine_games):
    """`bots=search`: the other seats play the engine's IS-MCTS (in the page, in wasm)."""
    game = engine_games[0]
    lang, players, seed = setup_of(game)
    page.goto(f"{site}/?game={game}&players={players}&lang={lang}&seed={seed}&delay=0"
              "&bots=search")                    # a count the game takes (belote: only 4)
    page.wait_for_selector("body[data-turn]")
    assert play_match(page, lang, labels_of(game, players)) > 0
    check_end(page, lang, players)


def test_every_engine_game_is_played_in_both_languages(engine_games):
    assert engine_games, "the engine registers no game"
    assert set(engine_games) <= set(GAMES), "a game of the engine unknown to Python's registry"
    assert {setup_of(g)[0] for g in engine_games} == set(LANGUAGES) or len(engine_games) == 1


def export_texts(*flags: str) -> None:
    """texts.json from the registry, as a build writes it (not kept in git: every game's words,
    so it would change with every game added)."""
    # the cardcore this run imports (installed, or PYTHONPATH=src after an in-place build):
    # putting src/ first would shadow an installed one with a tree that has no compiled modules
    result = subprocess.run([sys.executable, str(EXAMPLE / "export_texts.py"), *flags],
                            cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr[-2000:]


def test_texts_json_is_what_export_texts_writes():
    export_texts()
    export_texts("--check")
    assert set(json.loads((EXAMPLE / "texts.json").read_text(encoding="utf-8"))["games"]) == set(
        available_games())


# -- no game named: the folder's files name no registered game, title or rule prefix ---------

def source_files() -> list[Path]:
    return sorted(p for p in EXAMPLE.rglob("*") if p.is_file()
                  and not SKIP_DIRS & set(p.relative_to(EXAMPLE).parts)
                  and p.name not in SKIP_FILES and "__pycache__" not in p.parts)


def forbidden() -> dict[str, re.Pattern[str]]:
    words: dict[str, re.Pattern[str]] = {}

    def word(text: str) -> None:
        words.setdefault(text, re.compile(rf"(?<![\w]){re.escape(text)}(?![\w])", re.IGNORECASE))

    for name in available_games():
        cls = game_class(name)
        word(name)
        word(name.replace("_", " "))
        word(name.replace("_", "-"))
        word(cls.title)
        for lang in LANGUAGES:                    # the title as each language says it
            word(messages(lang, cls).get(cls.title, cls.title))
        words.setdefault(cls.rule_prefix + "-",
                         re.compile(rf"(?<![\w]){re.escape(cls.rule_prefix)}(?![a-z0-9_])"))
    return words


def hits(text: str, patterns: dict[str, re.Pattern[str]]) -> list[str]:
    return [f"{what!r} at line {text.count(chr(10), 0, m.start()) + 1}"
            for what, pattern in patterns.items() for m in pattern.finditer(text)]


def test_the_check_finds_a_planted_name():
    patterns = forbidden()
    first = available_games()[0]
    assert hits(f'const game = "{first}";', patterns)
    assert hits(game_class(available_games()[-1]).title.upper(), patterns)
    assert hits(f"see {game_class(first).rule_prefix}-4.2", patterns)
    assert not hits("zones, seats, player, playing, dealer, layout", patterns)


def test_the_folder_has_its_files():
    names = {p.relative_to(EXAMPLE).as_posix() for p in source_files()}
    assert {"README.md", "package.json", "tsconfig.json", "build.mjs", "index.html", "style.css",
            "export_texts.py", "src/main.ts", "src/words.ts", "src/cards.ts",
            "src/bots.ts"} <= names
    assert (EXAMPLE / "package-lock.json").is_file()


@pytest.mark.parametrize("path", source_files(), ids=lambda p: p.relative_to(EXAMPLE).as_posix())
def test_no_game_named_in_the_folder(path):
    found = hits(path.read_text(encoding="utf-8"), forbidden())
    assert not found, f"{path.relative_to(EXAMPLE)} names a game: {', '.join(found)}"
