"""Tests for lib.models.ball_drop: the simulated drops against the closed forms of the contact."""

from __future__ import annotations

import math

import numpy as np
import pytest

from lib.common import GRAVITY as G
from lib.contact_sim import (
    critical_omega_dt,
    effective_restitution_no_tension,
    max_penetration,
    step_amplification,
)
from lib.errors import NonPositiveMassError, OutOfRangeError
from lib.models.ball_drop import (
    MAX_STEPS,
    impact_speed,
    impulse_rest_time,
    penalty_bounce_duration,
    simulate_impulse_drop,
    simulate_penalty_bounce,
    simulate_penalty_drop,
)
from lib.soft_contact import kelvin_voigt_restitution


def _pressed_start(k, omega_dt, zeta=0.0, offset=0.1, t_end=5.0):
    """Ball resting pressed into the floor, displaced by offset * sag."""
    omega = math.sqrt(k)
    sag = G / k
    result = simulate_penalty_drop(k, omega_dt / omega, zeta=zeta, h0=-sag * (1.0 + offset), t_end=t_end)
    return result, sag


@pytest.mark.parametrize("omega_dt", [0.5, 1.5, 1.9, 1.98])
def test_persistent_contact_stays_bounded_below_omega_dt_2(omega_dt):
    result, sag = _pressed_start(1e4, omega_dt)
    assert not result.diverged and np.all(result.height < 0.0)
    # Semi-implicit Euler keeps a modified energy: the displacement stays
    # within offset / sqrt(1 - a^2/4) of the equilibrium (plus 1 % slack).
    bound = 0.1 * sag / math.sqrt(1.0 - omega_dt**2 / 4.0) * 1.01
    assert np.max(np.abs(result.height + sag)) <= bound


@pytest.mark.parametrize("omega_dt", [2.02, 2.1, 2.5])
def test_persistent_contact_blows_up_above_omega_dt_2(omega_dt):
    result, sag = _pressed_start(1e4, omega_dt)
    # The oscillation grows until it throws the ball off the floor, far
    # higher than the 0.1 sag it started with (1 sag = 1 mm here).
    assert np.max(result.height) > 100.0 * sag


def test_damping_lowers_the_threshold_as_predicted():
    crit = critical_omega_dt(0.1)
    np.testing.assert_allclose(crit, 2 * (math.sqrt(1.01) - 0.1), rtol=1e-14)
    below, sag = _pressed_start(1e4, crit - 0.03, zeta=0.1)
    above, _ = _pressed_start(1e4, crit + 0.03, zeta=0.1)
    assert np.all(below.height < 0.0)
    assert np.max(above.height) > 100.0 * sag


@pytest.mark.parametrize("omega_dt, first", [(2.1, 20), (2.5, 8)])
def test_growth_per_step_equals_the_spectral_radius(omega_dt, first):
    # Start 1e-12 sag from equilibrium so the contact stays linear (the ball
    # stays pressed) for the ten steps compared.
    result, sag = _pressed_start(1e4, omega_dt, offset=1e-12, t_end=1.0)
    deviation = np.abs(result.height + sag)
    ratios = deviation[first + 1:first + 11] / deviation[first:first + 10]
    assert np.all(result.height[: first + 11] < 0.0)
    # By step `first` the subdominant eigenvalue's share has decayed below
    # 1e-9 (ratio 0.28 and 1/16 per step); 1e-6 relative covers it and the
    # round-off of subtracting the sag.
    np.testing.assert_allclose(ratios, step_amplification(omega_dt), rtol=1e-6)


def test_small_step_drop_conserves_energy_without_damping():
    result = simulate_penalty_drop(1e4, 1e-4, zeta=0.0, t_end=1.5)
    # omega dt = 0.01: the rebound returns to the release height within 1 %.
    np.testing.assert_allclose(result.max_rebound, 1.0, rtol=1e-2)
    assert not result.gained_energy and result.bounces >= 1


def test_large_but_stable_step_still_gains_energy():
    # The limit omega dt < 2 is necessary, not sufficient: with an impact
    # resolved in about two steps the ball can rebound above its start.
    result = simulate_penalty_drop(1e4, 1.8e-2, zeta=0.0, t_end=5.0)
    assert result.omega_dt < 2.0 and result.gained_energy


@pytest.mark.parametrize("zeta", [0.0, 0.05, 0.1, 0.3, 0.6])
def test_restitution_matches_the_closed_forms(zeta):
    # One impact at the usual 4.43 m/s, thrown from just above the floor under
    # weak gravity (g = 1e-3) so the gravity impulse during the ~3 ms contact
    # is negligible; omega dt = 0.005.
    v0 = impact_speed(1.0)
    kwargs = dict(k=1e6, dt=5e-6, zeta=zeta, h0=1e-9, g=1e-3, t_end=0.01, v_start=-v0)
    clipped = simulate_penalty_drop(**kwargs)
    pulling = simulate_penalty_drop(**kwargs, allow_tension=True)
    # Discretisation error O(omega dt) ~ 5e-3 relative.
    np.testing.assert_allclose(clipped.restitution, effective_restitution_no_tension(zeta), rtol=5e-3)
    np.testing.assert_allclose(pulling.restitution, kelvin_voigt_restitution(zeta), rtol=5e-3)


@pytest.mark.parametrize("zeta", [0.0, 0.2, 0.5])
def test_penetration_matches_v0_over_omega(zeta):
    v0 = impact_speed(1.0)
    result = simulate_penalty_drop(1e6, 5e-6, zeta=zeta, h0=1e-9, g=1e-3, t_end=0.01, v_start=-v0)
    # The discrete peak can miss the true one by O(omega dt) = 5e-3 relative.
    np.testing.assert_allclose(result.max_penetration, max_penetration(v0, 1e6, 1.0, zeta), rtol=5e-3)
    if zeta == 0.0:
        np.testing.assert_allclose(max_penetration(v0, 1e6, 1.0), v0 / 1000.0, rtol=1e-15)


def test_penetration_of_the_default_drop_includes_the_sag():
    # Full gravity: the undamped peak is mg/k + sqrt((mg/k)^2 + (v0/omega)^2).
    result = simulate_penalty_drop(1e6, 1e-5, zeta=0.0, t_end=0.5)
    sag, free = G / 1e6, impact_speed(1.0) / 1000.0
    np.testing.assert_allclose(result.max_penetration, sag + math.hypot(sag, free), rtol=1e-2)


def test_penalty_force_is_never_negative_and_only_in_contact():
    result = simulate_penalty_drop(1e4, 1e-3, zeta=0.5, t_end=2.5)
    assert np.all(result.force >= 0.0)
    assert np.all(result.force[result.gap >= 0.0] == 0.0)


@pytest.mark.parametrize("e", [0.0, 0.3, 0.5, 0.8, 0.9])
@pytest.mark.parametrize("dt", [1e-3, 1e-4])
def test_zeno_rest_time_matches_the_geometric_series(e, dt):
    predicted = impulse_rest_time(1.0, e)
    result = simulate_impulse_drop(e, dt, t_end=predicted + 0.5)
    # The simulation stops at an exact impact time once the rebound flight is
    # shorter than two steps; the bounces it skips last 2 v+/(g (1 - e)) <
    # 2 dt / (1 - e) in total.
    # 1e-12 s absorbs round-off in the impact times.
    assert -1e-12 <= predicted - result.rest_time <= 2.0 * dt / (1.0 - e) + 1e-12


def test_zeno_closed_form_against_summed_bounces():
    t0 = math.sqrt(2.0 / G)
    for e in (0.2, 0.8):
        series = t0 + sum(2.0 * t0 * e**n for n in range(1, 400))
        # The 400-term tail is below e^400 ~ 1e-39: round-off only.
        np.testing.assert_allclose(impulse_rest_time(1.0, e), series, rtol=1e-13)


def test_impulse_first_rebound_height_is_e_squared():
    result = simulate_impulse_drop(0.8, 1e-5, t_end=1.4)
    # Exact ballistic flight; the apex is sampled every 1e-5 s, so its height
    # is missed by at most g dt^2 / 8 ~ 1e-10 m.
    np.testing.assert_allclose(result.max_rebound, 0.64, rtol=0, atol=1e-9)
    np.testing.assert_allclose(result.restitution, 0.8, rtol=1e-12)


def test_impulse_force_acts_only_at_zero_gap():
    result = simulate_impulse_drop(0.7, 1e-3, t_end=4.0)
    assert np.all(result.gap[result.force > 0.0] == 0.0)
    assert np.all(result.force >= 0.0) and np.all(result.height >= -1e-12)
    # At rest the floor carries the weight.
    np.testing.assert_allclose(result.force[-1], G, rtol=1e-15)


def test_impulse_with_e_equal_one_never_rests():
    assert math.isinf(simulate_impulse_drop(1.0, 1e-3, t_end=3.0).rest_time)


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: impulse_rest_time(1.0, 1.0), OutOfRangeError, "e must lie"),
        (lambda: simulate_penalty_drop(0.0, 1e-3), NonPositiveMassError, "k"),
        (lambda: simulate_penalty_drop(1e4, -1e-3), NonPositiveMassError, "dt"),
        (lambda: simulate_penalty_drop(1e4, 1e-9, t_end=10.0), OutOfRangeError, "steps"),
        (lambda: simulate_penalty_drop(1e4, 1e-3, t_end=(MAX_STEPS + 1) * 1e-3), OutOfRangeError,
         "at most MAX_STEPS = 2,000,000 steps, got 2,000,001"),
        (lambda: simulate_penalty_bounce(1e-2, 1e-4), OutOfRangeError, "MAX_STEPS"),
        (lambda: penalty_bounce_duration(1e4, mass=0.0), NonPositiveMassError, "mass"),
        (lambda: simulate_impulse_drop(1.2, 1e-3), OutOfRangeError, "e must lie"),
        (lambda: impact_speed(0.0), NonPositiveMassError, "h0"),
    ],
)
def test_bad_inputs_raise(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_bounce_duration_is_the_fall_plus_twenty_contact_time_constants():
    k, mass, h0 = 4e4, 0.25, 0.8
    fall = math.sqrt(2.0 * h0 / G)   # from h0 = g t^2 / 2
    expected = fall + 20.0 / math.sqrt(k / mass) + 0.01
    # Two evaluations of the same closed form: round-off only.
    np.testing.assert_allclose(penalty_bounce_duration(k, mass, h0), expected, rtol=1e-14)


@pytest.mark.parametrize("zeta", [0.0, 0.5, 0.9, 0.97])
def test_bounce_run_holds_the_whole_first_contact(zeta):
    """The bounce run is the drop over penalty_bounce_duration, and that covers the contact:
    it lasts about half a damped period or less, under 20 / omega_n while zeta < 0.98."""
    k, mass, h0, dt = 1e4, 1.0, 1.0, 1e-4
    bounce = simulate_penalty_bounce(k, dt, zeta, mass=mass, h0=h0)
    drop = simulate_penalty_drop(k, dt, zeta, mass=mass, h0=h0, t_end=penalty_bounce_duration(k, mass, h0))
    np.testing.assert_array_equal(bounce.height, drop.height)  # the same run, bit for bit
    assert bounce.bounces == 1 and bounce.restitution > 0.0
    inside = np.flatnonzero(bounce.height[:-1] < 0.0)
    gaps = np.flatnonzero(np.diff(inside) > 1)   # a second, small contact may follow
    last = inside[gaps[0]] if gaps.size else inside[-1]
    contact = (last + 1 - inside[0]) * dt
    omega_n = math.sqrt(k / mass)
    half_period = math.pi / (omega_n * math.sqrt(1.0 - zeta**2))
    # The clipped force lets go early when damped; undamped, the sag m g / k lengthens the
    # contact by 1.5 % here: 5 % slack.
    assert contact <= 1.05 * half_period and half_period < 20.0 / omega_n


def test_the_live_figure_refuses_at_the_same_step_cap():
    from lib.figures.spec import JS_DIR

    source = (JS_DIR / "ball_drop.js").read_text(encoding="utf-8")
    assert f"steps > {MAX_STEPS}" in source
