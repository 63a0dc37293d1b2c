"""How to install one of cardcore's extras (pyproject.toml's optional dependencies), said so
that the command works where this cardcore came from.

cardcore is not on the package index, so ``pip install "cardcore[server]"`` finds nothing.
From a checkout (this module under ``<root>/src/cardcore`` beside ``<root>/pyproject.toml``)
pip installs the extra from the tree: ``pip install "<root>[server]"``, which is
``pip install ".[server]"`` in it. An installed cardcore knows its extras' requirements from
its own metadata, so the hint names those packages.
"""
from __future__ import annotations

import re
from importlib import metadata
from pathlib import Path

__all__ = ["install_hint", "checkout_root"]

_EXTRA_MARKER = re.compile(r"""extra\s*==\s*['"]([^'"]+)['"]""")


def checkout_root() -> Path | None:
    """The source tree this cardcore is imported from, or None for an installed package."""
    root = Path(__file__).resolve().parents[2]
    if (root / "pyproject.toml").is_file() and (root / "src" / "cardcore").is_dir():
        return root
    return None


def _requirements(extra: str) -> list[str]:
    """The installed cardcore's requirements for ``extra`` (their other markers dropped:
    pip is told the packages, it checks the Python version itself)."""
    try:
        requires = metadata.requires("cardcore") or []
    except metadata.PackageNotFoundError:
        return []
    found = []
    for line in requires:
        spec, _sep, marker = line.partition(";")
        if extra in _EXTRA_MARKER.findall(marker):
            found.append(spec.strip().replace(" ", ""))
    return found


def install_hint(extra: str) -> str:
    """The pip command that installs ``extra`` here: ``pip install "/path/to/cardcore[server]"``
    from a checkout, the extra's packages for an installed cardcore."""
    root = checkout_root()
    if root is not None:
        return f'pip install "{root}[{extra}]" (in the checkout: pip install ".[{extra}]")'
    packages = _requirements(extra)
    if packages:
        return "pip install " + " ".join(f'"{p}"' for p in packages)
    return f'pip install ".[{extra}]" in a checkout of cardcore'
