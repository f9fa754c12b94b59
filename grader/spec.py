"""Exercise specifications: what each chapter's exercises are and how they are graded.

See README.md ("The exercise format"). A chapter spec lives in
``grader/chapters/<chapter>.py`` and defines ``CHAPTER``. This module only
describes exercises and builds case *inputs*; expected answers are computed
by :mod:`grader.core` from the reference solutions, in the trusted process.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import pkgutil
import zlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import numpy as np

REPO_ROOT = Path(__file__).resolve().parent.parent
CHAPTERS_DIR = Path(__file__).resolve().parent / "chapters"
DEFAULT_SOLUTIONS_DIR = REPO_ROOT / "solutions"
EXERCISES_DIR = REPO_ROOT / "exercises"


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
    #: True for kinds whose answer is never shown by the inline check (no public case)
    concept = False

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


@dataclass
class FunctionExercise(Exercise):
    """The student defines ``def name(*args)``; it is called on each case."""

    args: tuple = ()
    public: list = field(default_factory=list)           # list of {arg: value}
    hidden: Callable | None = None                     # rng -> list of {arg: value}

    kind = "function"

    def case_inputs(self, seed):
        cases = [(True, _plain_inputs(c)) for c in self.public]
        if self.hidden is not None:
            cases += [(False, _plain_inputs(c)) for c in self.hidden(self.rng(seed))]
        return self.checked(cases)

    def child_description(self, inputs):
        return {"name": self.name, "kind": "function", "args": list(self.args), "cases": inputs}


@dataclass
class ExpressionExercise(Exercise):
    """The student assigns a SymPy expression (or Matrix) to the variable ``name``."""

    symbols: tuple = ()
    sample: Callable | None = None                     # rng -> {symbol name: float}
    public_points: list = field(default_factory=list)  # fixed public points
    n_hidden: int = 4
    shape: tuple | None = None                         # None: scalar; (r, c): Matrix

    kind = "expression"

    def case_inputs(self, seed):
        cases = [(True, _plain_inputs(p)) for p in self.public_points]
        rng = self.rng(seed)
        cases += [(False, _plain_inputs(self.sample(rng))) for _ in range(self.n_hidden)]
        return self.checked(cases)

    def child_description(self, inputs):
        return {"name": self.name, "kind": "expression", "symbols": list(self.symbols),
                "points": inputs, "shape": list(self.shape) if self.shape else None}


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

    def child_description(self, inputs):
        return {"name": self.name, "kind": "function", "args": list(self.args), "cases": inputs}


@dataclass
class ChoiceExercise(Exercise):
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
    concept = True

    def case_inputs(self, seed):
        return [(False, {})]

    def child_description(self, inputs):
        return {"name": self.name, "kind": "choice", "options": list(self.options), "multi": self.multi,
                "cases": inputs}


@dataclass
class QuantityExercise(Exercise):
    """A number with a unit: the student assigns ``name = "0.35 mm"`` (or ``(0.35, "mm")``).

    ``unit`` names the expected kind of quantity by one of its units (``"m"``,
    ``"N/m"``, ``"s"``...); the answer passes when its unit has the same
    dimension and its value in SI units is within the tolerance. The child
    only reads the answer into (SI value, dimension); the grader compares.
    """

    unit: str = ""

    kind = "quantity"
    concept = True

    def case_inputs(self, seed):
        return [(False, {})]

    def child_description(self, inputs):
        return {"name": self.name, "kind": "quantity", "cases": inputs}


@dataclass
class Chapter:
    name: str
    title: str
    seed: int
    exercises: list
    #: key idea of the chapter -> names of the exercises that test it; every exercise tests at
    #: least one idea, and the ideas every course expects are there (tests/test_exercise_coverage.py)
    key_ideas: dict = field(default_factory=dict)

    @property
    def max_score(self) -> float:
        return float(sum(ex.points for ex in self.exercises))

    @property
    def notebook(self) -> Path:
        return EXERCISES_DIR / f"{self.name}.md"

    @property
    def public_file(self) -> Path:
        return CHAPTERS_DIR / f"{self.name}_public.json"

    def exercise(self, name: str) -> Exercise:
        for ex in self.exercises:
            if ex.name == name:
                return ex
        raise KeyError(f"chapter {self.name} has no exercise named {name!r}")


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


def chapter_names() -> list[str]:
    return sorted(m.name for m in pkgutil.iter_modules([str(CHAPTERS_DIR)]) if not m.name.startswith("_"))


def load_chapter(name: str) -> Chapter:
    if name not in chapter_names():
        raise KeyError(f"unknown chapter {name!r}; known: {', '.join(chapter_names()) or 'none'}")
    module = importlib.import_module(f"grader.chapters.{name}")
    return module.CHAPTER


def solutions_path(chapter: str, solutions: str | Path | None = None) -> Path:
    """The reference module: a file, or ``<dir>/<chapter>.py``."""
    base = Path(solutions) if solutions else DEFAULT_SOLUTIONS_DIR
    return base if base.is_file() else base / f"{chapter}.py"


def load_solutions(chapter: str, solutions: str | Path | None = None):
    path = solutions_path(chapter, solutions)
    if not path.is_file():
        raise FileNotFoundError(f"reference solutions for {chapter!r} not found at {path}")
    spec = importlib.util.spec_from_file_location(f"_grader_reference_{chapter}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def load_public(chapter: Chapter) -> dict:
    """The public cases with expected answers: {name: [{"inputs", "expected"}]}."""
    return json.loads(chapter.public_file.read_text())
