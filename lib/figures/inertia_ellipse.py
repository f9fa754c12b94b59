"""The mass a planar 2R arm's tip feels in each direction, and the ellipse of ``M(q)``.

``inertia_ellipse_data`` takes chapter 3.12's arm of two uniform rods
(:mod:`lib.models.planar_2r_arm`'s lengths and masses, no gravity) as the
tree of :func:`lib.models.planar_chain.planar_chain_tree`: ``M(q)`` from
:func:`lib.tree_dynamics.crba`, the tip Jacobian ``J`` and the tip from
:func:`lib.models.planar_chain.planar_chain_tip`, and the tip's inverse
inertia ``W = J M^-1 J^T`` from :func:`lib.contact_lcp.delassus`. The tip's
inertia is ``Lambda = W^-1``: a force ``f`` at the tip of the arm at rest
gives it the acceleration ``W f``, and along a unit direction ``u`` the tip
feels the effective mass ``1 / (u^T W u)`` (:func:`lib.contact_lcp.effective_mass`),
between ``Lambda``'s eigenvalues ``m_min`` and ``m_max``. Stretched out or
folded (``sin q2 = 0``) ``J`` loses rank: the tip cannot move along the line
through the shoulder and the elbow, and the mass it feels along that line is
unbounded (``m_max`` infinite).

``inertia_ellipse_describe`` gives the state label and the readout rows,
``draw_inertia_ellipse`` draws the arm with the tip's inertia ellipse
(``Lambda`` applied to the unit circle: semi-axes ``m_min`` and ``m_max``
along ``Lambda``'s eigenvectors) and the ellipse of ``M`` in joint space.
The live figure's JavaScript (``js/inertia_ellipse.js``) evaluates the
arm's closed forms.

Explained in :ref:`sec-pr-ellipse`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from .. import tree_dynamics as td
from .._validation import instance_of, positive, real_number
from ..contact_lcp import delassus
from ..models.planar_chain import planar_chain_tip, planar_chain_tree
from . import _frame as fr
from .spec import FigureSpec, control

__all__ = ["inertia_ellipse_data", "inertia_ellipse_describe", "draw_inertia_ellipse"]

#: Points on each ellipse (the first repeated at the end).
ELLIPSE_POINTS = 73
#: ``|sin q2|`` below this: the arm is stretched out or folded, ``J`` singular.
SINGULAR_SIN = 1e-9


def _unit_circle() -> np.ndarray:
    t = np.linspace(0.0, 2.0 * math.pi, ELLIPSE_POINTS)
    return np.stack([np.cos(t), np.sin(t)])


def _direction(angle: float) -> float:
    """A direction (deg) in [0, 180); within 1e-9 deg of 180 it is 0 (the seam)."""
    angle = angle % 180.0
    return 0.0 if angle < 1e-9 or angle > 180.0 - 1e-9 else float(angle)


def inertia_ellipse_data(
    q1_deg: float = 30.0,
    q2_deg: float = 60.0,
    lengths: Any = (0.5, 0.5),
    masses: Any = (2.0, 2.0),
    mass_scale: float = 0.1,
    cap: float = 25.0,
) -> dict:
    """Data of the inertia-ellipse figure: the tip's inertia of a planar 2R arm.

    Angles in degrees (``q2`` relative to link 1); two uniform rods of
    ``lengths`` m and ``masses`` kg in a horizontal plane. Returned:

    - ``M`` (kg m^2, :func:`lib.tree_dynamics.crba`), its eigenvalues
      ``M_eig`` (ascending), ``M_ellipse``: ``M`` applied to the unit
      circle of joint accelerations (2 x ``ELLIPSE_POINTS``, kg m^2), and
      ``M_top``, the largest eigenvalue of ``M`` at ``q2 = 0`` (the largest
      over the postures: the panel's scale);
    - ``J`` (m/rad) and ``W = J M^-1 J^T`` (1/kg, :func:`lib.contact_lcp.delassus`);
    - ``m_min``, ``m_max`` (kg): ``Lambda = W^-1``'s eigenvalues, the least
      and the largest mass the tip feels (``m_max`` is ``inf`` when
      ``singular``), from ``w_max = tr W / 2 + r`` and ``w_min = det W /
      w_max`` with ``det W = det(J)^2 / det(M)`` (no cancellation near the
      singular postures); ``light_deg``, ``heavy_deg`` the directions of
      ``m_min`` and ``m_max`` (deg in [0, 180), world ``x`` = 0);
    - ``tip_ellipse``: the tip plus ``mass_scale`` (m per kg) times
      ``Lambda`` applied to the unit circle of directions, with ``m_max``
      drawn at most ``cap`` kg (a band when it is unbounded);
    - ``points``: the base, the elbow and the tip (m); ``reach`` (m).

    Explained in :ref:`sec-pr-ellipse`.

    Examples
    --------
    >>> d = inertia_ellipse_data(q1_deg=0.0, q2_deg=90.0)
    >>> round(d["m_min"], 6), round(d["m_max"], 6)  # 2/3 and 8/3 kg
    (0.666667, 2.666667)
    >>> inertia_ellipse_data(q2_deg=0.0)["m_max"]  # stretched out
    inf
    """
    q_deg = np.array([real_number(q1_deg, "q1_deg"), real_number(q2_deg, "q2_deg")])
    mass_scale = positive(mass_scale, "mass_scale")
    cap = positive(cap, "cap")
    tree = planar_chain_tree(lengths, masses)
    L = np.asarray(lengths, dtype=float)
    q = np.radians(q_deg)
    M = td.crba(tree, q)
    tip, J, _ = planar_chain_tip(q, np.zeros(2), L)
    W = delassus(M, J)
    det_j = J[0, 0] * J[1, 1] - J[0, 1] * J[1, 0]
    det_m = M[0, 0] * M[1, 1] - M[0, 1] * M[1, 0]
    half_diff = 0.5 * (W[0, 0] - W[1, 1])
    r = math.hypot(half_diff, W[0, 1])
    w_max = 0.5 * (W[0, 0] + W[1, 1]) + r
    singular = abs(det_j) < SINGULAR_SIN * L[0] * L[1]
    w_min = 0.0 if singular else det_j * det_j / det_m / w_max
    # The eigenvector of w_max (the lightest direction) at the angle phi:
    # (cos 2 phi, sin 2 phi) = (W11 - W22, 2 W12) / (2 r); its projector P.
    c2, s2 = (half_diff / r, W[0, 1] / r) if r > 0.0 else (1.0, 0.0)
    light = 0.5 * np.array([[1.0 + c2, s2], [s2, 1.0 - c2]])
    heavy = np.eye(2) - light
    m_min = 1.0 / w_max
    m_max = math.inf if singular else 1.0 / w_min
    light_deg = _direction(math.degrees(0.5 * math.atan2(s2, c2)))
    shown = m_min * light + min(m_max, cap) * heavy
    M_eig = np.linalg.eigvalsh(M)
    # M's largest eigenvalue over the postures: stretched out (q2 = 0), the scale
    M_top = float(np.linalg.eigvalsh(td.crba(tree, [0.0, 0.0]))[-1])
    elbow = L[0] * np.array([math.cos(q[0]), math.sin(q[0])])
    poses = np.vstack([[0.0, 0.0], elbow, tip])
    return {
        "q_deg": q_deg,
        "M": M,
        "M_eig": M_eig,
        "M_ellipse": M @ _unit_circle(),
        "M_top": M_top,
        "J": J,
        "W": W,
        "singular": bool(singular),
        "m_min": float(m_min),
        "m_max": float(m_max),
        "light_deg": float(light_deg),
        "heavy_deg": _direction(light_deg + 90.0),
        "mass_scale": float(mass_scale),
        "cap": float(cap),
        "tip_ellipse": tip[:, None] + mass_scale * (shown @ _unit_circle()),
        "points": poses,
        "reach": float(np.sum(L)),
    }


def inertia_ellipse_describe(data: dict) -> tuple[str, str, list[tuple[str, str]]]:
    """State label and readout rows of the inertia-ellipse figure.

    Explained in :ref:`sec-pr-ellipse`.

    Returns
    -------
    text, key, rows : str, str, list of (str, str)
        The label, its colour key ("singular" when the arm is stretched out
        or folded, else "static") and the readout table.

    Examples
    --------
    >>> inertia_ellipse_describe(inertia_ellipse_data(q2_deg=90.0))[0]
    'tip feels 0.67 to 2.67 kg'
    """
    instance_of(data, dict, "data")
    m_min, m_max = data["m_min"], data["m_max"]
    light, heavy = (f"{_angle_text(data[k])} deg" for k in ("light_deg", "heavy_deg"))
    if data["singular"]:
        text, key = f"tip feels {m_min:.2f} kg to unbounded (J singular)", "singular"
        most = f"unbounded along {heavy}"
    else:
        text, key = f"tip feels {m_min:.2f} to {m_max:.2f} kg", "static"
        most = f"{m_max:.2f} kg along {heavy}"
    rows = [
        ("heaviest push (tip)", most),
        ("lightest push (tip)", f"{m_min:.2f} kg along {light}"),
        ("eigenvalues of M (kg m^2)", fr.vector_text(data["M_eig"], 3)),
        ("M_11, M_12, M_22 (kg m^2)",
         fr.vector_text([data["M"][0, 0], data["M"][0, 1], data["M"][1, 1]], 3)),
    ]
    return text, key, rows


def _angle_text(angle: float) -> str:
    """A direction in [0, 180) deg to whole degrees (180 is the direction 0)."""
    text = f"{angle:.0f}"
    return "0" if text == "180" else text


def draw_inertia_ellipse(data: dict, ax: Any = None) -> Figure:
    """Draw the arm with its tip's inertia ellipse (left) and ``M``'s ellipse (right).

    ``ax`` is a pair of axes (a new pyplot-free figure when omitted, or new
    axes on a given matplotlib (sub)figure). Left: the tip's ellipse
    (``Lambda`` applied to the unit circle, ``mass_scale`` m per kg; its
    long semi-axis is the heaviest direction, clipped at ``cap`` kg) and a
    line along the heaviest direction. Right: ``M`` applied to the unit
    circle of joint accelerations, in kg m^2 (its semi-axes are the
    eigenvalues of ``M``).
    Explained in :ref:`sec-pr-ellipse`.

    Returns
    -------
    matplotlib.figure.Figure
        The figure holding the axes.

    Examples
    --------
    >>> len(draw_inertia_ellipse(inertia_ellipse_data()).axes)
    2
    """
    instance_of(data, dict, "data")
    fig, axes = fr.new_axes(ax, (9.0, 4.2), ncols=2)
    arm, joint = axes
    pts, reach = data["points"], data["reach"]
    box = 1.15 * reach
    ell = data["tip_ellipse"]
    fr.fill(arm, ell[0], ell[1], fr.COLORS["inertial"], alpha=0.25, lw=1.5,
            ec=fr.COLORS["inertial"], zorder=1)
    heavy = math.radians(data["heavy_deg"])
    u = np.array([math.cos(heavy), math.sin(heavy)])
    half = data["mass_scale"] * min(data["m_max"], data["cap"])
    tip = pts[-1]
    fr.line(arm, [tip[0] - half * u[0], tip[0] + half * u[0]],
            [tip[1] - half * u[1], tip[1] + half * u[1]], color=fr.COLORS["inertial"],
            lw=1.2, ls="--", zorder=2)
    fr.planar_arm(arm, pts, reach, ("joint1", "joint2"))
    arm.set_xlim(-box, box)
    arm.set_ylim(-box, box)
    arm.set_aspect("equal")
    arm.set_xticks([])
    arm.set_yticks([])
    text, _, _ = inertia_ellipse_describe(data)
    q = f"q = ({data['q_deg'][0]:.0f}, {data['q_deg'][1]:.0f}) deg"
    scale = f"1 kg drawn as {1e3 * data['mass_scale']:g} mm"
    arm.set_title(f"{text}\n{q}; dashed: heaviest\n{scale}", fontsize=10)
    top = fr.nice_ceil(1.1 * data["M_top"])
    me = data["M_ellipse"]
    fr.fill(joint, me[0], me[1], fr.COLORS["joint2"], alpha=0.25, lw=1.5,
            ec=fr.COLORS["joint2"], zorder=1)
    joint.axhline(0.0, color="#555555", lw=0.8)
    joint.axvline(0.0, color="#555555", lw=0.8)
    joint.set_xlim(-top, top)
    joint.set_ylim(-top, top)
    joint.set_aspect("equal")
    joint.set_xlabel(r"joint 1 torque per rad/s$^2$ (kg m$^2$)", fontsize=9)
    joint.set_ylabel(r"joint 2 (kg m$^2$)", fontsize=9)
    joint.set_title(f"M applied to unit joint accelerations\neigenvalues "
                    f"{fr.vector_text(data['M_eig'], 3)} kg m$^2$", fontsize=10)
    return fig


#: The figure's record: title, controls (``inertia_ellipse_data``'s keywords),
#: constants.
FIGURE = FigureSpec(
    name="inertia_ellipse",
    title="A planar two-link arm: the mass its tip feels in each direction",
    controls=(
        control("q1_deg", "joint angle q1", -180.0, 180.0, 1.0, "deg", digits=0),
        control("q2_deg", "joint angle q2", -180.0, 180.0, 1.0, "deg", digits=0),
    ),
    data=inertia_ellipse_data,
    describe=inertia_ellipse_describe,
    draw=draw_inertia_ellipse,
    constants=("lengths", "masses", "mass_scale", "cap"),
    size=(9.0, 4.2),
    section="sec-pr-ellipse",
)
