"""Schematic of any kinematic tree (chapters 3.2 and 3.3): its body frames at ``q``.

Every point is a frame origin from :func:`lib.kinematic_tree.forward_kinematics`
(and :func:`lib.kinematic_tree.frame_pose` for named frames), so a changed
placement or joint value changes the drawing. Each body is a segment from its
parent's origin to its own (a root body's from the world origin, the base);
joints are marked at the body origins by type (revolute: open circle,
prismatic: open square, free: diamond, fixed: a dot). The 3D points are
projected on a plane (``"xy"``, ``"xz"``, ``"yz"``) or drawn in a cabinet
oblique view (:data:`VIEWS`). Lengths are in metres.

The drawing function returns the matplotlib Axes it drew on. Each body's
segment is a ``Line2D`` with the ``gid`` ``"link:<body>"``, its joint marker
a collection with the ``gid`` ``"joint:<body>"``; a named frame's segment is
``"frame:<name>"``, the base marker ``"base"``, a joint axis ``"axis:<body>"``.
"""

from __future__ import annotations

import math
from typing import Any, Sequence

import numpy as np
from numpy.typing import ArrayLike

from ... import kinematic_tree as kt
from ..._validation import as_array, instance_of, nonnegative, one_of
from ...errors import OutOfRangeError, ShapeError
from . import JOINT_SIZE, LINK_WIDTH, STYLE, THIN_WIDTH, draw_joint

__all__ = ["VIEWS", "project", "tree_origins", "draw_kinematic_tree"]

_C, _S = 0.5 * math.cos(math.radians(30.0)), 0.5 * math.sin(math.radians(30.0))
#: 2 x 3 projection matrices: ``(u, v) = P p``. The plane views drop one world
#: axis; ``"oblique"`` is a cabinet projection: ``x`` to the right, ``z`` up,
#: ``y`` receding at 30 degrees at half length.
VIEWS = {
    "xy": np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]),
    "xz": np.array([[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]]),
    "yz": np.array([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]),
    "oblique": np.array([[1.0, _C, 0.0], [0.0, _S, 1.0]]),
}
_AXIS_LABELS = {"xy": ("x (m)", "y (m)"), "xz": ("x (m)", "z (m)"),
                "yz": ("y (m)", "z (m)")}


def project(points: ArrayLike, view: str = "xz") -> np.ndarray:
    """World points (m) projected for a view of :data:`VIEWS`.

    Parameters
    ----------
    points : array_like, shape (n, 3)
        Points in the world frame, m.
    view : str
        ``"xy"``, ``"xz"``, ``"yz"`` or ``"oblique"``.

    Returns
    -------
    numpy.ndarray, shape (n, 2)

    Examples
    --------
    >>> project([[1.0, 2.0, 3.0]], "yz")
    array([[2., 3.]])
    >>> np.round(project([[0.0, 2.0, 0.0]], "oblique"), 6)  # y: at 30 deg, halved
    array([[0.866025, 0.5     ]])
    """
    one_of(view, "view", list(VIEWS))
    pts = as_array(points, "points", (None, 3))
    return pts @ VIEWS[view].T


def tree_origins(model: kt.KinematicTree, q: ArrayLike) -> np.ndarray:
    """World positions (m) of the body frames' origins at ``q`` (the drawn joints).

    Explained in :ref:`sec-rn-forward`.

    Parameters
    ----------
    model : KinematicTree
        The tree.
    q : array_like, shape (nq,)
        Joint coordinates.

    Returns
    -------
    numpy.ndarray, shape (n_b, 3)
        Row ``i``: the translation of :func:`lib.kinematic_tree.forward_kinematics`'s
        ``T_{0i}``.

    Examples
    --------
    >>> from lib.models.planar_chain import planar_chain_tree
    >>> arm = planar_chain_tree([1.0, 0.5], [1.0, 1.0])
    >>> np.round(tree_origins(arm, [np.pi / 2, 0.0]), 6) + 0.0
    array([[0., 0., 0.],
           [0., 1., 0.]])
    """
    instance_of(model, kt.KinematicTree, "model")
    poses = kt.forward_kinematics(model, as_array(q, "q", (model.nq,)))
    return poses[:, :3, 3]


def _triad(ax: Any, origin: np.ndarray, length: float) -> None:
    """Short x, y, z arrows of the world frame in the oblique view."""
    for axis, name in zip(np.eye(3), "xyz"):
        end = origin + length * (VIEWS["oblique"] @ axis)
        ax.annotate("", xy=end, xytext=origin,
                    arrowprops=dict(arrowstyle="-|>", color=STYLE["annotation"],
                                    lw=THIN_WIDTH))
        ax.text(*(origin + 1.2 * length * (VIEWS["oblique"] @ axis)), name,
                color=STYLE["annotation"], fontsize=8, ha="center", va="center")


def draw_kinematic_tree(model: kt.KinematicTree, q: ArrayLike, ax: Any = None, *,
                        view: str = "xz", labels: bool | dict = False,
                        frames: Sequence[str] = (), axis_length: float = 0.0) -> Any:
    """Draw a kinematic tree at the configuration ``q``, projected for ``view``.

    Body ``i`` is a segment from its parent's frame origin to its own
    (:func:`tree_origins`; a root body's starts at the world origin, marked
    as the base), with its joint marked at its origin by type; ``frames``
    adds named frames of ``model.frames`` (:func:`lib.kinematic_tree.frame_pose`),
    each joined to its body's origin and marked by a triangle. ``labels``:
    ``True`` names each body whose joint moves, a dict ``{body: text}``
    names the bodies it lists. ``axis_length`` > 0 (m) draws each revolute
    and prismatic joint's axis through the joint, that long. The oblique
    view adds the world axes at the base and hides the ticks. Explained in
    :ref:`sec-rn-tree`.

    Parameters
    ----------
    model : KinematicTree
        The tree (:func:`lib.kinematic_tree.kinematic_tree`,
        :func:`lib.models.robots.load_robot`).
    q : array_like, shape (nq,)
        Joint coordinates.
    ax : matplotlib Axes, optional
        Where to draw (new axes when omitted).
    view : str
        A key of :data:`VIEWS`.

    Returns
    -------
    matplotlib.axes.Axes
        See the module docstring for the ``gid`` of each artist.

    Raises
    ------
    ShapeError, NonFiniteError
        For a model that is not a tree, or ``q`` not finite of length ``nq``.
    OutOfRangeError
        For an unknown view, frame or labelled body.

    Examples
    --------
    >>> from lib.models.planar_chain import planar_chain_tree
    >>> arm = planar_chain_tree([1.0, 0.5], [1.0, 1.0])
    >>> ax = draw_kinematic_tree(arm, [0.3, -0.5], view="xy")
    >>> link = next(a for a in ax.lines if a.get_gid() == "link:link2")
    >>> np.round(link.get_xydata(), 6) + 0.0  # from joint 1 to joint 2
    array([[0.      , 0.      ],
           [0.955336, 0.29552 ]])
    """
    import matplotlib.pyplot as plt

    one_of(view, "view", list(VIEWS))
    origins = tree_origins(model, q)
    axis_length = nonnegative(axis_length, "axis_length")
    if isinstance(labels, dict):
        unknown = sorted(set(labels) - set(model.names))
        if unknown:
            raise OutOfRangeError(f"labels name no body of the tree: {unknown}")
        names = {k: str(v) for k, v in labels.items()}
    elif isinstance(labels, bool):
        names = {b: b for b, kind in zip(model.names, model.joint_types)
                 if kind != "fixed"}
    else:
        raise ShapeError(f"labels must be True, False or a dict, got {labels!r}")
    if not labels:
        names = {}
    if isinstance(frames, str):
        frames = (frames,)
    extra = [(name, kt.frame_pose(model, q, name)[:3, 3]) for name in frames]
    if ax is None:
        _, ax = plt.subplots(figsize=(5.0, 4.0), layout="constrained")
    P = VIEWS[view]
    pts = origins @ P.T
    base = np.zeros(2)
    for i, (name, parent) in enumerate(zip(model.names, model.parents)):
        start = base if parent < 0 else pts[parent]
        ax.plot([start[0], pts[i, 0]], [start[1], pts[i, 1]], color=STYLE["link"],
                lw=LINK_WIDTH, solid_capstyle="round", gid=f"link:{name}", zorder=3)
    for name, point in extra:
        body = model.frames[name][0]
        start = base if body < 0 else pts[body]
        end = P @ point
        ax.plot([start[0], end[0]], [start[1], end[1]], color=STYLE["link"],
                lw=THIN_WIDTH * 1.5, gid=f"frame:{name}", zorder=3)
        ax.scatter([end[0]], [end[1]], s=0.6 * JOINT_SIZE, marker="v",
                   facecolor=STYLE["actuated"], edgecolor=STYLE["annotation"],
                   linewidth=THIN_WIDTH, zorder=6, gid=f"frame-mark:{name}")
    poses = kt.forward_kinematics(model, q) if axis_length > 0.0 else None
    for i, (name, kind) in enumerate(zip(model.names, model.joint_types)):
        x, y = pts[i]
        if kind == "revolute":
            draw_joint(ax, x, y)
        else:
            marker, size = {"prismatic": ("s", JOINT_SIZE), "free": ("D", JOINT_SIZE),
                            "fixed": ("o", 0.3 * JOINT_SIZE)}[kind]
            face = STYLE["annotation"] if kind == "fixed" else STYLE["joint_fill"]
            ax.scatter([x], [y], s=size, marker=marker, facecolor=face,
                       edgecolor=STYLE["annotation"], linewidth=THIN_WIDTH, zorder=5)
        ax.collections[-1].set_gid(f"joint:{name}")
        if poses is not None and kind in ("revolute", "prismatic"):
            half = 0.5 * axis_length * (P @ (poses[i, :3, :3] @ model.axes[i]))
            ax.plot([x - half[0], x + half[0]], [y - half[1], y + half[1]],
                    color=STYLE["actuated"], lw=THIN_WIDTH, ls="--", gid=f"axis:{name}",
                    zorder=4)
    every = np.vstack([pts, base[None, :], *[(P @ p)[None, :] for _, p in extra]])
    span = max(float(np.ptp(every[:, 0])), float(np.ptp(every[:, 1])), 1e-3)
    ax.plot([base[0]], [base[1]], marker="^", ms=11, color=STYLE["ground"], ls="none",
            gid="base", zorder=2)
    for body, text in names.items():
        x, y = pts[model.names.index(body)]
        ax.annotate(text, (x, y), xytext=(6, 6), textcoords="offset points",
                    color=STYLE["annotation"], fontsize=8)
    for name, point in extra:
        if labels:
            ax.annotate(name, tuple(P @ point), xytext=(6, -10),
                        textcoords="offset points", color=STYLE["annotation"],
                        fontsize=8)
    pad = 0.12 * span
    ax.set_xlim(every[:, 0].min() - pad, every[:, 0].max() + pad)
    ax.set_ylim(every[:, 1].min() - pad, every[:, 1].max() + pad)
    ax.set_aspect("equal")
    if view == "oblique":
        _triad(ax, base, 0.15 * span)
        ax.set_xticks([])
        ax.set_yticks([])
    else:
        ax.set_xlabel(_AXIS_LABELS[view][0])
        ax.set_ylabel(_AXIS_LABELS[view][1])
        ax.grid(True, alpha=0.25)
    return ax
