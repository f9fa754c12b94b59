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


def test_every_section_lib_names_is_a_label_of_the_book() -> None:
    """A docstring's :ref:`sec-...` is a label some page of the book defines (checked here,
    without a build, for every module, also those no API page renders)."""
    labels = set()
    for page in (ROOT / "book").rglob("*.md"):
        labels |= set(re.findall(r"^\(([\w-]+)\)=\s*$", page.read_text(), re.M))
    named = {}
    for path in (ROOT / "lib").rglob("*.py"):
        for label in re.findall(r":ref:`(?:[^`<]*<)?([\w-]+)>?`", path.read_text()):
            named.setdefault(label, path.relative_to(ROOT).as_posix())
    assert {"sec-rn-tree", "sec-lg-energy"} <= set(named)  # the scan finds lib's references
    missing = sorted(f"{label} ({where})" for label, where in named.items() if label not in labels)
    assert not missing, f"lib refers to sections no page defines: {missing}"
