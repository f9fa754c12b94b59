"""The live figures: data, state label, readout and static picture.

The five figures of "Contact and friction", and those of chapters 3.2 (the RNEA's
joint forces), 3.3 (the terms of the Lagrange equations), 3.4 (the tip's inertia
ellipse of a 2R arm) and 3.5 (a free-floating robot's base angle at zero momentum).

Each test computes a figure's data the way its controls would
(``*_data(**values)``), checks the state label and readout rows of
``*_describe`` against lib's routines and closed forms, and that ``draw_*``
draws the static picture. The live figures (anywidgets, in the browser) print
the same rows: ``tests/test_figures_live.py``. A last test holds the layer
rule: only ``lib.figures`` plots.
"""

from __future__ import annotations

import math

import matplotlib
import numpy as np
import pytest

from lib.common import GRAVITY

matplotlib.use("Agg")

from _tree import imported_names, modules  # noqa: E402
from conftest import ROOT  # noqa: E402
from lib import contact_sim, friction  # noqa: E402
from lib import figures as cf  # noqa: E402
from lib.figures import ball_drop, cone2d, fingertip as finger_figure, pyramid, ramp  # noqa: E402
from lib.figures import floating_momentum, inertia_ellipse, lagrange_terms, rnea_wrenches  # noqa: E402
from lib.errors import DynamicsInputError, UnreachableTargetError  # noqa: E402
from lib.models import ball_drop as drop  # noqa: E402
from lib.models import fingertip  # noqa: E402

FIGURES = {
    "ramp": (cf.ramp_data, cf.ramp_describe),
    "cone2d": (cf.cone2d_data, cf.cone2d_describe),
    "pyramid": (cf.pyramid_data, cf.pyramid_describe),
    "ball_drop": (cf.ball_drop_data, cf.ball_drop_describe),
    "fingertip": (cf.fingertip_data, cf.fingertip_describe),
    "rnea_wrenches": (cf.rnea_wrenches_data, cf.rnea_wrenches_describe),
    "lagrange_terms": (cf.lagrange_terms_data, cf.lagrange_terms_describe),
    "inertia_ellipse": (cf.inertia_ellipse_data, cf.inertia_ellipse_describe),
    "floating_momentum": (cf.floating_momentum_data, cf.floating_momentum_describe),
}


def _show(figure: str, **values):
    """``(state label, readout as one string, data)`` of a figure at the given control values."""
    data_fn, describe = FIGURES[figure]
    data = data_fn(**values)
    text, _, rows = describe(data)
    return text, " | ".join(f"{k}: {v}" for k, v in rows), data


# --------------------------------------------------------------------- FIG 1

def test_ramp_walks_through_stick_slip_and_lift_off():
    base = dict(mu_s=0.8, mu_k=0.6)
    text, readout, _ = _show("ramp", **base)
    assert text == "STICK"
    assert "38.7 deg" in readout  # arctan(0.8) in the readout
    crit = math.degrees(math.atan(0.8))
    assert _show("ramp", **base, alpha_deg=round(crit - 0.5, 1))[0] == "STICK"
    assert _show("ramp", **base, alpha_deg=round(crit + 1.0, 1))[0] == "SLIP (down the slope)"
    # The mass changes newtons, not the state (critical angle independent of mass).
    assert _show("ramp", **base, alpha_deg=round(crit + 1.0, 1), mass=9.0)[0] == "SLIP (down the slope)"
    assert _show("ramp", **base, alpha_deg=round(crit - 0.5, 1), mass=9.0)[0] == "STICK"
    # Tilt well past the limit, then press into the surface to stick again.
    tilt = round(crit + 4.0, 1)
    assert _show("ramp", **base, alpha_deg=tilt, mass=9.0)[0].startswith("SLIP")
    assert _show("ramp", **base, alpha_deg=tilt, mass=9.0, beta_deg=-90.0, push=0.5)[0] == "STICK"
    # Pull away from the surface until the normal force vanishes.
    text, readout, _ = _show("ramp", **base, alpha_deg=tilt, mass=9.0, beta_deg=80.0, push=1.0)
    assert text == "LIFT-OFF"
    assert "normal force f_n: 0.00 N" in readout and "friction supplied: 0.00 N" in readout


def test_ramp_refuses_a_bad_friction_pair():
    with pytest.raises(DynamicsInputError, match="mu_k must not exceed mu_s"):
        cf.ramp_data(mu_s=0.5, mu_k=0.7)
    assert _show("ramp", mu_s=0.5, mu_k=0.3)[0] == "STICK"


def test_ramp_data_equals_lib():
    d = cf.ramp_data(alpha_deg=35.0, mu_s=0.6, mu_k=0.5, mass=2.0, push=0.3, beta_deg=-20.0)
    s = friction.ramp_state(math.radians(35.0), 0.6, 0.5, 2.0, 0.3 * 2.0 * GRAVITY,
                            math.radians(-20.0))
    assert d["state"] == s.state
    # Same computation; exact equality expected.
    assert d["normal_force"] == s.normal_force and d["friction"] == s.friction


# --------------------------------------------------------------------- FIG 2

def test_cone_stick_slip_separate_and_the_remainder():
    assert _show("cone2d", f_t=1.0, f_n=3.0, mu=0.5)[0] == "STICK"
    text, readout, data = _show("cone2d", f_t=3.0, f_n=4.0, mu=0.5)
    assert text == "SLIP"
    # Check-yourself question 2: 2 N supplied, 1 N unbalanced.
    assert "(2.00, 4.00) N" in readout and "(1.00, 0.00) N" in readout
    np.testing.assert_allclose(data["supplied"], (2.0, 4.0), atol=1e-12)  # exact up to round-off
    assert _show("cone2d", f_t=3.0, f_n=-1.0, mu=0.5)[0] == "SEPARATE"
    text, readout, _ = _show("cone2d", f_t=2.5, f_n=2.0, mu=1.5)
    assert text == "STICK"
    assert "56.3 deg" in readout  # arctan(1.5), not 1.5 rad


# --------------------------------------------------------------------- FIG 3

def test_pyramid_errors_follow_k():
    _, readout, data = _show("pyramid", k=4, mu=0.8, phi_deg=45.0)
    assert "41.42 %" in readout and "29.29 %" in readout
    np.testing.assert_allclose(data["outer"], 0.8 * math.sqrt(2), rtol=1e-12)  # closed form, round-off only
    _, readout, _ = _show("pyramid", k=8, mu=0.8, phi_deg=45.0)
    assert "8.24 %" in readout and "7.61 %" in readout
    _, readout, data = _show("pyramid", k=16, mu=0.8, phi_deg=45.0)
    assert "1.96 %" in readout and "1.92 %" in readout
    # The sampled maxima over 7200 directions agree with the closed form.
    assert abs(data["under_sampled"] - data["under_closed"]) < 1e-6
    # Smallest k with both worst errors below 5 %: 11 (the exercise of FIG 3).
    worst = {k: max(d["under_closed"], d["over_closed"]) for k in (10, 11) for d in [cf.pyramid_data(k=k, mu=0.8)]}
    assert worst[10] >= 0.05 and worst[11] < 0.05
    # Along an edge (phi = 0) the inscribed pyramid holds the round cone exactly.
    np.testing.assert_allclose(cf.pyramid_data(k=11, mu=0.8, phi_deg=0.0, azimuth_deg=120.0)["inner"], 0.8,
                               rtol=1e-12)


# --------------------------------------------------------------------- FIG 4

def test_ball_penalty_stable_then_blown_up():
    text, readout, _ = _show("ball_drop", model="penalty", k=1e4, dt=1e-3, zeta=0.1)
    assert text == "PENALTY: stable"
    assert "omega_n dt: 0.100" in readout
    # dt so large that omega dt = 2.5 > 1.81 (the damped limit).
    text, _, data = _show("ball_drop", model="penalty", k=1e4, dt=0.025, zeta=0.1)
    assert "BLOWN UP" in text
    assert data["amplification"] > 1.0
    assert _show("ball_drop", model="penalty", k=1e4, dt=1e-3, zeta=0.0)[0] == "PENALTY: stable"


def test_ball_penetration_shrinks_with_stiffness():
    soft = cf.ball_drop_data(model="penalty", k=1e4, dt=1e-4, zeta=0.1)
    stiff = cf.ball_drop_data(model="penalty", k=1e6, dt=1e-4, zeta=0.1)
    # sqrt(100) = 10 times smaller, up to the sag and discretisation (10 %).
    np.testing.assert_allclose(soft["max_penetration"] / stiff["max_penetration"], 10.0, rtol=0.1)
    assert stiff["omega_dt"] == pytest.approx(0.1, rel=1e-9)
    np.testing.assert_allclose(stiff["omega"], contact_sim.natural_frequency(1e6, 1.0), rtol=0)  # same call


def test_ball_impulse_rest_time_matches_prediction():
    text, readout, data = _show("ball_drop", model="impulse", e=0.8, dt=1e-3)
    assert text == "IMPULSE: at rest"
    predicted = drop.impulse_rest_time(1.0, 0.8)
    assert f"{predicted:.3f} s" in readout
    # The simulation stops bouncing once a rebound is shorter than a step: at most 2 dt / (1 - e) early.
    assert 0.0 <= predicted - data["rest_simulated"] <= 2 * 1e-3 / 0.2 + 1e-12
    assert f"{drop.impulse_rest_time(1.0, 0.9):.3f} s" in _show("ball_drop", model="impulse", e=0.9, dt=1e-3)[1]


def test_ball_refuses_an_unknown_model():
    with pytest.raises(DynamicsInputError, match="model"):
        cf.ball_drop_data(model="spring")


# --------------------------------------------------------------------- FIG 5

def test_fingertip_names_the_limit():
    base = dict(x_tip=0.5, elbow="up", mu=0.5, tau_max=1.0)
    text, readout, _ = _show("fingertip", **base, f_t=0.0, f_n=1.0)
    assert text == "FEASIBLE"
    assert "2.00 N/(N m)" in readout
    assert "4.00 N" in readout  # LP optimum (checked by hand in test_fingertip)
    assert _show("fingertip", **base, f_t=0.9, f_n=1.0)[0] == "OUTSIDE FRICTION CONE"
    assert _show("fingertip", **base, f_t=0.0, f_n=3.0)[0] == "JOINT 1 OVER LIMIT"
    assert _show("fingertip", **{**base, "mu": 1.0}, f_t=-2.5, f_n=4.0)[0] == "JOINT 2 OVER LIMIT"
    assert _show("fingertip", **{**base, "mu": 1.0}, f_t=0.0, f_n=-0.5)[0] == "TABLE MUST PULL"


def test_fingertip_capacity_above_two_newton_per_newton_metre():
    assert cf.fingertip_data(x_tip=0.0, elbow="up")["press_capacity"] < 2.5
    data = cf.fingertip_data(x_tip=0.3, elbow="up")
    # With the elbow up and the tip at 0.3 m the capacity is 3.33 N per N m.
    assert data["press_capacity"] > 2.0
    jac = fingertip.contact_jacobian(fingertip.two_link_ik(0.3, "up"))
    np.testing.assert_allclose(data["press_capacity"], fingertip.press_capacity(jac), rtol=1e-12)  # same call
    down = cf.fingertip_data(x_tip=0.3, elbow="down")
    assert down["press_capacity"] < down["max_normal"]


def test_fingertip_reach():
    # The live figure's slider reaches past the workspace; inside it the data exist.
    for x in (-0.8, 0.8):
        assert _show("fingertip", x_tip=x)[0] in {"FEASIBLE", "OUTSIDE FRICTION CONE", "JOINT 1 OVER LIMIT",
                                                 "JOINT 2 OVER LIMIT", "TABLE MUST PULL"}
    with pytest.raises(UnreachableTargetError):
        cf.fingertip_data(x_tip=0.9)


# ------------------------------------------------------------ 3.2: the RNEA

#: Relative tolerance of the RNEA figure against the independent routes below
#: (round-off only: the largest difference measured is ~1e-15 of the scale).
RNEA_RTOL = 1e-12


@pytest.mark.parametrize("values", [dict(), dict(qd=2.5, qdd=-6.0), dict(q1_deg=-120.0, q2_deg=170.0,
                                                                         q3_deg=-35.0, qd=-3.0, qdd=10.0)])
def test_rnea_figure_torques_and_forces_follow_the_chain_model(values):
    # Independent route: lib.models.planar_chain's Jacobian projection (M, h) for
    # the torques, and Newton for each sub-chain's centres of mass for the forces.
    from lib.models.planar_chain import planar_chain_dynamics, planar_chain_tip

    d = cf.rnea_wrenches_data(**values)
    L, m = np.array([0.5, 0.4, 0.3]), np.array([3.0, 2.0, 1.0])
    assert (tuple(L), tuple(m)) == (cf.FIGURES["rnea_wrenches"].constant_values()["lengths"],
                                    cf.FIGURES["rnea_wrenches"].constant_values()["masses"])
    q = np.radians(d["q_deg"])
    qd, qdd = np.full(3, d["qd"]), np.full(3, d["qdd"])
    M, h = planar_chain_dynamics(q, qd, L, m)
    M0, g_q = planar_chain_dynamics(q, np.zeros(3), L, m)
    scale = float(np.abs(d["tau"]).max() + np.abs(g_q).max())
    np.testing.assert_allclose(d["tau"], M @ qdd + h, rtol=0, atol=RNEA_RTOL * scale)
    np.testing.assert_allclose(d["tau_gravity"], g_q, rtol=0, atol=RNEA_RTOL * scale)
    np.testing.assert_allclose(d["tau_motion"], M @ qdd + h - g_q, rtol=0, atol=RNEA_RTOL * scale)
    # the joint's moment about z is its torque; a planar arm's wrench has no other moment, no f_z
    np.testing.assert_allclose(d["wrenches"][:, 2], d["tau"], rtol=0, atol=RNEA_RTOL * scale)
    np.testing.assert_allclose(d["wrenches"][:, [0, 1, 5]], 0.0, atol=RNEA_RTOL * scale)
    # Newton: joint i carries links i..3: f_i = sum_k m_k (a_ck - gravity), a_ck the midpoint of its ends
    ends = [np.zeros(2)] + [planar_chain_tip(q[:k], qd[:k], L[:k]) for k in (1, 2, 3)]
    acc = [np.zeros(2)] + [J @ qdd[: J.shape[1]] + jdqd for _, J, jdqd in ends[1:]]
    points = [np.zeros(2)] + [p for p, _, _ in ends[1:]]
    weight = np.array([0.0, GRAVITY])
    for i in range(3):
        expected = sum(m[k] * (0.5 * (acc[k] + acc[k + 1]) + weight) for k in range(i, 3))
        np.testing.assert_allclose(d["forces"][i], expected, rtol=0, atol=RNEA_RTOL * 100.0)
    np.testing.assert_allclose(d["points"], np.array(points), atol=1e-12)
    np.testing.assert_allclose(d["arrows"], d["force_scale"] * d["forces"], rtol=1e-15)


def test_rnea_figure_at_rest_carries_the_weight():
    text, readout, d = _show("rnea_wrenches", q1_deg=90.0, q2_deg=0.0, q3_deg=0.0)
    assert text == "AT REST: gravity alone"
    # upright: no torque, and round-off does not print as -0.00
    assert "torques tau (N m): (0.00, 0.00, 0.00)" in readout and "-0.00" not in readout
    # the base joint carries the whole arm, joint 3 the last link: 58.86, 29.43 and 9.81 N
    np.testing.assert_allclose(d["forces"], [[0.0, 6.0 * GRAVITY], [0.0, 3.0 * GRAVITY], [0.0, GRAVITY]],
                               atol=1e-12)
    assert "joint forces |f_i| (N): (58.86, 29.43, 9.81)" in readout
    assert "weight of the arm (N): 58.86" in readout
    # the velocity terms are quadratic in the rate: the same torques at -qd
    a, b = cf.rnea_wrenches_data(qd=2.0), cf.rnea_wrenches_data(qd=-2.0)
    np.testing.assert_allclose(a["tau"], b["tau"], rtol=1e-12)
    assert _show("rnea_wrenches", qd=2.0)[0] == "MOVING: gravity and motion"
    with pytest.raises(DynamicsInputError, match="q2_deg"):
        cf.rnea_wrenches_data(q2_deg=float("nan"))


# ------------------------------------------------------- 3.3: Lagrange terms

LAGRANGE_STATES = [dict(), dict(q1_deg=-137.0, q2_deg=23.0, qd1=2.7, qd2=-4.1, qdd1=13.5, qdd2=-6.0),
                   dict(q1_deg=61.0, q2_deg=-152.0, qd1=-5.0, qd2=5.0, qdd1=-20.0, qdd2=20.0)]


@pytest.mark.parametrize("values", LAGRANGE_STATES)
def test_lagrange_terms_add_up_to_the_rnea(values):
    # M qdd + C qd + g with C from the Christoffel symbols equals lib's RNEA,
    # 1e-12 of the torques' scale (round-off; measured ~1e-15).
    from lib.kinematic_tree import rnea
    from lib.models.planar_2r_arm import planar_2r_arm
    from lib.models.planar_chain import planar_chain_tree

    d = cf.lagrange_terms_data(**values)
    constants = cf.FIGURES["lagrange_terms"].constant_values()
    L, m = constants["lengths"], constants["masses"]
    q = np.radians(d["q_deg"])
    tau = rnea(planar_chain_tree(L, m), q, d["qd"], d["qdd"], [0.0, -GRAVITY, 0.0])
    scale = float(np.abs(tau).max() + np.abs(d["tau_gravity"]).max())
    np.testing.assert_allclose(d["tau"], tau, rtol=0, atol=1e-12 * scale)
    C = np.einsum("ijk,k->ij", d["christoffel"], d["qd"])
    np.testing.assert_allclose(d["tau_inertial"] + C @ d["qd"] + d["tau_gravity"], tau, rtol=0,
                               atol=1e-12 * scale)
    # M is chapter 3.12's arm (lib.models.planar_2r_arm, the same rods)
    np.testing.assert_allclose(d["M"], planar_2r_arm(q, L, m)[0], rtol=0, atol=1e-12)
    # the Christoffel symbols of that M by their definition, dM/dq by central differences
    eps = 1e-6
    dM = np.stack([(planar_2r_arm(q + eps * e, L, m)[0] - planar_2r_arm(q - eps * e, L, m)[0])
                   / (2 * eps) for e in np.eye(2)], axis=-1)  # dM[i, j, k] = dM_ij / dq_k
    expected = 0.5 * (dM + np.swapaxes(dM, 1, 2) - np.moveaxis(dM, 2, 0))
    np.testing.assert_allclose(d["christoffel"], expected, rtol=0, atol=1e-8)  # measured: 6e-11
    np.testing.assert_allclose(d["christoffel"], np.swapaxes(d["christoffel"], 1, 2), atol=1e-15)
    b = m[1] * L[0] * L[1] * np.sin(q[1]) / 2  # the closed form the live figure evaluates
    np.testing.assert_allclose(d["christoffel"], [[[0, -b], [-b, -b]], [[b, 0], [0, 0]]], atol=1e-15)


def test_lagrange_terms_split_by_rate():
    base = dict(q1_deg=20.0, q2_deg=70.0, qdd1=0.0, qdd2=0.0)
    one = cf.lagrange_terms_data(**base, qd1=3.0, qd2=0.0)
    assert np.all(one["tau_coriolis"] == 0.0) and one["tau_centrifugal"][1] > 0.0
    both, flipped = cf.lagrange_terms_data(**base, qd1=3.0, qd2=2.0), cf.lagrange_terms_data(**base, qd1=-3.0,
                                                                                                qd2=2.0)
    # centrifugal terms are even in each rate, the Coriolis term odd
    np.testing.assert_allclose(flipped["tau_centrifugal"], both["tau_centrifugal"], rtol=1e-15)
    np.testing.assert_allclose(flipped["tau_coriolis"], -both["tau_coriolis"], rtol=1e-15)
    text, readout, d = _show("lagrange_terms", q1_deg=90.0, q2_deg=0.0, qd1=0.0, qd2=0.0, qdd1=0.0, qdd2=0.0)
    assert text == "tau = (0.00, 0.00) N m" and d["state"] == "static" and "-0.00" not in readout
    assert "M_11, M_12, M_22 (kg m^2): (1.333, 0.417, 0.167)" in readout  # 4/3, 5/12, 1/6 at q2 = 0
    with pytest.raises(DynamicsInputError, match="qdd2"):
        cf.lagrange_terms_data(qdd2="fast")


# ------------------------------------------------- 3.4: the tip's inertia ellipse

ELLIPSE_STATES = [dict(), dict(q1_deg=0.0, q2_deg=90.0), dict(q1_deg=-61.0, q2_deg=101.0),
                  dict(q1_deg=123.0, q2_deg=-170.0), dict(q1_deg=45.0, q2_deg=1.0)]


@pytest.mark.parametrize("values", ELLIPSE_STATES)
def test_inertia_ellipse_masses_are_the_effective_masses_of_lib(values):
    # m_min and m_max are what lib.contact_lcp.effective_mass gives along the lightest
    # and the heaviest direction, and every other direction lies between them.
    from lib.contact_lcp import effective_mass
    from lib.models.planar_2r_arm import planar_2r_arm

    d = cf.inertia_ellipse_data(**values)
    constants = cf.FIGURES["inertia_ellipse"].constant_values()
    L, m = constants["lengths"], constants["masses"]
    q = np.radians(d["q_deg"])
    M_arm, J_arm, tip = planar_2r_arm(q, L, m)  # chapter 3.12's arm: the same M (CRBA here)
    np.testing.assert_allclose(d["M"], M_arm, rtol=0, atol=1e-12)
    np.testing.assert_allclose(d["J"], J_arm, rtol=0, atol=1e-15)
    np.testing.assert_allclose(d["points"][-1], tip, rtol=0, atol=1e-15)
    np.testing.assert_allclose(d["W"], J_arm @ np.linalg.solve(M_arm, J_arm.T), rtol=1e-12,
                               atol=1e-12)

    def along(angle_deg):
        u = np.array([math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))])
        return effective_mass(M_arm, u @ J_arm)

    # 1e-10 relative: m_max at q2 = 1 deg is 4.4e3 kg, found through det(W) in the figure
    # and through u^T W u in effective_mass (measured: 6e-15)
    assert along(d["light_deg"]) == pytest.approx(d["m_min"], rel=1e-12)
    assert along(d["heavy_deg"]) == pytest.approx(d["m_max"], rel=1e-10)
    masses = [along(a) for a in np.linspace(0.0, 180.0, 181)]
    assert d["m_min"] * (1 - 1e-12) <= min(masses) and max(masses) <= d["m_max"] * (1 + 1e-10)
    # Lambda = W^-1 has the eigenvalues m_min, m_max
    np.testing.assert_allclose(np.sort(1.0 / np.linalg.eigvalsh(d["W"])), [d["m_min"], d["m_max"]],
                               rtol=1e-9)
    # the ellipse at the tip: Lambda (m_max at most cap) times the unit circle, mass_scale m per kg
    radius = np.linalg.norm(d["tip_ellipse"] - tip[:, None], axis=0) / d["mass_scale"]
    assert radius.min() >= d["m_min"] * (1 - 1e-12)
    assert radius.max() <= min(d["m_max"], d["cap"]) * (1 + 1e-12)
    if d["m_max"] < d["cap"]:  # a sample of the circle falls near the heavy axis
        assert radius.max() > 0.99 * d["m_max"]
    # M is symmetric positive definite, its eigenvalues below M_top (stretched out)
    assert 0.0 < d["M_eig"][0] <= d["M_eig"][1] <= d["M_top"] * (1 + 1e-12)


def test_inertia_ellipse_stretched_and_folded_arm_is_unbounded_along_its_line():
    for q2 in (0.0, 180.0, -180.0):
        d = cf.inertia_ellipse_data(q1_deg=30.0, q2_deg=q2)
        assert d["singular"] and d["m_max"] == math.inf
        assert d["heavy_deg"] == pytest.approx(30.0, abs=1e-9)  # along shoulder-elbow line
        u = np.array([math.cos(math.radians(30.0)), math.sin(math.radians(30.0))])
        # the tip cannot move along the line: no joint rate moves it there (round-off)
        assert np.max(np.abs(u @ d["J"])) < 1e-15
        text, key, rows = cf.inertia_ellipse_describe(d)
        assert key == "singular" and text.endswith("kg to unbounded (J singular)")
        assert rows[0] == ("heaviest push (tip)", "unbounded along 30 deg")
        # the drawn band: cap kg along the line, m_min across it
        assert np.ptp(d["tip_ellipse"][0]) > d["mass_scale"] * d["cap"]
    # approaching the singularity m_max grows as 1 / sin(q2)^2:
    # m_max sin(q2)^2 -> det(M) w_max / (l1 l2)^2 (1e-3 apart at 1 and 2 degrees)
    grow = [cf.inertia_ellipse_data(q2_deg=a)["m_max"] * math.sin(math.radians(a)) ** 2
            for a in (1.0, 2.0)]
    assert grow[0] == pytest.approx(grow[1], rel=2e-3)
    assert cf.inertia_ellipse_data(q2_deg=1.0)["m_max"] > 1e3


def test_inertia_ellipse_readout_at_the_right_angle():
    # q2 = 90 deg: m_min = 2/3 kg and m_max = 8/3 kg (the docstring's example), the light
    # direction along x at q1 = 0; the readout prints them and M's entries.
    text, readout, d = _show("inertia_ellipse", q1_deg=0.0, q2_deg=90.0)
    assert (d["m_min"], d["m_max"]) == (pytest.approx(2 / 3, rel=1e-12), pytest.approx(8 / 3, rel=1e-12))
    assert text == "tip feels 0.67 to 2.67 kg" and not d["singular"]
    assert "heaviest push (tip): 2.67 kg along 90 deg" in readout
    assert "lightest push (tip): 0.67 kg along 0 deg" in readout
    assert "M_11, M_12, M_22 (kg m^2): (0.833, 0.167, 0.167)" in readout
    # turning the shoulder turns the ellipse with the arm, the masses stay
    turned = cf.inertia_ellipse_data(q1_deg=40.0, q2_deg=90.0)
    assert turned["heavy_deg"] == pytest.approx(130.0, abs=1e-9)
    assert turned["m_max"] == pytest.approx(d["m_max"], rel=1e-12)
    with pytest.raises(DynamicsInputError, match="q2_deg"):
        cf.inertia_ellipse_data(q2_deg="bent")


# --------------------------------------------- 3.5: a free-floating robot's momentum

def _floating_closed_form(q, m1, m0=4.0, size=(0.4, 0.2), length=0.6):
    """The k_z row of A_G (A_base, A_arm) and theta(q) of the figure's robot, by hand.

    Base: a box (I0 = m0 (w^2 + h^2) / 12); arm: a rod (I1 = m1 l^2 / 12) whose centre is
    a = l / 2 from the joint, the joint r = w / 2 from the base's centre; with the reduced
    mass mu the vector d = R(theta) (r + a cos q, a sin q) from the base's centre to the
    arm's gives k = I0 theta' + I1 (theta' + q') + mu d x d'.
    """
    w, h = size
    I0, I1 = m0 * (w * w + h * h) / 12, m1 * length**2 / 12
    mu, r, a = m0 * m1 / (m0 + m1), w / 2, length / 2
    A, B, C, D = I1 + mu * a * a, mu * r * a, I0 + I1 + mu * (r * r + a * a), 2 * mu * r * a
    F = 2 / math.sqrt(C * C - D * D) * np.arctan2(math.sqrt(C - D) * np.sin(q / 2),
                                                  math.sqrt(C + D) * np.cos(q / 2))
    return C + D * np.cos(q), A + B * np.cos(q), -q / 2 - (A - C / 2) * F


@pytest.mark.parametrize("arm_mass", [0.5, 2.0, 4.0])
def test_floating_base_angle_is_the_integral_of_lib_momentum_matrix(arm_mass):
    # The quadrature of lib's A_G row equals the closed form over the slider's range
    # (1e-12 deg; measured 3e-14), its integrand is lib's A_G, and the base turns
    # against the arm, the same way back (theta odd in q), more for a heavier arm.
    d = cf.floating_momentum_data(q_deg=150.0, arm_mass=arm_mass)
    q = np.radians(d["curve_q_deg"])
    _, _, theta = _floating_closed_form(q, arm_mass)
    np.testing.assert_allclose(d["curve_theta_deg"], np.degrees(theta), rtol=0, atol=1e-12)
    A_base, A_arm, theta_q = _floating_closed_form(math.radians(150.0), arm_mass)
    assert (d["A_base"], d["A_arm"]) == (pytest.approx(A_base, rel=1e-13),
                                         pytest.approx(A_arm, rel=1e-13))
    assert d["theta_deg"] == pytest.approx(math.degrees(theta_q), abs=1e-12)
    assert d["rate"] == pytest.approx(-A_arm / A_base, rel=1e-13)
    np.testing.assert_allclose(d["curve_theta_deg"], -d["curve_theta_deg"][::-1], atol=1e-12)
    assert np.all(np.diff(d["curve_theta_deg"]) < 0.0)  # the base turns against the arm
    assert -d["theta_deg"] < 150.0  # ... by less than the arm turns
    heavier = cf.floating_momentum_data(q_deg=150.0, arm_mass=arm_mass + 0.5)
    assert heavier["theta_deg"] < d["theta_deg"]
    # the robot stays in the drawn square and the base inside the curve panel
    assert np.abs(np.vstack([d["corners"], d["tip"]])).max() < floating_momentum.VIEW
    assert np.abs(d["curve_theta_deg"]).max() < floating_momentum.CURVE_LIMIT


@pytest.mark.parametrize("q_deg", [-150.0, -20.0, 75.0, 150.0])
def test_floating_motion_along_the_figure_has_zero_momentum_and_a_fixed_com(q_deg):
    # The figure's poses as a motion: theta(q) and the base's slide at q +- dq give by
    # central differences the velocities of the arm turning at 1 rad/s; lib's centroidal
    # momentum of that motion is zero (to the differences' error, measured 9e-10), and
    # lib's centre of mass is at the origin in every pose.
    from lib import tree_dynamics as td

    constants = cf.FIGURES["floating_momentum"].constant_values()
    d = cf.floating_momentum_data(q_deg=q_deg)
    tree = floating_momentum._robot(constants["base_mass"], constants["base_size"], 2.0,
                                    constants["arm_length"])
    step = 0.01  # deg
    poses = [cf.floating_momentum_data(q_deg=q_deg + k * step)["pose"] for k in (-1, 1)]
    v = np.append((poses[1] - poses[0]) / math.radians(2 * step), 1.0)
    q = np.append(d["pose"], math.radians(q_deg))
    h = td.centroidal_momentum(tree, q, v)
    assert np.abs(h).max() < 1e-8  # k_z and p
    assert np.abs(td.center_of_mass(tree, q)[:2]).max() < 1e-15
    assert np.abs(d["com"]).max() < 1e-15 and np.abs(d["momentum"]).max() < 1e-14
    # and the analytic rate does the same to round-off (the figure's readout)
    assert v[2] == pytest.approx(d["rate"], rel=1e-8)  # measured 5e-10


def test_floating_robot_simulated_by_aba_ends_where_the_figure_says():
    # Free fall without gravity from rest, a torque on the arm joint only: lib's ABA and
    # RK4 (2000 steps of 1 ms) keep the momentum zero and the centre of mass in place
    # (1e-10: RK4's error, measured 6e-13, sixteen times more at twice the step), and
    # the base ends at the figure's theta(q) of the arm angle reached, 139 deg (1e-10
    # rad; measured 4e-14).
    from lib import tree_dynamics as td
    from lib.integrate import rk4

    constants = cf.FIGURES["floating_momentum"].constant_values()
    tree = floating_momentum._robot(constants["base_mass"], constants["base_size"], 2.0,
                                    constants["arm_length"])
    start = cf.floating_momentum_data(q_deg=0.0)["pose"]
    y0 = np.concatenate([start, [0.0], np.zeros(4)])

    def motion(t, y):
        tau = np.array([0.0, 0.0, 0.0, 0.15 * math.sin(math.pi * t)])
        return np.concatenate([y[4:], td.aba(tree, y[:4], y[4:], tau, [0.0, 0.0, 0.0])])

    _, states = rk4(motion, y0, 0.0, 1e-3, 2000)
    momenta = td.centroidal_momentum(tree, states[:, :4], states[:, 4:])
    assert np.abs(momenta).max() < 1e-10
    assert np.abs(td.center_of_mass(tree, states[:, :4])[:, :2]).max() < 1e-10
    end = states[-1, :4]
    assert 30.0 < math.degrees(end[3]) < 150.0  # the arm swung well into the slider's range
    d = cf.floating_momentum_data(q_deg=math.degrees(end[3]))
    assert end[2] == pytest.approx(math.radians(d["theta_deg"]), abs=1e-10)
    np.testing.assert_allclose(end[:2], d["pose"][:2], atol=1e-10)


def test_floating_readout_in_words():
    text, readout, d = _show("floating_momentum", q_deg=0.0)
    assert text == "arm 0 deg, base 0.0 deg" and cf.floating_momentum_describe(d)[1] == "static"
    assert "k_z at dq/dt = 1 rad/s (kg m^2/s): 0.000" in readout and "-0.000" not in readout
    assert "centre of mass (m): (0.000, 0.000)" in readout
    text, readout, d = _show("floating_momentum", q_deg=-90.0, arm_mass=2.0)
    theta = d["theta_deg"]
    assert theta > 0.0 and text == f"arm -90 deg, base +{theta:.1f} deg"
    assert f"arm angle in the world (deg): {-90.0 + theta:+.1f}" in readout
    with pytest.raises(DynamicsInputError, match="arm_mass"):
        cf.floating_momentum_data(arm_mass=-1.0)


# ----------------------------------------------------------- static pictures

@pytest.mark.parametrize(
    "data, draw, n_axes",
    [
        (cf.ramp_data(), cf.draw_ramp, 1),
        (cf.cone2d_data(), cf.draw_cone2d, 1),
        (cf.pyramid_data(), cf.draw_pyramid, 2),
        (cf.ball_drop_data("impulse"), cf.draw_ball_drop, 3),
        (cf.fingertip_data(), cf.draw_fingertip, 2),
        (cf.rnea_wrenches_data(qd=1.0, qdd=3.0), cf.draw_rnea_wrenches, 2),
        (cf.lagrange_terms_data(), cf.draw_lagrange_terms, 2),
        (cf.inertia_ellipse_data(), cf.draw_inertia_ellipse, 2),
        (cf.inertia_ellipse_data(q2_deg=0.0), cf.draw_inertia_ellipse, 2),
        (cf.floating_momentum_data(), cf.draw_floating_momentum, 2),
    ],
)
def test_draw_functions_make_a_figure_without_pyplot(data, draw, n_axes):
    fig = draw(data)
    assert len(fig.axes) == n_axes
    assert sum(len(ax.lines) + len(ax.patches) + len(ax.collections) for ax in fig.axes) > 3


def test_the_package_is_the_registered_figure_modules():
    # lib.figures re-exports each registered figure module's functions (the chapter's cf.*),
    # the palette, the registry and the page functions, nothing else.
    import importlib

    modules = [importlib.import_module(f"lib.figures.{name}") for name in cf.FIGURES]
    assert [m.FIGURE for m in modules] == list(cf.FIGURES.values())
    assert {ramp, cone2d, pyramid, ball_drop, finger_figure} <= set(modules)  # the lesson's five
    assert {rnea_wrenches, lagrange_terms} <= set(modules)  # chapters 3.2 and 3.3
    assert inertia_ellipse in modules  # chapter 3.4
    assert floating_momentum in modules  # chapter 3.5
    framework = {"COLORS", "STATE_COLORS", "FIGURES", "figure_spec", "static_figure", "show_figure"}
    exported = {name: getattr(cf, name) for name in cf.__all__ if name not in framework}
    assert exported == {name: getattr(m, name) for m in modules for name in m.__all__}
    assert len(exported) == 3 * len(cf.FIGURES)  # *_data, *_describe, draw_* of each


def test_draw_titles_name_the_state():
    # The static picture's title carries the state label of *_describe.
    fig = cf.draw_ramp(cf.ramp_data(alpha_deg=45.0))
    assert fig.axes[0].get_title().endswith("SLIP (down the slope)")
    fig = cf.draw_ball_drop(cf.ball_drop_data("impulse", e=0.5))
    assert fig.axes[0].get_title() == "IMPULSE: at rest"
    fig = cf.draw_fingertip(cf.fingertip_data(f_t=0.0, f_n=-1.0))
    assert fig.axes[1].get_title() == "force space: table must pull"


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


def test_static_penetration_axis_holds_the_penetration():
    data = cf.ball_drop_data(k=1e6)
    axes = cf.draw_ball_drop(data).axes
    assert axes[1].get_ylabel() == "penetration (mm)"
    assert axes[2].get_ylabel() == "normal force $f_n$ (N)"
    assert axes[1].get_ylim()[1] >= 1e3 * data["max_penetration"]


# --------------------------------------------------------------- the layer

#: Top-level packages that plot or build widgets: only lib.figures imports them.
PLOTTING = {"matplotlib", "ipywidgets", "anywidget", "plotly", "bokeh"}
#: Modules outside lib.figures allowed to import one of them, with the reason.
ALLOWED = {"lib.common": "glue_figure closes a chapter's figure after gluing it (it draws nothing)"}


def _breaks_the_rule(source: str, module: str, is_package: bool = False) -> list[str]:
    """The plotting imports of a module (that lib.figures does not import upwards: tests/test_layers.py)."""
    return sorted(n for n in imported_names(module, source, is_package) if n.split(".")[0] in PLOTTING)


def test_only_lib_figures_plots():
    found = {}
    for module in modules("lib"):
        if not module.name.startswith("lib.figures"):
            found[module.name] = _breaks_the_rule(module.source, module.name, module.is_package)
    assert len(found) > 10  # the algorithms and the models are found
    for module, reason in ALLOWED.items():
        assert found.pop(module), f"{module} no longer needs its exception ({reason})"
    offenders = {module: names for module, names in found.items() if names}
    assert not offenders, f"modules outside lib.figures that plot: {offenders}"


@pytest.mark.parametrize("source, module, expected", [
    ("import numpy as np\nfrom matplotlib.figure import Figure\n", "lib.spatial",
     ["matplotlib.figure", "matplotlib.figure.Figure"]),
    ("import matplotlib.pyplot as plt\n", "lib.models.fourbar", ["matplotlib.pyplot"]),
    ("def f(fig):\n    import matplotlib.pyplot as plt\n    plt.close(fig)\n", "lib.common", ["matplotlib.pyplot"]),
    ("from anywidget import AnyWidget\n", "lib.models.fingertip", ["anywidget", "anywidget.AnyWidget"]),
    ("import ipywidgets as widgets\n", "lib", ["ipywidgets"]),
    ("from .. import friction\nfrom ..models import fingertip\n", "lib.models.ball_drop", []),
])
def test_the_layer_rule_sees_every_form_of_import(source, module, expected):
    assert _breaks_the_rule(source, module) == expected


# ------------------------------------------------------- adding a figure

def test_adding_a_figure_checklist_names_existing_files():
    from test_contributing import _exists, _paths_named, _section

    paths = _paths_named(_section("Adding a figure (checklist)"))
    assert len(paths) >= 10, paths  # the checklist names its files; the parser found them
    missing = [p for p in paths if not _exists(p)]
    assert not missing, f"CONTRIBUTING.md's 'Adding a figure' names paths that do not exist: {missing}"


def test_every_registered_figure_has_its_module_front_end_api_entry_and_cases():
    from lib.figures.spec import JS_DIR
    from test_figures_js import CASES

    api = (ROOT / "book" / "appendix" / "api" / "figures.md").read_text()
    for name, spec in cf.FIGURES.items():
        module = f"lib.figures.{name}"
        assert (spec.data.__module__, spec.describe.__module__, spec.draw.__module__) == (module,) * 3
        assert (spec.data.__name__, spec.describe.__name__, spec.draw.__name__) == \
            (f"{name}_data", f"{name}_describe", f"draw_{name}")
        assert {spec.data.__name__, spec.describe.__name__, spec.draw.__name__} <= set(cf.__all__)
        assert spec.js_file.is_file(), spec.js_file
        assert f".. automodule:: {module}\n" in api, module
        assert len(CASES[name]) >= 20, name
    # Every figure front end is registered (frame.js is the shared frame).
    assert {p.stem for p in JS_DIR.glob("*.js")} - {"frame"} == set(cf.FIGURES)


def test_the_palette_is_written_once():
    # The JavaScript gets COLORS and STATE_COLORS from _frame.py (live.module_source); no JS file
    # defines a colour table of its own.
    from lib.figures import live
    from lib.figures.spec import JS_DIR

    for path in JS_DIR.glob("*.js"):
        text = path.read_text()
        assert "const COLORS" not in text and "const STATE_COLORS" not in text, path.name
    source = live.module_source("ramp")
    assert source.count("const COLORS = ") == 1
    for key, colour in {**cf.COLORS, **cf.STATE_COLORS}.items():
        assert f'"{key}": "{colour}"' in source


def test_static_figure_draws_each_case_the_way_draw_does():
    # One subfigure per case, each holding the axes draw_<name> makes, titled with the state.
    fig = cf.static_figure("ramp", [dict(alpha_deg=20.0), dict(alpha_deg=45.0), dict(alpha_deg=45.0, push=0.5,
                                                                                      beta_deg=-90.0)])
    assert [ax.get_title().split(": ")[-1] for ax in fig.axes] == ["STICK", "SLIP (down the slope)", "STICK"]
    assert len(fig.subfigs) == 4  # a 2 x 2 grid, the fourth cell empty
    alone = cf.draw_ramp(cf.ramp_data(alpha_deg=45.0)).axes[0]
    assert [line.get_xydata().tolist() for line in fig.axes[1].lines] == \
        [line.get_xydata().tolist() for line in alone.lines]
    ball = cf.static_figure("ball_drop", [dict(model="impulse")])
    assert len(ball.axes) == 3 and ball.axes[0].get_title() == "IMPULSE: at rest"
    assert tuple(ball.get_size_inches()) == cf.FIGURES["ball_drop"].size


def test_show_figure_glues_the_static_picture_and_returns_the_live_panel(monkeypatch):
    import lib.common

    glued = {}
    monkeypatch.setattr(lib.common, "glue_figure", lambda name, fig: glued.update({name: fig}))
    widget = cf.show_figure("cone2d", cases=[dict(f_t=3.0, f_n=4.0)], glue="xx_fig_cone", mu=0.9)
    assert widget.values == {"f_t": 1.0, "f_n": 3.0, "mu": 0.9} and widget.name == "cone2d"
    assert [ax.get_title().split(": ")[-1] for ax in glued["xx_fig_cone"].axes] == ["SLIP"]
    # Without cases, the static picture is the panel's starting state.
    cf.show_figure("cone2d", glue="xx_fig_start", f_t=2.0)
    assert glued["xx_fig_start"].axes[0].get_title().startswith(r"$\mu$ = 0.50, $f$ = (2.0, 3.0) N")
    static = cf.show_figure("pyramid", live=False, k=6)
    assert static.axes[0].get_title() == "3D cone and n_d = 6 pyramids"
    assert cf.show_figure("pyramid", glue="xx_fig_pyr", live=False) is None
    # ncols lays the cases out as static_figure does: one column stacks them
    two = [dict(f_t=1.0), dict(f_t=3.0, f_n=4.0)]
    side_by_side = cf.show_figure("cone2d", cases=two, live=False)
    stacked = cf.show_figure("cone2d", cases=two, live=False, ncols=1)
    wide, tall = side_by_side.get_size_inches(), stacked.get_size_inches()
    assert wide[0] == 2 * tall[0] and tall[1] == 2 * wide[1]
