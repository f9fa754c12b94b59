"""Tests of lib.soft_contact: Hertz, Kelvin-Voigt and Hunt-Crossley collisions."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

from lib.errors import (ConvergenceError, NonFiniteError, NonPositiveMassError, NonPositiveValueError,
                        OutOfRangeError)
from lib.soft_contact import (
    contact_time_constant,
    explicit_step_limit,
    hertz_contact_time,
    hertz_force,
    hertz_max_penetration,
    hertz_peak_force,
    hertz_stiffness,
    hunt_crossley_force,
    hunt_crossley_restitution_estimate,
    kelvin_voigt_damping,
    kelvin_voigt_force,
    kelvin_voigt_restitution,
    simulate_collision,
    simulate_hunt_crossley_impact,
)

# A 10 mm steel ball (m = 32.7 g) on a rigid steel-like plane.
RADIUS, YOUNG, POISSON = 0.01, 200e9, 0.3
MASS = 7850.0 * 4.0 / 3.0 * np.pi * RADIUS**3
K = hertz_stiffness(RADIUS, YOUNG, POISSON)


def _hertz_law(x, v):
    return float(hertz_force(K, x))


def test_contact_time_constant_closed_form_against_midpoint_sum():
    # Independent: substitute x = 1 - s^2 to remove the endpoint singularity,
    # then a fine midpoint sum: int_0^1 dx / sqrt(1 - x^(5/2)) = int_0^1 2 s ds / sqrt(1 - (1 - s^2)^(5/2)).
    n = 200_000
    s = (np.arange(n) + 0.5) / n
    integral = np.sum(2 * s / np.sqrt(1 - (1 - s * s) ** 2.5)) / n
    # 1e-8: midpoint rule error O(n^-2) on a smooth integrand.
    np.testing.assert_allclose(contact_time_constant(), 2 * integral, rtol=1e-8)
    assert round(contact_time_constant(), 4) == 2.9433


def test_hertz_stiffness_symmetry_and_plane_limit():
    k_plane = hertz_stiffness(RADIUS, YOUNG, POISSON)
    # 1e-12: a very large second radius/modulus approaches the plane/rigid limit.
    np.testing.assert_allclose(hertz_stiffness(RADIUS, YOUNG, POISSON, 1e12, 1e30, 0.3), k_plane, rtol=1e-9)
    np.testing.assert_allclose(
        hertz_stiffness(0.01, 200e9, 0.3, 0.02, 70e9, 0.33),
        hertz_stiffness(0.02, 70e9, 0.33, 0.01, 200e9, 0.3),
        rtol=1e-14,
    )


@pytest.mark.parametrize("v0", [0.1, 1.0, 5.0])
def test_elastic_hertz_collision_matches_closed_forms(v0):
    T = hertz_contact_time(MASS, v0, K)
    result = simulate_collision(_hertz_law, MASS, v0, T / 4000)
    # RK4 with 4000 steps per contact (errors ~1e-10) and a secant exit; the
    # peak is sampled on the step grid (relative error O(dt^2 / T^2) ~ 1e-7).
    np.testing.assert_allclose(result.restitution, 1.0, atol=1e-8)
    np.testing.assert_allclose(result.contact_time, T, rtol=1e-8)
    np.testing.assert_allclose(result.max_penetration, hertz_max_penetration(MASS, v0, K), rtol=1e-6)
    np.testing.assert_allclose(result.peak_force, hertz_peak_force(MASS, v0, K), rtol=1e-6)
    assert result.force[0] == 0.0 and result.min_force >= 0.0


def test_hertz_contact_is_microseconds_and_needs_tiny_explicit_steps():
    v0 = 1.0
    delta = hertz_max_penetration(MASS, v0, K)
    T = hertz_contact_time(MASS, v0, K)
    dt_max = explicit_step_limit(MASS, K, delta)
    assert 1e-6 < T < 1e-3
    assert dt_max < T  # a 1 ms step cannot resolve the contact
    # dt_max = 2 / sqrt(1.5 k sqrt(delta) / m) (exact arithmetic)
    np.testing.assert_allclose(dt_max, 2 / np.sqrt(1.5 * K * np.sqrt(delta) / MASS), rtol=1e-14)


@pytest.mark.parametrize("zeta", [0.05, 0.2, 0.5])
def test_kelvin_voigt_restitution_and_artefacts(zeta):
    k, m, v0 = 1e5, 1.0, 2.0
    c = kelvin_voigt_damping(zeta, k, m)
    law = partial(kelvin_voigt_force, k, c)
    result = simulate_collision(lambda x, v: float(law(x, v)), m, v0, 2e-5)
    # RK4 on a linear ODE, omega dt = 6e-3 (error ~ (omega dt)^4), exit found
    # by a secant iteration: e to 1e-8.
    np.testing.assert_allclose(result.restitution, kelvin_voigt_restitution(zeta), atol=1e-8)
    # the force jumps to c v0 at first touch and pulls (negative) at release
    np.testing.assert_allclose(result.force[0], c * v0, rtol=1e-12)
    assert result.min_force < -0.5 * c * v0 * result.restitution


def test_kelvin_voigt_restitution_independent_of_speed():
    k, m, zeta = 1e5, 1.0, 0.3
    c = kelvin_voigt_damping(zeta, k, m)
    es = [simulate_collision(lambda x, v: float(kelvin_voigt_force(k, c, x, v)), m, v0, 2e-5).restitution
          for v0 in (0.1, 1.0, 10.0)]
    # linear ODE: e is the same at every speed (to RK4 error, 1e-8)
    np.testing.assert_allclose(es, es[0], atol=1e-8)


def test_kelvin_voigt_without_tension_releases_earlier():
    k, m, zeta, v0 = 1e5, 1.0, 0.3, 1.0
    c = kelvin_voigt_damping(zeta, k, m)
    free = simulate_collision(lambda x, v: float(kelvin_voigt_force(k, c, x, v)), m, v0, 2e-5)
    clipped = simulate_collision(lambda x, v: float(kelvin_voigt_force(k, c, x, v, tension=False)), m, v0, 2e-5)
    assert clipped.min_force >= 0.0
    assert clipped.restitution != pytest.approx(free.restitution, abs=1e-3)


def test_overdamped_kelvin_voigt_never_separates():
    assert kelvin_voigt_restitution(1.2) == 0.0
    c = kelvin_voigt_damping(1.5, 100.0, 1.0)
    with pytest.raises(ConvergenceError, match="did not separate"):
        simulate_collision(lambda x, v: float(kelvin_voigt_force(100.0, c, x, v)), 1.0, 1.0, 1e-3, max_time=5.0)


@pytest.mark.parametrize("alpha_v0", [0.005, 0.01, 0.02, 0.04])
def test_hunt_crossley_restitution_near_one_minus_alpha_v0(alpha_v0):
    v0 = 1.0
    alpha = alpha_v0 / v0
    T = hertz_contact_time(MASS, v0, K)
    result = simulate_collision(lambda x, v: float(hunt_crossley_force(K, alpha, x, v)), MASS, v0, T / 2000)
    # first-order estimate: the error grows like (alpha v0)^2; 2e-3 covers alpha v0 <= 0.04.
    assert abs(result.restitution - hunt_crossley_restitution_estimate(alpha, v0)) < 2e-3
    # no jump at first touch, no pull at release
    assert result.force[0] == 0.0 and result.min_force >= 0.0


def test_hunt_crossley_restitution_depends_on_speed():
    alpha = 0.2
    es = []
    for v0 in (0.1, 0.5, 1.0):
        T = hertz_contact_time(MASS, v0, K)
        es.append(simulate_collision(lambda x, v: float(hunt_crossley_force(K, alpha, x, v)), MASS, v0, T / 2000).restitution)
    assert es[0] > es[1] > es[2]


@pytest.mark.parametrize("alpha", [0.0, 0.2, 0.6])
def test_hunt_crossley_impact_takes_its_step_from_the_hertz_contact_time(alpha):
    v0 = 1.0
    T = hertz_contact_time(MASS, v0, K)
    impact = simulate_hunt_crossley_impact(MASS, v0, K, alpha)
    by_hand = simulate_collision(lambda x, v: float(hunt_crossley_force(K, alpha, x, v)), MASS, v0, T / 200)
    # The same integration, bit for bit.
    np.testing.assert_array_equal(impact.x, by_hand.x)
    assert impact.restitution == by_hand.restitution
    # About 200 steps over the contact (damping changes its length a little).
    assert 150 <= impact.x.size <= 250
    # RK4 at 200 steps a contact against 2000: the restitution agrees to 1e-7 (fourth-order
    # error; measured about 1e-8). The peak is the largest sample, up to half a step from the
    # true peak: a relative error of about (pi / 200)^2 / 8 = 3e-5 at most (5e-5 with slack).
    fine = simulate_hunt_crossley_impact(MASS, v0, K, alpha, steps=2000)
    np.testing.assert_allclose(impact.restitution, fine.restitution, rtol=1e-7)
    np.testing.assert_allclose(impact.max_penetration, fine.max_penetration, rtol=5e-5)


def test_force_laws_zero_outside_contact():
    assert float(hertz_force(1.0, -1.0)) == 0.0
    assert float(kelvin_voigt_force(1.0, 1.0, -1.0, 5.0)) == 0.0
    assert float(hunt_crossley_force(1.0, 1.0, -1.0, 5.0)) == 0.0


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: hertz_force(-1.0, 0.1), NonPositiveMassError, "stiffness k must be positive"),
        (lambda: hertz_force(1.0, [np.nan]), NonFiniteError, "NaN"),
        (lambda: kelvin_voigt_force(1.0, -2.0, 0.1, 0.0), NonPositiveMassError, "damping c"),
        (lambda: hunt_crossley_force(1.0, -0.1, 0.1, 0.0), NonPositiveMassError, "alpha"),
        (lambda: hunt_crossley_force(np.nan, 0.1, 0.1, 0.0), NonFiniteError, "finite"),
        (lambda: hertz_stiffness(0.01, -200e9, 0.3), NonPositiveMassError, "youngs_1"),
        (lambda: hertz_stiffness(0.01, 200e9, 0.7), OutOfRangeError, "Poisson"),
        (lambda: hertz_max_penetration(1.0, 0.0, 1e9), NonPositiveMassError, "impact speed"),
        (lambda: simulate_collision(_hertz_law, 1.0, 1.0, 0.0), NonPositiveMassError, "dt"),
        (lambda: explicit_step_limit(1.0, 1e9, -1e-4), NonPositiveMassError, "delta_max"),
        (lambda: simulate_hunt_crossley_impact(1.0, 1.0, 1e9, 0.1, steps=0), NonPositiveValueError,
         "steps"),
        (lambda: simulate_hunt_crossley_impact(1.0, 1.0, 1e9, -0.1), NonPositiveMassError, "alpha"),
    ],
)
def test_bad_input(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_too_large_step_is_reported():
    # dt far beyond the stability limit of a very stiff linear spring
    with pytest.raises(ConvergenceError, match="too large"):
        simulate_collision(lambda x, v: 1e12 * x, 1.0, 1.0, 1e-2, max_time=10.0)


@pytest.mark.parametrize("law", [
    lambda x, v: kelvin_voigt_force(1e3, 10.0, x, v),
    lambda x, v: hunt_crossley_force(1e6, 0.2, x, v),
])
def test_mismatched_state_shapes_are_rejected(law):
    """(3, 1) and (3,) would broadcast to a silent 3 x 3 outer product."""
    from lib.errors import ShapeError

    x = np.array([[1e-4], [2e-4], [3e-4]])
    v = np.array([1.0, 0.5, -0.5])
    with pytest.raises(ShapeError, match="same shape"):
        law(x, v)
    with pytest.raises(ShapeError):
        law(x.ravel(), v[:2])
    # equal shapes, and a scalar with any shape, still work elementwise
    assert law(x, v.reshape(3, 1)).shape == (3, 1)
    assert law(x.ravel(), 1.0).shape == (3,)
    assert np.allclose(law(x.ravel(), v), [float(law(a, b)) for a, b in zip(x.ravel(), v)])
