"""Constrained dynamics: the KKT system and its equivalent forms.

A system with generalised coordinates ``q`` (``n`` of them), a symmetric
positive definite mass matrix ``M`` and ``m`` holonomic constraints
``Phi(q) = 0`` moves according to

.. math::

    M \\ddot q = f + J^\\top \\lambda, \\qquad J \\ddot q = \\gamma,

where ``f = tau - h`` is the generalised force (applied minus bias forces),
``J = dPhi/dq`` is the ``m x n`` constraint Jacobian, ``gamma = -Jdot qd`` is
the acceleration-level right-hand side and ``lambda`` are the Lagrange
multipliers. The sign convention is the book's: the constraint force
``J^T lambda`` sits on the right-hand side, so Modern Robotics' multiplier
(written on the left, their eq. 8.93) is ``-lambda``.

The routines here solve that system (full KKT, Schur complement, projection,
null-space reduction), stabilise it (Baumgarte, mass-weighted projection),
build driving constraints, and turn multipliers into actuator torques
(virtual work). The planar pin joints of the chapter's mechanisms are built
in :mod:`lib.models.planar_bodies`. A rank-deficient ``J`` raises
:class:`lib.errors.SingularConstraintError` naming the condition number and
the constraint rows involved; nothing is silently least-squared.

Units: SI throughout. Every vector lives in the coordinates of ``q``.
"""

from __future__ import annotations

from typing import Callable, NamedTuple, Sequence

import numpy as np
from numpy.typing import ArrayLike

from ._validation import (FloatArray, as_array, as_function, as_vector, mass_matrix_cholesky, nonnegative, one_of,
                          positive, positive_int)
from .integrate import rk4_step
from .errors import (
    ConvergenceError,
    OutOfRangeError,
    ShapeError,
    SingularConstraintError,
)

__all__ = [
    "MAX_CONDITION",
    "KKTSolution",
    "check_constraint_jacobian",
    "kkt_matrix",
    "kkt_solve",
    "kkt_solve_full",
    "schur_complement",
    "projection_operator",
    "projection_acceleration",
    "null_space_basis",
    "null_space_acceleration",
    "gauss_function",
    "constraint_power",
    "driving_constraints",
    "baumgarte_rhs",
    "project_position",
    "project_velocity",
    "mass_weighted_projection",
    "constrained_acceleration",
    "simulate_constrained",
    "actuated_velocity_map",
    "virtual_work_torques",
    "multiplier_torques",
]

#: Largest condition number of a constraint Jacobian that the solvers accept.
#: Beyond it the Schur complement ``G`` (condition about the square of this)
#: no longer determines the multipliers to any useful accuracy.
MAX_CONDITION = 1e10


class KKTSolution(NamedTuple):
    """Solution of the constrained equations of motion: ``(qdd, lam, G)``.

    - ``qdd``, shape (n,): generalised accelerations;
    - ``lam``, shape (m,): Lagrange multipliers (book sign: ``M qdd = f + J^T lam``);
    - ``G``, shape (m, m): the Schur complement ``J M^-1 J^T`` (inverse inertia
      seen by the constraints).

    Explained in :ref:`sec-cd-kkt`.
    """

    qdd: FloatArray
    lam: FloatArray
    G: FloatArray


# ---------------------------------------------------------------------------
# Validation helpers
# ---------------------------------------------------------------------------


def _cho_solve(L: FloatArray, b: FloatArray) -> FloatArray:
    """Solve ``L L^T x = b`` for the lower Cholesky factor ``L``."""
    return np.linalg.solve(L.T, np.linalg.solve(L, b))


def _jacobian(J: ArrayLike, n: int, name: str = "J") -> FloatArray:
    """Validate a constraint Jacobian with ``n`` columns (2-D, finite)."""
    J_arr = as_array(J, name, (None, n))
    if J_arr.shape[0] == 0:
        raise ShapeError(f"{name} must have at least one constraint row, got shape {J_arr.shape}")
    return J_arr


def check_constraint_jacobian(
    J: ArrayLike, *, max_condition: float = MAX_CONDITION, name: str = "J"
) -> float:
    """Check that a constraint Jacobian has full row rank; return its condition number.

    The constrained equations have a unique solution only when the ``m`` rows
    of ``J`` are linearly independent. The test uses the singular values of
    ``J``: it fails when ``sigma_max / sigma_min`` exceeds ``max_condition``.
    The error message gives the condition number and the rows (constraints)
    that make up the near-dependent combination (the left singular vector
    belonging to ``sigma_min``).
    Explained in :ref:`sec-cd-kkt`.

    Parameters
    ----------
    J : array_like, shape (m, n)
        Constraint Jacobian ``dPhi/dq`` (rows: constraints; columns: coordinates).
    max_condition : float
        Largest accepted condition number (default :data:`MAX_CONDITION`).
    name : str
        The argument's name, used in messages.

    Returns
    -------
    float
        ``sigma_max / sigma_min`` of ``J``.

    Raises
    ------
    SingularConstraintError
        If ``m > n``, ``J`` is zero, or the condition number exceeds
        ``max_condition``.

    Examples
    --------
    >>> import numpy as np
    >>> float(np.round(check_constraint_jacobian([[1.0, 0.0, 0.0], [0.0, 2.0, 0.0]]), 6))
    2.0
    >>> check_constraint_jacobian([[1.0, 1.0], [2.0, 2.0]])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    lib.errors.SingularConstraintError: J (2 x 2) is rank-deficient: ...
    """
    J_arr = as_array(J, name, (None, None))
    if J_arr.shape[0] == 0 or J_arr.shape[1] == 0:
        raise ShapeError(f"{name} must have at least one row and one column, got shape {J_arr.shape}")
    return _check_rank(J_arr, max_condition, name)


def _check_rank(J_arr: FloatArray, max_condition: float, name: str) -> float:
    """The rank test of :func:`check_constraint_jacobian` on a validated array."""
    m, n = J_arr.shape
    if m > n:
        raise SingularConstraintError(
            f"{name} has {m} constraint rows but only {n} coordinates, so its rows cannot be "
            "independent; remove redundant constraints"
        )
    s = np.linalg.svd(J_arr, compute_uv=False)
    if s[0] == 0.0:
        raise SingularConstraintError(f"{name} ({m} x {n}) is identically zero: no constraint acts")
    cond = float(s[0] / s[-1]) if s[-1] > 0.0 else np.inf
    if not cond <= max_condition:
        U = np.linalg.svd(J_arr)[0]
        u = U[:, -1]
        weights = np.abs(u)
        rows = [int(i) for i in np.flatnonzero(weights > 0.1 * weights.max())]
        zero_rows = [int(i) for i in np.flatnonzero(np.all(J_arr == 0.0, axis=1))]
        detail = (
            f"row(s) {zero_rows} of {name} are zero"
            if zero_rows
            else "the near-dependent combination involves constraint row(s) "
            + ", ".join(f"{i} (weight {u[i]:+.2f})" for i in rows)
        )
        raise SingularConstraintError(
            f"{name} ({m} x {n}) is rank-deficient: sigma_min = {s[-1]:.3g}, condition number "
            f"{cond:.3g} > {max_condition:.3g}; {detail}. The multipliers are not unique: remove a "
            "redundant constraint or move away from the singular configuration"
        )
    return cond


def _force(f: ArrayLike, n: int, name: str = "f") -> FloatArray:
    return as_vector(f, name, n)


# ---------------------------------------------------------------------------
# Solving the constrained equations
# ---------------------------------------------------------------------------


def kkt_matrix(M: ArrayLike, J: ArrayLike) -> FloatArray:
    """Assemble the KKT matrix ``[[M, -J^T], [J, 0]]``.

    With it the constrained equations read
    ``K [qdd; lam] = [f; gamma]`` (book sign convention).
    Explained in :ref:`sec-cd-kkt`.

    Parameters
    ----------
    M : array_like, shape (n, n)
        Mass matrix (symmetric positive definite).
    J : array_like, shape (m, n)
        Constraint Jacobian.

    Returns
    -------
    numpy.ndarray, shape (n + m, n + m)

    Examples
    --------
    >>> kkt_matrix([[2.0, 0.0], [0.0, 1.0]], [[1.0, 1.0]])
    array([[ 2.,  0., -1.],
           [ 0.,  1., -1.],
           [ 1.,  1.,  0.]])
    """
    Ms, _ = mass_matrix_cholesky(M)
    n = Ms.shape[0]
    Ja = _jacobian(J, n)
    m = Ja.shape[0]
    K = np.zeros((n + m, n + m))
    K[:n, :n] = Ms
    K[:n, n:] = -Ja.T
    K[n:, :n] = Ja
    return K


def kkt_solve(
    M: ArrayLike,
    J: ArrayLike,
    f: ArrayLike,
    gamma: ArrayLike,
    *,
    max_condition: float = MAX_CONDITION,
) -> KKTSolution:
    """Solve ``M qdd = f + J^T lam``, ``J qdd = gamma`` by the Schur complement.

    Steps: ``G = J M^-1 J^T``, ``lam = G^-1 (gamma - J M^-1 f)``,
    ``qdd = M^-1 (f + J^T lam)``. ``M`` is factorised by Cholesky; ``G`` is
    solved through a QR factorisation of ``L^-1 J^T`` so that its conditioning
    is not squared. ``J`` must have full row rank.
    Explained in :ref:`sec-cd-kkt`.

    Parameters
    ----------
    M : array_like, shape (n, n)
        Mass matrix (symmetric positive definite), in the units of ``q``.
    J : array_like, shape (m, n)
        Constraint Jacobian ``dPhi/dq``, ``m <= n``.
    f : array_like, shape (n,)
        Generalised force ``tau - h`` (applied force minus Coriolis, centrifugal
        and gravity terms).
    gamma : array_like, shape (m,)
        Acceleration right-hand side, ``-Jdot qd`` (plus any stabilisation).
    max_condition : float
        Largest accepted condition number of ``J``.

    Returns
    -------
    KKTSolution
        ``(qdd, lam, G)``.

    Raises
    ------
    SingularConstraintError
        If ``J`` is rank-deficient (message: condition number and rows).
    NotPositiveDefiniteError
        If ``M`` is not positive definite.
    ShapeError, NonFiniteError
        For wrongly shaped or non-finite input.

    Examples
    --------
    A unit point mass in the plane held on the line ``y = 0`` under gravity:

    >>> qdd, lam, G = kkt_solve(np.eye(2), [[0.0, 1.0]], [0.0, -9.81], [0.0])
    >>> np.round(qdd, 6), np.round(lam, 6), np.round(G, 6)
    (array([0., 0.]), array([9.81]), array([[1.]]))
    """
    Ms, L = mass_matrix_cholesky(M)
    n = Ms.shape[0]
    Ja = _jacobian(J, n)
    m = Ja.shape[0]
    fa = _force(f, n)
    ga = as_vector(gamma, "gamma", m)
    _check_rank(Ja, max_condition, "J")
    X = np.linalg.solve(L, np.column_stack([Ja.T, fa]))
    A, b = X[:, :m], X[:, m]  # L^-1 J^T (so G = A^T A) and L^-1 f
    R = np.linalg.qr(A, mode="r")  # A = Q R, G = R^T R
    rhs = ga - A.T @ b  # gamma - J M^-1 f
    lam = np.linalg.solve(R, np.linalg.solve(R.T, rhs))
    qdd = np.linalg.solve(L.T, b + A @ lam)
    G = A.T @ A
    return KKTSolution(qdd, lam, 0.5 * (G + G.T))


def kkt_solve_full(M: ArrayLike, J: ArrayLike, f: ArrayLike, gamma: ArrayLike) -> tuple[FloatArray, FloatArray]:
    """Solve the full KKT system ``[[M, -J^T], [J, 0]] [qdd; lam] = [f; gamma]``.

    A direct LU solve of the ``(n + m)``-square block system; used as an
    independent check of :func:`kkt_solve`.
    Explained in :ref:`sec-cd-kkt`.

    Parameters
    ----------
    M, J, f, gamma
        As in :func:`kkt_solve`.

    Returns
    -------
    qdd : numpy.ndarray, shape (n,)
    lam : numpy.ndarray, shape (m,)

    Raises
    ------
    SingularConstraintError
        If ``J`` is rank-deficient.

    Examples
    --------
    >>> qdd, lam = kkt_solve_full(np.eye(2), [[0.0, 1.0]], [1.0, -9.81], [0.0])
    >>> np.round(qdd, 6), np.round(lam, 6)
    (array([1., 0.]), array([9.81]))
    """
    K = kkt_matrix(M, J)
    n = K.shape[0] - np.shape(J)[0]
    check_constraint_jacobian(K[n:, :n])
    rhs = np.concatenate([_force(f, n), as_vector(gamma, "gamma", K.shape[0] - n)])
    x = np.linalg.solve(K, rhs)
    return x[:n], x[n:]


def schur_complement(M: ArrayLike, J: ArrayLike) -> FloatArray:
    """Return ``G = J M^-1 J^T``, the inverse inertia seen by the constraints.

    When ``J`` is square and invertible, ``G^-1 = J^-T M J^-1`` is the
    task-space mass matrix.
    Explained in :ref:`sec-cd-kkt`.

    Parameters
    ----------
    M : array_like, shape (n, n)
        Mass matrix (symmetric positive definite).
    J : array_like, shape (m, n)
        Constraint Jacobian (any rank).

    Returns
    -------
    numpy.ndarray, shape (m, m)
        Symmetric positive semidefinite ``G``.

    Examples
    --------
    >>> schur_complement([[2.0, 0.0], [0.0, 4.0]], [[1.0, 1.0]])
    array([[0.75]])
    """
    Ms, factor = mass_matrix_cholesky(M)
    Ja = _jacobian(J, Ms.shape[0])
    G = Ja @ _cho_solve(factor, Ja.T)
    return 0.5 * (G + G.T)


def projection_operator(M: ArrayLike, J: ArrayLike) -> FloatArray:
    """Return Modern Robotics' projection ``P = I - J^T G^-1 J M^-1``.

    ``P`` removes from a generalised force the part that the constraints
    absorb; ``P^2 = P`` and ``tr P = n - m``. Its transpose is the projection
    onto the null space of ``J`` (the admissible velocities) that is orthogonal
    in the kinetic-energy metric ``M``.
    Explained in :ref:`sec-cd-projection`.

    Parameters
    ----------
    M : array_like, shape (n, n)
        Mass matrix (symmetric positive definite).
    J : array_like, shape (m, n)
        Constraint Jacobian with full row rank.

    Returns
    -------
    numpy.ndarray, shape (n, n)

    Raises
    ------
    SingularConstraintError
        If ``J`` is rank-deficient.

    Examples
    --------
    >>> P = projection_operator(np.eye(3), [[0.0, 0.0, 1.0]])
    >>> np.round(P, 6)
    array([[1., 0., 0.],
           [0., 1., 0.],
           [0., 0., 0.]])
    """
    Ms, factor = mass_matrix_cholesky(M)
    n = Ms.shape[0]
    Ja = _jacobian(J, n)
    check_constraint_jacobian(Ja)
    MiJt = _cho_solve(factor, Ja.T)  # M^-1 J^T
    G = Ja @ MiJt
    # J^T G^-1 J M^-1 = J^T G^-1 (M^-1 J^T)^T
    return np.eye(n) - Ja.T @ np.linalg.solve(G, MiJt.T)


def projection_acceleration(M: ArrayLike, J: ArrayLike, f: ArrayLike, gamma: ArrayLike) -> FloatArray:
    """Accelerations from the projection form ``qdd = M^-1 P f + M^-1 J^T G^-1 gamma``.

    Explained in :ref:`sec-cd-projection`.

    Parameters
    ----------
    M, J, f, gamma
        As in :func:`kkt_solve`.

    Returns
    -------
    numpy.ndarray, shape (n,)

    Examples
    --------
    >>> np.round(projection_acceleration(np.eye(2), [[0.0, 1.0]], [1.0, -9.81], [0.5]), 6)
    array([1. , 0.5])
    """
    Ms, factor = mass_matrix_cholesky(M)
    n = Ms.shape[0]
    Ja = _jacobian(J, n)
    fa = _force(f, n)
    ga = as_vector(gamma, "gamma", Ja.shape[0])
    P = projection_operator(Ms, Ja)
    G = schur_complement(Ms, Ja)
    return _cho_solve(factor, P @ fa + Ja.T @ np.linalg.solve(G, ga))


def null_space_basis(J: ArrayLike, *, max_condition: float = MAX_CONDITION) -> FloatArray:
    """Orthonormal basis ``Z`` (``n x (n - m)``) of the null space of ``J``.

    Computed from the singular value decomposition; ``J Z = 0`` and
    ``Z^T Z = I``. ``J`` must have full row rank.
    Explained in :ref:`sec-cd-nullspace`.

    Parameters
    ----------
    J : array_like, shape (m, n)
        Constraint Jacobian.
    max_condition : float
        Largest accepted condition number of ``J``.

    Returns
    -------
    numpy.ndarray, shape (n, n - m)

    Raises
    ------
    SingularConstraintError
        If ``J`` is rank-deficient.

    Examples
    --------
    >>> Z = null_space_basis([[1.0, 0.0, 0.0]])
    >>> Z.shape, float(np.round(np.abs(Z[0]).max(), 6))
    ((3, 2), 0.0)
    """
    Ja = as_array(J, "J", (None, None))
    check_constraint_jacobian(Ja, max_condition=max_condition)
    m, n = Ja.shape
    _, _, Vt = np.linalg.svd(Ja)
    return Vt[m:].T.copy()


def null_space_acceleration(
    M: ArrayLike, J: ArrayLike, f: ArrayLike, gamma: ArrayLike, Z: ArrayLike | None = None
) -> FloatArray:
    """Accelerations by null-space reduction.

    With ``J Z = 0`` and a particular solution ``qdd_p`` of ``J qdd_p = gamma``
    (the minimum-norm one), solve the reduced ``(n - m)``-square system
    ``Z^T M Z zdd = Z^T (f - M qdd_p)`` and return ``qdd = Z zdd + qdd_p``.
    The multipliers drop out because ``Z^T J^T = 0``.
    Explained in :ref:`sec-cd-nullspace`.

    Parameters
    ----------
    M, J, f, gamma
        As in :func:`kkt_solve`.
    Z : array_like, shape (n, n - m), optional
        A null-space basis of ``J`` (need not be orthonormal); computed with
        :func:`null_space_basis` when omitted.

    Returns
    -------
    numpy.ndarray, shape (n,)

    Raises
    ------
    SingularConstraintError
        If ``J`` is rank-deficient or ``Z`` is not a basis of its null space.

    Examples
    --------
    >>> np.round(null_space_acceleration(np.eye(2), [[0.0, 1.0]], [1.0, -9.81], [0.5]), 6)
    array([1. , 0.5])
    """
    Ms, _ = mass_matrix_cholesky(M)
    n = Ms.shape[0]
    Ja = _jacobian(J, n)
    m = Ja.shape[0]
    fa = _force(f, n)
    ga = as_vector(gamma, "gamma", m)
    check_constraint_jacobian(Ja)
    if m == n:
        return np.linalg.solve(Ja, ga)
    if Z is None:
        Za = null_space_basis(Ja)
    else:
        Za = as_array(Z, "Z", (n, n - m))
        residual = float(np.max(np.abs(Ja @ Za)))
        scale = float(np.max(np.abs(Ja))) * max(float(np.max(np.abs(Za))), 1e-300)
        if residual > 1e-9 * scale:
            raise SingularConstraintError(f"Z is not in the null space of J: max |J Z| = {residual:.3g}")
        if np.linalg.matrix_rank(Za) < n - m:
            raise SingularConstraintError(f"Z must have {n - m} independent columns, its rank is {np.linalg.matrix_rank(Za)}")
    qdd_p = np.linalg.lstsq(Ja, ga, rcond=None)[0]
    zdd = np.linalg.solve(Za.T @ Ms @ Za, Za.T @ (fa - Ms @ qdd_p))
    return Za @ zdd + qdd_p


def gauss_function(qdd: ArrayLike, M: ArrayLike, f: ArrayLike) -> tuple[float, FloatArray]:
    """Gauss's "constraint" ``Z(qdd) = 1/2 (qdd - a_u)^T M (qdd - a_u)`` and its gradient.

    ``a_u = M^-1 f`` is the unconstrained acceleration. Gauss's principle of
    least constraint says that the ideal-constraint acceleration minimises
    ``Z`` subject to ``J qdd = gamma``; the KKT conditions of that quadratic
    programme are the constrained equations of motion. The pair
    ``(value, gradient)`` suits ``scipy.optimize.minimize(..., jac=True)``.
    Explained in :ref:`sec-cd-gauss`.

    Parameters
    ----------
    qdd : array_like, shape (n,)
        Candidate acceleration.
    M : array_like, shape (n, n)
        Mass matrix (symmetric positive definite).
    f : array_like, shape (n,)
        Generalised force ``tau - h``.

    Returns
    -------
    value : float
        ``Z(qdd)`` (units of power per time, e.g. W/s).
    gradient : numpy.ndarray, shape (n,)
        ``M qdd - f``.

    Examples
    --------
    >>> value, grad = gauss_function([0.0, 0.0], np.eye(2), [0.0, -9.81])
    >>> round(value, 6), np.round(grad, 6)
    (48.11805, array([0.  , 9.81]))
    """
    Ms, factor = mass_matrix_cholesky(M)
    n = Ms.shape[0]
    a = as_vector(qdd, "qdd", n)
    fa = _force(f, n)
    d = a - _cho_solve(factor, fa)
    return 0.5 * float(d @ Ms @ d), Ms @ a - fa


def constraint_power(J: ArrayLike, qd: ArrayLike, lam: ArrayLike) -> float:
    """Power ``(J^T lam) . qd = lam . (J qd)`` of the constraint forces (W).

    Zero for ideal constraints whenever the velocity is admissible
    (``J qd = 0``).
    Explained in :ref:`sec-cd-kkt`.

    Parameters
    ----------
    J : array_like, shape (m, n)
        Constraint Jacobian.
    qd : array_like, shape (n,)
        Generalised velocity.
    lam : array_like, shape (m,)
        Multipliers.

    Returns
    -------
    float

    Examples
    --------
    >>> constraint_power([[0.0, 1.0]], [2.0, 0.0], [9.81])
    0.0
    """
    Ja = as_array(J, "J", (None, None))
    v = as_vector(qd, "qd", Ja.shape[1])
    lm = as_vector(lam, "lam", Ja.shape[0])
    return float(lm @ (Ja @ v))


# ---------------------------------------------------------------------------
# Building constraints
# ---------------------------------------------------------------------------


def driving_constraints(
    q: ArrayLike, indices: Sequence[int], theta: ArrayLike, theta_dd: ArrayLike
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Driving constraints ``q[a] - theta_a(t) = 0`` for the actuated coordinates ``a``.

    Each row of the Jacobian is a unit row ``e_a``; ``gamma = thetadd_a``.
    The multiplier of a driving constraint is the generalised force that the
    actuator must supply on coordinate ``a`` (book sign).
    Explained in :ref:`sec-cd-levels`.

    Parameters
    ----------
    q : array_like, shape (n,)
        Coordinates.
    indices : sequence of int
        The actuated coordinates ``a`` (distinct, in ``[0, n)``).
    theta, theta_dd : array_like, shape (k,)
        Prescribed values and second derivatives of ``q[a]``.

    Returns
    -------
    Phi, J, gamma : numpy.ndarray
        Shapes ``(k,)``, ``(k, n)``, ``(k,)``.

    Examples
    --------
    >>> Phi, J, gamma = driving_constraints([0.1, 0.2, 0.3], [2], [0.25], [1.5])
    >>> np.round(Phi, 6), J, gamma
    (array([0.05]), array([[0., 0., 1.]]), array([1.5]))
    """
    qa = as_array(q, "q", (None,))
    idx = _indices(indices, qa.size, "indices")
    th = as_vector(theta, "theta", len(idx))
    thdd = as_vector(theta_dd, "theta_dd", len(idx))
    Jm = np.zeros((len(idx), qa.size))
    Jm[np.arange(len(idx)), idx] = 1.0
    return qa[idx] - th, Jm, thdd


def _indices(indices: Sequence[int], n: int, name: str) -> FloatArray:
    try:
        idx = [int(i) for i in indices]
    except (TypeError, ValueError):
        raise ShapeError(f"{name} must be a sequence of integer coordinate indices, got {indices!r}") from None
    if len(idx) == 0 or any(i < 0 or i >= n for i in idx) or len(set(idx)) != len(idx):
        raise ShapeError(f"{name} must be distinct integers in [0, {n - 1}], got {idx}")
    if any(float(i) != float(j) for i, j in zip(idx, indices)):
        raise ShapeError(f"{name} must be integers, got {list(indices)!r}")
    return np.array(idx, dtype=int)


# ---------------------------------------------------------------------------
# Drift stabilisation
# ---------------------------------------------------------------------------


def baumgarte_rhs(
    gamma: ArrayLike, J: ArrayLike, qd: ArrayLike, Phi: ArrayLike, alpha: float, beta: float
) -> FloatArray:
    """Baumgarte's right-hand side ``gamma - 2 alpha J qd - beta^2 Phi``.

    Replacing ``gamma`` by this makes the constraint error obey
    ``Phidd + 2 alpha Phid + beta^2 Phi = 0`` (critically damped for
    ``alpha = beta``) instead of ``Phidd = 0``.
    Explained in :ref:`sec-cd-drift`.

    Parameters
    ----------
    gamma : array_like, shape (m,)
        Unstabilised right-hand side ``-Jdot qd``.
    J : array_like, shape (m, n)
        Constraint Jacobian.
    qd : array_like, shape (n,)
        Generalised velocity.
    Phi : array_like, shape (m,)
        Position-level constraint error.
    alpha, beta : float
        Gains (1/s), non-negative.

    Returns
    -------
    numpy.ndarray, shape (m,)

    Examples
    --------
    >>> baumgarte_rhs([0.0], [[1.0, 0.0]], [0.1, 0.0], [0.01], 5.0, 5.0)
    array([-1.25])
    """
    Ja = as_array(J, "J", (None, None))
    m, n = Ja.shape
    ga = as_vector(gamma, "gamma", m)
    v = as_vector(qd, "qd", n)
    ph = as_vector(Phi, "Phi", m)
    a, b = nonnegative(alpha, "alpha (gain, 1/s)"), nonnegative(beta, "beta (gain, 1/s)")
    return ga - 2.0 * a * (Ja @ v) - b * b * ph


ConstraintFunction = Callable[[FloatArray], tuple[ArrayLike, ArrayLike]]


def project_position(
    q: ArrayLike,
    M: ArrayLike,
    constraint: ConstraintFunction,
    *,
    tol: float = 1e-13,
    max_iterations: int = 10,
) -> FloatArray:
    """Move ``q`` back onto ``Phi(q) = 0`` by mass-weighted Newton steps.

    Each step is the smallest correction in the kinetic-energy metric:
    ``delta = -M^-1 J^T G^-1 Phi``, i.e. the KKT solution with ``f = 0`` and
    ``gamma = -Phi``. Iterates until ``max |Phi| <= tol``.
    Explained in :ref:`sec-cd-drift`.

    Parameters
    ----------
    q : array_like, shape (n,)
        Coordinates, possibly off the constraint manifold.
    M : array_like, shape (n, n)
        Mass matrix (the metric).
    constraint : callable
        ``constraint(q) -> (Phi, J)``.
    tol : float
        Accepted ``max |Phi|`` (units of ``Phi``).
    max_iterations : int
        Maximum number of Newton steps.

    Returns
    -------
    numpy.ndarray, shape (n,)

    Raises
    ------
    ConvergenceError
        If ``max |Phi|`` is still above ``tol`` after ``max_iterations`` steps.
    SingularConstraintError
        If the Jacobian becomes rank-deficient.

    Examples
    --------
    A point in the plane projected onto the unit circle:

    >>> circle = lambda q: (np.array([q @ q - 1.0]), 2.0 * q[None, :])
    >>> np.round(project_position([1.2, 0.0], np.eye(2), circle), 6)
    array([1., 0.])
    """
    Ms, _ = mass_matrix_cholesky(M)
    n = Ms.shape[0]
    qa = as_vector(q, "q", n)
    if not callable(constraint):
        raise ShapeError(f"constraint must be a function q -> (Phi, J), got {type(constraint).__name__}")
    zero = np.zeros(n)
    err = np.inf
    for _ in range(int(max_iterations) + 1):
        Phi, Jm = constraint(qa)
        Phi = np.asarray(Phi, dtype=float)
        err = float(np.max(np.abs(Phi)))
        if err <= tol:
            return qa
        qa = qa + kkt_solve(Ms, Jm, zero, -Phi).qdd
    raise ConvergenceError(
        f"position projection did not converge: max |Phi| = {err:.3g} > tol = {tol:.3g} after "
        f"{max_iterations} Newton steps; the state may be too far from the constraint manifold"
    )


def project_velocity(qd: ArrayLike, M: ArrayLike, J: ArrayLike) -> FloatArray:
    """Remove the constraint-violating part of ``qd``: ``qd - M^-1 J^T G^-1 J qd``.

    The result is the admissible velocity closest to ``qd`` in the
    kinetic-energy metric (``J qd_new = 0``).
    Explained in :ref:`sec-cd-drift`.

    Parameters
    ----------
    qd : array_like, shape (n,)
        Velocity, possibly violating ``J qd = 0``.
    M : array_like, shape (n, n)
        Mass matrix.
    J : array_like, shape (m, n)
        Constraint Jacobian at the current (projected) position.

    Returns
    -------
    numpy.ndarray, shape (n,)

    Examples
    --------
    >>> np.round(project_velocity([1.0, 1.0], np.eye(2), [[0.0, 1.0]]), 6)
    array([1., 0.])
    """
    Ms, _ = mass_matrix_cholesky(M)
    n = Ms.shape[0]
    v = as_vector(qd, "qd", n)
    Ja = _jacobian(J, n)
    return v + kkt_solve(Ms, Ja, np.zeros(n), -(Ja @ v)).qdd


def mass_weighted_projection(
    q: ArrayLike,
    qd: ArrayLike,
    M: ArrayLike,
    constraint: ConstraintFunction,
    *,
    tol: float = 1e-13,
    max_iterations: int = 10,
) -> tuple[FloatArray, FloatArray]:
    """Project a state onto the constraint manifold: position, then velocity.

    Calls :func:`project_position` and then :func:`project_velocity` with the
    Jacobian at the projected position.
    Explained in :ref:`sec-cd-drift`.

    Parameters
    ----------
    q, qd : array_like, shape (n,)
        State after an integration step.
    M : array_like, shape (n, n)
        Mass matrix.
    constraint : callable
        ``constraint(q) -> (Phi, J)``.
    tol, max_iterations
        As in :func:`project_position`.

    Returns
    -------
    q, qd : numpy.ndarray, shape (n,)

    Examples
    --------
    >>> circle = lambda q: (np.array([q @ q - 1.0]), 2.0 * q[None, :])
    >>> q, qd = mass_weighted_projection([1.2, 0.0], [0.3, 1.0], np.eye(2), circle)
    >>> np.round(q, 6), np.round(qd, 6)
    (array([1., 0.]), array([0., 1.]))
    """
    qn = project_position(q, M, constraint, tol=tol, max_iterations=max_iterations)
    _, Jm = constraint(qn)
    return qn, project_velocity(qd, M, Jm)


# ---------------------------------------------------------------------------
# Simulation
# ---------------------------------------------------------------------------

#: ``dynamics(q, qd) -> (M, f)`` and ``constraints(q, qd) -> (Phi, J, gamma)``.
DynamicsFunction = Callable[[FloatArray, FloatArray], tuple[ArrayLike, ArrayLike]]
ConstraintTerms = Callable[[FloatArray, FloatArray], tuple[ArrayLike, ArrayLike, ArrayLike]]


def constrained_acceleration(
    q: ArrayLike,
    qd: ArrayLike,
    dynamics: DynamicsFunction,
    constraints: ConstraintTerms,
    *,
    alpha: float = 0.0,
    beta: float = 0.0,
) -> FloatArray:
    """Acceleration of a constrained system at ``(q, qd)``, optionally with Baumgarte terms.

    Evaluates ``M, f = dynamics(q, qd)`` and ``Phi, J, gamma =
    constraints(q, qd)`` and solves the KKT system with the right-hand side
    :func:`baumgarte_rhs` (plain ``gamma`` when ``alpha = beta = 0``).
    Explained in :ref:`sec-cd-drift`.

    Parameters
    ----------
    q, qd : array_like, shape (n,)
        State.
    dynamics : callable
        ``dynamics(q, qd) -> (M, f)``.
    constraints : callable
        ``constraints(q, qd) -> (Phi, J, gamma)``.
    alpha, beta : float
        Baumgarte gains (1/s).

    Returns
    -------
    numpy.ndarray, shape (n,)

    Examples
    --------
    A unit mass on the unit circle, at rest, under gravity -y:

    >>> dyn = lambda q, qd: (np.eye(2), np.array([0.0, -9.81]))
    >>> con = lambda q, qd: (np.array([q @ q - 1.0]), 2.0 * q[None, :], np.array([-2.0 * qd @ qd]))
    >>> np.round(constrained_acceleration([1.0, 0.0], [0.0, 0.0], dyn, con), 6)
    array([ 0.  , -9.81])
    """
    qa = as_array(q, "q", (None,))
    v = as_vector(qd, "qd", qa.size)
    M, f = as_function(dynamics, "dynamics")(qa, v)
    Phi, Jm, gamma = as_function(constraints, "constraints")(qa, v)
    if alpha or beta:
        gamma = baumgarte_rhs(gamma, Jm, v, Phi, alpha, beta)
    return kkt_solve(M, Jm, f, gamma).qdd


def simulate_constrained(
    q0: ArrayLike,
    qd0: ArrayLike,
    dynamics: DynamicsFunction,
    constraints: ConstraintTerms,
    h: float,
    steps: int,
    *,
    stabilization: str = "none",
    alpha: float = 0.0,
    beta: float = 0.0,
    project_tol: float = 1e-13,
) -> tuple[FloatArray, FloatArray]:
    """Integrate a constrained system with fixed-step RK4 in maximal coordinates.

    ``stabilization`` is one of ``"none"`` (acceleration-level constraints
    only: the position and velocity errors drift), ``"baumgarte"`` (gains
    ``alpha``, ``beta``) or ``"projection"`` (:func:`mass_weighted_projection`
    after every step).
    Explained in :ref:`sec-cd-drift`.

    Parameters
    ----------
    q0, qd0 : array_like, shape (n,)
        Initial state (should satisfy the constraints).
    dynamics, constraints : callable
        As in :func:`constrained_acceleration`.
    h : float
        Step (s), positive.
    steps : int
        Number of steps, positive.
    stabilization : {"none", "baumgarte", "projection"}
        Drift treatment.
    alpha, beta : float
        Baumgarte gains (1/s), non-negative; only with ``"baumgarte"``, which
        needs at least one of them positive.
    project_tol : float
        Position tolerance of the projection.

    Returns
    -------
    q, qd : numpy.ndarray, shape (steps + 1, n)
        The states at ``t = 0, h, ..., steps h``.

    Raises
    ------
    OutOfRangeError
        If gains are given without ``"baumgarte"`` (they would be ignored), or
        ``"baumgarte"`` comes with ``alpha = beta = 0`` (no stabilisation).
    NonPositiveValueError
        If a gain or the step is negative.

    Examples
    --------
    >>> dyn = lambda q, qd: (np.eye(2), np.array([0.0, -9.81]))
    >>> con = lambda q, qd: (np.array([q @ q - 1.0]), 2.0 * q[None, :], np.array([-2.0 * qd @ qd]))
    >>> q, qd = simulate_constrained([1.0, 0.0], [0.0, 0.0], dyn, con, 0.01, 10, stabilization="projection")
    >>> float(np.round(np.linalg.norm(q[-1]), 12))
    1.0
    """
    as_function(dynamics, "dynamics"), as_function(constraints, "constraints")
    qa = as_array(q0, "q0", (None,))
    n = qa.size
    v = as_vector(qd0, "qd0", n)
    one_of(stabilization, "stabilization", ("none", "baumgarte", "projection"))
    hh = positive(h, "h (step, s)")
    steps = positive_int(steps, "steps")
    a, b = nonnegative(alpha, "alpha (gain, 1/s)"), nonnegative(beta, "beta (gain, 1/s)")
    if stabilization == "baumgarte" and a == 0.0 and b == 0.0:
        raise OutOfRangeError(
            "stabilization='baumgarte' needs a positive gain alpha or beta (1/s), got alpha = beta = 0; "
            "use stabilization='none' for an unstabilised run"
        )
    if stabilization != "baumgarte" and (a or b):
        raise OutOfRangeError(
            f"the gains alpha = {a:g}, beta = {b:g} are only used with stabilization='baumgarte', "
            f"got stabilization={stabilization!r}"
        )

    def rhs(_t: float, y: FloatArray) -> FloatArray:
        return np.concatenate([y[n:], constrained_acceleration(y[:n], y[n:], dynamics, constraints, alpha=a, beta=b)])

    Q = np.empty((steps + 1, n))
    V = np.empty((steps + 1, n))
    Q[0], V[0] = qa, v
    y = np.concatenate([qa, v])
    for k in range(steps):
        y = rk4_step(rhs, k * hh, y, hh)
        if stabilization == "projection":
            M, _ = dynamics(y[:n], y[n:])
            qn, vn = mass_weighted_projection(
                y[:n], y[n:], M, lambda qq: constraints(qq, np.zeros(n))[:2], tol=project_tol
            )
            y = np.concatenate([qn, vn])
        Q[k + 1], V[k + 1] = y[:n], y[n:]
    return Q, V


# ---------------------------------------------------------------------------
# Parallel mechanisms: actuator torques
# ---------------------------------------------------------------------------


def actuated_velocity_map(J_loop: ArrayLike, actuated: Sequence[int]) -> FloatArray:
    """The null-space basis of the loop constraints whose actuated rows are the identity.

    Returns ``V`` (``n x k``) with ``J_loop V = 0`` and ``V[actuated] = I``, so
    that ``qd = V thetad_a`` maps actuator rates to all coordinate rates. It
    needs the passive columns of ``J_loop`` to form an invertible square
    matrix (``m = n - k``); a singular one is a constraint (passive)
    singularity.
    Explained in :ref:`sec-cd-parallel`.

    Parameters
    ----------
    J_loop : array_like, shape (n - k, n)
        Loop-closure constraint Jacobian.
    actuated : sequence of int
        Indices of the ``k`` actuated coordinates.

    Returns
    -------
    numpy.ndarray, shape (n, k)

    Raises
    ------
    ShapeError
        If the numbers of rows, coordinates and actuators do not match.
    SingularConstraintError
        If the passive part of ``J_loop`` is singular.

    Examples
    --------
    Two coordinates tied by ``q0 - 2 q1 = 0``, the first actuated:

    >>> np.round(actuated_velocity_map([[1.0, -2.0]], [0]), 6)
    array([[1. ],
           [0.5]])
    """
    Ja = as_array(J_loop, "J_loop", (None, None))
    m, n = Ja.shape
    idx = _indices(actuated, n, "actuated")
    k = len(idx)
    if m != n - k:
        raise ShapeError(
            f"J_loop must have n - k = {n - k} rows for {n} coordinates and {k} actuators, got {m}"
        )
    passive = np.setdiff1d(np.arange(n), idx)
    Jp = Ja[:, passive]
    try:
        check_constraint_jacobian(Jp, name="the passive columns of J_loop")
    except SingularConstraintError as exc:
        raise SingularConstraintError(f"constraint (passive) singularity: {exc}") from None
    V = np.zeros((n, k))
    V[idx, np.arange(k)] = 1.0
    V[passive] = np.linalg.solve(Jp, -Ja[:, idx])
    return V


def virtual_work_torques(
    M: ArrayLike, f: ArrayLike, J_loop: ArrayLike, actuated: Sequence[int], qdd: ArrayLike
) -> FloatArray:
    """Actuator torques by virtual work: ``tau = V^T (M qdd - f)``.

    ``V`` is :func:`actuated_velocity_map`. Because ``V^T J_loop^T = 0`` the
    loop multipliers drop out, and the result equals the multipliers of the
    driving constraints (:func:`multiplier_torques`).
    Explained in :ref:`sec-cd-parallel`.

    Parameters
    ----------
    M : array_like, shape (n, n)
        Mass matrix.
    f : array_like, shape (n,)
        Generalised force without the actuators (gravity, minus bias terms).
    J_loop : array_like, shape (n - k, n)
        Loop-closure Jacobian.
    actuated : sequence of int
        Actuated coordinates.
    qdd : array_like, shape (n,)
        The (admissible) acceleration to be produced.

    Returns
    -------
    numpy.ndarray, shape (k,)
        Actuator generalised forces (N m for angles).

    Examples
    --------
    >>> np.round(virtual_work_torques(np.eye(2), [0.0, -1.0], [[1.0, -2.0]], [0], [0.0, 0.0]), 6)
    array([0.5])
    """
    Ms, _ = mass_matrix_cholesky(M)
    n = Ms.shape[0]
    V = actuated_velocity_map(J_loop, actuated)
    return V.T @ (Ms @ as_vector(qdd, "qdd", n) - _force(f, n))


def multiplier_torques(
    M: ArrayLike,
    f: ArrayLike,
    J_loop: ArrayLike,
    gamma_loop: ArrayLike,
    actuated: Sequence[int],
    theta_dd: ArrayLike,
    *,
    max_condition: float = MAX_CONDITION,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Actuator torques as the multipliers of the driving constraints.

    With the driving constraints appended, ``J_full = [J_loop; E_a]`` is
    square; the motion is fixed by ``J_full qdd = [gamma_loop; thetadd]`` and
    the forces by ``J_full^T lam = M qdd - f``. The last ``k`` multipliers are
    the actuator torques. A singular ``J_full`` is an actuator singularity.
    Explained in :ref:`sec-cd-parallel`.

    Parameters
    ----------
    M : array_like, shape (n, n)
        Mass matrix.
    f : array_like, shape (n,)
        Generalised force without the actuators.
    J_loop : array_like, shape (n - k, n)
        Loop-closure Jacobian.
    gamma_loop : array_like, shape (n - k,)
        Its acceleration right-hand side.
    actuated : sequence of int
        Actuated coordinates.
    theta_dd : array_like, shape (k,)
        Prescribed actuator accelerations.
    max_condition : float
        Largest accepted condition number of ``J_full``.

    Returns
    -------
    qdd : numpy.ndarray, shape (n,)
    lam : numpy.ndarray, shape (n,)
        All multipliers, loop constraints first.
    tau : numpy.ndarray, shape (k,)
        Actuator torques (``lam[-k:]``).

    Raises
    ------
    SingularConstraintError
        At an actuator singularity (``J_full`` rank-deficient).

    Examples
    --------
    >>> qdd, lam, tau = multiplier_torques(np.eye(2), [0.0, -1.0], [[1.0, -2.0]], [0.0], [0], [0.0])
    >>> np.round(tau, 6)
    array([0.5])
    """
    Ms, _ = mass_matrix_cholesky(M)
    n = Ms.shape[0]
    Ja = as_array(J_loop, "J_loop", (None, n))
    m = Ja.shape[0]
    idx = _indices(actuated, n, "actuated")
    k = len(idx)
    if m + k != n:
        raise ShapeError(f"J_loop must have n - k = {n - k} rows for {n} coordinates and {k} actuators, got {m}")
    gl = as_vector(gamma_loop, "gamma_loop", m)
    thdd = as_vector(theta_dd, "theta_dd", k)
    Jd = np.zeros((k, n))
    Jd[np.arange(k), idx] = 1.0
    J_full = np.vstack([Ja, Jd])
    try:
        check_constraint_jacobian(J_full, max_condition=max_condition, name="J_full")
    except SingularConstraintError as exc:
        raise SingularConstraintError(f"actuator singularity: {exc}") from None
    qdd = np.linalg.solve(J_full, np.concatenate([gl, thdd]))
    lam = np.linalg.solve(J_full.T, Ms @ qdd - _force(f, n))
    return qdd, lam, lam[m:].copy()
