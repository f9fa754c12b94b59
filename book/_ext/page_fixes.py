"""Small fixes to what the themes put on every page.

- sphinx-thebe registers its configuration script once per read phase, so
  with Jupyter Book every page carried it twice and the browser logged
  ``Identifier 'THEBE_JS_URL' has already been declared``. Drop exact
  duplicate scripts from each page.
- Load ``theme-fixes.js`` (the visible sidebar buttons did nothing, and a
  first visit logged a console error; see that file) and ``responsive.css`` (wide equations and tables scroll inside
  the column on a phone instead of widening the page), and ``print.css``
  (the printed book and ``make pdf``: no live-figure area, hidden code
  stays hidden); the download menu of every page links the whole book's
  PDF (``make pdf`` writes it next to the HTML).
- Accessibility (WCAG 2.1 AA, checked by ``tests/test_accessibility.py``):
  the navigation's expand buttons (``<summary>`` holding only a chevron) get
  a name, "Sections of <page>"; a hidden code cell's ``<summary>`` loses
  myst-nb's ``aria-label`` "Toggle hidden content", so its name is the text
  the reader sees ("Show code cell source"); the bibliography's entries are
  ``listitem`` s of docutils' ``role="list"`` (docutils gives them the
  deprecated ``doc-biblioentry``, which a list may not contain). The
  JavaScript-only buttons are fixed in ``theme-fixes.js``.
"""

from __future__ import annotations

from typing import Any, Callable

from sphinx.application import Sphinx


def _script_key(script: Any) -> tuple[str, str]:
    # The same script may be registered twice with different priorities, so
    # compare only what the browser runs: the file and the inline body.
    filename = str(getattr(script, "filename", script) or "")
    body = getattr(script, "attributes", {}).get("body", "")
    return filename, body


def dedupe_scripts(scripts: list[Any]) -> list[Any]:
    """Return ``scripts`` without exact repeats (same file and inline body), in order.

    >>> dedupe_scripts(["a.js", "b.js", "a.js"])
    ['a.js', 'b.js']
    """
    seen: set[tuple[str, str]] = set()
    unique = []
    for script in scripts:
        key = _script_key(script)
        if key not in seen:
            seen.add(key)
            unique.append(script)
    return unique


def _on_page_context(app: Sphinx, pagename: str, templatename: str,
                     context: dict[str, Any], doctree: Any) -> None:
    # In place: handlers after this one may still append to the same list.
    if "script_files" in context:
        context["script_files"][:] = dedupe_scripts(context["script_files"])


#: (what docutils/myst-nb write, what the page gets) in every page's body.
BODY_FIXES = (
    ('<summary aria-label="Toggle hidden content">', "<summary>"),
    ('role="doc-biblioentry"', 'role="listitem"'),
)


def name_nav_summaries(nav: Any) -> Any:
    """Give each navigation ``<summary>`` that holds only a chevron the name "Sections of <page>".

    ``nav`` is what pydata-sphinx-theme 0.17.1's ``generate_toctree_html``
    returns (a BeautifulSoup tree for the sidebar); a page with sub-pages is
    ``<li><a>Title</a><details><summary><span class="toctree-toggle">``.

    >>> from bs4 import BeautifulSoup
    >>> nav = BeautifulSoup('<li><a href="a.html">A <em>b</em></a><details><summary>'
    ...                     '<span></span></summary></details></li>', "html.parser")
    >>> str(name_nav_summaries(nav).summary)
    '<summary aria-label="Sections of A b"><span></span></summary>'
    """
    for summary in nav.select("li > details > summary"):
        link = summary.parent.parent.find("a", recursive=False)
        if link is not None and not summary.get_text(strip=True) and not summary.get("aria-label"):
            summary["aria-label"] = "Sections of " + " ".join(link.get_text().split())
    return nav


def fix_body(body: str) -> str:
    """The page body with :data:`BODY_FIXES` applied.

    >>> fix_body('<div role="list"><div class="citation" role="doc-biblioentry">')
    '<div role="list"><div class="citation" role="listitem">'
    """
    for old, new in BODY_FIXES:
        body = body.replace(old, new)
    return body


def _named_nav(generate: Callable[..., Any]) -> Callable[..., Any]:
    def wrapper(kind: str, *args: Any, **kwargs: Any) -> Any:
        result = generate(kind, *args, **kwargs)
        return name_nav_summaries(result) if hasattr(result, "select") else result

    return wrapper


#: The whole book as one PDF, written by ``make pdf`` (tools/build_pdf.py) at
#: the top of the HTML output; every page's download menu links it.
BOOK_PDF = "robot-dynamics.pdf"


def _add_book_pdf(context: dict[str, Any]) -> None:
    for group in context.get("header_buttons", []):
        if group.get("label") == "download-buttons":
            group["buttons"].append({
                "type": "link",
                "url": context["pathto"](BOOK_PDF, 1),
                "text": "book .pdf",
                "tooltip": "The whole book as one PDF",
                "icon": "fas fa-book",
                "label": "download-book-pdf-button",
            })


def _on_page_context_a11y(app: Sphinx, pagename: str, templatename: str,
                          context: dict[str, Any], doctree: Any) -> None:
    if isinstance(context.get("body"), str):
        context["body"] = fix_body(context["body"])
    # After the theme's handler (priority 500) has put its function in the context.
    if "generate_toctree_html" in context:
        context["generate_toctree_html"] = _named_nav(context["generate_toctree_html"])
    # After sphinx-book-theme's (priority 501) has made the download menu.
    _add_book_pdf(context)


def setup(app: Sphinx) -> dict[str, object]:
    app.add_js_file("theme-fixes.js")
    app.add_css_file("responsive.css")
    app.add_css_file("print.css", media="print")
    # Early: Sphinx stops calling html-page-context handlers at the first one
    # that returns a template name.
    app.connect("html-page-context", _on_page_context, priority=100)
    app.connect("html-page-context", _on_page_context_a11y, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
