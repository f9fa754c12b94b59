"""A ball dropped on the floor: penalty contact versus impulse contact.

The scene of the fourth figure of the lesson "Contact and friction". The ball
is a point mass moving on the vertical axis; ``height`` is its gap to the
floor in m (negative while a penalty contact lets it penetrate), velocity is
positive upward, and the normal contact force ``f_n`` (N) acts upward on the
ball. The simulations step the drop over time; the closed forms of a contact
(natural frequency, stable step, effective restitution) that they are checked
against are in :mod:`lib.contact_sim`, the drop's own (impact speed, Zeno rest
time) are here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .._validation import FloatArray, in_range, positive
from ..errors import OutOfRangeError
from ..common import GRAVITY

__all__ = [
    "MAX_STEPS",
    "DropResult",
    "impact_speed",
    "impulse_rest_time",
    "simulate_penalty_drop",
    "simulate_impulse_drop",
    "penalty_bounce_duration",
    "simulate_penalty_bounce",
]

#: The most steps (``t_end / dt``) one simulated drop may take; a longer run is
#: refused with :class:`~lib.errors.OutOfRangeError`.
MAX_STEPS = 2_000_000


def impact_speed(h0: float, g: float = GRAVITY) -> float:
    """Speed ``sqrt(2 g h0)`` of a ball dropped from rest at height ``h0``.

    Explained in :ref:`sec-cf-nonsmooth`.

    Parameters
    ----------
    h0 : float
        Release height in m (> 0).
    g : float, optional
        Gravitational acceleration in m/s^2 (> 0).

    Returns
    -------
    float
        Impact speed in m/s.

    Examples
    --------
    >>> round(impact_speed(1.0), 6)
    4.429447
    """
    return math.sqrt(2.0 * positive(g, "g") * positive(h0, "h0"))


def impulse_rest_time(h0: float, e: float, g: float = GRAVITY) -> float:
    """Time at which a bouncing ball with restitution ``e < 1`` comes to rest.

    The fall takes ``t0 = sqrt(2 h0 / g)``; the ``n``-th rebound flight takes
    ``2 t0 e^n``. The geometric series gives
    ``t_rest = t0 (1 + 2 e / (1 - e)) = t0 (1 + e) / (1 - e)``: infinitely
    many bounces in finite time (Zeno behaviour).
    Explained in :ref:`sec-cf-zeno`.

    Parameters
    ----------
    h0 : float
        Release height in m (> 0).
    e : float
        Coefficient of restitution, ``0 <= e < 1``.
    g : float, optional
        Gravitational acceleration in m/s^2 (> 0).

    Returns
    -------
    float
        Rest time in s after release.

    Raises
    ------
    OutOfRangeError
        If ``e`` is not in ``[0, 1)`` (with ``e = 1`` the ball never stops).

    Examples
    --------
    >>> round(impulse_rest_time(1.0, 0.8), 6)
    4.063713
    """
    e = in_range(e, "e", 0.0, 1.0, high_open=True)
    t0 = math.sqrt(2.0 * positive(h0, "h0") / positive(g, "g"))
    return t0 * (1.0 + e) / (1.0 - e)


@dataclass(frozen=True)
class DropResult:
    """Trajectory and summary of a simulated ball drop.

    Attributes
    ----------
    model : str
        ``"penalty"`` or ``"impulse"``.
    dt : float
        Time step in s.
    t, height, velocity : numpy.ndarray
        Times (s), gap to the floor (m, negative = penetration) and upward
        velocity (m/s) at the step boundaries, shape ``(n + 1,)``.
    gap, force : numpy.ndarray
        For each step, the gap (m) at which the contact force acted and the
        step-average contact force on the ball (N), shape ``(n,)``; the
        points of the complementarity plot.
    omega_dt : float
        ``omega_n * dt`` of the penalty contact (0 for the impulse model).
    max_penetration : float
        Deepest penetration in m (0 for the impulse model).
    max_rebound : float
        Highest point reached after the first contact, m.
    gained_energy : bool
        True when the ball rose more than 1 % above its release height
        after touching the floor: energy created by the integrator.
    diverged : bool
        True when ``|height|`` exceeded 1000 times the height scale of the
        initial energy (release height, plus ``v_start^2 / 2g``, plus the
        static sag ``m g / k``) and the run was stopped early.
    restitution : float
        Measured ratio of exit to entry speed of the first contact (0 when
        the ball did not leave the floor again during the run).
    bounces : int
        Number of contacts that ended with the ball leaving the floor.
    rest_time : float
        Impulse model: time (s) of the impact after which the ball was
        declared at rest; ``math.inf`` if it never rested (and always for
        the penalty model).
    """

    model: str
    dt: float
    t: FloatArray
    height: FloatArray
    velocity: FloatArray
    gap: FloatArray
    force: FloatArray
    omega_dt: float
    max_penetration: float
    max_rebound: float
    gained_energy: bool
    diverged: bool
    restitution: float
    bounces: int
    rest_time: float


def _check_step(dt: float, t_end: float) -> int:
    dt = positive(dt, "dt")
    t_end = positive(t_end, "t_end")
    steps = int(math.ceil(t_end / dt - 1e-9))
    if steps > MAX_STEPS:
        raise OutOfRangeError(
            f"t_end / dt must be at most MAX_STEPS = {MAX_STEPS:,} steps, got {steps:,} steps "
            f"(t_end = {t_end:.4g} s, dt = {dt:.4g} s)"
        )
    return steps


def simulate_penalty_drop(k: float, dt: float, zeta: float = 0.0, mass: float = 1.0,
                          h0: float = 1.0, t_end: float = 2.5, g: float = GRAVITY,
                          allow_tension: bool = False, v_start: float = 0.0) -> DropResult:
    """Drop a ball on a penalty (spring-damper) floor with semi-implicit Euler.

    Each step computes ``f_n = max(0, k delta - d x')`` with
    ``delta = max(0, -x)`` and ``d = 2 zeta sqrt(k m)`` (zero out of
    contact), then ``v += dt (f_n / m - g)`` and ``x += dt v`` (the new
    velocity moves the position: semi-implicit, symplectic Euler). With
    ``allow_tension`` the clip at zero is dropped while penetrating, which is
    the linear spring-damper of :func:`lib.soft_contact.kelvin_voigt_restitution`.
    Explained in :ref:`sec-cf-penalty`.

    Parameters
    ----------
    k : float
        Contact stiffness in N/m (> 0).
    dt : float
        Time step in s (> 0).
    zeta : float, optional
        Damping ratio, ``0 <= zeta < 1``.
    mass : float, optional
        Ball mass in kg (> 0).
    h0 : float, optional
        Initial gap in m; the ball starts at rest. Positive is a drop from
        that height, negative starts the ball pressed into the floor (used to
        study a persistent contact).
    t_end : float, optional
        Simulated duration in s (> 0).
    g : float, optional
        Gravitational acceleration in m/s^2 (> 0).
    allow_tension : bool, optional
        Let the damper pull the ball while it still penetrates.
    v_start : float, optional
        Initial upward velocity in m/s (negative throws the ball at the
        floor; used to study one impact without a long fall).

    Returns
    -------
    DropResult
        Trajectory, complementarity points and summary.

    Examples
    --------
    >>> r = simulate_penalty_drop(1e4, 1e-3, zeta=0.0, t_end=1.0)
    >>> round(r.omega_dt, 6), r.gained_energy, round(r.max_penetration * 1e3, 1)
    (0.1, False, 45.3)
    """
    k = positive(k, "k")
    mass = positive(mass, "mass")
    h0 = in_range(h0, "h0", -np.inf, np.inf, low_open=True, high_open=True, unit=" m")
    g = positive(g, "g")
    zeta = in_range(zeta, "zeta", 0.0, 1.0, high_open=True)
    steps = _check_step(dt, t_end)
    c = 2.0 * zeta * math.sqrt(k * mass)
    x, v = h0, float(in_range(v_start, "v_start", -np.inf, np.inf, low_open=True, high_open=True))
    # Height scale of the initial energy: release height, throw height, sag.
    limit = 1000.0 * (abs(h0) + v * v / (2.0 * g) + mass * g / k)
    heights = [x]
    velocities = [v]
    gaps: list[float] = []
    forces: list[float] = []
    touched = False
    in_contact = False
    deepest = 0.0
    rebound = -math.inf
    restitution = 0.0
    entry_speed = 0.0
    bounces = 0
    diverged = False
    for _ in range(steps):
        if x < 0.0:
            lam = -k * x - c * v
            if lam < 0.0 and not allow_tension:
                lam = 0.0
            if not in_contact:
                in_contact = True
                entry_speed = -v
                touched = True
            if -x > deepest:
                deepest = -x
        else:
            lam = 0.0
            if in_contact:
                in_contact = False
                bounces += 1
                if bounces == 1 and entry_speed > 0.0:
                    restitution = max(v, 0.0) / entry_speed
        gaps.append(x)
        forces.append(lam)
        v += dt * (lam / mass - g)
        x += dt * v
        heights.append(x)
        velocities.append(v)
        if touched and not in_contact and x > rebound:
            rebound = x
        if abs(x) > limit:
            diverged = True
            break
    n = len(forces)
    return DropResult(
        model="penalty",
        dt=float(dt),
        t=np.arange(n + 1) * float(dt),
        height=np.array(heights),
        velocity=np.array(velocities),
        gap=np.array(gaps),
        force=np.array(forces),
        omega_dt=math.sqrt(k / mass) * float(dt),
        max_penetration=deepest,
        max_rebound=max(rebound, 0.0),
        gained_energy=bool(h0 > 0.0 and rebound > 1.01 * h0),
        diverged=diverged,
        restitution=restitution,
        bounces=bounces,
        rest_time=math.inf,
    )


def simulate_impulse_drop(e: float, dt: float, mass: float = 1.0, h0: float = 1.0,
                          t_end: float = 5.0, g: float = GRAVITY) -> DropResult:
    """Drop a ball on a rigid floor with an impulse (restitution) contact.

    Each step flies ballistically (exact for constant gravity). If the ball
    would cross the floor, the impact instant inside the step is found from
    the flight parabola, the velocity there is reversed and scaled by ``e``
    (Newton's restitution law ``v+ = -e v-``) and the flight continues for the
    rest of the step. When the rebound speed falls below ``g dt`` (a flight
    shorter than two steps) the ball is declared at rest and the floor then
    carries its weight. The step-average force is the impulse divided by
    ``dt``; it acts at zero gap.
    Explained in :ref:`sec-cf-zeno`.

    Parameters
    ----------
    e : float
        Coefficient of restitution, ``0 <= e <= 1``.
    dt : float
        Time step in s (> 0).
    mass : float, optional
        Ball mass in kg (> 0).
    h0 : float, optional
        Release height in m (> 0); the ball starts at rest.
    t_end : float, optional
        Simulated duration in s (> 0).
    g : float, optional
        Gravitational acceleration in m/s^2 (> 0).

    Returns
    -------
    DropResult
        Trajectory, complementarity points and the rest time.

    Examples
    --------
    >>> r = simulate_impulse_drop(0.8, 1e-3, t_end=5.0)
    >>> round(r.rest_time, 3), round(impulse_rest_time(1.0, 0.8), 3)
    (4.055, 4.064)
    """
    e = in_range(e, "e", 0.0, 1.0)
    mass = positive(mass, "mass")
    h0 = positive(h0, "h0")
    g = positive(g, "g")
    steps = _check_step(dt, t_end)
    dt = float(dt)

    x, v = h0, 0.0
    heights = [x]
    velocities = [v]
    gaps: list[float] = []
    forces: list[float] = []
    resting = False
    rest_time = math.inf
    bounces = 0
    first_ratio = 0.0
    rebound = -math.inf
    touched = False
    weight = mass * g
    for i in range(steps):
        if resting:
            # At rest the floor carries the weight for the remaining steps.
            remaining = steps - i
            gaps.extend([0.0] * remaining)
            forces.extend([weight] * remaining)
            heights.extend([0.0] * remaining)
            velocities.extend([0.0] * remaining)
            break
        x_new = x + v * dt - 0.5 * g * dt * dt
        v_new = v - g * dt
        if x_new >= 0.0:
            gaps.append(x)
            forces.append(0.0)
        else:
            # First root of x + v tau - g tau^2 / 2 = 0 in (0, dt].
            tau = (v + math.sqrt(max(v * v + 2.0 * g * x, 0.0))) / g
            v_minus = v - g * tau
            v_plus = -e * v_minus
            touched = True
            gaps.append(0.0)
            forces.append(mass * (v_plus - v_minus) / dt)
            if bounces == 0:
                first_ratio = v_plus / -v_minus if v_minus < 0.0 else 0.0
            if v_plus < g * dt:
                resting = True
                rest_time = i * dt + tau
                x_new, v_new = 0.0, 0.0
            else:
                bounces += 1
                rest = dt - tau
                x_new = v_plus * rest - 0.5 * g * rest * rest
                v_new = v_plus - g * rest
        x, v = x_new, v_new
        heights.append(x)
        velocities.append(v)
        if touched and x > rebound:
            rebound = x
    n = len(forces)
    return DropResult(
        model="impulse",
        dt=dt,
        t=np.arange(n + 1) * dt,
        height=np.array(heights),
        velocity=np.array(velocities),
        gap=np.array(gaps),
        force=np.array(forces),
        omega_dt=0.0,
        max_penetration=0.0,
        max_rebound=max(rebound, 0.0),
        gained_energy=bool(rebound > 1.01 * h0),
        diverged=False,
        restitution=first_ratio,
        bounces=bounces,
        rest_time=rest_time,
    )


def penalty_bounce_duration(k: float, mass: float = 1.0, h0: float = 1.0,
                            g: float = GRAVITY) -> float:
    """Simulated time that takes a dropped ball through its first bounce on a penalty floor.

    ``sqrt(2 h0 / g) + 20 / omega_n + 0.01`` s with ``omega_n = sqrt(k / m)``:
    the fall, twenty contact time constants ``1 / omega_n`` (the first contact
    lasts about half a damped period, ``pi / (omega_n sqrt(1 - zeta^2))``, or
    less, which is shorter while ``zeta < 0.98``) and 10 ms for the ball to
    climb out of the floor. This is the run of :func:`simulate_penalty_bounce`.
    Explained in :ref:`sec-cf-penalty`.

    Parameters
    ----------
    k, mass, h0, g : float
        Contact stiffness (N/m), ball mass (kg), release height (m) and
        gravitational acceleration (m/s^2), all positive.

    Returns
    -------
    float
        Duration in s.

    Examples
    --------
    >>> round(penalty_bounce_duration(1e4), 6)   # fall 0.451524 s, 20 / omega_n = 0.2 s
    0.661524
    """
    omega_n = math.sqrt(positive(k, "k") / positive(mass, "mass"))
    return math.sqrt(2.0 * positive(h0, "h0") / positive(g, "g")) + 20.0 / omega_n + 0.01


def simulate_penalty_bounce(k: float, dt: float, zeta: float = 0.0, mass: float = 1.0,
                            h0: float = 1.0, g: float = GRAVITY) -> DropResult:
    """Drop a ball from rest on a penalty floor and simulate it through its first bounce.

    :func:`simulate_penalty_drop` from ``h0`` for :func:`penalty_bounce_duration`
    seconds: its ``max_penetration`` and ``restitution`` are those of the
    first contact. The run may take at most :data:`MAX_STEPS` steps.
    Explained in :ref:`sec-cf-penalty`.

    Parameters
    ----------
    k, dt, zeta, mass, g : float
        Stiffness (N/m), time step (s), damping ratio, ball mass (kg) and
        gravitational acceleration (m/s^2), as for :func:`simulate_penalty_drop`.
    h0 : float, optional
        Release height in m (> 0).

    Returns
    -------
    DropResult
        Trajectory and summary of the drop.

    Raises
    ------
    OutOfRangeError
        If the run would take more than :data:`MAX_STEPS` steps.

    Examples
    --------
    >>> r = simulate_penalty_bounce(1e4, 1e-3, zeta=0.1)
    >>> r.bounces, round(r.restitution, 3), round(r.max_penetration * 1e3, 1)
    (1, 0.743, 39.2)
    """
    t_end = penalty_bounce_duration(k, mass, h0, g)
    return simulate_penalty_drop(k, dt, zeta, mass=mass, h0=h0, t_end=t_end, g=g)
