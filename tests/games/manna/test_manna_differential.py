"""Differential tests of the meld engine against the plain-Python brute force (manna_oracle):
the enumeration of every legal action in random hands and meld states, and the initial-minimum
reachability search. Default run: 30,000 positions + 25,000 search instances (MANNA_DIFF_SCALE
multiplies both)."""
from __future__ import annotations

import os
import random

import manna_oracle as oracle
import pytest

from cardcore import new_game
from cardcore.games.manna._state import ACTION_LAYOUT, meld_table
from cardcore.games.manna._minimum import py_reach_min
from cardcore.games.manna._testing import set_position

pytestmark = pytest.mark.slow     # ~20 s: left out of the quick loop (-m "not slow")

SCALE = float(os.environ.get("MANNA_DIFF_SCALE", "1"))
POSITIONS = int(30_000 * SCALE)
SEARCHES = int(25_000 * SCALE)
LAY = ACTION_LAYOUT
TABLE = meld_table()
NEEDS = (15, 50, 90, 120, 150)


def decode(i: int) -> tuple:
    if i == LAY["draw"]:
        return ("draw",)
    if i <= LAY["take_joker"]:
        return ("take", {1: "add", 2: "pair", 3: "two", 4: "joker"}[i])
    if i == LAY["retract"]:
        return ("retract",)
    if i < LAY["go_out"]:
        return ("discard", i - LAY["discard"])
    if i < LAY["meld"]:
        return ("out", i - LAY["go_out"])
    g, new, n, t, j = TABLE[i - LAY["meld"]]
    return ("meld", g, bool(new), n, t, j)


def card(rng: random.Random, r: int) -> int:
    if r == 13:
        return 52
    if r == 2:
        return rng.choice((2, 15))           # black threes only: red threes never stay in hand
    return rng.randrange(4) * 13 + r


def random_meld(rng: random.Random, g: int, size: int, wild_sevens: bool) -> list[int]:
    if g == oracle.WILD:
        return [card(rng, rng.choice((1, 13))) for _ in range(size)]
    wilds = 0 if (g == 6 and not wild_sevens) else rng.randint(0, min(3, size - 2))
    return [card(rng, g) for _ in range(size - wilds)] + \
           [card(rng, rng.choice((1, 13))) for _ in range(wilds)]


def random_melds(rng: random.Random, wild_sevens: bool, rich: bool) -> list[list[int]]:
    melds = []
    groups = list(oracle.NATURAL_RANKS) + [oracle.WILD]
    for g in rng.sample(groups, rng.randint(0, 6 if rich else 3)):
        if rng.random() < 0.4:
            melds.append(random_meld(rng, g, 7, wild_sevens))      # a canasta
        if rng.random() < 0.7:
            melds.append(random_meld(rng, g, rng.randint(3, 6), wild_sevens))
    if rich and rng.random() < 0.3:      # all four canasta types, to allow going out
        four = [[card(rng, 4)] * 7, [card(rng, 5)] * 5 + [52, 52],
                [52] * 7, [card(rng, 6) for _ in range(7)]]
        if wild_sevens and rng.random() < 0.6:
            # MH-4.6/9.1: a mixed sevens canasta as the sevens one, as the mixed one, alone
            # (not enough: one canasta fills one place) or twice (enough).
            mixed7 = [card(rng, 6) for _ in range(5)] + [52, card(rng, 1)]
            way = rng.randrange(4)
            if way == 0:
                four[3] = mixed7
            elif way == 1:
                four[1] = mixed7
            else:
                four = [four[0], four[2]] + [mixed7] * (way - 1)
        melds += four
    return melds


def random_hand(rng: random.Random) -> list[int]:
    """A hand the deck can hold (MH-1.1: at most 4 copies of a natural id, 8 jokers)."""
    size = rng.choice((1, 1, 2, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16, 20))
    ranks = rng.sample([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13], rng.randint(1, 6))
    size = min(size, sum(8 if r in (2, 13) else 16 for r in ranks))
    hand: list[int] = []
    while len(hand) < size:
        c = card(rng, rng.choice(ranks))
        if hand.count(c) < (8 if c == 52 else 4):
            hand.append(c)
    return hand


def random_position(rng: random.Random, game) -> oracle.Position:
    wild_sevens = game.options["wild_sevens"]
    either = wild_sevens and game.options["mixed_sevens"] == "either"
    player = rng.randrange(6)
    team = player % 2
    melds = [random_melds(rng, wild_sevens, rng.random() < 0.3) for _ in range(2)]
    opened = [bool(melds[0]) or rng.random() < 0.2, bool(melds[1]) or rng.random() < 0.2]
    stage = 0 if rng.random() < 0.25 else 1
    pos = oracle.Position(player=player, hand=random_hand(rng), melds=melds, opened=opened,
                          stage=stage, need=(rng.choice(NEEDS), rng.choice(NEEDS)),
                          wild_sevens=wild_sevens, sevens_either=either,
                          foot_taken=rng.random() < 0.4)
    if stage == 0:
        pile = [card(rng, rng.choice([0, 1, 2, 3, 4, 6, 9, 12, 13])) for _ in range(rng.randint(0, 6))]
        if pile and rng.random() < 0.6:
            pile[-1] = card(rng, rng.choice([c % 13 for c in pos.hand if c != 52] or [4]))
        if pile and rng.random() < 0.1:
            pile[0] = 41                         # a red three at the bottom
        pos.pile = pile
        pos.frozen = rng.random() < 0.3
    elif not opened[team]:
        pos.melds[team] = []
        mode = rng.random()
        if mode < 0.45:                          # provisional melds already laid
            for g in rng.sample([3, 7, 9, 12, 0, 13], rng.randint(1, 2)):
                pos.melds[team].append(random_meld(rng, g, rng.randint(3, 5), wild_sevens))
            pos.turn_points = rng.randint(5, pos.need[team] - 1)
            pos.committed = rng.random() < 0.6
            pos.retracted = False
        elif mode < 0.55:
            pos.retracted = True
        pos.credit = [rng.randint(0, n) for n in oracle._counts(pos.hand)]
    return pos


def install(game, pos: oracle.Position) -> None:
    set_position(game._state, pos.player, pos.hand, pos.melds[0], pos.melds[1],
                 pos.opened[0], pos.opened[1], pos.stage, pos.pile, pos.frozen,
                 pos.turn_points, pos.committed, pos.retracted, pos.credit,
                 pos.foot_taken, pos.need)
    pos.foot = [] if pos.foot_taken else game._state.foot(pos.player)


@pytest.mark.parametrize("wild_sevens,mixed_sevens",
                         [(False, "either"), (True, "either"), (True, "mixed")])
def test_mh_4_enumeration_matches_brute_force(wild_sevens, mixed_sevens):
    rng = random.Random(4 + wild_sevens + 2 * (mixed_sevens == "mixed"))
    game = new_game("manna", seed=1, wild_sevens=wild_sevens, mixed_sevens=mixed_sevens)
    checked = melds_seen = 0
    for k in range(POSITIONS // 2):
        pos = random_position(rng, game)
        install(game, pos)
        ids = list(game.legal_action_ids())
        assert ids == sorted(set(ids)), k                      # ascending, each once
        got = {decode(i) for i in ids}
        want = oracle.legal_set(pos)
        assert got == want, (k, pos, sorted(got ^ want))
        checked += 1
        melds_seen += sum(1 for a in got if a[0] == "meld")
    assert checked == POSITIONS // 2 and melds_seen > POSITIONS   # the positions meld a lot


def random_search(rng: random.Random) -> dict:
    nat = [0] * 13
    for r in rng.sample(oracle.NATURAL_RANKS, rng.randint(0, 5)):
        nat[r] = rng.choice((1, 1, 2, 2, 3, 3, 4, 5, 6, 7, 8))
    cred = [rng.randint(0, n) if rng.random() < 0.3 else n for n in nat]
    twos, jokers = rng.choice((0, 0, 1, 1, 2, 3, 4)), rng.choice((0, 0, 0, 1, 1, 2, 3))
    ex_size, ex_wild = [0] * 15, [0] * 15
    for g in rng.sample(list(oracle.NATURAL_RANKS) + [13], rng.randint(0, 3)):
        ex_size[g] = rng.randint(3, 6)
        if g == 13:
            ex_wild[g] = ex_size[g]
        elif g != 6:
            ex_wild[g] = rng.randint(0, min(3, ex_size[g] - 2))
    hand = sum(nat) + twos + jokers + rng.choice((0, 0, 0, 1, 2, 5))
    need = rng.choice(NEEDS)
    return dict(nat=nat, cred=cred, twos=twos, jokers=jokers,
                cred_twos=rng.randint(0, twos), cred_jokers=rng.randint(0, jokers),
                ex_size=ex_size, ex_wild=ex_wild, hand=hand,
                points=rng.randint(0, need - 1), need=need, foot=rng.random() < 0.5,
                wild_sevens=rng.random() < 0.3)


def test_mh_5_5_minimum_search_matches_brute_force():
    rng = random.Random(55)
    results = {True: 0, False: 0}
    for k in range(SEARCHES):
        q = random_search(rng)
        want = oracle.reach(**q)
        got = py_reach_min(**q)
        assert got == want, (k, q)
        results[got] += 1
    # Both answers occur often: the instances are not trivial.
    assert min(results.values()) > SEARCHES // 10, results


def position_of(game) -> oracle.Position:
    s = game._state
    p = game.current_player
    return oracle.Position(
        player=p, hand=s.hand(p), melds=[[m[1] for m in s.melds(t)] for t in (0, 1)],
        opened=s.opened(), stage=s.phase, pile=s.discard_pile(), frozen=s.frozen,
        turn_points=s.turn_points, committed=s.committed, retracted=s.retracted,
        credit=s.credits(), foot_taken=s.feet_taken()[p], foot=s.foot(p),
        need=tuple(s.min_meld()), wild_sevens=game.options["wild_sevens"],
        sevens_either=game.options["wild_sevens"] and game.options["mixed_sevens"] == "either")


@pytest.mark.parametrize("wild_sevens", [False, True])
def test_mh_4_enumeration_matches_brute_force_in_played_games(wild_sevens):
    """Every position of random matches: the engine's legal set equals the oracle's."""
    rng = random.Random(7)
    checked = committed = 0
    target = int(8000 * SCALE)
    for seed in range(1000):
        if checked >= target:
            break
        game = new_game("manna", seed=seed, wild_sevens=wild_sevens)
        stop = checked + 2500
        while not game.is_over and checked < min(stop, target):
            pos = position_of(game)
            ids = game.legal_action_ids()
            assert list(ids) == sorted(set(ids)), (seed, pos)  # ascending, each once
            # The brute-force search is exponential: big hands of unopened teams are skipped.
            if len(pos.hand) <= 12 or pos.opened[pos.player % 2]:
                assert {decode(i) for i in ids} == oracle.legal_set(pos), (seed, pos)
                checked += 1
                committed += pos.committed
            game.apply(ids[rng.randrange(len(ids))])
    assert checked >= target and committed > 0
