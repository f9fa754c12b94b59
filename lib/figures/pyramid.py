"""FIG 3: the 3D friction cone and its pyramids with n_d edges.

``pyramid_data`` turns the control values into plain data (computed by the
tested routines of ``lib``), ``pyramid_describe`` gives the state label and the
readout rows, and ``draw_pyramid`` draws the data on a pyplot-free matplotlib
figure (the book's static picture). The live figure (:mod:`lib.figures.live`)
starts from the defaults of ``pyramid_data`` and prints the rows of
``pyramid_describe``.

Explained in :ref:`sec-cf-pyramid`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from .. import friction
from .._validation import instance_of, positive_int, real_number
from . import _frame as fr
from .spec import FigureSpec, control

__all__ = ["pyramid_data", "pyramid_describe", "draw_pyramid"]


def pyramid_data(k: int = 4, mu: float = 0.8, phi_deg: float = 45.0, azimuth_deg: float = 30.0,
                 n_directions: int = 7200) -> dict:
    """Data of the pyramid figure: capacities along ``phi`` and worst errors.

    Cross-section polygons are at ``f_n = 1``. The sampled errors use
    :func:`lib.friction.pyramid_sampled_errors` over ``n_directions``.
    Explained in :ref:`sec-cf-pyramid`.

    Examples
    --------
    >>> d = pyramid_data(k=4, mu=1.0, phi_deg=45.0)
    >>> round(d["outer"], 4), round(d["inner"], 4), round(d["over_closed"], 4)
    (1.4142, 0.7071, 0.4142)
    """
    k, n_directions = positive_int(k, "k"), positive_int(n_directions, "n_directions")
    phi_deg, azimuth_deg = real_number(phi_deg, "phi_deg"), real_number(azimuth_deg, "azimuth_deg")
    phi = math.radians(phi_deg)
    cone, inner, outer = friction.pyramid_capacity(phi, mu, k)
    under, over = friction.pyramid_worst_errors(k)
    under_s, over_s = friction.pyramid_sampled_errors(k, n_directions)
    theta = 2.0 * np.pi * np.arange(k) / k
    circle = np.linspace(0.0, 2.0 * np.pi, 121)
    return {
        "k": k, "mu": float(mu), "phi_deg": float(phi_deg), "azimuth_deg": float(azimuth_deg),
        "cone": float(cone), "inner": float(inner), "outer": float(outer),
        "under_closed": under, "over_closed": over, "under_sampled": under_s, "over_sampled": over_s,
        "n_directions": int(n_directions),
        "circle": mu * np.column_stack([np.cos(circle), np.sin(circle)]),
        "inscribed": mu * np.column_stack([np.cos(theta), np.sin(theta)]),
        "circumscribed": mu / math.cos(math.pi / k) * np.column_stack([np.cos(theta + math.pi / k),
                                                                      np.sin(theta + math.pi / k)]),
    }


def pyramid_describe(data: dict) -> tuple[str, str, list[tuple[str, str]]]:
    """State label and readout rows of the pyramid figure.

    Explained in :ref:`sec-cf-pyramid`.

    Returns
    -------
    text, key, rows : str, str, list of (str, str)
        The label, its colour key and the readout table.

    Examples
    --------
    >>> pyramid_describe(pyramid_data(k=4))[0]
    'n_d = 4: worst error 41.4 %'
    """
    instance_of(data, dict, "data")
    rows = [
        ("capacity along phi: cone", f"{data['cone']:.3f} f_n"),
        ("inscribed / circumscribed", f"{data['inner']:.3f} / {data['outer']:.3f} f_n"),
        ("worst underestimate 1 - cos(pi/n_d)", f"{100 * data['under_closed']:.2f} %"),
        ("worst overestimate 1/cos(pi/n_d) - 1", f"{100 * data['over_closed']:.2f} %"),
        (f"sampled over {data['n_directions']} directions",
         f"{100 * data['under_sampled']:.2f} % / {100 * data['over_sampled']:.2f} %"),
    ]
    worst = max(data["under_closed"], data["over_closed"])
    return f"n_d = {data['k']}: worst error {100 * worst:.1f} %", "stable" if worst < 0.05 else "slip", rows


def _project(points: np.ndarray, azimuth: float, elevation: float = math.radians(25.0)) -> np.ndarray:
    """Oblique view of 3D points ``(x, y, z)``: rotate about z, tilt toward the viewer."""
    c, s = math.cos(azimuth), math.sin(azimuth)
    x = c * points[:, 0] - s * points[:, 1]
    y = s * points[:, 0] + c * points[:, 1]
    return np.column_stack([x, points[:, 2] * math.cos(elevation) + y * math.sin(elevation)])


def draw_pyramid(data: dict, ax: Any = None) -> Figure:
    """Draw the cone with both pyramids in 3D (left) and their cross-section (right).

    ``ax`` is a pair of axes (a new pyplot-free figure when omitted, or new axes on a given
    matplotlib (sub)figure). Both
    views are sized for the circumscribed pyramid; the titles give ``k`` and
    the worst errors.
    Explained in :ref:`sec-cf-pyramid`.

    Returns
    -------
    matplotlib.figure.Figure
        The figure holding the axes.

    Examples
    --------
    >>> len(draw_pyramid(pyramid_data(k=6)).axes)
    2
    """
    instance_of(data, dict, "data")
    fig, axes = fr.new_axes(ax, (8.4, 4.0), ncols=2)
    ax3, ax2 = axes
    az = math.radians(data["azimuth_deg"])
    mu = data["mu"]

    def lift(xy: np.ndarray) -> np.ndarray:
        return np.column_stack([xy, np.ones(len(xy))])

    rim = _project(lift(data["circle"]), az)
    fr.fill(ax3, rim[:, 0], rim[:, 1], fr.COLORS["cone"], alpha=0.18)
    fr.line(ax3, rim[:, 0], rim[:, 1], color=fr.COLORS["cone"], lw=1.5)
    left, right = int(np.argmin(rim[:, 0])), int(np.argmax(rim[:, 0]))
    for i in (left, right):
        fr.line(ax3, [0, rim[i, 0]], [0, rim[i, 1]], color=fr.COLORS["cone"], lw=1.2)
    for key in ("inscribed", "circumscribed"):
        top = _project(lift(np.vstack([data[key], data[key][:1]])), az)
        fr.line(ax3, top[:, 0], top[:, 1], color=fr.COLORS[key], lw=1.4)
        # All edges from the apex as one line broken by NaNs (one artist to draw).
        edges = np.full((3 * (len(top) - 1), 2), np.nan)
        edges[0::3] = 0.0
        edges[1::3] = top[:-1]
        fr.line(ax3, edges[:, 0], edges[:, 1], color=fr.COLORS[key], lw=0.8, alpha=0.8)
    axis = _project(np.array([[0, 0, 0], [0, 0, 1.45]]), az)
    fr.arrow(ax3, axis[0], axis[1] - axis[0], fr.COLORS["normal"], label=r"$\hat n$")
    phi = math.radians(data["phi_deg"])
    ray = _project(np.array([[0, 0, 1], [1.6 * mu * math.cos(phi), 1.6 * mu * math.sin(phi), 1]]), az)
    fr.line(ax3, ray[:, 0], ray[:, 1], color="#333333", ls="--", lw=1)
    reach = fr.nice_ceil(1.1 * float(np.max(np.abs(data["circumscribed"]))))
    ax3.set_xlim(-1.1 * reach, 1.1 * reach)
    ax3.set_ylim(-0.7 * reach, 1.0 + 0.7 * reach)
    ax3.set_aspect("equal")
    ax3.axis("off")
    ax3.set_title(f"3D cone and n_d = {data['k']} pyramids", fontsize=10)

    fr.fill(ax2, data["circle"][:, 0], data["circle"][:, 1], fr.COLORS["cone"], alpha=0.18)
    fr.line(ax2, data["circle"][:, 0], data["circle"][:, 1], color=fr.COLORS["cone"], lw=1.5, label="round cone")
    for key, label in (("inscribed", "inscribed"), ("circumscribed", "circumscribed")):
        closed = np.vstack([data[key], data[key][:1]])
        fr.line(ax2, closed[:, 0], closed[:, 1], color=fr.COLORS[key], lw=1.6, label=label)
    direction = np.array([math.cos(phi), math.sin(phi)])
    fr.line(ax2, [0, 1.6 * mu * direction[0]], [0, 1.6 * mu * direction[1]], color="#333333", ls="--", lw=1)
    for value, key in ((data["cone"], "cone"), (data["inner"], "inscribed"), (data["outer"], "circumscribed")):
        point = value * direction
        fr.line(ax2, point[0], point[1], marker="o", ls="none", color=fr.COLORS[key], ms=6, mec="k", mew=0.5, zorder=5)
    lim = fr.nice_ceil(1.15 * max(data["outer"], float(np.max(np.abs(data["circumscribed"])))))
    ax2.set_xlim(-lim, lim)
    ax2.set_ylim(-lim, lim)
    ax2.set_aspect("equal")
    ax2.set_xlabel("$f_x / f_n$")
    ax2.set_ylabel("$f_y / f_n$")
    ax2.legend(loc="lower left", fontsize=7, framealpha=0.8)
    ax2.set_title(f"cross-section $f_n = 1$: errors -{100 * data['under_closed']:.1f} % / "
                  f"+{100 * data['over_closed']:.1f} %", fontsize=10)
    return fig


#: The figure's record: title, controls (sliders over ``pyramid_data``'s keywords) and constants.
FIGURE = FigureSpec(
    name="pyramid", title="The 3D friction cone and its pyramids with n_d edges",
    controls=(
        control("k", "pyramid edges n_d", 3, 32, 1, kind="int"),
        control("mu", "friction coefficient mu", 0.0, 1.5, 0.01),
        control("phi_deg", "direction phi", 0.0, 360.0, 0.5, "deg", digits=1),
        control("azimuth_deg", "view azimuth", 0.0, 360.0, 1.0, "deg", digits=0),
    ),
    data=pyramid_data, describe=pyramid_describe, draw=draw_pyramid, constants=("n_directions",),
    size=(8.4, 4.0), section="sec-cf-pyramid",
)
