"""Let Sphinx read (and so execute) the chapters in parallel.

myst-nb executes a notebook while Sphinx reads it, so ``sphinx-build -j N``
runs N chapters at once. Sphinx reads in parallel only if every extension
declares that it may; two that Jupyter Book loads say nothing, and Sphinx
then warns and reads serially (and the warning fails a ``-W`` build):

- ``sphinx_multitoc_numbering`` replaces a method of Sphinx's toctree
  collector in ``setup()``; the method runs once, in the main process, after
  all documents are read, so parallel reading never reaches it;
- ``sphinx_jupyterbook_latex`` adds transforms that act only under the LaTeX
  builders.

Both are declared safe here, once their setup has run. And the execution
cache's database is created before the read processes start: each would
otherwise create it when it executes its first notebook, and two at once fail
with ``table settings already exists``. The number of
processes is the build's ``-j`` (see ``tools/build_book.py``); a plain
``jupyter-book build`` reads serially as before.
"""

from __future__ import annotations

from sphinx.application import Sphinx
from sphinx.config import Config

#: Extensions loaded by Jupyter Book that do not declare parallel safety but are safe.
SAFE_UNDECLARED = ("sphinx_multitoc_numbering", "sphinx_jupyterbook_latex")


def _declare_safe(app: Sphinx, config: Config) -> None:
    for name in SAFE_UNDECLARED:
        extension = app.extensions.get(name)
        if extension is not None and extension.parallel_read_safe is None:
            extension.parallel_read_safe = True


def _create_execution_cache(app: Sphinx) -> None:
    config = app.env.mystnb_config  # type: ignore[attr-defined]
    if app.parallel > 1 and config.execution_mode == "cache":
        from jupyter_cache import get_cache

        get_cache(config.execution_cache_path).db  # creates the tables once


def setup(app: Sphinx) -> dict[str, object]:
    app.connect("config-inited", _declare_safe)
    # After myst-nb has set the cache's path (its builder-inited handler).
    app.connect("builder-inited", _create_execution_cache, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
