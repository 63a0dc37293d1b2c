"""libcardcore, the rules as a C library (src/cardcore/core/cardcore.h): built by its one
documented command (``make -C src/cardcore/core``), its C tests run (hostile input and a
failing allocator included), and the parity corpus (tests/parity/corpus.py, generated here
from Python) replayed through the native library by ctypes and through the WebAssembly
engine (clients/engine) in Node (the whole corpus) and in Chromium (a sample, every
configuration in it): the same deals, legal ids, labels, observation tensors and returns at
every step.

The games checked are those the library registers (every game whose folder has a C
kernel); a game still wholly in Cython is not in it, and the test says which."""
from __future__ import annotations

import ctypes
import fcntl
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import cardcore
from cardcore.errors import ConfigError

sys.path.insert(0, str(Path(__file__).resolve().parent / "parity"))
from corpus import make_corpus, refused_ids, returns_hex, step_digest  # noqa: E402
from node_packages import node_packages  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "src" / "cardcore" / "core"
ENGINE = ROOT / "clients" / "engine"
PER_CONFIG = int(os.environ.get("CARDCORE_PARITY_GAMES", "50"))   # seeded matches per configuration (>= 50 in CI)
BROWSER_PER_CONFIG = 2       # of those, replayed in Chromium too (the whole corpus in Node)

pytestmark = pytest.mark.slow      # a C build, and the corpus: out of the quick loop


def _make(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    if shutil.which("make") is None or shutil.which("cc") is None:
        pytest.fail("make and a C compiler are needed to build libcardcore", pytrace=False)
    result = subprocess.run(["make", "-s", "-C", str(CORE), *args], capture_output=True,
                            text=True, timeout=timeout)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    return result


@pytest.fixture(scope="module")
def out_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("libcardcore")


@pytest.fixture(scope="module")
def lib(out_dir) -> ctypes.CDLL:
    _make(f"OUT={out_dir}")
    so = ctypes.CDLL(str(out_dir / "libcardcore.so"))
    p, i, u64, i64 = ctypes.c_void_p, ctypes.c_int, ctypes.c_uint64, ctypes.c_int64
    sigs = {
        "cc_abi_version": (i, []), "cc_game_count": (i, []), "cc_game_name": (ctypes.c_char_p, [i]),
        "cc_game_new": (i, [ctypes.c_char_p, i, ctypes.c_char_p, u64, ctypes.POINTER(p),
                            ctypes.c_char_p, ctypes.c_size_t]),
        "cc_game_free": (None, [p]), "cc_game_clone": (p, [p]),
        "cc_current_player": (i, [p]), "cc_is_over": (i, [p]), "cc_num_players": (i, [p]),
        "cc_legal_actions": (i, [p, ctypes.POINTER(ctypes.c_int32), i]),
        "cc_apply": (i, [p, ctypes.c_int32, ctypes.c_char_p, ctypes.c_size_t]),
        "cc_returns": (i, [p, ctypes.POINTER(ctypes.c_double), i]),
        "cc_observation_size": (i, [p]),
        "cc_observation": (i, [p, i, ctypes.POINTER(ctypes.c_float), i]),
        "cc_greedy_action_seeded": (i, [p, u64]),
        "cc_action_label": (i, [p, ctypes.c_int32, ctypes.c_char_p, ctypes.c_size_t]),
        "cc_zone_count": (i, [p]), "cc_zone_instances": (i, [p, i]),
        "cc_zone_cards": (i, [p, i, i, ctypes.POINTER(ctypes.c_uint8), i]),
        "cc_play_random": (i64, [p, u64, i64]),
        "cc_num_actions": (i, [p]),
        "cc_refusal": (i, [p, ctypes.c_int32, ctypes.c_char_p, ctypes.c_size_t,
                           ctypes.POINTER(ctypes.c_int32), i, ctypes.POINTER(i)]),
    }
    for name, (restype, argtypes) in sigs.items():
        fn = getattr(so, name)
        fn.restype = restype
        fn.argtypes = argtypes
    return so


@pytest.fixture(scope="module")
def native_games(lib) -> list[str]:
    return [lib.cc_game_name(i).decode() for i in range(lib.cc_game_count())]


@pytest.fixture(scope="module")
def corpus(native_games, out_dir, tmp_path_factory, worker_id) -> Path:
    """Generated once per session: pytest-xdist's workers (which split this module's tests)
    share it through their common temporary folder, the first one writing it under a lock."""
    if worker_id == "master":
        folder = out_dir
    else:                                  # popen-gwN's parent: this session's, every worker's
        folder = tmp_path_factory.getbasetemp().parent
    path = folder / f"corpus-{'-'.join(native_games)}-{PER_CONFIG}.json"
    with open(folder / "corpus.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not path.exists():
            made = path.with_suffix(".part")
            made.write_text(json.dumps(make_corpus(native_games, PER_CONFIG),
                                       separators=(",", ":")))
            made.replace(path)
    return path


class Native:
    """One match through the ABI, as a caller in C would drive it. Its buffers are made once
    (the corpus's replay asks for close to a million digests: ctypes' allocations were a
    third of its time)."""

    def __init__(self, lib: ctypes.CDLL, name: str, players: int, options: dict, seed: int):
        self.lib = lib
        self.g = ctypes.c_void_p()
        err = ctypes.create_string_buffer(512)
        status = lib.cc_game_new(name.encode(), players, json.dumps(options).encode(), seed,
                                 ctypes.byref(self.g), err, 512)
        if status != 0:
            raise ConfigError(err.value.decode())
        self._ids = (ctypes.c_int32 * 4096)()
        self._label = ctypes.create_string_buffer(256)
        self._obs = (ctypes.c_float * 0)()
        self._cards = (ctypes.c_uint8 * 256)()
        self._rule = ctypes.create_string_buffer(32)
        self._args = (ctypes.c_int32 * 4)()
        self._nargs = ctypes.c_int()

    def close(self) -> None:
        self.lib.cc_game_free(self.g)

    def legal(self) -> list[int]:
        n = self.lib.cc_legal_actions(self.g, self._ids, 4096)
        return self._ids[:n]

    def label(self, action: int) -> str:
        buf = self._label
        n = self.lib.cc_action_label(self.g, action, buf, 256)
        value = buf.value
        assert n == len(value)
        return value.decode()

    def observation(self, seat: int) -> bytes:
        size = self.lib.cc_observation_size(self.g)
        if len(self._obs) != size:
            self._obs = (ctypes.c_float * size)()
        assert self.lib.cc_observation(self.g, seat, self._obs, size) == size
        return bytes(self._obs)

    def zones(self) -> list[bytes]:
        out = []
        lib, g, buf = self.lib, self.g, self._cards
        for z in range(lib.cc_zone_count(g)):
            for i in range(lib.cc_zone_instances(g, z)):
                n = lib.cc_zone_cards(g, z, i, buf, 256)
                out.append(bytes(buf)[:n])
        return out

    def refusal(self, action: int) -> tuple[int, int, str, list[int]]:
        reason = self.lib.cc_refusal(self.g, action, self._rule, 32, self._args, 4,
                                     ctypes.byref(self._nargs))
        assert reason >= 0, (action, reason)
        return (action, reason, self._rule.value.decode(), self._args[:self._nargs.value])

    def digest(self) -> str:
        ids = self.legal()
        players = self.lib.cc_num_players(self.g)
        refused = refused_ids(ids, self.lib.cc_num_actions(self.g))
        return step_digest(self.lib.cc_current_player(self.g), ids,
                           [self.label(a) for a in ids],
                           [self.observation(p) for p in range(players)], self.zones(),
                           [self.refusal(a) for a in refused])

    def returns(self) -> list[float]:
        buf = (ctypes.c_double * 64)()
        n = self.lib.cc_returns(self.g, buf, 64)
        return list(buf[:n])


def test_c_tests_pass_plain_and_with_a_failing_allocator(out_dir):
    """tests/c/test_abi.c: every registered game played to the end with the contract
    checked at every step, hostile input at every entry point, and (the second binary)
    every allocation failing in turn: error codes, no crash, nothing leaked."""
    result = _make("test", f"OUT={out_dir}")
    tallies = [line for line in result.stdout.splitlines() if line.endswith(" failed")]
    assert len(tallies) == 2 and all(t.endswith(" 0 failed") for t in tallies), result.stdout


def test_only_the_abi_is_exported(lib, out_dir):
    nm = shutil.which("nm")
    if nm is None:
        pytest.fail("nm (binutils) is needed", pytrace=False)
    out = subprocess.run([nm, "-D", "--defined-only", str(out_dir / "libcardcore.so")],
                         capture_output=True, text=True, check=True).stdout
    names = {line.split()[-1] for line in out.splitlines() if line.strip()}
    assert names and all(n.startswith("cc_") for n in names), sorted(names)
    header = (CORE / "cardcore.h").read_text()
    assert all(f"{n}(" in header for n in names)


def test_the_library_registers_the_games_with_c_kernels(native_games):
    with_kernels = sorted(p.parent.name for p in (ROOT / "src" / "cardcore" / "games").glob("*/kernel.c"))
    assert sorted(native_games) == with_kernels
    assert set(native_games) <= set(cardcore.available_games())


def test_native_library_replays_the_corpus_byte_for_byte(lib, corpus):
    data = json.loads(corpus.read_text())
    steps = 0
    for case in data["cases"]:
        game = Native(lib, case["game"], case["players"], case["options"], case["seed"])
        try:
            for k, want in enumerate(case["steps"]):
                got = game.digest()
                assert got == want, (case["game"], case["options"], case["seed"], "step", k)
                if k < len(case["actions"]):
                    assert lib.cc_apply(game.g, case["actions"][k], None, 0) == 0
            assert returns_hex(game.returns()) == case["returns"], (case["game"], case["seed"])
            steps += len(case["steps"])
        finally:
            game.close()
    print(f"corpus: {len(data['cases'])} matches, {steps} steps, "
          f"{corpus.stat().st_size} bytes")


def test_greedy_choice_is_pythons(lib, native_games):
    """cc_greedy_action_seeded(g, s) is GameState.greedy_move(Random(s))."""
    from cardcore._fast import Random
    for name in native_games:
        game = cardcore.new_game(name, seed=11)
        native = Native(lib, name, game.num_players, {}, 11)
        try:
            for step in range(60):
                if game.is_over:
                    break
                want = game._state.greedy_move(Random(step))
                assert lib.cc_greedy_action_seeded(native.g, step) == want, (name, step)
                action = game.legal_action_ids()[step % len(game.legal_action_ids())]
                game.apply(action)
                assert lib.cc_apply(native.g, action, None, 0) == 0
        finally:
            native.close()


def test_options_are_checked_as_python_checks_them(lib, native_games):
    """Every option's default, each value of a choice, and values out of range: the C ABI
    accepts what Python accepts (with the same deal) and refuses what Python refuses, its
    error naming the option."""
    from cardcore.registry import game_class
    for name in native_games:
        cls = game_class(name)
        for config in cls.conformance_configs:
            config = dict(config)
            players = config.pop("players", cls.default_players)
            py = cardcore.new_game(name, players=players, seed=5, **config)
            native = Native(lib, name, players, config, 5)
            try:
                assert native.zones() == py._state.zone_bytes(), (name, config)
            finally:
                native.close()
        for option in cls.options_spec:
            for bad in ("nonsense", -7, 10**9, 1.5, [1]):
                try:
                    cardcore.new_game(name, seed=1, **{option: bad})
                    python_ok = True
                except (ConfigError, ValueError, TypeError):
                    python_ok = False
                try:
                    Native(lib, name, 0, {option: bad}, 1).close()
                    c_ok = True
                except ConfigError as e:
                    c_ok = False
                    assert option in str(e) or "options" in str(e), str(e)
                assert python_ok == c_ok, (name, option, bad)


def test_an_illegal_id_changes_nothing_and_says_why(lib, native_games):
    for name in native_games:
        native = Native(lib, name, 0, {}, 3)
        try:
            before = native.digest()
            err = ctypes.create_string_buffer(128)
            assert lib.cc_apply(native.g, 10**6, err, 128) == -3
            assert b"action 1000000" in err.value
            assert native.digest() == before
            refused = refused_ids(native.legal(), lib.cc_num_actions(native.g))[0]
            assert lib.cc_apply(native.g, refused, err, 128) == -3
            assert err.value.decode() == native.refusal(refused)[2]     # exactly the rule ID
            assert native.digest() == before
        finally:
            native.close()
    with pytest.raises(ConfigError, match="unknown game"):
        Native(lib, "x" * 500, 0, {}, 1)


def test_view_json_is_pythons_zones_view(lib, native_games):
    """cc_view_json(g, seat) parses to Python's view(seat)["zones"] for every seat and a
    spectator, along a match (the games that split a zone into parts in Python excepted:
    the C gives such a zone whole)."""
    from cardcore.registry import game_class
    lib.cc_view_json.restype = ctypes.c_int
    lib.cc_view_json.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_size_t]
    checked = 0
    for name in native_games:
        if game_class(name).split_zones:
            continue
        game = cardcore.new_game(name, seed=21)
        native = Native(lib, name, game.num_players, {}, 21)
        try:
            for step in range(80):
                for seat in [None, *range(game.num_players)]:
                    n = lib.cc_view_json(native.g, -1 if seat is None else seat, None, 0)
                    buf = ctypes.create_string_buffer(n + 1)
                    assert lib.cc_view_json(native.g, -1 if seat is None else seat, buf, n + 1) == n
                    assert json.loads(buf.value) == game.view(seat)["zones"], (name, step, seat)
                    checked += 1
                if game.is_over:
                    break
                action = game.legal_action_ids()[(7 * step) % len(game.legal_action_ids())]
                game.apply(action)
                assert lib.cc_apply(native.g, action, None, 0) == 0
        finally:
            native.close()
    assert checked > 0


@pytest.fixture(scope="module")
def engine_dist() -> Path:
    """clients/engine built as its README says: npm ci, npm run build (the wasm by clang)."""
    npm = shutil.which("npm")
    if npm is None:
        pytest.fail("npm is not on PATH: the engine's tests need Node.js 20 and npm", pytrace=False)
    node_packages(ENGINE)
    result = subprocess.run([npm, "run", "build"], cwd=ENGINE, capture_output=True, text=True,
                            timeout=600)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-4000:]
    return ENGINE / "dist"


def test_wasm_in_node_replays_the_corpus(engine_dist, corpus):
    result = subprocess.run(["npm", "test"], cwd=ENGINE, capture_output=True, text=True,
                            timeout=1200, env={**os.environ, "CORPUS": str(corpus)})
    out = result.stdout + result.stderr
    assert result.returncode == 0, out[-6000:]
    assert "# fail 0" in out and "# skipped 0" in out and "parity corpus:" in out, out[-3000:]


def browser_sample(cases: list[dict]) -> list[dict]:
    """The first BROWSER_PER_CONFIG cases of every configuration (game, players, options)."""
    taken: dict[str, int] = {}
    out = []
    for case in cases:
        key = json.dumps([case["game"], case["players"], case["options"]], sort_keys=True)
        if taken.get(key, 0) < BROWSER_PER_CONFIG:
            taken[key] = taken.get(key, 0) + 1
            out.append(case)
    return out


def test_wasm_in_chromium_replays_the_corpus(engine_dist, corpus, browser, tmp_path):
    """The same module in a page of Debian's Chromium, served over HTTP, hashed by the page's
    SubtleCrypto: a sample of the corpus, every configuration of every game in it. Node and
    Chromium run the same .wasm on the same engine (V8), which replays the whole corpus in
    Node (and the native library in C); what only the page proves (its loading, fetch and
    SubtleCrypto) takes the sample, in a twentieth of the whole corpus's time."""
    import functools
    import http.server
    import threading
    site = tmp_path / "site"
    shutil.copytree(engine_dist, site)
    data = json.loads(corpus.read_text())
    sample = browser_sample(data["cases"])
    configs = {json.dumps([c["game"], c["players"], c["options"]], sort_keys=True)
               for c in data["cases"]}
    assert len(sample) == min(BROWSER_PER_CONFIG, PER_CONFIG) * len(configs)
    (site / "corpus.json").write_text(json.dumps({**data, "cases": sample}))
    (site / "index.html").write_text(
        '<!doctype html><meta charset="utf-8"><title>parity</title><script type="module">\n'
        'import { loadEngine } from "./src/index.js";\n'
        'import { replay, subtleSha256 } from "./test/parity.js";\n'
        'try {\n'
        '  const engine = await loadEngine();\n'
        '  const corpus = await (await fetch("corpus.json")).json();\n'
        '  window.result = await replay(engine, corpus.cases, subtleSha256);\n'
        '} catch (e) { window.result = { error: String(e) }; }\n'
        '</script>\n')

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0),
                                            functools.partial(Quiet, directory=str(site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        page = browser.new_page()
        page.goto(f"http://127.0.0.1:{httpd.server_address[1]}/index.html")
        page.wait_for_function("window.result !== undefined", timeout=600_000)
        result = page.evaluate("window.result")
        page.close()
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert result.get("error") is None, result
    assert result["matches"] == len(sample)
    assert result["steps"] == sum(len(c["steps"]) for c in sample)


def test_csharp_example_plays_every_game_through_the_native_library(out_dir, native_games):
    """examples/csharp/Play.cs, compiled by Mono's mcs and run by mono with the library
    found by name ([DllImport("cardcore")]), as Unity finds it."""
    for tool in ("mcs", "mono"):
        if shutil.which(tool) is None:
            pytest.fail(f"{tool} is missing: apt-get install mono-mcs mono-runtime", pytrace=False)
    exe = out_dir / "play.exe"
    subprocess.run(["mcs", f"-out:{exe}", str(ROOT / "examples" / "csharp" / "Play.cs")],
                   check=True, capture_output=True, timeout=300)
    result = subprocess.run(["mono", str(exe), "3"], capture_output=True, text=True,
                            timeout=300, env={**os.environ, "LD_LIBRARY_PATH": str(out_dir)})
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert [line.split(":")[0] for line in lines] == native_games, result.stdout
    assert all(" 3 games, " in line for line in lines)


def test_wasm_keeps_most_of_the_native_speed(lib):
    """A guard, not the goal: DDS's users found their wasm 45% slower after one release. The
    same playout loop in Node and in C, alternating slices (benchmarks/wasm_ab.py, which
    measures the goal of 0.7 with more rounds); here the geometric mean must stay above 0.5,
    which no load seen here brought it near (0.65-0.71 at load 10-12, the goal's margin)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import wasm_ab
    assert wasm_ab.main(["--rounds", "3", "--seconds", "0.1", "--check", "0.5"]) == 0
