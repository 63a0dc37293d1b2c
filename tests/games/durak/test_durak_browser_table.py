"""What a Durak player sees at the web table (issue 48, items 1, 2, 3, 4), in Russian, on a
phone (390x844) and a laptop (1280x800): the bout drawn as pairs with the open card marked,
every card a move plays tappable (the bout-ending ones too), a forced pass made after a
countdown that Cancel stops, partners marked on the seats and in the turn line, and the end
naming the losing side. Playwright drives Debian's chromium against `cardcore serve`."""
from __future__ import annotations

import random
import re
import time

import pytest

from server_helpers import ServerProcess
from test_server_browser import click_move, moves, over, shot, start_from_lobby, wait_for_turn
from test_server_browser_layout import LAPTOP, PHONE, new_page

pytestmark = pytest.mark.slow       # a real browser: the quick loop leaves it out

DEVICES = {"phone": PHONE, "laptop": LAPTOP}
CARD_KINDS = ("attack", "beat", "transfer")

SLOTS = """() => [...document.querySelectorAll('#board .pairs .slot')].map((s) => ({
  card: s.dataset.card, cover: s.dataset.cover, open: s.classList.contains('open'),
  images: s.querySelectorAll('img').length, text: s.innerText}))"""
TABLE_SIZE = "() => Number(document.querySelector('#board [data-zone=table]').dataset.size)"
HAND = """() => Object.fromEntries([...document.querySelectorAll('#hand button.card')]
  .map((b) => [b.dataset.card, !b.disabled]))"""


@pytest.fixture(params=list(DEVICES))
def page(browser, request):
    yield from new_page(browser, DEVICES[request.param], forced_moves=True, locale="ru-RU")


@pytest.fixture(scope="module")
def slow_server(tmp_path_factory):
    """Bots that think 0.5 s: long enough to see whose turn it is in the turn line."""
    process = ServerProcess(tmp_path_factory.mktemp("durak") / "tables.sqlite3", bot_delay=0.5,
                            extra=("--create-rate", "100", "--create-burst", "200",
                                   "--max-tables-per-client", "1000"))
    yield process
    process.stop()


def device(page) -> str:
    return "phone" if page.viewport_size["width"] < 600 else "laptop"


def check_pairs(page) -> list[dict]:
    """The table's slots as drawn: every card of the table zone in one, a covered slot shows
    two cards, an open one its card and «не побита»."""
    slots = page.evaluate(SLOTS)
    assert sum(1 + bool(s["cover"]) for s in slots) == page.evaluate(TABLE_SIZE), slots
    for s in slots:
        if s["open"]:
            assert not s["cover"] and s["images"] == 1 and "не побита" in s["text"], s
        else:
            assert s["cover"] and s["images"] == 2, s
    return slots


def check_cards_tappable(page) -> int:
    """Every move that plays a card names it (its moves) and the card is enabled in the hand:
    the card that ends a bout or the hand too (issue 48, item 2)."""
    hand = page.evaluate(HAND)
    checked = 0
    for move in moves(page):
        if move["kind"] in CARD_KINDS:
            assert move["cards"], move
            for card in move["cards"].split():
                assert hand.get(card) is True, (move, hand)
            checked += 1
    return checked


def forced_now(page) -> bool:
    return page.evaluate("document.body.dataset.forced !== undefined")


def table_now(page) -> dict:
    """The turn line and our moves, read in one go: the page renders a state at once, but
    between separate reads a forced move's countdown may end and send it (its moves gone)."""
    return page.evaluate("""() => {
        const b = document.body.dataset;
        const mine = b.myTurn === "true" && b.pending === "false" && b.forced === undefined;
        return {turn: document.getElementById("turn").innerText, mine,
                moves: [...document.querySelectorAll("button.move")].map((m) => ({id: m.dataset.id,
                    kind: m.dataset.kind, label: m.dataset.label, cards: m.dataset.cards}))};
    }""")


def event_count(page) -> str:
    return page.evaluate("document.body.dataset.eventCount")


def make_forced_now(page) -> None:
    """A forced move counting down, cancelled and clicked at once: the same move the page
    makes after its pause (FORCED_MS, 3 s, which the next test waits out), without the pause
    (a hand has dozens of them)."""
    # cancelled in the page's own turn (a loaded machine may reach the end of the countdown
    # between two separate reads, and the page then sends the move itself)
    cancelled = page.evaluate("""() => {
        if (document.body.dataset.forced === undefined) return false;
        document.getElementById("forced-cancel").click();
        return true;
    }""")
    if not cancelled:                   # the page made it: wait for what comes next
        wait_for_turn(page)
        return
    only = moves(page)
    assert len(only) == 1 and only[0]["kind"] not in CARD_KINDS, only
    click_move(page, only[0])


def test_the_bout_is_drawn_in_pairs_and_every_card_of_a_move_is_tappable(page, web_server):
    start_from_lobby(page, web_server, "durak", seed=4)
    rng = random.Random(4)
    seen_open = seen_covered = 0
    checked = 0
    shots: list[None] = []
    while not over(page):
        if forced_now(page):               # made for us after a pause (the next test)
            make_forced_now(page)
            continue
        slots = check_pairs(page)
        seen_open += any(s["open"] for s in slots)
        seen_covered += any(not s["open"] for s in slots)
        if len(slots) >= 2 and not shots:
            shots.append(shot(page, f"durak-pairs-{device(page)}"))
        checked += check_cards_tappable(page)
        options = moves(page)
        preferred = [m for m in options if m["kind"] in CARD_KINDS]
        click_move(page, rng.choice(preferred or options))
    assert seen_open and seen_covered and checked > 10, (seen_open, seen_covered, checked)


def test_a_forced_pass_is_made_after_a_countdown_and_cancel_stops_it(page, web_server):
    start_from_lobby(page, web_server, "durak", seed=4)
    rng = random.Random(5)
    made = cancelled = False
    while not over(page) and not (made and cancelled):
        if not forced_now(page):
            options = moves(page)
            preferred = [m for m in options if m["kind"] == "attack"]
            click_move(page, rng.choice(preferred or options))
            continue
        box = page.locator("#forced")
        assert box.is_visible() and re.search(r"Единственный ход: \w+ через \d с", box.inner_text())
        assert page.locator("#forced-cancel").inner_text() == "Отмена"
        before = event_count(page)
        if not made:                       # let it be made: no click, after the pause
            shot(page, f"durak-forced-{device(page)}")
            start = time.monotonic()
            page.wait_for_function(f"() => document.body.dataset.eventCount !== '{before}'")
            assert time.monotonic() - start > 1.5
            made = True
        else:                              # Cancel: nothing is made; the button still is
            page.click("#forced-cancel")
            assert not page.locator("#forced").is_visible()
            page.wait_for_timeout(3500)
            assert event_count(page) == before
            only = moves(page)
            assert len(only) == 1 and only[0]["kind"] in ("pass", "take")
            click_move(page, only[0], wait=False)
            cancelled = True
        wait_for_turn(page)
    assert made and cancelled


def test_the_forced_move_setting_turns_the_countdown_off(page, web_server):
    start_from_lobby(page, web_server, "durak", seed=4)
    page.click("#table-menu summary")
    setting = page.locator("#forced-setting")
    assert setting.is_checked() and "Делать вынужденный ход за меня" in page.inner_text("#table-menu")
    setting.set_checked(False)
    page.click("#table-menu summary")
    rng = random.Random(6)
    lone = 0
    while not over(page) and lone < 2:
        assert not forced_now(page)
        options = moves(page)
        lone += len(options) == 1 and options[0]["kind"] in ("pass", "take")
        preferred = [m for m in options if m["kind"] == "attack"]
        click_move(page, rng.choice(preferred or options))
    assert lone
    assert page.evaluate("localStorage.getItem('cardcore.forced')") == "off"


def start_partners(page, server, seed):
    start_from_lobby(page, server, "durak", options={"partners": "true"}, seed=seed, players=4)


def test_partners_are_marked_on_the_seats_and_in_the_turn_line(page, slow_server):
    start_partners(page, slow_server, seed=7)
    # every seat drawn with its mark (a loaded machine draws the seats after the first state)
    page.wait_for_function("document.querySelectorAll('.seat .team-mark').length === 4")
    marks = {int(seat): text for seat, text in page.eval_on_selector_all(
        ".seat", "ss => ss.map((s) => [s.dataset.seat, s.querySelector('.team-mark')?.innerText])")}
    assert "ваша команда" in marks[0] and "партнёр" in marks[2], marks
    assert "соперник" in marks[1] and "соперник" in marks[3], marks
    classes = page.eval_on_selector_all(".seat .team-mark", "ms => ms.map((m) => m.dataset.team)")
    assert classes[0] == classes[2] != classes[1] == classes[3]
    # the partner's turn: the turn line says it is the partner («Партнёр Игрок 3 ...»)
    for _ in range(60):
        now = table_now(page)
        if "артнёр Игрок 3" in now["turn"]:
            break
        if now["mine"] and now["moves"]:
            click_move(page, now["moves"][0], wait=False)
        page.wait_for_timeout(100)
    assert "артнёр Игрок 3" in page.inner_text("#turn")
    shot(page, f"durak-partners-{device(page)}")


def test_the_end_of_a_partners_hand_names_the_losing_side(page, web_server):
    """The turn line names the losing side; the score table says «после каждой партии» and
    heads its columns «ваша команда (вы, Игрок 3)» / «соперники (Игрок 2, Игрок 4)»."""
    start_partners(page, web_server, seed=3)
    assert page.inner_text("#score-table") == "После каждой партии здесь появится строка."
    rng = random.Random(3)
    while not over(page):
        if forced_now(page):
            make_forced_now(page)
            continue
        options = moves(page)
        click_move(page, rng.choice([m for m in options if m["kind"] in CARD_KINDS] or options))
    turn = page.inner_text("#turn")
    ours = re.search(r"Ваша команда \(вы(,| и) Игрок 3\) проиграла — вы дураки", turn)
    theirs = re.search(r"Дураки — Игрок 2.*Игрок 4", turn)
    assert ours or theirs or "никто не дурак" in turn, turn
    page.wait_for_selector("#score-table table")
    heads = page.eval_on_selector_all("#score-table thead th", "hs => hs.map((h) => h.innerText)")
    assert heads == ["Партия", "ваша команда (вы, Игрок 3)", "соперники (Игрок 2, Игрок 4)"], heads
    assert "Итог после каждой партии" in page.inner_text("#score-table caption")
    shot(page, f"durak-partners-end-{device(page)}")
