"""Every public routine of ``lib`` answers bad input with the class ``lib._validation`` raises.

The valid call of each routine is the first call in its docstring's
Examples (the examples are run as doctests, so the call is known to work).
Each argument in turn is replaced by a bad value, and the exception must be
the one the error contract names, with a message that names the argument:

==========================  ==========================================
bad input                   exception
==========================  ==========================================
text for a number/array     ``ShapeError``
text for an option          ``OutOfRangeError`` (``ModelFileError`` for
                            the XML text of a model file)
NaN for a real number       ``NonFiniteError``
NaN for a count or index    ``ShapeError`` (not a whole number)
==========================  ==========================================

Never a bare ``ValueError``/``TypeError``/``AttributeError`` from NumPy
or Python, never a silent result. A new public routine without an example
call fails the collection test below until it gets one.
"""

from __future__ import annotations

import ast
import doctest
import importlib
import inspect
import pkgutil
import re

import numpy as np
import pytest

import lib
from lib import errors

#: Public routines that take no value input a bad value could replace (or only
#: draw), with the reason; every other public function must have an example call.
NO_EXAMPLE_CALL = {
    "lib.common.glue_number": "hands its value to myst_nb (tests/test_common.py)",
    "lib.common.glue_text": "hands its value to myst_nb (tests/test_common.py)",
    "lib.common.glue_figure": "hands a figure to myst_nb (tests/test_common.py)",
}
#: The package that draws and builds the live figures (checked by its own tests).
SKIP_PACKAGES = ("lib.figures",)


def _public_functions():
    found = []
    for info in pkgutil.walk_packages(lib.__path__, "lib."):
        if info.name.split(".")[-1].startswith("_") or info.name.startswith(SKIP_PACKAGES):
            continue
        module = importlib.import_module(info.name)
        for name in getattr(module, "__all__", []):
            obj = getattr(module, name)
            if inspect.isfunction(obj) and obj.__module__ == module.__name__:
                found.append((info.name, name, obj))
    return found


FUNCTIONS = _public_functions()


def _example_call(module_name: str, name: str, func):
    """(namespace, args, kwargs) of the first call of ``func`` in its docstring Examples."""
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


def test_every_public_function_has_an_example_call():
    missing = [f"{m}.{n}" for m, n, f in FUNCTIONS
               if f"{m}.{n}" not in NO_EXAMPLE_CALL and _example_call(m, n, f) is None]
    assert not missing, f"public functions whose docstring Examples never call them: {missing}"
    assert len(FUNCTIONS) > 150  # the walk found the library, not an empty package


def _contract_problems(name: str, func, args: list, kwargs: dict) -> list[str]:
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


@pytest.mark.parametrize("module_name, name, func", FUNCTIONS, ids=[f"{m}.{n}" for m, n, _ in FUNCTIONS])
def test_bad_input_raises_the_contracts_class_naming_the_argument(module_name, name, func):
    call = _example_call(module_name, name, func)
    if call is None:
        assert f"{module_name}.{name}" in NO_EXAMPLE_CALL
        return
    problems = _contract_problems(name, func, *call)
    assert not problems, "\n".join(problems)


def test_the_contract_check_can_fail():
    """Routines that break the contract in each way are caught."""
    from lib._validation import positive

    def bare_float(x: float):
        return float(x) + 1.0                      # ValueError for text, NaN passes

    def wrong_name(mass: float):
        return positive(mass, "m")                 # the message names another argument

    def careful(mass: float):
        return positive(mass, "mass")

    assert any("got ValueError" in p for p in _contract_problems("bare_float", bare_float, [1.0], {}))
    assert any("nan: no error" in p for p in _contract_problems("bare_float", bare_float, [1.0], {}))
    assert any("does not name 'mass'" in p for p in _contract_problems("wrong_name", wrong_name, [1.0], {}))
    assert _contract_problems("careful", careful, [1.0], {}) == []
