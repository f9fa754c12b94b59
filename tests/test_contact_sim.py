"""Tests for lib.contact_sim: the closed forms of penalty and rigid contact."""

from __future__ import annotations

import numpy as np
import pytest

from lib.common import GRAVITY

from lib.contact_sim import (
    complementarity_state,
    critical_omega_dt,
    effective_restitution_no_tension,
    natural_frequency,
    stable_time_step,
    step_amplification,
)
from lib.errors import OutOfRangeError
from lib.soft_contact import kelvin_voigt_restitution

G = GRAVITY  # lib.common: the book's g


def test_check_yourself_question_4_step_limit_is_2_ms():
    # omega = sqrt(1e6 / 1) = 1000 rad/s, dt < 2 / omega; exact up to round-off.
    assert natural_frequency(1e6, 1.0) == 1000.0
    np.testing.assert_allclose(stable_time_step(1e6, 1.0), 2e-3, rtol=1e-15)
    # 100 times stiffer: the step shrinks tenfold.
    np.testing.assert_allclose(stable_time_step(1e8, 1.0), 2e-4, rtol=1e-15)


def test_critical_omega_dt_is_where_the_amplification_crosses_one():
    # Independent check by bisection on the eigenvalues of the step matrix.
    for zeta in (0.0, 0.05, 0.1, 0.3, 0.6):
        low, high = 0.1, 3.0
        for _ in range(60):
            mid = 0.5 * (low + high)
            if step_amplification(mid, zeta) <= 1.0 + 1e-12:
                low = mid
            else:
                high = mid
        # The marginal eigenvalue pair makes the crossing tangent-like at
        # zeta = 0; 1e-5 covers the 1e-12 threshold's effect there.
        np.testing.assert_allclose(low, critical_omega_dt(zeta), rtol=0, atol=1e-5)


def test_no_tension_restitution_is_larger_than_textbook_formula():
    for zeta in (0.05, 0.1, 0.3, 0.6, 0.9):
        assert effective_restitution_no_tension(zeta) > kelvin_voigt_restitution(zeta)
    assert effective_restitution_no_tension(0.0) == pytest.approx(1.0, abs=1e-15)


@pytest.mark.parametrize(
    "call, error, match",
    [
        (lambda: step_amplification(-1.0), OutOfRangeError, "omega_dt"),
    ],
)
def test_bad_inputs_raise(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_check_yourself_question_5_force_across_a_gap_is_forbidden():
    # 5 N across 3 mm: f_n phi = 0.015 N m != 0.
    assert complementarity_state(3e-3, 5.0).startswith("forbidden: force across a gap")
    assert complementarity_state(3e-3, 0.0) == "separated"
    assert complementarity_state(0.0, 5.0) == "in contact"
    assert complementarity_state(0.0, 0.0) == "in contact"
    assert complementarity_state(-1e-3, 5.0).startswith("forbidden: penetration")
    assert complementarity_state(0.0, -1.0).startswith("forbidden: pulling")
