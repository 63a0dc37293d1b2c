"""Manna from Heaven events: what each seat saw happen."""
from __future__ import annotations

import collections

import pytest

from cardcore.cards import card_id
from cardcore.games.manna._state import card_points_of

from event_pairs import check_event_pairs
from invariants import played


def test_mh_6_1_foot_and_mh_2_4_red_threes_are_events():
    kinds = collections.Counter()
    for seed in range(6):
        game = played(("manna", {"target": 5000}), seed, limit=3000)
        for e in game.events(None):
            kinds[e["kind"]] += 1
            if e["kind"] == "red_three":
                assert all(c in ("3D", "3H") for c in e["cards"])
            if e["kind"] == "foot":
                assert e["cards"] == [] and 1 <= e["hidden"] <= 11 + 8   # red threes replaced
    assert kinds["foot"] and kinds["red_three"] and kinds["canasta"] and kinds["hand_end"]


@pytest.mark.parametrize("foot_penalty", ["red_threes", "cards"])
def test_mh_10_hand_end_breakdown_names_every_rule(foot_penalty):
    """MH-10.5 follows the foot_penalty option: an unopened foot's other cards are a component
    (with their rule and the option) only with "cards"."""
    game = played(("manna", {"hands": 1, "foot_penalty": foot_penalty}), 3)
    end = [e for e in game.events(None) if e["kind"] == "hand_end"][0]
    parts = {c["rule"]: c for c in end["breakdown"]["components"] if c["team"] == 0}
    rules = {"MH-10.1, MH-4.5", "MH-10.2", "MH-10.3, MH-8.3", "MH-10.4", "MH-10.5",
             "MH-10.5, MH-8.4"}
    if foot_penalty == "cards":
        rules.add("MH-10.5 (foot_penalty=cards)")
        assert parts["MH-10.5 (foot_penalty=cards)"]["what"] == "other cards in unopened feet"
    assert set(parts) == rules
    assert parts["MH-10.5, MH-8.4"]["what"] == "red threes in unopened feet"
    assert end["breakdown"]["totals"] == end["hand_scores"]


def test_mh_10_breakdown_totals_are_the_team_scores():
    for seed in range(4):
        for kwargs in ({"target": 5000}, {"target": 3000, "wild_sevens": True},
                       {"target": 3000, "foot_penalty": "cards"},
                       {"target": 3000, "wild_sevens": True, "mixed_sevens": "mixed"}):
            game = played(("manna", kwargs), seed, limit=20000)
            assert game.is_over
            summed = [0, 0]
            for e in game.events(None):
                if e["kind"] == "hand_end":
                    summed = [x + y for x, y in zip(summed, e["breakdown"]["totals"])]
            assert summed == game._state.team_scores()


FEET = range(78, 144)          # deck positions of the feet (MH-2.2), with the dealer at seat 5


def _unseen_feet_of_equal_points(deck, i, j):
    """Feet of seats 1-5 (seat 0 might pick its own up), cards of equal points: the hand
    scores stay equal, so the only difference is one seat 0 cannot see."""
    return bool(i in FEET and j in FEET and (i - 78) % 6 and (j - 78) % 6
                and card_points_of(card_id(deck[i])) == card_points_of(card_id(deck[j]))
                and deck[i] not in ("3D", "3H") and deck[j] not in ("3D", "3H"))


@pytest.mark.slow
def test_mh_11_stacked_deck_pairs_show_events_reveal_no_more_than_the_view():
    check_event_pairs("manna", {"target": 100000, "dealer": 5}, 700,
                      accept=_unseen_feet_of_equal_points)


def _hand_end_breakdown(game, player, action):
    """The narrator's hand-end event for ``action`` applied to the position now (set with
    ``_set_position``, which the action log cannot replay, so the narrator is called directly)."""
    from cardcore.games.manna.events import MannaNarrator
    pre = game._state.clone()
    game.apply(action)
    raw = MannaNarrator(game).round_end(pre, action, player, game._state)[0]
    return raw.public, game._state.last_hand_scores()


@pytest.mark.parametrize("case", ["meld", "out", "take", "draw_then_meld"])
def test_mh_9_2_mh_10_breakdowns_of_every_way_a_hand_ends(case):
    from manna_helpers import DRAW, TAKE_PAIR, game_with, go_out, meld, position
    four_types = ([["4C"] * 7, ["5C"] * 5 + ["JK", "JK"], ["JK"] * 7, ["7C"] * 7])
    g = game_with(dealer=0)
    if case == "meld":                                # MH-9.2: melding every card
        position(g, 1, ["9C", "9D", "9S"], melds1=four_types, opened1=True, foot_taken=True)
        action = meld("9", True, 3)
    elif case == "out":                               # MH-9.2: the last card discarded
        position(g, 1, ["5H"], melds1=four_types, opened1=True, foot_taken=True,
                 melds0=[["KC", "KD", "KH"]])
        action = go_out("5H")
    elif case == "take":                              # MH-9.2: a take melds the last cards
        position(g, 1, ["9C", "9D"], stage=0, pile=["3H", "9H"], melds1=four_types,
                 opened1=True, foot_taken=True)
        action = TAKE_PAIR
    else:                                             # red threes drawn, the last seven melded
        position(g, 1, ["7S"], stage=0, opened1=True, stock=["3H", "3D"], foot_taken=True,
                 melds1=four_types + [["7D", "7D", "7H"]])
        g.apply(DRAW)
        action = meld("7", False, 1)
    assert action in g.legal_action_ids(), case
    event, totals = _hand_end_breakdown(g, 1, action)
    b = event["breakdown"]
    assert b["totals"] == totals and event["went_out"] == 1
    for team in range(2):
        parts = {c["rule"]: c["points"] for c in b["components"] if c["team"] == team}
        assert sum(parts.values()) == totals[team]
    going_out = {c["team"]: c["points"] for c in b["components"] if c["rule"] == "MH-10.4"}
    assert going_out == {0: 0, 1: 100}
    ones = {c["rule"]: c["points"] for c in b["components"] if c["team"] == 1}
    assert ones["MH-10.1, MH-4.5"] == 500 + 300 + 1000 + 1500


# Issue 48: teams are named from the reader's side, as the score table does, and counted from
# 1 where there is no reader (MH-1: partners sit apart, a seat's team is its parity).
TEAM_TEXTS = {
    "en": {None: ("team 1", "team 2"), 0: ("your team", "the opponents"),
           1: ("the opponents", "your team")},
    "ru": {None: ("команда 1", "команда 2"), 0: ("ваша команда", "соперники"),
           1: ("соперники", "ваша команда")},
}


@pytest.mark.parametrize("lang", ["en", "ru"])
def test_mh_1_events_name_teams_from_the_readers_side_counted_from_1(lang):
    game = played(("manna", {"target": 5000}), 1, limit=3000)
    kinds = collections.Counter()
    for seat in (None, 0, 1, 2):
        words = TEAM_TEXTS[lang][None if seat is None else seat % 2]
        for e in game.events(seat, lang=lang):
            text = e["text"]
            assert not any(f"{t} 0" in text for t in ("team", "Team", "команда", "Команда",
                                                        "командой", "команды")), text
            if e["kind"] == "deal":
                kinds["deal"] += 1
                minimum = e["min_meld"]
                first, second = (1, 0) if seat is not None and seat % 2 else (0, 1)
                assert f"{words[first]} — {minimum[first]}, " \
                       f"{words[second]} — {minimum[second]}." in text, text
            elif e["kind"] in ("red_three", "canasta"):
                kinds[e["kind"]] += 1
                mine = words[e["team"]]
                declined = {"ваша команда": "вашей командой", "соперники": "соперниками"}
                if lang == "ru":
                    mine = declined.get(mine, mine.replace("команда", "командой"))
                assert mine in text, text
    assert kinds["deal"] and kinds["red_three"] and kinds["canasta"]
