"""Command line: ``grade SUBMISSION_OR_FOLDER --chapter NAME --out grades/``.

See README.md ("Instructor workflow"). Also ``python -m grader``.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from . import core, sandbox
from .spec import chapter_names, load_chapter, load_solutions


def atomic_write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` via a temporary file and ``os.replace``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)  # like a normally created file, not mkstemp's 0600
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def list_submissions(folder: Path, exclude: Path | None = None) -> list[Path]:
    """Every regular, non-hidden file under ``folder`` (one gradebook row each).

    ``exclude`` (the output folder, if it is inside ``folder``) is skipped.
    """
    files = []
    exclude = exclude.resolve() if exclude else None
    for p in sorted(folder.rglob("*")):
        rel = p.relative_to(folder)
        if any(part.startswith(".") for part in rel.parts):
            continue  # .ipynb_checkpoints, .DS_Store, editor files
        if exclude is not None and (p.resolve() == exclude or exclude in p.resolve().parents):
            continue
        if p.is_file() or (p.is_symlink() and not p.is_dir()):
            files.append(p)
    return files


def _failed_report(path: Path, chapter, message: str) -> dict:
    return {
        "submission": path.name, "student": path.stem, "chapter": chapter.name,
        "grader_version": core.GRADER_VERSION, "status": "error", "score": 0.0,
        "max_score": chapter.max_score, "messages": [message],
        "exercises": [{"number": ex.number, "name": ex.name, "points": float(ex.points),
                       "partial": ex.partial, "score": 0.0, "feedback": "not graded", "cases": []}
                      for ex in chapter.exercises],
        "output": "",
    }


def grade_paths(paths: list[Path], opts: core.GradeOptions, jobs: int, progress=None) -> list[dict]:
    """Grade files concurrently (``jobs`` children at a time); one report per file, in order."""
    chapter = load_chapter(opts.chapter)
    core.expected_cases(chapter, opts.solutions, opts.seed)  # once, before the workers start

    def one(path):
        try:
            rep = core.grade_submission(path, opts)
        except sandbox.SandboxUnavailable:
            raise
        except Exception as exc:  # the grader's own fault: still a row
            rep = _failed_report(path, chapter, f"internal grader error: {type(exc).__name__}: {exc}")
        if progress:
            progress(rep)
        return rep

    if jobs <= 1 or len(paths) <= 1:
        return [one(p) for p in paths]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(one, paths))


def gradebook_csv(reports: list[dict], chapter) -> str:
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    names = [ex.name for ex in chapter.exercises]
    writer.writerow(["submission", "student", "status", "score", "max_score"]
                    + [f"{ex.number} {ex.name} ({ex.points:g})" for ex in chapter.exercises] + ["messages"])
    for rep in reports:
        by_name = {e["name"]: e for e in rep.get("exercises", [])}
        writer.writerow([rep["submission"], rep["student"], rep["status"], f"{rep['score']:g}",
                         f"{rep['max_score']:g}"]
                        + [f"{by_name[n]['score']:g}" if n in by_name else "0" for n in names]
                        + [" | ".join(rep.get("messages", []))[:1000]])
    return buf.getvalue()


def submission_identity(path: Path, root: Path | None) -> tuple[str, str]:
    """The gradebook's ``submission`` and ``student`` for a file.

    ``submission`` is the path relative to the graded folder, so that two
    students' ``hw.ipynb`` in ``alice/`` and ``bob/`` stay apart; ``student``
    is the first folder of that path (one folder per student, as LMS exports
    lay them out) or, for files directly in the folder, the file's stem.
    """
    rel = path.relative_to(root) if root else Path(path.name)
    student = rel.parts[0] if len(rel.parts) > 1 else rel.stem
    return rel.as_posix(), student


def _report_name(path: Path, root: Path | None) -> str:
    rel = path.relative_to(root) if root else Path(path.name)
    return "__".join(rel.parts) + ".json"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="grade",
        description="Grade checkpoint-exercise submissions (.ipynb, .py, MyST .md) in a sandbox.",
    )
    parser.add_argument("path", nargs="?", help="a submission file or a folder of submissions")
    parser.add_argument("--chapter", help=f"chapter spec ({', '.join(chapter_names())})")
    parser.add_argument("--out", default="grades", help="output folder (gradebook.csv, one JSON per submission)")
    parser.add_argument("--solutions", help="reference solutions: a folder with <chapter>.py or the file "
                        "(default: the repository's solutions/)")
    parser.add_argument("--seed", type=int, help="seed of the hidden cases (default: the chapter's)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="submissions graded at once")
    parser.add_argument("--sandbox", default="auto", choices=["auto", "namespace", "userns", "setuid", "none"])
    parser.add_argument("--timeout", type=float, help="wall seconds per exercise and per notebook cell (default 10)")
    parser.add_argument("--total-timeout", type=float, help="wall seconds per submission (default 120)")
    parser.add_argument("--memory-mb", type=int, help="address-space limit of the submission's process (default 1024)")
    parser.add_argument("--hide", action="append", default=[], help="another path the submission must not see")
    parser.add_argument("--gradescope-results", help="also write this Gradescope results.json (single submission)")
    parser.add_argument("--gradescope-bundle", help="write a Gradescope autograder zip for --chapter and exit")
    parser.add_argument("--write-public", action="store_true",
                        help="regenerate grader/chapters/<chapter>_public.json from the solutions and exit")
    parser.add_argument("--quiet", action="store_true", help="print only the summary")
    args = parser.parse_args(argv)

    names = chapter_names()
    if not args.chapter:
        if len(names) == 1:
            args.chapter = names[0]
        else:
            parser.error(f"--chapter is required (one of {', '.join(names)})")
    try:
        chapter = load_chapter(args.chapter)
    except KeyError as exc:
        parser.error(str(exc))

    if args.write_public:
        from .publicdata import write_public

        path = write_public(chapter, args.solutions)
        print(f"wrote {path}")
        return 0
    if args.gradescope_bundle:
        from .gradescope import make_bundle

        path = make_bundle(chapter, args.gradescope_bundle, args.solutions)
        print(f"wrote {path}")
        return 0
    if not args.path:
        parser.error("give a submission file or folder")

    limits = sandbox.Limits()
    if args.timeout:
        limits.cell_timeout = limits.exercise_timeout = args.timeout
    if args.total_timeout:
        limits.total_timeout = args.total_timeout
    if args.memory_mb:
        limits.memory_mb = args.memory_mb
    out = Path(args.out).resolve()
    target = Path(args.path)
    if not target.exists():
        parser.error(f"{target} does not exist")
    opts = core.GradeOptions(chapter=chapter.name, solutions=args.solutions, seed=args.seed,
                             sandbox=args.sandbox, limits=limits,
                             hide=[str(out)] + [str(Path(h).resolve()) for h in args.hide])
    try:
        load_solutions(chapter.name, args.solutions)
        sandbox.detect_mode(args.sandbox)
    except (FileNotFoundError, sandbox.SandboxUnavailable) as exc:
        print(f"grade: {exc}", file=sys.stderr)
        return 2

    root = target if target.is_dir() else None
    paths = list_submissions(target, exclude=out) if root else [target]

    def progress(rep):
        if not args.quiet:
            print(core.format_report(rep), flush=True)

    try:
        reports = grade_paths(paths, opts, max(1, args.jobs), progress)
    except sandbox.SandboxUnavailable as exc:
        print(f"grade: {exc}", file=sys.stderr)
        return 2
    out.mkdir(parents=True, exist_ok=True)
    for path, rep in zip(paths, reports):
        rep["submission"], rep["student"] = submission_identity(path, root)
        atomic_write(out / _report_name(path, root), json.dumps(rep, indent=2, sort_keys=True) + "\n")
    atomic_write(out / "gradebook.csv", gradebook_csv(reports, chapter))
    if args.gradescope_results:
        from .gradescope import results_json

        atomic_write(Path(args.gradescope_results), json.dumps(results_json(reports[0]), indent=2) + "\n")
    total = sum(r["score"] for r in reports)
    print(f"graded {len(reports)} submission(s) of {chapter.name}; mean score "
          f"{total / max(1, len(reports)):.4g} / {chapter.max_score:g}; wrote {out / 'gradebook.csv'}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
