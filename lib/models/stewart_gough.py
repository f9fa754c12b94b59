"""The 6-6 Stewart-Gough platform of chapter 3.11, with massless legs.

A spatial parallel mechanism: six legs join base points to platform points,
each pushing along its own line. World frame, SI units; the geometry is the
book's own illustrative choice, not data of a real robot.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .._validation import FloatArray, as_array, as_rotation, as_vector, positive, real_number
from ..common import GRAVITY
from ..constraints import MAX_CONDITION
from ..errors import ShapeError, SingularConstraintError
from ..rigid_body import world_frame_euler

__all__ = [
    "stewart_geometry",
    "stewart_wrench_matrix",
    "stewart_leg_forces",
]


def stewart_geometry(
    base_radius: float = 0.3,
    platform_radius: float = 0.15,
    beta_base: float = np.deg2rad(20.0),
    beta_platform: float = np.deg2rad(100.0),
) -> tuple[FloatArray, FloatArray]:
    """Attachment points of a 6-6 Stewart-Gough platform.

    Leg ``i = 2k + j`` (``k = 0, 1, 2``, ``s = -1, +1`` for ``j = 0, 1``)
    joins the base point at angle ``120 k deg + s beta_base / 2`` on the base
    circle to the platform point at ``120 k deg + s beta_platform / 2`` on the
    platform circle. With ``beta_base = beta_platform`` every leg lies in a
    plane through the central axis, no leg can exert a moment about that
    axis, and the platform is singular in every pose of the home family.
    Explained in :ref:`sec-cd-stewart`.

    Parameters
    ----------
    base_radius, platform_radius : float
        Circle radii (m).
    beta_base, beta_platform : float
        Angular spread of each pair of attachment points (rad).

    Returns
    -------
    base : numpy.ndarray, shape (6, 3)
        Base points, world frame (z = 0), m.
    platform : numpy.ndarray, shape (6, 3)
        Platform points in the platform frame (origin at the centre of mass), m.

    Examples
    --------
    >>> b, p = stewart_geometry()
    >>> np.round(np.linalg.norm(b[:, :2], axis=1), 6)
    array([0.3, 0.3, 0.3, 0.3, 0.3, 0.3])
    """
    rb = positive(base_radius, "base_radius")
    rp = positive(platform_radius, "platform_radius")
    bb = real_number(beta_base, "beta_base")
    bp = real_number(beta_platform, "beta_platform")
    k = np.repeat(np.arange(3), 2)
    s = np.tile([-1.0, 1.0], 3)
    ang_b = 2.0 * np.pi * k / 3.0 + s * bb / 2.0
    ang_p = 2.0 * np.pi * k / 3.0 + s * bp / 2.0
    base = np.stack([rb * np.cos(ang_b), rb * np.sin(ang_b), np.zeros(6)], axis=1)
    plat = np.stack([rp * np.cos(ang_p), rp * np.sin(ang_p), np.zeros(6)], axis=1)
    return base, plat


def stewart_wrench_matrix(
    position: ArrayLike, rotation: ArrayLike, base: ArrayLike, platform: ArrayLike
) -> FloatArray:
    """The 6 x 6 matrix ``S`` mapping leg forces to the wrench on the platform.

    Column ``i`` is ``[(r_i - p) x n_i; n_i]``: the unit wrench (moment about
    the platform's centre of mass ``p``, force; world frame) of a push of 1 N
    along leg ``i``, with ``r_i = p + R r_i^body`` and ``n_i`` the unit vector
    from the base point to ``r_i``.
    Explained in :ref:`sec-cd-stewart`.

    Parameters
    ----------
    position : array_like, shape (3,)
        Platform centre of mass ``p`` (m), world frame.
    rotation : array_like, shape (3, 3)
        Platform orientation ``R`` (world from platform).
    base : array_like, shape (6, 3)
        Base attachment points (m), world frame.
    platform : array_like, shape (6, 3)
        Platform attachment points (m), platform frame.

    Returns
    -------
    numpy.ndarray, shape (6, 6)

    Raises
    ------
    ShapeError
        If a leg has zero length.

    Examples
    --------
    >>> b, pl = stewart_geometry()
    >>> S = stewart_wrench_matrix([0, 0, 0.4], np.eye(3), b, pl)
    >>> np.round(np.linalg.norm(S[3:], axis=0), 6)
    array([1., 1., 1., 1., 1., 1.])
    """
    p = as_vector(position, "position", 3)
    R = as_rotation(rotation, "rotation")
    b = as_array(base, "base", (6, 3))
    pl = as_array(platform, "platform", (6, 3))
    r = p + pl @ R.T
    legs = r - b
    length = np.linalg.norm(legs, axis=1)
    if np.any(length <= 0.0):
        raise ShapeError(f"leg(s) {list(np.flatnonzero(length <= 0.0))} have zero length: base and platform points coincide")
    n = legs / length[:, None]
    return np.vstack([np.cross(r - p, n).T, n.T])


def stewart_leg_forces(
    position: ArrayLike,
    rotation: ArrayLike,
    base: ArrayLike,
    platform: ArrayLike,
    mass: float,
    inertia: ArrayLike,
    omega: ArrayLike = (0.0, 0.0, 0.0),
    alpha: ArrayLike = (0.0, 0.0, 0.0),
    acceleration: ArrayLike = (0.0, 0.0, 0.0),
    gravity: ArrayLike = (0.0, 0.0, -GRAVITY),
    *,
    max_condition: float = MAX_CONDITION,
) -> FloatArray:
    """Leg forces (push positive) of a Stewart-Gough platform with massless legs.

    Solves ``S f = [I_w alpha + omega x I_w omega; m (a_c - g)]`` with
    ``I_w = R I_b R^T`` (Newton-Euler about the centre of mass, world frame).
    A singular ``S`` (no unique leg forces) raises.
    Explained in :ref:`sec-cd-stewart`.

    Parameters
    ----------
    position : array_like, shape (3,)
        Centre of mass ``p`` (m), world frame.
    rotation : array_like, shape (3, 3)
        Orientation ``R`` (world from platform).
    base, platform : array_like, shape (6, 3)
        Attachment points (world; platform frame), m.
    mass : float
        Platform mass (kg).
    inertia : array_like, shape (3, 3)
        Centroidal inertia in the platform frame (kg m^2).
    omega, alpha : array_like, shape (3,)
        Angular velocity (rad/s) and acceleration (rad/s^2), world frame.
    acceleration : array_like, shape (3,)
        Acceleration of the centre of mass (m/s^2), world frame.
    gravity : array_like, shape (3,)
        Gravity vector (m/s^2), world frame.
    max_condition : float
        Largest accepted condition number of ``S``.

    Returns
    -------
    numpy.ndarray, shape (6,)
        Leg forces (N), positive when the leg pushes the platform away from the base.

    Raises
    ------
    SingularConstraintError
        At a singular geometry or pose (condition number of ``S`` too large).

    Examples
    --------
    At rest the vertical components of the leg forces carry the weight:

    >>> b, pl = stewart_geometry()
    >>> f = stewart_leg_forces([0, 0, 0.4], np.eye(3), b, pl, 2.0, np.diag([0.01, 0.01, 0.02]))
    >>> S = stewart_wrench_matrix([0, 0, 0.4], np.eye(3), b, pl)
    >>> round(float(S[5] @ f), 6)
    19.62
    """
    S = stewart_wrench_matrix(position, rotation, base, platform)
    m = positive(mass, "mass")
    a = as_vector(acceleration, "acceleration", 3)
    g = as_vector(gravity, "gravity", 3)
    torque = world_frame_euler(inertia, rotation, omega, alpha)  # checks the inertia is physical
    wrench = np.concatenate([torque, m * (a - g)])
    _, sv, Vt = np.linalg.svd(S)
    cond = float(sv[0] / sv[-1]) if sv[-1] > 0.0 else np.inf
    if not cond <= max_condition:
        v = Vt[-1]
        legs = ", ".join(f"{i} ({v[i]:+.2f})" for i in np.flatnonzero(np.abs(v) > 0.1 * np.abs(v).max()))
        raise SingularConstraintError(
            f"the Stewart-Gough platform is at a singular configuration: S (6 x 6) has sigma_min = "
            f"{sv[-1]:.3g} and condition number {cond:.3g} > {max_condition:.3g}, so the leg forces are "
            f"not unique; pushing legs {legs} in these proportions produces (almost) no wrench"
        )
    return np.linalg.solve(S, wrench)
