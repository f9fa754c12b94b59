"""Tests for lib.models.fourbar: the four-bar in maximal and independent coordinates."""

from __future__ import annotations

import numpy as np
import pytest

from lib.constraints import kkt_solve, simulate_constrained
from lib.errors import NonPositiveMassError, ShapeError, UnreachableTargetError
from lib.models.fourbar import (
    fourbar_configuration,
    fourbar_constraints,
    fourbar_dynamics,
    fourbar_independent_acceleration,
    fourbar_state,
)
from lib.models.planar_bodies import mechanical_energy


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
