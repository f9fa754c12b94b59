"""Models for the constrained-dynamics chapter: a 3R pen, a four-bar, a five-bar, a Stewart-Gough platform.

All planar models live in a vertical plane with gravity along ``-y`` and are
built from uniform rods (mass ``density * length``, centroidal inertia
``m l^2 / 12``). Maximal coordinates stack ``(x, y, phi)`` of each body's
centre of mass and angle, world frame, SI units. The Stewart-Gough platform is
spatial, with massless legs. Lengths and densities are the book's own
illustrative choices, not data of a real robot.

The solvers these models feed are in :mod:`lib.constraints`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from ._validation import (FloatArray, as_array, as_rotation, as_symmetric, as_vector, nonnegative, positive,
                          positive_array, real_number)
from .constraints import (
    MAX_CONDITION,
    PinJoint,
    actuated_velocity_map,
    check_constraint_jacobian,
    planar_pin_joints,
)
from .errors import ShapeError, SingularConstraintError, UnreachableTargetError
from .rigid_body import world_frame_euler

__all__ = [
    "GRAVITY",
    "PenTerms",
    "planar_chain_dynamics",
    "planar_chain_tip",
    "pen_on_line",
    "rod_mass_matrix",
    "FOURBAR_LENGTHS",
    "fourbar_joints",
    "fourbar_dynamics",
    "fourbar_constraints",
    "fourbar_configuration",
    "fourbar_state",
    "fourbar_independent_acceleration",
    "mechanical_energy",
    "FIVEBAR_GEOMETRY",
    "FIVEBAR_ACTUATED",
    "fivebar_joints",
    "fivebar_dynamics",
    "fivebar_constraints",
    "fivebar_configuration",
    "fivebar_motion",
    "stewart_geometry",
    "stewart_wrench_matrix",
    "stewart_leg_forces",
]

#: Standard gravity (m/s^2).
GRAVITY = 9.81


# ---------------------------------------------------------------------------
# Planar serial chain of uniform rods (the pen-on-paper 3R arm)
# ---------------------------------------------------------------------------


def _chain_inputs(q: ArrayLike, qd: ArrayLike, lengths: ArrayLike) -> tuple[FloatArray, FloatArray, FloatArray]:
    L = positive_array(lengths, "lengths", (None,))
    if L.size == 0:
        raise ShapeError("lengths must list at least one link length")
    return as_vector(q, "q", L.size), as_vector(qd, "qd", L.size), L


def _chain_kinematics(q: FloatArray, qd: FloatArray, L: FloatArray, weights: FloatArray):
    """Jacobian and ``Jdot qd`` of the point ``sum_k w_k u_k`` (``w`` per link)."""
    phi = np.cumsum(q)
    phid = np.cumsum(qd)
    u = np.stack([np.cos(phi), np.sin(phi)], axis=1)
    uperp = np.stack([-np.sin(phi), np.cos(phi)], axis=1)
    n = q.size
    point = weights @ u
    J = np.zeros((2, n))
    for j in range(n):
        J[:, j] = weights[j:] @ uperp[j:]
    jdqd = -(weights * phid**2) @ u
    return point, J, jdqd


def planar_chain_dynamics(
    q: ArrayLike, qd: ArrayLike, lengths: ArrayLike, masses: ArrayLike, gravity: float = GRAVITY
) -> tuple[FloatArray, FloatArray]:
    """Mass matrix and bias force of a planar serial chain of uniform rods.

    Joint ``i`` is a revolute joint with relative angle ``q[i]``; link ``i``
    has length ``lengths[i]``, mass ``masses[i]``, centre of mass at its
    middle and centroidal inertia ``m l^2 / 12``. The base joint is at the
    world origin; gravity acts along ``-y``. Returns ``M`` and
    ``h = C qd + g`` with ``M qdd + h = tau``, from the projection of each
    link's Newton-Euler equations: ``M = sum m J_v^T J_v + I J_w^T J_w``,
    ``h = sum m J_v^T (Jdot_v qd - g_vec)``.
    Explained in :ref:`sec-cd-equivalence`.

    Parameters
    ----------
    q, qd : array_like, shape (n,)
        Relative joint angles (rad) and rates (rad/s).
    lengths, masses : array_like, shape (n,)
        Link lengths (m) and masses (kg), positive.
    gravity : float
        Gravitational acceleration (m/s^2), non-negative.

    Returns
    -------
    M : numpy.ndarray, shape (n, n)
        Joint-space mass matrix (kg m^2).
    h : numpy.ndarray, shape (n,)
        Coriolis, centrifugal and gravity torques (N m).

    Examples
    --------
    A single rod (1 m, 1 kg) hanging horizontally: ``M = m l^2/3``,
    gravity torque ``m g l/2``:

    >>> M, h = planar_chain_dynamics([0.0], [0.0], [1.0], [1.0])
    >>> np.round(M, 6), np.round(h, 6)
    (array([[0.333333]]), array([4.905]))
    """
    qa, va, L = _chain_inputs(q, qd, lengths)
    m = positive_array(masses, "masses", (L.size,))
    g = _gravity(gravity)
    n = L.size
    M = np.zeros((n, n))
    h = np.zeros(n)
    for i in range(n):
        w = np.zeros(n)
        w[:i] = L[:i]
        w[i] = 0.5 * L[i]
        _, Jv, jdqd = _chain_kinematics(qa, va, L, w)
        Jw = np.zeros(n)
        Jw[: i + 1] = 1.0
        inertia = m[i] * L[i] ** 2 / 12.0
        M += m[i] * Jv.T @ Jv + inertia * np.outer(Jw, Jw)
        h += m[i] * Jv.T @ (jdqd - np.array([0.0, -g]))
    return 0.5 * (M + M.T), h


def planar_chain_tip(q: ArrayLike, qd: ArrayLike, lengths: ArrayLike) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Tip position, Jacobian and ``Jdot qd`` of a planar serial chain.

    Explained in :ref:`sec-cd-equivalence`.

    Parameters
    ----------
    q, qd : array_like, shape (n,)
        Relative joint angles (rad) and rates (rad/s).
    lengths : array_like, shape (n,)
        Link lengths (m).

    Returns
    -------
    p : numpy.ndarray, shape (2,)
        Tip position (m), world frame.
    J : numpy.ndarray, shape (2, n)
        ``dp/dq``.
    jdqd : numpy.ndarray, shape (2,)
        ``Jdot qd`` (m/s^2).

    Examples
    --------
    >>> p, J, jdqd = planar_chain_tip([0.0, np.pi / 2], [1.0, 0.0], [1.0, 1.0])
    >>> np.round(p, 6), np.round(J, 6), np.round(jdqd, 6)
    (array([1., 1.]), array([[-1., -1.],
           [ 1.,  0.]]), array([-1., -1.]))
    """
    qa, va, L = _chain_inputs(q, qd, lengths)
    return _chain_kinematics(qa, va, L, L)


class PenTerms(NamedTuple):
    """Everything the KKT solvers need for the pen-on-a-line arm at one state.

    - ``M``, shape (n, n): mass matrix (kg m^2);
    - ``h``, shape (n,): bias torques ``C qd + g`` (N m);
    - ``Phi``, shape (1,): constraint error ``n . p_tip - d`` (m);
    - ``J``, shape (1, n): constraint Jacobian (m/rad);
    - ``gamma``, shape (1,): ``-Jdot qd`` (m/s^2).

    Explained in :ref:`sec-cd-equivalence`.
    """

    M: FloatArray
    h: FloatArray
    Phi: FloatArray
    J: FloatArray
    gamma: FloatArray


def pen_on_line(
    q: ArrayLike,
    qd: ArrayLike,
    lengths: ArrayLike = (0.4, 0.3, 0.2),
    masses: ArrayLike = (2.0, 1.5, 1.0),
    normal: ArrayLike = (0.0, 1.0),
    offset: float = 0.3,
    gravity: float = GRAVITY,
) -> PenTerms:
    """A planar arm whose pen tip must stay on the line ``normal . p = offset``.

    The default is the chapter's 3R arm writing on a whiteboard (vertical
    plane) along the horizontal line ``y = 0.3`` m: ``n = 3`` coordinates and
    ``m = 1`` constraint.
    Explained in :ref:`sec-cd-equivalence`.

    Parameters
    ----------
    q, qd : array_like, shape (n,)
        Relative joint angles (rad) and rates (rad/s).
    lengths, masses : array_like, shape (n,)
        Link lengths (m) and masses (kg).
    normal : array_like, shape (2,)
        Normal of the line (normalised here), world frame.
    offset : float
        Signed distance of the line from the base (m).
    gravity : float
        Gravitational acceleration along ``-y`` (m/s^2).

    Returns
    -------
    PenTerms

    Raises
    ------
    ShapeError
        If ``normal`` is the zero vector.

    Examples
    --------
    >>> t = pen_on_line([0.0, 0.0, 0.0], [0.0, 0.0, 0.0])
    >>> np.round(t.Phi, 6), np.round(t.J, 6)
    (array([-0.3]), array([[0.9, 0.5, 0.2]]))
    """
    M, h = planar_chain_dynamics(q, qd, lengths, masses, gravity)
    p, Jt, jdqd = planar_chain_tip(q, qd, lengths)
    nv = as_vector(normal, "normal", 2)
    norm = float(np.linalg.norm(nv))
    if norm == 0.0:
        raise ShapeError("normal must be a non-zero 2-vector (the line's normal direction)")
    nv = nv / norm
    d = real_number(offset, "offset")
    return PenTerms(M, h, np.array([nv @ p - d]), (nv @ Jt)[None, :], np.array([-(nv @ jdqd)]))


def _gravity(gravity: float) -> float:
    return nonnegative(gravity, "gravity (m/s^2, acting along -y)")


# ---------------------------------------------------------------------------
# Rods in maximal coordinates
# ---------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------
# Four-bar linkage
# ---------------------------------------------------------------------------

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


# ---------------------------------------------------------------------------
# Five-bar parallel mechanism
# ---------------------------------------------------------------------------

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


# ---------------------------------------------------------------------------
# Stewart-Gough platform with massless legs
# ---------------------------------------------------------------------------


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
