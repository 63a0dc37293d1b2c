"""``cardcore new-game``: the scaffold writes a game that passes the contract and the generic
suite as written (issue 34, docs/adding-a-game.md "Start from the scaffold").

The slow tests copy the source tree into a temporary folder and generate a game there with the
public command (once, for both). The first compiles the game's module alone and runs, in a
fresh interpreter (the registry discovers the game as it discovers every game), the game's own
tests and every case of the suite parametrized over the games (contract, rule IDs named by
tests, zones and moves, random playouts with invariants, JSON round trips and schemas, texts
and catalogs in English and Russian, bot levels, vector opponents, server, adapters) on the
game's first configuration, then the checks across all games. The second builds the C
library's two other targets from the same tree, the native library and WebAssembly (its C
kernel beside every other game's), and plays the new game to its end through the native
library's ABI.
"""
from __future__ import annotations

import ctypes
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import cardcore

from cardcore.cli import main
from cardcore.errors import ConfigError
from cardcore.scaffold import new_game, plan, Scaffold

ROOT = Path(__file__).resolve().parents[1]
NAME, TITLE, PREFIX = "sample_game", "Sample Game", "SG"

# The whole suite runs on the generated game, selected by -k NAME (its own tests and every case
# the generic tests parametrize over the games), but for the suites that need a browser or a
# PostgreSQL cluster (CI runs those for the real games), and on its first configuration only
# (-m "not later_config", tests/conftest.py). The template is Crazy Eights under other names
# (test_the_template_is_crazy_eights_under_other_names), whose every configuration the suite
# runs; what the scaffold can break (a name, a prefix, a catalog, a registration) breaks the
# first configuration too. The later ones were 458 of the 838 cases, half the run's CPU time.
LEFT_OUT = ["--ignore-glob=tests/test_*browser*.py", "--ignore-glob=tests/test_server_pg*.py",
            "--ignore=tests/test_scaffold.py", "-m", "not later_config"]


def test_the_scaffold_plans_the_three_places_with_every_name_put_in(tmp_path):
    files = plan(Scaffold(NAME, TITLE, PREFIX, "Игра Sample Game"), tmp_path)
    rel = {p.relative_to(tmp_path).as_posix() for p in files}
    assert f"games/{NAME}.md" in rel
    for piece in ("__init__.py", "kernel.c", "kernel.h", "_state.pyx", "_state.pyi", "words.py",
                  "howto.en.md", "howto.ru.md", "levels.md", "locale/ru/LC_MESSAGES/messages.po",
                  "web/board.js"):
        assert f"src/cardcore/games/{NAME}/{piece}" in rel, piece
    assert f"tests/games/{NAME}/test_{NAME}_rules.py" in rel
    assert f"tests/games/{NAME}/sg_helpers.py" in rel
    assert f"tests/games/{NAME}/cases.py" in rel          # its scenarios for the generic tests
    for path, text in files.items():
        assert "{{" not in text and "games.crazy_eights" not in text, path
        assert "cardcore/games/crazy_eights" not in text and "CRAZY_EIGHTS" not in text, path
        assert not re.search(r"\bCE-\d", text), path
        # The C names carry the game's prefix (every kernel links into one library).
        assert not re.search(r"\b(?:CE_|ce_|CEState|CEOptions)", text), path
    package = tmp_path / "src" / "cardcore" / "games" / NAME
    kernel, header = files[package / "kernel.c"], files[package / "kernel.h"]
    assert f'#include "cardcore/games/{NAME}/kernel.h"' in kernel
    assert re.search(r"^const GameKernel SG_KERNEL = \{", kernel, re.M)     # the Makefile's find
    assert f'.name = "{NAME}",' in kernel and "const GameHooks SG_HOOKS = {" in kernel
    assert "#ifndef CARDCORE_SG_KERNEL_H" in header and "} SGState;" in header
    assert "int sg_init(void *state" in header
    assert f'cdef extern from "cardcore/games/{NAME}/kernel.h"' in files[package / "_state.pyx"]
    book = files[tmp_path / "games" / f"{NAME}.md"]
    assert len(set(re.findall(r"\bSG-\d+(?:\.\d+)?\b", book))) >= 21


# What the template may say that Crazy Eights does not: the note that it is a scaffold, and
# a catalog's creation date. cases.py is left out: Crazy Eights' has the optional scenarios
# the template's leaves to their defaults.
SCAFFOLD_NOTE = re.compile(r"^(?:> \*\*Scaffold\*\*|Scaffold \(``cardcore new-game``\)).*?\n\n",
                           re.M | re.S)
CREATED = re.compile(r'^"POT-Creation-Date: .*\n', re.M)


def test_the_template_is_crazy_eights_under_other_names():
    """The template is Crazy Eights with its names taken out: filled in with Crazy Eights'
    names it gives Crazy Eights' files, so a fix to one is made to both (the template had
    drifted: old catalogs, seat lines and how-to pages)."""
    catalog = (ROOT / "src/cardcore/games/crazy_eights/locale/ru/LC_MESSAGES/messages.po")
    title_ru = re.search(r'msgid "Crazy Eights"\nmsgstr "([^"]+)"', catalog.read_text()).group(1)
    files = plan(Scaffold("crazy_eights", "Crazy Eights", "CE", title_ru), ROOT)
    compared = 0
    for path, text in files.items():
        if path.name == "cases.py":
            continue
        expected = CREATED.sub("", path.read_text(encoding="utf-8"))
        assert CREATED.sub("", SCAFFOLD_NOTE.sub("", text)) == expected, path
        compared += 1
    assert compared >= 30


@pytest.mark.parametrize("args, bad", [
    (["Bad"], "NAME"), (["1game"], "NAME"), (["class"], "NAME"),
    ([NAME, "--prefix", "sg"], "--prefix"), ([NAME, "--prefix", "SGX"], "--prefix"),
    ([NAME, "--prefix", "CC"], "--prefix"),                 # the C library's own (cc_*)
    ([NAME, "--title", 'a "b"'], "--title"),
    ([NAME, "--title", "Same", "--title-ru", "Same"], "--title-ru"),
])
def test_new_game_refuses_bad_names_and_writes_nothing(tmp_path, args, bad, capsys):
    assert main(["new-game", *args, "--dest", str(tmp_path)]) == 2
    assert bad in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


def test_new_game_refuses_a_place_that_exists(tmp_path):
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / f"{NAME}.md").write_text("mine", encoding="utf-8")
    with pytest.raises(ConfigError, match="already exists"):
        new_game(NAME, dest=tmp_path)
    assert (tmp_path / "games" / f"{NAME}.md").read_text(encoding="utf-8") == "mine"
    assert not (tmp_path / "src").exists()


def test_new_game_refuses_a_prefix_another_kernel_has(tmp_path):
    """The kernels link into one library: a prefix another kernel's names carry is taken."""
    other = tmp_path / "src" / "cardcore" / "games" / "other"
    other.mkdir(parents=True)
    (other / "kernel.c").write_text("const GameKernel SG_KERNEL = {0};\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="SG is taken"):
        new_game(NAME, dest=tmp_path, prefix=PREFIX)
    assert not (tmp_path / "src" / "cardcore" / "games" / NAME).exists()
    assert not (tmp_path / "games").exists() and not (tmp_path / "tests").exists()
    assert new_game(NAME, dest=tmp_path, prefix="SH")           # another prefix is free


def _copy_tree(dest: Path) -> None:
    # The kernels are C sources (kept); Cython's output (_*.c) is not: the build makes it.
    ignore = shutil.ignore_patterns("__pycache__", "_*.c", "build", ".pytest_cache")
    for part in ("src", "tests", "games", "docs", "examples/record_viewer"):   # (the viewer's
        shutil.copytree(ROOT / part, dest / part, ignore=ignore)              # test runs it)
    for part in ("setup.py", "pyproject.toml"):
        shutil.copy2(ROOT / part, dest / part)
    # The compiled modules and catalogs of the cardcore this run imports (an installed wheel in
    # CI, whose checkout has none; this tree's own in place), so that only the new game's
    # kernel needs building.
    built = Path(cardcore.__file__).resolve().parent
    for path in [*built.rglob("*.so"), *built.rglob("*.pyd"), *built.rglob("*.mo")]:
        target = dest / "src" / "cardcore" / path.relative_to(built)
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)


def _run(tree: Path, *cmd: str, **extra: str) -> subprocess.CompletedProcess[str]:
    """A command in the copied tree, importing its cardcore."""
    env = {**os.environ, "PYTHONPATH": str(tree / "src"), **extra}
    return subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True, timeout=1800)


@pytest.fixture(scope="module")
def generated(tmp_path_factory) -> Path:
    """A copy of the source tree with the game written into it by the public command (what the
    slow tests share; each builds what it needs)."""
    tree = tmp_path_factory.mktemp("scaffold") / "tree"
    _copy_tree(tree)
    made = _run(tree, sys.executable, "-m", "cardcore", "new-game", NAME, "--title", TITLE,
                "--prefix", PREFIX)
    assert made.returncode == 0, made.stderr
    return tree


@pytest.mark.slow
def test_the_generated_game_passes_the_generic_suite_untouched(generated):
    tree = generated

    def run(*cmd: str, **extra: str) -> subprocess.CompletedProcess[str]:
        return _run(tree, *cmd, **extra)

    built = run(sys.executable, "setup.py", "-q", "build_ext", "--inplace",
                CARDCORE_ONLY=f"cardcore.games.{NAME}._state")
    assert built.returncode == 0, built.stderr[-3000:]
    # The golden playthroughs are recorded, not shipped (they are the game's own output).
    recorded = run(sys.executable, "tests/playthroughs.py", NAME)
    assert recorded.returncode == 0 and "wrote" in recorded.stdout, recorded.stderr[-3000:]
    listed = run(sys.executable, "-m", "cardcore", "games")
    assert listed.returncode == 0 and NAME in listed.stdout, listed.stderr
    # The other games' own folders hold no test of this game: not even collected (a third of
    # the collection's time).
    others = [f"--ignore=tests/games/{p.name}" for p in (tree / "tests" / "games").iterdir()
              if p.is_dir() and p.name != NAME]
    assert others and (tree / "tests" / "games" / NAME).is_dir()
    suite = run(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-k", NAME,
                *LEFT_OUT, *others, "tests")
    tail = suite.stdout[-4000:]
    assert suite.returncode == 0, tail
    passed = int(re.search(r"(\d+) passed", tail).group(1))
    assert passed >= 300, tail          # the game's own tests and the generic cases ran
    # The checks across all games (distinct prefixes, the recipe names every requirement).
    whole = run(sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                "tests/test_contract.py", "tests/test_rulebooks.py")
    assert whole.returncode == 0, whole.stdout[-4000:]


@pytest.mark.slow
def test_the_generated_game_builds_into_the_native_library_and_webassembly(generated, tmp_path):
    """The Makefile finds the new kernel as it finds every kernel (its GameKernel definition):
    both targets build with it (its names clash with no other kernel's), and the native
    library registers it beside the others and plays it to the end."""
    if shutil.which("make") is None or shutil.which("cc") is None:
        pytest.fail("make and a C compiler are needed to build libcardcore", pytrace=False)
    built = _run(generated, "make", "-s", "-C", str(generated / "src" / "cardcore" / "core"),
                 f"OUT={tmp_path}", "native", "wasm")
    assert built.returncode == 0, built.stdout[-4000:] + built.stderr[-4000:]
    assert (tmp_path / "cardcore.wasm").read_bytes()[:4] == b"\0asm"
    lib = ctypes.CDLL(str(tmp_path / "libcardcore.so"))
    p, i, u64, i64 = ctypes.c_void_p, ctypes.c_int, ctypes.c_uint64, ctypes.c_int64
    for name, restype, argtypes in [
            ("cc_game_count", i, []), ("cc_game_name", ctypes.c_char_p, [i]),
            ("cc_game_new", i, [ctypes.c_char_p, i, ctypes.c_char_p, u64, ctypes.POINTER(p),
                                ctypes.c_char_p, ctypes.c_size_t]),
            ("cc_play_random", i64, [p, u64, i64]), ("cc_is_over", i, [p]),
            ("cc_num_players", i, [p]), ("cc_game_free", None, [p])]:
        getattr(lib, name).restype = restype
        getattr(lib, name).argtypes = argtypes
    names = [lib.cc_game_name(k).decode() for k in range(lib.cc_game_count())]
    with_kernels = sorted(path.parent.name for path in
                          (generated / "src" / "cardcore" / "games").glob("*/kernel.c"))
    assert NAME in names and len(with_kernels) > 1 and sorted(names) == with_kernels, names
    for players, seed in [(0, 1), (2, 2), (8, 3)]:          # the default 5, 2, and two decks
        g, err = p(), ctypes.create_string_buffer(512)
        status = lib.cc_game_new(NAME.encode(), players, None, seed, ctypes.byref(g), err, 512)
        assert status == 0, err.value.decode()
        try:
            assert lib.cc_num_players(g) == (players or 5)
            applied = lib.cc_play_random(g, seed, 1_000_000)
            assert 0 < applied < 1_000_000 and lib.cc_is_over(g) == 1, (players, applied)
        finally:
            lib.cc_game_free(g)
