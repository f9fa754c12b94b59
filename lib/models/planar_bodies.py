"""Planar rigid bodies in maximal coordinates: pin joints and uniform rods.

Each body ``k`` has coordinates ``(x_k, y_k, phi_k)``: its reference point in
the world frame (m) and its angle (rad), stacked as ``q = (x_0, y_0, phi_0,
x_1, ...)``. Bodies are uniform rods (mass ``density * length``, centroidal
inertia ``m l^2 / 12``) in a vertical plane with gravity along ``-y``, SI
units. The chapter's mechanisms (:mod:`lib.models.fourbar`,
:mod:`lib.models.fivebar`) are built from these pieces; the solvers they feed
are in :mod:`lib.constraints`.
"""

from __future__ import annotations

from typing import NamedTuple, Sequence

import numpy as np
from numpy.typing import ArrayLike

from .._validation import FloatArray, as_array, as_symmetric, as_vector, nonnegative, positive, positive_array
from ..common import GRAVITY
from ..errors import ShapeError, UnreachableTargetError

__all__ = [
    "PinJoint",
    "planar_pin_joints",
    "rod_mass_matrix",
    "mechanical_energy",
]


class PinJoint(NamedTuple):
    """A planar pin (revolute) joint between two bodies, or a body and the ground.

    - ``body_a``, ``body_b`` (int or None): body indices into the maximal
      coordinates ``q = (x_0, y_0, phi_0, x_1, ...)``; ``None`` is the ground;
    - ``r_a``, ``r_b`` (pairs of floats): the joint point in body coordinates
      (m) of ``body_a`` / ``body_b``; for the ground, the joint point in world
      coordinates.

    Explained in :ref:`sec-cd-levels`.
    """

    body_a: int | None
    r_a: Sequence[float]
    body_b: int | None
    r_b: Sequence[float]


def planar_pin_joints(
    q: ArrayLike, qd: ArrayLike, joints: Sequence[PinJoint]
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Position error, Jacobian and ``gamma`` of planar pin joints in maximal coordinates.

    Each body ``k`` has coordinates ``(x_k, y_k, phi_k)`` (reference point in
    the world frame, m; angle, rad). A pin joint between point ``r_a`` of body
    ``a`` and point ``r_b`` of body ``b`` (body coordinates) contributes two rows

    ``Phi = p_a + R_a r_a - p_b - R_b r_b``,
    ``J = [I, R_a' r_a] (body a), -[I, R_b' r_b] (body b)``,
    ``gamma = R_a r_a phid_a^2 - R_b r_b phid_b^2``,

    with ``R' = dR/dphi``. A ground end (body ``None``) contributes the fixed
    world point ``r`` to ``Phi`` and nothing to ``J`` or ``gamma``.
    Explained in :ref:`sec-cd-levels`.

    Parameters
    ----------
    q : array_like, shape (3 N,)
        Maximal coordinates of ``N`` bodies (m, m, rad).
    qd : array_like, shape (3 N,)
        Their velocities (m/s, m/s, rad/s).
    joints : sequence of PinJoint
        The joints.

    Returns
    -------
    Phi : numpy.ndarray, shape (2 J,)
        Position error (m), world frame.
    J : numpy.ndarray, shape (2 J, 3 N)
        Jacobian ``dPhi/dq``.
    gamma : numpy.ndarray, shape (2 J,)
        Right-hand side of ``J qdd = gamma`` (m/s^2).

    Raises
    ------
    ShapeError
        If ``q`` is not a multiple of 3 long, a body index is out of range or a
        joint connects the ground to itself.

    Examples
    --------
    A rod of length 1 pinned at its end ``(-0.5, 0)`` to the world origin,
    lying along x and spinning at 2 rad/s:

    >>> Phi, J, gamma = planar_pin_joints([0.5, 0.0, 0.0], [0.0, 1.0, 2.0],
    ...                                   [PinJoint(0, (-0.5, 0.0), None, (0.0, 0.0))])
    >>> np.round(Phi, 6), np.round(J, 6), np.round(gamma, 6)
    (array([0., 0.]), array([[ 1. ,  0. ,  0. ],
           [ 0. ,  1. , -0.5]]), array([-2.,  0.]))
    """
    qa = as_array(q, "q", (None,))
    if qa.size == 0 or qa.size % 3:
        raise ShapeError(f"q must hold (x, y, phi) for each body, so its length must be a positive multiple of 3; got {qa.size}")
    va = as_vector(qd, "qd", qa.size)
    nb = qa.size // 3
    if len(joints) == 0:
        raise ShapeError("joints must list at least one PinJoint")
    bodies = []
    for j, joint in enumerate(joints):
        if len(joint) != 4:
            raise ShapeError(f"joints[{j}] must be a PinJoint(body_a, r_a, body_b, r_b), got {joint!r}")
        for body in (joint[0], joint[2]):
            if body is not None and (not isinstance(body, (int, np.integer)) or not 0 <= body < nb):
                raise ShapeError(f"joints[{j}] body index must be None or an int in [0, {nb - 1}], got {body!r}")
        if joint[0] is None and joint[2] is None:
            raise ShapeError(f"joints[{j}] connects the ground to the ground")
        bodies.append((joint[0], joint[2]))
    try:
        points = np.array([(joint[1], joint[3]) for joint in joints], dtype=float)
    except (TypeError, ValueError):
        raise ShapeError("every joint point r_a, r_b must be a pair of numbers (x, y)") from None
    points = as_array(points, "the joint points", (len(joints), 2, 2))
    Phi = np.zeros(2 * len(joints))
    Jm = np.zeros((2 * len(joints), qa.size))
    gamma = np.zeros(2 * len(joints))
    cos, sin = np.cos(qa[2::3]), np.sin(qa[2::3])
    for j, pair in enumerate(bodies):
        for end, (body, sign) in enumerate(zip(pair, (1.0, -1.0))):
            rx, ry = points[j, end]
            if body is None:
                Phi[2 * j] += sign * rx
                Phi[2 * j + 1] += sign * ry
                continue
            c, s = cos[body], sin[body]
            Rx, Ry = c * rx - s * ry, s * rx + c * ry
            k = 3 * body
            w2 = va[k + 2] ** 2
            Phi[2 * j] += sign * (qa[k] + Rx)
            Phi[2 * j + 1] += sign * (qa[k + 1] + Ry)
            Jm[2 * j, k] += sign
            Jm[2 * j + 1, k + 1] += sign
            Jm[2 * j, k + 2] -= sign * Ry
            Jm[2 * j + 1, k + 2] += sign * Rx
            gamma[2 * j] += sign * Rx * w2
            gamma[2 * j + 1] += sign * Ry * w2
    return Phi, Jm, gamma


def _gravity(gravity: float) -> float:
    return nonnegative(gravity, "gravity (m/s^2, acting along -y)")


def rod_mass_matrix(
    lengths: ArrayLike, density: float, gravity: float = GRAVITY
) -> tuple[FloatArray, FloatArray]:
    """Constant mass matrix and gravity force of uniform rods in maximal coordinates.

    Body ``k`` contributes ``diag(m_k, m_k, m_k l_k^2 / 12)`` and the force
    ``(0, -m_k g, 0)``; in the plane there are no velocity-product terms, so
    ``f`` is the whole generalised force.
    Explained in :ref:`sec-cd-drift`.

    Parameters
    ----------
    lengths : array_like, shape (N,)
        Rod lengths (m).
    density : float
        Mass per length (kg/m).
    gravity : float
        Gravitational acceleration along ``-y`` (m/s^2).

    Returns
    -------
    M : numpy.ndarray, shape (3 N, 3 N)
    f : numpy.ndarray, shape (3 N,)

    Examples
    --------
    >>> M, f = rod_mass_matrix([1.0], 3.0)
    >>> np.round(np.diag(M), 6), np.round(f, 6)
    (array([3.  , 3.  , 0.25]), array([  0.  , -29.43,   0.  ]))
    """
    L = positive_array(lengths, "lengths", (None,))
    rho = positive(density, "density")
    g = _gravity(gravity)
    m = rho * L
    diag = np.stack([m, m, m * L**2 / 12.0], axis=1).ravel()
    f = np.stack([np.zeros_like(m), -m * g, np.zeros_like(m)], axis=1).ravel()
    return np.diag(diag), f


def mechanical_energy(q: ArrayLike, qd: ArrayLike, M: ArrayLike, f: ArrayLike) -> float:
    """Kinetic plus potential energy ``qd^T M qd / 2 - f . q`` for a constant force ``f``.

    With ``f`` the gravity force of :func:`rod_mass_matrix`, ``-f . q`` is
    ``sum m_k g y_k``.
    Explained in :ref:`sec-cd-drift`.

    Parameters
    ----------
    q, qd : array_like, shape (n,)
        State.
    M : array_like, shape (n, n)
        Constant mass matrix.
    f : array_like, shape (n,)
        Constant generalised force (a gradient of ``-V``).

    Returns
    -------
    float
        Energy (J).

    Raises
    ------
    ShapeError
        If ``q``, ``qd``, ``M`` or ``f`` is not numeric or their sizes disagree.
    NonFiniteError
        If an entry is NaN or infinite.
    NonSymmetricError
        If ``M`` is not symmetric.

    Examples
    --------
    >>> M, f = rod_mass_matrix([1.0], 1.0)
    >>> round(mechanical_energy([0.0, 2.0, 0.0], [1.0, 0.0, 0.0], M, f), 6)
    20.12
    """
    qa = as_array(q, "q", (None,))
    va = as_vector(qd, "qd", qa.size)
    Ma = as_symmetric(M, "M", qa.size)
    fa = as_vector(f, "f", qa.size)
    return float(0.5 * va @ Ma @ va - fa @ qa)


def _circle_intersection(A: FloatArray, ra: float, B: FloatArray, rb: float, left: bool, what: str) -> FloatArray:
    """Intersection of circle(A, ra) and circle(B, rb), left or right of A -> B."""
    d_vec = B - A
    d = float(np.linalg.norm(d_vec))
    if d == 0.0 or d > ra + rb or d < abs(ra - rb):
        raise UnreachableTargetError(
            f"{what} cannot be assembled: the pivots are {d:.4g} m apart, the links reach between "
            f"{abs(ra - rb):.4g} and {ra + rb:.4g} m"
        )
    e = d_vec / d
    a = (ra**2 - rb**2 + d**2) / (2.0 * d)
    hh = np.sqrt(max(ra**2 - a**2, 0.0))  # clip: round-off at the reach limit
    perp = np.array([-e[1], e[0]])
    return A + a * e + (hh if left else -hh) * perp
