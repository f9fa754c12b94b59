"""The reworked 3.12 exercises (issue 19.11): the reference answers against independent
computations, and the typical wrong answers losing points under the spec's own tolerances.

The grader's full runs (reference = full marks, untouched notebook = zero) are in
tests/test_grader_chapters.py; here each answer is compared case by case with
``grader.compare``, as the grader does, without a sandbox.
"""

from __future__ import annotations

import numpy as np
import pytest
from scipy.integrate import quad, solve_ivp
from scipy.optimize import brentq

from grader.compare import compare
from grader.kinds import compare_choice, compare_quantity
from grader.runner import to_choice, to_quantity
from grader.spec import load_chapter, load_solutions
from lib import hydroelastic as hy
from lib import soft_contact as sc

SPEC = load_chapter("contact_and_impact")
SOL = load_solutions("contact_and_impact")


def _cases(name):
    ex = SPEC.exercise(name)
    return ex, [inputs for _, inputs in ex.case_inputs(SPEC.seed)]


def _passed(name, answer) -> list[bool]:
    """Per case (public and hidden): does ``answer`` pass under the spec's tolerance?"""
    ex, cases = _cases(name)
    out = []
    for inputs in cases:
        args = [inputs[a] for a in ex.args]
        expected = np.asarray(getattr(SOL, name)(*args), dtype=float).tolist()
        returned = np.asarray(answer(*args), dtype=float).tolist()
        out.append(compare(expected, returned, rtol=ex.rtol, atol=ex.atol, public=True).passed)
    return out


# --- 3.12.7: two balls -----------------------------------------------------------------------
def _balls(youngs, nu, radius1, radius2, density):
    k = sc.hertz_stiffness(radius1, youngs, nu, radius2, youngs, nu)
    m1, m2 = (density * 4.0 / 3.0 * np.pi * r**3 for r in (radius1, radius2))
    return k, m1, m2


def test_two_ball_contact_time_matches_a_two_body_simulation():
    """The contact time of the reduced problem equals that of the two free balls integrated
    with DOP853 (both centres moving, the overlap as an event); rtol 1e-7 is the
    integrator's tolerance, well below the spec's 1e-6."""
    ex, cases = _cases("hertz_step_limit")
    for inputs in cases:
        k, m1, m2 = _balls(*(inputs[a] for a in ex.args[:5]))
        v0 = inputs["v0"]

        def rhs(_t, y):                     # y = (x1, x2, v1, v2); overlap x1 - x2
            f = k * max(y[0] - y[1], 0.0) ** 1.5
            return [y[2], y[3], -f / m1, f / m2]

        def separates(_t, y):
            return y[0] - y[1]

        separates.terminal, separates.direction = True, -1
        t_guess = float(SOL.hertz_step_limit(*(inputs[a] for a in ex.args))[1])
        run = solve_ivp(rhs, (0.0, 3 * t_guess), [0.0, 0.0, v0, 0.0], method="DOP853",
                        events=separates, rtol=1e-12, atol=1e-18, first_step=t_guess * 1e-6)
        np.testing.assert_allclose(run.t_events[0][0], t_guess, rtol=1e-7)


def test_two_ball_step_limit_is_two_over_the_two_mass_frequency():
    """2 / omega with omega the nonzero eigenfrequency of [m1 0; 0 m2]^-1 k_eff [1 -1; -1 1]
    at the deepest overlap, computed with numpy's eigvals (rtol 1e-10: round-off)."""
    ex, cases = _cases("hertz_step_limit")
    for inputs in cases:
        k, m1, m2 = _balls(*(inputs[a] for a in ex.args[:5]))
        m_star = m1 * m2 / (m1 + m2)
        delta_max = sc.hertz_max_penetration(m_star, inputs["v0"], k)
        k_eff = 1.5 * k * np.sqrt(delta_max)
        stiffness = k_eff * np.array([[1.0, -1.0], [-1.0, 1.0]])
        omega = np.sqrt(np.max(np.linalg.eigvals(np.diag([1 / m1, 1 / m2]) @ stiffness).real))
        got = SOL.hertz_step_limit(*(inputs[a] for a in ex.args))
        np.testing.assert_allclose(got[0], 2.0 / omega, rtol=1e-10)


def _plate_answer(youngs, nu, radius1, radius2, density, v0):
    """Ball 1 on a rigid plate: the chapter's formulas without the second ball."""
    k = sc.hertz_stiffness(radius1, youngs, nu)
    m = density * 4.0 / 3.0 * np.pi * radius1**3
    dmax = sc.hertz_max_penetration(m, v0, k)
    return [sc.explicit_step_limit(m, k, dmax), sc.hertz_contact_time(m, v0, k)]


def _first_mass_answer(youngs, nu, radius1, radius2, density, v0):
    """Both balls in k, but ball 1's mass instead of the reduced mass."""
    k, m1, _ = _balls(youngs, nu, radius1, radius2, density)
    dmax = sc.hertz_max_penetration(m1, v0, k)
    return [sc.explicit_step_limit(m1, k, dmax), sc.hertz_contact_time(m1, v0, k)]


def _one_sided_frequency_answer(youngs, nu, radius1, radius2, density, v0):
    """The right contact time, but omega^2 = k_eff / m1 (only ball 1 moves)."""
    k, m1, m2 = _balls(youngs, nu, radius1, radius2, density)
    m_star = m1 * m2 / (m1 + m2)
    dmax = sc.hertz_max_penetration(m_star, v0, k)
    return [sc.explicit_step_limit(m1, k, dmax), sc.hertz_contact_time(m_star, v0, k)]


@pytest.mark.parametrize("wrong", [_plate_answer, _first_mass_answer,
                                   _one_sided_frequency_answer])
def test_two_ball_wrong_answers_fail_every_case(wrong):
    assert not any(_passed("hertz_step_limit", wrong))


# --- 3.12.8: exact Hunt-Crossley restitution -------------------------------------------------
def _quantity_passes(text):
    ex = SPEC.exercise("hunt_crossley_speed")
    expected = to_quantity(SOL.hunt_crossley_speed)
    return compare_quantity(expected, to_quantity(text), rtol=ex.rtol, atol=ex.atol).passed


def test_hunt_crossley_speed_matches_simulated_collisions():
    """The phase-plane answer against lib's RK4 collision (any k and m: e depends on
    alpha v0 only) and a root search; rtol 1e-6 (RK4 with 2000 steps per contact)."""
    def restitution(v0, k, m):
        t_c = sc.hertz_contact_time(m, v0, k)
        return sc.simulate_collision(
            lambda x, xd: float(sc.hunt_crossley_force(k, 0.25, x, xd)), m, v0,
            t_c / 2000).restitution

    expected = to_quantity(SOL.hunt_crossley_speed)[0]
    for k, m in ((1e7, 0.1), (3e9, 2.0)):
        v = brentq(lambda v_: restitution(v_, k, m) - 0.9, 0.3, 0.6, xtol=1e-12)
        np.testing.assert_allclose(v, expected, rtol=1e-6)


def test_hunt_crossley_speed_grading():
    assert _quantity_passes("0.4440 m/s") and _quantity_passes("44.40 cm/s")
    assert not _quantity_passes("0.4 m/s")        # the first-order rule (1 - 0.9) / alpha
    assert not _quantity_passes("0.6659 m/s")     # the factor 3/2 of the law dropped
    assert not _quantity_passes("0.4440 m")       # no time in the unit


# --- 3.12.10: the hydroelastic cylinder ------------------------------------------------------
def test_cylinder_force_matches_the_strip_integral():
    """The closed form against SciPy's quad of E_h (1 - r/R) over the strip, times the length, and
    against the force at full depth, length E_h R (rtol 1e-9: quadrature error)."""
    ex, cases = _cases("hydro_cylinder_force")
    for inputs in cases:
        E_h, R, length, delta = (inputs[a] for a in ex.args)
        c, a = R - delta, np.sqrt(2 * R * delta - delta**2)
        strip, _ = quad(lambda x: float(hy.sphere_pressure(E_h, R, np.hypot(c, x))), -a, a,
                        epsabs=0.0, epsrel=1e-12)
        np.testing.assert_allclose(SOL.hydro_cylinder_force(E_h, R, length, delta), length * strip,
                                   rtol=1e-9)
    np.testing.assert_allclose(SOL.hydro_cylinder_force(1e5, 0.05, 0.2, 0.05),
                               0.2 * 1e5 * 0.05, rtol=1e-14)


def _sphere_per_length(E_h, R, length, delta):
    """The sphere's closed form spread over the length: the patch taken as a disc."""
    return float(hy.sphere_plane_force(E_h, R, delta)) * length / (2 * R)


def _small_depth(E_h, R, length, delta):
    """The leading term at small depth, (4 sqrt(2) / 3) length E_h delta^1.5 / sqrt(R)."""
    return 4 * np.sqrt(2) / 3 * length * E_h * delta**1.5 / np.sqrt(R)


def _peak_pressure_times_area(E_h, R, length, delta):
    """The pressure at the strip's centre line over the whole strip."""
    return float(hy.sphere_pressure(E_h, R, R - delta)) * 2 * np.sqrt(2 * R * delta) * length


def test_small_depth_term_is_the_limit():
    """The leading term used as a wrong answer is the right limit (rtol 1e-3 at delta = 1e-6 R)."""
    np.testing.assert_allclose(_small_depth(1e5, 0.05, 0.2, 5e-8),
                               SOL.hydro_cylinder_force(1e5, 0.05, 0.2, 5e-8), rtol=1e-3)


@pytest.mark.parametrize("wrong, at_least", [(_sphere_per_length, 4), (_small_depth, 2),
                                             (_peak_pressure_times_area, 4)])
def test_cylinder_wrong_answers_lose_cases(wrong, at_least):
    assert sum(not p for p in _passed("hydro_cylinder_force", wrong)) >= at_least


# --- 3.12.11: the grasping scene in Drake ----------------------------------------------------
def test_drake_scene_answers_follow_the_verified_table():
    """Options A-D and F, mapped to representations, against lib's table (checked against
    Drake by tests/test_hydroelastic.py); E is the page's remark on filtered pairs."""
    out = hy.drake_pair_outcome
    truth = {
        "A": out("C", "U", "hydroelastic_with_fallback", "box", "box").result == "patch",
        "B": out("C", "U", "hydroelastic", "box", "box").result == "raises",
        "C": out("R", "R", "hydroelastic_with_fallback", "box", "box").result == "point",
        "D": out("C", "C", "hydroelastic_with_fallback", "convex", "halfspace").result == "patch",
        "F": all(out("C", "R", m, "box", "box").result == "patch"
                 for m in ("hydroelastic", "hydroelastic_with_fallback")),
    }
    assert {k for k, v in truth.items() if v} == set(SOL.drake_pairs) - {"E"}
    assert "E" not in SOL.drake_pairs


def test_drake_scene_table_readings_lose_points():
    ex = SPEC.exercise("drake_pairs")
    expected = to_choice(SOL.drake_pairs, ex.options, ex.multi)
    for wrong in ({"B", "D", "F"}, {"A", "B", "C", "D", "E", "F"}, {"B", "C", "E", "F"}):
        got = compare_choice(expected, to_choice(wrong, ex.options, ex.multi),
                             options=ex.options, multi=ex.multi, partial=ex.partial)
        assert not all(r.passed for r in got)
