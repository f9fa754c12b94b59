"""Newton-Euler equations and torque-free rotation of one rigid body.

Conventions: twist ``(omega, v)``, wrench ``(moment, force)``, SI units.
Body-frame quantities are expressed in a frame ``{b}`` fixed to the body;
where it matters ``{b}`` sits at the centre of mass.
"""

from __future__ import annotations

from typing import Callable

import numpy as np
from numpy.typing import ArrayLike

from ._validation import (
    FloatArray,
    as_array,
    as_spatial_inertia,
    as_rotation,
    as_vector,
    positive,
    positive_array,
)
from .errors import NonPhysicalInertiaError, ShapeError
from .inertia import check_physical_inertia
from .spatial import ad

__all__ = [
    "newton_euler_wrench",
    "spatial_newton_euler",
    "euler_rates",
    "torque_free_rhs",
    "rotational_energy",
    "angular_momentum",
    "intermediate_axis_rate_squared",
    "world_frame_euler",
]


def _cross(a: FloatArray, b: FloatArray) -> FloatArray:
    """a x b over the last axis (np.cross is ~10x slower for 3-vectors)."""
    if a.ndim == 1 and b.ndim == 1:
        a0, a1, a2 = a.tolist()
        b0, b1, b2 = b.tolist()
        return np.array([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0])
    out = np.empty(np.broadcast_shapes(a.shape, b.shape))
    out[..., 0] = a[..., 1] * b[..., 2] - a[..., 2] * b[..., 1]
    out[..., 1] = a[..., 2] * b[..., 0] - a[..., 0] * b[..., 2]
    out[..., 2] = a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]
    return out


def _omega(value: ArrayLike, name: str) -> FloatArray:
    """A (3,) or (n, 3) array of angular velocities."""
    if np.ndim(value) == 2:
        return as_array(value, name, (None, 3))
    return as_vector(value, name, 3)


def newton_euler_wrench(
    mass: float,
    inertia_com: ArrayLike,
    omega: ArrayLike,
    omega_dot: ArrayLike,
    v: ArrayLike,
    v_dot: ArrayLike,
) -> FloatArray:
    """Wrench on a rigid body from its motion, body frame at the COM.

    ``f = m (v_dot + omega x v)`` and ``m = I omega_dot + omega x I omega``,
    all in the body frame ``{b}`` at the centre of mass; ``v`` is the COM
    velocity in ``{b}`` and ``v_dot`` the time derivative of those components.
    Explained in :ref:`sec-rb-newton-euler`.

    Parameters
    ----------
    mass : float
        Mass, kg, > 0.
    inertia_com : array_like, shape (3, 3)
        Inertia about the COM in ``{b}``, kg m^2 (physical).
    omega, omega_dot : array_like, shape (3,)
        Angular velocity (rad/s) and its derivative (rad/s^2) in ``{b}``.
    v, v_dot : array_like, shape (3,)
        COM velocity (m/s) and the derivative of its ``{b}`` components (m/s^2).

    Returns
    -------
    numpy.ndarray, shape (6,)
        Total wrench ``(moment about the COM, force)`` in ``{b}``, N m and N.

    Raises
    ------
    NonPositiveMassError, NonSymmetricError, NonPhysicalInertiaError, ShapeError, NonFiniteError
        On bad input.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.rigid_body import newton_euler_wrench
    >>> F = newton_euler_wrench(2.0, np.diag([0.1, 0.2, 0.3]), [0.0, 0.0, 1.0], [0, 0, 0], [1.0, 0, 0], [0, 0, 0])
    >>> print(np.round(F, 6))  # centripetal force of a body moving on a circle
    [0. 0. 0. 0. 2. 0.]
    """
    m = positive(mass, "mass")
    i_c = check_physical_inertia(inertia_com, "inertia_com")
    w = as_vector(omega, "omega", 3)
    wd = as_vector(omega_dot, "omega_dot", 3)
    vel = as_vector(v, "v", 3)
    vd = as_vector(v_dot, "v_dot", 3)
    moment = i_c @ wd + np.cross(w, i_c @ w)
    force = m * (vd + np.cross(w, vel))
    return np.concatenate([moment, force])


def spatial_newton_euler(G: ArrayLike, V: ArrayLike, V_dot: ArrayLike) -> FloatArray:
    """Rigid-body equation of motion in any body-fixed frame: ``F = G V_dot - ad_V^T (G V)``.

    Explained in :ref:`sec-rb-spatial`.

    Parameters
    ----------
    G : array_like, shape (6, 6)
        Spatial inertia in a body-fixed frame ``{f}`` (need not be at the COM).
    V, V_dot : array_like, shape (6,)
        Twist ``(omega, v)`` of ``{f}`` in ``{f}`` and its derivative.

    Returns
    -------
    numpy.ndarray, shape (6,)
        Wrench ``(moment about {f}'s origin, force)`` in ``{f}``.

    Raises
    ------
    NonSymmetricError, NonPhysicalInertiaError, ShapeError, NonFiniteError
        On bad input.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.spatial import spatial_inertia
    >>> from lib.rigid_body import spatial_newton_euler
    >>> G = spatial_inertia(2.0, np.diag([0.1, 0.2, 0.3]))
    >>> print(np.round(spatial_newton_euler(G, [0, 0, 1.0, 1.0, 0, 0], np.zeros(6)), 6))
    [0. 0. 0. 0. 2. 0.]
    """
    g = as_spatial_inertia(G, "G")
    twist = as_vector(V, "V", 6)
    accel = as_vector(V_dot, "V_dot", 6)
    return g @ accel - ad(twist).T @ (g @ twist)


def _invertible_inertia(inertia: ArrayLike) -> FloatArray:
    i_b = check_physical_inertia(inertia, "inertia")
    moments = np.linalg.eigvalsh(i_b)
    if moments[0] <= 1e-12 * moments[2]:
        raise NonPhysicalInertiaError(
            f"inertia is singular (principal moments {moments}): a body whose mass lies on a "
            "line has no finite angular acceleration about that line; Euler's equation needs "
            "a positive definite inertia"
        )
    return i_b


def euler_rates(inertia: ArrayLike, omega: ArrayLike, torque: ArrayLike | None = None) -> FloatArray:
    """Angular acceleration from Euler's equation: ``omega_dot = I^-1 (tau - omega x I omega)``.

    Body frame ``{b}``, torque about the COM. Vectorised: ``omega`` (and
    ``torque``) may be a stack of shape ``(n, 3)``. Explained in
    :ref:`sec-rb-torque-free`.

    Parameters
    ----------
    inertia : array_like, shape (3, 3)
        Inertia about the COM in ``{b}``, kg m^2 (physical, positive definite).
    omega : array_like, shape (3,) or (n, 3)
        Angular velocity in ``{b}``, rad/s.
    torque : array_like, shape (3,) or (n, 3), optional
        Applied moment about the COM in ``{b}``, N m (default zero).

    Returns
    -------
    numpy.ndarray, same shape as ``omega``
        ``omega_dot`` in ``{b}``, rad/s^2.

    Raises
    ------
    NonPhysicalInertiaError
        If the inertia is not physical or singular.
    NonSymmetricError, ShapeError, NonFiniteError
        On bad input.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.rigid_body import euler_rates
    >>> print(np.round(euler_rates(np.diag([1.0, 2.0, 3.0]), [1.0, 1.0, 1.0]), 6))
    [-1.  1. -0.33333]
    """
    i_b = _invertible_inertia(inertia)
    w = _omega(omega, "omega")
    tau = np.zeros_like(w) if torque is None else as_array(torque, "torque", w.shape)
    rhs = tau - _cross(w, w @ i_b)  # w @ I = (I w)^T since I is symmetric
    return np.linalg.solve(i_b, rhs.T).T


def torque_free_rhs(inertia: ArrayLike) -> Callable[[float, FloatArray], FloatArray]:
    """Right-hand side ``f(t, omega) = -I^-1 (omega x I omega)`` for an ODE solver.

    Validates the inertia once; the returned function accepts ``(3,)`` or
    ``(n, 3)`` states, so :func:`lib.integrate.rk4` can integrate many
    initial conditions at once. Explained in :ref:`sec-rb-torque-free`.

    Parameters
    ----------
    inertia : array_like, shape (3, 3)
        Inertia about the COM in the body frame, kg m^2.

    Returns
    -------
    callable
        ``f(t, omega) -> omega_dot`` in the body frame, rad/s^2.

    Raises
    ------
    NonPhysicalInertiaError, NonSymmetricError, ShapeError, NonFiniteError
        On a bad inertia.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.rigid_body import torque_free_rhs
    >>> f = torque_free_rhs(np.diag([1.0, 2.0, 3.0]))
    >>> print(np.round(f(0.0, np.array([1.0, 1.0, 1.0])), 6))
    [-1.  1. -0.33333]
    """
    i_b = _invertible_inertia(inertia)
    i_inv = np.linalg.inv(i_b)

    def rhs(t: float, omega: FloatArray) -> FloatArray:
        w = np.asarray(omega, dtype=float)
        return -_cross(w, w @ i_b) @ i_inv.T

    return rhs


def rotational_energy(inertia: ArrayLike, omega: ArrayLike) -> FloatArray | float:
    """Rotational kinetic energy ``E = omega^T I omega / 2``, J.

    Vectorised over a stack of ``omega`` of shape ``(n, 3)``. Explained in
    :ref:`sec-rb-torque-free`.

    Parameters
    ----------
    inertia : array_like, shape (3, 3)
        Inertia about the COM (or a fixed point) in ``{b}``, kg m^2.
    omega : array_like, shape (3,) or (n, 3)
        Angular velocity in ``{b}``, rad/s.

    Returns
    -------
    float or numpy.ndarray, shape (n,)
        Energy, J.

    Raises
    ------
    NonPhysicalInertiaError, NonSymmetricError, ShapeError, NonFiniteError
        On bad input.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.rigid_body import rotational_energy
    >>> print(round(rotational_energy(np.diag([1.0, 2.0, 3.0]), [1.0, 1.0, 1.0]), 6))
    3.0
    """
    i_b = check_physical_inertia(inertia, "inertia")
    w = _omega(omega, "omega")
    energy = 0.5 * np.einsum("...i,ij,...j->...", w, i_b, w)
    return float(energy) if w.ndim == 1 else energy


def angular_momentum(inertia: ArrayLike, omega: ArrayLike) -> FloatArray:
    """Angular momentum ``h = I omega`` in the body frame, kg m^2/s.

    Its norm is conserved in torque-free motion. Vectorised over ``(n, 3)``.
    Explained in :ref:`sec-rb-torque-free`.

    Parameters
    ----------
    inertia : array_like, shape (3, 3)
        Inertia about the COM in ``{b}``, kg m^2.
    omega : array_like, shape (3,) or (n, 3)
        Angular velocity in ``{b}``, rad/s.

    Returns
    -------
    numpy.ndarray, same shape as ``omega``
        ``I omega`` in ``{b}``, kg m^2/s.

    Raises
    ------
    NonPhysicalInertiaError, NonSymmetricError, ShapeError, NonFiniteError
        On bad input.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.rigid_body import angular_momentum
    >>> print(angular_momentum(np.diag([1.0, 2.0, 3.0]), [1.0, 1.0, 1.0]))
    [1. 2. 3.]
    """
    i_b = check_physical_inertia(inertia, "inertia")
    return _omega(omega, "omega") @ i_b


def intermediate_axis_rate_squared(
    principal_moments: ArrayLike, axis: int, spin_rate: float
) -> float:
    """Squared frequency ``Omega_k^2`` of small wobbles about spin on a principal axis.

    ``Omega_k^2 = Omega^2 (I_k - I_a)(I_k - I_b) / (I_a I_b)`` where ``a, b``
    are the two other axes. Positive: the wobble oscillates at ``Omega_k``
    (stable, minimum or maximum axis). Negative: it grows like
    ``exp(sqrt(-Omega_k^2) t)`` (unstable, intermediate axis; tennis-racket
    effect). Explained in :ref:`sec-rb-torque-free`.

    Parameters
    ----------
    principal_moments : array_like, shape (3,)
        Principal moments ``(I_1, I_2, I_3)`` about the COM, kg m^2, > 0.
    axis : int
        Spin axis ``k`` in ``{0, 1, 2}``.
    spin_rate : float
        Spin rate ``Omega``, rad/s.

    Returns
    -------
    float
        ``Omega_k^2``, rad^2/s^2.

    Raises
    ------
    NonPositiveMassError, NonPhysicalInertiaError, ShapeError, NonFiniteError
        On non-positive or non-physical moments, a bad axis or spin rate.

    Examples
    --------
    >>> from lib.rigid_body import intermediate_axis_rate_squared
    >>> print(round(intermediate_axis_rate_squared([1.0, 2.0, 3.0], 1, 1.0), 6))  # unstable
    -0.333333
    """
    moments = positive_array(principal_moments, "principal_moments", (3,))
    check_physical_inertia(np.diag(moments), "diag(principal_moments)")
    if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)) or not 0 <= axis <= 2:
        raise ShapeError(f"axis must be 0, 1 or 2 (x, y or z principal axis), got {axis!r}")
    rate = float(as_vector([spin_rate], "spin_rate", 1)[0])
    k = int(axis)
    a, b = [i for i in range(3) if i != k]
    i_k, i_a, i_b = moments[k], moments[a], moments[b]
    return float(rate * rate * (i_k - i_a) * (i_k - i_b) / (i_a * i_b))


def world_frame_euler(
    inertia_body: ArrayLike, rotation: ArrayLike, omega_world: ArrayLike, omega_dot_world: ArrayLike
) -> FloatArray:
    """Euler's equation in the world frame: ``tau_w = I_w omega_dot_w + omega_w x I_w omega_w``.

    ``I_w = R I_b R^T`` depends on the orientation ``R = ^w R_b``; the result
    equals ``R`` times the body-frame moment, because ``d/dt I_w = [omega_w]
    I_w - I_w [omega_w]``. Explained in :ref:`sec-rb-newton-euler`.

    Parameters
    ----------
    inertia_body : array_like, shape (3, 3)
        Inertia about the COM in the body frame, kg m^2.
    rotation : array_like, shape (3, 3)
        Orientation ``^w R_b`` of the body in the world.
    omega_world, omega_dot_world : array_like, shape (3,)
        Angular velocity (rad/s) and acceleration (rad/s^2) in world components.

    Returns
    -------
    numpy.ndarray, shape (3,)
        Moment about the COM in world components, N m.

    Raises
    ------
    NotARotationError, NonPhysicalInertiaError, NonSymmetricError, ShapeError, NonFiniteError
        On bad input.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.rigid_body import world_frame_euler
    >>> Rz90 = np.array([[0.0, -1.0, 0.0], [1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    >>> print(np.round(world_frame_euler(np.diag([1.0, 2.0, 3.0]), Rz90, [0, 0, 0], [1.0, 0, 0]), 6))
    [2. 0. 0.]
    """
    i_b = check_physical_inertia(inertia_body, "inertia_body")
    r = as_rotation(rotation, "rotation")
    w = as_vector(omega_world, "omega_world", 3)
    wd = as_vector(omega_dot_world, "omega_dot_world", 3)
    i_w = r @ i_b @ r.T
    return i_w @ wd + np.cross(w, i_w @ w)
