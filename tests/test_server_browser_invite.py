"""The table page shows the table's invite link to the browser that created it (issue 25):
while a seat is open and the match runs, an "Invite link" with a Copy button (reached and
pressed by keyboard) in the page's language; once the seat is claimed it goes away. A page
in a browser without the invite (a watcher's) does not show it."""
from __future__ import annotations

import pytest

from test_server_browser_layout import LAPTOP, new_page

pytestmark = pytest.mark.slow       # a real browser: the quick loop leaves it out

CLIPBOARD = ["clipboard-read", "clipboard-write"]


@pytest.mark.parametrize("locale, title, copied", [
    ("ru-RU", "Ссылка-приглашение", "Ссылка-приглашение скопирована"),
    ("en-US", "Invite link", "Invite link copied")])
def test_the_creators_table_page_offers_the_invite_while_a_seat_is_open(
        browser, web_server, locale, title, copied):
    for page in new_page(browser, LAPTOP, locale=locale, permissions=CLIPBOARD):
        page.goto(web_server.base + "/")
        page.select_option("#game", "kings_stakes")
        page.select_option("#players", "2")
        page.select_option("#others select[data-seat='1']", "open")
        page.click("#create")
        lobby_link = page.locator("#invite-link").input_value()
        page.click("#my-seat")
        page.wait_for_url("**/tables/*#token=*")
        box = page.locator("#invite-area")
        box.wait_for(state="visible")
        assert box.locator("h2").inner_text() == title
        link = page.locator("#invite-url").input_value()
        assert link == lobby_link and "/#table=" in link and "&invite=" in link
        page.focus("#invite-url")                 # the keyboard: Tab to Copy, then Enter
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.id") == "copy-invite"
        page.keyboard.press("Enter")
        page.get_by_role("alert").get_by_text(copied).wait_for()
        assert page.evaluate("navigator.clipboard.readText()") == link
        table = page.url.split("/tables/")[1].split("#")[0]
        # A watcher's page (a browser that holds no invite) shows none, the seat open or not.
        other = page.context.browser.new_context(viewport=LAPTOP)
        try:
            watcher = other.new_page()
            watcher.goto(f"{web_server.base}/tables/{table}")
            watcher.wait_for_function("() => document.body.dataset.eventCount !== undefined")
            assert watcher.locator("#invite-area").is_hidden()
        finally:
            other.close()
        # Bob claims the open seat with the invite: no seat is open, the link goes away.
        invite = link.split("&invite=")[1]
        status, claimed = web_server.request("POST", f"/api/tables/{table}/seats",
                                             {"invite": invite, "name": "Bob"})
        assert status == 201, claimed
        box.wait_for(state="hidden")
