#!/usr/bin/env python
"""How long a control change takes to redraw each live figure, in the browser.

Opens the built lesson page "Contact and friction" (or, with ``--bare``, a
bare local page holding every registered figure, no book build needed) in
headless Chromium, offline (every request other than ``file:`` aborted), and
for each live figure (``lib/figures/live.py``) sweeps every control over its
range, as a reader dragging a slider would. For each change it times, inside the page:

* ``redraw``: from dispatching the ``input`` event until the figure has
  recomputed the physics and updated its readout and its SVG picture in place
  (the event handler runs all of that synchronously);
* ``+ layout``: the same plus the style and layout of the new picture
  (forced by reading its size), i.e. all the work the browser does before it
  can paint the next frame.

Each timed sweep sets the sliders to other positions than the warm-up and the
other sweeps (shifted by a fraction of the sweep's spacing), so the ball
drop's cache of recent simulations does not answer them: a change that moves
the simulation's parameters simulates afresh, as for a reader's first drag.

It prints the median and the 90th percentile in milliseconds; the target is
a median under 16 ms (one frame at 60 Hz). Wall-clock on this machine: it
prints the load average before and after; run it on an otherwise idle machine.

Usage: ``.venv/bin/python tools/benchmark_live_widgets.py [HTML_DIR] [--repeat N]``
(HTML_DIR defaults to ``_build/html``, where ``make book`` builds), or
``.venv/bin/python tools/benchmark_live_widgets.py --bare``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from test_figures_live import FIGURES, FIGURES_ON, PAGE, open_bare, open_offline  # noqa: E402

#: Sweep every control of one figure and time each change in the page.
SWEEP_JS = r"""
([name, steps, offsets]) => {
  const root = document.querySelector(`.cf-live[data-figure="${name}"]`);
  const times = [], withLayout = [];
  for (const offset of offsets) {
    for (const input of root.querySelectorAll('input[type=range]')) {
      const lo = +input.min, hi = +input.max;
      for (let i = 0; i <= steps; i++) {
        input.value = Math.min(hi, lo + (hi - lo) * (i + offset) / steps);
        const start = performance.now();
        input.dispatchEvent(new Event('input', {bubbles: true}));
        const mid = performance.now();
        root.querySelector('.cf-pictures').getBoundingClientRect();
        document.body.offsetHeight;
        const end = performance.now();
        times.push(mid - start); withLayout.push(end - start);
      }
    }
    for (const radio of root.querySelectorAll('input[type=radio]')) {
      const start = performance.now();
      radio.click();
      const mid = performance.now();
      root.querySelector('.cf-pictures').getBoundingClientRect();
      const end = performance.now();
      times.push(mid - start); withLayout.push(end - start);
    }
  }
  return [times, withLayout];
}
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("html_dir", nargs="?", default=str(ROOT / "_build" / "html"))
    parser.add_argument("--repeat", type=int, default=3, help="sweeps per figure (default 3)")
    parser.add_argument("--steps", type=int, default=20, help="positions per slider and sweep (default 20)")
    parser.add_argument("--bare", action="store_true", help="a bare page of every registered figure, not the book")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright, tempfile.TemporaryDirectory() as folder:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium")
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 900})
            if args.bare:
                page, blocked = open_bare(context, Path(folder))
            else:
                page, blocked = open_offline(context, Path(args.html_dir) / PAGE)
            print("load average (1, 5, 15 min): {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
            print(f"{'figure':10s} {'changes':>7s} {'redraw median / p90':>22s} {'+ layout median / p90':>24s}")
            # the bare page holds every registered figure, the lesson its own
            for name in (FIGURES if args.bare else FIGURES_ON[PAGE]):
                page.evaluate(SWEEP_JS, [name, args.steps, [0.0]])  # warm-up (JIT)
                offsets = [r / (args.repeat + 1) for r in range(1, args.repeat + 1)]
                times, layout = page.evaluate(SWEEP_JS, [name, args.steps, offsets])

                def stats(values: list[float]) -> str:
                    p90 = statistics.quantiles(values, n=10)[-1]
                    return f"{statistics.median(values):8.2f} / {p90:6.2f} ms"

                print(f"{name:10s} {len(times):7d} {stats(times):>22s} {stats(layout):>24s}")
            print("load average (1, 5, 15 min): {:.2f} {:.2f} {:.2f}".format(*os.getloadavg()))
            if blocked or page.errors:
                raise SystemExit(f"requests blocked: {blocked}; page errors: {page.errors}")
        finally:
            browser.close()


if __name__ == "__main__":
    main()
