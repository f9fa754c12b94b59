"""Issue 11: feedback names a cell the way the student sees it, in every format.

Cells are counted as JupyterLab lists them -- every cell, Markdown included,
from 1 -- and named with the heading above them (``cell 5 under "Exercise
3.1.2"``). The same notebook as ``.ipynb``, MyST ``.md`` and percent-format
``.py`` gives the same names, and the student's inline check in a kernel
names the failing cell exactly as the instructor's grader does.
"""

from __future__ import annotations

import json

import jupytext
import nbformat
import pytest

from grader import core
from grader_helpers import CHAPTER, small_limits

HEADING = "## Exercise 3.1.2 · `inertia_between_points` · 2 points · partial credit per case · about 12 min"

#: (cell type, source); the failing function is cell 6, the cell that raises at top level cell 8.
CELLS = [
    ("markdown", "# 3.1 Rigid-body dynamics: checkpoint exercises"),
    ("code", 'from grader.inline import checker\n\ncheck = checker("rigid_body_dynamics")'),
    ("markdown", "Some words before the first exercise."),
    ("markdown", HEADING),
    ("markdown", "Compute the inertia about the point b."),
    ("code", "def inertia_between_points(inertia_a, mass, com, a, b):\n    total = float(mass)\n"
             "    raise ValueError(f'not yet {total:g}')"),
    ("code", 'check("inertia_between_points", inertia_between_points)'),
    ("code", "x = 1\n1 / 0"),
]
FAIL_LABEL = 'cell 6 under "Exercise 3.1.2"'
WHERE = f"({FAIL_LABEL}, line 3)"
TOP_LEVEL = 'Cell 8 under "Exercise 3.1.2" raised ZeroDivisionError (cell 8 under "Exercise 3.1.2", line 2)'


def _notebook():
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    for kind, src in CELLS:
        nb.cells.append(nbformat.v4.new_markdown_cell(src) if kind == "markdown" else nbformat.v4.new_code_cell(src))
    return nb


def _write(folder, suffix):
    path = folder / f"student{suffix}"
    if suffix == ".ipynb":
        nbformat.write(_notebook(), path)
    elif suffix == ".md":
        path.write_text(jupytext.writes(_notebook(), fmt="md:myst"))
    else:
        path.write_text(jupytext.writes(_notebook(), fmt="py:percent"))
    return path


#: The tests that read a graded file run on one worker (an xdist group: conftest.py).
GRADED = pytest.mark.xdist_group("graded-cells")


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    """``graded(suffix)``: the notebook written in that format and its report, graded once."""
    done = {}

    def grade(suffix):
        if suffix not in done:
            path = _write(tmp_path_factory.mktemp("cells"), suffix)
            done[suffix] = path, core.grade_submission(path, core.GradeOptions(chapter=CHAPTER,
                                                                               limits=small_limits()))
        return done[suffix]

    return grade


@GRADED
@pytest.mark.parametrize("suffix", [".ipynb", ".md", ".py"])
def test_cells_are_numbered_as_jupyterlab_shows_them_with_their_heading(graded, suffix):
    path, report = graded(suffix)
    cells, _ = core.read_submission(path)
    assert [(n, label) for n, _, label in cells] == [
        (2, "cell 2 under \"3.1 Rigid-body dynamics: checkpoint exercises\""),
        (6, FAIL_LABEL), (7, 'cell 7 under "Exercise 3.1.2"'), (8, 'cell 8 under "Exercise 3.1.2"')]
    assert report["status"] == "graded" and report["score"] == 0.0
    first = report["exercises"][1]
    assert first["name"] == "inertia_between_points"
    assert f"raised ValueError {WHERE}: not yet" in first["feedback"], first
    assert all(WHERE in c["message"] for c in first["cases"]), first
    assert any(m.startswith(TOP_LEVEL) for m in report["messages"]), report["messages"]


def test_a_percent_file_counts_every_block_and_a_plain_file_is_one_cell(tmp_path):
    path = tmp_path / "hw.py"
    path.write_text("import numpy as np\n# %% [markdown]\n# ## Exercise 3.1.5 · `body_wrench` · 2 points\n"
                    "# %%\n\n# %%\ndef f():\n    pass\n")
    cells, module = core.read_submission(path)
    assert [(n, label) for n, _, label in cells] == [
        (1, "cell 1"), (4, 'cell 4 under "Exercise 3.1.5"')]  # cell 3 is blank: not run, still counted
    assert module == "submission"
    path.write_text("import numpy as np\nx = 1\n")
    assert [(n, label) for n, _, label in core.read_submission(path)[0]] == [(1, "cell 1")]


@GRADED
@pytest.mark.parametrize("suffix", [".ipynb", ".md"])
def test_inline_check_names_the_cell_as_the_grader_does(tmp_path, monkeypatch, graded, suffix):
    """The check cell, run in a kernel that knows its notebook (JupyterLab sets JPY_SESSION_NAME)."""
    import nbclient

    path, report = graded(suffix)
    grader_says = report["exercises"][1]["cases"][0]["message"]
    assert WHERE in grader_says
    monkeypatch.setenv("JPY_SESSION_NAME", str(path))
    nb = _notebook()
    nb.cells[-1].source = "pass"  # the last cell would stop the run
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    printed = "".join(o.get("text", "") for o in nb.cells[6].outputs)
    assert f"raised ValueError {WHERE}: not yet" in printed, printed
    # Edited after the last save: the cell is not in the file; named by its execution count.
    monkeypatch.setenv("JPY_SESSION_NAME", str(tmp_path / "elsewhere.ipynb"))
    nb = _notebook()
    nb.cells[-1].source = "pass"
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(tmp_path)}}).execute()
    printed = "".join(o.get("text", "") for o in nb.cells[6].outputs)
    assert "raised ValueError (the cell run as [2], line 3): not yet" in printed, printed
    json.dumps(printed)


# --------------------------------------------------------------------------
# Issue 19.7: `import lib` above numpy in the first cell, and a lib-free exercise
# --------------------------------------------------------------------------

LIB_FREE_HEADING = "## Exercise 3.1.1 · `mesh_inertia` · 3 points · partial credit per case · about 30 min"


def _lib_first_notebook(first_cell: str):
    import inspect

    from grader.spec import load_solutions

    answer = inspect.getsource(load_solutions(CHAPTER).mesh_inertia)
    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.cells = [nbformat.v4.new_markdown_cell("# Checkpoint exercises 3.1"),
                nbformat.v4.new_code_cell(first_cell),
                nbformat.v4.new_markdown_cell(LIB_FREE_HEADING),
                nbformat.v4.new_code_cell(answer),
                nbformat.v4.new_code_cell('check("mesh_inertia", mesh_inertia)')]
    return nb


LIB_FIRST = 'import lib\nimport numpy as np\nfrom grader.inline import checker\n\ncheck = checker("rigid_body_dynamics")'
CAUSE = ('cell 2 under "Checkpoint exercises 3.1" stops at line 1 when the exercises graded without lib run '
         '(`import lib` fails there)')


def _check_output(nb, path, monkeypatch) -> str:
    import nbclient

    monkeypatch.setenv("JPY_SESSION_NAME", str(path))
    nbclient.NotebookClient(nb, timeout=120, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}}).execute()
    return "".join(o.get("text", "") for o in nb.cells[4].outputs)


def test_import_lib_above_numpy_the_check_and_the_grader_agree_and_name_the_cause(tmp_path, monkeypatch):
    """The check said "passes, as it will in the grader"; the grader then gave 0 with `np` undefined
    and the cause in its 15th note. Now both fail it, and both say first which cell stopped where."""
    path = tmp_path / "student.ipynb"
    nb = _lib_first_notebook(LIB_FIRST)
    nbformat.write(nb, path)
    report = core.grade_submission(path, core.GradeOptions(chapter=CHAPTER, limits=small_limits()))
    entry = next(e for e in report["exercises"] if e["name"] == "mesh_inertia")
    assert entry["score"] == 0.0
    assert entry["feedback"].startswith(CAUSE[0].upper() + CAUSE[1:]), entry["feedback"]
    assert "name 'np' is not defined" in entry["feedback"]
    printed = _check_output(nb, path, monkeypatch)
    assert f"FAIL where it is graded: {CAUSE}" in printed, printed
    assert "name 'np' is not defined" in printed and "\n  0 of " in printed, printed
    # lib imported in a cell of its own: full marks, and the check passes every public case
    nb = _lib_first_notebook('import numpy as np\nfrom grader.inline import checker\n\n'
                             'check = checker("rigid_body_dynamics")\nimport lib')
    nbformat.write(nb, path)
    report = core.grade_submission(path, core.GradeOptions(chapter=CHAPTER, limits=small_limits()))
    entry = next(e for e in report["exercises"] if e["name"] == "mesh_inertia")
    assert entry["score"] == entry["points"], entry
    printed = _check_output(nb, path, monkeypatch)
    assert "FAIL" not in printed, printed
