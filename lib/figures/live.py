"""Live figures: the five figures of "Contact and friction" computed and drawn in the browser.

Each figure is an :class:`anywidget.AnyWidget` whose front end is an ES
module built from ``lib/figures/js/``: the shared frame ``frame.js`` (controls,
SVG panels, readout, Python-style number formatting) and one module per figure
(``cone2d.js``, ...) holding a JavaScript port of the :mod:`lib` routines the
figure stands for. The module runs wherever the ipywidgets protocol does: in
JupyterLab and on Binder (anywidget's lab extension) and in the static book
page (the widget manager embedded by myst-nb, with anywidget's AMD bundle
served from ``book/_static/vendor``). Moving a control recomputes and redraws
in the browser, with no kernel; the picture is updated in place (only the
attributes that changed), within one frame. ``tests/test_jupyterlab.py``
runs a figure in JupyterLab.

The Python side sends the control specification (ranges, steps, units) and
the starting values, taken from the signature of the figure's ``*_data``
function (:mod:`lib.figures.ramp`, ...); with a kernel, the front end
sends back the control values, the state label and the readout rows, which
are the same strings as the figure's ``*_describe`` function prints
(``tests/test_figures_live.py`` checks this in the built page).

Explained in :ref:`sec-cf-ramp` (and the other figure sections).
"""

from __future__ import annotations

import inspect
from pathlib import Path
from typing import Any, Callable

import anywidget
import traitlets

from . import ball_drop, cone2d, fingertip, pyramid, ramp

__all__ = ["LiveFigure", "control", "choice", "defaults", "ramp_live", "cone2d_live", "pyramid_live", "ball_drop_live", "fingertip_live"]

JS_DIR = Path(__file__).parent / "js"


def _source(name: str) -> str:
    return (JS_DIR / name).read_text(encoding="utf-8")


def _decimals(step: float) -> int:
    text = f"{step:.10f}".rstrip("0")
    return len(text.split(".")[1]) if "." in text else 0


def control(name: str, label: str, low: float, high: float, step: float, unit: str = "", digits: int = 2,
            kind: str = "range") -> dict:
    """Specification of one slider (``kind`` "range", "int" or "log"; "log" moves the base-10 exponent).

    Examples
    --------
    >>> control("mu", "mu", 0.0, 2.0, 0.01)["decimals"]
    2
    """
    return {"name": name, "label": label, "unit": unit, "kind": kind, "min": low, "max": high, "step": step,
            "digits": digits, "decimals": _decimals(step)}


def choice(name: str, label: str, options: list[str]) -> dict:
    """Specification of a choice between a few named options (radio buttons)."""
    return {"name": name, "label": label, "kind": "choice", "options": list(options)}


def defaults(function: Callable[..., Any]) -> dict[str, Any]:
    """Default keyword values of a ``*_data`` function (the figure's starting state).

    Examples
    --------
    >>> defaults(cone2d.cone2d_data)
    {'f_t': 1.0, 'f_n': 3.0, 'mu': 0.5}
    """
    return {name: p.default for name, p in inspect.signature(function).parameters.items()
            if p.default is not inspect.Parameter.empty}


class LiveFigure(anywidget.AnyWidget):
    """A figure whose controls, physics and picture run in the browser.

    Attributes
    ----------
    values : dict
        Control values by name (set it to move the controls from Python).
    state_text : str
        The state label, as the front end last computed it ("" before any view).
    readout : list
        The readout rows ``[label, value]`` as the front end last computed them.

    Explained in :ref:`sec-cf-cone2d`.
    """

    title = traitlets.Unicode("").tag(sync=True)
    controls = traitlets.List().tag(sync=True)
    constants = traitlets.Dict().tag(sync=True)
    values = traitlets.Dict().tag(sync=True)
    state_text = traitlets.Unicode("").tag(sync=True)
    readout = traitlets.List().tag(sync=True)

    def __init__(self, module: str, title: str, controls: list[dict], values: dict, constants: dict | None = None,
                 **kwargs: Any) -> None:
        unknown = set(values) - {c["name"] for c in controls}
        if unknown:
            raise ValueError(f"no control named {sorted(unknown)}")
        # Set before AnyWidget.__init__, which turns them into synced traits
        # (a keyword argument would not be synced).
        self._esm = _source("frame.js") + "\n" + _source(module)
        self._css = _source("frame.css")
        super().__init__(title=title, controls=controls, constants=constants or {}, values=values, **kwargs)


def _start(function: Callable[..., Any], names: list[str], initial: dict[str, Any]) -> dict[str, Any]:
    values = {name: value for name, value in defaults(function).items() if name in names}
    unknown = set(initial) - set(names)
    if unknown:
        raise ValueError(f"no control named {sorted(unknown)}")
    values.update(initial)
    return values


def ramp_live(**initial: float) -> LiveFigure:
    """FIG 1 live: tilt, friction, mass and push over a port of :func:`lib.friction.ramp_state`.

    The push is in units of the weight ``m g``, angles in degrees; the readout
    rows are those of :func:`lib.figures.ramp.ramp_describe`. The
    tilt slider reaches 90 degrees, where lib (and the figure) refuse: the
    model needs ``alpha < 90`` degrees.
    Explained in :ref:`sec-cf-ramp`.

    Examples
    --------
    >>> ramp_live(mu_s=0.8, mu_k=0.6).values["alpha_deg"]
    20.0
    """
    controls = [
        control("alpha_deg", "tilt alpha", 0.0, 90.0, 0.5, "deg", digits=1),
        control("mu_s", "static friction mu_s", 0.0, 1.5, 0.01),
        control("mu_k", "kinetic friction mu_k", 0.0, 1.5, 0.01),
        control("mass", "mass m", 0.1, 10.0, 0.1, "kg", digits=1),
        control("push", "push F", 0.0, 2.0, 0.01, "x mg"),
        control("beta_deg", "push angle beta", -90.0, 90.0, 1.0, "deg", digits=0),
    ]
    values = _start(ramp.ramp_data, [c["name"] for c in controls], initial)
    return LiveFigure("ramp.js", "Block on a ramp: stick, slip, lift-off", controls, values,
                      constants={"g": defaults(ramp.ramp_data)["g"]})


def cone2d_live(**initial: float) -> LiveFigure:
    """FIG 2 live: demanded force and friction coefficient over a port of :func:`lib.friction.cone_state`.

    The readout rows are those of :func:`lib.figures.cone2d.cone2d_describe`.
    Explained in :ref:`sec-cf-cone2d`.

    Examples
    --------
    >>> w = cone2d_live(f_t=2.0)
    >>> w.values
    {'f_t': 2.0, 'f_n': 3.0, 'mu': 0.5}
    """
    controls = [
        control("f_t", "tangential demand f_t", -4.5, 4.5, 0.05, "N"),
        control("f_n", "normal demand f_n", -2.0, 4.5, 0.05, "N"),
        control("mu", "friction coefficient mu", 0.0, 2.0, 0.01),
    ]
    values = _start(cone2d.cone2d_data, [c["name"] for c in controls], initial)
    return LiveFigure("cone2d.js", "The planar friction cone: stick, slip, separate", controls, values)


def pyramid_live(**initial: float) -> LiveFigure:
    """FIG 3 live: edges ``n_d``, ``mu``, direction and view over ports of :func:`lib.friction.pyramid_capacity`,
    :func:`~lib.friction.pyramid_worst_errors` and :func:`~lib.friction.pyramid_sampled_errors`.

    The readout rows are those of :func:`lib.figures.pyramid.pyramid_describe`.
    Explained in :ref:`sec-cf-pyramid`.

    Examples
    --------
    >>> w = pyramid_live(k=6)
    >>> w.values["k"], w.constants["n_directions"]
    (6, 7200)
    """
    controls = [
        control("k", "pyramid edges n_d", 3, 32, 1, kind="int"),
        control("mu", "friction coefficient mu", 0.0, 1.5, 0.01),
        control("phi_deg", "direction phi", 0.0, 360.0, 0.5, "deg", digits=1),
        control("azimuth_deg", "view azimuth", 0.0, 360.0, 1.0, "deg", digits=0),
    ]
    names = [c["name"] for c in controls]
    values = _start(pyramid.pyramid_data, names, initial)
    return LiveFigure("pyramid.js", "The 3D friction cone and its pyramids with n_d edges", controls, values,
                      constants={"n_directions": defaults(pyramid.pyramid_data)["n_directions"]})


def fingertip_live(**initial: Any) -> LiveFigure:
    """FIG 5 live: fingertip position, elbow, friction, torque limit and demanded force over ports of
    :mod:`lib.models.fingertip` (inverse kinematics, contact Jacobian, feasible-force polygon, the largest normal
    force and the state of a demanded force).

    The readout rows are those of :func:`lib.figures.fingertip.fingertip_describe`. The position
    slider reaches past the workspace (``|x_tip| <= 0.866`` m with the default links), where lib and the
    figure refuse. Link lengths and the shoulder height come from :func:`~lib.figures.fingertip.fingertip_data`.
    Explained in :ref:`sec-cf-fingertip`.

    Examples
    --------
    >>> w = fingertip_live()
    >>> w.values["elbow"], w.constants
    ('up', {'l1': 0.5, 'l2': 0.5, 'base_height': 0.5})
    """
    controls = [
        control("x_tip", "fingertip x", -0.9, 0.9, 0.01, "m"),
        choice("elbow", "elbow", ["up", "down"]),
        control("mu", "friction coefficient mu", 0.0, 1.5, 0.01),
        control("tau_max", "torque limit tau_max", 0.2, 3.0, 0.05, "N m"),
        control("f_t", "demanded f_t", -6.0, 6.0, 0.05, "N"),
        control("f_n", "demanded f_n", -1.0, 8.0, 0.05, "N"),
    ]
    values = _start(fingertip.fingertip_data, [c["name"] for c in controls], initial)
    geometry = {name: value for name, value in defaults(fingertip.fingertip_data).items()
                if name in ("l1", "l2", "base_height")}
    return LiveFigure("fingertip.js", "Fingertip on a table: friction cone and joint-torque limits", controls,
                      values, constants=geometry)


def ball_drop_live(**initial: Any) -> LiveFigure:
    """FIG 4 live: model, stiffness, step, damping and restitution over ports of
    :func:`lib.models.ball_drop.simulate_penalty_drop`, :func:`~lib.models.ball_drop.simulate_impulse_drop` and the
    closed forms of :mod:`lib.contact_sim`.

    ``k`` and ``dt`` move on logarithmic sliders. The readout rows are those of
    :func:`lib.figures.ball_drop.ball_drop_describe`; mass, drop height and gravity come from
    :func:`~lib.figures.ball_drop.ball_drop_data`. A change of the simulation's parameters runs the
    whole simulation in the browser; the last 32 simulations are kept, so a control the model does not use
    (``e`` for the penalty model, ``k`` and ``zeta`` for the impulse model) or a setting seen before redraws
    without simulating.
    Explained in :ref:`sec-cf-nonsmooth`.

    Examples
    --------
    >>> w = ball_drop_live(model="impulse")
    >>> w.values["model"], w.constants["h0"]
    ('impulse', 1.0)
    """
    controls = [
        choice("model", "contact model", ["penalty", "impulse"]),
        control("k", "stiffness k", 3.0, 7.0, 0.05, "N/m", kind="log"),
        control("dt", "time step dt", -4.0, -1.5, 0.02, "s", kind="log"),
        control("zeta", "damping ratio zeta", 0.0, 0.9, 0.01),
        control("e", "restitution e", 0.0, 0.95, 0.01),
    ]
    values = _start(ball_drop.ball_drop_data, [c["name"] for c in controls], initial)
    physics = {name: value for name, value in defaults(ball_drop.ball_drop_data).items() if name in ("mass", "h0", "g")}
    return LiveFigure("ball.js", "A ball dropped from 1 m: penalty versus impulse contact", controls, values,
                      constants=physics)
