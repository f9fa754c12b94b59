"""The report of one graded submission: its fields, typed and documented.

:func:`grader.session.grade_submission` returns a :class:`Report`; the gradebook
(:func:`grader.cli.gradebook_csv`), the JSON file per submission and the
Gradescope ``results.json`` (:func:`grader.gradescope.results_json`) are made
from it. Reports are plain dicts (``report["score"]``), written as JSON as
they are. Every string in a report has been through
:func:`grader.safe_text.safe_text`. README.md ("Report fields") lists the same
fields for instructors.

Written for Python 3.10 (Gradescope's Ubuntu 22.04): optional fields are
those of a ``total=False`` base class, not ``NotRequired``.
"""

from __future__ import annotations

from typing import List, Literal, TypedDict

#: What became of a submission: ``graded`` (it ran; the score is what it
#: earned), ``unreadable`` (the file could not be read; score 0) or ``error``
#: (the grader's fault, not a grade).
Status = Literal["graded", "unreadable", "error"]


class CaseEntry(TypedDict):
    """One case of one exercise, as the student sees it."""

    #: True for a public case (the message shows expected and returned values), False for a hidden one.
    public: bool
    #: Whether the returned value was accepted.
    passed: bool
    #: What the student reads: ``public case 1: ...``, ``hidden case 2: ...`` or ``your answer: ...``.
    message: str


class _ExerciseOptional(TypedDict, total=False):
    #: Expression exercises only: how the child printed the student's expression (at most 400 characters).
    your_expression: str


class ExerciseEntry(_ExerciseOptional):
    """One exercise of a report (one per exercise of the chapter, in the chapter's order)."""

    #: The exercise's number in the book, e.g. ``"3.1.2"``.
    number: str
    #: The name the student defines (function or variable), e.g. ``"body_wrench"``.
    name: str
    #: The exercise's points.
    points: float
    #: Whether part of the cases earn part of the points.
    partial: bool
    #: The points earned.
    score: float
    #: The one-line summary: cases passed and the first failure, or why it was not graded.
    feedback: str
    #: Every case's result, public cases first.
    cases: List[CaseEntry]


class _ReportOptional(TypedDict, total=False):
    #: The sandbox mode the child ran in (``namespace``, ``userns``, ``setuid``, ``none``);
    #: absent when the submission was not run (``unreadable``, or a grader error before the run).
    sandbox: str
    #: Status ``error`` only: the end (at most 4,000 characters) of what the sandbox printed,
    #: for the instructor.
    error_detail: str


class Report(_ReportOptional):
    """The report of one submission (the JSON file ``<path>.json`` of the output folder)."""

    #: The file's path inside the graded folder (``alice/hw.py``), or its name when one file is
    #: graded; the gradebook's ``submission`` column, the name on the progress line.
    submission: str
    #: The first folder of ``submission`` (one folder per student), or the file name without
    #: its extension for a file directly in the folder.
    student: str
    #: The chapter graded (its spec's name, e.g. ``rigid_body_dynamics``).
    chapter: str
    #: The grader's version (:data:`grader.session.GRADER_VERSION`).
    grader_version: str
    #: The seed of the hidden cases (the chapter's unless ``--seed`` was given).
    seed: int
    #: ``graded``, ``unreadable`` or ``error`` (:data:`Status`).
    status: Status
    #: The points earned, the sum of the exercises' scores (rounded to 4 decimals).
    score: float
    #: The chapter's total points.
    max_score: float
    #: One entry per exercise of the chapter, in order.
    exercises: List[ExerciseEntry]
    #: Notes about the whole submission: cells that failed or were skipped, output cut,
    #: why it could not be read or run; a grader error starts with ``GRADER ERROR``.
    messages: List[str]
    #: The first ``output_kb`` KB (default 32) of what the submission printed.
    output: str
