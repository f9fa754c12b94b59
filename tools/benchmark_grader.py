"""Benchmark the grader: a synthetic class of submissions graded like `grade FOLDER`.

Not a test (no timing assertions anywhere). Usage::

    .venv/bin/python tools/benchmark_grader.py            # 120 submissions, 2 jobs
    .venv/bin/python tools/benchmark_grader.py --n 200 --jobs 2 --chapter rigid_body_dynamics

The class mixes correct, partly correct, untouched and broken work (a syntax
error, an exception, a wrong shape) in .py, .ipynb and .md form, so the timing
covers the usual paths (no deliberately slow or hostile submissions, whose
time is set by the limits). Prints the time of every submission (wall time of
its sandboxed runs, measured in the grader's worker thread), the total wall
time and the throughput.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import jupytext
import nbformat

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from grader import cli, session  # noqa: E402
from grader.spec import load_chapter  # noqa: E402


def make_class(chapter: str, folder: Path, n: int) -> list[Path]:
    solutions = (REPO / "solutions" / f"{chapter}.py").read_text()
    notebook = jupytext.read(REPO / "exercises" / f"{chapter}.md")
    stub = "\n\n".join(c.source for c in notebook.cells if c.cell_type == "code")
    spec = load_chapter(chapter)
    first = spec.exercises[0].name
    variants = [
        ("correct", ".py", solutions),
        ("partly", ".py", solutions + f"\n{first} = None\n"),
        ("untouched", ".md", None),
        ("syntax", ".py", solutions + "\ndef broken(:\n"),
        ("exception", ".py", solutions + f"\ndef {first}(*a):\n    raise ValueError('oops')\n"),
        ("shape", ".py", solutions + f"\n_f = {first}\ndef {first}(*a):\n    return [1.0]\n"),
        ("notebook", ".ipynb", None),
    ]
    paths = []
    for i in range(n):
        kind, suffix, text = variants[i % len(variants)]
        path = folder / f"student{i:04d}_{kind}{suffix}"
        if kind == "untouched":
            path.write_text((REPO / "exercises" / f"{chapter}.md").read_text())
        elif kind == "notebook":
            nb = jupytext.read(REPO / "exercises" / f"{chapter}.md")
            nb.cells.append(nbformat.v4.new_code_cell(solutions))
            nbformat.write(nb, path)
        else:
            path.write_text(text if kind != "untouched" else stub)
        paths.append(path)
    return paths


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--n", type=int, default=120, help="number of submissions (default 120)")
    parser.add_argument("--jobs", type=int, default=2, help="submissions graded at once (default 2)")
    parser.add_argument("--chapter", default="rigid_body_dynamics")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="grader-bench-") as tmp:
        folder = Path(tmp) / "class"
        folder.mkdir()
        out = Path(tmp) / "grades"
        paths = make_class(args.chapter, folder, args.n)
        opts = session.GradeOptions(chapter=args.chapter, hide=[str(out)])
        times: dict[str, float] = {}
        original = session.grade_submission

        def timed(path, o, **kw):
            t0 = time.perf_counter()
            rep = original(path, o, **kw)
            times[Path(path).name] = time.perf_counter() - t0
            return rep

        session.grade_submission = timed
        t0 = time.perf_counter()
        reports = cli.grade_paths(paths, opts, args.jobs, root=folder)
        total = time.perf_counter() - t0
        session.grade_submission = original
        cli.atomic_write(out / "gradebook.csv", cli.gradebook_csv(reports, load_chapter(args.chapter)))

        errors = [r for r in reports if r["status"] == "error"]
        if errors:
            print(f"GRADER ERROR in {len(errors)} submission(s): {errors[0]['messages'][:1]}", file=sys.stderr)
            return 3
        for rep in reports:
            print(f"{rep['submission']:<36} {rep['score']:>5g} / {rep['max_score']:g}   "
                  f"{times[rep['submission']]:.3f} s")
        per = sorted(times.values())
        print()
        print(f"submissions: {len(reports)}   jobs: {args.jobs}")
        print(f"per submission: mean {statistics.mean(per):.3f} s, median {statistics.median(per):.3f} s, "
              f"max {per[-1]:.3f} s")
        print(f"total wall time: {total:.2f} s   throughput: {len(reports) / total:.2f} submissions/s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
