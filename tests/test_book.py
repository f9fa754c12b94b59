"""The book builds from scratch with no warnings, and the lib fingerprint works.

The full build (``book_build`` in conftest.py) starts from an empty output
folder, so every chapter executes; it runs once per test run and the browser
tests reuse it. Run only these with ``.venv/bin/python -m pytest tests/test_book.py``.
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest

from conftest import ROOT, BookBuild, TocPage

EXT_PATH = ROOT / "book" / "_ext" / "lib_fingerprint.py"


def _load_extension():
    spec = importlib.util.spec_from_file_location("lib_fingerprint_under_test", EXT_PATH)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


lib_fingerprint_ext = _load_extension()


# --------------------------------------------------------------------------
# The whole book
# --------------------------------------------------------------------------


@pytest.mark.book
@pytest.mark.xdist_group("book")
def test_book_builds_fresh_without_warnings(book_build: BookBuild) -> None:
    assert book_build.returncode == 0 and not book_build.problems, book_build.report()


@pytest.mark.book
@pytest.mark.xdist_group("book")
def test_every_toc_page_is_built(book_build: BookBuild, toc_page: TocPage) -> None:
    page = book_build.html_dir / toc_page.html
    assert page.is_file(), f"{toc_page.docname}: listed in _toc.yml but {page} was not built"


@pytest.mark.book
@pytest.mark.xdist_group("book")
def test_every_chapter_executed(book_build: BookBuild, toc_page: TocPage) -> None:
    """A notebook page with code cells must have been executed in this build.

    The output folder starts empty, so a cache hit can only come from another
    page of this same build with identical code (placeholders), never from an
    older run.
    """
    source = ROOT / f"{toc_page.docname}.md"
    if not source.exists() or "```{code-cell}" not in source.read_text():
        pytest.skip(f"{toc_page.docname} has no code cells")
    executed = f"{toc_page.docname}.md: Executed notebook in" in book_build.log
    same_code = f"{toc_page.docname}.md: Using cached notebook" in book_build.log
    assert executed or same_code, (
        f"{toc_page.docname}: the fresh build did not execute this notebook "
        f"(is execute_notebooks off?); see {book_build.output / 'build.log'}"
    )


@pytest.mark.xdist_group("tiny-book")
def test_chapters_execute_in_parallel(tiny_faulty_book: BookBuild) -> None:
    """tools/build_book.py reads (and so executes) pages in parallel, as make book does:
    Sphinx logs a range of pages per reading step, and no extension forced a serial read."""
    reading = [line for line in tiny_faulty_book.log.splitlines() if "reading sources..." in line]
    assert any(" .. " in line for line in reading), "\n".join(reading)
    assert "doing serial read" not in tiny_faulty_book.log


# --------------------------------------------------------------------------
# The build log check catches a raising cell (fault injection)
# --------------------------------------------------------------------------


@pytest.mark.xdist_group("tiny-book")
def test_build_fails_naming_a_page_with_a_raising_cell(tiny_faulty_book: BookBuild) -> None:
    build = tiny_faulty_book
    assert build.returncode != 0, "a raising cell must fail the -W build"
    named = [line for line in build.problems if "book/dynamics/raising.md" in line]
    assert named, "no warning names the raising page:\n" + build.report()
    assert any("Executing notebook failed" in line for line in named), build.report()


@pytest.mark.xdist_group("tiny-book")
def test_build_fails_naming_a_page_with_a_missing_figure(tiny_faulty_book: BookBuild) -> None:
    named = [line for line in tiny_faulty_book.problems if "book/dynamics/nofig.md" in line]
    assert any("image file not readable" in line for line in named), tiny_faulty_book.report()


@pytest.mark.xdist_group("tiny-book")
def test_build_log_of_good_pages_is_clean(tiny_faulty_book: BookBuild) -> None:
    # Only the deliberately broken pages may appear among the problems.
    innocent = [
        line
        for line in tiny_faulty_book.problems
        if "book/dynamics/good.md" in line or "book/intro.md" in line
    ]
    assert not innocent, "\n".join(innocent)


# --------------------------------------------------------------------------
# lib fingerprint: a change in lib/ invalidates the execution cache
# --------------------------------------------------------------------------


@pytest.fixture
def lib_copy(tmp_path: Path) -> Path:
    target = tmp_path / "lib"
    shutil.copytree(ROOT / "lib", target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def test_lib_fingerprint_is_stable(lib_copy: Path) -> None:
    assert lib_fingerprint_ext.lib_fingerprint(lib_copy) == lib_fingerprint_ext.lib_fingerprint(
        lib_copy
    )
    # The copy has the same names and contents as the real lib/.
    assert lib_fingerprint_ext.lib_fingerprint(lib_copy) == lib_fingerprint_ext.lib_fingerprint()


def test_lib_fingerprint_changes_when_a_file_changes(lib_copy: Path) -> None:
    before = lib_fingerprint_ext.lib_fingerprint(lib_copy)
    target = lib_copy / "errors.py"
    target.write_text(target.read_text() + "\n# one more line\n")
    assert lib_fingerprint_ext.lib_fingerprint(lib_copy) != before


def test_lib_fingerprint_changes_when_a_file_is_added_or_renamed(lib_copy: Path) -> None:
    before = lib_fingerprint_ext.lib_fingerprint(lib_copy)
    (lib_copy / "new_module.py").write_text("X = 1\n")
    added = lib_fingerprint_ext.lib_fingerprint(lib_copy)
    assert added != before
    (lib_copy / "new_module.py").rename(lib_copy / "renamed_module.py")
    assert lib_fingerprint_ext.lib_fingerprint(lib_copy) not in (before, added)


def test_outdated_docs_after_lib_change_are_all_docs() -> None:
    found = {"book/intro", "book/dynamics/a", "book/dynamics/b", "book/appendix/lib-api"}
    env = SimpleNamespace(found_docs=found, lib_changed=True)
    outdated = lib_fingerprint_ext._outdated_after_lib_change(None, env, set(), set(), set())
    assert sorted(outdated) == sorted(found)
    # Added and removed documents are handled by Sphinx itself.
    outdated = lib_fingerprint_ext._outdated_after_lib_change(
        None, env, {"book/dynamics/a"}, set(), {"book/dynamics/b"}
    )
    assert sorted(outdated) == sorted(found - {"book/dynamics/a", "book/dynamics/b"})


def test_no_outdated_docs_when_lib_is_unchanged() -> None:
    found = {"book/intro", "book/dynamics/a"}
    for env in (SimpleNamespace(found_docs=found, lib_changed=False), SimpleNamespace(found_docs=found)):
        assert lib_fingerprint_ext._outdated_after_lib_change(None, env, set(), set(), set()) == []


def test_builder_inited_clears_the_cache_when_lib_changes(tmp_path: Path) -> None:
    from jupyter_cache import get_cache

    cache_path = tmp_path / "_build" / ".jupyter_cache"
    cache = get_cache(str(cache_path))
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("1 + 1")])
    nb_file = tmp_path / "page.ipynb"
    nbformat.write(notebook, nb_file)
    cache.cache_notebook_file(nb_file, check_validity=False)
    assert len(cache.list_cache_records()) == 1

    stamp = cache_path.parent / ".lib_fingerprint"
    app = SimpleNamespace(
        env=SimpleNamespace(mystnb_config=SimpleNamespace(execution_cache_path=str(cache_path)))
    )

    # A stamp from an older lib: the cache is cleared and every doc is outdated.
    stamp.write_text("0" * 64 + "\n")
    lib_fingerprint_ext._clear_cache_if_lib_changed(app)
    assert app.env.lib_changed is True
    assert get_cache(str(cache_path)).list_cache_records() == []
    assert stamp.read_text().strip() == lib_fingerprint_ext.lib_fingerprint()

    # Same lib on the next build: nothing is invalidated.
    get_cache(str(cache_path)).cache_notebook_file(nb_file, check_validity=False)
    lib_fingerprint_ext._clear_cache_if_lib_changed(app)
    assert app.env.lib_changed is False
    assert len(get_cache(str(cache_path)).list_cache_records()) == 1
