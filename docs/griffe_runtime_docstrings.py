"""A griffe extension: the compiled modules' docstrings, under the signatures of their stubs.

The API reference of a Cython module is read from its ``.pyi`` stub (exact, typed signatures),
but the docstrings live in the ``.pyx`` source and reach Python only through the built
extension. For every object of a stub-only module this takes ``__doc__`` from the imported
extension (dropping the signature line that ``embedsignature`` puts first), so the reference
shows both. The extensions must be built (``pip install -e ".[docs]"``).
"""
from __future__ import annotations

import importlib
import inspect
import re
from typing import Any

import griffe


def _runtime_doc(runtime: Any, name: str) -> str | None:
    doc = getattr(runtime, "__doc__", None)
    if not isinstance(doc, str) or not doc.strip():
        return None
    lines = doc.strip("\n").splitlines()
    # embedsignature: "name(self, x) -> int" (or "Cls.prop: int") first, then the docstring.
    if lines and re.match(rf"^\s*(\w+\.)*{re.escape(name)}(\(|: )", lines[0]):
        lines = lines[1:]
    text = inspect.cleandoc("\n".join(lines))
    return text or None


class RuntimeDocstrings(griffe.Extension):
    """Fill the missing docstrings of stub-only modules from the built extensions."""

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader,
                   **kwargs: Any) -> None:
        self._walk_modules(pkg)

    def _walk_modules(self, module: griffe.Module) -> None:
        path = module.filepath
        if isinstance(path, list):            # a namespace package
            path = path[0] if path else None
        if path is not None and str(path).endswith(".pyi"):
            runtime = importlib.import_module(module.path)
            self._fill(module, runtime)
        for member in module.modules.values():
            self._walk_modules(member)

    def _fill(self, obj: griffe.Object, runtime: Any) -> None:
        for name, member in obj.members.items():
            if member.is_alias or not hasattr(runtime, name):
                continue
            value = inspect.getattr_static(runtime, name) if inspect.isclass(runtime) else \
                getattr(runtime, name)
            # A class's getset/member descriptors carry the property docstrings.
            target = value if not isinstance(value, (staticmethod, classmethod)) else \
                value.__func__
            # A plain value (a constant) shows its type's docstring: not ours.
            # ... and a slot wrapper (``__init__``) shows object's.
            inherited = getattr(target, "__doc__", None) in (
                getattr(type(target), "__doc__", 0), getattr(getattr(object, name, None),
                                                             "__doc__", 0))
            if member.docstring is None and not inherited:
                doc = _runtime_doc(target, name)
                if doc:
                    member.docstring = griffe.Docstring(doc, parent=member)
            if member.is_class:
                self._fill(member, getattr(runtime, name))
