"""The 3.2 exercises: reference answers against lib and Pinocchio, typical mistakes lose points.

Each reference answer (solutions/recursive_newton_euler.py, written without lib) is
checked against an independent computation with lib (or Pinocchio's conversions) on
every public and hidden case, and each typical wrong answer a student hands in is shown
to lose points on the spec's own cases (compared with grader.compare, the grader's
comparison). The generic tests (test_grader_chapters, test_exercise_coverage, ...)
grade the set as a whole: references full marks, the untouched notebook zero.
"""

from __future__ import annotations

import importlib.util

import jupytext
import numpy as np
import pinocchio as pin
import pytest
import sympy as sp

from grader.compare import compare
from _exercise_sets import ExerciseSet
from grader_helpers import REPO
from lib import kinematic_tree as kt
from lib.common import GRAVITY
from lib.models import pinocchio_tree as ptree
from lib.models.robots import load_robot, robot_urdf_path
from lib.spatial import spatial_inertia

EXERCISES = ExerciseSet("recursive_newton_euler", keywords=True)
SPEC, REF = EXERCISES.spec, EXERCISES.reference
_cases, _passes = EXERCISES.cases, EXERCISES.passes
CHAPTER_SPEC = importlib.import_module("grader.chapters.recursive_newton_euler")

#: lib and the references run the same float64 algebra in another order on trees of
#: at most six bodies with O(1) entries: round-off is ~1e-14, 1e-10 leaves a margin
RTOL = 1e-10


def _skew(w):
    return np.array([[0.0, -w[2], w[1]], [w[2], 0.0, -w[0]], [-w[1], w[0], 0.0]])


def _adjoint(T):
    """[Ad_T] for T = (R, p): maps a twist in T's child frame to its parent frame."""
    R, p = T[:3, :3], T[:3, 3]
    out = np.zeros((6, 6))
    out[:3, :3] = R
    out[3:, 3:] = R
    out[3:, :3] = _skew(p) @ R
    return out


def _ad(V):
    out = np.zeros((6, 6))
    out[:3, :3] = _skew(V[:3])
    out[3:, 3:] = _skew(V[:3])
    out[3:, :3] = _skew(V[3:])
    return out


def _joint_pose(placement, axis, angle):
    """T_{parent, i}(q) = placement @ (rotation by angle about axis)."""
    a = np.asarray(axis, dtype=float)
    a = a / np.linalg.norm(a)
    K = _skew(a)
    rot = np.eye(4)
    rot[:3, :3] = np.eye(3) + np.sin(angle) * K + (1.0 - np.cos(angle)) * K @ K
    return np.asarray(placement, dtype=float) @ rot


def _model(c):
    n = len(c["parents"])
    return kt.kinematic_tree([int(p) for p in c["parents"]], ["revolute"] * n, c["axes"],
                             c["placements"], c["inertias"])


# --- 3.2.1 tree_rnea, 3.2.3 bias_forces_fixed ---------------------------------------


def test_tree_rnea_reference_equals_lib():
    _, cases = _cases("tree_rnea")
    assert any(len(set(c["parents"])) < len(c["parents"]) for _, c in cases)  # branches
    for _, c in cases:
        np.testing.assert_allclose(
            REF.tree_rnea(**c), kt.rnea(_model(c), c["q"], c["qd"], c["qdd"], c["gravity"]),
            rtol=RTOL, atol=1e-12)


def test_bias_forces_reference_equals_lib():
    _, cases = _cases("bias_forces_fixed")
    for _, c in cases:
        np.testing.assert_allclose(
            REF.bias_forces_fixed(**c),
            kt.bias_forces(_model(c), c["q"], c["qd"], c["gravity"]), rtol=RTOL, atol=1e-12)


def _rnea_variant(parents, placements, axes, inertias, q, qd, qdd, gravity, *,
                  forward_pose=False, gravity_sign=-1.0, ad_term=True, carry_child=True):
    """The RNEA with one classic mistake switched on (the reference when all are off)."""
    n = len(parents)
    V, A, F, X, S = np.zeros((n, 6)), np.zeros((n, 6)), np.zeros((n, 6)), [], []
    for i in range(n):
        T = _joint_pose(placements[i], axes[i], q[i])
        X.append(_adjoint(T if forward_pose else np.linalg.inv(T)))
        S.append(np.concatenate([np.asarray(axes[i]) / np.linalg.norm(axes[i]),
                                 np.zeros(3)]))
        if parents[i] < 0:
            V_p = np.zeros(6)
            A_p = np.concatenate([np.zeros(3), gravity_sign * np.asarray(gravity)])
        else:
            V_p, A_p = V[parents[i]], A[parents[i]]
        V[i] = X[i] @ V_p + S[i] * qd[i]
        A[i] = X[i] @ A_p + S[i] * qdd[i]
        if ad_term:
            A[i] += _ad(V[i]) @ S[i] * qd[i]
        G = np.asarray(inertias[i])
        F[i] = G @ A[i] - _ad(V[i]).T @ G @ V[i]
    tau = np.zeros(n)
    for i in range(n - 1, -1, -1):
        tau[i] = S[i] @ F[i]
        if parents[i] >= 0:
            F[parents[i]] += X[i].T @ F[i] if carry_child else F[i]
    return tau


def test_the_variant_without_mistakes_is_the_reference():
    passed = _passes("tree_rnea", _rnea_variant)
    assert all(passed)


@pytest.mark.parametrize("mistake", [
    {"forward_pose": True},  # Ad of T_{pa, i} instead of T_{i, pa}
    {"gravity_sign": 1.0},  # the ground accelerating downwards
    {"ad_term": False},  # the joint-rate term ad_V S qd forgotten
    {"carry_child": False},  # a child's wrench added in the child's frame
])
def test_tree_rnea_mistakes_lose_every_hidden_case(mistake):
    passed = _passes("tree_rnea", lambda **c: _rnea_variant(**c, **mistake))
    assert not any(passed[2:]), passed
    assert sum(passed) <= 1, passed


def _buggy():
    """The notebook's buggy_bias_forces, executed from the notebook's own cell."""
    notebook = jupytext.read(REPO / "exercises" / "recursive_newton_euler.md")
    source = next(c.source for c in notebook.cells
                  if c.cell_type == "code" and "def buggy_bias_forces" in c.source)
    namespace = {"np": np}
    exec(source, namespace)  # noqa: S102 - the repository's own notebook
    return namespace["buggy_bias_forces"]


def test_the_given_routine_fails_every_case_and_has_exactly_the_two_stated_mistakes():
    buggy = _buggy()
    assert not any(_passes("bias_forces_fixed", buggy))
    _, cases = _cases("bias_forces_fixed")
    for _, c in cases:
        zero = np.zeros(len(c["q"]))
        # the two mistakes, and nothing else (same arithmetic: round-off only)
        np.testing.assert_allclose(
            buggy(**c), _rnea_variant(**c, qdd=zero, forward_pose=True, gravity_sign=1.0),
            rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("fixed", [{"forward_pose": True}, {"gravity_sign": 1.0}])
def test_fixing_only_one_mistake_fails_every_case(fixed):
    def half_fixed(**c):
        return _rnea_variant(**c, qdd=np.zeros(len(c["q"])), **fixed)

    assert not any(_passes("bias_forces_fixed", half_fixed))


# --- 3.2.2 rp_arm_torques --------------------------------------------------------------


def _rp_with_lib(p):
    """The RP arm as a lib tree: a rod on a revolute joint, a point mass sliding on it."""
    rod = spatial_inertia(p["m1"], np.diag([0.0, 1.0, 1.0]) * p["m1"] * p["l1"] ** 2 / 12,
                          com=[p["l1"] / 2, 0.0, 0.0])
    collar = spatial_inertia(p["m2"], np.zeros((3, 3)))
    arm = kt.kinematic_tree([-1, 0], ["revolute", "prismatic"], [[0, 0, 1.0], [1.0, 0, 0]],
                            [np.eye(4)] * 2, [rod, collar])
    return kt.rnea(arm, [p["q1"], p["q2"]], [p["qd1"], p["qd2"]], [p["qdd1"], p["qdd2"]],
                   gravity=[0.0, -p["g"], 0.0])


def _evaluate(expr, p):
    return np.array(expr.subs({sp.Symbol(k): v for k, v in p.items()}), dtype=float).ravel()


def test_rp_arm_reference_equals_lib():
    ex = SPEC.exercise("rp_arm_torques")
    for _, p in ex.case_inputs(SPEC.seed):
        np.testing.assert_allclose(_evaluate(REF.rp_arm_torques, p), _rp_with_lib(p),
                                   rtol=RTOL, atol=1e-12)


def test_rp_arm_mistakes_fail_every_case():
    ex = SPEC.exercise("rp_arm_torques")
    q2, qd1, qd2, m2 = sp.symbols("q2 qd1 qd2 m2")
    wrong = [
        REF.rp_arm_torques - sp.Matrix([m2 * q2 * qd1 * qd2, 0]),  # Coriolis without 2
        REF.rp_arm_torques + sp.Matrix([0, 2 * m2 * q2 * qd1**2]),  # centrifugal sign
    ]
    for expr in wrong:
        for public, p in ex.case_inputs(SPEC.seed):
            assert not compare(_evaluate(REF.rp_arm_torques, p).tolist(),
                               _evaluate(expr, p).tolist(), rtol=ex.rtol, atol=ex.atol,
                               public=public).passed


# --- 3.2.4 rnea_facts ------------------------------------------------------------------


def test_rnea_facts_e_and_d_numerically():
    """E: with gravity on, every RNEA column is M's plus g(q); D: RNEA(q, qd, 0) holds
    g(q) besides C qd."""
    ur5 = load_robot("ur5")
    rng = np.random.default_rng(32)
    q, qd = rng.uniform(-np.pi, np.pi, 6), rng.normal(size=6)
    columns = np.array([kt.rnea(ur5, q, np.zeros(6), e) for e in np.eye(6)]).T
    g = kt.gravity_torques(ur5, q)
    # 6 x 6 products of O(10) entries: round-off ~1e-14
    np.testing.assert_allclose(columns, kt.rnea_mass_matrix(ur5, q) + g[:, None],
                               rtol=1e-12, atol=1e-12)
    assert np.abs(g).max() > 1.0  # so D and E are not vacuous
    np.testing.assert_allclose(kt.rnea(ur5, q, qd, np.zeros(6)),
                               kt.bias_forces(ur5, q, qd), rtol=1e-12, atol=1e-12)
    assert REF.rnea_facts == {"A", "C", "E"}


# --- 3.2.5 counterweight_design --------------------------------------------------------


def test_counterweight_reference_passes_and_the_judge_finds_the_analytic_peaks():
    ex, cases = _cases("counterweight_design")
    for _, c in cases:
        design = REF.counterweight_design(**c)
        assert CHAPTER_SPEC._judge_counterweight(c, design)[0]
        m_c, d = design
        a = c["m1"] * c["l1"] / 2 + (c["m2"] + c["m_payload"] + m_c) * c["l1"]
        b = c["m2"] * c["l2"] / 2 + c["m_payload"] * c["l2"] - m_c * d
        tau = kt.gravity_torques(CHAPTER_SPEC.balanced_arm(c, m_c, d), CHAPTER_SPEC._GRID,
                                 gravity=[0.0, -GRAVITY, 0.0])
        # the grid holds the extreme poses: peaks g (|a| + |b|) and g |b| to round-off
        np.testing.assert_allclose(np.abs(tau).max(axis=0),
                                   GRAVITY * np.array([abs(a) + abs(b), abs(b)]),
                                   rtol=1e-12)


@pytest.mark.parametrize("naive", [
    lambda c: [0.0, 0.0],  # no counterweight: joint 2 overloaded
    # link 2 balanced completely by a counterweight half as far out: joint 1 overloaded
    lambda c: [2 * (c["m2"] / 2 + c["m_payload"]) * c["l2"] / c["d_max"], c["d_max"] / 2],
    # the reference's moment m_c d at a third of the distance
    lambda c: [3 * REF.counterweight_design(**c)[0], c["d_max"] / 3],
])
def test_counterweight_naive_designs_fail_every_case(naive):
    _, cases = _cases("counterweight_design")
    assert not any(CHAPTER_SPEC._judge_counterweight(c, naive(c))[0] for _, c in cases)


# --- 3.2.6 pinocchio_state -------------------------------------------------------------


def test_pinocchio_state_reference_equals_lib_conversions_on_solo12():
    """The twelve-joint hidden case is a Solo-12 state: the reference's three parts equal
    lib.models.pinocchio_tree's conversions with a Pinocchio model read from the URDF."""
    solo = load_robot("solo12")
    pin_solo = pin.buildModelFromUrdf(str(robot_urdf_path("solo12")),
                                      pin.JointModelFreeFlyer())
    _, cases = _cases("pinocchio_state")
    c = next(c for _, c in cases if len(c["q"]) == solo.nq)
    out = REF.pinocchio_state(**c)
    nq, nv = solo.nq, solo.nv
    np.testing.assert_array_equal(out[:nq], ptree.pinocchio_configuration(solo, pin_solo,
                                                                          c["q"]))
    np.testing.assert_array_equal(out[nq:nq + nv], ptree.pinocchio_velocity(solo, pin_solo,
                                                                            c["v"]))
    np.testing.assert_array_equal(out[nq + nv:], ptree.from_pinocchio_forces(
        solo, pin_solo, c["tau_pin"]))


@pytest.mark.parametrize("mistake", [
    lambda q, v, t: np.concatenate([q, REF.pinocchio_state(q, v, t)[len(q):]]),
    lambda q, v, t: np.concatenate([REF.pinocchio_state(q, v, t)[:len(q)], v,
                                    REF.pinocchio_state(q, v, t)[len(q) + len(v):]]),
    lambda q, v, t: np.concatenate([REF.pinocchio_state(q, v, t)[:len(q) + len(v)], t]),
])
def test_pinocchio_state_each_forgotten_reorder_fails_every_case(mistake):
    assert not any(_passes("pinocchio_state",
                           lambda q, v, tau_pin: mistake(q, v, tau_pin)))
