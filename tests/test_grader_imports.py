"""One list of what a submission may import, enforced the same way everywhere (issue 19.7, 19.8).

The list lives in grader/runner.py (standard library, numpy, scipy, sympy, lib except
in an exercise graded without it). Every exercise set's introduction states it in one
sentence; the grader's child refuses everything else with an import guard (not by what
happens to be installed), and the inline check runs an answer as it will be graded.
The same submission graded by `grade` and by the Gradescope bundle:
tests/test_grader_gradescope.py; the check in a kernel: tests/test_grader_cells.py.
"""

from __future__ import annotations

import json
import types

import numpy as np
import pytest

from grader import core, inline, runner
from grader.spec import chapter_names, load_chapter
from grader_helpers import REPO, small_limits

#: Chapter of the grading tests here: it has exercises graded with and without lib.
CHAPTER = "contact_and_impact"
SOLUTIONS = (REPO / "solutions" / f"{CHAPTER}.py").read_text()


def _introduction(chapter: str) -> str:
    """The text above an exercise notebook's first code cell, on one line."""
    text = load_chapter(chapter).notebook.read_text()
    return " ".join(text.split("```{code-cell}", 1)[0].split())


@pytest.mark.parametrize("chapter", chapter_names())
def test_every_introduction_states_the_one_list(chapter):
    assert " ".join(runner.ALLOWED_SENTENCE.split()) in _introduction(chapter)


def test_the_list():
    for name in ("math", "itertools", "collections.abc", "numpy.linalg", "scipy.integrate", "sympy", "mpmath",
                 "lib.inertia", "__main__", "grader.inline"):
        assert runner.import_allowed(name), name
    for name in ("trimesh", "mujoco", "matplotlib.pyplot", "IPython.display", "yaml", "pinocchio", "pydrake",
                 "jupytext", "grader.core"):
        assert not runner.import_allowed(name), name
    assert not runner.import_allowed("lib", with_lib=False)
    assert not runner.import_allowed("lib.contact_lcp", with_lib=False)
    exc = runner.refused_import("lib.contact_lcp", with_lib=False)
    assert isinstance(exc, ModuleNotFoundError) and exc.name == "lib.contact_lcp"
    assert "graded without lib" in str(exc)
    assert runner.error_kind(exc, with_lib=False) == "lib"
    assert runner.error_kind(runner.refused_import("trimesh")) == "import"
    assert runner.error_kind(NameError("name 'np' is not defined", name="np")) == "name"
    assert runner.error_kind(ValueError("x")) is None


def test_the_child_refuses_what_is_installed_here_and_what_is_not_mounted(tmp_path):
    """trimesh, mujoco and yaml are in the book's environment: refused all the same, also after the
    submission removes the guard (then they are not there: only the allowed packages are mounted)."""
    sub = tmp_path / "hw.py"
    sub.write_text(SOLUTIONS + """
# %%
import sys
sys.meta_path[:] = [f for f in sys.meta_path if type(f).__name__ != "ImportGuard"]

def hertz_step_limit(*args):
    import trimesh
    return 1.0

def mujoco_soft_contact(*args):
    import mujoco
    return 1.0

# %%
import yaml
""")
    report = core.grade_submission(sub, core.GradeOptions(chapter=CHAPTER, limits=small_limits()))
    by_name = {e["name"]: e for e in report["exercises"]}
    spec = load_chapter(CHAPTER)
    assert report["score"] == spec.max_score - by_name["hertz_step_limit"]["points"] \
        - by_name["mujoco_soft_contact"]["points"], core.format_report(report)
    assert "No module named 'trimesh'" in by_name["hertz_step_limit"]["feedback"]
    assert "No module named 'mujoco'" in by_name["mujoco_soft_contact"]["feedback"]
    assert any("No module named 'yaml'" in m for m in report["messages"]), report["messages"]  # not mounted


def test_a_name_defined_below_a_refused_import_is_missing_and_the_feedback_says_why(tmp_path):
    spec = load_chapter(CHAPTER)
    free = next(e for e in spec.exercises if e.lib_forbidden and e.kind == "function")
    other = next(e for e in spec.exercises if not e.lib_forbidden and e.kind == "function")
    sub = tmp_path / "hw.py"
    # The reference answers, then a cell that imports a package outside the list and defines both
    # answers again below it (wrongly): the child stops at the import, the references stay.
    sub.write_text(SOLUTIONS.replace("import numpy as np", "") + f"""
# %%
import trimesh
import numpy as np
""")
    report = core.grade_submission(sub, core.GradeOptions(chapter=CHAPTER, limits=small_limits()))
    by_name = {e["name"]: e for e in report["exercises"]}
    for ex in (free, other):
        entry = by_name[ex.name]
        if entry["score"] < entry["points"]:
            assert entry["feedback"].startswith("Cell 2 stops at line 1: `trimesh` cannot be imported"), entry


def test_the_notebooks_first_cell_loses_nothing():
    """`from grader.inline import checker` is provided in the child (a no-op): no cell stops there."""
    first = 'import numpy as np\nfrom grader.inline import checker\n\ncheck = checker("x")\nimport sympy as sp'
    assert core.first_refused_import(first, with_lib=False) is None
    assert core.first_refused_import("import numpy as np\nimport grader.core\n") == (2, "grader.core")


def _cells(*sources):
    return [[n, src, f"cell {n}"] for n, src in enumerate(sources, start=1)]


def test_the_inline_rule_is_the_childs():
    """graded_namespace leaves out what a cell defines below a refused import, and what comes from a
    refused package, and rebinds the notebook's functions to an __import__ that refuses."""
    user = {"__name__": "__main__"}
    exec("import numpy as np\nimport json\n", user)
    user["trimesh_like"] = types.ModuleType("trimesh")

    def answer(x):
        return np.asarray(x) * 2  # noqa: F821 (np is the notebook's)

    answer = types.FunctionType(answer.__code__, user, "answer")
    user["answer"] = answer
    cells = _cells("import lib\nimport numpy as np\nimport json", "def answer(x):\n    return np.asarray(x) * 2")
    ns, causes = inline.graded_namespace(answer, "answer", with_lib=False, cells=cells)
    assert "np" not in ns and "json" not in ns and "trimesh_like" not in ns and "answer" in ns
    assert causes["np"].startswith("cell 1 stops at line 1 when the exercises graded without lib run")
    assert "trimesh" in causes["trimesh_like"]
    with pytest.raises(NameError):
        ns["answer"]([1.0])
    # with lib allowed the same cells lose nothing
    ns, causes = inline.graded_namespace(answer, "answer", with_lib=True, cells=cells)
    assert np.array_equal(ns["answer"]([1.0]), [2.0]) and "np" not in causes

    def imports(x):
        import mujoco  # noqa: F401
        return x

    user["imports"] = types.FunctionType(imports.__code__, user, "imports")
    ns, _ = inline.graded_namespace(user["imports"], "imports", with_lib=True, cells=[])
    with pytest.raises(ModuleNotFoundError, match="graded code may import only"):
        ns["imports"](1)


def test_the_check_fails_a_lib_free_answer_that_uses_lib(capsys):
    """As the grader: `lib` (imported in the kernel) is not there for an exercise graded without it."""
    import lib.contact_lcp as cl

    spec = load_chapter(CHAPTER)
    free = next(e for e in spec.exercises if e.lib_forbidden and e.kind == "function")
    user = {"__name__": "__main__", "cl": cl}
    exec(f"def {free.name}(*args):\n    return cl.solve_contact_lcp(*args)\n", user)
    res = inline.check_exercise(CHAPTER, free.name, user[free.name])
    text = "\n".join(res.lines)
    assert res.passed == 0 and "FAIL where it is graded: `cl` comes from lib" in text, text
    json.dumps(text)
