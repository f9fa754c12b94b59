"""Rigid contact as a linear complementarity problem, and impacts.

Contact geometry enters through the rows of the contact Jacobian: ``N`` (one
row per contact, normal velocity) and ``D`` (``m_d`` rows per contact, the
velocity along the polyhedral friction directions). With the mass matrix
``M`` these give the Delassus operator ``G M^-1 G^T``, the time-stepping
contact LCP with unknowns ``z = (c_n, beta, lambda)``, the impact LCP and the
effective mass at a contact. The chapter's two small example systems (a box
resting on four corners, a planar two-link arm) are in
:mod:`lib.models.box_on_corners` and :mod:`lib.models.planar_2r_arm`.
Explained in chapter 3.12.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ._validation import (FloatArray, as_array, as_rows, as_square, as_symmetric, as_vector, in_range,
                          mass_matrix_cholesky, one_of, positive, positive_int, real_number)
from .errors import (
    NonPositiveValueError,
    OutOfRangeError,
    ShapeError,
    SingularConstraintError,
)
from .lcp import lcp_residual, lemke, minimum_norm_lcp, projected_gauss_seidel

__all__ = [
    "mass_matrix_inverse",
    "delassus",
    "effective_mass",
    "free_velocity",
    "friction_directions",
    "friction_rows",
    "ContactLCP",
    "ContactStep",
    "assemble_contact_lcp",
    "solve_contact_lcp",
    "ImpactResult",
    "impact_lcp",
    "newton_impact",
    "poisson_impact",
    "mujoco_regularizer",
]

_SOLVERS = ("lemke", "pgs", "minimum_norm")


def mass_matrix_inverse(M: ArrayLike, name: str = "M") -> FloatArray:
    """Inverse of a symmetric positive definite mass matrix (via Cholesky).

    Explained in :ref:`sec-ci-delassus`.

    Parameters
    ----------
    M : array_like, shape (n, n)
        Mass matrix (kg, kg m, kg m^2 blocks as the coordinates demand).
    name : str, optional
        Name used in error messages.

    Returns
    -------
    numpy.ndarray, shape (n, n)

    Raises
    ------
    ShapeError, NonFiniteError, NonSymmetricError
        For a non-square, non-finite or non-symmetric ``M``.
    NotPositiveDefiniteError
        If ``M`` is not positive definite.

    Examples
    --------
    >>> mass_matrix_inverse([[2.0, 0.0], [0.0, 4.0]])
    array([[0.5 , 0.  ],
           [0.  , 0.25]])
    """
    _, chol = mass_matrix_cholesky(M, name)
    inv_chol = np.linalg.inv(chol)
    return inv_chol.T @ inv_chol


def _rows(G: ArrayLike, name: str, n: int) -> FloatArray:
    """A Jacobian-row block with ``n`` columns (a single row may be given as a vector)."""
    return as_rows(G, name, n)


def delassus(M: ArrayLike, G: ArrayLike) -> FloatArray:
    """The Delassus operator ``A = G M^-1 G^T`` (inverse inertia seen in contact space).

    Explained in :ref:`sec-ci-delassus`.

    Parameters
    ----------
    M : array_like, shape (n, n)
        Symmetric positive definite mass matrix.
    G : array_like, shape (m, n)
        Stacked contact Jacobian rows (normal and tangential velocity of each
        contact, m/s per unit generalized velocity).

    Returns
    -------
    numpy.ndarray, shape (m, m)
        Symmetric positive semidefinite; singular when the rows of ``G`` are
        dependent (more contact rows than the body can move independently).

    Examples
    --------
    >>> delassus(np.diag([2.0, 2.0]), [[1.0, 0.0], [1.0, 1.0]])
    array([[0.5, 0.5],
           [0.5, 1. ]])
    """
    Minv = mass_matrix_inverse(M)
    G_mat = _rows(G, "G", Minv.shape[0])
    A = G_mat @ Minv @ G_mat.T
    return 0.5 * (A + A.T)


def effective_mass(M: ArrayLike, n_row: ArrayLike) -> float:
    """Effective mass ``Lambda_n = 1 / (N M^-1 N^T)`` along one contact normal.

    The mass a point contact "feels": an impulse ``c`` along the normal
    changes the normal velocity by ``c / Lambda_n``. Explained in
    :ref:`sec-ci-delassus`.

    Parameters
    ----------
    M : array_like, shape (n, n)
        Mass matrix.
    n_row : array_like, shape (n,)
        Normal Jacobian row ``N`` (normal velocity per generalized velocity).

    Returns
    -------
    float
        ``Lambda_n`` in kg (for a translational contact).

    Raises
    ------
    SingularConstraintError
        If ``N`` is zero (the contact cannot move), so no finite effective mass exists.

    Examples
    --------
    >>> effective_mass(np.diag([3.0, 1.0]), [1.0, 0.0])
    3.0
    """
    Minv = mass_matrix_inverse(M)
    row = as_vector(n_row, "n_row", Minv.shape[0])
    value = float(row @ Minv @ row)
    if value <= 1e-14 * float(np.trace(Minv)) * float(row @ row) or value <= 0.0:
        raise SingularConstraintError(
            "the normal Jacobian row n_row is zero (or numerically zero): the contact point cannot move "
            "along the normal, so its effective mass is unbounded"
        )
    return 1.0 / value


def free_velocity(M: ArrayLike, v: ArrayLike, generalized_force: ArrayLike, h: float) -> FloatArray:
    """Contact-free velocity after one step, ``v* = v + h M^-1 (tau - bias)``.

    Explained in :ref:`sec-ci-timestepping`.

    Parameters
    ----------
    M : array_like, shape (n, n)
        Mass matrix.
    v : array_like, shape (n,)
        Generalized velocity at the start of the step.
    generalized_force : array_like, shape (n,)
        ``tau - h(q, v)``: applied minus bias forces (gravity included).
    h : float
        Step length, s.

    Returns
    -------
    numpy.ndarray, shape (n,)

    Examples
    --------
    >>> free_velocity(np.eye(1) * 2.0, [0.0], [-19.62], 0.01)
    array([-0.0981])
    """
    Minv = mass_matrix_inverse(M)
    n = Minv.shape[0]
    return as_vector(v, "v", n) + positive(h, "h") * Minv @ as_vector(generalized_force, "generalized_force", n)


def friction_directions(n_directions: int) -> FloatArray:
    """Unit tangent directions ``d_i = (cos 2 pi i / m_d, sin 2 pi i / m_d)`` of the friction pyramid.

    Coordinates are in the contact's tangent basis ``(t1, t2)``; the same
    directions as :func:`lib.friction.pyramid_capacity`, whose inscribed
    pyramid is the friction set of the contact LCP. Explained in
    :ref:`sec-ci-timestepping`.

    Examples
    --------
    >>> np.round(friction_directions(4), 6) + 0.0
    array([[ 1.,  0.],
           [ 0.,  1.],
           [-1.,  0.],
           [ 0., -1.]])
    """
    m_d = _directions(n_directions)
    angles = 2.0 * np.pi * np.arange(m_d) / m_d
    return np.column_stack([np.cos(angles), np.sin(angles)])


def _directions(n_directions: int) -> int:
    if positive_int(n_directions, "n_directions") < 3:
        raise OutOfRangeError(
            f"n_directions (edges of the friction pyramid) must be an integer >= 3, got {n_directions!r}"
        )
    return int(n_directions)


def friction_rows(T1: ArrayLike, T2: ArrayLike, n_directions: int) -> FloatArray:
    """Stack the pyramid rows ``D`` from the two tangent Jacobian rows of each contact.

    Row ``k m_d + i`` is ``cos(theta_i) T1_k + sin(theta_i) T2_k``.
    Explained in :ref:`sec-ci-timestepping`.

    Parameters
    ----------
    T1, T2 : array_like, shape (n_c, n)
        Jacobian rows of the tangential velocities along ``t1`` and ``t2``.
    n_directions : int
        Edges ``m_d`` of the pyramid.

    Returns
    -------
    numpy.ndarray, shape (n_c m_d, n)

    Examples
    --------
    >>> np.round(friction_rows([[1.0, 0.0, 0.0]], [[0.0, 1.0, 0.0]], 4), 6) + 0.0
    array([[ 1.,  0.,  0.],
           [ 0.,  1.,  0.],
           [-1.,  0.,  0.],
           [ 0., -1.,  0.]])
    """
    T1_mat = as_rows(T1, "T1", np.shape(T1)[-1] if np.ndim(T1) else 0)
    T2_mat = as_array(as_rows(T2, "T2", T1_mat.shape[1]), "T2", T1_mat.shape)
    d = friction_directions(n_directions)
    rows = d[None, :, 0:1] * T1_mat[:, None, :] + d[None, :, 1:2] * T2_mat[:, None, :]
    return rows.reshape(-1, T1_mat.shape[1])


@dataclass(frozen=True)
class ContactLCP:
    """The time-stepping contact LCP ``0 <= z _|_ A z + b >= 0`` with ``z = (c_n, beta, lambda)``.

    Attributes
    ----------
    A : numpy.ndarray, shape (n_c (m_d + 2), n_c (m_d + 2))
    b : numpy.ndarray, shape (n_c (m_d + 2),)
    n_contacts, n_directions : int
        ``n_c`` and ``m_d``.
    """

    A: FloatArray
    b: FloatArray
    n_contacts: int
    n_directions: int

    @property
    def normal(self) -> slice:
        """Slice of ``z`` holding the normal impulses ``c_n`` (N s)."""
        return slice(0, self.n_contacts)

    @property
    def friction(self) -> slice:
        """Slice of ``z`` holding the pyramid impulses ``beta`` (N s)."""
        return slice(self.n_contacts, self.n_contacts * (1 + self.n_directions))

    @property
    def slip(self) -> slice:
        """Slice of ``z`` holding ``lambda`` (m/s, the sliding speed in the pyramid's metric)."""
        return slice(self.n_contacts * (1 + self.n_directions), self.n_contacts * (2 + self.n_directions))


@dataclass(frozen=True)
class ContactStep:
    """Result of one contact time step (see :func:`solve_contact_lcp`).

    Attributes
    ----------
    c_n : numpy.ndarray, shape (n_c,)
        Normal impulses, N s.
    beta : numpy.ndarray, shape (n_c m_d,)
        Friction impulses along the pyramid directions, N s.
    slip : numpy.ndarray, shape (n_c,)
        ``lambda``, m/s.
    v_plus : numpy.ndarray, shape (n,)
        Generalized velocity at the end of the step.
    z : numpy.ndarray
        The LCP solution.
    residual : float
        :func:`lcp_residual` of ``z``.
    """

    c_n: FloatArray
    beta: FloatArray
    slip: FloatArray
    v_plus: FloatArray
    z: FloatArray
    residual: float


def _contact_inputs(M, N, D, mu, phi, v_star, h):
    Minv = mass_matrix_inverse(M)
    n = Minv.shape[0]
    N_mat = _rows(N, "N", n)
    n_c = N_mat.shape[0]
    D_mat = _rows(D, "D", n)
    if D_mat.shape[0] % n_c != 0:
        raise ShapeError(
            f"D must have m_d rows per contact ({n_c} contacts), got {D_mat.shape[0]} rows"
        )
    m_d = D_mat.shape[0] // n_c
    mu_vec = as_vector(mu, "mu", n_c) if np.ndim(mu) else np.full(n_c, real_number(mu, "mu"))
    if np.any(mu_vec < 0.0) or not np.all(np.isfinite(mu_vec)):
        raise NonPositiveValueError(f"every friction coefficient mu must be finite and >= 0, got {mu_vec!r}")
    phi_vec = as_vector(phi, "phi", n_c)
    v_vec = as_vector(v_star, "v_star", n)
    return Minv, N_mat, D_mat, mu_vec, phi_vec, v_vec, positive(h, "h"), n_c, m_d


def assemble_contact_lcp(
    M: ArrayLike,
    N: ArrayLike,
    D: ArrayLike,
    mu: ArrayLike,
    phi: ArrayLike,
    v_star: ArrayLike,
    h: float,
) -> ContactLCP:
    """Assemble the Stewart-Trinkle / Anitescu-Potra time-stepping contact LCP.

    With ``W = G M^-1 G^T`` for ``G = [N; D]`` and ``E`` the block-diagonal
    matrix of ones that sums each contact's pyramid rows::

        A = [[N M^-1 N^T, N M^-1 D^T, 0],      b = [N v* + phi / h,
             [D M^-1 N^T, D M^-1 D^T, E],           D v*,
             [diag(mu),   -E^T,       0]]           0]

    The rows say: normal velocity after the step closes no more than the gap;
    ``D v+ + E lambda >= 0`` (lambda bounds the sliding speed); and
    ``mu c_n - sum_i beta_i >= 0`` (the impulse lies in the pyramid).
    Explained in :ref:`sec-ci-timestepping`.

    Parameters
    ----------
    M : array_like, shape (n, n)
        Mass matrix.
    N : array_like, shape (n_c, n)
        Normal Jacobian rows.
    D : array_like, shape (n_c m_d, n)
        Pyramid rows (:func:`friction_rows`), grouped by contact.
    mu : array_like, shape (n_c,) or float
        Friction coefficients (>= 0).
    phi : array_like, shape (n_c,)
        Signed gaps at the start of the step, m.
    v_star : array_like, shape (n,)
        Contact-free velocity (:func:`free_velocity`).
    h : float
        Step length, s.

    Returns
    -------
    ContactLCP

    Examples
    --------
    >>> lcp = assemble_contact_lcp(np.eye(3), [[0, 0, 1.0]], friction_rows([[1.0, 0, 0]], [[0, 1.0, 0]], 4),
    ...                            0.5, [0.0], [0.0, 0.0, -0.1], 0.01)
    >>> lcp.A.shape, np.round(lcp.b, 6) + 0.0
    ((6, 6), array([-0.1,  0. ,  0. ,  0. ,  0. ,  0. ]))
    """
    Minv, N_mat, D_mat, mu_vec, phi_vec, v_vec, h, n_c, m_d = _contact_inputs(M, N, D, mu, phi, v_star, h)
    G = np.vstack([N_mat, D_mat])
    W = G @ Minv @ G.T
    W = 0.5 * (W + W.T)
    n_g = n_c * (1 + m_d)
    size = n_c * (2 + m_d)
    E = np.kron(np.eye(n_c), np.ones((m_d, 1)))
    A = np.zeros((size, size))
    A[:n_g, :n_g] = W
    A[n_c:n_g, n_g:] = E
    A[n_g:, :n_c] = np.diag(mu_vec)
    A[n_g:, n_c:n_g] = -E.T
    b = np.concatenate([N_mat @ v_vec + phi_vec / h, D_mat @ v_vec, np.zeros(n_c)])
    return ContactLCP(A, b, n_c, m_d)


def solve_contact_lcp(
    M: ArrayLike,
    N: ArrayLike,
    D: ArrayLike,
    mu: ArrayLike,
    phi: ArrayLike,
    v_star: ArrayLike,
    h: float,
) -> ContactStep:
    """Assemble and solve one contact time step with Lemke's method.

    ``v+ = v* + M^-1 (N^T c_n + D^T beta)``. Explained in
    :ref:`sec-ci-timestepping`.

    Parameters
    ----------
    M, N, D, mu, phi, v_star, h
        As in :func:`assemble_contact_lcp`.

    Returns
    -------
    ContactStep

    Raises
    ------
    RayTerminationError
        If Lemke's method finds no solution.

    Examples
    --------
    A unit point mass resting on the floor, gravity over one 10 ms step, mu = 0.5:

    >>> D = friction_rows([[1.0, 0, 0]], [[0, 1.0, 0]], 4)
    >>> step = solve_contact_lcp(np.eye(3), [[0, 0, 1.0]], D, 0.5, [0.0], [0.0, 0.0, -0.0981], 0.01)
    >>> np.round(step.c_n, 6), np.round(step.v_plus, 6) + 0.0
    (array([0.0981]), array([0., 0., 0.]))
    """
    lcp = assemble_contact_lcp(M, N, D, mu, phi, v_star, h)
    Minv = mass_matrix_inverse(M)
    n = Minv.shape[0]
    z = lemke(lcp.A, lcp.b)
    N_mat = _rows(N, "N", n)
    D_mat = _rows(D, "D", n)
    G = np.vstack([N_mat, D_mat])
    v_plus = as_vector(v_star, "v_star", n) + Minv @ G.T @ z[: lcp.friction.stop]
    return ContactStep(z[lcp.normal], z[lcp.friction], z[lcp.slip], v_plus, z, lcp_residual(lcp.A, lcp.b, z))


@dataclass(frozen=True)
class ImpactResult:
    """Result of an impact (see :func:`newton_impact`, :func:`impact_lcp`).

    Attributes
    ----------
    impulse : numpy.ndarray, shape (n_c,)
        Normal impulses, N s.
    v_plus : numpy.ndarray, shape (n,)
        Generalized velocity after the impact.
    energy_loss : float
        Kinetic energy before minus after, J.
    """

    impulse: FloatArray
    v_plus: FloatArray
    energy_loss: float


def _impact_inputs(M, N, v_minus, e, rows_name="N"):
    Minv = mass_matrix_inverse(M)
    n = Minv.shape[0]
    N_mat = _rows(N, rows_name, n)
    v = as_vector(v_minus, "v_minus", n)
    e_val = in_range(e, "the coefficient of restitution e", 0.0, 1.0)
    M_mat = np.linalg.inv(Minv)
    return 0.5 * (M_mat + M_mat.T), Minv, N_mat, v, e_val


def _energy(M_mat: FloatArray, v: FloatArray) -> float:
    return 0.5 * float(v @ M_mat @ v)


def newton_impact(M: ArrayLike, n_row: ArrayLike, v_minus: ArrayLike, e: float) -> ImpactResult:
    """Single frictionless contact with Newton's restitution law ``N v+ = -e N v-``.

    With closing speed ``s = -N v- > 0`` the impulse is
    ``c = (1 + e) Lambda_n s`` and the kinetic energy lost is
    ``(1 - e^2) Lambda_n s^2 / 2``. A separating contact (``s <= 0``) gets no
    impulse. Explained in :ref:`sec-ci-impact`.

    Parameters
    ----------
    M : array_like, shape (n, n)
        Mass matrix.
    n_row : array_like, shape (n,)
        Normal Jacobian row (normal points out of the obstacle).
    v_minus : array_like, shape (n,)
        Velocity before the impact.
    e : float
        Coefficient of restitution in ``[0, 1]``.

    Returns
    -------
    ImpactResult

    Examples
    --------
    >>> r = newton_impact(np.eye(1) * 2.0, [1.0], [-3.0], 0.5)
    >>> float(r.impulse[0]), np.round(r.v_plus, 6), round(r.energy_loss, 6)
    (9.0, array([1.5]), 6.75)
    """
    M_mat, Minv, N_mat, v, e_val = _impact_inputs(M, n_row, v_minus, e, "n_row")
    if N_mat.shape[0] != 1:
        raise ShapeError(f"n_row must be a single Jacobian row, got {N_mat.shape[0]} rows; use impact_lcp")
    lam = effective_mass(M, N_mat[0])
    closing = -float(N_mat[0] @ v)
    c = (1.0 + e_val) * lam * closing if closing > 0.0 else 0.0
    v_plus = v + Minv @ N_mat[0] * c
    return ImpactResult(np.array([c]), v_plus, _energy(M_mat, v) - _energy(M_mat, v_plus))


def poisson_impact(M: ArrayLike, n_row: ArrayLike, v_minus: ArrayLike, e: float) -> tuple[float, float, ImpactResult]:
    """Single frictionless contact with Poisson's law: restitution impulse ``= e`` times compression impulse.

    Compression ends when the normal velocity is zero, ``c_c = Lambda_n s``;
    restitution adds ``c_r = e c_c``. For one frictionless contact the total
    equals Newton's impulse. Explained in :ref:`sec-ci-impact`.

    Returns
    -------
    (float, float, ImpactResult)
        Compression impulse, restitution impulse (N s) and the result.

    Examples
    --------
    >>> cc, cr, r = poisson_impact(np.eye(1) * 2.0, [1.0], [-3.0], 0.5)
    >>> cc, cr, float(r.impulse[0])
    (6.0, 3.0, 9.0)
    """
    M_mat, Minv, N_mat, v, e_val = _impact_inputs(M, n_row, v_minus, e, "n_row")
    if N_mat.shape[0] != 1:
        raise ShapeError(f"n_row must be a single Jacobian row, got {N_mat.shape[0]} rows")
    lam = effective_mass(M, N_mat[0])
    closing = max(-float(N_mat[0] @ v), 0.0)
    compression = lam * closing
    restitution = e_val * compression
    v_plus = v + Minv @ N_mat[0] * (compression + restitution)
    result = ImpactResult(np.array([compression + restitution]), v_plus, _energy(M_mat, v) - _energy(M_mat, v_plus))
    return compression, restitution, result


def impact_lcp(
    M: ArrayLike, N: ArrayLike, v_minus: ArrayLike, e: float, *, solver: str = "lemke"
) -> ImpactResult:
    """Frictionless multi-contact impact with Newton's law, as an LCP.

    ``0 <= c  _|_  N M^-1 N^T c + (1 + e) N v-  >= 0`` and
    ``v+ = v- + M^-1 N^T c``; every contact either separates at least as fast
    as ``-e`` times its approach speed or carries no impulse. With more
    contacts than the body can move independently the impulses are not
    unique (``solver`` picks one) while ``v+`` is. Explained in
    :ref:`sec-ci-impact`.

    Parameters
    ----------
    M : array_like, shape (n, n)
        Mass matrix.
    N : array_like, shape (n_c, n)
        Normal Jacobian rows of the contacts (normals out of the obstacles).
    v_minus : array_like, shape (n,)
        Velocity before the impact.
    e : float
        Coefficient of restitution in ``[0, 1]`` (same for all contacts).
    solver : {"lemke", "pgs", "minimum_norm"}
        Lemke's method, projected Gauss-Seidel from zero, or the least-norm
        impulses.

    Returns
    -------
    ImpactResult

    Examples
    --------
    >>> r = impact_lcp(np.eye(1) * 2.0, [[1.0], [1.0]], [-3.0], 0.0, solver="minimum_norm")
    >>> np.round(r.impulse, 6), np.round(r.v_plus, 6) + 0.0
    (array([3., 3.]), array([0.]))
    """
    one_of(solver, "solver", _SOLVERS)
    M_mat, Minv, N_mat, v, e_val = _impact_inputs(M, N, v_minus, e)
    A = N_mat @ Minv @ N_mat.T
    A = 0.5 * (A + A.T)
    b = (1.0 + e_val) * (N_mat @ v)
    if solver == "lemke":
        c = lemke(A, b)
    elif solver == "pgs":
        c = projected_gauss_seidel(A, b)
    else:  # "minimum_norm" (checked by one_of above)
        c = minimum_norm_lcp(A, b)
    v_plus = v + Minv @ N_mat.T @ c
    return ImpactResult(c, v_plus, _energy(M_mat, v) - _energy(M_mat, v_plus))


def mujoco_regularizer(A: ArrayLike, impedance: float) -> FloatArray:
    """MuJoCo's diagonal regulariser ``R_ii = (1 - d) / d * A_ii`` for constraint impedance ``d``.

    Added to the Delassus matrix it makes MuJoCo's contact problem strictly
    convex (unique forces) at the price of a soft contact. Explained in
    :ref:`sec-ci-convex`.

    Parameters
    ----------
    A : array_like, shape (m, m)
        Symmetric Delassus matrix.
    impedance : float
        ``d`` in ``(0, 1)``; MuJoCo's default solimp ranges over 0.9 to 0.95.

    Returns
    -------
    numpy.ndarray, shape (m,)

    Examples
    --------
    >>> np.round(mujoco_regularizer(np.diag([2.0, 4.0]), 0.9), 6)
    array([0.222222, 0.444444])
    """
    A_mat = as_symmetric(A, "A", as_square(A, "A").shape[0])
    d = in_range(impedance, "impedance d", 0.0, 1.0, low_open=True, high_open=True)
    return (1.0 - d) / d * np.diag(A_mat)


