"""Tests of lib.rigid_body: Newton-Euler, Euler rates, torque-free rotation."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.linalg import expm
from scipy.spatial.transform import Rotation

from lib.errors import (
    NonFiniteError,
    NonPhysicalInertiaError,
    NonPositiveMassError,
    NonSymmetricError,
    NotARotationError,
    ShapeError,
)
from lib.inertia import point_mass_properties
from lib.integrate import rk4
from lib.rigid_body import (
    angular_momentum,
    euler_rates,
    intermediate_axis_rate_squared,
    newton_euler_wrench,
    rotational_energy,
    spatial_newton_euler,
    torque_free_rhs,
    world_frame_euler,
)
from lib.inertia import skew
from lib.spatial import spatial_inertia

N_TRIALS = 300
# Sums of ~10-20 products of O(1) numbers: round-off ~1e-15 relative; 1e-12
# keeps three orders of margin and catches any wrong term (O(1) errors).
RTOL = 1e-12
ATOL = 1e-12

INERTIA = np.diag([1.0, 2.0, 3.0])  # principal moments of the torque-free examples, kg m^2


def random_body(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    n = int(rng.integers(3, 12))
    return rng.uniform(0.1, 2.0, n), rng.normal(scale=0.5, size=(n, 3))


def point_accelerations(r, w, wd, v, vd):
    """Acceleration of body-fixed points r (body components): vd + wd x r + w x (v + w x r)."""
    return vd + np.cross(wd, r) + np.cross(w, v + np.cross(w, r))


def test_newton_euler_equals_sum_of_point_mass_forces():
    rng = np.random.default_rng(20)
    for _ in range(N_TRIALS):
        m, p = random_body(rng)
        body = point_mass_properties(m, p)
        r = p - body.com  # body frame at the COM
        w, wd, v, vd = rng.normal(size=(4, 3))
        a = point_accelerations(r, w, wd, v, vd)
        forces = m[:, None] * a
        direct = np.concatenate([np.cross(r, forces).sum(0), forces.sum(0)])
        np.testing.assert_allclose(
            newton_euler_wrench(body.mass, body.inertia_com, w, wd, v, vd), direct, rtol=RTOL, atol=ATOL
        )


def test_spatial_newton_euler_in_a_frame_away_from_the_com():
    """F = G Vdot - ad_V^T G V holds at any body-fixed origin (point sums, 300 bodies)."""
    rng = np.random.default_rng(21)
    for _ in range(N_TRIALS):
        m, r = random_body(rng)
        r = r + rng.normal(size=3)  # the COM is away from the origin
        body = point_mass_properties(m, r)
        G = spatial_inertia(body.mass, body.inertia_com, com=body.com)
        w, wd, v, vd = rng.normal(size=(4, 3))
        forces = m[:, None] * point_accelerations(r, w, wd, v, vd)
        direct = np.concatenate([np.cross(r, forces).sum(0), forces.sum(0)])
        F = spatial_newton_euler(G, np.concatenate([w, v]), np.concatenate([wd, vd]))
        np.testing.assert_allclose(F, direct, rtol=RTOL, atol=ATOL)


def test_spatial_and_classical_newton_euler_agree_at_the_com():
    rng = np.random.default_rng(22)
    for _ in range(50):
        body = point_mass_properties(*random_body(rng))
        w, wd, v, vd = rng.normal(size=(4, 3))
        G = spatial_inertia(body.mass, body.inertia_com)
        np.testing.assert_allclose(
            spatial_newton_euler(G, np.r_[w, v], np.r_[wd, vd]),
            newton_euler_wrench(body.mass, body.inertia_com, w, wd, v, vd),
            rtol=RTOL, atol=ATOL,
        )


def test_world_frame_euler_is_rotated_body_frame_euler():
    rng = np.random.default_rng(23)
    for _ in range(N_TRIALS):
        I_b = point_mass_properties(*random_body(rng)).inertia_com
        R = Rotation.random(random_state=rng).as_matrix()
        w_b, wd_b = rng.normal(size=(2, 3))
        body = newton_euler_wrench(1.0, I_b, w_b, wd_b, np.zeros(3), np.zeros(3))[:3]
        np.testing.assert_allclose(world_frame_euler(I_b, R, R @ w_b, R @ wd_b), R @ body, rtol=RTOL, atol=ATOL)


def test_euler_rates_match_finite_difference_of_world_angular_momentum():
    """d/dt (R I w) = tau_w, with (R, w) propagated by RK4 and a central difference."""
    rng = np.random.default_rng(24)
    I_b = point_mass_properties(*random_body(rng)).inertia_com
    tau_w = rng.normal(size=3)

    def f(t, y, sign=1.0):
        R, w = y[:9].reshape(3, 3), y[9:]
        return sign * np.concatenate([(R @ skew(w)).ravel(), euler_rates(I_b, w, R.T @ tau_w)])

    y0 = np.concatenate([Rotation.random(random_state=rng).as_matrix().ravel(), rng.normal(size=3)])
    delta, n = 1e-3, 10
    _, fwd = rk4(f, y0, 0.0, delta / n, n)
    _, bwd = rk4(lambda t, y: f(t, y, -1.0), y0, 0.0, delta / n, n)

    def h_world(y):
        return y[:9].reshape(3, 3) @ I_b @ y[9:]

    derivative = (h_world(fwd[-1]) - h_world(bwd[-1])) / (2.0 * delta)
    # central difference error ~ delta^2 |h'''| / 6 ~ 1e-7; RK4 error ~ (1e-4)^4 per step
    np.testing.assert_allclose(derivative, tau_w, rtol=0, atol=1e-6)
    # and with zero torque the world angular momentum stays constant
    zero = np.zeros(3)
    np.testing.assert_allclose(euler_rates(I_b, y0[9:], zero), euler_rates(I_b, y0[9:]), rtol=0, atol=0)
    # the rotation itself matches the exponential map over one tiny step (sanity of f)
    np.testing.assert_allclose(
        fwd[1, :9].reshape(3, 3), y0[:9].reshape(3, 3) @ expm(skew(y0[9:]) * delta / n), atol=1e-8
    )


def test_euler_rates_are_vectorised():
    rng = np.random.default_rng(25)
    w = rng.normal(size=(7, 3))
    tau = rng.normal(size=(7, 3))
    stacked = euler_rates(INERTIA, w, tau)
    for k in range(7):
        np.testing.assert_allclose(stacked[k], euler_rates(INERTIA, w[k], tau[k]), rtol=1e-15, atol=1e-15)
    np.testing.assert_allclose(torque_free_rhs(INERTIA)(0.0, w), euler_rates(INERTIA, w), rtol=1e-14, atol=1e-15)
    np.testing.assert_allclose(rotational_energy(INERTIA, w), 0.5 * np.einsum("ij,jk,ik->i", w, INERTIA, w), rtol=1e-15)
    np.testing.assert_allclose(angular_momentum(INERTIA, w), w @ INERTIA, rtol=1e-15)


def test_torque_free_rk4_conserves_energy_and_momentum_norm():
    f = torque_free_rhs(INERTIA)
    _, w = rk4(f, np.array([1.0, 0.3, 2.0]), 0.0, 1e-3, 4000)
    E = rotational_energy(INERTIA, w)
    H = np.linalg.norm(angular_momentum(INERTIA, w), axis=1)
    # RK4 drift at h = 1 ms over 4 s: measured ~1e-14; 1e-11 is the book's figure
    np.testing.assert_allclose(E, E[0], rtol=1e-11)
    np.testing.assert_allclose(H, H[0], rtol=1e-11)


def test_rk4_error_ratio_is_sixteen_when_halving_the_step():
    f = torque_free_rhs(INERTIA)
    w0 = np.array([1.0, 0.3, 2.0])
    T = 4.0
    _, fine = rk4(f, w0, 0.0, 0.04 / 64, 6400)  # reference: error ~ 1e-12 times smaller
    errors = []
    for h in (0.04, 0.02, 0.01):
        _, w = rk4(f, w0, 0.0, h, int(round(T / h)))
        errors.append(np.linalg.norm(w[-1] - fine[-1]))
    ratios = np.array(errors[:-1]) / np.array(errors[1:])
    # fourth order: ratio 2^4 = 16; measured 16.006 and 16.003 at these steps
    np.testing.assert_allclose(ratios, 16.0, rtol=0.01)


def _scaled_energy_errors(inertia, w0, T, steps):
    """(K/K0 - 1) / h^4 of RK4 on the torque-free Euler equations, on the coarsest step's grid."""
    f = torque_free_rhs(inertia)
    K0 = rotational_energy(inertia, w0)
    out = []
    for h in steps:
        _, w = rk4(f, w0, 0.0, h, int(round(T / h)))
        out.append((rotational_energy(inertia, w) / K0 - 1)[:: int(round(steps[0] / h))] / h**4)
    return out


def test_rk4_energy_error_is_a_bounded_h4_part_plus_a_growing_h5_part():
    """The explanation of 3.1's energy-error ratios above 16 (sec-rb-energy-error): the error
    is a(t) h^4 + b(t) h^5 with a bounded and b growing in proportion to time, so halving the
    step divides it by 16 (a + b h) / (a + b h/2), between 16 and 32, not by 16."""
    from lib.inertia import box_inertia

    inertia = np.diag(np.sort(np.diag(box_inertia(1.0, [0.30, 0.12, 0.03]))))  # 3.1 plate
    w0 = np.array([4.0, 7.0, -3.0])
    h = 0.005
    e1, e2 = _scaled_energy_errors(inertia, w0, 20.0, (h, h / 2))
    a, b = 2 * e2 - e1, (e1 - e2) / (h / 2)
    n = len(a)
    # bounded a: the largest |a| in the second half equals that in the first (measured
    # 5.45 both; 25 % allows for where the samples fall), and it is not small
    a_max = np.max(np.abs(a[: n // 2])), np.max(np.abs(a[n // 2 :]))
    assert a_max[0] > 1.0 and abs(a_max[1] / a_max[0] - 1) < 0.25, a_max
    # b proportional to time: b(T) / b(T/2) measured 1.997; 5 % allows for its staircase
    assert abs(b[-1] / b[n // 2] - 2.0) < 0.05, (b[n // 2], b[-1])
    # the same a and b from the pair (2h, h): they are properties of the method, not of the pair
    e0 = _scaled_energy_errors(inertia, w0, 20.0, (2 * h, h))[0]
    a2, b2 = 2 * e1[::2] - e0, (e0 - e1[::2]) / h
    assert np.max(np.abs(a2 - a[::2])) < 0.05 * np.max(np.abs(a))     # measured 2.4 %
    assert np.max(np.abs(b2 - b[::2])) < 0.01 * np.max(np.abs(b))     # measured 0.3 %
    # at t = 2 s the fitted line predicts the measured halving ratios (measured within 0.5 %)
    steps = 0.02 / 2.0 ** np.arange(5)
    e_T = np.array([_scaled_energy_errors(inertia, w0, 2.0, (s,))[0][-1] for s in steps])
    slope, icpt = np.polyfit(steps, e_T, 1)
    measured = (e_T[:-1] * steps[:-1] ** 4) / (e_T[1:] * steps[1:] ** 4)
    predicted = 16 * (icpt + slope * steps[:-1]) / (icpt + slope * steps[1:])
    np.testing.assert_allclose(measured, predicted, rtol=0.02)
    assert np.all(measured > 20.0)  # well above 16: the h^5 part dominates at these steps


@pytest.mark.parametrize("axis", [0, 2])
def test_stable_axes_wobble_at_the_closed_form_frequency(axis):
    f = torque_free_rhs(INERTIA)
    spin, delta = 2.0, 1e-6
    a, b = [i for i in range(3) if i != axis]
    w0 = np.zeros(3)
    w0[axis], w0[a] = spin, delta * spin
    t, w = rk4(f, w0, 0.0, 1e-3, 5000)
    freq = np.sqrt(intermediate_axis_rate_squared(np.diag(INERTIA), axis, spin))
    # linear theory: dw_a = delta cos(Omega_k t); nonlinear terms are O(delta^2) relative,
    # RK4 phase error at h = 1 ms ~ (Omega_k h)^4 t ~ 1e-11: tolerance 1e-6 of the amplitude
    np.testing.assert_allclose(w[:, a] / (delta * spin), np.cos(freq * t), rtol=0, atol=1e-6)
    assert np.max(np.abs(w[:, b])) < 2 * delta * spin  # the wobble stays small


def test_intermediate_axis_grows_at_the_closed_form_rate():
    f = torque_free_rhs(INERTIA)
    spin, delta = 2.0, 1e-8
    t, w = rk4(f, np.array([delta, spin, delta]), 0.0, 1e-3, 8000)
    rate_sq = intermediate_axis_rate_squared(np.diag(INERTIA), 1, spin)
    assert rate_sq < 0
    amplitude = np.hypot(w[:, 0], w[:, 2])
    window = (t >= 4.0) & (t <= 8.0)  # decaying mode gone (e^-9), amplitude still < 1e-4 (linear)
    slope = np.polyfit(t[window], np.log(amplitude[window]), 1)[0]
    np.testing.assert_allclose(slope, np.sqrt(-rate_sq), rtol=1e-3)


def test_rate_squared_against_linearised_jacobian_eigenvalues():
    """Eigenvalues of d(omega_dot)/d(omega) at pure spin are +-sqrt(-Omega_k^2) (and 0)."""
    rng = np.random.default_rng(26)
    for _ in range(50):
        moments = np.sort(rng.uniform(0.5, 2.0, 3))
        if moments[0] + moments[1] < moments[2]:
            continue
        for axis in range(3):
            spin = rng.uniform(0.5, 5.0)
            w = np.zeros(3)
            w[axis] = spin
            eps = 1e-6
            J = np.column_stack(
                [(euler_rates(np.diag(moments), w + eps * e) - euler_rates(np.diag(moments), w - eps * e)) / (2 * eps) for e in np.eye(3)]
            )
            eig = np.linalg.eigvals(J)
            expected = intermediate_axis_rate_squared(moments, axis, spin)
            # lambda^2 of the nonzero pair is -Omega_k^2; central differences of a
            # quadratic function are exact up to round-off (~1e-10 here)
            lam2 = eig[np.argmax(np.abs(eig))] ** 2
            np.testing.assert_allclose(lam2.real, -expected, rtol=1e-6, atol=1e-8)


# --------------------------------------------------------------------------- bad input


def test_bad_inputs_are_rejected():
    with pytest.raises(NonPositiveMassError, match="mass must be positive"):
        newton_euler_wrench(0.0, INERTIA, np.zeros(3), np.zeros(3), np.zeros(3), np.zeros(3))
    with pytest.raises(NonPhysicalInertiaError, match="triangle inequality"):
        newton_euler_wrench(1.0, np.diag([1.0, 1.0, 3.0]), np.zeros(3), np.zeros(3), np.zeros(3), np.zeros(3))
    with pytest.raises(ShapeError, match="omega_dot must have shape"):
        newton_euler_wrench(1.0, INERTIA, np.zeros(3), np.zeros(2), np.zeros(3), np.zeros(3))
    with pytest.raises(NonFiniteError, match="v_dot contains NaN"):
        newton_euler_wrench(1.0, INERTIA, np.zeros(3), np.zeros(3), np.zeros(3), [np.nan, 0, 0])
    with pytest.raises(NonSymmetricError, match="G must be symmetric"):
        spatial_newton_euler(np.triu(np.ones((6, 6))), np.zeros(6), np.zeros(6))
    with pytest.raises(NonPhysicalInertiaError, match="singular"):
        euler_rates(np.diag([0.0, 1.0, 1.0]), np.ones(3))
    with pytest.raises(NonSymmetricError, match="inertia must be symmetric"):
        euler_rates([[1.0, 0.2, 0], [0, 1.0, 0], [0, 0, 1.0]], np.ones(3))
    with pytest.raises(ShapeError, match="torque must have shape"):
        euler_rates(INERTIA, np.ones((4, 3)), np.ones(3))
    with pytest.raises(NonPhysicalInertiaError, match="positive semidefinite"):
        torque_free_rhs(-INERTIA)
    with pytest.raises(ShapeError, match="omega must have shape"):
        rotational_energy(INERTIA, np.ones(4))
    with pytest.raises(NonFiniteError, match="omega contains NaN"):
        angular_momentum(INERTIA, [np.nan, 0.0, 0.0])
    with pytest.raises(ShapeError, match="axis must be 0, 1 or 2"):
        intermediate_axis_rate_squared([1.0, 2.0, 3.0], 3, 1.0)
    with pytest.raises(NonPositiveMassError, match="principal_moments"):
        intermediate_axis_rate_squared([0.0, 2.0, 3.0], 1, 1.0)
    with pytest.raises(NonPhysicalInertiaError, match="triangle inequality"):
        intermediate_axis_rate_squared([1.0, 1.0, 3.0], 1, 1.0)
    with pytest.raises(NonFiniteError, match="spin_rate"):
        intermediate_axis_rate_squared([1.0, 2.0, 3.0], 1, np.inf)
    with pytest.raises(NotARotationError, match="rotation"):
        world_frame_euler(INERTIA, np.ones((3, 3)), np.zeros(3), np.zeros(3))
