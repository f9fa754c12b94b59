"""Soft (compliant) contact: Hertz, Kelvin-Voigt and Hunt-Crossley force laws.

A soft contact lets the bodies overlap by a penetration ``x >= 0`` and sets
the normal force from ``x`` and its rate ``xdot`` (positive while the bodies
approach). This module holds the force laws, the closed forms of the elastic
Hertz collision (peak penetration, contact time, the constant ``c_T``), the
explicit-integration step limit, and a small RK4 integrator for a mass that
strikes a soft wall. Explained in chapter 3.12.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np
from numpy.typing import ArrayLike
from scipy.special import beta as _beta

from ._validation import (FloatArray, as_any_array, as_function, in_range, nonnegative, positive,
                          positive_int)
from .errors import ConvergenceError, ShapeError
from .integrate import rk4_step

__all__ = [
    "hertz_stiffness",
    "hertz_force",
    "kelvin_voigt_force",
    "kelvin_voigt_damping",
    "kelvin_voigt_restitution",
    "hunt_crossley_force",
    "hunt_crossley_restitution_estimate",
    "contact_time_constant",
    "hertz_max_penetration",
    "hertz_contact_time",
    "hertz_peak_force",
    "explicit_step_limit",
    "CollisionResult",
    "simulate_collision",
    "simulate_hunt_crossley_impact",
]


def _is_infinite(value) -> bool:
    return isinstance(value, (int, float, np.floating)) and value == np.inf


def _state(x: ArrayLike, name: str) -> FloatArray:
    return as_any_array(x, name)


def _state_pair(x: ArrayLike, xdot: ArrayLike) -> tuple[FloatArray, FloatArray]:
    """Penetration and rate as arrays of the same shape (a scalar may pair with any shape).

    Mismatched shapes such as (3, 1) and (3,) would broadcast to a silent
    3 x 3 outer product; they raise :class:`lib.errors.ShapeError` instead.
    """
    xx, vv = _state(x, "x"), _state(xdot, "xdot")
    if xx.ndim and vv.ndim and xx.shape != vv.shape:
        raise ShapeError(
            f"x and xdot must have the same shape (or one be a scalar), got {xx.shape} and {vv.shape}"
        )
    xx, vv = np.broadcast_arrays(xx, vv)
    return xx, vv


def hertz_stiffness(
    radius_1: float,
    youngs_1: float,
    poisson_1: float,
    radius_2: float = np.inf,
    youngs_2: float = np.inf,
    poisson_2: float = 0.0,
) -> float:
    """Hertz coefficient ``k = 4/3 E* sqrt(R*)`` of two spheres (body 2 defaults to a rigid plane).

    ``1/E* = (1 - nu_1^2)/E_1 + (1 - nu_2^2)/E_2`` and
    ``1/R* = 1/R_1 + 1/R_2``; an infinite radius is a plane, an infinite
    modulus a rigid body. The force is then ``F = k x^(3/2)``.
    Explained in :ref:`sec-ci-hertz`.

    Parameters
    ----------
    radius_1, radius_2 : float
        Radii, m (``inf`` for a plane).
    youngs_1, youngs_2 : float
        Young's moduli, Pa (``inf`` for rigid).
    poisson_1, poisson_2 : float
        Poisson ratios in ``[0, 0.5]``.

    Returns
    -------
    float
        ``k`` in N / m^(3/2).

    Examples
    --------
    >>> round(hertz_stiffness(0.01, 200e9, 0.3) / 1e9, 4)   # 10 mm steel ball on a rigid plane
    29.304
    """
    r1, e1 = positive(radius_1, "radius_1"), positive(youngs_1, "youngs_1")
    # an infinite radius is a plane, an infinite modulus a rigid body; any other value must be positive
    r2 = np.inf if _is_infinite(radius_2) else positive(radius_2, "radius_2 (inf for a plane)")
    e2 = np.inf if _is_infinite(youngs_2) else positive(youngs_2, "youngs_2 (inf for rigid)")
    poisson_1, poisson_2 = (in_range(value, f"{name} (Poisson's ratio)", 0.0, 0.5)
                            for value, name in ((poisson_1, "poisson_1"), (poisson_2, "poisson_2")))
    e_star = 1.0 / ((1.0 - poisson_1**2) / e1 + (1.0 - poisson_2**2) / e2)
    r_star = 1.0 / (1.0 / r1 + 1.0 / r2)
    return float(4.0 / 3.0 * e_star * np.sqrt(r_star))


def hertz_force(k: float, x: ArrayLike) -> FloatArray:
    """Elastic Hertz force ``F = k x^(3/2)`` for ``x > 0`` and zero otherwise.

    Explained in :ref:`sec-ci-hertz`.

    Parameters
    ----------
    k : float
        Hertz coefficient, N / m^(3/2) (:func:`hertz_stiffness`).
    x : array_like
        Penetration, m.

    Returns
    -------
    numpy.ndarray
        Force, N (compressive positive).

    Examples
    --------
    >>> hertz_force(1e9, [-1e-4, 1e-4])
    array([   0., 1000.])
    """
    kk = positive(k, "stiffness k")
    xx = _state(x, "x")
    return kk * np.maximum(xx, 0.0) ** 1.5


def kelvin_voigt_force(k: float, c: float, x: ArrayLike, xdot: ArrayLike, *, tension: bool = True) -> FloatArray:
    """Linear spring-damper ``F = k x + c xdot`` while ``x > 0``.

    At first touch (``x = 0``, ``xdot = v0``) the force jumps to ``c v0``;
    near separation ``xdot < 0`` makes it negative (the wall pulls). With
    ``tension=False`` the force is clipped at zero. Explained in
    :ref:`sec-ci-soft-damping`.

    Parameters
    ----------
    k : float
        Stiffness, N/m.
    c : float
        Damping, N s/m (>= 0).
    x, xdot : array_like
        Penetration (m) and its rate (m/s, positive while approaching).
    tension : bool, optional
        Allow negative (pulling) forces.

    Returns
    -------
    numpy.ndarray

    Examples
    --------
    >>> kelvin_voigt_force(1000.0, 10.0, [0.0, 0.01, 1e-9], [2.0, 0.0, -2.0])
    array([  0.     ,  10.     , -19.99999])
    """
    kk, cc = positive(k, "stiffness k"), nonnegative(c, "damping c")
    xx, vv = _state_pair(x, xdot)
    force = np.where(xx > 0.0, kk * xx + cc * vv, 0.0)
    return force if tension else np.maximum(force, 0.0)


def kelvin_voigt_damping(zeta: float, k: float, mass: float) -> float:
    """Damping ``c = 2 zeta sqrt(k m)`` for a damping ratio ``zeta``.

    Explained in :ref:`sec-ci-soft-damping`.

    Examples
    --------
    >>> kelvin_voigt_damping(0.5, 100.0, 1.0)
    10.0
    """
    return float(2.0 * nonnegative(zeta, "zeta") * np.sqrt(positive(k, "stiffness k") * positive(mass, "mass")))


def kelvin_voigt_restitution(zeta: float) -> float:
    """Coefficient of restitution of the linear spring-damper contact (tension allowed).

    ``e = exp(-pi zeta / sqrt(1 - zeta^2))`` for ``zeta < 1``, independent of
    the impact speed; ``e = 0`` for ``zeta >= 1`` (the mass creeps back to
    ``x = 0`` without overshooting). Explained in :ref:`sec-ci-soft-damping`.

    Examples
    --------
    >>> round(kelvin_voigt_restitution(0.1), 6)
    0.729248
    """
    z = nonnegative(zeta, "zeta")
    if z >= 1.0:
        return 0.0
    return float(np.exp(-np.pi * z / np.sqrt(1.0 - z * z)))


def hunt_crossley_force(k: float, alpha: float, x: ArrayLike, xdot: ArrayLike) -> FloatArray:
    """Hunt-Crossley force ``F = k x^(3/2) (1 + 3/2 alpha xdot)``, clipped at zero.

    The damping is multiplied by the elastic force, so ``F = 0`` at first
    touch and at separation (no jump, no pull). ``alpha`` is in s/m.
    Explained in :ref:`sec-ci-soft-damping`.

    Parameters
    ----------
    k : float
        Hertz coefficient, N / m^(3/2).
    alpha : float
        Damping parameter, s/m (>= 0).
    x, xdot : array_like
        Penetration (m) and its rate (m/s, positive while approaching).

    Returns
    -------
    numpy.ndarray

    Examples
    --------
    >>> hunt_crossley_force(1e6, 0.2, [0.0, 1e-4, 1e-4], [1.0, 1.0, -1.0])
    array([0. , 1.3, 0.7])
    """
    kk, aa = positive(k, "stiffness k"), nonnegative(alpha, "alpha")
    xx, vv = _state_pair(x, xdot)
    return np.maximum(kk * np.maximum(xx, 0.0) ** 1.5 * (1.0 + 1.5 * aa * vv), 0.0)


def hunt_crossley_restitution_estimate(alpha: float, v0: float) -> float:
    """First-order estimate ``e ~ 1 - alpha v0`` of the Hunt-Crossley restitution.

    Accurate for small ``alpha v0``; the chapter measures how small.
    Explained in :ref:`sec-ci-soft-damping`.

    Examples
    --------
    >>> hunt_crossley_restitution_estimate(0.1, 0.5)
    0.95
    """
    return 1.0 - nonnegative(alpha, "alpha") * positive(v0, "impact speed v0")


def contact_time_constant() -> float:
    """``c_T = 2 int_0^1 dx / sqrt(1 - x^(5/2)) = (4/5) B(2/5, 1/2) = 2.9433...``.

    The elastic Hertz contact lasts ``c_T delta_max / v0``. Substituting
    ``u = x^(5/2)`` turns the integral into a Beta function.
    Explained in :ref:`sec-ci-hertz`.

    Examples
    --------
    >>> round(contact_time_constant(), 4)
    2.9433
    """
    return float(0.8 * _beta(0.4, 0.5))


def hertz_max_penetration(mass: float, v0: float, k: float) -> float:
    """Peak penetration ``delta_max = (5 m v0^2 / (4 k))^(2/5)`` of an elastic Hertz impact.

    From energy conservation ``m v0^2 / 2 = (2/5) k delta_max^(5/2)``.
    Explained in :ref:`sec-ci-hertz`.

    Examples
    --------
    >>> round(hertz_max_penetration(1.0, 1.0, 1.25e9) * 1e3, 6)   # mm
    0.251189
    """
    m, v, kk = positive(mass, "mass"), positive(v0, "impact speed v0"), positive(k, "stiffness k")
    return (5.0 * m * v * v / (4.0 * kk)) ** 0.4


def hertz_contact_time(mass: float, v0: float, k: float) -> float:
    """Duration ``T_c = c_T delta_max / v0`` of an elastic Hertz impact, s.

    Explained in :ref:`sec-ci-hertz`.

    Examples
    --------
    >>> round(hertz_contact_time(1.0, 1.0, 1.25e9) * 1e6, 3)   # microseconds
    739.317
    """
    return contact_time_constant() * hertz_max_penetration(mass, v0, k) / positive(v0, "impact speed v0")


def hertz_peak_force(mass: float, v0: float, k: float) -> float:
    """Peak force ``k delta_max^(3/2)`` of an elastic Hertz impact, N.

    Explained in :ref:`sec-ci-hertz`.

    Examples
    --------
    >>> round(hertz_peak_force(1.0, 1.0, 1.25e9), 3)
    4976.34
    """
    return positive(k, "stiffness k") * hertz_max_penetration(mass, v0, k) ** 1.5


def explicit_step_limit(mass: float, k: float, delta_max: float) -> float:
    """Explicit-integration step limit ``2 / omega`` at the stiffest point of a Hertz contact.

    The tangent stiffness at ``delta_max`` is ``k_eff = 3/2 k sqrt(delta_max)``
    and ``omega = sqrt(k_eff / m)``; explicit schemes need roughly
    ``dt < 2 / omega`` to stay stable. Explained in :ref:`sec-ci-hertz`.

    Examples
    --------
    >>> round(explicit_step_limit(1.0, 1.25e9, 2.5e-4) * 1e6, 3)   # microseconds
    367.32
    """
    m, kk, d = positive(mass, "mass"), positive(k, "stiffness k"), positive(delta_max, "delta_max")
    return float(2.0 / np.sqrt(1.5 * kk * np.sqrt(d) / m))


@dataclass(frozen=True)
class CollisionResult:
    """History and summary of one simulated collision (see :func:`simulate_collision`).

    Attributes
    ----------
    t, x, xdot, force : numpy.ndarray
        Time (s), penetration (m), its rate (m/s) and contact force (N) at
        every step, from first touch to the last step inside.
    restitution : float
        Exit speed over impact speed.
    contact_time : float
        Time from first touch to separation, s (interpolated).
    max_penetration : float
        Largest penetration, m.
    peak_force, min_force : float
        Largest and smallest contact force, N (negative means tension).
    """

    t: FloatArray
    x: FloatArray
    xdot: FloatArray
    force: FloatArray
    restitution: float
    contact_time: float
    max_penetration: float
    peak_force: float
    min_force: float


def simulate_collision(
    force_law: Callable[[float, float], float],
    mass: float,
    v0: float,
    dt: float,
    *,
    max_time: float | None = None,
) -> CollisionResult:
    """Integrate a mass striking a soft wall with classic RK4 until it separates.

    Solves ``m xddot = -F(x, xdot)`` from ``x = 0``, ``xdot = v0`` with fixed
    step ``dt`` (:func:`lib.integrate.rk4_step`); when ``x`` returns to zero, the last step is shortened
    (secant iteration) so that it ends exactly at ``x = 0``. The first stage is evaluated
    just inside the wall (``x = 0+``), so a law whose force jumps at first
    touch (Kelvin-Voigt) is seen from the start. The force law is assumed
    passive: a rebound faster than the impact means ``dt`` is too large.
    Explained in :ref:`sec-ci-soft-damping`.

    Parameters
    ----------
    force_law : callable
        ``F(x, xdot)`` in N for penetration ``x`` (m) and rate ``xdot`` (m/s).
    mass : float
        Mass, kg.
    v0 : float
        Impact speed (> 0), m/s.
    dt : float
        Step, s; take a small fraction of the contact time.
    max_time : float, optional
        Give up after this time (default ``10^6 dt``).

    Returns
    -------
    CollisionResult

    Raises
    ------
    ConvergenceError
        If the mass has not separated by ``max_time`` (for example an
        overdamped Kelvin-Voigt contact, whose restitution is zero), or the
        integration blew up or gained energy (``dt`` too large).

    Examples
    --------
    >>> r = simulate_collision(lambda x, v: 1e4 * x, 1.0, 1.0, 1e-5)   # linear spring
    >>> round(r.restitution, 6), round(r.contact_time, 6)           # pi sqrt(m/k) = 0.031416
    (1.0, 0.031416)
    """
    as_function(force_law, "force_law")
    m, v, h = positive(mass, "mass"), positive(v0, "impact speed v0"), positive(dt, "dt")
    limit = 1e6 * h if max_time is None else positive(max_time, "max_time")

    inside = np.nextafter(0.0, 1.0)  # first touch: the contact phase has begun

    def force(x: float, xd: float) -> float:
        return float(force_law(inside if x == 0.0 else x, xd))

    def accel(x: float, xd: float) -> float:
        return -force(x, xd) / m

    def rhs(_t: float, y: FloatArray) -> FloatArray:
        return np.array([y[1], accel(y[0], y[1])])

    def rk4(x: float, xd: float, step: float) -> tuple[float, float]:
        y = rk4_step(rhs, 0.0, np.array([x, xd]), step)
        return float(y[0]), float(y[1])

    x, xd, t = 0.0, v, 0.0
    ts, xs, vs, fs = [0.0], [0.0], [v], [force(0.0, v)]
    while t < limit:
        x_new, v_new = rk4(x, xd, h)
        if not (np.isfinite(x_new) and np.isfinite(v_new)):
            raise ConvergenceError(
                f"the collision integration blew up at t = {t:.3g} s; dt = {h:.3g} s is too large for this contact"
            )
        if x_new <= 0.0:
            if t == 0.0:
                raise ConvergenceError(
                    f"dt = {h:.3g} s is too large for this contact: the integration left the wall in its first step"
                )
            # Exit inside this step: find the partial step that ends at x = 0
            # (bracketed secant), so the last stages stay inside the contact.
            lo, hi, x_hi = 0.0, h, x_new
            x_lo = x
            part, v_exit = h, v_new
            for _ in range(60):
                part = hi - x_hi * (hi - lo) / (x_hi - x_lo) if x_hi != x_lo else 0.5 * (lo + hi)
                if not lo < part < hi:
                    part = 0.5 * (lo + hi)
                x_part, v_exit = rk4(x, xd, part)
                if abs(x_part) <= 1e-14 * max(xs) or hi - lo <= 1e-15 * h:
                    break
                if x_part > 0.0:
                    lo, x_lo = part, x_part
                else:
                    hi, x_hi = part, x_part
            if -v_exit > (1.0 + 1e-3) * v:
                raise ConvergenceError(
                    f"dt = {h:.3g} s is too large for this contact: the integration returned the mass "
                    f"faster ({-v_exit:.3g} m/s) than it arrived ({v:.3g} m/s)"
                )
            forces = np.asarray(fs)
            return CollisionResult(
                np.asarray(ts), np.asarray(xs), np.asarray(vs), forces,
                restitution=-v_exit / v,
                contact_time=t + part,
                max_penetration=float(np.max(xs)),
                peak_force=float(forces.max()),
                min_force=float(forces.min()),
            )
        x, xd, t = x_new, v_new, t + h
        ts.append(t)
        xs.append(x)
        vs.append(xd)
        fs.append(force(x, xd))
    raise ConvergenceError(
        f"the mass did not separate from the wall within {limit:.3g} s "
        "(an overdamped contact never lets go; its restitution is zero)"
    )


def simulate_hunt_crossley_impact(mass: float, v0: float, k: float, alpha: float,
                                  steps: int = 200) -> CollisionResult:
    """A Hunt-Crossley impact simulated with a step chosen from its contact time.

    :func:`simulate_collision` with :func:`hunt_crossley_force` and the step
    ``dt = T_c / steps``, ``T_c`` the duration of the elastic Hertz impact
    (:func:`hertz_contact_time`); it gives up after ``10 T_c``.
    Explained in :ref:`sec-ci-soft-damping`.

    Parameters
    ----------
    mass : float
        Mass, kg.
    v0 : float
        Impact speed (> 0), m/s.
    k : float
        Hertz coefficient, N / m^(3/2).
    alpha : float
        Damping parameter, s/m (>= 0).
    steps : int, optional
        RK4 steps per elastic contact time.

    Returns
    -------
    CollisionResult

    Examples
    --------
    >>> r = simulate_hunt_crossley_impact(0.5, 1.0, 1e9, 0.2)
    >>> round(r.restitution, 4), round(r.max_penetration * 1e3, 4)   # mm
    (0.8329, 0.1938)
    """
    kk, aa = positive(k, "stiffness k"), nonnegative(alpha, "alpha")
    n = positive_int(steps, "steps")
    duration = hertz_contact_time(mass, v0, kk)
    dt = duration / n
    return simulate_collision(lambda x, xd: hunt_crossley_force(kk, aa, x, xd), mass, v0, dt,
                              max_time=10.0 * duration)
