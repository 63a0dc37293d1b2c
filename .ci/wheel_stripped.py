"""Fail when an extension module in a wheel carries debug info or a symbol table.

Usage: python wheel_stripped.py WHEEL. A release build compiles with -g0 and links with -s
(setup.py); a build that lost either ships sections that this names, one line per module.
"""

from __future__ import annotations

import io
import sys
import zipfile

from elftools.elf.elffile import ELFFile


def unstripped_sections(data: bytes) -> list[str]:
    """The sections of one ELF file that a stripped release build does not have."""
    elf = ELFFile(io.BytesIO(data))
    return [s.name for s in elf.iter_sections() if s.name.startswith(".debug") or s.name == ".symtab"]


def main(wheel: str) -> int:
    modules = failures = 0
    with zipfile.ZipFile(wheel) as archive:
        for name in archive.namelist():
            if not name.endswith(".so"):
                continue
            modules += 1
            found = unstripped_sections(archive.read(name))
            if found:
                failures += 1
                print(f"not stripped: {name}: {', '.join(found[:6])}")
    if modules == 0:
        print(f"no extension module in {wheel}")
        return 1
    print(f"{modules} extension modules, {failures} with debug info or a symbol table")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
