"""Every page of the built book, as a reader sees it in headless Chromium, offline.

``check_page`` is the reusable checker: it opens one built page with the
network cut off (only file:// requests pass) and returns one message per fault,
each naming the page. ``test_page_renders`` runs it on every page of the book's
``_toc.yml`` and saves a full-page screenshot of a page with faults to
``artifacts/screenshots/<page>.png`` (of every page with ``SCREENSHOTS=1``).
The ``test_checker_*`` tests build a tiny throwaway book with known faults and
prove the checker reports each of them.

Screenshots of every page:
``SCREENSHOTS=1 .venv/bin/python -m pytest tests/test_browser.py -k page_renders``.
"""

from __future__ import annotations

import os
import re
import shutil
from functools import lru_cache
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlparse

import pytest
import yaml
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from _page_visit import DESKTOP, visit
from conftest import ROOT, BookBuild, TocPage, block_network, make_tiny_book, run_book_build, toc_pages

NAV_TIMEOUT_MS = 60_000
#: Set (to anything) to save a full-page screenshot of every page, not only of a
#: page with faults (a long chapter's takes seconds: Chromium draws the whole page).
SCREENSHOTS = "SCREENSHOTS"
#: The whole book's PDF, linked from every page's download menu (book/_ext/page_fixes.py).
BOOK_PDF = "robot-dynamics.pdf"

# --------------------------------------------------------------------------
# What the page shows (collected in the browser in one call)
# --------------------------------------------------------------------------

COLLECT_JS = r"""
async () => {
  const article = document.querySelector('article.bd-article') || document.querySelector('main') || document.body;
  // Wait for MathJax to finish typesetting (it is absent on pages without math).
  const mathjax = !!(window.MathJax && window.MathJax.startup && window.MathJax.startup.promise);
  if (mathjax) { await window.MathJax.startup.promise; }
  // Wait for every image to load or fail.
  await Promise.all([...document.images].map(img => img.complete ? null :
      new Promise(resolve => { img.addEventListener('load', resolve); img.addEventListener('error', resolve); })));

  const short = s => (s || '').replace(/\s+/g, ' ').trim().slice(0, 120);
  const inSkipped = node => {
    for (let el = node.parentElement; el && el !== article.parentElement; el = el.parentElement) {
      const tag = el.tagName.toLowerCase();
      if (['pre', 'code', 'script', 'style', 'mjx-container', 'noscript', 'template'].includes(tag)) return true;
    }
    return false;
  };
  // Visible prose: the article's text outside code, outputs and typeset math.
  const walker = document.createTreeWalker(article, NodeFilter.SHOW_TEXT);
  const prose = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!inSkipped(node)) prose.push(node.textContent);
  }
  const mathEls = [...article.querySelectorAll('.math')];
  const isText = n => n && n.nodeType === Node.TEXT_NODE;
  const figureInfo = fig => {
    const imgs = [...fig.querySelectorAll('img')];
    // An inline SVG picture counts; icons (copy button, math, header links) do not.
    const svgs = [...fig.querySelectorAll('svg')].filter(s => !s.closest('mjx-container, button, a, figcaption'));
    const shown = imgs.some(i => i.naturalWidth > 0 && i.getBoundingClientRect().width > 0)
        || svgs.some(s => s.getBoundingClientRect().width >= 32);
    const textOutput = [...fig.querySelectorAll('.output.text_plain')].map(e => short(e.textContent));
    return {id: fig.id || short(fig.textContent), shown, textOutput};
  };
  const hasPicture = el => !!el && [...el.querySelectorAll('img')].some(i => i.naturalWidth > 0);
  const widgetViews = [...article.querySelectorAll('script[type="application/vnd.jupyter.widget-view+json"]')].map(s => {
    const section = s.closest('section');
    const parent = section && section.parentElement ? section.parentElement.closest('section') : null;
    return {section: section ? section.id : '', staticPicture: hasPicture(section) || hasPicture(parent) || (!section && hasPicture(article))};
  });
  const navLinks = [...document.querySelectorAll('.bd-sidebar-primary a.reference.internal, .bd-sidebar-primary a.navbar-brand')];
  const here = location.href.split('#')[0];
  const selfNav = navLinks.filter(a => a.href.split('#')[0] === here && a.classList.contains('reference'));
  return {
    mathjax,
    mathCount: mathEls.length,
    untypeset: mathEls.filter(m => !m.querySelector('mjx-container')).map(m => short(m.textContent)),
    mjxCount: article.querySelectorAll('mjx-container').length,
    mathErrors: [...document.querySelectorAll('mjx-merror, [data-mjx-error]')].map(e => short(e.getAttribute('data-mjx-error') || e.textContent)),
    dollarNextToMath: mathEls.filter(m => (isText(m.previousSibling) && /\$\s*$/.test(m.previousSibling.textContent))
        || (isText(m.nextSibling) && /^\s*\$/.test(m.nextSibling.textContent))).map(m => short(m.textContent)),
    prose: prose.join(' '),
    articleText: article.innerText,
    // Text of the notebook cells' outputs (myst-nb), where a traceback means a failed cell.
    outputText: [...article.querySelectorAll('.cell_output, .output')].map(e => e.innerText).join('\n'),
    images: [...document.images].map(i => ({src: i.getAttribute('src'), naturalWidth: i.naturalWidth})),
    figures: [...article.querySelectorAll('figure')].map(figureInfo),
    widgetViews,
    errorOutputs: [...article.querySelectorAll('.output.error, .output.traceback')].map(e => short(e.textContent)),
    stderrOutputs: [...article.querySelectorAll('.output.stderr')].map(e => e.textContent),
    links: [...document.querySelectorAll('a[href]')].map(a => ({raw: a.getAttribute('href'), href: a.href, text: short(a.textContent)})),
    binder: [...document.querySelectorAll('a[href*="/v2/gh/"]')].map(a => a.href),
    thebe: document.querySelectorAll('.btn-launch-thebe, button[onclick*="Thebe"]').length,
    h1: [...article.querySelectorAll('h1')].map(h => h.textContent.replace(/#$/, '').trim()),
    navTitle: selfNav.length ? selfNav[0].textContent.replace(/#$/, '').trim() : null,
    navCount: navLinks.length,
    h2Ids: [...article.querySelectorAll('section > h2')].map(h => h.parentElement.id),
    pageTocHrefs: [...document.querySelectorAll('.bd-sidebar-secondary nav.page-toc a')].map(a => a.getAttribute('href')),
  };
}
"""

RAW_TEX = ("$$", "\\begin", "\\end{", "\\(", "\\)", "\\[", "\\]", "\\frac")
GLUE_LEFTOVERS = ("{glue:", "{glue}", "glue:text", "glue:figure", "<Figure size")


@lru_cache(maxsize=None)
def _ids_in(html_file: Path) -> frozenset[str]:
    text = html_file.read_text(errors="replace")
    return frozenset(re.findall(r"""\s(?:id|name)=["']([^"']+)["']""", text))


def _source_file(repo_root: Path, toc_page: TocPage) -> Path | None:
    for suffix in (".md", ".ipynb"):
        path = repo_root / f"{toc_page.docname}{suffix}"
        if path.is_file():
            return path
    return None


def _source_has_math(source: Path) -> bool:
    """Whether a MyST page writes math ($...$, $$, {math}, amsmath environments)."""
    if source.suffix != ".md":
        return False
    text = re.sub(r"^(```|~~~|:::).*?^\1", "", source.read_text(), flags=re.S | re.M)  # fences
    text = re.sub(r"`[^`\n]*`", "", text)  # inline code
    return bool(
        re.search(r"\$\$|\{math\}|\\begin\{", text) or re.search(r"(?<![\\$])\$[^$\s][^$\n]*?\$", text)
    )


def _repo_config(repo_root: Path) -> dict:
    return yaml.safe_load((repo_root / "_config.yml").read_text())


def check_page(
    browser_page,
    html_dir: Path,
    repo_root: Path,
    toc_page: TocPage,
    screenshot: Path | None = None,
) -> list[str]:
    """Open one built page offline and return its faults (each names the page)."""
    page_file = html_dir.resolve() / toc_page.html
    if not page_file.is_file():
        return [f"{toc_page.docname}: [built] {page_file} does not exist"]
    browser_page.goto(page_file.as_uri(), wait_until="load", timeout=NAV_TIMEOUT_MS)
    return page_faults(browser_page, html_dir, repo_root, toc_page, screenshot)


def page_faults(
    browser_page,
    html_dir: Path,
    repo_root: Path,
    toc_page: TocPage,
    screenshot: Path | None = None,
) -> list[str]:
    """The faults of the built page open in ``browser_page`` (each names the page)."""
    name = toc_page.docname
    html_dir = html_dir.resolve()
    faults: list[str] = []

    def fault(check: str, message: str) -> None:
        faults.append(f"{name}: [{check}] {message}")

    info = browser_page.evaluate(COLLECT_JS)

    # (1) Math is typeset, and no raw TeX is left in the prose.
    if info["mathCount"] and not info["mathjax"]:
        fault("math", f"{info['mathCount']} math element(s) but MathJax did not load")
    for tex in info["untypeset"]:
        fault("math", f"math not typeset by MathJax: {tex!r}")
    if info["mathCount"] and not info["mjxCount"]:
        fault("math", "the page has math but no mjx-container")
    for error in info["mathErrors"]:
        fault("math", f"MathJax error: {error!r}")
    for tex in info["dollarNextToMath"]:
        fault("math", f"a stray '$' next to the equation {tex!r} (unbalanced delimiters)")
    for raw in RAW_TEX:
        if raw in info["prose"]:
            at = info["prose"].index(raw)
            fault("math", f"raw TeX {raw!r} in the text: {info['prose'][max(0, at - 40):at + 60]!r}")

    source = _source_file(repo_root, toc_page)
    if source is not None and _source_has_math(source) and not info["mjxCount"]:
        fault("math", f"{source.name} has math, but the page shows no typeset math")

    # (2) Every image loads, every figure shows its picture, every widget has a static picture.
    for image in info["images"]:
        if image["naturalWidth"] <= 0:
            fault("images", f"image does not load: {image['src']}")
    for figure in info["figures"]:
        if not figure["shown"]:
            shows = f" (it shows the text {figure['textOutput'][0]!r})" if figure["textOutput"] else ""
            fault("images", f"figure {figure['id']!r} shows no picture{shows}")
    for view in info["widgetViews"]:
        if not view["staticPicture"]:
            fault(
                "images",
                f"interactive widget in section {view['section']!r} has no static picture near it "
                "(widgets are blank in the static HTML)",
            )

    # (3) No glue leftovers, no tracebacks, no error outputs.
    for leftover in GLUE_LEFTOVERS:
        if leftover in info["articleText"]:
            fault("outputs", f"glue leftover {leftover!r} on the page")
    # (Docstrings may show a traceback in a doctest: only cell outputs count.)
    if "Traceback (most recent call last)" in info["outputText"]:
        fault("outputs", "a Python traceback is shown in a cell output")
    for error in info["errorOutputs"]:
        fault("outputs", f"an error output is shown: {error!r}")
    for stderr in info["stderrOutputs"]:
        if "Error" in stderr:
            fault("outputs", f"stderr output with an error: {stderr.strip()[:200]!r}")
    # A Python warning printed by a cell (stderr is merged into the stream output).
    for warning in re.findall(r"\S+\.py:\d+: \w*Warning: [^\n]*", info["outputText"]):
        fault("outputs", f"a cell prints a Python warning: {warning[:200]!r}")

    # (4) Internal links resolve to files of the build, and their anchors exist.
    for link in info["links"]:
        url = urlparse(link["href"])
        if url.scheme != "file":
            continue
        target = Path(unquote(url.path))
        try:
            target.resolve().relative_to(html_dir)
        except ValueError:
            fault("links", f"link {link['raw']!r} ({link['text']!r}) leaves the built book: {target}")
            continue
        if target.is_dir():
            target = target / "index.html"
        if target == html_dir / BOOK_PDF and not target.is_file():
            continue  # `make pdf` writes it after the HTML build; tests/test_pdf.py follows this link
        if not target.is_file():
            fault("links", f"link {link['raw']!r} ({link['text']!r}) is broken: {target} does not exist")
            continue
        if url.fragment and target.suffix == ".html" and unquote(url.fragment) not in _ids_in(target):
            fault("links", f"link {link['raw']!r} ({link['text']!r}): no anchor #{url.fragment} in {target.name}")

    # (5) Chapter pages can be run live, and Binder opens a file that exists.
    if toc_page.in_topic_folder:
        if not info["binder"]:
            fault("launch", "no Binder launch button")
        if not info["thebe"]:
            fault("launch", "no Live Code (Thebe) launch button")
        repo = _repo_config(repo_root).get("repository", {})
        for href in info["binder"]:
            query = parse_qs(urlparse(href).query)
            urlpath = query.get("urlpath", [""])[0]
            match = re.match(r"^(?:lab/tree|tree|notebooks)/(.+)$", urlpath)
            if not match:
                fault("launch", f"Binder URL has no file path: {href}")
                continue
            if not (repo_root / match.group(1)).is_file():
                fault("launch", f"Binder opens {match.group(1)}, which is not in the repository")
            expected = urlparse(repo.get("url", "")).path.strip("/")
            if expected and f"/v2/gh/{expected}/{repo.get('branch', 'main')}" not in href:
                fault("launch", f"Binder URL {href} is not for {expected}@{repo.get('branch')}")

    # (6) Title, table of contents, exercises.
    expected_title = toc_page.title or info["navTitle"]
    if info["navTitle"] is None:
        fault("toc", "the page is not in the left navigation")
    if not info["h1"]:
        fault("title", "the page has no h1 title")
    elif expected_title and info["h1"][0] != expected_title:
        fault("title", f"h1 {info['h1'][0]!r} differs from the toc title {expected_title!r}")
    if not info["navCount"]:
        fault("toc", "no left navigation (book table of contents)")
    missing = [i for i in info["h2Ids"] if f"#{i}" not in info["pageTocHrefs"]]
    if missing:
        fault("toc", f"sections missing from 'Contents' (on this page): {missing}")
    if toc_page.is_chapter:
        exercise_links = [l for l in info["links"] if "exercises/" in l["href"]]
        if not exercise_links:
            fault("exercises", "no link to the chapter's exercises (a href containing 'exercises/')")
        for link in exercise_links:
            # GitHub (.../blob/main/exercises/x.md) or Binder (...urlpath=lab/tree/exercises/x.md).
            tail = unquote(link["href"]).split("exercises/", 1)[1]
            relative = ("exercises/" + re.split(r"[?&#]", tail, maxsplit=1)[0]).rstrip("/")
            if not (repo_root / relative).exists():
                fault("exercises", f"exercises link {link['raw']!r} points at {relative}, not in the repository")
    faults = list(dict.fromkeys(faults))  # the same fault found twice is reported once
    if screenshot is not None and (faults or os.environ.get(SCREENSHOTS)):
        screenshot.parent.mkdir(parents=True, exist_ok=True)
        browser_page.screenshot(path=str(screenshot), full_page=True)
    return faults


# --------------------------------------------------------------------------
# The book
# --------------------------------------------------------------------------


@pytest.fixture
def offline_page(browser):
    """A fresh browser page whose network is cut off (only file:// passes)."""
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    blocked = block_network(context, allow_local=True)
    page = context.new_page()
    page.blocked = blocked
    yield page
    context.close()


@pytest.mark.browser
def test_page_renders(book_build: BookBuild, browser, toc_page: TocPage, screenshot_dir: Path) -> None:
    """``page_faults`` on every page, as it loads (read in the page's one visit, tests/_page_visit.py)."""
    assert book_build.returncode == 0, book_build.report()
    seen = visit(browser, book_build.html_dir, toc_page, screenshot_dir)
    blocked = sorted({urlparse(url).netloc for url in seen.blocked})
    assert not seen.render_faults, (
        f"{len(seen.render_faults)} fault(s) on {toc_page.docname}:\n"
        + "\n".join(seen.render_faults)
        + f"\n(requests blocked, as offline: {blocked or 'none'})"
    )


@pytest.mark.browser
def test_built_pages_are_the_toc_pages(book_build: BookBuild) -> None:
    """Every chapter page in the build comes from _toc.yml, and vice versa."""
    html_dir = book_build.html_dir
    built = {
        p.relative_to(html_dir).with_suffix("").as_posix()
        for p in html_dir.rglob("*.html")
        if not p.relative_to(html_dir).parts[0].startswith("_")
        and p.name not in ("genindex.html", "search.html", "py-modindex.html")
        and p.relative_to(html_dir).as_posix() != "index.html"
    }
    listed = {page.docname for page in toc_pages()}
    assert built == listed, f"built but not in the toc: {sorted(built - listed)}; in the toc but not built: {sorted(listed - built)}"


# --------------------------------------------------------------------------
# The checker catches faults (a tiny throwaway book, see conftest.TINY_PAGES)
# --------------------------------------------------------------------------


def _tiny_page(docname: str) -> TocPage:
    return TocPage(f"book/{docname}", None)


def _faults(offline_page, build: BookBuild, docname: str, html_dir: Path | None = None) -> list[str]:
    return check_page(offline_page, html_dir or build.html_dir, build.source, _tiny_page(docname))


def _only(faults: list[str], check: str) -> list[str]:
    return [f for f in faults if f"[{check}]" in f]


@pytest.mark.browser
@pytest.mark.xdist_group("tiny-book")
def test_checker_passes_the_good_tiny_page(offline_page, tiny_faulty_book: BookBuild) -> None:
    faults = _faults(offline_page, tiny_faulty_book, "dynamics/good")
    assert faults == [], "\n".join(faults)


@pytest.mark.browser
@pytest.mark.xdist_group("tiny-book")
def test_checker_catches_broken_equation_delimiters(offline_page, tiny_faulty_book: BookBuild) -> None:
    faults = _faults(offline_page, tiny_faulty_book, "dynamics/badmath")
    math = _only(faults, "math")
    assert math, f"broken math not reported: {faults}"
    assert all(f.startswith("book/dynamics/badmath: ") for f in faults), faults
    assert any("stray '$'" in f for f in math), math
    assert any("MathJax error" in f and "end{aligned}" in f for f in math), math


@pytest.mark.browser
@pytest.mark.xdist_group("tiny-book")
def test_checker_catches_a_missing_figure_file(offline_page, tiny_faulty_book: BookBuild) -> None:
    faults = _only(_faults(offline_page, tiny_faulty_book, "dynamics/nofig"), "images")
    assert any("image does not load" in f for f in faults), faults
    assert any("fig-missing" in f and "shows no picture" in f for f in faults), faults
    assert all(f.startswith("book/dynamics/nofig: ") for f in faults), faults


@pytest.mark.browser
@pytest.mark.xdist_group("tiny-book")
def test_checker_catches_a_figure_deleted_from_the_build(
    offline_page, tiny_faulty_book: BookBuild, tmp_path: Path
) -> None:
    html_dir = tmp_path / "html"
    shutil.copytree(tiny_faulty_book.html_dir, html_dir)
    images = list((html_dir / "_images").glob("pic*.png"))
    assert images, "the good page's figure is not in the tiny build"
    for image in images:
        image.unlink()
    faults = _faults(offline_page, tiny_faulty_book, "dynamics/good", html_dir=html_dir)
    assert _only(faults, "images"), faults
    assert any("fig-good" in f for f in faults), faults
    assert all(f.startswith("book/dynamics/good: ") for f in faults), faults


@pytest.mark.browser
@pytest.mark.xdist_group("tiny-book")
def test_checker_catches_a_raising_cell(offline_page, tiny_faulty_book: BookBuild) -> None:
    faults = _only(_faults(offline_page, tiny_faulty_book, "dynamics/raising"), "outputs")
    assert any("error output" in f or "traceback" in f for f in faults), faults
    assert all(f.startswith("book/dynamics/raising: ") for f in faults), faults


@pytest.mark.browser
@pytest.mark.xdist_group("tiny-book")
def test_checker_catches_a_widget_without_a_static_picture(offline_page, tiny_faulty_book: BookBuild) -> None:
    faults = _only(_faults(offline_page, tiny_faulty_book, "dynamics/widgetonly"), "images")
    assert any("no static picture" in f for f in faults), faults


@pytest.mark.browser
@pytest.mark.xdist_group("tiny-book")
def test_checker_catches_broken_links_and_missing_launch_buttons(
    offline_page, tiny_faulty_book: BookBuild, tmp_path: Path
) -> None:
    html_dir = tmp_path / "html"
    shutil.copytree(tiny_faulty_book.html_dir, html_dir)
    page = html_dir / "book" / "dynamics" / "good.html"
    text = page.read_text()
    # The link to the widget page loses its target, an anchor goes missing, no Binder button.
    (html_dir / "book" / "dynamics" / "widgetonly.html").unlink()
    text = text.replace('id="sec-good-math"', 'id="renamed"')
    text = re.sub(r'href="https://mybinder\.org[^"]*"', 'href="https://example.org/"', text)
    page.write_text(text)
    faults = _faults(offline_page, tiny_faulty_book, "dynamics/good", html_dir=html_dir)
    links = _only(faults, "links")
    assert any("widgetonly.html does not exist" in f for f in links), faults
    assert any("no anchor #sec-good-math" in f for f in links), faults
    assert any("no Binder launch button" in f for f in _only(faults, "launch")), faults


@pytest.mark.browser
def test_checker_catches_a_figure_glued_as_text(offline_page, tmp_path: Path) -> None:
    """A kernel with a non-inline matplotlib backend glues "<Figure size ...>" text."""
    source = make_tiny_book(
        tmp_path / "src",
        {
            "dynamics/glued": """\
# Glued figure

```{code-cell} ipython3
import matplotlib.pyplot as plt
from myst_nb import glue
fig, ax = plt.subplots()
glue("glued_fig", fig, display=False)
plt.close(fig)
```

```{glue:figure} glued_fig
:name: fig-glued

A figure.
```
"""
        },
    )
    build = run_book_build(source, tmp_path / "out", timeout=600, extra_env={"MPLBACKEND": "Agg"})
    faults = check_page(offline_page, build.html_dir, source, _tiny_page("dynamics/glued"))
    assert any("fig-glued" in f and "<Figure size" in f for f in _only(faults, "images")), faults


# --------------------------------------------------------------------------
# Desktop and phone: layout, navigation toggles, console
# --------------------------------------------------------------------------

WIDTHS = {"desktop": 1280, "phone": 390}

#: Elements wider than the viewport are allowed only inside a box that scrolls.
OVERFLOW_JS = r"""
() => {
  const vw = document.documentElement.clientWidth;
  const scrolls = el => {
    for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      if (['auto', 'scroll', 'hidden', 'clip'].includes(s.overflowX)
          && a.getBoundingClientRect().right <= vw + 1) return true;
    }
    return false;
  };
  const offenders = [];
  for (const el of document.querySelectorAll('body *')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    // Most elements end inside the screen: the costlier tests below are for the others.
    if (r.right <= vw + 1) continue;
    if (!el.checkVisibility({visibilityProperty: true, opacityProperty: true})) continue;
    if (el.closest('dialog:not([open])')) continue;
    // Off-canvas drawers are fixed boxes moved out of view, not part of the page.
    let fixed = false;
    for (let a = el; a && a !== document.body; a = a.parentElement) {
      if (getComputedStyle(a).position === 'fixed') { fixed = true; break; }
    }
    if (fixed) continue;
    if (!scrolls(el)) {
      const id = el.id ? '#' + el.id : '';
      const cls = el.className && typeof el.className === 'string' ? '.' + el.className.trim().split(/\s+/).join('.') : '';
      offenders.push(`${el.tagName.toLowerCase()}${id}${cls} (${Math.round(r.right)} px): `
                     + (el.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 60));
    }
  }
  // Report the outermost offenders only.
  return {scrollWidth: document.documentElement.scrollWidth, vw, offenders: offenders.slice(0, 8)};
}
"""

VISIBLE_TOGGLE_JS = r"""
(kind) => [...document.querySelectorAll(`.${kind}-toggle`)]
  .findIndex(b => { const r = b.getBoundingClientRect(); return r.width > 0 && r.height > 0
                    && getComputedStyle(b).visibility !== 'hidden'; })
"""


#: How long a sidebar button may take to open its sidebar (it opens at once; this is a margin).
TOGGLE_TIMEOUT_MS = 3_000
SIDEBARS_BACK_JS = """
() => !document.querySelector('dialog[open]') && !document.querySelector('#pst-primary-sidebar.pst-sidebar-hidden')
"""


def console_errors(page) -> list[str]:
    """Collect the console errors and uncaught exceptions of ``page`` from now on, in a list."""
    console: list[str] = []
    page.on("console", lambda m: console.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: console.append(f"uncaught: {e}"))
    return console


def check_layout(browser, html_file: Path, width: int, name: str) -> list[str]:
    """Open ``html_file`` at ``width`` px offline; return layout, toggle and console faults."""
    context = browser.new_context(viewport={"width": width, "height": 800})
    block_network(context)
    page = context.new_page()
    console = console_errors(page)
    try:
        page.goto(html_file.as_uri(), wait_until="load", timeout=NAV_TIMEOUT_MS)
        page.evaluate("async () => { if (window.MathJax && MathJax.startup) await MathJax.startup.promise; }")
        faults = layout_faults(page, width, name)
    finally:
        context.close()
    return faults + [f"{name} @{width}px: [console] {text[:200]}" for text in dict.fromkeys(console)]


def layout_faults(page, width: int, name: str) -> list[str]:
    """Overflow and sidebar-button faults of the page open in ``page`` (``width`` px wide).

    It presses the sidebar buttons: run it after anything that reads the page as it loaded."""
    faults: list[str] = []
    layout = page.evaluate(OVERFLOW_JS)
    if layout["scrollWidth"] > layout["vw"] + 1:
        faults.append(f"{name} @{width}px: [layout] the page is {layout['scrollWidth']} px wide")
    for offender in layout["offenders"]:
        faults.append(f"{name} @{width}px: [layout] wider than the screen, not in a scroll box: {offender}")
    for kind, opened in (
        ("primary", "#pst-primary-sidebar-modal[open], #pst-primary-sidebar.pst-sidebar-hidden"),
        ("secondary", "#pst-secondary-sidebar-modal[open]"),
    ):
        index = page.evaluate(VISIBLE_TOGGLE_JS, kind)
        if index < 0:
            # Wide screens show the page contents beside the text; pages
            # without sections have no page contents.
            has_contents = page.locator("nav.page-toc a").count() > 0
            if kind == "primary" or (width < 1200 and has_contents):
                faults.append(f"{name} @{width}px: [navigation] no visible {kind} sidebar button")
            continue
        page.locator(f".{kind}-toggle").nth(index).click()
        try:
            page.wait_for_selector(opened, state="attached", timeout=TOGGLE_TIMEOUT_MS)
        except PlaywrightTimeoutError:
            faults.append(f"{name} @{width}px: [navigation] the visible {kind} sidebar button does nothing")
        page.keyboard.press("Escape")
        if page.locator("#pst-primary-sidebar.pst-sidebar-hidden").count():
            page.locator(f".{kind}-toggle").nth(index).click()  # expand it again
        try:  # back as it was before the next button is tried
            page.wait_for_function(SIDEBARS_BACK_JS, timeout=TOGGLE_TIMEOUT_MS)
        except PlaywrightTimeoutError:
            pass
    return faults


@pytest.mark.browser
@pytest.mark.parametrize("device", WIDTHS)
def test_page_layout_and_navigation(book_build: BookBuild, browser, toc_page: TocPage, device: str,
                                    screenshot_dir: Path) -> None:
    """No sideways scrolling, working sidebar buttons and no console error, on a desktop (read in
    the page's one visit, tests/_page_visit.py) and on a phone (the page loaded at 390 px)."""
    assert book_build.returncode == 0, book_build.report()
    if WIDTHS[device] == DESKTOP["width"]:
        faults = visit(browser, book_build.html_dir, toc_page, screenshot_dir).desktop_faults
    else:
        faults = check_layout(browser, book_build.html_dir / toc_page.html, WIDTHS[device], toc_page.docname)
    assert not faults, "\n".join(faults)


@pytest.mark.browser
@pytest.mark.xdist_group("tiny-book")
def test_layout_checker_catches_overflow_dead_toggles_and_console_errors(
    browser, tiny_faulty_book: BookBuild, tmp_path: Path
) -> None:
    html_dir = tmp_path / "html"
    shutil.copytree(tiny_faulty_book.html_dir, html_dir)
    page = html_dir / "book" / "dynamics" / "good.html"
    good = check_layout(browser, page, 390, "good")
    assert good == [], "\n".join(good)
    text = page.read_text()
    text = text.replace("</article>", '<div style="width: 900px">too wide</div></article>', 1)
    text = text.replace("theme-fixes.js", "no-such-file.js")
    text = text.replace("</body>", "<script>undefinedFunction()</script></body>", 1)
    page.write_text(text)
    faults = check_layout(browser, page, 390, "good")
    assert any("[layout]" in f and "too wide" in f for f in faults), faults
    assert any("[navigation]" in f and "primary" in f for f in faults), faults
    assert any("[console]" in f and "undefinedFunction" in f for f in faults), faults


def press_live_code(page) -> str:
    """Press Live Code on an open page and return what its status button says once settled."""
    page.evaluate("() => window.initThebeSBT()")
    page.wait_for_function(
        "() => document.querySelector('.thebe-launch-button')?.dataset.liveCode === 'unavailable'",
        timeout=30_000,
    )
    return page.locator(".thebe-launch-button").inner_text()


@pytest.mark.browser
@pytest.mark.xdist_group("tiny-book")
def test_live_code_says_when_it_cannot_start(offline_page, tiny_faulty_book: BookBuild) -> None:
    """Offline, Live Code tells the reader it could not start instead of "Loading thebe from CDN..."."""
    page_file = tiny_faulty_book.html_dir / "book" / "dynamics" / "good.html"
    offline_page.goto(page_file.as_uri(), wait_until="load", timeout=NAV_TIMEOUT_MS)
    text = press_live_code(offline_page)
    assert "Live Code could not start" in text and "could not be downloaded" in text, text
    assert any("thebe" in url for url in offline_page.blocked), offline_page.blocked
