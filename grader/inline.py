"""The students' inline check: public cases only, same comparison as the grader.

In an exercise notebook::

    from grader.inline import checker
    check = checker("rigid_body_dynamics")
    ...
    check("inertia_about_origin", inertia_about_origin)

It runs the answer on the chapter's public cases in the student's own kernel,
turns the results into plain data with :func:`grader.runner.run_exercise`
and compares them with :func:`grader.compare.compare` -- the code the grader
uses. It prints what was expected, what was returned and the tolerance, and
always says that hidden cases are graded later. It is feedback, not a score:
the grader never runs it (during grading ``check`` does nothing).
"""

from __future__ import annotations

from . import compare as cmp
from . import runner
from .spec import load_chapter, load_public


class CheckResult:
    """What ``check`` found; ``passed_public`` is True when every public case passed."""

    def __init__(self, name, lines, passed, total, hidden):
        self.name = name
        self.lines = lines
        self.passed = passed
        self.total = total
        self.hidden = hidden

    @property
    def passed_public(self) -> bool:
        return self.total > 0 and self.passed == self.total

    def __repr__(self) -> str:  # shown by Jupyter when it is the last expression
        return "\n".join(self.lines)


def _normalized(source: str) -> tuple:
    """A cell's lines for matching kernel code with notebook cells (magics and blank lines left out)."""
    keep = []
    for line in source.splitlines():
        text = line.rstrip()
        stripped = text.lstrip()
        if not stripped or stripped.startswith(("%", "!", "get_ipython()", "pass  # notebook magic removed")):
            continue
        keep.append(text)
    return tuple(keep)


def kernel_cells(notebook=None):
    """Name the kernel's cells as the grader does: ``name(filename) -> label or None``.

    In JupyterLab the kernel knows the notebook's path (``JPY_SESSION_NAME``);
    a traceback's cell is found in the *saved* notebook by its text and gets
    the grader's label (``cell 5 under "Exercise 3.1.1"``, every cell counted,
    Markdown included). A cell that is not in the saved file (edited since
    the last save) is named by its execution count, ``the cell run as [7]``.
    Returns None outside IPython.
    """
    import linecache
    import os
    from pathlib import Path

    try:
        from IPython import get_ipython
    except ImportError:
        return None
    shell = get_ipython()
    if shell is None:
        return None
    notebook = notebook or os.environ.get("JPY_SESSION_NAME") or shell.user_ns.get("__session__")
    by_text = {}
    if notebook:
        try:
            from .core import labelled_code_cells, notebook_cells, read_limited

            path = Path(notebook)
            text = read_limited(path).decode("utf-8-sig")
            for _number, src, label in labelled_code_cells(notebook_cells(text, path.suffix.lower())):
                by_text.setdefault(_normalized(src), label)
        except Exception:  # no saved notebook to compare with: execution counts only
            by_text = {}
    counts = getattr(getattr(shell, "compile", None), "_filename_map", {})

    def name(filename):
        lines = linecache.getlines(filename)
        if lines:
            label = by_text.get(_normalized("".join(lines)))
            if label:
                return label
        if filename in counts:
            return f"the cell run as [{counts[filename]}]"
        return None

    return name


def check_exercise(chapter_name: str, name: str, answer) -> CheckResult:
    chapter = load_chapter(chapter_name)
    ex = chapter.exercise(name)
    public = load_public(chapter)[name]
    n_hidden = len(ex.case_inputs(chapter.seed)) - len(public)
    inputs = [c["inputs"] for c in public]
    desc = ex.child_description(inputs)
    res = runner.run_exercise(desc, {name: answer}, cells=kernel_cells())
    lines = [f"Exercise {ex.number} `{name}` ({ex.points:g} points): checking {len(public)} public case(s)"]
    if res.get("render") and answer is not None:
        lines.append(f"  your expression: {res['render']}")
    passed = 0
    for i, (case, got) in enumerate(zip(public, res["cases"]), start=1):
        if got["ok"]:
            r = cmp.compare(case["expected"], got["value"], rtol=ex.rtol, atol=ex.atol, public=True)
        else:
            r = cmp.CaseResult(False, got["error"])
        passed += r.passed
        order = list(getattr(ex, "args", ())) or list(getattr(ex, "symbols", ()))
        keys = [k for k in order if k in case["inputs"]] + [k for k in case["inputs"] if k not in order]
        shown_inputs = ", ".join(f"{k}={case['inputs'][k]}" for k in keys)
        lines.append(f"  public case {i}: {'ok  ' if r.passed else 'FAIL'} inputs: {shown_inputs}")
        lines.append(f"      {r.message}")
    lines.append(
        f"  {passed} of {len(public)} public cases pass. {n_hidden} hidden case(s) are graded later "
        "by the instructor's grader; this check is not your score."
    )
    return CheckResult(name, lines, passed, len(public), n_hidden)


def checker(chapter_name: str):
    """A ``check(name, answer)`` function for one chapter's exercise notebook."""

    def check(name: str, answer) -> CheckResult:
        result = check_exercise(chapter_name, name, answer)
        print("\n".join(result.lines))
        return None

    check.__doc__ = f"Check an answer of chapter {chapter_name!r} on its public cases."
    return check
