"""``python -m grader ...`` is the ``grade`` command."""

import sys

from .cli import main

sys.exit(main())
