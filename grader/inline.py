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

The answer runs as it will be graded (:func:`graded_namespace`): only what
graded code may import (:data:`grader.runner.ALLOWED_PACKAGES`, ``lib`` not in
an exercise graded without it), and without the names a cell defines below an
import that fails there; the check then names that cell first, as the
grader's feedback does.
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


def _shell():
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    return get_ipython()


def saved_cells(notebook=None):
    """The saved notebook's code cells as the grader reads them, ``[[number, source, label]]``, or None.

    In JupyterLab the kernel knows the notebook's path (``JPY_SESSION_NAME``).
    Sources are cleaned of IPython magics as the grader cleans them.
    """
    import os
    from pathlib import Path

    shell = _shell()
    notebook = notebook or os.environ.get("JPY_SESSION_NAME") or (
        shell.user_ns.get("__session__") if shell is not None else None)
    if not notebook:
        return None
    try:
        from .submission import _clean, labelled_code_cells, notebook_cells, read_limited

        path = Path(notebook)
        text = read_limited(path).decode("utf-8-sig")
        return [[number, _clean(src), label]
                for number, src, label in labelled_code_cells(notebook_cells(text, path.suffix.lower()))]
    except Exception:  # no saved notebook to read
        return None


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

    shell = _shell()
    if shell is None:
        return None
    by_text = {}
    for _number, src, label in saved_cells(notebook) or []:
        by_text.setdefault(_normalized(src), label)
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


def _graded_cells():
    """The cells the grader will run, as well as the kernel knows them: the saved notebook, else
    the inputs in the order they ran (``the cell run as [n]``); [] outside IPython."""
    cells = saved_cells()
    if cells is not None:
        return cells
    shell = _shell()
    history = shell.user_ns.get("In", []) if shell is not None else []
    return [[n, src, f"the cell run as [{n}]"] for n, src in enumerate(history) if n and isinstance(src, str)]


#: Names IPython puts in the kernel's namespace (never the student's answers).
_KERNEL_NAMES = {"In", "Out", "get_ipython", "exit", "quit", "open"}


def _refused_value(value, with_lib: bool):
    """The package a module, function or class comes from when graded code cannot import it, else None."""
    import types

    if isinstance(value, types.ModuleType):
        module = value.__name__
    elif isinstance(value, (types.FunctionType, types.BuiltinFunctionType, type)):
        module = getattr(value, "__module__", None)
    else:
        return None
    if isinstance(module, str) and module and not runner.import_allowed(module, with_lib):
        return module.partition(".")[0]
    return None


def graded_namespace(answer, name: str, with_lib: bool, cells=None):
    """What ``answer`` sees when it is graded, and why names are missing there: ``(namespace, causes)``.

    The same rule as the grader's child (:class:`grader.runner.ImportGuard`):
    a cell stops at its first import of a package outside the list (``lib``
    too where ``with_lib`` is False), so what it defines from that line on is
    missing unless an earlier cell defined it; modules, functions and classes
    from such packages are missing too. The notebook's functions are rebound
    to that namespace, with an ``__import__`` that refuses what the child
    refuses. ``causes``: missing name -> the sentence the grader's feedback
    starts with (:func:`grader.runner.cause_text`).
    """
    import builtins
    import types

    from .submission import bound_names, first_refused_import

    base = getattr(answer, "__globals__", None)
    if not isinstance(base, dict):
        shell = _shell()
        base = shell.user_ns if shell is not None else {}
    defined, causes = {}, {}
    for _number, src, label in (_graded_cells() if cells is None else cells):
        hit = first_refused_import(src, with_lib)
        if hit is None:
            defined.update(dict.fromkeys(bound_names(src), True))
            continue
        line, module = hit
        kind = "lib" if module.partition(".")[0] == "lib" and not with_lib else "import"
        for n in bound_names(src, from_line=line):
            if not defined.get(n):
                defined[n] = False
                causes[n] = runner.cause_text(label, line, kind, module, "")
        defined.update(dict.fromkeys(bound_names(src, before_line=line), True))
    namespace = {}
    for key, value in base.items():
        package = _refused_value(value, with_lib) if key not in _KERNEL_NAMES else None
        if package is not None:
            causes.setdefault(key, f"`{key}` comes from {package}, which graded code cannot import"
                              + (" in this exercise (it is graded without lib)" if package == "lib" else
                                 " (the standard library, numpy, scipy, sympy and lib only)"))
        elif defined.get(key) is not False:
            namespace[key] = value
    if defined.get(name) is not False:
        namespace[name] = answer
    else:
        namespace.pop(name, None)
    namespace["__builtins__"] = dict(vars(builtins), __import__=runner.guarded_import(with_lib))
    for key, value in list(namespace.items()):
        if isinstance(value, types.FunctionType) and value.__globals__ is base:
            copy = types.FunctionType(value.__code__, namespace, value.__name__, value.__defaults__,
                                      value.__closure__)
            copy.__kwdefaults__ = value.__kwdefaults__
            copy.__dict__.update(value.__dict__)
            copy.__qualname__ = value.__qualname__
            namespace[key] = copy
    return namespace, causes


def _concept_lines(ex, res, lines):
    """A concept check (one answer, no public case): how the answer was read; never whether it is right."""
    got = res["cases"][0]
    if not got["ok"]:
        lines.append(f"  your answer: FAIL {got['error']}")
    else:
        lines.extend(ex.read_back(got["value"]))
    lines.append(f"  0 of 0 public cases pass ({ex.answer_noun} has none). 1 hidden case is graded later "
                 "by the instructor's grader; this check is not your score.")


def _missing_names(res, name) -> set:
    """Names a run found undefined: the answer's own, or a NameError's."""
    names = {name} if isinstance(res.get("missing"), str) else set()
    names.update(c["name"] for c in res["cases"] if not c["ok"] and isinstance(c.get("name"), str))
    return names


def check_exercise(chapter_name: str, name: str, answer) -> CheckResult:
    chapter = load_chapter(chapter_name)
    ex = chapter.exercise(name)
    public = load_public(chapter)[name]
    n_hidden = len(ex.case_inputs(chapter.seed)) - len(public)
    inputs = [c["inputs"] for c in public]
    desc = ex.child_description(inputs)
    points = f"{ex.points:g} point" + ("" if ex.points == 1 else "s")
    lines = [f"Exercise {ex.number} `{name}` ({points}): checking {len(public)} public case(s)"]
    with_lib = not ex.lib_forbidden
    if ex.lib_forbidden:
        lines.append("  graded without lib: `import lib` fails while this check runs, as it will in the grader")
    # Run the answer as the grader will: only what graded code may import, and without
    # what a cell stopped by such an import leaves undefined.
    namespace, causes = graded_namespace(answer, name, with_lib)
    if ex.concept:
        # read the answer as the grader will (one case, no inputs); never compared here
        res = runner.run_exercise(ex.child_description([{}]), namespace, cells=kernel_cells(), with_lib=with_lib)
        _cause_lines(res, name, causes, lines)
        _concept_lines(ex, res, lines)
        return CheckResult(name, lines, 0, 0, n_hidden)
    res = runner.run_exercise(desc, namespace, cells=kernel_cells(), with_lib=with_lib)
    _cause_lines(res, name, causes, lines)
    if res.get("render") and answer is not None:
        lines.append(f"  your expression: {res['render']}")
    passed = 0
    for i, (case, got) in enumerate(zip(public, res["cases"]), start=1):
        if got["ok"]:
            r = ex.judge_case(case["expected"], case["inputs"], got["value"], True)
        else:
            r = cmp.CaseResult(False, got["error"])
        passed += r.passed
        order = list(ex.input_names)
        keys = [k for k in order if k in case["inputs"]] + [k for k in case["inputs"] if k not in order]
        shown_inputs = ", ".join(f"{k}={case['inputs'][k]}" for k in keys)
        lines.append(f"  public case {i}: {'ok  ' if r.passed else 'FAIL'} inputs: {shown_inputs}")
        lines.append(f"      {r.message}")
    lines.append(
        f"  {passed} of {len(public)} public cases pass. {n_hidden} hidden case(s) are graded later "
        "by the instructor's grader; this check is not your score."
    )
    return CheckResult(name, lines, passed, len(public), n_hidden)


def _cause_lines(res, name, causes, lines) -> None:
    """Why a name the answer needs is missing where it is graded (as the grader's feedback says it)."""
    for missing in sorted(_missing_names(res, name)):
        if missing in causes:
            lines.append(f"  FAIL where it is graded: {causes[missing]}")


def checker(chapter_name: str):
    """A ``check(name, answer)`` function for one chapter's exercise notebook."""

    def check(name: str, answer) -> CheckResult:
        result = check_exercise(chapter_name, name, answer)
        print("\n".join(result.lines))
        return None

    check.__doc__ = f"Check an answer of chapter {chapter_name!r} on its public cases."
    return check
