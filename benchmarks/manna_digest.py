"""Digests of seeded random Manna games: proof that a speed-up changed no rule, action id,
legal-action order or seeded game.

Three paths are hashed per configuration (every option value of ``cardcore games`` appears):
* the Python path: per action the legal ids, the chosen id and the mover's ``view``; per game
  ``to_json`` (less the version), scores and returns;
* the core's random playout (``GameState.run_random``) in slices of 97 actions, the public
  zones and counters hashed after each slice;
* ``VectorGame``: per batch step the legal mask, the rewards/done flags and the observations;
* the initial-minimum search (``py_reach_min``) on random instances, big hands included.

    python benchmarks/manna_digest.py                 # print the digests (JSON)
    python benchmarks/manna_digest.py --against /path/to/other/python
                                          # compare with another build; exit 1 if any differs

tests/games/manna/test_manna_digest.py checks the digests stored in
tests/games/manna/data/manna_digests.json (made by the unchanged 0.2 build with ``--write``;
in 0.3 the Python path's were made again when the options gained ``hands``, which
``to_json`` holds: the core's and VectorGame's digests stayed those of 0.2).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np

from cardcore import VectorGame, new_game
from cardcore._fast import Random
from cardcore.games.manna._minimum import py_reach_min

STORED = (Path(__file__).resolve().parent.parent / "tests" / "games" / "manna" / "data"
          / "manna_digests.json")

# (name, options, Python-path games, run_random games). Short targets end matches after a
# hand or two, so many deals are covered; the default target plays whole long matches.
CONFIGS: list[tuple[str, dict[str, Any], int, int]] = [
    ("default", {}, 6, 20),
    ("short", {"target": 3000}, 60, 100),
    ("one_hand", {"hands": 1}, 60, 100),
    ("wild_sevens_either", {"wild_sevens": True, "mixed_sevens": "either", "target": 3000}, 30, 60),
    ("wild_sevens_mixed", {"wild_sevens": True, "mixed_sevens": "mixed", "target": 3000}, 30, 60),
    ("foot_cards", {"foot_penalty": "cards", "target": 3000}, 30, 60),
    ("dealer_3_long", {"dealer": 3, "wild_sevens": True, "foot_penalty": "cards"}, 3, 10),
    ("dealer_0_either", {"dealer": 0, "mixed_sevens": "mixed", "target": 6000}, 10, 20),
]
VECTOR_STEPS = 600
SLICE = 97
SEARCHES = 200_000
NATURAL_RANKS = (0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)


def _save_without_version(text: str) -> Any:
    """The save less the package's version and the digest over it: a release changes the
    version, never a game."""
    save = json.loads(text)
    save.pop("cardcore", None)
    save.pop("digest", None)
    return save


def _feed(h: Any, value: Any) -> None:
    h.update(json.dumps(value, sort_keys=True, separators=(",", ":")).encode())


def python_path(options: dict[str, Any], seed: int) -> str:
    h = hashlib.sha256()
    rng = Random(seed)
    g = new_game("manna", seed=seed, **options)
    while True:
        ids = g.legal_action_ids()
        _feed(h, ids)
        if not ids:
            break
        _feed(h, g.view(g.current_player))
        action = ids[rng.below(len(ids))]
        _feed(h, action)
        g.apply(action)
    _feed(h, [_save_without_version(g.to_json()), g.scores, g.returns()])
    return h.hexdigest()


def _zones(s: Any) -> list[Any]:
    """The state's public getters (and the hidden zones, to catch any divergence)."""
    return [s.phase, s.current_player, s.round_index, s.dealer, s.turns, s.actions_applied,
            s.rng_state, [s.hand(p) for p in range(6)], [s.foot(p) for p in range(6)],
            [s.known_cards(p) for p in range(6)], s.feet_taken(), s.stock(), s.discard_pile(),
            s.frozen, [s.melds(t) for t in range(2)], [s.red_threes(t) for t in range(2)],
            s.min_meld(), s.opened(), s.turn_points, s.credits(), s.committed, s.retracted,
            s.team_scores(), s.last_hand_scores(), s.last_out, s.legal_ids()]


def core_path(options: dict[str, Any], seed: int) -> str:
    h = hashlib.sha256()
    s = new_game("manna", seed=seed, **options)._state
    chooser = seed
    while True:
        done = s.run_random(chooser, SLICE)
        chooser += 1
        _feed(h, [done, _zones(s)])
        if done < SLICE:
            break
    return h.hexdigest()


def vector_path(options: dict[str, Any], seed: int) -> str:
    h = hashlib.sha256()
    vg = VectorGame("manna", 8, seed=seed, **options)
    for _ in range(VECTOR_STEPS):
        h.update(vg.legal_mask().tobytes())
        h.update(vg.observations().tobytes())
        h.update(np.asarray(vg.current_player).tobytes())
        rewards, done = vg.step(vg.random_actions())
        h.update(np.asarray(rewards).tobytes())
        h.update(np.asarray(done).tobytes())
    return h.hexdigest()


def search_instance(rng: Random) -> dict[str, Any]:
    """A random reach_min input: hands from empty to huge, credits, unfinished melds."""
    nat = [0] * 13
    big = rng.below(8) == 0
    for r in NATURAL_RANKS:
        if rng.below(4) == 0 or big:
            nat[r] = 1 + rng.below(8)
    cred = [n if rng.below(3) == 0 else rng.below(n + 1) for n in nat]
    twos, jokers = rng.below(9) * rng.below(2), rng.below(5) * rng.below(2)
    wild_sevens = rng.below(3) == 0
    ex_size, ex_wild = [0] * 15, [0] * 15
    for g in list(NATURAL_RANKS) + [13]:
        if rng.below(5) == 0:
            ex_size[g] = 3 + rng.below(4)
            if g == 13:
                ex_wild[g] = ex_size[g]
            elif g != 6 or wild_sevens:
                ex_wild[g] = rng.below(min(3, ex_size[g] - 2) + 1)
    hand = sum(nat) + twos + jokers + (rng.below(120) if big else rng.below(3))
    need = (15, 50, 90, 120, 150)[rng.below(5)]
    return dict(nat=nat, cred=cred, twos=twos, jokers=jokers, cred_twos=rng.below(twos + 1),
                cred_jokers=rng.below(jokers + 1), ex_size=ex_size, ex_wild=ex_wild,
                hand=min(hand, 249), points=rng.below(need) // (1 + rng.below(3)), need=need,
                foot=rng.below(2) == 0, wild_sevens=wild_sevens)


def search_path(count: int) -> str:
    rng = Random(11)
    answers = bytearray(py_reach_min(**search_instance(rng)) for _ in range(count))
    return hashlib.sha256(bytes(answers)).hexdigest() + f" ({sum(answers)}/{count} reachable)"


def digests(scale: float = 1.0) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {"search": {"reach_min": search_path(int(SEARCHES * scale))}}
    for name, options, py_games, core_games in CONFIGS:
        out[name] = {
            "python": _combine(python_path(options, seed)
                               for seed in range(max(1, int(py_games * scale)))),
            "core": _combine(core_path(options, seed)
                             for seed in range(max(1, int(core_games * scale)))),
            "vector": vector_path(options, 7),
        }
    return out


def _combine(parts: Any) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode())
    return h.hexdigest()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--against", help="another Python whose cardcore build to compare with")
    ap.add_argument("--write", action="store_true", help=f"store the digests in {STORED}")
    ap.add_argument("--scale", type=float, default=1.0, help="fraction of the games to play")
    args = ap.parse_args()
    mine = digests(args.scale)
    if args.write:
        STORED.write_text(json.dumps(mine, indent=1, sort_keys=True) + "\n")
    if not args.against:
        print(json.dumps(mine, indent=1, sort_keys=True))
        return 0
    theirs = json.loads(subprocess.run(
        [args.against, __file__, "--scale", str(args.scale)], check=True,
        capture_output=True, text=True).stdout)
    bad = [(name, path) for name in mine for path in mine[name]
           if mine[name][path] != theirs.get(name, {}).get(path)]
    games = sum(int(p * args.scale) + int(c * args.scale) for _, _, p, c in CONFIGS)
    print(f"{games} games, {len(CONFIGS)} vector runs ({len(CONFIGS)} configurations) and "
          f"{int(SEARCHES * args.scale):,} minimum searches: "
          + ("identical" if not bad else f"DIFFERENT in {bad}"))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
