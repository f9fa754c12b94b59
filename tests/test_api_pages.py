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


def test_every_api_page_has_a_row_and_a_toc_entry() -> None:
    """An API page is listed in the table of book/appendix/lib-api.md and in _toc.yml."""
    from conftest import toc_pages

    table = (ROOT / "book" / "appendix" / "lib-api.md").read_text()
    rows = set(re.findall(r"^\| \{doc\}`[^`<]*<api/([\w-]+)>`", table, re.M))
    in_toc = {page.docname for page in toc_pages()}
    pages = {path.stem for path in (ROOT / "book" / "appendix" / "api").glob("*.md")}
    assert len(pages) > 10  # the pages were found
    assert not pages - rows, f"API pages with no row in book/appendix/lib-api.md: {sorted(pages - rows)}"
    assert not rows - pages, f"rows of lib-api.md pointing at no page: {sorted(rows - pages)}"
    missing = sorted(p for p in pages if f"book/appendix/api/{p}" not in in_toc)
    assert not missing, f"API pages not in _toc.yml: {missing}"
