"""FIG 4: a ball dropped on the floor, penalty versus impulse contact.

``ball_drop_data`` turns the control values into plain data (computed by the
tested routines of ``lib``), ``ball_drop_describe`` gives the state label and the
readout rows, and ``draw_ball_drop`` draws the data on a pyplot-free matplotlib
figure (the book's static picture). The live figure (:mod:`lib.figures.live`)
starts from the defaults of ``ball_drop_data`` and prints the rows of
``ball_drop_describe``.

Explained in :ref:`sec-cf-nonsmooth`.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from matplotlib.figure import Figure, FigureBase
from matplotlib.ticker import NullLocator

from ..common import GRAVITY
from .. import contact_sim, soft_contact
from .._validation import in_range, instance_of, nonnegative, one_of, positive
from ..models import ball_drop as drop
from . import _frame as fr
from .spec import FigureSpec, choice, control

__all__ = ["ball_drop_data", "ball_drop_describe", "draw_ball_drop"]


def _downsample(n: int, limit: int = 800) -> np.ndarray:
    return np.arange(0, n, max(1, int(math.ceil(n / limit))))


def ball_drop_data(model: str = "penalty", k: float = 1e4, dt: float = 1e-3, zeta: float = 0.1,
                   e: float = 0.8, mass: float = 1.0, h0: float = 1.0,
                   g: float = GRAVITY) -> dict:
    """Data of the ball-drop figure: one simulation and the closed forms it is checked against.

    ``model`` is ``"penalty"`` (:func:`lib.models.ball_drop.simulate_penalty_drop`,
    2.5 s) or ``"impulse"`` (:func:`lib.models.ball_drop.simulate_impulse_drop`,
    run until a little after the predicted rest time, at most 20 s).
    Explained in :ref:`sec-cf-nonsmooth`.

    Examples
    --------
    >>> d = ball_drop_data("impulse", e=0.5, dt=1e-3)
    >>> round(d["rest_predicted"], 3), round(d["rest_simulated"], 3)
    (1.355, 1.351)
    """
    one_of(model, "model", ("penalty", "impulse"))
    k, dt, mass, h0 = (positive(x, name) for x, name in ((k, "k"), (dt, "dt"), (mass, "mass"), (h0, "h0")))
    zeta, e = nonnegative(zeta, "zeta"), in_range(e, "e", 0.0, 1.0)
    v0 = drop.impact_speed(h0, g)
    out: dict[str, Any] = {"model": model, "k": float(k), "dt": float(dt), "zeta": float(zeta), "e": float(e),
                           "mass": float(mass), "h0": float(h0), "v0": v0}
    if model == "penalty":
        result = drop.simulate_penalty_drop(k, dt, zeta, mass, h0, 2.5, g)
        omega = contact_sim.natural_frequency(k, mass)
        sag = mass * g / k
        out.update({
            "omega": omega, "omega_dt": omega * dt, "critical_omega_dt": contact_sim.critical_omega_dt(zeta),
            "amplification": contact_sim.step_amplification(omega * dt, zeta),
            "penetration_predicted": contact_sim.max_penetration(v0, k, mass, zeta) + sag,
            "restitution_predicted": contact_sim.effective_restitution_no_tension(zeta),
            "restitution_tension": soft_contact.kelvin_voigt_restitution(zeta),
            "stable_step": contact_sim.stable_time_step(k, mass, zeta),
            # Plot scales that depend on k only (the undamped bound), so the
            # axes of the live figure stay put while dt and zeta change.
            "depth_scale": v0 / omega + 2.0 * sag,
            "force_scale": k * (v0 / omega + 2.0 * sag),
        })
    else:  # "impulse" (checked by one_of above)
        predicted = drop.impulse_rest_time(h0, e, g) if e < 1.0 else math.inf
        t_end = min(max(2.5, 1.1 * predicted + 0.3), 20.0)
        result = drop.simulate_impulse_drop(e, dt, mass, h0, t_end, g)
        out.update({"rest_predicted": predicted, "rest_simulated": result.rest_time, "t_end": t_end,
                    "depth_scale": 1e-3, "force_scale": 2.0 * mass * v0 / dt + mass * g})
    keep = _downsample(len(result.t))
    keep_f = _downsample(len(result.force))
    out.update({
        "steps": len(result.force), "max_penetration": result.max_penetration, "max_rebound": result.max_rebound,
        "gained_energy": result.gained_energy, "diverged": result.diverged,
        "restitution_measured": result.restitution, "bounces": result.bounces,
        "t": result.t[keep], "height": result.height[keep],
        "gap": result.gap[keep_f], "force": result.force[keep_f],
    })
    if model == "penalty":
        if out["omega_dt"] >= out["critical_omega_dt"] or result.diverged:
            out["status"] = "unstable"
        elif result.gained_energy:
            out["status"] = "energy gain"
        else:
            out["status"] = "stable"
    else:
        out["status"] = "rest" if math.isfinite(result.rest_time) else "bouncing"
    return out


def ball_drop_describe(data: dict) -> tuple[str, str, list[tuple[str, str]]]:
    """State label and readout rows of the ball-drop figure.

    Explained in :ref:`sec-cf-nonsmooth`.

    Returns
    -------
    text, key, rows : str, str, list of (str, str)
        The label, its colour key and the readout table.

    Examples
    --------
    >>> ball_drop_describe(ball_drop_data("impulse", e=0.5))[0]
    'IMPULSE: at rest'
    """
    instance_of(data, dict, "data")
    status = data["status"]
    if data["model"] == "penalty":
        labels = {"stable": "PENALTY: stable", "energy gain": "PENALTY: energy gained (rose above start)",
                  "unstable": "PENALTY: BLOWN UP (omega_n dt past the limit)"}
        rows = [
            ("omega_n = sqrt(k/m)", f"{data['omega']:.1f} rad/s"),
            ("omega_n dt", f"{data['omega_dt']:.3f}"),
            ("stability limit of omega_n dt", f"{data['critical_omega_dt']:.3f}"),
            ("growth per step in contact", f"{data['amplification']:.3f}"),
            ("max penetration: sim / damped peak + sag", f"{1e3 * data['max_penetration']:.2f} / "
                                                     f"{1e3 * data['penetration_predicted']:.2f} mm"),
            ("restitution: sim / closed form", f"{data['restitution_measured']:.3f} / "
                                               f"{data['restitution_predicted']:.3f}"),
            ("highest rebound", f"{data['max_rebound']:.3f} m"),
            ("steps", f"{data['steps']}"),
        ]
        return labels[status], status, rows
    rest_sim = data["rest_simulated"]
    rows = [
        ("restitution e", f"{data['e']:.2f}"),
        ("predicted rest time t0 (1+e)/(1-e)", f"{data['rest_predicted']:.3f} s"),
        ("simulated rest time", f"{rest_sim:.3f} s" if math.isfinite(rest_sim) else "still bouncing"),
        ("bounces resolved", f"{data['bounces']}"),
        ("steps", f"{data['steps']}"),
    ]
    text = "IMPULSE: at rest" if status == "rest" else "IMPULSE: still bouncing"
    return text, status, rows


def draw_ball_drop(data: dict, ax: Any = None) -> Figure:
    """Draw height, penetration and the complementarity plot of a ball drop.

    ``ax`` is a triple ``(height_ax, penetration_ax, complementarity_ax)`` (a
    new pyplot-free figure when omitted, or new axes on a given
    matplotlib (sub)figure). The picture holds every stored
    step; the title names the state.
    Explained in :ref:`sec-cf-nonsmooth`.

    Returns
    -------
    matplotlib.figure.Figure
        The figure holding the axes.

    Examples
    --------
    >>> len(draw_ball_drop(ball_drop_data("penalty")).axes)
    3
    >>> ax = draw_ball_drop(ball_drop_data("impulse", e=0.3)).axes[1]
    >>> [float(x) for x in ax.get_xlim()], ax.get_xlabel()
    ([0.0, 3.0], 'time (s)')
    """
    instance_of(data, dict, "data")
    if ax is None or isinstance(ax, FigureBase):
        fig = Figure(figsize=(9.0, 4.2), layout="constrained") if ax is None else ax
        grid = fig.add_gridspec(2, 2, width_ratios=[1.5, 1.0])
        ax = (fig.add_subplot(grid[0, 0]), fig.add_subplot(grid[1, 0]), fig.add_subplot(grid[:, 1]))
    ax_h, ax_d, ax_c = ax
    fig = ax_h.get_figure(root=True)
    penalty = data["model"] == "penalty"
    color = fr.COLORS[data["model"]]
    t, height = data["t"], data["height"]
    t_max = fr.nice_ceil(float(t[-1]))
    top = max(1.3 * data["h0"], 0.2)
    fr.line(ax_h, t, np.clip(height, -top, top), color=color, lw=1.2)
    ax_h.axhline(data["h0"], color="#999999", ls=":", lw=1)
    ax_h.axhline(0.0, color=fr.COLORS["ground"], lw=1)
    ax_h.set_ylim(-0.05 * top, top)
    ax_h.set_ylabel("height (m)")
    text, key, _ = ball_drop_describe(data)
    ax_h.set_title(text, color=fr.STATE_COLORS.get(key, "k"), fontsize=10)
    depth = np.maximum(-height, 0.0)
    fr.line(ax_d, t, np.clip(1e3 * depth, 0, 200), color=color, lw=1.0)
    ax_d.set_ylabel("penetration (mm)")
    ax_d.set_ylim(0.0, fr.nice_ceil(min(1.1e3 * data["depth_scale"], 200.0)))
    ax_d.set_xlabel("time (s)")
    if not penalty:
        ax_d.text(0.5, 0.5, "rigid floor: no penetration", transform=ax_d.transAxes, ha="center",
                  va="center", color="#777777", fontsize=9)
    ax_h.set_xlim(0.0, t_max)
    ax_d.set_xlim(0.0, t_max)
    gap = 1e3 * data["gap"]
    force = data["force"]
    # The picture holds every step: the force axis reaches the largest force
    # (at least the bound force_scale: penalty, k times the undamped depth;
    # impulse, the largest impulse over one step), and the gap axis is linear
    # over the contact region and logarithmic beyond it, up to the release
    # height.
    f_top = fr.nice_ceil(max(60.0, 1.1 * data["force_scale"],
                             1.05 * float(np.max(force[np.isfinite(force)], initial=0.0))))
    finite_gap = gap[np.isfinite(gap)]
    deepest = max(-float(np.min(finite_gap, initial=0.0)), 0.0)
    low = -fr.nice_ceil(max(1.2e3 * data["depth_scale"], 1.1 * deepest, 2.0)) if penalty else -10.0
    high = fr.nice_ceil(max(1.05 * float(np.max(finite_gap, initial=0.0)), 10.0))
    fr.line(ax_c, [high, 0.0, 0.0], [0.0, 0.0, f_top], color=fr.COLORS["rigid"], lw=3, alpha=0.6,
            label=r"rigid: $0\leq f_n\perp\phi\geq0$")
    if penalty:
        depth_line = np.linspace(0.0, f_top / data["k"], 2)
        fr.line(ax_c, -1e3 * depth_line, data["k"] * depth_line, color=fr.COLORS["penalty"], ls="--", lw=1.2,
                label=r"penalty: $f_n = k\delta$")
    shown = (gap > low) & (gap < high) & (force <= f_top)
    fr.line(ax_c, gap[shown], force[shown], marker=".", ls="none", color=color, ms=4, alpha=0.7, zorder=5,
            label="simulation steps")
    ax_c.set_xscale("symlog", linthresh=-low, linscale=2.0)
    decades = [10.0**p for p in range(1, int(math.floor(math.log10(high))) + 1)
               if 10.0**p >= -0.5 * low]
    ticks = [low, 0.5 * low, 0.0] + decades
    ax_c.set_xticks(ticks, [f"{t:g}" for t in ticks])
    ax_c.xaxis.set_minor_locator(NullLocator())
    ax_c.set_xlim(low, high)
    ax_c.set_ylim(-0.03 * f_top, f_top)
    ax_c.set_xlabel(r"gap $\phi$ (mm)")
    ax_c.set_ylabel(r"normal force $f_n$ (N)")
    ax_c.legend(loc="upper right", fontsize=7)
    ax_c.set_title("complementarity", fontsize=10)
    return fig


#: The figure's record: title, controls (``k`` and ``dt`` on logarithmic sliders) and constants.
FIGURE = FigureSpec(
    name="ball_drop", title="A ball dropped from 1 m: penalty versus impulse contact",
    controls=(
        choice("model", "contact model", ["penalty", "impulse"]),
        control("k", "stiffness k", 3.0, 7.0, 0.05, "N/m", kind="log"),
        control("dt", "time step dt", -4.0, -1.5, 0.02, "s", kind="log"),
        control("zeta", "damping ratio zeta", 0.0, 0.9, 0.01),
        control("e", "restitution e", 0.0, 0.95, 0.01),
    ),
    data=ball_drop_data, describe=ball_drop_describe, draw=draw_ball_drop, constants=("mass", "h0", "g"),
    size=(9.0, 4.2), section="sec-cf-nonsmooth",
)
