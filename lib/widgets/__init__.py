"""Interactive figures (ipywidgets) of the book's lessons.

Each figure is a thin layer over pure :mod:`lib` routines: a pure ``*_data``
function turns the control values into plain data, a pure ``draw_*``
function turns that data into a matplotlib figure (the same function draws the
static picture in the book), and a builder wires both to ipywidgets controls.
"""

from .contact_friction import (
    InteractiveFigure,
    ball_drop_data,
    ball_drop_widget,
    cone2d_data,
    cone2d_widget,
    draw_ball_drop,
    draw_cone2d,
    draw_fingertip,
    draw_pyramid,
    draw_ramp,
    fingertip_data,
    fingertip_widget,
    pyramid_data,
    pyramid_widget,
    ramp_data,
    ramp_widget,
)

__all__ = [
    "InteractiveFigure",
    "ramp_data",
    "draw_ramp",
    "ramp_widget",
    "cone2d_data",
    "draw_cone2d",
    "cone2d_widget",
    "pyramid_data",
    "draw_pyramid",
    "pyramid_widget",
    "ball_drop_data",
    "draw_ball_drop",
    "ball_drop_widget",
    "fingertip_data",
    "draw_fingertip",
    "fingertip_widget",
]
