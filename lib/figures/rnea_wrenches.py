"""The forces a planar 3R arm transmits across its joints, and its joint torques.

``rnea_wrenches_data`` runs :func:`lib.kinematic_tree.rnea` and
:func:`lib.kinematic_tree.joint_wrenches` on the uniform-rod arm of
:func:`lib.models.planar_chain.planar_chain_tree` (a vertical plane, gravity
along ``-y``), with every joint at the same rate and acceleration;
``rnea_wrenches_describe`` gives the state label and the readout rows, and
``draw_rnea_wrenches`` draws the arm with the force each joint transmits to
its link (arrows) and the joint torques split into the gravity part ``g(q)``
and the part of the motion ``M qdd + C qd`` (bars). The live figure's
JavaScript (``js/rnea_wrenches.js``) is the same recursion written out for
the plane.

Explained in :ref:`sec-rn-backward`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.figure import Figure

from .. import kinematic_tree as kt
from .._validation import instance_of, positive, real_number
from ..common import GRAVITY
from ..models.planar_chain import planar_chain_tree
from . import _frame as fr
from .spec import FigureSpec, control

__all__ = ["rnea_wrenches_data", "rnea_wrenches_describe", "draw_rnea_wrenches"]

#: Colours of the three joints (their force arrows).
_JOINT_KEYS = ("joint1", "joint2", "joint3")


def rnea_wrenches_data(
    q1_deg: float = 30.0,
    q2_deg: float = -60.0,
    q3_deg: float = 45.0,
    qd: float = 0.0,
    qdd: float = 0.0,
    lengths: Any = (0.5, 0.4, 0.3),
    masses: Any = (3.0, 2.0, 1.0),
    g: float = GRAVITY,
    force_scale: float = 0.008,
) -> dict:
    """Data of the RNEA figure: joint forces and torques of a planar 3R arm.

    Every joint turns at the rate ``qd`` (rad/s) and accelerates at ``qdd``
    (rad/s^2); angles are in degrees, relative to the previous link. The
    arm is :func:`lib.models.planar_chain.planar_chain_tree` (uniform rods
    of ``lengths`` m and ``masses`` kg) in a vertical plane with gravity
    ``g`` along ``-y``. Returned:

    - ``tau``: :func:`lib.kinematic_tree.rnea` (N m), split into
      ``tau_gravity`` (the RNEA at rest, ``g(q)``) and ``tau_motion`` (the
      RNEA without gravity, ``M qdd + C qd``);
    - ``wrenches``: :func:`lib.kinematic_tree.joint_wrenches`, ``F_i =
      (moment, force)`` in ``{i}``; ``forces``: the force joint ``i``
      transmits from the parent to link ``i`` turned into the world frame
      (N, ``x`` and ``y``), ``force_norms`` their magnitudes, ``weight``
      the arm's weight (N);
    - ``points``: the base, the joints 2 and 3 and the tip (m), from
      :func:`lib.kinematic_tree.forward_kinematics`;
    - ``arrows``: ``force_scale`` (m per N) times ``forces``.

    Explained in :ref:`sec-rn-backward`.

    Examples
    --------
    >>> d = rnea_wrenches_data(q1_deg=90.0, q2_deg=0.0, q3_deg=0.0)
    >>> np.round(d["tau"], 6) + 0.0  # upright and at rest: no torque
    array([0., 0., 0.])
    >>> round(float(d["force_norms"][0]), 2), round(d["weight"], 2)  # the base: all
    (58.86, 58.86)
    """
    q_deg = np.array(
        [
            real_number(q1_deg, "q1_deg"),
            real_number(q2_deg, "q2_deg"),
            real_number(q3_deg, "q3_deg"),
        ]
    )
    qd, qdd = real_number(qd, "qd"), real_number(qdd, "qdd")
    g = real_number(g, "g")
    force_scale = positive(force_scale, "force_scale")
    tree = planar_chain_tree(lengths, masses)
    q = np.radians(q_deg)
    v, a = np.full(3, qd), np.full(3, qdd)
    gravity = np.array([0.0, -g, 0.0])
    tau = kt.rnea(tree, q, v, a, gravity)
    tau_gravity = kt.gravity_torques(tree, q, gravity)
    tau_motion = kt.rnea(tree, q, v, a, np.zeros(3))
    wrenches = kt.joint_wrenches(tree, q, v, a, gravity)
    poses = kt.forward_kinematics(tree, q)
    tip = kt.frame_pose(tree, q, "tip")
    # F_i = (moment, force) in {i}; the world force is R_0i f_i (in the plane: x, y)
    forces = np.einsum("ijk,ik->ij", poses[:, :2, :3], wrenches[:, 3:])
    return {
        "q_deg": q_deg,
        "qd": float(qd),
        "qdd": float(qdd),
        "state": "static" if qd == 0.0 and qdd == 0.0 else "moving",
        "tau": tau,
        "tau_gravity": tau_gravity,
        "tau_motion": tau_motion,
        "wrenches": wrenches,
        "forces": forces,
        "force_norms": np.linalg.norm(forces, axis=1),
        "weight": float(np.sum(masses) * g),
        "force_scale": float(force_scale),
        "arrows": force_scale * forces,
        "points": np.vstack([poses[:, :2, 3], tip[:2, 3]]),
        "reach": float(np.sum(lengths)),
    }


def rnea_wrenches_describe(data: dict) -> tuple[str, str, list[tuple[str, str]]]:
    """State label and readout rows of the RNEA figure.

    Explained in :ref:`sec-rn-backward`.

    Returns
    -------
    text, key, rows : str, str, list of (str, str)
        The label, its colour key and the readout table.

    Examples
    --------
    >>> rnea_wrenches_describe(rnea_wrenches_data())[0]
    'AT REST: gravity alone'
    """
    instance_of(data, dict, "data")
    static = data["state"] == "static"
    text = "AT REST: gravity alone" if static else "MOVING: gravity and motion"
    rows = [
        ("torques tau (N m)", fr.vector_text(data["tau"], 2)),
        ("gravity part g(q)", fr.vector_text(data["tau_gravity"], 2)),
        ("motion part M qdd + C qd", fr.vector_text(data["tau_motion"], 2)),
        ("joint forces |f_i| (N)", fr.vector_text(data["force_norms"], 2)),
        ("weight of the arm (N)", f"{data['weight']:.2f}"),
    ]
    return text, data["state"], rows


def draw_rnea_wrenches(data: dict, ax: Any = None) -> Figure:
    """Draw the arm with its joint forces (left) and the joint torques (right).

    ``ax`` is a pair of axes (a new pyplot-free figure when omitted, or new
    axes on a given matplotlib (sub)figure). Each arrow is the force joint
    ``i`` transmits to link ``i``, drawn at the joint (an arrow marks the
    direction of gravity); each bar stacks the gravity part and the motion
    part of the joint's torque (positive parts up, negative ones down from
    zero), a black line marks their sum.
    Explained in :ref:`sec-rn-backward`.

    Returns
    -------
    matplotlib.figure.Figure
        The figure holding the axes.

    Examples
    --------
    >>> len(draw_rnea_wrenches(rnea_wrenches_data()).axes)
    2
    """
    instance_of(data, dict, "data")
    fig, axes = fr.new_axes(ax, (9.0, 4.2), ncols=2)
    arm, bars = axes
    pts = data["points"]
    reach = data["reach"]
    fr.planar_arm(arm, pts, reach, _JOINT_KEYS)
    for i, key in enumerate(_JOINT_KEYS):
        fr.arrow(arm, pts[i], data["arrows"][i], fr.COLORS[key], width=2.2,
                 label=f"$f_{i + 1}$")
    fr.gravity_mark(arm)
    fr.fit_equal(arm, np.vstack([pts, pts[:3] + data["arrows"]]), 0.12 * reach)
    arm.set_xticks([])
    arm.set_yticks([])
    text, key, _ = rnea_wrenches_describe(data)
    arm.set_title(f"{text}\nforces: 1 N drawn as {1e3 * data['force_scale']:g} mm",
                  color=fr.STATE_COLORS.get(key, "k"), fontsize=10)
    fr.stacked_bars(
        bars,
        [data["tau_gravity"], data["tau_motion"]],
        [fr.COLORS["gravity"], fr.COLORS["motion"]],
        ["gravity $g(q)$", r"motion $M\ddot q + C\dot q$"],
        data["tau"],
    )
    bars.set_title("joint torques (N m)", fontsize=10)
    return fig


#: The figure's record: title, controls (``rnea_wrenches_data``'s keywords), constants.
FIGURE = FigureSpec(
    name="rnea_wrenches",
    title="A planar three-link arm: joint forces and torques by the RNEA",
    controls=(
        control("q1_deg", "joint angle q1", -180.0, 180.0, 1.0, "deg", digits=0),
        control("q2_deg", "joint angle q2", -180.0, 180.0, 1.0, "deg", digits=0),
        control("q3_deg", "joint angle q3", -180.0, 180.0, 1.0, "deg", digits=0),
        control("qd", "rate qd, every joint", -3.0, 3.0, 0.1, "rad/s", digits=1),
        control("qdd", "acceleration qdd, every joint", -10.0, 10.0, 0.5, "rad/s^2",
                digits=1),
    ),
    data=rnea_wrenches_data,
    describe=rnea_wrenches_describe,
    draw=draw_rnea_wrenches,
    constants=("lengths", "masses", "g", "force_scale"),
    size=(9.0, 4.2),
    section="sec-rn-backward",
)
