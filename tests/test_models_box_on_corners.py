"""Tests for lib.models.box_on_corners: a box on four corners has unique velocities, not unique forces."""

from __future__ import annotations

import numpy as np
import pytest

from lib.common import GRAVITY as G_ACC
from lib.contact_lcp import delassus
from lib.errors import NonPositiveMassError, OutOfRangeError
from lib.lcp import lcp_residual, lemke, minimum_norm_lcp, projected_gauss_seidel
from lib.models.box_on_corners import box_on_corners


def test_box_corner_forces_nonunique_but_velocity_unique():
    M, N, corners = box_on_corners(2.0, [0.2, 0.1, 0.05], com_offset=[0.05, 0.02])
    A = delassus(M, N)
    h = 1e-3
    v_star = np.array([0, 0, 0, 0, 0, -G_ACC * h])
    b = N @ v_star
    sv = np.linalg.svd(A, compute_uv=False)
    assert sv[-1] < 1e-14 * sv[0]  # rank 3: four contacts, three constrained motions
    solutions = {
        "lemke": lemke(A, b),
        "pgs": projected_gauss_seidel(A, b, tol=1e-13),
        "minimum_norm": minimum_norm_lcp(A, b),
    }
    Minv = np.linalg.inv(M)
    for name, c in solutions.items():
        assert lcp_residual(A, b, c) < 1e-12, name
        # every solution supports the weight and leaves the box at rest (1e-12 m/s)
        np.testing.assert_allclose(c.sum() / h, 2.0 * G_ACC, rtol=1e-9)
        np.testing.assert_allclose(v_star + Minv @ N.T @ c, 0.0, atol=1e-12)
    # ... yet the corner forces differ
    assert np.max(np.abs(solutions["lemke"] - solutions["minimum_norm"])) > 1e-3 * h * 2 * G_ACC
    # the least-norm solution lies in range(N M^-1 N^T) (orthogonal to its null space)
    null = np.linalg.svd(A)[2][-1]
    assert abs(null @ solutions["minimum_norm"]) < 1e-12


def test_box_on_corners_bad_input():
    with pytest.raises(OutOfRangeError, match="above the support"):
        box_on_corners(1.0, [0.2, 0.1, 0.05], com_offset=[0.3, 0.0])
    with pytest.raises(NonPositiveMassError, match="mass"):
        box_on_corners(-1.0, [0.2, 0.1, 0.05])
