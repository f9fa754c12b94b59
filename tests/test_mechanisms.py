"""Tests for lib.mechanisms: the 3R pen, four-bar, five-bar and Stewart-Gough models."""

from __future__ import annotations

import numpy as np
import pytest

from lib.constraints import (
    constraint_power,
    kkt_solve,
    kkt_solve_full,
    multiplier_torques,
    null_space_acceleration,
    null_space_basis,
    projection_acceleration,
    projection_operator,
    simulate_constrained,
    virtual_work_torques,
)
from lib.errors import NonPositiveMassError, NotARotationError, ShapeError, SingularConstraintError, UnreachableTargetError
from lib.mechanisms import (
    FIVEBAR_ACTUATED,
    fivebar_configuration,
    fivebar_constraints,
    fivebar_dynamics,
    fivebar_motion,
    fourbar_configuration,
    fourbar_constraints,
    fourbar_dynamics,
    fourbar_independent_acceleration,
    fourbar_state,
    mechanical_energy,
    pen_on_line,
    planar_chain_dynamics,
    planar_chain_tip,
    rod_mass_matrix,
    stewart_geometry,
    stewart_leg_forces,
    stewart_wrench_matrix,
)

RNG_SEED = 311


# --- planar chain and pen --------------------------------------------------------


def test_chain_mass_matrix_matches_kinetic_energy_of_the_rods():
    rng = np.random.default_rng(RNG_SEED)
    L, m = np.array([0.4, 0.3, 0.2]), np.array([2.0, 1.5, 1.0])
    q, qd = rng.normal(size=3), rng.normal(size=3)
    M, _ = planar_chain_dynamics(q, qd, L, m)
    # Independent: sum of 0.5 m v_c^2 + 0.5 I w^2 with v_c from finite differences of c(q).
    phi, w = np.cumsum(q), np.cumsum(qd)
    energy, eps = 0.0, 1e-7
    for i in range(3):
        def com(qq, i=i):
            ph = np.cumsum(qq)
            u = np.stack([np.cos(ph), np.sin(ph)], 1)
            return L[:i] @ u[:i] + 0.5 * L[i] * u[i]
        v = (com(q + eps * qd) - com(q - eps * qd)) / (2 * eps)
        energy += 0.5 * m[i] * v @ v + 0.5 * m[i] * L[i] ** 2 / 12 * w[i] ** 2
    # 1e-8: central differences with eps = 1e-7.
    np.testing.assert_allclose(0.5 * qd @ M @ qd, energy, rtol=1e-8)
    assert phi.shape == (3,)


def test_chain_bias_force_matches_lagrange_equations():
    rng = np.random.default_rng(RNG_SEED + 1)
    L, m, g = np.array([0.4, 0.3, 0.2]), np.array([2.0, 1.5, 1.0]), 9.81
    q, qd = rng.normal(size=3), rng.normal(size=3)
    M, h = planar_chain_dynamics(q, qd, L, m, g)
    eps = 1e-6
    dM = [(planar_chain_dynamics(q + eps * e, qd, L, m, g)[0] - planar_chain_dynamics(q - eps * e, qd, L, m, g)[0]) / (2 * eps) for e in np.eye(3)]

    def potential(qq):
        ph = np.cumsum(qq)
        y = np.sin(ph)
        return sum(m[i] * g * (L[:i] @ y[:i] + 0.5 * L[i] * y[i]) for i in range(3))

    dV = np.array([(potential(q + eps * e) - potential(q - eps * e)) / (2 * eps) for e in np.eye(3)])
    Mdot = sum(dM[k] * qd[k] for k in range(3))
    h_lagrange = Mdot @ qd - 0.5 * np.array([qd @ dM[i] @ qd for i in range(3)]) + dV
    # 1e-7: central differences (eps = 1e-6) of smooth O(1) functions.
    np.testing.assert_allclose(h, h_lagrange, atol=1e-7)


def test_chain_tip_closed_form():
    p, J, jdqd = planar_chain_tip([0.0, np.pi / 2], [1.0, 0.0], [1.0, 1.0])
    np.testing.assert_allclose(p, [1.0, 1.0], atol=1e-15)
    np.testing.assert_allclose(J, [[-1.0, -1.0], [1.0, 0.0]], atol=1e-15)
    np.testing.assert_allclose(jdqd, [-1.0, -1.0], atol=1e-15)


def test_pen_equivalences_on_200_random_states():
    rng = np.random.default_rng(RNG_SEED + 2)
    worst, worst_P, worst_power = 0.0, 0.0, 0.0
    for _ in range(200):
        q = rng.uniform(-np.pi, np.pi, 3)
        t0 = pen_on_line(q, np.zeros(3))
        qd = null_space_basis(t0.J) @ rng.normal(size=2)  # admissible velocity
        t = pen_on_line(q, qd)
        f = rng.normal(scale=5.0, size=3) - t.h
        qdd, lam, _ = kkt_solve(t.M, t.J, f, t.gamma)
        others = [kkt_solve_full(t.M, t.J, f, t.gamma)[0], projection_acceleration(t.M, t.J, f, t.gamma), null_space_acceleration(t.M, t.J, f, t.gamma)]
        worst = max(worst, max(np.abs(o - qdd).max() / max(1.0, np.abs(qdd).max()) for o in others))
        P = projection_operator(t.M, t.J)
        worst_P = max(worst_P, np.abs(P @ P - P).max(), abs(np.trace(P) - 2.0))
        worst_power = max(worst_power, abs(constraint_power(t.J, qd, lam)))
    # 1e-12 relative: the pen Jacobian can be near-singular (tip near the base), cond up to ~1e3.
    assert worst < 1e-12
    assert worst_P < 1e-12
    assert worst_power < 1e-12


# --- four-bar ------------------------------------------------------------------


def test_fourbar_configuration_closes_the_loop_and_velocity_is_admissible():
    for theta in np.linspace(-np.pi, np.pi, 13):
        q, qd = fourbar_state(theta, 3.0)
        Phi, J, _ = fourbar_constraints(q, qd)
        # Position analysis in closed form: round-off only.
        assert np.abs(Phi).max() < 1e-15
        assert np.abs(J @ qd).max() < 1e-13
        assert qd[2] == 3.0


def fourbar_run(h, T, **kw):
    M, f = fourbar_dynamics()
    q0, qd0 = fourbar_state(np.deg2rad(60.0), 0.0)
    steps = int(round(T / h))
    Q, V = simulate_constrained(q0, qd0, lambda q, qd: (M, f), fourbar_constraints, h, steps, **kw)
    viol = np.array([np.abs(fourbar_constraints(q, v)[0]).max() for q, v in zip(Q, V)])
    return Q, V, viol


def test_fourbar_drift_scales_with_h_to_the_fourth():
    _, _, v1 = fourbar_run(0.02, 2.0)
    _, _, v2 = fourbar_run(0.01, 2.0)
    ratio = v1[-1] / v2[-1]
    # RK4 global error O(h^4): halving h divides the drift by ~16 (10..24 allows for
    # the pre-asymptotic regime at these steps).
    assert 10.0 < ratio < 24.0, ratio


def test_projection_keeps_violations_at_round_off_and_baumgarte_helps_at_moderate_gain():
    _, _, none = fourbar_run(0.01, 1.5)
    Q, V, proj = fourbar_run(0.01, 1.5, stabilization="projection", project_tol=1e-15)
    _, _, baum = fourbar_run(0.01, 1.5, stabilization="baumgarte", alpha=20.0, beta=20.0)
    assert proj.max() <= 1e-15  # the projection's own tolerance
    vel = max(np.abs(fourbar_constraints(q, v)[1] @ v).max() for q, v in zip(Q, V))
    assert vel < 1e-14  # velocity projection: J qd = 0 to round-off of O(1) velocities
    assert baum[-1] < 0.1 * none[-1]


def test_fourbar_independent_coordinate_matches_kkt_and_conserves_energy():
    M, f = fourbar_dynamics()
    for theta, thetad in [(0.3, 1.0), (2.0, -4.0), (-1.0, 7.0)]:
        q, qd = fourbar_state(theta, thetad)
        _, J, gamma = fourbar_constraints(q, qd)
        # 1e-10 relative: two different linear solves of the same 9 x 9 problem.
        np.testing.assert_allclose(fourbar_independent_acceleration(theta, thetad), kkt_solve(M, J, f, gamma).qdd[2], rtol=1e-10)
    Q, V, _ = fourbar_run(0.005, 1.0, stabilization="projection", project_tol=1e-15)
    E = np.array([mechanical_energy(q, v, M, f) for q, v in zip(Q, V)])
    # The projection does not conserve energy exactly: RK4 error O(h^4) of ~0.1 J energies.
    assert np.abs(E - E[0]).max() < 1e-3


def test_fourbar_bad_inputs():
    with pytest.raises(UnreachableTargetError, match="cannot be assembled"):
        fourbar_configuration(0.0, lengths=(1.0, 0.1, 0.2, 0.2))
    with pytest.raises(NonPositiveMassError):
        fourbar_configuration(0.0, lengths=(0.4, -0.1, 0.35, 0.3))
    with pytest.raises(ShapeError):
        fourbar_constraints(np.zeros(8), np.zeros(8))


# --- five-bar ------------------------------------------------------------------


def circle_path(t):
    w = 2.0 * np.pi
    c = np.array([0.0, 0.3])
    p = c + 0.05 * np.array([np.cos(w * t), np.sin(w * t)])
    return p, 0.05 * w * np.array([-np.sin(w * t), np.cos(w * t)]), -w * w * (p - c)


def test_fivebar_multiplier_torques_equal_virtual_work_along_a_trajectory():
    M, f = fivebar_dynamics()
    act = list(FIVEBAR_ACTUATED)
    for t in np.linspace(0.0, 1.0, 21):
        q, qd, qdd = fivebar_motion(*circle_path(t))
        Phi, J, gamma = fivebar_constraints(q, qd)
        assert np.abs(Phi).max() < 1e-15
        qdd2, lam, tau = multiplier_torques(M, f, J, gamma, act, qdd[act])
        # 1e-12: both are solves with J_full of condition ~30.
        np.testing.assert_allclose(qdd2, qdd, atol=1e-12)
        np.testing.assert_allclose(virtual_work_torques(M, f, J, act, qdd), tau, atol=1e-12)
        # The multipliers balance the equations of motion.
        np.testing.assert_allclose(M @ qdd, f + np.vstack([J, np.eye(12)[act]]).T @ lam, atol=1e-12)


def test_fivebar_torque_times_sigma_min_is_constant_near_the_singularity():
    M, f = fivebar_dynamics()
    act = list(FIVEBAR_ACTUATED)
    products, sigmas = [], []
    for y in [0.1530, 0.1515, 0.1505, 0.15005, 0.150005]:
        q = fivebar_configuration([0.0, y])
        _, J, gamma = fivebar_constraints(q, np.zeros(12))
        _, _, tau = multiplier_torques(M, f, J, gamma, act, [0.0, 0.0])
        sigma = np.linalg.svd(np.vstack([J, np.eye(12)[act]]), compute_uv=False)[-1]
        products.append(np.abs(tau).max() * sigma)
        sigmas.append(sigma)
    products = np.array(products)
    assert sigmas[-1] < 1e-5 and sigmas[0] > 1e-3
    # tau ~ c / sigma_min: the product changes by less than 5 % while sigma_min falls 300-fold.
    assert np.ptp(products) / products.mean() < 0.05, products


def test_fivebar_errors():
    M, f = fivebar_dynamics()
    q = fivebar_configuration([0.0, 0.15])
    _, J, gamma = fivebar_constraints(q, np.zeros(12))
    with pytest.raises(SingularConstraintError, match="actuator singularity.*condition number"):
        multiplier_torques(M, f, J, gamma, list(FIVEBAR_ACTUATED), [0.0, 0.0])
    with pytest.raises(UnreachableTargetError, match="leg 1"):
        fivebar_configuration([0.0, 0.7])
    with pytest.raises(ShapeError):
        fivebar_motion([0.0, 0.3], [0.0], [0.0, 0.0])


# --- Stewart-Gough ------------------------------------------------------------------


def platform_inertia(m=2.0, r=0.15):
    return np.diag([m * r * r / 4, m * r * r / 4, m * r * r / 2])


def test_stewart_static_forces_carry_the_weight_and_wrench_balances():
    b, pl = stewart_geometry()
    R = np.array([[np.cos(0.1), -np.sin(0.1), 0.0], [np.sin(0.1), np.cos(0.1), 0.0], [0.0, 0.0, 1.0]])
    p = np.array([0.02, -0.01, 0.42])
    w, al, a = np.array([0.3, -0.2, 1.0]), np.array([1.0, 0.5, -2.0]), np.array([0.5, -0.3, 1.0])
    f = stewart_leg_forces(p, R, b, pl, 2.0, platform_inertia(), w, al, a)
    # Independent: net force and moment about the COM from the leg endpoints.
    r = p + pl @ R.T
    n = (r - b) / np.linalg.norm(r - b, axis=1)[:, None]
    force = (f[:, None] * n).sum(0) + 2.0 * np.array([0.0, 0.0, -9.81])
    moment = np.cross(r - p, f[:, None] * n).sum(0)
    Iw = R @ platform_inertia() @ R.T
    # 1e-12: one 6 x 6 solve (cond ~15) of O(10) N forces.
    np.testing.assert_allclose(force, 2.0 * a, atol=1e-12)
    np.testing.assert_allclose(moment, Iw @ al + np.cross(w, Iw @ w), atol=1e-12)
    f0 = stewart_leg_forces([0, 0, 0.4], np.eye(3), b, pl, 2.0, platform_inertia())
    np.testing.assert_allclose(f0, f0[0], rtol=1e-12)  # symmetric pose: equal legs


def test_stewart_singular_geometry_is_detected():
    b, pl = stewart_geometry(beta_base=0.3, beta_platform=0.3)
    S = stewart_wrench_matrix([0, 0, 0.4], np.eye(3), b, pl)
    assert np.linalg.svd(S, compute_uv=False)[-1] < 1e-14
    with pytest.raises(SingularConstraintError, match="Stewart-Gough.*singular.*condition number.*legs"):
        stewart_leg_forces([0, 0, 0.4], np.eye(3), b, pl, 2.0, platform_inertia())


def test_stewart_bad_inputs():
    b, pl = stewart_geometry()
    with pytest.raises(NotARotationError):
        stewart_wrench_matrix([0, 0, 0.4], 2 * np.eye(3), b, pl)
    with pytest.raises(ShapeError, match=r"base must have shape \(6, 3\)"):
        stewart_wrench_matrix([0, 0, 0.4], np.eye(3), b[:5], pl)
    with pytest.raises(ShapeError, match="zero length"):
        stewart_wrench_matrix([0, 0, 0.0], np.eye(3), b, b)
    with pytest.raises(NonPositiveMassError):
        stewart_leg_forces([0, 0, 0.4], np.eye(3), b, pl, -2.0, platform_inertia())


def test_rod_mass_matrix_and_energy():
    M, f = rod_mass_matrix([1.0, 2.0], 3.0)
    np.testing.assert_allclose(np.diag(M), [3.0, 3.0, 0.25, 6.0, 6.0, 2.0], rtol=1e-15)
    np.testing.assert_allclose(f, [0.0, -29.43, 0.0, 0.0, -58.86, 0.0], rtol=1e-15)
    assert mechanical_energy(np.zeros(6), np.zeros(6), M, f) == 0.0
    with pytest.raises(NonPositiveMassError, match="gravity"):
        rod_mass_matrix([1.0], 1.0, gravity=-1.0)
    with pytest.raises(ShapeError, match="normal"):
        pen_on_line([0.0, 0.0, 0.0], [0.0, 0.0, 0.0], normal=(0.0, 0.0))


def test_mechanical_energy_validates_the_mass_matrix():
    from lib.errors import NonFiniteError, NonSymmetricError

    M, f = rod_mass_matrix([1.0], 1.0)
    q, qd = [0.0, 2.0, 0.0], [1.0, 0.0, 0.0]
    bad = np.array(M, dtype=float)
    bad[0, 0] = np.nan
    with pytest.raises(NonFiniteError, match="M contains NaN"):
        mechanical_energy(q, qd, bad, f)
    with pytest.raises(ShapeError, match="M must be a numeric array"):
        mechanical_energy(q, qd, "not a matrix", f)
    with pytest.raises(ShapeError, match=r"M must have shape \(3, 3\)"):
        mechanical_energy(q, qd, np.eye(2), f)
    skew = np.array(M, dtype=float)
    skew[0, 1] = 1.0
    with pytest.raises(NonSymmetricError, match="M must be symmetric"):
        mechanical_energy(q, qd, skew, f)
    with pytest.raises(NonFiniteError, match="q contains NaN"):
        mechanical_energy([np.nan, 0.0, 0.0], qd, M, f)
