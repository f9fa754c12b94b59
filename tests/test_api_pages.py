"""Every module of ``lib`` is documented on a page of the API appendix."""

from __future__ import annotations

import re

from _tree import modules
from conftest import ROOT


def _lib_modules() -> set[str]:
    """Public modules and packages of lib (private helpers such as lib._validation have no page)."""
    return {m.name for m in modules("lib", private=False)}


def test_every_lib_module_has_an_api_entry() -> None:
    documented = set()
    for page in (ROOT / "book" / "appendix").rglob("*.md"):
        documented |= set(re.findall(r"\.\. automodule:: ([\w.]+)", page.read_text()))
    missing = sorted(_lib_modules() - documented - {"lib"})
    assert not missing, f"lib modules with no automodule entry in book/appendix/api/: {missing}"
    stale = sorted(documented - _lib_modules())
    assert not stale, f"API pages document modules that do not exist: {stale}"
