"""Invalidate executed notebooks when the ``lib`` package changes.

jupyter-cache keys a notebook's outputs on the notebook's own code, so a change
to a ``lib`` routine would leave stale outputs on every page (see
TOOLCHAIN_NOTES). This extension stores a SHA-256 fingerprint of the ``lib``
sources next to the execution cache. When the fingerprint differs from the
stored one, it clears the cache and marks every document as outdated, so the
next build re-executes and re-renders all chapters.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging

LOGGER = logging.getLogger(__name__)
LIB_DIR = Path(__file__).resolve().parents[2] / "lib"


def lib_fingerprint(lib_dir: Path = LIB_DIR) -> str:
    """Return a SHA-256 digest over the names and contents of ``lib/**/*.py``, ``*.js`` and ``*.css``.

    The JavaScript and CSS are the front ends of the live figures
    (``lib/figures/js/``), which the executed notebooks embed in their widget state.
    """
    digest = hashlib.sha256()
    sources = [p for suffix in ("*.py", "*.js", "*.css") for p in lib_dir.rglob(suffix)]
    for path in sorted(sources):
        digest.update(path.relative_to(lib_dir).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def _fingerprint_file(app: Sphinx) -> Path:
    cache_path = Path(app.env.mystnb_config.execution_cache_path)
    return cache_path.parent / ".lib_fingerprint"


def _clear_cache_if_lib_changed(app: Sphinx) -> None:
    current = lib_fingerprint()
    stamp = _fingerprint_file(app)
    previous = stamp.read_text().strip() if stamp.exists() else None
    app.env.lib_changed = previous is not None and previous != current
    if previous != current:
        cache_path = Path(app.env.mystnb_config.execution_cache_path)
        if cache_path.exists():
            from jupyter_cache import get_cache

            get_cache(str(cache_path)).clear_cache()
            LOGGER.info("lib/ changed: cleared the execution cache at %s", cache_path)
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.write_text(current + "\n")


def _outdated_after_lib_change(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    if getattr(env, "lib_changed", False):
        return sorted(env.found_docs - added - removed)
    return []


def setup(app: Sphinx) -> dict[str, object]:
    # Priority 600 runs after myst-nb has created its config (priority 500).
    app.connect("builder-inited", _clear_cache_if_lib_changed, priority=600)
    app.connect("env-get-outdated", _outdated_after_lib_change)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
