"""Linear complementarity problems: Lemke's method, projected Gauss-Seidel, checks.

A linear complementarity problem LCP(M, q) asks for a vector ``z`` with

    w = M z + q,    z >= 0,    w >= 0,    z_i w_i = 0 for every i.

Rigid contact with friction leads to one LCP per time step (chapter 3.12);
the routines here solve it and measure how well a candidate satisfies it.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._validation import FloatArray, as_array, as_square, as_symmetric, as_vector, positive
from .errors import ConvergenceError, NonPositiveValueError, RayTerminationError, ShapeError

__all__ = [
    "lcp_residual",
    "lemke",
    "projected_gauss_seidel",
    "regularized_lcp",
    "minimum_norm_lcp",
]


def _lcp_inputs(M: ArrayLike, q: ArrayLike) -> tuple[FloatArray, FloatArray]:
    """Validate ``q`` as a vector and ``M`` as a square matrix of matching size."""
    q_vec = as_array(q, "q", (None,))
    M_mat = as_square(M, "M")
    if M_mat.shape[0] != q_vec.size:
        raise ShapeError(f"M must have shape ({q_vec.size}, {q_vec.size}) to match q, got shape {M_mat.shape}")
    return M_mat, q_vec


def lcp_residual(M: ArrayLike, q: ArrayLike, z: ArrayLike) -> float:
    """Largest violation of the LCP conditions by a candidate solution ``z``.

    Returns ``max(max(-z, 0), max(-w, 0), max|z_i w_i|)`` with ``w = M z + q``:
    zero for an exact solution, and a number of the size of the worst
    infeasibility or complementarity product otherwise (units of ``z`` times
    ``w``). Explained in :ref:`sec-ci-lcp-properties`.

    Parameters
    ----------
    M : array_like, shape (n, n)
        LCP matrix.
    q : array_like, shape (n,)
        LCP vector.
    z : array_like, shape (n,)
        Candidate solution.

    Returns
    -------
    float
        The worst violation.

    Examples
    --------
    >>> float(lcp_residual([[2.0]], [-1.0], [0.5]))
    0.0
    >>> float(lcp_residual([[2.0]], [-1.0], [0.0]))   # w = -1 < 0
    1.0
    """
    M_mat, q_vec = _lcp_inputs(M, q)
    z_vec = as_vector(z, "z", q_vec.size)
    w = M_mat @ z_vec + q_vec
    parts = [np.max(np.maximum(-z_vec, 0.0), initial=0.0),
             np.max(np.maximum(-w, 0.0), initial=0.0),
             np.max(np.abs(z_vec * w), initial=0.0)]
    return float(max(parts))


def _lexicographic_min(rows: np.ndarray, keys: np.ndarray, tie_rtol: float) -> np.ndarray:
    """Rows (indices into ``rows``) whose key vectors tie for the lexicographic minimum."""
    keep = np.arange(rows.size)
    for column in range(keys.shape[1]):
        values = keys[keep, column]
        best = values.min()
        keep = keep[values <= best + tie_rtol * (1.0 + abs(best))]
        if keep.size == 1:
            break
    return rows[keep]


def _polish(M: FloatArray, q: FloatArray, z: FloatArray) -> FloatArray:
    """One refinement of a pivoting result from the original data.

    On the support ``a`` of ``z`` the solution satisfies ``M_aa z_a = -q_a``;
    re-solving that system (least squares) removes the round-off that the
    tableau updates accumulate. The refined vector is kept only if its LCP
    residual is smaller.
    """
    support = z > 0.0
    if not np.any(support):
        return z
    refined = np.zeros_like(z)
    refined[support] = np.linalg.lstsq(M[np.ix_(support, support)], -q[support], rcond=None)[0]
    if np.all(refined >= 0.0) and lcp_residual(M, q, refined) < lcp_residual(M, q, z):
        return refined
    return z


def lemke(
    M: ArrayLike,
    q: ArrayLike,
    *,
    max_pivots: int | None = None,
    tie_rtol: float = 1e-9,
    pivot_tol: float = 1e-12,
    check_rtol: float = 1e-9,
    retry: bool = True,
) -> FloatArray:
    """Solve LCP(M, q) by Lemke's complementary pivoting with a lexicographic ratio test.

    The covering vector is all ones. The ratio test breaks ties
    lexicographically (first by the ratio of the right-hand side, then by the
    columns of the current basis inverse), which prevents cycling on
    degenerate problems; two ratios count as tied when they differ by less
    than ``tie_rtol * (1 + |ratio|)``. When the artificial variable is among
    the tied rows it leaves first, which ends the algorithm with a solution.
    ``M`` need not be symmetric (frictional contact LCPs are not).
    Explained in :ref:`sec-ci-lemke-pgs`.

    Parameters
    ----------
    M : array_like, shape (n, n)
        LCP matrix.
    q : array_like, shape (n,)
        LCP vector.
    max_pivots : int, optional
        Pivot limit; default ``max(1000, 50 n)``.
    tie_rtol : float, optional
        Relative tolerance for ties in the ratio test.
    pivot_tol : float, optional
        Entries of the entering column smaller than ``pivot_tol`` times the
        column's largest magnitude (or 1) do not qualify as pivots.
    check_rtol : float, optional
        The result is accepted only if its :func:`lcp_residual` is at most
        ``check_rtol (1 + max|q|) (1 + max|z|)``; otherwise the pivoting is
        repeated with the tie tolerances 1e-12, 1e-15 and 1e-6.
    retry : bool, optional
        With ``False`` only ``tie_rtol`` is tried (a secondary ray or a failed
        residual check is reported at once).

    Returns
    -------
    numpy.ndarray, shape (n,)
        A solution ``z`` (``w = M z + q`` is left to the caller).

    Raises
    ------
    ShapeError, NonFiniteError
        If ``M`` is not square, sizes differ, or an entry is NaN/inf.
    RayTerminationError
        If the entering column has no positive entry (a secondary ray): the
        method found no solution. For copositive-plus ``M`` this proves the
        LCP infeasible; for other matrices the LCP may still have one.
    ConvergenceError
        If ``max_pivots`` pivots were made without termination, or no tie
        tolerance gave a result that passes the residual check.

    Examples
    --------
    >>> z = lemke([[2.0, 1.0], [1.0, 2.0]], [-5.0, -6.0])
    >>> np.round(z, 6)
    array([1.333333, 2.333333])
    >>> lemke([[-1.0]], [-1.0])
    Traceback (most recent call last):
    ...
    lib.errors.RayTerminationError: Lemke's method ended on a secondary ray after 1 pivot(s): the entering variable z[0] can increase without bound, so no solution was found (M is not copositive-plus, or the LCP is infeasible)
    """
    M_mat, q_vec = _lcp_inputs(M, q)
    n = q_vec.size
    if n == 0 or np.all(q_vec >= 0.0):
        return np.zeros(n)
    positive(tie_rtol, "tie_rtol")
    positive(pivot_tol, "pivot_tol")
    positive(check_rtol, "check_rtol")
    limit = max(1000, 50 * n) if max_pivots is None else int(max_pivots)
    if limit < 1:
        raise NonPositiveValueError(f"max_pivots must be at least 1, got {max_pivots}")
    # Every result is verified against the original data. On badly conditioned,
    # degenerate problems a tie tolerance can merge two ratios that are not equal
    # and end on an infeasible basis; the pivoting is then repeated with tighter
    # and looser tie tolerances before giving up.
    scale = 1.0 + float(np.max(np.abs(q_vec)))
    worst = np.inf
    ray: RayTerminationError | None = None
    tolerances = (tie_rtol, 1e-12, 1e-15, 1e-6) if retry else (tie_rtol,)
    for rtol in dict.fromkeys(tolerances):
        try:
            z = _lemke_pivot(M_mat, q_vec, limit, rtol, pivot_tol)
        except RayTerminationError as exc:
            ray = ray or exc
            continue
        residual = lcp_residual(M_mat, q_vec, z)
        if residual <= check_rtol * scale * (1.0 + float(np.max(np.abs(z)))):
            return z
        worst = min(worst, residual)
    if ray is not None and not np.isfinite(worst):
        raise ray
    raise ConvergenceError(
        f"Lemke's method ended, but its result does not solve the LCP (residual "
        f"{worst:.3g}, tie tolerances {', '.join(f'{t:g}' for t in dict.fromkeys(tolerances))} "
        "tried): the problem is too badly conditioned for the pivoting in floating point"
    )


def _lemke_pivot(M_mat: FloatArray, q_vec: FloatArray, limit: int, tie_rtol: float,
                 pivot_tol: float) -> FloatArray:
    """The pivoting of :func:`lemke` for one tie tolerance (inputs already checked)."""
    n = q_vec.size
    # Tableau [I | -M | -d | q] for  w - M z - d z0 = q; columns 0..n-1 are w,
    # n..2n-1 are z, 2n is the artificial z0, the last column is the right-hand side.
    art = 2 * n
    T = np.hstack([np.eye(n), -M_mat, -np.ones((n, 1)), q_vec[:, None]])
    basis = np.arange(n)
    # z0 enters; the row with the most negative q leaves (lexicographic ties).
    rows = np.arange(n)
    # Lexicographic rule for the perturbed right-hand side q + (eps, eps^2, ...).
    keys = np.hstack([q_vec[:, None], T[:, :n]])
    leaving = int(_lexicographic_min(rows, keys, tie_rtol)[0])
    entering = art
    for pivots in range(1, limit + 1):
        T[leaving] /= T[leaving, entering]
        column = T[:, entering].copy()
        column[leaving] = 0.0
        T -= np.outer(column, T[leaving])
        dropped = basis[leaving]
        basis[leaving] = entering
        if dropped == art:
            z = np.zeros(n)
            in_z = (basis >= n) & (basis < art)
            z[basis[in_z] - n] = T[in_z, -1]
            return _polish(M_mat, q_vec, np.maximum(z, 0.0))
        entering = dropped + n if dropped < n else dropped - n
        col = T[:, entering]
        threshold = pivot_tol * max(1.0, float(np.max(np.abs(col))))
        candidates = np.flatnonzero(col > threshold)
        if candidates.size == 0:
            name = f"z[{entering - n}]" if entering >= n else f"w[{entering}]"
            raise RayTerminationError(
                f"Lemke's method ended on a secondary ray after {pivots} pivot(s): the entering "
                f"variable {name} can increase without bound, so no solution was found "
                "(M is not copositive-plus, or the LCP is infeasible)"
            )
        ratios = np.hstack([T[candidates, -1:], T[candidates, :n]]) / col[candidates, None]
        tied = _lexicographic_min(candidates, ratios, tie_rtol)
        artificial_row = tied[basis[tied] == art]
        leaving = int(artificial_row[0]) if artificial_row.size else int(tied[0])
    raise ConvergenceError(
        f"Lemke's method made {limit} pivots without finding a solution; raise max_pivots "
        "or check the problem for cycling caused by a too small tie_rtol"
    )


def projected_gauss_seidel(
    A: ArrayLike,
    b: ArrayLike,
    *,
    x0: ArrayLike | None = None,
    order: ArrayLike | None = None,
    max_iter: int = 10_000,
    tol: float = 1e-10,
) -> FloatArray:
    """Solve LCP(A, b) for symmetric ``A`` with positive diagonal by projected Gauss-Seidel.

    One sweep updates each unknown in turn, ``x_i <- max(0, x_i - w_i / A_ii)``
    with ``w = A x + b`` evaluated with the newest values. The sweeps stop when
    :func:`lcp_residual` falls below ``tol`` (relative to ``1 + max|b|``).
    With a singular ``A`` the solution reached depends on ``x0`` and
    ``order``. Explained in :ref:`sec-ci-lemke-pgs`.

    Parameters
    ----------
    A : array_like, shape (n, n)
        Symmetric positive semidefinite matrix with positive diagonal.
    b : array_like, shape (n,)
        LCP vector.
    x0 : array_like, shape (n,), optional
        Start (default zeros).
    order : array_like of int, optional
        The order in which the unknowns are updated within a sweep
        (a permutation of ``0..n-1``; default ascending).
    max_iter : int, optional
        Maximum number of sweeps.
    tol : float, optional
        Stopping tolerance on the LCP residual.

    Returns
    -------
    numpy.ndarray, shape (n,)
        The solution.

    Raises
    ------
    NonSymmetricError
        If ``A`` is not symmetric.
    NonPositiveMassError
        If a diagonal entry of ``A`` is not positive (the update divides by it).
    ConvergenceError
        If the residual is still above ``tol`` after ``max_iter`` sweeps.

    Examples
    --------
    >>> np.round(projected_gauss_seidel([[2.0, 1.0], [1.0, 2.0]], [-5.0, -6.0]), 6)
    array([1.333333, 2.333333])
    """
    b_vec = as_array(b, "b", (None,))
    n = b_vec.size
    A_mat = as_symmetric(A, "A", n)
    diagonal = np.diag(A_mat)
    if np.any(diagonal <= 0.0):
        raise NonPositiveValueError(
            f"projected Gauss-Seidel divides by the diagonal of A, which must be positive, got {diagonal!r}"
        )
    x = np.zeros(n) if x0 is None else np.maximum(as_vector(x0, "x0", n), 0.0)
    sweep = np.arange(n) if order is None else np.asarray(order, dtype=int)
    if sorted(sweep.tolist()) != list(range(n)):
        raise ShapeError(f"order must be a permutation of 0..{n - 1}, got {sweep.tolist()}")
    positive(tol, "tol")
    scale = 1.0 + float(np.max(np.abs(b_vec), initial=0.0))
    for _ in range(int(max_iter)):
        for i in sweep:
            x[i] = max(0.0, x[i] - (A_mat[i] @ x + b_vec[i]) / diagonal[i])
        if lcp_residual(A_mat, b_vec, x) <= tol * scale:
            return x
    raise ConvergenceError(
        f"projected Gauss-Seidel did not reach residual {tol:g} within {max_iter} sweeps "
        f"(residual {lcp_residual(A_mat, b_vec, x):.3g}); A may be indefinite or badly conditioned"
    )


def regularized_lcp(A: ArrayLike, b: ArrayLike, R: ArrayLike) -> FloatArray:
    """Solve the regularised LCP ``0 <= x  _|_  (A + R) x + b >= 0`` (unique solution).

    With ``A`` symmetric positive semidefinite and ``R`` diagonal with
    positive entries, ``A + R`` is positive definite, so the LCP is the
    optimality condition of the strictly convex problem
    ``min 1/2 x^T (A + R) x + b^T x, x >= 0`` and has exactly one solution
    (this is the structure of MuJoCo's convex contact model, frictionless
    case). Explained in :ref:`sec-ci-convex`.

    Parameters
    ----------
    A : array_like, shape (n, n)
        Symmetric positive semidefinite matrix (a Delassus matrix).
    b : array_like, shape (n,)
        LCP vector.
    R : array_like, shape (n,)
        Positive diagonal of the regulariser.

    Returns
    -------
    numpy.ndarray, shape (n,)

    Raises
    ------
    NonSymmetricError, NonPositiveMassError
        If ``A`` is not symmetric or an entry of ``R`` is not positive.

    Examples
    --------
    >>> np.round(regularized_lcp([[1.0, 1.0], [1.0, 1.0]], [-2.0, -2.0], [1e-6, 1e-6]), 4)
    array([1., 1.])
    """
    b_vec = as_vector(b, "b", int(np.size(b)))
    n = b_vec.size
    A_mat = as_symmetric(A, "A", n)
    R_vec = as_vector(R, "R", n)
    if np.any(R_vec <= 0.0):
        raise NonPositiveValueError(f"every entry of the regulariser R must be positive, got {R_vec!r}")
    return lemke(A_mat + np.diag(R_vec), b_vec)


def minimum_norm_lcp(A: ArrayLike, b: ArrayLike, *, epsilon: float = 1e-9) -> FloatArray:
    """The least-norm solution of a monotone LCP by vanishing Tikhonov regularisation.

    For symmetric positive semidefinite ``A`` the solutions of LCP(A, b) form
    a convex set; the solutions of the regularised problems
    LCP(A + eps E, b) converge to its element of least Euclidean norm as
    ``eps -> 0``. This routine solves the regularised problem with
    ``eps = epsilon * max(1, max diag A)`` and then polishes the result by
    solving ``A x = -b`` restricted to the active set in the least-squares,
    least-norm sense. Explained in :ref:`sec-ci-box`.

    Parameters
    ----------
    A : array_like, shape (n, n)
        Symmetric positive semidefinite matrix.
    b : array_like, shape (n,)
        LCP vector.
    epsilon : float, optional
        Relative size of the regulariser.

    Returns
    -------
    numpy.ndarray, shape (n,)

    Examples
    --------
    >>> np.round(minimum_norm_lcp([[1.0, 1.0], [1.0, 1.0]], [-2.0, -2.0]), 6)
    array([1., 1.])
    """
    b_vec = as_vector(b, "b", int(np.size(b)))
    n = b_vec.size
    A_mat = as_symmetric(A, "A", n)
    eps = positive(epsilon, "epsilon") * max(1.0, float(np.max(np.diag(A_mat), initial=0.0)))
    x = regularized_lcp(A_mat, b_vec, np.full(n, eps))
    active = x > 1e3 * eps * (1.0 + float(np.max(np.abs(b_vec), initial=0.0)))
    if np.any(active):
        polished = np.zeros(n)
        polished[active] = np.linalg.pinv(A_mat[np.ix_(active, active)]) @ (-b_vec[active])
        if np.all(polished >= 0.0) and lcp_residual(A_mat, b_vec, polished) <= lcp_residual(A_mat, b_vec, x):
            return polished
    return x
