"""``lib.figures`` follows lib's error contract: bad input raises the class ``lib._validation`` raises.

``tests/test_lib_bad_input.py`` holds the contract for the algorithms and
models and skips ``lib.figures``; this file applies the same check
(``tests/_contract.py``: each argument of the first
docstring example call replaced by text and by NaN) to every public function
of ``lib.figures`` and its schematics, and adds what that check cannot reach:
the controls of every registered live figure (keyword arguments ``**initial``),
checked against the figure's record, and unknown names.
"""

from __future__ import annotations

import inspect
import math

import matplotlib
import pytest

matplotlib.use("Agg")

from lib import errors  # noqa: E402
from lib import figures as cf  # noqa: E402
from lib.figures import live, page  # noqa: E402
from _contract import (contract_problems, example_call_unless_exempt, missing_example_calls,
                       public_functions)  # noqa: E402

#: Public functions with no example call, with the reason (all draw on matplotlib axes).
NO_EXAMPLE_CALL = {
    "lib.figures.schematics.draw_ground": "draws a strip on given axes (called by every schematic)",
    "lib.figures.schematics.draw_joint": "draws a joint marker on given axes (called by every schematic)",
    "lib.figures.schematics.contact.draw_box_on_corners":
        "draws lib.models.box_on_corners, which checks the inputs (tests/test_figures_schematics_contact.py)",
    "lib.figures.schematics.contact.draw_arm_at_wall":
        "draws arm_points (checked here) and checks normal (tests/test_figures_schematics_contact.py)",
    "lib.figures.schematics.mechanisms.joint_points": "checks q with as_array",
    "lib.figures.schematics.mechanisms.draw_fourbar": "draws rod_ends of lib.models.fourbar's configuration",
    "lib.figures.schematics.mechanisms.draw_fivebar": "draws rod_ends of lib.models.fivebar's configuration",
    "lib.figures.schematics.mechanisms.draw_pen_arm": "draws chain_points",
    "lib.figures.schematics.mechanisms.draw_stewart": "draws stewart_points",
}
#: Parameters that take free text (a name or a label to show), not an option out of a list.
FREE_TEXT = {("control", "name"), ("control", "label"), ("choice", "name"), ("choice", "label")}


FUNCTIONS = public_functions("lib.figures")


def test_every_public_function_has_an_example_call():
    missing = missing_example_calls(FUNCTIONS, NO_EXAMPLE_CALL)
    assert not missing, f"public functions whose docstring Examples never call them: {missing}"
    assert len(FUNCTIONS) > 30  # the walk found the package, not an empty one
    stale = set(NO_EXAMPLE_CALL) - {f"{m}.{n}" for m, n, _ in FUNCTIONS}
    assert not stale, stale


@pytest.mark.parametrize("module_name, name, func", FUNCTIONS, ids=[f"{m}.{n}" for m, n, _ in FUNCTIONS])
def test_bad_input_raises_the_contracts_class_naming_the_argument(module_name, name, func):
    call = example_call_unless_exempt(module_name, name, func, NO_EXAMPLE_CALL)
    if call is None:
        return
    if inspect.signature(func).parameters and any(
            p.kind is inspect.Parameter.VAR_KEYWORD for p in inspect.signature(func).parameters.values()):
        return  # keyword controls (**initial): test_live_controls_follow_the_contract
    problems = [p for p in contract_problems(name, func, *call)
                if not any(p.startswith(f"{param}=text:") for fn, param in FREE_TEXT if fn == name)]
    assert not problems, "\n".join(problems)


def _bad_control_values(control: dict):
    """(label, bad value, expected class) for one control."""
    if control["kind"] == "choice":
        yield "unknown option", "no such option", errors.OutOfRangeError
        yield "number", 1.0, errors.OutOfRangeError
        return
    yield "text", "abc", errors.ShapeError
    whole = control["kind"] == "int"
    yield "nan", math.nan, errors.ShapeError if whole else errors.NonFiniteError
    yield "inf", math.inf, errors.ShapeError if whole else errors.NonFiniteError
    top = 10.0 ** control["max"] if control["kind"] == "log" else control["max"]
    yield "above the slider", 2 * abs(top) + 1, errors.OutOfRangeError
    if whole:
        yield "not whole", control["min"] + 0.5, errors.ShapeError


@pytest.mark.parametrize("name", sorted(cf.FIGURES))
def test_live_controls_follow_the_contract(name: str) -> None:
    spec = cf.FIGURES[name]
    makers = {"LiveFigure": lambda **v: live.LiveFigure(name, **v),
              "show_figure": lambda **v: cf.show_figure(name, **v), "start": spec.start}
    problems = []
    for control in spec.controls:
        for label, bad, expected in _bad_control_values(control):
            for maker_name, make in makers.items():
                try:
                    make(**{control["name"]: bad})
                except expected as exc:
                    if control["name"] not in str(exc):
                        problems.append(f"{maker_name}({control['name']}={label}): message does not name it: {exc}")
                except Exception as exc:  # noqa: BLE001 - any other class breaks the contract
                    problems.append(f"{maker_name}({control['name']}={label}): expected {expected.__name__}, "
                                    f"got {type(exc).__name__}: {exc}")
                else:
                    problems.append(f"{maker_name}({control['name']}={label}): no error")
    for maker_name, make in makers.items():
        with pytest.raises(errors.OutOfRangeError, match="no control named \\['no_such_control'\\]"):
            make(no_such_control=1.0)
    assert not problems, "\n".join(problems)


def test_unknown_figures_are_refused_by_name() -> None:
    for call in (lambda: live.LiveFigure("no_such_figure"), lambda: cf.show_figure("no_such_figure"),
                 lambda: cf.static_figure("no_such_figure"), lambda: live.module_source("no_such_figure"),
                 lambda: page.figure_spec(3)):
        with pytest.raises(errors.OutOfRangeError, match="figure must be one of"):
            call()
    with pytest.raises(errors.OutOfRangeError, match=r"cones2d_data|cone2d_data has no keyword \['force'\]"):
        cf.static_figure("cone2d", [dict(force=1.0)])
    with pytest.raises(errors.OutOfRangeError, match="at least one setting"):
        cf.static_figure("cone2d", [])


def test_a_record_must_name_keywords_of_its_data_function() -> None:
    from lib.figures.spec import FigureSpec, control

    ramp = cf.FIGURES["ramp"]
    with pytest.raises(errors.OutOfRangeError, match=r"keywords of ramp_data with a default, got \['tilt'\]"):
        FigureSpec(name="ramp", title="", controls=(control("tilt", "tilt", 0.0, 1.0, 0.1),), data=ramp.data,
                   describe=ramp.describe, draw=ramp.draw)
    with pytest.raises(errors.OutOfRangeError, match="named twice"):
        FigureSpec(name="ramp", title="", controls=ramp.controls, data=ramp.data, describe=ramp.describe,
                   draw=ramp.draw, constants=("g", "mass"))
