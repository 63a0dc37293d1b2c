"""The TypeScript client (clients/typescript/): its types are generated from the package's
OpenAPI document and every registered game's JSON Schemas (at build time, not committed), it compiles with ``tsc --strict``, and it plays
complete matches of every game against a live ``cardcore serve`` (test/play.test.ts), besides
its unit tests against a scripted socket (test/socket.test.ts).

The Node tools come from ``npm ci`` in clients/typescript, which these tests run themselves when
its node_modules is missing or stale (tests/node_packages.py); without Node.js and npm they fail
and say so (they are not skipped)."""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cardcore import available_games
from cardcore.registry import game_classes
from node_packages import node_packages
from server_helpers import SRC, ServerProcess

pytestmark = pytest.mark.slow          # Node and tsc: with the type checks, out of the quick loop

ROOT = Path(__file__).resolve().parents[1]
CLIENT = ROOT / "clients" / "typescript"
TSC = CLIENT / "node_modules" / "typescript" / "bin" / "tsc"


def node() -> str:
    path = shutil.which("node")
    if path is None:
        pytest.fail("node is not on PATH: the TypeScript client's tests need Node.js 20 or later")
    node_packages(CLIENT)
    if not TSC.exists():
        pytest.fail(f"npm ci in {CLIENT} installed no {TSC.relative_to(CLIENT)}: is typescript "
                    "still in its package-lock.json?", pytrace=False)
    return path


def run(args: list[str], timeout: float, **kwargs) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(args, cwd=CLIENT, capture_output=True, text=True, timeout=timeout,
                            **kwargs)
    assert result.returncode == 0, (f"{' '.join(args)} exited {result.returncode}\n"
                                    f"{result.stdout[-8000:]}\n{result.stderr[-4000:]}")
    return result


def generate(out: Path) -> None:
    """``scripts/generate.mjs`` run on this cardcore (what ``npm run types`` does before a
    build): the types come from the registry, never committed per game."""
    env = {**os.environ, "PYTHON": sys.executable,
           "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    run([node(), "scripts/generate.mjs", "--out", str(out)], timeout=120, env=env)


@pytest.fixture(scope="module", autouse=True)
def generated_types():
    """src/generated/ written from this cardcore, as the build writes it (it is not in git)."""
    generate(CLIENT / "src" / "generated")


def test_generated_types_follow_the_registry(tmp_path):
    """One module per registered game besides the shared ones, and the game list is the
    registry's: a new game needs no file here."""
    generate(tmp_path)
    fresh = {p.name: p.read_text() for p in tmp_path.glob("*.ts")}
    games = available_games()
    assert set(fresh) == {"openapi.ts", "games.ts", "cards.ts", "shared.ts",
                          *(f"{game}.ts" for game in games)}
    assert f"export const GAMES = {json.dumps(list(games), separators=(',', ':'))} as const;" \
        in fresh["games.ts"]
    for game in games:
        pascal = "".join(w.capitalize() for w in game.split("_"))
        assert f"export type {pascal}Event =" in fresh[f"{game}.ts"]
    ignored = subprocess.run(["git", "check-ignore", "-q", "src/generated/games.ts"], cwd=CLIENT)
    assert ignored.returncode == 0, "src/generated/ is written at build time, not committed"


def test_types_compile_strict():
    run([node(), str(TSC), "--noEmit", "--strict", "-p", "tsconfig.json"], timeout=180)


def test_client_plays_every_game(tmp_path):
    """Compiled, the client's tests: the scripted-socket unit tests, then a complete match of
    every game against a live server (seat 0 over WebSocket, seat 1 over HTTP, bots, a
    spectator; every push in order; a dropped socket resumed from `since`), patches applied
    equal to whole states, and the socket's status and queue through a server killed and
    started again (a server of that test's own)."""
    out = tmp_path / "dist"
    run([node(), str(TSC), "-p", "tsconfig.json", "--outDir", str(out)], timeout=180)
    server = ServerProcess(tmp_path / "t.sqlite3", extra=(
        "--create-rate", "1000", "--create-burst", "1000", "--message-rate", "1000",
        "--synchronous", "normal", "--log-level", "warning"))
    try:
        # Node 20's global WebSocket is behind a flag (Node 22 has it by default).
        flags = ["--experimental-websocket"] if _node_major() < 22 else []
        result = run([node(), *flags, "--test", "--test-reporter=spec",
                      str(out / "test" / "socket.test.js"), str(out / "test" / "play.test.js"),
                      str(out / "test" / "takeback.test.js"),
                      str(out / "test" / "seats.test.js"), str(out / "test" / "patches.test.js"),
                      str(out / "test" / "connection.test.js")],
                     timeout=180, env={**os.environ, "CARDCORE_URL": server.base,
                                       "CARDCORE_SHORT_MATCHES": short_matches(),
                                       # connection.test.ts starts and kills its own server
                                       "PYTHON": sys.executable,
                                       "PYTHONPATH": SRC + os.pathsep
                                       + os.environ.get("PYTHONPATH", "")})
        assert "Traceback" not in server.log_text()
    finally:
        server.stop()
    # Every test ran and passed (none skipped or cancelled), a match of each game among them.
    summary = dict(re.findall(r"^ℹ (\w+) (\d+)$", result.stdout, re.M))
    assert int(summary["tests"]) >= 14 and summary["pass"] == summary["tests"], summary
    for game in available_games():
        assert re.search(f"✔ a complete {game} match through the client", result.stdout)
    assert re.search("✔ take-backs rewind every socket of the table", result.stdout)
    assert "✔ open seats claimed by name, presence, leave and rematch" in result.stdout
    assert "✔ patches applied give the whole states, for a whole match" in result.stdout
    assert re.search("✔ status through a server restart; a move sent while reconnecting is "
                     "answered once", result.stdout)
    assert "✔ a move sent while reconnecting is queued, sent once, and answered once" \
        in result.stdout


def short_matches() -> str:
    """Every game's short match (``Game.short_match``) for test/play.test.ts, as JSON."""
    return json.dumps({cls.name: {"players": cls.short_match.players,
                                  "options": dict(cls.short_match.options)}
                       for cls in game_classes()})


def _node_major() -> int:
    version = subprocess.run([node(), "--version"], capture_output=True, text=True).stdout
    return int(version.lstrip("v").split(".")[0])
