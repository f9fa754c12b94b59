"""Tests for lib.constraints: the KKT system, its equivalent forms, stabilisation, actuator torques."""

from __future__ import annotations

import numpy as np
import pytest

from scipy.linalg import expm

from lib.constraints import (
    actuated_velocity_map,
    baumgarte_rhs,
    check_constraint_jacobian,
    constrained_acceleration,
    constraint_power,
    driving_constraints,
    gauss_function,
    kkt_matrix,
    kkt_solve,
    kkt_solve_full,
    mass_weighted_projection,
    multiplier_torques,
    null_space_acceleration,
    null_space_basis,
    project_position,
    project_velocity,
    projection_acceleration,
    projection_operator,
    schur_complement,
    simulate_constrained,
    virtual_work_torques,
)
from lib.integrate import rk4
from lib.models.fourbar import fourbar_configuration, fourbar_constraints, fourbar_dynamics
from lib.errors import (
    ConvergenceError,
    NonFiniteError,
    NotPositiveDefiniteError,
    NonPositiveValueError,
    NonSymmetricError,
    OutOfRangeError,
    ShapeError,
    SingularConstraintError,
)

RNG_SEED = 20261202


def random_system(rng: np.random.Generator, n: int, m: int):
    """A random SPD mass matrix, full-rank J, force and gamma."""
    A = rng.normal(size=(n, n))
    M = A @ A.T + n * np.eye(n)
    J = rng.normal(size=(m, n))
    return M, J, rng.normal(size=n), rng.normal(size=m)


@pytest.mark.parametrize("n, m", [(2, 1), (5, 2), (12, 8), (6, 6)])
def test_four_forms_agree_on_random_spd_systems(n, m):
    rng = np.random.default_rng(RNG_SEED + n)
    for _ in range(20):
        M, J, f, gamma = random_system(rng, n, m)
        qdd, lam, G = kkt_solve(M, J, f, gamma)
        scale = max(1.0, np.abs(qdd).max())
        # 1e-10 relative: the systems are well conditioned (cond(M) < ~50, random J).
        qdd_full, lam_full = kkt_solve_full(M, J, f, gamma)
        np.testing.assert_allclose(qdd, qdd_full, atol=1e-10 * scale)
        np.testing.assert_allclose(lam, lam_full, atol=1e-10 * max(1.0, np.abs(lam).max()))
        np.testing.assert_allclose(projection_acceleration(M, J, f, gamma), qdd, atol=1e-10 * scale)
        np.testing.assert_allclose(null_space_acceleration(M, J, f, gamma), qdd, atol=1e-10 * scale)
        # The equations themselves hold.
        np.testing.assert_allclose(M @ qdd, f + J.T @ lam, atol=1e-10 * np.abs(M).max() * scale)
        np.testing.assert_allclose(J @ qdd, gamma, atol=1e-10 * scale * np.abs(J).max())
        np.testing.assert_allclose(G, J @ np.linalg.solve(M, J.T), rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(schur_complement(M, J), G, rtol=1e-10, atol=1e-12)


def test_null_space_acceleration_accepts_a_non_orthonormal_basis():
    rng = np.random.default_rng(RNG_SEED)
    M, J, f, gamma = random_system(rng, 6, 2)
    Z = null_space_basis(J) @ rng.normal(size=(4, 4))  # any basis of the same space
    # 1e-10: round-off of two 6 x 6 solves with condition numbers below 1e3.
    np.testing.assert_allclose(null_space_acceleration(M, J, f, gamma, Z), kkt_solve(M, J, f, gamma).qdd, atol=1e-10)


def test_projection_operator_is_idempotent_with_trace_n_minus_m():
    rng = np.random.default_rng(RNG_SEED + 1)
    for n, m in [(3, 1), (7, 3), (9, 8)]:
        M, J, _, _ = random_system(rng, n, m)
        P = projection_operator(M, J)
        # 1e-12: P is built from well-conditioned factors, entries O(1).
        np.testing.assert_allclose(P @ P, P, atol=1e-12)
        assert abs(np.trace(P) - (n - m)) < 1e-12
        # P removes exactly the constraint forces: P J^T = 0.
        np.testing.assert_allclose(P @ J.T, 0.0, atol=1e-12)


def test_gauss_function_is_minimised_by_the_kkt_acceleration():
    rng = np.random.default_rng(RNG_SEED + 2)
    M, J, f, gamma = random_system(rng, 5, 2)
    qdd = kkt_solve(M, J, f, gamma).qdd
    value, grad = gauss_function(qdd, M, f)
    Z = null_space_basis(J)
    # Stationarity on the constraint set: the gradient is orthogonal to the null space.
    np.testing.assert_allclose(Z.T @ grad, 0.0, atol=1e-10)
    for _ in range(20):  # any admissible perturbation increases the objective
        other = qdd + Z @ rng.normal(size=3)
        assert gauss_function(other, M, f)[0] > value


def test_constraint_forces_do_no_work_on_admissible_velocities():
    rng = np.random.default_rng(RNG_SEED + 3)
    for _ in range(50):
        M, J, f, gamma = random_system(rng, 6, 3)
        lam = kkt_solve(M, J, f, gamma).lam
        qd = null_space_basis(J) @ rng.normal(size=3)
        # 1e-12: lam and J qd are O(1); J qd = 0 up to round-off.
        assert abs(constraint_power(J, qd, lam)) < 1e-12


def test_kkt_matrix_layout_and_sign_convention():
    K = kkt_matrix(np.diag([2.0, 3.0]), [[1.0, -1.0]])
    np.testing.assert_array_equal(K, [[2.0, 0.0, -1.0], [0.0, 3.0, 1.0], [1.0, -1.0, 0.0]])


def test_task_space_mass_matrix_is_inverse_schur_complement_for_square_j():
    rng = np.random.default_rng(RNG_SEED + 4)
    M, J, _, _ = random_system(rng, 4, 4)
    Lambda = np.linalg.inv(J).T @ M @ np.linalg.inv(J)
    # 1e-9 relative: inverses of random 4 x 4 J (cond < 1e3).
    np.testing.assert_allclose(np.linalg.inv(schur_complement(M, J)), Lambda, rtol=1e-9)


def test_point_mass_on_line_closed_form():
    # Unit mass on y = 0 under gravity: qdd = (fx, 0), lambda = 9.81 (normal force).
    qdd, lam, G = kkt_solve(np.eye(2), [[0.0, 1.0]], [2.0, -9.81], [0.0])
    np.testing.assert_allclose(qdd, [2.0, 0.0], atol=1e-15)
    np.testing.assert_allclose(lam, [9.81], atol=1e-15)  # exact arithmetic up to one rounding


# --- driving constraints ------------------------------------------------------


def test_driving_constraints():
    Phi, J, gamma = driving_constraints([0.1, 0.2, 0.3], [0, 2], [0.0, 0.5], [1.0, -2.0])
    np.testing.assert_allclose(Phi, [0.1, -0.2], atol=1e-16)
    np.testing.assert_array_equal(J, [[1.0, 0.0, 0.0], [0.0, 0.0, 1.0]])
    np.testing.assert_array_equal(gamma, [1.0, -2.0])


# --- stabilisation ------------------------------------------------------------


def test_baumgarte_rhs_closed_form():
    out = baumgarte_rhs([0.5], [[1.0, 2.0]], [0.1, 0.2], [0.01], 3.0, 4.0)
    # 0.5 - 2*3*(0.1 + 0.4) - 16*0.01
    np.testing.assert_allclose(out, [0.5 - 3.0 - 0.16], atol=1e-15)


def circle(q):
    return np.array([q @ q - 1.0]), 2.0 * q[None, :]


def test_projection_is_mass_weighted_and_reaches_the_manifold():
    M = np.diag([1.0, 100.0])
    q = project_position([0.9, 0.3], M, circle, tol=1e-15)
    assert abs(q @ q - 1.0) <= 1e-15
    # The heavy coordinate moves less than the light one.
    assert abs(q[1] - 0.3) < abs(q[0] - 0.9)
    qd = project_velocity([1.0, 2.0], M, circle(q)[1])
    assert abs(circle(q)[1] @ qd)[0] < 1e-14
    q2, qd2 = mass_weighted_projection([0.9, 0.3], [1.0, 2.0], M, circle, tol=1e-15)
    np.testing.assert_allclose(q2, q, atol=1e-16)
    np.testing.assert_allclose(qd2, qd, atol=1e-15)


def test_projection_reports_non_convergence():
    far = lambda q: (np.array([np.exp(q[0]) + 1.0]), np.array([[np.exp(q[0]), 0.0]]))  # no root
    with pytest.raises(ConvergenceError, match="did not converge"):
        project_position([1.0, 0.0], np.eye(2), far, max_iterations=3)


def test_simulation_of_a_pendulum_on_a_circle_keeps_the_constraint_with_projection():
    dyn = lambda q, qd: (np.eye(2), np.array([0.0, -9.81]))
    con = lambda q, qd: (np.array([q @ q - 1.0]), 2.0 * q[None, :], np.array([-2.0 * qd @ qd]))
    Q, V = simulate_constrained([1.0, 0.0], [0.0, 0.0], dyn, con, 0.01, 200, stabilization="projection", project_tol=1e-15)
    # The projection restores |q| = 1 to round-off after every step.
    assert np.abs(np.einsum("ij,ij->i", Q, Q) - 1.0).max() < 1e-15 * 4
    assert np.abs(np.einsum("ij,ij->i", Q, V)).max() < 1e-14


def _fourbar_off_the_manifold():
    """The chapter's four-bar displaced off its constraints: Phi(0) and J qd(0) are nonzero."""
    rng = np.random.default_rng(RNG_SEED + 11)
    M, f = fourbar_dynamics()
    q0 = fourbar_configuration(1.0) + 1e-3 * rng.normal(size=9)
    qd0 = 0.05 * rng.normal(size=9)
    return (lambda q, qd: (M, f)), q0, qd0


def _baumgarte_error_mismatch(alpha, beta, h, T, *, predict_with=None):
    """Largest |Phi(t_k) - e(t_k)| over the run, e the solution of e'' + 2 a e' + b^2 e = 0.

    Along any motion Phidd = J qdd - gamma, so J qdd = gamma - 2 alpha J qd - beta^2 Phi makes
    every component of Phi obey the linear equation exactly; the run can differ from it only
    by the integrator's error. ``predict_with`` = (a, b): the gains of the prediction.
    """
    dyn, q0, qd0 = _fourbar_off_the_manifold()
    Phi0, J0, _ = fourbar_constraints(q0, qd0)
    a, b = predict_with or (alpha, beta)
    C = np.array([[0.0, 1.0], [-b * b, -2.0 * a]])
    steps = int(round(T / h))
    Q, V = simulate_constrained(q0, qd0, dyn, fourbar_constraints, h, steps,
                                stabilization="baumgarte", alpha=alpha, beta=beta)
    s0 = np.stack([Phi0, J0 @ qd0])
    return max(np.abs(fourbar_constraints(Q[k], V[k])[0] - (expm(C * k * h) @ s0)[0]).max()
               for k in range(0, steps + 1, 5))


@pytest.mark.parametrize("alpha, beta", [(5.0, 5.0), (2.0, 6.0), (8.0, 3.0)])
def test_baumgarte_constraint_error_obeys_the_damped_equation(alpha, beta):
    """Critically damped, underdamped and overdamped: the gains reach the integrator as written."""
    fine = _baumgarte_error_mismatch(alpha, beta, 1e-3, 0.3)
    coarse = _baumgarte_error_mismatch(alpha, beta, 2e-3, 0.3)
    # |Phi(0)| ~ 2.5e-3 m and Phi reaches ~5e-3 m: a mismatch below 1e-8 m is 2e-6 of it;
    # RK4 at these steps leaves ~2e-9 (measured), and halving the step divides it by
    # about 16 (10..24: fourth order), so the mismatch is the integrator's error.
    assert fine < 1e-8
    assert 10.0 < coarse / fine < 24.0
    # The check can fail: the same run against the equation with beta doubled (a gain that
    # did not reach the integrator as asked) misses by orders of magnitude more.
    assert _baumgarte_error_mismatch(alpha, beta, 1e-3, 0.3, predict_with=(alpha, 2 * beta)) > 1e3 * fine


def test_different_gains_give_different_trajectories_and_the_gains_are_the_ones_asked_for():
    dyn, q0, qd0 = _fourbar_off_the_manifold()
    runs = {g: simulate_constrained(q0, qd0, dyn, fourbar_constraints, 0.01, 40,
                                    stabilization="baumgarte", alpha=g, beta=g)[0]
            for g in (5.0, 10.0)}
    # The two gains pull Phi(0) ~ 2.5e-3 m back at different rates: the coordinates differ
    # by far more than round-off (1e-6 m is 1e-3 of the displacement).
    assert np.abs(runs[5.0] - runs[10.0]).max() > 1e-6
    # The run equals RK4 on constrained_acceleration with these gains, step for step
    # (the same arithmetic: identical to round-off).
    y = np.concatenate([q0, qd0])
    rhs = lambda t, s: np.concatenate(
        [s[9:], constrained_acceleration(s[:9], s[9:], dyn, fourbar_constraints, alpha=10.0, beta=10.0)])
    _, Y = rk4(rhs, y, 0.0, 0.01, 40)
    np.testing.assert_allclose(runs[10.0], Y[:, :9], rtol=0, atol=1e-14)


def test_gains_that_would_be_ignored_are_refused():
    dyn, q0, qd0 = _fourbar_off_the_manifold()
    with pytest.raises(OutOfRangeError, match="only used with stabilization='baumgarte'"):
        simulate_constrained(q0, qd0, dyn, fourbar_constraints, 0.01, 2, alpha=5.0, beta=5.0)
    with pytest.raises(OutOfRangeError, match="only used with"):
        simulate_constrained(q0, qd0, dyn, fourbar_constraints, 0.01, 2, stabilization="projection", beta=5.0)
    with pytest.raises(OutOfRangeError, match="needs a positive gain"):
        simulate_constrained(q0, qd0, dyn, fourbar_constraints, 0.01, 2, stabilization="baumgarte")
    with pytest.raises(NonPositiveValueError, match="beta"):
        simulate_constrained(q0, qd0, dyn, fourbar_constraints, 0.01, 2, stabilization="baumgarte",
                             alpha=1.0, beta=-1.0)


# --- parallel mechanisms: torques ------------------------------------------------


def test_multiplier_and_virtual_work_torques_agree_on_random_mechanisms():
    rng = np.random.default_rng(RNG_SEED + 6)
    for _ in range(30):
        n, k = 7, 2
        M, J_loop, f, gamma = random_system(rng, n, n - k)
        actuated = [1, 4]
        qdd, lam, tau = multiplier_torques(M, f, J_loop, gamma, actuated, rng.normal(size=k))
        # 1e-10 relative: random well-conditioned J_full.
        np.testing.assert_allclose(virtual_work_torques(M, f, J_loop, actuated, qdd), tau, atol=1e-10 * max(1, np.abs(tau).max()))
        np.testing.assert_allclose(J_loop @ qdd, gamma, atol=1e-10)
        V = actuated_velocity_map(J_loop, actuated)
        np.testing.assert_allclose(J_loop @ V, 0.0, atol=1e-12)
        np.testing.assert_array_equal(V[actuated], np.eye(k))


# --- bad input -------------------------------------------------------------------


def test_rank_deficient_jacobian_is_reported_with_rows_and_condition_number():
    M = np.eye(3)
    J = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0]]  # row 2 = row 0 + row 1
    with pytest.raises(SingularConstraintError, match=r"condition number .* row\(s\) 0 .*1 .*2"):
        kkt_solve(M, J, np.zeros(3), np.zeros(3))
    with pytest.raises(SingularConstraintError, match=r"row\(s\) \[1\] of J are zero"):
        kkt_solve(M, [[1.0, 0.0, 0.0], [0.0, 0.0, 0.0]], np.zeros(3), np.zeros(2))
    with pytest.raises(SingularConstraintError, match="4 constraint rows but only 3 coordinates"):
        check_constraint_jacobian(np.ones((4, 3)))
    with pytest.raises(SingularConstraintError, match="identically zero"):
        check_constraint_jacobian(np.zeros((1, 3)))
    for fn in (projection_operator, null_space_basis):
        with pytest.raises(SingularConstraintError):
            fn(M, J) if fn is projection_operator else fn(J)


def test_nearly_dependent_rows_are_caught_before_the_solution_degrades():
    J = np.array([[1.0, 0.0, 0.0], [1.0, 1e-12, 0.0]])
    with pytest.raises(SingularConstraintError, match="condition number"):
        kkt_solve(np.eye(3), J, np.zeros(3), np.zeros(2))
    # A looser limit accepts it and reports the number.
    assert check_constraint_jacobian(J, max_condition=1e13) > 1e11


def test_bad_mass_matrices():
    J = [[1.0, 0.0]]
    with pytest.raises(NotPositiveDefiniteError, match="positive definite"):
        kkt_solve([[1.0, 0.0], [0.0, -1.0]], J, [0.0, 0.0], [0.0])
    with pytest.raises(NonSymmetricError):
        kkt_solve([[1.0, 0.5], [0.0, 1.0]], J, [0.0, 0.0], [0.0])
    with pytest.raises(NonFiniteError):
        kkt_solve([[1.0, 0.0], [0.0, np.nan]], J, [0.0, 0.0], [0.0])


def test_bad_shapes():
    with pytest.raises(ShapeError, match=r"J must have shape \(n, 2\)"):
        kkt_solve(np.eye(2), [[1.0, 0.0, 0.0]], [0.0, 0.0], [0.0])
    with pytest.raises(ShapeError, match="f must have shape"):
        kkt_solve(np.eye(2), [[1.0, 0.0]], [0.0], [0.0])
    with pytest.raises(ShapeError, match="gamma must have shape"):
        kkt_solve(np.eye(2), [[1.0, 0.0]], [0.0, 0.0], [0.0, 1.0])
    with pytest.raises(NonPositiveValueError, match="alpha"):
        baumgarte_rhs([0.0], [[1.0]], [0.0], [0.0], -1.0, 1.0)
    with pytest.raises(ShapeError, match="distinct integers"):
        driving_constraints(np.zeros(3), [0, 0], [0, 0], [0, 0])
    free = (lambda q, qd: (np.eye(1), np.zeros(1)), lambda q, qd: (np.zeros(1), np.ones((1, 1)), np.zeros(1)))
    with pytest.raises(ShapeError, match="dynamics must be a function"):
        simulate_constrained([1.0], [0.0], None, None, 0.1, 1)
    with pytest.raises(OutOfRangeError, match="stabilization"):
        simulate_constrained([1.0], [0.0], *free, 0.1, 1, stabilization="magic")
    with pytest.raises(NonPositiveValueError, match="step"):
        simulate_constrained([1.0], [0.0], *free, -0.1, 1)
    with pytest.raises(ShapeError, match="rows for"):
        virtual_work_torques(np.eye(3), np.zeros(3), [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]], [0, 1], np.zeros(3))


def test_actuator_and_passive_singularities_are_reported():
    # The passive coordinate does not appear in the loop constraint: passive singularity.
    with pytest.raises(SingularConstraintError, match="passive"):
        actuated_velocity_map([[1.0, 0.0]], [0])
    # The loop constraint only involves the actuated coordinate: J_full singular.
    with pytest.raises(SingularConstraintError, match="actuator singularity"):
        multiplier_torques(np.eye(2), [0.0, 0.0], [[1.0, 0.0]], [0.0], [0], [0.0])
