"""The box-on-ramp scene of chapter 3.12: closed forms, the LCP, penalty and MuJoCo runs."""

from __future__ import annotations

import math

import mujoco  # noqa: F401  (the reference library must be importable)
import numpy as np
import pytest
from scipy.integrate import solve_ivp

from lib import errors
from lib.models import box_on_ramp as br

W, HGT, MASS = 0.2, 0.4, 1.0
V0 = 1.0
SLIDE = br.box_on_ramp(W, HGT, MASS, math.radians(15.0), 0.4)
TIP = br.box_on_ramp(W, HGT, MASS, math.radians(30.0), 0.8)


def _stop_position(run):
    t_stop = br.crossing_time(run.t, run.v[:, 1])
    return float(np.interp(t_stop, run.t, run.q[:, 1]))


@pytest.mark.parametrize("dt", [0.01, 0.005, 0.0025])
def test_lcp_slide_matches_closed_form_with_first_order_error(dt):
    cf = br.slide_closed_form(SLIDE, V0)
    run = br.simulate_lcp(SLIDE, br.resting_state(SLIDE), [0.0, V0, 0.0], dt, 0.25)
    sliding = run.t < cf.stop_time - dt
    # constant contact impulses: the velocity is exact at every sample (round-off)
    np.testing.assert_allclose(run.v[sliding, 1], V0 - cf.deceleration * run.t[sliding],
                               rtol=0, atol=1e-12)
    # the position update uses the end-of-step velocity: short by v0 dt / 2 + O(dt^2);
    # the tolerance a dt^2 shrinks with the step
    err = _stop_position(run) - cf.stop_distance
    assert abs(err + V0 * dt / 2) <= cf.deceleration * dt**2
    # corner loads: closed form while sliding and at rest (round-off of Lemke)
    steps = run.t[1:] < cf.stop_time - 2 * dt
    np.testing.assert_allclose(run.f_n[steps][:, :2], np.tile(cf.loads_sliding, (steps.sum(), 1)),
                               rtol=1e-9)
    np.testing.assert_allclose(run.f_n[-1, :2], cf.loads_at_rest, rtol=1e-9)
    # no rotation, no penetration, at rest after the stop (round-off)
    assert np.max(np.abs(run.q[:, 0])) < 1e-12 and run.penetration < 1e-12
    np.testing.assert_allclose(run.v[-5:], 0.0, atol=1e-12)


def test_lcp_tip_time_converges_at_first_order():
    ref = solve_ivp(lambda t, y: [y[1], float(br.pivot_acceleration(TIP, y[0]))], [0.0, 2.0],
                    [0.0, 0.0], method="DOP853", rtol=1e-12, atol=1e-14,
                    events=lambda t, y: y[0] - math.radians(30.0))
    t30 = float(ref.t_events[0][0])
    errs = []
    for dt in (0.01, 0.005, 0.0025):
        run = br.simulate_lcp(TIP, br.resting_state(TIP), np.zeros(3), dt, 0.56)
        errs.append(abs(br.crossing_time(run.t, run.q[:, 0], math.radians(30.0)) - t30))
    slope = np.polyfit(np.log([0.01, 0.005, 0.0025]), np.log(errs), 1)[0]
    # first order: slope 1 within 0.2 (the event interpolation adds O(dt^2))
    assert abs(slope - 1.0) < 0.2
    assert errs[-1] < 2e-3    # s, at dt = 2.5 ms (measured 1.1 ms)


@pytest.mark.parametrize("offset_deg, tips", [(-1.0, False), (2.0, True)])
def test_tipping_threshold(offset_deg, tips):
    alpha = math.atan(W / HGT) + math.radians(offset_deg)
    box = br.box_on_ramp(W, HGT, MASS, alpha, 1.0)      # mu > tan(alpha): no sliding
    assert br.tip_at_rest(box) is tips
    run = br.simulate_lcp(box, br.resting_state(box), np.zeros(3), 0.01, 0.6)
    if tips:
        # pivot acceleration 1.2 rad/s^2 at the start: well past 1 degree at 0.6 s
        assert run.q[-1, 0] > math.radians(1.0)
    else:
        # rests: no rotation and no slip (round-off)
        assert np.max(np.abs(run.q[:, 0])) < 1e-12
        np.testing.assert_allclose(run.q[-1], run.q[0], atol=1e-12)


def test_tip_while_sliding_is_caught():
    box = br.box_on_ramp(W, HGT, MASS, math.radians(15.0), 0.6)   # mu hgt / w = 1.2
    assert br.tip_while_sliding(box)
    with pytest.raises(errors.OutOfRangeError, match="tips over its leading corner"):
        br.slide_closed_form(box, V0)
    run = br.simulate_lcp(box, br.resting_state(box), [0.0, V0, 0.0], 0.005, 0.1)
    # the box leans back over its leading (uphill) corner: theta < 0
    assert run.q[-1, 0] < -1e-3


def test_closed_forms_against_sympy_free_values():
    cf = br.slide_closed_form(SLIDE, V0)
    g, a = SLIDE.g, SLIDE.alpha
    decel = g * (math.sin(a) + 0.4 * math.cos(a))
    assert cf.deceleration == pytest.approx(decel, rel=1e-15)
    assert cf.stop_distance == pytest.approx(V0**2 / (2 * decel), rel=1e-15)
    # loads sum to m g cos(alpha) in both phases (round-off)
    np.testing.assert_allclose([cf.loads_sliding.sum(), cf.loads_at_rest.sum()],
                               MASS * g * math.cos(a), rtol=1e-14)
    assert br.pivot_inertia(SLIDE) == pytest.approx(MASS * (W**2 + HGT**2) / 3, rel=1e-14)
    # pivot acceleration vanishes at the tipping angle (round-off)
    edge = br.box_on_ramp(W, HGT, MASS, math.atan(W / HGT), 1.0)
    assert abs(float(br.pivot_acceleration(edge))) < 1e-12


def test_penalty_sags_creeps_and_fails_above_its_step_limit():
    cf = br.slide_closed_form(SLIDE, V0)
    limit_normal, _ = br.penalty_step_limit(SLIDE, 2e5, 0.5, 1e-3)
    good = br.simulate_penalty(SLIDE, br.resting_state(SLIDE), [0.0, V0, 0.0], 1e-4, 0.5,
                               2e5, 0.5, 1e-3)
    # stop position within 1 mm of the rigid closed form (measured 0.04 mm)
    assert abs(_stop_position(good) - cf.stop_distance) < 1e-3
    # creep after the stop: v_s tan(alpha) / mu within 5 % (the corners share it)
    x1, x2 = np.interp([0.3, 0.5], good.t, good.q[:, 1])
    np.testing.assert_allclose((x2 - x1) / 0.2, -1e-3 * math.tan(SLIDE.alpha) / 0.4, rtol=0.05)
    bad = br.simulate_penalty(SLIDE, br.resting_state(SLIDE), [0.0, V0, 0.0],
                              1.5 * limit_normal, 0.3, 2e5, 0.5, 1e-3)
    # above the spring limit the box rocks: more than 1 degree of tilt
    assert np.max(np.abs(bad.q[:, 0])) > math.radians(1.0)


def test_mujoco_agrees_with_closed_form():
    cf = br.slide_closed_form(SLIDE, V0)
    run = br.simulate_mujoco(SLIDE, br.resting_state(SLIDE), [0.0, V0, 0.0], 0.0005, 0.3)
    # MuJoCo's soft contact: stop position within 1 mm (measured +0.06 mm at 0.5 ms),
    # penetration below 0.5 mm (measured 0.09 mm), no visible tilt (< 0.1 degree)
    assert abs(_stop_position(run) - cf.stop_distance) < 1e-3
    assert run.penetration < 5e-4
    assert np.max(np.abs(run.q[:, 0])) < math.radians(0.1)
    # corner loads at rest near the closed form within 0.1 N, about 1 % of the weight
    # (measured 0.06 N: the soft corners still settle at 0.3 s)
    np.testing.assert_allclose(run.f_n[-1, :2], cf.loads_at_rest, rtol=0, atol=0.1)
    np.testing.assert_allclose(run.f_n[-1].sum(), MASS * SLIDE.g * math.cos(SLIDE.alpha),
                               rtol=5e-3)  # measured 1.7e-3: still ringing
    tip = br.simulate_mujoco(TIP, br.resting_state(TIP), np.zeros(3), 0.0005, 0.56)
    t_lcp = br.crossing_time(*_tilt(br.simulate_lcp(TIP, br.resting_state(TIP), np.zeros(3),
                                                    0.0025, 0.56)), math.radians(30.0))
    # tipping time within 10 ms of the LCP's (measured 4 ms late against the exact pivot)
    assert abs(br.crossing_time(*_tilt(tip), math.radians(30.0)) - t_lcp) < 0.01


def _tilt(run):
    return run.t, run.q[:, 0]


def test_bad_input_raises():
    with pytest.raises(errors.NonPositiveValueError, match="width"):
        br.box_on_ramp(-0.2, HGT, MASS, 0.2, 0.4)
    with pytest.raises(errors.NonPositiveValueError, match="mass"):
        br.box_on_ramp(W, HGT, 0.0, 0.2, 0.4)
    with pytest.raises(errors.OutOfRangeError, match="alpha"):
        br.box_on_ramp(W, HGT, MASS, math.pi / 2, 0.4)
    with pytest.raises(errors.NonPositiveValueError, match="mu"):
        br.box_on_ramp(W, HGT, MASS, 0.2, -0.1)
    with pytest.raises(errors.NonFiniteError, match="height"):
        br.box_on_ramp(W, float("nan"), MASS, 0.2, 0.4)
    with pytest.raises(errors.ShapeError, match="q"):
        br.corner_positions(SLIDE, [0.0, 0.0])
    with pytest.raises(errors.NonPositiveValueError, match="dt"):
        br.simulate_lcp(SLIDE, br.resting_state(SLIDE), np.zeros(3), 0.0, 0.1)
    with pytest.raises(errors.OutOfRangeError, match="zeta"):
        br.simulate_penalty(SLIDE, br.resting_state(SLIDE), np.zeros(3), 1e-4, 0.1, 2e5, 1.0,
                            1e-3)
    with pytest.raises(errors.NonPositiveValueError, match="v0"):
        br.slide_closed_form(SLIDE, 0.0)
    with pytest.raises(errors.OutOfRangeError, match="never reaches"):
        br.crossing_time([0.0, 1.0], [1.0, 2.0])
    with pytest.raises(errors.OutOfRangeError, match="steps"):
        br.simulate_penalty(SLIDE, br.resting_state(SLIDE), np.zeros(3), 1e-6, 1.0, 2e5, 0.5,
                            1e-3)
