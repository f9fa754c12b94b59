"""The 3.5 exercises: reference answers against lib, typical mistakes lose points.

Each reference answer (solutions/crba_and_aba.py, written without lib) is checked
against an independent computation with lib (a finite difference of 3.1's change of
frame, lib's CRBA, ABA and centroidal momentum matrix, the Schur complement of a
floating subtree's mass matrix) on every public and hidden case, and each typical
wrong answer a student hands in is shown to lose points on the spec's own cases
(compared with grader.compare, the grader's comparison). The generic tests
(test_grader_chapters, test_exercise_coverage, ...) grade the set as a whole:
references full marks, the untouched notebook zero.
"""

from __future__ import annotations

import importlib.util

import jupytext
import numpy as np
import pytest
from scipy.integrate import quad
from scipy.linalg import expm
from scipy.optimize import brentq

from _exercise_sets import ExerciseSet
from grader_helpers import REPO
from lib import kinematic_tree as kt
from lib import tree_dynamics as td
from lib.spatial import inverse_transform, spatial_inertia, transform_spatial_inertia

EXERCISES = ExerciseSet("crba_and_aba", keywords=True)
SPEC, REF = EXERCISES.spec, EXERCISES.reference
_cases, _passes = EXERCISES.cases, EXERCISES.passes
CHAPTER_SPEC = importlib.import_module("grader.chapters.crba_and_aba")

#: lib and the references run the same float64 algebra in another order on trees of
#: at most six bodies with O(1) to O(100) entries: round-off is ~1e-14, 1e-10 leaves
#: a margin
RTOL = 1e-10


def _skew(w):
    return np.array([[0.0, -w[2], w[1]], [w[2], 0.0, -w[0]], [-w[1], w[0], 0.0]])


def _ad(V):
    out = np.zeros((6, 6))
    out[:3, :3] = out[3:, 3:] = _skew(V[:3])
    out[3:, :3] = _skew(V[3:])
    return out


def _model(c):
    n = len(c["parents"])
    return kt.kinematic_tree([int(p) for p in c["parents"]], ["revolute"] * n, c["axes"],
                             c["placements"], c["inertias"])


def _kinematics(c):
    """S_i and X_i = [Ad_{T_{i, pa(i)}}] of a case, from lib's joint adjoints."""
    model = _model(c)
    X = kt._joint_adjoints(model, np.asarray(c["q"], dtype=float)[None, :])[:, 0]
    return [s[:, 0] for s in model.S], X


# --- 3.5.1 inertia_rate -------------------------------------------------------------


def test_inertia_rate_reference_is_the_derivative_of_the_change_of_frame():
    """G_0(t) = G_b seen from {0} while the body moves with the twist V (in {0}):
    T_{0b}(t) = exp([V] t) with {b} = {0} at t = 0; a central difference of lib's
    transform_spatial_inertia. Step 1e-5: truncation ~1e-10, round-off ~1e-11 of
    O(1) entries, so 1e-7 relative to the largest entry."""
    _, cases = _cases("inertia_rate")
    for _, c in cases:
        G, V = np.asarray(c["G"]), np.asarray(c["V"])
        twist = np.zeros((4, 4))
        twist[:3, :3], twist[:3, 3] = _skew(V[:3]), V[3:]
        step = 1e-5
        seen = [transform_spatial_inertia(G, inverse_transform(expm(twist * t)))
                for t in (-step, step)]
        rate = (seen[1] - seen[0]) / (2 * step)
        np.testing.assert_allclose(REF.inertia_rate(G, V), rate, rtol=0,
                                   atol=1e-7 * np.abs(rate).max())


def test_the_statements_self_checks_hold_for_the_reference():
    """3.5.1's test-yourself: dG/dt symmetric; zero for a body symmetric about an axis
    through its centre of mass spinning about that axis (nonzero when the axis is moved
    off the centre); (dG/dt) V = -ad_V^T G V, the Newton-Euler velocity product.
    Sums of a few products of O(1) numbers: 1e-14."""
    _, cases = _cases("inertia_rate")
    for _, c in cases:
        G, V = np.asarray(c["G"]), np.asarray(c["V"])
        rate = REF.inertia_rate(G, V)
        np.testing.assert_allclose(rate, rate.T, rtol=0, atol=1e-14)
        np.testing.assert_allclose(rate @ V, -_ad(V).T @ G @ V, rtol=1e-12, atol=1e-14)
    centre = np.array([0.3, -0.2, 0.5])
    G = spatial_inertia(2.0, np.diag([0.1, 0.1, 0.15]), com=centre)
    w = np.array([0.0, 0.0, 2.0])
    spin = np.concatenate([w, -np.cross(w, centre)])
    np.testing.assert_allclose(REF.inertia_rate(G, spin), 0.0, atol=1e-14)
    off = np.concatenate([w, -np.cross(w, centre + [0.1, 0.0, 0.0])])
    assert np.abs(REF.inertia_rate(G, off)).max() > 0.1


@pytest.mark.parametrize("mistake", [
    lambda G, V: _ad(V).T @ G + G @ _ad(V),  # both signs flipped
    lambda G, V: _ad(V) @ G - G @ _ad(V),  # the motion cross product on both sides
    lambda G, V: -_ad(V).T @ G,  # only the force cross product's term
])
def test_inertia_rate_mistakes_fail_every_case(mistake):
    assert not any(_passes("inertia_rate", mistake))


# --- 3.5.2 tree_crba ------------------------------------------------------------------


def test_tree_crba_reference_equals_lib_and_the_rnea_columns():
    _, cases = _cases("tree_crba")
    assert any(len(set(c["parents"])) < len(c["parents"]) for _, c in cases)  # branches
    for _, c in cases:
        M = REF.tree_crba(**c)
        np.testing.assert_allclose(M, td.crba(_model(c), c["q"]), rtol=RTOL, atol=1e-12)
        np.testing.assert_allclose(M, kt.rnea_mass_matrix(_model(c), c["q"]),
                                   rtol=RTOL, atol=1e-12)


def test_the_y_tree_has_the_zeros_of_its_branches():
    """Bodies 1 and 2 of the public Y hang from body 0 on different branches."""
    _, cases = _cases("tree_crba")
    M = REF.tree_crba(**cases[0][1])
    assert list(cases[0][1]["parents"]) == [-1, 0, 0]
    assert M[1, 2] == 0.0 and M[2, 1] == 0.0
    assert np.all(np.abs(M[0]) > 0.01)


def _crba_variant(parents, placements, axes, inertias, q, *, carry_composite=True,
                  transpose=True, composite=True):
    """The CRBA with one classic mistake switched on (the reference when all are off)."""
    parents = [int(p) for p in parents]
    S, X = _kinematics(dict(parents=parents, placements=placements, axes=axes,
                            inertias=inertias, q=q))
    n = len(parents)
    Ic = [np.array(G, dtype=float) for G in inertias]
    if composite:
        for i in range(n - 1, -1, -1):
            if parents[i] >= 0:
                Ic[parents[i]] += X[i].T @ Ic[i] @ X[i] if carry_composite else Ic[i]
    M = np.zeros((n, n))
    for j in range(n):
        F = Ic[j] @ S[j]
        M[j, j] = S[j] @ F
        i = j
        while parents[i] >= 0:
            F = X[i].T @ F if transpose else X[i] @ F
            i = parents[i]
            M[i, j] = M[j, i] = S[i] @ F
    return M


def test_the_crba_variant_without_mistakes_is_the_reference():
    assert all(_passes("tree_crba", _crba_variant))


@pytest.mark.parametrize("mistake", [
    {"carry_composite": False},  # a child's composite inertia added in its own frame
    {"transpose": False},  # the momentum carried to the parent by X instead of X^T
    {"composite": False},  # each body's own inertia instead of its subtree's
])
def test_tree_crba_mistakes_fail_every_case(mistake):
    assert not any(_passes("tree_crba", lambda **c: _crba_variant(**c, **mistake)))


# --- 3.5.3 articulated_inertias ------------------------------------------------------


def _subtree(parents, i):
    out = []
    for j in range(len(parents)):
        k = j
        while k >= 0 and k != i:
            k = parents[k]
        if k == i:
            out.append(j)
    return out


def _floating_subtree_inertia(c, i):
    """Body i's subtree cut loose on a free joint (at rest, no gravity), its braked
    joints made fixed at their angles: the force-to-acceleration map of body i with
    the free joints moving is the Schur complement of lib's mass matrix on the free
    joint's block (its velocity is body i's twist in {i})."""
    parents = [int(p) for p in c["parents"]]
    sub = _subtree(parents, i)
    index = {b: k for k, b in enumerate(sub)}
    locked = [bool(c["locked"][b]) for b in sub]
    placements = [np.eye(4)]
    for b, held in zip(sub[1:], locked[1:]):
        pose = np.array(c["placements"][b], dtype=float)
        if held:  # a fixed joint at the braked angle: the rotation by q_b about a_b
            a = np.asarray(c["axes"][b], dtype=float) / np.linalg.norm(c["axes"][b])
            pose[:3, :3] = pose[:3, :3] @ expm(_skew(a) * c["q"][b])
        placements.append(pose)
    model = kt.kinematic_tree(
        [-1] + [index[parents[b]] for b in sub[1:]],
        ["free"] + ["fixed" if held else "revolute" for held in locked[1:]],
        [c["axes"][b] for b in sub], placements, [c["inertias"][b] for b in sub])
    q = np.concatenate([[0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
                        [c["q"][b] for b, held in zip(sub[1:], locked[1:]) if not held]])
    M = td.crba(model, q)
    return M[:6, :6] - M[:6, 6:] @ np.linalg.solve(M[6:, 6:], M[6:, :6])


def _with_locks(c, value):
    return dict(c, locked=np.full(len(c["parents"]), value, dtype=int))


def test_articulated_inertias_reference_is_the_schur_complement_of_a_floating_subtree():
    _, cases = _cases("articulated_inertias")
    assert all(0 < sum(c["locked"][1:]) < len(c["parents"]) - 1 for _, c in cases)
    for _, c in cases:
        for case in (c, _with_locks(c, 0), _with_locks(c, 1)):
            IA = REF.articulated_inertias(**case)
            for i in range(len(c["parents"])):
                np.testing.assert_allclose(IA[i], _floating_subtree_inertia(case, i),
                                           rtol=RTOL, atol=1e-12)


def test_all_brakes_give_the_composite_inertias_and_none_the_articulated_ones():
    """All braked: S_i^T G_i S_i of the composite inertia is M_ii (CRBA); all free:
    S_i^T G^A_i S_i = 1 / (M_sub^-1)_ii (the test the statement suggests), never more
    than M_ii (option F of 3.5.5), and less for a body with children."""
    _, cases = _cases("articulated_inertias")
    for _, c in cases:
        parents = [int(p) for p in c["parents"]]
        M = td.crba(_model(c), c["q"])
        S, _ = _kinematics(c)
        rigid = REF.articulated_inertias(**_with_locks(c, 1))
        free = REF.articulated_inertias(**_with_locks(c, 0))
        for i in range(len(parents)):
            sub = _subtree(parents, i)
            np.testing.assert_allclose(S[i] @ rigid[i] @ S[i], M[i, i], rtol=RTOL)
            d = S[i] @ free[i] @ S[i]
            np.testing.assert_allclose(d, 1.0 / np.linalg.inv(M[np.ix_(sub, sub)])[0, 0],
                                       rtol=RTOL)
            assert d <= M[i, i] * (1 + 1e-12)
            if len(sub) > 1:  # a body with children moves less inertia when they are free
                assert d < M[i, i] * (1 - 1e-6)


def _articulated_variant(parents, placements, axes, inertias, q, locked, *, sign=-1.0,
                         carry=True, locks="child"):
    """The reference with one classic mistake switched on: the projection's sign, the
    child's share added in its own frame, or the brakes read wrongly (``locks``:
    "child" right, "none" ignored, "all" every joint braked, "parent" the brake of the
    receiving body instead of the child's, "inverted" 1 read as free)."""
    parents = [int(p) for p in parents]
    S, X = _kinematics(dict(parents=parents, placements=placements, axes=axes,
                            inertias=inertias, q=q))
    IA = [np.array(G, dtype=float) for G in inertias]
    for i in range(len(parents) - 1, -1, -1):
        if parents[i] >= 0:
            held = {"child": locked[i], "none": 0, "all": 1, "inverted": 1 - locked[i],
                    "parent": locked[parents[i]]}[locks]
            share = IA[i]
            if not held:
                U = IA[i] @ S[i]
                share = IA[i] + sign * np.outer(U, U) / (S[i] @ U)
            IA[parents[i]] += X[i].T @ share @ X[i] if carry else share
    return np.array(IA)


def test_the_articulated_variant_without_mistakes_is_the_reference():
    assert all(_passes("articulated_inertias", _articulated_variant))


@pytest.mark.parametrize("mistake", [
    {"sign": 1.0},  # + U D^-1 U^T: the joint's direction added instead of projected out
    {"carry": False},  # the child's share added in the child's frame
    {"locks": "none"},  # the brakes ignored: the ABA's articulated inertias
    {"locks": "all"},  # every joint braked: the CRBA's composite inertias
    {"locks": "parent"},  # the receiving body's brake decides
    {"locks": "inverted"},  # 1 read as free
])
def test_articulated_inertias_mistakes_fail_every_case(mistake):
    assert not any(_passes("articulated_inertias",
                           lambda **c: _articulated_variant(**c, **mistake)))


# --- 3.5.4 aba_fixed -------------------------------------------------------------------


def test_aba_reference_equals_lib_and_m_inverse():
    _, cases = _cases("aba_fixed")
    for _, c in cases:
        model = _model(c)
        qdd = REF.aba_fixed(**c)
        np.testing.assert_allclose(qdd, td.aba(model, c["q"], c["qd"], c["tau"],
                                               c["gravity"]), rtol=RTOL, atol=1e-11)
        h = kt.bias_forces(model, c["q"], c["qd"], c["gravity"])
        np.testing.assert_allclose(qdd, np.linalg.solve(td.crba(model, c["q"]),
                                                        c["tau"] - h),
                                   rtol=1e-9, atol=1e-10)


def _buggy():
    """The notebook's buggy_aba, executed from the notebook's own cell."""
    notebook = jupytext.read(REPO / "exercises" / "crba_and_aba.md")
    source = next(c.source for c in notebook.cells
                  if c.cell_type == "code" and "def buggy_aba" in c.source)
    namespace = {"np": np}
    exec(source, namespace)  # noqa: S102 - the repository's own notebook
    return namespace["buggy_aba"]


def _aba_variant(parents, placements, axes, inertias, q, qd, tau, gravity, *,
                 bias_sign=-1.0, projection_sign=-1.0):
    """The ABA with the notebook's two mistakes switchable (the reference with -1, -1)."""
    parents = [int(p) for p in parents]
    S, X = _kinematics(dict(parents=parents, placements=placements, axes=axes,
                            inertias=inertias, q=q))
    n = len(parents)
    V, c, pA = np.zeros((n, 6)), np.zeros((n, 6)), np.zeros((n, 6))
    IA = [np.array(G, dtype=float) for G in inertias]
    for i in range(n):
        V[i] = X[i] @ (np.zeros(6) if parents[i] < 0 else V[parents[i]]) + S[i] * qd[i]
        c[i] = _ad(V[i]) @ S[i] * qd[i]
        pA[i] = bias_sign * _ad(V[i]).T @ IA[i] @ V[i]
    U, D, u = np.zeros((n, 6)), np.zeros(n), np.zeros(n)
    for i in range(n - 1, -1, -1):
        U[i], D[i] = IA[i] @ S[i], S[i] @ IA[i] @ S[i]
        u[i] = tau[i] - S[i] @ pA[i]
        if parents[i] >= 0:
            Ia = IA[i] + projection_sign * np.outer(U[i], U[i]) / D[i]
            IA[parents[i]] = IA[parents[i]] + X[i].T @ Ia @ X[i]
            pA[parents[i]] += X[i].T @ (pA[i] + Ia @ c[i] + U[i] * u[i] / D[i])
    qdd, A = np.zeros(n), np.zeros((n, 6))
    for i in range(n):
        if parents[i] < 0:
            A_p = np.concatenate([np.zeros(3), -np.asarray(gravity, dtype=float)])
        else:
            A_p = A[parents[i]]
        A_i = X[i] @ A_p + c[i]
        qdd[i] = (u[i] - U[i] @ A_i) / D[i]
        A[i] = A_i + S[i] * qdd[i]
    return qdd


def test_the_aba_variant_without_mistakes_is_the_reference():
    assert all(_passes("aba_fixed", _aba_variant))


def test_the_given_aba_fails_every_case_and_has_exactly_the_two_stated_mistakes():
    buggy = _buggy()
    assert not any(_passes("aba_fixed", buggy))
    _, cases = _cases("aba_fixed")
    for _, c in cases:
        # the two mistakes, and nothing else (same arithmetic: round-off only)
        np.testing.assert_allclose(
            buggy(**c), _aba_variant(**c, bias_sign=1.0, projection_sign=1.0),
            rtol=1e-10, atol=1e-10)


@pytest.mark.parametrize("fixed", [{"bias_sign": 1.0}, {"projection_sign": 1.0}])
def test_fixing_only_one_aba_mistake_fails_every_case(fixed):
    assert not any(_passes("aba_fixed", lambda **c: _aba_variant(**c, **fixed)))


def test_the_hint_each_mistake_hides_in_one_situation():
    """The bias-force sign does not show at rest, the projection sign not for a single
    body (the statement's hint)."""
    _, cases = _cases("aba_fixed")
    c = cases[1][1]
    at_rest = dict(c, qd=np.zeros(len(c["q"])))
    np.testing.assert_allclose(_aba_variant(**at_rest, bias_sign=1.0),
                               REF.aba_fixed(**at_rest), rtol=1e-12, atol=1e-12)
    one = {k: (v[:1] if k not in ("gravity",) else v) for k, v in c.items()}
    np.testing.assert_allclose(_aba_variant(**one, projection_sign=1.0),
                               REF.aba_fixed(**one), rtol=1e-12, atol=1e-12)
    assert not np.allclose(_aba_variant(**c, bias_sign=1.0), REF.aba_fixed(**c))


# --- 3.5.5 forward_dynamics_facts -------------------------------------------------------


def test_forward_dynamics_facts_numerically():
    """E: the ABA's qdd is M^-1 (tau - h) at high joint rates too; B: the CRBA's M of a
    tree has exact zeros between branches (checked on the Y above); F: checked on
    every tree of 3.5.3 above."""
    _, cases = _cases("aba_fixed")
    c = cases[1][1]
    model = _model(c)
    fast = 50.0 * np.asarray(c["qd"])
    h = kt.bias_forces(model, c["q"], fast, c["gravity"])
    assert np.abs(h).max() > 100 * np.abs(c["tau"]).max()  # velocity terms dominate
    np.testing.assert_allclose(td.aba(model, c["q"], fast, c["tau"], c["gravity"]),
                               np.linalg.solve(td.crba(model, c["q"]), c["tau"] - h),
                               rtol=1e-9)
    assert REF.forward_dynamics_facts == {"A", "D", "F"}


# --- 3.5.6 max_arm_mass ----------------------------------------------------------------


def test_max_arm_mass_reference_turns_the_base_by_theta_max_by_lib():
    """At the reference's mass, lib's centroidal momentum matrix (zero momentum, base
    twist solved per unit joint rate, Gauss-Legendre over the swing) turns the base by
    exactly theta_max; quadrature and root finding: 1e-9."""
    _, cases = _cases("max_arm_mass")
    for _, c in cases:
        m_a = REF.max_arm_mass(**c)
        turn = CHAPTER_SPEC.base_turn(c["m_b"], c["I_b"], c["r"], c["l"], m_a, c["q0"],
                                      c["q1"])
        np.testing.assert_allclose(abs(turn), c["theta_max"], rtol=1e-9)
        assert turn < 0.0  # the base turns against the arm


def test_the_base_turn_grows_with_the_arm_mass_towards_the_swing():
    """The statement's hint: on every case the turn grows with m_a (so the largest mass
    is a root) and approaches the swing itself for a very heavy arm (lib's A_G)."""
    _, cases = _cases("max_arm_mass")
    for _, c in cases:
        geometry = (c["m_b"], c["I_b"], c["r"], c["l"])
        masses = c["m_b"] * np.geomspace(1e-3, 1e4, 40)
        turns = np.array([-CHAPTER_SPEC.base_turn(*geometry, m, c["q0"], c["q1"])
                          for m in masses])
        assert np.all(np.diff(turns) > 0.0)
        assert turns[0] < c["theta_max"] < turns[-1] < c["q1"] - c["q0"]
        # at 1e4 base masses the rod's inertia dwarfs the base's: within 1 % of the swing
        assert turns[-1] > 0.99 * (c["q1"] - c["q0"])


def test_the_base_turn_does_not_depend_on_the_speed_of_the_swing():
    """Two swings of the public satellite, at 1 rad/s and 3 rad/s, each integrated with
    lib's centroidal momentum matrix at every instant: the base turns by the same angle.
    Momentum is conserved, so the base's rate is a function of q times the joint rate."""
    c = _cases("max_arm_mass")[1][0][1]
    model = CHAPTER_SPEC.floating_arm(c["m_b"], c["I_b"], c["r"], c["l"], 5.0)
    turns = []
    for speed in (1.0, 3.0):
        t = np.linspace(0.0, (c["q1"] - c["q0"]) / speed, 2001)
        q = np.zeros((t.size, model.nq))
        q[:, 3], q[:, 7] = 1.0, c["q0"] + speed * t
        a_g = td.centroidal_momentum_matrix(model, q)
        rate = np.linalg.solve(a_g[:, :, :6], -speed * a_g[:, :, 6:7])[:, 2, 0]
        turns.append(np.trapezoid(rate, t))
    # trapezoid rule on 2000 intervals of a smooth rate: ~1e-7 relative
    np.testing.assert_allclose(turns[0], turns[1], rtol=1e-6)


def _arm_mass_variant(m_b, I_b, r, l, q0, q1, theta_max, *, base_moves=True,
                      rod_inertia=True):
    """The reference's answer with one classic mistake switched on."""
    def turn(m_a):
        I_a = m_a * l**2 / 12.0 if rod_inertia else 0.0
        mu = m_b * m_a / (m_b + m_a) if base_moves else m_a

        def rate(q):
            cross = 0.5 * l * r * np.cos(q) + 0.25 * l**2
            square = r**2 + l * r * np.cos(q) + 0.25 * l**2
            return (I_a + mu * cross) / (I_b + I_a + mu * square)

        return quad(rate, q0, q1, epsabs=1e-13, epsrel=1e-12)[0]

    return brentq(lambda m: turn(m) - theta_max, 1e-9 * m_b, 100 * m_b, xtol=1e-12)


def test_the_arm_mass_variant_without_mistakes_is_the_reference():
    assert all(_passes("max_arm_mass", _arm_mass_variant))


@pytest.mark.parametrize("mistake", [
    {"base_moves": False},  # the base's centre of mass held still: m_a, not the reduced mass
    {"rod_inertia": False},  # the rod as a point mass at its centre
])
def test_max_arm_mass_mistakes_fail_every_case(mistake):
    assert not any(_passes("max_arm_mass", lambda **c: _arm_mass_variant(**c, **mistake)))


# --- other correct formulations score full marks ---------------------------------


def _world_poses(c):
    """Each body's pose in the world and its joint's twist axis in world coordinates."""
    parents = [int(p) for p in c["parents"]]
    poses, axes0 = [], []
    for i, p in enumerate(parents):
        turn = np.eye(4)
        turn[:3, :3] = expm(_skew(np.asarray(c["axes"][i]) * c["q"][i]))
        local = np.asarray(c["placements"][i]) @ turn
        poses.append(local if p < 0 else poses[p] @ local)
        axes0.append(_adjoint(poses[i]) @ np.r_[c["axes"][i], 0.0, 0.0, 0.0])
    return parents, poses, axes0


def _adjoint(T):
    out = np.zeros((6, 6))
    out[:3, :3] = out[3:, 3:] = T[:3, :3]
    out[3:, :3] = _skew(T[:3, 3]) @ T[:3, :3]
    return out


def _rate_through_the_centre_of_mass(G, V):
    """3.5.1 from m, c and I_c: c' = v + w x c, I_c' = [w] I_c - I_c [w]."""
    m = G[3, 3]
    c = np.array([G[2, 4], G[0, 5], G[1, 3]]) / m  # G's upper right block is m [c]
    i_c = G[:3, :3] - m * _skew(c) @ _skew(c).T
    c_rate = V[3:] + np.cross(V[:3], c)
    out = np.zeros((6, 6))
    out[:3, :3] = (_skew(V[:3]) @ i_c - i_c @ _skew(V[:3])
                   + m * (_skew(c_rate) @ _skew(c).T + _skew(c) @ _skew(c_rate).T))
    out[:3, 3:] = m * _skew(c_rate)
    out[3:, :3] = out[:3, 3:].T
    return out


def _crba_in_world_coordinates(parents, placements, axes, inertias, q):
    """3.5.2 with every inertia and axis in the world frame: M_ij = S_i^T G^c_j S_j for
    i an ancestor of j, the composite inertias summed over subtrees without carrying."""
    c = {"parents": parents, "placements": placements, "axes": axes, "q": q}
    parents, poses, axes0 = _world_poses(c)
    n = len(parents)
    g0 = [_adjoint(inverse_transform(T)).T @ G @ _adjoint(inverse_transform(T))
          for T, G in zip(poses, inertias)]
    line = [[k] for k in range(n)]
    for k in range(n):
        while parents[line[k][-1]] >= 0:
            line[k].append(parents[line[k][-1]])
    M = np.zeros((n, n))
    for j in range(n):
        composite = sum(g0[k] for k in range(n) if j in line[k])
        for i in line[j]:
            M[i, j] = M[j, i] = axes0[i] @ composite @ axes0[j]
    return M


def _articulated_with_a_projector(parents, placements, axes, inertias, q, locked):
    """3.5.3 with a free child's share written P^T G^A P, P = 1 - S U^T / D."""
    S, X = _kinematics({"parents": parents, "placements": placements, "axes": axes,
                        "inertias": inertias, "q": q})
    out = [np.array(G, dtype=float) for G in inertias]
    for i in range(len(parents) - 1, -1, -1):
        if parents[i] >= 0:
            share = out[i]
            if not locked[i]:
                P = np.eye(6) - np.outer(S[i], out[i] @ S[i]) / (S[i] @ out[i] @ S[i])
                share = P.T @ out[i] @ P
            out[parents[i]] = out[parents[i]] + X[i].T @ share @ X[i]
    return np.array(out)


def _aba_by_cholesky(parents, placements, axes, inertias, q, qd, tau, gravity):
    """3.5.4 by the route through M: the student's CRBA, an RNEA for h, Cholesky."""
    from scipy.linalg import cho_factor, cho_solve

    M = REF.tree_crba(parents, placements, axes, inertias, q)
    h = kt.bias_forces(_model({"parents": parents, "placements": placements,
                               "axes": axes, "inertias": inertias}), q, qd, gravity)
    return cho_solve(cho_factor(M), np.asarray(tau) - h)


def _arm_mass_by_trapezoids(m_b, I_b, r, l, q0, q1, theta_max):
    """3.5.6 with the positions of both centres of mass about the system's, and the
    turn by the trapezoid rule on 200 intervals (error ~1e-6 of the turn)."""
    def turn(m_a):
        s = np.linspace(q0, q1, 201)
        rho = np.array([r + 0.5 * l * np.cos(s), 0.5 * l * np.sin(s)])
        rho_q = np.array([-0.5 * l * np.sin(s), 0.5 * l * np.cos(s)])
        share_b, share_a = -m_a / (m_a + m_b), m_b / (m_a + m_b)
        about_q = m_a * l**2 / 12 + (m_b * share_b**2 + m_a * share_a**2) * (
            rho[0] * rho_q[1] - rho[1] * rho_q[0])
        about_base = (I_b + m_a * l**2 / 12
                      + (m_b * share_b**2 + m_a * share_a**2) * (rho**2).sum(axis=0))
        return np.trapezoid(about_q / about_base, s)

    return brentq(lambda m: turn(m) - theta_max, 1e-6 * m_b, 1e3 * m_b)


@pytest.mark.parametrize(("name", "answer"), [
    ("inertia_rate", _rate_through_the_centre_of_mass),
    ("tree_crba", _crba_in_world_coordinates),
    ("articulated_inertias", _articulated_with_a_projector),
    ("aba_fixed", _aba_by_cholesky),
    ("max_arm_mass", _arm_mass_by_trapezoids),
])
def test_other_correct_formulations_pass_every_case(name, answer):
    """Another frame, another factorisation, a coarser quadrature: full marks."""
    assert all(_passes(name, lambda **c: answer(**{k: np.asarray(v, dtype=float)
                                                   if k != "parents" and k != "locked"
                                                   else v for k, v in c.items()})))


def test_max_arm_mass_is_graded_without_lib_as_the_figure_would_answer_it():
    """A box base fitted to (m_b, I_b, r) and a root-find around the page's figure
    function lib.figures.floating_momentum.floating_momentum_data scores every case,
    so 3.5.6 (whose point is the angular momentum written by hand) is graded without
    lib; the reference uses scipy only."""
    from lib.figures.floating_momentum import floating_momentum_data

    def by_the_figure(m_b, I_b, r, l, q0, q1, theta_max):
        size = (2 * r, np.sqrt(12 * I_b / m_b - 4 * r**2))

        def turn(m_a):
            d = [floating_momentum_data(q_deg=np.degrees(a), arm_mass=m_a,
                                        base_mass=m_b, base_size=size,
                                        arm_length=l)["theta_deg"]
                 for a in (q0, q1)]
            return np.radians(d[0] - d[1])

        return brentq(lambda m: turn(m) - theta_max, 1e-6 * m_b, 1e3 * m_b)

    assert all(_passes("max_arm_mass", by_the_figure))
    assert SPEC.exercise("max_arm_mass").lib_forbidden
    assert "lib" not in REF.max_arm_mass.__code__.co_names
