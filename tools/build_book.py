"""``jupyter-book build`` with the chapters executed in parallel.

Usage (the arguments are jupyter-book's; ``--jobs`` is this script's)::

    .venv/bin/python tools/build_book.py --jobs 2 build . --warningiserror --keep-going

Jupyter Book 1.x has no option for Sphinx's ``-j``, so this passes ``jobs``
to the Sphinx build it starts. myst-nb executes each notebook while Sphinx
reads it, so with two jobs two chapters execute at once
(``book/_ext/parallel_read.py`` lets Sphinx read in parallel). ``--jobs 1`` is
exactly ``jupyter-book build``. ``make book`` and the test suite's book build
both use this script.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1,
                        help="chapters read and executed at once (default: the CPU count)")
    args, rest = parser.parse_known_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1, got {args.jobs}")

    import jupyter_book.sphinx
    from jupyter_book.cli.main import main as jupyter_book_main

    # The CLI imports build_sphinx from this module when it runs, so patch it here.
    jupyter_book.sphinx.build_sphinx = functools.partial(jupyter_book.sphinx.build_sphinx, jobs=args.jobs)
    try:
        jupyter_book_main(rest, standalone_mode=False)
    except SystemExit as exc:  # the CLI exits with the build's status
        return int(exc.code or 0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
