"""Judging and scoring, in the trusted process: the children's plain results against the expected answers.

:func:`score_exercise` makes an exercise's report entry: its cases judged
and named by the exercise's kind (:meth:`grader.kinds.Exercise.judge_case`,
:meth:`~grader.kinds.Exercise.case_labels`), its score, and its one-line
feedback, led by why a name is missing when a cell stopped early.
:func:`format_report` is the text the ``grade`` command prints.
"""

from __future__ import annotations

from . import compare as cmp
from . import runner
from .report import CaseEntry, ExerciseEntry, Report
from .safe_text import printable
from .submission import bound_names

NOT_GRADED_ERROR = "not graded: grader error (not the submission's fault; see the messages)"


def capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _failed_cases(cases, message: str) -> list[CaseEntry]:
    """Every case failed with the same ``message`` (not run, or the exercise's error)."""
    return [{"public": c.public, "passed": False, "message": message} for c in cases]


def score_exercise(k, ex, cases, result, status) -> ExerciseEntry:
    """The report's entry for exercise ``ex``: its cases judged, its score and feedback."""
    entry: ExerciseEntry = {
        "number": ex.number,
        "name": ex.name,
        "points": float(ex.points),
        "partial": ex.partial,
        "score": 0.0,
        "feedback": "",
        "cases": [],
    }
    n = len(cases)
    if status == "error":
        entry["feedback"] = NOT_GRADED_ERROR
        entry["cases"] = _failed_cases(cases, "not run")
        return entry
    if status == "unreadable" or result is None:
        entry["feedback"] = "not graded: the submission could not be read" if status == "unreadable" else "not graded"
        entry["cases"] = _failed_cases(cases, "not run")
        return entry
    if "error" in result and result.get("cases") is None:
        msg = str(result["error"])[:600]
        entry["feedback"] = msg
        entry["cases"] = _failed_cases(cases, msg)
        return entry
    got = result.get("cases")
    if not isinstance(got, list) or len(got) != n:
        entry["feedback"] = "the submission's process sent malformed results"
        entry["cases"] = _failed_cases(cases, "malformed")
        return entry
    passed = []
    missing_names = {ex.name} if isinstance(result.get("missing"), str) else set()
    labels = ex.case_labels([case.public for case in cases])
    for case, ret, label in zip(cases, got, labels):
        if not isinstance(ret, dict):
            res = cmp.CaseResult(False, "malformed result")
        elif ret.get("ok") is True and "value" in ret:
            res = ex.judge_case(case.expected, case.inputs, ret["value"], case.public)
        else:
            err = ret.get("error")
            message = str(err)[:600] if isinstance(err, str) else "failed"
            res = cmp.CaseResult(False, message)
            if ret.get("kind") == "name" and isinstance(ret.get("name"), str):
                missing_names.add(ret["name"])
        for r in (res if isinstance(res, list) else [res]):
            passed.append(r.passed)
            entry["cases"].append({"public": case.public, "passed": r.passed, "message": f"{label}: {r.message}"})
    entry["score"] = cmp.exercise_score(ex.points, ex.partial, passed)
    rendered = result.get("render")
    if isinstance(rendered, str):
        entry["your_expression"] = rendered[:400]
    missing = result.get("missing")
    n = len(passed)
    npass = sum(passed)
    summary = f"{npass} of {n} cases passed"
    if isinstance(missing, str):
        summary = missing[:300]
    elif npass < n:
        first_fail = next(c["message"] for c in entry["cases"] if not c["passed"])
        summary += f"; first failure: {first_fail}"
    if not ex.partial and npass < n and npass > 0:
        summary += " (all cases must pass for the points)"
    cause = _missing_cause(missing_names, result.get("cell_failures") or []) if npass < n else None
    if cause:
        summary = capital(cause) + ". " + summary  # the first thing the student reads: why a name is missing
    entry["feedback"] = summary
    return entry


def _missing_cause(names: set, failures: list) -> str | None:
    """The first cell that stopped before defining one of ``names``, as :func:`runner.cause_text`, or None."""
    for f in failures if names else ():
        if names & bound_names(f.get("source", ""), f.get("line")):
            return runner.cause_text(f["label"], f["line"], f["kind"], f["module"], f["error"])
    return None


def format_report(report: Report) -> str:
    """Human-readable feedback for one submission."""
    p = printable
    lines = [f"{p(report['submission'])}: {report['score']:g} / {report['max_score']:g}"
             + ("" if report["status"] == "graded" else f"  [{p(report['status'])}]")]
    for msg in report["messages"]:
        lines.append(f"  note: {p(msg)}")
    for ex in report["exercises"]:
        # A public case's message shows arrays over several lines: each on a line of its own
        # (printable() would show the line breaks as a literal \n).
        first, *more = str(ex["feedback"]).split("\n")
        lines.append(f"  Exercise {p(ex['number'])} {p(ex['name'])}: {ex['score']:g} / {ex['points']:g} "
                     f"-- {p(first)}")
        lines.extend(f"    {p(line)}" for line in more)
    return "\n".join(lines)
