"""An exercise set as its tests use it: the spec, the reference solutions, the cases.

Each ``test_exercises_<set>.py`` checks the set's reference answers against lib
and shows that typical wrong answers lose points on the spec's own cases; this
module is the one place that loads the set and turns the spec's cases into the
arguments a submission receives (:func:`submission_argument`, as the grader
passes them: lists of whole numbers as integer arrays, other lists as float
arrays).
"""

from __future__ import annotations

import importlib.util
from typing import Callable

import numpy as np

from grader.compare import compare
from grader.spec import load_chapter, solutions_path


def submission_argument(value):
    """A case input as the submission receives it."""
    if isinstance(value, list):
        arr = np.asarray(value)
        return arr if arr.dtype.kind == "i" else arr.astype(float)
    return value


class ExerciseSet:
    """The spec and reference solutions of exercise set ``name``.

    ``keywords=True``: a case's arguments are a dict by argument name (the
    reference is called ``f(**args)``); otherwise a list in the spec's order.
    """

    def __init__(self, name: str, keywords: bool = False) -> None:
        self.spec = load_chapter(name)
        loader = importlib.util.spec_from_file_location(
            f"{name}_reference", solutions_path(name))
        self.reference = importlib.util.module_from_spec(loader)
        loader.loader.exec_module(self.reference)
        self.keywords = keywords

    def cases(self, exercise: str, seed: int | None = None):
        """The exercise and its cases, public first: ``(ex, [(public, args), ...])``."""
        ex = self.spec.exercise(exercise)
        seed = self.spec.seed if seed is None else seed
        cases = []
        for public, inputs in ex.case_inputs(seed):
            values = {a: submission_argument(inputs[a]) for a in ex.args}
            cases.append((public, values if self.keywords else list(values.values())))
        return ex, cases

    def call(self, function: Callable, args):
        return function(**args) if self.keywords else function(*args)

    def passes(self, exercise: str, answer: Callable) -> list[bool]:
        """Which of the exercise's cases (public first, then hidden) ``answer`` passes,
        judged against the reference with the grader's comparison."""
        ex, cases = self.cases(exercise)
        out = []
        for public, args in cases:
            expected = np.asarray(self.call(getattr(self.reference, exercise), args),
                                  dtype=float).tolist()
            returned = np.asarray(self.call(answer, args), dtype=float).tolist()
            out.append(compare(expected, returned, rtol=ex.rtol, atol=ex.atol,
                               public=public).passed)
        return out
