"""A two-link planar finger pressing on a table: friction cone meets torque limits.

Pure functions behind the fifth figure of the lesson "Contact and friction".
The shoulder joint sits at height ``base_height`` above the table, which is the
line ``y = 0`` of the world frame. The contact frame at the fingertip has its
tangent along world ``x`` and its normal along world ``y`` (up, into the
finger), so a contact force ``f_c = (f_t, f_n)`` is the table's force on the
fingertip in world coordinates. Quasi-statically, with gravity compensated,
the motors hold ``tau = -J_c^T f_c``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy.optimize import linprog

from .._validation import FloatArray, as_matrix, as_vector, in_range, one_of, positive
from ..errors import ConvergenceError, SingularConstraintError, UnreachableTargetError
from .planar_chain import planar_chain_tip


__all__ = [
    "two_link_ik",
    "two_link_points",
    "contact_jacobian",
    "contact_torques",
    "feasible_force_polygon",
    "FingertipForceState",
    "force_state",
    "MaxNormalForce",
    "max_normal_force",
    "press_capacity",
]


def two_link_ik(x_tip: float, elbow: str = "up", l1: float = 0.5, l2: float = 0.5,
                base_height: float = 0.5) -> FloatArray:
    """Joint angles that put the fingertip on the table at ``(x_tip, 0)``.

    ``q1`` is the angle of link 1 from world ``x``, ``q2`` the angle of link
    2 relative to link 1 (both counter-clockwise, radians).
    Explained in :ref:`sec-cf-fingertip`.

    Parameters
    ----------
    x_tip : float
        Fingertip position along the table, m (world ``x``; shoulder at
        ``x = 0``).
    elbow : {"up", "down"}, optional
        Which of the two solutions: elbow above or below the line from the
        shoulder to the fingertip.
    l1, l2 : float, optional
        Link lengths in m (> 0).
    base_height : float, optional
        Height of the shoulder above the table in m (> 0).

    Returns
    -------
    numpy.ndarray
        ``(q1, q2)`` in radians.

    Raises
    ------
    UnreachableTargetError
        If the fingertip cannot reach ``(x_tip, 0)``.

    Examples
    --------
    >>> np.round(np.degrees(two_link_ik(0.5, "up")), 6)
    array([  0., -90.])
    """
    x_tip = float(as_vector([x_tip], "x_tip", 1)[0])
    l1 = positive(l1, "l1")
    l2 = positive(l2, "l2")
    base_height = positive(base_height, "base_height")
    one_of(elbow, "elbow", ("up", "down"))
    dx, dy = x_tip, -base_height
    r2 = dx * dx + dy * dy
    cos_q2 = (r2 - l1 * l1 - l2 * l2) / (2.0 * l1 * l2)
    if cos_q2 > 1.0 + 1e-12 or cos_q2 < -1.0 - 1e-12:
        reach = math.sqrt(max((l1 + l2) ** 2 - base_height**2, 0.0))
        raise UnreachableTargetError(
            f"the fingertip cannot reach x_tip = {x_tip:g} m on the table: the distance from the "
            f"shoulder is {math.sqrt(r2):.4g} m but the links reach between {abs(l1 - l2):.4g} and "
            f"{l1 + l2:.4g} m (|x_tip| <= {reach:.4g} m at base_height = {base_height:g} m)"
        )
    q2_abs = math.acos(min(max(cos_q2, -1.0), 1.0))
    best = None
    for q2 in (q2_abs, -q2_abs):
        q1 = math.atan2(dy, dx) - math.atan2(l2 * math.sin(q2), l1 + l2 * math.cos(q2))
        elbow_y = base_height + l1 * math.sin(q1)
        if best is None or (elbow_y > best[0]) == (elbow == "up"):
            best = (elbow_y, q1, q2)
    return np.array([best[1], best[2]])


def two_link_points(q: ArrayLike, l1: float = 0.5, l2: float = 0.5,
                    base_height: float = 0.5) -> FloatArray:
    """Shoulder, elbow and fingertip positions of the planar finger.

    Explained in :ref:`sec-cf-fingertip`.

    Parameters
    ----------
    q : array_like, shape (2,)
        Joint angles in radians (see :func:`two_link_ik`).
    l1, l2 : float, optional
        Link lengths in m (> 0).
    base_height : float, optional
        Shoulder height above the table in m (> 0).

    Returns
    -------
    numpy.ndarray, shape (3, 2)
        Rows: shoulder, elbow, fingertip in world coordinates, m.

    Examples
    --------
    >>> np.round(two_link_points(two_link_ik(0.5)), 6) + 0.0
    array([[0. , 0.5],
           [0.5, 0.5],
           [0.5, 0. ]])
    """
    q = as_vector(q, "q", 2)
    l1 = positive(l1, "l1")
    l2 = positive(l2, "l2")
    shoulder = np.array([0.0, positive(base_height, "base_height")])
    elbow = shoulder + l1 * np.array([np.cos(q[0]), np.sin(q[0])])
    tip = elbow + l2 * np.array([np.cos(q[0] + q[1]), np.sin(q[0] + q[1])])
    return np.vstack([shoulder, elbow, tip])


def contact_jacobian(q: ArrayLike, l1: float = 0.5, l2: float = 0.5) -> FloatArray:
    """Jacobian ``J_c`` of the fingertip velocity in the contact frame.

    Rows are the tangential (world ``x``) and normal (world ``y``) velocity
    of the fingertip, columns the two joint rates:
    ``v_c = J_c q'``.
    Explained in :ref:`sec-cf-fingertip`.

    Parameters
    ----------
    q : array_like, shape (2,)
        Joint angles in radians.
    l1, l2 : float, optional
        Link lengths in m (> 0).

    Returns
    -------
    numpy.ndarray, shape (2, 2)
        ``J_c`` in m/rad.

    Examples
    --------
    >>> np.round(contact_jacobian([0.0, -np.pi / 2]), 6) + 0.0
    array([[0.5, 0.5],
           [0.5, 0. ]])
    """
    q = as_vector(q, "q", 2)
    l1 = positive(l1, "l1")
    l2 = positive(l2, "l2")
    # The tangent is world x and the normal world y, so J_c is the tip
    # Jacobian of the planar chain (its kinematics, one implementation).
    return planar_chain_tip(q, np.zeros(2), [l1, l2])[1]


def contact_torques(jacobian: ArrayLike, force: ArrayLike) -> FloatArray:
    """Joint torques that hold the contact force quasi-statically.

    With gravity compensated and no motion, ``0 = tau + J_c^T f_c``, so
    ``tau = -J_c^T f_c`` (the finger pushes on the table with ``-f_c``).
    Explained in :ref:`sec-cf-fingertip`.

    Parameters
    ----------
    jacobian : array_like, shape (2, 2)
        Contact Jacobian ``J_c`` (see :func:`contact_jacobian`).
    force : array_like, shape (2,)
        Table force on the fingertip ``(f_t, f_n)``, N.

    Returns
    -------
    numpy.ndarray, shape (2,)
        Joint torques in N m.

    Examples
    --------
    >>> np.round(contact_torques([[0.5, 0.5], [0.5, 0.0]], [0.0, 2.0]), 6) + 0.0
    array([-1.,  0.])
    """
    jac = as_matrix(jacobian, "jacobian", 2)
    f = as_vector(force, "force", 2)
    return -jac.T @ f


def _check_common(jacobian: ArrayLike, mu: float, tau_max: float) -> tuple[FloatArray, float, float]:
    jac = as_matrix(jacobian, "jacobian", 2)
    mu = in_range(mu, "mu", 0.0, np.inf, high_open=True)
    tau_max = positive(tau_max, "tau_max")
    return jac, mu, tau_max


def _halfplanes(jac: FloatArray, mu: float, tau_max: float) -> tuple[FloatArray, FloatArray]:
    """Rows ``a . f <= b`` of the cone (two sides, f_n >= 0) and the four torque limits."""
    a = np.vstack([
        [1.0, -mu],
        [-1.0, -mu],
        [0.0, -1.0],
        jac.T,
        -jac.T,
    ])
    b = np.array([0.0, 0.0, 0.0, tau_max, tau_max, tau_max, tau_max])
    return a, b


def feasible_force_polygon(jacobian: ArrayLike, mu: float, tau_max: float) -> FloatArray:
    """Contact forces the table allows and the motors can hold, as a polygon.

    The set is the friction cone ``f_n >= 0, |f_t| <= mu f_n`` intersected
    with the strips ``|(J_c^T f)_i| <= tau_max``. It is computed by clipping
    a large triangle of the cone with each torque half-plane in turn
    (Sutherland-Hodgman), so its vertices come from a different computation
    than the linear program of :func:`max_normal_force`.
    Explained in :ref:`sec-cf-fingertip`.

    Parameters
    ----------
    jacobian : array_like, shape (2, 2)
        Contact Jacobian ``J_c``.
    mu : float
        Friction coefficient (>= 0).
    tau_max : float
        Torque limit of each joint, N m (> 0).

    Returns
    -------
    numpy.ndarray, shape (m, 2)
        Vertices ``(f_t, f_n)`` in N, counter-clockwise, without repeating
        the first vertex. The origin is always one of them.

    Raises
    ------
    SingularConstraintError
        If ``J_c`` is singular (stretched or folded finger): the set is
        then unbounded or degenerate.

    Examples
    --------
    >>> np.round(feasible_force_polygon([[0.5, 0.5], [0.5, 0.0]], 0.5, 1.0), 6) + 0.0
    array([[ 0.      ,  0.      ],
           [ 0.666667,  1.333333],
           [-2.      ,  4.      ]])
    """
    jac, mu, tau_max = _check_common(jacobian, mu, tau_max)
    sigma = np.linalg.svd(jac, compute_uv=False)
    if sigma[-1] <= 1e-9 * max(sigma[0], 1e-300):
        raise SingularConstraintError(
            f"the contact Jacobian is singular (singular values {sigma[0]:.3g}, {sigma[-1]:.3g}): "
            "the finger is stretched or folded and the torque limits do not bound the force"
        )
    # |f| <= ||J^-T|| |tau| <= sqrt(2) tau_max / sigma_min bounds every feasible force.
    top = 2.0 * math.sqrt(2.0) * tau_max / sigma[-1] + 1.0
    polygon = [np.array([0.0, 0.0]), np.array([mu * top, top]), np.array([-mu * top, top])]
    a, b = _halfplanes(jac, mu, tau_max)
    scale = tau_max
    for row, bound in zip(a[3:], b[3:]):
        clipped = []
        for i, p in enumerate(polygon):
            q = polygon[(i + 1) % len(polygon)]
            sp = float(row @ p - bound)
            sq = float(row @ q - bound)
            if sp <= 1e-12 * scale:
                clipped.append(p)
            if (sp > 1e-12 * scale and sq < -1e-12 * scale) or (sp < -1e-12 * scale and sq > 1e-12 * scale):
                clipped.append(p + sp / (sp - sq) * (q - p))
        polygon = clipped
    vertices = [polygon[0]]
    tol = 1e-9 * max(top, 1.0)
    for p in polygon[1:]:
        if np.linalg.norm(p - vertices[-1]) > tol:
            vertices.append(p)
    if len(vertices) > 1 and np.linalg.norm(vertices[-1] - vertices[0]) <= tol:
        vertices.pop()
    out = np.array(vertices)
    # Start at the origin, keep counter-clockwise order.
    start = int(np.argmin(np.linalg.norm(out, axis=1)))
    out = np.roll(out, -start, axis=0)
    area2 = float(np.sum(out[:, 0] * np.roll(out[:, 1], -1) - np.roll(out[:, 0], -1) * out[:, 1]))
    if area2 < 0.0:
        out = np.vstack([out[:1], out[1:][::-1]])
    return out


@dataclass(frozen=True)
class FingertipForceState:
    """Whether a demanded fingertip force can be held (see :func:`force_state`).

    Attributes
    ----------
    label : str
        ``"feasible"``, ``"table must pull"`` (``f_n < 0``),
        ``"outside friction cone"``, ``"joint 1 over limit"``,
        ``"joint 2 over limit"``, ``"joints 1 and 2 over limit"``, or a
        combination such as ``"outside friction cone; joint 2 over limit"``.
    in_cone : bool
        The table can supply the force (friction cone, ``f_n >= 0``).
    torques : numpy.ndarray, shape (2,)
        ``-J_c^T f_c`` in N m.
    over_limit : tuple of bool
        For each joint, ``|tau_i| > tau_max``.
    """

    label: str
    in_cone: bool
    torques: FloatArray
    over_limit: tuple[bool, bool]


def force_state(jacobian: ArrayLike, force: ArrayLike, mu: float, tau_max: float) -> FingertipForceState:
    """Check a demanded fingertip force against the cone and the torque limits.

    Explained in :ref:`sec-cf-fingertip`.

    Parameters
    ----------
    jacobian : array_like, shape (2, 2)
        Contact Jacobian ``J_c``.
    force : array_like, shape (2,)
        Table force on the fingertip ``(f_t, f_n)``, N.
    mu : float
        Friction coefficient (>= 0).
    tau_max : float
        Torque limit of each joint, N m (> 0).

    Returns
    -------
    FingertipForceState
        The label, the torques and which joints exceed the limit.

    Examples
    --------
    >>> J = [[0.5, 0.5], [0.5, 0.0]]
    >>> force_state(J, [0.0, 1.5], 0.5, 1.0).label
    'feasible'
    >>> force_state(J, [0.0, 3.0], 0.5, 1.0).label
    'joint 1 over limit'
    >>> force_state(J, [1.0, 1.5], 0.5, 1.0).label
    'outside friction cone; joint 1 over limit'
    """
    jac, mu, tau_max = _check_common(jacobian, mu, tau_max)
    f = as_vector(force, "force", 2)
    torques = contact_torques(jac, f)
    tol = 1e-12 * max(1.0, float(np.max(np.abs(f))))
    over = tuple(bool(abs(t) > tau_max * (1.0 + 1e-12)) for t in torques)
    parts = []
    in_cone = True
    if f[1] < -tol:
        parts.append("table must pull")
        in_cone = False
    elif abs(f[0]) > mu * f[1] + tol:
        parts.append("outside friction cone")
        in_cone = False
    if over[0] and over[1]:
        parts.append("joints 1 and 2 over limit")
    elif over[0]:
        parts.append("joint 1 over limit")
    elif over[1]:
        parts.append("joint 2 over limit")
    label = "; ".join(parts) if parts else "feasible"
    return FingertipForceState(label, in_cone, torques, (over[0], over[1]))


@dataclass(frozen=True)
class MaxNormalForce:
    """The solution of the max-normal-force linear program.

    Attributes
    ----------
    force : numpy.ndarray, shape (2,)
        Optimal table force ``(f_t, f_n)`` in N.
    normal_force : float
        The optimum ``f_n`` in N.
    torques : numpy.ndarray, shape (2,)
        Joint torques at the optimum, N m.
    limiting_joints : tuple of bool
        For each joint, whether its torque limit is active at the optimum.
    cone_active : bool
        Whether the optimum lies on the friction-cone boundary.
    """

    force: FloatArray
    normal_force: float
    torques: FloatArray
    limiting_joints: tuple[bool, bool]
    cone_active: bool


def max_normal_force(jacobian: ArrayLike, mu: float, tau_max: float) -> MaxNormalForce:
    """Press as hard as possible: maximise ``f_n`` over the feasible polygon.

    Solves the linear program ``max f_n`` subject to ``|f_t| <= mu f_n``,
    ``f_n >= 0`` and ``|(J_c^T f)_i| <= tau_max`` with SciPy's HiGHS
    (``scipy.optimize.linprog``). The optimum sits at a vertex of
    :func:`feasible_force_polygon`.
    Explained in :ref:`sec-cf-fingertip`.

    Parameters
    ----------
    jacobian : array_like, shape (2, 2)
        Contact Jacobian ``J_c``.
    mu : float
        Friction coefficient (>= 0).
    tau_max : float
        Torque limit of each joint, N m (> 0).

    Returns
    -------
    MaxNormalForce
        The optimal force, torques and active constraints.

    Raises
    ------
    SingularConstraintError
        If the program is unbounded (a singular Jacobian lets the finger
        press without torque).
    ConvergenceError
        If the solver fails for another reason.

    Examples
    --------
    >>> r = max_normal_force([[0.5, 0.5], [0.5, 0.0]], 0.5, 1.0)
    >>> round(r.normal_force, 6), r.limiting_joints
    (4.0, (True, True))
    """
    jac, mu, tau_max = _check_common(jacobian, mu, tau_max)
    a, b = _halfplanes(jac, mu, tau_max)
    result = linprog(c=[0.0, -1.0], A_ub=a, b_ub=b, bounds=[(None, None), (None, None)], method="highs")
    if result.status == 3:
        raise SingularConstraintError(
            "the normal force is unbounded: the contact Jacobian is singular, so the finger can "
            "press along a direction that needs no torque"
        )
    if result.status != 0:
        raise ConvergenceError(f"linprog failed to find the maximum normal force: {result.message}")
    f = np.asarray(result.x, dtype=float)
    torques = contact_torques(jac, f)
    tol = 1e-7 * tau_max
    limiting = tuple(bool(abs(abs(t) - tau_max) <= tol) for t in torques)
    cone_active = bool(abs(abs(f[0]) - mu * f[1]) <= 1e-7 * max(1.0, f[1]) and f[1] > 0.0)
    return MaxNormalForce(f, float(f[1]), torques, (limiting[0], limiting[1]), cone_active)


def press_capacity(jacobian: ArrayLike) -> float:
    """Straight-down pressing force per N m of joint torque limit.

    For ``f_c = (0, f_n)`` the torques are ``-f_n J_c[1, :]``, so the largest
    ``f_n`` with ``|tau_i| <= tau_max`` is ``tau_max / max_i |J_c[1, i]|``.
    This returns that force divided by ``tau_max`` (N per N m).
    Explained in :ref:`sec-cf-fingertip`.

    Parameters
    ----------
    jacobian : array_like, shape (2, 2)
        Contact Jacobian ``J_c``.

    Returns
    -------
    float
        Pressing capacity in N per N m (1/m).

    Raises
    ------
    SingularConstraintError
        If no joint feels a vertical force (the capacity would be infinite).

    Examples
    --------
    >>> press_capacity([[0.5, 0.5], [0.5, 0.0]])
    2.0
    """
    jac = as_matrix(jacobian, "jacobian", 2)
    lever = float(np.max(np.abs(jac[1])))
    if lever <= 1e-12 * max(float(np.max(np.abs(jac))), 1e-300):
        raise SingularConstraintError(
            "no joint torque resists a vertical fingertip force (J_c[1, :] = 0): "
            "the pressing capacity is unbounded in this singular posture"
        )
    return 1.0 / lever
