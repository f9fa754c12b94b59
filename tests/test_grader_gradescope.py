"""The Gradescope bundle installs and grades on Ubuntu 22.04's Python 3.10 and 24.04's 3.12.

pyenv's Pythons stand in for the image's ``python3``: the bundle's own
``setup.sh`` makes a fresh venv with it and installs requirements.txt (pip's
cache makes repeated runs quick; the first run downloads about 60 MB per
Python version), then ``run_autograder`` grades the reference solutions.

The bundle's versions come from one file, requirements/gradescope.txt; for
Python 3.11 they must equal requirements/book.txt (and the tested environment).
"""

from __future__ import annotations

import glob
import importlib.metadata
import json
import os
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from grader.gradescope import GRADER_FAILED, REQUIREMENTS, make_bundle
from grader.spec import chapter_names, load_chapter
from grader_helpers import CHAPTER, REPO, install_bundle


def _pins_for(python_version: str, path: Path = REQUIREMENTS) -> dict[str, str]:
    """{canonical name: version} that pip would install on ``python_version`` (markers evaluated)."""
    env = dict(default_environment(), python_version=python_version, python_full_version=python_version + ".0")
    pins: dict[str, str] = {}
    for raw in path.read_text().splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("-r"):
            pins.update(_pins_for(python_version, path.parent / line.split()[1]))
            continue
        req = Requirement(line)
        if req.marker is not None and not req.marker.evaluate(env):
            continue
        (spec,) = list(req.specifier)
        assert spec.operator == "==", f"{line!r} is not an exact pin"
        name = canonicalize_name(req.name)
        assert name not in pins, f"{name} is pinned twice for Python {python_version}"
        pins[name] = spec.version
    return pins


# --------------------------------------------------------------------------
# One source of truth for the versions
# --------------------------------------------------------------------------

@pytest.mark.parametrize("python_version", ["3.10", "3.11", "3.12"])
def test_bundle_pins_every_package_once_per_python(python_version):
    pins = _pins_for(python_version)
    assert {"numpy", "scipy", "sympy", "jupytext", "mpmath"} <= set(pins)
    assert not {"jupyter-book", "matplotlib", "sphinx", "mujoco", "drake"} & set(pins)  # grading only
    if python_version == "3.10":
        assert pins["numpy"] == "2.2.6" and pins["scipy"] == "1.15.3"


def test_bundle_pins_agree_with_book_txt_for_python_311():
    bundle = _pins_for("3.11")
    book = _pins_for("3.11", REPO / "requirements" / "book.txt")
    overlap = set(bundle) & set(book)
    assert {"numpy", "scipy", "sympy", "jupytext"} <= overlap
    assert {n: bundle[n] for n in overlap} == {n: book[n] for n in overlap}
    # Packages book.txt does not name: the versions of the tested environment.
    installed = {n: importlib.metadata.version(n) for n in set(bundle) - set(book)}
    assert {n: bundle[n] for n in installed} == installed


def test_bundle_pins_the_whole_dependency_tree():
    """Every dependency (transitive) of the pinned packages, for 3.11, is pinned too."""
    pins = _pins_for("3.11")
    env = dict(default_environment(), python_version="3.11", extra="")
    missing = set()
    for name in pins:
        for raw in importlib.metadata.distribution(name).requires or []:
            req = Requirement(raw)
            if req.marker is None or req.marker.evaluate(env):
                if canonicalize_name(req.name) not in pins:
                    missing.add(f"{req.name} (needed by {name})")
    assert not missing


def test_bundle_requirements_are_the_one_file(tmp_path):
    bundle = make_bundle(load_chapter(CHAPTER), tmp_path / "autograder.zip")
    with zipfile.ZipFile(bundle) as zf:
        assert zf.read("requirements.txt").decode() == REQUIREMENTS.read_text()
        setup = zf.read("setup.sh").decode()
        assert "--no-deps" in setup and "pip check" in setup and "--only-binary=:all:" in setup
        assert not any(n.startswith(("tests/", "book/", "exercises/")) for n in zf.namelist())


# --------------------------------------------------------------------------
# setup.sh + run_autograder on 3.10 (Ubuntu 22.04) and 3.12 (Ubuntu 24.04)
# --------------------------------------------------------------------------

def _pyenv(minor: str) -> str | None:
    found = sorted(glob.glob(f"/root/.pyenv/versions/{minor}.*/bin/python{minor}"))
    return found[-1] if found else None


def run_autograder(env: dict, submission_text: str, name: str) -> dict:
    ag = Path(env["GRADER_AUTOGRADER_DIR"])
    sub_dir = ag / "submission"
    shutil.rmtree(sub_dir)
    sub_dir.mkdir()
    (sub_dir / name).write_text(submission_text)
    proc = subprocess.run(["bash", str(ag / "source" / "run_autograder")], env=env, capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    results = json.loads((ag / "results" / "results.json").read_text())
    results["_log"] = proc.stdout + proc.stderr
    return results


#: Each Python's bundle is installed once, on one worker (an xdist group: conftest.py).
@pytest.fixture(scope="module", params=[pytest.param(v, marks=pytest.mark.xdist_group(f"gradescope-{v}"))
                                        for v in ("3.10", "3.12")])
def installed_bundle(request, tmp_path_factory):
    python = _pyenv(request.param)
    if python is None:
        pytest.skip(f"no pyenv Python {request.param} to stand in for the image's python3")
    root = tmp_path_factory.mktemp(f"gradescope-{request.param}")
    env = install_bundle(root, python)
    return {"env": env, "minor": request.param, "python": Path(env["GRADER_AUTOGRADER_DIR"]) / "venv" / "bin" / "python"}


def test_setup_installs_the_pins_for_that_python(installed_bundle):
    out = subprocess.run([str(installed_bundle["python"]), "-c",
                          "import sys, numpy, scipy; print(sys.version_info[:2], numpy.__version__, scipy.__version__)"],
                         capture_output=True, text=True, check=True).stdout
    pins = _pins_for(installed_bundle["minor"])
    assert out.split(")", 1)[1].split() == [pins["numpy"], pins["scipy"]]
    assert out.startswith(f"({installed_bundle['minor'].replace('.', ', ')})")


def test_run_autograder_gives_full_marks_to_the_reference_solutions(installed_bundle):
    text = (REPO / "solutions" / f"{CHAPTER}.py").read_text()
    res = run_autograder(installed_bundle["env"], text, f"{CHAPTER}.py")
    assert res["score"] == load_chapter(CHAPTER).max_score, res
    assert len(res["tests"]) == len(load_chapter(CHAPTER).exercises)
    assert all(t["score"] == t["max_score"] for t in res["tests"]), res


def test_every_chapter_grades_with_the_bundle_python(installed_bundle, tmp_path):
    """lib and the grader work on Gradescope's default Python (3.10, Ubuntu 22.04) for every
    chapter's reference solutions. 3.10 is the oldest Python the bundle supports, so code too new
    for it fails here, and the whole suite runs on 3.11; on 3.12 the bundle grades one chapter's
    reference solutions (the test above) and one submission as `grade` does (below), which keeps
    a minute and a half of grading out of the suite."""
    if installed_bundle["minor"] != "3.10":
        pytest.skip("every chapter is graded on Gradescope's default Python, 3.10")
    # The grader and lib come from the repository here: write no bytecode of 3.10 into it.
    env = dict(installed_bundle["env"], PYTHONPATH=str(REPO), PYTHONDONTWRITEBYTECODE="1")
    for chapter in chapter_names():
        sub = tmp_path / f"{chapter}.py"
        sub.write_text((REPO / "solutions" / f"{chapter}.py").read_text())
        proc = subprocess.run([str(installed_bundle["python"]), "-m", "grader", str(sub), "--chapter", chapter,
                               "--out", str(tmp_path / "out"), "--quiet"], env=env, capture_output=True,
                              text=True, timeout=300, cwd=tmp_path)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        report = json.loads((tmp_path / "out" / f"{chapter}.py.json").read_text())
        assert report["score"] == load_chapter(chapter).max_score, (chapter, report["messages"])


def _outside_the_list():
    """A tail importing packages outside the one list (issue 19.8), and the exercises it costs.

    A trimesh one-liner on the lib-free 3.1.1 scored 3/3 with `grade` (the book's
    environment has trimesh) and 0 on Gradescope; `import mujoco` likewise. matplotlib
    imported at the top of a cell stops that cell in both places (the reference
    answer defined earlier stays).
    """
    spec = load_chapter(CHAPTER)
    functions = [e for e in spec.exercises if e.kind == "function"]
    free = next(e for e in functions if e.lib_forbidden)
    other = next(e for e in functions if not e.lib_forbidden)
    third = next(e for e in functions if e not in (free, other))
    tail = f"""
# %%
def {free.name}(*args):
    import trimesh
    return trimesh.creation.box().moment_inertia

def {other.name}(*args):
    import mujoco
    return mujoco.mju_zero(9)

# %%
import matplotlib.pyplot as plt
def {third.name}(*args):
    return plt.plot(args)
"""
    return tail, {free.name: "trimesh", other.name: "mujoco"}, free.points + other.points


def test_one_submission_gets_the_same_scores_from_grade_and_from_the_bundle(installed_bundle, tmp_path):
    """The same file, graded by `grade` here and by the bundle's run_autograder: the same score per
    exercise, and a package outside the list fails in both with the same message."""
    from grader import core
    from grader_helpers import small_limits

    tail, refused_in, lost = _outside_the_list()
    text = (REPO / "solutions" / f"{CHAPTER}.py").read_text() + tail
    sub = tmp_path / f"{CHAPTER}.py"
    sub.write_text(text)
    local = core.grade_submission(sub, core.GradeOptions(chapter=CHAPTER, limits=small_limits()))
    bundle = run_autograder(installed_bundle["env"], text, f"{CHAPTER}.py")
    here = {f"Exercise {e['number']} {e['name']}": e["score"] for e in local["exercises"]}
    there = {t["name"]: t["score"] for t in bundle["tests"]}
    assert here == there, (here, there)
    assert bundle["score"] == local["score"] == load_chapter(CHAPTER).max_score - lost
    refused = "graded code may import only the Python standard library, numpy, scipy, sympy and lib"
    for name, module in refused_in.items():
        (test,) = [t for t in bundle["tests"] if t["name"].endswith(" " + name)]
        assert test["score"] == 0 and f"No module named '{module}' ({refused})" in test["output"], test
    assert any("No module named 'matplotlib'" in m for m in local["messages"]), local["messages"]
    assert "No module named 'matplotlib'" in bundle["output"], bundle["output"]


def test_run_autograder_says_tell_your_instructor_when_the_grader_fails(installed_bundle):
    """As if setup.sh had not made the venv readable: the sandbox user cannot import numpy.

    numpy itself, not site-packages: in the namespace mode only the allowed packages are
    mounted back, below folders the sandbox makes (README, "What a submission may import").
    """
    env = installed_bundle["env"]
    (site,) = glob.glob(str(Path(env["GRADER_AUTOGRADER_DIR"]) / "venv" / "lib" / "python3.*" / "site-packages"))
    numpy_dir = os.path.join(site, "numpy")
    os.chmod(numpy_dir, 0o700)
    try:
        res = run_autograder(env, (REPO / "solutions" / f"{CHAPTER}.py").read_text(), f"{CHAPTER}.py")
    finally:
        os.chmod(numpy_dir, 0o755)
    assert res["output"] == GRADER_FAILED and res["score"] == 0 and res["tests"] == [], res
    assert "Traceback" not in json.dumps({k: v for k, v in res.items() if k != "_log"})
    # What went wrong, and what to fix, is in the autograder's log (hidden from the student).
    assert "GRADER ERROR" in res["_log"] and "To fix:" in res["_log"]


def test_no_submission_file_is_a_clear_zero(installed_bundle):
    res = run_autograder(installed_bundle["env"], "just text", "answers.txt")
    assert res["score"] == 0 and "No .ipynb, .md or .py file" in res["output"]
