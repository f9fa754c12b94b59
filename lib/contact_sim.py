"""Penalty and rigid contact of a mass on a floor: the closed forms.

The numbers behind the fourth figure of the lesson "Contact and friction":
the natural frequency and damping of a spring-damper contact, the stable step
of semi-implicit Euler, the deepest penetration, the effective restitution
and the complementarity conditions of rigid contact. The ball drop that is
simulated and checked against them is :mod:`lib.models.ball_drop`. A gap is
in m (negative = penetration), velocity positive upward, and the normal
contact force ``f_n`` (N) pushes the bodies apart.
"""

from __future__ import annotations

import math

import numpy as np

from ._validation import in_range, positive

__all__ = [
    "natural_frequency",
    "critical_omega_dt",
    "stable_time_step",
    "step_amplification",
    "max_penetration",
    "effective_restitution_no_tension",
    "complementarity_state",
]


def natural_frequency(k: float, mass: float) -> float:
    """Natural frequency ``omega_n = sqrt(k / m)`` of a penalty contact.

    During contact the ball obeys ``m x'' = -m g + k delta + d delta'``, a
    linear oscillator with this frequency and damping ratio
    ``zeta = d / (2 sqrt(k m))``.
    Explained in :ref:`sec-cf-penalty`.

    Parameters
    ----------
    k : float
        Contact stiffness in N/m (> 0).
    mass : float
        Ball mass in kg (> 0).

    Returns
    -------
    float
        ``omega_n`` in rad/s.

    Examples
    --------
    >>> natural_frequency(1e6, 1.0)
    1000.0
    """
    return math.sqrt(positive(k, "k") / positive(mass, "mass"))


def critical_omega_dt(zeta: float = 0.0) -> float:
    """Largest stable ``omega_n * dt`` of semi-implicit Euler on a damped contact.

    One step of semi-implicit Euler on ``x'' = -omega_n^2 x - 2 zeta omega_n x'``
    (the damping force evaluated with the old velocity) multiplies ``(x, dt v)``
    by a matrix with trace ``2 - a^2 - 2 zeta a`` and determinant
    ``1 - 2 zeta a``, ``a = omega_n dt``. Its eigenvalues stay in the unit disc
    while ``a < 2 (sqrt(1 + zeta^2) - zeta)``, which is 2 without damping.
    Explained in :ref:`sec-cf-penalty`.

    Parameters
    ----------
    zeta : float, optional
        Damping ratio, ``0 <= zeta < 1``.

    Returns
    -------
    float
        The critical ``omega_n dt`` (dimensionless).

    Examples
    --------
    >>> critical_omega_dt(0.0), round(critical_omega_dt(0.1), 6)
    (2.0, 1.809975)
    """
    zeta = in_range(zeta, "zeta", 0.0, 1.0, high_open=True)
    return 2.0 * (math.sqrt(1.0 + zeta * zeta) - zeta)


def stable_time_step(k: float, mass: float, zeta: float = 0.0) -> float:
    """Largest stable semi-implicit Euler step for a penalty contact.

    ``dt_max = critical_omega_dt(zeta) / omega_n``; without damping
    ``2 sqrt(m / k)``.
    Explained in :ref:`sec-cf-penalty`.

    Parameters
    ----------
    k : float
        Contact stiffness in N/m (> 0).
    mass : float
        Ball mass in kg (> 0).
    zeta : float, optional
        Damping ratio, ``0 <= zeta < 1``.

    Returns
    -------
    float
        The step limit in s.

    Examples
    --------
    >>> stable_time_step(1e6, 1.0)
    0.002
    """
    return critical_omega_dt(zeta) / natural_frequency(k, mass)


def step_amplification(omega_dt: float, zeta: float = 0.0) -> float:
    """Spectral radius of one semi-implicit Euler step of a persistent contact.

    Above 1 the contact oscillation grows by this factor every step (the
    simulation blows up); at or below 1 it does not grow.
    Explained in :ref:`sec-cf-penalty`.

    Parameters
    ----------
    omega_dt : float
        ``omega_n * dt`` (>= 0).
    zeta : float, optional
        Damping ratio, ``0 <= zeta < 1``.

    Returns
    -------
    float
        Largest eigenvalue modulus of the step matrix.

    Examples
    --------
    >>> round(step_amplification(1.0), 12), round(step_amplification(2.5), 6)
    (1.0, 4.0)
    """
    a = in_range(omega_dt, "omega_dt", 0.0, np.inf, high_open=True)
    zeta = in_range(zeta, "zeta", 0.0, 1.0, high_open=True)
    damping = 1.0 - 2.0 * zeta * a
    step = np.array([[1.0 - a * a, damping], [-a * a, damping]])
    return float(np.max(np.abs(np.linalg.eigvals(step))))


def max_penetration(v0: float, k: float, mass: float, zeta: float = 0.0) -> float:
    """Deepest penetration of a penalty contact hit at speed ``v0`` (no gravity).

    ``delta_max = (v0 / omega_n) exp(-zeta arccos(zeta) / sqrt(1 - zeta^2))``,
    which is ``v0 / omega_n`` without damping. Gravity adds a static sag of
    order ``m g / k``.
    Explained in :ref:`sec-cf-penalty`.

    Parameters
    ----------
    v0 : float
        Impact speed in m/s (> 0).
    k : float
        Contact stiffness in N/m (> 0).
    mass : float
        Ball mass in kg (> 0).
    zeta : float, optional
        Damping ratio, ``0 <= zeta < 1``.

    Returns
    -------
    float
        Penetration depth in m.

    Examples
    --------
    >>> round(max_penetration(4.43, 1e6, 1.0) * 1e3, 6)
    4.43
    """
    v0 = positive(v0, "v0")
    zeta = in_range(zeta, "zeta", 0.0, 1.0, high_open=True)
    decay = math.exp(-zeta * math.acos(zeta) / math.sqrt(1.0 - zeta * zeta))
    return v0 / natural_frequency(k, mass) * decay


def effective_restitution_no_tension(zeta: float) -> float:
    """Restitution of a spring-damper contact whose force is clipped at zero.

    With ``f_n = max(0, k delta + d delta')`` the ball separates as soon
    as the force reaches zero, at the damped phase
    ``theta = pi - atan2(2 zeta s, 1 - 2 zeta^2)``, ``s = sqrt(1 - zeta^2)``,
    while it is still penetrating, and flies out with speed ratio
    ``exp(-zeta theta / s) |cos(theta) - zeta sin(theta) / s|`` (gravity
    neglected during the contact). This is a little larger than
    :func:`lib.soft_contact.kelvin_voigt_restitution`.
    Explained in :ref:`sec-cf-penalty`.

    Parameters
    ----------
    zeta : float
        Damping ratio, ``0 <= zeta < 1``.

    Returns
    -------
    float
        Ratio of rebound speed to impact speed.

    Examples
    --------
    >>> round(effective_restitution_no_tension(0.1), 6)
    0.744079
    """
    zeta = in_range(zeta, "zeta", 0.0, 1.0, high_open=True)
    s = math.sqrt(1.0 - zeta * zeta)
    theta = math.pi - math.atan2(2.0 * zeta * s, 1.0 - 2.0 * zeta * zeta)
    return math.exp(-zeta * theta / s) * abs(math.cos(theta) - zeta * math.sin(theta) / s)


def complementarity_state(gap: float, force: float, tol: float = 1e-12) -> str:
    """Check a (gap, normal force) pair against rigid-contact complementarity.

    Rigid contact requires ``0 <= f_n  perp  phi >= 0``: ``f_n >= 0``,
    ``phi >= 0`` and ``f_n phi = 0``.
    Explained in :ref:`sec-cf-nonsmooth`.

    Parameters
    ----------
    gap : float
        Gap ``phi`` in m (negative = penetration).
    force : float
        Normal force ``f_n`` in N (positive pushes the bodies apart).
    tol : float, optional
        Values with magnitude up to ``tol`` count as zero.

    Returns
    -------
    str
        ``"separated"`` (``phi > 0, f_n = 0``), ``"in contact"``
        (``phi = 0, f_n >= 0``), or ``"forbidden: ..."`` naming the
        violated condition (penetration, a pulling force, or a force across a
        gap).

    Examples
    --------
    >>> complementarity_state(0.003, 5.0)
    'forbidden: force across a gap (f_n phi = 0.015 N m)'
    >>> complementarity_state(0.003, 0.0), complementarity_state(0.0, 5.0)
    ('separated', 'in contact')
    """
    gap = float(in_range(gap, "gap", -np.inf, np.inf, low_open=True, high_open=True))
    force = float(in_range(force, "force", -np.inf, np.inf, low_open=True, high_open=True))
    if gap < -tol:
        return "forbidden: penetration (phi < 0)"
    if force < -tol:
        return "forbidden: pulling force (f_n < 0)"
    if gap > tol and force > tol:
        return f"forbidden: force across a gap (f_n phi = {gap * force:.3g} N m)"
    return "separated" if gap > tol else "in contact"


