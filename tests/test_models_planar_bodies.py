"""Tests for lib.models.planar_bodies: planar pin joints and uniform rods in maximal coordinates."""

from __future__ import annotations

import numpy as np
import pytest

from lib.errors import NonFiniteError, NonPositiveMassError, NonSymmetricError, ShapeError
from lib.models.planar_bodies import PinJoint, mechanical_energy, planar_pin_joints, rod_mass_matrix
from lib.models.planar_chain import pen_on_line


RNG_SEED = 20261202


def test_pin_joint_jacobian_and_gamma_by_finite_differences():
    rng = np.random.default_rng(RNG_SEED + 5)
    joints = [
        PinJoint(0, (-0.2, 0.05), None, (0.1, -0.3)),
        PinJoint(0, (0.3, 0.0), 1, (-0.25, 0.1)),
    ]
    q, qd = rng.normal(size=6), rng.normal(size=6)
    Phi, J, gamma = planar_pin_joints(q, qd, joints)
    eps = 1e-6
    J_fd = np.column_stack(
        [(planar_pin_joints(q + eps * e, qd, joints)[0] - planar_pin_joints(q - eps * e, qd, joints)[0]) / (2 * eps) for e in np.eye(6)]
    )
    # Central differences: error O(eps^2) = 1e-12 times O(1) second derivatives.
    np.testing.assert_allclose(J, J_fd, atol=1e-9)
    # gamma = -Jdot qd: differentiate J qd along the motion q(t) = q + t qd.
    Jdot_qd = (planar_pin_joints(q + eps * qd, qd, joints)[1] - planar_pin_joints(q - eps * qd, qd, joints)[1]) @ qd / (2 * eps)
    np.testing.assert_allclose(gamma, -Jdot_qd, atol=1e-8)


def test_pin_joint_of_body_to_ground_closed_form():
    Phi, J, gamma = planar_pin_joints([0.5, 0.0, 0.0], [0.0, 1.0, 2.0], [PinJoint(0, (-0.5, 0.0), None, (0.0, 0.0))])
    np.testing.assert_allclose(Phi, [0.0, 0.0], atol=1e-16)
    np.testing.assert_allclose(J, [[1.0, 0.0, 0.0], [0.0, 1.0, -0.5]], atol=1e-16)
    # gamma = R r phid^2 = (-0.5, 0) * 4
    np.testing.assert_allclose(gamma, [-2.0, 0.0], atol=1e-15)


def test_planar_pin_joints_bad_shapes():
    with pytest.raises(ShapeError, match="multiple of 3"):
        planar_pin_joints([0.0, 0.0], [0.0, 0.0], [PinJoint(0, (0, 0), None, (0, 0))])
    with pytest.raises(ShapeError, match="ground to the ground"):
        planar_pin_joints(np.zeros(3), np.zeros(3), [PinJoint(None, (0, 0), None, (0, 0))])
    with pytest.raises(ShapeError, match="body index"):
        planar_pin_joints(np.zeros(3), np.zeros(3), [PinJoint(1, (0, 0), None, (0, 0))])


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
