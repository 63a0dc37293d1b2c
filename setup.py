"""Build the Cython extensions. Static metadata lives in pyproject.toml.

Environment switches (all default off):
  CARDCORE_ONLY=cardcore._fast,...  build only these modules (development aid)
  CARDCORE_CYTHON_TRACE=1           line tracing for coverage (Cython.Coverage); keeps debug info
  CARDCORE_DEBUG=1                  keep the C debug info (gdb, perf) in an otherwise normal build
  CARDCORE_CYTHON_CACHE=DIR         reuse the C that Cython made from the same sources (CI's
                                    several builds translate each .pyx once)
"""
import copy
import os
import sys
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

SRC = Path("src")

only = {m for m in os.environ.get("CARDCORE_ONLY", "").split(",") if m}
trace = os.environ.get("CARDCORE_CYTHON_TRACE") == "1"
debug = trace or os.environ.get("CARDCORE_DEBUG") == "1"

# Line tracing needs both the directive (Cython emits the trace calls) and the C macros
# (without CYTHON_TRACE the emitted calls compile to nothing).
macros = [("CYTHON_TRACE", "1"), ("CYTHON_TRACE_NOGIL", "1")] if trace else []

# Release builds carry no debug info: it is ~80 % of the extensions' size (2.2 MB -> 0.4 MB
# wheel). Python's own CFLAGS add -g; a later -g0 wins. MSVC keeps debug info out of the
# .pyd anyway (it goes to a .pdb only with /DEBUG).
compile_args: list = []
link_args: list = []
if sys.platform != "win32":
    # No fused multiply-adds: the kernels' float arithmetic (observations, sampled worlds'
    # weights, greedy values) must round alike on every machine and in WebAssembly, which
    # has none (gcc fuses by default on arm64; so does clang). MSVC does not fuse by default.
    # Hidden by default (the module's PyInit_ is exported by Python's own macro): a kernel's
    # functions that the wrapper calls stay inlinable inside the module, as Cython's were.
    compile_args = ["-ffp-contract=off", "-fvisibility=hidden", "-ffunction-sections",
                    "-fdata-sections"]
if not debug and sys.platform != "win32":
    compile_args += ["-g0"]
    if sys.platform.startswith("linux"):
        # -s: also drop the static symbol table (.dynsym stays); --gc-sections: a module keeps
        # only the part of its folder's kernel*.c it calls (Manna's five modules share one
        # kernel: 0.28 MB less in all)
        link_args = ["-s", "-Wl,--gc-sections"]


def module_name(path: Path) -> str:
    return ".".join(path.relative_to(SRC).with_suffix("").parts)


def kernel_sources(pyx: Path) -> list:
    """The C a module wraps: its folder's kernel*.c (a game's rules in C, the same files the
    native and WebAssembly libraries build: src/cardcore/core/Makefile). The Cython output
    beside them is named after its .pyx, which always begins with an underscore."""
    return [str(c) for c in sorted(pyx.parent.glob("kernel*.c"))]


# Every .pyx under src/cardcore is one extension module named after its path; the headers are
# included from src/ ("cardcore/core/kernel.h").
extensions = [
    Extension(module_name(p), [str(p)] + kernel_sources(p), include_dirs=[str(SRC)],
              depends=[str(h) for h in sorted([*SRC.glob("cardcore/core/*.h"),
                                                *p.parent.glob("kernel*.h")])],
              define_macros=macros, extra_compile_args=compile_args,
              extra_link_args=link_args)
    for p in sorted(SRC.glob("cardcore/**/*.pyx"))
    if not only or module_name(p) in only
]

directives = {"language_level": "3", "embedsignature": True, "linetrace": trace}

# cythonize regenerates a .c file only when its .pyx is newer, not when the directives change:
# switching tracing on or off (or not knowing how the .c files were made) regenerates them all.
# (Nothing to regenerate in a fresh tree: there, a forced run would also bypass Cython's cache.)
stamp = Path("build") / "cardcore-linetrace"
made = any(Path(e.sources[0]).with_suffix(".c").exists() for e in extensions)
force = made and (not stamp.exists() or stamp.read_text() != str(trace))
stamp.parent.mkdir(exist_ok=True)
stamp.write_text(str(trace))


def compile_catalogs() -> None:
    """Every message catalog (``locale/<lang>/LC_MESSAGES/messages.po``, cardcore.i18n)
    compiled to the ``.mo`` that the standard library's gettext reads, beside its ``.po``, so
    an in-place build, an editable install, the sdist's build and the wheel all carry them.
    Babel is a build requirement (pyproject.toml); the ``.mo`` files are not committed."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po in sorted(SRC.glob("cardcore/**/locale/*/LC_MESSAGES/*.po")):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        with open(po, "rb") as f:
            catalog = read_po(f)
        with open(mo, "wb") as f:
            write_mo(f, catalog)


compile_catalogs()

# The packages under src/, and the rulebooks: the top-level games/ folder (the one copy of each
# book) is installed as the data package cardcore.rulebooks, mapped, not copied.

def usable_cores() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:                    # macOS, Windows
        return os.cpu_count() or 1


class ParallelBuildExt(build_ext):
    """Compiles the extensions on every usable core unless ``-j``/``--parallel`` says
    otherwise: pip's builds (``pip install .``, the wheel) are otherwise serial, and the C of
    the five games is most of an install's time."""

    def finalize_options(self) -> None:
        if self.parallel is None:
            self.parallel = usable_cores()
        super().finalize_options()

    def build_extension(self, ext: Extension) -> None:
        # The modules of one folder share its kernel*.c (Manna's five): built in parallel,
        # each would compile them to the same object file while another links it, and a
        # link that reads the file just truncated takes it for an empty linker script (a
        # module without its kernel: "undefined symbol: MH_KERNEL" at import, seen in CI's
        # sanitizer build). So each module compiles into a temporary folder of its own.
        own = copy.copy(self)
        own.build_temp = os.path.join(self.build_temp, ext.name)
        build_ext.build_extension(own, ext)


# Cython translates the .pyx files in worker processes where they fork (Linux); elsewhere
# multiprocessing would start each worker by re-running this script.
cython_workers = usable_cores() if sys.platform.startswith("linux") else 0

setup(packages=find_packages(str(SRC)) + ["cardcore.rulebooks"],
      package_dir={"": str(SRC), "cardcore.rulebooks": "games"},
      cmdclass={"build_ext": ParallelBuildExt},
      ext_modules=cythonize(extensions, compiler_directives=directives, include_path=["src"],
                            force=force, nthreads=cython_workers,
                            cache=os.environ.get("CARDCORE_CYTHON_CACHE") or False))
