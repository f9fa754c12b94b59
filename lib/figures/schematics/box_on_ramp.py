"""Schematic of the box on the ramp.

Every point is computed by :mod:`lib.models.box_on_ramp` (the corner
positions the simulations use), mapped from the ramp frame to the page by a
rotation through the inclination, so a changed width, height, angle or pose
changes the drawing.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..._validation import as_array, instance_of
from ...models import box_on_ramp as model
from . import LINK_WIDTH, STYLE, THIN_WIDTH, draw_ground

__all__ = ["ramp_to_page", "draw_box_on_ramp"]


def ramp_to_page(box: model.BoxOnRamp, points: ArrayLike) -> np.ndarray:
    """Map ramp-frame points (m) to the page: rotate by ``alpha`` about the ramp's origin.

    Explained in :ref:`sec-cs-scene`.

    Examples
    --------
    >>> box = model.box_on_ramp(0.2, 0.4, 1.0, np.pi / 2 - 1e-9, 0.4)
    >>> np.round(ramp_to_page(box, [[1.0, 0.0]]), 6) + 0.0
    array([[0., 1.]])
    """
    instance_of(box, model.BoxOnRamp, "box")
    p = as_array(np.atleast_2d(points) if np.ndim(points) == 1 else points, "points", (None, 2))
    c, s = math.cos(box.alpha), math.sin(box.alpha)
    return p @ np.array([[c, s], [-s, c]])


def draw_box_on_ramp(box: model.BoxOnRamp, q: ArrayLike | None = None, ax: Any = None, *,
                     ramp_length: float | None = None, title: str | None = None) -> Any:
    """Draw the ramp, the box in pose ``q``, its corners, gravity and the ramp frame.

    The box outline joins the four corners of
    :func:`lib.models.box_on_ramp.corner_positions`; the two bottom corners
    (the contacts of the simulations) are marked, and the ramp frame's ``x``
    (up the slope) and ``y`` (normal) axes start at the ramp-frame origin.
    Explained in :ref:`sec-cs-scene`.

    Parameters
    ----------
    box : BoxOnRamp
    q : array_like, shape (3,), optional
        Pose ``(theta, x, y)`` in the ramp frame (default: resting upright at
        ``x = 0``).
    ax : matplotlib.axes.Axes, optional
        Axes to draw into; a new figure when omitted.
    ramp_length : float, optional
        Length of the drawn ramp, m (default six box heights).
    title : str, optional
        Axes title.

    Returns
    -------
    matplotlib.axes.Axes
        Its artists carry ``gid`` values: ``"box"`` (a closed line through
        the four corners, page coordinates), ``"contacts"`` (the two bottom
        corners), ``"ramp"`` (the ramp surface) and ``"com"``.

    Examples
    --------
    >>> box = model.box_on_ramp(0.2, 0.4, 1.0, 0.0, 0.4)
    >>> ax = draw_box_on_ramp(box)
    >>> outline = next(a for a in ax.lines if a.get_gid() == "box")
    >>> np.round(outline.get_xydata()[:2], 6) + 0.0
    array([[-0.1,  0. ],
           [ 0.1,  0. ]])
    """
    import matplotlib.patches as mpatches
    import matplotlib.pyplot as plt

    pose = model.resting_state(box) if q is None else np.asarray(q, dtype=float)
    corners = model.corner_positions(box, pose)
    if ax is None:
        _, ax = plt.subplots(figsize=(5.0, 3.2), layout="constrained")
    length = 6.0 * box.height if ramp_length is None else float(ramp_length)
    a, b = -0.5 * length, 0.5 * length
    ramp = ramp_to_page(box, [[a, 0.0], [b, 0.0]])
    base_y = ramp[0, 1] if box.alpha > 0 else -0.02 * length
    wedge = np.vstack([ramp, [[ramp[1, 0], base_y], [ramp[0, 0], base_y]]])
    ax.add_patch(mpatches.Polygon(wedge, closed=True, facecolor="0.92",
                                  edgecolor="none", zorder=0))
    ax.plot(ramp[:, 0], ramp[:, 1], color=STYLE["ground"], lw=1.5 * THIN_WIDTH,
            gid="ramp", zorder=1)
    draw_ground(ax, ramp[0, 0] - 0.05 * length, ramp[1, 0] + 0.05 * length, base_y)
    page = ramp_to_page(box, corners)
    outline = np.vstack([page, page[:1]])
    ax.fill(page[:, 0], page[:, 1], color=STYLE["link"], alpha=0.15, zorder=2)
    ax.plot(outline[:, 0], outline[:, 1], color=STYLE["link"], lw=LINK_WIDTH / 1.5,
            gid="box", zorder=3)
    ax.plot(page[:2, 0], page[:2, 1], "o", color=STYLE["force"], ms=6, gid="contacts",
            zorder=4)
    com = ramp_to_page(box, pose[1:])[0]
    ax.plot([com[0]], [com[1]], "o", color=STYLE["annotation"], ms=5, gid="com", zorder=4)
    arrow = dict(arrowstyle="-|>", lw=THIN_WIDTH, mutation_scale=10)
    g_len = 0.6 * box.height
    ax.annotate("", xy=(com[0], com[1] - g_len), xytext=tuple(com),
                arrowprops=dict(arrow, color=STYLE["annotation"]))
    ax.text(com[0] - 0.02 * length, com[1] - g_len, "$mg$", ha="right", va="center",
            color=STYLE["annotation"])
    origin = ramp_to_page(box, [[a + 0.15 * length, 0.0]])[0]
    for axis, name in (([1.0, 0.0], "$x$"), ([0.0, 1.0], "$y$")):
        tip = origin + 0.12 * length * ramp_to_page(box, [axis])[0]
        ax.annotate("", xy=tuple(tip), xytext=tuple(origin),
                    arrowprops=dict(arrow, color=STYLE["force"]))
        ax.text(tip[0], tip[1], name, color=STYLE["force"], ha="left", va="bottom")
    if box.alpha > 0:
        arc = mpatches.Arc((ramp[0, 0], base_y), 0.5 * length,
                           0.5 * length, theta1=0.0, theta2=math.degrees(box.alpha),
                           color=STYLE["annotation"], lw=THIN_WIDTH)
        ax.add_patch(arc)
        mid = 0.5 * box.alpha
        ax.text(ramp[0, 0] + 0.3 * length * math.cos(mid),
                base_y + 0.3 * length * math.sin(mid), r"$\alpha$",
                color=STYLE["annotation"], va="center")
    ax.set_aspect("equal")
    ax.set_axis_off()
    if title:
        ax.set_title(title, fontsize=10)
    return ax
