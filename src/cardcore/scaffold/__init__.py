"""``cardcore new-game NAME``: a new game's three places, written from the template, that pass
the contract and the generic suite as written (docs/adding-a-game.md, "Start from the scaffold").

The template (``template/``, files ending ``.tmpl``) is a complete, working game with its names
taken out (``template/rulebook.md.tmpl`` says which): a starting point that builds (its C
kernel ``kernel.c`` / ``kernel.h`` into the Python extension, the native library and
WebAssembly), registers and passes every generic check before the first rule is changed. The
new game's author then rewrites its rules one rule ID at a time, keeping the suite green.
"""
from __future__ import annotations

import keyword
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING

from cardcore.errors import ConfigError, echo

if TYPE_CHECKING:                   # importlib.resources.abc is 3.11+; this name is 3.9+
    from importlib.abc import Traversable

__all__ = ["Scaffold", "new_game"]

SUFFIX = ".tmpl"
# The C ABI's prefix (cardcore.h: cc_game_new, cc_zone_cards, ...): a kernel's names carry the
# game's prefix and link into the same library.
RESERVED_PREFIX = "CC"


@dataclass(frozen=True)
class Scaffold:
    """The names substituted into the template."""
    name: str            # package name: lower_snake_case
    title: str           # shown to players
    prefix: str          # the rule-ID prefix, two capitals; the C kernel's too (SG_HOOKS, sg_init)
    title_ru: str        # the title in the Russian catalog

    @property
    def camel(self) -> str:
        return "".join(part.capitalize() for part in self.name.split("_"))

    def substitutions(self) -> dict[str, str]:
        return {"{{name}}": self.name, "{{camel}}": self.camel, "{{title}}": self.title,
                "{{prefix}}": self.prefix, "{{title_ru}}": self.title_ru, "{{prefix_lower}}": self.prefix.lower()}

    def fill(self, text: str) -> str:
        for key, value in self.substitutions().items():
            text = text.replace(key, value)
        return text

    def path(self, relative: str) -> str:
        """A template file's path with the names put in and ``.tmpl`` taken off."""
        return (relative.replace("NAME", self.name).replace("PREFIX", self.prefix.lower())
                .removesuffix(SUFFIX))


def check_names(name: str, title: str, prefix: str) -> None:
    """ConfigError naming the bad argument (the rule the registry and the tests will hold)."""
    if not re.fullmatch(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*", name) or keyword.iskeyword(name):
        raise ConfigError(f"new-game NAME must be lower_snake_case, got {echo(name)}")
    if not re.fullmatch(r"[A-Z]{2}", prefix):
        raise ConfigError(f"new-game --prefix must be two capital letters, got {echo(prefix)}")
    if prefix == RESERVED_PREFIX:
        raise ConfigError(f"new-game --prefix {RESERVED_PREFIX} is the C library's own (cc_*), "
                          f"choose another")
    if not title.strip() or any(c in title for c in '\n"«»'):
        raise ConfigError(f"new-game --title must be one line without quotes, got {echo(title)}")


def prefix_owner(dest: Path, prefix: str) -> Path | None:
    """The kernel in the source tree at ``dest`` whose C names already carry ``prefix`` (it
    defines ``<PREFIX>_KERNEL``): every kernel links into one library, so a prefix is one
    game's."""
    pattern = re.compile(rf"^const GameKernel {prefix}_KERNEL\b", re.M)
    for kernel in sorted((dest / "src/cardcore/games").glob("*/kernel*.c")):
        if pattern.search(kernel.read_text(encoding="utf-8", errors="replace")):
            return kernel
    return None


def _walk(node: "Traversable", base: str = "") -> list[tuple[str, "Traversable"]]:
    files: list[tuple[str, "Traversable"]] = []
    for child in sorted(node.iterdir(), key=lambda c: c.name):
        rel = f"{base}{child.name}"
        if child.is_dir():
            files.extend(_walk(child, rel + "/"))
        elif child.name.endswith(SUFFIX):
            files.append((rel, child))
    return files


def plan(scaffold: Scaffold, dest: Path) -> dict[Path, str]:
    """Every file the scaffold writes under ``dest`` (a source tree's root) and its text."""
    root = resources.files("cardcore.scaffold").joinpath("template")
    places = {"package/": Path("src/cardcore/games") / scaffold.name,
              "tests/": Path("tests/games") / scaffold.name,
              "rulebook.md": Path("games")}
    out: dict[Path, str] = {}
    for rel, node in _walk(root):
        text = scaffold.fill(node.read_text(encoding="utf-8"))
        if rel.startswith("rulebook.md"):
            out[dest / "games" / f"{scaffold.name}.md"] = text
            continue
        top = rel.split("/", 1)[0] + "/"
        out[dest / places[top] / scaffold.path(rel[len(top):])] = text
    return out


def new_game(name: str, *, dest: Path | str = ".", title: str | None = None,
             prefix: str | None = None, title_ru: str | None = None) -> list[Path]:
    """Write the new game ``name`` into the source tree at ``dest``; returns the files written.
    ConfigError (and nothing written) for a bad name, title or prefix, or if any of the game's
    three places already exists."""
    title = title if title is not None else name.replace("_", " ").title()
    prefix = prefix if prefix is not None else "".join(
        p[0] for p in name.split("_") if p)[:2].upper().ljust(2, "X")
    # The Russian title must differ from the English one (tests/test_texts.py): a neutral
    # «Игра …» until a translator names it.
    title_ru = title_ru if title_ru is not None else f"Игра {title}"
    for text in (title, title_ru):
        check_names(name, text, prefix)
    if title_ru == title:
        raise ConfigError(f"new-game --title-ru must differ from --title, got {echo(title_ru)}")
    scaffold = Scaffold(name, title, prefix, title_ru)
    dest = Path(dest)
    taken = [p for p in (dest / "src/cardcore/games" / name, dest / "tests/games" / name,
                         dest / "games" / f"{name}.md") if p.exists()]
    if taken:
        raise ConfigError(f"new-game: {echo(str(taken[0]))} already exists")
    owner = prefix_owner(dest, prefix)
    if owner is not None:
        raise ConfigError(f"new-game --prefix {prefix} is taken by {echo(str(owner))} (its "
                          f"{prefix}_KERNEL): choose another")
    files = plan(scaffold, dest)
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return sorted(files)
