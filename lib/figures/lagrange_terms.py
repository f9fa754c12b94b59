"""The terms of the Lagrange equations of a planar 2R arm, joint by joint.

``lagrange_terms_data`` evaluates ``tau = M(q) qdd + C(q, qd) qd + g(q)`` for
chapter 3.12's arm of two uniform rods (:mod:`lib.models.planar_2r_arm`'s
lengths and masses, here in a vertical plane with gravity along ``-y``), as
the tree of :func:`lib.models.planar_chain.planar_chain_tree`: ``M`` from
:func:`lib.kinematic_tree.rnea_mass_matrix`, the Christoffel symbols
``c_ijk`` from :func:`lib.tree_dynamics.coriolis_matrix` (``C(q, e_k)_ij =
c_ijk``) and ``g`` from :func:`lib.kinematic_tree.gravity_torques`. Each
joint's torque is split into the inertial term ``(M qdd)_i``, the
centrifugal terms ``c_ijj qd_j^2``, the Coriolis terms ``2 c_ijk qd_j qd_k``
(``j < k``) and gravity ``g_i``. ``lagrange_terms_describe`` gives the state
label and the readout rows, ``draw_lagrange_terms`` draws the arm and the
terms as stacked bars. The live figure's JavaScript
(``js/lagrange_terms.js``) evaluates the arm's closed forms.

Explained in :ref:`sec-lg-2r`.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from matplotlib.figure import Figure

from .. import kinematic_tree as kt
from .. import tree_dynamics as td
from .._validation import instance_of, real_number
from ..common import GRAVITY
from ..models.planar_chain import planar_chain_tree
from . import _frame as fr
from .spec import FigureSpec, control

__all__ = ["lagrange_terms_data", "lagrange_terms_describe", "draw_lagrange_terms"]

#: The four terms of each joint's torque: data key, colour key, legend label.
TERMS = (
    ("tau_inertial", "inertial", r"$M\ddot q$"),
    ("tau_centrifugal", "centrifugal", r"centrifugal $c_{ijj}\dot q_j^2$"),
    ("tau_coriolis", "coriolis", r"Coriolis $2c_{i12}\dot q_1\dot q_2$"),
    ("tau_gravity", "gravity", "gravity $g(q)$"),
)


def lagrange_terms_data(
    q1_deg: float = 30.0,
    q2_deg: float = 45.0,
    qd1: float = 3.0,
    qd2: float = -3.0,
    qdd1: float = 5.0,
    qdd2: float = 0.0,
    lengths: Any = (0.5, 0.5),
    masses: Any = (2.0, 2.0),
    g: float = GRAVITY,
) -> dict:
    """Data of the Lagrange figure: the four terms of each joint torque of a 2R arm.

    Angles in degrees (``q2`` relative to link 1), rates in rad/s,
    accelerations in rad/s^2; two uniform rods of ``lengths`` m and
    ``masses`` kg in a vertical plane, gravity ``g`` along ``-y``. Returned:
    ``M`` (kg m^2), ``christoffel`` (``[i, j, k] = c_ijk``, kg m^2, 0-based),
    the terms ``tau_inertial``, ``tau_centrifugal``, ``tau_coriolis``,
    ``tau_gravity`` and their sum ``tau`` (N m), the base, elbow and tip
    ``points`` (m).

    Explained in :ref:`sec-lg-2r`.

    Examples
    --------
    >>> d = lagrange_terms_data(q1_deg=0.0, q2_deg=90.0, qd1=1.0, qd2=0.0, qdd1=0.0,
    ...                         qdd2=0.0, g=0.0)
    >>> np.round(d["tau_centrifugal"], 6) + 0.0  # c_211 qd1^2 = m2 l1 l2 / 2
    array([0.  , 0.25])
    """
    q_deg = np.array([real_number(q1_deg, "q1_deg"), real_number(q2_deg, "q2_deg")])
    qd = np.array([real_number(qd1, "qd1"), real_number(qd2, "qd2")])
    qdd = np.array([real_number(qdd1, "qdd1"), real_number(qdd2, "qdd2")])
    g = real_number(g, "g")
    tree = planar_chain_tree(lengths, masses)
    q = np.radians(q_deg)
    M = kt.rnea_mass_matrix(tree, q)
    # C(q, v) is linear in v: C(q, e_k)_ij = c_ijk
    units = td.coriolis_matrix(tree, np.stack([q, q]), np.eye(2))  # [k, i, j]
    christoffel = np.moveaxis(units, 0, -1)
    tau_gravity = kt.gravity_torques(tree, q, [0.0, -g, 0.0])
    centrifugal = np.array([sum(christoffel[i, j, j] * qd[j] ** 2 for j in range(2))
                            for i in range(2)])
    coriolis = 2.0 * christoffel[:, 0, 1] * qd[0] * qd[1]
    inertial = M @ qdd
    poses = kt.forward_kinematics(tree, q)
    tip = kt.frame_pose(tree, q, "tip")
    moving = bool(np.any(qd != 0.0) or np.any(qdd != 0.0))
    return {
        "q_deg": q_deg,
        "qd": qd,
        "qdd": qdd,
        "state": "moving" if moving else "static",
        "M": M,
        "christoffel": christoffel,
        "tau_inertial": inertial,
        "tau_centrifugal": centrifugal,
        "tau_coriolis": coriolis,
        "tau_gravity": tau_gravity,
        "tau": inertial + centrifugal + coriolis + tau_gravity,
        "points": np.vstack([poses[:, :2, 3], tip[:2, 3]]),
        "reach": float(np.sum(lengths)),
    }


def lagrange_terms_describe(data: dict) -> tuple[str, str, list[tuple[str, str]]]:
    """State label and readout rows of the Lagrange figure.

    Explained in :ref:`sec-lg-2r`.

    Returns
    -------
    text, key, rows : str, str, list of (str, str)
        The label, its colour key and the readout table.

    Examples
    --------
    >>> lagrange_terms_describe(lagrange_terms_data(q1_deg=90.0, q2_deg=0.0, qd1=0.0,
    ...                         qd2=0.0, qdd1=0.0, qdd2=0.0))[0]
    'tau = (0.00, 0.00) N m'
    """
    instance_of(data, dict, "data")
    c, M = data["christoffel"], data["M"]
    rows = [
        ("inertial M qdd (N m)", fr.vector_text(data["tau_inertial"], 2)),
        ("centrifugal (N m)", fr.vector_text(data["tau_centrifugal"], 2)),
        ("Coriolis (N m)", fr.vector_text(data["tau_coriolis"], 2)),
        ("gravity g(q) (N m)", fr.vector_text(data["tau_gravity"], 2)),
        ("c_122, c_211 (kg m^2)", fr.vector_text([c[0, 1, 1], c[1, 0, 0]], 3)),
        ("M_11, M_12, M_22 (kg m^2)", fr.vector_text([M[0, 0], M[0, 1], M[1, 1]], 3)),
    ]
    return f"tau = {fr.vector_text(data['tau'], 2)} N m", data["state"], rows


def draw_lagrange_terms(data: dict, ax: Any = None) -> Figure:
    """Draw the arm (left) and each joint's torque as stacked bars of its terms (right).

    ``ax`` is a pair of axes (a new pyplot-free figure when omitted, or new
    axes on a given matplotlib (sub)figure). Each bar stacks the inertial,
    centrifugal, Coriolis and gravity terms of the joint's torque (positive
    terms up, negative ones down from zero); a black line marks their sum
    ``tau``.
    Explained in :ref:`sec-lg-2r`.

    Returns
    -------
    matplotlib.figure.Figure
        The figure holding the axes.

    Examples
    --------
    >>> len(draw_lagrange_terms(lagrange_terms_data()).axes)
    2
    """
    instance_of(data, dict, "data")
    fig, axes = fr.new_axes(ax, (9.0, 4.2), ncols=2)
    arm, bars = axes
    pts = data["points"]
    fr.planar_arm(arm, pts, data["reach"], ("joint1", "joint2"))
    fr.gravity_mark(arm)
    fr.fit_equal(arm, pts, 0.15 * data["reach"])
    arm.set_xticks([])
    arm.set_yticks([])
    text, key, _ = lagrange_terms_describe(data)
    arm.set_title(rf"$\tau$ = {text.removeprefix('tau = ')}",
                  color=fr.STATE_COLORS.get(key, "k"), fontsize=10)
    fr.stacked_bars(bars, [data[name] for name, _, _ in TERMS],
                    [fr.COLORS[key] for _, key, _ in TERMS],
                    [label for _, _, label in TERMS], data["tau"])
    bars.set_title("terms of the joint torques (N m)", fontsize=10)
    return fig


#: The figure's record: title, controls (``lagrange_terms_data``'s keywords), constants.
FIGURE = FigureSpec(
    name="lagrange_terms",
    title="A planar two-link arm: the terms of the Lagrange equations",
    controls=(
        control("q1_deg", "joint angle q1", -180.0, 180.0, 1.0, "deg", digits=0),
        control("q2_deg", "joint angle q2", -180.0, 180.0, 1.0, "deg", digits=0),
        control("qd1", "joint rate qd1", -5.0, 5.0, 0.1, "rad/s", digits=1),
        control("qd2", "joint rate qd2", -5.0, 5.0, 0.1, "rad/s", digits=1),
        control("qdd1", "acceleration qdd1", -20.0, 20.0, 0.5, "rad/s^2", digits=1),
        control("qdd2", "acceleration qdd2", -20.0, 20.0, 0.5, "rad/s^2", digits=1),
    ),
    data=lagrange_terms_data,
    describe=lagrange_terms_describe,
    draw=draw_lagrange_terms,
    constants=("lengths", "masses", "g"),
    size=(9.0, 4.2),
    section="sec-lg-2r",
)
