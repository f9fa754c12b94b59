"""lib.kinematic_tree against Pinocchio on real robots and a hand-built spatial tree.

Pinocchio parses the URDFs itself (``pin.buildModelFromUrdf``), so the
URDF reading of ``lib.model_files`` is checked too; the hand-built tree is
built in Pinocchio joint by joint here, with Pinocchio's own API. States go
through ``lib.models.pinocchio_tree``'s explicit conversions ((omega, v)
against (v, omega), quaternion (w, x, y, z) against (x, y, z, w)).
Tolerance: 1e-10 relative to the largest entry (the issue's bar). Both
libraries evaluate the same recursions in double precision: the measured
differences are ~1e-15 relative (UR5, Panda, Solo-12, Talos).
"""

from __future__ import annotations

import numpy as np
import pinocchio as pin
import pytest

from lib.common import random_inertia, random_rotation
from lib.errors import ModelFileError, ShapeError
from lib.kinematic_tree import (
    bias_forces,
    body_twists,
    forward_kinematics,
    frame_pose,
    gravity_torques,
    kinematic_tree,
    rnea,
    rnea_mass_matrix,
    tree_kinetic_energy,
    tree_potential_energy,
)
from lib.model_files import parse_urdf_model
from lib.models.pinocchio_tree import (
    from_pinocchio_forces,
    pinocchio_configuration,
    pinocchio_model,
    pinocchio_velocity,
)
from lib.models.robots import load_robot, robot_urdf_path
from lib.spatial import spatial_inertia, transform
from test_model_files import ROBOT, UPPER

RTOL = 1e-10
# (angular, linear) <-> (linear, angular)
SWAP = np.block([[np.zeros((3, 3)), np.eye(3)], [np.eye(3), np.zeros((3, 3))]])
GRAVITY_VECTOR = np.array([0.0, 0.0, -9.81])


def close(actual, expected, what: str) -> None:
    """Agreement to RTOL relative to the largest entry of the reference."""
    scale = max(float(np.max(np.abs(expected))), 1.0)
    np.testing.assert_allclose(
        actual, expected, rtol=0, atol=RTOL * scale, err_msg=what
    )


def random_state(rng, model):
    q = rng.uniform(-np.pi, np.pi, model.nq)
    for i, kind in enumerate(model.joint_types):
        if kind == "free":
            s = model.q_slices[i]
            q[s.start : s.start + 3] = rng.normal(size=3)
            quat = rng.normal(size=4)
            q[s.start + 3 : s.stop] = quat / np.linalg.norm(quat)
    return q, rng.normal(size=model.nv), rng.normal(size=model.nv)


def velocity_matrix(model, pin_model):
    """P with v_pin = P v (a permutation, with the free joints' blocks swapped)."""
    return np.array(
        [pinocchio_velocity(model, pin_model, e) for e in np.eye(model.nv)]
    ).T


def compare(model, pin_model, rng, n_states: int = 10) -> None:
    data = pin_model.createData()
    P = velocity_matrix(model, pin_model)
    g = pin_model.gravity.linear.copy()
    for _ in range(n_states):
        q, v, a = random_state(rng, model)
        qp, vp, ap = (
            pinocchio_configuration(model, pin_model, q),
            pinocchio_velocity(model, pin_model, v),
            pinocchio_velocity(model, pin_model, a),
        )
        close(
            rnea(model, q, v, a, g),
            from_pinocchio_forces(
                model, pin_model, pin.rnea(pin_model, data, qp, vp, ap)
            ),
            "rnea",
        )
        close(
            bias_forces(model, q, v, g),
            from_pinocchio_forces(
                model, pin_model, pin.nonLinearEffects(pin_model, data, qp, vp)
            ),
            "h",
        )
        close(
            gravity_torques(model, q, g),
            from_pinocchio_forces(
                model, pin_model, pin.computeGeneralizedGravity(pin_model, data, qp)
            ),
            "g",
        )
        pin.crba(pin_model, data, qp)
        M_pin = np.triu(data.M) + np.triu(data.M, 1).T
        close(rnea_mass_matrix(model, q), P.T @ M_pin @ P, "M")
        close(
            tree_kinetic_energy(model, q, v),
            pin.computeKineticEnergy(pin_model, data, qp, vp),
            "K",
        )
        close(
            tree_potential_energy(model, q, g),
            pin.computePotentialEnergy(pin_model, data, qp),
            "U",
        )
        pin.forwardKinematics(pin_model, data, qp, vp)
        T, V = forward_kinematics(model, q), body_twists(model, q, v)
        for i, name in enumerate(model.joint_names):
            if model.joint_types[i] == "fixed":
                continue
            j = pin_model.getJointId(name)
            close(T[i], data.oMi[j].homogeneous, f"pose of {name}")
            close(V[i], SWAP @ data.v[j].vector, f"twist of {name}")


@pytest.mark.parametrize("name", ["ur5", "panda", "solo12", "talos"])
def test_robots_from_their_urdf_agree_with_pinocchio(name):
    model = load_robot(name)
    root = [pin.JointModelFreeFlyer()] if "free" in model.joint_types else []
    pin_model = pin.buildModelFromUrdf(str(robot_urdf_path(name)), *root)
    assert [n for n in pin_model.names][1:] == list(
        model.joint_names
    )  # the same order, depth first
    compare(
        model,
        pin_model,
        np.random.default_rng(80),
        n_states=10 if name in ("ur5", "panda") else 3,
    )
    # pinocchio_model builds the same robot from lib's tree
    compare(model, pinocchio_model(model), np.random.default_rng(81), n_states=3)


@pytest.mark.parametrize("name, frame", [("ur5", "tool0"), ("panda", "panda_hand_tcp")])
def test_end_effector_frames_agree_with_pinocchio(name, frame):
    model = load_robot(name)
    pin_model = pin.buildModelFromUrdf(str(robot_urdf_path(name)))
    data = pin_model.createData()
    rng = np.random.default_rng(82)
    for _ in range(10):
        q, _, _ = random_state(rng, model)
        pin.framesForwardKinematics(
            pin_model, data, pinocchio_configuration(model, pin_model, q)
        )
        close(
            frame_pose(model, q, frame),
            data.oMf[pin_model.getFrameId(frame)].homogeneous,
            frame,
        )


def hand_built(rng, floating: bool):
    """A branched spatial tree (offsets, tilted axes, full inertias) in both."""
    parents = [-1, 0, 1, 2, 1, 4, 0]
    kinds = [
        "free" if floating else "revolute",
        "revolute",
        "prismatic",
        "revolute",
        "revolute",
        "revolute",
        "prismatic",
    ]
    axes = rng.normal(size=(7, 3))
    axes /= np.linalg.norm(axes, axis=1, keepdims=True)
    poses = [
        transform(random_rotation(rng), rng.normal(scale=0.4, size=3)) for _ in parents
    ]
    bodies = [
        (rng.uniform(0.5, 4.0), random_inertia(rng), rng.normal(scale=0.2, size=3))
        for _ in parents
    ]
    model = kinematic_tree(
        parents,
        kinds,
        axes,
        poses,
        [spatial_inertia(m, I, com=c) for m, I, c in bodies],
        joint_names=[f"j{i}" for i in range(7)],
    )
    # Pinocchio's own API: unaligned joints, SE3 placements, Inertia(mass, com, inertia
    # about the com)
    pm = pin.Model()
    pm.gravity.linear = np.array([0.5, -1.0, -9.81])
    ids = []
    for i, kind in enumerate(kinds):
        joint = {
            "free": pin.JointModelFreeFlyer,
            "revolute": pin.JointModelRevoluteUnaligned,
            "prismatic": pin.JointModelPrismaticUnaligned,
        }[kind]
        joint = joint() if kind == "free" else joint(axes[i])
        parent = 0 if parents[i] < 0 else ids[parents[i]]
        ids.append(
            pm.addJoint(
                parent, joint, pin.SE3(poses[i][:3, :3], poses[i][:3, 3]), f"j{i}"
            )
        )
        m, I, c = bodies[i]
        pm.appendBodyToJoint(ids[-1], pin.Inertia(m, c, I), pin.SE3.Identity())
    return model, pm


@pytest.mark.parametrize("floating", [False, True])
def test_hand_built_spatial_tree_agrees_with_pinocchio(floating):
    rng = np.random.default_rng(83)
    model, pm = hand_built(rng, floating)
    compare(model, pm, rng, n_states=20)


@pytest.mark.parametrize("root_joint", ["fixed", "free"])
def test_a_urdf_with_every_joint_type_agrees_with_pinocchio(root_joint):
    """Continuous (Pinocchio: cos, sin), prismatic, fixed, tilted origins, a branch."""
    text = ROBOT.format(upper=UPPER)
    model = parse_urdf_model(text, root_joint=root_joint)
    root = [pin.JointModelFreeFlyer()] if root_joint == "free" else []
    pin_model = pin.buildModelFromXML(text, *root)
    assert pin_model.nq == model.nq + 1  # the continuous elbow's (cos q, sin q)
    compare(model, pin_model, np.random.default_rng(85), n_states=10)


def test_batches_agree_with_pinocchio_state_by_state():
    model = load_robot("panda")
    pm = pin.buildModelFromUrdf(str(robot_urdf_path("panda")))
    data = pm.createData()
    rng = np.random.default_rng(84)
    q, v, a = (rng.normal(size=(50, model.nv)) for _ in range(3))
    tau = rnea(model, q, v, a)
    for k in range(50):
        close(
            tau[k], pin.rnea(pm, data, q[k], v[k], a[k]), "batched rnea"
        )  # Panda: no conversion needed


def test_conversions_refuse_a_different_robot():
    ur5 = load_robot("ur5")
    panda_pin = pin.buildModelFromUrdf(str(robot_urdf_path("panda")))
    with pytest.raises(ModelFileError, match="pin_model's joints"):
        pinocchio_configuration(ur5, panda_pin, np.zeros(6))
    with pytest.raises(ShapeError, match="pin_model must be a pinocchio.Model"):
        pinocchio_velocity(ur5, "ur5", np.zeros(6))
