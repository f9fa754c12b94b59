"""Tests for lib.friction: ramp classifier, 2D cone, k-edge pyramids."""

from __future__ import annotations

import numpy as np
import pytest

from lib.common import GRAVITY

from lib.errors import NonFiniteError, NonPositiveMassError, NonPositiveValueError, OutOfRangeError, ShapeError
from lib.friction import (
    cone_state,
    critical_angle,
    pyramid_capacity,
    pyramid_sampled_errors,
    pyramid_worst_errors,
    ramp_state,
    sticking_margin,
)

G = GRAVITY  # lib.common: the book's g


# ---------------------------------------------------------------- the ramp

def test_critical_angle_of_rubber_is_38_7_degrees():
    # Closed form arctan(0.8); 1e-12 rad is round-off.
    np.testing.assert_allclose(critical_angle(0.8), np.arctan(0.8), rtol=0, atol=1e-12)
    np.testing.assert_allclose(np.degrees(critical_angle(0.8)), 38.66, rtol=0, atol=0.005)


@pytest.mark.parametrize("mass", [0.1, 1.0, 10.0, 250.0])
def test_critical_angle_does_not_depend_on_mass(mass):
    crit = critical_angle(0.8)
    # 1e-6 rad either side of the critical angle is far above round-off
    # (~1e-16 relative) and far below any physical angle of interest.
    assert ramp_state(crit - 1e-6, 0.8, 0.6, mass).state == "stick"
    assert ramp_state(crit + 1e-6, 0.8, 0.6, mass).state == "slip"


def test_stick_state_supplies_exactly_the_demand():
    alpha = np.radians(20.0)
    s = ramp_state(alpha, 0.6, 0.5, 2.0)
    assert s.state == "stick" and s.direction == "none"
    # Force balance in closed form; 1e-12 N is round-off on ~20 N.
    np.testing.assert_allclose(s.normal_force, 2.0 * G * np.cos(alpha), rtol=0, atol=1e-12)
    np.testing.assert_allclose(s.friction, 2.0 * G * np.sin(alpha), rtol=0, atol=1e-12)
    assert s.acceleration == 0.0
    np.testing.assert_allclose(s.contact_force, (s.friction, s.normal_force), rtol=0, atol=0)


def test_slip_down_uses_kinetic_friction():
    alpha = np.radians(40.0)
    s = ramp_state(alpha, 0.6, 0.5, 3.0)
    assert (s.state, s.direction) == ("slip", "down")
    # a = -g (sin a - mu_k cos a) along the up-slope axis; round-off tolerance.
    np.testing.assert_allclose(s.acceleration, -G * (np.sin(alpha) - 0.5 * np.cos(alpha)), rtol=0, atol=1e-12)
    np.testing.assert_allclose(s.friction, 0.5 * s.normal_force, rtol=1e-14)


def test_slip_up_when_pushed_hard_up_the_slope():
    s = ramp_state(np.radians(10.0), 0.5, 0.4, 1.0, push=20.0, beta=0.0)
    assert (s.state, s.direction) == ("slip", "up")
    assert s.friction < 0.0 and s.acceleration > 0.0


def test_pressing_into_the_surface_restores_sticking():
    alpha = critical_angle(0.6) + np.radians(5.0)
    assert ramp_state(alpha, 0.6, 0.5, 1.0).state == "slip"
    assert ramp_state(alpha, 0.6, 0.5, 1.0, push=0.5 * G, beta=np.radians(-90.0)).state == "stick"


def test_pulling_away_lifts_off_with_no_friction():
    s = ramp_state(np.radians(20.0), 0.6, 0.5, 1.0, push=2.0 * G, beta=np.radians(60.0))
    assert s.state == "lift-off"
    assert s.normal_force == 0.0 and s.friction == 0.0 and s.capacity == 0.0


def test_classifier_matches_the_sticking_condition_on_random_inputs():
    rng = np.random.default_rng(7)
    for _ in range(2000):
        alpha = rng.uniform(0.0, np.radians(85.0))
        mu_s = rng.uniform(0.0, 1.5)
        mu_k = rng.uniform(0.0, mu_s)
        mass = rng.uniform(0.1, 5.0)
        push = rng.uniform(0.0, 2.0) * mass * G
        beta = rng.uniform(-np.pi / 2, np.pi / 2)
        s = ramp_state(alpha, mu_s, mu_k, mass, push, beta)
        normal = mass * G * np.cos(alpha) - push * np.sin(beta)
        margin = float(sticking_margin(alpha, mu_s, mass, push, beta))
        if normal <= 1e-9:
            assert s.state == "lift-off"
        elif margin > 1e-9:
            assert s.state == "stick"
        elif margin < -1e-9:
            assert s.state == "slip"


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        (dict(alpha=np.pi / 2), OutOfRangeError, "alpha"),
        (dict(alpha=-0.1), OutOfRangeError, "alpha"),
        (dict(mu_s=-0.1), OutOfRangeError, "mu_s"),
        (dict(mu_k=0.9), OutOfRangeError, "mu_k must not exceed mu_s"),
        (dict(mass=0.0), NonPositiveMassError, "mass"),
        (dict(push=-1.0), OutOfRangeError, "push"),
        (dict(beta=2.0), OutOfRangeError, "beta"),
        (dict(alpha=float("nan")), NonFiniteError, "alpha"),
        (dict(alpha=[0.1, 0.2]), ShapeError, "alpha"),
    ],
)
def test_ramp_rejects_bad_input(kwargs, error, match):
    args = dict(alpha=0.3, mu_s=0.6, mu_k=0.5, mass=1.0)
    args.update(kwargs)
    with pytest.raises(error, match=match):
        ramp_state(**args)


# --------------------------------------------------------------- the 2D cone

def test_check_yourself_question_2_friction_saturates_at_2_newtons():
    s = cone_state(3.0, 4.0, 0.5)
    assert s.state == "slip"
    # mu f_n = 2 N supplied, 3 - 2 = 1 N unbalanced; exact in binary floating point.
    np.testing.assert_allclose(s.supplied, (2.0, 4.0), rtol=0, atol=1e-15)
    np.testing.assert_allclose(s.remainder, (1.0, 0.0), rtol=0, atol=1e-15)


def test_cone_states_stick_slip_separate():
    assert cone_state(1.0, 4.0, 0.5).state == "stick"
    assert cone_state(-2.0, 4.0, 0.5).state == "stick"  # exactly on the boundary
    slip = cone_state(-3.0, 4.0, 0.5)
    assert slip.state == "slip"
    np.testing.assert_allclose(slip.supplied, (-2.0, 4.0), rtol=0, atol=1e-15)
    sep = cone_state(1.0, -1.0, 0.5)
    assert sep.state == "separate"
    assert sep.supplied == (0.0, 0.0) and sep.remainder == (1.0, -1.0)


def test_stick_iff_force_angle_within_friction_angle():
    rng = np.random.default_rng(3)
    for _ in range(2000):
        f_t, f_n = rng.uniform(-5, 5), rng.uniform(0.01, 5)
        mu = rng.uniform(0.0, 2.0)
        s = cone_state(f_t, f_n, mu)
        if abs(s.angle - s.friction_angle) > 1e-9:
            assert (s.state == "stick") == (s.angle < s.friction_angle)
        # Supplied + remainder always reproduce the demand (round-off).
        np.testing.assert_allclose(np.add(s.supplied, s.remainder), s.demand, rtol=0, atol=1e-12)


def test_friction_angle_is_arctan_mu_not_mu():
    # mu = 1.5 gives 56.3 deg, not 1.5 rad = 85.9 deg.
    np.testing.assert_allclose(np.degrees(cone_state(0.0, 1.0, 1.5).friction_angle), 56.31, atol=0.005)


def test_cone_rejects_negative_mu():
    with pytest.raises(OutOfRangeError, match="mu must lie"):
        cone_state(0.0, 1.0, -0.2)


# ---------------------------------------------------------------- pyramids

def test_box_is_the_k4_circumscribed_pyramid():
    # The box |f_x|, |f_y| <= mu f_n: along a diagonal it allows sqrt(2) mu.
    _, inner, outer = pyramid_capacity(np.radians([0.0, 45.0, 90.0, 135.0]), 0.7, 4)
    np.testing.assert_allclose(outer, 0.7 * np.array([1.0, np.sqrt(2), 1.0, np.sqrt(2)]), rtol=1e-14)
    np.testing.assert_allclose(inner, 0.7 * np.array([1.0, 1 / np.sqrt(2), 1.0, 1 / np.sqrt(2)]), rtol=1e-14)


def test_pyramid_capacity_brackets_the_round_cone():
    phi = np.random.default_rng(11).uniform(-10, 10, 5000)
    for k in (3, 4, 5, 8, 16, 31):
        cone, inner, outer = pyramid_capacity(phi, 0.9, k)
        # Tolerances are round-off relative to mu.
        assert np.all(inner <= cone + 1e-12) and np.all(cone <= outer + 1e-12)


def test_capacity_equals_the_max_over_all_edges():
    # The routine jumps to the nearest face / edge; the definition maximises
    # over all k of them. Round-off tolerance (relative 1e-13).
    phi = np.random.default_rng(13).uniform(-20, 20, 20000)
    for k in (3, 4, 7, 16, 31):
        theta = 2 * np.pi * np.arange(k) / k
        diff = phi[:, None] - theta
        _, inner, outer = pyramid_capacity(phi, 0.9, k)
        np.testing.assert_allclose(inner, 0.9 * np.cos(np.pi / k) / np.max(np.cos(diff - np.pi / k), axis=1),
                                   rtol=1e-13)
        np.testing.assert_allclose(outer, 0.9 / np.max(np.cos(diff), axis=1), rtol=1e-13)


def test_inscribed_capacity_against_convex_combinations_of_edges():
    # Independent check: points sum(beta_i d_i) with sum(beta) = mu fill the
    # inscribed polygon's boundary; each lies exactly at the capacity radius.
    rng = np.random.default_rng(5)
    k, mu = 6, 0.8
    theta = 2 * np.pi * np.arange(k) / k
    for _ in range(500):
        i = rng.integers(k)
        w = rng.uniform()
        point = mu * (w * np.array([np.cos(theta[i]), np.sin(theta[i])])
                      + (1 - w) * np.array([np.cos(theta[(i + 1) % k]), np.sin(theta[(i + 1) % k])]))
        _, inner, _ = pyramid_capacity(np.arctan2(point[1], point[0]), mu, k)
        np.testing.assert_allclose(inner, np.linalg.norm(point), rtol=1e-12)


def test_check_yourself_question_3_errors():
    under4, over4 = pyramid_worst_errors(4)
    np.testing.assert_allclose(over4, np.sqrt(2) - 1, rtol=1e-14)   # 41 %
    np.testing.assert_allclose(under4, 1 - 1 / np.sqrt(2), rtol=1e-14)  # 29 %
    under8, over8 = pyramid_worst_errors(8)
    under16, over16 = pyramid_worst_errors(16)
    # "about 8 %" and "about 2 %" in the source, to the rounding quoted there.
    assert round(100 * over8) == 8 and round(100 * under8) == 8
    assert round(100 * over16) == 2 and round(100 * under16) == 2


@pytest.mark.parametrize("k", range(3, 33))
def test_sampled_errors_over_7200_directions_match_the_closed_form(k):
    under, over = pyramid_worst_errors(k)
    under_s, over_s = pyramid_sampled_errors(k, 7200)
    # Sampling can only miss the worst direction, never exceed it; the nearest
    # sample lies within h = pi/7200 of it. The inscribed error is smooth at
    # its worst direction (a face midpoint): the shortfall is second order,
    # below h^2 (1 + tan^2(pi/k)) <~ 6e-7. The circumscribed error peaks at a
    # corner, a kink: the shortfall is first order, below
    # h sin(pi/k) / cos^2(pi/k) (the slope of 1/cos there).
    h = np.pi / 7200
    assert under_s <= under + 1e-14 and over_s <= over + 1e-14
    np.testing.assert_allclose(under_s, under, rtol=0, atol=6e-7)
    slope = np.sin(np.pi / k) / np.cos(np.pi / k) ** 2
    np.testing.assert_allclose(over_s, over, rtol=0, atol=1.01 * h * slope + 1e-12)


def test_errors_shrink_like_one_over_k_squared():
    ks = np.array([8, 16, 32, 64])
    under = np.array([pyramid_worst_errors(k)[0] for k in ks])
    # 1 - cos(pi/k) ~ pi^2 / (2 k^2): doubling k divides the error by ~4.
    np.testing.assert_allclose(under[:-1] / under[1:], 4.0, rtol=0.05)


@pytest.mark.parametrize("k, error", [(2, OutOfRangeError), (3.5, ShapeError), (True, ShapeError)])
def test_pyramid_rejects_bad_k(k, error):
    with pytest.raises(error, match="k"):
        pyramid_worst_errors(k)


def test_pyramid_sampling_rejects_zero_directions():
    with pytest.raises(NonPositiveValueError, match="n_directions must be at least 1"):
        pyramid_sampled_errors(4, 0)


# ------------------------------------------- exercise reference solutions

def _load_solutions():
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "solutions" / "contact_and_friction.py"
    spec = importlib.util.spec_from_file_location("cf_solutions", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_exercise_solutions_agree_with_lib():
    """The grader's reference answers (written without lib) against lib itself."""
    from lib import contact_sim
    from lib.models import ball_drop, fingertip

    sol = _load_solutions()
    rng = np.random.default_rng(12)
    # CF.2: the least push holds the block exactly (zero sticking margin), and 1 % less
    # holds it at no push angle (the margin is negative over a fine grid of angles).
    betas = np.linspace(-1.5, 1.5, 3001)
    for _ in range(50):
        mu, mass = rng.uniform(0.1, 1.0), rng.uniform(0.5, 5.0)
        alpha = rng.uniform(np.arctan(mu) + 0.05, 1.4)
        beta, push = sol.least_push(alpha, mu, mass)
        assert abs(float(sticking_margin(alpha, mu, mass, push, beta))) < 1e-9 * mass * G
        assert np.all(sticking_margin(alpha, mu, mass, 0.99 * push, betas) < 0.0)
    # CF.1: below the critical angle the ramp supplies exactly the demand m g sin(alpha).
    state = ramp_state(np.radians(18.0), 0.7, 0.5, 2.5)
    assert state.state == "stick"
    value, unit = sol.ramp_friction.split()
    assert unit == "N" and float(value) == pytest.approx(abs(state.friction), rel=1e-6)
    # CF.4: the best-scaled pyramid, against lib's inscribed pyramid scaled by s and sampled
    # over 7200 directions (multiples of 2 n_d for the n_d below, so corners and face
    # midpoints are sampled exactly: round-off tolerance). The scale is the minimiser (1e-3
    # either way is worse) and one edge fewer misses tol.
    phis = np.linspace(0.0, 2.0 * np.pi, 7200, endpoint=False)

    def worst(k, scale):
        cone, inscribed, _ = pyramid_capacity(phis, 0.7, k)
        return float(np.max(np.abs(scale * inscribed / cone - 1.0)))

    for tol in (0.3, 0.1, 0.05, 0.01):
        k, s = sol.scaled_pyramid(tol)
        k = int(k)
        assert 7200 % (2 * k) == 0, k
        assert worst(k, s) < tol and worst(k, s) < min(worst(k, 0.999 * s), worst(k, 1.001 * s))
        best_fewer = min(worst(k - 1, x) for x in np.linspace(1.0, 1.0 / np.cos(np.pi / (k - 1)), 2001))
        assert best_fewer >= tol
    # CF.7: the depth at lift-off, symbolic answer against the simulated clipped contact: the
    # depth of the first step whose clipped force is zero, over v0 / omega_n (omega_n dt =
    # 1e-4: first-order error of that size).
    (zeta_symbol,) = sol.liftoff_depth.free_symbols
    for zeta in (0.05, 0.3, 0.8):
        a, x, v = 1e-4, 0.0, 1.0        # scaled: omega_n = 1, v0 = 1, dt = a; x is the depth
        while True:
            v -= a * max(0.0, x + 2.0 * zeta * v)
            x += a * v
            if x + 2.0 * zeta * v <= 0.0:
                break
        np.testing.assert_allclose(float(sol.liftoff_depth.subs(zeta_symbol, zeta)), x, rtol=1e-3)
    # CF.8: the debugged simulation's rebound ratio tends to lib's closed form as dt -> 0
    # (first-order method: the gap shrinks with dt).
    gaps = [abs(sol.rebound_ratio(1e4, 0.2, 1.0, 1.0, dt) - contact_sim.effective_restitution_no_tension(0.2))
            for dt in (1e-4, 1e-5)]
    assert gaps[1] < gaps[0] < 5e-3
    # CF.10: the distance a ball bounces before rest, h0 (1 + e^2) / (1 - e^2), against the
    # impulse simulation's path length (the skipped tail of bounces: 2e-3).
    symbols = {str(x): x for x in sol.zeno_distance.free_symbols}
    for h0, e in ((1.5, 0.7), (0.4, 0.5)):
        drop = ball_drop.simulate_impulse_drop(e, 1e-4, h0=h0, t_end=12.0)
        path = float(np.sum(np.abs(np.diff(drop.height))))
        value = float(sol.zeno_distance.subs({symbols["h_0"]: h0, symbols["e"]: e}))
        assert value == pytest.approx(path, rel=2e-3)
    # CF.13: the LP (HiGHS) against lib's vertex enumeration: solver tolerance.
    for x_tip in np.linspace(-0.8, 0.8, 9):
        for elbow in ("up", "down"):
            jac = fingertip.contact_jacobian(fingertip.two_link_ik(x_tip, elbow))
            np.testing.assert_allclose(sol.max_press_force(jac, 0.6, 1.3),
                                       fingertip.max_normal_force(jac, 0.6, 1.3).normal_force, rtol=1e-7)
