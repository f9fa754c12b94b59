#!/usr/bin/env python
"""How long each interactive figure of "Contact and friction" takes to update.

For each of the five widgets the script sweeps its controls through a range
of values (as a reader dragging a slider would) and times two things per
change:

* ``compute``: the pure data function plus the state label and readout
  (:meth:`lib.widgets.contact_friction.InteractiveFigure.compute`);
* ``update``: the whole callback, including redrawing the picture with the
  pure plotting function and encoding it as PNG
  (:meth:`~lib.widgets.contact_friction.InteractiveFigure.update`).

It prints the median and the 90th percentile in milliseconds. The target is
an update under about 20 ms, so that dragging a slider feels instant. Timing
is wall-clock on this machine; run it on an otherwise idle machine.

Usage: ``.venv/bin/python tools/benchmark_widgets.py [--repeat N]``
"""

from __future__ import annotations

import argparse
import time

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402

from lib.widgets import contact_friction as cf  # noqa: E402

#: Control sweeps per widget: name -> values a reader might visit.
SWEEPS = {
    "FIG 1 ramp": (cf.ramp_widget, {
        "alpha_deg": np.linspace(0.0, 80.0, 17),
        "push": np.linspace(0.0, 2.0, 9),
        "beta_deg": np.linspace(-90.0, 90.0, 9),
    }),
    "FIG 2 cone": (cf.cone2d_widget, {
        "f_t": np.linspace(-4.0, 4.0, 17),
        "f_n": np.linspace(-2.0, 4.5, 9),
        "mu": np.linspace(0.0, 2.0, 9),
    }),
    "FIG 3 pyramid": (cf.pyramid_widget, {
        "k": list(range(3, 33, 2)),
        "phi_deg": np.linspace(0.0, 360.0, 17),
        "azimuth_deg": np.linspace(0.0, 360.0, 9),
    }),
    "FIG 4 ball (penalty)": (cf.ball_drop_widget, {
        "k": np.logspace(3.0, 6.0, 7),
        "dt": np.logspace(-3.5, -2.0, 7),
        "zeta": np.linspace(0.0, 0.9, 7),
    }),
    "FIG 4 ball (impulse)": (lambda: cf.ball_drop_widget(model="impulse"), {
        "e": np.linspace(0.0, 0.95, 9),
        "dt": np.logspace(-3.5, -2.0, 7),
    }),
    "FIG 5 fingertip": (cf.fingertip_widget, {
        "x_tip": np.linspace(-0.8, 0.8, 17),
        "f_t": np.linspace(-3.0, 3.0, 9),
        "f_n": np.linspace(-1.0, 6.0, 9),
        "elbow": ["down", "up"],
    }),
}


def time_widget(build, sweeps, repeat: int) -> tuple[np.ndarray, np.ndarray]:
    """Return per-change times (s) of ``compute`` and of the full ``update``."""
    widget = build()
    widget.update()  # warm-up: first full draw and layout
    computes, updates = [], []
    for _ in range(repeat):
        for name, values in sweeps.items():
            control = widget.controls[name]
            for value in values:
                # Set the value without firing the callback, then time it.
                control.unobserve(widget._on_change, names="value")
                control.value = value if isinstance(value, str) else type(control.value)(value)
                control.observe(widget._on_change, names="value")
                start = time.perf_counter()
                widget.compute()
                computes.append(time.perf_counter() - start)
                start = time.perf_counter()
                widget.update()
                updates.append(time.perf_counter() - start)
    return np.array(computes), np.array(updates)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2, help="sweeps per widget (default 2)")
    args = parser.parse_args()
    print(f"{'figure':24s} {'changes':>7s} {'compute median / p90':>22s} {'update median / p90':>22s}")
    for label, (build, sweeps) in SWEEPS.items():
        computes, updates = time_widget(build, sweeps, args.repeat)
        print(f"{label:24s} {len(updates):7d} "
              f"{1e3 * np.median(computes):9.1f} / {1e3 * np.percentile(computes, 90):6.1f} ms "
              f"{1e3 * np.median(updates):9.1f} / {1e3 * np.percentile(updates, 90):6.1f} ms")


if __name__ == "__main__":
    main()
