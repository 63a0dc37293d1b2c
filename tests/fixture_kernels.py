"""Fixture kernels: a test's own ``.pyx`` game (tests/fixtures/), compiled with Cython and the
machine's C compiler against this checkout's ``cardcore/_fast.pxd`` and core headers into a
temporary folder, and imported. The tests that use one are marked slow: the quick loop runs
against the wheel, where there is no compiler on PATH."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[1]


def build_fixture_kernel(fixture: Path, out: Path) -> ModuleType:
    """``fixture`` (a .pyx named after its module) built in ``out`` and imported."""
    from Cython.Build import cythonize
    from setuptools import Distribution, Extension
    name = fixture.name.split(".")[0]
    source = out / fixture.name
    source.write_text(fixture.read_text(encoding="utf-8"), encoding="utf-8")
    modules = cythonize([Extension(name, [str(source)],
                                   include_dirs=[str(ROOT / "src")],   # cardcore/core/kernel.h
                                   extra_compile_args=["-O0", "-g0"])],
                        include_path=[str(ROOT / "src")], quiet=True,
                        compiler_directives={"language_level": "3"})
    dist = Distribution({"ext_modules": modules})
    build = dist.get_command_obj("build_ext")
    build.build_lib = str(out)
    build.build_temp = str(out / "build")
    build.ensure_finalized()
    build.run()
    built = next(out.glob(f"{name}*.so"))
    spec = importlib.util.spec_from_file_location(name, built)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
