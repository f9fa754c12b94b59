"""Tests for lib.models.fingertip: the two-link finger pressing on a table."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from lib.errors import OutOfRangeError, SingularConstraintError, UnreachableTargetError
from lib.models.fingertip import (
    contact_jacobian,
    contact_torques,
    feasible_force_polygon,
    force_state,
    max_normal_force,
    press_capacity,
    two_link_ik,
    two_link_points,
)


def _random_cases(seed: int, n: int):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        x_tip = rng.uniform(-0.8, 0.8)
        elbow = "up" if rng.uniform() < 0.5 else "down"
        mu = rng.uniform(0.0, 1.5)
        tau_max = rng.uniform(0.2, 3.0)
        yield x_tip, elbow, mu, tau_max


def _enumerate_vertices(jac, mu, tau_max):
    """Independent vertex enumeration: intersect every pair of constraint lines."""
    rows = [np.array([1.0, -mu]), np.array([-1.0, -mu]), np.array([0.0, -1.0]),
            jac[:, 0], jac[:, 1], -jac[:, 0], -jac[:, 1]]
    bounds = [0.0, 0.0, 0.0, tau_max, tau_max, tau_max, tau_max]
    a, b = np.array(rows), np.array(bounds)
    vertices = []
    for i, j in itertools.combinations(range(len(rows)), 2):
        m = np.array([rows[i], rows[j]])
        if abs(np.linalg.det(m)) < 1e-12:
            continue
        p = np.linalg.solve(m, [bounds[i], bounds[j]])
        if np.all(a @ p <= b + 1e-9 * max(1.0, tau_max)):
            vertices.append(p)
    return np.array(vertices)


@pytest.mark.parametrize("elbow", ["up", "down"])
def test_ik_puts_the_tip_on_the_table(elbow):
    for x in np.linspace(-0.85, 0.85, 35):
        pts = two_link_points(two_link_ik(x, elbow))
        # Round-off on 0.5 m links.
        np.testing.assert_allclose(pts[2], [x, 0.0], rtol=0, atol=1e-12)
        np.testing.assert_allclose(np.linalg.norm(pts[1] - pts[0]), 0.5, rtol=1e-12)


def test_elbow_up_is_above_elbow_down():
    for x in np.linspace(-0.8, 0.8, 17):
        up = two_link_points(two_link_ik(x, "up"))[1, 1]
        down = two_link_points(two_link_ik(x, "down"))[1, 1]
        assert up >= down - 1e-12


def test_jacobian_matches_finite_differences():
    rng = np.random.default_rng(1)
    for _ in range(50):
        q = rng.uniform(-np.pi, np.pi, 2)
        h = 1e-6
        numeric = np.column_stack([
            (two_link_points(q + h * e)[2] - two_link_points(q - h * e)[2]) / (2 * h) for e in np.eye(2)
        ])
        # Central differences: error O(h^2) ~ 1e-12 plus round-off / h ~ 1e-10.
        np.testing.assert_allclose(contact_jacobian(q), numeric, rtol=0, atol=1e-8)


def test_torques_do_the_virtual_work_of_the_force():
    rng = np.random.default_rng(2)
    for _ in range(100):
        q, f, dq = rng.normal(size=2), rng.normal(size=2), rng.normal(size=2)
        jac = contact_jacobian(q)
        tau = contact_torques(jac, f)
        # tau . dq = -f . (J dq): the finger does work -f on the table; round-off.
        np.testing.assert_allclose(tau @ dq, -f @ (jac @ dq), rtol=0, atol=1e-12)


def test_polygon_vertices_equal_an_independent_enumeration():
    for x_tip, elbow, mu, tau_max in _random_cases(3, 300):
        jac = contact_jacobian(two_link_ik(x_tip, elbow))
        poly = feasible_force_polygon(jac, mu, tau_max)
        brute = _enumerate_vertices(jac, mu, tau_max)
        # Every clipped vertex is an enumerated one and vice versa (duplicates
        # from three lines through one point collapse); 1e-9 N tolerance.
        for p in poly:
            assert np.min(np.linalg.norm(brute - p, axis=1)) < 1e-9
        for p in brute:
            assert np.min(np.linalg.norm(poly - p, axis=1)) < 1e-9
        np.testing.assert_allclose(poly[0], [0.0, 0.0], atol=1e-12)


def test_lp_optimum_equals_best_enumerated_vertex():
    for x_tip, elbow, mu, tau_max in _random_cases(4, 300):
        jac = contact_jacobian(two_link_ik(x_tip, elbow))
        result = max_normal_force(jac, mu, tau_max)
        brute = _enumerate_vertices(jac, mu, tau_max)
        # HiGHS reaches the vertex to its feasibility tolerance (~1e-9 relative).
        np.testing.assert_allclose(result.normal_force, np.max(brute[:, 1]), rtol=1e-7, atol=1e-9)
        state = force_state(jac, result.force * (1 - 1e-9), mu, tau_max)
        assert state.label == "feasible"
        assert any(result.limiting_joints) or result.cone_active


def test_worked_posture_forearm_vertical():
    # Tip at x = 0.5 with the elbow up: link 1 horizontal, link 2 vertical.
    jac = contact_jacobian(two_link_ik(0.5, "up"))
    np.testing.assert_allclose(jac, [[0.5, 0.5], [0.5, 0.0]], rtol=0, atol=1e-12)
    # Straight down: only the shoulder feels f_n (lever 0.5 m) -> 2 N per N m.
    np.testing.assert_allclose(press_capacity(jac), 2.0, rtol=1e-12)
    # Leaning the force into the cone unloads the shoulder: with mu = 0.5 the LP reaches 4 N.
    result = max_normal_force(jac, 0.5, 1.0)
    np.testing.assert_allclose(result.force, [-2.0, 4.0], rtol=0, atol=1e-8)
    assert result.limiting_joints == (True, True) and result.cone_active


def test_press_capacity_equals_lp_without_friction():
    for x_tip, elbow, _, tau_max in _random_cases(5, 100):
        jac = contact_jacobian(two_link_ik(x_tip, elbow))
        result = max_normal_force(jac, 0.0, tau_max)
        np.testing.assert_allclose(result.normal_force, tau_max * press_capacity(jac), rtol=1e-7)


@pytest.mark.parametrize(
    "force, mu, label, in_cone, over",
    [
        ([0.0, 1.5], 0.5, "feasible", True, (False, False)),
        ([0.0, -0.5], 0.5, "table must pull", False, (False, False)),
        ([1.0, 1.5], 0.5, "outside friction cone; joint 1 over limit", False, (True, False)),
        ([0.9, 1.0], 0.5, "outside friction cone", False, (False, False)),
        ([0.0, 3.0], 0.5, "joint 1 over limit", True, (True, False)),
        ([-2.5, 4.0], 1.0, "joint 2 over limit", True, (False, True)),
        ([-3.0, 7.0], 0.5, "joints 1 and 2 over limit", True, (True, True)),
    ],
)
def test_force_state_labels(force, mu, label, in_cone, over):
    # J of the forearm-vertical posture: tau = -(0.5 (f_t + f_n), 0.5 f_t).
    state = force_state([[0.5, 0.5], [0.5, 0.0]], force, mu, 1.0)
    assert (state.label, state.in_cone, state.over_limit) == (label, in_cone, over)


def test_unreachable_and_singular_postures_raise():
    with pytest.raises(UnreachableTargetError, match="cannot reach"):
        two_link_ik(0.9)
    with pytest.raises(OutOfRangeError, match="elbow"):  # a bad option, not an unreachable target
        two_link_ik(0.3, "sideways")
    stretched = contact_jacobian([0.0, 0.0])
    with pytest.raises(SingularConstraintError, match="singular"):
        feasible_force_polygon(stretched, 0.5, 1.0)
    with pytest.raises(SingularConstraintError, match="unbounded"):
        max_normal_force(contact_jacobian([-np.pi / 2, 0.0]), 0.5, 1.0)
    with pytest.raises(SingularConstraintError, match="unbounded"):
        press_capacity([[1.0, 0.5], [0.0, 0.0]])
