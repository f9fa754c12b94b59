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

The timing is :mod:`lib.models.benchmark` (chapter 3.5 runs the same
measurement): the two are timed alternately, ``--repeat`` times each, and the best
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
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from lib.models.benchmark import batched_against_pinocchio  # noqa: E402
from lib.models.robots import ROBOTS  # noqa: E402


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
        row
        for name in args.robots
        for row in batched_against_pinocchio(name, args.sizes, args.repeat)
    ]
    load_after = os.getloadavg()
    print(f"best of {args.repeat}, lib batched against Pinocchio in a Python loop; "
          "per state, wall clock and CPU time of this process")
    print(f"{'robot':7s}{'nv':>3s}{'routine':>8s}{'N':>7s}{'lib wall':>12s}"
          f"{'pin wall':>12s}{'ratio':>7s}{'lib cpu':>12s}{'pin cpu':>12s}"
          f"{'ratio':>7s}{'agree':>9s}")
    for row in rows:
        name, nv, label, n, w_lib, w_pin, c_lib, c_pin, error = row.values()
        print(f"{name:7s}{nv:3d}{label:>8s}{n:7d}{w_lib * 1e6:9.2f} us"
              f"{w_pin * 1e6:9.2f} us{w_lib / w_pin:7.2f}{c_lib * 1e6:9.2f} us"
              f"{c_pin * 1e6:9.2f} us{c_lib / c_pin:7.2f}{error:9.1e}")
    print(
        f"load average before {load_before[0]:.2f}, after {load_after[0]:.2f} "
        f"({os.cpu_count()} cores)"
    )


if __name__ == "__main__":
    main()
