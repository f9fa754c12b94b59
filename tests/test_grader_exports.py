"""Hand-ins written by JupyterLab's export menu are graded (issue 12).

JupyterLab opens the exercise notebook through jupytext, which keeps no
``language_info``; *File → Save and Export Notebook As → Markdown* and
*→ Executable Script* run nbconvert's markdown and script exporters on it.
The files here are made by those same exporters, on the notebook as
jupytext reads it (bare ```` ``` ```` fences; a ``.txt`` script without cell
markers, refused with a message saying what to hand in) and on the notebook
after a kernel ran (```` ```python ```` fences; a ``.py`` script with
``# In[ ]:`` markers). Scores are exact.
"""

from __future__ import annotations

import copy

import jupytext
import nbformat
import pytest
from nbconvert import MarkdownExporter, ScriptExporter

from grader import core
from grader.spec import load_chapter
from grader_helpers import REPO, small_limits

CHAPTER = "rigid_body_dynamics"
LANGUAGE_INFO = {"name": "python", "mimetype": "text/x-python", "file_extension": ".py",
                 "codemirror_mode": {"name": "ipython", "version": 3},
                 "nbconvert_exporter": "python", "pygments_lexer": "ipython3", "version": "3.12.0"}

INERTIA = '''def inertia_between_points(inertia_a, mass, com, a, b):
    def shift(d):
        return mass * (d @ d * np.eye(3) - np.outer(d, d))
    return inertia_a - shift(com - a) + shift(com - b)
'''
WRENCH = '''def body_wrench(mass, inertia, com, omega, v, omega_dot, accel):
    force = mass * (accel + np.cross(omega_dot, com) + np.cross(omega, np.cross(omega, com)))
    moment = inertia @ omega_dot + np.cross(omega, inertia @ omega) + np.cross(com, force)
    return np.concatenate([moment, force])
'''
SCRATCH = "inertia_between_points(np.eye(3), 1.0, [1.0, 2.0], [0.0, 0.0, 0.0], [1.0, 0.0, 0.0])  # a scratch cell that raises\n"


def _notebook(kernel_ran: bool, solutions: bool):
    """The exercise notebook as JupyterLab holds it: the reference solutions in a last cell
    (``solutions``), or the first two stubs filled in and a scratch cell that raises after
    the first one."""
    nb = jupytext.read(REPO / "exercises" / f"{CHAPTER}.md")
    if solutions:
        nb.cells.append(nbformat.v4.new_code_cell((REPO / "solutions" / f"{CHAPTER}.py").read_text()))
    else:
        cells = []
        for cell in nb.cells:
            if cell.cell_type == "code" and cell.source.startswith("def inertia_between_points("):
                cells += [nbformat.v4.new_code_cell(INERTIA), nbformat.v4.new_code_cell(SCRATCH)]
            elif cell.cell_type == "code" and cell.source.startswith("def body_wrench("):
                cells.append(nbformat.v4.new_code_cell(WRENCH))
            else:
                cells.append(cell)
        nb.cells = cells
    nb = copy.deepcopy(nb)
    nb.metadata.pop("language_info", None)
    if kernel_ran:
        nb.metadata["language_info"] = dict(LANGUAGE_INFO)
    return nb


def _export(nb, exporter, tmp_path, name="hand_in"):
    body, resources = exporter().from_notebook_node(nb)
    path = tmp_path / f"{name}{resources['output_extension']}"
    path.write_text(body)
    return path


def _grade(path):
    return core.grade_submission(path, core.GradeOptions(chapter=CHAPTER, limits=small_limits()))


def test_the_exporters_write_what_the_readers_expect(tmp_path):
    """The formats themselves: the jupytext notebook exports bare fences and a .txt without
    markers; after a kernel ran, ```python fences and a .py with # In[ ]: markers."""
    bare = _export(_notebook(False, True), MarkdownExporter, tmp_path, "a").read_text()
    assert "\n```\ndef inertia_between_points" in bare and "```python" not in bare
    assert "```xml" in bare  # a statement's example: must stay Markdown
    txt = _export(_notebook(False, True), ScriptExporter, tmp_path, "b")
    assert txt.suffix == ".txt" and "# In[" not in txt.read_text()
    fenced = _export(_notebook(True, True), MarkdownExporter, tmp_path, "c").read_text()
    assert "```python\ndef inertia_between_points" in fenced
    script = _export(_notebook(True, True), ScriptExporter, tmp_path, "d")
    assert script.suffix == ".py" and "\n# In[ ]:\n" in script.read_text()


@pytest.mark.parametrize("kernel_ran, exporter", [(False, MarkdownExporter), (True, MarkdownExporter),
                                                   (True, ScriptExporter)],
                         ids=["markdown-jupytext", "markdown-kernel-ran", "script-kernel-ran"])
def test_exported_reference_solutions_score_full_marks(exporter, kernel_ran, tmp_path):
    path = _export(_notebook(kernel_ran, True), exporter, tmp_path)
    report = _grade(path)
    assert report["status"] == "graded", report
    assert report["score"] == load_chapter(CHAPTER).max_score, core.format_report(report)
    # a statement's ```xml example is Markdown: no cell failed
    assert report["messages"] == [], report["messages"]


@pytest.mark.parametrize("kernel_ran", [False, True], ids=["jupytext", "kernel-ran"])
def test_exported_markdown_keeps_cells_apart(kernel_ran, tmp_path):
    """Two exercises done, a scratch cell that raises between them: 2 + 2 points, and the
    note names the cell under its exercise heading."""
    report = _grade(_export(_notebook(kernel_ran, False), MarkdownExporter, tmp_path))
    assert report["score"] == 4.0, core.format_report(report)
    scores = {ex["name"]: ex["score"] for ex in report["exercises"]}
    assert scores["inertia_between_points"] == 2.0 and scores["body_wrench"] == 2.0
    assert 'under "Exercise 3.1.2"' in core.format_report(report)


def test_exported_script_with_markers_keeps_cells_apart(tmp_path):
    path = _export(_notebook(True, False), ScriptExporter, tmp_path)
    cells, _ = core.read_submission(path)
    labels = [label for _, _, label in cells]
    assert any('under "Exercise 3.1.5"' in label for label in labels), labels
    report = _grade(path)
    assert report["score"] == 4.0, core.format_report(report)
    assert 'under "Exercise 3.1.2"' in core.format_report(report)


def test_exported_script_without_markers_is_refused_with_what_to_hand_in(tmp_path):
    """The jupytext notebook's script export is a .txt with the code cells run together (one
    failing line would cost every answer after it): refused, saying what to hand in."""
    path = _export(_notebook(False, False), ScriptExporter, tmp_path)
    assert path.suffix == ".txt"
    report = _grade(path)
    assert report["status"] == "unreadable" and report["score"] == 0
    message = " ".join(report["messages"])
    assert "Executable Script" in message and "Download" in message and "Notebook (.ipynb)" in message


def test_other_file_types_say_what_to_hand_in(tmp_path):
    path = tmp_path / "hand_in.html"
    path.write_text("<html></html>")
    report = _grade(path)
    assert report["status"] == "unreadable" and report["score"] == 0
    message = " ".join(report["messages"])
    assert "Download" in message and "Notebook (.ipynb)" in message
