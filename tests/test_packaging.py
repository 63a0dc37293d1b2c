"""The installed package carries its typing information, its rulebooks and one version."""
from __future__ import annotations

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
        assert package.joinpath("games").joinpath(f"_{name}.pyi").is_file(), name


def test_rulebooks_are_packaged_and_identical_to_the_repository():
    package = resources.files("cardcore").joinpath("rulebooks")
    for name in cardcore.available_games():
        packaged = package.joinpath(f"{name}.md").read_text(encoding="utf-8")
        assert f"`{name}`" in packaged
        source = REPO / "games" / f"{name}.md"
        if source.exists():
            assert packaged == source.read_text(encoding="utf-8")


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
             "words.js", "boards.js"]
    for name in names:
        packaged = package.joinpath(name).read_text(encoding="utf-8")
        assert packaged, name
        if source.exists():
            assert packaged == (source / name).read_text(encoding="utf-8"), name
    if source.exists():
        assert sorted(p.name for p in source.iterdir() if p.is_file()) == sorted(names)
