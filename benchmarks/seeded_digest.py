"""A digest of many seeded random games, to show that an optimisation changed no game.

Run it with two builds (e.g. main's venv and a branch's) and compare the last line:

    python benchmarks/seeded_digest.py [games per configuration]

Per configuration it hashes, for ``games`` seeded games played by a seeded random chooser, the
legal ids in order at every step, an observation every 17 steps, the final ``to_json()`` (less the version and its digest) and
returns; then a VectorGame run (random_actions, rewards, done, the mask given back every step,
observations). Not part of ``compare.py``: it measures sameness, not speed.
"""
from __future__ import annotations

import hashlib
import json
import sys
from typing import Any

import numpy as np

import cardcore
from cardcore import VectorGame, new_game
from cardcore.game import game_class   # the 0.2 name too: the script compares builds

# Every game of the registry, in each of its conformance configurations (every value of every
# option appears in one), plus every player count with the default options.
CONFIGS: list[tuple[str, dict[str, Any]]] = []
for _name in cardcore.available_games():
    _cls = game_class(_name)
    CONFIGS += [(_name, dict(c)) for c in _cls.conformance_configs]
    CONFIGS += [(_name, {"players": p}) for p in range(_cls.min_players, _cls.max_players + 1)
                if {"players": p} not in _cls.conformance_configs]


def _save_without_version(text: str) -> bytes:
    """The save as canonical JSON without the package's version and the digest over it: a
    release changes the version, never a game."""
    save = json.loads(text)
    save.pop("cardcore", None)
    save.pop("digest", None)
    return json.dumps(save, sort_keys=True, separators=(",", ":")).encode()


def digest(name: str, options: dict[str, Any], games: int) -> tuple[int, str]:
    h = hashlib.sha256()
    rng = np.random.default_rng(12345)
    steps = 0
    for g in range(games):
        game = new_game(name, seed=1000 + g, **options)
        while not game.is_over:
            legal = game.legal_action_ids()
            h.update(np.asarray(legal, dtype=np.int32).tobytes())
            if steps % 17 == 0:
                h.update(game.observation_tensor(game.current_player).tobytes())
            game.apply(legal[int(rng.integers(len(legal)))])
            steps += 1
        h.update(_save_without_version(game.to_json()))
        h.update(np.asarray(game.returns()).tobytes())
    vg = VectorGame(name, 16, seed=7, **options)
    mask = vg.legal_mask()
    for k in range(400):
        actions = vg.random_actions()
        h.update(actions.tobytes())
        rewards, done = vg.step(actions)
        h.update(rewards.tobytes())
        h.update(done.tobytes())
        h.update(vg.legal_mask(mask).tobytes())
        if k % 50 == 0:
            h.update(vg.observations().tobytes())
    return steps, h.hexdigest()


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 50
    total = hashlib.sha256()
    for name, options in CONFIGS:
        steps, hexdigest = digest(name, options, games)
        print(f"{name:13s} {str(options):60s} steps={steps:8d} {hexdigest[:16]}")
        total.update(hexdigest.encode())
    print("TOTAL", total.hexdigest())


if __name__ == "__main__":
    main()
