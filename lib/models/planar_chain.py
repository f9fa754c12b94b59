"""A planar serial chain of uniform rods, and the pen on the whiteboard.

Joint ``i`` is a revolute joint with relative angle ``q[i]``; link ``i`` is a
uniform rod (centre of mass at its middle, centroidal inertia ``m l^2 / 12``)
in a vertical plane with gravity along ``-y``; the base joint is at the world
origin. The chain's kinematics also serve the two-link arm of chapter 3.12
(:mod:`lib.models.planar_2r_arm`) and the fingertip
(:mod:`lib.models.fingertip`). The pen model is chapter 3.11's 3R arm whose
tip must stay on a line; the solvers it feeds are in :mod:`lib.constraints`.
Lengths and masses are the book's own illustrative choices.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from .._validation import FloatArray, as_vector, positive_array, real_number
from ..common import GRAVITY
from ..errors import ShapeError
from ..kinematic_tree import KinematicTree, kinematic_tree
from ..spatial import spatial_inertia, transform
from .planar_bodies import _gravity

__all__ = [
    "planar_chain_dynamics",
    "planar_chain_tip",
    "planar_chain_tree",
    "PenTerms",
    "pen_on_line",
]


def _chain_inputs(q: ArrayLike, qd: ArrayLike, lengths: ArrayLike) -> tuple[FloatArray, FloatArray, FloatArray]:
    L = positive_array(lengths, "lengths", (None,))
    if L.size == 0:
        raise ShapeError("lengths must list at least one link length")
    return as_vector(q, "q", L.size), as_vector(qd, "qd", L.size), L


def _chain_kinematics(q: FloatArray, qd: FloatArray, L: FloatArray, weights: FloatArray):
    """Jacobian and ``Jdot qd`` of the point ``sum_k w_k u_k`` (``w`` per link)."""
    phi = np.cumsum(q)
    phid = np.cumsum(qd)
    u = np.stack([np.cos(phi), np.sin(phi)], axis=1)
    uperp = np.stack([-np.sin(phi), np.cos(phi)], axis=1)
    n = q.size
    point = weights @ u
    J = np.zeros((2, n))
    for j in range(n):
        J[:, j] = weights[j:] @ uperp[j:]
    jdqd = -(weights * phid**2) @ u
    return point, J, jdqd


def planar_chain_dynamics(
    q: ArrayLike, qd: ArrayLike, lengths: ArrayLike, masses: ArrayLike, gravity: float = GRAVITY
) -> tuple[FloatArray, FloatArray]:
    """Mass matrix and bias force of a planar serial chain of uniform rods.

    Joint ``i`` is a revolute joint with relative angle ``q[i]``; link ``i``
    has length ``lengths[i]``, mass ``masses[i]``, centre of mass at its
    middle and centroidal inertia ``m l^2 / 12``. The base joint is at the
    world origin; gravity acts along ``-y``. Returns ``M`` and
    ``h = C qd + g`` with ``M qdd + h = tau``, from the projection of each
    link's Newton-Euler equations: ``M = sum m J_v^T J_v + I J_w^T J_w``,
    ``h = sum m J_v^T (Jdot_v qd - g_vec)``.
    Explained in :ref:`sec-cd-equivalence`.

    Parameters
    ----------
    q, qd : array_like, shape (n,)
        Relative joint angles (rad) and rates (rad/s).
    lengths, masses : array_like, shape (n,)
        Link lengths (m) and masses (kg), positive.
    gravity : float
        Gravitational acceleration (m/s^2), non-negative.

    Returns
    -------
    M : numpy.ndarray, shape (n, n)
        Joint-space mass matrix (kg m^2).
    h : numpy.ndarray, shape (n,)
        Coriolis, centrifugal and gravity torques (N m).

    Examples
    --------
    A single rod (1 m, 1 kg) hanging horizontally: ``M = m l^2/3``,
    gravity torque ``m g l/2``:

    >>> M, h = planar_chain_dynamics([0.0], [0.0], [1.0], [1.0])
    >>> np.round(M, 6), np.round(h, 6)
    (array([[0.333333]]), array([4.905]))
    """
    qa, va, L = _chain_inputs(q, qd, lengths)
    m = positive_array(masses, "masses", (L.size,))
    g = _gravity(gravity)
    n = L.size
    M = np.zeros((n, n))
    h = np.zeros(n)
    for i in range(n):
        w = np.zeros(n)
        w[:i] = L[:i]
        w[i] = 0.5 * L[i]
        _, Jv, jdqd = _chain_kinematics(qa, va, L, w)
        Jw = np.zeros(n)
        Jw[: i + 1] = 1.0
        inertia = m[i] * L[i] ** 2 / 12.0
        M += m[i] * Jv.T @ Jv + inertia * np.outer(Jw, Jw)
        h += m[i] * Jv.T @ (jdqd - np.array([0.0, -g]))
    return 0.5 * (M + M.T), h


def planar_chain_tip(q: ArrayLike, qd: ArrayLike, lengths: ArrayLike) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Tip position, Jacobian and ``Jdot qd`` of a planar serial chain.

    Explained in :ref:`sec-cd-equivalence`.

    Parameters
    ----------
    q, qd : array_like, shape (n,)
        Relative joint angles (rad) and rates (rad/s).
    lengths : array_like, shape (n,)
        Link lengths (m).

    Returns
    -------
    p : numpy.ndarray, shape (2,)
        Tip position (m), world frame.
    J : numpy.ndarray, shape (2, n)
        ``dp/dq``.
    jdqd : numpy.ndarray, shape (2,)
        ``Jdot qd`` (m/s^2).

    Examples
    --------
    >>> p, J, jdqd = planar_chain_tip([0.0, np.pi / 2], [1.0, 0.0], [1.0, 1.0])
    >>> np.round(p, 6), np.round(J, 6), np.round(jdqd, 6)
    (array([1., 1.]), array([[-1., -1.],
           [ 1.,  0.]]), array([-1., -1.]))
    """
    qa, va, L = _chain_inputs(q, qd, lengths)
    return _chain_kinematics(qa, va, L, L)


def planar_chain_tree(lengths: ArrayLike, masses: ArrayLike) -> KinematicTree:
    """The uniform-rod chain as a kinematic tree (:mod:`lib.kinematic_tree`).

    Body ``i`` is rod ``i`` with its frame at joint ``i`` and its ``x`` axis
    along the rod; every joint is revolute about ``z``; joint ``i + 1`` sits
    ``lengths[i]`` along body ``i``'s ``x`` axis. Each rod's spatial inertia
    has its centre of mass at ``(l/2, 0, 0)`` and the centroidal inertia
    ``diag(0, m l^2/12, m l^2/12)``, as in :func:`planar_chain_dynamics`;
    the frame ``"tip"`` is the end of the last rod. With gravity ``(0, -g,
    0)`` the tree's :func:`lib.kinematic_tree.rnea` gives the ``M`` and ``h``
    of :func:`planar_chain_dynamics` (``tests/test_models_planar_chain.py``).
    Explained in :ref:`sec-rn-tree`.

    Parameters
    ----------
    lengths, masses : array_like, shape (n,)
        Rod lengths (m) and masses (kg), positive.

    Returns
    -------
    KinematicTree
        ``n`` bodies named ``"link1"`` ... and joints ``"joint1"`` ...

    Examples
    --------
    >>> from lib.kinematic_tree import frame_pose
    >>> arm = planar_chain_tree([1.0, 0.5], [1.0, 1.0])
    >>> np.round(frame_pose(arm, [0.0, np.pi / 2], "tip")[:3, 3], 6) + 0.0
    array([1. , 0.5, 0. ])
    """
    L = positive_array(lengths, "lengths", (None,))
    if L.size == 0:
        raise ShapeError("lengths must list at least one link length")
    m = positive_array(masses, "masses", (L.size,))
    n = L.size
    along = [transform(np.eye(3), [x, 0.0, 0.0]) for x in L]
    inertias = [
        spatial_inertia(
            mi, np.diag([0.0, mi * li**2 / 12, mi * li**2 / 12]), com=[li / 2, 0.0, 0.0]
        )
        for li, mi in zip(L, m)
    ]
    return kinematic_tree(
        list(range(-1, n - 1)),
        ["revolute"] * n,
        [[0.0, 0.0, 1.0]] * n,
        [np.eye(4)] + along[:-1],
        inertias,
        names=[f"link{i + 1}" for i in range(n)],
        joint_names=[f"joint{i + 1}" for i in range(n)],
        frames={"tip": (n - 1, along[-1])},
    )


class PenTerms(NamedTuple):
    """Everything the KKT solvers need for the pen-on-a-line arm at one state.

    - ``M``, shape (n, n): mass matrix (kg m^2);
    - ``h``, shape (n,): bias torques ``C qd + g`` (N m);
    - ``Phi``, shape (1,): constraint error ``n . p_tip - d`` (m);
    - ``J``, shape (1, n): constraint Jacobian (m/rad);
    - ``gamma``, shape (1,): ``-Jdot qd`` (m/s^2).

    Explained in :ref:`sec-cd-equivalence`.
    """

    M: FloatArray
    h: FloatArray
    Phi: FloatArray
    J: FloatArray
    gamma: FloatArray


def pen_on_line(
    q: ArrayLike,
    qd: ArrayLike,
    lengths: ArrayLike = (0.4, 0.3, 0.2),
    masses: ArrayLike = (2.0, 1.5, 1.0),
    normal: ArrayLike = (0.0, 1.0),
    offset: float = 0.3,
    gravity: float = GRAVITY,
) -> PenTerms:
    """A planar arm whose pen tip must stay on the line ``normal . p = offset``.

    The default is the chapter's 3R arm writing on a whiteboard (vertical
    plane) along the horizontal line ``y = 0.3`` m: ``n = 3`` coordinates and
    ``m = 1`` constraint.
    Explained in :ref:`sec-cd-equivalence`.

    Parameters
    ----------
    q, qd : array_like, shape (n,)
        Relative joint angles (rad) and rates (rad/s).
    lengths, masses : array_like, shape (n,)
        Link lengths (m) and masses (kg).
    normal : array_like, shape (2,)
        Normal of the line (normalised here), world frame.
    offset : float
        Signed distance of the line from the base (m).
    gravity : float
        Gravitational acceleration along ``-y`` (m/s^2).

    Returns
    -------
    PenTerms

    Raises
    ------
    ShapeError
        If ``normal`` is the zero vector.

    Examples
    --------
    >>> t = pen_on_line([0.0, 0.0, 0.0], [0.0, 0.0, 0.0])
    >>> np.round(t.Phi, 6), np.round(t.J, 6)
    (array([-0.3]), array([[0.9, 0.5, 0.2]]))
    """
    M, h = planar_chain_dynamics(q, qd, lengths, masses, gravity)
    p, Jt, jdqd = planar_chain_tip(q, qd, lengths)
    nv = as_vector(normal, "normal", 2)
    norm = float(np.linalg.norm(nv))
    if norm == 0.0:
        raise ShapeError("normal must be a non-zero 2-vector (the line's normal direction)")
    nv = nv / norm
    d = real_number(offset, "offset")
    return PenTerms(M, h, np.array([nv @ p - d]), (nv @ Jt)[None, :], np.array([-(nv @ jdqd)]))
