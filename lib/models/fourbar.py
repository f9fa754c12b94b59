"""The four-bar linkage of chapter 3.11: a Grashof crank-rocker of uniform rods.

Three moving rods (crank, coupler, rocker) in maximal coordinates
(:mod:`lib.models.planar_bodies`), pinned to each other and to the ground,
in a vertical plane with gravity along ``-y``. Lengths and density are the
book's own illustrative choices.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .._validation import FloatArray, as_vector, positive_array, real_number
from ..common import GRAVITY
from ..constraints import actuated_velocity_map
from .planar_bodies import PinJoint, _circle_intersection, planar_pin_joints, rod_mass_matrix

__all__ = [
    "FOURBAR_LENGTHS",
    "fourbar_joints",
    "fourbar_dynamics",
    "fourbar_constraints",
    "fourbar_configuration",
    "fourbar_state",
    "fourbar_independent_acceleration",
]


#: Ground, crank, coupler, rocker lengths (m): a Grashof crank-rocker.
FOURBAR_LENGTHS = (0.4, 0.1, 0.35, 0.3)


def _fourbar_lengths(lengths: ArrayLike) -> FloatArray:
    return positive_array(lengths, "lengths (ground, crank, coupler, rocker)", (4,))


def fourbar_joints(lengths: ArrayLike = FOURBAR_LENGTHS) -> list[PinJoint]:
    """The four pin joints of the four-bar in maximal coordinates.

    Bodies: 0 crank (ground pivot ``O = (0, 0)`` to ``B``), 1 coupler (``B``
    to ``C``), 2 rocker (ground pivot ``D = (l_ground, 0)`` to ``C``). Each
    body frame sits at the rod's middle with ``x`` along the rod.
    Explained in :ref:`sec-cd-drift`.

    Parameters
    ----------
    lengths : array_like, shape (4,)
        Ground, crank, coupler and rocker lengths (m).

    Returns
    -------
    list of PinJoint
        Four joints, eight scalar constraints on nine coordinates.

    Examples
    --------
    >>> len(fourbar_joints())
    4
    """
    l1, l2, l3, l4 = _fourbar_lengths(lengths)
    return [
        PinJoint(0, (-l2 / 2, 0.0), None, (0.0, 0.0)),
        PinJoint(0, (l2 / 2, 0.0), 1, (-l3 / 2, 0.0)),
        PinJoint(1, (l3 / 2, 0.0), 2, (l4 / 2, 0.0)),
        PinJoint(2, (-l4 / 2, 0.0), None, (l1, 0.0)),
    ]


def fourbar_dynamics(
    lengths: ArrayLike = FOURBAR_LENGTHS, density: float = 2.0, gravity: float = GRAVITY
) -> tuple[FloatArray, FloatArray]:
    """Mass matrix (9 x 9) and gravity force of the four-bar's three moving rods.

    Explained in :ref:`sec-cd-drift`.

    Parameters
    ----------
    lengths : array_like, shape (4,)
        Ground, crank, coupler, rocker lengths (m).
    density : float
        Mass per length of the rods (kg/m).
    gravity : float
        Along ``-y`` (m/s^2).

    Returns
    -------
    M : numpy.ndarray, shape (9, 9)
    f : numpy.ndarray, shape (9,)

    Examples
    --------
    >>> M, f = fourbar_dynamics()
    >>> float(M[0, 0]), round(float(M[2, 2]), 9)
    (0.2, 0.000166667)
    """
    L = _fourbar_lengths(lengths)
    return rod_mass_matrix(L[1:], density, gravity)


def fourbar_constraints(
    q: ArrayLike, qd: ArrayLike, lengths: ArrayLike = FOURBAR_LENGTHS
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``Phi``, ``J`` (8 x 9) and ``gamma`` of the four-bar's pin joints.

    Explained in :ref:`sec-cd-drift`.

    Parameters
    ----------
    q, qd : array_like, shape (9,)
        Maximal coordinates and velocities.
    lengths : array_like, shape (4,)
        Ground, crank, coupler, rocker lengths (m).

    Returns
    -------
    Phi, J, gamma : numpy.ndarray
        Shapes ``(8,)``, ``(8, 9)``, ``(8,)``.

    Examples
    --------
    >>> Phi, J, gamma = fourbar_constraints(fourbar_configuration(0.5), np.zeros(9))
    >>> float(np.round(np.abs(Phi).max(), 12)), J.shape
    (0.0, (8, 9))
    """
    return planar_pin_joints(as_vector(q, "q", 9), as_vector(qd, "qd", 9), fourbar_joints(lengths))


def fourbar_configuration(theta: float, lengths: ArrayLike = FOURBAR_LENGTHS) -> FloatArray:
    """Maximal coordinates of the four-bar for crank angle ``theta`` (position analysis).

    ``B = l_crank (cos theta, sin theta)``; ``C`` is the intersection of the
    circles about ``B`` (radius ``l_coupler``) and ``D`` (radius
    ``l_rocker``) on the left of ``B -> D`` (the "open", upper branch).
    Explained in :ref:`sec-cd-representations`.

    Parameters
    ----------
    theta : float
        Crank angle (rad) from the ground line.
    lengths : array_like, shape (4,)
        Ground, crank, coupler, rocker lengths (m).

    Returns
    -------
    numpy.ndarray, shape (9,)
        ``(x, y, phi)`` of crank, coupler and rocker.

    Raises
    ------
    UnreachableTargetError
        If the loop cannot close at this crank angle.

    Examples
    --------
    >>> np.round(fourbar_configuration(np.pi / 2)[:3], 6)
    array([0.      , 0.05    , 1.570796])
    """
    l1, l2, l3, l4 = _fourbar_lengths(lengths)
    th = real_number(theta, "theta")
    B = l2 * np.array([np.cos(th), np.sin(th)])
    D = np.array([l1, 0.0])
    C = _circle_intersection(B, l3, D, l4, left=True, what=f"the four-bar at crank angle {th:.4g} rad")
    return np.array(
        [
            *(B / 2), th,
            *((B + C) / 2), np.arctan2(*(C - B)[::-1]),
            *((D + C) / 2), np.arctan2(*(C - D)[::-1]),
        ]
    )


def fourbar_state(theta: float, theta_d: float, lengths: ArrayLike = FOURBAR_LENGTHS) -> tuple[FloatArray, FloatArray]:
    """Consistent maximal-coordinate state ``(q, qd)`` for crank angle and rate.

    ``qd = V theta_d`` with ``V`` from
    :func:`lib.constraints.actuated_velocity_map` (crank angle ``q[2]``
    as the independent coordinate).
    Explained in :ref:`sec-cd-representations`.

    Parameters
    ----------
    theta, theta_d : float
        Crank angle (rad) and rate (rad/s).
    lengths : array_like, shape (4,)
        Ground, crank, coupler, rocker lengths (m).

    Returns
    -------
    q, qd : numpy.ndarray, shape (9,)

    Examples
    --------
    >>> q, qd = fourbar_state(0.5, 2.0)
    >>> _, J, _ = fourbar_constraints(q, qd)
    >>> float(np.round(np.abs(J @ qd).max(), 12))
    0.0
    """
    q = fourbar_configuration(theta, lengths)
    _, J, _ = fourbar_constraints(q, np.zeros(9), lengths)
    V = actuated_velocity_map(J, [2])
    return q, V[:, 0] * real_number(theta_d, "theta_d")


def fourbar_independent_acceleration(
    theta: float,
    theta_d: float,
    lengths: ArrayLike = FOURBAR_LENGTHS,
    density: float = 2.0,
    gravity: float = GRAVITY,
) -> float:
    """Crank acceleration of the free four-bar in the independent coordinate ``theta``.

    With ``qd = V theta_d`` and ``qdd = V thetadd + qdd_p`` (``qdd_p``: the
    acceleration with ``thetadd = 0``), virtual work gives
    ``V^T M V thetadd = V^T (f - M qdd_p)``.
    Explained in :ref:`sec-cd-representations`.

    Parameters
    ----------
    theta, theta_d : float
        Crank angle (rad) and rate (rad/s).
    lengths : array_like, shape (4,)
        Ground, crank, coupler, rocker lengths (m).
    density : float
        Mass per length (kg/m).
    gravity : float
        Along ``-y`` (m/s^2).

    Returns
    -------
    float
        ``thetadd`` (rad/s^2).

    Examples
    --------
    The result equals the maximal-coordinate KKT solution:

    >>> from lib.constraints import kkt_solve
    >>> q, qd = fourbar_state(0.5, 2.0)
    >>> M, f = fourbar_dynamics()
    >>> _, J, gamma = fourbar_constraints(q, qd)
    >>> a = fourbar_independent_acceleration(0.5, 2.0)
    >>> bool(np.isclose(a, kkt_solve(M, J, f, gamma).qdd[2], rtol=1e-10))
    True
    """
    q = fourbar_configuration(theta, lengths)
    joints = fourbar_joints(lengths)
    _, J, _ = planar_pin_joints(q, np.zeros(9), joints)
    V = actuated_velocity_map(J, [2])[:, 0]
    qd = V * real_number(theta_d, "theta_d")
    _, _, gamma = planar_pin_joints(q, qd, joints)
    M, f = fourbar_dynamics(lengths, density, gravity)
    Jfull = np.vstack([J, np.eye(9)[2]])
    qdd_p = np.linalg.solve(Jfull, np.concatenate([gamma, [0.0]]))
    return float(V @ (f - M @ qdd_p) / (V @ M @ V))
