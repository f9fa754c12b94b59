"""Tests of lib.lcp: Lemke's method, projected Gauss-Seidel, residuals, regularised and least-norm LCPs."""

from __future__ import annotations

import numpy as np
import pytest

from lib.errors import (
    ConvergenceError,
    NonFiniteError,
    NonPositiveMassError,
    NonSymmetricError,
    RayTerminationError,
    ShapeError,
)
from lib.lcp import lcp_residual, lemke, minimum_norm_lcp, projected_gauss_seidel, regularized_lcp


def _relative_residual(A, b, z):
    # The products z_i w_i scale with |z| |b|; rank-deficient problems can
    # have large vertex solutions, so compare residuals relative to that scale.
    return lcp_residual(A, b, z) / ((1.0 + np.max(np.abs(z))) * (1.0 + np.max(np.abs(b))))


def _frictionless_problem(rng):
    n = int(rng.integers(1, 13))
    m = int(rng.integers(1, 21))
    B = rng.normal(size=(n, n))
    M = B @ B.T + n * np.eye(n)
    N = rng.normal(size=(m, n))
    v_star = rng.normal(size=n)
    Minv = np.linalg.inv(M)
    return M, N, v_star, N @ Minv @ N.T, N @ v_star


def test_lemke_solves_500_random_frictionless_lcps():
    rng = np.random.default_rng(20261202)
    worst = 0.0
    for _ in range(500):
        _, _, _, A, b = _frictionless_problem(rng)
        z = lemke(A, b)  # raises RayTerminationError instead of returning None
        worst = max(worst, _relative_residual(A, b, z))
        assert np.all(z >= 0.0)
    # 1e-11: round-off of a few hundred pivots on matrices with entries O(1).
    assert worst < 1e-11


def test_lemke_solves_300_random_monotone_nonsymmetric_lcps():
    # PSD plus skew-symmetric matrices (like the frictional contact LCP) with a
    # planted solution: the LCP is feasible, so Lemke must not end on a ray.
    rng = np.random.default_rng(7)
    worst = 0.0
    for _ in range(300):
        n = int(rng.integers(1, 30))
        B = rng.normal(size=(n, n))
        S = rng.normal(size=(n, n))
        A = B @ B.T + (S - S.T)
        z_true = np.maximum(rng.normal(size=n), 0.0)
        w_true = np.where(z_true > 0.0, 0.0, rng.random(n))
        b = w_true - A @ z_true
        z = lemke(A, b)
        worst = max(worst, _relative_residual(A, b, z))
    # 1e-11: as above.
    assert worst < 1e-11


def test_lemke_matches_unique_solution_of_positive_definite_lcp():
    rng = np.random.default_rng(3)
    for _ in range(50):
        n = int(rng.integers(1, 15))
        B = rng.normal(size=(n, n))
        A = B @ B.T + np.eye(n)
        z_true = np.maximum(rng.normal(size=n), 0.0)
        w_true = np.where(z_true > 0.0, 0.0, rng.random(n))
        b = w_true - A @ z_true
        # 1e-9: condition numbers up to ~1e3 times round-off.
        np.testing.assert_allclose(lemke(A, b), z_true, atol=1e-9)


def test_lemke_zero_when_q_nonnegative():
    np.testing.assert_array_equal(lemke(np.eye(3), [1.0, 0.0, 2.0]), np.zeros(3))


def test_lemke_degenerate_ties_resolved():
    # Repeated rows and zero entries in q: the lexicographic rule must not cycle.
    A = np.ones((4, 4))
    b = -np.ones(4)
    z = lemke(A, b)
    # exact: any z >= 0 with sum 1; the residual is round-off.
    assert lcp_residual(A, b, z) < 1e-12
    np.testing.assert_allclose(z.sum(), 1.0, atol=1e-12)


def test_lemke_ray_termination_raises():
    # w = -z - 1 can never be >= 0 with z >= 0: infeasible, Lemke ends on a ray.
    with pytest.raises(RayTerminationError, match="secondary ray"):
        lemke([[-1.0]], [-1.0])
    # Infeasible two-wall problem: a ball squeezed from both sides into penetration.
    with pytest.raises(RayTerminationError, match="no solution was found"):
        lemke([[1.0, -1.0], [-1.0, 1.0]], [-1.0, -1.0])


def test_lemke_pivot_limit():
    with pytest.raises(ConvergenceError, match="pivots"):
        lemke(np.ones((4, 4)) + np.eye(4), -np.arange(1.0, 5.0), max_pivots=1)


@pytest.mark.parametrize(
    ("M", "q", "error", "match"),
    [
        (np.ones((2, 3)), [1.0, 2.0], ShapeError, r"M must be a square matrix|shape \(2, 2\)"),
        (np.eye(3), [1.0, 2.0], ShapeError, r"shape \(2, 2\)"),
        ([[np.nan]], [1.0], NonFiniteError, "NaN"),
        ([[1.0]], [np.inf], NonFiniteError, "NaN or infinity"),
        (np.eye(2), [[1.0, 2.0]], ShapeError, r"q must have shape \(n,\)"),
    ],
)
def test_lemke_bad_input(M, q, error, match):
    with pytest.raises(error, match=match):
        lemke(M, q)


def test_lcp_residual_parts():
    A = np.eye(2)
    b = np.array([-1.0, 1.0])
    assert lcp_residual(A, b, [1.0, 0.0]) == 0.0
    assert lcp_residual(A, b, [-0.5, 0.0]) == pytest.approx(1.5)  # w_0 = -1.5
    assert lcp_residual(A, b, [2.0, 0.0]) == pytest.approx(2.0)   # z_0 w_0 = 2


def test_pgs_agrees_with_lemke_on_positive_definite_problems():
    rng = np.random.default_rng(11)
    for _ in range(100):
        n = int(rng.integers(1, 10))
        B = rng.normal(size=(n, n))
        A = B @ B.T + 0.5 * np.eye(n)
        b = rng.normal(size=n)
        # 1e-7: PGS stops at residual 1e-10 (relative); the distance to the
        # unique solution is that times the condition number (<~ 1e3).
        np.testing.assert_allclose(projected_gauss_seidel(A, b), lemke(A, b), atol=1e-7)


def test_pgs_solution_depends_on_order_when_singular():
    # A rank-1 problem has a segment of solutions; the sweep order picks one.
    A = np.ones((2, 2))
    b = np.array([-1.0, -1.0])
    forward = projected_gauss_seidel(A, b)
    backward = projected_gauss_seidel(A, b, order=[1, 0])
    np.testing.assert_allclose(forward, [1.0, 0.0], atol=1e-12)
    np.testing.assert_allclose(backward, [0.0, 1.0], atol=1e-12)


@pytest.mark.parametrize(
    ("A", "b", "error", "match"),
    [
        ([[1.0, 2.0], [0.0, 1.0]], [1.0, 1.0], NonSymmetricError, "symmetric"),
        ([[0.0, 0.0], [0.0, 1.0]], [1.0, 1.0], NonPositiveMassError, "diagonal"),
        (np.ones((2, 3)), [1.0, 1.0], ShapeError, r"A must have shape \(2, 2\)"),
        ([[1.0]], [np.nan], NonFiniteError, "NaN"),
    ],
)
def test_pgs_bad_input(A, b, error, match):
    with pytest.raises(error, match=match):
        projected_gauss_seidel(A, b)


def test_pgs_reports_non_convergence():
    # Coupled unknowns need many sweeps; one sweep is not enough.
    with pytest.raises(ConvergenceError, match="did not reach"):
        projected_gauss_seidel([[2.0, 1.9], [1.9, 2.0]], [-5.0, -6.0], max_iter=1)


def test_regularized_lcp_unique_and_converges_to_least_norm():
    A = np.ones((3, 3))
    b = -np.ones(3)
    # Solutions: z >= 0 with sum 1; the least-norm one is (1/3, 1/3, 1/3).
    for eps in (1e-2, 1e-4, 1e-6):
        z = regularized_lcp(A, b, np.full(3, eps))
        # exact for this problem: z = 1/(3 + eps) each.
        np.testing.assert_allclose(z, np.full(3, 1.0 / (3.0 + eps)), rtol=1e-12)
    np.testing.assert_allclose(minimum_norm_lcp(A, b), np.full(3, 1.0 / 3.0), atol=1e-12)


def test_regularized_lcp_bad_input():
    with pytest.raises(NonPositiveMassError, match="regulariser R"):
        regularized_lcp(np.eye(2), [1.0, 1.0], [1.0, 0.0])
    with pytest.raises(NonSymmetricError):
        regularized_lcp([[1.0, 1.0], [0.0, 1.0]], [1.0, 1.0], [1.0, 1.0])


def test_lemke_verifies_its_result_on_a_degenerate_box_on_ramp_lcp():
    """Regression: box on a ramp, all four corners in the LCP (16 unknowns),
    dt = 5 ms, step 3. With tie_rtol = 1e-9 alone the pivoting merged two
    unequal ratios and returned w[14] = -6.6e-3 without raising."""
    from lib import contact_lcp as cl
    from lib.errors import ConvergenceError
    from lib.models import box_on_ramp as br

    tip = br.box_on_ramp(0.2, 0.4, 1.0, np.radians(30), 1.0)
    M, F = br.mass_matrix(tip), br.gravity_force(tip)
    q, v, dt = br.resting_state(tip), np.zeros(3), 0.005
    for _ in range(4):
        N, T, phi = br.contact_rows(tip, q)
        D = np.stack([T, -T], axis=1).reshape(8, 3)
        v_star = cl.free_velocity(M, v, F, dt)
        problem = cl.assemble_contact_lcp(M, N, D, np.full(4, 1.0), phi, v_star, dt)
        z = lemke(problem.A, problem.b)
        assert lcp_residual(problem.A, problem.b, z) < 1e-12
        v = cl.solve_contact_lcp(M, N, D, np.full(4, 1.0), phi, v_star, dt).v_plus
        q = q + dt * v
    # the single tolerance that failed is reported, not returned
    with pytest.raises(ConvergenceError, match="does not solve the LCP"):
        lemke(problem.A, problem.b, tie_rtol=1e-9, retry=False)
