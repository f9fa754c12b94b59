"""lib.tree_dynamics against Pinocchio on UR5, Panda, Solo-12, Talos, hand-built trees.

Pinocchio parses the URDFs itself (``pin.buildModelFromUrdf``); the hand-built
trees (branched, offsets, tilted axes, full inertias, fixed and free root)
are built joint by joint with Pinocchio's API in
``tests/test_reference_kinematic_tree.py``. States go through
``lib.models.pinocchio_tree``'s conversions; matrices through the
permutation ``P`` (``v_pin = P v``, a free joint's ``(omega, v)`` swapped)
and ``SWAP`` ((angular, linear) against Pinocchio's (linear, angular)).
Tolerance: 1e-10 relative to the largest entry of the reference (the
issue's bar). Both libraries evaluate the same recursions in double
precision; measured: ~1e-15 for CRBA, C, the regressor and the momentum,
~1e-13 for the ABA (its accelerations pass through ``M^-1``).
"""

from __future__ import annotations

import numpy as np
import pinocchio as pin
import pytest

from lib.kinematic_tree import rnea
from lib.models.pinocchio_tree import (
    from_pinocchio_forces,
    pinocchio_configuration,
    pinocchio_velocity,
)
from lib.models.robots import load_robot, robot_urdf_path
from lib.tree_dynamics import (
    aba,
    center_of_mass,
    centroidal_momentum,
    centroidal_momentum_matrix,
    coriolis_matrix,
    crba,
    inertial_parameters,
    regressor,
)
from test_reference_kinematic_tree import (
    SWAP,
    close,
    hand_built,
    random_state,
    velocity_matrix,
)

#: Pinocchio's dynamic parameters (m, mc, I_xx, I_xy, I_yy, I_xz, I_yz, I_zz) taken
#: from lib's order (m, mc, I_xx, I_yy, I_zz, I_xy, I_xz, I_yz)
TO_PIN_ORDER = [0, 1, 2, 3, 4, 7, 5, 8, 9, 6]


def compare(model, pin_model, rng, n_states: int) -> None:
    data = pin_model.createData()
    P = velocity_matrix(model, pin_model)
    g = pin_model.gravity.linear.copy()
    for _ in range(n_states):
        q, v, a = random_state(rng, model)
        tau = rng.normal(size=model.nv)
        qp, vp, ap = (
            pinocchio_configuration(model, pin_model, q),
            pinocchio_velocity(model, pin_model, v),
            pinocchio_velocity(model, pin_model, a),
        )
        M_pin = pin.crba(pin_model, data, qp)
        M_pin = np.triu(M_pin) + np.triu(M_pin, 1).T  # pin.crba fills the upper half
        close(crba(model, q), P.T @ M_pin @ P, "crba")
        # tau is a joint force: Pinocchio's order is the velocities'
        tau_pin = pinocchio_velocity(model, pin_model, tau)
        qdd_pin = pin.aba(pin_model, data, qp, vp, tau_pin)
        close(aba(model, q, v, tau, g), P.T @ qdd_pin, "aba")
        C_pin = pin.computeCoriolisMatrix(pin_model, data, qp, vp)
        close(coriolis_matrix(model, q, v), P.T @ C_pin @ P, "coriolis_matrix")
        # regressor: Pinocchio's rows in its joint order, columns per joint in its
        # parameter order, about the joint frame (lib's body frame)
        Y_pin = pin.computeJointTorqueRegressor(pin_model, data, qp, vp, ap)
        Y_pin = from_pinocchio_forces(model, pin_model, Y_pin.T).T
        Y = regressor(model, q, v, a, g)
        n_b = model.n_bodies
        close(
            Y.reshape(model.nv, n_b, 10)[:, :, TO_PIN_ORDER],
            Y_pin.reshape(model.nv, n_b, 10),
            "regressor",
        )
        pi_pin = np.concatenate(
            [pin_model.inertias[j].toDynamicParameters() for j in range(1, n_b + 1)]
        )
        close(
            inertial_parameters(model).reshape(n_b, 10)[:, TO_PIN_ORDER],
            pi_pin.reshape(n_b, 10),
            "inertial parameters",
        )
        close(Y @ inertial_parameters(model), rnea(model, q, v, a, g), "Y pi")
        pin.ccrba(pin_model, data, qp, vp)
        close(centroidal_momentum_matrix(model, q), SWAP @ data.Ag @ P, "A_G")
        close(centroidal_momentum(model, q, v), SWAP @ data.hg.vector, "h_G")
        close(center_of_mass(model, q), data.com[0], "com")


@pytest.mark.parametrize("name", ["ur5", "panda", "solo12", "talos"])
def test_robots_agree_with_pinocchio(name):
    model = load_robot(name)
    root = [pin.JointModelFreeFlyer()] if "free" in model.joint_types else []
    pin_model = pin.buildModelFromUrdf(str(robot_urdf_path(name)), *root)
    assert list(pin_model.names)[1:] == list(model.joint_names)  # same bodies, order
    compare(model, pin_model, np.random.default_rng(90), n_states=10)


@pytest.mark.parametrize("floating", [False, True])
def test_hand_built_spatial_trees_agree_with_pinocchio(floating):
    rng = np.random.default_rng(91)
    model, pin_model = hand_built(rng, floating)
    compare(model, pin_model, rng, n_states=20)


@pytest.mark.parametrize("name", ["panda", "talos"])
def test_batches_agree_with_pinocchio_state_by_state(name):
    model = load_robot(name)
    root = [pin.JointModelFreeFlyer()] if "free" in model.joint_types else []
    pin_model = pin.buildModelFromUrdf(str(robot_urdf_path(name)), *root)
    data = pin_model.createData()
    P = velocity_matrix(model, pin_model)
    rng = np.random.default_rng(92)
    states = [random_state(rng, model) for _ in range(30)]
    q, v, tau = (np.array(x) for x in zip(*states))
    qdd, M, C = aba(model, q, v, tau), crba(model, q), coriolis_matrix(model, q, v)
    for k in range(30):
        qp = pinocchio_configuration(model, pin_model, q[k])
        vp = pinocchio_velocity(model, pin_model, v[k])
        tp = pinocchio_velocity(model, pin_model, tau[k])
        close(qdd[k], P.T @ pin.aba(pin_model, data, qp, vp, tp), "batched aba")
        M_pin = pin.crba(pin_model, data, qp)
        close(M[k], P.T @ (np.triu(M_pin) + np.triu(M_pin, 1).T) @ P, "batched crba")
        C_pin = pin.computeCoriolisMatrix(pin_model, data, qp, vp)
        close(C[k], P.T @ C_pin @ P, "batched C")
