"""The planar five-bar parallel mechanism of chapter 3.11.

Four uniform rods in maximal coordinates (:mod:`lib.models.planar_bodies`):
two proximal links driven at the base pivots and two distal links joined at
the end point, in a vertical plane with gravity along ``-y``. Geometry and
density are the book's own illustrative choices.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .._validation import FloatArray, as_vector, positive_array
from ..common import GRAVITY
from ..constraints import check_constraint_jacobian
from ..errors import SingularConstraintError
from .planar_bodies import PinJoint, _circle_intersection, planar_pin_joints, rod_mass_matrix

__all__ = [
    "FIVEBAR_GEOMETRY",
    "FIVEBAR_ACTUATED",
    "fivebar_joints",
    "fivebar_dynamics",
    "fivebar_constraints",
    "fivebar_configuration",
    "fivebar_motion",
]


#: Half-distance between the base pivots, proximal and distal lengths (m).
#: The distal links become collinear (actuator singularity) at ``P = (0, 0.15)``.
FIVEBAR_GEOMETRY = (0.1, 0.25, 0.3)


#: Indices of the actuated coordinates (the two proximal link angles).
FIVEBAR_ACTUATED = (2, 8)


def _fivebar_geometry(geometry: ArrayLike) -> FloatArray:
    return positive_array(geometry, "geometry (base half-width, proximal, distal)", (3,))


def fivebar_joints(geometry: ArrayLike = FIVEBAR_GEOMETRY) -> list[PinJoint]:
    """The five pin joints (ten loop constraints) of the planar five-bar.

    Bodies: 0 left proximal (``A1 = (-a, 0)`` to ``B1``), 1 left distal
    (``B1`` to ``P``), 2 right proximal (``A2 = (a, 0)`` to ``B2``), 3 right
    distal (``B2`` to ``P``). The last joint closes the loop at ``P``.
    Explained in :ref:`sec-cd-parallel`.

    Parameters
    ----------
    geometry : array_like, shape (3,)
        Base half-width ``a``, proximal and distal lengths (m).

    Returns
    -------
    list of PinJoint

    Examples
    --------
    >>> len(fivebar_joints())
    5
    """
    a, l1, l2 = _fivebar_geometry(geometry)
    return [
        PinJoint(0, (-l1 / 2, 0.0), None, (-a, 0.0)),
        PinJoint(0, (l1 / 2, 0.0), 1, (-l2 / 2, 0.0)),
        PinJoint(2, (-l1 / 2, 0.0), None, (a, 0.0)),
        PinJoint(2, (l1 / 2, 0.0), 3, (-l2 / 2, 0.0)),
        PinJoint(1, (l2 / 2, 0.0), 3, (l2 / 2, 0.0)),
    ]


def fivebar_dynamics(
    geometry: ArrayLike = FIVEBAR_GEOMETRY, density: float = 2.0, gravity: float = GRAVITY
) -> tuple[FloatArray, FloatArray]:
    """Mass matrix (12 x 12) and gravity force of the five-bar's four rods.

    Explained in :ref:`sec-cd-parallel`.

    Parameters
    ----------
    geometry : array_like, shape (3,)
        Base half-width, proximal and distal lengths (m).
    density : float
        Mass per length (kg/m).
    gravity : float
        Along ``-y`` (m/s^2).

    Returns
    -------
    M : numpy.ndarray, shape (12, 12)
    f : numpy.ndarray, shape (12,)

    Examples
    --------
    >>> M, f = fivebar_dynamics()
    >>> round(float(-f.sum()), 6)
    21.582
    """
    _, l1, l2 = _fivebar_geometry(geometry)
    return rod_mass_matrix([l1, l2, l1, l2], density, gravity)


def fivebar_constraints(
    q: ArrayLike, qd: ArrayLike, geometry: ArrayLike = FIVEBAR_GEOMETRY
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """``Phi``, ``J`` (10 x 12) and ``gamma`` of the five-bar's loop constraints.

    Explained in :ref:`sec-cd-parallel`.

    Parameters
    ----------
    q, qd : array_like, shape (12,)
        Maximal coordinates and velocities.
    geometry : array_like, shape (3,)
        Base half-width, proximal and distal lengths (m).

    Returns
    -------
    Phi, J, gamma : numpy.ndarray
        Shapes ``(10,)``, ``(10, 12)``, ``(10,)``.

    Examples
    --------
    >>> _, J, _ = fivebar_constraints(fivebar_configuration([0.0, 0.3]), np.zeros(12))
    >>> J.shape
    (10, 12)
    """
    return planar_pin_joints(as_vector(q, "q", 12), as_vector(qd, "qd", 12), fivebar_joints(geometry))


def fivebar_configuration(p: ArrayLike, geometry: ArrayLike = FIVEBAR_GEOMETRY) -> FloatArray:
    """Maximal coordinates of the five-bar with its end point at ``p`` (elbows out).

    Inverse kinematics by circle intersection: the left elbow ``B1`` lies to
    the left of ``A1 -> P``, the right elbow ``B2`` to the right of ``A2 -> P``.
    Explained in :ref:`sec-cd-parallel`.

    Parameters
    ----------
    p : array_like, shape (2,)
        End-point position (m), world frame.
    geometry : array_like, shape (3,)
        Base half-width, proximal and distal lengths (m).

    Returns
    -------
    numpy.ndarray, shape (12,)

    Raises
    ------
    UnreachableTargetError
        If ``p`` is out of reach of either leg.

    Examples
    --------
    At the actuator singularity both distal links are horizontal:

    >>> q = fivebar_configuration([0.0, 0.15])
    >>> np.round(np.cos(q[[5, 11]]), 6)
    array([ 1., -1.])
    """
    a, l1, l2 = _fivebar_geometry(geometry)
    P = as_vector(p, "p", 2)
    q = np.zeros(12)
    for k, (A, left) in enumerate(((np.array([-a, 0.0]), True), (np.array([a, 0.0]), False))):
        B = _circle_intersection(A, l1, P, l2, left=left, what=f"leg {k + 1} of the five-bar at p = {P}")
        q[6 * k : 6 * k + 3] = [*((A + B) / 2), np.arctan2(*(B - A)[::-1])]
        q[6 * k + 3 : 6 * k + 6] = [*((B + P) / 2), np.arctan2(*(P - B)[::-1])]
    return q


def fivebar_motion(
    p: ArrayLike, pd: ArrayLike, pdd: ArrayLike, geometry: ArrayLike = FIVEBAR_GEOMETRY
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """State and acceleration of the five-bar for a prescribed end-point motion.

    The loop constraints plus the two end-point constraints
    ``p_left distal tip - p(t) = 0`` make a square system:
    ``[J_loop; J_p] qd = [0; pd]`` and ``[J_loop; J_p] qdd = [gamma_loop;
    gamma_p + pdd]``.
    Explained in :ref:`sec-cd-parallel`.

    Parameters
    ----------
    p, pd, pdd : array_like, shape (2,)
        End-point position (m), velocity (m/s) and acceleration (m/s^2), world frame.
    geometry : array_like, shape (3,)
        Base half-width, proximal and distal lengths (m).

    Returns
    -------
    q, qd, qdd : numpy.ndarray, shape (12,)

    Raises
    ------
    SingularConstraintError
        At a serial (inverse-kinematic) singularity.

    Examples
    --------
    The end point (tip of the left distal link) follows the prescribed velocity:

    >>> q, qd, qdd = fivebar_motion([0.0, 0.3], [0.1, 0.0], [0.0, 0.0])
    >>> phi = q[5]
    >>> tip_velocity = qd[3:5] + 0.15 * qd[5] * np.array([-np.sin(phi), np.cos(phi)])
    >>> np.round(tip_velocity, 6) + 0.0
    array([0.1, 0. ])
    """
    _, _, l2 = _fivebar_geometry(geometry)
    P = as_vector(p, "p", 2)
    Pd = as_vector(pd, "pd", 2)
    Pdd = as_vector(pdd, "pdd", 2)
    q = fivebar_configuration(P, geometry)
    tip = [PinJoint(1, (l2 / 2, 0.0), None, P)]
    _, Jl, _ = fivebar_constraints(q, np.zeros(12), geometry)
    _, Jp, _ = planar_pin_joints(q, np.zeros(12), tip)
    A = np.vstack([Jl, Jp])
    try:
        check_constraint_jacobian(A, name="[J_loop; J_tip]")
    except SingularConstraintError as exc:
        raise SingularConstraintError(f"serial singularity of the five-bar at p = {P}: {exc}") from None
    qd = np.linalg.solve(A, np.concatenate([np.zeros(10), Pd]))
    _, _, gl = fivebar_constraints(q, qd, geometry)
    _, _, gp = planar_pin_joints(q, qd, tip)
    qdd = np.linalg.solve(A, np.concatenate([gl, gp + Pdd]))
    return q, qd, qdd
