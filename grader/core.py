"""The grader's trusted side, one module per job; this module names them and re-exports their API.

* :mod:`grader.submission`: reading a submission as text (:func:`read_limited`,
  :func:`notebook_cells`, :func:`labelled_code_cells`, :func:`read_submission`)
  and what a cell binds (:func:`bound_names`, :func:`first_refused_import`);
* :mod:`grader.safe_text`: text that is safe to print and to write
  (:func:`printable`, :func:`safe_text`, :func:`scrub`);
* :mod:`grader.expected`: the expected answers, from the reference solutions
  (:class:`ExpectedCase`, :func:`expected_cases`);
* :mod:`grader.session`: grading one submission (:class:`GradeOptions`,
  :func:`grade_submission`): the sandboxed children, their protocol, the
  two groups (with and without ``lib``), restarts after a crash;
* :mod:`grader.scoring`: an exercise's cases judged, its score and feedback
  (:func:`~grader.scoring.score_exercise`, :func:`format_report`);
* :mod:`grader.kinds`: the exercise kinds, one class each (:data:`KINDS`),
  carrying their own checking, feedback and public/hidden behaviour
  (:func:`judge_case`: one case judged by its exercise's kind).

Import from the module that does the job; the names below stay importable as
``grader.core.<name>`` for scripts and tests written before the split.
"""

from __future__ import annotations

from . import compare as cmp  # noqa: F401  (grader.core.cmp: the one comparison)
from . import runner  # noqa: F401  (grader.core.runner: the one answer reader)
from .expected import ExpectedCase, expected_cases
from .kinds import HIDDEN_DESIGN_FAILED, KINDS, judge_case
from .safe_text import printable, safe_text, scrub
from .scoring import NOT_GRADED_ERROR, format_report
from .session import (BUDGET_USED, GRADER_VERSION, LIB_FREE_NOTE, GradeOptions, grade_submission,
                      grader_error_message, new_report, submission_identity)
from .spec import load_chapter  # noqa: F401  (GradeOptions loads a chapter named by its name)
from .submission import (MAX_SUBMISSION_BYTES, SUPPORTED, SubmissionError, bound_names, cell_label,
                         first_refused_import, heading_of, labelled_code_cells, notebook_cells,
                         read_limited, read_submission)

__all__ = [
    "BUDGET_USED", "ExpectedCase", "GRADER_VERSION", "GradeOptions", "HIDDEN_DESIGN_FAILED", "KINDS",
    "LIB_FREE_NOTE", "MAX_SUBMISSION_BYTES", "NOT_GRADED_ERROR", "SUPPORTED", "SubmissionError",
    "bound_names", "cell_label", "expected_cases", "first_refused_import", "format_report",
    "grade_submission", "grader_error_message", "heading_of", "judge_case",
    "labelled_code_cells", "new_report", "notebook_cells", "printable", "read_limited",
    "read_submission", "safe_text", "scrub", "submission_identity",
]
