"""The book's pictures read in light and in dark mode, on screen and on paper.

A matplotlib picture saved with a transparent background shows its black
axes and labels on whatever lies behind it: on the dark theme's near-black
page they vanish. Every picture of the built book is therefore opaque (the
figures are saved on matplotlib's white figure background), and in dark mode
each one is shown on white (the theme gives images in the article a white
background; the live figures' panels have their own, ``lib/figures/js/frame.css``).
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from matplotlib import image as mpimg
from matplotlib.figure import Figure

from _page_visit import visit
from conftest import BookBuild, TocPage, page_param, toc_pages

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


#: The pages whose pictures are checked in dark mode (the chapters and their companions).
PICTURE_PAGES = [page for page in toc_pages() if page.docname.startswith("book/dynamics/")]


def article_images(html_file: Path) -> int:
    """How many ``<img>`` the article of a built page holds, read from the HTML file."""
    text = html_file.read_text(encoding="utf-8")
    article = re.search(r"<article\b.*?</article>", text, flags=re.S)
    return len(re.findall(r"<img\b", article.group(0))) if article else 0


@pytest.mark.book
@pytest.mark.browser
@pytest.mark.parametrize("picture_page", [page_param(p) for p in PICTURE_PAGES])
def test_pictures_are_shown_on_white_in_dark_mode(book_build: BookBuild, browser, picture_page: TocPage,
                                                  screenshot_dir: Path) -> None:
    """Every picture of the article, and every live panel, after the theme's switcher has made the
    page dark (read in the page's one visit, tests/_page_visit.py)."""
    assert book_build.returncode == 0, book_build.report()
    shown = visit(browser, book_build.html_dir, picture_page, screenshot_dir).dark_backgrounds
    # Every <img> of the article is measured (a selector that finds nothing would pass).
    assert sum(s["what"] != "live panel" for s in shown) == article_images(book_build.html_dir / picture_page.html)
    problems = [f"{s['what']} on {s['background']} (page {s['page']})" for s in shown
                if "logo" not in s["what"]  # the Binder badge, not a picture of the book
                and s["background"] != "rgb(255, 255, 255)"]
    assert not problems, f"{picture_page.docname}: pictures not on white in dark mode:\n" + "\n".join(problems)


@pytest.mark.book
def test_the_dark_mode_check_covers_the_books_pictures(book_build: BookBuild) -> None:
    """Most of the book's pictures are on the pages the dark-mode test reads."""
    assert book_build.returncode == 0, book_build.report()
    assert sum(article_images(book_build.html_dir / p.html) for p in PICTURE_PAGES) >= 20
