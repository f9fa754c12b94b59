"""Glued numbers in alt texts.

A figure's caption is MyST, so it quotes a computed number with the
``{glue:text}`key:fmt``` role. Its ``:alt:`` option is a plain string, which
MyST does not parse, so the same role written there would reach the reader
verbatim. This transform replaces each ``{glue:text}`key:fmt``` inside an
image's alt text by the glued value, formatted exactly as the role formats
it, so the alt text and the caption quote the same computation::

    :alt: The tangential curve reaches {glue:text}`ci_meff_t_max:.1f` kg.

A key that the page did not glue is a build warning (an error under ``-W``),
never a silent literal.
"""

from __future__ import annotations

import re
from typing import Any

from docutils import nodes
from myst_nb.core.variables import format_plain_text
from myst_nb.ext.glue.crossref import read_glue_cache
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform
from sphinx.util import logging

LOGGER = logging.getLogger(__name__)

#: The role as written in an alt text: ``{glue:text}`key` `` or with ``:fmt``.
GLUE_IN_ALT = re.compile(r"\{glue:text\}`(?P<key>[A-Za-z0-9_]+)(?::(?P<fmt>[^`]*))?`")


def fill_alt(alt: str, glued: dict[str, Any]) -> tuple[str, list[str]]:
    """Return ``alt`` with each glue role replaced, and the keys not found.

    ``glued`` maps a key to myst-nb's stored output (a dict with ``data``).

    >>> fill_alt("drift {glue:text}`x:.1e` m", {"x": {"data": {"text/plain": "0.0031"}}})
    ('drift 3.1e-03 m', [])
    >>> fill_alt("{glue:text}`nope`", {})
    ('{glue:text}`nope`', ['nope'])
    """
    missing: list[str] = []

    def substitute(match: re.Match[str]) -> str:
        key, fmt = match["key"], match["fmt"] or ""
        output = glued.get(key)
        if output is None or "text/plain" not in output.get("data", {}):
            missing.append(key)
            return match[0]
        return format_plain_text(output["data"]["text/plain"], fmt)

    return GLUE_IN_ALT.sub(substitute, alt), missing


class GlueInAltText(SphinxTransform):
    """Fill glued values into the alt texts of this page's images."""

    # After myst-nb's own transforms; the glue cache is written during parsing.
    default_priority = 500

    def apply(self, **kwargs: Any) -> None:
        images = [
            image for image in self.document.findall(nodes.image)
            if "{glue:text}" in image.get("alt", "")
        ]
        if not images:
            return
        folder = self.env.mystnb_config.output_folder  # type: ignore[attr-defined]
        read_glue_cache.cache_clear()  # the page was just executed again
        glued = read_glue_cache(folder, self.env.docname)
        for image in images:
            image["alt"], missing = fill_alt(image["alt"], glued)
            for key in missing:
                LOGGER.warning("alt text quotes %r, which this page does not glue",
                               key, location=image)


def setup(app: Sphinx) -> dict[str, object]:
    app.add_transform(GlueInAltText)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
