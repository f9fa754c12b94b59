"""Tests of lib.integrate: classical fixed-step RK4."""

from __future__ import annotations

import numpy as np
import pytest

from lib.errors import NonFiniteError, NonPositiveMassError, ShapeError
from lib.integrate import rk4, rk4_step


def test_one_step_matches_the_taylor_polynomial():
    # for y' = -y one RK4 step multiplies by 1 - h + h^2/2 - h^3/6 + h^4/24 exactly
    h = 0.1
    expected = 1 - h + h**2 / 2 - h**3 / 6 + h**4 / 24
    np.testing.assert_allclose(rk4_step(lambda t, y: -y, 0.0, np.array([1.0]), h), [expected], rtol=1e-15)


def test_time_dependent_right_hand_side():
    # y' = cos(t), y(0) = 0: y = sin(t); global error O(h^4) ~ 1e-10 at h = 0.01
    times, states = rk4(lambda t, y: np.array([np.cos(t)]), [0.0], 0.0, 0.01, 300)
    np.testing.assert_allclose(times[-1], 3.0, rtol=1e-15)
    np.testing.assert_allclose(states[:, 0], np.sin(times), atol=1e-10)


def test_harmonic_oscillator_and_fourth_order_convergence():
    def f(t, y):
        return np.array([y[1], -y[0]])

    errors = []
    for n in (50, 100, 200, 400):
        times, states = rk4(f, [1.0, 0.0], 0.0, 5.0 / n, n)
        errors.append(np.abs(states[-1] - [np.cos(5.0), -np.sin(5.0)]).max())
    ratios = np.array(errors[:-1]) / np.array(errors[1:])
    # fourth order: 2^4 = 16 up to O(h) corrections of a few per cent at n = 50
    np.testing.assert_allclose(ratios, 16.0, rtol=0.03)


def test_step_function_and_loop_agree():
    rng = np.random.default_rng(30)
    A = rng.normal(size=(4, 4))
    y0 = rng.normal(size=4)

    def f(t, y):
        return A @ y + np.sin(t)

    _, states = rk4(f, y0, 0.3, 0.05, 5)
    y = y0
    for k in range(5):
        y = rk4_step(f, 0.3 + 0.05 * k, y, 0.05)
    # identical arithmetic up to how the times are formed: round-off only
    np.testing.assert_allclose(states[-1], y, rtol=1e-14, atol=1e-14)


def test_stacked_states_integrate_independently():
    rng = np.random.default_rng(31)
    y0 = rng.normal(size=(5, 2))

    def f(t, y):
        return np.stack([y[..., 1], -np.sin(y[..., 0])], axis=-1)

    times, states = rk4(f, y0, 0.0, 0.01, 100)
    assert states.shape == (101, 5, 2) and times.shape == (101,)
    for k in range(5):
        _, single = rk4(f, y0[k], 0.0, 0.01, 100)
        np.testing.assert_allclose(states[:, k], single, rtol=1e-15, atol=1e-15)


def test_bad_inputs_are_rejected():
    with pytest.raises(NonPositiveMassError, match="h must be positive"):
        rk4(lambda t, y: y, [1.0], 0.0, 0.0, 10)
    with pytest.raises(NonPositiveMassError, match="h must be positive"):
        rk4_step(lambda t, y: y, 0.0, [1.0], -0.1)
    with pytest.raises(ShapeError, match="n_steps must be an integer >= 1"):
        rk4(lambda t, y: y, [1.0], 0.0, 0.1, 0)
    with pytest.raises(ShapeError, match="n_steps must be an integer >= 1"):
        rk4(lambda t, y: y, [1.0], 0.0, 0.1, 2.5)  # type: ignore[arg-type]
    with pytest.raises(ShapeError, match="state's shape"):
        rk4(lambda t, y: np.zeros(3), [1.0, 2.0], 0.0, 0.1, 2)
    with pytest.raises(NonFiniteError, match="blown up"):
        rk4(lambda t, y: y * np.inf, [1.0], 0.0, 0.1, 2)
    with pytest.raises(ShapeError, match="non-empty"):
        rk4(lambda t, y: y, [], 0.0, 0.1, 2)
    with pytest.raises(NonFiniteError, match="y0 contains NaN"):
        rk4(lambda t, y: y, [np.nan], 0.0, 0.1, 2)
    with pytest.raises(ShapeError, match="f must be a function"):
        rk4(None, [1.0], 0.0, 0.1, 2)  # type: ignore[arg-type]
    with pytest.raises(NonFiniteError, match="t0"):
        rk4(lambda t, y: y, [1.0], np.nan, 0.1, 2)
