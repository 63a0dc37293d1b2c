"""Bounded reads (docs/server.md, "Reading a table"; issue 46, item 4): ``GET
/api/tables/{id}`` answers one page of events (the last ``EVENT_PAGE`` without ``since``),
with ``events_from`` and ``event_count``; ``?since=n`` pages through the rest."""
from __future__ import annotations

import functools
import json
import random

import pytest

from cardcore.server import create_app
from cardcore.server.event_pages import EVENT_PAGE

from server_helpers import TestClient

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

ACTIONS = 400
# A GET of a 6-seat Manna table after 400 actions: a page of 100 events, the view, the zones
# and the legal actions, measured 27-34 KB after 100, 200 and 400 actions, where the whole
# log of 494 events is 136 KB and grows with every move. The bound is a page's size with
# room for a longer hand or a bigger page of melds, and does not grow with the match.
MAX_GET_BYTES = 64 * 1024


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """A 6-seat Manna table of people after ``ACTIONS`` actions (random legal ones, played
    through the server object: 400 HTTP requests would only be slower)."""
    db = tmp_path_factory.mktemp("pages") / "t.sqlite3"
    with TestClient(create_app(db)) as client:
        made = client.post("/api/tables", json={"game": "manna", "seed": 11}).json()
        hub = client.app.state.tables
        table = hub.tables[made["table"]]
        rng = random.Random(5)
        for _ in range(ACTIONS):
            game = table.game
            seat = game.current_player
            action = rng.choice(game.legal_actions()).id
            client.portal.call(functools.partial(hub.act, table, seat, action, None, None))
        assert not table.game.is_over
        yield client, made


def get(client, made, seat=0, **params):
    r = client.get(f"/api/tables/{made['table']}", params=params,
                   headers={"Authorization": f"Bearer {made['seats'][str(seat)]}"})
    assert r.status_code == 200, r.text
    return r


def test_a_400_action_table_answers_a_get_of_a_bounded_size(played):
    client, made = played
    r = get(client, made)
    s = r.json()
    assert s["event_count"] > ACTIONS > EVENT_PAGE
    assert len(s["events"]) == EVENT_PAGE
    assert s["events_from"] == s["event_count"] - EVENT_PAGE
    assert [e["n"] for e in s["events"]] == list(range(s["events_from"], s["event_count"]))
    assert len(r.content) <= MAX_GET_BYTES, len(r.content)
    whole = client.app.state.tables.tables[made["table"]].game.events(0)
    assert len(json.dumps(whole)) > 2 * MAX_GET_BYTES      # what a GET answered before


def test_paging_with_since_gives_exactly_the_whole_log(played):
    client, made = played
    for seat in (0, 3):
        whole = client.app.state.tables.tables[made["table"]].game.events(seat)
        got, since, pages = [], 0, 0
        while True:
            s = get(client, made, seat, since=since).json()
            assert s["events_from"] == since and len(s["events"]) <= EVENT_PAGE
            got += s["events"]
            pages += 1
            since = s["events_from"] + len(s["events"])
            if since == s["event_count"]:
                break
        assert got == whole
        assert pages == -(-len(whole) // EVENT_PAGE)


def test_a_client_pages_back_from_the_last_page(played):
    client, made = played
    last = get(client, made).json()
    before = get(client, made, since=last["events_from"] - EVENT_PAGE).json()
    assert before["events"][-1]["n"] == last["events_from"] - 1
    assert get(client, made, since=last["event_count"]).json()["events"] == []


@pytest.mark.parametrize("value", ["abc", "-1", "1.0", "²", "9" * 13, "x" * 500, "100000"])
def test_a_bad_since_is_a_400_naming_it_with_the_value_cut(played, value):
    client, made = played
    before = get(client, made).json()
    r = client.get(f"/api/tables/{made['table']}", params={"since": value})
    assert r.status_code == 400
    body = r.json()
    assert body["option"] == "since" and body["error"].startswith("since must be an int 0..")
    assert len(body["error"]) <= 60 + len("since must be an int 0..99999 (the event count), "
                                          "not ")
    assert get(client, made).json() == before                     # nothing changed
