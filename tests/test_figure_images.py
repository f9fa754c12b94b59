"""The book's pictures read in light and in dark mode, on screen and on paper.

A matplotlib picture saved with a transparent background shows its black
axes and labels on whatever lies behind it: on the dark theme's near-black
page they vanish. Every picture of the built book is therefore opaque (the
figures are saved on matplotlib's white figure background), and in dark mode
each one is shown on white (the theme gives images in the article a white
background; the live figures' panels have their own, ``lib/figures/js/frame.css``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from matplotlib import image as mpimg
from matplotlib.figure import Figure

from conftest import BookBuild, block_network, toc_pages

NAV_TIMEOUT_MS = 60_000


def see_through(png: Path) -> float:
    """Fraction of the pixels of ``png`` that are not fully opaque (0 for an opaque picture)."""
    pixels = mpimg.imread(png)
    if pixels.ndim < 3 or pixels.shape[2] < 4:
        return 0.0
    return float(np.mean(pixels[..., 3] < 1.0))


def test_a_transparent_picture_is_found(tmp_path: Path) -> None:
    """The check is live: a figure saved with ``transparent=True`` is reported, the default is not."""
    fig = Figure(figsize=(2, 1))
    fig.add_subplot().plot([0, 1], [0, 1])
    fig.savefig(tmp_path / "clear.png", transparent=True)
    fig.savefig(tmp_path / "white.png")
    assert see_through(tmp_path / "clear.png") > 0.5
    assert see_through(tmp_path / "white.png") == 0.0


@pytest.mark.book
@pytest.mark.xdist_group("book")
def test_every_picture_of_the_book_is_opaque(book_build: BookBuild) -> None:
    assert book_build.returncode == 0, book_build.report()
    pictures = sorted((book_build.html_dir / "_images").glob("*.png"))
    assert len(pictures) >= 20, f"only {len(pictures)} pictures in the build"
    clear = {p.name: round(see_through(p), 3) for p in pictures if see_through(p) > 0}
    assert not clear, f"pictures with a transparent background (fraction of pixels): {clear}"


#: The background each picture of the article is shown on, and of each live figure's panel.
BACKGROUNDS_JS = r"""
() => [...document.querySelectorAll('article img, article svg.cf-panel')].map(el => ({
  what: el.tagName === 'IMG' ? (el.getAttribute('src') || '').split('/').pop() : 'live panel',
  background: getComputedStyle(el).backgroundColor,
  page: getComputedStyle(document.body).backgroundColor,
}))
"""


@pytest.mark.book
@pytest.mark.browser
@pytest.mark.xdist_group("book")
def test_pictures_are_shown_on_white_in_dark_mode(book_build: BookBuild, browser) -> None:
    from test_accessibility import MODE_INIT_JS, SETTLE_JS

    assert book_build.returncode == 0, book_build.report()
    context = browser.new_context(viewport={"width": 1280, "height": 900}, color_scheme="dark")
    block_network(context)
    context.add_init_script(MODE_INIT_JS % {"mode": "dark"})
    seen = 0
    problems = []
    try:
        for toc_page in toc_pages():
            if not toc_page.docname.startswith("book/dynamics/"):
                continue
            page = context.new_page()
            page.goto((book_build.html_dir / toc_page.html).as_uri(), wait_until="load",
                      timeout=NAV_TIMEOUT_MS)
            assert page.evaluate(SETTLE_JS)["theme"] == "dark"
            for shown in page.evaluate(BACKGROUNDS_JS):
                if "logo" in shown["what"]:
                    continue  # the Binder badge, not a picture of the book
                seen += 1
                if shown["background"] != "rgb(255, 255, 255)":
                    problems.append(f"{toc_page.docname}: {shown['what']} on {shown['background']} "
                                    f"(page {shown['page']})")
            page.close()
    finally:
        context.close()
    assert seen >= 20, f"only {seen} pictures seen"
    assert not problems, "pictures not on white in dark mode:\n" + "\n".join(problems)
