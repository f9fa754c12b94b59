"""Feedback that is fair everywhere (issue 19.10): what it shows, how it reads, what it accepts.

* hidden design cases never reveal the case's inputs or requirements;
* progress lines show a public case's arrays row by row (no literal ``\\n``);
* a failure shows the error relative to the expected value's scale;
* unambiguous forms are accepted: a number with its unit written without a
  space or spelled out, a set of letters written together, a SymPy matrix
  given as a list of rows;
* the Gradescope zip (private solutions inside) is written 0600 whatever the umask;
* ``make install-book`` installs nbconvert, which JupyterLab's export menu needs.
"""

from __future__ import annotations

import os
import re
import stat

import pytest
import sympy as sp

import grader.compare as cmp
from grader import core, runner
from grader.gradescope import make_bundle
from grader.spec import DesignExercise, load_chapter
from grader_helpers import CHAPTER, REPO, small_limits

#: A chapter with a design exercise.
DESIGN_CHAPTER = "contact_and_impact"


def test_a_hidden_design_case_shows_neither_its_inputs_nor_its_requirements():
    marker = "limit 0.123456 N at mass 7.654321 kg"
    ex = DesignExercise(number="0.1", name="d", points=1, args=("m",),
                        judge=lambda inputs, value: (value[0] > 1.0, marker))
    hidden_fail = core.judge_case(ex, None, {"m": 7.654321}, [0.5], public=False)
    hidden_pass = core.judge_case(ex, None, {"m": 7.654321}, [2.0], public=False)
    public_fail = core.judge_case(ex, None, {"m": 7.654321}, [0.5], public=True)
    assert not hidden_fail.passed and hidden_fail.message == core.HIDDEN_DESIGN_FAILED
    assert hidden_pass.passed and hidden_pass.message == "passed"
    assert marker in public_fail.message  # public cases say why


def test_graded_design_feedback_keeps_hidden_cases_hidden(tmp_path):
    spec = load_chapter(DESIGN_CHAPTER)
    design = next(e for e in spec.exercises if e.kind == "design")
    sub = tmp_path / "hw.py"
    sub.write_text((REPO / "solutions" / f"{DESIGN_CHAPTER}.py").read_text()
                   + f"\n\ndef {design.name}(*args):\n    import numpy as np\n"
                   f"    return np.full({len(core.expected_cases(spec)[design.name][0].expected)}, 1e-9)\n")
    report = core.grade_submission(sub, core.GradeOptions(chapter=DESIGN_CHAPTER, limits=small_limits()))
    entry = next(e for e in report["exercises"] if e["name"] == design.name)
    hidden = [c for c in entry["cases"] if not c["public"]]
    assert hidden and entry["score"] == 0.0
    for case in hidden:
        assert case["message"].endswith(": " + core.HIDDEN_DESIGN_FAILED), case
    # no number of any hidden case's inputs appears anywhere in the exercise's feedback
    shown = entry["feedback"] + " ".join(c["message"] for c in entry["cases"])
    for c in core.expected_cases(spec)[design.name]:
        if not c.public:
            for value in c.inputs.values():
                if isinstance(value, float):
                    assert f"{value:.4g}" not in shown, (value, shown)


def test_progress_lines_show_arrays_row_by_row():
    res = cmp.compare([[1.0, 2.0], [3.0, 4.0]], [[1.0, 2.0], [3.0, 5.0]], rtol=1e-9, atol=1e-12, public=True)
    report = {"submission": "hw.py", "score": 0.0, "max_score": 1.0, "status": "graded", "messages": [],
              "exercises": [{"number": "1.1", "name": "f", "score": 0.0, "points": 1.0,
                             "feedback": f"0 of 1 cases passed; first failure: public case 1: {res.message}"}]}
    text = core.format_report(report)
    assert "\\n" not in text, text
    assert any(line.strip().startswith("[3. 4.]]") for line in text.splitlines()), text
    assert any(line.strip().startswith("returned [[1. 2.]") for line in text.splitlines()), text


def test_a_failure_shows_the_error_relative_to_the_scale():
    """4.15e-6 on a 1.7e-5 s quantity read like round-off; it is 24 % of it."""
    res = cmp.compare(1.7e-5, 1.7e-5 + 4.15e-6, rtol=1e-6, atol=1e-9, public=True)
    assert not res.passed
    assert re.search(r"error 4\.15e-06 \(24\.4 % of \|expected\| = 1\.7e-05\)", res.message), res.message
    res = cmp.compare([0.0, 2.0], [0.5, 2.0], rtol=1e-9, atol=1e-12, public=True)
    assert "error 0.5 at index (0,);" in res.message, res.message  # no scale at an expected 0


@pytest.mark.parametrize("text", ["4.382m", "4.382 m", "4.382 meters", "4.382 metres", "4382 millimeters",
                                  "4.382 meter", "(4.382, 'm')"])
def test_a_length_written_every_unambiguous_way(text):
    value = eval(text) if text.startswith("(") else text  # noqa: S307 (test literals)
    si = runner.to_quantity(value)
    assert si[1:] == [0.0, 1.0, 0.0] and abs(si[0] - 4.382) < 1e-12


def test_spelled_units_with_per_and_prefixes():
    assert runner.to_quantity("3 meters per second")[1:] == [0.0, 1.0, -1.0]
    assert runner.to_quantity("2 kilonewtons")[:2] == [2000.0, 1.0]
    assert runner.to_quantity("0.5 milliseconds")[0] == pytest.approx(5e-4)
    assert runner.to_quantity("1.2e5 N/m")[0] == 1.2e5
    for bad in ("4.382 furlongs", "meters 4.382", "4.382 kilominutes"):
        with pytest.raises(runner.AnswerError):
            runner.to_quantity(bad)


def test_letters_written_together_are_a_set_of_letters():
    options = ["A", "B", "C", "D"]
    assert runner.to_choice("AB", options, multi=True) == [0, 1]
    assert runner.to_choice("ac", options, multi=True) == [0, 2]
    assert runner.to_choice("A, C", options, multi=True) == runner.to_choice({"A", "C"}, options, multi=True)
    with pytest.raises(runner.AnswerError, match="not one of the options"):
        runner.to_choice("AB", options, multi=False)  # one letter asked: "AB" is not one
    with pytest.raises(runner.AnswerError):
        runner.to_choice("AZ", options, multi=True)


def test_a_matrix_given_as_a_list_of_rows():
    x, y = sp.symbols("x y")
    rows = [[x, 1], [0, x * y]]
    got = runner.evaluate_expression(rows, ["x", "y"], [{"x": 2.0, "y": 3.0}], shape=(2, 2))
    assert got == runner.evaluate_expression(sp.Matrix(rows), ["x", "y"], [{"x": 2.0, "y": 3.0}], shape=(2, 2))
    assert got == [[[2.0, 1.0], [0.0, 6.0]]]
    for bad in ([["x"]], [[x, 1], [0]], [[x]]):
        with pytest.raises(runner.AnswerError):
            runner.evaluate_expression(bad, ["x", "y"], [{"x": 2.0, "y": 3.0}], shape=(2, 2))
    with pytest.raises(runner.AnswerError, match="expected a scalar|Matrix|list"):
        runner.evaluate_expression(rows, ["x", "y"], [{"x": 2.0, "y": 3.0}], shape=None)


@pytest.mark.parametrize("umask", [0o000, 0o022])
def test_the_gradescope_zip_is_readable_by_its_owner_only(tmp_path, umask):
    old = os.umask(umask)
    try:
        out = make_bundle(load_chapter(CHAPTER), tmp_path / "autograder.zip")
        again = make_bundle(load_chapter(CHAPTER), out)  # over an existing file too
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(again).st_mode) == 0o600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["autograder.zip"]  # no temporary file left


def test_make_install_book_installs_nbconvert():
    """The hand-in routes JupyterLab's export menu writes (Markdown, Notebook) run nbconvert."""
    makefile = (REPO / "Makefile").read_text()
    recipe = re.search(r"^\$\(VENV\)/\.book-installed:.*\n((?:\t.*\n)+)", makefile, flags=re.M)
    assert recipe and "-r requirements/book.txt" in recipe.group(1)
    pins = [line.split("==")[0].strip().lower() for line in (REPO / "requirements" / "book.txt").read_text()
            .splitlines() if "==" in line and not line.lstrip().startswith("#")]
    assert "nbconvert" in pins


def test_the_accepted_forms_are_graded_in_the_child(tmp_path):
    """End to end, through the sandboxed child: a matrix as a list of rows, letters written
    together, a length without a space; and a wrong type is a plain wrong answer (it once came
    back as "interfered with the grader's channel": the child's private copy of a runner
    function had lost its keyword-only defaults)."""
    from grader.spec import ChoiceExercise, Chapter, ExpressionExercise, QuantityExercise

    chapter = Chapter(name="tiny_forms", title="0 Tiny", seed=1, exercises=[
        ExpressionExercise(number="0.1", name="M", points=1, symbols=("x",), public_points=[{"x": 2.0}],
                           sample=lambda rng: {"x": float(rng.uniform(1.0, 2.0))}, n_hidden=2, shape=(2, 2)),
        ChoiceExercise(number="0.2", name="facts", points=1, options=("A", "B", "C"), multi=True),
        QuantityExercise(number="0.3", name="length", points=1, unit="m", rtol=1e-3),
    ])
    solutions = tmp_path / "tiny_forms.py"
    solutions.write_text("import sympy as sp\nx = sp.Symbol('x')\nM = sp.Matrix([[x, 1], [0, x**2]])\n"
                         "facts = {'A', 'C'}\nlength = '4.382 m'\n")
    opts = core.GradeOptions(chapter=chapter, solutions=str(solutions), limits=small_limits())
    good = tmp_path / "good.py"
    good.write_text("import sympy as sp\nx = sp.Symbol('x')\nM = [[x, 1], [0, x**2]]\nfacts = 'AC'\n"
                    "length = '4.382meters'\n")
    report = core.grade_submission(good, opts)
    assert report["score"] == 3.0, core.format_report(report)
    bad = tmp_path / "bad.py"
    bad.write_text("import sympy as sp\nM = sp.Symbol('x')\nfacts = 'AB'\nlength = '4.382 furlongs'\n")
    report = core.grade_submission(bad, opts)
    text = core.format_report(report)
    assert report["score"] == 0.0 and "interfered" not in text, text
    assert "is a Symbol; expected a sympy.Matrix of shape (2, 2)" in text, text
