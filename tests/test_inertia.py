"""Tests of lib.inertia: closed forms, meshes, Steiner, rotation, consistency."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial.transform import Rotation

from lib.errors import (
    MeshOrientationError,
    NonFiniteError,
    NonPhysicalInertiaError,
    NonPositiveMassError,
    NonSymmetricError,
    NotARotationError,
    ShapeError,
)
from lib.inertia import (
    MassProperties,
    box_inertia,
    box_mesh,
    check_physical_inertia,
    combine_bodies,
    cylinder_inertia,
    ellipsoid_inertia,
    inertia_about_com,
    is_physically_consistent,
    mesh_mass_properties,
    parallel_axis,
    point_mass_inertia,
    point_mass_properties,
    principal_axes,
    prism_mesh,
    pseudo_inertia,
    rotate_inertia,
    second_moment_from_inertia,
    six_point_masses,
    sphere_inertia,
    triangle_inequality_margins,
)

N_TRIALS = 300
# Sums of ~10-40 products of O(1) numbers: round-off ~1e-15 relative; 1e-12
# keeps three orders of margin and still catches any wrong term (O(1) errors).
RTOL = 1e-12
ATOL = 1e-12


def random_body(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    n = int(rng.integers(3, 12))
    return rng.uniform(0.1, 2.0, n), rng.normal(scale=0.5, size=(n, 3))


# --------------------------------------------------------------------------- closed forms


def test_closed_forms_match_textbook_values():
    # exact binary fractions: compare to a few ulps
    np.testing.assert_allclose(box_inertia(12.0, [1.0, 2.0, 3.0]), np.diag([13.0, 10.0, 5.0]), rtol=1e-15)
    np.testing.assert_allclose(cylinder_inertia(12.0, 1.0, 2.0), np.diag([7.0, 7.0, 6.0]), rtol=1e-15)
    np.testing.assert_allclose(sphere_inertia(5.0, 2.0), 8.0 * np.eye(3), rtol=1e-15)
    np.testing.assert_allclose(ellipsoid_inertia(5.0, [1.0, 2.0, 3.0]), np.diag([13.0, 10.0, 5.0]), rtol=1e-15)
    # an ellipsoid with equal semi-axes is a sphere
    np.testing.assert_allclose(ellipsoid_inertia(3.0, [0.7] * 3), sphere_inertia(3.0, 0.7), rtol=1e-15)


def test_box_mesh_equals_closed_form():
    rng = np.random.default_rng(10)
    for _ in range(20):
        size = rng.uniform(0.1, 2.0, 3)
        density = rng.uniform(100.0, 8000.0)
        body = mesh_mass_properties(*box_mesh(size), density=density)
        mass = density * np.prod(size)
        # 12 exact planar faces: only round-off remains (~1e-16 relative)
        np.testing.assert_allclose(body.mass, mass, rtol=1e-14)
        np.testing.assert_allclose(body.com, np.zeros(3), atol=1e-15 * np.max(size))
        np.testing.assert_allclose(body.inertia_com, box_inertia(mass, size), rtol=1e-14, atol=1e-15 * mass * np.max(size) ** 2)


def test_mesh_result_does_not_depend_on_placement():
    vertices, faces = box_mesh([0.3, 0.5, 0.7])
    R = Rotation.from_euler("xyz", [0.3, -0.5, 1.1]).as_matrix()
    offset = np.array([10.0, -20.0, 5.0])
    moved = mesh_mass_properties(vertices @ R.T + offset, faces, density=2.0)
    # 10 m offset against 0.5 m size: the mean-vertex shift keeps round-off ~1e-15
    np.testing.assert_allclose(moved.com, offset, rtol=1e-14)
    np.testing.assert_allclose(moved.inertia_com, R @ box_inertia(moved.mass, [0.3, 0.5, 0.7]) @ R.T, atol=1e-15)


@pytest.mark.parametrize("n, expected", [(8, 9.97e-2), (256, 1.00e-4)])
def test_prism_mass_error_is_polygon_area_ratio(n, expected):
    r, h, rho = 0.05, 0.2, 7800.0
    body = mesh_mass_properties(*prism_mesh(r, h, n), density=rho)
    error = 1.0 - body.mass / (rho * np.pi * r * r * h)
    formula = 1.0 - n / (2.0 * np.pi) * np.sin(2.0 * np.pi / n)
    # the closed form is exact; only round-off of the sum over 4n triangles (~1e-16 * n)
    # relative to the error itself (1e-4 at n=256) remains
    np.testing.assert_allclose(error, formula, rtol=1e-9)
    assert float(f"{error:.2e}") == expected  # the book's rounded figure


def test_prism_inertia_converges_to_cylinder_at_second_order():
    r, h = 0.05, 0.2
    cyl = cylinder_inertia(1.0, r, h)[2, 2]
    errors = []
    for n in (32, 64, 128, 256):
        body = mesh_mass_properties(*prism_mesh(r, h, n), density=1.0 / (np.pi * r * r * h))
        errors.append(abs(body.inertia_com[2, 2] - cyl) / cyl)
        # products of inertia vanish by symmetry (round-off only)
        np.testing.assert_allclose(body.inertia_com - np.diag(np.diag(body.inertia_com)), 0.0, atol=1e-18)
    ratios = np.array(errors[:-1]) / np.array(errors[1:])
    # O(n^-2): halving the angle divides the error by 4 (+ O(n^-2) corrections, < 0.5 % here)
    np.testing.assert_allclose(ratios, 4.0, rtol=5e-3)


# --------------------------------------------------------------------------- point masses and identities


def test_point_mass_properties_against_definitions():
    rng = np.random.default_rng(11)
    for _ in range(N_TRIALS):
        m, p = random_body(rng)
        body = point_mass_properties(m, p)
        c = np.sum(m[:, None] * p, axis=0) / m.sum()
        explicit = np.zeros((3, 3))
        for mi, ri in zip(m, p - c):
            explicit += mi * np.array(
                [
                    [ri[1] ** 2 + ri[2] ** 2, -ri[0] * ri[1], -ri[0] * ri[2]],
                    [-ri[0] * ri[1], ri[0] ** 2 + ri[2] ** 2, -ri[1] * ri[2]],
                    [-ri[0] * ri[2], -ri[1] * ri[2], ri[0] ** 2 + ri[1] ** 2],
                ]
            )
        np.testing.assert_allclose(body.mass, m.sum(), rtol=1e-15)
        np.testing.assert_allclose(body.com, c, rtol=RTOL, atol=ATOL)
        np.testing.assert_allclose(body.inertia_com, explicit, rtol=RTOL, atol=ATOL)


def test_steiner_rotation_and_composite_equal_point_mass_sums():
    rng = np.random.default_rng(12)
    for _ in range(N_TRIALS):
        m, p = random_body(rng)
        body = point_mass_properties(m, p)
        point = rng.normal(size=3)
        direct = point_mass_inertia(m, p, about=point)
        np.testing.assert_allclose(parallel_axis(body.inertia_com, body.mass, body.com - point), direct, rtol=RTOL, atol=ATOL)
        np.testing.assert_allclose(body.inertia_about(point), direct, rtol=RTOL, atol=ATOL)
        np.testing.assert_allclose(inertia_about_com(direct, body.mass, body.com - point), body.inertia_com, rtol=1e-10, atol=1e-12)
        # rotation: inertia of the rotated points about their (rotated) COM
        R = Rotation.random(random_state=rng).as_matrix()
        rotated = point_mass_properties(m, p @ R.T)
        np.testing.assert_allclose(rotate_inertia(body.inertia_com, R), rotated.inertia_com, rtol=RTOL, atol=ATOL)
        # composite: split the points in two parts
        k = int(rng.integers(1, len(m)))
        whole = combine_bodies([point_mass_properties(m[:k], p[:k]), point_mass_properties(m[k:], p[k:])])
        np.testing.assert_allclose(whole.mass, body.mass, rtol=1e-15)
        np.testing.assert_allclose(whole.com, body.com, rtol=RTOL, atol=ATOL)
        np.testing.assert_allclose(whole.inertia_com, body.inertia_com, rtol=RTOL, atol=ATOL)


def test_principal_axes_diagonalise_and_are_right_handed():
    rng = np.random.default_rng(13)
    for _ in range(100):
        body = point_mass_properties(*random_body(rng))
        moments, R = principal_axes(body.inertia_com)
        assert np.all(np.diff(moments) >= 0.0)
        np.testing.assert_allclose(np.linalg.det(R), 1.0, rtol=1e-14)
        np.testing.assert_allclose(R @ np.diag(moments) @ R.T, body.inertia_com, rtol=RTOL, atol=ATOL)


# --------------------------------------------------------------------------- consistency


def test_random_point_mass_bodies_satisfy_triangle_inequality():
    rng = np.random.default_rng(14)
    smallest = np.inf
    for _ in range(2000):
        n = int(rng.integers(2, 10))
        m = rng.uniform(0.1, 2.0, n)
        p = rng.normal(size=(n, 3))
        I = point_mass_properties(m, p).inertia_com
        margins = triangle_inequality_margins(I)
        # a margin can only be negative by round-off: tolerance 1e-12 tr(I)
        assert margins.min() >= -1e-12 * np.trace(I)
        assert is_physically_consistent(I)
        smallest = min(smallest, margins.min() / np.trace(I))
    assert smallest < 1e-2  # near-planar bodies approach the boundary I_zz = I_xx + I_yy


def test_random_diagonal_inertias_often_violate_triangle_inequality():
    rng = np.random.default_rng(15)
    moments = rng.uniform(0.1, 1.0, size=(20000, 3))
    physical = np.array([is_physically_consistent(np.diag(d)) for d in moments])
    sorted_ = np.sort(moments, axis=1)
    # the lib check agrees with the direct test on every sample (ties have probability 0)
    np.testing.assert_array_equal(physical, sorted_[:, 0] + sorted_[:, 1] >= sorted_[:, 2])
    # the source reports 65.0 %; the binomial standard error at n = 20000 is 0.34 %
    assert 0.63 < physical.mean() < 0.67


def test_second_moment_eigenvalues_are_half_the_margins():
    rng = np.random.default_rng(16)
    for _ in range(N_TRIALS):
        m, p = random_body(rng)
        body = point_mass_properties(m, p)
        sigma = second_moment_from_inertia(body.inertia_com)
        r = p - body.com
        np.testing.assert_allclose(sigma, np.einsum("i,ij,ik->jk", m, r, r), rtol=RTOL, atol=ATOL)
        np.testing.assert_allclose(
            np.sort(np.linalg.eigvalsh(sigma)), np.sort(triangle_inequality_margins(body.inertia_com)) / 2.0,
            rtol=1e-10, atol=1e-13,
        )


def test_six_point_masses_reproduce_moments():
    rng = np.random.default_rng(17)
    for _ in range(N_TRIALS):
        mass = rng.uniform(0.1, 10.0)
        moments = point_mass_properties(*random_body(rng)).inertia_com.diagonal()
        masses, positions = six_point_masses(mass, moments)
        body = point_mass_properties(masses, positions)
        # closed-form construction: round-off only
        np.testing.assert_allclose(body.mass, mass, rtol=1e-14)
        np.testing.assert_allclose(body.com, 0.0, atol=1e-15)
        np.testing.assert_allclose(body.inertia_com, np.diag(moments), rtol=1e-13, atol=1e-15)
    with pytest.raises(NonPhysicalInertiaError, match="triangle inequality"):
        six_point_masses(1.0, [1.0, 1.0, 3.0])
    with pytest.raises(NonPhysicalInertiaError, match="all zero"):
        six_point_masses(1.0, [0.0, 0.0, 0.0])


def test_diag_113_is_positive_definite_but_not_physical():
    I = np.diag([1.0, 1.0, 3.0])
    assert np.all(np.linalg.eigvalsh(I) > 0)
    assert not is_physically_consistent(I)
    with pytest.raises(NonPhysicalInertiaError, match=r"I_1 \+ I_2 >= I_3"):
        check_physical_inertia(I)
    # its pseudo-inertia is indefinite: Sigma = diag(1.5, 1.5, -0.5)
    J = pseudo_inertia(1.0, np.zeros(3), I)
    np.testing.assert_allclose(np.linalg.eigvalsh(J).min(), -0.5, rtol=1e-15)
    with pytest.raises(NonPhysicalInertiaError, match="positive semidefinite"):
        check_physical_inertia(np.diag([-1.0, 2.0, 2.0]))


def test_pseudo_inertia_is_the_homogeneous_second_moment():
    rng = np.random.default_rng(18)
    for _ in range(N_TRIALS):
        m, p = random_body(rng)
        body = point_mass_properties(m, p)
        ph = np.column_stack([p, np.ones(len(m))])
        direct = np.einsum("i,ij,ik->jk", m, ph, ph)
        J = pseudo_inertia(body.mass, body.com, body.inertia_com)
        np.testing.assert_allclose(J, direct, rtol=RTOL, atol=ATOL)
        assert np.linalg.eigvalsh(J).min() >= -1e-12 * np.trace(J)


def test_mass_properties_is_frozen_and_read_only():
    body = MassProperties(1.0, [0.0, 0.0, 0.0], np.eye(3))
    with pytest.raises(AttributeError):
        body.mass = 2.0  # type: ignore[misc]
    with pytest.raises(ValueError):
        body.com[0] = 1.0


# --------------------------------------------------------------------------- bad input


def test_mesh_errors():
    vertices, faces = box_mesh([1.0, 2.0, 3.0])
    with pytest.raises(MeshOrientationError, match="inward"):
        mesh_mass_properties(vertices, faces[:, ::-1])
    with pytest.raises(MeshOrientationError, match="open"):
        mesh_mass_properties(vertices, faces[1:])
    flipped = faces.copy()
    flipped[3] = flipped[3, ::-1]
    with pytest.raises(MeshOrientationError, match="inconsistently oriented"):
        mesh_mass_properties(vertices, flipped)
    degenerate = faces.copy()
    degenerate[0, 1] = degenerate[0, 0]
    with pytest.raises(MeshOrientationError, match="repeats a vertex"):
        mesh_mass_properties(vertices, degenerate)
    flat = vertices.copy()
    flat[:, 2] = 0.0
    with pytest.raises(MeshOrientationError, match="no volume"):
        mesh_mass_properties(flat, faces)
    with pytest.raises(MeshOrientationError, match="at least 4 faces"):
        mesh_mass_properties(vertices, faces[:2])
    with pytest.raises(ShapeError, match="only 8 vertices"):
        mesh_mass_properties(vertices, faces + 1)
    with pytest.raises(ShapeError, match="integer"):
        mesh_mass_properties(vertices, faces + 0.5)
    with pytest.raises(ShapeError, match=r"faces must have shape \(k, 3\)"):
        mesh_mass_properties(vertices, faces[:, :2])
    with pytest.raises(NonFiniteError, match="vertices contains NaN"):
        mesh_mass_properties(np.where(vertices == vertices[0], np.nan, vertices), faces)
    with pytest.raises(NonPositiveMassError, match="density must be positive"):
        mesh_mass_properties(vertices, faces, density=-1.0)
    with pytest.raises(ShapeError, match="n_sides"):
        prism_mesh(1.0, 1.0, 2)
    with pytest.raises(ShapeError, match="n_sides"):
        prism_mesh(1.0, 1.0, 8.0)  # type: ignore[arg-type]


def test_bad_closed_form_and_point_mass_inputs():
    with pytest.raises(NonPositiveMassError, match="mass must be positive"):
        box_inertia(0.0, [1.0, 1.0, 1.0])
    with pytest.raises(NonPositiveMassError, match="size must be positive"):
        box_inertia(1.0, [1.0, -1.0, 1.0])
    with pytest.raises(ShapeError, match=r"size must have shape \(3,\)"):
        box_inertia(1.0, [1.0, 1.0])
    with pytest.raises(NonPositiveMassError, match="radius must be positive"):
        cylinder_inertia(1.0, 0.0, 1.0)
    with pytest.raises(NonFiniteError, match="height must be finite"):
        cylinder_inertia(1.0, 1.0, np.inf)
    with pytest.raises(NonPositiveMassError, match="radius must be positive"):
        sphere_inertia(1.0, -2.0)
    with pytest.raises(NonFiniteError, match="mass must be finite"):
        ellipsoid_inertia(np.nan, [1.0, 1.0, 1.0])
    with pytest.raises(NonPositiveMassError, match="non-negative"):
        point_mass_properties([1.0, -1.0], np.zeros((2, 3)))
    with pytest.raises(NonPositiveMassError, match="total of masses"):
        point_mass_properties([0.0, 0.0], np.zeros((2, 3)))
    with pytest.raises(ShapeError, match="one row per mass"):
        point_mass_inertia([1.0, 1.0], np.zeros((3, 3)))
    with pytest.raises(NonSymmetricError, match="symmetric"):
        parallel_axis([[1.0, 0.5, 0], [0, 1.0, 0], [0, 0, 1.0]], 1.0, np.zeros(3))
    with pytest.raises(NonPhysicalInertiaError, match="triangle inequality"):
        parallel_axis(np.diag([1.0, 1.0, 3.0]), 1.0, np.zeros(3))
    with pytest.raises(NonPhysicalInertiaError, match="inconsistent"):
        inertia_about_com(np.diag([0.01, 0.01, 0.01]), 10.0, [1.0, 0.0, 0.0])
    with pytest.raises(NotARotationError, match="rotation matrix"):
        rotate_inertia(np.eye(3), np.ones((3, 3)))
    with pytest.raises(ShapeError, match="empty"):
        combine_bodies([])
    with pytest.raises(ShapeError, match="MassProperties"):
        combine_bodies([np.eye(3)])  # type: ignore[list-item]
    with pytest.raises(NonPositiveMassError, match="mass must be positive"):
        MassProperties(0.0, np.zeros(3), np.eye(3))
    with pytest.raises(NonPhysicalInertiaError, match="inertia_com"):
        MassProperties(1.0, np.zeros(3), np.diag([1.0, 1.0, 3.0]))
    with pytest.raises(NonSymmetricError, match="symmetric"):
        principal_axes(np.triu(np.ones((3, 3))))
    with pytest.raises(ShapeError, match=r"inertia must have shape \(3, 3\)"):
        triangle_inequality_margins(np.eye(2))
    with pytest.raises(NonPositiveMassError, match="mass must be positive"):
        pseudo_inertia(0.0, np.zeros(3), np.eye(3))


def test_non_symmetric_messages_name_the_likely_cause():
    from lib.errors import NonSymmetricError
    from lib.lcp import projected_gauss_seidel

    with pytest.raises(NonSymmetricError, match="products of inertia"):
        rotate_inertia(np.array([[1.0, 0.2, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]), np.eye(3))
    with pytest.raises(NonSymmetricError, match="J M\\^-1 J\\^T"):
        projected_gauss_seidel(np.array([[2.0, 1.0], [0.0, 2.0]]), -np.ones(2))
