"""Figures: the only part of ``lib`` that plots.

The algorithms (``lib/*.py``) and the worked-example models (:mod:`lib.models`)
compute; this package draws what they compute, and nothing outside it imports
matplotlib or a widget library (``tests/test_figures.py`` holds the rule).

The five figures of the lesson "Contact and friction", one module each:

- :mod:`lib.figures.ramp` (FIG 1, a block on a ramp),
- :mod:`lib.figures.cone2d` (FIG 2, the planar friction cone),
- :mod:`lib.figures.pyramid` (FIG 3, the 3D cone and its pyramids),
- :mod:`lib.figures.ball_drop` (FIG 4, penalty versus impulse contact),
- :mod:`lib.figures.fingertip` (FIG 5, a two-link finger on a table).

Each holds a pure ``*_data`` function (control values in, plain data out, from
the tested routines of ``lib``; its keyword defaults are the figure's starting
state), ``*_describe`` (the state label and the readout rows) and ``draw_*``
(the static matplotlib picture of the book page). They share the colours and
drawing helpers of ``_frame``. The live figures students move are anywidgets
(:mod:`lib.figures.live`, front end in ``lib/figures/js/``): they start from the
``*_data`` defaults and print the ``*_describe`` rows.

:mod:`lib.figures.schematics` draws the chapters' models from their geometry.

This package re-exports the five figures' functions and ``COLORS``, so a
chapter writes ``from lib import figures as cf`` and ``cf.ramp_data(...)``.
"""

from ._frame import COLORS, STATE_COLORS
from .ball_drop import ball_drop_data, ball_drop_describe, draw_ball_drop
from .cone2d import cone2d_data, cone2d_describe, draw_cone2d
from .fingertip import draw_fingertip, fingertip_data, fingertip_describe
from .pyramid import draw_pyramid, pyramid_data, pyramid_describe
from .ramp import draw_ramp, ramp_data, ramp_describe

__all__ = [
    "COLORS",
    "STATE_COLORS",
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
]
