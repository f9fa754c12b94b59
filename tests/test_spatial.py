"""Tests of lib.spatial: adjoints, spatial inertia, momentum, energy, frame changes.

The identities are checked against direct sums over the point masses of
random rigid bodies, which never build ``G``, ``Ad`` or ``ad``, so a sign or
ordering mistake in those matrices cannot cancel out.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from lib.errors import (
    NonFiniteError,
    NonPhysicalInertiaError,
    NonPositiveMassError,
    NonSymmetricError,
    NotARotationError,
    NotATransformError,
    ShapeError,
)
from lib.inertia import point_mass_properties, skew
from lib.spatial import (
    ad,
    adjoint,
    inverse_transform,
    kinetic_energy,
    spatial_inertia,
    spatial_momentum,
    transform,
    transform_spatial_inertia,
    transform_wrench,
)

N_TRIALS = 300
# Every quantity below is a sum of ~10-20 products of O(1) numbers; round-off
# is ~1e-15 relative, so 1e-12 leaves three orders of margin yet catches any
# wrong sign or block (those give O(1) errors).
RTOL = 1e-12
ATOL = 1e-12


def random_pose(rng: np.random.Generator) -> np.ndarray:
    R = Rotation.random(random_state=rng).as_matrix()
    return transform(R, rng.normal(size=3))


def random_body(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    n = int(rng.integers(3, 12))
    return rng.uniform(0.1, 2.0, n), rng.normal(scale=0.5, size=(n, 3))


def direct_momentum(masses, positions, V):
    """(h_O, p) by summing m_i r_i x u_i and m_i u_i, u_i = v + w x r_i."""
    w, v = V[:3], V[3:]
    u = v + np.cross(w, positions)
    p = masses @ u
    h = np.sum(masses[:, None] * np.cross(positions, u), axis=0)
    return np.concatenate([h, p]), 0.5 * np.sum(masses * np.sum(u * u, axis=1))


def body_G(masses, positions):
    props = point_mass_properties(masses, positions)
    return spatial_inertia(props.mass, props.inertia_com, com=props.com)


def test_skew_is_cross_product_and_antisymmetric():
    rng = np.random.default_rng(1)
    for _ in range(50):
        w, u = rng.normal(size=(2, 3))
        # one cross product: round-off ~1e-16
        np.testing.assert_allclose(skew(w) @ u, np.cross(w, u), rtol=0, atol=1e-14)
        np.testing.assert_array_equal(skew(w), -skew(w).T)


def test_transform_and_inverse():
    rng = np.random.default_rng(2)
    for _ in range(50):
        T = random_pose(rng)
        # products of orthonormal matrices: round-off ~1e-15
        np.testing.assert_allclose(T @ inverse_transform(T), np.eye(4), atol=1e-14)
        np.testing.assert_allclose(inverse_transform(T), np.linalg.inv(T), atol=1e-13)


def test_adjoint_is_a_homomorphism_and_inverts():
    rng = np.random.default_rng(3)
    for _ in range(100):
        T1, T2 = random_pose(rng), random_pose(rng)
        # 6x6 products of O(1) entries: round-off ~1e-15
        np.testing.assert_allclose(adjoint(T1 @ T2), adjoint(T1) @ adjoint(T2), atol=1e-13)
        np.testing.assert_allclose(adjoint(inverse_transform(T1)), np.linalg.inv(adjoint(T1)), atol=1e-12)


def test_adjoint_maps_point_velocities():
    """V_b = Ad_{T_ba} V_a: the velocity of every body point agrees in both frames."""
    rng = np.random.default_rng(4)
    for _ in range(N_TRIALS):
        T_ba = random_pose(rng)
        R, p = T_ba[:3, :3], T_ba[:3, 3]
        V_a = rng.normal(size=6)
        V_b = adjoint(T_ba) @ V_a
        x_a = rng.normal(size=3)  # a body point, in {a}
        x_b = R @ x_a + p
        u_a = V_a[3:] + np.cross(V_a[:3], x_a)
        u_b = V_b[3:] + np.cross(V_b[:3], x_b)
        np.testing.assert_allclose(u_b, R @ u_a, rtol=RTOL, atol=ATOL)


def test_ad_bracket_identities():
    rng = np.random.default_rng(5)
    for _ in range(100):
        V1, V2 = rng.normal(size=(2, 6))
        T = random_pose(rng)
        np.testing.assert_allclose(ad(V1) @ V2, -ad(V2) @ V1, atol=1e-13)
        # Ad_T ad_V Ad_T^-1 = ad_{Ad_T V}
        np.testing.assert_allclose(
            adjoint(T) @ ad(V1) @ adjoint(inverse_transform(T)), ad(adjoint(T) @ V1), atol=1e-12
        )


def test_spatial_inertia_at_com_is_block_diagonal():
    G = spatial_inertia(2.0, np.diag([0.1, 0.2, 0.25]))
    np.testing.assert_array_equal(G, np.diag([0.1, 0.2, 0.25, 2.0, 2.0, 2.0]))


def test_spatial_inertia_with_com_equals_frame_change_from_com():
    rng = np.random.default_rng(6)
    for _ in range(100):
        masses, positions = random_body(rng)
        props = point_mass_properties(masses, positions)
        G_c = spatial_inertia(props.mass, props.inertia_com)
        T_ca = transform(np.eye(3), -props.com)  # {a}: origin of the input frame, seen from the COM
        np.testing.assert_allclose(
            transform_spatial_inertia(G_c, T_ca), body_G(masses, positions), rtol=RTOL, atol=ATOL
        )


def test_momentum_and_energy_equal_point_mass_sums():
    rng = np.random.default_rng(7)
    for _ in range(N_TRIALS):
        masses, positions = random_body(rng)
        V = rng.normal(size=6)
        G = body_G(masses, positions)
        P, K = direct_momentum(masses, positions, V)
        np.testing.assert_allclose(spatial_momentum(G, V), P, rtol=RTOL, atol=ATOL)
        np.testing.assert_allclose(kinetic_energy(G, V), K, rtol=RTOL, atol=ATOL)


def test_spatial_inertia_frame_change_equals_point_mass_sums():
    """G_a = Ad^T G_b Ad against G built from the points' coordinates in {a}."""
    rng = np.random.default_rng(8)
    for _ in range(N_TRIALS):
        masses, x_b = random_body(rng)
        T_ba = random_pose(rng)
        T_ab = inverse_transform(T_ba)
        x_a = x_b @ T_ab[:3, :3].T + T_ab[:3, 3]
        np.testing.assert_allclose(
            transform_spatial_inertia(body_G(masses, x_b), T_ba), body_G(masses, x_a), rtol=RTOL, atol=ATOL
        )
        # kinetic energy is frame independent
        V_a = rng.normal(size=6)
        np.testing.assert_allclose(
            kinetic_energy(body_G(masses, x_a), V_a),
            kinetic_energy(body_G(masses, x_b), adjoint(T_ba) @ V_a),
            rtol=RTOL,
        )


def test_wrench_frame_change_equals_sum_of_point_forces():
    rng = np.random.default_rng(9)
    for _ in range(N_TRIALS):
        n = int(rng.integers(1, 6))
        x_b, f_b = rng.normal(size=(2, n, 3))
        T_ba = random_pose(rng)
        R_ab = T_ba[:3, :3].T
        T_ab = inverse_transform(T_ba)
        x_a = x_b @ R_ab.T + T_ab[:3, 3]
        f_a = f_b @ R_ab.T
        F_b = np.concatenate([np.cross(x_b, f_b).sum(0), f_b.sum(0)])
        F_a = np.concatenate([np.cross(x_a, f_a).sum(0), f_a.sum(0)])
        np.testing.assert_allclose(transform_wrench(F_b, T_ba), F_a, rtol=RTOL, atol=ATOL)
        # power F.V is frame independent
        V_a = rng.normal(size=6)
        np.testing.assert_allclose(F_a @ V_a, F_b @ (adjoint(T_ba) @ V_a), rtol=RTOL, atol=ATOL)


def test_steiner_is_the_angular_block_of_a_translated_frame():
    I_c = np.diag([0.01, 0.02, 0.025])
    d = np.array([0.1, -0.2, 0.3])
    G_a = transform_spatial_inertia(spatial_inertia(2.0, I_c), transform(np.eye(3), d))
    np.testing.assert_allclose(G_a[:3, :3], I_c + 2.0 * (d @ d * np.eye(3) - np.outer(d, d)), atol=1e-15)


# --------------------------------------------------------------------------- bad input


def test_bad_inputs_are_rejected():
    with pytest.raises(ShapeError, match="w must have shape"):
        skew([1.0, 2.0])
    with pytest.raises(NonFiniteError, match="NaN"):
        skew([1.0, np.nan, 0.0])
    with pytest.raises(NotARotationError, match="rotation matrix"):
        transform(2.0 * np.eye(3), np.zeros(3))
    with pytest.raises(NotARotationError, match="reflection"):
        transform(np.diag([1.0, 1.0, -1.0]), np.zeros(3))
    bad = np.eye(4)
    bad[3, 0] = 1.0
    with pytest.raises(NotATransformError, match="bottom row"):
        inverse_transform(bad)
    sheared = np.eye(4)
    sheared[0, 1] = 0.5
    with pytest.raises(NotATransformError, match="rotation"):
        adjoint(sheared)
    with pytest.raises(ShapeError, match="V must have shape"):
        ad(np.zeros(3))
    with pytest.raises(NonPositiveMassError, match="mass must be positive"):
        spatial_inertia(0.0, np.eye(3))
    with pytest.raises(NonPositiveMassError, match="mass must be positive"):
        spatial_inertia(-1.0, np.eye(3))
    with pytest.raises(NonSymmetricError, match="symmetric"):
        spatial_inertia(1.0, [[1.0, 0.1, 0], [0, 1.0, 0], [0, 0, 1.0]])
    with pytest.raises(NonPhysicalInertiaError, match="triangle inequality"):
        spatial_inertia(1.0, np.diag([1.0, 1.0, 3.0]))
    with pytest.raises(NonPhysicalInertiaError, match="positive semidefinite"):
        transform_spatial_inertia(-np.eye(6), np.eye(4))
    with pytest.raises(NonSymmetricError, match="G must be symmetric"):
        spatial_momentum(np.triu(np.ones((6, 6))), np.zeros(6))
    with pytest.raises(NonFiniteError, match="V contains NaN"):
        kinetic_energy(np.eye(6), [np.nan] * 6)
    with pytest.raises(ShapeError, match="F_b must have shape"):
        transform_wrench(np.zeros(3), np.eye(4))
