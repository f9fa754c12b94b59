"""Gradescope: ``results.json`` from a report, and the autograder bundle (zip).

Bundle layout (Gradescope unpacks it into ``/autograder/source``)::

    setup.sh          installs Python, the pinned numpy/sympy/jupytext, and
                      copies the public ``lib`` to /opt/robotdyn-public
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

import re
import zipfile
from pathlib import Path

from .spec import REPO_ROOT, Chapter, solutions_path


#: What a student sees when the grader, not the submission, failed (README, "Gradescope").
GRADER_FAILED = ("The autograder itself failed while grading your submission, so this is not a grade. "
                 "Nothing is wrong with your submission as far as we know: please tell your instructor.")


def results_json(report: dict) -> dict:
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


def _pins() -> str:
    wanted = {"numpy", "sympy", "jupytext", "scipy"}
    pins = []
    req = REPO_ROOT / "requirements" / "book.txt"
    if req.is_file():
        for line in req.read_text().splitlines():
            m = re.match(r"^([A-Za-z0-9_.-]+)==", line.strip())
            if m and m.group(1).lower() in wanted:
                pins.append(line.strip())
    return "\n".join(pins or sorted(wanted)) + "\n"


SETUP_SH = """#!/usr/bin/env bash
# Gradescope runs this once when it builds the autograder image.
set -euo pipefail
apt-get update
apt-get install -y --no-install-recommends python3 python3-venv python3-pip util-linux
python3 -m venv /autograder/venv
/autograder/venv/bin/pip install --upgrade pip
/autograder/venv/bin/pip install -r /autograder/source/requirements.txt
# The public routines the students may import, readable by the sandbox user.
mkdir -p /opt/robotdyn-public
cp -r /autograder/source/lib /opt/robotdyn-public/lib
chmod -R a+rX /opt/robotdyn-public /autograder/venv
"""

RUN_AUTOGRADER = """#!/usr/bin/env bash
# Gradescope runs this for every submission (as root).
set -u
CHAPTER="{chapter}"
mkdir -p /autograder/results
SUB=""
for pattern in "$CHAPTER.ipynb" "$CHAPTER.md" "$CHAPTER.py" "*.ipynb" "*.md" "*.py"; do
  SUB=$(find /autograder/submission -type f -name "$pattern" -not -path '*/.*' | sort | head -n 1)
  [ -n "$SUB" ] && break
done
if [ -z "$SUB" ]; then
  cat > /autograder/results/results.json <<'JSON'
{{"score": 0, "output": "No .ipynb, .md or .py file found in the submission. Upload your exercise notebook.", "tests": []}}
JSON
  exit 0
fi
# Nothing under these folders may be readable by the sandbox user.
chmod -R go-rwx /autograder/source /autograder/submission /autograder/results 2>/dev/null || true
# Run from the public copy, so the `lib` the submission imports is the readable one.
cd /opt/robotdyn-public
PYTHONPATH=/opt/robotdyn-public:/autograder/source /autograder/venv/bin/python -m grader "$SUB" \\
    --chapter "$CHAPTER" --out /autograder/results/reports --jobs 1 \\
    --gradescope-results /autograder/results/results.json --quiet
status=$?
if [ $status -ne 0 ] || [ ! -s /autograder/results/results.json ]; then
  cat > /autograder/results/results.json <<'JSON'
{{"score": 0, "output": "The autograder could not run (see the autograder logs); please tell your instructor.", "tests": []}}
JSON
fi
exit 0
"""


def make_bundle(chapter: Chapter, out: str | Path, solutions=None) -> Path:
    """Write the Gradescope autograder zip for one chapter."""
    out = Path(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    sol = solutions_path(chapter.name, solutions)
    if not sol.is_file():
        raise FileNotFoundError(f"reference solutions not found at {sol}")

    def add_tree(zf, src: Path, arc: str):
        for p in sorted(src.rglob("*")):
            if "__pycache__" in p.parts or p.suffix == ".pyc" or not p.is_file():
                continue
            zf.write(p, f"{arc}/{p.relative_to(src).as_posix()}")

    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, text in (("setup.sh", SETUP_SH), ("run_autograder", RUN_AUTOGRADER.format(chapter=chapter.name))):
            info = zipfile.ZipInfo(name)
            info.external_attr = 0o755 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, text)
        zf.writestr("requirements.txt", _pins())
        add_tree(zf, REPO_ROOT / "grader", "grader")
        add_tree(zf, REPO_ROOT / "lib", "lib")
        zf.write(sol, f"solutions/{chapter.name}.py")
    return out
