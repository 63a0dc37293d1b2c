"""Belote Contrée: the no-trump and all-trump contracts of ``contracts="all"`` (games/belote.md,
BE-9): a test per rule ID, stacked deals for the exact scenarios."""
from __future__ import annotations

import random

import pytest

from cardcore import new_game
from cardcore.bots import make_bot
from cardcore.cards import card_id
from cardcore.errors import ConfigError, IllegalActionError
from cardcore.games.belote._state import belote_deck, card_points

from be_helpers import deal, legal, run, to_play

# Scenario A of test_belote_rules.py (dealer 3: seat 0 speaks and leads first).
A = {0: ["AS", "10S", "KS", "QS", "JS", "9S", "8S", "AD"],
     1: ["7S", "7H", "9H", "7C", "8C", "9C", "10C", "JC"],
     2: ["8H", "QC", "KC", "AC", "7D", "8D", "9D", "10D"],
     3: ["JH", "QH", "KH", "10H", "AH", "JD", "QD", "KD"]}
# Scenario N: seat 0 holds the four aces and the four tens.
N = {0: ["AS", "10S", "AH", "10H", "AD", "10D", "AC", "10C"]}


def random_deal(seed: int, **options):
    """A seeded deal played at random, passing half the time where allowed."""
    rng = random.Random(seed)
    game = new_game("belote", players=4, seed=seed, contracts="all", **options)
    while not game.is_over:
        ids = [a.id for a in game.legal_actions()]
        game.apply(32 if 32 in ids and rng.random() < 0.5 else rng.choice(ids))
    return game


def ntat_deals(kind: str, count: int = 40, **options):
    """``count`` random deals whose contract is no-trump ("NT") or all-trump ("AT")."""
    out = []
    for seed in range(5000):
        game = random_deal(seed, **options)
        if game._state.contract_suit == kind:
            out.append(game)
            if len(out) == count:
                return out
    raise AssertionError("not enough such deals among the seeds")


# ---------------------------------------------------------------- BE-9.1
def test_be_9_1_the_option_and_its_bids():
    assert new_game("belote").options["contracts"] == "suits"
    with pytest.raises(ConfigError) as e:
        new_game("belote", contracts="sans-atout" * 20)
    assert "contracts" in str(e.value) and "sans-atout" * 7 not in str(e.value)
    game = deal(A, dealer=3)                                   # default: suit bids only
    assert not any(m.endswith(("NT", "AT")) for m in legal(game))
    assert len(game.legal_action_mask()) == game.num_distinct_actions == 75
    with pytest.raises(IllegalActionError):
        game.apply("bid 80NT")
    with pytest.raises(IllegalActionError) as e:
        game.apply(75)
    assert "BE-9.1" in str(e.value)
    game = deal(A, dealer=3, contracts="all")
    moves = legal(game)
    assert len(game.legal_action_mask()) == game.num_distinct_actions == 95
    assert "bid 80NT" in moves and "bid 160AT" in moves and "capot NT" in moves
    assert "capot AT" in moves and len(moves) == 1 + 36 + 4 + 18 + 2


def test_be_9_1_the_ladder_is_by_value_only():
    game = deal(A, dealer=3, contracts="all")
    run(game, "bid 100H")
    assert "bid 100NT" not in legal(game) and "bid 110NT" in legal(game)
    with pytest.raises(IllegalActionError) as e:
        game.apply("bid 100AT")
    assert "BE-3.3" in str(e.value) and "100" in str(e.value)
    run(game, "bid 110NT")
    assert game._state.contract_suit == "NT" and game._state.contract_value == 110
    assert "bid 110S" not in legal(game) and "bid 120S" in legal(game)
    run(game, "bid 120AT", "bid 160S")
    assert "capot NT" in legal(game) and "capot AT" in legal(game)
    run(game, "capot AT")
    assert legal(game) == ["pass", "contre"]
    run(game, "contre", "surcontre")                           # the auction ends
    s = game._state
    assert (s.contract_value, s.contract_suit, s.contre, s.trump) == (250, "AT", 2, "AT")


# ---------------------------------------------------------------- BE-9.2, BE-9.3
def test_be_9_2_no_trump_card_points():
    values = {"A": 19, "10": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
    for rank, v in values.items():
        for suit in "SHDC":
            assert card_points(card_id(rank + suit), "NT") == v
    assert sum(card_points(c, "NT") for c in belote_deck()) == 152
    for game in ntat_deals("NT", 20):
        s = game._state
        assert sum(s.points()) == (252 if 8 in s.tricks_won() else 162)


def test_be_9_3_all_trump_card_points():
    values = {"J": 14, "9": 9, "A": 6, "10": 5, "K": 3, "Q": 1, "8": 0, "7": 0}
    for rank, v in values.items():
        for suit in "SHDC":
            assert card_points(card_id(rank + suit), "AT") == v
    assert sum(card_points(c, "AT") for c in belote_deck()) == 152
    for game in ntat_deals("AT", 20):
        s = game._state
        assert sum(s.points()) == (252 if 8 in s.tricks_won() else 162)


# ---------------------------------------------------------------- BE-9.4
def test_be_9_4_no_trump_follow_suit_only():
    game = deal(A, dealer=3, contracts="all")
    to_play(game, "bid 80NT")
    assert game._state.trump == "NT"
    run(game, "play AD")
    assert len(legal(game)) == 8                               # seat 1: no diamond, no trumping
    run(game, "play 7H")
    assert legal(game) == ["play 7D", "play 8D", "play 9D", "play 10D"]   # no climbing
    before = game.to_json()
    with pytest.raises(IllegalActionError) as e:
        game.apply("play QC")
    assert "BE-9.4" in str(e.value) and game.to_json() == before
    run(game, "play 9D", "play JD")
    s = game._state
    assert s.last_winner == 0                                  # AD: the highest of the suit led
    assert s.points() == [19 + 0 + 0 + 2, 0]


# ---------------------------------------------------------------- BE-9.5
def test_be_9_5_all_trump_follow_and_overtake_in_the_suit_led():
    game = deal(A, dealer=3, contracts="all")
    to_play(game, "bid 80AT")
    assert game._state.trump == "AT"
    run(game, "play AD")
    assert len(legal(game)) == 8                               # seat 1: no diamond, no trumping
    run(game, "play 7C")
    assert legal(game) == ["play 9D"]                          # 9 beats the ace; 10 does not
    before = game.to_json()
    with pytest.raises(IllegalActionError) as e:
        game.apply("play 10D")
    assert "BE-9.5" in str(e.value) and "10D" in str(e.value) and game.to_json() == before
    with pytest.raises(IllegalActionError) as e:
        game.apply("play QC")
    assert "BE-9.5" in str(e.value) and game.to_json() == before
    run(game, "play 9D")
    assert legal(game) == ["play JD"]                          # only the jack beats the nine
    run(game, "play JD")
    s = game._state
    assert s.last_winner == 3 and s.points() == [0, 6 + 0 + 9 + 14]
    game = deal(A, dealer=3, contracts="all")
    to_play(game, "bid 80AT")
    run(game, "play 8S")
    assert legal(game) == ["play 7S"]                          # cannot beat: any card of the suit


# ---------------------------------------------------------------- BE-9.6
def test_be_9_6_no_belote_in_no_trump_or_all_trump():
    for contract in ("bid 80NT", "bid 80AT"):
        game = deal(A, dealer=3, contracts="all")             # seat 3: K and Q of every suit but C
        to_play(game, contract)
        rng = random.Random(1)
        while not game.is_over:
            game.apply(rng.choice(game.legal_action_ids()))
        s = game._state
        assert s.belote_seat is None and s.belote_said == 0
        ends = [e for e in game.events() if e.get("kind") == "deal_end"]
        assert "belote" not in str(ends)


# ---------------------------------------------------------------- BE-9.7
def test_be_9_7_observation_encodes_no_trump_and_all_trump():
    sizes = {len(new_game("belote", seed=1).observation_tensor(0))}
    for contract, expect in (("bid 90NT", [0, 0, 0, 0]), ("bid 90AT", [1, 1, 1, 1]),
                             ("bid 90D", [0, 0, 1, 0])):
        game = deal(A, dealer=3, contracts="all")
        to_play(game, contract)
        obs = game.observation_tensor(0)
        sizes.add(len(obs))
        piece = {name: (o, n) for name, o, n in game.observation_pieces}
        o, n = piece["contract_suit"]
        assert list(obs[o:o + n]) == expect
        o, n = piece["bids"]
        assert list(obs[o:o + 10]) == [0, 1, 0, 0, 0, 0, 0, 0, 0, 0]   # seat 0 bid 90
    assert sizes == {269}


# ---------------------------------------------------------------- BE-9.8
def test_be_9_8_scoring_as_suit_contracts_without_belote():
    for kind in ("NT", "AT"):
        for game in ntat_deals(kind, 30):
            s = game._state
            mult = (1, 2, 3)[s.contre]
            t, v = s.taker % 2, s.contract_value
            pts = s.points()
            made = s.tricks_won()[t] == 8 if v == 250 else pts[t] >= v
            out = [0, 0]
            if made and s.contre == 0:
                out[t], out[1 - t] = pts[t] + v, pts[1 - t]
            elif made:
                out[t] = (252 if s.tricks_won()[t] == 8 else 162) + v * mult
            else:
                out[1 - t] = 162 + v * mult
            assert s.team_scores() == out and s.made == made
    game = deal(N, dealer=3, contracts="all")
    to_play(game, "bid 80NT")
    assert game._state.points() == [0, 0]


# ---------------------------------------------------------------- greedy
def test_be_9_greedy_bids_no_trump_with_aces_and_tens_only_when_offered():
    bot = make_bot("greedy", 1)
    game = deal(N, dealer=3, contracts="all")
    assert str(game.action_from_id(bot.choose_id(game))) == "bid 80NT"
    game = deal(N, dealer=3)
    assert bot.choose_id(game) < 75
    for seed in range(30):                                     # whole deals: legal throughout
        game = new_game("belote", seed=seed, contracts="all")
        while not game.is_over:
            a = bot.choose_id(game)
            assert a in game.legal_action_ids()
            game.apply(a)


def test_be_9_1_the_contracts_in_words_en_ru():
    game = deal(A, dealer=3, contracts="all")
    to_play(game, "bid 80NT", "bid 90AT", "pass", "pass", "pass")
    en = [e["text"] for e in game.events(0)]
    ru = [e["text"] for e in game.events(0, lang="ru")]
    assert any("bid 80, no trumps" in t for t in en) and any("bid 90, all trumps" in t for t in en)
    assert any(t.startswith("Contract: 90, all trumps") for t in en)
    assert any("без козырей" in t for t in ru) and any("все козыри" in t for t in ru)
    assert game.view(0)["contract"]["suit"] == "AT" and game.view(0)["trump"] == "AT"
    with pytest.raises(IllegalActionError) as e:
        game.apply("play 7S")                                  # seat 0 holds no 7S
    assert "BE-5.1" in str(e.value)
