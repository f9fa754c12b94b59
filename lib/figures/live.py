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

:func:`lib.figures.page.show_figure` is the way a page shows a live figure.

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

__all__ = ["LiveFigure", "module_source", "control", "choice", "defaults"]


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
