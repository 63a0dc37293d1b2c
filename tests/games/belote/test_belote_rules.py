"""Belote Contrée: a test per rule ID of games/belote.md (stacked deals; scoring checked on
seeded random deals against the rulebook's arithmetic; colver's own figures are the
differential test's, test_belote_colver.py)."""
from __future__ import annotations

import random

import pytest

from cardcore import new_game
from cardcore.cards import card_id, card_str
from cardcore.errors import ConfigError, IllegalActionError
from cardcore.games.belote._state import belote_deck, card_points, deal_plan

from be_helpers import deal, legal, run, to_play

# Scenario A (dealer 3: seat 0 speaks and leads first); seat 3 holds trump K and Q of hearts.
A = {0: ["AS", "10S", "KS", "QS", "JS", "9S", "8S", "AD"],
     1: ["7S", "7H", "9H", "7C", "8C", "9C", "10C", "JC"],
     2: ["8H", "QC", "KC", "AC", "7D", "8D", "9D", "10D"],
     3: ["JH", "QH", "KH", "10H", "AH", "JD", "QD", "KD"]}
# Scenario B: seat 1 must trump with its lone trump; seat 2 cannot beat it.
B = {0: ["AC", "KC", "QC", "JC", "10C", "9C", "8C", "7C"],
     1: ["JH", "7S", "8S", "9S", "10S", "JS", "QS", "KS"],
     2: ["7H", "7D", "8D", "9D", "10D", "JD", "QD", "KD"],
     3: ["8H", "9H", "10H", "QH", "KH", "AH", "AS", "AD"]}
# Scenario C: seat 0 holds every heart: a capot with the belote.
C = {0: ["JH", "9H", "AH", "10H", "KH", "QH", "8H", "7H"]}


def random_deal(seed: int, pass_bias: float = 0.6, **options):
    """A seeded deal played at random (passing with probability ``pass_bias`` where allowed)."""
    rng = random.Random(seed)
    game = new_game("belote", players=4, seed=seed, **options)
    while not game.is_over:
        ids = [a.id for a in game.legal_actions()]
        game.apply(32 if 32 in ids and rng.random() < pass_bias else rng.choice(ids))
    return game


def find(pred, pass_bias: float = 0.6, **options):
    for seed in range(3000):
        game = random_deal(seed, pass_bias, **options)
        if pred(game._state):
            return game
    raise AssertionError("no such deal among the seeds")


def expected(s, surcontre: int, total: int = 162, kept: bool = False,
             flat: bool = False) -> list[int]:
    """BE-7: the teams' scores from the deal's points, tricks, belote and contract
    (``surcontre``: the surcontre's multiplier; ``total``: what a side taking all takes, BE-7.7;
    ``kept``: the belote stays with its side, BE-7.8; ``flat``: a bid capot scores 500 x the
    multiplier, BE-7.9)."""
    mult = (1, 2, surcontre)[s.contre]
    t = s.taker % 2
    d = 1 - t
    v = s.contract_value
    belote = [0, 0]
    holder = s.belote_seat
    if holder is not None:
        belote[holder % 2] = 20
    if v == 250:
        made = s.tricks_won()[t] == 8
    else:
        made = s.points()[t] + belote[t] >= v
    out = [0, 0]
    base = 252 if s.tricks_won()[t] == 8 else total
    winner = t if made else d
    if made and s.contre == 0 and not (flat and v == 250):
        out[t] = s.points()[t] + v + belote[t]
        out[d] = s.points()[d] + belote[d]
        return out
    if flat and v == 250:
        out[winner] = 500 * mult
        if made and s.contre == 0:
            return [out[k] + belote[k] for k in range(2)]
    elif made:
        out[t] = base + v * mult
    else:
        out[d] = total + v * mult
    if kept:
        return [out[k] + belote[k] for k in range(2)]
    out[winner] += sum(belote)
    return out


# ---------------------------------------------------------------- BE-1
def test_be_1_1_four_players_in_two_partnerships():
    for players in (2, 3, 5):
        with pytest.raises(ConfigError):
            new_game("belote", players=players)
    game = random_deal(1)
    assert game.sides_of(4, game.options) == [0, 1, 0, 1]
    scores = game.scores
    assert scores[0] == scores[2] and scores[1] == scores[3]


def test_be_1_2_thirty_two_cards():
    deck = [card_str(c) for c in belote_deck()]
    assert len(deck) == 32 and len(set(deck)) == 32
    assert {c[:-1] for c in deck} == {"7", "8", "9", "10", "J", "Q", "K", "A"}
    assert sorted(card_id(c) for c in deck) == belote_deck()


# ---------------------------------------------------------------- BE-2
def test_be_2_1_the_dealer_by_option_or_by_lot():
    assert all(new_game("belote", dealer=d, seed=5).view(0)["dealer"] == d for d in range(4))
    assert {new_game("belote", seed=s).view(0)["dealer"] for s in range(40)} == {0, 1, 2, 3}
    with pytest.raises(ConfigError):
        new_game("belote", dealer=4)


def test_be_2_2_packets_of_three_two_three_from_the_dealers_next_seat():
    plan = deal_plan(1)
    assert plan[:12] == ["hand:2"] * 3 + ["hand:3"] * 3 + ["hand:0"] * 3 + ["hand:1"] * 3
    assert plan[12:20] == ["hand:2"] * 2 + ["hand:3"] * 2 + ["hand:0"] * 2 + ["hand:1"] * 2
    assert plan[20:] == ["hand:2"] * 3 + ["hand:3"] * 3 + ["hand:0"] * 3 + ["hand:1"] * 3
    deck = [card_str(c) for c in belote_deck()]
    game = new_game("belote", deck=deck, dealer=1)
    assert [card_str(c) for c in game._state.hand(2)] == sorted(
        deck[0:3] + deck[12:14] + deck[20:23], key=card_id)
    assert all(len(game._state.hand(p)) == 8 for p in range(4))


def test_be_2_3_a_match_is_one_deal():
    game = random_deal(2)
    s = game._state
    assert game.is_over and s.round_index == 1
    teams = s.team_scores()
    winners = set(game.winners if not callable(game.winners) else game.winners())
    if teams[0] != teams[1]:
        best = 0 if teams[0] > teams[1] else 1
        assert winners == {best, best + 2}
    events = game.events(0)
    assert events[-1]["kind"] == "match_end" and events[-1]["rule"] == "BE-2.3"


# ---------------------------------------------------------------- BE-3
def test_be_3_1_the_seat_after_the_dealer_speaks_first():
    for dealer in range(4):
        game = new_game("belote", dealer=dealer, seed=1)
        assert game.current_player == (dealer + 1) % 4
        game.apply("pass")
        assert game.current_player == (dealer + 2) % 4
    game = deal(A, dealer=3)
    before = game.to_json()
    with pytest.raises(IllegalActionError) as e:
        game.apply("play AS")
    assert "BE-3.1" in str(e.value) and game.to_json() == before


def test_be_3_2_pass_always_and_bid_again_after_passing():
    game = deal(A, dealer=3)
    run(game, "pass", "bid 80S", "pass", "pass")
    assert game.current_player == 0 and "bid 90H" in legal(game) and "pass" in legal(game)


def test_be_3_3_bids_rise_strictly_in_value_any_suit():
    game = deal(A, dealer=3)
    assert legal(game)[:3] == ["pass", "bid 80S", "bid 80H"]
    run(game, "bid 100H")
    assert "bid 100S" not in legal(game) and "bid 110S" in legal(game)
    before = game.to_json()
    with pytest.raises(IllegalActionError) as e:
        game.apply("bid 90C")
    assert "BE-3.3" in str(e.value) and "100" in str(e.value) and game.to_json() == before
    run(game, "pass", "bid 110C")                       # over the partner
    run(game, "pass", "bid 120D")                        # seat 0 over its partner's bid
    assert game._state.taker == 0 and game._state.contract_suit == "D"


def test_be_3_4_capot_outbids_every_value():
    game = deal(A, dealer=3)
    run(game, "bid 160S")
    assert "capot H" in legal(game)
    run(game, "capot H")
    assert legal(game) == ["pass", "contre"]
    run(game, "pass")
    assert legal(game) == ["pass"]                       # the partner of the capot's bidder
    with pytest.raises(IllegalActionError) as e:
        game.apply("bid 160C")
    assert "BE-3" in str(e.value)


def test_be_3_5_contre_by_an_opponent_once():
    game = deal(A, dealer=3)
    assert "contre" not in legal(game)                   # nothing to contre
    run(game, "bid 80S")
    assert "contre" in legal(game)
    run(game, "pass")
    assert "contre" not in legal(game)                   # the bidder's partner
    with pytest.raises(IllegalActionError) as e:
        game.apply("contre")
    assert "BE-3.5" in str(e.value)
    run(game, "pass", "contre")                           # seat 3
    assert legal(game) == ["pass", "surcontre"]          # seat 0, the taker
    run(game, "pass")
    assert legal(game) == ["pass"]                       # seat 1, a defender
    run(game, "pass")
    assert legal(game) == ["pass", "surcontre"]


def test_be_3_6_surcontre_ends_the_auction():
    game = deal(A, dealer=3)
    run(game, "bid 80S", "pass", "pass", "contre", "surcontre")
    s = game._state
    assert s.contre == 2 and s.multiplier == 3 and s.trump == "S"
    assert game.current_player == 0 and legal(game)[0].startswith("play")
    events = [e for e in game.events(None) if e["kind"] == "auction_end"]
    assert events and events[0]["rule"] == "BE-3.6" and events[0]["multiplier"] == 3


def test_be_3_7_three_passes_after_a_bid_end_the_auction():
    game = deal(A, dealer=3)
    run(game, "bid 80S", "bid 90H", "pass", "pass")
    assert game._state.trump is None
    run(game, "pass")
    s = game._state
    assert (s.contract_value, s.contract_suit, s.taker, s.contre) == (90, "H", 1, 0)
    run2 = deal(A, dealer=3)
    run(run2, "bid 80S", "contre", "pass", "pass")
    assert run2._state.trump is None
    run(run2, "pass")
    assert run2._state.trump == "S" and run2._state.contre == 1


def test_be_3_8_four_passes_pass_the_deal_out():
    game = deal(A, dealer=3)
    run(game, "pass", "pass", "pass", "pass")
    assert game.is_over and game.returns() == [0.0, 0.0, 0.0, 0.0]
    end = [e for e in game.events(None) if e["kind"] == "deal_end"][0]
    assert end["reason_code"] == "passed_out" and end["rule"] == "BE-3.8"


def test_be_3_9_the_contract_suit_is_trumps():
    game = deal(A, dealer=3)
    to_play(game, "bid 80C")
    assert game._state.trump == "C" and game.view(0)["phase"] == "play"


# ---------------------------------------------------------------- BE-4
def test_be_4_1_plain_order_and_points():
    assert [card_points(card_id(c + "S"), "H") for c in
            ("A", "10", "K", "Q", "J", "9", "8", "7")] == [11, 10, 4, 3, 2, 0, 0, 0]
    game = deal(A, dealer=3)
    to_play(game, "bid 80H")
    run(game, "play AS", "play 7S", "play 7D")
    assert game._state.trick_master == 0              # AS over 7S; 7D is off suit


def test_be_4_2_trump_order_and_points():
    assert [card_points(card_id(c + "H"), "H") for c in
            ("J", "9", "A", "10", "K", "Q", "8", "7")] == [20, 14, 11, 10, 4, 3, 0, 0]
    assert sum(card_points(c, "H") for c in belote_deck()) == 152
    game = deal(A, dealer=3)
    to_play(game, "bid 80H")
    run(game, "play AS", "play 7S", "play 7D", "play KH", "play QH", "play AD", "play 9H")
    assert game._state.trick_master == 1              # 9H above QH


# ---------------------------------------------------------------- BE-5
def test_be_5_1_the_seat_after_the_dealer_leads_then_the_winner():
    game = deal(A, dealer=3)
    to_play(game, "bid 80H", "bid 90H", "pass", "pass", "pass")
    assert game.current_player == 0
    run(game, "play AS", "play 7S", "play 7D", "play KH")
    assert game.current_player == 3                    # seat 3 trumped: it leads


def test_be_5_2_follow_suit_and_climb_on_trumps():
    game = deal(A, dealer=3)
    to_play(game, "bid 80H")
    run(game, "play AS")
    assert legal(game) == ["play 7S"]
    before = game.to_json()
    with pytest.raises(IllegalActionError) as e:
        game.apply("play 7C")
    assert "BE-5.2" in str(e.value) and game.to_json() == before
    run(game, "play 7S", "play 7D", "play KH", "play QH", "play AD")
    assert legal(game) == ["play 9H"]                  # must beat QH
    run(game, "play 9H")
    assert legal(game) == ["play 8H"]                  # cannot beat 9H: any heart


def test_be_5_3_partner_holds_the_trick_any_card():
    game = deal(A, dealer=3)
    to_play(game, "bid 80H")
    run(game, "play AS", "play 7S")
    assert len(legal(game)) == 8                       # seat 2: no spade, seat 0 holds it


def test_be_5_4_trump_and_overtrump_or_else_free():
    game = deal(A, dealer=3)
    to_play(game, "bid 80H")
    run(game, "play AS", "play 7S", "play 7D")
    assert legal(game) == ["play JH", "play QH", "play KH", "play 10H", "play AH"]
    before = game.to_json()
    with pytest.raises(IllegalActionError) as e:
        game.apply("play JD")
    assert "BE-5.4" in str(e.value) and game.to_json() == before
    game = deal(B, dealer=3)
    to_play(game, "bid 80H")
    run(game, "play AC")
    assert legal(game) == ["play JH"]                  # seat 1: its only trump
    run(game, "play JH")
    assert len(legal(game)) == 8                       # seat 2: cannot beat JH: 7H or a discard


def test_be_5_5_the_highest_trump_or_of_the_suit_led_wins():
    game = deal(A, dealer=3)
    to_play(game, "bid 80H")
    run(game, "play AS", "play 7S", "play 7D", "play KH")
    s = game._state
    assert s.last_winner == 3 and s.tricks_won() == [0, 1]
    won = [e for e in game.events(None) if e["kind"] == "trick_won"]
    assert won[-1]["rule"] == "BE-5.5" and won[-1]["player"] == 3


def test_be_5_6_undertrump_required():
    game = deal(B, dealer=3, undertrump="required")
    to_play(game, "bid 80H")
    run(game, "play AC", "play JH")
    assert legal(game) == ["play 7H"]                  # seat 2 must undertrump JH
    before = game.to_json()
    with pytest.raises(IllegalActionError) as e:
        game.apply("play 7D")
    assert "BE-5.6" in str(e.value) and game.to_json() == before
    free = deal(B, dealer=3)
    to_play(free, "bid 80H")
    run(free, "play AC", "play JH")
    assert len(legal(free)) == 8


# ---------------------------------------------------------------- BE-6
def test_be_6_1_a_tricks_points_go_to_its_winners():
    game = deal(A, dealer=3)
    to_play(game, "bid 80H")
    run(game, "play AS", "play 7S", "play 7D", "play KH")
    assert game._state.points() == [0, 11 + 4]
    assert game.view(1)["points"] == [0, 15]


def test_be_6_2_dix_de_der_makes_162():
    game = find(lambda s: s.trump is not None and max(s.tricks_won()) < 8)
    assert sum(game._state.points()) == 162


def test_be_6_3_a_capot_is_worth_252():
    game = deal(C, dealer=3)
    to_play(game, "capot H")
    rng = random.Random(0)
    while not game.is_over:
        ids = [a.id for a in game.legal_actions()]
        game.apply(ids[-1] if game.current_player == 0 else rng.choice(ids))
    s = game._state
    assert s.tricks_won() == [8, 0] and s.points() == [252, 0]
    assert game._state.team_scores() == [252 + 250 + 20, 0]


def test_be_6_4_belote_rebelote_is_twenty_to_the_holders_side():
    game = deal(A, dealer=3)
    to_play(game, "bid 80H")
    run(game, "play AS", "play 7S", "play 7D", "play KH")
    said = [e for e in game.events(None) if e["kind"] == "belote"]
    assert [e["stage"] for e in said] == ["belote"] and said[0]["player"] == 3
    assert game.view(0)["belote_seat"] == 3
    run(game, "play QH")
    said = [e for e in game.events(None) if e["kind"] == "belote"]
    assert [e["stage"] for e in said] == ["belote", "rebelote"]
    assert "Rebelote" in said[1]["text"]
    game = find(lambda s: s.belote_seat is not None and s.made and s.contre == 0
                and s.belote_seat % 2 != s.taker % 2)
    s = game._state
    d = 1 - s.taker % 2
    assert s.team_scores()[d] == s.points()[d] + 20


# ---------------------------------------------------------------- BE-7
def test_be_7_1_made_takers_points_plus_contract():
    game = find(lambda s: s.made and s.contre == 0 and s.contract_value < 250)
    s = game._state
    t = s.taker % 2
    assert s.team_scores() == expected(s, 3)
    assert s.team_scores()[t] >= s.contract_value + s.contract_value
    end = [e for e in game.events(None) if e["kind"] == "deal_end"][0]
    assert end["reason_code"] == "made" and end["rule"] == "BE-7.1"
    assert end["breakdown"]["totals"] == s.team_scores()


def test_be_7_2_a_fall_gives_the_defence_162_and_the_contract():
    game = find(lambda s: s.made is False and s.contre == 0 and s.contract_value < 250)
    s = game._state
    d = 1 - s.taker % 2
    belote = 20 if s.belote_seat is not None else 0
    assert s.team_scores()[d] == 162 + s.contract_value + belote
    assert s.team_scores()[1 - d] == 0 and s.team_scores() == expected(s, 3)
    end = [e for e in game.events(None) if e["kind"] == "deal_end"][0]
    assert end["reason_code"] == "fell" and end["rule"] == "BE-7.2"


def test_be_7_3_a_capot_contract_needs_every_trick():
    game = find(lambda s: s.contract_value == 250 and s.contre == 0, pass_bias=0.3)
    s = game._state
    assert s.made == (s.tricks_won()[s.taker % 2] == 8)
    assert s.team_scores() == expected(s, 3)
    game = deal(C, dealer=3)
    to_play(game, "capot H")
    game.apply("play JH")
    for _ in range(3):
        game.apply(game.legal_actions()[0].id)
    assert game._state.tricks_won() == [1, 0]


def test_be_7_4_a_made_contre_takes_the_whole_deal():
    game = find(lambda s: s.made and s.contre == 1, pass_bias=0.2)
    s = game._state
    t = s.taker % 2
    assert s.team_scores()[1 - t] == 0 and s.team_scores() == expected(s, 3)
    base = 252 if s.tricks_won()[t] == 8 else 162
    belote = 20 if s.belote_seat is not None else 0
    assert s.team_scores()[t] == base + 2 * s.contract_value + belote


def test_be_7_5_contre_doubles_surcontre_triples_or_quadruples():
    game = find(lambda s: s.contre == 2, pass_bias=0.2)
    seed = game.seed
    s3 = game._state
    s4 = random_deal(seed, 0.2, surcontre="x4")._state
    assert s3.multiplier == 3 and s4.multiplier == 4
    assert s3.points() == s4.points()
    winner = 0 if s3.team_scores()[0] else 1
    assert s4.team_scores()[winner] - s3.team_scores()[winner] == s3.contract_value
    assert s3.team_scores() == expected(s3, 3) and s4.team_scores() == expected(s4, 4)
    with pytest.raises(ConfigError) as e:
        new_game("belote", surcontre="x5")
    assert "BE-7.5" in str(e.value)


def test_be_7_6_scores_are_exact_or_rounded_to_the_nearest_ten():
    game = find(lambda s: s.made and s.contre == 0 and s.team_scores()[s.taker % 2] % 10)
    s = game._state
    assert s.team_scores()[s.taker % 2] % 10 != 0 and s.team_scores() == expected(s, 3)
    rounded = random_deal(game.seed, 0.6, rounding="nearest_ten")
    r = rounded._state
    assert r.points() == s.points()                     # the same deal, played alike
    assert r.team_scores() == [(x + 5) // 10 * 10 for x in s.team_scores()]
    end = [e for e in rounded.events(None) if e["kind"] == "deal_end"][0]
    assert end["breakdown"]["totals"] == r.team_scores()
    assert any(c["rule"] == "BE-7.6" for c in end["breakdown"]["components"])
    # the contract is judged before rounding: takers whose points round up to the contract
    # (e.g. 75 for 80) still fall
    def short_by_rounding(s):
        if s.made is not False:
            return False
        own = 20 if s.belote_seat is not None and s.belote_seat % 2 == s.taker % 2 else 0
        made = s.points()[s.taker % 2] + own
        return (s.made is False and s.contract_value < 250
                and (made + 5) // 10 * 10 >= s.contract_value)
    fell = find(short_by_rounding, rounding="nearest_ten")
    assert fell._state.team_scores()[fell._state.taker % 2] == 0
    # rounding="nearest_ten_6_up": a 5 goes down, a 6 up (85 -> 80, 86 -> 90)
    five = find(lambda s: any(x % 10 == 5 for x in s.team_scores()))
    six = find(lambda s: any(x % 10 == 6 for x in s.team_scores()))
    for game, last, step in ((five, 5, -5), (six, 6, 4)):
        other = random_deal(game.seed, 0.6, rounding="nearest_ten_6_up")._state
        assert other.points() == game._state.points()
        assert other.team_scores() == [x + step if x % 10 == last else (x + 4) // 10 * 10
                                       for x in game._state.team_scores()]


def test_be_7_7_a_fall_or_a_made_contre_takes_160_or_162():
    fall = find(lambda s: s.made is False and s.contract_value < 250)
    made_contre = find(lambda s: s.made and s.contre and s.tricks_won()[s.taker % 2] < 8,
                       pass_bias=0.2)
    for game, bias in ((fall, 0.6), (made_contre, 0.2)):
        s = game._state
        other = random_deal(game.seed, bias, fall="160+contract")
        o = other._state
        assert o.points() == s.points()                 # the same deal, played alike
        winner = 0 if s.team_scores()[0] else 1
        assert o.team_scores()[winner] == s.team_scores()[winner] - 2
        assert o.team_scores() == expected(o, 3, total=160)
        end = [e for e in other.events(None) if e["kind"] == "deal_end"][0]
        assert {"seat": winner, "rule": "BE-7.7", "points": 160}.items() <= next(
            c for c in end["breakdown"]["components"] if c["rule"] == "BE-7.7").items()
    made = find(lambda s: s.made and s.contre == 0)
    assert (random_deal(made.seed, 0.6, fall="160+contract")._state.team_scores()
            == made._state.team_scores())
    with pytest.raises(ConfigError) as e:
        new_game("belote", fall="161")
    assert "BE-7.7" in str(e.value)


def test_be_7_8_the_belote_goes_with_the_fall_or_stays_with_its_side():
    def takers_belote_fell(s):
        return (s.made is False and s.belote_seat is not None
                and s.belote_seat % 2 == s.taker % 2)
    game = find(takers_belote_fell)
    s = game._state
    t = s.taker % 2
    assert s.team_scores()[t] == 0                      # colver: taken by the defence
    kept = random_deal(game.seed, 0.6, belote="kept")
    k = kept._state
    assert k.team_scores()[t] == 20 and k.team_scores()[1 - t] == s.team_scores()[1 - t] - 20
    assert k.team_scores() == expected(k, 3, kept=True)
    end = [e for e in kept.events(None) if e["kind"] == "deal_end"][0]
    assert any(c["rule"] == "BE-7.8" and c["seat"] == t and c["points"] == 20
               for c in end["breakdown"]["components"])
    with pytest.raises(ConfigError) as e:
        new_game("belote", belote="lost")
    assert "BE-7.8" in str(e.value)


def test_be_7_9_a_bid_capot_is_a_contract_or_a_flat_500():
    game = deal(C, dealer=3, capot="flat")
    to_play(game, "capot H")
    while not game.is_over:
        game.apply(game.legal_actions()[0].id)
    s = game._state
    assert s.made and s.tricks_won() == [8, 0]
    assert s.team_scores() == [500 + 20, 0]             # colver's contract: 252 + 250 + 20
    end = [e for e in game.events(None) if e["kind"] == "deal_end"][0]
    assert any(c["rule"] == "BE-7.9" and c["points"] == 500
               for c in end["breakdown"]["components"])
    fell = find(lambda s: s.contract_value == 250 and s.made is False, pass_bias=0.3,
                capot="flat")
    f = fell._state
    mult = (1, 2, 3)[f.contre]
    assert f.team_scores()[1 - f.taker % 2] == 500 * mult + (20 if f.belote_seat is not None else 0)
    with pytest.raises(ConfigError) as e:
        new_game("belote", capot="bonus")
    assert "BE-7.9" in str(e.value)


@pytest.mark.parametrize("options", [
    {}, {"fall": "160+contract"}, {"belote": "kept"}, {"capot": "flat", "surcontre": "x4"},
    {"fall": "160+contract", "belote": "kept", "capot": "flat", "rounding": "nearest_ten"},
    {"belote": "kept", "rounding": "nearest_ten_6_up"},
], ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "defaults")
def test_be_7_every_deal_scores_as_the_rulebook_says(options):
    """BE-7.1 to BE-7.9 over random deals with every contract, contre and capot: the engine's
    scores equal the rulebook's arithmetic (``expected``), rounded as BE-7.6 says."""
    surcontre = 4 if options.get("surcontre") == "x4" else 3
    seen = set()
    for seed in range(400):
        s = random_deal(seed, 0.15 + 0.5 * (seed % 3) / 2, **options)._state
        if s.taker is None:
            continue
        want = expected(s, surcontre, total=160 if options.get("fall") else 162,
                        kept=options.get("belote") == "kept", flat=options.get("capot") == "flat")
        if options.get("rounding"):
            up = 5 if options["rounding"] == "nearest_ten" else 4
            want = [(x + up) // 10 * 10 for x in want]
        assert s.team_scores() == want, seed
        seen.add((bool(s.made), s.contre, s.contract_value == 250))
    assert {(True, 0, False), (False, 0, False), (True, 1, False), (False, 1, False),
            (False, 0, True)} <= seen


# ---------------------------------------------------------------- BE-10
def play_match(seed: int, pass_bias: float = 0.6, plain: bool = False, **options):
    """A seeded match played at random (``plain``: no capot, contre or surcontre, so that
    both sides score in most deals)."""
    rng = random.Random(seed)
    game = new_game("belote", players=4, seed=seed, **options)
    while not game.is_over:
        ids = game.legal_action_ids()
        if plain:
            ids = [a for a in ids if not 69 <= a <= 74] or ids
        game.apply(32 if 32 in ids and rng.random() < pass_bias else rng.choice(ids))
    return game


def ends_match(totals: list[int], target: int, exceed: bool) -> bool:
    """BE-10.1 to BE-10.3, from the rulebook: a side over the target with more than the other."""
    over = [x > target if exceed else x >= target for x in totals]
    return any(over) and totals[0] != totals[1]


def test_be_10_1_deals_until_a_side_reaches_match_to():
    for seed in range(40):
        target = (500, 1000, 2000)[seed % 3]
        game = play_match(seed, match_to=target)
        ends = [e for e in game.events(None) if e["kind"] == "deal_end"]
        totals = [0, 0]
        for k, end in enumerate(ends):
            totals = [totals[i] + end["breakdown"]["totals"][i] for i in range(2)]
            assert end["deal"] == k + 1 and end["scores"] == totals + totals   # seats 0-3
            assert ends_match(totals, target, False) == (k == len(ends) - 1)
        assert game.scores == totals + totals and list(game.returns()) == totals + totals
        winner = 0 if totals[0] > totals[1] else 1
        assert totals[winner] >= target and game.winners == [winner, winner + 2]
        last = [e for e in game.events(None) if e["kind"] == "match_end"][0]
        assert last["reason_code"] == "match_to" and last["rule"] == "BE-10.1"
        assert game.view(0)["match_to"] == target
        assert game.view(0)["deal_number"] == len(ends)
    one = play_match(0)
    assert one.view(0)["match_to"] == 0 and one.view(0)["deal_number"] == 1
    for bad in (-1, 5001, "2000"):
        with pytest.raises(ConfigError) as e:
            new_game("belote", match_to=bad)
        assert "BE-10.1" in str(e.value)


def test_be_10_2_a_total_reaches_the_target_or_must_exceed_it():
    one = random_deal(5, 0.6)                # the first deal of every match below
    best = max(one._state.team_scores())
    assert best > 0
    reach = random_deal(5, 0.6, match_to=best)
    assert reach._state.deal_number == 1 and reach.is_over
    exceed = new_game("belote", players=4, seed=5, match_to=best, match_end="exceed")
    rng = random.Random(5)
    while exceed._state.deal_number == 1:
        ids = [a.id for a in exceed.legal_actions()]
        exceed.apply(32 if 32 in ids and rng.random() < 0.6 else rng.choice(ids))
    assert not exceed.is_over and exceed.scores[:2] == one._state.team_scores()
    with pytest.raises(ConfigError) as e:
        new_game("belote", match_end="pass")
    assert "BE-10.2" in str(e.value)


def test_be_10_3_equal_totals_over_the_target_play_another_deal():
    ties = 0
    for seed in range(3300, 3460):
        target = 300 + (seed * 37) % 1500
        game = play_match(seed, 0.7, plain=True, match_to=target, rounding="nearest_ten")
        ends = [e for e in game.events(None) if e["kind"] == "deal_end"]
        for k, end in enumerate(ends):
            totals = end["scores"][:2]
            assert ends_match(totals, target, False) == (k == len(ends) - 1), seed
            if totals[0] == totals[1] >= target:
                ties += 1
                assert k < len(ends) - 1               # played on ...
                nxt = ends[k + 1]["scores"][:2]
                assert nxt[0] != nxt[1]                 # ... and the next deal broke the tie
    assert ties >= 1


def test_be_10_4_the_next_seat_deals_and_a_stacked_deck_deals_once():
    game = play_match(7, match_to=1500, dealer=2)
    dealers = [e["dealer"] for e in game.events(None) if e["kind"] == "deal"]
    assert len(dealers) > 2 and dealers == [(2 + k) % 4 for k in range(len(dealers))]
    first = deal(A, dealer=3, match_to=1000)
    assert first._state.hand(3) == sorted(card_id(c) for c in A[3])
    while first._state.deal_number == 1:
        first.apply(first.legal_actions()[0].id)
    assert first._state.dealer == 0 and not first.is_over


def test_be_10_5_a_match_ends_after_its_two_hundredth_deal():
    game = new_game("belote", players=4, seed=1, match_to=1000)
    while not game.is_over:
        game.apply("pass")                             # every deal passed out (BE-3.8)
    assert game._state.deal_number == 200 and game.scores == [0, 0, 0, 0]
    assert game.winners == [0, 1, 2, 3]
    last = [e for e in game.events(None) if e["kind"] == "match_end"][0]
    assert last["reason_code"] == "deals" and last["rule"] == "BE-10.5"
    assert type(game).max_game_length_of(4, game.options) == 69 * 200


# ---------------------------------------------------------------- BE-8
def test_be_8_1_a_seat_sees_its_own_hand_only():
    game = deal(A, dealer=3)
    v = game.view(1)
    assert v["hand"] == ["7S", "7H", "9H", "7C", "8C", "9C", "10C", "JC"] or sorted(
        v["hand"], key=card_id) == sorted(A[1], key=card_id)
    assert "JH" not in str(v) and v["hand_sizes"] == [8, 8, 8, 8]


def test_be_8_2_the_auction_the_trick_and_the_tricks_are_public():
    game = deal(A, dealer=3)
    to_play(game, "bid 80H", "contre", "pass", "pass", "pass")
    run(game, "play AS", "play 7S", "play 7D", "play KH", "play QH")
    for seat in range(4):
        v = game.view(seat)
        assert [c["call"] for c in v["auction"]] == ["bid 80H", "contre", "pass", "pass", "pass"]
        assert v["contract"] == {"value": 80, "suit": "H", "taker": 0, "contre": 1,
                                 "multiplier": 2}
        assert v["trick"] == ["QH"] and v["trick_leader"] == 3 and v["trick_master"] == 3
        assert v["last_trick"] == ["AS", "7S", "7D", "KH"] and v["last_winner"] == 3
        assert v["points"] == [0, 15] and v["tricks_won"] == [0, 1] and v["belote_seat"] == 3
