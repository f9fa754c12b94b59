"""Writing the grader's output files: one helper, used by :mod:`grader.cli` and :mod:`grader.publicdata`.

A module of its own (it imports nothing from the grader), so that neither of
its users imports the other.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def atomic_write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` via a temporary file and ``os.replace``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # A short temporary name: the final name may be as long as the file system allows.
    fd, tmp = tempfile.mkstemp(prefix=".grader-", suffix=".tmp", dir=path.parent)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)  # like a normally created file, not mkstemp's 0600
    try:
        with os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
