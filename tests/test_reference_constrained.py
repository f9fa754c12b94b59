"""Cross-checks of lib.constraints and the 3.11 models (lib.models) against SciPy, Pinocchio and MuJoCo.

Conventions converted here: Pinocchio and MuJoCo use 3-D models; the planar
mechanisms become chains of revolute-z joints in the xy plane with gravity
along -y. Joint coordinates are relative angles, the book's maximal
coordinates are absolute, so ``T`` below maps one to the other.
"""

from __future__ import annotations

import mujoco
import numpy as np
import pinocchio as pin
import pytest
import scipy.integrate
import scipy.linalg
import scipy.optimize

from lib.constraints import (
    actuated_velocity_map,
    gauss_function,
    kkt_solve,
    multiplier_torques,
    null_space_acceleration,
)
from lib.common import GRAVITY
from lib.integrate import rk4
from lib.models.fivebar import FIVEBAR_ACTUATED, FIVEBAR_GEOMETRY, fivebar_constraints, fivebar_dynamics, fivebar_motion
from lib.models.fourbar import (
    FOURBAR_LENGTHS,
    fourbar_constraints,
    fourbar_dynamics,
    fourbar_independent_acceleration,
    fourbar_state,
)
from lib.models.pinocchio_reference import fivebar_pinocchio, fourbar_pinocchio
from lib.models.planar_chain import pen_on_line, planar_chain_dynamics
from lib.models.stewart_gough import stewart_geometry, stewart_leg_forces

RNG_SEED = 1311
DENSITY = 2.0


def rod_inertia(mass: float, length: float) -> pin.Inertia:
    """A uniform rod along the joint frame's x axis (the off-plane inertia is irrelevant)."""
    return pin.Inertia(mass, np.array([length / 2, 0.0, 0.0]), np.diag([1e-6, mass * length**2 / 12, mass * length**2 / 12]))


def translation(x: float) -> pin.SE3:
    return pin.SE3(np.eye(3), np.array([x, 0.0, 0.0]))


def new_model() -> pin.Model:
    model = pin.Model()
    model.gravity.linear = np.array([0.0, -GRAVITY, 0.0])
    return model


# --- SciPy -----------------------------------------------------------------------


def test_null_space_reduction_with_scipy_null_space_on_random_spd_system():
    rng = np.random.default_rng(RNG_SEED)
    A = rng.normal(size=(12, 12))
    M = A @ A.T + 12 * np.eye(12)
    J, f, gamma = rng.normal(size=(8, 12)), rng.normal(size=12), rng.normal(size=8)
    Z = scipy.linalg.null_space(J)
    # numpy full KKT as a third, independent computation.
    K = np.block([[M, -J.T], [J, np.zeros((8, 8))]])
    x = np.linalg.solve(K, np.concatenate([f, gamma]))
    qdd = kkt_solve(M, J, f, gamma).qdd
    # 1e-12: 20 x 20 solves with condition numbers ~1e3.
    np.testing.assert_allclose(null_space_acceleration(M, J, f, gamma, Z), x[:12], atol=1e-12)
    np.testing.assert_allclose(qdd, x[:12], atol=1e-12)


def test_gauss_principle_with_slsqp_on_the_pen():
    rng = np.random.default_rng(RNG_SEED + 1)
    worst_a, worst_lam = 0.0, 0.0
    for _ in range(10):
        q = rng.uniform(-np.pi, np.pi, 3)
        t = pen_on_line(q, rng.normal(size=3))
        f = rng.normal(scale=5.0, size=3) - t.h
        qdd, lam, _ = kkt_solve(t.M, t.J, f, t.gamma)
        res = scipy.optimize.minimize(
            gauss_function, np.zeros(3), args=(t.M, f), jac=True, method="SLSQP",
            constraints=[{"type": "eq", "fun": lambda a: t.J @ a - t.gamma, "jac": lambda a: t.J}],
            options={"ftol": 1e-14, "maxiter": 200},
        )
        assert res.success, res.message
        worst_a = max(worst_a, np.abs(res.x - qdd).max() / max(1.0, np.abs(qdd).max()))
        # KKT condition of the QP: grad Z = M a - f = J^T mu, so mu is the book's lambda.
        mu = np.linalg.lstsq(t.J.T, gauss_function(res.x, t.M, f)[1], rcond=None)[0]
        worst_lam = max(worst_lam, np.abs(mu - lam).max() / max(1.0, np.abs(lam).max()))
    # SLSQP converges to ~1e-8 relative (its ftol is on the objective, not the argument).
    assert worst_a < 1e-6
    assert worst_lam < 1e-6


def test_fourbar_independent_coordinates_rk4_against_dop853():
    y0 = np.array([np.deg2rad(60.0), 0.0])
    rhs = lambda t, y: np.array([y[1], fourbar_independent_acceleration(y[0], y[1])])
    ref = scipy.integrate.solve_ivp(rhs, (0.0, 1.0), y0, method="DOP853", rtol=1e-12, atol=1e-12)
    _, Y = rk4(rhs, y0, 0.0, 0.005, 200)
    _, Y2 = rk4(rhs, y0, 0.0, 0.0025, 400)
    e1, e2 = abs(Y[-1, 0] - ref.y[0, -1]), abs(Y2[-1, 0] - ref.y[0, -1])
    # The crank whirls at up to 30 rad/s, so RK4 at h = 2.5 ms is still ~4e-5 rad off;
    # the order check: halving h divides the error by ~16 or more (measured ~31).
    assert e2 < 1e-4
    assert e1 / e2 > 12.0


# --- Pinocchio --------------------------------------------------------------------


def test_pen_arm_dynamics_against_pinocchio():
    L, m = (0.4, 0.3, 0.2), (2.0, 1.5, 1.0)
    model, parent = new_model(), 0
    for i in range(3):
        parent = model.addJoint(parent, pin.JointModelRZ(), translation(L[i - 1] if i else 0.0), f"j{i}")
        model.appendBodyToJoint(parent, rod_inertia(m[i], L[i]), pin.SE3.Identity())
    data = model.createData()
    rng = np.random.default_rng(RNG_SEED + 2)
    for _ in range(5):
        q, qd = rng.normal(size=3), rng.normal(size=3)
        M, h = planar_chain_dynamics(q, qd, L, m)
        # 1e-12: both are exact formulas evaluated in double precision.
        np.testing.assert_allclose(M, pin.crba(model, data, q), atol=1e-12)
        np.testing.assert_allclose(h, pin.nle(model, data, q, qd), atol=1e-12)


def test_fourbar_kkt_against_pinocchio_constraint_dynamics():
    loop = fourbar_pinocchio(FOURBAR_LENGTHS, DENSITY)  # tree + cut joint at C
    model, data, cms, cds, T = loop.model, loop.data, loop.constraint_models, loop.constraint_datas, loop.to_joint_angles
    prox = pin.ProximalSettings(1e-14, 1e-12, 50)
    M, f = fourbar_dynamics(density=DENSITY)
    for theta, thetad in [(0.3, 1.0), (1.2, -3.0), (2.5, 5.0), (-2.0, 0.5)]:
        q, qd = fourbar_state(theta, thetad)
        _, J, gamma = fourbar_constraints(q, qd)
        qdd = kkt_solve(M, J, f, gamma).qdd
        a = pin.constraintDynamics(model, data, T @ q, T @ qd, np.zeros(3), cms, cds, prox)
        # 1e-10 rad/s^2 of accelerations up to ~150: Pinocchio's proximal solver
        # (accuracy 1e-14) on a rank-deficient 3-D constraint (its z row is zero).
        np.testing.assert_allclose(a, T @ qdd, atol=1e-10)


def test_fivebar_torques_against_pinocchio_rnea_and_constraint_dynamics():
    loop = fivebar_pinocchio(FIVEBAR_GEOMETRY, DENSITY)  # two 2R chains cut at the end point
    model, data, cms, cds, T = loop.model, loop.data, loop.constraint_models, loop.constraint_datas, loop.to_joint_angles
    tips = [f.name for f in model.frames if f.name.startswith("tip")]
    tip_ids = [model.getFrameId(name) for name in tips]
    prox = pin.ProximalSettings(1e-14, 1e-12, 50)
    M, f = fivebar_dynamics(density=DENSITY)
    act = list(FIVEBAR_ACTUATED)
    w = 2.0 * np.pi
    for t in np.linspace(0.0, 1.0, 6):
        p = np.array([0.05 * np.cos(w * t), 0.3 + 0.05 * np.sin(w * t)])
        q, qd, qdd = fivebar_motion(p, 0.05 * w * np.array([-np.sin(w * t), np.cos(w * t)]), -w * w * (p - [0.0, 0.3]))
        _, J, gamma = fivebar_constraints(q, qd)
        _, _, tau = multiplier_torques(M, f, J, gamma, act, qdd[act])
        qj = (T @ q + np.pi) % (2 * np.pi) - np.pi
        vj, aj = T @ qd, T @ qdd
        pin.computeJointJacobians(model, data, qj)
        pin.updateFramePlacements(model, data)
        Jt = [pin.getFrameJacobian(model, data, i, pin.ReferenceFrame.LOCAL_WORLD_ALIGNED)[:2] for i in tip_ids]
        V = actuated_velocity_map(Jt[0] - Jt[1], [0, 2])
        tau_pin = V.T @ pin.rnea(model, data, qj, vj, aj)
        # 1e-12 N m: analytic Jacobians on both sides, torques ~3 N m.
        np.testing.assert_allclose(tau_pin, tau, atol=1e-12)
        a = pin.constraintDynamics(model, data, qj, vj, np.array([tau[0], 0.0, tau[1], 0.0]), cms, cds, prox)
        # Feeding the torques back reproduces the prescribed motion (accelerations ~40 rad/s^2).
        np.testing.assert_allclose(a, aj, atol=1e-10)


# --- MuJoCo -----------------------------------------------------------------------


def stewart_mjcf(base, platform, mass, inertia):
    sites_b = "".join(f'<site name="b{i}" pos="{x} {y} {z}"/>' for i, (x, y, z) in enumerate(base))
    sites_p = "".join(f'<site name="p{i}" pos="{x} {y} {z}"/>' for i, (x, y, z) in enumerate(platform))
    tendons = "".join(f'<spatial name="leg{i}"><site site="b{i}"/><site site="p{i}"/></spatial>' for i in range(6))
    motors = "".join(f'<motor tendon="leg{i}" gear="1"/>' for i in range(6))
    d = np.diag(inertia)
    return f"""<mujoco><option gravity="0 0 -{GRAVITY}"/><worldbody>{sites_b}
    <body name="platform" pos="0 0 0.4"><freejoint/>
    <inertial pos="0 0 0" mass="{mass}" diaginertia="{d[0]} {d[1]} {d[2]}"/>{sites_p}</body>
    </worldbody><tendon>{tendons}</tendon><actuator>{motors}</actuator></mujoco>"""


@pytest.mark.parametrize("moving", [False, True])
def test_stewart_leg_forces_reproduce_the_acceleration_in_mujoco(moving):
    base, plat = stewart_geometry()
    mass, inertia = 2.0, np.diag([0.01125, 0.01125, 0.0225])
    c, s = np.cos(0.1), np.sin(0.1)
    R = np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]]) @ np.array([[1.0, 0.0, 0.0], [0.0, np.cos(0.05), -np.sin(0.05)], [0.0, np.sin(0.05), np.cos(0.05)]])
    p = np.array([0.02, -0.01, 0.42])
    w, al, acc = (np.array([0.3, -0.2, 1.0]), np.array([1.0, 0.5, -2.0]), np.array([0.5, -0.3, 1.0])) if moving else (np.zeros(3),) * 3
    f = stewart_leg_forces(p, R, base, plat, mass, inertia, w, al, acc)
    model = mujoco.MjModel.from_xml_string(stewart_mjcf(base, plat, mass, inertia))
    data = mujoco.MjData(model)
    quat = np.zeros(4)
    mujoco.mju_mat2Quat(quat, R.ravel())
    data.qpos[:3], data.qpos[3:7] = p, quat
    data.qvel[:3], data.qvel[3:6] = 0.1, R.T @ w  # free joint: angular velocity in the body frame
    data.ctrl[:] = f  # a positive tendon force lengthens the tendon: a push
    mujoco.mj_forward(model, data)
    # 1e-11: MuJoCo's float64 dynamics of a 6-DOF body (no soft constraints involved).
    np.testing.assert_allclose(data.qacc[:3], acc, atol=1e-11)
    np.testing.assert_allclose(R @ data.qacc[3:6], al, atol=1e-11)
