"""The 3.11 exercises reworked in issue 19: reference answers against lib, typical mistakes.

Each reference answer (solutions/constrained_dynamics.py, written without lib) is checked
against an independent computation with lib on every public and hidden case, and each
typical wrong answer a student hands in is shown to lose points on the spec's own cases
(compared with grader.compare, the grader's comparison).
"""

from __future__ import annotations

import numpy as np
import pytest

from _exercise_sets import ExerciseSet
from lib import constraints as lc

EXERCISES = ExerciseSet("constrained_dynamics")
SPEC, REF = EXERCISES.spec, EXERCISES.reference
_cases, _passes = EXERCISES.cases, EXERCISES.passes


# --- 3.11.4 independent_accelerations -------------------------------------------------


def test_independent_accelerations_reference_equals_kkt_and_the_actuated_velocity_map():
    _, cases = _cases("independent_accelerations")
    for _, (M, J, f, gamma, independent) in cases:
        k = len(independent)
        got = REF.independent_accelerations(M, J, f, gamma, independent)
        Z = lc.actuated_velocity_map(J, list(independent))  # J Z = 0, Z[independent] = 1
        # Solves of well-conditioned systems of size <= 9: 1e-10 relative is round-off.
        np.testing.assert_allclose(got[:k], lc.kkt_solve(M, J, f, gamma).qdd[independent],
                                   rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(got[k:].reshape(k, k), Z.T @ M @ Z, rtol=1e-10, atol=1e-12)


def _orthonormal_basis(M, J, f, gamma, independent):
    """Mistake: the SVD's orthonormal basis and the minimum-norm particular solution.
    The accelerations come out right (mapped back with S); the reduced mass matrix does not."""
    m = J.shape[0]
    Z = np.linalg.svd(J)[2][m:].T
    qdd_p = np.linalg.lstsq(J, gamma, rcond=None)[0]
    M_red = Z.T @ M @ Z
    qdd = Z @ np.linalg.solve(M_red, Z.T @ (f - M @ qdd_p)) + qdd_p
    return np.concatenate([qdd[independent], M_red.ravel()])


def _without_gamma(M, J, f, gamma, independent):
    """Mistake: the particular solution left out (as if gamma were zero)."""
    return REF.independent_accelerations(M, J, f, np.zeros_like(gamma), independent)


@pytest.mark.parametrize("mistake", [_orthonormal_basis, _without_gamma])
def test_independent_accelerations_mistakes_lose_points(mistake):
    passed = _passes("independent_accelerations", mistake)
    # The first public case has gamma = 0 and a 1 x 1 reduced matrix that the orthonormal
    # basis scales by 2: every case with gamma != 0 (and every case for the SVD basis) fails.
    assert sum(passed) <= 1, passed
    assert not any(passed[2:]), "hidden cases must catch it"


# --- 3.11.6 pendulum_residual ---------------------------------------------------------


def _pendulum_with_lib(h, T, alpha, beta):
    """The same pendulum through lib.constraints.simulate_constrained (a second computation)."""
    dyn = lambda q, qd: (np.eye(2), np.array([0.0, -9.81]))  # noqa: E731
    con = lambda q, qd: (np.array([0.5 * (q @ q - 1.0)]), q[None, :], np.array([-(qd @ qd)]))  # noqa: E731
    kw = dict(stabilization="baumgarte", alpha=alpha, beta=beta) if alpha or beta else {}
    Q, _ = lc.simulate_constrained([1.0, 0.0], [0.0, 0.0], dyn, con, h, int(round(T / h)), **kw)
    return 0.5 * (Q[-1] @ Q[-1] - 1.0)


def test_pendulum_residual_reference_equals_lib_and_drifts_as_h_to_the_fourth():
    _, cases = _cases("pendulum_residual")
    for _, args in cases:
        # The same RK4 arithmetic in another order: round-off in Phi ~ 1e-16 against values
        # of 1e-9 .. 1e-5, so 1e-7 relative (the exercise's tolerance is 1e-6).
        np.testing.assert_allclose(REF.pendulum_residual(*args), _pendulum_with_lib(*args),
                                   rtol=1e-7, atol=1e-15)
    ratio = REF.pendulum_residual(0.02, 1.0, 0.0, 0.0) / REF.pendulum_residual(0.01, 1.0, 0.0, 0.0)
    assert 10.0 < ratio < 24.0  # RK4: 2^4, as the statement's question says


def test_int_instead_of_round_loses_the_cases_where_they_differ():
    """The statement fixes N = round(T / h); int(T / h) drops a step when T / h lands just
    below a whole number (0.29 / 0.01 = 28.99...) or lies 0.6 past one (every hidden case)."""
    ex, cases = _cases("pendulum_residual")
    differ = [int(h_T[1] / h_T[0]) != round(h_T[1] / h_T[0]) for _, h_T in cases]
    assert differ[1] and all(differ[2:]) and not differ[0]

    def with_int(h, T, alpha, beta):
        return REF.pendulum_residual(h, h * int(T / h), alpha, beta)

    passed = _passes("pendulum_residual", with_int)
    assert passed == [not d for d in differ], passed


def test_pendulum_residual_without_gains_loses_the_stabilised_cases():
    passed = _passes("pendulum_residual", lambda h, T, alpha, beta: REF.pendulum_residual(h, T, 0.0, 0.0))
    _, cases = _cases("pendulum_residual")
    assert passed == [args[2] == 0.0 and args[3] == 0.0 for _, args in cases], passed


# --- 3.11.8 baumgarte_step_limit ------------------------------------------------------


def _spectral_radius(alpha, beta, h):
    """Largest |eigenvalue| of one RK4 step on s' = C s, s = (e, e')."""
    C = h * np.array([[0.0, 1.0], [-beta**2, -2.0 * alpha]])
    step = np.eye(2) + C + C @ C / 2 + C @ C @ C / 6 + C @ C @ C @ C / 24
    return np.abs(np.linalg.eigvals(step)).max()


def test_step_limit_reference_is_where_the_spectral_radius_first_reaches_one():
    _, cases = _cases("baumgarte_step_limit")
    for _, (alpha, beta) in cases:
        h = REF.baumgarte_step_limit(alpha, beta)
        # Below the limit every step damps, just above it one does not (a scan of 2000
        # steps from 0 to 0.999 h and the radius at 1.001 h).
        assert max(_spectral_radius(alpha, beta, x) for x in np.linspace(1e-6, 0.999, 2000) * h) < 1.0
        assert _spectral_radius(alpha, beta, 1.001 * h) > 1.0
    # Critical damping: the chapter's real-axis limit over beta (R(-z) = 1 at z = 2.785...).
    R = np.polynomial.Polynomial([1, 1, 1 / 2, 1 / 6, 1 / 24])
    z_lim = -min(r.real for r in (R - 1).roots() if abs(r.imag) < 1e-9 and r.real < -1e-9)
    np.testing.assert_allclose(REF.baumgarte_step_limit(20.0, 20.0), z_lim / 20.0, rtol=1e-10)


#: the cases in grading order: critically damped, underdamped (public); underdamped,
#: overdamped (hidden)
@pytest.mark.parametrize("mistake, expected", [
    # the chapter's alpha = beta result for any gains: right only when critically damped
    (lambda alpha, beta: 2.785293563405282 / beta, [True, False, False, False]),
    # the real-axis limit for the fastest real part: right for real modes only, wrong for
    # the complex modes of an underdamped error
    (lambda alpha, beta: 2.785293563405282 / max(abs(np.roots([1.0, 2.0 * alpha, beta**2]).real)),
     [True, False, False, True]),
])
def test_step_limit_mistakes_lose_points(mistake, expected):
    assert _passes("baumgarte_step_limit", mistake) == expected
