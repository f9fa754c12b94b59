"""The grading session of one submission: read it, run it in sandboxed children, score it.

:func:`grade_submission` is the entry point (``cli.grade_paths`` calls it per
file). The submission's code runs only in the sandboxed child
(:mod:`grader.sandbox`, :mod:`grader.runner`); this module sends it case
*inputs* and follows what it sends back with :class:`_Protocol` (which
message may come next, and by when, on this process's clock).
:func:`_run_groups` runs the exercises with ``lib`` and those graded without
it in two children at the same time; :func:`_run_all` restarts a child after
a crash (:class:`_Attempts`). Nothing from the child is unpickled, evaluated
or parsed as code; scoring is :mod:`grader.scoring`'s.
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from . import runner, sandbox, spec
from .expected import expected_cases
from .report import Report
from .safe_text import safe_text, scrub
from .sandbox import Limits
from .scoring import NOT_GRADED_ERROR, capital, score_exercise
from .spec import Chapter, solutions_path
from .submission import SubmissionError, read_submission

GRADER_VERSION = "1.0"


@dataclass
class GradeOptions:
    """How to grade: the same for every submission of a batch.

    ``chapter`` is the :class:`~grader.spec.Chapter` itself; a chapter *name*
    is accepted for convenience and loaded here, once, so that nothing
    downstream loads the chapter again.
    """

    chapter: Chapter
    solutions: str | None = None
    seed: int | None = None
    sandbox: str = "auto"
    limits: Limits = field(default_factory=Limits)
    hide: list = field(default_factory=list)   # extra paths hidden from the child

    def __post_init__(self):
        if isinstance(self.chapter, str):
            self.chapter = spec.load_chapter(self.chapter)

    @property
    def seed_used(self) -> int:
        """The seed of the hidden cases: ``seed``, or the chapter's."""
        return self.chapter.seed if self.seed is None else int(self.seed)


def submission_identity(path, root=None) -> tuple[str, str]:
    """A submission's ``submission`` and ``student``, as the gradebook, the report and the progress line name it.

    ``submission`` is the path relative to the graded folder ``root``, so that
    two students' ``hw.ipynb`` in ``alice/`` and ``bob/`` stay apart; ``student``
    is the first folder of that path (one folder per student, as LMS exports
    lay them out) or, for files directly in the folder (or a single file
    graded, ``root`` None), the file's stem.
    Names that are not UTF-8 are shown with ``\\xNN`` escapes (:func:`safe_text`).
    """
    path = Path(path)
    try:
        rel = path.relative_to(root) if root is not None else Path(path.name)
    except ValueError:  # not inside root (read_limited refuses it): named by the file alone
        rel = Path(path.name)
    student = rel.parts[0] if len(rel.parts) > 1 else rel.stem
    return safe_text(rel.as_posix()), safe_text(student)


def new_report(path, chapter: Chapter, seed: int, root=None, status: str = "graded") -> Report:
    """A report with no exercise graded yet; ``submission``/``student`` set here, once."""
    submission, student = submission_identity(path, root)
    return {
        "submission": submission,
        "student": student,
        "chapter": chapter.name,
        "grader_version": GRADER_VERSION,
        "seed": seed,
        "status": status,
        "score": 0.0,
        "max_score": chapter.max_score,
        "exercises": [],
        "messages": [],
        "output": "",
    }


def _hidden_paths(opts: GradeOptions, submission: Path, root=None) -> list[str]:
    """What the child must not see. The same for every file of a batch: the graded folder
    (``root``) is hidden as a whole, never a folder found by resolving a submission's path."""
    from .spec import CHAPTERS_DIR, DEFAULT_SOLUTIONS_DIR, REPO_ROOT

    graded = Path(root).absolute() if root is not None else Path(submission).absolute().parent
    paths = {str(DEFAULT_SOLUTIONS_DIR), str(CHAPTERS_DIR), str(REPO_ROOT / "tests"),
             str(REPO_ROOT / ".git"), str(graded)}
    sol = solutions_path(opts.chapter.name, opts.solutions).resolve()
    paths.add(str(sol.parent))
    paths.update(str(Path(p).resolve()) for p in opts.hide)
    return sorted(paths)


def _last_line(text: str) -> str:
    lines = [line.strip() for line in (text or "").splitlines() if line.strip()]
    return lines[-1][:300] if lines else ""


def grader_error_message(outcome: sandbox.ChildOutcome, mode) -> str:
    """What went wrong and what to fix, when the sandboxed Python did not start."""
    why = (_last_line(outcome.detail) or _last_line(outcome.output)
           or sandbox.describe_returncode(outcome.returncode))
    if outcome.status == "timeout":
        why = f"it was not ready within the start-up time limit ({why})"
    try:
        paths = sandbox.python_paths()
        python, keep = paths["python"], " ".join(paths["keep"])
    except Exception:  # the environment itself is broken
        python, keep = "(unknown)", "(unknown)"
    if mode == "setuid":
        fix = (f"the sandbox user must be able to read and run {python} and the packages "
               f"({keep}): e.g. `chmod -R a+rX` them and `chmod o+x` every folder above them")
    elif mode in ("namespace", "userns"):
        fix = f"check that `unshare` works here and that {python} runs with numpy installed"
    else:
        fix = f"check that {python} runs with numpy installed"
    return (f"GRADER ERROR (not the student's fault, this is not a grade): the sandboxed Python "
            f"did not start ({mode} sandbox): {why}. To fix: {fix}; then grade this submission again.")


def _cell_note(label: str, err: str) -> str:
    """A note about a cell that failed: its message names the cell already, or gets the name."""
    return capital(err) if err.startswith(label) else f"{capital(label)}: {err}"


def _crash_message(outcome: sandbox.ChildOutcome, what: str, limits: sandbox.Limits) -> str:
    if outcome.status == "timeout":
        return f"{what} did not finish within the time limit (infinite loop or far too slow?)"
    if outcome.status == "too_much_data":
        return f"{what} sent far too much data back (the result is too large)"
    if outcome.status == "protocol":
        return (f"{what} interfered with the grader's channel: it sent {outcome.detail} "
                "(only the grader's runner may write there)")
    if outcome.status == "failed_to_start":
        return f"the grader could not start Python for {what}: {outcome.detail}"
    code = outcome.returncode
    if code is not None and code < 0:
        return (f"{what} ended Python abruptly: {sandbox.describe_returncode(code)} "
                f"(memory limit {limits.memory_mb} MB, CPU limit {limits.cpu_seconds} s)")
    return (f"{what} ended Python abruptly ({sandbox.describe_returncode(code)}; "
            "os._exit, closing the grader's channel, or running out of memory?)")


def grade_submission(path, opts: GradeOptions, root=None) -> Report:
    """Grade one file; always returns a report (never raises for bad submissions).

    ``root``: the folder being graded (the file must lie inside it, behind no
    symbolic link); the report names the file by its path inside ``root``
    (:func:`submission_identity`). Every string in the report is :func:`safe_text`.
    """
    path = Path(path)
    chapter = opts.chapter
    expected = expected_cases(chapter, opts.solutions, opts.seed)
    report = new_report(path, chapter, opts.seed_used, root)
    cells, module = _read_for_grading(path, root, report)
    results: dict[int, dict] = {}
    if cells is not None:
        _run_submission(path, root, cells, module, expected, opts, report, results)
    _score_all(chapter, expected, results, report)
    return cast(Report, scrub(report))


def _read_for_grading(path: Path, root, report: Report):
    """The submission's code cells and module name, or ``(None, None)`` with the report ``unreadable``."""
    try:
        cells, module = read_submission(path, root)
    except SubmissionError as exc:
        report["status"] = "unreadable"
        report["messages"].append(f"The submission could not be read: {exc}")
        return None, None
    if not any(c[1].strip() for c in cells):
        report["messages"].append("The submission has no code (no code cells found).")
    return cells, module


def _run_submission(path: Path, root, cells, module, expected, opts: GradeOptions, report: Report,
                    results: dict) -> None:
    """Run the cells and every exercise's cases in the sandbox; the children's results go into ``results``."""
    chapter = opts.chapter
    report["sandbox"] = sandbox.detect_mode(opts.sandbox)
    hide = _hidden_paths(opts, path, root)
    descriptions = [[k, ex.child_description([c.inputs for c in expected[ex.name]])]
                    for k, ex in enumerate(chapter.exercises)]
    timeouts = {k: ex.timeout for k, ex in enumerate(chapter.exercises) if ex.timeout}
    _run_groups(chapter, cells, module, descriptions, opts, hide, results, report, timeouts)


def _score_all(chapter: Chapter, expected, results: dict, report: Report) -> None:
    """Score every exercise from the children's results (here, in the trusted process)."""
    total = 0.0
    for k, ex in enumerate(chapter.exercises):
        entry = score_exercise(k, ex, expected[ex.name], results.get(k), report["status"])
        total += entry["score"]
        report["exercises"].append(entry)
    report["score"] = round(total, 4)


class _Protocol:
    """The trusted side's view of one child: which message may come next, and by when.

    The runner sends, in this order: ``ready``; per cell ``cell i`` and
    ``cell_done i``; per exercise ``start k`` and ``result k``; ``done``.
    Anything else -- a message out of order, an index that is not the
    expected one, a field of the wrong type, a malformed result -- raises
    :class:`sandbox.ProtocolError` (the submission's fault: only code inside
    the child can send a message with the token). Deadlines are set here, on
    this process's clock, when a phase begins; a message can only end the
    current phase, never extend it.
    """

    def __init__(self, cells, descriptions, start, limits, timeouts, labels, report, results, failures=None):
        self.steps = [("ready", None)]
        self.steps += [step for c in cells for step in (("cell", c[0]), ("cell_done", c[0]))]
        self.steps += [step for k in range(start, len(descriptions)) for step in (("start", k), ("result", k))]
        self.steps.append(("done", None))
        self.pos = 0
        self.phase = ("startup",)
        self.descriptions = descriptions
        self.limits = limits
        self.timeouts = timeouts
        self.labels = labels
        self.report = report
        self.results = results
        self.failures = failures if failures is not None else []

    def __call__(self, msg):
        now = time.monotonic()
        ev, want = self.steps[self.pos] if self.pos < len(self.steps) else ("nothing", None)
        if msg.get("ev") != ev:
            got = msg.get("ev")
            got = got if isinstance(got, str) and len(got) < 20 else "?"
            raise sandbox.ProtocolError(f"a message out of order (expected '{ev}', got '{got}')")
        index = msg.get("i" if ev in ("cell", "cell_done") else "k")
        if want is not None and (type(index) is not int or index != want):
            raise sandbox.ProtocolError(f"a '{ev}' message for the wrong cell or exercise")
        self.pos += 1
        limits = self.limits
        if ev == "ready":
            return self.phase, now + limits.cell_timeout
        if ev == "cell":
            self.phase = ("cell", want)
            return self.phase, now + limits.cell_timeout
        if ev == "cell_done":
            err = msg.get("error")
            if err is not None and not isinstance(err, str):
                raise sandbox.ProtocolError("a cell message whose error is not text")
            kind, line, module = msg.get("kind"), msg.get("line"), msg.get("module")
            if (kind not in (None, "lib", "import", "name") or not (line is None or type(line) is int)
                    or not (module is None or isinstance(module, str))):
                raise sandbox.ProtocolError("a malformed cell message")
            if err:
                label = self.labels.get(want, f"cell {want}")
                note = _cell_note(label, err[:400])
                if note not in self.report["messages"]:
                    self.report["messages"].append(note)
                if not any(f["label"] == label for f in self.failures):
                    self.failures.append({"number": want, "label": label, "line": line, "kind": kind,
                                          "module": (module or "")[:100], "error": err[:400]})
            return self.phase, now + limits.cell_timeout
        if ev == "start":
            self.phase = ("exercise", want)
            own = self.timeouts.get(want) or 0.0
            return self.phase, now + max(limits.exercise_timeout, own)
        if ev == "result":
            self.results[want] = _validated_result(msg, self.descriptions[want][1])
            return self.phase, now + limits.exercise_timeout
        self.phase = ("done",)
        return self.phase, None


def _plain_value(value, depth=0) -> bool:
    """A returned value as the runner sends it: bool, number, or nested lists of numbers."""
    if isinstance(value, (bool, int, float)):
        return True
    if isinstance(value, list) and depth < 8:
        return all(_plain_value(v, depth + 1) for v in value)
    return False


def _validated_result(msg, desc) -> dict:
    """The child's result for one exercise, checked field by field (raises ProtocolError)."""
    n = runner.case_count(desc)
    cases = msg.get("cases")
    bad = sandbox.ProtocolError(f"a malformed result for `{desc['name']}`")
    if not isinstance(cases, list) or len(cases) != n:
        raise bad
    for case in cases:
        if not isinstance(case, dict) or not isinstance(case.get("ok"), bool):
            raise bad
        if case["ok"] and not _plain_value(case.get("value")):
            raise bad
        if not case["ok"] and not isinstance(case.get("error"), str):
            raise bad
        if case.get("kind") not in (None, "lib", "import", "name") or not isinstance(case.get("name", ""), str):
            raise bad
    for key in ("render", "missing"):
        if msg.get(key) is not None and not isinstance(msg.get(key), str):
            raise bad
    return {"cases": cases, "render": msg.get("render"), "missing": msg.get("missing")}


LIB_FREE_NOTE = "While grading the exercises done without lib (lib cannot be imported there): "


def _run_groups(chapter, cells, module, descriptions, opts, hide, results, report, timeouts):
    """Run the exercises that may use ``lib`` in one child, those graded without it in another.

    A ``lib_forbidden`` exercise is graded in a child where ``lib`` is not
    there at all (not mounted, not on ``sys.path``; in setuid mode not
    readable), so a call of the library routine it asks to rebuild fails
    there whatever the submission does. That child runs every cell again;
    its notes (e.g. a cell that imports lib) are added once, marked. The two
    children run at the same time (each its own sandbox uid and limits), so
    a chapter with lib-free exercises takes about as long as one without on
    a machine with a free core; they share nothing but the read-only inputs.
    """
    groups = [(True, [k for k, ex in enumerate(chapter.exercises) if not ex.lib_forbidden]),
              (False, [k for k, ex in enumerate(chapter.exercises) if ex.lib_forbidden])]
    groups = [(with_lib, ks) for with_lib, ks in groups if ks]
    runs = []
    for n, (with_lib, ks) in enumerate(groups):
        own_report = report if n == 0 else dict(report, messages=[], output="")
        runs.append({"with_lib": with_lib, "ks": ks, "report": own_report, "results": {}, "failures": [],
                     "descriptions": [[j, descriptions[k][1]] for j, k in enumerate(ks)],
                     "timeouts": {j: timeouts[k] for j, k in enumerate(ks) if k in timeouts}})

    def run(r):
        try:
            _run_all(cells, module, r["descriptions"], opts, hide, r["results"], r["report"], r["timeouts"],
                     with_lib=r["with_lib"], failures=r["failures"])
        except BaseException as exc:  # a grader fault: raised again in the caller's thread below
            r["raised"] = exc

    threads = [threading.Thread(target=run, args=(r,), daemon=True) for r in runs[1:]]
    for t in threads:
        t.start()
    if runs:
        run(runs[0])
    for t in threads:
        t.join()
    for r in runs:
        if "raised" in r:
            raise r["raised"]
    for r in runs[1:]:
        side = r["report"]
        if side["status"] == "error":
            report["status"] = "error"
            report.setdefault("error_detail", side.get("error_detail", ""))
        for msg in side["messages"]:
            if msg not in report["messages"]:
                report["messages"].append(msg if msg.startswith("GRADER ERROR") else LIB_FREE_NOTE + msg)
    sources = {c[0]: c[1] for c in cells}
    for r in runs:
        failures = [dict(f, source=sources.get(f["number"], "")) for f in r["failures"]]
        for j, k in enumerate(r["ks"]):
            if j in r["results"]:
                results[k] = dict(r["results"][j], cell_failures=failures)


BUDGET_USED = "not graded: the submission used up its total time budget"


@dataclass
class _Attempts:
    """One group's runs of the child so far: where the next run starts and what it leaves out."""

    cells: list                 # the non-blank code cells [[number, source, label], ...]
    labels: dict                # cell number -> label, blank cells included
    deadline: float             # time.monotonic() by which every run must have ended
    start: int = 0              # the first exercise (index into the descriptions) not yet run
    skip: dict = field(default_factory=dict)     # cell number -> why it is left out
    outputs: list = field(default_factory=list)  # what the first runs printed (at most 3)
    failures: list = field(default_factory=list)  # cells that stopped early: [{label, line, kind, ...}]
    count: int = 0              # runs started
    started_once: bool = False  # the runner has reported ``ready`` at least once


def _run_all(cells, module, descriptions, opts, hide, results, report, timeouts=None, with_lib=True,
             failures=None):
    """Run the child until every exercise has a result, restarting it after a crash.

    A cell that crashes the child is skipped in the next run; an exercise that
    crashes it gets its crash as result and the next run starts after it. The
    total time budget and a bound on the number of runs end the loop.
    ``failures`` (a list) receives every cell that stopped early, in order.
    """
    limits = opts.limits
    attempts = _Attempts(cells=[c for c in cells if c[1].strip()],  # a blank cell defines nothing: not sent
                         labels={c[0]: c[2] for c in cells},
                         deadline=time.monotonic() + limits.total_timeout)
    while attempts.start < len(descriptions):
        attempts.count += 1
        if _out_of_runs(attempts, len(descriptions)):
            _fill_remaining(results, attempts.start, len(descriptions), BUDGET_USED)
            break
        outcome = _run_once(attempts, module, descriptions, opts, hide, results, report, timeouts or {}, with_lib)
        _keep_output(attempts, outcome, report, limits)
        if outcome.status == "done":
            break
        attempts.started_once = attempts.started_once or "ready" in outcome.events
        if _skip_what_crashed(attempts, outcome, descriptions, results, report, limits):
            continue
        _give_up(attempts, outcome, len(descriptions), results, report, limits)
        break
    # Results that arrived after the restart point (a child that finished some
    # exercises before a later one crashed) are kept by the setdefault of _fill_remaining.
    report["output"] = "".join(attempts.outputs)[: limits.output_kb * 1024]
    if failures is not None:
        failures.extend(attempts.failures)


def _out_of_runs(attempts: _Attempts, n_exercises: int) -> bool:
    """More runs than cells and exercises could need, or the total time is used up."""
    return attempts.count > len(attempts.cells) + n_exercises + 2 or time.monotonic() >= attempts.deadline


def _fill_remaining(results: dict, start: int, stop: int, error: str) -> None:
    """Exercises ``start`` .. ``stop - 1`` without a result get ``error`` as theirs."""
    for k in range(start, stop):
        results.setdefault(k, {"error": error})


def _run_once(attempts: _Attempts, module, descriptions, opts, hide, results, report, timeouts, with_lib):
    """One run of the child: the cells not skipped, then the exercises from ``attempts.start`` on."""
    run_cells = [c for c in attempts.cells if c[0] not in attempts.skip]
    payload = {"cells": run_cells, "exercises": descriptions[attempts.start:], "module": module,
               "without_lib": not with_lib}
    protocol = _Protocol(run_cells, descriptions, attempts.start, opts.limits, timeouts, attempts.labels,
                         report, results, attempts.failures)
    return sandbox.run_child(payload, mode=report["sandbox"], limits=opts.limits, hide=hide, with_lib=with_lib,
                             deadline=attempts.deadline, on_event=protocol)


def _keep_output(attempts: _Attempts, outcome, report, limits) -> None:
    """Keep what the run printed (the first three runs) and note output that was cut."""
    if outcome.output and len(attempts.outputs) < 3:
        attempts.outputs.append(outcome.output)
    if outcome.output_bytes > limits.output_kb * 1024:
        note = (f"The submission printed {outcome.output_bytes} bytes; "
                f"only the first {limits.output_kb} KB were kept.")
        if note not in report["messages"]:
            report["messages"].append(note)


def _skip_what_crashed(attempts: _Attempts, outcome, descriptions, results, report, limits) -> bool:
    """After a crash in a cell or an exercise: leave it out of the next run (True), else False."""
    phase = outcome.phase
    if phase[0] == "cell":
        i = phase[1]
        label = attempts.labels.get(i, f"cell {i}")
        msg = _crash_message(outcome, label, limits)
        attempts.skip[i] = msg
        attempts.failures.append({"number": i, "label": label, "line": None, "kind": None, "module": None,
                                  "error": f"it was skipped: {msg}"})
        report["messages"].append(f"{capital(label)} was skipped: {msg}.")
        return True
    if phase[0] == "exercise":
        k = phase[1]
        name = descriptions[k][1]["name"]
        results.setdefault(k, {"error": _crash_message(outcome, f"`{name}`", limits)})
        attempts.start = max(attempts.start, k + 1)
        # Exercises the child finished before crashing keep their results.
        while attempts.start in results:
            attempts.start += 1
        return True
    return False


def _give_up(attempts: _Attempts, outcome, n_exercises: int, results, report, limits) -> None:
    """The child ended before any cell or exercise: a grader error, or nothing more can be graded."""
    if not attempts.started_once and time.monotonic() < attempts.deadline:
        # The runner never started: the sandbox or the environment is at
        # fault, not the submission. Say so to the instructor.
        report["status"] = "error"
        report["messages"].append(grader_error_message(outcome, report.get("sandbox")))
        report["error_detail"] = (outcome.detail or outcome.output or "")[-4000:]
        _fill_remaining(results, attempts.start, n_exercises, NOT_GRADED_ERROR)
        return
    # Crashed before running any cell (or out of total time): nothing more can be graded.
    if time.monotonic() >= attempts.deadline:
        msg = BUDGET_USED
    else:
        msg = _crash_message(outcome, "your code", limits)
    _fill_remaining(results, attempts.start, n_exercises, msg)
    report["messages"].append(f"The submission could not be run: {msg}.")
