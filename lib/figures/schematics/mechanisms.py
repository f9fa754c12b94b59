"""Schematics of the closed-chain models of chapter 3.11.

Every point is computed from the same :mod:`lib.models` routines the
chapter simulates (``fourbar_configuration``/``fourbar_joints``,
``fivebar_configuration``/``fivebar_joints``, ``planar_chain_tip``,
``stewart_geometry``/``stewart_wrench_matrix``), so a changed dimension
changes the drawing. Lengths are in metres, angles in radians.

Each drawing function returns the matplotlib Axes it drew on. The links are
``Line2D`` objects with a ``gid`` naming them (``"crank"``, ``"leg3"``, ...);
the joints are drawn with :func:`lib.figures.schematics.draw_joint`, one scatter
collection per joint, in the order of the model's joint list.
"""

from __future__ import annotations

from typing import Any, Sequence

import numpy as np
from numpy.typing import ArrayLike

from ..._validation import as_array, as_rotation, as_vector
from ...models import fivebar, fourbar, planar_chain
from ...models.planar_bodies import PinJoint
from . import LINK_WIDTH, STYLE, THIN_WIDTH, draw_ground, draw_joint

__all__ = [
    "rod_ends",
    "joint_points",
    "chain_points",
    "stewart_points",
    "draw_fourbar",
    "draw_fivebar",
    "draw_pen_arm",
    "draw_stewart",
]


def _axes(ax: Any) -> Any:
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(5.0, 4.0))
    return ax


def _finish(ax: Any, xlabel: str = "x (m)", ylabel: str = "y (m)") -> None:
    ax.set_aspect("equal")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.grid(True, alpha=0.25)


def rod_ends(q: ArrayLike, lengths: ArrayLike) -> np.ndarray:
    """End points of planar rods in maximal coordinates.

    Body ``k`` has coordinates ``q[3k:3k+3] = (x, y, phi)`` of its middle; its
    body ``x`` axis runs along the rod, as in :func:`lib.models.fourbar.fourbar_joints`
    and :func:`lib.models.fivebar.fivebar_joints`.
    Explained in :ref:`sec-cd-fourbar`.

    Parameters
    ----------
    q : array_like, shape (3 k,)
        Maximal coordinates (m, m, rad per body).
    lengths : array_like, shape (k,)
        Rod lengths (m), in body order.

    Returns
    -------
    numpy.ndarray, shape (k, 2, 2)
        ``[k, 0]`` the end at body ``x = -L/2``, ``[k, 1]`` the end at ``+L/2`` (m).

    Examples
    --------
    >>> rod_ends([1.0, 0.0, 0.0], [2.0]) + 0.0
    array([[[0., 0.],
            [2., 0.]]])
    """
    L = as_array(lengths, "lengths", (None,))
    qa = as_vector(q, "q", 3 * L.size).reshape(-1, 3)
    axis = np.stack([np.cos(qa[:, 2]), np.sin(qa[:, 2])], axis=1)
    half = 0.5 * L[:, None] * axis
    return np.stack([qa[:, :2] - half, qa[:, :2] + half], axis=1)


def joint_points(q: ArrayLike, joints: Sequence[PinJoint]) -> np.ndarray:
    """World position (m) of each pin joint, seen from its ``body_a`` side.

    Explained in :ref:`sec-cd-levels`.

    Parameters
    ----------
    q : array_like, shape (3 k,)
        Maximal coordinates.
    joints : sequence of PinJoint
        The model's joints (``body_a`` is a body index, or ``None`` for the
        ground, whose ``r_a`` is then a world point).

    Returns
    -------
    numpy.ndarray, shape (len(joints), 2)
    """
    qa = as_array(q, "q", (None,)).reshape(-1, 3)
    out = []
    for j in joints:
        if j.body_a is None:
            out.append(np.asarray(j.r_a, dtype=float))
            continue
        x, y, phi = qa[j.body_a]
        c, s = np.cos(phi), np.sin(phi)
        ra = np.asarray(j.r_a, dtype=float)
        out.append(np.array([x + c * ra[0] - s * ra[1], y + s * ra[0] + c * ra[1]]))
    return np.array(out)


def chain_points(q: ArrayLike, lengths: ArrayLike) -> np.ndarray:
    """Base, joint and tip positions (m) of a planar serial chain.

    Point ``k`` is the tip of the first ``k`` links, computed with
    :func:`lib.models.planar_chain.planar_chain_tip`; point 0 is the base at the origin.
    Explained in :ref:`sec-cd-equivalence`.

    Parameters
    ----------
    q : array_like, shape (n,)
        Relative joint angles (rad).
    lengths : array_like, shape (n,)
        Link lengths (m).

    Returns
    -------
    numpy.ndarray, shape (n + 1, 2)

    Examples
    --------
    >>> chain_points([0.0, np.pi / 2], [1.0, 0.5]).round(6) + 0.0
    array([[0. , 0. ],
           [1. , 0. ],
           [1. , 0.5]])
    """
    L = as_array(lengths, "lengths", (None,))
    qa = as_vector(q, "q", L.size)
    pts = [np.zeros(2)]
    for k in range(1, L.size + 1):
        pts.append(planar_chain.planar_chain_tip(qa[:k], np.zeros(k), L[:k])[0])
    return np.array(pts)


def stewart_points(position: ArrayLike, rotation: ArrayLike, base: ArrayLike,
                   platform: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Base and platform attachment points (m, world frame) of a Stewart-Gough platform.

    The platform points are ``p + R r_i`` with ``r_i`` from
    :func:`lib.models.stewart_gough.stewart_geometry`, the points whose leg directions
    :func:`lib.models.stewart_gough.stewart_wrench_matrix` uses.
    Explained in :ref:`sec-cd-stewart`.

    Parameters
    ----------
    position : array_like, shape (3,)
        Platform centre of mass (m).
    rotation : array_like, shape (3, 3)
        Platform orientation (world from platform).
    base, platform : array_like, shape (6, 3)
        Base points (world) and platform points (platform frame), m.

    Returns
    -------
    base_world, platform_world : numpy.ndarray, shape (6, 3)

    Examples
    --------
    >>> stewart_points([0.0, 0.0, 1.0], np.eye(3), np.zeros((6, 3)), np.ones((6, 3)))[1][0]
    array([1., 1., 2.])
    """
    p = as_vector(position, "position", 3)
    R = as_rotation(rotation, "rotation")
    b = as_array(base, "base", (6, 3))
    pl = as_array(platform, "platform", (6, 3))
    return b, p + pl @ R.T


def _rod(ax: Any, ends: np.ndarray, gid: str, color: str = STYLE["link"]) -> None:
    ax.plot(ends[:, 0], ends[:, 1], color=color, lw=LINK_WIDTH,
            solid_capstyle="round", gid=gid, zorder=3)


def draw_fourbar(theta: float, lengths: ArrayLike = fourbar.FOURBAR_LENGTHS, ax: Any = None,
                 *, labels: bool = True) -> Any:
    """Draw the four-bar of chapter 3.11 at crank angle ``theta`` (rad).

    The configuration comes from :func:`lib.models.fourbar.fourbar_configuration`
    and the joints from :func:`lib.models.fourbar.fourbar_joints`, both with
    ``lengths`` (ground, crank, coupler, rocker; m).
    Explained in :ref:`sec-cd-fourbar`.

    Returns
    -------
    matplotlib.axes.Axes
        Lines ``"crank"``, ``"coupler"``, ``"rocker"`` (rod end points, m);
        joint markers in the order of ``fourbar_joints``.
    """
    ax = _axes(ax)
    L = np.asarray(lengths, dtype=float)
    q = fourbar.fourbar_configuration(theta, L)
    joints = fourbar.fourbar_joints(L)
    ends = rod_ends(q, L[1:])
    pts = joint_points(q, joints)
    ground = np.array([joints[0].r_b, joints[3].r_b], dtype=float)
    pad = 0.15 * L[0]
    draw_ground(ax, ground[0, 0] - pad, ground[1, 0] + pad, ground[0, 1],
                depth=0.05 * L[0])
    for k, name in enumerate(("crank", "coupler", "rocker")):
        _rod(ax, ends[k], name)
    for x, y in pts:
        draw_joint(ax, x, y)
    if labels:
        for name, (x, y) in zip("OBCD", pts):
            ax.annotate(name, (x, y), xytext=(6, 6), textcoords="offset points",
                        color=STYLE["annotation"], fontsize=9)
    _finish(ax)
    return ax


def draw_fivebar(p: ArrayLike, geometry: ArrayLike = fivebar.FIVEBAR_GEOMETRY, ax: Any = None,
                 *, path: tuple[ArrayLike, float] | None = None, labels: bool = True) -> Any:
    """Draw the five-bar of chapter 3.11 with its end point at ``p`` (m).

    The configuration comes from :func:`lib.models.fivebar.fivebar_configuration`
    and the joints from :func:`lib.models.fivebar.fivebar_joints`, with
    ``geometry`` (base half-width, proximal and distal lengths; m). The two
    base joints (actuated) are filled. ``path = (centre, radius)`` adds the
    end point's circular path as a thin dashed line ``"path"``.
    Explained in :ref:`sec-cd-fivebar`.

    Returns
    -------
    matplotlib.axes.Axes
        Lines ``"proximal_left"``, ``"distal_left"``, ``"proximal_right"``,
        ``"distal_right"``; joint markers in the order of ``fivebar_joints``.
    """
    ax = _axes(ax)
    g = np.asarray(geometry, dtype=float)
    q = fivebar.fivebar_configuration(p, g)
    joints = fivebar.fivebar_joints(g)
    ends = rod_ends(q, [g[1], g[2], g[1], g[2]])
    pts = joint_points(q, joints)
    a = g[0]
    draw_ground(ax, -a - 0.4 * a, a + 0.4 * a, 0.0, depth=0.1 * a)
    names = ("proximal_left", "distal_left", "proximal_right", "distal_right")
    for k, name in enumerate(names):
        _rod(ax, ends[k], name)
    for k, (x, y) in enumerate(pts):
        draw_joint(ax, x, y, actuated=k in (0, 2))
    if path is not None:
        c, r = np.asarray(path[0], dtype=float), float(path[1])
        t = np.linspace(0.0, 2.0 * np.pi, 121)
        ax.plot(c[0] + r * np.cos(t), c[1] + r * np.sin(t), "--",
                color=STYLE["annotation"], lw=THIN_WIDTH, gid="path")
    if labels:
        for name, (x, y) in zip(("$A_1$", "$B_1$", "$A_2$", "$B_2$", "$P$"), pts):
            ax.annotate(name, (x, y), xytext=(6, -12), textcoords="offset points",
                        color=STYLE["annotation"], fontsize=9)
    _finish(ax)
    return ax


def draw_pen_arm(q: ArrayLike, lengths: ArrayLike = (0.4, 0.3, 0.2),
                 normal: ArrayLike = (0.0, 1.0), offset: float = 0.3,
                 ax: Any = None) -> Any:
    """Draw the planar arm of chapter 3.11 whose pen tip must stay on a line.

    Joint and tip positions come from :func:`lib.models.planar_chain.planar_chain_tip`
    (see :func:`chain_points`); the line is ``normal . p = offset`` (m), the
    constraint of :func:`lib.models.planar_chain.pen_on_line`.
    Explained in :ref:`sec-cd-equivalence`.

    Returns
    -------
    matplotlib.axes.Axes
        Line ``"arm"`` (base, joints, tip), line ``"board"`` (the constraint
        line), line ``"tip"`` (the pen tip), line ``"normal"`` (an arrow shaft
        along the line's normal at the tip, the direction of the constraint
        force).
    """
    ax = _axes(ax)
    L = as_array(lengths, "lengths", (None,))
    pts = chain_points(q, L)
    n = as_vector(normal, "normal", 2)
    n = n / np.linalg.norm(n)
    d = float(offset)
    tangent = np.array([-n[1], n[0]])
    foot = d * n  # the point of the line nearest the base
    reach = float(L.sum())
    # the part of the line the arm can reach, and a little more
    chord = np.sqrt(max(reach**2 - d**2, 0.0)) + 0.05 * reach
    s = np.array([-chord, chord])
    board = foot + s[:, None] * tangent
    ax.plot(board[:, 0], board[:, 1], color=STYLE["ground"], lw=THIN_WIDTH * 2,
            gid="board")
    draw_joint(ax, 0.0, 0.0)
    ax.plot(pts[:, 0], pts[:, 1], color=STYLE["link"], lw=LINK_WIDTH,
            solid_capstyle="round", gid="arm", zorder=3)
    for x, y in pts[1:-1]:
        draw_joint(ax, x, y)
    ax.plot(*pts[-1], "v", color=STYLE["actuated"], ms=8, gid="tip", zorder=6)
    arrow = np.array([pts[-1], pts[-1] - 0.25 * reach * n])
    ax.plot(arrow[:, 0], arrow[:, 1], color=STYLE["force"], lw=THIN_WIDTH * 1.5,
            gid="normal", zorder=4)
    ax.annotate("", xy=arrow[1], xytext=arrow[0],
                arrowprops=dict(arrowstyle="-|>", color=STYLE["force"], lw=1.5))
    _finish(ax)
    return ax


def draw_stewart(position: ArrayLike, rotation: ArrayLike, base: ArrayLike,
                 platform: ArrayLike, axes: Any = None) -> Any:
    """Draw a Stewart-Gough platform in a top view (x, y) and a side view (x, z).

    Points come from :func:`stewart_points`; legs join base point ``i`` to
    platform point ``i`` (m).
    Explained in :ref:`sec-cd-stewart`.

    Parameters
    ----------
    position, rotation, base, platform
        As for :func:`lib.models.stewart_gough.stewart_wrench_matrix`.
    axes : pair of matplotlib Axes, optional
        Top view and side view; new ones when omitted.

    Returns
    -------
    pair of matplotlib.axes.Axes
        In each: lines ``"base"`` and ``"platform"`` (closed hexagons of the
        attachment points, first point repeated) and ``"leg0"`` ... ``"leg5"``.
    """
    if axes is None:
        import matplotlib.pyplot as plt

        _, axes = plt.subplots(1, 2, figsize=(8.0, 3.6))
    b, r = stewart_points(position, rotation, base, platform)
    for ax, (i, j), (xl, yl) in zip(axes, ((0, 1), (0, 2)),
                                    (("x (m)", "y (m)"), ("x (m)", "z (m)"))):
        for pts, name, color in ((b, "base", STYLE["ground"]),
                                 (r, "platform", STYLE["link"])):
            loop = np.vstack([pts, pts[:1]])
            ax.plot(loop[:, i], loop[:, j], color=color, lw=THIN_WIDTH * 2, gid=name)
        for k in range(6):
            ax.plot([b[k, i], r[k, i]], [b[k, j], r[k, j]], color=STYLE["actuated"],
                    lw=THIN_WIDTH * 1.5, gid=f"leg{k}", zorder=3)
            draw_joint(ax, b[k, i], b[k, j])
            draw_joint(ax, r[k, i], r[k, j])
        _finish(ax, xl, yl)
    return axes
