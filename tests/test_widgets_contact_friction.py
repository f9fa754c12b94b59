"""Drive the five interactive figures of "Contact and friction" from code.

Each test sets control values the way a reader would (``control.value = ...``
fires the widget's observer and so its update callback) and checks the state
label, the readout and that the picture was redrawn.
"""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

from lib import contact_sim, friction  # noqa: E402
from lib.models import ball_drop, fingertip  # noqa: E402
from lib.errors import UnreachableTargetError  # noqa: E402
from lib.widgets import contact_friction as cf  # noqa: E402


def _set(widget, **values):
    """Set controls one by one, as a reader would, and return the new image bytes."""
    for name, value in values.items():
        widget.controls[name].value = value
    return widget.image.value


# --------------------------------------------------------------------- FIG 1

def test_ramp_widget_walks_through_stick_slip_and_lift_off():
    w = cf.ramp_widget(mu_s=0.8, mu_k=0.6)
    assert w.state_text == "STICK"
    assert "38.7 deg" in w.readout.value  # arctan(0.8) in the readout
    crit = math.degrees(math.atan(0.8))
    before = w.image.value
    _set(w, alpha_deg=round(crit - 0.5, 1))
    assert w.state_text == "STICK" and w.image.value != before
    _set(w, alpha_deg=round(crit + 1.0, 1))
    assert w.state_text == "SLIP (down the slope)"
    # The mass changes newtons, not the state (critical angle independent of mass).
    _set(w, mass=9.0)
    assert w.state_text == "SLIP (down the slope)"
    _set(w, alpha_deg=round(crit - 0.5, 1))
    assert w.state_text == "STICK"
    # Tilt well past the limit, then press into the surface to stick again.
    _set(w, alpha_deg=round(crit + 4.0, 1))
    assert w.state_text.startswith("SLIP")
    _set(w, beta_deg=-90.0, push=0.5)
    assert w.state_text == "STICK"
    # Pull away from the surface until the normal force vanishes.
    _set(w, beta_deg=80.0, push=1.0)
    assert w.state_text == "LIFT-OFF"
    assert "0.00 N" in w.readout.value  # no normal force, no friction


def test_ramp_widget_reports_bad_friction_pair_instead_of_crashing():
    w = cf.ramp_widget(mu_s=0.5, mu_k=0.4)
    _set(w, mu_k=0.7)
    assert w.state_text.startswith("not allowed") and "mu_k must not exceed mu_s" in w.state_text
    assert w.data is None
    _set(w, mu_k=0.3)
    assert w.state_text == "STICK"


def test_ramp_data_equals_lib():
    d = cf.ramp_data(alpha_deg=35.0, mu_s=0.6, mu_k=0.5, mass=2.0, push=0.3, beta_deg=-20.0)
    s = friction.ramp_state(math.radians(35.0), 0.6, 0.5, 2.0, 0.3 * 2.0 * 9.81, math.radians(-20.0))
    assert d["state"] == s.state
    # Same computation; exact equality expected.
    assert d["normal_force"] == s.normal_force and d["friction"] == s.friction


# --------------------------------------------------------------------- FIG 2

def test_cone_widget_stick_slip_separate_and_the_remainder():
    w = cf.cone2d_widget(f_t=1.0, f_n=3.0, mu=0.5)
    assert w.state_text == "STICK"
    _set(w, f_t=3.0, f_n=4.0)
    assert w.state_text == "SLIP"
    # Check-yourself question 2: 2 N supplied, 1 N unbalanced.
    assert "(2.00, 4.00) N" in w.readout.value and "(1.00, 0.00) N" in w.readout.value
    np.testing.assert_allclose(w.data["supplied"], (2.0, 4.0), atol=1e-12)
    _set(w, f_n=-1.0)
    assert w.state_text == "SEPARATE"
    _set(w, f_n=2.0, f_t=2.5, mu=1.5)
    assert w.state_text == "STICK"
    assert "56.3 deg" in w.readout.value  # arctan(1.5), not 1.5 rad


# --------------------------------------------------------------------- FIG 3

def test_pyramid_widget_errors_follow_k():
    w = cf.pyramid_widget(k=4, mu=0.8, phi_deg=45.0)
    assert "41.42 %" in w.readout.value and "29.29 %" in w.readout.value
    np.testing.assert_allclose(w.data["outer"], 0.8 * math.sqrt(2), rtol=1e-12)
    before = w.image.value
    _set(w, k=8)
    assert "8.24 %" in w.readout.value and "7.61 %" in w.readout.value and w.image.value != before
    _set(w, k=16)
    assert "1.96 %" in w.readout.value and "1.92 %" in w.readout.value
    # The sampled maxima over 7200 directions agree with the closed form.
    assert abs(w.data["under_sampled"] - w.data["under_closed"]) < 1e-6
    # Smallest k with both worst errors below 5 %: 11 (the exercise of FIG 3).
    _set(w, k=10)
    assert max(w.data["under_closed"], w.data["over_closed"]) >= 0.05
    _set(w, k=11)
    assert max(w.data["under_closed"], w.data["over_closed"]) < 0.05
    _set(w, phi_deg=0.0, azimuth_deg=120.0)
    np.testing.assert_allclose(w.data["inner"], 0.8, rtol=1e-12)  # along an edge


# --------------------------------------------------------------------- FIG 4

def test_ball_widget_penalty_stable_then_blown_up():
    w = cf.ball_drop_widget(model="penalty", k=1e4, dt=1e-3, zeta=0.1)
    assert w.state_text == "PENALTY: stable"
    assert "0.100" in w.readout.value  # omega dt
    # dt so large that omega dt = 2.5 > 1.81 (the damped limit).
    _set(w, dt=0.025)
    assert "BLOWN UP" in w.state_text
    assert w.data["amplification"] > 1.0
    _set(w, dt=1e-3, zeta=0.0)
    assert w.state_text == "PENALTY: stable"


def test_ball_widget_penetration_shrinks_with_stiffness():
    w = cf.ball_drop_widget(model="penalty", k=1e4, dt=1e-4, zeta=0.1)
    soft = w.data["max_penetration"]
    _set(w, k=1e6)
    stiff = w.data["max_penetration"]
    # sqrt(100) = 10 times smaller, up to the sag and discretisation (10 %).
    np.testing.assert_allclose(soft / stiff, 10.0, rtol=0.1)
    assert w.data["omega_dt"] == pytest.approx(0.1, rel=1e-9)


def test_ball_widget_impulse_rest_time_matches_prediction():
    w = cf.ball_drop_widget(model="impulse", e=0.8, dt=1e-3)
    assert w.state_text == "IMPULSE: at rest"
    predicted = ball_drop.impulse_rest_time(1.0, 0.8)
    assert f"{predicted:.3f} s" in w.readout.value
    assert 0.0 <= predicted - w.data["rest_simulated"] <= 2 * 1e-3 / 0.2 + 1e-12
    _set(w, e=0.9)
    assert f"{ball_drop.impulse_rest_time(1.0, 0.9):.3f} s" in w.readout.value
    _set(w, model="penalty")
    assert w.state_text.startswith("PENALTY")


# --------------------------------------------------------------------- FIG 5

def test_fingertip_widget_names_the_limit():
    w = cf.fingertip_widget(x_tip=0.5, elbow="up", mu=0.5, tau_max=1.0, f_t=0.0, f_n=1.0)
    assert w.state_text == "FEASIBLE"
    assert "2.00 N/(N m)" in w.readout.value
    assert "4.00 N" in w.readout.value  # LP optimum (checked by hand in test_fingertip)
    _set(w, f_t=0.9)
    assert w.state_text == "OUTSIDE FRICTION CONE"
    _set(w, f_t=0.0, f_n=3.0)
    assert w.state_text == "JOINT 1 OVER LIMIT"
    _set(w, mu=1.0, f_t=-2.5, f_n=4.0)
    assert w.state_text == "JOINT 2 OVER LIMIT"
    _set(w, f_n=-0.5, f_t=0.0)
    assert w.state_text == "TABLE MUST PULL"


def test_fingertip_widget_capacity_above_two_newton_per_newton_metre():
    w = cf.fingertip_widget(x_tip=0.0, elbow="up")
    assert w.data["press_capacity"] < 2.5
    _set(w, x_tip=0.3)
    # With the elbow up and the tip at 0.3 m the capacity is 3.33 N per N m.
    assert w.data["press_capacity"] > 2.0
    jac = fingertip.contact_jacobian(fingertip.two_link_ik(0.3, "up"))
    np.testing.assert_allclose(w.data["press_capacity"], fingertip.press_capacity(jac), rtol=1e-12)
    _set(w, elbow="down")
    assert w.data["press_capacity"] < w.data["max_normal"]


def test_fingertip_slider_stays_inside_the_reachable_range():
    w = cf.fingertip_widget()
    for x in (-0.8, 0.8):
        _set(w, x_tip=x)
        assert not w.state_text.startswith("not allowed")
    with pytest.raises(UnreachableTargetError):
        cf.fingertip_data(x_tip=0.9)


# ----------------------------------------------------------- static pictures

@pytest.mark.parametrize(
    "data, draw, n_axes",
    [
        (cf.ramp_data(), cf.draw_ramp, 1),
        (cf.cone2d_data(), cf.draw_cone2d, 1),
        (cf.pyramid_data(), cf.draw_pyramid, 2),
        (cf.ball_drop_data("impulse"), cf.draw_ball_drop, 3),
        (cf.fingertip_data(), cf.draw_fingertip, 2),
    ],
)
def test_draw_functions_make_a_figure_without_pyplot(data, draw, n_axes):
    fig = draw(data)
    assert len(fig.axes) == n_axes
    assert sum(len(ax.lines) + len(ax.patches) + len(ax.collections) for ax in fig.axes) > 3


def test_update_returns_data_and_redraws():
    w = cf.cone2d_widget()
    first = w.image.value
    w.controls["f_t"].unobserve_all()
    w.controls["f_t"].value = -3.5
    data = w.update()
    assert data["state"] == "slip" and w.image.value != first


# ------------------------------------------------------------ live redraws

def _count_full_draws(widget):
    """Wrap the widget's canvas so that full (non-blitted) redraws are counted."""
    canvas = widget.figure.canvas
    original = canvas.draw
    count = [0]

    def draw(*args, **kwargs):
        count[0] += 1
        return original(*args, **kwargs)

    canvas.draw = draw
    return count


LIVE_SWEEPS = [
    (cf.ramp_widget, {"alpha_deg": [0.0, 40.0, 85.0], "push": [0.0, 2.0], "beta_deg": [-90.0, 90.0]}),
    (cf.cone2d_widget, {"f_t": [-4.5, 0.0, 4.5], "f_n": [-2.0, 4.5], "mu": [0.0, 2.0]}),
    # mu rescales the pyramid views in steps, so it is not swept here.
    (cf.pyramid_widget, {"k": [3, 4, 17, 32], "phi_deg": [0.0, 200.0], "azimuth_deg": [0.0, 300.0]}),
    (cf.ball_drop_widget, {"k": [1e3, 1e5, 1e7], "dt": [10**-3.5, 10**-1.5], "zeta": [0.0, 0.9]}),
    (lambda: cf.ball_drop_widget(model="impulse"), {"e": [0.0, 0.5, 0.95], "dt": [10**-3.5, 10**-1.5]}),
    (cf.fingertip_widget, {"x_tip": [-0.8, 0.8], "elbow": ["down", "up"], "mu": [0.0, 1.5],
                           "tau_max": [0.2, 3.0], "f_t": [-6.0, 6.0], "f_n": [-1.0, 8.0]}),
]


@pytest.mark.parametrize("build, sweep", LIVE_SWEEPS)
def test_live_figures_keep_their_background_over_the_slider_ranges(build, sweep):
    # The live figures' axis limits, labels, titles and legends do not depend
    # on these controls, so every update is blitted over the cached background
    # (no full redraw), and still changes the picture.
    w = build()
    full = _count_full_draws(w)
    images = {bytes(w.image.value)}
    for name, values in sweep.items():
        for value in values:
            w.controls[name].value = value
            images.add(bytes(w.image.value))
    assert full[0] == 0
    assert len(images) > len(sweep)  # the pictures did change


def test_live_figure_redraws_fully_when_the_layout_changes():
    # Switching the model changes axis labels and legend: the background must
    # be drawn again (and then is reused).
    w = cf.ball_drop_widget()
    full = _count_full_draws(w)
    w.controls["model"].value = "impulse"
    assert full[0] == 1
    w.controls["e"].value = 0.3
    assert full[0] == 1
    assert w.figure.axes[1].get_xlabel() == "time / predicted rest time"


def test_live_image_is_the_canvas_as_png():
    from io import BytesIO

    from PIL import Image

    w = cf.fingertip_widget(f_t=1.0)
    decoded = np.asarray(Image.open(BytesIO(w.image.value)))
    rgba = np.asarray(w.figure.canvas.buffer_rgba())
    # Lossless encoding: exactly the canvas pixels without alpha.
    np.testing.assert_array_equal(decoded, rgba[:, :, :3])


def test_live_ball_axes_are_scaled_and_static_ones_physical():
    stiff, soft = cf.ball_drop_data(k=1e6), cf.ball_drop_data(k=1e3)
    live = [cf.draw_ball_drop(d, live=True).axes for d in (stiff, soft)]
    for a, b in zip(*live):
        assert a.get_xlim() == b.get_xlim() and a.get_ylim() == b.get_ylim()
    assert live[0][2].get_ylabel() == "force / bound"
    static = cf.draw_ball_drop(stiff).axes
    assert static[1].get_ylabel() == "penetration (mm)"
    assert static[2].get_ylabel() == "normal force $f_n$ (N)"
    # The static penetration axis holds the simulated penetration (in mm).
    assert static[1].get_ylim()[1] >= 1e3 * stiff["max_penetration"]


def test_live_fingertip_force_space_holds_every_demanded_force():
    ax = cf.draw_fingertip(cf.fingertip_data(f_t=6.0, f_n=8.0), live=True).axes[1]
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    assert x0 <= -6.0 and x1 >= 6.0 and y0 <= -1.0 and y1 >= 8.0


@pytest.mark.parametrize("case", [dict(model="penalty", k=1e4, dt=1e-3, zeta=0.1),
                                  dict(model="penalty", k=1e4, dt=1.9e-2, zeta=0.1),
                                  dict(model="impulse", e=0.8, dt=1e-3)])
def test_static_complementarity_panel_shows_every_step(case):
    # The static picture's (gap, force) panel holds the point of every stored
    # step, also for a blown-up penalty run with forces far above the bound.
    data = cf.ball_drop_data(**case)
    ax = cf.draw_ball_drop(data).axes[2]
    steps = next(line for line in ax.lines if line.get_label() == "simulation steps")
    assert len(steps.get_xdata()) == len(data["gap"])
    (x0, x1), (y0, y1) = ax.get_xlim(), ax.get_ylim()
    assert x0 < 1e3 * data["gap"].min() and x1 > 1e3 * data["gap"].max()
    assert y0 < 0.0 and y1 >= data["force"].max()
