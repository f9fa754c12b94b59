"""Number figures, tables, code listings and equations per chapter.

The book's table of contents is not numbered (its chapters carry their own
numbers, 3.1, 3.11, 3.12), and without section numbers Sphinx counts figures
and equations across the whole book: chapter 3.12 started at equation (32).
After Sphinx has assigned its numbers, this extension restarts every counter
at 1 on every page, keeping the order Sphinx found. References (``{eq}``,
``{numref}``) and captions read the same table, so they stay consistent.
"""

from __future__ import annotations

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment


def renumber_per_document(
    toc_fignumbers: dict[str, dict[str, dict[str, tuple[int, ...]]]],
) -> dict[str, dict[str, dict[str, tuple[int, ...]]]]:
    """Return ``toc_fignumbers`` with each page's counters restarted at 1.

    ``toc_fignumbers`` maps page -> figure type -> node id -> number tuple, in
    document order. Numbers are replaced by ``(1,), (2,), ...`` per page and
    figure type.

    >>> renumber_per_document({"a": {"figure": {"f1": (1,)}},
    ...                        "b": {"figure": {"f2": (2,), "f3": (3,)}}})
    {'a': {'figure': {'f1': (1,)}}, 'b': {'figure': {'f2': (1,), 'f3': (2,)}}}
    """
    return {
        docname: {
            figtype: {node_id: (i,) for i, node_id in enumerate(numbers, start=1)}
            for figtype, numbers in by_type.items()
        }
        for docname, by_type in toc_fignumbers.items()
    }


def _renumber(app: Sphinx, env: BuildEnvironment) -> list[str]:
    old = env.toc_fignumbers
    env.toc_fignumbers = renumber_per_document(old)
    return [doc for doc, numbers in env.toc_fignumbers.items() if numbers != old.get(doc)]


def setup(app: Sphinx) -> dict[str, object]:
    # Sphinx's own toctree collector assigns the book-wide numbers in
    # ``env-get-updated`` at the default priority (500); run after it.
    app.connect("env-get-updated", _renumber, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
