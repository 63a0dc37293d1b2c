"""Open seats in the web table (docs/server.md, "Seats, invites and presence"): a visitor joins
an open seat of a listed table from the lobby with a name instead of only watching; the lobby
and the table show the seats' names and presence; the lobby with a join form passes axe-core
and is all Russian in Russian. Playwright for Python drives Debian's chromium."""
from __future__ import annotations

import pytest

from test_server_browser import STEP_TIMEOUT
from test_server_browser_layout import LAPTOP, axe_violations, english_left, new_page

pytestmark = pytest.mark.slow       # a real browser: the quick loop leaves it out


@pytest.fixture
def laptop(browser):
    yield from new_page(browser, LAPTOP)


@pytest.fixture
def russian(browser):
    yield from new_page(browser, LAPTOP, locale="ru-RU")


def open_table(web_server, **extra):
    status, made = web_server.request("POST", "/api/tables", {
        "game": "kings_stakes", "players": 2, "seed": 5, "open_seats": [1], "join": "anyone",
        "names": {"0": "Ann"}, **extra})
    assert status == 201, made
    return made


def test_a_visitor_joins_an_open_seat_from_the_lobby(laptop, web_server, browser):
    made = open_table(web_server)
    table = made["table"]
    laptop.goto(web_server.base + "/")
    join = f"form.join[data-table='{table}']"
    row = f"#tables {join}"
    laptop.wait_for_selector(row)
    listed = laptop.inner_text(f"#tables tr:has({join})")
    assert "Ann" in listed and "(away)" in listed and "(open)" in listed
    laptop.fill(f"{row} input[name=name]", "Bob")
    laptop.click(f"{row} button[type=submit]")
    laptop.wait_for_url(f"**/tables/{table}#token=*")
    laptop.wait_for_function("() => document.getElementById('title').textContent"
                             ".endsWith('you are player 2')")
    seats = laptop.locator("#seats [data-seat='0']")
    assert "Ann" in seats.inner_text() and "away" in seats.inner_text()
    # The seat is Bob's now: the server says so, and the lobby has no Join for it any more.
    status, state = web_server.request("GET", f"/api/tables/{table}")
    assert [s["name"] for s in state["seats"]] == ["Ann", "Bob"]
    assert state["seats"][1]["presence"] == "connected"
    # Ann opens her seat in another browser: Bob's page shows her connected (a presence push).
    context = browser.new_context(viewport=LAPTOP)
    try:
        ann = context.new_page()
        ann.set_default_timeout(STEP_TIMEOUT)
        ann.goto(f"{web_server.base}/tables/{table}#token={made['seats']['0']}")
        laptop.wait_for_function("() => document.querySelector(\"#seats [data-seat='0']\")"
                                 ".textContent.includes('connected')")
        assert "Bob" in ann.locator("#seats [data-seat='1']").inner_text()
    finally:
        context.close()
    laptop.goto(web_server.base + "/")
    laptop.wait_for_selector(f"#tables tr:has(a[href='/tables/{table}'])")
    assert laptop.locator(row).count() == 0


def test_a_refused_name_is_said_in_the_lobby(browser, web_server):
    """(Its own page: the browser logs the 422 as a console error, which new_page refuses.)"""
    other = open_table(web_server)
    context = browser.new_context(viewport=LAPTOP)
    try:
        page = context.new_page()
        page.set_default_timeout(STEP_TIMEOUT)
        page.goto(web_server.base + "/")
        form = f"#tables form.join[data-table='{other['table']}']"
        page.wait_for_selector(form)
        page.fill(f"{form} input[name=name]", "<b>")
        page.click(f"{form} button[type=submit]")
        page.wait_for_function("() => document.getElementById('lobby-error').textContent"
                               ".includes('name')")
        assert page.url.rstrip("/") == web_server.base
    finally:
        context.close()
    _, state = web_server.request("GET", f"/api/tables/{other['table']}")
    assert state["seats"][1]["presence"] == "open"               # nothing was claimed


def test_the_lobby_creates_open_seats_with_my_name(laptop, web_server):
    laptop.goto(web_server.base + "/")
    laptop.select_option("#game", "crazy_eights")
    laptop.fill("#my-name", "Zoë")
    laptop.select_option("#others select[data-seat='1']", "open")
    laptop.click("#create")
    laptop.wait_for_selector("#invite-link")
    invite = laptop.input_value("#invite-link")
    laptop.click("#my-seat")
    laptop.wait_for_url("**/tables/*#token=*")
    table = laptop.url.split("/tables/")[1].split("#")[0]
    _, state = web_server.request("GET", f"/api/tables/{table}")
    assert state["join"] == "anyone" and state["seats"][0]["name"] == "Zoë"
    assert state["seats"][1]["presence"] == "open"
    # The invite link: a name, then the open seat.
    assert f"#table={table}&invite=" in invite
    laptop.goto(invite)
    laptop.fill("#join-name", "Yann")
    laptop.click("#join-button")
    laptop.wait_for_url(f"**/tables/{table}#token=*")
    laptop.wait_for_function("() => document.getElementById('title').textContent"
                             ".endsWith('you are player 2')")
    _, state = web_server.request("GET", f"/api/tables/{table}")
    assert state["seats"][1]["name"] == "Yann"


def test_the_lobby_with_open_seats_passes_axe_and_speaks_russian(laptop, russian, web_server):
    open_table(web_server)
    for page in (laptop, russian):
        page.goto(web_server.base + "/")
        page.wait_for_selector("#tables form.join")
    assert axe_violations(laptop) == []
    assert english_left(russian, extra={"Ann", "Bob", "Zo", "Yann"}) == []
