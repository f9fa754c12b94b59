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
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from . import sandbox, session
from .expected import expected_cases
from .fileio import atomic_write
from .report import Report
from .safe_text import printable, safe_text, scrub
from .scoring import NOT_GRADED_ERROR, format_report
from .spec import Chapter, chapter_names, load_chapter, load_solutions

#: Exit status when at least one submission was not graded because of the grader (status ``error``).
EXIT_GRADER_ERROR = 3


def list_submissions(folder: Path, exclude: Path | None = None) -> list[Path]:
    """Every non-hidden entry under ``folder`` that is not a folder (one gradebook row each).

    Symbolic links are not followed (a link to a folder is not descended into;
    a link, FIFO, device or socket is listed, and graded as ``unreadable``).
    ``exclude`` (the output folder, if it is inside ``folder``) is skipped.
    """
    files = []
    exclude = exclude.resolve() if exclude else None

    def walk(directory: Path):
        try:
            entries = sorted(os.scandir(directory), key=lambda e: e.name)
        except OSError:
            return
        for entry in entries:
            if entry.name.startswith("."):
                continue  # .ipynb_checkpoints, .DS_Store, editor files
            p = directory / entry.name
            if exclude is not None and (p == exclude or (entry.is_dir() and p.resolve() == exclude)):
                continue
            if entry.is_dir(follow_symlinks=False):
                walk(p)
            else:
                files.append(p)

    walk(Path(folder))
    return sorted(files, key=lambda p: p.relative_to(folder).parts)


def _failed_report(path: Path, opts: session.GradeOptions, message: str, root=None) -> Report:
    """The row of a submission the grader failed on (status ``error``, every exercise "not graded")."""
    chapter = opts.chapter
    report = session.new_report(path, chapter, opts.seed_used, root, status="error")
    report["messages"].append(message)
    report["exercises"] = [{"number": ex.number, "name": ex.name, "points": float(ex.points),
                            "partial": ex.partial, "score": 0.0, "feedback": NOT_GRADED_ERROR, "cases": []}
                           for ex in chapter.exercises]
    return scrub(report)


def grade_paths(paths: list[Path], opts: session.GradeOptions, jobs: int, progress=None, root=None) -> list[Report]:
    """Grade files concurrently (``jobs`` children at a time); one report per file, in order.

    Nothing one submission contains stops the batch: every file gets a report,
    named (``submission``, ``student``) by its path inside ``root`` before it
    is graded, so the progress lines and the gradebook name it alike.
    """
    chapter = opts.chapter
    try:
        expected_cases(chapter, opts.solutions, opts.seed)  # once, before the workers start
    except Exception:
        pass  # reported in every row below (status error)

    def one(path):
        try:
            rep = session.grade_submission(path, opts, root=root)
        except sandbox.SandboxUnavailable:
            raise
        except Exception as exc:  # the grader's own fault: still a row
            rep = _failed_report(path, opts, f"GRADER ERROR (not the student's fault, this is not a grade): "
                                 f"{type(exc).__name__}: {exc}. Fix it and grade again.", root)
        if progress:
            try:
                progress(rep)
            except Exception:  # printing progress never costs a row
                pass
        return rep

    if jobs <= 1 or len(paths) <= 1:
        return [one(p) for p in paths]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(one, paths))


#: First characters that make a spreadsheet read a cell as a formula.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


_CONTROL = {c: f"\\x{c:02x}" for c in range(32) if c != 9} | {10: "\\n", 13: "\\r"}


def csv_text(value) -> str:
    """A text cell that a spreadsheet shows as text, on one line.

    Cells starting with ``= + - @``, a tab or a carriage return get the usual
    leading apostrophe (a spreadsheet would otherwise run them as formulas);
    line breaks and other control characters are shown escaped (``\\r``), so
    one row stays one line.
    """
    text = safe_text(value)
    if text.startswith(FORMULA_START):
        text = "'" + text
    return text.translate(_CONTROL)


def gradebook_csv(reports: list[Report], chapter: Chapter) -> str:
    """The gradebook: text cells neutralised (:func:`csv_text`), numeric cells plain numbers."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    names = [ex.name for ex in chapter.exercises]
    writer.writerow(["submission", "student", "status", "score", "max_score"]
                    + [csv_text(f"{ex.number} {ex.name} ({ex.points:g})") for ex in chapter.exercises]
                    + ["messages"])
    for rep in reports:
        by_name = {e["name"]: e for e in rep.get("exercises", [])}
        writer.writerow([csv_text(rep["submission"]), csv_text(rep["student"]), csv_text(rep["status"]),
                         f"{float(rep['score']):g}", f"{float(rep['max_score']):g}"]
                        + [f"{float(by_name[n]['score']):g}" if n in by_name else "0" for n in names]
                        + [csv_text(" | ".join(rep.get("messages", []))[:1000])])
    return buf.getvalue()


#: Longest report file name (bytes); file systems allow 255.
MAX_REPORT_NAME = 200


def _report_name(path: Path, root: Path | None) -> str:
    """The report's file name: one per submission, never shared, never too long.

    ``alice/hw.ipynb`` gives ``alice__hw.ipynb.json``. The mapping is
    one-to-one: when a name could be read two ways (a part containing
    ``__`` or ``~``, or starting or ending with ``_``, as in ``zed__hw.py``
    next to ``zed/hw.py``) or would be too long, the name ends with ``~``
    and a hash of the whole relative path (``zed__hw.py~1b2c...json``);
    ``~`` appears in no other report name. Control characters and names
    that are not UTF-8 are shown escaped (:func:`printable`), with the hash.
    """
    rel = path.relative_to(root) if root else Path(path.name)
    parts = [printable(p) for p in rel.parts]  # no control characters in the output folder either
    name = "__".join(parts)
    ambiguous = any("__" in p or "~" in p or p.startswith("_") or p.endswith("_") or "\\" in p
                    for p in parts) or parts != list(rel.parts)
    if not ambiguous and len((name + ".json").encode()) <= MAX_REPORT_NAME:
        return name + ".json"
    import hashlib

    digest = hashlib.sha256(os.fsencode(str(rel))).hexdigest()[:16]
    short = name.encode()[: MAX_REPORT_NAME - 24].decode("utf-8", "ignore")
    return f"{short}~{digest}.json"


def _print(text: str, file=None) -> None:
    """Print whatever the terminal's encoding (unencodable characters escaped)."""
    file = file or sys.stdout
    try:
        print(text, file=file, flush=True)
    except UnicodeEncodeError:
        enc = getattr(file, "encoding", None) or "ascii"
        print(text.encode(enc, "backslashreplace").decode(enc, "replace"), file=file, flush=True)


def _parser() -> argparse.ArgumentParser:
    """The command line's options."""
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
    return parser


def _chosen_chapter(parser: argparse.ArgumentParser, args) -> Chapter:
    """The chapter of ``--chapter`` (the only one if there is one), loaded once for the whole run."""
    names = chapter_names()
    if not args.chapter:
        if len(names) == 1:
            args.chapter = names[0]
        else:
            parser.error(f"--chapter is required (one of {', '.join(names)})")
    try:
        return load_chapter(args.chapter)
    except KeyError as exc:
        parser.error(str(exc))


def _write_chapter_files(args, chapter: Chapter) -> bool:
    """``--write-public`` or ``--gradescope-bundle``: write that file (True), else do nothing (False)."""
    if args.write_public:
        from .publicdata import write_public

        path = write_public(chapter, args.solutions)
    elif args.gradescope_bundle:
        from .gradescope import make_bundle

        path = make_bundle(chapter, args.gradescope_bundle, args.solutions, args.seed)
    else:
        return False
    print(f"wrote {path}")
    return True


def _limits(args) -> sandbox.Limits:
    """The sandbox limits, with ``--timeout``, ``--total-timeout`` and ``--memory-mb`` applied."""
    limits = sandbox.Limits()
    if args.timeout:
        limits.cell_timeout = limits.exercise_timeout = args.timeout
    if args.total_timeout:
        limits.total_timeout = args.total_timeout
    if args.memory_mb:
        limits.memory_mb = args.memory_mb
    return limits


def _setup_problem(chapter: Chapter, args) -> str | None:
    """Why grading cannot start here (no reference solutions, no sandbox), or None."""
    try:
        load_solutions(chapter.name, args.solutions)
        sandbox.detect_mode(args.sandbox)
    except (FileNotFoundError, sandbox.SandboxUnavailable) as exc:
        return str(exc)
    return None


def _write_outputs(out: Path, paths: list[Path], reports: list[Report], root, chapter: Chapter, args) -> None:
    """One JSON report per submission, the gradebook and (``--gradescope-results``) results.json."""
    out.mkdir(parents=True, exist_ok=True)
    for path, rep in zip(paths, reports):
        atomic_write(out / _report_name(path, root), json.dumps(rep, indent=2, sort_keys=True) + "\n")
    atomic_write(out / "gradebook.csv", gradebook_csv(reports, chapter))
    if args.gradescope_results:
        from .gradescope import results_json

        atomic_write(Path(args.gradescope_results), json.dumps(results_json(reports[0]), indent=2) + "\n")


def _summarize(reports: list[Report], chapter: Chapter, out: Path) -> int:
    """Print the summary line (and grader errors on stderr); the exit status."""
    total = sum(r["score"] for r in reports)
    _print(f"graded {len(reports)} submission(s) of {chapter.name}; mean score "
           f"{total / max(1, len(reports)):.4g} / {chapter.max_score:g}; wrote {out / 'gradebook.csv'}")
    errors = [r for r in reports if r["status"] == "error"]
    if not errors:
        return 0
    first = errors[0]
    _print(f"grade: GRADER ERROR: {len(errors)} of {len(reports)} submission(s) were NOT graded "
           f"(status 'error' in gradebook.csv; their 0 is not a grade). First: "
           f"{printable(first['submission'])}: {printable((first['messages'] or ['?'])[0])}",
           file=sys.stderr)
    if first.get("error_detail"):
        _print("grade: what the sandbox printed:\n"
               + "\n".join(printable(line) for line in first["error_detail"].splitlines()),
               file=sys.stderr)
    return EXIT_GRADER_ERROR


def main(argv=None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    chapter = _chosen_chapter(parser, args)
    if _write_chapter_files(args, chapter):
        return 0
    if not args.path:
        parser.error("give a submission file or folder")
    out = Path(args.out).resolve()
    target = Path(args.path)
    if not os.path.lexists(target):
        parser.error(f"{target} does not exist")
    opts = session.GradeOptions(chapter=chapter, solutions=args.solutions, seed=args.seed,
                             sandbox=args.sandbox, limits=_limits(args),
                             hide=[str(out)] + [str(Path(h).resolve()) for h in args.hide])
    problem = _setup_problem(chapter, args)
    if problem:
        print(f"grade: {problem}", file=sys.stderr)
        return 2

    root = target if target.is_dir() else None
    paths = list_submissions(target, exclude=out) if root else [target]

    def progress(rep):
        if not args.quiet:
            _print(format_report(rep))

    try:
        reports = grade_paths(paths, opts, max(1, args.jobs), progress, root=root)
    except sandbox.SandboxUnavailable as exc:
        print(f"grade: {exc}", file=sys.stderr)
        return 2
    _write_outputs(out, paths, reports, root, chapter, args)
    return _summarize(reports, chapter, out)


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
