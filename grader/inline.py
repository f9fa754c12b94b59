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
        """Every public case passed (a concept check has none: its answer could be read)."""
        if self.total == 0:
            return not any("FAIL" in line for line in self.lines)
        return self.passed == self.total

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


def _lib_names(answer) -> list[str]:
    """Names a function's code uses that are ``lib`` modules or come from ``lib`` (sorted)."""
    import types

    code = getattr(answer, "__code__", None)
    if code is None:
        return []
    names, todo = set(), [code]
    while todo:
        co = todo.pop()
        names.update(co.co_names)
        todo.extend(c for c in co.co_consts if isinstance(c, types.CodeType))
    scope = getattr(answer, "__globals__", {}) or {}
    found = []
    for n in sorted(names):
        obj = scope.get(n)
        if obj is None:
            continue
        mod = obj.__name__ if isinstance(obj, types.ModuleType) else getattr(obj, "__module__", "") or ""
        if isinstance(mod, str) and (mod == "lib" or mod.startswith("lib.")):
            found.append(n)
    return found


class _NoLib:
    """While the check runs: ``import lib`` fails as it does where the grader runs this exercise."""

    def find_spec(self, fullname, path=None, target=None):
        if fullname == "lib" or fullname.startswith("lib."):
            raise ModuleNotFoundError(f"No module named {fullname!r} (this exercise is graded without lib)")
        return None

    def __enter__(self):
        import sys

        self.saved = {k: v for k, v in sys.modules.items() if k == "lib" or k.startswith("lib.")}
        for k in self.saved:
            del sys.modules[k]
        sys.meta_path.insert(0, self)
        return self

    def __exit__(self, *exc):
        import sys

        if self in sys.meta_path:
            sys.meta_path.remove(self)
        sys.modules.update(self.saved)
        return False


def _concept_lines(ex, res, lines):
    """A choice or a quantity: how the answer was read; never whether it is right."""
    from .runner import describe_dimension

    got = res["cases"][0]
    if not got["ok"]:
        lines.append(f"  your answer: FAIL {got['error']}")
    elif ex.kind == "choice":
        shown = ", ".join(ex.options[i] for i in got["value"])
        lines.append(f"  your answer reads as: {shown}")
    else:
        si, dims = got["value"][0], got["value"][1:]
        want = runner.to_quantity(f"1 {ex.unit}")[1:]
        lines.append(f"  your answer reads as {si:.6g} {describe_dimension(dims)} (SI units)")
        if dims != want:
            lines.append(f"      FAIL: its unit is not one of this quantity ({describe_dimension(want)}, e.g. {ex.unit})")
    kind = "a choice" if ex.kind == "choice" else "a number with a unit"
    lines.append(f"  0 of 0 public cases pass ({kind} has none). 1 hidden case is graded later "
                 "by the instructor's grader; this check is not your score.")


def check_exercise(chapter_name: str, name: str, answer) -> CheckResult:
    chapter = load_chapter(chapter_name)
    ex = chapter.exercise(name)
    public = load_public(chapter)[name]
    n_hidden = len(ex.case_inputs(chapter.seed)) - len(public)
    inputs = [c["inputs"] for c in public]
    desc = ex.child_description(inputs)
    points = f"{ex.points:g} point" + ("" if ex.points == 1 else "s")
    lines = [f"Exercise {ex.number} `{name}` ({points}): checking {len(public)} public case(s)"]
    uses_lib = _lib_names(answer) if ex.lib_forbidden else []
    if ex.lib_forbidden:
        lines.append("  graded without lib: `import lib` fails while this check runs, as it will in the grader")
    if ex.concept:
        # read the answer as the grader will (one case, no inputs); never compared here
        res = runner.run_exercise(ex.child_description([{}]), {name: answer}, cells=kernel_cells())
        _concept_lines(ex, res, lines)
        return CheckResult(name, lines, 0, 0, n_hidden)
    if ex.lib_forbidden:
        with _NoLib():
            res = runner.run_exercise(desc, {name: answer}, cells=kernel_cells())
    else:
        res = runner.run_exercise(desc, {name: answer}, cells=kernel_cells())
    if res.get("render") and answer is not None:
        lines.append(f"  your expression: {res['render']}")
    passed = 0
    for i, (case, got) in enumerate(zip(public, res["cases"]), start=1):
        if uses_lib:
            r = cmp.CaseResult(False, f"`{name}` uses {', '.join(uses_lib)} from lib; this exercise is graded "
                                      "without lib, where that name is not defined")
        elif got["ok"]:
            from .core import judge_case

            r = judge_case(ex, case["expected"], case["inputs"], got["value"], True)
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
