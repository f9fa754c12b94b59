"""Verified routines behind the Robot Dynamics executable textbook.

One module per topic; every public routine validates its input and raises a
:mod:`lib.errors` exception with a clear message on bad input. Conventions
(see the book's introduction): twists are ``(omega, v)``, wrenches are
``(moment, force)``, SI units.
"""

from . import errors

__all__ = ["errors"]
