"""Schematic of the two-link finger pressing on a table.

Every point is computed by :mod:`lib.models.fingertip` (the inverse and forward
kinematics the lesson's force analysis uses), so changing a link length, the
shoulder height or the fingertip position changes the drawing.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..._validation import nonnegative
from ...models import fingertip
from . import LINK_WIDTH, STYLE, THIN_WIDTH, draw_ground, draw_joint

__all__ = ["draw_fingertip_schematic"]


def draw_fingertip_schematic(x_tip: float = 0.3, elbow: str = "up", mu: float = 0.6,
                             l1: float = 0.5, l2: float = 0.5, base_height: float = 0.5,
                             ax: Any = None, *, cone_length: float | None = None) -> Any:
    """Draw the planar finger, its contact with the table and the friction cone.

    The joint angles come from :func:`lib.models.fingertip.two_link_ik` and the
    shoulder, elbow and fingertip positions from
    :func:`lib.models.fingertip.two_link_points`. The drawing shows the links, the
    two actuated joints, the contact point, the unit normal of the table
    (up, into the finger) and the friction cone of half-angle ``arctan(mu)``
    around it. Explained in :ref:`sec-cf-fingertip`.

    Parameters
    ----------
    x_tip : float, optional
        Fingertip position along the table, m (shoulder at ``x = 0``).
    elbow : {"up", "down"}, optional
        Which inverse-kinematics solution to draw.
    mu : float, optional
        Friction coefficient (>= 0), dimensionless.
    l1, l2 : float, optional
        Link lengths in m (> 0).
    base_height : float, optional
        Height of the shoulder above the table in m (> 0).
    ax : matplotlib.axes.Axes, optional
        Axes to draw into; a new figure when omitted.
    cone_length : float, optional
        Length of the drawn cone edges and normal in m (default: 40 % of
        ``base_height``).

    Returns
    -------
    matplotlib.axes.Axes
        The axes. Its artists carry ``gid`` values: ``"links"`` (a line
        through shoulder, elbow and fingertip), ``"contact"`` (the contact
        point), ``"normal"`` (a line from the contact point along the normal)
        and ``"cone"`` (a line along both cone edges through the contact
        point).

    Examples
    --------
    >>> ax = draw_fingertip_schematic(x_tip=0.5)
    >>> links = next(a for a in ax.lines if a.get_gid() == "links")
    >>> np.round(links.get_xydata(), 6) + 0.0
    array([[0. , 0.5],
           [0.5, 0.5],
           [0.5, 0. ]])
    """
    import matplotlib.pyplot as plt

    mu = nonnegative(mu, "mu")
    q = fingertip.two_link_ik(x_tip, elbow, l1, l2, base_height)
    pts = fingertip.two_link_points(q, l1, l2, base_height)
    shoulder, elbow_pt, tip = pts
    if ax is None:
        _, ax = plt.subplots(figsize=(5.0, 4.0), layout="constrained")
    size = l1 + l2
    length = 0.4 * base_height if cone_length is None else float(cone_length)

    left = min(pts[:, 0].min(), 0.0) - 0.3 * size
    right = max(pts[:, 0].max(), 0.0) + 0.25 * size
    draw_ground(ax, left, right, 0.0, depth=0.05 * size)
    # The shoulder's mount: a short hatched support above the joint.
    draw_ground(ax, shoulder[0] - 0.08 * size, shoulder[0] + 0.08 * size,
                shoulder[1] + 0.04 * size, below=False, depth=0.04 * size)
    ax.plot([shoulder[0], shoulder[0]], [shoulder[1], shoulder[1] + 0.04 * size],
            color=STYLE["ground"], lw=THIN_WIDTH)

    gamma = math.atan(mu)
    edges = np.array([tip + length * np.array([math.sin(s * gamma), math.cos(s * gamma)])
                      for s in (-1.0, 1.0)])
    ax.fill([edges[0, 0], tip[0], edges[1, 0]], [edges[0, 1], tip[1], edges[1, 1]],
            color=STYLE["friction"], alpha=0.18, lw=0, zorder=1)
    ax.plot([edges[0, 0], tip[0], edges[1, 0]], [edges[0, 1], tip[1], edges[1, 1]],
            color=STYLE["friction"], lw=THIN_WIDTH, ls="--", gid="cone", zorder=2)
    normal_end = tip + np.array([0.0, 1.15 * length])
    ax.plot([tip[0], normal_end[0]], [tip[1], normal_end[1]], color=STYLE["force"],
            lw=1.6, gid="normal", zorder=3)
    ax.annotate("", xy=normal_end, xytext=tip + np.array([0.0, length]),
                arrowprops=dict(arrowstyle="-|>", color=STYLE["force"], lw=1.6))
    ax.text(normal_end[0] - 0.02 * size, normal_end[1], r"$\hat n$",
            color=STYLE["force"], fontsize=11, va="center", ha="right")
    ax.text(edges[0, 0] - 0.02 * size, edges[0, 1],
            r"$\theta_\mu=\arctan\mu$", color=STYLE["friction"], fontsize=9,
            va="bottom", ha="right")

    ax.plot(pts[:, 0], pts[:, 1], color=STYLE["link"], lw=LINK_WIDTH,
            solid_capstyle="round", gid="links", zorder=4)
    draw_joint(ax, *shoulder, actuated=True)
    draw_joint(ax, *elbow_pt, actuated=True)
    ax.plot([tip[0]], [tip[1]], marker="o", ms=6, color=STYLE["annotation"],
            ls="none", gid="contact", zorder=6)

    offset = 0.05 * size
    for start, end, name in ((shoulder, elbow_pt, r"$l_1$"), (elbow_pt, tip, r"$l_2$")):
        mid = 0.5 * (start + end)
        direction = (end - start) / np.linalg.norm(end - start)
        side = np.array([-direction[1], direction[0]])
        # Away from the normal line through the fingertip (and up for a level link).
        away = np.sign(mid[0] - tip[0]) or 1.0
        if abs(direction[0]) > 0.7:
            side = side if side[1] > 0 else -side
        elif np.sign(side[0]) != away:
            side = -side
        ax.text(*(mid + offset * side), name, color=STYLE["link"], fontsize=11,
                ha="center", va="center")
    for point, neighbours, name in ((shoulder, (elbow_pt, shoulder + [0.0, 1.0]), r"shoulder, $\tau_1$"),
                                    (elbow_pt, (shoulder, tip), r"elbow, $\tau_2$")):
        away = -sum((n - point) / np.linalg.norm(n - point) for n in neighbours)
        away = away / np.linalg.norm(away) if np.linalg.norm(away) > 1e-9 else np.array([1.0, 0])
        if point[1] + 0.07 * size * away[1] < 0.04 * size:
            away = np.array([away[0], abs(away[1])])
        where = point + 0.07 * size * away
        ax.text(*where, name, color=STYLE["annotation"], fontsize=9, va="center",
                ha="left" if away[0] > 0.3 else ("right" if away[0] < -0.3 else "center"))
    ax.text(tip[0] - 0.03 * size, tip[1] - 0.09 * size, "contact", fontsize=9,
            color=STYLE["annotation"], ha="right")
    # Shoulder height as a dimension line, left of the shoulder.
    xd = min(pts[:, 0].min(), 0.0) - 0.15 * size
    ax.annotate("", xy=(xd, 0.0), xytext=(xd, shoulder[1]),
                arrowprops=dict(arrowstyle="<->", color=STYLE["annotation"], lw=THIN_WIDTH))
    ax.text(xd - 0.02 * size, 0.5 * shoulder[1], f"{shoulder[1]:g} m", ha="right",
            va="center", color=STYLE["annotation"], fontsize=9, rotation=90)

    top = max(pts[:, 1].max(), tip[1] + 1.15 * length) + 0.15 * size
    ax.set_xlim(left, right)
    ax.set_ylim(-0.08 * size, top)
    ax.set_aspect("equal")
    ax.set_xticks([])
    ax.set_yticks([])
    for spine in ax.spines.values():
        spine.set_visible(False)
    return ax
