"""Every module of ``lib`` is documented on a page of the API appendix."""

from __future__ import annotations

import re

from conftest import ROOT


def _lib_modules() -> set[str]:
    modules = set()
    for path in (ROOT / "lib").rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        if any(p.startswith("_") for p in parts):  # private helpers (lib._validation)
            continue
        modules.add(".".join(parts))
    return modules


def test_every_lib_module_has_an_api_entry() -> None:
    documented = set()
    for page in (ROOT / "book" / "appendix").rglob("*.md"):
        documented |= set(re.findall(r"\.\. automodule:: ([\w.]+)", page.read_text()))
    missing = sorted(_lib_modules() - documented - {"lib"})
    assert not missing, f"lib modules with no automodule entry in book/appendix/api/: {missing}"
    stale = sorted(documented - _lib_modules())
    assert not stale, f"API pages document modules that do not exist: {stale}"
