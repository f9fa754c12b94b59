"""The live figures of "Contact and friction" in the built page, offline, in headless Chromium.

Each figure of the lesson is an anywidget (``lib/figures/live.py``) whose
controls, physics and picture run in the reader's browser. On the built page,
with every request other than ``file:`` aborted, these tests

- set every control of every live figure over a grid of settings (including
  the edges of the ranges and of the physics) and compare the state label
  and every readout row with the ``lib`` function the figure stands for
  (``*_describe(*_data(...))`` of :mod:`lib.figures`), to
  the printed digits;
- move each control alone and check that the picture is redrawn (the readout,
  for a control the picture does not show);
- drive a slider with the keyboard;
- check the phone layout (390 px): nothing wider than the screen, a readable
  picture, touch-sized controls.

The grids and the reference functions are in ``FIGURES``; ``drive`` and
``reference`` are reused by ``tools/benchmark_live_widgets.py`` and
``tests/test_jupyterlab.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable
from urllib.parse import urlparse

import pytest

from conftest import BookBuild, block_network
from lib.errors import DynamicsInputError
from lib import figures as cf

PAGE = "book/dynamics/contact-and-friction.html"
NAV_TIMEOUT_MS = 60_000


def _grid(base: dict[str, Any], *changes: dict[str, Any]) -> list[dict[str, Any]]:
    return [{**base, **change} for change in changes]


#: figure name -> (data function, describe function, settings). Each setting
#: gives a value for every control of the figure.
FIGURES: dict[str, tuple[Callable[..., dict], Callable[[dict], tuple], list[dict[str, Any]]]] = {
    "ramp": (cf.ramp_data, cf.ramp_describe, _grid(
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
    )),
    "cone2d": (cf.cone2d_data, cf.cone2d_describe, _grid(
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
    )),
    "pyramid": (cf.pyramid_data, cf.pyramid_describe, _grid(
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
    )),
    "ball": (cf.ball_drop_data, cf.ball_drop_describe, _grid(
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
    )),
    "fingertip": (cf.fingertip_data, cf.fingertip_describe, _grid(
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
    )),
}


def reference(name: str, values: dict[str, Any]) -> dict[str, Any]:
    """State label and readout rows that ``lib`` gives for these control values."""
    data_fn, describe, _ = FIGURES[name]
    try:
        text, _key, rows = describe(data_fn(**values))
    except DynamicsInputError as exc:
        return {"state": f"not allowed: {exc}", "rows": []}
    return {"state": text, "rows": [[k, v] for k, v in rows]}


#: Set the controls of one figure (by name), as input events, and read back
#: the values the figure used, its state label, readout and picture.
DRIVE_JS = r"""
([name, values]) => {
  const root = document.querySelector(`.cf-live[data-figure="${name}"]`);
  if (!root) throw new Error(`no live figure ${name}`);
  for (const [key, value] of Object.entries(values)) {
    const radios = root.querySelectorAll(`input[type=radio][data-name="${key}"]`);
    if (radios.length) {
      const radio = [...radios].find(r => r.value === String(value));
      if (!radio) throw new Error(`${name}: no option ${value} for ${key}`);
      if (!radio.checked) radio.click();
      continue;
    }
    const input = root.querySelector(`input[type=range][data-name="${key}"]`);
    if (!input) throw new Error(`${name}: no control ${key}`);
    input.value = input.dataset.kind === 'log' ? Math.log10(value) : value;
    input.dispatchEvent(new Event('input', {bubbles: true}));
  }
  return {
    values: JSON.parse(root.dataset.values),
    state: root.querySelector('.cf-state').textContent,
    rows: [...root.querySelectorAll('.cf-readout tr')].map(tr => [tr.cells[0].textContent, tr.cells[1].textContent]),
    picture: root.querySelector('.cf-pictures').innerHTML,
    frame: Number(root.dataset.frame),
  };
}
"""


def drive(page: Any, name: str, values: dict[str, Any]) -> dict[str, Any]:
    """Set controls of the live figure ``name`` on ``page`` and return what it shows."""
    return page.evaluate(DRIVE_JS, [name, values])


def open_offline(context: Any, html_file: Path) -> tuple[Any, list[str]]:
    """Open ``html_file`` with every non-file request aborted; wait for the live figures."""
    blocked = block_network(context)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(html_file.as_uri(), wait_until="load", timeout=NAV_TIMEOUT_MS)
    page.wait_for_function(
        f"document.querySelectorAll('.cf-live[data-frame]').length >= {len(FIGURES)}", timeout=NAV_TIMEOUT_MS
    )
    page.errors = errors
    return page, blocked


@pytest.fixture(scope="module")
def lesson(book_build: BookBuild, browser):
    assert book_build.returncode == 0, book_build.report()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page, blocked = open_offline(context, book_build.html_dir / PAGE)
    page.blocked = blocked
    yield page
    context.close()


@pytest.mark.book
@pytest.mark.browser
@pytest.mark.xdist_group("book")
@pytest.mark.parametrize("name", sorted(FIGURES))
def test_live_figure_agrees_with_lib_over_the_grid(lesson, name: str) -> None:
    settings = FIGURES[name][2]
    assert len(settings) >= 20
    faults = []
    for setting in settings:
        shown = drive(lesson, name, setting)
        for key, value in setting.items():
            if shown["values"][key] != value and not (isinstance(value, float) and
                                                       abs(shown["values"][key] - value) <= 1e-9 * abs(value)):
                faults.append(f"{setting}: control {key} shows {shown['values'][key]!r}, not {value!r}")
        expected = reference(name, shown["values"])
        if shown["state"] != expected["state"]:
            faults.append(f"{shown['values']}: state {shown['state']!r}, lib says {expected['state']!r}")
        if shown["rows"] != expected["rows"]:
            faults.append(f"{shown['values']}: readout\n  page {shown['rows']}\n  lib  {expected['rows']}")
        if expected["rows"] and "<svg" not in shown["picture"]:
            faults.append(f"{shown['values']}: no picture")
    assert not faults, f"{name}: {len(faults)} of {len(settings)} settings differ from lib:\n" + "\n".join(faults)
    assert not lesson.errors, lesson.errors
    assert not lesson.blocked, f"requests left the page: {sorted({urlparse(u).netloc for u in lesson.blocked})}"


#: (figure, control) -> settings in which the picture depends on that control
#: (the picture is updated in place, so an unused control leaves it as it was).
SHOWN_WHERE: dict[tuple[str, str], dict[str, Any]] = {
    ("ball", "e"): {"model": "impulse"},    # the penalty model has no restitution coefficient
    ("ramp", "mu_k"): {"alpha_deg": 39.0},  # kinetic friction acts once the block slips
    ("ramp", "beta_deg"): {"push": 0.5},    # the push is drawn when there is one
}
#: Controls the picture never depends on: the readout changes instead.
READOUT_ONLY = {("ramp", "mass")}  # the ramp draws forces in units of m g


@pytest.mark.book
@pytest.mark.browser
@pytest.mark.xdist_group("book")
@pytest.mark.parametrize("name", sorted(FIGURES))
def test_every_control_redraws_the_picture(lesson, name: str) -> None:
    start = FIGURES[name][2][0]
    before = drive(lesson, name, start)
    controls = lesson.evaluate(
        """name => [...document.querySelectorAll(`.cf-live[data-figure="${name}"] [data-name]`)]
                  .map(i => ({name: i.dataset.name, type: i.type, min: +i.min, max: +i.max, value: i.value}))""",
        name,
    )
    for control in {c["name"]: c for c in controls}.values():
        if control["type"] == "radio":
            options = [c["value"] for c in controls if c["name"] == control["name"]]
            new = next(o for o in options if o != before["values"][control["name"]])
        else:
            # The middle of the range (the ends may be refused: a vertical ramp, a fingertip out of reach).
            middle = round((control["min"] + control["max"]) / 2, 6)
            new = middle if abs(float(control["value"]) - middle) > 1e-9 else control["min"]
            if lesson.evaluate(
                f"""() => document.querySelector('.cf-live[data-figure="{name}"] [data-name="{control["name"]}"]')
                    .dataset.kind"""
            ) == "log":
                new = 10.0 ** new
        # A control the picture does not depend on in the first setting is moved where it does.
        before = drive(lesson, name, {**start, **SHOWN_WHERE.get((name, control["name"]), {})})
        after = drive(lesson, name, {control["name"]: new})
        assert after["frame"] > before["frame"], f"{name}: moving {control['name']} did not update"
        if (name, control["name"]) in READOUT_ONLY:
            assert after["rows"] != before["rows"], f"{name}: moving {control['name']} left the readout as it was"
        else:
            assert after["picture"] != before["picture"], \
                f"{name}: moving {control['name']} left the picture as it was"
        before = drive(lesson, name, start)


@pytest.mark.book
@pytest.mark.browser
@pytest.mark.xdist_group("book")
def test_a_slider_moves_with_the_keyboard(lesson) -> None:
    drive(lesson, "cone2d", {"f_t": 1.0, "f_n": 3.0, "mu": 0.5})
    slider = lesson.locator('.cf-live[data-figure="cone2d"] input[data-name="f_t"]')
    slider.focus()
    for _ in range(21):  # 21 steps of 0.05 N: f_t = 2.05 > mu f_n = 1.5
        lesson.keyboard.press("ArrowRight")
    shown = drive(lesson, "cone2d", {})
    assert shown["values"]["f_t"] == pytest.approx(2.05)
    assert shown["state"] == "SLIP"
    assert shown["rows"] == reference("cone2d", shown["values"])["rows"]


@pytest.mark.book
@pytest.mark.browser
@pytest.mark.xdist_group("book")
def test_phone_layout(book_build: BookBuild, browser, screenshot_dir: Path) -> None:
    """At 390 px: no figure is wider than the screen, the picture is readable, controls are touch-sized."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                  has_touch=True)
    try:
        page, blocked = open_offline(context, book_build.html_dir / PAGE)
        sizes = page.evaluate("""() => [...document.querySelectorAll('.cf-live')].map(root => ({
            name: root.dataset.figure,
            width: root.getBoundingClientRect().width,
            right: root.getBoundingClientRect().right,
            panels: [...root.querySelectorAll('svg.cf-panel')].map(s => [s.getBoundingClientRect().width,
                                                                         s.getBoundingClientRect().height]),
            sliders: [...root.querySelectorAll('input[type=range]')].map(i => i.getBoundingClientRect().height),
        }))""")
        for index, figure in enumerate(sizes):
            root = page.locator(".cf-live").nth(index)
            root.scroll_into_view_if_needed()
            root.screenshot(path=str(screenshot_dir / f"phone-live-{figure['name']}.png"))
        assert not page.errors, page.errors
        assert not blocked, blocked
    finally:
        context.close()
    assert len(sizes) == len(FIGURES)
    for figure in sizes:
        assert figure["right"] <= 390 + 0.5, f"{figure['name']} is wider than the screen: {figure}"
        for width, height in figure["panels"]:
            assert width >= 300 and height >= 140, f"{figure['name']}: picture {width:.0f} x {height:.0f} px"
        assert all(h >= 32 for h in figure["sliders"]), f"{figure['name']}: slider heights {figure['sliders']}"


def test_the_execution_cache_notices_a_change_in_the_figures_javascript(tmp_path: Path) -> None:
    """The built page embeds lib/figures/js/ in its widget state: editing it must re-execute the lesson."""
    import importlib.util
    import shutil

    from conftest import ROOT

    spec = importlib.util.spec_from_file_location("lib_fingerprint_js", ROOT / "book" / "_ext" / "lib_fingerprint.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    lib_copy = tmp_path / "lib"
    shutil.copytree(ROOT / "lib", lib_copy, ignore=shutil.ignore_patterns("__pycache__"))
    before = module.lib_fingerprint(lib_copy)
    for name in ("frame.js", "frame.css"):
        target = lib_copy / "figures" / "js" / name
        target.write_text(target.read_text() + "\n/* one more line */\n")
        after = module.lib_fingerprint(lib_copy)
        assert after != before, name
        before = after


@pytest.mark.parametrize("figure", ["ramp", "cone2d", "pyramid", "ball_drop", "fingertip"])
def test_live_figures_start_from_lib_defaults(figure: str) -> None:
    # Every starting value and constant of a live figure is a keyword default
    # of its *_data function, and every default reaches the front end.
    from lib.figures import live

    widget = getattr(live, f"{figure}_live")()
    defaults = live.defaults(getattr(cf, f"{figure}_data"))
    assert not set(widget.values) & set(widget.constants)
    assert {**widget.values, **widget.constants} == defaults
    assert set(widget.values) == {c["name"] for c in widget.controls}


def test_live_figures_refuse_an_unknown_control() -> None:
    from lib.figures import live

    with pytest.raises(ValueError, match="no control"):
        live.cone2d_live(force=1.0)
    assert live.cone2d_live(mu=0.9).values["mu"] == 0.9
