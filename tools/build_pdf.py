"""The whole book as one PDF, offline: ``make pdf``.

Usage::

    .venv/bin/python tools/build_pdf.py [--path-output DIR] [--no-build]

1. ``jupyter-book build --builder singlehtml`` (through ``tools/build_book.py``)
   writes every page of ``_toc.yml`` (chapters, notation, API, bibliography)
   into one HTML page, ``DIR/_build/singlehtml/<root>.html`` (``root`` of
   ``_toc.yml``), whose links are written as if it were at the top of the
   output folder: it is printed from a copy there, ``_book.html``. With the same
   ``--path-output`` as the HTML build (``make book``: the repository) the
   notebooks are not executed again: the execution cache is shared.
2. Debian's Chromium (``tools/install-browser.sh``), driven by Playwright with
   every request other than ``file:`` aborted, opens that page, waits until
   MathJax has typeset every equation and every image has loaded, refuses a
   MathJax error or an image that did not load, and prints the page
   (``book/_static/print.css``: no navigation, no live-figure area; each
   live figure's static picture stays) to ``DIR/_build/html/robot-dynamics.pdf``,
   where every page's download menu links it (``book/_ext/page_fixes.py``).

``--no-build`` prints an existing singlehtml build again.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "book" / "_ext"))
from page_fixes import BOOK_PDF as PDF_NAME  # noqa: E402  (the name the download menu links)

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
#: Milliseconds allowed for loading the single page and for typesetting its maths.
LOAD_TIMEOUT_MS = 300_000

SETTLE_JS = r"""
async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) await MathJax.startup.promise;
  await Promise.all([...document.images].map(img => img.complete ? null :
      new Promise(r => { img.addEventListener('load', r); img.addEventListener('error', r); })));
  return {
    math: document.querySelectorAll('.math').length,
    untypeset: [...document.querySelectorAll('.math')].filter(m => !m.querySelector('mjx-container'))
        .map(m => m.textContent.slice(0, 80)),
    mathErrors: [...document.querySelectorAll('mjx-merror, [data-mjx-error]')]
        .map(e => (e.getAttribute('data-mjx-error') || e.textContent).slice(0, 80)),
    brokenImages: [...document.images].filter(i => i.naturalWidth === 0).map(i => i.getAttribute('src')),
  };
}
"""

HEADER = '<div style="font-size: 8px; width: 100%; text-align: center;"><span class="title"></span></div>'
FOOTER = ('<div style="font-size: 8px; width: 100%; text-align: center;">'
          '<span class="pageNumber"></span> / <span class="totalPages"></span></div>')


def build_singlehtml(output: Path) -> None:
    """``jupyter-book build --builder singlehtml`` of the repository into ``output``."""
    command = [sys.executable, str(ROOT / "tools" / "build_book.py"), "build", str(ROOT),
               "--builder", "singlehtml", "--path-output", str(output), "--keep-going"]
    subprocess.run(command, cwd=ROOT, check=True)


def print_pdf(single_html: Path, pdf: Path) -> dict:
    """Print ``single_html`` to ``pdf`` in headless Chromium, offline; return what it saw."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            context = browser.new_context(color_scheme="light")
            # The book reads offline: MathJax and every script come from the build.
            context.route("**/*", lambda route: route.continue_()
                          if route.request.url.startswith(("file:", "data:", "blob:")) else route.abort())
            context.add_init_script("try { localStorage.setItem('mode', 'light'); "
                                    "localStorage.setItem('theme', 'light'); } catch (e) {}")
            page = context.new_page()
            page.goto(single_html.as_uri(), wait_until="load", timeout=LOAD_TIMEOUT_MS)
            page.set_default_timeout(LOAD_TIMEOUT_MS)
            seen = page.evaluate(SETTLE_JS)
            problems = ([f"math not typeset: {m!r}" for m in seen["untypeset"]]
                        + [f"MathJax error: {m!r}" for m in seen["mathErrors"]]
                        + [f"image did not load: {s}" for s in seen["brokenImages"]])
            if problems:
                raise SystemExit(f"{single_html}: not printed:\n" + "\n".join(problems))
            page.emulate_media(media="print")
            pdf.parent.mkdir(parents=True, exist_ok=True)
            page.pdf(path=str(pdf), format="A4", print_background=True, outline=True, tagged=True,
                     display_header_footer=True, header_template=HEADER, footer_template=FOOTER,
                     margin={"top": "16mm", "bottom": "16mm", "left": "14mm", "right": "14mm"})
        finally:
            browser.close()
    return seen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--path-output", type=Path, default=ROOT,
                        help="jupyter-book's --path-output (default: the repository, as make book)")
    parser.add_argument("--no-build", action="store_true", help="print an existing singlehtml build")
    args = parser.parse_args(argv)
    output = args.path_output.resolve()
    if not args.no_build:
        build_singlehtml(output)
    root = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))["root"]
    single_html = output / "_build" / "singlehtml" / f"{Path(root).with_suffix('').as_posix()}.html"
    if not single_html.is_file():
        parser.error(f"{single_html} does not exist (build it: drop --no-build)")
    # Sphinx writes the root page's links as if it were at the top of the
    # output (src="_images/..."), so print a copy there.
    top = output / "_build" / "singlehtml" / "_book.html"
    top.write_bytes(single_html.read_bytes())
    pdf = output / "_build" / "html" / PDF_NAME
    seen = print_pdf(top, pdf)
    print(f"{pdf}: {pdf.stat().st_size / 1e6:.1f} MB, {seen['math']} equations typeset")
    return 0


if __name__ == "__main__":
    sys.exit(main())
