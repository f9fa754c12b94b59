#!/usr/bin/env python
"""Per-state time of lib's RNEA on a real robot against Pinocchio's, side by side.

Draws ``--states`` random states ``(q, v, a)`` of the robot (UR5 by default,
any name of ``lib.models.robots.ROBOTS``), checks that both libraries give the
same torques on them, then times, in one run and on the same states:

* ``lib``: :func:`lib.kinematic_tree.rnea` called once per state (one
  state at a time, validation included, as a chapter calls it);
* ``pin``: ``pin.rnea`` called in a Python loop over the same states (the
  states converted to Pinocchio's order beforehand, outside the timing).

Each is timed ``--repeat`` times, alternately (:func:`lib.models.benchmark.best_times`),
and the best (smallest) time is kept, which
is the least disturbed by other processes; the script prints the per-state
times, their ratio, and the load average before and after (run it on an
otherwise idle machine). The batched evaluation (all states in one call) and
the ABA are timed by ``tools/benchmark_dynamics.py``.

Usage: ``.venv/bin/python tools/benchmark_rnea.py [--robot ur5] [--states 200]
[--repeat 7]``
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pinocchio as pin  # noqa: E402

from lib.kinematic_tree import rnea  # noqa: E402
from lib.models.benchmark import best_times, random_states  # noqa: E402
from lib.models.pinocchio_tree import (  # noqa: E402
    from_pinocchio_forces,
    pinocchio_configuration,
    pinocchio_velocity,
)
from lib.models.robots import ROBOTS, load_robot, robot_urdf_path  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--robot", default="ur5", choices=list(ROBOTS))
    parser.add_argument("--states", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()

    model = load_robot(args.robot)
    root = [pin.JointModelFreeFlyer()] if "free" in model.joint_types else []
    pin_model = pin.buildModelFromUrdf(str(robot_urdf_path(args.robot)), *root)
    data = pin_model.createData()
    g = pin_model.gravity.linear.copy()
    q, v, a = random_states(model, args.states, np.random.default_rng(0))
    qp = pinocchio_configuration(model, pin_model, q)
    vp, ap = pinocchio_velocity(model, pin_model, v), pinocchio_velocity(
        model, pin_model, a
    )

    # the two agree before they are timed
    ours = np.array([rnea(model, q[k], v[k], a[k], g) for k in range(args.states)])
    theirs = np.array(
        [pin.rnea(pin_model, data, qp[k], vp[k], ap[k]) for k in range(args.states)]
    )
    error = np.max(
        np.abs(ours - from_pinocchio_forces(model, pin_model, theirs))
    ) / np.max(np.abs(theirs))
    assert error < 1e-10, f"lib and Pinocchio disagree: {error:.2e} relative"

    def run_lib():
        for k in range(args.states):
            rnea(model, q[k], v[k], a[k], g)

    def run_pin():
        for k in range(args.states):
            pin.rnea(pin_model, data, qp[k], vp[k], ap[k])

    load_before = os.getloadavg()
    wall, _ = best_times([run_lib, run_pin], args.repeat)  # timed alternately
    t_lib, t_pin = wall / args.states
    load_after = os.getloadavg()
    print(
        f"robot {args.robot}: nq = {model.nq}, nv = {model.nv}, "
        f"{model.n_bodies} bodies; "
        f"{args.states} random states, best of {args.repeat}"
    )
    print(f"largest difference lib - Pinocchio: {error:.1e} relative")
    print(f"{'':24s}{'per state':>12s}")
    print(f"{'lib rnea (one state)':24s}{t_lib * 1e6:10.1f} us")
    print(f"{'pin.rnea (Python loop)':24s}{t_pin * 1e6:10.2f} us")
    print(f"ratio lib / Pinocchio: {t_lib / t_pin:.0f}")
    print(
        f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} "
        f"({os.cpu_count()} cores)"
    )


if __name__ == "__main__":
    main()
