"""One visit per built page of the book, read by the page tests of three files.

Opening a long chapter costs seconds (3.1 has 29,000 elements, 12,000 of them
typeset maths), and ``test_page_renders`` and
``test_page_layout_and_navigation[...-desktop]`` (test_browser.py),
``test_page_meets_wcag21_aa`` and ``test_no_style_sheet_locks_the_orientation``
(test_accessibility.py) and ``test_pictures_are_shown_on_white_in_dark_mode``
(test_figure_images.py) all read the same page. So :func:`visit` opens each
page once, offline, at 1280 px, in light mode as the theme's switcher leaves
it for the next page, and reads, in this order:

1. what the reader sees as the page loads: maths, pictures, outputs, links,
   launch buttons, titles (test_browser's ``page_faults``; a screenshot of a
   page with faults);
2. the media conditions on the screen's orientation in its style sheets
   (test_accessibility's ``orientation_media``) and axe-core's WCAG 2.1 A/AA
   violations, in light mode;
3. then it presses the theme's switcher, as a keyboard user does (no pointer
   left hovering), until the page is dark, and waits for the theme's colour
   transitions to end: axe again, and the background each picture is shown on;
4. last, because pressing them leaves the pointer over the page, the layout
   at 1280 px and the sidebar buttons (``layout_faults``), and the console
   errors of the whole visit.

The phone layout is not part of it: a phone loads the page at 390 px
(``check_layout`` in test_browser.py). The tests of one page form an xdist
group (conftest.py), so the page is visited once per run, on one worker.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from conftest import ROOT, TocPage, block_network

#: The width of the visit (the desktop layout) and its height.
DESKTOP = {"width": 1280, "height": 900}


@dataclass
class PageVisit:
    """What one visit of a built page saw (each fault names the page)."""

    render_faults: list[str]        # test_page_renders
    blocked: list[str]              # the requests refused (the book reads offline)
    desktop_faults: list[str]       # test_page_layout_and_navigation[...-desktop]
    orientation_media: list[str]    # test_no_style_sheet_locks_the_orientation
    axe: dict[str, list[dict]]      # test_page_meets_wcag21_aa, by mode
    dark_backgrounds: list[dict]    # test_pictures_are_shown_on_white_in_dark_mode


_visits: dict[Path, PageVisit | BaseException] = {}


def visit(browser, html_dir: Path, toc_page: TocPage, screenshot_dir: Path) -> PageVisit:
    """The visit of ``toc_page`` in the build at ``html_dir``: made on the first call, then
    remembered for this worker (a visit that raised raises again)."""
    key = (html_dir / toc_page.html).resolve()
    if key not in _visits:
        try:
            _visits[key] = _visit(browser, html_dir, toc_page, screenshot_dir)
        except Exception as exc:  # noqa: BLE001 - every test of the page reports it
            _visits[key] = exc
    seen = _visits[key]
    if isinstance(seen, BaseException):
        raise seen
    return seen


def _visit(browser, html_dir: Path, toc_page: TocPage, screenshot_dir: Path) -> PageVisit:
    from test_accessibility import (MODE_INIT_JS, NAV_TIMEOUT_MS, SETTLE_JS, orientation_media, run_axe,
                                    switch_mode)
    from test_browser import console_errors, layout_faults, page_faults
    from test_figure_images import BACKGROUNDS_JS

    screenshot = screenshot_dir / f"{toc_page.slug}.png"
    screenshot.unlink(missing_ok=True)  # an earlier run's picture would not show this build
    context = browser.new_context(viewport=DESKTOP, color_scheme="light")
    blocked = block_network(context)
    context.add_init_script(MODE_INIT_JS % {"mode": "light"})
    try:
        page = context.new_page()
        console = console_errors(page)
        page.goto((html_dir / toc_page.html).as_uri(), wait_until="load", timeout=NAV_TIMEOUT_MS)
        shown = page.evaluate(SETTLE_JS)
        if shown["theme"] != "light":
            raise AssertionError(f"{toc_page.docname}: asked for light mode, the page shows {shown}")
        render_faults = page_faults(page, html_dir, ROOT, toc_page, screenshot=screenshot)
        orientation = orientation_media(page)
        axe = {"light": run_axe(page)}
        switch_mode(page, "dark")
        axe["dark"] = run_axe(page)
        dark_backgrounds = page.evaluate(BACKGROUNDS_JS)
        desktop = layout_faults(page, DESKTOP["width"], toc_page.docname)
    finally:
        context.close()
    desktop += [f"{toc_page.docname} @{DESKTOP['width']}px: [console] {text[:200]}"
                for text in dict.fromkeys(console)]
    return PageVisit(render_faults=render_faults, blocked=list(blocked), axe=axe,
                     dark_backgrounds=dark_backgrounds, orientation_media=orientation, desktop_faults=desktop)
