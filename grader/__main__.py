"""``python -m grader ...`` is the ``grade`` command.

``-m`` puts the current folder first on the import path. Run inside a folder
of submissions, a student's ``numpy.py`` or ``jupytext.py`` would be imported
into the trusted process; so that folder is taken off the path before the
grader imports anything (unless it is the folder that holds this ``grader``
package itself, a checkout run from its root).
"""

import os
import sys


def _drop_current_folder() -> None:
    own = os.path.realpath(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    cwd = os.path.realpath(os.getcwd())
    if cwd == own:
        return
    sys.path[:] = [p for p in sys.path if os.path.realpath(p or os.curdir) != cwd]


_drop_current_folder()

from .cli import main  # noqa: E402

sys.exit(main())
