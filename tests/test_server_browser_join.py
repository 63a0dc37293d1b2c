"""Joining from an invite link (issue 35, item 1): the link opens a join card alone at the top
of the page (who invites, the game, the players, the open seat, one name field, one button) in
the reader's language, fitting a phone (390x844) as a laptop (1280x800); after joining, the
table opens at that seat. A link to a finished, full or missing table says so in words, with
the way to the lobby. Each page passes axe-core with no serious or critical violation.
Playwright for Python drives Debian's chromium, the invitee in a second browser context."""
from __future__ import annotations

import urllib.request

import pytest

from cardcore.registry import available_games, game_class
from test_server_browser_layout import LAPTOP, PHONE, axe_violations, english_left, new_page

pytestmark = pytest.mark.slow       # a real browser: the quick loop leaves it out

SIZES = {"phone": PHONE, "laptop": LAPTOP}
WORDS = {
    "en-US": {"title": "Ann invites you to a game of Kings' Stakes", "game": "Kings' Stakes",
              "seat": "Player 2", "button": "Take the seat", "over": "has finished",
              "full": "is full", "gone": "does not exist", "lobby": "Go to the lobby",
              "at": "you are player 2"},
    "ru-RU": {"title": "Ann приглашает вас в игру «Королевские ставки»",
              "game": "Королевские ставки", "seat": "Игрок 2", "button": "Занять место",
              "over": "закончена", "full": "заняты", "gone": "больше нет",
              "lobby": "В лобби", "at": "вы — игрок 2"},
}


def invite_table(web_server, **extra):
    status, made = web_server.request("POST", "/api/tables", {
        "game": "kings_stakes", "players": 2, "seed": 5, "open_seats": [1],
        "names": {"0": "Ann"}, **extra})
    assert status == 201, made
    return made, f"{web_server.base}/#table={made['table']}&invite={made['invite']}"


def fits(page):
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("locale", list(WORDS))
def test_an_invite_link_opens_the_join_card_then_the_table(browser, web_server, locale, size):
    words = WORDS[locale]
    made, link = invite_table(web_server)
    for page in new_page(browser, SIZES[size], locale=locale):
        page.goto(link)
        page.wait_for_function("() => document.body.dataset.join === 'open'")
        card = page.locator("#join-card")
        assert card.is_visible() and page.locator("main.lobby").is_hidden()
        assert page.inner_text("#join-title") == words["title"]
        assert page.inner_text("[data-fact=game]") == words["game"]
        assert page.inner_text("[data-fact=players]") == "2"
        assert page.inner_text("[data-fact=seat]") == words["seat"]
        assert page.inner_text("[data-fact=host]") == "Ann"
        # One name field and one button, at the top of the page, on screen without scrolling.
        assert card.locator("input").count() == 1 and card.locator("button").count() == 1
        assert page.inner_text("#join-button") == words["button"]
        box = page.locator("#join-button").bounding_box()
        assert box["y"] + box["height"] <= SIZES[size]["height"]
        assert fits(page), page.evaluate("document.documentElement.scrollWidth")
        if locale == "ru-RU":
            assert english_left(page, extra={"Ann"}) == []
        assert axe_violations(page) == []
        page.fill("#join-name", "Bob")
        page.click("#join-button")
        page.wait_for_url(f"**/tables/{made['table']}#token=*")
        page.wait_for_function("() => Number(document.body.dataset.eventCount) > 0")
        assert page.inner_text("#title").endswith(words["at"])
    _, state = web_server.request("GET", f"/api/tables/{made['table']}")
    assert [s["name"] for s in state["seats"]] == ["Ann", "Bob"]


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("locale", list(WORDS))
def test_a_link_to_a_full_finished_or_missing_table_says_so(browser, web_server, locale, size):
    words = WORDS[locale]
    full, full_link = invite_table(web_server)
    status, _ = web_server.request("POST", f"/api/tables/{full['table']}/seats",
                                   {"invite": full["invite"], "name": "Cid"})
    assert status == 201
    done, done_link = invite_table(web_server)
    request = urllib.request.Request(f"{web_server.base}/api/tables/{done['table']}", method="DELETE",
                                     headers={"Authorization": f"Bearer {done['creator_token']}"})
    with urllib.request.urlopen(request, timeout=30) as answer:     # 204: no body
        assert answer.status == 204
    gone_link = f"{web_server.base}/#table=nosuchtable0&invite=x"
    for page in new_page(browser, SIZES[size], locale=locale, ignore=("404", "410")):
        for link, kind in ((full_link, "full"), (done_link, "gone"), (gone_link, "gone")):
            page.goto("about:blank")
            page.goto(link)
            page.wait_for_function(f"() => document.body.dataset.join === '{kind}'")
            assert words[kind] in page.inner_text("#join-why"), page.inner_text("#join-why")
            assert page.locator("#join-form").is_hidden()
            assert page.inner_text("#join-lobby") == words["lobby"]
            assert fits(page)
            assert axe_violations(page) == []
        page.click("#join-lobby")
        page.wait_for_selector("main.lobby #game option", state="attached")
        assert page.locator("#join-card").is_hidden()


def test_a_link_to_a_finished_match_says_so(browser, web_server):
    """A table whose match was played to its end (both seats' first legal moves, by the API):
    its invite link's card says it has finished."""
    made, link = invite_table(web_server)
    # Bob takes the seat and the two play the match out by the API.
    status, bob = web_server.request("POST", f"/api/tables/{made['table']}/seats",
                                     {"invite": made["invite"], "name": "Bob"})
    assert status == 201
    tokens = {0: made["seats"]["0"], 1: bob["token"]}
    for _ in range(2000):
        _, state = web_server.request("GET", f"/api/tables/{made['table']}?token={tokens[0]}")
        if state["over"]:
            break
        mover = state["current_player"]
        _, mine = web_server.request("GET", f"/api/tables/{made['table']}?token={tokens[mover]}")
        status, _ = web_server.request("POST", f"/api/tables/{made['table']}/actions",
                                       {"token": tokens[mover], "action": mine["legal"][0]["id"]})
        assert status == 200
    assert state["over"]
    for page in new_page(browser, PHONE):
        page.goto(link)
        page.wait_for_function("() => document.body.dataset.join === 'over'")
        assert WORDS["en-US"]["over"] in page.inner_text("#join-why")
        assert fits(page)


# Every game's invite, each game at one of the four language and size pairs (the join card is
# one page for every game; the pairs above play Kings' Stakes at all four).
PAIRS = [(locale, size) for locale in WORDS for size in SIZES]


@pytest.mark.parametrize("game", available_games())
def test_every_games_invite_opens_its_join_card(browser, web_server, game):
    locale, size = PAIRS[available_games().index(game) % len(PAIRS)]
    players = game_class(game).short_match.players
    bots = {str(seat): "random" for seat in range(2, players)}
    status, made = web_server.request("POST", "/api/tables", {
        "game": game, "players": players, "open_seats": [1], "names": {"0": "Ann"},
        "bots": bots})
    assert status == 201, made
    link = f"{web_server.base}/#table={made['table']}&invite={made['invite']}"
    for page in new_page(browser, SIZES[size], locale=locale):
        page.goto(link)
        page.wait_for_function("() => document.body.dataset.join === 'open'")
        assert page.locator("#join-card").is_visible()
        title = page.inner_text("[data-fact=game]")
        if locale == "en-US":
            assert title == game_class(game).title
        else:
            assert english_left(page, extra={"Ann"}) == [], game
        assert title in page.inner_text("#join-title")
        assert page.inner_text("[data-fact=players]") == str(players)
        assert page.inner_text("[data-fact=seat]") == WORDS[locale]["seat"]
        box = page.locator("#join-button").bounding_box()
        assert box["y"] + box["height"] <= SIZES[size]["height"]
        assert fits(page), page.evaluate("document.documentElement.scrollWidth")
        assert axe_violations(page) == []
        page.fill("#join-name", "Bob")
        page.click("#join-button")
        page.wait_for_url(f"**/tables/{made['table']}#token=*")
        page.wait_for_function("() => Number(document.body.dataset.eventCount) > 0")
        assert page.inner_text("#title").endswith(WORDS[locale]["at"])
