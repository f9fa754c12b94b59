"""Shared fixtures for the test suite.

Book fixtures (used by ``test_book.py`` and ``test_browser.py``):

- ``book_build``: the whole book built fresh (empty output folder, so every
  notebook executes with no cache) once per test run, even under
  ``pytest -n 2``: a file lock makes the other worker wait and reuse the result.
  The build starts in the background at the run's first test, and the tests
  that need it run after the others (``pytest_collection_modifyitems``).
- ``toc_page``: parametrised over every page in ``_toc.yml`` (see
  ``pytest_generate_tests``), so new chapters are tested without editing tests.
- ``tiny_faulty_book``: a tiny throwaway book (``make_tiny_book``) with one good
  chapter and one chapter per injected fault, built once.
- ``browser``: headless Debian Chromium driven by Playwright;
  ``screenshot_dir``: artifacts/screenshots/.

Plain helpers: ``run_book_build`` (a fresh -W build of any book folder, with the
warning lines collected), ``make_tiny_book``, ``toc_pages``.
"""

from __future__ import annotations

import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
VENV_BIN = Path(sys.executable).parent
ARTIFACTS = ROOT / "artifacts"

# Build-log lines that contain "WARNING" but are not about the book: the
# kernel (ipykernel 7) announces on every start that it listens on localhost TCP.
HARMLESS_LOG_LINES = (
    re.compile(r"^\[IPKernelApp\] WARNING \| Kernel is running over TCP without encryption\."),
)
ANSI_ESCAPE = re.compile(r"\x1b\[[0-9;]*m")

# Chromium as root on this kind of machine (see .library env notes and README).
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


# --------------------------------------------------------------------------
# Table of contents
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class TocPage:
    """One page of the book as the table of contents lists it."""

    docname: str  # e.g. "book/dynamics/rigid-body-dynamics" (no suffix)
    title: str | None  # the toc's explicit ``title:``, if it gives one
    is_root: bool = False
    is_section: bool = False  # listed under another page's ``sections:``

    @property
    def html(self) -> str:
        """Path of the built page relative to the HTML output folder."""
        return self.docname + ".html"

    @property
    def in_topic_folder(self) -> bool:
        """Pages in a topic folder under book/ (book/dynamics/, not book/appendix/)."""
        parts = self.docname.split("/")
        return len(parts) >= 3 and parts[0] == "book" and parts[1] != "appendix"

    @property
    def is_chapter(self) -> bool:
        """A chapter: a top-level toc entry in a topic folder (it ends with exercises)."""
        return self.in_topic_folder and not self.is_section

    @property
    def slug(self) -> str:
        return self.docname.replace("/", "-")


def toc_pages(book_root: Path = ROOT) -> list[TocPage]:
    """Every page in ``_toc.yml`` (root first), in reading order."""
    toc = yaml.safe_load((book_root / "_toc.yml").read_text())
    pages = [TocPage(_strip_suffix(toc["root"]), toc.get("title"), is_root=True)]

    def walk(node: object, in_sections: bool) -> None:
        if isinstance(node, dict):
            if "file" in node:
                pages.append(
                    TocPage(_strip_suffix(node["file"]), node.get("title"), is_section=in_sections)
                )
            for key in ("parts", "chapters"):
                walk(node.get(key, []), in_sections)
            # Entries under a page's (or the root's) ``sections:`` are sub-pages.
            walk(node.get("sections", []), in_sections or "file" in node)
        elif isinstance(node, list):
            for item in node:
                walk(item, in_sections)

    walk(toc, False)
    return pages


def chapter_registry(book_root: Path = ROOT) -> dict:
    """The chapters of the book as ``book/chapters.yml`` lists them (see that file)."""
    return yaml.safe_load((book_root / "book" / "chapters.yml").read_text())


def _strip_suffix(docname: str) -> str:
    return re.sub(r"\.(md|ipynb|rst)$", "", docname)


def page_param(page: TocPage):
    """``page`` as a test parameter, in its page's xdist group: the tests of one page run on
    one worker, which visits the page once for all of them (tests/_page_visit.py)."""
    return pytest.param(page, id=page.docname, marks=pytest.mark.xdist_group(f"page-{page.slug}"))


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "toc_page" in metafunc.fixturenames:
        metafunc.parametrize("toc_page", [page_param(p) for p in toc_pages()])


# --------------------------------------------------------------------------
# Order and grouping under pytest -n 2 (pyproject: --dist loadgroup)
# --------------------------------------------------------------------------


def _needs_the_book(item: pytest.Item) -> bool:
    """Tests that read the whole book's build (the fixture, or the ``book`` marker)."""
    return "book_build" in getattr(item, "fixturenames", ()) or item.get_closest_marker("book") is not None


def _xdist_groups(item: pytest.Item) -> str:
    names = {str(m.args[0] if m.args else m.kwargs.get("name", "default"))
             for m in item.iter_markers("xdist_group")}
    return "_".join(sorted(names))


#: The xdist groups of the book's tests that take longest, longest first (from a suite's JUnit
#: report: the PDF printed and read about 110 s, the "book" group 100 s, the tiny books 70 s,
#: JupyterLab 60 s). Each page's group takes about 10 s.
LONG_GROUPS = ("pdf", "book", "tiny-book", "jupyterlab")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Two things for ``pytest -n 2`` (each worker collects, so both do the same):

    1. ``xdist_group`` marks take effect. pytest-xdist 3.8 (``--dist loadgroup``)
       appends ``@<group>`` to a grouped test's node id by setting ``item._nodeid``,
       which pytest 9 no longer reads (the id is ``item._id``), so every group
       was split over both workers; this sets the id pytest 9 reads. A group
       runs on one worker, so its module fixtures (the PDF, a graded class, a
       JupyterLab server, the tiny book) are made once, not once per worker.
    2. Tests that need the book's build run last, groups before single tests
       (the order xdist hands out work with ``--no-loadscope-reorder``): both
       workers run the unit tests while the book builds in the background
       (``_book_build_in_background``), and a long group does not start when the
       other worker has nothing left to do: the longest groups of the book's
       tests first (``LONG_GROUPS``), then the pages' groups, a few seconds each.
    """
    if getattr(config.option, "loadgroup", False):  # set on xdist's workers
        from _pytest.nodeid import NodeId  # pytest 9's structured node id

        for item in items:
            groups = _xdist_groups(item)
            if groups and not item.nodeid.endswith("@" + groups) and hasattr(item, "_id"):
                item._id = NodeId.parse(f"{item.nodeid}@{groups}")
    order = {id(item): index for index, item in enumerate(items)}

    def start_first(item: pytest.Item) -> int:
        group = _xdist_groups(item)
        return LONG_GROUPS.index(group) if group in LONG_GROUPS else len(LONG_GROUPS)

    items.sort(key=lambda item: (_needs_the_book(item), not _xdist_groups(item), start_first(item),
                                 order[id(item)]))


# --------------------------------------------------------------------------
# Building a book
# --------------------------------------------------------------------------


@dataclass
class BookBuild:
    """The result of one ``jupyter-book build``."""

    source: Path
    output: Path  # the --path-output folder
    returncode: int
    log: str
    seconds: float
    problems: list[str] = field(default_factory=list)

    @property
    def html_dir(self) -> Path:
        return self.output / "_build" / "html"

    def report(self, tail: int = 40) -> str:
        """A readable failure message: the offending lines, or the log's end."""
        lines = [
            f"jupyter-book build of {self.source} exited {self.returncode} "
            f"(log: {self.output / 'build.log'})"
        ]
        if self.problems:
            lines.append(f"{len(self.problems)} warning/error line(s):")
            lines += [f"  {line}" for line in self.problems]
        else:
            lines.append("last lines of the build log:")
            lines += [f"  {line}" for line in self.log.splitlines()[-tail:]]
        return "\n".join(lines)


def problem_lines(log: str) -> list[str]:
    """Lines of a build log that report a warning or an error."""
    problems = []
    for raw in log.splitlines():
        line = ANSI_ESCAPE.sub("", raw).rstrip()
        if not re.search(r"WARNING|ERROR|CRITICAL|Traceback", line):
            continue
        if any(pattern.search(line) for pattern in HARMLESS_LOG_LINES):
            continue
        problems.append(line)
    return problems


#: Chapters executed at once by a test build (tools/build_book.py --jobs).
BUILD_JOBS = 2


def run_book_build(
    source: Path, output: Path, timeout: float = 1500, extra_env: dict[str, str] | None = None
) -> BookBuild:
    """Build the book in ``source`` fresh into ``output`` (removed first), with -W, as
    ``make book`` does (``tools/build_book.py``: two chapters execute at once)."""
    if output.exists():
        shutil.rmtree(output)
    output.mkdir(parents=True)
    command = [
        sys.executable,
        str(ROOT / "tools" / "build_book.py"),
        "--jobs",
        str(BUILD_JOBS),
        "build",
        str(source),
        "--warningiserror",
        "--keep-going",
        "--path-output",
        str(output),
    ]
    # No MPLBACKEND here: the kernels inherit it, and a non-inline backend makes
    # glued matplotlib figures show as "<Figure size ...>" text.
    env = {k: v for k, v in os.environ.items() if k != "MPLBACKEND"}
    env.update(NO_COLOR="1", PYTHONUNBUFFERED="1", **(extra_env or {}))
    start = time.perf_counter()
    proc = subprocess.run(
        command,
        cwd=source,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        timeout=timeout,
    )
    seconds = time.perf_counter() - start
    log = ANSI_ESCAPE.sub("", proc.stdout)
    (output / "build.log").write_text(log)
    return BookBuild(source, output, proc.returncode, log, seconds, problem_lines(log))


def _run_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder shared by all xdist workers of this test run, and by no other run."""
    basetemp = tmp_path_factory.getbasetemp()
    # Under xdist each worker's basetemp is <run's basetemp>/popen-gwN.
    return basetemp.parent if os.environ.get("PYTEST_XDIST_WORKER") else basetemp


#: Environment variable naming a folder for ``book_build`` to keep its build in
#: between runs: the first run builds the book there (as fresh as always), later
#: runs reuse it until the folder and its ``<folder>.json`` record are removed.
#: For timing and re-running the book and browser tests; ``make test`` leaves it unset.
BOOK_BUILD_DIR = "BOOK_BUILD_DIR"


def _book_build_paths(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, Path]:
    """The build's output folder, its result record and its lock file."""
    output = _run_dir(tmp_path_factory) / "book-build"
    if os.environ.get(BOOK_BUILD_DIR):
        # A build kept between runs: made here the first time, reused after.
        output = Path(os.environ[BOOK_BUILD_DIR]).resolve()
    return output, output.with_name(output.name + ".json"), output.with_name(output.name + ".lock")


def _build_and_record(output: Path, result_file: Path) -> BookBuild:
    """Build the book into ``output`` and write the record the other worker reads."""
    try:
        build = run_book_build(ROOT, output)
    except Exception as exc:  # a timeout, say: the waiting tests must not hang
        output.mkdir(parents=True, exist_ok=True)
        (output / "build.log").write_text(f"the build did not finish: {exc!r}\n")
        build = BookBuild(ROOT, output, -1, (output / "build.log").read_text(), 0.0)
    result_file.write_text(json.dumps({"returncode": build.returncode, "seconds": build.seconds}))
    return build


def _build_running(started: Path) -> bool:
    """Whether the process that started a background build (its pid in ``started``) lives."""
    try:
        os.kill(int(started.read_text()), 0)
    except (FileNotFoundError, ValueError, ProcessLookupError):
        return False
    return True


@pytest.fixture(scope="session", autouse=True)
def _book_build_in_background(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Start the book's build in a background thread at the session's first test,
    if any test of the session needs it, so that it runs beside the unit tests
    (which come first, see ``pytest_collection_modifyitems``); ``book_build``
    waits for it. The first worker to get here starts it."""
    if not any("book_build" in getattr(item, "fixturenames", ()) for item in request.session.items):
        return
    import threading

    output, result_file, lock_file = _book_build_paths(tmp_path_factory)
    started = output.with_name(output.name + ".started")
    with open(lock_file, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            if result_file.exists() or _build_running(started):
                return
            started.write_text(str(os.getpid()))
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
    threading.Thread(target=_build_and_record, args=(output, result_file), name="book-build").start()


@pytest.fixture(scope="session")
def book_build(tmp_path_factory: pytest.TempPathFactory) -> BookBuild:
    """The whole book, built fresh once per test run (shared by xdist workers).

    The output goes to this run's temporary folder (pytest keeps the last three
    runs' folders, under /tmp/pytest-of-<user>/), so two test runs on one
    checkout never overwrite each other's build. The build started in the
    background (``_book_build_in_background``) is waited for; without one, the
    first worker to get here builds and the other waits on the lock. With
    ``BOOK_BUILD_DIR=<folder>`` set, the build is kept in that folder and reused
    by later runs (see ``BOOK_BUILD_DIR``).
    """
    output, result_file, lock_file = _book_build_paths(tmp_path_factory)
    started = output.with_name(output.name + ".started")
    while True:
        with open(lock_file, "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                if result_file.exists():
                    record = json.loads(result_file.read_text())
                    log = (output / "build.log").read_text()
                    return BookBuild(ROOT, output, record["returncode"], log, record["seconds"],
                                     problem_lines(log))
                if not _build_running(started):
                    return _build_and_record(output, result_file)
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)
        time.sleep(1)  # the build started in the background is still running


# --------------------------------------------------------------------------
# A tiny throwaway book for the fault-injection tests
# --------------------------------------------------------------------------

JUPYTEXT_HEADER = """\
---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
kernelspec:
  display_name: Python 3
  language: python
  name: python3
---
"""


def make_tiny_book(target: Path, pages: dict[str, str]) -> Path:
    """Lay out a small book in ``target`` that uses this book's configuration.

    ``pages`` maps a docname under ``book/`` (for example ``"dynamics/good"``)
    to its MyST body (the jupytext header is added to pages with code cells).
    Other files (figures, exercise notebooks) the caller writes itself. The root page is
    ``book/intro``. Notebooks always execute (``execute_notebooks: force``).
    """
    config = yaml.safe_load((ROOT / "_config.yml").read_text())
    config["execute"]["execute_notebooks"] = "force"
    (target / "book").mkdir(parents=True)
    (target / "_config.yml").write_text(yaml.safe_dump(config, sort_keys=False))
    for item in ("_ext", "_static", "references.bib"):
        src = ROOT / "book" / item
        if src.is_dir():
            shutil.copytree(src, target / "book" / item, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copy2(src, target / "book" / item)
    toc = {"format": "jb-book", "root": "book/intro", "chapters": []}
    (target / "book" / "intro.md").write_text("# A tiny book\n\nIt has $a + b$ in it.\n")
    for docname, body in pages.items():
        path = target / "book" / f"{docname}.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        # Only pages with code cells are notebooks (each one starts a kernel).
        path.write_text((JUPYTEXT_HEADER if "{code-cell}" in body else "") + body)
        toc["chapters"].append({"file": f"book/{docname}"})
    (target / "_toc.yml").write_text(yaml.safe_dump(toc, sort_keys=False))
    return target


# One good chapter and one chapter per fault. The good page passes every check,
# so the faults are what the checks catch, not the tiny book's set-up.
TINY_PAGES = {
    "dynamics/good": """\
# Good chapter

(sec-good-math)=
## Math

Inline $x^2 + y^2$ and a display:

$$
E = \\tfrac12 m v^2
$$

```{code-cell} ipython3
from myst_nb import glue
import ipywidgets
glue("good_value", 2 + 2, display=False)
ipywidgets.IntSlider(value=3)
```

The value is {glue:text}`good_value`. A static picture of the slider's state:

```{code-cell} ipython3
import matplotlib.pyplot as plt
fig, ax = plt.subplots(figsize=(2, 1.5))
ax.plot([0, 1], [1, 0])
glue("good_fig", fig, display=False)
plt.close(fig)
```

```{glue:figure} good_fig
:name: fig-good-glued

A glued matplotlib figure.
```

```{figure} pic.png
:name: fig-good

A static picture next to the widget.
```

## Links

See {ref}`sec-good-math` and {doc}`widgetonly`. Checkpoint exercises:
[the notebook](https://github.com/robot-dynamics-book/robot-dynamics/blob/main/exercises/tiny.ipynb).
""",
    # (a) broken equation delimiters: $$ opened, $ closed; an environment never ended.
    "dynamics/badmath": """\
# Broken math

The energy is $$E = m c^2$ here.

$$
\\begin{aligned} a &= b
$$

[Exercises](https://github.com/robot-dynamics-book/robot-dynamics/blob/main/exercises/tiny.ipynb)
""",
    # (b) a figure whose file is missing.
    "dynamics/nofig": """\
# Missing figure

```{figure} missing.png
:name: fig-missing

This picture's file was deleted.
```

[Exercises](https://github.com/robot-dynamics-book/robot-dynamics/blob/main/exercises/tiny.ipynb)
""",
    # (c) a raising cell.
    "dynamics/raising": """\
# Raising cell

```{code-cell} ipython3
raise ValueError("this cell fails on purpose")
```

[Exercises](https://github.com/robot-dynamics-book/robot-dynamics/blob/main/exercises/tiny.ipynb)
""",
    # An interactive figure without a static picture.
    "dynamics/widgetonly": """\
# Widget only

```{code-cell} ipython3
import ipywidgets
ipywidgets.FloatSlider(value=0.5)
```

[Exercises](https://github.com/robot-dynamics-book/robot-dynamics/blob/main/exercises/tiny.ipynb)
""",
}


@pytest.fixture(scope="session")
def tiny_faulty_book(tmp_path_factory: pytest.TempPathFactory) -> BookBuild:
    """A tiny book with one good chapter and the faults above, built once."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    source = make_tiny_book(tmp_path_factory.mktemp("tiny-book") / "src", TINY_PAGES)
    fig, ax = plt.subplots(figsize=(2, 1.5), dpi=50)
    ax.plot([0, 1], [0, 1])
    fig.savefig(source / "book" / "dynamics" / "pic.png")
    plt.close(fig)
    (source / "exercises").mkdir()
    (source / "exercises" / "tiny.ipynb").write_text("{}\n")
    return run_book_build(source, source.parent / "out", timeout=600)


# --------------------------------------------------------------------------
# Browser
# --------------------------------------------------------------------------


@pytest.fixture(scope="session")
def browser() -> Iterator[object]:
    """Headless Chromium (Debian's, not a Playwright download) for the session."""
    from playwright.sync_api import sync_playwright

    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run `bash tools/install-browser.sh` (make test does)")
    with sync_playwright() as playwright:
        # Playwright gives every launch a fresh temporary --user-data-dir.
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


def block_network(context, allow_local: bool = False) -> list[str]:
    """Abort every request of a browser context except file:, data: and blob: URLs (and, with
    ``allow_local``, 127.0.0.1/localhost): the book must read offline. Returns the list that
    collects the blocked URLs."""
    from urllib.parse import urlparse

    blocked: list[str] = []

    def route(route_) -> None:
        url = route_.request.url
        local = allow_local and (urlparse(url).hostname or "") in ("127.0.0.1", "localhost")
        if url.startswith(("file:", "data:", "blob:")) or local:
            route_.continue_()
        else:
            blocked.append(url)
            route_.abort()

    context.route("**/*", route)
    return blocked


@pytest.fixture(scope="session")
def screenshot_dir() -> Path:
    """artifacts/screenshots/, without screenshots of pages no longer in the toc."""
    path = ARTIFACTS / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    current = {page.slug for page in toc_pages()}
    for old in path.glob("*.png"):
        if old.stem not in current:
            old.unlink(missing_ok=True)
    return path
