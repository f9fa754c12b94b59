"""Coulomb friction: the block on a ramp, the 2D friction cone, pyramids with n_d edges.

Pure functions behind the first three figures of the lesson "Contact and
friction". Forces are in newtons, angles in radians, and every contact force
is the force the surface exerts *on the body*, split into a tangential part
``f_t`` and a normal part ``f_n`` along the surface normal that points from
the surface into the body.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from .common import GRAVITY
from ._validation import FloatArray, as_array, in_range, positive, positive_int, real_number
from .errors import OutOfRangeError

__all__ = [
    "RampState",
    "ConeState",
    "critical_angle",
    "ramp_state",
    "sticking_margin",
    "cone_state",
    "pyramid_capacity",
    "pyramid_worst_errors",
    "pyramid_sampled_errors",
]

#: Standard gravity in m/s^2, used as the default everywhere in the lesson.


def critical_angle(mu_s: float) -> float:
    """Tilt at which an unpushed block on a ramp starts to slide.

    The sticking condition ``m g sin(alpha) <= mu_s m g cos(alpha)`` loses the
    mass and gives ``tan(alpha) <= mu_s``: the critical angle is the
    half-angle of the friction cone, ``arctan(mu_s)``.
    Explained in :ref:`sec-cf-ramp`.

    Parameters
    ----------
    mu_s : float
        Static friction coefficient (dimensionless, >= 0).

    Returns
    -------
    float
        Critical ramp angle in radians, in ``[0, pi/2)``.

    Raises
    ------
    OutOfRangeError
        If ``mu_s`` is negative.

    Examples
    --------
    >>> round(float(np.degrees(critical_angle(0.8))), 4)
    38.6598
    """
    mu = in_range(mu_s, "mu_s", 0.0, np.inf, high_open=True)
    return float(np.arctan(mu))


@dataclass(frozen=True)
class RampState:
    """What happens to a point-mass block on a ramp (see :func:`ramp_state`).

    All forces act on the block and are expressed in the ramp frame: the
    ``tangential`` axis points up the slope, the ``normal`` axis out of the
    ramp surface.

    Attributes
    ----------
    state : str
        ``"stick"``, ``"slip"`` or ``"lift-off"``.
    direction : str
        ``"up"`` or ``"down"`` the slope while slipping, ``"none"`` otherwise.
    normal_force : float
        Normal force of the ramp on the block, N (0 when lifting off).
    friction : float
        Friction force of the ramp on the block along the up-slope axis, N.
    demand : float
        Friction the block would need to stay at rest (up-slope axis), N.
    capacity : float
        Static friction ceiling ``mu_s * normal_force``, N.
    acceleration : float
        Acceleration along the up-slope axis, m/s^2 (0 while sticking).
    contact_force : tuple of float
        ``(friction, normal_force)``: the ramp's total force on the block, N.
    critical_angle : float
        ``arctan(mu_s)`` in radians (the unpushed tilt at which sliding starts).
    """

    state: str
    direction: str
    normal_force: float
    friction: float
    demand: float
    capacity: float
    acceleration: float
    contact_force: tuple[float, float]
    critical_angle: float


def ramp_state(alpha: float, mu_s: float, mu_k: float, mass: float, push: float = 0.0,
               beta: float = 0.0, g: float = GRAVITY) -> RampState:
    """Classify a block resting on a ramp as sticking, slipping or lifting off.

    The block is a point mass (it cannot tip) that starts at rest. The push
    ``push`` acts at angle ``beta`` from the up-slope direction, tilted away
    from the surface for ``beta > 0``. The normal force is
    ``N = m g cos(alpha) - F sin(beta)``; when ``N <= 0`` the block lifts off.
    Otherwise it sticks while
    ``|F cos(beta) - m g sin(alpha)| <= mu_s N`` and else slips with kinetic
    friction ``mu_k N`` opposing the motion.
    Explained in :ref:`sec-cf-ramp`.

    Parameters
    ----------
    alpha : float
        Ramp tilt in radians, ``0 <= alpha < pi/2``.
    mu_s, mu_k : float
        Static and kinetic friction coefficients, ``0 <= mu_k <= mu_s``.
    mass : float
        Block mass in kg (> 0).
    push : float, optional
        Magnitude of the applied push in N (>= 0).
    beta : float, optional
        Direction of the push in radians, ``-pi/2 <= beta <= pi/2``, measured
        from the up-slope direction; positive pulls away from the surface.
    g : float, optional
        Gravitational acceleration in m/s^2 (> 0).

    Returns
    -------
    RampState
        The state, the forces in the ramp frame and the acceleration.

    Raises
    ------
    OutOfRangeError
        If an angle or a friction coefficient is out of range, or
        ``mu_k > mu_s``.
    NonPositiveMassError
        If ``mass`` or ``g`` is not positive.

    Examples
    --------
    >>> s = ramp_state(np.radians(20), 0.6, 0.5, 2.0)
    >>> s.state, round(s.friction, 4), round(s.normal_force, 4)
    ('stick', 6.7104, 18.4368)
    >>> ramp_state(np.radians(40), 0.6, 0.5, 2.0).state
    'slip'
    >>> ramp_state(np.radians(20), 0.6, 0.5, 2.0, push=30.0, beta=np.radians(60)).state
    'lift-off'
    """
    alpha = in_range(alpha, "alpha", 0.0, np.pi / 2, high_open=True, unit=" rad")
    mu_s = in_range(mu_s, "mu_s", 0.0, np.inf, high_open=True)
    mu_k = in_range(mu_k, "mu_k", 0.0, np.inf, high_open=True)
    if mu_k > mu_s:
        raise OutOfRangeError(
            f"mu_k must not exceed mu_s (kinetic friction is at most static friction), "
            f"got mu_k = {mu_k:g} > mu_s = {mu_s:g}"
        )
    mass = positive(mass, "mass")
    push = in_range(push, "push", 0.0, np.inf, high_open=True, unit=" N")
    beta = in_range(beta, "beta", -np.pi / 2, np.pi / 2, unit=" rad")
    g = positive(g, "g")

    weight = mass * g
    normal = weight * np.cos(alpha) - push * np.sin(beta)
    # Friction that keeps the block at rest: balances the up-slope push and the
    # down-slope pull of gravity.
    demand = weight * np.sin(alpha) - push * np.cos(beta)
    crit = float(np.arctan(mu_s))
    # A round-off tolerance relative to the forces involved.
    tol = 1e-12 * (weight + push)
    if normal <= tol:
        net = push * np.cos(beta) - weight * np.sin(alpha)
        return RampState("lift-off", "none", 0.0, 0.0, float(demand), 0.0, float(net / mass),
                         (0.0, 0.0), crit)
    capacity = mu_s * normal
    if abs(demand) <= capacity + tol:
        return RampState("stick", "none", float(normal), float(demand), float(demand),
                         float(capacity), 0.0, (float(demand), float(normal)), crit)
    friction = mu_k * normal * np.sign(demand)
    net = friction - demand
    direction = "up" if net > 0 else "down"
    return RampState("slip", direction, float(normal), float(friction), float(demand),
                     float(capacity), float(net / mass), (float(friction), float(normal)), crit)


def sticking_margin(alpha: ArrayLike, mu_s: float, mass: float, push: ArrayLike = 0.0,
                    beta: ArrayLike = 0.0, g: float = GRAVITY) -> FloatArray:
    """Slack of the ramp's sticking condition, vectorised over the inputs.

    Returns ``mu_s (m g cos a - F sin b) - |F cos b - m g sin a|``: positive
    means the block sticks (provided the normal force ``m g cos a - F sin b``
    is also positive), negative means it slips. Arrays broadcast.
    Explained in :ref:`sec-cf-coulomb`.

    Parameters
    ----------
    alpha : array_like
        Ramp tilt in radians.
    mu_s : float
        Static friction coefficient (>= 0).
    mass : float
        Block mass in kg (> 0).
    push, beta : array_like, optional
        Push magnitude in N and its direction in radians (see :func:`ramp_state`).
    g : float, optional
        Gravitational acceleration in m/s^2.

    Returns
    -------
    numpy.ndarray
        The margin in N, broadcast over the inputs.

    Examples
    --------
    >>> np.round(sticking_margin(np.radians([0.0, 30.0, 45.0]), 0.8, 1.0), 4)
    array([ 7.848 ,  1.8916, -1.3873])
    """
    alpha = np.asarray(as_array(alpha, "alpha", [None] * np.ndim(alpha)))
    push = np.asarray(as_array(push, "push", [None] * np.ndim(push)))
    beta = np.asarray(as_array(beta, "beta", [None] * np.ndim(beta)))
    mu_s = in_range(mu_s, "mu_s", 0.0, np.inf, high_open=True)
    weight = positive(mass, "mass") * positive(g, "g")
    normal = weight * np.cos(alpha) - push * np.sin(beta)
    return np.asarray(mu_s * normal - np.abs(push * np.cos(beta) - weight * np.sin(alpha)), dtype=float)


@dataclass(frozen=True)
class ConeState:
    """The answer of a planar Coulomb contact to a demanded force (see :func:`cone_state`).

    Forces are ``(f_t, f_n)`` pairs in the contact frame (tangent, normal
    into the body), in N.

    Attributes
    ----------
    state : str
        ``"separate"``, ``"stick"`` or ``"slip"``.
    demand : tuple of float
        The force the contact would have to supply to keep the body still.
    supplied : tuple of float
        The force the surface actually supplies.
    remainder : tuple of float
        ``demand - supplied``: the unbalanced force that moves the body.
    angle : float
        Angle of the demanded force from the normal, radians (``nan`` is never
        returned: 0 for a zero demand, ``pi`` straight into the surface).
    friction_angle : float
        Half-angle ``arctan(mu)`` of the cone, radians.
    """

    state: str
    demand: tuple[float, float]
    supplied: tuple[float, float]
    remainder: tuple[float, float]
    angle: float
    friction_angle: float


def cone_state(f_t: float, f_n: float, mu: float) -> ConeState:
    """Classify a demanded planar contact force against the friction cone.

    ``f_n < 0`` would need the surface to pull: the body separates and the
    surface supplies nothing. With ``|f_t| <= mu f_n`` the force lies in the
    cone and the contact sticks. Otherwise the contact slips and the surface
    supplies the boundary force ``(sign(f_t) mu f_n, f_n)``; the rest of the
    tangential demand is unbalanced (kinetic friction taken equal to ``mu``).
    Explained in :ref:`sec-cf-cone2d`.

    Parameters
    ----------
    f_t, f_n : float
        Demanded tangential and normal contact force, N (contact frame).
    mu : float
        Friction coefficient (>= 0).

    Returns
    -------
    ConeState
        State, supplied force, unbalanced remainder and angles.

    Raises
    ------
    OutOfRangeError
        If ``mu`` is negative.

    Examples
    --------
    >>> s = cone_state(3.0, 4.0, 0.5)
    >>> s.state, s.supplied, s.remainder
    ('slip', (2.0, 4.0), (1.0, 0.0))
    >>> cone_state(1.0, 4.0, 0.5).state, cone_state(1.0, -1.0, 0.5).state
    ('stick', 'separate')
    """
    f_t = real_number(f_t, "f_t")
    f_n = real_number(f_n, "f_n")
    mu = in_range(mu, "mu", 0.0, np.inf, high_open=True)
    gamma = float(np.arctan(mu))
    angle = float(np.arctan2(abs(f_t), f_n))
    demand = (f_t, f_n)
    if f_n < 0.0:
        return ConeState("separate", demand, (0.0, 0.0), demand, angle, gamma)
    scale = max(abs(f_t), abs(f_n), 1.0)
    if abs(f_t) <= mu * f_n + 1e-12 * scale:
        return ConeState("stick", demand, demand, (0.0, 0.0), angle, gamma)
    supplied_t = float(np.sign(f_t) * mu * f_n)
    return ConeState("slip", demand, (supplied_t, f_n), (f_t - supplied_t, 0.0), angle, gamma)


def _check_k(k: int) -> int:
    k = positive_int(k, "k (the number of pyramid edges)")
    if k < 3:
        raise OutOfRangeError(f"k (the number of pyramid edges) must be at least 3, got {k}")
    return k


def pyramid_capacity(phi: ArrayLike, mu: float, k: int) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Largest tangential force per unit normal force along tangent directions.

    The friction directions are the ``k`` (the lesson's ``n_d``) unit tangents
    ``d_i = (cos(2 pi i / k), sin(2 pi i / k))``. The *inscribed* pyramid is
    ``f_t = sum rho_i d_i`` with ``rho_i >= 0`` and ``sum rho_i <= mu f_n``
    (the convex hull of ``mu d_i``); the *circumscribed* pyramid is
    ``d_i . f_t <= mu f_n`` for all ``i`` (for ``k = 4`` the box
    ``|f_x|, |f_y| <= mu f_n``). Along the direction at angle ``phi`` in the
    tangent plane their radii are ``mu cos(pi/k) / max_i cos(phi - theta_i - pi/k)``
    and ``mu / max_i cos(phi - theta_i)``; the round cone's radius is ``mu``.
    Explained in :ref:`sec-cf-pyramid`.

    Parameters
    ----------
    phi : array_like
        Direction angle(s) in the tangent plane, radians, any shape.
    mu : float
        Friction coefficient (>= 0).
    k : int
        Number of pyramid edges (>= 3).

    Returns
    -------
    cone, inscribed, circumscribed : numpy.ndarray
        Capacities ``|f_t| / f_n`` along ``phi`` for the round cone, the
        inscribed and the circumscribed pyramid; each has the shape of ``phi``.

    Raises
    ------
    OutOfRangeError
        If ``mu < 0`` or ``k < 3``.

    Examples
    --------
    >>> cone, inner, outer = pyramid_capacity(np.radians([0.0, 45.0]), 1.0, 4)
    >>> np.round(inner, 4), np.round(outer, 4)
    (array([1.    , 0.7071]), array([1.    , 1.4142]))
    """
    phi = np.asarray(as_array(phi, "phi", [None] * np.ndim(phi)))
    mu = in_range(mu, "mu", 0.0, np.inf, high_open=True)
    k = _check_k(k)
    step = 2.0 * np.pi / k
    # The maxima over i are attained at the nearest face midpoint (inscribed)
    # and at the nearest edge direction (circumscribed): find them directly
    # instead of evaluating all k cosines.
    to_face = phi - (np.floor(phi / step) * step + np.pi / k)
    to_edge = phi - np.round(phi / step) * step
    inscribed = mu * np.cos(np.pi / k) / np.cos(to_face)
    circumscribed = mu / np.cos(to_edge)
    return np.full(phi.shape, mu), inscribed, circumscribed


def pyramid_worst_errors(k: int) -> tuple[float, float]:
    """Worst-case relative friction errors of the pyramids with ``k = n_d`` edges (closed form).

    The inscribed pyramid is shortest midway between two edges, where it
    allows ``mu cos(pi/k)``: it underestimates friction by ``1 - cos(pi/k)``.
    The circumscribed pyramid is longest at its corners, ``mu / cos(pi/k)``:
    it overestimates by ``1/cos(pi/k) - 1``.
    Explained in :ref:`sec-cf-pyramid`.

    Parameters
    ----------
    k : int
        Number of pyramid edges (>= 3).

    Returns
    -------
    under, over : float
        Relative underestimate of the inscribed pyramid and relative
        overestimate of the circumscribed one (dimensionless).

    Examples
    --------
    >>> under, over = pyramid_worst_errors(4)
    >>> round(under, 6), round(over, 6)
    (0.292893, 0.414214)
    """
    k = _check_k(k)
    c = float(np.cos(np.pi / k))
    return 1.0 - c, 1.0 / c - 1.0


def pyramid_sampled_errors(k: int, n_directions: int = 7200) -> tuple[float, float]:
    """Worst relative pyramid errors found by sampling tangent directions.

    Evaluates :func:`pyramid_capacity` at ``n_directions`` equally spaced
    angles in ``[0, 2 pi)`` and returns the largest relative shortfall of the
    inscribed pyramid and the largest relative excess of the circumscribed
    one; an independent check of :func:`pyramid_worst_errors`.
    Explained in :ref:`sec-cf-pyramid`.

    Parameters
    ----------
    k : int
        Number of pyramid edges (>= 3).
    n_directions : int, optional
        Number of sampled directions (>= 1).

    Returns
    -------
    under, over : float
        Sampled maxima of ``1 - r_in/mu`` and ``r_out/mu - 1``.

    Examples
    --------
    >>> [round(e, 6) for e in pyramid_sampled_errors(8)]
    [0.07612, 0.082392]
    """
    k = _check_k(k)
    phi = np.linspace(0.0, 2.0 * np.pi, positive_int(n_directions, "n_directions"), endpoint=False)
    _, inner, outer = pyramid_capacity(phi, 1.0, k)
    return float(np.max(1.0 - inner)), float(np.max(outer - 1.0))
