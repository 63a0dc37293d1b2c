"""The installed package carries its typing information, its rulebooks and one version."""
from __future__ import annotations

import fnmatch

from importlib import metadata, resources
from pathlib import Path

import pytest

import cardcore

REPO = Path(__file__).resolve().parent.parent


def test_version_has_one_source():
    try:
        installed = metadata.version("cardcore")
    except metadata.PackageNotFoundError:
        pytest.skip("cardcore is not installed (an in-place development build)")
    assert cardcore.__version__ == installed


def test_typing_files_are_installed():
    package = resources.files("cardcore")
    assert package.joinpath("py.typed").is_file()
    assert package.joinpath("_fast.pyi").is_file()
    for name in cardcore.available_games():
        assert package.joinpath("games", name, "_state.pyi").is_file(), name


def test_rulebooks_are_read_from_the_one_copy():
    """Installed, the rulebooks are the package cardcore.rulebooks, mapped from the top-level
    games/ folder (not copied); in a source tree that folder itself."""
    for cls in cardcore.registry.game_classes():
        text = cls.rulebook_text()
        assert f"`{cls.name}`" in text and f"{cls.rule_prefix}-1.1" in text
        source = REPO / "games" / cls.rulebook
        if source.exists():
            assert text == source.read_text(encoding="utf-8")
    installed = (REPO / "src").resolve() not in Path(cardcore.__file__).resolve().parents
    if installed:                             # an installed package carries them as a package
        package = resources.files("cardcore.rulebooks")
        assert sorted(p.name for p in package.iterdir() if p.name.endswith(".md")) == sorted(
            cls.rulebook for cls in cardcore.registry.game_classes())


def test_public_api_names():
    for name in ("new_game", "load_game", "available_games", "parse_card", "IllegalActionError",
                 "ConfigError", "Game", "Action", "simulate", "__version__"):
        assert hasattr(cardcore, name), name
    assert issubclass(cardcore.IllegalActionError, ValueError)
    assert issubclass(cardcore.ConfigError, ValueError)


def test_the_web_table_is_packaged_and_identical_to_the_repository():
    package = resources.files("cardcore").joinpath("server").joinpath("static")
    source = REPO / "src" / "cardcore" / "server" / "static"
    names = ["index.html", "table.html", "style.css", "table.js", "lobby.js", "cards.js",
             "words.js", "board.js", "i18n.js", "seats.js"]
    for name in names:
        packaged = package.joinpath(name).read_text(encoding="utf-8")
        assert packaged, name
        if source.exists():
            assert packaged == (source / name).read_text(encoding="utf-8"), name
    if source.exists():
        assert sorted(p.name for p in source.iterdir() if p.is_file()) == sorted(names)
    # Each game's own parts, and its shipped schemas, are in its package.
    for cls in cardcore.registry.game_classes():
        home = resources.files(cls.__module__)
        assert "export const layout" in home.joinpath("web").joinpath("board.js").read_text(encoding="utf-8")
        for kind in cardcore.schemas.KINDS:            # record.json too
            assert home.joinpath("schemas").joinpath(f"{kind}.json").is_file(), (cls.name, kind)


# What a game's folder holds only as source: the catalogs' sources (their .mo is shipped), the
# Cython sources and what Cython generates.
SOURCE_ONLY = (".py", ".pyx", ".c", ".po", ".pot")


def _pyproject() -> dict:
    try:
        import tomllib
    except ImportError:                              # Python < 3.11: mypy's dependency
        import tomli as tomllib
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))


def _package_data_globs() -> list[str]:
    return _pyproject()["tool"]["setuptools"]["package-data"]["cardcore"]


def _glob_matches(relative: str, glob: str) -> bool:
    """setuptools' reading of a package-data glob: part by part, ``*`` within one part."""
    parts, globs = relative.split("/"), glob.split("/")
    return len(parts) == len(globs) and all(fnmatch.fnmatchcase(p, g) for p, g in zip(parts, globs))


def test_every_file_of_a_game_package_is_installed():
    """A game's data files (levels, how-to pages, schemas, layout) are read at run time and by
    the docs build from the installed package: a file kept in the repository's game folder but
    left out of package-data (0.4's levels.md) fails here, not in a wheel's docs build. Each
    one is named by a package-data glob, and where cardcore is installed (the suite's pip
    install, the wheel), it is there."""
    installed = (REPO / "src").resolve() not in Path(cardcore.__file__).resolve().parents
    globs = _package_data_globs()
    checked = 0
    for cls in cardcore.registry.game_classes():
        source = REPO / "src" / Path(*cls.__module__.split(".")[:3])
        if not source.is_dir():
            continue                                 # a game from another distribution
        home = resources.files(".".join(cls.__module__.split(".")[:3]))
        for path in sorted(source.rglob("*")):
            if path.is_file() and path.suffix not in SOURCE_ONLY and "__pycache__" not in path.parts \
                    and not path.name.endswith(".so"):
                relative = path.relative_to(REPO / "src" / "cardcore").as_posix()
                assert any(_glob_matches(relative, g) for g in globs), (cls.name, relative)
                if installed:
                    assert home.joinpath(*path.relative_to(source).parts).is_file(), \
                        (cls.name, relative)
                checked += 1
    assert checked >= 5 * len(cardcore.registry.game_classes())


def test_the_dev_extra_holds_the_build_requirements():
    """CONTRIBUTING's venv (pip install -e ".[dev]") can run python setup.py build_ext
    --inplace: [dev] holds what [build-system] requires, and the test tools."""
    project = _pyproject()
    dev = project["project"]["optional-dependencies"]["dev"]
    assert set(project["build-system"]["requires"]) <= set(dev)
    assert "cardcore[test]" in dev
    test = {r.split(">")[0].split("[")[0] for r in project["project"]["optional-dependencies"]["test"]}
    assert {"ruff", "pytest-xdist"} <= test
