"""The repository's Python packages as the tests read them: their modules and their imports.

One list of a package's modules (:func:`modules`) and one import walker
(:func:`imported_names`), both from the source files with ``ast``: nothing is
imported, so they need no optional dependency. Used by the layer rule
(``test_layers.py``), the plotting rule (``test_figures.py``), the grader's
import graph (``test_grader_core.py``), the API pages (``test_api_pages.py``),
"every module is tested" (``test_contributing.py``) and the error contract
(``_contract.py``).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


@dataclass(frozen=True)
class Module:
    """One module of a package: its dotted name, its file, and whether it is a package."""

    name: str  # "lib.models" for lib/models/__init__.py, "lib.models.fourbar" for fourbar.py
    path: Path
    is_package: bool

    @property
    def source(self) -> str:
        return self.path.read_text(encoding="utf-8")

    @property
    def is_private(self) -> bool:
        """A part of the name starts with ``_`` (``lib._validation``, ``lib.figures._frame``)."""
        return any(part.startswith("_") for part in self.name.split("."))


def modules(top: str = "lib", *, private: bool = True, packages: bool = True,
            root: Path = ROOT) -> list[Module]:
    """Every module of the package ``top`` (a folder of ``root``), sorted by name.

    ``private=False`` leaves out private modules, ``packages=False`` the
    packages themselves (their ``__init__.py``).
    """
    found = []
    for path in (root / top).rglob("*.py"):
        parts = path.relative_to(root).with_suffix("").parts
        is_package = parts[-1] == "__init__"
        module = Module(".".join(parts[:-1] if is_package else parts), path, is_package)
        if (private or not module.is_private) and (packages or not is_package):
            found.append(module)
    return sorted(found, key=lambda m: m.name)


def imported_names(module: str, source: str, is_package: bool = False) -> set[str]:
    """Dotted names that ``module`` imports anywhere in ``source`` (function bodies too).

    Relative imports are resolved against the module's package;
    ``from a import b`` gives both ``a`` and ``a.b`` (``b`` may be a module or
    a name in ``a``), so ``from lib import models`` and ``from .. import
    figures`` name the subpackage itself.
    """
    package = module.split(".") if is_package else module.split(".")[:-1]
    names: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            target = ".".join(base + ([node.module] if node.module else []))
            names.add(target)
            names.update(f"{target}.{alias.name}" for alias in node.names)
    return names
