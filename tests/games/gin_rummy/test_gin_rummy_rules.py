"""Gin Rummy, one or more tests per rule ID of games/gin_rummy.md (stacked decks)."""
from __future__ import annotations

import pytest

from cardcore import ConfigError, IllegalActionError, new_game
from cardcore.bots import make_bot
from cardcore.cards import card_id, card_str
from cardcore.games.gin_rummy._state import (
    MAX_HANDS, NUM_MELDS, card_value, deadwood, meld_cards, to_os_index,
)

# Seat 0: three runs (A-2-3 of spades, 4-5-6 of clubs, 7-8-9 of diamonds) and a king of hearts.
KNOCKER = "AS 2S 3S 4C 5C 6C 7D 8D 9D KH".split()
# Seat 1: no meld; 10D lays off on 7-8-9D.
LOOSE = "AH 3H 5H 7H 9H JH QC QD 10D 8C".split()


def deal(hand0, hand1, upcard, stock=(), **options):
    """A game dealt hand0 and hand1, the upcard, then the stock from the top (the rest of the
    deck follows in id order)."""
    named = list(hand0) + list(hand1) + [upcard] + list(stock)
    rest = [card_str(c) for c in range(52) if card_str(c) not in named]
    return new_game("gin_rummy", deck=named + rest, seed=0, **options)


def legal(game):
    return game.view(game.current_player)["legal_actions"]


def knocked_and_laid(hand1=LOOSE, upcard="2H", **options):
    """Seat 0 takes the upcard, knocks, discards KH and lays its three runs."""
    g = deal(KNOCKER, hand1, upcard, **options)
    g.apply("draw upcard")
    g.apply("knock")
    g.apply("card KH")
    for meld in ("meld AS 2S 3S", "meld 4C 5C 6C", "meld 7D 8D 9D"):
        g.apply(meld)
    return g


# ---------------------------------------------------------------- GR-1
@pytest.mark.parametrize("players", [1, 3, 4])
def test_gr_1_1_two_players_only(players):
    with pytest.raises(ConfigError):
        new_game("gin_rummy", players=players)
    assert new_game("gin_rummy", seed=1).num_players == 2


def test_gr_1_2_one_deck_of_52():
    g = new_game("gin_rummy", seed=4)
    assert sorted(g.state.all_cards()) == list(range(52))


def test_gr_1_3_card_values():
    assert [card_value(card_id(c)) for c in ("AS", "2C", "9D", "10H", "JS", "QC", "KD")] == \
        [1, 2, 9, 10, 10, 10, 10]


def test_gr_1_4_the_185_melds():
    assert NUM_MELDS == 185
    melds = [meld_cards(m) for m in range(NUM_MELDS)]
    assert len({tuple(sorted(m)) for m in melds}) == 185
    sizes = [len(m) for m in melds]
    assert sizes.count(3) == 52 + 44 and sizes.count(4) == 13 + 40 and sizes.count(5) == 36
    # rank A's set without spades is meld 0; the first run of three is A-2-3 of spades
    assert [card_str(c) for c in meld_cards(0)] == ["AC", "AD", "AH"]
    assert [card_str(c) for c in meld_cards(65)] == ["AS", "2S", "3S"]
    # the ace is low only: no run ends in Q K A
    assert not any({"QS", "KS", "AS"} <= {card_str(c) for c in m} for m in melds)


@pytest.mark.parametrize("option,value", [("knock_card", 11), ("hand_size", 11),
                                          ("gin_bonus", -1), ("oklahoma", "yes"),
                                          ("rediscard_upcard", "no"), ("big_gin_bonus", 1001),
                                          ("layoff_limit", 0), ("layoff_limit", 11),
                                          ("undercut_on_equal", 1.5), ("wall_knock", None)])
def test_gr_1_5_bad_options_are_refused(option, value):
    with pytest.raises(ConfigError, match=option):
        new_game("gin_rummy", **{option: value})


# ---------------------------------------------------------------- GR-2
def test_gr_2_1_the_deal_from_the_top():
    g = deal(KNOCKER, LOOSE, "2H")
    assert sorted(g.view(0)["hand"], key=card_id) == sorted(KNOCKER, key=card_id)
    assert sorted(g.view(1)["hand"], key=card_id) == sorted(LOOSE, key=card_id)
    g7 = new_game("gin_rummy", seed=3, hand_size=7)
    assert g7.state.hand_sizes() == [7, 7] and g7.view(0)["stock_size"] == 52 - 15


def test_gr_2_2_seat_one_deals_and_seat_zero_starts():
    for seed in range(5):
        g = new_game("gin_rummy", seed=seed)
        assert g.state.dealer == 1 and g.current_player == 0


def test_gr_2_3_the_first_upcard_and_the_stock():
    g = deal(KNOCKER, LOOSE, "2H", stock=["5S"])
    assert g.view(0)["upcard"] == "2H" and g.view(0)["stock_size"] == 31
    assert g.state.stock()[0] == card_id("5S")


# ---------------------------------------------------------------- GR-3
def test_gr_3_1_take_or_pass_the_first_upcard():
    g = deal(KNOCKER, LOOSE, "2H")
    assert legal(g) == ["draw upcard", "pass"]
    g.apply("pass")
    assert g.current_player == 1 and legal(g) == ["draw upcard", "pass"]
    g.apply("draw upcard")
    assert g.view(1)["phase"] == "discard" and len(g.view(1)["hand"]) == 11
    assert g.view(0)["known"][1] == ["2H"]


def test_gr_3_2_both_pass_then_seat_zero_draws_from_the_stock():
    g = deal(KNOCKER, LOOSE, "2H", stock=["5S"])
    g.apply("pass")
    g.apply("pass")
    assert g.current_player == 0 and legal(g) == ["draw stock"]
    with pytest.raises(IllegalActionError):
        g.apply("draw upcard")
    g.apply("draw stock")
    assert "5S" in g.view(0)["hand"] and g.view(0)["discard"] == ["2H"]
    assert g.view(0)["upcard"] is None


@pytest.mark.parametrize("upcard,knock", [("7H", 7), ("QS", 10), ("AH", 0)])
def test_gr_3_3_oklahoma_the_upcard_sets_the_knock_card(upcard, knock):
    hand1 = [c for c in LOOSE if c != upcard] + (["2D"] if upcard in LOOSE else [])
    g = deal(KNOCKER, hand1, upcard, oklahoma=True)
    assert g.view(0)["knock_card"] == knock
    assert deal(KNOCKER, hand1, upcard).view(0)["knock_card"] == 10


# ---------------------------------------------------------------- GR-4
def test_gr_4_1_draw_then_discard_the_discard_is_the_upcard():
    g = deal(KNOCKER, LOOSE, "2H", stock=["5S", "6S"])
    g.apply("pass")
    g.apply("pass")
    g.apply("draw stock")
    assert "knock" not in legal(g) or g.state.deadwood(0) <= 10
    g.apply("card KH")
    assert g.view(1)["upcard"] == "KH" and g.current_player == 1
    assert legal(g) == ["draw upcard", "draw stock"]
    g.apply("draw stock")                             # the upcard goes out of play
    assert g.view(1)["discard"] == ["2H", "KH"] and "6S" in g.view(1)["hand"]


def test_gr_4_2_rediscard_upcard_off_keeps_the_card_just_taken():
    g = deal(KNOCKER, LOOSE, "2H")
    g.apply("draw upcard")
    assert "card 2H" in legal(g)                      # OpenSpiel's default: it may go back
    g = deal(KNOCKER, LOOSE, "2H", rediscard_upcard=False)
    g.apply("draw upcard")
    assert "card 2H" not in legal(g) and "card KH" in legal(g)
    before = g.view(0)
    with pytest.raises(IllegalActionError, match="GR-4.2"):
        g.apply("card 2H")
    assert g.view(0) == before
    g.apply("card KH")
    # a card drawn from the stock may be discarded at once
    g.apply("draw stock")
    drawn = card_str(g.state.last_drawn()[0])
    assert f"card {drawn}" in legal(g)


def test_gr_4_2_rediscard_upcard_off_a_knock_needs_another_discard():
    # deadwood 4H after discarding the king just taken: the knock needs that discard
    hand0 = KNOCKER[:-1] + ["4H"]
    g = deal(hand0, LOOSE, "KS", knock_card=5)
    g.apply("draw upcard")
    assert "knock" in legal(g)
    g = deal(hand0, LOOSE, "KS", knock_card=5, rediscard_upcard=False)
    g.apply("draw upcard")
    assert g.state.deadwood(0) == 4 and "knock" not in legal(g)
    with pytest.raises(IllegalActionError, match="GR-4.2"):
        g.apply("knock")
    # the knocker's discard (GR-6.2) may not be the card just taken either
    g = deal(KNOCKER, LOOSE, "2H", rediscard_upcard=False)
    g.apply("draw upcard")
    g.apply("knock")
    assert legal(g) == ["card KH"]


def test_gr_5_1_knock_only_with_little_deadwood():
    g = deal(KNOCKER, LOOSE, "2H")
    g.apply("draw upcard")                            # dead KH 2H: KH is the discard to come
    assert g.state.deadwood(0) == 2 and "knock" in legal(g)
    g = deal(KNOCKER, LOOSE, "2H", knock_card=1)
    g.apply("draw upcard")
    assert "knock" not in legal(g)
    with pytest.raises(IllegalActionError, match="GR-5.1"):
        g.apply("knock")
    # a knock needs a discard that keeps it (hand_size 2: three aces, then two cards worth 2)
    g = deal(["AS", "AC"], ["5H", "9C"], "AD", hand_size=2, knock_card=1)
    g.apply("draw upcard")
    assert g.state.deadwood(0) == 0 and "knock" not in legal(g)
    # OpenSpiel's deadwood of eleven cards: the least over the arrangements, less the
    # dearest unmelded card
    assert deadwood([card_id(c) for c in KNOCKER + ["QH"]]) == 10


def test_gr_5_2_the_wall_knock_or_end():
    g = new_game("gin_rummy", seed=5, knock_card=0)
    g.apply("pass")
    g.apply("pass")
    while g.view(0)["phase"] != "wall":
        if g.view(0)["phase"] == "draw":
            g.apply("draw stock")
        else:
            drawn = g.state.last_drawn()
            g.apply(f"card {card_str(drawn[0])}" if drawn else legal(g)[0])
    assert g.view(0)["stock_size"] == 2
    assert legal(g)[0] == "pass" and set(legal(g)) <= {"pass", "knock"}
    g.apply("pass")
    assert g.is_over and g.state.returns() == [0.0, 0.0] and g.state.end_reason == "wall"


@pytest.mark.parametrize("wall_knock", [True, False])
def test_gr_5_3_wall_knock_off_the_discard_at_the_wall_ends_the_hand(wall_knock):
    g = new_game("gin_rummy", seed=5, knock_card=0, wall_knock=wall_knock)
    g.apply("pass")
    g.apply("pass")
    while g.view(0)["stock_size"] > 2 or g.view(0)["phase"] == "discard":
        if g.view(0)["phase"] == "draw":
            g.apply("draw stock")
        else:
            drawn = g.state.last_drawn()
            g.apply(f"card {card_str(drawn[0])}" if drawn else legal(g)[0])
    if wall_knock:                                    # OpenSpiel's: the next player may knock
        assert not g.is_over and g.view(0)["phase"] == "wall"
    else:                                             # pagat's: the hand is void at once
        assert g.is_over and g.state.end_reason == "wall"
        assert g.state.returns() == [0.0, 0.0] and g.view(0)["stock_size"] == 2


# ---------------------------------------------------------------- GR-6
def test_gr_6_1_the_knocker_holds_eleven_cards():
    g = deal(KNOCKER, LOOSE, "2H")
    g.apply("draw upcard")
    g.apply("knock")
    assert g.view(0)["phase"] == "knock" and len(g.view(0)["hand"]) == 11
    assert g.current_player == 0


def test_gr_6_2_the_knockers_discard_keeps_the_knock():
    g = deal(KNOCKER, LOOSE, "2H")
    g.apply("draw upcard")
    g.apply("knock")
    assert legal(g) == ["card 2H", "card KH"]
    with pytest.raises(IllegalActionError, match="GR-6.2"):
        g.apply("card AS")
    g.apply("card KH")
    assert g.view(0)["discard"] == ["KH"] and g.view(0)["upcard"] is None


def test_gr_6_3_lay_melds_until_the_deadwood_is_at_most_the_knock_card():
    g = deal(KNOCKER, LOOSE, "2H")
    g.apply("draw upcard")
    g.apply("knock")
    g.apply("card KH")
    assert "pass" not in legal(g)
    assert legal(g) == ["meld AS 2S 3S", "meld 4C 5C 6C", "meld 7D 8D 9D"]
    for meld in legal(g):
        g.apply(meld)
    assert legal(g) == ["pass"] and g.view(1)["melds"][0] == [
        ["AS", "2S", "3S"], ["4C", "5C", "6C"], ["7D", "8D", "9D"]]


GIN = "AS 2S 3S 4C 5C 6C 7D 8D 9D 10D".split()
NO_10D = [c if c != "10D" else "KS" for c in LOOSE]


def test_gr_6_4_big_gin_keeps_eleven_cards_and_scores_its_bonus():
    g = deal(GIN, NO_10D, "JD", big_gin_bonus=31)
    g.apply("draw upcard")
    g.apply("knock")
    assert legal(g)[-1] == "pass"                     # keep all eleven: big gin
    g.apply("pass")
    assert g.state.big_gin and len(g.view(0)["hand"]) == 11
    assert legal(g) == ["meld AS 2S 3S", "meld 4C 5C 6C", "meld 7D 8D 9D 10D JD"]
    g.apply("meld AS 2S 3S")
    with pytest.raises(IllegalActionError, match="GR-6.4"):
        g.apply("pass")                               # every card is laid
    g.apply("meld 4C 5C 6C")
    g.apply("meld 7D 8D 9D 10D JD")
    g.apply("pass")
    assert all(not a.startswith("card") for a in legal(g))   # no layoffs on gin
    g.apply("pass")
    loose = sum(card_value(card_id(c)) for c in NO_10D)
    assert g.state.returns() == [loose + 31.0, -loose - 31.0]
    end = [e for e in g.events() if e["kind"] == "hand_end"][0]
    rows = [r for r in end["breakdown"]["components"] if r["seat"] == 0]
    assert [(r["what"], r["rule"], r["points"]) for r in rows] == [
        ("deadwood difference", "GR-8.1", loose), ("big gin bonus", "GR-6.4", 31)]


def test_gr_6_4_big_gin_is_a_choice_and_needs_every_card_melded():
    # the knocker may still discard and score ordinary gin
    g = deal(GIN, NO_10D, "JD", big_gin_bonus=31, gin_bonus=25)
    g.apply("draw upcard")
    g.apply("knock")
    g.apply("card JD")
    assert not g.state.big_gin
    # off (OpenSpiel's default), or with a card no meld holds: the knocker must discard
    for options, rule in (({}, "GR-6.2"), ({"big_gin_bonus": 31}, "GR-6.4")):
        upcard = "JD" if not options else "KH"
        g = deal(GIN, NO_10D, upcard, **options)
        g.apply("draw upcard")
        g.apply("knock")
        assert "pass" not in legal(g)
        before = g.view(0)
        with pytest.raises(IllegalActionError, match=rule):
            g.apply("pass")
        assert g.view(0) == before


def test_gr_7_1_lay_off_on_the_knockers_melds():
    g = knocked_and_laid()
    g.apply("pass")
    assert g.current_player == 1 and legal(g) == ["card 10D", "pass"]
    g.apply("card 10D")
    assert g.view(0)["layoffs"] == ["10D"] and card_id("10D") in g.state.table(0)
    assert legal(g) == ["pass"]


def test_gr_7_2_then_the_other_lays_its_melds_and_ends():
    hand1 = "AC AD AH 3C 3D 3H 4H 5H 6H 2C".split()
    g = knocked_and_laid(hand1)
    g.apply("pass")
    g.apply("pass")                                   # no layoff
    assert "meld AC AD AH" in legal(g) and "meld 4H 5H 6H" in legal(g)
    g.apply("meld AC AD AH")
    g.apply("meld 4H 5H 6H")
    assert not g.is_over
    g.apply("pass")
    assert g.is_over
    assert sorted(g.view(0)["final_hands"][1], key=card_id) == ["2C", "3C", "3D", "3H"]


def test_gr_7_3_no_layoffs_on_gin():
    gin = "AS 2S 3S 4C 5C 6C 7D 8D 9D 10D".split()
    g = deal(gin, [c if c != "10D" else "KS" for c in LOOSE], "2H")
    g.apply("draw upcard")
    g.apply("knock")
    g.apply("card 2H")
    for meld in ("meld AS 2S 3S", "meld 4C 5C 6C", "meld 7D 8D 9D 10D"):
        g.apply(meld)
    g.apply("pass")
    assert all(not a.startswith("card") for a in legal(g))
    with pytest.raises(IllegalActionError):
        g.apply("card QD")


# The defender holds the next four diamonds above the knocker's 7D 8D 9D and two below.
RUNNER = "10D JD QD KD 6D 5D AH 3H 7H 9H".split()


@pytest.mark.parametrize("limit,high,low", [(2, ["10D", "JD"], ["6D", "5D"]),
                                            (1, ["10D"], ["6D"]),
                                            (10, ["10D", "JD", "QD", "KD"], ["6D", "5D"])])
def test_gr_7_4_layoff_limit_at_each_end_of_a_run(limit, high, low):
    options = {} if limit == 2 else {"layoff_limit": limit}    # 2 is OpenSpiel's default
    g = knocked_and_laid(RUNNER, **options)
    g.apply("pass")
    for card in RUNNER[:4]:
        if card not in high:
            assert f"card {card}" not in legal(g)
            with pytest.raises(IllegalActionError, match="GR-7.1"):
                g.apply(f"card {card}")
            break
        g.apply(f"card {card}")
    for card in ("6D", "5D"):
        assert (f"card {card}" in legal(g)) == (card in low)
        if card in low:
            g.apply(f"card {card}")
    assert g.view(0)["layoffs"] == high + low


def test_gr_8_1_knock_gin_and_undercut():
    g = knocked_and_laid()
    g.apply("pass")
    g.apply("card 10D")
    g.apply("pass")
    g.apply("pass")
    assert g.state.returns() == [61.0, -61.0] and g.state.end_reason == "knock"
    # undercut: the other melds down to 2 against the knocker's 9
    hand0 = KNOCKER[:-1] + ["9H"]
    g = deal(hand0, "AC AD AH 3C 3D 3H 4H 5H 6H 2C".split(), "2H", undercut_bonus=20)
    g.apply("draw upcard")
    g.apply("knock")
    g.apply("card 2H")
    for meld in ("meld AS 2S 3S", "meld 4C 5C 6C", "meld 7D 8D 9D"):
        g.apply(meld)
    g.apply("pass")
    g.apply("pass")
    for meld in ("meld AC AD AH", "meld 3C 3D 3H", "meld 4H 5H 6H"):
        g.apply(meld)
    g.apply("pass")
    assert g.state.returns() == [-(9 - 2) - 20.0, 27.0]
    # gin: the other's deadwood and the bonus
    gin = "AS 2S 3S 4C 5C 6C 7D 8D 9D 10D".split()
    g = deal(gin, [c if c != "10D" else "KS" for c in LOOSE], "2H", gin_bonus=31)
    g.apply("draw upcard")
    g.apply("knock")
    g.apply("card 2H")
    for meld in ("meld AS 2S 3S", "meld 4C 5C 6C", "meld 7D 8D 9D 10D"):
        g.apply(meld)
    g.apply("pass")
    g.apply("pass")
    loose = sum(card_value(card_id(c)) for c in LOOSE if c != "10D") + 10
    assert g.state.returns() == [loose + 31.0, -loose - 31.0]


def test_gr_8_2_the_fiftieth_upcard_draw_ends_the_hand():
    g = new_game("gin_rummy", seed=2, knock_card=0)
    g.apply("pass")
    g.apply("pass")
    g.apply("draw stock")
    draws = 0
    while not g.is_over:
        if g.view(0)["phase"] == "draw":
            upcard = g.view(0)["upcard"]
            g.apply("draw upcard")
            draws += 1
            if g.is_over:
                break
            g.apply(next(a for a in legal(g) if a.startswith("card") and a != f"card {upcard}"))
        else:
            g.apply(next(a for a in legal(g) if a.startswith("card")))
    assert draws == 50 and g.state.end_reason == "upcards"
    assert g.state.returns() == [0.0, 0.0]


def test_gr_8_3_both_put_back_the_upcard_ends_the_hand():
    g = deal(KNOCKER, LOOSE, "2H")
    g.apply("draw upcard")
    g.apply("card 2H")
    assert not g.is_over
    g.apply("draw upcard")
    g.apply("card 2H")
    assert g.is_over and g.state.end_reason == "repeated"
    assert g.state.returns() == [0.0, 0.0]


def test_gr_8_4_no_knock_scores_nothing_and_one_hand_is_the_match():
    g = new_game("gin_rummy", seed=7)
    g.apply("pass")
    g.apply("pass")
    assert g.state.scores() == [0, 0]
    g = deal(KNOCKER, LOOSE, "2H")
    for action in ("draw upcard", "card 2H", "draw upcard", "card 2H"):
        g.apply(action)
    assert g.is_over and g.state.round_index == 1 and g.state.scores() == [0, 0]


def _equal_deadwood(hand1, **options):
    """Seat 0 knocks with 9H left; seat 1 lays its melds and keeps what is left."""
    g = deal(KNOCKER[:-1] + ["9H"], hand1, "2H", **options)
    g.apply("draw upcard")
    g.apply("knock")
    g.apply("card 2H")
    for meld in ("meld AS 2S 3S", "meld 4C 5C 6C", "meld 7D 8D 9D"):
        g.apply(meld)
    g.apply("pass")
    g.apply("pass")
    for meld in ("meld AC AD AH", "meld 3C 3D 3H", "meld 4H 5H 6H"):
        g.apply(meld)
    g.apply("pass")
    return g.state.returns()


def test_gr_8_5_undercut_on_equal_deadwood():
    equal = "AC AD AH 3C 3D 3H 4H 5H 6H 9C".split()       # 9 left, as the knocker's 9H
    assert _equal_deadwood(equal, undercut_bonus=20) == [0.0, 0.0]        # OpenSpiel
    assert _equal_deadwood(equal, undercut_bonus=20, undercut_on_equal=True) == [-20.0, 20.0]
    # less deadwood undercuts as before; more does not
    assert _equal_deadwood(equal[:-1] + ["8C"], undercut_on_equal=True) == [-26.0, 26.0]
    assert _equal_deadwood(equal[:-1] + ["10C"], undercut_on_equal=True) == [1.0, -1.0]


def test_gr_8_5_gin_is_never_undercut_even_on_equal():
    melded = "AC AD AH 3C 3D 3H 4H 5H 6H 7H".split()
    g = deal(GIN, melded, "2H", gin_bonus=0, undercut_on_equal=True)
    g.apply("draw upcard")
    g.apply("knock")
    g.apply("card 2H")
    for meld in ("meld AS 2S 3S", "meld 4C 5C 6C", "meld 7D 8D 9D 10D"):
        g.apply(meld)
    g.apply("pass")
    for meld in ("meld AC AD AH", "meld 3C 3D 3H", "meld 4H 5H 6H 7H"):
        g.apply(meld)
    g.apply("pass")
    assert g.is_over and g.state.returns() == [0.0, 0.0]


def test_gr_9_1_the_view():
    g = deal(KNOCKER, LOOSE, "2H")
    v = g.view(0)
    assert v["deadwood"] == 10 and v["knock_card"] == 10 and v["upcard"] == "2H"
    assert v["phase"] == "first_upcard" and v["passed_first_upcard"] == [False, False]
    g.apply("pass")
    assert g.view(1)["passed_first_upcard"] == [True, False]


def test_gr_9_2_the_other_hand_is_hidden_but_cards_taken_face_up():
    g = deal(KNOCKER, LOOSE, "2H")
    assert g.view(1)["zones"]["hand:0"] == {"count": 10}
    g.apply("draw upcard")
    assert g.view(1)["known"][0] == ["2H"]
    g.apply("card KH")
    assert g.view(1)["known"][0] == ["2H"]
    obs = g.observation_tensor(1)
    pieces = {name: (at, n) for name, at, n in g.observation_pieces}
    at, n = pieces["known_cards"]
    assert [i for i in range(n) if obs[at + i]] == [to_os_index(card_id("2H"))]


# ---------------------------------------------------------------- GR-10
def test_gr_10_1_worlds_keep_the_cards_taken_face_up():
    g = deal(KNOCKER, LOOSE, "2H")
    g.apply("pass")
    g.apply("draw upcard")
    g.apply("card QD")
    hidden = set(g.state.hand(0)) | set(g.state.stock())
    for seed in range(20):
        world = g.state.sample_hidden(0, seed)
        assert card_id("2H") in world.hand(1) and len(world.hand(1)) == 10
        assert world.hand(0) == g.state.hand(0)
        assert set(world.hand(1)) - {card_id("2H")} <= hidden | set(g.state.hand(1))
        assert sorted(world.all_cards()) == list(range(52))


def test_gr_10_2_a_world_depends_only_on_what_the_seat_knows():
    a = deal(KNOCKER, LOOSE, "2H")
    other = list(reversed(LOOSE))                      # the same cards, dealt in another order
    b = deal(KNOCKER, other, "2H")
    assert a.state.sample_hidden(0, 9).hand(1) == b.state.sample_hidden(0, 9).hand(1)


def test_gr_6_4_greedy_declares_big_gin_when_offered():
    for options, declared in (({"big_gin_bonus": 31}, True), ({}, False)):
        g = deal(GIN, NO_10D, "JD", **options)
        bot = make_bot("greedy", 1)
        g.apply(bot.choose_id(g))                     # JD joins 7D-10D: taken
        g.apply(bot.choose_id(g))                     # gin: knock
        assert g.view(0)["phase"] == "knock" and len(g.view(0)["hand"]) == 11
        g.apply(bot.choose_id(g))                     # big gin when offered, else a discard
        assert g.state.big_gin == declared and len(g.view(0)["hand"]) == (11 if declared else 10)


def test_gr_5_3_the_refusals_at_the_wall_and_after_it():
    # Neither hand melds or can knock (knock card 0); every drawn card is discarded.
    hand0 = "KS QH JD 9C 7S 5H 3D KD QC JS".split()
    hand1 = "KH QD JC 9S 7H 5D 3C KC QS JH".split()
    for wall_knock in (True, False):
        g = deal(hand0, hand1, "2C", knock_card=0, wall_knock=wall_knock)
        g.apply("pass")
        g.apply("pass")
        while not g.is_over and g.view(0)["phase"] != "wall":
            g.apply("draw stock" if "draw stock" in legal(g)
                    else f"card {card_str(g.state.last_drawn()[0])}")
        before = g.view(0)
        refusals = ((("card KH", "two cards are left in the stock: knock or pass", "GR-5.2"),
                     ("knock", "a knock needs deadwood of at most 0", "GR-5.1"))
                    if wall_knock else       # pagat's: the hand is void, nothing more to play
                    (("knock", "the match is over", "GR-8"), ("pass", "the match is over", "GR-8")))
        assert g.is_over != wall_knock and before["stock_size"] == 2
        for action, text, rule in refusals:
            with pytest.raises(IllegalActionError) as caught:
                g.apply(action)
            assert str(caught.value) == f"{text} [{rule}]" and caught.value.rule == rule
            assert g.view(0) == before


# ---------------------------------------------------------------- GR-9.1: the card taken, big gin
def _piece(game, seat, name):
    """The set places of an observation piece."""
    obs = game.observation_tensor(seat)
    at, n = {p: (a, k) for p, a, k in game.observation_pieces}[name]
    return [i for i in range(n) if obs[at + i]]


def test_gr_9_1_the_card_taken_this_turn_in_the_view_and_the_tensor():
    g = deal(KNOCKER, LOOSE, "2H")
    assert g.view(0)["taken"] == [] and _piece(g, 0, "taken") == []
    g.apply("draw upcard")
    two = to_os_index(card_id("2H"))
    for seat in (0, 1):                               # everybody saw it taken
        assert g.view(seat)["taken"] == ["2H"] and _piece(g, seat, "taken") == [two]
    assert g.view(None)["taken"] == ["2H"]
    g.apply("card KH")                                # the turn passes: no card taken now
    assert g.view(1)["taken"] == [] and _piece(g, 1, "taken") == []
    g.apply("draw stock")                             # from the stock: nothing taken face up
    assert g.view(1)["taken"] == [] and _piece(g, 0, "taken") == []
    # the openspiel variant is untouched: the new pieces follow it
    size = sum(n for name, _, n in g.observation_pieces if name.startswith("openspiel_"))
    assert g.observation_variants["openspiel"] == (size,)
    assert [name for name, _, _ in g.observation_pieces][-5:] == [
        "taken", "big_gin", "hand_number", "dealer", "hands_won"]


def test_gr_9_1_big_gin_in_the_view_and_the_tensor():
    g = deal(GIN, NO_10D, "JD", big_gin_bonus=31)
    g.apply("draw upcard")
    g.apply("knock")
    assert not g.view(1)["big_gin"] and _piece(g, 1, "big_gin") == []
    assert g.view(0)["taken"] == ["JD"]               # the knocker's turn goes on
    g.apply("pass")                                   # keep eleven cards: big gin
    for seat in (0, 1):
        assert g.view(seat)["big_gin"] and _piece(g, seat, "big_gin") == [0]


# ---------------------------------------------------------------- GR-11: the match
def _knock_61(**options):
    """The first hand: seat 0 knocks and scores 61 (test_gr_8_1's hand)."""
    g = knocked_and_laid(**options)
    for action in ("pass", "card 10D", "pass", "pass"):
        g.apply(action)
    return g


def _repeat_hand(g):
    """A hand with no score: both take the upcard and discard it again (GR-8.3)."""
    for _ in range(2):
        g.apply("draw upcard")
        g.apply(f"card {g.view(g.current_player)['taken'][0]}")


def test_gr_11_1_a_match_plays_hands_until_a_total_reaches_match_to():
    one = _knock_61()
    assert one.is_over and one.state.round_index == 1          # match_to 0: one hand
    g = _knock_61(match_to=100)
    assert not g.is_over and g.state.round_index == 1           # 61 < 100: the next hand
    assert g.view(0)["phase"] == "first_upcard" and len(g.view(1)["hand"]) == 10
    assert sorted(g.state.all_cards()) == list(range(52))
    assert g.view(0)["melds"] == [[], []] and g.view(0)["known"] == [[], []]
    g = _knock_61(match_to=61)                                  # 61 reaches 61: over
    assert g.is_over and g.state.target_reached
    assert g.events()[-1]["reason_code"] == "match_to" and g.events()[-1]["rule"] == "GR-11.1"
    with pytest.raises(ConfigError, match="GR-11.1"):
        new_game("gin_rummy", match_to=1001)
    with pytest.raises(ConfigError, match="GR-11.1"):
        new_game("gin_rummy", match_to=-1)


def test_gr_11_2_only_the_hands_winner_scores_and_returns_are_the_difference():
    g = _knock_61(match_to=100)
    assert g.state.scores() == [61, 0] and g.returns() == [0.0, 0.0]     # not over yet
    end = [e for e in g.events() if e["kind"] == "hand_end"][0]
    assert end["scores"] == [61, 0] and end["breakdown"]["totals"] == [61, 0]
    assert {c["seat"] for c in end["breakdown"]["components"]} == {0}
    # the hands as they were laid down, not the next hand's
    assert end["reason_seat"] == 0 and end["hands"][0] == ["2H"] and len(end["hands"][1]) == 9
    # the undercutter scores in a match, the knocker nothing
    hand0 = KNOCKER[:-1] + ["9H"]
    u = deal(hand0, "AC AD AH 3C 3D 3H 4H 5H 6H 2C".split(), "2H", undercut_bonus=20,
             match_to=100)
    for action in ("draw upcard", "knock", "card 2H", "meld AS 2S 3S", "meld 4C 5C 6C",
                   "meld 7D 8D 9D", "pass", "pass", "meld AC AD AH", "meld 3C 3D 3H",
                   "meld 4H 5H 6H", "pass"):
        u.apply(action)
    assert u.state.scores() == [0, 27]
    assert u.state.hands_won() == [0, 1]
    # a hand with no score has no winner
    n = deal(KNOCKER, LOOSE, "2H", match_to=100)
    _repeat_hand(n)
    assert n.state.round_index == 1 and n.state.scores() == [0, 0]
    assert n.state.hands_won() == [0, 0]


def test_gr_11_3_game_box_and_shutout_bonuses():
    g = _knock_61(match_to=50)
    # 61, the game bonus 100, one box 25; seat 1 won no hand: all of it doubled
    assert g.is_over and g.state.scores() == [2 * (61 + 100 + 25), 0]
    assert g.returns() == [372.0, -372.0] and g.winners == [0]
    end = [e for e in g.events() if e["kind"] == "hand_end"][-1]
    rows = [(c["what"], c["rule"], c["points"], c.get("count"))
            for c in end["breakdown"]["components"]]
    assert rows[-3:] == [("game bonus", "GR-11.3", 100, None), ("box bonus", "GR-11.3", 25, 1),
                         ("shutout", "GR-11.3", 186, None)]
    # no shutout when the loser won a hand: seat 1 undercuts first, then seat 0 wins
    hand0 = KNOCKER[:-1] + ["9H"]
    m = deal(hand0, "AC AD AH 3C 3D 3H 4H 5H 6H 2C".split(), "2H", undercut_bonus=20,
             match_to=30)
    for action in ("draw upcard", "knock", "card 2H", "meld AS 2S 3S", "meld 4C 5C 6C",
                   "meld 7D 8D 9D", "pass", "pass", "meld AC AD AH", "meld 3C 3D 3H",
                   "meld 4H 5H 6H", "pass"):
        m.apply(action)
    assert m.state.scores() == [0, 27] and not m.is_over
    bot = make_bot("greedy", 3)
    while not m.is_over:
        m.apply(bot.choose_id(m))
    won = m.state.hands_won()
    totals = m.state.scores()
    winner = m.winners[0]
    loser = 1 - winner
    shut = won[loser] == 0
    assert won[1] >= 1 and not (shut and loser == 1)
    assert m.returns() == [float(totals[0] - totals[1]), float(totals[1] - totals[0])]
    assert totals[loser] == sum(r for r in _hand_points(m, loser)) + 25 * won[loser]


def _hand_points(game, seat):
    """The points seat scored in each hand ended (the hand_end breakdowns' hand rows)."""
    return [c["points"] for e in game.events() if e["kind"] == "hand_end"
            for c in e["breakdown"]["components"]
            if c["seat"] == seat and c["rule"] != "GR-11.3"]


def test_gr_11_4_the_winner_deals_the_next_hand_and_its_opponent_starts():
    g = _knock_61(match_to=100)
    assert g.state.dealer == 0 and g.current_player == 1        # seat 0 won: it deals
    deal_event = [e for e in g.events() if e["kind"] == "deal"][-1]
    assert deal_event["hand"] == 2 and deal_event["dealer"] == 0
    assert g.view(0)["hand_number"] == 2 and _piece(g, 0, "dealer") == [0]
    _repeat_hand(g)                                             # no score: the same dealer
    assert g.state.round_index == 2 and g.state.dealer == 0 and g.current_player == 1
    n = deal(KNOCKER, LOOSE, "2H", match_to=100)
    _repeat_hand(n)
    assert n.state.dealer == 1 and n.current_player == 0        # seat 1 dealt and deals again


def test_gr_11_5_a_match_ends_after_its_fiftieth_hand():
    g = _knock_61(match_to=1000)
    while not g.is_over:
        _repeat_hand(g)
    assert g.state.round_index == MAX_HANDS == 50 and not g.state.target_reached
    assert g.state.scores() == [2 * (61 + 100 + 25), 0]
    assert g.events()[-1]["reason_code"] == "hands" and g.events()[-1]["rule"] == "GR-11.5"
    assert len(g.action_log()) <= g.max_game_length
    # level totals: nobody scores the game bonus, nor a shutout
    n = deal(KNOCKER, LOOSE, "2H", match_to=100)
    while not n.is_over:
        _repeat_hand(n)
    assert n.state.scores() == [0, 0] and n.returns() == [0.0, 0.0] and n.winners == [0, 1]


def test_gr_11_6_the_view_and_the_tensor_show_the_match():
    g = _knock_61(match_to=100)
    for seat in (0, 1, None):
        v = g.view(seat)
        assert v["match_to"] == 100 and v["hand_number"] == 2
        assert v["scores"] == [61, 0] and v["hands_won"] == [1, 0]
    pieces = {name: (at, n) for name, at, n in g.observation_pieces}
    obs = g.observation_tensor(1)
    assert list(obs[pieces["scores"][0]:][:2]) == [61.0, 0.0]
    assert list(obs[pieces["hands_won"][0]:][:2]) == [1.0, 0.0]
    assert obs[pieces["hand_number"][0]] == 2.0
    assert new_game("gin_rummy").view(0)["match_to"] == 0
    lines = g.table_lines(0)
    assert any("Hand 2" in line and "61" in line for line in lines)
