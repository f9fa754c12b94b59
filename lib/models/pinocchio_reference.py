"""The four-bar and the five-bar of chapter 3.11 built in Pinocchio, for cross-checks.

Chapter 3.11 and ``tests/test_reference_constrained.py`` both check ``lib``'s
constrained dynamics against Pinocchio's ``constraintDynamics`` and
``rnea``; the Pinocchio models they compare with are built here, once. Each
mechanism is a tree of revolute-z joints (uniform rods along each joint
frame's x axis, gravity along -y) with one loop cut at a point, closed by a
3-D point constraint. Pinocchio (``pin``) is imported when a model is built,
so ``lib`` does not depend on it.

Explained in :ref:`sec-cd-crosscheck`.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numpy.typing import ArrayLike

from .._validation import as_vector, positive, positive_array
from ..common import GRAVITY
from .fivebar import FIVEBAR_GEOMETRY
from .fourbar import FOURBAR_LENGTHS

__all__ = ["PinocchioLoop", "fourbar_pinocchio", "fivebar_pinocchio"]


class PinocchioLoop(NamedTuple):
    """A Pinocchio model with one loop closed by a point constraint.

    - ``model``, ``data``: the ``pin.Model`` (a tree) and its ``pin.Data``;
    - ``constraint_models``, ``constraint_datas``: the loop's point constraint,
      initialised for ``pin.constraintDynamics``;
    - ``to_joint_angles``: the matrix taking ``lib``'s maximal coordinates
      ``(x, y, phi)`` per rod to Pinocchio's relative joint angles;
    - ``joints``: the ids of the joints named in the mechanism's order
      (four-bar: crank, coupler, rocker; five-bar: the two distal joints).
    """

    model: Any
    data: Any
    constraint_models: Any
    constraint_datas: Any
    to_joint_angles: np.ndarray
    joints: tuple


def _pin():
    import pinocchio

    return pinocchio


def _rod(pin, mass: float, length: float):
    """A uniform rod along the joint frame's x axis (the off-plane inertia is irrelevant)."""
    return pin.Inertia(mass, np.array([length / 2, 0.0, 0.0]),
                       np.diag([1e-6, mass * length**2 / 12, mass * length**2 / 12]))


def _along_x(pin, x: float):
    return pin.SE3(np.eye(3), np.array([x, 0.0, 0.0]))


def _point_loop(pin, model, joint_a: int, point_a: float, joint_b: int, point_b: float):
    cm = pin.RigidConstraintModel(pin.ContactType.CONTACT_3D, model, joint_a, _along_x(pin, point_a),
                                  joint_b, _along_x(pin, point_b), pin.ReferenceFrame.LOCAL)
    models, datas = pin.StdVec_RigidConstraintModel(), pin.StdVec_RigidConstraintData()
    models.append(cm)
    datas.append(cm.createData())
    return models, datas


def _new_model(pin, gravity: float):
    model = pin.Model()
    model.gravity.linear = np.array([0.0, -gravity, 0.0])
    return model


def fourbar_pinocchio(lengths: ArrayLike = FOURBAR_LENGTHS, density: float = 2.0,
                      gravity: float = GRAVITY) -> PinocchioLoop:
    """The four-bar of :mod:`lib.models.fourbar` in Pinocchio, cut at the coupler-rocker joint.

    Parameters
    ----------
    lengths : array_like, shape (4,)
        Ground, crank, coupler and rocker lengths (m).
    density : float
        Mass per length of the rods (kg/m).
    gravity : float
        Gravitational acceleration along -y (m/s^2).

    Returns
    -------
    PinocchioLoop

    Examples
    --------
    >>> loop = fourbar_pinocchio()
    >>> loop.model.nq, loop.to_joint_angles.shape
    (3, (3, 9))
    """
    pin = _pin()
    l1, l2, l3, l4 = positive_array(lengths, "lengths", (4,))
    rho, g = positive(density, "density"), positive(gravity, "gravity")
    model = _new_model(pin, g)
    crank = model.addJoint(0, pin.JointModelRZ(), pin.SE3.Identity(), "crank")
    model.appendBodyToJoint(crank, _rod(pin, rho * l2, l2), pin.SE3.Identity())
    coupler = model.addJoint(crank, pin.JointModelRZ(), _along_x(pin, l2), "coupler")
    model.appendBodyToJoint(coupler, _rod(pin, rho * l3, l3), pin.SE3.Identity())
    rocker = model.addJoint(0, pin.JointModelRZ(), _along_x(pin, l1), "rocker")
    model.appendBodyToJoint(rocker, _rod(pin, rho * l4, l4), pin.SE3.Identity())
    data = model.createData()
    models, datas = _point_loop(pin, model, coupler, l3, rocker, l4)  # the cut joint
    pin.initConstraintDynamics(model, data, models, datas)
    T = np.zeros((3, 9))
    T[0, 2] = T[1, 5] = T[2, 8] = 1.0
    T[1, 2] = -1.0  # the coupler's angle relative to the crank
    return PinocchioLoop(model, data, models, datas, T, (crank, coupler, rocker))


def fivebar_pinocchio(geometry: ArrayLike = FIVEBAR_GEOMETRY, density: float = 2.0,
                      gravity: float = GRAVITY) -> PinocchioLoop:
    """The five-bar of :mod:`lib.models.fivebar` in Pinocchio: two 2R chains cut at the end point.

    Each chain has a frame ``tip-a`` / ``tip+a`` at its distal rod's end.

    Parameters
    ----------
    geometry : array_like, shape (3,)
        Half the base distance, the proximal and the distal rod length (m).
    density : float
        Mass per length of the rods (kg/m).
    gravity : float
        Gravitational acceleration along -y (m/s^2).

    Returns
    -------
    PinocchioLoop

    Examples
    --------
    >>> loop = fivebar_pinocchio()
    >>> loop.model.nq, len(loop.joints)
    (4, 2)
    """
    pin = _pin()
    a, l1, l2 = as_vector(geometry, "geometry", 3)
    positive_array([l1, l2], "geometry (rod lengths)", (2,))
    rho, g = positive(density, "density"), positive(gravity, "gravity")
    model, distal = _new_model(pin, g), []
    for x in (-a, a):
        j = model.addJoint(0, pin.JointModelRZ(), _along_x(pin, x), f"proximal{x:+}")
        model.appendBodyToJoint(j, _rod(pin, rho * l1, l1), pin.SE3.Identity())
        k = model.addJoint(j, pin.JointModelRZ(), _along_x(pin, l1), f"distal{x:+}")
        model.appendBodyToJoint(k, _rod(pin, rho * l2, l2), pin.SE3.Identity())
        model.addFrame(pin.Frame(f"tip{x:+}", k, _along_x(pin, l2), pin.FrameType.OP_FRAME))
        distal.append(k)
    data = model.createData()
    models, datas = _point_loop(pin, model, distal[0], l2, distal[1], l2)
    pin.initConstraintDynamics(model, data, models, datas)
    T = np.zeros((4, 12))
    T[0, 2] = T[1, 5] = T[2, 8] = T[3, 11] = 1.0
    T[1, 2] = T[3, 8] = -1.0  # distal angles relative to their proximal rods
    return PinocchioLoop(model, data, models, datas, T, tuple(distal))
