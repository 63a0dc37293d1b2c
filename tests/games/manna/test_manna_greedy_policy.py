"""GreedyBot's in-core policy for Manna (the ``greedy`` hook, mh_greedy in kernel.c) against the Python
heuristic it replaces (manna_greedy_reference.py, greedy.py of 0.2-0.3): the same choice and the
same random draws in every position visited, blind to the cards the seat to move cannot see, and
what ``GreedyBot`` plays.

Default run: 5 configurations x 8,000 positions (40,000 in about 8 s; MANNA_GREEDY_SCALE
multiplies them), in random seeded matches that mix the heuristic's moves with random ones; the
slow sweep checks 40,000 more per configuration on other seeds."""
from __future__ import annotations

import os
import random
from collections import Counter

import manna_greedy_reference as reference
import pytest
from manna_helpers import DRAW, RETRACT, TAKE_ADD, TAKE_PAIR, discard, game_with, go_out, meld, position

from cardcore import new_game
from cardcore._fast import Random
from cardcore.bots import GreedyBot, make_bot

SCALE = float(os.environ.get("MANNA_GREEDY_SCALE", "1"))
POSITIONS = int(8_000 * SCALE)
SLOW_POSITIONS = 40_000             # per configuration in the slow sweep
ONE_HAND = 1                        # hands: each match is one hand (MH-10.7)
LAY = reference.LAY

# Every option value the heuristic's inputs depend on: wild_sevens decides whether sevens
# melds take wild cards (a mixed canasta of sevens, MH-4.6), mixed_sevens which canasta types a
# team holds then (MH-4.6 Decision), foot_penalty and the dealer change the deals and matches;
# one configuration plays whole matches to the default target (MH-10.6), so the initial-meld
# minimum changes with the score (MH-4.8).
CONFIGS = [
    {"hands": ONE_HAND},
    {"hands": ONE_HAND, "wild_sevens": True},
    {"hands": ONE_HAND, "wild_sevens": True, "mixed_sevens": "mixed", "foot_penalty": "cards"},
    {"hands": ONE_HAND, "foot_penalty": "cards", "dealer": 2},
    {"wild_sevens": True},
]
# Per team, how often the heuristic's move is played (else a uniformly random legal one): all
# greedy tables go out and finish canastas (late positions), random ones keep odd hands.
MIXES = [(1.0, 1.0), (1.0, 0.6), (0.9, 0.3), (0.5, 0.5), (1.0, 0.0)]


def config_id(options: dict) -> str:
    return "-".join(f"{k}={v}" for k, v in sorted(options.items()))


def branch(game, action: int) -> list[str]:
    """What the heuristic's choice was (for the coverage counts)."""
    legal = game.legal_action_ids()
    s = game.state
    team = game.current_player % 2
    out = []
    if s.phase == 0:
        out.append("take" if TAKE_ADD <= action <= LAY["take_joker"] else "draw")
        if action == TAKE_PAIR:
            out.append("take_pair")
        return out
    melds = [reference._meld_score(s, i, team, s.opened()[team]) for i in legal if i >= LAY["meld"]]
    if melds:
        out.append("meld offered")
        if max(melds) <= 0:
            out.append("no meld worth it")
        if melds.count(max(melds)) > 1 and max(melds) > 0:
            out.append("meld tie")
    if LAY["go_out"] <= action < LAY["meld"]:
        out.append("out")
    elif action >= LAY["meld"]:
        out.append("black3" if reference.TABLE[action - LAY["meld"]][0] == reference.BLACK3
                   else "meld")
    elif action == RETRACT:
        out.append("retract")
    elif action >= LAY["discard"]:
        out.append("discard")
        hand = s.hand(game.current_player)
        values = [reference._discard_score(s, i - LAY["discard"], hand, team)
                  for i in legal if LAY["discard"] <= i < LAY["go_out"]]
        if values.count(min(values)) > 1:
            out.append("discard tie")
    else:
        out.append("random")
    return out


def sweep(options: dict, positions: int, seed0: int) -> tuple[int, Counter, list]:
    """Play seeded matches until ``positions`` positions are checked: at each, the core's
    choice and generator against the Python heuristic's from the same seed."""
    seen: Counter = Counter()
    differ = []
    checked = 0
    game_seed = seed0
    while checked < positions:
        game = new_game("manna", seed=game_seed, **options)
        chooser = random.Random(game_seed)
        mix = MIXES[game_seed % len(MIXES)]
        while not game.is_over and checked < positions:
            s = chooser.getrandbits(40)
            core_rng, python_rng = Random(s), Random(s)
            ours = game.state.greedy_move(core_rng)
            theirs = reference.choose(game, python_rng)
            checked += 1
            if ours != theirs or core_rng.state != python_rng.state \
                    or core_rng.next_u32() != python_rng.next_u32():
                differ.append((game_seed, len(game.action_log()), ours, theirs))
            seen.update(branch(game, theirs))
            seen[f"need {game.state.min_meld()[game.current_player % 2]}"] += 1
            legal = game.legal_action_ids()
            hand = game.state.round_index
            game.apply(theirs if chooser.random() < mix[game.current_player % 2]
                       else legal[chooser.randrange(len(legal))])
            if game.state.round_index != hand:
                seen["hand finished"] += 1
        game_seed += 1
    return checked, seen, differ


SWEEPS: dict[str, tuple[int, Counter, list]] = {}


def swept(options: dict) -> tuple[int, Counter, list]:
    key = config_id(options)
    if key not in SWEEPS:
        SWEEPS[key] = sweep(options, POSITIONS, 1000 * CONFIGS.index(options))
    return SWEEPS[key]


@pytest.mark.parametrize("options", CONFIGS, ids=config_id)
def test_greedy_policy_makes_the_heuristics_choice_and_draws_in_every_position(options):
    """MH-3..MH-9 positions of seeded matches: the same legal id and the same generator state
    afterwards (each meld and discard considered draws once, ties broken by those draws)."""
    checked, seen, differ = swept(options)
    assert checked >= POSITIONS
    assert differ == [], f"{len(differ)} of {checked} positions differ, first {differ[:5]}"
    for what in ("draw", "take", "meld", "discard", "meld tie", "discard tie",
                 "no meld worth it", "hand finished"):
        assert seen[what] > 0, (what, seen)


@pytest.mark.slow
@pytest.mark.parametrize("options", CONFIGS, ids=config_id)
def test_greedy_policy_equals_the_heuristic_on_a_larger_sweep(options):
    checked, seen, differ = sweep(options, SLOW_POSITIONS, 10**6 + 1000 * CONFIGS.index(options))
    assert checked >= SLOW_POSITIONS and seen["out"] > 0
    assert differ == [], f"{len(differ)} of {checked} positions differ, first {differ[:5]}"


def test_the_sweeps_visit_every_branch_of_the_heuristic():
    """Over the configurations: going out (MH-9.2), black threes (MH-4.7), retract (MH-4.8) and
    takes (MH-5.3) are all among the positions checked."""
    total: Counter = Counter()
    for options in CONFIGS:
        total.update(swept(options)[1])
    assert sum(swept(options)[0] for options in CONFIGS) >= 20_000 * min(SCALE, 1)
    for what in ("out", "black3", "retract", "take_pair", "meld tie", "discard tie"):
        assert total[what] > 0, (what, total)
    # whole matches: the initial-meld minimum follows the team's score (MH-4.8)
    assert len([k for k in total if k.startswith("need ")]) >= 3, total


# ---------------------------------------------------------------- rule-related choices
def both(game, seed: int = 7) -> int:
    """The core's choice, checked against the Python heuristic's (choice and draws)."""
    a, b = Random(seed), Random(seed)
    ours = game.state.greedy_move(a)
    assert ours == reference.choose(game, b) and a.state == b.state
    return ours


def test_mh_5_3_takes_the_pile_onto_its_meld_rather_than_drawing():
    game = new_game("manna", seed=1, dealer=0)
    position(game, 1, ["KC", "KS", "5D", "8H"], melds1=[["KD", "KH", "KC"]], opened1=True,
             stage=0, pile=["4C", "KD"])
    legal = game.legal_action_ids()
    assert {DRAW, TAKE_ADD} <= set(legal)
    assert both(game) == TAKE_ADD


def test_mh_9_2_goes_out_when_it_can():
    game = new_game("manna", seed=1, dealer=0)
    ready = [["4C"] * 4 + ["4S"] * 3, ["8C", "8S", "8D", "2C", "2S", "JK", "8H"],
             ["2D", "2H", "2C", "JK", "JK", "2S", "JK"], ["7C"] * 4 + ["7S"] * 3]
    position(game, 0, ["9H"], melds0=ready, opened0=True, foot_taken=True)
    assert both(game) == go_out("9H")


def test_mh_4_7_lays_black_threes_to_go_out_and_mh_5_1_discards_a_three_first():
    game = new_game("manna", seed=1, dealer=0)
    ready = [["4C"] * 4 + ["4S"] * 3, ["8C", "8S", "8D", "2C", "2S", "JK", "8H"],
             ["2D", "2H", "2C", "JK", "JK", "2S", "JK"], ["7C"] * 4 + ["7S"] * 3]
    position(game, 0, ["3C", "3C", "3S", "9H"], melds0=ready, opened0=True, foot_taken=True)
    black3 = meld("black3", True, 3)
    assert black3 in game.legal_action_ids()
    assert both(game) == black3
    position(game, 0, ["3C", "9H", "9D", "KD"], melds0=ready[:2], opened0=True, foot_taken=True)
    assert both(game) == discard("3C")


def test_mh_4_5_prefers_the_canasta_of_a_type_the_team_lacks():
    """A natural canasta (MH-4.5) when the team has a mixed one already, over one more mixed."""
    game = new_game("manna", seed=1, dealer=0)
    position(game, 0, ["QC", "QS", "QD", "QH", "2C", "9C", "9S", "9H", "5D", "6D"],
             melds0=[["8C", "8S", "8D", "2C", "2S", "JK", "8H"], ["QC", "QS", "QD"],
                     ["9C", "9S", "9D"]], opened0=True, foot_taken=True)
    mixed = meld("9", False, 3, 1)
    assert mixed in game.legal_action_ids()
    assert both(game) == meld("Q", False, 4)


def test_mh_4_8_retracts_a_short_initial_meld_it_cannot_complete():
    """Melds of the turn below the minimum: no discard (MH-4.8), nothing more to meld."""
    game = game_with(hands={1: ["KC", "KS", "KD", "5C", "5S", "6D", "8H", "9C", "JD", "QS",
                                "4C", "4S", "6H"]}, stock=["10C", "10S"])
    game.apply(DRAW)
    game.apply(meld("K", True, 3))                # 30 points: below the 50 of MH-4.8
    assert game.legal_action_ids() == [RETRACT]
    assert both(game) == RETRACT


# ---------------------------------------------------------------- blind to hidden cards
def test_greedy_policy_is_blind_to_the_cards_the_seat_cannot_see():
    """Worlds sampled for the seat to move (``sample_hidden``: the other hands, the feet and
    the stock redrawn, MH-11) give the same choice and the same draws."""
    differing = positions = 0
    for seed in range(12):
        game = new_game("manna", seed=seed, hands=ONE_HAND,
                        **({"wild_sevens": True} if seed % 2 else {}))
        chooser = random.Random(seed)
        while not game.is_over and len(game.action_log()) < 240:
            seat = game.current_player
            if len(game.action_log()) % 9 == 0:
                for k in range(2):
                    world = game.sample_hidden(seat, 100 * seed + k)
                    assert world.view(seat) == game.view(seat)
                    differing += world.state.all_cards() != game.state.all_cards()
                    a, b = Random(seed + k), Random(seed + k)
                    assert world.state.greedy_move(a) == game.state.greedy_move(b)
                    assert a.state == b.state
                    positions += 1
            legal = game.legal_action_ids()
            game.apply(GreedyBot(chooser.getrandbits(32)).choose_id(game)
                       if chooser.random() < 0.8 else legal[chooser.randrange(len(legal))])
    assert positions >= 200 and differing >= positions * 0.9


# ---------------------------------------------------------------- GreedyBot
def test_greedy_bot_plays_the_in_core_policy():
    """make_bot("greedy") chooses what the Python heuristic chooses from a generator seeded
    alike, move for move over whole hands, every seat greedy."""
    for seed in range(3):
        game = new_game("manna", seed=seed, hands=ONE_HAND)
        assert game.state.has_greedy
        bots = [make_bot("greedy", 10 * seed + p) for p in range(6)]
        mirrors = [Random(10 * seed + p) for p in range(6)]
        while not game.is_over:
            p = game.current_player
            expected = reference.choose(game, mirrors[p])
            assert bots[p].choose_id(game) == expected
            assert bots[p].rng.state == mirrors[p].state
            game.apply(expected)
