"""Students' JupyterLab (Binder) works on the book's chapters and exercises.

A real ``jupyter lab`` (the Binder pins, requirements/binder.txt) runs on a free
port of 127.0.0.1 with a token, on a temporary copy of the repository, with
temporary JUPYTER_CONFIG_DIR / JUPYTERLAB_SETTINGS_DIR / workspaces (never
~/.jupyter), configured by ``postBuild --config-only`` exactly as Binder is.
Headless Debian Chromium (Playwright) then checks:

- the lab extensions load (jupytext's and jupyterlab-myst's) without console
  errors, and MyST roles (``{cite:t}``, ``{eq}``, ``{ref}``) render, not raw;
- chapters and exercises open as notebooks (jupytext) from a /lab/tree URL;
- opening a chapter or an exercise, starting its kernel, saving it unedited and
  closing it leaves the file byte-identical (JupyterLab still shows the tab as
  unsaved once the kernel has started: it adds metadata.language_info, which
  jupytext leaves out of the file); the same round trip through
  jupytext's contents manager is checked for every chapter and exercise;
- a relative link in a rendered Markdown cell opens the file in the same lab;
- a live figure (an anywidget of lib/figures/live.py) runs in a notebook: moving
  its slider in the browser redraws it, and the readout it sends back to the
  kernel is what lib computes; setting its values from the kernel moves it.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import json
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import CHROMIUM, CHROMIUM_ARGS, ROOT, VENV_BIN

# One JupyterLab server for the module, also under `pytest -n 2 --dist loadgroup`.
pytestmark = [pytest.mark.browser, pytest.mark.xdist_group("jupyterlab")]

CHAPTERS = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "book").rglob("*.md"))
EXERCISES = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "exercises").glob("*.md"))
# Jupytext notebooks: a chapter page has a ``jupytext:`` header.
NOTEBOOKS = [p for p in CHAPTERS + EXERCISES if (ROOT / p).read_text().startswith("---\njupytext:")]
CHAPTER = "book/dynamics/constrained-dynamics.md"  # cites, equations and references
EXERCISE = "exercises/constrained_dynamics.md"

#: How long the Lab server may take to answer before the tests give up: a guard against a server
#: that never starts, not a speed limit (on 2 busy cores, beside the book build, a first start
#: took over a minute).
SERVER_START_S = 300
# ipykernel's kernelspec, as JupyterLab writes it into a notebook when the kernel starts.
KERNELSPEC = {"display_name": "Python 3 (ipykernel)", "language": "python", "name": "python3"}


@dataclass
class Lab:
    url: str
    token: str
    root: Path
    env: dict[str, str]
    log: Path

    def tree(self, path: str) -> str:
        # ?reset: start from an empty workspace (no restored tabs).
        return f"{self.url}/lab/tree/{path}?reset&token={self.token}"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _copy_repository(dest: Path) -> None:
    files = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, capture_output=True, text=True, check=True,
    ).stdout.split("\0")
    for name in filter(None, files):
        source = ROOT / name
        if not source.is_file():
            continue
        target = dest / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(source, target)


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Lab]:
    base = tmp_path_factory.mktemp("jupyterlab")
    root = base / "repo"
    _copy_repository(root)
    env = {
        **os.environ,
        "PATH": f"{VENV_BIN}{os.pathsep}{os.environ['PATH']}",
        "JUPYTER_CONFIG_DIR": str(base / "config"),
        "JUPYTERLAB_SETTINGS_DIR": str(base / "settings"),
        "JUPYTERLAB_WORKSPACES_DIR": str(base / "workspaces"),
        "JUPYTER_RUNTIME_DIR": str(base / "runtime"),
        "OPENBLAS_NUM_THREADS": "1",
        "OMP_NUM_THREADS": "1",
    }
    env.pop("MPLBACKEND", None)
    # Binder's configuration step, into the temporary config folder.
    subprocess.run([str(root / "postBuild"), "--config-only"], cwd=root, env=env, check=True)
    port, token = _free_port(), "test-token-jupyterlab"
    log = base / "server.log"
    command = [
        str(VENV_BIN / "jupyter"), "lab", "--no-browser", "--allow-root",
        "--ip=127.0.0.1", f"--port={port}", f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root}",
        # window.jupyterapp, for the test to read the shell and the document registry.
        "--LabApp.expose_app_in_browser=True",
    ]
    with log.open("w") as out:
        server = subprocess.Popen(command, cwd=root, env=env, stdout=out, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + SERVER_START_S
        while True:
            try:
                urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2)
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"jupyter lab did not start:\n{log.read_text()[-3000:]}")
                time.sleep(0.5)
        yield Lab(url, token, root, env, log)
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()


@pytest.fixture()
def page(lab: Lab, browser) -> Iterator[object]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    page.console_lines = []  # type: ignore[attr-defined]
    page.on("console", lambda m: page.console_lines.append((m.type, m.text)))  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.console_lines.append(("pageerror", str(e))))  # type: ignore[attr-defined]
    try:
        yield page
    finally:
        context.close()


def _open_notebook(page, lab: Lab, path: str) -> None:
    page.goto(lab.tree(path))
    page.wait_for_selector(".jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook .jp-Cell", timeout=30_000)
    page.wait_for_function(
        f"() => {{ const w = window.jupyterapp.shell.currentWidget;"
        f"        return w && w.context && w.context.isReady && w.context.path === {path!r}; }}",
        timeout=30_000,
    )


def _wait_kernel_idle(page) -> None:
    page.wait_for_function(
        """() => { const w = window.jupyterapp.shell.currentWidget;
                   const k = w && w.sessionContext && w.sessionContext.session && w.sessionContext.session.kernel;
                   return k && k.status === 'idle'; }""",
        timeout=60_000,
    )


def _is_dirty(page) -> bool:
    return page.evaluate("() => window.jupyterapp.shell.currentWidget.context.model.dirty")


# --------------------------------------------------------------------------
# 1. Extensions load; MyST renders
# --------------------------------------------------------------------------


def test_lab_extensions_load_and_myst_roles_render(lab: Lab, page) -> None:
    _open_notebook(page, lab, CHAPTER)
    page.wait_for_selector(".jp-MarkdownCell .myst", timeout=30_000)
    time.sleep(2)
    lines = page.console_lines
    texts = [text for _, text in lines]
    assert any("jupyterlab-myst is activated" in t for t in texts), texts[:40]
    assert any("jupytext" in t.lower() for t in texts), "jupytext's lab extension logged nothing"
    errors = [
        f"{kind}: {text}" for kind, text in lines
        if kind in ("error", "pageerror") or "RUNTIME-" in text or "Unsatisfied version" in text
    ]
    # The server's /api/... 404 for a missing workspace or the news feed are not ours.
    errors = [e for e in errors if "Failed to load resource" not in e]
    # jupyterlab-myst resolves {ref} targets inside the open notebook only; a link
    # to another chapter's section logs this and renders as plain text.
    errors = [e for e in errors if "Cross reference target was not found" not in e]
    assert not errors, "console errors in JupyterLab:\n" + "\n".join(errors)
    # jupytext's factory and the myst renderer are both registered.
    factories = page.evaluate(
        "() => [...window.jupyterapp.docRegistry.widgetFactories()].map(f => f.name)"
    )
    assert "Jupytext Notebook" in factories, factories
    # Rendered (visible) Markdown cells (jupyterlab-myst's widget replaces
    # JupyterLab's own renderer) show no raw roles; a citation is a link.
    assert page.locator(".jp-MarkdownCell .jp-RenderedMarkdown").count() == 0
    rendered = page.evaluate(
        "() => [...document.querySelectorAll('.jp-MarkdownCell .myst')].map(e => e.innerText).join('\\n')"
    )
    for role in ("{cite:t}", "{cite:p}", "{cite}", "{eq}", "{ref}", "{glue:text}", "{numref}"):
        assert role not in rendered, f"{role} shows raw in JupyterLab"
    assert "lynch2017modern" in rendered or "Lynch" in rendered, "the chapter's {cite:t} is missing"


# --------------------------------------------------------------------------
# 2. A chapter and an exercise set open as notebooks; run the kernel, save
#    unedited, close: byte-identical
# --------------------------------------------------------------------------


@pytest.mark.parametrize("path", [CHAPTER, EXERCISE])
def test_open_kernel_save_close_leaves_the_file_byte_identical(lab: Lab, page, path: str) -> None:
    """The MyST file opens as a notebook (jupytext's format, code cells), its kernel starts,
    and saving it unedited, then closing it, leaves its bytes as they were. (One visit of
    JupyterLab per file: a Lab page costs seconds to load.)"""
    file = lab.root / path
    before = file.read_bytes()
    _open_notebook(page, lab, path)
    opened = page.evaluate(
        """() => { const w = window.jupyterapp.shell.currentWidget;
                   return { path: w.context.path, notebook: w.hasClass('jp-NotebookPanel'),
                            code: w.content.widgets.filter(c => c.model.type === 'code').length,
                            format: (w.context.model.getMetadata('jupytext') || {}).text_representation?.format_name }; }"""
    )
    assert opened["path"] == path and opened["notebook"], opened
    assert opened["code"] > 0 and opened["format"] == "myst", opened
    _wait_kernel_idle(page)
    time.sleep(1)
    dirty_after_open = _is_dirty(page)
    # Save unedited (Ctrl+S), as a student pressing save or autosave would.
    page.evaluate("() => window.jupyterapp.commands.execute('docmanager:save')")
    page.wait_for_function("() => !window.jupyterapp.shell.currentWidget.context.model.dirty", timeout=15_000)
    time.sleep(1)
    after_save = file.read_bytes()
    page.evaluate("() => window.jupyterapp.commands.execute('application:close')")
    time.sleep(1)
    after_close = file.read_bytes()
    if after_close != before:
        file.write_bytes(before)  # leave the copy clean for the other tests
    assert after_save == before and after_close == before, (
        f"{path} changed on save:\n" + _diff(before, after_save)
    )
    # JupyterLab marks the notebook unsaved when the kernel starts (it records
    # metadata.language_info, which jupytext does not write to the .md file), so
    # ``dirty_after_open`` may be true; what matters is that saving, autosave
    # included, writes the same bytes.
    del dirty_after_open


def _diff(a: bytes, b: bytes) -> str:
    import difflib

    return "".join(
        list(difflib.unified_diff(a.decode().splitlines(True), b.decode().splitlines(True)))[:40]
    )


@pytest.mark.parametrize("path", NOTEBOOKS)
def test_jupytext_round_trip_is_byte_identical(lab: Lab, path: str, tmp_path: Path) -> None:
    """What JupyterLab's save does (jupytext's contents manager, with the repository's
    jupytext.toml and the kernelspec JupyterLab sets), for every chapter and exercise."""
    from jupytext import TextFileContentsManager

    manager = TextFileContentsManager(root_dir=str(lab.root))
    model = manager.get(path)
    model["content"].metadata["kernelspec"] = dict(KERNELSPEC)
    copy = str(Path(path).with_name("_roundtrip_" + Path(path).name))
    manager.save(model, copy)
    before, after = (lab.root / path).read_bytes(), (lab.root / copy).read_bytes()
    (lab.root / copy).unlink()
    assert after == before, (
        f"saving {path} unedited from JupyterLab rewrites it (normalise its header to "
        f"kernelspec display_name {KERNELSPEC['display_name']!r}, and remove blank lines "
        "at the end of code cells):\n" + _diff(before, after)
    )


# --------------------------------------------------------------------------
# 5. A relative link in a rendered Markdown cell opens the file in this lab
# --------------------------------------------------------------------------


def test_chapter_link_to_its_exercises_opens_locally(lab: Lab, page) -> None:
    """The chapter's own link to its exercise notebook opens the file in this lab.

    In the HTML book the same Markdown link becomes the web and Binder links
    (book/_ext/repo_links.py); inside a running Binder a Binder link would start
    a second server, so the source links the file relatively.
    """
    _open_notebook(page, lab, CHAPTER)
    link = page.locator(".jp-MarkdownCell .myst a", has_text=EXERCISE).first
    link.wait_for(state="attached", timeout=30_000)
    pages_before = len(page.context.pages)
    link.scroll_into_view_if_needed()
    link.click()
    page.wait_for_function(
        f"() => window.jupyterapp.shell.currentWidget?.context?.path === {EXERCISE!r}",
        timeout=30_000,
    )
    assert len(page.context.pages) == pages_before, "the link opened a new browser tab"


# --------------------------------------------------------------------------
# 4. Idle kernels are culled
# --------------------------------------------------------------------------


def test_binder_configuration_culls_idle_kernels(lab: Lab) -> None:
    """postBuild's jupyter_server config is read: closed tabs' kernels are culled.

    (The culler starts with the first kernel; this runs after the kernel tests.)"""
    log = lab.log.read_text()
    assert "Culling kernels with idle durations > 300 seconds" in log, log[-3000:]
    # A student's open tab keeps its kernel, however long they read.
    assert "Culling kernels even with connected clients" not in log


# --------------------------------------------------------------------------
# 6. A live figure runs in a notebook, both ways
# --------------------------------------------------------------------------

LIVE_NOTEBOOK = "_live_figure_check.ipynb"
LIVE_CELLS = [
    "from lib import figures as cf\nw = cf.show_figure('cone2d')\nw",
    # What the kernel holds: the values, state and readout the front end sent back.
    "import json\nprint('KERNEL ' + json.dumps({'values': w.values, 'state': w.state_text, 'rows': w.readout}))",
    "w.values = {**w.values, 'mu': 1.0}",
]


def _run_cell(page, index: int) -> None:
    page.evaluate(
        f"""() => {{ const panel = window.jupyterapp.shell.currentWidget;
                    panel.content.activeCellIndex = {index};
                    return window.jupyterapp.commands.execute('notebook:run-cell'); }}"""
    )


def _kernel_state(page) -> dict:
    """Run the second cell (its old output cleared first) and read what it prints."""
    page.evaluate("() => window.jupyterapp.shell.currentWidget.content.widgets[1].model.outputs.clear()")
    _run_cell(page, 1)
    handle = page.wait_for_function(
        """() => { const cell = window.jupyterapp.shell.currentWidget.content.widgets[1];
                   const out = cell.node.querySelector('.jp-OutputArea-output');
                   return out && out.textContent.trim().startsWith('KERNEL ') ? out.textContent.trim() : false; }""",
        timeout=30_000,
    )
    return json.loads(handle.json_value()[len("KERNEL "):])


def _kernel_state_once_synced(page, values: dict, state_text: str, timeout_s: float = 30.0) -> dict:
    """The kernel's state once it holds ``values`` and ``state_text``, or its last state after
    ``timeout_s``.

    ipywidgets' front end keeps at most one state update in flight and buffers the rest until
    the kernel has answered it, so a cell run right after quick slider moves can reach the
    kernel before their last update does; the kernel is in step only once that update lands."""
    deadline = time.monotonic() + timeout_s
    while True:
        state = _kernel_state(page)
        in_step = state["values"] == values and state["state"] == state_text
        if in_step or time.monotonic() > deadline:
            return state
        page.wait_for_timeout(200)


def test_live_figure_runs_in_a_notebook(lab: Lab, page) -> None:
    """anywidget's lab extension renders the planar-cone figure; the slider, the picture and the
    kernel agree with lib (the readout the front end sends back is ``cone2d_describe``'s)."""
    import nbformat

    from test_figures_live import reference

    notebook = nbformat.v4.new_notebook()
    notebook.cells = [nbformat.v4.new_code_cell(source) for source in LIVE_CELLS]
    notebook.metadata["kernelspec"] = dict(KERNELSPEC)
    path = lab.root / LIVE_NOTEBOOK
    nbformat.write(notebook, path)
    try:
        _open_notebook(page, lab, LIVE_NOTEBOOK)
        _wait_kernel_idle(page)
        _run_cell(page, 0)
        figure = '.jp-OutputArea .cf-live[data-figure="cone2d"]'
        page.wait_for_selector(f"{figure}[data-frame]", timeout=60_000)
        root = page.locator(figure)
        start = _kernel_state(page)
        assert start["values"] == {"f_t": 1.0, "f_n": 3.0, "mu": 0.5}, start
        assert start["state"] == "STICK" and start["rows"] == reference("cone2d", start["values"])["rows"], start
        before = root.evaluate("r => ({picture: r.querySelector('.cf-pictures').innerHTML, frame: +r.dataset.frame})")

        # A reader moves the f_t slider with the keyboard (the notebook around it, which
        # uses the arrow keys for cell navigation, must leave them to the slider):
        # 21 steps of 0.05 N to 2.05 N > mu f_n = 1.5 N.
        slider = root.locator('input[data-name="f_t"]')
        slider.focus()
        for key in ["ArrowRight"] * 20 + ["ArrowUp"]:
            page.keyboard.press(key)
        after = root.evaluate(
            "r => ({picture: r.querySelector('.cf-pictures').innerHTML, frame: +r.dataset.frame,"
            "       state: r.querySelector('.cf-state').textContent, values: JSON.parse(r.dataset.values)})"
        )
        assert after["values"]["f_t"] == 2.05 and after["state"] == "SLIP", after
        assert after["frame"] >= before["frame"] + 21, (before["frame"], after["frame"])
        assert after["picture"] != before["picture"], "the picture was not redrawn"
        assert "supplied" in after["picture"], "the slipping picture shows no supplied force"

        moved = _kernel_state_once_synced(page, after["values"], after["state"])
        expected = reference("cone2d", moved["values"])
        assert moved["values"] == {"f_t": 2.05, "f_n": 3.0, "mu": 0.5}, moved
        assert moved["state"] == expected["state"] == "SLIP", moved
        assert moved["rows"] == expected["rows"], moved

        # The kernel sets the values: the slider, the picture and the readout follow.
        _run_cell(page, 2)
        page.wait_for_function(
            f"""() => document.querySelector('{figure} .cf-state').textContent === 'STICK'""", timeout=30_000
        )
        assert root.locator('input[data-name="mu"]').input_value() == "1"
        back = _kernel_state_once_synced(page, {"f_t": 2.05, "f_n": 3.0, "mu": 1.0}, "STICK")
        assert back["values"] == {"f_t": 2.05, "f_n": 3.0, "mu": 1.0}, back
        assert back["state"] == "STICK" and back["rows"] == reference("cone2d", back["values"])["rows"], back

        errors = [f"{kind}: {text}" for kind, text in page.console_lines if kind in ("error", "pageerror")]
        errors = [e for e in errors if "Failed to load resource" not in e]
        assert not errors, "console errors:\n" + "\n".join(errors)
    finally:
        path.unlink(missing_ok=True)
