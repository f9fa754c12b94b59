"""Exercise kinds: one class per kind, carrying its own checking, feedback and public/hidden behaviour.

A chapter's spec (``grader/chapters/<chapter>.py``) lists exercises as
instances of these classes (imported from :mod:`grader.spec`, which
re-exports them). Everything the grader does differently for a kind is a
method or an attribute of its class, so the rest of the grader never asks
which kind an exercise is:

==========================  ==================================================
``kind``                    the kind's name (README's table, ``KINDS``)
``answer_reader``           which reader of the sandboxed child turns the
                            answer into plain data (one of
                            :data:`grader.runner.ANSWER_READERS`)
``concept``                 one answer and no public case: the inline check
                            shows how it was read, never whether it is right
``case_inputs(seed)``       ``[(public, inputs), ...]``: public cases, then the
                            seeded hidden ones, each checked by ``validate``
``child_description(...)``  what the child is sent for these inputs
``input_names``             the order the inline check shows a case's inputs in
``check_reference(...)``    raises when the reference answer is not one this
                            kind accepts (a design its judge fails)
``judge_case(...)``         one case: the returned plain value against the
                            expected one (a :class:`CaseResult`, or a list of
                            them for a multiple select with partial credit);
                            what the message shows for a public and a hidden
                            case
``case_labels(publics)``    how the feedback names each case
``public_expected(value)``  what the public answers file holds for a public case
``read_back(value)``        (concept kinds) the inline check's lines saying how
                            the answer was read
==========================  ==================================================

The child-side readers live in :mod:`grader.runner` on purpose: that module
runs inside the sandbox as source text and imports nothing from ``grader``.
A kind that reads answers the way an existing kind does names that reader;
a new way of reading an answer is a reader there too (README, "Adding an
exercise kind").
"""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from . import runner
from .compare import CaseResult, compare, is_plain


def _plain_inputs(value):
    """Inputs as JSON data (numpy arrays to lists); refuse anything else."""
    if isinstance(value, dict):
        return {str(k): _plain_inputs(v) for k, v in value.items()}
    if isinstance(value, np.ndarray):  # whole-number arrays (indices) stay whole numbers
        return value.tolist() if np.issubdtype(value.dtype, np.integer) else value.astype(float).tolist()
    if isinstance(value, (list, tuple)):
        return [_plain_inputs(v) for v in value]
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating)):
        return float(value)
    if isinstance(value, str):
        return value
    raise TypeError(f"case input of type {type(value).__name__} is not plain data")


@dataclass
class Exercise:
    number: str
    name: str
    points: float
    partial: bool = False
    rtol: float = 1e-9
    atol: float = 1e-12
    title: str = ""
    timeout: float | None = None   # wall seconds for all its cases (default: --timeout)
    #: inputs dict -> None; raises (with the library's own validation) if a case is not a valid input
    validate: Callable | None = None
    #: the chapter label of the section the exercise tests (e.g. "sec-rb-consistency"); the
    #: statement links there (tests/test_grader_chapters.py checks the label and the link)
    section: str = ""
    #: graded in a child where ``lib`` cannot be imported (the exercise is to build what lib does)
    lib_forbidden: bool = False
    #: how long a good student who has read the section needs, in minutes (shown in the heading;
    #: a chapter's set adds up to 2-4 hours and points follow effort, tests/test_exercise_coverage.py)
    minutes: int = 0

    kind = "abstract"
    #: the child's reader of the answer (grader.runner.ANSWER_READERS)
    answer_reader = ""
    #: True for kinds whose answer is never shown by the inline check (no public case)
    concept = False

    # -- cases ---------------------------------------------------------------

    def checked(self, cases: list[tuple[bool, object]]) -> list[tuple[bool, object]]:
        """``cases`` after :attr:`validate` accepted every one (public and hidden alike)."""
        if self.validate is not None:
            for i, (public, inputs) in enumerate(cases, start=1):
                try:
                    self.validate(inputs)
                except Exception as exc:
                    kind = "public" if public else "hidden"
                    raise ValueError(f"exercise {self.number} `{self.name}`: {kind} case {i} is not a valid "
                                     f"input ({type(exc).__name__}: {exc})") from exc
        return cases

    def case_inputs(self, seed: int) -> list[tuple[bool, object]]:
        """[(is_public, inputs), ...] in grading order: public first, then hidden."""
        raise NotImplementedError

    def rng(self, seed: int) -> np.random.Generator:
        return np.random.default_rng([int(seed), zlib.crc32(self.name.encode())])

    def child_description(self, inputs) -> dict:
        """What the sandboxed child is sent to read the answer on ``inputs`` (plain data only)."""
        raise NotImplementedError

    @property
    def input_names(self) -> tuple:
        """The order in which the inline check shows a case's inputs (the rest follow)."""
        return ()

    # -- checking --------------------------------------------------------------

    def check_reference(self, inputs, value) -> None:
        """Raise ``RuntimeError`` when the reference's answer ``value`` is not one this kind accepts."""
        return None

    def judge_case(self, expected, inputs, value, public: bool):
        """One case: a :class:`CaseResult` (or a list of them); values are shown for public cases only."""
        return compare(expected, value, rtol=self.rtol, atol=self.atol, public=public)

    # -- public and hidden -------------------------------------------------------

    def case_labels(self, publics) -> list[str]:
        """How the feedback names each case (``publics``: one bool per case, in grading order)."""
        labels, n_public, n_hidden = [], 0, 0
        for public in publics:
            if public:
                n_public += 1
                labels.append(f"public case {n_public}")
            else:
                n_hidden += 1
                labels.append(f"hidden case {n_hidden}")
        return labels

    def public_expected(self, expected):
        """What ``grader/chapters/<chapter>_public.json`` holds as a public case's expected answer."""
        return expected


@dataclass
class FunctionExercise(Exercise):
    """The student defines ``def name(*args)``; it is called on each case."""

    args: tuple = ()
    public: list = field(default_factory=list)           # list of {arg: value}
    hidden: Callable | None = None                     # rng -> list of {arg: value}

    kind = "function"
    answer_reader = "function"

    def case_inputs(self, seed):
        cases = [(True, _plain_inputs(c)) for c in self.public]
        if self.hidden is not None:
            cases += [(False, _plain_inputs(c)) for c in self.hidden(self.rng(seed))]
        return self.checked(cases)

    def child_description(self, inputs):
        return {"name": self.name, "kind": self.answer_reader, "args": list(self.args), "cases": inputs}

    @property
    def input_names(self):
        return tuple(self.args)


@dataclass
class ExpressionExercise(Exercise):
    """The student assigns a SymPy expression (or Matrix) to the variable ``name``."""

    symbols: tuple = ()
    sample: Callable | None = None                     # rng -> {symbol name: float}
    public_points: list = field(default_factory=list)  # fixed public points
    n_hidden: int = 4
    shape: tuple | None = None                         # None: scalar; (r, c): Matrix

    kind = "expression"
    answer_reader = "expression"

    def case_inputs(self, seed):
        cases = [(True, _plain_inputs(p)) for p in self.public_points]
        rng = self.rng(seed)
        cases += [(False, _plain_inputs(self.sample(rng))) for _ in range(self.n_hidden)]
        return self.checked(cases)

    def child_description(self, inputs):
        return {"name": self.name, "kind": self.answer_reader, "symbols": list(self.symbols),
                "points": inputs, "shape": list(self.shape) if self.shape else None}

    @property
    def input_names(self):
        return tuple(self.symbols)


#: A hidden design case that fails: its inputs and requirements are not shown (README, "Security model").
HIDDEN_DESIGN_FAILED = ("the design does not meet the requirements of this hidden case "
                        "(inputs and requirements of hidden cases are not shown)")


@dataclass
class DesignExercise(FunctionExercise):
    """The student's function returns a design (parameters); a trusted ``judge`` checks it.

    ``judge(inputs, value) -> (passed, message)`` runs in the grader's own
    process on the plain data the child returned (never on student objects),
    typically with ``lib`` (simulate the design, check the limits). Any
    design that meets the requirements passes; the reference solution's
    design must pass too (checked when the expected cases are computed). The
    public file holds no reference design; the inline check runs the same judge.
    """

    judge: Callable | None = None

    kind = "design"

    def run_judge(self, inputs, value) -> tuple[bool, str]:
        """Run the trusted judge on plain data; never raises."""
        if not is_plain(value) or isinstance(value, bool):
            return False, "the design could not be read as numbers"
        try:
            ok, why = self.judge(inputs, value)
        except Exception as exc:  # a design the judge cannot even simulate fails, it is not a grader error
            return False, f"the design could not be checked ({type(exc).__name__}: {str(exc)[:200]})"
        return bool(ok), str(why)[:600]

    def check_reference(self, inputs, value):
        ok, why = self.run_judge(inputs, value)
        if not ok:
            raise RuntimeError(f"reference design fails the judge of {self.name}: {why}")

    def judge_case(self, expected, inputs, value, public):
        ok, why = self.run_judge(inputs, value)
        if not public:  # the judge's words name the case's inputs and limits: never shown for a hidden case
            return CaseResult(ok, "passed" if ok else HIDDEN_DESIGN_FAILED)
        return CaseResult(ok, why if ok or why else "the design does not meet the requirements")

    def public_expected(self, expected):
        # A design's reference is one of many right answers, and showing it would be the answer:
        # its public cases carry the inputs only (the inline check runs the public judge).
        return None


@dataclass
class ConceptExercise(Exercise):
    """A concept check: one answer read once, no public case, labelled "your answer"."""

    concept = True
    #: how the inline check names the kind of answer ("0 of 0 public cases pass (... has none)")
    answer_noun = "an answer"

    def case_inputs(self, seed):
        return [(False, {})]

    def case_labels(self, publics):
        labels = super().case_labels(publics)
        return [label if public else "your answer" for label, public in zip(labels, publics)]

    def read_back(self, value) -> list[str]:
        """The inline check's lines saying how the answer was read (never whether it is right)."""
        raise NotImplementedError


def compare_choice(expected, returned, *, options, multi: bool, partial: bool) -> list[CaseResult]:
    """A choice answer (sorted option indices) against the reference's.

    One result, or with ``multi`` and ``partial`` one per option (chosen or not,
    right or wrong). Messages never say which options are right.
    """
    n = len(options)
    if not (isinstance(returned, list) and all(type(i) is int and 0 <= i < n for i in returned)):
        return [CaseResult(False, "the answer could not be read as options")]
    chosen, right = set(returned), set(expected)
    if multi and partial:
        return [CaseResult((i in chosen) == (i in right),
                           f"option {options[i]}: {'chosen' if i in chosen else 'not chosen'}")
                for i in range(n)]
    shown = ", ".join(options[i] for i in sorted(chosen)) or "none"
    if chosen == right:
        return [CaseResult(True, f"your answer ({shown}) is right")]
    return [CaseResult(False, f"your answer ({shown}) is not right")]


@dataclass
class ChoiceExercise(ConceptExercise):
    """Multiple choice (``multi=False``: one letter) or multiple select (a set of letters).

    The student assigns ``name = "B"`` (or ``{"A", "C"}``). The child only
    turns the answer into option indices; the grader compares them with the
    reference's. One hidden case: no public case, so the inline check shows
    how the answer was read, never whether it is right. With ``multi`` and
    ``partial``, every option classified correctly (chosen or not) earns
    ``points / len(options)``.
    """

    options: tuple = ("A", "B", "C", "D")
    multi: bool = False

    kind = "choice"
    answer_reader = "choice"
    answer_noun = "a choice"

    def child_description(self, inputs):
        return {"name": self.name, "kind": self.answer_reader, "options": list(self.options),
                "multi": self.multi, "cases": inputs}

    def judge_case(self, expected, inputs, value, public):
        return compare_choice(expected, value, options=list(self.options), multi=self.multi,
                              partial=self.partial)

    def read_back(self, value):
        return [f"  your answer reads as: {', '.join(self.options[i] for i in value)}"]


def compare_quantity(expected, returned, *, rtol: float, atol: float) -> CaseResult:
    """``[SI value, kg, m, s exponents]`` against the reference's (same dimension, value within tolerance)."""
    describe_dimension = runner.describe_dimension
    if not (isinstance(returned, list) and len(returned) == 4
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in returned)
            and all(np.isfinite(returned))):
        return CaseResult(False, "the answer could not be read as a number with a unit")
    if [float(d) for d in returned[1:]] != [float(d) for d in expected[1:]]:
        return CaseResult(False, f"the unit is {describe_dimension(returned[1:])} in SI base units; "
                                 f"this quantity is in {describe_dimension(expected[1:])}")
    if abs(returned[0] - expected[0]) <= atol + rtol * abs(expected[0]):
        return CaseResult(True, "right value and unit")
    return CaseResult(False, f"the unit is right, the value ({returned[0]:.6g} "
                             f"{describe_dimension(returned[1:])} in SI units) is not")


@dataclass
class QuantityExercise(ConceptExercise):
    """A number with a unit: the student assigns ``name = "0.35 mm"`` (or ``(0.35, "mm")``).

    ``unit`` names the expected kind of quantity by one of its units (``"m"``,
    ``"N/m"``, ``"s"``...); the answer passes when its unit has the same
    dimension and its value in SI units is within the tolerance. The child
    only reads the answer into (SI value, dimension); the grader compares.
    """

    unit: str = ""

    kind = "quantity"
    answer_reader = "quantity"
    answer_noun = "a number with a unit"

    def child_description(self, inputs):
        return {"name": self.name, "kind": self.answer_reader, "cases": inputs}

    def judge_case(self, expected, inputs, value, public):
        return compare_quantity(expected, value, rtol=self.rtol, atol=self.atol)

    def read_back(self, value):
        describe_dimension = runner.describe_dimension
        si, dims = value[0], value[1:]
        want = runner.to_quantity(f"1 {self.unit}")[1:]
        lines = [f"  your answer reads as {si:.6g} {describe_dimension(dims)} (SI units)"]
        if dims != want:
            lines.append(f"      FAIL: its unit is not one of this quantity ({describe_dimension(want)}, "
                         f"e.g. {self.unit})")
        return lines


#: Every kind, by name: what a spec may use (tests/test_grader_structure.py holds the interface).
KINDS = {cls.kind: cls for cls in (FunctionExercise, ExpressionExercise, DesignExercise, ChoiceExercise,
                                   QuantityExercise)}

#: What :mod:`grader.spec` re-exports for the chapter specs: the base class and every kind's class.
__all__ = ["Exercise", "KINDS", *(cls.__name__ for cls in KINDS.values())]


def judge_case(ex: Exercise, expected, inputs, value, public: bool):
    """One case of exercise ``ex`` judged by its kind (:meth:`Exercise.judge_case`)."""
    return ex.judge_case(expected, inputs, value, public)
