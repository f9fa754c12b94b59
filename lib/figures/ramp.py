"""FIG 1: a block on a ramp: stick, slip and lift-off.

``ramp_data`` turns the control values into plain data (computed by the
tested routines of ``lib``), ``ramp_describe`` gives the state label and the
readout rows, and ``draw_ramp`` draws the data on a pyplot-free matplotlib
figure (the book's static picture). The live figure (:mod:`lib.figures.live`)
starts from the defaults of ``ramp_data`` and prints the rows of
``ramp_describe``.

Explained in :ref:`sec-cf-ramp`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from matplotlib.figure import Figure

from ..common import GRAVITY
from .. import friction
from .._validation import instance_of, real_number
from . import _frame as fr
from .spec import FigureSpec, control

__all__ = ["ramp_data", "ramp_describe", "draw_ramp"]


def ramp_data(alpha_deg: float = 20.0, mu_s: float = 0.6, mu_k: float = 0.5, mass: float = 1.0,
              push: float = 0.0, beta_deg: float = 0.0, g: float = GRAVITY) -> dict:
    """Data of the ramp figure: the state of :func:`lib.friction.ramp_state` and arrow geometry.

    ``push`` is in units of the weight ``m g``; angles are in degrees. Arrow
    vectors are in units of ``m g`` in the world frame (x right, y up).
    Explained in :ref:`sec-cf-ramp`.

    Examples
    --------
    >>> d = ramp_data(alpha_deg=30.0, mu_s=0.8, mu_k=0.6)
    >>> d["state"], round(d["critical_angle_deg"], 2)
    ('stick', 38.66)
    """
    alpha_deg, mu_s, mu_k, mass, push, beta_deg, g = (
        real_number(value, name) for value, name in ((alpha_deg, "alpha_deg"), (mu_s, "mu_s"), (mu_k, "mu_k"),
                                                     (mass, "mass"), (push, "push"), (beta_deg, "beta_deg"),
                                                     (g, "g")))
    weight = mass * g
    result = friction.ramp_state(math.radians(alpha_deg), mu_s, mu_k, mass, push * weight,
                                 math.radians(beta_deg), g)
    a = math.radians(alpha_deg)
    b = math.radians(beta_deg)
    tangent = np.array([math.cos(a), math.sin(a)])
    normal = np.array([-math.sin(a), math.cos(a)])
    contact = 1.7 * tangent
    center = contact + 0.3 * normal
    n_mg = result.normal_force / weight
    f_mg = result.friction / weight
    return {
        "alpha_deg": float(alpha_deg), "mu_s": float(mu_s), "mu_k": float(mu_k), "mass": float(mass),
        "push": float(push), "beta_deg": float(beta_deg), "g": float(g),
        "state": result.state, "direction": result.direction,
        "normal_force": result.normal_force, "friction": result.friction, "demand": result.demand,
        "capacity": result.capacity, "acceleration": result.acceleration,
        "critical_angle_deg": math.degrees(result.critical_angle),
        "tangent": tangent, "normal": normal, "contact_point": contact, "center": center,
        "arrows": {
            "gravity": np.array([0.0, -1.0]),
            "normal": n_mg * normal,
            "friction": f_mg * tangent,
            "contact": n_mg * normal + f_mg * tangent,
            "push": push * (math.cos(b) * tangent + math.sin(b) * normal),
        },
    }


def ramp_describe(data: dict) -> tuple[str, str, list[tuple[str, str]]]:
    """State label and readout rows of the ramp figure.

    Explained in :ref:`sec-cf-ramp`.

    Returns
    -------
    text, key, rows : str, str, list of (str, str)
        The label, its colour key and the readout table.

    Examples
    --------
    >>> ramp_describe(ramp_data(alpha_deg=45.0))[0]
    'SLIP (down the slope)'
    """
    instance_of(data, dict, "data")
    state = data["state"]
    text = {"stick": "STICK", "lift-off": "LIFT-OFF"}.get(state, f"SLIP ({data['direction']} the slope)")
    rows = [
        ("critical angle arctan(mu_s)", f"{data['critical_angle_deg']:.1f} deg"),
        ("tilt alpha", f"{data['alpha_deg']:.1f} deg"),
        ("normal force f_n", f"{data['normal_force']:.2f} N"),
        ("friction needed to hold", f"{data['demand']:.2f} N"),
        ("static ceiling mu_s f_n", f"{data['capacity']:.2f} N"),
        ("friction supplied", f"{data['friction']:.2f} N"),
        ("acceleration up the slope", f"{data['acceleration']:.2f} m/s^2"),
    ]
    return text, state, rows


def draw_ramp(data: dict, ax: Any = None) -> Figure:
    """Draw the block on the ramp with its forces and friction cone.

    Arrows are in units of ``m g``; ``ax`` is one matplotlib axes (a new
    pyplot-free figure when omitted, or new axes on a given
    matplotlib (sub)figure). The title names the tilt, ``mu_s`` and
    the state.
    Explained in :ref:`sec-cf-ramp`.

    Returns
    -------
    matplotlib.figure.Figure
        The figure holding ``ax``.

    Examples
    --------
    >>> len(draw_ramp(ramp_data()).axes)
    1
    """
    instance_of(data, dict, "data")
    fig, ax = fr.new_axes(ax, (5.2, 4.2))
    a = math.radians(data["alpha_deg"])
    tangent, normal = data["tangent"], data["normal"]
    length = 3.4
    top = length * tangent
    fr.fill(ax, [0, top[0], top[0]], [0, 0, top[1]], fr.COLORS["ground"], alpha=0.25)
    fr.line(ax, [0, top[0]], [0, top[1]], color=fr.COLORS["ground"], lw=2)
    fr.line(ax, [-0.2, top[0] + 0.2], [0, 0], color="#999999", lw=1)
    gamma = math.atan(data["mu_s"])
    fan = fr.fan(data["contact_point"], a + math.pi / 2, gamma, 1.25)
    fr.fill(ax, fan[:, 0], fan[:, 1], fr.COLORS["cone"], alpha=0.22, zorder=1)
    for side in (-1, 1):
        edge = data["contact_point"] + 1.25 * np.array([math.cos(a + math.pi / 2 + side * gamma),
                                                        math.sin(a + math.pi / 2 + side * gamma)])
        fr.line(ax, *zip(data["contact_point"], edge), color=fr.COLORS["cone"], ls="--", lw=1, zorder=1)
    corner = data["contact_point"] - 0.3 * tangent
    square = np.array([corner, corner + 0.6 * tangent, corner + 0.6 * tangent + 0.6 * normal,
                       corner + 0.6 * normal, corner])
    if data["state"] == "lift-off":
        square = square + 0.12 * normal
    fr.fill(ax, square[:, 0], square[:, 1], "#dddddd", ec="#555555", lw=1.2, zorder=2)
    arrows = data["arrows"]
    fr.arrow(ax, data["center"], arrows["gravity"], fr.COLORS["gravity"], label="$mg$")
    fr.arrow(ax, data["contact_point"], arrows["normal"], fr.COLORS["normal"], label="$f_n$")
    fr.arrow(ax, data["contact_point"], arrows["friction"], fr.COLORS["friction"], label="$f_t$")
    fr.arrow(ax, data["contact_point"], arrows["contact"], fr.COLORS["contact"], width=2.6, label="$f$")
    fr.arrow(ax, data["center"], arrows["push"], fr.COLORS["push"], label="$F$")
    text, key, _ = ramp_describe(data)
    ax.set_title(rf"$\alpha$ = {data['alpha_deg']:.0f} deg, $\mu_s$ = {data['mu_s']:.2f}: {text}",
                 color=fr.STATE_COLORS.get(key, "k"), fontsize=10)
    ax.set_aspect("equal")
    ax.set_xlim(-0.6, 3.8)
    ax.set_ylim(-1.2, 3.2)
    ax.set_xticks([])
    ax.set_yticks([])
    return fig


#: The figure's record: title, controls (sliders over ``ramp_data``'s keywords) and constants.
FIGURE = FigureSpec(
    name="ramp", title="Block on a ramp: stick, slip, lift-off",
    controls=(
        control("alpha_deg", "tilt alpha", 0.0, 90.0, 0.5, "deg", digits=1),
        control("mu_s", "static friction mu_s", 0.0, 1.5, 0.01),
        control("mu_k", "kinetic friction mu_k", 0.0, 1.5, 0.01),
        control("mass", "mass m", 0.1, 10.0, 0.1, "kg", digits=1),
        control("push", "push F", 0.0, 2.0, 0.01, "x mg"),
        control("beta_deg", "push angle beta", -90.0, 90.0, 1.0, "deg", digits=0),
    ),
    data=ramp_data, describe=ramp_describe, draw=draw_ramp, constants=("g",), size=(5.2, 4.2),
    section="sec-cf-ramp",
)
