"""Install hints that work where cardcore came from (issue 35, item 6): cardcore is not on
the package index, so ``pip install "cardcore[server]"`` is never the hint."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import cardcore
from cardcore import extras
from cardcore.cli import main

PIP_READS = """import json, sys
from pip._internal.req.constructors import install_req_from_line
req = install_req_from_line(sys.argv[1])
print(json.dumps([sorted(req.extras), req.link.url]))"""


def fake_checkout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A source tree that ``cardcore.extras`` believes it was imported from (the suite also
    runs against an installed wheel, which is in no checkout)."""
    root = tmp_path / "tree"
    (root / "src" / "cardcore").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'cardcore'\n", encoding="utf-8")
    monkeypatch.setattr(extras, "__file__", str(root / "src" / "cardcore" / "extras.py"))
    return root


def test_the_checkout_is_found_only_when_cardcore_is_imported_from_one():
    installed = "site-packages" in Path(cardcore.__file__).resolve().parts
    root = extras.checkout_root()
    if installed:
        assert root is None
    else:
        assert root == Path(cardcore.__file__).resolve().parents[2]
        assert (root / "pyproject.toml").is_file()


def test_a_checkout_installs_the_extra_from_its_tree(tmp_path, monkeypatch):
    root = fake_checkout(tmp_path, monkeypatch)
    assert extras.checkout_root() == root
    hint = extras.install_hint("server")
    assert hint == f'pip install "{root}[server]" (in the checkout: pip install ".[server]")'
    # pip reads it so; asked in a process of its own, since pip's import of distutils in
    # this one would break setuptools' in a later build here (tests/test_team_zones.py's)
    read = subprocess.run([sys.executable, "-c", PIP_READS, hint.split('"')[1]],
                          capture_output=True, text=True, check=True)
    assert json.loads(read.stdout) == [["server"], root.as_uri()]


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
    fake_checkout(tmp_path, monkeypatch)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setitem(sys.modules, module, None)             # as if not installed
    assert main(args) == 2
    err = " ".join(capsys.readouterr().err.split())
    assert f'pip install ".[{extra}]"' in err and f'cardcore[{extra}]"' not in err
