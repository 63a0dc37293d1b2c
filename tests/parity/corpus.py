"""The parity corpus: seeded matches played by Python's cardcore, with a digest of everything
a runtime of the C library must reproduce at every step, so that the native library
(ctypes, tests/test_libcardcore.py), the WebAssembly engine in Node (clients/engine) and in
Chromium check byte-identical play against it.

A step's digest is the first 16 hex digits of SHA-256 over, in this order:
  the seat to move (int32), the legal ids (int32 each), each legal id's label (UTF-8 and a
  newline), every seat's observation tensor (float32), every zone instance's cards in
  zone order (an int32 count, then the card ids as bytes: the deal itself), and the refusals
  of the first REFUSED_IDS ids that are not legal (ascending; none once over): for each, the
  id, the reason (int32 each), the rule ID (UTF-8 and a newline), the field count and the
  fields (int32 each), as GameState.refusal and cc_refusal give them;
all integers and floats little-endian. The returns at the end are kept as the hex of their
float64 bytes (so -0.0 and 0.0 differ). The moves are chosen by a fixed rule,
index = (seed + 7919 * step) % len(legal), and recorded.

    python tests/parity/corpus.py OUT.json [games per configuration] [game ...]
"""
from __future__ import annotations

import hashlib
import json
import struct
import sys
from typing import Any

import cardcore
from cardcore.registry import game_class

MAX_STEPS = 600          # a longer match is cut there (its returns are then all zeros)
REFUSED_IDS = 3          # a step's digest covers the refusals of this many illegal ids


def configurations(games: list[str]) -> list[tuple[str, dict[str, Any]]]:
    """Every given game in each of its conformance configurations (every value of every
    option appears in one) and at every player count with the default options."""
    out: list[tuple[str, dict[str, Any]]] = []
    for name in games:
        cls = game_class(name)
        configs = [dict(c) for c in cls.conformance_configs]
        configs += [{"players": p} for p in range(cls.min_players, cls.max_players + 1)
                    if {"players": p} not in configs]
        out += [(name, c) for c in configs]
    return out


def refused_ids(ids: list[int], num_actions: int) -> list[int]:
    """The first REFUSED_IDS ids that are not legal (none once the match is over)."""
    if not ids:
        return []
    legal = set(ids)
    out: list[int] = []
    for a in range(num_actions):
        if len(out) == REFUSED_IDS:
            break
        if a not in legal:
            out.append(a)
    return out


def step_digest(player: int, ids: list[int], labels: list[str], observations: list[bytes],
                zones: list[bytes], refusals: list[tuple[int, int, str, list[int]]]) -> str:
    """refusals: (id, reason, rule, args) of each refused id."""
    h = hashlib.sha256()
    h.update(struct.pack("<i", player))
    h.update(struct.pack(f"<{len(ids)}i", *ids))
    for label in labels:
        h.update(label.encode() + b"\n")
    for obs in observations:
        h.update(obs)
    for cards in zones:
        h.update(struct.pack("<i", len(cards)))
        h.update(cards)
    for action, reason, rule, args in refusals:
        h.update(struct.pack("<ii", action, reason))
        h.update(rule.encode() + b"\n")
        h.update(struct.pack(f"<i{len(args)}i", len(args), *args))
    return h.hexdigest()[:16]


def returns_hex(values: list[float]) -> str:
    return struct.pack(f"<{len(values)}d", *values).hex()


def play_case(name: str, config: dict[str, Any], seed: int) -> dict[str, Any]:
    options = {k: v for k, v in config.items() if k != "players"}
    game = cardcore.new_game(name, players=config.get("players"), seed=seed, **options)
    state = game._state                     # the zones in the kernel's order, as bytes
    steps: list[str] = []
    actions: list[int] = []
    while True:
        player = game.current_player
        ids = game.legal_action_ids()
        labels = [str(a) for a in game.legal_actions()]
        observations = [game.observation_tensor(p).astype("<f4").tobytes()
                        for p in range(game.num_players)]
        refusals = []
        for a in refused_ids(ids, state.num_actions):
            found = state.refusal(a)
            refusals.append((a, found.reason, found.rule, list(found.args)))
        steps.append(step_digest(-1 if player is None else player, ids, labels,
                                 observations, state.zone_bytes(), refusals))
        if not ids or len(actions) >= MAX_STEPS:
            break
        action = ids[(seed + 7919 * len(actions)) % len(ids)]
        game.apply(action)
        actions.append(action)
    return {"game": name, "players": game.num_players, "options": options, "seed": seed,
            "actions": actions, "steps": steps, "returns": returns_hex(game.returns())}


def make_corpus(games: list[str], per_config: int) -> dict[str, Any]:
    cases = [play_case(name, config, 1000 * k + i)
             for k, (name, config) in enumerate(configurations(games))
             for i in range(per_config)]
    return {"version": 2, "games": games, "cases": cases}


if __name__ == "__main__":
    out = sys.argv[1]
    per = int(sys.argv[2]) if len(sys.argv) > 2 else 50
    corpus = make_corpus(sys.argv[3:] or list(cardcore.available_games()), per)
    with open(out, "w") as f:
        json.dump(corpus, f, separators=(",", ":"))
    print(f"{len(corpus['cases'])} matches, "
          f"{sum(len(c['steps']) for c in corpus['cases'])} steps -> {out}")
