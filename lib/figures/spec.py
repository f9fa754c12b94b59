"""What a figure of a chapter is: its controls and its functions, in one record.

A figure is one module of :mod:`lib.figures` (``lib/figures/<name>.py``)
holding three functions and one record:

- ``<name>_data(**values)``: control values in, plain data out, computed by
  the tested routines of :mod:`lib`; its keyword defaults are the figure's
  starting state;
- ``<name>_describe(data)``: ``(text, key, rows)``, the state label, its
  colour key (:data:`lib.figures._frame.STATE_COLORS`) and the readout rows;
- ``draw_<name>(data, ax=None)``: the static matplotlib picture;
- ``FIGURE = FigureSpec(...)``: the title, the controls (:func:`control`,
  :func:`choice`, each named after a keyword of ``<name>_data``) and the
  keywords the live figure receives as fixed constants.

Its live front end is ``lib/figures/js/<name>.js`` (a JavaScript port of
``<name>_data`` and ``<name>_describe`` and a drawing; see ``js/frame.js``).
The registry :data:`lib.figures.FIGURES` lists every figure;
:mod:`lib.figures.page` puts one into a page (static picture and live panel)
and :mod:`lib.figures.live` builds the live panel.
"""

from __future__ import annotations

import inspect
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from .._validation import as_function, in_range, instance_of, one_of, positive, real_number
from ..errors import OutOfRangeError, ShapeError

__all__ = ["FigureSpec", "control", "choice", "defaults", "JS_DIR"]

#: The live figures' front end: ``frame.js``, ``frame.css`` and one ``<name>.js`` per figure.
JS_DIR = Path(__file__).parent / "js"

#: Slider kinds: a plain range, whole numbers, or the base-10 exponent of the value.
SLIDER_KINDS = ("range", "int", "log")


def _decimals(step: float) -> int:
    text = f"{step:.10f}".rstrip("0")
    return len(text.split(".")[1]) if "." in text else 0


def control(name: str, label: str, low: float, high: float, step: float, unit: str = "", digits: int = 2,
            kind: str = "range") -> dict:
    """Specification of one slider (``kind`` "range", "int" or "log"; "log" moves the base-10 exponent).

    ``low``, ``high`` and ``step`` are slider positions (exponents for "log");
    ``digits`` is the number of decimals the slider's value is shown with.

    Examples
    --------
    >>> control("mu", "mu", 0.0, 2.0, 0.01)["decimals"]
    2
    """
    instance_of(name, str, "name")
    instance_of(label, str, "label")
    instance_of(unit, str, "unit")
    low, high = real_number(low, "low"), real_number(high, "high")
    if not low < high:
        raise OutOfRangeError(f"low must be below high, got low = {low:g}, high = {high:g}")
    step = positive(step, "step")
    digits = int(in_range(digits, "digits", 0, 12))
    one_of(kind, "kind", SLIDER_KINDS)
    return {"name": name, "label": label, "unit": unit, "kind": kind, "min": low, "max": high, "step": step,
            "digits": digits, "decimals": _decimals(step)}


def choice(name: str, label: str, options: list[str]) -> dict:
    """Specification of a choice between a few named options (radio buttons).

    Examples
    --------
    >>> choice("elbow", "elbow", ["up", "down"])["options"]
    ['up', 'down']
    """
    instance_of(name, str, "name")
    instance_of(label, str, "label")
    if isinstance(options, str) or not all(isinstance(o, str) for o in options) or len(options) < 2:
        raise ShapeError(f"options must be a list of at least two names, got {options!r}")
    return {"name": name, "label": label, "kind": "choice", "options": list(options)}


def defaults(function: Callable[..., Any]) -> dict[str, Any]:
    """Default keyword values of a ``*_data`` function (the figure's starting state).

    Examples
    --------
    >>> from lib.figures import cone2d
    >>> defaults(cone2d.cone2d_data)
    {'f_t': 1.0, 'f_n': 3.0, 'mu': 0.5}
    """
    as_function(function, "function")
    return {name: p.default for name, p in inspect.signature(function).parameters.items()
            if p.default is not inspect.Parameter.empty}


def _control_value(spec: dict, value: Any) -> Any:
    """``value`` checked against one control: an option of a choice, or a number on the slider."""
    name = spec["name"]
    if spec["kind"] == "choice":
        return one_of(value, name, spec["options"])
    if spec["kind"] == "int":
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) \
                or int(value) != value:
            raise ShapeError(f"{name} must be a whole number, got {value!r}")
        return int(in_range(value, name, spec["min"], spec["max"]))
    number = real_number(value, name)
    if spec["kind"] == "log":
        in_range(number, name, 10.0 ** spec["min"], 10.0 ** spec["max"])
    else:
        in_range(number, name, spec["min"], spec["max"])
    return value


@dataclass(frozen=True)
class FigureSpec:
    """One figure of a chapter: its name, title, controls and functions.

    Parameters
    ----------
    name : str
        The module ``lib/figures/<name>.py`` and the front end
        ``lib/figures/js/<name>.js``.
    title : str
        Title of the live panel.
    controls : tuple of dict
        :func:`control` and :func:`choice` specifications, each named after a
        keyword of ``data``.
    data, describe, draw : callable
        ``<name>_data``, ``<name>_describe`` and ``draw_<name>``.
    constants : tuple of str
        Keywords of ``data`` the live figure receives as fixed constants
        (their defaults), not as controls.
    size : (float, float)
        Size in inches of one static drawing (:func:`lib.figures.page.static_figure`).
    section : str
        Label of the section that explains the figure.

    Examples
    --------
    >>> from lib.figures import FIGURES
    >>> FIGURES["cone2d"].start(mu=0.9)
    {'f_t': 1.0, 'f_n': 3.0, 'mu': 0.9}
    """

    name: str
    title: str
    controls: tuple
    data: Callable[..., dict]
    describe: Callable[[dict], tuple]
    draw: Callable[..., Any]
    constants: tuple = ()
    size: tuple = (5.0, 4.2)
    section: str = ""

    def __post_init__(self) -> None:
        keywords = defaults(self.data)
        names = [c["name"] for c in self.controls]
        unknown = [n for n in (*names, *self.constants) if n not in keywords]
        if unknown:
            raise OutOfRangeError(f"{self.name}: controls and constants must be keywords of "
                                  f"{self.data.__name__} with a default, got {unknown}")
        if len(set(names)) != len(names) or set(names) & set(self.constants):
            raise OutOfRangeError(f"{self.name}: a control or constant is named twice: {names}, {self.constants}")

    @property
    def js_file(self) -> Path:
        """The figure's front end, ``lib/figures/js/<name>.js``."""
        return JS_DIR / f"{self.name}.js"

    def control_names(self) -> list[str]:
        """The names of the controls, in the order the panel shows them."""
        return [c["name"] for c in self.controls]

    def start(self, **initial: Any) -> dict[str, Any]:
        """Control values: the defaults of ``data``, replaced by ``initial`` (each checked against its control).

        Raises
        ------
        OutOfRangeError
            For a name that is not a control, a value off its slider or not one of its options.
        ShapeError, NonFiniteError
            For a value that is not a (whole) number, or NaN or infinity.
        """
        names = self.control_names()
        unknown = sorted(set(initial) - set(names))
        if unknown:
            raise OutOfRangeError(f"no control named {unknown} in the figure {self.name!r}; "
                                  f"its controls are {names}")
        values = {name: value for name, value in defaults(self.data).items() if name in names}
        by_name = {c["name"]: c for c in self.controls}
        values.update({name: _control_value(by_name[name], value) for name, value in initial.items()})
        return {name: values[name] for name in names}

    def constant_values(self) -> dict[str, Any]:
        """The fixed constants of the live figure: the defaults of ``data`` named by ``constants``."""
        keywords = defaults(self.data)
        return {name: keywords[name] for name in self.constants}
