"""Bytes a socket is pushed, whole states against patches (docs/server.md, "Patches").

One person and bots at a table of each game (Manna: the person and five bots), played in
process through the server's app until the first round ends (``round_end_event``). Three
sockets watch: the person's seat with ``?patches=1``, the same seat without (whole states),
and a spectator with ``?patches=1``. The person plays seeded random legal moves; bots move
with a small delay, so each bot move is its own push as under ``cardcore serve``.

Reported per game: pushes after the first state, the first state's bytes, the median and
max bytes of a whole-state push, the median and max of a patch push, the ratio of the two
medians (the target for Manna: at most 25 %), and how many pushes went whole on the patch
socket after the first (RFC 7396 cannot set a value to null: such a change goes whole).
Every reconstructed state is checked equal to the whole socket's at the same event count.

    python benchmarks/push_bytes.py                    # every game, a hand each of seeds 1-5
    python benchmarks/push_bytes.py --games manna --seeds 1 2 3
    python benchmarks/push_bytes.py --json out.json    # the figures as JSON too

Rerun it after a change that makes states bigger (zones, moves, texts): the ratio is the
figure that matters.
"""
from __future__ import annotations

import argparse
import copy
import json
import random
import statistics
import sys
import tempfile
import warnings
from pathlib import Path
from typing import Any

import json_merge_patch

from cardcore.registry import available_games, game_class
from cardcore.server import Limits, create_app

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient

BOT = "greedy"


def _size(text: str) -> int:
    return len(text.encode("utf-8"))


class Watcher:
    """One socket: its pushes' bytes, and the whole state rebuilt from patches."""

    def __init__(self, socket: Any) -> None:
        self.socket = socket
        self.sizes: list[int] = []
        self.kinds: list[str] = []
        self.rest: dict[str, Any] | None = None
        self.states: dict[int, dict[str, Any]] = {}     # event_count -> state without events
        self.events: list[dict[str, Any]] = []

    def receive(self) -> dict[str, Any] | None:
        """The next push as a whole state (None for other messages)."""
        text = self.socket.receive_text()
        message = json.loads(text)
        kind = message["type"]
        if kind not in ("state", "patch"):
            return None
        self.sizes.append(_size(text))
        self.kinds.append(kind)
        if kind == "state":
            rest = {k: v for k, v in message.items() if k not in ("type", "events", "id",
                                                                    "rewound")}
        else:
            assert self.rest is not None, "a patch before the first state"
            rest = json_merge_patch.merge(copy.deepcopy(self.rest), message["patch"])
        self.rest = rest
        self.events.extend(message["events"])
        self.states[rest["event_count"]] = rest
        return {**rest, "events": message["events"]}


def play_hand(game: str, seed: int, bot_delay: float) -> dict[str, Any]:
    cls = game_class(game)
    players = cls.default_players        # the tables: a person and the bots
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(Path(tmp) / "t.sqlite3", bot_delay=bot_delay, synchronous="normal",
                         limits=Limits(message_rate=1000))
        with TestClient(app, base_url="http://localhost") as client:
            r = client.post("/api/tables", json={
                "game": game, "players": players, "seed": seed,
                "bots": {str(k): BOT for k in range(1, players)}})
            assert r.status_code == 201, r.text
            made = r.json()
            path = f"ws://localhost/ws/tables/{made['table']}"
            auth = ["cardcore", f"cardcore.token.{made['seats']['0']}"]
            with client.websocket_connect(path + "?patches=1", subprotocols=auth) as ps, \
                    client.websocket_connect(path, subprotocols=auth) as ws, \
                    client.websocket_connect(path + "?patches=1") as sp:
                person, whole, spectator = Watcher(ps), Watcher(ws), Watcher(sp)
                rng = random.Random(seed)
                sent_at = -1
                while True:
                    state = person.receive()
                    if state is None:
                        continue
                    # After the first state (a Kuzanasta deal may end before it).
                    if state["over"] or len(person.sizes) > 1 and any(
                            e["kind"] == cls.round_end_event for e in state["events"]):
                        break
                    if state["current_player"] == 0 and state["legal"] \
                            and state["event_count"] != sent_at:
                        sent_at = state["event_count"]
                        ps.send_json({"type": "action", "after": sent_at,
                                      "action": rng.choice(state["legal"])["id"]})
                final = state["event_count"]
                for other in (whole, spectator):
                    while other.rest is None or other.rest["event_count"] < final:
                        other.receive()
                client.delete(f"/api/tables/{made['table']}",
                              headers={"Authorization": f"Bearer {made['creator_token']}"})
    # The same state on both sockets of the seat, wherever both were pushed one.
    common = sorted(person.states.keys() & whole.states.keys())
    for count in common:
        assert person.states[count] == whole.states[count], (game, count)
    assert person.events == whole.events
    return {"game": game, "players": players, "seed": seed,
            "pushes": len(whole.sizes) - 1, "first": whole.sizes[0],
            "whole": whole.sizes[1:], "patch": person.sizes[1:],
            "patch_whole": person.kinds[1:].count("state"),
            "spectator_patch": spectator.sizes[1:],
            "compared": len(common)}


def summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    whole = [s for r in runs for s in r["whole"]]
    patch = [s for r in runs for s in r["patch"]]
    spectator = [s for r in runs for s in r["spectator_patch"]]
    return {"game": runs[0]["game"], "players": runs[0]["players"],
            "hands": len(runs), "pushes": len(whole),
            "first_state": statistics.median(r["first"] for r in runs),
            "whole_median": statistics.median(whole), "whole_max": max(whole),
            "patch_median": statistics.median(patch), "patch_max": max(patch),
            "ratio": statistics.median(patch) / statistics.median(whole),
            "ratio_to_first": statistics.median(patch)
            / statistics.median(r["first"] for r in runs),
            "spectator_patch_median": statistics.median(spectator),
            "went_whole": sum(r["patch_whole"] for r in runs),
            "compared": sum(r["compared"] for r in runs)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="*", default=None)
    parser.add_argument("--seeds", nargs="*", type=int, default=[1, 2, 3, 4, 5])
    parser.add_argument("--bot-delay", type=float, default=0.002)
    parser.add_argument("--json", default=None, help="write the figures here as JSON")
    args = parser.parse_args(argv)
    games = args.games or sorted(available_games(), key=lambda g: g != "manna")
    rows = [summary([play_hand(g, s, args.bot_delay) for s in args.seeds]) for g in games]
    print(f"{'game':14} {'seats':>5} {'pushes':>6} {'first':>7} {'whole p50':>9} "
          f"{'max':>6} {'patch p50':>9} {'max':>6} {'ratio':>6} {'/first':>6} "
          f"{'spect.':>6} {'whole':>5}")
    for r in rows:
        print(f"{r['game']:14} {r['players']:>5} {r['pushes']:>6} {r['first_state']:>7.0f} "
              f"{r['whole_median']:>9.0f} {r['whole_max']:>6} {r['patch_median']:>9.0f} "
              f"{r['patch_max']:>6} {r['ratio']:>6.1%} {r['ratio_to_first']:>6.1%} "
              f"{r['spectator_patch_median']:>6.0f} {r['went_whole']:>5}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    manna = next((r for r in rows if r["game"] == "manna"), None)
    if manna is not None and manna["ratio"] > 0.25:
        print(f"manna: the median patch push is {manna['ratio']:.1%} of a whole state's "
              "(target: at most 25 %)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
