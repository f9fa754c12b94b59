"""Small fixes to what the themes put on every page.

- sphinx-thebe registers its configuration script once per read phase, so
  with Jupyter Book every page carried it twice and the browser logged
  ``Identifier 'THEBE_JS_URL' has already been declared``. Drop exact
  duplicate scripts from each page.
- Load ``theme-fixes.js`` (the visible sidebar buttons did nothing, and a
  first visit logged a console error; see that file) and ``responsive.css`` (wide equations and tables scroll inside
  the column on a phone instead of widening the page).
"""

from __future__ import annotations

from typing import Any

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


def setup(app: Sphinx) -> dict[str, object]:
    app.add_js_file("theme-fixes.js")
    app.add_css_file("responsive.css")
    # Early: Sphinx stops calling html-page-context handlers at the first one
    # that returns a template name.
    app.connect("html-page-context", _on_page_context, priority=100)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
