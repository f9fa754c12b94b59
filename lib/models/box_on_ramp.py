"""A planar box on a ramp, stepped with a rigid LCP, a penalty model and MuJoCo.

The scene lives in the ramp frame: ``x`` points up the slope, ``y`` out of
the ramp surface, and gravity is ``g (-sin alpha, -cos alpha)``. The box has
width ``w`` (along ``x`` when upright) and height ``hgt``; its configuration
is ``q = (theta, x, y)``, the tilt (rad, counter-clockwise, so ``theta > 0``
leans the box over its downhill corner) and the centre of mass (m), and its
generalized velocity ``v = (omega, xdot, ydot)`` puts the angular rate first,
as a planar twist. Corner ``k`` of the box sits at ``R(theta) p_k`` from the
centre of mass, with ``p_k`` in the order downhill-bottom, uphill-bottom,
uphill-top, downhill-top. Explained in :ref:`sec-cs-scene`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from .._validation import FloatArray, as_array, as_vector, in_range, instance_of, nonnegative, positive, real_number
from ..contact_lcp import effective_mass, free_velocity, solve_contact_lcp
from ..contact_sim import critical_omega_dt
from ..errors import ConvergenceError, OutOfRangeError
from ..common import GRAVITY
from ..inertia import box_inertia, parallel_axis
from ..soft_contact import kelvin_voigt_damping, kelvin_voigt_force

__all__ = [
    "BoxOnRamp",
    "RampRun",
    "SlideClosedForm",
    "box_on_ramp",
    "mass_matrix",
    "gravity_force",
    "corner_positions",
    "contact_rows",
    "slide_closed_form",
    "tip_at_rest",
    "tip_while_sliding",
    "pivot_acceleration",
    "pivot_inertia",
    "crossing_time",
    "resting_state",
    "simulate_lcp",
    "simulate_penalty",
    "penalty_step_limit",
    "mujoco_xml",
    "simulate_mujoco",
]

#: Corner offsets ``p_k / (w/2, hgt/2)`` in the box frame.
_CORNER_SIGNS = np.array([[-1.0, -1.0], [1.0, -1.0], [1.0, 1.0], [-1.0, 1.0]])
#: Box depth used only where a 3-D body is needed (MuJoCo); it does not enter
#: the planar dynamics.
_DEPTH = 0.1
#: Trajectories farther than this from the start (m) count as diverged.
_DIVERGED = 1e3


@dataclass(frozen=True)
class BoxOnRamp:
    """Parameters of the scene (see :func:`box_on_ramp`).

    Attributes
    ----------
    width, height : float
        Box width ``w`` and height ``hgt``, m.
    mass : float
        Mass ``m``, kg.
    alpha : float
        Ramp inclination, rad.
    mu : float
        Friction coefficient between box and ramp.
    g : float
        Gravitational acceleration, m/s^2.
    inertia : float
        Moment of inertia about the centre of mass (out of plane), kg m^2.
    """

    width: float
    height: float
    mass: float
    alpha: float
    mu: float
    g: float
    inertia: float


def box_on_ramp(width: float, height: float, mass: float, alpha: float, mu: float,
                g: float = GRAVITY) -> BoxOnRamp:
    """Validate and bundle the parameters of a box on a ramp.

    The inertia about the centre of mass is the out-of-plane entry of
    :func:`lib.inertia.box_inertia`, ``m (w^2 + hgt^2) / 12``.
    Explained in :ref:`sec-cs-scene`.

    Parameters
    ----------
    width, height : float
        Box width and height, m (> 0).
    mass : float
        Mass, kg (> 0).
    alpha : float
        Ramp inclination, rad, ``0 <= alpha < pi/2``.
    mu : float
        Friction coefficient (>= 0).
    g : float, optional
        Gravitational acceleration, m/s^2 (> 0).

    Returns
    -------
    BoxOnRamp

    Raises
    ------
    NonPositiveValueError, OutOfRangeError, NonFiniteError
        On a non-positive size, mass or ``g``, a negative ``mu`` or an
        inclination outside ``[0, pi/2)``.

    Examples
    --------
    >>> box = box_on_ramp(0.2, 0.4, 1.0, np.radians(15.0), 0.4)
    >>> round(box.inertia, 6)
    0.016667
    """
    w = positive(width, "width")
    hgt = positive(height, "height")
    m = positive(mass, "mass")
    a = in_range(alpha, "alpha", 0.0, math.pi / 2, high_open=True, unit=" rad")
    friction = nonnegative(mu, "mu")
    gravity = positive(g, "g")
    inertia = float(box_inertia(m, [w, hgt, _DEPTH])[2, 2])
    return BoxOnRamp(w, hgt, m, a, friction, gravity, inertia)


def mass_matrix(box: BoxOnRamp) -> FloatArray:
    """Mass matrix ``M = diag(I_c, m, m)`` for ``v = (omega, xdot, ydot)``.

    Explained in :ref:`sec-cs-scene`.

    Examples
    --------
    >>> np.round(mass_matrix(box_on_ramp(0.2, 0.4, 1.0, 0.2, 0.4)), 6)
    array([[0.016667, 0.      , 0.      ],
           [0.      , 1.      , 0.      ],
           [0.      , 0.      , 1.      ]])
    """
    instance_of(box, BoxOnRamp, "box")
    return np.diag([box.inertia, box.mass, box.mass])


def gravity_force(box: BoxOnRamp) -> FloatArray:
    """Generalized gravity force ``(0, -m g sin alpha, -m g cos alpha)``, (N m, N, N).

    Explained in :ref:`sec-cs-scene`.

    Examples
    --------
    >>> np.round(gravity_force(box_on_ramp(0.2, 0.4, 1.0, np.pi / 6, 0.4, g=10.0)), 6)
    array([ 0.      , -5.      , -8.660254])
    """
    instance_of(box, BoxOnRamp, "box")
    return box.mass * box.g * np.array([0.0, -math.sin(box.alpha), -math.cos(box.alpha)])


def _corner_offsets(box: BoxOnRamp, theta: float) -> FloatArray:
    c, s = math.cos(theta), math.sin(theta)
    p = _CORNER_SIGNS * np.array([0.5 * box.width, 0.5 * box.height])
    return p @ np.array([[c, s], [-s, c]])


def corner_positions(box: BoxOnRamp, q: ArrayLike) -> FloatArray:
    """Corner positions in the ramp frame, m.

    Rows in the order downhill-bottom, uphill-bottom, uphill-top,
    downhill-top (for ``theta = 0``). Explained in :ref:`sec-cs-scene`.

    Parameters
    ----------
    box : BoxOnRamp
    q : array_like, shape (3,)
        ``(theta, x, y)``: tilt (rad) and centre of mass (m).

    Returns
    -------
    numpy.ndarray, shape (4, 2)

    Examples
    --------
    >>> box = box_on_ramp(0.2, 0.4, 1.0, 0.2, 0.4)
    >>> np.round(corner_positions(box, [0.0, 0.0, 0.2]), 6) + 0.0
    array([[-0.1,  0. ],
           [ 0.1,  0. ],
           [ 0.1,  0.4],
           [-0.1,  0.4]])
    """
    instance_of(box, BoxOnRamp, "box")
    theta, x, y = as_vector(q, "q", 3)
    return _corner_offsets(box, theta) + np.array([x, y])


def contact_rows(box: BoxOnRamp, q: ArrayLike) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Normal rows ``N``, tangent rows ``D`` and gaps ``phi`` of the four corners.

    A corner at ``r = R(theta) p_k`` from the centre of mass moves with
    ``(xdot - omega r_y, ydot + omega r_x)``, so its normal row is
    ``(r_x, 0, 1)`` and its tangent (up-slope) row ``D_k = (-r_y, 1, 0)``; its gap
    is its height above the ramp. Explained in :ref:`sec-cs-scene`.

    Parameters
    ----------
    box : BoxOnRamp
    q : array_like, shape (3,)
        Configuration ``(theta, x, y)``.

    Returns
    -------
    N : numpy.ndarray, shape (4, 3)
    D : numpy.ndarray, shape (4, 3)
    phi : numpy.ndarray, shape (4,)
        Gaps, m (negative while a corner is below the ramp surface).

    Examples
    --------
    >>> N, D, phi = contact_rows(box_on_ramp(0.2, 0.4, 1.0, 0.2, 0.4), [0.0, 0.0, 0.2])
    >>> np.round(N[:2], 6) + 0.0, np.round(phi, 6) + 0.0
    (array([[-0.1,  0. ,  1. ],
           [ 0.1,  0. ,  1. ]]), array([0. , 0. , 0.4, 0.4]))
    """
    instance_of(box, BoxOnRamp, "box")
    theta, _, y = as_vector(q, "q", 3)
    return _rows(box, theta, y)


def _rows(box: BoxOnRamp, theta: float, y: float) -> tuple[FloatArray, FloatArray, FloatArray]:
    r = _corner_offsets(box, theta)
    N = np.zeros((4, 3))
    D = np.zeros((4, 3))
    N[:, 0], N[:, 2] = r[:, 0], 1.0
    D[:, 0], D[:, 1] = -r[:, 1], 1.0
    return N, D, y + r[:, 1]


@dataclass(frozen=True)
class SlideClosedForm:
    """Closed forms of a box launched up the ramp (see :func:`slide_closed_form`).

    Attributes
    ----------
    deceleration : float
        ``g (sin alpha + mu cos alpha)``, m/s^2.
    stop_time : float
        ``v0 / deceleration``, s.
    stop_distance : float
        ``v0^2 / (2 deceleration)``, m.
    loads_sliding : numpy.ndarray, shape (2,)
        Normal forces on the downhill and uphill bottom corners while
        sliding up, N.
    loads_at_rest : numpy.ndarray, shape (2,)
        The same after the box has stopped and sticks, N.
    sticks : bool
        ``tan alpha <= mu``: the box stays where it stops.
    """

    deceleration: float
    stop_time: float
    stop_distance: float
    loads_sliding: FloatArray
    loads_at_rest: FloatArray
    sticks: bool


def _split(box: BoxOnRamp, friction: float) -> FloatArray:
    """Corner loads from the moment balance about the centre of mass."""
    normal = box.mass * box.g * math.cos(box.alpha)
    shift = box.height * friction / (box.width * normal)
    return 0.5 * normal * np.array([1.0 + shift, 1.0 - shift])


def slide_closed_form(box: BoxOnRamp, v0: float) -> SlideClosedForm:
    """Stopping time, distance and corner loads of a box launched up the ramp.

    While the box slides up without tipping, friction ``-mu m g cos alpha``
    and gravity decelerate it uniformly. The moment balance about the centre
    of mass, ``(w/2)(f_1 - f_0) + (hgt/2) f_t = 0`` with ``f_t`` the total
    up-slope friction, splits the normal force ``m g cos alpha`` between the
    downhill (``f_0``) and uphill (``f_1``) corners: sliding up loads the
    uphill corner, resting (``f_t = m g sin alpha``) the downhill one.
    Explained in :ref:`sec-cs-closed-forms`.

    Parameters
    ----------
    box : BoxOnRamp
    v0 : float
        Launch speed up the slope, m/s (> 0).

    Returns
    -------
    SlideClosedForm

    Raises
    ------
    OutOfRangeError
        If the box would tip while sliding (``mu hgt > w``): then no uniform
        slide exists.

    Examples
    --------
    >>> cf = slide_closed_form(box_on_ramp(0.2, 0.4, 1.0, np.radians(15.0), 0.4), 1.0)
    >>> round(cf.stop_time, 6), round(cf.stop_distance, 6), cf.sticks
    (0.157995, 0.078998, True)
    """
    instance_of(box, BoxOnRamp, "box")
    speed = positive(v0, "v0")
    if tip_while_sliding(box):
        raise OutOfRangeError(
            f"mu hgt / w = {box.mu * box.height / box.width:.3g} exceeds 1: the box tips "
            "over its leading corner as soon as it slides, so the uniform slide has no closed form"
        )
    decel = box.g * (math.sin(box.alpha) + box.mu * math.cos(box.alpha))
    normal = box.mass * box.g * math.cos(box.alpha)
    return SlideClosedForm(
        deceleration=decel,
        stop_time=speed / decel,
        stop_distance=speed * speed / (2.0 * decel),
        loads_sliding=_split(box, -box.mu * normal),
        loads_at_rest=_split(box, box.mass * box.g * math.sin(box.alpha)),
        sticks=bool(math.tan(box.alpha) <= box.mu),
    )


def tip_at_rest(box: BoxOnRamp) -> bool:
    """Whether a box resting on the ramp tips over its downhill corner: ``tan alpha > w / hgt``.

    Explained in :ref:`sec-cs-closed-forms`.

    Examples
    --------
    >>> tip_at_rest(box_on_ramp(0.2, 0.4, 1.0, np.radians(30.0), 1.0))
    True
    """
    instance_of(box, BoxOnRamp, "box")
    return bool(math.tan(box.alpha) * box.height > box.width)


def tip_while_sliding(box: BoxOnRamp) -> bool:
    """Whether a sliding box tips over its leading corner: ``mu > w / hgt``.

    Independent of the inclination and of the sliding direction.
    Explained in :ref:`sec-cs-closed-forms`.

    Examples
    --------
    >>> tip_while_sliding(box_on_ramp(0.2, 0.4, 1.0, 0.2, 0.4))
    False
    """
    instance_of(box, BoxOnRamp, "box")
    return bool(box.mu * box.height > box.width)


def pivot_inertia(box: BoxOnRamp) -> float:
    """Moment of inertia about a corner, ``m (w^2 + hgt^2) / 3``, kg m^2.

    Computed with :func:`lib.inertia.parallel_axis`. Explained in
    :ref:`sec-cs-closed-forms`.

    Examples
    --------
    >>> round(pivot_inertia(box_on_ramp(0.2, 0.4, 1.0, 0.2, 0.4)), 6)
    0.066667
    """
    instance_of(box, BoxOnRamp, "box")
    inertia = box_inertia(box.mass, [box.width, box.height, _DEPTH])
    offset = [0.5 * box.width, 0.5 * box.height, 0.0]
    return float(parallel_axis(inertia, box.mass, offset)[2, 2])


def pivot_acceleration(box: BoxOnRamp, theta: ArrayLike = 0.0) -> FloatArray:
    """Angular acceleration of the box pivoting on its fixed downhill corner, rad/s^2.

    ``I_o theta'' = m g (r_y sin alpha - r_x cos alpha)`` with
    ``r = R(theta) (w/2, hgt/2)`` the centre of mass seen from the corner;
    at ``theta = 0`` this is ``3 g (hgt sin alpha - w cos alpha) /
    (2 (w^2 + hgt^2))``. Valid while the corner neither slips nor lifts.
    Explained in :ref:`sec-cs-closed-forms`.

    Parameters
    ----------
    box : BoxOnRamp
    theta : array_like, optional
        Tilt, rad.

    Returns
    -------
    numpy.ndarray
        Same shape as ``theta``.

    Examples
    --------
    >>> box = box_on_ramp(0.2, 0.4, 1.0, np.radians(30.0), 1.0)
    >>> round(float(pivot_acceleration(box)), 6)
    1.971436
    """
    instance_of(box, BoxOnRamp, "box")
    th = np.asarray(theta, dtype=float)
    half_w, half_h = 0.5 * box.width, 0.5 * box.height
    rx = half_w * np.cos(th) - half_h * np.sin(th)
    ry = half_w * np.sin(th) + half_h * np.cos(th)
    torque = box.mass * box.g * (ry * math.sin(box.alpha) - rx * math.cos(box.alpha))
    return torque / pivot_inertia(box)


def crossing_time(t: ArrayLike, signal: ArrayLike, level: float = 0.0) -> float:
    """First time a sampled signal reaches ``level``, by linear interpolation, s.

    Explained in :ref:`sec-cs-convergence`.

    Parameters
    ----------
    t, signal : array_like, shape (n,)
        Sample times (s) and values.
    level : float, optional
        The value to reach, crossed from either side.

    Raises
    ------
    OutOfRangeError
        If the signal never reaches ``level``.

    Examples
    --------
    >>> crossing_time([0.0, 1.0, 2.0], [3.0, 1.0, -1.0])
    1.5
    """
    times = as_array(t, "t", (None,))
    values = as_array(signal, "signal", times.shape) - real_number(level, "level")
    start = np.sign(values[0])
    hits = np.flatnonzero(np.sign(values) != start) if start != 0.0 else np.array([0])
    if hits.size == 0:
        raise OutOfRangeError(
            f"the signal never reaches {level:g} in [{times[0]:g}, {times[-1]:g}] s"
        )
    i = int(hits[0])
    if i == 0:
        return float(times[0])
    frac = values[i - 1] / (values[i - 1] - values[i])
    return float(times[i - 1] + frac * (times[i] - times[i - 1]))


@dataclass(frozen=True)
class RampRun:
    """A simulated trajectory of the box (see :func:`simulate_lcp`).

    Attributes
    ----------
    t : numpy.ndarray, shape (n + 1,)
        Time, s.
    q : numpy.ndarray, shape (n + 1, 3)
        Configurations ``(theta, x, y)``, rad and m.
    v : numpy.ndarray, shape (n + 1, 3)
        Velocities ``(omega, xdot, ydot)``, rad/s and m/s.
    f_n, f_t : numpy.ndarray, shape (n, 4)
        Normal and up-slope friction force on each corner over each step, N
        (mean force: impulse over ``dt`` for the LCP; shape ``(n, 0)`` for a
        MuJoCo run without forces).
    penetration : float
        Deepest corner penetration below the ramp over the run, m.
    diverged : bool
        The run was stopped because the state left every plausible range.
    """

    t: FloatArray
    q: FloatArray
    v: FloatArray
    f_n: FloatArray
    f_t: FloatArray
    penetration: float
    diverged: bool


def _start(box: BoxOnRamp, q0: ArrayLike, v0: ArrayLike, dt: float,
           t_end: float, step_name: str = "dt") -> tuple[FloatArray, FloatArray, float, int]:
    q = as_vector(q0, "q0", 3)
    v = as_vector(v0, "v0", 3)
    step = positive(dt, step_name)
    steps = int(math.ceil(positive(t_end, "t_end") / step - 1e-9))
    if steps > 200_000:
        raise OutOfRangeError(f"t_end / dt must be at most 2e5 steps, got {steps} steps")
    return q, v, step, steps


def resting_state(box: BoxOnRamp, x: float = 0.0) -> FloatArray:
    """Configuration of the upright box resting on the ramp at ``x``: ``(0, x, hgt / 2)``.

    Explained in :ref:`sec-cs-scene`.

    Examples
    --------
    >>> resting_state(box_on_ramp(0.2, 0.4, 1.0, 0.2, 0.4))
    array([0. , 0. , 0.2])
    """
    instance_of(box, BoxOnRamp, "box")
    return np.array([0.0, float(x), 0.5 * box.height])


def _finish(t, qs, vs, fn, ft, depth, diverged) -> RampRun:
    return RampRun(np.asarray(t), np.asarray(qs), np.asarray(vs), np.asarray(fn).reshape(-1, 4),
                   np.asarray(ft).reshape(-1, 4), float(depth), bool(diverged))


def simulate_lcp(box: BoxOnRamp, q0: ArrayLike, v0: ArrayLike, dt: float,
                 t_end: float) -> RampRun:
    """Step the box with the velocity-level time-stepping LCP (Lemke's method).

    Each step forms the contact-free velocity ``v* = v + dt M^-1 f_g``
    (:func:`lib.contact_lcp.free_velocity`), solves the Stewart-Trinkle /
    Anitescu-Potra LCP of the four corners
    (:func:`lib.contact_lcp.solve_contact_lcp`; in the plane the friction
    cone has exactly the two edges ``+-D``, so ``n_d = 2`` and the pyramid is
    exact), and moves ``q += dt v+``. Only corners closer to the ramp than a
    quarter of the box's smaller side enter the LCP (a broad phase).
    Explained in :ref:`sec-cs-convergence`.

    Parameters
    ----------
    box : BoxOnRamp
    q0, v0 : array_like, shape (3,)
        Initial configuration and velocity.
    dt : float
        Time step, s (> 0).
    t_end : float
        Duration, s (> 0).

    Returns
    -------
    RampRun

    Raises
    ------
    ConvergenceError
        If Lemke's method returns an inaccurate solution.

    Examples
    --------
    >>> box = box_on_ramp(0.2, 0.4, 1.0, np.radians(15.0), 0.4)
    >>> run = simulate_lcp(box, resting_state(box), [0.0, 1.0, 0.0], 0.01, 0.05)
    >>> round(float(run.v[-1, 1]), 6)           # 1 - 5 dt g (sin a + mu cos a)
    0.683535
    """
    instance_of(box, BoxOnRamp, "box")
    q, v, step, steps = _start(box, q0, v0, dt, t_end)
    M = mass_matrix(box)
    force = gravity_force(box)
    mu = np.full(4, box.mu)
    qs, vs, fn, ft = [q.copy()], [v.copy()], [], []
    depth, diverged = max(0.0, -float(np.min(contact_rows(box, q)[2]))), False
    margin = 0.25 * min(box.width, box.height)
    for _ in range(steps):
        N, D, phi = _rows(box, q[0], q[2])
        v_star = free_velocity(M, v, force, step)
        near = np.flatnonzero(phi < margin)        # candidate contacts (broad phase)
        f_n, f_t = np.zeros(4), np.zeros(4)
        if near.size:
            edges = np.stack([D[near], -D[near]], axis=1).reshape(2 * near.size, 3)
            result = solve_contact_lcp(M, N[near], edges, mu[near], phi[near], v_star, step)
            scale = 1.0 + float(np.max(np.abs(result.z)))
            if result.residual > 1e-9 * scale:
                raise ConvergenceError(
                    f"Lemke's method returned an LCP solution with residual {result.residual:.3g} "
                    f"at t = {step * len(fn):.4g} s; try another dt"
                )
            v = result.v_plus
            beta = result.beta.reshape(near.size, 2)
            f_n[near] = result.c_n / step
            f_t[near] = (beta[:, 0] - beta[:, 1]) / step
        else:
            v = v_star
        q = q + step * v
        fn.append(f_n)
        ft.append(f_t)
        depth = max(depth, -float(np.min(_rows(box, q[0], q[2])[2])))
        qs.append(q.copy())
        vs.append(v.copy())
        if not np.all(np.abs(q) < _DIVERGED):
            diverged = True
            break
    t = step * np.arange(len(qs))
    return _finish(t, qs, vs, fn, ft, depth, diverged)


def _penalty_gains(box: BoxOnRamp, k: float, zeta: float) -> float:
    """Damping of one corner: ``zeta`` of critical for the corner's effective mass."""
    N, _, _ = contact_rows(box, resting_state(box))
    return kelvin_voigt_damping(zeta, k, effective_mass(mass_matrix(box), N[0]))


def simulate_penalty(box: BoxOnRamp, q0: ArrayLike, v0: ArrayLike, dt: float, t_end: float,
                     k: float, zeta: float, v_slip: float) -> RampRun:
    """Step the box with spring-damper corners and regularised Coulomb friction.

    Each penetrating corner (depth ``delta = -phi``) carries the Kelvin-Voigt
    force ``f_n = max(0, k delta + d delta')``
    (:func:`lib.soft_contact.kelvin_voigt_force` without tension), with
    ``d`` set to the damping ratio ``zeta`` for the corner's effective mass,
    and the friction ``f_t = -mu f_n clip(v_t / v_slip, -1, 1)``, which
    turns Coulomb's law into a steep viscous law below the slip speed
    ``v_slip``. Semi-implicit Euler: ``v += dt M^-1 f(q, v)``, then
    ``q += dt v``. Explained in :ref:`sec-cs-convergence`.

    Parameters
    ----------
    box : BoxOnRamp
    q0, v0 : array_like, shape (3,)
        Initial configuration and velocity.
    dt : float
        Time step, s (> 0).
    t_end : float
        Duration, s (> 0).
    k : float
        Stiffness of each corner, N/m (> 0).
    zeta : float
        Damping ratio of each corner, ``0 <= zeta < 1``.
    v_slip : float
        Slip speed of the friction regularisation, m/s (> 0).

    Returns
    -------
    RampRun
        ``diverged`` is set when the explicit step became unstable.

    Examples
    --------
    >>> box = box_on_ramp(0.2, 0.4, 1.0, np.radians(15.0), 0.4)
    >>> q0 = resting_state(box) - [0.0, 0.0, 2.4e-5]
    >>> run = simulate_penalty(box, q0, [0.0, 1.0, 0.0], 1e-4, 0.05, 2e5, 0.5, 1e-3)
    >>> round(float(run.v[-1, 1]), 3)
    0.684
    """
    instance_of(box, BoxOnRamp, "box")
    q, v, step, steps = _start(box, q0, v0, dt, t_end)
    kk = positive(k, "k")
    z = in_range(zeta, "zeta", 0.0, 1.0, high_open=True)
    slip = positive(v_slip, "v_slip")
    d = _penalty_gains(box, kk, z)
    Minv = 1.0 / np.diag(mass_matrix(box))
    force = gravity_force(box)
    qs, vs = np.empty((steps + 1, 3)), np.empty((steps + 1, 3))
    fn, ft = np.zeros((steps, 4)), np.zeros((steps, 4))
    qs[0], vs[0] = q, v
    bound = 10.0 * box.height
    depth, diverged, done = 0.0, False, steps
    for i in range(steps):
        N, D, phi = _rows(box, q[0], q[2])
        f_n = fn[i]
        f_t = ft[i]
        if phi.min() < 0.0:
            f_n[:] = kelvin_voigt_force(kk, d, -phi, -(N @ v), tension=False)
            f_t[:] = -box.mu * f_n * np.clip((D @ v) / slip, -1.0, 1.0)
            depth = max(depth, -float(phi.min()))
        v = v + step * Minv * (force + f_n @ N + f_t @ D)
        q = q + step * v
        qs[i + 1], vs[i + 1] = q, v
        if not (math.isfinite(q[1]) and abs(q[1] - qs[0, 1]) < bound
                and abs(q[2] - qs[0, 2]) < bound):
            diverged, done = True, i + 1
            break
    t = step * np.arange(done + 1)
    return _finish(t, qs[: done + 1], vs[: done + 1], fn[:done], ft[:done], depth, diverged)


def penalty_step_limit(box: BoxOnRamp, k: float, zeta: float, v_slip: float) -> tuple[float, float]:
    """Stability limits of :func:`simulate_penalty` for the box resting upright, s.

    Normal: with both bottom corners penetrating, the stiffness matrix is
    ``K = k N_b^T N_b``; semi-implicit Euler is stable for
    ``omega dt < critical_omega_dt(zeta)`` (:func:`lib.contact_sim.critical_omega_dt`)
    at the largest ``omega = sqrt(eig(M^-1 K))``. Tangential: below the slip
    speed friction is a damper ``mu f_n / v_slip`` per corner, and the
    explicit step of ``v' = -M^-1 C v`` is stable for ``dt < 2 / eig_max(M^-1 C)``.
    The static loads of :func:`slide_closed_form` enter ``C``.
    Explained in :ref:`sec-cs-convergence`.

    Parameters
    ----------
    box : BoxOnRamp
    k, zeta, v_slip
        As in :func:`simulate_penalty`.

    Returns
    -------
    normal_limit, friction_limit : float
        Step limits, s.

    Examples
    --------
    >>> box = box_on_ramp(0.2, 0.4, 1.0, np.radians(15.0), 0.4)
    >>> [round(x * 1e3, 4) for x in penalty_step_limit(box, 2e5, 0.5, 1e-3)]   # ms
    [1.9544, 0.1552]
    """
    instance_of(box, BoxOnRamp, "box")
    kk = positive(k, "k")
    z = in_range(zeta, "zeta", 0.0, 1.0, high_open=True)
    slip = positive(v_slip, "v_slip")
    M = mass_matrix(box)
    N, D, _ = contact_rows(box, resting_state(box))
    N_b, D_b = N[:2], D[:2]
    omega = math.sqrt(float(np.max(np.linalg.eigvals(np.linalg.solve(M, kk * N_b.T @ N_b)).real)))
    loads = _split(box, box.mass * box.g * math.sin(box.alpha))
    C = D_b.T @ np.diag(box.mu * loads / slip) @ D_b
    rate = float(np.max(np.linalg.eigvals(np.linalg.solve(M, C)).real))
    return critical_omega_dt(z) / omega, 2.0 / rate


def mujoco_xml(box: BoxOnRamp, timestep: float) -> str:
    """MJCF of the scene: a box with slide and hinge joints over a level plane.

    The model works in the ramp frame, so the plane is level and gravity is
    tilted to ``g (-sin alpha, 0, -cos alpha)``; MuJoCo's ``x`` is the ramp's
    ``x`` and its ``z`` the ramp normal. Joints ``x`` and ``z`` slide and
    ``theta`` hinges about ``-y``, so that the joint angle equals the
    book's tilt. Friction ``mu`` is set on both geoms (MuJoCo uses the
    larger); solver parameters stay at their defaults.
    Explained in :ref:`sec-cs-convergence`.

    Examples
    --------
    >>> "timestep=\\"0.002\\"" in mujoco_xml(box_on_ramp(0.2, 0.4, 1.0, 0.2, 0.4), 0.002)
    True
    """
    instance_of(box, BoxOnRamp, "box")
    step = positive(timestep, "timestep")
    gx, gz = -box.g * math.sin(box.alpha), -box.g * math.cos(box.alpha)
    return f"""<mujoco>
  <option timestep="{step!r}" gravity="{gx!r} 0 {gz!r}"/>
  <worldbody>
    <geom name="ramp" type="plane" size="5 1 0.1" friction="{box.mu!r} 0 0"/>
    <body name="box" pos="0 0 {0.5 * box.height!r}">
      <joint name="x" type="slide" axis="1 0 0"/>
      <joint name="z" type="slide" axis="0 0 1"/>
      <joint name="theta" type="hinge" axis="0 -1 0"/>
      <geom name="box" type="box" mass="{box.mass!r}" friction="{box.mu!r} 0 0"
            size="{0.5 * box.width!r} {0.5 * _DEPTH!r} {0.5 * box.height!r}"/>
    </body>
  </worldbody>
</mujoco>"""


def simulate_mujoco(box: BoxOnRamp, q0: ArrayLike, v0: ArrayLike, timestep: float,
                    t_end: float, *, forces: bool = True) -> RampRun:
    """Step the scene of :func:`mujoco_xml` with MuJoCo's default solver.

    Returns the same :class:`RampRun` as :func:`simulate_lcp`; the corner
    forces are MuJoCo's contact forces (:func:`mujoco.mj_contactForce`)
    summed onto the nearest corner of the box. Imports :mod:`mujoco` when
    called. Explained in :ref:`sec-cs-convergence`.

    Parameters
    ----------
    box : BoxOnRamp
    q0, v0 : array_like, shape (3,)
        Initial configuration and velocity, as for :func:`simulate_lcp`.
    timestep : float
        MuJoCo's time step, s (> 0).
    t_end : float
        Duration, s (> 0).
    forces : bool, optional
        Extract the corner forces (the slow part of the loop); without them
        ``f_n`` and ``f_t`` have shape ``(n, 0)``.

    Returns
    -------
    RampRun

    Examples
    --------
    >>> box = box_on_ramp(0.2, 0.4, 1.0, np.radians(15.0), 0.4)
    >>> run = simulate_mujoco(box, resting_state(box), [0.0, 1.0, 0.0], 0.002, 0.4)
    >>> round(float(run.q[-1, 1]), 2)        # closed form: 0.0790 m
    0.08
    """
    instance_of(box, BoxOnRamp, "box")
    import mujoco

    q, v, step, steps = _start(box, q0, v0, timestep, t_end, "timestep")
    model = mujoco.MjModel.from_xml_string(mujoco_xml(box, step))
    data = mujoco.MjData(model)
    # book (theta, x, y) -> MuJoCo joints (x, z, theta); the body starts at z = hgt/2
    data.qpos[:] = [q[1], q[2] - 0.5 * box.height, q[0]]
    data.qvel[:] = [v[1], v[2], v[0]]
    mujoco.mj_forward(model, data)
    corners_body = _CORNER_SIGNS * np.array([0.5 * box.width, 0.5 * box.height])
    wrench = np.zeros(6)
    qs, vs, fn, ft = [q.copy()], [v.copy()], [], []
    depth = 0.0
    for _ in range(steps):
        mujoco.mj_step(model, data)
        qp, qv = data.qpos, data.qvel
        state = np.array([qp[2], qp[0], qp[1] + 0.5 * box.height])
        f_n, f_t = np.zeros(4), np.zeros(4)
        c, s = math.cos(state[0]), math.sin(state[0])
        for i in range(data.ncon if forces else 0):
            contact = data.contact[i]
            mujoco.mj_contactForce(model, data, i, wrench)
            frame = contact.frame.reshape(3, 3)
            world = frame.T @ wrench[:3]           # force on geom 2 (the box)
            rel = np.array([contact.pos[0] - state[1], contact.pos[2] - state[2]])
            local = np.array([c * rel[0] + s * rel[1], -s * rel[0] + c * rel[1]])
            corner = int(np.argmin(np.sum((corners_body - local) ** 2, axis=1)))
            sign = 1.0 if model.geom(contact.geom2).name == "box" else -1.0
            f_n[corner] += sign * world[2]
            f_t[corner] += sign * world[0]
        depth = max(depth, -float(np.min(_rows(box, state[0], state[2])[2])))
        qs.append(state)
        vs.append(np.array([qv[2], qv[0], qv[1]]))
        fn.append(f_n)
        ft.append(f_t)
    t = step * np.arange(len(qs))
    if not forces:
        empty = np.zeros((steps, 0))
        return RampRun(t, np.asarray(qs), np.asarray(vs), empty, empty, float(depth), False)
    return _finish(t, qs, vs, fn, ft, depth, False)
