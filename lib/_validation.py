"""Input checks shared by the :mod:`lib` modules.

Each helper converts its argument to a float ``numpy.ndarray`` and raises a
specific :mod:`lib.errors` exception, naming the argument, when the input is
not acceptable. The helpers return the converted array so that a routine can
validate and convert in one line.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
from numpy.typing import ArrayLike, NDArray

from .errors import (
    OutOfRangeError,
    NonFiniteError,
    NonPhysicalInertiaError,
    NonPositiveValueError,
    NonSymmetricError,
    NotARotationError,
    NotPositiveDefiniteError,
    NotATransformError,
    ShapeError,
)

FloatArray = NDArray[np.float64]

#: Relative tolerance used to decide that a matrix is symmetric.
SYMMETRY_RTOL = 1e-9


def as_array(value: ArrayLike, name: str, shape: Sequence[int | None]) -> FloatArray:
    """Convert ``value`` to a finite float array of the given shape.

    Parameters
    ----------
    value : array_like
        The input.
    name : str
        The argument's name, used in error messages.
    shape : sequence of int or None
        Expected shape; ``None`` stands for any length along that axis.

    Returns
    -------
    numpy.ndarray
        ``value`` as a new float64 array.

    Raises
    ------
    ShapeError
        If the number of axes or a fixed length differs.
    NonFiniteError
        If an entry is NaN or infinite.
    """
    try:
        array = np.array(value, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ShapeError(f"{name} must be a numeric array, got {type(value).__name__}: {exc}") from None
    expected = tuple(shape)
    if array.ndim != len(expected) or any(
        want is not None and have != want for have, want in zip(array.shape, expected)
    ):
        pretty = "(" + ", ".join("n" if s is None else str(s) for s in expected) + ("," if len(expected) == 1 else "") + ")"
        raise ShapeError(f"{name} must have shape {pretty}, got shape {array.shape}")
    if not np.all(np.isfinite(array)):
        raise NonFiniteError(f"{name} contains NaN or infinity: {array!r}")
    return array


def as_any_array(value: ArrayLike, name: str) -> FloatArray:
    """Like :func:`as_array` for an input of any shape (a scalar or an array of samples)."""
    return as_array(value, name, [None] * np.ndim(value))


def as_square(value: ArrayLike, name: str) -> FloatArray:
    """Convert ``value`` to a finite square ``n x n`` float matrix, any ``n >= 1``.

    Raises
    ------
    ShapeError
        If it is not a non-empty square matrix of numbers.
    NonFiniteError
        If it contains NaN or infinity.
    """
    array = as_array(value, name, (None, None))
    if array.shape[0] < 1 or array.shape[0] != array.shape[1]:
        raise ShapeError(f"{name} must be a square matrix, got shape {array.shape}")
    return array


def as_rows(value: ArrayLike, name: str, columns: int) -> FloatArray:
    """A block of Jacobian rows with ``columns`` columns; a single row may be given as a vector."""
    if np.ndim(value) == 1:
        value = [value]
    return as_array(value, name, (None, columns))


def as_function(value, name: str):
    """Return ``value`` if it can be called (a model or right-hand side), else raise :class:`ShapeError`."""
    if not callable(value):
        raise ShapeError(f"{name} must be a function, got {type(value).__name__}")
    return value


def as_generator(value, name: str = "rng") -> np.random.Generator:
    """Return ``value`` if it is a ``numpy.random.Generator`` (``np.random.default_rng(seed)``)."""
    if not isinstance(value, np.random.Generator):
        raise ShapeError(f"{name} must be a numpy.random.Generator (np.random.default_rng(seed)), "
                         f"got {type(value).__name__}")
    return value


def instance_of(value, kind: type, name: str):
    """Return ``value`` if it is a ``kind`` (a model's parameter record), else raise :class:`ShapeError`."""
    if not isinstance(value, kind):
        raise ShapeError(f"{name} must be a {kind.__name__}, got {type(value).__name__}")
    return value


def as_vector(value: ArrayLike, name: str, length: int) -> FloatArray:
    """Convert ``value`` to a finite float vector of the given length."""
    return as_array(value, name, (length,))


def as_matrix(value: ArrayLike, name: str, rows: int, cols: int | None = None) -> FloatArray:
    """Convert ``value`` to a finite float matrix (square when ``cols`` is omitted)."""
    return as_array(value, name, (rows, rows if cols is None else cols))


def as_symmetric(value: ArrayLike, name: str, size: int) -> FloatArray:
    """Convert ``value`` to a finite symmetric ``size x size`` matrix.

    Symmetry is checked with a relative tolerance of :data:`SYMMETRY_RTOL`
    (relative to the largest entry); the returned matrix is exactly symmetric.

    Raises
    ------
    NonSymmetricError
        If ``value`` is not symmetric within the tolerance.
    """
    matrix = as_matrix(value, name, size)
    scale = max(float(np.max(np.abs(matrix))), np.finfo(float).tiny)
    asymmetry = float(np.max(np.abs(matrix - matrix.T)))
    if asymmetry > SYMMETRY_RTOL * scale:
        raise NonSymmetricError(
            f"{name} must be symmetric, but max |A - A^T| = {asymmetry:.3g} "
            f"(relative {asymmetry / scale:.3g}){_symmetry_hint(name)}"
        )
    return 0.5 * (matrix + matrix.T)


def _symmetry_hint(name: str) -> str:
    """What usually makes this kind of matrix non-symmetric, for the error message."""
    if "inertia" in name or name.startswith("G"):
        return "; check the sign and placement of the products of inertia"
    return "; a mass matrix, or a Delassus/LCP matrix assembled as J M^-1 J^T, is symmetric: check how it was built"


def positive(value: float, name: str) -> float:
    """Return ``value`` as a float after checking it is finite and > 0.

    Raises
    ------
    ShapeError
        If ``value`` is not a real number.
    NonFiniteError
        If ``value`` is NaN or infinite.
    NonPositiveValueError
        If ``value <= 0``.
    """
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise ShapeError(f"{name} must be a real number, got {value!r}") from None
    if not np.isfinite(number):
        raise NonFiniteError(f"{name} must be finite, got {number}")
    if number <= 0.0:
        raise NonPositiveValueError(f"{name} must be positive, got {number}")
    return number


def real_number(value: float, name: str) -> float:
    """Return ``value`` as a finite float, or raise naming the argument.

    Raises
    ------
    ShapeError
        If ``value`` is not a single real number.
    NonFiniteError
        If it is NaN or infinite.
    """
    return float(as_array(value, name, ()))


def nonnegative(value: float, name: str) -> float:
    """Return ``value`` as a float after checking it is finite and >= 0.

    Raises
    ------
    NonPositiveValueError
        If ``value < 0``.
    """
    number = real_number(value, name)
    if number < 0.0:
        raise NonPositiveValueError(f"{name} must be non-negative, got {number}")
    return number


def in_range(value: float, name: str, low: float, high: float, *, low_open: bool = False,
             high_open: bool = False, unit: str = "") -> float:
    """Return ``value`` as a float after checking ``low <= value <= high``.

    Either end can be open (``low_open``, ``high_open``); ``unit`` is appended
    to the numbers in the message.

    Raises
    ------
    OutOfRangeError
        If ``value`` lies outside the interval.
    """
    number = real_number(value, name)
    too_low = number <= low if low_open else number < low
    too_high = number >= high if high_open else number > high
    if too_low or too_high:
        left = "(" if low_open else "["
        right = ")" if high_open else "]"
        raise OutOfRangeError(f"{name} must lie in {left}{low:g}, {high:g}{right}{unit}, got {number:g}{unit}")
    return number


def one_of(value: str, name: str, options: Sequence[str]) -> str:
    """Return ``value`` after checking it is one of the named ``options`` (a method, a model).

    Raises
    ------
    OutOfRangeError
        If ``value`` is not one of ``options``.
    """
    if not isinstance(value, str) or value not in options:
        raise OutOfRangeError(f"{name} must be one of {list(options)}, got {value!r}")
    return value


def positive_int(value: int, name: str) -> int:
    """Return ``value`` as an ``int`` after checking it is a whole number >= 1 (a count of steps).

    Raises
    ------
    ShapeError
        If ``value`` is not a whole number (``2.5``, ``"3"``, ``True``).
    NonPositiveValueError
        If ``value < 1``.
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer, float, np.floating)):
        raise ShapeError(f"{name} must be a whole number, got {value!r}")
    if not np.isfinite(value) or int(value) != value:
        raise ShapeError(f"{name} must be a whole number, got {value!r}")
    if value < 1:
        raise NonPositiveValueError(f"{name} must be at least 1, got {value!r}")
    return int(value)


def mass_matrix_cholesky(value: ArrayLike, name: str = "M", size: int | None = None
                         ) -> tuple[FloatArray, FloatArray]:
    """Check a mass matrix and return it (symmetrized) with its Cholesky factor ``L``, ``M = L L^T``.

    ``size`` fixes ``n`` when the caller knows it (``None``: any ``n >= 1``).

    Raises
    ------
    ShapeError, NonFiniteError, NonSymmetricError
        For a non-square, non-finite or non-symmetric matrix.
    NotPositiveDefiniteError
        If it is not positive definite (every mass matrix is: ``v^T M v / 2``
        is the kinetic energy).
    """
    array = as_array(value, name, (size, size))
    if array.shape[0] < 1 or array.shape[0] != array.shape[1]:
        raise ShapeError(f"{name} must be a square n x n matrix, got shape {array.shape}")
    symmetric = as_symmetric(array, name, array.shape[0])
    try:
        factor = np.linalg.cholesky(symmetric)
    except np.linalg.LinAlgError:
        smallest = float(np.linalg.eigvalsh(symmetric)[0])
        raise NotPositiveDefiniteError(
            f"{name} must be positive definite (a mass matrix), but its smallest eigenvalue is {smallest:.3g}"
        ) from None
    return symmetric, factor


def as_spatial_inertia(value: ArrayLike, name: str) -> FloatArray:
    """Convert ``value`` to a symmetric, positive semidefinite 6x6 spatial inertia.

    Raises
    ------
    NonSymmetricError
        If the matrix is not symmetric.
    NonPhysicalInertiaError
        If it has a negative eigenvalue (the kinetic energy ``V^T G V / 2``
        would be negative for some twist).
    """
    g = as_symmetric(value, name, 6)
    eigenvalues = np.linalg.eigvalsh(g)
    if eigenvalues[0] < -1e-12 * max(float(np.max(np.abs(eigenvalues))), np.finfo(float).tiny):
        raise NonPhysicalInertiaError(
            f"{name} must be positive semidefinite (kinetic energy V^T G V / 2 >= 0), "
            f"but its smallest eigenvalue is {eigenvalues[0]:.6g}"
        )
    return g


def positive_array(value: ArrayLike, name: str, shape: Sequence[int | None]) -> FloatArray:
    """Like :func:`as_array`, and every entry must be > 0 (masses, lengths)."""
    array = as_array(value, name, shape)
    if np.any(array <= 0.0):
        raise NonPositiveValueError(f"every entry of {name} must be positive, got {array!r}")
    return array


#: Absolute tolerance on ``R^T R - E`` used to accept a rotation matrix.
ROTATION_ATOL = 1e-9


def as_rotation(value: ArrayLike, name: str) -> FloatArray:
    """Convert ``value`` to a 3x3 rotation matrix (orthonormal, det +1).

    Raises
    ------
    NotARotationError
        If ``R^T R`` differs from the identity by more than
        :data:`ROTATION_ATOL` or ``det R`` is not +1 (a reflection).
    """
    matrix = as_matrix(value, name, 3)
    error = float(np.max(np.abs(matrix.T @ matrix - np.eye(3))))
    if error > ROTATION_ATOL:
        raise NotARotationError(
            f"{name} must be a rotation matrix (R^T R = E), but max |R^T R - E| = {error:.3g}; "
            "its columns are not orthonormal unit vectors"
        )
    det = float(np.linalg.det(matrix))
    if det < 0.0:
        raise NotARotationError(
            f"{name} must be a rotation matrix with det R = +1, got det R = {det:.6g} (a reflection)"
        )
    return matrix


def as_transform(value: ArrayLike, name: str) -> FloatArray:
    """Convert ``value`` to a 4x4 homogeneous rigid transform ``[[R, p], [0, 1]]``.

    Raises
    ------
    NotATransformError
        If the bottom row is not ``(0, 0, 0, 1)`` or the upper-left block is
        not a rotation matrix.
    """
    matrix = as_matrix(value, name, 4)
    if np.max(np.abs(matrix[3] - np.array([0.0, 0.0, 0.0, 1.0]))) > ROTATION_ATOL:
        raise NotATransformError(
            f"{name} must be a homogeneous transform with bottom row (0, 0, 0, 1), got {matrix[3]!r}"
        )
    try:
        as_rotation(matrix[:3, :3], f"the rotation block of {name}")
    except NotARotationError as exc:
        raise NotATransformError(str(exc)) from None
    return matrix


def nonnegative_array(value: ArrayLike, name: str, shape: Sequence[int | None]) -> FloatArray:
    """Like :func:`as_array`, and every entry must be >= 0."""
    array = as_array(value, name, shape)
    if np.any(array < 0.0):
        raise NonPositiveValueError(f"every entry of {name} must be non-negative, got {array!r}")
    return array
