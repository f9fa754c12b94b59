"""Tests for lib.models.stewart_gough: leg forces of the Stewart-Gough platform."""

from __future__ import annotations

import numpy as np
import pytest

from lib.errors import NonPositiveMassError, NotARotationError, ShapeError, SingularConstraintError
from lib.models.stewart_gough import stewart_geometry, stewart_leg_forces, stewart_wrench_matrix


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
