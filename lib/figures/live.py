"""Live figures: the figures of :data:`lib.figures.FIGURES` computed and drawn in the browser.

Each figure is an :class:`anywidget.AnyWidget` whose front end is one ES
module (:func:`module_source`): the palette of :mod:`lib.figures._frame`
(``COLORS``, ``STATE_COLORS``), the shared frame ``js/frame.js`` (controls,
SVG panels, readout, Python-style number formatting) and the figure's
``js/<name>.js`` holding a JavaScript port of the :mod:`lib` routines the
figure stands for. The module runs wherever the ipywidgets protocol does: in
JupyterLab and on Binder (anywidget's lab extension) and in the static book
page (the widget manager embedded by myst-nb, with anywidget's AMD bundle
served from ``book/_static/vendor``). Moving a control recomputes and redraws
in the browser, with no kernel; the picture is updated in place (only the
attributes that changed), within one frame. ``tests/test_jupyterlab.py``
runs a figure in JupyterLab.

The Python side sends the figure's record (:class:`lib.figures.spec.FigureSpec`):
the title, the control specification (ranges, steps, units), the starting
values (the defaults of the figure's ``*_data`` function) and the constants;
with a kernel, the front end sends back the control values, the state label
and the readout rows, which are the same strings as the figure's
``*_describe`` function prints. ``tests/test_figures_js.py`` runs every
figure's JavaScript in node over a grid of settings against ``*_data`` and
``*_describe``; ``tests/test_figures_live.py`` checks the built page.

:func:`lib.figures.page.show_figure` is the way a page shows a live figure;
``ramp_live`` and the other ``*_live`` functions are its short forms for the
figures of "Contact and friction".

Explained in :ref:`sec-cf-ramp` (and the other figure sections).
"""

from __future__ import annotations

import json
from typing import Any

import anywidget
import traitlets

from ._frame import COLORS, STATE_COLORS
from .page import figure_spec
from .spec import JS_DIR, FigureSpec, choice, control, defaults

__all__ = ["LiveFigure", "module_source", "control", "choice", "defaults", "ramp_live", "cone2d_live",
           "pyramid_live", "ball_drop_live", "fingertip_live"]


def _source(name: str) -> str:
    return (JS_DIR / name).read_text(encoding="utf-8")


def module_source(figure: str | FigureSpec) -> str:
    """The ES module of a live figure: the palette, ``js/frame.js`` and ``js/<name>.js``.

    The palette is :data:`lib.figures._frame.COLORS` and ``STATE_COLORS``,
    written as JavaScript constants ahead of the frame, so the static and the
    live pictures share one definition. The module's default export is the
    anywidget front end; the figure module defines ``FIGURE`` (its
    ``compute``, ``describe`` and ``draw``).

    Examples
    --------
    >>> module_source("cone2d").startswith("const COLORS = {")
    True
    """
    spec = figure_spec(figure)
    palette = (f"const COLORS = {json.dumps(COLORS)};\n"
               f"const STATE_COLORS = {json.dumps(STATE_COLORS)};\n")
    return palette + _source("frame.js") + "\n" + spec.js_file.read_text(encoding="utf-8")


class LiveFigure(anywidget.AnyWidget):
    """A figure whose controls, physics and picture run in the browser.

    Parameters
    ----------
    figure : str or FigureSpec
        A name of :data:`lib.figures.FIGURES` (or a record).
    **initial
        Starting values of some controls (the rest: the defaults of ``*_data``).

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

    name = traitlets.Unicode("").tag(sync=True)
    title = traitlets.Unicode("").tag(sync=True)
    controls = traitlets.List().tag(sync=True)
    constants = traitlets.Dict().tag(sync=True)
    values = traitlets.Dict().tag(sync=True)
    state_text = traitlets.Unicode("").tag(sync=True)
    readout = traitlets.List().tag(sync=True)

    def __init__(self, figure: str | FigureSpec, **initial: Any) -> None:
        spec = figure_spec(figure)
        values = spec.start(**initial)
        # Set before AnyWidget.__init__, which turns them into synced traits
        # (a keyword argument would not be synced).
        self._esm = module_source(spec)
        self._css = _source("frame.css")
        super().__init__(name=spec.name, title=spec.title, controls=list(spec.controls),
                         constants=spec.constant_values(), values=values)


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
    return LiveFigure("ramp", **initial)


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
    return LiveFigure("cone2d", **initial)


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
    return LiveFigure("pyramid", **initial)


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
    return LiveFigure("fingertip", **initial)


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
    return LiveFigure("ball_drop", **initial)
