"""The live figures in headless Chromium, offline: in a bare page and in the built lesson.

Each live figure is an anywidget (``lib/figures/live.py``) whose controls,
physics and picture run in the reader's browser. Every request other than
``file:`` is aborted. In a **bare page** (no book build: every registered
figure's ES module rendered with a stand-in for the widget model), these tests

- set every control of every live figure over the hand-picked settings of
  ``tests/test_figures_js.py`` (the edges of the ranges and of the physics),
  through the sliders and radio buttons, and compare the state label and
  every readout row with the ``lib`` function the figure stands for
  (``*_describe(*_data(...))`` of :mod:`lib.figures`), to the printed digits
  (every computed number is compared in node by ``tests/test_figures_js.py``);
- move each control alone and check that the picture is redrawn (the readout,
  for a control the picture does not show).

In the **built book** they check the integration: on every page that shows
live figures (``FIGURES_ON``, read from the pages' sources), the first
``INTEGRATION_SETTINGS`` settings of each; in the lesson ("Contact and
friction") also a slider driven with the keyboard and the phone layout (390
px: nothing wider than the screen, a readable picture, touch-sized controls).

The grids and the reference functions are in ``FIGURES``; ``drive``,
``open_bare`` and ``reference`` are reused by ``tools/benchmark_live_widgets.py``
and ``tests/test_jupyterlab.py``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Callable
from urllib.parse import urlparse

import pytest

from conftest import BookBuild, block_network
from test_figures_js import CASES
from lib.errors import DynamicsInputError
from lib import figures as cf

PAGE = "book/dynamics/contact-and-friction.html"
NAV_TIMEOUT_MS = 60_000


def figures_by_page() -> dict[str, list[str]]:
    """Built page -> the registered figures its source shows (``show_figure("<name>"``)."""
    from conftest import ROOT

    pages = {}
    for path in sorted((ROOT / "book" / "dynamics").glob("*.md")):
        text = path.read_text(encoding="utf-8")
        names = [n for n in cf.FIGURES if f'show_figure("{n}"' in text]
        if names:
            pages[f"book/dynamics/{path.stem}.html"] = names
    return pages


#: Built page -> the live figures it shows.
FIGURES_ON = figures_by_page()

#: Settings the built page is driven through (the first few hand-picked ones of
#: each figure): the page test checks that the figures are wired into the book;
#: ``test_every_setting_in_a_bare_page`` drives every hand-picked setting.
INTEGRATION_SETTINGS = 4


#: figure name -> (data function, describe function, settings): the registered
#: figures (lib.figures.FIGURES) with the hand-picked settings of
#: tests/test_figures_js.py, which compares every computed number in node.
FIGURES: dict[str, tuple[Callable[..., dict], Callable[[dict], tuple], list[dict[str, Any]]]] = {
    name: (spec.data, spec.describe, CASES[name]) for name, spec in cf.FIGURES.items()
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


def open_offline(context: Any, html_file: Path, count: int | None = None) -> tuple[Any, list[str]]:
    """Open ``html_file`` with every non-file request aborted; wait for its ``count`` live figures."""
    count = len(FIGURES_ON[PAGE]) if count is None else count
    blocked = block_network(context)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(html_file.as_uri(), wait_until="load", timeout=NAV_TIMEOUT_MS)
    page.wait_for_function(
        f"document.querySelectorAll('.cf-live[data-frame]').length >= {count}", timeout=NAV_TIMEOUT_MS
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


@pytest.fixture(scope="module")
def built_pages(book_build: BookBuild, browser):
    """The built pages that show live figures, each opened once (offline) when first asked for."""
    assert book_build.returncode == 0, book_build.report()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    opened: dict[str, Any] = {}

    def open_page(name: str) -> Any:
        if name not in opened:
            page, blocked = open_offline(context, book_build.html_dir / name, len(FIGURES_ON[name]))
            page.blocked = blocked
            opened[name] = page
        return opened[name]

    yield open_page
    context.close()


@pytest.mark.book
@pytest.mark.browser
@pytest.mark.xdist_group("book")
@pytest.mark.parametrize("page_name, name", [(p, n) for p, names in FIGURES_ON.items() for n in names])
def test_live_figure_agrees_with_lib_in_the_book(built_pages, page_name: str, name: str) -> None:
    page = built_pages(page_name)
    settings = FIGURES[name][2][:INTEGRATION_SETTINGS]
    faults = _drive_and_compare(page, name, settings)
    assert not faults, f"{name}: {len(faults)} of {len(settings)} settings differ from lib:\n" + "\n".join(faults)
    assert not page.errors, page.errors
    assert not page.blocked, f"requests left the page: {sorted({urlparse(u).netloc for u in page.blocked})}"


def test_every_registered_figure_is_shown_in_a_page() -> None:
    shown = [n for names in FIGURES_ON.values() for n in names]
    assert sorted(shown) == sorted(cf.FIGURES), f"registered but in no page: {set(cf.FIGURES) - set(shown)}"
    assert FIGURES_ON[PAGE] == ["ramp", "cone2d", "pyramid", "ball_drop", "fingertip"]


#: A bare page holding every registered live figure, each rendered by its ES
#: module (as the widget ships it) with a stand-in for the widget model.
BARE_PAGE_JS = r"""
([name, state, source]) => {
  const el = document.createElement("div");
  el.id = `figure-${name}`;
  document.body.appendChild(el);
  const model = {
    get: (key) => state[key], set: (key, value) => { state[key] = value; },
    on: () => {}, off: () => {}, save_changes: () => {},
  };
  window.__models = window.__models || {};
  window.__models[name] = model;
  const script = document.createElement("script");
  script.type = "module";
  // The module's default export is render(); here it is called on the page's element.
  const call = `liveRender(FIGURE)({model: window.__models[${JSON.stringify(name)}], `
    + `el: document.getElementById("figure-${name}")});`;
  script.textContent = source.replace(/export default \{ render: liveRender\(FIGURE\) \};\s*$/, call);
  document.head.appendChild(script);
}
"""


def open_bare(context: Any, folder: Path) -> tuple[Any, list[str]]:
    """A bare local page in ``folder`` holding every registered live figure, offline; wait for the figures."""
    from lib.figures import live

    blocked = block_network(context)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    html = folder / "figures.html"
    html.write_text("<!doctype html><html><head><meta charset='utf-8'></head><body></body></html>")
    page.goto(html.as_uri(), wait_until="load", timeout=NAV_TIMEOUT_MS)
    for name in cf.FIGURES:
        widget = live.LiveFigure(name)
        state = {key: getattr(widget, key) for key in ("name", "title", "controls", "constants", "values")}
        page.evaluate(BARE_PAGE_JS, [name, state, live.module_source(name)])
        page.add_style_tag(content=widget._css)
    page.wait_for_function(
        f"document.querySelectorAll('.cf-live[data-frame]').length >= {len(cf.FIGURES)}", timeout=NAV_TIMEOUT_MS
    )
    page.errors = errors
    return page, blocked


@pytest.fixture(scope="module")
def bare_page(browser, tmp_path_factory):
    """Every registered live figure on an empty local page, offline, without the book."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page, blocked = open_bare(context, tmp_path_factory.mktemp("bare"))
    page.blocked = blocked
    yield page
    context.close()


def _drive_and_compare(page: Any, name: str, settings: list[dict[str, Any]]) -> list[str]:
    """Set each setting through the figure's controls; what differs from lib."""
    faults = []
    for setting in settings:
        shown = drive(page, name, setting)
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
    return faults


@pytest.mark.browser
@pytest.mark.parametrize("name", sorted(FIGURES))
def test_every_setting_in_a_bare_page(bare_page, name: str) -> None:
    """Every hand-picked setting through the figure's sliders and buttons, in Chromium, without the book."""
    settings = FIGURES[name][2]
    assert len(settings) >= 20
    faults = _drive_and_compare(bare_page, name, settings)
    assert not faults, f"{name}: {len(faults)} of {len(settings)} settings differ from lib:\n" + "\n".join(faults)
    root = bare_page.locator(f'.cf-live[data-figure="{name}"]')
    assert root.locator(".cf-title").text_content() == cf.FIGURES[name].title
    assert not bare_page.errors, bare_page.errors
    assert not bare_page.blocked, bare_page.blocked


#: (figure, control) -> settings in which the picture depends on that control
#: (the picture is updated in place, so an unused control leaves it as it was).
SHOWN_WHERE: dict[tuple[str, str], dict[str, Any]] = {
    ("ball_drop", "e"): {"model": "impulse"},    # the penalty model has no restitution coefficient
    ("ramp", "mu_k"): {"alpha_deg": 39.0},  # kinetic friction acts once the block slips
    ("ramp", "beta_deg"): {"push": 0.5},    # the push is drawn when there is one
}
#: Controls the picture never depends on: the readout changes instead.
READOUT_ONLY = {("ramp", "mass")}  # the ramp draws forces in units of m g


@pytest.mark.browser
@pytest.mark.parametrize("name", sorted(FIGURES))
def test_every_control_redraws_the_picture(bare_page, name: str) -> None:
    lesson = bare_page
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
    assert len(sizes) == len(FIGURES_ON[PAGE])
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


@pytest.mark.parametrize("figure", sorted(cf.FIGURES))
def test_live_figures_start_from_lib_defaults(figure: str) -> None:
    # Every starting value and constant of a live figure is a keyword default
    # of its *_data function, and every default reaches the front end.
    from lib.figures import live

    widget = live.LiveFigure(figure)
    defaults = live.defaults(cf.FIGURES[figure].data)
    assert not set(widget.values) & set(widget.constants)
    assert {**widget.values, **widget.constants} == defaults
    assert set(widget.values) == {c["name"] for c in widget.controls}


def test_live_figures_refuse_an_unknown_control() -> None:
    from lib.errors import OutOfRangeError
    from lib.figures import live

    with pytest.raises(OutOfRangeError, match=r"no control named \['force'\] in the figure 'cone2d'"):
        live.LiveFigure("cone2d", force=1.0)
    assert live.LiveFigure("cone2d", mu=0.9).values["mu"] == 0.9


# ---------------------------------------------------------------- every reader (issue 23.2)

#: (figure, control) -> settings in which one keyboard step of that control changes what
#: is announced (the state or the readout); elsewhere the step may change nothing computed.
ANNOUNCED_WHERE: dict[tuple[str, str], dict[str, Any]] = {
    ("ramp", "mu_k"): {"alpha_deg": 39.0},    # kinetic friction acts once the block slips
    ("ramp", "beta_deg"): {"push": 0.5},      # the push's angle matters when there is a push
    ("ball_drop", "e"): {"model": "impulse"},  # the penalty model has no restitution coefficient
    ("fingertip", "mu"): {"mu": 0.1},          # the friction cone limits the LP optimum
}
#: Controls that change the view only (the picture changes, no computed number does).
VIEW_ONLY = {("pyramid", "azimuth_deg")}

#: Before the figure, a button to start tabbing from; returns the figure's controls in order.
SENTINEL_JS = r"""
(name) => {
  const root = document.querySelector(`.cf-live[data-figure="${name}"]`);
  let start = document.getElementById(`before-${name}`);
  if (!start) {
    start = document.createElement("button");
    start.id = `before-${name}`;
    start.textContent = `before ${name}`;
    root.parentElement.insertBefore(start, root);
  }
  return [...new Set([...root.querySelectorAll('[data-name]')].map(i => i.dataset.name))];
}
"""

#: What the focused element is, whether its focus shows, and what a screen reader gets.
FOCUSED_JS = r"""
(name) => {
  const root = document.querySelector(`.cf-live[data-figure="${name}"]`);
  const el = document.activeElement;
  const inside = root.contains(el);
  const ring = el.type === "radio" ? el.closest("label") : el;
  const style = getComputedStyle(ring);
  const chosen = [...root.querySelectorAll('input[type=radio]:checked')].map(r => r.value);
  const labels = [...root.querySelectorAll('.cf-choice label')].map(l => ({
    checked: l.querySelector('input').checked, weight: Number(getComputedStyle(l).fontWeight)}));
  return {
    inside, name: inside ? (el.dataset.name || el.className) : el.id || el.tagName,
    type: el.type || "", value: el.value, valuetext: el.getAttribute("aria-valuetext"),
    shown: el.type === "range" ? el.closest(".cf-control").querySelector("output").textContent : null,
    focusVisible: el.matches(":focus-visible"), outline: [style.outlineStyle, parseFloat(style.outlineWidth),
                                                          style.outlineColor],
    chosen, labels,
    announced: root.querySelector('.cf-state').textContent + " | " + root.querySelector('.cf-readout').textContent,
    live: [root.querySelector('.cf-readout').getAttribute("aria-live"),
           root.querySelector('.cf-state').getAttribute("role")],
    group: [root.getAttribute("role"), document.getElementById(root.getAttribute("aria-labelledby"))?.textContent],
    picture: root.querySelector('.cf-pictures').innerHTML,
  };
}
"""


def _luminance(colour: str) -> float:
    """Relative luminance (WCAG 2.1) of a CSS ``rgb(...)``/``rgba(...)`` colour."""
    channels = [float(c) / 255 for c in colour[colour.index("(") + 1:-1].split(",")[:3]]
    r, g, b = (c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: str, b: str) -> float:
    """WCAG contrast ratio of two CSS colours."""
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def _tab_to(page: Any, name: str, steps: int) -> dict[str, Any]:
    """Focus the button before the figure, press Tab ``steps`` times; what is focused."""
    page.focus(f"#before-{name}")
    for _ in range(steps):
        page.keyboard.press("Tab")
    return page.evaluate(FOCUSED_JS, name)


@pytest.mark.browser
@pytest.mark.parametrize("name", sorted(FIGURES))
def test_every_control_works_from_the_keyboard(bare_page, name: str) -> None:
    """Tab reaches every control of the figure (one stop per option group) and then its
    readout, each showing a focus ring of at least 2 px that stands out from the page
    (3:1); an arrow key moves each control; a slider announces the value it shows, with its
    unit (aria-valuetext), and the new value after the key; the state (a status) or the
    readout (a polite live region) announces the change; a chosen option is marked by
    more than its colour (its radio dot and bold words)."""
    page = bare_page
    start = FIGURES[name][2][0]
    names = page.evaluate(SENTINEL_JS, name)
    spec_names = [c["name"] for c in cf.FIGURES[name].controls]
    assert names == spec_names
    order = []
    for steps in range(1, len(names) + 3):
        focused = _tab_to(page, name, steps)
        if not focused["inside"]:
            break
        order.append(focused["name"])
        assert focused["focusVisible"] and focused["outline"][0] != "none" and focused["outline"][1] >= 2, \
            f"{name}: {focused['name']} shows no focus ring: {focused['outline']}"
        assert contrast(focused["outline"][2], "rgb(255, 255, 255)") >= 3, focused["outline"]
    assert order == [*names, "cf-readout"], f"{name}: Tab reaches {order}"
    assert focused["live"] == ["polite", "status"], focused["live"]
    assert focused["group"] == ["group", cf.FIGURES[name].title], focused["group"]

    for steps, control in enumerate(names, start=1):
        drive(page, name, {**start, **ANNOUNCED_WHERE.get((name, control), {})})
        before = _tab_to(page, name, steps)
        assert before["name"] == control
        at_top = before["type"] == "range" and float(before["value"]) >= float(
            page.locator(f'.cf-live[data-figure="{name}"] [data-name="{control}"]').get_attribute("max"))
        page.keyboard.press("ArrowLeft" if at_top else "ArrowRight")
        after = page.evaluate(FOCUSED_JS, name)
        assert after["name"] == control, f"{name}: the arrow key moved the focus to {after['name']}"
        where = f"{name}.{control} from {before['value']}"
        if before["type"] == "range":
            assert after["value"] != before["value"], f"{where}: the arrow key did not move the slider"
            assert before["valuetext"] == before["shown"] and after["valuetext"] == after["shown"], \
                f"{where}: announces {after['valuetext']!r}, shows {after['shown']!r}"
            assert after["valuetext"] != before["valuetext"], f"{where}: announces {after['valuetext']!r} still"
            unit = next(c for c in cf.FIGURES[name].controls if c["name"] == control)["unit"]
            assert after["valuetext"].endswith(unit), f"{where}: {after['valuetext']!r} has no unit {unit!r}"
        else:
            assert after["chosen"] != before["chosen"], f"{where}: the arrow key left the option"
            weights = {label["checked"]: label["weight"] for label in after["labels"]}
            assert weights[True] > weights[False], f"{where}: the chosen option differs in colour only"
        if (name, control) in VIEW_ONLY:
            assert after["picture"] != before["picture"], f"{where}: the view did not change"
        else:
            assert after["announced"] != before["announced"], \
                f"{where}: nothing announced changed ({after['announced']!r})"
    drive(page, name, start)
    assert not page.errors, page.errors


#: For each live figure: the focus ring of its first slider and first option (focused by the
#: keyboard) and the colour behind the figure (its first ancestor with a background).
FOCUS_RINGS_JS = r"""
() => [...document.querySelectorAll('.cf-live')].map(root => {
  let behind = root; let background = 'rgba(0, 0, 0, 0)';
  while (behind && /rgba\(.*, 0\)$|transparent/.test(background)) {
    background = getComputedStyle(behind).backgroundColor; behind = behind.parentElement;
  }
  if (/rgba\(.*, 0\)$|transparent/.test(background)) {
    background = getComputedStyle(document.body).backgroundColor;
  }
  return {figure: root.dataset.figure, background,
          controls: [...root.querySelectorAll('input[type=range], input[type=radio]:checked')]
                      .map(i => [i.dataset.name, i.type])};
})
"""

RING_JS = r"""
(selector) => {
  const el = document.querySelector(selector);
  const ring = el.type === 'radio' ? el.closest('label') : el;
  const s = getComputedStyle(ring);
  return [el.matches(':focus-visible'), s.outlineStyle, parseFloat(s.outlineWidth), s.outlineColor];
}
"""


def _ring_problems(page: Any, page_name: str, mode: str) -> list[str]:
    """The first slider and first option of each live figure on ``page``, focused from the
    keyboard: a ring of at least 2 px at 3:1 against what is behind the figure, or a problem."""
    problems = []
    for figure in page.evaluate(FOCUS_RINGS_JS):
        sliders = [c for c, kind in figure["controls"] if kind == "range"]
        options = [c for c, kind in figure["controls"] if kind == "radio"]
        for control in sliders[:1] + options[:1]:
            selector = (f'.cf-live[data-figure="{figure["figure"]}"] input[data-name="{control}"]'
                        + (":checked" if control in options else ""))
            page.focus(selector)
            page.keyboard.press("Shift+Tab")
            page.keyboard.press("Tab")
            visible, style, width, colour = page.evaluate(RING_JS, selector)
            ratio = contrast(colour, figure["background"])
            if not (visible and style != "none" and width >= 2 and ratio >= 3):
                problems.append(f"{page_name} ({mode}) {figure['figure']} {control}: focus {visible}, ring {style} "
                                f"{width} px {colour} on {figure['background']} ({ratio:.1f}:1)")
    return problems


@pytest.mark.book
@pytest.mark.browser
@pytest.mark.xdist_group("book")
def test_focus_rings_stand_out_in_light_and_dark_mode(book_build: BookBuild, browser) -> None:
    """In the built book, in the theme's light mode and then, after its switcher, in dark mode,
    a control focused from the keyboard shows a ring of at least 2 px whose colour contrasts
    3:1 with what is behind the figure (the dark theme puts widgets on a grey area)."""
    from test_accessibility import MODE_INIT_JS, switch_mode

    assert book_build.returncode == 0, book_build.report()
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="light")
    context.add_init_script(MODE_INIT_JS % {"mode": "light"})
    problems = []
    try:
        for page_name, names in FIGURES_ON.items():
            page, blocked = open_offline(context, book_build.html_dir / page_name, len(names))
            assert page.evaluate("document.documentElement.dataset.theme") == "light"
            problems += _ring_problems(page, page_name, "light")
            switch_mode(page, "dark")
            problems += _ring_problems(page, page_name, "dark")
            assert not page.errors, page.errors
            assert not blocked, blocked
            page.close()
    finally:
        context.close()
    assert not problems, "\n".join(problems)
