"""FIG 2: the planar friction cone: stick, slip and separation.

``cone2d_data`` turns the control values into plain data (computed by the
tested routines of ``lib``), ``cone2d_describe`` gives the state label and the
readout rows, and ``draw_cone2d`` draws the data on a pyplot-free matplotlib
figure (the book's static picture). The live figure (:mod:`lib.figures.live`)
starts from the defaults of ``cone2d_data`` and prints the rows of
``cone2d_describe``.

Explained in :ref:`sec-cf-cone2d`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from .. import friction
from .._validation import instance_of
from . import _frame as fr
from .spec import FigureSpec, control

__all__ = ["cone2d_data", "cone2d_describe", "draw_cone2d"]


def cone2d_data(f_t: float = 1.0, f_n: float = 3.0, mu: float = 0.5) -> dict:
    """Data of the 2D cone figure: :func:`lib.friction.cone_state` of a demanded force.

    Explained in :ref:`sec-cf-cone2d`.

    Examples
    --------
    >>> d = cone2d_data(3.0, 4.0, 0.5)
    >>> d["state"], d["supplied"], d["remainder"]
    ('slip', (2.0, 4.0), (1.0, 0.0))
    """
    result = friction.cone_state(f_t, f_n, mu)
    return {
        "f_t": float(f_t), "f_n": float(f_n), "mu": float(mu), "state": result.state,
        "demand": result.demand, "supplied": result.supplied, "remainder": result.remainder,
        "angle_deg": math.degrees(result.angle), "friction_angle_deg": math.degrees(result.friction_angle),
    }


def cone2d_describe(data: dict) -> tuple[str, str, list[tuple[str, str]]]:
    """State label and readout rows of the 2D cone figure.

    Explained in :ref:`sec-cf-cone2d`.

    Returns
    -------
    text, key, rows : str, str, list of (str, str)
        The label, its colour key and the readout table.

    Examples
    --------
    >>> cone2d_describe(cone2d_data(1.0, -1.0, 0.5))[0]
    'SEPARATE'
    """
    instance_of(data, dict, "data")
    rows = [
        ("friction angle arctan(mu)", f"{data['friction_angle_deg']:.1f} deg"),
        ("angle of demand from normal", f"{data['angle_deg']:.1f} deg"),
        ("|f_t| / f_n", f"{abs(data['f_t']) / data['f_n']:.2f}" if data["f_n"] > 0 else "-"),
        ("supplied (f_t, f_n)", f"({data['supplied'][0]:.2f}, {data['supplied'][1]:.2f}) N"),
        ("unbalanced remainder", f"({data['remainder'][0]:.2f}, {data['remainder'][1]:.2f}) N"),
    ]
    return data["state"].upper(), data["state"], rows


def draw_cone2d(data: dict, ax: Any = None) -> Figure:
    """Draw the planar friction cone, the demanded force and the surface's answer.

    ``ax`` is one matplotlib axes (a new pyplot-free figure when omitted, or new axes on a given
    matplotlib (sub)figure). The
    title names ``mu``, the demanded force and the state.
    Explained in :ref:`sec-cf-cone2d`.

    Returns
    -------
    matplotlib.figure.Figure
        The figure holding ``ax``.

    Examples
    --------
    >>> draw_cone2d(cone2d_data(3.0, 4.0, 0.5)).axes[0].get_xlabel()
    '$f_t$ (N)'
    """
    instance_of(data, dict, "data")
    fig, ax = fr.new_axes(ax, (4.6, 4.2))
    gamma = math.atan(data["mu"])
    reach = 5.0
    ax.fill_between([-reach, reach], [-reach, -reach], [0, 0], color=fr.COLORS["friction"], alpha=0.08, lw=0)
    ax.text(-reach + 0.2, -2.3, "surface would have to pull", color=fr.COLORS["friction"], ha="left",
            va="bottom", fontsize=8)
    fr.line(ax, [-reach, reach], [0, 0], color=fr.COLORS["ground"], lw=2)
    fan = fr.fan((0.0, 0.0), math.pi / 2, gamma, 6.0)
    fr.fill(ax, fan[:, 0], fan[:, 1], fr.COLORS["cone"], alpha=0.22)
    for side in (-1, 1):
        fr.line(ax, [0, 6 * math.sin(side * gamma)], [0, 6 * math.cos(gamma)], color=fr.COLORS["cone"], ls="--", lw=1)
    arc = np.linspace(math.pi / 2 - gamma, math.pi / 2, 20)
    fr.line(ax, 1.2 * np.cos(arc), 1.2 * np.sin(arc), color=fr.COLORS["cone"], lw=1)
    # The angle's value outside the cone, right of its edge (clear of the arrows).
    ax.text(-reach + 0.2, reach - 0.3, f"half-angle {math.degrees(gamma):.0f} deg", color="#0e7c86",
            fontsize=8, ha="left", va="top")
    f_t, f_n = data["f_t"], data["f_n"]
    fr.line(ax, [f_t, f_t], [0, f_n], color=fr.COLORS["normal"], ls=":", lw=1)
    fr.line(ax, [0, f_t], [f_n, f_n], color=fr.COLORS["friction"], ls=":", lw=1)
    fr.arrow(ax, (0, 0), (f_t, f_n), fr.COLORS["push"], width=2.6)
    fr.label_beside(ax, (0, 0), (f_t, f_n), "$f$", fr.COLORS["push"], side=-1.0)
    if data["state"] == "slip":
        fr.arrow(ax, (0, 0), data["supplied"], fr.COLORS["supplied"], width=2.2)
        fr.label_beside(ax, (0, 0), data["supplied"], "supplied", fr.COLORS["supplied"], side=1.0)
        fr.arrow(ax, data["supplied"], data["remainder"], fr.COLORS["friction"], width=2.2)
    ax.set_title(rf"$\mu$ = {data['mu']:.2f}, $f$ = ({f_t:.1f}, {f_n:.1f}) N: {data['state'].upper()}",
                 color=fr.STATE_COLORS.get(data["state"], "k"), fontsize=10)
    ax.set_xlim(-reach, reach)
    ax.set_ylim(-2.5, reach)
    ax.set_aspect("equal")
    ax.set_xlabel("$f_t$ (N)")
    ax.set_ylabel("$f_n$ (N)")
    return fig


#: The figure's record: title, controls (sliders over ``cone2d_data``'s keywords).
FIGURE = FigureSpec(
    name="cone2d", title="The planar friction cone: stick, slip, separate",
    controls=(
        control("f_t", "tangential demand f_t", -4.5, 4.5, 0.05, "N"),
        control("f_n", "normal demand f_n", -2.0, 4.5, 0.05, "N"),
        control("mu", "friction coefficient mu", 0.0, 2.0, 0.01),
    ),
    data=cone2d_data, describe=cone2d_describe, draw=draw_cone2d, size=(4.6, 4.2), section="sec-cf-cone2d",
)
