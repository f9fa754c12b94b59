"""Gradescope: ``results.json`` from a report, and the autograder bundle (zip).

Bundle layout (Gradescope unpacks it into ``/autograder/source``)::

    setup.sh          installs Python and requirements.txt (= requirements/gradescope.txt:
                      numpy, scipy, sympy, jupytext and their dependencies, exact
                      versions per Python version; Ubuntu 22.04's 3.10 and 24.04's
                      3.12), and copies the public ``lib`` to /opt/robotdyn-public
    run_autograder    grades the first submission file and writes
                      /autograder/results/results.json
    grader/  lib/  solutions/<chapter>.py  requirements.txt

The sandbox is chosen automatically: mount namespaces where the container
allows ``unshare`` (then the solutions are hidden by mounts), otherwise the
privilege drop to an unprivileged uid, for which ``run_autograder`` first
removes other users' access to /autograder/source, the submission and the
results (``chmod -R go-rwx``).
"""

from __future__ import annotations

import os
import tempfile
import zipfile
from pathlib import Path

from .report import Report
from .spec import REPO_ROOT, Chapter, solutions_path


#: What a student sees when the grader, not the submission, failed (README, "Gradescope").
GRADER_FAILED = ("The autograder itself failed while grading your submission, so this is not a grade. "
                 "Nothing is wrong with your submission as far as we know: please tell your instructor.")


def results_json(report: Report) -> dict:
    """Gradescope's results.json for one graded submission.

    A report with status ``error`` (the grader's fault) shows only
    :data:`GRADER_FAILED` to the student; what went wrong goes to the
    autograder's log (the ``grade`` command prints it on stderr).
    """
    if report.get("status") == "error":
        return {"score": 0.0, "output": GRADER_FAILED, "visibility": "visible",
                "stdout_visibility": "hidden", "tests": []}
    tests = []
    for ex in report["exercises"]:
        lines = [ex["feedback"]] + [c["message"] for c in ex.get("cases", [])]
        if ex.get("your_expression"):
            lines.insert(1, f"your expression: {ex['your_expression']}")
        tests.append({
            "name": f"Exercise {ex['number']} {ex['name']}",
            "number": ex["number"],
            "score": ex["score"],
            "max_score": ex["points"],
            "output": "\n".join(lines),
            "visibility": "visible",
        })
    notes = list(report.get("messages", []))
    return {
        "score": report["score"],
        "output": "\n".join(notes) if notes else f"Graded {report['submission']}.",
        "visibility": "visible",
        "stdout_visibility": "hidden",
        "tests": tests,
    }


#: The one source of the bundle's versions (copied into the bundle as requirements.txt).
REQUIREMENTS = REPO_ROOT / "requirements" / "gradescope.txt"
#: pip itself, installed first into the autograder's venv (Ubuntu 22.04's venv has pip 22.0).
PIP_VERSION = "26.3"


def bundle_requirements() -> str:
    """requirements/gradescope.txt: the whole dependency set, with per-Python markers."""
    if not REQUIREMENTS.is_file():
        raise FileNotFoundError(f"{REQUIREMENTS} is missing (the bundle's pinned dependencies)")
    return REQUIREMENTS.read_text()


SETUP_SH = """#!/usr/bin/env bash
# Gradescope runs this once when it builds the autograder image (Ubuntu 22.04:
# python3 3.10; 24.04: python3 3.12). requirements.txt pins every package, with
# per-Python-version markers where versions differ.
# Overridable for testing: GRADER_AUTOGRADER_DIR (/autograder), GRADER_PYTHON
# (python3), GRADER_PUBLIC_DIR (/opt/robotdyn-public), GRADER_SKIP_APT=1.
set -euo pipefail
AG="${{GRADER_AUTOGRADER_DIR:-/autograder}}"
PUBLIC="${{GRADER_PUBLIC_DIR:-/opt/robotdyn-public}}"
PY="${{GRADER_PYTHON:-python3}}"
if [ -z "${{GRADER_SKIP_APT:-}}" ]; then
  apt-get update
  apt-get install -y --no-install-recommends python3 python3-venv python3-pip util-linux
fi
"$PY" -c 'import sys; assert sys.version_info >= (3, 10), "the autograder needs Python >= 3.10"'
"$PY" -m venv "$AG/venv"
"$AG/venv/bin/python" -m pip install --disable-pip-version-check -q "pip=={pip}"
"$AG/venv/bin/python" -m pip install --disable-pip-version-check --only-binary=:all: --no-deps \\
    -r "$AG/source/requirements.txt"
"$AG/venv/bin/python" -m pip check
# The public routines the students may import, readable by the sandbox user.
mkdir -p "$PUBLIC"
rm -rf "$PUBLIC/lib"
cp -r "$AG/source/lib" "$PUBLIC/lib"
chmod -R a+rX "$PUBLIC" "$AG/venv"
# lib readable by one group only: the sandbox gives that group to a child that may
# import lib, not to one grading an exercise that is to be done without lib.
chgrp -R "${{GRADER_LIB_GID:-61999}}" "$PUBLIC/lib"
chmod -R g+rX,o-rwx "$PUBLIC/lib"
"$AG/venv/bin/python" -c "import numpy, scipy, sympy, jupytext, sys; print('autograder Python', sys.version.split()[0], 'numpy', numpy.__version__, 'scipy', scipy.__version__)"
"""

RUN_AUTOGRADER = """#!/usr/bin/env bash
# Gradescope runs this for every submission (as root). Same overrides as setup.sh.
set -u
AG="${{GRADER_AUTOGRADER_DIR:-/autograder}}"
PUBLIC="${{GRADER_PUBLIC_DIR:-/opt/robotdyn-public}}"
CHAPTER="{chapter}"
RESULTS="$AG/results/results.json"
mkdir -p "$AG/results"
SUB=""
for pattern in "$CHAPTER.ipynb" "$CHAPTER.md" "$CHAPTER.py" "*.ipynb" "*.md" "*.py"; do
  SUB=$(find "$AG/submission" -type f -name "$pattern" -not -path '*/.*' | sort | head -n 1)
  [ -n "$SUB" ] && break
done
if [ -z "$SUB" ]; then
  cat > "$RESULTS" <<'JSON'
{{"score": 0, "output": "No .ipynb, .md or .py file found in the submission. Upload your exercise notebook.", "tests": []}}
JSON
  exit 0
fi
# Nothing under these folders may be readable by the sandbox user.
chmod -R go-rwx "$AG/source" "$AG/submission" "$AG/results" 2>/dev/null || true
rm -f "$RESULTS"
# Run from the public copy, so the `lib` the submission imports is the readable one.
cd "$PUBLIC"
PYTHONPATH="$PUBLIC:$AG/source" "$AG/venv/bin/python" -m grader "$SUB" \\
    --chapter "$CHAPTER" --out "$AG/results/reports" --jobs 1{seed} \\
    --gradescope-results "$RESULTS" --quiet
status=$?
# 0: graded; 3: a grader error, results.json already says "tell your instructor".
if {{ [ $status -ne 0 ] && [ $status -ne 3 ]; }} || [ ! -s "$RESULTS" ]; then
  echo "run_autograder: the grader failed (exit status $status); see the messages above" >&2
  cat > "$RESULTS" <<'JSON'
{{"score": 0, "output": "{failed}", "tests": []}}
JSON
fi
exit 0
"""


def make_bundle(chapter: Chapter, out: str | Path, solutions=None, seed: int | None = None) -> Path:
    """Write the Gradescope autograder zip for one chapter.

    ``solutions``: the reference solutions to pack (a private folder or file;
    default the repository's); ``seed``: the hidden cases' seed written into
    ``run_autograder`` (default the chapter's public one). Both stay inside the
    zip, which Gradescope never shows to students; the file is written with mode
    0600 whatever the umask.
    """
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    sol = solutions_path(chapter.name, solutions)
    if not sol.is_file():
        raise FileNotFoundError(f"reference solutions not found at {sol}")

    # The zip holds the private solutions and seed: readable by its owner only, whatever the umask
    # (written to a 0600 temporary file beside it, then renamed over any older bundle).
    fd, tmp = tempfile.mkstemp(prefix=".bundle-", suffix=".zip", dir=out.parent)
    os.fchmod(fd, 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            _write_bundle(fh, chapter, sol, seed)
        os.replace(tmp, out)
    except BaseException:
        os.unlink(tmp)
        raise
    return out


def _write_bundle(fh, chapter: Chapter, sol: Path, seed: int | None) -> None:
    """The bundle's files into the open file ``fh``."""

    def add_tree(zf, src: Path, arc: str):
        for p in sorted(src.rglob("*")):
            if "__pycache__" in p.parts or p.suffix == ".pyc" or not p.is_file():
                continue
            zf.write(p, f"{arc}/{p.relative_to(src).as_posix()}")

    with zipfile.ZipFile(fh, "w", zipfile.ZIP_DEFLATED) as zf:
        scripts = (("setup.sh", SETUP_SH.format(pip=PIP_VERSION)),
                   ("run_autograder", RUN_AUTOGRADER.format(chapter=chapter.name, failed=GRADER_FAILED,
                                                     seed="" if seed is None else f" --seed {int(seed)}")))
        for name, text in scripts:
            info = zipfile.ZipInfo(name)
            info.external_attr = 0o755 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, text)
        zf.writestr("requirements.txt", bundle_requirements())
        add_tree(zf, REPO_ROOT / "grader", "grader")
        add_tree(zf, REPO_ROOT / "lib", "lib")
        zf.write(sol, f"solutions/{chapter.name}.py")
