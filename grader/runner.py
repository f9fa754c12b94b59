"""Code that runs *next to student code*: call answers, turn results into plain data.

This module is used in two places and must stay self-contained (standard
library plus ``numpy``/``sympy``, imported lazily; no ``grader`` imports):

* the sandboxed child process of the grader: its source text is passed to
  ``python -I -S -c`` and :func:`child_main` runs there. It executes the
  submission's cells, calls the named functions on the case inputs the parent
  sent, and writes JSON lines with plain values (numbers, bools, nested lists,
  short strings for feedback) to a dedicated pipe. It never sees an expected
  answer and never computes a score.
* the student's own kernel, through :mod:`grader.inline` (public cases only),
  and the trusted parent when it evaluates the reference solutions. All three
  share :func:`run_exercise`, so a student's inline check and the grader turn
  an answer into data in exactly the same way.

Nothing here trusts the objects it handles: every conversion is wrapped and
reported as a readable message.
"""

from __future__ import annotations

import builtins
import json
import os
import sys
import types

#: Largest number of elements a single returned array may have.
MAX_ELEMENTS = 100_000
#: Most dimensions a returned array may have (the grader refuses deeper results).
MAX_DIMENSIONS = 6
#: Longest feedback rendering of a student's expression (characters).
MAX_RENDER = 400
#: Longest error message (characters).
MAX_MESSAGE = 400


class AnswerError(Exception):
    """The answer cannot be turned into plain data; the message is for the student."""


def _short(text, limit=MAX_MESSAGE):
    text = str(text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _where(exc, cells=None):
    """' (cell 5 under "Exercise 3.1.1", line 3)' for the innermost frame of student code, or ''.

    The grader's child compiles each cell with its label as file name
    (``<cell 5 under "Exercise 3.1.1">``); ``cells`` (the inline check in a
    kernel) maps any other file name to such a label, or to None.
    """
    tb = exc.__traceback__
    where = ""
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        label = None
        if name.startswith("<cell "):
            label = name[1:-1]
        elif cells is not None:
            try:
                label = cells(name)
            except Exception:
                label = None
        if label:
            where = f" ({label}, line {tb.tb_lineno})"
        tb = tb.tb_next
    return where


def _text(exc) -> str:
    try:
        return str(exc)
    except BaseException:  # a hostile __str__
        return ""


def describe_exception(exc, call="", cells=None):
    """A one-line message a student understands for an exception raised by their code."""
    where = _where(exc, cells)
    if isinstance(exc, NotImplementedError):
        return f"{call} raised NotImplementedError{where}: this exercise is not done yet"
    if isinstance(exc, SystemExit):
        return f"{call} called sys.exit() / exit(){where}; do not exit from an answer"
    if isinstance(exc, KeyboardInterrupt):
        return f"{call} was interrupted (KeyboardInterrupt){where}"
    if isinstance(exc, RecursionError):
        return f"{call} recursed too deeply (RecursionError){where}"
    if isinstance(exc, MemoryError):
        return f"{call} ran out of memory (MemoryError){where}"
    if isinstance(exc, RuntimeError) and "start new thread" in _text(exc):
        return (f"{call} could not start a thread{where}: graded code runs in one thread of one "
                "process (no threads, no processes)")
    if isinstance(exc, BlockingIOError) and getattr(exc, "errno", None) == 11:
        return (f"{call} hit the process limit (BlockingIOError: could not start another "
                f"process or thread){where}; do not fork or start processes")
    try:
        detail = str(exc)
    except BaseException:  # a hostile __str__
        detail = "<message could not be shown>"
    head = f"{call} raised {type(exc).__name__}{where}"
    return _short(f"{head}: {detail}" if detail else head)


# --------------------------------------------------------------------------
# What graded code may import: one list, enforced the same way by the grader's
# child (an import guard), the inline check and the Gradescope bundle
# --------------------------------------------------------------------------

#: The packages a submission may import besides the Python standard library and ``lib``.
ALLOWED_PACKAGES = ("numpy", "scipy", "sympy")
#: Imported by an allowed package itself (SymPy's arithmetic); allowed, not advertised.
ALLOWED_DEPENDENCIES = ("mpmath",)
#: The sentence every exercise set's introduction holds (tests/test_grader_imports.py).
ALLOWED_SENTENCE = ("Your code may import the Python standard library, `numpy`, `scipy`, `sympy` "
                    "and the book's `lib` (not in the exercises marked **graded without `lib`**); "
                    "any other import fails when your work is graded and while a check runs.")
_ALLOWED_TEXT = "graded code may import only the Python standard library, numpy, scipy, sympy and lib"


#: Modules the child provides itself: the notebook's ``from grader.inline import checker`` (a no-op).
PROVIDED = ("grader", "grader.inline")


def import_allowed(name: str, with_lib: bool = True) -> bool:
    """Whether graded code may import module ``name`` (``lib`` only where ``with_lib``)."""
    if name in PROVIDED:
        return True
    top = str(name).partition(".")[0]
    if top == "lib":
        return bool(with_lib)
    return (top in ALLOWED_PACKAGES or top in ALLOWED_DEPENDENCIES or top in sys.stdlib_module_names
            or top == "__main__" or top.startswith("_sysconfigdata"))  # the build's own stdlib module


def refused_import(name: str, with_lib: bool = True) -> ModuleNotFoundError:
    """The error an import of ``name`` raises in graded code (the same text everywhere)."""
    why = ("this exercise is graded without lib" if str(name).partition(".")[0] == "lib" and not with_lib
           else _ALLOWED_TEXT)
    return ModuleNotFoundError(f"No module named {name!r} ({why})", name=name)


class ImportGuard:
    """``sys.meta_path[0]`` of the grader's child: an import outside the list fails, whoever imports it.

    A package that is installed here but not on Gradescope (trimesh, mujoco,
    matplotlib ...) fails the same way in both places; an allowed package that
    tries an optional import gets the ImportError it handles when that is missing.
    """

    def __init__(self, with_lib: bool = True):
        self.with_lib = with_lib

    def find_spec(self, fullname, path=None, target=None):
        if not import_allowed(fullname, self.with_lib):
            raise refused_import(fullname, self.with_lib)
        return None

    def invalidate_caches(self):
        return None


def guarded_import(with_lib: bool = True):
    """A ``__import__`` for student code that refuses what :class:`ImportGuard` refuses.

    The inline check runs an answer with it (the kernel has imported whatever
    the notebook did, so ``sys.modules`` would answer before any finder).
    """
    real = builtins.__import__

    def __import__(name, globals=None, locals=None, fromlist=(), level=0):
        if level == 0 and not import_allowed(name, with_lib):
            raise refused_import(name, with_lib)
        return real(name, globals, locals, fromlist, level)

    return __import__


def error_kind(exc, with_lib: bool = True):
    """A failure's kind, for the grader's feedback (structured, never read from the text).

    ``"lib"``: ``lib`` imported where the exercise is graded without it;
    ``"import"``: a package outside the list; ``"name"``: a NameError; else None.
    """
    if isinstance(exc, ModuleNotFoundError) and isinstance(getattr(exc, "name", None), str):
        if not import_allowed(exc.name, with_lib):
            return "lib" if exc.name.partition(".")[0] == "lib" else "import"
    if isinstance(exc, NameError):
        return "name"
    return None


def statement_line(exc, filename):
    """The line of the top-level statement of code ``filename`` (a cell) that raised ``exc``, or None."""
    tb = exc.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename == filename:
            return tb.tb_lineno
        tb = tb.tb_next
    lineno = getattr(exc, "lineno", None)
    return lineno if isinstance(lineno, int) and isinstance(exc, SyntaxError) else None


def cause_text(label, line, kind, module, error) -> str:
    """Why an answer is missing, when a cell stopped early: the first thing its feedback says."""
    at = f" at line {line}" if isinstance(line, int) else ""
    if kind == "lib":
        return (f"{label} stops{at} when the exercises graded without lib run (`import {module}` "
                "fails there), so nothing it defines from that line on exists there: import lib in "
                "a cell of its own")
    if kind == "import":
        return (f"{label} stops{at}: `{module}` cannot be imported ({_ALLOWED_TEXT}), so nothing "
                "it defines from that line on exists")
    return f"{label} failed{at} ({_short(error, 200)}), so nothing it defines from that line on exists"


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def to_plain(value):
    """Turn a returned value into JSON data: bool, float or nested lists of floats.

    Raises :class:`AnswerError` with a readable message for anything else.
    """
    import numpy as np

    if value is None:
        raise AnswerError("returned None (did you forget `return`?)")
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, (str, bytes, dict, set)):
        raise AnswerError(f"returned a {type(value).__name__}, expected numbers")
    if isinstance(value, complex) or isinstance(value, np.complexfloating):
        raise AnswerError("returned a complex number, expected real numbers")
    try:
        arr = np.asarray(value)
        if arr.dtype.kind == "c":
            raise AnswerError("returned complex numbers, expected real numbers")
        if arr.dtype.kind == "b" and arr.ndim == 0:
            return bool(arr)
        if arr.ndim > MAX_DIMENSIONS:
            raise AnswerError(f"returned an array with {arr.ndim} dimensions; expected at most {MAX_DIMENSIONS}")
        if arr.size > MAX_ELEMENTS:
            raise AnswerError(f"returned an array with {arr.size} elements; that is far too many")
        arr = np.array(arr, dtype=float)
    except AnswerError:
        raise
    except BaseException as exc:  # ragged lists, objects, sympy symbols ...
        raise AnswerError(
            f"returned a {type(value).__name__} that is not an array of numbers "
            f"({_short(type(exc).__name__ + ': ' + str(exc), 160)})"
        ) from None
    if arr.ndim == 0:
        return float(arr)
    return arr.tolist()


def to_inputs(case):
    """Case inputs as call arguments: lists become float arrays (int arrays when every entry is an
    int: indices such as a mesh's faces), numbers floats."""
    import numpy as np

    out = {}
    for key, val in case.items():
        if isinstance(val, list):
            out[key] = np.array(val, dtype=int if _whole_numbers(val) else float)
        elif isinstance(val, float):
            out[key] = float(val)
        else:
            out[key] = val
    return out


def _whole_numbers(value) -> bool:
    """True for a non-empty (nested) list whose entries are all ints (not bools)."""
    stack, seen = [value], 0
    while stack:
        item = stack.pop()
        if isinstance(item, list):
            stack.extend(item)
        elif type(item) is int:
            seen += 1
        else:
            return False
    return seen > 0


#: Most characters of a choice or a quantity answer.
MAX_ANSWER_TEXT = 80


def _plain_str(value, what):
    """A str (or str subclass) as a plain, bounded str; anything else raises AnswerError."""
    if not isinstance(value, str):
        raise AnswerError(f"{what} is a {type(value).__name__}, expected text")
    if str.__len__(value) > MAX_ANSWER_TEXT:
        raise AnswerError(f"{what} is {str.__len__(value)} characters long; that is far too long")
    return str.strip(str.__str__(value))


def to_choice(value, options, multi):
    """A multiple-choice answer as the sorted list of the chosen options' indices.

    ``"B"`` (or ``"b"``) for one choice; a set, list or tuple of letters (or a
    string ``"A, C"``, ``"A C"`` or ``"AC"``) for a multiple select. Raises :class:`AnswerError`.
    """
    what = "a set of letters such as {\"A\", \"C\"}" if multi else "one letter such as \"B\""
    if value is None:
        raise AnswerError(f"is None: this exercise is not done yet (assign {what})")
    if isinstance(value, str):
        text = _plain_str(value, "the answer")
        items = [t for t in text.replace(";", ",").replace(" ", ",").split(",") if t]
        if multi and len(items) == 1 and len(items[0]) > 1 and all(len(o) == 1 for o in options):
            items = list(items[0])  # "AC": letters written without separators
    elif type(value) in (set, frozenset, list, tuple):
        if len(value) > len(options):
            raise AnswerError(f"has {len(value)} entries; there are only {len(options)} options")
        items = [_plain_str(v, "an entry") for v in value]
    else:
        raise AnswerError(f"is a {type(value).__name__}; assign {what}")
    upper = [o.upper() for o in options]
    chosen = set()
    for item in items:
        if item.upper() not in upper:
            raise AnswerError(f"contains {item[:10]!r}, which is not one of the options {', '.join(options)}")
        chosen.add(upper.index(item.upper()))
    if not multi and len(chosen) != 1:
        raise AnswerError(f"must be exactly one option ({', '.join(options)}); it has {len(chosen)}")
    return sorted(chosen)


#: name -> (factor to SI, exponents of (kg, m, s)). Angles are dimensionless (rad = 1).
UNITS = {
    "m": (1.0, (0, 1, 0)), "g": (1e-3, (1, 0, 0)), "s": (1.0, (0, 0, 1)),
    "N": (1.0, (1, 1, -2)), "Pa": (1.0, (1, -1, -2)), "J": (1.0, (1, 2, -2)), "W": (1.0, (1, 2, -3)),
    "Hz": (1.0, (0, 0, -1)), "rad": (1.0, (0, 0, 0)), "deg": (0.017453292519943295, (0, 0, 0)),
    "min": (60.0, (0, 0, 1)), "h": (3600.0, (0, 0, 1)), "1": (1.0, (0, 0, 0)),
}
PREFIXES = {"p": 1e-12, "n": 1e-9, "u": 1e-6, "\u00b5": 1e-6, "\u03bc": 1e-6, "m": 1e-3, "c": 1e-2,
            "k": 1e3, "M": 1e6, "G": 1e9}
_SUPERSCRIPTS = {"\u00b2": "2", "\u00b3": "3", "\u2074": "4", "\u207b": "-", "\u00b9": "1"}


#: Units spelled out (singular; a plural "s" is removed first) and their prefixes.
SPELLED_UNITS = {"meter": "m", "metre": "m", "gram": "g", "second": "s", "sec": "s", "newton": "N",
                 "pascal": "Pa", "joule": "J", "watt": "W", "hertz": "Hz", "radian": "rad",
                 "degree": "deg", "minute": "min", "hour": "h"}
SPELLED_PREFIXES = {"pico": "p", "nano": "n", "micro": "u", "milli": "m", "centi": "c", "kilo": "k",
                    "mega": "M", "giga": "G"}


def _spelled(base):
    """'kilometers' -> 'km', 'seconds' -> 's'; None if ``base`` is no unit spelled out."""
    word = base.lower()
    for prefix, symbol in [("", ""), *SPELLED_PREFIXES.items()]:
        if not word.startswith(prefix):
            continue
        rest = word[len(prefix):]
        for unit in (rest, rest[:-1] if rest.endswith("s") and rest != "hertz" else None,
                     rest[:-2] if rest.endswith("es") else None):
            if unit in SPELLED_UNITS and not (symbol and SPELLED_UNITS[unit] in ("min", "h", "deg")):
                return symbol + SPELLED_UNITS[unit]
    return None


def _unit_factor(token):
    """'mm^2' -> (1e-6, (0, 2, 0)); raises AnswerError for an unknown unit."""
    plain, in_power = [], False
    for ch in token:
        if ch in _SUPERSCRIPTS:
            if not in_power:
                plain.append("^")
                in_power = True
            plain.append(_SUPERSCRIPTS[ch])
        else:
            plain.append(ch)
    token = "".join(plain)
    base, _, power = token.partition("^")
    try:
        exponent = int(power) if power else 1
    except ValueError:
        raise AnswerError(f"has the unit {token[:12]!r}: write powers as m^2 or m**2") from None
    if not -4 <= exponent <= 4:
        raise AnswerError(f"has the power {exponent} in its unit; powers from -4 to 4 only")
    if base not in UNITS and not (len(base) > 1 and base[0] in PREFIXES and base[1:] in UNITS):
        base = _spelled(base) or base
    if base in UNITS:
        factor, dims = UNITS[base]
    elif len(base) > 1 and base[0] in PREFIXES and base[1:] in UNITS and base[1:] not in ("min", "h", "deg", "1"):
        factor, dims = PREFIXES[base[0]] * UNITS[base[1:]][0], UNITS[base[1:]][1]
    else:
        raise AnswerError(f"has the unit {base[:12]!r}, which the grader does not know "
                          "(use SI units with prefixes: mm, kN/m, GPa, ms, N m, m/s^2 ...)")
    return factor ** exponent, tuple(d * exponent for d in dims)


#: The number at the start of a quantity's text ("4.382m", "4.382 m", "-2e5 N/m").
_NUMBER = __import__("re").compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def to_quantity(value):
    """A number with a unit as ``[value in SI units, kg, m, s exponents]``.

    Accepts ``"0.35 mm"``, ``"0.35mm"``, ``"2.1e5 N/m"``, ``"9.81 m/s^2"``, units spelled out
    (``"4.382 meters"``, ``"3 meters per second"``), ``(0.35, "mm")``; a plain number is a
    dimensionless quantity. Raises :class:`AnswerError`.
    """
    import math

    if value is None:
        raise AnswerError('is None: this exercise is not done yet (assign a number with its unit, e.g. "0.35 mm")')
    if isinstance(value, bool):
        raise AnswerError('is True/False; assign a number with its unit, e.g. "0.35 mm"')
    if isinstance(value, (int, float)):
        number, unit = float(value), ""
    elif type(value) is tuple and len(value) == 2 and isinstance(value[0], (int, float)) \
            and not isinstance(value[0], bool):
        number, unit = float(value[0]), _plain_str(value[1], "the unit")
    elif isinstance(value, str):
        text = _plain_str(value, "the answer")
        m = _NUMBER.match(text)
        if m is None:
            raise AnswerError(f"{text[:30]!r} does not start with a number, as in \"0.35 mm\"")
        number, unit = float(m.group(0)), text[m.end():]
        unit = " / ".join(part.strip() for part in unit.split(" per "))  # "meters per second"
    else:
        raise AnswerError(f'is a {type(value).__name__}; assign a number with its unit, e.g. "0.35 mm"')
    if not math.isfinite(number):
        raise AnswerError("is not a finite number")
    factor, dims = 1.0, (0, 0, 0)
    unit = unit.strip()
    if unit:
        numerator, *denominators = unit.replace("**", "^").replace("\u00b7", " ").replace("*", " ").split("/")
        parts = [(t, 1) for t in numerator.split()] + [(t, -1) for d in denominators for t in d.split()]
        if numerator.strip() in ("", "1"):
            parts = [(t, s) for t, s in parts if t != "1"]
        if len(parts) > 8:
            raise AnswerError("has a unit with too many parts")
        for token, sign in parts:
            f, d = _unit_factor(token)
            factor *= f ** sign
            dims = tuple(a + sign * b for a, b in zip(dims, d))
    si = number * factor
    if not math.isfinite(si):
        raise AnswerError("is not a finite number in SI units")
    return [si, *[float(d) for d in dims]]


def describe_dimension(dims):
    """(kg, m, s) exponents as a unit text: [1, -1, -2] -> 'kg m^-1 s^-2'."""
    parts = []
    for name, d in zip(("kg", "m", "s"), dims):
        d = int(d)
        if d:
            parts.append(name if d == 1 else f"{name}^{d}")
    return " ".join(parts) or "dimensionless"


def render(value):
    """A readable rendering (feedback only; the grader never parses it)."""
    try:
        return _short(str(value), MAX_RENDER)
    except BaseException:
        return "<could not be shown>"


def _matrix_from_rows(rows, sympy):
    """A list of lists of SymPy expressions or numbers as a Matrix (text entries are refused: never parsed)."""
    if len(rows) > 64 or any(len(row) > 64 for row in rows):
        raise AnswerError("is a list far too large for a matrix")
    for row in rows:
        for entry in row:
            if not (isinstance(entry, sympy.Basic) or _is_number(entry)):
                raise AnswerError(f"is a list with an entry of type {type(entry).__name__}; "
                                  "expected SymPy expressions or numbers")
    if len({len(row) for row in rows}) > 1:
        raise AnswerError("is a list of rows of different lengths")
    return sympy.Matrix([list(row) for row in rows])


def evaluate_expression(value, symbols, points, shape=None):
    """Evaluate a SymPy expression or Matrix at points {symbol name: float}.

    Symbols are matched by name, so assumptions (``positive=True``) do not
    matter. Returns one plain value per point or raises AnswerError.
    """
    import sympy

    if value is None:
        raise AnswerError("is None: this exercise is not done yet (assign a SymPy expression)")
    if isinstance(value, bool):
        raise AnswerError("is a bool; expected a SymPy expression")
    if shape is not None and type(value) in (list, tuple) and all(type(row) in (list, tuple) for row in value):
        value = _matrix_from_rows(value, sympy)  # [[a, b], [c, d]]: a Matrix written as its rows
    is_matrix = isinstance(value, sympy.MatrixBase)
    if shape is not None and not is_matrix:
        raise AnswerError(
            f"is a {type(value).__name__}; expected a sympy.Matrix of shape {tuple(shape)}"
        )
    if shape is None and is_matrix:
        raise AnswerError("is a Matrix; expected a scalar SymPy expression")
    if not (is_matrix or isinstance(value, sympy.Basic) or _is_number(value)):
        raise AnswerError(f"is a {type(value).__name__}; expected a SymPy expression")
    if _is_number(value):
        value = sympy.Float(value)
    if is_matrix and tuple(value.shape) != tuple(shape):
        raise AnswerError(f"has shape {tuple(value.shape)}; expected {tuple(shape)}")
    free = value.free_symbols
    by_name = {}
    for sym in free:
        name = getattr(sym, "name", None)
        if name is None:
            raise AnswerError(f"contains {render(sym)}, which is not a plain symbol")
        by_name.setdefault(name, []).append(sym)
    unknown = sorted(set(by_name) - set(symbols))
    if unknown:
        raise AnswerError(
            "contains the symbol(s) " + ", ".join(unknown)
            + "; use only " + ", ".join(symbols)
        )
    results = []
    for point in points:
        subs = {}
        for name, syms in by_name.items():
            for sym in syms:
                subs[sym] = sympy.Float(repr(float(point[name])), 30)
        entries = list(value) if is_matrix else [value]
        vals = []
        for entry in entries:
            try:
                num = complex(sympy.sympify(entry).xreplace(subs).evalf(30))
            except BaseException:
                raise AnswerError(
                    "could not be evaluated to a number at the grader's points "
                    "(does it contain an undefined function or unevaluated object?)"
                ) from None
            if abs(num.imag) > 1e-12 * max(1.0, abs(num.real)):
                raise AnswerError("evaluates to a complex number at the grader's points")
            vals.append(num.real)
        if is_matrix:
            rows, cols = value.shape
            results.append([vals[r * cols:(r + 1) * cols] for r in range(rows)])
        else:
            results.append(vals[0])
    return results


def every_case_failed(msg: str, ncases: int, *, render=None, missing=None, kind=None) -> dict:
    """The result of an exercise whose every case fails for one reason ``msg``."""
    case = {"ok": False, "error": msg}
    if kind:
        case["kind"] = kind
    return {"cases": [case] * ncases, "render": render, "missing": missing}


def _failed(msg, exc, with_lib):
    case = {"ok": False, "error": msg}
    kind = error_kind(exc, with_lib)
    if kind:
        case["kind"] = kind
    if kind == "name" and isinstance(getattr(exc, "name", None), str):
        case["name"] = _short(exc.name, 100)  # the name that was not defined
    return case


#: The ways the child reads an answer into plain data; every exercise kind names one
#: (``answer_reader`` in grader/kinds.py) and sends it as the description's ``kind``.
ANSWER_READERS = ("function", "expression", "choice", "quantity")


def case_count(ex) -> int:
    """The number of cases in a description: the points of an expression, else the cases."""
    return len(ex["points"]) if ex["kind"] == "expression" else len(ex["cases"])


def run_exercise(ex, namespace, cells=None, with_lib=True):
    """Run one exercise against the names defined in ``namespace``.

    ``ex`` is the plain description the parent sends: ``name``, ``kind``
    ('function', 'expression', 'choice' or 'quantity'), ``args`` and ``cases``
    (inputs) for a function, ``symbols``, ``points`` and ``shape`` for an
    expression, ``options``, ``multi`` and ``cases`` for a choice, ``cases``
    for a quantity (a choice or a quantity is read once, the same value for
    every case).
    Returns ``{"cases": [{"ok": True, "value": ...} | {"ok": False,
    "error": ...}], "render": str | None, "missing": str | None}``.
    ``cells``: names the cell of a traceback's file name (see :func:`_where`).
    A failed case may carry ``"kind"`` (:func:`error_kind`; ``with_lib``: whether
    ``lib`` may be imported where this runs).
    """
    name = ex["name"]
    ncases = case_count(ex)
    if name not in namespace:
        msg = f"`{name}` is not defined: run/keep the cell that defines it and do not rename it"
        failed = every_case_failed(msg, ncases, render=None, missing=msg, kind="name")
        failed["cases"] = [dict(c, name=_short(name, 100)) for c in failed["cases"]]
        return failed
    obj = namespace[name]
    if ex["kind"] in ("choice", "quantity"):
        try:
            if ex["kind"] == "choice":
                value = to_choice(obj, ex["options"], ex["multi"])
            else:
                value = to_quantity(obj)
        except AnswerError as exc:
            msg = f"`{name}` {exc}"
            return every_case_failed(msg, ncases, render=None, missing=None)
        except BaseException as exc:
            msg = describe_exception(exc, f"reading `{name}`", cells)
            return every_case_failed(msg, ncases, render=None, missing=None)
        return {"cases": [{"ok": True, "value": value}] * ncases, "render": None, "missing": None}
    if ex["kind"] == "function":
        if not callable(obj):
            msg = f"`{name}` is a {type(obj).__name__}, not a function"
            return every_case_failed(msg, ncases, render=None, missing=msg)
        call = f"{name}({', '.join(ex['args'])})"
        out = []
        pid = os.getpid()
        for case in ex["cases"]:
            try:
                kwargs = to_inputs(case)
                value = obj(*[kwargs[a] for a in ex["args"]])
            except BaseException as exc:
                value = exc
            if os.getpid() != pid:  # a process forked by the answer: stop here
                os._exit(0)
            if isinstance(value, BaseException):
                out.append(_failed(describe_exception(value, call, cells), value, with_lib))
                continue
            try:
                out.append({"ok": True, "value": to_plain(value)})
            except AnswerError as exc:
                out.append({"ok": False, "error": f"{call} {exc}"})
            except BaseException as exc:
                out.append({"ok": False, "error": describe_exception(exc, f"converting the result of {call}", cells)})
        return {"cases": out, "render": None, "missing": None}
    # expression
    rendered = render(obj)
    try:
        values = evaluate_expression(obj, ex["symbols"], ex["points"], ex.get("shape"))
    except AnswerError as exc:
        msg = f"`{name}` {exc}"
        return every_case_failed(msg, ncases, render=rendered, missing=None)
    except BaseException as exc:
        msg = describe_exception(exc, f"evaluating `{name}`", cells)
        return every_case_failed(msg, ncases, render=rendered, missing=None, kind=error_kind(exc, with_lib))
    return {"cases": [{"ok": True, "value": v} for v in values], "render": rendered, "missing": None}


# --------------------------------------------------------------------------
# The child process
# --------------------------------------------------------------------------

def _install_fake_grader():
    """Make ``from grader.inline import checker`` work and do nothing while grading."""

    def _noop(*args, **kwargs):
        return None

    def checker(*args, **kwargs):
        return _noop

    pkg = types.ModuleType("grader")
    pkg.__path__ = []
    inline = types.ModuleType("grader.inline")
    inline.checker = checker
    inline.check = _noop
    pkg.inline = inline
    sys.modules["grader"] = pkg
    sys.modules["grader.inline"] = inline


def _private_functions():
    """Copies of this module's functions bound to a private globals dict.

    Submission code can reach this module (``sys._getframe().f_back.f_globals``)
    and replace its names; the copies used while grading do not see that.
    """
    private = dict(globals())
    for name, obj in list(private.items()):
        if isinstance(obj, types.FunctionType) and obj.__module__ == __name__:
            copy = types.FunctionType(obj.__code__, private, obj.__name__, obj.__defaults__, obj.__closure__)
            copy.__kwdefaults__ = obj.__kwdefaults__  # keyword-only defaults (every_case_failed's kind=None)
            private[name] = copy
    return private


def child_main(result_fd):
    """Entry point of the sandboxed child (see module docstring)."""
    private = _private_functions()
    run = private["run_exercise"]
    describe = private["describe_exception"]
    short = private["_short"]
    write = os.write
    dumps = json.dumps
    getpid = os.getpid
    exit_now = os._exit
    fd = int(result_fd)
    main_pid = getpid()

    payload = json.loads(sys.stdin.buffer.read().decode())

    real_stdout, real_stderr = sys.stdout, sys.stderr

    def flush():
        for stream in (sys.stdout, sys.stderr, real_stdout, real_stderr):
            try:
                stream.flush()
            except BaseException:
                pass

    def make_send(tag):
        def send(msg):
            if getpid() != main_pid:  # a process the submission forked: never speaks
                exit_now(0)
            if msg.get("ev") != "cell" and msg.get("ev") != "start":
                flush()  # printed output reaches the grader before the result
            data = tag + (dumps(msg, allow_nan=True) + "\n").encode()
            while data:
                n = write(fd, data)
                data = data[n:]
        return send

    # Every message carries the parent's one-time token, so bytes the
    # submission writes to this channel are not taken as results.
    send = make_send(str(payload.pop("token", "")).encode() + b" ")
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)
    sys.stdin = open(os.devnull)
    for path in payload.get("sys_path", []):
        sys.path.append(path)
    with_lib = not payload.get("without_lib")
    sys.meta_path.insert(0, private["ImportGuard"](with_lib))
    error_kind = private["error_kind"]
    statement_line = private["statement_line"]
    try:
        import signal
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    except Exception:
        pass
    import numpy  # (imported before submission code runs)

    # numpy unreadable by the sandbox user imports as an empty namespace package: a set-up
    # error (the grader says so to the instructor), not a zero for every answer.
    numpy.ndarray  # noqa: B018

    _install_fake_grader()
    student = types.ModuleType(str(payload.get("module") or "__main__"))
    student.__dict__["__builtins__"] = builtins
    student.__dict__["display"] = lambda *args, **kwargs: None  # Jupyter's display()
    sys.modules[student.__name__] = student
    if student.__name__ != "__main__":
        sys.modules["__main__"] = student
    namespace = student.__dict__
    cells = payload["cells"]
    exercises = payload["exercises"]
    del payload
    send({"ev": "ready"})
    for index, source, label in cells:
        send({"ev": "cell", "i": index})
        error = kind = line = module = None
        try:
            code = compile(source, f"<{label}>", "exec")
        except SyntaxError as exc:
            error = f"{label} has a syntax error (line {exc.lineno}): {short(exc.msg, 200)}"
        except BaseException as exc:
            error = f"{label} could not be compiled: {describe(exc)}"
        else:
            try:
                exec(code, namespace)
            except BaseException as exc:
                error = describe(exc, label)
                kind, line = error_kind(exc, with_lib), statement_line(exc, f"<{label}>")
                module = short(exc.name, 100) if kind in ("lib", "import") else None
            if getpid() != main_pid:
                exit_now(0)
        send({"ev": "cell_done", "i": index, "error": error, "kind": kind, "line": line, "module": module})
    for k, ex in exercises:
        send({"ev": "start", "k": k})
        try:
            res = run(ex, namespace, with_lib=with_lib)
        except BaseException as exc:
            res = {"cases": None, "error": describe(exc, f"running {ex['name']}")}
        if getpid() != main_pid:
            exit_now(0)
        send({"ev": "result", "k": k, **res})
    send({"ev": "done"})
    exit_now(0)


if __name__ == "__main__":  # pragma: no cover - used as `python -c SOURCE fd`
    child_main(sys.argv[1])
