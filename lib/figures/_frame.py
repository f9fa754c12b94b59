"""Shared frame of the figures: the palette and the drawing helpers.

Every figure module (:data:`lib.figures.FIGURES`) draws with these helpers on
pyplot-free matplotlib figures. Every figure sets its axis limits itself, so
the helpers add artists without the data-limit bookkeeping of ``ax.plot`` and
``ax.fill``. The palette (:data:`COLORS`, :data:`STATE_COLORS`) is defined
here only: :func:`lib.figures.live.module_source` writes it into the ES module
of every live figure, ahead of ``js/frame.js``.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from matplotlib.collections import PolyCollection
from matplotlib.figure import Figure, FigureBase
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch

__all__ = ["COLORS", "STATE_COLORS", "new_axes", "arrow", "planar_arm",
           "label_beside", "line", "fill", "fan", "nice_ceil",
           "stacked_bars", "vector_text", "fit_equal", "gravity_mark"]

#: One colour per physical quantity, shared by every figure, static and live.
COLORS = {
    "gravity": "#4d4d4d",
    "normal": "#1f6fb4",
    "friction": "#d62728",
    "contact": "#7b3fa0",
    "cone": "#17becf",
    "push": "#f59e0b",
    "supplied": "#2ca02c",
    "inscribed": "#7b3fa0",
    "circumscribed": "#f59e0b",
    "penalty": "#7b3fa0",
    "impulse": "#1f6fb4",
    "rigid": "#2ca02c",
    "joint1": "#d62728",
    "joint2": "#2ca02c",
    "joint3": "#9467bd",
    "motion": "#17becf",
    "inertial": "#1f6fb4",
    "centrifugal": "#f59e0b",
    "coriolis": "#d62728",
    "feasible": "#2ca02c",
    "ground": "#8c6d46",
}

#: The colour of each state label ("stick", "slip", ...).
STATE_COLORS = {
    "stick": "#2ca02c",
    "slip": "#d62728",
    "lift-off": "#f59e0b",
    "separate": "#f59e0b",
    "stable": "#2ca02c",
    "energy gain": "#f59e0b",
    "unstable": "#d62728",
    "rest": "#2ca02c",
    "bouncing": "#1f6fb4",
    "feasible": "#2ca02c",
    "infeasible": "#d62728",
    "error": "#d62728",
    "static": "#4d4d4d",
    "moving": "#1f6fb4",
    "singular": "#f59e0b",
}


def new_axes(ax: Any, figsize: tuple[float, float], ncols: int = 1) -> tuple[Figure, Any]:
    """Return ``(figure, ax)``: the given axes, new ones on a given (sub)figure, or on a new pyplot-free Figure.

    A (sub)figure gets ``ncols`` axes side by side (the layout of
    :func:`lib.figures.page.static_figure`); the figure returned is the one
    that holds them (the top-level figure for a subfigure).
    """
    if isinstance(ax, FigureBase):
        axes = ax.subplots(1, ncols)
        return ax.figure, axes
    if ax is not None:
        first = ax[0] if isinstance(ax, (list, tuple, np.ndarray)) else ax
        return first.figure, ax
    fig = Figure(figsize=figsize, layout="constrained")
    axes = fig.subplots(1, ncols)
    return fig, axes


def arrow(ax: Any, start: Any, vector: Any, color: str, width: float = 2.0, label: str | None = None,
          zorder: int = 4) -> None:
    """Draw ``vector`` as an arrow from ``start`` (nothing when it is shorter than 1e-9), labelled at its tip."""
    start = np.asarray(start, dtype=float)
    end = start + np.asarray(vector, dtype=float)
    if np.linalg.norm(end - start) < 1e-9:
        return
    # The arrow patch alone: what ``ax.annotate("", ...)`` draws, without the
    # annotation text machinery and the data-limit bookkeeping.
    ax.add_artist(FancyArrowPatch(tuple(start), tuple(end), arrowstyle="-|>", color=color, lw=width, shrinkA=0,
                                  shrinkB=0, mutation_scale=14, zorder=zorder))
    if label:
        ax.text(*(end + 0.08 * (end - start) / max(np.linalg.norm(end - start), 1e-9)), label,
                color=color, fontsize=11, ha="center", va="center", zorder=zorder + 1)


def label_beside(ax: Any, start: Any, vector: Any, label: str, color: str, side: float = 1.0) -> None:
    """Label an arrow at its middle, offset perpendicular to it (``side`` +1: left of the arrow)."""
    start = np.asarray(start, dtype=float)
    vector = np.asarray(vector, dtype=float)
    length = float(np.linalg.norm(vector))
    if length < 1e-9:
        return
    normal = side * np.array([-vector[1], vector[0]]) / length
    where = start + 0.55 * vector + 0.5 * normal
    ax.text(*where, label, color=color, fontsize=10, ha="center", va="center", zorder=6,
            bbox=dict(boxstyle="round,pad=0.1", fc="white", ec="none", alpha=0.7))


def line(ax: Any, x: Any, y: Any, **kwargs: Any) -> Line2D:
    """One line (``ax.plot(x, y, **kwargs)`` without format strings) that leaves the axis limits alone.

    Every figure sets its limits explicitly; skipping ``plot``'s argument
    parsing and data-limit bookkeeping keeps the drawing cheap.
    """
    artist = Line2D(np.atleast_1d(np.asarray(x, dtype=float)), np.atleast_1d(np.asarray(y, dtype=float)), **kwargs)
    ax.add_artist(artist)
    return artist


def fill(ax: Any, x: Any, y: Any, color: str, alpha: float = 1.0, lw: float = 0.0, ec: str | None = None,
         zorder: float = 1, label: str | None = None) -> None:
    """A filled polygon that leaves the axis limits alone (cheaper than ``ax.fill``).

    Every figure sets its limits explicitly, so the data-limit bookkeeping of
    ``ax.fill`` (a Bezier extent per patch) would be wasted work.
    """
    poly = PolyCollection([np.column_stack([x, y])], facecolors=[color], alpha=alpha, linewidths=[lw],
                          edgecolors=[ec if ec is not None else color], zorder=zorder, label=label)
    ax.add_collection(poly, autolim=False)


def fan(center: Any, axis_angle: float, half_angle: float, radius: float, n: int = 40) -> np.ndarray:
    """Polygon of a circular sector (the friction cone in a plane)."""
    angles = np.linspace(axis_angle - half_angle, axis_angle + half_angle, n)
    arc = np.column_stack([np.cos(angles), np.sin(angles)]) * radius + np.asarray(center)
    return np.vstack([center, arc, center])


def nice_ceil(value: float) -> float:
    """Round up to 1, 1.5, 2, 3, 4, 5, 6 or 8 times a power of ten (stable axis limits).

    Examples
    --------
    >>> nice_ceil(0.7), nice_ceil(3.2), nice_ceil(0.0)
    (0.8, 4.0, 1.0)
    """
    if value <= 0.0 or not math.isfinite(value):
        return 1.0
    power = 10.0 ** math.floor(math.log10(value))
    for step in (1.0, 1.5, 2.0, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0):
        if step * power >= value * (1.0 - 1e-12):
            return step * power
    return 10.0 * power


def stacked_bars(ax: Any, parts: Any, colors: Any, labels: Any, total: Any,
                 width: float = 0.6) -> float:
    """Signed stacked bars, one per joint: positive parts stacked up, negative down.

    ``parts`` is a sequence of arrays (one entry per joint), each drawn in
    its colour from zero outwards; ``total`` (their sum) is marked by a
    black line. The axis gets the ticks "joint 1", ..., a zero line, a
    legend under the axis and symmetric limits holding every bar
    (:func:`nice_ceil`); the limit is returned (``barTop`` and
    ``stackedBars`` of ``js/frame.js`` draw the same).
    """
    total = np.asarray(total, dtype=float)
    x = np.arange(1, total.size + 1, dtype=float)
    up, down = np.zeros(total.size), np.zeros(total.size)
    for part, color, label in zip(parts, colors, labels):
        for i, value in enumerate(np.asarray(part, dtype=float)):
            if value >= 0.0:
                low, high = up[i], up[i] + value
                up[i] = high
            else:
                low, high = down[i] + value, down[i]
                down[i] = low
            left, right = x[i] - width / 2, x[i] + width / 2
            fill(ax, [left, right, right, left], [low, low, high, high], color,
                 alpha=0.85, lw=0.6, ec="#333333", zorder=2,
                 label=label if i == 0 else None)
    for i in range(total.size):
        line(ax, [x[i] - 0.6 * width, x[i] + 0.6 * width], [total[i], total[i]],
             color="#000000", lw=2.5, zorder=4, label=r"sum $\tau$" if i == 0 else None)
    reach = max(float(np.max(up)), float(-np.min(down)), float(np.max(np.abs(total))))
    top = nice_ceil(1.1 * reach)
    ax.axhline(0.0, color="#555555", lw=0.8)
    ax.set_xlim(0.4, total.size + 0.6)
    ax.set_ylim(-top, top)
    ax.set_xticks(x, [f"joint {i + 1}" for i in range(total.size)])
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=3, fontsize=8,
              frameon=False)
    return top


def vector_text(values: Any, digits: int) -> str:
    """``"(a, b, ...)"`` with ``digits`` decimals; what rounds to zero prints as 0.

    Round-off (``-1e-16``) would otherwise print ``-0.00`` in one language
    and ``0.00`` in the other (``vectorText`` of ``js/frame.js``).

    Examples
    --------
    >>> vector_text([1.005, -1e-16, -2.5], 2)
    '(1.00, 0.00, -2.50)'
    """
    shown = [0.0 if abs(x) < 0.5 * 10.0**-digits else float(x) for x in values]
    return "(" + ", ".join(f"{x:.{digits}f}" for x in shown) + ")"


def fit_equal(ax: Any, points: Any, pad: float) -> None:
    """Square, equal-aspect limits around ``points`` (rows x, y), ``pad`` beyond them.

    For a static picture (the live panels keep one frame for every setting).
    """
    pts = np.asarray(points, dtype=float).reshape(-1, 2)
    low, high = pts.min(axis=0), pts.max(axis=0)
    center, half = 0.5 * (low + high), 0.5 * float(np.max(high - low)) + pad
    ax.set_xlim(center[0] - half, center[0] + half)
    ax.set_ylim(center[1] - half, center[1] + half)
    ax.set_aspect("equal")


def planar_arm(ax, points, reach: float, joint_keys) -> None:
    """A planar arm on ``ax``: its base, links through ``points`` (joints, then the tip), each
    joint a dot in ``COLORS[key]`` for ``key`` in ``joint_keys``, and the tip a small dot."""
    b = 0.08 * reach
    fill(ax, [-b, b, b, -b], [0.0, 0.0, -0.75 * b, -0.75 * b], COLORS["ground"], alpha=0.35)
    line(ax, points[:, 0], points[:, 1], color="#555555", lw=5, solid_capstyle="round",
         zorder=2)
    for point, key in zip(points, joint_keys):
        line(ax, *point, marker="o", ls="none", color=COLORS[key], ms=9, zorder=3)
    line(ax, *points[-1], marker="o", ls="none", color="#333333", ms=4, zorder=3)


def gravity_mark(ax: Any) -> None:
    """A downward arrow labelled g in the upper right corner of ``ax``."""
    ax.annotate("", xy=(0.93, 0.74), xytext=(0.93, 0.94), xycoords="axes fraction",
                arrowprops=dict(arrowstyle="-|>", color=COLORS["gravity"], lw=1.6))
    ax.text(0.93, 0.69, "$g$", transform=ax.transAxes, color=COLORS["gravity"],
            fontsize=11, ha="center", va="center")
