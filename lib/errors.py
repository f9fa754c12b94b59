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
    "NonPositiveValueError",
    "NonPositiveMassError",
    "NonSymmetricError",
    "NonPhysicalInertiaError",
    "MeshOrientationError",
    "NotARotationError",
    "NotATransformError",
    "ModelFileError",
    "SingularConstraintError",
    "RayTerminationError",
    "UnreachableTargetError",
    "NotPositiveDefiniteError",
    "OutOfRangeError",
    "ConvergenceError",
]


class DynamicsInputError(ValueError):
    """Base class: an input to a :mod:`lib` routine is not acceptable."""


class ShapeError(DynamicsInputError):
    """An array has the wrong shape (for example a 3-vector where 6 was expected)."""


class NonFiniteError(DynamicsInputError):
    """An array contains NaN or infinity."""


class NonPositiveValueError(DynamicsInputError):
    """A quantity that must be positive (or non-negative) is not.

    Raised for masses, densities, lengths, stiffnesses, friction coefficients,
    step sizes and counts; the message names the argument.
    """


#: The name used for masses and densities; the same class as
#: :class:`NonPositiveValueError`.
NonPositiveMassError = NonPositiveValueError


class NonSymmetricError(DynamicsInputError):
    """A matrix that must be symmetric (inertia, mass matrix) is not."""


class NonPhysicalInertiaError(DynamicsInputError):
    """An inertia cannot belong to any real mass distribution.

    Raised for inertia tensors that are not positive semidefinite or whose
    principal moments violate the triangle inequality.
    """


class MeshOrientationError(DynamicsInputError):
    """A triangle mesh is inward-facing, open or otherwise inconsistently oriented."""


class NotARotationError(DynamicsInputError):
    """A matrix that must be a rotation (orthonormal, determinant +1) is not."""


class NotATransformError(DynamicsInputError):
    """A 4x4 matrix is not a homogeneous rigid transform (rotation block, bottom row 0 0 0 1)."""


class ModelFileError(DynamicsInputError):
    """A robot model file fragment (URDF, MJCF) is malformed or misses a required attribute."""


class SingularConstraintError(DynamicsInputError):
    """A constraint Jacobian is singular or rank-deficient where full rank is required."""


class UnreachableTargetError(DynamicsInputError):
    """A requested position lies outside the reach of a mechanism."""


class RayTerminationError(RuntimeError):
    """Lemke's algorithm ended on a secondary ray: no solution was found."""


class NotPositiveDefiniteError(DynamicsInputError):
    """A matrix that must be positive definite (a mass matrix, a regularised Delassus matrix) is not."""


class OutOfRangeError(DynamicsInputError):
    """A value lies outside the range in which a model is defined (for example a penetration deeper than the sphere's centre)."""


class ConvergenceError(RuntimeError):
    """An iterative solver (Lemke's pivoting, projected Gauss-Seidel) stopped at its iteration limit without a solution."""
