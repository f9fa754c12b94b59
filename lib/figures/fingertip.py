"""FIG 5: a two-link finger pressing on a table.

``fingertip_data`` turns the control values into plain data (computed by the
tested routines of ``lib``), ``fingertip_describe`` gives the state label and the
readout rows, and ``draw_fingertip`` draws the data on a pyplot-free matplotlib
figure (the book's static picture). The live figure (:mod:`lib.figures.live`)
starts from the defaults of ``fingertip_data`` and prints the rows of
``fingertip_describe``.

Explained in :ref:`sec-cf-fingertip`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from .._validation import instance_of, real_number
from ..models import fingertip as finger
from . import _frame as fr
from .spec import FigureSpec, choice, control

__all__ = ["fingertip_data", "fingertip_describe", "draw_fingertip"]


def fingertip_data(x_tip: float = 0.3, elbow: str = "up", mu: float = 0.6, tau_max: float = 1.0,
                   f_t: float = 0.5, f_n: float = 2.0, l1: float = 0.5, l2: float = 0.5,
                   base_height: float = 0.5) -> dict:
    """Data of the fingertip figure: posture, feasible-force polygon, LP optimum, status.

    Explained in :ref:`sec-cf-fingertip`.

    Examples
    --------
    >>> d = fingertip_data(x_tip=0.5, elbow="up", mu=0.5, tau_max=1.0, f_t=0.0, f_n=1.0)
    >>> d["label"], round(d["max_normal"], 3), round(d["press_capacity"], 3)
    ('feasible', 4.0, 2.0)
    """
    x_tip, f_t, f_n = real_number(x_tip, "x_tip"), real_number(f_t, "f_t"), real_number(f_n, "f_n")
    q = finger.two_link_ik(x_tip, elbow, l1, l2, base_height)
    jac = finger.contact_jacobian(q, l1, l2)
    polygon = finger.feasible_force_polygon(jac, mu, tau_max)
    best = finger.max_normal_force(jac, mu, tau_max)
    status = finger.force_state(jac, [f_t, f_n], mu, tau_max)
    limiting = [name for name, on in zip(("shoulder (joint 1)", "elbow (joint 2)"), best.limiting_joints) if on]
    return {
        "x_tip": float(x_tip), "elbow": elbow, "mu": float(mu), "tau_max": float(tau_max),
        "force": np.array([f_t, f_n], dtype=float), "q": q, "points": finger.two_link_points(q, l1, l2, base_height),
        # "+ 0.0" turns the solver's -0.0 (mu = 0) into 0.0: the readout says "f_t = 0.00 N".
        "jacobian": jac, "polygon": polygon, "optimum": best.force + 0.0, "max_normal": best.normal_force,
        "optimum_torques": best.torques, "limiting": limiting, "cone_active": best.cone_active,
        "label": status.label, "in_cone": status.in_cone, "torques": status.torques,
        "over_limit": status.over_limit, "press_capacity": finger.press_capacity(jac),
    }


def fingertip_describe(data: dict) -> tuple[str, str, list[tuple[str, str]]]:
    """State label and readout rows of the fingertip figure.

    Explained in :ref:`sec-cf-fingertip`.

    Returns
    -------
    text, key, rows : str, str, list of (str, str)
        The label, its colour key and the readout table.

    Examples
    --------
    >>> fingertip_describe(fingertip_data(f_t=0.0, f_n=-1.0))[0]
    'TABLE MUST PULL'
    """
    instance_of(data, dict, "data")
    tau = data["torques"]
    rows = [
        ("joint angles", f"({math.degrees(data['q'][0]):.1f}, {math.degrees(data['q'][1]):.1f}) deg"),
        ("torques -J_c^T f_c", f"({tau[0]:.2f}, {tau[1]:.2f}) N m"),
        ("max normal force (LP)", f"{data['max_normal']:.2f} N at f_t = {data['optimum'][0]:.2f} N"),
        ("limited by", ", ".join(data["limiting"]) + (" + friction cone" if data["cone_active"] else "")
         if data["limiting"] else ("friction cone" if data["cone_active"] else "-")),
        ("straight-down force per N m", f"{data['press_capacity']:.2f} N/(N m)"),
    ]
    key = "feasible" if data["label"] == "feasible" else "infeasible"
    return data["label"].upper(), key, rows


def _strip_lines(column: np.ndarray, tau_max: float, span: float) -> list[np.ndarray]:
    """Two parallel segments ``column . f = +-tau_max`` (a joint's torque strip)."""
    norm = float(np.linalg.norm(column))
    if norm < 1e-12:
        return []
    direction = np.array([-column[1], column[0]]) / norm
    lines = []
    for sign in (-1.0, 1.0):
        base = sign * tau_max * column / norm**2
        lines.append(np.vstack([base - span * direction, base + span * direction]))
    return lines


def draw_fingertip(data: dict, ax: Any = None) -> Figure:
    """Draw the finger on the table (left) and the force space with the feasible polygon (right).

    ``ax`` is a pair of axes (a new pyplot-free figure when omitted, or new axes on a given
    matplotlib (sub)figure). The force
    space holds the feasible polygon and the demanded force; the titles name
    the elbow and the state.
    Explained in :ref:`sec-cf-fingertip`.

    Returns
    -------
    matplotlib.figure.Figure
        The figure holding the axes.

    Examples
    --------
    >>> len(draw_fingertip(fingertip_data()).axes)
    2
    """
    instance_of(data, dict, "data")
    fig, axes = fr.new_axes(ax, (9.0, 4.2), ncols=2)
    arm, space = axes
    pts = data["points"]
    arm.fill_between([-1.0, 1.0], [-0.15, -0.15], [0, 0], color=fr.COLORS["ground"], alpha=0.3, lw=0)
    fr.line(arm, [-1.0, 1.0], [0, 0], color=fr.COLORS["ground"], lw=2)
    fr.line(arm, pts[:, 0], pts[:, 1], color="#555555", lw=5, solid_capstyle="round", zorder=2)
    fr.line(arm, *pts[0], marker="o", ls="none", color=fr.COLORS["joint1"], ms=10, zorder=3)
    fr.line(arm, *pts[1], marker="o", ls="none", color=fr.COLORS["joint2"], ms=9, zorder=3)
    fr.line(arm, *pts[2], marker="o", ls="none", color="#333333", ms=5, zorder=3)
    scale = 0.1
    fr.arrow(arm, pts[2], scale * data["force"], fr.COLORS["push"], width=2.4, label="$f_c$")
    arm.set_xlim(-1.0, 1.0)
    arm.set_ylim(-0.15, 1.1)
    arm.set_aspect("equal")
    arm.set_title(f"finger, elbow {data['elbow']} (1 N drawn as {scale:g} m)", fontsize=10)
    arm.set_xticks([])
    arm.set_yticks([])

    poly = data["polygon"]
    extent = fr.nice_ceil(max(float(np.max(np.abs(poly))), float(np.max(np.abs(data["force"]))), 1.0) * 1.25)
    gamma = math.atan(data["mu"])
    fan = fr.fan((0.0, 0.0), math.pi / 2, gamma, 2 * extent)
    fr.fill(space, fan[:, 0], fan[:, 1], fr.COLORS["cone"], alpha=0.15)
    for column, key, name in ((data["jacobian"][:, 0], "joint1", r"$|\tau_1| = \tau_{\max}$"),
                              (data["jacobian"][:, 1], "joint2", r"$|\tau_2| = \tau_{\max}$")):
        for i, strip in enumerate(_strip_lines(column, data["tau_max"], 4 * extent)):
            # Dashed for the shoulder, dotted for the elbow: told apart without the colours.
            fr.line(space, strip[:, 0], strip[:, 1], color=fr.COLORS[key],
                    ls="--" if key == "joint1" else ":", lw=1.1 if key == "joint1" else 1.4,
                    label=name if i == 0 else None)
    closed = np.vstack([poly, poly[:1]])
    fr.fill(space, closed[:, 0], closed[:, 1], fr.COLORS["feasible"], alpha=0.35, lw=1.5, ec=fr.COLORS["feasible"],
            zorder=2, label="feasible forces")
    fr.line(space, *data["optimum"], marker="o", ls="none", color="k", ms=7, zorder=5, label=r"LP optimum: max $f_n$")
    fr.line(space, *data["force"], marker="D", ls="none", color=fr.COLORS["push"], ms=7, mec="k", zorder=6,
            label=r"demanded $f_c$")
    space.axhline(0.0, color=fr.COLORS["ground"], lw=1)
    space.set_xlim(-extent, extent)
    space.set_ylim(-0.15 * extent, 1.3 * extent)
    space.set_aspect("equal")
    space.set_xlabel("$f_t$ (N)")
    space.set_ylabel("$f_n$ (N)")
    space.legend(loc="upper left", fontsize=7, framealpha=0.85)
    key = "feasible" if data["label"] == "feasible" else "infeasible"
    space.set_title(f"force space: {data['label']}", color=fr.STATE_COLORS[key], fontsize=10)
    return fig


#: The figure's record: title, controls (sliders over ``fingertip_data``'s keywords) and constants.
FIGURE = FigureSpec(
    name="fingertip", title="Fingertip on a table: friction cone and joint-torque limits",
    controls=(
        control("x_tip", "fingertip x", -0.9, 0.9, 0.01, "m"),
        choice("elbow", "elbow", ["up", "down"]),
        control("mu", "friction coefficient mu", 0.0, 1.5, 0.01),
        control("tau_max", "torque limit tau_max", 0.2, 3.0, 0.05, "N m"),
        control("f_t", "demanded f_t", -6.0, 6.0, 0.05, "N"),
        control("f_n", "demanded f_n", -1.0, 8.0, 0.05, "N"),
    ),
    data=fingertip_data, describe=fingertip_describe, draw=draw_fingertip, constants=("l1", "l2", "base_height"),
    size=(9.0, 4.2), section="sec-cf-fingertip",
)
