"""Install hints that work where cardcore came from (issue 35, item 6): cardcore is not on
the package index, so ``pip install "cardcore[server]"`` is never the hint."""
from __future__ import annotations

from pathlib import Path

import pytest

import cardcore
from cardcore import extras
from cardcore.cli import main


def test_a_checkout_installs_the_extra_from_its_tree():
    root = extras.checkout_root()
    assert root is not None and (root / "pyproject.toml").is_file()   # tests run from one
    assert root == Path(cardcore.__file__).resolve().parents[2]
    hint = extras.install_hint("server")
    assert hint == f'pip install "{root}[server]" (in the checkout: pip install ".[server]")'
    from pip._internal.req.constructors import install_req_from_line   # pip reads it so
    req = install_req_from_line(hint.split('"')[1])
    assert req.extras == {"server"} and req.link.url == root.as_uri()


def test_an_installed_package_names_the_extras_packages(monkeypatch):
    monkeypatch.setattr(extras, "checkout_root", lambda: None)
    monkeypatch.setattr(extras.metadata, "requires", lambda name: [
        "numpy>=1.22", 'starlette>=0.37; extra == "server"',
        'uvicorn[standard] >= 0.29 ; extra == "server"', 'ray>=2.9; extra == "ray"',
        "open_spiel>=2.0; python_version >= \"3.11\" and extra == 'openspiel'"])
    assert extras.install_hint("server") == 'pip install "starlette>=0.37" ' \
                                            '"uvicorn[standard]>=0.29"'
    assert extras.install_hint("openspiel") == 'pip install "open_spiel>=2.0"'
    assert "cardcore[" not in extras.install_hint("ray")


def test_without_metadata_the_hint_says_to_use_a_checkout(monkeypatch):
    monkeypatch.setattr(extras, "checkout_root", lambda: None)

    def missing(name):
        raise extras.metadata.PackageNotFoundError(name)
    monkeypatch.setattr(extras.metadata, "requires", missing)
    assert extras.install_hint("plot") == 'pip install ".[plot]" in a checkout of cardcore'


@pytest.mark.parametrize("args, module, extra", [
    (["serve", "--port", "8123"], "cardcore.server", "server"),
    (["tournament", "kings_stakes", "--bots", "greedy,random", "-n", "2", "--out", "x"],
     "matplotlib", "plot"),
])
def test_the_commands_give_the_hint(args, module, extra, monkeypatch, capsys, tmp_path):
    import sys
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, module, None)             # as if not installed
    assert main(args) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert f'pip install ".[{extra}]"' in err and f'cardcore[{extra}]"' not in err
