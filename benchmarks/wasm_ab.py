"""WebAssembly in Node against the native library: random playouts of every game the library
registers, the same loop on both sides (new game, play random moves to the end, free), timed
inside each process (C's clock_gettime, Node's performance.now), in alternating slices so that
the machine's load falls on both alike. The goal (issue "One rules core for every platform"):
the geometric mean over the games of wasm's actions per second over native's is at least 0.7.

    python benchmarks/wasm_ab.py [--rounds 7] [--seconds 0.25] [--check 0.7] [--json OUT]

It builds what it runs (make -C src/cardcore/core native wasm into build/bench-wasm, and
benchmarks/playouts.c against the library) with the machine's cc and Debian's clang-19.
It also prints the sizes, raw and gzipped, of libcardcore.so and cardcore.wasm.
"""
from __future__ import annotations

import argparse
import gzip
import json
import math
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "build" / "bench-wasm"


class Driver:
    """One long-lived process that answers "GAME GAMES SEED" with "SECONDS ACTIONS"."""

    def __init__(self, args: list[str]):
        self.process = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        text=True)

    def run(self, game: str, games: int, seed: int) -> tuple[float, int]:
        assert self.process.stdin and self.process.stdout
        self.process.stdin.write(f"{game} {games} {seed}\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"{self.process.args[0]} stopped")
        seconds, actions = line.split()
        return float(seconds), int(actions)

    def close(self) -> None:
        assert self.process.stdin
        self.process.stdin.close()
        self.process.wait(timeout=60)


def build() -> tuple[Path, Path, Path]:
    subprocess.run(["make", "-s", "-C", str(ROOT / "src/cardcore/core"), "native", "wasm",
                    f"OUT={OUT}"], check=True)
    exe = OUT / "playouts"
    subprocess.run(["cc", "-std=c99", "-O2", f"-I{ROOT / 'src'}", "-o", str(exe),
                    str(ROOT / "benchmarks/playouts.c"), f"-L{OUT}", "-lcardcore",
                    f"-Wl,-rpath,{OUT}"], check=True)
    return OUT / "libcardcore.so", OUT / "cardcore.wasm", exe


def sizes(*paths: Path) -> dict[str, dict[str, int]]:
    return {p.name: {"bytes": p.stat().st_size,
                     "gzipped": len(gzip.compress(p.read_bytes(), compresslevel=9))}
            for p in paths}


def games_of(lib: Path) -> list[str]:
    import ctypes
    so = ctypes.CDLL(str(lib))
    so.cc_game_name.restype = ctypes.c_char_p
    return [so.cc_game_name(i).decode() for i in range(so.cc_game_count())]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=7, help="alternating slices per side")
    parser.add_argument("--seconds", type=float, default=0.25, help="about this long a slice")
    parser.add_argument("--check", type=float, default=None,
                        help="exit 1 if the geometric mean ratio is below this")
    parser.add_argument("--json", type=Path, default=None, help="write the figures here")
    args = parser.parse_args(argv)

    lib, wasm, exe = build()
    native = Driver([str(exe)])
    node = Driver(["node", str(ROOT / "benchmarks/playouts.mjs"), str(wasm)])
    results: dict[str, dict[str, float]] = {}
    try:
        for game in games_of(lib):
            # Size a slice from a short native run, then warm both sides up.
            seconds, _ = native.run(game, 20, 1)
            games = max(10, int(20 * args.seconds / max(seconds, 1e-6)))
            native.run(game, games // 4, 7)
            node.run(game, games // 4, 7)
            rates: dict[str, list[float]] = {"native": [], "wasm": []}
            for r in range(args.rounds):
                order = [("native", native), ("wasm", node)]
                for side, driver in (order if r % 2 == 0 else order[::-1]):
                    seconds, actions = driver.run(game, games, 1000 * r)
                    rates[side].append(actions / seconds)
            medians = {side: statistics.median(v) for side, v in rates.items()}
            results[game] = {**{f"{s}_actions_per_s": m for s, m in medians.items()},
                             "ratio": medians["wasm"] / medians["native"], "games": games}
            print(f"{game:14} native {medians['native'] / 1e6:7.2f} M actions/s   "
                  f"wasm {medians['wasm'] / 1e6:7.2f} M   wasm/native "
                  f"{results[game]['ratio']:.3f}", flush=True)
    finally:
        native.close()
        node.close()
    geomean = math.exp(statistics.mean(math.log(r["ratio"]) for r in results.values()))
    size = sizes(lib, wasm)
    print(f"geometric mean wasm/native: {geomean:.3f}")
    for name, s in size.items():
        print(f"{name}: {s['bytes']:,} bytes, {s['gzipped']:,} gzipped")
    if args.json:
        args.json.write_text(json.dumps({"games": results, "geomean": geomean, "sizes": size},
                                        indent=2))
    if args.check is not None and geomean < args.check:
        print(f"below the goal: {geomean:.3f} < {args.check}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
