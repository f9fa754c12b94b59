"""Every live figure's JavaScript agrees with the lib functions it ports, in node, without the book.

A live figure (:mod:`lib.figures.live`) computes in the reader's browser with
``js/<name>.js``, a JavaScript port of its ``<name>_data`` and
``<name>_describe`` (:mod:`lib.figures`). This test imports the very ES module
the widget ships (:func:`lib.figures.live.module_source`: the palette,
``js/frame.js`` and ``js/<name>.js``; nothing in it touches a page before
rendering) in node, once for all figures, and runs ``FIGURE.compute``,
``FIGURE.describe`` and ``FIGURE.draw`` over a grid of settings of every
registered figure (:data:`lib.figures.FIGURES`):

- the hand-picked ``CASES`` below (the edges of the sliders and of the physics:
  the switch between two states, refused inputs);
- ``sweeps``: each slider alone over ``SWEEP_POSITIONS`` positions of its range,
  ends included, and each option of a choice, derived from the figure's record,
  so a new figure is covered as soon as it is registered.

For each setting it compares

- every quantity and curve ``compute`` returns with the entry of
  ``<name>_data`` of the same name (``RENAMED`` lists the one renamed key),
  to ``RTOL``/``ATOL`` (the ports repeat lib's arithmetic; what is left is the
  order of floating-point operations, see the tolerances);
- the state label, its colour key and every readout row with
  ``<name>_describe``, character for character;
- a refused setting's message with the lib exception's message;

and checks that ``draw`` draws a picture with as many panels as ``draw_<name>``
has axes. It also checks the frame's number formatting against Python's
``format`` on awkward values (ties, negative zero, tiny and huge numbers).
``tests/test_figures_live.py`` checks the same figures in the built page.
"""

from __future__ import annotations

import json
import math
import shutil
import subprocess
from typing import Any

import matplotlib
import numpy as np
import pytest

matplotlib.use("Agg")

from lib import figures as cf  # noqa: E402
from lib.errors import DynamicsInputError  # noqa: E402
from lib.figures import live  # noqa: E402
from lib.figures.spec import FigureSpec  # noqa: E402

NODE = shutil.which("node")

#: Positions per slider in ``sweeps`` (both ends and SWEEP_POSITIONS - 2 between).
SWEEP_POSITIONS = 9
#: The ports repeat lib's formulas operation by operation (the simulations
#: step for step, also past the stability limit), so the quantities agree to
#: a few ulps: the largest difference over the grid is 1.4e-14 (an angle of
#: order 90 degrees; numpy's vectorised calls against JavaScript's scalar
#: loops). RTOL and ATOL leave a hundredfold margin above that and stay far
#: below the readouts' last printed digit (1e-3).
RTOL = 1e-12
ATOL = 1e-12
#: Top-level keys of ``compute``'s result that ``<name>_data`` spells differently.
RENAMED = {("ramp", "contact"): "contact_point"}


def _grid(base: dict[str, Any], *changes: dict[str, Any]) -> list[dict[str, Any]]:
    return [{**base, **change} for change in changes]


#: Figure name -> hand-picked settings: each gives a value for every control of
#: the figure, at the edges of the sliders and of the physics (the switch
#: between two states, a refused input). ``sweeps`` adds each slider's range.
CASES: dict[str, list[dict[str, Any]]] = {
    "ramp": _grid(
        {"alpha_deg": 20.0, "mu_s": 0.8, "mu_k": 0.6, "mass": 1.0, "push": 0.0, "beta_deg": 0.0},
        {},
        {"mu_s": 0.0, "mu_k": 0.0},                   # frictionless: slips at any tilt
        {"mu_s": 0.0, "mu_k": 0.0, "alpha_deg": 0.0},  # frictionless and flat: stays
        {"alpha_deg": 0.0},
        {"alpha_deg": 38.5},                          # just below arctan(0.8) = 38.66 deg
        {"alpha_deg": 39.0},                          # just above
        {"alpha_deg": 39.0, "mass": 10.0},            # the mass does not move the switch
        {"alpha_deg": 39.0, "mass": 0.1},
        {"alpha_deg": 85.0},
        {"alpha_deg": 89.5, "mu_s": 1.5, "mu_k": 1.5},
        {"alpha_deg": 90.0},                          # a vertical ramp: outside lib's model, refused
        {"mu_k": 0.81},                               # mu_k > mu_s: refused
        {"mu_s": 1.5, "mu_k": 0.0, "alpha_deg": 56.0},
        {"alpha_deg": 45.0, "push": 0.5, "beta_deg": -90.0},   # pressed into the plank: sticks
        {"alpha_deg": 45.0, "push": 0.2, "beta_deg": -90.0},
        {"alpha_deg": 20.0, "push": 1.0, "beta_deg": 80.0},    # pulled away: lifts off
        {"alpha_deg": 20.0, "push": 2.0, "beta_deg": 90.0},
        {"alpha_deg": 10.0, "push": 2.0, "beta_deg": 0.0},     # pushed up the slope: slips up
        {"alpha_deg": 30.0, "push": 0.5, "beta_deg": 0.0},     # push balances gravity along the slope
        {"alpha_deg": 60.0, "push": 1.3, "beta_deg": 30.0, "mu_s": 0.2, "mu_k": 0.1, "mass": 4.7},
        {"alpha_deg": 0.0, "push": 2.0, "beta_deg": -90.0, "mass": 10.0},
        {"alpha_deg": 70.5, "push": 0.37, "beta_deg": -45.0, "mu_s": 0.55, "mu_k": 0.55, "mass": 2.3},
    ),
    "cone2d": _grid(
        {"f_t": 1.0, "f_n": 3.0, "mu": 0.5},
        {},
        {"mu": 0.0},                                  # frictionless: any tangential demand slips
        {"mu": 0.0, "f_t": 0.0},                      # frictionless, straight down: sticks
        {"mu": 2.0, "f_t": 4.5, "f_n": 2.3},          # top of the mu range, just inside
        {"mu": 2.0, "f_t": 4.5, "f_n": 2.2},          # just outside
        {"f_t": 2.0, "f_n": 4.0},                     # exactly on the cone's edge (mu = 0.5)
        {"f_t": 2.05, "f_n": 4.0},                    # one step outside
        {"f_t": -2.0, "f_n": 4.0},                    # the other edge
        {"f_t": -2.05, "f_n": 4.0},
        {"f_t": 0.0, "f_n": 0.0},                     # no demand at all
        {"f_t": 1.0, "f_n": 0.0},                     # tangential only: slips
        {"f_t": 1.0, "f_n": -0.05},                   # the surface would have to pull
        {"f_t": -4.5, "f_n": -2.0},                   # corner of the ranges
        {"f_t": 4.5, "f_n": 4.5, "mu": 1.0},          # on the 45 degree edge
        {"f_t": 4.5, "f_n": 4.5, "mu": 0.99},
        {"f_t": -4.5, "f_n": 4.5, "mu": 2.0},
        {"f_t": 0.05, "f_n": 0.05, "mu": 0.01},
        {"f_t": 3.0, "f_n": 4.0, "mu": 0.5},          # lib's doctest: supplied (2, 4), remainder (1, 0)
        {"f_t": -3.35, "f_n": 1.25, "mu": 1.37},
        {"f_t": 0.0, "f_n": -2.0, "mu": 0.73},
        {"f_t": 4.45, "f_n": 0.1, "mu": 1.5},
        {"f_t": -0.05, "f_n": 4.5, "mu": 0.0},
    ),
    "pyramid": _grid(
        {"k": 4, "mu": 0.8, "phi_deg": 45.0, "azimuth_deg": 30.0},
        {},
        {"k": 3},                                     # the fewest edges
        {"k": 3, "phi_deg": 0.0},                     # along an edge
        {"k": 3, "phi_deg": 60.0},                    # across a face
        {"k": 3, "phi_deg": 360.0, "azimuth_deg": 360.0},
        {"k": 32},                                    # the most edges
        {"k": 32, "phi_deg": 5.5},
        {"mu": 0.0},                                  # no friction: every capacity is zero
        {"mu": 0.0, "k": 3},
        {"mu": 1.5, "k": 4, "phi_deg": 45.0},
        {"k": 4, "phi_deg": 0.0},
        {"k": 4, "phi_deg": 90.0},
        {"k": 4, "phi_deg": 135.5},
        {"k": 5, "phi_deg": 36.0},
        {"k": 6, "phi_deg": 30.0, "mu": 1.0},
        {"k": 7, "phi_deg": 200.5, "mu": 0.33},
        {"k": 8, "phi_deg": 22.5, "mu": 0.6},
        {"k": 12, "phi_deg": 15.0, "azimuth_deg": 0.0},
        {"k": 16, "phi_deg": 11.5, "azimuth_deg": 180.0},
        {"k": 17, "phi_deg": 359.5, "mu": 1.21},
        {"k": 24, "phi_deg": 7.5, "mu": 0.05},
        {"k": 31, "phi_deg": 270.0, "mu": 0.9},
    ),
    "ball_drop": _grid(
        {"model": "penalty", "k": 1e4, "dt": 1e-3, "zeta": 0.1, "e": 0.8},
        {},
        {"dt": 0.0173780082874},                       # omega dt = 1.738, just below the limit 1.810 (zeta 0.1)
        {"dt": 0.0181970085861},                       # omega dt = 1.820, just above: blown up
        {"zeta": 0.0, "dt": 0.0199526231497},          # omega dt = 1.995, just below the limit 2 (no damping)
        {"zeta": 0.0, "dt": 0.0208929613085},          # omega dt = 2.089, just above
        {"zeta": 0.0},                                 # no damping: restitution 1
        {"zeta": 0.9},                                 # the most damping
        {"k": 1000.0},                                 # the softest floor
        {"k": 1e7, "dt": 1e-4},                        # the stiffest floor, the smallest step
        {"k": 1e7, "dt": 0.000630957344480},           # omega dt = 1.995 at k = 1e7
        {"k": 1e7, "dt": 1e-3},                        # far past the limit
        {"k": 1e5, "dt": 0.000251188643151, "zeta": 0.3},
        {"k": 3162.27766017, "dt": 0.0316227766017, "zeta": 0.5},  # the largest step
        {"model": "impulse"},
        {"model": "impulse", "e": 0.0},                # plastic impact: rests at the first touch
        {"model": "impulse", "e": 0.95},               # the bounciest
        {"model": "impulse", "e": 0.5, "dt": 1e-4},
        {"model": "impulse", "e": 0.5, "dt": 0.0316227766017},
        {"model": "impulse", "e": 0.9, "dt": 0.00398107170553},
        {"model": "impulse", "e": 0.33, "dt": 0.0125892541179},
        {"model": "impulse", "e": 0.71, "dt": 0.000501187233627},
        {"model": "penalty", "k": 50118.7233627, "dt": 0.00630957344480, "zeta": 0.05},
    ),
    "fingertip": _grid(
        {"x_tip": 0.3, "elbow": "up", "mu": 0.6, "tau_max": 1.0, "f_t": 0.5, "f_n": 2.0},
        {},
        {"elbow": "down"},
        {"x_tip": 0.86},                               # the edge of the workspace (0.866 m), reachable
        {"x_tip": 0.86, "elbow": "down", "f_n": 8.0},
        {"x_tip": -0.86},
        {"x_tip": 0.87},                               # just past it: refused
        {"x_tip": -0.9, "elbow": "down"},
        {"x_tip": 0.0},                                # straight below the shoulder
        {"mu": 0.0, "f_t": 0.0},                       # frictionless table, straight-down force
        {"mu": 0.0, "f_t": 0.05},                      # frictionless: any sideways force leaves the cone
        {"mu": 1.5, "f_t": -6.0, "f_n": 4.0},
        {"tau_max": 0.2},                              # the smallest torque limit
        {"tau_max": 3.0, "f_n": 8.0},                  # the largest
        {"x_tip": 0.5, "mu": 0.5, "f_t": 0.0, "f_n": 2.0},   # lib's doctest posture: at joint 1's limit
        {"x_tip": 0.5, "mu": 0.5, "f_t": 0.0, "f_n": 2.05},  # just over it
        {"x_tip": 0.5, "mu": 0.5, "f_t": 0.0, "f_n": 3.0},
        {"f_n": -1.0},                                 # the table would have to pull
        {"f_n": -0.05, "f_t": 6.0},
        {"f_t": 6.0, "f_n": 8.0},                      # both joints over their limits
        {"x_tip": -0.45, "elbow": "down", "mu": 0.9, "tau_max": 1.35, "f_t": -1.2, "f_n": 3.3},
        {"x_tip": 0.72, "elbow": "up", "mu": 0.25, "tau_max": 2.2, "f_t": 0.75, "f_n": 5.5},
        {"x_tip": -0.2, "elbow": "up", "mu": 1.1, "tau_max": 0.55, "f_t": 2.5, "f_n": 1.0},
    ),
    "rnea_wrenches": _grid(
        {"q1_deg": 30.0, "q2_deg": -60.0, "q3_deg": 45.0, "qd": 0.0, "qdd": 0.0},
        {},
        {"q1_deg": 0.0, "q2_deg": 0.0, "q3_deg": 0.0},             # q = 0: stretched along x
        {"q1_deg": 90.0, "q2_deg": 0.0, "q3_deg": 0.0},            # upright at rest: no torque
        {"q1_deg": -90.0, "q2_deg": 0.0, "q3_deg": 0.0},           # hanging: no torque
        {"q1_deg": 0.0, "q2_deg": 180.0, "q3_deg": -180.0},        # folded back onto itself
        {"q1_deg": 0.0, "q2_deg": 180.0, "q3_deg": -180.0, "qd": 3.0},
        {"q1_deg": -180.0, "q2_deg": -180.0, "q3_deg": -180.0},    # every slider at its low end
        {"q1_deg": 180.0, "q2_deg": 180.0, "q3_deg": 180.0, "qd": 3.0, "qdd": 10.0},  # high ends
        {"q1_deg": -180.0, "q2_deg": -180.0, "q3_deg": -180.0, "qd": -3.0, "qdd": -10.0},
        {"qd": 3.0},                                                # velocity terms alone
        {"qd": -3.0},                                               # same torques: quadratic in qd
        {"qdd": 10.0},                                              # from rest, accelerating
        {"qdd": -10.0},
        {"qd": 3.0, "qdd": 10.0},
        {"qd": 3.0, "qdd": -10.0},
        {"q1_deg": 0.0, "q2_deg": 0.0, "q3_deg": 0.0, "qd": 3.0},  # stretched and spinning
        {"q1_deg": 0.0, "q2_deg": 0.0, "q3_deg": 0.0, "qdd": -10.0},
        {"q1_deg": 90.0, "q2_deg": 0.0, "q3_deg": 0.0, "qd": 0.1},  # the smallest rate
        {"q1_deg": 90.0, "q2_deg": 0.0, "q3_deg": 0.0, "qdd": 0.5},  # the smallest acceleration
        {"q1_deg": 45.0, "q2_deg": 90.0, "q3_deg": 90.0, "qd": -1.7, "qdd": 4.5},
        {"q1_deg": -123.0, "q2_deg": 77.0, "q3_deg": -5.0, "qd": 2.2, "qdd": -7.5},
        {"q1_deg": 1.0, "q2_deg": -1.0, "q3_deg": 1.0, "qd": 0.3, "qdd": 0.0},
    ),
    "lagrange_terms": _grid(
        {"q1_deg": 30.0, "q2_deg": 45.0, "qd1": 3.0, "qd2": -3.0, "qdd1": 5.0, "qdd2": 0.0},
        {},
        {"qd1": 0.0, "qd2": 0.0, "qdd1": 0.0},                # at rest: gravity alone
        {"q1_deg": 0.0, "q2_deg": 0.0},                        # q = 0: stretched, no velocity terms
        {"q1_deg": 90.0, "q2_deg": 0.0, "qd1": 0.0, "qd2": 0.0, "qdd1": 0.0},  # upright: tau = 0
        {"q1_deg": -90.0, "q2_deg": 0.0},                      # hanging
        {"q2_deg": 90.0},                                      # sin q2 = 1: the largest c_ijk
        {"q2_deg": -90.0},
        {"q2_deg": 180.0},                                     # folded: M12 and M11 smallest
        {"q2_deg": -180.0, "q1_deg": -180.0},                  # both sliders at their low end
        {"q2_deg": 180.0, "q1_deg": 180.0},
        {"qd1": 5.0, "qd2": 0.0, "qdd1": 0.0},                 # centrifugal only from joint 1
        {"qd1": 0.0, "qd2": 5.0, "qdd1": 0.0},                 # centrifugal only from joint 2
        {"qd1": 5.0, "qd2": 5.0, "qdd1": 0.0},                 # Coriolis with equal rates
        {"qd1": -5.0, "qd2": 5.0, "qdd1": 0.0},                # Coriolis changes sign
        {"qd1": 0.0, "qd2": 0.0, "qdd1": 20.0, "qdd2": 0.0},   # inertial, the first column of M
        {"qd1": 0.0, "qd2": 0.0, "qdd1": 0.0, "qdd2": 20.0},   # the second column
        {"qd1": -5.0, "qd2": -5.0, "qdd1": -20.0, "qdd2": -20.0},  # every slider at its low end
        {"qd1": 5.0, "qd2": 5.0, "qdd1": 20.0, "qdd2": 20.0},
        {"qd1": 0.1, "qd2": -0.1, "qdd1": 0.5, "qdd2": -0.5},  # the smallest steps
        {"q1_deg": -137.0, "q2_deg": 23.0, "qd1": 2.7, "qd2": -4.1, "qdd1": 13.5, "qdd2": -6.0},
        {"q1_deg": 61.0, "q2_deg": -152.0, "qd1": -1.3, "qd2": 3.9, "qdd1": -9.5, "qdd2": 17.0},
    ),
    # The tip's effective masses: m_max = 1 / w_min with w_min = det(W) / w_max, det(W)
    # = det(J)^2 / det(M) (lib: det J from lib's Jacobian; JS: l1 l2 sin q2), so also
    # near the stretched arm (q2 = 1 deg, m_max = 4.4e3 kg) they agree inside RTOL
    # (measured over the grid: 1e-14 relative on m_max, 1e-13 on W's entries); at
    # sin q2 = 0 (q2 = 0, +-180: J singular) both give m_max = inf.
    "inertia_ellipse": _grid(
        {"q1_deg": 30.0, "q2_deg": 60.0},
        {},
        {"q1_deg": 0.0, "q2_deg": 0.0},          # q = 0: stretched along x, m_max unbounded
        {"q2_deg": 0.0},                         # stretched: unbounded along the arm (30 deg)
        {"q2_deg": 1.0},                         # one step from the singularity
        {"q2_deg": -1.0},
        {"q2_deg": 2.0},
        {"q2_deg": 180.0},                       # folded: the tip at the shoulder, singular
        {"q2_deg": -180.0},
        {"q2_deg": 179.0},                       # one step from folded
        {"q1_deg": -180.0, "q2_deg": -180.0},    # both sliders at their low end
        {"q1_deg": 180.0, "q2_deg": 180.0},      # both at their high end
        {"q1_deg": -180.0, "q2_deg": 179.0},
        {"q1_deg": 0.0, "q2_deg": 90.0},         # m_min = 2/3, m_max = 8/3 kg; axes on x, y
        {"q1_deg": 0.0, "q2_deg": -90.0},        # the mirror image
        {"q1_deg": 90.0, "q2_deg": 90.0},        # the heavy direction at the 180/0 seam
        {"q1_deg": 90.0, "q2_deg": 0.0},         # stretched upwards: unbounded along 90 deg
        {"q1_deg": -90.0, "q2_deg": 120.0},
        {"q1_deg": 45.0, "q2_deg": 45.0},
        {"q1_deg": -135.0, "q2_deg": 150.0},
        {"q1_deg": 17.0, "q2_deg": -33.0},
        {"q1_deg": -61.0, "q2_deg": 101.0},
        {"q1_deg": 123.0, "q2_deg": -170.0},
    ),
    # The base angle: lib integrates A_arm / A_base from lib's centroidal momentum matrix
    # by Gauss-Legendre quadrature, the JS evaluates the integral's closed form (atan2):
    # they agree to 3e-14 deg over the grid; the momenta are round-off (1e-16) on both
    # sides, inside ATOL.
    "floating_momentum": _grid(
        {"q_deg": 90.0, "arm_mass": 2.0},
        {},
        {"q_deg": 0.0},                          # the start: no turn
        {"q_deg": 1.0},                          # one step
        {"q_deg": -1.0},
        {"q_deg": 150.0},                        # the slider's ends
        {"q_deg": -150.0},
        {"q_deg": 150.0, "arm_mass": 4.0},       # the heaviest arm: the largest base turn
        {"q_deg": -150.0, "arm_mass": 4.0},
        {"q_deg": 150.0, "arm_mass": 0.5},       # the lightest arm: the smallest
        {"q_deg": -150.0, "arm_mass": 0.5},
        {"q_deg": 0.0, "arm_mass": 4.0},
        {"q_deg": 0.0, "arm_mass": 0.5},
        {"q_deg": 90.0, "arm_mass": 0.5},
        {"q_deg": 90.0, "arm_mass": 4.0},
        {"q_deg": -90.0},                        # the mirror image of the start state
        {"q_deg": 45.0, "arm_mass": 1.0},
        {"q_deg": 120.0, "arm_mass": 3.3},
        {"q_deg": -37.0, "arm_mass": 2.7},
        {"q_deg": 149.0, "arm_mass": 3.9},
        {"q_deg": -149.0, "arm_mass": 0.6},
        {"q_deg": 13.0, "arm_mass": 1.7},
    ),
}



def _slider_value(spec: dict, position: float) -> Any:
    """The value a slider at ``position`` gives (``controlValue`` of ``js/frame.js``)."""
    if spec["kind"] == "log":
        return float(f"{10.0 ** position:.12g}")
    if spec["kind"] == "int":
        return int(round(position))
    return round(position, spec["decimals"])


def sweeps(spec: FigureSpec) -> list[dict[str, Any]]:
    """Each control alone over its range (both ends included) or its options; the rest at the defaults."""
    start = spec.start()
    settings = []
    for control in spec.controls:
        if control["kind"] == "choice":
            values = control["options"]
        else:
            low, high, step = control["min"], control["max"], control["step"]
            n = SWEEP_POSITIONS - 1
            # Positions on the slider's own steps, as a dragged slider gives them.
            values = [_slider_value(control, low + round(i * (high - low) / n / step) * step) for i in range(n + 1)]
        settings += [{**start, control["name"]: value} for value in values]
    return settings


def settings_of(name: str) -> list[dict[str, Any]]:
    """The hand-picked cases of a figure and its sweeps."""
    return CASES.get(name, []) + sweeps(cf.FIGURES[name])


#: Runs every figure's module over its settings; prints one JSON document.
RUNNER = r"""
const jobs = JSON.parse(process.argv[2]);
const out = {};
const replacer = (key, value) => {
  if (ArrayBuffer.isView(value)) return Array.from(value);
  if (typeof value === "number" && !Number.isFinite(value)) return {"$float": String(value)};
  return value;
};
for (const [name, job] of Object.entries(jobs)) {
  const module = await import(job.path);
  const {FIGURE} = module;
  out[name] = job.settings.map((values) => {
    try {
      const data = FIGURE.compute(values, job.constants);
      const {text, key, rows} = FIGURE.describe(data);
      const panels = FIGURE.draw(data, values);
      const drawn = panels.every((p) => p.tag === "svg" && p.children.length >= 2
                                        && p.children[1].children.length > 0);
      return {data, text, key, rows, panels: panels.length, drawn};
    } catch (err) {
      if (err.constructor.name !== "InputError") return {crash: `${err.name}: ${err.message}\n${err.stack}`};
      return {refused: err.message};
    }
  });
  if (name === Object.keys(jobs)[0]) {
    out.$format = job.numbers.map((x) => [module.fmt(x, 2), module.fmt(x, 0), module.fmtG(x), module.fmtG(x, 4),
                                          module.fmtE(x, 2)]);
  }
}
process.stdout.write(JSON.stringify(out, replacer));
"""

#: Numbers the frame's formatting must print as Python does.
AWKWARD_NUMBERS = [0.0, -0.0, 0.125, 0.375, 2.5, 3.5, -2.5, 0.005, 1.005, 2.675, -0.004, 1e-5, 1.5e-7,
                   123456.5, 1234567.0, 9.995, 99999.95, 1e16, 6.02e23, -1e-300, 0.1 + 0.2, 1 / 3, 2.0 ** -30,
                   1e300, 299792.458]


def _decode(value: Any) -> Any:
    if isinstance(value, dict) and set(value) == {"$float"}:
        return float(value["$float"].replace("Infinity", "inf"))
    return value


@pytest.fixture(scope="module")
def node_results(tmp_path_factory) -> dict[str, Any]:
    """Run every registered figure's module in node (one process) over its settings."""
    assert NODE, "node is not installed (the test environment provides node 20)"
    folder = tmp_path_factory.mktemp("figures_js")
    jobs = {}
    for name, spec in cf.FIGURES.items():
        path = folder / f"{name}.mjs"
        # The widget's module as shipped, plus the names this test reads.
        path.write_text(live.module_source(spec) + "\nexport { FIGURE, fmt, fmtG, fmtE };\n", encoding="utf-8")
        jobs[name] = {"path": path.as_uri(), "settings": settings_of(name), "constants": spec.constant_values(),
                      "numbers": AWKWARD_NUMBERS}
    runner = folder / "run.mjs"
    runner.write_text(RUNNER, encoding="utf-8")
    done = subprocess.run([NODE, str(runner), json.dumps(jobs)], capture_output=True, text=True, timeout=300,
                          check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout, object_hook=lambda d: _decode(d) if "$float" in d else d)


def _differences(figure: str, js: Any, py: Any, where: str, rtol: float) -> list[str]:
    """Every entry of the JS result that differs from lib's (recursing into dicts)."""
    if isinstance(js, dict):
        if not isinstance(py, dict):
            return [f"{where}: JS gives a dict, lib {type(py).__name__}"]
        out = []
        for key, value in js.items():
            key_py = RENAMED.get((figure, key), key) if not where else key
            if key_py not in py:
                out.append(f"{where}{key}: computed in JS, not in lib's data")
                continue
            out += _differences(figure, value, py[key_py], f"{where}{key}.", rtol)
        return out
    if isinstance(js, (str, bool)) or isinstance(py, (str, bool, np.bool_)):
        return [] if js == py else [f"{where[:-1]}: JS {js!r}, lib {py!r}"]
    if isinstance(js, list) and js and isinstance(js[0], str):
        return [] if js == list(py) else [f"{where[:-1]}: JS {js!r}, lib {list(py)!r}"]
    a, b = np.asarray(js, dtype=float), np.asarray(py, dtype=float)
    if a.shape != b.shape:
        return [f"{where[:-1]}: shape {a.shape} in JS, {b.shape} in lib"]
    try:
        np.testing.assert_allclose(a, b, rtol=rtol, atol=ATOL)
    except AssertionError as exc:
        return [f"{where[:-1]}: {str(exc).strip().splitlines()[-3:]}"]
    return []


@pytest.mark.parametrize("name", sorted(cf.FIGURES))
def test_javascript_computes_what_lib_computes(node_results, name: str) -> None:
    spec = cf.FIGURES[name]
    settings = settings_of(name)
    results = node_results[name]
    assert len(results) == len(settings) >= 20
    faults = []
    shown = 0
    for values, js in zip(settings, results):
        assert "crash" not in js, f"{name} {values}: {js['crash']}"
        try:
            data = spec.data(**values, **spec.constant_values())
            text, key, rows = spec.describe(data)
        except DynamicsInputError as exc:
            if js.get("refused") != str(exc):
                faults.append(f"{values}: lib refuses ({exc}); JS {js.get('refused', 'computes')!r}")
            continue
        if "refused" in js:
            faults.append(f"{values}: JS refuses ({js['refused']}), lib computes")
            continue
        shown += 1
        faults += [f"{values}: {d}" for d in _differences(name, js["data"], data, "", RTOL)]
        if (js["text"], js["key"], [tuple(r) for r in js["rows"]]) != (text, key, rows):
            faults.append(f"{values}: readout\n  JS  {js['text']!r} {js['key']!r} {js['rows']}\n"
                          f"  lib {text!r} {key!r} {rows}")
        if not js["drawn"]:
            faults.append(f"{values}: JS drew an empty panel")
    assert not faults, f"{name}: {len(faults)} differences over {len(settings)} settings:\n" + "\n".join(faults)
    assert shown >= len(settings) // 2  # most settings are computed, not refused
    # As many panels as the static picture has axes (first setting).
    first = spec.data(**settings[0], **spec.constant_values())
    assert results[0]["panels"] == len(spec.draw(first).axes)


def test_every_control_is_swept_over_its_range_and_the_cases_set_every_control() -> None:
    for name, spec in cf.FIGURES.items():
        swept = sweeps(spec)
        for control in spec.controls:
            seen = {s[control["name"]] for s in swept}
            if control["kind"] == "choice":
                assert seen == set(control["options"])
            else:
                ends = {_slider_value(control, control["min"]), _slider_value(control, control["max"])}
                assert ends <= seen, (name, control["name"], seen)
        for case in CASES.get(name, []):
            assert set(case) == set(spec.control_names()), (name, case)


def test_the_frame_formats_numbers_as_python_does(node_results) -> None:
    expected = [[format(x, ".2f"), format(x, ".0f"), format(x, "g"), format(x, ".4g"), format(x, ".2e")]
                for x in AWKWARD_NUMBERS]
    assert node_results["$format"] == expected


def test_the_comparison_can_fail() -> None:
    data = {"x": np.array([1.0, 2.0]), "state": "stick", "arrows": {"n": np.array([0.0, 1.0])}}
    assert _differences("f", {"x": [1.0, 2.0], "state": "stick", "arrows": {"n": [0.0, 1.0]}}, data, "", RTOL) == []
    assert _differences("f", {"x": [1.0, 2.0 + 1e-6]}, data, "", RTOL)
    assert _differences("f", {"x": [1.0]}, data, "", RTOL)
    assert _differences("f", {"state": "slip"}, data, "", RTOL)
    assert _differences("f", {"arrows": {"n": [0.0, 1.1]}}, data, "", RTOL)
    assert _differences("f", {"extra": 1.0}, data, "", RTOL)
    assert _differences("ramp", {"contact": [0.0]}, {"contact_point": np.array([0.0])}, "", RTOL) == []
    assert _differences("f", {"v": math.inf}, {"v": math.inf}, "", RTOL) == []
