"""Gin Rummy events: what each seat saw happen (cardcore.games.gin_rummy.events)."""
from __future__ import annotations

import pytest

from cardcore import new_game
from cardcore.games.gin_rummy import GinRummy

from gr_helpers import ce, score_rows
from event_pairs import check_event_pairs
from invariants import played

HANDS = {0: ["2C", "3D", "9S", "KH", "4H"], 1: ["7H", "7S", "8D", "JC", "6C"],
         2: ["QH", "10S", "2D", "5S", "AC"]}


def kinds(events) -> list[str]:
    return [e["kind"] for e in events]


def test_gr_2_the_deal_events_are_the_deal():
    game = ce(hands=HANDS, turn_up=["8C", "7C"])
    spectator = game.events(None)
    assert kinds(spectator) == ["deal", "dealt", "dealt", "dealt", "reburied", "turn_up"]
    deal, reburied, turn_up = spectator[0], spectator[4], spectator[5]
    assert (deal["hand"], deal["dealer"], deal["stock_size"]) == (1, 0, 52 - 15 - 1)
    assert reburied["cards"] == ["8C"] and reburied["place"] == "bottom"     # GR-2.4
    assert turn_up["cards"] == ["7C"] and turn_up["rule"] == "GR-2.3"
    assert (turn_up["suit"], turn_up["first_player"], turn_up["direction"]) == ("C", 1, 1)
    for seat in range(3):                                    # GR-2.2: a seat sees its own
        dealt = [e for e in game.events(seat) if e["kind"] == "dealt"]
        assert [e.get("hidden") for e in dealt] == [None if p == seat else 5 for p in range(3)]
        assert sorted(dealt[seat]["cards"]) == sorted(HANDS[seat])
    shuffled = next(new_game("gin_rummy", players=3, seed=s) for s in range(200)
                    if new_game("gin_rummy", players=3, seed=s)._state.reburied())
    assert next(e for e in shuffled.events(None) if e["kind"] == "reburied")["place"] == "random"


def test_gr_4_5_a_special_turn_up_says_what_it_did():
    game = ce(4, turn_up=["AS"], dealer=0, use_special_cards=True)
    turn_up = game.events(None)[-1]
    assert turn_up["rule"] == "GR-4.5" and turn_up["direction"] == -1
    assert turn_up["first_player"] == 3 == game.current_player
    two = ce(4, turn_up=["2S"], dealer=0, use_special_cards=True).events(None)[-1]
    assert two["rule"] == "GR-4.5" and two["draw_two_owed"] == 2
    plain = ce(4, turn_up=["AS"], dealer=0).events(None)[-1]
    assert plain["rule"] == "GR-2.3" and plain["direction"] == 1


def test_gr_5_1_a_draw_names_its_card_to_the_drawer_only():
    game = ce(hands=HANDS, turn_up=["7C"], stock=["KD"])
    game.apply("draw")
    mine, theirs, spectator = (game.events(1)[-1], game.events(0)[-1], game.events(None)[-1])
    assert mine["kind"] == "draw" and mine["cards"] == ["KD"] and mine["rule"] == "GR-5.1"
    assert theirs["cards"] == [] and theirs["hidden"] == 1 == spectator["hidden"]
    assert mine["action"] == theirs["action"] == "draw" and mine["next_player"] == 1
    game.apply("play 7H")
    play = game.events(None)[-1]
    assert (play["kind"], play["cards"], play["suit"], play["next_player"]) == ("play", ["7H"],
                                                                                "H", 2)


def test_gr_6_1_a_reshuffle_moves_the_discard_but_its_top_into_the_stock():
    hands = {1: ["7H", "7S", "6C"], 2: ["7C", "5S", "AD"], 0: ["7D", "9S", "4H"]}
    game = ce(hands=hands, turn_up=["9H"], reshuffle=True, max_draw_cards=100, seed=4)
    for action in ("play 7H", "play 7C", "play 7D"):
        game.apply(action)
    while game._state.reshuffles == 0:
        game.apply("draw")                                   # seat 1 empties the stock
    events = game.events(None)
    assert kinds(events[-2:]) == ["draw", "reshuffle"]
    reshuffle = events[-1]
    assert reshuffle["cards"] == ["9H", "7H", "7C"] and reshuffle["stock_size"] == 3
    assert reshuffle["rule"] == "GR-6.1" and reshuffle["player"] is None
    assert game.events(1)[-2]["cards"] and events[-2]["hidden"] == 1


def test_gr_4_4_a_debt_drawn_across_a_reshuffle_shows_the_rest_to_the_drawer():
    hands = {1: ["2D", "7H", "7S"], 2: ["5H", "9C"], 0: ["2C", "3H"]}
    game = ce(hands=hands, turn_up=["3D"], use_special_cards=True, reshuffle=True,
              max_draw_cards=100)
    while game.view(1)["stock_size"] > 1:
        game.apply("draw")                                   # seat 1 leaves one card
    game.apply("play 2D")
    game.apply("draw")                                       # seat 2 owes 2: 1 + 1 after
    spectator, drawer = game.events(None), game.events(2)
    assert kinds(spectator[-3:]) == ["draw", "reshuffle", "drew"]
    draw, reshuffle, drew = drawer[-3:]
    assert draw["rule"] == "GR-4.4" and len(draw["cards"]) == 1
    assert reshuffle["cards"] == ["3D"] and drew["cards"] == ["3D"] and drew["player"] == 2
    assert spectator[-1]["hidden"] == 1 and spectator[-1]["cards"] == []
    assert game.view(2)["draw_two_owed"] == 0 and game.current_player == 0


def test_gr_8_3_the_hand_end_lays_the_hands_down_with_the_kernels_breakdown():
    game = ce(hands=HANDS, turn_up=["8C", "7C"], stock=["KD"], max_turns=2,
              use_special_cards=True)
    assert game.view(0)["final_hands"] is None
    game.apply("draw")
    game.apply("play 7H")
    game.apply("play QH")
    spectator = game.events(None)
    end = next(e for e in spectator if e["kind"] == "hand_end")
    assert end["reason_code"] == "max_turns" and end["rule"] == "GR-7.2" and end["hand"] == 1
    assert end["hands"] == game.view(0)["final_hands"] == game.view(2)["final_hands"]
    assert end["hands"][1] == game.view(1)["hand"] and spectator[-1]["kind"] == "match_end"
    rows = [(c["seat"], c["what"], c["count"], c["points"], c["rule"])
            for c in end["breakdown"]["components"]]
    assert rows == score_rows(game) and all(r[4] == "GR-8.1" for r in rows)
    assert end["breakdown"]["totals"] == game.scores == end["scores"]


def test_gr_7_the_hand_end_says_why_it_ended():
    game = ce(2, hands={1: ["5C", "6C", "7C", "9C", "10C", "JC", "8S"]}, turn_up=["4C"],
              max_draw_cards=1)
    for card in ("5C", "6C", "7C", "9C", "10C", "JC"):
        game.apply(f"play {card}")
        game.apply("draw")
        game.apply("pass")
    game.apply("play 8S")
    end = game.events(None)[-2]
    assert (end["reason_code"], end["rule"]) == ("out", "GR-7.1") and end["hands"][1] == []
    assert [c for c in end["breakdown"]["components"] if c["seat"] == 1] == []
    game = ce(hands=HANDS, turn_up=["10H"], max_draw_cards=100)
    while game.view(0)["stock_size"]:
        game.apply("draw")
    while not game.is_over:
        game.apply("pass")
    end = game.events(None)[-2]
    assert (end["reason_code"], end["rule"]) == ("passes", "GR-7.3")


@pytest.mark.parametrize("config", GinRummy.conformance_configs,
                         ids=lambda c: "-".join(f"{k}={v}" for k, v in sorted(c.items())))
def test_gr_8_breakdown_totals_are_the_scores(config):
    for seed in range(3):
        game = played(("gin_rummy", config), seed, limit=100_000)
        assert game.is_over
        end = next(e for e in game.events(None) if e["kind"] == "hand_end")
        totals = [0] * game.num_players
        for c in end["breakdown"]["components"]:
            totals[c["seat"]] += c["points"]
            assert c["count"] > 0 and c["rule"] in ("GR-8.1", "GR-8.2")
        assert totals == end["breakdown"]["totals"] == game.scores
        assert [-s for s in game.scores] == game.returns()


@pytest.mark.parametrize("kwargs", [{"players": 4},
                                    {"players": 3, "use_special_cards": True, "reshuffle": True},
                                    {"players": 6, "reshuffle": True}])
def test_gr_9_2_stacked_deck_pairs_show_events_reveal_no_more_than_the_view(kwargs):
    check_event_pairs("gin_rummy", kwargs, 800)
