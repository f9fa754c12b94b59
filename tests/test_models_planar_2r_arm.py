"""Tests for lib.models.planar_2r_arm: the two-link arm's mass matrix, Jacobian and effective mass."""

from __future__ import annotations

import numpy as np

from lib.contact_lcp import effective_mass
from lib.models.planar_2r_arm import planar_2r_arm


def test_planar_2r_arm_against_independent_computation():
    rng = np.random.default_rng(4)
    lengths, masses = np.array([0.5, 0.4]), np.array([2.0, 1.5])
    for q in rng.uniform(-np.pi, np.pi, size=(30, 2)):
        M, J, tip = planar_2r_arm(q, lengths, masses)
        # Jacobian by central differences of the tip position (1e-7: step 1e-6, O(h^2)).
        eps = 1e-6
        fd = np.column_stack([
            (planar_2r_arm(q + eps * np.eye(2)[i], lengths, masses)[2]
             - planar_2r_arm(q - eps * np.eye(2)[i], lengths, masses)[2]) / (2 * eps)
            for i in range(2)
        ])
        np.testing.assert_allclose(J, fd, atol=1e-8)
        # Mass matrix from the centre-of-mass Jacobians plus rotational inertia.
        q1, q12 = q[0], q[0] + q[1]
        l1, l2 = lengths
        Jc1 = np.array([[-l1 / 2 * np.sin(q1), 0.0], [l1 / 2 * np.cos(q1), 0.0]])
        Jc2 = np.array([[-l1 * np.sin(q1) - l2 / 2 * np.sin(q12), -l2 / 2 * np.sin(q12)],
                        [l1 * np.cos(q1) + l2 / 2 * np.cos(q12), l2 / 2 * np.cos(q12)]])
        Mref = (masses[0] * Jc1.T @ Jc1 + masses[1] * Jc2.T @ Jc2
                + masses[0] * l1**2 / 12 * np.outer([1, 0], [1, 0])
                + masses[1] * l2**2 / 12 * np.outer([1, 1], [1, 1]))
        # 1e-13: the same sums in another order.
        np.testing.assert_allclose(M, Mref, rtol=1e-12, atol=1e-13)


def test_arm_effective_mass_depends_on_direction():
    M, J, tip = planar_2r_arm([0.0, np.radians(10.0)])
    radial = tip / np.linalg.norm(tip)
    tangential = np.array([-radial[1], radial[0]])
    lam_r = effective_mass(M, radial @ J)
    lam_t = effective_mass(M, tangential @ J)
    assert lam_r > 5 * (2.0 + 2.0)  # near the stretched posture, radially: several times the arm's mass
    assert lam_t < 1.0              # tangentially: well under 1 kg
    # Lambda = (n^T Lambda_task^-1 n)^-1 with the task-space inertia J^-T M J^-1 (1e-10: round-off).
    Lambda_task = np.linalg.inv(J @ np.linalg.solve(M, J.T))
    np.testing.assert_allclose(lam_r, 1.0 / (radial @ np.linalg.inv(Lambda_task) @ radial), rtol=1e-10)
