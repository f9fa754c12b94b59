"""Tests of lib.kinematic_tree: closed forms, second computations, batches, bad input.

Pinocchio's cross-checks are in tests/test_reference_kinematic_tree.py.
Tolerances: the RNEA and the closed forms evaluate the same products of
O(1) numbers in double precision, so they agree to ~1e-15 relative; 1e-12 is
used unless a comment gives a reason for more.
"""

from __future__ import annotations

import numpy as np
import pytest

from lib.common import GRAVITY, random_inertia, random_rotation
from lib.errors import (
    NonFiniteError,
    NonPhysicalInertiaError,
    NonPositiveValueError,
    NotATransformError,
    OutOfRangeError,
    ShapeError,
)
from lib.inertia import skew
from lib.integrate import rk4
from lib.kinematic_tree import (
    bias_forces,
    body_twists,
    forward_kinematics,
    frame_pose,
    gravity_torques,
    joint_wrenches,
    kinematic_tree,
    merge_fixed_joints,
    rnea,
    rnea_mass_matrix,
    tree_kinetic_energy,
    tree_potential_energy,
)
from lib.model_files import quat_to_rotation
from lib.models.planar_2r_arm import planar_2r_arm
from lib.models.planar_chain import planar_chain_dynamics
from lib.models.robots import load_robot
from lib.rigid_body import newton_euler_wrench, spatial_newton_euler
from lib.spatial import adjoint, spatial_inertia, transform

RTOL = 1e-12
ATOL = 1e-12


def _along_x(x: float) -> np.ndarray:
    return transform(np.eye(3), [x, 0.0, 0.0])


def planar_arm(lengths=(0.5, 0.5), masses=(2.0, 2.0)):
    """lib.models.planar_2r_arm's rods as a tree: joints about z, rods along x."""
    inertias = [
        spatial_inertia(
            m, np.diag([0.0, m * l * l / 12, m * l * l / 12]), com=[l / 2, 0.0, 0.0]
        )
        for l, m in zip(lengths, masses)
    ]
    return kinematic_tree(
        [-1, 0],
        ["revolute"] * 2,
        [[0, 0, 1.0]] * 2,
        [np.eye(4), _along_x(lengths[0])],
        inertias,
    )


def spatial_chain(rng: np.random.Generator, base: str = "revolute"):
    """A branched spatial tree: offsets, tilted axes, full inertias, all joint kinds."""
    parents = [-1, 0, 1, 2, 1, 4]
    types = [base, "revolute", "prismatic", "revolute", "revolute", "fixed"]
    axes = rng.normal(size=(6, 3))
    placements = [
        transform(random_rotation(rng), rng.normal(scale=0.3, size=3)) for _ in parents
    ]
    inertias = [
        spatial_inertia(
            rng.uniform(0.5, 3.0),
            random_inertia(rng),
            com=rng.normal(scale=0.2, size=3),
        )
        for _ in parents
    ]
    return kinematic_tree(
        parents, types, axes, placements, inertias, frames={"tip": (3, placements[0])}
    )


def random_state(rng: np.random.Generator, model, n: int | None = None):
    shape = () if n is None else (n,)
    q = rng.uniform(-np.pi, np.pi, shape + (model.nq,))
    for i, kind in enumerate(model.joint_types):
        if kind == "free":
            s = model.q_slices[i]
            quat = rng.normal(size=shape + (4,))
            q[..., s.start + 3 : s.stop] = quat / np.linalg.norm(
                quat, axis=-1, keepdims=True
            )
    return q, rng.normal(size=shape + (model.nv,)), rng.normal(size=shape + (model.nv,))


# ------------------------------------------------------------------------- closed forms


def test_planar_2r_arm_matches_the_closed_form_and_lib_models():
    rng = np.random.default_rng(70)
    l1, l2, m1, m2 = 0.7, 0.4, 3.0, 1.5
    arm = planar_arm((l1, l2), (m1, m2))
    g = np.array([0.0, -GRAVITY, 0.0])
    for _ in range(50):
        q, qd, qdd = rng.normal(size=(3, 2))
        c2, s2 = np.cos(q[1]), np.sin(q[1])
        # the textbook closed form of two uniform rods (Lagrange)
        M = np.array(
            [
                [
                    m1 * l1**2 / 3 + m2 * (l1**2 + l2**2 / 3 + l1 * l2 * c2),
                    m2 * (l2**2 / 3 + l1 * l2 * c2 / 2),
                ],
                [m2 * (l2**2 / 3 + l1 * l2 * c2 / 2), m2 * l2**2 / 3],
            ]
        )
        k = m2 * l1 * l2 * s2 / 2
        coriolis = np.array([-k * (2 * qd[0] * qd[1] + qd[1] ** 2), k * qd[0] ** 2])
        gq = GRAVITY * np.array(
            [
                (m1 / 2 + m2) * l1 * np.cos(q[0]) + m2 * l2 / 2 * np.cos(q[0] + q[1]),
                m2 * l2 / 2 * np.cos(q[0] + q[1]),
            ]
        )
        np.testing.assert_allclose(
            rnea(arm, q, qd, qdd, g), M @ qdd + coriolis + gq, rtol=RTOL, atol=ATOL
        )
        np.testing.assert_allclose(rnea_mass_matrix(arm, q), M, rtol=RTOL, atol=ATOL)
        np.testing.assert_allclose(gravity_torques(arm, q, g), gq, rtol=RTOL, atol=ATOL)
        np.testing.assert_allclose(
            bias_forces(arm, q, qd, g), coriolis + gq, rtol=RTOL, atol=ATOL
        )
        # the same arm in lib.models (chapters 3.11 and 3.12)
        M_models, h_models = planar_chain_dynamics(q, qd, [l1, l2], [m1, m2])
        np.testing.assert_allclose(
            rnea_mass_matrix(arm, q), M_models, rtol=RTOL, atol=ATOL
        )
        np.testing.assert_allclose(
            bias_forces(arm, q, qd, g), h_models, rtol=RTOL, atol=ATOL
        )
        np.testing.assert_allclose(
            rnea_mass_matrix(arm, q),
            planar_2r_arm(q, [l1, l2], [m1, m2])[0],
            rtol=RTOL,
            atol=ATOL,
        )
        # forward kinematics: the elbow and the tip frame
        T = forward_kinematics(arm, q)
        np.testing.assert_allclose(
            T[1, :3, 3],
            [l1 * np.cos(q[0]), l1 * np.sin(q[0]), 0.0],
            rtol=RTOL,
            atol=ATOL,
        )
        np.testing.assert_allclose(
            T[1, :2, 0], [np.cos(q.sum()), np.sin(q.sum())], rtol=RTOL, atol=ATOL
        )


def test_single_free_body_is_3_1s_newton_euler_with_gravity():
    rng = np.random.default_rng(71)
    g = np.array([0.3, -1.2, -GRAVITY])
    for _ in range(50):
        mass, inertia, com = (
            rng.uniform(0.5, 5.0),
            random_inertia(rng),
            rng.normal(size=3),
        )
        G = spatial_inertia(mass, inertia, com=com)
        body = kinematic_tree([-1], ["free"], np.zeros((1, 3)), [np.eye(4)], [G])
        q, V, Vd = random_state(rng, body)
        R = forward_kinematics(body, q)[0, :3, :3]
        # gravity enters as the ground accelerating upwards: Vd - (0, R^T g)
        expected = spatial_newton_euler(
            G, V, Vd - np.concatenate([np.zeros(3), R.T @ g])
        )
        np.testing.assert_allclose(
            rnea(body, q, V, Vd, g), expected, rtol=RTOL, atol=ATOL
        )
        np.testing.assert_allclose(body_twists(body, q, V)[0], V, rtol=RTOL, atol=ATOL)
        # with the body frame at the COM: m (vd + w x v) - m R^T g and I wd + w x I w
        G_c = spatial_inertia(mass, inertia)
        at_com = kinematic_tree([-1], ["free"], np.zeros((1, 3)), [np.eye(4)], [G_c])
        wrench = newton_euler_wrench(mass, inertia, V[:3], Vd[:3], V[3:], Vd[3:])
        wrench[3:] -= mass * R.T @ g
        np.testing.assert_allclose(
            rnea(at_com, q, V, Vd, g), wrench, rtol=RTOL, atol=ATOL
        )
        # the free joint's pose: position p, orientation of the quaternion (w, x, y, z)
        w, x, y, z = q[3:]
        np.testing.assert_allclose(
            R[:, 0],
            [1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)],
            rtol=RTOL,
            atol=ATOL,
        )
        np.testing.assert_allclose(
            forward_kinematics(body, q)[0, :3, 3], q[:3], rtol=RTOL, atol=ATOL
        )


def test_pendulum_joint_wrench_carries_the_weight():
    G = spatial_inertia(2.0, np.zeros((3, 3)), com=[0.5, 0.0, 0.0])
    pendulum = kinematic_tree([-1], ["revolute"], [[0, 0, 1.0]], [np.eye(4)], [G])
    # hanging still at q = 0 in gravity -y: the bearing pushes up 2 g, the motor holds m
    # g l/2
    F = joint_wrenches(pendulum, [0.0], [0.0], [0.0], [0.0, -GRAVITY, 0.0])
    np.testing.assert_allclose(
        F, [[0.0, 0.0, 2 * GRAVITY * 0.5, 0.0, 2 * GRAVITY, 0.0]], rtol=RTOL, atol=ATOL
    )


# ------------------------------------------------------------------ second computations


@pytest.mark.parametrize("base", ["revolute", "free"])
def test_mass_matrix_energy_and_gravity_agree_with_each_other(base):
    rng = np.random.default_rng(72)
    model = spatial_chain(rng, base)
    g = np.array([0.0, 0.0, -GRAVITY])
    for _ in range(20):
        q, v, a = random_state(rng, model)
        M = rnea_mass_matrix(model, q)
        assert np.linalg.eigvalsh(M)[0] > 0.0
        np.testing.assert_allclose(M, M.T, rtol=0, atol=0)  # symmetrised exactly
        # tau = M a + h, with h and g from the same RNEA
        np.testing.assert_allclose(
            rnea(model, q, v, a, g),
            M @ a + bias_forces(model, q, v, g),
            rtol=RTOL,
            atol=ATOL * np.abs(M).max(),
        )
        # the kinetic energy two ways: sum of body energies and v^T M v / 2
        np.testing.assert_allclose(
            tree_kinetic_energy(model, q, v), 0.5 * v @ M @ v, rtol=RTOL
        )
        # joint forces are S_i^T F_i of the joint wrenches
        F = joint_wrenches(model, q, v, a, g)
        tau = rnea(model, q, v, a, g)
        for i in range(model.n_bodies):
            np.testing.assert_allclose(
                tau[model.v_slices[i]], model.S[i].T @ F[i], rtol=RTOL, atol=ATOL
            )


def test_gravity_torques_are_the_gradient_of_the_potential_energy():
    rng = np.random.default_rng(73)
    model = spatial_chain(rng)
    g = np.array([1.0, -2.0, -GRAVITY])
    step = 1e-6
    for _ in range(10):
        q, _, _ = random_state(rng, model)
        grad = np.array(
            [
                (
                    tree_potential_energy(model, q + step * e, g)
                    - tree_potential_energy(model, q - step * e, g)
                )
                / (2 * step)
                for e in np.eye(model.nq)
            ]
        )
        # central differences: truncation step^2 ~ 1e-12, round-off eps U / step ~ 1e-10
        # relative
        np.testing.assert_allclose(
            gravity_torques(model, q, g), grad, rtol=1e-7, atol=1e-7
        )


def test_kept_and_merged_fixed_joints_give_the_same_dynamics():
    rng = np.random.default_rng(74)
    model = spatial_chain(rng)
    merged = merge_fixed_joints(model)
    assert "fixed" not in merged.joint_types and merged.nv == model.nv
    assert merged.n_bodies == model.n_bodies - 1
    for _ in range(20):
        q, v, a = random_state(rng, model)
        # the merged inertia went through transform_spatial_inertia: a few more round-
        # offs
        np.testing.assert_allclose(
            rnea(merged, q, v, a), rnea(model, q, v, a), rtol=1e-11, atol=1e-11
        )
        np.testing.assert_allclose(
            frame_pose(merged, q, model.names[5]),
            forward_kinematics(model, q)[5],
            rtol=RTOL,
            atol=ATOL,
        )
        np.testing.assert_allclose(
            frame_pose(merged, q, "tip"),
            frame_pose(model, q, "tip"),
            rtol=RTOL,
            atol=ATOL,
        )
    panda = load_robot("panda")
    assert (
        "panda_hand_tcp" in panda.frames and panda.joint_types.count("prismatic") == 2
    )


def test_twists_are_the_derivatives_of_the_poses():
    rng = np.random.default_rng(75)
    model = spatial_chain(rng, "free")
    q, v, _ = random_state(rng, model)
    dt = 1e-6
    # a short step along v: the free joint's position moves by R_J v dt, its quaternion
    # by q x (w dt / 2)
    T0 = forward_kinematics(model, q)
    step = q.copy()
    step[0:3] += quat_to_rotation(q[3:7]) @ v[3:6] * dt  # p is in the joint frame
    w, x, y, z = q[3:7]
    ox, oy, oz = v[0:3] * dt / 2
    step[3:7] += [
        -x * ox - y * oy - z * oz,
        w * ox + y * oz - z * oy,
        w * oy + z * ox - x * oz,
        w * oz + x * oy - y * ox,
    ]
    step[7:] += v[6:] * dt
    T1 = forward_kinematics(model, step)
    V = body_twists(model, q, v)
    for i in range(model.n_bodies):
        # T^-1 dT/dt = [V]: first-order differences, error ~ dt |V|^2 ~ 1e-5
        Tdot = (T1[i] - T0[i]) / dt
        body = np.linalg.solve(T0[i], Tdot)
        np.testing.assert_allclose(body[:3, :3], skew(V[i, :3]), atol=1e-5)
        np.testing.assert_allclose(body[:3, 3], V[i, 3:], atol=1e-5)


def test_batches_equal_the_single_states():
    rng = np.random.default_rng(76)
    for model in (spatial_chain(rng, "free"), load_robot("ur5")):
        q, v, a = random_state(rng, model, 7)
        batch = rnea(model, q, v, a)
        assert batch.shape == (7, model.nv)
        for k in range(7):
            # the same operations on the same numbers; only the order of a batched
            # matmul may differ
            np.testing.assert_allclose(
                batch[k], rnea(model, q[k], v[k], a[k]), rtol=1e-14, atol=1e-14
            )
            np.testing.assert_allclose(
                rnea_mass_matrix(model, q)[k],
                rnea_mass_matrix(model, q[k]),
                rtol=1e-14,
                atol=1e-14,
            )
            np.testing.assert_allclose(
                forward_kinematics(model, q)[k],
                forward_kinematics(model, q[k]),
                rtol=1e-14,
                atol=1e-14,
            )
            np.testing.assert_allclose(
                tree_potential_energy(model, q)[k],
                tree_potential_energy(model, q[k]),
                rtol=1e-14,
                atol=1e-14,
            )
        assert body_twists(model, q, v).shape == (7, model.n_bodies, 6)
        assert joint_wrenches(model, q, v, a).shape == (7, model.n_bodies, 6)


def test_power_balance_along_a_simulated_ur5_trajectory():
    """tau^T v = dE/dt: the work of the joint torques equals the change of K + U."""
    ur5 = load_robot("ur5")
    n = ur5.nv
    q_goal = np.array([0.5, -1.0, 1.2, -0.3, 0.8, 0.1])

    def torque(q, v):
        return (
            20.0 * (q_goal - q) - 2.0 * v
        )  # a PD controller; gravity is not compensated

    def rhs(t, y):
        q, v = y[:n], y[n : 2 * n]
        tau = torque(q, v)
        a = np.linalg.solve(rnea_mass_matrix(ur5, q), tau - bias_forces(ur5, q, v))
        return np.concatenate([v, a, [tau @ v]])  # the last entry integrates the power

    y0 = np.concatenate([np.zeros(n), [1.0, -0.5, 0.5, 0.0, 2.0, -1.0], [0.0]])
    _, states = rk4(rhs, y0, 0.0, 1e-3, 1000)
    q, v, work = states[:, :n], states[:, n : 2 * n], states[:, -1]
    energy = tree_kinetic_energy(ur5, q, v) + tree_potential_energy(ur5, q)
    # RK4's error: measured 4.2e-9 of the energy's range at h = 1 ms (7.2e-8 at 2 ms:
    # h^4)
    np.testing.assert_allclose(
        energy - energy[0], work, rtol=0, atol=2e-8 * np.ptp(energy)
    )
    assert np.ptp(energy) > 10.0  # the robot moved and exchanged energy with its motors
    # and pointwise: tau^T v = dE/dt along a prescribed trajectory (rnea with the chosen
    # a)
    t = 0.3
    qt = np.sin(np.arange(1, n + 1) * t)
    vt = np.arange(1, n + 1) * np.cos(np.arange(1, n + 1) * t)
    at = -(np.arange(1, n + 1) ** 2) * np.sin(np.arange(1, n + 1) * t)
    dt = 1e-5

    def E(s):
        k = np.arange(1, n + 1)
        return tree_kinetic_energy(
            ur5, np.sin(k * s), k * np.cos(k * s)
        ) + tree_potential_energy(ur5, np.sin(k * s))

    # central difference: truncation dt^2 ~ 1e-10, round-off eps E / dt ~ 1e-10
    # (measured 2.2e-10)
    np.testing.assert_allclose(
        rnea(ur5, qt, vt, at) @ vt, (E(t + dt) - E(t - dt)) / (2 * dt), rtol=2e-9
    )


# --------------------------------------------------------------------------- bad input


def test_bad_trees_are_rejected_with_clear_errors():
    G = spatial_inertia(1.0, np.diag([0.1, 0.1, 0.1]))
    E = np.eye(4)
    z = [[0, 0, 1.0]]
    with pytest.raises(OutOfRangeError, match=r"joint_types\[0\] must be one of"):
        kinematic_tree([-1], ["spherical"], z, [E], [G])
    with pytest.raises(
        OutOfRangeError, match=r"parents\[1\] = 1 must lie in \[-1, 0\].*loop"
    ):
        kinematic_tree([-1, 1], ["revolute"] * 2, z * 2, [E, E], [G, G])
    with pytest.raises(OutOfRangeError, match=r"parents\[0\]"):
        kinematic_tree([0], ["revolute"], z, [E], [G])
    with pytest.raises(ShapeError, match=r"parents\[0\] must be a whole number"):
        kinematic_tree([-0.5], ["revolute"], z, [E], [G])
    with pytest.raises(ShapeError, match="joint_types must be a sequence of 2"):
        kinematic_tree([-1, 0], ["revolute"], z * 2, [E, E], [G, G])
    with pytest.raises(ShapeError, match=r"axes must have shape \(2, 3\)"):
        kinematic_tree([-1, 0], ["revolute"] * 2, z, [E, E], [G, G])
    with pytest.raises(NonPositiveValueError, match=r"axes\[0\]"):
        kinematic_tree([-1], ["revolute"], [[0, 0, 0.0]], [E], [G])
    with pytest.raises(NotATransformError, match=r"placements\[0\]"):
        kinematic_tree([-1], ["revolute"], z, [2 * E], [G])
    with pytest.raises(
        NonPhysicalInertiaError, match=r"inertias\[0\] must be a rigid body's"
    ):
        kinematic_tree([-1], ["revolute"], z, [E], [np.diag([1.0, 1, 1, 1, 2, 3])])
    with pytest.raises(NonPhysicalInertiaError, match=r"inertias\[0\]"):
        kinematic_tree([-1], ["revolute"], z, [E], [-G])
    skewless = G.copy()
    skewless[0, 4] = skewless[4, 0] = 0.01  # symmetric, positive definite, no m [c]
    with pytest.raises(NonPhysicalInertiaError, match="skew-symmetric block m"):
        kinematic_tree([-1], ["revolute"], z, [E], [skewless])
    flat = np.diag([0.1, 0.1, 0.3, 1.0, 1.0, 1.0])  # positive definite, 0.1 + 0.1 < 0.3
    with pytest.raises(NonPhysicalInertiaError, match="triangle inequality"):
        kinematic_tree([-1], ["revolute"], z, [E], [flat])
    massless = np.diag([0.1, 0.1, 0.1, 0.0, 0.0, 0.0])
    with pytest.raises(
        NonPhysicalInertiaError, match="zero mass but a non-zero inertia"
    ):
        kinematic_tree([-1], ["revolute"], z, [E], [massless])
    with pytest.raises(NonFiniteError, match="inertias"):
        kinematic_tree([-1], ["revolute"], z, [E], [G * np.nan])
    with pytest.raises(ShapeError, match="names must be unique"):
        kinematic_tree(
            [-1, 0], ["revolute"] * 2, z * 2, [E, E], [G, G], names=["a", "a"]
        )
    with pytest.raises(OutOfRangeError, match="frames"):
        kinematic_tree([-1], ["revolute"], z, [E], [G], frames={"tip": (3, E)})


def test_bad_states_are_rejected_with_clear_errors():
    arm = planar_arm()
    with pytest.raises(ShapeError, match=r"q must have shape \(2,\), got shape \(3,\)"):
        rnea(arm, [0.0, 0.0, 0.0], [0.0, 0.0], [0.0, 0.0])
    with pytest.raises(ShapeError, match=r"v must have shape \(2,\)"):
        rnea(arm, [0.0, 0.0], [0.0], [0.0, 0.0])
    with pytest.raises(ShapeError, match=r"a must have shape \(4, 2\)"):
        rnea(arm, np.zeros((4, 2)), np.zeros((4, 2)), np.zeros((3, 2)))
    with pytest.raises(ShapeError, match=r"v must have shape \(2,\)"):
        rnea(
            arm, [0.0, 0.0], np.zeros((1, 2)), [0.0, 0.0]
        )  # a batch of one is not one state
    with pytest.raises(NonFiniteError, match="a contains NaN"):
        rnea(arm, [0.0, 0.0], [0.0, 0.0], [np.nan, 0.0])
    with pytest.raises(NonFiniteError, match="q contains NaN"):
        forward_kinematics(arm, [np.inf, 0.0])
    with pytest.raises(ShapeError, match="gravity must have shape"):
        rnea(arm, [0.0, 0.0], [0.0, 0.0], [0.0, 0.0], gravity=9.81)
    with pytest.raises(ShapeError, match="model must be a KinematicTree"):
        rnea("ur5", [0.0, 0.0], [0.0, 0.0], [0.0, 0.0])
    with pytest.raises(OutOfRangeError, match="name must be one of"):
        frame_pose(arm, [0.0, 0.0], "hand")
    body = kinematic_tree(
        [-1], ["free"], np.zeros((1, 3)), [np.eye(4)], [spatial_inertia(1.0, np.eye(3))]
    )
    with pytest.raises(NonPositiveValueError, match="the norm of quat"):
        rnea(body, np.zeros(7), np.zeros(6), np.zeros(6))
