#!/usr/bin/env python
"""Per-state time of lib's batched RNEA and ABA against Pinocchio's, side by side.

For each robot (UR5 and Talos by default) and each batch size ``N`` (1, 100
and 10 000 by default) the script draws ``N`` random states, checks that both
libraries agree on them (1e-10 relative), then times on the same states:

* ``lib``: :func:`lib.kinematic_tree.rnea` and :func:`lib.tree_dynamics.aba`
  called once on the whole batch ``(N, nq)`` (validation included);
* ``pin``: ``pin.rnea`` and ``pin.aba`` called in a Python loop over the
  ``N`` states (converted to Pinocchio's order beforehand, outside the
  timing), which is how a Python program calls a C++ library state by state.

The two are timed alternately, ``--repeat`` times each, and the best
(smallest) time of each is kept, the least disturbed by other processes;
both the wall-clock time and the CPU time of this process are recorded (on
a machine shared with other work the CPU time is the steadier of the two).
The script prints the per-state times, the ratios lib / Pinocchio (the
issue's goal: at most 3 at N = 10 000) and the load average before and
after.

Usage: ``.venv/bin/python tools/benchmark_dynamics.py [--robots ur5 talos]
[--sizes 1 100 10000] [--repeat 5]``
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import pinocchio as pin  # noqa: E402

from benchmark_rnea import random_states  # noqa: E402
from lib.kinematic_tree import rnea  # noqa: E402
from lib.models.pinocchio_tree import (  # noqa: E402
    from_pinocchio_forces,
    pinocchio_configuration,
    pinocchio_velocity,
)
from lib.models.robots import ROBOTS, load_robot, robot_urdf_path  # noqa: E402
from lib.tree_dynamics import aba  # noqa: E402


def side_by_side(run_lib, run_pin, repeat: int) -> tuple[float, float, float, float]:
    """Best wall-clock and CPU times of the two functions, timed alternately."""
    wall, cpu = [float("inf")] * 2, [float("inf")] * 2
    for _ in range(repeat):
        for k, run in enumerate((run_lib, run_pin)):
            start, start_cpu = time.perf_counter(), time.process_time()
            run()
            wall[k] = min(wall[k], time.perf_counter() - start)
            cpu[k] = min(cpu[k], time.process_time() - start_cpu)
    return wall[0], wall[1], cpu[0], cpu[1]


def relative(ours: np.ndarray, theirs: np.ndarray) -> float:
    return float(np.max(np.abs(ours - theirs)) / max(np.max(np.abs(theirs)), 1.0))


def benchmark(name: str, sizes: list[int], repeat: int) -> list[tuple]:
    model = load_robot(name)
    root = [pin.JointModelFreeFlyer()] if "free" in model.joint_types else []
    pin_model = pin.buildModelFromUrdf(str(robot_urdf_path(name)), *root)
    data = pin_model.createData()
    g = pin_model.gravity.linear.copy()
    rows = []
    for n in sizes:
        q, v, a = random_states(model, n, np.random.default_rng(n))
        qp = pinocchio_configuration(model, pin_model, q)
        vp, ap = (pinocchio_velocity(model, pin_model, x) for x in (v, a))
        tau = rnea(model, q, v, a, g)  # a batch
        tp = pinocchio_velocity(model, pin_model, tau)
        # the two libraries agree before they are timed
        tau_pin = np.array(
            [pin.rnea(pin_model, data, qp[k], vp[k], ap[k]) for k in range(n)]
        )
        qdd_pin = np.array(
            [pin.aba(pin_model, data, qp[k], vp[k], tp[k]) for k in range(n)]
        )
        errors = (
            relative(tau, from_pinocchio_forces(model, pin_model, tau_pin)),
            relative(
                pinocchio_velocity(model, pin_model, aba(model, q, v, tau, g)), qdd_pin
            ),
        )
        assert max(errors) < 1e-10, f"lib and Pinocchio disagree: {errors}"

        def pin_rnea():
            for k in range(n):
                pin.rnea(pin_model, data, qp[k], vp[k], ap[k])

        def pin_aba():
            for k in range(n):
                pin.aba(pin_model, data, qp[k], vp[k], tp[k])

        for label, run_lib, run_pin, error in (
            ("rnea", lambda: rnea(model, q, v, a, g), pin_rnea, errors[0]),
            ("aba", lambda: aba(model, q, v, tau, g), pin_aba, errors[1]),
        ):
            times = side_by_side(run_lib, run_pin, repeat)
            rows.append((name, model.nv, label, n, *(t / n for t in times), error))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--robots", nargs="+", default=["ur5", "talos"], choices=list(ROBOTS)
    )
    parser.add_argument("--sizes", nargs="+", type=int, default=[1, 100, 10000])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()

    load_before = os.getloadavg()
    rows = [
        row for name in args.robots for row in benchmark(name, args.sizes, args.repeat)
    ]
    load_after = os.getloadavg()
    print(f"best of {args.repeat}, lib batched against Pinocchio in a Python loop; "
          "per state, wall clock and CPU time of this process")
    print(f"{'robot':7s}{'nv':>3s}{'routine':>8s}{'N':>7s}{'lib wall':>12s}"
          f"{'pin wall':>12s}{'ratio':>7s}{'lib cpu':>12s}{'pin cpu':>12s}"
          f"{'ratio':>7s}{'agree':>9s}")
    for name, nv, label, n, w_lib, w_pin, c_lib, c_pin, error in rows:
        print(f"{name:7s}{nv:3d}{label:>8s}{n:7d}{w_lib * 1e6:9.2f} us"
              f"{w_pin * 1e6:9.2f} us{w_lib / w_pin:7.2f}{c_lib * 1e6:9.2f} us"
              f"{c_pin * 1e6:9.2f} us{c_lib / c_pin:7.2f}{error:9.1e}")
    print(
        f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} "
        f"({os.cpu_count()} cores)"
    )


if __name__ == "__main__":
    main()
