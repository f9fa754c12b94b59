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

import pytest
from _contract import (contract_problems, example_call_unless_exempt, missing_example_calls,
                       public_functions)

#: Public routines that take no value input a bad value could replace (or only
#: draw), with the reason; every other public function must have an example call.
NO_EXAMPLE_CALL = {
    "lib.common.glue_number": "hands its value to myst_nb (tests/test_common.py)",
    "lib.common.glue_text": "hands its value to myst_nb (tests/test_common.py)",
    "lib.common.glue_figure": "hands a figure to myst_nb (tests/test_common.py)",
}
#: The package that draws and builds the live figures (checked by its own tests).
SKIP_PACKAGES = ("lib.figures",)


FUNCTIONS = public_functions("lib", skip=SKIP_PACKAGES)


def test_every_public_function_has_an_example_call():
    missing = missing_example_calls(FUNCTIONS, NO_EXAMPLE_CALL)
    assert not missing, f"public functions whose docstring Examples never call them: {missing}"
    assert len(FUNCTIONS) > 150  # the walk found the library, not an empty package


@pytest.mark.parametrize("module_name, name, func", FUNCTIONS, ids=[f"{m}.{n}" for m, n, _ in FUNCTIONS])
def test_bad_input_raises_the_contracts_class_naming_the_argument(module_name, name, func):
    call = example_call_unless_exempt(module_name, name, func, NO_EXAMPLE_CALL)
    if call is None:
        return
    problems = contract_problems(name, func, *call)
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

    assert any("got ValueError" in p for p in contract_problems("bare_float", bare_float, [1.0], {}))
    assert any("nan: no error" in p for p in contract_problems("bare_float", bare_float, [1.0], {}))
    assert any("does not name 'mass'" in p for p in contract_problems("wrong_name", wrong_name, [1.0], {}))
    assert contract_problems("careful", careful, [1.0], {}) == []
