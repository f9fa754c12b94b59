"""CONTRIBUTING.md's checklists point at the real tree, and every lib module is tested.

The "Adding a chapter" checklist names the files that hold each step; a path
that no longer exists (a moved module, a renamed test) fails here, so the
checklist cannot drift from the repository.
"""

from __future__ import annotations

import re

from _tree import imported_names, modules
from conftest import ROOT

CONTRIBUTING = (ROOT / "CONTRIBUTING.md").read_text()


def _section(title: str) -> str:
    start = CONTRIBUTING.index(f"## {title}")
    end = CONTRIBUTING.find("\n## ", start + 3)
    return CONTRIBUTING[start:] if end < 0 else CONTRIBUTING[start:end]


def _paths_named(text: str) -> list[str]:
    """Backticked repository paths: they contain a slash or end in a file suffix."""
    names = re.findall(r"`([^`\s]+)`", text)
    return [n for n in names if ("/" in n or re.search(r"\.(py|md|yml)$", n)) and not n.startswith(("(", "{"))]


def _exists(path: str) -> bool:
    pattern = re.sub(r"<[^>]+>", "*", path.rstrip("/"))
    return any(ROOT.glob(pattern)) if "*" in pattern else (ROOT / pattern).exists()


def test_adding_a_chapter_checklist_names_existing_files():
    checklist = _section("Adding a chapter (checklist)")
    paths = _paths_named(checklist)
    assert len(paths) >= 15, paths  # the checklist names its files; the parser found them
    missing = [p for p in paths if not _exists(p)]
    assert not missing, f"CONTRIBUTING.md names paths that do not exist: {missing}"


def test_the_path_check_can_fail():
    assert not _exists("lib/no_such_module.py")
    assert _exists("book/dynamics/<page>.md")
    assert _paths_named("see `lib/common.py` and `x`") == ["lib/common.py"]


def _imported_by_tests() -> set[str]:
    """Dotted lib modules that some tests/test_*.py imports (``import lib.x``, ``from lib.x import``,
    ``from lib import x``)."""
    return set().union(*(imported_names(m.name, m.source) for m in modules("tests")
                         if m.name.startswith("tests.test_")))


def test_every_lib_module_is_imported_by_a_test():
    imported = _imported_by_tests()
    untested = [m.name for m in modules("lib", private=False, packages=False) if m.name not in imported]
    assert not untested, f"lib modules no test file imports: {untested}"
