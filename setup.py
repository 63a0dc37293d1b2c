"""Build the Cython extensions. Static metadata lives in pyproject.toml."""
import os
import shutil
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

SRC = Path("src")

# The rulebooks (games/*.md) are the single source; the package carries a copy so that
# `cardcore rules <game>` works from an installed wheel.
rulebooks = SRC / "cardcore" / "rulebooks"
rulebooks.mkdir(exist_ok=True)
for book in Path("games").glob("*.md"):
    shutil.copyfile(book, rulebooks / book.name)

# Every .pyx under src/cardcore is one extension module named after its path.
# Development aid: CARDCORE_ONLY=cardcore._fast,cardcore.games._kings_stakes builds a subset.
only = {m for m in os.environ.get("CARDCORE_ONLY", "").split(",") if m}


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(SRC).with_suffix("").parts)


extensions = [
    Extension(module_name(p), [str(p)])
    for p in sorted(SRC.glob("cardcore/**/*.pyx"))
    if not only or module_name(p) in only
]

trace = os.environ.get("CARDCORE_CYTHON_TRACE") == "1"
directives = {"language_level": "3", "embedsignature": True, "linetrace": trace}

setup(ext_modules=cythonize(extensions, compiler_directives=directives, include_path=["src"]))
