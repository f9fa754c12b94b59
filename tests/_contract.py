"""lib's error contract as the tests check it: each argument of a valid call replaced by bad input.

The valid call of a public routine is the first call in its docstring's
Examples (:func:`example_call`); :func:`contract_problems` replaces each
argument in turn by text and by NaN and lists every way the routine breaks the
contract (the table is in ``test_lib_bad_input.py``). Used for the algorithms
and models (``test_lib_bad_input.py``) and for ``lib.figures``
(``test_figures_bad_input.py``).
"""

from __future__ import annotations

import ast
import doctest
import importlib
import inspect
import re

import numpy as np
from _tree import modules

from lib import errors


def public_functions(top: str = "lib", skip: tuple[str, ...] = ()) -> list[tuple[str, str, object]]:
    """``(module, name, function)`` for every function in ``__all__`` of the public modules of
    the package ``top`` (a dotted name) that the module defines, leaving out modules under ``skip``."""
    found = []
    for module_info in modules(top.split(".")[0], private=False):
        name = module_info.name
        if not (name == top or name.startswith(top + ".")) or name.startswith(skip):
            continue
        module = importlib.import_module(name)
        for attr in getattr(module, "__all__", []):
            obj = getattr(module, attr)
            if inspect.isfunction(obj) and obj.__module__ == module.__name__:
                found.append((name, attr, obj))
    return found


def example_call(module_name: str, name: str, func):
    """``(args, kwargs)`` of the first call of ``func`` in its docstring Examples (``None``: no call)."""
    module = importlib.import_module(module_name)
    namespace = {"np": np, **vars(module)}
    for example in doctest.DocTestParser().get_examples(func.__doc__ or ""):
        tree = ast.parse(example.source)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and (getattr(node.func, "id", None) == name
                                               or getattr(node.func, "attr", None) == name):
                args = []
                for arg in node.args:
                    if isinstance(arg, ast.Starred):
                        args += list(eval(ast.unparse(arg.value), namespace))
                    else:
                        args.append(eval(ast.unparse(arg), namespace))
                kwargs = {k.arg: eval(ast.unparse(k.value), namespace) for k in node.keywords}
                return args, kwargs
        exec(example.source, namespace)  # an earlier line the call needs (a model, a mesh)
    return None


def missing_example_calls(functions: list, exempt) -> list[str]:
    """``module.name`` of the functions whose docstring Examples never call them, except ``exempt``."""
    return [f"{m}.{n}" for m, n, f in functions if f"{m}.{n}" not in exempt and example_call(m, n, f) is None]


def example_call_unless_exempt(module_name: str, name: str, func, exempt):
    """:func:`example_call`, or ``None`` for a function of ``exempt`` (any other must have one)."""
    call = example_call(module_name, name, func)
    assert call is not None or f"{module_name}.{name}" in exempt, f"{module_name}.{name} has no example call"
    return call


def _is_whole(parameter: inspect.Parameter) -> bool:
    """A count or an index (``int``, ``Sequence[int]``; a mesh's ``faces``): NaN is not a whole number."""
    return bool(re.search(r"\bint\b", str(parameter.annotation))) or parameter.name == "faces"


def _bad_values(func_name: str, parameter: inspect.Parameter, value):
    """(label, bad value, expected exception class) for one argument's valid value."""
    if isinstance(value, str):
        expected = errors.ModelFileError if func_name.startswith("parse_") else errors.OutOfRangeError
        yield "text", "no such option", expected
        return
    if callable(value) and not isinstance(value, np.ndarray):
        yield "text", "abc", errors.ShapeError
        return
    yield "text", "abc", errors.ShapeError
    try:
        array = np.asarray(value, dtype=float)
    except (TypeError, ValueError):
        return
    nan = float("nan") if array.ndim == 0 else np.full(array.shape, np.nan).tolist()
    yield "nan", nan, errors.ShapeError if _is_whole(parameter) else errors.NonFiniteError


def contract_problems(name: str, func, args: list, kwargs: dict) -> list[str]:
    """Every way ``func`` breaks the error contract when one argument of a valid call is bad."""
    func(*args, **kwargs)  # the example call is valid
    parameters = inspect.signature(func).parameters
    ordered = list(parameters.values())
    slots = [(i, ordered[i], value) for i, value in enumerate(args)] + [(k, parameters[k], v) for k, v in kwargs.items()]
    problems = []
    for key, parameter, value in slots:
        param = parameter.name
        for label, bad, expected in _bad_values(name, parameter, value):
            a2, k2 = list(args), dict(kwargs)
            if isinstance(key, int):
                a2[key] = bad
            else:
                k2[key] = bad
            try:
                func(*a2, **k2)
            except expected as exc:
                if param not in str(exc):
                    problems.append(f"{param}={label}: {type(exc).__name__} does not name {param!r}: {exc}")
            except Exception as exc:  # noqa: BLE001 - any other class breaks the contract
                problems.append(f"{param}={label}: expected {expected.__name__}, got {type(exc).__name__}: {exc}")
            else:
                problems.append(f"{param}={label}: no error (expected {expected.__name__})")
    return problems
