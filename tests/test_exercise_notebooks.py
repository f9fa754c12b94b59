"""The exercise notebooks as a student runs them (JupyterLab or Binder).

Each notebook in ``exercises/`` is executed top to bottom in a real kernel:
untouched, every cell runs without an error and every check reports failing
public cases plus the hidden cases still to come; with the reference answers
bound to the exercise names just before each check cell, every check reports
all its public cases passing. No check ever claims that all tests passed.
"""

from __future__ import annotations

import re
from pathlib import Path

import jupytext
import nbclient
import nbformat
import pytest

from grader.spec import load_chapter

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "exercises").glob("*.md"))
CHECK_CALL = re.compile(r'^check\("(?P<name>\w+)",', re.MULTILINE)
SUMMARY = re.compile(r"(?P<passed>\d+) of (?P<total>\d+) public cases? pass")


def _execute(nb: nbformat.NotebookNode, workdir: Path) -> list[str]:
    nbclient.NotebookClient(
        nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(workdir)}}
    ).execute()
    errors = [
        f"cell {i}: {out.get('ename')}: {out.get('evalue')}"
        for i, cell in enumerate(nb.cells)
        if cell.cell_type == "code"
        for out in cell.get("outputs", [])
        if out.get("output_type") == "error"
    ]
    assert not errors, errors
    return [
        "".join(out.get("text", ""))
        for cell in nb.cells
        if cell.cell_type == "code" and CHECK_CALL.search(cell.source)
        for out in cell.get("outputs", [])
        if out.get("output_type") == "stream"
    ]


def _summaries(outputs: list[str]) -> list[tuple[int, int]]:
    found = [(int(m["passed"]), int(m["total"])) for text in outputs for m in SUMMARY.finditer(text)]
    assert found, "no check printed its 'k of n public cases pass' summary"
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_untouched_notebook_runs_and_every_check_fails_politely(path, tmp_path):
    """The check cells never raise, so 'Run All' reaches every exercise of the spec.

    The suite's one run of each untouched notebook in a kernel.
    """
    nb = jupytext.read(path)
    checks = [m["name"] for cell in nb.cells if cell.cell_type == "code" for m in CHECK_CALL.finditer(cell.source)]
    outputs = _execute(nb, tmp_path)
    text = "\n".join(outputs)
    assert len(_summaries(outputs)) == len(checks)
    assert all(passed == 0 for passed, _ in _summaries(outputs)), text
    assert text.count("hidden case") >= len(checks)
    every_output = "\n".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)
    assert every_output.count("public cases pass") == len(load_chapter(path.stem).exercises)
    assert "all tests passed" not in every_output.lower()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_reference_answers_pass_every_public_check(path, tmp_path):
    nb = jupytext.read(path)
    solutions = ROOT / "solutions" / f"{path.stem}.py"
    cells = []
    for cell in nb.cells:
        match = CHECK_CALL.search(cell.source) if cell.cell_type == "code" else None
        if match:
            # What a student who solved the exercise would have defined.
            cells.append(nbformat.v4.new_code_cell(f"{match['name']} = _reference.{match['name']}"))
        cells.append(cell)
    loader = (
        "import importlib.util as _u\n"
        f"_spec = _u.spec_from_file_location('_reference', {str(solutions)!r})\n"
        "_reference = _u.module_from_spec(_spec)\n"
        "_spec.loader.exec_module(_reference)"
    )
    nb.cells = [nbformat.v4.new_code_cell(loader)] + cells
    outputs = _execute(nb, tmp_path)
    summaries = _summaries(outputs)
    # A concept check (choice, number with a unit) has no public case: "0 of 0", and no FAIL.
    assert all(passed == total for passed, total in summaries), "\n".join(outputs)
    assert all(total > 0 for _, total in summaries if total) and any(total for _, total in summaries)
    assert "FAIL" not in "\n".join(outputs), "\n".join(outputs)
    assert "all tests passed" not in "\n".join(outputs).lower()
