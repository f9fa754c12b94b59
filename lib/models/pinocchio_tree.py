"""Kinematic trees in Pinocchio, for the cross-checks of chapters 3.2 and 3.3.

Pinocchio orders a twist ``(v, omega)`` and a wrench ``(f, m)``, stores a
free flyer's quaternion ``(x, y, z, w)`` and a continuous joint's angle as
``(cos q, sin q)``; ``lib`` uses ``(omega, v)``, ``(m, f)``, ``(w, x, y, z)``
and the angle. The conversions happen here, explicitly, and nowhere else:
:func:`pinocchio_model` builds a ``pin.Model`` from a tree (any tree, also a
hand-built one), :func:`pinocchio_configuration` and
:func:`pinocchio_velocity` carry a state of the tree to a Pinocchio model
whose joints have the same names (one built here or by
``pin.buildModelFromUrdf``), and :func:`from_pinocchio_forces` carries joint
forces back. Pinocchio (``pin``) is imported when a function runs, so
``lib`` does not depend on it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from .._validation import FloatArray, as_array, as_vector, instance_of
from ..common import GRAVITY
from ..errors import ModelFileError, ShapeError
from ..kinematic_tree import KinematicTree, merge_fixed_joints

__all__ = [
    "pinocchio_model",
    "pinocchio_configuration",
    "pinocchio_velocity",
    "from_pinocchio_forces",
]


def _pin():
    import pinocchio

    return pinocchio


def _pin_model(pin, value) -> Any:
    if not isinstance(value, pin.Model):
        raise ShapeError(
            f"pin_model must be a pinocchio.Model, got {type(value).__name__}"
        )
    return value


def _com_and_inertia(G: FloatArray) -> tuple[float, FloatArray, FloatArray]:
    """Mass, COM and inertia about the COM of a spatial inertia ``G``."""
    m = float(G[3, 3])
    if m == 0.0:
        return 0.0, np.zeros(3), np.zeros((3, 3))
    c = np.array([G[2, 4], G[0, 5], G[1, 3]]) / m
    cx = np.array([[0.0, -c[2], c[1]], [c[2], 0.0, -c[0]], [-c[1], c[0], 0.0]])
    return m, c, G[:3, :3] + m * cx @ cx


def pinocchio_model(
    model: KinematicTree, gravity: ArrayLike = (0.0, 0.0, -GRAVITY)
) -> Any:
    """The tree as a ``pin.Model``: one Pinocchio joint per moving joint, same names.

    Fixed joints are merged first (:func:`lib.kinematic_tree.merge_fixed_joints`);
    revolute and prismatic joints become Pinocchio's unaligned joints about
    the same axis, a free joint a ``JointModelFreeFlyer``. Explained in
    :ref:`sec-rn-crosscheck`.

    Parameters
    ----------
    model : KinematicTree
        The tree.
    gravity : array_like, shape (3,), optional
        Gravitational acceleration in the world frame, m/s^2 (stored in the
        Pinocchio model).

    Returns
    -------
    pinocchio.Model

    Raises
    ------
    ShapeError, NonFiniteError
        If ``model`` is not a tree or ``gravity`` not a finite 3-vector.

    Examples
    --------
    >>> from lib.models.robots import load_robot
    >>> from lib.models.pinocchio_tree import pinocchio_model
    >>> pin_ur5 = pinocchio_model(load_robot("ur5"))
    >>> pin_ur5.nq, pin_ur5.names[1]
    (6, 'shoulder_pan_joint')
    """
    instance_of(model, KinematicTree, "model")
    g = as_vector(gravity, "gravity", 3)
    pin = _pin()
    tree = merge_fixed_joints(model)
    out = pin.Model()
    out.gravity.linear = g
    ids = []
    for i, kind in enumerate(tree.joint_types):
        parent = 0 if tree.parents[i] < 0 else ids[tree.parents[i]]
        if kind == "revolute":
            joint = pin.JointModelRevoluteUnaligned(tree.axes[i])
        elif kind == "prismatic":
            joint = pin.JointModelPrismaticUnaligned(tree.axes[i])
        else:
            joint = pin.JointModelFreeFlyer()
        X = tree.placements[i]
        jid = out.addJoint(
            parent, joint, pin.SE3(X[:3, :3], X[:3, 3]), tree.joint_names[i]
        )
        m, c, inertia = _com_and_inertia(tree.inertias[i])
        body = pin.Inertia.Zero() if m == 0.0 else pin.Inertia(m, c, inertia)
        out.appendBodyToJoint(jid, body, pin.SE3.Identity())
        ids.append(jid)
    return out


def _joint_map(model: KinematicTree, pin_model) -> list:
    """(kind, q slice, v slice, pin idx_q, pin nq, pin idx_v) per moving joint."""
    names = list(pin_model.names)[1:]
    mine = [n for n, t in zip(model.joint_names, model.joint_types) if t != "fixed"]
    if sorted(names) != sorted(mine) or pin_model.nv != model.nv:
        raise ModelFileError(
            f"pin_model's joints {names} are not the tree's moving joints {mine}"
        )
    out = []
    for i, kind in enumerate(model.joint_types):
        if kind == "fixed":
            continue
        joint = pin_model.joints[pin_model.getJointId(model.joint_names[i])]
        if joint.nv != (6 if kind == "free" else 1):
            raise ModelFileError(
                f"pin_model's joint {model.joint_names[i]!r} has {joint.nv} "
                "velocities, "
                f"the tree's {kind} joint has {model.S[i].shape[1]}"
            )
        out.append(
            (
                kind,
                model.q_slices[i],
                model.v_slices[i],
                joint.idx_q,
                joint.nq,
                joint.idx_v,
            )
        )
    return out


def _stack(value: ArrayLike, name: str, size: int) -> FloatArray:
    return as_array(value, name, [None] * (np.ndim(value) - 1) + [size])


def pinocchio_configuration(
    model: KinematicTree, pin_model: Any, q: ArrayLike
) -> FloatArray:
    """The tree's coordinates ``q`` as the Pinocchio model's configuration vector.

    Free joints: ``(p, w, x, y, z)`` becomes ``(p, x, y, z, w)``; a Pinocchio
    continuous joint (two coordinates) gets ``(cos q, sin q)``. Explained in
    :ref:`sec-rn-crosscheck`.

    Parameters
    ----------
    model : KinematicTree
        The tree.
    pin_model : pinocchio.Model
        A model with the same moving joints (by name).
    q : array_like, shape (nq,) or (..., nq)
        The tree's coordinates.

    Returns
    -------
    numpy.ndarray, shape (pin_model.nq,) or (..., pin_model.nq)

    Raises
    ------
    ShapeError, NonFiniteError
        On malformed arguments.
    ModelFileError
        If the joints do not match.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.models.robots import load_robot
    >>> from lib.models.pinocchio_tree import pinocchio_model, pinocchio_configuration
    >>> ur5 = load_robot("ur5")
    >>> print(pinocchio_configuration(ur5, pinocchio_model(ur5), np.arange(6.0)))
    [0. 1. 2. 3. 4. 5.]
    """
    instance_of(model, KinematicTree, "model")
    pin = _pin()
    pm = _pin_model(pin, pin_model)
    q_arr = _stack(q, "q", model.nq)
    out = np.zeros(q_arr.shape[:-1] + (pm.nq,))
    for kind, qs, _, iq, nq, _ in _joint_map(model, pm):
        qi = q_arr[..., qs]
        if kind == "free":
            out[..., iq : iq + 3] = qi[..., :3]
            out[..., iq + 3 : iq + 6] = qi[..., 4:7]
            out[..., iq + 6] = qi[..., 3]
        elif nq == 2:
            out[..., iq] = np.cos(qi[..., 0])
            out[..., iq + 1] = np.sin(qi[..., 0])
        else:
            out[..., iq] = qi[..., 0]
    return out


def pinocchio_velocity(
    model: KinematicTree, pin_model: Any, v: ArrayLike
) -> FloatArray:
    """The tree's velocities (or accelerations) in the Pinocchio model's order.

    A free joint's ``(omega, v)`` becomes Pinocchio's ``(v, omega)`` (both in
    the body frame). Explained in :ref:`sec-rn-crosscheck`.

    Parameters
    ----------
    model : KinematicTree
        The tree.
    pin_model : pinocchio.Model
        A model with the same moving joints (by name).
    v : array_like, shape (nv,) or (..., nv)
        The tree's velocities or accelerations.

    Returns
    -------
    numpy.ndarray, shape (nv,) or (..., nv)

    Raises
    ------
    ShapeError, NonFiniteError
        On malformed arguments.
    ModelFileError
        If the joints do not match.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.models.robots import load_robot
    >>> from lib.models.pinocchio_tree import pinocchio_model, pinocchio_velocity
    >>> ur5 = load_robot("ur5")
    >>> print(pinocchio_velocity(ur5, pinocchio_model(ur5), np.arange(6.0)))
    [0. 1. 2. 3. 4. 5.]
    """
    instance_of(model, KinematicTree, "model")
    pin = _pin()
    pm = _pin_model(pin, pin_model)
    v_arr = _stack(v, "v", model.nv)
    out = np.zeros_like(v_arr)
    for kind, _, vs, _, _, iv in _joint_map(model, pm):
        vi = v_arr[..., vs]
        if kind == "free":
            out[..., iv : iv + 3] = vi[..., 3:]
            out[..., iv + 3 : iv + 6] = vi[..., :3]
        else:
            out[..., iv] = vi[..., 0]
    return out


def from_pinocchio_forces(
    model: KinematicTree, pin_model: Any, tau: ArrayLike
) -> FloatArray:
    """Joint forces of the Pinocchio model in the tree's order.

    A free joint's Pinocchio wrench ``(f, m)`` becomes ``(m, f)``.
    Explained in :ref:`sec-rn-crosscheck`.

    Parameters
    ----------
    model : KinematicTree
        The tree.
    pin_model : pinocchio.Model
        A model with the same moving joints (by name).
    tau : array_like, shape (nv,) or (..., nv)
        Pinocchio's joint forces (``pin.rnea``'s result).

    Returns
    -------
    numpy.ndarray, shape (nv,) or (..., nv)

    Raises
    ------
    ShapeError, NonFiniteError
        On malformed arguments.
    ModelFileError
        If the joints do not match.

    Examples
    --------
    >>> import numpy as np
    >>> from lib.models.robots import load_robot
    >>> from lib.models.pinocchio_tree import pinocchio_model, from_pinocchio_forces
    >>> ur5 = load_robot("ur5")
    >>> print(from_pinocchio_forces(ur5, pinocchio_model(ur5), np.arange(6.0)))
    [0. 1. 2. 3. 4. 5.]
    """
    instance_of(model, KinematicTree, "model")
    pin = _pin()
    pm = _pin_model(pin, pin_model)
    t_arr = _stack(tau, "tau", model.nv)
    out = np.zeros_like(t_arr)
    for kind, _, vs, _, _, iv in _joint_map(model, pm):
        if kind == "free":
            out[..., vs.start : vs.start + 3] = t_arr[..., iv + 3 : iv + 6]
            out[..., vs.start + 3 : vs.stop] = t_arr[..., iv : iv + 3]
        else:
            out[..., vs.start] = t_arr[..., iv]
    return out
