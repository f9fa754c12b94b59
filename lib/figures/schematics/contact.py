"""Schematics of chapter 3.12's contact examples: the box on its corners and the 2R arm at a wall.

Every point is computed by the routines the chapter simulates with
(:func:`lib.models.box_on_corners.box_on_corners`, :func:`lib.models.planar_2r_arm.planar_2r_arm`,
:func:`lib.contact_lcp.friction_directions` and
:func:`lib.models.planar_chain.planar_chain_tip`), so a changed dimension, offset or
posture changes the drawing. Lines carry a ``gid`` (``"box"``, ``"corners"``,
``"com"``, ``"normal-k"``, ``"friction-k-i"``, ``"arm"``, ``"wall"``,
``"wall-normal"``, ``"wall-tangent"``) so that tests can read their data.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from ..._validation import as_array, as_vector, one_of
from ...contact_lcp import friction_directions
from ...models.box_on_corners import box_on_corners
from ...models.planar_2r_arm import planar_2r_arm
from ...models.planar_chain import planar_chain_tip
from . import JOINT_SIZE, LINK_WIDTH, STYLE, THIN_WIDTH, draw_ground, draw_joint

__all__ = ["box_corner_points", "draw_box_on_corners", "arm_points", "draw_arm_at_wall"]


def box_corner_points(half_extents: ArrayLike, com_offset: ArrayLike = (0.0, 0.0)
                      ) -> tuple[np.ndarray, np.ndarray]:
    """Bottom corners and centre of mass of the box in floor coordinates, m.

    The corners are those of :func:`lib.models.box_on_corners.box_on_corners` (relative
    to the centre of mass), moved so that the floor is ``z = 0`` and the box
    centre is above the origin. Explained in :ref:`sec-ci-box`.

    Returns
    -------
    corners : numpy.ndarray, shape (4, 3)
        In the order (+a, +b), (-a, +b), (-a, -b), (+a, -b).
    com : numpy.ndarray, shape (3,)

    Examples
    --------
    >>> corners, com = box_corner_points([0.2, 0.1, 0.05], [0.05, 0.02])
    >>> corners[0].round(6).tolist(), com.round(6).tolist()
    ([0.2, 0.1, 0.0], [0.05, 0.02, 0.05])
    """
    _, _, rel = box_on_corners(1.0, half_extents, com_offset)
    half = np.asarray(half_extents, dtype=float)
    off = np.asarray(com_offset, dtype=float)
    com = np.array([off[0], off[1], half[2]])
    return rel + com, com


def draw_box_on_corners(half_extents: ArrayLike, com_offset: ArrayLike = (0.0, 0.0), *,
                        mu: float = 0.5, n_d: int = 4, axes: Any = None) -> Any:
    """Side view (x-z) and top view (x-y) of the box on its four bottom corners.

    Side view: the box outline, the contact corners, the centre of mass and
    the contact normals (up, along ``e_z``). Top view: the footprint, the
    centre of mass and, at each corner, the ``n_d`` friction directions of
    :func:`lib.contact_lcp.friction_directions` (the directions of the
    inscribed pyramid's vertices). Explained in :ref:`sec-ci-box`.

    Parameters
    ----------
    half_extents : array_like, shape (3,)
        Half edge lengths ``(a, b, c)``, m.
    com_offset : array_like, shape (2,), optional
        Horizontal offset of the centre of mass from the box centre, m.
    mu : float, optional
        Friction coefficient, shown in the top view's title.
    n_d : int, optional
        Number of friction directions.
    axes : sequence of two matplotlib Axes, optional
        Side and top axes; a new figure when omitted.

    Returns
    -------
    tuple of matplotlib.axes.Axes
        ``(side, top)``.
    """
    import matplotlib.pyplot as plt

    if axes is None:
        _, axes = plt.subplots(1, 2, figsize=(8.4, 3.2))
    side, top = axes
    corners, com = box_corner_points(half_extents, com_offset)
    a, b, c = np.asarray(half_extents, dtype=float)
    arrow = 0.3 * a                     # length of the normal arrows (side view)
    f_len = 0.35 * min(a, b)            # length of the friction arrows (top view)
    # side view (x, z)
    draw_ground(side, -1.3 * a, 1.3 * a, 0.0)
    outline = np.array([[-a, 0.0], [a, 0.0], [a, 2 * c], [-a, 2 * c], [-a, 0.0]])
    side.plot(outline[:, 0], outline[:, 1], color=STYLE["link"], lw=LINK_WIDTH, gid="box-side")
    side.plot(corners[:, 0], corners[:, 2], "o", color=STYLE["annotation"], ms=6,
              gid="corners-side")
    side.plot([com[0]], [com[2]], "x", color=STYLE["annotation"], ms=9, mew=2, gid="com-side")
    for k, p in enumerate(corners):
        side.plot([p[0], p[0]], [p[2], p[2] + arrow], color=STYLE["force"], lw=2 * THIN_WIDTH,
                  gid=f"normal-{k}")
        side.annotate("", (p[0], p[2] + arrow), (p[0], p[2] + 0.8 * arrow),
                      arrowprops=dict(arrowstyle="-|>", color=STYLE["force"]))
    side.text(com[0], com[2] + 0.35 * c, "centre of mass", ha="center", fontsize=8)
    side.set_title("side view: normals $N$", fontsize=9)
    side.set_xlabel("x (m)")
    side.set_ylabel("z (m)")
    # top view (x, y)
    foot = np.vstack([corners[:, :2], corners[:1, :2]])
    top.plot(foot[:, 0], foot[:, 1], color=STYLE["link"], lw=LINK_WIDTH, gid="box")
    top.plot(corners[:, 0], corners[:, 1], "o", color=STYLE["annotation"], ms=6, gid="corners")
    top.plot([com[0]], [com[1]], "x", color=STYLE["annotation"], ms=9, mew=2, gid="com")
    for k, p in enumerate(corners):
        for i, d in enumerate(friction_directions(n_d)):
            end = p[:2] + f_len * d
            top.plot([p[0], end[0]], [p[1], end[1]], color=STYLE["friction"],
                     lw=1.5 * THIN_WIDTH, gid=f"friction-{k}-{i}")
            top.annotate("", end, p[:2] + 0.7 * f_len * d,
                         arrowprops=dict(arrowstyle="-|>", color=STYLE["friction"]))
        top.text(p[0] - 0.5 * f_len * np.sign(p[0] - com[0]),
                 p[1] - 0.5 * f_len * np.sign(p[1] - com[1]),
                 f"({'+' if p[0] > com[0] else '−'}a, "
                 f"{'+' if p[1] > com[1] else '−'}b)", ha="center", va="center", fontsize=7)
    top.set_title(f"top view: friction directions $D$ ($n_d$ = {n_d}, $\\mu$ = {mu:g})",
                  fontsize=9)
    top.set_xlabel("x (m)")
    top.set_ylabel("y (m)")
    for ax in (side, top):
        ax.set_aspect("equal")
        ax.margins(0.12)
    return side, top


def arm_points(q: ArrayLike, lengths: ArrayLike = (0.5, 0.5)) -> np.ndarray:
    """Base, elbow and tip of the planar 2R arm, m (rows).

    The elbow is the tip of the one-link chain of
    :func:`lib.models.planar_chain.planar_chain_tip`, the tip that of
    :func:`lib.models.planar_2r_arm.planar_2r_arm`. Explained in :ref:`sec-ci-arm`.

    Examples
    --------
    >>> arm_points([0.0, np.pi / 2], [1.0, 0.5]).round(6) + 0.0
    array([[0. , 0. ],
           [1. , 0. ],
           [1. , 0.5]])
    """
    q_arr = as_vector(q, "q", 2)
    L = as_array(lengths, "lengths", (2,))
    elbow = planar_chain_tip(q_arr[:1], np.zeros(1), L[:1])[0]
    tip = planar_2r_arm(q_arr, L)[2]
    return np.vstack([np.zeros(2), elbow, tip])


def draw_arm_at_wall(q: ArrayLike, lengths: ArrayLike = (0.5, 0.5),
                     normal: str = "radial", *, ax: Any = None) -> Any:
    """The 2R arm with its tip touching a wall, the wall normal and the friction direction.

    ``normal="radial"`` puts the wall across the line from the base to the
    tip, beyond the tip (the normal points back towards the base);
    ``"tangential"`` turns the wall by 90 degrees, on the side the tip reaches
    when ``q1`` grows. These are the normals of :ref:`sec-ci-arm`. The normal and the wall's tangent (the friction direction)
    are drawn at the tip. Explained in :ref:`sec-ci-arm`.

    Parameters
    ----------
    q : array_like, shape (2,)
        Joint angles, rad.
    lengths : array_like, shape (2,)
        Link lengths, m.
    normal : {"radial", "tangential"}
    ax : matplotlib.axes.Axes, optional

    Returns
    -------
    matplotlib.axes.Axes
    """
    import matplotlib.pyplot as plt

    one_of(normal, "normal", ("radial", "tangential"))
    if ax is None:
        _, ax = plt.subplots(figsize=(4.2, 3.4))
    pts = arm_points(q, lengths)
    tip = pts[2]
    radial = tip / np.linalg.norm(tip)
    n = -radial if normal == "radial" else np.array([radial[1], -radial[0]])
    t = np.array([-n[1], n[0]])
    reach = float(np.sum(lengths))
    half_wall = 0.25 * reach
    wall = np.array([tip - half_wall * t, tip + half_wall * t])
    ax.plot(wall[:, 0], wall[:, 1], color=STYLE["ground"], lw=4 * THIN_WIDTH, gid="wall")
    # hatching behind the wall (on the side away from the arm)
    for s_ in np.linspace(-half_wall, half_wall, 9):
        p = tip + s_ * t
        ax.plot([p[0], p[0] - 0.05 * reach * (n[0] + t[0])],
                [p[1], p[1] - 0.05 * reach * (n[1] + t[1])], color=STYLE["ground"],
                lw=THIN_WIDTH)
    ax.plot(pts[:, 0], pts[:, 1], color=STYLE["link"], lw=LINK_WIDTH, gid="arm")
    draw_joint(ax, *pts[0], actuated=True)
    draw_joint(ax, *pts[1], actuated=True)
    ax.scatter([tip[0]], [tip[1]], s=JOINT_SIZE / 2, color=STYLE["annotation"], zorder=6)
    size = 0.22 * reach
    for vec, gid, colour, label in ((n, "wall-normal", STYLE["force"], "normal $N$"),
                                    (t, "wall-tangent", STYLE["friction"], "friction $D$")):
        end = tip + size * vec
        ax.plot([tip[0], end[0]], [tip[1], end[1]], color=colour, lw=2 * THIN_WIDTH, gid=gid)
        ax.annotate("", end, tip + 0.8 * size * vec,
                    arrowprops=dict(arrowstyle="-|>", color=colour))
        ax.text(*(end + 0.12 * reach * vec), label, color=colour, fontsize=8,
                ha="center", va="center",
                bbox=dict(facecolor="white", edgecolor="none", alpha=0.8, pad=1))
    ax.set_aspect("equal")
    ax.margins(0.25)
    ax.set_xlabel("x (m)")
    ax.set_ylabel("y (m)")
    ax.set_title(f"{normal} wall", fontsize=9)
    return ax
