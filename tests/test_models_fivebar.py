"""Tests for lib.models.fivebar: the five-bar's actuator torques and singularities."""

from __future__ import annotations

import numpy as np
import pytest

from lib.constraints import multiplier_torques, virtual_work_torques
from lib.errors import ShapeError, SingularConstraintError, UnreachableTargetError
from lib.models.fivebar import (
    FIVEBAR_ACTUATED,
    fivebar_configuration,
    fivebar_constraints,
    fivebar_dynamics,
    fivebar_motion,
)


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
