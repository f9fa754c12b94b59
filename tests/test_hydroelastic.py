"""Tests of lib.hydroelastic: sphere on a rigid plane, and the Drake pair table function."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from lib.errors import NonFiniteError, NonPositiveMassError, OutOfRangeError
from lib.hydroelastic import (
    DRAKE_TABLE_VERSION,
    drake_pair_outcome,
    sphere_plane_force,
    sphere_plane_force_quadrature,
    sphere_plane_patch_radius,
    sphere_pressure,
)
from lib.soft_contact import hertz_force

E_H, R = 1e5, 0.05


def test_closed_form_equals_gauss_quadrature():
    for delta in np.linspace(1e-5, R, 40):
        # 64-point Gauss-Legendre on a smooth integrand: round-off level.
        np.testing.assert_allclose(
            sphere_plane_force_quadrature(E_H, R, delta), sphere_plane_force(E_H, R, delta), rtol=1e-12
        )


def test_closed_form_equals_triangle_sum_over_the_patch():
    # Independent of the radial formula: tessellate the disk into rings and
    # sectors and sum pressure x area at each cell centroid (midpoint rule, O(h^2)).
    delta = 0.004
    a = float(sphere_plane_patch_radius(R, delta))
    n_r, n_t = 400, 64
    edges = np.linspace(0.0, a, n_r + 1)
    rho = 0.5 * (edges[1:] + edges[:-1])
    ring_area = np.pi * (edges[1:] ** 2 - edges[:-1] ** 2)
    p = sphere_pressure(E_H, R, np.sqrt((R - delta) ** 2 + rho**2))
    force = np.sum(p * ring_area / n_t) * n_t
    np.testing.assert_allclose(force, sphere_plane_force(E_H, R, delta), rtol=1e-5)


def test_patch_radius_and_limits():
    # exact: a = sqrt(2 R d - d^2); a = R at d = R; zero force and patch at d = 0
    np.testing.assert_allclose(sphere_plane_patch_radius(R, R), R, rtol=1e-15)
    assert float(sphere_plane_force(E_H, R, 0.0)) == 0.0
    # at d = R the force is the full pressure over the mid-plane disk:
    # 2 pi E int_0^R (1 - r/R) r dr = pi E R^2 / 3.
    np.testing.assert_allclose(sphere_plane_force(E_H, R, R), np.pi * E_H * R**2 / 3, rtol=1e-14)


def test_small_depth_scaling_delta_squared_versus_hertz():
    deltas = np.array([1e-6, 2e-6])
    f = sphere_plane_force(E_H, R, deltas)
    # delta^2 law at small depth (correction 2 delta / 3R ~ 1e-5)
    np.testing.assert_allclose(f[1] / f[0], 4.0, rtol=1e-4)
    h = hertz_force(1.0, deltas)
    np.testing.assert_allclose(h[1] / h[0], 2**1.5, rtol=1e-12)


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: sphere_plane_force(E_H, R, -1e-3), OutOfRangeError, ">= 0"),
        (lambda: sphere_plane_force(E_H, R, 0.06), OutOfRangeError, "beyond the sphere's centre"),
        (lambda: sphere_plane_force(E_H, R, [0.001, np.nan]), NonFiniteError, "NaN"),
        (lambda: sphere_plane_force(-E_H, R, 0.001), NonPositiveMassError, "E_h"),
        (lambda: sphere_plane_force(E_H, 0.0, 0.001), NonPositiveMassError, "radius R"),
        (lambda: sphere_plane_force_quadrature(E_H, R, 0.001, n=0), NonPositiveMassError, "quadrature"),
        (lambda: sphere_pressure(E_H, R, [0.06]), OutOfRangeError, "inside the sphere"),
        (lambda: sphere_plane_patch_radius(R, 0.2), OutOfRangeError, "beyond"),
    ],
)
def test_bad_input(call, error, match):
    with pytest.raises(error, match=match):
        call()


# ----------------------------------------------------------------- Drake pair table

EXPECTED = {
    # (pair, model): result, for general shapes (sphere against box)
    ("CR", "hydroelastic"): "patch", ("CR", "hydroelastic_with_fallback"): "patch", ("CR", "point"): "point",
    ("CC", "hydroelastic"): "patch", ("CC", "hydroelastic_with_fallback"): "patch", ("CC", "point"): "point",
    ("RR", "hydroelastic"): "raises", ("RR", "hydroelastic_with_fallback"): "point", ("RR", "point"): "point",
    ("CU", "hydroelastic"): "raises", ("CU", "hydroelastic_with_fallback"): "point", ("CU", "point"): "point",
    ("RU", "hydroelastic"): "raises", ("RU", "hydroelastic_with_fallback"): "point", ("RU", "point"): "point",
    ("UU", "hydroelastic"): "raises", ("UU", "hydroelastic_with_fallback"): "point", ("UU", "point"): "point",
}


@pytest.mark.parametrize(("key", "result"), sorted(EXPECTED.items()))
def test_pair_table(key, result):
    pair, model = key
    assert drake_pair_outcome(pair[0], pair[1], model).result == result
    # symmetric in the two geometries
    assert drake_pair_outcome(pair[1], pair[0], model).result == result


def test_pair_table_accepts_drake_names_and_long_names():
    assert drake_pair_outcome("compliant", "rigid", "kHydroelastic").result == "patch"
    assert drake_pair_outcome("undefined", "undefined", "kHydroelasticWithFallback").result == "point"
    assert "U" in drake_pair_outcome("C", "U", "kHydroelastic").reason


def test_shape_restrictions():
    for model in ("hydroelastic", "hydroelastic_with_fallback", "point"):
        for a, b in itertools.product("CRU", repeat=2):
            assert drake_pair_outcome(a, b, model, "halfspace", "halfspace").result == "raises"
    assert drake_pair_outcome("C", "C", "hydroelastic", "halfspace", "mesh").result == "raises"
    assert drake_pair_outcome("C", "C", "hydroelastic_with_fallback", "convex", "halfspace").result == "point"
    assert drake_pair_outcome("C", "R", "hydroelastic", "mesh", "halfspace").result == "patch"


def test_pair_table_bad_input():
    with pytest.raises(OutOfRangeError, match="representation_a"):
        drake_pair_outcome("soft", "R")
    with pytest.raises(OutOfRangeError, match="contact_model"):
        drake_pair_outcome("C", "R", "hydro")
    with pytest.raises(OutOfRangeError, match="shape_b"):
        drake_pair_outcome("C", "R", "point", "sphere", "torus")
    assert DRAKE_TABLE_VERSION.count(".") == 2
