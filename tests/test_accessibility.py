"""Every page of the built book against WCAG 2.1 A and AA, in light and in dark mode.

axe-core (the npm package pinned in ``tools/axe/package.json`` and its lock
file, installed by ``make install-test`` with ``npm ci --prefix tools/axe``) is
read from ``tools/axe/node_modules`` and injected into each built page, opened
offline in headless Chromium, with the live figures drawn and MathJax done,
and axe runs the rules tagged ``wcag2a``, ``wcag2aa``, ``wcag21a`` and
``wcag21aa``. A failure lists each violated rule with its number of elements
and the first selectors.

In the suite each page is opened once (tests/_page_visit.py): in light mode,
as the theme's switcher leaves it for the next page (pydata-sphinx-theme
stores ``mode`` and ``theme`` in ``localStorage`` and sets ``data-mode`` /
``data-theme`` on ``<html>``), then in dark mode after pressing the switcher,
as a reader does. The command below opens each page anew in each mode.

The counts of a build, per rule and mode, without pytest::

    .venv/bin/python tests/test_accessibility.py <output>/_build/html
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from functools import lru_cache
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _page_visit import visit  # noqa: E402
from conftest import ROOT, BookBuild, TocPage, block_network, toc_pages  # noqa: E402

AXE_JS = ROOT / "tools" / "axe" / "node_modules" / "axe-core" / "axe.min.js"
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
MODES = ("light", "dark")
NAV_TIMEOUT_MS = 60_000
#: Selectors shown per violated rule in a failure message.
SHOWN_TARGETS = 3

#: Set the mode before the page's own scripts run, as the theme's switcher
#: leaves it for the next page (pydata-sphinx-theme reads localStorage at load).
MODE_INIT_JS = """
(() => {
  try { localStorage.setItem('mode', '%(mode)s'); localStorage.setItem('theme', '%(mode)s'); }
  catch (e) {}
})();
"""

#: Wait until the page is as a reader sees it: MathJax typeset, the live
#: figures drawn (each .cf-live gets data-frame once drawn), images loaded.
SETTLE_JS = r"""
async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) await MathJax.startup.promise;
  const views = document.querySelectorAll(
      'script[type="application/vnd.jupyter.widget-view+json"]').length;
  const deadline = Date.now() + 30000;
  while (views && document.querySelectorAll('.cf-live[data-frame]').length < views
         && Date.now() < deadline) {
    await new Promise(r => setTimeout(r, 100));
  }
  await Promise.all([...document.images].map(img => img.complete ? null :
      new Promise(r => { img.addEventListener('load', r); img.addEventListener('error', r); })));
  return {theme: document.documentElement.dataset.theme || '',
          mode: document.documentElement.dataset.mode || ''};
}
"""

#: ``preload: false``: axe would fetch each style sheet again for its one rule that reads them,
#: css-orientation-lock (WCAG 1.3.4), and Chromium refuses that fetch from a ``file:`` page, so
#: on the offline book the rule could never run (axe reports it "incomplete", not a violation).
#: ``orientation_media`` reads the same sheets from the build instead.
RUN_AXE_JS = """
async (tags) => {
  const result = await axe.run(document, {runOnly: {type: 'tag', values: tags},
                                          resultTypes: ['violations'], preload: false});
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    targets: v.nodes.map(n => n.target.join(' ')),
  }));
}
"""


#: Each style sheet of the page: the media conditions of its rules when the page may read them
#: (a <style> element), or its address when it may not (a linked sheet of a ``file:`` page).
STYLE_SHEETS_JS = r"""
() => [...document.styleSheets].map(sheet => {
  const conditions = [];
  const walk = rules => { for (const rule of rules) {
    if (rule.conditionText !== undefined) conditions.push(rule.conditionText);
    if (rule.cssRules) walk(rule.cssRules);
  } };
  try { walk(sheet.cssRules); return {href: null, conditions}; }
  catch (e) { return {href: sheet.href, conditions: []}; }
})
"""
#: A media condition on the screen's orientation, and an @import in a style sheet.
ORIENTATION = re.compile(r"\borientation\s*:")
MEDIA_RULE = re.compile(r"@media([^{]*)\{")
IMPORT_RULE = re.compile(r"""@import\s+(?:url\()?\s*["']?([^"')\s;]+)""")


def orientation_media(page) -> list[str]:
    """Every media condition on the screen's orientation in the style sheets of the page open in
    ``page``: WCAG 1.3.4 (axe's css-orientation-lock) asks that content not be locked to one
    orientation, and a page without such a condition cannot lock it. Linked sheets (and the
    sheets they @import) are read from the build, where the page's own address points."""
    found: list[str] = []
    seen: set[Path] = set()

    def read(path: Path) -> None:
        if path in seen or not path.is_file():
            return
        seen.add(path)
        text = re.sub(r"/\*.*?\*/", "", path.read_text(encoding="utf-8", errors="replace"), flags=re.S)
        found.extend(f"{path.name}: @media {m.strip()}" for m in MEDIA_RULE.findall(text) if ORIENTATION.search(m))
        for target in IMPORT_RULE.findall(text):
            read((path.parent / target.split("?")[0]).resolve())

    for sheet in page.evaluate(STYLE_SHEETS_JS):
        if sheet["href"] is None:
            found.extend(f"<style>: @media {c}" for c in sheet["conditions"] if ORIENTATION.search(c))
        elif urlparse(sheet["href"]).scheme == "file":
            read(Path(unquote(urlparse(sheet["href"]).path)))
    return found


@lru_cache(maxsize=None)
def axe_source() -> str:
    if not AXE_JS.is_file():
        pytest.fail(f"{AXE_JS} is missing: run `make install-test` (npm ci --prefix tools/axe)")
    return AXE_JS.read_text(encoding="utf-8")


def mode_context(browser, mode: str):
    """A browser context, offline, whose pages open in ``mode`` (as the switcher leaves it)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme=mode)
    block_network(context)
    context.add_init_script(MODE_INIT_JS % {"mode": mode})
    return context


def axe_violations_on(page, html_file: Path, mode: str) -> list[dict]:
    """Open ``html_file`` in ``page`` (of a ``mode_context``) and return axe's WCAG 2.1 A/AA violations."""
    page.goto(html_file.as_uri(), wait_until="load", timeout=NAV_TIMEOUT_MS)
    shown = page.evaluate(SETTLE_JS)
    if shown["theme"] != mode:
        raise AssertionError(f"{html_file.name}: asked for {mode} mode, the page shows {shown}")
    return run_axe(page)


def run_axe(page) -> list[dict]:
    """axe's WCAG 2.1 A/AA violations on the page open in ``page``, as it is now."""
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(content=axe_source())
    return page.evaluate(RUN_AXE_JS, WCAG_TAGS)


#: How many presses of the theme's switcher may pass before the page shows a mode
#: (it cycles through auto, light and dark).
SWITCHER_PRESSES = 3


#: Wait until no CSS transition runs on the page (the theme fades colours when the mode changes).
TRANSITIONS_DONE_JS = """
async () => { await Promise.all(document.getAnimations().filter(a => a instanceof CSSTransition)
                                        .map(a => a.finished.catch(() => null))); }
"""


def switch_mode(page, mode: str) -> dict:
    """Press the theme's switcher, as a reader does, until the page shows ``mode``; return
    the ``data-theme`` and ``data-mode`` it shows then."""
    shown = {}
    for _ in range(SWITCHER_PRESSES + 1):
        shown = page.evaluate("() => ({theme: document.documentElement.dataset.theme || '', "
                              "mode: document.documentElement.dataset.mode || ''})")
        if shown["theme"] == mode:
            return shown
        # A click from the keyboard's side (no pointer left hovering over the page), then the
        # theme's colour transitions run to their end.
        page.locator(".theme-switch-button:visible").first.evaluate("button => button.click()")
        page.evaluate(TRANSITIONS_DONE_JS)
    raise AssertionError(f"{SWITCHER_PRESSES} presses of the theme's switcher left the page in {shown}, "
                         f"not {mode} mode")


def axe_violations(browser, html_file: Path, mode: str) -> list[dict]:
    """``axe_violations_on`` in a context of its own."""
    context = mode_context(browser, mode)
    try:
        return axe_violations_on(context.new_page(), html_file, mode)
    finally:
        context.close()


def describe(violations: list[dict]) -> str:
    lines = []
    for v in violations:
        shown = ", ".join(v["targets"][:SHOWN_TARGETS])
        more = f" (+{len(v['targets']) - SHOWN_TARGETS} more)" if len(v["targets"]) > SHOWN_TARGETS else ""
        lines.append(f"  {v['id']} ({v['impact']}): {len(v['targets'])} element(s): {shown}{more}; {v['help']}")
    return "\n".join(lines)


@pytest.mark.browser
@pytest.mark.parametrize("mode", MODES)
def test_page_meets_wcag21_aa(book_build: BookBuild, browser, toc_page: TocPage, mode: str,
                              screenshot_dir: Path) -> None:
    """axe on every page, in light mode as loaded and in dark mode after the theme's switcher
    (read in the page's one visit, tests/_page_visit.py)."""
    assert book_build.returncode == 0, book_build.report()
    violations = visit(browser, book_build.html_dir, toc_page, screenshot_dir).axe[mode]
    assert not violations, (
        f"{toc_page.docname} ({mode} mode): axe-core finds {len(violations)} WCAG 2.1 A/AA "
        f"rule(s) violated:\n{describe(violations)}"
    )


@pytest.mark.browser
def test_no_style_sheet_locks_the_orientation(book_build: BookBuild, browser, toc_page: TocPage,
                                              screenshot_dir: Path) -> None:
    """WCAG 1.3.4 on every page: no style sheet of it has a media condition on the screen's
    orientation (axe cannot read linked sheets offline; ``orientation_media`` reads them from the
    build). Stricter than axe's rule, which fails only such a condition that rotates the page."""
    assert book_build.returncode == 0, book_build.report()
    found = visit(browser, book_build.html_dir, toc_page, screenshot_dir).orientation_media
    assert not found, f"{toc_page.docname}: style rules for one screen orientation: {found}"


@pytest.mark.browser
def test_orientation_check_reads_linked_and_inline_sheets(browser, tmp_path: Path) -> None:
    """The check is live: an orientation condition in a linked sheet, in a sheet it imports and
    in a <style> element is found; a width condition is not."""
    (tmp_path / "deep.css").write_text("@media screen and (orientation: portrait) { body { transform: rotate(90deg) } }")
    (tmp_path / "top.css").write_text('@import url("deep.css");\n/* (orientation: landscape) */\n'
                                      "@media (max-width: 600px) { p { color: red } }")
    page_file = tmp_path / "page.html"
    page_file.write_text('<!DOCTYPE html><html lang="en"><head><title>t</title><link rel="stylesheet" href="top.css">'
                         "<style>@media (orientation: landscape) { main { display: none } }</style></head>"
                         "<body><main><p>text</p></main></body></html>")
    context = browser.new_context()
    block_network(context)
    try:
        page = context.new_page()
        page.goto(page_file.as_uri(), wait_until="load", timeout=NAV_TIMEOUT_MS)
        found = orientation_media(page)
    finally:
        context.close()
    assert sorted(found) == ["<style>: @media (orientation: landscape)",
                             "deep.css: @media screen and (orientation: portrait)"], found


@pytest.mark.browser
def test_axe_finds_a_planted_violation(browser, tmp_path: Path) -> None:
    """The check is live: an unlabelled button and grey-on-white text are reported."""
    page = tmp_path / "bad.html"
    page.write_text(
        '<!DOCTYPE html><html lang="en"><head><title>t</title></head><body><main>'
        '<button><svg width="10" height="10"></svg></button>'
        '<p style="color:#bbb;background:#fff">faint text</p></main></body></html>'
    )
    found = {v["id"] for v in axe_violations_plain(browser, page)}
    assert {"button-name", "color-contrast"} <= found, found


def axe_violations_plain(browser, html_file: Path) -> list[dict]:
    """axe on a page without the book's theme (no mode to set)."""
    context = browser.new_context()
    block_network(context)
    try:
        page = context.new_page()
        page.goto(html_file.as_uri(), wait_until="load", timeout=NAV_TIMEOUT_MS)
        page.add_script_tag(content=axe_source())
        return page.evaluate(RUN_AXE_JS, WCAG_TAGS)
    finally:
        context.close()


#: The page with the most live figures (every control kind: sliders, log sliders, options).
LESSON = "book/dynamics/contact-and-friction.html"

LIVE_A11Y_JS = r"""
() => [...document.querySelectorAll('.cf-live')].map(root => ({
  figure: root.dataset.figure,
  sliders: [...root.querySelectorAll('input[type=range]')].map(i => ({
    name: i.dataset.name, valuetext: i.getAttribute('aria-valuetext'),
    shown: i.closest('.cf-control').querySelector('output').textContent})),
  readout: (t => ({tabindex: t.getAttribute('tabindex'), label: t.getAttribute('aria-label'),
                   live: t.getAttribute('aria-live')}))(root.querySelector('.cf-readout')),
  state: (s => ({key: s.dataset.key, role: s.getAttribute('role'), text: s.textContent,
                 colour: getComputedStyle(s).color, marker: getComputedStyle(s).borderLeftColor,
                 markerWidth: parseFloat(getComputedStyle(s).borderLeftWidth)}))(root.querySelector('.cf-state')),
}))
"""


def _rgb(hex_colour: str) -> str:
    r, g, b = (int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))
    return f"rgb({r}, {g}, {b})"


@pytest.mark.browser
def test_live_figures_for_keyboard_and_screen_readers(book_build: BookBuild, browser) -> None:
    """Every live figure of the lesson: each slider announces the value it shows (with its
    unit), the readout is a polite live region that can be focused and has a name, the
    state is a status in words, drawn in the text colour with its key colour as a marker,
    and a slider moved by the keyboard shows its focus and announces the new value."""
    from lib.figures import STATE_COLORS

    assert book_build.returncode == 0, book_build.report()
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    block_network(context)
    try:
        page = context.new_page()
        page.goto((book_build.html_dir / LESSON).as_uri(), wait_until="load", timeout=NAV_TIMEOUT_MS)
        page.evaluate(SETTLE_JS)
        figures = page.evaluate(LIVE_A11Y_JS)
        assert figures, f"no live figure on {LESSON}"
        problems = []
        for fig in figures:
            name = fig["figure"]
            problems += [f"{name}.{s['name']}: aria-valuetext {s['valuetext']!r}, shows {s['shown']!r}"
                         for s in fig["sliders"] if s["valuetext"] != s["shown"]]
            readout = fig["readout"]
            if readout["tabindex"] != "0" or not readout["label"] or readout["live"] != "polite":
                problems.append(f"{name}: readout {readout} (want tabindex 0, a label, aria-live polite)")
            state = fig["state"]
            if state["role"] != "status" or not state["text"].strip():
                problems.append(f"{name}: state {state} is not a status in words")
            if state["markerWidth"] <= 0 or state["marker"] != _rgb(STATE_COLORS[state["key"]]):
                problems.append(f"{name}: state marker {state['marker']} ({state['markerWidth']} px), "
                                f"want {STATE_COLORS[state['key']]}")
        assert not problems, "\n".join(problems)

        slider = page.locator('.cf-live[data-figure="cone2d"] input[type=range]').first
        slider.focus()
        before = slider.get_attribute("aria-valuetext")
        page.keyboard.press("ArrowRight")
        after = slider.get_attribute("aria-valuetext")
        outline = slider.evaluate("el => [el.matches(':focus-visible'), getComputedStyle(el).outlineStyle, "
                                  "parseFloat(getComputedStyle(el).outlineWidth)]")
        assert after != before, f"ArrowRight left the slider's announced value at {before!r}"
        assert outline[0] and outline[1] != "none" and outline[2] >= 2, f"no visible focus: {outline}"
    finally:
        context.close()


def main(html_dir: Path) -> int:
    """Print the violations per mode, rule and page of a build; return their total."""
    from playwright.sync_api import sync_playwright

    from conftest import CHROMIUM, CHROMIUM_ARGS

    total = 0
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for mode in MODES:
            rules: Counter[str] = Counter()
            pages: dict[str, set[str]] = {}
            for toc_page in toc_pages():
                for v in axe_violations(browser, html_dir / toc_page.html, mode):
                    rules[v["id"]] += len(v["targets"])
                    pages.setdefault(v["id"], set()).add(toc_page.docname)
            print(f"{mode}: {sum(rules.values())} element(s), {len(rules)} rule(s)")
            for rule, count in rules.most_common():
                print(f"  {rule}: {count} element(s) on {len(pages[rule])} page(s): "
                      + ", ".join(sorted(p.rsplit("/", 1)[-1] for p in pages[rule])))
            total += sum(rules.values())
        browser.close()
    return total


if __name__ == "__main__":
    sys.exit(1 if main(Path(sys.argv[1]).resolve()) else 0)
