"""The 3.3 exercises: reference answers against lib, typical mistakes lose points.

Each reference answer (solutions/lagrange_formulation.py, written without lib) is
checked against an independent computation with lib's recursive Newton-Euler
routines on every public and hidden case, and each typical wrong answer is shown
to lose points on the spec's own cases (compared with grader.compare, the
grader's comparison). The full-marks and blank-notebook gradings of the set are
in tests/test_grader_chapters.py.
"""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from _exercise_sets import ExerciseSet
from grader.compare import compare
from lib import kinematic_tree as kt
from lib import tree_dynamics as td
from lib.common import GRAVITY
from lib.spatial import spatial_inertia, transform

EXERCISES = ExerciseSet("lagrange_formulation")
SPEC, REF = EXERCISES.spec, EXERCISES.reference
_cases, _passes = EXERCISES.cases, EXERCISES.passes
#: RNEA against closed forms of the same mechanism: round-off of sums of O(10) terms.
RTOL = 1e-10


def _points(name):
    ex = SPEC.exercise(name)
    return [(True, p) for p in ex.public_points] + [
        (False, p) for p in [ex.sample(ex.rng(SPEC.seed)) for _ in range(ex.n_hidden)]]


def _evaluate(expr, point):
    symbols = sp.symbols(SPEC.exercise("rp_arm_mass_matrix").symbols)
    values = [point[str(s)] for s in symbols]
    return np.array(sp.lambdify(symbols, expr)(*values), dtype=float)


# --- 3.3.1, 3.3.2: the polar arm ------------------------------------------------------


def _rp_tree(p):
    """The polar arm in a horizontal plane as a kinematic tree: a revolute joint about z,
    then a prismatic joint along link 1's x axis (q2 = the slide of link 2's COM)."""
    z, x = [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]
    thin = 1e-9  # the in-plane moments do not enter a motion about z; keep them physical
    G1 = spatial_inertia(p["m1"], np.diag([thin, p["I1"], p["I1"]]), com=[p["r1"], 0, 0])
    G2 = spatial_inertia(p["m2"], np.diag([thin, p["I2"], p["I2"]]))
    return kt.kinematic_tree([-1, 0], ["revolute", "prismatic"], [z, x],
                             [np.eye(4), np.eye(4)], [G1, G2])


def test_rp_arm_reference_equals_the_rnea_of_the_same_tree():
    for _, p in _points("rp_arm_mass_matrix"):
        arm, q, qd = _rp_tree(p), [p["q1"], p["q2"]], [p["qd1"], p["qd2"]]
        np.testing.assert_allclose(_evaluate(REF.rp_arm_mass_matrix, p),
                                   kt.rnea_mass_matrix(arm, q), rtol=RTOL, atol=1e-12)
        np.testing.assert_allclose(_evaluate(REF.rp_arm_coriolis, p),
                                   td.coriolis_matrix(arm, q, qd), rtol=RTOL, atol=1e-12)


def _expression_score(name, answer):
    ex = SPEC.exercise(name)
    reference = getattr(REF, name)
    return [compare(_evaluate(reference, p).tolist(), _evaluate(answer, p).tolist(),
                    rtol=ex.rtol, atol=ex.atol, public=public).passed
            for public, p in _points(name)]


def test_rp_arm_mass_matrix_mistakes_lose_points():
    q2, m1, m2, r1, I1, I2 = sp.symbols("q2 m1 m2 r1 I1 I2")
    # link 2's rotation about its own centre forgotten
    no_spin = sp.Matrix([[I1 + m1 * r1**2 + m2 * q2**2, 0], [0, m2]])
    # the factor 1/2 of K kept in M
    halved = sp.Matrix([[I1 + I2 + m1 * r1**2 + m2 * q2**2, 0], [0, m2]]) / 2
    for wrong in (no_spin, halved):
        assert not any(_expression_score("rp_arm_mass_matrix", wrong))


def test_rp_arm_coriolis_another_valid_factorisation_loses_the_points():
    q2, qd1, qd2, m2 = sp.symbols("q2 qd1 qd2 m2")
    # C' qd = C qd (the same equations of motion), but C' is not the Christoffel matrix
    other = sp.Matrix([[2 * m2 * q2 * qd2, 0], [-m2 * q2 * qd1, 0]])
    qd = sp.Matrix([qd1, qd2])
    assert sp.simplify(other * qd - REF.rp_arm_coriolis * qd) == sp.zeros(2, 1)
    assert not any(_expression_score("rp_arm_coriolis", other))
    assert not any(_expression_score("rp_arm_coriolis", -REF.rp_arm_coriolis))


# --- 3.3.3 cart_pendulum_tau ------------------------------------------------------------


def _cart_tree(m_cart, m, r, I):
    """Cart on a prismatic joint along x, pendulum about z; theta from the downward y."""
    z, x = [0.0, 0.0, 1.0], [1.0, 0.0, 0.0]
    cart = spatial_inertia(m_cart, np.diag([0.1, 0.1, 0.1]))
    bob = spatial_inertia(m, np.diag([I, I, I]), com=[0.0, -r, 0.0])
    return kt.kinematic_tree([-1, 0], ["prismatic", "revolute"], [x, z],
                             [np.eye(4), np.eye(4)], [cart, bob])


def test_cart_pendulum_reference_equals_the_rnea():
    _, cases = _cases("cart_pendulum_tau")
    for _, (q, qd, qdd, m_cart, m, r, I) in cases:
        tree = _cart_tree(m_cart, m, r, I)
        np.testing.assert_allclose(
            REF.cart_pendulum_tau(q, qd, qdd, m_cart, m, r, I),
            kt.rnea(tree, q, qd, qdd, gravity=[0.0, -GRAVITY, 0.0]), rtol=RTOL, atol=1e-12)


def _cart_without_centrifugal(q, qd, qdd, m_cart, m, r, I):
    """Mistake: M qdd + g only (the velocity term left out)."""
    return REF.cart_pendulum_tau(q, np.zeros(2), qdd, m_cart, m, r, I)


def _cart_point_mass(q, qd, qdd, m_cart, m, r, I):
    """Mistake: the pendulum's own inertia about its centre of mass forgotten."""
    return REF.cart_pendulum_tau(q, qd, qdd, m_cart, m, r, 0.0)


@pytest.mark.parametrize("mistake", [_cart_without_centrifugal, _cart_point_mass])
def test_cart_pendulum_mistakes_lose_points(mistake):
    assert not any(_passes("cart_pendulum_tau", mistake))


# --- 3.3.4 pan_tilt_tau -------------------------------------------------------------------


def _pan_tilt_tree(J1, m2, l, d):
    """Turret about z; pivot at (0, d, 0.3) about -y, so that q2 > 0 raises the rod along +x."""
    turret = spatial_inertia(3.0, np.diag([J1, J1, J1]))  # only the z moment matters
    rod = spatial_inertia(m2, np.diag([0.0, m2 * l**2 / 12, m2 * l**2 / 12]),
                          com=[l / 2, 0.0, 0.0])
    return kt.kinematic_tree([-1, 0], ["revolute"] * 2, [[0, 0, 1.0], [0, -1.0, 0]],
                             [np.eye(4), transform(np.eye(3), [0.0, d, 0.3])],
                             [turret, rod])


def test_pan_tilt_reference_equals_the_rnea():
    _, cases = _cases("pan_tilt_tau")
    for _, (q, qd, qdd, J1, m2, l, d) in cases:
        tree = _pan_tilt_tree(J1, m2, l, d)
        np.testing.assert_allclose(REF.pan_tilt_tau(q, qd, qdd, J1, m2, l, d),
                                   kt.rnea(tree, q, qd, qdd), rtol=RTOL, atol=1e-12)


def _pan_tilt_no_offset(q, qd, qdd, J1, m2, l, d):
    """Mistake: the pivot offset d ignored."""
    return REF.pan_tilt_tau(q, qd, qdd, J1, m2, l, 0.0)


def _pan_tilt_point_at_centre(q, qd, qdd, J1, m2, l, d):
    """Mistake: the rod as its mass at its centre (m l^2 / 4 about the pivot, not / 3)."""
    a, b = m2 * l**2 / 4, m2 * d * l / 2
    s, c = np.sin(q[1]), np.cos(q[1])
    M = np.array([[J1 + m2 * d**2 + a * c**2, b * s], [b * s, a]])
    velocity = np.array([-2 * a * s * c * qd[0] * qd[1] + b * c * qd[1] ** 2,
                         a * s * c * qd[0] ** 2])
    return M @ qdd + velocity + np.array([0.0, m2 * GRAVITY * l * c / 2])


def _pan_tilt_one_coriolis(q, qd, qdd, J1, m2, l, d):
    """Mistake: the Coriolis term of joint 1 counted once (c_112 without c_121)."""
    a, s, c = m2 * l**2 / 3, np.sin(q[1]), np.cos(q[1])
    return REF.pan_tilt_tau(q, qd, qdd, J1, m2, l, d) + np.array(
        [a * s * c * qd[0] * qd[1], 0.0])


@pytest.mark.parametrize(
    "mistake", [_pan_tilt_no_offset, _pan_tilt_point_at_centre, _pan_tilt_one_coriolis])
def test_pan_tilt_mistakes_lose_points(mistake):
    assert not any(_passes("pan_tilt_tau", mistake))


# --- 3.3.5 fixed_coriolis -------------------------------------------------------------


def _buggy(dM, qd, half=False, index=False):
    """The statement's function, with either of its two errors fixed."""
    n = len(qd)
    C = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            for k in range(n):
                second = dM[j][i, k] if index else dM[k][i, j]
                C[i, j] += (0.5 if half else 1.0) * (dM[k][i, j] + second
                                                     - dM[i][j, k]) * qd[k]
    return C


def test_fixed_coriolis_reference_is_skew_and_gives_the_bias_of_a_real_tree():
    # on a real mass matrix: dM/dq_k by central differences of lib's RNEA mass matrix
    rng = np.random.default_rng(3305)
    arm = kt.kinematic_tree(
        [-1, 0, 1], ["revolute"] * 3, [[0, 0, 1.0], [0, 1.0, 0], [1.0, 0, 0]],
        [np.eye(4), transform(np.eye(3), [0.1, 0.2, 0.3]),
         transform(np.eye(3), [0.4, -0.1, 0.05])],
        [spatial_inertia(m, np.diag([0.02, 0.03, 0.04]), com=[0.1, 0.05, -0.02])
         for m in (2.0, 1.5, 1.0)])
    q, qd, step = rng.normal(size=3), rng.normal(size=3), 1e-6
    dM = np.stack([(kt.rnea_mass_matrix(arm, q + step * e)
                    - kt.rnea_mass_matrix(arm, q - step * e)) / (2 * step)
                   for e in np.eye(3)])
    C = REF.fixed_coriolis(dM, qd)
    # truncation and round-off of the central differences: 1e-7 relative
    np.testing.assert_allclose(C, td.coriolis_matrix(arm, q, qd), rtol=1e-7, atol=1e-8)
    Md = np.einsum("kij,k->ij", dM, qd)
    np.testing.assert_allclose(Md - 2 * C, -(Md - 2 * C).T, atol=1e-12)


@pytest.mark.parametrize("mistake", [
    lambda dM, qd: _buggy(dM, qd),                  # handed in unchanged
    lambda dM, qd: _buggy(dM, qd, half=True),       # a valid C, not Christoffel's
    lambda dM, qd: _buggy(dM, qd, index=True),      # twice Christoffel's
])
def test_fixed_coriolis_partial_fixes_lose_points(mistake):
    assert not any(_passes("fixed_coriolis", mistake))


def test_the_half_fixed_version_still_gives_the_right_bias():
    """The statement's 'which error changes only C' has an answer: the index error."""
    _, cases = _cases("fixed_coriolis")
    for _, (dM, qd) in cases:
        np.testing.assert_allclose(_buggy(dM, qd, half=True) @ qd,
                                   REF.fixed_coriolis(dM, qd) @ qd, rtol=1e-12, atol=1e-12)


# --- 3.3.6 lagrange_facts ---------------------------------------------------------------


def test_lagrange_facts_E_is_false_M_never_depends_on_q1():
    """Option E: rotating the whole arm about the first axis leaves M unchanged."""
    arm = _pan_tilt_tree(0.1, 1.0, 0.5, 0.1)
    q = np.array([0.3, 0.7])
    np.testing.assert_allclose(kt.rnea_mass_matrix(arm, q),
                               kt.rnea_mass_matrix(arm, q + [1.9, 0.0]), rtol=1e-12)
    assert REF.lagrange_facts == {"A", "B", "D"}


# --- 3.3.7 decoupled_arm -----------------------------------------------------------------


def _judge(case, design):
    return SPEC.exercise("decoupled_arm").judge(case, design)


def _design_cases():
    ex = SPEC.exercise("decoupled_arm")
    return [inputs for _, inputs in ex.case_inputs(SPEC.seed)]


def test_counterweight_reference_meets_every_case():
    for case in _design_cases():
        args = [case[a] for a in SPEC.exercise("decoupled_arm").args]
        ok, why = _judge(case, REF.decoupled_arm(*args))
        assert ok, why


@pytest.mark.parametrize("d1_fraction", [1.0, 0.2])
def test_counterweight_extremes_fail_every_case(d1_fraction):
    """d_1 = d_max adds too much inertia, a short d_1 too much mass (d_2 = d_max, balanced)."""
    for case in _design_cases():
        l1, l2 = case["lengths"]
        m1, m2 = case["masses"]
        d = case["d_max"]
        mc2 = m2 * l2 / (2 * d)
        d1 = d1_fraction * d
        design = [(m1 * l1 / 2 + (m2 + mc2) * l1) / d1, d1, mc2, d]
        assert not _judge(case, design)[0]


def test_counterweight_unbalanced_design_fails():
    """Balancing each link about its own joint only (forgetting link 2's weight on link 1):
    M is constant, gravity is not cancelled."""
    for case in _design_cases():
        l1, l2 = case["lengths"]
        m1, m2 = case["masses"]
        d = case["d_max"]
        design = [m1 * l1 / (2 * 0.6 * d), 0.6 * d, m2 * l2 / (2 * d), d]
        ok, why = _judge(case, design)
        assert not ok and "gravity" in why


def test_counterweight_gravity_only_design_fails_the_coriolis_requirement():
    """Gravity cancelled by link 1's counterweight alone (link 2 unbalanced): C is not zero."""
    for case in _design_cases():
        l1, l2 = case["lengths"]
        m1, m2 = case["masses"]
        d = case["d_max"]
        # a tiny counterweight on link 2; link 1's cancels gravity only at q2 = 0, so both
        # requirements fail; the judge names the Coriolis torque
        design = [(m1 * l1 / 2 + m2 * (l1 + l2 / 2)) / (0.6 * d), 0.6 * d, 1e-6, d]
        ok, why = _judge(case, design)
        assert not ok and "Coriolis" in why
