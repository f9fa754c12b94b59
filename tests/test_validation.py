"""lib._validation: each check accepts what it should, converts it, and refuses the rest with its class.

The classes are the error contract of every routine in lib
(tests/test_lib_bad_input.py checks the routines); here each helper is
checked on its own, at the edges of what it accepts.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pytest

from lib import _validation as v
from lib.errors import (
    DynamicsInputError,
    NonFiniteError,
    NonPhysicalInertiaError,
    NonPositiveValueError,
    NonSymmetricError,
    NotARotationError,
    NotATransformError,
    NotPositiveDefiniteError,
    OutOfRangeError,
    ShapeError,
)


def test_every_error_class_is_a_dynamics_input_error_and_a_value_error():
    for cls in (NonFiniteError, NonPhysicalInertiaError, NonPositiveValueError, NonSymmetricError,
                NotARotationError, NotATransformError, NotPositiveDefiniteError, OutOfRangeError, ShapeError):
        assert issubclass(cls, DynamicsInputError) and issubclass(cls, ValueError)


def test_as_array_converts_and_checks_shape_and_finiteness():
    out = v.as_array([[1, 2], [3, 4]], "A", (2, None))
    assert out.dtype == np.float64 and out.shape == (2, 2)
    with pytest.raises(ShapeError, match=r"A must have shape \(3, n\)"):
        v.as_array([[1, 2], [3, 4]], "A", (3, None))
    with pytest.raises(ShapeError, match="A must be a numeric array"):
        v.as_array("abc", "A", ())
    with pytest.raises(NonFiniteError, match="A contains NaN"):
        v.as_array([1.0, math.inf], "A", (2,))
    assert v.as_any_array(2.0, "x").shape == () and v.as_any_array([[1.0]], "x").shape == (1, 1)


def test_scalars_positive_nonnegative_real_and_in_range():
    assert v.positive(2, "m") == 2.0 and type(v.positive(2, "m")) is float
    for bad, cls in ((0.0, NonPositiveValueError), (-1.0, NonPositiveValueError), (math.nan, NonFiniteError),
                     ("abc", ShapeError), ([1.0, 2.0], ShapeError)):
        with pytest.raises(cls, match="m"):
            v.positive(bad, "m")
    assert v.nonnegative(0.0, "k") == 0.0
    with pytest.raises(NonPositiveValueError, match="k must be non-negative"):
        v.nonnegative(-1e-300, "k")
    assert v.real_number(-3, "x") == -3.0
    assert v.in_range(1.0, "e", 0.0, 1.0) == 1.0
    with pytest.raises(OutOfRangeError, match=r"e must lie in \[0, 1\), got 1"):
        v.in_range(1.0, "e", 0.0, 1.0, high_open=True)
    with pytest.raises(OutOfRangeError, match=r"\(0, 1\]"):
        v.in_range(0.0, "e", 0.0, 1.0, low_open=True)


def test_positive_int_accepts_whole_numbers_only():
    assert v.positive_int(3, "n") == 3 and v.positive_int(3.0, "n") == 3 and v.positive_int(np.int64(2), "n") == 2
    for bad in (2.5, "3", True, math.nan, None):
        with pytest.raises(ShapeError, match="n must be a whole number"):
            v.positive_int(bad, "n")
    for bad in (0, -2):
        with pytest.raises(NonPositiveValueError, match="n must be at least 1"):
            v.positive_int(bad, "n")


def test_one_of_names_the_options():
    assert v.one_of("pgs", "solver", ("lemke", "pgs")) == "pgs"
    with pytest.raises(OutOfRangeError, match=r"solver must be one of \['lemke', 'pgs'\], got 'PGS'"):
        v.one_of("PGS", "solver", ("lemke", "pgs"))
    with pytest.raises(OutOfRangeError):
        v.one_of(1, "solver", ("lemke", "pgs"))


def test_matrix_shapes_square_rows_and_symmetric():
    assert v.as_square([[1.0]], "A").shape == (1, 1)
    with pytest.raises(ShapeError, match="A must be a square matrix"):
        v.as_square([[1.0, 2.0]], "A")
    assert v.as_rows([1.0, 2.0], "N", 2).shape == (1, 2)  # a single row given as a vector
    with pytest.raises(ShapeError, match=r"N must have shape \(n, 3\)"):
        v.as_rows([[1.0, 2.0]], "N", 3)
    sym = v.as_symmetric([[1.0, 2.0], [2.0 + 1e-12, 3.0]], "M", 2)
    np.testing.assert_array_equal(sym, sym.T)
    with pytest.raises(NonSymmetricError, match="M"):
        v.as_symmetric([[1.0, 2.0], [2.1, 3.0]], "M", 2)


def test_mass_matrix_cholesky_returns_the_factor_and_refuses_indefinite_matrices():
    M = np.array([[4.0, 1.0], [1.0, 3.0]])
    sym, L = v.mass_matrix_cholesky(M)
    np.testing.assert_allclose(L @ L.T, M, atol=1e-15)
    assert np.allclose(L, np.tril(L))
    with pytest.raises(NotPositiveDefiniteError, match="smallest eigenvalue is -1"):
        v.mass_matrix_cholesky([[1.0, 0.0], [0.0, -1.0]])
    with pytest.raises(NotPositiveDefiniteError):
        v.mass_matrix_cholesky(np.zeros((2, 2)))  # semidefinite is not enough: M must be invertible
    with pytest.raises(ShapeError, match=r"M must have shape \(3, 3\)"):
        v.mass_matrix_cholesky(M, "M", 3)


def test_as_spatial_inertia_accepts_psd_and_refuses_negative_energy():
    G = np.diag([0.1, 0.2, 0.3, 2.0, 2.0, 2.0])
    np.testing.assert_array_equal(v.as_spatial_inertia(G, "G"), G)
    np.testing.assert_array_equal(v.as_spatial_inertia(np.zeros((6, 6)), "G"), np.zeros((6, 6)))  # a massless body
    with pytest.raises(NonPhysicalInertiaError, match="G must be positive semidefinite"):
        v.as_spatial_inertia(np.diag([0.1, 0.2, -0.3, 2.0, 2.0, 2.0]), "G")


def test_rotation_and_transform():
    c, s = math.cos(0.3), math.sin(0.3)
    R = [[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]]
    np.testing.assert_allclose(v.as_rotation(R, "R"), R)
    with pytest.raises(NotARotationError, match="R"):
        v.as_rotation(np.diag([1.0, 1.0, -1.0]), "R")  # a reflection
    with pytest.raises(NotARotationError):
        v.as_rotation(2.0 * np.eye(3), "R")
    T = np.eye(4)
    T[:3, :3], T[:3, 3] = R, [1.0, 2.0, 3.0]
    np.testing.assert_allclose(v.as_transform(T, "T"), T)
    T[3, 0] = 1.0
    with pytest.raises(NotATransformError, match="T"):
        v.as_transform(T, "T")


@dataclass
class _Record:
    x: float = 1.0


def test_functions_generators_and_records():
    assert v.as_function(abs, "f") is abs
    with pytest.raises(ShapeError, match="f must be a function, got str"):
        v.as_function("abs", "f")
    rng = np.random.default_rng(0)
    assert v.as_generator(rng) is rng
    with pytest.raises(ShapeError, match="numpy.random.Generator"):
        v.as_generator(np.random.RandomState(0))
    record = _Record()
    assert v.instance_of(record, _Record, "box") is record
    with pytest.raises(ShapeError, match="box must be a _Record, got dict"):
        v.instance_of({"x": 1.0}, _Record, "box")


def test_arrays_of_positive_and_nonnegative_entries():
    np.testing.assert_array_equal(v.positive_array([1, 2], "m", (2,)), [1.0, 2.0])
    with pytest.raises(NonPositiveValueError, match="every entry of m must be positive"):
        v.positive_array([1.0, 0.0], "m", (2,))
    np.testing.assert_array_equal(v.nonnegative_array([0.0, 2.0], "mu", (2,)), [0.0, 2.0])
    with pytest.raises(NonPositiveValueError, match="mu must be non-negative"):
        v.nonnegative_array([0.0, -2.0], "mu", (2,))
