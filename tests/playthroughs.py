"""Golden playthroughs (OpenSpiel's habit, in readable text): one seeded game per configuration,
every state written out, so that a change of behaviour shows as a readable diff.

    python tests/playthroughs.py            # rewrite every game's files
    python tests/playthroughs.py GAME ...   # only these games
    python tests/playthroughs.py --check    # exit 1 if a file differs (the tests do this)

For each of a game's ``conformance_configs`` the file ``tests/games/<game>/playthroughs/<n>.txt``
holds the configuration and its sizes, then per state: the seat to move and the phase, the keys
of that seat's view that changed since it last moved (JSON), a summary of its observation
tensor (size, nonzero entries, sum, and a short digest), its legal actions (notations) and the
action played (a seeded uniform choice), and the events the spectator saw since the last state.
A game longer than ``MAX_STEPS`` actions is cut there, which the file says.
"""
from __future__ import annotations

import difflib
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import cardcore
from cardcore.registry import game_class

HERE = Path(__file__).resolve().parent
MAX_STEPS = 250
SEED = 7


def _json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _tensor(game: Any, seat: int) -> str:
    t = game.observation_tensor(seat)
    digest = hashlib.sha256(t.tobytes()).hexdigest()[:12]
    return f"size {t.size}, nonzero {int((t != 0).sum())}, sum {float(t.sum()):g}, sha {digest}"


def playthrough(name: str, config: dict[str, Any]) -> str:
    """The text of one seeded game of ``name`` in ``config``."""
    game = cardcore.new_game(name, seed=SEED, **config)
    rng = random.Random(SEED)
    lines = [f"game: {name}", f"config: {_json(config)}", f"seed: {SEED}",
             f"players: {game.num_players}", f"num_distinct_actions: {game.num_distinct_actions}",
             f"observation_shape: {list(game.observation_shape)}",
             "observation_pieces: " + ", ".join(f"{n}@{o}+{s}" for n, o, s in
                                                game.observation_pieces),
             f"utility_range: {list(game.utility_range)}",
             f"max_game_length: {game.max_game_length}", ""]
    last_view: dict[int, dict[str, Any]] = {}
    seen = 0
    step = 0
    while True:
        events = game.events(None, since=seen)
        seen += len(events)
        for event in events:
            lines.append(f"  event {_json(event)}")
        if game.is_over:
            lines += ["", f"over after {step} actions: scores {game.scores}, returns "
                      f"{game.returns()}, winners {game.winners}"]
            break
        if step == MAX_STEPS:
            lines += ["", f"cut after {MAX_STEPS} actions (scores {game.scores})"]
            break
        seat = game.current_player
        assert seat is not None
        view = game.view(seat)
        before = last_view.get(seat, {})
        changed = {k: v for k, v in view.items() if before.get(k) != v and k != "legal_actions"}
        last_view[seat] = view
        legal = game.legal_actions()
        action = legal[rng.randrange(len(legal))]
        lines += [f"state {step}: seat {seat} to move ({game.phase})",
                  f"  view changes {_json(changed)}",
                  f"  tensor {_tensor(game, seat)}",
                  f"  legal ({len(legal)}) " + " | ".join(a.label for a in legal),
                  f"  plays {action.label} (id {action.id})"]
        game.apply(action)
        step += 1
    return "\n".join(lines) + "\n"


def files(name: str) -> dict[Path, str]:
    """Every playthrough file of the game and its text."""
    folder = HERE / "games" / name / "playthroughs"
    return {folder / f"{k}.txt": playthrough(name, dict(config))
            for k, config in enumerate(game_class(name).conformance_configs)}


def main(argv: list[str]) -> int:
    check = "--check" in argv
    names = [a for a in argv if not a.startswith("-")] or list(cardcore.available_games())
    status = 0
    for name in names:
        wanted = files(name)
        folder = HERE / "games" / name / "playthroughs"
        stale = sorted(set(folder.glob("*.txt")) - set(wanted)) if folder.is_dir() else []
        for path, text in wanted.items():
            old = path.read_text(encoding="utf-8") if path.is_file() else ""
            if old == text:
                continue
            if check:
                status = 1
                diff = difflib.unified_diff(old.splitlines(), text.splitlines(), str(path),
                                            "now", lineterm="", n=2)
                print("\n".join(list(diff)[:60]))
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(text, encoding="utf-8")
                print("wrote", path.relative_to(HERE.parent))
        for path in stale:
            if check:
                status = 1
                print("stale", path)
            else:
                path.unlink()
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
