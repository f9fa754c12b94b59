"""Figures: the only part of ``lib`` that plots.

The algorithms (``lib/*.py``) and the worked-example models (:mod:`lib.models`)
compute; this package draws what they compute, and nothing outside it imports
matplotlib or a widget library (``tests/test_figures.py`` holds the rule).

A figure of a chapter is one module, ``lib/figures/<name>.py``, holding a pure
``<name>_data`` function (control values in, plain data out, from the tested
routines of ``lib``; its keyword defaults are the figure's starting state),
``<name>_describe`` (the state label and the readout rows), ``draw_<name>``
(the static matplotlib picture) and its record ``FIGURE``
(:class:`lib.figures.spec.FigureSpec`: title and controls); its live front end
is ``lib/figures/js/<name>.js``. :data:`FIGURES` registers every figure by
name. The modules share the palette and drawing helpers of ``_frame``.

- :mod:`lib.figures.page` puts a figure into a page: its static picture
  (:func:`~lib.figures.page.static_figure`) and its live panel
  (:func:`~lib.figures.page.show_figure`);
- :mod:`lib.figures.live` builds the live panel (an anywidget) from the record;
- :mod:`lib.figures.schematics` draws the chapters' models from their geometry.

The figures of the lesson "Contact and friction":
:mod:`lib.figures.ramp` (FIG 1, a block on a ramp),
:mod:`lib.figures.cone2d` (FIG 2, the planar friction cone),
:mod:`lib.figures.pyramid` (FIG 3, the 3D cone and its pyramids),
:mod:`lib.figures.ball_drop` (FIG 4, penalty versus impulse contact),
:mod:`lib.figures.fingertip` (FIG 5, a two-link finger on a table).

The figures of the dynamics chapters: :mod:`lib.figures.rnea_wrenches`
(chapter 3.2, the joint forces and torques of a planar 3R arm by the RNEA) and
:mod:`lib.figures.lagrange_terms` (chapter 3.3, the terms of the Lagrange
equations of a planar 2R arm) and :mod:`lib.figures.inertia_ellipse` (chapter
3.4, the mass a planar 2R arm's tip feels in each direction and the ellipse of
its mass matrix) and :mod:`lib.figures.floating_momentum` (chapter 3.5, a
free-floating planar robot whose base turns against its arm so that its
momentum stays zero).

This package re-exports the figures' functions, ``COLORS``, :data:`FIGURES`
and the page functions, so a chapter writes ``from lib import figures as cf``
and ``cf.ramp_data(...)``.
"""

from ._frame import COLORS, STATE_COLORS
from .ball_drop import ball_drop_data, ball_drop_describe, draw_ball_drop
from .cone2d import cone2d_data, cone2d_describe, draw_cone2d
from .fingertip import draw_fingertip, fingertip_data, fingertip_describe
from .floating_momentum import (draw_floating_momentum, floating_momentum_data,
                                floating_momentum_describe)
from .inertia_ellipse import draw_inertia_ellipse, inertia_ellipse_data, inertia_ellipse_describe
from .lagrange_terms import draw_lagrange_terms, lagrange_terms_data, lagrange_terms_describe
from .pyramid import draw_pyramid, pyramid_data, pyramid_describe
from .ramp import draw_ramp, ramp_data, ramp_describe
from .rnea_wrenches import draw_rnea_wrenches, rnea_wrenches_data, rnea_wrenches_describe
from . import ball_drop, cone2d, fingertip, lagrange_terms, pyramid, ramp, rnea_wrenches
from . import floating_momentum, inertia_ellipse
from .spec import FigureSpec

#: Every figure by name: its record (:class:`~lib.figures.spec.FigureSpec`). A
#: new figure is one module with ``FIGURE = FigureSpec(...)``, one JS file and one entry here.
FIGURES: dict[str, FigureSpec] = {spec.name: spec for spec in (
    ramp.FIGURE,
    cone2d.FIGURE,
    pyramid.FIGURE,
    ball_drop.FIGURE,
    fingertip.FIGURE,
    rnea_wrenches.FIGURE,
    lagrange_terms.FIGURE,
    inertia_ellipse.FIGURE,
    floating_momentum.FIGURE,
)}

from .page import figure_spec, show_figure, static_figure  # noqa: E402  (uses FIGURES)

__all__ = [
    "COLORS",
    "STATE_COLORS",
    "FIGURES",
    "figure_spec",
    "static_figure",
    "show_figure",
    "ramp_data",
    "ramp_describe",
    "draw_ramp",
    "cone2d_data",
    "cone2d_describe",
    "draw_cone2d",
    "pyramid_data",
    "pyramid_describe",
    "draw_pyramid",
    "ball_drop_data",
    "ball_drop_describe",
    "draw_ball_drop",
    "fingertip_data",
    "fingertip_describe",
    "draw_fingertip",
    "rnea_wrenches_data",
    "rnea_wrenches_describe",
    "draw_rnea_wrenches",
    "lagrange_terms_data",
    "lagrange_terms_describe",
    "draw_lagrange_terms",
    "inertia_ellipse_data",
    "inertia_ellipse_describe",
    "draw_inertia_ellipse",
    "floating_momentum_data",
    "floating_momentum_describe",
    "draw_floating_momentum",
]
