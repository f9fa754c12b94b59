"""Tests for lib.models.planar_chain: the uniform-rod chain and the 3R pen on a line."""

from __future__ import annotations

import numpy as np

from lib.constraints import (
    constraint_power,
    kkt_solve,
    kkt_solve_full,
    null_space_acceleration,
    null_space_basis,
    projection_acceleration,
    projection_operator,
)
from lib.models.planar_chain import pen_on_line, planar_chain_dynamics, planar_chain_tip


RNG_SEED = 311


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


def test_chain_tree_gives_the_closed_form_m_and_h():
    # planar_chain_tree through lib.kinematic_tree's RNEA against the Jacobian
    # projection of planar_chain_dynamics: two independent routes, 1e-12
    # relative (round-off: measured ~1e-15).
    from lib.common import GRAVITY
    from lib.kinematic_tree import forward_kinematics, frame_pose, rnea, rnea_mass_matrix
    from lib.models.planar_chain import planar_chain_tree

    rng = np.random.default_rng(RNG_SEED)
    for n in (1, 2, 3, 5):
        L, m = rng.uniform(0.2, 1.0, n), rng.uniform(0.5, 3.0, n)
        tree = planar_chain_tree(L, m)
        for _ in range(10):
            q, qd, qdd = rng.normal(size=(3, n))
            M, h = planar_chain_dynamics(q, qd, L, m)
            tau = rnea(tree, q, qd, qdd, gravity=[0.0, -GRAVITY, 0.0])
            scale = np.abs(M @ qdd + h).max() + np.abs(M).max()
            np.testing.assert_allclose(tau, M @ qdd + h, rtol=0, atol=1e-12 * scale)
            np.testing.assert_allclose(rnea_mass_matrix(tree, q), M, rtol=0, atol=1e-12 * scale)
            # the joints and the tip are the chain's points
            tip = planar_chain_tip(q, qd, L)[0]
            np.testing.assert_allclose(frame_pose(tree, q, "tip")[:2, 3], tip, atol=1e-12)
            joints = forward_kinematics(tree, q)[:, :2, 3]
            for k in range(1, n):
                np.testing.assert_allclose(
                    joints[k], planar_chain_tip(q[:k], qd[:k], L[:k])[0], atol=1e-12
                )


def test_chain_tree_refuses_bad_rods():
    import pytest

    from lib.errors import NonPositiveValueError, ShapeError
    from lib.models.planar_chain import planar_chain_tree

    with pytest.raises(NonPositiveValueError, match="lengths"):
        planar_chain_tree([0.5, -0.1], [1.0, 1.0])
    with pytest.raises(ShapeError, match="masses"):
        planar_chain_tree([0.5, 0.4], [1.0])
    with pytest.raises(ShapeError, match="lengths"):
        planar_chain_tree([], [])
