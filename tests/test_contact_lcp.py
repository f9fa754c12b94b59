"""Tests of lib.contact_lcp: Delassus operator, contact LCP, pyramid, impacts."""

from __future__ import annotations

import numpy as np
import pytest

from lib.common import GRAVITY, random_spd

from lib.contact_lcp import (
    assemble_contact_lcp,
    delassus,
    effective_mass,
    free_velocity,
    friction_directions,
    friction_rows,
    impact_lcp,
    mass_matrix_inverse,
    mujoco_regularizer,
    newton_impact,
    poisson_impact,
    solve_contact_lcp,
)
from lib.errors import (
    NonFiniteError,
    NonPositiveMassError,
    NonSymmetricError,
    NotPositiveDefiniteError,
    OutOfRangeError,
    ShapeError,
    SingularConstraintError,
)
from lib.friction import pyramid_capacity

G_ACC = GRAVITY  # lib.common: the book's g


# ----------------------------------------------------------------- Delassus


def test_delassus_is_symmetric_psd_and_matches_definition():
    rng = np.random.default_rng(1)
    for _ in range(50):
        n, m = int(rng.integers(1, 8)), int(rng.integers(1, 12))
        M = random_spd(rng, n)
        G = rng.normal(size=(m, n))
        A = delassus(M, G)
        # 1e-12: one solve versus explicit inverse, round-off only.
        np.testing.assert_allclose(A, G @ np.linalg.solve(M, G.T), rtol=1e-10, atol=1e-12)
        np.testing.assert_array_equal(A, A.T)
        assert np.min(np.linalg.eigvalsh(A)) > -1e-12
        assert np.linalg.matrix_rank(A, tol=1e-9) == min(n, m)


@pytest.mark.parametrize(
    ("M", "error", "match"),
    [
        (np.ones((2, 3)), ShapeError, "square"),
        ([[1.0, 0.5], [0.0, 1.0]], NonSymmetricError, "symmetric"),
        ([[1.0, 0.0], [0.0, -1.0]], NotPositiveDefiniteError, "positive definite"),
        ([[np.nan, 0.0], [0.0, 1.0]], NonFiniteError, "NaN"),
    ],
)
def test_mass_matrix_bad_input(M, error, match):
    with pytest.raises(error, match=match):
        mass_matrix_inverse(M)
    with pytest.raises(error, match=match):
        delassus(M, np.ones((1, np.shape(M)[1])))


def test_delassus_rejects_wrong_columns():
    with pytest.raises(ShapeError, match=r"shape \(n, 3\)"):
        delassus(np.eye(3), np.ones((2, 2)))


def test_effective_mass_of_point_mass_and_zero_row():
    M = 2.5 * np.eye(3)
    for direction in np.random.default_rng(2).normal(size=(10, 3)):
        n = direction / np.linalg.norm(direction)
        # exact up to round-off: a point mass feels its own mass in every direction.
        assert effective_mass(M, n) == pytest.approx(2.5, rel=1e-14)
    with pytest.raises(SingularConstraintError, match="cannot move"):
        effective_mass(M, np.zeros(3))


def test_free_velocity():
    # 1e-15: two floating-point operations.
    np.testing.assert_allclose(free_velocity(2.0 * np.eye(2), [1.0, 0.0], [0.0, -2 * G_ACC], 0.01),
                               [1.0, -G_ACC * 0.01], atol=1e-15)
    with pytest.raises(NonPositiveMassError, match="h must be positive"):
        free_velocity(np.eye(1), [0.0], [0.0], -0.01)


# ----------------------------------------------------------------- pyramid


@pytest.mark.parametrize("m_d", [3, 4, 8, 16, 32])
def test_pyramid_capacity_matches_polygon_geometry(m_d):
    # Independent computation: the distance from the origin to the polygon
    # with vertices d_i along direction psi, by intersecting the ray with every edge.
    d = friction_directions(m_d)
    psi = np.linspace(0.0, 2.0 * np.pi, 721)
    u = np.column_stack([np.cos(psi), np.sin(psi)])
    best = np.full(psi.size, np.inf)
    for i in range(m_d):
        p, q = d[i], d[(i + 1) % m_d]
        e = q - p
        # solve s u = p + t e  for s > 0, 0 <= t <= 1
        det = u[:, 0] * (-e[1]) - u[:, 1] * (-e[0])
        with np.errstate(divide="ignore", invalid="ignore"):  # rays parallel to an edge
            s = (p[0] * (-e[1]) - p[1] * (-e[0])) / det
            t = (u[:, 0] * p[1] - u[:, 1] * p[0]) / det
        ok = (s > 0) & (t >= -1e-12) & (t <= 1 + 1e-12)
        best = np.where(ok, np.minimum(best, s), best)
    # 1e-12: two closed forms of the same geometry. lib.friction's inscribed
    # pyramid must be exactly the polygon spanned by this module's directions.
    inscribed = pyramid_capacity(psi, 1.0, m_d)[1]
    np.testing.assert_allclose(inscribed, best, rtol=1e-12)
    np.testing.assert_allclose(pyramid_capacity(np.pi / m_d, 1.0, m_d)[1], np.cos(np.pi / m_d), rtol=1e-14)


def test_friction_directions_bad_input():
    with pytest.raises(OutOfRangeError, match=">= 3"):
        friction_directions(2)
    with pytest.raises(ShapeError, match="whole number"):  # not a count at all (a shape of the input)
        friction_directions(4.5)


def _point_mass_push(force, psi, m_d, mu=0.5, mass=1.0, h=1e-3):
    """One step of a point mass at rest on the floor pushed horizontally."""
    M = mass * np.eye(3)
    N = np.array([[0.0, 0.0, 1.0]])
    D = friction_rows([[1.0, 0.0, 0.0]], [[0.0, 1.0, 0.0]], m_d)
    f = np.array([force * np.cos(psi), force * np.sin(psi), -mass * G_ACC])
    v_star = free_velocity(M, np.zeros(3), f, h)
    return solve_contact_lcp(M, N, D, mu, [0.0], v_star, h)


@pytest.mark.parametrize("m_d", [4, 8, 16, 32])
def test_slip_threshold_is_cos_pi_over_md_at_edge_midpoint(m_d):
    mu, mass = 0.5, 1.0
    threshold = np.cos(np.pi / m_d) * mu * mass * G_ACC
    psi = np.pi / m_d  # edge midpoint
    below = _point_mass_push(threshold * (1 - 1e-6), psi, m_d)
    above = _point_mass_push(threshold * (1 + 1e-6), psi, m_d)
    # sticking: tangential velocity is zero to round-off (1e-12 m/s);
    # slipping: the excess force 1e-6 * threshold acts for h = 1 ms.
    assert np.linalg.norm(below.v_plus[:2]) < 1e-12
    assert np.linalg.norm(above.v_plus[:2]) > 1e-10
    # at a vertex the full mu m g is available
    assert np.linalg.norm(_point_mass_push(mu * mass * G_ACC * (1 - 1e-6), 0.0, m_d).v_plus[:2]) < 1e-12


def test_slip_direction_snaps_to_edge_normal():
    # Just past the capacity, the velocity follows the nearest edge normal,
    # so its direction error equals |psi - psi_mid| <= pi / m_d.
    m_d = 4
    for psi in np.linspace(0.05, np.pi / 2 - 0.05, 9):
        cap = pyramid_capacity(psi, 0.5, m_d)[1] * G_ACC  # times f_n = m g
        step = _point_mass_push(cap * 1.01, psi, m_d)
        angle = np.arctan2(step.v_plus[1], step.v_plus[0])
        # 1e-9 rad: LCP round-off on an O(1e-5) m/s velocity.
        np.testing.assert_allclose(angle, np.pi / 4, atol=1e-9)
        assert abs(angle - psi) <= np.pi / m_d


# ----------------------------------------------------------------- contact LCP


def _random_contact_problem(rng):
    n = int(rng.integers(3, 10))
    n_c = int(rng.integers(1, 5))
    m_d = int(rng.choice([4, 6, 8]))
    M = random_spd(rng, n)
    N = rng.normal(size=(n_c, n))
    T1, T2 = rng.normal(size=(n_c, n)), rng.normal(size=(n_c, n))
    D = friction_rows(T1, T2, m_d)
    mu = rng.uniform(0.1, 1.0, n_c)
    phi = rng.uniform(0.0, 1e-3, n_c)
    v_star = rng.normal(size=n)
    return M, N, D, mu, phi, v_star, 1e-2, m_d


def test_300_random_frictional_contact_lcps():
    rng = np.random.default_rng(1996)
    worst = 0.0
    for _ in range(300):
        M, N, D, mu, phi, v_star, h, m_d = _random_contact_problem(rng)
        step = solve_contact_lcp(M, N, D, mu, phi, v_star, h)
        scale = (1.0 + np.max(np.abs(step.z))) * (1.0 + np.max(np.abs(v_star)) + np.max(phi) / h)
        worst = max(worst, step.residual / scale)
        n_c = N.shape[0]
        # physics, each to 1e-9 (round-off on O(1..100) impulses):
        assert np.all(step.c_n >= 0.0) and np.all(step.beta >= 0.0)
        cone = mu * step.c_n - step.beta.reshape(n_c, m_d).sum(axis=1)
        assert np.all(cone >= -1e-9 * scale)                    # inside the pyramid
        assert np.all(N @ step.v_plus + phi / h >= -1e-9 * scale)  # no penetration
        # velocity update is consistent with the impulses
        np.testing.assert_allclose(
            M @ (step.v_plus - v_star), N.T @ step.c_n + D.T @ step.beta, rtol=1e-9, atol=1e-9 * scale
        )
    # 1e-11: relative complementarity after a few dozen pivots.
    assert worst < 1e-11


def test_contact_lcp_blocks():
    rng = np.random.default_rng(5)
    M, N, D, mu, phi, v_star, h, m_d = _random_contact_problem(rng)
    lcp = assemble_contact_lcp(M, N, D, mu, phi, v_star, h)
    n_c = N.shape[0]
    Minv = np.linalg.inv(M)
    # 1e-10: inverse versus Cholesky solve.
    np.testing.assert_allclose(lcp.A[:n_c, :n_c], N @ Minv @ N.T, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(lcp.A[lcp.normal, lcp.friction], N @ Minv @ D.T, rtol=1e-10, atol=1e-12)
    np.testing.assert_array_equal(lcp.A[lcp.friction, lcp.slip], np.kron(np.eye(n_c), np.ones((m_d, 1))))
    np.testing.assert_array_equal(lcp.A[lcp.slip, lcp.normal], np.diag(mu))
    np.testing.assert_array_equal(lcp.A[lcp.slip, lcp.friction], -np.kron(np.eye(n_c), np.ones((1, m_d))))
    np.testing.assert_array_equal(lcp.A[lcp.slip, lcp.slip], np.zeros((n_c, n_c)))
    np.testing.assert_allclose(lcp.b[lcp.normal], N @ v_star + phi / h, rtol=1e-14)
    np.testing.assert_allclose(lcp.b[lcp.friction], D @ v_star, rtol=1e-14)


def test_contact_lcp_bad_input():
    M = np.eye(3)
    N = [[0.0, 0.0, 1.0]]
    D = friction_rows([[1.0, 0, 0]], [[0, 1.0, 0]], 4)
    with pytest.raises(ShapeError, match="m_d rows per contact"):
        assemble_contact_lcp(M, [[0, 0, 1.0], [0, 1.0, 0]], D[:3], 0.5, [0.0, 0.0], np.zeros(3), 0.01)
    with pytest.raises(NonPositiveMassError, match="friction coefficient"):
        assemble_contact_lcp(M, N, D, -0.5, [0.0], np.zeros(3), 0.01)
    with pytest.raises(NonFiniteError):
        assemble_contact_lcp(M, N, D, 0.5, [np.nan], np.zeros(3), 0.01)
    with pytest.raises(NonSymmetricError):
        assemble_contact_lcp(np.triu(np.ones((3, 3))), N, D, 0.5, [0.0], np.zeros(3), 0.01)


# ----------------------------------------------------------------- MuJoCo's regulariser


def test_mujoco_regularizer():
    A = np.array([[2.0, 1.0], [1.0, 3.0]])
    # exact arithmetic: (1 - d)/d A_ii.
    np.testing.assert_allclose(mujoco_regularizer(A, 0.95), [2.0 / 19.0, 3.0 / 19.0], rtol=1e-14)
    with pytest.raises(OutOfRangeError, match=r"impedance d must lie in \(0, 1\)"):
        mujoco_regularizer(A, 1.0)
    with pytest.raises(NonSymmetricError):
        mujoco_regularizer([[1.0, 2.0], [0.0, 1.0]], 0.9)


# ----------------------------------------------------------------- impacts


def test_newton_impact_closed_forms():
    rng = np.random.default_rng(9)
    for _ in range(100):
        n = int(rng.integers(1, 7))
        M = random_spd(rng, n)
        row = rng.normal(size=n)
        v = rng.normal(size=n)
        if row @ v > 0:
            v = -v  # approaching
        e = float(rng.uniform(0, 1))
        lam = 1.0 / (row @ np.linalg.solve(M, row))
        s = -row @ v
        r = newton_impact(M, row, v, e)
        # 1e-10: a handful of solves on matrices with condition < 1e2.
        np.testing.assert_allclose(r.impulse[0], (1 + e) * lam * s, rtol=1e-10)
        np.testing.assert_allclose(row @ r.v_plus, -e * (row @ v), rtol=1e-9, atol=1e-12)
        np.testing.assert_allclose(r.energy_loss, 0.5 * (1 - e * e) * lam * s * s, rtol=1e-9, atol=1e-12)
        cc, cr, p = poisson_impact(M, row, v, e)
        # Poisson equals Newton for one frictionless contact.
        np.testing.assert_allclose(cc + cr, r.impulse[0], rtol=1e-12)
        np.testing.assert_allclose(cr, e * cc, rtol=1e-12)
        np.testing.assert_allclose(p.v_plus, r.v_plus, rtol=1e-12, atol=1e-12)
        # the single-contact LCP gives the same
        np.testing.assert_allclose(impact_lcp(M, [row], v, e).impulse, r.impulse, rtol=1e-9)


def test_separating_contact_gets_no_impulse():
    r = newton_impact(np.eye(2), [1.0, 0.0], [0.5, 0.0], 0.5)
    assert r.impulse[0] == 0.0 and r.energy_loss == 0.0


def test_elastic_and_plastic_extremes():
    M = np.diag([3.0, 1.0])
    elastic = newton_impact(M, [1.0, 0.0], [-2.0, 0.3], 1.0)
    plastic = newton_impact(M, [1.0, 0.0], [-2.0, 0.3], 0.0)
    assert abs(elastic.energy_loss) < 1e-12  # e = 1 conserves energy
    np.testing.assert_allclose(plastic.energy_loss, 0.5 * 3.0 * 4.0, rtol=1e-14)


def test_multi_contact_impact_lcp_restitution_law():
    rng = np.random.default_rng(12)
    for _ in range(100):
        n, n_c = int(rng.integers(2, 7)), int(rng.integers(1, 9))
        M = random_spd(rng, n)
        N = rng.normal(size=(n_c, n))
        v = rng.normal(size=n)
        e = float(rng.uniform(0, 1))
        for solver in ("lemke", "minimum_norm"):
            r = impact_lcp(M, N, v, e, solver=solver)
            w = N @ r.v_plus + e * (N @ v)
            scale = 1.0 + np.max(np.abs(r.impulse))
            # complementarity of impulse and restitution velocity, 1e-9 relative
            assert np.all(r.impulse >= 0) and np.all(w >= -1e-9 * scale)
            assert np.max(np.abs(r.impulse * w)) < 1e-9 * scale
            assert r.energy_loss >= -1e-9 * scale  # impacts never add energy


def test_impact_bad_input():
    with pytest.raises(OutOfRangeError, match=r"\[0, 1\]"):
        newton_impact(np.eye(1), [1.0], [-1.0], 1.5)
    with pytest.raises(OutOfRangeError, match="solver"):
        impact_lcp(np.eye(1), [[1.0]], [-1.0], 0.5, solver="magic")
    with pytest.raises(ShapeError, match="single Jacobian row"):
        newton_impact(np.eye(2), np.eye(2), [-1.0, 0.0], 0.5)
    with pytest.raises(NotPositiveDefiniteError):
        newton_impact(-np.eye(1), [1.0], [-1.0], 0.5)
