"""Exceptions raised by :mod:`lib`.

Every routine in :mod:`lib` validates its input and raises one of these
exceptions with a message that says what was wrong and what was expected, so
that a student sees a clear error instead of a silently wrong number.

All of them derive from :class:`DynamicsInputError`, which itself derives from
:class:`ValueError`, so ``except ValueError`` keeps working for callers that do
not care about the finer distinction.
"""

from __future__ import annotations

__all__ = [
    "DynamicsInputError",
    "ShapeError",
    "NonFiniteError",
    "NonPositiveMassError",
    "NonSymmetricError",
    "NonPhysicalInertiaError",
    "MeshOrientationError",
    "SingularConstraintError",
    "RayTerminationError",
]


class DynamicsInputError(ValueError):
    """Base class: an input to a :mod:`lib` routine is not acceptable."""


class ShapeError(DynamicsInputError):
    """An array has the wrong shape (for example a 3-vector where 6 was expected)."""


class NonFiniteError(DynamicsInputError):
    """An array contains NaN or infinity."""


class NonPositiveMassError(DynamicsInputError):
    """A mass, density or length that must be positive is zero or negative."""


class NonSymmetricError(DynamicsInputError):
    """A matrix that must be symmetric (inertia, mass matrix) is not."""


class NonPhysicalInertiaError(DynamicsInputError):
    """An inertia cannot belong to any real mass distribution.

    Raised for inertia tensors that are not positive semidefinite or whose
    principal moments violate the triangle inequality.
    """


class MeshOrientationError(DynamicsInputError):
    """A triangle mesh is inward-facing, open or otherwise inconsistently oriented."""


class SingularConstraintError(DynamicsInputError):
    """A constraint Jacobian is singular or rank-deficient where full rank is required."""


class RayTerminationError(RuntimeError):
    """Lemke's algorithm ended on a secondary ray: no solution was found."""
