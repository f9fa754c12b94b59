"""Compare a returned value (plain data) with the expected one: the one implementation.

Used by the grader (trusted process) and by the students' inline check
(:mod:`grader.inline`). Inputs are plain JSON data produced by
:func:`grader.runner.to_plain`/:func:`grader.runner.evaluate_expression`; they
are validated here again, because in the grader they come from an untrusted
process.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

MAX_DEPTH = 4


@dataclass
class CaseResult:
    passed: bool
    message: str


def is_plain(value, depth: int = 0) -> bool:
    """True for bool, int/float, or (nested) lists of int/float."""
    if isinstance(value, bool):
        return depth == 0
    if isinstance(value, (int, float)):
        return True
    if isinstance(value, list) and depth < MAX_DEPTH:
        return all(is_plain(v, depth + 1) and not isinstance(v, bool) for v in value)
    return False


def _fmt(arr) -> str:
    a = np.asarray(arr, dtype=float)
    if a.ndim == 0:
        return f"{float(a):.10g}"
    text = np.array2string(a, precision=6, suppress_small=False, max_line_width=100, threshold=60)
    # Rows after the first line up under the first one in the indented feedback.
    return text.replace("\n", "\n" + " " * 15)


def tolerance_text(rtol: float, atol: float) -> str:
    return f"|returned - expected| <= {atol:g} + {rtol:g} * |expected|"


def compare(expected, returned, *, rtol: float, atol: float, public: bool) -> CaseResult:
    """Compare one case. Messages show values only for public cases."""
    if not is_plain(returned):
        return CaseResult(False, "the result could not be read as numbers")
    if isinstance(expected, bool):
        if not isinstance(returned, bool):
            shown = f" (returned {_fmt(returned)})" if public else ""
            return CaseResult(False, f"expected True or False, got a number or array{shown}")
        if returned == expected:
            return CaseResult(True, f"returned {returned}, as expected" if public else "passed")
        return CaseResult(False, f"expected {expected}, returned {returned}" if public else "wrong answer")
    if isinstance(returned, bool):
        return CaseResult(False, "expected numbers, got True/False")
    exp = np.asarray(expected, dtype=float)
    try:
        ret = np.asarray(returned, dtype=float)
    except (ValueError, TypeError, OverflowError):
        return CaseResult(False, "the result is a ragged list, not an array of numbers")
    if ret.shape != exp.shape:
        return CaseResult(False, f"expected shape {exp.shape}, returned shape {ret.shape}")
    if not np.all(np.isfinite(ret)):
        return CaseResult(False, "the result contains NaN or infinity"
                          + (f": returned {_fmt(ret)}" if public else ""))
    err = np.abs(ret - exp)
    bound = atol + rtol * np.abs(exp)
    if np.all(err <= bound):
        if public:
            return CaseResult(True, f"returned {_fmt(ret)}, as expected (within {tolerance_text(rtol, atol)})")
        return CaseResult(True, "passed")
    if public:
        idx = np.unravel_index(int(np.argmax(err - bound)), err.shape) if err.ndim else ()
        where = f" at index {tuple(int(i) for i in idx)}" if idx else ""
        worst, scale = float(err[idx]), abs(float(exp[idx]))
        # An absolute error means little without the scale: 4.15e-06 is 24 % of a 1.7e-05 s quantity.
        relative = f" ({100.0 * worst / scale:.3g} % of |expected| = {scale:.3g})" if scale > 0 else ""
        return CaseResult(
            False,
            f"expected {_fmt(exp)}\n      returned {_fmt(ret)}\n"
            f"      error {worst:.3g}{where}{relative}; tolerance {tolerance_text(rtol, atol)}",
        )
    return CaseResult(False, "wrong values (inputs and expected answer of hidden cases are not shown)")


def exercise_score(points: float, partial: bool, passed: list[bool]) -> float:
    """Points for an exercise from its cases' pass/fail (see README, "Points")."""
    if not passed:
        return 0.0
    if partial:
        return round(points * sum(passed) / len(passed), 4)
    return float(points) if all(passed) else 0.0
