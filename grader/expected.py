"""Expected answers: computed here, in the trusted process, from the reference solutions.

The reference module runs through the same :func:`grader.runner.run_exercise`
as a submission (so its answers are plain data of the same form); each kind
checks its reference answer as it will check a student's
(:meth:`grader.kinds.Exercise.check_reference`). Expected answers never
enter the sandboxed child.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from . import runner
from .spec import Chapter, load_solutions, solutions_path


@dataclass
class ExpectedCase:
    public: bool
    inputs: object
    expected: object


_EXPECTED_CACHE: dict = {}
_EXPECTED_LOCK = threading.Lock()


def expected_cases(chapter: Chapter, solutions=None, seed: int | None = None) -> dict:
    """{exercise name: [ExpectedCase, ...]}; cached per (chapter, solutions, seed)."""
    seed = chapter.seed if seed is None else int(seed)
    key = (chapter.name, str(solutions_path(chapter.name, solutions).resolve()), seed)
    with _EXPECTED_LOCK:
        if key in _EXPECTED_CACHE:
            return _EXPECTED_CACHE[key]
        reference = load_solutions(chapter.name, solutions)
        namespace = vars(reference)
        out = {}
        for ex in chapter.exercises:
            cases = ex.case_inputs(seed)
            desc = ex.child_description([inp for _, inp in cases])
            res = runner.run_exercise(desc, namespace)
            values = []
            for (public, inp), case in zip(cases, res["cases"]):
                if not case["ok"]:
                    raise RuntimeError(f"reference solution fails on {ex.name}: {case['error']}")
                values.append(ExpectedCase(public, inp, case["value"]))
                ex.check_reference(inp, case["value"])  # e.g. a design its judge fails
            out[ex.name] = values
        _EXPECTED_CACHE[key] = out
        return out
