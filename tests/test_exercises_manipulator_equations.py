"""The 3.4 exercises: reference answers against lib, typical mistakes lose points.

Each reference answer (solutions/manipulator_equations.py, written without lib)
is checked against an independent computation with lib (the regressor, the SVD
of a stacked regressor, the Christoffel C, the mass matrix) on every public and
hidden case, and each typical wrong answer is shown to lose points on the
spec's own cases (compared with grader.compare, the grader's comparison, or
judged by the spec's own judge). The full-marks and blank-notebook gradings of
the set are in tests/test_grader_chapters.py.
"""

from __future__ import annotations

import numpy as np
import pytest

from _exercise_sets import ExerciseSet
from grader.chapters import manipulator_equations as spec_module
from lib import kinematic_tree as kt
from lib import tree_dynamics as td
from lib.common import GRAVITY
from lib.models.planar_chain import planar_chain_tree

EXERCISES = ExerciseSet("manipulator_equations")
SPEC, REF = EXERCISES.spec, EXERCISES.reference
_cases, _passes = EXERCISES.cases, EXERCISES.passes
DOWN = [0.0, -GRAVITY, 0.0]
#: closed forms against lib's recursions: round-off of sums of O(10) terms
RTOL = 1e-10
#: seeds besides the spec's own on which the cases keep their properties
SEEDS = (SPEC.seed, 1, 2)


def _judged(name, answer, seed=SPEC.seed):
    """The spec's judge on ``answer``'s design for every case of a design exercise."""
    ex = SPEC.exercise(name)
    out = []
    for _, inputs in ex.case_inputs(seed):
        args = [np.asarray(inputs[a], float) if isinstance(inputs[a], list)
                else inputs[a] for a in ex.args]
        out.append(ex.judge(inputs, np.asarray(answer(*args), dtype=float).tolist()))
    return out


# --- 3.4.1 planar_regressor ---------------------------------------------------------


def test_planar_regressor_equals_lib_and_gives_the_rnea_of_random_arms():
    _, cases = _cases("planar_regressor")
    rng = np.random.default_rng(341)
    for _, (q, qd, qdd, lengths) in cases:
        arm = planar_chain_tree(lengths, rng.uniform(0.5, 3.0, 2))
        Y = REF.planar_regressor(q, qd, qdd, lengths)
        np.testing.assert_allclose(Y, td.regressor(arm, q, qd, qdd, gravity=DOWN),
                                   rtol=RTOL, atol=1e-12)
        np.testing.assert_allclose(Y @ td.inertial_parameters(arm),
                                   kt.rnea(arm, q, qd, qdd, gravity=DOWN), rtol=RTOL)


def _regressor_gravity_up(q, qd, qdd, lengths):
    """Mistake: gravity along +y (the sign of U)."""
    return REF.planar_regressor(q, qd, qdd, lengths) - 2 * REF.planar_regressor(
        q, np.zeros(2), np.zeros(2), lengths)


def _regressor_no_velocity_terms(q, qd, qdd, lengths):
    """Mistake: the centrifugal and Coriolis terms left out."""
    return REF.planar_regressor(q, np.zeros(2), qdd, lengths)


def _regressor_inertia_of_link_2_in_its_own_row(q, qd, qdd, lengths):
    """Mistake: I_zz2 multiplies only qdd2 (link 2's absolute acceleration
    forgotten)."""
    Y = REF.planar_regressor(q, qd, qdd, lengths)
    Y[:, 16] = qdd[1]
    return Y


def _regressor_without_the_elbow_mass(q, qd, qdd, lengths):
    """Mistake: m_2 taken to enter nothing (only link 2's first moments and inertia)."""
    Y = REF.planar_regressor(q, qd, qdd, lengths)
    Y[:, 10] = 0.0
    return Y


@pytest.mark.parametrize("mistake", [
    _regressor_gravity_up, _regressor_no_velocity_terms,
    _regressor_inertia_of_link_2_in_its_own_row, _regressor_without_the_elbow_mass])
def test_planar_regressor_mistakes_lose_points(mistake):
    assert not any(_passes("planar_regressor", mistake))


# --- 3.4.2 identifiable_projector ----------------------------------------------------


def _projector_from_lib(lengths, vertical, n_states=80):
    """Orthogonal projector onto the row space of lib's stacked regressor (SVD)."""
    n = len(lengths)
    rng = np.random.default_rng(342)
    arm = planar_chain_tree(lengths, np.ones(n))
    Q, QD, QDD = rng.normal(size=(3, n_states, n))
    gravity = DOWN if vertical else [0.0, 0.0, -GRAVITY]
    Y_s = td.regressor(arm, Q, QD, QDD, gravity=gravity)
    _, sv, Vt = np.linalg.svd(Y_s.reshape(-1, 10 * n))
    rows = Vt[: int(np.sum(sv > 1e-10 * sv[0]))]
    return rows.T @ rows, len(rows)


def test_identifiable_projector_equals_the_svd_of_the_stacked_regressor():
    _, cases = _cases("identifiable_projector")
    assert {(len(lengths), vertical) for _, (lengths, vertical) in cases} == {
        (2, True), (2, False), (3, True), (3, False)}
    for _, (lengths, vertical) in cases:
        P_lib, rank = _projector_from_lib(lengths, vertical)
        P = REF.identifiable_projector(lengths, vertical)
        # SVD round-off: 1e-12 on entries of size one
        np.testing.assert_allclose(P, P_lib, atol=1e-12)
        np.testing.assert_allclose(P @ P, P, atol=1e-12)
        assert round(np.trace(P)) == rank == {(2, True): 6, (3, True): 9, (2, False): 4,
                                              (3, False): 7}[(len(lengths), vertical)]


def _projector_always_vertical(lengths, vertical):
    """Mistake: gravity's plane ignored (the first link's first moments kept)."""
    return REF.identifiable_projector(lengths, True)


def _projector_without_regrouping(lengths, vertical):
    """Mistake: only the parameters that never appear are removed."""
    n = len(lengths)
    keep = np.ones(10 * n)
    for b in range(n):
        keep[[10 * b + k for k in REF._OUT_OF_PLANE]] = 0.0
    keep[0] = 0.0
    if not vertical:
        keep[[1, 2]] = 0.0
    return np.diag(keep)


def _projector_next_link_length(lengths, vertical):
    """Mistake: a mass at joint b moved with link b's length instead of link b-1's."""
    return REF.identifiable_projector(np.roll(lengths, -1), vertical)


def test_identifiable_projector_mistakes_lose_points():
    assert _passes("identifiable_projector", _projector_always_vertical) == [
        vertical for _, (_, vertical) in _cases("identifiable_projector")[1]]
    for mistake in (_projector_without_regrouping, _projector_next_link_length):
        assert not any(_passes("identifiable_projector", mistake))


# --- 3.4.3 consistent_parameters -----------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_fitted_parameters_fail_and_the_reference_passes(seed):
    ex = SPEC.exercise("consistent_parameters")
    for _, case in ex.case_inputs(seed):
        ok, why = ex.judge(case, case["params"])
        # the fit itself: the first mass is zero, link 2 is not a body (the statement)
        assert not ok and "body 1: mass 0 kg" in why and "body 2's inertia" in why, why
    for ok, why in _judged("consistent_parameters", REF.consistent_parameters, seed):
        assert ok, why


def test_the_true_arm_is_one_of_the_right_answers():
    """Any consistent set with the fit's torques passes, for example the arm that made
    the data."""
    ex = SPEC.exercise("consistent_parameters")
    rng = np.random.default_rng(343)
    for _ in range(4):
        lengths = rng.uniform(0.3, 0.8, 2)
        true = spec_module._true_arm(rng, lengths)
        case = {"lengths": lengths,
                "params": spec_module._least_squares_fit(lengths, true)}
        ok, why = ex.judge(case, true.tolist())
        assert ok, why
        assert np.linalg.norm(case["params"] - true) > 0.1  # the fit is another vector


def _complete_out_of_plane(p):
    """Each body's out-of-plane entries for an isotropic inertia about its centre of
    mass."""
    for body in p:
        m, hx, hy = body[0], body[1], body[2]
        spin = body[6] - (hx**2 + hy**2) / m
        body[3:6] = 0.0, spin + hy**2 / m, spin + hx**2 / m
        body[7:10] = -hx * hy / m, 0.0, 0.0
    return p.ravel()


def _no_mass_moved(lengths, params):
    """Mistake: a positive mass for link 1 and the free out-of-plane entries filled in,
    but no mass moved across the elbow: link 2 stays too light for its first moment."""
    p = np.array(params, dtype=float).reshape(2, 10)
    p[0, 0] = 5.0
    return _complete_out_of_plane(p)


def _mass_added_without_compensation(lengths, params):
    """Mistake: link 2 made heavier without taking the same point mass from link 1."""
    p = np.array(params, dtype=float).reshape(2, 10)
    p[1, 0] = 2 * (p[1, 1] ** 2 + p[1, 2] ** 2) / p[1, 6]
    p[0, 0] = 5.0
    return _complete_out_of_plane(p)


@pytest.mark.parametrize("seed", SEEDS)
def test_consistent_parameters_mistakes_fail(seed):
    for ok, why in _judged("consistent_parameters", _no_mass_moved, seed):
        assert not ok and "body 2's inertia" in why, why
    ex = SPEC.exercise("consistent_parameters")
    for _, case in ex.case_inputs(seed):
        value = _mass_added_without_compensation(case["lengths"], case["params"])
        assert not ex.judge(case, value.tolist())[0]
        # it fails on the torques, whatever its consistency
        Y = spec_module._stacked_regressor(case["lengths"])
        given = np.asarray(case["params"])
        assert np.abs(Y @ (value - given)).max() > 1e-3 * np.abs(Y @ given).max()


# --- 3.4.4 fixed_passivity_torque ----------------------------------------------------


def _lib_terms(q, qd, lengths, masses):
    arm = planar_chain_tree(lengths, masses)
    return (kt.rnea_mass_matrix(arm, q), td.coriolis_matrix(arm, q, qd),
            kt.gravity_torques(arm, q, gravity=DOWN))


def _reference_velocities(q, qd, q_des, qd_des, qdd_des, lam):
    qd_r = qd_des - lam * (q - q_des)
    return qd_r, qdd_des - lam * (qd - qd_des), qd - qd_r


def test_fixed_passivity_torque_equals_the_law_with_lib_terms():
    _, cases = _cases("fixed_passivity_torque")
    for _, (q, qd, q_des, qd_des, qdd_des, lengths, masses, lam, k_d) in cases:
        M, C, g = _lib_terms(q, qd, lengths, masses)
        qd_r, qdd_r, s = _reference_velocities(q, qd, q_des, qd_des, qdd_des, lam)
        np.testing.assert_allclose(
            REF.fixed_passivity_torque(q, qd, q_des, qd_des, qdd_des, lengths, masses,
                                       lam, k_d),
            M @ qdd_r + C @ qd_r + g - k_d * s, rtol=RTOL)


def _storage_rate(law, case):
    """d/dt (s^T M s / 2) of the closed loop at the case's state, with lib's M, C, g."""
    q, qd, q_des, qd_des, qdd_des, lengths, masses, lam, k_d = case
    M, C, g = _lib_terms(q, qd, lengths, masses)
    _, qdd_r, s = _reference_velocities(q, qd, q_des, qd_des, qdd_des, lam)
    tau = law(q, qd, q_des, qd_des, qdd_des, lengths, masses, lam, k_d)
    qdd = np.linalg.solve(M, tau - C @ qd - g)
    # dM/dt = C + C^T
    return s @ M @ (qdd - qdd_r) + 0.5 * s @ (C + C.T) @ s, -k_d * s @ s


def test_the_fixed_law_makes_the_storage_decrease_and_the_buggy_one_does_not():
    """The statement's proof: with the fixed law d/dt (s^T M s / 2) = -s^T K_D s."""
    _, cases = _cases("fixed_passivity_torque")
    for _, case in cases:
        rate, dissipation = _storage_rate(REF.fixed_passivity_torque, case)
        np.testing.assert_allclose(rate, dissipation, rtol=1e-9)
        buggy_rate, _ = _storage_rate(_buggy, case)
        # far beyond the reference's round-off (1e-9 of the dissipation)
        assert abs(buggy_rate - dissipation) > 1e-6 * abs(dissipation)


def _buggy(q, qd, q_des, qd_des, qdd_des, lengths, masses, lam, k_d,
           christoffel=False, reference_rate=False):
    """The statement's function, with either of its two mistakes fixed."""
    l1, l2 = lengths
    m1, m2 = masses
    c2, s2 = np.cos(q[1]), np.sin(q[1])
    a = m1 * l1**2 / 3 + m2 * l1**2 + m2 * l2**2 / 3
    b, d = m2 * l1 * l2 / 2, m2 * l2**2 / 3
    M = np.array([[a + 2 * b * c2, d + b * c2], [d + b * c2, d]])
    if christoffel:
        C = -b * s2 * np.array([[qd[1], qd[0] + qd[1]], [-qd[0], 0.0]])
    else:
        C = -b * s2 * np.array([[2 * qd[1], qd[1]], [-qd[0], 0.0]])
    g = GRAVITY * np.array([(m1 / 2 + m2) * l1 * np.cos(q[0])
                            + m2 * l2 / 2 * np.cos(q[0] + q[1]),
                            m2 * l2 / 2 * np.cos(q[0] + q[1])])
    qd_r, qdd_r, s = _reference_velocities(q, qd, q_des, qd_des, qdd_des, lam)
    return M @ qdd_r + C @ (qd_r if reference_rate else qd) + g - k_d * s


def test_the_statements_buggy_C_is_valid_and_not_skew():
    """The first mistake is the one the chapter warns of: the right C qd, and
    dM/dt - 2C not skew."""
    _, cases = _cases("fixed_passivity_torque")
    for _, (q, qd, *_rest, lengths, masses, _lam, _kd) in cases:
        M, C, _ = _lib_terms(q, qd, lengths, masses)
        b = masses[1] * lengths[0] * lengths[1] / 2
        C_bug = -b * np.sin(q[1]) * np.array([[2 * qd[1], qd[1]], [-qd[0], 0.0]])
        np.testing.assert_allclose(C_bug @ qd, C @ qd, rtol=RTOL)
        S = (C + C.T) - 2 * C_bug
        assert np.abs(S + S.T).max() > 1e-3 * np.abs(S).max()


@pytest.mark.parametrize("mistake", [
    lambda *a: _buggy(*a),                          # handed in unchanged
    lambda *a: _buggy(*a, christoffel=True),        # only the Christoffel C
    lambda *a: _buggy(*a, reference_rate=True),     # only C times qd_r
])
def test_fixed_passivity_torque_partial_fixes_lose_points(mistake):
    assert not any(_passes("fixed_passivity_torque", mistake))


# --- 3.4.5 manipulator_facts ---------------------------------------------------------


def test_manipulator_facts_claims_checked_on_a_two_link_arm():
    arm = planar_chain_tree([0.5, 0.4], [3.0, 2.0])
    rng = np.random.default_rng(345)
    Q = rng.uniform(-np.pi, np.pi, (50, 2))
    M = td.crba(arm, Q)
    eig = np.linalg.eigvalsh(M)
    # A (true): a rotor inertia on M_11 raises every eigenvalue by 0 ... J_r (Weyl)
    raised = np.linalg.eigvalsh(M + np.diag([0.3, 0.0])) - eig
    assert raised.min() >= -1e-12 and raised.max() <= 0.3 + 1e-12
    # B (false): the smallest eigenvalue lies below both diagonal entries
    assert np.all(eig[:, 0] < np.minimum(M[:, 0, 0], M[:, 1, 1]))
    # E (false): joint 2 locked and only joint 1's torque recorded: a null vector of the
    # data changes the torques of other motions (with joint 2's torque recorded too, the
    # locked motion would determine every base parameter)
    n_s = 60
    Q_lock = np.column_stack([rng.normal(size=n_s), np.full(n_s, 0.7)])
    QD_lock = np.column_stack([rng.normal(size=n_s), np.zeros(n_s)])
    QDD_lock = np.column_stack([rng.normal(size=n_s), np.zeros(n_s)])
    Y_lock = td.regressor(arm, Q_lock, QD_lock, QDD_lock, gravity=DOWN)[:, 0, :]
    _, sv, Vt = np.linalg.svd(Y_lock)
    null = Vt[int(np.sum(sv > 1e-10 * sv[0])):]
    Y_free = td.regressor(arm, Q, rng.normal(size=(50, 2)), rng.normal(size=(50, 2)),
                          gravity=DOWN).reshape(-1, 20)
    assert np.abs(Y_lock @ null.T).max() < 1e-10 < np.abs(Y_free @ null.T).max()
    # F (false): C + N with N qd = 0 is valid and not zero where dM/dq = 0 (q2 = 0)
    q, qd = np.array([0.4, 0.0]), np.array([0.8, -1.3])
    assert np.abs(td.coriolis_matrix(arm, q, qd)).max() < 1e-12
    N = np.array([[qd[1], -qd[0]], [0.0, 0.0]])
    np.testing.assert_allclose(N @ qd, 0.0, atol=1e-15)
    assert REF.manipulator_facts == {"A", "C"}


# --- 3.4.6 rotor_inertias ------------------------------------------------------------


def _least_r(case, which, q2):
    """The least r on one joint (which = 0, 1) or on both alike (which = None) that
    meets mu_min at the elbow angles q2 (bisection on lib's CRBA eigenvalues)."""
    M = td.crba(planar_chain_tree(case["lengths"], case["masses"]),
                np.column_stack([np.zeros_like(q2), q2]))
    mu = case["mu_min"]

    def r_of(t):
        return np.array([t, t]) if which is None else t * np.eye(2)[which]

    lo, hi = 0.0, 1000.0 * mu
    if np.linalg.eigvalsh(M + np.diag(r_of(hi)))[:, 0].min() < mu:
        return None  # one joint alone cannot reach the bound
    for _ in range(100):
        mid = 0.5 * (lo + hi)
        ok = np.linalg.eigvalsh(M + np.diag(r_of(mid)))[:, 0].min() >= mu
        lo, hi = (lo, mid) if ok else (mid, hi)
    return r_of(hi)


def _rotor_cases(seed):
    ex = SPEC.exercise("rotor_inertias")
    return [{k: np.asarray(v, float) if isinstance(v, list) else v
             for k, v in c.items()} for _, c in ex.case_inputs(seed)]


@pytest.mark.parametrize("seed", SEEDS)
def test_rotor_reference_meets_every_case_and_lazy_designs_fail(seed):
    ex = SPEC.exercise("rotor_inertias")
    for case in _rotor_cases(seed):
        args = [case[a] for a in ex.args]
        ok, why = ex.judge(case, REF.rotor_inertias(*args).tolist())
        assert ok, why
        grid = spec_module._elbow_grid(case["q2_range"])
        lo_end, hi_end = case["q2_range"]
        lazy = {
            "the same inertia on both joints": _least_r(case, None, grid),
            "joint 1 only": _least_r(case, 0, grid),
            "designed for the stretched arm, q2 = 0": _least_r(case, 1, np.zeros(1)),
            "designed at the upper end": _least_r(case, 1, np.array([hi_end])),
            "designed at q2 = 90 deg": _least_r(case, 1, np.array([np.pi / 2])),
        }
        for label, design in lazy.items():
            if design is not None:
                assert not ex.judge(case, design.tolist())[0], (seed, label)
        # the bare arm's worst posture is the range's lower end (the statement asks)
        assert _least_r(case, 1, np.array([lo_end])) is not None
        assert ex.judge(case, _least_r(case, 1, np.array([lo_end])).tolist())[0]


def test_rotor_public_budgets_lie_between_the_least_sum_and_the_lazy_designs():
    """The public cases' rounded budgets keep the rule of the hidden ones."""
    for case in _rotor_cases(SPEC.seed)[:2]:
        least = spec_module._least_sum(case)
        assert least < case["budget"] <= (1 + 2 * spec_module._BUDGET_SLACK) * least
        at_zero = _least_r(case, 1, np.zeros(1)).sum()
        assert case["budget"] < at_zero
