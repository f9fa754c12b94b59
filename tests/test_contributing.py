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


def test_every_path_on_the_page_exists():
    paths = _paths_named(CONTRIBUTING)
    assert len(paths) >= 40, paths
    missing = [p for p in paths if not _exists(p)]
    assert not missing, f"CONTRIBUTING.md names paths that do not exist: {missing}"


def test_the_path_check_can_fail():
    assert not _exists("lib/no_such_module.py")
    assert _exists("book/dynamics/<page>.md")
    assert _paths_named("see `lib/common.py` and `x`") == ["lib/common.py"]


def _steps(section: str) -> list[str]:
    """The numbered steps of a checklist, each with its continuation lines."""
    return [m.group(1) for m in re.finditer(r"^\d+\. (.*?)(?=^\d+\. |^\S|\Z)", section, re.M | re.S)]


def _tests_named(step: str) -> list[str]:
    return [p for p in _paths_named(step) if re.fullmatch(r"tests/test_\w+\.py", p)]


def test_every_step_of_adding_a_chapter_names_the_tests_that_hold_it():
    steps = _steps(_section("Adding a chapter (checklist)"))
    assert len(steps) >= 5, steps  # the steps were found
    for step in steps:
        named = _tests_named(step)
        assert named, f"a step of 'Adding a chapter' names no test that holds it: {step[:80]!r}"
        assert all((ROOT / t).is_file() for t in named), named


def test_the_step_check_can_fail():
    steps = _steps("1. **A.** held by `tests/test_layers.py`.\n2. **B.** no test\n   here.\n\nAfter.\n")
    assert [bool(_tests_named(step)) for step in steps] == [True, False]


def _commands(text: str) -> list[str]:
    """Shell commands on the page: lines of ```bash blocks and backticked ``make ...``,
    ``.venv/bin/...`` and ``python ...`` spans, without comments."""
    lines = [line for block in re.findall(r"^```bash\n(.*?)^```", text, re.M | re.S) for line in block.splitlines()]
    lines += re.findall(r"`((?:make|\.venv/bin/|python)[^`]*)`", text)
    return [line.split("#", 1)[0].strip() for line in lines if line.split("#", 1)[0].strip()]


def _command_problems(command: str) -> list[str]:
    """What in ``command`` does not exist: a make target, a file it names, a module it runs."""
    import importlib.util

    words = command.split()
    problems = []
    if words[0] == "make":
        targets = set(re.findall(r"^([\w-]+):", (ROOT / "Makefile").read_text(), re.M))
        problems += [f"make target {t!r}" for t in words[1:] if not t.startswith("-") and t not in targets]
    for i, word in enumerate(words):
        if word == "-m" and i + 1 < len(words) and importlib.util.find_spec(words[i + 1]) is None:
            problems.append(f"module {words[i + 1]!r}")
        elif ("/" in word or re.search(r"\.(py|md|yml)$", word)) and not word.startswith((".venv/", "-")) \
                and "<" not in word and not _exists(word):
            problems.append(f"path {word!r}")
    return problems


def test_every_command_on_the_page_exists():
    commands = _commands(CONTRIBUTING)
    assert any(c.startswith("make book") for c in commands), commands  # the commands were found
    problems = {c: p for c in commands if (p := _command_problems(c))}
    assert not problems, f"CONTRIBUTING.md runs what does not exist: {problems}"


def test_the_command_check_can_fail():
    assert _command_problems("make no-such-target") == ["make target 'no-such-target'"]
    assert _command_problems(".venv/bin/python -m no_such_module tests/test_nothing.py") == [
        "module 'no_such_module'", "path 'tests/test_nothing.py'"]
    assert _command_problems(".venv/bin/python -m pytest tests/test_layers.py") == []
    assert _commands("```bash\nmake book   # build\n```\nthen `make test`.") == ["make book", "make test"]


def _imported_by_tests() -> set[str]:
    """Dotted lib modules that some tests/test_*.py imports (``import lib.x``, ``from lib.x import``,
    ``from lib import x``)."""
    return set().union(*(imported_names(m.name, m.source) for m in modules("tests")
                         if m.name.startswith("tests.test_")))


def test_every_lib_module_is_imported_by_a_test():
    imported = _imported_by_tests()
    untested = [m.name for m in modules("lib", private=False, packages=False) if m.name not in imported]
    assert not untested, f"lib modules no test file imports: {untested}"
