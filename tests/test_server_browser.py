"""The web table in a real browser (server.md "The web table"): Playwright for Python driving
Debian's chromium against `cardcore serve`, playing by clicks only, bots at the other seats.

Screenshots go to test-artifacts/ (git-ignored). Every page must log no console error.
"""
from __future__ import annotations

import random
from pathlib import Path

import pytest


pytestmark = pytest.mark.slow       # a real browser: the quick loop leaves it out

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
STEP_TIMEOUT = 20_000                     # ms for one state update
MANNA_SEED = 0                            # seat 0 plays first and can meld A A JK after drawing


# The tests click every move themselves: a forced move made by the page's countdown (3 s) while
# a test is slow to click would race it. The forced moves' own tests turn it back on.
# Only in the server's pages: about:blank (which some tests visit between links) has no
# origin, and reading its localStorage throws (a console error).
NO_FORCED_MOVES = ("if (location.protocol.startsWith('http')) "
                   "localStorage.getItem('cardcore.forced') || "
                   "localStorage.setItem('cardcore.forced', 'off')")


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1400, "height": 950})
    context.add_init_script(NO_FORCED_MOVES)
    page = context.new_page()
    page.set_default_timeout(STEP_TIMEOUT)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.console_errors = errors
    yield page
    context.close()
    assert errors == [], errors


def shot(page, name):
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def start_from_lobby(page, web_server, game, options=None, seed=None, players=None):
    """Start a table from the lobby with bots at every other seat (the default choice)."""
    page.goto(web_server.base + "/")
    page.select_option("#game", game)
    if players is not None:
        page.select_option("#players", str(players))
    for name, value in (options or {}).items():
        if not page.is_visible(f"[data-option={name}]"):
            page.click("details summary")
        widget = page.locator(f"[data-option={name}]")
        kind = widget.evaluate("w => w.tagName === 'SELECT' ? 'select' : w.type")
        if kind == "checkbox":                    # the option schema's boolean
            widget.set_checked(value == "true")
        elif kind == "select":                    # its allowed values (JSON)
            widget.select_option(value)
        else:
            widget.fill(value)
    if seed is not None:
        if not page.is_visible("#seed"):
            page.click("details summary")
        page.fill("#seed", str(seed))
    shot(page, f"lobby-{game}")
    page.click("#create")
    page.wait_for_url("**/tables/*#token=*")
    wait_for_turn(page)


def wait_for_turn(page):
    """Until it is our turn (and no action is pending) or the match is over; a round's end
    panel that opens on the way is read and closed with Continue."""
    page.wait_for_function("() => document.body.dataset.over === 'true' || "
                           "(document.body.dataset.myTurn === 'true' && "
                           "document.body.dataset.pending === 'false')")
    continue_past_round_end(page)


def continue_past_round_end(page):
    """Close the round-end panel if it is open (it holds the round's breakdown)."""
    if page.evaluate("document.body.dataset.panel") == "round":
        assert page.locator("#panel table.breakdown").count() == 1
        shot(page, f"{page.evaluate('document.body.dataset.game')}-round-end")
        page.click("#continue")
        page.wait_for_function("() => !document.getElementById('panel').open")


def moves(page):
    return page.eval_on_selector_all(
        "button.move", "bs => bs.map(b => ({id: b.dataset.id, kind: b.dataset.kind, "
                       "label: b.dataset.label, cards: b.dataset.cards}))")


def select_cards(page, cards):
    """Click hand cards until ``cards`` (a multiset) are all selected."""
    chosen = page.eval_on_selector_all("#hand button.card.selected",
                                       "bs => bs.map(b => b.dataset.card)")
    for card in cards:
        if card in chosen:
            chosen.remove(card)
        else:
            page.click(f"#hand button.card[data-card='{card}']:not(.selected) >> nth=0")


def click_move(page, move, wait=True):
    """Select the move's cards in the hand by clicking them, then click the move's button;
    then (with ``wait``) wait until it is our turn again (bots elsewhere) or the match ends."""
    before = page.evaluate("document.body.dataset.eventCount")
    select_cards(page, move["cards"].split())
    button = f"button.move[data-id='{move['id']}']"
    for _ in range(20):                 # moves past what the bar holds come in pages
        if page.locator(button).count():
            break
        page.click("#moves button.other-moves")
    page.click(button)
    page.wait_for_function(f"() => document.body.dataset.eventCount !== '{before}'")
    if wait:
        wait_for_turn(page)


def over(page):
    return page.evaluate("document.body.dataset.over") == "true"


def play_to_the_end(page, rng, prefer=(), limit=2000):
    clicks = 0
    while not over(page):
        options = moves(page)
        assert options, "our turn without a move button"
        preferred = [m for m in options if m["kind"] in prefer]
        click_move(page, rng.choice(preferred or options))
        clicks += 1
        assert clicks < limit
        if clicks % 25 == 1:
            shot(page, f"{page.evaluate('document.body.dataset.game')}-playing")
    return clicks


def check_finished_table(page, name):
    # the winners, or (a layout's turn.over: "event") the match end's own sentence
    turn = page.inner_text("#turn")
    assert "The match is over" in turn or turn == page.inner_text("#log li.ev-match_end"), turn
    page.wait_for_function("() => document.body.dataset.panel === 'match'")
    assert page.locator("#panel .ranking li").count() == page.locator(".seat").count()
    assert page.locator("#scoring table.breakdown").count() == 1   # the scoring breakdown
    assert page.locator("#log li.ev-match_end").count() == 1
    assert page.locator(".seat.winner").count() >= 1
    shot(page, name)


def test_a_complete_kings_stakes_match_by_clicks(page, web_server):
    start_from_lobby(page, web_server, "kings_stakes", seed=21)
    assert page.locator("#hand button.card").count() == 4
    assert page.locator(".seat").count() == 4
    assert "Round" in page.inner_text("#board")
    shot(page, "kings_stakes-start")
    clicks = play_to_the_end(page, random.Random(1))
    assert clicks > 10
    # The table is drawn from the zones, and the events' moves flew from zone to zone.
    assert page.locator("#board .zone[data-zone=stock]").count() == 1
    assert page.locator("#hand[data-zone='hand:0']").count() == 1
    assert int(page.evaluate("document.body.dataset.animated || '0'")) > 0
    log = page.inner_text("#log")
    assert "You played" in log or "You took the table" in log
    assert "Round 4 is over" in log
    check_finished_table(page, "kings_stakes-over")


def test_a_kuzanasta_deal_by_clicks(page, web_server):
    start_from_lobby(page, web_server, "kuzanasta", options={"deals": "1"}, seed=2)
    assert "Wild cards" in page.inner_text("#board")
    shot(page, "kuzanasta-start")
    clicks = play_to_the_end(page, random.Random(2), prefer=("go_out",))
    assert clicks >= 1
    assert "Deal 1 is over" in page.inner_text("#log") or "nobody out" in page.inner_text("#log")
    check_finished_table(page, "kuzanasta-over")


def test_a_manna_turn_with_a_meld_by_clicks(page, web_server):
    start_from_lobby(page, web_server, "manna", options={"dealer": "5"}, seed=MANNA_SEED)
    assert page.locator(".team").count() == 2
    # Draw by clicking the stock.
    before = page.evaluate("document.body.dataset.eventCount")
    page.click(".zone.clickable[data-kind=draw_stock]")
    page.wait_for_function(f"() => document.body.dataset.eventCount !== '{before}'")
    wait_for_turn(page)
    assert "You drew" in page.inner_text("#log")
    # Meld A A JK: click the joker, then the aces, then the meld button the selection leaves.
    select_cards(page, ["JK"])
    melds = [m for m in moves(page) if m["label"] == "meld A A JK"]
    assert melds, [m["label"] for m in moves(page)]
    assert all("JK" in m["cards"].split() for m in moves(page))
    click_move(page, melds[0])
    assert page.locator(".team-0 .kind-meld").count() == 1
    assert "You melded" in page.inner_text("#log")
    shot(page, "manna-meld")
    discards = [m for m in moves(page) if m["kind"] == "discard"]
    assert discards
    click_move(page, discards[0])
    assert "You discarded" in page.inner_text("#log")
    # The bots have played round to seat 0 again: the table shows their moves in words.
    assert page.evaluate("document.body.dataset.myTurn") == "true"
    assert page.locator("#log li").count() > 20
    shot(page, "manna-after-turn")


def test_a_spectator_watches_without_a_hand(page, web_server):
    status, made = web_server.request("POST", "/api/tables", {"game": "kings_stakes", "seed": 3,
                                                          "bots": {"0": "greedy", "2": "greedy"}})
    assert status == 201
    page.goto(f"{web_server.base}/tables/{made['table']}")
    page.wait_for_function("() => Number(document.body.dataset.eventCount) > 0")
    assert page.is_hidden("#hand-area")
    assert page.locator("button.move").count() == 0
    assert "watching" in page.inner_text("#title")
    assert page.locator("#log li.mine").count() == 0
    shot(page, "spectator")


def test_two_people_at_one_table_by_invite_link(page, browser, web_server):
    page.goto(web_server.base + "/")
    page.select_option("#game", "kings_stakes")
    page.select_option("#players", "2")
    page.select_option("#others select[data-seat='1']", "person")
    page.click("#create")
    link = page.input_value("#created input")
    assert "token=" in link
    shot(page, "lobby-invite")
    page.click("#my-seat")
    page.wait_for_url("**/tables/*#token=*")
    other = browser.new_page()
    errors: list[str] = []
    other.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    other.goto(link)
    for p in (page, other):
        p.wait_for_function("() => Number(document.body.dataset.eventCount) > 0")
    assert page.inner_text("#title").endswith("you are player 1")
    assert other.inner_text("#title").endswith("you are player 2")
    mover, waiter = (page, other) if page.evaluate("document.body.dataset.myTurn") == "true" \
        else (other, page)
    before = waiter.evaluate("document.body.dataset.eventCount")
    wait_for_turn(mover)
    click_move(mover, moves(mover)[0], wait=False)
    waiter.wait_for_function(f"() => document.body.dataset.eventCount !== '{before}'")
    assert waiter.locator("#log li").count() == mover.locator("#log li").count()
    shot(other, "invited-seat")
    other.close()
    assert errors == []
